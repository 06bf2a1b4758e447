"""The almost-locked-set family (ALS-XZ, ALS-XY-Wing, ALS-XY-Chain, Death Blossom).

Two kinds of evidence:
- HoDoKu's regression library (hobiwan's HoDoKu, ``reglib-1.4.txt``, GPL-3, read in the
  PseudoFish/yoki123 fork; cases 0901 to 0904 with their variants, copied below as data): for
  each case, some step the technique's search finds removes exactly the candidates HoDoKu
  lists, as HoDoKu's ``RegressionTester.test``/``checkResults`` demands of one of its steps;
  "type 2" cases (variant 2) allow overlapping ALS, as the tester sets
  ``setAllowAlsOverlap(true)`` for them;
- a soundness fuzz: on real hard puzzles every step of the four searches, wherever the solver
  meets them, removes no digit of the solution.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from logic_driver import check_step, puzzle_of, read_csv, solutions

from sudoku_cp import Puzzle
from sudoku_cp.logic import als
from sudoku_cp.logic.board import Board, every_step
from sudoku_cp.logic.rating import TECHNIQUE_RATING
from sudoku_cp.logic.solver import TECHNIQUES, solve_logically
from sudoku_cp.logic.steps import Step

# HoDoKu reglib-1.4.txt, cases 0901 (ALS-XZ: -1 singly, -2 doubly linked), 0902 (ALS-XY-Wing:
# -1 without, -2 with ALS overlap), 0903 (ALS-XY-Chain) and 0904 (Death Blossom: -1 without,
# -2 with overlap), in the library's order. A line is ``:code[-variant]:digits:grid:deleted
# candidates:eliminations:placements:extra:`` (HoDoKu ``RegressionTester.test`` and
# ``Sudoku2.getSudoku(ClipboardMode.LIBRARY, step)``): ``digits`` the digits the step removes,
# ``grid`` 81 cells ('.' empty, '+' before a digit placed rather than given), candidates as
# digit-row-column triples ("327": 3 from r2c7); the deleted ones are gone although no placed
# digit excludes them.
REGLIB = [
    (
        ":0901-1:3:.24.6.+7..5.74.9.1.....+7......+5.9+4+87+14+7.+6.85.3..8..7.6.+7......46.+46.."
        "3.+57.5.7+4+61..:314 819 225 134 237 937 238 938 239 839 269 372 972 973 274 291 891 999"
        ":327::"
    ),
    (
        ":0901-1:7:.........2.....3495...3926..9.........41..+98....598..4..182...6......7....3.."
        "6...:111 711 811 112 712 812 713 813 714 515 715 516 716 722 625 725 726 739 341 744 348"
        " 162 589 794:752::"
    ),
    (
        ":0901-1:1:...2..6..67...8....853+6.......+4.6...5..19...2+1.4...79+6.....426....7..8.3.1"
        ".+6.29..:719 427 345 545 845 365 579:128::"
    ),
    (
        ":0901-1:8:.+934.7.6.4....59...276...+41...+9....591.+5...8.2..78....6..25.4...4........."
        ".1....3:817 325 145 245 345 346 347 747 748 255 357 366 581 881 985 587 591 597:873 883 "
        "893::"
    ),
    (
        ":0901-1:7:.+25+18..34...3.65.2...2..+1...42..1.+5..6..+2.3..8..7..+2...7.9.+38+2+523...."
        "..1.....2.63:717 431 731 931 839 758 858 958 968 483 488 594 595:735 736::"
    ),
    (
        ":0901-1:8:94.+2.51.....41.......7...2+416+4+57.9..+5.8...4...+7+9.+4..518+569247+1+379+2"
        "....+4.+4...5+72..:926 332 333 637 194 394:828 829::"
    ),
    (
        ":0901-1:9:.4...7.8...25.....3..+8.......+4...69+3...3.4+2+5+8.23+98.7+4+1......+8+14..1+"
        "4.8...+49861..2+7:326 141 142 772 375 681 682 385 985:921::"
    ),
    (
        ":0901-1:8:5...3...4.31.5.9.+2.+4...6.5....3.....4.8...6...+1...952+8..4..21.7..2.1...+5+"
        "17....+296:912 713 714 716 826 728 931 737 641 941 642 943 245 445 446 746 252 554 756 6"
        "71 972 874 974 875 982 484 884 486 886 596 896:881::"
    ),
    (
        ":0901-2:13679:....8.......4..+8.....12564.72......6..431....9......8.25.....3869...712.."
        "......+6.:767 769 495 496 497 499:113 123 313 323 662 713 723 913 923 939::"
    ),
    (
        ":0901-2:12479:.......+3.6..5..18..83.1..+2....9573...6.....92...........+6...254.487...1"
        "+3..23.....:111 615 616 636 453 457 261 262 164 464 664 465 467 667 668 669 171 971 172 "
        "972 985 986 791 792 895 995 196 896 996:141 149 151 153 161 162 163 212 413 463 725 925 "
        "926::"
    ),
    (
        ":0901-2:23468:42+5.8...1....57....+78..1...893....2.5........+71....69.+659.1...3....964"
        "5.2........:624 628 629 937 239 439 445 354 654 355 655 356 193 494 495 496 797 897 798 "
        "898 799 899:254 264 335 444 454 464 635 644 876::"
    ),
    (
        ":0901-2:23478:42+5.8...1....57....+78..1...893....2.5........+71....69.+659.1...3....964"
        "5.2........:624 628 629 937 239 439 445 354 654 355 655 356 193 494 495 496 797 897 798 "
        "898 799 899:254 264 335 444 454 464 745 876::"
    ),
    (
        ":0901-2:12479:.......+3.6..5..18..83.1..+2....9573...6.....92...........+6...254.487...1"
        "+3..23.....:111 615 616 636 453 457 261 262 164 464 664 465 467 667 668 669 171 971 172 "
        "972 985 986 791 792 895 995 196 896 996:141 149 151 153 161 162 163 212 413 463 725 925 "
        "926::"
    ),
    (
        ":0901-2:24789:.324.9.6..4.6.1.....6.3.4....4.2...6..971...3..3...1.5......68.3..5.7...4."
        ".1.....:511 711 815 817 719 825 827 729 831 832 536 238 239 739 839 652 662 171 172 182 "
        "488 592 593 396 297 797 997 298 798 998:279 479 485 792 823 882 892 979::"
    ),
    (
        ":0901-2:12357:9..17....4.1....7..7...31..14...6.98.9248173.38.5.......48...2.......6.7.."
        "..6...3:793:172 244 385 571 572 796::"
    ),
    (
        ":0901-2:2348:...2..8.4...9..3.11........5..3.6.1.....4.........8....846351.....7...5..25"
        "......:711 621 721 532 534 535 637 639 351 651 751 951 156 258 658 758 958 361 661 761 9"
        "61 165 565 268 668 768 968 185 186 287 289 194 698 798 998:221 243 253 263 359 369 398 4"
        "62 467 853 859::"
    ),
    (
        ":0901-2:4568:7..9.2..53..1..9.7.4.7...8.1.32.........1..3...46..219.1.......2.73..6.1.3."
        "..1..8:639 447 448 648 951 953 457 475 575 875 975 476 576 876 976 479 982 988 495 595 9"
        "95:428 478 498 585 586 613 615 822 842 852 862::"
    ),
    (
        ":0902-1:7:+8...43..+1.+3+1.5+7..8.721......9+3+5+1......5....1.18.3..........1.67..7..91"
        "..3+1+8+76592+4:441 247 451 254 454 854 255 257 265 267 471 274 875 481 284 885:768::"
    ),
    (
        ":0902-1:8:9....7.68+72....9+43..4....+7+52+7....4+8+9.6+9+78...28.39..71+6.....5.973.76."
        "...1+5...+7...+4:114 514 115 515 123 523 134 135 136 356 173 277 287 193 297:824::"
    ),
    (
        ":0902-1:2:..4..7...12....7...6.1...8.+24678+1+3+59.+19.....453.69+4.1....4325..........."
        "........8:626 257 258 771 773 781 881 882 783 883 585 685 791 793 595 695:237::"
    ),
    (
        ":0902-1:2:.......+3.6..5..18..83.1..+2....9573...6.....92...........+6...254.487...1+3.."
        "23.....:111 615 616 636 453 457 261 262 164 464 664 465 467 667 668 669 171 971 172 972 "
        "985 986 791 792 895 995 196 896 996:212::"
    ),
    (
        ":0902-1:136:931..+2...6+45+197..8+2+7+8.........27.....24....568.........+6.5+281+94+4+1"
        "+2+7+6+9...+5893...6.:417 337 338 339 347 857 387:146 346 646 663::"
    ),
    (
        ":0902-1:356:+1+7.59..482.+4.7..19.9..14.+7.+74.....8...27..+4.....+4.6..79...2.7+3+48+2+"
        "73+45...+43+1+9+6+7+8..:346 247 149 249 356 856 967 687:347 547 647::"
    ),
    (
        ":0902-1:8:4.6....7......1.6.....8....23..........34.......8.+295+3.9.......+3.2.5761.5.."
        ".2...4:914 721 722 723 924 829 734 934 336 536 936 443 144 644 944 175 996:849 859::"
    ),
    (
        ":0902-1:7:+9...+3...8+2.3..865.+8.52..3+917+9.1.3....54.......+3......9+58.3...423+29874"
        "1+6+5+4........:713 424 425 643 245 845 247 847 758 163 663 867 268 868 792 195:714::"
    ),
    (
        ":0902-1:16:.........2.....3495...3926..9.........41..+98....598..4..182...6......7....3."
        ".6...:515 516 722 341 348 589:111 112 625::"
    ),
    (
        ":0902-2:2:..1...34.4....697....23+4...9...5.8.....6.8.....8.9...1....45...+5728....4.84."
        "..5..:711 912 519 538 249 257 259 559 759 667 974 177 677 678 978 279 979 186 188 688 29"
        "8 299:262::"
    ),
    (
        ":0902-2:3:..+9......2.....3495...3926..9.........41..+98....598..4..182...6......7....3."
        ".6...:111 711 811 112 712 812 714 515 715 516 716 722 625 725 726 739 341 744 348 352 65"
        "2 752 162 262 663 683 883 586 589 794:376 388 389::"
    ),
    (
        ":0902-2:3:..+9......2.....3495...3926..9.........41..+98....598..4..182...6......7....3."
        ".6...:111 711 811 112 712 812 714 515 715 516 716 722 625 725 726 739 341 744 348 352 65"
        "2 752 162 262 663 683 883 586 589 794:376 388 389::"
    ),
    (
        ":0902-2:6:+6.2+75.+8+13..812...471..+8.........7.8.4.+1862..9+82.3.....+1...+7..482...38"
        "1..9+8..4+16..:936 938 944 549 966 568 569 598:636::"
    ),
    (
        ":0902-2:7:+6.2+75.+8+13..812...471..+8.........7.8.4.+1862..9+82.3.....+1...+7..482...38"
        "1..9+8..4+16..:527 528 533 936 938 944 549 966 568 569 598 798:758::"
    ),
    (
        ":0903-1:7:..7..5..4+5......16+4.....5..3..9....+58.4+5......56378+1+4.+7+4+5+8+32+961+1+"
        "8346925+7..91+5+7+4..:212 612 215 318 225 232 235 636 338 339 145 357 258 259:758::"
    ),
    (
        ":0903-1:69:..+1.3+7......2+1+8.577.....81.1.9+3+65....6..+74.3.....82.....87....44.....+"
        "78..37+8+415..:212 412 914 932 533 934 939 277 677 977 582 984 289 689 989:611 911 912 9"
        "27::"
    ),
    (
        ":0903-1:127:...+8......3.+57.8.98....315.9.8142......+3+5....5.+36...4.1.42+3....+3..7.."
        "..6.8...531.:412 612 712 613 916 933 572 986 587 987:113 213 713::"
    ),
    (
        ":0903-1:1:967.....5...6...471.....+6.+8+6+13..98.+42+8543+6.7.+47+9....6+3.+21......+3.."
        "5.2.8.7.....4.2:115 525 825 826 435 436 238 167 485:114 116 127::"
    ),
    (
        ":0903-1:9:......29.9.6.3...7......4...613.+2.4+8+4...6.+3..8.3.5..+622..+6.785.+6...8+3."
        "2.1.89+256..:511 312 522 124 332 539 553 159 472 479 982:966::"
    ),
    (
        ":0903-1:3:......29.9.6.3...7......4...613.+2.4+8+4...6.+3..8.3.5..+622..+6.785.+6...8+3."
        "2.1.89+256..:511 312 522 124 332 539 553 159 966 472 479 982:339::"
    ),
    (
        ":0903-1:7:...3.721....2.......9.6.38.8.6..1.....5+8.+6.2..9.....68.4357+8.+9.7+5....8..+"
        "9.....5..:421 622 727 545 748 749 949 759:763::"
    ),
    (
        ":0903-1:5:..+486.9+1..8+6.91..31+95.2.6.+8561........+9.7......3......9+1+2.+845..+6.+8."
        "59..1.+57..6.8+9:711 316 724 728 734 244 444 346 247 447 348 448 254 454 257 457 458 559"
        " 461 264 464 564 267 467 767 268 468 768 769 778:568::"
    ),
    (
        ":0903-1:2:..68.51....+8....36.1....8..+65+238.9..37+1.6..82+9+84.21.6...9..+8.4.84......"
        "..+654.37.+8:715 915 221 426 231 734 436 574 584 784:211 272::"
    ),
    (
        ":0903-1:4:..68.51....+8....36.1....8..+65+238.9..37+1.6..82+9+84.21.6...9..+8.4.84......"
        "..+654.37.+8:715 915 221 426 231 734 436 574 584 784:415::"
    ),
    (
        ":0903-1:56:....9.2..+2..7..184.+451.....5...8.+43.+46..+7..1..8..4...2+3+5+8..67..924..7"
        "...+6+71.3....:313 514 614 516 323 638 939 943 944 246 949 953 566 978 596 598 998:568 6"
        "68::"
    ),
    (
        ":0903-1:35:1+53+9+642+7+8+9847+2.3+6.72+6..8+9..638.+4+9..+7+4+91..+78.+6+5+7+2+8+1+6493"
        "+8+6+74+9..32+3.9.+7268.+2.56+8+37.9:139:334 355 534::"
    ),
    (
        ":0903-1:3:.5...6.3.9.2......+6.......7+496+2751+83+375+68+192+48+2194+375+65............"
        "..8.1.6.8...7.:714 124 125 135 936 372 275 975 985 595 995 299:335::"
    ),
    (
        ":0903-1:6:43.5.17..5..7.263....83.....4..87.....541.27....925.4..5.27....714.58..2..31.9"
        ".57:813 913 918 923 829 631 933 437 937 939 641 949 651 661 673 877 977 978 479 879 979 "
        "692:649::"
    ),
    (
        ":0903:137:..1...34.4....697....23+4...9...5.8.....6.8.....8.9...1....45...+5728....4.84."
        "..5..:711 912 519 538 249 257 259 559 759 262 667 974 177 677 678 978 279 979 186 188 68"
        "8 298 299:194 394 794::"
    ),
    (
        ":0904-1:9:8+7+14..6..5+42...7..+93+6+8+57+42+1.28.7.+3.....3.6+2....+3+21.54..1.7..+93.+"
        "3.9...8+72.+87..3+1.4:915 919 924 929 641 946 948 958 959 669 475 675 476 584 694:966::"
    ),
    (
        ":0904-1:1:186.+75.......3.1..+3....9..587....3.+163..8+7.52..9+3..+8672..7.....+7.3.9..."
        "...+86+2+3714:423 826 828 928 929 433 234 434 435 443 466 472 572 972 573 476 679 879 58"
        "2 884:184::"
    ),
    (
        ":0904-1:9:.1.8+4...28.4.2..3...2..74.+8.97..1.+4..+4..........4..62...96..7+8+4.8..5+42."
        "14....8.5.:918 622 635 541 151 551 153 955 656 361 271 681 392 393 394 395:938::"
    ),
    (
        ":0904-1:4:.....2.3..579..6.+24..6...1.9...6...+151...+9.26+7...8..+94.7..+93..8..5.+2617"
        "+9.9.5....+3:813 114 715 517 717 833 735 536 537 737 444 353 355 171 273 478 293:414::"
    ),
    (
        ":0904-1:1:1..+4..7+5.8+473+59+12+6.+5..7..843..+5.72+4.....4.+5..+4.58....159.+73.+4+1+2"
        "+71.2.46.5..4..+5+8.7:643 843 653 853 256 358 958 262 665 666 368 968 692 995:145::"
    ),
    (
        ":0904-1:1:.+4..+5.+91.9.+58+1.3+4....794+5.86+935+8+127+4+5.+4.6..+9..12+4.96.54.+9128+7"
        "+5...7..5..9.5.+9.....:211 311 629 632 881 888 891 897 698:191::"
    ),
    (
        ":0904-1:8:.+6.2..9..+27+9.8.6.14+8.+6+9.+5..+65.1....9+1+284693+7+59....2.1+6....+2..+63"
        "8.6.1..5...2..6.+9.:515 516 418 173 773 789 799:877::"
    ),
    (
        ":0904-1:4:.....87.3..82+3.5.....+71.+428.8..7193....+8..+2...9652+3+18.84+7+16.+3..+9+25"
        "+3+876..3+619..+8..:411 498 499:426::"
    ),
    (
        ":0904-2:3:5.+6.+281.3.2.6.....1..5..6.+2+9.7.6.+82.6.+38.2..9+48+2.9.3+6.+8.1.+57..6...."
        "+86.5.2+654....8:927 728 374 978 787 789 998:384::"
    ),
    (
        ":0904-2:4:2.......3.38........7.3.182+32.9.+15....57.23...+71+3+56+24.789+51+36+2+4..+2."
        "..93.4.+3...+8.5:612 415 815 618 718 621 624 425 625 725 728 729 632 659 684 485 885 786"
        ":436::"
    ),
    (
        ":0904-2:3:.4..+6....1.54.2.6.+6+2+3.8.4.5+389.46.57+5+6+4......71+295+863+42.1+87..+4+6."
        "5.6.43.2+4.+6....8.:717 817 819 919 996:314 316 329::"
    ),
    (
        ":0904-2:5:4.63....939.8+6....+1.7+492..+67...+14.2.5.......1.1.9...+67.+7.14.6...+4...6."
        "586....97.4:512 517 526 227 527 842 343 347 547 852 358 363 973 283 983 892 293 295:595:"
        ":"
    ),
    (
        ":0904-2:7:3.15.87.+2.97...+8+5+1+8+5+2...6.323.9..+41.....1.+3.+5.1...3+9285.3...+1....."
        "...58.+1.67.52+39:624 425 435 645 745 852 654 656 756 461 465 474 478 484 985 286 486 98"
        "6:765::"
    ),
    (
        ":0904-2:2:3.15.87.+2.97...+8+5+1+8+5+2...6.323.9..+41.....1.+3.+5.1...3+9285.3...+1....."
        "...58.+1.67.52+39:624 425 435 645 745 852 654 656 756 461 465 474 478 484 985 286 486 98"
        "6:276::"
    ),
    (
        ":0904-2:67:+9..12.+4..24.3.8.1......4.7..24..38..5..+2...+94..94..32..1.7+4+9....8+25+31"
        ".49+4+9.+862...:513 519 619 523 627 631 632 533 633 539 639 657 761 579 679 399 599:652 "
        "752::"
    ),
    (
        ":0904-2:1:7..+6.98.36+3..589...+9+8...+6..+45+9+8+67..1+8+63+51+24..2+7+13+9+4+56+8....."
        "+6.....698.+7.49.72....6:218 418 738 178 188 198:112::"
    ),
    (
        ":0904-2:3:.....87.3..82+3.5.....+71.+428.8..7193....+8..+2...9652+3+18.84+7+16.+3..+9+25"
        "+3+876..3+619..+8..:411 498 499:333 352::"
    ),
]

SEARCHES: dict[str, Callable[..., Iterator[Step]]] = {
    "0901": als.search_als_xz,
    "0902": als.search_als_xy_wing,
    "0903": als.search_als_xy_chain,
    "0904": als.search_death_blossom,
}
NAMES = {"0901": "ALS-XZ", "0902": "ALS-XY-Wing", "0903": "ALS-XY-Chain", "0904": "Death Blossom"}
SHARED_TOP1465 = Path("/work/shared/datasets/tdoku/puzzles3_magictour_top1465.txt")


def triples(field: str) -> set[tuple[int, int]]:
    """Digit-row-column triples → (cell, digit)."""
    out = set()
    for token in field.split():
        if len(token) != 3 or not token.isdigit():
            raise ValueError(f"not a digit-row-column triple: {token!r}")
        digit, row, column = map(int, token)
        out.add(((row - 1) * 9 + column - 1, digit))
    return out


def reglib_case(line: str) -> tuple[str, int, Board, set[tuple[int, int]]]:
    """(code, variant, board, expected eliminations) of one library line."""
    fields = line.split(":")
    code, _, variant = fields[1].partition("-")
    grid, deleted, expected = fields[3], fields[4], fields[5]
    cells = [0 if ch == "." else int(ch) for ch in grid.replace("+", "")]
    assert len(cells) == 81, line
    board = Board(Puzzle(cells))
    for cell, digit in triples(deleted):
        board.eliminate(cell, digit)
    assert set(map(int, fields[2])) == {d for _, d in triples(expected)}, line
    return code, int(variant or 0), board, triples(expected)


@pytest.mark.parametrize("line", REGLIB, ids=[f"{i}-{line[1:7]}" for i, line in enumerate(REGLIB)])
def test_reglib_case(line: str) -> None:
    """Some step of the search removes exactly HoDoKu's candidates; every step is sound (the
    placed digits as givens leave the one solution)."""
    code, variant, board, expected = reglib_case(line)
    steps = list(SEARCHES[code](board, overlap=variant == 2))
    assert expected in [set(step.eliminations) for step in steps], [s.text for s in steps]
    (solution,) = solutions(board.puzzle)
    for step in steps:
        assert step.technique == NAMES[code]
        check_step(board, step, solution)
        assert step.text.endswith(".") and "r" in step.text


def test_reglib_type_1_cases_need_no_overlap_and_the_solver_finds_one() -> None:
    """Without overlap (the solver's setting) the registered technique finds a step of its
    kind on every type-1 case (its first step: the one the solver would take)."""
    registered = {entry.name: entry.find for entry in TECHNIQUES}
    registered["Death Blossom"] = als.death_blossom  # (off in the default order, as HoDoKu's)
    for line in REGLIB:
        code, variant, board, _ = reglib_case(line)
        if variant == 2:
            continue
        step = registered[NAMES[code]](board)
        assert step is not None and step.technique == NAMES[code], line


def test_overlap_cases_need_overlap() -> None:
    """HoDoKu's type-2 Death Blossom of r1c2<>1 uses overlapping petals: without overlap no
    step removes exactly that."""
    line = next(line for line in REGLIB if line.startswith(":0904-2:1:"))
    _, _, board, expected = reglib_case(line)
    plain = [set(s.eliminations) for s in als.search_death_blossom(board)]
    assert expected not in plain
    assert expected in [set(s.eliminations) for s in als.search_death_blossom(board, overlap=True)]


def test_registry_and_rating() -> None:
    """HoDoKu's order keys, levels and base scores (Options.DEFAULT_SOLVER_STEPS); Death
    Blossom, off in HoDoKu's default solver (enabled=false), is off in ours too."""
    orders = {entry.name: entry.order for entry in TECHNIQUES}
    assert [orders.get(n) for n in NAMES.values()] == [5700, 5800, 5900, None]
    assert [TECHNIQUE_RATING[n] for n in NAMES.values()] == [
        ("Unfair", 300),
        ("Unfair", 320),
        ("Unfair", 340),
        ("Unfair", 360),
    ]
    for name, find in als.TECHNIQUES:
        board = Board(Puzzle.parse("." * 81))
        assert list(every_step(find, board)) == [], name  # an empty grid has no ALS step


def test_steps_draw_and_read() -> None:
    """A chain's links join the sets' restricted commons (weak links, one digit each); its
    proof holds the sets' candidates."""
    line = next(line for line in REGLIB if line.startswith(":0903-1:7:..7"))
    _, _, board, expected = reglib_case(line)
    step = next(s for s in als.search_als_xy_chain(board) if set(s.eliminations) == expected)
    assert len(step.links) >= 3
    assert all(not link.strong and link.start[1] == link.end[1] for link in step.links)
    assert set(step.eliminations).isdisjoint(step.proof)
    assert "r5c8<>7" in step.text


# --- soundness fuzz ------------------------------------------------------------------------


def _fuzz(puzzles: list[Puzzle]) -> tuple[int, int]:
    """Solve each puzzle; wherever the solver takes an ALS-family step, and where it stalls,
    check every step of the four searches (with and without overlap) against the solution.
    Returns (states checked, steps checked)."""
    states = checked = 0
    family = set(NAMES.values())
    for puzzle in puzzles:
        (solution,) = solutions(puzzle)
        trace = solve_logically(puzzle)
        board = Board(puzzle)
        for index in range(len(trace.steps) + 1):
            at_end = index == len(trace.steps)
            if at_end and trace.outcome != "stalled":
                break
            if at_end or trace.steps[index].technique in family:
                states += 1
                for code, search in SEARCHES.items():
                    # (chains with overlapping sets only where the solve ends: they cost most)
                    for overlap in (False, True) if code != "0903" or at_end else (False,):
                        for step in search(board, overlap=overlap):
                            check_step(board, step, solution)
                            checked += 1
            if not at_end:
                step = trace.steps[index]
                if step.technique in family:
                    check_step(board, step, solution)
                board.apply(step)
        assert trace.outcome != "contradiction"
    return states, checked


def test_soundness_fuzz_bundled() -> None:
    """32 bundled hard puzzles (top1465 and forum-hardest samples) and 12 jigsaws: no ALS
    step removes a digit of the solution. (The slow test below walks 160 more.)"""
    rows = read_csv("top1465.csv", 20) + read_csv("forum-hardest.csv", 12)
    rows += read_csv("jigsaw.csv", 12)  # regions for boxes: the sets and "sees" follow them
    states, checked = _fuzz([puzzle_of(row) for row in rows])
    assert states > 40 and checked > 1000, (states, checked)


@pytest.mark.slow
def test_soundness_fuzz_top1465() -> None:
    """The same on 60 more puzzles of the whole top1465 (from the shared datasets, when here;
    160 took a minute of the test run, the 140 after them another seven minutes under load)."""
    if not SHARED_TOP1465.exists():
        pytest.skip("shared datasets not here")
    lines = [line[:81] for line in SHARED_TOP1465.read_text().split() if len(line) >= 81]
    states, checked = _fuzz([Puzzle.parse(line) for line in lines[100:160]])
    assert states > 40 and checked > 1000, (states, checked)


def test_alses_follow_the_cells_not_only_their_candidates() -> None:
    """A board whose values are rewritten (as the tests' boards are) may leave a group with
    other empty cells holding the same candidates: its ALS are those of the cells now empty
    (a memo keyed by the candidates alone gave the old cells)."""
    board = Board(Puzzle.parse("." * 81))
    row = board.groups[0]
    for empty in ((0, 1), (0, 2)):
        filled = iter(range(3, 10))  # 1 and 2 left for the two empty cells
        for cell in row:
            board.values[cell] = 0 if cell in empty else next(filled)
            board.candidates[cell] = 0b11 if cell in empty else 1 << (board.values[cell] - 1)
        found = als._state(board).alses
        in_row = {a.cells for a in found if a.group == 0}
        assert in_row == {1 << empty[0], 1 << empty[1]}, (empty, in_row)
