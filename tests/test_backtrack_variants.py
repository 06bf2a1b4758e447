"""The ``backtrack`` backend on the part-2 rules (issue 15): it propagates every shape (pairs,
digits, sums, triples, sandwiches, quadruples) rather than checking full grids, its teaching
strategies check every rule on each assignment, and it never calls the validator's checkers.

Counts come from elsewhere: the catalogue's (tests/variants.py, full enumeration), CP-SAT's
where it declares the rules, and the validator on every solution. What propagation leaves is
tested on the candidates it leaves: a digit it removes must be impossible in every solution,
which the counts confirm; here the point is that it *is* removed before any search.
"""

from __future__ import annotations

import contextlib
import functools

import pytest
from variants import MAX_COUNT, catalogue, solutions

from sudoku_cp import Puzzle, PuzzleError, Status, get_backend
from sudoku_cp.backends import backend_class
from sudoku_cp.backends.backtrack import search as backtrack
from sudoku_cp.backends.backtrack import shapes as backtrack_shapes
from sudoku_cp.model import load_model
from sudoku_cp.rules import (
    RULE_KINDS,
    XV,
    Arrow,
    BetweenLine,
    Difference,
    Even,
    LittleKiller,
    Negative,
    Odd,
    Quadruple,
    Ratio,
    Rule,
    Sandwich,
    Thermometer,
    Whispers,
)
from tools.perf.mixed_rules import main, mixed_puzzles

CLASSIC = load_model("classic")
TEACHING = ("naive", "ordered", "mrv")
ALL = set(range(1, 10))


def left_after_propagation(puzzle: Puzzle) -> list[set[int]] | None:
    """Each cell's candidates once the fast strategy's propagation has run on the givens, with
    no branch (None: it found a dead end)."""
    lay = backtrack.layout(puzzle.model, puzzle.size)
    candidates, solved = backtrack._start(puzzle, lay)
    stats = {"propagations": 0}
    state = backtrack._propagate(lay, candidates, solved, 0, stats)
    if state is None:
        return None
    packed = state[0]
    return [
        {d + 1 for d, shift in enumerate(lay.shifts) if packed >> (shift + cell) & 1}
        for cell in range(lay.cells)
    ]


def blank(*rules: Rule, givens: dict[int, int] | None = None) -> Puzzle:
    cells = [0] * 81
    for cell, digit in (givens or {}).items():
        cells[cell] = digit
    return Puzzle(cells, CLASSIC.with_rules(rules=rules, size=9))


# --- propagation prunes before any search --------------------------------------------------------
def test_a_nine_cell_thermometer_is_fixed_from_both_ends() -> None:
    diagonal = tuple(range(0, 81, 10))
    left = left_after_propagation(blank(Thermometer(diagonal)))
    assert left is not None
    assert [left[c] for c in diagonal] == [{d} for d in range(1, 10)]


def test_a_short_thermometer_gets_bounds_from_both_ends() -> None:
    left = left_after_propagation(blank(Thermometer((0, 1, 2, 3))))
    assert left is not None
    assert [left[c] for c in (0, 1, 2, 3)] == [set(range(k, k + 6)) for k in range(1, 5)]


THERMO_PUZZLE = "..8.5..9..49.......6...4.5....6.....8...1.5.9.....7.8.................7......3..5"
THERMO_LINE = (60, 51, 61, 69, 59, 68, 76, 66, 67)
"""Givens with two or more classic solutions that a 9-cell thermometer makes unique (found by
taking givens away from a 17-clue puzzle's solution while backtrack still needed no branch)."""


def test_the_thermometer_alone_settles_the_puzzle_with_no_branch() -> None:
    backend = get_backend("backtrack")
    classic = Puzzle.parse(THERMO_PUZZLE)
    assert backend.solve(classic, limit=2).count == 2  # the givens alone do not decide it
    puzzle = Puzzle(classic.cells, CLASSIC.with_rules(rules=[Thermometer(THERMO_LINE)], size=9))
    result = backend.solve(puzzle, limit=2)
    assert result.status is Status.UNIQUE and puzzle.is_solution(result.solution)
    assert result.stats["nodes"] == 0 and result.stats["backtracks"] == 0


