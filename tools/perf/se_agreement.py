"""How far ``rate --scale se`` agrees with Sudoku Explainer itself (issue 30).

    tools/build-se.sh /tmp/ref/SE /tmp/se/classes    # SE (SudokuMonster/SukakuExplainer)
    python -m tools.perf.se_agreement [--classes /tmp/se/classes] [--royle N]
        [--royle-start K] [--hardest N] [--top1465 N] [--top1465-start K] [--se-timeout S]
        [--time-cap S] [--datasets DIR] [--cb N --cb-dir DIR] [--pencilmarks N]

Both raters see the same puzzles in one run: SE 1.2.1's technique set (``serate
--techs=1111111111010111011011011011000010100010111111 --format=%r/%p/%d %e``, one Java process
a set, stopped after ``--se-timeout`` seconds: puzzles it had not rated by then are left out
and counted) and :func:`sudoku_cp.logic.se.rate_values` here, one puzzle after the other.

Sets: Royle's 17-clue list (``--royle`` of them after ``--royle-start``), and the first
``--hardest`` of the named "famous hardest" puzzles, of the forum's hardest list (tdoku's
``puzzles6_forum_hardest_1106``) and of msolve's "most difficult", and the first
``--top1465`` of magictour's top 1465 after ``--top1465-start`` (tdoku's
``puzzles3_magictour_top1465``, SE 7.x–9.x mostly) (files under ``--datasets``, by default
the nearest ``shared/datasets`` above this checkout or /work/shared/datasets).

Controlled-bias (``--cb N``): the first N puzzles of Denis Berthier's controlled-bias
collection, file 001 (21,695 minimal puzzles, the collection's unit of unbiased statistics; use
all of them for an unbiased sample), from a clone of
https://github.com/denis-berthier/Controlled-bias_Sudoku_generator_and_collection (GPL-3.0
data): ``--cb-dir`` is its ``SMALL-CB-COLLECTIONS/001`` folder, which holds
``001-puzzles.txt`` and ``001-SER.txt``. The published SER (Berthier's, one a line, in step
with the puzzles) is a second witness, independent of the SE run here: its agreement with SE's
and with ours is printed too.

Pencil-mark grids (``--pencilmarks N``): N candidate grids of 729 symbols made from the first
N of Royle's puzzles (after ``--royle-start``), seeded: each given kept as its one digit, about
15% of the empty cells left unmarked (all nine digits, a cell not pencilled yet) and the others
pencilled with what their given peers leave less a random 30% of the digits the solution does
not hold there (sound eliminations); rated as ``rate --scale se`` rates a pencil-mark puzzle
and by SE's ``serate`` on the same 729 symbols.

Printed per set: how many puzzles we rate exactly (our ER/EP/ED are SE's numbers, no lower
bound) and of those how many equal SE's; ER, EP and ED equality shares over all puzzles (a
lower bound counts as unequal) and the share of exact ERs within ±0.1 of SE's (a bound never
counts); wrong = an exact value that differs from SE's, or a lower
bound above SE's value (must be 0); per-puzzle time ours and SE's (SE's own ``%e``, 10 ms
resolution, the JVM's start not counted) and the whole SE process's wall time; the load
average before and after.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sudoku_cp import Puzzle, solve
from sudoku_cp.logic.se import rate_values
from sudoku_cp.logic.se.rating import SERating, rate_puzzle_se

SE_TECHS = "1111111111010111011011011011000010100010111111"
"""SE 1.2.1's technique set (``Settings.init121``) as serate's ``--techs`` mask."""


def default_datasets() -> Path:
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "shared" / "datasets"
        if candidate.is_dir():
            return candidate
    return Path("/work/shared/datasets")


def _lines(path: Path, limit: int, start: int = 0) -> list[str]:
    out: list[str] = []
    if not path.is_file():
        return out
    if path.suffix == ".csv":
        with path.open(newline="") as handle:
            for row in csv.DictReader(handle):
                if len(row.get("puzzle", "")) == 81:
                    out.append(row["puzzle"])
    else:
        for line in path.read_text().splitlines():
            text = line.strip().split()[0] if line.strip() else ""
            if len(text) == 81:
                out.append(text)
    return out[start : start + limit]


def puzzle_sets(
    datasets: Path,
    royle: int,
    hardest: int,
    royle_start: int = 0,
    top1465: int = 0,
    top1465_start: int = 0,
) -> dict[str, list[str]]:
    return {
        "royle17": _lines(datasets / "royle17" / "sudoku17_royle_49151.txt", royle, royle_start),
        "famous-hardest": _lines(datasets / "famous" / "famous_hardest_named.csv", hardest),
        "forum-hardest-1106": _lines(
            datasets / "tdoku" / "puzzles6_forum_hardest_1106.txt", hardest
        ),
        # "most difficult" for the msolve solver; SE rates its first 20 at 6.6 each
        "msolve-most-difficult": _lines(datasets / "msolve" / "most_difficult_100.txt", hardest),
        "top1465": _lines(
            datasets / "tdoku" / "puzzles3_magictour_top1465.txt", top1465, top1465_start
        ),
    }


def pencil_mark_grids(puzzles: list[str], seed: int = 7) -> list[str]:
    """A 729-symbol candidate grid per puzzle, as the module's docstring says."""
    import random

    rng = random.Random(seed)
    grids = []
    for line in puzzles:
        solution = solve(line).solutions[0]
        puzzle = Puzzle.parse(line)
        peers = puzzle.peers()
        cells = puzzle.cells
        text = []
        for cell in range(81):
            if cells[cell]:
                keep = {cells[cell]}
            elif rng.random() < 0.15:
                keep = set(range(1, 10))
            else:
                keep = set(range(1, 10)) - {cells[p] for p in peers[cell] if cells[p]}
                keep = {d for d in keep if d == solution[cell] or rng.random() >= 0.3}
            text.append("".join(str(d) if d in keep else "." for d in range(1, 10)))
        grids.append("".join(text))
    return grids


