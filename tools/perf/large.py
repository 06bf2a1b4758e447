"""Benchmark of issue 16's figures in one run: big grids, the default check, start-up.

    python -m tools.perf.large [--datasets DIR] [--time-limit 60] [--count-25 19]
                                   [--count-16 289] [--check-puzzles 100000] [--jobs 2]
                                   [--cost-rounds 5]
                                   [--startup-runs 21] [--skip large,check,startup]

1. **25x25** (``DIR/large/25x25_19.csv``, public, all unique): per puzzle, ``sat``'s and
   ``backtrack``'s time for a uniqueness check (limit 2) within ``--time-limit`` (``backtrack``
   with its big-grid kernel when numba is installed), and their ratio; then ``dlx``,
   ``constraint`` and ``cpsat`` on the puzzles ``sat`` decided fastest
   (the three easiest), what each decides. **16x16** (``16x16_289.csv``): per backend, puzzles
   decided, median and worst time. **9x9**: ``backtrack``'s median and mean on the bundled
   17-clue and top1465 samples (the figures that must not get worse).
2. **The default check**: ``sudoku-cp check`` with its default backends (``--backends auto``)
   on the bundled 17-clue sample repeated to ``--check-puzzles`` lines, ``--jobs 2``, JSON
   Lines to a temporary file: puzzles a second (wall clock, start-up included), CPU seconds of
   the whole run (main process and workers) and the rate that CPU would give on ``--jobs``
   idle cores, and which backends judged the puzzles (read back from the records). Before it,
   the CPU time one uniqueness check costs each judge in-process (:func:`backend_costs`,
   ``--cost-rounds`` rounds).
3. **Start-up**: ``python -c pass``, ``python -c 'import click'`` (the floor under every
   command), ``sudoku-cp --help``, ``sudoku-cp solve PUZZLE`` (Inkala's puzzle, its search
   included) and ``sudoku-cp solve 17-CLUE`` (a quick one), taking turns ``--startup-runs``
   times: median wall and CPU time, each over bare Python and (CPU) over click's import; then
   each solve's status line (its search time). It says so when the package is an editable
   install, whose path finder bare Python already imports (pathlib …), hiding part of the
   cost.

It measures and reports; it asserts nothing. Load from other processes changes the figures
(the load average is printed with them); CPU times move less with load than wall times.
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
from collections import Counter
from pathlib import Path

import sudoku_cp
from sudoku_cp.backends import get_backend
from sudoku_cp.datasets import load_puzzles
from sudoku_cp.formats import read_input
from sudoku_cp.puzzle import Puzzle

DEFAULT_DATASETS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SEVENTEEN = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
"""The bundled 17-clue sample's first puzzle (a quick search: start-up nearly alone)."""


def _puzzles(path: Path, count: int) -> list[tuple[str, Puzzle]]:
    out = []
    for record in read_input(str(path)):
        if record.puzzle is not None:
            out.append((record.id, record.puzzle))
        if len(out) >= count:
            break
    return out


def _time(backend: str, puzzle: Puzzle, time_limit: float, **options: object) -> tuple[str, float]:
    start = time.perf_counter()
    result = get_backend(backend).solve(puzzle, limit=2, time_limit=time_limit, **options)
    seconds = time.perf_counter() - start
    if result.solutions and not all(puzzle.is_solution(s) for s in result.solutions):
        return "WRONG", seconds
    return result.status.value, seconds


def _cell(status: str, seconds: float) -> str:
    return f"{seconds:8.2f} s" if status in ("unique", "multiple", "none") else f"{status:>10}"


