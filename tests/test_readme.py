"""The README says what the tool does: its example commands run, and the names it documents are
the ones the tool writes. The documentation's worked examples (docs/examples/) run as written."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from clitools import run
from conftest import REPO

from sudoku_cp.batch import csv_columns

README = (REPO / "README.md").read_text()


def example_commands() -> list[list[str]]:
    """Every ``sudoku-cp solve|check|count`` line of the README's bash blocks, as arguments."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words[:1] == ["sudoku-cp"] and words[1] in ("solve", "check", "count"):
                commands.append(words[1:])
    return commands


def test_the_example_puzzles_are_puzzles_and_the_count_example_counts():
    commands = example_commands()
    texts = [w for words in commands for w in words if len(w) > 20 and set(w) <= set(".0123456789")]
    assert len(texts) >= 2
    for text in texts:
        result = run("solve", text, "--limit", "1", "--format", "line")
        assert result.exit_code == 0, (text, result.output)
    (count,) = [words for words in commands if words[0] == "count"]
    result = run(*count, "-b", "backtrack", "-j", "0", "-q")
    assert result.exit_code == 0, result.output
    assert re.fullmatch(r"1: exactly \d+ solutions\n", result.stdout), result.stdout


def test_documented_csv_columns_are_the_written_ones():
    documented = re.search(r"CSV has the same fields flattened \(`([^`]+)`", README)
    assert documented is not None
    assert documented.group(1) in csv_columns(["backtrack"])


# --- every example runs from a fresh install (issue 35) -----------------------------------------
def every_example() -> list[tuple[list[list[str]], list[str]]]:
    """Every ``sudoku-cp`` command of the README's bash blocks, as arguments, each with the
    commands before it in its block (a reader types a block's lines in order: ``plot`` reads
    what the ``bench`` above it wrote, ``certificate verify`` what ``check --certify`` wrote)."""
    examples = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        before: list[list[str]] = []
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if "sudoku-cp" in words:
                words = words[words.index("sudoku-cp") + 1 :]
                examples.append((list(before), words))
                before.append(words)
    return examples


EXAMPLE_FILES = ("puzzle.txt", "grid.txt", "my-collection.txt", "puzzles.txt")
"""The files the examples name as the user's own: made from a bundled puzzle."""


EULER = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


@pytest.fixture(scope="module")
def euler_fpuzzles(tmp_path_factory) -> str:
    """The bundled puzzle as the f-puzzles JSON an example reads, written by the command line
    once for every example (it is the same each time)."""
    made = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", "solve", EULER, "--format", "fpuzzles"],
        capture_output=True, text=True, cwd=tmp_path_factory.mktemp("fpuzzles"), env=_env(),
        check=True,
    )  # fmt: skip
    return made.stdout.splitlines()[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("before", "words"), every_example(), ids=[" ".join(w)[:60] for _, w in every_example()]
)
def test_every_readme_example_runs_from_a_fresh_install(tmp_path, before, words, euler_fpuzzles):
    # Before: the shrink example needed a test-only backend ('mine') and the jigsaw example a
    # path only a development checkout has (../shared/datasets/…): both exit 2.
    _example_files(tmp_path, euler_fpuzzles)
    for earlier in before:  # what the lines above it in its block wrote
        _run_example(tmp_path, earlier)
    done = _run_example(tmp_path, words)
    # It ran: no unusable input or invocation (2), no traceback. (1 and 3 are answers: some
    # bundled puzzle is not unique; shrink finds nothing to shrink in an ordinary puzzle.)
    assert done.returncode in (0, 1, 3), done.stderr
    assert "Traceback" not in done.stderr


def _example_files(folder: Path, fpuzzles: str) -> None:
    """The files the examples name as the user's own, made from a bundled puzzle."""
    for name in EXAMPLE_FILES:
        (folder / name).write_text(EULER + "\n")
    (folder / "puzzle.json").write_text(fpuzzles + "\n")


def _run_example(folder: Path, words: list[str]) -> subprocess.CompletedProcess[str]:
    quiet = ["-q"] if words[0] in ("check", "count", "generate", "bench") else []
    return subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", *words, *quiet],
        capture_output=True, text=True, cwd=folder, env=_env(), timeout=600,
    )  # fmt: skip


# --- the worked examples of the documentation run as written -------------------------------------
WORKED = sorted((REPO / "docs" / "examples").glob("*.md"))


@pytest.mark.slow
@pytest.mark.parametrize("page", WORKED, ids=lambda page: page.stem)
def test_every_worked_example_runs_as_written(tmp_path, page):
    # A page's bash blocks are one session, in order, in an empty folder: each command must
    # succeed (bash -e), with `sudoku-cp` this checkout's command line.
    script = "\n".join(re.findall(r"```bash\n(.*?)```", page.read_text(), re.S))
    assert "sudoku-cp" in script
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "sudoku-cp"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sudoku_cp.cli "$@"\n')
    shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = {**_env(), "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script],
        capture_output=True, text=True, cwd=work, env=env, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}
