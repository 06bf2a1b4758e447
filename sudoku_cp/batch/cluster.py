"""Batches on a Dask cluster (``--scheduler``): the same work as the local pool, the same
records, the same guarantees; Dask (``dask.distributed``) does the scheduling.

:class:`DaskPool` has the local :class:`~sudoku_cp.batch.pool.WorkerPool`'s ``run(units,
hold)``, so ``check``, ``count`` and ``bench`` (and any work of :mod:`.pool`) run on either
through :func:`~sudoku_cp.batch.executors.open_pool`.

- **The client** (this process) takes units lazily and keeps at most ``2 × threads + 1``
  chunks in flight (``threads``: the cluster's worker threads, looked at again every
  ``REFRESH_SECONDS`` as workers come and go), submitted together with ``Client.map`` and
  collected with ``as_completed`` in completion order: the work held is bounded whatever the
  input's size. Dask's log of each connection's last 1,000 messages is turned off while the
  pool is open (:data:`QUIET_CONFIG`): each task message carries a chunk, so it held up to
  ~130 MB in the client, growing with the input.
- **The same software everywhere.** At connect the client compares its
  :func:`worker_versions` (sudoku-cp's version and source digest, Python's minor version,
  the run's backends' libraries) with every worker's (``Client.run``) and refuses a cluster
  where any differs (:func:`check_versions`, a SudokuError naming the workers); the plugin
  makes the same comparison on a worker that joins later, whose tasks then come back
  *refused* and stop the run with the same message.
- **Chunks sized for the network.** A chunk aims at ``NETWORK_CHUNK_SECONDS`` (0.25 s) of
  work, up to ``NETWORK_MAX_CHUNK`` (1,024) units: a task's round trip through the scheduler
  (a millisecond or a few on a LAN) is then well under 1%, while the client holds at most
  ``window × 1,024`` puzzles. A work that caps its chunks below the local pool's ``MAX_CHUNK``
  (``bench``: one measurement a chunk) keeps its cap.
- **On each worker** a worker plugin (registered for the run, removed at its end) keeps a
  *sandbox*: a pebble pool of one child process per worker thread, made on the first task,
  whose children run the work's initializer once (the backends are imported once per worker,
  not per task) and then the chunks, watched exactly as the local pool watches them
  (:class:`~sudoku_cp.batch.pool.Watchdog`): a backend call past its time limit and grace is
  stopped by killing the child, which pebble replaces; the task then returns *stopped* (which
  unit, which call, after how long) or *lost* (the child died: a segfault, a SIGKILL), and the
  client decides what to record and what to run again with the work's own
  :meth:`~sudoku_cp.batch.pool.Work.stopped` / :meth:`~sudoku_cp.batch.pool.Work.lost`, as the
  local pool does. Solving in a child also keeps the worker's own event loop free to answer
  the scheduler's heartbeats during a long solve.
- **A worker that dies** (its process killed, its machine gone): Dask runs its tasks again on
  other workers (the scheduler's ``allowed-failures``); a task that fails for good loses its
  chunk, whose units are run again one per task, as in the local pool. A chunk's records are
  taken only from its task's one result, so each puzzle is recorded exactly once.
- **Stopping** (Ctrl-C, SIGTERM, an error, the caller stopping early): the tasks in flight are
  cancelled, the plugin removed (its teardown stops the children) and the client closed; a
  ``local:N`` cluster is shut down.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import logging
import multiprocessing
import os
import pickle
import platform
import signal
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import CancelledError, wait
from pathlib import Path
from typing import Any, Generic, TypeVar

from ..errors import ClusterLost, SudokuError, one_line
from .pool import (
    MAX_CHUNK,
    SLOT_SIZE,
    WATCH_SECONDS,
    ChunkSizer,
    Running,
    Work,
    describe_death,
    init_worker,
    overrun,
    pid_alive,
    read_slot,
    run_task,
)
from .scheduler import parse_scheduler, refuse_if_nothing_listens, require_dask

U = TypeVar("U")
R = TypeVar("R")

NETWORK_CHUNK_SECONDS = 0.25
"""Aim for tasks of about this long on a cluster: a scheduler round trip is then well under 1%."""
NETWORK_MAX_CHUNK = 1024
"""The most units in one task on a cluster (what the client holds is ``window ×`` this)."""
REFRESH_SECONDS = 5.0
"""How often the client looks again at how many worker threads the cluster has."""
CONNECT_SECONDS = 20.0
"""How long to try to reach a scheduler, and to wait for its first worker."""


# --- the worker side ------------------------------------------------------------------------------
class WorkerLost(Exception):  # noqa: N818 — what happened, not an error class of ours
    """How a sandbox child's task ended badly, fit to travel back to the client (the original
    exception may not pickle); ``exitcode`` as pebble's ProcessExpired has it."""

    def __init__(self, message: str, exitcode: int | None = None) -> None:
        super().__init__(message)
        self.exitcode = exitcode

    def __reduce__(self) -> tuple[Any, ...]:
        return (WorkerLost, (str(self), self.exitcode))


