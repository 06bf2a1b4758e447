"""Comparing paradigms: every backend on every puzzle of some datasets, measured and checked.

Specs, measurements, the table and the record: see :mod:`.specs`; the configuration, the record
and the files a bench writes: :mod:`.record`.

Timing is kept honest this way:

- each measurement runs in a worker process that has already imported every backend's library
  and solved a warm-up puzzle with every spec, so no measurement pays for imports, lazily built
  tables or first-call costs. Those costs are measured apart, in a fresh interpreter, and kept in
  the record under ``overheads`` (interpreter start-up, ``import sudoku_cp``, each backend's
  library import, its first and its warm solve);
- ``seconds`` is the backend's own wall time inside ``solve`` (compiling the model and
  searching); parsing, handing work to a process and checking answers are outside it;
- every spec gets the same time limit, passed to the backend and enforced by stopping a worker
  that overruns it by more than a grace, so a backend that ignores its deadline is stopped too
  (recorded ``timeout``; a backend that raises is recorded ``error``; the bench goes on);
- the order of the specs is shuffled (seeded) for every puzzle and repeat, so a slow drift of
  the machine favours no backend; repeats are kept as rows, and summaries use their median.

The workers are the batch package's worker pool, with its one time-limit mechanism (the
shared-memory watchdog of :mod:`sudoku_cp.batch.pool`), as ``check`` uses it. A task is one
measurement: each is watched, stopped and recorded on its own, and a task's round trip (~0.1 ms)
stays outside ``seconds``. A worker's first task solves the warm-up puzzle with every spec
before measuring, each warm-up watched like a backend's first call (with the first-call
grace); one that overruns stops the worker, and that spec is then not warmed up again (its
measurements time out as they would have). Every measurement, warm, gets the same hard limit.

Correctness is never traded for speed: every solution of every measurement goes through the
validator, and every puzzle's measurements go through the harness's cross-check; the table
keeps both (``valid``, ``verdict``, ``agrees``) and the summary flags every disagreement.
"""

from __future__ import annotations

import base64
import json
import multiprocessing
import pickle
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..backends import get_backend
from ..batch.executors import open_pool
from ..batch.pool import SETUP, Running, Watchdog, Work, hard_limit
from ..model import Model, load_model
from ..published import explain, stated_count_problem
from ..puzzle import Grid, Puzzle
from ..result import Result, Status
from ..verdict import BackendRun
from .record import BenchConfig, BenchRun, make_record
from .specs import (
    Dataset,
    Entry,
    Spec,
    find_spec,
    load_dataset,
    parse_specs,
    resolve_datasets,
)

# --- the worker side ------------------------------------------------------------------------------
# Filled once per worker process by _init_worker, so every measurement finds its backend ready.
_WORKER: dict[str, Any] = {}


def _init_worker(
    specs: list[Spec],
    model: Model,
    warm: Puzzle | None,
    limit: int,
    time_limit: float,
    unwarmed: Any,
) -> None:
    """Import every backend; the warm-up comes with the worker's first task (:func:`_warm_up`).

    ``unwarmed`` is shared with the parent: a byte per spec, set when its warm-up overran.
    """
    backends = {spec.label: get_backend(spec.backend) for spec in specs}
    for backend in backends.values():
        if backend.unavailable_reason() is None:
            backend.prepare()  # compiled code loaded now, before any measurement
    _WORKER.update(
        backends=backends,
        specs=list(specs),
        model=model,
        warm=warm,
        limit=limit,
        time_limit=time_limit,
        unwarmed=unwarmed,
        warmed=False,
    )


@dataclass(frozen=True)
class Failure:
    """A measurement that gave no result: the backend raised, its worker died or overran."""

    status: Status
    seconds: float
    note: str


@dataclass(frozen=True)
class _Measurement:
    """One measurement to make: its place in the run order (``key``), its spec's position among
    the specs (the watchdog's call number) and the puzzle."""

    key: int
    spec: int
    puzzle: Puzzle  # with its model: a killer's cages or a jigsaw's regions travel with it


