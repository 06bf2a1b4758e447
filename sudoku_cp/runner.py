"""Many puzzles: worker processes, hard time limits, streamed output, resume, progress, summary.

How a batch runs
----------------
- **Streaming.** Puzzles are read lazily and at most a bounded window of them is in flight
  (``2 × jobs + 1`` chunks of at most ``MAX_CHUNK`` puzzles), so memory stays flat however large
  the input. Each record is written as one whole line as soon as it is known (the records of a
  worker's chunk, known together, with one ``write`` call) — a Ctrl-C or a killed process
  loses no finished record and leaves at most a torn last line, which ``--resume`` drops.
- **Order.** Records are written in *completion* order, not input order: one slow puzzle never
  holds back the others. Every record carries its ``id`` (from the input, else its position) and
  its ``index`` (1-based position in the whole input stream, unique even when ids repeat); sort
  on ``index`` to get input order back.
- **Chunks.** A task sent to a worker is a chunk of puzzles, each run on every chosen backend in
  turn. The chunk size adapts so that a chunk takes about ``CHUNK_SECONDS``: the cost of a task
  round trip (~0.1 ms) stays small next to a ~1 ms backtracker solve, and a hard puzzle travels
  alone. A worker takes its chunk stage by stage (parse all, call the backends on all, then
  read, validate and judge all), with the repeated-givens check and the validator each run
  once on the whole chunk; ``jobs=0`` checks in this process the same way, in chunks sized
  alike. The workers' (and the command line's) garbage collector is tuned for this
  (:func:`tune_gc`).
- **Time limits.** Each backend gets ``time_limit`` as its own (cooperative) limit. The runner
  also enforces it from outside: before each backend call a worker writes into a shared-memory
  slot which puzzle and backend it starts and when; the parent looks at the slots every
  ``WATCH_SECONDS`` and, when a call has overrun ``time_limit`` plus a grace (more for a
  backend's first call in a fresh worker, which pays the library's one-off start-up costs),
  cancels that task — pebble stops the worker and starts a fresh one. That backend is recorded
  ``timeout`` for that puzzle, and every puzzle of the chunk is retried on its own (the killed
  chunk's results were never received, so nothing is counted twice). Each worker imports every
  backend's library before its first task, outside any time limit.
- **Crashes.** A worker that dies (a segfault in a library, a SIGKILL from outside) loses its
  chunk: the puzzles are retried one per task. A puzzle whose worker dies twice in the same
  backend records ``error`` for that backend, and the other backends still answer.
- **Start method.** On Linux workers are started with ``fork``, so they see every backend added
  with :func:`sudoku_cp.backends.register` in the parent — including classes defined in a
  notebook or a test. Elsewhere (``spawn``), registered classes are sent to the workers by
  reference and must be importable from a module.
- **Resume.** ``--resume`` reads the output file, drops a torn last line, skips every ``index``
  already recorded and appends the rest. The sidecar ``OUTPUT.meta.json`` (versions, options,
  input hashes, machine, dates) is checked so that a resume uses the same inputs and options.

>>> from sudoku_cp import Puzzle
>>> records = check_puzzles(["1234............", "1..2"], ["backtrack"], jobs=0)
>>> sorted((r.index, r.verdict.value) for r in records)
[(1, 'multiple'), (2, 'invalid')]
"""

from __future__ import annotations

import contextlib
import csv
import datetime as _dt
import errno
import gc
import hashlib
import io
import itertools
import json
import math
import multiprocessing
import os
import platform
import signal
import sys
import time
from array import array
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import orjson

from .backends import _BUILTIN, backend_class, get_backend, register
from .errors import SudokuError
from .formats import PendingRecord, PuzzleRecord, parse_pending
from .harness import (
    DEFAULT_LIMIT,
    Outcome,
    call_backends,
    check_backend_options,
    check_variants,
    invalid_record,
    judge,
    read_calls,
    resolve_backends,
    validate_many,
)
from .model import Model, load_model
from .puzzle import Puzzle
from .result import BackendRun, CheckRecord, Status, Verdict, pickled_by_fields
from .transforms import transforms_for

CHUNK_SECONDS = 0.05
"""Aim for tasks of about this long: the ~0.1 ms round trip of a task is then ~0.2%."""
MAX_CHUNK = 256
WATCH_SECONDS = 0.05
"""How often the parent looks for overrunning backend calls."""
CRASHES_TO_BLAME = 2
"""A backend is blamed for a dead worker only when it was running at both of two deaths."""
MAX_ATTEMPTS = 4
FORMATS = ("table", "jsonl", "csv")


class OutputError(SudokuError):
    """The output file cannot be written (read-only place, missing folder, disk full)."""


class ResumeError(SudokuError):
    """``--resume`` cannot continue this output file (other options or inputs, no file format)."""


class Interrupted(KeyboardInterrupt):  # noqa: N818 — it is a KeyboardInterrupt, named as one
    """Ctrl-C during a batch: finished records are written; ``summary`` says how far it got."""

    def __init__(self, summary: Summary) -> None:
        super().__init__("interrupted")
        self.summary = summary


def grace_seconds(time_limit: float) -> float:
    """How long past its limit a backend may run before its worker is killed.

    Backends check their deadline now and then, not continuously; the grace lets one that
    honours its limit stop by itself (and report what it found) rather than be killed.
    """
    return 0.25 + 0.1 * time_limit


def first_call_grace(time_limit: float) -> float:
    """Extra time for a backend's first call in a fresh worker.

    A library's first solve in a process pays one-off costs (CP-SAT's takes about a second)
    that its own time limit does not cover; without this, a short limit would kill every fresh
    worker on its first call, and its replacement on its first call, and so on.
    """
    return min(5.0, max(1.0, time_limit))


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class CheckConfig:
    """What every puzzle of a batch is checked with (sent once to each worker)."""

    backends: tuple[str, ...]
    limit: int | None = DEFAULT_LIMIT
    time_limit: float | None = None
    model: Model = field(default_factory=lambda: load_model("classic"))
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    metamorphic: int = 0
    """Random transforms of each puzzle to cross-check as well (``check --metamorphic K``)."""
    seed: int = 0
    """Chooses those transforms, reproducibly."""

    @classmethod
    def make(
        cls,
        backends: Iterable[str] | str | None = None,
        *,
        limit: int | None = DEFAULT_LIMIT,
        time_limit: float | None = None,
        model: Model | str = "classic",
        options: Mapping[str, Mapping[str, Any]] | None = None,
        metamorphic: int = 0,
        seed: int = 0,
    ) -> CheckConfig:
        """Check and complete every setting up front, so bad ones fail before any work."""
        from .backends import check_limits

        check_limits(limit, time_limit)
        if isinstance(metamorphic, bool) or not isinstance(metamorphic, int) or metamorphic < 0:
            raise SudokuError(
                f"metamorphic must be a whole number of transforms (0 or more), not {metamorphic!r}"
            )
        names = resolve_backends(backends)
        return cls(
            backends=tuple(names),
            limit=limit,
            time_limit=None if time_limit is None else float(time_limit),
            model=load_model(model),
            options=check_backend_options(names, options),
            metamorphic=metamorphic,
            seed=seed,
        )


