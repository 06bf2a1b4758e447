"""Full logic-solver traces of hard puzzles, for checking that a speed change kept every step
(technique, eliminations, placements, text) and for timing it.

    python -m tools.perf.tabling_traces OUT.jsonl [--spread N] [--only A:B]
    python -m tools.perf.tabling_traces --compare A.jsonl B.jsonl

Puzzles: the bundled top1465, forum-hardest and jigsaw samples, then ``--spread`` (default
100) lines spread evenly over ``--top1465`` (tdoku's ``puzzles3_magictour_top1465.txt``) when
that file exists. Each is solved with ``solve_logically(puzzle, uniqueness=True)``; a line per
puzzle holds its id, outcome, steps and CPU seconds (``time.process_time``: the machine is
shared). Run it from two source trees (``PYTHONPATH``) and ``--compare`` the files: it prints
the puzzles whose traces differ (exit status 1 if any), and the median and total CPU times.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

TOP1465 = Path("/work/shared/datasets/tdoku/puzzles3_magictour_top1465.txt")


def _rows(spread: int, top: Path) -> list[dict[str, str]]:
    from sudoku_cp import data

    base = Path(data.__file__).parent
    rows: list[dict[str, str]] = []
    for name in ("top1465", "forum-hardest", "jigsaw"):
        with (base / f"{name}.csv").open(newline="", encoding="utf-8") as handle:
            rows += list(csv.DictReader(handle))
    if spread and top.exists():
        lines = [line.strip() for line in top.read_text().splitlines() if line.strip()]
        step = max(1, len(lines) // spread)
        for index in range(0, len(lines), step)[:spread]:
            rows.append({"id": f"tdoku-top1465:{index + 1}", "puzzle": lines[index][:81]})
    return rows


def _puzzle(row: dict[str, str]) -> Any:
    from sudoku_cp import Puzzle
    from sudoku_cp.model import load_model

    if row.get("regions"):
        model = load_model("classic").with_rules(regions=[int(ch) for ch in row["regions"]])
        return Puzzle.parse(row["puzzle"], model)
    return Puzzle.parse(row["puzzle"])


def dump(out: Path, spread: int, top: Path, only: str) -> None:
    from sudoku_cp.logic.solver import solve_logically

    rows = _rows(spread, top)
    if only:
        a, b = (int(x) for x in only.split(":"))
        rows = rows[a:b]
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            puzzle = _puzzle(row)
            start = time.process_time()
            trace = solve_logically(puzzle, uniqueness=True)
            cpu = time.process_time() - start
            steps = [[s.technique, s.eliminations, s.placements, s.text] for s in trace.steps]
            line = {"id": row["id"], "outcome": trace.outcome, "steps": steps, "cpu": cpu}
            handle.write(json.dumps(line) + "\n")
            handle.flush()


def compare(a: Path, b: Path) -> int:
    def load(path: Path) -> dict[str, dict[str, Any]]:
        return {r["id"]: r for r in map(json.loads, path.read_text().splitlines())}

    left, right = load(a), load(b)
    common = [k for k in left if k in right]
    differ = [
        k
        for k in common
        if (left[k]["outcome"], left[k]["steps"]) != (right[k]["outcome"], right[k]["steps"])
    ]
    for k in differ:
        print(f"differs: {k}")
    steps = sum(len(left[k]["steps"]) for k in common)
    print(f"{len(common)} puzzles, {steps} steps compared, {len(differ)} differ")
    for name, side in ((a, left), (b, right)):
        cpu = [float(side[k]["cpu"]) for k in common]
        print(
            f"{name}: median {statistics.median(cpu) * 1000:.1f} ms, mean "
            f"{statistics.mean(cpu) * 1000:.1f} ms, max {max(cpu):.2f} s, total {sum(cpu):.1f} s"
        )
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--spread", type=int, default=100)
    parser.add_argument("--top1465", type=Path, default=TOP1465)
    parser.add_argument("--only", default="", help="rows A:B of the list")
    args = parser.parse_args()
    if args.compare:
        sys.exit(compare(*args.files[:2]))
    dump(args.files[0], min(args.spread, 1465), args.top1465, args.only)


if __name__ == "__main__":
    main()
