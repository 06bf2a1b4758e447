"""One batch as the command line runs it (``sudoku-cp check`` / ``count``): inputs opened up
front, records streamed to the output, the sidecar, the summary, progress and Ctrl-C.

Puzzles are read lazily — the lines of a file are parsed in the worker processes, so the main
process only reads and writes and keeps up with many workers — and each record is written as
soon as its chunk comes back (:mod:`.output`). On Ctrl-C every finished record is written and
counted, the workers are stopped and :class:`Interrupted` carries the summary so far.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from ..experiment import describe_input, input_path
from ..model import Model
from .check import run_batches
from .items import BatchOptions, Item, OutputError, make_item
from .output import RecordWriter
from .resume import IndexSet, close_run, meta_path, open_run, write_meta
from .summary import Progress, Summary


class Interrupted(KeyboardInterrupt):  # noqa: N818 — it is a KeyboardInterrupt, named as one
    """Ctrl-C during a batch: finished records are written; ``summary`` says how far it got."""

    def __init__(self, summary: Summary) -> None:
        super().__init__("interrupted")
        self.summary = summary


def run_batch(options: BatchOptions, stream: TextIO | None = None) -> Summary:
    """Check every puzzle of ``options.inputs``, writing records and the experiment record.

    Raises :class:`Interrupted` (a KeyboardInterrupt carrying the summary so far) on Ctrl-C
    after writing every finished record, :class:`OutputError` when the output cannot be
    written, and :class:`ResumeError` when ``--resume`` cannot continue the output file.
    """
    config = options.config
    summary = Summary(list(config.backends), limit=config.limit)
    done = IndexSet()
    meta: dict[str, Any] | None = None
    readers = _open_inputs(options)  # a missing file or bad input fails here, before any work
    inputs_info = [describe_input(arg) for arg in options.inputs]
    if options.output is not None:
        meta, done = open_run(options, inputs_info, summary)
    writer = RecordWriter(
        options.fmt, config.backends, options.output, append=options.resume, stream=stream
    )
    if meta is not None and options.output is not None:
        # Written before any work, once the output itself has opened (so an error names it): a
        # read-only, full or missing place is reported now, not after hours of checking.
        try:
            write_meta(meta_path(options.output), meta)
        except OutputError:
            writer.close()
            raise
    progress = Progress(options, len(done)) if options.progress else None
    started = time.perf_counter()
    batches = run_batches(batch_items(readers, config.model, done), config, options.jobs)
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
            close_run(meta, options.output, summary)
    return summary


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


def _chain_first(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield from rest


def _source_name(arg: str) -> str:
    if arg == "-":
        return "-"
    return arg if input_path(arg) is not None else "text"


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
