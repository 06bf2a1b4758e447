"""The cost of running ``check`` on a Dask cluster instead of the local pool (issue 20).

    python -m tools.perf.dask_overhead [--counts 10000,100000] [--backends backtrack]
                                            [--rounds 1] [--no-estimate]

The 17-clue sample (100 puzzles) repeated to each count, checked by the command line three
ways, taking turns: the local pool (``--jobs 2``), a ``--scheduler local:2`` cluster that the
command starts itself (its start-up included), and ``--scheduler tcp://…`` pointing at a
2-worker LocalCluster already running in this process (what a user with a cluster sees).
For each: wall seconds, puzzles a second, the client's own peak memory (``VmHWM`` of its
process, read from /proc while it runs: its workers are not counted; with ``local:2`` the
scheduler runs inside the client) and the load average at the start. ``--estimate`` also
checks the 100 puzzles with ``--backends all`` on the cluster and, from the backends' own
mean seconds a puzzle, estimates the full 49,151-puzzle all-paradigm run on 64 cores (on
by default; ``--no-estimate`` leaves it out). After each count's rows, a line gives each
cluster's overhead: how much lower its puzzles a second are than the local pool's
(``1 − cluster / local``, the issue's target: under 25% for ``backtrack`` alone).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sudoku_cp.datasets import load_puzzles

FULL_SET = 49_151
CORES = 64
LOCAL = "local pool --jobs 2"
MAX_COUNT = 10_000_000
TCP = "--scheduler tcp:// (running)"


def _peak_rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_check(args: list[str]) -> dict[str, Any]:
    """Run ``sudoku-cp check ARGS``: wall seconds, the client's peak RSS and CPU seconds."""
    exe = Path(sys.executable).with_name("sudoku-cp")
    load = os.getloadavg()[0]
    start = time.perf_counter()
    process = subprocess.Popen([str(exe), "check", *args], stderr=subprocess.DEVNULL)
    peak = 0
    while process.poll() is None:
        peak = max(peak, _peak_rss_kib(process.pid))
        time.sleep(0.2)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "rss_mib": peak / 1024, "load": load, "status": process.returncode}


def sample_file(folder: Path, count: int) -> Path:
    lines = [p.to_line() for p in load_puzzles("17clue")]
    path = folder / f"17clue-{count}.txt"
    with path.open("w") as out:
        for i in range(count):
            out.write(lines[i % len(lines)] + "\n")
    return path


def compare(counts: list[int], backend_sets: list[str], rounds: int) -> None:
    import distributed

    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    ways = {
        LOCAL: ["--jobs", "2"],
        "--scheduler local:2": ["--scheduler", "local:2"],
        TCP: ["--scheduler", cluster.scheduler_address],
    }
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            overheads: list[str] = []
            # A running cluster has run something before: its workers have loaded the
            # backends' libraries (once a worker process). Not timed.
            warm = sample_file(folder, 100)
            run_check([str(warm), "-q", "-o", str(folder / "warm.jsonl"), *ways[TCP]])
            print("| backends | puzzles | executor | puzzles/s | wall s | client peak RSS | load |")
            print("|---|---:|---|---:|---:|---:|---:|")
            for backends in backend_sets:
                for count in counts:
                    source = sample_file(folder, count)
                    found: dict[str, list[dict[str, Any]]] = {way: [] for way in ways}
                    for turn in range(rounds):
                        order = list(ways) if turn % 2 == 0 else list(reversed(ways))
                        for way in order:
                            out = folder / "out.jsonl"
                            args = [str(source), "-b", backends, "-q", "-o", str(out)]
                            result = run_check(args + ways[way])
                            lines = out.read_bytes().count(b"\n")
                            assert lines == count, (way, lines, count)
                            found[way].append(result)
                    rates = {}
                    for way, runs in found.items():
                        wall = statistics.median(r["seconds"] for r in runs)
                        rss = statistics.median(r["rss_mib"] for r in runs)
                        loads = "–".join(f"{r['load']:.1f}" for r in runs)
                        rates[way] = count / wall
                        print(
                            f"| {backends} | {count:,} | {way} | {count / wall:,.0f} | "
                            f"{wall:.1f} | {rss:.0f} MiB | {loads} |",
                            flush=True,
                        )
                    local = rates.pop(LOCAL)
                    overheads.append(
                        f"{backends}, {count:,} puzzles: "
                        + "; ".join(f"{way} {_versus(rate, local)}" for way, rate in rates.items())
                    )
            print("\noverhead (1 − cluster / local, in puzzles a second):")
            for line in overheads:
                print(f"  {line}")
    finally:
        cluster.close()


def _versus(rate: float, local: float) -> str:
    """``12% below the local pool`` (or above it)."""
    share = 1 - rate / local
    return f"{100 * abs(share):.0f}% {'below' if share >= 0 else 'above'} the local pool"


def estimate() -> None:
    """Per-backend mean seconds on the 17-clue sample, checked with every backend on a
    local:2 cluster; the full run's CPU time and its wall time on 64 cores."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "all.jsonl"
        path = sample_file(Path(tmp), 100)
        result = run_check([str(path), "-b", "all", "-q", "-o", str(out), "-t", "60"])
        runs: dict[str, list[float]] = {}
        for line in out.read_text().splitlines():
            for name, run in json.loads(line)["backends"].items():
                runs.setdefault(name, []).append(float(run.get("seconds") or 0.0))
    print(f"\n--backends all, 100 puzzles, local:2: {result['seconds']:.1f} s wall, "
          f"load {result['load']:.1f}")  # fmt: skip
    print("| backend | mean s/puzzle | median | worst |")
    print("|---|---:|---:|---:|")
    total = 0.0
    worst = 0.0
    for name, seconds in sorted(runs.items()):
        mean = statistics.fmean(seconds)
        total += mean
        worst = max(worst, max(seconds))
        print(f"| {name} | {mean:.4f} | {statistics.median(seconds):.4f} | {max(seconds):.3f} |")
    cpu = FULL_SET * total
    print(
        f"\nall paradigms: {total:.3f} s a puzzle → {cpu / 3600:.1f} CPU-hours for {FULL_SET:,}; "
        f"on {CORES} cores ≈ {cpu / CORES / 60:.1f} min (+ start-up, and the slowest puzzle, "
        f"{worst:.1f} s here, at the end); {FULL_SET / (cpu / CORES):,.0f} puzzles/s asked of "
        "the client"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="10000,100000")
    parser.add_argument("--backends", nargs="+", default=["backtrack"])
    parser.add_argument("--rounds", type=int, default=1, help="turns each (1 to 9)")
    parser.add_argument("--no-estimate", dest="estimate", action="store_false")
    args = parser.parse_args(argv)
    try:
        counts = [int(c) for c in args.counts.split(",")]
    except ValueError:
        parser.error(f"--counts {args.counts}: expected whole numbers, e.g. 10000,100000")
    if not all(1 <= c <= MAX_COUNT for c in counts):
        parser.error(f"--counts: each from 1 to {MAX_COUNT:,}")
    print(f"load average at the start: {os.getloadavg()}")
    compare(counts, args.backends, max(1, min(args.rounds, 9)))
    if args.estimate:
        estimate()
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
