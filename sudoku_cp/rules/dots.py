"""Dots and marks between two orthogonal neighbours: kropki (white difference, black ratio),
XV, and the negative constraint that every such mark is given.

As dclamage/SudokuSolver reads f-puzzles (``OrthogonalValueConstraint`` and its subclasses):
a white dot means the two digits differ by its value (1 unless one is given), a black dot that
one is its value (2 unless given) times the other, an X that they sum to 10 and a V to 5. With
``negative``, every orthogonal pair *without* a mark of the kind may not hold such digits; a
white or black dot exempts the pair from both kropki negatives (they are one family), an X or V
only from the XV one. The reader turns the marks into the pairs of :class:`Negative`.

>>> Difference((0, 1)).allows(3, 2), Ratio((0, 1)).allows(3, 6), XV((0, 1), 10).allows(4, 5)
(True, True, False)
>>> Negative("difference", ((0, 1),), (1,)).allows(2, 3)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from .base import (
    PairRule,
    Rule,
    cell_name,
    cells_named,
    check_cells,
    check_number,
    touching,
)


@dataclass(frozen=True)
class _Dot(PairRule):
    """A mark between two orthogonally adjacent cells, with a value."""

    cells: tuple[int, int]
    value: int
    relabelling: ClassVar[bool] = False
    lowest: ClassVar[int] = 1
    """The smallest value the mark may carry."""

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return (self.cells,)

    def describe(self, size: int) -> str:
        return f"the {self.title} {self.value} between {cells_named(self.cells, size)}"

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        a, b = self.cells
        return type(self)((where[a], where[b]), self.value)

    def check(self, size: int) -> None:
        where = f"{self.title} {cells_named(self.cells, size)}"
        if len(self.cells) != 2:
            raise ModelError(
                f"{self.title}: a mark lies between exactly 2 cells, not {len(self.cells)}"
            )
        check_cells(self.cells, size, where)
        if not touching(*self.cells, size, diagonal=False):
            raise ModelError(f"{where}: the cells do not touch")
        check_number(self.value, where, "its value", self.lowest)


@dataclass(frozen=True)
class Difference(_Dot):
    """A white kropki dot: the digits differ by ``value`` (f-puzzles ``difference``)."""

    value: int = 1
    key: ClassVar[str] = "difference"
    title: ClassVar[str] = "white dot"

    def allows(self, a: int, b: int) -> bool:
        return abs(a - b) == self.value

    def reversed(self, size: int) -> Rule | None:
        return self


@dataclass(frozen=True)
class Ratio(_Dot):
    """A black kropki dot: one digit is ``value`` times the other (f-puzzles ``ratio``)."""

    value: int = 2
    key: ClassVar[str] = "ratio"
    title: ClassVar[str] = "black dot"

    def allows(self, a: int, b: int) -> bool:
        return a == self.value * b or b == self.value * a


@dataclass(frozen=True)
class XV(_Dot):
    """An X (the digits sum to 10) or a V (to 5), or another sum given (f-puzzles ``xv``)."""

    value: int = 10
    key: ClassVar[str] = "xv"
    title: ClassVar[str] = "XV sum"
    lowest: ClassVar[int] = 0

    def allows(self, a: int, b: int) -> bool:
        return a + b == self.value

    def describe(self, size: int) -> str:
        mark = {10: "X", 5: "V"}.get(self.value, f"sum {self.value}")
        return f"the {mark} between {cells_named(self.cells, size)}"

    def reversed(self, size: int) -> Rule | None:
        return XV(self.cells, 2 * (size + 1) - self.value)


NEGATIVE_KINDS = ("difference", "ratio", "xv")


@dataclass(frozen=True)
class Negative(PairRule):
    """Every listed pair of neighbours (those without a mark of the kind) may *not* hold digits
    the kind's mark would allow for any of ``values`` (f-puzzles ``negative``)."""

    kind: str
    cell_pairs: tuple[tuple[int, int], ...]
    values: tuple[int, ...]
    key: ClassVar[str] = "negative"
    title: ClassVar[str] = "negative constraint"
    relabelling: ClassVar[bool] = False

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return self.cell_pairs

    def allows(self, a: int, b: int) -> bool:
        if self.kind == "difference":
            return abs(a - b) not in self.values
        if self.kind == "ratio":
            return not any(a == v * b or b == v * a for v in self.values)
        return a + b not in self.values

    def describe(self, size: int) -> str:
        shown = ", ".join(map(str, self.values))
        return f"the negative {self.kind} constraint ({shown})"

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return Negative(
            self.kind, tuple((where[a], where[b]) for a, b in self.cell_pairs), self.values
        )

    def reversed(self, size: int) -> Rule | None:
        if self.kind == "difference":
            return self
        if self.kind == "xv":
            return Negative("xv", self.cell_pairs, tuple(2 * (size + 1) - v for v in self.values))
        return None

    def check(self, size: int) -> None:
        where = f"negative {self.kind!r}"
        if self.kind not in NEGATIVE_KINDS:
            raise ModelError(f"{where}: not a kind of mark (known: {', '.join(NEGATIVE_KINDS)})")
        for pair in self.cell_pairs:
            check_cells(pair, size, where, least=2)
            if not touching(*pair, size, diagonal=False):
                raise ModelError(
                    f"{where}: {cell_name(pair[0], size)} and "
                    f"{cell_name(pair[1], size)} do not touch"
                )
        for value in self.values:
            check_number(value, where, "its value", 0)
