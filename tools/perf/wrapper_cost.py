"""Benchmark of the backends, and of the toolkit's cost over the libraries it wraps.

    python -m tools.perf.wrapper_cost [--sets 17clue,top1465,forum-hardest] [--count N]
                                            [--backends cpsat,constraint,...] [--file PATH]
                                            [--time-limit S]

For each puzzle set and each backend it measures, in one run and in this process, the
milliseconds per puzzle of a solve (limit 1) and of a uniqueness check (limit 2): the median
and the worst, wall time around ``Backend.solve``. The sets are the bundled samples of the
public collections (``sudoku_cp/data/*.csv``, so it works on a fresh install); ``--file`` adds
any puzzle file the formats module reads.

Beside the backends it times two *bare* baselines on the same puzzles, written here without the
toolkit (their own rows, columns and boxes, no Puzzle, no Result, no time limit):

- **bare CP-SAT**: an integer variable per cell, ``AddAllDifferent`` per group, one worker; a
  solve for limit 1, and for limit 2 the same enumerating search the ``cpsat`` backend runs
  (presolve off on grids up to 9x9, a callback that stops at the second solution);
- **bare python-constraint**: ``BacktrackingSolver``, the blank cells as variables with the
  givens struck from their peers' domains, added fewest candidates first, ``AllDifferent``
  over the blanks of each group, ``getSolutionIter`` stopped at the limit.

Each bare baseline runs right after its backend on each puzzle, so load on the machine hits both
alike, and ``backend / bare`` is the median of those per-puzzle ratios. Target (issue 3): at
most 1.2 on 9x9 uniqueness checks for ``cpsat`` and ``constraint``. The bare baselines know only
classic Sudoku, so they run on classic sets only.

It measures and reports; it asserts nothing. Other processes change the figures (the load
average is printed with them).
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sudoku_cp.backends import Backend, available_backends, backend_names, get_backend
from sudoku_cp.datasets import load_puzzles
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.result import Result

DEFAULT_SETS = ("17clue", "top1465", "forum-hardest")
LIMITS = (1, 2)
BARE_FOR = {"cpsat": "bare CP-SAT", "constraint": "bare python-constraint"}
"""The backend each bare baseline is compared with."""


# --- the bare baselines ----------------------------------------------------------------------
def classic_groups(n: int) -> list[list[int]]:
    """Rows, columns and boxes of an n×n classic grid, written out by hand."""
    bh = next(h for h in range(math.isqrt(n), 0, -1) if n % h == 0)
    bw = n // bh
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [(top + r) * n + left + c for r in range(bh) for c in range(bw)]
        for top in range(0, n, bh)
        for left in range(0, n, bw)
    ]
    return rows + cols + boxes


def bare_cpsat(
    cells: Sequence[int],
    limit: int,
    groups: Sequence[Sequence[int]] | None = None,
    cages: Sequence[tuple[Sequence[int], int]] = (),
) -> int:
    """Solutions found by a plain CP-SAT model, up to ``limit``: a variable per cell, an
    AllDifferent per group (classic rows, columns and boxes unless ``groups`` are given) and,
    for each killer cage (cells, total), an AllDifferent and a linear sum."""
    from ortools.sat.python import cp_model

    n = math.isqrt(len(cells))
    model = cp_model.CpModel()
    x = [model.new_int_var(d, d, "") if d else model.new_int_var(1, n, "") for d in cells]
    for group in classic_groups(n) if groups is None else groups:
        model.add_all_different([x[c] for c in group])
    for cage, total in cages:
        model.add_all_different([x[c] for c in cage])
        model.add(sum(x[c] for c in cage) == total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if limit == 1:
        if solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            _ = [solver.value(v) for v in x]
            return 1
        return 0
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.cp_model_presolve = n > 9

    class Stop(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[tuple[int, ...]] = []

        def on_solution_callback(self) -> None:
            self.found.append(tuple(self.value(v) for v in x))
            if len(self.found) >= limit:
                self.stop_search()

    stop = Stop()
    solver.solve(model, stop)
    return len(stop.found)


def bare_constraint(cells: Sequence[int], limit: int) -> int:
    """Solutions of a classic grid found by a plain python-constraint problem, up to ``limit``."""
    import constraint

    n = math.isqrt(len(cells))
    groups = classic_groups(n)
    peers: list[set[int]] = [set() for _ in cells]
    for group in groups:
        for c in group:
            peers[c].update(group)
    domains = {
        c: [d for d in range(1, n + 1) if all(cells[p] != d for p in peers[c])]
        for c in range(n * n)
        if not cells[c]
    }
    if not domains:
        return 1
    if not all(domains.values()):
        return 0
    problem = constraint.Problem(constraint.BacktrackingSolver())
    for c in sorted(domains, key=lambda c: len(domains[c])):
        problem.addVariable(c, domains[c])
    for group in groups:
        blanks = [c for c in group if not cells[c]]
        if len(blanks) >= 2:
            problem.addConstraint(constraint.AllDifferentConstraint(), blanks)
    found = 0
    for _ in problem.getSolutionIter():
        found += 1
        if found >= limit:
            break
    return found


BARE: dict[str, Callable[[Sequence[int], int], int]] = {
    "bare CP-SAT": bare_cpsat,
    "bare python-constraint": bare_constraint,
}


# --- measuring -------------------------------------------------------------------------------
@dataclass
class Timings:
    """Milliseconds per puzzle of one solver on one set, by limit."""

    ms: dict[int, list[float]] = field(default_factory=lambda: {k: [] for k in LIMITS})
    timeouts: int = 0
    disagreements: int = 0

    def add(self, limit: int, ms: float, result: Result) -> None:
        self.ms[limit].append(ms)
        self.timeouts += not result.finished


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


def measure(
    puzzles: list[Puzzle],
    backends: list[str],
    time_limit: float,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Timings]:
    """Time every backend (and its bare baseline, on classic grids) on every puzzle."""
    classic = all(p.model.name == "classic" for p in puzzles)
    solvers = {name: get_backend(name) for name in backends}
    timings = {name: Timings() for name in backends}
    bares = [b for b in backends if b in BARE_FOR and classic]
    timings.update({BARE_FOR[b]: Timings() for b in bares})
    if puzzles:  # warm up: imports and first-call costs are not the puzzles' fault
        for name, solver in solvers.items():
            solver.solve(puzzles[0], limit=2, time_limit=time_limit)
            if name in bares:
                BARE[BARE_FOR[name]](puzzles[0].cells, 2)
    for index, puzzle in enumerate(puzzles):
        for name, solver in solvers.items():
            for limit in LIMITS:
                run = _backend_run(solver, puzzle, limit, time_limit)
                if name not in bares:
                    timings[name].add(limit, *run())
                    continue
                bare = BARE_FOR[name]
                bare_run = _bare_run(BARE[bare], puzzle, limit)
                # Alternate who goes first, so neither always meets a cold cache.
                if index % 2:
                    ms, result = run()
                    bare_ms, found = bare_run()
                else:
                    bare_ms, found = bare_run()
                    ms, result = run()
                timings[name].add(limit, ms, result)
                timings[bare].ms[limit].append(bare_ms)
                if result.finished and found != result.count:
                    timings[name].disagreements += 1
        if progress:
            progress(f"{index + 1}/{len(puzzles)}")
    return timings


def _backend_run(
    solver: Backend, puzzle: Puzzle, limit: int, time_limit: float
) -> Callable[[], tuple[float, Result]]:
    return lambda: _timed(lambda: solver.solve(puzzle, limit=limit, time_limit=time_limit))


def _bare_run(
    bare: Callable[[Sequence[int], int], int], puzzle: Puzzle, limit: int
) -> Callable[[], tuple[float, int]]:
    return lambda: _timed(lambda: bare(puzzle.cells, limit))


def ratio(backend: Timings, bare: Timings, limit: int) -> float:
    """The median over puzzles of backend ms / bare ms (each pair measured back to back)."""
    pairs = zip(backend.ms[limit], bare.ms[limit], strict=True)
    return statistics.median(b / max(r, 1e-9) for b, r in pairs)


# --- reporting -------------------------------------------------------------------------------
def table(title: str, timings: dict[str, Timings]) -> Any:
    """A rich table: median and worst ms for each limit, ratios to the bare baselines."""
    from rich.table import Table

    out = Table(title=title)
    out.add_column("solver")
    for limit in LIMITS:
        word = "solve" if limit == 1 else "unique"
        out.add_column(f"{word}\nmedian ms", justify="right")
        out.add_column(f"{word}\nworst ms", justify="right")
    out.add_column("time-\nouts", justify="right")
    for limit in LIMITS:
        out.add_column(f"{'solve' if limit == 1 else 'unique'}\n/ bare", justify="right")
    for name, t in timings.items():
        cells = []
        for limit in LIMITS:
            ms = t.ms[limit]
            cells += [f"{statistics.median(ms):.2f}", f"{max(ms):.2f}"] if ms else ["-", "-"]
        cells.append(str(t.timeouts))
        bare = timings.get(BARE_FOR.get(name, ""))
        for limit in LIMITS:
            cells.append(f"{ratio(t, bare, limit):.2f}x" if bare and t.ms[limit] else "")
        label = name + (f" ({t.disagreements} disagree with bare!)" if t.disagreements else "")
        out.add_row(label, *cells)
    return out


def _show(status: Any, label: str, text: str) -> None:
    status.update(f"{label}: {text}")


def main(argv: list[str] | None = None) -> dict[str, dict[str, Timings]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sets",
        default=",".join(DEFAULT_SETS),
        help=f"bundled samples, comma-separated (default {','.join(DEFAULT_SETS)})",
    )
    parser.add_argument(
        "--count",
        type=int,
        default=None,
        help="first N puzzles of each set (default: the whole sample)",
    )
    parser.add_argument(
        "--backends", default=None, help="comma-separated (default: every available backend)"
    )
    parser.add_argument(
        "--file", action="append", default=[], help="also a puzzle file of your own (repeatable)"
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=30.0,
        help="seconds per solve for the backends (default 30)",
    )
    args = parser.parse_args(argv)
    if args.count is not None and args.count < 1:
        parser.error("--count must be at least 1")

    from rich.console import Console

    console = Console(width=max(Console().width, 110))
    names = available_backends(args.backends.split(",") if args.backends else backend_names())
    names_or_files = [s for s in args.sets.split(",") if s] + list(args.file)
    sources: list[tuple[str, Callable[[], list[Puzzle]]]] = [
        (s, functools.partial(load_puzzles, s, args.count)) for s in names_or_files
    ]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    console.print(
        f"backends: {', '.join(names)}; {os.cpu_count()} cores, "
        f"load average {load:.2f}; wall ms per puzzle, in process, warm"
    )
    results = {}
    for label, loader in sources:
        puzzles = loader()
        with console.status(f"{label}: {len(puzzles)} puzzles") as status:
            timings = measure(
                puzzles, names, args.time_limit, functools.partial(_show, status, label)
            )
        results[label] = timings
        console.print(table(f"{label} ({len(puzzles)} puzzles)", timings))
    return results


if __name__ == "__main__":
    main()
