"""Reading and writing puzzles — every format in one place.

(Skeleton: single-line form only; the full set of formats lands with the formats work.)
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import PuzzleError
from .model import Model

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Digit d (1 … 35) is written ``SYMBOLS[d - 1]``; larger grids need the integer forms."""
BLANKS = ".0_-*"


def format_line(cells: Sequence[int], size: int) -> str:
    """N² symbols in reading order, ``.`` for blanks (integers joined by commas above 35)."""
    if size > len(SYMBOLS):
        return ",".join(str(d) for d in cells)
    return "".join(SYMBOLS[d - 1] if d else "." for d in cells)


def parse_puzzle(text: str, model: Model | str = "classic"):
    from .puzzle import Puzzle, size_for_cells

    symbols = "".join(text.split())
    size = size_for_cells(len(symbols))
    if size is None:
        raise PuzzleError(f"read {len(symbols)} cells, which is not a square grid")
    cells = []
    for i, ch in enumerate(symbols):
        if ch in BLANKS:
            cells.append(0)
        elif ch.upper() in SYMBOLS:
            cells.append(SYMBOLS.index(ch.upper()) + 1)
        else:
            raise PuzzleError(f"unknown symbol {ch!r} at row {i // size + 1}, column {i % size + 1}")
    return Puzzle(cells, model)
