"""The puzzle's own published solution as the witness of how it was read.

The puzzles here are 4x4 fortress puzzles whose solutions come from the reference meaning of
f-puzzles ``maximum`` (dclamage's MaximumConstraint: a fortress cell is compared only with
neighbours outside the fortress), enumerated plainly over every 4x4 Sudoku grid — never from a
backend. The misread model is the reading this project had before the fix (each fortress cell
compared with every neighbour), kept here as a subclass that reads the key wrongly.
"""

from __future__ import annotations

import dataclasses
import json
from typing import ClassVar

import pytest
from clitools import jsonl, run
from test_fortress import fortress, neighbours
from variants import sudoku_grids

from sudoku_cp import Puzzle
from sudoku_cp.batch.output import read_records
from sudoku_cp.harness import cross_check
from sudoku_cp.published import conflicts, published_status
from sudoku_cp.rules import Maximum

BACKENDS = ["backtrack", "sat"]
FORTRESS = {0, 1}  # two touching maximum cells, R1C1 and R1C2


def reference_solutions() -> list[tuple[int, ...]]:
    """Every 4x4 grid with R1C1 and R1C2 above their neighbours outside the fortress."""
    return [
        tuple(grid)
        for grid in sudoku_grids(4).tolist()
        if all(grid[c] > grid[n] for c in FORTRESS for n in neighbours(c) if n not in FORTRESS)
    ]


def unique_givens(solutions: list[tuple[int, ...]]) -> list[int]:
    """Givens from the first solution, added until it is the only one left."""
    target, left, cells = solutions[0], list(solutions), [0] * 16
    while len(left) > 1:
        cell = max(range(16), key=lambda c: sum(g[c] != target[c] for g in left))
        cells[cell] = target[cell]
        left = [g for g in left if g[cell] == target[cell]]
    return cells


SOLUTIONS = reference_solutions()
GIVENS = unique_givens(SOLUTIONS)
PUBLISHED = SOLUTIONS[0]


