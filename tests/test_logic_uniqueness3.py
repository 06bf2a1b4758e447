"""Uniqueness Test 3 and Avoidable Rectangle Type 1 and 2 (sudoku_cp.logic.uniqueness):
HoDoKu's regression library cases, placed digits against givens, and soundness fuzzes on the
states of real solves and on states with solution digits placed (as a user's --state places
them).
"""

from __future__ import annotations

import random

import pytest
from logic_cases import board_of, expected, fields, fuzz, real_puzzles, solved_puzzles
from logic_driver import check_step

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.logic import rating, solver
from sudoku_cp.logic.board import Board, every_step
from sudoku_cp.logic.steps import Step
from sudoku_cp.logic.uniqueness import (
    avoidable_rectangle_1,
    avoidable_rectangle_2,
    uniqueness_test_3,
)

UT3 = "Uniqueness Test 3"
AR1 = "Avoidable Rectangle Type 1"
AR2 = "Avoidable Rectangle Type 2"
FIND = {UT3: uniqueness_test_3, AR1: avoidable_rectangle_1, AR2: avoidable_rectangle_2}

# HoDoKu reglib-1.4.txt, every case of codes 0602 (Uniqueness Test 3; "-1" without, "-2" with
# missing candidates), 0607 (Avoidable Rectangle Type 1) and 0608 (Avoidable Rectangle Type 2)
# — the codes of SolutionType.UNIQUENESS_3, AVOIDABLE_RECTANGLE_1 and _2 — copied as they
# stand from yoki123/hodoku @ cd24d7d2b9d2589d1718d8121184dffd1bf1b9ab (hobiwan's HoDoKu,
# GPL-3; the library's lines are test data). The library has no fail
# case ("-x") for these three.
UT3_CASES = [
    ":0602-1:89:3.......7...98.+5.3.5.....2+6+2+31+4..+6+85+7968+512+3+4...+6237+9+1..4...+1+79..+371.+45.......36.::212 222 293 722 793::",  # noqa: E501
    ":0602-1:15:.8+2+73+51...+7+5.+623.+8.+364..+2753.9+82....+62+45.1.8+3+8.7.4...27+9.6...+2.+2+6....8..54.+2....7::488 698 988 998::",  # noqa: E501
    ":0602-1:49:+58+1...+29+6+6+9+4+5283+7+1+2+739+1654+84+5+2.9..+8...+8.+5..2...+98.+2.+5.+9+46+23+78+153+27+1+8+5.+6.+8+154+697+3+2::156 356::",  # noqa: E501
    ":0602-1:15:+7+1+3+4+5+862+9+4927+63..+8+8+6+51+9+2374+67158+9+4+3+2+9+5+42+3+7+8+612+386+4+1+7+9+5.8..+1.+24+71+47.+2.....+2..+74...::391::",  # noqa: E501
    ":0602-1:27:.+35.4..1.+6+98+132+47+5.4+1...3.936.....54........1.1965...3...72......4.9.............:247 251 751 252 752 257 258 261 761 281 781 582 882 787 291 791 592 892 293 793 797:619 677 678 687 688 697 698 819 877 878 887 888 897 898::",  # noqa: E501
    ":0602-1:16:..3.+1+6.9...78....6.6......1....+8.......45....45..61..7..81.926.9....3........8.1.:514 225 425 226 334 534 934 235 435 735 236 736 244 744 347 447 547 947 248 348 249 349 949 357 857 957 858 859 264 284 784 294 794:233 241 242 251 252 283 293 933 942 952::",  # noqa: E501
    ":0602-1:59:....5.+7+966+5+79+8+42+13+139..754+8.95....7....87....+7.....1..+9..53+6...26..98...+5......6.:214 216 353 156 256 356 363 266 366 299:258 268 279 447 457 479 489 499::",  # noqa: E501
    ":0602-1:68:4+5.9+8+26.+77..4+6+1.+52.6.+537.94.+4.2+1.+7.5.1.+7......7.+6.8...+1.58+7+4..6.3+4+1.6.7.+6.+7+3...4.:343 348 353 357 857 258 358 859 363 367 368 281 985 887 987 992 897 997 999:233 251 261 923 941 951 961::",  # noqa: E501
    ":0602-1:48:3+7+5.8.1+2.+4+28.71+5..6+19+3+25..+7+5+3..4.9.8......254....+59..+1.6.+51+2...2.......5.5..9.7.2:628 643 743 644 744 654 656 664 668 783 684 686 688:373 387 388 398 971 988::",  # noqa: E501
    ":0602-1:89:.+2+9+8+6+4.7.64+7+9+3..+288+3..279+4+62+5+467..1+9.+63.+9....9.845.26...+63..........6.....2.89+6..:172 772 176 182 782 184 387 389 194 399:558 577 579 587 589 599::",  # noqa: E501
    ":0602-1:17:+95+2+638+1+47+4..7...5+6+7..14+5.+92+6+98...42.1+47.....923+5..+4..15...8...+43.+4...96+8+87.4.....:545 346 357 857 765 867 776 377 595 397:274 276 282 295 296::",  # noqa: E501
    ":0602-1:57:+54.........72+4.5..9.....+463...964.....5...+6........1.281...7........5+7867+5.3.....:213 613 714 715 626 134 834 135 835 151 251 252 663 568 373 195 196:355 356 361 362 363 368 854 855 856 862 863::",  # noqa: E501
    ":0602-2:69:..5....183+7+19.+8...+8..+1.......+45+8+137+2+518.7.+6..+72+3+4..+1+8+54..+8..9.+1+1+8.6..4....+9.1+4+8..:612 214 215 615 216 716 425 625 228 528 932 335 336 238 438 538 638 439 639 739 956 672 273 285 786 692:316::",  # noqa: E501
]

