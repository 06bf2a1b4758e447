"""Compiling once a machine: the lock the processes that load a numba kernel share (the first
compiles, the others wait and load its cache), and how much of a module this process compiled.
Plain Python (no numba): :mod:`.glue` and the big-grid kernel's loader use it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from typing import Any

LOCK_NAME = "sudoku-cp-{}.lock"
"""The file :func:`compiling` locks for a kernel, in ``NUMBA_CACHE_DIR`` (else the temporary
folder)."""


@contextlib.contextmanager
def compiling(kernel: str = "kernels") -> Iterator[None]:
    """Around compiling ``kernel`` or loading it from numba's disk cache: the first process of
    the machine to get here holds the kernel's lock while it does; one that comes while the lock
    is held waits for it, then loads what was cached, alongside the others that waited. Workers
    that start together so compile once, where each compiled the same code at once before (the
    big-grid kernel: 20–27 s in every worker of a 12-worker check), and loading from the cache
    (half a second) is not made one at a time. Without ``fcntl`` (Windows) or a folder to lock
    in, each compiles as before."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    folder = os.environ.get("NUMBA_CACHE_DIR") or tempfile.gettempdir()
    try:
        os.makedirs(folder, exist_ok=True)
        handle = open(os.path.join(folder, LOCK_NAME.format(kernel)), "a")  # noqa: SIM115
    except OSError:
        yield
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: another process compiles (or loads) it now
            fcntl.flock(handle, fcntl.LOCK_SH)  # back when it is done, with the others waiting
            fcntl.flock(handle, fcntl.LOCK_UN)
            yield
            return
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def compiled_here(module: Any) -> int:
    """How many of ``module``'s numba functions this process compiled rather than loaded
    from the disk cache (numba's own counts, ``Dispatcher.stats``)."""
    misses = 0
    for value in vars(module).values():
        stats = getattr(value, "stats", None)
        counts = getattr(stats, "cache_misses", None)
        if hasattr(value, "py_func") and counts is not None:
            misses += sum(counts.values())
    return misses
