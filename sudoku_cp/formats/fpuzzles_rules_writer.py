"""f-puzzles: writing the rules of lines, dots, sums and marked cells (variants part 2) back as
their keys, so that :mod:`.fpuzzles_rules` reads each back as the same rule; a rule f-puzzles
cannot state is refused, never written as another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import PuzzleError
from ..rules import (
    XV,
    Arrow,
    BetweenLine,
    Clone,
    Difference,
    DoubleArrow,
    EntropicLine,
    Even,
    LittleKiller,
    Lockout,
    Maximum,
    Minimum,
    ModularLine,
    Nabner,
    Negative,
    Odd,
    Palindrome,
    Quadruple,
    Ratio,
    RegionSumLine,
    Renban,
    Rule,
    Sandwich,
    Skyscraper,
    SlowThermometer,
    Thermometer,
    Whispers,
    XSum,
    ZipperLine,
)
from ..rules.base import ORTHOGONAL, moves_apart
from ..rules.cells import orthogonal_neighbours
from ..rules.lines_more import lockout_gap, region_segments, zipper_parts
from ..rules.outside import clue_place
from .fpuzzles_rules import DIRECTIONS, DOT_KEYS, cell_name


def _names(cells: Sequence[int], size: int) -> list[str]:
    return [cell_name(cell, size) for cell in cells]


WRITTEN = (
    Thermometer,
    Renban,
    Whispers,
    Palindrome,
    BetweenLine,
    Arrow,
    LittleKiller,
    Sandwich,
    Skyscraper,
    XSum,
    Difference,
    Ratio,
    XV,
    Negative,
    Odd,
    Even,
    Minimum,
    Maximum,
    Clone,
    Quadruple,
    SlowThermometer,
    EntropicLine,
    ModularLine,
    Nabner,
    ZipperLine,
    DoubleArrow,
    RegionSumLine,
    Lockout,
)
"""The rule classes :func:`write_part2` writes."""


def write_part2(
    rules: Sequence[Rule], size: int, regions: Sequence[int | None] | None = None
) -> dict[str, Any]:
    """The f-puzzles keys of the part-2 rules among ``rules`` (others are left to the caller);
    ``PuzzleError`` for a rule f-puzzles cannot state (such as a moved minimum cell).
    ``regions`` are the regions the puzzle is written with (a region number per cell, None
    for a cell in none): a region sum line is written only where they cut it as its rules say.

    >>> write_part2([Thermometer((0, 1))], 4)
    {'thermometer': [{'lines': [['R1C1', 'R1C2']]}]}
    """
    out: dict[str, Any] = {}

    def add(key: str, entry: Any) -> None:
        out.setdefault(key, []).append(entry)

    dots: dict[str, list[tuple[int, int]]] = {kind: [] for kind in DOT_KEYS}
    values: dict[str, set[int]] = {kind: set() for kind in DOT_KEYS}
    negatives: list[Negative] = []
    sums: dict[tuple[str, tuple[int, ...]], list[ZipperLine | RegionSumLine]] = {}
    for rule in rules:
        if isinstance(rule, ZipperLine | RegionSumLine):
            # Several rules (one per equal sum) make one line: written once, when all are here.
            if (rule.key, rule.cells) not in sums:
                add(rule.key, {"lines": [_names(rule.cells, size)]})
            sums.setdefault((rule.key, rule.cells), []).append(rule)
        elif isinstance(rule, SlowThermometer | EntropicLine | ModularLine | Nabner | DoubleArrow):
            add(rule.key, {"lines": [_names(rule.cells, size)]})
        elif isinstance(rule, Lockout):
            if rule.gap != lockout_gap(size):
                raise PuzzleError(
                    f"a lockout line whose ends differ by {rule.gap} rather than "
                    f"{lockout_gap(size)} cannot be written for f-puzzles"
                )
            add("lockout", {"lines": [_names(rule.cells, size)]})
        elif isinstance(rule, Whispers):
            add("whispers", {"lines": [_names(rule.cells, size)], "value": str(rule.gap)})
        elif isinstance(rule, Thermometer | Renban | Palindrome | BetweenLine):
            add(rule.key, {"lines": [_names(rule.cells, size)]})
        elif isinstance(rule, Arrow):
            circle = list(rule.circle)  # a pill's digits in order (see fpuzzles_rules' arrows)
            line = [circle[0], *rule.line] if rule.line else []
            add("arrow", {"cells": _names(circle, size), "lines": [_names(line, size)]})
        elif isinstance(rule, LittleKiller):
            add("littlekillersum", _little_killer(rule, size))
        elif isinstance(rule, Sandwich):
            add("sandwichsum", _sandwich(rule, size))
        elif isinstance(rule, Skyscraper | XSum):
            place = clue_place(rule.cells, size)
            if place is None:
                raise PuzzleError(
                    f"a {rule.title} clue whose cells are not a row or column read from one end "
                    "cannot be written for f-puzzles"
                )
            # As dclamage's SolverFactory writes it: the clue's cell and its value as text.
            add(rule.key, {"cell": f"R{place[0] + 1}C{place[1] + 1}", "value": str(rule.value)})
        elif isinstance(rule, Difference | Ratio | XV):
            a, b = rule.cells
            if isinstance(rule, XV):
                letter = {10: "X", 5: "V"}.get(rule.value)
                if letter is None:
                    raise PuzzleError(f"an XV sum of {rule.value} cannot be written for f-puzzles")
                add("xv", {"cells": _names((a, b), size), "value": letter})
            else:
                add(rule.key, {"cells": _names((a, b), size), "value": str(rule.value)})
            dots[rule.key].append((min(a, b), max(a, b)))
            values[rule.key].add(rule.value)
        elif isinstance(rule, Negative):
            negatives.append(rule)
        elif isinstance(rule, Odd | Even):
            for cell in rule.cells:
                add(rule.key, {"cell": cell_name(cell, size)})
        elif isinstance(rule, Minimum | Maximum):
            # f-puzzles compares a fortress cell with its neighbours that are not of its kind
            # (see fpuzzles_rules' marked_cells): only such a rule reads back as itself.
            fortress = {
                r.cell for r in rules if isinstance(r, Minimum | Maximum) and r.key == rule.key
            }
            read_back = {n for n in orthogonal_neighbours(rule.cell, size) if n not in fortress}
            if {b for _, b in rule.pairs(size)} != read_back:
                raise PuzzleError(
                    f"the {rule.title} cell {cell_name(rule.cell, size)} compared with cells other "
                    f"than its neighbours outside the {rule.title} cells cannot be written for "
                    "f-puzzles"
                )
            add(rule.key, {"cell": cell_name(rule.cell, size)})
        elif isinstance(rule, Clone):
            add(
                "clone",
                {"cells": _names(rule.cells, size), "cloneCells": _names(rule.clones, size)},
            )
        elif isinstance(rule, Quadruple):
            add("quadruple", {"cells": _names(rule.cells, size), "values": list(rule.digits)})
    for rule in negatives:
        _write_negative(rule, size, dots, values, out)
    for (key, cells), parts in sums.items():
        _check_sum_line(key, cells, parts, size, regions)
    return out


def _check_sum_line(
    key: str,
    cells: tuple[int, ...],
    rules: list[ZipperLine | RegionSumLine],
    size: int,
    regions: Sequence[int | None] | None,
) -> None:
    """Refuse a zipper or region sum line that would read back as other rules: one missing
    some of its equal sums, or cut by its own segments rather than the puzzle's regions."""
    title = rules[0].title
    if key == "regionsumline":
        if regions is None:
            raise PuzzleError("a region sum line cannot be written without the puzzle's regions")
        segments = {rule.segments for rule in rules if isinstance(rule, RegionSumLine)}
        if segments != {region_segments(cells, regions)}:
            raise PuzzleError(
                f"a {title} cut other than by the puzzle's regions cannot be written for f-puzzles"
            )
        count = len(region_segments(cells, regions)) - 1
    else:
        count = len(zipper_parts(cells)) - 1
    if sorted({rule.step for rule in rules}) != list(range(count)):
        raise PuzzleError(f"part of a {title} cannot be written for f-puzzles")


