"""The ``sat`` backend's kept solver (``incremental=True``: check and count turn it on, up to
16x16): one solver per model and size in a process, givens as assumptions, blocking clauses
under an activation literal retired after each puzzle.

The bug class guarded: one solver reused across puzzles with different givens — a blocking
clause or a learnt clause from one puzzle hiding a solution of a later one. Every count is
held to a fresh solver's (``incremental=False``) on the same puzzle and, on small grids, to
plain enumeration (``brute_force_count``); puzzles of several models and sizes, with none,
one and many solutions, take turns in one process.
"""

from __future__ import annotations

import functools
import random
import threading
import time

import pytest
from puzzles import (
    EULER,
    FEW,
    FEW_COUNT,
    INKALA,
    brute_force_count,
    bundled,
    no_solution_puzzle,
    none_puzzle,
    puzzle_cells,
    solve_checked,
)

from sudoku_cp import Puzzle, Status, check_puzzles, get_backend
from sudoku_cp.backends.sat import kept  # its caps are patched below
from sudoku_cp.datasets import load_puzzles

pytest.importorskip("pysat")

KEPT = {"incremental": True}


@functools.cache
def _grid(size: int, model: str) -> tuple[int, ...]:
    """A complete grid of the model (the backtracker's first)."""
    return get_backend("backtrack").solve(Puzzle([0] * size * size, model)).solutions[0]


def _blanked(size: int, model: str, seed: int, share: float) -> Puzzle:
    """A complete grid of the model with about ``share`` of its cells blanked."""
    rng = random.Random(seed)
    return Puzzle([0 if rng.random() < share else d for d in _grid(size, model)], model)


def _mix() -> list[tuple[Puzzle, int | None]]:
    """Puzzles of three models and four sizes, with none, one and many solutions, and the
    limit each is counted to (None: every solution)."""
    mix: list[tuple[Puzzle, int | None]] = []
    for seed in range(12):
        for model in ("classic", "latin", "x"):
            mix.append((_blanked(4, model, seed, 0.75), None))
        mix.append((_blanked(6, "classic", seed, 0.6), None))
    mix += [(Puzzle(none_puzzle(n), m), 2) for n in (4, 6, 9) for m in ("classic", "latin")]
    mix += [(Puzzle.parse(no_solution_puzzle()), 2), (Puzzle([0] * 16), None)]
    mix += [(Puzzle.parse(row["puzzle"]), 5) for row in bundled("multiple")[:6]]
    mix += [(Puzzle.parse(row["puzzle"]), 2) for row in bundled("17clue")[:12]]
    mix += [(Puzzle(puzzle_cells(16, seed=s)), 2) for s in range(2)]
    mix += [(_blanked(9, "x", 1, 0.7), 2), (Puzzle.parse(INKALA), 2), (Puzzle.parse(EULER), 2)]
    random.Random(7).shuffle(mix)
    return mix


def test_kept_solver_counts_as_a_fresh_one_across_models_and_sizes() -> None:
    """Each puzzle twice in the mix, far apart: the second time the solver has seen it, its
    blocking clauses and what it learnt from them included."""
    mix = _mix()
    fresh = {}
    for puzzle, limit in mix:
        result = solve_checked("sat", puzzle, limit, incremental=False)
        assert result.exact or result.count == limit
        fresh[puzzle] = (result.count, set(result.solutions))
        if puzzle.size == 4:
            assert result.count == brute_force_count(puzzle)
    statuses = set()
    for puzzle, limit in mix + mix:
        kept = solve_checked("sat", puzzle, limit, incremental=True)
        assert (kept.count, set(kept.solutions) if limit is None else None) == (
            fresh[puzzle][0],
            fresh[puzzle][1] if limit is None else None,
        ), puzzle.to_line()
        statuses.add(kept.status)
    assert statuses == {Status.NONE, Status.UNIQUE, Status.MULTIPLE}