class Sandbox:
    """A worker's child processes (one per worker thread) and their watchdog."""

    def __init__(
        self,
        task: Any,
        initializer: Callable[..., None] | None,
        initargs: Sequence[Any],
        time_limit: float | None,
        processes: int,
        preload: Sequence[str] = (),
    ) -> None:
        from pebble import ProcessPool

        _preload(preload)
        # Dask starts its worker processes daemonic, and multiprocessing refuses children to
        # a daemonic process (lest they outlive it). These children do not: the plugin's
        # teardown stops them, and a child whose worker dies sees its channel close and exits.
        current = multiprocessing.current_process()
        if current.daemon:
            current._config["daemon"] = False  # type: ignore[attr-defined]
        methods = multiprocessing.get_all_start_methods()
        # fork, as the local pool: a replaced child starts at once
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.limit = time_limit
        self.lock = threading.Lock()
        # Four slots a thread: a stopped child's slot waits until that process has gone.
        self.slots = context.RawArray("d", SLOT_SIZE * 4 * processes)
        self.free = list(range(4 * processes))
        self.quarantine: dict[int, int] = {}
        # The work's shared array, if any: this worker's own, shared with its children and
        # brought up to date from the copy each chunk carries.
        self.shared: Any = None
        initargs = list(initargs)
        for i, arg in enumerate(initargs):
            if isinstance(arg, _Shared):
                self.shared = initargs[i] = context.RawArray(arg.kind, arg.length)
        self.pool = ProcessPool(
            max_workers=processes,
            initializer=_child_init,
            initargs=(os.getpid(), self.slots, task, initializer, tuple(initargs)),
            context=context,
        )

    def run(self, units: bytes, shared: bytes | None = None) -> tuple[Any, ...]:
        """Run a chunk (pickled) in a child: ``("done", results pickled, seconds)``,
        ``("stopped", running, seconds)`` when a call overran, or ``("lost", running, error)``
        when the child died."""
        if shared is not None and self.shared is not None:
            ctypes.memmove(self.shared, shared, len(shared))
        slot = self._take_slot()
        future = self.pool.schedule(_run_pickled, args=(slot, units))
        killed: tuple[Running, float] | None = None
        while not future.done():
            wait([future], timeout=WATCH_SECONDS if self.limit is not None else 1.0)
            if killed is None and self.limit is not None and not future.done():
                running = read_slot(self.slots, slot)
                now = time.monotonic()
                if running is not None and overrun(running, self.limit, now) and future.cancel():
                    killed = (running, now - running.start)
        try:
            results, seconds = future.result()
        except CancelledError:
            with self.lock:
                self.quarantine[slot] = int(self.slots[slot * SLOT_SIZE + 2])
            assert killed is not None
            return ("stopped", *killed)
        except Exception as err:  # the child died (ProcessExpired) or the task failed
            running = read_slot(self.slots, slot)
            self._free_slot(slot)
            return ("lost", running, _portable(err))
        self._free_slot(slot)
        return ("done", results, seconds)

    def _take_slot(self) -> int:
        while True:
            with self.lock:
                for slot, pid in list(self.quarantine.items()):
                    if not pid_alive(pid):
                        del self.quarantine[slot]
                        self._clear(slot)
                        self.free.append(slot)
                if self.free:
                    return self.free.pop()
            time.sleep(WATCH_SECONDS)  # every slot waits for a stopped child to go

    def _clear(self, slot: int) -> None:
        base = slot * SLOT_SIZE
        self.slots[base] = self.slots[base + 1] = self.slots[base + 2] = 0.0

    def _free_slot(self, slot: int) -> None:
        with self.lock:
            self._clear(slot)
            self.free.append(slot)

    def stop(self) -> None:
        self.pool.stop()
        self.pool.join()


