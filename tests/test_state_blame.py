"""A refused --state names a placed cell only when that cell is in the rule it breaks.

The state fills the 4x4 sandwich puzzle below with a grid that keeps the givens, rows, columns
and boxes but breaks the sandwich clue 0 of row 2 (row 2 reads 4 3 2 1: 3 + 2 = 5 lie between
the 4 and the 1; the plain check below). The error names that clue; r1c1 is not in row 2, so
blaming "1 in r1c1" sent the solver to a cell that breaks nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import error_line, run

PUZZLE = {
    "size": 4,
    "grid": [
        [{}, {}, {"value": 4, "given": True}, {}],
        [{"value": 4, "given": True}, {}, {"value": 2, "given": True}, {}],
        [{}, {}, {}, {}],
        [{}, {}, {}, {}],
    ],
    "sandwichsum": [
        {"cell": "R2C0", "value": "0"},
        {"cell": "R0C2", "value": "2"},
        {"cell": "R3C0", "value": "0"},
        {"cell": "R4C0", "value": "0"},
    ],
}
STATE = "1243432121343412"


def sandwich(row: list[int]) -> int:
    i, j = sorted((row.index(1), row.index(4)))
    return sum(row[i + 1 : j])


def test_the_state_breaks_only_row_2s_sandwich() -> None:
    rows = [[int(d) for d in STATE[r * 4 : r * 4 + 4]] for r in range(4)]
    assert sandwich(rows[1]) == 5  # the clue says 0


@pytest.mark.parametrize("command", [["explain", "--hint"], ["explain"], ["rate"], ["candidates"]])
def test_a_rule_naming_no_placed_cell_blames_no_cell(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "sandwich.json"
    path.write_text(json.dumps(PUZZLE))
    result = run(command[0], str(path), *command[1:], "--state", STATE)
    assert result.exit_code == 2, result.output
    line = error_line(result)
    assert "sandwich sum 0 of row 2" in line
    assert "r1c1" not in line  # r1c1 is not in row 2
