"""Many puzzles: in this process or across worker processes, always in index order.

Puzzles are made in chunks of consecutive indices; with ``jobs`` ≥ 2 the chunks go to a
``concurrent.futures`` process pool (each worker loads the compiled kernel once), at most
``2 × jobs`` chunks ahead of the one being written, so memory stays flat. Every puzzle depends
only on the options and its index (:func:`~.make.make`), so the output is the same for any
``jobs``.
"""

from __future__ import annotations

import concurrent.futures as futures
import os
from collections import deque
from collections.abc import Iterator

from .make import Generated, make
from .options import Options

CHUNK = 4
"""Puzzles per task sent to a worker when each takes milliseconds (9x9 and smaller grids of
groups, no difficulty target): enough to make the hand-over cheap, few enough that the first
ones stream out at once. Slower puzzles go one a task, so none waits on a slow neighbour."""


def chunk_size(options: Options) -> int:
    quick = options.variant == "none" and options.size <= 9
    untargeted = options.difficulty is None and options.score is None
    return CHUNK if quick and untargeted else 1


def _chunk(options: Options, first: int, count: int) -> list[Generated]:
    return [make(options, index) for index in range(first, first + count)]


def _warm(parent: int) -> None:
    """A worker's start: end with the run (a run killed outright cannot stop its workers,
    which would wait on the queue forever), then load the compiled kernel once."""
    from ..backends.backtrack import warm_up
    from ..stopping import leave_with_parent

    leave_with_parent(parent)
    warm_up()


def generate(options: Options, count: int, *, jobs: int = 1, first: int = 1) -> Iterator[Generated]:
    """Puzzles ``first`` … ``first + count - 1`` of the run, in that order (raises
    :class:`~.make.Unreachable` at the first puzzle that misses its targets within the caps).

    >>> from sudoku_cp.generate import Options, generate
    >>> [g.puzzle.givens_count <= 16 for g in generate(Options(size=4, seed=1), 2)]
    [True, True]
    """
    options.check()
    last = first + count
    if jobs <= 1:
        for index in range(first, last):
            yield make(options, index)
        return
    chunk = chunk_size(options)
    starts = range(first, last, chunk)
    with futures.ProcessPoolExecutor(
        max_workers=jobs, initializer=_warm, initargs=(os.getpid(),)
    ) as pool:
        pending: deque[futures.Future[list[Generated]]] = deque()
        queued = iter(starts)
        try:
            for start in queued:
                pending.append(pool.submit(_chunk, options, start, min(chunk, last - start)))
                if len(pending) >= 2 * jobs:
                    break
            while pending:
                done = pending.popleft().result()
                nxt = next(queued, None)
                if nxt is not None:
                    pending.append(pool.submit(_chunk, options, nxt, min(chunk, last - nxt)))
                yield from done
        finally:
            for future in pending:
                future.cancel()
