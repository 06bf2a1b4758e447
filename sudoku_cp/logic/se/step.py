"""The pieces every SE rule shares: a step, a producer of steps, cell names and the small
tables the rules read (candidate counts and positions of a 10-bit mask, each cell's regions).
The foot of :mod:`sudoku_cp.logic.se`: the rule modules build on it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .grid import REGION_SETS, SEGrid


@dataclass(frozen=True)
class Step:
    """One SE step: its name and difficulty, the candidates it removes (cell, digit mask) and
    the digit it places (SE's ``Hint.getCell()``/``getValue()``), if any."""

    name: str
    difficulty: float
    removals: tuple[tuple[int, int], ...] = ()
    placement: tuple[int, int] | None = None
    # (where and basis describe the step; two steps are the same step without them: the
    # compiled path, sudoku_cp.logic.se.door, gives neither)
    where: str = field(default="", compare=False)
    basis: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    """The candidates (cell, digit mask) that must be gone for the step to hold: what
    ``HasParentPotentialHint.getRuleParents`` reads, for the rules SE's dynamic chains (+) nest
    (pointing/claiming, hidden and naked pairs, X-Wing)."""

    def apply(self, grid: SEGrid) -> None:
        # SE's IndirectHint.apply: removals first, then the placement (setValueAndCancel).
        for cell, mask in self.removals:
            grid.remove(cell, mask)
        if self.placement is not None:
            grid.place(*self.placement)


Producer = Callable[[SEGrid], Iterator[Step]]


def cell_name(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


COUNT_POS = tuple(bin(m).count("1") for m in range(1 << 10))
POS_BITS = tuple(tuple(i for i in range(10) if m >> i & 1) for m in range(1 << 10))

REGION_OF = tuple(
    tuple(next(i for i, s in enumerate(REGION_SETS[k]) if c in s) for k in range(3))
    for c in range(81)
)
"""The index of each cell's block, row and column (``Grid.getRegionAt``)."""
