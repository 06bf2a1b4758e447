"""The default ``check`` on N cores, simulated from what its two kinds of process cost here.

    python -m tools.perf.scaling_model FILE [--small 5000] [--rounds 3]
                                            [--cores 1,2,4,8,16,32] [--contention 1.0]

For a machine with more cores than this one (issue 34: "≥ 7× the 2-core rate at 16 cores …
measure on a many-core machine when one is lent, and by simulation otherwise"). ``check``
is one parent (it reads the puzzles, sends chunks to the pool, receives the records, keeps
the summary and writes the output: serial, one GIL) and N workers (they solve, validate and
judge). So:

1. **Measure** both costs here. ``sudoku-cp check -q -o OUT -j J`` runs on FILE and on its
   first ``--small`` lines, in a child that reports its own CPU seconds (the parent's,
   ``RUSAGE_SELF``) apart from its workers' (``RUSAGE_CHILDREN``), pinned to J cores; the
   differences between the two runs, per puzzle, are the parent's ``p`` and the workers' ``w``
   (start-up, imports and the kernel's load cancel out: the first lines must be enough for
   the parent to load the kernel before forking, ``WARM_IN_PARENT_BYTES``, as the whole file
   has it do). Medians over ``--rounds``, for
   J = 1 and 2, interleaved.
2. **Simulate** the pool on C cores (:func:`simulate`): C workers and the parent on C cores
   shared equally among whichever are running (processor sharing, as the kernel's scheduler
   does), a window of ``2 × C + 1`` chunks in flight (the pool's), chunks sized to take
   ``CHUNK_SECONDS`` of a worker (the pool's rule), the parent handling each returned chunk
   (``p`` a puzzle) before it sends the next. Its puzzles a second at C cores, divided by the
   simulated rate at 2 cores, is the scaling figure; the parent's share sets where it stops.
3. **Check the simulation against this machine**: the simulated rate at 1 and 2 cores beside
   the measured rates after start-up.

The simulated cores do not slow each other down. A real machine can: ``tools.perf.contention``
measures how much more CPU the same work needs with every core busy (the lent 16-vCPU Xeon
of docs/benchmarks/scaling.md: 1.37×). ``--contention F`` adds that machine's view: the
workers' cost at C cores grows linearly from 1× at 2 cores to F× at 16 (and stays F× above).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import deque
from pathlib import Path
from typing import Any

from sudoku_cp.batch.check import WARM_IN_PARENT_BYTES
from sudoku_cp.batch.pool import CHUNK_SECONDS, MAX_CHUNK

from .entry_cost import machine
from .scaling import first_lines, lines_of, puzzle_file

CHILD = """
import resource, sys, time
sys.argv = ["sudoku-cp", *sys.argv[1:]]
from sudoku_cp.cli import main
start = time.perf_counter()
try:
    main()
except SystemExit as exit_:
    if exit_.code not in (0, 1, None):
        raise
