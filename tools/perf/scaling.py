"""How the default ``check`` scales with workers, and the Dask path beside the local pool.

    python -m tools.perf.scaling FILE [--jobs 1,2,4,8,16] [--rounds 3] [--small 200]
                                          [--dask local:16] [--big FILE2]

Each run is a separate ``sudoku-cp check -q -o OUT FILE`` (the default backends, every puzzle
cross-checked), timed from outside by wall clock, with the CPU time of the parent and of its
workers (``getrusage``). Start-up (imports, workers forking and loading the kernel) is measured
apart by the same command on the first ``--small`` puzzles of FILE, and the *marginal* rate is
``(N - small) / (wall(N) - wall(small))``. Runs are interleaved (16, 8, … 1, then again) so
that load drifting over the session hits every worker count alike; the table gives the median
over ``--rounds`` (one round for ``--jobs 1`` and two for 2, which take longest).

``--pin`` confines each N-job run to N cores (``sched_setaffinity`` in the child, inherited
by its workers), so the parent that reads, dispatches and writes shares its workers' cores as
on an N-core machine; without it a 2-job run on a 16-core machine also has a third core for its
parent, and "the 2-core rate" is really that of 2 cores and a bit.

``--dask local:N`` also runs the same FILE (or ``--big``) with ``--scheduler local:N`` and with
``--jobs N``, each with its start-up measured apart. Prints the machine (CPU model, cores,
load average) first; ``--json PATH`` writes every measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .entry_cost import machine


def timed_check(
    path: Path, args: list[str], out: Path, cores: int | None = None
) -> dict[str, float]:
    """Wall seconds and CPU seconds (this child and its own children) of one ``check``; with
    ``cores``, the check and its workers run on the first ``cores`` usable cores only."""
    pin = None
    if cores is not None:
        chosen = sorted(os.sched_getaffinity(0))[:cores]

        def pin() -> None:
            os.sched_setaffinity(0, chosen)

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", "check", "-q", "-o", str(out), *args, str(path)],
        capture_output=True,
        text=True,
        preexec_fn=pin,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"check failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu}


def puzzle_file(value: str) -> Path:
    """An argparse type: a file of puzzles that exists (a missing one is a usage error, exit 2,
    not a traceback once the run has started)."""
    path = Path(value)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{value}: no such file (puzzles, one a line)")
    return path


def lines_of(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())


def first_lines(path: Path, count: int, folder: Path) -> Path:
    small = folder / f"first{count}.txt"
    with path.open("rb") as src, small.open("wb") as dst:
        for index, line in enumerate(src):
            if index >= count:
                break
            dst.write(line)
    return small


def marginal(n: int, small: int, wall: float, start_up: float) -> float:
    return (n - small) / max(wall - start_up, 1e-9)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=puzzle_file)
    parser.add_argument("--jobs", default="1,2,4,8,16")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--small", type=int, default=200)
    parser.add_argument("--dask", default=None, help="local:N: also --scheduler local:N")
    parser.add_argument("--big", type=puzzle_file, default=None, help="the file for the Dask runs")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--pin", action="store_true", help="run each N-job check on N cores, its parent included"
    )
    args = parser.parse_args(argv)
    jobs = [int(j) for j in args.jobs.split(",") if j]
    if not 1 <= args.rounds <= 20 or any(not 1 <= j <= 1024 for j in jobs):
        parser.error("--rounds from 1 to 20, --jobs from 1 to 1024")
    if args.pin and any(j > len(os.sched_getaffinity(0)) for j in jobs):
        parser.error(f"--pin: {len(os.sched_getaffinity(0))} usable cores, fewer than a --jobs")
    print(f"machine: {machine()}; Python {sys.version.split()[0]}", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="scaling-"))
    out = folder / "out.jsonl"
    n = lines_of(args.file)
    small = first_lines(args.file, args.small, folder)
    found: dict[str, Any] = {"machine": machine(), "n": n, "small": args.small, "runs": []}
    rounds = {j: (1 if j == 1 else 2 if j == 2 else args.rounds) for j in jobs}
    for round_ in range(max(rounds.values(), default=0)):
        for j in sorted(jobs, reverse=True):
            if round_ >= rounds[j]:
                continue
            cores = j if args.pin else None
            start_up = timed_check(small, ["-j", str(j)], out, cores)
            full = timed_check(args.file, ["-j", str(j)], out, cores)
            run = {"jobs": j, "round": round_, "pinned": args.pin}
            run.update(start_up=start_up, full=full)
            run["rate"] = n / full["wall"]
            run["marginal"] = marginal(n, args.small, full["wall"], start_up["wall"])
            found["runs"].append(run)
            if args.json:  # after every run: a run cut short keeps what it measured
                args.json.write_text(json.dumps(found, indent=1))
            print(
                f"jobs {j:2d} round {round_}: {n} in {full['wall']:.2f} s = {run['rate']:,.0f}/s"
                f" (start-up {start_up['wall']:.2f} s; after it {run['marginal']:,.0f}/s); "
                f"CPU {1e6 * full['cpu'] / n:.0f} µs a puzzle; load {os.getloadavg()[0]:.2f}",
                flush=True,
            )
    table = {}
    for j in jobs:
        runs = [r for r in found["runs"] if r["jobs"] == j]
        if runs:
            table[j] = {
                "rate": statistics.median(r["rate"] for r in runs),
                "marginal": statistics.median(r["marginal"] for r in runs),
                "cpu_us": statistics.median(1e6 * r["full"]["cpu"] / n for r in runs),
            }
    base = table.get(2) or table.get(min(table), {}) if table else {}
    print("jobs  rate/s  after start-up/s  ×(2 jobs)  CPU µs a puzzle")
    for j, row in table.items():
        times = row["marginal"] / base["marginal"] if base else float("nan")
        rate, after, cpu = row["rate"], row["marginal"], row["cpu_us"]
        print(f"{j:4d} {rate:8,.0f} {after:12,.0f} {times:10.2f} {cpu:10.0f}")
    found["table"] = table
    if args.dask:
        workers = int(args.dask.split(":", 1)[1])
        big = args.big or args.file
        nb = lines_of(big)
        dask = {}
        for label, extra in (
            ("pool", ["-j", str(workers)]),
            ("dask", ["--scheduler", args.dask]),
        ):
            start_up = timed_check(small, extra, out)
            full = timed_check(big, extra, out)
            dask[label] = {
                "start_up": start_up["wall"],
                "wall": full["wall"],
                "rate": nb / full["wall"],
                "marginal": marginal(nb, args.small, full["wall"], start_up["wall"]),
            }
            print(
                f"{label} ({' '.join(extra)}): {nb} in {full['wall']:.2f} s = "
                f"{dask[label]['rate']:,.0f}/s; start-up {start_up['wall']:.2f} s; after it "
                f"{dask[label]['marginal']:,.0f}/s",
                flush=True,
            )
        slower = 1 - dask["dask"]["marginal"] / dask["pool"]["marginal"]
        print(f"dask after start-up: {100 * slower:.0f}% slower than the local pool")
        found["dask"] = dask
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))
    return found


if __name__ == "__main__":
    main()
