"""``sudoku-cp draw``: reads puzzles as solve does, writes SVG, and fails in one line."""

from __future__ import annotations

import json
from pathlib import Path

from clitools import error_line, run
from conftest import DATA
from puzzles import INKALA
from test_render import of_class, parsed, texts

from sudoku_cp import Puzzle
from sudoku_cp.formats.fpuzzles import fpuzzles_data, fpuzzles_link
from sudoku_cp.formats.line import SYMBOLS


def test_draws_to_standard_output_and_to_a_file(tmp_path: Path) -> None:
    result = run("draw", INKALA)
    assert result.exit_code == 0, result.output
    root = parsed(result.stdout)
    assert len(of_class(root, "given")) == Puzzle.parse(INKALA).givens_count
    out = tmp_path / "inkala.svg"
    result = run("draw", INKALA, "-o", str(out), "--cell-size", "30")
    assert result.exit_code == 0 and result.stdout == ""
    assert parsed(out.read_text()).get("width") == str(9 * 30 + 2 * 4)


def test_solution_draws_a_grid_the_validator_accepts() -> None:
    result = run("draw", INKALA, "--solution")
    assert result.exit_code == 0, result.output
    root = parsed(result.stdout)
    puzzle = Puzzle.parse(INKALA)
    assert len(of_class(root, "placed")) == 81 - puzzle.givens_count
    # Read the grid back from the picture: digits in drawing order are reading order.
    digits = [e for e in root.iter() if set(e.get("class", "").split()) & {"given", "placed"}]
    grid = tuple(SYMBOLS.index(e.text or "") + 1 for e in digits)
    assert puzzle.is_solution(grid)
    assert result.stderr == ""  # one solution: no warning


def test_solution_of_a_puzzle_with_two_says_so() -> None:
    # Two solutions (a 4x4 grid with a rectangle of 1s and 3s left open: r1c1, r1c3, r2c1,
    # r2c3), counted by enumeration: every 4x4 grid that agrees with the givens.
    givens = ".2.4.4.221434321"
    puzzle = Puzzle.parse(givens)
    agreeing = [grid for grid in _latin_fills(givens) if puzzle.is_solution(grid)]
    assert len(agreeing) == 2
    result = run("draw", givens, "--solution")
    assert result.exit_code == 0, result.output
    assert "more than one solution" in result.stderr and "warning" in result.stderr
    root = parsed(result.stdout)
    digits = [e for e in root.iter() if set(e.get("class", "").split()) & {"given", "placed"}]
    assert tuple(SYMBOLS.index(e.text or "") + 1 for e in digits) in agreeing


def _latin_fills(givens: str) -> list[tuple[int, ...]]:
    """Every way to fill the blanks of a 4x4 grid with digits 1-4."""
    import itertools

    blanks = [i for i, ch in enumerate(givens) if ch == "."]
    out = []
    for fill in itertools.product(range(1, 5), repeat=len(blanks)):
        grid = [0 if ch == "." else int(ch) for ch in givens]
        for cell, digit in zip(blanks, fill, strict=True):
            grid[cell] = digit
        out.append(tuple(grid))
    return out


def test_reads_fpuzzles_links_and_files_with_their_rules(tmp_path: Path) -> None:
    lines = (DATA / "variants9.jsonl").read_text().splitlines()
    data = json.loads(lines[17])  # CTC Tribute: arrows, a killer cage, thermometers
    link_result = run("draw", fpuzzles_link(data))
    assert link_result.exit_code == 0, link_result.output
    root = parsed(link_result.stdout)
    assert len(of_class(root, "cage")) == len(data["killercage"])
    assert len(of_class(root, "thermo-bulb")) == sum(len(t["lines"]) for t in data["thermometer"])
    file_result = run("draw", str(DATA / "variants9.jsonl"), "--index", "18")
    assert file_result.stdout == link_result.stdout
    jigsaw = run("draw", str(DATA / "jigsaw.csv"))
    assert jigsaw.exit_code == 0 and len(of_class(parsed(jigsaw.stdout), "region-border")) > 36


def test_model_option_draws_its_groups() -> None:
    result = run("draw", "." * 81, "--model", "x")
    assert result.exit_code == 0 and len(of_class(parsed(result.stdout), "diagonal")) == 2
    round_trip = fpuzzles_data(Puzzle.parse(INKALA).cells, 9, Puzzle.parse(INKALA).model, None)
    assert run("draw", json.dumps(round_trip)).exit_code == 0


def test_bad_input_is_one_line_with_the_documented_status(tmp_path: Path) -> None:
    bad = run("draw", "12345")
    assert bad.exit_code == 2 and "puzzle" in error_line(bad)
    beyond = run("draw", INKALA, "--index", "2")
    assert beyond.exit_code == 2 and "--index 2" in error_line(beyond)
    big = run("draw", INKALA, "--cell-size", "500")
    assert big.exit_code == 2 and "--cell-size" in error_line(big)
    nowhere = run("draw", INKALA, "-o", str(tmp_path / "no" / "such" / "dir.svg"))
    assert nowhere.exit_code == 2 and "cannot write" in error_line(nowhere)
    source = tmp_path / "puzzle.txt"
    source.write_text(INKALA + "\n")
    (tmp_path / "link.txt").symlink_to(source)
    itself = run("draw", str(source), "-o", str(tmp_path / "link.txt"))
    assert itself.exit_code == 2 and "is the input" in error_line(itself)
    assert source.read_text() == INKALA + "\n"


def test_solution_of_a_puzzle_without_one_exits_1() -> None:
    # r1c3 can hold neither 1, 2 (its row) nor 3, 4 (its column).
    result = run("draw", "12....3...4.....", "--solution")
    assert result.exit_code == 1 and "no solution" in error_line(result)
    assert texts(parsed(run("draw", "12....3...4.....").stdout), "given") == list("1234")