def published_fortress(solution=PUBLISHED, givens=GIVENS) -> dict:
    data = fortress(set(), FORTRESS)
    for cell, digit in enumerate(givens):
        if digit:
            data["grid"][cell // 4][cell % 4] = {"value": digit, "given": True}
    data["solution"] = list(solution)
    return data


@dataclasses.dataclass(frozen=True)
class MisreadMaximum(Maximum):
    """f-puzzles ``maximum`` read wrongly: compared with every neighbour, fortress or not."""

    key: ClassVar[str] = "maximum"

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return tuple((self.cell, other) for other in neighbours(self.cell))


def misread(puzzle: Puzzle) -> Puzzle:
    rules = tuple(MisreadMaximum(r.cell) for r in puzzle.model.rules if isinstance(r, Maximum))
    model = dataclasses.replace(puzzle.model, rules=rules)
    return Puzzle(puzzle.cells, model, published=puzzle.published)


def test_the_reference_reading_has_one_solution_with_these_givens():
    assert len(SOLUTIONS) > 1
    assert [s for s in SOLUTIONS if all(not g or s[c] == g for c, g in enumerate(GIVENS))] == [
        PUBLISHED
    ]


def test_a_fortress_puzzle_with_its_published_solution_is_unique_and_matches():
    puzzle = Puzzle.parse(json.dumps(published_fortress()))
    assert puzzle.published == PUBLISHED
    record = cross_check(puzzle, BACKENDS)
    assert record.verdict.value == "unique"
    assert record.solutions == [PUBLISHED]
    assert record.published == "match"
    assert record.to_dict()["published"] == "match"


def test_a_misread_rule_turns_the_verdict_into_a_disagreement_naming_the_rule():
    puzzle = misread(Puzzle.parse(json.dumps(published_fortress())))
    # Without the witness the misread model is a plain, wrong verdict every backend agrees on.
    blind = cross_check(Puzzle(puzzle.cells, puzzle.model), BACKENDS)
    assert blind.verdict.value == "none"
    record = cross_check(puzzle, BACKENDS)
    assert record.verdict.value == "disagreement"
    assert record.published.startswith("breaks: the maximum cell r1c1")
    assert "the published solution breaks the puzzle as read" in record.reason
    assert "the maximum cell r1c1" in record.reason
    assert "said none" in record.reason


def test_a_published_solution_beside_other_solutions_is_a_disagreement():
    # Fewer givens: the puzzle as read has several solutions, the setter's among them or not.
    few = [d if c in (0, 5) else 0 for c, d in enumerate(PUBLISHED)]
    record = cross_check(Puzzle.parse(json.dumps(published_fortress(givens=few))), BACKENDS)
    assert record.verdict.value == "disagreement"
    assert record.published in ("match", "differs")
    assert "the backends said multiple" in record.reason


def test_a_published_solution_that_breaks_a_given_is_a_disagreement():
    other = next(s for s in SOLUTIONS if s[0] != PUBLISHED[0])
    data = published_fortress(solution=other)
    record = cross_check(Puzzle.parse(json.dumps(data)), BACKENDS)
    assert record.verdict.value == "disagreement"
    assert record.published.startswith("breaks: ") and "the given is" in record.published


def test_an_incomplete_solution_is_no_witness():
    data = published_fortress()
    data["solution"][3] = 0
    puzzle = Puzzle.parse(json.dumps(data))
    assert puzzle.published is None
    record = cross_check(puzzle, BACKENDS)
    assert record.verdict.value == "unique" and record.published is None
    assert "published" not in record.to_dict()


@pytest.mark.parametrize(
    ("status", "answer", "conflict"),
    [
        ("match", "unique", False),
        ("match", "solved", False),
        ("match", "multiple", True),
        ("differs", "unique", True),
        ("differs", "timeout", True),
        ("holds", "none", True),
        ("holds", "timeout", False),
        ("breaks: r1c1 is 1 but the given is 2", "unique", True),
        (None, "none", False),
    ],
)
def test_what_contradicts_a_published_solution(status, answer, conflict):
    assert conflicts(status, answer) is conflict


def test_with_cells_drops_the_published_solution():
    puzzle = Puzzle.parse(json.dumps(published_fortress()))
    assert published_status(puzzle.with_cells(GIVENS), [PUBLISHED]) is None


# --- the command line ----------------------------------------------------------------------------
def test_solve_and_count_say_so_in_their_status_line(tmp_path):
    path = tmp_path / "fortress.json"
    path.write_text(json.dumps(published_fortress()))
    solved = run("solve", str(path), "--format", "line", "--limit", "2")
    assert solved.exit_code == 0, solved.output
    assert "published solution: match" in solved.stderr
    counted = run("count", str(path), "--backends", "backtrack,sat")
    assert counted.exit_code == 0
    assert "exactly 1 solution · published solution: match" in counted.output


def test_solve_exits_3_when_the_published_solution_breaks_the_puzzle(tmp_path):
    other = next(s for s in SOLUTIONS if s[0] != PUBLISHED[0])
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(published_fortress(solution=other)))
    solved = run("solve", str(path), "--format", "line")
    assert solved.exit_code == 3
    assert "DISAGREEMENT: the published solution breaks the puzzle as read" in solved.stderr
    checked = run("check", str(path), "--backends", "backtrack,sat", "--format", "jsonl")
    assert checked.exit_code == 3
    [record] = jsonl(checked.stdout)
    assert record["verdict"] == "disagreement" and record["published"].startswith("breaks: ")


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_result_files_keep_the_published_status(tmp_path, suffix):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(published_fortress()) + "\n")
    out = tmp_path / f"out{suffix}"
    result = run("check", str(path), "--backends", "backtrack,sat", "--output", str(out), "-q")
    assert result.exit_code == 0, result.output
    [record] = read_records(out)
    assert record.published == "match" and record.verdict.value == "unique"


