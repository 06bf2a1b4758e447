"""The cross-check of one puzzle: every verdict on real puzzles, with real backends.

Faulty backends (a wrong solution, a false claim, one that raises, one that answers nonsense,
one that reshapes its answer) are the small Backend subclasses of fault_backends.py, added
through the public ``register`` — the way a user adds a backend — so the harness is tested
exactly as it is used. The records themselves are tested in test_result.py; a backend that
hangs needs the batch's hard time limit (test_batch.py).
"""

from __future__ import annotations

import pytest
from fault_backends import Reshaped
from puzzles import EULER, EULER_GRID, INKALA, SERG, no_solution_puzzle

from sudoku_cp import Puzzle, cross_check
from sudoku_cp.backends import available_backends, get_backend
from sudoku_cp.harness import resolve_backends
from sudoku_cp.result import Status
from sudoku_cp.verdict import Verdict

REAL = "backtrack"


@pytest.fixture(autouse=True)
def _faults(fault_backends):
    """Every test here may name the fault backends (test-wrong, test-raises …)."""


# --- the verdicts --------------------------------------------------------------------------------
def test_unique_every_available_backend_agrees():
    backends = [n for n in available_backends() if not n.startswith("test-")]
    record = cross_check(EULER, backends, time_limit=30)
    assert record.verdict is Verdict.UNIQUE
    assert record.count == 1 and record.exact
    assert record.solutions == [EULER_GRID]
    assert set(record.backends) == set(backends)
    for run in record.backends.values():
        assert run.status is Status.UNIQUE and run.count == 1 and not run.problems
    assert record.reason is None


def test_multiple_gives_two_valid_distinct_witnesses():
    record = cross_check(SERG, [REAL])
    assert record.verdict is Verdict.MULTIPLE
    assert record.count == 2 and not record.exact
    first, second = record.solutions
    assert first != second
    puzzle = Puzzle.parse(SERG)
    for witness in (first, second):
        assert puzzle.is_solution(witness)


def test_multiple_with_count_all_is_exact():
    record = cross_check("1...\n..1.\n.1..\n...1", [REAL], limit=None)
    assert record.verdict is Verdict.MULTIPLE
    assert record.count == 18 and record.exact
    assert len(record.solutions) == 2  # witnesses, not every solution


def test_none_when_every_backend_proves_no_solution():
    record = cross_check(no_solution_puzzle(), [REAL])
    assert record.verdict is Verdict.NONE
    assert record.count == 0 and record.exact and record.solutions == []
    assert record.backends[REAL].status is Status.NONE


@pytest.mark.parametrize(
    "text, words",
    [
        ("12345", "cells"),
        ("x" * 81, "x"),
        ("11" + "." * 79, "given twice"),
    ],
)
def test_invalid_input_gives_the_reason_and_runs_no_backend(text, words):
    record = cross_check(text, [REAL])
    assert record.verdict is Verdict.INVALID
    assert words in record.reason
    assert record.backends == {}


def test_wrong_solution_is_caught_as_disagreement_naming_the_backend():
    record = cross_check(INKALA, [REAL, "test-wrong"])
    assert record.verdict is Verdict.DISAGREEMENT
    wrong = record.backends["test-wrong"]
    assert wrong.problems and "fails the validator" in wrong.problems[0]
    assert "test-wrong is wrong" in record.reason
    assert f"{REAL}: unique" in record.reason  # what the other said
    assert not record.backends[REAL].problems  # the honest backend's answer stands
    # only validated solutions are kept as evidence
    assert record.count == 1 and record.solutions == [cross_check(INKALA, [REAL]).solutions[0]]


def test_a_false_claim_of_uniqueness_is_contradicted_by_validated_solutions():
    record = cross_check(SERG, [REAL, "test-falsely-unique"])
    assert record.verdict is Verdict.DISAGREEMENT
    liar = record.backends["test-falsely-unique"]
    assert liar.status is Status.UNIQUE
    assert "said unique" in liar.problems[0] and "2 solutions" in liar.problems[0]
    assert not record.backends[REAL].problems


def test_a_backend_that_raises_is_recorded_and_the_others_stand():
    record = cross_check(EULER, [REAL, "test-raises"])
    assert record.verdict is Verdict.UNIQUE
    run = record.backends["test-raises"]
    assert run.status is Status.ERROR and "RuntimeError: boom" in run.error
    assert "test-raises" in record.reason


def test_a_malformed_result_is_an_error_not_an_answer():
    record = cross_check(EULER, [REAL, "test-nonsense"])
    assert record.verdict is Verdict.UNIQUE
    run = record.backends["test-nonsense"]
    assert run.status is Status.ERROR and "malformed result" in run.error


@pytest.mark.parametrize("form", ["lists", "numpy", "bools", "floats", "negative", "huge"])
def test_solutions_in_other_forms_are_read_as_ints_or_refused(form, monkeypatch):
    monkeypatch.setattr(Reshaped, "form", form)
    record = cross_check(EULER, [REAL, "test-reshaped"])
    run = record.backends["test-reshaped"]
    assert record.solutions == [EULER_GRID]
    if form in ("lists", "numpy"):  # integers, whatever their container or type: an answer
        assert record.verdict is Verdict.UNIQUE
        assert run.status is Status.UNIQUE and run.count == 1 and not run.problems
    elif form in ("bools", "floats"):  # True is not the digit 1, nor 1.0: malformed
        assert record.verdict is Verdict.UNIQUE
        assert run.status is Status.ERROR
        assert run.error == "malformed result: solution 1 is not a sequence of integer digits"
    else:  # integers that are no digits: a wrong answer, named by the validator
        assert record.verdict is Verdict.DISAGREEMENT
        assert run.problems and "r1c1 holds" in run.problems[0]


def test_every_backend_failing_is_undecided():
    record = cross_check(EULER, ["test-raises", "test-nonsense"])
    assert record.verdict is Verdict.UNDECIDED
    assert record.reason.startswith("no backend finished")


# --- records and choices -------------------------------------------------------------------------
def test_backend_names_are_checked_before_any_work():
    from sudoku_cp.errors import BackendError

    with pytest.raises(BackendError, match="unknown backend"):
        resolve_backends("backtrack,nope")
    with pytest.raises(BackendError, match="named twice"):
        resolve_backends(["backtrack", "bt"])
    assert resolve_backends("bt") == ["backtrack"]


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"time_limit": 0}, "time limit must be"),
        ({"time_limit": float("nan")}, "time limit must be"),
        ({"limit": 0}, "limit must be"),
        ({"metamorphic": -1}, "metamorphic must be"),
        ({"metamorphic": 10**9}, "metamorphic must be"),
    ],
)
def test_cross_check_refuses_bad_settings_as_check_puzzles_does(settings, said):
    # A bad limit was every backend's error, judged 'undecided'; metamorphic=10**9 ran a
    # billion cross-checks (check_puzzles caps it at 1,000).
    from sudoku_cp.errors import SudokuError

    with pytest.raises(SudokuError, match=said):
        cross_check(EULER, [REAL], **settings)


def test_judging_changes_none_of_its_inputs():
    import copy

    from sudoku_cp.harness import judge, run_backends

    puzzle = Puzzle.parse(EULER)
    runners = [(name, get_backend(name), {}) for name in (REAL, "test-wrong")]
    outcomes = run_backends(puzzle, runners, limit=2, time_limit=None)
    before = copy.deepcopy(outcomes)
    record = judge(puzzle, outcomes)
    assert record.verdict is Verdict.DISAGREEMENT and record.backends["test-wrong"].problems
    assert outcomes == before  # the runs handed in are not the record's
