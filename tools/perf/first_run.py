"""The first ``check`` on a fresh install against the same check run again (issue 34).

    python -m tools.perf.first_run ../shared/datasets/large/25x25_19.csv [--jobs 2] [--rounds 2]

A fresh install has nothing in numba's disk cache, so its first ``check`` with the backtracker
compiles the kernels (once a machine, one worker compiling while the others wait) and says so
on standard error, one line a compile with its seconds. This runs ``sudoku-cp check -j J -b
backtrack -t LIMIT`` once with an empty ``NUMBA_CACHE_DIR`` (cold), then ``--rounds`` more
times on the cache it filled (warm), and prints each run's wall time, the compile seconds the
cold run stated, the cold run without them against the warm median (the issue's target: within
20%), and the largest ``seconds`` any puzzle's backtrack run recorded on either side (a
compile counted in a puzzle's time limit would show there). The cache is a temporary folder,
removed afterwards; the machine's own cache is neither read nor touched.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .entry_cost import machine
from .scaling import puzzle_file

# The lines sudoku_cp prints when its process compiled (search.py, kernel/glue.py).
COMPILED = re.compile(r"^backtrack: compiled its (.+?) in ([0-9.]+) s ")


@dataclass(frozen=True)
class Run:
    wall: float  # seconds, the whole command
    compiled: dict[str, float]  # what the run said it compiled, and the seconds it took
    slowest: float  # the largest backtrack ``seconds`` of any record
    verdicts: tuple[str, ...]


def stated_compiles(stderr: str) -> dict[str, float]:
    """The compile lines of a run's standard error: {what: seconds}."""
    found: dict[str, float] = {}
    for line in stderr.splitlines():
        match = COMPILED.match(line.strip())
        if match:
            found[match.group(1)] = found.get(match.group(1), 0.0) + float(match.group(2))
    return found


def run_check(puzzles: Path, jobs: int, limit: float, cache: Path) -> Run:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    env.pop("SUDOKU_CP_KERNEL", None)
    command = [sys.executable, "-m", "sudoku_cp.cli", "check", "-j", str(jobs)]
    command += ["-b", "backtrack", "-t", str(limit), "-q", "-f", "jsonl", str(puzzles)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1, 3):  # 1: some puzzle not unique; 3: undecided
        raise SystemExit(f"first_run: check exited {done.returncode}: {done.stderr.strip()}")
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    seconds = [r["backends"]["backtrack"].get("seconds") or 0.0 for r in records]
    return Run(
        wall,
        stated_compiles(done.stderr),
        max(seconds, default=0.0),
        tuple(r["verdict"] for r in records),
    )


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "puzzles", type=puzzle_file, help="a puzzle file (e.g. the 25x25 public set)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="workers (1 to 64)")
    parser.add_argument("--rounds", type=int, default=2, help="warm runs (1 to 9)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds a puzzle")
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 64 or not 1 <= args.rounds <= 9:
        parser.error("--jobs from 1 to 64, --rounds from 1 to 9")
    if not 0.1 <= args.time_limit <= 600:
        parser.error("--time-limit from 0.1 to 600 seconds")
    print(f"machine: {machine()}; Python {sys.version.split()[0]}", flush=True)
    with tempfile.TemporaryDirectory(prefix="first-run-") as folder:
        cache = Path(folder) / "numba-cache"
        cold = run_check(args.puzzles, args.jobs, args.time_limit, cache)
        warm = [
            run_check(args.puzzles, args.jobs, args.time_limit, cache) for _ in range(args.rounds)
        ]
    for number, run in enumerate(warm, 1):
        # (a puzzle near the time limit may be decided in one run and not in another)
        differ = sum(a != b for a, b in zip(run.verdicts, cold.verdicts, strict=False))
        if differ or len(run.verdicts) != len(cold.verdicts):
            print(
                f"warm run {number}: verdicts {dict(collections.Counter(run.verdicts))} against "
                f"the cold run's {dict(collections.Counter(cold.verdicts))} "
                f"({differ} puzzle(s) differ)"
            )
    stated = sum(cold.compiled.values())
    warm_wall = statistics.median(run.wall for run in warm)
    for what, seconds in cold.compiled.items():
        print(f"cold run stated: compiled its {what} in {seconds:.1f} s")
    if any(run.compiled for run in warm):
        print("warning: a warm run compiled too:", [run.compiled for run in warm])
    figures = {
        "cold_wall": cold.wall,
        "stated_compile": stated,
        "cold_without_compile": cold.wall - stated,
        "warm_wall": warm_wall,
        "ratio": (cold.wall - stated) / warm_wall,
        "slowest_puzzle_cold": cold.slowest,
        "slowest_puzzle_warm": max(run.slowest for run in warm),
    }
    print(
        f"cold {cold.wall:.1f} s, of which compiling {stated:.1f} s stated; "
        f"without it {figures['cold_without_compile']:.1f} s; warm median {warm_wall:.1f} s "
        f"({', '.join(f'{run.wall:.1f}' for run in warm)}); "
        f"cold without the compile ÷ warm: {figures['ratio']:.2f}"
    )
    print(
        f"slowest puzzle's own seconds: cold {cold.slowest:.2f}, warm "
        f"{figures['slowest_puzzle_warm']:.2f}; verdicts {dict(collections.Counter(cold.verdicts))}"
    )
    return figures


if __name__ == "__main__":
    main()
