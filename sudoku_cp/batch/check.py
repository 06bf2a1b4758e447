"""Checking many puzzles: the Python API (:func:`check_puzzles`) and the check's work for the
worker pool — what a stopped or lost worker means for a puzzle's record.

- **Time limits.** A backend stopped at its time limit (plus the grace, :mod:`.pool`) is
  recorded ``timeout`` for that puzzle, and every puzzle of the chunk is retried on its own,
  the stopped backend not run again (the killed chunk's results were never received, so
  nothing is counted twice).
- **Crashes.** A worker that dies (a segfault in a library, a SIGKILL from outside) loses its
  chunk: the puzzles are retried one per task. A puzzle whose worker dies twice in the same
  backend records ``error`` for that backend, and the other backends still answer; after
  ``MAX_ATTEMPTS`` tries every backend not yet decided is recorded ``error``.

>>> records = check_puzzles(["1234............", "1..2"], ["backtrack"], jobs=0)
>>> sorted((r.index, r.verdict.value) for r in records)
[(1, 'multiple'), (2, 'invalid')]
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from typing import Any

from ..backends import backend_class, is_builtin
from ..errors import SudokuError
from ..harness import DEFAULT_LIMIT
from ..model import Model
from ..result import Status
from ..verdict import BackendRun, CheckRecord
from .executors import open_pool
from .items import CERTIFY_TIME_LIMIT, CheckConfig, Item, default_jobs, items_from, resolve
from .pool import ChunkSizer, Running, Work, describe_death
from .worker import check_chunk, check_task, init_worker, invalid, make_runners

CRASHES_TO_BLAME = 2
"""A backend is blamed for a dead worker only when it was running at both of two deaths."""
MAX_ATTEMPTS = 4


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
    certify: str | None = None,
    shrink: bool = False,
    certify_time_limit: float | None = CERTIFY_TIME_LIMIT,
    rate: bool | str = False,
    scheduler: str | None = None,
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
    (:func:`sudoku_cp.harness.check_variants`). ``backends``: names, ``"all"``, or None /
    ``"auto"`` (the default) for two backends chosen per puzzle by :mod:`sudoku_cp.choice`.
    ``certify=DIR`` certifies every ``unique``,
    ``none`` and ``multiple`` verdict with a checked proof, one file per puzzle in DIR
    (:mod:`sudoku_cp.certify`; needs the ``certify`` extra), each within
    ``certify_time_limit`` seconds (else ``certified: false``, ``timeout: true``).
    ``shrink=True`` shrinks each disagreement to a small reproducer, in the record's
    ``shrunk`` (:mod:`sudoku_cp.shrink`). ``rate=True`` rates each unique puzzle on
    HoDoKu's scale, in the record's ``rating`` (:mod:`sudoku_cp.logic.rating`); ``rate="se"``
    on Sudoku Explainer's (:mod:`sudoku_cp.logic.scales`).
    ``scheduler`` (a Dask scheduler's address, or ``local:N``) runs them on a Dask cluster
    instead of ``jobs`` local workers (:mod:`.cluster`; needs the ``dask`` extra).

    Stopping the iteration early (``break``) shuts the worker processes down.
    """
    config = CheckConfig.make(
        backends,
        limit=limit,
        time_limit=time_limit,
        model=model,
        options=options,
        metamorphic=metamorphic,
        seed=seed,
        certify=certify,
        shrink=shrink,
        certify_time_limit=certify_time_limit,
        rate=rate,
    )
    items = items_from(puzzles, config.model, skip)
    return run_items(items, config, default_jobs() if jobs is None else jobs, scheduler)


def run_items(
    items: Iterable[Item], config: CheckConfig, jobs: int, scheduler: str | None = None
) -> Iterator[CheckRecord]:
    """The records of ``items``, checked in ``jobs`` worker processes (0: in this process) or
    on the Dask cluster ``scheduler``."""
    batches = run_batches(items, config, jobs, scheduler=scheduler)
    try:
        for batch in batches:
            yield from batch
    finally:
        batches.close()  # stops the workers when the caller stops early


def run_batches(
    items: Iterable[Item],
    config: CheckConfig,
    jobs: int,
    hold: Callable[[], bool] | None = None,
    scheduler: str | None = None,
    info: dict[str, Any] | None = None,
) -> Generator[list[CheckRecord], None, None]:
    """The records of ``items`` in the batches they become known: a worker's whole chunk at
    once (in this process too, ``jobs=0``: a chunk at a time, the first puzzle alone).
    ``hold()`` returning True makes the pool take no new items for now (:meth:`WorkerPool.run`);
    in this process items are checked in order, so there is nothing to hold. ``scheduler``
    runs them on a Dask cluster instead of ``jobs`` local workers (:func:`.executors.open_pool`,
    which fills ``info`` for the experiment record)."""
    if jobs < 0:
        raise SudokuError(f"jobs must be 0 (in this process) or more, not {jobs}")
    if jobs == 0 and scheduler is None:
        if info is not None:
            info.update(executor="here", jobs=0)
        return _run_here(items, config)
    pool = open_pool(CheckWork(config), jobs, config.time_limit, scheduler, info)
    return pool.run(iter(items), hold)


