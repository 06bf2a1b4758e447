"""``--scheduler`` without a cluster: bad values and a missing ``dask`` are refused in one
line, exit 2, before any work (these run whether dask is installed or not)."""

from __future__ import annotations

import sys

import pytest
from clitools import error_line, run

from sudoku_cp.batch.pool import max_jobs
from sudoku_cp.batch.scheduler import INSTALL_HINT, parse_scheduler
from sudoku_cp.errors import SudokuError

PUZZLE = "1234............"


def test_without_dask_the_option_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    for command in (["check", PUZZLE], ["count", PUZZLE], ["bench", "famous"]):
        result = run(*command, "--scheduler", "local:2")
        assert result.exit_code == 2
        line = error_line(result)
        assert line.endswith(f"--scheduler needs dask.distributed, which is not installed: "
                             f"{INSTALL_HINT}")  # fmt: skip


@pytest.mark.parametrize(
    "value", ["local:0", f"local:{max_jobs() + 1}", "local:two", "10.0.0.5", "http://x:8786"]
)
def test_a_bad_scheduler_is_refused_in_one_line(value):
    result = run("check", PUZZLE, "--scheduler", value)
    assert result.exit_code == 2
    assert "--scheduler" in error_line(result)


def test_jobs_0_and_a_scheduler_contradict_each_other():
    pytest.importorskip("distributed")
    result = run("check", PUZZLE, "--scheduler", "local:1", "-j", "0")
    assert result.exit_code == 2
    assert "contradict" in error_line(result)


def test_scheduler_values(monkeypatch):
    assert parse_scheduler(" local:1 ") == ("local", 1)
    monkeypatch.setenv("SUDOKU_CP_ANY_SCHEDULER_SCHEME", "1")  # tls:// only when opted in
    assert parse_scheduler("tls://head.cluster:8786") == ("address", "tls://head.cluster:8786")
    with pytest.raises(SudokuError, match="from 1 to"):
        parse_scheduler("local:0")


def test_a_scheduler_address_where_nothing_listens_is_refused_at_once():
    """A wrong port: the connection is refused, said in one line, exit 2, without Dask's 20 s
    of retries first (the probe's own words, which Dask's timeout never has)."""
    import socket

    from sudoku_cp.batch.scheduler import refuse_if_nothing_listens

    pytest.importorskip("distributed")
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        refuse_if_nothing_listens(f"tcp://127.0.0.1:{port}")  # something listens: no error
    # (the socket is closed: nothing listens on that port now)
    with pytest.raises(SudokuError, match="connection refused"):
        refuse_if_nothing_listens(f"tcp://127.0.0.1:{port}")
    for left_to_dask in (f"inproc://127.0.0.1:{port}", "tcp://127.0.0.1", "tcp://h:port"):
        refuse_if_nothing_listens(left_to_dask)
    result = run("check", PUZZLE, "--scheduler", f"tcp://127.0.0.1:{port}")
    assert result.exit_code == 2
    line = error_line(result)
    assert line.startswith(f"sudoku-cp: error: --scheduler tcp://127.0.0.1:{port}: ")
    assert "nothing listens on port" in line
