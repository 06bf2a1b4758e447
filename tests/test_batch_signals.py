"""Ctrl-C and SIGTERM at any moment of a `check`, start-up included (the backends' imports,
hashing the inputs, reading the output for --resume, opening the pool): one line, the
documented exit status (130, 143), no traceback, an output and a sidecar --resume can finish,
every puzzle recorded exactly once.

Each case runs the command line as a real process that sends itself the signal at one point of
its start-up (a function of the run wrapped so that the signal comes just before it is called),
or is sent it from outside while a backend is slow to import.

(The "signal while starting" rows of the table in docs/troubleshooting.md.)
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clitools import jsonl
from conftest import DATA, TESTS

EASY = str(DATA / "easy.csv")  # 50 puzzles
ALL = list(range(1, 51))

STOP_AT = (
    "import os, signal, sys, importlib\n"
    "sys.path.insert(0, {tests!r})\n"
    "import fault_backends\n"
    "from sudoku_cp.backends import register\n"
    "register(fault_backends.SlowToStart)\n"
    "module = importlib.import_module({module!r})\n"
    "real = getattr(module, {name!r})\n"
    "def stop_here(*args, **kwargs):\n"
    "    os.kill(os.getpid(), signal.{signal})  # comes just before the real call\n"
    "    return real(*args, **kwargs)\n"
    "setattr(module, {name!r}, stop_here)\n"
    "from sudoku_cp.cli import main\n"
    "main()\n"
)

SLOW_TO_START = (
    "import sys; sys.path.insert(0, {tests!r})\n"
    "import fault_backends\n"
    "from sudoku_cp.backends import register\n"
    "register(fault_backends.SlowToStart)\n"
    "from sudoku_cp.cli import main\n"
    "main()\n"
)

# (module, function): where in the start-up the signal comes, in the order a run meets them
STARTING = {
    "loading the model": ("sudoku_cp.model", "load_model"),
    "hashing the inputs": ("sudoku_cp.batch.command", "describe_input"),
    "locking the output": ("sudoku_cp.batch.command", "OutputLock"),
    "reading the output": ("sudoku_cp.batch.command", "open_run"),
    "repairing a torn line": ("sudoku_cp.batch.resume", "repair_torn_tail"),
    "reading the records": ("sudoku_cp.batch.resume", "read_records"),
    "opening the output": ("sudoku_cp.batch.command", "RecordWriter"),
    "writing the sidecar": ("sudoku_cp.batch.command", "write_meta"),
}
OPENING = {  # the sidecar names the run by then: it ends as a run does (0 puzzles by this run)
    "opening the pool": ("sudoku_cp.batch.command", "run_batches"),
    "starting the workers": ("sudoku_cp.batch.check", "open_pool"),
}


def _cli(folder: Path, *args: str, stop_at: tuple[str, str] | None = None, sig: str = "SIGTERM"):
    if stop_at is None:
        code = "import sys; sys.argv[0] = 'sudoku-cp'\nfrom sudoku_cp.cli import main\nmain()\n"
    else:
        module, name = stop_at
        code = STOP_AT.format(tests=str(TESTS), module=module, name=name, signal=sig)
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,  # a hang guard
    )


def _args(out: Path) -> list[str]:
    return ["check", EASY, "-b", "backtrack", "-j", "1", "-o", str(out), "-q"]


def _status(sig: str) -> int:
    return 143 if sig == "SIGTERM" else 130


def _what(sig: str) -> str:
    return "terminated (SIGTERM)" if sig == "SIGTERM" else "interrupted"


def _half_done(tmp_path: Path, out: Path) -> None:
    """An output with the first 20 records and a torn 21st, as a killed run leaves it."""
    done = _cli(tmp_path, *_args(out))
    assert done.returncode == 0, done.stderr
    lines = sorted(out.read_text().splitlines(), key=lambda line: json.loads(line)["index"])
    out.write_text("\n".join(lines[:20]) + "\n" + lines[20][:30])


def _finish_and_check(tmp_path: Path, out: Path) -> None:
    """`--resume` finishes the run: every puzzle exactly once, a sidecar that reads."""
    resumed = _cli(tmp_path, *_args(out), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert sorted(r["index"] for r in jsonl(out.read_text())) == ALL
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["runs"][-1]["finished"] is not None and meta["runs"][-1]["interrupted"] is False
    assert meta["summary"]["puzzles"] == 50


def _one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def _starting_line(sig: str, out: Path) -> str:
    return (
        f"sudoku-cp: {_what(sig)} while starting, before any puzzle was checked — run the same "
        "command again"
    )


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("point", [p for p in STARTING if "torn" not in p and "records" not in p])
def test_a_signal_while_a_fresh_run_starts_ends_it_in_one_line_and_resume_finishes(
    tmp_path, point, sig
):
    out = tmp_path / "out.jsonl"
    stopped = _cli(tmp_path, *_args(out), stop_at=STARTING[point], sig=sig)
    assert stopped.returncode == _status(sig), stopped.stderr
    assert _one_line(stopped.stderr) == _starting_line(sig, out)
    assert not out.exists() or out.read_text() == ""  # nothing half-written
    _finish_and_check(tmp_path, out)


@pytest.mark.parametrize("point", list(STARTING))
def test_a_signal_while_a_resumed_run_starts_keeps_what_was_done_and_resume_finishes(
    tmp_path, point
):
    out = tmp_path / "out.jsonl"
    _half_done(tmp_path, out)
    before = out.read_bytes()
    sig = "SIGTERM" if len(point) % 2 else "SIGINT"  # both, across the points
    stopped = _cli(tmp_path, *_args(out), "--resume", stop_at=STARTING[point], sig=sig)
    assert stopped.returncode == _status(sig), stopped.stderr
    assert _one_line(stopped.stderr) == _starting_line(sig, out)
    kept = out.read_bytes()
    assert before.startswith(kept) and kept.count(b"\n") == 20  # at most the torn line dropped
    json.loads((tmp_path / "out.jsonl.meta.json").read_text())  # the sidecar still reads
    _finish_and_check(tmp_path, out)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("point", list(OPENING))
def test_a_signal_while_the_pool_opens_ends_the_run_with_its_mark_and_resume_finishes(
    tmp_path, point, sig
):
    out = tmp_path / "out.jsonl"
    _half_done(tmp_path, out)
    stopped = _cli(tmp_path, *_args(out), "--resume", stop_at=OPENING[point], sig=sig)
    assert stopped.returncode == _status(sig), stopped.stderr
    assert _one_line(stopped.stderr) == (
        f"sudoku-cp: {_what(sig)} after 0 puzzles, every finished record written to {out} — "
        "to finish, run the same command again with --resume"
    )
    assert len(jsonl(out.read_text())) == 20
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["runs"][-1]["interrupted"] is True and meta["runs"][-1]["records_written"] == 0
    _finish_and_check(tmp_path, out)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signal_from_outside_while_a_backend_imports_ends_the_run_in_one_line(tmp_path, sig):
    out = tmp_path / "out.jsonl"
    (tmp_path / "hold").write_text("")
    args = ["check", EASY, "-b", "test-slow-start", "-j", "1", "-o", str(out), "-q"]
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_TO_START.format(tests=str(TESTS)), *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60  # a hang guard
    while not (tmp_path / "starting").exists():
        assert process.poll() is None and time.monotonic() < deadline, process.poll()
        time.sleep(0.01)
    process.send_signal(getattr(signal, sig))
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == _status(sig), stderr
    assert _one_line(stderr) == _starting_line(sig, out)
    (tmp_path / "hold").unlink()
    resumed = subprocess.run(
        [sys.executable, "-c", SLOW_TO_START.format(tests=str(TESTS)), *args, "--resume"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert sorted(r["index"] for r in jsonl(out.read_text())) == ALL


def test_resume_after_a_run_stopped_before_its_sidecar_starts_over_despite_an_old_sidecar(
    tmp_path,
):
    # An earlier run with other options left a sidecar; a run with new options was stopped
    # after opening (emptying) the output and before writing its own sidecar.
    out = tmp_path / "out.jsonl"
    earlier = _cli(tmp_path, *_args(out), "--limit", "3")
    assert earlier.returncode == 0, earlier.stderr
    stopped = _cli(tmp_path, *_args(out), stop_at=STARTING["writing the sidecar"])
    assert stopped.returncode == 143 and out.read_text() == ""
    _finish_and_check(tmp_path, out)
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["settings"]["limit"] == 2 and len(meta["runs"]) == 1


def test_the_library_run_batch_takes_the_signals_itself(tmp_path):
    # run_batch without the command line's StopSignals: a signal before the pool still ends it
    # as Interrupted once the sidecar names the run.
    code = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "import sudoku_cp.batch.command as command\n"
        "from sudoku_cp.batch import BatchOptions, CheckConfig, Interrupted, run_batch\n"
        "real = command.run_batches\n"
        "def stop_here(*args, **kwargs):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return real(*args, **kwargs)\n"
        "command.run_batches = stop_here\n"
        f"options = BatchOptions(inputs=[{EASY!r}], config=CheckConfig.make('backtrack'),"
        " jobs=1, fmt='jsonl', output=Path('out.jsonl'))\n"
        "try:\n"
        "    run_batch(options)\n"
        "except Interrupted as err:\n"
        "    print(err.signum, err.summary.checked)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(int(signal.SIGTERM)), "0"]


TWICE_WHILE_CLOSING = (
    "import os, signal\n"
    "import sudoku_cp.batch.command as command\n"
    "real = command.close_run\n"
    "def close_run(*args):\n"
    "    os.kill(os.getpid(), signal.SIGTERM)  # held while the sidecar is finished\n"
    "    os.kill(os.getpid(), signal.SIGTERM)  # the second gets through\n"
    "    real(*args)\n"
    "command.close_run = close_run\n"
    "from sudoku_cp.cli import main\n"
    "main()\n"
)


def test_a_second_signal_while_the_run_closes_ends_it_in_one_line(tmp_path):
    out = tmp_path / "out.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", TWICE_WHILE_CLOSING, *_args(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 143, done.stderr
    assert _one_line(done.stderr) == (
        "sudoku-cp: terminated (SIGTERM) while the run closed; every finished record kept — "
        "to finish, run the same command again with --resume"
    )
    _finish_and_check(tmp_path, out)


SIGNAL_WHILE_SUMMARY = (
    "import os, signal\n"
    "from sudoku_cp.batch.summary import Summary\n"
    "real = Summary.render\n"
    "def render(self, *args, **kwargs):\n"
    "    os.kill(os.getpid(), signal.{name})  # just as the summary is shown\n"
    "    return real(self, *args, **kwargs)\n"
    "Summary.render = render\n"
    "from sudoku_cp.cli import main\n"
    "main()\n"
)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signal_while_the_summary_shows_says_the_run_had_finished(tmp_path, sig):
    out = tmp_path / "out.jsonl"
    args = ["check", EASY, "-b", "backtrack", "-j", "1", "-o", str(out)]  # with its summary
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_WHILE_SUMMARY.format(name=sig), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == _status(sig), done.stderr
    assert _one_line(done.stderr) == (
        f"sudoku-cp: {_what(sig)} while showing the summary; the run had finished, every record "
        "written"
    )
    assert sorted(r["index"] for r in jsonl(out.read_text())) == ALL
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["runs"][-1]["interrupted"] is False


SIGNAL_WHILE_SIDECAR_REPLACED = (
    "import os, signal\n"
    "real = os.replace\n"
    "def replace(source, target, *args, **kwargs):\n"
    "    if str(target).endswith('.meta.json'):  # the new sidecar written, not yet in place\n"
    "        os.kill(os.getpid(), signal.SIGTERM)\n"
    "    return real(source, target, *args, **kwargs)\n"
    "os.replace = replace\n"
    "from sudoku_cp.cli import main\n"
    "main()\n"
)


def test_a_signal_while_the_sidecar_is_replaced_leaves_the_old_one_and_no_stray_file(tmp_path):
    out = tmp_path / "out.jsonl"
    _half_done(tmp_path, out)
    sidecar = tmp_path / "out.jsonl.meta.json"
    before = sidecar.read_bytes()
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_WHILE_SIDECAR_REPLACED, *_args(out), "--resume"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 143, done.stderr
    assert _one_line(done.stderr) == _starting_line("SIGTERM", out)
    assert sidecar.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "out.jsonl.meta.json"]
    _finish_and_check(tmp_path, out)


SIGNAL_WHILE_IMPORTING = (
    "import os, signal, sys\n"
    "class Stop:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name == 'sudoku_cp.batch':  # each time the batch modules are imported\n"
    "            os.kill(os.getpid(), signal.{name})\n"
    "        return None\n"
    "from sudoku_cp.cli import main\n"
    "for module in [m for m in sys.modules if m.startswith('sudoku_cp.batch')]:\n"
    "    del sys.modules[module]  # (not imported yet, as in a fresh `sudoku-cp check`)\n"
    "sys.meta_path.insert(0, Stop())\n"
    "main()\n"
)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signal_while_the_batch_modules_import_ends_the_run_in_one_line(tmp_path, sig):
    out = tmp_path / "out.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_WHILE_IMPORTING.format(name=sig), *_args(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == _status(sig), done.stderr
    assert _one_line(done.stderr) == _starting_line(sig, out)
    assert not out.exists()
