"""Time ``sudoku-cp candidates`` (issue 31) and pencil-mark uniqueness checks (issue 34).

    python -m tools.perf.candidates_speed [SET ...] [--time-limit S]
    python -m tools.perf.candidates_speed --pencilmark FILE [--pencilmark FILE ...]
        [--count N] [--backends backtrack,sat,cpsat] [--time-limit S] [--tdoku LIB.so]

For each bundled set (default: ``variants9`` and ``published``) the true candidates and the
solution count (cap 1,000, 30 probes above it) of every puzzle are computed as the command
does (:func:`sudoku_cp.true_candidates.analyse`), one puzzle at a time in this process; the
per-puzzle times' median, 90th percentile and maximum are printed for the 9x9 puzzles and for
the others apart, with the puzzles the time limit cut short.

With ``--pencilmark FILE`` (a file of 729-symbol candidate grids, one a line, such as each band
of t-dillon/pencilmark_sudoku's ``hard/``: ``gurobi_hard``, ``minisat_bt_020-029k`` …; give it
once per band), ``--count`` puzzles spread evenly over each file (every k-th line) are checked
for uniqueness (``solve`` with limit 2) by each backend with its default options, the backends
one after the other on each puzzle (their order turning from one puzzle to the next, so that
load hits them alike). The backtracker's compiled kernel is loaded before the clock starts
(its loading rule would otherwise spend the first 0.25 s in pure Python). Every solution is
checked by the plain validator and the backends' statuses compared; then, per file and
backend, the per-puzzle median, 90th percentile and maximum of the wall time and of the CPU
time (this process's, every thread's: what load changes least), and the fastest median. With
``--tdoku`` (a ``libtdoku_shared.so`` built by ``/work/shared/peers/build-tdoku.sh``), tdoku's
own solver joins the turn on the same 729 symbols (it reads a candidate grid when the input
goes on past 81: t-dillon/tdoku ``src/solver_dpll_triad_simd.cc``,
``TdokuSolverDpllTriadSimd``), its count checked too, and each backend's median per-puzzle
ratio to it is printed. The load average is printed before and after: other processes change
the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence
from typing import Any

from sudoku_cp.datasets import load_puzzles
from sudoku_cp.puzzle import Puzzle


def _figures(times: Sequence[float]) -> str:
    if not times:
        return "no puzzles"
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (
        f"{len(times)} puzzles: median {statistics.median(times) * 1000:.0f} ms, "
        f"90th percentile {p90 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"
    )


def time_sets(names: Sequence[str], time_limit: float) -> None:
    from sudoku_cp.true_candidates import OutOfTime, analyse

    for name in names:
        by_size: dict[str, list[float]] = {"9x9": [], "other sizes": []}
        cut = 0
        for puzzle in load_puzzles(name):
            start = time.perf_counter()
            try:
                analyse(puzzle, cap=1000, probes=30, seed=0, time_limit=time_limit)
            except OutOfTime:
                cut += 1
            spent = time.perf_counter() - start
            by_size["9x9" if puzzle.size == 9 else "other sizes"].append(spent)
        for size, times in by_size.items():
            if times:
                print(f"{name} {size}: {_figures(times)}")
        print(f"{name}: {cut} cut short by the {time_limit:g} s limit")


def _spread(path: str, count: int) -> list[Puzzle]:
    """``count`` puzzles spread evenly over the file (every k-th line, from the first)."""
    from sudoku_cp.formats import read_puzzles

    puzzles = [record.puzzle for record in read_puzzles(path) if record.puzzle is not None]
    step = max(1, len(puzzles) // count)
    return puzzles[::step][:count]


def time_pencilmarks(
    paths: Sequence[str],
    count: int,
    backends: Sequence[str],
    time_limit: float,
    tdoku: Any = None,
) -> dict[str, dict[str, list[float]]]:
    """Per file, per backend, the seconds of each uniqueness check (see the module docstring)."""
    from sudoku_cp.backends import get_backend
    from sudoku_cp.formats.candidates import write_candidates

    runners = {name: get_backend(name) for name in backends}
    for runner in runners.values():
        runner.prepare()  # the backtracker's kernel loaded (and the others' libraries)
    names = list(backends) + (["tdoku"] if tdoku is not None else [])
    figures: dict[str, dict[str, list[float]]] = {}
    clock = time.process_time  # CPU seconds of this process (every thread): load moves them less
    for path in paths:
        label = os.path.basename(path)
        puzzles = _spread(path, count)
        times: dict[str, list[float]] = {name: [] for name in names}
        cpu: dict[str, list[float]] = {name: [] for name in names}
        for index, puzzle in enumerate(puzzles):
            turn = index % len(names)
            statuses = {}
            for name in names[turn:] + names[:turn]:
                if name == "tdoku":
                    line = write_candidates(puzzle).encode() + b"\0"
                    start, used = time.perf_counter(), clock()
                    found = tdoku.count(line, 2)
                    times[name].append(time.perf_counter() - start)
                    cpu[name].append(clock() - used)
                    statuses[name] = {0: "none", 1: "unique"}.get(found, "multiple")
                    continue
                start, used = time.perf_counter(), clock()
                result = runners[name].solve(puzzle, limit=2, time_limit=time_limit)
                times[name].append(time.perf_counter() - start)
                cpu[name].append(clock() - used)
                statuses[name] = result.status.value
                if not all(puzzle.is_solution(grid) for grid in result.solutions):
                    print(f"  {label} #{index + 1}: {name} returned a grid the validator rejects")
            if len(set(statuses.values())) > 1 or "unique" not in statuses.values():
                print(f"  {label} #{index + 1}: {statuses}")
        for name in names:
            print(f"{label} {name}: {_figures(times[name])}", flush=True)
            print(f"{label} {name} CPU: {_figures(cpu[name])}", flush=True)
        best = min(backends, key=lambda name: statistics.median(times[name]))
        print(f"{label}: fastest median {best} ({statistics.median(times[best]):.3f} s)")
        if tdoku is not None:
            ratios = []
            for name in backends:
                pairs = zip(times[name], times["tdoku"], strict=True)
                ratios.append(f"{name} {statistics.median(a / max(b, 1e-9) for a, b in pairs):.2f}")
            print(f"{label}: median per-puzzle ratio to tdoku: " + ", ".join(ratios))
        figures[label] = times
    return figures


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=["variants9", "published"])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--pencilmark", action="append", default=[], help="a file of grids")
    parser.add_argument("--count", type=int, default=20, help="puzzles a file")
    parser.add_argument("--backends", default="backtrack,sat,cpsat")
    parser.add_argument("--tdoku", default=None, help="path of libtdoku_shared.so")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 100_000:
        parser.error("--count must be from 1 to 100,000")
    if not 0 < args.time_limit <= 3600:
        parser.error("--time-limit must be above 0 and at most 3,600 seconds")
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs", flush=True)
    if args.pencilmark:
        backends = [b for b in args.backends.split(",") if b]
        tdoku = None
        if args.tdoku:
            from tools.perf.entry_cost import Tdoku

            tdoku = Tdoku(args.tdoku)
        time_pencilmarks(args.pencilmark, args.count, backends, args.time_limit, tdoku)
    else:
        time_sets(args.sets, args.time_limit)
    print(f"load average after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
