"""The Interactive Sudoku Solver's grid as its code (sigh/Interactive-Sudoku-Solver) names and
cuts it: cell ids, boxes, windoku windows, little killer diagonals, orthogonal pairs, and the
keys of two-cell relations both ways; what the reader (:mod:`.iss`) and the writer
(:mod:`.iss_writer`) share.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..errors import PuzzleError
from ..model import box_shape
from .links import short_text

MAX_ISS_SIZE = 16
"""ISS draws grids of 1 to 16 rows (``CellGeometry.MAX_SIZE``)."""

# A cell id: R, one base-17 character, C, one base-17 character (cell_geometry.js parseCellId,
# CELL_ID_CHAR: '1'-'9' and 'a'-'g' in either case for 1-16).
CELL_ID = re.compile(r"[Rr]([1-9a-gA-G])[Cc]([1-9a-gA-G])")
BASE17 = "123456789abcdefg"


def iss_cell_name(cell: int, size: int) -> str:
    """A cell as ISS names it (R1C1; rows and columns past 9 as a-g)."""
    return f"R{BASE17[cell // size]}C{BASE17[cell % size]}"


def box_regions(size: int) -> tuple[int, ...] | None:
    shape = box_shape(size)
    if shape is None:
        return None
    height, width = shape
    return tuple(
        (r // height) * (size // width) + c // width for r in range(size) for c in range(size)
    )


def window_boxes(size: int) -> tuple[tuple[int, int, int, int], ...]:
    """ISS's windoku windows (``Windoku.regions``): boxes' shape, from (1, 1), one row and
    column apart — the four 3x3 windows of 9x9 — as (row, column, height, width)."""
    shape = box_shape(size)
    if shape is None:
        return ()
    height, width = shape
    return tuple(
        (row, col, height, width)
        for col in range(1, size - width, width + 1)
        for row in range(1, size - height, height + 1)
    )


def little_killer_lines(size: int) -> dict[int, tuple[int, ...]]:
    """The diagonals a little killer clue can name, by their first cell, in ISS's order
    (``LittleKiller.cellMap``: from the left side down-right, the right side up-left, the top
    down-left, the bottom up-right; a diagonal of one cell, or one already named, left out)."""
    lines: dict[int, tuple[int, ...]] = {}
    seen: set[frozenset[int]] = set()

    def add(row: int, col: int, dr: int, dc: int) -> None:
        cells = []
        while 0 <= row < size and 0 <= col < size:
            cells.append(row * size + col)
            row, col = row + dr, col + dc
        key = frozenset(cells)
        if len(cells) <= 1 or key in seen:
            return
        seen.add(key)
        lines[cells[0]] = tuple(cells)

    for row in range(size - 1):
        add(row, 0, 1, 1)
    for row in range(1, size - 1):
        add(row, size - 1, -1, -1)
    for col in range(1, size):
        add(0, col, 1, -1)
    for col in range(1, size - 1):
        add(size - 1, col, -1, 1)
    return lines


def _orthogonal_pairs(size: int) -> list[tuple[int, int]]:
    pairs = []
    for cell in range(size * size):
        if cell % size + 1 < size:
            pairs.append((cell, cell + 1))
        if cell // size + 1 < size:
            pairs.append((cell, cell + size))
    return pairs


def unmarked_pairs(size: int, marked: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    taken = {frozenset(pair) for pair in marked}
    return tuple(pair for pair in _orthogonal_pairs(size) if frozenset(pair) not in taken)


_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
"""util.js ``Base64Codec.BASE64_CHARS`` (URL-safe base64), one 6-bit number a character."""


def pair_table(allows: Any, size: int) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a in range(1, size + 1) for b in range(1, size + 1) if allows(a, b))


def binary_key(allows: Any, size: int) -> str:
    """ISS's key of a relation between two cells (sudoku_constraint.js ``fnToBinaryKey``):
    bit ``(a-1)·N + (b-1)`` says whether a first cell of ``a`` and a second of ``b`` are
    allowed, six bits a character, low bit first, trailing zero characters left out.

    >>> binary_key(lambda a, b: abs(a - b) == 1, 4)
    'SpE'
    """
    bits = [bool(allows(a, b)) for a in range(1, size + 1) for b in range(1, size + 1)]
    numbers = [
        sum(1 << i for i, bit in enumerate(bits[k : k + 6]) if bit) for k in range(0, len(bits), 6)
    ]
    while numbers and not numbers[-1]:
        numbers.pop()
    return "".join(_BASE64[v] for v in numbers)


def key_table(key: str, size: int, where: str) -> frozenset[tuple[int, int]]:
    # lookup_tables.js forBinaryKey: decodeTo6BitArray into an array of ceil(N²/6) numbers
    # ('Array is too short' for a longer key), bit (a-1)·N + (b-1) allows a then b. A
    # character outside the alphabet decodes to 0 there; here it is refused, not guessed.
    if len(key) > -(-size * size // 6):
        raise PuzzleError(f"{where}: its key {short_text(key)!r} is longer than {size}x{size} bits")
    bad = next((ch for ch in key if ch not in _BASE64), None)
    if bad is not None:
        raise PuzzleError(f"{where}: its key has {bad!r}, not a base64url character")
    numbers = [_BASE64.index(ch) for ch in key]

    def allowed(a: int, b: int) -> bool:
        k = (a - 1) * size + b - 1
        return k // 6 < len(numbers) and bool(numbers[k // 6] >> (k % 6) & 1)

    return pair_table(allowed, size)


__all__ = [
    "BASE17",
    "CELL_ID",
    "MAX_ISS_SIZE",
    "binary_key",
    "box_regions",
    "iss_cell_name",
    "key_table",
    "little_killer_lines",
    "pair_table",
    "unmarked_pairs",
    "window_boxes",
]