@pickled_by_fields
@dataclass(slots=True)
class _Item:
    """One puzzle on its way through the batch (``puzzle`` is None for an invalid input)."""

    index: int
    id: str
    line: int | None
    source: str | None
    text: str
    puzzle: Puzzle | None  # travels to the worker as is: unpickling skips the checks
    error: str | None = None
    known: dict[str, BackendRun] | None = None
    crashes: Counter | None = None
    attempts: int = 0
    pending: PendingRecord | None = None  # a line still to parse (in the worker)


def _resolve(items: Sequence[_Item]) -> None:
    """Parse the items' pending lines, wherever the items now are (a worker, as a rule), all
    together (:func:`formats.parse_pending` checks their givens at once)."""
    waiting = [item for item in items if item.pending is not None]
    if not waiting:
        return
    records = parse_pending([item.pending for item in waiting])  # type: ignore[misc]
    for item, record in zip(waiting, records, strict=True):
        item.pending = None
        _take_record(item, record)


def _take_record(item: _Item, record: PuzzleRecord) -> None:
    """Fill ``item`` from a formats record: the one rule for its id, line, text and error."""
    item.id = str(record.id if record.id is not None else item.index)
    item.line = getattr(record, "line", None)
    item.puzzle = record.puzzle
    if record.puzzle is None:
        item.text = getattr(record, "text", "") or ""
        item.error = record.error or "not a puzzle"
    else:
        item.text, item.error = "", None


# --- the Python API ------------------------------------------------------------------------------
def check_puzzles(
    puzzles: Iterable[Any],
    backends: Iterable[str] | str | None = None,
    *,
    limit: int | None = DEFAULT_LIMIT,
    time_limit: float | None = None,
    jobs: int | None = None,
    model: Model | str = "classic",
    options: Mapping[str, Mapping[str, Any]] | None = None,
    skip: Callable[[int], bool] | None = None,
    metamorphic: int = 0,
    seed: int = 0,
) -> Iterator[CheckRecord]:
    """Cross-check many puzzles; yield each record as soon as it is known (completion order).

    ``puzzles`` is any iterable — read lazily — of :class:`Puzzle` objects, puzzle texts, grids
    or the records of :func:`sudoku_cp.formats.read_input`; an item that is not a puzzle yields
    an ``invalid`` record and the rest go on. ``jobs`` worker processes (default: every core)
    each run every backend on a puzzle, with ``time_limit`` enforced by stopping a worker whose
    backend overruns; ``jobs=0`` checks in this process, where the time limit is only the
    backends' own. Each record's ``index`` is the item's 1-based position; ``skip(index)``
    returning True leaves an item out (used by ``--resume``). ``metamorphic=K`` also
    cross-checks K random transforms of each puzzle, chosen by ``seed``, which must agree
    (:func:`sudoku_cp.harness.check_variants`).

    Stopping the iteration early (``break``) shuts the worker processes down.
    """
    config = CheckConfig.make(
        backends, limit=limit, time_limit=time_limit, model=model, options=options,
        metamorphic=metamorphic, seed=seed,
    )
    items = _items_from(puzzles, config.model, skip)
    return run_items(items, config, default_jobs() if jobs is None else jobs)


def _items_from(
    puzzles: Iterable[Any], model: Model, skip: Callable[[int], bool] | None
) -> Iterator[_Item]:
    for index, entry in enumerate(puzzles, start=1):
        if skip is not None and skip(index):
            continue
        yield _item(entry, index, model)


def _item(entry: Any, index: int, model: Model, source: str | None = None) -> _Item:
    """Whatever the caller gave, as an item: a Puzzle, text, a grid or a formats record."""
    if isinstance(entry, PendingRecord):  # a line of a file, the usual case: fields in order
        return _Item(index, str(index), entry.line, source, "", None, None, None, None, 0, entry)
    if hasattr(entry, "puzzle") and hasattr(entry, "error"):  # a formats.PuzzleRecord
        item = _Item(index, "", None, source, "", None)
        _take_record(item, entry)
        return item
    if isinstance(entry, Puzzle):
        return _Item(index, str(index), None, source, "", entry)
    try:
        puzzle = (
            Puzzle.parse(entry, model=model) if isinstance(entry, str) else Puzzle(entry, model)
        )
    except SudokuError as err:
        return _Item(index, str(index), None, source, str(entry), None, str(err))
    return _Item(index, str(index), None, source, "", puzzle)


def run_items(items: Iterable[_Item], config: CheckConfig, jobs: int) -> Iterator[CheckRecord]:
    """The records of ``items``, checked in ``jobs`` worker processes (0: in this process)."""
    batches = run_batches(items, config, jobs)
    try:
        for batch in batches:
            yield from batch
    finally:
        batches.close()  # stops the workers when the caller stops early


def run_batches(
    items: Iterable[_Item], config: CheckConfig, jobs: int
) -> Generator[list[CheckRecord], None, None]:
    """The records of ``items`` in the batches they become known: a worker's whole chunk at
    once (in this process too, ``jobs=0``: a chunk at a time, the first puzzle alone)."""
    if jobs < 0:
        raise SudokuError(f"jobs must be 0 (in this process) or more, not {jobs}")
    if jobs == 0:
        return _run_here(items, config)
    return _WorkerPool(config, jobs).run(iter(items))


def _run_here(
    items: Iterable[_Item], config: CheckConfig
) -> Generator[list[CheckRecord], None, None]:
    """Check in this process, in chunks sized like the workers' (the first puzzle alone, so
    that its record comes at once), each chunk stage by stage as a worker does it."""
    runners = [(n, get_backend(n), config.options.get(n, {})) for n in config.backends]
    items = iter(items)
    sizer = _ChunkSizer()
    while chunk := list(itertools.islice(items, sizer.size)):
        start = time.perf_counter()
        records = _check_chunk(chunk, config, runners)
        sizer.adapt((time.perf_counter() - start) / len(chunk))
        yield records


class _ChunkSizer:
    """Chunks sized so that one takes about CHUNK_SECONDS (smoothed over recent chunks)."""

    def __init__(self) -> None:
        self.size = 1
        self.per_item: float | None = None

    def adapt(self, per_item: float) -> None:
        self.per_item = per_item if self.per_item is None else 0.7 * self.per_item + 0.3 * per_item
        self.size = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / max(self.per_item, 1e-6))))


