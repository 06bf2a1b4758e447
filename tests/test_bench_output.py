"""`bench --output DIR` is guarded as `check --output` is (the same OutputLock and the same
output-is-an-input check): a folder whose result files are datasets the bench reads is refused,
and a folder another bench is writing is refused at once, both leaving it as it was.

(The bench rows of the table in docs/troubleshooting.md.)
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from clitools import PLUGIN, error_line, run, start_cli, stop_when_marked
from conftest import TESTS
from puzzles import EULER, INKALA

from sudoku_cp.batch.output import OutputLock
from sudoku_cp.bench.record import BenchConfig
from sudoku_cp.bench.run import run_bench
from sudoku_cp.errors import SudokuError

DATASET = f"id,puzzle\neuler,{EULER}\ninkala,{INKALA}\n"
IS_INPUT = (
    "sudoku-cp: error: the output {written} is the input {arg}: writing it would destroy what "
    "this run reads; choose another --output folder"
)
LOCKED = (
    "sudoku-cp: error: output {path} is being written by another sudoku-cp run; wait for it "
    "to finish (or stop it), or choose another --output folder"
)


def _bench(data, out, *extra):
    return run("bench", str(data), "-b", "backtrack", "-o", str(out), "-q", "--repeat", "1", *extra)


@pytest.mark.parametrize(
    "how", ["results.csv is the dataset", "another spelling", "record.json is a symlink to it"]
)
def test_an_output_folder_holding_a_dataset_as_a_result_file_is_refused(tmp_path, how):
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "sub").mkdir()
    if how == "record.json is a symlink to it":
        data = tmp_path / "puzzles.csv"
        data.write_text(DATASET)
        os.symlink(data, out / "record.json")
        arg, written = str(data), out / "record.json"
    else:
        data = out / "results.csv"
        data.write_text(DATASET)
        same = how == "results.csv is the dataset"
        arg = str(data) if same else str(tmp_path / "sub" / ".." / "out" / "results.csv")
        written = out / "results.csv"
    result = _bench(arg, out)
    assert result.exit_code == 2
    assert error_line(result) == IS_INPUT.format(written=written, arg=arg)
    assert data.read_text() == DATASET  # the dataset is intact
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["results.csv"] if how != "record.json is a symlink to it" else ["record.json"]
    )


def test_a_bench_output_folder_being_written_is_refused_and_left_as_it_was(tmp_path):
    data = tmp_path / "puzzles.csv"
    data.write_text(DATASET)
    out = tmp_path / "out"
    assert _bench(data, out).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    lock = OutputLock(out / "results.csv")  # as another bench holds it
    try:
        result = _bench(data, out)
        assert result.exit_code == 2
        assert error_line(result) == LOCKED.format(path=out / "results.csv")
        assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    finally:
        lock.release()
    assert _bench(data, out).exit_code == 0


def test_two_bench_processes_on_one_folder_the_second_fails_at_once(tmp_path):
    data = tmp_path / "puzzles.csv"
    data.write_text(DATASET)
    out = tmp_path / "out"
    first = subprocess.Popen(  # measuring test-sleepy takes a minute: it is stopped first
        [sys.executable, "-c", PLUGIN.format(tests=str(TESTS)), "bench", str(data)]
        + ["-b", "test-sleepy", "-o", str(out), "-q", "--repeat", "1", "--no-warmup"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60  # a hang guard
        while not (tmp_path / "started").exists():
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()
            time.sleep(0.02)
        second = _bench(data, out)
        assert second.exit_code == 2
        assert error_line(second) == LOCKED.format(path=out / "results.csv")
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.communicate(timeout=60)
    assert _bench(data, out).exit_code == 0  # a killed bench leaves no lock behind


def test_a_bench_that_fails_after_claiming_its_folder_leaves_no_empty_table(tmp_path, monkeypatch):
    from sudoku_cp.bench import run as benchmod

    def broken(*args, **kwargs):
        raise SudokuError("the bench broke")

    monkeypatch.setattr(benchmod, "run_bench", broken)
    data = tmp_path / "puzzles.csv"
    data.write_text(DATASET)
    result = _bench(data, tmp_path / "out")
    assert error_line(result) == "sudoku-cp: error: the bench broke"
    # No empty table, and no empty folder either: the run made -o out, wrote nothing, removed it.
    assert not (tmp_path / "out").exists()


def test_a_bench_of_a_missing_dataset_makes_no_folder(tmp_path):
    result = _bench(tmp_path / "nothing.csv", tmp_path / "out")
    assert result.exit_code == 2 and not (tmp_path / "out").exists()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_bench_writes_the_puzzles_it_measured_in_full(tmp_path, signum):
    """Ctrl-C or SIGTERM in a long bench: the folder holds every puzzle measured by every
    backend before it, the record says it was interrupted, the exit status is 130 (143)."""
    data = tmp_path / "puzzles.csv"
    data.write_text(DATASET)  # EULER, then INKALA: the second takes the sleepy backend a minute
    out = tmp_path / "out"
    spec = "backtrack,test-sleepy-after-euler"
    args = ["bench", str(data), "-b", spec, "-o", str(out), "--repeat", "1", "--no-warmup"]
    process = start_cli(tmp_path, *args, "--jobs", "1")
    stdout, stderr = stop_when_marked(process, tmp_path / "started", signum)
    assert process.returncode == (130 if signum == signal.SIGINT else 143), stderr
    rows = list(csv.DictReader((out / "results.csv").open(encoding="utf-8")))
    assert sorted((r["puzzle_id"], r["backend"]) for r in rows) == [
        ("euler", "backtrack"),
        ("euler", "test-sleepy-after-euler"),
    ]
    stopped = json.loads((out / "record.json").read_text())["interrupted"]
    # EULER's two measurements, and INKALA's backtrack one when the shuffle ran it first
    assert stopped["of"] == 4 and stopped["puzzles_kept"] == 1
    assert stopped["measurements"] in (2, 3)
    what = "interrupted" if signum == signal.SIGINT else "terminated (SIGTERM)"
    assert stderr.splitlines()[-1] == (
        f"sudoku-cp: {what} after {stopped['measurements']} of 4 measurements; the 1 puzzles "
        f"measured in full are in {out} (the record says it was interrupted)"
    )
    assert "INTERRUPTED after" in (out / "summary.txt").read_text()
    assert "INTERRUPTED after" in stdout


def test_run_bench_stopped_keeps_whole_puzzles_and_skips_the_start_up_probe(tmp_path):
    """The measurement loop stopped by a KeyboardInterrupt (here raised by the progress
    callback after three of six measurements): the one puzzle with both backends measured is
    kept, the others are not, and the record says how far it got."""
    data = tmp_path / "puzzles.csv"
    data.write_text(f"id,puzzle\neuler,{EULER}\ninkala,{INKALA}\nagain,{EULER}\n")
    seen = []

    def progress(done, total, name):
        seen.append(done)
        if done == 3:
            raise KeyboardInterrupt

    config = BenchConfig(datasets=[str(data)], backends=["backtrack", "dlx"], jobs=1)
    run = run_bench(config, progress=progress)
    assert run.interrupted and seen == [1, 2, 3]
    assert run.record["interrupted"] == {"measurements": 3, "of": 6, "puzzles_kept": 1}
    assert sorted((r["puzzle_id"], r["backend"]) for r in run.rows) == [
        ("euler", "backtrack"),
        ("euler", "dlx"),
    ]
    assert run.record["overheads"] == {}


def test_a_bench_stopped_before_any_puzzle_is_measured_in_full_writes_nothing(tmp_path):
    """Stopped during the workers' warm-up (the sleepy backend's first solve), nothing is kept:
    no folder of an empty table, one line, exit 143."""
    data = tmp_path / "puzzles.csv"
    data.write_text(DATASET)
    out = tmp_path / "out"
    args = ["bench", str(data), "-b", "backtrack,test-sleepy", "-o", str(out), "--repeat", "1"]
    process = start_cli(tmp_path, *args, "--jobs", "1")
    _, stderr = stop_when_marked(process, tmp_path / "started", signal.SIGTERM)
    assert process.returncode == 143, stderr
    assert stderr.splitlines()[-1] == (
        "sudoku-cp: terminated (SIGTERM) before any puzzle was measured in full; nothing written"
    )
    assert not out.exists()
