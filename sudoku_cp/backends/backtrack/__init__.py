"""The ``backtrack`` backend: a hand-written depth-first search in pure Python, with compiled
kernels (numba, the ``jit`` extra) for its ``fast`` strategy on models of groups.

What other modules use is named here; the modules inside may change. From the foot up (each
imports only modules listed above it):

- :mod:`.bits` — cell masks;
- :mod:`.shapes` — the propagators of sums, triples, sandwiches, quadruples and sequences;
- :mod:`.rules` — the rules beyond groups compiled to tables, and the fast strategy's step;
- :mod:`.layout` — a model's groups at one size as the searches read them (and the rule
  tables, compiled when the model has rules);
- :mod:`.checks` — the teaching strategies' check of each assignment against those rules;
- :mod:`.kernel` — the compiled kernels (:mod:`.kernel.generic`, :mod:`.kernel.classic`, the
  learning search :mod:`.kernel.learn` with :mod:`.kernel.nogoods` and
  :mod:`.kernel.analysis`) and their glue (:mod:`.kernel.glue`): when a kernel runs, its
  tables; the kept :class:`Solver` (:mod:`.kernel.solver`);
- :mod:`.search` — the four strategies in pure Python and the backend, on top.

>>> from sudoku_cp.backends.backtrack import BacktrackBackend
>>> BacktrackBackend.name
'backtrack'
"""

from .kernel.glue import (
    ENV,
    available,
    fits,
    installed,
    installed_and_on,
    last_engine,
    load_failure,
    turned_off,
)
from .kernel.solver import Solver
from .layout import WEIGHTED_FROM_SIZE
from .search import STRATEGIES, BacktrackBackend, warm_up

__all__ = [
    "ENV",
    "STRATEGIES",
    "WEIGHTED_FROM_SIZE",
    "BacktrackBackend",
    "Solver",
    "available",
    "fits",
    "installed",
    "installed_and_on",
    "last_engine",
    "load_failure",
    "turned_off",
    "warm_up",
]
