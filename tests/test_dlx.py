"""The ``dlx`` backend (exact cover, dancing links): what is particular to it (the contract is
in test_backend_contract.py).

What it refuses (a model with a group of fewer than N cells), its time limit on a long search,
its counters, and that it takes no options.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from puzzles import brute_force_count, read_csv, solve_checked

from sudoku_cp import BackendError, Puzzle, Status, Verdict, cross_check, get_backend, solve
from sudoku_cp.backends import dlx
from sudoku_cp.model import model_from_dict


def short_group_puzzle(cells: list[list[int]]) -> Puzzle:
    model = model_from_dict(
        {"groups": ["rows", "columns"], "cells": [{"cells": cells}]}, name="latin-plus-short"
    )
    return Puzzle([0] * 16, model)


@pytest.mark.parametrize(
    "cells",
    [[[0, 0], [1, 1], [2, 3]], [[0, 0], [3, 3]], [[2, 2]]],
    ids=["3-cells", "2-cells", "1-cell"],
)
def test_refuses_a_group_shorter_than_the_grid_before_searching(
    cells: list[list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = short_group_puzzle(cells)
    reason = get_backend("dlx").supports(puzzle)
    assert reason == (
        f"backend 'dlx' cannot express model 'latin-plus-short': group 1 has {len(cells)} "
        f"cell{'s' if len(cells) > 1 else ''}, and exact cover needs every group to hold each "
        f"of the 4 digits exactly once (use another backend for this model)"
    )
    monkeypatch.setattr(dlx, "ExactCover", lambda *a: pytest.fail("built the matrix"))
    with pytest.raises(BackendError) as err:
        solve(puzzle, "dlx")
    assert str(err.value) == reason


def test_the_cross_check_records_it_unsupported_and_the_others_decide() -> None:
    puzzle = short_group_puzzle([[0, 0], [1, 1], [2, 3]])
    record = cross_check(puzzle, ["backtrack", "dlx"], limit=None)
    dlx_run = record.backends["dlx"]
    assert dlx_run.status is Status.UNSUPPORTED
    assert dlx_run.error == get_backend("dlx").supports(puzzle)
    assert record.verdict is Verdict.MULTIPLE and record.count == brute_force_count(puzzle)


def test_a_short_window_is_refused_and_named() -> None:
    model = model_from_dict(
        {"groups": ["rows", "columns"], "windows": [{"row": 1, "col": 1, "height": 2, "width": 2}]},
        name="latin-plus-window",
    )
    reason = get_backend("dlx").supports(Puzzle([0] * 81, model))
    assert reason and "window 1 has 4 cells" in reason and "9 digits" in reason


def test_the_matrix_refuses_a_short_group_too() -> None:
    """Built directly (not through the backend), it still never stands for the wrong problem."""
    with pytest.raises(BackendError, match="exact cover"):
        dlx.ExactCover(short_group_puzzle([[0, 0], [1, 1]]))


def test_groups_of_n_cells_are_supported_whatever_they_are() -> None:
    """A listed group of N cells, even one repeating a row, is fine for exact cover."""
    puzzle = short_group_puzzle([[1, 0], [0, 1], [2, 2], [3, 3]])
    assert get_backend("dlx").supports(puzzle) is None
    assert solve_checked("dlx", puzzle, None).exact


def test_takes_no_options() -> None:
    with pytest.raises(BackendError, match="no option"):
        get_backend("dlx").solve(Puzzle([0] * 16), heuristic="first")


def test_time_limit_cuts_a_long_search(datasets: Path) -> None:
    # A 25x25 puzzle that takes dlx several seconds to prove unique.
    row = read_csv(datasets / "large" / "25x25_19.csv")[0]
    assert row["id"] == "gecode#18"
    result = solve_checked("dlx", Puzzle.parse(row["puzzle"]), 2, time_limit=0.3)
    assert result.status is Status.TIMEOUT and not result.exact
    assert result.count <= 1


def test_time_limit_while_counting() -> None:
    """Counting the empty 9x9 grid: solutions come fast, so at least two are in by the limit."""
    result = solve_checked("dlx", Puzzle([0] * 81), None, time_limit=0.2)
    assert result.status is Status.MULTIPLE and not result.exact and result.count >= 2


def test_counters() -> None:
    result = solve_checked("dlx", Puzzle([0] * 16), None)
    assert result.stats["nodes"] > 288 and result.stats["updates"] > result.stats["nodes"]
    assert result.stats["columns"] == 16 + 3 * 4 * 4 and result.stats["rows"] == 16 * 4


def test_a_batch_counts_it_unsupported_not_solved(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from sudoku_cp.cli import main

    model = tmp_path / "short.toml"
    model.write_text('groups = ["rows", "columns"]\n[[cells]]\ncells = [[0, 0], [1, 1], [2, 3]]\n')
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(
        main,
        [
            "check",
            "1...............",
            "--model",
            str(model),
            "-b",
            "backtrack,dlx",
            "-j",
            "0",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 1, result.output  # multiple: backtrack decides alone
    meta = json.loads(out.with_name("out.jsonl.meta.json").read_text())
    tally = meta["summary"]["backends"]["dlx"]
    assert tally["unsupported"] == 1 and tally["solved"] == 0 and tally["median_seconds"] is None
    table = CliRunner().invoke(
        main, ["check", "1...............", "--model", str(model), "-b", "backtrack,dlx", "-j", "0"]
    )
    assert "unsupported" in table.output


def test_a_bench_rows_it_unsupported_with_the_reason(tmp_path: Path) -> None:
    from sudoku_cp.bench.record import BenchConfig
    from sudoku_cp.bench.run import run_bench

    model = tmp_path / "short.toml"
    model.write_text('groups = ["rows", "columns"]\n[[cells]]\ncells = [[0, 0], [1, 1], [2, 3]]\n')
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("1...............\n")
    run = run_bench(
        BenchConfig(
            datasets=[str(puzzles)],
            backends=["backtrack", "dlx"],
            model=str(model),
            jobs=1,
            time_limit=5,
        )
    )
    dlx_row = next(row for row in run.rows if row["backend"] == "dlx")
    assert dlx_row["status"] == "unsupported" and "exact cover" in dlx_row["note"]
    assert dlx_row["agrees"] is None  # it did not vote
    assert next(row for row in run.rows if row["backend"] == "backtrack")["status"] == "multiple"


def test_weighted_columns_on_16x16_count_like_the_backtracker(datasets: Path) -> None:
    """From 16x16 on the column is chosen by rows per dead end: the solutions of puzzles with
    many still match the backtracker's (another paradigm), and the public puzzle that Knuth's
    rule did not decide in 20 s (uva16#85; now under a second) is decided unique."""
    import random

    assert dlx.WEIGHTED_FROM_SIZE <= 16
    rows = read_csv(datasets / "large" / "16x16_289.csv")
    for i, row in enumerate(rows[:3]):
        cells = list(Puzzle.parse(row["solution"]).cells)
        for cell in random.Random(i).sample(range(256), int(0.55 * 256)):
            cells[cell] = 0
        puzzle = Puzzle(cells)
        ours = get_backend("dlx").solve(puzzle, limit=None, time_limit=60)
        theirs = get_backend("backtrack").solve(puzzle, limit=None, time_limit=60)
        assert ours.exact and theirs.exact and ours.count > 1
        assert set(ours.solutions) == set(theirs.solutions)
    hard = next(row for row in rows if row["id"] == "uva16#85")
    result = get_backend("dlx").solve(Puzzle.parse(hard["puzzle"]), limit=2, time_limit=60)
    assert result.status is Status.UNIQUE
    assert result.solution == Puzzle.parse(hard["solution"]).cells
