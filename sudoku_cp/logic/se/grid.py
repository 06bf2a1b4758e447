"""The grid Sudoku Explainer's rules read: values, candidate masks and SE's region order.

SE (SudokuMonster/SukakuExplainer, LGPL-2.1) numbers its region types 0 = blocks, 1 = rows,
2 = columns (``diuf/sudoku/Grid.java``, the ``regions`` table built in ``Grid``'s static
initialiser); a block's cells are read row by row (``Grid.Block``'s constructor), a row left to
right, a column top to bottom. Rules scan regions and cells in these orders and SE applies the
first step a rule finds, so keeping the orders keeps SE's solve path.

Candidates are bit masks: bit ``v`` set means digit ``v`` (1..9) is still possible.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

ALL = 0b1111111110
"""Every digit 1..9 as a candidate mask."""

BLOCK, ROW, COLUMN = 0, 1, 2
"""SE's region type indexes (``Grid.getRegions(regionTypeIndex)``)."""


def _block_cells(index: int) -> tuple[int, ...]:
    top, left = 3 * (index // 3), 3 * (index % 3)
    return tuple(9 * (top + i // 3) + left + i % 3 for i in range(9))


REGIONS: tuple[tuple[tuple[int, ...], ...], ...] = (
    tuple(_block_cells(b) for b in range(9)),
    tuple(tuple(9 * r + c for c in range(9)) for r in range(9)),
    tuple(tuple(9 * r + c for r in range(9)) for c in range(9)),
)
"""Cells of each region, by region type then region index, in SE's order."""

REGION_SETS = tuple(tuple(frozenset(cells) for cells in kind) for kind in REGIONS)

PEERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            {
                other
                for kind in range(3)
                for cells in REGIONS[kind]
                if cell in cells
                for other in cells
                if other != cell
            }
        )
    )
    for cell in range(81)
)
"""The 20 cells that see each cell, ascending (SE's ``Grid.visibleCellIndex``)."""
PEER_SETS = tuple(frozenset(p) for p in PEERS)

REGION_MASKS: tuple[tuple[int, int, int], ...] = tuple(
    tuple(  # type: ignore[misc]
        sum(1 << c for c in next(cells for cells in REGIONS[kind] if cell in cells))
        for kind in range(3)
    )
    for cell in range(81)
)
"""Each cell's block, row and column as 81-bit masks (bit ``c`` set: cell ``c``)."""

OFF_MASKS: tuple[tuple[int, int, int], ...] = tuple(
    (block & ~(1 << cell), row & ~block, column & ~block)
    for cell, (block, row, column) in enumerate(REGION_MASKS)
)
"""The cells SE's ``Chaining.getOnToOff`` reads, as three masks read in turn, each ascending:
the cell's block, then its row, then its column, each cell once and the cell left out (a
block's, row's and column's cells are ascending in SE's order)."""


def value_masks(cands: Sequence[int]) -> list[int]:
    """For each digit (index 0 unused), the cells where it is a candidate as an 81-bit mask."""
    masks = [0] * 10
    for cell, mask in enumerate(cands):
        while mask:
            low = mask & -mask
            mask ^= low
            masks[low.bit_length() - 1] |= 1 << cell
    return masks


SCAN_REGIONS: tuple[tuple[int, int, tuple[int, ...]], ...] = tuple(
    (kind, index, REGIONS[kind][index]) for kind in (BLOCK, COLUMN, ROW) for index in range(9)
)
"""(kind, index, cells) of the 27 regions in the order blocks, columns, rows."""
SCAN_BITS = tuple(sum(1 << c for c in cells) for _kind, _index, cells in SCAN_REGIONS)
_REGION_SLOTS = tuple(
    tuple(slot for slot, (_k, _i, cells) in enumerate(SCAN_REGIONS) if cell in cells)
    for cell in range(81)
)
"""Each cell's three places in :data:`SCAN_REGIONS`."""

BITS = tuple(tuple(v for v in range(1, 10) if mask >> v & 1) for mask in range(1 << 10))
"""The digits of each candidate mask, ascending."""
COUNT = tuple(len(d) for d in BITS)


