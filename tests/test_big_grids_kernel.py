"""The compiled search for big grids (:mod:`sudoku_cp.backends.kernel_large`) against other
paradigms and against the pure-Python search.

Skipped when numba is not installed (``pip install '.[jit]'``). The kernel is a search of its
own (domain-consistent groups, two-way branching by dom/wdeg, restarts), so it is held to
*what* it finds, never to its order: every solution passes ``Puzzle.is_solution`` (which shares
no code with any search), counts and solution sets match ``sat``, ``dlx`` or the pure search
(or plain enumeration on small grids), with and without restarts. It searches any size, so it
is also run on 4x4 to 16x16 grids, where the references are quick. No test looks at a clock.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("numba")

from conftest import DATA  # noqa: E402
from puzzles import (  # noqa: E402
    brute_force_count,
    no_solution_puzzle,
    none_puzzle,
    read_csv,
)

from sudoku_cp import Puzzle, Status, get_backend  # noqa: E402
from sudoku_cp.backends import Search  # noqa: E402
from sudoku_cp.backends import kernel_large as kl  # noqa: E402
from sudoku_cp.backends.backtrack import _Clock, _fast, layout  # noqa: E402


def large(puzzle: Puzzle, limit: int | None, restarts: bool = True) -> Search:
    found = kl.search(puzzle, limit, None, restarts)
    assert all(puzzle.is_solution(s) for s in found.solutions)
    assert len(set(found.solutions)) == len(found.solutions)  # no solution counted twice
    assert not found.timed_out
    return found


def pure(puzzle: Puzzle, limit: int | None) -> Search:
    return _fast(puzzle, layout(puzzle.model, puzzle.size), limit, _Clock(None))


def blanked(solution: tuple[int, ...], fraction: float, seed: int) -> list[int]:
    cells = list(solution)
    for cell in random.Random(seed).sample(range(len(cells)), int(fraction * len(cells))):
        cells[cell] = 0
    return cells


def vances25(datasets: Path) -> dict[str, str]:
    """The public 25x25 puzzle every backend decides quickly."""
    return next(
        r for r in read_csv(datasets / "large" / "25x25_19.csv") if r["id"].startswith("vances")
    )


# --- small grids: every count against plain enumeration and the pure search ----------------------
@pytest.mark.parametrize("seed", range(6))
def test_counts_match_enumeration_on_small_grids(seed: int) -> None:
    for model, n in [("classic", 4), ("latin", 4), ("x", 6), ("classic", 6)]:
        grid = pure(Puzzle([0] * (n * n), model), 1).solutions[0]
        puzzle = Puzzle(blanked(grid, 0.6, seed), model)
        everything = large(puzzle, None)
        assert everything.exhausted and len(everything.solutions) == brute_force_count(puzzle)
        assert set(everything.solutions) == set(pure(puzzle, None).solutions)
        for limit in (1, 2, 3):
            restarted = large(puzzle, limit)
            assert set(restarted.solutions) <= set(everything.solutions)
            assert len(restarted.solutions) == min(limit, len(everything.solutions))
            assert restarted.exhausted == (len(everything.solutions) < limit)


def test_no_solution_is_proven() -> None:
    for puzzle in (Puzzle.parse(no_solution_puzzle()), Puzzle(none_puzzle(16))):
        for limit in (None, 2):
            found = large(puzzle, limit)
            assert found.exhausted and not found.solutions


def test_empty_grids_fill() -> None:
    for n in (9, 16, 25, 36):
        assert len(large(Puzzle([0] * (n * n)), 1).solutions) == 1
    assert len(large(Puzzle([0] * 625, "latin"), 1).solutions) == 1


# --- restarts: the same answers, whatever the budget ------------------------------------------
def test_restarts_find_the_same_solutions(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a budget of one dead end a run the search restarts all the time; solutions met again
    after a restart are not counted twice, and a run that ends proves the rest."""
    rows = read_csv(DATA / "forum-hardest.csv")[:6]
    monkeypatch.setattr(kl, "RESTART_UNIT", 1)
    restarted_some = False
    for row in rows:
        puzzle = Puzzle.parse(row["puzzle"])
        plain = large(puzzle, None, restarts=False)
        for limit in (1, 2):
            found = large(puzzle, limit)
            restarted_some |= found.stats["restarts"] > 0
            assert found.solutions == plain.solutions[:limit]
    # multi-solution: a 9x9 with many solutions, counted up to 5 with restarts
    grid = pure(Puzzle([0] * 81), 1).solutions[0]
    puzzle = Puzzle(blanked(grid, 0.62, 3))
    every = set(pure(puzzle, None).solutions)
    assert len(every) > 5
    five = large(puzzle, 5)
    assert len(five.solutions) == 5 and set(five.solutions) <= every
    assert restarted_some


