"""Clues outside the grid read along a row or column from their end: skyscrapers and X-sums.

Both are :class:`~.base.SequenceRule` s: ``cells`` is the whole row or column in the order the
clue reads it (from the clue's side of the grid), and the rule is an automaton over its
digits. Their meanings are those of dclamage/SudokuSolver
(``SudokuSolver/Constraints/SkyscraperConstraint.cs``, ``XSumConstraint.cs``), which the
Interactive Sudoku Solver's descriptions agree with (``js/sudoku_constraint.js``).

>>> row = (0, 1, 2, 3)
>>> Skyscraper(row, 2).problems((2, 1, 4, 3) + (0,) * 12, 4)
[]
>>> XSum(row, 7).problems((3, 1, 4, 2) + (0,) * 12, 4)
['the X-sum 7 of row 1 from the left: its first 3 digits sum to 8']
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from ..errors import ModelError
from .base import Automaton, Group, Rule, SequenceRule, cells_named, check_cells, check_number


def outside_line(row: int, col: int, size: int) -> Group | None:
    """The cells a clue outside the grid at (``row``, ``col``) reads, from its side: left of a
    row (column -1) from left to right, right of it (column N) from right to left, above a
    column (row -1) downwards, below it (row N) upwards; None for a place beside no single
    line (inside the grid, a corner). Rows and columns count from 0.

    >>> outside_line(1, 4, 4), outside_line(-1, 2, 4), outside_line(-1, -1, 4)
    ((7, 6, 5, 4), (2, 6, 10, 14), None)
    """
    beside_row = col in (-1, size) and 0 <= row < size
    beside_col = row in (-1, size) and 0 <= col < size
    if beside_row == beside_col:
        return None
    if beside_row:
        cells = tuple(row * size + c for c in range(size))
        return cells if col == -1 else cells[::-1]
    cells = tuple(r * size + col for r in range(size))
    return cells if row == -1 else cells[::-1]


def clue_place(cells: Sequence[int], size: int) -> tuple[int, int] | None:
    """Where the clue reading ``cells`` sits outside the grid (the inverse of
    :func:`outside_line`), or None when they are not a whole row or column in order from
    one end (a line whose cells a transform shuffled).

    >>> clue_place((7, 6, 5, 4), 4), clue_place((1, 0, 2, 3), 4)
    ((1, 4), None)
    """
    if len(cells) != size or not cells:
        return None
    row, col = divmod(cells[0], size)
    for place in ((row, -1), (row, size), (-1, col), (size, col)):
        if outside_line(*place, size) == tuple(cells):
            return place
    return None


def line_name(cells: Sequence[int], size: int) -> str:
    """``row 2 from the left``: the line and the side its clue reads from."""
    place = clue_place(cells, size)
    if place is None:
        return cells_named(cells, size)
    row, col = place
    if col == -1:
        return f"row {row + 1} from the left"
    if col == size:
        return f"row {row + 1} from the right"
    return f"column {col + 1} from the {'top' if row == -1 else 'bottom'}"


@dataclass(frozen=True)
class _OutsideClue(SequenceRule):
    """A number outside the grid about the row or column it faces (``cells``, read from its
    side)."""

    automaton_by_count: ClassVar[bool] = True  # each clue's automaton reads its value alone

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        # The cells keep the order the clue reads them in: the same rule on the moved grid
        # (a swap of columns inside a stack leaves a row whose order no clue reads).
        return replace(self, cells=tuple(where[cell] for cell in self.cells))

    @property
    def value(self) -> int:
        raise NotImplementedError

    def describe(self, size: int) -> str:
        return f"the {self.title} {self.value} of {line_name(self.cells, size)}"

    def check(self, size: int) -> None:
        where = f"{self.title} {self.value!r}"
        check_cells(self.cells, size, where)
        rows = {cell // size for cell in self.cells}
        cols = {cell % size for cell in self.cells}
        if len(self.cells) != size or not (len(rows) == 1 or len(cols) == 1):
            raise ModelError(f"{where}: its cells must be a whole row or column")
        check_number(self.value, where, "its clue", 0)


@dataclass(frozen=True)
class Skyscraper(_OutsideClue):
    """Each digit is a building that high; looking along ``cells`` from the clue, ``clue``
    buildings are seen, a building hidden by any taller or equally tall one before it
    (f-puzzles ``skyscraper``; dclamage's SkyscraperConstraint counts a digit seen when it
    is greater than every one before it).

    >>> Skyscraper((0, 1, 2, 3), 3).problems((1, 3, 2, 4) + (0,) * 12, 4)
    []
    """

    clue: int
    key: ClassVar[str] = "skyscraper"
    title: ClassVar[str] = "skyscraper"

    @property
    def value(self) -> int:
        return self.clue

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        seen = tallest = 0
        for cell in self.cells:
            if grid[cell] > tallest:
                seen += 1
                tallest = grid[cell]
        if seen == self.clue:
            return []
        return [f"{self.describe(size)}: {seen} seen"]

    def automaton(self, size: int) -> Automaton:
        clue = self.clue

        # State: (the tallest building so far, how many were seen); past the clue: none.
        def step(state: Hashable, digit: int) -> Hashable | None:
            assert isinstance(state, tuple)
            tallest, seen = state
            if digit <= tallest:
                return state
            return (digit, seen + 1) if seen < clue else None

        def accepts(state: Hashable) -> bool:
            assert isinstance(state, tuple)
            return bool(state[1] == clue)

        return Automaton((0, 0), step, accepts)


_DONE = ("done",)
"""The X-sum's state once its first X digits have made the total."""


@dataclass(frozen=True)
class XSum(_OutsideClue):
    """The first X digits along ``cells`` from the clue sum to ``total``, X being the first
    digit itself (so it counts in the sum) — f-puzzles ``xsum``; dclamage's XSumConstraint
    sums ``cells[0 .. X-1]``, and the Interactive Sudoku Solver's XSum the control cell and
    the X-1 after it.

    >>> XSum((0, 1, 2, 3), 1).problems((1, 4, 3, 2) + (0,) * 12, 4)
    []
    """

    total: int
    key: ClassVar[str] = "xsum"
    title: ClassVar[str] = "X-sum"

    @property
    def value(self) -> int:
        return self.total

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        digits = [grid[cell] for cell in self.cells]
        first = digits[0]
        if first > len(digits):
            return [f"{self.describe(size)}: its first digit {first} passes the line's end"]
        got = sum(digits[:first])
        if got == self.total:
            return []
        return [f"{self.describe(size)}: its first {first} digits sum to {got}"]

    def automaton(self, size: int) -> Automaton:
        total = self.total

        # State: (X, digits read, their sum) until X digits are read; then done, or none.
        def step(state: Hashable, digit: int) -> Hashable | None:
            if state == _DONE:
                return _DONE
            assert isinstance(state, tuple)
            x, read, held = state
            if not x:
                x = digit
            read, held = read + 1, held + digit
            if read == x:
                return _DONE if held == total else None
            return (x, read, held) if held < total else None

        def accepts(state: Hashable) -> bool:
            return state == _DONE

        return Automaton((0, 0, 0), step, accepts)
