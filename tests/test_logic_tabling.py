"""Forcing chains and forcing nets (sudoku_cp.logic.tabling), HoDoKu's tabling techniques.

HoDoKu's regression library has no forcing chain or net case (reglib-1.4.txt's section 13xx
holds only its headings), so the cases here are other techniques' HoDoKu cases whose
deductions a forcing chain must make by HoDoKu's own definitions (``TablingSolver``):

- a Discontinuous Nice Loop that deletes a candidate (reglib 0707-2) is a chain from the
  candidate assumed true to its own falsehood, or to another digit of its cell true — a
  contradiction (``checkOneChain``), so a Forcing Chain Contradiction, and a Forcing Net
  Contradiction (a net follows every link a chain does: a strong link is a hidden or naked
  single once its other end is gone, a group node's a locked candidate);
- an XY-Wing (reglib 0800) is three chains from the pivot's two digits to the same
  elimination — a verity of the pivot cell (``checkAllChainsForHouse`` on a cell), one step
  per candidate removed (``checkEntryList``).

Lines copied from HoDoKu reglib-1.4.txt (hobiwan's HoDoKu, GPL-3, read in yoki123/hodoku) as
literal data, each citing its case. Then soundness on real hard puzzles (the bundled top1465
and forum-hardest samples): every step agrees with the solution.
"""

from __future__ import annotations

import pytest
from puzzles import bundled
from test_logic_grouped import reglib_board

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.logic import grouped, tabling
from sudoku_cp.logic.board import Board, every_step
from sudoku_cp.logic.rating import technique_rating
from sudoku_cp.logic.solver import TECHNIQUES, solve_logically

