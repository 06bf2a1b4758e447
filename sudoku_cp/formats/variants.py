"""The simpler public forms of variant puzzles: a ``regions`` string and a ``variant`` name (CSV
columns or JSON keys), and killer cages as JSON (``{"givens", "cages": [{"sum", "cells"}]}``).

A ``regions`` string holds one symbol per cell (``0``-``9``, then ``A``-``Z`` or ``a``-``z``),
the cells of one region sharing a symbol; numbering from 0 or from 1 are both read. A
``variant`` names what applies besides rows and columns, joined by ``+``:

==============  ==============================================================================
``jigsaw``      the regions replace the boxes (also what regions alone mean)
``jigsaw+box``  the regions are extra groups and the boxes stay
``x``           both main diagonals
``hyper``       the four windows of Windoku (rows and columns 2-4 and 6-8, counted from 1)
``classic``     nothing more (also an empty variant)
==============  ==============================================================================

so ``x+hyper`` is X-Windoku. The rules are added to the model the input is read with.

>>> from sudoku_cp.model import load_model
>>> model = variant_model(load_model(), 4, "0011001122332233", "jigsaw")
>>> model.groups(4)[8:10]
((0, 1, 4, 5), (2, 3, 6, 7))
>>> variant_model(load_model(), 9, "", "x+hyper").label.endswith("classic.toml")
True
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from typing import Any

from ..errors import ModelError, PuzzleError
from ..model import Model, load_model
from ..rules import Cage
from .links import short_text

VARIANTS = ("classic", "jigsaw", "box", "x", "hyper")
"""The words a ``variant`` joins with ``+``."""


@functools.lru_cache(maxsize=1024)
def variant_model(base: Model, size: int, regions: str | None, variant: str | None) -> Model:
    """``base`` with the regions (a symbol per cell) and the variant's rules, for a ``size``
    grid; a ``PuzzleError`` naming what is wrong."""
    words = {w.strip().lower() for w in (variant or "").split("+") if w.strip()}
    unknown = sorted(words - set(VARIANTS))
    if unknown:
        raise PuzzleError(
            f"unknown variant {unknown[0]!r} (known: {', '.join(VARIANTS)}, joined by +)"
        )
    regions = (regions or "").strip()
    kinds = list(base.group_kinds)
    windows = base.windows
    if "x" in words:
        kinds += [k for k in ("diagonal", "anti-diagonal") if k not in kinds]
    if "hyper" in words:
        if size != 9:
            raise PuzzleError(f"variant hyper has windows for a 9x9 grid, not {size}x{size}")
        windows += tuple(w for w in load_model("hyper").windows if w not in windows)
    if "jigsaw" in words and not regions:
        raise PuzzleError("variant jigsaw needs the regions (a symbol per cell)")
    numbers = _region_numbers(regions, size) if regions else None
    if numbers is not None and "box" not in words and "boxes" not in kinds:
        kinds.append("boxes")
    model = replace(base, group_kinds=tuple(kinds), windows=windows)
    try:
        if numbers is None:
            return model.with_rules(size=size) if model != base else base
        if "box" in words:  # jigsaw+box: the regions are extra groups, the boxes stay
            groups = [
                tuple(c for c, n in enumerate(numbers) if n == number)
                for number in sorted(set(numbers))
            ]
            return model.with_rules(groups=groups, size=size)
        return model.with_rules(regions=numbers, size=size)
    except ModelError as err:
        raise PuzzleError(str(err)) from None


def side_of(puzzle: str, regions: str | None = None) -> int:
    """The grid side a line-form puzzle's symbols give (else its regions'; at least 1).

    >>> side_of("1" * 16), side_of("1" * 15, "0" * 81)
    (4, 9)
    """
    for text in (puzzle, regions or ""):
        count = len("".join(text.split()))
        side = math.isqrt(count)
        if side and side * side == count:
            return side
    return max(1, math.isqrt(len(puzzle)))


def _region_numbers(text: str, size: int) -> tuple[int, ...]:
    """Region numbers 0..N-1 from a symbol per cell (numbered from 0 or from 1)."""
    if len(text) != size * size:
        raise PuzzleError(
            f"regions: {len(text)} symbols, not the {size * size} cells of a {size}x{size} grid"
        )
    try:
        numbers = [int(ch, 36) for ch in text]
    except ValueError:
        bad = next(ch for ch in text if not ch.isalnum() or not ch.isascii())
        raise PuzzleError(f"regions: {bad!r} is not a region symbol (0-9, A-Z)") from None
    if min(numbers) == 1 and max(numbers) == size:
        numbers = [n - 1 for n in numbers]
    for symbol in dict.fromkeys(text):
        count = text.count(symbol)
        if count != size:
            raise PuzzleError(f"regions: region {symbol!r} has {count} cells, not {size}")
    if len(set(numbers)) != size or max(numbers) >= size:
        raise PuzzleError(
            f"regions: {len(set(numbers))} region symbols; a {size}x{size} grid has {size} "
            f"regions numbered 0..{size - 1} (or 1..{size})"
        )
    return tuple(numbers)


def killer_model(base: Model, size: int, cages: Any) -> Model:
    """``base`` with killer cages given as ``[{"sum": S, "cells": [0-based cells]}, …]``.

    >>> from sudoku_cp.model import load_model
    >>> killer_model(load_model(), 4, [{"sum": 3, "cells": [0, 1]}]).rules
    (Cage(cells=(0, 1), total=3),)
    """
    if not isinstance(cages, list):
        raise PuzzleError('\'cages\' must be a list of {"sum": S, "cells": [cells]} objects')
    rules = []
    for number, cage in enumerate(cages, start=1):
        where = f"cage {number}"
        if not isinstance(cage, dict):
            raise PuzzleError(f"{where} is not an object with 'sum' and 'cells'")
        cells = cage.get("cells")
        if not isinstance(cells, list) or not cells:
            raise PuzzleError(f"{where}: 'cells' must be a list of cell numbers (0-based)")
        for cell in cells:
            if isinstance(cell, bool) or not isinstance(cell, int):
                shown = short_text(repr(cell))
                raise PuzzleError(f"{where}: {shown} is not a cell number (0-based)")
            if not 0 <= cell < size * size:
                raise PuzzleError(
                    f"{where}: cell {cell} is outside the {size}x{size} grid "
                    f"(cells are numbered 0..{size * size - 1})"
                )
        total = cage.get("sum")
        if total is not None and (isinstance(total, bool) or not isinstance(total, int)):
            raise PuzzleError(f"{where}: its sum {short_text(repr(total))} is not a whole number")
        rules.append(Cage(tuple(cells), total))
    try:
        return base.with_rules(rules=rules, size=size)
    except ModelError as err:
        raise PuzzleError(str(err)) from None
