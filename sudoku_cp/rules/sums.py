"""Rules about sums: killer cages, digit-root cages, arrows, little killers, sandwiches.

>>> cage = Cage((0, 1), 3)
>>> cage.problems((1, 2, 2, 1) + (0,) * 12, 4), cage.problems((2, 2) + (0,) * 14, 4)
([], ['the killer cage at r1c1 sums to 4, not 3'])
>>> Arrow((0,), (1, 2)).problems((3, 1, 2, 4) + (0,) * 12, 4)
[]
>>> Sandwich((0, 1, 2, 3), 0).problems((1, 4, 2, 3) + (0,) * 12, 4)
[]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from ..errors import ModelError
from .base import (
    MAX_TOTAL,
    Automaton,
    Group,
    Labelled,
    Rule,
    SequenceRule,
    SumRule,
    cell_name,
    cells_named,
    check_cells,
    check_number,
)

MAX_CAGE_SUM = MAX_TOTAL
"""The largest cage sum accepted (see :data:`~sudoku_cp.rules.base.MAX_TOTAL`)."""


@dataclass(frozen=True)
class Cage(Rule):
    """A killer cage: its cells hold different digits, summing to ``total`` when one is given.

    >>> Cage((4, 0), 9).groups(4)
    (((4, 0), 'the killer cage at r1c1'),)
    """

    cells: Group
    total: int | None = None
    key: ClassVar[str] = "killercage"
    title: ClassVar[str] = "killer cage"
    relabelling: ClassVar[bool] = False

    def label(self, size: int) -> str:
        return f"the killer cage at {cell_name(min(self.cells), size)}"

    def groups(self, size: int) -> tuple[Labelled, ...]:
        return ((self.cells, self.label(size)),)

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        if self.total is None:
            return []
        got = sum(grid[cell] for cell in self.cells)
        return [] if got == self.total else [f"{self.label(size)} sums to {got}, not {self.total}"]

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return Cage(tuple(where[cell] for cell in self.cells), self.total)

    def reversed(self, size: int) -> Rule | None:
        # Each digit d becomes N+1-d: k cells summing to S then sum to k(N+1) - S.
        if self.total is None:
            return self
        return Cage(self.cells, len(self.cells) * (size + 1) - self.total)

    def check(self, size: int) -> None:
        where = f"killer cage {self.cells!r}"
        if not self.cells:
            raise ModelError(f"{where}: a cage needs at least one cell")
        outside = [c for c in self.cells if not 0 <= c < size * size]
        if outside:
            raise ModelError(f"{where}: cell {outside[0]} is outside the {size}x{size} grid")
        if len(set(self.cells)) != len(self.cells):
            raise ModelError(f"{self.label(size)} lists a cell twice")
        if len(self.cells) > size:
            raise ModelError(
                f"{self.label(size)} has {len(self.cells)} cells, more than the {size} "
                "different digits a grid has"
            )
        if self.total is not None and (
            isinstance(self.total, bool)
            or not isinstance(self.total, int)
            or not 0 <= self.total <= MAX_CAGE_SUM
        ):
            raise ModelError(
                f"{self.label(size)}: its sum must be a whole number from 0 to "
                f"{MAX_CAGE_SUM:,}, not {self.total!r}"
            )


MAX_ROOT = 2**31 - 1
"""The largest digit root read: dclamage's SolverFactory parses it as a 32-bit ``int``."""


