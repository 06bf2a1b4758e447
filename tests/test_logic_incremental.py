"""The solver's shortcuts change no step: a tracked board (the solver's, where techniques that
found nothing look again only where a step changed something, and the contradiction test looks
only at the changed cells) takes exactly the steps an untracked board takes with every
technique scanning the whole grid every round."""

from __future__ import annotations

import pytest

from sudoku_cp.datasets import load_puzzles
from sudoku_cp.logic.board import Board
from sudoku_cp.logic.solver import solve_logically, techniques
from sudoku_cp.logic.steps import Step
from sudoku_cp.puzzle import Puzzle


def full_scan_solve(puzzle: Puzzle) -> list[Step]:
    """The solver's loop on an untracked board: nothing remembered between rounds but the
    fish and chain notes keyed by the candidates themselves."""
    board = Board(puzzle)
    chosen = techniques(uniqueness=True)
    steps: list[Step] = []
    while not board.solved():
        step = next((s for s in (find(board) for find in chosen) if s is not None), None)
        if step is None:
            break
        changed = board.apply(step)
        steps.append(step)
        # the cheap test agrees with the full one after every step
        assert board.broken_at(changed) == board.broken()
        if board.broken():
            break
    return steps


def summary(steps: list[Step] | tuple[Step, ...]) -> list[tuple[object, ...]]:
    return [(s.technique, s.placements, s.eliminations, s.text) for s in steps]


@pytest.mark.parametrize(
    ("name", "indices"),
    [("top1465", [0, 3, 7, 12]), ("17clue", [0, 1]), ("jigsaw", [0, 1])],
)
def test_tracked_solve_takes_the_full_scan_steps(name: str, indices: list[int]) -> None:
    puzzles = load_puzzles(name, max(indices) + 1)
    for index in indices:
        puzzle = puzzles[index]
        trace = solve_logically(puzzle, uniqueness=True)
        assert len(trace.steps) > 5
        assert summary(trace.steps) == summary(full_scan_solve(puzzle)), (name, index)


def test_broken_at_sees_a_group_losing_a_digit() -> None:
    board = Board(Puzzle([0] * 81))
    board.track()
    # 5 leaves every cell of row 1 but r1c9, then r1c9 too: row 1 has no place for 5.
    for cell in range(8):
        board.eliminate(cell, 5)
    assert not board.broken()
    step = board.step("test", "5 leaves r1c9", eliminations=[(8, 5)])
    changed = board.apply(step)
    assert changed == {8}
    assert board.broken_at(changed) and board.broken()
    assert board.log == [{8}]


def test_changed_since_collects_every_step_after_the_mark() -> None:
    board = Board(Puzzle([0] * 81))
    assert board.changed_since("x") is None  # not tracked: look everywhere
    board.track()
    assert board.changed_since("x") is None  # never found nothing: look everywhere
    board.found_nothing("x")
    board.apply(board.step("test", "", eliminations=[(0, 1)]))
    board.apply(board.step("test", "", eliminations=[(40, 2), (41, 2)]))
    assert board.changed_since("x") == {0, 40, 41}
    board.found_nothing("x")
    assert board.changed_since("x") == set()
