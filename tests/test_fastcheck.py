"""The fast door (sudoku_cp.fastcheck) against the plain validator it optimises: both agree on
valid and invalid grids of every model and size, one grid at a time and in mixed batches."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp import fastcheck
from sudoku_cp.errors import DuplicateGivenError
from sudoku_cp.fastcheck import WORTH_TABLES, _lanes, clean_givens_each, solved_each
from sudoku_cp.model import load_model, model_from_dict
from sudoku_cp.puzzle import Puzzle


def _plain_repeats(model, size, grid):
    """What the plain validator says of these givens: True when a group repeats one."""
    try:
        Puzzle.from_parsed(tuple(grid), size, model)
    except DuplicateGivenError:
        return True
    return False


def _plain_solves(model, size, grid):
    """What the plain validator says: True when ``grid`` solves the empty puzzle."""
    return Puzzle.from_parsed((0,) * (size * size), size, model).is_solution(grid)


_ODD_MODEL = model_from_dict(
    {
        "groups": ["rows"],
        "windows": [{"row": 1, "col": 2, "height": 2, "width": 3}],
        "cells": [{"cells": [[0, 0], [3, 3], [5, 1]]}, {"cells": [[2, 0], [4, 5]]}],
    },
    name="odd",
)
_LANE_CASES = [
    ("classic", 4),
    ("classic", 6),
    ("classic", 9),
    ("classic", 12),
    ("classic", 16),
    ("classic", 25),
    ("x", 9),
    ("hyper", 9),
    ("latin", 7),
    ("odd", 6),
]


@functools.cache
def _solution_of_empty(model, size):
    from sudoku_cp.backends import get_backend

    return get_backend("backtrack").solve(Puzzle([0] * size * size, model), limit=1).solutions[0]


def _near_solution(data, model, size, changes=2):
    """A solution of the empty grid mutated a little: near-solutions, where the checks have to
    be exactly right, as well as far-off grids (and sometimes the solution itself)."""
    grid = list(_solution_of_empty(model, size))
    for _ in range(data.draw(st.integers(0, changes))):
        i = data.draw(st.integers(0, size * size - 1))
        if data.draw(st.booleans()):
            j = data.draw(st.integers(0, size * size - 1))
            grid[i], grid[j] = grid[j], grid[i]
        else:
            grid[i] = data.draw(st.integers(0, size + 1))
    return grid


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(case=st.sampled_from(_LANE_CASES), data=st.data())
def test_the_fast_checks_agree_with_reading_each_group(case, data):
    name, size = case
    model = _ODD_MODEL if name == "odd" else load_model(name)
    grid = _near_solution(data, model, size, changes=3)
    lanes = _lanes(model, size)
    digits = bytes(grid)
    solves = 0 not in digits.translate(lanes.digit) and lanes.complete(lanes.encode(digits))
    assert solves == _plain_solves(model, size, grid)
    keep = data.draw(st.lists(st.booleans(), min_size=size * size, max_size=size * size))
    givens = [d if k and d <= size else 0 for d, k in zip(grid, keep, strict=True)]
    coded = bytes(givens)
    assert lanes.repeats(lanes.encode(coded), coded) == _plain_repeats(model, size, givens)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(cases=st.lists(st.sampled_from(_LANE_CASES), min_size=1, max_size=12), data=st.data())
def test_checking_many_grids_at_once_agrees_with_reading_each(cases, data):
    # a batch mixes models and sizes, valid and broken grids, so that the batch check groups
    # them and halves failing runs until each broken grid stands alone
    pairs, puzzles, expected_solved, expected_clean = [], [], [], []
    for name, size in cases:
        model = _ODD_MODEL if name == "odd" else load_model(name)
        solution = _solution_of_empty(model, size)
        keep = data.draw(st.lists(st.booleans(), min_size=size * size, max_size=size * size))
        puzzle = Puzzle([d if k else 0 for d, k in zip(solution, keep, strict=True)], model)
        candidate = tuple(_near_solution(data, model, size))
        pairs.append((puzzle, candidate))
        kept = all(g in (0, c) for g, c in zip(puzzle.cells, candidate, strict=True))
        expected_solved.append(kept and _plain_solves(model, size, candidate))
        givens = tuple(d if k and d <= size else 0 for d, k in zip(candidate, keep, strict=True))
        puzzles.append(Puzzle.from_parsed(givens, size, model, check_givens=False))
        expected_clean.append(not _plain_repeats(model, size, givens))
    assert solved_each(pairs) == [
        bytes(grid) if ok else None for (_, grid), ok in zip(pairs, expected_solved, strict=True)
    ]
    assert clean_givens_each(puzzles) == expected_clean


# --- variant models: rules beyond groups, and models of a puzzle's own ---------------------------
def _variant_cases():
    """(name, empty puzzle, grids): for each catalogue rule set with solutions, every base grid
    whose groups all hold (so only a cage sum or a pair rule can break it) — valid and broken
    grids the door must tell apart exactly as the validator does."""
    import numpy as np
    from variants import _all_different, base_grids, catalogue

    cases = []
    for entry in catalogue():
        if not entry.name.endswith(": empty"):
            continue
        puzzle = entry.puzzle
        grids = base_grids(puzzle)
        grids = grids[_all_different(grids, puzzle.groups())][:400]
        cases.append((entry.name, puzzle, [tuple(int(d) for d in g) for g in np.asarray(grids)]))
    return cases


VARIANTS = _variant_cases()


@pytest.mark.parametrize(("name", "puzzle", "grids"), VARIANTS, ids=[c[0] for c in VARIANTS])
def test_the_door_never_says_yes_to_a_grid_that_breaks_a_rule(name, puzzle, grids):
    plain = [puzzle.is_solution(grid) for grid in grids]
    pairs = [(puzzle, grid) for grid in grids]
    for _ in range(2):  # the first call may defer (a model of its own), the next may not
        door = solved_each(pairs)
        for fast, grid, ok in zip(door, grids, plain, strict=True):
            assert fast is None or (ok and fast == bytes(grid)), (name, grid)


def _broken(puzzle, grid, kind):
    """``grid`` broken in one way: a cage sum off by one (two digits of a cage's cell swapped
    with a neighbour's), a consecutive pair, a region repeating a digit."""
    cells = list(grid)
    if kind == "cage":
        cage = next(rule for rule in puzzle.model.rules if getattr(rule, "total", None))
        cell = cage.cells[0]
        cells[cell] = cells[cell] % puzzle.size + 1  # off by one (or by N-1), groups broken too
    elif kind == "consecutive":
        a, b = next(iter(puzzle.model.rules[-1].pairs(puzzle.size)))
        cells[b] = cells[a] + 1 if cells[a] < puzzle.size else cells[a] - 1
    else:
        region = next(g for g in puzzle.groups() if g[0] != 0 and g[1] != 1)  # not a row
        cells[region[1]] = cells[region[0]]
    return tuple(cells)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("killer cages with sums: unique", "cage"),
        ("jigsaw 5 + killer cages: unique", "cage"),
        ("non-consecutive (latin 5): unique", "consecutive"),
        ("anti-knight + non-consecutive (latin 5): unique", "consecutive"),
        ("jigsaw 5: unique", "region"),
        ("jigsaw 4: unique", "region"),
    ],
)
@settings(max_examples=20, deadline=None)
@given(copies=st.integers(1, 20), broken=st.lists(st.booleans(), min_size=20, max_size=20))
def test_the_door_agrees_with_the_validator_on_variant_grids(name, kind, copies, broken):
    from variants import catalogue, solutions

    puzzle = next(e.puzzle for e in catalogue() if e.name == name)
    [solution] = solutions(puzzle)
    bad = _broken(puzzle, solution, kind)
    assert not puzzle.is_solution(bad)
    grids = [bad if broken[i] else solution for i in range(copies)]
    pairs = [(puzzle, grid) for grid in grids]
    expected = [bytes(grid) if puzzle.is_solution(grid) else None for grid in grids]
    for _ in range(2):  # deferring at first, with tables once asked about enough grids
        door = solved_each(pairs)
        assert all(fast is None or fast == want for fast, want in zip(door, expected, strict=True))
    # the givens check agrees too (a repeat in a region among the givens)
    givens = Puzzle.from_parsed(
        bad if kind == "region" else solution, puzzle.size, puzzle.model, check_givens=False
    )
    # (a model with rules is left to check_givens, which also checks its rules on the givens)
    plain = not _plain_repeats(puzzle.model, puzzle.size, givens.cells) and not puzzle.model.rules
    for _ in range(WORTH_TABLES // copies + 2):
        clean = clean_givens_each([givens] * copies)
        assert clean == [plain] * copies


def test_a_model_of_its_own_defers_until_tables_would_pay():
    from variants import JIGSAW_5

    jigsaw = replace(load_model("classic").with_rules(regions=JIGSAW_5), description="this test's")
    puzzle = Puzzle([0] * 25, jigsaw)
    solution = tuple(
        int(d) for d in "1234523451345124512351234"
    )  # a Latin square; whatever the regions say, the door must not decide alone at first
    assert (jigsaw, 5) not in fastcheck._TABLES
    assert solved_each([(puzzle, solution)] * 2) == [None, None]  # deferred: no tables built
    assert (jigsaw, 5) not in fastcheck._TABLES
    solved_each([(puzzle, solution)] * WORTH_TABLES)  # enough grids: tables pay
    assert (jigsaw, 5) in fastcheck._TABLES
    # the classic tables are not pushed out by many models of their own
    classic = Puzzle([0] * 81)
    solved_each([(classic, (0,) * 81)] * WORTH_TABLES)
    for number in range(100):
        regions = [(c // 5 + (c % 5 == number % 5 and c // 5 == 0)) % 5 for c in range(25)]
        if sorted(regions) == sorted(JIGSAW_5):
            model = load_model("classic").with_rules(regions=regions)
            solved_each([(Puzzle([0] * 25, model), solution)])
    assert (classic.model, 9) in fastcheck._TABLES