AR1_CASES = [
    ":0607-1:19:+6+45.+3..+1.+1+9+3..268.7+2+8+6.14+3.+3+5+21.68...+1+63+8.....87.+2+51+638+712.43.+6+53+4.6..2+126+9.+1+3.+4+8:714 717 919 525 945 749 757 957 958 559 759 959:951::",  # noqa: E501
    ":0607-1:13:.6.+9+2+1.7.+7..8456.2...73+6...83.+6.+72.52.6+5..9.+757.2...+6.+1..+3+6+2+7.....+178+4566+8+7+4591+23:313 413 923 128 132 432 932 133 433 933 838 839 972 973 983:381::",  # noqa: E501
    ":0607-1:79:+95+4+3..+1.+7+76+15.42..+2+38.71+4..4+1...36.8+6+2...+8+9.+189.1..7..3+4+6+8+1+9+5+7+2+5+8+92.7+31.+172.3+5+89.:639 565 368 568 469:929::",  # noqa: E501
    ":0607-1:36:.86.4...+72+9+7.+3.+4.+61...76+89....4+27+9+8.8+7..9..+6+4+4.9683+57.+9..752+6+38....+1.+7457+5+83+6+41+2+9:333 341 343 153 553 382:357::",  # noqa: E501
    ":0607-1:67:+1.2.+8+6+495+5892...6.4..+15+9+8.+2..18+9..2.+8+2......9.9.621..8+6.8913+2+5.+2..+5+7+8+9.+6+9..4+6+238.:729 342 742 446 547 749 353 453 753 756 757 358 458 363 763 768 482:799::",  # noqa: E501
    ":0607-1:28:.85+3...6.+2....47+3..3....1..+3+4+2...+85.6.+8.43....7.82.3..+8+1+345967+2...+2+3+8...9+2416+7+5+83:623 924 925 929 933 439 939 149 166 168 169:257::",  # noqa: E501
    ":0607-1:25:..+8+9+3+1476+9+3+786+41+254+6+1+25+7.+8.3+1+2+4+7+9+5+6+87+4+5+38+6.1.+6+8912+5...+8.6+5+43.9+1.+9+371+86..+1.4+6+9+28..::257::",  # noqa: E501
    ":0607-1:14:+1.+59+6..+7.6.41.7.5.+9+3+7+42518+6+41+6.+7..+2.+7+93.+1+2.+6.8+526+4973+1+2+79..+1+64+5+3+6+125+4+8+9754+8+7+9+6+213::459::",  # noqa: E501
    ":0607-1:39:+47+9+5+2+6813+3129+845+6+7+6+8+5.+1.+4+2+9.+4.+1+5.79+6.5.+46.2+3+8.6.8..+1+4+5.+3..45+98+2+5+24.9+8.+7+1.+9.2.1.5+4:761 366 766:397::",  # noqa: E501
    ":0607-1:45:.7+6+541.+9+8194+8.6.+5+7......+1+46.+4+1..9783.3+9.8.+41+27283+1+4+5+6+94.+3...+6+7+1+9+1+74+6+3825.+6.17.+93+4:531 591 296:556::",  # noqa: E501
]

