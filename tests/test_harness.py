"""The cross-check of one puzzle: every verdict on real puzzles, with real backends.

Faulty backends (a wrong solution, a false claim, one that raises, one that answers nonsense,
one that hangs) are small Backend subclasses added through the public ``register`` — the way a
user adds a backend — so the harness is tested exactly as it is used.
"""

from __future__ import annotations

import time

import pytest

from sudoku_cp import Puzzle, cross_check
from sudoku_cp.backends import Backend, Search, available_backends, get_backend, register
from sudoku_cp.backends import unregister as unregister_backend
from sudoku_cp.batch import check_puzzles
from sudoku_cp.harness import resolve_backends
from sudoku_cp.result import BackendRun, CheckRecord, Result, Status, Verdict

REAL = "backtrack"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
EASY_GRID = tuple(int(ch) for ch in EASY_SOLUTION)
# serg's benchmark puzzle #1 (bundled multiple.csv): 872 solutions.
SERG = "8.........95.......76.........426798...571243...893165......916....3.487....1.532"
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def no_solution_puzzle() -> str:
    """EASY with one more given that its only solution does not have: no solution at all."""
    puzzle = Puzzle.parse(EASY)
    solution = [int(ch) for ch in EASY_SOLUTION]
    cells = list(puzzle.cells)
    for cell, given in enumerate(cells):
        if given:
            continue
        taken = {cells[peer] for peer in puzzle.peers()[cell]}
        for digit in range(1, 10):
            if digit != solution[cell] and digit not in taken:
                cells[cell] = digit
                return Puzzle(cells).to_line()
    raise AssertionError("no cell to spoil")


# --- faulty backends, added through the public registration path ---------------------------------
class WrongSolution(Backend):
    """Returns the real solution with two free cells swapped: givens kept, groups broken."""

    name = "test-wrong"
    summary = "returns a solution that breaks the rules"

    def search(self, puzzle, limit, deadline, options):
        solution = list(get_backend(REAL).solve(puzzle, limit=1).solution)
        free = [cell for cell, given in enumerate(puzzle.cells) if not given]
        a = free[0]
        b = next(c for c in free if solution[c] != solution[a])
        solution[a], solution[b] = solution[b], solution[a]
        return Search(solutions=[tuple(solution)], exhausted=True)


class FalselyUnique(Backend):
    """Returns one valid solution and claims the search was complete."""

    name = "test-falsely-unique"
    summary = "stops after one solution but says it searched everything"

    def search(self, puzzle, limit, deadline, options):
        return Search(solutions=list(get_backend(REAL).solve(puzzle, limit=1).solutions),
                      exhausted=True)


class Raises(Backend):
    name = "test-raises"
    summary = "raises"

    def search(self, puzzle, limit, deadline, options):
        raise RuntimeError("boom")


class Nonsense(Backend):
    name = "test-nonsense"
    summary = "returns something that is not a Result"

    def solve(self, puzzle, *, limit=1, time_limit=None, **options):
        return {"status": "unique"}


class Hangs(Backend):
    name = "test-hangs"
    summary = "never returns, whatever its time limit"

    def search(self, puzzle, limit, deadline, options):
        while True:
            time.sleep(0.01)


FAULTY = (WrongSolution, FalselyUnique, Raises, Nonsense, Hangs)


@pytest.fixture(autouse=True)
def faulty_backends():
    for cls in FAULTY:
        register(cls, replace=True)
    yield
    for cls in FAULTY:
        unregister_backend(cls.name)


# --- the verdicts --------------------------------------------------------------------------------
def test_unique_every_available_backend_agrees():
    backends = [n for n in available_backends() if not n.startswith("test-")]
    record = cross_check(EASY, backends, time_limit=30)
    assert record.verdict is Verdict.UNIQUE
    assert record.count == 1 and record.exact
    assert record.solutions == [EASY_GRID]
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


@pytest.mark.parametrize("text, words", [
    ("12345", "cells"),
    ("x" * 81, "x"),
    ("11" + "." * 79, "given twice"),
])
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
    record = cross_check(EASY, [REAL, "test-raises"])
    assert record.verdict is Verdict.UNIQUE
    run = record.backends["test-raises"]
    assert run.status is Status.ERROR and "RuntimeError: boom" in run.error
    assert "test-raises" in record.reason


def test_a_malformed_result_is_an_error_not_an_answer():
    record = cross_check(EASY, [REAL, "test-nonsense"])
    assert record.verdict is Verdict.UNIQUE
    run = record.backends["test-nonsense"]
    assert run.status is Status.ERROR and "malformed result" in run.error


