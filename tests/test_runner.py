"""Many puzzles: worker processes, hard time limits, streamed output, resume, exit statuses.

Real puzzles and real backends throughout; the only stand-ins are small Backend subclasses
added with the public ``register`` (a backend that hangs on one puzzle, one that lies, one
that is slow so a run can be killed midway).
"""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DATA
from test_harness import EASY, INKALA, SERG, WrongSolution, no_solution_puzzle

from sudoku_cp import Puzzle
from sudoku_cp.backends import Backend, get_backend, register
from sudoku_cp.backends import unregister as unregister_backend
from sudoku_cp.batch import (
    IndexSet,
    check_puzzles,
    json_line,
    read_records,
    repair_torn_tail,
)
from sudoku_cp.cli import main
from sudoku_cp.formats import read_input
from sudoku_cp.result import Status, Verdict

REAL = "backtrack"
EASY_LINES = [row["puzzle"] for row in csv.DictReader((DATA / "easy.csv").open())]


class SlowOnOne(Backend):
    """The real backtracker, except that it never returns on one chosen puzzle."""

    name = "test-stuck-on-one"
    summary = "hangs on INKALA, solves everything else"

    def search(self, puzzle, limit, deadline, options):
        if puzzle.to_line() == INKALA:
            while True:
                time.sleep(0.01)
        real = get_backend(REAL)
        return real.search(puzzle, limit, deadline, real.check_options({}))


@pytest.fixture
def registered():
    added = (SlowOnOne, WrongSolution)
    for cls in added:
        register(cls, replace=True)
    yield
    for cls in added:
        unregister_backend(cls.name)


def mixed_file(folder: Path) -> Path:
    """A CSV with every kind of record: unique, multiple, none, malformed, repeated given."""
    path = folder / "mixed.csv"
    rows = [("easy", EASY), ("serg", SERG), ("nosol", no_solution_puzzle()),
            ("short", "12345"), ("twice", "11" + "." * 79), ("inkala", INKALA)]
    path.write_text("id,puzzle\n" + "".join(f"{i},{p}\n" for i, p in rows))
    return path


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


# --- the Python API -----------------------------------------------------------------------------
def test_check_puzzles_yields_every_puzzle_once_with_its_verdict(tmp_path):
    records = list(check_puzzles(read_input(str(mixed_file(tmp_path))), [REAL], jobs=2))
    by_id = {r.id: r for r in records}
    assert sorted(r.index for r in records) == [1, 2, 3, 4, 5, 6]
    assert {k: r.verdict for k, r in by_id.items()} == {
        "easy": Verdict.UNIQUE, "serg": Verdict.MULTIPLE, "nosol": Verdict.NONE,
        "short": Verdict.INVALID, "twice": Verdict.INVALID, "inkala": Verdict.UNIQUE,
    }
    assert by_id["short"].line == 5 and "line 5" in by_id["short"].reason
    assert "given twice" in by_id["twice"].reason


@pytest.mark.parametrize("jobs", [0, 2])
def test_lines_parsed_in_the_workers_give_the_same_records(tmp_path, jobs):
    # read_input(defer=True) leaves each line's parsing to whoever checks it (as `check` does)
    path = mixed_file(tmp_path)

    def answers(records):
        return sorted((r.index, r.id, r.line, r.verdict, r.count, r.reason, r.solutions)
                      for r in records)

    eager = answers(check_puzzles(read_input(str(path)), [REAL], jobs=0))
    assert answers(check_puzzles(read_input(str(path), defer=True), [REAL], jobs=jobs)) == eager


def test_in_process_and_worker_processes_agree():
    def answers(jobs):
        records = check_puzzles(EASY_LINES[:10], [REAL], jobs=jobs)
        return sorted((r.index, r.verdict, r.solutions) for r in records)

    assert answers(0) == answers(2)


def test_a_backend_stuck_on_one_puzzle_times_out_there_and_the_batch_completes(registered):
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


def test_records_read_back_and_a_torn_last_line_is_dropped(tmp_path):
    out = tmp_path / "r.jsonl"
    lines = [json.dumps(r.to_dict()) for r in check_puzzles(EASY_LINES[:3], [REAL], jobs=0)]
    out.write_text("\n".join(lines) + "\n" + lines[0][:40])
    assert len(list(read_records(out))) == 3
    assert repair_torn_tail(out) == 40
    assert out.read_text().endswith("\n")


def test_a_json_line_reads_back_as_the_record_even_where_the_fast_encoder_refuses():
    record = next(check_puzzles([EASY], [REAL], jobs=0)).to_dict()
    record["id"] = 'ünïcode "quoted"\tid'
    assert json.loads(json_line(record)) == record
    assert json_line(record).endswith(b"}\n") and json_line(record).count(b"\n") == 1
    record["backends"][REAL]["counters"] = {"huge": 2**70}  # beyond orjson's 64-bit integers
    assert json.loads(json_line(record)) == record


def test_index_set_keeps_a_mark_and_the_few_above_it():
    done = IndexSet([1, 2, 3, 5, 8])
    assert done.mark == 3 and done.above == {5, 8} and len(done) == 5
    assert all(i in done for i in (1, 2, 3, 5, 8)) and 4 not in done and 9 not in done


