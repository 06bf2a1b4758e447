"""The ``sums`` option of ``cpsat`` and ``sat`` (plain, folded, grouped: weighted sums with
what the groups say about them, :mod:`sudoku_cp.backends.groupsums`): the rewritings read
from their meaning, and every setting agreeing with the plain encoding, with the validator and
with the published solutions, in counts and in solutions.

The small oracles are the validator's: every grid of the classic model with the same givens
(enumerated without the sum rules) kept when ``Puzzle.is_solution`` accepts it.
"""

from __future__ import annotations

import pytest

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.backends.groupsums import cliques, folded_terms
from sudoku_cp.datasets import load_puzzles
from sudoku_cp.model import load_model
from sudoku_cp.rules import Arrow, Cage, LittleKiller, Rule

pytest.importorskip("pysat")
pytest.importorskip("ortools")

SETTINGS = [
    (backend, sums) for backend in ("cpsat", "sat") for sums in ("plain", "folded", "grouped")
] + [("cpsat", "auto"), ("sat", "auto")]
CLASSIC = load_model("classic")


def test_folding_a_row_leaves_the_cell_it_misses() -> None:
    # Eight cells of a row sum to 40: the ninth holds 45 - 40 = 5, i.e. -x0 == -5.
    row = tuple(range(9))
    assert folded_terms([(c, 1) for c in range(1, 9)], 40, [row], 9) == (((0, -1),), -5)


def test_folding_keeps_a_sum_that_would_grow() -> None:
    # Four cells of a nine-cell row: folding would leave five, so nothing changes.
    row = tuple(range(9))
    terms = tuple((c, 1) for c in range(4))
    assert folded_terms(terms, 10, [row], 9) == (terms, 10)


def test_folding_an_arrow_along_most_of_a_row_and_a_column() -> None:
    # A circle r1c1 whose line is the rest of row 1 and the rest of column 1 (4x4, sum 10
    # per group): x0 = (10 - x0) + (10 - x0), so 3·x0 = 20 — no digit: no grid.
    row, column = (0, 1, 2, 3), (0, 4, 8, 12)
    terms = Arrow((0,), (1, 2, 3, 4, 8, 12)).terms(4)
    assert folded_terms(terms, 0, [row, column], 4) == (((0, -3),), -20)


def test_folding_ignores_groups_shorter_than_the_grid() -> None:
    # A cage of three cells does not sum to 45: it is no full group.
    assert folded_terms([(0, 1), (1, 1), (2, 1)], 20, [(0, 1, 2)], 9) == (
        ((0, 1), (1, 1), (2, 1)),
        20,
    )


def test_cliques_take_the_largest_group_share_first() -> None:
    box, diagonal = (0, 1, 4, 5), (0, 5, 10, 15)
    assert cliques([0, 5, 10, 15], [box, diagonal]) == [(0, 5, 10, 15)]
    assert cliques([0, 5, 10, 15], [box]) == [(0, 5), (10,), (15,)]
    assert cliques([3], [box]) == [(3,)]


