"""Time ``sudoku-cp candidates`` (issue 31) and pencil-mark uniqueness checks (issue 34).

    python -m tools.perf.candidates_speed [SET ...] [--time-limit S]
        [--pencilmark FILE --count N --backends sat,cpsat]

For each bundled set (default: ``variants9`` and ``published``) the true candidates and the
solution count (cap 1,000, 30 probes above it) of every puzzle are computed as the command
does (:func:`sudoku_cp.true_candidates.analyse`), one puzzle at a time in this process; the
per-puzzle times' median, 90th percentile and maximum are printed for the 9x9 puzzles and for
the others apart, with the puzzles the time limit cut short.

With ``--pencilmark FILE`` (a file of 729-symbol candidate grids, one a line, such as
t-dillon/pencilmark_sudoku's ``hard/gurobi_hard``), the first ``--count`` puzzles are checked
for uniqueness (``solve`` with limit 2) by each backend, and the medians printed instead.
The load average is printed: other processes change the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence

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


def time_pencilmarks(path: str, count: int, backends: Sequence[str], time_limit: float) -> None:
    from sudoku_cp.backends import get_backend
    from sudoku_cp.formats import read_puzzles

    puzzles: list[Puzzle] = []
    for record in read_puzzles(path):
        if record.puzzle is not None:
            puzzles.append(record.puzzle)
        if len(puzzles) >= count:
            break
    for name in backends:
        backend = get_backend(name)
        times = []
        for puzzle in puzzles:
            start = time.perf_counter()
            result = backend.solve(puzzle, limit=2, time_limit=time_limit)
            times.append(time.perf_counter() - start)
            if result.status.value != "unique":
                print(f"  {name}: {result.status.value} on a puzzle")
        print(f"{os.path.basename(path)} {name}: {_figures(times)}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=["variants9", "published"])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--pencilmark", default=None)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--backends", default="sat,cpsat")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    if args.pencilmark:
        time_pencilmarks(args.pencilmark, args.count, args.backends.split(","), args.time_limit)
    else:
        time_sets(args.sets, args.time_limit)


if __name__ == "__main__":
    main()
