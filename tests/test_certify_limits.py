"""Certificates' limits and faults: the time limit on certifying one verdict, the solver asked
in slices, 25x25 grids within the clause cap, and wrong verdicts and tampering on variant
puzzles (killer cages, thermometers …) refused like classic ones. Real solvers and the real
checker; counts from the enumeration of tests/variants.py."""

from __future__ import annotations

import csv
import gzip
import json
import signal
import time

import pytest
from puzzles import INKALA
from variants import CAGES, GRID_4, catalogue, count, solutions

from sudoku_cp import Puzzle, check_puzzles, get_backend
from sudoku_cp.model import load_model

pytest.importorskip("dratify")

from sudoku_cp.certify import encode, load, make, verify  # noqa: E402
from sudoku_cp.certify import proof as proof_module  # noqa: E402
from sudoku_cp.certify.cnf import blocking_clause  # noqa: E402


def _inkala() -> tuple[Puzzle, tuple[int, ...]]:
    puzzle = Puzzle.parse(INKALA)
    return puzzle, get_backend("backtrack").solve(puzzle).solution


# --- the time limit ------------------------------------------------------------------------------
def test_past_its_time_limit_a_verdict_is_not_certified_and_says_timeout():
    puzzle, solution = _inkala()
    made = make(puzzle, "unique", [solution], time_limit=1e-6)
    assert made.data is None and made.reason.startswith("timeout"), made.reason
    # the timer is gone and SIGALRM handled as before
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN, None)
    # and with time enough, the same verdict is certified
    assert make(puzzle, "unique", [solution], time_limit=600).data is not None


def test_a_batch_records_certify_timeout_and_goes_on(tmp_path):
    records = list(
        check_puzzles(
            [INKALA, INKALA], ["backtrack"], jobs=0, certify=str(tmp_path), certify_time_limit=1e-6
        )
    )
    for record in records:
        assert record.verdict.value == "unique"
        assert record.certificate["certified"] is False and record.certificate["timeout"] is True
        assert record.to_dict()["certificate"]["reason"].startswith("timeout")
    assert not list(tmp_path.glob("*.cert.gz"))


def test_the_solver_asked_in_slices_still_writes_a_proof_dratify_accepts(monkeypatch):
    monkeypatch.setattr(proof_module, "SLICE", 1)  # a slice per conflict: many calls
    puzzle, solution = _inkala()
    made = make(puzzle, "unique", [solution])
    assert made.data is not None, made.reason
    assert verify(json.loads(json.dumps(made.data))) is None


def test_the_solver_stops_between_slices_at_the_deadline(monkeypatch):
    monkeypatch.setattr(proof_module, "SLICE", 1)
    puzzle, solution = _inkala()
    formula = encode(puzzle)
    with pytest.raises(proof_module.CertifyTimeout, match="timeout"):
        proof_module.refute(formula, [blocking_clause(solution, 9)], (), time.monotonic() - 1)


def test_the_time_limit_option_is_checked(tmp_path):
    from clitools import error_line, run

    result = run("check", INKALA, "--certify", str(tmp_path), "--certify-time-limit", "0")
    assert result.exit_code == 2 and "--certify-time-limit" in error_line(result)


def test_a_certify_time_limit_without_certify_is_refused() -> None:
    """It was accepted and did nothing."""
    from clitools import error_line, run

    result = run("check", INKALA, "--certify-time-limit", "5")
    assert result.exit_code == 2
    assert "--certify-time-limit is the time of --certify's proofs" in error_line(result)


# --- 25x25 ---------------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_25x25_puzzle_is_certified_and_verifies(datasets, tmp_path):
    """690,000 clauses, under the cap; proof and check take 10-25 s here."""
    with (datasets / "large" / "25x25_19.csv").open() as handle:
        row = next(r for r in csv.DictReader(handle) if r["id"] == "vances25/25x25s01")
    [record] = check_puzzles(
        [row["puzzle"]], ["sat"], jobs=0, certify=str(tmp_path), certify_time_limit=600
    )
    assert record.verdict.value == "unique"
    assert record.certificate["certified"], record.certificate
    data = load(tmp_path / "0000001.cert.gz")
    assert data["size"] == 25 and verify(data) is None