Measurement = tuple[int, Result | Failure]
"""What a worker sends back: the measurement's key and its Result, or a Failure."""


def _measure_task(units: list[_Measurement], watch: Watchdog) -> list[Measurement]:
    """The pool's task for the bench: warm up (in a fresh worker), then measure each unit."""
    if not _WORKER["warmed"]:
        _warm_up(watch)
        _WORKER["warmed"] = True
    results = []
    for position, unit in enumerate(units):
        watch.position = position
        results.append((unit.key, _measure(unit, watch)))
    return results


def _warm_up(watch: Watchdog) -> None:
    """Solve the warm-up puzzle once with each spec, not measured, before any measurement.

    Each solve is watched as a first call (the pool gives it the first-call grace) made before
    the chunk's first unit (:data:`~sudoku_cp.batch.pool.SETUP`): one that ignores its deadline
    gets its worker stopped, and that spec is not warmed up again. A backend that fails here
    fails its measurements too, and is reported there.
    """
    puzzle = _WORKER["warm"]
    if puzzle is None:
        return
    backends, unwarmed = _WORKER["backends"], _WORKER["unwarmed"]
    watch.position = SETUP
    for number, spec in enumerate(_WORKER["specs"]):
        if unwarmed[number]:
            continue
        watch.before_call(number, first=True)
        try:
            backends[spec.label].solve(
                puzzle, limit=_WORKER["limit"], time_limit=_WORKER["time_limit"], **spec.options
            )
        except Exception:  # reported by its measurements
            pass
        finally:
            watch.after()


def _measure(unit: _Measurement, watch: Watchdog) -> Result | Failure:
    """One measurement: the backend's Result, or a Failure saying what it raised.

    Every measurement is watched as a warm call: the same hard limit for all.
    """
    spec = _WORKER["specs"][unit.spec]
    puzzle = unit.puzzle
    unsupported = _WORKER["backends"][spec.label].refusal(puzzle)
    if unsupported:  # asked first, as the cross-check does: a row that does not vote
        return Failure(Status.UNSUPPORTED, 0.0, unsupported)
    watch.before_call(unit.spec, first=False)
    start = time.perf_counter()
    try:
        return _WORKER["backends"][spec.label].solve(
            puzzle, limit=_WORKER["limit"], time_limit=_WORKER["time_limit"], **spec.options
        )
    except Exception as err:  # recorded as status 'error'; the bench goes on
        return Failure(
            Status.ERROR, time.perf_counter() - start, f"raised {type(err).__name__}: {err}"
        )
    finally:
        watch.after()


class _BenchWork(Work[_Measurement, Measurement]):
    """Measurements for the worker pool: one per task; what a stopped or lost one records."""

    def __init__(
        self, specs: Sequence[Spec], model: Model, warm: Puzzle | None, config: BenchConfig
    ) -> None:
        # read by every worker as it warms up, so that none warms up a spec that hung before
        self.unwarmed = multiprocessing.RawArray("b", len(specs))
        super().__init__(
            _measure_task,
            _init_worker,
            (list(specs), model, warm, config.limit, config.time_limit, self.unwarmed),
            max_chunk=1,
        )
        self.shared = self.unwarmed
        self.preload = tuple(dict.fromkeys(spec.backend for spec in specs))
        self.time_limit = config.time_limit

    def stopped(
        self, units: list[_Measurement], running: Running, seconds: float
    ) -> tuple[list[Measurement], list[_Measurement]]:
        """A measurement overran: ``timeout``. A warm-up overran: measure again, that spec
        not warmed up."""
        if running.position == SETUP:
            self.unwarmed[running.call] = 1
            return [], list(units)
        stopped = units[running.position]
        failure = Failure(
            Status.TIMEOUT,
            self.time_limit,
            f"worker stopped after {hard_limit(self.time_limit):g} s",
        )
        return [(stopped.key, failure)], [u for u in units if u is not stopped]

    def lost(
        self, unit: _Measurement, running: Running | None, err: BaseException
    ) -> tuple[list[Measurement], list[_Measurement]]:
        """The worker died (or the task failed): ``error``, the bench goes on. In a warm-up:
        measure again, that spec not warmed up."""
        from pebble import ProcessExpired

        if running is not None and running.position == SETUP:
            self.unwarmed[running.call] = 1
            return [], [unit]
        if isinstance(err, ProcessExpired):
            return [(unit.key, Failure(Status.ERROR, 0.0, f"worker died: {err}"))], []
        # anything else a worker sends back: one row, not a crash
        return [(unit.key, Failure(Status.ERROR, 0.0, f"{type(err).__name__}: {err}"))], []


