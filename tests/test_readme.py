"""The README says what the tool does: its example commands run, and the names it documents are
the ones the tool writes."""

from __future__ import annotations

import re
import shlex

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
