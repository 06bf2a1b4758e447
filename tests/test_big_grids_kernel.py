"""The compiled search for big grids (:mod:`sudoku_cp.backends.backtrack.kernel.learn`) against
other paradigms and against the pure-Python search.

Skipped when numba is not installed (``pip install '.[jit]'``). The kernel is a search of its
own (it learns nogoods, jumps back, restarts and forgets), so it is held to *what* it finds,
never to its order: every solution passes ``Puzzle.is_solution`` (which shares no code with any
search), no solution comes twice, and counts and solution sets match ``sat``, the pure search or
plain enumeration on small grids. It searches any size, so it also runs on 4x4 to 16x16 grids,
where the references are quick. A second set of runs squeezes every part of its bookkeeping (a
restart after every dead end, nogoods swept every few dead ends, stores that must grow, calls
that pause, a buffer of one solution) and must find the same. No test looks at a clock.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
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
from sudoku_cp.backends.backtrack import last_engine  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import glue  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import learn as kl  # noqa: E402
from sudoku_cp.backends.backtrack.layout import layout  # noqa: E402
from sudoku_cp.backends.backtrack.search import _Clock, _fast  # noqa: E402
from sudoku_cp.model import load_model  # noqa: E402


def learn(puzzle: Puzzle, limit: int | None, deadline: float | None = None) -> Search:
    found = kl.search(puzzle, limit, deadline)
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


@pytest.fixture(params=["as shipped", "squeezed"])
def settings(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The kernel as shipped, and with every piece of bookkeeping forced to run all the time."""
    if request.param == "squeezed":
        monkeypatch.setattr(kl, "RESTART_MODE_DEFAULT", 0)  # Luby restarts ...
        monkeypatch.setattr(kl, "RESTART_UNIT", 1)  # ... after every dead end or two
        monkeypatch.setattr(kl, "FIRST_REDUCE", 3)  # nogoods swept every 3 dead ends,
        monkeypatch.setattr(kl, "REDUCE_STEP", 0)
        monkeypatch.setattr(kl, "KEEP_DISTANCE", 0)  # none kept for its distance
        monkeypatch.setattr(kl, "CLAUSE_ROOM", 2)  # the stores grow from almost nothing
        monkeypatch.setattr(kl, "WORK_PER_CALL", 20)  # calls pause (with a deadline)
        monkeypatch.setattr(kl, "SOLUTION_ROWS", 1)  # one solution handed back per call
    yield request.param


def far() -> float:
    """A deadline that is never reached: it makes calls pause and resume."""
    return time.perf_counter() + 3600


# --- small grids: every count against plain enumeration and the pure search ----------------------
@pytest.mark.parametrize("seed", range(6))
def test_counts_match_enumeration_on_small_grids(seed: int, settings: str) -> None:
    for model, n in [("classic", 4), ("latin", 4), ("x", 6), ("classic", 6)]:
        grid = pure(Puzzle([0] * (n * n), model), 1).solutions[0]
        puzzle = Puzzle(blanked(grid, 0.6, seed), model)
        everything = learn(puzzle, None, far())
        assert everything.exhausted and len(everything.solutions) == brute_force_count(puzzle)
        assert set(everything.solutions) == set(pure(puzzle, None).solutions)
        for limit in (1, 2, 3):
            some = learn(puzzle, limit, far())
            assert set(some.solutions) <= set(everything.solutions)
            assert len(some.solutions) == min(limit, len(everything.solutions))
            assert some.exhausted == (len(everything.solutions) < limit)


@pytest.mark.parametrize("seed", range(3))
def test_9x9_with_many_solutions_agree_with_the_pure_search(seed: int, settings: str) -> None:
    for model in ("classic", "x"):
        solution = pure(Puzzle([0] * 81, model), 1).solutions[0]
        for fraction in (0.66, 0.7, 0.74, 0.78):  # blank until it has several solutions
            puzzle = Puzzle(blanked(solution, fraction, seed), model)
            every = pure(puzzle, None)
            if len(every.solutions) > 1:
                break
        assert every.exhausted and len(every.solutions) > 1
        ours = learn(puzzle, None, far())
        assert ours.exhausted and set(ours.solutions) == set(every.solutions)
        two = learn(puzzle, 2, far())
        assert len(two.solutions) == 2 and set(two.solutions) <= set(every.solutions)