# --- running ------------------------------------------------------------------------------------
Progress = Callable[[int, int, str], None]
"""Called as ``progress(done, total, dataset)`` after every measurement."""


def run_bench(config: BenchConfig, progress: Progress | None = None) -> BenchRun:
    """Measure every puzzle × spec × repeat of ``config``, check every answer, build the record."""
    config.check()
    started = time.time()
    model = load_model(config.model, box=config.box)
    datasets = resolve_datasets(config.datasets)
    loaded = [(ds, *load_dataset(ds, model)) for ds in datasets]
    specs = parse_specs(
        _default_backends(loaded) if config.backends is None else config.backends,
        config.options,
        config.seed,
    )
    baseline = find_spec(specs, config.baseline) if config.baseline else _default_baseline(specs)
    total = sum(len(entries) for _, entries, _ in loaded) * len(specs) * config.repeat
    rows: list[dict[str, Any]] = []
    counters: list[str] = []
    done = 0
    executor: dict[str, Any] = {}
    stopped: int | None = None  # measurements done when a signal stopped the run
    kept = 0
    for ds, entries, _rejected in loaded:
        results, finished = _measure_dataset(
            ds, entries, specs, model, config, progress, done, total, executor
        )
        for entry, measured in zip(entries, results, strict=True):
            if len(measured) == len(specs) * config.repeat:  # (all of a stopped run's puzzles
                rows.extend(_check_rows(ds, entry, measured, config.limit, counters))
                kept += 1  # measured in full: a part-measured one would skew its medians)
        if finished is not None:
            stopped = done + finished
            break
        done += len(entries) * len(specs) * config.repeat
    warm = next((e.puzzle for _, entries, _ in loaded for e in entries), None)
    overheads: dict[str, Any] = {}
    if warm is not None and stopped is None:  # (after a Ctrl-C the user waits: none)
        try:
            overheads = measure_overheads(specs, warm, config)
        except KeyboardInterrupt:  # every measurement made: only the start-up costs are lost
            stopped = total
    record = make_record(config, specs, baseline, loaded, counters, started, overheads)
    record["executor"] = executor or {"executor": "local", "jobs": config.jobs}
    if stopped is not None:
        record["interrupted"] = {"measurements": stopped, "of": total, "puzzles_kept": kept}
    for row in rows:  # one column per counter, in every row (empty where a backend has none)
        for name in counters:
            row.setdefault(name, None)
    return BenchRun(rows, counters, record, interrupted=stopped is not None)


def _default_backends(loaded: Sequence[tuple[Any, ...]]) -> list[str] | None:
    """Without ``--backends``: for each dataset, the two backends :mod:`sudoku_cp.choice`
    picks for its first puzzle (its size and rules), all datasets' together in that order;
    None (every available backend) when no dataset has a puzzle."""
    from ..backends import available_backends
    from ..choice import choose

    available = available_backends()
    names: list[str] = []
    for _ds, entries, *_ in loaded:
        if entries:
            names += [n for n in choose(entries[0].puzzle, available) if n not in names]
    return names or None


def _default_baseline(specs: Sequence[Spec]) -> Spec:
    """cpsat when measured (the usual reference), else the first spec."""
    return next((s for s in specs if s.backend == "cpsat"), specs[0])


Measured = list[tuple[Spec, int, Result | Failure]]


