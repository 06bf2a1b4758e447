"""The single-line form: its symbols, its one reader and its one writer.

A grid of N×N cells is written as N² symbols in reading order: digits ``1``-``9``, then ``A`` =
10, ``B`` = 11 … ``Z`` = 35 (either case when read); blanks are ``.`` (or ``0``, ``_``, ``-``,
``*`` when read); whitespace is ignored. Grids above 35×35 have no symbols left, so their line
form is N² integers joined by commas.

- :func:`format_line` writes it (fast: one byte translation for grids up to 35×35);
- :func:`line_cells` reads it when the size is not known, saying what is wrong in a user's line;
- :func:`read_line` reads it back for a known size (a witness, a stored solution).

This module imports no :class:`~sudoku_cp.puzzle.Puzzle`, so ``puzzle.py`` can use it.
The number and size messages shared with the other one-puzzle forms live here too.

>>> format_line([1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1], 4)
'1.....1..1.....1'
>>> read_line("1.....1..1.....1", 4)
(1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1)
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from ..errors import PuzzleError
from ..model import MAX_SIZE, Model

Grid = tuple[int, ...]
"""N² digits in reading order, 0 for a blank (as :data:`sudoku_cp.puzzle.Grid`)."""

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Digit d (1 … 35) is written ``SYMBOLS[d - 1]``; larger grids need the integer forms."""
BLANKS = ".0_-*"
"""Symbols for a blank cell in the line and grid forms."""

MAX_CELLS = MAX_SIZE * MAX_SIZE
"""The most cells a puzzle has (64×64)."""

# Sizes named when a cell count does not fit (those the model allows are listed).
_COMMON_SIZES = (4, 6, 8, 9, 10, 12, 16, 25)

SYMBOL_DIGITS: dict[str, int] = {ch: 0 for ch in BLANKS}
for _digit, _symbol in enumerate(SYMBOLS, start=1):
    SYMBOL_DIGITS[_symbol] = _digit
    SYMBOL_DIGITS[_symbol.lower()] = _digit
SYMBOL_DIGITS["0"] = 0
_TOP_CODE = len(SYMBOLS)
_UP_TO = [bytes(range(size + 1)) for size in range(_TOP_CODE + 1)]
"""The codes of a blank and of digits 1..N: ``raw.translate(None, _UP_TO[N])`` deletes them,
leaving nothing when every cell is in range (where ``max(raw)`` reads every byte as an int)."""
_BYTE_CODES = bytes(SYMBOL_DIGITS.get(chr(code), 0xFF) for code in range(256))
"""Symbol → digit (blank → 0) as a bytes.translate table for ASCII text: a byte that is not a
known symbol becomes 0xFF, above every code, so it always falls to the slow path (which names
it)."""


def plain_codes(symbols: str) -> tuple[bytes, int] | None:
    """The cells of ``symbols`` (a byte each) and the grid's size, when every character is a
    known symbol standing for a digit up to the size, for a square count up to 35x35 — the
    usual line, read with two C-level translations. None otherwise: the long way says why."""
    try:
        raw = symbols.encode("ascii").translate(_BYTE_CODES)
    except UnicodeEncodeError:  # the known symbols are all ASCII
        return None
    size = _SIDES.get(len(raw))  # (a look-up: the square root was a sixth of the call)
    if size is None or raw.translate(None, _UP_TO[size]):
        return None
    return raw, size


CLASSIC_CODES = bytes(code if code <= 9 else 0xFF for code in _BYTE_CODES)
""":data:`_BYTE_CODES` with every digit above 9 made 0xFF too: a classic 9x9 line's table, by
which :func:`sudoku_cp.solve` reads an 81-character line as :func:`plain_codes` would (the
tests compare the two), without the size look-up."""
_SIDES = {side * side: side for side in range(1, _TOP_CODE + 1)}
"""The square cell counts :func:`plain_codes` reads, with their sides."""


def _side(count: int) -> int | None:
    """The grid side for ``count`` cells, or None when ``count`` is not a square (as
    :func:`sudoku_cp.puzzle.size_for_cells`, which this module may not import)."""
    side = math.isqrt(count)
    return side if side * side == count and side >= 1 else None


_INTEGER = re.compile(r"[+-]?\d+")
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
"""A number token (integer or decimal): what the rows form and comma lines are made of."""


def size_error(count: int, model: Model | None = None, what: str = "") -> PuzzleError:
    """'read 80 cells; a puzzle has N*N cells: 16 (4x4), … (nearest: 64 (8x8) and 81 (9x9))':
    the sizes ``model`` takes (all of them when it has fixed sizes), and the nearest it takes."""
    sizes = [n for n in _COMMON_SIZES if model is None or model.fits(n) is None]
    fixed = model is not None and bool(model.sizes)
    if model is not None and model.sizes:
        sizes = list(model.sizes)
    listing = ", ".join(f"{n * n} ({n}x{n})" for n in sizes) + ("" if fixed else " …")
    read = what or f"read {count:,} cells"
    if count > MAX_CELLS:
        return PuzzleError(
            f"{read}; the largest puzzle is {MAX_SIZE}x{MAX_SIZE} ({MAX_CELLS:,} cells)"
        )
    low = math.isqrt(count)
    if low < 4:  # (fewer cells than the smallest grid: no size is near)
        nearest = []
    elif model is None:
        nearest = [low, low + 1]
    else:  # the sizes the model takes just below and above the count
        takes = sizes if fixed else range(1, MAX_SIZE + 1)
        below = [n for n in takes if n <= low and model.fits(n) is None][-1:]
        above = [n for n in takes if n > low and model.fits(n) is None][:1]
        nearest = below + above if len(sizes) > 1 or not fixed else []
    near = " and ".join(f"{n * n} ({n}x{n})" for n in nearest)
    return PuzzleError(
        f"{read}; a puzzle has N*N cells: {listing}" + (f" (nearest: {near})" if near else "")
    )


