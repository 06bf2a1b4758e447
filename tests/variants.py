"""Independent solution counts for variant puzzles, and a catalogue of small ones.

The counts here come from no backend: every 4×4 Latin square (576) and every 5×5 one
(161,280) is enumerated with plain itertools and numpy (reduced squares, then every order
of rows and naming of digits), every 4×4 Sudoku grid (288) is a Latin square whose 2×2 boxes
hold each digit once, and a puzzle's count is how many of the grids of its base (Sudoku grids
when its model draws boxes, else Latin squares) the plain validator
(:meth:`Puzzle.is_solution`) accepts. A cheap filter (givens kept, the puzzle's groups
different, pair rules' ``allows``) runs first so that 161,280 grids are not all given to the
validator; the validator has the last word on every grid the filter lets through.

The catalogue (:func:`catalogue`) has, for every rule and some combinations, an empty puzzle,
one with a unique solution and one with none, the givens found by searching with these counts
(never written down by hand), so that the counts 0, 1 and many are all there.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from sudoku_cp.model import Model, load_model
from sudoku_cp.puzzle import Grid, Puzzle
from sudoku_cp.rules import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    BoxIndexer,
    Cage,
    Candidates,
    Clone,
    ColumnIndexer,
    Difference,
    DigitRootCage,
    DigitRule,
    Even,
    LittleKiller,
    Maximum,
    Minimum,
    Negative,
    NonConsecutive,
    Odd,
    PairRule,
    Palindrome,
    Quadruple,
    Ratio,
    Renban,
    RowIndexer,
    Rule,
    Sandwich,
    Skyscraper,
    SumRule,
    Thermometer,
    Whispers,
    XSum,
    indexer_rules,
)
from sudoku_cp.rules.lines_more import (
    DoubleArrow,
    EntropicLine,
    Lockout,
    ModularLine,
    Nabner,
    SlowThermometer,
    entropic_tops,
    region_sum_lines,
    zipper_lines,
)


@functools.cache
def reduced_latin_squares(size: int) -> tuple[Grid, ...]:
    """Every reduced Latin square of side ``size``: first row and first column 1, 2 … N."""
    found: list[Grid] = []
    grid = [0] * (size * size)
    for i in range(size):
        grid[i] = grid[i * size] = i + 1
    rows = [{grid[r * size]} for r in range(size)]
    cols = [{grid[c]} for c in range(size)]
    free = [r * size + c for r in range(1, size) for c in range(1, size)]

    def fill(k: int) -> None:
        if k == len(free):
            found.append(tuple(grid))
            return
        r, c = divmod(free[k], size)
        for digit in range(1, size + 1):
            if digit not in rows[r] and digit not in cols[c]:
                grid[free[k]] = digit
                rows[r].add(digit)
                cols[c].add(digit)
                fill(k + 1)
                rows[r].discard(digit)
                cols[c].discard(digit)
        grid[free[k]] = 0

    fill(0)
    return tuple(found)


@functools.cache
def latin_squares(size: int) -> np.ndarray:
    """Every Latin square of side ``size``, a row of N² digits each: each reduced square with
    its rows 2..N in every order and its digits renamed in every way (each Latin square comes
    from exactly one such triple), so N!·(N-1)!·R(N) rows — 576 at 4, 161,280 at 5."""
    reduced = np.array(reduced_latin_squares(size), dtype=np.uint8).reshape(-1, size, size)
    orders = [(0, *rest) for rest in itertools.permutations(range(1, size))]
    rowed = reduced[:, orders, :].reshape(-1, size * size)
    names = np.array([(0, *p) for p in itertools.permutations(range(1, size + 1))], np.uint8)
    return names[:, rowed].reshape(-1, size * size)


@functools.cache
def sudoku_grids(size: int = 4) -> np.ndarray:
    """Every Sudoku grid of side 4: the Latin squares whose 2×2 boxes hold 1..4 once."""
    assert size == 4, "only 4x4 Sudoku grids are enumerated"
    boxes = [(0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15)]
    grids = latin_squares(4)
    return grids[_all_different(grids, boxes)]


def _all_different(grids: np.ndarray, groups: Sequence[Sequence[int]]) -> np.ndarray:
    """For each grid (a row of ``grids``): True when no group holds a digit twice."""
    keep = np.ones(len(grids), dtype=bool)
    for group in groups:
        seen = np.bitwise_or.reduce(np.left_shift(1, grids[:, list(group)].astype(np.int64)), 1)
        keep &= np.bitwise_count(seen) == len(group)
    return keep


def base_grids(puzzle: Puzzle) -> np.ndarray:
    """Every grid the puzzle's solutions are among: 4×4 Sudoku grids when the model draws
    regular boxes, else the Latin squares of its size (4 or 5)."""
    model = puzzle.model
    assert {"rows", "columns"} <= set(model.group_kinds), "the base grids are Latin squares"
    if puzzle.size == 4 and model.uses_boxes and model.regions is None:
        return sudoku_grids(4)
    assert puzzle.size in (4, 5), "only 4x4 and 5x5 grids are enumerated"
    return latin_squares(puzzle.size)


def solutions(puzzle: Puzzle) -> list[Grid]:
    """Every solution of ``puzzle``, sorted, as the validator says. The filter before it only
    leaves out grids that break a given, a group, a pair rule's own ``allows``, a cage sum or
    a skyscraper or X-sum clue."""
    grids = base_grids(puzzle)
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            grids = grids[grids[:, cell] == digit]
    lines = {frozenset(g) for g in Puzzle([0] * puzzle.size**2, "latin").groups()}
    grids = grids[_all_different(grids, [g for g in puzzle.groups() if frozenset(g) not in lines])]
    n = puzzle.size
    for rule in puzzle.model.rules:
        if isinstance(rule, PairRule):
            allowed = np.array(
                [[bool(a and b and rule.allows(a, b)) for b in range(n + 1)] for a in range(n + 1)],
                dtype=bool,
            )
            for a, b in rule.pairs(n):
                grids = grids[allowed[grids[:, a], grids[:, b]]]
        elif isinstance(rule, Cage) and rule.total is not None:
            grids = grids[grids[:, list(rule.cells)].sum(axis=1, dtype=np.int64) == rule.total]
        elif isinstance(rule, SumRule):
            cells, weights = zip(*rule.terms(n), strict=True)
            sums = grids[:, list(cells)].astype(np.int64) @ np.array(weights, dtype=np.int64)
            grids = grids[sums == rule.goal]
        elif isinstance(rule, DigitRootCage) and rule.sums(n) is not None:
            # (the validator below judges every grid left; this only spares it most of them)
            totals = grids[:, list(rule.cells)].sum(axis=1, dtype=np.int64)
            grids = grids[np.isin(totals, rule.sums(n))]
        elif isinstance(rule, DigitRule):
            allowed = np.array([bool(d) and rule.allows(d) for d in range(n + 1)], dtype=bool)
            grids = grids[allowed[grids[:, list(rule.cells)]].all(axis=1)]
        elif isinstance(rule, Skyscraper):  # seen: 1 + the digits above all before them
            line = grids[:, list(rule.cells)]
            tallest = np.maximum.accumulate(line, axis=1)
            grids = grids[1 + (line[:, 1:] > tallest[:, :-1]).sum(axis=1) == rule.clue]
        elif isinstance(rule, XSum):  # the first digit X: the first X digits sum to the total
            line = grids[:, list(rule.cells)].astype(np.int64)
            first = np.minimum(line[:, 0], line.shape[1])  # (one past the end: the check below)
            sums = np.cumsum(line, axis=1)[np.arange(len(line)), first - 1]
            grids = grids[(line[:, 0] <= line.shape[1]) & (sums == rule.total)]
    found = [tuple(int(d) for d in grid) for grid in grids]
    # Rule by rule, with the validator's own checkers, before the whole validator: most grids
    # fail the first rule, and the validator would describe every rule each breaks.
    for rule in puzzle.model.rules:
        found = [grid for grid in found if not rule.problems(grid, n)]
    return sorted(grid for grid in found if puzzle.is_solution(grid))


def count(puzzle: Puzzle) -> int:
    """How many solutions ``puzzle`` has, counted without any backend."""
    return len(solutions(puzzle))


# --- the catalogue -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A catalogue puzzle: its name (the rule set, and ``empty``, ``unique`` or ``none``), the
    puzzle and its count (by enumeration)."""

    name: str
    puzzle: Puzzle
    count: int

    def __str__(self) -> str:
        return self.name