AR2_CASES = [
    ":0608-1:37:9+8....6+4+7..1..6+9387.6.8+9+5+1+2+1...+3.+476+3+741+6+2+8+5+9+65+8947+12+32.....+3.5+8..25.+7.+4....9.+2.1:474 494:943 972 982::",  # noqa: E501
    ":0608-1:67:+1.2.+8+6+495+5892...6.4..+15+9+8.+2..18+9..2.+8+2......9.9.621..8..8913+2+5.+2..+5+7+8+9..+9..4+6+238.:729 342 742 446 547 649 749 353 453 756 757 358 458 363 768 482 489:129 188::",  # noqa: E501
    ":0608-1:46:...+3+678+2+1+2169+8+5+37+4+7+8+31+2+456+98....+1+6.+3+1.5..3+4..3...4+82+1..7.+4+32+1.+6+6+3+1859+7+424..+71+6+93.:942 943 952:243 292::",  # noqa: E501
    ":0608-1:12:..4+2+38675+82+5+1+6+7+43937+6+45+9+28+1+4...+9+2..75+8+2+716+39+4+7...+45....+376.....+6+5.9..+7.324.+5+7+3.1+6:163 877 278:847 864::",  # noqa: E501
    ":0608-1:68:1+3+6..2.5.+72+8+5+1...3..46+38+1+272.+9+3+6......74+2.9.6.6.+89...+2...+2+56.....+21...8+5..5.+832.4:142 842 367 168 371 971 172 772 972 378 481 981 482 786 787 798 998:428 447 467::",  # noqa: E501
    ":0608-1:15:7.1..8...695....+3+8.8.9.+56+1....4.6..+3.+6....8+4....5..26.+1+5....+3.9.79..1+5.+6+8+3625+91+74:215 415 218 425 725 233 235 335 941 245 745 945 251 351 253 354 155 355 755 756 759 461 363 365 765 774 875 885:243::",  # noqa: E501
    ":0608-1:28:.85....6......47+3..3....1..+3+4+2....5.6.+8.43....7.82.3..+8.+345967..........9.416+7..3:222 169 281 282 287 887 288 888 289 589 889:917 949 958 959 968 969 987::",  # noqa: E501
    ":0608-1:12:......+531.96...7+425.....+6+9+8......8..7.94..+1.+3....329..+9..+1+28+3+65+832.5.+41+9+6+51+3+49+287:814 815 141 142:714 715 716 732 733 736::",  # noqa: E501
    ":0608-1:45:......93+7..27..+4+657.....8+2+1...+4+73.+8+9+34+7.9..+16..8.+61374+4.5+68719..+7.9..+6+5..6....+7+4.:811 821:216 256 285 294 295::",  # noqa: E501
    ":0608-1:14:+4+7+2185+9+3+6+683+72+95+4+1.+9..+6...726..5.7+93..9..+7.6.73.+6+9........+76.59+94+6+5...+72..79..+6..:151 457:877 887 891 896::",  # noqa: E501
    ":0608-1:38:2...1+8.+6+7.17.+6+25....6754.2.+7..82+6.5.+1+2+8+5+3+96+74.+6.+471...6+7+2+1+93..+5+3+8+12+4+579+6..968+7.+1.:367 369 497:912 921 937 939::",  # noqa: E501
    ":0608-1:89:3+1....7+9+5.4....2+1+3+279+13+546872+3....+5+4+8.+4.....9.91.....+71+8+7+352+9+4+6+9..7+4138+24+32+96+8+5+71:614 814 825 626 845 654 255 664 864 666:647 656::",  # noqa: E501
    ":0608-1:24:+7+3.+45+2.+1+85+1+8+9+76+324..+21835..3+71.+2+948.+86.+3+4+7+2.+1.2..1.7.+3+1..7+3...2.53.61....87.+9.13.:938 639 977 678 978 981 988:576 599::",  # noqa: E501
    ":0608-1:17:+28+5+16+7+4+3+9+3+97+5+48+6+12+6412..87+51+7...+59.+6+4.6....579+5...63..+8.9.5..6451.+6...9.+7+6....+5..:844 845 354 864 865 276 285 385 394 494:372 386 395 396::",  # noqa: E501
    ":0608-1:17:+57+48+9+6+13+2+2+397.16.+88+612......2+6.+7+4+89.+4...+182+6.....6+2+3.46.5+1+2+7.83+7.+2+6........4..72+6:182 585 586 395 396:539 568 589::",  # noqa: E501
]


