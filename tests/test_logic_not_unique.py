"""A puzzle with more than one solution is neither explained nor rated, and the techniques that
assume one solution never take a step on it.

The two-solution puzzle below is a published grid's solution (top1465) with a unique
rectangle's four cells and more cells emptied; its two solutions are counted here by two
paradigms (``sat`` and ``dlx``), not by the code under test. Before the guard, ``rate`` gave it
Hard with a Hidden Rectangle, ``explain`` "solved without guessing": the rectangle's step
removed a true candidate and the solve reached one of the two solutions.
"""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.cli import main
from sudoku_cp.errors import NotUniqueError
from sudoku_cp.hint import next_hint
from sudoku_cp.logic.rating import TimeCapReached, rate_puzzle
from sudoku_cp.logic.solver import solve_logically

TWO = ".68..1...7..6.4......5..46.13..5.2..2..4...7.......3..8...927.........42..7...18."
"""Two solutions (a deadly pattern the givens leave open)."""
EMPTY = "." * 81
UNIQUE_WITH_UR = (  # top1465 #1: its HoDoKu path uses Uniqueness Test 1 and a Hidden Rectangle
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
)


@pytest.fixture(scope="module")
def two_solutions() -> tuple[tuple[int, ...], ...]:
    puzzle = Puzzle.parse(TWO)
    found = [get_backend(name).solve(puzzle, limit=3) for name in ("sat", "dlx")]
    assert all(result.exact and len(result.solutions) == 2 for result in found)
    assert set(found[0].solutions) == set(found[1].solutions)
    return found[0].solutions


def test_rating_refuses_two_solutions(two_solutions: object) -> None:
    with pytest.raises(NotUniqueError, match="more than one solution"):
        rate_puzzle(Puzzle.parse(TWO))


def test_uniqueness_steps_wait_for_the_count(two_solutions: object) -> None:
    with pytest.raises(NotUniqueError, match="would take wrong steps"):
        solve_logically(Puzzle.parse(TWO), uniqueness=True)


def test_without_uniqueness_every_step_holds_for_both_solutions(
    two_solutions: tuple[tuple[int, ...], ...],
) -> None:
    trace = solve_logically(Puzzle.parse(TWO), uniqueness=False)
    assert trace.outcome == "stalled"
    for solution in two_solutions:
        for step in trace.steps:
            assert all(solution[cell] != digit for cell, digit in step.eliminations)
            assert all(solution[cell] == digit for cell, digit in step.placements)
    with pytest.raises(NotUniqueError, match="techniques stall"):
        rate_puzzle(Puzzle.parse(TWO), uniqueness=False)


def test_a_stall_on_many_solutions_is_not_rated_extreme() -> None:
    with pytest.raises(NotUniqueError, match="techniques stall"):
        rate_puzzle(Puzzle.parse(EMPTY))


def test_unique_puzzles_rate_as_before() -> None:
    puzzle = Puzzle.parse(UNIQUE_WITH_UR)
    checked = rate_puzzle(puzzle)
    known = rate_puzzle(puzzle, unique=True)  # (no count: the plain solve)
    assert checked == known
    assert checked.outcome == "solved"
    assert "Uniqueness Test 1" in dict(checked.techniques)


def test_hint_says_why_it_stalls(two_solutions: object) -> None:
    hint = next_hint(Puzzle.parse(EMPTY))
    assert hint.outcome == "stalled" and hint.unique is False
    assert "more than one solution" in hint.text


@pytest.mark.parametrize(
    "args",
    [
        ["rate", TWO],
        ["rate", "--no-uniqueness", TWO],
        ["rate", EMPTY],
        ["rate", "--format", "json", TWO],
        ["explain", TWO],
        ["explain", "--no-uniqueness", TWO],
        ["explain", "--format", "json", EMPTY],
    ],
)
def test_cli_one_line_and_exit_1(args: list[str], two_solutions: object) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    errors = [line for line in result.stderr.splitlines() if line]
    assert len(errors) == 1 and "puzzle 1: has more than one solution" in errors[0]
    assert "solved" not in result.stdout and "Extreme" not in result.stdout
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_hint_exit_3_and_the_reason() -> None:
    result = CliRunner().invoke(main, ["explain", "--hint", EMPTY])
    assert result.exit_code == 3
    assert "more than one solution" in result.stdout


# --- the HoDoKu scale's time cap (rate/explain --time-cap) ---------------------------------------
def test_a_rating_past_its_deadline_is_no_rating() -> None:
    puzzle = Puzzle.parse(UNIQUE_WITH_UR)
    with pytest.raises(TimeCapReached, match="time cap"):
        rate_puzzle(puzzle, deadline=time.perf_counter() - 1.0)
    assert rate_puzzle(puzzle, deadline=time.perf_counter() + 600) == rate_puzzle(puzzle)


def test_cli_takes_the_cap_on_hodokus_scale() -> None:
    plain = CliRunner().invoke(main, ["rate", "-f", "json", UNIQUE_WITH_UR])
    capped = CliRunner().invoke(main, ["rate", "-f", "json", "--time-cap", "600", UNIQUE_WITH_UR])
    assert plain.exit_code == capped.exit_code == 0
    assert plain.stdout == capped.stdout