def test_bench_lists_a_published_solution_conflict_among_its_disagreements(tmp_path):
    other = next(s for s in SOLUTIONS if s[0] != PUBLISHED[0])
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(published_fortress(solution=other)) + "\n")
    result = run("bench", str(path), "-b", "backtrack,sat", "-o", str(tmp_path / "out"))
    assert result.exit_code == 3
    assert "DISAGREEMENTS on set: 2 wrong or contradicted answers (1 puzzles)" in result.stdout
    assert "the published solution breaks the puzzle as read" in result.stdout


# --- a stated solution count (a `solution_count` key or column) is a witness too -------------
def _enumerated_count(givens: str) -> int:
    """Solutions of a 4x4 puzzle, by plain enumeration of every 4x4 Sudoku grid."""
    cells = [0 if ch == "." else int(ch) for ch in givens]
    return sum(
        all(g == c for g, c in zip(grid, cells, strict=True) if c)
        for grid in sudoku_grids(4).tolist()
    )


OPEN = "1234............"  # many solutions
CLOSED = "1234341221434321"  # one: already full


@pytest.mark.parametrize("command", [("check",), ("count", "--all")])
def test_a_verdict_against_the_stated_solution_count_is_a_disagreement(tmp_path, command):
    """check and count read a stated solution_count and never compared it (bench alone did):
    a misread rule that made a unique puzzle multiple stood as a plain verdict."""
    many = _enumerated_count(OPEN)
    assert many > 2 and _enumerated_count(CLOSED) == 1
    rows = [(OPEN, 1), (CLOSED, 2), (CLOSED, 1), (OPEN, 0), (CLOSED, 0)]
    path = tmp_path / "stated.csv"
    path.write_text(
        "puzzle,solution_count\n" + "".join(f"{p},{n}\n" for p, n in rows), encoding="utf-8"
    )
    result = run(*command, str(path), "-b", "backtrack,sat", "-j", "0", "-f", "jsonl")
    assert result.exit_code == 3, result.output
    got = {r["index"]: r for r in jsonl(result.stdout)}
    assert [got[i]["verdict"] for i in range(1, 6)] == [
        "disagreement",
        "disagreement",
        "unique",
        "disagreement",
        "disagreement",
    ]
    assert got[1]["reason"].startswith("the input states 1 solution, the backends found ")
    assert got[2]["reason"].startswith(
        "the input states 2 solutions, the backends found unique: a rule is misread"
    )
    assert got[5]["reason"].startswith("the input states 0 solutions, the backends found unique")
    if command == ("check",):  # no backend is wrong: nothing to shrink, and it says so
        shrunk = run(
            "check", str(path), "-b", "backtrack,sat", "-j", "0", "-f", "jsonl", "--shrink"
        )
        for record in jsonl(shrunk.stdout):
            if record["verdict"] == "disagreement":
                assert record["shrunk"]["reason"].startswith("no backend disagrees")


def test_an_exact_count_is_compared_with_the_stated_one(tmp_path):
    many = _enumerated_count(OPEN)
    path = tmp_path / "stated.csv"
    path.write_text(f"puzzle,solution_count\n{OPEN},{many}\n{OPEN},{many + 1}\n", encoding="utf-8")
    args = ["-b", "backtrack,sat", "-j", "0", "-f", "jsonl"]
    counted = run("count", "--all", str(path), *args)
    got = {r["index"]: r for r in jsonl(counted.stdout)}
    assert (got[1]["verdict"], got[1]["count"], got[1]["exact"]) == ("multiple", many, True)
    assert got[2]["verdict"] == "disagreement"
    assert got[2]["reason"].startswith(
        f"the input states {many + 1} solutions, the backends found exactly {many}"
    )
    # check stops at two solutions: a count it did not finish contradicts no stated count >= 2
    checked = run("check", str(path), *args)
    assert checked.exit_code == 1, checked.output
    assert {r["verdict"] for r in jsonl(checked.stdout)} == {"multiple"}
