"""Reading and writing puzzles — every format in one place.

One puzzle (:func:`parse_puzzle`) can be written in four forms:

- ``line``: N² symbols in reading order. Digits are ``1``-``9``, then ``A`` = 10, ``B`` = 11 …
  (either case); blanks are ``.``, ``0``, ``_``, ``-`` or ``*``; whitespace is ignored. Grids
  above 35×35 have no symbols left, so their line form is N² integers joined by commas.
- ``grid``: N lines of N cells, drawn by hand: spaces, ``|`` and ``+`` inside a line, and
  lines made only of ``-``, ``+`` and ``=``, are separators; blank lines and ``#`` lines are
  skipped.
- ``rows``: N lines of N integers separated by spaces or commas, ``0`` blank — any size up to
  the maximum (``MAX_SIZE`` = 64). ``|`` tokens and separator lines are skipped, so the
  ``pretty`` output of a big grid reads back.
- ``json``: a list of N lists of N integers, ``0`` or ``null`` blank (or an object whose
  ``puzzle`` key holds a line string or such a list).

``fmt="auto"`` picks the form: text starting with ``[`` or ``{`` is JSON; a single line is the
line form; several lines are rows when every token is a number (or a lone blank symbol),
otherwise a grid (when both readings are possible, the other is tried if the first fails).

A file of many puzzles (:func:`read_puzzles`) is one of:

- ``line``: one puzzle per line in line form;
- ``jsonl``: JSON Lines, each line a nested list or an object with a ``puzzle`` key (a line
  string or a nested list) and optional ``id``, ``solution``, ``solution_count``;
- ``csv``: comma-separated with a header; the puzzle column is the one named ``puzzle``,
  ``puzzles``, ``quizzes`` or ``quiz``, else the first column that is not an id, solution or
  count column; optional ``id`` (or ``name``), ``solution`` (or ``solutions``) and
  ``solution_count`` columns.

Blank lines and lines starting with ``#`` are skipped in every file. A file may also hold one
puzzle in a multi-line form (grid, rows, JSON). One puzzle or many? With ``fmt="auto"`` the
first line that is not blank and not a comment decides:

1. it starts with ``{``, or with ``[`` and is complete JSON on its own → JSON Lines;
2. it starts with ``[`` and is not complete JSON → the whole text is one JSON puzzle (unless
   the next line is complete JSON on its own: then JSON Lines with a bad first line);
3. it is a CSV header (names a puzzle column, or is two or more names separated by commas)
   → CSV;
4. it holds more than ``MAX_SIZE`` cells, so it cannot be a row of a grid → one puzzle per line;
5. otherwise the first lines are looked at together (at most ``2 * MAX_SIZE + 1`` of them —
   rows plus separator lines, never the whole file): a single line is one puzzle in line form;
   text that reads as one grid (N lines of N cells, or rows) is one puzzle; else, when at least
   half of its lines read as puzzles (4×4 or larger) on their own, it is one puzzle per line;
   else it is one (bad) grid, and its error is reported. So a file of exactly 16 lines of 16
   symbols is one 16×16 grid when it reads as one, sixteen 4×4 puzzles otherwise.

An explicit ``fmt`` overrides all this: ``line``, ``jsonl`` and ``csv`` read many puzzles,
``grid``, ``rows`` and ``json`` read the whole input as one puzzle.

Reading streams: lines are read one at a time with a cap of ``MAX_LINE_CHARS``, so memory stays
flat for any number of lines and an absurdly long line is skipped (reported as a bad record)
without being held or parsed. A bad puzzle becomes a :class:`PuzzleRecord` with ``error`` set
and the reading goes on; problems with the input as a whole (missing file, a directory, no
permission, binary data, no puzzles at all, a CSV with no puzzle column) raise ``InputError``.

Writing: :func:`format_line`, :func:`format_pretty` (a boxed grid), :func:`format_rows`,
:func:`format_json`, and :func:`format_grid` choosing by name. Each reads back with
:func:`parse_puzzle`:

>>> cells = parse_puzzle("1... ..1. .1.. ...1").cells
>>> print(format_pretty(cells, 4))
1 . | . .
. . | 1 .
----+----
. 1 | . .
. . | . 1
>>> parse_puzzle(format_pretty(cells, 4)).cells == cells
True
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import dataclasses
import io
import json
import math
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NamedTuple

from .errors import InputError, ModelError, PuzzleError, SudokuError
from .fastcheck import clean_givens_each
from .model import MAX_SIZE, Model, box_shape, load_model
from .puzzle import Puzzle, size_for_cells

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Digit d (1 … 35) is written ``SYMBOLS[d - 1]``; larger grids need the integer forms."""
BLANKS = ".0_-*"
"""Symbols for a blank cell in the line and grid forms."""

FORMATS = ("auto", "line", "grid", "rows", "json", "jsonl", "csv")
"""Names accepted for ``fmt`` when reading."""
OUTPUT_FORMATS = ("pretty", "line", "json", "rows")
"""Names accepted by :func:`format_grid`."""

MAX_CELLS = MAX_SIZE * MAX_SIZE
# The longest sensible line: a 64×64 puzzle and its solution as nested JSON lists (about
# 4 characters a cell, twice) with an id — 2**16 leaves room. Longer lines are skipped unread.
MAX_LINE_CHARS = 1 << 16
# The most text one multi-line puzzle may take (a 64×64 JSON printed one number a line is
# about 60 KB), so a huge input is refused before any parsing.
MAX_TEXT_CHARS = 1 << 20

PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz")
ID_COLUMNS = ("id", "name")
SOLUTION_COLUMNS = ("solution", "solutions")
COUNT_COLUMNS = ("solution_count",)
_NOT_PUZZLE_COLUMNS = frozenset(ID_COLUMNS + SOLUTION_COLUMNS + COUNT_COLUMNS)

# Sizes named when a cell count does not fit (those the model allows are listed).
_COMMON_SIZES = (4, 6, 8, 9, 10, 12, 16, 25)

_VALUE: dict[str, int] = {ch: 0 for ch in BLANKS}
for _digit, _symbol in enumerate(SYMBOLS, start=1):
    _VALUE[_symbol] = _digit
    _VALUE[_symbol.lower()] = _digit
_VALUE["0"] = 0
_TOP_CODE = len(SYMBOLS)
_UP_TO = [bytes(range(size + 1)) for size in range(_TOP_CODE + 1)]
"""The codes of a blank and of digits 1..N: ``raw.translate(None, _UP_TO[N])`` deletes them,
leaving nothing when every cell is in range (where ``max(raw)`` reads every byte as an int)."""
_BYTE_CODES = bytes(_VALUE.get(chr(code), 0xFF) for code in range(256))
"""Symbol → digit (blank → 0) as a bytes.translate table for ASCII text: a byte that is not a
known symbol becomes 0xFF, above every code, so it always falls to the slow path (which names
it)."""


