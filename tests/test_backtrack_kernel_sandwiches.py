"""The generic compiled kernel on models with sandwich sums (issue 34): on a row or column that
is a group, the pure search's ``SandwichPropagator`` compiled (the places of the 1 and the N a
gap apart, with the listed sets of different digits between); on a line that is no group, the
sandwich as an automaton (read as its checker reads the line: the first 1 and the first N).

Skipped when numba is not installed. On groups the kernel's fixed point is the pure search's;
only the sets of solutions and the counts are compared, with the pure search's and, on 4x4 and
6x6 grids, with plain enumeration (every filling of the groups, kept by the validator
``Puzzle.is_solution``, which shares no code with either search) — clues 0 (the 1 and the N
side by side) and the largest there is included. The automaton is checked against the checker
word by word; the bundled puzzles carry their published solutions and their status is the
``sat`` backend's. Every test says which search ran (``last_engine``).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator

import pytest

pytest.importorskip("numba")

import kernel_searches  # noqa: E402
from kernel_searches import (  # noqa: E402
    Grid,
    assert_agrees_with_the_oracle,
    assert_resumes_and_grows,
    kernel,
    kernel_first,
    oracle,
    pure,
)

from sudoku_cp import Puzzle, Status, get_backend  # noqa: E402
from sudoku_cp.backends.backtrack import last_engine  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import glue, sequence_tables  # noqa: E402
from sudoku_cp.backends.backtrack.layout import layout  # noqa: E402
from sudoku_cp.backends.backtrack.shapes import LooseSandwich, SandwichPropagator  # noqa: E402
from sudoku_cp.datasets import load_puzzles  # noqa: E402
from sudoku_cp.errors import GivensBreakRule  # noqa: E402
from sudoku_cp.model import load_model  # noqa: E402
from sudoku_cp.rules import Rule  # noqa: E402
from sudoku_cp.rules.lines import Thermometer  # noqa: E402
from sudoku_cp.rules.outside import Skyscraper  # noqa: E402
from sudoku_cp.rules.sums import Sandwich  # noqa: E402

_ = kernel_first  # the autouse fixture, in force here

SANDWICH_PUZZLES = (
    ("variants9", 14),  # Between 1 and 9
    ("published", 48),  # Thermwich: sandwiches and thermometers
    ("published", 49),  # Sandwich
    ("iss", 25),  # Between 1 and 9
)
"""Bundled unique puzzles with sandwiches (indices into ``load_puzzles``)."""


def line(n: int, rng: random.Random) -> tuple[int, ...]:
    """A whole row or column, in order, drawn."""
    k = rng.randrange(n)
    return tuple(k * n + i for i in range(n)) if rng.random() < 0.5 else tuple(range(k, n * n, n))


def between(digits: list[int], n: int) -> int:
    a, b = sorted((digits.index(1), digits.index(n)))
    return sum(digits[a + 1 : b])


def drawn_rules(n: int, grid: Grid, rng: random.Random, count: int) -> list[Rule]:
    """Sandwiches on drawn rows and columns, their sums mostly read off ``grid`` (so most hold
    there) and now and then another (0, the largest, one off); now and then a skyscraper or a
    thermometer."""
    rules: list[Rule] = []
    largest = sum(range(2, n))
    for _ in range(count):
        cells = line(n, rng)
        kind = rng.randrange(6)
        if kind < 4:
            total = between([grid[c] for c in cells], n)
            if rng.random() < 0.3:
                total = rng.choice((0, largest, max(total - 1, 0), total + 1))
            rules.append(Sandwich(cells, total))
        elif kind == 4:
            digits = [grid[c] for c in cells]
            seen = sum(1 for i, d in enumerate(digits) if d > max(digits[:i], default=0))
            rules.append(Skyscraper(cells, seen))
        else:
            a = rng.randrange(n) * n + rng.randrange(n - 1)  # and the cell to its right
            rules.append(Thermometer((a, a + 1)))
    return rules


def drawn_puzzles(n: int, givens: int, seeds: range) -> Iterator[Puzzle]:
    return kernel_searches.drawn_puzzles(n, givens, seeds, drawn_rules, 2 * n)


@pytest.mark.parametrize(("n", "givens", "seeds"), [(4, 2, range(120)), (6, 10, range(40))])
def test_every_solution_of_small_grids_with_sandwiches(n: int, givens: int, seeds: range) -> None:
    counts = []
    totals: set[int] = set()
    for puzzle in drawn_puzzles(n, givens, seeds):
        assert glue.takes_rules(puzzle.model, puzzle.size)
        totals |= {rule.total for rule in puzzle.model.rules if isinstance(rule, Sandwich)}
        counts.append(len(assert_agrees_with_the_oracle(puzzle)))
    assert 0 in counts and 1 in counts and any(c > 1 for c in counts)  # the draws vary
    assert {0, sum(range(2, n))} <= totals  # the 1 and the N side by side, and at the ends


def test_sandwiches_on_lines_that_are_no_group() -> None:
    """On a model of columns only, sandwiches on rows (their digits may repeat: the pure search
    checks them once settled, the kernel reads them as an automaton), drawn with 11 of the 16
    cells given, against plain enumeration."""
    n = 4
    model = dataclasses.replace(load_model("latin"), group_kinds=("columns",))
    counts = []
    for seed in range(40):
        rng = random.Random(seed)
        grid = [0] * (n * n)
        for col in range(n):  # each column a permutation, the rows free
            for row, digit in enumerate(rng.sample(range(1, n + 1), n)):
                grid[row * n + col] = digit
        rules: list[Rule] = []
        for row in rng.sample(range(n), 2):
            cells = tuple(range(row * n, row * n + n))
            digits = [grid[c] for c in cells]
            total = between(digits, n) if 1 in digits and n in digits else rng.randrange(3)
            rules.append(Sandwich(cells, total + (1 if rng.random() < 0.1 else 0)))
        cells = [0] * (n * n)
        for cell in rng.sample(range(n * n), 11):
            cells[cell] = grid[cell]
        try:
            puzzle = Puzzle(cells, model.with_rules(rules=rules, size=n))
        except GivensBreakRule:
            continue  # a row given whole, its sum off: refused before any search
        assert all(isinstance(p, LooseSandwich) for p in layout(puzzle.model, n).rules.propagators)
        truth = oracle(puzzle)
        counts.append(len(truth))
        found = kernel(puzzle, None)
        assert set(found.solutions) == truth and found.exhausted, puzzle.to_line()
        assert set(pure(puzzle, None).solutions) == truth
    assert 0 in counts and 1 in counts and any(c > 1 for c in counts)


def test_the_sandwich_automaton_accepts_what_the_checker_accepts() -> None:
    """Every word of a row of a 4x4 grid (digits may repeat: a line that is no group), walked
    through each sandwich's table, is accepted exactly when the checker finds nothing wrong,
    for every sum there is and one past it."""
    n = 4
    model = dataclasses.replace(load_model("latin"), group_kinds=("columns",))
    row = tuple(range(n))
    rules: list[Rule] = [Sandwich(row, total) for total in range(2 * n + 2)]
    tables = sequence_tables.sequences(model.with_rules(rules=rules, size=n), n)
    assert tables is not None and len(tables.seq_first) == len(rules) + 1
    for word in itertools.product(range(1, n + 1), repeat=n):
        grid = word + (0,) * (n * n - n)
        for k, rule in enumerate(rules):
            state = int(tables.seq_first[k])
            for read, digit in enumerate(word, 1):
                state = int(tables.seq_move[state, digit - 1]) if state >= 0 else -1
                state = -1 if state >= 0 and tables.seq_last[state] < read else state
            accepted = state >= 0 and bool(tables.seq_accept[state])
            assert accepted == (not rule.problems(grid, n)), (rule, word)


@pytest.mark.parametrize(("name", "index"), SANDWICH_PUZZLES)
def test_bundled_sandwich_puzzles_on_the_kernel(name: str, index: int) -> None:
    puzzle = load_puzzles(name)[index]
    assert puzzle.published is not None
    assert any(isinstance(p, SandwichPropagator) for p in layout(puzzle.model, 9).rules.propagators)
    result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=60)
    assert last_engine() == "kernel"
    assert result.status is get_backend("sat").solve(puzzle, limit=2).status
    assert result.status is Status.UNIQUE and result.solutions == (puzzle.published,)


def test_sandwich_snipe_has_two_solutions() -> None:
    """ISS's "Sandwich snipe 18" (13 sandwiches of 18, no givens): two solutions, as ``sat``
    finds, one of them the published one (the pure search took over 20 s)."""
    puzzle = load_puzzles("iss")[76]
    result = get_backend("backtrack").solve(puzzle, limit=None, time_limit=120)
    assert last_engine() == "kernel"
    assert result.status is Status.MULTIPLE and len(result.solutions) == 2
    assert puzzle.published in result.solutions
    assert all(puzzle.is_solution(s) for s in result.solutions)
    assert get_backend("sat").solve(puzzle, limit=2).status is Status.MULTIPLE


def test_a_sandwich_whose_digit_sets_are_too_many_to_list_stays_pure() -> None:
    """On 25x25 the sets of 10 to 14 different digits summing to 150 are too many to list: the
    pure search bounds those gaps by the sum, which the kernel does not, so it leaves such a
    model to the pure search; the same line on 16x16 lists them all."""
    classic = load_model("classic")
    for n, total, takes in ((25, 150, False), (16, 60, True)):
        model = classic.with_rules(rules=[Sandwich(tuple(range(n)), total)], size=n)
        (propagator,) = layout(model, n).rules.propagators
        assert isinstance(propagator, SandwichPropagator)
        assert (None not in propagator.combos.values()) is takes
        assert glue.takes_rules(model, n) is takes


def test_the_search_on_sandwiches_and_sequences_resumes_and_grows_its_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Calls that may try a handful of nodes each, and a stack of one frame to start with:
    "Sandwich snipe 18" (two solutions) and "X-Sum little killer" pause and grow their stacks
    over and over and must find exactly what one call finds, with the same counters."""
    puzzles = [load_puzzles("iss")[76], load_puzzles("iss")[50]]
    assert_resumes_and_grows(monkeypatch, puzzles, unique=False)
