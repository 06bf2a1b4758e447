"""One puzzle's text (line, grid, rows or JSON) or decoded JSON data → its cells.

The forms and how ``fmt="auto"`` tells them apart are described in the package docstring
(:mod:`sudoku_cp.formats`). The readers here check everything but the givens — the cell count,
each digit in 0..N, a size the model takes — and hand the cells to a ``build`` function,
``Puzzle.from_parsed`` in practice, which checks the givens and makes the puzzle. So this
module imports no :class:`~sudoku_cp.puzzle.Puzzle` and ``Puzzle.parse`` can use it;
:func:`sudoku_cp.formats.parse_puzzle` is :func:`read_text` with that builder.

>>> def build(cells, size, model):
...     return size, cells[:4]
>>> read_text("1... ..1. .1.. ...1", "classic", "auto", build)
(4, (1, 0, 0, 0))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..errors import InputError, ModelError, PuzzleError
from ..model import MAX_SIZE, Model, load_model
from . import links
from .line import (
    BLANKS,
    NUMBER,
    SYMBOL_DIGITS,
    cell_place,
    check_range,
    line_cells,
    read_integer,
)

T = TypeVar("T")
Build = Callable[..., T]
"""What makes the puzzle from checked cells: ``build(cells, size, model)``, such as
``Puzzle.from_parsed``, called with ``published=`` too when the input states its solution (an
f-puzzles ``solution``); it may raise a ``PuzzleError`` (a repeated given) or ``ModelError``."""

FORMATS = ("auto", "line", "grid", "rows", "json", "jsonl", "csv", "iss", "candidates")
"""Names accepted for ``fmt`` when reading."""

CANDIDATE_LINE = 729
"""The symbols of a 9x9 candidate grid, which the line form reads as one (:mod:`.candidates`)."""

# The most text one multi-line puzzle may take (a 64×64 JSON printed one number a line is
# about 60 KB), so a huge input is refused before any parsing.
MAX_TEXT_CHARS = 1 << 20

_SEPARATOR_LINE = re.compile(r"[\s\-+=]+")
GRID_SEPARATORS = str.maketrans("|+", "  ")
"""Grid characters read as spaces (a translate table)."""


def read_text(text: str, model: Model | str, fmt: str, build: Build[T]) -> T:
    """``build(cells, size, model)`` for the one puzzle ``text`` holds in form ``fmt`` (or any
    single-puzzle form, for ``"auto"``); a ``PuzzleError`` saying what is wrong otherwise."""
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
    if fmt == "iss" or (fmt in ("auto", "line") and may_be_iss(text)):
        from . import iss  # (loads every rule kind: only for ISS input)

        if fmt == "iss" or iss.is_iss(text):
            given, side, own = iss.read_iss(text, rules)
            return _build(given, side, own, build)
    if fmt in ("auto", "line") and "\n" not in text.strip():
        # An f-puzzles, SudokuPad or ISS link, or a bare payload (see .fpuzzles, .sudokupad).
        found = links.find_payload(text)
        if found is not None and found.kind == "iss":
            return read_text(found.payload, rules, "auto", build)  # as ISS reads its q=
        if found is not None and found.kind == "sudokupad":
            from . import sudokupad  # (its f-puzzles object, typed from SudokuPad's own)

            return read_data(sudokupad.sudokupad_data(found.payload, found.fragment), rules, build)
        if found is not None:
            from . import fpuzzles  # (loads every rule kind: only for f-puzzles input)

            data = links.decode_payload(found.payload)
            if not fpuzzles.is_fpuzzles(data):
                raise PuzzleError(
                    "bad f-puzzles payload: its JSON is not an f-puzzles object (with a 'grid')"
                )
            return read_data(data, rules, build)
        if fmt == "line" and text.lstrip().startswith("{"):
            # A JSON object on one line: how a record writes a puzzle with rules of its own
            # that no link holds (record_form.record_text), read wherever a line is.
            return _json_puzzle(text, rules, build)
    if fmt == "auto":
        fmt = _single_format(text)
    if fmt == "candidates":
        from .candidates import read_candidates

        pm_cells, side, own = read_candidates(_without_comments(text), rules)
        return _build(pm_cells, side, own, build)
    if fmt == "line":
        if "#" in text or "\n" in text or "\r" in text:
            text = _without_comments(text)
        if len(text) >= CANDIDATE_LINE:  # a 9x9 candidate grid (see .candidates)
            from .candidates import is_candidate_line, read_candidates

            if is_candidate_line(text):
                pm_cells, side, own = read_candidates(text, rules)
                return _build(pm_cells, side, own, build)
        cells, size = line_cells(text, rules)
    elif fmt == "grid":
        cells, size = _grid_cells(text)
    elif fmt == "rows":
        cells, size = _rows_cells(text)
    elif fmt in ("json", "jsonl"):
        return _json_puzzle(text, rules, build)
    else:  # "multi": rows or grid, whichever reads
        return _rows_or_grid(text, rules, build)
    return _build(cells, size, rules, build)


def check_format(fmt: str) -> str:
    """``fmt`` lower-cased when it is one of :data:`FORMATS`, else an ``InputError``.

    >>> check_format("CSV")
    'csv'
    """
    name = fmt.lower() if isinstance(fmt, str) else fmt
    if name not in FORMATS:
        raise InputError(f"unknown input format {fmt!r} (choose from: {', '.join(FORMATS)})")
    return name


def may_be_iss(text: str) -> bool:
    """A cheap gate before :func:`.iss.is_iss` (which loads the rule kinds): '.' then a letter
    or '~'. A puzzle line starting with a blank and a digit never passes it."""
    head = text.lstrip()[:2]
    return head[:1] == "." and (head[1:2] == "~" or head[1:2].isalpha())


def _single_format(text: str) -> str:
    stripped = text.lstrip()
    if stripped[:1] in ("[", "{"):
        return "json"
    lines = content_lines(text)
    if not lines:
        raise PuzzleError("input holds only comments")
    return "line" if len(lines) == 1 else "multi"


def content_lines(text: str) -> list[str]:
    """The lines that are neither blank nor ``#`` comments."""
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def _without_comments(text: str) -> str:
    lines = content_lines(text)
    if not lines:
        raise PuzzleError("input holds only comments")
    return "\n".join(lines)


