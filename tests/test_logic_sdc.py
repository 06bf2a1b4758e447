"""Sue de Coq (sudoku_cp.logic.sue_de_coq): HoDoKu's regression library cases, the step's
parts, and a soundness fuzz on the states of real solves.
"""

from __future__ import annotations

import pytest
from logic_cases import board_of, expected, fields, fuzz, real_puzzles, solved_puzzles

from sudoku_cp import Puzzle
from sudoku_cp.logic import rating, solver
from sudoku_cp.logic.board import Board, every_step
from sudoku_cp.logic.sue_de_coq import sue_de_coq

# HoDoKu reglib-1.4.txt, every case of code 1101 (Sue de Coq), copied as they stand from
# yoki123/hodoku @ cd24d7d2b9d2589d1718d8121184dffd1bf1b9ab (hobiwan's HoDoKu, GPL-3; the
# library's lines are test data). The library has no fail case
# (a "1101-x" line) for Sue de Coq.
CASES = [
    ":1101:234589:+3+24+8+6+1+59765+7+9+4+3+82191+8+5+273+642.1+43....5.32.6...+4..+7.....+1..6.....+8..1746..7..+39..1.::277 378 477 478 578 849 869 949 969::",  # noqa: E501
    ":1101:789:+3+24+8+6+1+59765+7+9+4+3+82191+8+5+273+642.1+43....5.32.6...+4..+7.....+1..6.....+8..1746..7..+39..1.::748 852 949 967 969::",  # noqa: E501
    ":1101:1379:+51.....49..9315.68...+9.+45......96......4.+3.2..3........6...78......4...67.5+63...4::178 179 188 347 747 757 767 978 988::",  # noqa: E501
    ":1101:1269:.....3+5+1+7+1+3+5+42+786+9867+91+54..+6+935+4+82+717183.+2.+54+2+54...........47.55......+4.....+5..9.::184 186 194 273 684 685 686 694 973::",  # noqa: E501
    ":1101:12369:.....3+5+1+7+1+3+5+42+786+9867+91+54..+6+935+4+82+717183.+2.+54+2+54...........47.55......+4.....+5..9.::184 194 273 371 684 685 694 985::",  # noqa: E501
    ":1101:1236:.....3+5+1+7+1+3+5+42+786+9867+91+54..+6+935+4+82+717183.+2.+54+2+54...........47.55......+4.....+5..9.::194 273 283 399 694 699::",  # noqa: E501
    ":1101:14678:3....9742...5..6+8........1+5.......611.986.........3.....1.2.+53+6.4...5+1+975.....+428::125 476 634 776 796 835::",  # noqa: E501
    ":1101:268:.+9+3.8+4+71684697+1..+3...3..94+8..54..+6+71....2..9.+964+715+8+32.7+2+1..3.9138.......+5+9...+1..::286 296 686 696 896::",  # noqa: E501
    ":1101:2459:+6+41..8+32+98+7+3+29+164+55+92..+4+1+87.8..2.+4.+1.....9+2.3...41.+8.+6......+7+3..6.9..51...714.+96+8::271 471 543 553 562 943::",  # noqa: E501
    ":1101:159:+1+483+27..926+7+5+9+43+8+1.+3.+8+6+1+74+23+9+6+4521+787+14+6+38+9+25+85+2..+9....8.+2.6..7.+7..+852...+21..+3+8..::178 578 981 991::",  # noqa: E501
    ":1101:7:..8..+6.91.62+13+9+58.+1+9...+8......+7+62+8+1+9+27+6+8+9+1+4358+19+45372+6+9346+2+71+5+8.+21+985....+8.+3+1+49.+2::733::",  # noqa: E501
    ":1101:8:+6.159.....+5+3+2+6..9..2+9.736..+342+9+56+1789+1+6.875....+5.+2..+695+9+8+61274313+7+8+4...+6+2+6+4+7+3....::838::",  # noqa: E501
    ":1101:1567:+3+2+1+94+5+867..9.+28.+34..4..3+9+2.+9+3+5+4...8.+47+8..2..961+25+8+9+47+32+4.........3....4.1..2.43..:781 682 692:174 175 179 579 587 589 599 674 675 679 774 775::",  # noqa: E501
    ":1101:467:5+7..4.9.2.......41+413+9+265..+8...17.2.3.........61.98...98......5.+3...+9.......84.+93:314 818 324 727 827 443 453 374:449 457 459 657 677 687 697 757 758 759 768::",  # noqa: E501
    ":1101:246:4+1.7...895+3+9.681...7..........8.23...63....5..................4.91..7.2..2+49..81.:334 335 336 667 668 669 574 575 576 577:239 438 677::",  # noqa: E501
    ":1101:1268:6+7+9..5+8+43+8+4+37+691+2521+5..4...+3219+5+6+48+7+9+8+7..356.+5+64.+7.+93.+7.....2..+1....7..449.......:179 199:174 175 194 195 294 295 683 874 875 894 895::",  # noqa: E501
    ":1101:12678:+1...32..52.4..+57.+3+3.+59....8+74+32598..+9.....+35.+516......+4.7...+5.98+5....43.6..5.....:618 628 638 854 855 856 159 259 659 468:185 195 196 278 685 785 795 796 878 895 896::",  # noqa: E501
    ":1101:1457:.....72....6.....1.8..623...98+6......3.+87.....+67239.8.9......2.+8.4.+269..6..+958.4.:411 313 115 415 421 722 425 526 431 172 173 174 177 577 777 379 579 779 582 184:157 449 457 459 548 549 557 558 559 727::",  # noqa: E501
    ":1101:156:.2.+31+4+6893+14+8+697+52+86+95+2+7...+2+78+641..5.+4...+312.93+1......4....8.......7.24....+4.....:555 659 373 573 974 378 978 379 581 583 591 593:189 596 683 689::",  # noqa: E501
    ":1101:58:9+76.......41.......+8+3....7.+7+9+5+26+4+1+83+6+3891+574+212+48+7+3...86+9+4325+1+7+3+12...+4+96+457.+9.+23+8:519 627 927 539 939:524 826 827::",  # noqa: E501
    ":1101:189:+861..7+5+2+3+2+7+36859..+5+942+1+3+7+8+6.+3+2..+4+857.47...+36..8+5+73.+1..7+2+8..9+63.35....4..+4+1.+3..2..::186 886 999::",  # noqa: E501
    ":1101:1469:.23759..687.26.59.9.....72.....4.97.3.7.96..2....27...5..47.........2....8...5...:132 432 133 433 839 141 349 661 662 663 364 167 467 867 168 468 568 868 369 379 181 481 184 384 884 389 489 191 491 194 394 399:143 163 463 672 682 963 972 982::",  # noqa: E501
    ":1101:16:53..2.9...24.3..5...9.4........14827...76..9.....981.............64....9172.5.438:624 626 637 737 139 639 341 542 661 662 371 871 572 872 674 874 974 676 776 976 786:179 679::",  # noqa: E501
    ":1101:456789:.3.......87.6.19.3.4.....2.2..8.6.....9...1.....15....4....2..5.....8.1.628.1.734:511 113 531 133 543 445 552 259 663 974 975 981 583 584 984 985:418 518 667 669 769 867 869 969::",  # noqa: E501
    ":1101:3457:12..795688....2.9.9.........61..79..39.1........96.4....2.9....689...14....8...29:444:323 333 423 433 572 592 772 792::",  # noqa: E501
    ":1101:589:.2.4.5........9.......3.28....3..8493..8.47..4....6523..1......64.97.1527.....3..:911 913 152 652 653 155 274 275 575 875 678 679 595 895:522 532 542 871 893 932 962::",  # noqa: E501
    ":1101:169:...39..72..3....9597...53..............1..2..3.7.48.1..69....5..3...982.5.87...4.:821 822 234 834 835 349 359 274:197 639 649 659 949 959::",  # noqa: E501
    ":1101:1689:....6...1.3.2..6..8..49.....5....1.72........7.4....3.6...7.5.....6.2..8..28.476.:525 343 943 345 845 346 946 848 948 555 565 972 973 978 979:132 172 182 653 853 912 982::",  # noqa: E501
    ":1101:1478:9...6.1.......1.9....2...76..2385.69.8.9.6..2.69....8.4.36.......57..6......5.93.:321 521 427 331 531 437 151 751 153 458 161 761 567 469 769 272 777:132 423 723 793 821 823::",  # noqa: E501
    ":1101:1245:6.9.....8...7.1...4.1.......98.6...4.2.....3..3....5...1.5...7.8...9..........2..:521 523 225 325 327 228 229 329 234 334 834 236 336 536 836 637 937 638 938 639 939 553 753 855 763 865 866 473 673 275 875 276 582 782 283 383 483 683 591 791 592 792 393 493 693 895:168 188 198 268 417 539::",  # noqa: E501
]


