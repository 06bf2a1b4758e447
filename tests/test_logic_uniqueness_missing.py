"""Uniqueness tests with *missing candidates* (sudoku_cp.logic.uniqueness): a rectangle's corner
that lost x or y to an earlier step still makes the deadly pattern, as in HoDoKu's default
(``Options.ALLOW_UNIQUENESS_MISSING_CANDIDATES = true``; ``UniquenessSolver
.findUniquenessForStartCell`` asks of the corners only that x and y be allowed there, no placed
peer holding them). HoDoKu's library cases with the option on, and a soundness fuzz on states
where wrong candidates were removed at random, so that many corners miss a digit.
"""

from __future__ import annotations

import random

import pytest
from logic_cases import board_of, expected, real_puzzles
from logic_driver import check_step

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.logic.board import Board, Technique, every_step
from sudoku_cp.logic.steps import Step
from sudoku_cp.logic.uniqueness import (
    _held,
    _rectangles,
    hidden_rectangle,
    uniqueness_test_1,
    uniqueness_test_2,
    uniqueness_test_4,
    uniqueness_test_5,
    uniqueness_test_6,
)

FIND: dict[str, Technique] = {
    "Uniqueness Test 1": uniqueness_test_1,
    "Uniqueness Test 2": uniqueness_test_2,
    "Uniqueness Test 4": uniqueness_test_4,
    "Uniqueness Test 5": uniqueness_test_5,
    "Uniqueness Test 6": uniqueness_test_6,
    "Hidden Rectangle": hidden_rectangle,
}

# HoDoKu reglib-1.4.txt, the first "-2" case (RegressionTester.test turns
# allowUniquenessMissingCandidates on for variant 2) of codes 0600, 0601, 0603, 0604, 0605 and
# 0606 (SolutionType.UNIQUENESS_1, _2, _4, _5, _6, HIDDEN_RECTANGLE), copied as they stand
# from yoki123/hodoku @ cd24d7d2b9d2589d1718d8121184dffd1bf1b9ab (hobiwan's HoDoKu, GPL-3; the
# library's lines are test data). Each failed before: the corners needed both digits.
MISSING_CASES = [
    ":0600-2:68:....+3.9.18.+1+97.+4+3.+3.+9.+1....43+85+6+7+2+1+9+9..+48+157+3+71+5+2+9+36..+1..3.9...5+9+3+7+4.+12....1..+3+9.:616 816 626 732 636 836 639 672 296 596 699:899::",  # noqa: E501
    ":0601-2:15:.32+71.......6+2+37.4...+8.9+3.+2.+2.53.+1..7.+1+2.+68.+3+3..+1..+42.2.+34.+1....1.+9..+23....+3.+25+4+1:511 811 911 518 821 921 522 523 828 928 431 532 433 538 562 972:632 633::",  # noqa: E501
    ":0603-2:28:+4...+5.1.85+1.2.+4.........4.+59.+4....5....34..+1.+1..+56.2+4....6+15+97+4+641...+5+8+2+7..+4..+63+1:916 323 723 325 725 629 929 734 934 735 836 936 242 744 846 853 256 986 292 892 293 893 995 996:845::",  # noqa: E501
    ":0604-2:57:1..+4..+93+2.2+6.7+3+1+4+5+4+3..2+1+6+78.4+3+2+1.7+8+6+7.+26.+4+35..+6.3.+7+4+2.6..14.2+9+3+2..+7+3...43.+4..+2..+7:812 815 563 573 586 886 592 892 994 595 895:883::",  # noqa: E501
    ":0605-2:38:+4+9+3+168+57+252+8...9+6+1+1+6+7+9+2+5...+3+51.7+2+6+9.+6+8+95..2.+7+74+2+6...+5.8.+5....+269.+42.+6..+5+2.6.+5..3+9:437 839 365 366 867:339 367::",  # noqa: E501
    ":0606-2:56:....17.3+22+7+3+4+6+58+9+1....3+2+7+5..+8.6+5+32+19+531+7+2+9..+8+6+2+9+1..+3+75.4+2+3+9.+58.9..2..+1.+3+3..5..+9+2.:813 431 632 833 683 793 699:613::",  # noqa: E501
]
NAMES = {
    "0600": "Uniqueness Test 1",
    "0601": "Uniqueness Test 2",
    "0603": "Uniqueness Test 4",
    "0604": "Uniqueness Test 5",
    "0605": "Uniqueness Test 6",
    "0606": "Hidden Rectangle",
}


