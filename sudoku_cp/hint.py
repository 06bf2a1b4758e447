"""The next step only (``explain --hint``), from the givens or from a solver's current state.

A hint is what a solver stuck at a position needs: the one deduction the cheapest technique
finds there (its name, the cells and digits it places or removes, the reason), or — first —
that the position is already wrong. A state is wrong when no solution agrees with it; when
the puzzle has one solution the hint names the first cell (reading order) whose placed digit
differs from it or whose marks leave its digit out, without saying the digit.

>>> from sudoku_cp import Puzzle
>>> easy = "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"
>>> hint = next_hint(Puzzle.parse(easy))
>>> hint.outcome, hint.step.technique
('step', 'Locked Pair')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .logic.board import cell_name, digits_of

if TYPE_CHECKING:
    from .formats.state import State
    from .logic.steps import Step
    from .puzzle import Puzzle

HintOutcome = Literal["step", "solved", "stalled", "wrong", "no solution"]

SOLVE_SECONDS = 10.0
"""How long the hint may search for the puzzle's solutions (to compare the state with)."""


@dataclass(frozen=True)
class Hint:
    """The next step, or why there is none."""

    outcome: HintOutcome
    """``step`` (a technique applies: :attr:`step`), ``solved`` (every cell holds a digit),
    ``stalled`` (no technique applies), ``wrong`` (no solution agrees with the state:
    :attr:`cell` names where, when the puzzle has one solution) or ``no solution`` (the
    puzzle itself has none)."""
    text: str
    """One sentence saying it."""
    step: Step | None = None
    cell: int | None = None
    """``wrong``: the first cell that differs from the one solution (None: not known)."""
    unique: bool | None = None
    """Whether the puzzle has exactly one solution (None: the search ran out of time)."""


def _solutions(puzzle: Puzzle, limit: int) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """Up to ``limit`` solutions of ``puzzle`` by the backend the tool prefers for it, and
    whether the search finished (within :data:`SOLVE_SECONDS`)."""
    from .choice import first_solutions

    return first_solutions(puzzle, limit, SOLVE_SECONDS)


def wrong_cell(solution: tuple[int, ...], state: State, n: int) -> tuple[int, str] | None:
    """The first cell where ``state`` disagrees with ``solution``, and the sentence."""
    for cell, digit in enumerate(state.placed):
        if digit and digit != solution[cell]:
            return cell, (
                f"{cell_name(cell, n)} holds {digit}, which is not the puzzle's solution there: "
                "that digit is wrong"
            )
    for cell, mask in enumerate(state.marks):
        if mask and not state.placed[cell] and not mask >> (solution[cell] - 1) & 1:
            marked = ", ".join(map(str, digits_of(mask)))
            return cell, (
                f"the marks of {cell_name(cell, n)} ({marked}) leave out the digit the puzzle's "
                "solution has there: a candidate was removed wrongly"
            )
    return None


def state_error(puzzle: Puzzle, state: State) -> str | None:
    """Why ``puzzle`` is not explained or rated from ``state``: a placed digit or a removed
    candidate the one solution disagrees with, or a puzzle with more than one solution (not
    explained nor rated from any position, as without one: a solve from a state no solution
    agrees with would otherwise end in a contradiction said of the puzzle, "no solution"), or
    None. A puzzle with no solution is said elsewhere: None here, as when the search ran out
    of time."""
    from .logic.solver import MULTIPLE

    solutions, finished = _solutions(puzzle, 2)
    if finished and len(solutions) == 1:
        wrong = wrong_cell(solutions[0], state, puzzle.size)
        if wrong is not None:
            return f"the state is wrong: {wrong[1]}"
    if finished and len(solutions) > 1:
        return MULTIPLE
    return None


def next_hint(
    puzzle: Puzzle,
    state: State | None = None,
    *,
    uniqueness: bool = True,
    extra: Sequence[str] = (),
) -> Hint:
    """The next step of a human-style solve of ``puzzle`` from ``state`` (None: from the
    givens), or why there is none (see :class:`Hint`). ``state`` must have passed
    :func:`~sudoku_cp.formats.state.check_state`. Techniques that assume one solution take part
    only when ``uniqueness`` is on and the puzzle is known to have one."""
    from .formats.state import state_puzzle
    from .logic.solver import solve_logically

    n = puzzle.size
    placed = state.placed if state is not None else None
    marks = state.marks if state is not None else None
    grid = [given or (placed[cell] if placed else 0) for cell, given in enumerate(puzzle.cells)]
    solutions, finished = _solutions(puzzle, 2)
    unique = (len(solutions) == 1) if finished else None
    if finished and not solutions:
        return Hint(
            "no solution", "the puzzle has no solution, so no step leads anywhere", unique=False
        )
    if all(grid):
        problems = puzzle.problems_with(grid)
        if not problems:
            return Hint("solved", "the grid is full and every rule holds: solved", unique=unique)
        return Hint("wrong", f"the grid is full but wrong: {problems[0]}", unique=unique)
    if state is not None:
        if unique:
            wrong = wrong_cell(solutions[0], state, n)
            if wrong is not None:
                return Hint("wrong", wrong[1], cell=wrong[0], unique=True)
        elif finished:
            agreeing, done = _solutions(state_puzzle(puzzle, state), 1)
            if done and not agreeing:
                return Hint(
                    "wrong",
                    "no solution of the puzzle agrees with the state: some placed digit or "
                    "removed candidate is wrong",
                    unique=unique,
                )
    trace = solve_logically(
        puzzle,
        uniqueness=bool(uniqueness and unique),
        unique=unique,
        placed=placed,
        marks=marks,
        max_steps=1,
        extra=extra,
    )
    if trace.steps:
        step = trace.steps[0]
        return Hint("step", step.text, step=step, unique=unique)
    if trace.outcome == "contradiction":
        return Hint(
            "wrong",
            "the state contradicts itself: a cell or group has run out of digits",
            unique=unique,
        )
    if unique is False:  # (two solutions: no sound step can choose between them)
        why = "the puzzle has more than one solution, so deduction alone cannot finish it"
    else:
        why = "the puzzle is beyond its techniques from this position"
    return Hint("stalled", f"no technique of the logic solver applies here ({why})", unique=unique)


__all__ = ["Hint", "next_hint"]
