"""Benchmark of the cross-check harness: its own overhead, and its throughput with workers.

    python -m tools.perf.harness_overhead [--repeat 200] [--rounds 3] [--backends a,b]

On the bundled 17-clue sample (``sudoku_cp/data/17clue.csv``, 100 puzzles, each unique) it
measures a uniqueness check (limit 2):

1. **each backend alone**, in this process, to find the fastest one;
2. **the harness's own overhead** with the fastest backend, stage by stage, in this process,
   through the batch package's own code (the worker function included): reading the file,
   parsing its lines, checking the answers (the watchdog around each call, the results'
   shape, the validator, the verdict), and writing JSON Lines — each as a percentage of the
   time the backend itself spent solving. Target: under 10%. An end-to-end run in one process
   (``--jobs 0``) is timed too;
3. **throughput** of ``sudoku-cp check`` (reading a file, worker processes, writing a JSON Lines
   file) in puzzles per second, with the fastest backend alone and with every backend, at
   ``--jobs 1`` and ``--jobs 2``, and the jobs-2 / jobs-1 ratio. Target: at least 1.7×. The
   sample is repeated ``--repeat`` times so that starting the worker processes is a small part
   of the run (it is included: these are honest wall-clock rates); jobs 1 and jobs 2 take
   turns for ``--rounds`` rounds and the median of each is reported.

It measures and reports; it asserts nothing. Other processes on the machine change the figures
(the load average is printed with them).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import tempfile
import time
from multiprocessing.sharedctypes import RawArray
from pathlib import Path
from typing import Any

import sudoku_cp
from sudoku_cp.batch import (
    BatchOptions,
    CheckConfig,
    IndexSet,
    RecordWriter,
    read_records,
    run_batch,
)
from sudoku_cp.batch.command import batch_items
from sudoku_cp.batch.pool import init_worker, run_task
from sudoku_cp.batch.worker import _WORKER, check_task, tune_gc
from sudoku_cp.batch.worker import init_worker as init_check_worker
from sudoku_cp.formats import read_input
from sudoku_cp.harness import resolve_backends

DATA = Path(sudoku_cp.__file__).resolve().parent / "data" / "17clue.csv"


def _repeated_sample(folder: Path, repeat: int) -> Path:
    """The 17-clue sample written ``repeat`` times (ids made unique) into one CSV file."""
    lines = DATA.read_text(encoding="utf-8").splitlines()
    header, rows = lines[0], [line for line in lines[1:] if line.strip()]
    path = folder / f"17clue-x{repeat}.csv"
    with path.open("w", encoding="utf-8") as handle:
        handle.write(header + "\n")
        for copy in range(repeat):
            for row in rows:
                ident, _, rest = row.partition(",")
                handle.write(f"{ident}/{copy + 1},{rest}\n")
    return path


def time_backends(names: list[str], time_limit: float) -> dict[str, float]:
    """Seconds per puzzle of each backend alone over the sample (in this process, warm)."""
    puzzles = [r.puzzle for r in read_input(str(DATA)) if r.puzzle is not None]
    from sudoku_cp.backends import get_backend

    per_puzzle = {}
    for name in names:
        backend = get_backend(name)
        backend.solve(puzzles[0], limit=2, time_limit=time_limit)  # warm-up: imports, tables
        times = [backend.solve(p, limit=2, time_limit=time_limit).seconds for p in puzzles]
        per_puzzle[name] = statistics.fmean(times)
    return per_puzzle


def overhead(
    backend: str, path: Path, folder: Path, time_limit: float, chunk: int = 100
) -> dict[str, float]:
    """The harness's stages with one backend, in this process, in seconds (totals).

    The work goes through the batch package's own code, a chunk of puzzles at a time: the main
    process reads lines into items (``reading``); the worker function (``batch.pool.run_task``
    with ``check``'s task, set up
    here as in a worker process, garbage collection included) parses them (``parsing``), then
    calls the backend on each, reads and validates the answers and judges each puzzle
    (``checking``: the worker's time from parsing on, less the backend's own time, which is
    ``solving``); the main process writes the records as JSON Lines (``writing``). Each stage
    is timed chunk by chunk, so that a machine changing pace during the run (a shared virtual
    machine does) changes every stage alike. Sending chunks to and from worker processes is
    not here: it shows in the throughput of ``--jobs``.
    """
    config = CheckConfig.make([backend], time_limit=time_limit)
    items = batch_items(
        [(str(path), read_input(str(path), model=config.model, defer=True))],
        config.model,
        IndexSet(),
    )
    clock = time.perf_counter
    totals = dict.fromkeys(("reading", "parsing", "solving", "checking", "writing"), 0.0)
    writer = RecordWriter("jsonl", [backend], folder / "overhead.jsonl")
    init_worker(RawArray("d", 3), check_task, init_check_worker, (config, ()))
    stages = _WORKER["stages"] = {"parsing": 0.0, "checking": 0.0}
    puzzles = 0
    try:
        while True:
            start = clock()
            taken = list(itertools.islice(items, chunk))  # the main process
            if not taken:
                break
            read = clock()
            records, _ = run_task(0, taken)  # a worker
            worked = clock()
            writer.write_many(records)  # the main process again
            totals["reading"] += read - start
            totals["writing"] += clock() - worked
            totals["solving"] += sum(
                run.seconds for record in records for run in record.backends.values()
            )
            puzzles += len(records)
        totals["parsing"] = stages["parsing"]
        totals["checking"] = stages["checking"] - totals["solving"]
    finally:
        writer.close()
        _WORKER.clear()

    config = CheckConfig.make([backend], time_limit=time_limit)
    start = time.perf_counter()
    run_batch(
        BatchOptions(
            inputs=[str(path)],
            config=config,
            jobs=0,
            fmt="jsonl",
            output=folder / "end-to-end.jsonl",
        )
    )
    end_to_end = time.perf_counter() - start
    # that run's own solving time, from its records (the machine may have changed pace)
    end_to_end_solving = sum(
        run.seconds
        for record in read_records(folder / "end-to-end.jsonl")
        for run in record.backends.values()
    )
    return {
        "puzzles": puzzles,
        **totals,
        "end_to_end": end_to_end,
        "end_to_end_solving": end_to_end_solving,
    }


def throughput(
    backends: list[str], jobs: int, path: Path, folder: Path, time_limit: float
) -> tuple[float, int]:
    """Puzzles per second of a whole batch (file in, JSON Lines out) and the puzzle count."""
    config = CheckConfig.make(backends, time_limit=time_limit)
    options = BatchOptions(
        inputs=[str(path)],
        config=config,
        jobs=jobs,
        fmt="jsonl",
        output=folder / f"run-{len(backends)}-{jobs}.jsonl",
    )
    start = time.perf_counter()
    summary = run_batch(options)
    seconds = time.perf_counter() - start
    return summary.total / seconds, summary.total


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repeat",
        type=int,
        default=200,
        help="copies of the 100-puzzle sample per run (default 200: runs of "
        "several seconds, in which starting the workers, ~0.08 s, is small)",
    )
    parser.add_argument(
        "--repeat-all",
        type=int,
        default=1,
        help="copies for the every-backend runs (default 1: python-constraint "
        "takes about a second a puzzle)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="runs at each of jobs 1 and 2, taking turns (default 3)",
    )
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument(
        "--backends",
        default=None,
        help="backends for the 'all' runs (default: every available one)",
    )
    args = parser.parse_args(argv)
    restore = tune_gc()  # as `sudoku-cp check` runs (its workers too)
    try:
        return _measure(args)
    finally:
        restore()


def _measure(args: argparse.Namespace) -> dict[str, Any]:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    names = resolve_backends(args.backends)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    console.print(
        f"17-clue sample ({DATA.name}), limit 2, backends: {', '.join(names)}; "
        f"{os.cpu_count()} cores, load average {load:.2f}"
    )

    speeds = time_backends(names, args.time_limit)
    fastest = min(speeds, key=speeds.get)  # type: ignore[arg-type]
    table = Table("backend", "ms / puzzle (alone, in process)")
    for name, seconds in sorted(speeds.items(), key=lambda kv: kv[1]):
        table.add_row(name + (" (fastest)" if name == fastest else ""), f"{seconds * 1000:.2f}")
    console.print(table)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        many = _repeated_sample(folder, args.repeat)
        few = _repeated_sample(folder, args.repeat_all)
        stages = overhead(fastest, many, folder, args.time_limit)
        own = stages["reading"] + stages["parsing"] + stages["checking"] + stages["writing"]
        solving = stages["solving"]
        table = Table("stage", "total s", "µs / puzzle", f"% of {fastest}'s solving")
        notes = {
            "reading": " (lines → items)",
            "parsing": " (worker)",
            "checking": " (worker: answers, validator, verdict)",
        }
        for stage in ("reading", "parsing", "checking", "writing"):
            table.add_row(
                stage + notes.get(stage, ""),
                f"{stages[stage]:.3f}",
                f"{stages[stage] / stages['puzzles'] * 1e6:.0f}",
                f"{stages[stage] / solving * 100:.1f}%",
            )
        table.add_row(
            "harness total",
            f"{own:.3f}",
            f"{own / stages['puzzles'] * 1e6:.0f}",
            f"{own / solving * 100:.1f}%",
        )
        table.add_row(
            f"{fastest} solving",
            f"{solving:.3f}",
            f"{solving / stages['puzzles'] * 1e6:.0f}",
            "100%",
        )
        console.print(table)
        solved = stages["end_to_end_solving"]
        end_to_end_extra = (stages["end_to_end"] - solved) / solved * 100
        console.print(
            f"end to end in one process (--jobs 0): {stages['end_to_end']:.3f} s, "
            f"{end_to_end_extra:.1f}% above its {solved:.3f} s of solving"
        )

        rates: dict[tuple[str, int], float] = {}
        table = Table(
            "backends", "puzzles", "jobs 1 (puzzles/s)", "jobs 2 (puzzles/s)", "jobs 2 / jobs 1"
        )
        for label, chosen, path, rounds in (
            (f"{fastest} alone", [fastest], many, args.rounds),
            (f"all {len(names)}", names, few, 1),
        ):
            # jobs 1 and jobs 2 take turns, so that a change of pace hits both alike; the
            # median round of each is reported
            seen: dict[int, list[float]] = {1: [], 2: []}
            for _ in range(rounds):
                for jobs in (1, 2):
                    rate, count = throughput(chosen, jobs, path, folder, args.time_limit)
                    seen[jobs].append(rate)
            for jobs in (1, 2):
                rates[(label, jobs)] = statistics.median(seen[jobs])
            ratio = rates[(label, 2)] / rates[(label, 1)]
            table.add_row(
                label,
                str(count),
                f"{rates[(label, 1)]:.1f}",
                f"{rates[(label, 2)]:.1f}",
                f"{ratio:.2f}x",
            )
        console.print(table)

    overhead_pct = own / solving * 100
    ratio_fastest = rates[(f"{fastest} alone", 2)] / rates[(f"{fastest} alone", 1)]
    console.print(
        f"targets: harness overhead {overhead_pct:.1f}% (< 10%: "
        f"{'met' if overhead_pct < 10 else 'missed'}); jobs-2 / jobs-1 with {fastest} "
        f"{ratio_fastest:.2f}x (>= 1.7x: {'met' if ratio_fastest >= 1.7 else 'missed'})"
    )
    return {
        "speeds": speeds,
        "stages": stages,
        "rates": {f"{k[0]} j{k[1]}": v for k, v in rates.items()},
    }


if __name__ == "__main__":
    main()
