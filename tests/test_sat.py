"""The ``sat`` backend (PySAT): what is particular to it (the contract is in
test_backend_contract.py).

Every offered solver and encoding, time limits through conflict budgets (also with CaDiCaL),
the implied clauses, the option checks and the counters. Counts come from the brute-force
counter in ``puzzles.py``; every solution is checked by the validator.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from puzzles import brute_force_count, bundled, read_csv, solve_checked

from sudoku_cp import BackendError, Puzzle, Status, get_backend
from sudoku_cp.backends.sat import AMO_ENCODINGS, SOLVERS

pytest.importorskip("pysat")


@pytest.mark.parametrize("solver", SOLVERS)
def test_every_offered_solver_works(solver: str) -> None:
    result = solve_checked("sat", Puzzle([0] * 16), None, solver=solver)
    assert result.count == 288 and result.exact
    puzzle = Puzzle.parse(bundled("famous")[0]["puzzle"])
    assert solve_checked("sat", puzzle, 2, solver=solver).status is Status.UNIQUE


@pytest.mark.parametrize("amo", AMO_ENCODINGS)
@pytest.mark.parametrize("redundant", [True, False])
@pytest.mark.parametrize("simplify", [True, False])
def test_every_encoding_counts_right(amo: str, redundant: bool, simplify: bool) -> None:
    solver = "gluecard4" if amo in ("native", "auto") else "cadical195"
    options = {"amo": amo, "redundant": redundant, "simplify": simplify, "solver": solver}
    assert solve_checked("sat", Puzzle([0] * 16), None, **options).count == 288
    puzzle = Puzzle([0, 0, 0, 0, 0, 0, 1, 0, 0, 3] + [0] * 6, "x")
    assert solve_checked("sat", puzzle, None, **options).count == brute_force_count(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"solver": "cadical195"}], ids=["gluecard4", "cadical"])
def test_time_limit_cuts_a_long_search(options: dict, datasets: Path) -> None:
    """Gluecard in conflict slices between looks at the clock; CaDiCaL through its own budget."""
    # A 25x25 puzzle that takes the solver several seconds to prove unique.
    row = read_csv(datasets / "large" / "25x25_19.csv")[0]
    assert row["id"] == "gecode#18"
    result = solve_checked("sat", Puzzle.parse(row["puzzle"]), 2, time_limit=0.3, **options)
    assert result.status is Status.TIMEOUT and not result.exact
    assert result.count <= 1


@pytest.mark.parametrize("options", [{}, {"solver": "cadical195"}], ids=["gluecard4", "cadical"])
def test_time_limit_while_counting(options: dict) -> None:
    """Counting the empty 9x9 grid: solutions come fast, so at least two are in by the limit.
    (The limit covers encoding and loading the solver too: 0.2 s was too tight on a loaded
    machine; the grid has about 6.7e21 solutions, so no limit lets the count finish.)"""
    result = solve_checked("sat", Puzzle([0] * 81), None, time_limit=1.5, **options)
    assert result.status is Status.MULTIPLE and not result.exact and result.count >= 2


def test_pigeonhole_is_slow_without_the_implied_clauses() -> None:
    """Twelve blank cells of a row left eleven digits: a pigeonhole that resolution finds hard.

    Without the "each digit once per group" clauses the solver must refute PHP(12, 11), which it
    cannot do in the time given; with them (the default) the encoding sees it at once.
    """
    n, blank = 16, 12
    cells = [0] * (n * n)
    cells[blank:n] = range(blank + 1, n + 1)  # row 1 misses 1..12 in its first 12 cells
    for col in range(blank):  # and 12 is barred from each of those columns
        cells[(col + 1) * n + col] = blank
    puzzle = Puzzle(cells, "latin")
    cut = solve_checked("sat", puzzle, 1, time_limit=0.3, redundant=False, solver="minisat22")
    assert cut.status is Status.TIMEOUT
    assert solve_checked("sat", puzzle, 1).status is Status.NONE
    assert solve_checked("dlx", puzzle, 1).status is Status.NONE


def test_unknown_solver_lists_the_valid_names() -> None:
    with pytest.raises(BackendError) as err:
        get_backend("sat").solve(Puzzle([0] * 16), solver="nosuchsat")
    message = str(err.value)
    assert "nosuchsat" in message and "cadical195" in message and "minisat22" in message


def test_native_cardinality_needs_a_solver_that_has_it(monkeypatch) -> None:
    backend = get_backend("sat")
    monkeypatch.setattr(type(backend), "search", lambda *a: pytest.fail("searched"))
    with pytest.raises(BackendError, match="minicard"):  # refused with the options, up front
        backend.solve(Puzzle([0] * 16), amo="native", solver="glucose4")


def test_counters() -> None:
    result = solve_checked("sat", Puzzle.parse(bundled("famous")[0]["puzzle"]), 2)
    for name in ("decisions", "conflicts", "propagations", "encode_seconds", "solve_seconds"):
        assert name in result.stats
    # a hard puzzle: the solver decided and propagated; its two phases fit in the solve's time
    assert result.stats["decisions"] > 0 and result.stats["propagations"] > 0
    assert result.stats["conflicts"] >= 0
    assert 0 < result.stats["encode_seconds"] + result.stats["solve_seconds"] <= result.seconds
    assert result.stats["sat_calls"] == 2


def _all_grids(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Every grid the puzzle's groups allow (its rules beyond groups not applied)."""
    n, groups = puzzle.size, puzzle.groups()
    peers = [sorted({c for g in groups if cell in g for c in g} - {cell}) for cell in range(n * n)]
    grid, found = list(puzzle.cells), []

    def fill(cell: int) -> None:
        if cell == n * n:
            found.append(tuple(grid))
            return
        if grid[cell]:
            fill(cell + 1)
            return
        for digit in range(1, n + 1):
            if all(grid[p] != digit for p in peers[cell]):
                grid[cell] = digit
                fill(cell + 1)
                grid[cell] = 0

    fill(0)
    return found


