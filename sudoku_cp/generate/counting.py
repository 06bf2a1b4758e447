"""Counting solutions up to two: the inner loop of remove-while-unique.

Models of groups only (classic, X, hyper, jigsaw …, up to 16x16) are counted by the
backtracker's compiled kernel when numba is installed (``pip install 'sudoku-cp[jit]'``),
digits in and count out with no Puzzle built; everything else (cages, or no numba) by the
``backtrack`` backend's pure-Python search. Either way the answer is only the generator's
working guess: every emitted puzzle is judged again by two paradigms in the harness.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model import Model
from ..puzzle import Grid, Puzzle


class Counter:
    """``count(cells)``: how many solutions (0, 1 or 2 meaning "two or more") the givens
    ``cells`` have under ``model`` at ``size``, and the solutions found."""

    def __init__(self, model: Model, size: int, *, kernel: bool = True) -> None:
        self.model = model
        self.size = size
        self.calls = 0
        self._solver: Any = None
        if kernel:
            from ..backends import backtrack_kernel as bk

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
        if self._solver is not None:
            found, rows = self._solver.solve(bytes(cells), 2)
            return found, [tuple(row) for row in rows.tolist()]
        puzzle = Puzzle.from_parsed(tuple(cells), self.size, self.model, check_givens=False)
        result = self._backend.solve(puzzle, limit=2)
        return len(result.solutions), [tuple(s) for s in result.solutions]

    def unique(self, cells: Sequence[int]) -> bool:
        return self.count(cells)[0] == 1


def _weighted_from() -> int:
    from ..backends.backtrack import WEIGHTED_FROM_SIZE

    return WEIGHTED_FROM_SIZE