class Reshaped(Backend):
    """Returns the real solution in another form than a tuple of plain ints (set per test)."""

    name = "test-reshaped"
    summary = "returns the real solution as lists, NumPy ints, bools or floats"
    form = "lists"

    def solve(self, puzzle, *, limit=1, time_limit=None, **options):
        real = get_backend(REAL).solve(puzzle, limit=limit)
        solutions = [_reshape(grid, self.form) for grid in real.solutions]  # a list of grids
        if self.form != "lists":
            solutions = tuple(solutions)
        return Result(self.name, real.status, solutions, real.exact, real.seconds, {"nodes": 1})


def _reshape(grid, form):
    import numpy as np

    if form == "lists":
        return list(grid)
    if form == "numpy":
        return tuple(np.int64(d) for d in grid)
    if form == "bools":  # True in place of every 1
        return tuple(True if d == 1 else d for d in grid)
    if form in ("negative", "huge"):  # integers, but not digits: a wrong answer
        return (-grid[0] if form == "negative" else 2**70 + grid[0],) + tuple(grid[1:])
    return tuple(float(d) for d in grid)


@pytest.mark.parametrize("form", ["lists", "numpy", "bools", "floats", "negative", "huge"])
def test_solutions_in_other_forms_are_read_as_ints_or_refused(form, monkeypatch):
    monkeypatch.setattr(Reshaped, "form", form)
    register(Reshaped, replace=True)
    try:
        record = cross_check(EASY, [REAL, "test-reshaped"])
    finally:
        unregister_backend(Reshaped.name)
    run = record.backends["test-reshaped"]
    assert record.solutions == [EASY_GRID]
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
    record = cross_check(EASY, ["test-raises", "test-nonsense"])
    assert record.verdict is Verdict.UNDECIDED
    assert record.reason.startswith("no backend finished")


def test_a_hanging_backend_alone_is_undecided_with_a_timeout():
    [record] = check_puzzles([EASY], ["test-hangs"], time_limit=0.2, jobs=1)
    assert record.verdict is Verdict.UNDECIDED
    run = record.backends["test-hangs"]
    assert run.status is Status.TIMEOUT and run.seconds >= 0.2
    assert "no backend finished" in record.reason


def test_a_hanging_backend_beside_a_real_one_times_out_and_the_verdict_stands():
    [record] = check_puzzles([INKALA], [REAL, "test-hangs"], time_limit=0.2, jobs=1)
    assert record.verdict is Verdict.UNIQUE
    assert record.backends["test-hangs"].status is Status.TIMEOUT
    assert record.backends[REAL].status is Status.UNIQUE


# --- records and choices -------------------------------------------------------------------------
def test_record_round_trips_through_its_dict_form():
    record = cross_check(SERG, [REAL, "test-raises"], id="serg#1")
    data = record.to_dict()
    assert {"id", "puzzle", "verdict", "count", "exact", "solutions", "backends"} <= set(data)
    assert set(data["backends"][REAL]) >= {"status", "count", "seconds", "counters"}
    again = CheckRecord.from_dict(data)
    assert again.to_dict() == data
    assert isinstance(again.backends[REAL], BackendRun)


def test_backend_names_are_checked_before_any_work():
    from sudoku_cp.errors import BackendError

    with pytest.raises(BackendError, match="unknown backend"):
        resolve_backends("backtrack,nope")
    with pytest.raises(BackendError, match="named twice"):
        resolve_backends(["backtrack", "bt"])
    assert resolve_backends("bt") == ["backtrack"]


def test_witnesses_are_grids_written_in_line_form_and_read_back():
    record = cross_check("1234............", [REAL])
    assert all(type(grid) is tuple and len(grid) == 16 for grid in record.solutions)
    written = record.to_dict()["solutions"]
    assert written == ["".join(map(str, grid)) for grid in record.solutions]
    assert CheckRecord.from_dict(record.to_dict()).solutions == record.solutions


def test_judging_changes_none_of_its_inputs():
    import copy

    from sudoku_cp.harness import judge, run_backends

    puzzle = Puzzle.parse(EASY)
    runners = [(name, get_backend(name), {}) for name in (REAL, "test-wrong")]
    outcomes = run_backends(puzzle, runners, limit=2, time_limit=None)
    before = copy.deepcopy(outcomes)
    record = judge(puzzle, outcomes)
    assert record.verdict is Verdict.DISAGREEMENT and record.backends["test-wrong"].problems
    assert outcomes == before  # the runs handed in are not the record's


def test_records_cross_processes_whole():
    import pickle

    record = cross_check(EASY, [REAL, "test-wrong", "test-raises"], metamorphic=1)
    record.metamorphic = {"transforms": 1, "agreed": 0, "inconclusive": 1}
    again = pickle.loads(pickle.dumps(record))
    assert again == record and again.to_dict() == record.to_dict()
    assert again.verdict is Verdict.DISAGREEMENT  # the very member, not a copy
    wrong, failed = again.backends["test-wrong"], again.backends["test-raises"]
    assert wrong.problems and failed.status is Status.ERROR and failed.error
