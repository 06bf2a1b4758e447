"""One batch as the command line runs it (``sudoku-cp check`` / ``count``): inputs opened up
front, records streamed to the output, the sidecar, the summary, progress, Ctrl-C and SIGTERM.

Puzzles are read lazily — the lines of a file are parsed in the worker processes, so the main
process only reads and writes and keeps up with many workers — and each record is written as
soon as its chunk comes back (:mod:`.output`). On Ctrl-C or SIGTERM every finished record is
written and counted, the workers are stopped and :class:`Interrupted` carries the summary so
far. With ``in_order`` (``count`` printing to standard output) records are written in
input order through a bounded reorder buffer (:class:`InputOrder`). An output that is a file
the run reads is refused before anything is written, and the output is locked from before it
is read or truncated until its sidecar's last write (:class:`.output.OutputLock`).
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..errors import ClusterLost
from ..experiment import describe_input, input_path
from ..model import Model
from ..stopping import StopSignals
from ..verdict import CheckRecord
from .check import run_batches, warm_before_fork
from .items import BatchOptions, Item, make_item
from .output import FolderLock, OutputLock, RecordWriter, check_output_apart
from .pool import MAX_CHUNK
from .resume import IndexSet, check_output, close_run, meta_path, open_run, write_meta
from .summary import Progress, Summary


class Interrupted(KeyboardInterrupt):  # noqa: N818 — it is a KeyboardInterrupt, named as one
    """Ctrl-C (or SIGTERM) during a batch: finished records are written; ``summary`` says how
    far it got, ``signum`` which signal stopped it."""

    def __init__(self, summary: Summary, signum: int = signal.SIGINT) -> None:
        super().__init__("interrupted")
        self.summary = summary
        self.signum = signum


def run_batch(
    options: BatchOptions, stream: TextIO | None = None, stop: StopSignals | None = None
) -> Summary:
    """Check every puzzle of ``options.inputs``, writing records and the experiment record.

    Raises :class:`Interrupted` (a KeyboardInterrupt carrying the summary so far) on Ctrl-C
    after writing every finished record, :class:`OutputError` when the output cannot be
    written, and :class:`ResumeError` when ``--resume`` cannot continue the output file.
    ``stop`` is the command's own :class:`~sudoku_cp.stopping.StopSignals`, already entered
    (so that a signal during its start-up is handled too); without it the run takes the
    signals itself. A signal before the first record is written raises a plain
    KeyboardInterrupt (``stop.signum`` says which): nothing of this run is in the output yet.
    """
    if stop is None:
        with StopSignals() as own:
            return run_batch(options, stream, own)
    summary = Summary(
        list(options.config.backends), limit=options.config.limit, auto=options.config.auto
    )
    if options.output is not None:
        check_output(options)  # a folder, --resume of a table: refused before anything else
        # The output is truncated when opened: never when it is a file this run reads. (Before
        # the inputs open: opening a named pipe waits for its writer.)
        check_output_apart(options.output, options.inputs, options.config.model.path)
    readers = _open_inputs(options)  # a missing file or bad input fails here, before any work
    inputs_info = [describe_input(arg) for arg in options.inputs]
    lock: OutputLock | None = None
    if options.output is not None:
        lock = OutputLock(options.output)  # held until the sidecar's last write
    try:
        certify = options.config.certify
        folder = None if certify is None else FolderLock(Path(certify))
        if certify is not None and folder is not None and folder.fd is not None:
            from ..certify.certificate import remove_stale_temporaries

            # A killed run's half-written certificates: this run owns the folder now.
            remove_stale_temporaries(Path(certify))
        if certify is not None and not options.resume:
            from ..certify.batch import refuse_used_folder

            try:
                refuse_used_folder(certify)
            except BaseException:
                assert folder is not None
                folder.release()
                raise
        try:
            return _run_locked(options, readers, inputs_info, summary, stream, stop)
        finally:
            if folder is not None:
                folder.release()
    finally:
        if lock is not None:
            lock.release()


def _run_locked(
    options: BatchOptions,
    readers: list[tuple[str, Iterable[Any]]],
    inputs_info: list[dict[str, Any]],
    summary: Summary,
    stream: TextIO | None,
    ctrl_c: StopSignals,
) -> Summary:
    config = options.config
    done = IndexSet()
    meta: dict[str, Any] | None = None
    if options.output is not None:
        meta, done = open_run(options, inputs_info, summary)
    writer = RecordWriter(
        options.fmt,
        config.backends,
        options.output,
        append=options.resume,
        stream=stream,
        auto=config.auto,
        rating=config.rate,
    )
    if meta is not None and options.output is not None:
        # Written before any work, once the output itself has opened (so an error names it): a
        # read-only, full or missing place is reported now, not after hours of checking.
        try:
            write_meta(meta_path(options.output), meta)
        except BaseException:  # an OutputError, or a signal: the run ends before it began
            writer.close()
            raise
    started = time.perf_counter()
    batches: Any = None
    order = InputOrder(reorder_bound(options.jobs)) if options.in_order else None
    ctrl_c.phase = "running"
    try:
        # From here on the sidecar names this run: a signal, even before the first record
        # (while the pool opens), ends it with the summary and the interrupted mark.
        progress = Progress(options, len(done)) if options.progress else None
        items = batch_items(readers, config.model, done)
        executor: dict[str, Any] = {}
        if meta is not None:
            meta["runs"][-1]["executor"] = executor  # filled once the pool (or cluster) is open
        if order is not None:
            items = order.track(items)
        if options.scheduler is None:
            warm_before_fork(config, options.jobs, _input_bytes(options.inputs))
        batches = run_batches(
            items,
            config,
            options.jobs,
            hold=None if order is None else order.full,
            scheduler=options.scheduler,
            info=executor,
        )
        if meta is not None and options.output is not None and options.scheduler is not None:
            # the cluster's workers are known now: in the sidecar even if this client is killed
            write_meta(meta_path(options.output), meta)
        with progress or _nothing():
            for finished in batches:
                batch = finished if order is None else order.release(finished)
                if not batch:
                    continue
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
    except ClusterLost as err:  # finished records are written: a run to --resume
        summary.interrupted = True
        err.summary = summary
        raise
    except KeyboardInterrupt:
        summary.interrupted = True
        if order is not None and order.held:
            # finished, but waiting for an earlier one: written too (after the gap), and
            # counted, as every finished record is
            ctrl_c.closing = ctrl_c.busy = True
            rest = order.flush()
            writer.write_many(rest)
            for record in rest:
                summary.add(record)
        raise Interrupted(summary, ctrl_c.signum) from None
    finally:
        # Held while the workers stop and the sidecar is finished (a second signal gets
        # through, should stopping the workers hang): the run ends as it stands.
        # (The caller ends the hold: a signal held while the run closed does not undo it.)
        ctrl_c.closing = ctrl_c.busy = True
        if batches is not None:
            batches.close()  # stops the workers whatever happened
        writer.close()
        summary.seconds = time.perf_counter() - started
        if meta is not None and options.output is not None:
            close_run(meta, options.output, summary)
    return summary


REORDER_CHUNKS = 2
"""The reorder buffer of an in-order run holds at most this many pool windows of full chunks."""


def reorder_bound(jobs: int) -> int:
    """The most records taken but not yet written in an in-order run with ``jobs`` workers:
    twice what the pool's window of ``2 × jobs + 1`` chunks of up to ``MAX_CHUNK`` puzzles can
    hold in flight (2,560 records with two workers).

    >>> reorder_bound(2)
    2560
    """
    return REORDER_CHUNKS * (2 * max(jobs, 1) + 1) * MAX_CHUNK


class InputOrder:
    """A reorder buffer: records come in completion order, go out in input order.

    :meth:`track` notes the index of every item handed to the pool, in input order;
    :meth:`release` takes a batch of finished records and gives back those now next in line,
    holding the early ones (keyed by ``index``). :meth:`full` is the pool's back-pressure: once
    ``bound`` items are taken but not released, the pool takes no new ones until the earliest
    finishes — so a slow first puzzle holds at most ``bound`` records, however long the input.
    Indices skipped by the items (``--resume``) are never waited for.

    >>> from types import SimpleNamespace as At
    >>> order = InputOrder(bound=10)
    >>> items = list(order.track(At(index=i) for i in (1, 2, 3)))
    >>> order.release([At(index=2), At(index=3)]), order.full()
    ([], False)
    >>> [r.index for r in order.release([At(index=1)])]
    [1, 2, 3]
    """

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.taken: deque[int] = deque()  # indices handed out, not yet released, in input order
        self.held: dict[int, CheckRecord] = {}
        self.most_held = 0  # the largest the buffer has been (tests read it)

    def track(self, items: Iterable[Item]) -> Iterator[Item]:
        for item in items:
            self.taken.append(item.index)
            yield item

    def full(self) -> bool:
        return len(self.taken) >= self.bound

    def release(self, batch: Sequence[CheckRecord]) -> list[CheckRecord]:
        for record in batch:
            self.held[record.index] = record
        self.most_held = max(self.most_held, len(self.held))
        ready: list[CheckRecord] = []
        while self.taken and self.taken[0] in self.held:
            ready.append(self.held.pop(self.taken.popleft()))
        return ready

    def flush(self) -> list[CheckRecord]:
        """Every held record, in input order, gaps and all (the run is stopping)."""
        rest = [self.held[index] for index in sorted(self.held)]
        self.held.clear()
        self.taken.clear()
        return rest


def batch_items(
    readers: Iterable[tuple[str, Iterable[Any]]], model: Model, done: IndexSet
) -> Iterator[Item]:
    """The items of every input in turn, numbered across them all, less those ``done``."""
    index = 0
    resuming = len(done) > 0  # (a fresh run skips the lookups)
    for source, records in readers:
        for record in records:
            index += 1
            if resuming and index in done:
                continue
            item = make_item(record, index, model, source)
            if source == "text":
                item.id = str(index)  # puzzles given as arguments are numbered across them all
            yield item


def _open_inputs(options: BatchOptions) -> list[tuple[str, Iterable[Any]]]:
    """A reader per input, each already started, so that a missing file fails up front."""
    from ..formats import read_input

    readers: list[tuple[str, Iterable[Any]]] = []
    for arg in options.inputs:
        # Lines of a file are parsed in the worker processes: the main process only reads
        # and writes, so it keeps up with many workers.
        defer = arg == "-" or input_path(arg) is not None
        records = iter(
            read_input(arg, model=options.config.model, fmt=options.input_format, defer=defer)
        )
        first = next(records, None)  # raises InputError now for a file that cannot be read
        if first is None:
            readers.append((arg, []))
        else:
            readers.append((arg, _chain_first(first, records)))
    return [(_source_name(arg), records) for arg, records in readers]


def _input_bytes(inputs: Sequence[str]) -> int:
    """The bytes of the inputs that are files (standard input and text count nothing)."""
    total = 0
    for arg in inputs:
        path = input_path(arg)
        if path is not None:
            with contextlib.suppress(OSError):
                total += path.stat().st_size
    return total


def _chain_first(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield from rest


def _source_name(arg: str) -> str:
    if arg == "-":
        return "-"
    return arg if input_path(arg) is not None else "text"


class _nothing:  # noqa: N801 — a tiny null context manager
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