wall = time.perf_counter() - start
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime)
"""
"""A ``check`` run in a child of its own that reports its wall seconds, its own CPU seconds
(the parent's: every thread) and its workers' (waited for when the pool closes)."""

MAX_CORES = 4096


def measured(path: Path, jobs: int, out: Path) -> dict[str, float]:
    """Wall, parent CPU and workers' CPU seconds of one ``check -j jobs`` of ``path``, on the
    first ``jobs`` usable cores."""
    chosen = sorted(os.sched_getaffinity(0))[:jobs]
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "check", "-q", "-o", str(out), "-j", str(jobs), str(path)],
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.sched_setaffinity(0, chosen),
    )
    if done.returncode != 0:
        raise SystemExit(f"check failed ({done.returncode}): {done.stderr[-2000:]}")
    wall, parent, workers = (float(x) for x in done.stdout.split()[-3:])
    return {"wall": wall, "parent": parent, "workers": workers}


def simulate(
    cores: int, parent: float, worker: float, puzzles: int, chunk_seconds: float = CHUNK_SECONDS
) -> float:
    """Puzzles a second of ``puzzles`` through the pool on ``cores`` cores that do not slow
    each other: ``cores`` workers, each puzzle ``worker`` CPU seconds in a worker and
    ``parent`` in the parent (which handles a returned chunk whole before it sends the next),
    every running process getting ``min(1, cores / running)`` of a core. An event-driven
    processor-sharing simulation: time moves to the next moment some process finishes."""
    size = max(1, min(MAX_CHUNK, int(chunk_seconds / max(worker, 1e-9))))
    window = 2 * cores + 1
    left_to_send = puzzles
    queued: deque[int] = deque()  # sizes of the chunks sent and not yet taken by a worker
    busy: list[list[float]] = []  # per running worker: [work left, chunk size]
    returned: deque[int] = deque()  # sizes of chunks done and waiting for the parent
    handling: int | None = None  # the chunk the parent handles now (its size)
    parent_left = 0.0  # the parent's work left on it
    inflight = 0
    now = 0.0
    done = 0

    def send() -> None:
        nonlocal left_to_send, inflight
        while inflight < window and left_to_send:
            take = min(size, left_to_send)
            left_to_send -= take
            queued.append(take)
            inflight += 1

    send()
    while done < puzzles:
        while len(busy) < cores and queued:  # idle workers take queued chunks
            take = queued.popleft()
            busy.append([take * worker, take])
        if handling is None and returned:
            handling = returned.popleft()
            parent_left = handling * parent
        running = len(busy) + (handling is not None)
        if running == 0:
            raise AssertionError("nothing runs with puzzles left")
        speed = min(1.0, cores / running)
        step = min([b[0] for b in busy] + ([parent_left] if handling is not None else []))
        now += step / speed
        for b in busy:
            b[0] -= step
        returned.extend(int(b[1]) for b in busy if b[0] <= 1e-15)
        busy = [b for b in busy if b[0] > 1e-15]
        if handling is not None:
            parent_left -= step
            if parent_left <= 1e-15:
                done, handling, inflight = done + handling, None, inflight - 1
                send()
    return puzzles / now


def contention_at(cores: int, factor: float) -> float:
    """The workers' cost multiplier at ``cores``: 1 at 2 cores or fewer, ``factor`` at 16 and
    above, linear between."""
    if cores <= 2:
        return 1.0
    return 1.0 + (factor - 1.0) * min(1.0, (cores - 2) / 14)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=puzzle_file, help="puzzles, one a line (e.g. Royle's 17-clue)")
    parser.add_argument("--small", type=int, default=5000, help="lines of the start-up run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cores", default="1,2,4,8,16,32", help="core counts to simulate")
    parser.add_argument("--contention", type=float, default=1.0, help="workers' cost × at 16")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    cores = [int(c) for c in args.cores.split(",") if c]
    if not 1 <= args.rounds <= 20 or any(not 1 <= c <= MAX_CORES for c in cores):
        parser.error(f"--rounds from 1 to 20, --cores from 1 to {MAX_CORES}")
    if not 1.0 <= args.contention <= 4.0:
        parser.error("--contention from 1.0 to 4.0")
    jobs = [j for j in (2, 1) if j <= len(os.sched_getaffinity(0))]
    print(f"machine: {machine()}; Python {sys.version.split()[0]}", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="scaling-model-"))
    out = folder / "out.jsonl"
    n = lines_of(args.file)
    if not 0 < args.small < n:
        parser.error(f"--small must be below the file's {n} lines")
    small = first_lines(args.file, args.small, folder)
    if small.stat().st_size < WARM_IN_PARENT_BYTES <= args.file.stat().st_size:
        # The parent loads the kernel before forking only for inputs this large: a smaller
        # start-up run would leave that one-off load in the parent's cost a puzzle.
        parser.error(
            f"--small {args.small}: its {small.stat().st_size:,} bytes are under the "
            f"{WARM_IN_PARENT_BYTES:,} from which the parent loads the kernel; take more lines"
        )
    runs: dict[int, list[dict[str, float]]] = {j: [] for j in jobs}
    for round_ in range(args.rounds):
        for j in jobs:
            a, b = measured(small, j, out), measured(args.file, j, out)
            marginal = {k: b[k] - a[k] for k in a}
            per = {
                "parent_us": 1e6 * marginal["parent"] / (n - args.small),
                "worker_us": 1e6 * marginal["workers"] / (n - args.small),
                "rate": (n - args.small) / marginal["wall"],
            }
            runs[j].append(per)
            print(
                f"round {round_} -j {j}: after start-up {per['rate']:,.0f} puzzles/s; CPU a "
                f"puzzle: parent {per['parent_us']:.1f} µs, workers {per['worker_us']:.1f} µs; "
                f"load {os.getloadavg()[0]:.2f}",
                flush=True,
            )
    ref = runs[jobs[0]]
    parent = statistics.median(r["parent_us"] for r in ref) * 1e-6
    worker = statistics.median(r["worker_us"] for r in ref) * 1e-6
    print(
        f"\nmeasured (-j {jobs[0]}, medians): parent {1e6 * parent:.1f} µs a puzzle, workers "
        f"{1e6 * worker:.1f} µs; the parent alone could take {1 / parent:,.0f} puzzles/s"
    )
    for j in jobs:
        sim = simulate(j, parent, worker, n - args.small)
        real = statistics.median(r["rate"] for r in runs[j])
        print(f"check: {j} core(s) here {real:,.0f}/s, simulated {sim:,.0f}/s")
    base = simulate(2, parent, worker, n)
    table = []
    contended = "  with contention  ×" if args.contention > 1 else ""
    print(f"\ncores  simulated/s  × 2 cores{contended}")
    for c in cores:
        rate = simulate(c, parent, worker, max(n, 50 * c * MAX_CHUNK))
        row = {"cores": c, "rate": rate, "times": rate / base}
        line = f"{c:5d} {rate:12,.0f} {rate / base:10.2f}"
        if args.contention > 1:
            slowed = simulate(
                c, parent, worker * contention_at(c, args.contention), max(n, 50 * c * MAX_CHUNK)
            )
            row.update(contended=slowed, contended_times=slowed / base)
            line += f" {slowed:16,.0f} {slowed / base:5.2f}"
        table.append(row)
        print(line)
    found = {"machine": machine(), "n": n, "small": args.small, "runs": runs, "table": table}
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))
    return found


if __name__ == "__main__":
    main()
