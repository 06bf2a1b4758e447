"""Grouped nice loops and grouped AICs (sudoku_cp.logic.grouped) against HoDoKu's regression
library: every case of HoDoKu's reglib-1.4.txt (hobiwan's HoDoKu, GPL-3, read in the
yoki123/hodoku repository) for codes 0709 (Grouped Continuous Nice Loop), 0710 (Grouped
Discontinuous Nice Loop) and 0711 (Grouped AIC) that uses no almost locked set — variants
0709-1, 0710-1, 0710-2, 0711-1 and 0711-2; HoDoKu's ``RegressionTester`` turns ALS nodes on
only for 0709-2, 0710-3/4 and 0711-3/4, and they are off by default — copied below as literal
data lines, each citing itself ("HoDoKu reglib-1.4.txt, case <line>").

A case holds when some step of the technique its code names (``every_step``) removes exactly
the case's eliminations (HoDoKu's ``RegressionTester.checkResults``: a step of that type with
those candidates).
"""

from __future__ import annotations

import pytest

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.logic import chain_tables, grouped
from sudoku_cp.logic.board import Board, every_step
from sudoku_cp.logic.steps import Candidate

TECHNIQUE = {
    "0709": grouped.grouped_continuous_nice_loop,
    "0710": grouped.grouped_discontinuous_nice_loop,
    "0711": grouped.grouped_aic,
}
NAME = {"0709": grouped.GCNL, "0710": grouped.GDNL, "0711": grouped.GAIC}

