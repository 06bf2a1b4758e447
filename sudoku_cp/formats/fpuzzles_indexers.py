"""f-puzzles: reading and writing indexer cells (``rowindexer``, ``columnindexer``,
``boxindexer``) and given pencil marks (``grid[r][c].givenPencilMarks``), into the rules of
:mod:`sudoku_cp.rules.indexers` and :mod:`sudoku_cp.rules.candidates`.

As dclamage/SudokuSolver reads them (``SudokuSolver/SolverFactory.cs``):

- each indexer key is a list of ``{"cells": [...]}``; every cell of every entry joins one
  constraint of the kind (a cell listed twice is one indexer; an empty cell name is skipped);
  a box indexer's box is the cell's f-puzzles region (the default boxes, rows for a size with
  no box shape, or the grid's own ``region`` numbers), and a cell in no region indexes nothing;
- a cell's ``givenPencilMarks`` are its only candidates when it has no given value (a given's
  marks are ignored, as ``value != 0`` comes first there); an empty list limits nothing.

>>> boxes = [0, 0, 1, 1] * 2 + [2, 2, 3, 3] * 2
>>> rules = read_indexers({"boxindexer": [{"cells": ["R1C1"]}]}, 4, boxes)
>>> [(rule.key, rule.cells, rule.targets, rule.when) for rule in rules]
[('boxindexer', (0,), (1,), 2), ('boxindexer', (0,), (4,), 3), ('boxindexer', (0,), (5,), 4)]
>>> write_indexers(rules, 4, boxes)
{'boxindexer': [{'cells': ['R1C1']}]}
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..errors import ModelError, PuzzleError
from ..rules import Rule
from ..rules.candidates import Candidates
from ..rules.indexers import INDEXERS, Indexer, indexer_rules
from .fpuzzles_rules import cell_name, cell_place
from .links import short_text

INDEXER_KEYS = tuple(kind.key for kind in INDEXERS)
"""The keys of the indexers: ``rowindexer``, ``columnindexer``, ``boxindexer``."""
PENCIL_MARKS = "givenPencilMarks"
"""The grid cell's key of its given candidates."""
WRITTEN_HERE = (*INDEXERS, Candidates)
"""The rule classes this module writes."""