def _child_init(
    parent: int,
    slots: Any,
    task: Any,
    initializer: Callable[..., None] | None,
    initargs: Sequence[Any],
) -> None:
    """A sandbox child's start: leave when its worker dies (a killed worker must not leave a
    child solving on, or waiting forever), then the local pool's own worker start-up."""
    from ..stopping import leave_with_parent

    leave_with_parent(parent)
    init_worker(slots, task, initializer, initargs)


def _run_pickled(slot: int, units: bytes) -> tuple[bytes, float]:
    """In a child: :func:`~sudoku_cp.batch.pool.run_task` on a pickled chunk, its results
    pickled. Units and results cross the worker as bytes, never unpickled and pickled again
    there: the client and the child do that once each, as with the local pool."""
    results, seconds = run_task(slot, pickle.loads(units))
    return pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL), seconds


def _preload(names: Sequence[str]) -> None:
    """Load the named built-in backends' libraries in this worker, before its children are
    forked: they (and their replacements) start with them loaded. (Others, registered by the
    client, are loaded by each child's initializer.)"""
    from ..backends import backend_class, is_builtin

    for name in names:
        if is_builtin(name):
            with contextlib.suppress(Exception):  # a child reports it, as the local pool does
                cls = backend_class(name)
                if cls.unavailable_reason() is None:
                    cls.prepare()


def _portable(err: BaseException) -> BaseException:
    """``err`` if it survives pickling, else a :class:`WorkerLost` that says the same."""
    with contextlib.suppress(Exception):
        pickle.loads(pickle.dumps(err))
        return err
    return WorkerLost(describe_death(err), getattr(err, "exitcode", None))


# --- the same software everywhere ----------------------------------------------------------------
@functools.cache
def source_digest() -> str:
    """A digest of this sudoku-cp's own source files: two installs of the same version that
    were edited differently (a developer's checkout) tell apart by it."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def worker_versions(backends: Sequence[str]) -> dict[str, str]:
    """What decides a verdict besides the puzzle, here: sudoku-cp's version and source, the
    Python minor version, and each named built-in backend's library version. The client and
    every worker must agree on all of it (:func:`differences`)."""
    from .. import version
    from ..backends import backend_class, is_builtin

    found = {
        "sudoku-cp": f"{version.__version__} (source {source_digest()})",
        "python": ".".join(platform.python_version_tuple()[:2]),
    }
    for name in backends:
        if is_builtin(name):
            cls = backend_class(name)
            if cls.requires is not None:
                found[cls.requires[1]] = cls.version() or "missing"
    return found


def differences(here: dict[str, str], there: dict[str, str]) -> str:
    """What ``there`` (a worker) runs that ``here`` (the client) does not, in a few words;
    empty when they agree.

    >>> differences({"python": "3.11", "ortools": "9.10"}, {"python": "3.12", "ortools": "9.10"})
    'python 3.12 (here 3.11)'
    """
    return ", ".join(
        f"{key} {there.get(key, 'missing')} (here {value})"
        for key, value in here.items()
        if there.get(key, "missing") != value
    )


def check_versions(client: Any, scheduler: str, backends: Sequence[str]) -> dict[str, str]:
    """This client's :func:`worker_versions`, after checking that every worker's are the same;
    SudokuError naming the workers that differ (and how) otherwise."""
    here = worker_versions(backends)
    found = client.run(worker_versions, tuple(backends), on_error="return")
    differ = []
    for address, there in sorted(found.items()):
        if isinstance(there, BaseException):
            differ.append(f"{address} cannot say ({type(there).__name__}: {there})")
        elif text := differences(here, there):
            differ.append(f"{address} {text}")
    if differ:
        raise SudokuError(version_error(scheduler, differ))
    return here


def version_error(scheduler: str, differ: Sequence[str]) -> str:
    """The one line that refuses a cluster whose workers run other software than the client."""
    return (
        f"--scheduler {scheduler}: {len(differ)} worker(s) run other software than this "
        f"client, so their verdicts could differ: {'; '.join(differ)} (install the same on "
        "every worker and restart it)"
    )


def _plugin_class() -> type:
    from distributed.diagnostics.plugin import WorkerPlugin

    class SandboxPlugin(WorkerPlugin):
        """A run's work on one worker: its sandbox, made on the first task."""

        def __init__(
            self,
            task: Any,
            initializer: Any,
            initargs: Sequence[Any],
            time_limit: float | None,
            local: bool = False,
            preload: Sequence[str] = (),
            versions: dict[str, str] | None = None,
        ) -> None:
            self.spec = (task, initializer, tuple(initargs), time_limit)
            self.local = local
            self.preload = tuple(preload)
            self.versions = versions
            self.mismatch: str | None = None
            self.sandbox: Sandbox | None = None
            self.threads = 1
            self.lock = threading.Lock()
            self.sigint: Any = None

        def __getstate__(self) -> dict[str, Any]:
            return {
                "spec": self.spec,
                "local": self.local,
                "preload": self.preload,
                "versions": self.versions,
            }

        def __setstate__(self, state: dict[str, Any]) -> None:
            self.__init__(  # type: ignore[misc]
                *state["spec"],
                local=state["local"],
                preload=state["preload"],
                versions=state["versions"],
            )

        def setup(self, worker: Any) -> None:
            self.threads = max(1, int(getattr(worker.state, "nthreads", 1)))
            if self.versions is not None:
                # a worker that joins after the client's check at connect is checked here;
                # its tasks are refused (the client stops the run) rather than run
                found = worker_versions(self.preload)
                differ = differences(self.versions, found)
                if differ:
                    self.mismatch = f"{worker.address} {differ}"
            if self.local and threading.current_thread() is threading.main_thread():
                # A terminal's Ctrl-C reaches the whole process group, these local workers
                # too: only the command handles it (and stops them), not every worker
                # printing its own traceback.
                self.sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)

        def teardown(self, worker: Any) -> None:
            with self.lock:
                if self.sandbox is not None:
                    self.sandbox.stop()
                    self.sandbox = None
            if self.sigint is not None and threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, self.sigint)

        def get(self) -> Sandbox:
            with self.lock:
                if self.sandbox is None:
                    self.sandbox = Sandbox(*self.spec, processes=self.threads, preload=self.preload)
                return self.sandbox

    return SandboxPlugin


