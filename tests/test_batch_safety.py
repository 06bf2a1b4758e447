"""`check --output` never destroys or mixes data: an output that is one of the files the run
reads is refused, an output is locked for its run, ``--resume`` refuses what it cannot prove
compatible, SIGTERM stops a run as Ctrl-C does, and jigsaw regions are refused, not ignored.

(The rows of README's "What can go wrong" table for data loss and silent corruption.)
"""

from __future__ import annotations

import json

from clitools import error_line, jsonl, run
from puzzles import EULER

REAL = "backtrack"


# --- jigsaw regions are refused, never ignored --------------------------------------------------
JIGSAW_REGIONS = "".join(str(1 + (i % 81) // 9) for i in range(81))  # any layout will do


def test_a_csv_with_a_regions_column_is_refused_naming_the_column(tmp_path):
    path = tmp_path / "jigsaw.csv"
    path.write_text(f"id,puzzle,regions\nj1,{EULER},{JIGSAW_REGIONS}\n")
    for command in (["check", "-b", REAL, "-j", "0"], ["count", "-b", REAL, "-j", "0"]):
        result = run(*command, str(path))
        assert result.exit_code == 2
        assert error_line(result) == (
            f"sudoku-cp: error: {path}: the CSV column 'regions' holds jigsaw regions, and "
            "jigsaw regions are not supported yet (checked as classic puzzles, their verdicts "
            "would be wrong)"
        )
    result = run("solve", str(path))
    assert result.exit_code == 2 and "jigsaw regions are not supported yet" in result.stderr


def test_a_json_record_with_regions_is_invalid_and_the_others_are_checked(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        json.dumps({"id": "j1", "puzzle": EULER, "regions": JIGSAW_REGIONS})
        + "\n"
        + json.dumps({"id": "plain", "puzzle": EULER, "regions": None})
        + "\n"
    )
    result = run("check", str(path), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    assert result.exit_code == 1
    records = {r["id"]: r for r in jsonl(result.stdout)}
    assert records["j1"]["verdict"] == "invalid"
    assert records["j1"]["reason"] == (
        "line 1: the JSON object has a 'regions' key: jigsaw regions are not supported yet "
        "(checked as a classic puzzle, its verdict would be wrong)"
    )
    assert records["plain"]["verdict"] == "unique"  # an empty 'regions' is classic Sudoku
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"puzzle": EULER, "regions": JIGSAW_REGIONS}))
    result = run("solve", str(one))
    assert result.exit_code == 2 and "jigsaw regions are not supported yet" in error_line(result)
