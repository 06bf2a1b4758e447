"""What the Franken fish (issue 30) change on a puzzle file: finish rate and CPU time per
puzzle (process time, as the machine may be shared) of the default human-style solve
(uniqueness on, as ``rate`` solves) without and with the techniques of
:mod:`sudoku_cp.logic.complex_fish` that are registered, the two interleaved puzzle by puzzle
in one process so a load that comes and goes weighs on both alike.

    python -m tools.perf.complex_fish FILE [--limit N] [--searches]

With ``--searches``, instead: each search of :mod:`sudoku_cp.logic.complex_fish` (all twelve,
registered or not) run to the end (``every_step``) on every grid where the default techniques
without them stall, and its mean CPU milliseconds a grid and the steps it found.

FILE holds one 81-character puzzle a line (e.g. the tdoku collection's
``puzzles3_magictour_top1465.txt``). It measures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from sudoku_cp import Puzzle
from sudoku_cp.logic import complex_fish
from sudoku_cp.logic.board import Board, Technique, every_step
from sudoku_cp.logic.solver import TECHNIQUES, solve_logically

MAX_LIMIT = 100_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--limit", type=int, default=MAX_LIMIT)
    parser.add_argument("--searches", action="store_true")
    args = parser.parse_args()
    limit = max(0, min(args.limit, MAX_LIMIT))
    lines = [ln.strip() for ln in args.file.read_text().splitlines() if ln.strip()][:limit]
    ours = {id(find) for _, _, find in complex_fish.TECHNIQUES}
    after = [e.find for e in TECHNIQUES if not e.rules]
    before = [find for find in after if id(find) not in ours]
    if args.searches:
        searches(lines, before)
        return
    results: dict[str, list[tuple[str, float]]] = {"before": [], "after": []}
    used: Counter[str] = Counter()
    where: dict[str, list[int]] = {}
    walls = {"before": 0.0, "after": 0.0}
    names = {name for _, name, _ in complex_fish.TECHNIQUES}
    for number, line in enumerate(lines):
        puzzle = Puzzle.parse(line[:81])
        order = [("before", before), ("after", after)]
        if number % 2:
            order.reverse()
        for label, chosen in order:
            start, clock = time.process_time(), time.perf_counter()
            trace = solve_logically(puzzle, uniqueness=True, techniques=chosen)
            spent = time.process_time() - start
            walls[label] += time.perf_counter() - clock
            broken = trace.outcome == "contradiction" or (
                trace.outcome == "solved" and not puzzle.is_solution(trace.values)
            )
            results[label].append(("wrong" if broken else trace.outcome, spent))
            if label == "after":
                mine = {s.technique for s in trace.steps if s.technique in names}
                used.update(mine)
                for name in mine:
                    where.setdefault(name, []).append(number + 1)
    for label, rows in results.items():
        times = [t for _, t in rows]
        solved = sum(1 for outcome, _ in rows if outcome == "solved")
        wrong = sum(1 for outcome, _ in rows if outcome == "wrong")
        print(
            f"{label:6}: {solved}/{len(rows)} solved ({100 * solved / max(len(rows), 1):.1f} %), "
            f"per puzzle mean {1000 * statistics.fmean(times):.0f} ms, "
            f"median {1000 * statistics.median(times):.0f} ms, max {1000 * max(times):.0f} ms, "
            f"total {sum(times):.1f} s (wall {walls[label]:.1f} s); "
            f"{wrong} wrong (a contradiction, or a grid the validator rejects)"
        )
    print("puzzles using each:", dict(used.most_common()))
    for name, lines_used in where.items():
        print(f"  {name}: lines {lines_used[:12]}")


def searches(lines: list[str], before: list[Technique]) -> None:
    """Each search to the end on every grid where ``before`` stalls."""
    grids = []
    for line in lines:
        puzzle = Puzzle.parse(line[:81])
        trace = solve_logically(puzzle, uniqueness=True, techniques=before)
        if trace.outcome != "stalled":
            continue
        board = Board(puzzle)
        for cell, value in enumerate(trace.values):
            if value and not board.values[cell]:
                board.place(cell, value)
        for cell, mask in enumerate(trace.candidates):
            if not board.values[cell]:
                board.candidates[cell] &= mask
        grids.append(board)
    print(f"{len(grids)} stalled grids of {len(lines)} puzzles")
    for _, name, find in complex_fish.TECHNIQUES:
        spent = 0.0
        found = 0
        for board in grids:
            board.memo.clear()  # (each search from scratch, not from another's notes)
            start = time.process_time()
            found += sum(1 for _ in every_step(find, board))
            spent += time.process_time() - start
        mean = 1000 * spent / max(len(grids), 1)
        print(f"  {name:26} {mean:7.1f} ms a grid, {found} steps")


if __name__ == "__main__":
    main()
