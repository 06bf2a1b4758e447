"""A box shape whose numbers int() refuses — a superscript or other non-ASCII digit that
str.isdigit takes, more than the 4,300 digits int() converts — is one error line and exit 2,
on the command line and in a model file (each was a ValueError traceback, exit 1)."""

from __future__ import annotations

import pytest
from clitools import error_line, run
from puzzles import KNOWN

from sudoku_cp.errors import ModelError
from sudoku_cp.model import parse_box

HUGE = "9" * 5000

ODD = ["³x3", "3x²", "①x3", f"{HUGE}x2", f"2x{HUGE}"]


@pytest.mark.parametrize("box", ODD, ids=["sup3", "sup2", "circled", "huge-rows", "huge-cols"])
def test_parse_box_refuses_with_a_model_error(box) -> None:
    with pytest.raises(ModelError) as caught:
        parse_box(box)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("box", ODD, ids=["sup3", "sup2", "circled", "huge-rows", "huge-cols"])
@pytest.mark.parametrize("command", ["draw", "solve", "minimize"])
def test_the_box_option_is_one_line(command, box) -> None:
    result = run(command, KNOWN, "--box", box)
    assert result.exit_code == 2
    assert "box " in error_line(result)


def test_a_model_file_box_is_one_line(tmp_path) -> None:
    model = tmp_path / "sup.toml"
    model.write_text('groups = ["rows", "columns", "boxes"]\nbox = "²x3"\n', encoding="utf-8")
    result = run("draw", KNOWN, "--model", str(model))
    assert result.exit_code == 2
    assert "give it as ROWSxCOLUMNS" in error_line(result)


def test_ordinary_shapes_still_read() -> None:
    assert parse_box("3x2") == (3, 2) and parse_box(" 03 X 03 ") == (3, 3)
    assert parse_box("4×2") == (4, 2)