def test_the_same_puzzle_twice_in_a_row_finds_every_solution_again() -> None:
    """Its first run's blocking clauses are retired: the second finds the same solutions."""
    puzzle = Puzzle.parse(FEW)
    first = solve_checked("sat", puzzle, None, incremental=True)
    second = solve_checked("sat", puzzle, None, incremental=True)
    assert first.count == second.count == brute_force_count(puzzle) == FEW_COUNT
    assert set(first.solutions) == set(second.solutions)
    # Each solution as givens: exactly itself, though a blocking clause once excluded it.
    for solution in first.solutions:
        assert solve_checked("sat", Puzzle(solution), 2, **KEPT).solutions == (solution,)
    assert solve_checked("sat", puzzle, None, **KEPT).count == FEW_COUNT


def test_a_search_cut_short_leaves_the_solver_sound() -> None:
    """A deadline already past stops a puzzle before or between its SAT calls; the solver
    kept then answers the next puzzles in full."""
    backend = get_backend("sat")
    options = backend.check_options(KEPT)
    empty = Puzzle([0] * 16)
    backend.search(empty, None, time.perf_counter() + 60, options)  # built, all 288 blocked
    cut = backend.search(empty, None, time.perf_counter() - 1, options)
    assert cut.timed_out and not cut.exhausted
    assert solve_checked("sat", empty, None, **KEPT).count == 288
    assert solve_checked("sat", Puzzle.parse(INKALA), 2, **KEPT).status is Status.UNIQUE


def test_solvers_are_built_afresh_and_dropped_as_the_caps_say(monkeypatch) -> None:
    monkeypatch.setattr(kept, "KEPT_PUZZLES", 3)
    monkeypatch.setattr(kept, "KEPT_SOLVERS", 2)
    puzzles = [_blanked(4, model, seed, 0.7) for seed in range(5) for model in ("classic", "x")]
    puzzles += [Puzzle(none_puzzle(6), "latin"), Puzzle([0] * 16, "latin")]
    for puzzle in puzzles + puzzles:
        assert solve_checked("sat", puzzle, None, **KEPT).count == brute_force_count(puzzle)
    kept.drop_kept_solvers()
    assert solve_checked("sat", Puzzle([0] * 16), None, **KEPT).count == 288


def test_each_thread_keeps_its_own_solver() -> None:
    counts: list[int] = []

    def count(seed: int) -> None:
        for model in ("classic", "latin", "x"):
            puzzle = _blanked(4, model, seed, 0.75)
            got = get_backend("sat").solve(puzzle, limit=None, **KEPT).count
            counts.append(int(got == brute_force_count(puzzle)))

    threads = [threading.Thread(target=count, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counts == [1] * 12


def test_what_is_kept_and_what_is_not() -> None:
    """Up to 16x16 a model's puzzles share a solver (the empty grid's CNF: N³ cell variables);
    a puzzle's own regions, and bigger grids, get a fresh one, pruned by the givens."""
    euler = Puzzle.parse(EULER)
    assert solve_checked("sat", euler, 2, **KEPT).stats["variables"] == 729
    assert solve_checked("sat", euler, 2).stats["variables"] < 729
    jigsaw = load_puzzles("jigsaw")[0]
    assert jigsaw.model.own and jigsaw.size == 9
    assert solve_checked("sat", jigsaw, 2, **KEPT).stats["variables"] < 729


def test_check_and_count_keep_a_solver_unless_told_not_to() -> None:
    """The batch default (the backend's batch_options), and the user's option over it."""
    lines = [row["puzzle"] for row in bundled("17clue")[:3]]
    for options, variables in (({}, {729}), ({"sat": {"incremental": False}}, None)):
        records = list(check_puzzles(lines, "backtrack,sat", jobs=0, options=options))
        assert [r.verdict.value for r in records] == ["unique"] * 3
        seen = {r.backends["sat"].counters["variables"] for r in records}
        assert seen == variables if variables else max(seen) < 729
