"""The worker side of ``check``: set up once per worker, then check chunks of puzzles.

A worker takes its chunk stage by stage (parse all, call the backends on all, then read,
validate and judge all), with the repeated-givens check and the validator each run once on the
whole chunk; ``jobs=0`` checks in the calling process the same way (:func:`check_chunk`). The
workers' (and the command line's) garbage collector is tuned for this (:func:`tune_gc`).
"""

from __future__ import annotations

import dataclasses
import gc
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..backends import backend_class, get_backend, register
from ..choice import Chooser
from ..harness import (
    Call,
    Outcome,
    Valid,
    call_backends,
    check_variants,
    invalid_record,
    judge,
    read_calls,
    validate_many,
)
from ..published import STATED_COUNT, stated_count_problem
from ..transforms import transforms_for
from ..verdict import CheckRecord, Verdict
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
    _WORKER["runners"] = make_runners(config)
    # With the default choice most workers never call most backends: each library is then
    # imported on its first call (given the first-call grace), not here for nothing. A chosen
    # list is loaded now, compiled code included, outside any time limit.
    for name in () if config.auto else config.backends:
        if backend_class(name).unavailable_reason() is None:
            line = backend_class(name).prepare()
            if line:  # the worker that compiled (the others waited, then loaded its cache)
                print(line, file=sys.stderr, flush=True)
    tune_gc()


def make_runners(config: CheckConfig) -> list[tuple[str, Any, dict[str, Any]]]:
    """``(name, backend, options)`` for each backend of the batch: the user's options over
    the backend's :attr:`~sudoku_cp.backends.Backend.batch_options`."""
    runners = []
    for name in config.backends:
        options = {**backend_class(name).batch_options, **config.options.get(name, {})}
        runners.append((name, get_backend(name), options))
    return runners


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
    if item.stated_count is not None:
        record = _against_stated_count(record, item.stated_count)
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


def _against_stated_count(record: CheckRecord, stated: object) -> CheckRecord:
    """A verdict that contradicts the solution count the input states is a disagreement, as
    one beside the puzzle's published solution is (:mod:`sudoku_cp.published`): every
    paradigm solving a misread rule agrees, and only a witness from the source can tell."""
    verdict = record.verdict.value
    if verdict in ("disagreement", "invalid"):
        return record
    problem = stated_count_problem(stated, verdict, record.count, record.exact)
    if problem is None:
        return record
    reason = problem if record.reason is None else f"{problem} | {record.reason}"
    return dataclasses.replace(record, verdict=Verdict.DISAGREEMENT, reason=reason)


PREPARE_ABOVE = 16
"""Grids above this size ask their backends to load what they compile for that size first
(:meth:`~sudoku_cp.backends.Backend.prepare_size`): the backtracker's big-grid kernel."""
_PREPARED: set[tuple[str, int]] = set()


def prepare_size(chosen: Sequence[Any], size: int) -> None:
    """Each chosen backend's :meth:`~sudoku_cp.backends.Backend.prepare_size`, once a process
    for each size, before the puzzle's calls are timed or watched (the watchdog's slot is idle):
    a compile of 20–30 s neither counts against the time limit nor gets the worker stopped.
    What a backend reports (it compiled, here) goes to stderr, once: the other workers, which
    waited for it (:func:`sudoku_cp.backends.backtrack_kernel.compiling`), load its cache."""
    for name, backend, options in chosen:
        if (name, size) in _PREPARED:
            continue
        _PREPARED.add((name, size))
        line = type(backend).prepare_size(size, backend.check_options(dict(options)))
        if line:
            print(line, file=sys.stderr, flush=True)


_CHOOSERS: dict[tuple[str, ...], Chooser] = {}


class _Judges:
    """The default choice (``config.auto``) in a chunk: for a puzzle, the runners of the
    backends :mod:`sudoku_cp.choice` picks, and the watchdog's ``before`` that still names
    each call by its backend's place in ``config.backends`` (the pool's call number)."""

    def __init__(
        self, config: CheckConfig, runners: Sequence[Any], before: Callable[[int], None] | None
    ) -> None:
        chooser = _CHOOSERS.get(config.backends)
        if chooser is None:  # one per worker: it remembers its choice per kind of puzzle
            chooser = _CHOOSERS[config.backends] = Chooser(config.backends)
        self.chooser = chooser
        self.runners = runners
        self.before = before
        self.place = {runner[0]: i for i, runner in enumerate(runners)}
        self.made: dict[tuple[str, ...], tuple[list[Any], Callable[[int], None] | None]] = {}

    def __call__(self, puzzle: Any) -> tuple[list[Any], Callable[[int], None] | None]:
        names = self.chooser(puzzle)
        made = self.made.get(names)
        if made is None:
            places = [self.place[name] for name in names]
            before = self.before
            call_before = None
            if before is not None:

                def call_before(position: int, places: list[int] = places) -> None:
                    before(places[position])

            made = self.made[names] = ([self.runners[i] for i in places], call_before)
        return made


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
    calls: list[dict[str, Call] | None] = []
    judges = _Judges(config, runners, before) if config.auto else None
    used: list[tuple[Sequence[Any], Callable[[int], None] | None]] = []
    for position, item in enumerate(items):
        if watch is not None:
            watch.position = position
        if item.puzzle is None:
            calls.append(None)
            used.append((runners, before))
            continue
        chosen, call_before = (runners, before) if judges is None else judges(item.puzzle)
        used.append((chosen, call_before))
        if item.puzzle.size > PREPARE_ABOVE:
            prepare_size(chosen, item.puzzle.size)
        calls.append(
            call_backends(
                item.puzzle,
                chosen,
                limit=config.limit,
                time_limit=config.time_limit,
                known=item.known,
                before=call_before,
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
        chosen, call_before = used[position]
        records.append(_judge_item(item, ran, config, chosen, call_before, after, next(valid)))
        if config.shrink and records[-1].verdict is Verdict.DISAGREEMENT:
            if (records[-1].reason or "").startswith(STATED_COUNT):
                # no backend is wrong: nothing for a smaller puzzle to reproduce
                records[-1].shrunk = {
                    "reason": "no backend disagrees: the verdict contradicts the stated "
                    "solution count, which shrinking cannot reduce",
                    "calls": 0,
                }
            else:
                from ..shrink import shrink_record

                shrink_record(records[-1], item, config, chosen, call_before, after)
        if config.rate and records[-1].verdict is Verdict.UNIQUE:
            from ..logic.scales import rate_into

            rate_into(records[-1], item.puzzle, config.time_limit, config.rate)
    if config.certify is not None:  # here in the worker, where the puzzles already are
        from ..certify.batch import certify_chunk

        certify_chunk(items, records, config)
    if stages is not None:
        stages["parsing"] += parsed - start
        stages["checking"] += clock() - parsed
    return records
