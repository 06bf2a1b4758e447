"""One worker pool and one time-limit mechanism for every batch: ``check``'s and ``bench``'s.

The pool knows nothing of puzzles or records. A kind of work (a :class:`Work`) gives it a task
function and an initializer for the workers, and says what the parent does when a unit of work
is stopped or lost; the pool runs *units* in *chunks* and yields each chunk's *results*.

- **Workers.** A pebble process pool of ``jobs`` workers. Each runs the work's initializer once
  (importing the backends' libraries, outside any time limit); an initializer that raises is
  reported by the worker's first task instead, for a failing initializer makes pebble restart
  the worker forever. On Linux workers are started with ``fork``, so they see every backend
  added with :func:`sudoku_cp.backends.register` in the parent; elsewhere (``spawn``) the
  initializer's arguments say what to register.
- **A bounded window.** Units are taken lazily from an iterator and at most ``2 × jobs + 1``
  chunks are in flight, so memory stays flat however many units there are. A chunk is up to
  ``work.max_chunk`` units; its size adapts so that a chunk takes about ``CHUNK_SECONDS`` (the
  ~0.1 ms round trip of a task stays small next to a ~1 ms solve, and a slow unit travels
  alone). Results come back in *completion* order, a chunk's together.
- **Time limits, enforced from outside.** Each backend gets the time limit as its own
  (cooperative) limit. Before each backend call a worker writes into its slot of a shared
  array which unit of its chunk, which call and since when (:class:`Watchdog`); the parent
  reads the slots every ``WATCH_SECONDS`` and, when a call has overrun the time limit plus a
  grace (:func:`hard_limit`; more for a call marked *first*, a backend's first in a fresh worker,
  which pays the library's one-off start-up costs), cancels that chunk's task: pebble stops the
  worker and starts a fresh one. The work is told which unit and which call was stopped
  (:meth:`Work.stopped`), and says what it gives now and what to run again. Nothing of the
  stopped chunk was received, so nothing is counted twice. A slot read is consistent without a
  lock (which a killed worker could leave held): a worker clears the start before changing the
  rest, and the parent reads the start before and after.
- **Crashes.** A worker that dies (a segfault in a library, a SIGKILL from outside) or a task
  that fails loses its chunk. A chunk of several units is run again one unit per task, not
  knowing which unit did it; for a lone unit the work decides (:meth:`Work.lost`), told which
  call was running.

``check`` runs puzzles (:mod:`sudoku_cp.batch.check`: chunks of up to ``MAX_CHUNK`` puzzles, a
stopped backend recorded ``timeout`` and the puzzle run again for the others); ``bench`` runs
measurements (:mod:`sudoku_cp.bench.run`: chunks of one measurement, so that each is stopped
and recorded on its own, and its warm-up solves marked as calls before the first unit,
:data:`SETUP`).

>>> hard_limit(10.0)
11.25
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, wait
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

JOBS_PER_CORE = 4
"""The cap on worker processes (``--jobs``), per core this process may use: the work is CPU-bound,
so more only costs memory and start-up time."""
CHUNK_SECONDS = 0.05
"""Aim for tasks of about this long: the ~0.1 ms round trip of a task is then ~0.2%."""
MAX_CHUNK = 256
WATCH_SECONDS = 0.05
"""How often the parent looks for overrunning backend calls."""
SETUP = 1023
"""The unit position of a call a task makes before its chunk's first unit (bench's warm-up)."""

U = TypeVar("U")
R = TypeVar("R")


def grace_seconds(time_limit: float) -> float:
    """How long past its limit a backend may run before its worker is killed.

    Backends check their deadline now and then, not continuously; the grace lets one that
    honours its limit stop by itself (and report what it found) rather than be killed.
    """
    return 0.25 + 0.1 * time_limit


def hard_limit(time_limit: float) -> float:
    """When a worker is stopped: the time limit plus the grace for backends that check their
    deadline now and then."""
    return time_limit + grace_seconds(time_limit)


def first_call_grace(time_limit: float) -> float:
    """Extra time for a backend's first call in a fresh worker.

    A library's first solve in a process pays one-off costs (CP-SAT's takes about a second)
    that its own time limit does not cover; without this, a short limit would kill every fresh
    worker on its first call, and its replacement on its first call, and so on.
    """
    return min(5.0, max(1.0, time_limit))


class ChunkSizer:
    """Chunks sized so that one takes about CHUNK_SECONDS (smoothed over recent chunks)."""

    def __init__(self, largest: int = MAX_CHUNK, seconds: float = CHUNK_SECONDS) -> None:
        self.size = 1
        self.largest = largest
        self.seconds = seconds
        self.per_item: float | None = None

    def adapt(self, per_item: float) -> None:
        self.per_item = per_item if self.per_item is None else 0.7 * self.per_item + 0.3 * per_item
        self.size = max(1, min(self.largest, int(self.seconds / max(self.per_item, 1e-6))))


# --- the worker side -----------------------------------------------------------------------------
# Each slot of the shared array is three doubles: [start, what, pid]. ``start`` is the
# time.monotonic() at which the current backend call began (0 when idle); ``what`` encodes the
# unit's position in the chunk, the call's position and whether this is the backend's first
# call in this worker (pos * 1024 + first * 512 + call). A worker clears ``start`` before
# changing ``what``, so a reader that sees the same ``start`` before and after reading ``what``
# has a consistent pair — no lock, which a killed worker could leave held.
SLOT_SIZE = 3
_FIRST = 512
_STATE: dict[str, Any] = {}


class Watchdog:
    """A worker's side of the watchdog: which backend call is running, since when, in its slot
    of the shared array (the parent reads it and stops a worker that overruns)."""

    __slots__ = ("slots", "base", "called", "position")

    def __init__(self, slots: Any, slot: int, called: set[int]) -> None:
        self.slots = slots
        self.base = slot * SLOT_SIZE
        self.called = called  # calls this worker has made before (the first call is slow)
        self.position = 0  # the unit's position in the chunk (SETUP: before the first unit)
        slots[self.base + 2] = float(os.getpid())

    def before(self, call: int) -> None:
        """Call number ``call`` starts now; its first in this worker is given the first-call
        grace."""
        first = 0 if call in self.called else _FIRST
        self.called.add(call)
        slots, base = self.slots, self.base
        slots[base] = 0.0
        slots[base + 1] = float(self.position * 1024 + first + call)
        slots[base] = time.monotonic()

    def before_call(self, call: int, first: bool) -> None:
        """Call number ``call`` starts now, given the first-call grace only if ``first``."""
        slots, base = self.slots, self.base
        slots[base] = 0.0
        slots[base + 1] = float(self.position * 1024 + (_FIRST if first else 0) + call)
        slots[base] = time.monotonic()

    def after(self) -> None:
        """The call has returned (or raised)."""
        self.slots[self.base] = 0.0


Task = Callable[[list[Any], Watchdog], list[Any]]
"""A work's task: a chunk of units in, their results out, backend calls between ``watch.before``
and ``watch.after``. A module-level function, so that it travels to workers by name."""


def init_worker(
    slots: Any, task: Task, initializer: Callable[..., None] | None, initargs: Sequence[Any]
) -> None:
    """Runs once in each worker: keep the slots and the task, run the work's initializer.

    It must never raise: a failing initializer makes pebble restart the worker forever. An
    error is raised by every task of this worker instead.
    """
    _STATE.clear()
    _STATE.update(slots=slots, task=task, called=set())
    try:
        if initializer is not None:
            initializer(*initargs)
    except Exception as err:  # reported by the first task instead
        _STATE["failed"] = err


def run_task(slot: int, units: list[Any]) -> tuple[list[Any], float]:
    """Run a chunk in a worker, watched through ``slot``; its results and the seconds it took."""
    if "failed" in _STATE:
        raise _STATE["failed"]
    start = time.perf_counter()
    watch = Watchdog(_STATE["slots"], slot, _STATE["called"])
    results = _STATE["task"](units, watch)
    return results, time.perf_counter() - start


# --- the parent side -----------------------------------------------------------------------------
class Running(NamedTuple):
    """The backend call running in a slot: the unit's position in its chunk (or SETUP), the
    call's number, when it started (``time.monotonic()``) and whether it is a first call."""

    position: int
    call: int
    start: float
    first: bool