@dataclass(frozen=True)
class DigitRootCage(SequenceRule):
    """A digit-root killer cage (f-puzzles ``cage`` valued ``DR<root>``): its cells hold
    different digits whose sum is one of :meth:`sums` — or any sum, when that is None.

    The meaning is dclamage/SudokuSolver's: ``SolverFactory.cs`` lists the sums root, root + 9,
    root + 18 … that lie from the least to the most sum k different digits 1..N can have (the
    root is not reduced: ``DR12`` starts at 12), and ``Constraints/MultiSumKillerCageConstraint
    .cs`` keeps the cage's digits different (its ``Group``) but checks no sum when that list is
    empty or the cage has N cells (``InitCandidates`` then sets up nothing, and
    ``EnforceConstraint`` checks only a cage it set up).

    >>> DigitRootCage((0, 1), 4).sums(4), DigitRootCage((0, 1, 2, 3), 1).sums(4)
    ((4,), None)
    >>> DigitRootCage((0, 1), 4).problems((1, 3) + (0,) * 14, 4)
    []
    """

    root: int
    key: ClassVar[str] = "digitrootcage"
    title: ClassVar[str] = "digit-root cage"
    automaton_by_count: ClassVar[bool] = True  # its sums read the cage's size alone

    def sums(self, size: int) -> tuple[int, ...] | None:
        """The sums the cage may have, or None when its sum is free."""
        k = len(self.cells)
        least = k * (k + 1) // 2
        most = size * (size + 1) // 2 - (size - k) * (size - k + 1) // 2
        sums = tuple(s for s in range(self.root, most + 1, 9) if s >= least)
        return sums if sums and k != size else None

    def label(self, size: int) -> str:
        return f"the digit-root cage DR{self.root} at {cell_name(min(self.cells), size)}"

    def describe(self, size: int) -> str:
        return self.label(size)

    def groups(self, size: int) -> tuple[Labelled, ...]:
        return ((self.cells, self.label(size)),)

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        sums = self.sums(size)
        got = sum(grid[cell] for cell in self.cells)
        if sums is None or got in sums:
            return []
        listed = ", ".join(map(str, sums))
        return [f"{self.label(size)} sums to {got}, not one of {listed}"]

    def automaton(self, size: int) -> Automaton:
        sums = self.sums(size)
        if sums is None:  # any digits (the group keeps them different)
            return Automaton(0, lambda state, digit: 0, lambda state: True)
        wanted, most = frozenset(sums), max(sums)

        # State: the sum so far; past the largest sum wanted, none.
        def step(state: Hashable, digit: int) -> Hashable | None:
            assert isinstance(state, int)
            held = state + digit
            return held if held <= most else None

        def accepts(state: Hashable) -> bool:
            return state in wanted

        return Automaton(0, step, accepts)

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return replace(self, cells=tuple(where[cell] for cell in self.cells))

    def reversed(self, size: int) -> Rule | None:
        # d -> N+1-d maps a sum S of k cells to k(N+1) - S, whose residue mod 9 is no longer
        # the root's in general: no digit-root cage states it.
        return None

    def check(self, size: int) -> None:
        where = f"digit-root cage DR{self.root!r}"
        check_cells(self.cells, size, where)
        if len(self.cells) > size:
            raise ModelError(
                f"{where} has {len(self.cells)} cells, more than the {size} different digits a "
                "grid has"
            )
        check_number(self.root, where, "its digit root", 0, MAX_ROOT)


@dataclass(frozen=True)
class LittleKiller(SumRule):
    """The digits along a diagonal, from a clue outside the grid, sum to ``total``; digits
    may repeat (f-puzzles ``littlekillersum``; the reader turns the clue's place and direction
    into the cells)."""

    cells: Group
    total: int
    key: ClassVar[str] = "littlekillersum"
    title: ClassVar[str] = "little killer"

    def terms(self, size: int) -> tuple[tuple[int, int], ...]:
        return tuple((cell, 1) for cell in self.cells)

    @property
    def goal(self) -> int:
        return self.total

    def describe(self, size: int) -> str:
        return f"the little killer {self.total} along {cells_named(self.cells, size)}"

    def mismatch(self, grid: Sequence[int], size: int) -> str:
        got = sum(grid[cell] for cell in self.cells)
        return f"{self.describe(size)} sums to {got}"

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return LittleKiller(tuple(where[cell] for cell in self.cells), self.total)

    def reversed(self, size: int) -> Rule | None:
        return LittleKiller(self.cells, len(self.cells) * (size + 1) - self.total)

    def check(self, size: int) -> None:
        where = f"little killer {self.total!r}"
        check_cells(self.cells, size, where)
        check_number(self.total, where, "its sum", 0)


