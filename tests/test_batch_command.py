"""`sudoku-cp check` and `count` on the command line (sudoku_cp.batch.command): exit statuses,
the table, JSON Lines and CSV output with the experiment sidecar.

Bad invocations of every command are in test_bad_input.py; runs killed or interrupted midway
in test_batch_faults.py.
"""

from __future__ import annotations

import csv
import json

import pytest
from clitools import run
from puzzles import EULER, INKALA, SERG, mixed_file, no_solution_puzzle

from sudoku_cp import Puzzle, cross_check
from sudoku_cp.batch import read_records

REAL = "backtrack"


# --- the command line ---------------------------------------------------------------------------
def test_check_exit_0_when_every_puzzle_is_unique_and_table_lists_them():
    result = run("check", EULER, INKALA, "-b", REAL, "-j", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["id", "verdict", "count"]
    # check streams records in completion order (docs/guide/check-and-count.md): the rows are
    # compared by id, as the order of two puzzles finishing is not promised.
    rows = sorted(line.split() for line in lines[1:3])
    assert [row[:3] for row in rows] == [["1", "unique", "1"], ["2", "unique", "1"]]
    assert "puzzles checked" in result.output and "median" in result.output


def test_check_exit_1_for_multiple_none_or_invalid(tmp_path):
    for puzzle in (SERG, no_solution_puzzle(), "12345"):
        assert run("check", puzzle, "-b", REAL, "-j", "0", "-q").exit_code == 1


def test_check_exit_3_for_a_disagreement(fault_backends):
    result = run("check", INKALA, "-b", f"{REAL},test-wrong", "-j", "1", "-f", "jsonl", "-q")
    assert result.exit_code == 3
    record = json.loads(result.stdout)
    assert record["verdict"] == "disagreement"
    assert "test-wrong is wrong" in record["reason"]


@pytest.mark.slow
def test_check_exit_3_when_undecided(fault_backends):
    result = run("check", INKALA, "-b", "test-stuck-on-one", "-t", "0.2", "-j", "1", "-q")
    assert result.exit_code == 3
    assert "undecided" in result.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["no/such/file.txt"], "file not found"),
        ([EULER, "-b", "nope"], "unknown backend"),
        ([EULER, "-m", "nope"], "unknown model"),
        ([EULER, "--resume"], "--resume needs --output"),
        ([EULER, "-o", "/no/such/folder/out.jsonl"], "does not exist"),
        ([EULER, "-O", "backtrack.nope=1"], "no option"),
    ],
)
def test_check_exit_2_for_an_unusable_invocation(args, words):
    result = run("check", *args)
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output


def test_jsonl_output_has_every_field_and_a_meta_sidecar(tmp_path):
    source = mixed_file(tmp_path)
    out = tmp_path / "out.jsonl"
    result = run("check", str(source), "-b", REAL, "-j", "2", "-o", str(out), "-t", "30")
    assert result.exit_code == 1  # serg is multiple, nosol none, two invalid
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in records) == [1, 2, 3, 4, 5, 6]
    easy = next(r for r in records if r["id"] == "easy")
    assert easy["puzzle"] == EULER and easy["verdict"] == "unique"
    assert easy["count"] == 1 and easy["exact"] is True and len(easy["solutions"]) == 1
    run_ = easy["backends"][REAL]
    assert run_["status"] == "unique" and run_["count"] == 1
    assert run_["seconds"] > 0 and isinstance(run_["counters"], dict)
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["settings"]["backends"] == [REAL] and meta["settings"]["limit"] == 2
    assert meta["settings"]["time_limit"] == 30
    assert meta["inputs"][0]["sha256"] and meta["inputs"][0]["kind"] == "file"
    assert meta["versions"]["python"] and REAL in meta["versions"]["backends"]
    assert meta["machine"]["cores"] >= 1 and meta["machine"]["cpu"]
    assert meta["runs"][0]["started"] and meta["runs"][0]["finished"]
    assert meta["summary"]["verdicts"]["invalid"] == 2