def name_of(line: str) -> str:
    return NAMES[line[1:5]]


def missing_corner(board: Board, step: Step) -> bool:
    """The step's rectangle has a corner without x or y: its proof starts with the corners'
    x/y candidates still held (``_held``), fewer than eight."""
    for a, b, c, d, x, y in _rectangles(board):
        held = _held(board, (a, b, c, d), (x, y))
        if list(step.proof[: len(held)]) == held:
            return len(held) < 8
    raise AssertionError(f"no rectangle for {step.text}")


@pytest.mark.parametrize("line", MISSING_CASES)
def test_reglib_case_with_missing_candidates(line: str) -> None:
    board = board_of(line)
    steps = list(every_step(FIND[name_of(line)], board))
    hits = [s for s in steps if set(s.eliminations) == expected(line)]
    assert hits, [s.text for s in steps]
    assert any(missing_corner(board, s) for s in hits)


def test_a_corner_blocked_by_a_placed_peer_is_no_corner() -> None:
    """HoDoKu's condition is the digit's being *allowed* (``SudokuStepFinder
    .initCandidatesAllowed``: no peer holds it placed), not its being a candidate. In the
    Uniqueness Test 1 case, place 6 (one of the rectangle's digits) on a peer of a corner:
    those four cells are no rectangle any more."""
    line = MISSING_CASES[0]
    board = board_of(line)
    (step,) = [
        s for s in every_step(uniqueness_test_1, board) if set(s.eliminations) == expected(line)
    ]
    corners = {c for c, _ in step.proof} | {c for c, _ in step.eliminations}
    assert len(corners) == 4

    def rectangles() -> set[frozenset[int]]:
        return {frozenset(r[:4]) for r in _rectangles(board) if set(r[4:]) == {6, 8}}

    assert corners in rectangles()
    # Any empty cell outside the four that sees a corner (the grid need not stay solvable: the
    # listing reads placed digits only).
    cell = next(
        c
        for c in range(81)
        if not board.values[c] and c not in corners and any(_sees(c, k) for k in corners)
    )
    board.place(cell, 6)
    assert corners not in rectangles()


def _sees(p: int, q: int) -> bool:
    return p != q and (p // 9 == q // 9 or p % 9 == q % 9 or _box(p) == _box(q))


def _box(cell: int) -> int:
    return cell // 27 * 3 + cell % 9 // 3


def test_sound_with_random_missing_candidates() -> None:
    """Solution digits placed on a share of the open cells of real puzzles (classic and jigsaw),
    then a share of the wrong candidates removed at random (never a solution digit): every step
    of the six removes no digit of the solution, and many steps use a corner missing a digit."""
    rng = random.Random(606)
    backtrack = get_backend("backtrack")
    made = dict.fromkeys(FIND, 0)
    with_missing = 0
    for puzzle in real_puzzles() + real_puzzles(jigsaw=True):
        solution = backtrack.solve(puzzle, limit=2).solutions[0]
        empty = [c for c, d in enumerate(puzzle.cells) if not d]
        for share, drop in ((0.3, 0.15), (0.45, 0.3), (0.55, 0.15), (0.7, 0.3)):
            board = Board(Puzzle(list(puzzle.cells), puzzle.model))
            for cell in rng.sample(empty, int(len(empty) * share)):
                board.place(cell, solution[cell])
            wrong = [
                (c, d)
                for c in range(len(board.values))
                if not board.values[c]
                for d in range(1, 10)
                if d != solution[c] and board.has(c, d)
            ]
            for cell, digit in rng.sample(wrong, int(len(wrong) * drop)):
                board.eliminate(cell, digit)
            for name, find in FIND.items():
                for step in every_step(find, board):
                    check_step(board, step, solution)
                    made[name] += 1
                    with_missing += missing_corner(board, step)
    assert all(n > 0 for n in made.values()), made
    assert with_missing > 20, (with_missing, made)