@dataclass(frozen=True)
class Arrow(SumRule):
    """The digits along the arrow sum to the number in its circle (f-puzzles ``arrow``).

    A circle of several cells (a pill) reads as a decimal number, its cells in the order
    given (the f-puzzles reader keeps the order the puzzle lists them in), so it is only
    accepted where every digit is a single decimal digit (grids up to 9x9). ``line`` excludes
    the circle's cells and lists each cell once, even where branches of the arrow share it.
    """

    circle: Group
    line: Group
    key: ClassVar[str] = "arrow"
    title: ClassVar[str] = "arrow"

    def terms(self, size: int) -> tuple[tuple[int, int], ...]:
        places = len(self.circle)
        return tuple((cell, 1) for cell in self.line) + tuple(
            (cell, -(10 ** (places - 1 - i))) for i, cell in enumerate(self.circle)
        )

    @property
    def goal(self) -> int:
        return 0

    def describe(self, size: int) -> str:
        return f"the arrow from {cells_named(self.circle, size)}"

    def mismatch(self, grid: Sequence[int], size: int) -> str:
        circle = int("".join(str(grid[cell]) for cell in self.circle))
        got = sum(grid[cell] for cell in self.line)
        return f"{self.describe(size)}: the circle reads {circle} but the line sums to {got}"

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        # A pill keeps its cells' order: the moved cells read as the same number.
        return Arrow(
            tuple(where[cell] for cell in self.circle), tuple(where[cell] for cell in self.line)
        )

    def check(self, size: int) -> None:
        where = f"arrow {cells_named(self.circle, size) if self.circle else '()'}"
        check_cells(self.circle, size, f"{where} (circle)")
        check_cells(self.line, size, f"{where} (line)")
        both = set(self.circle) & set(self.line)
        if both:
            raise ModelError(f"{where}: {cell_name(min(both), size)} is on the circle and the line")
        if len(self.circle) > 1 and size > 9:
            raise ModelError(
                f"{where}: a circle of {len(self.circle)} cells reads as a decimal number, "
                f"which a {size}x{size} grid's two-digit digits do not have"
            )


@dataclass(frozen=True)
class Sandwich(Rule):
    """The digits between the 1 and the N of a row or column sum to ``total`` (f-puzzles
    ``sandwichsum``; ``cells`` is the whole row or column, in order)."""

    cells: Group
    total: int
    key: ClassVar[str] = "sandwichsum"
    title: ClassVar[str] = "sandwich sum"
    relabelling: ClassVar[bool] = False

    def describe(self, size: int) -> str:
        first, last = self.cells[0], self.cells[-1]
        line = (
            f"row {first // size + 1}"
            if first // size == last // size
            else (f"column {first % size + 1}")
        )
        return f"the sandwich sum {self.total} of {line}"

    def between(self, digits: Sequence[int], size: int) -> int | None:
        """The sum between the 1 and the N of ``digits`` (the line's digits in order), or
        None when one of them is missing."""
        if 1 not in digits or size not in digits:
            return None
        a, b = sorted((digits.index(1), digits.index(size)))
        return sum(digits[a + 1 : b])

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        got = self.between([grid[cell] for cell in self.cells], size)
        if got == self.total:
            return []
        if got is None:
            return [f"{self.describe(size)}: the line lacks a 1 or a {size}"]
        return [f"{self.describe(size)}: the digits between the 1 and the {size} sum to {got}"]

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return Sandwich(tuple(where[cell] for cell in self.cells), self.total)

    def check(self, size: int) -> None:
        where = f"sandwich sum {self.total!r}"
        check_cells(self.cells, size, where)
        rows = {cell // size for cell in self.cells}
        cols = {cell % size for cell in self.cells}
        if len(self.cells) != size or not (len(rows) == 1 or len(cols) == 1):
            raise ModelError(f"{where}: its cells must be a whole row or column")
        check_number(self.total, where, "its sum", 0)
