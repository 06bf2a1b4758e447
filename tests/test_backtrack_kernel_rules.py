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
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("numba")

from sudoku_cp import Puzzle, Status, get_backend  # noqa: E402
from sudoku_cp.backends import Search  # noqa: E402
from sudoku_cp.backends.backtrack import last_engine  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import glue  # noqa: E402
from sudoku_cp.backends.backtrack.layout import layout  # noqa: E402
from sudoku_cp.backends.backtrack.search import _Clock, _fast  # noqa: E402
from sudoku_cp.datasets import load_puzzles  # noqa: E402
from sudoku_cp.errors import GivensBreakRule  # noqa: E402
from sudoku_cp.model import load_model  # noqa: E402
from sudoku_cp.rules import Rule  # noqa: E402
from sudoku_cp.rules.cells import Clone, Even, Odd  # noqa: E402
from sudoku_cp.rules.dots import XV, Difference, Ratio  # noqa: E402
from sudoku_cp.rules.lines import Renban, Thermometer, Whispers  # noqa: E402
from sudoku_cp.rules.neighbours import NonConsecutive  # noqa: E402

Grid = tuple[int, ...]

PAIR_PUZZLES = (1, 2, 3, 6, 10, 18, 20, 21, 22)
"""``variants9`` puzzles of pair rules only that the pure search decides in well under a second:
thermometers, whispers, white dots with whispers, palindromes, dots and XV, negative
constraints."""
HARD_PAIR_PUZZLES = (4, 11, 25, 26, 27)
"""Pair-rule puzzles the pure search takes seconds to minutes over ('Leven: renban and black
dots; whispers with a negative constraint; the thermometers of I want to break free, A kind of
magic and Bicycle race), and the weighted kernel about two seconds at most: checked against
their published solutions."""


@pytest.fixture(autouse=True)
def _kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(glue.ENV, "1")  # the kernel at the first solve, not after 0.25 s
    glue.warm_up()


def pure(puzzle: Puzzle, limit: int | None) -> Search:
    return _fast(puzzle, layout(puzzle.model, puzzle.size), limit, _Clock(None))


def kernel(puzzle: Puzzle, limit: int | None, deadline: float | None = None) -> Search:
    assert glue.takes_rules(puzzle.model, puzzle.size)
    found = glue._kernel_search(glue._load(), puzzle, limit, deadline)
    assert glue.last_engine() == "kernel"
    assert all(puzzle.is_solution(s) for s in found.solutions)
    assert len(set(found.solutions)) == len(found.solutions)
    assert not found.timed_out
    return found


def unweighted(puzzle: Puzzle, limit: int | None) -> Search:
    """The kernel with the pure search's branching."""
    previous = glue.WEIGHTED_RULES
    glue.WEIGHTED_RULES = False
    try:
        return kernel(puzzle, limit)
    finally:
        glue.WEIGHTED_RULES = previous


def fillings(puzzle: Puzzle) -> Iterator[Grid]:
    """Every grid keeping the givens whose groups hold different digits, by plain enumeration
    cell by cell (nothing of the rules beyond groups: the validator judges those)."""
    n, groups = puzzle.size, puzzle.groups()
    peers = [sorted({c for g in groups if cell in g for c in g} - {cell}) for cell in range(n * n)]
    grid = list(puzzle.cells)

    def fill(cell: int) -> Iterator[Grid]:
        if cell == n * n:
            yield tuple(grid)
        elif grid[cell]:
            yield from fill(cell + 1)
        else:
            for digit in range(1, n + 1):
                if all(grid[p] != digit for p in peers[cell]):
                    grid[cell] = digit
                    yield from fill(cell + 1)
                    grid[cell] = 0

    yield from fill(0)


def oracle(puzzle: Puzzle) -> set[Grid]:
    return {grid for grid in fillings(puzzle) if puzzle.is_solution(grid)}


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
    """Puzzles on the classic n x n model with drawn rules and givens, both mostly drawn to
    hold in one solved grid of the groups (so most have a solution, some several), now and then
    a rule that need not hold."""
    classic = load_model("classic")
    for seed in seeds:
        rng = random.Random(seed)
        relabel = list(range(1, n + 1))
        rng.shuffle(relabel)
        base = next(fillings(Puzzle([0] * n * n, classic.with_rules(size=n))))
        grid = tuple(relabel[d - 1] for d in base)
        cells = [0] * (n * n)
        for cell in rng.sample(range(n * n), givens):
            cells[cell] = grid[cell]
        rules = [
            rule
            for rule in drawn_rules(n, rng, rng.randrange(2, 3 * n))
            if rng.random() < 0.1 or not rule.problems(grid, n)
        ]
        if not rules:
            continue
        try:
            yield Puzzle(cells, classic.with_rules(rules=rules, size=n))
        except GivensBreakRule:
            continue  # givens that break a rule among themselves: refused before any search


@pytest.mark.parametrize(("n", "givens", "seeds"), [(4, 0, range(40)), (6, 14, range(25))])
def test_every_solution_of_small_grids_with_pair_rules(n: int, givens: int, seeds: range) -> None:
    counts = set()
    for puzzle in drawn_puzzles(n, givens, seeds):
        truth = oracle(puzzle)
        counts.add(len(truth))
        weighted = kernel(puzzle, None)
        assert set(weighted.solutions) == truth and weighted.exhausted, puzzle.to_line()
        plain = unweighted(puzzle, None)
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
    plain = unweighted(puzzle, 2)
    assert plain.solutions == reference.solutions and plain.exhausted
    assert plain.stats["nodes"] == reference.stats["nodes"]
    weighted = kernel(puzzle, 2)
    assert weighted.solutions == [puzzle.published] and weighted.exhausted


@pytest.mark.parametrize("index", HARD_PAIR_PUZZLES)
def test_hard_pair_rule_puzzles_through_the_backend(index: int) -> None:
    puzzle = load_puzzles("variants9")[index]
    result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=60)
    assert last_engine() == "kernel"
    assert result.status is Status.UNIQUE and result.solutions == (puzzle.published,)


def test_the_weighted_search_resumes_and_grows_its_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    # Calls that may try 16 nodes each, and a stack of one frame to start with: the search
    # pauses and grows its stack over and over (its frames hold branches on a digit's places
    # in a group too), and must find exactly what one call finds.
    puzzles = [load_puzzles("variants9")[i] for i in (4, 11)]
    whole = [kernel(puzzle, 2) for puzzle in puzzles]
    monkeypatch.setattr(glue, "WORK_PER_CALL", 1)
    monkeypatch.setattr(glue, "FIRST_FRAMES", 1)
    monkeypatch.setattr(glue._BUFFERS, "by_shape", {})  # fresh buffers, one frame deep
    far = time.perf_counter() + 3600
    for puzzle, once in zip(puzzles, whole, strict=True):
        pieces = kernel(puzzle, 2, far)
        assert pieces.solutions == once.solutions == [puzzle.published]
        assert pieces.exhausted and once.exhausted
        assert pieces.stats == once.stats


def test_other_rule_shapes_stay_in_the_pure_search() -> None:
    backend = get_backend("backtrack")
    for index in (5, 9, 14, 24):  # between lines, quadruples, sandwiches, quadruples
        puzzle = load_puzzles("variants9")[index]
        assert not glue.takes_rules(puzzle.model, puzzle.size)
        result = backend.solve(puzzle, limit=2)
        assert last_engine() == "pure"
        assert result.solutions == (puzzle.published,)


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
