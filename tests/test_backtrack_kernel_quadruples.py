"""The generic compiled kernel on models with quadruples (issue 34): the pure search's
``QuadruplePropagator`` compiled (model_tables' ``QuadrupleArrays``): a listed digit goes into
its last places, and a clue fails when one of its digits cannot fit — a digit listed twice
needing two places.

Skipped when numba is not installed. Only the sets of solutions and the counts are compared,
whichever the branching: with the pure search's and, on 4x4 and 6x6 grids, with plain
enumeration (every filling of the groups, kept by the validator ``Puzzle.is_solution``, which
shares no code with either search) — clues with a repeated digit, and clues that cannot hold,
included. The bundled puzzles' status and solutions are the ``sat`` backend's and their
published solution. Every test says which search ran (``last_engine``).
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
from sudoku_cp.backends.backtrack.shapes import QuadruplePropagator  # noqa: E402
from sudoku_cp.datasets import load_puzzles  # noqa: E402
from sudoku_cp.model import load_model  # noqa: E402
from sudoku_cp.rules import Rule  # noqa: E402
from sudoku_cp.rules.cells import Quadruple  # noqa: E402
from sudoku_cp.rules.lines import BetweenLine, Thermometer  # noqa: E402

_ = kernel_first  # the autouse fixture, in force here

QUADRUPLE_PUZZLES = (
    ("variants9", 9),  # Quadruple X
    ("variants9", 24),  # Quadruple - repeated values
    ("published", 38),  # Quadruple Sudoku
    ("published", 46),  # Quadruples
    ("published", 51),  # Exclusive Singularity: every rule
    ("published", 59),  # Deflation: arrows, cages, odd cells, quadruples (pure: 4.5 s)
    ("iss", 19),  # Quadruple X
    ("iss", 52),  # Quadruple - repeated values
)
"""Bundled unique puzzles with quadruples (indices into ``load_puzzles``)."""


def around(n: int, rng: random.Random) -> tuple[int, ...]:
    """The cells around a drawn grid point, inside the grid or on its edge (1 to 4 cells)."""
    r, c = rng.randrange(n + 1), rng.randrange(n + 1)
    return tuple(
        (r + dr) * n + c + dc
        for dr in (-1, 0)
        for dc in (-1, 0)
        if 0 <= r + dr < n and 0 <= c + dc < n
    )


def drawn_rules(n: int, grid: Grid, rng: random.Random, count: int) -> list[Rule]:
    """Quadruples around drawn grid points, their digits mostly some of the cells' own in
    ``grid`` (a digit there twice listed twice now and then), now and then digits drawn at
    random (a digit listed as many times as the clue has cells among them); now and then a
    thermometer or a between line."""
    rules: list[Rule] = []
    for _ in range(count):
        kind = rng.randrange(8)
        if kind == 6:
            a = rng.randrange(n) * n + rng.randrange(n - 1)  # and the cell to its right
            rules.append(Thermometer((a, a + 1)))
            continue
        cells = around(n, rng)
        if kind == 7 and len(cells) == 4:
            rules.append(BetweenLine((cells[0], cells[1], cells[3])))
        elif kind == 5:
            digit = rng.randrange(1, n + 1)
            rules.append(Quadruple(cells, (digit,) * rng.randrange(1, len(cells) + 1)))
        else:
            own = [grid[c] for c in cells]
            rules.append(
                Quadruple(cells, tuple(sorted(rng.sample(own, rng.randrange(1, 5) % len(own) + 1))))
            )
    return rules


def drawn_puzzles(n: int, givens: int, seeds: range) -> Iterator[Puzzle]:
    return kernel_searches.drawn_puzzles(n, givens, seeds, drawn_rules, n + 3)


@pytest.mark.parametrize(("n", "givens", "seeds"), [(4, 1, range(100)), (6, 10, range(40))])
def test_every_solution_of_small_grids_with_quadruples(n: int, givens: int, seeds: range) -> None:
    counts = []
    repeated = 0
    for puzzle in drawn_puzzles(n, givens, seeds):
        assert glue.takes_rules(puzzle.model, puzzle.size)
        quads = [rule for rule in puzzle.model.rules if isinstance(rule, Quadruple)]
        repeated += any(len(set(q.digits)) < len(q.digits) for q in quads)
        counts.append(len(assert_agrees_with_the_oracle(puzzle)))
    assert 0 in counts and 1 in counts and any(c > 1 for c in counts)  # the draws vary
    assert repeated


@pytest.mark.parametrize(
    ("cells", "digits"),
    [
        ((1, 2, 5, 6), (3, 3)),  # across two boxes: 3 at both ends of a diagonal
        ((1, 2, 5, 6), (2, 4, 2, 4)),  # two digits twice: every cell fixed to one of them
        ((1, 2, 5, 6), (1, 2, 3)),
        ((0, 1, 4, 5), (1, 1)),  # one box: 1 twice cannot hold
        ((1, 2, 5, 6), (3, 3, 3)),  # a digit thrice among four cells: cannot hold
        ((2, 3), (4, 4)),  # two cells of one row, on the edge
        ((3,), (2,)),  # a corner: one cell
    ],
)
def test_quadruple_clues_with_repeated_digits_and_clues_that_cannot_hold(
    cells: tuple[int, ...], digits: tuple[int, ...]
) -> None:
    """On an empty 4x4 grid (288 fillings), one clue, and with a thermometer beside it."""
    classic = load_model("classic")
    for extra in ([], [Thermometer((8, 12, 13))]):
        rules: list[Rule] = [Quadruple(cells, digits), *extra]
        puzzle = Puzzle([0] * 16, classic.with_rules(rules=rules, size=4))
        truth = assert_agrees_with_the_oracle(puzzle)
        status = get_backend("backtrack").solve(puzzle, limit=2).status
        assert last_engine() == "kernel"
        assert status is (Status.NONE if not truth else Status.MULTIPLE)


@pytest.mark.parametrize(("name", "index"), QUADRUPLE_PUZZLES)
def test_bundled_quadruple_puzzles_on_the_kernel(name: str, index: int) -> None:
    puzzle = load_puzzles(name)[index]
    rules = layout(puzzle.model, puzzle.size).rules
    assert rules is not None and any(isinstance(p, QuadruplePropagator) for p in rules.propagators)
    assert glue.takes_rules(puzzle.model, puzzle.size)
    result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=60)
    assert last_engine() == "kernel"
    truth = get_backend("sat").solve(puzzle, limit=2)
    assert result.status is truth.status is Status.UNIQUE
    assert result.solutions == truth.solutions == (puzzle.published,)


def test_the_search_on_quadruples_resumes_and_grows_its_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Calls that may try a handful of nodes each, and a stack of one frame to start with:
    "Deflation" and "Quadruple X" pause and grow their stacks over and over and must find
    exactly what one call finds, with the same counters."""
    puzzles = [load_puzzles("published")[59], load_puzzles("variants9")[9]]
    assert_resumes_and_grows(monkeypatch, puzzles)
