"""What a new user met (issue 35, item 10), each as that user met it: a replay of a bench that
measured sat or cpsat, a bare f-puzzles payload as an argument, the help of generate."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clitools import run
from puzzles import EULER

from sudoku_cp.backends import timing_counters

# An f-puzzles payload (lz-string base64 of f-puzzles JSON: a 9x9 grid of givens) holding
# '/' and '+', as most do: before, taken for a path ("file not found").
PAYLOAD = (
    "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKQA3AQwBsBXOeAVlTQmpgDsEAXDMwo0GzBAGYOXXgKEwRd"
    "JixToZfeIOHkAuskKjlCACzTuGrQtKHx8AGxnZm+YrEspa83O2UKro/AAHI4WLuS6+r7hoEq2wZ5Oln7RycR"
    "6hKk2LOwJoT6pmbEs8ZxezvnpUVVZCABMId5WMW4IAIwN5U018ADsHUnR3aa5jUSVhS32/WFVBREZg0UIfSOd"
    "EwGqpYkz/rYOqwO+49ZL8B5beU1zsyeT7Qculd05F6O3AfevaynvtsNfh2uYx0RCAA"
)


def test_a_replay_of_sat_and_cpsat_compares_no_timings(tmp_path: Path) -> None:
    pytest.importorskip("pysat")
    pytest.importorskip("ortools")
    data = tmp_path / "two.csv"
    data.write_text(f"id,puzzle\neuler,{EULER}\n", encoding="utf-8")
    first = run("bench", str(data), "-b", "backtrack,sat,cpsat", "-o", str(tmp_path / "a"), "-q")
    assert first.exit_code == 0, first.output
    again = run("bench", "--replay", str(tmp_path / "a"), "-o", str(tmp_path / "b"), "-q")
    # Before: encode_seconds, build_seconds … differed every time: exit 1.
    assert again.exit_code == 0, again.output
    assert "have the record's statuses and counters" in again.output


def test_timing_counters_are_declared_as_such() -> None:
    assert {"encode_seconds", "solve_seconds"} <= timing_counters(["sat"])
    assert "decisions" not in timing_counters(["sat"])
    assert {"build_seconds", "search_seconds", "solver_seconds"} <= timing_counters(["cpsat"])


@pytest.mark.parametrize("command", ["solve", "check", "count"])
def test_a_bare_payload_is_read_as_a_puzzle(command: str) -> None:
    assert "/" in PAYLOAD and "+" in PAYLOAD
    result = run(command, PAYLOAD, "-q") if command != "solve" else run(command, PAYLOAD)
    assert result.exit_code == 0, result.output
    assert "file not found" not in result.output


def test_a_file_named_like_a_payload_is_still_that_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "N4IgzglgXgpiBcBOAvkA").write_text(EULER + "\n", encoding="utf-8")
    result = run("solve", "N4IgzglgXgpiBcBOAvkA", "--format", "line")
    assert result.exit_code == 0, result.output


def test_generate_help_names_sizes_to_25_and_helps_every_option() -> None:
    text = " ".join(run("generate", "--help").output.split())
    assert "4 to 25" in text and "4–16" not in text
    for option, words in (
        ("--count", "How many puzzles to make"),
        ("--jobs", "Worker processes"),
        ("--format", "pretty, rows or json"),
    ):
        described = re.search(re.escape(option) + r" (?:INTEGER|\[[^\]]*\]) ([^\[]*)", text)
        assert described is not None and words in described.group(1), (option, text)
    made = run("generate", "-s", "25", "-q")
    assert made.exit_code == 0, made.output


def test_explain_and_rate_give_a_puzzle_the_same_score() -> None:
    import json

    # top1465 #4: its solve uses a uniqueness technique (before: explain 11178, rate 11268)
    puzzle = "......41.9..2.....3...5.....48..7..........62.1.......6..5....3.7....8......9...."
    explained = json.loads(run("explain", puzzle, "--format", "json").stdout)["rating"]
    rated = run("rate", puzzle, "--format", "json").stdout
    assert explained["techniques"].get("Uniqueness Test 2")
    assert json.loads(rated)["score"] == explained["score"]
    left_out = json.loads(run("explain", puzzle, "--format", "json", "--no-uniqueness").stdout)
    again = json.loads(run("rate", puzzle, "--format", "json", "--no-uniqueness").stdout)
    assert left_out["rating"]["score"] == again["score"] != explained["score"]


def _fpuzzles(givens: dict[tuple[int, int], int], **rules: object) -> str:
    import json

    grid: list[list[dict]] = [[{} for _ in range(9)] for _ in range(9)]
    for (row, column), value in givens.items():
        grid[row][column] = {"value": value, "given": True}
    return json.dumps({"size": 9, "grid": grid, **rules})


@pytest.mark.parametrize(
    ("rules", "givens", "reason"),
    [
        # f-puzzles keys as SudokuPad's fpuzzlesdecoder.js and dclamage's readers take them
        (
            {"thermometer": [{"lines": [["R1C1", "R1C2", "R1C3"]]}]},
            {(0, 0): 5, (0, 1): 3},
            "the givens break the thermometer rule: r1c1 = 5 and r1c2 = 3",
        ),
        (
            {"difference": [{"cells": ["R1C1", "R1C2"]}]},
            {(0, 0): 5, (0, 1): 3},
            "the givens break the white dot rule: r1c1 = 5 and r1c2 = 3",
        ),
        (
            {"nonconsecutive": True},
            {(0, 0): 5, (0, 1): 4},
            "the givens break the non-consecutive rule: r1c1 = 5 and r1c2 = 4",
        ),
        (
            {"antiknight": True},
            {(0, 2): 1, (1, 4): 1},
            "digit 1 is given twice in anti-knight r1c3 and r2c5",
        ),
        (
            {"killercage": [{"cells": ["R1C1", "R1C2"], "value": "9"}]},
            {(0, 0): 5, (0, 1): 3},
            "the givens break a rule: the killer cage at r1c1 sums to 8, not 9",
        ),
    ],
)
def test_givens_that_break_any_rule_are_invalid_alike(
    rules: dict, givens: dict, reason: str
) -> None:
    import json

    result = run("check", _fpuzzles(givens, **rules), "-f", "jsonl", "-q", "-j", "0")
    record = json.loads(result.stdout)
    assert (record["verdict"], result.exit_code) == ("invalid", 1), record
    assert record["reason"].endswith(reason)


def test_a_grid_drawn_with_other_boxes_says_which_box_to_give(tmp_path: Path) -> None:
    # A 6x6 drawn with 3x2 boxes (the pretty form of generate -s 6 --box 3x2): before, read
    # with 2x3 boxes, silently another puzzle ("multiple").
    drawn = (
        "2 5 | . . | 3 .\n. 1 | . 5 | . .\n. 3 | . . | . .\n----+-----+----\n"
        ". . | . . | . .\n. 2 | 5 . | 1 .\n. . | . 4 | . .\n"
    )
    path = tmp_path / "six.txt"
    path.write_text(drawn, encoding="utf-8")
    result = run("solve", str(path))
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "the grid is drawn with 3x2 boxes (rows by columns), but model 'classic' has 2x3 boxes "
        'at 6x6: give --box 3x2 (or box = "3x2" in a model file)'
    )
    assert run("solve", str(path), "--box", "3x2").exit_code == 0
    plain = run("generate", "-s", "6", "-f", "pretty", "-q").stdout  # drawn 2x3: as read
    assert run("solve", plain).exit_code == 0


def test_the_auto_table_shows_the_judges_only() -> None:
    result = run("check", "famous", "-j", "1", "-q")
    header, *rows = result.stdout.splitlines()
    assert header.split() == ["id", "verdict", "count", "judge", "judge", "note"]
    for row in rows:  # two judges, each with its time, in their columns
        judges = row[header.index("judge") : header.index("note")].split()
        assert len(judges) == 6 and judges[1][0].isdigit() and judges[4][0].isdigit(), row


def test_the_explain_page_is_larger_lighter_and_keeps_arrows_under_digits() -> None:
    import re

    from sudoku_cp import Puzzle
    from sudoku_cp.logic.solver import solve_logically
    from sudoku_cp.render import explain_html
    from sudoku_cp.render.svg import LAYERS

    # The first puzzle of the bundled 17-clue sample: its page weighed 1,597,627 bytes.
    first = (Path(__file__).parent.parent / "sudoku_cp/data/17clue.csv").read_text()
    line = first.splitlines()[1].split(",")[1]
    html = explain_html(solve_logically(Puzzle.parse(line), uniqueness=True))
    assert len(html.encode()) < 800_000
    widths = [float(w) for w in re.findall(r'<svg xmlns="[^"]*" width="([0-9.]+)"', html)]
    assert widths and min(widths) >= 540  # it drew 368 px
    assert html.count("<use href=") >= 2 * (len(widths) - 1)  # grid and borders drawn once
    assert LAYERS.index("link") < LAYERS.index("digit")  # chain arrows under the givens
