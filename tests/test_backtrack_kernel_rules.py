"""The generic compiled kernel on models with digit and pair rules (issue 34): odd and even cells,
thermometers, dots, XV, whispers, renban, palindromes, negative constraints, clones.

Skipped when numba is not installed. The kernel keeps the pair rules arc consistent, as the pure
search does, so with its own branching turned off (``glue.WEIGHTED_RULES = False``) it is the
pure search compiled: the same solutions in the same order, the same nodes. With dom/wdeg
branching (the default) it must find the same set of solutions, and so the same counts. Counts
on 4x4 and 6x6 grids come from plain enumeration (every filling of the groups, kept by the
validator ``Puzzle.is_solution``, which shares no code with either search); the bundled
``variants9`` puzzles carry their published solutions. Every test says which search ran
(``last_engine``), never only that an answer came back.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("numba")

import kernel_searches  # noqa: E402
from kernel_searches import (  # noqa: E402
    assert_resumes_and_grows,
    assert_unique_by_the_backend_on_the_kernel,
    kernel,
    kernel_first,
    oracle,
    pure,
)

from sudoku_cp import Puzzle, Status, get_backend  # noqa: E402
from sudoku_cp.backends.backtrack import last_engine  # noqa: E402
from sudoku_cp.datasets import load_puzzles  # noqa: E402
from sudoku_cp.rules import Rule  # noqa: E402
from sudoku_cp.rules.cells import Clone, Even, Odd  # noqa: E402
from sudoku_cp.rules.dots import XV, Difference, Ratio  # noqa: E402
from sudoku_cp.rules.lines import Renban, Thermometer, Whispers  # noqa: E402
from sudoku_cp.rules.neighbours import NonConsecutive  # noqa: E402

_ = kernel_first  # the autouse fixture, in force here

PAIR_PUZZLES = (1, 2, 3, 6, 10, 18, 20, 21, 22)
"""``variants9`` puzzles of pair rules only that the pure search decides in well under a second:
thermometers, whispers, white dots with whispers, palindromes, dots and XV, negative
constraints."""
HARD_PAIR_PUZZLES = (4, 11, 25, 26, 27)
"""Pair-rule puzzles the pure search takes seconds to minutes over ('Leven: renban and black
dots; whispers with a negative constraint; the thermometers of I want to break free, A kind of
magic and Bicycle race), and the weighted kernel about two seconds at most: checked against
their published solutions."""


def neighbours(n: int, rng: random.Random) -> tuple[int, int]:
    """Two orthogonally adjacent cells, drawn."""
    r, c = rng.randrange(n), rng.randrange(n - 1)
    a, b = r * n + c, r * n + c + 1
    if rng.random() < 0.5:  # a column pair instead
        a, b = c * n + r, (c + 1) * n + r
    return (a, b) if rng.random() < 0.5 else (b, a)


def drawn_rules(n: int, rng: random.Random, count: int) -> list[Rule]:
    """Pair rules on drawn cells (a thermometer of two or three cells, dots, XV, a clone,
    whispers, a renban of two cells), now and then an odd or even cell, and now and then
    non-consecutive over the whole grid."""
    rules: list[Rule] = []
    for _ in range(count):
        a, b = neighbours(n, rng)
        kind = rng.randrange(10)
        if kind == 0:
            rules.append(Thermometer((a, b)))
        elif kind == 1:
            r, c = divmod(b, n)
            cells = (a, b, b + n) if b - a == 1 and r + 1 < n else (a, b)
            rules.append(Thermometer(cells))
        elif kind == 2:
            rules.append(Difference((a, b), rng.choice((1, 2))))
        elif kind == 3:
            rules.append(Ratio((a, b), 2))
        elif kind == 4:
            rules.append(XV((a, b), rng.choice((5, n + 1))))
        elif kind == 5:
            far = rng.randrange(n * n)
            if far not in (a, b):
                rules.append(Clone((a,), (far,)))
        elif kind == 6:
            rules.append(rng.choice((Odd, Even))((a,)))
        elif kind == 7:
            rules.append(Whispers((a, b), rng.choice((2, (n + 1) // 2))))
        elif kind == 8:
            rules.append(Renban((a, b)))
        elif rng.random() < 0.3:
            rules.append(NonConsecutive())
    return rules


def drawn_puzzles(n: int, givens: int, seeds: range) -> Iterator[Puzzle]:
    return kernel_searches.drawn_puzzles(
        n, givens, seeds, lambda n, grid, rng, count: drawn_rules(n, rng, count), 3 * n
    )


@pytest.mark.parametrize(("n", "givens", "seeds"), [(4, 0, range(40)), (6, 14, range(25))])
def test_every_solution_of_small_grids_with_pair_rules(n: int, givens: int, seeds: range) -> None:
    counts = set()
    for puzzle in drawn_puzzles(n, givens, seeds):
        truth = oracle(puzzle)
        counts.add(len(truth))
        weighted = kernel(puzzle, None)
        assert set(weighted.solutions) == truth and weighted.exhausted, puzzle.to_line()
        plain = kernel(puzzle, None, weighted=False)
        reference = pure(puzzle, None)
        assert plain.solutions == reference.solutions, puzzle.to_line()  # in the same order
        assert plain.stats["nodes"] == reference.stats["nodes"]
        assert plain.exhausted and reference.exhausted
    assert 0 in counts and 1 in counts and any(c > 1 for c in counts)  # the draws vary


@pytest.mark.parametrize("index", PAIR_PUZZLES)
def test_bundled_pair_rule_puzzles_as_the_pure_search_solves_them(index: int) -> None:
    puzzle = load_puzzles("variants9")[index]
    assert puzzle.published is not None
    reference = pure(puzzle, 2)
    assert reference.solutions == [puzzle.published] and reference.exhausted
    plain = kernel(puzzle, 2, weighted=False)
    assert plain.solutions == reference.solutions and plain.exhausted
    assert plain.stats["nodes"] == reference.stats["nodes"]
    weighted = kernel(puzzle, 2)
    assert weighted.solutions == [puzzle.published] and weighted.exhausted


@pytest.mark.parametrize("index", HARD_PAIR_PUZZLES)
def test_hard_pair_rule_puzzles_through_the_backend(index: int) -> None:
    assert_unique_by_the_backend_on_the_kernel(load_puzzles("variants9")[index])


def test_the_weighted_search_resumes_and_grows_its_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    # (its frames hold branches on a digit's places in a group too)
    assert_resumes_and_grows(monkeypatch, [load_puzzles("variants9")[i] for i in (4, 11)], 2)


def test_digit_rules_off_the_classic_grid_and_broken_givens() -> None:
    backend = get_backend("backtrack")
    jigsaw = load_puzzles("jigsaw", 1)[0]
    n = jigsaw.size
    (solution,) = backend.solve(jigsaw, limit=2).solutions
    odd = tuple(c for c in range(n * n) if solution[c] % 2 and not jigsaw.cells[c])[:6]
    even = tuple(c for c in range(n * n) if not solution[c] % 2 and not jigsaw.cells[c])[:6]
    model = jigsaw.model.with_rules(rules=[Odd(odd), Even(even)], size=n)
    puzzle = Puzzle(jigsaw.cells, model)
    found = backend.solve(puzzle, limit=2)
    assert last_engine() == "kernel" and found.solutions == (solution,)
    # A blank both odd and even, and a thermometer from a given 9 to a blank: no solution
    # (givens that break a rule among themselves are refused before any search).
    blank = next(c for c in range(n * n) if not jigsaw.cells[c])
    neither = Puzzle(
        jigsaw.cells, jigsaw.model.with_rules(rules=[Odd((blank,)), Even((blank,))], size=n)
    )
    assert backend.solve(neither, limit=2).status is Status.NONE
    assert last_engine() == "kernel" and pure(neither, 2).solutions == []
    a, b = next(
        (a, b)
        for a in range(n * n)
        if jigsaw.cells[a] == n
        for b in (a - 1, a + 1, a - n, a + n)
        if 0 <= b < n * n and abs(a % n - b % n) <= 1 and not jigsaw.cells[b]
    )
    hot = Puzzle(jigsaw.cells, jigsaw.model.with_rules(rules=[Thermometer((a, b))], size=n))
    assert backend.solve(hot, limit=2).status is Status.NONE
    assert last_engine() == "kernel" and pure(hot, 2).solutions == []


def test_a_dead_end_counts_against_the_cells_its_propagation_settled() -> None:
    """The weighted search counts a dead end against the cell branched on (three) and every
    cell the failing propagation settled (one; ISS counts its forced cells). On "Bicycle race"
    (``variants9`` 27, thermometers) that takes it from 73,110 nodes, counting the branched
    cell alone, to under 20,000."""
    puzzle = load_puzzles("variants9")[27]
    found = kernel(puzzle, 2)
    assert found.solutions == [puzzle.published] and found.exhausted
    assert found.stats["nodes"] < 30_000