def _invalid(item: _Item) -> CheckRecord:
    return invalid_record(
        item.id, item.text, item.error or "not a puzzle",
        index=item.index, line=item.line, source=item.source,
    )


def _judge_item(
    item: _Item,
    outcomes: Mapping[str, Outcome],
    config: CheckConfig,
    runners: Sequence[Any],
    before: Callable[[int], None] | None = None,
    after: Callable[[], None] | None = None,
    valid: Mapping[str, Sequence[bytes | None]] | None = None,
) -> CheckRecord:
    """The item's record from its backends' runs (and its transformed copies', if asked);
    ``valid`` is as for :func:`judge`."""
    puzzle = item.puzzle
    assert puzzle is not None
    record = judge(
        puzzle, outcomes, id=item.id, index=item.index, line=item.line, source=item.source,
        valid=valid,
    )
    if config.metamorphic:
        # The variants run under the same watchdog: a backend stopped on any of them is known
        # as timed out for the whole puzzle when it is retried, so a retry cannot loop.
        record = check_variants(
            puzzle, record, runners, transforms_for(puzzle, config.metamorphic, config.seed),
            limit=config.limit, time_limit=config.time_limit, known=item.known,
            before=before, after=after,
        )
    return record


# --- the worker side -----------------------------------------------------------------------------
# Each slot of the shared array is three doubles: [start, what, pid]. ``start`` is the
# time.monotonic() at which the current backend call began (0 when idle); ``what`` encodes the
# puzzle's position in the chunk, the backend's position and whether this is the backend's first
# call in this worker (pos * 1024 + first * 512 + backend). A worker clears ``start`` before
# changing ``what``, so a reader that sees the same ``start`` before and after reading ``what``
# has a consistent pair — no lock, which a killed worker could leave held.
_SLOT = 3
_FIRST = 512
_WORKER: dict[str, Any] = {}


def _init_worker(config: CheckConfig, slots: Any, extra: Sequence[type]) -> None:
    """Runs once in each worker: keep the config and import every backend's library now.

    Importing here, before any task, keeps a library's import time (OR-tools takes a while) out
    of the first puzzle's time limit. It must never raise: a failing initializer makes pebble
    restart the worker forever.
    """
    try:
        for cls in extra:
            register(cls, replace=True)  # spawn only; under fork they are already there
        _WORKER["config"] = config
        _WORKER["slots"] = slots
        _WORKER["runners"] = [
            (name, get_backend(name), config.options.get(name, {})) for name in config.backends
        ]
        for name in config.backends:
            backend_class(name).unavailable_reason()
        tune_gc()
    except Exception as err:  # reported by the first task instead
        _WORKER["failed"] = err


BATCH_GC_THRESHOLD = 50_000
"""Container allocations between two young-generation collections in a worker process or the
command line's own (Python's default is 700)."""