def _rate(puzzle: str, time_cap: float) -> SERating:
    """Ours: a classic line by its givens, a 729-symbol grid as a pencil-mark puzzle."""
    if len(puzzle) == 729:
        return rate_puzzle_se(Puzzle.parse(puzzle), time_cap)
    return rate_values([0 if c == "." else int(c) for c in puzzle], time_cap)


@dataclass
class SEResult:
    ratings: list[tuple[float, float, float, float]]  # ER, EP, ED, seconds
    wall: float
    complete: bool


def run_se(classes: Path, puzzles: list[str], timeout: float) -> SEResult:
    """serate over ``puzzles``; whatever it printed before ``timeout`` seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzles.txt"
        path.write_text("".join(p + "\n" for p in puzzles))
        command = [
            "java",
            "-cp",
            str(classes),
            "diuf.sudoku.test.serate",
            f"--techs={SE_TECHS}",
            "--format=%r/%p/%d %e",
            f"--input={path}",
        ]
        start = time.perf_counter()
        complete = True
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
            out = done.stdout
        except subprocess.TimeoutExpired as stopped:
            raw = stopped.stdout or b""
            out = raw.decode() if isinstance(raw, bytes) else raw
            complete = False
        wall = time.perf_counter() - start
    ratings = []
    for line in out.splitlines():
        values, _, elapsed = line.partition(" ")
        er, ep, ed = (float(x) for x in values.split("/"))
        ratings.append((er, ep, ed, _seconds(elapsed)))
    return SEResult(ratings, wall, complete)


def _seconds(text: str) -> float:
    """serate's ``%e`` (``serate.Formatter.getTimeString``): ``0.07s``, ``1m06s``, ``2h05m``
    or ``1d03h``."""
    scale = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}
    return sum(float(n) * scale[u] for n, u in re.findall(r"([\d.]+)([dhms])", text))


CB_TOTAL = 21_695
"""Puzzles in file 001 of the controlled-bias collection."""


def controlled_bias(folder: Path, count: int) -> tuple[list[str], list[float]]:
    """The first ``count`` puzzles of ``folder``'s ``001-puzzles.txt`` (each line a puzzle and
    the generator's counter) and their published SER (``001-SER.txt``, a number a line)."""
    puzzles = [line.split()[0] for line in (folder / "001-puzzles.txt").read_text().splitlines()]
    published = [float(line) for line in (folder / "001-SER.txt").read_text().split()]
    if len(puzzles) != len(published) or any(len(p) != 81 for p in puzzles):
        raise ValueError(f"{folder}: 001-puzzles.txt and 001-SER.txt are not in step")
    return puzzles[:count], published[:count]


