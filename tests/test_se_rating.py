"""``rate --scale se``: Sudoku Explainer's ER/EP/ED (:mod:`sudoku_cp.logic.se`).

Expected ratings are SE's own output (``tests/data/se_ratings.csv``, made by SE 1.2.1's
technique set through ``serate``; see tests/data/SOURCES.md), never ours. Where our rules stop
the rating is a lower bound, which must not exceed SE's value.
"""

from __future__ import annotations

import csv
import functools
import json
import time

import pytest
from clitools import error_line, run
from conftest import TESTS
from puzzles import DATA

from sudoku_cp import Puzzle
from sudoku_cp.backends import get_backend
from sudoku_cp.logic.se import SERating, rate_values
from sudoku_cp.logic.se.forcing import TimeCapReached
from sudoku_cp.logic.se.grid import SEGrid
from sudoku_cp.logic.se.rating import BEYOND_FLOOR, next_step

SE_ROWS = list(csv.DictReader((TESTS / "data" / "se_ratings.csv").open()))


def _values(line: str) -> list[int]:
    return [0 if c == "." else int(c) for c in line]


@functools.cache
def _rated(line: str) -> SERating:
    """One rating a stored puzzle, shared by the tests below (chains cost ~0.1 s a step)."""
    return rate_values(_values(line))


@pytest.mark.parametrize("row", SE_ROWS, ids=[r["source"] for r in SE_ROWS])
def test_rating_is_se_1_2_1s_or_a_bound_below_it(row: dict[str, str]) -> None:
    rating = _rated(row["puzzle"])
    se = (float(row["er"]), float(row["ep"]), float(row["ed"]))
    ours = (rating.er, rating.ep, rating.ed)
    exact = (rating.er_exact, rating.ep_exact, rating.ed_exact)
    for mine, theirs, is_exact in zip(ours, se, exact, strict=True):
        if is_exact:
            assert mine == pytest.approx(theirs), rating.text()
        else:
            assert mine <= theirs + 1e-9, rating.text()
    if se[0] < BEYOND_FLOOR:  # below where our rules stop, every rating is exact
        assert rating.exact and rating.outcome == "solved"


def test_nearly_every_stored_rating_is_exact() -> None:
    exact = sum(_rated(row["puzzle"]).exact for row in SE_ROWS)
    assert exact >= 0.9 * len(SE_ROWS)


def test_the_stored_ratings_exercise_most_rules() -> None:
    names = set()
    for row in SE_ROWS:
        if float(row["er"]) < BEYOND_FLOOR:
            names.update(s.name for s in _rated(row["puzzle"]).steps)
    for name in (
        "Full House",
        "Hidden Single",
        "Direct Pointing",
        "Direct Hidden Pair",
        "Direct Hidden Triplet",
        "Naked Single",
        "Pointing",
        "Claiming",
        "Naked Pair",
        "X-Wing",
        "Hidden Pair",
        "Naked Triplet",
        "Swordfish",
        "Hidden Triplet",
        "XY-Wing",
        "XYZ-Wing",
        "Unique Rectangle type 1",
        "Unique Rectangle type 2",
        "Unique Rectangle type 3",
        "Unique Rectangle type 4",
        "Unique Loop 6 type 1",
        "BUG type 1",
        "BUG type 2",
        "BUG type 3",
        "Aligned Pair Exclusion",
        "Bidirectional X-Cycle",
        "Bidirectional Y-Cycle",
        "Bidirectional Cycle",
        "Forcing X-Chain",
        "Forcing Chain",
    ):
        assert name in names, name


def _bundled(name: str, count: int) -> list[str]:
    lines = (DATA / f"{name}.csv").read_text().splitlines()[1:]
    return [line.split(",")[1] for line in lines[:count]]


def test_every_step_is_sound_against_the_solution() -> None:
    puzzles = (
        _bundled("17clue", 100)
        + _bundled("top1465", 30)
        + _bundled("easy", 50)
        + _bundled("famous", 10)
        + _bundled("forum-hardest", 10)
    )
    assert len(puzzles) == 200
    dlx = get_backend("dlx")
    steps = 0
    for line in puzzles:
        result = dlx.solve(Puzzle.parse(line), limit=2)
        assert len(result.solutions) == 1
        solution = result.solutions[0]
        grid = SEGrid(_values(line))
        # SE's dynamic chains take seconds a step: each path is cut after half a second
        grid.deadline = time.perf_counter() + 0.5
        while not grid.solved():
            try:
                step = next_step(grid)
            except TimeCapReached:
                break
            if step is None:
                break
            for cell, mask in step.removals:
                assert not mask >> solution[cell] & 1, (line, step)
            if step.placement is not None:
                cell, value = step.placement
                assert solution[cell] == value, (line, step)
            step.apply(grid)
            steps += 1
            for cell in range(81):  # the solution stays possible everywhere
                assert grid.values[cell] == solution[cell] or (
                    not grid.values[cell] and grid.cands[cell] >> solution[cell] & 1
                ), (line, step)
    assert steps > 8_000


