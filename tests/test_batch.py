"""Many puzzles through the Python API (sudoku_cp.batch): every puzzle once with its verdict,
in process or in worker processes, parsed here or in the workers, hard time limits, stopping
early; and the output helpers the command builds on (JSON lines, reading records back, a torn
last line, the resume index set).

Real puzzles and the real backtracker; the stand-ins are the fault backends (fault_backends.py)
— a backend that hangs on one puzzle or on all. The command line's `check` is tested in
test_batch_command.py, and faults a batch must survive in test_batch_faults.py.
"""

from __future__ import annotations

import json
import multiprocessing

import pytest
from puzzles import EASY_LINES, EULER, INKALA, mixed_file

from sudoku_cp.batch import (
    IndexSet,
    check_puzzles,
    json_line,
    read_records,
    repair_torn_tail,
)
from sudoku_cp.formats import read_input
from sudoku_cp.result import Status
from sudoku_cp.verdict import Verdict

REAL = "backtrack"


# --- the Python API -----------------------------------------------------------------------------
def test_check_puzzles_yields_every_puzzle_once_with_its_verdict(tmp_path):
    records = list(check_puzzles(read_input(str(mixed_file(tmp_path))), [REAL], jobs=2))
    by_id = {r.id: r for r in records}
    assert sorted(r.index for r in records) == [1, 2, 3, 4, 5, 6]
    assert {k: r.verdict for k, r in by_id.items()} == {
        "easy": Verdict.UNIQUE,
        "serg": Verdict.MULTIPLE,
        "nosol": Verdict.NONE,
        "short": Verdict.INVALID,
        "twice": Verdict.INVALID,
        "inkala": Verdict.UNIQUE,
    }
    assert by_id["short"].line == 5 and "line 5" in by_id["short"].reason
    assert "given twice" in by_id["twice"].reason


@pytest.mark.parametrize("jobs", [0, 2])
def test_lines_parsed_in_the_workers_give_the_same_records(tmp_path, jobs):
    # read_input(defer=True) leaves each line's parsing to whoever checks it (as `check` does)
    path = mixed_file(tmp_path)

    def answers(records):
        # Which two grids a multiple puzzle shows depends on the search path (the compiled
        # kernel or the pure search, chosen by the time spent so far: load-dependent), so those
        # are compared as "two valid grids"; everything else exactly.
        return sorted(
            (
                r.index,
                r.id,
                r.line,
                r.verdict,
                r.count,
                r.reason,
                len(r.solutions) if r.verdict is Verdict.MULTIPLE else r.solutions,
            )
            for r in records
        )

    eager = answers(check_puzzles(read_input(str(path)), [REAL], jobs=0))
    assert answers(check_puzzles(read_input(str(path), defer=True), [REAL], jobs=jobs)) == eager


def test_in_process_and_worker_processes_agree():
    def answers(jobs):
        records = check_puzzles(EASY_LINES[:10], [REAL], jobs=jobs)
        return sorted((r.index, r.verdict, r.solutions) for r in records)

    assert answers(0) == answers(2)


@pytest.mark.slow
def test_a_backend_stuck_on_one_puzzle_times_out_there_and_the_batch_completes(fault_backends):
    puzzles = EASY_LINES[:6] + [INKALA] + EASY_LINES[6:12]
    records = list(check_puzzles(puzzles, [REAL, "test-stuck-on-one"], time_limit=0.3, jobs=2))
    assert sorted(r.index for r in records) == list(range(1, 14))
    for record in records:
        stuck = record.backends["test-stuck-on-one"]
        assert record.verdict is Verdict.UNIQUE  # the real backend decides every one
        if record.puzzle == INKALA:
            assert stuck.status is Status.TIMEOUT and "time limit" in stuck.error
        else:
            assert stuck.status is Status.UNIQUE


def test_stopping_the_iteration_early_shuts_the_workers_down():
    # (only this check's workers: an earlier test's Dask workers may still be ending)
    before = {p.pid for p in multiprocessing.active_children()}
    records = check_puzzles(EASY_LINES * 4, [REAL], jobs=2)
    first = next(records)
    started = {p.pid for p in multiprocessing.active_children()} - before
    records.close()  # what a `break` out of a for loop does
    assert first.verdict is Verdict.UNIQUE
    assert started  # the pool's workers were there
    assert not [p for p in multiprocessing.active_children() if p.is_alive() and p.pid in started]


# --- hard time limits ---------------------------------------------------------------------------
@pytest.mark.slow
def test_a_hanging_backend_alone_is_undecided_with_a_timeout(fault_backends):
    [record] = check_puzzles([EULER], ["test-hangs"], time_limit=0.2, jobs=1)
    assert record.verdict is Verdict.UNDECIDED
    run = record.backends["test-hangs"]
    assert run.status is Status.TIMEOUT and run.seconds >= 0.2
    assert "no backend finished" in record.reason


@pytest.mark.slow
def test_a_hanging_backend_beside_a_real_one_times_out_and_the_verdict_stands(fault_backends):
    [record] = check_puzzles([INKALA], [REAL, "test-hangs"], time_limit=0.2, jobs=1)
    assert record.verdict is Verdict.UNIQUE
    assert record.backends["test-hangs"].status is Status.TIMEOUT
    assert record.backends[REAL].status is Status.UNIQUE


# --- output and resume helpers ---------------------------------------------------------------
def test_records_read_back_and_a_torn_last_line_is_dropped(tmp_path):
    out = tmp_path / "r.jsonl"
    lines = [json.dumps(r.to_dict()) for r in check_puzzles(EASY_LINES[:3], [REAL], jobs=0)]
    out.write_text("\n".join(lines) + "\n" + lines[0][:40])
    assert len(list(read_records(out))) == 3
    assert repair_torn_tail(out) == 40
    assert out.read_text().endswith("\n")


def test_a_json_line_reads_back_as_the_record_even_where_the_fast_encoder_refuses():
    record = next(check_puzzles([EULER], [REAL], jobs=0)).to_dict()
    record["id"] = 'ünïcode "quoted"\tid'
    assert json.loads(json_line(record)) == record
    assert json_line(record).endswith(b"}\n") and json_line(record).count(b"\n") == 1
    record["backends"][REAL]["counters"] = {"huge": 2**70}  # beyond orjson's 64-bit integers
    assert json.loads(json_line(record)) == record


def test_index_set_keeps_a_mark_and_the_few_above_it():
    done = IndexSet([1, 2, 3, 5, 8])
    assert done.mark == 3 and done.above == {5, 8} and len(done) == 5
    assert all(i in done for i in (1, 2, 3, 5, 8)) and 4 not in done and 9 not in done
