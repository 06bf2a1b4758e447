"""``sudoku-cp explain`` and ``rate``: output, exit statuses, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from puzzles import DATA, INKALA

from sudoku_cp import Puzzle
from sudoku_cp.cli import main

EASY = "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_explain_text_and_json() -> None:
    code, out, _ = run("explain", EASY)
    assert code == 0
    assert "  1. Locked Pair (Medium, 40): r1c2 and r1c3 hold only 1 and 6" in out
    # (HoDoKu's path scores 228: its singles come in another order, Hidden 14 v Naked 4)
    assert "solved in" in out and "level Medium, score 238, hardest technique Locked Pair" in out
    code, out, _ = run("explain", EASY, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["outcome"] == "solved" and data["rating"]["level"] == "Medium"
    first = data["steps"][0]
    assert first["technique"] == "Locked Pair" and first["eliminations"][0]["cell"] == "r1c4"


def test_explain_of_a_full_grid_names_no_technique() -> None:
    # It said "hardest technique " and nothing after it.
    code, out, _ = run("explain", "1234341221434321")
    assert code == 0
    assert out.splitlines()[-1] == "level Easy, score 0, hardest technique none (no step taken)"


def test_explain_stalled_shows_the_candidates_and_exits_3() -> None:
    code, out, _ = run("explain", INKALA)
    assert code == 3
    assert "stalled after" in out and "1246" in out and "hardest technique stalled" in out
    code, out, _ = run("explain", INKALA, "--format", "json")
    assert code == 3 and json.loads(out)["candidates"]["r1c2"] == "1246"


def test_explain_no_solution_exits_1() -> None:
    # r1c1 lacks only 1 in row 1, but column 1 holds a 1 already.
    code, out, _ = run("explain", ".234" + "1..." + "...." + "....", "--model", "latin")
    assert code == 1 and "contradiction after 0 steps" in out


def test_explain_errors_are_one_line(tmp_path: Path) -> None:
    code, _, err = run("explain", "not a puzzle at all")
    assert code == 1 and err.count("\n") == 1 and "error" in err
    killer = tmp_path / "killer.jsonl"
    killer.write_text((DATA / "killer.jsonl").read_text().splitlines()[0] + "\n")
    code, out, _ = run("explain", str(killer))
    assert code in (0, 3) and "Rule Combinations" in out  # a killer is explained now


def test_rate_table_csv_and_json() -> None:
    code, out, _ = run("rate", EASY, INKALA)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["level", "score", "steps"]
    assert lines[1].split()[:2] == ["Medium", "238"] and lines[2].split()[0] == "Extreme"
    code, out, _ = run("rate", EASY, "--format", "csv")
    assert out.splitlines()[0] == "id,level,score,hardest,steps,outcome,hardest_used"
    assert out.splitlines()[1].split(",")[1:4] == ["Medium", "238", "Locked Pair"]
    code, out, _ = run("rate", "easy", "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 50 and all(r["outcome"] == "solved" for r in rows)


@pytest.mark.parametrize("scale", ["hodoku", "se"])
def test_rate_table_shows_each_id_on_one_line_without_escapes(tmp_path: Path, scale: str) -> None:
    # The table printed a CSV id as it was: a line break split its row, ESC reached the
    # terminal (check, count and the error lines show ids escaped).
    source = tmp_path / "ids.csv"
    source.write_text(f'id,puzzle\n"two\nlines",{EASY}\n"\x1b[31mred",{EASY}\n')
    code, out, _ = run("rate", str(source), "--scale", scale)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3 and "\x1b" not in out
    assert lines[1].endswith('"two\\nlines"') and lines[2].endswith('"\\u001b[31mred"')


def test_rate_bad_input() -> None:
    code, _, err = run("rate", "12345")
    assert code == 1 and "error" in err
    code, out, err = run("rate", "missing/file.txt")
    assert code == 2 and err.count("\n") == 1 and out == ""


def test_explain_draws_the_page_and_the_step_pictures(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    page = tmp_path / "steps.html"
    code, _, _ = run("explain", EASY, "--format", "html", "-o", str(page))
    text = page.read_text()
    steps = json.loads(run("explain", EASY, "--format", "json")[1])["steps"]
    assert code == 0 and text.startswith("<!DOCTYPE html>") and "Locked Pair" in text
    assert "http://" not in text.replace("http://www.w3.org", "")  # nothing from the network
    folder = tmp_path / "pictures"
    code, _, _ = run("explain", EASY, "--format", "svg", "-o", str(folder))
    names = sorted(p.name for p in folder.iterdir())
    assert code == 0 and names[0] == "puzzle.svg" and len(names) == len(steps) + 1
    for name in names:
        ET.fromstring((folder / name).read_text())
    code, out, _ = run("explain", EASY, "--format", "svg", "--step", "1")
    assert code == 0 and "Locked Pair" in ET.fromstring(out).findtext(
        "{http://www.w3.org/2000/svg}title", ""
    )


def test_explain_picture_options_refused_in_one_line() -> None:
    for args, words in [
        (("--format", "svg"), "needs either --step N"),
        (("--step", "2"), "go with --format html or svg"),
        (("--format", "html", "--step", "2"), "--step goes with --format svg"),
        (("--format", "svg", "--step", "999"), "the solve has"),
    ]:
        code, _, err = run("explain", EASY, *args)
        assert code == 2 and words in err and err.count("\n") == 1, (args, err)
    code, _, err = run("explain", "famous", "--format", "html")
    assert code == 2 and "draws one puzzle" in err


TOP1465_1 = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
"""top1465#1 (bundled): HoDoKu's default techniques need forcing chains on it."""


