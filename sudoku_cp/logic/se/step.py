"""The pieces every SE rule shares: a step, a producer of steps, cell names and the small
tables the rules read (candidate counts and positions of a 10-bit mask, each cell's regions).
The foot of :mod:`sudoku_cp.logic.se`: the rule modules build on it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

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


class Steps(Sequence[Step]):
    """A solve path's steps: each part a :class:`Step`, or a run of steps as the compiled loop
    logged them (:class:`.door.Journal`, anything with ``count`` and ``steps()``), built into
    Steps when first read, so that a rating read only for its numbers builds none."""

    __slots__ = ("_parts", "_built")

    def __init__(self, parts: Sequence[Any] = ()) -> None:
        self._parts: list[Any] = list(parts)
        self._built: list[Step] | None = None

    def add(self, part: Any) -> None:
        self._parts.append(part)
        self._built = None

    def _list(self) -> list[Step]:
        if self._built is None:
            built: list[Step] = []
            for part in self._parts:
                if isinstance(part, Step):
                    built.append(part)
                else:
                    built.extend(part.steps())
            self._built = built
        return self._built

    def __len__(self) -> int:
        return sum(1 if isinstance(part, Step) else part.count for part in self._parts)

    @overload
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...
    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        return self._list()[index]

    def __iter__(self) -> Iterator[Step]:
        return iter(self._list())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Steps | list | tuple):
            return self._list() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Steps({self._list()!r})"


def cell_name(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


COUNT_POS = tuple(bin(m).count("1") for m in range(1 << 10))
POS_BITS = tuple(tuple(i for i in range(10) if m >> i & 1) for m in range(1 << 10))

REGION_OF = tuple(
    tuple(next(i for i, s in enumerate(REGION_SETS[k]) if c in s) for k in range(3))
    for c in range(81)
)
"""The index of each cell's block, row and column (``Grid.getRegionAt``)."""