# --- wrong verdicts and tampering, on variant puzzles ------------------------------------------
KILLER = load_model("classic").with_rules(rules=CAGES, size=4)


def _variant_with(n_solutions: int) -> Puzzle:
    """A catalogue puzzle with rules beyond groups and exactly ``n_solutions`` (enumerated)."""
    for entry in catalogue():
        if entry.puzzle.model.rules and entry.count == n_solutions:
            return entry.puzzle
    raise AssertionError(f"no catalogue puzzle with {n_solutions} solutions")


def test_a_unique_claim_for_a_variant_with_two_solutions_gets_no_certificate():
    puzzle = Puzzle([0] * 16, KILLER)
    found = solutions(puzzle)
    assert len(found) >= 2  # (by enumeration)
    made = make(puzzle, "unique", [found[0]])
    assert (
        made.data is None and made.reason == "the CNF is satisfiable: the unique verdict is wrong"
    )


def test_a_none_claim_for_a_solvable_variant_gets_no_certificate():
    puzzle = _variant_with(1)
    made = make(puzzle, "none", [])
    assert made.reason == "the CNF is satisfiable: the none verdict is wrong"


def test_a_wrong_variant_solution_gets_no_certificate():
    """A grid that keeps the groups but breaks a cage total."""
    puzzle = Puzzle([1] + [0] * 15, KILLER)
    assert count(puzzle) >= 1
    other = next(s for s in solutions(Puzzle([1] + [0] * 15)) if not puzzle.is_solution(s))
    made = make(puzzle, "unique", [other])
    assert made.data is None and made.reason.startswith("the solution is wrong: ")


def _changed_total(data: dict) -> None:
    rule = next(r for r in data["model"]["rules"] if r.get("total") is not None)
    rule["total"] += 1


def _dropped_rule(data: dict) -> None:
    data["model"]["rules"] = data["model"]["rules"][1:]


@pytest.mark.parametrize("change", [_changed_total, _dropped_rule], ids=["total", "rule-dropped"])
def test_a_tampered_variant_certificate_is_rejected(tmp_path, change):
    puzzle = Puzzle(GRID_4[:6] + (0,) * 10, KILLER)
    assert count(puzzle) == 1
    made = make(puzzle, "unique", solutions(puzzle))
    assert made.data is not None and verify(made.data) is None
    data = json.loads(json.dumps(made.data))
    change(data)
    path = tmp_path / "t.cert.gz"
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    why = verify(load(path))
    # (A changed total the givens already break makes the puzzle itself unreadable: rejected
    # before any CNF is rebuilt, as givens that break a rule are invalid.)
    assert why is not None and (
        why.startswith("the solution is wrong")
        or why.startswith("the stored CNF is not")
        or why.startswith("its puzzle cannot be read: the givens break")
    ), why


@pytest.mark.parametrize(
    ("model", "said"),
    [(None, "null"), ([1, 2], "a list"), ({"name": "classic"}, '{"name": "classic"}')],
)
def test_a_certificate_whose_model_is_not_an_object_is_rejected_saying_so(model, said):
    """A certificate edited to hold no model was rejected with Python's "'NoneType' object is
    not subscriptable"; the reason now says what the model is."""
    puzzle = Puzzle(GRID_4[:6] + (0,) * 10, KILLER)
    made = make(puzzle, "unique", solutions(puzzle))
    assert made.data is not None
    data = {**json.loads(json.dumps(made.data)), "model": model}
    assert verify(data) == (
        f"its puzzle cannot be read: its model is {said}, not an object with its 'data'"
    )