def test_arrows_bound_the_circle_and_the_line() -> None:
    left = left_after_propagation(blank(Arrow((0,), (1, 2))))
    assert left is not None
    assert 1 not in left[0] and 9 not in left[1] and 9 not in left[2]
    left = left_after_propagation(blank(Arrow((0,), (1, 2)), givens={0: 3}))
    assert left is not None and left[1] == left[2] == {1, 2}
    # A pill reads as a two-digit number: three cells make at most 27, so it starts with 1 or 2.
    left = left_after_propagation(blank(Arrow((0, 1), (9, 10, 11))))
    assert left is not None and left[0] == {1, 2}


def test_a_little_killer_bounds_each_cell() -> None:
    left = left_after_propagation(blank(LittleKiller((2, 12, 22), 24)))
    assert left is not None
    assert all(left[c] == {6, 7, 8, 9} for c in (2, 12, 22))


def test_a_sandwich_places_the_one_and_the_nine() -> None:
    row = tuple(range(9))
    left = left_after_propagation(blank(Sandwich(row, 35)))  # 2 + … + 8: 1 and 9 at the ends
    assert left is not None
    assert left[0] == left[8] == {1, 9} and all(left[c] == set(range(2, 9)) for c in row[1:8])
    # Nothing between: the 9 goes beside the given 1.
    left = left_after_propagation(blank(Sandwich(row, 0), givens={0: 1}))
    assert left is not None and left[1] == {9}
    # The sum 2 between them: one cell, holding the 2.
    left = left_after_propagation(blank(Sandwich(row, 2), givens={3: 1, 5: 9}))
    assert left is not None and left[4] == {2}


def test_a_sandwich_keeps_its_digit_sets_between_and_out_of_the_rest() -> None:
    # Two cells between the 1 and the 9 summing to 5: 2 and 3, so no other cell of the row
    # may hold them (the row's group alone would not know that yet).
    left = left_after_propagation(blank(Sandwich(tuple(range(9)), 5), givens={0: 1, 3: 9}))
    assert left is not None
    assert left[1] == left[2] == {2, 3}
    assert all(left[c] == set(range(4, 9)) for c in range(4, 9))


def test_sandwich_bounds_alone_are_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where a sandwich has too many digit sets to list (big grids) its cells between are
    # bounded by the sum alone: force that path on the catalogue's sandwiches.
    monkeypatch.setattr(backtrack_shapes, "MAX_COMBOS", 0)
    caches = (backtrack_shapes.cage_combos, backtrack.layout)
    for cache in caches:
        cache.cache_clear()
    try:
        entries = [e for e in ENTRIES if "sandwich" in e.name]
        assert len(entries) >= 9
        for entry in entries:
            result = get_backend("backtrack").solve(entry.puzzle, limit=None)
            assert sorted(result.solutions) == solutions(entry.puzzle), entry.name
    finally:
        for cache in caches:
            cache.cache_clear()


def test_a_sandwich_no_placement_can_make_is_a_dead_end() -> None:
    # Between the 1 and the 9 of a row: at most 2 + … + 8 = 35.
    assert left_after_propagation(blank(Sandwich(tuple(range(9)), 36))) is None


def test_between_lines_keep_the_middle_inside_the_ends() -> None:
    left = left_after_propagation(blank(BetweenLine((0, 1, 2, 3)), givens={0: 2, 3: 6}))
    assert left is not None and left[1] == left[2] == {3, 4, 5}
    left = left_after_propagation(blank(BetweenLine((0, 10, 20))))
    assert left is not None and left[10] == ALL - {1, 9} and left[0] == ALL


