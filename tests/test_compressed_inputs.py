"""Puzzle files read as collections ship them: gzip, bzip2, xz, a zip archive of one file —
told by their first bytes — read exactly as the plain file is; damaged or ambiguous archives
refused with one line naming the file."""

from __future__ import annotations

import bz2
import gzip
import lzma
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from clitools import error_line, jsonl, run

from sudoku_cp.datasets import bundled_file
from sudoku_cp.errors import InputError
from sudoku_cp.formats import read_input, read_puzzles

PLAIN = bundled_file("famous")


def _zip(path: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def _compressed(tmp_path: Path, kind: str, data: bytes, name: str) -> Path:
    path = tmp_path / name
    if kind == "gzip":
        path.write_bytes(gzip.compress(data))
    elif kind == "bzip2":
        path.write_bytes(bz2.compress(data))
    elif kind == "xz":
        path.write_bytes(lzma.compress(data))
    else:
        _zip(path, {"__MACOSX/._famous.csv": b"\x00\x05", "famous.csv": data})
    return path


def _seen(records) -> list[tuple[str, tuple[int, ...] | None, str | None]]:
    return [(r.id, r.puzzle.cells if r.puzzle else None, r.error) for r in records]


@pytest.mark.parametrize("kind", ["gzip", "bzip2", "xz", "zip"])
def test_a_compressed_file_reads_as_the_plain_one(tmp_path, kind):
    plain = _seen(read_puzzles(PLAIN))
    assert len(plain) == 20 and all(cells for _id, cells, _e in plain)
    # (a name that says nothing of the compression: the first bytes tell)
    path = _compressed(tmp_path, kind, PLAIN.read_bytes(), "collection.dat")
    assert _seen(read_puzzles(path)) == plain
    assert _seen(read_input(str(path))) == plain


def test_the_command_line_reads_a_compressed_file_and_standard_input(tmp_path):
    path = _compressed(tmp_path, "gzip", PLAIN.read_bytes(), "famous.csv.gz")
    plain = run("count", str(PLAIN), "-f", "jsonl")
    packed = run("count", str(path), "-f", "jsonl")
    assert plain.exit_code == packed.exit_code == 0

    def answers(output: str) -> list[tuple]:
        return [(r["id"], r["puzzle"], r["count"], r["solutions"]) for r in jsonl(output)]

    assert answers(packed.stdout) == answers(plain.stdout)
    assert len(answers(plain.stdout)) == 20
    # standard input in a real process (its stream can be peeked at, as a pipe's can)
    piped = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", "count", "-", "-f", "jsonl"],
        input=lzma.compress(PLAIN.read_bytes()),
        capture_output=True,
        timeout=300,
    )
    assert piped.returncode == 0, piped.stderr
    assert len(piped.stdout.splitlines()) == 20


def test_damaged_and_ambiguous_archives_get_one_line(tmp_path):
    data = PLAIN.read_bytes()
    cut = tmp_path / "cut.gz"
    cut.write_bytes(gzip.compress(data)[:200])
    with pytest.raises(InputError, match=r"^cannot read .*cut.gz: its compressed data is damaged"):
        list(read_puzzles(cut))
    line = error_line(run("check", str(cut)))
    assert "cut.gz" in line and "damaged or cut short" in line

    two = tmp_path / "two.zip"
    _zip(two, {"a.txt": data, "b.txt": data})
    with pytest.raises(InputError, match=r"is a zip archive of 2 files \(a.txt, b.txt\)"):
        list(read_puzzles(two))
    empty = tmp_path / "empty.zip"
    _zip(empty, {})
    with pytest.raises(InputError, match="is a zip archive of 0 files: one puzzle file"):
        list(read_puzzles(empty))
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    with pytest.raises(InputError, match="a damaged zip archive"):
        list(read_puzzles(broken))

    piped = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", "count", "-"],
        input=two.read_bytes(),
        capture_output=True,
        timeout=300,
    )
    assert piped.returncode == 2
    assert piped.stderr.decode().strip() == (
        "sudoku-cp: error: standard input is a zip archive, which is read from a file only: "
        "give its path, or unzip it"
    )


def test_a_missing_compressed_file_is_named_as_a_file(tmp_path):
    line = error_line(run("count", "puzzles.txt.gz"))
    assert line == "sudoku-cp: error: file not found: puzzles.txt.gz"
