"""Start-up stays light: importing the command line (what ``sudoku-cp --help`` needs) loads no
model, backend, harness or batch code and no solver library; those come with the command that
uses them, and a plain ``solve`` (classic 9x9 line, default backend) loads no rule class, no
other command's module, nothing of the render, logic or generate packages, none of the
harness's records and none of the standard modules it does not use (pathlib, json, csv,
urllib …). Run in a fresh interpreter, since this test process has imported
everything; a standard module that bare ``python -c pass`` loads already (an editable
install's path finder imports pathlib) is not held against the command.

The plain look that spares ``is_link`` its patterns for puzzle text is held to the patterns."""

from __future__ import annotations

import functools
import re
import subprocess
import sys

import click
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp.formats import links

LAZY = (
    "sudoku_cp.backends",
    "sudoku_cp.model",
    "sudoku_cp.puzzle",
    "sudoku_cp.harness",
    "sudoku_cp.batch",
    "sudoku_cp.formats",
    "sudoku_cp.result",
    "rich",
    "ortools",
    "pysat",
    "constraint",
    "importlib.metadata",
    "numba",
    "dask",
    "sudoku_cp.render",
    "sudoku_cp.logic",
    "sudoku_cp.generate",
    "sudoku_cp.verdict",
    # standard modules the command line itself does not need
    "pathlib",
    "json",
    "csv",
    "urllib",
    "signal",
    "dataclasses",
)

COMMAND_MODULES = tuple(
    f"sudoku_cp.cli.{name}"
    for name in ("batch", "bench", "certificate", "draw", "generate", "info", "logic", "shrink")
)

SOLVE_LAZY = (
    *(name for name in LAZY if "." not in name and name != "dataclasses"),
    "importlib.metadata",
    "sudoku_cp.render",
    "sudoku_cp.logic",
    "sudoku_cp.generate",
    "sudoku_cp.batch",
    "sudoku_cp.harness",
    *COMMAND_MODULES,
    # the rule classes (dataclasses, slow to create) and the readers that need them
    *(f"sudoku_cp.rules.{name}" for name in ("base", "cells", "dots", "lines", "neighbours")),
    "sudoku_cp.rules.sums",
    "sudoku_cp.formats.fpuzzles",
    "sudoku_cp.formats.fpuzzles_rules",
    "sudoku_cp.formats.fpuzzles_rules_writer",
    "sudoku_cp.formats.iss",
    "sudoku_cp.formats.iss_grid",
    "sudoku_cp.formats.iss_rules",
    "sudoku_cp.formats.variants",
    "sudoku_cp.fastcheck",
    "sudoku_cp.backends.backtrack.rules",
    "sudoku_cp.backends.backtrack.checks",
    "sudoku_cp.backends.backtrack.shapes",  # (the rules' propagators)
    "sudoku_cp.verdict",  # the harness's records (data classes)
)
"""What a plain ``solve`` does without: besides the above, the libraries and the standard
modules of LAZY but dataclasses (a puzzle line needs no JSON, CSV, path or link)."""
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def _modules_after(code: str) -> set[str]:
    """The modules ``code`` loads beyond those bare Python loads (site, .pth files)."""
    return set(_loaded_by(code) - _loaded_by("pass"))