def test_quadruples_force_digits_and_fail_when_they_cannot_fit() -> None:
    box = (0, 1, 9, 10)
    left = left_after_propagation(blank(Quadruple(box, (1, 2, 3, 4))))
    assert left is not None and all(left[c] == {1, 2, 3, 4} for c in box)
    left = left_after_propagation(blank(Quadruple(box, (5,)), givens={0: 1, 1: 2, 9: 3}))
    assert left is not None and left[10] == {5}
    # The 5 given elsewhere in the box has no place left among the four cells.
    assert left_after_propagation(blank(Quadruple(box, (5,)), givens={20: 5})) is None


def test_dots_xv_and_whispers_prune_their_cells() -> None:
    left = left_after_propagation(blank(Ratio((0, 1))))
    assert left is not None and left[0] == left[1] == {1, 2, 3, 4, 6, 8}
    left = left_after_propagation(blank(XV((0, 1), 5)))
    assert left is not None and left[0] == {1, 2, 3, 4}
    left = left_after_propagation(blank(Whispers((0, 1, 2), 5)))
    assert left is not None and all(5 not in left[c] for c in (0, 1, 2))
    left = left_after_propagation(blank(Difference((0, 1)), givens={0: 5}))
    assert left is not None and left[1] == {4, 6}


def test_arc_consistency_works_from_open_cells_not_only_settled_ones() -> None:
    # No cell is settled: the V leaves its cells 1..4, and the black dot beside it keeps only
    # the digits with a double or a half among those (3 has neither: 6 and 1.5).
    left = left_after_propagation(blank(XV((0, 1), 5), Ratio((1, 2))))
    assert left is not None
    assert left[1] == {1, 2, 3, 4} and left[2] == {1, 2, 4, 6, 8}


def test_odd_and_even_cells_start_with_their_digits() -> None:
    left = left_after_propagation(blank(Odd((0, 1)), Even((2,))))
    assert left is not None
    assert left[0] == left[1] == {1, 3, 5, 7, 9} and left[2] == {2, 4, 6, 8}
    # A given of the wrong parity is invalid on its own (issue 35's one rule for givens); an odd
    # cell whose row's givens take every odd digit has no solution, on every strategy.
    with pytest.raises(PuzzleError, match="r1c1 is odd but holds 2"):
        blank(Odd((0,)), givens={0: 2})
    puzzle = blank(Odd((0,)), givens={1: 1, 2: 3, 3: 5, 4: 7, 5: 9})
    for strategy in ("fast", *TEACHING):
        result = get_backend("backtrack").solve(puzzle, limit=2, strategy=strategy)
        assert result.status is Status.NONE and result.exact, strategy


def test_negative_pairs_are_propagated_both_ways() -> None:
    pairs = ((0, 1), (1, 2))
    left = left_after_propagation(blank(Negative("difference", pairs, (1,)), givens={1: 5}))
    assert left is not None and left[0] == left[2] == ALL - {4, 5, 6}


OVERLAPPING = {
    "an arrow's circle in a sandwich's column": [
        Sandwich(tuple(range(0, 81, 9)), 20),
        Arrow((45,), (46, 47)),
    ],
    "an arrow on a between line's end": [BetweenLine((0, 10, 20)), Arrow((20,), (21, 22))],
    "a thermometer through a little killer and a quadruple": [
        LittleKiller((0, 10, 20, 30), 14),
        Thermometer((10, 11, 12)),
        Quadruple((11, 12, 20, 21), (2, 7)),
    ],
}


@pytest.mark.parametrize("name", OVERLAPPING)
def test_rules_sharing_cells_are_all_woken(name: str) -> None:
    # Bug: the cells that wake the rules were summed, not or-ed, so a cell of two rules
    # carried into another cell's bit and the arrow was never looked at again.
    puzzle = blank(*OVERLAPPING[name])
    result = get_backend("backtrack").solve(puzzle, limit=5, time_limit=60)
    assert result.count == 5
    for grid in result.solutions:
        assert puzzle.is_solution(grid), puzzle.problems_with(grid)


