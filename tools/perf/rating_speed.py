"""How fast the logic rating is (issues 17/18): median time of ``rate_puzzle`` per level, and of
the generator's quick restricted solve (:func:`sudoku_cp.generate.difficulty.beyond`), here
and, with ``--baseline``, in another source tree of sudoku-cp side by side.

    python -m tools.perf.rating_speed [--per-set N] [--file F ...] [--baseline DIR]

Puzzles: the first ``--per-set`` (default 50) of the bundled easy, 17clue, top1465 and
forum-hardest sets, and every puzzle of each ``--file`` (one a line, e.g. made by
``sudoku-cp generate --difficulty extreme -n 20 --seed 1 -q -o F``). Each puzzle is rated by
a worker process per source tree, the two interleaved puzzle by puzzle (which one goes first
alternates), so a load that comes and goes weighs on both alike. ``--baseline DIR`` is the
top of another checkout (``git worktree add /tmp/base main``); its worker imports
``sudoku_cp`` from there, the other from this package's tree. The two must agree on every
puzzle's level, score and hardest technique; the report counts the puzzles where they do not.

Reported per level (the level this tree gives): puzzles, median and total milliseconds, and
with a baseline its figures and the ratios (baseline / here); then the same for ``beyond`` at
the level just below each puzzle's, Easy to Hard (the test a generator asking for that level
runs first; at Unfair it has nothing to leave out and answers at once),
and the load average (``uptime``) before and after. It measures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from sudoku_cp.logic.rating import LEVELS

ROOT = Path(__file__).resolve().parents[2]
"""The source tree this module was imported from (the directory holding ``sudoku_cp``)."""
SETS = ("easy", "17clue", "top1465", "forum-hardest")
MAX_PER_SET = 10_000
MAX_FILE_PUZZLES = 100_000

# Kept to what every version of the package has (Puzzle.parse, rate_puzzle, beyond), so an
# older checkout can be the baseline.
WORKER = """
import json, sys, time
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.logic.rating import rate_puzzle
from sudoku_cp.generate.difficulty import beyond
for line in sys.stdin:
    job = json.loads(line)
    puzzle = Puzzle.parse(job["puzzle"])
    start = time.perf_counter()
    if job["level"] is None:
        r = rate_puzzle(puzzle)
        answer = [r.level, r.score, r.hardest]
    else:
        answer = beyond(puzzle, job["level"])
    print(json.dumps([time.perf_counter() - start, answer]), flush=True)
"""


class Worker:
    """A child process rating puzzles with the ``sudoku_cp`` of one source tree."""

    def __init__(self, tree: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=str(tree),
        )

    def ask(self, puzzle: str, level: str | None) -> tuple[float, object]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"puzzle": puzzle, "level": level}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"rating_speed: the worker for {puzzle} stopped")
        seconds, answer = json.loads(line)
        return float(seconds), answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def puzzles(per_set: int, files: list[str]) -> list[str]:
    """Puzzle lines: the bundled sets' first ``per_set`` 9x9 puzzles, then the files'."""
    from sudoku_cp.datasets import load_puzzles

    out = []
    for name in SETS:
        out += [p.to_line() for p in load_puzzles(name, per_set) if p.size == 9]
    for name in files:
        try:
            text = Path(name).read_text(encoding="utf-8")
        except OSError as err:
            raise SystemExit(f"rating_speed: cannot read --file {name}: {err.strerror}") from None
        lines = [line.split()[0] for line in text.splitlines() if line.strip()]
        out += [line for line in lines[:MAX_FILE_PUZZLES] if len(line) == 81]
    return out


def _row(label: str, here: list[float], base: list[float] | None) -> str:
    ms = 1000 * statistics.median(here)
    text = f"{label:<9}{len(here):>6}{ms:>11.1f}{1000 * sum(here):>11.0f}"
    if base is not None:
        bms = 1000 * statistics.median(base)
        text += (
            f"{bms:>11.1f}{1000 * sum(base):>11.0f}{bms / ms:>9.2f}x{sum(base) / sum(here):>9.2f}x"
        )
    return text


def _table(title: str, times: dict[str, list[list[float]]], with_base: bool) -> None:
    print(f"\n{title}")
    head = f"{'level':<9}{'n':>6}{'median ms':>11}{'total ms':>11}"
    if with_base:
        head += f"{'base med':>11}{'base tot':>11}{'median':>10}{'total':>10}"
    print(head)
    order = [lv for lv in (*LEVELS, "Invalid") if lv in times] + ["all"]
    every: list[list[float]] = [[], []]
    for level in order[:-1]:
        every[0] += times[level][0]
        every[1] += times[level][1]
    for level in order:
        here, base = every if level == "all" else times[level]
        if here:
            print(_row(level, here, base if with_base else None))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-set", type=int, default=50, help="puzzles of each bundled set")
    parser.add_argument("--file", action="append", default=[], help="more puzzles, one a line")
    parser.add_argument("--baseline", help="top of another sudoku-cp checkout to compare with")
    args = parser.parse_args(argv)
    if not 0 <= args.per_set <= MAX_PER_SET:
        parser.error(f"--per-set {args.per_set}: give 0 to {MAX_PER_SET}")
    base_tree = Path(args.baseline).resolve() if args.baseline else None
    if base_tree is not None and not (base_tree / "sudoku_cp" / "logic" / "rating.py").is_file():
        parser.error(f"--baseline {args.baseline}: no sudoku_cp/logic/rating.py there")
    lines = puzzles(args.per_set, args.file)
    print(f"{len(lines)} puzzles; load average before: {os.getloadavg()[0]:.2f}")
    print(f"here: {ROOT}" + (f"; baseline: {base_tree}" if base_tree else ""))
    here = Worker(ROOT)
    base = Worker(base_tree) if base_tree else None
    rate: dict[str, list[list[float]]] = defaultdict(lambda: [[], []])
    quick: dict[str, list[list[float]]] = defaultdict(lambda: [[], []])
    differ = 0
    try:
        for i, line in enumerate(lines):
            pair = (here, base) if i % 2 == 0 else (base, here)
            answers = {}
            for worker in pair:
                if worker is not None:
                    answers[worker is here] = worker.ask(line, None)
            seconds, answer = answers[True]
            rated = list(answer)  # type: ignore[call-overload]
            level = str(rated[0])
            rate[level][0].append(seconds)
            if base is not None:
                rate[level][1].append(answers[False][0])
                differ += answers[False][1] != rated
            rank = LEVELS.index(level) if level in LEVELS else 0
            if rank == 0 or rank == len(LEVELS) - 1:
                continue  # nothing below Easy; below Extreme, beyond answers at once
            below = LEVELS[rank - 1]
            for worker in pair:
                if worker is not None:
                    answers[worker is here] = worker.ask(line, below)
            quick[below][0].append(answers[True][0])
            if base is not None:
                quick[below][1].append(answers[False][0])
    finally:
        here.close()
        if base is not None:
            base.close()
    _table("rate_puzzle, by the level rated here:", rate, base is not None)
    _table(
        "beyond(puzzle, level just below its own) — the generator's quick test, by that level:",
        quick,
        base is not None,
    )
    if base is not None:
        print(f"\npuzzles rated differently (level, score or hardest) by the two trees: {differ}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
