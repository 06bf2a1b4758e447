"""Rules on single cells and small clusters: odd and even cells, minimum and maximum cells,
clones, quadruples.

>>> Odd((0, 5)).problems((1, 0, 0, 0, 0, 2) + (0,) * 10, 4)
['r2c2 is odd but holds 2']
>>> Quadruple((0, 1, 4, 5), (1, 1)).problems((1, 2, 3, 4, 2, 1) + (0,) * 10, 4)
[]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from .base import (
    DigitRule,
    Group,
    PairRule,
    Rule,
    cell_name,
    cells_named,
    check_cells,
    touching,
)


@dataclass(frozen=True)
class Odd(DigitRule):
    """The cells hold odd digits (f-puzzles ``odd``)."""

    key: ClassVar[str] = "odd"
    title: ClassVar[str] = "odd"
    relabelling: ClassVar[bool] = False

    def allows(self, digit: int) -> bool:
        return digit % 2 == 1

    def reversed(self, size: int) -> Rule | None:
        # d -> N+1-d keeps parity when N+1 is even (odd N), swaps it otherwise.
        return self if size % 2 else Even(self.cells)


@dataclass(frozen=True)
class Even(DigitRule):
    """The cells hold even digits (f-puzzles ``even``)."""

    key: ClassVar[str] = "even"
    title: ClassVar[str] = "even"
    relabelling: ClassVar[bool] = False

    def allows(self, digit: int) -> bool:
        return digit % 2 == 0

    def reversed(self, size: int) -> Rule | None:
        return self if size % 2 else Odd(self.cells)


def orthogonal_neighbours(cell: int, size: int) -> tuple[int, ...]:
    row, col = divmod(cell, size)
    steps = ((-1, 0), (0, -1), (0, 1), (1, 0))
    return tuple(
        (row + dr) * size + col + dc
        for dr, dc in steps
        if 0 <= row + dr < size and 0 <= col + dc < size
    )


@dataclass(frozen=True)
class _Extremum(PairRule):
    """A cell whose digit is below (minimum) or above (maximum) every orthogonal neighbour's.

    ``others`` lists the cells it is compared with when they are not its orthogonal
    neighbours (the rule after a metamorphic move: the same cells, moved)."""

    cell: int
    others: Group | None = None
    relabelling: ClassVar[bool] = False

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        others = orthogonal_neighbours(self.cell, size) if self.others is None else self.others
        return tuple((self.cell, other) for other in others)

    def describe(self, size: int) -> str:
        return f"the {self.title} cell {cell_name(self.cell, size)}"

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return type(self)(where[self.cell], tuple(where[b] for _, b in self.pairs(size)))

    def check(self, size: int) -> None:
        check_cells((self.cell, *(self.others or ())), size, f"{self.title} cell")


@dataclass(frozen=True)
class Minimum(_Extremum):
    """The cell's digit is smaller than every orthogonal neighbour's (f-puzzles ``minimum``)."""

    key: ClassVar[str] = "minimum"
    title: ClassVar[str] = "minimum"

    def allows(self, a: int, b: int) -> bool:
        return a < b

    def reversed(self, size: int) -> Rule | None:
        return Maximum(self.cell, self.others)


@dataclass(frozen=True)
class Maximum(_Extremum):
    """The cell's digit is larger than every orthogonal neighbour's (f-puzzles ``maximum``)."""

    key: ClassVar[str] = "maximum"
    title: ClassVar[str] = "maximum"

    def allows(self, a: int, b: int) -> bool:
        return a > b

    def reversed(self, size: int) -> Rule | None:
        return Minimum(self.cell, self.others)


@dataclass(frozen=True)
class Clone(PairRule):
    """Two same-shaped sets of cells hold the same digits, cell for cell (f-puzzles
    ``clone``: ``cells[i]`` matches ``clones[i]``)."""

    cells: Group
    clones: Group
    key: ClassVar[str] = "clone"
    title: ClassVar[str] = "clone"

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return tuple(zip(self.cells, self.clones, strict=True))

    def allows(self, a: int, b: int) -> bool:
        return a == b

    def describe(self, size: int) -> str:
        return f"the clone of {cells_named(self.cells, size)}"

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return Clone(tuple(where[c] for c in self.cells), tuple(where[c] for c in self.clones))

    def check(self, size: int) -> None:
        where = f"clone {cells_named(self.cells, size)}"
        check_cells(self.cells, size, where)
        check_cells(self.clones, size, f"{where} (its clone)")
        if len(self.cells) != len(self.clones):
            raise ModelError(
                f"{where}: {len(self.cells)} cells cloned onto {len(self.clones)} cells"
            )
        same = [a for a, b in zip(self.cells, self.clones, strict=True) if a == b]
        if same:
            raise ModelError(f"{where}: {cell_name(same[0], size)} is cloned onto itself")


@dataclass(frozen=True)
class Quadruple(Rule):
    """The listed digits all appear among the cells (four around a grid point), a digit
    listed twice at least twice (f-puzzles ``quadruple``)."""

    cells: Group
    digits: tuple[int, ...]
    key: ClassVar[str] = "quadruple"
    title: ClassVar[str] = "quadruple"
    relabelling: ClassVar[bool] = False

    def describe(self, size: int) -> str:
        listed = "".join(str(d) if d < 10 else f"({d})" for d in self.digits)
        return f"the quadruple {listed} at {cells_named(self.cells, size)}"

    def needed(self) -> Counter[int]:
        """How many times each listed digit must appear."""
        return Counter(self.digits)

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        held = Counter(grid[cell] for cell in self.cells)
        missing = self.needed() - held
        if not missing:
            return []
        return [f"{self.describe(size)}: {', '.join(map(str, sorted(missing)))} missing"]

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return Quadruple(tuple(where[cell] for cell in self.cells), self.digits)

    def reversed(self, size: int) -> Rule | None:
        return Quadruple(self.cells, tuple(size + 1 - d for d in self.digits))

    def check(self, size: int) -> None:
        where = f"quadruple at {cells_named(self.cells, size)}"
        check_cells(self.cells, size, where)
        if len(self.cells) > 4:
            raise ModelError(f"{where}: has {len(self.cells)} cells, at most 4")
        for a in self.cells:
            if not all(a == b or touching(a, b, size, diagonal=True) for b in self.cells):
                raise ModelError(f"{where}: its cells do not meet at one grid point")
        if len(self.digits) > len(self.cells):
            raise ModelError(
                f"{where}: lists {len(self.digits)} digits for {len(self.cells)} cells"
            )
        for digit in self.digits:
            if isinstance(digit, bool) or not isinstance(digit, int) or not 1 <= digit <= size:
                raise ModelError(f"{where}: {digit!r} is not a digit from 1 to {size}")
