"""What a machine itself loses when all its cores are busy: the same fixed work in N processes.

    python -m tools.perf.contention [--copies 1,2,16] [--rounds 3] [--work 3000000]

Each copy is a fresh Python process running the same pure-Python loop (integer arithmetic and
list indexing, no I/O, no shared data) and reporting its own CPU seconds. With N copies at once,
the CPU a copy needs grows only through the machine: cores that are hyperthreads of one
physical core, a clock that drops when every core runs, shared caches. ``check``'s CPU a
puzzle grows from 2 to 16 workers (``tools.perf.scaling``); this says how much of that growth
the same machine shows for work that shares nothing. Runs are interleaved (16, 2, 1, then
again); it prints the median CPU a copy at each N and its ratio to N = 1.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

from .entry_cost import machine

LOOP = """
import time
t = time.process_time()
table = list(range(1024))
acc = 0
for i in range({work}):
    acc = (acc + table[i & 1023] * 3) & 0xFFFFFFF
print(time.process_time() - t)
"""


def run_copies(copies: int, work: int) -> list[float]:
    """Start ``copies`` processes at once; the CPU seconds each reports."""
    code = LOOP.format(work=work)
    procs = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        for _ in range(copies)
    ]
    return [float(p.communicate()[0]) for p in procs]


def main(argv: list[str] | None = None) -> dict[int, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", default="1,2,16")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", type=int, default=3_000_000)
    args = parser.parse_args(argv)
    counts = sorted({int(c) for c in args.copies.split(",") if c}, reverse=True)
    if not 1 <= args.rounds <= 20 or any(not 1 <= c <= 256 for c in counts):
        parser.error("--rounds from 1 to 20, --copies from 1 to 256")
    if not 10_000 <= args.work <= 1_000_000_000:
        parser.error("--work from 10,000 to 1,000,000,000 iterations")
    print(f"machine: {machine()}; Python {sys.version.split()[0]}", flush=True)
    seen: dict[int, list[float]] = {c: [] for c in counts}
    for _ in range(args.rounds):
        for c in counts:
            seen[c].append(statistics.median(run_copies(c, args.work)))
    medians = {c: statistics.median(v) for c, v in seen.items()}
    one = medians.get(1) or medians[min(medians)]
    print("copies  CPU s a copy (median)  × one copy")
    for c in sorted(medians):
        print(f"{c:6d} {medians[c]:20.3f} {medians[c] / one:10.2f}")
    return medians


if __name__ == "__main__":
    main()
