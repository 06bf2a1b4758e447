"""The generic compiled kernel on models with triple rules (issue 34): between lines and lockout
lines, each triple (the line's ends with one middle cell) kept generalised arc consistent on
the allowed digit triples the pure search's ``TriplePropagator`` lists (model_tables'
``TripleArrays``).

Skipped when numba is not installed. Only the sets of solutions and the counts are compared,
whichever the branching: with the pure search's and, on 4x4 and 6x6 grids, with plain
enumeration (every filling of the groups, kept by the validator ``Puzzle.is_solution``, which
shares no code with either search). The bundled puzzles' status and solutions are the ``sat``
backend's, and their published solution where it holds (Executive Function's published grid
breaks its own rules: docs/benchmarks/variants-iss.md). Every test says which search ran
(``last_engine``).
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
    kernel_first,
)

from sudoku_cp import Puzzle, Status, get_backend  # noqa: E402
from sudoku_cp.backends.backtrack import last_engine  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import glue  # noqa: E402
from sudoku_cp.backends.backtrack.layout import layout  # noqa: E402
from sudoku_cp.backends.backtrack.shapes import TriplePropagator  # noqa: E402
from sudoku_cp.datasets import load_puzzles  # noqa: E402
from sudoku_cp.rules import Rule  # noqa: E402
from sudoku_cp.rules.lines import BetweenLine, Thermometer  # noqa: E402
from sudoku_cp.rules.lines_more import Lockout  # noqa: E402

_ = kernel_first  # the autouse fixture, in force here

TRIPLE_PUZZLES = (
    ("variants9", 5),  # Between Lines Sudoku
    ("published", 8),  # Between Lines
    ("published", 33),  # Lockout Lines
    ("published", 45),  # Lockout Lines
    ("published", 61),  # Executive Function: between lines, region sum lines (pure: past 20 s)
    ("published", 75),  # Keep off the Border!: lockout lines, thermometers, anti-knight
    ("published", 80),  # Van de Graaf Generator: between lines, entropic lines
    ("iss", 8),  # Lockout Lines (DSM 23 Quali Training)
    ("iss", 59),  # Lockout double arrows
    ("iss", 87),  # 6x6: Between Odd and Even (candidates)
)
"""Bundled puzzles with triple rules and no quadruple (indices into ``load_puzzles``)."""

WRONG_PUBLISHED = {("published", 61)}
"""Puzzles whose bundled published solution breaks their rules (see the module's docstring)."""


def walk(n: int, rng: random.Random) -> tuple[int, ...]:
    """A line of 3 to 5 cells, each touching the next (diagonals count), none twice."""
    length = rng.randrange(3, 6)
    while True:
        cells = [rng.randrange(n * n)]
        while len(cells) < length:
            r, c = divmod(cells[-1], n)
            steps = [
                (r + dr) * n + c + dc
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in cells
            ]
            if not steps:
                break
            cells.append(rng.choice(steps))
        if len(cells) == length:
            return tuple(cells)


def drawn_rules(n: int, grid: Grid, rng: random.Random, count: int) -> list[Rule]:
    """Between lines and lockout lines (their gap drawn, from 1 to N - 1) on drawn lines, most
    of them holding in ``grid`` (up to 40 lines drawn for one that holds); now and then a
    thermometer."""
    rules: list[Rule] = []
    for _ in range(count):
        kind = rng.randrange(5)
        if kind == 4:
            a = rng.randrange(n) * n + rng.randrange(n - 1)  # and the cell to its right
            rules.append(Thermometer((a, a + 1)))
            continue
        gap = rng.randrange(1, n)
        rule: Rule = BetweenLine(walk(n, rng)) if kind < 2 else Lockout(walk(n, rng), gap)
        for _ in range(40):
            if not rule.problems(grid, n) or rng.random() < 0.05:
                break
            rule = BetweenLine(walk(n, rng)) if kind < 2 else Lockout(walk(n, rng), gap)
        rules.append(rule)
    return rules


def drawn_puzzles(n: int, givens: int, seeds: range) -> Iterator[Puzzle]:
    return kernel_searches.drawn_puzzles(n, givens, seeds, drawn_rules, n + 2)


@pytest.mark.parametrize(("n", "givens", "seeds"), [(4, 2, range(100)), (6, 10, range(40))])
def test_every_solution_of_small_grids_with_triples(n: int, givens: int, seeds: range) -> None:
    counts = []
    kinds: set[type] = set()
    for puzzle in drawn_puzzles(n, givens, seeds):
        assert glue.takes_rules(puzzle.model, puzzle.size)
        kinds |= {type(rule) for rule in puzzle.model.rules}
        counts.append(len(assert_agrees_with_the_oracle(puzzle)))
    assert 0 in counts and 1 in counts and any(c > 1 for c in counts)  # the draws vary
    assert {BetweenLine, Lockout} <= kinds


@pytest.mark.parametrize(("name", "index"), TRIPLE_PUZZLES)
def test_bundled_triple_puzzles_on_the_kernel(name: str, index: int) -> None:
    puzzle = load_puzzles(name)[index]
    rules = layout(puzzle.model, puzzle.size).rules
    assert rules is not None and any(isinstance(p, TriplePropagator) for p in rules.propagators)
    assert glue.takes_rules(puzzle.model, puzzle.size)
    result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=60)
    assert last_engine() == "kernel"
    truth = get_backend("sat").solve(puzzle, limit=2)
    assert result.status is truth.status is Status.UNIQUE
    assert result.solutions == truth.solutions
    if (name, index) in WRONG_PUBLISHED:
        assert puzzle.published is not None and not puzzle.is_solution(puzzle.published)
    else:
        assert result.solutions == (puzzle.published,)


def test_the_search_on_triples_resumes_and_grows_its_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Calls that may try a handful of nodes each, and a stack of one frame to start with:
    "Keep off the Border!" and "Van de Graaf Generator" pause and grow their stacks over and
    over and must find exactly what one call finds, with the same counters."""
    puzzles = [load_puzzles("published")[75], load_puzzles("published")[80]]
    assert_resumes_and_grows(monkeypatch, puzzles)