def test_also_turns_on_a_technique_hodoku_leaves_off() -> None:
    from sudoku_cp import Puzzle, get_backend

    code, out, _ = run("rate", TOP1465_1, "-f", "json")
    plain = json.loads(out)["techniques"]
    assert code == 0 and "Forcing Chain Contradiction" in plain
    assert "Kraken Fish Type 2" not in plain
    code, out, _ = run("rate", TOP1465_1, "-f", "json", "--also", "KRAKEN fish type 2")
    added = json.loads(out)["techniques"]
    assert code == 0 and added.get("Kraken Fish Type 2", 0) >= 1
    # explain takes the same option; every Kraken step holds in the solution
    (solution,) = get_backend("backtrack").solve(Puzzle.parse(TOP1465_1), limit=2).solutions
    code, out, _ = run("explain", TOP1465_1, "-f", "json", "--also", "Kraken Fish Type 2")
    steps = [s for s in json.loads(out)["steps"] if s["technique"] == "Kraken Fish Type 2"]
    assert code == 0 and steps
    for step in steps:
        assert step["eliminations"]
        for gone in step["eliminations"]:
            row, col = int(gone["cell"][1]) - 1, int(gone["cell"][3]) - 1
            assert solution[9 * row + col] != gone["digit"]


def test_also_refuses_names_in_one_line() -> None:
    for args, said in [
        (("--also", "Bogus Wing"), "'Bogus Wing' is no technique to add"),
        (("--also", "x-wing"), "'x-wing' is on already"),
        (("--also", "Death Blossom", "--scale", "se"), "--also adds HoDoKu techniques"),
    ]:
        for command in ("rate", "explain"):
            code, out, err = run(command, EASY, *args)
            assert code == 2 and out == "" and said in err and err.count("\n") == 1, err
    code, _, err = run("explain", EASY, "--hint", "--also", "nope")
    assert code == 2 and "no technique to add" in err


