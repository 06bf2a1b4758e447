"""Puzzle: construction checks, the validator, and the identity of puzzles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzles import KNOWN, KNOWN_SOLUTION

from sudoku_cp.errors import DuplicateGivenError, ModelError, PuzzleError
from sudoku_cp.puzzle import Puzzle, cell_name, size_for_cells

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
    assert Puzzle(digits(KNOWN)) != Puzzle(digits(KNOWN), "latin")
    assert Puzzle(digits(KNOWN)).with_cells([0] * 81).model.name == "classic"


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
    puzzle = Puzzle(digits(KNOWN))
    solution = digits(KNOWN_SOLUTION)
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

    puzzle = Puzzle.parse(KNOWN)
    solution = solve(puzzle).solution
    assert puzzle.is_solution(solution)
    forged = solution[:80] + (True,) if solution[80] == 1 else None
    forged = forged or tuple(True if d == 1 else d for d in solution)
    problems = puzzle.problems_with(forged)
    assert problems and "True" in problems[0]


def test_the_validator_accepts_a_real_solution_of_each_model_and_rejects_its_neighbours():
    from sudoku_cp.backends import get_backend

    for name, size in [("classic", 9), ("x", 9), ("hyper", 9), ("latin", 6), ("classic", 16)]:
        empty = Puzzle([0] * size * size, name)
        solution = get_backend("backtrack").solve(empty, limit=1).solutions[0]
        assert empty.problems_with(solution) == []
        swapped = list(solution)
        swapped[0], swapped[1] = swapped[1], swapped[0]
        assert empty.problems_with(swapped)  # breaks two columns (and boxes or diagonals)


def test_a_puzzle_cannot_be_changed_once_made() -> None:
    # An edited .cells was answered from the cached digits by the kernel's door and from the
    # new cells elsewhere (unique by one backend, multiple by another); the hash went stale.
    import copy
    import pickle

    puzzle = Puzzle.parse(KNOWN)
    for name, value in (("cells", (0,) * 81), ("size", 4), ("model", None), ("_digits", b"")):
        with pytest.raises(AttributeError, match="a Puzzle cannot be changed"):
            setattr(puzzle, name, value)
    with pytest.raises(AttributeError):
        del puzzle.cells
    hash(puzzle)
    again = pickle.loads(pickle.dumps(puzzle))
    assert again == puzzle and again._hash is None  # (a string's hash is the process's own)
    assert copy.deepcopy(puzzle) == puzzle and copy.copy(puzzle).digits == puzzle.digits