def _write_negative(
    rule: Negative,
    size: int,
    dots: dict[str, list[tuple[int, int]]],
    values: dict[str, set[int]],
    out: dict[str, Any],
) -> None:
    """Write a negative constraint as the ``negative`` key (or ``nonconsecutive``) that reads
    back as it, or refuse one f-puzzles cannot state (pairs or values of its own)."""
    kropki = set(dots["difference"]) | set(dots["ratio"])
    exempt = set(dots["xv"]) if rule.kind == "xv" else kropki
    pairs = tuple(p for p in moves_apart(size, ORTHOGONAL) if p not in exempt)
    given = tuple(sorted({(min(a, b), max(a, b)) for a, b in rule.cell_pairs}))
    if given != pairs:
        raise PuzzleError(
            f"a negative {rule.kind} constraint on pairs of its own cannot be written for f-puzzles"
        )
    if rule.kind == "difference":
        expected = {1}  # 'nonconsecutive': beside dots their negative, else the global rule
    else:
        default = {"ratio": {2}, "xv": {5, 10}}[rule.kind]
        expected = default if rule.kind == "xv" else values[rule.kind] or default
    if set(rule.values) != expected:
        raise PuzzleError(
            f"a negative {rule.kind} constraint forbidding {list(rule.values)} cannot be written "
            "for f-puzzles"
        )
    if rule.kind == "difference":
        out["nonconsecutive"] = True
    else:
        out.setdefault("negative", []).append(rule.kind)