# HoDoKu reglib-1.4.txt, cases 0709-1, 0710-1, 0710-2, 0711-1 and 0711-2 (all of them), as
# :code-variant:digits:grid ('+' = placed, not given):removed candidates:eliminations:
# placements:chain length:
CASES = [
    ":0709-1:1238:.+5243+19+6..3+67...1519.....2.2.......694.......+5+6....74+93.9......6.+5.1.....8.5..69.:825 826 833 837 839 254 255 256 779 789 495 496 499 799:143 153 275 276 286 364 399 864::7",  # noqa: E501
    ":0709-1:1289:....3.94+66.....+57....6..1+2...95..+4+12+4+82+173+69515+6+942+3+8+7.+6..5.+7+3..43...8+5....+3..26.:211:122 222 831 833 836 936::7",  # noqa: E501
    ":0709-1:258:...+7+6.+3+4+543..1.7+696+754+9+38+2+1.+4..27+93+6.936.421..2+693.+5.+4.+54..61.22.7.4+9+653.+6....+4..:111 891 991 893 194 894 896:226 594 813::9",  # noqa: E501
    ":0709-1:2356:.3..+1.4....7..8+1..15+8+4.9+62..+74+98.2...1..4.+97...9.6.5...6.1...95...8.+67....1....6.:369 388 389 391 399 899:224 253 371 375 395 524 611::9",  # noqa: E501
    ":0709-1:358:52...47+3..7.6..29..+9.+7...+5191.2+7.36.+7......+1+2.62..1.791......+8+7+289..7+14...71...23:815 825 433 856 374 375 376 595 695 696:325 556 576 596 855 865::9",  # noqa: E501
    ":0709-1:236:....5..3..4....7+98...7.9.651.42.53+7..5.....2..+263.18+5426+89.4+5+1.4.9+5...8..7..2..+4.:812 113 114 323 626 393:213 217 385 389 689::9",  # noqa: E501
    ":0709-1:56:3....876....9..+3287..3...54.4....2.+72...8...5..7..+3.4.41+2.+39..683...6..+2.768....3:933 143 543 943 544 545 645 148 948 154 654 156 958 962 564 665 967 987 595 596 997:521 587 662::7",  # noqa: E501
    ":0709-1:78:.4........2.65...35+9...31...75..6.+146...1...99..5..62...94...+314...82+96.......+48.:111 113 126 726 826 728 341 354 693:717 718 719 739 765 817 857::9",  # noqa: E501
    ":0710-1:38:....7..9.429.5...16..........1+5+94.2.95+2.63..+8...8....+9..6..5....3.2.1+9+67........4:517 335 435 835 537 737 538 738 467 468 374 474 591 593 394 896:375 875::11",  # noqa: E501
    ":0710-1:689:4....3.....8....+4.16..94......+4.....7...519645+412+6+9..8.5....4....+4..2.9531..4.6..:119 219 719 129 229 329 729 241 242 243 347 747 348 748 349 749:671 871 971::11",  # noqa: E501
    ":0710-1:89:.+7.+9+4.15..5.7.1.+4.+4..+3+5.+79.3+2+5+89+7+61+4..76+24+5...4651+3.+2778..3+92+6+5+5.............54..:811 821 183 383 983 184 286 393:851 951::7",  # noqa: E501
    ":0710-1:4569:+3+745+2+68+91...3+9+1.7.619..+4+2+3+5...6.9+3..736+2.5.......4+3..2...+1.+8.23...+9.21.....4.7...:448 449 967:477 577 677 977::9",  # noqa: E501
    ":0710-1:12:8+1+9+7+23+564+63.85....+25.+69.8...+2.+48+7..9..12+364..4..+51+9....+45.6..7.....75.4.76.1+4...5:763 977 381 187 987 297:128 228::9",  # noqa: E501
    ":0710-1:12:....784....2..4..77..+6...5..6...5+7.39.7.1+36.53..8+6+7+12+9.7......65..7.+69....638.+5+7.:912 113 118 318 322 128 328 828 332 333 833 441 443 445 452 871 473 274 474 275 377 478 878 482 483 488 888 189 292 492 199:171 271::11",  # noqa: E501
    ":0710-1:56:52.89.1+3..+91....4......65.998.4..3......7......3..8.541.97......7....6....2.81.75:713 721 229 729 331 431 645 248 649 954 957 258 858 659 164 267 472 475 877 483 984 486 288 888 889:543 643::7",  # noqa: E501
    ":0710-1:89:.6....7...+3.7...56..7536+28.3..+26..9.2...1...8.4..7...2+72.3891+6.18.+6.2...+6.3+1.+7+82.:411 113 413 813 913 914 415 423 923 425 549 587 589:811 911::13",  # noqa: E501
    ":0710-1:68:....6+12...168..+3.5.....31+69+1.....+537...715...65+7+3.....3.81.....5.+1..482+3..9.3+8...:811 712 812 457 459 468 975 976 778 798:659 859::11",  # noqa: E501
    ":0710-1:13:+82.+95+43.+6.94......6.+57+2.+984...84.1.+9..2.+9.8...+89.75+6..25+6..9..8+9+4....26...8.6..9.:124 126 529 342 352 478 186 789 797 799:174 374::11",  # noqa: E501
    ":0710-1:37:.....+89.4...1...82....74.5692.78.5......5......1.96.2873.84....24..+17...1.9......:712 343 148 348 458 658 177 387 688 397 797 698 399:398 798::9",  # noqa: E501
    ":0710-2:6:+2+4+7+38..5+69.3.....+2..12....3+4.25.36...7.41.3+251+3+5.+2..........264.2....+58...+4.5+2.+3.:656 867:681::9",  # noqa: E501
    ":0710-2:9:+3+4512+8+9..+97+6...+28+1+28+1...345.......+1.+1..6...3.4.2.81+5.9+7.+4...+128+8+19.4.6+5+3.+2+38+1.7+94::942::12",  # noqa: E501
    ":0710-2:2:86.9.+1+3..+4.+9+3.+6...+3.1478.+6.7+38.+1+9..6542+6+83.1.+1+9+6.+4+7.3.+983+165.7.+6.4.+32.+9.+2+1..+946.3:227 527:237::7",  # noqa: E501
    ":0710-2:4:..59....37.38.16......3.18.4......5...6.2.9...9......8.34.1.+8....72.34.12....75+3.:611 212 412 612 434 634 636 439 939 842 845 852 678 978 679 979:454::11",  # noqa: E501
    ":0710-2:8:..3...62.6...2..5.+2.+5..6..7....1...6581.6.2947...9....3..4......2..5...9.54...1..:116 416 723 426 344 744 346 746 364 366 566 869 772 879:894::6",  # noqa: E501
    ":0710-2:5:7.1+4....+34...3..7+1.3.1.+7+4...1...43.997.+31..483+486..+71.+1.+7..3+98+4.9+3.4.+1+27..+4..+15+36:631 233 244 544 245 545 253 272 881 294 894 295 895:531::12",  # noqa: E501
    ":0710-2:3:3.64....1.+8.2...9671..6.+4..9+6...52..17.....64..37.+6..9+6...8..4223...4+6..8+4.+6.29.5:512 718 525 726 527 533 338 848 849 857 574 777 583:345::8",  # noqa: E501
    ":0710-2:6:1..94+7.5.+4....5.1.7.+5...2..+5..+63+8.91+9+187543..36..9.+5+8...1.....5.4.5.....+25+9.76+1.8:222 223 627 639 263 269 872 777 678 683 285 787 789:688::10",  # noqa: E501
    ":0710-2:3:+4+57.2+9.8+139+1..+8..762+81.+7......8.6..9..9.7.1..2..9.3........4.151......46.4..8+17.+2:624 525 258 867 585:394::5",  # noqa: E501
    ":0710-2:2:3.2....1.+1..97........+1....5..+18.6....15...7..8.+74.+1..9....1.27.1.4.......5..79.+1::239::7",  # noqa: E501
    ":0711-1:6:3.2....1.+1..97........+1....5..+18.6....15...7..8.+74.+1..9....1.27.1.4.......5..79.+1::612 616 619 626 634 636::7",  # noqa: E501
    ":0711-1:1:.+5243+19+6..3+67...1519.....2.2.......694.......+5+6....74+93.9......6.+5.1.....8.5..69.:825 826 833 837 839 254 255 256 779 789 495 496 499 799:143 153::7",  # noqa: E501
    ":0711-1:8:3.6..2.89...+6.+9.+5..5.8.1.........5.2.......7.2....6.4.67...43......93..5....6.4..:345 948 553 554 355 555 365 593 594:845 855 865 896::7",  # noqa: E501
    ":0711-1:9:+8..1...7....8.76..+7.3.5......+7..9...4...7+8.9668+9...+7....+4+78+52+6+15+2+83..+94717+69+42.5.::912 922 932 971::15",  # noqa: E501
    ":0711-1:2:.+78..169..+6...+935..9..+6....+85.9....+67.+962+8+5..+64.+1..98.+9+2641.+8.54...82.+6+9.87.+96...:514 223 233 534 447 448:211 224::11",  # noqa: E501
    ":0711-1:3:..+4+6+825.186+1+5...+4+2+5.2.+41+768..9...+47+5.4..5......+54.....4..76+52+1..5..1..8..1.....+5.:241 251 357 657 957 261 367 667 967 389 689 989 893 399 699 999:311 312::7",  # noqa: E501
    ":0711-1:3:5..41..686....9.+4.14.....5.49...2...+78.....2..+6.7...95+81.....72.+5.8...+1997..61..4:213 313 223 323 329 233 333 737 343 647 657 366 373 283 383:317 334 335 336::11",  # noqa: E501
    ":0711-1:5:5..41..686....9.+4.14.....5.49...2...+78.....2..+6.7...95+81.....72.+5.8...+1997..61..4:213 313 317 223 323 327 329 233 333 334 335 336 737 343 647 354 355 356 657 366 373 574 376 283 383:544 545 553::11",  # noqa: E501
    ":0711-1:6:.6....+948942.......7.9.+4.5...619........3......+1.485...5+9..3.7.+6+1+7..+983432.....9+5:214 514 115 515 516 724 725 726 127 235 835 841 247 249 851 853 257 259 659 269 669 769 274 275 694 794 895:637 695::5",  # noqa: E501
    ":0711-1:9:.......+36.+3..+6729+1.+6.3..8.59.+4.2.5.325.....143.6.4...27+23..8..+9.416..+3..6........:112 812 513 813 755 862 586 788 888 194 794 994 995 996 797 798 898:916 936 985::13",  # noqa: E501
    ":0711-2:56:4+8..+12.391+953..28......+9+4...+1.4..9.886+4.+9+1....79...1+4..+5123.+8.4..+89........1.8...:248 269 369:564 669::5",  # noqa: E501
    ":0711-2:79:.+85..4.2+62....8+4.5.7.6+2+58..6517+3+9+2+4+8..+8+1+52.+6..+2.84+6+5..8..2+6.3+5.+5..+4+8+3..+2.3+259.+6+84::757 917::13",  # noqa: E501
    ":0711-2:14:+2...5+376.7+65.....3..+3+786.2...43..+2.+6+3+26.9.14....+62+4...+6.+2.+3..5...7.6...2839...+6..:819 141 142 746 769 584 586 194 494 196 796 799:125 414::7",  # noqa: E501
    ":0711-2:25:.+4..37.1....9...4....14.6..4.....37878.+3.+4+195513+7..+2+64..4.52....7...3+4+5..5.47....:211 911 213 913 614 814 621 622 623 939 644 945 946 979 685 885 989 696 896:244 514::11",  # noqa: E501
    ":0711-2:14:.6+2.+7..8.3+8+742.6+5..9+5.+68+7+2...8716..5....+3.+8..5.+38942..+8+5.9+4..7...4.57..8+73..+8.+54.:114 117 317 119 441 151 251 451 152 252 658 159 659 959 169 179 379 181 284 188 693 199:131 411::15",  # noqa: E501
    ":0711-2:47:.6+2.+7..8.3+8+742.6+5..9+5.+68+7+2...8716..5....+3.+8..5.+38942..+8+5.9+4..7...4.57..8+73..+8.+54.:114 117 317 119 441 151 251 451 152 252 658 159 659 959 169 179 379 181 284 188 693 199:452 759::11",  # noqa: E501
    ":0711-2:29:.6+2.+7..8.3+8+742.6+5..9+5.+68+7+2...8716..5....+3.+8..5.+38942..+8+5.9+4..7...4.57..8+73..+8.+54.:114 117 317 119 441 151 251 451 152 252 658 159 659 959 169 179 379 181 284 188 693 199:281 941::9",  # noqa: E501
    ":0711-2:25:2...+4.+8..+6+4..7.5+3.7.35.62+4.4+3...97..16.+43.+982..96..+3.4+3.67.41.8..4.1.+6......+6.+4.3:114 118 918 119 919 543 244 149 866 972 982 989 992:275 572::7",  # noqa: E501
    ":0711-2:56:+46.29.3.85..+3.....3...4.1...+4+5..3.2..36...84+5.7.5.+4..+3..4.3...6+6.+3+4....97.8+659.3.:922 923 625 628 229 736 836 738 938 744 745 578 588:538 636::9",  # noqa: E501
    ":0711-2:47:+2+6.45+81.+3..+1+392..6..+3+6+7+1.24.2.+58+3.+17.1.947.3.3..+21+6.8.13..+2..+6.6..13......2.65+3.+1:973 477 877 983 487 587 887 798:491 773::9",  # noqa: E501
    ":0711-2:46:36.....4.4.8.1......9..7...+8..5+7.46.7.......9.35..2......8..7......3.6+81.8.....94:213 817 819 926 227 327 329 729 234 535 635 835 137 339 146 152 153 454 654 455 456 157 857 158 161 164 964 865 475 482 484 193 693:434 664::13",  # noqa: E501
]


