"""Crafted files give one line, never a traceback or a hang (issue 35, item 7): certificates
nested too deeply or that are named pipes, a bench record nested too deeply, a results table
with short rows or impossible times, and a minimize whose call budget runs out
(docs/troubleshooting.md)."""

from __future__ import annotations

import csv
import gzip
import os
import subprocess
import sys

import pytest
from clitools import error_line, run
from puzzles import EULER, INKALA

DEEP = "[" * 100_000 + "]" * 100_000  # past the JSON parser's depth (a RecursionError)


# --- certificate verify ---------------------------------------------------------------------------
def _verify(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    # a real process, with a timeout: a named pipe once blocked it for ever
    return subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", "certificate", "verify", "-j", "0", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_a_certificate_nested_too_deeply_is_one_line(tmp_path):
    pytest.importorskip("dratify")
    path = tmp_path / "deep.cert.gz"
    with gzip.open(path, "wt") as handle:
        handle.write(DEEP)
    result = _verify(str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert f"sudoku-cp: error: {path}: not a certificate (JSON nested too deeply)" in result.stderr


def test_a_named_pipe_among_the_certificates_is_skipped_not_waited_for(tmp_path):
    pytest.importorskip("dratify")
    folder = tmp_path / "certs"
    folder.mkdir()
    os.mkfifo(folder / "0000001.cert.gz")
    (folder / "0000002.cert.gz").mkdir()  # a folder named like a certificate
    with gzip.open(folder / "0000003.cert.gz", "wt") as handle:
        handle.write('{"format": "not a certificate"}')
    result = _verify(str(folder))
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert (
        f"sudoku-cp: skipped {folder}/0000001.cert.gz: not a regular file (a named pipe)" in lines
    )
    assert f"sudoku-cp: skipped {folder}/0000002.cert.gz: not a regular file (a folder)" in lines
    assert result.returncode == 2  # the third is not a certificate
    # named on its own, the pipe is an error (it is no certificate), not a wait
    alone = _verify(str(folder / "0000001.cert.gz"))
    assert alone.returncode == 2
    assert "0000001.cert.gz: not a regular file (a named pipe)" in alone.stderr


# --- bench --replay and plot ----------------------------------------------------------------------
def test_a_replayed_record_nested_too_deeply_is_one_line(tmp_path):
    record = tmp_path / "record.json"
    record.write_text(DEEP)
    result = run("bench", "--replay", str(record), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert error_line(result).endswith("is not a JSON record: nested too deeply")
    # a record that is not one, holding a deep value where its format should be: short
    record.write_text('{"format": ' + "[" * 900 + "]" * 900 + "}")
    result = run("bench", "--replay", str(record), "-o", str(tmp_path / "out"))
    assert error_line(result) == "sudoku-cp: error: not a bench record (format a list)"


@pytest.fixture(scope="module")
def bench_table(tmp_path_factory):
    """A real bench's results table (two puzzles, one backend)."""
    folder = tmp_path_factory.mktemp("bench")
    puzzles = folder / "p.txt"
    puzzles.write_text(f"{INKALA}\n{EULER}\n")
    out = folder / "out"
    result = run("bench", str(puzzles), "-b", "backtrack", "-r", "1", "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    return list(csv.reader((out / "results.csv").open()))


def _plot(tmp_path, rows: list[list[str]]):
    folder = tmp_path / "table"
    folder.mkdir(exist_ok=True)
    with (folder / "results.csv").open("w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return run("plot", str(folder), "--table", "text")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda row, h: row[:3], "line 3: 3 fields, but the header names"),
        (lambda row, h: [*row, "extra"], "fields, but the header names"),
        (lambda row, h: _set(row, h, "verdict", ""), "line 3: column 'verdict' is empty"),
        (lambda row, h: _set(row, h, "seconds", ""), "line 3: column 'seconds' is empty"),
        (lambda row, h: _set(row, h, "seconds", "nan"), "column 'seconds' holds 'nan'"),
        (lambda row, h: _set(row, h, "seconds", "-1"), "column 'seconds' holds '-1'"),
        # values no bench writes were summarised as they read (an unknown status as a
        # failure, 'maybe' as false, a negative count): now named
        (lambda row, h: _set(row, h, "status", "solvd"), "column 'status' holds 'solvd', not a"),
        (lambda row, h: _set(row, h, "verdict", "great"), "column 'verdict' holds 'great'"),
        (lambda row, h: _set(row, h, "exact", "maybe"), "'maybe', not true or false"),
        (lambda row, h: _set(row, h, "count", "-3"), "'-3', not a whole number of at least 0"),
        (lambda row, h: _set(row, h, "repeat", "0"), "'0', not a whole number of at least 1"),
        (lambda row, h: _set(row, h, "nodes", "inf"), "counter 'nodes' holds 'inf', not a"),
    ],
)
def test_a_results_table_with_short_rows_or_empty_values_is_one_line(
    tmp_path, bench_table, change, message
):
    header, first, second = bench_table[0], bench_table[1], bench_table[2]
    result = _plot(tmp_path, [header, first, change(second, header)])
    assert result.exit_code == 2
    assert message in error_line(result)


def _set(row: list[str], header: list[str], column: str, value: str) -> list[str]:
    row = list(row)
    row[header.index(column)] = value
    return row


def test_the_untouched_table_still_plots(tmp_path, bench_table):
    result = _plot(tmp_path, bench_table)
    assert result.exit_code == 0 and "backtrack" in result.stdout, result.output


# --- minimize --max-calls -------------------------------------------------------------------------
def test_minimize_prints_the_best_puzzle_when_its_budget_runs_out(tmp_path):
    from sudoku_cp import Puzzle, solve

    source = tmp_path / "p.txt"
    source.write_text(EULER + "\n")  # 32 givens, far from minimal
    result = run("minimize", str(source), "--max-calls", "60", "-b", "backtrack,sat")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 3  # unique, not proven minimal
    assert "the budget of 60 solver calls ran out: unique, not proven minimal" in result.stderr
    printed = result.stdout.strip()
    puzzle = Puzzle.parse(printed)
    # the best reached: fewer givens, each one of the original's, and still unique
    assert puzzle.givens_count < Puzzle.parse(EULER).givens_count
    assert all(d in (0, e) for d, e in zip(puzzle.cells, Puzzle.parse(EULER).cells, strict=True))
    assert solve(puzzle, backend="sat", limit=2).count == 1


def test_minimize_with_too_few_calls_to_judge_the_puzzle_is_one_line(tmp_path):
    source = tmp_path / "p.txt"
    source.write_text(INKALA + "\n")
    result = run("minimize", str(source), "--max-calls", "1")
    assert result.exit_code == 3
    assert result.stderr.strip() == (
        "sudoku-cp: the budget of 1 solver calls ran out before the puzzle itself was judged "
        "(raise --max-calls)"
    )
