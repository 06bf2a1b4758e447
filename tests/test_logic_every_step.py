"""Every step a technique can make (``every_step``), not only the first the solver takes, is
sound, and the first of them is the step the solver takes.

Boards: the states a real solve passes through (the solver's own trace replayed), on bundled
9x9 puzzles with one solution and on jigsaw ones (groups beyond rows, columns and boxes); each
step checked against the solution from the sat backend (``logic_driver.check_step``).
"""

from __future__ import annotations

from itertools import islice

import pytest
from logic_driver import check_step, puzzle_of, read_csv, solutions

from sudoku_cp.logic.board import Board, Searched, every_step
from sudoku_cp.logic.solver import TECHNIQUES, solve_logically

MODULES = {f"sudoku_cp.logic.{m}" for m in ("basic", "fish", "patterns", "wings", "chains")}
MODULES.add("sudoku_cp.logic.uniqueness")
SEARCHES = [
    e
    for e in TECHNIQUES
    if isinstance(e.find, Searched) and not e.rules and e.find.__module__ in MODULES
]
"""The searches of the modules written first-step-only before (the others' own tests check
theirs; forcing nets listing every step on every state would take minutes)."""
MOST = 200
"""Steps checked per technique and board state, at most (a chain search lists hundreds)."""


def _rows() -> list[dict[str, str]]:
    return read_csv("top1465.csv", 6) + read_csv("forum-hardest.csv", 3) + read_csv("jigsaw.csv", 3)


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row["id"])
def test_every_step_on_the_states_of_a_solve_is_sound(row: dict[str, str]) -> None:
    puzzle = puzzle_of(row)
    (solution,) = solutions(puzzle)
    trace = solve_logically(puzzle, uniqueness=True)
    board = Board(puzzle)
    checked = 0
    for index, taken in enumerate(trace.steps):
        if index % 3 == 0:
            for entry in SEARCHES:
                steps = list(islice(every_step(entry.find, board), MOST))
                for step in steps:
                    check_step(board, step, solution)
                    assert step.technique  # a named step
                checked += len(steps)
                first = entry.find(board)
                assert (steps[0] if steps else None) == first, entry.name
        board.apply(taken)
    assert checked > 0