def compare(
    name: str,
    puzzles: list[str],
    se: SEResult,
    time_cap: float,
    published: list[float] | None = None,
) -> dict[str, float]:
    rated = se.ratings
    n = len(rated)
    exact = equal_exact = 0
    same = [0, 0, 0]
    near = 0  # ER within ±0.1 of SE's
    wrong: list[str] = []
    ours_times: list[float] = []
    ratios: list[float] = []
    exact_times: list[tuple[float, float]] = []
    ours_er: list[tuple[float, bool]] = []
    for puzzle, (er, ep, ed, se_seconds) in zip(puzzles, rated, strict=False):
        start = time.perf_counter()
        rating = _rate(puzzle, time_cap)
        seconds = time.perf_counter() - start
        ours_times.append(seconds)
        if se_seconds >= 0.01 and rating.exact:
            ratios.append(seconds / se_seconds)
        if rating.exact:
            exact_times.append((seconds, se_seconds))
        theirs = (er, ep, ed)
        mine = (rating.er, rating.ep, rating.ed)
        ours_er.append((rating.er, rating.er_exact))
        if rating.er_exact:
            near += abs(rating.er - er) < 0.1 + 1e-9
        flags = (rating.er_exact, rating.ep_exact, rating.ed_exact)
        for i in range(3):
            if flags[i]:
                if abs(mine[i] - theirs[i]) < 1e-9:
                    same[i] += 1
                else:
                    wrong.append(f"{puzzle} ours {rating.text()} SE {er}/{ep}/{ed}")
            elif mine[i] > theirs[i] + 1e-9:
                wrong.append(f"{puzzle} bound {rating.text()} above SE {er}/{ep}/{ed}")
        if rating.exact:
            exact += 1
            equal_exact += mine == theirs
    se_times = [r[3] for r in rated]
    print(
        f"\n{name}: {n} puzzles rated by SE" + ("" if se.complete else " (SE stopped by timeout)")
    )
    if not n:
        return {}
    print(
        f"  rated exactly by us: {exact} ({exact / n:.1%}); equal to SE among them: {equal_exact}"
    )
    print(
        f"  equal to SE over all: ER {same[0] / n:.1%}, EP {same[1] / n:.1%}, ED {same[2] / n:.1%}"
        " (a lower bound counts as unequal)"
    )
    print(f"  ER exact and within ±0.1 of SE's: {near / n:.1%}")
    print(f"  wrong (an exact value unequal to SE's, or a bound above it): {len(wrong)}")
    for line in wrong[:10]:
        print("    " + line)
    print(
        f"  time per puzzle: ours mean {statistics.fmean(ours_times) * 1000:.1f} ms, median "
        f"{statistics.median(ours_times) * 1000:.1f} ms; SE mean "
        f"{statistics.fmean(se_times) * 1000:.1f} ms (its %e), SE process wall "
        f"{se.wall:.1f} s for {n} (JVM start included)"
    )
    if exact_times:
        # Only puzzles we rate exactly: on the others we stop early, SE goes on.
        ours_sum = sum(t[0] for t in exact_times)
        se_sum = sum(t[1] for t in exact_times)
        print(
            f"  puzzles rated exactly ({len(exact_times)}): ours {ours_sum:.2f} s, SE "
            f"{se_sum:.2f} s (its %e); ratio {ours_sum / max(se_sum, 1e-9):.2f}"
        )
    if ratios:
        print(
            f"  ours/SE per puzzle, exact ones SE took >= 10 ms on ({len(ratios)}): median "
            f"{statistics.median(ratios):.2f}"
        )
    print(f"  ours/SE total: {sum(ours_times) / max(se.wall, 1e-9):.2f} (SE wall incl. JVM)")
    if published is not None:
        witness = published[:n]
        se_same = sum(abs(p - r[0]) < 1e-9 for p, r in zip(witness, rated, strict=True))
        ours_same = sum(
            exact and abs(p - er) < 1e-9 for p, (er, exact) in zip(witness, ours_er, strict=True)
        )
        print(
            f"  ER equal to the published SER: SE here {se_same / n:.1%} ({se_same}), ours "
            f"{ours_same / n:.1%} ({ours_same})"
        )
    return {"n": n, "exact": exact, "er": same[0] / n, "near": near / n, "wrong": len(wrong)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--classes", type=Path, default=Path("/tmp/se/classes"))
    parser.add_argument("--royle", type=int, default=1000)
    parser.add_argument(
        "--royle-start",
        type=int,
        default=0,
        help="skip this many of Royle's puzzles first (the first 2,000 were used in development)",
    )
    parser.add_argument("--hardest", type=int, default=20)
    parser.add_argument("--top1465", type=int, default=0)
    parser.add_argument(
        "--top1465-start",
        type=int,
        default=0,
        help="skip this many of top1465's puzzles first (the first 200 were used in development)",
    )
    parser.add_argument(
        "--pencilmarks",
        type=int,
        default=0,
        help="N pencil-mark grids made from Royle's puzzles (see above)",
    )
    parser.add_argument("--se-timeout", type=float, default=600.0)
    parser.add_argument("--time-cap", type=float, default=60.0)
    parser.add_argument("--datasets", type=Path, default=default_datasets())
    parser.add_argument(
        "--cb",
        type=int,
        default=0,
        help=f"the first N of the controlled-bias collection's file 001 (all: {CB_TOTAL:,})",
    )
    parser.add_argument(
        "--cb-dir",
        type=Path,
        default=None,
        help="SMALL-CB-COLLECTIONS/001 of a clone of Berthier's controlled-bias repository "
        "(default: controlled-bias/001 under --datasets)",
    )
    args = parser.parse_args(argv)
    if not (args.classes / "diuf" / "sudoku" / "test" / "serate.class").is_file():
        print(
            f"se_agreement: no SE build in {args.classes} (run tools/build-se.sh first)",
            file=sys.stderr,
        )
        return 2
    for name, value, cap in (
        ("royle", args.royle, 49_151),
        ("royle-start", args.royle_start, 49_151),
        ("hardest", args.hardest, 1_000),
        ("top1465", args.top1465, 1_465),
        ("top1465-start", args.top1465_start, 1_465),
        ("cb", args.cb, CB_TOTAL),
        ("pencilmarks", args.pencilmarks, 49_151),
    ):
        if not 0 <= value <= cap:
            print(f"se_agreement: --{name} must be within 0..{cap:,}", file=sys.stderr)
            return 2
    cb: tuple[list[str], list[float]] = ([], [])
    if args.cb:
        folder = args.cb_dir or args.datasets / "controlled-bias" / "001"
        try:
            cb = controlled_bias(folder, args.cb)
        except (OSError, ValueError) as error:
            print(
                f"se_agreement: cannot read the controlled-bias collection: {error}",
                file=sys.stderr,
            )
            return 2
    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    sets = puzzle_sets(
        args.datasets,
        args.royle,
        args.hardest,
        args.royle_start,
        args.top1465,
        args.top1465_start,
    )
    for name, puzzles in sets.items():
        wanted = {"royle17": args.royle, "top1465": args.top1465}.get(name, args.hardest)
        if not wanted:
            continue  # --royle 0 / --hardest 0: the set is not asked for
        if not puzzles:
            print(f"\n{name}: no puzzles found under {args.datasets}")
            continue
        se = run_se(args.classes, puzzles, args.se_timeout)
        compare(name, puzzles, se, args.time_cap)
    if args.pencilmarks:
        base = puzzle_sets(args.datasets, args.pencilmarks, 0, args.royle_start)["royle17"]
        grids = pencil_mark_grids(base)
        compare(
            "pencil-mark grids (Royle)",
            grids,
            run_se(args.classes, grids, args.se_timeout),
            args.time_cap,
        )
    if cb[0]:
        se = run_se(args.classes, cb[0], args.se_timeout)
        compare("controlled-bias 001", cb[0], se, args.time_cap, published=cb[1])
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
