"""Ctrl-C (SIGINT) and SIGTERM over a whole ``check`` or ``count``: from its start-up (imports,
hashing the inputs, reading the output for ``--resume``, opening the pool) to its summary.

Standard library only, so that the command can take the signals before its slow imports.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any


class StopSignals:
    """Turns Ctrl-C (SIGINT) and SIGTERM into a KeyboardInterrupt, held back while a record is
    written and counted, then raised; ``signum`` says which signal it was.

    Without the hold, a KeyboardInterrupt landing between the write and the count leaves a
    record in the file that the summary and the "interrupted after N puzzles" line do not
    count. SIGTERM (``kill``, a job scheduler, a container stopping) is handled as Ctrl-C is:
    every finished record written, the summary and the interrupted mark in the sidecar.
    Only in the main thread, and only over Python's own handlers (as signals allow); forked
    worker processes get the default SIGTERM back, so the pool can still stop them.
    """

    def __init__(self) -> None:
        self.busy = False
        self.closing = False  # the run is closing: a second signal is not held
        self.pending = False
        self.signum: int = signal.SIGINT
        self.previous: dict[int, Any] = {}
        # "starting" until records may be written, "running" until the run has closed (its
        # sidecar finished), then "finished": what a signal interrupted, for its message.
        self.phase = "starting"

    def end_run(self) -> None:
        """The run has closed: a signal held while it closed is dropped (the run stands), and
        one from now on (while the summary shows) is raised at once."""
        self.phase = "finished"
        self.busy = self.closing = self.pending = False

    def __enter__(self) -> StopSignals:
        defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
        for signum, default in defaults.items():
            try:
                if signal.getsignal(signum) is default:
                    self.previous[signum] = signal.signal(signum, self._handle)
            except ValueError:  # not the main thread: signals are not ours to hold
                break
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, previous in self.previous.items():
            signal.signal(signum, previous)
        self.previous = {}

    def _handle(self, signum: int, frame: Any) -> None:
        if not self.pending:
            self.signum = signum
        if self.busy and not (self.closing and self.pending):
            self.pending = True
            return
        raise KeyboardInterrupt

    def deliver(self) -> None:
        """After a held stretch (``busy`` set, then cleared): raise a signal that came in it."""
        if self.pending:
            raise KeyboardInterrupt


ORPHAN_SECONDS = 0.5
"""How often a worker process looks whether the process that started it is still there."""


def leave_with_parent(parent: int) -> None:
    """In a worker process: end it as soon as ``parent`` (the pid of the process that started
    it, passed from there) is no longer its parent — a parent killed with SIGKILL cannot stop
    its workers, and a worker blocked on its task queue would wait forever, holding a CPU-less
    process, or solve on for nothing. A daemon thread polls ``os.getppid()`` (the portable
    signal of a lost parent: the orphan is re-parented); ``os._exit`` ends the process at once
    without running the interrupted task's clean-up, which belongs to the parent."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="sudoku-cp-orphan-watch", daemon=True).start()


def _default_sigterm_in_child() -> None:
    """In a forked worker: SIGTERM stops it again (the pool stops workers with it)."""
    handler = signal.getsignal(signal.SIGTERM)
    if isinstance(getattr(handler, "__self__", None), StopSignals):
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_default_sigterm_in_child)


@contextlib.contextmanager
def solver_interrupts() -> Iterator[None]:
    """PySAT's solvers take Ctrl-C themselves while they search and raise their own error
    ("Caught keyboard interrupt"): raised again as the KeyboardInterrupt it was, so that the
    command stops as on any other Ctrl-C, instead of a traceback or a backend error recorded
    and the run going on."""
    try:
        yield
    except Exception as err:
        if type(err).__module__ == "pysolvers" and "keyboard interrupt" in str(err).lower():
            raise KeyboardInterrupt from None
        raise


@contextlib.contextmanager
def no_stray_alarm() -> Iterator[None]:
    """PySAT's MapleLCMDistChronoBT solvers (``maplechrono``, ``maplecm``) arm a 2,500-second
    real-time timer at every solve (``alarm``, for a change of heuristic) and leave it armed,
    with their own C handler: the process then holds a timer that is not its own, and
    certifying's time limit (``certify.proof.time_limit``, which needs the timer free) runs
    unlimited. The timer is put back as it was before the block: cleared, or what was left."""
    if not hasattr(signal, "setitimer"):  # pragma: no cover — no such timers (Windows)
        yield
        return
    before, _ = signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    try:
        yield
    finally:
        now, _ = signal.getitimer(signal.ITIMER_REAL)
        if before == 0:
            if now:
                signal.setitimer(signal.ITIMER_REAL, 0)
        elif abs(now - (before - (time.monotonic() - start))) > 0.01:
            # (re-armed by the solver, with its handler: ours, and what was left of the time)
            handler = signal.getsignal(signal.SIGALRM)
            if handler is not None:
                with contextlib.suppress(ValueError):  # (not the main thread)
                    signal.signal(signal.SIGALRM, handler)
            signal.setitimer(signal.ITIMER_REAL, max(before - (time.monotonic() - start), 1e-6))
