"""A file a command reads through an option — ``--state`` (a position) or ``--elements`` (the
SudokuPad element mappings) — is refused as its output, as the PUZZLE file and the model file
are: writing it would destroy what the run reads. (Each was overwritten silently, exit 0.)
"""

from __future__ import annotations

import pytest
from clitools import error_line, run
from puzzles import KNOWN

ELEMENTS = '[elements]\n"line:#67f067" = "whispers"\n'

WRITERS = [
    ("draw", "-o"),
    ("candidates", "-o"),
    ("export", "--to", "dimacs", "-o"),
    ("explain", "--format", "html", "-o"),
    ("check", "--output"),
    ("count", "--output"),
]


@pytest.mark.parametrize("command", WRITERS, ids=lambda c: c[0])
def test_the_state_file_is_not_the_output(tmp_path, command) -> None:
    state = tmp_path / "state.txt"
    state.write_text(KNOWN + "\n")
    result = run(command[0], KNOWN, "--state", str(state), *command[1:], str(state))
    assert result.exit_code == 2
    assert "is the input" in error_line(result)
    assert state.read_text() == KNOWN + "\n"


@pytest.mark.parametrize(
    "command", [*WRITERS, ("minimize", "-o"), ("shrink", "-o")], ids=lambda c: c[0]
)
def test_the_elements_file_is_not_the_output(tmp_path, command) -> None:
    elements = tmp_path / "elements.toml"
    elements.write_text(ELEMENTS)
    result = run(command[0], KNOWN, "--elements", str(elements), *command[1:], str(elements))
    assert result.exit_code == 2
    assert "is the input" in error_line(result)
    assert elements.read_text() == ELEMENTS


def test_a_state_given_as_text_or_another_output_is_still_written(tmp_path) -> None:
    out = tmp_path / "out.svg"
    assert run("draw", KNOWN, "--state", KNOWN, "-o", str(out)).exit_code == 0
    assert out.read_text().startswith("<svg")
    state = tmp_path / "state.txt"
    state.write_text(KNOWN + "\n")
    assert run("draw", KNOWN, "--state", str(state), "-o", str(out)).exit_code == 0
