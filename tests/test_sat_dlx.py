"""The ``sat`` and ``dlx`` backends: real puzzles, every model, sizes 4-25, known counts.

Every solution is checked with ``Puzzle.is_solution`` (the validator, which shares nothing with
either backend); counts come from the datasets or from a brute-force counter written here.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA

from sudoku_cp import BackendError, Puzzle, Status, get_backend, load_model
from sudoku_cp.backends.sat import AMO_ENCODINGS, SOLVERS
from sudoku_cp.model import Model, model_from_dict

BACKENDS = ("sat", "dlx")
MODEL_SIZES = [("classic", n) for n in (4, 6, 9, 12, 16)] + [
    ("x", n) for n in (4, 6, 9, 12, 16)
] + [("hyper", 9)] + [("latin", n) for n in (4, 6, 9, 12, 16)]


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def run(backend: str, puzzle: Puzzle, **kwargs):
    """Solve and check every solution returned: valid, distinct, keeping the givens."""
    result = get_backend(backend).solve(puzzle, **kwargs)
    for solution in result.solutions:
        assert puzzle.is_solution(solution), puzzle.problems_with(solution)
    assert len(set(result.solutions)) == result.count
    return result


def brute_force_count(puzzle: Puzzle) -> int:
    """Solutions of a small puzzle by plain enumeration, cell by cell (the test's own oracle)."""
    n, groups = puzzle.size, puzzle.groups()
    peers = [sorted({c for g in groups if cell in g for c in g} - {cell})
             for cell in range(n * n)]
    grid = list(puzzle.cells)

    def count(cell: int) -> int:
        if cell == n * n:
            return 1
        if grid[cell]:
            return count(cell + 1)
        total = 0
        for digit in range(1, n + 1):
            if all(grid[p] != digit for p in peers[cell]):
                grid[cell] = digit
                total += count(cell + 1)
                grid[cell] = 0
        return total

    return count(0)


def with_blanks(solution: tuple[int, ...], n: int, blanks: set[int]) -> list[int]:
    return [0 if cell in blanks else d for cell, d in enumerate(solution)]


def unique_from(solution: tuple[int, ...], n: int) -> list[int]:
    """The solution with one whole row and one whole column blanked: still exactly one solution.

    Every other row then misses one cell (forced by the row), which completes the blank column;
    the blank row's cells are then forced by their columns.
    """
    row, col = n // 2, n // 3
    blanks = {row * n + c for c in range(n)} | {r * n + col for r in range(n)}
    return with_blanks(solution, n, blanks)


def none_puzzle(n: int) -> list[int]:
    """Row 1 holds 2..n after a blank; 1 is given just below the blank: no digit fits it.

    No group repeats a given in any shipped model (row 1 has no 1; the 1 is on no diagonal and
    in no hyper window), so the puzzle is well formed and has no solution.
    """
    cells = [0] * (n * n)
    cells[1:n] = range(2, n + 1)
    cells[n] = 1
    return cells


# --- every model, sizes 4-16: multiple, unique, none ----------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("model", "n"), MODEL_SIZES, ids=[f"{m}-{n}" for m, n in MODEL_SIZES])
def test_every_model_and_size(backend: str, model: str, n: int) -> None:
    empty = Puzzle([0] * (n * n), model)
    many = run(backend, empty, limit=2)
    assert many.status is Status.MULTIPLE and many.count == 2

    unique = Puzzle(unique_from(many.solutions[0], n), model)
    one = run(backend, unique, limit=2)
    assert one.status is Status.UNIQUE and one.exact
    assert one.solutions == (many.solutions[0],)

    nothing = run(backend, Puzzle(none_puzzle(n), model), limit=2)
    assert nothing.status is Status.NONE and nothing.count == 0 and nothing.exact


@pytest.mark.parametrize("backend", BACKENDS)
def test_25x25(backend: str) -> None:
    first = run(backend, Puzzle([0] * 625), limit=1)
    assert first.status is Status.SOLVED
    unique = Puzzle(unique_from(first.solutions[0], 25))
    assert run(backend, unique, limit=2).status is Status.UNIQUE


# --- counting all solutions ----------------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
def test_empty_4x4_has_288_solutions(backend: str) -> None:
    result = run(backend, Puzzle([0] * 16), limit=None)
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, 288, True)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("model", ["classic", "x", "latin"])
def test_4x4_counts_match_brute_force(backend: str, model: str) -> None:
    for cells in ([0] * 16, [1] + [0] * 15, [0, 0, 0, 0, 0, 0, 1, 0, 0, 3] + [0] * 6):
        puzzle = Puzzle(cells, model)
        result = run(backend, puzzle, limit=None)
        assert result.exact and result.count == brute_force_count(puzzle)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tdoku_known_counts(backend: str, datasets: Path) -> None:
    rows = read_csv(datasets / "tdoku" / "tdoku_test_puzzles.csv")
    counts = {int(row["solution_count"]) for row in rows}
    assert 0 in counts and max(counts) == 847
    for row in rows:
        expected = int(row["solution_count"])
        result = run(backend, Puzzle.parse(row["puzzle"]), limit=None)
        assert result.exact and result.count == expected, row["puzzle"]
        if expected == 1:
            assert "".join(map(str, result.solution)) == row["solution"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_bundled_multiple_counts(backend: str) -> None:
    # Every other row: 25 puzzles, about 9,500 solutions, each one checked by the validator.
    for row in read_csv(DATA / "multiple.csv")[::2]:
        result = run(backend, Puzzle.parse(row["puzzle"]), limit=None)
        assert result.exact and result.count == int(row["solution_count"]), row["id"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_bundled_16x16_and_famous(backend: str) -> None:
    for name in ("16x16", "famous"):
        for row in read_csv(DATA / f"{name}.csv")[:8]:
            puzzle = Puzzle.parse(row["puzzle"])
            result = run(backend, puzzle, limit=2)
            assert result.status is Status.UNIQUE, row["id"]
            assert result.solution == Puzzle.parse(row["solution"]).cells


# --- variants: X, Windoku, X-Windoku, and jigsaw through listed cell groups --------------------
def variant_model(row: dict[str, str]) -> Model:
    variant = row["variant"]
    if variant in ("x", "hyper"):
        return load_model(variant)
    if variant == "x+hyper":
        x, hyper = load_model("x"), load_model("hyper")
        return Model(name="x-hyper", description="X and Windoku", group_kinds=x.group_kinds,
                     windows=hyper.windows, sizes=(9,))
    regions: dict[str, list[list[int]]] = {}
    for cell, region in enumerate(row["regions"]):
        regions.setdefault(region, []).append([cell // 9, cell % 9])
    kinds = ["rows", "columns"] + (["boxes"] if variant == "jigsaw+box" else [])
    return model_from_dict(
        {"groups": kinds, "cells": [{"cells": cells} for cells in regions.values()]},
        name=variant,
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_variant_puzzles(backend: str, datasets: Path) -> None:
    rows = read_csv(datasets / "variants" / "x_windoku_jigsaw_iss_5.csv")
    assert {"x", "hyper", "x+hyper"} <= {row["variant"] for row in rows}
    for row in rows:
        puzzle = Puzzle.parse(row["puzzle"], model=variant_model(row))
        result = run(backend, puzzle, limit=2)
        assert result.status is Status.UNIQUE, row["name"]
        assert "".join(map(str, result.solution)) == row["solution"], row["name"]


# --- time limits --------------------------------------------------------------------------------
@pytest.mark.parametrize(("backend", "options"), [
    ("sat", {}),                         # gluecard4, in conflict slices between looks at the clock
    ("sat", {"solver": "cadical195"}),   # the same through CaDiCaL's own budget code
    ("dlx", {}),
])
def test_time_limit_cuts_a_long_search(backend: str, options: dict, datasets: Path) -> None:
    # A 25x25 puzzle that takes either backend several seconds to prove unique.
    row = read_csv(datasets / "large" / "25x25_19.csv")[0]
    assert row["id"] == "gecode#18"
    result = run(backend, Puzzle.parse(row["puzzle"]), limit=2, time_limit=0.3, **options)
    assert result.status is Status.TIMEOUT and not result.exact
    assert result.count <= 1


@pytest.mark.parametrize(("backend", "options"), [
    ("sat", {}), ("sat", {"solver": "cadical195"}), ("dlx", {}),
])
def test_time_limit_while_counting(backend: str, options: dict) -> None:
    result = run(backend, Puzzle([0] * 81), limit=None, time_limit=0.2, **options)
    assert result.status is Status.MULTIPLE and not result.exact and result.count >= 2


def test_pigeonhole_is_slow_for_sat_without_the_implied_clauses() -> None:
    """Twelve blank cells of a row left eleven digits: a pigeonhole that resolution finds hard.

    Without the "each digit once per group" clauses the solver must refute PHP(12, 11), which it
    cannot do in the time given; with them (the default) the encoding sees it at once.
    """
    n, blank = 16, 12
    cells = [0] * (n * n)
    cells[blank:n] = range(blank + 1, n + 1)   # row 1 misses 1..12 in its first 12 cells
    for col in range(blank):                   # and 12 is barred from each of those columns
        cells[(col + 1) * n + col] = blank
    puzzle = Puzzle(cells, "latin")
    cut = run("sat", puzzle, limit=1, time_limit=0.3, redundant=False, solver="minisat22")
    assert cut.status is Status.TIMEOUT
    assert run("sat", puzzle, limit=1).status is Status.NONE
    assert run("dlx", puzzle, limit=1).status is Status.NONE


# --- options, encodings, solvers, refusals -----------------------------------------------------
@pytest.mark.parametrize("solver", SOLVERS)
def test_every_offered_solver_works(solver: str) -> None:
    result = run("sat", Puzzle([0] * 16), limit=None, solver=solver)
    assert result.count == 288 and result.exact
    puzzle = Puzzle.parse(read_csv(DATA / "famous.csv")[0]["puzzle"])
    assert run("sat", puzzle, limit=2, solver=solver).status is Status.UNIQUE


@pytest.mark.parametrize("amo", AMO_ENCODINGS)
@pytest.mark.parametrize("redundant", [True, False])
@pytest.mark.parametrize("simplify", [True, False])
def test_every_encoding_counts_right(amo: str, redundant: bool, simplify: bool) -> None:
    solver = "gluecard4" if amo in ("native", "auto") else "cadical195"
    options = {"amo": amo, "redundant": redundant, "simplify": simplify, "solver": solver}
    assert run("sat", Puzzle([0] * 16), limit=None, **options).count == 288
    puzzle = Puzzle([0, 0, 0, 0, 0, 0, 1, 0, 0, 3] + [0] * 6, "x")
    assert run("sat", puzzle, limit=None, **options).count == brute_force_count(puzzle)


def test_unknown_solver_lists_the_valid_names() -> None:
    with pytest.raises(BackendError) as err:
        get_backend("sat").solve(Puzzle([0] * 16), solver="nosuchsat")
    message = str(err.value)
    assert "nosuchsat" in message and "cadical195" in message and "minisat22" in message


def test_native_cardinality_needs_a_solver_that_has_it() -> None:
    with pytest.raises(BackendError, match="minicard"):
        get_backend("sat").solve(Puzzle([0] * 16), amo="native", solver="glucose4")


def test_dlx_takes_no_options() -> None:
    with pytest.raises(BackendError, match="no option"):
        get_backend("dlx").solve(Puzzle([0] * 16), heuristic="first")


def short_group_puzzle() -> Puzzle:
    model = model_from_dict(
        {"groups": ["rows", "columns"], "cells": [{"cells": [[0, 0], [1, 1], [2, 3]]}]},
        name="latin-plus-three",
    )
    return Puzzle([0] * 16, model)


def test_dlx_refuses_a_group_shorter_than_the_grid() -> None:
    with pytest.raises(BackendError, match="exact cover"):
        get_backend("dlx").solve(short_group_puzzle())


def test_sat_handles_a_group_shorter_than_the_grid() -> None:
    puzzle = short_group_puzzle()
    result = run("sat", puzzle, limit=None)
    assert result.exact and result.count == brute_force_count(puzzle)


def test_counters() -> None:
    sat = run("sat", Puzzle.parse(read_csv(DATA / "famous.csv")[0]["puzzle"]), limit=2)
    for name in ("decisions", "conflicts", "propagations", "encode_seconds", "solve_seconds"):
        assert name in sat.stats and sat.stats[name] >= 0
    assert sat.stats["sat_calls"] == 2
    dlx = run("dlx", Puzzle([0] * 16), limit=None)
    assert dlx.stats["nodes"] > 288 and dlx.stats["updates"] > dlx.stats["nodes"]


def test_a_full_grid_is_its_own_only_solution() -> None:
    solution = run("sat", Puzzle([0] * 81), limit=1).solution
    for backend in BACKENDS:
        result = run(backend, Puzzle(solution), limit=None)
        assert result.status is Status.UNIQUE and result.solution == solution


def test_importing_the_backends_does_not_import_pysat() -> None:
    code = ("import sys, sudoku_cp, sudoku_cp.backends.sat, sudoku_cp.backends.dlx; "
            "sys.exit('pysat' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