def _measure_dataset(
    ds: Dataset,
    entries: Sequence[Entry],
    specs: Sequence[Spec],
    model: Model,
    config: BenchConfig,
    progress: Progress | None,
    done: int,
    total: int,
    executor: dict[str, Any] | None = None,
) -> tuple[list[Measured], int | None]:
    """Per puzzle, every (spec, repeat, Result), measured in warm worker processes; and None,
    or the number of measurements made when Ctrl-C or SIGTERM (a KeyboardInterrupt) stopped
    them (the puzzles then have what was measured before it)."""
    rng = random.Random(f"{config.seed}:{ds.name}")
    order: list[tuple[int, Spec, int]] = []
    for index in range(len(entries)):
        for repeat in range(1, config.repeat + 1):
            shuffled = list(specs)
            rng.shuffle(shuffled)
            order.extend((index, spec, repeat) for spec in shuffled)
    warm = entries[0].puzzle if (entries and config.warmup) else None
    measured: list[Measured] = [[] for _ in entries]
    if not entries:
        return measured, None
    position = {spec.label: i for i, spec in enumerate(specs)}
    work = _BenchWork(specs, model, warm, config)
    units = (
        _Measurement(key, position[spec.label], entries[index].puzzle)
        for key, (index, spec, _) in enumerate(order)
    )  # in the run order
    pool = open_pool(work, config.jobs, config.time_limit, config.scheduler, executor)
    batches = pool.run(units)
    made = 0
    finished: int | None = None
    try:
        for batch in batches:
            for key, outcome in batch:
                index, spec, repeat = order[key]
                measured[index].append((spec, repeat, outcome))
                made += 1
                if progress:
                    progress(done + made, total, ds.name)
    except KeyboardInterrupt:
        finished = made
    finally:
        batches.close()  # stops the workers whatever happened
    for per_puzzle in measured:  # the table lists specs in the order given, not the run order
        per_puzzle.sort(key=lambda m: (position[m[0].label], m[1]))
    return measured, finished


# --- checking -------------------------------------------------------------------------------------
def _check_rows(
    ds: Dataset, entry: Entry, measured: Measured, limit: int, counters: list[str]
) -> list[dict[str, Any]]:
    """The table rows of one puzzle: each measurement validated, all of them cross-checked.

    Every (spec, repeat) is one voter in the harness's judgement, so a repeat that contradicts
    another repeat of the same backend is caught like any other disagreement.
    """
    from ..harness import Call, judge, read_calls

    calls: dict[str, Call] = {}
    for spec, repeat, outcome in measured:
        name = f"{spec.label}#{repeat}"
        if isinstance(outcome, Failure):
            calls[name] = BackendRun(outcome.status, seconds=outcome.seconds, error=outcome.note)
        else:  # the backend's own time inside solve
            calls[name] = (outcome, outcome.seconds)
    outcomes = read_calls(calls, limit)
    record = judge(entry.puzzle, outcomes, id=entry.id, limit=limit)
    known = known_answer_problem(record.verdict.value, record.solutions, entry)
    published_conflict = record.verdict.value == "disagreement" and not any(
        run.problems for run in record.backends.values()
    )
    if known is None and record.published is not None and published_conflict:
        # the puzzle's own published solution contradicts the answer (see .published): no
        # backend is wrong, the reading or the solution is, and the summary says so
        known = explain(record.published)
    verdict = "disagreement" if known else record.verdict.value
    rows = []
    for (spec, repeat, _), (name, (_, solutions)) in zip(measured, outcomes.items(), strict=True):
        run = record.backends[name]  # as judged: with the problems the cross-check found
        for key in run.counters:
            if key not in counters:
                counters.append(key)
        problems = list(run.problems)
        if known and run.finished:
            problems.append(known)
        rows.append(
            {
                "dataset": ds.name,
                "puzzle_id": entry.id,
                "backend": spec.backend,
                "strategy": spec.strategy,
                "limit": limit,
                "repeat": repeat,
                "status": run.status.value,
                "count": run.count,
                "seconds": round(run.seconds, 9),
                "exact": run.exact,
                # the validator itself, not a reading of the harness's words
                "valid": all(not entry.puzzle.problems_with(s) for s in solutions),
                "verdict": verdict,
                "agrees": (not problems) if run.finished else None,
                "note": "; ".join(filter(None, [run.error, *problems])),
                **run.counters,
            }
        )
    return rows