def _little_killer(rule: LittleKiller, size: int) -> dict[str, Any]:
    # f-puzzles' readers take such a clue for none (see fpuzzles_rules' little_killers)
    if rule.total <= 0:
        raise PuzzleError(
            f"a little killer summing to {rule.total} cannot be written for f-puzzles"
        )
    cells = rule.cells
    if len(cells) >= 2:
        (r0, c0), (r1, c1) = divmod(cells[0], size), divmod(cells[1], size)
        step = (r1 - r0, c1 - c0)
    else:  # one cell, a corner: along the diagonal that leaves the grid after it
        r0, c0 = divmod(cells[0], size)
        step = (1 if r0 == 0 else -1, -1 if c0 == 0 else 1)
    direction = next((d for d, s in DIRECTIONS.items() if s == step), None)
    clue = (r0 - step[0], c0 - step[1])
    if 0 <= clue[0] < size and 0 <= clue[1] < size:
        # A diagonal that starts inside the grid: its clue is its first cell, which dclamage's
        # LittleKillerConstraint reads as the first cell (and our reader with it).
        clue = (r0, c0)
    walk = []
    r, c = r0, c0
    while direction and 0 <= r < size and 0 <= c < size:
        walk.append(r * size + c)
        r, c = r + step[0], c + step[1]
    if direction is None or tuple(walk) != tuple(cells):
        raise PuzzleError(
            "a little killer that is not a diagonal running to the grid's edge cannot be "
            "written for f-puzzles"
        )
    return {
        "cell": f"R{clue[0] + 1}C{clue[1] + 1}",
        "cells": _names(cells, size),
        "direction": direction,
        "value": str(rule.total),
    }


def _sandwich(rule: Sandwich, size: int) -> dict[str, Any]:
    first, last = rule.cells[0], rule.cells[-1]
    if first // size == last // size and rule.cells == tuple(range(first, first + size)):
        cell = f"R{first // size + 1}C0"
    elif rule.cells == tuple(range(first, size * size, size)) and first < size:
        cell = f"R0C{first + 1}"
    else:
        raise PuzzleError("a sandwich clue over a reversed line cannot be written for f-puzzles")
    return {"cell": cell, "value": str(rule.total)}


__all__ = ["WRITTEN", "write_part2"]