CLASSIC = load_model("classic")
DISJOINT = ("rows", "columns", "boxes", "disjoint")
LATIN = load_model("latin")
JIGSAW_5 = (0, 0, 0, 1, 1, 0, 0, 2, 1, 1, 3, 2, 2, 2, 1, 3, 3, 2, 4, 4, 3, 3, 4, 4, 4)
"""Five irregular regions of a 5×5 grid (no box shape exists at size 5)."""
JIGSAW_4 = (0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3)
"""Four irregular regions of a 4×4 grid."""
BOXES_4 = (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)
"""The 2×2 boxes of a 4×4 grid, as region numbers."""
CAGES = (Cage((0, 1), 3), Cage((2, 6), 4), Cage((8, 12, 13), 9), Cage((10, 11, 15), 8))
"""Cages whose sums the grid 1234/3412/2143/4321 meets (and, the search finds, others)."""
CAGES_UNSUMMED = (Cage((0, 5)), Cage((3, 6, 9)), Cage((10, 15)))


BOXES_4 = (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)
"""The box of each cell of a 4×4 grid."""
GRID_4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
"""The 4×4 grid the part-2 rules below were drawn on (each holds in it, so each rule set has
a solution; the counts still come from the enumeration)."""


def _marked_pairs(size: int, marks: Sequence[PairRule]) -> tuple[tuple[int, int], ...]:
    """The orthogonal pairs of a ``size`` grid with none of ``marks`` between them."""
    marked = {frozenset(pair) for mark in marks for pair in mark.pairs(size)}
    pairs = []
    for cell in range(size * size):
        row, col = divmod(cell, size)
        if col + 1 < size:
            pairs.append((cell, cell + 1))
        if row + 1 < size:
            pairs.append((cell, cell + size))
    return tuple(pair for pair in pairs if frozenset(pair) not in marked)


