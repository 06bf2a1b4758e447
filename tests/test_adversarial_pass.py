"""What the third adversarial pass of issue 14 found, each pinned by a test that failed before
its fix (docs/troubleshooting.md)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys

import pytest
from clitools import error_line, jsonl, run
from conftest import DATA
from puzzles import EULER, INKALA

REAL = "backtrack"


def test_resume_refuses_another_input_format(tmp_path):
    # Read as lines, the CSV's header is puzzle 1 and every index shifts by one: resuming a
    # CSV-read output so recorded the header as a puzzle and the last puzzle as invalid.
    puzzles = tmp_path / "p.csv"
    puzzles.write_text(f"id,puzzle\na,{EULER}\nb,{INKALA}\n")
    out = tmp_path / "out.jsonl"
    args = ["check", str(puzzles), "-b", REAL, "-j", "0", "-o", str(out), "-q"]
    assert run(*args).exit_code == 0
    out.write_text(out.read_text().splitlines(keepends=True)[0])  # as an interrupted run
    before = out.read_bytes()
    result = run(*args, "--resume", "--input-format", "line")
    assert result.exit_code == 2
    assert error_line(result) == (
        "sudoku-cp: error: cannot resume: the output was made with input_format 'auto', not "
        "'line'; use the same options or another output file"
    )
    assert out.read_bytes() == before
    result = run(*args, "--resume")
    assert result.exit_code == 0, result.output
    assert sorted((r["index"], r["id"]) for r in jsonl(out.read_text())) == [(1, "a"), (2, "b")]


def test_an_output_named_like_a_sidecar_is_refused(tmp_path):
    # Run B writing a.jsonl.meta.json while run A writes a.jsonl: A's closing sidecar was renamed
    # over B's output, and B's records were gone though it exited 0.
    (tmp_path / "a.jsonl.meta.json").write_text("{}")
    os.symlink(tmp_path / "a.jsonl.meta.json", tmp_path / "link.jsonl")
    for name in ("a.jsonl.meta.json", "new.meta.json", "link.jsonl"):
        out = tmp_path / name
        result = run("check", EULER, "-b", REAL, "-j", "0", "-o", str(out), "-q")
        assert result.exit_code == 2
        assert error_line(result) == (
            f"sudoku-cp: error: the output {out} is named like a sidecar (FILE.meta.json, the "
            "run record written beside an output, replaced whole when its run ends); choose "
            "another --output file"
        )
    assert (tmp_path / "a.jsonl.meta.json").read_text() == "{}"
    assert not (tmp_path / "new.meta.json").exists()


def test_a_certify_folder_another_run_writes_is_refused(tmp_path):
    # Certificates are named by input position: two runs certifying into one folder replaced
    # each other's, both exited 0, and one run's records named the other's puzzles' files.
    pytest.importorskip("dratify")
    certs = tmp_path / "certs"
    certs.mkdir()
    out = tmp_path / "out.jsonl"
    args = ["check", EULER, "-b", REAL, "-j", "0", "--certify", str(certs), "-o", str(out), "-q"]
    fd = os.open(certs, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as another run holds it
        result = run(*args)
        assert result.exit_code == 2
        assert error_line(result) == (
            f"sudoku-cp: error: certificate folder {certs} is being written by another "
            "sudoku-cp run; wait for it to finish (or stop it), or choose another --certify "
            "folder"
        )
        assert list(certs.iterdir()) == []
    finally:
        os.close(fd)
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert [r["certified"] for r in jsonl(out.read_text())] == [True]


def test_ctrl_c_while_the_command_line_loads_is_one_line_not_a_traceback():
    # Ctrl-C 0.18 s into a `check` landed in `import click` under sudoku_cp.cli: a traceback.
    # Here the import of click raises KeyboardInterrupt, as the signal did.
    script = (
        "import sys\n"
        "class Finder:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'click':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Finder())\n"
        "from sudoku_cp.cli import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "check", EULER], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (
        130,
        "sudoku-cp: interrupted while starting; nothing was done\n",
    )


def _bench_record(tmp_path):
    """A bench record of one puzzle file, as `bench` writes it (without running one)."""
    data = tmp_path / "one.txt"
    data.write_text(EULER + "\n")
    sha256 = hashlib.sha256(data.read_bytes()).hexdigest()
    record = {
        "format": "sudoku-cp-bench/1",
        "seed": 1,
        "options": {
            **{"limit": 2, "repeat": 1, "time_limit": 5.0, "jobs": 1, "warmup": True},
            **{"model": "classic", "box": None, "baseline": "backtrack:fast"},
        },
        "backends": [
            {"label": "backtrack:fast", "backend": "backtrack", "strategy": "fast", "options": {}}
        ],
        "datasets": [{"name": "one", "source": "file", "path": str(data), "sha256": sha256}],
    }
    return record


def test_a_replay_writing_over_the_record_it_replays_is_refused(tmp_path):
    # `bench --replay old -o old` replaced the record and the table it was compared with.
    record = _bench_record(tmp_path)
    old = tmp_path / "old"
    old.mkdir()
    (old / "record.json").write_text(json.dumps(record))
    columns = "dataset,puzzle_id,backend,strategy,limit,repeat,status,count,seconds,exact,valid"
    (old / "results.csv").write_text(columns + ",verdict,agrees,note\n")  # (no rows needed)
    before = {p.name: p.read_bytes() for p in old.iterdir()}
    for replay, out, clash in (
        (old, old, "results.csv"),
        (old / "record.json", tmp_path / "old" / ".." / "old", "results.csv"),
    ):
        result = run("bench", "--replay", str(replay), "-o", str(out), "-q")
        assert result.exit_code == 2
        assert error_line(result) == (
            f"sudoku-cp: error: the output {out / clash} is the input {old / clash}: writing "
            "it would destroy what this run reads; choose another --output folder"
        )
    (old / "results.csv").unlink()
    result = run("bench", "--replay", str(old), "-o", str(old), "-q")
    assert error_line(result) == (
        f"sudoku-cp: error: the output {old / 'record.json'} is the input "
        f"{old / 'record.json'}: writing it would destroy what this run reads; choose another "
        "--output folder"
    )
    assert {p.name: p.read_bytes() for p in old.iterdir()} == {
        k: v for k, v in before.items() if k != "results.csv"
    }


def test_a_16x16_puzzle_given_as_text_is_checked_and_counted():
    # 256 characters is longer than a file name may be: asking whether it names a file raised
    # "File name too long", a traceback for every 16x16 (or larger) puzzle on the command line.
    line = (DATA / "16x16.csv").read_text().splitlines()[1].split(",")[1]
    assert len(line) == 256
    result = run("check", line, "-b", REAL, "-j", "0", "-f", "jsonl")
    assert result.exit_code == 0, result.output
    assert [r["verdict"] for r in jsonl(result.stdout)] == ["unique"]
    result = run("count", line, "-b", REAL, "-j", "0", "-n", "5", "-q")
    assert (result.exit_code, result.stdout) == (0, "1: exactly 1 solution\n")


def test_names_too_long_for_the_file_system_are_one_line_errors(tmp_path):
    long = str(tmp_path / ("x" * 300))
    cases = [
        (["check", EULER, "-j", "0", "-o", long + ".jsonl"], "cannot write output file"),
        (["count", EULER, "-j", "0", "-o", long + ".jsonl", "--resume"], "cannot write output"),
        (["check", long + ".txt", "-j", "0"], "cannot read"),
        (["bench", long + ".txt", "-q"], "no puzzle file or bundled set named"),
        (["bench", "--replay", long], "cannot read record"),
        (["solve", EULER, "-m", "x" * 300], "unknown model"),
    ]
    for args, start in cases:
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert error_line(result).startswith(f"sudoku-cp: error: {start}"), args


def test_a_replay_record_whose_backend_is_not_its_labels_is_refused(tmp_path):
    # The options of a spec are keyed by its 'backend' field: another name dropped them, and
    # the replay ran with default options, exit 0.
    record = _bench_record(tmp_path)
    record["backends"][0]["backend"] = "sat"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = run("bench", "--replay", str(path), "-o", str(tmp_path / "again"), "-q")
    assert result.exit_code == 2
    assert error_line(result) == (
        "sudoku-cp: error: bench record: field 'backends[0].backend' is 'sat', but its label "
        "'backtrack:fast' names backend 'backtrack'"
    )


def test_a_results_table_with_a_value_that_is_not_a_number_is_one_line(tmp_path):
    # A hand-edited or foreign results.csv ended `plot` in a ValueError traceback.
    columns = "dataset,puzzle_id,backend,strategy,limit,repeat,status,count,seconds,exact,valid"
    row = "one,1,backtrack,fast,2,1,unique,1,fast,true,true"
    (tmp_path / "results.csv").write_text(f"{columns},verdict,agrees,note\n{row},unique,true,\n")
    result = run("plot", str(tmp_path), "--no-figures")
    assert result.exit_code == 2
    assert error_line(result) == (
        f"sudoku-cp: error: '{tmp_path / 'results.csv'}', line 2: column 'seconds' holds 'fast', "
        "not a number"
    )
    pytest.importorskip("pyarrow")
    (tmp_path / "results.parquet").write_bytes(b"not parquet at all")
    result = run("plot", str(tmp_path / "results.parquet"), "--no-figures")
    assert result.exit_code == 2
    assert error_line(result).startswith(
        f"sudoku-cp: error: cannot read '{tmp_path / 'results.parquet'}' as Parquet: "
    )


def test_a_model_file_nested_too_deeply_is_one_line(tmp_path):
    # 8 kB of brackets, far within the 1 MiB cap, ended in a RecursionError traceback.
    for name, text in (
        ("arrays.toml", "groups = " + "[" * 2000 + "]" * 2000 + "\n"),
        ("tables.toml", "a = " + "{b = " * 2000 + "1" + "}" * 2000 + "\n"),
    ):
        model = tmp_path / name
        model.write_text(text)
        for command in (["solve", EULER], ["check", EULER, "-j", "0"]):
            result = run(*command, "-m", str(model))
            assert result.exit_code == 2
            assert error_line(result) == (
                f"sudoku-cp: error: model file {model} is not a model: its arrays or tables are "
                "nested too deeply"
            )


def test_a_certify_folder_an_earlier_run_filled_is_refused_unless_resumed(tmp_path):
    # One run after another into the same folder: the second's certificate 1 replaced the
    # first's, whose record still pointed at it (now another puzzle's proof).
    pytest.importorskip("dratify")
    certs = tmp_path / "certs"
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    base = ["-b", REAL, "-j", "0", "--certify", str(certs), "-q"]
    assert run("check", EULER, *base, "-o", str(first)).exit_code == 0
    kept = {p.name: p.read_bytes() for p in certs.iterdir()}
    result = run("check", INKALA, *base, "-o", str(second))
    assert result.exit_code == 2
    assert error_line(result) == (
        f"sudoku-cp: error: --certify {certs}: the folder already holds 1 certificate of "
        "another run (they would be replaced): choose an empty folder, or --resume the run "
        "that wrote them"
    )
    assert {p.name: p.read_bytes() for p in certs.iterdir()} == kept
    # --resume of the run that wrote them goes on (nothing left to do here).
    assert run("check", EULER, *base, "-o", str(first), "--resume").exit_code == 0


def test_check_refuses_to_write_the_named_pipe_it_reads(tmp_path):
    # `check FIFO -o FIFO` opened the pipe to read it, waiting for a writer that was itself.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", "check", str(fifo), "-b", REAL, "-o", str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"sudoku-cp: error: the output {fifo} is the input {fifo}: writing it would destroy "
        "what this run reads; choose another --output file\n"
    )
