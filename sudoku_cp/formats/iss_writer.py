"""Writing a puzzle as an Interactive Sudoku Solver (ISS) constraint string: :func:`format_iss`,
the reverse of :func:`~sudoku_cp.formats.iss.read_iss`, each rule written as the ISS type whose
meaning (read in ISS's code, cited at each) is the rule's own, and refused with a one-line
:class:`~sudoku_cp.errors.PuzzleError` where ISS has none. ``sudoku-cp solve --format iss`` and
the benchmark beside ISS (``tools/perf/variants_vs_iss.py``) write with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import PuzzleError
from ..model import Model, box_shape
from ..rules import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    Cage,
    Clone,
    ColumnIndexer,
    Difference,
    DigitRule,
    DoubleArrow,
    EntropicLine,
    LittleKiller,
    Lockout,
    Maximum,
    Minimum,
    ModularLine,
    Nabner,
    Negative,
    NonConsecutive,
    Palindrome,
    Quadruple,
    Ratio,
    RegionSumLine,
    Renban,
    RowIndexer,
    Rule,
    Sandwich,
    Skyscraper,
    Thermometer,
    Whispers,
    XSum,
    ZipperLine,
    indexer_rules,
)
from ..rules.cells import orthogonal_neighbours
from ..rules.lines_more import region_sum_lines, zipper_lines
from ..rules.outside import clue_place
from .iss_grid import (
    MAX_ISS_SIZE,
    binary_key,
    box_regions,
    iss_cell_name,
    little_killer_lines,
    pair_table,
    unmarked_pairs,
    window_boxes,
)


def _item(kind: str, *args: object) -> str:
    return "." + "~".join([kind, *map(str, args)])


def format_iss(cells: Sequence[int], size: int, model: Model) -> str:
    """The ISS constraint string of a puzzle (givens, regions, groups and rules); a
    ``PuzzleError`` naming the first part ISS has no type for."""
    if not 1 <= size <= MAX_ISS_SIZE:
        raise PuzzleError(f"a {size}x{size} puzzle cannot be written for ISS (1x1..16x16)")
    kinds = set(model.group_kinds)
    if not {"rows", "columns"} <= kinds:
        raise PuzzleError("a model without rows and columns cannot be written for ISS")
    unknown = kinds - {"rows", "columns", "boxes", "diagonal", "anti-diagonal", "disjoint"}
    if unknown:
        raise PuzzleError(f"the {sorted(unknown)[0]} groups cannot be written for ISS")
    items: list[str] = []
    if size != 9:
        items.append(_item("Shape", f"{size}x{size}"))
    shape = box_shape(size)
    names = [iss_cell_name(c, size) for c in range(size * size)]
    regions = model.regions if "boxes" in kinds else None
    if "boxes" in kinds and regions is None:
        if shape is None or model.box_for(size) != shape:
            raise PuzzleError(
                f"boxes of {model.box_for(size)} cannot be written for ISS, whose boxes on "
                f"{size}x{size} are {shape}"
            )
        cut = box_regions(size)
    else:
        cut = regions
        if regions is not None:
            numbers: dict[int, int] = {}
            layout = "".join(
                "0123456789abcdefghijklmnopqrstuvwxyz"[numbers.setdefault(r, len(numbers))]
                for r in regions
            )
            items.append(_item("Jigsaw", layout))
        if shape is not None:
            items.append(_item("NoBoxes"))
    if "diagonal" in kinds:
        items.append(_item("Diagonal", -1))
    if "anti-diagonal" in kinds:
        items.append(_item("Diagonal", 1))
    if "disjoint" in kinds:
        if regions is not None or shape is None:
            raise PuzzleError("disjoint groups beside a jigsaw cannot be written for ISS")
        items.append(_item("DisjointSets"))
    if model.windows:
        if set(model.windows) == set(window_boxes(size)) and shape is not None:
            items.append(_item("Windoku"))
        else:
            for row, col, height, width in model.windows:
                group = [(row + r) * size + col + c for r in range(height) for c in range(width)]
                items.append(_item("AllDifferent", *(names[c] for c in group)))
    for listed in model.cell_groups:
        items.append(_item("AllDifferent", *(iss_cell_name(r * size + c, size) for r, c in listed)))
    values = [f"{names[c]}_{d}" for c, d in enumerate(cells) if d]
    for c, digits in sorted(_allowed_digits(model.rules, size).items()):
        shown = ", ".join(map(str, digits))
        where = f"r{c // size + 1}c{c % size + 1}"
        if not digits:
            raise PuzzleError(f"{where}'s digit rules leave it no digit: ISS would read no value")
        # ISS intersects a cell's givens: a given its candidates allow is all it says.
        if cells[c] and cells[c] not in digits:
            raise PuzzleError(
                f"{where} is given {cells[c]} but may hold only {shown}: ISS would read no "
                "value there"
            )
        if not cells[c]:
            values.append(f"{names[c]}_{'_'.join(map(str, digits))}")
    if values:
        items.append(_item("", *values))
    items += _write_rules(model.rules, size, names, cut)
    return "".join(items)


def _allowed_digits(rules: Sequence[Rule], size: int) -> dict[int, tuple[int, ...]]:
    """The digits each cell under a digit rule (odd, even, given pencil marks, a little killer
    of one cell …) may hold, all
    its rules together. ISS says it with a Given of several values (sudoku_constraint.js
    ``Given.makeFromArgs``; sudoku_builder.js ``_constraintHandlers`` case 'Given':
    ``GivenCandidates``, the cell holds one of them): exactly the digit rules' meaning."""
    allowed: dict[int, set[int]] = {}
    for rule in rules:
        if isinstance(rule, DigitRule):
            digits = {d for d in range(1, size + 1) if rule.allows(d)}
        elif isinstance(rule, LittleKiller) and len(rule.cells) == 1:
            # A corner's diagonal of one cell is no LittleKiller there (LittleKiller.cellMap
            # leaves out diagonals of one cell); its sum is that cell's digit, a Given.
            digits = {rule.total} & set(range(1, size + 1))
        else:
            continue
        for c in rule.cells:
            allowed[c] = allowed.get(c, digits) & digits
    return {c: tuple(sorted(digits)) for c, digits in allowed.items()}