def _plain_codes(symbols: str) -> tuple[bytes, int] | None:
    """The cells of ``symbols`` (a byte each) and the grid's size, when every character is a
    known symbol standing for a digit up to the size, for a square count up to 35x35 — the
    usual line, read with two C-level translations. None otherwise: the long way says why."""
    try:
        raw = symbols.encode("ascii").translate(_BYTE_CODES)
    except UnicodeEncodeError:  # the known symbols are all ASCII
        return None
    size = size_for_cells(len(raw))
    if size is None or size > _TOP_CODE or raw.translate(None, _UP_TO[size]):
        return None
    return raw, size

_INTEGER = re.compile(r"[+-]?\d+")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_SEPARATOR_LINE = re.compile(r"[\s\-+=]+")
_GRID_SEPARATORS = str.maketrans("|+", "  ")
_NAME = re.compile(r"[a-z_][a-z0-9_ ]*")


# --- one puzzle --------------------------------------------------------------------------------
def parse_puzzle(text: str, model: Model | str = "classic", fmt: str = "auto") -> Puzzle:
    """One puzzle from text in any single-puzzle form (line, grid, rows, JSON).

    >>> parse_puzzle("12.. ..12 .... ....").givens_count
    4
    >>> parse_puzzle("[[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, null]]").cells[:4]
    (1, 0, 0, 0)
    >>> parse_puzzle("1 . 3")
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.PuzzleError: read 3 cells; a puzzle has N*N cells: 16 (4x4), 36 (6x6), \
64 (8x8), 81 (9x9), 100 (10x10), 144 (12x12), 256 (16x16), 625 (25x25) …
    """
    rules = load_model(model)
    fmt = check_format(fmt)
    if fmt == "csv":
        raise InputError("csv is a format for files of many puzzles; use read_puzzles()")
    if not isinstance(text, str):
        raise PuzzleError(f"puzzle text must be a string, not {type(text).__name__}")
    if not text:
        raise PuzzleError("empty input")
    if len(text) > MAX_TEXT_CHARS:
        raise PuzzleError(
            f"input of {len(text):,} characters is too long for a puzzle "
            f"(at most {MAX_TEXT_CHARS:,})"
        )
    if not text.strip():
        raise PuzzleError("input is only whitespace")
    if fmt == "auto":
        fmt = _single_format(text)
    if fmt == "line":
        if "#" in text or "\n" in text or "\r" in text:
            text = _without_comments(text)
        cells, size = _line_cells(text, rules)
    elif fmt == "grid":
        cells, size = _grid_cells(text)
    elif fmt == "rows":
        cells, size = _rows_cells(text)
    elif fmt in ("json", "jsonl"):
        return _json_puzzle(text, rules)
    else:  # "multi": rows or grid, whichever reads
        return _rows_or_grid(text, rules)
    return _build(cells, size, rules)


def check_format(fmt: str) -> str:
    """``fmt`` lower-cased when it is one of :data:`FORMATS`, else an ``InputError``.

    >>> check_format("CSV")
    'csv'
    """
    name = fmt.lower() if isinstance(fmt, str) else fmt
    if name not in FORMATS:
        raise InputError(f"unknown input format {fmt!r} (choose from: {', '.join(FORMATS)})")
    return name


def _single_format(text: str) -> str:
    stripped = text.lstrip()
    if stripped[:1] in ("[", "{"):
        return "json"
    lines = _content_lines(text)
    if not lines:
        raise PuzzleError("input holds only comments")
    return "line" if len(lines) == 1 else "multi"


def _content_lines(text: str) -> list[str]:
    """The lines that are neither blank nor ``#`` comments."""
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def _without_comments(text: str) -> str:
    lines = _content_lines(text)
    if not lines:
        raise PuzzleError("input holds only comments")
    return "\n".join(lines)


def _build(cells: Sequence[int], size: int, model: Model) -> Puzzle:
    """A Puzzle from checked cells; a size the model cannot take is a PuzzleError too."""
    reason = model.fits(size)
    if reason:
        raise PuzzleError(f"read a {size}x{size} puzzle, but {reason}")
    try:
        if size > MAX_SIZE:
            return Puzzle(tuple(cells), model)  # which says why not
        # Every parser has checked the cell count and that each digit is in 0..N: only the
        # repeated-givens check is left (this is the hot path of reading a big file).
        return Puzzle.from_parsed(tuple(cells), size, model)
    except ModelError as err:  # a user's model whose windows or cells miss this size
        raise PuzzleError(str(err)) from None


def _size_error(count: int, model: Model | None = None, what: str = "") -> PuzzleError:
    """'read 80 cells; a puzzle has N*N cells: 16 (4x4), … (80 is between 64 and 81)'."""
    sizes = [n for n in _COMMON_SIZES if model is None or model.fits(n) is None]
    if model is not None and model.sizes:
        sizes = list(model.sizes)
    listing = ", ".join(f"{n * n} ({n}x{n})" for n in sizes)
    read = what or f"read {count:,} cells"
    if count > MAX_CELLS:
        return PuzzleError(
            f"{read}; the largest puzzle is {MAX_SIZE}x{MAX_SIZE} ({MAX_CELLS:,} cells)"
        )
    low = math.isqrt(count)
    near = (
        f" (nearest: {low * low} ({low}x{low}) and {(low + 1) ** 2} ({low + 1}x{low + 1}))"
        if low >= 4 else ""
    )
    return PuzzleError(f"{read}; a puzzle has N*N cells: {listing} …{near}")


def _where(index: int, size: int | None) -> str:
    if size is None:
        return f"position {index + 1}"
    return f"row {index // size + 1}, column {index % size + 1}"


def _line_cells(text: str, model: Model | None = None) -> tuple[Sequence[int], int]:
    """Cells of the line form: symbols, or integers joined by commas for big grids."""
    if "," in text:
        tokens = text.split(",")
        if all(_NUMBER.fullmatch(t) or t in BLANKS for t in map(str.strip, tokens) if t):
            return _integer_line_cells([t.strip() for t in tokens], model)
    symbols = "".join(text.split())
    count = len(symbols)
    if count > MAX_CELLS:
        raise _size_error(count, model)
    plain = _plain_codes(symbols)
    if plain is not None:
        return plain  # the common case: known symbols, digits in range, nothing more to do
    size = size_for_cells(count)
    cells = [_VALUE.get(ch, -1) for ch in symbols]
    if -1 in cells:
        index = cells.index(-1)
        raise PuzzleError(f"unknown symbol {symbols[index]!r} at {_where(index, size)}")
    if size is None:
        raise _size_error(count, model)
    if size > 9:  # only then can a symbol stand for a digit above the size
        for index, digit in enumerate(cells):
            if digit > size:
                raise PuzzleError(
                    f"symbol {symbols[index]!r} (digit {digit}) at {_where(index, size)} "
                    f"is outside 1..{size}"
                )
    elif max(cells) > size:
        index = next(i for i, d in enumerate(cells) if d > size)
        raise PuzzleError(
            f"symbol {symbols[index]!r} (digit {cells[index]}) at {_where(index, size)} "
            f"is outside 1..{size}"
        )
    return cells, size