class SEGrid:
    """Cell values (0 = empty) and candidate masks, changed in place by the rater."""

    __slots__ = (
        "values",
        "cands",
        "empty",
        "_positions",
        "_all_positions",
        "_region_empty",
        "deadline",
        "fast",
    )

    def __init__(self, values: Sequence[int], cands: Sequence[int] | None = None) -> None:
        self.values = list(values)
        if cands is None:
            # SE's Solver.rebuildPotentialValues: every digit, then the givens' peers cancelled.
            self.cands = [0 if v else ALL for v in self.values]
            for cell, value in enumerate(self.values):
                if value:
                    for peer in PEERS[cell]:
                        self.cands[peer] &= ~(1 << value)
        else:
            self.cands = list(cands)
        self.empty = sum(1 << cell for cell, value in enumerate(self.values) if not value)
        """The empty cells as an 81-bit mask (kept by :meth:`place`)."""
        self._positions: dict[tuple[int, int], int] = {}
        self._all_positions: dict[int, list[int]] = {}
        self._region_empty: list[int] | None = None
        # perf_counter() time after which a long search (SE's chains) stops; None: no limit
        self.deadline: float | None = None
        # the nested chains' compiled rules when the speed door is open (forcing._advanced)
        self.fast: Any = None

    def copy(self) -> SEGrid:
        return SEGrid(self.values, self.cands)

    def place(self, cell: int, value: int) -> None:
        """SE's ``Cell.setValueAndCancel``: the value set, its candidates cleared and the value
        removed from every peer."""
        self._positions.clear()
        self._all_positions.clear()
        self.values[cell] = value
        counts = self._region_empty
        if counts is not None and self.empty >> cell & 1:
            for region in _REGION_SLOTS[cell]:
                counts[region] -= 1
        self.empty &= ~(1 << cell)
        self.cands[cell] = 0
        bit = ~(1 << value)
        for peer in PEERS[cell]:
            self.cands[peer] &= bit

    def remove(self, cell: int, mask: int) -> None:
        """Take the digits of ``mask`` out of ``cell``'s candidates."""
        self._positions.clear()
        self._all_positions.clear()
        self.cands[cell] &= ~mask

    def positions(self, cells: Sequence[int], value: int) -> int:
        """Mask of the indexes (0..8) in ``cells`` where ``value`` is a candidate
        (SE's ``Region.getPotentialPositions``). Cached until the grid changes: every rule
        asks for the same regions' positions (``cells`` are :data:`REGIONS`' tuples)."""
        key = (id(cells), value)
        mask = self._positions.get(key)
        if mask is None:
            bit = 1 << value
            mask = 0
            for i, cell in enumerate(cells):
                if self.cands[cell] & bit:
                    mask |= 1 << i
            self._positions[key] = mask
        return mask

    def all_positions(self, cells: Sequence[int]) -> list[int]:
        """:meth:`positions` of every digit at once (index 0 unused), in one pass over
        ``cells``; cached as :meth:`positions` (the list is shared: not to be changed)."""
        key = id(cells)
        out = self._all_positions.get(key)
        if out is not None:
            return out
        out = self._all_positions[key] = [0] * 10
        cands = self.cands
        for i, cell in enumerate(cells):
            mask = cands[cell]
            if mask:
                bit = 1 << i
                for value in BITS[mask]:
                    out[value] |= bit
        return out

    def region_empty(self) -> list[int]:
        """The empty cells of each region, counted, regions in the order blocks, columns, rows
        (SE's scan order for singles and sets, :data:`SCAN_REGIONS`); kept by :meth:`place`
        once asked for (the list is shared: not to be changed)."""
        counts = self._region_empty
        if counts is None:
            empty = self.empty
            counts = self._region_empty = [(empty & bits).bit_count() for bits in SCAN_BITS]
        return counts

    def empty_count(self, cells: Sequence[int]) -> int:
        return sum(1 for cell in cells if not self.values[cell])

    def empty_in(self, region_bits: int) -> int:
        """The empty cells among ``region_bits`` (an 81-bit mask), counted."""
        return (self.empty & region_bits).bit_count()

    def solved(self) -> bool:
        return not self.empty
