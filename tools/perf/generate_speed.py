"""Benchmark of ``sudoku-cp generate`` (issue 17), beside hodoku-py's generator.

    python -m tools.perf.generate_speed [--jobs 2] [--seconds 20] [--count 600]

Every rate is puzzles a second, each puzzle made and cross-checked by two paradigms exactly as
``sudoku-cp generate`` makes it (the API :func:`sudoku_cp.generate.generate`), from the first
puzzle out to the last (the start-up before the first — pool, imports, the kernel — is shown
apart), with puzzles per CPU-second (this process and its workers: what the machine's load
does not change) and the load average (``uptime``) beside every figure:

- minimal unique 9x9 classic puzzles with ``--jobs`` workers (``--count`` of them), as
  ``generate --minimal`` writes them one a line (not rated), then the same rated for their
  records (as ``-f jsonl`` or ``csv`` writes them);
- each difficulty level (:mod:`sudoku_cp.generate.difficulty`: the logic rating on HoDoKu's
  scale), ours with ``--jobs`` workers, and hodoku-py's ``Generator().generate(level)`` in one
  process for the same level, interleaved level by level, each side given ``--seconds``
  (hodoku-py's rate is what it made in that time; "< 1/T" when it made none). Both rate by
  HoDoKu's techniques and scores; ours lacks ALS, Sue de Coq and forcing chains, so its
  Extreme includes the puzzles those would solve (see the README's *generate* section);
- 16x16, 6x6 with 2x3 and 3x2 boxes, X, hyper, jigsaw (random regions), killer (cages only),
  killer with givens and 25x25 (:data:`KINDS`: a name and the :class:`Options` fields, one a
  line, so a kind is added in one line), ``--jobs`` workers, as many as fit in ``--seconds``
  (not rated), with seconds a puzzle beside the rate.

hodoku-py is not a dependency: ``pip install hodoku-py`` in the benchmark's environment, else
its column says so. It measures and reports; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from typing import Any

from sudoku_cp.generate import Options, generate
from sudoku_cp.generate.options import GLOBAL_VARIANTS, MARK_VARIANTS

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
KINDS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("16x16", {"size": 16}),
    ("6x6 (2x3 boxes)", {"size": 6}),
    ("6x6 (3x2 boxes)", {"size": 6, "box": "3x2"}),
    ("X 9x9", {"model": "x"}),
    ("hyper 9x9", {"model": "hyper"}),
    ("jigsaw 9x9", {"variant": "jigsaw"}),
    ("killer 9x9 (cages only)", {"variant": "killer"}),
    ("killer 9x9 (cages and givens)", {"variant": "killer-givens"}),
    # Every rule drawn from the solution, and the global rules (non-consecutive at 6x6 below).
    *(
        (f"{kind} 9x9", {"variant": kind})
        for kind in (*MARK_VARIANTS, *GLOBAL_VARIANTS)
        if kind != "nonconsecutive"
    ),
    ("nonconsecutive 6x6 (9x9: 10-25 s a puzzle)", {"variant": "nonconsecutive", "size": 6}),
    ("arrow 9x9, no givens", {"variant": "arrow", "givens": "none"}),
    ("25x25", {"size": 25}),
)


LEAST = 3
"""Puzzles a timed rate waits for, whatever ``--seconds`` says: the steady rate counts from
the first one out (a 25x25 takes seconds, so a short run made only one and showed no rate)."""


def load() -> float:
    return os.getloadavg()[0]


class Run:
    """One timed run: puzzles made, wall seconds from the first puzzle out to the last (the
    steady rate), the start-up before the first (pool, imports, loading the kernel), and the
    CPU seconds of this process and its finished workers."""

    def __init__(self) -> None:
        self.made = 0
        self.start = time.perf_counter()
        self.first = 0.0
        self.end = 0.0
        self.cpu_start = _cpu()
        self.cpu = 0.0

    def tick(self) -> None:
        self.made += 1
        self.end = time.perf_counter()
        if self.made == 1:
            self.first = self.end

    def stop(self) -> None:
        self.cpu = _cpu() - self.cpu_start

    @property
    def steady(self) -> tuple[int, float]:
        """(puzzles after the first, seconds they took)."""
        return self.made - 1, max(self.end - self.first, 1e-9)

    def text(self) -> str:
        made, took = self.steady
        cpu = f", {self.made / self.cpu:.1f} per CPU-second" if self.cpu else ""
        return f"{rate(made, took)}{cpu}, start-up {self.first - self.start:.1f} s"


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def ours(options: Options, jobs: int, count: int | None, seconds: float) -> Run:
    """``count`` puzzles, or as many as ``seconds`` allow, at least :data:`LEAST` (the pool
    shut down before the CPU time is read, so its workers' time is counted)."""
    run = Run()
    for _ in generate(options, count or 1_000_000, jobs=jobs):
        run.tick()
        # ``seconds`` of steady output, from the first puzzle out (start-up shown apart).
        if count is None and run.made >= LEAST and time.perf_counter() - run.first >= seconds:
            break
    run.stop()
    return run


def hodoku(level: str, seconds: float) -> tuple[int, float] | None:
    """(puzzles made, seconds) by hodoku-py at ``level`` within about ``seconds``; None when
    it is not installed. A puzzle still being searched when the time is up is waited for
    only up to ``seconds`` more (its generator takes ``max_tries`` at most)."""
    try:
        import hodoku
    except ImportError:
        return None
    generator = hodoku.Generator()
    kind = getattr(hodoku.DifficultyType, level.upper())
    start = time.perf_counter()
    made = 0
    while time.perf_counter() - start < seconds:
        try:
            generator.generate(kind, symmetric=False, max_tries=2000)
            made += 1
        except RuntimeError:  # no puzzle of that level within max_tries: keep timing
            pass
    return made, time.perf_counter() - start


def rate(made: int, seconds: float) -> str:
    return (
        f"{made / seconds:.2f}/s ({made} in {seconds:.1f} s)" if made else f"< {1 / seconds:.3f}/s"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for ours (≤ 64)")
    parser.add_argument("--seconds", type=float, default=20.0, help="time per rate (≤ 3600)")
    parser.add_argument("--count", type=int, default=600, help="minimal 9x9 puzzles (≤ 100,000)")
    parser.add_argument("--skip-hodoku", action="store_true", help="leave hodoku-py out")
    parser.add_argument("--only", choices=("minimal", "levels", "kinds"), help="one part")
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 64 or not 0 < args.seconds <= 3600:
        parser.error("--jobs is 1..64 and --seconds above 0, at most 3600")
    if not 1 <= args.count <= 100_000:
        parser.error("--count is 1..100,000")
    results: dict[str, Any] = {}
    print(f"sudoku-cp generate, --jobs {args.jobs}; load average shown as [load]")
    if args.only in (None, "minimal"):
        run = ours(Options(minimal=True, seed=1, rate=False), args.jobs, args.count, args.seconds)
        results["minimal 9x9"] = run.steady[0] / run.steady[1]
        print(f"minimal unique 9x9 classic: {run.text()} [{load():.2f}]")
        run = ours(Options(minimal=True, seed=1), args.jobs, args.count, args.seconds)
        results["minimal 9x9 rated"] = run.steady[0] / run.steady[1]
        print(f"minimal unique 9x9 classic, rated: {run.text()} [{load():.2f}]")
    if args.only in (None, "levels"):
        print("level: sudoku-cp (steady rate) | hodoku-py | ratio of rates")
        for level in LEVELS:
            options = Options(difficulty=level, seed=2, attempts=100_000, seconds=3600)
            run = ours(options, args.jobs, None, args.seconds)
            load_ours = load()
            theirs = None if args.skip_hodoku else hodoku(level, args.seconds)
            shown = "not run" if theirs is None else f"{rate(*theirs)} [{load():.2f}]"
            ratio = ""
            made, took = run.steady
            if theirs is not None:
                floor = max(theirs[0], 1) / theirs[1]  # none made: compare with one
                ratio = ("≥ " if not theirs[0] else "") + f"{(made / took) / floor:.0f}x"
            results[level] = {"ours": made / took, "hodoku": theirs}
            print(f"{level}: {run.text()} [{load_ours:.2f}] | {shown} | {ratio}")
    if args.only in (None, "kinds"):
        for name, settings in KINDS:
            run = ours(Options(seed=3, rate=False, **settings), args.jobs, None, args.seconds)
            results[name] = run.steady[0] / run.steady[1]
            each = f"{run.steady[1] / run.steady[0]:.3g} s a puzzle, " if run.steady[0] else ""
            print(f"{name}: {each}{run.text()} [{load():.2f}]")
    return results


if __name__ == "__main__":
    main()