@functools.cache
def _loaded_by(code: str) -> frozenset[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nsys.stderr.write(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stderr  # (standard output has the help text)
    return frozenset(out.split())


def _loaded(modules: set[str], name: str) -> bool:
    return name in modules or any(m.startswith(name + ".") for m in modules)


def test_importing_the_cli_loads_none_of_the_heavy_modules() -> None:
    modules = _modules_after("import sudoku_cp.cli")
    assert "sudoku_cp.cli.app" in modules
    assert [name for name in LAZY if _loaded(modules, name)] == []


def test_help_loads_none_of_them_either() -> None:
    code = "from sudoku_cp.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n  pass"
    modules = _modules_after(code)
    assert [name for name in LAZY if _loaded(modules, name)] == []


def test_help_loads_no_command_module() -> None:
    code = "from sudoku_cp.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n  pass"
    modules = _modules_after(code)
    assert [name for name in COMMAND_MODULES if name in modules] == []


def test_a_plain_solve_loads_only_what_it_uses() -> None:
    code = (
        "from sudoku_cp.cli import main\n"
        f"try:\n    main(['solve', '{INKALA}', '--format', 'line'])\nexcept SystemExit:\n  pass"
    )
    modules = _modules_after(code)
    assert "sudoku_cp.backends.backtrack" in modules  # (it did solve)
    assert [name for name in SOLVE_LAZY if _loaded(modules, name)] == []


def _help(width: int, load_all: bool) -> str:
    loads = "".join(f"import {name}\n" for name in COMMAND_MODULES) if load_all else ""
    code = (
        f"{loads}from sudoku_cp.cli import main\n"
        f"main(['--help'], prog_name='sudoku-cp', terminal_width={width})"
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    ).stdout


def test_help_lists_every_command_as_when_all_are_loaded() -> None:
    for width in (80, 200):
        lazy = _help(width, load_all=False)
        assert "Commands:" in lazy and "  solve " in lazy and "  rate " in lazy
        assert lazy == _help(width, load_all=True)


def test_the_table_of_commands_matches_the_commands() -> None:
    from sudoku_cp.cli import main
    from sudoku_cp.cli.app import COMMANDS

    ctx = click.Context(main)
    for name, (module, summary) in COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command is not None and command.callback is not None
        assert command.callback.__module__ == f"sudoku_cp.cli.{module}"
        assert command.get_short_help_str(10**6) == summary
    assert set(main.commands) == set(COMMANDS)  # (every command module is loaded by now)


def test_rule_keys_are_the_rule_kinds_keys() -> None:
    from sudoku_cp import rules

    assert set(rules.RULE_KINDS) == rules.RULE_KEYS
    assert tuple(rules.GLOBAL_RULES) == rules.GLOBAL_KEYS
    assert {"Cage", "Rule", "cell_name", "RULE_KINDS"} <= set(dir(rules))


def test_public_names_still_come_on_first_use() -> None:
    modules = _modules_after("import sudoku_cp\nsudoku_cp.Puzzle")
    assert "sudoku_cp.puzzle" in modules and "sudoku_cp.harness" not in modules
    import sudoku_cp

    assert sudoku_cp.solve("12..............", limit=2).status.value == "multiple"
    assert {"Puzzle", "check_puzzles", "cross_check"} <= set(dir(sudoku_cp))


def test_run_as_the_program_start_up_is_frozen_and_a_call_leaves_the_collector_alone() -> None:
    # As the program (no arguments: sys.argv), start-up's objects go to the collector's
    # permanent generation (gc.freeze); called with arguments, the caller's collector is left
    # as it was (nothing frozen, still enabled).
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: sys.stderr.write(f'frozen={gc.get_freeze_count()} '))\n"
        "from sudoku_cp.cli import main\n"
        "sys.argv = ['sudoku-cp', '--help']\n"
        "main()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and "Commands:" in out.stdout
    assert int(out.stderr.split("frozen=")[1].split()[0]) > 1000
    code = code.replace("main()", "main(['--help'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and "Commands:" in out.stdout and "frozen=0 " in out.stderr


# --- what stands in for a module a plain solve no longer imports -----------------------------
_LINK_PIECES = st.sampled_from(
    [
        "https://", "f-puzzles.com/", "F-PUZZLES.COM/", "f-puzzleſ.com/", "sudokupad.app/",
        "ſudokupad.app/", "app.crackingthecryptic.com/", "app.crackıngthecryptic.com/",
        "app.crackİngthecryptic.com/", "SUDOKUPAD://puzzle/", "sudokupad://puzzle/", "?load=",
        "&id=", "?puzzleid=", "fpuzzles", "N4Ig", "abc", "1..", " ", "/", ".", "K",
    ]
)  # fmt: skip


@functools.cache
def _link_patterns() -> list[re.Pattern[str]]:
    return [re.compile(*links._PATTERNS[name]) for name in ("fpuzzles", "sudokupad", "scheme")]


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINK_PIECES, max_size=6).map("".join))
def test_is_link_is_what_the_patterns_say(text: str) -> None:
    # is_link turns text away before its patterns when no host name is in it: never a link
    word = text.strip()
    assert links.is_link(text) == any(p.fullmatch(word) for p in _link_patterns())
