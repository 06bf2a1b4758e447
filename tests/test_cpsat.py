"""The ``cpsat`` backend: what is particular to it (the contract is in test_backend_contract.py).

Its counters, repeated solutions, presolve, several workers, its options and seeds.
"""

from __future__ import annotations

import pytest
from puzzles import FEW, FEW_COUNT, INKALA, all_solutions

from sudoku_cp import BackendError, Puzzle, Status, get_backend

pytest.importorskip("ortools")

from sudoku_cp.backends.cpsat import SolutionSet  # noqa: E402  (after the skip)

EMPTY_4X4 = Puzzle([0] * 16)


def test_solution_set_drops_repeats() -> None:
    found = SolutionSet(limit=3)
    assert [found.add(g) for g in [(1,), (1,), (2,), (1,), (3,)]] == [
        False,
        False,
        False,
        False,
        True,
    ]
    assert found.solutions == [(1,), (2,), (3,)] and found.duplicates == 2
    assert found.add((4,)) and found.solutions == [(1,), (2,), (3,)]  # full: nothing more kept


def test_repeated_solutions_never_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """If CP-SAT reported every solution twice, the answer would still be right."""
    add = SolutionSet.add

    def twice(self: SolutionSet, grid: tuple) -> bool:
        add(self, grid)
        return add(self, grid)

    monkeypatch.setattr(SolutionSet, "add", twice)
    backend = get_backend("cpsat")
    few = Puzzle.parse(FEW)
    everything = backend.solve(few, limit=None)
    assert everything.count == FEW_COUNT and everything.exact
    assert everything.stats["duplicates"] == FEW_COUNT
    two = backend.solve(few, limit=2)
    assert two.count == 2 and len(set(two.solutions)) == 2
    unique = backend.solve(Puzzle.parse(INKALA), limit=2)
    assert unique.status is Status.UNIQUE


@pytest.mark.parametrize("presolve", ["auto", "on", "off"])
def test_enumeration_is_complete_with_presolve(presolve: str) -> None:
    assert len(all_solutions("cpsat", EMPTY_4X4, presolve=presolve)) == 288


@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 4])
def test_several_workers_count_right(workers: int) -> None:
    """CP-SAT's own enumeration misses solutions with several workers; ours does not."""
    few = Puzzle.parse(FEW)
    assert all_solutions("cpsat", few, workers=workers) == all_solutions("backtrack", few)
    result = get_backend("cpsat").solve(Puzzle.parse(INKALA), limit=2, workers=workers)
    assert result.status is Status.UNIQUE and result.stats["solves"] == 2


def test_options_are_checked() -> None:
    backend = get_backend("cpsat")
    few = Puzzle.parse(FEW)
    with pytest.raises(BackendError, match="at least 1"):
        backend.solve(few, workers=0)
    with pytest.raises(BackendError, match="choose from"):
        backend.solve(few, presolve="maybe")
    with pytest.raises(BackendError, match="no option"):
        backend.solve(few, solver="BacktrackingSolver")
    with pytest.raises(BackendError, match="must be at most 2147483647, not 1099511627776"):
        backend.solve(few, seed=2**40)  # CP-SAT's random_seed is a 32-bit integer
    assert backend.solve(few, limit=None, workers="1", seed="7").count == FEW_COUNT


def test_a_seed_too_big_is_refused_before_the_clock_starts(monkeypatch) -> None:
    backend = get_backend("cpsat")
    monkeypatch.setattr(type(backend), "search", lambda *a: pytest.fail("searched"))
    with pytest.raises(BackendError, match="at most"):
        backend.solve(Puzzle.parse(FEW), seed=2**31)


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_seed_changes_nothing_but_the_path(seed: int) -> None:
    assert len(all_solutions("cpsat", Puzzle.parse(FEW), seed=seed)) == FEW_COUNT
    result = get_backend("cpsat").solve(Puzzle.parse(INKALA), limit=2, seed=seed)
    assert result.status is Status.UNIQUE


def test_one_worker_is_deterministic() -> None:
    backend = get_backend("cpsat")
    runs = [backend.solve(Puzzle.parse(FEW), limit=5) for _ in range(3)]
    assert len({r.solutions for r in runs}) == 1
    assert len({(r.stats["branches"], r.stats["conflicts"]) for r in runs}) == 1


# CP-SAT's own SIGINT handling ended a search as a limit does ("N solutions before the time
# limit", exit 0) and left SIGINT at the system default (a later Ctrl-C killed the process, and
# `check -j 0` lost its clean stop): the backend turns it off and stops the search itself.
_INTERRUPTED_RUN = """
import os, signal, sys, threading
from sudoku_cp import Puzzle, get_backend
backend = get_backend("cpsat")
backend.solve(Puzzle([0] * 16), limit=None)  # (imports done: the signal lands in the search)
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    result = backend.solve(Puzzle([0] * 256), limit=None, time_limit=TIME_LIMIT)
except KeyboardInterrupt:
    print("interrupted")
    sys.exit(0)
print("returned", result.status.value, result.count, result.exact)
"""


@pytest.mark.slow
@pytest.mark.parametrize("time_limit", ["None", "60.0"])
def test_ctrl_c_in_a_search_is_an_interrupt_not_a_timeout(time_limit: str) -> None:
    import subprocess
    import sys

    script = _INTERRUPTED_RUN.replace("TIME_LIMIT", time_limit)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "interrupted"


def test_a_search_stopped_by_its_time_limit_is_still_a_timeout() -> None:
    result = get_backend("cpsat").solve(Puzzle([0] * 256), limit=None, time_limit=0.5)
    assert not result.exact and result.status in (Status.TIMEOUT, Status.MULTIPLE)


_AFTER_A_SOLVE = """
import os, signal, time
from sudoku_cp import Puzzle, get_backend
get_backend("cpsat").solve(Puzzle([0] * 16), limit=None)
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(1)
except KeyboardInterrupt:
    print("interrupted")
"""


@pytest.mark.slow
def test_ctrl_c_after_a_search_is_still_pythons() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _AFTER_A_SOLVE], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, (done.returncode, done.stderr)  # (it was killed by SIGINT)
    assert done.stdout.strip() == "interrupted"
