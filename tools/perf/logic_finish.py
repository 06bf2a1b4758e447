"""How many puzzles the human-style solve finishes without guessing (issue 30): the outcome
``solved`` of ``solve_logically(puzzle, uniqueness=True)`` — the default techniques, uniqueness
on, as ``rate`` solves — and the wall time a puzzle (median, 90th percentile, max), per file.

    python -m tools.perf.logic_finish FILE... [--count N] [--stride K] [--time-cap S]

FILE holds one 81-character puzzle a line (its first field; ``#`` lines and blank lines are
skipped), e.g. tdoku's ``puzzles1_unbiased_first1000.txt``. ``--count`` takes the first N
puzzles of each file after ``--stride`` kept every K-th line (a sample spread over a file that
runs from easy to hard). Each solve gets ``--time-cap`` seconds (its ``deadline``): a puzzle
that runs past it is counted ``timed out``, not solved, so one slow puzzle cannot hang a run.
The load average is printed before and after each file. It measures; it asserts nothing.
Unusable input: a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from sudoku_cp.errors import SudokuError
from sudoku_cp.logic.solver import solve_logically
from sudoku_cp.puzzle import Puzzle

MAX_COUNT = 100_000
MAX_STRIDE = 100_000
MAX_TIME_CAP = 3_600.0


class Unusable(Exception):
    """Input this tool cannot measure: its message names what and where."""


def read_puzzles(path: Path, count: int, stride: int) -> list[Puzzle]:
    """Every ``stride``-th puzzle line of ``path``, the first ``count`` of them."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise Unusable(f"{path}: cannot read: {error}") from None
    kept: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if line and not line.startswith("#"):
            kept.append((number, line.split()[0].split(",")[0]))
    puzzles = []
    for number, field in kept[::stride][:count]:
        if len(field) != 81:
            raise Unusable(f"{path}:{number}: not an 81-character puzzle ({len(field)} characters)")
        try:
            puzzles.append(Puzzle.parse(field))
        except SudokuError as error:
            raise Unusable(f"{path}:{number}: {error}") from None
    if not puzzles:
        raise Unusable(f"{path}: no puzzles")
    return puzzles


class Result(NamedTuple):
    puzzles: int
    outcomes: dict[str, int]
    median_s: float
    p90_s: float
    max_s: float
    total_s: float


def measure(puzzles: list[Puzzle], time_cap: float) -> Result:
    """Solve each puzzle once; the outcomes counted and the wall times' summary."""
    outcomes: Counter[str] = Counter()
    seconds: list[float] = []
    for puzzle in puzzles:
        start = time.perf_counter()
        trace = solve_logically(puzzle, uniqueness=True, deadline=start + time_cap)
        seconds.append(time.perf_counter() - start)
        outcomes["timed out" if trace.timed_out else trace.outcome] += 1
    ordered = sorted(seconds)
    return Result(
        puzzles=len(puzzles),
        outcomes=dict(outcomes),
        median_s=statistics.median(ordered),
        p90_s=ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        max_s=ordered[-1],
        total_s=sum(ordered),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument("--count", type=int, default=1000, help="puzzles a file (max 100000)")
    parser.add_argument("--stride", type=int, default=1, help="keep every K-th line (max 100000)")
    parser.add_argument("--time-cap", type=float, default=60.0, help="seconds a puzzle (max 3600)")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= MAX_COUNT:
        parser.error(f"--count takes 1 to {MAX_COUNT}")
    if not 1 <= args.stride <= MAX_STRIDE:
        parser.error(f"--stride takes 1 to {MAX_STRIDE}")
    if not 0 < args.time_cap <= MAX_TIME_CAP:
        parser.error(f"--time-cap takes more than 0 and up to {MAX_TIME_CAP:g} seconds")
    try:
        sets = [(path, read_puzzles(path, args.count, args.stride)) for path in args.files]
    except Unusable as error:
        print(f"logic_finish: {error}", file=sys.stderr)
        return 2
    for path, puzzles in sets:
        load_before = os.getloadavg()[0]
        r = measure(puzzles, args.time_cap)
        load_after = os.getloadavg()[0]
        solved = r.outcomes.get("solved", 0)
        print(
            f"{path.name}: {solved}/{r.puzzles} solved ({100 * solved / r.puzzles:.1f}%), "
            f"outcomes {r.outcomes}, median {1000 * r.median_s:.1f} ms, "
            f"p90 {1000 * r.p90_s:.1f} ms, max {r.max_s:.2f} s, "
            f"total {r.total_s:.0f} s, load {load_before:.1f}-{load_after:.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
