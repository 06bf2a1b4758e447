"""Benchmark of the backtracker's compiled kernel against tdoku and the pure-Python search.

    python -m tools.perf.kernel_speed [--tdoku LIB] [--count 200] [--repeat 3]

Needs the ``jit`` extra (``pip install 'sudoku-cp[jit]'``). On 17-clue, top1465 and the forum's
hardest (``--data``: tdoku's benchmark files, default ``../shared/datasets/tdoku``; else the
bundled samples of the same files), every puzzle is a uniqueness check (limit 2) and is timed,
interleaved puzzle by puzzle, best of ``--repeat``:

- the kernel at its own entry point (:class:`~sudoku_cp.backends.backtrack.Solver`
  with ``same_search=False``: digits in, count and solutions out, as tdoku's solver is called;
  for classic 9x9 that is the bitboard kernel, :mod:`~sudoku_cp.backends.backtrack.kernel.classic`);
- tdoku's ``TdokuSolverDpllTriadSimd`` through ctypes, when ``--tdoku`` gives the built library
  (``../shared/peers/build-tdoku.sh`` builds it); otherwise that comparison is skipped, saying so;
- the pure-Python search alone (the ``fast`` strategy's function, no backend around it).

It prints the medians of the per-puzzle ratios, the kernel's batch entry point (all puzzles in
one call), and end to end: ``solve`` through the public API with and without the kernel, and
``sudoku-cp check --backends backtrack --jobs 1`` on ``--check-puzzles`` puzzles (the sample over
and over) with ``SUDOKU_CP_KERNEL=1`` and ``=0``: puzzles a second (process start-up and the
worker's loading of the kernel included), and the backend's median time a puzzle inside check.
Every count is compared across the three searches. It measures and reports; it asserts nothing.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sudoku_cp import Puzzle, solve
from sudoku_cp.backends.backtrack import Solver
from sudoku_cp.backends.backtrack.kernel import glue as backtrack_kernel
from sudoku_cp.backends.backtrack.layout import layout
from sudoku_cp.backends.backtrack.search import _Clock, _fast
from sudoku_cp.datasets import load_puzzles

SAMPLES = (
    ("17-clue", "puzzles2_17_clue.txt", "17clue"),
    ("top1465", "puzzles3_magictour_top1465.txt", "top1465"),
    ("forum-hardest", "puzzles6_forum_hardest_1106.txt", "forum-hardest"),
)
"""Each sample: its name, tdoku's data file, the bundled sample of that file."""


class Tdoku:
    """tdoku's solver through ctypes. Its C signature (tdoku's ``include/tdoku.h``):
    ``size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit, uint32_t
    configuration, char *solution, size_t *num_guesses)``, returning the solutions found up to
    ``limit``; the puzzle is 81 characters, ``.`` blank."""

    def __init__(self, path: str) -> None:
        solver = ctypes.CDLL(path).TdokuSolverDpllTriadSimd
        solver.restype = ctypes.c_size_t
        solver.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_uint32,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_size_t),
        ]
        self._solver = solver
        self._solution = ctypes.create_string_buffer(82)
        self._guesses = ctypes.c_size_t(0)

    def count(self, line: bytes, limit: int) -> int:
        return int(self._solver(line, limit, 0, self._solution, ctypes.byref(self._guesses)))

    @property
    def guesses(self) -> int:
        """tdoku's guesses in the last call."""
        return int(self._guesses.value)


