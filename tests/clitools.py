"""Running the command line in tests: in process (click's CliRunner), as a user without
privileges, or as a real process with a slow test backend registered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner, Result
from conftest import TESTS

from sudoku_cp.cli import main

NOBODY = 65534


def run(*args: str, input: str | bytes | None = None) -> Result:
    """The command line, in process."""
    return CliRunner().invoke(main, list(args), input=input)


def error_line(result: Result) -> str:
    """The one error line of a failed command (asserting there is exactly one, and no crash)."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"crashed: {result.exception!r}"
    )
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("sudoku-cp: error: "), lines[0]
    assert "Traceback" not in result.output
    return lines[0]


def jsonl(text: str) -> list[dict]:
    """The records of JSON Lines output."""
    return [json.loads(line) for line in text.splitlines()]


def as_unprivileged(*args: str) -> tuple[int, str, int]:
    """Run the command line as a user without privileges: (exit status, stderr, solver calls).

    Tests run as root in CI, where permissions are not enforced; a forked child gives up root
    first (and reports through a pipe). Solver calls are counted by ``test-counting`` (the real
    backtracker, counting), registered here and run in process (``-j 0``) so the child counts.
    """
    from fault_backends import Counting

    from sudoku_cp.backends import register, unregister

    register(Counting, replace=True)
    Counting.calls = 0
    import rich.console  # noqa: F401 — imported now, while everything is readable
    import rich.table  # noqa: F401

    # The commands load their modules on first use, the standard library's too, and the child
    # may not read them (CI's Python lives under /root): load them while root.
    import sudoku_cp.batch.check  # noqa: F401
    import sudoku_cp.cli.batch  # noqa: F401
    import sudoku_cp.verdict  # noqa: F401
    from sudoku_cp.backends import backtrack as backtrack_kernel

    backtrack_kernel.warm_up()  # numba and the compiled kernels, when installed
    from sudoku_cp.experiment import versions

    versions([Counting.name])  # the libraries' versions a record names (read once a process)

    def invoke() -> tuple[int, str, int]:
        result = run(*args)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            return -1, repr(result.exception), Counting.calls
        return result.exit_code, result.stderr, Counting.calls

    try:
        if os.geteuid() != 0:
            return invoke()
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: give up root, run, report, leave without pytest's teardown
            try:
                os.setgid(NOBODY)
                os.setuid(NOBODY)
                report = invoke()
            except BaseException as err:  # noqa: BLE001 — anything goes back to the parent
                report = (-2, repr(err), Counting.calls)
            os.write(writer, json.dumps(report).encode())
            os._exit(0)
        os.close(writer)
        with os.fdopen(reader, "rb") as pipe:
            data = pipe.read()
        os.waitpid(pid, 0)
        code, stderr, count = json.loads(data)
        return code, stderr, count
    finally:
        unregister(Counting.name)


PLUGIN = (
    "import sys; sys.path.insert(0, {tests!r})\n"
    "import fault_backends\n"
    "from sudoku_cp.backends import register\n"
    "register(fault_backends.Slow); register(fault_backends.Sleepy)\n"
    "register(fault_backends.FirstFinishesLast); register(fault_backends.SleepyAfterEuler)\n"
    "from sudoku_cp.cli import main\n"
    "main()\n"
)
"""A fresh ``python -c``: the command line with ``test-slow``, ``test-sleepy``,
``test-first-finishes-last`` and ``test-sleepy-after-euler`` registered."""


def start_cli(folder: Path, *args: str) -> subprocess.Popen:
    """The command line as a real process in ``folder``, with the slow test backends."""
    code = PLUGIN.format(tests=str(TESTS))
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_lines(path: Path, count: int, process: subprocess.Popen) -> None:
    """Until ``path`` holds ``count`` lines (failing if the process ends or stalls first)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"the run ended or stalled before {count} records: {process.poll()}")


def stop_when_marked(process: subprocess.Popen, marker: Path, signum: int) -> tuple[str, str]:
    """Send ``signum`` to ``process`` once the file ``marker`` exists, and return its output
    (failing if it ends or stalls first; killed if anything goes wrong)."""
    try:
        deadline = time.monotonic() + 60  # a hang guard
        while not marker.exists():
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.02)
        process.send_signal(signum)
        return process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
