"""`check --output` never destroys or mixes data: an output that is one of the files the run
reads is refused, an output is locked for its run, ``--resume`` refuses what it cannot prove
compatible, SIGTERM stops a run as Ctrl-C does, and jigsaw regions are refused, not ignored.

(The rows of the table in docs/troubleshooting.md for data loss and silent corruption.)
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clitools import PLUGIN, error_line, jsonl, run, start_cli, wait_for_lines
from conftest import DATA, TESTS
from puzzles import EASY_LINES, EULER, INKALA

from sudoku_cp.batch.output import OutputLock

REAL = "backtrack"


# --- the output is one of the inputs ----------------------------------------------------------
def _spellings(tmp_path):
    """Ways of naming the input file as the output: itself, another spelling, links."""
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / "in.txt", tmp_path / "link.txt")
    os.link(tmp_path / "in.txt", tmp_path / "hard.txt")
    return {
        "same name": "in.txt",
        "another spelling": "sub/../in.txt",
        "absolute": str(tmp_path / "in.txt"),
        "a symlink": "link.txt",
        "a hard link": "hard.txt",
    }


@pytest.mark.parametrize(
    "how", ["same name", "another spelling", "absolute", "a symlink", "a hard link"]
)
def test_an_output_that_is_an_input_is_refused_before_anything_is_written(
    tmp_path, monkeypatch, how
):
    monkeypatch.chdir(tmp_path)
    original = "\n".join(EASY_LINES[:20]) + "\n"
    (tmp_path / "in.txt").write_text(original)
    output = _spellings(tmp_path)[how]
    result = run("check", "in.txt", "-b", REAL, "-j", "0", "-o", output, "-f", "jsonl", "-q")
    assert result.exit_code == 2
    assert error_line(result) == (
        f"sudoku-cp: error: the output {Path(output)} "
        "is the input in.txt: writing it would destroy what this run reads; "
        "choose another --output file"
    )
    assert (tmp_path / "in.txt").read_text() == original  # not truncated
    assert not list(tmp_path.glob("*.meta.json"))  # nothing written at all


def test_an_output_that_is_standard_input_or_the_model_file_or_whose_sidecar_is_an_input(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    original = "\n".join(EASY_LINES[:5]) + "\n"
    (tmp_path / "in.txt").write_text(original)
    model = tmp_path / "mine.toml"
    model_text = 'groups = ["rows", "columns", "boxes"]\n'
    model.write_text(model_text)
    with (tmp_path / "in.txt").open() as stdin:
        done = subprocess.run(
            [sys.executable, "-c", PLUGIN.format(tests=str(TESTS)), "check", "-", "-b", REAL]
            + ["-o", "in.txt", "-q"],
            cwd=tmp_path,
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert done.stderr == (
        "sudoku-cp: error: the output in.txt is standard input: writing it would destroy what "
        "this run reads; choose another --output file\n"
    )
    assert (tmp_path / "in.txt").read_text() == original
    result = run("check", "in.txt", "-b", REAL, "-m", "mine.toml", "-o", "mine.toml", "-q")
    assert result.exit_code == 2
    assert "the output mine.toml is the model file mine.toml" in error_line(result)
    assert model.read_text() == model_text
    # the sidecar the run would write is an input
    (tmp_path / "r.jsonl.meta.json").write_text(original)
    result = run("check", "r.jsonl.meta.json", "-b", REAL, "-o", "r.jsonl", "-q")
    assert result.exit_code == 2
    assert error_line(result) == (
        "sudoku-cp: error: the output's sidecar r.jsonl.meta.json is the input "
        "r.jsonl.meta.json: writing it would destroy what this run reads; choose another "
        "--output file"
    )
    assert (tmp_path / "r.jsonl.meta.json").read_text() == original


def test_dev_null_as_output_and_input_is_not_refused(tmp_path):
    result = run("check", EULER, "-b", REAL, "-j", "0", "-o", os.devnull, "-f", "jsonl", "-q")
    assert result.exit_code == 0, result.output


def test_a_copy_of_an_input_is_not_mistaken_for_it(tmp_path):
    # (the identity check compares files, not contents or names)
    copy = tmp_path / "easy.csv"
    shutil.copy(DATA / "easy.csv", copy)
    result = run("check", "easy", "-b", REAL, "-j", "0", "-o", str(copy), "-f", "csv", "-q")
    assert result.exit_code == 0, result.output


# --- the output is locked for its run ---------------------------------------------------------
LOCKED = (
    "sudoku-cp: error: output {} is being written by another sudoku-cp run; wait for it to "
    "finish (or stop it), or choose another --output file"
)


def test_a_locked_output_is_refused_at_once_and_left_as_it_was(tmp_path):
    out = tmp_path / "out.jsonl"
    assert run("check", EULER, "-b", REAL, "-j", "0", "-o", str(out), "-q").exit_code == 0
    before = out.read_bytes(), (tmp_path / "out.jsonl.meta.json").read_bytes()
    lock = OutputLock(out)  # as another run holds it
    try:
        for extra in ([], ["--resume"]):
            result = run("check", INKALA, "-b", REAL, "-j", "0", "-o", str(out), "-q", *extra)
            assert result.exit_code == 2
            assert error_line(result) == LOCKED.format(out)
            assert (out.read_bytes(), (tmp_path / "out.jsonl.meta.json").read_bytes()) == before
    finally:
        lock.release()
    assert run("check", INKALA, "-b", REAL, "-j", "0", "-o", str(out), "-q").exit_code == 0


@pytest.mark.slow
def test_two_runs_on_one_output_the_second_fails_and_nothing_is_recorded_twice(tmp_path):
    out = tmp_path / "out.jsonl"
    easy = str(DATA / "easy.csv")
    args = ["check", easy, easy, easy, easy, "-b", "test-slow", "-j", "1", "-o", str(out), "-q"]
    first = start_cli(tmp_path, *args)
    wait_for_lines(out, 3, first)
    for extra in ([], ["--resume"]):
        second = start_cli(tmp_path, *args, *extra)
        _, stderr = second.communicate(timeout=60)
        assert second.returncode == 2
        assert stderr == LOCKED.format(out) + "\n"
    _, stderr = first.communicate(timeout=120)
    assert first.returncode == 0, stderr
    records = jsonl(out.read_text())
    assert sorted(r["index"] for r in records) == list(range(1, 201))
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert len(meta["runs"]) == 1 and meta["summary"]["puzzles"] == 200


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_a_run_killed_with_sigkill_leaves_no_lock_even_while_its_worker_lingers(tmp_path):
    out = tmp_path / "out.jsonl"
    args = ["check", EULER, "-b", "test-sleepy", "-j", "1", "-o", str(out), "-q"]
    process = start_cli(tmp_path, *args)
    deadline = time.monotonic() + 60
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    workers = _children(process.pid)
    assert workers
    process.send_signal(signal.SIGKILL)  # the main process alone: its worker sleeps on
    process.wait()
    try:
        assert any(Path(f"/proc/{pid}").exists() for pid in workers)
        result = run("check", EULER, "-b", REAL, "-j", "0", "-o", str(out), "-q")
        assert result.exit_code == 0, result.output
        assert [r["verdict"] for r in jsonl(out.read_text())] == ["unique"]
    finally:
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


# --- --resume refuses what it cannot prove compatible -------------------------------------------
def _made(tmp_path, *inputs):
    out = tmp_path / "out.jsonl"
    result = run("check", *inputs, "-b", REAL, "-j", "0", "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    return out


def test_resume_without_the_sidecar_is_refused(tmp_path):
    out = _made(tmp_path, EULER)
    before = out.read_bytes()
    (tmp_path / "out.jsonl.meta.json").unlink()
    result = run("check", EULER, INKALA, "-b", "sat", "-j", "0", "-o", str(out), "--resume")
    assert result.exit_code == 2
    assert error_line(result) == (
        f"sudoku-cp: error: cannot resume {out}: its sidecar out.jsonl.meta.json is missing, so "
        "nothing shows which inputs and options made its records; run without --resume to "
        "start over (this overwrites it), or choose another --output file"
    )
    assert out.read_bytes() == before
    assert not (tmp_path / "out.jsonl.meta.json").exists()


@pytest.mark.parametrize(
    "sidecar", ["not json", "{}", '{"runs": []}', '{"runs": [], "settings": 1}']
)
def test_resume_with_a_sidecar_that_is_not_a_run_record_is_refused(tmp_path, sidecar):
    out = _made(tmp_path, EULER)
    before = out.read_bytes()
    (tmp_path / "out.jsonl.meta.json").write_text(sidecar)
    result = run("check", EULER, INKALA, "-b", REAL, "-j", "0", "-o", str(out), "--resume")
    assert result.exit_code == 2
    assert "its sidecar out.jsonl.meta.json is not a sudoku-cp run record" in error_line(result)
    assert out.read_bytes() == before


def test_resume_refuses_a_sidecar_lacking_a_setting_or_a_changed_input(tmp_path):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(EULER + "\n")
    out = _made(tmp_path, str(puzzles))
    sidecar = tmp_path / "out.jsonl.meta.json"
    meta = json.loads(sidecar.read_text())
    del meta["settings"]["backends"]
    sidecar.write_text(json.dumps(meta))
    result = run("check", str(puzzles), "-b", REAL, "-j", "0", "-o", str(out), "--resume")
    assert result.exit_code == 2
    assert "cannot resume: the output was made with backends None, not ['backtrack']" in (
        error_line(result)
    )
    out = _made(tmp_path, str(puzzles))
    puzzles.write_text(INKALA + "\n")
    result = run("check", str(puzzles), "-b", REAL, "-j", "0", "-o", str(out), "--resume")
    assert error_line(result) == (
        f"sudoku-cp: error: cannot resume: input {puzzles} has changed since the output was made"
    )


def test_resume_refuses_an_output_holding_a_puzzle_twice(tmp_path):
    out = tmp_path / "out.jsonl"
    args = ["check", EULER, INKALA, EULER, "-b", REAL, "-j", "0", "-o", str(out), "-q"]
    assert run(*args).exit_code == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:2] + lines[:1]))  # as two runs writing at once leave it
    before = out.read_bytes()
    result = run(*args, "--resume")
    assert result.exit_code == 2
    assert error_line(result) == (
        f"sudoku-cp: error: cannot resume {out}: it records a puzzle more than once (1 extra "
        "record: two runs wrote it at once?); run without --resume to start over (this "
        "overwrites it), or choose another --output file"
    )
    assert out.read_bytes() == before


def test_resume_refuses_a_changed_model_file(tmp_path):
    model = tmp_path / "mine.toml"
    model.write_text('groups = ["rows", "columns", "boxes"]\n')
    out = tmp_path / "out.jsonl"
    args = ["check", EULER, INKALA, "-b", REAL, "-j", "0", "-m", str(model), "-o", str(out)]
    assert run(*args, "-q").exit_code == 0
    model.write_text('groups = ["rows", "columns", "boxes", "diagonal"]\n')
    result = run(*args, "--resume")
    assert result.exit_code == 2
    assert error_line(result) == (
        f"sudoku-cp: error: cannot resume: model file {model} has changed since the output was "
        "made (or the output does not record its content); use another output file"
    )


def test_resume_from_standard_input_is_refused(tmp_path):
    out = tmp_path / "out.jsonl"
    args = ["check", "-", "-b", REAL, "-j", "0", "-o", str(out), "-q"]
    assert run(*args, input=EULER + "\n").exit_code == 0
    result = run(*args, "--resume", input=EULER + "\n" + INKALA + "\n")
    assert result.exit_code == 2
    assert error_line(result) == (
        "sudoku-cp: error: cannot resume: standard input cannot be compared with what the "
        "output was made from; save it to a file, check that file, and resume with it"
    )
    assert len(jsonl(out.read_text())) == 1


def test_resume_of_an_output_that_does_not_exist_yet_starts_it(tmp_path):
    out = tmp_path / "out.jsonl"
    result = run("check", EULER, "-b", REAL, "-j", "0", "-o", str(out), "--resume", "-q")
    assert result.exit_code == 0, result.output
    assert len(jsonl(out.read_text())) == 1


# --- SIGTERM stops a run as Ctrl-C does ---------------------------------------------------------
@pytest.mark.slow
def test_sigterm_writes_every_record_the_summary_and_the_mark_then_resume_finishes(tmp_path):
    out = tmp_path / "out.jsonl"
    args = ["check", str(DATA / "easy.csv"), "-b", "test-slow", "-j", "1", "-o", str(out)]
    process = start_cli(tmp_path, *args)
    wait_for_lines(out, 3, process)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 143
    before = jsonl(out.read_text())
    assert 3 <= len(before) < 50 and out.read_text().endswith("\n")
    assert stderr.strip().splitlines()[-1] == (
        f"sudoku-cp: terminated (SIGTERM) after {len(before)} puzzles, every finished record "
        f"written to {out} — to finish, run the same command again with --resume"
    )
    assert "Traceback" not in stderr
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["runs"][0]["interrupted"] is True
    assert meta["runs"][0]["records_written"] == len(before)
    assert meta["summary"]["puzzles"] == len(before)
    resumed = start_cli(tmp_path, *args, "--resume", "-q")
    _, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    after = jsonl(out.read_text())
    assert sorted(r["index"] for r in after) == list(range(1, 51))


@pytest.mark.slow
def test_sigterm_to_the_whole_process_group_stops_the_run_and_no_worker_death_is_recorded(
    tmp_path,
):
    # (as a job scheduler or `kill -TERM -PGID` does: the workers get SIGTERM too)
    out = tmp_path / "out.jsonl"
    easy = str(DATA / "easy.csv")
    args = ["check", easy, easy, "-b", "test-slow", "-j", "2", "-o", str(out), "-q"]
    process = subprocess.Popen(
        [sys.executable, "-c", PLUGIN.format(tests=str(TESTS)), *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    wait_for_lines(out, 3, process)
    os.killpg(process.pid, signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 143, stderr
    records = jsonl(out.read_text())
    assert {r["verdict"] for r in records} == {"unique"}
    assert len({r["index"] for r in records}) == len(records) < 100
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["runs"][0]["interrupted"] is True
    assert meta["runs"][0]["records_written"] == len(records)


SIGNAL_WHILE_CLOSING = (
    "import os, signal, sys\n"
    "import sudoku_cp.batch.command as command\n"
    "real = command.close_run\n"
    "def close_run(*args):\n"
    "    os.kill(os.getpid(), signal.{name})  # while the sidecar is being finished\n"
    "    real(*args)\n"
    "command.close_run = close_run\n"
    "from sudoku_cp.cli import main\n"
    "main()\n"
)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_signal_while_the_run_closes_is_held_until_the_sidecar_is_written(tmp_path, name):
    out = tmp_path / "out.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_WHILE_CLOSING.format(name=name), "check", EULER, INKALA]
        + ["-b", REAL, "-j", "1", "-o", str(out), "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr  # every puzzle was checked: the run stands
    assert len(jsonl(out.read_text())) == 2
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["runs"][0]["finished"] is not None and meta["summary"]["puzzles"] == 2


# --- jigsaw regions are refused, never ignored --------------------------------------------------
JIGSAW_REGIONS = "".join(str(1 + (i % 81) // 9) for i in range(81))  # the rows, as regions


def test_a_csv_with_a_regions_column_is_read_as_jigsaw(tmp_path):
    # (Refused until issue 13 read regions.) With the rows as its regions there are no boxes:
    # EULER's givens then leave a Latin square with many solutions.
    path = tmp_path / "jigsaw.csv"
    path.write_text(f"id,puzzle,regions\nj1,{EULER},{JIGSAW_REGIONS}\n")
    result = run("check", "-b", REAL, "-j", "0", "-f", "jsonl", "-q", str(path))
    assert result.exit_code == 1
    [record] = jsonl(result.stdout)
    assert record["verdict"] == "multiple"


def test_a_json_record_with_regions_is_read_and_an_empty_one_is_classic(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        json.dumps({"id": "j1", "puzzle": EULER, "regions": JIGSAW_REGIONS[:80]})
        + "\n"
        + json.dumps({"id": "plain", "puzzle": EULER, "regions": None})
        + "\n"
    )
    result = run("check", str(path), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    assert result.exit_code == 1
    records = {r["id"]: r for r in jsonl(result.stdout)}
    assert records["j1"]["verdict"] == "invalid"
    assert records["j1"]["reason"] == (
        "line 1: regions: 80 symbols, not the 81 cells of a 9x9 grid"
    )
    assert records["plain"]["verdict"] == "unique"  # an empty 'regions' is classic Sudoku


@pytest.mark.parametrize(
    ("regions", "reason"),
    [
        # a list of one-symbol strings, or of numbers 0..35 / 1..36: the same regions
        ([ch for ch in JIGSAW_REGIONS], None),
        ([int(ch) for ch in JIGSAW_REGIONS], None),
        ([int(ch) - 1 for ch in JIGSAW_REGIONS], None),
        # anything else is refused, never dropped (it was read as classic Sudoku: unique)
        ([40] * 81, "line 1: regions: region number 40 is not in 0..35 (or 1..36)"),
        (["10"] * 81, "line 1: regions: a list must hold a region number or a one-symbol"),
        ([1, "1"] * 40 + [1], "line 1: regions: a list must hold a region number or a one-sym"),
        ([True] * 81, "line 1: regions: a list must hold a region number or a one-symbol"),
    ],
)
def test_a_regions_list_is_read_or_refused_never_dropped(tmp_path, regions, reason):
    path = tmp_path / "listed.jsonl"
    path.write_text(json.dumps({"id": "j1", "puzzle": EULER, "regions": regions}) + "\n")
    result = run("check", str(path), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    [record] = jsonl(result.stdout)
    if reason is None:  # the rows as regions: a Latin square with many solutions
        assert record["verdict"] == "multiple", record
    else:
        assert record["verdict"] == "invalid" and record["reason"].startswith(reason), record


# --- a record's stated solution is compared; a misspelt key or column is refused ----------------
def test_a_stated_solution_in_json_lines_or_csv_is_the_published_one(tmp_path):
    """A JSON ``solution`` or a CSV ``solution`` column is compared with what the backends find,
    as an f-puzzles one is (it was read and never compared: a wrong one passed as unique)."""
    from puzzles import EULER_SOLUTION

    rotated = EULER_SOLUTION[::-1]  # a valid grid, not EULER's solution
    lines = [
        {"id": "right", "puzzle": EULER, "solution": EULER_SOLUTION},
        {"id": "wrong", "puzzle": EULER, "solution": rotated},
        {"id": "short", "puzzle": EULER, "solution": EULER_SOLUTION[:80]},
        # one of several solutions (a count above one): not the setter's, not compared
        {"id": "one of", "puzzle": "." * 81, "solution": EULER_SOLUTION, "solution_count": 2},
    ]
    path = tmp_path / "stated.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = run("check", str(path), "-b", REAL, "-j", "0", "-f", "jsonl", "-q", "-n", "2")
    records = {r["id"]: r for r in jsonl(result.stdout)}
    assert records["right"]["verdict"] == "unique"
    assert records["wrong"]["verdict"] == "disagreement"
    assert "published solution" in records["wrong"]["reason"]
    assert records["short"]["verdict"] == "invalid"
    assert records["short"]["reason"].startswith("line 3: solution: read 80 cells")
    assert records["one of"]["verdict"] == "multiple"
    csv_path = tmp_path / "stated.csv"
    csv_path.write_text(f"id,puzzle,solution\nwrong,{EULER},{rotated}\n")
    result = run("check", str(csv_path), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    assert result.exit_code == 3
    assert jsonl(result.stdout)[0]["verdict"] == "disagreement"


@pytest.mark.parametrize("key", ["cage", "Cages", "varient", "regoins"])
def test_a_misspelt_json_key_is_refused_not_dropped(tmp_path, key):
    """Read as the record's own data, a misspelt rule key dropped its rule: a killer cage that
    leaves no solution was solved as classic Sudoku (unique)."""
    path = tmp_path / "typo.jsonl"
    cage = [{"cells": [1, 2], "sum": 1}]  # no two digits sum to 1
    path.write_text(json.dumps({"id": "t", "puzzle": EULER, key: cage}) + "\n")
    result = run("check", str(path), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    [record] = jsonl(result.stdout)
    assert record["verdict"] == "invalid"
    assert record["reason"].startswith(f"line 1: unknown key {key!r} (did you mean")
    # other keys are the record's own data
    path.write_text(json.dumps({"id": "t", "puzzle": EULER, "source": "x", "level": 3}) + "\n")
    result = run("check", str(path), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    assert jsonl(result.stdout)[0]["verdict"] == "unique"


@pytest.mark.parametrize(
    ("column", "words"),
    [("cages", "CSV does not read a 'cages' column"), ("regoins", "did you mean 'regions'")],
)
def test_a_csv_column_of_unread_rules_or_misspelt_is_refused(tmp_path, column, words):
    path = tmp_path / "typo.csv"
    path.write_text(f"puzzle,{column}\n{EULER},x\n")
    result = run("check", str(path), "-b", REAL, "-j", "0", "-q")
    assert result.exit_code == 2
    assert words in error_line(result)


def test_resume_names_how_the_backends_were_asked_for(tmp_path):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(EULER + "\n")
    out = tmp_path / "out.jsonl"
    assert run("check", str(puzzles), "-j", "0", "-o", str(out), "-q").exit_code == 0
    result = run(
        "check", str(puzzles), "-b", "sat,backtrack", "-j", "0", "-o", str(out), "--resume"
    )
    assert result.exit_code == 2
    assert error_line(result) == (  # (it said "made with --backends auto, not given")
        "sudoku-cp: error: cannot resume: the output was made with --backends auto (chosen for "
        "each puzzle), not --backends sat,backtrack; use the same options or another output file"
    )


def test_resume_takes_the_same_input_by_another_path(tmp_path, monkeypatch):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(EULER + "\n" + INKALA + "\n")
    out = _made(tmp_path, str(puzzles))
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")  # ../p.txt is the same file, its content unchanged
    result = run("check", "../p.txt", "-b", REAL, "-j", "0", "-o", str(out), "--resume", "-q")
    assert result.exit_code == 0, result.output
    assert len(out.read_text().splitlines()) == 2


_DAMAGED = {
    "an index past 64 bits": lambda r: {**r, "index": 10**30},
    "an index of 1e999": lambda r: '{"id": "5", "verdict": "unique", "index": 1e999}',
    "a count of 1e999": lambda r: '{"id": "5", "verdict": "unique", "index": 5, "count": 1e999}',
    "backends as a list": lambda r: {**r, "backends": [1, 2]},
    "a time that is NaN": lambda r: json.dumps(r).replace(
        '"seconds": ', '"seconds": NaN, "x": ', 1
    ),
    "a rating as a list": lambda r: {**r, "rating": [1]},
    "an ER of 1e999": lambda r: {**r, "rating": {"scale": "se", "er": float("inf")}},
    "nested too deeply": lambda r: "[" * 100_000 + "]" * 100_000,
    "a witness that is no grid": lambda r: {**r, "solutions": "abc"},
    "a negative index": lambda r: {**r, "index": -1},
    "no index": lambda r: {k: v for k, v in r.items() if k != "index"},  # (was read as 1)
}


@pytest.mark.parametrize("how", list(_DAMAGED))
def test_resume_skips_a_damaged_record_without_a_traceback_and_checks_its_puzzle_again(
    tmp_path, how
):
    """A record line damaged or edited past what the reader checked crashed --resume with a
    traceback (OverflowError, AttributeError, RecursionError, a NaN in the summary's times) or
    stopped it on a grid error naming no file; it is skipped as a malformed line always was."""
    puzzles = tmp_path / "in.txt"
    puzzles.write_text("\n".join(EASY_LINES[:8]) + "\n")
    out = tmp_path / "out.jsonl"
    args = ["check", str(puzzles), "-b", REAL, "-j", "0", "-o", str(out), "-f", "jsonl", "-q"]
    assert run(*args).exit_code == 0
    lines = out.read_text().splitlines()
    fifth = next(i for i, line in enumerate(lines) if json.loads(line)["index"] == 5)
    damaged = _DAMAGED[how](json.loads(lines[fifth]))
    lines[fifth] = damaged if isinstance(damaged, str) else json.dumps(damaged)
    out.write_text("\n".join(lines) + "\n")
    result = run(*args, "--resume")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.output
    after = out.read_text().splitlines()
    assert after[fifth] == lines[fifth]  # (left as it is)
    again = [json.loads(line)["index"] for line in after[:fifth] + after[fifth + 1 :]]
    assert sorted(again) == list(range(1, 9))  # puzzle 5 checked again, once
