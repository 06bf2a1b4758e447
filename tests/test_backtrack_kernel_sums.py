"""The generic compiled kernel on models with sums and killer cages (issue 34): arrows (circles
of one cell or several, read as a decimal number), little killers, killer cages with a total,
mixed with pair and digit rules.

Skipped when numba is not installed. The kernel keeps sums bounds consistent and cages on
their listed digit sets, as the pure search does, but its fixed point may be stronger (its own
loops run each sum to its own fixed point, and a sum's cells that are peers take different
digits), so only the sets of solutions are compared: with the pure search's, and on 4x4 and 6x6
grids with plain enumeration (every filling of the groups, kept by the validator
``Puzzle.is_solution``, which shares no code with either search). The bundled puzzles carry
their published solutions. Every test says which search ran (``last_engine``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("numba")

import kernel_searches  # noqa: E402
from kernel_searches import (  # noqa: E402
    Grid,
    assert_agrees_with_the_oracle,
    assert_resumes_and_grows,
    assert_unique_by_the_backend_on_the_kernel,
    kernel,
    kernel_first,
    pure,
)

from sudoku_cp import Puzzle, Status, get_backend  # noqa: E402
from sudoku_cp.backends.backtrack import last_engine  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import glue  # noqa: E402
from sudoku_cp.backends.backtrack.kernel.model_tables import clique_cover  # noqa: E402
from sudoku_cp.backends.backtrack.layout import layout  # noqa: E402
from sudoku_cp.datasets import bundled_path, load_puzzles  # noqa: E402
from sudoku_cp.formats import read_puzzles  # noqa: E402
from sudoku_cp.model import load_model  # noqa: E402
from sudoku_cp.rules import Rule  # noqa: E402
from sudoku_cp.rules.cells import Odd  # noqa: E402
from sudoku_cp.rules.dots import Difference  # noqa: E402
from sudoku_cp.rules.lines import Renban, Thermometer  # noqa: E402
from sudoku_cp.rules.lines_more import Nabner, zipper_lines  # noqa: E402
from sudoku_cp.rules.sums import Arrow, Cage, LittleKiller  # noqa: E402

_ = kernel_first  # the autouse fixture, in force here

SUM_PUZZLES = (7, 8, 12, 15, 17, 19)
"""``variants9`` puzzles with sums or cages (and pair or digit rules) that the kernel decides in
well under a second: arrows, little killers, arrows with XV and a negative constraint, arrows
with cages and thermometers."""

HARD_SUM_PUZZLES = (13, 16, 23)
"""The Barbed Cross (disjoint groups, little killers), Triple digits (arrows with circles of
three cells, difference dots, odd), Hailstone (killer cages, little killers): past 20 s in the
pure search, a second or two at most in the weighted kernel."""


def drawn_rules(n: int, grid: Grid, rng: random.Random, count: int) -> list[Rule]:
    """Sums on drawn cells, their totals mostly read off ``grid`` (so most hold there) and now
    and then one off: arrows with a circle of one cell or two (a two-digit number), little
    killers along a diagonal, killer cages of neighbouring cells with a total or none, renban
    and nabner lines of three or four neighbouring cells (searched on as cages: their digit
    sets), zipper lines of three to five; and now and then a thermometer, a white dot or an
    odd cell."""
    rules: list[Rule] = []
    off = 1 if rng.random() < 0.15 else 0
    for _ in range(count):
        kind = rng.randrange(9)
        cells = rng.sample(range(n * n), rng.randrange(2, 5))
        if kind == 0:
            rules.append(Arrow((cells[0],), tuple(cells[1:])))
        elif kind == 1:
            # A pill of two cells reads 10a + b: a line long enough to reach it, rarely met.
            line = [x for x in rng.sample(range(n * n), 6) if x not in cells[:2]][:4]
            rules.append(Arrow(tuple(cells[:2]), tuple(line)))
        elif kind == 2:
            r, c = rng.randrange(n), rng.randrange(n)
            step = rng.choice((n + 1, n - 1))
            line = [r * n + c]
            while len(line) < n:
                nxt = line[-1] + step
                if nxt >= n * n or abs(nxt % n - line[-1] % n) != 1:
                    break
                line.append(nxt)
            total = sum(grid[x] for x in line) + off * rng.choice((-1, 1))
            rules.append(LittleKiller(tuple(line), total))
        elif kind == 7:
            # A renban or a nabner line: a walk of three or four cells, the first of a few
            # tries that holds in ``grid`` (and, now and then, one that does not).
            line_rule = rng.choice((Renban, Nabner))
            for _ in range(30):
                line = [rng.randrange(n * n)]
                while len(line) < 3 + (rng.random() < 0.5):
                    x = line[-1]
                    nxt = rng.choice((x - 1, x + 1, x - n, x + n))
                    if not (0 <= nxt < n * n and abs(nxt % n - x % n) <= 1) or nxt in line:
                        break
                    line.append(nxt)
                drawn = line_rule(tuple(line))
                if len(line) > 2 and (not drawn.problems(grid, n) or rng.random() < 0.1):
                    rules.append(drawn)
                    break
        elif kind == 8:
            # A zipper line of three to five cells (its equations, each part to the next;
            # the search adds those they imply), the first of a few walks that holds.
            for _ in range(30):
                line = [rng.randrange(n * n)]
                while len(line) < rng.randrange(3, 6):
                    x = line[-1]
                    nxt = rng.choice((x - 1, x + 1, x - n, x + n))
                    if not (0 <= nxt < n * n and abs(nxt % n - x % n) <= 1) or nxt in line:
                        break
                    line.append(nxt)
                if len(line) < 3:
                    continue
                zipper = zipper_lines(tuple(line))
                if all(not z.problems(grid, n) for z in zipper) or rng.random() < 0.1:
                    rules += zipper
                    break
        elif kind in (3, 4):
            start = rng.randrange(n * n)
            cage = [start]
            while len(cage) < rng.randrange(2, 5):
                x = rng.choice(cage)
                nxt = rng.choice((x - 1, x + 1, x - n, x + n))
                if 0 <= nxt < n * n and abs(nxt % n - x % n) <= 1 and nxt not in cage:
                    cage.append(nxt)
            if len({grid[x] for x in cage}) == len(cage):
                total = None if kind == 4 and rng.random() < 0.4 else sum(grid[x] for x in cage)
                rules.append(Cage(tuple(cage), total))
        elif kind == 5:
            a = rng.randrange(n) * n + rng.randrange(n - 1)  # and the cell to its right
            rules.append(rng.choice((Thermometer, Difference))((a, a + 1)))
        else:
            rules.append(Odd((cells[0],)))
    return rules


def drawn_puzzles(n: int, givens: int, seeds: range) -> Iterator[Puzzle]:
    return kernel_searches.drawn_puzzles(n, givens, seeds, drawn_rules, 2 * n)


@pytest.mark.parametrize(("n", "givens", "seeds"), [(4, 0, range(60)), (6, 12, range(30))])
def test_every_solution_of_small_grids_with_sums(n: int, givens: int, seeds: range) -> None:
    counts = []
    kinds: set[str] = set()
    for puzzle in drawn_puzzles(n, givens, seeds):
        if not glue.takes_rules(puzzle.model, puzzle.size):
            continue
        kinds |= {type(rule).__name__ for rule in puzzle.model.rules}
        counts.append(len(assert_agrees_with_the_oracle(puzzle)))
    assert 0 in counts and 1 in counts and any(c > 1 for c in counts)  # the draws vary
    assert {"Arrow", "Cage", "LittleKiller", "Renban", "Nabner", "ZipperLine"} <= kinds


@pytest.mark.parametrize("index", SUM_PUZZLES)
def test_bundled_sum_puzzles_give_their_published_solution(index: int) -> None:
    puzzle = load_puzzles("variants9")[index]
    assert puzzle.published is not None
    assert_unique_by_the_backend_on_the_kernel(puzzle)
    assert kernel(puzzle, 2, weighted=False).solutions == [puzzle.published]


@pytest.mark.parametrize("index", HARD_SUM_PUZZLES)
def test_hard_sum_puzzles_through_the_backend(index: int) -> None:
    assert_unique_by_the_backend_on_the_kernel(load_puzzles("variants9")[index])


@pytest.mark.parametrize("record", [131, 132, 133])
def test_long_arrows_through_the_kernel(record: int) -> None:
    """Arrows whose shafts cross many groups (the bundled ``iss`` set's "Long sums 1-3", records
    131-133: Long sums 3 is one pill arrow of 32 cells on an empty grid), decided on the
    kernel, their published solutions."""
    (puzzle,) = [r.puzzle for r in read_puzzles(bundled_path("iss")) if r.index == record]
    assert puzzle is not None and puzzle.published is not None
    assert glue.takes_rules(puzzle.model, puzzle.size)
    assert_unique_by_the_backend_on_the_kernel(puzzle)


def test_a_sums_cliques_are_the_larger_split() -> None:
    """A sum's cells are split into cliques of peers, the split with the larger cliques: in the
    terms' order r1c1, r5c1, r1c2, r1c3 the first fit pairs r1c1 with r5c1 (one column) and
    r1c2 with r1c3; r1c1-r1c2-r1c3 (one row) and r5c1 alone bound the sum tighter."""
    peers = [set(p) for p in layout(load_model("classic"), 9).peers]
    cells = [0, 36, 1, 2]
    split = clique_cover(cells, peers)
    assert sorted(sorted(c) for c in split) == [[0, 1, 2], [36]]
    for clique in split:
        assert all(b in peers[a] for a in clique for b in clique if a != b)
    # a cell met twice is never a clique with itself
    assert sorted(len(c) for c in clique_cover([0, 0], peers)) == [1, 1]


def test_bundled_killers_through_the_kernel() -> None:
    backend = get_backend("backtrack")
    for puzzle in load_puzzles("killer")[:6]:
        assert glue.takes_rules(puzzle.model, puzzle.size)
        result = backend.solve(puzzle, limit=2, time_limit=60)
        assert last_engine() == "kernel"
        assert result.status is Status.UNIQUE
        if puzzle.published is not None:
            assert result.solutions == (puzzle.published,)


def test_sums_that_cannot_be_met() -> None:
    model = load_model("classic")
    n = 4
    # A little killer of two cells summing to 9 (at most 4 + 4 = 8), a cage of two cells
    # summing to 8 (at most 4 + 3 = 7 with different digits), an arrow whose circle of one cell
    # is the sum of three cells of one row (at least 1 + 2 + 3 = 6 > 4).
    for rule in (LittleKiller((0, 5), 9), Cage((0, 1), 8), Arrow((15,), (0, 1, 2))):
        puzzle = Puzzle([0] * n * n, model.with_rules(rules=[rule], size=n))
        found = kernel(puzzle, 2)
        assert found.solutions == [] and found.exhausted
        assert pure(puzzle, 2).solutions == []
        assert get_backend("backtrack").solve(puzzle, limit=2).status is Status.NONE
        assert last_engine() == "kernel"


def test_the_search_on_sums_resumes_and_grows_its_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    assert_resumes_and_grows(monkeypatch, [load_puzzles("variants9")[i] for i in (15, 17)], 2)


def test_a_cliques_reach_bounds_every_digits_move() -> None:
    """``sums_and_cages`` skips its digit-by-digit pass when the goal's slack on both sides is
    at least a clique's ``reach`` (``propagators._clique``): sound only if no digit of the
    clique moves the clique's least sum further above ``lo``, or its greatest further below
    ``hi``, than ``reach``. Checked on 3,000 drawn cliques of one to five cells, with the
    bounds the pass computes for each digit (the others' least and greatest given the cell's
    digit: their own extremes, and the union's digits other than it); and ``reach`` is no
    wider than need be: some digit moves that far in nearly every clique (a looser bound would
    skip the pass less often)."""
    import numpy as np

    from sudoku_cp.backends.backtrack.kernel import propagators

    rng = random.Random(34)
    checked = cliques = attained = 0
    for _ in range(3000):
        k = rng.randint(1, 5)
        masks = [rng.randint(1, 511) for _ in range(k)]
        cand = np.array(masks, dtype=np.uint64)
        starts = np.array([0, k], dtype=np.int32)
        cells = np.arange(k, dtype=np.int32)
        lo, hi, smin, smax, restlo, resthi, s1, s2, l1, l2, reach = propagators._clique(
            cand, starts, cells, 0
        )
        if lo > hi:
            continue
        moves = [0]
        for m in masks:
            digits = [d for d in range(1, 10) if m >> (d - 1) & 1]
            small, big = digits[0], digits[-1]
            for d in digits:
                others_low = others_high = 0
                if k > 1:
                    others_low = max(smin - small, restlo - d + s2 if d <= s1 else restlo)
                    others_high = min(smax - big, resthi - d + l2 if d >= l1 else resthi)
                moves += [d + others_low - lo, hi - (d + others_high)]
                checked += 1
        assert max(moves) <= reach, masks
        cliques += 1
        attained += max(moves) == reach
    assert checked > 10_000
    assert attained > 0.9 * cliques