def large_grids(datasets: Path, time_limit: float, count_25: int, count_16: int) -> None:
    print(f"## 1. big grids (uniqueness checks, limit 2, {time_limit:g} s cap)\n")
    rows = _puzzles(datasets / "large" / "25x25_19.csv", count_25)
    from sudoku_cp.backends.backtrack.search import _large_kernel

    kernel = _large_kernel(rows[0][1]) if rows else None
    if kernel is not None:
        kernel.warm_up()  # its compilation (or loading from numba's cache) is not timed
    print(
        "backtrack: "
        + ("the compiled big-grid kernel" if kernel is not None else "pure Python (no numba)")
    )
    print(f"{'25x25 puzzle':22s} {'sat':>10} {'backtrack':>10}  backtrack/sat")
    decided = []
    both = 0
    for name, puzzle in rows:
        sat = _time("sat", puzzle, time_limit)
        bt = _time("backtrack", puzzle, time_limit)
        ratio = f"{bt[1] / sat[1]:8.2f}x" if bt[0] == "unique" and sat[0] == "unique" else "-"
        both += bt[0] == "unique" and sat[0] == "unique"
        print(f"{name:22s} {_cell(*sat)} {_cell(*bt)}  {ratio}", flush=True)
        if sat[0] == "unique":
            decided.append((sat[1], name, puzzle))
    print(
        f"of the {len(decided)} that sat decides, backtrack decides {both}; "
        f"load average {os.getloadavg()[0]:.1f}\n"
    )
    easiest = sorted(decided, key=lambda d: d[0])[:3]
    for backend in ("dlx", "constraint", "cpsat"):
        cells = [_cell(*_time(backend, p, time_limit)) for _, _, p in easiest]
        names = ", ".join(n for _, n, _ in easiest)
        print(f"{backend:10s} on the 3 easiest 25x25 ({names}): {' '.join(cells)}", flush=True)
    print()
    sixteen = _puzzles(datasets / "large" / "16x16_289.csv", count_16)
    print(f"16x16 ({len(sixteen)} puzzles)   decided   median      worst")
    for backend in ("backtrack", "sat", "dlx", "cpsat", "constraint"):
        runs = [_time(backend, p, time_limit) for _, p in sixteen]
        ok = sorted(s for st, s in runs if st == "unique")
        worst = max(s for _, s in runs)
        median = statistics.median(ok) * 1000 if ok else float("nan")
        print(f"{backend:18s} {len(ok):5d}  {median:8.2f} ms {worst:8.2f} s", flush=True)
    print()
    for name in ("17clue", "top1465"):
        puzzles = load_puzzles(name)
        times = [_time("backtrack", p, time_limit)[1] * 1000 for p in puzzles]
        print(
            f"9x9 {name:8s} backtrack median {statistics.median(times):.3f} ms, "
            f"mean {statistics.fmean(times):.3f} ms"
        )
    print()


def backend_costs(rounds: int) -> None:
    """CPU time a uniqueness check of a 17-clue puzzle costs each default judge in a check's
    worker, and ``sat`` with a fresh solver per puzzle (as a single ``solve`` runs it): the
    bundled sample, the three taking turns ``rounds`` times, medians of the rounds' means."""
    from sudoku_cp.backends import backend_class

    puzzles = load_puzzles("17clue")
    backend_class("backtrack").prepare()  # the compiled kernel, as a worker loads it
    runs = {
        "backtrack": (get_backend("backtrack"), {}),
        "sat (kept solver, as in a check)": (get_backend("sat"), {"incremental": True}),
        "sat (fresh solver per puzzle)": (get_backend("sat"), {"incremental": False}),
    }
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    for backend, options in runs.values():  # warm: libraries, kernel, kept solver
        backend.solve(puzzles[0], limit=2, time_limit=60, **options)
    for _ in range(rounds):
        for name, (backend, options) in runs.items():
            start = time.process_time()
            for puzzle in puzzles:
                backend.solve(puzzle, limit=2, time_limit=60, **options)
            cpu[name].append((time.process_time() - start) / len(puzzles))
    print(f"CPU a 17-clue uniqueness check ({len(puzzles)} puzzles, median of {rounds} rounds):")
    for name, times in cpu.items():
        print(f"  {name:34s} {statistics.median(times) * 1e6:7.0f} us")
    print()


