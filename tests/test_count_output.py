"""`sudoku-cp count`: its lines in input order (a bounded reorder buffer over the worker pool),
and its records in a file (``--output``, ``--format``, the sidecar, ``--resume``, the lock and
the output-is-an-input refusal, shared with `check`)."""

from __future__ import annotations

import io
import json
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest
from clitools import error_line, jsonl, run, start_cli
from puzzles import EASY_LINES, EULER, FEW, FEW_COUNT, INKALA

from sudoku_cp.batch import command
from sudoku_cp.batch.items import BatchOptions, CheckConfig
from sudoku_cp.batch.output import OutputLock
from sudoku_cp.batch.pool import MAX_CHUNK

REAL = "backtrack"


# --- input order ----------------------------------------------------------------------------------
def test_count_prints_in_input_order_when_the_first_puzzle_finishes_last(
    fault_backends, tmp_path, monkeypatch
):
    # real worker processes: the first puzzle's record comes back after every other one's
    monkeypatch.setattr(fault_backends.FirstFinishesLast, "folder", tmp_path)
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join(fault_backends.PUZZLES) + "\n")
    result = run("count", str(puzzles), "-b", "test-first-finishes-last", "-j", "2", "-q")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines == [f"{n}: exactly 1 solution" for n in range(1, 13)]


def test_count_jsonl_on_stdout_is_in_input_order_too(fault_backends, tmp_path, monkeypatch):
    monkeypatch.setattr(fault_backends.FirstFinishesLast, "folder", tmp_path)
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join(fault_backends.PUZZLES) + "\n")
    args = ["-b", "test-first-finishes-last", "-j", "2", "-q", "-f", "jsonl"]
    result = run("count", str(puzzles), *args)
    assert result.exit_code == 0, result.output
    assert [record["index"] for record in jsonl(result.stdout)] == list(range(1, 13))


def test_a_slow_first_puzzle_holds_at_most_the_bound(fault_backends, tmp_path, monkeypatch):
    # INKALA hangs until the time limit stops it; 2,000 easy puzzles behind it. The pool takes
    # no more than the bound while it waits, then every record comes out in input order.
    bound = 24
    seen: list[command.InputOrder] = []

    class Watched(command.InputOrder):
        def __init__(self, limit: int) -> None:
            super().__init__(limit)
            self.most_taken = 0
            seen.append(self)

        def track(self, items):
            for item in super().track(items):
                self.most_taken = max(self.most_taken, len(self.taken))
                yield item

    monkeypatch.setattr(command, "InputOrder", Watched)
    monkeypatch.setattr(command, "reorder_bound", lambda jobs: bound)
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join([INKALA] + EASY_LINES * 40) + "\n")
    config = CheckConfig.make(["test-stuck-on-one"], limit=1000, time_limit=0.5)
    options = BatchOptions([str(puzzles)], config, jobs=2, fmt="count", in_order=True)
    out = io.StringIO()
    summary = command.run_batch(options, stream=out)
    lines = out.getvalue().splitlines()
    assert summary.checked == len(lines) == 2001
    assert lines[0].startswith("1: undecided")
    assert [line.split(":")[0] for line in lines] == [str(n) for n in range(1, 2002)]
    assert 0 < seen[0].most_taken <= bound
    assert seen[0].most_held <= bound


def test_ctrl_c_prints_the_records_held_for_an_earlier_puzzle_in_order(fault_backends, tmp_path):
    # puzzle 1 never finishes; the others do and wait for it; Ctrl-C prints them all the same
    (tmp_path / "p.txt").write_text("\n".join(fault_backends.PUZZLES) + "\n")
    (tmp_path / "keep-first").write_text("yes")
    process = start_cli(tmp_path, "count", "p.txt", "-b", "test-first-finishes-last", "-j", "2")
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "last-solved").exists() and process.poll() is None:
            assert time.monotonic() < deadline, "the last puzzle was never solved"
            time.sleep(0.02)
        time.sleep(0.5)  # for its record to reach the parent (no assertion rests on it)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    ids = [int(line.split(":")[0]) for line in stdout.splitlines()]
    assert ids and 1 not in ids and ids == sorted(ids)
    assert all(line.endswith(": exactly 1 solution") for line in stdout.splitlines())
    assert f"interrupted after {len(ids)} puzzles, every finished record written" in stderr


def test_the_reorder_bound_is_twice_the_pools_window_of_full_chunks():
    assert command.reorder_bound(2) == 2 * (2 * 2 + 1) * MAX_CHUNK
    assert command.reorder_bound(0) == command.reorder_bound(1)


def test_a_huge_input_still_streams_in_order():
    # standard input left open: the first lines must come out before the input ends
    process = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp.cli", "count", "-", "-b", REAL, "-j", "2", "-q"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in process.stdout], daemon=True).start()
    try:
        process.stdin.write("\n".join(EASY_LINES * 60) + "\n")  # 3,000 puzzles, more to come
        process.stdin.flush()
        first = [lines.get(timeout=120) for _ in range(100)]
        assert first == [f"{n}: exactly 1 solution\n" for n in range(1, 101)]
        process.stdin.write("\n".join(EASY_LINES * 60) + "\n")
        process.stdin.close()
        assert process.wait(timeout=300) == 0, process.stderr.read() if process.stderr else ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    rest = []
    while not lines.empty():
        rest.append(lines.get())
    assert len(first) + len(rest) == 6000
    assert [line.split(":")[0] for line in first + rest] == [str(n) for n in range(1, 6001)]


