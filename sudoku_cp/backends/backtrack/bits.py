"""Cell masks for the ``backtrack`` backend: a set of cells as the bits of one integer. In a
module of their own, so that a model of groups alone (the classic case) loads none of the
rules' propagators (:mod:`.shapes`, whose spreads are a data class: start-up)."""

from __future__ import annotations

from collections.abc import Iterable


def cell_mask(cells: Iterable[int]) -> int:
    """The cells as a cell mask; a cell listed twice counts once (a sum would carry).

    >>> bin(cell_mask([0, 3, 3]))
    '0b1001'
    """
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def set_bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first.

    >>> set_bits(0b1001)
    [0, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
