"""The Dask path's faults (issue 35, item 8): a scheduler killed mid-run ends the run in one
line, exit 4, with the sidecar marked interrupted so that ``--resume`` finishes it; schemes
other than ``tcp://`` (and ``local:N``) are refused at once unless opted in."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clitools import error_line, run
from conftest import DATA

from sudoku_cp.cli.app import EXIT_CLUSTER_LOST

PUZZLE = "1234............"


@pytest.fixture
def no_opt_in(monkeypatch: pytest.MonkeyPatch) -> None:
    # --any-scheduler-scheme sets this in the (test) process: restored after each test
    monkeypatch.delenv("SUDOKU_CP_ANY_SCHEDULER_SCHEME", raising=False)


@pytest.mark.parametrize("scheme", ["tls", "inproc", "ucx"])
@pytest.mark.parametrize("command", [["check", PUZZLE], ["count", PUZZLE], ["bench", "famous"]])
def test_schemes_other_than_tcp_are_refused_at_once(
    no_opt_in: None, scheme: str, command: list[str]
) -> None:
    # Before: each was taken, and failed after ~40 s with a traceback.
    start = time.perf_counter()
    result = run(*command, "--scheduler", f"{scheme}://127.0.0.1:8786")
    assert result.exit_code == 2, result.output
    line = error_line(result)
    assert f"--scheduler {scheme}://127.0.0.1:8786: only tcp:// addresses (and local:N)" in line
    assert line.endswith("give --any-scheduler-scheme to try it")
    assert time.perf_counter() - start < 5


def test_an_opted_in_scheme_that_cannot_connect_is_one_line(no_opt_in: None) -> None:
    pytest.importorskip("distributed")
    start = time.perf_counter()
    result = run("check", PUZZLE, "--any-scheduler-scheme", "--scheduler", "inproc://nowhere")
    assert result.exit_code == 2, result.output
    assert "--scheduler inproc://nowhere: cannot use the cluster: " in error_line(result)
    assert time.perf_counter() - start < 15  # (it waited 40 s for the half-made client)


def test_the_help_says_what_the_client_trusts() -> None:
    result = run("check", "--help")
    text = " ".join(result.output.split())
    assert "The client unpickles what workers send back" in text
    assert "--any-scheduler-scheme" in text


def _start(args: list[str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", *args],
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)},
    )


@pytest.mark.slow
def test_a_scheduler_killed_mid_run_ends_in_one_line_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    where = tmp_path / "scheduler.json"
    scheduler = _start(
        ["distributed.cli.dask_scheduler", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(where)],
        tmp_path / "scheduler.log",
    )  # fmt: skip
    worker = None
    try:
        deadline = time.monotonic() + 60
        while not where.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(where.read_text())["address"]
        worker = _start(
            ["distributed.cli.dask_worker", address, "--nthreads", "1", "--no-dashboard"],
            tmp_path / "worker.log",
        )
        puzzles = tmp_path / "p.csv"
        rows = (DATA / "top1465.csv").read_text().splitlines()[1:]
        body = [f"r{i}-{row}" for i in range(20) for row in rows]
        puzzles.write_text("id,puzzle\n" + "\n".join(body) + "\n")
        out = tmp_path / "out.jsonl"
        args = ["check", str(puzzles), "-b", "backtrack", "-o", str(out), "-q"]
        client = subprocess.Popen(
            [sys.executable, "-m", "sudoku_cp.cli", *args, "--scheduler", address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)},
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and client.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 20:
                break
            time.sleep(0.05)
        scheduler.send_signal(signal.SIGKILL)
        _, stderr = client.communicate(timeout=120)
        # Before: a 69-line traceback, exit 1, and a sidecar saying interrupted: false.
        assert client.returncode == EXIT_CLUSTER_LOST, stderr
        lines = stderr.splitlines()
        assert len(lines) == 1, stderr
        assert lines[0].startswith(f"sudoku-cp: error: --scheduler {address}: lost the Dask")
        assert f"every finished record written to {out} — to finish" in lines[0]
        meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
        assert meta["runs"][-1]["interrupted"] is True
        before = out.read_bytes().count(b"\n")
        assert 20 <= before < len(body)
        resumed = subprocess.run(
            [sys.executable, "-m", "sudoku_cp.cli", *args, "--resume"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)},
            timeout=300,
        )
        assert resumed.returncode == 0, resumed.stderr
        records = [json.loads(line) for line in out.read_text().splitlines()]
        assert sorted(r["index"] for r in records) == list(range(1, len(body) + 1))
    finally:
        for process in (scheduler, worker):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
