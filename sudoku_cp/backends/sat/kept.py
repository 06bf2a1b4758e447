"""The ``sat`` backend's kept solver (``incremental=True``): one solver for many puzzles.

``check`` and ``count`` turn it on, up to 16x16 (:data:`.backend.KEPT_MAX_SIZE`), for every
model a puzzle does not bring its own regions or cages to: the solver holds the CNF of the
model's empty grid, once per process, and each puzzle's givens are assumptions; the clause
blocking a solution is guarded by an activation literal of the puzzle's own, retired after it
(why learnt clauses stay sound is in :class:`KeptSolver`). 17-clue uniqueness checks take
0.36 ms of CPU against 1.4 ms with a fresh solver, where building and loading the CNF in Python
was most of the time. A single ``solve`` keeps a fresh solver: its answer and counters then do
not depend on what the process solved before.
"""

from __future__ import annotations

import atexit
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any

from ...errors import BackendError
from ...puzzle import Puzzle
from .. import Search
from .encoding import encode
from .rules import OutOfTime
from .solving import load_solver, solve_within

KEPT_PUZZLES = 2000
"""Puzzles a kept solver serves before it is built afresh: each puzzle that needed a blocking
clause leaves a retired activation variable behind, which every later model read carries."""
KEPT_SOLVERS = 8
"""Kept solvers per thread (by model, size and settings); the oldest goes first."""
_STAT_KEYS = ("decisions", "conflicts", "propagations", "restarts")
_POSITIVE = (0).__lt__