def tune_gc() -> Callable[[], None]:
    """Garbage collection tuned for batch checking, in a process the batch owns (a worker, the
    command line) — never a caller's own. Returns a function that puts it back.

    A chunk's records, puzzles and results stay alive until the chunk is done, and with the
    default threshold the collector walks them again and again — about a tenth of the
    harness's own time per puzzle. A higher threshold lets almost all of them be freed (by
    reference counting) before any collection; freezing what the imports made (OR-tools and
    the rest) keeps the rare full collection from walking it too.
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(BATCH_GC_THRESHOLD, *thresholds[1:])

    def restore() -> None:
        gc.unfreeze()
        gc.set_threshold(*thresholds)

    return restore


def _work(slot: int, items: list[_Item]) -> tuple[list[CheckRecord], float]:
    """Check a chunk of puzzles in a worker; return their records and the seconds it took."""
    if "failed" in _WORKER:
        raise _WORKER["failed"]
    start = time.perf_counter()
    watch = _Watchdog(_WORKER["slots"], slot, _WORKER.setdefault("called", set()))
    records = _check_chunk(items, _WORKER["config"], _WORKER["runners"], watch,
                           _WORKER.get("stages"))
    return records, time.perf_counter() - start


class _Watchdog:
    """A worker's side of the watchdog: which backend call is running, since when, in its slot
    of the shared array (the parent reads it and stops a worker that overruns)."""

    __slots__ = ("slots", "base", "called", "position")

    def __init__(self, slots: Any, slot: int, called: set[int]) -> None:
        self.slots = slots
        self.base = slot * _SLOT
        self.called = called  # backends this worker has called before (the first call is slow)
        self.position = 0  # the puzzle's position in the chunk
        slots[self.base + 2] = float(os.getpid())

    def before(self, backend: int) -> None:
        first = 0 if backend in self.called else _FIRST
        self.called.add(backend)
        slots, base = self.slots, self.base
        slots[base] = 0.0
        slots[base + 1] = float(self.position * 1024 + first + backend)
        slots[base] = time.monotonic()

    def after(self) -> None:
        self.slots[self.base] = 0.0


def _check_chunk(
    items: list[_Item],
    config: CheckConfig,
    runners: Sequence[Any],
    watch: _Watchdog | None = None,
    stages: dict[str, float] | None = None,
) -> list[CheckRecord]:
    """The records of a chunk of items (in a worker, or in this process for ``--jobs 0``).

    The chunk goes stage by stage — parse every puzzle, call the backends on every one, read
    what they returned, validate every solution at once, judge each puzzle — which runs the
    harness's own code far faster than taking each puzzle through all stages: its code and
    data stay in the CPU's caches, and the checks of parsing and validation run on the whole
    chunk together. ``stages`` (the harness benchmark's) gets the time of parsing and of the
    rest, backends' time included.
    """
    clock = time.perf_counter
    start = clock()
    before = None if watch is None else watch.before
    after = None if watch is None else watch.after
    _resolve(items)
    parsed = clock()
    calls = []
    for position, item in enumerate(items):
        if watch is not None:
            watch.position = position
        calls.append(None if item.puzzle is None else call_backends(
            item.puzzle, runners, limit=config.limit, time_limit=config.time_limit,
            known=item.known, before=before, after=after,
        ))
    outcomes = [None if call is None else read_calls(call, config.limit) for call in calls]
    ran_on = [(item.puzzle, ran) for item, ran in zip(items, outcomes, strict=True)
              if ran is not None]
    valid = iter(validate_many([p for p, _ in ran_on], [ran for _, ran in ran_on]))  # type: ignore[misc]
    records = []
    for position, (item, ran) in enumerate(zip(items, outcomes, strict=True)):
        if ran is None:
            records.append(_invalid(item))
            continue
        if watch is not None:
            watch.position = position  # (metamorphic variants call the backends again)
        records.append(_judge_item(item, ran, config, runners, before, after, next(valid)))
    if stages is not None:
        stages["parsing"] += parsed - start
        stages["checking"] += clock() - parsed
    return records


# --- the parent side -----------------------------------------------------------------------------
@dataclass(slots=True)
class _Chunk:
    items: list[_Item]
    slot: int
    killed: tuple[int, str, float] | None = None  # (position, backend, seconds) when timed out


class _WorkerPool:
    """A pebble process pool, a bounded window of chunks in flight, and the watchdog."""

    def __init__(self, config: CheckConfig, jobs: int) -> None:
        self.config = config
        self.jobs = jobs
        self.window = 2 * jobs + 1
        self.sizer = _ChunkSizer()
        self.inflight: dict[Any, _Chunk] = {}
        self.retry: deque[_Item] = deque()
        # Twice the window: the slot of a stopped worker stays out of use until that process is
        # gone, so a worker still finishing its last call cannot scribble on a reused slot.
        self.free = list(range(2 * self.window))
        self.quarantine: dict[int, int] = {}  # slot -> pid of the worker being stopped
        self.limit = config.time_limit
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.slots = self.context.RawArray("d", _SLOT * 2 * self.window)
        extra = [backend_class(n) for n in config.backends if n not in _BUILTIN]

        from pebble import ProcessPool

        self.pool = ProcessPool(
            max_workers=jobs, initializer=_init_worker,
            initargs=(config, self.slots, extra), context=self.context,
        )

    def run(self, items: Iterator[_Item]) -> Generator[list[CheckRecord], None, None]:
        finished = False
        try:
            exhausted = False
            while True:
                self._release_quarantine()
                while len(self.inflight) < self.window and self.free:
                    chunk: list[_Item] = []
                    if self.retry:
                        chunk.append(self.retry.popleft())  # retried puzzles travel alone
                    while not exhausted and len(chunk) < self.sizer.size and not self.retry:
                        item = next(items, None)
                        if item is None:
                            exhausted = True
                        elif item.puzzle is None and item.pending is None:
                            yield [_invalid(item)]  # no backend to run: answer at once
                        else:
                            chunk.append(item)
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

    def _submit(self, items: list[_Item]) -> None:
        slot = self.free.pop()
        future = self.pool.schedule(_work, args=(slot, items))
        self.inflight[future] = _Chunk(items, slot)

    def _collect(self, future: Any) -> Iterator[list[CheckRecord]]:
        chunk = self.inflight.pop(future)
        running = self._running(chunk.slot)
        if chunk.killed is not None:
            self.quarantine[chunk.slot] = int(self.slots[chunk.slot * _SLOT + 2])
        else:
            self._free_slot(chunk.slot)
        try:
            records, seconds = future.result()
        except CancelledError:
            self._requeue_killed(chunk)
            return
        except Exception as err:  # the worker died (ProcessExpired) or the task failed
            yield from self._requeue_crashed(chunk, running, err)
            return
        self.sizer.adapt(seconds / len(chunk.items))
        yield records

    def _free_slot(self, slot: int) -> None:
        base = slot * _SLOT
        self.slots[base] = self.slots[base + 1] = self.slots[base + 2] = 0.0
        self.free.append(slot)

    def _release_quarantine(self) -> None:
        """Free the slots of stopped workers that have really gone."""
        for slot, pid in list(self.quarantine.items()):
            if not _alive(pid):
                del self.quarantine[slot]
                self._free_slot(slot)

    def _running(self, slot: int) -> tuple[int, int, float, bool] | None:
        """(puzzle position, backend position, start, first call?) of the call in ``slot``."""
        base = slot * _SLOT
        start = self.slots[base]
        what = self.slots[base + 1]
        if start == 0.0 or self.slots[base] != start:
            return None
        position, rest = divmod(int(what), 1024)
        return position, rest % _FIRST, start, rest >= _FIRST

    def _watch(self) -> None:
        """Cancel every task whose current backend call has overrun its time limit."""
        assert self.limit is not None
        deadline = self.limit + grace_seconds(self.limit)
        cold = deadline + first_call_grace(self.limit)
        now = time.monotonic()
        for future, chunk in self.inflight.items():
            if chunk.killed is not None:
                continue
            running = self._running(chunk.slot)
            if running is None or now - running[2] <= (cold if running[3] else deadline):
                continue
            position, backend, start, _ = running
            if future.cancel():  # pebble stops the worker safely and starts a new one
                chunk.killed = (position, self.config.backends[backend], now - start)

    def _requeue_killed(self, chunk: _Chunk) -> None:
        """A chunk stopped for a backend's overrun: record the timeout, retry every puzzle."""
        assert chunk.killed is not None
        position, backend, seconds = chunk.killed
        for number, item in enumerate(chunk.items):
            if number == position:
                item.known = dict(item.known or {})
                item.known[backend] = BackendRun(
                    Status.TIMEOUT, seconds=seconds,
                    error=f"stopped after {seconds:.3g} s (time limit {self.limit:g} s)",
                )
            self.retry.append(item)

    def _requeue_crashed(
        self, chunk: _Chunk, running: tuple[int, int, float, bool] | None, err: BaseException
    ) -> Iterator[list[CheckRecord]]:
        """A worker died or the task failed: retry its puzzles alone; blame a repeat offender."""
        why = _death(err)
        if len(chunk.items) > 1:
            self.retry.extend(chunk.items)  # not knowing which puzzle did it, retry each alone
            return
        item = chunk.items[0]
        item.attempts += 1
        if running is not None:
            backend = self.config.backends[running[1]]
            item.crashes = item.crashes or Counter()
            item.crashes[backend] += 1
            if item.crashes[backend] >= CRASHES_TO_BLAME:
                item.known = dict(item.known or {})
                item.known[backend] = BackendRun(
                    Status.ERROR, seconds=time.monotonic() - running[2],
                    error=f"{why} while running it ({item.crashes[backend]} times)",
                )
        if item.attempts < MAX_ATTEMPTS:
            self.retry.append(item)
            return
        # Give up: every backend not yet decided is recorded as failed, and judged here.
        _resolve([item])
        if item.puzzle is None:
            yield [_invalid(item)]
            return
        item.known = dict(item.known or {})
        for name in self.config.backends:
            item.known.setdefault(
                name, BackendRun(Status.ERROR, error=f"{why} ({MAX_ATTEMPTS} tries)")
            )
        yield _check_chunk([item], self.config, [(n, None, {}) for n in self.config.backends])


def _alive(pid: int) -> bool:
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


def _death(err: BaseException) -> str:
    """A short description of how a worker's task ended badly."""
    code = getattr(err, "exitcode", None)
    if code is not None and code < 0:
        try:
            return f"worker process killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"worker process killed by signal {-code}"
    if code is not None:
        return f"worker process exited with status {code}"
    return f"worker task failed: {type(err).__name__}: {err}"


# --- output --------------------------------------------------------------------------------------
def count_text(record: CheckRecord) -> str:
    """``1``, ``>=2`` or ``-``: how many solutions, marking a count that is only a lower bound."""
    if record.verdict is Verdict.INVALID:
        return "-"
    return str(record.count) if record.exact else f">={record.count}"


class RecordWriter:
    """Writes records as whole lines, with one ``write`` call per batch, as soon as they come.

    Whole lines in one ``os.write`` mean a killed process leaves at most one torn line at the
    end (which ``--resume`` drops), and nothing sits in a buffer: what was written is on its
    way to the disk even if the process dies the next moment.
    """

    def __init__(self, fmt: str, backends: Sequence[str], path: Path | None = None, *,
                 append: bool = False, stream: TextIO | None = None) -> None:
        if fmt not in FORMATS + ("count",):
            raise SudokuError(f"unknown output format '{fmt}' (choose from: {', '.join(FORMATS)})")
        self.fmt = fmt
        self.backends = list(backends)
        self.path = path
        self.stream = stream
        self.fd: int | None = None
        self.written = 0
        self.columns = csv_columns(self.backends) if fmt == "csv" else []
        if path is not None:
            flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (0 if append else os.O_TRUNC)
            try:
                self.fd = os.open(path, flags, 0o644)
                # Writing nothing costs nothing, yet fails at once where every write would
                # (/dev/full, a broken mount): better now than after the first results.
                os.write(self.fd, b"")
            except OSError as err:
                self.close()
                reason = err.strerror
                if err.errno == errno.ENOENT and path.parent.is_dir():  # e.g. under /proc
                    reason = f"folder {path.parent} does not take new files"
                raise OutputError(f"cannot write output file {path}: {reason}") from None
        fresh = not append or (path is not None and os.path.getsize(path) == 0)
        if fresh:
            self._emit(self.header())

    def header(self) -> str:
        if self.fmt == "csv":
            return _csv_line(self.columns)
        if self.fmt == "table":
            cells = "".join(f"{name[:11]:<12}" for name in self.backends)
            return f"{'id':<16} {'verdict':<13}{'count':>6}  {cells}note\n"
        return ""

    def write(self, record: CheckRecord) -> None:
        self.write_many([record])

    def write_many(self, records: Sequence[CheckRecord]) -> None:
        """Several records with one ``write`` call (records that became known together)."""
        if self.fmt == "jsonl":
            self._emit(b"".join(json_line(record.to_dict()) for record in records))
        else:
            self._emit("".join(map(self._text, records)))
        self.written += len(records)

    def _text(self, record: CheckRecord) -> str:
        if self.fmt == "csv":
            row = csv_row(record, self.backends)
            return _csv_line([row.get(c, "") for c in self.columns])
        if self.fmt == "count":
            return f"{record.id}: {_count_sentence(record)}\n"
        return table_row(record, self.backends)

    def _emit(self, text: str | bytes) -> None:
        if not text:
            return
        if self.fd is None:
            stream = self.stream or sys.stdout  # looked up each time: rich may redirect it
            stream.write(text.decode("utf-8") if isinstance(text, bytes) else text)
            stream.flush()
            return
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        sent = 0
        try:
            while sent < len(data):
                sent += os.write(self.fd, data[sent:])
        except OSError as err:
            # whole lines of this batch that did reach the file count as written
            self.written += data.count(b"\n", 0, sent)
            raise OutputError(
                f"writing {self.path} failed after {self.written} records: {err.strerror}; "
                "make room and run the same command again with --resume"
            ) from None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def json_line(data: Mapping[str, Any]) -> bytes:
    """One JSON Lines record, UTF-8, newline included.

    orjson writes a record about ten times faster than the json module, which matters when a
    file has millions of them; anything it refuses (a key that is not a string, an integer
    beyond 64 bits) goes through the json module instead. Both read back the same.
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)
    except (TypeError, orjson.JSONEncodeError):
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
        return (text + "\n").encode("utf-8")


def _count_sentence(record: CheckRecord) -> str:
    if record.verdict is Verdict.INVALID:
        return f"invalid: {record.reason}"
    if record.verdict in (Verdict.DISAGREEMENT, Verdict.UNDECIDED):
        found = f"{record.count} found so far; " if record.count else ""
        return f"{record.verdict.value}: {found}{record.reason}"
    plural = "" if record.count == 1 else "s"
    if record.exact:
        return f"exactly {record.count} solution{plural}"
    return f"at least {record.count} solution{plural}"


def table_row(record: CheckRecord, backends: Sequence[str]) -> str:
    """One fixed-width line for people: id, verdict, count, each backend's time, a note."""
    cells = []
    for name in backends:
        run = record.backends.get(name)
        if run is None:
            cell = "-"
        elif run.problems:
            cell = "WRONG"
        elif run.status in (Status.TIMEOUT, Status.ERROR):
            cell = run.status.value
        else:
            cell = _ms(run.seconds)
        cells.append(f"{cell:<12}")
    note = record.reason or ""
    return (f"{record.id[:16]:<16} {record.verdict.value:<13}{count_text(record):>6}  "
            f"{''.join(cells)}{note}".rstrip() + "\n")


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:.2f} ms" if ms < 10 else f"{ms:.1f} ms" if ms < 1000 else f"{seconds:.2f} s"


