"""Compiling once a machine: the lock the processes that load a numba kernel share (the first
compiles, the others wait and load its cache), how much of a module this process compiled,
and the check that drops cached code made from older sources. Plain Python (no numba):
:mod:`.glue` and the big-grid kernel's loader use it."""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from collections.abc import Iterator
from typing import Any

log = logging.getLogger(__name__)

LOCK_NAME = "sudoku-cp-{}.lock"
"""The file :func:`compiling` locks for a kernel, in ``NUMBA_CACHE_DIR`` (else the temporary
folder)."""


@contextlib.contextmanager
def compiling(kernel: str = "kernels", wait: bool = True) -> Iterator[bool]:
    """Around compiling ``kernel`` or loading it from numba's disk cache: the first process of
    the machine to get here holds the kernel's lock while it does; one that comes while the lock
    is held waits for it, then loads what was cached, alongside the others that waited. Workers
    that start together so compile once, where each compiled the same code at once before (the
    big-grid kernel: 20–27 s in every worker of a 12-worker check), and loading from the cache
    (half a second) is not made one at a time. Without ``fcntl`` (Windows) or a folder to lock
    in, each compiles as before. Yields True; with ``wait`` False, a process that finds the
    lock held does not wait and gets False (it may go on without the kernel and ask again)."""
    try:
        import fcntl
    except ImportError:
        yield True
        return
    folder = os.environ.get("NUMBA_CACHE_DIR") or tempfile.gettempdir()
    try:
        os.makedirs(folder, exist_ok=True)
        handle = open(os.path.join(folder, LOCK_NAME.format(kernel)), "a")  # noqa: SIM115
    except OSError:
        yield True
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: another process compiles (or loads) it now
            if not wait:
                yield False
                return
            fcntl.flock(handle, fcntl.LOCK_SH)  # back when it is done, with the others waiting
            fcntl.flock(handle, fcntl.LOCK_UN)
            yield True
            return
        try:
            yield True
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


STAMP_NAME = "sudoku-cp-kernel-sources.stamp"
"""The file, in the kernels' numba cache folder, naming the sources its files were made from."""


def drop_stale_cache(cache_dir: str, sources: str) -> bool:
    """Remove numba's cached code of the modules in folder ``sources`` from ``cache_dir`` when
    any of those modules changed since it was cached; True when it removed some.

    numba checks a cached function against its own module's file only, so a kernel function
    that calls into another module (``generic.run`` compiles ``propagators``' sums in) keeps
    the old code when only the callee's module changed, as a ``git pull`` into an editable
    install leaves it: a search silently running code that is no longer there. The stamp, a
    hash of the text of every module in ``sources`` that numba compiles (a line starting
    ``@njit``; they import only each other into compiled code, so a change to the plain-Python
    glue keeps the cache), is written beside the cache; a cache with none (written before it,
    or by hand) is dropped too. Without the right to write there, nothing is done (numba then
    caches elsewhere, or not at all)."""
    import hashlib

    digest = hashlib.sha256()
    names = []
    for name in sorted(n for n in os.listdir(sources) if n.endswith(".py")):
        with open(os.path.join(sources, name), "rb") as handle:
            text = handle.read()
        if b"\n@njit" in text:  # (a decorator's line, not a mention)
            names.append(name)
            digest.update(name.encode() + b"\0" + text + b"\0")
    stamp = digest.hexdigest()
    path = os.path.join(cache_dir, STAMP_NAME)
    try:
        with open(path) as handle:
            if handle.read().strip() == stamp:
                return False
    except OSError:
        pass
    modules = tuple(name[:-3] + "." for name in names)
    dropped = False
    try:
        for name in os.listdir(cache_dir):
            if name.endswith((".nbi", ".nbc")) and name.startswith(modules):
                os.remove(os.path.join(cache_dir, name))
                dropped = True
        temporary = f"{path}.{os.getpid()}"
        with open(temporary, "w") as handle:
            handle.write(stamp + "\n")
        os.replace(temporary, path)
    except OSError:  # not ours to write (numba will not cache there either)
        return dropped
    return dropped


def check_cache(dispatcher: Any, module_file: str) -> None:
    """Drop the kernels' cached code made from other sources than the modules beside
    ``module_file`` (:func:`drop_stale_cache`), in the folder numba caches ``dispatcher`` (a
    function of that module, ``cache=True``) in: its own locator's choice, read from the
    dispatcher. Call after importing the module and before calling any of its functions
    (importing compiles nothing); one process checks at a time."""
    folder = getattr(getattr(dispatcher, "_cache", None), "_cache_path", None)
    if not isinstance(folder, str):
        log.debug("numba's cache folder for %s is unknown: not checked", module_file)
        return
    try:  # (numba makes it on import; a folder not made yet is stamped empty, not skipped)
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return
    with compiling("cache-stamp"):
        if drop_stale_cache(folder, os.path.dirname(module_file)):
            log.info("backtrack: the kernels' cached code came from other sources: dropped")