def test_csv_output_is_flat_with_per_backend_columns(tmp_path):
    out = tmp_path / "out.csv"
    result = run("check", str(mixed_file(tmp_path)), "-b", REAL, "-j", "1", "-o", str(out))
    assert result.exit_code == 1
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 6
    serg = next(r for r in rows if r["id"] == "serg")
    assert serg["verdict"] == "multiple" and serg["count"] == "2" and serg["exact"] == "False"
    assert serg["solution_1"] and serg["solution_2"] and serg["solution_1"] != serg["solution_2"]
    puzzle = Puzzle.parse(SERG)
    for column in ("solution_1", "solution_2"):  # witnesses in single-line form, as in JSON Lines
        assert len(serg[column]) == 81 and puzzle.is_solution(Puzzle.parse(serg[column]).cells)
    assert serg[f"{REAL}.status"] == "multiple" and float(serg[f"{REAL}.seconds"]) > 0
    assert {r.id for r in read_records(out)} == {r["id"] for r in rows}
    again = next(r for r in read_records(out) if r.id == "serg")
    assert all(puzzle.is_solution(grid) for grid in again.solutions) and again.count == 2


def test_count_exact_or_at_least():
    result = run("count", "1...\n..1.\n.1..\n...1", "--all", "-b", REAL, "-j", "0")
    assert result.exit_code == 0 and "exactly 18 solutions" in result.stdout
    result = run("count", "1...\n..1.\n.1..\n...1", "--limit", "5", "-b", REAL, "-j", "0")
    assert result.exit_code == 0 and "at least 5 solutions" in result.stdout
    result = run("count", "1...\n..1.\n.1..\n...1", "--limit", "5", "--all")
    assert result.exit_code == 2


def test_count_limit_is_never_exceeded_when_backends_find_different_solutions():
    # backtrack and cpsat each find 5 of the 18 solutions, not the same 5: together 10 distinct
    # validated ones, yet only 5 were asked for, so the answer is "at least 5", not "at least 10"
    grid = "1...\n..1.\n.1..\n...1"
    result = run("count", grid, "--limit", "5", "-b", "backtrack,cpsat", "-j", "0")
    assert result.exit_code == 0, result.output
    assert result.stdout == "1: at least 5 solutions\n"
    record = cross_check(grid, ["backtrack", "cpsat"], limit=5)
    assert (record.count, record.exact, record.verdict.value) == (5, False, "multiple")


def test_count_all_cut_short_by_the_time_limit_is_undecided():
    # the empty 9x9 grid has 6.67e21 solutions: no backend counts them all in a second
    result = run("count", "." * 81, "--all", "-b", "sat", "--time-limit", "1", "-j", "1")
    assert result.exit_code == 3, result.output
    assert result.stdout.startswith("1: at least ") and result.stdout.endswith(" solutions\n")
    # a limit the backend reached in time is a settled answer, with the same puzzle and backend
    result = run("count", "." * 81, "--limit", "3", "-b", "sat", "--time-limit", "30", "-j", "1")
    assert result.exit_code == 0 and result.stdout == "1: at least 3 solutions\n"


# --- ids in the table: whole, one line each, never two shown the same ----------------------------
def test_table_cuts_long_ids_so_columns_stay_and_famous_rows_still_differ():
    # Issue 35: long ids pushed their rows out of the columns; now cut in the middle with "…"
    result = run("check", "famous", "-b", REAL, "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert len(rows) == 20
    column = header.index("verdict")
    assert all(row[column:].startswith("unique ") for row in rows), result.stdout
    assert any("…" in row[:column] for row in rows)
    shown = [row[:column].rstrip() for row in rows]
    assert len(set(shown)) == 20


def test_table_escapes_control_characters_in_ids_one_line_per_record(tmp_path):
    ids = ["a\nb", "a\\nb", "\x1b[2Jwipe", "tab\there", '"a\\nb"', "cr\rcr", "plain"]
    source = tmp_path / "ids.jsonl"
    source.write_text("".join(json.dumps({"id": i, "puzzle": EULER}) + "\n" for i in ids))
    for command in ("check", "count"):
        result = run(command, str(source), "-b", REAL, "-j", "1", "-q")
        assert result.exit_code == 0, result.output
        lines = result.stdout.splitlines()
        records = lines[1:] if command == "check" else lines
        assert len(records) == len(ids), result.stdout
        assert all(line.isprintable() for line in lines), result.stdout
        separator = " " if command == "check" else ": "
        shown = {line.split(separator)[0] for line in records}
        assert len(shown) == len(ids), shown
        assert "plain" in shown and "a\\nb" in shown