# --- every strategy, every catalogue puzzle ----------------------------------------------------
ENTRIES = [entry for entry in catalogue() if entry.count <= MAX_COUNT]


@pytest.mark.parametrize("strategy", TEACHING)
def test_the_teaching_strategies_count_every_catalogue_puzzle(strategy: str) -> None:
    backend = get_backend("backtrack")
    for entry in ENTRIES:
        result = backend.solve(entry.puzzle, limit=None, strategy=strategy, time_limit=60)
        assert result.exact, (entry.name, strategy)
        assert sorted(result.solutions) == solutions(entry.puzzle), (entry.name, strategy)


def test_every_rule_kind_is_declared_and_compiled() -> None:
    assert get_backend("backtrack").rules == frozenset(RULE_KINDS)
    keys = {key for entry in ENTRIES for key in entry.puzzle.model.rule_keys}
    assert keys == set(RULE_KINDS)  # the catalogue tries each of them


@pytest.mark.parametrize("strategy", ("fast", *TEACHING))
def test_the_backend_never_calls_the_validators_checkers(
    strategy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The validator must share no code with the backends: with every rule's checker broken,
    # the backend still counts right (the expected counts are taken before the break).
    expected = {entry.name: solutions(entry.puzzle) for entry in ENTRIES}

    def broken(self: Rule, grid: object, size: int) -> list[str]:
        raise AssertionError(f"backtrack called {type(self).__name__}.problems")

    for kind in RULE_KINDS.values():
        monkeypatch.setattr(kind, "problems", broken)
    backend = get_backend("backtrack")
    for entry in ENTRIES:
        result = backend.solve(entry.puzzle, limit=None, strategy=strategy, time_limit=60)
        assert sorted(result.solutions) == expected[entry.name], entry.name


# --- 9x9 mixed-rule puzzles, against CP-SAT where it compiles them -----------------------------
@functools.cache
def mixed() -> tuple[Puzzle, ...]:
    return tuple(mixed_puzzles(6, seed=15))


def test_mixed_puzzles_have_the_solution_they_were_drawn_on() -> None:
    backend = get_backend("backtrack")
    for puzzle in mixed():
        result = backend.solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE
        assert puzzle.is_solution(result.solution), puzzle.problems_with(result.solution)


def _variations(puzzle: Puzzle) -> list[Puzzle]:
    """The puzzle, with no givens (many solutions or few), and with its first given changed
    (most often none)."""
    cells = list(puzzle.cells)
    first = next(c for c, d in enumerate(cells) if d)
    changed = list(cells)
    changed[first] = cells[first] % 9 + 1
    out = [puzzle, puzzle.with_cells([0] * 81)]
    with contextlib.suppress(PuzzleError):  # the changed given repeats another in a group
        out.append(puzzle.with_cells(changed))
    return out


@pytest.mark.parametrize("other", ["cpsat", "sat"])
def test_mixed_puzzles_agree_with_another_paradigm(other: str) -> None:
    if backend_class(other).unavailable_reason():
        pytest.skip(f"{other} is not installed")
    solver = get_backend(other)
    puzzles = [p for p in mixed() if solver.refusal(p) is None]
    if not puzzles:
        pytest.skip(f"{other} declares none of these puzzles' rules yet")
    backend = get_backend("backtrack")
    for puzzle in puzzles:
        for variation in _variations(puzzle):
            mine = backend.solve(variation, limit=3, time_limit=60)
            theirs = solver.solve(variation, limit=3, time_limit=60)
            assert mine.exact == theirs.exact and mine.count == theirs.count
            assert all(variation.is_solution(grid) for grid in mine.solutions)


def test_the_mixed_rule_benchmark_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--count", "2", "--backends", "backtrack", "--repeat", "1"])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("backtrack"))
    assert row.split()[-4:] == ["2", "0", "0", "0"]  # solved, refused, timed out, wrong


def test_the_mixed_rule_benchmark_caps_its_numbers() -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--count", "201"])
    assert stop.value.code == 2