def oracle(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """Every solution by the validator: the classic grids with these givens, enumerated
    without the sum rules, kept where ``is_solution`` accepts them."""
    plain = Puzzle(puzzle.cells, CLASSIC)
    grids = get_backend("backtrack").solve(plain, limit=None).solutions
    return {grid for grid in grids if puzzle.is_solution(grid)}


def with_rules(cells: list[int], size: int, *rules: Rule) -> Puzzle:
    return Puzzle(cells, CLASSIC.with_rules(rules=rules, size=size))


SMALL = {
    # 4x4, no givens: three cells of row 1 summing to 7 leave r1c1 = 3; 72 of the 288 grids
    # (relabelling digits maps the grids with r1c1 = 3 one to one onto those with any digit).
    "little killer on most of a row": with_rules([0] * 16, 4, LittleKiller((1, 2, 3), 7)),
    # 4x4: the main diagonal's cells pair up inside boxes 1 and 4 (two cliques).
    "little killer across two boxes": with_rules([0] * 16, 4, LittleKiller((0, 5, 10, 15), 7)),
    # 4x4: r1c1 is the sum of the rest of its row, 10 - r1c1: it would be 5. No grid.
    "arrow along its own row": with_rules([0] * 16, 4, Arrow((0,), (1, 2, 3))),
    # 6x6 pill r2c1-r2c2 (a two-digit number) and row 1 but r1c6 as its line: 21 - r1c6,
    # so the pill reads 15..20; and a little killer up a diagonal whose first two cells share
    # a box. The givens (a column in three and the last row of a grid with both rules) leave
    # 72 classic grids to check.
    "pill on most of a row": with_rules(
        [2, 0, 0, 1, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 5, 0, 0]
        + [5, 0, 0, 3, 0, 0, 4, 0, 0, 6, 0, 0, 6, 2, 3, 4, 1, 5],
        6,
        Arrow((6, 7), (0, 1, 2, 3, 4)),
        LittleKiller((30, 25, 20, 15), 14),
    ),
    # 4x4 killer cages beside the sums (grouped on cpsat states its group facts for them):
    # a little killer on three cells of column 1 (so r1c1 = 10 - 9) and two cages.
    "cages and a little killer": with_rules(
        [0] * 16, 4, Cage((0, 1), 3), Cage((10, 11, 15), 6), LittleKiller((4, 8, 12), 9)
    ),
}


@pytest.mark.parametrize("name", list(SMALL))
@pytest.mark.parametrize(("backend", "sums"), SETTINGS)
def test_small_grids_every_solution(name: str, backend: str, sums: str) -> None:
    puzzle = SMALL[name]
    expected = oracle(puzzle)
    result = get_backend(backend).solve(puzzle, limit=None, sums=sums)
    assert result.exact
    assert len(result.solutions) == result.count == len(expected)
    assert set(result.solutions) == expected


def test_small_counts_from_the_rules_meaning() -> None:
    assert len(oracle(SMALL["little killer on most of a row"])) == 72
    assert oracle(SMALL["arrow along its own row"]) == set()
    for name in (
        "little killer across two boxes",
        "pill on most of a row",
        "cages and a little killer",
    ):
        assert oracle(SMALL[name]), name  # each has solutions to compare


REAL = [("variants9", i) for i in (7, 8, 12, 15, 17, 19)] + [
    ("published", i) for i in (6, 10, 39, 60, 62, 66)
]
"""Bundled puzzles with arrows, little killers, region-sum lines and killer cages that every
setting decides in well under a second (the slow ones are benchmarks, not tests)."""


@pytest.mark.parametrize(("dataset", "index"), REAL)
def test_bundled_puzzles_agree_with_plain_and_published(dataset: str, index: int) -> None:
    puzzle = load_puzzles(dataset)[index]
    answers = {}
    for backend, sums in SETTINGS:
        result = get_backend(backend).solve(puzzle, limit=2, time_limit=60, sums=sums)
        assert result.exact, (backend, sums, result.status)
        for grid in result.solutions:
            assert puzzle.is_solution(grid), puzzle.problems_with(grid)
        answers[backend, sums] = sorted(result.solutions)
    plain = answers["cpsat", "plain"]
    assert all(found == plain for found in answers.values()), answers
    if puzzle.published is not None:
        assert plain == [tuple(puzzle.published)]


@pytest.mark.parametrize("sums", ["folded", "grouped"])
def test_triple_digits_folded(sums: str) -> None:
    # variants9's "Triple digits": arrows along most of three rows and columns into circles
    # of three cells. Unfolded, sat did not decide it in 20 s; folded it is quick.
    puzzle = load_puzzles("variants9")[16]
    for backend in ("cpsat", "sat"):
        result = get_backend(backend).solve(puzzle, limit=2, time_limit=60, sums=sums)
        assert result.exact and result.count == 1
        assert puzzle.is_solution(result.solutions[0])
        if puzzle.published is not None:
            assert result.solutions[0] == tuple(puzzle.published)


def test_the_option_is_checked() -> None:
    from sudoku_cp import BackendError

    for backend in ("cpsat", "sat"):
        with pytest.raises(BackendError, match="sums"):
            get_backend(backend).solve(Puzzle([0] * 16), sums="tables")


def test_auto_groups_where_cages_meet_sums() -> None:
    from sudoku_cp.backends.cpsat import sums_for

    puzzles = load_puzzles("variants9")
    # Hailstone: killer cages and little killers; Triple digits: arrows, no cages.
    assert sums_for(puzzles[23], "auto") == "grouped"
    assert sums_for(puzzles[16], "auto") == "folded"
    assert sums_for(load_puzzles("killer")[0], "auto") == "folded"  # cages, no other sums


def test_sat_auto_groups_where_there_are_no_cages() -> None:
    from sudoku_cp.backends.sat.backend import resolve_sums

    puzzles = load_puzzles("variants9")
    assert resolve_sums(puzzles[13], "auto") == "grouped"  # little killers only
    assert resolve_sums(puzzles[23], "auto") == "folded"  # killer cages too
    assert resolve_sums(puzzles[23], "grouped") == "grouped"  # a setting given stays