def _every_dot(grid: Sequence[int], size: int) -> tuple[list[PairRule], list[PairRule]]:
    """The white and black kropki dots a full grid has (every pair differing by 1, every pair
    with ratio 2; a pair that is both gets the white one)."""
    white: list[PairRule] = []
    black: list[PairRule] = []
    for a, b in _marked_pairs(size, ()):
        if abs(grid[a] - grid[b]) == 1:
            white.append(Difference((a, b)))
        elif grid[a] == 2 * grid[b] or grid[b] == 2 * grid[a]:
            black.append(Ratio((a, b)))
    return white, black


def _part_two_models() -> dict[str, Model]:
    """The part-2 rules (lines, dots, sums), alone and mixed with part 1's, on 4×4 and 5×5."""
    white, black = _every_dot(GRID_4, 4)
    dots = [*white, *black]
    xvs = [XV((4, 8), 5), XV((5, 6), 5)]
    every_v = [XV(pair, 5) for pair in _marked_pairs(4, ()) if sum(GRID_4[c] for c in pair) == 5]
    four = {
        "thermometers": [Thermometer((0, 1, 5)), Thermometer((8, 4, 5))],
        "arrow": [Arrow((5,), (0, 4))],
        "arrow with a pill": [Arrow((0, 4), (1, 2, 3, 5))],
        "little killer": [LittleKiller((4, 9, 14), 6)],
        "sandwich sums": [Sandwich((0, 1, 2, 3), 5), Sandwich((4, 5, 6, 7), 0)],
        "sandwich sum of a column": [Sandwich((0, 4, 8, 12), 5)],
        "kropki dots": [Difference((0, 1)), Ratio((1, 5)), Difference((2, 6), 2)],
        "kropki dots, negative": [
            *dots,
            Negative("difference", _marked_pairs(4, dots), (1,)),
            Negative("ratio", _marked_pairs(4, dots), (2,)),
        ],
        "xv": xvs,
        "xv, negative": [*every_v, Negative("xv", _marked_pairs(4, every_v), (5, 10))],
        "odd and even": [Odd((0, 2)), Even((5, 7))],
        "minimum and maximum": [Minimum(0), Maximum(5)],
        "renban": [Renban((0, 1, 2)), Renban((6, 7, 11))],
        "whispers": [Whispers((1, 5, 6), 2)],
        "palindrome": [Palindrome((0, 5, 10, 15))],
        "between lines": [BetweenLine((0, 1, 2, 3)), BetweenLine((12, 8, 9))],
        "clone": [Clone((0, 1), (15, 14))],
        "quadruples": [Quadruple((0, 1, 4, 5), (1, 4)), Quadruple((5, 6, 9, 10), (1, 1))],
        "thermometer + killer cage + anti-knight": [
            Thermometer((0, 1)),
            Cage((2, 6), 4),
            AntiKnight(),
            Odd((15,)),
        ],
        # lines_more (tests/test_rules_lines_more.py): a slow thermometer repeating a digit
        # across boxes (r3c2, r2c3), zipper lines of even and odd length, double arrows of 4
        # and 3 cells, a region sum line leaving the top-left box and coming back.
        "slow thermometers": [SlowThermometer((9, 6, 7)), SlowThermometer((8, 4, 5))],
        "entropic line": [EntropicLine((0, 1, 5, 6), entropic_tops(4))],
        "modular lines": [ModularLine((0, 1, 2, 3)), ModularLine((12, 8))],
        "nabner lines": [Nabner((0, 4)), Nabner((3, 7))],
        "zipper lines": [*zipper_lines((0, 1, 2, 3)), *zipper_lines((0, 4, 8))],
        "double arrows": [DoubleArrow((4, 8, 12, 13)), DoubleArrow((9, 13, 14))],
        "region sum line": list(region_sum_lines((0, 4, 9, 13, 10, 5), BOXES_4)),
        "lockout line": [Lockout((0, 5, 4), 2)],
        # Read from the clue's side: row 2 from the right (2 1 4 3: 2 seen), column 1 from the
        # top (1 3 2 4: 3 seen), column 3 from the bottom (2 4 1 3: 2 seen).
        "skyscrapers": [
            Skyscraper((7, 6, 5, 4), 2),
            Skyscraper((0, 4, 8, 12), 3),
            Skyscraper((14, 10, 6, 2), 2),
        ],
        # Row 3 from the left (2 1 …: 2 + 1), column 2 from the bottom (3 1 4 …: 3 + 1 + 4).
        "x-sums": [XSum((8, 9, 10, 11), 3), XSum((13, 9, 5, 1), 8)],
        # f-puzzles 'cage' valued DR<n> (dclamage's MultiSumKillerCageConstraint): r1c1-r1c2
        # sums to 3 (2 cells reach 3..7), r2c3-r2c4-r3c4 to 6; r4c1-r4c2 with DR16 lists no
        # reachable sum and r1c2-r1c3-r2c2-r2c3 has N cells, so both only keep digits apart.
        "digit-root cages": [
            DigitRootCage((0, 1), 3),
            DigitRootCage((6, 7, 11), 6),
            DigitRootCage((12, 13), 16),
            DigitRootCage((1, 2, 5, 6), 5),
        ],
        "arrow + killer cage + quadruple": [
            Arrow((5,), (0, 4)),
            Cage((10, 11)),
            Quadruple((10, 11, 14, 15), (1,)),
        ],
        "row indexers": indexer_rules(RowIndexer, (4, 11), 4),
        "column indexers": indexer_rules(ColumnIndexer, (1, 6), 4),
        "box indexers": indexer_rules(BoxIndexer, (1, 14), 4, BOXES_4),
        "a row and a column indexer on one cell": [
            *indexer_rules(RowIndexer, (4,), 4),
            *indexer_rules(ColumnIndexer, (4,), 4),
        ],
        "given pencil marks": [Candidates((0, 5), (1, 4)), Candidates((10,), (2, 3))],
    }
    models = {
        f"{name} (classic 4)": CLASSIC.with_rules(rules=rules, size=4)
        for name, rules in four.items()
    }
    models["thermometer + whispers (latin 5)"] = LATIN.with_rules(
        rules=[Thermometer((0, 1, 2)), Whispers((20, 21, 22), 3)], size=5
    )
    models["renban + sandwich + non-consecutive (latin 5)"] = LATIN.with_rules(
        rules=[Renban((0, 6, 12)), Sandwich((4, 9, 14, 19, 24), 6), NonConsecutive()], size=5
    )
    # On 12345/23451/34512/45123/51234: row 3 from the right reads 2 1 5 4 3 (2 seen), column
    # 1 from the bottom 5 4 … (1 seen), row 4 from the left 4 5 1 2 … (4 + 5 + 1 + 2).
    models["thermometer + skyscrapers + x-sum (latin 5)"] = LATIN.with_rules(
        rules=[
            Thermometer((0, 1, 2)),
            Skyscraper((14, 13, 12, 11, 10), 2),
            Skyscraper((20, 15, 10, 5, 0), 1),
            XSum((15, 16, 17, 18, 19), 12),
        ],
        size=5,
    )
    # On the same grid: r1c4-r1c5-r2c5 sums to 10 (DR1: 1 is below the 6 three cells reach),
    # r1c1-r2c1-r2c2 to 6, r3c3-r3c4 to 6; r3c1-r3c2 with DR17 lists no sum (2 cells reach 9).
    models["digit-root cages (latin 5)"] = LATIN.with_rules(
        rules=[
            DigitRootCage((3, 4, 9), 1),
            DigitRootCage((0, 5, 6), 6),
            DigitRootCage((12, 13), 6),
            DigitRootCage((10, 11), 17),
        ],
        size=5,
    )
    models["between line + little killer + jigsaw 5"] = CLASSIC.with_rules(
        regions=JIGSAW_5, rules=(BetweenLine((0, 6, 12)), LittleKiller((4, 8, 12, 16, 20), 15))
    )
    models["entropic + modular + zipper lines (latin 5)"] = LATIN.with_rules(
        rules=[
            EntropicLine((0, 5, 11, 7), entropic_tops(5)),
            ModularLine((1, 2, 3, 4)),
            *zipper_lines((8, 13, 12, 17, 23)),
        ],
        size=5,
    )
    models["nabner + lockout + slow thermometer + double arrow (latin 5)"] = LATIN.with_rules(
        rules=[
            Nabner((0, 5, 11)),
            Lockout((2, 1, 7, 12), 2),
            SlowThermometer((9, 13, 8, 3)),
            DoubleArrow((6, 10, 16, 22)),
        ],
        size=5,
    )
    models["region sum line + jigsaw 5"] = CLASSIC.with_rules(
        regions=JIGSAW_5, rules=region_sum_lines((12, 18, 13, 17), JIGSAW_5)
    )
    models["box indexers + jigsaw 5"] = CLASSIC.with_rules(
        regions=JIGSAW_5, rules=indexer_rules(BoxIndexer, (0, 12), 5, JIGSAW_5)
    )
    # Columns 1 and 5 index their rows (a "1-5" puzzle), r1c1 (also a column indexer), r2c2
    # and r2c3 their columns.
    models["column indexers 1-5 + row indexers (latin 5)"] = LATIN.with_rules(
        rules=[
            *indexer_rules(ColumnIndexer, (*range(0, 25, 5), *range(4, 25, 5)), 5),
            *indexer_rules(RowIndexer, (0, 6, 7), 5),
        ],
        size=5,
    )
    return models