def test_a_rating_that_reaches_its_time_cap_says_so_and_gives_bounds() -> None:
    rating = rate_values(_values(SE_ROWS[0]["puzzle"]), time_cap=0.0)
    assert rating.outcome == "time cap" and not rating.er_exact
    assert rating.text().startswith("≥")


EASY = SE_ROWS[0]["puzzle"]
UNSOLVABLE_BOX = (
    # Sudopedia's "unsolvable box" test case (shared datasets, invalid/sudopedia_test_cases.csv)
    ".9.3....1....8..46......8..4.5.6..3...32756...6..1.9.4..1......58..2....2....7.6."
)


def test_cli_rates_on_se_scale_as_json() -> None:
    result = run("rate", "--scale", "se", "-f", "json", EASY)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    row = SE_ROWS[0]
    se = (float(row["er"]), float(row["ep"]), float(row["ed"]))
    assert (record["er"], record["ep"], record["ed"]) == se
    assert record["er_exact"] and record["ep_exact"] and record["ed_exact"]
    assert record["outcome"] == "solved"


# "Golden Nugget" (shared famous_hardest_named.csv; SE rates it 11.9/11.9/11.3): SE's candidates
# (``%m``) after the first three steps of its path (nested forcing chains of level 3, 11.3,
# 11.3, 11.4), where SE's next step is its first of level 4 (tests/test_se_nested.py).
GOLDEN_NUGGET = ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."
GOLDEN_NUGGET_AFTER_3 = (
    ".2..5678.1..456.8.12.4567...2...6.8..2.4.67.....4.678.12.4..7....3..............9"
    ".2...6789...4...89.2.4.67...23..6.89.234.67..1.........2.4..7...2.4.67......5...."
    ".2...67.91..4.6..9..3.......2...6..9....5.......4.67.9.......8.12.4.67..12.4..7.."
    ".23.5......345...........8.1...5............9..3.5.7..12345.7..12.4..7.......6..."
    "..3.56..9......7.....456...1.3.56.8.1.3..6....2.......1.345...91..4...891.34...8."
    "1..........3.56..9.2..56......4.......3..67....3.5678..23.5.7.9.2....789.23...78."
    "..3..67..1.3..6...........912...6..........8...34.6...1234..7......5....1234..7.."
    "..3.5.78..2.......1...5.7..1.3.5...91.34.......345...9.....6...1..4..7891.34..78."
    "...4.....1.3.56.8.1...56.........7..123..6.....3.56..9123.....912.....89123....8."
)
# magictour top1465, line 77: SE 1.2.1 rates it 9.8 (tests/test_se_chains.py), tens of seconds
# of chain search here.


def _csv_row(*args: str) -> tuple[dict[str, str], str]:
    result = run("rate", "--scale", "se", "-f", "csv", *args)
    assert result.exit_code == 0, result.output
    header, line = result.stdout.splitlines()
    return dict(zip(header.split(","), line.split(","), strict=True)), result.stderr


def without_level_4(monkeypatch: pytest.MonkeyPatch) -> None:
    """SE's producers up to level 3, as serate with level 4 taken out of its set: a path that
    no producer moves on (SE, with every producer, prints 20.0 there)."""
    from sudoku_cp.logic.se import rating

    kept = tuple(p for p in rating.PRODUCERS if not p[0].startswith("NestedForcingChain4"))
    assert len(kept) == len(rating.PRODUCERS) - 4
    monkeypatch.setattr(rating, "PRODUCERS", kept)


def test_cli_beyond_the_rules_prints_a_lower_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    without_level_4(monkeypatch)
    state = ("--state", GOLDEN_NUGGET_AFTER_3, "--time-cap", "300")
    row, _ = _csv_row(*state, GOLDEN_NUGGET)
    assert float(row["er"]) == BEYOND_FLOOR == 10.5 and row["er_exact"] == "False"
    assert row["outcome"] == "beyond"
    assert float(row["er"]) <= 11.9  # SE's rating of the puzzle