def default_check(count: int, jobs: int, cost_rounds: int) -> None:
    print(f"## 2. default check: 17-clue sample repeated to {count:,} puzzles, --jobs {jobs}\n")
    backend_costs(cost_rounds)
    sample = [p.cells for p in load_puzzles("17clue")]
    lines = ["".join(str(d) if d else "." for d in cells) for cells in sample]
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "puzzles.txt"
        with source.open("w") as out:
            for i in range(count):
                out.write(lines[i % len(lines)] + "\n")
        output = Path(tmp) / "verdicts.jsonl"
        exe = Path(sys.executable).with_name("sudoku-cp")
        command = [str(exe), "check", str(source), "--jobs", str(jobs), "-q", "-o", str(output)]
        start = time.perf_counter()
        process = subprocess.Popen(command)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        judges: Counter[tuple[str, ...]] = Counter()
        verdicts: Counter[str] = Counter()
        with output.open() as records:
            for line in records:
                record = json.loads(line)
                judges[tuple(sorted(record["backends"]))] += 1
                verdicts[record["verdict"]] += 1
    cpu = usage.ru_utime + usage.ru_stime
    print(f"exit status {os.waitstatus_to_exitcode(status)}, {seconds:.1f} s wall, {cpu:.1f} s CPU")
    print(f"{count / seconds:,.0f} puzzles a second (target 1,000)")
    print(
        f"{cpu / count * 1000:.2f} ms of CPU a puzzle: {count / cpu * jobs:,.0f} puzzles a second "
        f"on {jobs} idle cores"
    )
    print(f"verdicts {dict(verdicts)}; judged by {dict(judges)}\n")


def startup(runs: int) -> None:
    print(f"## 3. start-up, median of {runs} runs taking turns\n")
    # An installed package has its bytecode compiled; a checkout run with
    # PYTHONDONTWRITEBYTECODE=1 would compile every module at every start. Compile it once.
    package = Path(sudoku_cp.__file__).resolve().parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=False)
    bare = _modules_of([sys.executable, "-c", "import sys; print(' '.join(sys.modules))"])
    if any("__editable__" in name for name in bare) or "pathlib" in bare:
        print(
            "(an editable install: bare Python here already imports its path finder, pathlib "
            "and more, which the commands then get for free — a normal install (pip install .) "
            "shows the full cost)\n"
        )
    exe = str(Path(sys.executable).with_name("sudoku-cp"))
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        # the floor under every command: the command line is click's
        "python -c 'import click'": [sys.executable, "-c", "import click"],
        "sudoku-cp --help": [exe, "--help"],
        "sudoku-cp solve PUZZLE": [exe, "solve", INKALA],
        "sudoku-cp solve 17-CLUE": [exe, "solve", SEVENTEEN],
    }
    wall: dict[str, list[float]] = {k: [] for k in commands}
    cpu: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(runs):
        for name, command in commands.items():
            start = time.perf_counter()
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
            _, _, usage = os.wait4(process.pid, 0)
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(usage.ru_utime + usage.ru_stime)
    base_wall = statistics.median(wall["python -c pass"]) * 1000
    base_cpu = statistics.median(cpu["python -c pass"]) * 1000
    click_cpu = statistics.median(cpu["python -c 'import click'"]) * 1000
    heads = ("wall", "over bare", "CPU", "over bare", "over click")
    print(f"{'':26s} {heads[0]:>9s} {heads[1]:>10s}   " + " ".join(f"{h:>10s}" for h in heads[2:]))
    for name in commands:
        w, c = statistics.median(wall[name]) * 1000, statistics.median(cpu[name]) * 1000
        over = (w - base_wall, c - base_cpu, c - click_cpu)
        print(f"{name:26s} {w:6.1f} ms {over[0]:+7.1f} ms   {c:7.1f} ms {over[1]:+7.1f} ms", end="")
        print(f" {over[2]:+7.1f} ms")
    for label, puzzle in (("PUZZLE", INKALA), ("17-CLUE", SEVENTEEN)):
        line = subprocess.run([exe, "solve", puzzle], capture_output=True, text=True).stdout
        print(f"(solve {label}: {line.splitlines()[0] if line else '?'})")
    print("target: --help and solve within 60 ms of bare Python (the 'over bare' columns)\n")


def _modules_of(command: list[str]) -> set[str]:
    return set(subprocess.run(command, capture_output=True, text=True).stdout.split())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--count-25", type=int, default=19)
    parser.add_argument("--count-16", type=int, default=289)
    parser.add_argument("--check-puzzles", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cost-rounds", type=int, default=5)
    parser.add_argument("--startup-runs", type=int, default=21)
    parser.add_argument("--skip", default="", help="parts to leave out: large,check,startup")
    args = parser.parse_args(argv)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    print(f"load average before: {os.getloadavg()}\n")
    if "large" not in skip:
        large_grids(args.datasets, args.time_limit, args.count_25, args.count_16)
    if "check" not in skip:
        default_check(args.check_puzzles, args.jobs, args.cost_rounds)
    if "startup" not in skip:
        startup(args.startup_runs)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