def sample_lines(data: Path, file: str, bundled: str, count: int) -> tuple[list[str], str]:
    """``count`` puzzle lines spread evenly over tdoku's file (or the bundled sample), and
    where they came from."""
    path = data / file
    if path.is_file():
        lines = [s for s in (x.strip() for x in path.open()) if s and not s.startswith("#")]
        source = f"{path} ({len(lines):,} puzzles)"
    else:
        lines = [p.to_line() for p in load_puzzles(bundled)]
        source = f"bundled sample {bundled} ({len(lines)} puzzles; {path} not found)"
    step = max(1, len(lines) // count)
    return [line[:81] for line in lines[::step][:count]], source


def best(call: Any, repeat: int) -> tuple[float, Any]:
    """The shortest of ``repeat`` timings of ``call()``, and what it returned."""
    fastest, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = call()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest, out


def entry_points(lines: list[str], solver: Any, tdoku: Tdoku | None, repeat: int) -> dict[str, Any]:
    """Per-puzzle times of the kernel, tdoku and the pure search, interleaved."""
    import numpy as np

    kernel_s, tdoku_s, pure_s, mismatches = [], [], [], 0
    nodes, guesses = [], []
    lay = layout(Puzzle([0] * 81).model, 9)
    for line in lines:
        puzzle = Puzzle.parse(line)
        digits = np.frombuffer(puzzle.digits, dtype=np.uint8)
        solver.solve(digits, 2)  # its first call is not timed (nor tdoku's, nor the pure one's)
        seconds, (count, _) = best(lambda d=digits: solver.solve(d, 2), repeat)
        kernel_s.append(seconds)
        nodes.append(solver.nodes)
        if tdoku is not None:
            text = line.replace("0", ".").encode()
            tdoku.count(text, 2)
            seconds, other = best(lambda t=text: tdoku.count(t, 2), repeat)
            tdoku_s.append(seconds)
            guesses.append(tdoku.guesses)
            mismatches += other != count
        seconds, found = best(lambda p=puzzle: _fast(p, lay, 2, _Clock(None)), 1)
        pure_s.append(seconds)
        mismatches += len(found.solutions) != count
    grid = np.array([list(Puzzle.parse(line).cells) for line in lines], dtype=np.uint8)
    solver.count_many(grid[:1], 2)
    # CPU time: one long call is preempted on a busy machine where a short one often is not.
    batch = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        solver.count_many(grid, 2)
        batch = min(batch, time.process_time() - start)
    return {
        "kernel": kernel_s,
        "tdoku": tdoku_s,
        "pure": pure_s,
        "batch": batch / len(lines),
        "nodes": nodes,
        "guesses": guesses,
        "mismatches": mismatches,
    }


def public_solve(lines: list[str], repeat: int) -> tuple[float, float, float]:
    """Median per-puzzle ms of ``solve(puzzle, limit=2)`` with and without the kernel, and the
    median of the per-puzzle ratios (interleaved)."""
    on, off, ratios = [], [], []
    for line in lines:
        puzzle = Puzzle.parse(line)
        with_kernel, _ = best(lambda p=puzzle: solve(p, limit=2), repeat)
        without, _ = best(lambda p=puzzle: solve(p, limit=2, kernel=False), repeat)
        on.append(with_kernel)
        off.append(without)
        ratios.append(without / with_kernel)
    return statistics.median(on) * 1e3, statistics.median(off) * 1e3, statistics.median(ratios)


def check_rate(lines: list[str], puzzles: int, kernel: bool) -> tuple[float, float]:
    """Puzzles a second of ``sudoku-cp check --backends backtrack --jobs 1`` on ``puzzles``
    puzzles (the lines over and over), in a new process (start-up and worker included), and the
    median of the backend's own seconds a puzzle, as the records give them."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "puzzles.txt"
        source.write_text("\n".join((lines * (puzzles // len(lines) + 1))[:puzzles]) + "\n")
        command = [sys.executable, "-m", "sudoku_cp.cli", "check", str(source)]
        command += ["--backends", "backtrack", "--jobs", "1", "--quiet", "--format", "jsonl"]
        command += ["--output", str(Path(folder) / "out.jsonl")]
        env = {**os.environ, backtrack_kernel.ENV: "1" if kernel else "0"}
        start = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=False)
        rate = puzzles / (time.perf_counter() - start)
        records = (json.loads(x) for x in (Path(folder) / "out.jsonl").open())
        seconds = [r["backends"]["backtrack"]["seconds"] for r in records]
        return rate, statistics.median(seconds) if seconds else float("nan")


def load() -> float:
    return os.getloadavg()[0]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tdoku", help="path of tdoku's built library (libtdoku_shared.so)")
    parser.add_argument("--data", default="../shared/datasets/tdoku", help="tdoku's data files")
    parser.add_argument("--count", type=int, default=200, help="puzzles per sample (≤ 5,000)")
    parser.add_argument("--repeat", type=int, default=3, help="timings per call, best kept (≤ 20)")
    parser.add_argument("--check-puzzles", type=int, default=2000, help="puzzles for check")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 5000 or not 1 <= args.repeat <= 20:
        parser.error("--count is 1..5,000 and --repeat 1..20")
    if not 1 <= args.check_puzzles <= 100_000:
        parser.error("--check-puzzles is 1..100,000")
    if not backtrack_kernel.available():
        parser.error("the kernel needs numba: pip install 'sudoku-cp[jit]'")
    tdoku = Tdoku(args.tdoku) if args.tdoku else None
    start = time.perf_counter()
    backtrack_kernel.warm_up()
    solver = Solver(max_limit=2, same_search=False)
    print(f"kernel loaded in {time.perf_counter() - start:.2f} s (numba import and cached code)")
    kind = "classic 9x9 on bitboards" if solver.classic else "generic"
    print(f"kernel at its entry point: Solver(same_search=False), the {kind} kernel")
    print(f"load average {load():.2f}; uniqueness checks (limit 2), best of {args.repeat} per call")
    if tdoku is None:
        print("tdoku: skipped (no --tdoku LIB; ../shared/peers/build-tdoku.sh builds it)")
    results: dict[str, Any] = {}
    for name, file, bundled in SAMPLES:
        lines, source = sample_lines(Path(args.data), file, bundled, args.count)
        times = entry_points(lines, solver, tdoku, args.repeat)
        kernel_us = statistics.median(times["kernel"]) * 1e6
        pure_ratio = statistics.median(
            p / k for p, k in zip(times["pure"], times["kernel"], strict=True)
        )
        row: dict[str, Any] = {"kernel_us": kernel_us, "pure_over_kernel": pure_ratio}
        print(f"\n{name}: {len(lines)} puzzles from {source}")
        print(
            f"  kernel (Solver.solve) median {kernel_us:.1f} us; batch entry (count_many, "
            f"all in one call) {times['batch'] * 1e6:.1f} us of CPU a puzzle"
        )
        print(
            f"  pure-Python search median {statistics.median(times['pure']) * 1e6:.0f} us; "
            f"median of per-puzzle pure ÷ kernel: {pure_ratio:.1f}× (target ≥ 8×)"
        )
        if tdoku is not None:
            tdoku_us = statistics.median(times["tdoku"]) * 1e6
            over = statistics.median(
                k / t for k, t in zip(times["kernel"], times["tdoku"], strict=True)
            )
            row.update(tdoku_us=tdoku_us, kernel_over_tdoku=over)
            print(
                f"  tdoku median {tdoku_us:.1f} us; median of per-puzzle kernel ÷ tdoku: "
                f"{over:.2f}× (target ≤ 3×)"
            )
            print(
                f"  search size: kernel {statistics.mean(times['nodes']):.1f} nodes a puzzle "
                f"(branches tried), tdoku {statistics.mean(times['guesses']):.1f} guesses (mean)"
            )
        if times["mismatches"]:
            print(f"  COUNTS DIFFER on {times['mismatches']} puzzles")
        on, off, gain = public_solve(lines, args.repeat)
        row.update(solve_ms_kernel=on, solve_ms_pure=off, solve_gain=gain)
        print(
            f"  solve() through the public API: {on:.3f} ms with the kernel, {off:.3f} ms "
            f"without; median per-puzzle gain {gain:.1f}×"
        )
        (rate_on, on_s), (rate_off, off_s) = (
            check_rate(lines, args.check_puzzles, kernel) for kernel in (True, False)
        )
        row.update(check_rate_kernel=rate_on, check_rate_pure=rate_off)
        print(
            f"  check --backends backtrack --jobs 1, {args.check_puzzles:,} puzzles: "
            f"{rate_on:,.0f} puzzles/s with the kernel, {rate_off:,.0f} without (gain "
            f"{rate_on / rate_off:.1f}×, start-up included); backend time a puzzle in check "
            f"{on_s * 1e3:.3f} ms against {off_s * 1e3:.3f} ms ({off_s / on_s:.1f}×)"
        )
        results[name] = row
    print(f"\nload average {load():.2f}")
    return results


if __name__ == "__main__":
    main()
