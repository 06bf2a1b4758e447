"""Benchmark of the report side: tables and plots for 10,000 results (target: under 5 s).

    python -m tools.perf.report_speed [--rows 10000] [--datasets 4] [--keep DIR]

It writes a synthetic bench table of ``--rows`` measurements (``--datasets`` datasets × 5
backend specs × enough puzzles; log-normal times, counters, a few timeouts), then times what
``sudoku-cp plot RESULTS`` does — load the CSV, summarise, render the tables, draw every figure
in PNG and SVG — stage by stage in this process, and the command itself end to end in a new
process (interpreter start-up and imports included). It measures and reports; it asserts
nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sudoku_cp.bench.plots import plot_results
from sudoku_cp.bench.report import load_results, render_summary, summarize, write_table

SPECS = (
    ("backtrack", "naive", 40.0, "nodes"),
    ("backtrack", "mrv", 8.0, "nodes"),
    ("backtrack", "fast", 2.0, "nodes"),
    ("cpsat", "", 6.0, "branches"),
    ("dlx", "", 4.0, "nodes"),
)
COUNTERS = ["nodes", "backtracks", "branches", "conflicts"]


def synthetic_rows(
    rows: int, datasets: int, seed: int = 0, time_limit: float = 10.0
) -> list[dict[str, Any]]:
    """``rows`` measurements shaped like a real bench's (one repeat each)."""
    rng = random.Random(seed)
    puzzles = math.ceil(rows / (datasets * len(SPECS)))
    out: list[dict[str, Any]] = []
    for d in range(datasets):
        for p in range(puzzles):
            hardness = rng.lognormvariate(0, 1.2)
            for backend, strategy, scale, counter in SPECS:
                if len(out) >= rows:
                    return out
                seconds = scale * hardness * rng.lognormvariate(0, 0.3) / 1000
                status = "unique" if seconds < time_limit else "timeout"
                effort = int(seconds * 2e5) + 1
                out.append(
                    {
                        "dataset": f"set{d + 1}",
                        "puzzle_id": f"set{d + 1}#{p + 1}",
                        "backend": backend,
                        "strategy": strategy,
                        "limit": 2,
                        "repeat": 1,
                        "status": status,
                        "count": 1 if status == "unique" else 0,
                        "seconds": min(seconds, time_limit),
                        "exact": status == "unique",
                        "valid": True,
                        "verdict": "unique",
                        "agrees": True if status == "unique" else None,
                        "note": "",
                        "nodes": effort if counter == "nodes" else None,
                        "backtracks": effort // 3 if backend == "backtrack" else None,
                        "branches": effort if counter == "branches" else None,
                        "conflicts": effort // 4 if backend == "cpsat" else None,
                    }
                )
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--datasets", type=int, default=4)
    parser.add_argument("--keep", type=Path, default=None, help="write the table here and keep it")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        write_table(synthetic_rows(args.rows, args.datasets), COUNTERS, folder)
        (folder / "record.json").write_text('{"options": {"time_limit": 10.0}}\n')
        stages: list[tuple[str, float]] = []
        start = time.perf_counter()
        results = load_results(folder)
        stages.append(("load CSV", time.perf_counter() - start))
        mark = time.perf_counter()
        text = render_summary(summarize(results.rows), "text", results.record)
        render_summary(summarize(results.rows), "markdown", results.record)
        stages.append(("summaries (text + markdown)", time.perf_counter() - mark))
        mark = time.perf_counter()
        figures = plot_results(results, folder / "plots")
        stages.append(
            (
                f"{len(figures)} figures (PNG + SVG, matplotlib import included)",
                time.perf_counter() - mark,
            )
        )
        total = time.perf_counter() - start
        mark = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "sudoku_cp.cli",
                "plot",
                str(folder),
                "-o",
                str(folder / "plots-cli"),
            ],
            check=True,
            capture_output=True,
        )
        command = time.perf_counter() - mark
    print(
        f"{len(results.rows):,} results, {args.datasets} datasets × {len(SPECS)} backends "
        f"({len(text.splitlines())} summary lines)"
    )
    for name, seconds in stages:
        print(f"  {name:<58} {seconds:6.2f} s")
    print(f"  {'total, in this process':<58} {total:6.2f} s")
    print(f"  {'`sudoku-cp plot RESULTS`, a new process, end to end':<58} {command:6.2f} s")
    print(f"target: under 5 s — {'met' if command < 5 else 'NOT met'}")


if __name__ == "__main__":
    main()