def csv_columns(backends: Sequence[str]) -> list[str]:
    """The CSV header: the record's fields, then per backend its run and its counters."""
    columns = ["id", "index", "line", "source", "puzzle", "verdict", "count", "exact",
               "solution_1", "solution_2", "reason"]
    for name in backends:
        columns += [f"{name}.{part}" for part in
                    ("status", "count", "exact", "seconds", "error", "problems")]
        columns += [f"{name}.{counter}" for counter in backend_class(name).counters]
    return columns


def csv_row(record: CheckRecord, backends: Sequence[str]) -> dict[str, Any]:
    """The record flattened to one CSV row (keys as in :func:`csv_columns`)."""
    row: dict[str, Any] = {
        "id": record.id, "index": record.index, "line": record.line, "source": record.source,
        "puzzle": record.puzzle, "verdict": record.verdict.value, "count": record.count,
        "exact": record.exact, "reason": record.reason,
    }
    for number, solution in enumerate(record.solutions[:2], start=1):
        row[f"solution_{number}"] = solution
    for name in backends:
        run = record.backends.get(name)
        if run is None:
            continue
        row.update({
            f"{name}.status": run.status.value, f"{name}.count": run.count,
            f"{name}.exact": run.exact, f"{name}.seconds": round(run.seconds, 6),
            f"{name}.error": run.error, f"{name}.problems": " | ".join(run.problems),
        })
        for counter, value in run.counters.items():
            row[f"{name}.{counter}"] = value
    return row


def _csv_line(values: Sequence[Any]) -> str:
    buffer = io.StringIO()
    cleaned = ["" if v is None else " ".join(str(v).split()) for v in values]  # one line each
    csv.writer(buffer, lineterminator="\n").writerow(cleaned)
    return buffer.getvalue()


