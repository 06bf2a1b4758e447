"""The sat backend's ``solver="auto"`` (issue 34): MiniSat 2.2 for candidate grids, where it was
measured faster on t-dillon/pencilmark_sudoku's hard puzzles, Glucose 4 for everything else,
and a solver the user names is always the one that runs."""

from __future__ import annotations

import pytest

pytest.importorskip("pysat")

from sudoku_cp import Puzzle, get_backend, solve  # noqa: E402
from sudoku_cp.backends.sat import solver_for  # noqa: E402
from sudoku_cp.datasets import load_puzzles  # noqa: E402


def candidate_line(puzzle: Puzzle, solution: tuple[int, ...]) -> str:
    """A 729-symbol grid as t-dillon/pencilmark_sudoku writes one (digit d at place d of its
    cell, ``.`` elsewhere; see sudoku_cp/formats/candidates.py): givens as one digit, every
    third blank limited to its solution's digit and the next one, the rest open."""
    cells = []
    for cell, given in enumerate(puzzle.cells):
        if given:
            digits = {given}
        elif cell % 3 == 0:
            digits = {solution[cell], solution[cell] % 9 + 1}
        else:
            digits = set(range(1, 10))
        cells.append("".join(str(d) if d in digits else "." for d in range(1, 10)))
    return "".join(cells)


def test_a_candidate_grid_goes_to_minisat_and_is_decided_alike() -> None:
    puzzle = load_puzzles("17clue", 1)[0]
    solution = solve(puzzle, limit=2).solutions[0]
    grid = Puzzle.parse(candidate_line(puzzle, solution))
    assert grid.model.rules and {r.key for r in grid.model.rules} == {"givenPencilMarks"}
    assert solver_for(grid, "auto") == "minisat22"
    auto = get_backend("sat").solve(grid, limit=2)
    named = get_backend("sat").solve(grid, limit=2, solver="gluecard4")
    assert auto.status.value == named.status.value == "unique"
    assert auto.solutions == named.solutions == (solution,)
    assert auto.options["solver"] == "auto"


def test_everything_else_and_a_named_solver_are_left_as_they_were() -> None:
    puzzle = load_puzzles("17clue", 1)[0]
    solution = solve(puzzle, limit=2).solutions[0]
    grid = Puzzle.parse(candidate_line(puzzle, solution))
    assert solver_for(puzzle, "auto") == "gluecard4"  # classic: no pencil marks
    assert solver_for(grid, "cadical195") == "cadical195"  # named: always that one
    assert solver_for(grid, "auto", amo="native") == "gluecard4"  # needs cardinality
    killer = next(p for p in load_puzzles("killer") if p.size == 9)
    assert solver_for(killer, "auto") == "gluecard4"  # other rules: not a candidate grid
    assert get_backend("sat").solve(grid, limit=2, amo="native").status.value == "unique"