@pytest.mark.parametrize("windows", [True, False], ids=["windows", "group and pairs only"])
def test_renban_lines_count_as_plain_enumeration_says(windows: bool, monkeypatch) -> None:
    # Renban lines of 2 to 4 cells (a column, a bent line, a row), alone and together, on the
    # 4x4 grid and on a 6x6 with givens: the solutions are those of plain enumeration filtered
    # by the plain validator, with the implied window clauses and without them.
    import random

    from sudoku_cp.backends.sat import rules as sat_rules
    from sudoku_cp.model import load_model
    from sudoku_cp.rules import Renban

    monkeypatch.setattr(sat_rules, "RENBAN_WINDOWS", windows)
    classic = load_model("classic")
    lines4 = [Renban((0, 4, 8)), Renban((1, 6, 11, 15)), Renban((13, 14)), Renban((2, 3, 7))]
    cases = [Puzzle([0] * 16, classic.with_rules(rules=[line], size=4)) for line in lines4]
    cases.append(Puzzle([0] * 16, classic.with_rules(rules=lines4[:3], size=4)))
    six = [0] * 36
    for cell, digit in ((0, 1), (7, 3), (14, 5), (21, 2), (28, 6), (35, 4), (3, 6), (32, 3)):
        six[cell] = digit
    lines6 = [Renban((1, 2, 8)), Renban((12, 18, 24, 30)), Renban((22, 23)), Renban((9, 10, 11))]
    cases.append(Puzzle(six, classic.with_rules(rules=lines6, size=6)))
    rng = random.Random(7)
    for _ in range(4):  # lines drawn at random on the 4x4 grid: walks of king moves
        cells = [rng.randrange(16)]
        while len(cells) < rng.choice((2, 3, 4)):
            r, c = divmod(cells[-1], 4)
            steps = [
                (r + dr) * 4 + c + dc
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= r + dr < 4 and 0 <= c + dc < 4 and (r + dr) * 4 + c + dc not in cells
            ]
            cells.append(rng.choice(steps))
        cases.append(Puzzle([0] * 16, classic.with_rules(rules=[Renban(tuple(cells))], size=4)))
    for puzzle in cases:
        expected = {g for g in _all_grids(puzzle) if puzzle.is_solution(g)}
        result = get_backend("sat").solve(puzzle, limit=None)
        assert result.exact and set(result.solutions) == expected, puzzle.model.rules


def test_pysat_s_own_interrupt_error_is_a_keyboard_interrupt() -> None:
    """PySAT's solvers take Ctrl-C during a search and raise ``pysolvers.error``: the sat
    backend raises it again as KeyboardInterrupt (a traceback, or in ``check -j 0`` a backend
    error recorded and the run going on, before); its other errors pass unchanged."""
    import pysolvers

    from sudoku_cp.stopping import solver_interrupts

    with pytest.raises(KeyboardInterrupt), solver_interrupts():
        raise pysolvers.error("Caught keyboard interrupt")
    with pytest.raises(pysolvers.error, match="other"), solver_interrupts():
        raise pysolvers.error("other")


def test_ctrl_c_during_a_sat_search_exits_130_in_one_line() -> None:
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp.cli", "solve", "--all", "-f", "line", "-b", "sat"]
        + ["." * 81],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    time.sleep(3)  # (past the imports: the enumeration runs until stopped)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stderr.decode() == "sudoku-cp: interrupted\n"


@pytest.mark.parametrize("solver", ["maplechrono", "maplecm"])
def test_a_solver_that_arms_an_alarm_leaves_none_behind(solver: str) -> None:
    """MapleLCMDistChronoBT arms a 2,500 s real-time timer at every solve and leaves it: the
    process then had a timer not its own, and certifying's time limit (which needs the timer
    free) ran unlimited — test_certify_limits failed after this file in one worker."""
    import signal

    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
    assert solve_checked("sat", Puzzle([0] * 16), None, solver=solver).count == 288
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
