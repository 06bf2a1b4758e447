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
from sudoku_cp.rules import AntiKing, AntiKnight, Cage, NonConsecutive, PairRule, Rule


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
    leaves out grids that break a given, a group, a pair rule's own ``allows`` or a cage sum."""
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
    found = [tuple(int(d) for d in grid) for grid in grids]
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
CAGES = (Cage((0, 1), 3), Cage((2, 6), 4), Cage((8, 12, 13), 9), Cage((10, 11, 15), 8))
"""Cages whose sums the grid 1234/3412/2143/4321 meets (and, the search finds, others)."""
CAGES_UNSUMMED = (Cage((0, 5)), Cage((3, 6, 9)), Cage((10, 15)))


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
