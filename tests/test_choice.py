"""The default choice of backends (``--backends auto``): two paradigms per puzzle, by its size
and rules, with real backends on real puzzles; ``--backends all`` runs every one."""

from __future__ import annotations

from pathlib import Path

import pytest
from clitools import error_line, jsonl, run
from puzzles import read_csv

from sudoku_cp import Puzzle, check_puzzles
from sudoku_cp.backends import available_backends, get_backend
from sudoku_cp.backends import backtrack as backtrack_kernel
from sudoku_cp.choice import JUDGES, Chooser, choose, preference
from sudoku_cp.datasets import load_puzzles
from sudoku_cp.model import load_model

EMPTY_9 = Puzzle([0] * 81)


def test_classic_sizes_take_backtrack_and_sat() -> None:
    available = available_backends()
    assert choose(EMPTY_9, available) == ("backtrack", "sat")
    assert choose(Puzzle([0] * 256), available) == ("backtrack", "sat")


def test_large_grids_take_sat_and_the_learning_backtrack_or_cpsat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Above 16x16 backtrack's compiled kernel (it learns nogoods) is second to sat; without
    it the pure search cannot keep up, and cpsat stands in."""
    big = Puzzle([0] * 625)
    with_kernel = choose(big, available_backends())
    if backtrack_kernel.installed_and_on():
        assert with_kernel == ("sat", "backtrack")
    monkeypatch.setenv(backtrack_kernel.ENV, "0")
    assert choose(big, available_backends()) == ("sat", "cpsat")


def test_lines_dots_and_sums_take_sat_and_cpsat_killers_keep_backtrack() -> None:
    available = available_backends()
    thermo = load_puzzles("variants9", 1)[0]
    assert thermo.model.rule_keys - {"killercage"}
    assert choose(thermo, available) == ("sat", "cpsat")
    assert choose(load_puzzles("killer", 1)[0], available) == ("backtrack", "sat")


def test_non_consecutive_takes_sat_and_cpsat() -> None:
    # backtrack took about a minute a puzzle on generated 9x9 non-consecutive puzzles
    nonconsecutive = Puzzle([0] * 81, model=load_model("nonconsecutive"))
    assert choose(nonconsecutive, available_backends()) == ("sat", "cpsat")


def test_a_backend_that_refuses_the_rules_is_passed_over() -> None:
    killer = load_puzzles("killer", 1)[0]
    assert get_backend("dlx").refusal(killer) is not None
    chosen = choose(killer, ["dlx", "constraint", "sat"])
    assert chosen == ("sat", "constraint")  # dlx first in the list, but it refuses cages
    assert all(get_backend(name).refusal(killer) is None for name in chosen)


def test_the_next_in_order_stands_in_for_a_missing_backend() -> None:
    assert choose(EMPTY_9, ["cpsat", "dlx", "backtrack"]) == ("backtrack", "dlx")
    assert choose(EMPTY_9, ["dlx"]) == ("dlx",)  # one backend: it judges alone


def test_every_size_prefers_distinct_backends() -> None:
    for size in (4, 9, 16, 25, 36):
        order = preference(size)
        assert len(set(order)) == len(order) >= JUDGES


def test_chooser_remembers_per_kind_and_gives_the_same_answer() -> None:
    chooser = Chooser(available_backends())
    puzzles = load_puzzles("17clue", 5) + load_puzzles("killer", 2)
    first = [chooser(p) for p in puzzles]
    assert first == [choose(p, available_backends()) for p in puzzles]
    assert [chooser(p) for p in puzzles] == first


def test_default_check_records_which_two_judged_each_puzzle(datasets: Path) -> None:
    nine = load_puzzles("17clue", 3)
    row = read_csv(datasets / "large" / "25x25_19.csv")[-1]  # sat decides it in ms
    big = Puzzle.parse(row["puzzle"])
    killer = load_puzzles("killer", 1)
    records = sorted(check_puzzles([*nine, big, *killer], jobs=0), key=lambda r: r.index)
    assert [set(r.backends) for r in records] == [
        {"backtrack", "sat"},
        {"backtrack", "sat"},
        {"backtrack", "sat"},
        set(preference(25)[:2]),
        {"backtrack", "sat"},
    ]
    assert all(r.verdict.value == "unique" for r in records)
    assert list(records[3].solutions) == [Puzzle.parse(row["solution"]).cells]


def test_backends_all_runs_every_available_backend() -> None:
    result = run("check", "famous", "--backends", "all", "-j", "0", "--format", "jsonl", "-q")
    records = jsonl(result.stdout)
    assert len(records) == 20
    assert all(set(r["backends"]) == set(available_backends()) for r in records)


def test_default_check_on_the_command_line_and_its_record(tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    result = run("check", "easy", "-j", "0", "--output", str(out), "-q")
    assert result.exit_code == 0, result.output
    records = jsonl(out.read_text())
    assert records and all(set(r["backends"]) == {"backtrack", "sat"} for r in records)
    # Resuming with another selection is refused, naming it.
    again = run("check", "easy", "-j", "0", "--output", str(out), "--resume", "-b", "all")
    assert again.exit_code == 2
    assert "made with --backends auto (chosen for each puzzle), not --backends backtrack," in (
        error_line(again)
    )