def read_records(path: str | Path) -> Iterator[CheckRecord]:
    """The records of a JSON Lines or CSV result file, skipping a torn last line.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "r.jsonl"
    >>> _ = out.write_text('{"id": "a", "puzzle": "1", "verdict": "unique"}\\n{"id": "b", "pu')
    >>> [r.id for r in read_records(out)]
    ['a']
    """
    path = Path(path)
    with path.open("rb") as handle:
        if path.suffix.lower() == ".csv":
            yield from _read_csv(handle)
            return
        for raw in handle:
            if not raw.endswith(b"\n"):
                break  # torn by a killed writer
            text = raw.strip()
            if text:
                try:
                    yield CheckRecord.from_dict(json.loads(text))
                except (ValueError, KeyError, TypeError):
                    continue


def _read_csv(handle: Any) -> Iterator[CheckRecord]:
    lines = (raw.decode("utf-8") for raw in handle if raw.endswith(b"\n"))
    for row in csv.DictReader(lines):
        try:
            yield _record_from_row(row)
        except (ValueError, KeyError, TypeError):
            continue


def _record_from_row(row: Mapping[str, str]) -> CheckRecord:
    backends: dict[str, BackendRun] = {}
    for key, value in row.items():
        name, dot, part = (key or "").rpartition(".")
        if not dot or part != "status" or not value:
            continue
        counters = {}
        for column, cell in row.items():
            prefix, _, counter = (column or "").rpartition(".")
            if prefix == name and counter not in (
                "status", "count", "exact", "seconds", "error", "problems"
            ) and cell:
                counters[counter] = float(cell) if "." in cell or "e" in cell else int(cell)
        backends[name] = BackendRun(
            status=Status(value), count=int(row[f"{name}.count"] or 0),
            exact=row[f"{name}.exact"] == "True", seconds=float(row[f"{name}.seconds"] or 0),
            counters=counters, error=row[f"{name}.error"] or None,
            problems=[p for p in (row[f"{name}.problems"] or "").split(" | ") if p],
        )
    return CheckRecord(
        id=row["id"], puzzle=row["puzzle"], verdict=Verdict(row["verdict"]),
        count=int(row["count"] or 0), exact=row["exact"] == "True",
        solutions=[s for s in (row.get("solution_1"), row.get("solution_2")) if s],
        backends=backends, reason=row.get("reason") or None, index=int(row["index"]),
        line=int(row["line"]) if row.get("line") else None, source=row.get("source") or None,
    )


# --- resume --------------------------------------------------------------------------------------
class IndexSet:
    """The input positions already done, in little memory: all up to a mark, plus a few more.

    Results are written roughly in input order, so nearly every done index is below the mark.
    """

    def __init__(self, indices: Iterable[int] = ()) -> None:
        ordered = sorted(set(indices))
        mark = 0
        for value in ordered:
            if value != mark + 1:
                break
            mark = value
        self.mark = mark
        self.above = {v for v in ordered if v > mark}
        self.size = len(ordered)

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and (0 < index <= self.mark or index in self.above)

    def __len__(self) -> int:
        return self.size


def repair_torn_tail(path: Path) -> int:
    """Cut a last line without its newline (left by a killed writer); return bytes dropped."""
    size = path.stat().st_size
    if size == 0:
        return 0
    with path.open("rb+") as handle:
        step = 1 << 16
        end = size
        while end > 0:
            start = max(0, end - step)
            handle.seek(start)
            block = handle.read(end - start)
            cut = block.rfind(b"\n")
            if cut >= 0:
                keep = start + cut + 1
                break
            end = start
        else:
            keep = 0
        if keep < size:
            handle.truncate(keep)
        return size - keep


# --- the experiment record (sidecar) -------------------------------------------------------------
def meta_path(output: Path) -> Path:
    """``results.jsonl`` → ``results.jsonl.meta.json``."""
    return output.with_name(output.name + ".meta.json")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def describe_input(arg: str) -> dict[str, Any]:
    """What an INPUT argument is, with a hash of its content when it is a file."""
    path = _input_path(arg)
    if arg == "-":
        return {"arg": arg, "kind": "stdin", "sha256": None}
    if path is None:
        return {"arg": arg, "kind": "text",
                "sha256": hashlib.sha256(arg.encode("utf-8")).hexdigest()}
    return {"arg": arg, "kind": "file", "path": str(path.resolve()),
            "bytes": path.stat().st_size, "sha256": file_sha256(path)}


def _input_path(arg: str) -> Path | None:
    if arg == "-":
        return None
    path = Path(arg)
    if path.is_file():
        return path
    from .datasets import bundled_file

    return bundled_file(arg)


