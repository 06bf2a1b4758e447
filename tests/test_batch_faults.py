"""Faults a batch must survive: faulty backends, killed workers, a killed or interrupted run
(then resumed), and an output that cannot be written.

Real puzzles and the real backtracker throughout. The faults are the backends of
fault_backends.py — each misbehaves on one chosen puzzle only and is the real backtracker
elsewhere — and real signals sent to real processes. Workers are forked, so they see the
registrations made here; a run in a fresh process registers the slow ones itself
(clitools.start_cli).
"""

from __future__ import annotations

import csv
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from clitools import as_unprivileged, jsonl, run, start_cli, wait_for_lines
from conftest import DATA
from fault_backends import (
    HANGS_ON,
    HELD,
    MALFORMED_ON,
    PUZZLES,
    RAISES_ON,
    WRONG_ON,
    Counting,
    DiesOnOne,
    HoldsOne,
)
from puzzles import EASY_LINES

from sudoku_cp import Puzzle
from sudoku_cp.backends import get_backend
from sudoku_cp.formats import format_line

REAL = "backtrack"


def write_puzzles(folder: Path, lines: list[str] = PUZZLES) -> Path:
    path = folder / "puzzles.txt"
    path.write_text("".join(f"{line}\n" for line in lines))
    return path


# --- backends that fail on one puzzle --------------------------------------------------------
@pytest.mark.slow
def test_each_fault_is_recorded_for_its_puzzle_and_backend_and_the_batch_completes(
    tmp_path, fault_backends
):
    faulty = [cls.name for cls in fault_backends.ON_ONE]
    out = tmp_path / "out.jsonl"
    result = run(
        "check",
        str(write_puzzles(tmp_path)),
        "-b",
        ",".join([REAL, *faulty]),
        "-j",
        "2",
        "-t",
        "0.5",
        "-o",
        str(out),
    )
    assert result.exit_code == 3  # a disagreement: the wrong solution
    records = {r["puzzle"]: r for r in jsonl(out.read_text())}
    assert sorted(r["index"] for r in records.values()) == list(range(1, 13))
    for puzzle, record in records.items():
        runs = record["backends"]
        assert runs[REAL]["status"] == "unique"  # the honest backend is never disturbed
        if puzzle not in (RAISES_ON, MALFORMED_ON, WRONG_ON, HANGS_ON):
            assert record["verdict"] == "unique"
            assert {run["status"] for run in runs.values()} == {"unique"}
    raised = records[RAISES_ON]
    assert raised["verdict"] == "unique"
    assert raised["backends"]["test-raises-on-one"]["status"] == "error"
    assert (
        "ZeroDivisionError: a bug in the backend"
        in raised["backends"]["test-raises-on-one"]["error"]
    )
    assert "test-raises-on-one: error" in raised["reason"]
    malformed = records[MALFORMED_ON]
    assert malformed["verdict"] == "unique"
    assert malformed["backends"]["test-malformed-on-one"]["error"] == (
        "malformed result: status unique with 0 solutions"
    )
    wrong = records[WRONG_ON]
    assert wrong["verdict"] == "disagreement"
    assert wrong["reason"].startswith("test-wrong-on-one is wrong: solution 1 fails the validator")
    real = get_backend(REAL).solve(Puzzle.parse(WRONG_ON)).solution
    assert wrong["solutions"] == [format_line(real, 9)]  # only the validated solution is kept
    hung = records[HANGS_ON]
    assert hung["verdict"] == "unique"
    assert hung["backends"]["test-hangs-on-one"]["status"] == "timeout"
    assert "time limit 0.5 s" in hung["backends"]["test-hangs-on-one"]["error"]
    tallies = json.loads((tmp_path / "out.jsonl.meta.json").read_text())["summary"]["backends"]
    assert (
        tallies["test-raises-on-one"]["errors"] == tallies["test-malformed-on-one"]["errors"] == 1
    )
    assert tallies["test-wrong-on-one"]["wrong"] == tallies["test-hangs-on-one"]["timeouts"] == 1
    assert tallies[REAL]["solved"] == 12
    assert "disagreement 1" in result.output  # the summary says so too


# --- a worker killed from outside --------------------------------------------------------------
def kill_when_held(folder: Path) -> threading.Thread:
    """A thread that SIGKILLs the worker process as soon as it holds HELD."""

    def kill() -> None:
        mark = folder / "held-by"
        deadline = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(int(mark.read_text()), signal.SIGKILL)

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


