"""Counting solutions up to two: the inner loop of remove-while-unique.

Models of groups only (classic, X, hyper, jigsaw …, up to 16x16) are counted by the
backtracker's compiled kernel when numba is installed (``pip install 'sudoku-cp[jit]'``),
digits in and count out with no Puzzle built; everything else (cages, or no numba) by the
``backtrack`` backend's pure-Python search. Above 16x16 (25x25 …) only the kernel counts,
each count within :data:`LARGE_NODES` nodes. Either way the answer is only the generator's
working guess: every emitted puzzle is judged again by two paradigms in the harness.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..errors import SudokuError
from ..model import Model
from ..puzzle import Grid, Puzzle

UNIQUE_NODES = 2_000_000
"""The node budget of one uniqueness count above 9x9 (the compiled kernel's; see
:meth:`Counter.unique`)."""
LARGE_FROM = 17
"""Sizes from here on (25x25) are counted by the compiled kernel alone, with a small budget."""
LARGE_NODES = 500
"""The node budget of every count at :data:`LARGE_FROM` and above; over it a uniqueness count
answers False (the carve keeps the givens it tried). Near the end of a 25x25 carve (about
300 givens of 625) many counts are hard both ways: kernel counts ran 2-30 s at a 2,000,000
budget and SAT's 0.5-13 s, and a carve at a 2,000,000 budget had not finished in 300 s. At 500
nodes a carve takes about 8 s (one process) and keeps 269-270 givens; at 20,000, 60 s for
273-277 (two grids each, ``python -m tools.perf.generate_speed``'s 25x25 kind)."""
PURE_SECONDS = 60.0
"""A safety stop for :meth:`Counter.first` in pure Python."""


class NeedsKernel(SudokuError):
    """Counting above 16x16 without the compiled kernel installed."""


class OutOfTime(SudokuError):
    """A count was asked after, or ran past, the deadline set by :func:`deadline`."""


_deadline: float | None = None
"""The ``time.perf_counter()`` value by which counts must stop (None: no deadline)."""


@contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Counts inside stop by ``at`` (a ``time.perf_counter()`` value), raising
    :class:`OutOfTime`: one place for ``--max-seconds``, whichever counter an attempt makes
    (a 16x16 killer layout's pure-Python counts ran for minutes, past any check between
    attempts). The answers of counts that finish do not depend on it, so the puzzles made
    stay the same on every machine; only whether a slow one is made at all does."""
    global _deadline
    kept, _deadline = _deadline, at
    try:
        yield
    finally:
        _deadline = kept


def time_left() -> float | None:
    """Seconds before the deadline (None: no deadline); raises :class:`OutOfTime` past it."""
    if _deadline is None:
        return None
    left = _deadline - time.perf_counter()
    if left <= 0:
        raise OutOfTime("the deadline passed")
    return left


class Counter:
    """``count(cells)``: how many solutions (0, 1 or 2 meaning "two or more") the givens
    ``cells`` have under ``model`` at ``size``, and the solutions found."""

    def __init__(self, model: Model, size: int, *, kernel: bool = True) -> None:
        self.model = model
        self.size = size
        self.calls = 0
        self._solver: Any = None
        self.budget = LARGE_NODES if size >= LARGE_FROM else 0
        if self.budget:
            # The pure search branches differently from this size on (it learns from dead
            # ends), so its budgeted answers would differ: the kernel or nothing.
            from ..backends import backtrack as bk

            if not (bk.available() and bk.fits(model, size)):
                how = (
                    f"{bk.ENV}=0 turned it off"
                    if bk.turned_off() and bk.installed()
                    else "pip install 'sudoku-cp[jit]'"
                )
                raise NeedsKernel(
                    f"generating {size}x{size} puzzles needs the compiled search: {how}"
                )
            self._solver = bk.Solver(model, size, max_limit=2)
        elif kernel:
            from ..backends import backtrack as bk

            if bk.available() and size < _weighted_from() and bk.fits(model, size):
                self._solver = bk.Solver(model, size, max_limit=2)
        if self._solver is None:
            from ..backends import get_backend

            self._backend = get_backend("backtrack")

    @property
    def engine(self) -> str:
        """``kernel`` or ``backtrack`` (pure Python): which search counts."""
        return "kernel" if self._solver is not None else "backtrack"

    def count(self, cells: Sequence[int]) -> tuple[int, list[Grid]]:
        self.calls += 1
        left = time_left()
        if self.budget:
            # Over the budget: 0, proof of nothing. Only the first solution comes out, so a
            # minimality proof (never asked above 16x16: options refuse it) would not pass.
            counts, first = self._many(cells, 2, self.budget)
            found = max(int(counts[0]), 0)
            return found, [tuple(first[0].tolist())] if found else []
        if self._solver is not None:
            found, rows = self._solver.solve(bytes(cells), 2)
            return found, [tuple(row) for row in rows.tolist()]
        puzzle = Puzzle.from_parsed(tuple(cells), self.size, self.model, check_givens=False)
        result = self._backend.solve(puzzle, limit=2, time_limit=_capped(left))
        if not result.exact and len(result.solutions) < 2:
            raise OutOfTime("a count ran past the deadline")
        return len(result.solutions), [tuple(s) for s in result.solutions]

    def first(self, cells: Sequence[int], nodes: int) -> Grid | None:
        """The search's first solution of ``cells``, or None when it has none or needs more
        than ``nodes`` nodes. A node budget, not a time limit, so the answer is the same on
        every machine (the kernel and the pure search count the same nodes); the pure search
        also stops after :data:`PURE_SECONDS`, far above what the budget takes."""
        self.calls += 1
        left = time_left()
        if self._solver is not None:
            counts, first = self._many(cells, 1, nodes)
            return tuple(first[0].tolist()) if counts[0] == 1 else None
        puzzle = Puzzle.from_parsed(tuple(cells), self.size, self.model, check_givens=False)
        seconds = PURE_SECONDS if left is None else min(PURE_SECONDS, left)
        result = self._backend.solve(puzzle, limit=1, time_limit=seconds)
        if left is not None and left < PURE_SECONDS and not result.solutions and not result.exact:
            raise OutOfTime("a search ran past the deadline")
        if not result.solutions or result.stats.get("nodes", 0) >= nodes:
            return None
        return tuple(result.solutions[0])

    def unique(self, cells: Sequence[int]) -> bool:
        """True when ``cells`` have exactly one solution. Above 9x9 a count that needs more
        than :data:`UNIQUE_NODES` nodes answers False (the carve then keeps the givens it
        tried to blank: the puzzle stays proven unique, only fuller): one 16x16 count ran
        for minutes without it. Nodes, not seconds, so every machine makes the same puzzle."""
        if self._solver is not None:  # the count alone: no solutions copied out
            self.calls += 1
            time_left()
            if self.size <= 9:
                return bool(self._solver.solve(bytes(cells), 2)[0] == 1)
            counts, _ = self._many(cells, 2, self.budget or UNIQUE_NODES)
            return bool(counts[0] == 1)
        return self.count(cells)[0] == 1

    def _many(self, cells: Sequence[int], limit: int, nodes: int) -> tuple[Any, Any]:
        """The kernel's count (-1: over ``nodes``) and first solution, for one grid."""
        import numpy as np

        grid = np.frombuffer(bytes(cells), dtype=np.uint8).reshape(1, -1)
        return self._solver.count_many(grid, limit=limit, node_limit=nodes)


def _capped(left: float | None) -> float | None:
    from ..limits import MAX_TIME_LIMIT

    return None if left is None else min(left, MAX_TIME_LIMIT)


def _weighted_from() -> int:
    from ..backends.backtrack import WEIGHTED_FROM_SIZE

    return WEIGHTED_FROM_SIZE