class _Shared:
    """Stands for a work's shared array in the initargs sent to workers (each makes its own)."""

    def __init__(self, array: Any) -> None:
        self.kind = type(array)._type_
        self.length = len(array)


def run_chunk(name: str, units: bytes, shared: bytes | None = None) -> tuple[Any, ...]:
    """The Dask task: run a chunk (pickled) in this worker's sandbox of run ``name``."""
    from distributed import get_worker

    plugin: Any = get_worker().plugins[name]
    if plugin.mismatch is not None:
        return ("refused", plugin.mismatch)
    result: tuple[Any, ...] = plugin.get().run(units, shared)
    return result


# --- the client side -----------------------------------------------------------------------------
QUIET_CONFIG = {"distributed.admin.low-level-log-length": 0}
"""Dask settings while a run's client (and a ``local:N`` cluster) is open. Dask keeps the last
1,000 messages each connection sent, for debugging: with a chunk in every task message that
was up to ~130 MB held in the client, growing with the input's first 1,000 chunks."""


class DaskPool(Generic[U, R]):
    """A Dask client (and a ``local:N`` cluster), a bounded window of chunks in flight, and
    what the local pool does with stopped and lost units."""

    def __init__(
        self,
        work: Work[U, R],
        scheduler: str,
        time_limit: float | None,
        info: dict[str, Any] | None = None,
    ) -> None:
        kind, value = parse_scheduler(scheduler)
        distributed = require_dask()
        import dask

        self.work = work
        self.limit = time_limit
        largest = NETWORK_MAX_CHUNK if work.max_chunk >= MAX_CHUNK else work.max_chunk
        self.sizer = ChunkSizer(largest, NETWORK_CHUNK_SECONDS)
        self.retry: deque[U] = deque()
        self.cluster: Any = None
        self.client: Any = None
        self.scheduler = scheduler
        self.name = f"sudoku-cp-{uuid.uuid4().hex[:12]}"
        # Set for the pool's life, not only while connecting: a local:N worker that the nanny
        # restarts connects again later. Dask's config is process-wide; close() restores it.
        self.config: Any = dask.config.set(QUIET_CONFIG)
        # The client logs a lost scheduler as tracebacks on standard error (distributed.client,
        # .batched, .core …, through the handlers on "distributed"); the run says it in one
        # line of its own (ClusterLost).
        self.quieted = [
            (handler, handler.level)
            for name, logger in list(logging.root.manager.loggerDict.items())
            if name.split(".")[0] == "distributed" and isinstance(logger, logging.Logger)
            for handler in logger.handlers
        ]
        for handler, _ in self.quieted:
            handler.setLevel(logging.CRITICAL)
        try:
            if kind == "local":
                # one thread per worker process: the work is CPU-bound Python
                self.cluster = distributed.LocalCluster(
                    n_workers=int(value),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
                address = self.cluster.scheduler_address
            else:
                address = str(value)
                refuse_if_nothing_listens(address)
            self.client = distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
            self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            versions = check_versions(self.client, scheduler, work.preload)
            shared = work.shared
            initargs = [
                _Shared(a) if shared is not None and a is shared else a for a in work.initargs
            ]
            plugin = _plugin_class()(
                work.task,
                work.initializer,
                initargs,
                time_limit,
                kind == "local",
                work.preload,
                versions,
            )
            self.client.register_plugin(plugin, name=self.name)
        except SudokuError:
            self.close()
            raise
        except Exception as err:  # no scheduler there, a transport or security setting wrong
            _forget_client(err, distributed.Client)
            self.close()
            why = one_line(str(err)) or type(err).__name__
            raise SudokuError(f"--scheduler {scheduler}: cannot use the cluster: {why}") from None
        except BaseException:
            self.close()
            raise
        self.address = address
        self.threads = self._threads()
        if info is not None:
            info.update(self.describe(kind, value, versions))

    def describe(self, kind: str, value: int | str, versions: dict[str, str]) -> dict[str, Any]:
        """The executor for the experiment record: the scheduler and its workers now."""
        import dask

        workers = self.client.scheduler_info().get("workers", {})
        return {
            "executor": "dask",
            "scheduler": self.address,
            "local_cluster": value if kind == "local" else None,
            "dask": dask.__version__,
            "threads": self.threads,
            "versions": versions,
            "workers": [
                {
                    "address": address,
                    "name": str(w.get("name")),
                    "host": w.get("host"),
                    "nthreads": w.get("nthreads"),
                    "memory_limit": w.get("memory_limit"),
                }
                for address, w in sorted(workers.items())
            ],
        }

    def _threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def run(
        self, units: Iterator[U], hold: Callable[[], bool] | None = None
    ) -> Generator[list[R], None, None]:
        """The results of ``units``, a chunk's at a time, in completion order (as
        :meth:`WorkerPool.run <sudoku_cp.batch.pool.WorkerPool.run>`); the cluster's tasks are
        cancelled and the client closed when the caller stops iterating. A scheduler lost
        mid-run raises :class:`~sudoku_cp.errors.ClusterLost` (the records yielded stand)."""
        return self._run(units, hold)

    def _gone(self) -> bool:
        """Whether the client has lost its scheduler (closed, or trying to reconnect)."""
        return self.client is None or self.client.status != "running"

    def _lost(self, err: BaseException) -> ClusterLost:
        # (the error's own text names a task key and asks to re-run: not what to do here)
        return ClusterLost(
            f"--scheduler {self.scheduler}: lost the Dask scheduler mid-run ({type(err).__name__})"
        )

    def _run(
        self, units: Iterator[U], hold: Callable[[], bool] | None = None
    ) -> Generator[list[R], None, None]:
        from distributed import as_completed

        here = self.work.here
        inflight: dict[str, tuple[Any, list[U]]] = {}
        # (not with_results=True, which would fetch results while this thread writes: its
        # concurrent fetches can lose a result and wait forever, dask/distributed#7331)
        arrived = as_completed(loop=self.client.loop)
        looked = time.monotonic()
        try:
            exhausted = False
            while True:
                if time.monotonic() - looked > REFRESH_SECONDS:
                    self.threads, looked = self._threads(), time.monotonic()
                chunks: list[list[U]] = []
                while len(inflight) + len(chunks) < 2 * self.threads + 1:
                    chunk: list[U] = []
                    if self.retry:
                        chunk.append(self.retry.popleft())  # retried units travel alone
                    while not exhausted and len(chunk) < self.sizer.size and not self.retry:
                        if hold is not None and (inflight or chunks or chunk) and hold():
                            break
                        unit = next(units, None)
                        if unit is None:
                            exhausted = True
                            continue
                        answered = here(unit)
                        if answered is not None:
                            yield answered
                        else:
                            chunk.append(unit)
                    if not chunk:
                        break
                    chunks.append(chunk)
                if chunks:
                    self._submit(chunks, inflight, arrived)
                if not inflight:
                    if exhausted and not self.retry:
                        break
                    continue
                future = next(arrived)
                _, chunk = inflight.pop(future.key)
                yield from self._collect(future, chunk)
                del future
        except SudokuError:
            raise
        except Exception as err:  # the client's calls fail once the scheduler is gone
            if not self._gone():
                raise
            raise self._lost(err) from None
        finally:
            with contextlib.suppress(Exception):
                arrived.clear()
            if inflight:
                with contextlib.suppress(Exception):
                    self.client.cancel([f for f, _ in inflight.values()], force=True)
            inflight.clear()
            self.close()

    def _submit(
        self, chunks: list[list[U]], inflight: dict[str, tuple[Any, list[U]]], arrived: Any
    ) -> None:
        """Send ``chunks`` as tasks, all in one message to the scheduler (``Client.map``)."""
        shared = None if self.work.shared is None else bytes(self.work.shared)
        packed = [pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL) for chunk in chunks]
        count = len(chunks)
        futures = self.client.map(
            run_chunk, [self.name] * count, packed, [shared] * count, pure=False
        )
        for future, chunk in zip(futures, chunks, strict=True):
            inflight[future.key] = (future, chunk)
        arrived.update(futures)

    def _collect(self, future: Any, units: list[U]) -> Iterator[list[R]]:
        """A finished task's records, or what its stopped or lost units become."""
        running: Running | None = None
        try:
            outcome = future.result()
        except Exception as err:  # the Dask worker died too often, or the task failed there
            if self._gone():  # not the chunk's fault: the scheduler went (see run)
                raise self._lost(err) from None
            kind, error = "lost", err
        else:
            kind = outcome[0]
            if kind == "done":
                _, results, seconds = outcome
                self.sizer.adapt(seconds / len(units))
                yield pickle.loads(results)
                return
            if kind == "refused":  # a worker that joined late runs other software
                raise SudokuError(version_error(self.scheduler, [outcome[1]]))
            if kind == "stopped":
                answered, again = self.work.stopped(units, outcome[1], outcome[2])
                self.retry.extend(again)
                if answered:
                    yield answered
                return
            _, running, error = outcome
        if len(units) > 1:
            self.retry.extend(units)  # not knowing which unit did it, run each again alone
            return
        answered, again = self.work.lost(units[0], running, error)
        self.retry.extend(again)
        if answered:
            yield answered

    def close(self) -> None:
        """Remove the run's plugin (stopping its children), close the client and the
        ``local:N`` cluster, restore Dask's settings; quietly, for it runs while stopping."""
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.unregister_worker_plugin(self.name)
            with contextlib.suppress(Exception):
                self.client.close()
            self.client = None
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close()
            self.cluster = None
        if self.config is not None:
            with contextlib.suppress(Exception):
                self.config.__exit__(None, None, None)
            self.config = None
            for handler, level in self.quieted:
                handler.setLevel(level)


def _forget_client(err: BaseException, client_class: Any) -> None:
    """A Client that failed in its constructor (a bad transport) still closes itself when it
    is collected, at exit: a 40 s wait and a traceback after the run's one line. Its loop is
    stopped here and the close it would do at exit is skipped."""
    tb = err.__traceback__
    while tb is not None:
        client: Any = tb.tb_frame.f_locals.get("self")
        if isinstance(client, client_class):
            with contextlib.suppress(Exception):
                client._loop_runner.stop()  # (private: nothing public stops a half-made one)
            with contextlib.suppress(Exception):
                client._Client__loop = None  # what __del__ reads as "failed early"
        tb = tb.tb_next


__all__ = [
    "CONNECT_SECONDS",
    "QUIET_CONFIG",
    "NETWORK_CHUNK_SECONDS",
    "NETWORK_MAX_CHUNK",
    "DaskPool",
    "Sandbox",
    "check_versions",
    "differences",
    "run_chunk",
    "source_digest",
    "worker_versions",
]