WARM_IN_PARENT_BYTES = 256 * 1024
"""Inputs of at least this many bytes (about 3,000 classic lines) have this process load the
backtracker's compiled kernel before the pool forks its workers (:func:`warm_before_fork`)."""


def warm_before_fork(config: CheckConfig, jobs: int, input_bytes: int) -> bool:
    """Load the backtracker's compiled kernel here, once, before ``jobs`` workers are forked,
    when the run is big enough to want it and may use it: forked workers inherit it loaded.

    Otherwise every worker imports numba and loads the kernel itself, each after its first
    0.25 s of pure search (:mod:`sudoku_cp.backends.backtrack.kernel.glue`): on a lent 16-core
    machine (issue 34) that was seconds of CPU a worker, and a 16-worker check of 49,151
    puzzles ran at 4,300/s where a run three times as long reached 20,000/s between them. A
    small run (a few puzzles; or standard input, whose size is unknown) keeps the lazy rule,
    which never loads numba for a quick check. Returns whether it loaded the kernel."""
    import multiprocessing

    if (
        jobs < 2
        or input_bytes < WARM_IN_PARENT_BYTES
        or "backtrack" not in config.backends
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return False
    backtrack = backend_class("backtrack")
    settings = backtrack().check_options(dict(config.options.get("backtrack", {})))
    if settings["strategy"] != "fast" or not settings["kernel"]:
        return False
    from ..backends.backtrack.kernel import glue as backtrack_kernel

    if not backtrack_kernel.installed_and_on():
        return False
    line = backtrack_kernel.warm_up()
    if line:  # a fresh install: said once, here, as a worker that compiled says it
        print(line, file=sys.stderr, flush=True)
    return backtrack_kernel.available()


def _run_here(
    items: Iterable[Item], config: CheckConfig
) -> Generator[list[CheckRecord], None, None]:
    """Check in this process, in chunks sized like the workers' (the first puzzle alone, so
    that its record comes at once), each chunk stage by stage as a worker does it."""
    runners = make_runners(config)
    items = iter(items)
    sizer = ChunkSizer()
    while chunk := list(itertools.islice(items, sizer.size)):
        start = time.perf_counter()
        records = check_chunk(chunk, config, runners)
        sizer.adapt((time.perf_counter() - start) / len(chunk))
        yield records


class CheckWork(Work[Item, CheckRecord]):
    """Puzzles for the pool: chunks of items in, their records out."""

    def __init__(self, config: CheckConfig) -> None:
        extra = [backend_class(n) for n in config.backends if not is_builtin(n)]
        super().__init__(check_task, init_worker, (config, extra))
        self.config = config
        self.preload = tuple(config.backends)

    def here(self, unit: Item) -> list[CheckRecord] | None:
        """An input that is not a puzzle has no backend to run: its record at once."""
        if unit.puzzle is None and unit.pending is None:
            return [invalid(unit)]
        return None

    def stopped(
        self, units: list[Item], running: Running, seconds: float
    ) -> tuple[list[CheckRecord], list[Item]]:
        """A chunk stopped for a backend's overrun: record the timeout, retry every puzzle."""
        backend = self.config.backends[running.call]
        item = units[running.position]
        item.known = dict(item.known or {})
        item.known[backend] = BackendRun(
            Status.TIMEOUT,
            seconds=seconds,
            error=f"stopped after {seconds:.3g} s (time limit {self.config.time_limit:g} s)",
        )
        return [], list(units)

    def lost(
        self, unit: Item, running: Running | None, err: BaseException
    ) -> tuple[list[CheckRecord], list[Item]]:
        """A worker died or the task failed on a lone puzzle: retry it; blame a repeat
        offender; give up after MAX_ATTEMPTS tries."""
        why = describe_death(err)
        item = unit
        item.attempts += 1
        if running is not None:
            backend = self.config.backends[running.call]
            item.crashes = item.crashes or Counter()
            item.crashes[backend] += 1
            if item.crashes[backend] >= CRASHES_TO_BLAME:
                item.known = dict(item.known or {})
                item.known[backend] = BackendRun(
                    Status.ERROR,
                    seconds=time.monotonic() - running.start,
                    error=f"{why} while running it ({item.crashes[backend]} times)",
                )
        if item.attempts < MAX_ATTEMPTS:
            return [], [item]
        # Give up: every backend not yet decided is recorded as failed, and judged here.
        resolve([item])
        if item.puzzle is None:
            return [invalid(item)], []
        item.known = dict(item.known or {})
        for name in self.config.backends:
            item.known.setdefault(
                name, BackendRun(Status.ERROR, error=f"{why} ({MAX_ATTEMPTS} tries)")
            )
        records = check_chunk([item], self.config, [(n, None, {}) for n in self.config.backends])
        return records, []
