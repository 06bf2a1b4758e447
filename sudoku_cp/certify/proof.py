"""Proofs: CaDiCaL (through PySAT) writes a DRAT refutation, dratify checks it.

The solver is trusted for nothing: a proof counts only once the checker, which shares no code
with it, has replayed it against the formula; and a claimed solution counts only once plain
code here has found every clause true under it.
"""

from __future__ import annotations

import contextlib
import math
import re
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from ..errors import SudokuError
from ..stopping import solver_interrupts
from .cnf import Clause, Formula

INSTALL = "pip install 'sudoku-cp[certify]'"
SOLVER = "cadical153"
"""PySAT's CaDiCaL 1.5.3: writes DRAT proofs (MiniSat cannot)."""
FIXED_FLUSH = (1, 9, 16)
"""python-sat 1.9.dev16 flushes CaDiCaL's proof file before ``get_proof()``; older versions
hand over a proof whose end (often the empty clause) is still in a C buffer (dratify's README,
pysathq/pysat#233)."""


MAX_CONFLICTS = 50_000
"""The solver's conflict budget for one refutation: a 17-clue 9x9 needs a few hundred, and a
proof of more would take the pure-Python checker minutes (a hard 25x25 took CaDiCaL 65 s and a
1.2-million-line proof). Beyond it the verdict is not certified, saying so."""


SLICE = 1_000
"""Conflicts of the solver's first slice; each next slice is twice the last. The clock is read
between slices (CaDiCaL cannot be interrupted from another thread), so a time limit on
certifying stops the solver within one slice."""


class Unproved(SudokuError):
    """The solver gave up within its budget: no proof, no certificate."""


class CertifyTimeout(Unproved):
    """Certifying one verdict (proof and check) ran past its time limit."""


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`CertifyTimeout` in the block once ``seconds`` have passed.

    The pure-Python checker has no time limit of its own, so a SIGALRM timer stops it between
    two bytecodes; the solver's C code is stopped by :func:`refute`'s slices instead. Only in
    the main thread (where Python runs signal handlers), and only when no other timer is set;
    elsewhere the block runs unlimited (a batch worker and ``--jobs 0`` both are main threads).
    """
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL)[0] == 0
    )
    if not usable:
        yield
        return
    assert seconds is not None

    armed = [True]  # the handler raises once; the clean-up below cannot be cut short twice

    def expire(signum: int, frame: Any) -> None:
        if armed[0]:
            armed[0] = False
            raise CertifyTimeout(f"timeout: certifying took over {seconds:g} s")

    previous = signal.getsignal(signal.SIGALRM) or signal.SIG_DFL  # (None: set outside Python)
    try:
        signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            armed[0] = False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class CertifyUnavailable(SudokuError):
    """The certify extra (dratify) is not installed."""


def checker() -> Any:
    """The dratify module, or CertifyUnavailable saying how to install it."""
    try:
        import dratify
    except ImportError:
        raise CertifyUnavailable(
            f"certificates need the proof checker dratify: {INSTALL}"
        ) from None
    return dratify


def pysat_version(text: str) -> tuple[int, int, int]:
    """``1.9.dev22`` → (1, 9, 22); a release (``1.9``) counts as after every dev version.

    >>> pysat_version("1.9.dev15"), pysat_version("1.8.dev0"), pysat_version("1.9")
    ((1, 9, 15), (1, 8, 0), (1, 9, 1000000))
    """
    found = re.match(r"(\d+)\.(\d+)(?:\.dev(\d+))?", text)
    if found is None:
        return (0, 0, 0)
    major, minor, dev = found.groups()
    return (int(major), int(minor), int(dev) if dev is not None else 1_000_000)


def needs_flush() -> bool:
    """Whether this python-sat hands over CaDiCaL proofs unflushed (before 1.9.dev16)."""
    import pysat

    return pysat_version(getattr(pysat, "__version__", "0")) < FIXED_FLUSH


def _flush_c_streams() -> None:
    import ctypes
    import sys

    if sys.platform == "win32":  # pragma: no cover
        ctypes.cdll.ucrtbase._flushall()
    else:
        ctypes.CDLL(None).fflush(None)


def refute(
    formula: Formula,
    extra: Sequence[Clause] = (),
    solutions: Sequence[Sequence[int]] = (),
    deadline: float | None = None,
) -> tuple[str | None, str | None]:
    """``(problem, proof)``: first, why one of ``solutions`` does not satisfy ``formula`` (see
    :func:`unsatisfied`); then a DRAT proof (text) that ``formula`` plus ``extra`` is
    unsatisfiable, or None when the solver finds it satisfiable. One solver does both.
    ``deadline`` (``time.monotonic()``) raises :class:`CertifyTimeout` between slices."""
    from pysat.solvers import Solver

    with Solver(
        name=SOLVER, bootstrap_with=[list(c) for c in formula.clauses], with_proof=True
    ) as solver:
        for solution in solutions:
            problem = _model_problem(solver, formula, solution)
            if problem:
                return problem, None
        for clause in extra:
            solver.add_clause(list(clause))
        answer = _solve_in_slices(solver, deadline)
        if answer:
            return None, None
        if needs_flush():
            _flush_c_streams()
        proof = solver.get_proof()
    return None, "\n".join(proof) + "\n"


@solver_interrupts()
def _solve_in_slices(solver: Any, deadline: float | None) -> bool:
    """The solver's answer within :data:`MAX_CONFLICTS` conflicts in all, asked in slices."""
    spent, budget = 0, SLICE
    while True:
        solver.conf_budget(min(budget, MAX_CONFLICTS - spent))
        answer = solver.solve_limited()
        if answer is not None:
            return bool(answer)
        spent = int(solver.accum_stats().get("conflicts", MAX_CONFLICTS))
        if spent >= MAX_CONFLICTS:
            raise Unproved(
                f"no refutation within the solver's budget of {MAX_CONFLICTS:,} conflicts"
            )
        if deadline is not None and time.monotonic() >= deadline:
            raise CertifyTimeout("timeout: the solver found no refutation in time")
        budget *= 2


