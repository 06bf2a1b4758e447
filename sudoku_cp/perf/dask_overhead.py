"""The cost of running ``check`` on a Dask cluster instead of the local pool (issue 20).

    python -m sudoku_cp.perf.dask_overhead [--counts 10000,100000] [--backends backtrack sat]
                                            [--rounds 1] [--estimate]

The 17-clue sample (100 puzzles) repeated to each count, checked by the command line three
ways, taking turns: the local pool (``--jobs 2``), a ``--scheduler local:2`` cluster that the
command starts itself (its start-up included), and ``--scheduler tcp://…`` pointing at a
2-worker LocalCluster already running in this process (what a user with a cluster sees).
For each: wall seconds, puzzles a second, the client's own peak memory (``VmHWM`` of its
process, read from /proc while it runs: its workers are not counted; with ``local:2`` the
scheduler runs inside the client) and the load average at the start. ``--estimate`` also
checks the 100 puzzles with ``--backends all`` on the cluster and, from the backends' own
mean seconds a puzzle, estimates the full 49,151-puzzle all-paradigm run on 64 cores.
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

from ..datasets import load_puzzles

FULL_SET = 49_151
CORES = 64


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
        "local pool --jobs 2": ["--jobs", "2"],
        "--scheduler local:2": ["--scheduler", "local:2"],
        "--scheduler tcp:// (running)": ["--scheduler", cluster.scheduler_address],
    }
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
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
                    for way, runs in found.items():
                        wall = statistics.median(r["seconds"] for r in runs)
                        rss = statistics.median(r["rss_mib"] for r in runs)
                        loads = "–".join(f"{r['load']:.1f}" for r in runs)
                        print(
                            f"| {backends} | {count:,} | {way} | {count / wall:,.0f} | "
                            f"{wall:.1f} | {rss:.0f} MiB | {loads} |",
                            flush=True,
                        )
    finally:
        cluster.close()


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
    parser.add_argument("--backends", nargs="+", default=["backtrack", "sat"])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--estimate", action="store_true")
    args = parser.parse_args(argv)
    counts = [int(c) for c in args.counts.split(",")]
    print(f"load average at the start: {os.getloadavg()}")
    compare(counts, args.backends, max(1, min(args.rounds, 9)))
    if args.estimate:
        estimate()


if __name__ == "__main__":
    main()