def _write_rules(
    rules: Sequence[Rule], size: int, names: list[str], cut: Sequence[int] | None
) -> list[str]:
    items: list[str] = []
    done: set[tuple[int, ...]] = set()
    lines = little_killer_lines(size)
    marks: dict[str, list[tuple[int, int]]] = {"kropki": [], "xv": []}
    negatives: list[Negative] = []
    done_kinds: set[type[RowIndexer | ColumnIndexer]] = set()
    for rule in rules:
        cells = [names[c] for c in getattr(rule, "cells", ())]
        if isinstance(rule, AntiKnight | AntiKing):
            items.append(_item(type(rule).__name__))
        elif isinstance(rule, NonConsecutive):
            items.append(_item("AntiConsecutive"))
        elif isinstance(rule, DigitRule):
            continue  # (with the givens)
        elif isinstance(rule, Minimum | Maximum):
            items += _write_extremum(rule, size, names)
        elif isinstance(rule, Clone):
            # Palindrome's builder binds cell i to cell n-1-i with a === b (sudoku_builder.js
            # case 'Palindrome', sudoku_constraint.js Palindrome.fnKey): on two cells, a
            # clone's pair, anywhere on the grid.
            for a, b in rule.pairs(size):
                items.append(_item("Palindrome", names[a], names[b]))
        elif isinstance(rule, Cage):
            if rule.total == 0:
                raise PuzzleError(
                    "a killer cage summing to 0 cannot be written for ISS (0 is no sum there)"
                )
            items.append(_item("Cage", rule.total or 0, *cells))
        elif isinstance(rule, Arrow):
            line = [names[c] for c in rule.line]
            if len(rule.circle) == 1:
                items.append(_item("Arrow", names[rule.circle[0]], *line))
            elif len(rule.circle) in (2, 3) and list(rule.circle) == sorted(rule.circle):
                items.append(
                    _item("PillArrow", len(rule.circle), *(names[c] for c in rule.circle), *line)
                )
            else:
                raise PuzzleError(
                    "an arrow whose pill is not in reading order cannot be written for ISS"
                )
        elif type(rule) in _LINE_TYPES:
            items.append(_item(_LINE_TYPES[type(rule)], *cells))
        elif isinstance(rule, Whispers):
            items.append(_item("Whisper", rule.gap, *cells))
        elif isinstance(rule, Lockout):
            items.append(_item("Lockout", rule.gap, *cells))
        elif isinstance(rule, EntropicLine):
            if size != 9:
                raise PuzzleError("an entropic line cannot be written for ISS except on 9x9")
            items.append(_item("Entropic", *cells))
        elif isinstance(rule, ModularLine):
            items.append(_item("Modular", 3, *cells))
        elif isinstance(rule, ZipperLine | RegionSumLine | DoubleArrow):
            if rule.cells in done:
                continue
            done.add(rule.cells)
            whole: set[Rule]
            if isinstance(rule, ZipperLine):
                whole = set(zipper_lines(rule.cells))
                kind = "Zipper"
            elif isinstance(rule, DoubleArrow):
                whole = {DoubleArrow(rule.cells)}
                kind = "DoubleArrow"
            else:
                whole = set(region_sum_lines(rule.cells, cut)) if cut is not None else set()
                kind = "RegionSumLine"
            same = {r for r in rules if type(r) is type(rule) and r.cells == rule.cells}
            if same != whole:
                raise PuzzleError(f"the {rule.title} {'-'.join(cells)} is not one whole ISS {kind}")
            items.append(_item(kind, *cells))
        elif isinstance(rule, Difference | Ratio | XV):
            mark = {
                (Difference, 1): "WhiteDot",
                (Ratio, 2): "BlackDot",
                (XV, 10): "X",
                (XV, 5): "V",
            }.get((type(rule), rule.value))
            if mark is None:
                # Another value is ISS's Pair with the dot's relation as its key (builder
                # 'Pair': BinaryConstraint); it is no mark, so strict marks do not skip it.
                items.append(_item("Pair", binary_key(rule.allows, size), "_", *cells))
                continue
            items.append(_item(mark, *cells))
            marks["xv" if isinstance(rule, XV) else "kropki"].append(rule.cells)
        elif isinstance(rule, Nabner):
            # builder 'PairX': BinaryPairwise, the key's relation on every two cells.
            items.append(_item("PairX", binary_key(rule.allows, size), "_", *cells))
        elif isinstance(rule, Negative):
            negatives.append(rule)
        elif isinstance(rule, RowIndexer | ColumnIndexer):
            indexer = type(rule)
            if indexer in done_kinds:
                continue
            done_kinds.add(indexer)
            mine = {r for r in rules if isinstance(r, indexer)}
            listed = sorted({c for r in mine for c in r.cells})
            if set(indexer_rules(indexer, listed, size)) != mine:
                raise PuzzleError(f"the {rule.title} rules are not whole ISS indexer cells")
            letter = "R" if indexer is RowIndexer else "C"
            items.append(_item("Indexing", letter, *(names[c] for c in listed)))
        elif isinstance(rule, LittleKiller):
            if len(rule.cells) == 1:
                continue  # (with the givens)
            start = next((s for s, line in lines.items() if set(line) == set(rule.cells)), None)
            if start is None:
                raise PuzzleError(f"the little killer {'-'.join(cells)} is no ISS diagonal")
            items.append(_item("LittleKiller", rule.total, names[start]))
        elif isinstance(rule, Sandwich):
            items.append(
                _item("Sandwich", rule.total, _line_name(rule.cells, size, either=True)[0])
            )
        elif isinstance(rule, Skyscraper | XSum):
            place, forward = _line_name(rule.cells, size, either=False)
            value = rule.clue if isinstance(rule, Skyscraper) else rule.total
            if value == 0:
                raise PuzzleError(f"a {rule.title} clue of 0 cannot be written for ISS")
            args = (place, value, "") if forward else (place, "", value)
            items.append(_item(type(rule).__name__, *args))
        elif isinstance(rule, Quadruple):
            top = min(rule.cells)
            if tuple(sorted(rule.cells)) != (top, top + 1, top + size, top + size + 1):
                raise PuzzleError("a quadruple not on a 2x2 square cannot be written for ISS")
            items.append(_item("Quad", names[top], *rule.digits))
        else:
            raise PuzzleError(f"the {rule.title} rule has no ISS constraint type")
    items += _write_negatives(negatives, size, marks)
    return items


