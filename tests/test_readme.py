"""The README says what the tool does: its example commands run, and the names it documents are
the ones the tool writes."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

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
def every_example() -> list[list[str]]:
    """Every ``sudoku-cp`` command of the README's bash blocks, as arguments."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if "sudoku-cp" in words:
                commands.append(words[words.index("sudoku-cp") + 1 :])
    return commands


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
@pytest.mark.parametrize("words", every_example(), ids=lambda words: " ".join(words)[:60])
def test_every_readme_example_runs_from_a_fresh_install(tmp_path, words, euler_fpuzzles):
    # Before: the shrink example needed a test-only backend ('mine') and the jigsaw example a
    # path only a development checkout has (../shared/datasets/…): both exit 2.
    for name in EXAMPLE_FILES:
        (tmp_path / name).write_text(EULER + "\n")
    (tmp_path / "puzzle.json").write_text(euler_fpuzzles + "\n")
    if words[:2] == ["certificate", "verify"]:
        # (The README's verify line follows its check --certify line: certs/ comes from it.)
        subprocess.run(
            [sys.executable, "-m", "sudoku_cp.cli", "check", "puzzles.txt", "--certify", "certs/"],
            capture_output=True, text=True, cwd=tmp_path, env=_env(), check=True,
        )  # fmt: skip
    quiet = ["-q"] if words[0] in ("check", "count", "generate", "bench") else []
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", *words, *quiet],
        capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=600,
    )  # fmt: skip
    # It ran: no unusable input or invocation (2), no traceback. (1 and 3 are answers: some
    # bundled puzzle is not unique; shrink finds nothing to shrink in an ordinary puzzle.)
    assert done.returncode in (0, 1, 3), done.stderr
    assert "Traceback" not in done.stderr


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}
