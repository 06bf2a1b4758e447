"""Deduction is sound: no placement or elimination contradicts any solution, checked against
solutions found independently (full enumeration on small grids, the backtracker on 9x9), and
the logic backend never contradicts the search backends."""

from __future__ import annotations

import csv
import random

import pytest
from puzzles import DATA, INKALA, bundled, none_puzzle

from sudoku_cp import Puzzle, Status, cross_check, get_backend
from sudoku_cp.errors import SudokuError
from sudoku_cp.logic.solver import solve_logically
from sudoku_cp.logic.steps import Trace


def check_against(trace: Trace, solutions: set[tuple[int, ...]]) -> None:
    """Every step holds in every solution; a solved grid is the one solution; a contradiction
    means there is none."""
    for step in trace.steps:
        for cell, digit in step.placements:
            assert all(s[cell] == digit for s in solutions), (step.technique, step.text)
        for cell, digit in step.eliminations:
            assert all(s[cell] != digit for s in solutions), (step.technique, step.text)
    if trace.outcome == "solved":
        assert solutions == {trace.values}
    if trace.outcome == "contradiction":
        assert not solutions


def random_puzzle(rng: random.Random, solution: tuple[int, ...], keep: int) -> list[int]:
    cells = list(solution)
    for cell in rng.sample(range(len(cells)), len(cells) - keep):
        cells[cell] = 0
    return cells


@pytest.mark.parametrize(
    ("model", "size"), [("classic", 4), ("x", 4), ("latin", 4), ("classic", 6)]
)
def test_small_grids_against_full_enumeration(model: str, size: int) -> None:
    rng = random.Random(18)
    enumerate_all = get_backend("backtrack")
    grid = enumerate_all.solve(Puzzle([0] * (size * size), model)).solutions[0]
    outcomes = set()
    for number in range(60 if size == 4 else 15):
        relabel = [0, *rng.sample(range(1, size + 1), size)]  # digits renamed: still a solution
        solution = tuple(relabel[d] for d in grid)
        keep = rng.randint(size, size * size // 2)  # (fewer givens: too many solutions)
        cells = random_puzzle(rng, solution, keep)
        if number % 7 == 0:  # now and then a wrong given: puzzles with no solution too
            probe = Puzzle([0] * (size * size), model)
            spot = rng.choice([c for c, d in enumerate(cells) if not d])
            seen = {cells[p] for p in probe.peers()[spot]}
            wrong = [d for d in range(1, size + 1) if d != solution[spot] and d not in seen]
            if wrong:
                cells[spot] = rng.choice(wrong)
        puzzle = Puzzle(cells, model)
        found = enumerate_all.solve(puzzle, limit=None)
        assert found.exact
        solutions = set(found.solutions)
        trace = solve_logically(puzzle)
        check_against(trace, solutions)
        outcomes.add(trace.outcome)
    assert outcomes == {"solved", "stalled", "contradiction"}


@pytest.mark.parametrize("dataset", ["top1465", "17clue", "easy"])
def test_bundled_9x9_steps_agree_with_the_solution(dataset: str) -> None:
    rows = bundled(dataset)[:25]
    backtrack = get_backend("backtrack")
    for row in rows:
        puzzle = Puzzle.parse(row["puzzle"])
        truth = backtrack.solve(puzzle, limit=2)
        assert truth.status is Status.UNIQUE
        check_against(solve_logically(puzzle), {truth.solutions[0]})


def test_jigsaw_x_and_16x16_steps_agree_with_the_solution() -> None:
    from sudoku_cp.formats import read_input

    from_files = []
    for name in ("jigsaw", "16x16"):
        from sudoku_cp.datasets import bundled_file

        records = read_input(str(bundled_file(name)))
        from_files += [r.puzzle for _, r in zip(range(8), records, strict=False) if r.puzzle]
    from_files.append(
        Puzzle.parse(
            "..............5.1.....2...6......4....5...6...8...73.....214....7......2..6....4.",
            "hyper",
        )
    )
    backtrack = get_backend("backtrack")
    solved = 0
    for puzzle in from_files:
        truth = backtrack.solve(puzzle, limit=2)
        trace = solve_logically(puzzle)
        check_against(trace, set(truth.solutions))
        solved += trace.outcome == "solved"
    assert solved >= 8  # the 16x16 sample and most jigsaws fall to these techniques


def test_logic_backend_verdicts() -> None:
    logic = get_backend("logic")
    easy = Puzzle.parse(bundled("easy")[0]["puzzle"])
    result = logic.solve(easy, limit=2)
    assert result.status is Status.UNIQUE and result.exact and easy.is_solution(result.solution)
    nothing = logic.solve(Puzzle(none_puzzle(9)), limit=2)
    assert nothing.status is Status.NONE and nothing.exact and not nothing.solutions
    stalled = logic.solve(Puzzle.parse(INKALA), limit=2)
    assert stalled.status is Status.UNDECIDED and not stalled.exact
    assert stalled.candidates is not None and len(stalled.candidates) == 81
    # the stalled grid still holds the solution's digits
    truth = get_backend("backtrack").solve(Puzzle.parse(INKALA)).solutions[0]
    assert all(stalled.candidates[c] >> (d - 1) & 1 for c, d in enumerate(truth))
    assert logic.solve(Puzzle([0] * 16), limit=2).status is Status.UNDECIDED  # never multiple


def test_logic_does_not_vote_when_undecided_and_agrees_when_it_decides() -> None:
    record = cross_check(Puzzle.parse(INKALA), backends=["logic", "backtrack"])
    assert record.verdict.value == "unique"
    assert record.backends["logic"].status is Status.UNDECIDED
    for row in bundled("easy")[:5] + bundled("top1465")[:10]:
        record = cross_check(Puzzle.parse(row["puzzle"]), backends=["logic", "backtrack", "sat"])
        assert record.verdict.value == "unique", record.reason


def test_rules_beyond_groups_are_reasoned_about_and_unknown_shapes_refused() -> None:
    from dataclasses import dataclass
    from typing import ClassVar

    from sudoku_cp.model import load_model
    from sudoku_cp.rules import AntiKnight, Rule

    knights = Puzzle([0] * 81, load_model("classic").with_rules(rules=[AntiKnight()], size=9))
    assert solve_logically(knights).outcome == "stalled"  # (its groups; explain reads it)
    # the backend takes every rule kind the tool reads (issue 31): `solve -b logic` answers
    assert get_backend("logic").refusal(knights) is None

    @dataclass(frozen=True)
    class Shapeless(Rule):
        key: ClassVar[str] = "shapeless"
        title: ClassVar[str] = "shapeless"

    odd = Puzzle([0] * 81, load_model("classic").with_rules(rules=[Shapeless()], size=9))
    with pytest.raises(SudokuError, match="shapeless"):
        solve_logically(odd)
    assert "shapeless" in (get_backend("logic").refusal(odd) or "")


def test_step_texts_do_not_repeat_their_technique() -> None:
    # explain and the pictures print "Technique (level, score): text"; a text that began with
    # its technique's name read "AIC (Unfair, 280): AIC: in …".
    # (the first 30 puzzles reach 42 techniques; all 100 took 25 s for 51)
    rows = list(csv.DictReader((DATA / "top1465.csv").open()))[:30]
    seen = set()
    for row in rows:
        for step in solve_logically(Puzzle.parse(row["puzzle"]), uniqueness=True).steps:
            seen.add(step.technique)
            assert not step.text.lower().startswith(step.technique.lower()), step.text
    assert len(seen) >= 35  # the check reached the advanced techniques too
