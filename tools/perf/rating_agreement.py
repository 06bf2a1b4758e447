"""How far our rating agrees with HoDoKu's (issue 18): level agreement, rank correlation of
scores, time per rating, and why the levels differ.

    pip install hodoku-py        # the reference (a Python port of HoDoKu); never a dependency
    python -m tools.perf.rating_agreement [--per-set N] [--timeout S] [--output DIR]
        [--reuse-hodoku DIR/ratings.jsonl]    # HoDoKu's side from an earlier run
        [--datasets DIR]                      # the shared datasets, if not ../shared/datasets
        [--cb-dir DIR] [--sets controlled-bias]  # Berthier's controlled-bias file 001, alone

Puzzles: the bundled 9x9 sets (easy, famous, top1465, 17clue, forum-hardest) and, when
``../shared/datasets`` is there, Radcliffe's Kaggle sample stratified by difficulty, Royle's
17-clue puzzles, tdoku's top1465 and Norvig's top95 (the first N of each, 1,000 in all by
default). Each puzzle is rated by ``rate_puzzle`` here and by ``hodoku.Solver().solve`` in a
child process that is stopped after ``--timeout`` seconds (a puzzle HoDoKu does not finish is
left out of the comparison and counted). Timing: wall time of one rating, both sides in one
process each, one puzzle after the other (interleaved: ours, then HoDoKu's, per puzzle).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from sudoku_cp.logic.rating import rate_puzzle
from sudoku_cp.puzzle import Puzzle

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets"
LEVEL_NAMES = {1: "Easy", 2: "Medium", 3: "Hard", 4: "Unfair", 5: "Extreme"}


def _bundled(name: str) -> list[str]:
    from sudoku_cp.datasets import bundled_file
    from sudoku_cp.formats import read_input

    path = bundled_file(name)
    return [r.puzzle.to_line() for r in read_input(str(path)) if r.puzzle is not None]


def _lines(path: Path, column: int | None = None) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("puzzle"):
            continue
        text = line.split(",")[column] if column is not None else line.split()[0]
        if len(text) == 81:
            out.append(text)
    return out


SHARED_FILES = (
    "kaggle/radcliffe_3m_stratified_sample7034.csv",
    "royle17/sudoku17_royle_49151.txt",
    "tdoku/puzzles3_magictour_top1465.txt",
    "norvig/top95.txt",
)
"""The public sets' files, relative to the shared datasets folder."""


