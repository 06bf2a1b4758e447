"""Sudoku Explainer's scale (``--scale se``) beyond ``rate``: ``explain`` shows SE's path with
each step's SE difficulty and ER/EP/ED; every command that takes the scale refuses what SE
does not rate with one line and its exit status, and says when a rating reached its time cap.

Expected values are SE 1.2.1's own (``tests/data/se_ratings.csv``, made by ``serate``; see
tests/data/SOURCES.md), never ours; solutions come from the backtracking backend.
"""

from __future__ import annotations

import csv
import json

import pytest
from clitools import error_line, run
from conftest import TESTS

from sudoku_cp import Puzzle
from sudoku_cp.backends import get_backend

SE_ROWS = list(csv.DictReader((TESTS / "data" / "se_ratings.csv").open()))
SIMPLE = next(row for row in SE_ROWS if 2.0 <= float(row["er"]) < 4.0)
"""A puzzle SE rates from 2.0 to 4.0: subsets and locked candidates, rules implemented exactly."""
HARDEST = sorted(SE_ROWS, key=lambda row: -float(row["er"]))[:5]
"""The hardest stored puzzles (SE 8.2 to 8.4): their paths need SE's later rules."""
SLOW = "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5"
"""top1465 line 77: SE rates it 9.8 (dynamic forcing chains (+), as ``tests/test_se_rating.py``
has it): its path takes seconds here, far over a 0.1 s cap (the 7.4 puzzle used before now
rates in under 0.1 s)."""
UNSOLVABLE_BOX = (
    # Sudopedia's "unsolvable box" test case (shared datasets, invalid/sudopedia_test_cases.csv)
    ".9.3....1....8..46......8..4.5.6..3...32756...6..1.9.4..1......58..2....2....7.6."
)


def _se(row: dict[str, str]) -> tuple[float, float, float]:
    return float(row["er"]), float(row["ep"]), float(row["ed"])