def _json(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 30 else text[:30] + "…"


# --- reading -------------------------------------------------------------------------------------
def read_indexers(data: dict, size: int, regions: Sequence[int | None]) -> list[Rule]:
    """The rules of a puzzle's indexer keys; ``regions``: the f-puzzles region of each cell
    (None: in none), for box indexers."""
    rules: list[Rule] = []
    for kind in INDEXERS:
        key = kind.key
        value = data.get(key)
        if value is None or value == []:
            continue
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise PuzzleError(f"f-puzzles {key!r} must be a list of objects with 'cells'")
        cells = []
        for number, entry in enumerate(value, 1):
            where = f"f-puzzles {key} {number}"
            listed = entry.get("cells")
            if not isinstance(listed, list):
                raise PuzzleError(f"{where}: 'cells' must be a list of cells such as \"R1C1\"")
            for item in listed:
                if item is None or (isinstance(item, str) and not item.strip()):
                    continue  # dclamage skips an empty cell name
                cells.append(_cell(item, size, where))
        for rule in indexer_rules(kind, cells, size, regions):
            try:
                rule.check(size)
            except ModelError as err:  # not reached for cells read above; kept as a guard
                raise PuzzleError(f"f-puzzles {key}: {err}") from None
            rules.append(rule)
    return rules


def _cell(item: Any, size: int, where: str) -> int:
    place = cell_place(item)
    if place is None:
        raise PuzzleError(f'{where}: {_json(item)} is not a cell such as "R1C1"')
    row, col = place
    if not (1 <= row <= size and 1 <= col <= size):
        raise PuzzleError(f"{where}: cell {short_text(item)} is outside the {size}x{size} grid")
    return (row - 1) * size + col - 1


def read_pencil_marks(grid: Any, givens: Sequence[int], size: int) -> list[Rule]:
    """The given candidates of the grid's cells without a given (``givens``: 0 for those),
    one rule per set of digits, cells in reading order. Called on a grid already read (every
    row a list of ``size`` cell objects)."""
    by_digits: dict[tuple[int, ...], list[int]] = {}
    for r, row in enumerate(grid):
        for c, entry in enumerate(row):
            raw = entry.get(PENCIL_MARKS)
            if raw is None:
                continue
            where = f"f-puzzles grid R{r + 1}C{c + 1}: {PENCIL_MARKS}"
            digits = _digits(raw, size, where)
            if digits and not givens[r * size + c]:
                by_digits.setdefault(digits, []).append(r * size + c)
    return [Candidates(tuple(cells), digits) for digits, cells in by_digits.items()]


def _digits(raw: Any, size: int, where: str) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise PuzzleError(f"{where} must be a list of digits, not {_json(raw)}")
    digits = set()
    for item in raw:
        digit = item if isinstance(item, int) and not isinstance(item, bool) else None
        text = item.strip() if isinstance(item, str) else ""
        if text.isascii() and text.isdigit() and len(text) <= 9:  # not "²", nor 5,000 digits
            digit = int(text)
        if digit is None or not 1 <= digit <= size:
            raise PuzzleError(f"{where}: {_json(item)} is not a digit 1..{size}")
        digits.add(digit)
    return tuple(sorted(digits))


# --- writing -------------------------------------------------------------------------------------
def write_indexers(
    rules: Sequence[Rule], size: int, regions: Sequence[int | None] | None
) -> dict[str, Any]:
    """The indexer keys of the indexer rules among ``rules`` (``regions``: each cell's region
    as the written grid states it, None for none); ``PuzzleError`` for one f-puzzles cannot
    state: moved off its places, or missing some of the rules a whole indexer cell makes."""
    out: dict[str, Any] = {}
    for kind in INDEXERS:
        pointing: dict[int, set[int]] = {}
        place: dict[int, int] = {}
        for rule in rules:
            if type(rule) is not kind:
                continue
            assert isinstance(rule, Indexer)
            if not rule.stated(size, regions):
                names = ", ".join(cell_name(c, size) for c in rule.cells)
                raise PuzzleError(
                    f"the {rule.title} {names} moved off its places cannot be written for f-puzzles"
                )
            for cell in rule.cells:
                pointing.setdefault(cell, set()).add(rule.when)
                place[cell] = rule.then
        for cell, whens in sorted(pointing.items()):
            if whens != set(range(1, size + 1)) - {place[cell]}:
                raise PuzzleError(
                    f"the {kind.title} {cell_name(cell, size)} pointing only with "
                    f"{', '.join(map(str, sorted(whens)))} cannot be written for f-puzzles"
                )
        if pointing:
            out[kind.key] = [{"cells": [cell_name(cell, size) for cell in sorted(pointing)]}]
    return out


def write_pencil_marks(rules: Sequence[Rule], givens: Sequence[int], size: int) -> dict[int, list]:
    """The ``givenPencilMarks`` of each cell the given candidates among ``rules`` limit (two
    rules on one cell: the digits both allow). A given among its cell's candidates needs no
    marks (they are ignored beside a given); ``PuzzleError`` for one that is not, or a cell
    left no digit (an empty list would limit nothing)."""
    allowed: dict[int, set[int]] = {}
    for rule in rules:
        if isinstance(rule, Candidates):
            for cell in rule.cells:
                allowed[cell] = allowed.get(cell, set(rule.digits)) & set(rule.digits)
    marks = {}
    for cell, digits in sorted(allowed.items()):
        if givens[cell]:
            if givens[cell] not in digits:
                raise PuzzleError(
                    f"the given {givens[cell]} at {cell_name(cell, size)} outside its given pencil "
                    "marks cannot be written for f-puzzles"
                )
            continue
        if not digits:
            raise PuzzleError(
                f"{cell_name(cell, size)} left no candidate by its given pencil marks cannot be "
                "written for f-puzzles"
            )
        marks[cell] = sorted(digits)
    return marks


__all__ = [
    "INDEXER_KEYS",
    "PENCIL_MARKS",
    "WRITTEN_HERE",
    "read_indexers",
    "read_pencil_marks",
    "write_indexers",
    "write_pencil_marks",
]