def _candidates(field: str) -> list[Candidate]:
    """``436 257`` (digit, row, column): r3c6<>4, r5c7<>2 as (cell, digit)."""
    return sorted(((int(x[1]) - 1) * 9 + int(x[2]) - 1, int(x[0])) for x in field.split())


def reglib_board(line: str) -> tuple[str, Board, list[Candidate], list[Candidate]]:
    """The case's code, its grid of candidates (givens and placed digits placed, the listed
    candidates removed: HoDoKu's ``Sudoku2.setSudoku`` of a library line), and its
    eliminations and placements."""
    parts = line.split(":")
    code, grid = parts[1], parts[3]
    givens = [0] * 81
    placed = []
    cell = i = 0
    while i < len(grid):
        if grid[i] == "+":
            placed.append((cell, int(grid[i + 1])))
            i += 2
        else:
            givens[cell] = 0 if grid[i] == "." else int(grid[i])
            i += 1
        cell += 1
    assert cell == 81, line
    board = Board(Puzzle(givens))
    for c, d in placed:
        board.place(c, d)
    for c, d in _candidates(parts[4]):
        board.eliminate(c, d)
    return code, board, _candidates(parts[5]), _candidates(parts[6])


@pytest.mark.parametrize("line", CASES, ids=[f"{c.split(':')[1]}#{i}" for i, c in enumerate(CASES)])
def test_reglib_case(line: str) -> None:
    code, board, eliminations, placements = reglib_board(line)
    base = code.split("-")[0]
    steps = list(every_step(TECHNIQUE[base], board))
    assert all(s.technique == NAME[base] for s in steps)
    found = [(sorted(s.eliminations), sorted(s.placements)) for s in steps]
    assert (eliminations, placements) in found, (line, found[:5])