# --- 16x16: public puzzles, and many-solution ones, against the pure search ----------------------
def test_public_16x16_agree_with_the_pure_search(datasets: Path) -> None:
    for row in read_csv(datasets / "large" / "16x16_289.csv")[:6]:
        puzzle = Puzzle.parse(row["puzzle"])
        found = large(puzzle, 2)
        assert found.exhausted and found.solutions == [Puzzle.parse(row["solution"]).cells]
        cells = list(puzzle.cells)  # three givens fewer: often several solutions
        for cell in random.Random(len(cells)).sample([c for c, d in enumerate(cells) if d], 3):
            cells[cell] = 0
        more = Puzzle(cells)
        reference = pure(more, 100)
        assert len(large(more, 3).solutions) == min(3, len(reference.solutions))
        every = large(more, 100, restarts=False)
        assert len(every.solutions) == len(reference.solutions)
        if reference.exhausted:  # fewer than 100: the very same solutions
            assert every.exhausted and set(every.solutions) == set(reference.solutions)
            assert set(large(more, 3).solutions) <= set(reference.solutions)


# --- 25x25 through the backend: unique, several solutions, none ------------------------------
def test_backend_decides_a_public_25x25_with_the_kernel(datasets: Path) -> None:
    row = vances25(datasets)
    puzzle = Puzzle.parse(row["puzzle"])
    result = get_backend("backtrack").solve(puzzle, limit=2)
    assert result.status is Status.UNIQUE
    assert result.solution == Puzzle.parse(row["solution"]).cells
    assert "restarts" in result.stats  # the big grids' kernel searched it


def test_25x25_many_solutions_agree_with_sat(datasets: Path) -> None:
    """Givens removed from a public 25x25 until it has several solutions: the kernel's count up
    to a limit, with and without restarts, and its solutions, against sat's."""
    solution = Puzzle.parse(vances25(datasets)["solution"]).cells
    sat = get_backend("sat")
    for seed in range(2):
        puzzle = Puzzle(blanked(solution, 0.62, seed))
        theirs = sat.solve(puzzle, limit=30, time_limit=120)
        assert theirs.count >= 2
        for restarts in (True, False):
            ours = large(puzzle, 30, restarts)
            assert len(ours.solutions) == theirs.count
            if theirs.exact:
                assert set(ours.solutions) == set(theirs.solutions)


def test_25x25_with_a_clashing_given_has_none(datasets: Path) -> None:
    """A public 25x25 with one more given its solution does not have (and no group repeats a
    given): no solution, proven by the kernel and by sat."""
    row = vances25(datasets)
    puzzle = Puzzle.parse(row["puzzle"])
    solution = Puzzle.parse(row["solution"]).cells
    cells = list(puzzle.cells)
    peers = puzzle.peers()
    cell = next(
        c
        for c, d in enumerate(cells)
        if not d and any(x != solution[c] for x in set(range(1, 26)) - {cells[q] for q in peers[c]})
    )
    taken = {cells[q] for q in peers[cell]} | {solution[cell]}
    cells[cell] = min(set(range(1, 26)) - taken)
    wrong = Puzzle(cells)
    assert get_backend("sat").solve(wrong, limit=2).status is Status.NONE
    assert get_backend("backtrack").solve(wrong, limit=2).status is Status.NONE
    assert large(wrong, None).exhausted and not large(wrong, None).solutions


def test_kernel_off_keeps_the_pure_search(monkeypatch: pytest.MonkeyPatch, datasets: Path) -> None:
    solution = Puzzle.parse(vances25(datasets)["solution"]).cells
    easy = Puzzle(blanked(solution, 0.3, 1))  # quick for the pure search too
    off = get_backend("backtrack").solve(easy, limit=2, kernel=False)
    on = get_backend("backtrack").solve(easy, limit=2)
    assert off.status is on.status is Status.UNIQUE and off.solution == on.solution == solution
    assert "restarts" not in off.stats and "restarts" in on.stats
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "0")
    assert "restarts" not in get_backend("backtrack").solve(easy, limit=2).stats


def test_time_limit_stops_the_kernel() -> None:
    # Counting every solution of an empty 25x25 grid would take forever.
    result = get_backend("backtrack").solve(Puzzle([0] * 625), limit=None, time_limit=0.5)
    assert result.status is Status.MULTIPLE and not result.exact
