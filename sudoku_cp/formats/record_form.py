"""The text a check record keeps of its puzzle: the line form when the model brings nothing of
its own, else an f-puzzles link, else the JSON object :mod:`.variants` reads — each read back
(by :mod:`.fpuzzles` and :func:`.text.read_data`) and kept only when it is the same puzzle.

Above the readers it checks with, so that none of them imports back up.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..errors import ModelError, PuzzleError, SudokuError
from ..model import Model
from ..rules import Cage, Rule
from ..rules.base import DigitRule
from .fpuzzles import fpuzzles_data, fpuzzles_link, model_regions, read_fpuzzles
from .line import format_line
from .text import read_data


def record_text(cells: Sequence[int], size: int, model: Model) -> str:
    """How a check or count record writes a puzzle so that it reads back as the same puzzle:
    its line, or — when the puzzle brings rules of its own (a jigsaw's regions, a killer's
    cages) — its f-puzzles link, which every command reads (the line alone would lose them).
    A puzzle f-puzzles cannot hold (above 16x16, a rule it has no key for) is written as the
    JSON object the JSON Lines reader takes (``{"puzzle", "regions", "variant", "cages"}``),
    which any puzzle line may also be. Each form is read back before it is chosen; the line
    stays only for a puzzle no form holds.

    >>> from sudoku_cp.model import load_model
    >>> record_text([1] + [0] * 15, 4, load_model("classic"))
    '1...............'
    >>> own = load_model("classic").with_rules(regions=[0, 0, 1, 1] * 2 + [2, 2, 3, 3] * 2)
    >>> record_text([1] + [0] * 15, 4, own).startswith("https://f-puzzles.com/?load=")
    True
    >>> big = load_model("classic").with_rules(rules=[Cage((0, 1), 3)], size=25)
    >>> record_text([0] * 625, 25, big)[-40:]
    '.....","cages":[{"cells":[0,1],"sum":3}]}'
    """
    if not model.own:
        return format_line(cells, size)
    base = replace(model, regions=None, cell_groups=(), rules=(), sizes=None, own=False)
    try:
        data = fpuzzles_data(cells, size, model)
        given, side, read = read_fpuzzles(data, base)
        if _same(cells, model, given, read, size):
            return fpuzzles_link(data)
    except SudokuError:  # (a wrong lz-string module too: the JSON form needs none)
        pass
    try:
        text = json.dumps(_record_object(cells, size, model), separators=(",", ":"))
        given, read = read_data(json.loads(text), base, lambda c, n, m, **_: (c, m))
        if _same(cells, model, given, read, size):
            return text
    except (PuzzleError, ModelError):
        pass
    return format_line(cells, size)


_REGION_SYMBOLS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _record_object(cells: Sequence[int], size: int, model: Model) -> dict[str, Any]:
    """The puzzle as the JSON object :mod:`.variants` reads: its regions as a symbol per cell,
    diagonals and windows as a variant, killer cages with 0-based cells."""
    data: dict[str, Any] = {"puzzle": format_line(cells, size)}
    words = []
    regions = model.regions
    if regions is None and model.cell_groups:  # extra groups: a jigsaw+box's regions
        regions = _partition(model, size)
        words.append("jigsaw+box")
    if regions is not None:
        if size > len(_REGION_SYMBOLS):
            raise PuzzleError(f"{size} regions have no symbol each")
        data["regions"] = "".join(_REGION_SYMBOLS[r] for r in regions)
    if {"diagonal", "anti-diagonal"} & set(model.group_kinds):
        words.append("x")
    if model.windows:
        words.append("hyper")
    if words:
        data["variant"] = "+".join(words)
    if not all(type(rule) is Cage for rule in model.rules):
        raise PuzzleError("only killer cages are written beside the givens")
    if model.rules:
        data["cages"] = [
            {"cells": list(rule.cells), **({} if rule.total is None else {"sum": rule.total})}
            for rule in model.rules
            if isinstance(rule, Cage)
        ]
    return data


def _partition(model: Model, size: int) -> tuple[int, ...]:
    """The region of each cell, when the model's extra groups cover the grid once."""
    regions = [-1] * (size * size)
    for number, group in enumerate(model.cell_groups):
        for r, c in group:
            if regions[r * size + c] != -1:
                raise PuzzleError("extra groups that overlap are no regions")
            regions[r * size + c] = number
    if -1 in regions or len(model.cell_groups) != size:
        raise PuzzleError("extra groups that do not cover the grid are no regions")
    return tuple(regions)


def _same(cells: Sequence[int], model: Model, given: Sequence[int], read: Model, size: int) -> bool:
    """True when ``given`` under ``read`` is the puzzle ``cells`` under ``model``: the same
    givens, groups, regions and rules (in any order)."""

    def groups(m: Model) -> set[frozenset[int]]:
        return {frozenset(g) for g in m.groups(size)}

    def meaning(m: Model) -> tuple[dict[int, frozenset[int]], list[Rule]]:
        # Digit rules by the digits each cell may hold: odd cells read back one rule a cell,
        # and pencil marks grouped by their digits, are the same puzzle.
        allowed: dict[int, frozenset[int]] = {}
        others = []
        for rule in m.rules:
            if isinstance(rule, DigitRule):
                digits = frozenset(d for d in range(1, size + 1) if rule.allows(d))
                for cell in rule.cells:
                    allowed[cell] = allowed.get(cell, digits) & digits
            else:
                others.append(rule)
        # A given the rule allows is all the rule says of its cell (f-puzzles' readers drop
        # the pencil marks of given cells: fpuzzles_indexers.read_pencil_marks).
        kept = {c: d for c, d in allowed.items() if not (cells[c] and cells[c] in d)}
        return kept, sorted(others, key=repr)

    return (
        tuple(given) == tuple(cells)
        and groups(read) == groups(model)
        and model_regions(read, size) == model_regions(model, size)
        and meaning(read) == meaning(model)
    )