def _build(
    cells: Sequence[int],
    size: int,
    model: Model,
    build: Build[T],
    published: Sequence[int] | None = None,
) -> T:
    """The puzzle from checked cells; a size the model cannot take is a PuzzleError too."""
    reason = model.fits(size)
    if reason:
        raise PuzzleError(f"read a {size}x{size} puzzle, but {reason}")
    if size > MAX_SIZE:  # (every reader refuses more cells first; Puzzle() says the same)
        raise PuzzleError(f"a {size}x{size} grid is larger than the maximum {MAX_SIZE}x{MAX_SIZE}")
    try:
        # Every reader has checked the cell count and that each digit is in 0..N: only the
        # repeated-givens check is left (this is the hot path of reading a big file).
        if published is not None:
            return build(tuple(cells), size, model, published=published)
        return build(tuple(cells), size, model)
    except ModelError as err:  # a user's model whose windows or cells miss this size
        raise PuzzleError(str(err)) from None


def _shape(rows: Sequence[Sequence[Any]], unit: str) -> int:
    """The size of a square grid of rows, or an error naming the ragged row or the count."""
    count = len(rows)
    if count > MAX_SIZE:
        raise PuzzleError(f"read {count} rows; the largest puzzle is {MAX_SIZE}x{MAX_SIZE}")
    width = len(rows[0])
    for number, row in enumerate(rows, start=1):
        if len(row) != width:
            raise PuzzleError(
                f"row {number} has {_count(len(row), unit)} but row 1 has {width} (rows are ragged)"
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


def is_separator(line: str) -> bool:
    """True for a line made only of ``-``, ``+``, ``=`` and spaces (a grid's rule line)."""
    return bool(_SEPARATOR_LINE.fullmatch(line))


def _grid_cells(text: str) -> tuple[list[int], int]:
    """Cells of a hand-drawn grid: one line per row, separators skipped."""
    lines = content_lines(text)
    if not lines:
        raise PuzzleError("input holds only comments")
    if len(lines) > 2 * MAX_SIZE + 1:  # rows plus separator lines, at most
        raise PuzzleError(f"read {len(lines)} lines; the largest puzzle is {MAX_SIZE}x{MAX_SIZE}")
    squeezed = ["".join(ln.translate(GRID_SEPARATORS).split()) for ln in lines]
    rows = [s for ln, s in zip(lines, squeezed, strict=True) if not is_separator(ln)]
    width = len(rows[0]) if rows else 0
    if not rows or len(rows) != width:
        # '-' is also a blank: a line of exactly N dashes may be a row of blanks after all.
        alt = [
            s
            for ln, s in zip(lines, squeezed, strict=True)
            if not is_separator(ln)
            or (set(s) == {"-"} and not {"+", "="} & set(ln) and len(s) == (width or len(s)))
        ]
        if alt and all(len(r) == len(alt) for r in alt):
            rows = alt
    if not rows:
        raise PuzzleError("read only separator lines, no rows of cells")
    for number, row in enumerate(rows, start=1):
        for column, ch in enumerate(row, start=1):
            if ch not in SYMBOL_DIGITS:
                raise PuzzleError(f"unknown symbol {ch!r} at row {number}, column {column}")
    size = _shape(rows, "cells")
    cells = [SYMBOL_DIGITS[ch] for row in rows for ch in row]
    for index, digit in enumerate(cells):
        if digit > size:
            symbol = rows[index // size][index % size]
            raise PuzzleError(
                f"symbol {symbol!r} (digit {digit}) at {cell_place(index, size)} "
                f"is outside 1..{size}"
            )
    return cells, size


def _row_tokens(text: str) -> list[list[str]]:
    """Tokens of each row of the rows form; '|' tokens and separator lines dropped."""
    rows = []
    for line in content_lines(text):
        tokens = [t for t in line.replace(",", " ").split() if t.strip("|+")]
        if is_separator(line) and not (tokens and all(t == "-" for t in tokens)):
            continue
        rows.append(tokens)
    return rows


def _rows_cells(text: str) -> tuple[list[int], int]:
    """Cells of the rows form: N lines of N integers separated by spaces or commas."""
    lines = content_lines(text)
    if len(lines) > 2 * MAX_SIZE + 1:
        raise PuzzleError(f"read {len(lines)} lines; the largest puzzle is {MAX_SIZE}x{MAX_SIZE}")
    rows = _row_tokens(text)
    if not rows:
        raise PuzzleError("read only separator lines, no rows of numbers")
    values = []
    for r, row in enumerate(rows, start=1):
        values.append(
            [read_integer(tok, (r - 1) * MAX_SIZE + c, MAX_SIZE) for c, tok in enumerate(row)]
        )
    size = _shape(values, "numbers")
    cells = [v for row in values for v in row]
    check_range(cells, size)
    return cells, size


def _numeric_text(text: str) -> bool:
    rows = _row_tokens(text)
    return bool(rows) and all(
        NUMBER.fullmatch(t) or (len(t) == 1 and t in BLANKS) for row in rows for t in row
    )


def _rows_or_grid(text: str, model: Model, build: Build[T]) -> T:
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
            _refuse_other_boxes(text, size, model)
            return _build(cells, size, model, build)
        except PuzzleError as err:
            first_error = first_error or err
    assert first_error is not None
    raise first_error


def _drawn_boxes(text: str, size: int) -> tuple[int, int] | None:
    """The box shape (rows, columns) a drawn grid's rule lines and ``|`` marks show, or None
    when they show none (or no shape of ``size``): rows between rule lines, cells between
    ``|`` marks."""
    lines = content_lines(text)
    runs, run = [], 0
    for line in lines:
        if is_separator(line):
            runs.append(run)
            run = 0
        else:
            run += 1
    runs = [r for r in [*runs, run] if r]
    height = runs[0] if len(runs) > 1 and len(set(runs[:-1])) == 1 else None
    width = None
    rows = [line for line in lines if not is_separator(line) and "|" in line]
    if rows:
        parts = [p for p in rows[0].strip().strip("|").split("|")]
        counts = {len(p.split()) if " " in p.strip() else len(p.strip()) for p in parts}
        width = counts.pop() if len(counts) == 1 and len(parts) > 1 else None
    if height is None and width is None:
        return None
    height = height or (size // width if width else None)
    width = width or (size // height if height else None)
    if not height or not width or height * width != size or min(height, width) < 2:
        return None
    return height, width


def _refuse_other_boxes(text: str, size: int, model: Model) -> None:
    """A PuzzleError when the grid is drawn with boxes of another shape than the model's: a
    6x6 drawn with 3x2 boxes was read with 2x3 ones, silently another puzzle."""
    if "|" not in text and not any(is_separator(line) for line in content_lines(text)):
        return
    if not model.uses_boxes or model.regions is not None or model.fits(size):
        return
    ours = model.box_for(size)
    drawn = _drawn_boxes(text, size)
    if drawn is None or ours is None or drawn == tuple(ours):
        return
    raise PuzzleError(
        f"the grid is drawn with {drawn[0]}x{drawn[1]} boxes (rows by columns), but model "
        f"'{model.name}' has {ours[0]}x{ours[1]} boxes at {size}x{size}: give --box "
        f'{drawn[0]}x{drawn[1]} (or box = "{drawn[0]}x{drawn[1]}" in a model file)'
    )


def _json_puzzle(text: str, model: Model, build: Build[T]) -> T:
    import json  # (here: a plain puzzle line never needs it)

    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise PuzzleError(
            f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}"
        ) from None
    except (ValueError, RecursionError):  # huge integers, absurd nesting
        raise PuzzleError("not valid JSON (numbers too long or nesting too deep)") from None
    return read_data(data, model, build)


REGION_KEYS = ("regions", "region")
"""Where an input states jigsaw regions (a CSV column, a JSON key): a symbol per cell."""
VARIANT_KEYS = ("variant",)
"""Where an input names its variant (``jigsaw``, ``jigsaw+box``, ``x``, ``hyper``, ``x+hyper``)."""


def read_data(data: Any, model: Model | str, build: Build[T]) -> T:
    """``build(cells, size, model)`` for the puzzle in decoded JSON: a list of rows, a line
    string, ``{"puzzle": …}`` (with optional ``regions`` and ``variant``), a killer puzzle
    ``{"givens": …, "cages": [{"sum": S, "cells": [0-based cells]}]}``, or an f-puzzles object
    (:mod:`.fpuzzles`); a ``PuzzleError`` saying what is wrong otherwise."""
    rules = load_model(model)
    if isinstance(data, dict):
        from . import fpuzzles  # (loads every rule kind: only for JSON input)

        if fpuzzles.is_fpuzzles(data):
            given, side, own = fpuzzles.read_fpuzzles(data, rules)
            published = fpuzzles.published_solution(data, side)
            return _build(given, side, own, build, published)
        _refuse_misspelt_keys(data)
        if "puzzle" not in data and "givens" in data and "cages" in data:
            data = dict(data, puzzle=data["givens"])
        regions = next((data[k] for k in REGION_KEYS if data.get(k) not in (None, [], "")), None)
        variant = next((data[k] for k in VARIANT_KEYS if data.get(k) not in (None, "")), None)
        if regions is not None or variant is not None or "cages" in data:
            return _variant_data(data, rules, regions, variant, build)
        if "puzzle" not in data:
            raise PuzzleError(
                "a JSON object needs a 'puzzle' key (a line string or a list of rows)"
            )
        if isinstance(data["puzzle"], str) and may_be_iss(data["puzzle"]):
            from . import iss

            if iss.is_iss(data["puzzle"]):  # its 'solution' in ISS's short form, if any
                given, side, own = iss.read_iss(data["puzzle"], rules)
                published = iss.published_digits(data.get("solution"), side)
                return _build(given, side, own, build, published)
        data = data["puzzle"]
    if isinstance(data, str):
        return read_text(data, rules, "line" if "\n" not in data.strip() else "auto", build)
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
    check_range(cells, size)
    return _build(cells, size, rules, build)


def _variant_data(data: dict, model: Model, regions: Any, variant: Any, build: Build[T]) -> T:
    """A JSON puzzle with regions, a variant or killer cages: its own model, then its cells."""
    from . import variants

    puzzle = data.get("puzzle")
    if not isinstance(puzzle, str):
        raise PuzzleError("a puzzle with regions, a variant or cages needs its givens as a string")
    if isinstance(regions, list):
        regions = _regions_text(regions)
    if regions is not None and not isinstance(regions, str):
        raise PuzzleError("'regions' must be a string with a region symbol per cell")
    if variant is not None and not isinstance(variant, str):
        raise PuzzleError("'variant' must be a name such as jigsaw, x or hyper")
    size = data.get("size")
    if size is None:
        size = variants.side_of(puzzle, regions)
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
        raise PuzzleError(f"'size' must be a whole number 1..{MAX_SIZE}, not {size!r}")
    own = variants.variant_model(model, size, regions, variant)
    if "cages" in data:
        own = variants.killer_model(own, size, data["cages"])
    cells, got = line_cells(puzzle, own)
    if got != size:
        raise PuzzleError(f"read a {got}x{got} puzzle, but 'size' is {size}")
    return _build(cells, got, own, build)


JSON_KEYS = frozenset(
    ("puzzle", "givens", "cages", "size", "id", "name", "solution", "solution_count")
    + REGION_KEYS
    + VARIANT_KEYS
)
"""The keys a JSON puzzle object (not f-puzzles) is read by; any other is the record's own
data (a source, a difficulty …) and left alone."""
RECORD_FIELDS = frozenset(
    ("index", "line", "source", "verdict", "count", "exact", "solutions", "reason")
    + ("published", "backends", "rating", "solution_1", "solution_2")
)
"""The fields of check's own records (JSON Lines and CSV), read back as input: data, not
misspellings of :data:`JSON_KEYS`."""


def _refuse_misspelt_keys(data: dict) -> None:
    """A key that is not one of :data:`JSON_KEYS` but nearly is ("cage", "Cages", "varient")
    is refused: read as the record's own data, the rule it meant would be silently dropped."""
    import difflib

    for key in data:
        if isinstance(key, str) and key not in JSON_KEYS and key not in RECORD_FIELDS:
            near = difflib.get_close_matches(key.lower(), JSON_KEYS, n=1, cutoff=0.8)
            if near:
                raise PuzzleError(
                    f"unknown key {key!r} (did you mean {near[0]!r}?): a misspelt rule would "
                    "be ignored"
                )


_REGION_SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _regions_text(regions: list) -> str:
    """A ``regions`` list as the string form: a region number per cell (0..35, or 1..36) or a
    one-symbol string per cell. Anything else is refused, never dropped: without its regions
    a jigsaw puzzle would be solved as a classic one."""
    if all(isinstance(r, int) and not isinstance(r, bool) for r in regions):
        numbers = list(regions)
        if numbers and min(numbers) == 1 and max(numbers) == len(_REGION_SYMBOLS):
            numbers = [n - 1 for n in numbers]  # 1..36: one symbol each once from 0
        bad = next((n for n in numbers if not 0 <= n < len(_REGION_SYMBOLS)), None)
        if bad is not None:
            raise PuzzleError(f"regions: region number {bad} is not in 0..35 (or 1..36)")
        return "".join(_REGION_SYMBOLS[n] for n in numbers)
    if all(isinstance(r, str) and len(r) == 1 for r in regions):
        return "".join(regions)
    bad = next(
        (
            r
            for r in regions
            if not (isinstance(r, str) and len(r) == 1)
            and (isinstance(r, bool) or not isinstance(r, int))
        ),
        None,
    )
    shown = _json_text(bad) if bad is not None else "numbers and symbols mixed"
    raise PuzzleError(
        f"regions: a list must hold a region number or a one-symbol string per cell, not {shown}"
    )


def _json_type(value: Any) -> str:
    names = {
        dict: "an object",
        str: "a string",
        bool: "true/false",
        int: "a number",
        float: "a number",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)


def _json_text(value: Any) -> str:
    import json

    text = json.dumps(value)
    return text if len(text) <= 30 else text[:30] + "…"