class Work(Generic[U, R]):
    """A kind of work for the pool: the task and initializer its workers run, and what the
    parent does with a unit whose worker was stopped (:meth:`stopped`) or lost (:meth:`lost`).

    ``task`` and ``initializer`` must be module-level functions (they travel by name).
    """

    def __init__(
        self,
        task: Task,
        initializer: Callable[..., None] | None = None,
        initargs: Sequence[Any] = (),
        max_chunk: int = MAX_CHUNK,
    ) -> None:
        self.task = task
        self.initializer = initializer
        self.initargs = tuple(initargs)
        self.max_chunk = max_chunk
        self.shared: Any = None
        self.preload: tuple[str, ...] = ()
        """Backends whose libraries a cluster worker loads before it forks its children
        (:mod:`.cluster`), so that neither a child nor its replacement imports them again."""
        """A RawArray among ``initargs`` that the parent writes and workers read (bench's specs
        not to warm up); on a cluster a copy travels with every chunk (:mod:`.cluster`)."""

    def here(self, unit: U) -> list[R] | None:
        """The results of a unit that needs no worker, or None to send it to one."""
        return None

    def stopped(self, units: list[U], running: Running, seconds: float) -> tuple[list[R], list[U]]:
        """The worker of ``units`` was stopped ``seconds`` into the call ``running`` (which
        overran its time limit): the results known now, and the units to run again."""
        raise NotImplementedError

    def lost(self, unit: U, running: Running | None, err: BaseException) -> tuple[list[R], list[U]]:
        """The task of a lone ``unit`` failed with ``err`` (its worker died, as a rule) while
        ``running`` (None if no call was): the results known now, and the units to run again."""
        raise NotImplementedError


