"""The worker side of ``check``: set up once per worker, then check chunks of puzzles.

A worker takes its chunk stage by stage (parse all, call the backends on all, then read,
validate and judge all), with the repeated-givens check and the validator each run once on the
whole chunk; ``jobs=0`` checks in the calling process the same way (:func:`check_chunk`). The
workers' (and the command line's) garbage collector is tuned for this (:func:`tune_gc`).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..backends import backend_class, get_backend, register
from ..harness import (
    Outcome,
    Valid,
    call_backends,
    check_variants,
    invalid_record,
    judge,
    read_calls,
    validate_many,
)
from ..result import CheckRecord
from ..transforms import transforms_for
from .items import CheckConfig, Item, resolve
from .pool import Watchdog

_WORKER: dict[str, Any] = {}


def init_worker(config: CheckConfig, extra: Sequence[type]) -> None:
    """Runs once in each worker: keep the config and import every backend's library now.

    Importing here, before any task, keeps a library's import time (OR-tools takes a while) out
    of the first puzzle's time limit. (The pool reports an error raised here through the
    worker's first task.)
    """
    for cls in extra:
        register(cls, replace=True)  # spawn only; under fork they are already there
    _WORKER["config"] = config
    _WORKER["runners"] = [
        (name, get_backend(name), config.options.get(name, {})) for name in config.backends
    ]
    for name in config.backends:
        backend_class(name).unavailable_reason()
    tune_gc()


def check_task(items: list[Item], watch: Watchdog) -> list[CheckRecord]:
    """The pool's task for ``check``: the records of a chunk of items, in a worker."""
    return check_chunk(items, _WORKER["config"], _WORKER["runners"], watch, _WORKER.get("stages"))


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

    >>> restore = tune_gc(); restore()
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(BATCH_GC_THRESHOLD, *thresholds[1:])

    def restore() -> None:
        gc.unfreeze()
        gc.set_threshold(*thresholds)

    return restore


def invalid(item: Item) -> CheckRecord:
    """The ``invalid`` record of an item that is not a puzzle."""
    return invalid_record(
        item.id,
        item.text,
        item.error or "not a puzzle",
        index=item.index,
        line=item.line,
        source=item.source,
    )


def _judge_item(
    item: Item,
    outcomes: Mapping[str, Outcome],
    config: CheckConfig,
    runners: Sequence[Any],
    before: Callable[[int], None] | None = None,
    after: Callable[[], None] | None = None,
    valid: Valid | None = None,
) -> CheckRecord:
    """The item's record from its backends' runs (and its transformed copies', if asked);
    ``valid`` is as for :func:`judge`."""
    puzzle = item.puzzle
    assert puzzle is not None
    record = judge(
        puzzle,
        outcomes,
        id=item.id,
        index=item.index,
        line=item.line,
        source=item.source,
        valid=valid,
        limit=config.limit,
    )
    if config.metamorphic:
        # The variants run under the same watchdog: a backend stopped on any of them is known
        # as timed out for the whole puzzle when it is retried, so a retry cannot loop.
        record = check_variants(
            puzzle,
            record,
            runners,
            transforms_for(puzzle, config.metamorphic, config.seed),
            limit=config.limit,
            time_limit=config.time_limit,
            known=item.known,
            before=before,
            after=after,
        )
    return record


def check_chunk(
    items: list[Item],
    config: CheckConfig,
    runners: Sequence[Any],
    watch: Watchdog | None = None,
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
    resolve(items)
    parsed = clock()
    calls = []
    for position, item in enumerate(items):
        if watch is not None:
            watch.position = position
        calls.append(
            None
            if item.puzzle is None
            else call_backends(
                item.puzzle,
                runners,
                limit=config.limit,
                time_limit=config.time_limit,
                known=item.known,
                before=before,
                after=after,
            )
        )
    outcomes = [None if call is None else read_calls(call, config.limit) for call in calls]
    ran_on = [
        (item.puzzle, ran) for item, ran in zip(items, outcomes, strict=True) if ran is not None
    ]
    valid = iter(validate_many([p for p, _ in ran_on], [ran for _, ran in ran_on]))  # type: ignore[misc]
    records = []
    for position, (item, ran) in enumerate(zip(items, outcomes, strict=True)):
        if ran is None:
            records.append(invalid(item))
            continue
        if watch is not None:
            watch.position = position  # (metamorphic variants call the backends again)
        records.append(_judge_item(item, ran, config, runners, before, after, next(valid)))
    if config.certify is not None:  # here in the worker, where the puzzles already are
        from ..certify.batch import certify_chunk

        certify_chunk(items, records, config)
    if stages is not None:
        stages["parsing"] += parsed - start
        stages["checking"] += clock() - parsed
    return records