class KeptSolver:
    """A solver holding the CNF of a model's *empty* grid (``simplify=False``: variable
    ``cell·N + digit`` says the cell holds the digit), reused for every puzzle of that model
    and size: a puzzle's givens are assumptions, and the clause blocking a solution found is
    guarded by an activation literal of that puzzle's own, retired (a unit ``¬a``) after it.

    Why the solver stays sound across puzzles, learnt clauses included: assumptions are
    decisions to a CDCL solver, never clauses, so every clause it learns is derived by
    resolution from the clauses it holds — the empty grid's CNF, true of every grid of the
    model, and guarded blocking clauses ``¬a ∨ …``. No clause holds a positive activation
    literal, so ``¬a`` is never resolved away: whatever is learnt from a blocking clause keeps
    ``¬a`` and is switched off with it. So every clause the solver ever holds is satisfied by
    any grid of the model (its auxiliary variables set to match) with every activation
    variable false — no later puzzle loses a solution — and a retired blocking clause blocks
    nothing again. (PySAT documents this
    assumption interface as the way to keep and reuse learnt clauses.)
    """

    __slots__ = ("solver", "size", "digit", "top", "puzzles", "stats", "encode_seconds", "empty")

    def __init__(
        self,
        puzzle: Puzzle,
        name: str,
        amo: str,
        redundant: bool,
        deadline: float | None,
        sums: str = "folded",
    ):
        start = time.perf_counter()
        n = puzzle.size
        empty = Puzzle.from_parsed(tuple([0] * (n * n)), n, puzzle.model, check_givens=False)
        enc = encode(
            empty, amo=amo, redundant=redundant, simplify=False, deadline=deadline, sums=sums
        )
        self.size = n
        self.digit = [0] + [(v - 1) % n + 1 for v in range(1, n**3 + 1)]  # variable -> digit
        self.top = enc.top
        self.puzzles = 0
        self.stats: dict[str, float | int] = {
            "variables": enc.top,
            "clauses": len(enc.clauses) + len(enc.atmosts),
        }
        # The empty grid has no solution under its rules: neither has any puzzle.
        self.empty = enc.contradiction
        self.solver = None if enc.contradiction else load_solver(name, enc)
        self.encode_seconds = time.perf_counter() - start

    def delete(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def search(self, cells: Sequence[int], limit: int | None, deadline: float | None) -> Search:
        """Up to ``limit`` solutions of the puzzle with these givens."""
        search = Search()
        self.puzzles += 1
        if self.empty:
            search.exhausted = True
            return search
        solver, n = self.solver, self.size
        assert solver is not None
        cube = n * n * n
        assumptions = [cell * n + d for cell, d in enumerate(cells) if d]
        before = solver.accum_stats() or {}
        guard = 0  # the activation literal, made when the first blocking clause is
        calls = 0
        try:
            while limit is None or len(search.solutions) < limit:
                if deadline is not None and time.perf_counter() >= deadline:
                    search.timed_out = True
                    break
                calls += 1
                answer = solve_within(solver, deadline, assumptions)
                if answer is None:
                    search.timed_out = True
                    break
                if not answer:
                    search.exhausted = True
                    break
                # The true cell variables, one a cell in cell order (each cell holds exactly
                # one digit, by the CNF): the grid, and the clause that blocks it.
                true = list(filter(_POSITIVE, solver.get_model()[:cube]))
                if len(true) != n * n:
                    raise BackendError(f"backend 'sat': a model with {len(true)} cells filled")
                search.solutions.append(tuple(map(self.digit.__getitem__, true)))
                block = [-v for v, given in zip(true, cells, strict=True) if not given]
                if not block:  # every cell given: the givens are the only solution
                    search.exhausted = True
                    break
                if not guard:
                    self.top += 1
                    guard = self.top
                    assumptions.append(guard)
                solver.add_clause([-guard, *block])
        finally:
            if guard:
                solver.add_clause([-guard])  # retired: its blocking clauses hold no more
        after = solver.accum_stats() or {}
        search.stats = {k: after.get(k, 0) - before.get(k, 0) for k in _STAT_KEYS if k in after}
        search.stats["sat_calls"] = calls
        return search


class _Shelf:
    """A thread's kept solvers, by (model, size, settings), in the order last used (held
    weakly by :data:`_SHELVES`, so a thread's go when it ends)."""

    __slots__ = ("solvers", "__weakref__")

    def __init__(self) -> None:
        self.solvers: dict[Any, KeptSolver] = {}


_KEPT = threading.local()
_SHELVES: weakref.WeakSet[_Shelf] = weakref.WeakSet()


def drop_kept_solvers() -> None:
    """Delete every kept solver (at exit: PySAT's own clean-up fails once the interpreter
    has begun to dismantle its modules, and says so on standard error)."""
    for shelf in list(_SHELVES):
        while shelf.solvers:
            shelf.solvers.popitem()[1].delete()


def search_kept(
    puzzle: Puzzle,
    limit: int | None,
    deadline: float | None,
    settings: tuple[str, str, bool, str],
) -> Search:
    """``search`` with the solver kept for the puzzle's model and size (built if need be)."""
    shelf: _Shelf | None = getattr(_KEPT, "shelf", None)
    if shelf is None:
        shelf = _KEPT.shelf = _Shelf()
        if not _SHELVES:
            atexit.register(drop_kept_solvers)
        _SHELVES.add(shelf)
    kept = shelf.solvers
    key = (puzzle.model, puzzle.size, *settings)
    solver = kept.pop(key, None)  # put back last: the dict's order is the order of use
    built = 0.0
    if solver is None or solver.puzzles >= KEPT_PUZZLES:
        if solver is not None:
            solver.delete()
        while len(kept) >= KEPT_SOLVERS:
            kept.pop(next(iter(kept))).delete()
        try:
            name, amo, redundant, sums = settings
            solver = KeptSolver(puzzle, name, amo, redundant, deadline, sums)
        except OutOfTime:
            return Search(timed_out=True)
        built = solver.encode_seconds
    start = time.perf_counter()
    try:
        search = solver.search(puzzle.cells, limit, deadline)
    except BaseException:
        solver.delete()  # a search cut short (Ctrl-C, an error) leaves no solver behind
        raise
    kept[key] = solver
    search.stats = {
        **solver.stats,
        "encode_seconds": built,
        "solve_seconds": time.perf_counter() - start,
        **search.stats,
    }
    return search
