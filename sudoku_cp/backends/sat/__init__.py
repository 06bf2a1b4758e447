"""The ``sat`` backend (CNF through PySAT), by layers: :mod:`.cnf` (the CNF record) at the
foot, :mod:`.rules` (clauses for rules beyond groups and cages) above it, :mod:`.encoding` (a
puzzle's CNF: groups and cages, the rules' clauses called) and :mod:`.solving` (the solver
calls), :mod:`.kept` (the kept incremental solver) on them, :mod:`.backend` (the backend class,
its options and defaults) on top.

What other modules use is named here: the backend class, whether PySAT is installed, the
encoder, the solver pieces true candidates drive (:mod:`sudoku_cp.true_candidates`) and the
kept solver the generator counts with (:mod:`sudoku_cp.generate.satcount`).
"""

from __future__ import annotations

from .backend import SATBackend, resolve_amo, solver_for
from .cnf import Encoding
from .encoding import AMO_ENCODINGS, encode
from .kept import KeptSolver, drop_kept_solvers
from .rules import OutOfTime
from .solving import NATIVE_CARD, SOLVERS, enumerate_solutions, load_solver, solve_within

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