def test_solve_logically_takes_extra_or_techniques_not_both() -> None:
    import pytest

    from sudoku_cp import Puzzle
    from sudoku_cp.errors import SudokuError
    from sudoku_cp.logic.solver import OPTIONAL, TECHNIQUES, solve_logically, techniques

    with pytest.raises(SudokuError, match="not both"):
        solve_logically(Puzzle.parse(EASY), techniques=[], extra=["Death Blossom"])
    # each optional search has HoDoKu's order key and is not also a default one
    assert not {e.name for e in OPTIONAL} & {e.name for e in TECHNIQUES}
    assert [e.order for e in OPTIONAL] == sorted(e.order for e in OPTIONAL)
    default = techniques(uniqueness=True)
    more = techniques(uniqueness=True, extra=["template set", "Death Blossom"])
    assert len(more) == len(default) + 2 and set(default) <= set(more)


# magictour top 1465, line 7: the techniques take over a second on it, far over a 0.2 s cap
TOP1465_7 = ".4..1.2.......9.7..1..........43.6..8......5....2.....7.5..8......6..3..9........"


@pytest.mark.parametrize("out_format", ["text", "json"])
def test_explain_capped_by_the_time_cap_is_not_rated_as_stalled(out_format: str) -> None:
    """A solve the cap stopped is not a stall: its steps are only the first ones. It was
    printed "stalled … level Extreme" (JSON: outcome "stalled" with a rating), as rate's own
    refusal says it must not be."""
    result = CliRunner().invoke(main, ["explain", TOP1465_7, "--time-cap", "0.2", "-f", out_format])
    assert result.exit_code == 3, result.output
    assert "the time cap of 0.2 s was reached" in result.stderr
    if out_format == "json":
        data = json.loads(result.stdout)
        assert data["outcome"] == "time cap" and data["rating"] is None
        assert data["candidates"]  # where it stopped
    else:
        assert "stopped after" in result.stdout and "the time cap was reached" in result.stdout
        assert "stalled" not in result.stdout and "level " not in result.stdout


# EASY with r1c2 placed 1 in the state: the one solution has 6 there
WRONG_STATE = "41" + EASY[2:]
NO_SOLUTION = EASY[:-1] + "1"  # r9c9 1: no given repeats, but no grid completes them


@pytest.mark.parametrize("command", ["rate", "explain"])
def test_a_wrong_state_is_said_to_be_wrong_not_the_puzzle(command: str) -> None:
    """HoDoKu's scale from a state the solution disagrees with: explain said "the puzzle has
    no solution", rate printed a row rated "Invalid"; SE's scale and --hint named the cell."""
    assert EASY[1] == "." and solve_one(EASY)[1] == 6
    result = CliRunner().invoke(main, [command, EASY, "--state", WRONG_STATE])
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        "sudoku-cp: error: puzzle 1: the state is wrong: r1c2 holds 1, which is not the "
        "puzzle's solution there: that digit is wrong\n"
    )
    assert "Invalid" not in result.stdout and "no solution" not in result.stdout


def test_rate_refuses_a_puzzle_with_no_solution_in_one_line() -> None:
    result = CliRunner().invoke(main, ["rate", NO_SOLUTION, "-f", "json"])
    assert result.exit_code == 1, result.output
    assert result.stderr == "sudoku-cp: error: puzzle 1: has no solution\n"
    assert result.stdout == ""


def solve_one(text: str) -> tuple[int, ...]:
    from sudoku_cp import Puzzle, solve

    result = solve(Puzzle.parse(text), limit=2)
    assert result.status.value == "unique"
    return result.solutions[0]


def test_explain_stalled_at_once_says_no_step_was_applied() -> None:
    """From INKALA's own stalled position (a candidate grid) nothing applies: the last line said
    "(hardest applied: )" with nothing in it."""
    from sudoku_cp.logic.solver import solve_logically

    trace = solve_logically(Puzzle.parse(INKALA))
    assert trace.outcome == "stalled"
    state = "".join(
        "".join(
            str(d) if (d == value if value else mask >> (d - 1) & 1) else "." for d in range(1, 10)
        )
        for value, mask in zip(trace.values, trace.candidates, strict=True)
    )
    code, out, _ = run("explain", INKALA, "--state", state)
    assert code == 3 and "stalled after 0 steps" in out
    assert out.splitlines()[-1].endswith(
        "hardest technique stalled (hardest applied: none, no step taken)"
    )
