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
