"""Symmetries of the givens: which cells must be given or blank together.

A symmetry maps cell (r, c) of an N×N grid to other cells; its *orbits* (a cell and every
image of it) are removed together, so the pattern of givens looks the same after the move.
Only the pattern is symmetric, not the digits (as in published puzzles).

>>> orbits("rotational", 3)[:2]
[(0, 8), (1, 7)]
>>> len(orbits("none", 9)), len(orbits("rotational", 9)), len(orbits("dihedral", 9))
(81, 41, 15)
"""

from __future__ import annotations

import functools
from collections.abc import Callable

Move = Callable[[int, int, int], tuple[int, int]]

_MOVES: dict[str, tuple[Move, ...]] = {
    "none": (),
    # 180° turn about the centre: the classic newspaper symmetry.
    "rotational": (lambda r, c, n: (n - 1 - r, n - 1 - c),),
    # 90° turns (and so 180° and 270° too).
    "quarter": (
        lambda r, c, n: (c, n - 1 - r),
        lambda r, c, n: (n - 1 - r, n - 1 - c),
        lambda r, c, n: (n - 1 - c, r),
    ),
    # Mirror across the main diagonal (top-left to bottom-right).
    "diagonal": (lambda r, c, n: (c, r),),
    "antidiagonal": (lambda r, c, n: (n - 1 - c, n - 1 - r),),
    # Mirror left–right (a vertical axis) and top–bottom (a horizontal axis).
    "mirror": (lambda r, c, n: (r, n - 1 - c),),
    "horizontal": (lambda r, c, n: (n - 1 - r, c),),
    # Both diagonals.
    "bidiagonal": (
        lambda r, c, n: (c, r),
        lambda r, c, n: (n - 1 - c, n - 1 - r),
        lambda r, c, n: (n - 1 - r, n - 1 - c),
    ),
    # All eight moves of the square.
    "dihedral": (
        lambda r, c, n: (c, n - 1 - r),
        lambda r, c, n: (n - 1 - r, n - 1 - c),
        lambda r, c, n: (n - 1 - c, r),
        lambda r, c, n: (c, r),
        lambda r, c, n: (n - 1 - c, n - 1 - r),
        lambda r, c, n: (r, n - 1 - c),
        lambda r, c, n: (n - 1 - r, c),
    ),
}
SYMMETRIES = tuple(_MOVES)
"""Names ``--symmetry`` takes."""


def orbits(name: str, size: int) -> list[tuple[int, ...]]:
    """The cells of an N×N grid grouped by the symmetry ``name``, each orbit sorted, in order
    of their first cell (a fresh list: callers shuffle it)."""
    return list(_orbits(name, size))


@functools.cache
def _orbits(name: str, size: int) -> tuple[tuple[int, ...], ...]:
    moves = _MOVES[name]
    seen: set[int] = set()
    found = []
    for cell in range(size * size):
        if cell in seen:
            continue
        r, c = divmod(cell, size)
        orbit = {cell}
        for move in moves:
            mr, mc = move(r, c, size)
            orbit.add(mr * size + mc)
        seen |= orbit
        found.append(tuple(sorted(orbit)))
    return tuple(found)


def is_symmetric(cells: list[int] | tuple[int, ...], name: str, size: int) -> bool:
    """Whether the givens' pattern (non-zero cells) is the same under every move of ``name``.

    >>> is_symmetric([1, 0, 0, 2], "rotational", 2), is_symmetric([1, 2, 0, 0], "rotational", 2)
    (True, False)
    """
    for r in range(size):
        for c in range(size):
            given = bool(cells[r * size + c])
            for move in _MOVES[name]:
                mr, mc = move(r, c, size)
                if bool(cells[mr * size + mc]) != given:
                    return False
    return True