CASES = (
    [(UT3, line) for line in UT3_CASES]
    + [(AR1, line) for line in AR1_CASES]
    + [(AR2, line) for line in AR2_CASES]
)


@pytest.mark.parametrize(("name", "line"), CASES)
def test_reglib_case(name: str, line: str) -> None:
    """Some step removes exactly the case's candidates."""
    board = board_of(line)
    steps = list(every_step(FIND[name], board))
    assert any(set(s.eliminations) == expected(line) for s in steps), [s.text for s in steps]
    for step in steps:
        assert step.technique == name
        check_placed_corners(board, step)


@pytest.mark.parametrize("line", AR1_CASES + AR2_CASES)
def test_every_avoidable_rectangle_on_the_case_s_digits_matches(line: str) -> None:
    """As HoDoKu's RegressionTester checks (checkResults: every step whose library line starts
    as the case's must match it; for these the second field is the rectangle's two digits,
    Sudoku2.getSudoku), every avoidable rectangle on those digits removes exactly the case's
    candidates. The digits are the solved corners' (the step's cells)."""
    board = board_of(line)
    digits = fields(line)[2]
    for name in (AR1, AR2):
        for step in every_step(FIND[name], board):
            mine = "".join(sorted({str(board.values[c]) for c in step.cells}))
            if mine == digits and name == (AR1 if line in AR1_CASES else AR2):
                assert set(step.eliminations) == expected(line), step.text


def check_placed_corners(board: Board, step: Step) -> None:
    """An avoidable rectangle's cells are its solved corners: solved, none a given."""
    for cell in step.cells:
        assert board.values[cell] and not board.puzzle.cells[cell]


def given(line: str) -> str:
    """The case with every placed digit made a given (the '+' signs dropped)."""
    return line.replace("+", "")


@pytest.mark.parametrize("line", AR1_CASES + AR2_CASES)
def test_givens_never_make_an_avoidable_rectangle(line: str) -> None:
    """The same grid with the placed digits given: no avoidable rectangle (HoDoKu starts one
    only from a solved cell that is not a given, getAllAvoidableRectangles: isFixed)."""
    board = board_of(given(line))
    assert not any(board.puzzle.cells[c] == 0 and board.values[c] for c in range(81))
    for name in (AR1, AR2):
        assert list(every_step(FIND[name], board)) == []