# --- the command line ---------------------------------------------------------------------------
def test_check_exit_0_when_every_puzzle_is_unique_and_table_lists_them():
    result = run("check", EASY, INKALA, "-b", REAL, "-j", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["id", "verdict", "count"]
    rows = [line.split() for line in lines[1:3]]
    assert [row[:3] for row in rows] == [["1", "unique", "1"], ["2", "unique", "1"]]
    assert "puzzles checked" in result.output and "median" in result.output


def test_check_exit_1_for_multiple_none_or_invalid(tmp_path):
    for puzzle in (SERG, no_solution_puzzle(), "12345"):
        assert run("check", puzzle, "-b", REAL, "-j", "0", "-q").exit_code == 1


def test_check_exit_3_for_a_disagreement(registered):
    result = run("check", INKALA, "-b", f"{REAL},test-wrong", "-j", "1", "-f", "jsonl", "-q")
    assert result.exit_code == 3
    record = json.loads(result.stdout)
    assert record["verdict"] == "disagreement"
    assert "test-wrong is wrong" in record["reason"]


def test_check_exit_3_when_undecided(registered):
    result = run("check", INKALA, "-b", "test-stuck-on-one", "-t", "0.2", "-j", "1", "-q")
    assert result.exit_code == 3
    assert "undecided" in result.stdout


@pytest.mark.parametrize("args, words", [
    (["no/such/file.txt"], "file not found"),
    ([EASY, "-b", "nope"], "unknown backend"),
    ([EASY, "-m", "nope"], "unknown model"),
    ([EASY, "--resume"], "--resume needs --output"),
    ([EASY, "-o", "/no/such/folder/out.jsonl"], "does not exist"),
    ([EASY, "-O", "backtrack.nope=1"], "no option"),
])
def test_check_exit_2_for_an_unusable_invocation(args, words):
    result = run("check", *args)
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output


def test_jsonl_output_has_every_field_and_a_meta_sidecar(tmp_path):
    source = mixed_file(tmp_path)
    out = tmp_path / "out.jsonl"
    result = run("check", str(source), "-b", REAL, "-j", "2", "-o", str(out), "-t", "30")
    assert result.exit_code == 1  # serg is multiple, nosol none, two invalid
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in records) == [1, 2, 3, 4, 5, 6]
    easy = next(r for r in records if r["id"] == "easy")
    assert easy["puzzle"] == EASY and easy["verdict"] == "unique"
    assert easy["count"] == 1 and easy["exact"] is True and len(easy["solutions"]) == 1
    run_ = easy["backends"][REAL]
    assert run_["status"] == "unique" and run_["count"] == 1
    assert run_["seconds"] > 0 and isinstance(run_["counters"], dict)
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["settings"]["backends"] == [REAL] and meta["settings"]["limit"] == 2
    assert meta["settings"]["time_limit"] == 30
    assert meta["inputs"][0]["sha256"] and meta["inputs"][0]["kind"] == "file"
    assert meta["versions"]["python"] and REAL in meta["versions"]["backends"]
    assert meta["machine"]["cores"] >= 1 and meta["machine"]["cpu"]
    assert meta["runs"][0]["started"] and meta["runs"][0]["finished"]
    assert meta["summary"]["verdicts"]["invalid"] == 2


def test_csv_output_is_flat_with_per_backend_columns(tmp_path):
    out = tmp_path / "out.csv"
    result = run("check", str(mixed_file(tmp_path)), "-b", REAL, "-j", "1", "-o", str(out))
    assert result.exit_code == 1
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 6
    serg = next(r for r in rows if r["id"] == "serg")
    assert serg["verdict"] == "multiple" and serg["count"] == "2" and serg["exact"] == "False"
    assert serg["solution_1"] and serg["solution_2"] and serg["solution_1"] != serg["solution_2"]
    puzzle = Puzzle.parse(SERG)
    for column in ("solution_1", "solution_2"):  # witnesses in single-line form, as in JSON Lines
        assert len(serg[column]) == 81 and puzzle.is_solution(Puzzle.parse(serg[column]).cells)
    assert serg[f"{REAL}.status"] == "multiple" and float(serg[f"{REAL}.seconds"]) > 0
    assert {r.id for r in read_records(out)} == {r["id"] for r in rows}
    again = next(r for r in read_records(out) if r.id == "serg")
    assert all(puzzle.is_solution(grid) for grid in again.solutions) and again.count == 2


def test_count_exact_or_at_least():
    result = run("count", "1...\n..1.\n.1..\n...1", "--all", "-b", REAL, "-j", "0")
    assert result.exit_code == 0 and "exactly 18 solutions" in result.stdout
    result = run("count", "1...\n..1.\n.1..\n...1", "--limit", "5", "-b", REAL, "-j", "0")
    assert result.exit_code == 0 and "at least 5 solutions" in result.stdout
    result = run("count", "1...\n..1.\n.1..\n...1", "--limit", "5", "--all")
    assert result.exit_code == 2


# --- killed midway, then resumed ---------------------------------------------------------------
PLUGIN = '''
import time
from sudoku_cp.backends import get_backend, register
from sudoku_cp.backends.backtrack import BacktrackBackend

class Slow(BacktrackBackend):
    """The real backtracker, 40 ms slower per puzzle, so a run can be stopped midway."""
    name = "test-slow"
    def search(self, puzzle, limit, deadline, options):
        time.sleep(0.04)
        return super().search(puzzle, limit, deadline, options)

register(Slow)
'''


def start_cli(folder: Path, *args: str) -> subprocess.Popen:
    (folder / "slow_plugin.py").write_text(PLUGIN)
    env = dict(os.environ, PYTHONPATH=f"{folder}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    code = "import sys, slow_plugin; from sudoku_cp.cli import main; main()"
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env, cwd=folder,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_lines(path: Path, count: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"the run ended or stalled before {count} records: {process.poll()}")


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


def test_stopping_the_iteration_early_shuts_the_workers_down():
    records = check_puzzles(EASY_LINES * 4, [REAL], jobs=2)
    first = next(records)
    records.close()  # what a `break` out of a for loop does
    assert first.verdict is Verdict.UNIQUE
    assert not [p for p in multiprocessing.active_children() if p.is_alive()]
