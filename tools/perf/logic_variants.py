"""How far logic alone gets on variant puzzles (issue 31), and whether every step is sound.

    python -m tools.perf.logic_variants [SET ...]    # default: variants9 published

Each puzzle of the bundled sets (both carry their setters' solutions) is solved by
``solve_logically`` alone; every placement and elimination of every step is checked against
the published solution (a puzzle whose published solution breaks the rules as read is counted
apart: nothing to check against). Printed: the puzzles solved to the end, per rule kind (a
puzzle counts once for each kind it has), the steps contradicting a solution (must be 0), and
the wall time per puzzle (median, 90th percentile, max, total), one puzzle after the other.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter, defaultdict

from sudoku_cp.datasets import bundled_file
from sudoku_cp.formats import read_input
from sudoku_cp.logic.solver import solve_logically
from sudoku_cp.model import load_model


def main(argv: list[str] | None = None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or ["variants9", "published"]
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    outcomes: Counter[str] = Counter()
    techniques: Counter[str] = Counter()
    times: list[float] = []
    wrong = skipped = 0
    for name in names:
        path = bundled_file(name)
        if path is None:
            print(f"unknown bundled set {name!r}", file=sys.stderr)
            return 2
        for record in read_input(str(path), model=load_model("classic")):
            puzzle = record.puzzle
            if puzzle is None or puzzle.published is None:
                skipped += 1
                continue
            truth = puzzle.published
            if not puzzle.is_solution(truth):
                skipped += 1
                continue
            start = time.perf_counter()
            trace = solve_logically(puzzle)
            times.append(time.perf_counter() - start)
            for step in trace.steps:
                techniques[step.technique] += 1
                if any(truth[c] == d for c, d in step.eliminations) or any(
                    truth[c] != d for c, d in step.placements
                ):
                    wrong += 1
                    print(f"CONTRADICTS: {name} {record.id}: {step.technique}: {step.text}")
            outcomes[trace.outcome] += 1
            for key in sorted({rule.key for rule in puzzle.model.rules}):
                per_kind[key][0] += 1
                per_kind[key][1] += trace.outcome == "solved"
    total = sum(outcomes.values())
    solved = outcomes["solved"]
    print(f"puzzles: {total} ({skipped} left out: no published solution under the rules read)")
    share = 100 * solved / max(total, 1)
    print(f"solved by logic alone: {solved} ({share:.0f}%); {dict(outcomes)}")
    print(f"steps contradicting a published solution: {wrong}")
    times.sort()
    if times:
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"time per puzzle: median {statistics.median(times):.2f} s, 90th percentile "
            f"{p90:.2f} s, max {times[-1]:.2f} s, total {sum(times):.0f} s"
        )
    print("per rule kind (solved / puzzles with it):")
    for key, (count, done) in sorted(per_kind.items()):
        print(f"  {key:<18} {done:>3} / {count:<3} {100 * done / count:4.0f}%")
    print("steps by technique:", dict(techniques.most_common()))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