def _variant_models() -> dict[str, Model]:
    """The rule sets of the catalogue, by name: each rule alone and some combinations."""
    x = load_model("x")
    return {
        "killer cages with sums": CLASSIC.with_rules(rules=CAGES, size=4),
        "killer cages without sums": CLASSIC.with_rules(rules=CAGES_UNSUMMED, size=4),
        "anti-knight (latin 4)": LATIN.with_rules(rules=[AntiKnight()], size=4),
        "anti-knight (classic 4)": CLASSIC.with_rules(rules=[AntiKnight()], size=4),
        "anti-king (latin 5)": LATIN.with_rules(rules=[AntiKing()], size=5),
        "anti-king (classic 4)": CLASSIC.with_rules(rules=[AntiKing()], size=4),
        "non-consecutive (latin 4)": LATIN.with_rules(rules=[NonConsecutive()], size=4),
        "non-consecutive (latin 5)": LATIN.with_rules(rules=[NonConsecutive()], size=5),
        "diagonals (x 4)": x,
        "disjoint groups": replace(CLASSIC, name="disjoint", group_kinds=DISJOINT),
        "extra regions": CLASSIC.with_rules(groups=[(0, 5, 10, 15), (3, 6, 9, 12)], size=4),
        "jigsaw 4": CLASSIC.with_rules(regions=JIGSAW_4),
        "jigsaw 5": CLASSIC.with_rules(regions=JIGSAW_5),
        "jigsaw 5 + killer cages": CLASSIC.with_rules(
            regions=JIGSAW_5, rules=(Cage((0, 1, 2), 6), Cage((23, 24), 9), Cage((12, 17)))
        ),
        "anti-knight + non-consecutive (latin 5)": LATIN.with_rules(
            rules=[AntiKnight(), NonConsecutive()], size=5
        ),
        "killer cages + anti-king (latin 5)": LATIN.with_rules(
            rules=[AntiKing(), Cage((0, 5), 4), Cage((19, 24, 23), 6)], size=5
        ),
        "diagonals + killer cages (x 4)": x.with_rules(rules=[Cage((1, 2), 3)], size=4),
        **_part_two_models(),
    }


