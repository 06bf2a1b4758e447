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

- ``f-puzzles``: an f-puzzles JSON object (``size``, ``grid`` and the rules: regions, diagonals,
  extra regions, disjoint groups, killer cages, anti-knight, anti-king, non-consecutive), an
  f-puzzles link (``https://f-puzzles.com/?load=…``), a SudokuPad link carrying an f-puzzles
  payload (``https://sudokupad.app/fpuzzles…``), or the bare payload — see :mod:`.fpuzzles`.
  Its rules become the puzzle's own model; a rule this tool does not know makes it invalid.
- SudokuPad: its own payloads (``scl…``/``ctc…``, ``scf…``, ``pack…``), bare or in a SudokuPad
  link, and short ids (fetched with ``--fetch``) — see :mod:`.sudokupad`; their elements become
  f-puzzles rules where their meaning is certain, else the puzzle is refused naming them.
- candidate grids (pencil-mark sudoku): N³ symbols, each cell's candidates — see
  :mod:`.candidates`; ``auto`` and the line form read the 9×9 one (729 symbols, digit d at
  place d of its cell), ``fmt="candidates"`` any size.
- variant JSON: ``{"puzzle": …, "regions": …, "variant": …}`` or a killer puzzle
  ``{"givens": …, "cages": [{"sum": S, "cells": [0-based cells]}]}`` — see :mod:`.variants`.

``fmt="auto"`` picks the form: a link or payload is f-puzzles; text starting with ``[`` or
``{`` is JSON; a single line is the
line form; several lines are rows when every token is a number (or a lone blank symbol),
otherwise a grid (when both readings are possible, the other is tried if the first fails).

A file of many puzzles (:func:`read_puzzles`) is one of:

- ``line``: one puzzle per line in line form;
- ``jsonl``: JSON Lines, each line a nested list or an object with a ``puzzle`` key (a line
  string or a nested list) and optional ``id``, ``solution``, ``solution_count``,
  ``regions``, ``variant`` — or a killer object with ``givens`` and ``cages``, or an f-puzzles
  object (told by its ``grid``);
- ``csv``: comma-separated with a header; the puzzle column is the one named ``puzzle``,
  ``puzzles``, ``quizzes`` or ``quiz``, else the first column that is not an id, solution or
  count column; optional ``id`` (or ``name``), ``solution`` (or ``solutions``),
  ``solution_count``, ``regions`` (a region symbol per cell: jigsaw) and ``variant``
  (``jigsaw``, ``jigsaw+box``, ``x``, ``hyper``, ``x+hyper``) columns.

A line of a one-puzzle-a-line file may also be an f-puzzles link or payload, and a file may
hold one f-puzzles JSON object over several lines.

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

An explicit ``fmt`` overrides all this: ``line``, ``jsonl``, ``csv``, ``iss`` and
``candidates`` read many puzzles (one a line),
``grid``, ``rows`` and ``json`` read the whole input as one puzzle.

Reading streams: lines are read one at a time with a cap of ``MAX_LINE_CHARS``, so memory stays
flat for any number of lines and an absurdly long line is skipped (reported as a bad record)
without being held or parsed. A bad puzzle becomes a :class:`PuzzleRecord` with ``error`` set
and the reading goes on; problems with the input as a whole (missing file, a directory, no
permission, binary data, no puzzles at all, a CSV with no puzzle column) raise ``InputError``.
A gzip, bzip2 or xz file, or a zip archive of one file, is read decompressed
(:mod:`.compressed`).

Writing: :func:`format_line`, :func:`format_pretty` (a boxed grid), :func:`format_rows`,
:func:`format_json`, and :func:`format_grid` choosing by name; a puzzle with its rules as
f-puzzles JSON and link: :func:`.fpuzzles.fpuzzles_data` and :func:`.fpuzzles.fpuzzles_link`.
Each reads back with :func:`parse_puzzle`:

>>> from sudoku_cp.formats import format_pretty, parse_puzzle
>>> cells = parse_puzzle("1... ..1. .1.. ...1").cells
>>> print(format_pretty(cells, 4))
1 . | . .
. . | 1 .
----+----
. 1 | . .
. . | . 1
>>> parse_puzzle(format_pretty(cells, 4)).cells == cells
True

The package's modules, from the bottom up (none of the first five imports ``Puzzle``, so
``puzzle.py`` may use them):

- :mod:`.line` — the symbols, and the line form's one writer (:func:`format_line`) and one
  reader (:func:`line_cells`; :func:`read_line` for a line of known size);
- :mod:`.fpuzzles` — f-puzzles objects, payloads and links, read and written;
- :mod:`.variants` — regions and variant names, killer cages as JSON: a puzzle's own model;
- :mod:`.text` — one puzzle's text or JSON data → its cells, in every form;
- :mod:`.writers` — the output forms;
- :mod:`.puzzles` — :func:`parse_puzzle` and :func:`puzzle_from_data`, making a ``Puzzle``;
- :mod:`.records` — records of inputs of many puzzles, one line's parsing, the batch path;
- :mod:`.files` — streams and files, line by line, and the detection of their format.

The last three import ``puzzle.py``, which imports :mod:`.line` and :mod:`.text` (and
so :mod:`.fpuzzles`); so their
names are loaded here on first use (a module ``__getattr__``), never when the package is
imported, and no import circle forms.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .line import BLANKS, MAX_CELLS, SYMBOLS, format_line, line_cells, read_line
from .text import FORMATS, MAX_TEXT_CHARS, check_format
from .writers import OUTPUT_FORMATS, format_grid, format_json, format_pretty, format_rows

if TYPE_CHECKING:
    from .files import (
        COUNT_COLUMNS,
        ID_COLUMNS,
        MAX_LINE_CHARS,
        PUZZLE_COLUMNS,
        SOLUTION_COLUMNS,
        read_input,
        read_puzzles,
    )
    from .puzzles import parse_puzzle, puzzle_from_data
    from .records import LineParser, PendingRecord, PuzzleRecord, parse_pending

_LAZY = {
    "parse_puzzle": "puzzles",
    "puzzle_from_data": "puzzles",
    "PuzzleRecord": "records",
    "LineParser": "records",
    "PendingRecord": "records",
    "parse_pending": "records",
    "read_puzzles": "files",
    "read_input": "files",
    "MAX_LINE_CHARS": "files",
    "PUZZLE_COLUMNS": "files",
    "ID_COLUMNS": "files",
    "SOLUTION_COLUMNS": "files",
    "COUNT_COLUMNS": "files",
}
"""The names of the modules that import ``puzzle.py``: loaded on first use (see above)."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # once loaded, a plain module attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "BLANKS",
    "COUNT_COLUMNS",
    "FORMATS",
    "ID_COLUMNS",
    "MAX_CELLS",
    "MAX_LINE_CHARS",
    "MAX_TEXT_CHARS",
    "OUTPUT_FORMATS",
    "PUZZLE_COLUMNS",
    "SOLUTION_COLUMNS",
    "SYMBOLS",
    "LineParser",
    "PendingRecord",
    "PuzzleRecord",
    "check_format",
    "format_grid",
    "format_json",
    "format_line",
    "format_pretty",
    "format_rows",
    "line_cells",
    "parse_pending",
    "parse_puzzle",
    "puzzle_from_data",
    "read_input",
    "read_line",
    "read_puzzles",
]