# HoDoKu reglib-1.4.txt, cases 0707-2 (Discontinuous Nice Loop, delete candidate), all of them
DNL_DELETE = [
    ":0707-2:9:....2+96..2.9....+71+64+53+178+2+9.741+6+2.85.+6+2+7..+1...+5.4..+7625+9...+1.+3..+2.97..1..16......:311 811 313 813 427 479 489 498 499:997::12",  # noqa: E501
    ":0707-2:7:24.17+5..+9..5+9+3+6...+93.482....+92..3..86..89...........96.+6..+49+85.+584..+7+9.13+2+9+5+1+8+764:267:763::8",  # noqa: E501
    ":0707-2:7:....8.2....5....4..2...5...+9+6+2+8+37.....+321+4+6971+74+5..+83+2..+1......+6973+4+852+1+2+48+75136+9::718::8",  # noqa: E501
    ":0707-2:3:....8.2....5....4..2...5...+9+6+2+8+37.....+321+4+6971+74+5..+83+2..+1......+6973+4+852+1+2+48+75136+9::319::8",  # noqa: E501
    ":0707-2:1:....8.2....5....4..2...5...+9+6+2+8+37.....+321+4+6971+74+5..+83+2..+1......+6973+4+852+1+2+48+75136+9::138::8",  # noqa: E501
    ":0707-2:4:.+1..45..+7..81+7....47.8+2.13.....51.9..6..+8..7..2.63+7...+193+7+68+542....+927.....51....:217 227 349 951 953 457 563 688 689 691 891 493 693:442::6",  # noqa: E501
    ":0707-2:5:.+1..45..+7..81+7....47.8+2.13.....51.9..6..+8..7..2.63+7...+193+7+68+542....+927.....51....:217 227 349 951 953 457 563 688 689 691 891 493 693:581::7",  # noqa: E501
    ":0707-2:6:.+1..45..+7..81+7....47.8+2.13.....51.9..6..+8..7..2.63+7...+193+7+68+542....+927+1....51....:217 227 442 349 849 951 953 457 563 581 483 689 691 891 493 693:699::9",  # noqa: E501
    ":0707-2:4:..97..+382.72..3.+1.31..+2.......35..9.+9.31.26...8+7+964.+2+3..+5....67...2..85.79.+6.52+3.:521 825 429 929 537 439 449 175 985:493::8",  # noqa: E501
    ":0707-2:7:6..+9......+52..194..93.....8..53...+72.3.1+52.9.9+2...65+3+15.....31.+3814..2..+2.+9+5+1+3.+87:731 435 637 841 451 657 763 672 774 775 776:716::8",  # noqa: E501
    ":0707-2:4:6..........2..194..93.....8..53....2.3.1+52.9.9+2...65+3+15.....31.+3814..2..+2...+1+3..7:514 524 774 775 776 894:493::9",  # noqa: E501
    ":0707-2:3:8.+4.21...+9+27+4..5+8+1.138+7.....9178...5......+1..4...1279....+2.741..+42+1..8..+1..64+8..2:314 619 636 937 641 346 651 552 652 554 355 356 571 581 388 389:369::10",  # noqa: E501
    ":0707-2:1:..4..2+7...2+7..4.3.5...7...468.+7.+54...7.+42+6.5+8.+45....767..+24.+5.3+43.5.+7.6..+5.9+6+38+4+7:111 315 121 133 833 364 172 173 183 283:134::6",  # noqa: E501
]
# HoDoKu reglib-1.4.txt, cases 0800 (XY-Wing), all of them
XY_WING = [
    ":0800:169:+71+4.+6.5+38+8..4+53..+7+3567+1+8+4+2+9....2+4.8+54.....3.22+8+5376+9+419+78+6+3+1254.....7..+6........3::942 943 954 955 956::",  # noqa: E501
    ":0800:357:+954+8173+2+62+784+36+5+9+1...+5+9+2+4+7+8.9.+1+2.+645.+26+94.81+7...+6+7.+9+32...2.9+1.+3..+2+3.+476+9.3+97.+1+2.+4::563 571 581 591::",  # noqa: E501
    ":0800:179:3..+4.+78+6....+3.+8.54.+4+86.+5...+4+87+9+632+15...+27+14..+21.8+54..68+7+65+4+2+931+5+3218+9+6+4+7+194+7+3+6+5..::721 737 738::",  # noqa: E501
    ":0800:158:6+4+3....9..+5843..+7..7+2..+6+4.3+3+6+7...+9.+4815+6+9+4+32+7+4+2937..1.+5+8+1+2+437+6+9+7+94.6.+2+382+3+6.+8.+541::114 115 116::",  # noqa: E501
    ":0800:158:+8+61+9+27543.+7+3+1.86+29.2..+6+3....+36...7..7+4..3..+6.1+856+7+2+9+34.+5.+7+9+63+81+69+8+3+14+2..+3+1+72+8+5+496::544 545 559::",  # noqa: E501
    ":0800:234:.......6.1.3.7..+82+6.2.+8.4.....59+7+6...6...8...7..4.....+237...+895+5847+3+9+21+6+9+1+6+85+2+7+43::341 357 358::",  # noqa: E501
    ":0800:123:..+8+2..57.+7.+54....+8..9+8+57...4+5+17+2+98+6+3+2765+83+94+1+9+8+3+6+1+4+7+526+9+23+4+5+1+8+7537+168...+81+4+9+726+3+5::337::",  # noqa: E501
    ":0800:679:+3.5+48..+1+2.+8+1....+464.+7..1.+3+8+57+2+1+4+3+68+91+3+8569+4+276+4+9+2+7+8+153714...8+9+5+8+53+7942+6+1..+6+8+1+5+3+7+4::937::",  # noqa: E501
    ":0800:457:+8..+36.+9....+9.1.863.+63.+89..+59+24+6+7+3+1+5+83+8+6+9+5+17+2457+182+4+3+9+6+4+3+2+1+9658+769+8+5+37......+24+8+63+9::721::",  # noqa: E501
]


@pytest.mark.parametrize("line", DNL_DELETE)
@pytest.mark.parametrize(
    "find", [tabling.forcing_chain_contradiction, tabling.forcing_net_contradiction]
)
def test_a_nice_loop_deletion_is_a_forcing_contradiction(line: str, find: object) -> None:
    _, board, eliminations, _ = reglib_board(line)
    assert len(eliminations) == 1
    found = [sorted(s.eliminations) for s in every_step(find, board)]  # type: ignore[arg-type]
    assert eliminations in found


