"""Benchmark of the backtracker's strategies: what each idea costs and saves.

    python -m tools.perf.strategies [--set top1465] [--limit 2] [--count N]
                                              [--strategies fast,mrv,ordered,naive]
                                              [--timeout SECONDS] [--repeat K]

On the first ``--count`` puzzles of a bundled sample (``sudoku_cp/data/<set>.csv``, or any CSV
file with a ``puzzle`` column) it runs every strategy with ``--limit`` (1, 2 = a uniqueness
check, or ``all``) and a time limit per puzzle (``--timeout``, so the textbook strategies do not
run for hours on hard puzzles), and prints per strategy: puzzles finished and timed out, median,
90th percentile and largest wall time in ms, and the mean of each counter (nodes, backtracks,
propagations). Each puzzle is timed ``--repeat`` times and the fastest kept, to damp other
processes on the machine. Every solution goes through the validator; a wrong one is reported.
It measures and reports; it asserts nothing.

The ideas, one per strategy: ``naive`` tries every digit; ``ordered`` only digits no given peer
holds; ``mrv`` keeps candidates up to date and fills the cell with the fewest; ``fast`` adds
propagation (singles, confinement) on bit-packed candidates.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass, field

from sudoku_cp.backends.backtrack import STRATEGIES, BacktrackBackend
from sudoku_cp.datasets import load_puzzles
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.result import Status


@dataclass
class Tally:
    """What one strategy did on the set."""

    strategy: str
    millis: list[float] = field(default_factory=list)
    timeouts: int = 0
    wrong: int = 0
    counters: dict[str, list[float]] = field(default_factory=dict)

    def add(self, millis: float, timed_out: bool, wrong: bool, stats: dict) -> None:
        self.millis.append(millis)
        self.timeouts += timed_out
        self.wrong += wrong
        for name, value in stats.items():
            self.counters.setdefault(name, []).append(value)

    def row(self) -> list[str]:
        times = sorted(self.millis)
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        mean = {k: statistics.fmean(v) for k, v in self.counters.items()}
        return [
            self.strategy,
            str(len(times) - self.timeouts),
            str(self.timeouts),
            f"{statistics.median(times):.2f}",
            f"{p90:.2f}",
            f"{times[-1]:.2f}",
            f"{mean.get('nodes', 0):.0f}",
            f"{mean.get('backtracks', 0):.0f}",
            f"{mean['propagations']:.0f}" if "propagations" in mean else "-",
            str(self.wrong) if self.wrong else "",
        ]


def measure(
    strategy: str, puzzles: list[Puzzle], limit: int | None, timeout: float, repeat: int
) -> Tally:
    """Run one strategy on every puzzle; keep the fastest of ``repeat`` runs of each."""
    backend = BacktrackBackend()
    backend.solve(puzzles[0], limit=limit, time_limit=timeout, strategy=strategy)  # warm-up
    tally = Tally(strategy)
    for puzzle in puzzles:
        runs = [
            backend.solve(puzzle, limit=limit, time_limit=timeout, strategy=strategy)
            for _ in range(repeat)
        ]
        best = min(runs, key=lambda r: r.seconds)
        wrong = not all(puzzle.is_solution(s) for s in best.solutions)
        tally.add(
            best.seconds * 1000,
            best.status is Status.TIMEOUT or not best.finished,
            wrong,
            best.stats,
        )
    return tally


HEADER = [
    "strategy",
    "finished",
    "timeouts",
    "median ms",
    "p90 ms",
    "max ms",
    "nodes",
    "backtracks",
    "propagations",
    "wrong",
]


def table(rows: list[list[str]]) -> str:
    """A plain fixed-width table: names left-aligned, figures right-aligned."""
    widths = [max(len(r[i]) for r in [HEADER, *rows]) for i in range(len(HEADER))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(HEADER), line(["-" * w for w in widths]), *map(line, rows)])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.perf.strategies",
        description="Compare the backtracker's strategies on a puzzle sample.",
    )
    parser.add_argument(
        "--set",
        default="top1465",
        help="bundled sample name (17clue, top1465, forum-hardest, easy, "
        "multiple, famous, 16x16) or a CSV file with a 'puzzle' column",
    )
    parser.add_argument("--limit", default="2", help="solutions to look for: 1, 2, … or 'all'")
    parser.add_argument("--count", type=int, default=20, help="how many puzzles (from the top)")
    parser.add_argument(
        "--strategies",
        default=",".join(STRATEGIES),
        help="comma-separated, in the order to run them",
    )
    parser.add_argument(
        "--timeout", type=float, default=2.0, help="time limit per puzzle and run, in seconds"
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per puzzle (fastest kept)")
    args = parser.parse_args(argv)

    limit = None if args.limit == "all" else int(args.limit)
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = [s for s in strategies if s not in STRATEGIES]
    if unknown:
        parser.error(f"unknown strategy {', '.join(unknown)} (choose from {', '.join(STRATEGIES)})")
    puzzles = load_puzzles(args.set, args.count)
    print(
        f"{args.set}: {len(puzzles)} puzzles, limit {args.limit}, "
        f"time limit {args.timeout:g} s per puzzle, fastest of {args.repeat}"
    )
    rows = []
    for strategy in strategies:
        rows.append(measure(strategy, puzzles, limit, args.timeout, args.repeat).row())
    print(table(rows))
    print(
        "times are wall ms per puzzle (a timed-out puzzle counts its time limit); "
        "counters are means per puzzle"
    )


if __name__ == "__main__":
    main()
