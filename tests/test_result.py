"""The records every part speaks (sudoku_cp.result): a check record's dict form, its witnesses
as grids written in line form, and records crossing processes whole."""

from __future__ import annotations

from puzzles import EULER, SERG

from sudoku_cp import cross_check
from sudoku_cp.result import Status
from sudoku_cp.verdict import BackendRun, CheckRecord, Verdict

REAL = "backtrack"


def test_record_round_trips_through_its_dict_form(fault_backends):
    record = cross_check(SERG, [REAL, "test-raises"], id="serg#1")
    data = record.to_dict()
    assert {"id", "puzzle", "verdict", "count", "exact", "solutions", "backends"} <= set(data)
    assert set(data["backends"][REAL]) >= {"status", "count", "seconds", "counters"}
    again = CheckRecord.from_dict(data)
    assert again.to_dict() == data
    assert isinstance(again.backends[REAL], BackendRun)


def test_witnesses_are_grids_written_in_line_form_and_read_back():
    record = cross_check("1234............", [REAL])
    assert all(type(grid) is tuple and len(grid) == 16 for grid in record.solutions)
    written = record.to_dict()["solutions"]
    assert written == ["".join(map(str, grid)) for grid in record.solutions]
    assert CheckRecord.from_dict(record.to_dict()).solutions == record.solutions


def test_records_cross_processes_whole(fault_backends):
    import pickle

    record = cross_check(EULER, [REAL, "test-wrong", "test-raises"], metamorphic=1)
    record.metamorphic = {"transforms": 1, "agreed": 0, "inconclusive": 1}
    again = pickle.loads(pickle.dumps(record))
    assert again == record and again.to_dict() == record.to_dict()
    assert again.verdict is Verdict.DISAGREEMENT  # the very member, not a copy
    wrong, failed = again.backends["test-wrong"], again.backends["test-raises"]
    assert wrong.problems and failed.status is Status.ERROR and failed.error
