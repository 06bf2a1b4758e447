"""The ``cpsat`` backend against a bare CP-SAT model of the same variant puzzle (issue 13).

    python -m tools.perf.cpsat_bare [--datasets DIR] [--count N] [--limit L] [--rounds R]

Times, on the public killer set (``variants/killer_janko_151.jsonl``) and jigsaw set
(``variants/jigsaw_janko_127.csv``) of the shared datasets, the ``cpsat`` backend's ``solve``
against a CP-SAT model written here by hand from the raw file: an integer variable per cell,
``AddAllDifferent`` per row, column and region (box or jigsaw region) and per killer cage, a
linear equality per cage sum; one worker; for ``limit`` 1 a plain solve, above it the same
enumerating search the backend runs (presolve off up to 9x9, a callback stopping at the limit).
Nothing of the toolkit is used by the bare side: no Puzzle, no model, no Result.

Backend and bare model run back to back on each puzzle, in alternating order, ``rounds`` times;
each side's time for a puzzle is its median over the rounds, and ``backend / bare`` is the
median of the per-puzzle ratios. Target (issue 13): at most 1.2. The load average is printed;
other processes change the figures.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sudoku_cp.backends import get_backend
from sudoku_cp.model import load_model
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.rules import Cage

from .wrapper_cost import bare_cpsat, classic_groups

DEFAULT_DATASETS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"

Bare = tuple[list[int], list[list[int]], list[tuple[list[int], int]]]
"""What the bare model needs: givens, all-different groups, and cages (cells, sum)."""


def lines_and_boxes(n: int, regions: Sequence[int] | None) -> list[list[int]]:
    """Rows, columns and the boxes (or the jigsaw regions) of an n x n grid."""
    if regions is None:
        return classic_groups(n)
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    return (
        rows + cols + [[c for c in range(n * n) if regions[c] == k] for k in sorted(set(regions))]
    )


def killer_cases(datasets: Path, count: int) -> list[tuple[str, Puzzle, Bare]]:
    path = datasets / "variants" / "killer_janko_151.jsonl"
    out = []
    for line in path.read_text().splitlines()[:count]:
        record = json.loads(line)
        givens = [0 if ch in ".0" else int(ch) for ch in record["givens"]]
        cages = [(list(c["cells"]), c["sum"]) for c in record["cages"]]
        rules = [Cage(tuple(cells), total) for cells, total in cages]
        model = load_model("classic").with_rules(rules=rules, size=9)
        bare: Bare = (givens, lines_and_boxes(9, None), cages)
        out.append((record["id"], Puzzle(givens, model), bare))
    return out


def jigsaw_cases(datasets: Path, count: int) -> list[tuple[str, Puzzle, Bare]]:
    path = datasets / "variants" / "jigsaw_janko_127.csv"
    out = []
    with path.open(newline="") as handle:
        for row in list(csv.DictReader(handle))[:count]:
            givens = [0 if ch in ".0" else int(ch) for ch in row["puzzle"]]
            regions = [int(r) for r in row["regions"]]
            model = load_model("classic").with_rules(regions=regions)
            bare: Bare = (givens, lines_and_boxes(9, regions), [])
            out.append((row["id"], Puzzle(givens, model), bare))
    return out


def _backend_count(backend: Any, puzzle: Puzzle, limit: int) -> int:
    return backend.solve(puzzle, limit=limit).count


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return (time.perf_counter() - start) * 1000, value


def measure(cases: list[tuple[str, Puzzle, Bare]], limit: int, rounds: int) -> dict[str, Any]:
    """Per-puzzle medians (ms) of backend and bare, interleaved, and their ratio."""
    backend = get_backend("cpsat")
    ours: list[float] = []
    bares: list[float] = []
    for index, (name, puzzle, (givens, groups, cages)) in enumerate(cases):
        mine, theirs = [], []
        run_backend = functools.partial(_backend_count, backend, puzzle, limit)
        run_bare = functools.partial(bare_cpsat, givens, limit, groups, cages)
        for r in range(rounds):
            first, second = (
                (run_backend, run_bare) if (index + r) % 2 == 0 else (run_bare, run_backend)
            )
            t1, n1 = _timed(first)
            t2, n2 = _timed(second)
            if n1 != n2:
                raise SystemExit(f"{name}: backend and bare model disagree ({n1} against {n2})")
            if first is run_backend:
                mine.append(t1)
                theirs.append(t2)
            else:
                mine.append(t2)
                theirs.append(t1)
        ours.append(statistics.median(mine))
        bares.append(statistics.median(theirs))
    ratios = [a / b for a, b in zip(ours, bares, strict=True)]
    return {
        "backend_median": statistics.median(ours),
        "backend_worst": max(ours),
        "bare_median": statistics.median(bares),
        "bare_worst": max(bares),
        "ratio": statistics.median(ratios),
        "puzzles": len(cases),
    }


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--count", type=int, default=1000, help="puzzles per set (from the top)")
    parser.add_argument(
        "--limit", type=int, default=2, help="solutions to look for (2: uniqueness)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side per puzzle")
    args = parser.parse_args(argv)
    get_backend("cpsat").solve(Puzzle([0] * 16), limit=1)  # imports and warms up CP-SAT
    results = {}
    for title, cases in (
        ("killer", killer_cases(args.datasets, args.count)),
        ("jigsaw", jigsaw_cases(args.datasets, args.count)),
    ):
        results[title] = measure(cases, args.limit, args.rounds)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"cpsat against bare CP-SAT, limit {args.limit}, {args.rounds} rounds; load {load:.2f}")
    heads = ("puzzles", "cpsat med", "worst", "bare med", "worst", "ratio")
    print(
        f"{'set':8} "
        + " ".join(f"{h:>{w}}" for h, w in zip(heads, (7, 10, 8, 9, 8, 6), strict=True))
    )
    for title, r in results.items():
        print(
            f"{title:8} {r['puzzles']:>7} {r['backend_median']:>10.2f} {r['backend_worst']:>8.1f} "
            f"{r['bare_median']:>9.2f} {r['bare_worst']:>8.1f} {r['ratio']:>6.2f}"
        )
    return results


if __name__ == "__main__":
    main()