# --- --output, --format, --resume ----------------------------------------------------------------
def test_count_writes_jsonl_records_and_the_sidecar(tmp_path):
    out = tmp_path / "counts.jsonl"
    result = run("count", FEW, EULER, "-b", REAL, "-j", "2", "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    records = sorted(jsonl(out.read_text()), key=lambda r: r["index"])
    assert [(r["count"], r["exact"]) for r in records] == [(FEW_COUNT, True), (1, True)]
    meta = json.loads((tmp_path / "counts.jsonl.meta.json").read_text())
    assert meta["settings"]["command"] == "count"
    assert meta["summary"]["puzzles"] == 2


@pytest.mark.parametrize("name, args, first", [("c.csv", [], "id,index,"), ("c.txt", [], "id ")])
def test_count_format_from_the_output_suffix(tmp_path, name, args, first):
    out = tmp_path / name
    result = run("count", FEW, "-b", REAL, "-j", "0", "-o", str(out), "-q", *args)
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith(first)


def test_count_format_given(tmp_path):
    out = tmp_path / "c.out"
    result = run("count", FEW, "-b", REAL, "-j", "0", "-o", str(out), "-f", "csv", "-q")
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("id,index,")
    result = run("count", FEW, "-b", REAL, "-j", "0", "-f", "table", "-q")
    assert result.stdout.split()[:3] == ["id", "verdict", "count"]


def test_count_resume_finishes_the_rest_each_once(tmp_path):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join(EASY_LINES[:10]) + "\n")
    out = tmp_path / "c.jsonl"
    args = ["count", str(puzzles), "-b", REAL, "-j", "2", "-o", str(out), "-q"]
    assert run(*args).exit_code == 0
    kept = out.read_text().splitlines(keepends=True)[:3]
    out.write_text("".join(kept) + '{"id": "torn')  # as a killed run leaves it
    result = run(*args, "--resume")
    assert result.exit_code == 0, result.output
    assert sorted(r["index"] for r in jsonl(out.read_text())) == list(range(1, 11))


def test_count_refuses_an_output_that_is_its_input(tmp_path):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(EULER + "\n")
    result = run("count", str(puzzles), "-b", REAL, "-j", "0", "-o", str(puzzles))
    assert result.exit_code == 2
    assert error_line(result) == (
        f"sudoku-cp: error: the output {puzzles} is the input {puzzles}: writing it would "
        "destroy what this run reads; choose another --output file"
    )
    assert puzzles.read_text() == EULER + "\n"


def test_count_refuses_a_locked_output(tmp_path):
    out = tmp_path / "c.jsonl"
    lock = OutputLock(out)  # as another run holds it
    try:
        result = run("count", EULER, "-b", REAL, "-j", "0", "-o", str(out))
    finally:
        lock.release()
    assert result.exit_code == 2
    assert error_line(result) == (
        f"sudoku-cp: error: output {out} is being written by another sudoku-cp run; wait for "
        "it to finish (or stop it), or choose another --output file"
    )


def test_count_resume_of_a_check_output_is_refused(tmp_path):
    out = tmp_path / "c.jsonl"
    assert run("check", EULER, "-b", REAL, "-j", "0", "-o", str(out), "-q").exit_code == 0
    result = run("count", EULER, "-b", REAL, "-j", "0", "-o", str(out), "--resume")
    assert result.exit_code == 2
    assert "cannot resume" in error_line(result)


def test_count_resume_needs_output():
    result = run("count", EULER, "-b", REAL, "--resume")
    assert result.exit_code == 2
    assert "--resume needs --output FILE" in result.stderr


@pytest.mark.slow
def test_count_to_a_file_cut_short_by_the_time_limit_exits_3(tmp_path):
    out = tmp_path / "c.jsonl"
    args = ["-b", "sat", "--time-limit", "1", "-j", "1", "-o", str(out), "-q"]
    result = run("count", "." * 81, "--all", *args)
    assert result.exit_code == 3, result.output
    (record,) = jsonl(out.read_text())
    assert record["exact"] is False and record["count"] > 0


@pytest.mark.parametrize("command", ["count", "solve"])
def test_all_stops_at_the_cap_and_says_at_least_with_exit_3(monkeypatch, command):
    """``--all`` kept every solution of every backend without bound (memory grew with the time
    limit): it now counts up to the cap on --limit, and a puzzle with more is cut short."""
    monkeypatch.setattr("sudoku_cp.backends.MAX_LIMIT", 50)  # the cap, small enough to reach
    extra = ["-j", "0", "-q"] if command == "count" else ["--format", "line"]
    capped = run(
        command, "." * 16, "--all", "-b" if command == "count" else "--backend", "backtrack", *extra
    )
    assert capped.exit_code == 3, capped.output
    if command == "count":
        assert capped.stdout.strip() == "1: at least 50 solutions"
    else:
        assert len(capped.stdout.split()) == 50
    # Fewer solutions than the cap: counted exactly, exit 0 (the 4x4 below has 2 solutions).
    two = "12..34..21..43.."
    exact = run(
        command, two, "--all", "-b" if command == "count" else "--backend", "backtrack", *extra
    )
    assert exact.exit_code == 0, exact.output