def _integer_line_cells(tokens: list[str], model: Model | None) -> tuple[list[int], int]:
    count = len(tokens)
    if count > MAX_CELLS:
        raise _size_error(count, model)
    size = size_for_cells(count)
    cells = [_integer(tok, i, size, what="number") for i, tok in enumerate(tokens)]
    if size is None:
        raise _size_error(count, model)
    _check_range(cells, size)
    return cells, size


def _integer(token: str, index: int, size: int | None, what: str = "number") -> int:
    """The value of one integer token (blank symbols are 0); a clear error for anything else."""
    where = _where(index, size)
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
    if _NUMBER.fullmatch(token):
        raise PuzzleError(f"non-integer {token} at {where}")
    shown = token if len(token) <= 20 else token[:20] + "…"
    raise PuzzleError(f"{shown!r} at {where} is not a {what}")


def _check_range(cells: list[int], size: int) -> None:
    for index, digit in enumerate(cells):
        if digit > size:
            shown = digit if digit < 10**9 else "too large"
            raise PuzzleError(
                f"digit {shown} at {_where(index, size)} is outside 1..{size} (0 is a blank)"
            )


def _shape(rows: list[list[Any]], unit: str) -> int:
    """The size of a square grid of rows, or an error naming the ragged row or the count."""
    count = len(rows)
    if count > MAX_SIZE:
        raise PuzzleError(
            f"read {count} rows; the largest puzzle is {MAX_SIZE}x{MAX_SIZE}"
        )
    width = len(rows[0])
    for number, row in enumerate(rows, start=1):
        if len(row) != width:
            raise PuzzleError(
                f"row {number} has {_count(len(row), unit)} but row 1 has {width} "
                f"(rows are ragged)"
            )
    if width != count:
        raise PuzzleError(
            f"read {_count(count, 'rows')} of {_count(width, unit)}; a puzzle has N rows "
            f"of N {unit} (4, 6, 8, 9, 12, 16, 25 …)"
        )
    return count


def _count(number: int, unit: str) -> str:
    """'1 number', '3 numbers'."""
    return f"{number} {unit if number != 1 else unit.rstrip('s')}"


def _is_separator(line: str) -> bool:
    return bool(_SEPARATOR_LINE.fullmatch(line))


def _grid_cells(text: str) -> tuple[list[int], int]:
    """Cells of a hand-drawn grid: one line per row, separators skipped."""
    lines = _content_lines(text)
    if not lines:
        raise PuzzleError("input holds only comments")
    if len(lines) > 2 * MAX_SIZE + 1:  # rows plus separator lines, at most
        raise PuzzleError(f"read {len(lines)} lines; the largest puzzle is {MAX_SIZE}x{MAX_SIZE}")
    squeezed = ["".join(ln.translate(_GRID_SEPARATORS).split()) for ln in lines]
    rows = [s for ln, s in zip(lines, squeezed, strict=True) if not _is_separator(ln)]
    width = len(rows[0]) if rows else 0
    if not rows or len(rows) != width:
        # '-' is also a blank: a line of exactly N dashes may be a row of blanks after all.
        alt = [
            s
            for ln, s in zip(lines, squeezed, strict=True)
            if not _is_separator(ln)
            or (set(s) == {"-"} and not {"+", "="} & set(ln) and len(s) == (width or len(s)))
        ]
        if alt and all(len(r) == len(alt) for r in alt):
            rows = alt
    if not rows:
        raise PuzzleError("read only separator lines, no rows of cells")
    for number, row in enumerate(rows, start=1):
        for column, ch in enumerate(row, start=1):
            if ch not in _VALUE:
                raise PuzzleError(f"unknown symbol {ch!r} at row {number}, column {column}")
    size = _shape(rows, "cells")
    cells = [_VALUE[ch] for row in rows for ch in row]
    for index, digit in enumerate(cells):
        if digit > size:
            symbol = rows[index // size][index % size]
            raise PuzzleError(
                f"symbol {symbol!r} (digit {digit}) at {_where(index, size)} "
                f"is outside 1..{size}"
            )
    return cells, size


def _row_tokens(text: str) -> list[list[str]]:
    """Tokens of each row of the rows form; '|' tokens and separator lines dropped."""
    rows = []
    for line in _content_lines(text):
        tokens = [t for t in line.replace(",", " ").split() if t.strip("|+")]
        if _is_separator(line) and not (tokens and all(t == "-" for t in tokens)):
            continue
        rows.append(tokens)
    return rows


def _rows_cells(text: str) -> tuple[list[int], int]:
    """Cells of the rows form: N lines of N integers separated by spaces or commas."""
    lines = _content_lines(text)
    if len(lines) > 2 * MAX_SIZE + 1:
        raise PuzzleError(f"read {len(lines)} lines; the largest puzzle is {MAX_SIZE}x{MAX_SIZE}")
    rows = _row_tokens(text)
    if not rows:
        raise PuzzleError("read only separator lines, no rows of numbers")
    values = []
    for r, row in enumerate(rows, start=1):
        values.append(
            [_integer(tok, (r - 1) * MAX_SIZE + c, MAX_SIZE) for c, tok in enumerate(row)]
        )
    size = _shape(values, "numbers")
    cells = [v for row in values for v in row]
    _check_range(cells, size)
    return cells, size


def _numeric_text(text: str) -> bool:
    rows = _row_tokens(text)
    return bool(rows) and all(
        _NUMBER.fullmatch(t) or (len(t) == 1 and t in BLANKS) for row in rows for t in row
    )


def _rows_or_grid(text: str, model: Model) -> Puzzle:
    """Several lines: rows of numbers or a drawn grid, whichever reads (see the module doc)."""
    readers = [_grid_cells]
    if _numeric_text(text):
        # One number per cell (short tokens, signs, decimals, commas) reads as rows first;
        # long digit runs like '530 070 000' are grid rows with gaps between boxes.
        tokens = [t for row in _row_tokens(text) for t in row]
        rows_first = "," in text or any(len(t) <= 2 or not t.isdigit() for t in tokens)
        readers = [_rows_cells, _grid_cells] if rows_first else [_grid_cells, _rows_cells]
    first_error: PuzzleError | None = None
    for reader in readers:
        try:
            cells, size = reader(text)
            return _build(cells, size, model)
        except PuzzleError as err:
            first_error = first_error or err
    assert first_error is not None
    raise first_error


def _json_puzzle(text: str, model: Model) -> Puzzle:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise PuzzleError(
            f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}"
        ) from None
    except (ValueError, RecursionError):  # huge integers, absurd nesting
        raise PuzzleError("not valid JSON (numbers too long or nesting too deep)") from None
    return puzzle_from_data(data, model)


