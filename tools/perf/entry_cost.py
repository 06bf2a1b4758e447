"""What the public ``solve()`` costs over the compiled kernel's own entry point, and both over
tdoku, on classic puzzles: per-puzzle medians and ratios measured in one run.

    python -m tools.perf.entry_cost [--sets 17clue,top1465,forum-hardest] [--file PATH]
                                          [--count N] [--repeat R] [--tdoku LIB.so]

For each puzzle, back to back (so load on the machine hits them alike), the best of ``R`` runs
of:

- **kernel**: :class:`sudoku_cp.backends.backtrack.Solver` (``same_search=False``, the
  classic bitboard kernel), digits in as a numpy array, as tdoku's entry point takes them;
- **solve(P)**: ``sudoku_cp.solve(puzzle, limit=…)`` on a :class:`~sudoku_cp.Puzzle` already
  made (the backend's checks, the kernel, the :class:`~sudoku_cp.Result`);
- **solve(text)**: ``sudoku_cp.solve(line, limit=…)``: reading and validating the 81
  characters too;
- **tdoku** (``--tdoku``, a ``libtdoku_shared.so`` built by ``/work/shared/peers/build-tdoku.sh``
  or any build of t-dillon/tdoku): ``TdokuSolverDpllTriadSimd`` through ctypes, as
  ``peers/tdoku.py`` calls it.

each at limit 1 (a solve) and 2 (a uniqueness count). The table gives per-puzzle medians in
µs and the medians of the per-puzzle ratios. Target (issue 34): ``solve(P)`` and
``solve(text)`` at most 1.5× the kernel entry on 17-clue, limit 2. It also says whether the
counts agree (kernel, solve and tdoku), and prints the machine and its load.

The kernel is loaded before the clock starts (``SUDOKU_CP_KERNEL=1`` is not needed: a
:class:`Solver` loads it); the first puzzle is run once unmeasured.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from sudoku_cp.puzzle import Puzzle

DEFAULT_SETS = ("17clue", "top1465", "forum-hardest")
LIMITS = (1, 2)


class Tdoku:
    """tdoku's solver through ctypes (its C entry point, ``TdokuSolverDpllTriadSimd``)."""

    def __init__(self, path: str) -> None:
        fn = ctypes.CDLL(path).TdokuSolverDpllTriadSimd
        fn.restype = ctypes.c_size_t
        fn.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_uint32,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_size_t),
        ]
        self._fn = fn
        self._solution = ctypes.create_string_buffer(82)
        self._guesses = ctypes.c_size_t(0)
        self._ref = ctypes.byref(self._guesses)

    def count(self, line: bytes, limit: int) -> int:
        """Solutions up to ``limit`` of an 81-byte line ('.' blanks) ending in a NUL."""
        return int(self._fn(line, limit, 0, self._solution, self._ref))


def machine() -> str:
    """The CPU model, core count and load average, for the heading."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next(
                (line.split(":", 1)[1].strip() for line in info if line.startswith("model name")),
                model,
            )
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{model}; {os.cpu_count()} cores; load average {load:.2f}"


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e6, out


def measure(puzzles: list[Puzzle], repeat: int, tdoku: Tdoku | None) -> dict[str, Any]:
    """Per-puzzle µs of each entry at each limit, and how many counts disagree."""
    import numpy as np

    import sudoku_cp
    from sudoku_cp.backends.backtrack import Solver

    solver = Solver(same_search=False)
    times: dict[tuple[str, int], list[float]] = {}
    disagree = 0
    rows = []
    for puzzle in puzzles:
        digits = np.frombuffer(puzzle.digits, dtype=np.uint8)
        line = puzzle.to_line()
        nul = line.encode() + b"\0"
        rows.append((puzzle, digits, line, nul))
    if rows:  # first calls: numba's dispatch, the imports
        puzzle, digits, line, nul = rows[0]
        solver.solve(digits, 2)
        sudoku_cp.solve(puzzle, limit=2)
        sudoku_cp.solve(line, limit=2)
    for puzzle, digits, line, nul in rows:
        for limit in LIMITS:
            entries: list[tuple[str, Callable[[], Any]]] = [
                ("kernel", functools.partial(solver.solve, digits, limit)),
                ("solve(P)", functools.partial(sudoku_cp.solve, puzzle, limit=limit)),
                ("solve(text)", functools.partial(sudoku_cp.solve, line, limit=limit)),
            ]
            if tdoku is not None:
                entries.append(("tdoku", functools.partial(tdoku.count, nul, limit)))
            counts = set()
            for name, fn in entries:
                us, out = _best(fn, repeat)
                times.setdefault((name, limit), []).append(us)
                counts.add(out[0] if name == "kernel" else getattr(out, "count", out))
            disagree += len(counts) > 1
    return {"times": times, "disagree": disagree}


def ratio(times: dict[tuple[str, int], list[float]], a: str, b: str, limit: int) -> float:
    """The median over puzzles of a's µs / b's µs (measured back to back)."""
    pairs = zip(times[(a, limit)], times[(b, limit)], strict=True)
    return statistics.median(x / max(y, 1e-9) for x, y in pairs)


def report(label: str, result: dict[str, Any]) -> list[str]:
    """Lines of the table for one set."""
    times = result["times"]
    order = ["kernel", "solve(P)", "solve(text)", "tdoku"]
    names = sorted({name for name, _ in times}, key=order.index)
    out = [f"{label}: counts disagree on {result['disagree']} puzzle(s)"]
    for limit in LIMITS:
        med = {n: statistics.median(times[(n, limit)]) for n in names}
        parts = [f"{n} {med[n]:.2f}" for n in names]
        out.append(f"  limit {limit}: median µs  " + ", ".join(parts))
        ratios = [f"{n}/kernel {ratio(times, n, 'kernel', limit):.2f}" for n in names[1:]]
        if "tdoku" in names:
            ratios += [
                f"{n}/tdoku {ratio(times, n, 'tdoku', limit):.2f}" for n in names if n != "tdoku"
            ]
        out.append("    ratios (medians of per-puzzle ratios): " + ", ".join(ratios))
    return out


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS), help="bundled samples")
    parser.add_argument("--file", action="append", default=[], help="a puzzle file too")
    parser.add_argument("--count", type=int, default=None, help="first N puzzles of each set")
    parser.add_argument("--repeat", type=int, default=5, help="best of R runs a puzzle")
    parser.add_argument("--tdoku", default=None, help="path of libtdoku_shared.so")
    args = parser.parse_args(argv)
    if args.count is not None and args.count < 1:
        parser.error("--count must be at least 1")
    if not 1 <= args.repeat <= 1000:
        parser.error("--repeat must be from 1 to 1000")
    from sudoku_cp.datasets import load_puzzles

    tdoku = Tdoku(args.tdoku) if args.tdoku else None
    print(f"machine: {machine()}; Python {platform.python_version()}; best of {args.repeat}")
    results = {}
    for label in [s for s in args.sets.split(",") if s] + list(args.file):
        puzzles = [p for p in load_puzzles(label, args.count) if p.size == 9]
        results[label] = measure(puzzles, args.repeat, tdoku)
        print("\n".join(report(f"{label} ({len(puzzles)} puzzles)", results[label])), flush=True)
    print(f"load average after: {machine().rsplit('; ', 1)[1]}")
    return results


if __name__ == "__main__":
    main()
