"""The ``sat`` backend (CNF through PySAT), by layers: :mod:`.cnf` (the CNF record) at the
foot, :mod:`.rules` (clauses for rules beyond groups and cages) above it, :mod:`.backend` (the
encoding of groups and cages, the solver calls, the kept incremental solver) on top.

What other modules use is named here: the backend class, whether PySAT is installed, the
encoder, the solver pieces true candidates drive (:mod:`sudoku_cp.true_candidates`) and the
kept solver the generator counts with (:mod:`sudoku_cp.generate.satcount`).
"""

from __future__ import annotations

from .backend import (
    AMO_ENCODINGS,
    NATIVE_CARD,
    SOLVERS,
    KeptSolver,
    SATBackend,
    drop_kept_solvers,
    encode,
    enumerate_solutions,
    load_solver,
    resolve_amo,
    solve_within,
    solver_for,
)
from .cnf import Encoding
from .rules import OutOfTime

Solver = SATBackend
"""The backend class under the name every solving method's package gives it."""


def available() -> bool:
    """Whether PySAT (``python-sat``) is installed, so this backend can run."""
    return SATBackend.available()


def warm_up() -> None:
    """Load PySAT's compiled solvers now (a few tens of milliseconds), so that no timed solve
    pays for the import; does nothing when PySAT is missing."""
    if available():
        import pysat.solvers  # noqa: F401  (the import is the warming)


__all__ = [
    "AMO_ENCODINGS",
    "NATIVE_CARD",
    "SOLVERS",
    "Encoding",
    "KeptSolver",
    "OutOfTime",
    "SATBackend",
    "Solver",
    "available",
    "drop_kept_solvers",
    "encode",
    "enumerate_solutions",
    "load_solver",
    "resolve_amo",
    "solver_for",
    "solve_within",
    "warm_up",
]