def cell_place(index: int, size: int | None) -> str:
    """'row 2, column 3' (or 'position 7' when the size is not known yet)."""
    if size is None:
        return f"position {index + 1}"
    return f"row {index // size + 1}, column {index % size + 1}"


def line_cells(text: str, model: Model | None = None) -> tuple[Sequence[int], int]:
    """Cells of the line form: symbols, or integers joined by commas for big grids."""
    if "," in text:
        tokens = text.split(",")
        if all(NUMBER.fullmatch(t) or t in BLANKS for t in map(str.strip, tokens) if t):
            return _integer_line_cells([t.strip() for t in tokens], model)
    symbols = "".join(text.split())
    count = len(symbols)
    if count > MAX_CELLS:
        raise size_error(count, model)
    plain = plain_codes(symbols)
    if plain is not None:
        return plain  # the common case: known symbols, digits in range, nothing more to do
    size = _side(count)
    cells = [SYMBOL_DIGITS.get(ch, -1) for ch in symbols]
    if -1 in cells:
        index = cells.index(-1)
        raise PuzzleError(f"unknown symbol {symbols[index]!r} at {cell_place(index, size)}")
    if size is None:
        raise size_error(count, model)
    if size > 9:  # only then can a symbol stand for a digit above the size
        for index, digit in enumerate(cells):
            if digit > size:
                raise PuzzleError(
                    f"symbol {symbols[index]!r} (digit {digit}) at {cell_place(index, size)} "
                    f"is outside 1..{size}"
                )
    elif max(cells) > size:
        index = next(i for i, d in enumerate(cells) if d > size)
        raise PuzzleError(
            f"symbol {symbols[index]!r} (digit {cells[index]}) at {cell_place(index, size)} "
            f"is outside 1..{size}"
        )
    return cells, size


def _integer_line_cells(tokens: list[str], model: Model | None) -> tuple[list[int], int]:
    count = len(tokens)
    if count > MAX_CELLS:
        raise size_error(count, model)
    size = _side(count)
    cells = [read_integer(tok, i, size, what="number") for i, tok in enumerate(tokens)]
    if size is None:
        raise size_error(count, model)
    check_range(cells, size)
    return cells, size


def read_integer(token: str, index: int, size: int | None, what: str = "number") -> int:
    """The value of one integer token (blank symbols are 0); a clear error for anything else."""
    where = cell_place(index, size)
    if token == "":
        raise PuzzleError(f"missing {what} at {where}")
    if len(token) == 1 and token in BLANKS:
        return 0
    if _INTEGER.fullmatch(token):
        digits = token.lstrip("+-")
        if token.startswith("-") and digits.strip("0"):
            raise PuzzleError(f"negative number {token} at {where}")
        # Never hand int() thousands of digits: anything this long is out of range anyway.
        return int(token) if len(digits) <= 9 else 10**9
    if NUMBER.fullmatch(token):
        raise PuzzleError(f"non-integer {token} at {where}")
    shown = token if len(token) <= 20 else token[:20] + "…"
    raise PuzzleError(f"{shown!r} at {where} is not a {what}")


def check_range(cells: list[int], size: int) -> None:
    """A ``PuzzleError`` naming the first digit above ``size``."""
    for index, digit in enumerate(cells):
        if digit > size:
            shown = digit if digit < 10**9 else "too large"
            raise PuzzleError(
                f"digit {shown} at {cell_place(index, size)} is outside 1..{size} (0 is a blank)"
            )


def read_line(text: str, size: int) -> Grid:
    """The cells of a grid of known ``size`` in line form, as :func:`format_line` writes it
    (any form :func:`line_cells` reads is taken): a ``PuzzleError`` when it is not such a grid.

    >>> read_line("1,0,0,0", 2)
    (1, 0, 0, 0)
    >>> read_line("12..", 4)
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.PuzzleError: read a 2x2 grid in line form, not 4x4
    """
    plain = plain_codes(text) if size <= _TOP_CODE else None
    if plain is not None and plain[1] == size:
        return tuple(plain[0])
    cells, read = line_cells(text)
    if read != size:
        raise PuzzleError(f"read a {read}x{read} grid in line form, not {size}x{size}")
    return tuple(cells)


_LINE_TABLE = ("." + SYMBOLS).encode("ascii").ljust(256, b"\xff")
"""Digit → symbol (0 → ``.``) as a bytes.translate table; a code above 35 becomes 0xFF, which
is not ASCII, so decoding fails and the careful path takes the cell."""


def format_line(cells: Sequence[int], size: int) -> str:
    """N² symbols in reading order, ``.`` for blanks (integers joined by commas above 35).

    Up to 35×35 a tuple, list or bytes of digits 0..35 is written with one byte translation
    (a record holds its puzzle and witnesses in this form, so this runs for every puzzle of a
    batch); anything else takes the careful path, which writes the same symbols. (Only these
    types: ``bytes()`` of another sequence, such as a numpy array, may read its raw buffer.)

    >>> format_line([1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1], 4)
    '1.....1..1.....1'
    """
    if size > _TOP_CODE:
        return ",".join(str(d) for d in cells)
    kind = type(cells)
    try:
        if kind is bytes:
            return cells.translate(_LINE_TABLE).decode("ascii")  # type: ignore[attr-defined]
        if kind is tuple or kind is list:
            return bytes(cells).translate(_LINE_TABLE).decode("ascii")
    except (TypeError, ValueError):  # not an int 0..255, or above 35 (a UnicodeDecodeError)
        pass
    return "".join(SYMBOLS[d - 1] if d else "." for d in cells)