def _size(model: Model) -> int:
    assert model.sizes is not None or model.name in ("x", "disjoint")
    return model.sizes[0] if model.sizes else 4


def _unique(puzzle: Puzzle, found: Sequence[Grid]) -> Puzzle:
    """Givens from the first solution added one at a time (the one that rules out most of the
    remaining solutions first) until one solution is left."""
    target = found[0]
    cells = list(puzzle.cells)
    left = list(found)
    while len(left) > 1:
        best = max(
            (cell for cell in range(len(cells)) if not cells[cell]),
            key=lambda cell: sum(grid[cell] != target[cell] for grid in left),
        )
        cells[best] = target[best]
        left = [grid for grid in left if grid[best] == target[best]]
    return puzzle.with_cells(cells)


def _none(puzzle: Puzzle, unique: Puzzle) -> Puzzle | None:
    """A puzzle with no solution: the unique one with one given changed, or with a digit of
    another base grid given in a blank (whichever is found first without a repeated given)."""
    options = []
    for cell, digit in enumerate(unique.cells):
        for other in range(1, puzzle.size + 1):
            if other != digit:
                options.append((cell, other))
    for cell, digit in options:
        cells = list(unique.cells)
        cells[cell] = digit
        try:
            changed = unique.with_cells(cells)
        except Exception:  # a repeated given: not a puzzle
            continue
        if count(changed) == 0:
            return changed
    return None


def _search(name: str, model: Model) -> list[Entry]:
    empty = Puzzle([0] * _size(model) ** 2, model)
    found = solutions(empty)
    entries = [Entry(f"{name}: empty", empty, len(found))]
    if found:
        unique = _unique(empty, found)
        entries.append(Entry(f"{name}: unique", unique, count(unique)))
        none = _none(empty, unique)
        if none is not None:
            entries.append(Entry(f"{name}: none", none, 0))
        if len(found) > 2:  # a few givens, several solutions: a count the limit must not cut
            some = empty.with_cells([d if cell == 0 else 0 for cell, d in enumerate(found[-1])])
            entries.append(Entry(f"{name}: one given", some, count(some)))
    return entries


MAX_COUNT = 600
"""Puzzles with more solutions than this stay out of the backend tests (listing them all
would be slow for python-constraint, and says nothing more)."""


@functools.cache
def catalogue() -> tuple[Entry, ...]:
    """Every catalogue puzzle with its independent count, made once per test session."""
    return tuple(
        entry for name, model in _variant_models().items() for entry in _search(name, model)
    )


def rules_of(puzzle: Puzzle) -> tuple[Rule, ...]:
    """The puzzle's rules beyond its groups."""
    return puzzle.model.rules