@pytest.mark.parametrize("line", XY_WING)
@pytest.mark.parametrize("find", [tabling.forcing_chain_verity, tabling.forcing_net_verity])
def test_each_xy_wing_elimination_is_a_forcing_verity(line: str, find: object) -> None:
    _, board, eliminations, _ = reglib_board(line)
    found = {tuple(sorted(s.eliminations)) for s in every_step(find, board)}  # type: ignore[arg-type]
    for candidate in eliminations:
        assert (candidate,) in found, candidate


def test_contradiction_steps_say_why_and_draw_their_chains() -> None:
    # HoDoKu reglib-1.4.txt, case 0707-2 (the first)
    _, board, eliminations, _ = reglib_board(DNL_DELETE[0])
    step = next(
        s
        for s in every_step(tabling.forcing_chain_contradiction, board)
        if list(s.eliminations) == eliminations
    )
    assert step.technique == tabling.FCC and step.links and "If " in step.text
    for link in step.links:
        assert board.has(*link.start) and board.has(*link.end)


def test_registered_at_hodoku_order_and_rated() -> None:
    # Options.DEFAULT_SOLVER_STEPS: GROUPED_NICE_LOOP 5650 (Unfair, 300), FORCING_CHAIN 8500
    # (Extreme, 500), FORCING_NET 8600 (Extreme, 700)
    orders = {entry.name: entry.order for entry in TECHNIQUES}
    expected = {
        grouped.GCNL: (5650, "Unfair", 300),
        grouped.GDNL: (5651, "Unfair", 300),
        grouped.GAIC: (5652, "Unfair", 300),
        tabling.FCC: (8500, "Extreme", 500),
        tabling.FCV: (8501, "Extreme", 500),
        tabling.FNC: (8600, "Extreme", 700),
        tabling.FNV: (8601, "Extreme", 700),
    }
    for name, (order, level, score) in expected.items():
        assert orders[name] == order
        assert technique_rating(name) == (level, score)


def _stalled_before_forcing(puzzle: Puzzle) -> Board:
    """The grid where every technique before the forcing chains stalls."""
    before = [e.find for e in TECHNIQUES if e.order < 8500 and not e.rules]
    trace = solve_logically(puzzle, uniqueness=True, techniques=before)
    board = Board(puzzle)
    for step in trace.steps:
        board.apply(step)
    return board