def test_a_step_names_its_group_nodes() -> None:
    # HoDoKu reglib-1.4.txt, case 0711-1 (the first): a grouped AIC on 6
    _, board, eliminations, _ = reglib_board(
        CASES[[c.split(":")[1] for c in CASES].index("0711-1")]
    )
    step = next(
        s for s in every_step(grouped.grouped_aic, board) if sorted(s.eliminations) == eliminations
    )
    grouped_ends = [
        cells for link in step.links for cells in (link.start_cells, link.end_cells) if cells
    ]
    assert grouped_ends and all(len(cells) >= 2 for cells in grouped_ends)
    for link in step.links:
        for (cell, digit), cells in ((link.start, link.start_cells), (link.end, link.end_cells)):
            assert all(board.has(c, digit) for c in cells or (cell,))
            assert not cells or cell == cells[0]
    # each group node's candidates are in the proof, and the drawing and the JSON show it
    from sudoku_cp.logic.text import step_data
    from sudoku_cp.render.steps import step_svg

    assert {(c, link.start[1]) for link in step.links for c in link.start_cells} <= set(step.proof)
    svg = step_svg(board.puzzle, step)
    assert svg.count('class="link ') == len(step.links)
    data = step_data(step, 9, board.puzzle.model.group_labels(9))
    assert any("," in link["start"] or "," in link["end"] for link in data["links"])


