"""Fortress (minimum / maximum) cells as f-puzzles' reference solvers read them.

dclamage/SudokuSolver's MinimumConstraint and MaximumConstraint (``ValidAdjacentCells``) and
SudokuVariantSolverJS (``SingleCellConstraints.ts``) compare a fortress cell only with its
orthogonal neighbours that are not fortress cells of the same kind. The counts here come from
that meaning written out plainly over every 4x4 Sudoku grid, never from a backend.
"""

from __future__ import annotations

import json

import pytest
from variants import sudoku_grids

from sudoku_cp import Puzzle
from sudoku_cp.backends import available_backends
from sudoku_cp.errors import PuzzleError
from sudoku_cp.formats.fpuzzles import fpuzzles_data
from sudoku_cp.harness import cross_check
from sudoku_cp.rules import Maximum, Minimum

SIZE = 4


def neighbours(cell: int) -> list[int]:
    row, col = divmod(cell, SIZE)
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    return [
        (row + dr) * SIZE + col + dc
        for dr, dc in steps
        if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE
    ]


def reference_count(minimum: set[int], maximum: set[int]) -> int:
    """4x4 Sudoku grids in which every minimum (maximum) cell is below (above) each neighbour
    that is not a minimum (maximum) cell itself."""
    total = 0
    for grid in sudoku_grids(4).tolist():
        low = all(grid[c] < grid[n] for c in minimum for n in neighbours(c) if n not in minimum)
        high = all(grid[c] > grid[n] for c in maximum for n in neighbours(c) if n not in maximum)
        total += low and high
    return total


def fortress(minimum: set[int], maximum: set[int]) -> dict:
    def name(cell: int) -> str:
        return f"R{cell // SIZE + 1}C{cell % SIZE + 1}"

    data: dict = {"size": SIZE, "grid": [[{} for _ in range(SIZE)] for _ in range(SIZE)]}
    if minimum:
        data["minimum"] = [{"cell": name(c)} for c in sorted(minimum)]
    if maximum:
        data["maximum"] = [{"cell": name(c)} for c in sorted(maximum)]
    return data


CASES = [
    ({0, 1}, set()),  # the smallest case: two touching cells
    (set(), {0, 1}),
    ({5, 6}, set()),  # touching in the middle: each has neighbours on three sides
    ({5, 6, 9}, set()),  # an L of three
    (set(), {5, 9, 10}),
    ({0, 1}, {2}),  # a minimum beside a maximum is compared (different constraints)
    ({5}, {6}),
    ({0, 5}, {10, 15}),  # diagonal neighbours are never compared
]
BACKENDS = [b for b in ("backtrack", "cpsat", "sat", "constraint") if b in available_backends()]


@pytest.mark.parametrize(("minimum", "maximum"), CASES, ids=str)
def test_adjacent_fortress_cells_count_as_the_reference_reads_them(minimum, maximum):
    expected = reference_count(minimum, maximum)
    puzzle = Puzzle.parse(json.dumps(fortress(minimum, maximum)))
    record = cross_check(puzzle, BACKENDS, limit=None)
    assert record.count == expected and record.exact, record.reason
    assert all(run.count == expected for run in record.backends.values())


def test_two_touching_maximum_cells_have_solutions():
    # The reading before the fix compared the two with each other: 0 solutions, exit 1.
    assert reference_count(set(), {0, 1}) > 0
    record = cross_check(Puzzle.parse(json.dumps(fortress(set(), {0, 1}))), ["sat"], limit=None)
    assert record.verdict.value == "multiple" and record.count == reference_count(set(), {0, 1})


def test_the_fortress_reads_back_as_it_was_written():
    data = fortress({5, 6, 9}, {15})
    puzzle = Puzzle.parse(json.dumps(data))
    assert {(type(r), r.cell) for r in puzzle.model.rules} == {
        (Minimum, 5),
        (Minimum, 6),
        (Minimum, 9),
        (Maximum, 15),
    }
    again = Puzzle.parse(json.dumps(fpuzzles_data(puzzle.cells, 4, puzzle.model)))
    assert again.model.rules == puzzle.model.rules


def test_a_minimum_compared_with_a_neighbouring_minimum_cannot_be_written():
    # Built in code, each compares with every neighbour: f-puzzles would read it otherwise.
    model = Puzzle([0] * 16).model.with_rules(rules=[Minimum(0), Minimum(1)], size=4)
    with pytest.raises(PuzzleError, match="cannot be written for f-puzzles"):
        fpuzzles_data([0] * 16, 4, model)