@pytest.mark.parametrize("name", [AR1, AR2])
def test_a_state_s_placed_digits_are_not_givens(name: str) -> None:
    """A user's state (solve_logically's placed and marks, what --state gives) places digits
    beside the givens: they are placed, not given, so they make avoidable rectangles as the
    solver's own placements do — the case's step is the solver's first."""
    line = (AR1_CASES if name == AR1 else AR2_CASES)[0]
    board = board_of(line)
    placed = [v if not g else 0 for v, g in zip(board.values, board.puzzle.cells, strict=True)]
    marks = [0 if v else m for v, m in zip(board.values, board.candidates, strict=True)]
    trace = solver.solve_logically(
        board.puzzle, uniqueness=True, techniques=[FIND[name]], max_steps=1, placed=placed,
        marks=marks,
    )  # fmt: skip
    assert set(trace.steps[0].eliminations) == expected(line)


def test_uniqueness_test_3_with_missing_candidates() -> None:
    """The "-2" case: corners that lost a digit of the rectangle still form it (HoDoKu's
    default, Options.ALLOW_UNIQUENESS_MISSING_CANDIDATES = true)."""
    (line,) = [c for c in UT3_CASES if c.startswith(":0602-2:")]
    board = board_of(line)
    step = next(iter(every_step(uniqueness_test_3, board)))
    assert set(step.eliminations) == expected(line)


def test_hodoku_s_own_example_step() -> None:
    """UniquenessSolver.main: "Uniqueness Test 3: 1/5 in r2c78,r9c78 => r9c1<>3"."""
    (line,) = [c for c in UT3_CASES if fields(c)[5] == "391"]
    board = board_of(line)
    (step,) = every_step(uniqueness_test_3, board)
    assert step.eliminations == ((72, 3),)
    corners = {9 + 6, 9 + 7, 72 + 6, 72 + 7}
    assert corners <= {c for c, _ in step.proof}
    labels = board.puzzle.model.group_labels(9)
    assert [labels[g] for g in step.groups] == ["row 9"]
    assert "r2c7 and r2c8 hold only 1 and 5" in step.text and "row 9" in step.text
    assert step.text.endswith(".") and ". " not in step.text


def test_registered_at_hodoku_order_and_rated_as_hodoku() -> None:
    # Options.DEFAULT_SOLVER_STEPS: StepConfig(3700, UNIQUENESS_3, HARD, ..., 100, ...),
    # (4020, AVOIDABLE_RECTANGLE_1, HARD, ..., 100, ...), (4030, AVOIDABLE_RECTANGLE_2, ...)
    for name, order in ((UT3, 3700), (AR1, 4020), (AR2, 4030)):
        entry = next(e for e in solver.TECHNIQUES if e.name == name)
        assert (entry.order, entry.find, entry.uniqueness) == (order, FIND[name], True)
        assert rating.TECHNIQUE_RATING[name] == ("Hard", 100)
    names = [e.name for e in solver.TECHNIQUES]
    assert names.index(UT3) == names.index("Uniqueness Test 2") + 1
    assert names.index(AR1) == names.index("Hidden Rectangle") + 1


def test_sound_on_real_solves() -> None:
    """Every step of the three on every state of 150 real solves removes no digit of
    the solution (each puzzle unique, as they assume)."""
    made = fuzz(FIND, solved_puzzles())
    assert made[UT3] > 50


def test_sound_on_states_with_placed_digits() -> None:
    """Solution digits placed (not given) on a share of the open cells of real puzzles, as a
    user's state places them: every step removes no digit of the solution, and avoidable
    rectangles of both types occur."""
    rng = random.Random(30)
    backtrack = get_backend("backtrack")
    made = dict.fromkeys(FIND, 0)
    for puzzle in real_puzzles() + real_puzzles(jigsaw=True):
        solution = backtrack.solve(puzzle, limit=2).solutions[0]
        empty = [c for c, d in enumerate(puzzle.cells) if not d]
        for share in (0.5, 0.6, 0.7, 0.8):
            board = Board(Puzzle(list(puzzle.cells), puzzle.model))
            for cell in rng.sample(empty, int(len(empty) * share)):
                board.place(cell, solution[cell])
            for name, find in FIND.items():
                for step in every_step(find, board):
                    check_step(board, step, solution)
                    check_placed_corners(board, step)
                    made[name] += 1
    assert made[AR1] > 50 and made[AR2] > 3 and made[UT3] > 10, made