def test_cli_a_capped_rating_prints_a_lower_bound_and_says_so() -> None:
    # (its path needs nested forcing chains, plain and slow, with the speed door open or not)
    row, stderr = _csv_row("--time-cap", "2", GOLDEN_NUGGET)
    assert row["er_exact"] == "False" and row["outcome"] == "time cap"
    assert float(row["er"]) <= 11.9  # SE's ER
    assert "the time cap of 2 s was reached" in stderr


@pytest.mark.parametrize(
    ("puzzle", "status", "words"),
    [
        ("." * 81, 1, "more than one solution"),
        ("11" + "." * 79, 1, "given twice"),
        (UNSOLVABLE_BOX, 1, "no solution"),
    ],
)
def test_cli_puzzles_se_cannot_rate_get_one_line_and_their_status(
    puzzle: str, status: int, words: str
) -> None:
    result = run("rate", "--scale", "se", puzzle)
    assert result.exit_code == status
    assert words in error_line(result)


def test_cli_se_scale_refuses_a_variant_model_and_a_bad_time_cap() -> None:
    result = run("rate", "--scale", "se", "--model", "latin", EASY)
    assert result.exit_code == 2 and "classic 9x9" in error_line(result)
    result = run("rate", "--scale", "se", "--time-cap", "7200", EASY)
    assert result.exit_code == 2
    result = run("rate", "--scale", "se", "--no-uniqueness", EASY)
    assert result.exit_code == 2 and "--no-uniqueness" in error_line(result)
    result = run("rate", "--time-cap", "7200", EASY)  # the same bound on HoDoKu's scale
    assert result.exit_code == 2
    capped = run("rate", "--time-cap", "60", EASY)  # a cap HoDoKu's rating does not reach
    assert capped.exit_code == 0 and capped.stdout == run("rate", EASY).stdout


def test_hodoku_stays_the_default_scale() -> None:
    result = run("rate", "-f", "json", EASY)
    assert result.exit_code == 0
    assert "level" in json.loads(result.stdout)


def test_pruned_loop_walk_finds_the_same_unique_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    """``uniqueness.PRUNE_LOOPS`` (the speed door): on every state where the SE paths of the
    stored puzzles rated 4.5 and up ask for unique loops, every step (not only the first) is
    the same with the door open and shut, and some of those states have one."""
    from se_paths import shut_and_open, states_asking

    from sudoku_cp.logic.se import uniqueness

    plain = uniqueness.unique_loops
    lines = [row["puzzle"] for row in SE_ROWS if 4.5 <= float(row["er"]) < 7.0]
    states = states_asking(monkeypatch, plain, lines)
    assert len(states) >= 20
    with_steps = 0
    for g in states:
        every, fast = shut_and_open(monkeypatch, uniqueness, "PRUNE_LOOPS", plain, g)
        assert fast == every
        with_steps += bool(every)
    assert with_steps >= 3


def _first_copies(steps: list[object]) -> list[object]:
    kept: list[object] = []
    for step in steps:
        if step not in kept:
            kept.append(step)
    return kept


def test_skipping_walked_starts_finds_the_same_unique_loop_hints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``uniqueness.SKIP_FOUND_LOOPS`` (the speed door): on every state where the SE paths of
    the stored puzzles rated 4.5 and up ask for unique loops, the first step (the one SE
    applies) is the same with the door open and shut, and the door only leaves out later
    copies: the hints, each kept at its first place, are the same list."""
    from se_paths import shut_and_open, states_asking

    from sudoku_cp.logic.se import uniqueness

    plain = uniqueness.unique_loops
    lines = [row["puzzle"] for row in SE_ROWS if 4.5 <= float(row["er"]) < 7.0]
    states = states_asking(monkeypatch, plain, lines)
    assert len(states) >= 20
    with_steps = with_copies = 0
    for g in states:
        every, fast = shut_and_open(monkeypatch, uniqueness, "SKIP_FOUND_LOOPS", plain, g)
        assert fast[:1] == every[:1]
        assert _first_copies(fast) == _first_copies(every)  # type: ignore[arg-type]
        with_steps += bool(every)
        with_copies += len(fast) < len(every)
    assert with_steps >= 3 and with_copies >= 1
    rated = 0
    for row in SE_ROWS:
        if not 4.5 <= float(row["er"]) < 7.0:
            continue
        fast_rating = rate_values(_values(row["puzzle"]))
        with monkeypatch.context() as shut:
            shut.setattr(uniqueness, "SKIP_FOUND_LOOPS", False)
            plain_rating = rate_values(_values(row["puzzle"]))
        assert fast_rating.text() == plain_rating.text()
        assert fast_rating.steps == plain_rating.steps
        rated += any(s.name.startswith("Unique") for s in fast_rating.steps)
    assert rated >= 1