def puzzle_from_data(data: Any, model: Model | str = "classic") -> Puzzle:
    """A puzzle from decoded JSON: a list of rows, a line string, or ``{"puzzle": …}``.

    >>> puzzle_from_data({"puzzle": "1.....1........."}).givens_count
    2
    >>> puzzle_from_data([1, 2, 3, 4])
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.PuzzleError: a JSON puzzle is a list of rows (lists of integers); item 1 is 1
    """
    rules = load_model(model)
    if isinstance(data, dict):
        if "puzzle" not in data:
            raise PuzzleError(
                "a JSON object needs a 'puzzle' key (a line string or a list of rows)"
            )
        data = data["puzzle"]
    if isinstance(data, str):
        return parse_puzzle(data, rules, "line" if "\n" not in data.strip() else "auto")
    if not isinstance(data, list):
        raise PuzzleError(
            f"a JSON puzzle is a list of rows (lists of integers), not {_json_type(data)}"
        )
    if not data:
        raise PuzzleError("a JSON puzzle is a list of rows, and this list is empty")
    if len(data) > MAX_SIZE:
        raise PuzzleError(f"read {len(data)} rows; the largest puzzle is {MAX_SIZE}x{MAX_SIZE}")
    for number, row in enumerate(data, start=1):
        if not isinstance(row, list):
            raise PuzzleError(
                f"a JSON puzzle is a list of rows (lists of integers); item {number} is "
                f"{_json_text(row)}"
            )
    size = _shape(data, "numbers")
    cells = []
    for r, row in enumerate(data, start=1):
        for c, value in enumerate(row, start=1):
            where = f"row {r}, column {c}"
            if value is None:
                cells.append(0)
            elif isinstance(value, bool) or not isinstance(value, int):
                kind = "non-integer" if isinstance(value, float) else "not an integer:"
                raise PuzzleError(f"{kind} {_json_text(value)} at {where}")
            elif value < 0:
                raise PuzzleError(f"negative number {value} at {where}")
            else:
                cells.append(value)
    _check_range(cells, size)
    return _build(cells, size, rules)