def test_a_worker_killed_from_outside_loses_nothing_and_counts_nothing_twice(
    tmp_path, monkeypatch, registered
):
    monkeypatch.setattr(HoldsOne, "folder", tmp_path)
    registered(HoldsOne)
    killer = kill_when_held(tmp_path)
    result = run(
        "check",
        str(write_puzzles(tmp_path)),
        "-b",
        f"{REAL},test-holds-one",
        "-j",
        "2",
        "-t",
        "30",
        "-f",
        "jsonl",
        "-q",
    )
    killer.join(timeout=5)
    assert (tmp_path / "held-by").exists()  # the worker really held it, and was killed
    assert result.exit_code == 0
    records = jsonl(result.stdout)
    assert sorted(r["index"] for r in records) == list(range(1, 13))  # each exactly once
    assert {r["verdict"] for r in records} == {"unique"}
    held = next(r for r in records if r["puzzle"] == HELD)
    assert held["backends"]["test-holds-one"]["status"] == "unique"  # retried, answered


def test_a_worker_that_always_dies_on_a_puzzle_is_blamed_and_the_batch_completes(
    tmp_path, registered
):
    registered(DiesOnOne)
    result = run(
        "check",
        str(write_puzzles(tmp_path)),
        "-b",
        f"{REAL},test-dies-on-one",
        "-j",
        "2",
        "-t",
        "30",
        "-f",
        "jsonl",
        "-q",
    )
    records = jsonl(result.stdout)
    assert sorted(r["index"] for r in records) == list(range(1, 13))
    held = next(r for r in records if r["puzzle"] == HELD)
    assert held["verdict"] == "unique"  # the backtracker still answers for it
    dead = held["backends"]["test-dies-on-one"]
    assert dead["status"] == "error"
    assert dead["error"] == "worker process killed by SIGKILL while running it (2 times)"
    others = [r for r in records if r["puzzle"] != HELD]
    assert all(r["backends"]["test-dies-on-one"]["status"] == "unique" for r in others)
    assert result.exit_code == 0


# --- the whole run killed, or interrupted -------------------------------------------------------
@pytest.mark.slow
def test_a_run_killed_midway_resumes_to_every_puzzle_exactly_once(tmp_path):
    out = tmp_path / "out.jsonl"
    args = ["check", str(DATA / "easy.csv"), "-b", "test-slow", "-j", "2", "-o", str(out), "-q"]
    process = start_cli(tmp_path, *args)
    wait_for_lines(out, 8, process)
    process.send_signal(signal.SIGKILL)  # no chance to clean up
    process.wait()
    # Whole records only: a plain JSON reader reads every line as the run left it.
    assert all(json.loads(line)["verdict"] == "unique" for line in out.read_text().splitlines())
    with out.open("ab") as handle:
        handle.write(b'{"id": "torn", "ind')  # what a write cut short would leave
    before = out.read_bytes().count(b"\n")
    assert 8 <= before < 50
    resumed = start_cli(tmp_path, *args, "--resume")
    stdout, stderr = resumed.communicate(timeout=60)
    assert resumed.returncode == 0, stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in records) == list(range(1, 51))
    assert {r["verdict"] for r in records} == {"unique"}
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert len(meta["runs"]) == 2 and meta["summary"]["puzzles"] == 50


@pytest.mark.slow
def test_a_csv_run_killed_midway_holds_whole_rows_and_resumes_each_puzzle_once(tmp_path):
    out = tmp_path / "out.csv"
    args = ["check", str(DATA / "easy.csv"), "-b", "test-slow", "-j", "2", "-o", str(out), "-q"]
    process = start_cli(tmp_path, *args)
    wait_for_lines(out, 8, process)
    process.send_signal(signal.SIGKILL)
    process.wait()
    text = out.read_text()
    assert text.endswith("\n")  # nothing torn
    rows = list(csv.DictReader(text.splitlines()))
    assert 7 <= len(rows) < 50 and all(row["verdict"] == "unique" for row in rows)
    assert all(None not in row and row["test-slow.status"] == "unique" for row in rows)
    resumed = start_cli(tmp_path, *args, "--resume")
    _, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    with out.open() as handle:
        rows = list(csv.DictReader(handle))
    assert sorted(int(row["index"]) for row in rows) == list(range(1, 51))
    assert out.read_text().count("id,index,") == 1  # one header


@pytest.mark.slow
def test_ctrl_c_then_resume_finishes_every_puzzle_exactly_once(tmp_path):
    out = tmp_path / "out.jsonl"
    args = ["check", str(DATA / "easy.csv"), "-b", "test-slow", "-j", "1", "-o", str(out)]
    process = start_cli(tmp_path, *args)
    wait_for_lines(out, 3, process)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "run the same command again with --resume" in stderr and "Traceback" not in stderr
    assert out.read_text().endswith("\n")  # whole records only
    before = jsonl(out.read_text())
    assert 3 <= len(before) < 50  # it stopped, and kept what it had finished
    assert {r["verdict"] for r in before} == {"unique"}
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["runs"][0]["interrupted"] is True
    assert meta["runs"][0]["records_written"] == len(before)
    resumed = start_cli(tmp_path, *args, "--resume", "-q")
    _, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    after = jsonl(out.read_text())
    assert sorted(r["index"] for r in after) == list(range(1, 51))
    assert after[: len(before)] == before  # appended, nothing rewritten


