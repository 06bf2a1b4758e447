"""What the tests of the generic compiled kernel on rule models share
(``test_backtrack_kernel_rules.py``, pair and digit rules; ``test_backtrack_kernel_sums.py``,
sums and cages): the two searches called directly, the plain enumeration they are judged by,
drawn small puzzles, and the checks both files make of bundled puzzles and of a search that
pauses. Import it only where numba is installed (the kernel is loaded here).

The oracle shares no code with either search: every filling of the groups, cell by cell, kept by
the validator ``Puzzle.is_solution``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence

import pytest

from sudoku_cp import Puzzle, Status, get_backend
from sudoku_cp.backends import Search
from sudoku_cp.backends.backtrack import last_engine
from sudoku_cp.backends.backtrack.kernel import glue
from sudoku_cp.backends.backtrack.layout import layout
from sudoku_cp.backends.backtrack.search import _Clock, _fast
from sudoku_cp.errors import GivensBreakRule
from sudoku_cp.model import load_model
from sudoku_cp.rules import Rule

Grid = tuple[int, ...]

Draw = Callable[[int, Grid, random.Random, int], list[Rule]]
"""Rules for an n x n grid, drawn with ``rng`` (``count`` draws), mostly holding in ``grid``."""


@pytest.fixture(autouse=True)
def kernel_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel at the first solve, not after 0.25 s of pure search (autouse in each file
    that imports it)."""
    monkeypatch.setenv(glue.ENV, "1")
    glue.warm_up()


def pure(puzzle: Puzzle, limit: int | None) -> Search:
    """The pure-Python fast search, called directly."""
    return _fast(puzzle, layout(puzzle.model, puzzle.size), limit, _Clock(None))


def kernel(
    puzzle: Puzzle, limit: int | None, deadline: float | None = None, weighted: bool = True
) -> Search:
    """The generic kernel's search, called directly (``weighted=False``: with the pure search's
    branching); its solutions valid and distinct, and not cut short by a clock."""
    assert glue.takes_rules(puzzle.model, puzzle.size)
    previous = glue.WEIGHTED_RULES
    glue.WEIGHTED_RULES = weighted
    try:
        found = glue._kernel_search(glue.load_kernel(), puzzle, limit, deadline)
    finally:
        glue.WEIGHTED_RULES = previous
    assert glue.last_engine() == "kernel"
    assert all(puzzle.is_solution(s) for s in found.solutions)
    assert len(set(found.solutions)) == len(found.solutions)
    assert not found.timed_out
    return found


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


def assert_agrees_with_the_oracle(puzzle: Puzzle) -> set[Grid]:
    """The kernel, with either branching, and the pure search find exactly the solutions plain
    enumeration finds (every one, each once, the kernel's search run to its end); those
    solutions."""
    truth = oracle(puzzle)
    for weighted in (True, False):
        found = kernel(puzzle, None, weighted=weighted)
        assert set(found.solutions) == truth and found.exhausted, puzzle.to_line()
        assert len(found.solutions) == len(truth)
    reference = pure(puzzle, None)
    assert set(reference.solutions) == truth, puzzle.to_line()
    return truth


def drawn_puzzles(n: int, givens: int, seeds: range, draw: Draw, most: int) -> Iterator[Puzzle]:
    """Puzzles on the classic n x n model with rules drawn by ``draw`` (2 to ``most`` - 1
    draws) and givens, both drawn to hold in one solved grid of the groups, but for a rule now
    and then that need not hold (so most have a solution, some several, some none)."""
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
            for rule in draw(n, grid, rng, rng.randrange(2, most))
            if rng.random() < 0.1 or not rule.problems(grid, n)
        ]
        if not rules:
            continue
        try:
            yield Puzzle(cells, classic.with_rules(rules=rules, size=n))
        except GivensBreakRule:
            continue  # givens that break a rule among themselves: refused before any search


def assert_unique_by_the_backend_on_the_kernel(puzzle: Puzzle) -> None:
    """The backend, as a user calls it, decides ``puzzle`` on the kernel: unique, and its
    published solution."""
    result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=60)
    assert last_engine() == "kernel"
    assert result.status is Status.UNIQUE and result.solutions == (puzzle.published,)


def assert_resumes_and_grows(
    monkeypatch: pytest.MonkeyPatch,
    puzzles: Sequence[Puzzle],
    limit: int | None = None,
    *,
    unique: bool = True,
) -> None:
    """Calls that may try a handful of nodes each, and a stack of one frame to start with: the
    search of each puzzle pauses and grows its stack over and over, and must find exactly what
    one call finds, with the same counters: the published solution alone, or with ``unique``
    false among the solutions."""
    whole = [kernel(puzzle, limit) for puzzle in puzzles]
    monkeypatch.setattr(glue, "WORK_PER_CALL", 1)
    monkeypatch.setattr(glue, "FIRST_FRAMES", 1)
    monkeypatch.setattr(glue._BUFFERS, "by_shape", {})  # fresh buffers, one frame deep
    far = time.perf_counter() + 3600
    for puzzle, once in zip(puzzles, whole, strict=True):
        pieces = kernel(puzzle, limit, far)
        assert pieces.solutions == once.solutions
        if unique:
            assert once.solutions == [puzzle.published]
        else:
            assert puzzle.published in once.solutions
        assert pieces.exhausted and once.exhausted
        assert pieces.stats == once.stats