def test_explain_se_shows_ses_steps_and_its_er_ep_ed() -> None:
    result = run("explain", "--scale", "se", SIMPLE["puzzle"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-1] == "SE rating: ER {:.1f}, EP {:.1f}, ED {:.1f}".format(*_se(SIMPLE))
    steps = [line for line in lines if line[:3].strip().isdigit()]
    assert steps[0].startswith("  1. ") and lines[-2].startswith(f"solved in {len(steps)} steps")
    # each step names its SE difficulty; the hardest is ER, the first ED
    values = [float(line.split("(")[1].split(")")[0]) for line in steps]
    assert max(values) == _se(SIMPLE)[0] and values[0] == _se(SIMPLE)[2]


def test_explain_se_json_steps_place_the_solution_and_remove_only_wrong_digits() -> None:
    result = run("explain", "--scale", "se", "-f", "json", SIMPLE["puzzle"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rating = data["rating"]
    assert data["scale"] == "se" and data["outcome"] == "solved"
    assert (rating["er"], rating["ep"], rating["ed"]) == _se(SIMPLE)
    solution = get_backend("backtrack").solve(Puzzle.parse(SIMPLE["puzzle"])).solutions[0]
    placed = set()
    for step in data["steps"]:
        assert step["placements"] or step["eliminations"], step
        for item in step["placements"]:
            assert solution[item["index"]] == item["digit"], step
            placed.add(item["index"])
        for item in step["eliminations"]:
            assert solution[item["index"]] != item["digit"], step
    givens = {i for i, c in enumerate(SIMPLE["puzzle"]) if c != "."}
    assert placed | givens == set(range(81))
    assert max(step["difficulty"] for step in data["steps"]) == rating["er"]


def test_explain_se_beyond_the_rules_gives_a_lower_bound_and_exit_3(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_se_rating import GOLDEN_NUGGET, GOLDEN_NUGGET_AFTER_3, without_level_4

    without_level_4(monkeypatch)
    # (a cap far above its quiet-machine time: the default 60 s is reached under heavy load)
    state = GOLDEN_NUGGET_AFTER_3
    result = run("explain", "--scale", "se", "--time-cap", "900", "--state", state, GOLDEN_NUGGET)
    assert result.exit_code == 3, result.output
    rating = next(line for line in result.stdout.splitlines() if line.startswith("SE rating"))
    assert rating == "SE rating: ER ≥10.5, EP ≥10.5, ED ≥10.5"  # SE: 11.9/11.9/11.3
    assert "candidates left:" in result.stdout and "no rule of SE's moves on" in result.stdout
    assert "stopped after 0 steps" in result.stdout


def test_explain_and_rate_se_say_when_the_time_cap_was_reached() -> None:
    explained = run("explain", "--scale", "se", "--time-cap", "0.1", SLOW)
    assert explained.exit_code == 3, explained.output
    assert "the time cap of 0.1 s was reached" in explained.stderr
    assert "ER ≥" in explained.stdout
    rated = run("rate", "--scale", "se", "--time-cap", "0.1", SLOW)
    assert rated.exit_code == 0, rated.output
    assert "the time cap of 0.1 s was reached" in rated.stderr
    er, _, _, outcome = rated.stdout.splitlines()[1].split()[:4]
    assert er.startswith("≥") and float(er[1:]) <= 9.8 and outcome == "time"


@pytest.mark.parametrize("command", ["rate", "explain"])
@pytest.mark.parametrize(
    ("puzzle", "status", "words"),
    [
        ("." * 81, 1, "more than one solution"),
        ("11" + "." * 79, 1, "given twice"),
        (UNSOLVABLE_BOX, 1, "no solution"),
    ],
)
def test_se_refuses_what_it_cannot_rate_in_one_line(
    command: str, puzzle: str, status: int, words: str
) -> None:
    result = run(command, "--scale", "se", puzzle)
    assert result.exit_code == status, result.output
    assert words in error_line(result)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--model", "latin"], "classic 9x9"),
        (["--hint"], "--hint"),
        (["--format", "html"], "--format html"),
        (["--no-uniqueness"], "--no-uniqueness"),
    ],
)
def test_explain_se_refuses_options_and_models_it_does_not_take(
    args: list[str], words: str
) -> None:
    result = run("explain", "--scale", "se", *args, SIMPLE["puzzle"])
    assert result.exit_code == 2, result.output
    assert words in error_line(result)


def test_explain_keeps_hodoku_as_its_default_and_takes_a_cap_on_it_too() -> None:
    result = run("explain", "-f", "json", SIMPLE["puzzle"])
    assert result.exit_code == 0 and "level" in json.loads(result.stdout)["rating"]
    capped = run("explain", "-f", "json", "--time-cap", "60", SIMPLE["puzzle"])
    assert capped.exit_code == 0 and capped.stdout == result.stdout  # a cap not reached
    hint = run("explain", "--hint", SIMPLE["puzzle"])
    assert hint.exit_code == 0 and hint.stdout.startswith("hint: ")


# --- generate --scale se --difficulty LOW-HIGH -------------------------------------------------
def test_generate_se_difficulty_makes_unique_puzzles_rated_in_the_range() -> None:
    result = run(
        "generate", "--scale", "se", "--difficulty", "2.6-4.0", "-n", "1", "--seed", "1",
        "-f", "jsonl", "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    rated = record["difficulty"]
    assert rated["measure"] == "se" and rated["er_exact"] and 2.6 <= rated["er"] <= 4.0
    puzzle = Puzzle.parse(record["puzzle"])
    assert len(get_backend("backtrack").solve(puzzle, limit=2).solutions) == 1
    # `rate --scale se` gives the puzzle the same ER/EP/ED
    again = json.loads(run("rate", "--scale", "se", "-f", "json", record["puzzle"]).stdout)
    assert (again["er"], again["ep"], again["ed"]) == (rated["er"], rated["ep"], rated["ed"])


def test_generate_se_csv_has_ses_columns_where_hodokus_were() -> None:
    result = run("generate", "--scale", "se", "-n", "1", "--seed", "1", "-f", "csv", "-q")
    assert result.exit_code == 0, result.output
    row = next(csv.DictReader(result.stdout.splitlines()))
    assert "level" not in row and row["measure"] == "se"
    assert float(row["er"]) >= float(row["ep"]) >= 1.0 and row["er_exact"] in ("True", "False")


def test_generate_se_target_not_met_says_so_and_exits_3() -> None:
    result = run(
        "generate", "--scale", "se", "--difficulty", "9.0-9.5", "--attempts", "2", "-q",
    )  # fmt: skip
    assert result.exit_code == 3, result.output
    assert "targets not met after 2 attempt(s)" in result.stderr and "rated ER" in result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--variant", "thermo"], "classic 9x9 puzzles only"),
        (["--variant", "killer"], "classic 9x9 puzzles only"),
        (["--size", "4"], "classic 9x9 puzzles only"),
        (["--model", "latin"], "classic 9x9 puzzles only"),
        (["--score", "3-4"], "--score is HoDoKu's"),
        (["--difficulty", "hard"], "ER range"),
        (["--difficulty", "8.0-7.1"], "LOW <= HIGH"),
        (["--difficulty", "nan"], "LOW <= HIGH"),
        (["--difficulty", "25"], "HIGH <= 20"),
    ],
)
def test_generate_se_refuses_what_se_does_not_rate_in_one_line(args: list[str], words: str) -> None:
    result = run("generate", "--scale", "se", *args)
    assert result.exit_code == 2, result.output
    assert words in error_line(result)


def test_generate_keeps_hodoku_levels_as_the_default_scale() -> None:
    result = run("generate", "--difficulty", "7.1-8.0")
    assert result.exit_code == 2 and "--scale se" in error_line(result)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # a killer and a jigsaw read from files keep the name of the model they were read with
        (
            '{"puzzle": "' + "." * 81 + '", "cages": [{"cells": [0, 1], "sum": 3}]}',
            "not one with rules beyond rows, columns and boxes (killer",
        ),
        (
            '{"puzzle": "'
            + "." * 81
            + '", "regions": "'
            + "".join(str(1 + (i % 81) // 9) for i in range(81))
            + '"}',
            "not one whose groups are not rows, columns and boxes",
        ),
    ],
)
def test_the_se_refusal_names_what_is_not_classic(tmp_path, text: str, words: str) -> None:
    """It said "not model 'classic' at 9x9" of a killer or jigsaw read from a file."""
    path = tmp_path / "variant.jsonl"
    path.write_text(text + "\n")
    result = run("rate", "--scale", "se", str(path))
    assert result.exit_code == 2
    assert words in error_line(result) and "'classic'" not in error_line(result)


@pytest.mark.parametrize("scale", ["hodoku", "se"])
def test_rate_prints_no_table_header_when_every_puzzle_is_an_error(scale: str) -> None:
    result = run("rate", "--scale", scale, "11" + "." * 79)
    assert result.exit_code == 1
    assert result.stdout == ""  # (it printed the header, then only the error line)
    assert "given twice" in error_line(result)
    rated = run("rate", "--scale", scale, "-", input=f"{'11' + '.' * 79}\n{SE_ROWS[0]['puzzle']}\n")
    assert rated.exit_code == 1
    assert rated.stdout.splitlines()[0].split()[0] in ("level", "ER")
