"""The kept :class:`Solver`: the kernel at its own entry point, with its tables and buffers
made once (the generator's counting and the benchmarks call it directly)."""

from __future__ import annotations

from typing import Any

from ....model import Model
from .glue import FIRST_FRAMES, MAX_SIZE, Engine, fits, load_classic_kernel, load_kernel


class Solver:
    """The kernel at its own entry point, as tdoku's solver is called: digits in, the count (up
    to a limit) and the solutions out, with the tables and buffers made once.

    ``same_search`` (the default) runs the pure search's algorithm, compiled: the same
    solutions in the same order, the same nodes (the generator needs that to make the same
    puzzles with or without numba). ``same_search=False`` takes the fastest kernel for the
    model: classic 9x9 on bitboards (the same counts and solutions, found in another order).

    >>> solver = Solver(same_search=False)  # doctest: +SKIP
    >>> count, solutions = solver.solve(bytes(81), 2)  # doctest: +SKIP
    >>> count  # doctest: +SKIP
    2
    """

    def __init__(
        self,
        model: Model | str = "classic",
        size: int = 9,
        max_limit: int = 2,
        *,
        same_search: bool = True,
    ) -> None:
        import numpy as np

        from ....model import load_model

        kernel = load_kernel()
        if kernel is None:
            raise RuntimeError("the compiled kernel needs numba: pip install 'sudoku-cp[jit]'")
        model = load_model(model) if isinstance(model, str) else model
        if not fits(model, size):
            raise ValueError(f"the kernel takes models of groups only, sizes up to {MAX_SIZE}")
        self._np = np
        self._kernel = kernel
        self._engine = engine = Engine(kernel, model, size, same_search)
        cells = size * size
        self.cells = cells
        self._sols = np.empty((max_limit, cells), dtype=np.uint8)
        self._words = None
        if engine.classic:  # one buffer, four arguments: half of numba's dispatch a call
            self._one = load_classic_kernel().run_buffer
            self._words, self._ctrl = load_classic_kernel().buffer(engine.packed)
        else:
            depth = min(cells + 1, FIRST_FRAMES)  # doubled when a search goes deeper
            self._frames = np.empty((depth, engine.width), dtype=np.uint64)
            self._frame_cell = np.empty(depth, dtype=np.int64)
            self._frame_left = np.empty(depth, dtype=np.uint64)
            self._ctrl = np.zeros(kernel.CTRL_SIZE, dtype=np.int64)
            self._ctrl[kernel.BUDGET] = 1 << 62
            self._run = engine.run
            self._fixed = (engine.packed, self._frames, self._frame_cell, self._frame_left)
            self._scratch = (np.empty(engine.width, dtype=np.uint64), self._sols, self._ctrl)
        self._max_limit = max_limit
        self._found_at = kernel.FOUND
        self._found = [self._sols[:n] for n in range(max_limit + 1)]
        """The solutions buffer's first n rows, per n (made once: a slice a call costs)."""

    @property
    def classic(self) -> bool:
        """Whether this solver runs the classic 9x9 bitboard kernel."""
        return self._engine.classic

    @property
    def nodes(self) -> int:
        """The nodes (branches tried) of the last :meth:`solve`."""
        return int(self._ctrl[self._kernel.NODES])

    def solve(self, digits: Any, limit: int = 2) -> tuple[int, Any]:
        """The count of solutions up to ``limit`` (at most the solver's ``max_limit``) and the
        solutions, a row of N² digits each (a numpy array). ``digits``: N² givens, 0 blank, as
        a ``uint8`` numpy array or bytes."""
        if not 1 <= limit <= self._max_limit:
            raise ValueError(f"limit must be from 1 to {self._max_limit}")
        if isinstance(digits, bytes):
            digits = self._np.frombuffer(digits, dtype=self._np.uint8)
        if len(digits) != self.cells:  # the kernels read N² digits, unchecked
            raise ValueError(f"{len(digits)} digits for {self.cells} cells")
        if self._words is not None:
            self._one(digits, self._sols, self._words, limit)
            found = self._ctrl.item(self._found_at)
            return found, self._found[found]
        ctrl = self._ctrl
        ctrl[self._kernel.STARTED] = 0  # the kernel then clears its counters
        ctrl[self._kernel.LIMIT_AT] = limit
        while self._run(digits, *self._fixed, *self._scratch) == self._kernel.STACK_FULL:
            np = self._np
            self._frames = np.concatenate([self._frames, np.empty_like(self._frames)])
            self._frame_cell = np.concatenate([self._frame_cell, np.empty_like(self._frame_cell)])
            self._frame_left = np.concatenate([self._frame_left, np.empty_like(self._frame_left)])
            self._fixed = (self._engine.packed, self._frames, self._frame_cell, self._frame_left)
        found = int(ctrl[self._kernel.FOUND])
        return found, self._sols[:found]

    def count_many(
        self, puzzles: Any, limit: int = 2, node_limit: int = 1 << 40
    ) -> tuple[Any, Any]:
        """Many puzzles in one call (a 2-D ``uint8`` array, a puzzle a row): each one's count
        up to ``limit`` (-1 where ``node_limit`` nodes did not settle it) and its first solution
        (zeros when it has none)."""
        np = self._np
        puzzles = np.ascontiguousarray(puzzles, dtype=np.uint8).reshape(-1, self.cells)
        counts = np.zeros(len(puzzles), dtype=np.int64)
        first = np.zeros_like(puzzles)
        nodes = np.zeros(len(puzzles), dtype=np.int64)
        packed = self._engine.packed
        self._engine.count_many(puzzles, limit, node_limit, packed, counts, first, nodes)
        return counts, first