_BASES: dict[int, tuple[tuple[Clause, ...], Any]] = {}


def _checker_formula(formula: Formula, extra: Sequence[Clause]) -> Any:
    """``formula`` plus ``extra`` as dratify's CNF; the model's part made once per process."""
    dratify = checker()
    known = _BASES.get(id(formula.base))
    if known is None or known[0] is not formula.base:
        base = dratify.CNF()
        for clause in formula.base:
            base.add_dimacs(clause)
        if len(_BASES) >= 32:
            _BASES.clear()
        known = _BASES[id(formula.base)] = (formula.base, base)
    cnf = known[1].copy()
    cnf.nvars = max(cnf.nvars, formula.variables)
    for clause in (*formula.units, *extra):
        cnf.add_dimacs(clause)
    return cnf


def check(formula: Formula, proof: str, extra: Sequence[Clause] = ()) -> str | None:
    """Why ``proof`` does not refute ``formula`` plus ``extra``, or None when dratify verifies
    it (every step checked, the empty clause reached)."""
    dratify = checker()
    try:
        result = dratify.check_proof(_checker_formula(formula, extra), proof)
    except ValueError as err:
        return f"the proof cannot be read: {err}"
    if not result.ok:
        return f"the proof is rejected: {result.reason}"
    return None


def unsatisfied(formula: Formula, solution: Sequence[int], size: int) -> str | None:
    """Why ``solution`` does not satisfy ``formula`` (None when it does): the solver completes
    the auxiliary variables under the solution's cell literals, and every clause is then
    checked here, in plain code, under that assignment."""
    from pysat.solvers import Solver

    with Solver(name=SOLVER, bootstrap_with=[list(c) for c in formula.clauses]) as solver:
        return _model_problem(solver, formula, solution)


def _model_problem(solver: Any, formula: Formula, solution: Sequence[int]) -> str | None:
    from .cnf import var

    n = math.isqrt(len(solution))
    cells = [var(cell, d, n) for cell, d in enumerate(solution)]
    if not solver.solve(assumptions=cells):
        return "no assignment extends the solution to satisfy the CNF"
    model = solver.get_model() or []
    true = {lit for lit in model if lit > n**3}  # the auxiliary variables the solver chose
    true.update(cells)  # the cell variables: exactly the solution's, whatever the solver said
    for number, clause in enumerate(formula.clauses, start=1):
        if not any((lit in true) if lit > 0 else (-lit not in true) for lit in clause):
            return f"the solution falsifies clause {number} of the CNF"
    return None