def _write_extremum(rule: Minimum | Maximum, size: int, names: list[str]) -> list[str]:
    """A minimum / maximum cell as ISS's GreaterThan: its builder binds each orthogonally
    adjacent pair of the listed cells, the one listed first greater (sudoku_builder.js case
    'GreaterThan' with ``_adjacentPairsOrThrow``; sudoku_constraint.js ``GreaterThan.fnKey``
    a > b, ``_adjacentCellPairs``). A maximum is listed before its neighbours, a minimum after
    them; no two of a cell's neighbours are adjacent, so those are all the pairs."""
    pairs = rule.pairs(size)
    cell = rule.cell
    others = [b for _, b in pairs]
    if not others:  # (a 1x1 grid: nothing to compare)
        return []
    if set(others) <= set(orthogonal_neighbours(cell, size)):
        listed = [cell, *others] if isinstance(rule, Maximum) else [*others, cell]
        return [_item("GreaterThan", *(names[c] for c in listed))]
    raise PuzzleError(
        f"the {rule.title} {rule.describe(size)} is compared with cells that are not its "
        "neighbours: ISS's GreaterThan binds only adjacent cells"
    )


_LINE_TYPES: dict[type, str] = {
    Thermometer: "Thermo",
    Renban: "Renban",
    Palindrome: "Palindrome",
    BetweenLine: "Between",
}