@pytest.mark.slow
def test_ctrl_c_with_records_on_standard_output(tmp_path):
    args = ["check", str(DATA / "easy.csv"), "-b", "test-slow", "-j", "1", "-f", "jsonl", "-q"]
    process = start_cli(tmp_path, *args)
    first = [process.stdout.readline() for _ in range(3)]
    process.send_signal(signal.SIGINT)
    rest, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    records = jsonl("".join(first) + rest)
    assert 3 <= len(records) < 50 and {r["verdict"] for r in records} == {"unique"}
    assert stderr.strip().splitlines()[-1] == (
        f"sudoku-cp: interrupted after {len(records)} puzzles, every finished record written "
        "— give --output FILE to be able to resume"
    )


def test_ctrl_c_during_solve_exits_130_without_a_traceback(tmp_path):
    process = start_cli(tmp_path, "solve", EASY_LINES[0], "--backend", "test-sleepy")
    deadline = time.monotonic() + 60
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert stderr == "sudoku-cp: interrupted\n" and stdout == ""


# --- an output that cannot be written -----------------------------------------------------------
def test_a_full_device_is_reported_before_any_work(registered):
    registered(Counting)
    Counting.calls = 0
    result = run(
        "check", *PUZZLES[:3], "-b", "test-counting", "-j", "0", "-o", "/dev/full", "-f", "jsonl"
    )
    assert result.exit_code == 2
    assert result.stderr == (
        "sudoku-cp: error: cannot write output file /dev/full: No space left on device\n"
    )
    assert Counting.calls == 0
    assert not Path("/dev/full.meta.json").exists()  # no sidecar beside a device


def test_a_read_only_folder_is_reported_before_any_work(public_dir):
    folder = public_dir / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    out = folder / "out.jsonl"
    code, stderr, calls = as_unprivileged(
        "check", PUZZLES[0], "-b", "test-counting", "-j", "0", "-o", str(out)
    )
    assert (code, calls) == (2, 0), stderr
    assert stderr == f"sudoku-cp: error: cannot write output file {out}: Permission denied\n"
    result = run("check", PUZZLES[0], "-b", REAL, "-j", "0", "-o", "/proc/out.jsonl")
    assert result.exit_code == 2
    assert result.stderr.startswith("sudoku-cp: error: cannot write output file /proc/out.jsonl")


def _small_files() -> None:
    # What a disk that fills up midway looks like to the writer: writes past 20 kB fail
    # (EFBIG; Python ignores the SIGXFSZ that comes with it).
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))


@pytest.mark.slow
def test_a_disk_filling_up_midway_stops_with_a_clear_error_and_resume_finishes(tmp_path):
    out = tmp_path / "out.jsonl"
    args = [
        sys.executable,
        "-m",
        "sudoku_cp.cli",
        "check",
        str(DATA / "easy.csv"),
        "-b",
        REAL,
        "-j",
        "1",
        "-o",
        str(out),
        "-q",
    ]
    full = subprocess.run(
        args, capture_output=True, text=True, timeout=120, preexec_fn=_small_files
    )
    assert full.returncode == 2
    written = out.read_text().count("\n")
    assert 5 < written < 50
    assert full.stderr == (
        f"sudoku-cp: error: writing {out} failed after {written} records: File too large; "
        "make room and run the same command again with --resume\n"
    )
    resumed = subprocess.run([*args, "--resume"], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    records = jsonl(out.read_text())  # the torn last record was dropped: every line reads
    assert sorted(r["index"] for r in records) == list(range(1, 51))


def test_a_sidecar_that_cannot_be_finished_is_said_not_silently_left_unfinished(
    tmp_path, monkeypatch
):
    # The records are whole, but a full disk at the very end kept the sidecar at its opening
    # state ("finished": null, no summary): the run exited 0 without a word.
    from sudoku_cp.batch import resume
    from sudoku_cp.errors import OutputError

    out = tmp_path / "out.jsonl"

    def full_at_the_end(path, meta):  # (the opening write is the batch command's own)
        raise OutputError(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(resume, "write_meta", full_at_the_end)
    result = run("check", *PUZZLES[:2], "-b", REAL, "-j", "0", "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    assert len(jsonl(out.read_text())) == 2
    sidecar = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert sidecar["runs"][-1]["finished"] is None  # as the disk left it
    assert result.stderr == (
        f"sudoku-cp: warning: cannot write {out}.meta.json: No space left on device: every "
        f"record is written to {out}, but its sidecar still describes the run as unfinished, "
        "without its summary\n"
    )
