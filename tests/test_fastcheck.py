"""The fast door (sudoku_cp.fastcheck) against the plain validator it optimises: both agree on
valid and invalid grids of every model and size, one grid at a time and in mixed batches."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp.errors import DuplicateGivenError
from sudoku_cp.fastcheck import _lanes, clean_givens_each, solved_each
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
