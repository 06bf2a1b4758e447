"""Line rules: thermometers, renban, whispers, palindromes, between lines.

A line is a sequence of cells, each touching the next (diagonals count), none twice — as drawn
in f-puzzles; a line that breaks this is refused with the cell where it breaks.

>>> Thermometer((0, 1, 2)).problems((1, 3, 2) + (0,) * 13, 4)
['the thermometer r1c1-r1c2-r1c3: r1c2 and r1c3 hold 3 and 2']
>>> Whispers((0, 1), 2).pairs(4), Renban((0, 1, 2)).problems((1, 3, 4) + (0,) * 13, 4)
(((0, 1),), ['the renban line r1c1-r1c2-r1c3 holds 1, 3, 4, not a run of consecutive digits'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .base import (
    Group,
    Labelled,
    PairRule,
    Rule,
    TripleRule,
    cell_name,
    cells_named,
    check_line,
    check_number,
)


@dataclass(frozen=True)
class LineRule(Rule):
    """A rule along a line of cells."""

    cells: Group

    def describe(self, size: int) -> str:
        return f"the {self.title} {cells_named(self.cells, size)}"

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return type(self)(tuple(where[cell] for cell in self.cells))

    def check(self, size: int) -> None:
        first = self.cells[0] if self.cells else -1
        inside = isinstance(first, int) and 0 <= first < size * size
        where = f"{self.title} from {cell_name(first, size)}" if inside else self.title
        check_line(self.cells, size, where, least=1)


def _next_pairs(cells: Group) -> tuple[tuple[int, int], ...]:
    return tuple(zip(cells, cells[1:], strict=False))


@dataclass(frozen=True)
class Thermometer(LineRule, PairRule):
    """Digits strictly increase from the bulb, the line's first cell (f-puzzles
    ``thermometer``: each line of the entry starts at the bulb)."""

    key: ClassVar[str] = "thermometer"
    title: ClassVar[str] = "thermometer"
    relabelling: ClassVar[bool] = False

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return _next_pairs(self.cells)

    def allows(self, a: int, b: int) -> bool:
        return a < b

    def reversed(self, size: int) -> Rule | None:
        return Thermometer(self.cells[::-1])  # larger digits become smaller: the bulb moves


@dataclass(frozen=True)
class Whispers(LineRule, PairRule):
    """Neighbours on the line differ by at least ``gap`` (German whispers, f-puzzles
    ``whispers``). The usual gap is 5 on 9x9; for other sizes the importers use
    (N + 1) // 2 (dclamage/SudokuSolver, ``WhispersConstraint``), see :func:`whispers_gap`."""

    gap: int = 5
    key: ClassVar[str] = "whispers"
    title: ClassVar[str] = "whispers line"
    relabelling: ClassVar[bool] = False

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return _next_pairs(self.cells)

    def allows(self, a: int, b: int) -> bool:
        return abs(a - b) >= self.gap

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return Whispers(tuple(where[cell] for cell in self.cells), self.gap)

    def reversed(self, size: int) -> Rule | None:
        return self

    def check(self, size: int) -> None:
        super().check(size)
        check_number(self.gap, f"{self.describe(size)}", "its difference", 1, max(size - 1, 1))


def whispers_gap(size: int) -> int:
    """The whispers difference on an ``size`` grid when the puzzle names none: 5 on 9x9."""
    return (size + 1) // 2


@dataclass(frozen=True)
class Renban(LineRule, PairRule):
    """The line holds different digits forming a run of consecutive digits, in any order
    (f-puzzles ``renban``). Compiled as a group plus pairs that differ by less than the
    line's length — together they allow exactly the runs."""

    key: ClassVar[str] = "renban"
    title: ClassVar[str] = "renban line"
    relabelling: ClassVar[bool] = False

    def groups(self, size: int) -> tuple[Labelled, ...]:
        return ((self.cells, self.describe(size)),)

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        cells = self.cells
        return tuple((a, b) for i, a in enumerate(cells) for b in cells[i + 1 :])

    def allows(self, a: int, b: int) -> bool:
        return abs(a - b) < len(self.cells)

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        digits = sorted(grid[cell] for cell in self.cells)
        if digits == list(range(digits[0], digits[0] + len(digits))):
            return []
        held = ", ".join(str(grid[cell]) for cell in self.cells)
        return [f"{self.describe(size)} holds {held}, not a run of consecutive digits"]

    def reversed(self, size: int) -> Rule | None:
        return self


@dataclass(frozen=True)
class Palindrome(LineRule, PairRule):
    """The line reads the same from both ends (f-puzzles ``palindrome``)."""

    key: ClassVar[str] = "palindrome"
    title: ClassVar[str] = "palindrome"

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        cells = self.cells
        return tuple((cells[i], cells[-1 - i]) for i in range(len(cells) // 2))

    def allows(self, a: int, b: int) -> bool:
        return a == b


@dataclass(frozen=True)
class BetweenLine(LineRule, TripleRule):
    """Every digit inside the line lies strictly between the digits on its two ends
    (f-puzzles ``betweenline``; the ends are the line's first and last cells)."""

    key: ClassVar[str] = "betweenline"
    title: ClassVar[str] = "between line"
    relabelling: ClassVar[bool] = False

    def triples(self, size: int) -> tuple[tuple[int, int, int], ...]:
        first, last = self.cells[0], self.cells[-1]
        return tuple((first, middle, last) for middle in self.cells[1:-1])

    def allows(self, a: int, b: int, c: int) -> bool:
        return min(a, c) < b < max(a, c)

    def reversed(self, size: int) -> Rule | None:
        return self