@pytest.mark.parametrize(("dataset", "least"), [("forum-hardest", 1), ("top1465", 50)])
def test_every_forcing_step_agrees_with_the_solution(dataset: str, least: int) -> None:
    """Every step each of the seven techniques can make (``every_step``, up to 150 each) on
    hard grids, where the cheaper techniques stall, removes no digit of the solution and
    places only its digits (forum-hardest's grids mostly defeat even forcing nets)."""
    rows = bundled(dataset)
    backtrack = get_backend("backtrack")
    checked = 0
    for row in rows[:: max(1, len(rows) // 6)][:6]:
        puzzle = Puzzle.parse(row["puzzle"])
        solution = backtrack.solve(puzzle, limit=1).solutions[0]
        board = _stalled_before_forcing(puzzle)
        for _, find in grouped.TECHNIQUES + tabling.TECHNIQUES:
            for number, step in enumerate(every_step(find, board)):
                if number == 150:
                    break
                assert all(solution[c] != d for c, d in step.eliminations), step.text
                assert all(solution[c] == d for c, d in step.placements), step.text
                assert all(board.has(c, d) for c, d in step.eliminations), step.text
                checked += 1
    assert checked >= least


def test_solves_agree_with_the_solution() -> None:
    """Whole solves with every technique: each step holds, and the forcing techniques finish
    grids the others leave (HoDoKu rates top1465's hardest with them)."""
    backtrack = get_backend("backtrack")
    used: set[str] = set()
    solved = 0
    for row in bundled("top1465")[:8]:
        puzzle = Puzzle.parse(row["puzzle"])
        solution = backtrack.solve(puzzle, limit=1).solutions[0]
        trace = solve_logically(puzzle, uniqueness=True)
        for step in trace.steps:
            used.add(step.technique)
            assert all(solution[c] != d for c, d in step.eliminations), step.text
            assert all(solution[c] == d for c, d in step.placements), step.text
        solved += trace.outcome == "solved"
    assert solved == 8
    assert used & {tabling.FCC, tabling.FCV, tabling.FNC, tabling.FNV}


def test_models_with_rules_keep_their_own_last_resort() -> None:
    """On a model with rules beyond groups the grouped chains and the forcing chains and nets
    find nothing (the AIC search with the rules' links and the variant forcing net, which
    follow the rules too, are that model's)."""
    from sudoku_cp.datasets import bundled_file
    from sudoku_cp.formats import read_input

    records = read_input(str(bundled_file("killer")))
    puzzle = next(r.puzzle for r in records if r.puzzle is not None)
    assert puzzle.model.rules
    board = Board(puzzle)
    for _, find in grouped.TECHNIQUES + tabling.TECHNIQUES:
        assert next(every_step(find, board), None) is None


def test_the_long_searches_stop_at_the_boards_deadline() -> None:
    """Each forcing chain and net search, grouped loop search and ALS-XY-Chain search, on a
    grid of a real solve where the solver took its step: with the board's deadline passed it
    stops before its first premise (or start), finds nothing and marks the board cut."""
    import time

    from sudoku_cp.logic import als

    long = dict(tabling.TECHNIQUES + grouped.TECHNIQUES)
    long[als.ALS_XY_CHAIN] = als.als_xy_chain
    covered: set[str] = set()
    for row in bundled("top1465")[:8]:
        puzzle = Puzzle.parse(row["puzzle"])
        board = Board(puzzle)
        for step in solve_logically(puzzle, uniqueness=True).steps:
            find = long.get(step.technique)
            if find is not None and step.technique not in covered:
                assert find(board) == step  # (no deadline: the solver's step)
                board.deadline = time.perf_counter() - 1
                assert find(board) is None, step.technique
                assert board.cut
                board.deadline, board.cut = None, False
                covered.add(step.technique)
            board.apply(step)
    assert {tabling.FCC, tabling.FNC, grouped.GDNL, als.ALS_XY_CHAIN} <= covered, covered


def test_a_solve_whose_forcing_search_meets_the_deadline_times_out() -> None:
    """The solver's deadline reaches the forcing searches: a round whose search stopped at it
    ends the solve as timed out, where without a deadline that search takes a step."""
    import time

    board = _stalled_before_forcing(Puzzle.parse(bundled("top1465")[0]["puzzle"]))
    puzzle = board.puzzle
    state = {"placed": list(board.values), "marks": list(board.candidates)}
    fcc = tabling.forcing_chain_contradiction
    free = solve_logically(puzzle, techniques=[fcc], max_steps=1, **state)  # type: ignore[arg-type]
    assert len(free.steps) == 1 and not free.timed_out

    def late(b: Board) -> object:
        # the real search, asked once the deadline has passed (as a long search would find it)
        while not b.deadline or time.perf_counter() < b.deadline:
            time.sleep(0.001)
        return fcc(b)

    cut = solve_logically(
        puzzle,
        techniques=[late],
        deadline=time.perf_counter() + 0.05,
        **state,  # type: ignore[arg-type, list-item]
    )
    assert cut.timed_out and not cut.steps and cut.outcome == "stalled"


def test_hodoku_9x9_families_stay_off_on_bigger_grids() -> None:
    """HoDoKu's families written for its 9×9 grid (ALS, Sue de Coq, Franken fish, grouped
    chains, forcing chains and nets) are in the default list up to side 9 only: on an empty
    16×16 grid Sue de Coq alone ran for minutes on one stalled state."""
    from sudoku_cp.logic.solver import HODOKU_SIDE, techniques

    nine = {e.find for e in TECHNIQUES if e.largest == HODOKU_SIDE}
    assert {"Sue de Coq", "ALS-XZ", "Forcing Net Verity", "Grouped AIC"} <= {
        e.name for e in TECHNIQUES if e.largest == HODOKU_SIDE
    }
    assert nine <= set(techniques(uniqueness=True, size=9))
    assert not nine & set(techniques(uniqueness=True, size=16))
    trace = solve_logically(Puzzle([0] * 256))
    assert trace.outcome == "stalled" and not trace.steps