def _line_name(cells: Sequence[int], size: int, *, either: bool) -> tuple[str, bool]:
    """``R3`` or ``C2`` for a whole row or column, and whether it reads forwards (from the
    left or top)."""
    place = clue_place(cells, size)
    if place is None and either:
        place = clue_place(tuple(cells)[::-1], size)
    if place is None:
        raise PuzzleError("an outside clue not on a whole row or column cannot be written for ISS")
    row, col = place
    if col in (-1, size):
        return f"R{row + 1}", col == -1
    return f"C{col + 1}", row == -1


def _write_negatives(
    negatives: Sequence[Negative], size: int, marks: dict[str, list[tuple[int, int]]]
) -> list[str]:
    if not negatives:
        return []
    found = {(rule.kind, rule.values, rule.cell_pairs) for rule in negatives}
    kropki = unmarked_pairs(size, marks["kropki"])
    xv = unmarked_pairs(size, marks["xv"])
    strict_kropki = {("difference", (1,), kropki), ("ratio", (2,), kropki)}
    strict_xv = {("xv", (5, 10), xv)}
    items = []
    if strict_kropki <= found:
        items.append(_item("StrictKropki"))
        found -= strict_kropki
    if strict_xv <= found:
        items.append(_item("StrictXV"))
        found -= strict_xv
    # Any other: its relation as a Pair key on each of its pairs, one group each (builder
    # 'Pair'; parseNamedCellGroups: an empty item ends a group).
    for kind, values, pairs in sorted(found):
        rule = Negative(kind, pairs, values)
        if len(pair_table(rule.allows, size)) == size * size:
            continue  # (values no two digits reach: it says nothing)
        groups: list[str] = []
        for a, b in pairs:
            groups += ["", iss_cell_name(a, size), iss_cell_name(b, size)]
        items.append(_item("Pair", binary_key(rule.allows, size), "_", *groups[1:]))
    return items


__all__ = ["format_iss"]
