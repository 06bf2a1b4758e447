"""The ``backtrack`` backend on the rules beyond groups (issue 13, part 1): killer cages,
anti-knight, anti-king and non-consecutive, on every strategy.

Counts are established without any backend: every grid whose rows and columns hold different
digits and that keeps the givens is listed by a plain depth-first filling (``fillings``), and
the validator (``Puzzle.is_solution``, which shares no code with the search) keeps the
solutions. The backtracker must return exactly that set. Puzzles are drawn with a seeded
random generator and sorted by their true count, so each rule set is tried on puzzles with
none, one and several solutions. The 9x9 killer puzzles are janko.at's, with their published
solutions and counts (``shared/datasets/variants/killer_janko_151.jsonl``).
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from sudoku_cp import Puzzle, PuzzleError, Status, get_backend
from sudoku_cp.backends.backtrack import STRATEGIES
from sudoku_cp.backends.backtrack import search as backtrack
from sudoku_cp.backends.backtrack import shapes as backtrack_shapes
from sudoku_cp.backends.backtrack.kernel import glue as kernel_glue
from sudoku_cp.backends.backtrack.rules import compile_rules
from sudoku_cp.backends.backtrack.shapes import cage_combos, clique_sets
from sudoku_cp.model import Model, load_model
from sudoku_cp.rules import AntiKing, AntiKnight, Cage, NonConsecutive, Rule
from sudoku_cp.rules.lines import Renban, Whispers
from sudoku_cp.rules.lines_more import Nabner, zipper_lines

Grid = tuple[int, ...]


# --- the oracle: plain enumeration plus the validator --------------------------------------------
def fillings(n: int, givens: Sequence[int], order: Sequence[int] | None = None) -> Iterator[Grid]:
    """Every n x n grid keeping ``givens`` whose rows and columns each hold different digits,
    trying digits in ``order`` (default 1..n). Nothing else is checked: that is the
    validator's job."""
    digits = tuple(order or range(1, n + 1))
    grid = list(givens)
    rows = [{d for d in grid[r * n : r * n + n] if d} for r in range(n)]
    cols = [{grid[r * n + c] for r in range(n)} - {0} for c in range(n)]
    blanks = [cell for cell, d in enumerate(grid) if not d]
    tried = [0] * len(blanks)  # an explicit stack: index of the next digit to try per blank
    i = 0
    while i >= 0:
        if i == len(blanks):
            yield tuple(grid)
            i -= 1
            continue
        cell = blanks[i]
        r, c = divmod(cell, n)
        if grid[cell]:  # take back the digit tried last
            rows[r].discard(grid[cell])
            cols[c].discard(grid[cell])
            grid[cell] = 0
        while tried[i] < n and (digits[tried[i]] in rows[r] or digits[tried[i]] in cols[c]):
            tried[i] += 1
        if tried[i] < n:
            digit = digits[tried[i]]
            tried[i] += 1
            grid[cell] = digit
            rows[r].add(digit)
            cols[c].add(digit)
            i += 1
        else:
            tried[i] = 0
            i -= 1


def oracle(puzzle: Puzzle) -> set[Grid]:
    """The solutions of ``puzzle``: fillings the validator accepts."""
    return {g for g in fillings(puzzle.size, puzzle.cells) if puzzle.is_solution(g)}


def test_the_oracle_finds_the_known_counts() -> None:
    # 576 Latin squares of order 4, 288 of them 4x4 Sudoku grids: the enumeration and the
    # validator together give the classic counts.
    grids = list(fillings(4, [0] * 16))
    assert len(grids) == len(set(grids)) == 576
    assert len(oracle(Puzzle([0] * 16))) == 288


def solutions(puzzle: Puzzle, strategy: str) -> set[Grid]:
    """Every solution the backtracker finds, checked to be an exhaustive, duplicate-free list."""
    result = get_backend("backtrack").solve(puzzle, limit=None, strategy=strategy)
    assert result.exact
    assert len(set(result.solutions)) == result.count
    return set(result.solutions)


# --- puzzles drawn at random, sorted by their true count ----------------------------------------
CLASSIC, LATIN = load_model("classic"), load_model("latin")


def random_cages(grid: Grid, n: int, rng: random.Random, sums: bool = True) -> list[Cage]:
    """Cells of ``grid`` cut into cages of 1..4 orthogonally joined cells with different
    digits; each cage's sum is that of ``grid`` (some left without a sum)."""
    free = set(range(n * n))
    cages = []
    for start in rng.sample(range(n * n), n * n):
        if start not in free:
            continue
        cells = [start]
        free.discard(start)
        for _ in range(rng.randint(0, 3)):
            edge = [
                q
                for c in cells
                for q in (c - n, c + n, c - 1 if c % n else -1, c + 1 if (c + 1) % n else -1)
                if q in free and grid[q] not in {grid[x] for x in cells}
            ]
            if not edge:
                break
            q = rng.choice(edge)
            cells.append(q)
            free.discard(q)
        total = sum(grid[c] for c in cells) if sums and rng.random() < 0.9 else None
        cages.append(Cage(tuple(cells), total))
    return cages