@pytest.mark.parametrize("line", CASES)
def test_reglib_case(line: str) -> None:
    """Some step removes exactly the case's candidates; and, as HoDoKu's RegressionTester
    checks (checkResults: every step whose library line starts as the case's must match it),
    every step removing the same digits (the case's second field, for Sue de Coq the digits it
    removes: SolutionType.useCandToDelInLibraryFormat, Sudoku2.getSudoku) removes exactly
    those candidates."""
    board = board_of(line)
    want = expected(line)
    digits = fields(line)[2]
    steps = list(every_step(sue_de_coq, board))
    assert any(set(s.eliminations) == want for s in steps), [s.text for s in steps]
    for step in steps:
        if "".join(str(d) for d in sorted({d for _, d in step.eliminations})) == digits:
            assert set(step.eliminations) == want, step.text


def cell(name: str) -> int:
    """ "r7c4" → its index."""
    return (int(name[1]) - 1) * 9 + int(name[3]) - 1


def test_the_step_names_its_cells_groups_and_candidates() -> None:
    # HoDoKu's own example (MiscellaneousSolver.main, the case 1101 "12369" above): "Sue de
    # Coq: r7c45 - {123689} (r7c128 - {2389}, r9c6 - {16}) => r8c46,r9c4<>1, r8c456,r9c4<>6,
    # r7c3<>2, r7c3<>9"
    line = next(c for c in CASES if fields(c)[2] == "12369")
    board = board_of(line)
    pattern = {cell(n) for n in ("r7c4", "r7c5", "r7c1", "r7c2", "r7c8", "r9c6")}
    step = next(s for s in every_step(sue_de_coq, board) if {c for c, _ in s.proof} == pattern)
    assert step.technique == "Sue de Coq"
    # r8c46,r9c4<>1, r8c456,r9c4<>6, r7c3<>2, r7c3<>9
    said = "184 186 194 684 685 686 694 273 973"
    assert set(step.eliminations) == {(cell(f"r{t[1]}c{t[2]}"), int(t[0])) for t in said.split()}
    labels = board.puzzle.model.group_labels(9)
    assert sorted(labels[g] for g in step.groups) == ["box 8", "row 7"]
    assert set(step.proof) == {(c, d) for c in pattern for d in range(1, 10) if board.has(c, d)}
    assert "r7c1, r7c2, r7c8 in row 7" in step.text and "r9c6 in box 8" in step.text
    assert step.text.endswith(".") and ". " not in step.text  # one sentence