def known_answer_problem(verdict: str, witnesses: Sequence[Grid], entry: Entry) -> str | None:
    """Why the cross-check's answer contradicts the dataset's known answer (None if it does not).

    A dataset may state each puzzle's ``solution_count``: an answer the backends agree on that
    contradicts it is still flagged, as ``check`` flags it
    (:func:`sudoku_cp.published.stated_count_problem`). (A stated ``solution`` is the puzzle's
    published one, which the cross-check itself compares:
    :func:`sudoku_cp.formats.records.stated_grid`.)
    """
    if verdict == "disagreement":
        return None
    stated = (entry.expected or {}).get("solution_count")
    return stated_count_problem(stated, verdict, len(witnesses), exact=False)


# --- start-up and import costs, measured apart from solving ---------------------------------------
_PROBE = r"""
import base64, json, pickle, sys, time
start = time.perf_counter()
import sudoku_cp
from sudoku_cp.backends import backend_class
from sudoku_cp.model import load_model
from sudoku_cp.puzzle import Puzzle
out = {"import_sudoku_cp_s": time.perf_counter() - start, "backends": {}}
job = json.loads(sys.stdin.read())
puzzle = pickle.loads(base64.b64decode(job["puzzle"]))  # its model too: cages, regions …
imported = set()
for spec in job["specs"]:
    entry = out["backends"].setdefault(spec["label"], {})
    try:
        if spec["backend"] not in imported:
            t = time.perf_counter()
            cls = backend_class(spec["backend"])
            cls.unavailable_reason()  # imports the backend's library
            entry["import_s"] = time.perf_counter() - t
            imported.add(spec["backend"])
        backend = backend_class(spec["backend"])()
        refused = backend.refusal(puzzle)
        if refused:
            entry["unsupported"] = refused
            continue
        for key in ("first_solve_s", "warm_solve_s"):
            result = backend.solve(puzzle, limit=job["limit"], time_limit=job["time_limit"],
                                   **spec["options"])
            entry[key] = result.seconds
    except Exception as err:
        entry["error"] = f"{type(err).__name__}: {err}"
print(json.dumps(out))
"""


def measure_overheads(specs: Sequence[Spec], puzzle: Puzzle, config: BenchConfig) -> dict[str, Any]:
    """Interpreter start-up, package and library imports, first vs warm solve, in a new process.

    Backends added with ``register`` in this process do not exist in the new one; their
    entries say so. Failures here never stop a bench: they are written into the result.
    """

    def run(args: list[str], stdin: str = "") -> tuple[float, str]:
        start = time.perf_counter()
        done = subprocess.run(
            args,
            input=stdin,
            capture_output=True,
            text=True,
            check=True,
            timeout=60 + 4 * len(specs) * config.time_limit,
        )
        return time.perf_counter() - start, done.stdout

    try:
        startup = min(run([sys.executable, "-c", "pass"])[0] for _ in range(3))
        job = {
            "puzzle": base64.b64encode(pickle.dumps(puzzle)).decode("ascii"),
            "limit": config.limit,
            "time_limit": config.time_limit,
            "specs": [
                {"label": s.label, "backend": s.backend, "options": s.options} for s in specs
            ],
        }
        wall, out = run([sys.executable, "-c", _PROBE], json.dumps(job, default=str))
        probe = json.loads(out)
    except (subprocess.SubprocessError, OSError, ValueError) as err:
        return {"error": f"could not measure start-up: {err}"}
    return {
        "python_startup_s": round(startup, 6),
        "probe_wall_s": round(wall, 6),
        "warmup_puzzle": puzzle.to_line(),
        **probe,
    }