def puzzle_sets(
    per_set: int, shared: Path = SHARED, cb_dir: Path | None = None
) -> dict[str, list[str]]:
    """The sets, each cut to ``per_set`` puzzles (its first ones, in file order); the public
    ones from ``shared`` when it is there, and the controlled-bias collection's file 001 from
    ``cb_dir`` (see ``tools.perf.se_agreement``) when given."""
    sets = {name: _bundled(name) for name in ("easy", "famous", "top1465", "17clue")}
    sets["forum-hardest"] = _bundled("forum-hardest")
    if shared.is_dir():
        sets["kaggle-radcliffe"] = _lines(
            shared / "kaggle" / "radcliffe_3m_stratified_sample7034.csv", column=0
        )
        sets["royle17"] = _lines(shared / "royle17" / "sudoku17_royle_49151.txt")
        sets["tdoku-top1465"] = _lines(shared / "tdoku" / "puzzles3_magictour_top1465.txt")[100:]
        sets["norvig-top95"] = _lines(shared / "norvig" / "top95.txt")
    if cb_dir is not None:
        from tools.perf.se_agreement import controlled_bias

        sets["controlled-bias"] = controlled_bias(cb_dir, per_set)[0]
    kaggle = sets.get("kaggle-radcliffe")
    if kaggle:  # the file runs from easy to hard: every k-th puzzle keeps its strata
        sets["kaggle-radcliffe"] = kaggle[:: max(1, len(kaggle) // per_set)]
    return {name: puzzles[:per_set] for name, puzzles in sets.items()}


# --- HoDoKu in a child process, stopped when it overruns --------------------------------------
def _hodoku_worker(conn: Connection) -> None:
    from hodoku import Solver

    solver = Solver()
    solver.solve(
        "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"
    )
    conn.send("ready")
    while True:
        puzzle = conn.recv()
        if puzzle is None:
            return
        start = time.perf_counter()
        result = solver.solve(puzzle)
        seconds = time.perf_counter() - start
        names = [str(step.type.name) for step in result.steps]
        conn.send((int(result.level.value), int(result.score), bool(result.solved), seconds, names))


class Hodoku:
    def __init__(self) -> None:
        self.context = multiprocessing.get_context("spawn")
        self._start()

    def _start(self) -> None:
        self.conn, child = self.context.Pipe()
        self.process = self.context.Process(target=_hodoku_worker, args=(child,), daemon=True)
        self.process.start()
        self.conn.recv()

    def rate(self, puzzle: str, timeout: float) -> tuple[Any, ...] | None:
        self.conn.send(puzzle)
        if self.conn.poll(timeout):
            return tuple(self.conn.recv())
        self.process.kill()
        self.process.join()
        self._start()
        return None

    def close(self) -> None:
        self.conn.send(None)
        self.process.join(5)


# --- statistics --------------------------------------------------------------------------------
def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1  # ties share their mean rank
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks (ties averaged)."""
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else float("nan")


# --- the run -------------------------------------------------------------------------------------
HODOKU_FIELDS = ("hodoku_level", "hodoku_score", "hodoku_seconds", "hodoku_techniques")


def _earlier(path: Path | None) -> dict[str, dict[str, Any]]:
    """HoDoKu's side of an earlier run (its ``ratings.jsonl``), by puzzle: HoDoKu's ratings do
    not change when ours do, so a re-run after changing our techniques may reuse them."""
    if path is None:
        return {}
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {r["puzzle"]: {k: r[k] for k in HODOKU_FIELDS if k in r} for r in rows}


def run(
    per_set: int,
    timeout: float,
    output: Path | None,
    reuse: Path | None = None,
    shared: Path = SHARED,
    cb_dir: Path | None = None,
    only: list[str] | None = None,
) -> dict[str, Any]:
    sets = puzzle_sets(per_set, shared, cb_dir)
    if only:
        sets = {name: sets[name] for name in only}
    earlier = _earlier(reuse)
    hodoku = Hodoku()
    rows: list[dict[str, Any]] = []
    try:
        for name, puzzles in sets.items():
            for index, text in enumerate(puzzles):
                start = time.perf_counter()
                ours = rate_puzzle(Puzzle.parse(text))
                our_seconds = time.perf_counter() - start
                theirs = None if text in earlier else hodoku.rate(text, timeout)
                row: dict[str, Any] = {
                    "set": name,
                    "index": index,
                    "puzzle": text,
                    "level": ours.level,
                    "score": ours.score,
                    "hardest": ours.hardest,
                    "hardest_used": ours.hardest_used,
                    "seconds": our_seconds,
                    "techniques": [name for name, _ in ours.techniques],
                }
                row |= earlier.get(text, {})
                if theirs is not None:
                    level, score, solved, seconds, names = theirs
                    row |= {
                        "hodoku_level": LEVEL_NAMES.get(level, "Incomplete") if solved else "-",
                        "hodoku_score": score,
                        "hodoku_seconds": seconds,
                        "hodoku_techniques": sorted(set(names)),
                    }
                rows.append(row)
                print(
                    f"{name} {index}: {ours.level}/{row.get('hodoku_level', 'timeout')}",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        hodoku.close()
    summary = summarise(rows)
    if output:
        output.mkdir(parents=True, exist_ok=True)
        (output / "ratings.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        (output / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


OURS = {
    "FULL_HOUSE",
    "NAKED_SINGLE",
    "HIDDEN_SINGLE",
    "LOCKED_PAIR",
    "LOCKED_TRIPLE",
    "LOCKED_CANDIDATES_1",
    "LOCKED_CANDIDATES_2",
    "NAKED_PAIR",
    "NAKED_TRIPLE",
    "NAKED_QUADRUPLE",
    "HIDDEN_PAIR",
    "HIDDEN_TRIPLE",
    "HIDDEN_QUADRUPLE",
    "X_WING",
    "SWORDFISH",
    "JELLYFISH",
    "FINNED_X_WING",
    "SASHIMI_X_WING",
    "FINNED_SWORDFISH",
    "SASHIMI_SWORDFISH",
    "FINNED_JELLYFISH",
    "SASHIMI_JELLYFISH",
    "REMOTE_PAIR",
    "BUG_PLUS_1",
    "SKYSCRAPER",
    "TWO_STRING_KITE",
    "DUAL_TWO_STRING_KITE",
    "TURBOT_FISH",
    "EMPTY_RECTANGLE",
    "DUAL_EMPTY_RECTANGLE",
    "W_WING",
    "XY_WING",
    "XYZ_WING",
    "UNIQUENESS_1",
    "UNIQUENESS_2",
    "UNIQUENESS_4",
    "HIDDEN_RECTANGLE",
    "SIMPLE_COLORS_TRAP",
    "SIMPLE_COLORS_WRAP",
    "X_CHAIN",
    "XY_CHAIN",
    "CONTINUOUS_NICE_LOOP",
    "DISCONTINUOUS_NICE_LOOP",
    "AIC",
}
"""HoDoKu's names of the techniques this package has (the others explain disagreements)."""


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    compared = [r for r in rows if "hodoku_level" in r and r["hodoku_level"] != "-"]
    agree = [r for r in compared if r["level"] == r["hodoku_level"]]
    causes: Counter[str] = Counter()
    for r in compared:
        if r["level"] == r["hodoku_level"]:
            continue
        missing = [t for t in r["hodoku_techniques"] if t not in OURS]
        if r["hardest"] == "stalled" and missing:
            causes["we stall: HoDoKu used " + ", ".join(missing[:3])] += 1
        elif r["hardest"] == "stalled":
            causes["we stall though HoDoKu used only our techniques"] += 1
        else:
            causes[f"both solve: ours {r['level']}, HoDoKu {r['hodoku_level']}"] += 1
    per_set = {}
    for name in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == name]
        done = [r for r in mine if "hodoku_seconds" in r]
        per_set[name] = {
            "puzzles": len(mine),
            "hodoku_unfinished": len(mine) - len(done),
            "agree": sum(1 for r in done if r["level"] == r.get("hodoku_level")),
            "ours_median_ms": 1000 * statistics.median(r["seconds"] for r in mine),
            "hodoku_median_ms": (
                1000 * statistics.median(r["hodoku_seconds"] for r in done) if done else None
            ),
            "ours_stalled": sum(1 for r in mine if r["hardest"] == "stalled"),
        }
    return {
        "puzzles": len(rows),
        "compared": len(compared),
        "level_agreement": len(agree) / len(compared) if compared else None,
        "spearman": spearman([r["score"] for r in compared], [r["hodoku_score"] for r in compared])
        if compared
        else None,
        "stalled": sum(1 for r in rows if r["hardest"] == "stalled"),
        "per_set": per_set,
        "causes": causes.most_common(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-set", type=int, default=200, help="puzzles per set (max 10000)")
    parser.add_argument("--timeout", type=float, default=30.0, help="HoDoKu's seconds a puzzle")
    parser.add_argument("--output", type=Path, default=None, help="folder for the results")
    parser.add_argument(
        "--reuse-hodoku",
        type=Path,
        default=None,
        metavar="RATINGS_JSONL",
        help="take HoDoKu's side from an earlier run's ratings.jsonl (puzzles not in it are rated)",
    )
    parser.add_argument(
        "--datasets",
        type=Path,
        default=None,
        metavar="DIR",
        help="the shared datasets folder (default: ../shared/datasets beside the checkout; "
        "a git worktree elsewhere names it)",
    )
    parser.add_argument(
        "--cb-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="add the set controlled-bias: SMALL-CB-COLLECTIONS/001 of a clone of Berthier's "
        "controlled-bias repository (see tools.perf.se_agreement)",
    )
    parser.add_argument(
        "--sets", default=None, help="only these sets, comma-separated (e.g. controlled-bias)"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.per_set <= 10_000 or not 0 < args.timeout <= 3600:
        parser.error("--per-set takes 1 to 10000, --timeout up to 3600 seconds")
    if args.datasets is not None:
        missing = [name for name in SHARED_FILES if not (args.datasets / name).is_file()]
        if missing:
            parser.error(f"--datasets: no file {args.datasets / missing[0]}")
    try:
        import hodoku  # noqa: F401
    except ImportError:
        print("this benchmark needs hodoku-py: pip install hodoku-py", file=sys.stderr)
        return 2
    if args.reuse_hodoku is not None and not args.reuse_hodoku.is_file():
        parser.error(f"--reuse-hodoku: no file {args.reuse_hodoku}")
    shared = SHARED if args.datasets is None else args.datasets
    if args.cb_dir is not None and not (args.cb_dir / "001-puzzles.txt").is_file():
        parser.error(f"--cb-dir: no file {args.cb_dir / '001-puzzles.txt'}")
    only = [name.strip() for name in args.sets.split(",")] if args.sets else None
    known = set(puzzle_sets(1, shared, args.cb_dir)) if only else set()
    unknown = [name for name in only or [] if name not in known]
    if unknown:
        parser.error(f"--sets: no set {unknown[0]!r} (sets: {', '.join(sorted(known))})")
    summary = run(
        args.per_set, args.timeout, args.output, args.reuse_hodoku, shared, args.cb_dir, only
    )
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