def test_registered_at_hodoku_order_and_rated_as_hodoku() -> None:
    # Options.DEFAULT_SOLVER_STEPS: StepConfig(5300, SUE_DE_COQ, UNFAIR, ..., 250, ...)
    entry = next(e for e in solver.TECHNIQUES if e.name == "Sue de Coq")
    assert (entry.order, entry.find, entry.uniqueness) == (5300, sue_de_coq, False)
    assert rating.TECHNIQUE_RATING["Sue de Coq"] == ("Unfair", 250)


def test_a_hand_made_pattern_removes_what_the_argument_gives() -> None:
    """Row 1 meets box 1: r1c1, r1c2 hold 1234; r1c5 (in the row) 12, r2c1 (in the box) 34.
    The four cells hold 1, 2, 3 and 4 between them: 1 and 2 are in the row's three, 3 and 4 in
    the box's three. So 1 and 2 leave the rest of row 1, 3 and 4 the rest of box 1 — and 3
    may stay in the row (r2c1 may hold it), 1 in the box (r1c5 may)."""
    board = Board(Puzzle([0] * 81))
    masks = {"r1c1": 0b1111, "r1c2": 0b1111, "r1c5": 0b11, "r2c1": 0b1100}
    for name, mask in masks.items():
        board.candidates[cell(name)] = mask
    (step,) = every_step(sue_de_coq, board)
    gone = set(step.eliminations)
    row_rest = [cell(f"r1c{c}") for c in (3, 4, 6, 7, 8, 9)]
    box_rest = [cell(n) for n in ("r1c3", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3")]
    want = {(c, d) for c in row_rest for d in (1, 2)} | {(c, d) for c in box_rest for d in (3, 4)}
    assert gone == want


def test_sound_on_real_solves() -> None:
    """Every Sue de Coq on every state of 150 real solves (top1465, the forum's
    hardest, 17-clue puzzles) removes no digit of the solution; it does fire."""
    made = fuzz({"Sue de Coq": sue_de_coq}, solved_puzzles())
    assert made["Sue de Coq"] > 100


def test_sound_on_jigsaws_where_rows_meet_regions() -> None:
    """The same on jigsaws: any two groups sharing cells (a row and an irregular region)."""
    made = fuzz({"Sue de Coq": sue_de_coq}, real_puzzles(jigsaw=True))
    assert made["Sue de Coq"] > 0
