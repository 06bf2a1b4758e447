"""The ``cpsat`` and ``constraint`` backends: options, counters, limits, time limits, edge cases.

Agreement with the backtracker on every model and size is in ``test_backends.py``; this file
tests what is particular to the two constraint-programming backends.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from sudoku_cp import BackendError, Puzzle, Status, get_backend
from sudoku_cp.backends import Counter, backend_class
from sudoku_cp.backends.cpsat import SolutionSet
from sudoku_cp.backends.python_constraint import SOLVERS, compile_problem

EMPTY_4X4 = Puzzle([0] * 16)
FEW = Puzzle.parse("12..............")
FEW_COUNT = 24
"""The empty 4x4 grid's 288 solutions, by symmetry 288 / (4 * 3) with two digits fixed."""
INKALA = Puzzle.parse(
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")


def solutions(backend: str, puzzle: Puzzle, **options) -> set:
    result = get_backend(backend).solve(puzzle, limit=None, **options)
    assert result.exact
    assert all(puzzle.is_solution(s) for s in result.solutions)
    assert len(set(result.solutions)) == result.count
    return set(result.solutions)


# --- both ----------------------------------------------------------------------------------
def _fresh_python(code: str) -> str:
    """What ``code`` prints when run in a new Python process (which must succeed)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout


def test_importing_the_package_and_backends_imports_neither_library() -> None:
    code = (
        "import sys, sudoku_cp\n"
        "from sudoku_cp.backends import backend_class\n"
        "backend_class('cpsat'); backend_class('constraint')\n"
        "import sudoku_cp.backends.cpsat, sudoku_cp.backends.python_constraint\n"
        "print(sorted(m for m in ('ortools', 'constraint') if m in sys.modules))\n"
    )
    assert _fresh_python(code).strip() == "[]"


def test_the_first_solve_does_not_pay_for_the_import() -> None:
    """In a fresh process the library import (about a second for CP-SAT) is outside the clock."""
    code = (
        "from sudoku_cp import Puzzle, solve\n"
        "p = Puzzle.parse('12..............')\n"
        "for name in ('cpsat', 'constraint'):\n"
        "    r = solve(p, name, limit=None, time_limit=0.25)\n"
        "    print(name, r.status.value, r.count, r.exact)\n"
    )
    assert _fresh_python(code).split("\n")[:2] == [f"cpsat multiple {FEW_COUNT} True",
                                         f"constraint multiple {FEW_COUNT} True"]


@pytest.mark.parametrize("name", ["cpsat", "constraint"])
def test_description(name: str) -> None:
    cls = backend_class(name)
    assert cls.name == name and cls.summary
    assert cls.unavailable_reason() is None
    assert cls.version()
    assert cls.counters and all(isinstance(c, Counter) and c.description
                                for c in cls.counters.values())
    assert all(opt.help for opt in cls.options)


@pytest.mark.parametrize(
    ("name", "module"), [("cpsat", "ortools.sat.python.cp_model"), ("constraint", "constraint")]
)
def test_missing_library_disables_only_that_backend(name: str, module: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # makes "import module" fail
    reason = backend_class(name).unavailable_reason()
    assert reason and "pip install" in reason
    with pytest.raises(BackendError, match="pip install"):
        get_backend(name).solve(EMPTY_4X4)
    assert get_backend("backtrack").solve(EMPTY_4X4).status is Status.SOLVED


@pytest.mark.parametrize("name", ["cpsat", "constraint"])
def test_counters_are_reported(name: str) -> None:
    result = get_backend(name).solve(INKALA, limit=2)
    assert result.status is Status.UNIQUE
    assert set(backend_class(name).counters) == set(result.stats)
    assert all(value >= 0 for value in result.stats.values())
    assert result.stats["build_seconds"] + result.stats["search_seconds"] <= result.seconds


@pytest.mark.parametrize("name", ["cpsat", "constraint"])
def test_limit_is_honoured_exactly(name: str) -> None:
    backend = get_backend(name)
    for limit in (1, 2, 3, 23, 24, 25, None):
        result = backend.solve(FEW, limit=limit)
        expected = FEW_COUNT if limit is None else min(limit, FEW_COUNT)
        assert result.count == len(set(result.solutions)) == expected, limit
        if limit is None or limit > FEW_COUNT:
            assert result.exact, limit
        elif limit < FEW_COUNT:
            assert not result.exact, limit
        # At limit == count the search may or may not have gone on to see there is no more.
    assert backend.solve(FEW, limit=1).status is Status.SOLVED
    assert backend.solve(FEW, limit=2).status is Status.MULTIPLE


@pytest.mark.parametrize("name", ["cpsat", "constraint"])
def test_a_full_grid_is_its_own_only_solution(name: str) -> None:
    grid = get_backend("backtrack").solve(INKALA).solution
    result = get_backend(name).solve(Puzzle(grid), limit=2)
    assert (result.status, result.solution) == (Status.UNIQUE, grid)


@pytest.mark.parametrize("name", ["cpsat", "constraint"])
def test_a_blank_with_no_candidate_means_no_solution(name: str) -> None:
    # Row 1 gives 2, 3, 4 and column 1 gives 1 below the blank corner: no digit fits it.
    puzzle = Puzzle([0, 2, 3, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "latin")
    result = get_backend(name).solve(puzzle, limit=2)
    assert (result.status, result.exact) == (Status.NONE, True)


@pytest.mark.parametrize("name", ["cpsat", "constraint"])
def test_a_deadline_already_past_is_a_timeout(name: str) -> None:
    import time

    backend = get_backend(name)
    search = backend.search(INKALA, 2, time.perf_counter() - 1, backend.check_options({}))
    assert search.timed_out and not search.solutions


# --- cpsat ---------------------------------------------------------------------------------
def test_solution_set_drops_repeats() -> None:
    found = SolutionSet(limit=3)
    assert [found.add(g) for g in [(1,), (1,), (2,), (1,), (3,)]] == [False, False, False, False,
                                                                       True]
    assert found.solutions == [(1,), (2,), (3,)] and found.duplicates == 2
    assert found.add((4,)) and found.solutions == [(1,), (2,), (3,)]  # full: nothing more kept


def test_cpsat_repeated_solutions_never_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """If CP-SAT reported every solution twice, the answer would still be right."""
    add = SolutionSet.add

    def twice(self: SolutionSet, grid: tuple) -> bool:
        add(self, grid)
        return add(self, grid)

    monkeypatch.setattr(SolutionSet, "add", twice)
    backend = get_backend("cpsat")
    everything = backend.solve(FEW, limit=None)
    assert everything.count == FEW_COUNT and everything.exact
    assert everything.stats["duplicates"] == FEW_COUNT
    two = backend.solve(FEW, limit=2)
    assert two.count == 2 and len(set(two.solutions)) == 2
    unique = backend.solve(INKALA, limit=2)
    assert unique.status is Status.UNIQUE


@pytest.mark.parametrize("presolve", ["auto", "on", "off"])
def test_cpsat_enumeration_is_complete_with_presolve(presolve: str) -> None:
    assert len(solutions("cpsat", EMPTY_4X4, presolve=presolve)) == 288


@pytest.mark.parametrize("workers", [2, 4])
def test_cpsat_several_workers_count_right(workers: int) -> None:
    """CP-SAT's own enumeration misses solutions with several workers; ours does not."""
    assert solutions("cpsat", FEW, workers=workers) == solutions("backtrack", FEW)
    result = get_backend("cpsat").solve(INKALA, limit=2, workers=workers)
    assert result.status is Status.UNIQUE and result.stats["solves"] == 2


def test_cpsat_options_are_checked() -> None:
    backend = get_backend("cpsat")
    with pytest.raises(BackendError, match="at least 1"):
        backend.solve(FEW, workers=0)
    with pytest.raises(BackendError, match="choose from"):
        backend.solve(FEW, presolve="maybe")
    with pytest.raises(BackendError, match="no option"):
        backend.solve(FEW, solver="BacktrackingSolver")
    with pytest.raises(BackendError, match="at most"):
        backend.solve(FEW, seed=2**40)
    assert backend.solve(FEW, limit=None, workers="1", seed="7").count == FEW_COUNT


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_cpsat_seed_changes_nothing_but_the_path(seed: int) -> None:
    assert len(solutions("cpsat", FEW, seed=seed)) == FEW_COUNT
    assert get_backend("cpsat").solve(INKALA, limit=2, seed=seed).status is Status.UNIQUE


def test_cpsat_one_worker_is_deterministic() -> None:
    backend = get_backend("cpsat")
    runs = [backend.solve(FEW, limit=5) for _ in range(3)]
    assert len({r.solutions for r in runs}) == 1
    assert len({(r.stats["branches"], r.stats["conflicts"]) for r in runs}) == 1


# --- constraint ----------------------------------------------------------------------------
@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("givens", ["pruned", "fixed"])
@pytest.mark.parametrize("order", ["candidates", "reading"])
@pytest.mark.parametrize("balance", [True, False])
def test_constraint_every_choice_gives_the_same_solutions(solver: str, givens: str, order: str,
                                                          balance: bool) -> None:
    truth = solutions("backtrack", FEW)
    assert solutions("constraint", FEW, solver=solver, givens=givens, order=order,
                     balance=balance) == truth
    x = Puzzle.parse("1...............", "x")
    assert solutions("constraint", x, solver=solver, givens=givens, order=order,
                     balance=balance) == solutions("backtrack", x)


def test_constraint_options_are_checked() -> None:
    backend = get_backend("constraint")
    with pytest.raises(BackendError, match="choose from"):
        backend.solve(FEW, solver="MinConflictsSolver")
    with pytest.raises(BackendError, match="choose from"):
        backend.solve(FEW, givens="ignored")
    with pytest.raises(BackendError, match="no option"):
        backend.solve(FEW, workers=2)


def test_constraint_compiles_givens_both_ways() -> None:
    puzzle = Puzzle.parse("1..." "..2." "...." "....")
    domains, groups = compile_problem(puzzle, "pruned", "reading")
    assert 0 not in domains and 6 not in domains and len(domains) == 14
    assert domains[1] == [2, 3, 4]  # row 1 and box 1 hold the 1
    assert domains[4] == [3, 4]  # 1 in its column and box, 2 in its row
    assert all(0 not in g and 6 not in g for g in groups)
    domains, groups = compile_problem(puzzle, "fixed", "reading")
    assert len(domains) == 16 and domains[0] == [1] and domains[1] == [1, 2, 3, 4]
    assert groups == [list(g) for g in puzzle.groups()]


def test_constraint_candidates_order_puts_fewest_first() -> None:
    domains, _ = compile_problem(INKALA, "pruned", "candidates")
    sizes = [len(d) for d in domains.values()]
    assert sizes == sorted(sizes)


def test_constraint_time_limit_interrupts_the_compiled_search() -> None:
    """A timer signal cannot stop the library's loop; the clock constraint's exception does."""
    result = get_backend("constraint").solve(Puzzle([0] * 81), limit=None, time_limit=0.3)
    assert not result.exact and result.count >= 2 and result.status is Status.MULTIPLE
    assert result.stats["assignments"] > 0
    assert result.seconds < 30  # a hang guard, not a timing
