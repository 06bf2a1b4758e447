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
- **Time limits.** Each backend gets ``time_limit`` as its own (cooperative) limit. The pool
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

The modules, each with one job:

- :mod:`.items` — the settings of a batch (:class:`CheckConfig`) and its items;
- :mod:`.check` — the Python API (:func:`check_puzzles`) and what a stopped or lost worker
  means for a puzzle's record;
- :mod:`.worker` — the worker side: set-up, checking a chunk stage by stage, :func:`tune_gc`;
- :mod:`.pool` — the process pool, the bounded window, the shared-memory watchdog, kills and
  retries (``check`` and ``bench`` both run on it);
- :mod:`.output` — writing records (JSON Lines, CSV, table) and reading them back;
- :mod:`.resume` — resuming an output file, and the sidecar;
- :mod:`.summary` — the summary and the progress bar;
- :mod:`.command` — one batch as the command line runs it, Ctrl-C included.

>>> from sudoku_cp import Puzzle
>>> records = check_puzzles(["1234............", "1..2"], ["backtrack"], jobs=0)
>>> sorted((r.index, r.verdict.value) for r in records)
[(1, 'multiple'), (2, 'invalid')]
"""

from __future__ import annotations

from ..errors import OutputError
from .check import check_puzzles, run_batches, run_items
from .command import BatchOptions, Interrupted, run_batch
from .items import CheckConfig, ResumeError, default_jobs
from .output import (
    FORMATS,
    RecordWriter,
    count_text,
    csv_columns,
    csv_row,
    json_line,
    read_records,
    table_row,
)
from .pool import grace_seconds
from .resume import IndexSet, meta_path, repair_torn_tail
from .summary import Summary
from .worker import tune_gc

__all__ = [
    "FORMATS",
    "BatchOptions",
    "CheckConfig",
    "IndexSet",
    "Interrupted",
    "OutputError",
    "RecordWriter",
    "ResumeError",
    "Summary",
    "check_puzzles",
    "count_text",
    "csv_columns",
    "csv_row",
    "default_jobs",
    "grace_seconds",
    "json_line",
    "meta_path",
    "read_records",
    "repair_torn_tail",
    "run_batch",
    "run_batches",
    "run_items",
    "table_row",
    "tune_gc",
]