def _json_type(value: Any) -> str:
    names = {dict: "an object", str: "a string", bool: "true/false", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _json_text(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 30 else text[:30] + "…"


# --- records: many puzzles ------------------------------------------------------------------
@dataclass(slots=True)
class PuzzleRecord:
    """One puzzle read from an input of many: the puzzle, or why it is not one.

    ``index`` counts records from 1; ``id`` comes from the input's id column or key, else it is
    ``str(index)``; ``line`` is the line the record starts on (for messages); ``text`` is the
    raw line as read (its start only, for a line too long to hold); ``expected`` holds the
    ``solution`` and ``solution_count`` the input states, when it states them.

    >>> record = next(read_input("1.....1........."))
    >>> record.id, record.puzzle.size, record.error
    ('1', 4, None)
    """

    index: int
    id: str
    line: int
    puzzle: Puzzle | None
    error: str | None
    text: str
    expected: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the record holds a puzzle."""
        return self.puzzle is not None


def _make_record(index: int, line: _Line, parse: Any, ident: str | None,
                 expected: dict[str, Any] | None, prefix: bool,
                 text: str | None = None) -> PuzzleRecord:
    """A record: ``parse()``'s puzzle, or the line's own error, or why parsing failed."""
    puzzle, error = None, line.error
    if error is None:
        try:
            puzzle = parse()
        except SudokuError as err:
            error = f"line {line.number}: {err}" if prefix else str(err)
    # (positional, in the fields' order: this runs for every line of a file)
    return PuzzleRecord(index, ident or str(index), line.number, puzzle, error,
                        line.text if text is None else text,
                        {} if expected is None else expected)


@dataclass(frozen=True)
class _CsvColumns:
    """Where a CSV file keeps what: column positions from its header."""

    header: tuple[str, ...]
    puzzle: int
    id: int | None
    solution: int | None
    count: int | None


@dataclass(frozen=True)
class LineParser:
    """How one line of a one-puzzle-a-line input (line form, JSON Lines, a CSV row) becomes
    its record. Small and picklable, so a worker process can do the parsing."""

    kind: str
    model: Model
    prefix: bool = True
    columns: _CsvColumns | None = None
    _sizes: dict[int, bool] = field(default_factory=dict, compare=False, repr=False)

    def _fits(self, size: int) -> bool:
        """``model.fits(size) is None``, remembered: asked once for every line of a file."""
        fits = self._sizes.get(size)
        if fits is None:
            fits = self._sizes[size] = self.model.fits(size) is None
        return fits

    def record(self, index: int, number: int, text: str, error: str | None = None,
               unchecked: list[Puzzle] | None = None) -> PuzzleRecord:
        """The record of line ``number`` (the ``index``-th record of its input).

        With ``unchecked`` (see :func:`parse_pending`), a puzzle read by the shortcut for plain
        lines skips the repeated-givens check and is appended there, to be checked with many
        others at once."""
        line = _Line(number, text, error)
        if error is not None:
            return _make_record(index, line, None, None, None, self.prefix)
        if self.kind == "jsonl":
            return self._jsonl(index, line)
        if self.kind == "csv":
            return self._csv(index, line, unchecked)
        return _make_record(index, line, lambda: self._puzzle(text, unchecked), None, None,
                            self.prefix)

    def _puzzle(self, text: str, unchecked: list[Puzzle] | None = None) -> Puzzle:
        """``parse_puzzle(text, model, "line")``, with a shortcut for the usual line of a big
        file: nothing but N² known symbols, each a digit up to N, for a size the model fits."""
        plain = _plain_codes(text)
        if plain is not None and self._fits(plain[1]):
            raw, size = plain
            if unchecked is not None:
                puzzle = Puzzle.from_parsed(tuple(raw), size, self.model, check_givens=False)
                unchecked.append(puzzle)
                return puzzle
            with contextlib.suppress(SudokuError):  # the long way says what is wrong
                return Puzzle.from_parsed(tuple(raw), size, self.model)
        return parse_puzzle(text, self.model, "line")

    def _jsonl(self, index: int, line: _Line) -> PuzzleRecord:
        try:
            data = json.loads(line.text)
        except json.JSONDecodeError as err:
            message = f"not valid JSON: {err.msg} at column {err.colno}"
            return _make_record(index, line, lambda: _raise(message), None, None, self.prefix)
        except (ValueError, RecursionError):
            return _make_record(
                index, line, lambda: _raise("not valid JSON (too long or too deep)"),
                None, None, self.prefix,
            )
        ident, expected = None, {}
        if isinstance(data, dict):
            raw_id = data.get("id", data.get("name"))
            ident = None if raw_id is None else str(raw_id)
            for key in ("solution", "solution_count"):
                if data.get(key) is not None:
                    expected[key] = data[key]
        return _make_record(
            index, line, lambda: puzzle_from_data(data, self.model), ident, expected, self.prefix
        )

    def _csv(self, index: int, line: _Line,
             unchecked: list[Puzzle] | None = None) -> PuzzleRecord:
        columns = self.columns
        assert columns is not None
        fields = _csv_fields(line.text)
        ident = _field(fields, columns.id)
        expected: dict[str, Any] = {}
        if columns.solution is not None and _field(fields, columns.solution):
            expected["solution"] = _field(fields, columns.solution)
        count_text = None if columns.count is None else _field(fields, columns.count)
        if count_text:
            expected["solution_count"] = (
                int(count_text)
                if count_text.isascii() and count_text.isdigit() and len(count_text) < 19
                else count_text
            )
        column = columns.puzzle
        if column >= len(fields):
            message = (f"no puzzle: the row has {len(fields)} field(s), the puzzle is in "
                       f"column {column + 1} ({columns.header[column]!r})")
            return _make_record(index, line, lambda: _raise(message), ident, expected,
                                self.prefix)
        puzzle_text = fields[column]
        return _make_record(
            index, line, lambda: self._puzzle(puzzle_text, unchecked), ident, expected,
            self.prefix,
        )


class PendingRecord(NamedTuple):
    """A line read but not yet parsed (see ``read_puzzles(…, defer=True)``): ``parse()`` makes
    its :class:`PuzzleRecord`. A tuple, so it travels to a worker process cheaply."""

    parser: LineParser
    index: int
    line: int
    text: str
    error: str | None = None

    def parse(self) -> PuzzleRecord:
        return self.parser.record(self.index, self.line, self.text, self.error)


def parse_pending(pending: Sequence[PendingRecord]) -> list[PuzzleRecord]:
    """``[p.parse() for p in pending]``, faster: the repeated-givens check of every puzzle read
    by the plain-line shortcut runs once for them all (:func:`clean_givens_each`). A puzzle
    that fails it is checked again on its own, which names the group and cells."""
    records: list[PuzzleRecord] = []
    unchecked: list[Puzzle] = []
    positions: list[int] = []  # the record each unchecked puzzle belongs to
    for item in pending:
        before = len(unchecked)
        records.append(item.parser.record(item.index, item.line, item.text, item.error,
                                          unchecked))
        if len(unchecked) > before:
            positions.append(len(records) - 1)
    clean = clean_givens_each(unchecked)
    for position, puzzle, ok in zip(positions, unchecked, clean, strict=True):
        if ok:
            continue
        try:
            puzzle.check_givens()  # the per-group reading has the last word
        except SudokuError as err:
            record = records[position]
            error = f"line {record.line}: {err}" if pending[position].parser.prefix else str(err)
            records[position] = dataclasses.replace(record, puzzle=None, error=error)
    return records


@dataclass(slots=True)
class _Line:
    """One non-blank, non-comment line as read: its text, or why it could not be read."""

    number: int
    text: str
    error: str | None = None


class _Lines:
    """The significant lines of a stream, each read with a size cap (flat memory).

    Counts what it skipped, so an input with no puzzles can say why.
    """

    def __init__(self, stream: IO[Any], name: str) -> None:
        self.stream = stream
        self.name = name
        self.number = 0
        self.saw_comment = False
        self.significant = 0
        self._pushed: list[_Line] = []
        try:
            probe = stream.read(0)
        except (OSError, ValueError) as err:
            raise InputError(f"cannot read {name}: {_reason(err)}") from None
        self.binary = isinstance(probe, bytes)

    def __iter__(self) -> Iterator[_Line]:
        return self

    def push(self, line: _Line) -> None:
        self._pushed.append(line)

    def __next__(self) -> _Line:
        if self._pushed:
            return self._pushed.pop()
        while True:
            raw = self._readline(MAX_LINE_CHARS + 1)
            if not raw:
                raise StopIteration
            self.number += 1
            if len(raw) > MAX_LINE_CHARS:
                newline = b"\n" if self.binary else "\n"
                if not raw.endswith(newline):
                    return self._too_long(raw, newline)
            if self.number == 1:
                if self.binary and raw.startswith(codecs.BOM_UTF8):
                    raw = raw[len(codecs.BOM_UTF8):]
                elif not self.binary and raw.startswith("\ufeff"):
                    raw = raw[1:]
            head = raw[:1]
            if head.isspace() or head in (b"#", "#", b"", ""):  # perhaps blank, or a comment
                stripped = raw.strip()
                if not stripped:
                    continue
                if stripped[:1] in (b"#", "#"):
                    self.saw_comment = True
                    continue
            self.significant += 1
            return self._decode(raw)

    def _readline(self, limit: int) -> Any:
        try:
            return self.stream.readline(limit)
        except UnicodeDecodeError as err:  # a text stream over bytes that are not UTF-8
            raise InputError(f"{self.name} is not UTF-8 text ({err.reason})") from None
        except (OSError, ValueError) as err:
            raise InputError(f"cannot read {self.name}: {_reason(err)}") from None

    def _too_long(self, start: Any, newline: Any) -> _Line:
        if self.significant == 0 and start[:4096].count(b"\x00" if self.binary else "\x00"):
            raise InputError(f"{self.name} holds binary data (a NUL byte), not puzzle text")
        # Skip the rest of the line in chunks: it is never held whole, never parsed.
        total = len(start)
        chunk = start
        while chunk and not chunk.endswith(newline):
            chunk = self._readline(MAX_LINE_CHARS)
            total += len(chunk)
        if chunk.endswith(newline):
            total -= 1
        self.significant += 1
        head = start[:80]
        if isinstance(head, bytes):
            head = head.decode("utf-8", "replace")
        return _Line(
            self.number,
            head + "…",
            f"line {self.number} is too long for a puzzle: {total:,} characters "
            f"(at most {MAX_LINE_CHARS:,})",
        )

    def _decode(self, raw: Any) -> _Line:
        first = self.significant == 1
        if self.binary:
            if b"\x00" in raw:
                if first:
                    raise InputError(
                        f"{self.name} holds binary data (a NUL byte on line {self.number}), "
                        f"not puzzle text"
                    )
                return _Line(self.number, raw[:80].decode("utf-8", "replace"),
                             f"line {self.number} holds binary data (a NUL byte), not text")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                what = (f"byte 0x{raw[err.start]:02x} at column {err.start + 1} "
                        f"of line {self.number}")
                if first:
                    raise InputError(f"{self.name} is not UTF-8 text ({what})") from None
                return _Line(self.number, raw[:80].decode("utf-8", "replace"),
                             f"line {self.number} is not UTF-8 text ({what})")
        else:
            text = raw
            if "\x00" in text:
                if first:
                    raise InputError(
                        f"{self.name} holds binary data (a NUL character on line "
                        f"{self.number}), not puzzle text"
                    )
                return _Line(self.number, text[:80],
                             f"line {self.number} holds binary data (a NUL character), not text")
        return _Line(self.number, text.rstrip("\r\n"))

    def no_puzzles_error(self, csv_header: bool = False) -> InputError:
        if csv_header:
            return InputError(f"{self.name} has a CSV header but no puzzles")
        if self.number == 0:
            return InputError(f"{self.name} is empty")
        if not self.saw_comment and not self.significant:
            return InputError(f"{self.name} holds only whitespace")
        return InputError(f"{self.name} holds no puzzles (only comments and blank lines)")


def _reason(err: BaseException) -> str:
    return getattr(err, "strerror", None) or str(err) or type(err).__name__


class _Reader:
    """Turns the lines of one input into records, by format; numbers records as it goes.

    With ``defer``, a record of a one-puzzle-a-line format comes out as a
    :class:`PendingRecord` — the line and the parser to read it with — so that the batch
    runner can leave the parsing to its worker processes.
    """

    def __init__(self, lines: _Lines, model: Model, prefix: bool = True,
                 defer: bool = False) -> None:
        self.lines = lines
        self.model = model
        self.prefix = prefix  # say "line N:" in errors (not for a lone puzzle text)
        self.defer = defer
        self.count = 0
        self.csv_header = False
        self.line_parser = LineParser("line", model, prefix)
        self.jsonl_parser = LineParser("jsonl", model, prefix)

    # -- making records --
    def record(self, line: _Line, parse: Any, ident: str | None = None,
               expected: dict[str, Any] | None = None, prefix: bool | None = None,
               text: str | None = None) -> PuzzleRecord:
        self.count += 1
        return _make_record(
            self.count, line, parse, ident, expected,
            self.prefix if prefix is None else prefix, text,
        )

    def parsed(self, parser: LineParser, line: _Line) -> PuzzleRecord | PendingRecord:
        """The record of one line by ``parser`` (pending, when deferring)."""
        self.count += 1
        if self.defer:
            return PendingRecord(parser, self.count, line.number, line.text, line.error)
        return parser.record(self.count, line.number, line.text, line.error)

    def line_record(self, line: _Line) -> PuzzleRecord | PendingRecord:
        return self.parsed(self.line_parser, line)

    def jsonl_record(self, line: _Line) -> PuzzleRecord | PendingRecord:
        return self.parsed(self.jsonl_parser, line)

    # -- formats --
    def read(self, fmt: str) -> Iterator[PuzzleRecord]:
        if fmt in ("grid", "rows", "json"):
            yield from self.single(fmt)
        elif fmt == "line":
            yield from map(self.line_record, self.lines)
        elif fmt == "jsonl":
            yield from map(self.jsonl_record, self.lines)
        elif fmt == "csv":
            yield from self.csv_records()
        else:
            yield from self.auto()
        if self.count == 0:
            raise self.lines.no_puzzles_error(csv_header=self.csv_header)

    def auto(self) -> Iterator[PuzzleRecord]:
        first = None
        for line in self.lines:
            if line.error:  # unreadable: a record of its own, then look further
                yield self.record(line, None)
                continue
            first = line
            break
        if first is None:
            return
        head = first.text.lstrip()
        if head.startswith("{"):
            self.lines.push(first)
            yield from map(self.jsonl_record, self.lines)
        elif head.startswith("["):
            yield from self.json_start(first)
        elif _is_csv_header(first.text):
            self.lines.push(first)
            yield from self.csv_records()
        else:
            yield from self.text_lines(first)

    def json_start(self, first: _Line) -> Iterator[PuzzleRecord]:
        if _complete_json(first.text):
            self.lines.push(first)
            yield from map(self.jsonl_record, self.lines)
            return
        second = next(self.lines, None)
        if second is not None and second.error is None and _complete_json(second.text):
            yield self.jsonl_record(first)
            self.lines.push(second)
            yield from map(self.jsonl_record, self.lines)
            return
        if second is not None:
            self.lines.push(second)
        self.lines.push(first)
        yield from self.single("json")

    def text_lines(self, first: _Line) -> Iterator[PuzzleRecord]:
        buffered = [first]
        chars = len(first.text)
        if _cell_count(first.text) <= MAX_SIZE:
            # Perhaps one grid: look at the lines a grid could span, no more.
            for line in self.lines:
                buffered.append(line)
                chars += len(line.text)
                if (line.error or _cell_count(line.text) > MAX_SIZE
                        or len(buffered) > 2 * MAX_SIZE + 1 or chars > MAX_TEXT_CHARS):
                    break
            else:
                if len(buffered) > 1:
                    grid = self.grid_if_one(buffered)
                    if grid is not None:
                        yield grid
                        return
        yield from map(self.line_record, buffered)
        yield from map(self.line_record, self.lines)

    def grid_if_one(self, lines: list[_Line]) -> PuzzleRecord | None:
        """The record of the whole text as one grid, or None when it is one puzzle a line."""
        text = "\n".join(line.text for line in lines)
        try:
            puzzle = parse_puzzle(text, self.model, "auto")
        except SudokuError as err:
            content = [ln for ln in lines if not _is_separator(ln.text)]
            alone = sum(1 for ln in content if _reads_alone(ln.text, self.model))
            if 2 * alone >= len(content):
                return None
            error = str(err)
            return self.record(lines[0], lambda: _raise(error), prefix=False, text=text)
        return self.record(lines[0], lambda: puzzle, text=text)

    def single(self, fmt: str) -> Iterator[PuzzleRecord]:
        """The whole input as one puzzle in a multi-line form."""
        parts: list[str] = []
        chars = 0
        start: _Line | None = None
        for line in self.lines:
            start = start or line
            if line.error:
                yield self.record(line, None, prefix=False)
                return
            chars += len(line.text) + 1
            if chars > MAX_TEXT_CHARS:
                yield self.record(
                    start, lambda: _raise(
                        f"{self.lines.name} is too large to be one puzzle "
                        f"(more than {MAX_TEXT_CHARS:,} characters)"),
                    prefix=False, text=start.text)
                return
            parts.append(line.text)
        if start is None:
            return
        text = "\n".join(parts)
        yield self.record(start, lambda: parse_puzzle(text, self.model, fmt), prefix=False,
                          text=text)

    def csv_records(self) -> Iterator[PuzzleRecord]:
        header_line = next(self.lines, None)
        if header_line is None:
            return
        if header_line.error:
            raise InputError(f"{self.lines.name}: cannot read the CSV header ({header_line.error})")
        self.csv_header = True
        header = [h.strip().lower() for h in _csv_fields(header_line.text)]
        column = _puzzle_column(header)
        if column is None:
            raise InputError(
                f"{self.lines.name}: the CSV header has no puzzle column "
                f"(columns: {', '.join(header) or 'none'}; name one "
                f"{', '.join(repr(c) for c in PUZZLE_COLUMNS)})"
            )
        parser = LineParser("csv", self.model, self.prefix, _CsvColumns(
            header=tuple(header),
            puzzle=column,
            id=_first_index(header, ID_COLUMNS),
            solution=_first_index(header, SOLUTION_COLUMNS),
            count=_first_index(header, COUNT_COLUMNS),
        ))
        for line in self.lines:
            if line.error is None and line.text.count('"') % 2:
                line = self._join_quoted(line)
            yield self.parsed(parser, line)

    def _join_quoted(self, line: _Line) -> _Line:
        """A CSV record whose quoted field spans lines: join them (within the line cap)."""
        text = line.text
        while text.count('"') % 2:
            more = next(self.lines, None)
            if more is None:
                break
            if more.error or len(text) + len(more.text) > MAX_LINE_CHARS:
                return _Line(line.number, text[:80] + "…",
                             f"line {line.number}: a quoted field runs on past line "
                             f"{more.number} (unbalanced quote?)")
            text += "\n" + more.text
        return _Line(line.number, text)


def _raise(message: str) -> Any:
    raise PuzzleError(message)


def _csv_fields(text: str) -> list[str]:
    if text and '"' not in text and "\r" not in text and "\n" not in text:
        return text.split(",")  # what the csv module gives for such a row, several times faster
    try:
        return next(csv.reader([text]), [])
    except csv.Error:
        return text.split(",")


def _field(fields: list[str], index: int | None) -> str | None:
    if index is None or index >= len(fields):
        return None
    return fields[index].strip() or None


def _first_index(header: list[str], names: Iterable[str]) -> int | None:
    for name in names:
        if name in header:
            return header.index(name)
    return None


def _puzzle_column(header: list[str]) -> int | None:
    named = _first_index(header, PUZZLE_COLUMNS)
    if named is not None:
        return named
    return next((i for i, h in enumerate(header) if h and h not in _NOT_PUZZLE_COLUMNS), None)


def _is_csv_header(text: str) -> bool:
    fields = [f.strip().lower() for f in _csv_fields(text)]
    if any(f in PUZZLE_COLUMNS for f in fields):
        return True
    return len(fields) >= 2 and all(_NAME.fullmatch(f) for f in fields)


def _complete_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _cell_count(text: str) -> int:
    """How many cells a line holds, read as a grid row or a row of numbers."""
    tokens = [t for t in text.replace(",", " ").split() if t.strip("|+")]
    if len(tokens) > 1 and all(_NUMBER.fullmatch(t) or t in BLANKS for t in tokens):
        return len(tokens)
    return len("".join(text.translate(_GRID_SEPARATORS).split()))


def _reads_alone(text: str, model: Model) -> bool:
    """True when the line is a puzzle of 4×4 or more in line form by itself."""
    try:
        return parse_puzzle(text, model, "line").size >= 4
    except SudokuError:
        return False


# --- sources ---------------------------------------------------------------------------------
def read_puzzles(
    source: str | Path | IO[str] | IO[bytes],
    model: Model | str = "classic",
    fmt: str = "auto",
    *,
    defer: bool = False,
) -> Iterator[PuzzleRecord]:
    """Every puzzle in a file (a path) or an open stream, one record at a time (streaming).

    Problems with the source itself (missing, a directory, unreadable, binary, no puzzles at
    all) raise ``InputError``; a bad puzzle is a record with ``error`` set, and reading goes on.
    With ``defer``, each line of a one-puzzle-a-line input comes as a :class:`PendingRecord`
    whose ``parse()`` gives its record, so the parsing can be done elsewhere (the batch runner
    leaves it to its worker processes).

    >>> import io
    >>> records = list(read_puzzles(io.StringIO("id,puzzle\\nA,1.....1.........\\nB,1.3\\n")))
    >>> [(r.id, r.puzzle is not None) for r in records]
    [('A', True), ('B', False)]
    >>> records[1].error
    'line 3: read 3 cells; a puzzle has N*N cells: 16 (4x4), 36 (6x6), 64 (8x8), \
81 (9x9), 100 (10x10), 144 (12x12), 256 (16x16), 625 (25x25) …'
    """
    fmt = check_format(fmt)
    rules = load_model(model)
    if isinstance(source, str | Path):
        stream, name = _open_path(Path(source)), str(source)
        return _read_stream(stream, name, rules, fmt, owned=True, defer=defer)
    name = getattr(source, "name", None)
    if name == "<stdin>":
        name = "standard input"
    elif not isinstance(name, str) or not name:
        name = "the input stream"
    return _read_stream(source, name, rules, fmt, owned=False, defer=defer)


def _open_path(path: Path) -> IO[bytes]:
    try:
        return open(path, "rb")  # noqa: SIM115 — closed by the reading generator
    except FileNotFoundError:
        raise InputError(f"file not found: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not a puzzle file") from None
    except PermissionError:
        raise InputError(f"cannot read {path}: permission denied") from None
    except (OSError, ValueError) as err:
        raise InputError(f"cannot read {path}: {_reason(err)}") from None


def _read_stream(stream: IO[Any], name: str, model: Model, fmt: str, owned: bool,
                 prefix: bool = True, defer: bool = False) -> Iterator[PuzzleRecord]:
    try:
        lines = _Lines(stream, name)
    except BaseException:
        if owned:
            stream.close()
        raise
    return _generate(lines, model, fmt, owned, prefix, defer)


def _generate(lines: _Lines, model: Model, fmt: str, owned: bool,
              prefix: bool, defer: bool) -> Iterator[PuzzleRecord]:
    try:
        yield from _Reader(lines, model, prefix, defer).read(fmt)
    finally:
        if owned:
            lines.stream.close()


_PATH_SUFFIXES = (".txt", ".csv", ".jsonl", ".json", ".ndjson", ".sdk", ".sdm", ".ss", ".tsv")


def read_input(
    arg: str, model: Model | str = "classic", fmt: str = "auto", *, defer: bool = False
) -> Iterator[PuzzleRecord]:
    """What a command-line argument means: ``-`` is standard input, an existing path is that
    file, anything else is puzzle text itself (one puzzle, or several lines of them).

    A missing file that looks like a path (has ``/`` or a file suffix such as ``.txt``) is an
    ``InputError``; bad puzzle text is a record with ``error`` set. ``defer`` is as in
    :func:`read_puzzles` (puzzle text given as the argument itself is always parsed here).

    >>> [r.puzzle.size for r in read_input("1.....1.........")]
    [4]
    >>> read_input("puzzles/missing.txt")
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.InputError: file not found: puzzles/missing.txt
    """
    fmt = check_format(fmt)
    rules = load_model(model)
    if arg == "-":
        stream = getattr(sys.stdin, "buffer", sys.stdin)  # bytes: we decode, with clear errors
        return _read_stream(stream, "standard input", rules, fmt, owned=False, defer=defer)
    if _is_existing_path(arg) or _looks_like_path(arg):
        # Opening says best what is wrong: missing, a directory, or no permission (also on
        # a parent directory, which makes the path look missing to a mere existence check).
        return read_puzzles(arg, rules, fmt, defer=defer)
    return _read_text(arg, rules, fmt)


def _is_existing_path(arg: str) -> bool:
    if "\n" in arg or len(arg) > 4096:
        return False
    try:
        return os.path.lexists(arg)
    except (OSError, ValueError):
        return False


def _looks_like_path(arg: str) -> bool:
    if "\n" in arg or len(arg) > 4096:
        return False
    return "/" in arg or "\\" in arg or arg.strip().lower().endswith(_PATH_SUFFIXES)


def _read_text(text: str, model: Model, fmt: str) -> Iterator[PuzzleRecord]:
    """Records for puzzle text given directly; empty text is a bad record, not an InputError."""
    if not text.strip():
        message = "empty input" if not text else "input is only whitespace"
        return iter([PuzzleRecord(1, "1", 1, None, message, text)])
    lone = len(_content_lines(text)) <= 1
    if lone and fmt == "auto" and not text.lstrip().startswith(("[", "{", "#")):
        fmt = "line"  # one line of text is one puzzle, never a CSV header without rows
    records = _read_stream(io.StringIO(text), "the puzzle text", model, fmt, owned=False,
                           prefix=not lone)
    word = text.strip()
    if (lone and len(word) <= 255 and not any(ch.isspace() or ch in BLANKS for ch in word)
            and any(ch.isalpha() for ch in word)):
        # A word such as 'puzzles' was probably meant as a file name: say that none exists.
        return _with_hint(records, f" (and there is no file named {word!r})")
    return records


def _with_hint(records: Iterator[PuzzleRecord], hint: str) -> Iterator[PuzzleRecord]:
    for record in records:
        if record.error is not None:
            record.error += hint
        yield record


# --- writing ---------------------------------------------------------------------------------
def _check_cells(cells: Sequence[int], size: int) -> None:
    if len(cells) != size * size:
        raise ValueError(f"{len(cells)} cells do not make a {size}x{size} grid")


def format_line(cells: Sequence[int], size: int) -> str:
    """N² symbols in reading order, ``.`` for blanks (integers joined by commas above 35).

    >>> format_line([1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1], 4)
    '1.....1..1.....1'
    """
    if size > len(SYMBOLS):
        return ",".join(str(d) for d in cells)
    return "".join(SYMBOLS[d - 1] if d else "." for d in cells)


def format_pretty(cells: Sequence[int], size: int, model: Model | str | None = None) -> str:
    """A boxed grid: box separators from the model's box shape, ``.`` for blanks.

    Grids above 35×35 show numbers, padded to line up; a model without boxes (``latin``) gets
    no separators.

    >>> print(format_pretty([1, 2, 3, 4, 5, 6] + [0] * 30, 6))
    1 2 3 | 4 5 6
    . . . | . . .
    ------+------
    . . . | . . .
    . . . | . . .
    ------+------
    . . . | . . .
    . . . | . . .
    """
    _check_cells(cells, size)
    rules = load_model(model) if model is not None else None
    shape = box_shape(size) if rules is None or rules.uses_boxes else None
    height, width = shape if shape and shape != (1, 1) else (size, size)
    if size > len(SYMBOLS):
        pad = len(str(size))
        shown = [str(d).rjust(pad) if d else ".".rjust(pad) for d in cells]
    else:
        shown = [SYMBOLS[d - 1] if d else "." for d in cells]
    lines = []
    for r in range(size):
        row = shown[r * size:(r + 1) * size]
        parts = [" ".join(row[c:c + width]) for c in range(0, size, width)]
        if r and r % height == 0:
            lines.append("-+-".join("-" * len(p) for p in parts))
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def format_rows(cells: Sequence[int], size: int) -> str:
    """N lines of N integers separated by spaces, ``0`` blank, padded to line up.

    >>> print(format_rows([1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1], 4))
    1 0 0 0
    0 0 1 0
    0 1 0 0
    0 0 0 1
    """
    _check_cells(cells, size)
    pad = len(str(size))
    return "\n".join(
        " ".join(str(d).rjust(pad) for d in cells[r * size:(r + 1) * size]) for r in range(size)
    )


def format_json(cells: Sequence[int], size: int) -> str:
    """A list of N lists of N integers on one line, ``0`` blank (one line, so JSON Lines too).

    >>> format_json([1, 0, 0, 2], 2)
    '[[1, 0], [0, 2]]'
    """
    _check_cells(cells, size)
    return json.dumps([list(cells[r * size:(r + 1) * size]) for r in range(size)])


def format_grid(cells: Sequence[int], size: int, fmt: str = "pretty",
                model: Model | str | None = None) -> str:
    """The grid in the output format named ``fmt``: one of :data:`OUTPUT_FORMATS`.

    >>> format_grid([1, 0, 0, 2], 2, "line")
    '1..2'
    """
    name = fmt.lower() if isinstance(fmt, str) else fmt
    if name == "pretty":
        return format_pretty(cells, size, model)
    if name == "line":
        return format_line(cells, size)
    if name == "json":
        return format_json(cells, size)
    if name == "rows":
        return format_rows(cells, size)
    raise SudokuError(f"unknown output format {fmt!r} (choose from: {', '.join(OUTPUT_FORMATS)})")
