"""The small guards of issue 35, item 9: temporary files never written through a planted link,
a rows file too large for a grid read as one grid, path options that look like options
refused, and the lz-string module checked before use (docs/troubleshooting.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import click
import pytest
from clitools import error_line, jsonl, run
from puzzles import INKALA

from sudoku_cp.atomic import write_atomically
from sudoku_cp.cli import main
from sudoku_cp.cli.app import path_value


# --- temporary files ------------------------------------------------------------------------------
def test_a_link_planted_where_the_sidecar_was_written_is_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    source = tmp_path / "p.txt"
    source.write_text(INKALA + "\n")
    out = tmp_path / "out.jsonl"
    planted = tmp_path / "out.jsonl.meta.json.tmp"  # the name the sidecar's temporary file had
    planted.symlink_to(victim)
    result = run("check", str(source), "-b", "backtrack", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "precious\n"
    assert planted.is_symlink() and os.readlink(planted) == str(victim)
    sidecar = tmp_path / "out.jsonl.meta.json"
    assert not sidecar.is_symlink() and json.loads(sidecar.read_text())["tool"] == "sudoku-cp"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == [planted.name]


def test_the_temporary_file_is_always_a_new_one(tmp_path, monkeypatch):
    # Whatever name is drawn, a file or link already there is never opened: another name is
    # drawn (O_EXCL). The draw is made predictable here to plant a link on it.
    import secrets

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "record.json"
    (tmp_path / ".record.json.aaaa.tmp").symlink_to(victim)
    draws = iter(["aaaa", "bbbb"])
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(draws))
    write_atomically(target, b"new\n")
    assert target.read_bytes() == b"new\n" and victim.read_text() == "precious\n"
    assert not (tmp_path / ".record.json.bbbb.tmp").exists()  # renamed into place


# --- a rows file too large ------------------------------------------------------------------------
def test_a_65x65_rows_file_is_one_error_not_65(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("\n".join(" ".join(["0"] * 65) for _ in range(65)) + "\n")
    result = run("solve", str(path))
    assert result.exit_code == 2
    assert (
        error_line(result)
        == "sudoku-cp: error: puzzle 1: read 65 rows; the largest puzzle is 64x64"
    )
    out = tmp_path / "out.jsonl"
    checked = run("check", str(path), "-b", "backtrack", "-o", str(out))
    records = jsonl(out.read_text())
    assert checked.exit_code == 1 and len(records) == 1
    assert records[0]["reason"] == "line 1: read 65 rows; the largest puzzle is 64x64"


def test_rows_of_81_numbers_are_still_a_puzzle_a_line(tmp_path):
    path = tmp_path / "rows.txt"
    row = " ".join("0" if ch == "." else ch for ch in INKALA)
    path.write_text(f"{row}\n{row}\n{row}\n")
    result = run("count", str(path), "-b", "backtrack")
    assert result.stdout.splitlines() == [f"{i}: exactly 1 solution" for i in (1, 2, 3)]


# --- path options ---------------------------------------------------------------------------------
PATH_OPTIONS = {"output", "model", "certify", "replay"}


def test_every_path_option_refuses_a_value_that_looks_like_an_option():
    ctx = click.Context(main)
    seen = []
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        commands = [command]
        if isinstance(command, click.Group):
            commands = [command.get_command(ctx, sub) for sub in command.list_commands(ctx)]
        for each in commands:
            for param in each.params:
                if isinstance(param, click.Option) and param.name in PATH_OPTIONS:
                    seen.append(f"{each.name} --{param.name}")
                    assert param.callback is path_value, f"{each.name} --{param.name}"
    assert {"check --certify", "generate --certify", "bench --replay", "plot --output"} <= set(seen)
    assert len(seen) >= 15


def test_check_certify_followed_by_an_option_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "p.txt"
    source.write_text(INKALA + "\n")
    result = run("check", str(source), "--certify", "--jobs", "2")
    assert result.exit_code == 2
    assert error_line(result) == (
        "sudoku-cp: error: check: Invalid value for '--certify': '--jobs' looks like an option, "
        "not a path (for a file whose name starts with '--', write ./--jobs)"
    )
    assert not (tmp_path / "--jobs").exists()


# --- the lz-string module -------------------------------------------------------------------------
def _with_lzstring(replacement: str, *args: str) -> subprocess.CompletedProcess:
    """The command line in a process whose ``lzstring`` module is ``replacement`` (Python)."""
    code = (
        f"import sys, types\n{replacement}\nfrom sudoku_cp.cli import main\nmain({list(args)!r})\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


LINK = "https://f-puzzles.com/?load=N4IgzglgXgpiBcBOAvkA"


@pytest.mark.parametrize(
    ("replacement", "message"),
    [
        (
            # the older 'lzstring' distribution: a class LZString, no module functions
            "m = types.ModuleType('lzstring')\n"
            "m.LZString = type('LZString', (), {'compressToBase64': staticmethod(str)})\n"
            "sys.modules['lzstring'] = m",
            "the module 'lzstring' installed is not py-lzstring's (it has no compress_to_base64",
        ),
        ("sys.modules['lzstring'] = None", "f-puzzles links need py-lzstring, which is not"),
    ],
)
def test_a_wrong_or_missing_lzstring_module_is_one_line_naming_py_lzstring(replacement, message):
    result = _with_lzstring(replacement, "solve", LINK)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0] and "py-lzstring" in lines[0], lines


def test_every_output_option_refuses_a_dash_and_makes_no_file(tmp_path, monkeypatch):
    """'-o -' wrote a file named '-' (a user meant standard output, which these commands use
    without -o): now one line saying so, in every command with an output option."""
    monkeypatch.chdir(tmp_path)
    ctx = click.Context(main)
    tried = []
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        if isinstance(command, click.Group):
            continue
        if not any(isinstance(p, click.Option) and p.name == "output" for p in command.params):
            continue
        args = {"bench": ["famous"], "plot": ["nowhere"], "generate": ["1"]}.get(name, [INKALA])
        result = run(name, *args, "-o", "-")
        tried.append(name)
        line = error_line(result)
        assert result.exit_code == 2, (name, result.output)
        where = "a folder name" if name in ("bench", "plot") else "leave -o out to print"
        assert "'-' is no file name here: " in line and where in line, (name, line)
        assert not (tmp_path / "-").exists(), name
    assert {"check", "count", "bench", "plot", "draw", "export", "generate", "minimize"} <= set(
        tried
    )