@pytest.mark.parametrize("line", [CASES[0], CASES[-1]])
def test_every_grouped_step_is_sound(line: str) -> None:
    """Every step of the three techniques on a case's grid agrees with the grid's solution
    (the backtracker's, from the digits placed; the removed candidates are the solution's
    non-digits, so the solution still fits them)."""
    _, board, _, _ = reglib_board(line)
    puzzle = Puzzle(list(board.values))
    solution = get_backend("backtrack").solve(puzzle, limit=2).solutions
    assert len(solution) >= 1
    grid = [s for s in solution if all(board.candidates[c] >> (s[c] - 1) & 1 for c in range(81))]
    assert len(grid) == 1
    for find in TECHNIQUE.values():
        for step in every_step(find, board):
            assert all(grid[0][c] != d for c, d in step.eliminations), step.text
            assert all(grid[0][c] == d for c, d in step.placements), step.text


def _hard_rows() -> list[dict[str, str]]:
    from puzzles import bundled

    return bundled("top1465")[:4] + bundled("forum-hardest")[:1]


def test_reach_closure_is_each_premises_breadth_first_search() -> None:
    """The speed door of ``ChainGraph.reached`` (one pass, ``reach_closure``) gives every
    literal the mask its own breadth-first levels give, on the graphs of the states real hard
    solves pass through."""
    from sudoku_cp.logic.solver import solve_logically

    graphs = 0
    for row in _hard_rows():
        puzzle = Puzzle.parse(row["puzzle"])
        board = Board(puzzle)
        for index, step in enumerate(solve_logically(puzzle, uniqueness=True).steps):
            if index % 5 == 0:
                graph = chain_tables.ChainGraph(board)
                closure = chain_tables.reach_closure(graph.succ)
                for lit in range(2 * graph.count):
                    plain = 0
                    for level in graph.levels(lit):
                        plain |= level
                    assert closure[lit] == plain, (row["id"], index, lit)
                graphs += 1
            board.apply(step)
    assert graphs >= 20


def test_solves_take_the_same_steps_through_either_door(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole solves of hard puzzles (grouped loops, forcing chains and nets among their
    steps) are the same, step for step and word for word, with ``FAST_REACH`` off (each
    premise searched on its own) and on."""
    from sudoku_cp.logic.solver import solve_logically

    def traces() -> list[tuple[object, ...]]:
        out = []
        for row in _hard_rows():
            trace = solve_logically(Puzzle.parse(row["puzzle"]), uniqueness=True)
            steps = [(s.technique, s.eliminations, s.placements, s.text) for s in trace.steps]
            out.append((trace.outcome, *steps))
        return out

    monkeypatch.setattr(chain_tables, "FAST_REACH", False)
    plain = traces()
    monkeypatch.setattr(chain_tables, "FAST_REACH", True)
    fast = traces()
    assert fast == plain
    used = {step[0] for trace in fast for step in trace[1:]}  # type: ignore[index]
    assert used & {grouped.GCNL, grouped.GDNL, grouped.GAIC}
