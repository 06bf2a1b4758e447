"""Puzzle: construction checks, the validator, and the identity of puzzles."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp.errors import DuplicateGivenError, ModelError, PuzzleError
from sudoku_cp.fastcheck import _lanes, clean_givens_each, solved_each
from sudoku_cp.model import load_model, model_from_dict
from sudoku_cp.puzzle import Puzzle, cell_name, size_for_cells

EASY = "..48...1767.9.....5.8.3...43..74.1...69...78...1.69..51...8.3.6.....6.9124...15.."
EASY_SOLUTION = "934825617672914853518637924325748169469153782781269435197582346853476291246391578"
SOLVED_4 = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]


def digits(line: str) -> list[int]:
    return [0 if ch == "." else int(ch) for ch in line]


def test_flat_and_nested_grids_give_the_same_puzzle():
    flat = Puzzle([1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1])
    nested = Puzzle([[1, 0, 0, 0], [0, 0, 1, None], (0, 1, 0, 0), [0, 0, 0, 1]])
    assert flat == nested and hash(flat) == hash(nested)
    assert flat.size == 4 and flat.givens_count == 4
    assert flat.to_line() == str(flat) == "1.....1..1.....1"
    assert repr(flat) == "Puzzle('1.....1..1.....1', model='classic')"


def test_the_same_givens_under_another_model_are_another_puzzle():
    assert Puzzle(digits(EASY)) != Puzzle(digits(EASY), "latin")
    assert Puzzle(digits(EASY)).with_cells([0] * 81).model.name == "classic"


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ([0] * 15, "read 15 cells, which is not a square grid"),
        ([], "read 0 cells"),
        ([5] + [0] * 15, "digit 5 at row 1, column 1 is outside 1..4 (0 is a blank)"),
        ([-1] + [0] * 15, "digit -1 at row 1, column 1 is outside 1..4"),
        ([True] + [0] * 15, "cell 1 is True, not an integer digit"),
        ([1.0] + [0] * 15, "cell 1 is 1.0, not an integer digit"),
        ([[0, 0], [0]], "row 2 has 1 cells but the grid has 2 rows"),
        ("1...", "use Puzzle.parse() for text"),
        (5, "a grid must be a list of digits or of rows, not int"),
        ([0] * 65 * 65, "larger than the maximum 64x64"),
    ],
)
def test_construction_refuses_what_is_not_a_puzzle(grid, message):
    with pytest.raises(PuzzleError) as info:
        Puzzle(grid)
    assert message in str(info.value)


def test_a_size_the_model_cannot_take():
    with pytest.raises(ModelError, match="needs boxes, and size 7 has no box shape"):
        Puzzle([0] * 49)
    assert Puzzle([0] * 49, "latin").size == 7


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ("55" + "." * 79, "digit 5 is given twice in row 1: r1c1 and r1c2"),
        ("5" + "." * 8 + "5" + "." * 71, "digit 5 is given twice in column 1: r1c1 and r2c1"),
        ("5" + "." * 9 + "5" + "." * 70, "digit 5 is given twice in box 1: r1c1 and r2c2"),
    ],
)
def test_repeated_givens_name_the_digit_group_and_cells(line, where):
    with pytest.raises(DuplicateGivenError) as info:
        Puzzle(digits(line))
    assert str(info.value) == where


def test_repeated_givens_on_a_diagonal_only_matter_to_x():
    line = "1" + "." * 9 + "." * 10 + "1" + "." * 60  # r1c1 and r3c3: same box too
    with pytest.raises(DuplicateGivenError):
        Puzzle(digits(line))
    diagonal = ["."] * 81
    diagonal[0], diagonal[40] = "1", "1"  # r1c1 and r5c5: only the diagonal joins them
    assert Puzzle(digits("".join(diagonal))).givens_count == 2
    with pytest.raises(DuplicateGivenError, match="in the diagonal"):
        Puzzle(digits("".join(diagonal)), "x")


def test_validator_accepts_the_solution_and_says_what_is_wrong_otherwise():
    puzzle = Puzzle(digits(EASY))
    solution = digits(EASY_SOLUTION)
    assert puzzle.is_solution(solution) and puzzle.problems_with(solution) == []
    swapped = solution[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]  # rows stay fine; columns break
    problems = puzzle.problems_with(swapped)
    assert "column 1 repeats 3" in problems and "column 2 repeats 9" in problems
    kept = solution[:]
    kept[2] = 5
    assert "r1c3 is 5 but the given is 4" in puzzle.problems_with(kept)
    assert puzzle.problems_with(solution[:80]) == ["has 80 cells, not 81"]
    assert puzzle.problems_with([0] + solution[1:]) == ["r1c1 holds 0, not a digit 1..9"]
    assert not puzzle.is_solution(["9"] + solution[1:])


def test_helpers():
    assert cell_name(0, 9) == "r1c1" and cell_name(80, 9) == "r9c9" and cell_name(13, 12) == "r2c2"
    assert size_for_cells(81) == 9 and size_for_cells(80) is None and size_for_cells(0) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=16, max_size=16))
def test_any_blanking_of_a_solution_is_a_puzzle_it_solves(keep):
    puzzle = Puzzle([d if k else 0 for d, k in zip(SOLVED_4, keep, strict=True)])
    assert puzzle.is_solution(SOLVED_4)
    assert puzzle.givens_count == sum(keep)


def test_validator_rejects_a_boolean_posing_as_a_digit():
    from sudoku_cp import solve

    puzzle = Puzzle.parse(
        "..48...1767.9.....5.8.3...43..74.1...69...78...1.69..51...8.3.6.....6.9124...15.."
    )
    solution = solve(puzzle).solution
    assert puzzle.is_solution(solution)
    forged = solution[:80] + (True,) if solution[80] == 1 else None
    forged = forged or tuple(True if d == 1 else d for d in solution)
    problems = puzzle.problems_with(forged)
    assert problems and "True" in problems[0]


# --- the fast door (sudoku_cp.fastcheck) against the plain validator it optimises -------------
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
    {"groups": ["rows"], "windows": [{"row": 1, "col": 2, "height": 2, "width": 3}],
     "cells": [{"cells": [[0, 0], [3, 3], [5, 1]]}, {"cells": [[2, 0], [4, 5]]}]},
    name="odd",
)
_LANE_CASES = [
    ("classic", 4), ("classic", 6), ("classic", 9), ("classic", 12), ("classic", 16),
    ("classic", 25), ("x", 9), ("hyper", 9), ("latin", 7), ("odd", 6),
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
        givens = tuple(d if k and d <= size else 0
                       for d, k in zip(candidate, keep, strict=True))
        puzzles.append(Puzzle.from_parsed(givens, size, model, check_givens=False))
        expected_clean.append(not _plain_repeats(model, size, givens))
    assert solved_each(pairs) == [bytes(grid) if ok else None
                                  for (_, grid), ok in zip(pairs, expected_solved, strict=True)]
    assert clean_givens_each(puzzles) == expected_clean


def test_the_validator_accepts_a_real_solution_of_each_model_and_rejects_its_neighbours():
    from sudoku_cp.backends import get_backend

    for name, size in [("classic", 9), ("x", 9), ("hyper", 9), ("latin", 6), ("classic", 16)]:
        empty = Puzzle([0] * size * size, name)
        solution = get_backend("backtrack").solve(empty, limit=1).solutions[0]
        assert empty.problems_with(solution) == []
        swapped = list(solution)
        swapped[0], swapped[1] = swapped[1], swapped[0]
        assert empty.problems_with(swapped)  # breaks two columns (and boxes or diagonals)
