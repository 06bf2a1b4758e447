"""The backtracker on a bundled set's puzzles, a uniqueness check each: which search ran (the
compiled kernel on models with digit, pair and sum rules and killer cages, or the pure-Python
search), its verdict, its nodes and its wall time.

    python -m tools.perf.kernel_rules [--set variants9] [--timeout 20] [--pure] [INDEX ...]

``--pure`` runs the backend with ``kernel=false`` (the pure search, for the figures before the
kernel took rules). The kernel is loaded before the first puzzle (its load is no puzzle's time).
``pub`` says whether the solution found is the puzzle's published one. It asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from sudoku_cp import get_backend
from sudoku_cp.backends.backtrack.kernel import glue
from sudoku_cp.datasets import load_puzzles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="variants9")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--pure", action="store_true", help="kernel=false: the pure search")
    parser.add_argument("indices", nargs="*", type=int)
    args = parser.parse_args()
    glue.warm_up()
    puzzles = load_puzzles(args.set)
    backend = get_backend("backtrack")
    for index in args.indices or range(len(puzzles)):
        puzzle = puzzles[index]
        start = time.perf_counter()
        result = backend.solve(puzzle, limit=2, time_limit=args.timeout, kernel=not args.pure)
        seconds = time.perf_counter() - start
        published = puzzle.published is not None and result.solutions[:1] == (puzzle.published,)
        print(
            f"{index:3d} {glue.last_engine():14s} {result.status.value:8s} "
            f"nodes={result.stats.get('nodes')!s:>9} {seconds:7.3f} s "
            f"pub={'ok' if published else '-'}",
            flush=True,
        )


if __name__ == "__main__":
    main()