def test_hard_9x9_are_unique(settings: str) -> None:
    for row in read_csv(DATA / "forum-hardest.csv")[:8]:
        puzzle = Puzzle.parse(row["puzzle"])
        found = learn(puzzle, 2, far())
        assert found.exhausted and found.solutions == pure(puzzle, 2).solutions


def test_no_solution_is_proven(settings: str) -> None:
    for puzzle in (Puzzle.parse(no_solution_puzzle()), Puzzle(none_puzzle(16))):
        for limit in (None, 2):
            found = learn(puzzle, limit, far())
            assert found.exhausted and not found.solutions


@pytest.mark.parametrize("seed", range(4))
def test_groups_shorter_than_the_grid_are_kept(seed: int, settings: str) -> None:
    # Cells of a short group are peers that share no full group: the search holds them apart
    # with its own rival lists, not its constraints.
    short = {
        4: (((0, 0), (1, 1)), ((2, 3), (3, 0), (1, 2))),
        9: (((0, 0), (1, 4), (2, 8), (5, 5)), ((8, 0), (7, 1), (3, 3))),
    }
    for n, base, fraction in [(4, "latin", 0.7), (9, "classic", 0.62)]:
        model = dataclasses.replace(load_model(base), name="short groups", cell_groups=short[n])
        grid = pure(Puzzle([0] * (n * n), model), 1).solutions[0]
        puzzle = Puzzle(blanked(grid, fraction, seed), model)
        everything = learn(puzzle, None, far())
        assert everything.exhausted and set(everything.solutions) == set(
            pure(puzzle, None).solutions
        )
        if n == 4:
            assert len(everything.solutions) == brute_force_count(puzzle)


def test_a_full_grid_is_its_own_solution() -> None:
    for n in (9, 25):
        grid = learn(Puzzle([0] * (n * n)), 1).solutions[0]
        found = learn(Puzzle(list(grid)), 2)
        assert found.exhausted and found.solutions == [grid]


def test_empty_grids_fill() -> None:
    # (not 36: an empty 36x36 takes this kernel 399,000 nodes, 16 s, which is why the backend
    # sends open grids to the plain kernel first — the test of that below fills one)
    for n in (4, 9, 16, 25):
        assert len(learn(Puzzle([0] * (n * n)), 1).solutions) == 1
    assert len(learn(Puzzle([0] * 625, "latin"), 1).solutions) == 1
    assert len(learn(Puzzle([0] * 81, "hyper"), 3).solutions) == 3


# --- 16x16: public puzzles, and many-solution ones, against the pure search ----------------------
def test_public_16x16_agree_with_the_pure_search(datasets: Path, settings: str) -> None:
    for row in read_csv(datasets / "large" / "16x16_289.csv")[:4]:
        puzzle = Puzzle.parse(row["puzzle"])
        found = learn(puzzle, 2, far())
        assert found.exhausted and found.solutions == [Puzzle.parse(row["solution"]).cells]
        cells = list(puzzle.cells)  # three givens fewer: often several solutions
        for cell in random.Random(len(cells)).sample([c for c, d in enumerate(cells) if d], 3):
            cells[cell] = 0
        more = Puzzle(cells)
        reference = pure(more, 100)
        assert len(learn(more, 3, far()).solutions) == min(3, len(reference.solutions))
        every = learn(more, 100, far())
        assert len(every.solutions) == len(reference.solutions)
        if reference.exhausted:  # fewer than 100: the very same solutions
            assert every.exhausted and set(every.solutions) == set(reference.solutions)


# --- 25x25 through the backend: unique, several solutions, none ------------------------------
def test_backend_decides_a_public_25x25_with_the_kernel(datasets: Path) -> None:
    row = vances25(datasets)
    puzzle = Puzzle.parse(row["puzzle"])
    result = get_backend("backtrack").solve(puzzle, limit=2)
    assert result.status is Status.UNIQUE
    assert result.solution == Puzzle.parse(row["solution"]).cells
    assert "restarts" in result.stats  # the big grids' kernel searched it


