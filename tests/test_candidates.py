"""True candidates (``sudoku-cp candidates``) and candidate grids (729-symbol pencil marks).

The candidates are checked against solutions found without the SAT code under test: the
catalogue's own enumeration (tests/variants.py: every Latin square or 4x4 Sudoku grid, kept by
the plain validator) and the ``dlx`` backend's full enumeration for the bundled ``multiple``
set, whose counts serg's benchmark states.
"""

from __future__ import annotations

import csv
import json

import pytest
from clitools import error_line, run
from variants import catalogue, solutions

from sudoku_cp import Puzzle
from sudoku_cp.backends import get_backend
from sudoku_cp.datasets import bundled_path
from sudoku_cp.errors import PuzzleError
from sudoku_cp.formats import parse_puzzle, read_puzzles
from sudoku_cp.formats.candidates import format_candidates, read_candidate_sets, write_candidates
from sudoku_cp.rules import Candidates
from sudoku_cp.true_candidates import analyse, suggestions

CAP = 1000
EULER_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def union(size: int, grids: list) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted({grid[cell] for grid in grids})) for cell in range(size * size))


@pytest.mark.parametrize("entry", catalogue(), ids=str)
def test_candidates_agree_with_enumeration_on_the_catalogue(entry) -> None:
    found = analyse(entry.puzzle, cap=CAP, probes=2, seed=0)
    every = solutions(entry.puzzle)
    assert len(every) == entry.count
    if not every:
        assert found.sets is None and found.count == 0 and found.exact
        return
    assert found.sets == union(entry.puzzle.size, every)
    if entry.count <= CAP:
        assert found.exact and found.count == entry.count
        assert sorted(found.solutions) == every
    else:
        assert not found.exact and found.count == CAP + 1
        assert found.estimate is not None and found.estimate.low > CAP


def _multiple() -> list[tuple[str, Puzzle, int]]:
    with bundled_path("multiple").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [(r["id"], parse_puzzle(r["puzzle"]), int(r["solution_count"])) for r in rows]


@pytest.mark.parametrize(("ident", "puzzle", "stated"), _multiple(), ids=lambda v: str(v)[:12])
def test_candidates_are_the_union_of_all_solutions(ident, puzzle, stated) -> None:
    found = analyse(puzzle, cap=CAP, probes=2, seed=0)
    if stated > CAP:
        assert not found.exact and found.count == CAP + 1
        return
    listed = get_backend("dlx").solve(puzzle, limit=stated + 1, time_limit=60)
    assert listed.count == stated  # the benchmark's stated count
    assert found.exact and found.count == stated
    assert found.sets == union(9, [tuple(s) for s in listed.solutions])


def test_a_unique_puzzle_takes_two_sat_calls_and_every_cell_is_fixed() -> None:
    puzzle = parse_puzzle(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    )
    found = analyse(puzzle)
    assert found.sat_calls == 2 and found.count == 1 and found.exact
    assert len(found.fixed(puzzle.cells)) == 81 - puzzle.givens_count


def test_the_estimate_of_the_empty_4x4_grid_covers_its_288_grids() -> None:
    found = analyse(Puzzle([0] * 16), cap=10, probes=400, seed=7)
    assert found.estimate is not None
    assert found.estimate.low <= 288 <= found.estimate.high


def test_suggestions_are_recounted() -> None:
    puzzle = Puzzle([1] + [0] * 15)
    found = analyse(puzzle)
    ideas = suggestions(puzzle, found, 3, CAP)
    every = solutions(puzzle)
    for idea in ideas:
        assert idea.exact and idea.left == sum(1 for g in every if g[idea.cell] == idea.digit)
    fewest = min(sum(1 for g in every if g[c] == d) for c in range(1, 16) for d in range(1, 5)
                 if any(g[c] == d for g in every))  # fmt: skip
    assert ideas[0].left == fewest


# --- the candidate grid format ---------------------------------------------------------------
def _grid(sets: list[tuple[int, ...]]) -> str:
    return "".join("".join(str(d) if d in s else "." for d in range(1, 10)) for s in sets)


