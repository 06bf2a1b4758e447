"""Links between candidates that rules give to the chains (sudoku_cp.logic.rule_links): each
expected link worked out from the rule's meaning in the comments; a chain that needs one, on a
real variant puzzle, checked against the setter's solution."""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_cp import Puzzle
from sudoku_cp.logic.board import Board
from sudoku_cp.logic.rule_links import rule_links
from sudoku_cp.model import load_model
from sudoku_cp.rules import XV, Cage, Difference, Rule, Thermometer


def board_of(rules: Sequence[Rule], marks: dict[int, Sequence[int]]) -> Board:
    model = load_model("classic").with_rules(rules=list(rules), size=9)
    board = Board(Puzzle([0] * 81, model))
    for cell, digits in marks.items():
        board.candidates[cell] = sum(1 << (d - 1) for d in digits)
    return board


def node(cell: int, digit: int) -> int:
    return cell * 9 + digit - 1


def test_a_v_gives_strong_and_weak_links() -> None:
    # V: r1c1 + r2c1 = 5. With r1c1 {1, 4, 6} and r2c1 {1, 4, 8} the fillings are 1+4 and
    # 4+1: a 1 in r1c1 or one in r2c1 (strong), the same for 4; r1c1=6 fits nothing beside
    # it, so it is weakly linked to every digit of r2c1; 1 and 1 is no filling (weak).
    board = board_of([XV((0, 9), 5)], {0: (1, 4, 6), 9: (1, 4, 8)})
    links = rule_links(board)
    assert node(9, 1) in links.strong[node(0, 1)]
    assert node(9, 4) in links.strong[node(0, 4)]
    assert node(9, 4) not in links.strong.get(node(0, 1), set())  # 1+4 is a filling
    assert {node(9, 1), node(9, 4), node(9, 8)} <= links.weak[node(0, 6)]
    assert node(9, 4) not in links.weak.get(node(0, 1), set())
    assert links.rule_of(node(0, 1), node(9, 1)) == "the V between r1c1-r2c1"


def test_a_thermometer_links_digits_that_do_not_rise() -> None:
    # a thermometer r1c1-r1c2-r1c3 rises from the bulb: r1c1=5 and r1c2=3 cannot both be, nor
    # r1c1=5 and r1c3=5 (two cells apart, and one row); r1c1=3 and r1c3=9 can (3 < x < 9)
    board = board_of([Thermometer((0, 1, 2))], {})
    links = rule_links(board)
    assert node(1, 3) in links.weak[node(0, 5)]
    assert node(2, 4) in links.weak[node(0, 3)]  # 3 < r1c2 < 4: nothing between
    assert node(2, 9) not in links.weak.get(node(0, 3), set())
    assert "thermometer" in (links.rule_of(node(0, 5), node(1, 3)) or "")


def test_a_two_cell_cage_and_a_dot() -> None:
    # a 4-cage r5c5 r5c6 with {1, 3} each: 1+3 or 3+1, so a 1 is in one of them (strong);
    # a white dot r9c1-r9c2 (digits differ by 1): 5 in r9c1 and 7 in r9c2 is no filling
    board = board_of([Cage((40, 41), 4), Difference((72, 73), 1)], {40: (1, 3), 41: (1, 3)})
    links = rule_links(board)
    assert node(41, 1) in links.strong[node(40, 1)]
    assert node(73, 7) in links.weak[node(72, 5)]
    assert node(73, 6) not in links.weak.get(node(72, 5), set())
    assert links.rule_of(node(72, 5), node(73, 7)) == "the white dot 1 between r9c1-r9c2"


def test_no_links_without_rules_and_none_from_placed_cells() -> None:
    board = board_of([Cage((40, 41), 4)], {})
    board.place(40, 1)
    links = rule_links(board)
    assert not any(n // 9 == 40 for n in (*links.strong, *links.weak))


def _group_link(puzzle: Puzzle, candidates: Sequence[int], link: object) -> bool:
    """Whether groups alone give ``link`` (the chains' meaning of links without rules): weak
    between two digits of a cell or one digit in two cells of a group; strong between the two
    digits of a bivalue cell or a digit's only two places in a full group."""
    (a, x), (b, y), strong = link.start, link.end, link.strong  # type: ignore[attr-defined]
    groups = puzzle.groups()
    if not strong:
        return (a == b and x != y) or (x == y and any(a in g and b in g for g in groups))
    if a == b:
        return candidates[a].bit_count() == 2
    full = [g for g in groups if len(g) == puzzle.size and a in g and b in g]
    return x == y and any(
        [c for c in g if candidates[c] >> (x - 1) & 1] == sorted((a, b)) for g in full
    )


def test_a_chain_through_a_quadruple_on_a_published_puzzle() -> None:
    # variants9 #10 (quadruples only): an AIC runs through a strong link the quadruple 36
    # gives (r8c5=3 or r7c6=6: the quadruple needs a 3 and a 6 there, and its other cells
    # can hold neither), and removes 7 from r6c6, which the quadruple 2367 links weakly to
    # r7c6=6. Every such step is checked against the setter's solution.
    from sudoku_cp.datasets import bundled_file
    from sudoku_cp.formats import read_input
    from sudoku_cp.logic.solver import solve_logically

    path = bundled_file("variants9")
    assert path is not None
    records = list(read_input(str(path), model=load_model("classic")))
    puzzle = records[9].puzzle
    assert puzzle is not None and puzzle.published is not None
    truth = puzzle.published
    trace = solve_logically(puzzle)
    assert trace.outcome == "solved" and trace.values == tuple(truth)
    chained = [s for s in trace.steps if "Links from rules:" in s.text]
    assert chained
    for step in chained:
        assert all(truth[c] != d for c, d in step.eliminations), step.text
        assert all(truth[c] == d for c, d in step.placements), step.text
        assert "the quadruple" in step.text
    # at least one of them has a link groups alone do not give
    assert any(
        not _group_link(puzzle, step.candidates, link) for step in chained for link in step.links
    )


def test_an_x_chain_through_a_thermometer_on_a_published_puzzle() -> None:
    # variants9 #2: two cells of one thermometer never hold the same digit (it rises), so 3 in
    # r8c3 and 3 in r9c4 — diagonal neighbours, in no common group — are weakly linked; a
    # one-digit chain (Turbot Fish / X-Chain) runs through that link.
    from sudoku_cp.datasets import bundled_file
    from sudoku_cp.formats import read_input
    from sudoku_cp.logic.solver import solve_logically

    path = bundled_file("variants9")
    assert path is not None
    puzzle = list(read_input(str(path), model=load_model("classic")))[1].puzzle
    assert puzzle is not None and puzzle.published is not None
    truth = puzzle.published
    steps = [
        s
        for s in solve_logically(puzzle).steps
        if s.technique in ("X-Chain", "Turbot Fish") and "by the thermometer" in s.text
    ]
    assert steps
    for step in steps:
        assert all(truth[c] != d for c, d in step.eliminations), step.text
        digits = {d for link in step.links for _, d in (link.start, link.end)}
        assert len(digits) == 1  # one digit, as X-Chains are
        assert any(not _group_link(puzzle, step.candidates, link) for link in step.links)