def test_a_hard_public_25x25_is_decided(datasets: Path) -> None:
    """gecode#20: the depth-first search without learning found no solution in 10 s; with
    nogoods it is a few thousand dead ends (sat needs about as many conflicts)."""
    row = next(r for r in read_csv(datasets / "large" / "25x25_19.csv") if r["id"] == "gecode#20")
    puzzle = Puzzle.parse(row["puzzle"])
    found = learn(puzzle, 2)
    assert found.exhausted and found.solutions == [Puzzle.parse(row["solution"]).cells]
    assert found.stats["backtracks"] > 1000  # it did learn its way there


def test_25x25_many_solutions_agree_with_sat(datasets: Path) -> None:
    """Givens removed from a public 25x25 until it has several solutions: the kernel's count up
    to a limit, and its solutions, against sat's."""
    solution = Puzzle.parse(vances25(datasets)["solution"]).cells
    sat = get_backend("sat")
    for seed in range(2):
        puzzle = Puzzle(blanked(solution, 0.62, seed))
        theirs = sat.solve(puzzle, limit=30, time_limit=120)
        assert theirs.count >= 2
        ours = learn(puzzle, 30)
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
    assert learn(wrong, None).exhausted and not learn(wrong, None).solutions


def test_kernel_off_keeps_the_pure_search(monkeypatch: pytest.MonkeyPatch, datasets: Path) -> None:
    solution = Puzzle.parse(vances25(datasets)["solution"]).cells
    easy = Puzzle(blanked(solution, 0.3, 1))  # quick for the pure search too
    off = get_backend("backtrack").solve(easy, limit=2, kernel=False)
    on = get_backend("backtrack").solve(easy, limit=2)
    assert off.status is on.status is Status.UNIQUE and off.solution == on.solution == solution
    assert "restarts" not in off.stats and "restarts" in on.stats
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "0")
    assert "restarts" not in get_backend("backtrack").solve(easy, limit=2).stats


@pytest.mark.parametrize("sparse", [0.0, glue.SPARSE_GIVENS])
def test_time_limit_stops_the_kernel(monkeypatch: pytest.MonkeyPatch, sparse: float) -> None:
    # Counting every solution of an empty 25x25 grid would take forever: the learning kernel
    # (no grid counted sparse) and the plain one (the sparse grids' probe) both stop in time.
    monkeypatch.setattr(glue, "SPARSE_GIVENS", sparse)
    result = get_backend("backtrack").solve(Puzzle([0] * 625), limit=None, time_limit=0.5)
    assert result.status is Status.MULTIPLE and not result.exact
    assert all(Puzzle([0] * 625).is_solution(s) for s in result.solutions)
    assert ("restarts" in result.stats) is (sparse == 0.0)  # (the learning kernel's counter)


def test_open_big_grids_are_searched_by_the_plain_kernel_first(datasets: Path) -> None:
    """An empty 36x36 took the learning kernel 399,000 nodes (12.9 s) for two solutions, the
    plain kernel 7,400: grids given less than SPARSE_GIVENS go to the plain kernel first. A
    public 25x25 (40-45% given) still goes to the learning kernel."""
    empty = Puzzle([0] * 36**2)
    result = get_backend("backtrack").solve(empty, limit=2)
    assert result.status is Status.MULTIPLE and len(set(result.solutions)) == 2
    assert all(empty.is_solution(s) for s in result.solutions)
    assert last_engine() == "kernel" and "restarts" not in result.stats
    assert result.stats["nodes"] < glue.SPARSE_PROBE_NODES
    public = Puzzle.parse(vances25(datasets)["puzzle"])
    assert "restarts" in get_backend("backtrack").solve(public, limit=2).stats
    assert last_engine() == "learning kernel"


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "float64"])
def test_the_unwrapped_indexing_reads_and_writes_what_numpy_indexing_does(dtype: str) -> None:
    # load/store skip numba's handling of negative indices (the kernel's speed door); on every
    # non-negative index they must be plain indexing.
    import numpy as np
    from numba import njit

    from sudoku_cp.backends.backtrack.kernel.nogoods import load, store

    @njit
    def doubled_and_read(array: np.ndarray, out: np.ndarray) -> None:
        for i in range(array.shape[0]):
            store(array, i, load(array, i) * 2)
            out[i] = load(array, i)

    array = np.arange(-60, 60, 3).astype(dtype)
    expected = array * 2
    out = np.zeros_like(array)
    doubled_and_read(array, out)
    assert (array == expected).all() and (out == expected).all()