def test_a_candidate_grid_reads_as_givens_and_given_candidates() -> None:
    solution = [int(d) for d in EULER_SOLUTION]
    sets: list[tuple[int, ...]] = [(d,) for d in solution]
    sets[0] = (4, 8)  # r1c1: 4 or 8
    sets[1] = tuple(range(1, 10))  # r1c2: anything
    sets[9] = (1, 9)  # r2c1: 1 or 9
    text = _grid(sets)
    assert text[:18] == "...4...8.123456789"
    puzzle = parse_puzzle(text)  # auto: 729 symbols, digits at their places
    assert puzzle.size == 9 and puzzle.cells[0] == 0 and puzzle.cells[2] == solution[2]
    assert set(puzzle.model.rules) == {Candidates((0,), (4, 8)), Candidates((9,), (1, 9))}
    assert write_candidates(puzzle) == text
    result = get_backend("sat").solve(puzzle, limit=2)
    assert result.count == 1 and tuple(result.solutions[0]) == tuple(solution)
    solved = run("solve", text, "--format", "line")
    assert solved.exit_code == 0 and EULER_SOLUTION in solved.output
    checked = run("check", text, "-q")
    assert checked.exit_code == 0 and "unique" in checked.output


def test_read_by_value_as_sukakuexplainer_and_iss_do() -> None:
    # SudokuIO.TryParseSukaku: a digit counts by its value wherever it stands in its cell.
    text = "84......." + "123456789" * 80
    sets, size = read_candidate_sets(text)
    assert size == 9 and sets[0] == (4, 8)
    with pytest.raises(PuzzleError, match="'8' at r1c1 stands at place 1"):
        parse_puzzle(text)  # auto refuses it: it could be a 27x27 line
    assert parse_puzzle(text, fmt="candidates").model.rules[0] == Candidates((0,), (4, 8))


def test_other_sizes_need_the_format_named() -> None:
    sets = [(1,), (2,), (3,), (4,), (3,), (4,), (1,), (2,)] + [(1, 2, 3, 4)] * 8
    text = format_candidates(sets, 4)
    assert len(text) == 64
    puzzle = parse_puzzle(text, fmt="candidates")
    assert puzzle.size == 4 and puzzle.cells[:8] == (1, 2, 3, 4, 3, 4, 1, 2)
    with pytest.raises(PuzzleError, match="row 5: r5c1 and r5c5"):
        parse_puzzle(text)  # auto: the line form of an 8x8 grid (here with a repeated given)


def test_a_line_of_729_blanks_stays_an_empty_27x27_grid() -> None:
    assert parse_puzzle("." * 729).size == 27


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("." * 9 + "123456789" * 80, "r1c1 has no candidate"),
        ("123456789" * 80 + "12345678", "read 728 symbols"),
        ("?" + "23456789" + "123456789" * 80, "unknown symbol '?' in the candidates of r1c1"),
        ("x" + "23456789" + "123456789" * 80, "r1c1: candidate 'x' (digit 33) is outside 1..9"),
        ("1234" * 15 + "12?4", "unknown symbol '?' in the candidates of r4c4"),
        ("1235" + "1234" * 15, "r1c1: candidate '5' (digit 5) is outside 1..4"),
    ],
    ids=lambda value: value[-20:],
)
def test_bad_candidate_grids_are_one_line(text: str, message: str) -> None:
    result = run("candidates", "--input-format", "candidates", text)
    assert result.exit_code == 2
    assert message in error_line(result)


def test_a_file_of_candidate_grids_one_a_line(tmp_path) -> None:
    lines = ["123456789" * 81, "1........" + "123456789" * 80]
    path = tmp_path / "pm.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    records = list(read_puzzles(path))
    assert [r.puzzle.size for r in records] == [9, 9]
    assert records[1].puzzle.cells[0] == 1
    result = run("count", str(path), "--limit", "2")
    assert result.exit_code == 0, result.output
    assert "at least 2" in result.output


# --- the command ---------------------------------------------------------------------------------
def test_the_command_prints_the_candidates_as_json_and_a_grid() -> None:
    result = run("candidates", "1" + "." * 15, "--format", "json", "--suggest", "2")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    every = solutions(Puzzle([1] + [0] * 15))
    assert data["solutions"] == {"count": len(every), "exact": True}
    assert [d for row in data["candidates"] for d in row] == [list(s) for s in union(4, every)]
    assert len(data["suggestions"]) == 2
    grid = run("candidates", "1" + "." * 15, "--format", "candidates")
    assert grid.output.strip() == format_candidates(union(4, every), 4)
    svg = run("candidates", "1" + "." * 15, "--format", "svg")
    assert svg.output.startswith("<svg")
    marks = sum(len(digits) for digits in union(4, every) if len(digits) > 1)
    assert svg.output.count('class="candidate"') == marks


def test_no_solution_is_exit_1_and_one_line() -> None:
    # r1c1, r1c2 and r1c3 may hold only 1 or 2: no given repeated, no solution
    text = "12......." * 3 + "123456789" * 78
    result = run("candidates", text)
    assert result.exit_code == 1
    assert "no solution" in error_line(result)