def machine() -> dict[str, Any]:
    """The CPU model, core counts and platform, for the experiment record."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "usable_cores": default_jobs(),
            "platform": platform.platform(), "machine": platform.machine()}


def versions(backends: Sequence[str]) -> dict[str, Any]:
    from . import __version__

    libraries = {}
    for name in backends:
        cls = backend_class(name)
        libraries[name] = (
            {"library": cls.requires[1], "version": cls.version()} if cls.requires
            else {"library": None, "version": None}
        )
    return {
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "sudoku_cp": __version__,
        "pebble": _dist_version("pebble"),
        "backends": libraries,
    }


def _dist_version(name: str) -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def _write_json_atomically(path: Path, data: Any) -> None:
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from None


# --- the summary ---------------------------------------------------------------------------------
class _Times:
    """Median and worst of many durations in constant memory: a log-scale histogram.

    Bins are 1% wide, so the median is exact to within 1% however many puzzles are checked.
    """

    RATIO = math.log(1.01)

    def __init__(self) -> None:
        self.bins: Counter[int] = Counter()
        self.count = 0
        self.worst = 0.0

    def add(self, seconds: float) -> None:
        self.bins[math.floor(math.log(max(seconds, 1e-9)) / self.RATIO)] += 1
        self.count += 1
        self.worst = max(self.worst, seconds)

    def median(self) -> float | None:
        if not self.count:
            return None
        half, seen = (self.count + 1) / 2, 0
        for key in sorted(self.bins):
            seen += self.bins[key]
            if seen >= half:
                return min(math.exp((key + 0.5) * self.RATIO), self.worst)
        return self.worst


@dataclass
class BackendTally:
    solved: int = 0
    timeouts: int = 0
    errors: int = 0
    wrong: int = 0
    times: _Times = field(default_factory=_Times)


@dataclass
class Summary:
    """Puzzles per verdict and, per backend, solved / timed out / failed / wrong and times."""

    backends: list[str]
    verdicts: Counter = field(default_factory=Counter)
    tallies: dict[str, BackendTally] = field(default_factory=dict)
    checked: int = 0
    resumed: int = 0
    seconds: float = 0.0
    interrupted: bool = False

    def add(self, record: CheckRecord, *, resumed: bool = False) -> None:
        self.verdicts[record.verdict] += 1
        if resumed:
            self.resumed += 1
        else:
            self.checked += 1
        for name, run in record.backends.items():
            tally = self.tallies.setdefault(name, BackendTally())
            if run.problems:
                tally.wrong += 1
            elif run.status is Status.TIMEOUT:
                tally.timeouts += 1
            elif run.status is Status.ERROR:
                tally.errors += 1
            else:
                tally.solved += 1
                tally.times.add(run.seconds)

    @property
    def total(self) -> int:
        return self.checked + self.resumed

    @property
    def exit_status(self) -> int:
        """0 every puzzle unique; 1 some multiple, none or invalid; 3 some disagreement or
        undecided (the most serious wins)."""
        return max((v.exit_status for v in self.verdicts), default=0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "puzzles": self.total, "checked_now": self.checked, "resumed": self.resumed,
            "seconds": round(self.seconds, 3),
            "verdicts": {v.value: self.verdicts.get(v, 0) for v in Verdict},
            "backends": {
                name: {"solved": t.solved, "timeouts": t.timeouts, "errors": t.errors,
                       "wrong": t.wrong, "median_seconds": t.times.median(),
                       "worst_seconds": t.times.worst if t.times.count else None}
                for name, t in self.tallies.items()
            },
        }

    def render(self, console: Any) -> None:
        """Print the verdict counts and a per-backend table with a rich ``console``."""
        from rich.table import Table

        rate = self.checked / self.seconds if self.seconds > 0 else 0.0
        resumed = f" (+{self.resumed} from before)" if self.resumed else ""
        verdicts = ", ".join(
            f"{v.value} {self.verdicts[v]}" for v in Verdict if self.verdicts.get(v)
        ) or "no puzzles"
        console.print(
            f"{self.checked} puzzles checked{resumed} in {self.seconds:.2f} s "
            f"({rate:.1f}/s): {verdicts}", highlight=False,
        )
        table = Table("backend", "solved", "timed out", "errors", "wrong", "median", "worst")
        for name in self.backends:
            t = self.tallies.get(name, BackendTally())
            median = t.times.median()
            table.add_row(
                name, str(t.solved), str(t.timeouts), str(t.errors), str(t.wrong),
                _ms(median) if median is not None else "-",
                _ms(t.times.worst) if t.times.count else "-",
            )
        console.print(table)


# --- one batch, as the command line runs it -------------------------------------------------------
@dataclass
class BatchOptions:
    """Everything ``sudoku-cp check`` / ``count`` decide before the batch starts."""

    inputs: Sequence[str]
    config: CheckConfig
    jobs: int
    fmt: str = "table"
    output: Path | None = None
    resume: bool = False
    progress: bool = False
    input_format: str = "auto"
    command: str = "check"
    argv: Sequence[str] = ()


def run_batch(options: BatchOptions, stream: TextIO | None = None) -> Summary:
    """Check every puzzle of ``options.inputs``, writing records and the experiment record.

    Raises :class:`Interrupted` (a KeyboardInterrupt carrying the summary so far) on Ctrl-C
    after writing every finished record, :class:`OutputError` when the output cannot be
    written, and :class:`ResumeError` when ``--resume`` cannot continue the output file.
    """
    config = options.config
    summary = Summary(list(config.backends))
    done = IndexSet()
    meta: dict[str, Any] | None = None
    readers = _open_inputs(options)  # a missing file or bad input fails here, before any work
    inputs_info = [describe_input(arg) for arg in options.inputs]
    if options.output is not None:
        meta, done = _open_run(options, inputs_info, summary)
    writer = RecordWriter(options.fmt, config.backends, options.output,
                          append=options.resume, stream=stream)
    if meta is not None and options.output is not None:
        # Written before any work, once the output itself has opened (so an error names it): a
        # read-only, full or missing place is reported now, not after hours of checking.
        try:
            _write_json_atomically(meta_path(options.output), meta)
        except OutputError:
            writer.close()
            raise
    progress = _Progress(options, len(done)) if options.progress else None
    started = time.perf_counter()
    batches = run_batches(_batch_items(readers, config.model, done), config, options.jobs)
    ctrl_c = _CtrlC()
    try:
        with progress or _nothing(), ctrl_c:
            for batch in batches:
                # A record is written and counted, or neither; the records of a worker's
                # chunk, known together, go out in one write.
                ctrl_c.busy = True
                try:
                    writer.write_many(batch)
                    for record in batch:
                        summary.add(record)
                finally:
                    ctrl_c.busy = False
                ctrl_c.deliver()
                if progress is not None:
                    progress.advance(len(batch))
    except KeyboardInterrupt:
        summary.interrupted = True
        raise Interrupted(summary) from None
    finally:
        batches.close()  # stops the workers whatever happened
        writer.close()
        summary.seconds = time.perf_counter() - started
        if meta is not None and options.output is not None:
            _close_run(meta, options.output, summary)
    return summary


def _batch_items(readers: Iterable[tuple[str, Iterable[Any]]], model: Model,
                 done: IndexSet) -> Iterator[_Item]:
    index = 0
    resuming = len(done) > 0  # (a fresh run skips the lookups)
    for source, records in readers:
        for record in records:
            index += 1
            if resuming and index in done:
                continue
            item = _item(record, index, model, source)
            if source == "text":
                item.id = str(index)  # puzzles given as arguments are numbered across them all
            yield item


def _open_inputs(options: BatchOptions) -> list[tuple[str, Iterable[Any]]]:
    """A reader per input, each already started, so that a missing file fails up front."""
    from .formats import read_input

    readers = []
    for arg in options.inputs:
        # Lines of a file are parsed in the worker processes: the main process only reads
        # and writes, so it keeps up with many workers.
        defer = arg == "-" or _input_path(arg) is not None
        records = iter(read_input(arg, model=options.config.model, fmt=options.input_format,
                                  defer=defer))
        first = next(records, None)  # raises InputError now for a file that cannot be read
        if first is None:
            readers.append((arg, []))
        else:
            readers.append((arg, _chain_first(first, records)))
    return [(_source_name(arg), records) for arg, records in readers]


def _chain_first(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield from rest


def _source_name(arg: str) -> str:
    if arg == "-":
        return "-"
    return arg if _input_path(arg) is not None else "text"


def _open_run(options: BatchOptions, inputs_info: list[dict[str, Any]],
              summary: Summary) -> tuple[dict[str, Any] | None, IndexSet]:
    """Check the output path, read what a resumed run already did, and make the meta (None for
    an output that is a device or a pipe, such as /dev/null: no file to keep a sidecar beside)."""
    output = options.output
    assert output is not None
    if output.is_dir():
        raise OutputError(f"output {output} is a directory")
    if options.resume and options.fmt not in ("jsonl", "csv"):
        raise ResumeError("--resume continues a jsonl or csv output file (see --format)")
    if output.exists() and not output.is_file():
        if options.resume:
            raise ResumeError(f"--resume continues a file, and {output} is a device or a pipe")
        return None, IndexSet()
    sidecar = meta_path(output)
    settings = {
        "command": options.command,
        "backends": list(options.config.backends),
        "limit": options.config.limit,
        "time_limit": options.config.time_limit,
        "model": options.config.model.path or options.config.model.name,
        "backend_options": options.config.options,
        "jobs": options.jobs,
        "format": options.fmt,
        "input_format": options.input_format,
        "metamorphic": options.config.metamorphic,
        "seed": options.config.seed,
    }
    run = {"started": _now(), "finished": None, "argv": list(options.argv),
           "jobs": options.jobs, "time_limit": options.config.time_limit}
    done = IndexSet()
    meta: dict[str, Any] | None = None
    if options.resume and output.exists():
        meta = _load_meta(sidecar)
        if meta is not None:
            _check_same_run(meta, settings, inputs_info)
        indices = array("q")
        try:
            repair_torn_tail(output)
            if options.fmt == "csv":
                _check_csv_header(output, options.config.backends)
            for record in read_records(output):
                indices.append(record.index)
                summary.add(record, resumed=True)
        except (OSError, UnicodeDecodeError) as err:
            reason = getattr(err, "strerror", None) or "not UTF-8 text"
            raise ResumeError(f"cannot resume from {output}: {reason}") from None
        done = IndexSet(indices)
    if meta is None:
        meta = {
            "tool": "sudoku-cp", "settings": settings, "inputs": inputs_info,
            "versions": versions(options.config.backends), "machine": machine(),
            "created": _now(), "runs": [],
        }
    meta["runs"].append(run)
    if not output.parent.exists():
        raise OutputError(
            f"cannot write output file {output}: folder {output.parent} does not exist"
        )
    return meta, done


def _load_meta(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("runs"), list) else None


def _check_same_run(meta: dict[str, Any], settings: dict[str, Any],
                    inputs_info: list[dict[str, Any]]) -> None:
    before = meta.get("settings", {})
    for key in ("command", "backends", "limit", "model", "backend_options", "metamorphic",
                "seed"):
        if key in before and before[key] != settings[key]:
            raise ResumeError(
                f"cannot resume: the output was made with {key} {before[key]!r}, "
                f"not {settings[key]!r}; use the same options or another output file"
            )
    old = [(i.get("arg"), i.get("sha256")) for i in meta.get("inputs", [])]
    new = [(i.get("arg"), i.get("sha256")) for i in inputs_info]
    if [a for a, _ in old] != [a for a, _ in new]:
        raise ResumeError(
            f"cannot resume: the output was made from inputs {[a for a, _ in old]}, "
            f"not {[a for a, _ in new]}"
        )
    for (arg, was), (_, now) in zip(old, new, strict=True):
        if was and now and was != now:
            raise ResumeError(f"cannot resume: input {arg} has changed since the output was made")


def _check_csv_header(output: Path, backends: Sequence[str]) -> None:
    with output.open(encoding="utf-8", newline="") as handle:
        first = handle.readline()
    if first and next(csv.reader([first])) != csv_columns(backends):
        raise ResumeError(f"cannot resume: {output} has other columns than this run would write")


def _close_run(meta: dict[str, Any], output: Path, summary: Summary) -> None:
    run = meta["runs"][-1]
    run.update(finished=_now(), interrupted=summary.interrupted,
               records_written=summary.checked, seconds=round(summary.seconds, 3))
    meta["summary"] = summary.to_dict()
    # The records themselves are safe; a stale sidecar is no reason to fail the run.
    with contextlib.suppress(OutputError):
        _write_json_atomically(meta_path(output), meta)


class _CtrlC:
    """Holds Ctrl-C back while a record is written and counted, then raises it.

    Without this, a KeyboardInterrupt landing between the write and the count leaves a record
    in the file that the summary and the "interrupted after N puzzles" line do not count.
    Only in the main thread, and only over Python's own SIGINT handler (as signals allow).
    """

    def __init__(self) -> None:
        self.busy = False
        self.pending = False
        self.previous: Any = None

    def __enter__(self) -> _CtrlC:
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                self.previous = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: Ctrl-C is not ours to hold
            self.previous = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def _handle(self, signum: int, frame: Any) -> None:
        if self.busy:
            self.pending = True
            return
        raise KeyboardInterrupt

    def deliver(self) -> None:
        """After a held stretch (``busy`` set, then cleared): raise a Ctrl-C that came in it."""
        if self.pending:
            raise KeyboardInterrupt


class _nothing:  # noqa: N801 — a tiny null context manager
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


class _Progress:
    """A rich progress bar on standard error: puzzles done, rate and ETA."""

    def __init__(self, options: BatchOptions, already: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        total = _estimate_total(options.inputs)
        self.progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
            TimeRemainingColumn(), console=Console(stderr=True), transient=False,
        )
        self.task = self.progress.add_task(
            options.command, total=total, completed=already, rate=""
        )
        self.total = total
        self.done = already
        self.started = time.perf_counter()
        self.already = already

    def __enter__(self) -> _Progress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def advance(self, count: int = 1) -> None:
        self.done += count
        elapsed = time.perf_counter() - self.started
        rate = (self.done - self.already) / elapsed if elapsed > 0 else 0.0
        if self.total is not None and self.done > self.total:
            self.total = None
        self.progress.update(self.task, completed=self.done, total=self.total,
                             rate=f"{rate:.1f} puzzles/s")


def _estimate_total(inputs: Sequence[str]) -> int | None:
    """About how many puzzles the inputs hold (lines of files, less a header); None if unknown."""
    total = 0
    for arg in inputs:
        if arg == "-":
            return None
        path = _input_path(arg)
        if path is None:
            total += 1
            continue
        lines = 0
        first = b""
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                if not first:
                    first = block[:200].lower()
                lines += block.count(b"\n")
        if first and not first.endswith(b"\n") and b"\n" not in first[:200]:
            lines += 1
        if b"puzzle" in first.split(b"\n")[0] or first.startswith(b"id"):
            lines -= 1
        total += max(lines, 0)
    return total or None


__all__ = [
    "BatchOptions", "CheckConfig", "IndexSet", "Interrupted", "OutputError", "RecordWriter",
    "ResumeError", "Summary", "check_puzzles", "count_text", "csv_columns", "csv_row",
    "default_jobs", "grace_seconds", "meta_path", "read_records", "repair_torn_tail",
    "run_batch", "run_items",
]