@dataclass(slots=True)
class _Chunk:
    units: list[Any]
    slot: int
    killed: tuple[Running, float] | None = None  # (the call, seconds) when stopped


def max_jobs() -> int:
    """The most worker processes a run may start: :data:`JOBS_PER_CORE` per usable core."""
    from ..experiment import usable_cores

    return JOBS_PER_CORE * usable_cores()


def check_jobs(jobs: int) -> None:
    """Raise SudokuError for a number of worker processes above :func:`max_jobs`."""
    if jobs > max_jobs():
        from ..errors import SudokuError

        raise SudokuError(
            f"jobs {jobs} is above the cap of {max_jobs()} worker processes "
            f"({JOBS_PER_CORE} per usable core)"
        )


class WorkerPool(Generic[U, R]):
    """A pebble process pool, a bounded window of chunks in flight, and the watchdog."""

    def __init__(self, work: Work[U, R], jobs: int, time_limit: float | None) -> None:
        check_jobs(jobs)
        self.work = work
        self.jobs = jobs
        self.window = 2 * jobs + 1
        self.sizer = ChunkSizer(work.max_chunk)
        self.inflight: dict[Any, _Chunk] = {}
        self.retry: deque[U] = deque()
        # Twice the window: the slot of a stopped worker stays out of use until that process is
        # gone, so a worker still finishing its last call cannot scribble on a reused slot.
        self.free = list(range(2 * self.window))
        self.quarantine: dict[int, int] = {}  # slot -> pid of the worker being stopped
        self.limit = time_limit
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.slots = self.context.RawArray("d", SLOT_SIZE * 2 * self.window)

        from pebble import ProcessPool

        self.pool = ProcessPool(
            max_workers=jobs,
            initializer=init_worker,
            initargs=(self.slots, work.task, work.initializer, work.initargs),
            context=self.context,
        )

    def run(
        self, units: Iterator[U], hold: Callable[[], bool] | None = None
    ) -> Generator[list[R], None, None]:
        """The results of ``units``, a chunk's at a time, in completion order; the workers are
        stopped when the caller stops iterating.

        ``hold()`` returning True stops the pool taking new units while some are in flight
        (retries still go): the caller's back-pressure, e.g. a reorder buffer that is full. It
        is never obeyed with nothing in flight, so the run always moves on."""
        here = self.work.here
        finished = False
        try:
            exhausted = False
            while True:
                self._release_quarantine()
                while len(self.inflight) < self.window and self.free:
                    chunk: list[U] = []
                    if self.retry:
                        chunk.append(self.retry.popleft())  # retried units travel alone
                    while not exhausted and len(chunk) < self.sizer.size and not self.retry:
                        if hold is not None and (self.inflight or chunk) and hold():
                            break
                        unit = next(units, None)
                        if unit is None:
                            exhausted = True
                            continue
                        answered = here(unit)
                        if answered is not None:
                            yield answered  # no backend to run: answer at once
                        else:
                            chunk.append(unit)
                    if not chunk:
                        break
                    self._submit(chunk)
                if not self.inflight:
                    if exhausted and not self.retry:
                        break
                    time.sleep(WATCH_SECONDS)  # every slot waits for a stopped worker to go
                    continue
                done, _ = wait(
                    list(self.inflight),
                    timeout=WATCH_SECONDS if self.limit is not None else 1.0,
                    return_when=FIRST_COMPLETED,
                )
                for future in done:
                    yield from self._collect(future)
                if self.limit is not None:
                    self._watch()
            finished = True
        finally:
            if finished:
                self.pool.close()
            else:  # interrupted, an error, or the caller stopped iterating
                self.pool.stop()
            self.pool.join()

    def _submit(self, units: list[U]) -> None:
        slot = self.free.pop()
        future = self.pool.schedule(run_task, args=(slot, units))
        self.inflight[future] = _Chunk(units, slot)

    def _collect(self, future: Any) -> Iterator[list[R]]:
        chunk = self.inflight.pop(future)
        running = self._running(chunk.slot)
        if chunk.killed is not None:
            self.quarantine[chunk.slot] = int(self.slots[chunk.slot * SLOT_SIZE + 2])
        else:
            self._free_slot(chunk.slot)
        try:
            results, seconds = future.result()
        except CancelledError:
            assert chunk.killed is not None
            answered, again = self.work.stopped(chunk.units, *chunk.killed)
        except Exception as err:  # the worker died (ProcessExpired) or the task failed
            if len(chunk.units) > 1:
                # not knowing which unit did it, run each again alone
                self.retry.extend(chunk.units)
                return
            answered, again = self.work.lost(chunk.units[0], running, err)
        else:
            self.sizer.adapt(seconds / len(chunk.units))
            yield results
            return
        self.retry.extend(again)
        if answered:
            yield answered

    def _free_slot(self, slot: int) -> None:
        base = slot * SLOT_SIZE
        self.slots[base] = self.slots[base + 1] = self.slots[base + 2] = 0.0
        self.free.append(slot)

    def _release_quarantine(self) -> None:
        """Free the slots of stopped workers that have really gone."""
        for slot, pid in list(self.quarantine.items()):
            if not pid_alive(pid):
                del self.quarantine[slot]
                self._free_slot(slot)

    def _running(self, slot: int) -> Running | None:
        """The call running in ``slot``, if one is."""
        return read_slot(self.slots, slot)

    def _watch(self) -> None:
        """Cancel every task whose current backend call has overrun its time limit."""
        assert self.limit is not None
        deadline = hard_limit(self.limit)
        cold = deadline + first_call_grace(self.limit)
        now = time.monotonic()
        for future, chunk in self.inflight.items():
            if chunk.killed is not None:
                continue
            running = self._running(chunk.slot)
            if running is None or now - running.start <= (cold if running.first else deadline):
                continue
            if future.cancel():  # pebble stops the worker safely and starts a new one
                chunk.killed = (running, now - running.start)