def test_bad_input_and_options_are_exit_2() -> None:
    assert run("candidates", "1..x").exit_code == 2
    assert run("candidates", "1" + "." * 15, "--count-cap", "100001").exit_code == 2
    assert run("candidates", "1" + "." * 15, "--probes", "0").exit_code == 2


def test_the_output_file_is_written_whole(tmp_path) -> None:
    out = tmp_path / "c.html"
    result = run("candidates", "1" + "." * 15, "--format", "html", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_out_of_time_is_exit_3_and_one_line() -> None:
    result = run("candidates", "." * 81, "--count-cap", "100000", "--time-limit", "0.2")
    assert result.exit_code == 3
    assert "time limit" in error_line(result)


def test_an_estimate_states_its_method_and_interval() -> None:
    result = run("candidates", "." * 16, "--count-cap", "10", "--seed", "3", "-f", "json")
    assert result.exit_code == 0, result.output
    solutions = json.loads(result.output)["solutions"]
    assert solutions["exact"] is False and solutions["count"] == 11
    low, high = solutions["interval95"]
    assert 10 < low <= solutions["estimate"] <= high
    assert solutions["probes"] == 30 and "importance sampling" in solutions["method"]


# --- rule-mark suggestions (issue 31) ------------------------------------------------------
def _mark_holds(rule, grid) -> bool:
    a, b = (grid[c] for c in rule.cells)
    return rule.allows(a, b) if hasattr(rule, "allows") else a + b == rule.total


def test_mark_suggestions_are_recounted_by_enumeration() -> None:
    from sudoku_cp.true_candidates import mark_suggestions

    puzzle = Puzzle([1] + [0] * 15)
    every = solutions(puzzle)  # independent: plain enumeration of the 4x4 grids
    found = analyse(puzzle, cap=CAP)
    marks = mark_suggestions(puzzle, found, 4, CAP)
    assert len(marks) == 4
    lefts, cuts = [], set()
    for mark in marks:
        a, b = mark.rule.cells
        assert b - a in (1, 4)  # orthogonal neighbours
        marked = Puzzle.from_parsed(
            puzzle.cells, 4, puzzle.model.with_rules(rules=[mark.rule], size=4)
        )
        kept = solutions(marked)
        assert mark.exact and mark.left == len(kept)
        assert 0 < len(kept) < len(every)
        # the kept grids are exactly those of the unmarked puzzle the mark holds in
        assert kept == [g for g in every if _mark_holds(mark.rule, g)]
        lefts.append(mark.left)
        cuts.add((mark.rule.cells, tuple(kept)))
    assert lefts == sorted(lefts)  # fewest solutions left first
    # no two suggestions keep the same solutions between the same cells (an X and a 10-cage)
    assert len(cuts) == len(marks)


def test_mark_suggestions_keep_to_their_time_limit_and_none_for_a_unique_puzzle() -> None:
    from sudoku_cp.true_candidates import OutOfTime, mark_suggestions

    puzzle = Puzzle([1] + [0] * 15)
    found = analyse(puzzle, cap=CAP)
    with pytest.raises(OutOfTime):
        mark_suggestions(puzzle, found, 3, CAP, time_limit=1e-9)
    full = get_backend("sat").solve(puzzle).solutions[0]
    unique = puzzle.with_cells(list(full[:-1]) + [0])
    assert mark_suggestions(unique, analyse(unique, cap=CAP), 3, CAP) == []


def test_the_command_suggests_marks_on_a_multi_solution_puzzle() -> None:
    rows = list(csv.DictReader(bundled_path("multiple").open()))
    line = rows[0]["puzzle"]
    result = run("candidates", line, "--format", "json", "--suggest", "2")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    total = data["solutions"]["count"]
    assert len(data["mark_suggestions"]) == 2
    for mark in data["mark_suggestions"]:
        assert 0 < mark["solutions_left"] < total
    text = run("candidates", line, "--suggest", "1").output
    assert "suggest the mark " in text


def test_suggestions_at_the_largest_count_cap() -> None:
    # --count-cap 100000 is allowed, but the re-count asked a backend for 100,001 solutions,
    # above every backend's limit: an error instead of the suggestions.
    result = run("candidates", "--count-cap", "100000", "--suggest", "1", "." * 16)
    assert result.exit_code == 0, result.stderr
    assert "suggest 1 at r1c1: 72 solutions left" in result.stdout