# name: (model, size, global rules, whether to cut cages, shares of the cells given — the
# oracle's cost grows fast with the blanks)
CASES: dict[str, tuple[Model, int, tuple[Rule, ...], bool, tuple[float, ...]]] = {
    "antiknight-4x4": (CLASSIC, 4, (AntiKnight(),), False, (0.0, 0.2, 0.35, 0.5, 0.7)),
    "antiknight-latin-5x5": (LATIN, 5, (AntiKnight(),), False, (0.25, 0.35, 0.5, 0.65)),
    "antiking-latin-5x5": (LATIN, 5, (AntiKing(),), False, (0.25, 0.35, 0.5, 0.65)),
    "nonconsecutive-latin-5x5": (LATIN, 5, (NonConsecutive(),), False, (0.25, 0.35, 0.5)),
    "killer-4x4": (CLASSIC, 4, (), True, (0.0, 0.0, 0.15, 0.3)),
    "killer-latin-5x5": (LATIN, 5, (), True, (0.25, 0.35, 0.5)),
    "killer-antiking-6x6": (CLASSIC, 6, (AntiKing(),), True, (0.45, 0.55, 0.65)),
    "killer-6x6": (CLASSIC, 6, (), True, (0.5, 0.6, 0.7)),
}
PER_COUNT = 2
"""Puzzles kept per rule set and kind of count (none, one, several)."""


def plain_grids(model: Model, n: int, rng: random.Random) -> list[Grid]:
    """Grids with different digits in every group of ``model`` (it has no rules): the oracle's
    first ones for a few digit orders; for boxes, the usual pattern grid shuffled."""
    empty = Puzzle([0] * n * n, model)
    grids: list[Grid] = []
    for _ in range(6):
        order = rng.sample(range(1, n + 1), n)
        if model.uses_boxes:
            grids += [pattern_grid(n, model.box_for(n), order, rng) for _ in range(20)]
        else:
            fills = itertools.islice(fillings(n, [0] * n * n, order), 2000)
            grids += [g for g in fills if empty.is_solution(g)][:20]
    assert grids and all(empty.is_solution(g) for g in grids)
    return grids


