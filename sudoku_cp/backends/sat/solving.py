"""The ``sat`` backend's solver calls: a PySAT solver loaded with an encoding, one SAT call
within a deadline, solutions enumerated. Besides the backend, the kept solver (:mod:`.kept`)
and true candidates (:mod:`sudoku_cp.true_candidates`) drive a solver with these.

Solutions are enumerated with blocking clauses over the cell variables. The time limit is
enforced by conflict budgets: the solver runs in slices of conflicts, each up to twice the last,
and the clock is read between slices. (``interrupt()`` from a timer thread is the other way PySAT
offers; CaDiCaL does not support it, and for the others starting and joining a thread cost
1-3 ms of wall time per puzzle — as much as solving a hard 9x9 puzzle.)
"""

from __future__ import annotations

import time
from typing import Any

from ...errors import BackendError
from ...stopping import no_stray_alarm, solver_interrupts
from .. import Search
from .cnf import Encoding

SOLVERS = (
    "gluecard4",
    "gluecard3",
    "glucose4",
    "glucose42",
    "glucose3",
    "cadical195",
    "cadical153",
    "cadical103",
    "cadical300",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minisat22",
    "minisatep",
    "minicard",
)
"""PySAT solvers this backend offers, by PySAT's own names.

Left out on purpose: ``lingeling`` (no limited solve, so no time limit), ``kissat404`` (aborts
the whole process when a blocking clause is added after a solve, and exposes no statistics),
``cryptosat`` and ``minisatgh`` (not built into the python-sat wheels)."""

NATIVE_CARD = ("minicard", "gluecard3", "gluecard4")
"""Solvers that accept native at-most-k constraints (the ``amo="native"`` encoding). CaDiCaL 1.9.5
and 3.0 and MinisatEP take ``native_card=True`` but then refuse ``add_atmost`` ("currently
disabled") in python-sat 1.9.dev17."""

FIRST_BUDGET = 100
"""Conflicts in the first slice of a time-limited SAT call (a few ms), to learn the rate."""


def load_solver(name: str, enc: Encoding) -> Any:
    """A PySAT solver called ``name`` holding ``enc``'s clauses and at-most-one constraints
    (close it after)."""
    from pysat.solvers import NoSuchSolverError, Solver

    try:
        solver = Solver(name=name, bootstrap_with=enc.clauses)
    except NoSuchSolverError:
        raise BackendError(
            f"backend 'sat': solver {name!r} is not built into the installed python-sat "
            f"(try one of: {', '.join(s for s in SOLVERS if s != name)})"
        ) from None
    for lits in enc.atmosts:
        solver.add_atmost(lits, 1)
    return solver


def enumerate_solutions(
    solver: Any, enc: Encoding, limit: int | None, deadline: float | None
) -> Search:
    """Solve, block the solution, solve again … until ``limit``, UNSAT or the deadline (the
    blocking clauses stay in the solver)."""
    search = Search()
    calls = 0
    while limit is None or len(search.solutions) < limit:
        if deadline is not None and time.perf_counter() >= deadline:
            search.timed_out = True
            break
        calls += 1
        answer = solve_within(solver, deadline)
        if answer is None:
            search.timed_out = True
            break
        if not answer:
            search.exhausted = True
            break
        model = solver.get_model()
        search.solutions.append(enc.decode(model))
        block = enc.blocking_clause(model)
        if not block:  # every cell given: the givens are the only solution
            search.exhausted = True
            break
        solver.add_clause(block)
    search.stats["sat_calls"] = calls
    return search


@solver_interrupts()
@no_stray_alarm()
def solve_within(
    solver: Any, deadline: float | None, assumptions: list[int] | None = None
) -> bool | None:
    """One SAT call within the deadline: True, False, or None when time ran out."""
    assumptions = assumptions or []
    if deadline is None:
        return solver.solve(assumptions=assumptions)
    # Slices of conflicts, looking at the clock between them. Each slice may double the last,
    # so a long search is cut into few slices: MiniSat-like solvers reset their restart and
    # learnt-clause schedules at every call, and fixed slices of 2000 conflicts cost MiniSat up
    # to 2.7 times the conflicts (1.4 times the time) on hard 25x25 puzzles; doubling slices
    # cost nothing measurable. A slice is also held to half the time left at the rate the last
    # one ran, so the limit is overrun by ms, not by a whole slice.
    budget = FIRST_BUDGET
    while True:
        solver.conf_budget(budget)
        started = time.perf_counter()
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
        now = time.perf_counter()
        if now >= deadline:
            return None
        per_second = budget / max(now - started, 1e-6)
        budget = max(FIRST_BUDGET, min(2 * budget, int((deadline - now) * per_second / 2)))
