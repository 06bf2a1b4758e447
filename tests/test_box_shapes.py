"""Choosing the box shape: ``--box 3x2`` on every command that takes ``--model``, ``box = "3x2"``
in model files, ``load_model(..., box=...)`` in the API — and the repeated-given error that
says how, for a size with more than one box shape."""

from __future__ import annotations

import csv
import json

import pytest
from clitools import error_line, run
from puzzles import INKALA, unique_from

from sudoku_cp import DuplicateGivenError, Puzzle, cross_check
from sudoku_cp.bench.record import config_from_record, load_record
from sudoku_cp.errors import ModelError
from sudoku_cp.formats import format_pretty
from sudoku_cp.model import box_shapes, load_model
from sudoku_cp.transforms import moves, preserves

REAL = "backtrack"
SHAPES = [(3, 2), (4, 2), (4, 3), (5, 3)]


def shaped_solution(height: int, width: int) -> list[int]:
    """A solved grid whose boxes are ``height`` rows by ``width`` columns (shifting pattern)."""
    n = height * width
    return [(width * (r % height) + r // height + c) % n + 1 for r in range(n) for c in range(n)]


def shaped_puzzle(height: int, width: int) -> list[int]:
    """A unique puzzle under ``height``x``width`` boxes that repeats a given in a default box."""
    return unique_from(tuple(shaped_solution(height, width)), height * width)


def line(cells: list[int]) -> str:
    return Puzzle(cells, load_model("latin")).to_line()


SIX = line(shaped_puzzle(3, 2))


# --- the model and the validator -----------------------------------------------------------------
@pytest.mark.parametrize(("height", "width"), SHAPES, ids=[f"{h}x{w}" for h, w in SHAPES])
def test_the_default_shape_says_it_repeats_a_given_and_names_the_other_shape(height, width):
    n = height * width
    with pytest.raises(DuplicateGivenError) as caught:
        Puzzle(shaped_puzzle(height, width))
    message = str(caught.value)
    default = box_shapes(n)[0]
    assert "is given twice in box " in message
    assert f"(boxes here are {default[0]}x{default[1]}, rows by columns; choose another " in (
        message
    )
    assert f"--box {height}x{width}" in message and f'box = "{height}x{width}"' in message
    rules = load_model("classic", box=f"{height}x{width}")
    puzzle = Puzzle(shaped_puzzle(height, width), model=rules)  # the API takes the shape
    solution = tuple(shaped_solution(height, width))
    assert puzzle.is_solution(solution)
    assert not Puzzle([0] * n * n).is_solution(solution)  # the default boxes reject it


def test_a_size_with_one_box_shape_gets_no_hint():
    cells = [0] * 81
    cells[0] = cells[10] = 1
    with pytest.raises(DuplicateGivenError) as caught:
        Puzzle(cells)
    assert str(caught.value) == "digit 1 is given twice in box 1: r1c1 and r2c2"
    cells = [0] * 36
    cells[0] = cells[1] = 1  # a row, not a box: no hint either
    with pytest.raises(DuplicateGivenError) as caught:
        Puzzle(cells)
    assert str(caught.value) == "digit 1 is given twice in row 1: r1c1 and r1c2"


def test_box_shapes_and_impossible_ones():
    assert box_shapes(6) == [(2, 3), (3, 2)] and box_shapes(9) == [(3, 3)]
    assert box_shapes(12) == [(3, 4), (4, 3), (2, 6), (6, 2)] and box_shapes(7) == []
    with pytest.raises(Exception, match=r"has 4x2 boxes, which fit only the 8x8 grid \(a 6x6"):
        Puzzle([0] * 36, model=load_model("classic", box="4x2"))
    for bad, message in [
        ("3", "box '3': give it as ROWSxCOLUMNS, such as 3x2"),
        ("1x6", "box 1x6: a box has at least 2 rows and 2 columns"),
        ("9x9", "box 9x9: 81 cells, but the largest grid is 64x64"),
    ]:
        with pytest.raises(ModelError) as caught:
            load_model("classic", box=bad)
        assert str(caught.value) == message
    with pytest.raises(ModelError, match="model 'latin' has no boxes"):
        load_model("latin", box="3x2")
    with pytest.raises(ModelError) as caught:
        load_model("hyper", box="3x2")
    assert str(caught.value) == "box 3x2 fits size 6, but model 'hyper' only fits size 9"


def test_a_model_file_chooses_the_box_shape(tmp_path):
    path = tmp_path / "six.toml"
    path.write_text('groups = ["rows", "columns", "boxes"]\nbox = "3x2"\n')
    rules = load_model(str(path))
    assert rules.box == (3, 2) and rules.box_for(6) == (3, 2) and rules.fits(9) is not None
    assert Puzzle.parse(SIX, model=rules).to_line() == SIX
    result = run("solve", SIX, "--model", str(path), "--format", "line")
    assert result.exit_code == 0, result.output
    for content, message in [
        ('groups = ["rows", "boxes"]\nbox = 3\n', "'box' must be a string such as \"3x2\""),
        ('groups = ["rows", "boxes"]\nbox = "3-2"\n', "box '3-2': give it as ROWSxCOLUMNS"),
        ('groups = ["rows", "columns"]\nbox = "3x2"\n', "'box' needs \"boxes\" in its groups"),
        (
            'groups = ["rows", "boxes"]\nbox = "3x2"\nsizes = [9]\n',
            "3x2 boxes fit size 6, which 'sizes' leaves out",
        ),
    ]:
        path.write_text(content)
        with pytest.raises(ModelError) as caught:
            load_model(str(path))
        assert message in str(caught.value)


def test_every_backend_and_the_cross_check_take_the_shape():
    puzzle = Puzzle.parse(SIX, model=load_model("classic", box="3x2"))
    record = cross_check(puzzle, time_limit=30)
    assert record.verdict.value == "unique"
    assert record.solutions[0] == tuple(shaped_solution(3, 2))
    ran = {name for name, run_ in record.backends.items() if run_.status.value == "unique"}
    assert {"backtrack", "dlx"} <= ran and len(ran) == len(record.backends)


def test_pretty_output_draws_the_chosen_boxes():
    drawn = format_pretty(shaped_solution(3, 2), 6, load_model("classic", box="3x2"))
    lines = drawn.splitlines()
    assert lines[0].count("|") == 2 and lines[3].startswith("----+")  # 3 rows, then a rule


def test_metamorphic_moves_keep_the_chosen_boxes():
    rules = load_model("classic", box="3x2")
    names = [move.name for move in moves(rules, 6)]
    assert "swap rows 1,3" in names and "swap stacks 1,3" in names  # bands of 3, stacks of 2
    assert "swap rows 3,4" not in names and "transpose" not in names
    assert all(preserves(rules, 6, move.cells) for move in moves(rules, 6))


# --- the command line: solve, check, count, bench ------------------------------------------------
def test_solve_with_box():
    result = run("solve", SIX, "--format", "line")
    assert result.exit_code == 2
    assert "choose another shape with --box 3x2" in error_line(result)
    result = run("solve", SIX, "--box", "3x2", "--format", "line", "--limit", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == [line(shaped_solution(3, 2))]
    assert "unique" in result.stderr


def test_check_and_count_with_box():
    result = run("check", SIX, "--box", "3x2", "-j", "1", "-q", "-f", "jsonl")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["verdict"] == "unique" and len(record["backends"]) >= 2
    result = run("check", SIX, "--box", "3x2", "-b", REAL, "-j", "0", "-q", "--metamorphic", "4")
    assert result.exit_code == 0, result.output
    result = run("count", SIX, "--box", "3x2", "-b", REAL, "-j", "0", "-q", "--all")
    assert result.exit_code == 0 and result.stdout == "1: exactly 1 solution\n", result.output
    default = run("check", SIX, "-b", REAL, "-j", "0", "-q", "-f", "jsonl")
    assert default.exit_code == 1
    assert "choose another shape with --box 3x2" in json.loads(default.stdout)["reason"]


def test_an_impossible_or_malformed_box_is_one_line(tmp_path, monkeypatch):
    # bench without -o makes bench-results/DATE-TIME in the working folder before it reads the
    # model: here, not in the checkout, where another pytest-xdist worker's bench may be
    monkeypatch.chdir(tmp_path)
    result = run("solve", SIX, "--box", "4x2")
    assert result.exit_code == 2
    assert error_line(result).endswith(
        "read a 6x6 puzzle, but model 'classic' has 4x2 boxes, which fit only the 8x8 grid "
        "(a 6x6 grid takes boxes 2x3 or 3x2)"
    )
    result = run("check", SIX, "--box", "4x2", "-b", REAL, "-j", "0", "-q", "-f", "jsonl")
    assert result.exit_code == 1
    assert "has 4x2 boxes, which fit only the 8x8 grid" in json.loads(result.stdout)["reason"]
    source = tmp_path / "six.txt"
    source.write_text(f"{SIX}\n")
    for command in ("solve", "check", "count", "bench"):
        result = run(command, str(source), "--box", "3by2")
        assert result.exit_code == 2
        assert error_line(result) == (
            "sudoku-cp: error: box '3by2': give it as ROWSxCOLUMNS, such as 3x2"
        )
        result = run(command, str(source), "--box", "3x2", "--model", "latin")
        assert result.exit_code == 2 and "model 'latin' has no boxes" in error_line(result)


def test_resume_refuses_another_box_shape(tmp_path):
    out = tmp_path / "out.jsonl"
    first = run("check", SIX, "--box", "3x2", "-b", REAL, "-j", "0", "-q", "-o", str(out))
    assert first.exit_code == 0, first.output
    again = run("check", SIX, "-b", REAL, "-j", "0", "-q", "-o", str(out), "--resume")
    assert again.exit_code == 2
    assert "cannot resume: the output was made with model" in error_line(again)


@pytest.mark.slow
def test_bench_with_box_records_and_replays_it(tmp_path):
    source = tmp_path / "six.txt"
    source.write_text(f"{SIX}\n")
    out = tmp_path / "bench"
    result = run(
        "bench", str(source), "--box", "3x2", "--backends", "backtrack,dlx", "-o", str(out), "-q"
    )
    assert result.exit_code == 0, result.output
    with (out / "results.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert {r["status"] for r in rows} == {"unique"} and len(rows) == 2
    record = load_record(str(out))
    assert record["options"]["box"] == "3x2"
    assert config_from_record(record).box == "3x2"
    result = run("bench", str(source), "--backends", "backtrack", "-o", str(tmp_path / "b2"), "-q")
    (rejected,) = load_record(str(tmp_path / "b2"))["datasets"][0]["rejected"]
    assert "choose another shape with --box 3x2" in rejected["error"]


def test_the_9x9_default_is_untouched():
    result = run("solve", INKALA, "--box", "3x3", "--format", "line", "--limit", "2")
    assert result.exit_code == 0 and "unique" in result.stderr