def read_slot(slots: Any, slot: int) -> Running | None:
    """The call running in ``slot`` of a watchdog's shared array, if one is."""
    base = slot * SLOT_SIZE
    start = slots[base]
    what = slots[base + 1]
    if start == 0.0 or slots[base] != start:
        return None
    position, rest = divmod(int(what), 1024)
    return Running(position, rest % _FIRST, start, rest >= _FIRST)


def overrun(running: Running | None, time_limit: float, now: float) -> bool:
    """True when the call ``running`` has overrun ``time_limit`` plus its grace (more for a
    first call)."""
    if running is None:
        return False
    deadline = hard_limit(time_limit)
    if running.first:
        deadline += first_call_grace(time_limit)
    return now - running.start > deadline


def pid_alive(pid: int) -> bool:
    """True while process ``pid`` exists and is not a zombie (pebble reaps the ones it stops)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True  # no /proc: existing is all we can tell


def describe_death(err: BaseException) -> str:
    """A short description of how a worker's task ended badly.

    >>> describe_death(ValueError("no"))
    'worker task failed: ValueError: no'
    """
    code = getattr(err, "exitcode", None)
    if code is not None and code < 0:
        try:
            return f"worker process killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"worker process killed by signal {-code}"
    if code is not None:
        return f"worker process exited with status {code}"
    return f"worker task failed: {type(err).__name__}: {err}"


__all__ = [
    "CHUNK_SECONDS",
    "MAX_CHUNK",
    "SETUP",
    "WATCH_SECONDS",
    "ChunkSizer",
    "Running",
    "Watchdog",
    "Work",
    "WorkerPool",
    "describe_death",
    "first_call_grace",
    "grace_seconds",
    "hard_limit",
    "overrun",
    "read_slot",
]
