"""ALS nodes in grouped chains (``sudoku_cp.logic.grouped`` with ``als_nodes=True``, HoDoKu's
``allowAlsInTablingChains``) on the boards of HoDoKu's regression library that turn them on
(variants 0709-2, 0710-3/4, 0711-3/4 of ``tests/data/reglib-1.4.txt``). Whether each case
gives HoDoKu's eliminations is ``tests/test_reglib.py``'s; here: every step is sound, and the
links of an ALS node are what its definition says, worked out from the board's peers."""

from __future__ import annotations

import pytest

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.logic import chain_tables, grouped
from sudoku_cp.logic.board import Board
from tools.perf.reglib import read_cases

VARIANTS = {("0709", "2"), ("0710", "3"), ("0710", "4"), ("0711", "3"), ("0711", "4")}
OPTION_CASES = [c for c in read_cases() if (c.code, c.variant) in VARIANTS]


def _solution(board: Board) -> list[int]:
    """The solution of the case's grid (the backtracker's, from the digits placed), checked to
    fit the candidates the library left."""
    solutions = get_backend("backtrack").solve(Puzzle(list(board.values)), limit=2).solutions
    fits = [s for s in solutions if all(board.candidates[c] >> (s[c] - 1) & 1 for c in range(81))]
    assert len(fits) == 1
    return list(fits[0])


def test_there_are_cases_of_each_option_variant() -> None:
    assert {(c.code, c.variant) for c in OPTION_CASES} == VARIANTS
    assert len(OPTION_CASES) >= 40


@pytest.mark.parametrize("case", OPTION_CASES, ids=lambda c: f"line{c.line}")
def test_every_step_with_als_nodes_is_sound(case: object) -> None:
    board = case.board  # type: ignore[attr-defined]
    solution = _solution(board)
    steps = 0
    for name in (grouped.GCNL, grouped.GDNL, grouped.GAIC):
        for step in grouped.search_grouped_chains(board, name, als_nodes=True):
            steps += 1
            assert all(solution[c] != d for c, d in step.eliminations), step.text
            assert all(solution[c] == d for c, d in step.placements), step.text
    assert steps


def _sees_all(board: Board, cell: int, cells: list[int]) -> bool:
    return all(cell != c and c in board.peers[cell] for c in cells)


@pytest.mark.parametrize("case", OPTION_CASES[::9], ids=lambda c: f"line{c.line}")
def test_an_als_node_links_as_its_definition_says(case: object) -> None:
    """Into the node: a candidate of the entry digit outside seeing every place of it in the
    ALS, or a group node of it all of whose cells do. Out of it (the ALS locked on its other
    digits): false, every candidate of another digit seeing all of that digit's places."""
    board = case.board  # type: ignore[attr-defined]
    graph = chain_tables.ChainGraph(board, als_nodes=True)
    assert graph.als
    count = graph.count
    for node, als in graph.als.items():
        x = graph.digit[node]
        cells = [c for c in range(81) if als.cells >> c & 1]
        assert len(cells) >= 2
        digits = {d for c in cells for d in range(1, 10) if board.has(c, d)}
        assert len(digits) == len(cells) + 1
        places = {d: [c for c in cells if board.has(c, d)] for d in digits}
        entries = {
            lit
            for lit in range(graph.candidates)
            if graph.digit[lit] == x and _sees_all(board, graph.cell(lit), places[x])
        }
        entries |= {
            g
            for g in range(graph.candidates, graph.groups_end)
            if graph.digit[g] == x
            and all(_sees_all(board, c, places[x]) for c in range(81) if graph.mask[g] >> c & 1)
        }
        into = {lit for lit in range(graph.groups_end) if graph.succ[lit] >> node & 1}
        assert into == entries, (graph.name(node), x)
        gone = {
            (c, d)
            for d in digits - {x}
            for c in range(81)
            if c not in cells and board.has(c, d) and _sees_all(board, c, places[d])
        }
        out_false = {
            graph.node_of_candidate(lit)
            for lit in range(graph.candidates)
            if graph.succ[node] >> (lit + count) & 1
        }
        assert out_false == gone, graph.name(node)
        assert graph.succ[node + count] == 0  # "the entry digit is in the ALS" implies nothing


def test_the_solver_s_graph_has_no_als_nodes_and_names_are_checked() -> None:
    board = OPTION_CASES[0].board
    graph = chain_tables.chain_graph(board)
    assert graph is not None and not graph.als
    with_als = chain_tables.chain_graph(board, als_nodes=True)
    assert with_als is not None and with_als.als and with_als is not graph
    with pytest.raises(ValueError, match="not a grouped chain technique"):
        list(grouped.search_grouped_chains(board, "X-Wing", als_nodes=True))