def pattern_grid(
    n: int, box: tuple[int, int] | None, order: Sequence[int], rng: random.Random
) -> Grid:
    """A grid of ``box``-shaped boxes: each row the one above shifted by a box's width (by one
    more at each band), with its bands, stacks, and the rows and columns inside them shuffled.
    """
    assert box is not None
    height, width = box

    def shuffled(parts: int, each: int) -> list[int]:
        outer = rng.sample(range(parts), parts)
        return [p * each + i for p in outer for i in rng.sample(range(each), each)]

    rows, cols = shuffled(width, height), shuffled(height, width)
    return tuple(order[(width * (r % height) + r // height + c) % n] for r in rows for c in cols)


@functools.cache
def drawn(name: str) -> tuple[tuple[Puzzle, frozenset[Grid]], ...]:
    """Up to PER_COUNT puzzles of each kind of count for the rule set ``name``, each with its
    solutions from the oracle.

    The givens are a drawn share of a *source* grid: one of the model's grids without the
    rules (often a puzzle with no solution), or one obeying the global rules, found by the
    backtracker, sometimes only where it agrees with another such grid (grids obeying
    non-consecutive are too rare for the oracle to find them
    quickly; the source only seeds the givens, the oracle alone counts). Cages are cut from
    the source, their sums its sums, sometimes one off by one.
    """
    base, n, rules, cut_cages, shares = CASES[name]
    rng = random.Random(name)
    plain = plain_grids(base, n, rng)
    ruled = base.with_rules(rules=rules, size=n)
    found_by_search = list(
        get_backend("backtrack").solve(Puzzle([0] * n * n, ruled), limit=60).solutions
    )
    kept: dict[str, list[tuple[Puzzle, frozenset[Grid]]]] = {"none": [], "one": [], "several": []}
    # The oracle's answers for the rules alone, by givens: the same givens are drawn again
    # (above all none at all, when two grids agree on few cells), and listing every Latin
    # square of the empty 5x5 grid took ~20 s a time, three times a rule set.
    known: dict[tuple[int, ...], frozenset[Grid]] = {}
    for _ in range(500):
        source = rng.choice(found_by_search if rng.random() < 0.6 else plain)
        cells: Sequence[int] = range(n * n)
        if rng.random() < 0.25 and len(found_by_search) > 1:
            # Givens where two grids obeying the rules agree: at least two solutions
            # (without cages).
            source, other = rng.sample(found_by_search, 2)
            cells = [c for c in cells if source[c] == other[c]]
        model = ruled
        if cut_cages:
            cages = random_cages(source, n, rng)
            if rng.random() < 0.3:
                i = rng.randrange(len(cages))
                total = cages[i].total
                off = None if total is None else total + rng.choice((-1, 1))
                cages[i] = Cage(cages[i].cells, off)
            model = base.with_rules(rules=[*rules, *cages], size=n)
        shown = set(rng.sample(cells, min(len(cells), round(rng.choice(shares) * n * n))))
        try:
            puzzle = Puzzle([d if c in shown else 0 for c, d in enumerate(source)], model)
        except PuzzleError:
            continue  # givens repeating in a rule's group (two given knights' moves apart)
        if model is ruled:
            givens = tuple(puzzle.cells)
            if givens not in known:
                known[givens] = frozenset(oracle(puzzle))
            found = known[givens]
        else:  # cages cut afresh: a model of its own
            found = frozenset(oracle(puzzle))
        kind = "none" if not found else "one" if len(found) == 1 else "several"
        if len(kept[kind]) < PER_COUNT:
            kept[kind].append((puzzle, found))
        if all(len(k) == PER_COUNT for k in kept.values()):
            break
    return tuple(p for k in kept.values() for p in k)


@pytest.mark.parametrize("name", CASES)
def test_drawn_puzzles_cover_every_kind_of_count(name: str) -> None:
    counts = [len(found) for _, found in drawn(name)]
    assert 0 in counts and 1 in counts and max(counts) > 1, counts


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", CASES)
def test_every_solution_and_no_other(name: str, strategy: str) -> None:
    for puzzle, found in drawn(name):
        assert solutions(puzzle, strategy) == found, puzzle.cells


@pytest.mark.parametrize("name", ["killer-4x4", "killer-latin-5x5", "killer-6x6"])
def test_sum_bounds_alone_are_enough(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Cages with too many digit sets to list (big grids) are bounded by their sum alone:
    # force that path on every cage.
    # (The kernel's per-model answers are dropped with the layout's: a model it was told it
    # takes, with listed digit sets, would otherwise reach it without them.)
    monkeypatch.setattr(backtrack_shapes, "MAX_COMBOS", 0)
    for cache in (backtrack_shapes.cage_combos, backtrack.layout):
        cache.cache_clear()
    kernel_glue.forget_models()
    try:
        for puzzle, found in drawn(name):
            assert solutions(puzzle, "fast") == found, puzzle.cells
    finally:
        for cache in (backtrack_shapes.cage_combos, backtrack.layout):
            cache.cache_clear()
        kernel_glue.forget_models()


def test_rules_are_compiled_not_refused() -> None:
    backend = get_backend("backtrack")
    for rule in (AntiKnight(), AntiKing(), NonConsecutive(), Cage((0, 1), 3), Cage((0, 1))):
        puzzle = Puzzle([0] * 16, CLASSIC.with_rules(rules=[rule], size=4))
        assert backend.refusal(puzzle) is None, rule


@pytest.mark.parametrize("size", range(1, 10))
def test_cage_digit_sets_match_combinations(size: int) -> None:
    for cells in range(1, size + 1):
        for total in range(0, size * (size + 1) // 2 + 2):
            expected = sorted(
                sum(1 << (d - 1) for d in combo)
                for combo in itertools.combinations(range(1, size + 1), cells)
                if sum(combo) == total
            )
            assert list(cage_combos(cells, total, size) or ()) == expected


@pytest.mark.parametrize("size", (4, 6, 9, 12))
def test_renban_digit_sets_are_the_runs_its_checker_accepts(size: int) -> None:
    """The sets a renban is searched on (``clique_sets`` of its relation) are exactly the sets
    of digits its own checker accepts on the line, read from ``Renban.problems``."""
    for length in range(3, min(size, 6) + 1):
        line = Renban(tuple(range(length)))  # along the first row
        accepted = []
        for combo in itertools.combinations(range(1, size + 1), length):
            grid = [0] * (size * size)
            grid[:length] = combo
            if not line.problems(grid, size):
                accepted.append(sum(1 << (d - 1) for d in combo))
        digits = range(1, size + 1)
        relation = tuple(tuple(line.allows(a, b) for b in digits) for a in digits)
        assert list(clique_sets(length, relation) or ()) == sorted(accepted)


def test_renban_and_nabner_lines_are_searched_on_their_digit_sets() -> None:
    """A renban or nabner line of three cells or more gets its digit sets as a cage without a
    sum (the sets its checker accepts); a renban of two cells (its pair says it all) and
    whispers (digits may repeat) get none."""
    size = 9
    peers: list[list[int]] = [[] for _ in range(size * size)]
    rules = [
        Renban((0, 1, 2)),
        Renban((9, 10)),
        Whispers((18, 19, 20), 5),
        Nabner((27, 28, 29)),
    ]
    tables = compile_rules(rules, size, size * size + 1, peers)
    assert tables is not None
    assert [(cage.cells, cage.total) for cage in tables.cages] == [
        ((0, 1, 2), None),
        ((27, 28, 29), None),
    ]
    for cage, rule in zip(tables.cages, (rules[0], rules[3]), strict=True):
        accepted = []
        for combo in itertools.combinations(range(1, size + 1), 3):
            grid = [0] * (size * size)
            for cell, digit in zip(cage.cells, combo, strict=True):
                grid[cell] = digit
            if not rule.problems(grid, size):
                accepted.append(sum(1 << (d - 1) for d in combo))
        assert list(cage.combos or ()) == sorted(accepted)


def test_a_zipper_lines_implied_equations_only_across_its_own() -> None:
    """A zipper line of seven cells is three equations between its four parts (outer pair,
    next pair, inner pair, middle cell); the search adds the three they imply (each pair to
    the middle, the outer pair to the inner), and none across a step left out."""
    size = 9
    peers: list[list[int]] = [[] for _ in range(size * size)]
    line = zipper_lines((0, 1, 2, 3, 4, 5, 6))
    whole = compile_rules(line, size, size * size + 1, peers)
    assert whole is not None
    pairs = [(0, 6), (1, 5), (2, 4), (3,)]
    expected = {(pairs[i], pairs[j]) for i, j in ((0, 2), (0, 3), (1, 3))}
    found = {
        (
            tuple(c for c, w in zip(p.cells, p.weights, strict=True) if w > 0),
            tuple(c for c, w in zip(p.cells, p.weights, strict=True) if w < 0),
        )
        for p in whole.propagators
    }
    assert found == expected | {(pairs[k], pairs[k + 1]) for k in range(3)}
    gapped = compile_rules([line[0], line[2]], size, size * size + 1, peers)
    assert gapped is not None and len(gapped.propagators) == 2  # steps 0 and 2 alone


def test_an_impossible_cage_is_no_solution_on_every_strategy() -> None:
    # Two cells cannot sum to 2 with different digits; one cell cannot hold 5 in a 4x4 grid.
    for cage in (Cage((0, 1), 2), Cage((5,), 5), Cage((0, 1, 2, 3), 11)):
        puzzle = Puzzle([0] * 16, CLASSIC.with_rules(rules=[cage], size=4))
        for strategy in STRATEGIES:
            result = get_backend("backtrack").solve(puzzle, limit=None, strategy=strategy)
            assert result.status is Status.NONE and result.exact, (cage, strategy)


# --- janko.at's 9x9 killer puzzles ---------------------------------------------------------------
def janko_rows(datasets: Path) -> list[dict]:
    path = datasets / "variants" / "killer_janko_151.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def janko_puzzle(row: dict) -> Puzzle:
    cages = [Cage(tuple(c["cells"]), c["sum"]) for c in row["cages"]]
    model = CLASSIC.with_rules(rules=cages, size=row["size"])
    return Puzzle([0 if ch in ".0" else int(ch) for ch in row["givens"]], model)


def check_janko(row: dict, strategy: str = "fast") -> None:
    puzzle = janko_puzzle(row)
    result = get_backend("backtrack").solve(puzzle, limit=None, strategy=strategy)
    assert result.exact
    assert result.count == row["solution_count"], row["id"]
    for solution in result.solutions:
        assert puzzle.is_solution(solution), (row["id"], puzzle.problems_with(solution))
    published = tuple(int(ch) for ch in row["solution"])
    assert published in result.solutions, row["id"]


def test_janko_killers_with_two_solutions_and_a_few_unique(datasets: Path) -> None:
    rows = janko_rows(datasets)
    twos = [row for row in rows if row["solution_count"] == 2]
    assert len(twos) == 3
    for row in twos + rows[:6]:
        check_janko(row)


@pytest.mark.slow
def test_every_janko_killer(datasets: Path) -> None:
    rows = janko_rows(datasets)
    assert len(rows) == 151
    for row in rows:
        check_janko(row)


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["naive", "ordered", "mrv"])
def test_a_janko_killer_on_the_teaching_strategies(strategy: str, datasets: Path) -> None:
    row = next(r for r in janko_rows(datasets) if r["id"] == "janko_killer_23_9x9")
    check_janko(row, strategy)
