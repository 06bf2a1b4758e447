"""Published variant puzzles: our backends beside sigh's Interactive Sudoku Solver, one by one.

    python -m tools.perf.variants_vs_iss --iss PATH [--sets variants9,published,iss,killer,jigsaw]
        [--backends backtrack,sat,cpsat] [--time-limit 10] [--repeat 1] [--cold] [--json]

``PATH`` is a checkout of the Interactive Sudoku Solver (ISS, MIT:
``git clone https://github.com/sigh/Interactive-Sudoku-Solver``); ``node`` (20 or later) runs
it. Issue 34's targets are read off one run: every published puzzle of the public variant sets
decided -- a uniqueness check, limit 2 -- by our fastest backend within 3x ISS's time, and by
``backtrack`` within 10 s.

Each puzzle of the bundled sets is written for ISS by
:func:`sudoku_cp.formats.iss_writer.format_iss`
and solved, in turn, by ISS and by each backend (``get_backend(b).solve(p, limit=2,
time_limit=T)``), ``--repeat`` rounds, medians kept. ISS runs in one long-lived node process
(``tools/perf/iss_solve.mjs``): node's start-up and module imports are paid once and never
timed; ISS's time is its build (the puzzle's constraints into handlers) plus its search, as
ours is the backend's ``solve`` on a puzzle already read. A solve of ISS past the time limit
kills that process (a fresh one serves the next puzzle). Both sides run one at a time on one
core each (CP-SAT with its default single worker). Before the timed runs each side solves
one classic puzzle once, so loading (the compiled kernel, OR-Tools, node's modules) is not
timed either. ISS solves each puzzle once untimed before its timed rounds (unless
``--cold``): node compiles ISS's code for a constraint type on its first use, which took
ten times its warm solve on 'Leven, a cost a running ISS has paid on earlier puzzles of the
kind. Our first round is timed: it is this puzzle's first solve (the backtracker caches its
tables per model, so our later rounds are faster; ``--repeat 1`` gives first solves). A side
out of time in a round is not run again.

A puzzle our readers cannot read, or ``format_iss`` cannot write for ISS, is listed as
skipped with the reason -- never dropped. The answers are checked: our status must agree with
ISS's (``unique``/``multiple``/``none``), and with the puzzle's published solution and stated
solution count when it has them (:mod:`sudoku_cp.published`); every disagreement is printed
as such, and makes the exit status 1. Exit status 2: unusable arguments (no ISS checkout, no
node, an unknown set or backend).
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from sudoku_cp.cli.app import EXIT_NEGATIVE, EXIT_OK, EXIT_USAGE
from sudoku_cp.errors import PuzzleError, SudokuError
from sudoku_cp.puzzle import Puzzle

from .entry_cost import machine

DEFAULT_SETS = ("variants9", "published", "iss", "killer", "jigsaw")
DEFAULT_BACKENDS = ("backtrack", "sat", "cpsat")
DRIVER = Path(__file__).with_name("iss_solve.mjs")
ISS_URL = "https://github.com/sigh/Interactive-Sudoku-Solver"
ISS_FILES = ("js/sudoku_parser.js", "js/solver/sudoku_builder.js")
"""What the driver imports from a checkout: their presence is how a checkout is recognised."""
MAX_TIME_LIMIT = 600.0
MAX_REPEAT = 20
TARGET_RATIO = 3.0
BACKTRACK_TARGET_S = 10.0
DECIDED = ("unique", "multiple", "none")
UNWRITTEN = "not written"
"""ISS's status for a puzzle :func:`~sudoku_cp.formats.iss_writer.format_iss` cannot write."""
WARM_UP = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
"""A classic puzzle each side solves once, untimed, before the timed runs (Project Euler 96's
first grid)."""


class Unusable(Exception):
    """An argument or a tool the run cannot do without: one line, exit status 2."""


# --- ISS in one node process -------------------------------------------------------------


class IssSolver:
    """One node process running ``iss_solve.mjs`` on the ISS checkout ``root``; started on the
    first solve, killed (and started again on the next) when a solve runs past its limit."""

    def __init__(self, root: Path, node: str) -> None:
        self.root, self.node = root, node
        self._proc: subprocess.Popen[bytes] | None = None
        self._errors: IO[bytes] | None = None
        self._buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        # a file, not a pipe: node cannot block on it; closed by close()
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115
        self._buffer = b""
        self._proc = subprocess.Popen(
            [self.node, str(DRIVER), str(self.root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
        )
        ready = self._read_line(time.monotonic() + 120.0)
        if ready is None or not json.loads(ready).get("ready"):
            why = self._stderr_line() or "no answer in 120 s"
            self.close()
            raise Unusable(f"the ISS checkout {self.root} did not load under node: {why}")
        return self._proc

    def _stderr_line(self) -> str:
        if self._errors is None:
            return ""
        self._errors.seek(0)
        lines = self._errors.read().decode("utf-8", "replace").splitlines()
        # node prints the thrown error's own line first among its lines ("Error [...]: ...")
        errors = [line.strip() for line in lines if "Error" in line]
        return (errors or [line.strip() for line in lines if line.strip()] or [""])[0]

    def _read_line(self, deadline: float) -> bytes | None:
        """The process's next line of output, or None at the deadline or its exit."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return None
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def solve(self, text: str, time_limit: float) -> dict[str, Any]:
        """ISS's answer for the constraint string ``text``: the driver's fields, or status
        ``timeout`` (the process killed) or ``error`` (with ``error``)."""
        proc = self._proc or self._start()
        assert proc.stdin is not None
        start = time.monotonic()
        try:
            proc.stdin.write(json.dumps({"input": text}).encode() + b"\n")
            proc.stdin.flush()
        except BrokenPipeError:
            self.close()
            return {"status": "error", "error": "the node process had exited"}
        line = self._read_line(start + time_limit)
        if line is None:
            exited = proc.poll() is not None
            why = self._stderr_line()
            self.close()
            if exited:
                return {"status": "error", "error": f"node exited: {why}"}
            return {"status": "timeout"}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            for stream in (self._proc.stdin, self._proc.stdout):
                if stream is not None:
                    stream.close()
            self._proc = None
        if self._errors is not None:
            self._errors.close()
            self._errors = None


def find_iss(path: str | None) -> tuple[Path, str]:
    """The ISS checkout and the node executable, or :class:`Unusable` saying how to get them."""
    get = f"get it with: git clone {ISS_URL}, then pass --iss PATH"
    if not path:
        raise Unusable(
            f"--iss PATH (a checkout of the Interactive Sudoku Solver) is required; {get}"
        )
    root = Path(path)
    missing = [name for name in ISS_FILES if not (root / name).is_file()]
    if missing:
        raise Unusable(
            f"--iss {path}: no Interactive Sudoku Solver checkout there ({missing[0]} "
            f"missing); {get}"
        )
    node = shutil.which("node")
    if node is None:
        raise Unusable("node is not on PATH: ISS runs under Node.js 20 or later (nodejs.org)")
    return root, node


# --- one side's runs of one puzzle -------------------------------------------------------


@dataclass
class Side:
    """What one solver (ISS or one backend) did on one puzzle over the rounds."""

    status: str
    ms: list[float] = field(default_factory=list)
    detail: str = ""
    search_size: int | None = None  # ISS's guesses, our backend's nodes (when it counts them)
    limit_ms: float | None = None  # the time limit a ``timeout`` ran into

    @property
    def median_ms(self) -> float | None:
        return statistics.median(self.ms) if self.ms else None

    @property
    def decided(self) -> bool:
        return self.status in DECIDED


@dataclass
class Row:
    """One puzzle of one set: both sides' runs, or why it was skipped."""

    set: str
    index: int
    title: str
    skipped: str = ""
    iss: Side | None = None
    ours: dict[str, Side] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def unwritten(self) -> str:
        """Why the puzzle could not be written for ISS (it ran on our side only), else ""."""
        return self.iss.detail if self.iss is not None and self.iss.status == UNWRITTEN else ""

    def fastest(self) -> tuple[str, float] | None:
        """Our backend that decided the puzzle in the least (median) time, and that time."""
        times = [
            (statistics.median(s.ms), name) for name, s in self.ours.items() if s.decided and s.ms
        ]
        if not times:
            return None
        ms, name = min(times)
        return name, ms

    def ratio(self) -> float | None:
        """Our fastest backend's time over ISS's; None when either side did not decide. (When
        ISS ran out of time and we did not, the ratio is below our time over the limit: it is
        given as that bound, with :attr:`iss` ``timeout``.)"""
        best = self.fastest()
        if best is None or self.iss is None:
            return None
        if self.iss.status == "timeout":
            return best[1] / (self.iss.limit_ms or float("inf"))
        iss_ms = self.iss.median_ms
        if not self.iss.decided or not iss_ms:
            return None
        return best[1] / iss_ms

    def within_target(self) -> bool:
        ratio = self.ratio()
        return ratio is not None and ratio <= TARGET_RATIO

    def backtrack_in_time(self) -> bool | None:
        """Whether ``backtrack`` decided within 10 s (None when it was not run)."""
        side = self.ours.get("backtrack")
        if side is None:
            return None
        ms = side.median_ms
        return side.decided and ms is not None and ms <= BACKTRACK_TARGET_S * 1000


def answer_problems(
    name: str, status: str, solutions: Sequence[Sequence[int]], puzzle: Puzzle, count: Any
) -> list[str]:
    """What is wrong with one side's answer on its own: a solution the validator rejects, or
    an answer the published solution or the stated solution count contradicts. (A published
    solution that breaks the puzzle as read is the puzzle's problem, not an answer's:
    :func:`published_breaks` says it once.)"""
    from sudoku_cp.published import BREAKS, conflicts, explain, published_status

    problems = []
    grids = [tuple(s) for s in solutions]
    bad = [g for g in grids if not puzzle.is_solution(g)]
    if bad:
        problems.append(f"{name}'s solution breaks the puzzle: {puzzle.problems_with(bad[0])[0]}")
    if status not in DECIDED:
        return problems
    published = published_status(puzzle, grids)
    if published is not None and not published.startswith(BREAKS) and conflicts(published, status):
        problems.append(f"{name} says {status}, but {explain(published)}")
    if isinstance(count, int) and not isinstance(count, bool):
        expected = "none" if count == 0 else "unique" if count == 1 else "multiple"
        if expected != status:
            problems.append(f"{name} says {status}; the set states {count} solution(s)")
    return problems


def published_breaks(puzzle: Puzzle) -> list[str]:
    """The puzzle's published solution breaking the puzzle as read (a misread rule, or a wrong
    published solution), as a problem; else nothing."""
    from sudoku_cp.published import BREAKS, explain, published_status

    published = published_status(puzzle, ())
    return [explain(published)] if published and published.startswith(BREAKS) else []


def disagreements(row: Row) -> list[str]:
    """The decided sides of a row that do not give the same status."""
    said = {name: side.status for name, side in row.ours.items() if side.decided}
    if row.iss is not None and row.iss.decided:
        said = {"ISS": row.iss.status, **said}
    if len(set(said.values())) <= 1:
        return []
    return ["statuses differ: " + ", ".join(f"{name} {status}" for name, status in said.items())]


# --- the puzzles -------------------------------------------------------------------------


@dataclass
class Entry:
    set: str
    index: int
    title: str
    puzzle: Puzzle | None
    reason: str  # why it cannot run (the reader's error), else ""
    expected: dict[str, Any]


def _titles(path: Path) -> dict[int, str]:
    """A title per line number of a JSON Lines set (its title, name or id); empty for CSV."""
    if path.suffix != ".jsonl":
        return {}
    titles = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if line.strip():
                data = json.loads(line)
                titles[number] = str(data.get("title") or data.get("name") or data.get("id", ""))
    return titles


def entries(name: str) -> list[Entry]:
    """Every record of the bundled set ``name``, read or not."""
    from sudoku_cp.datasets import bundled_path
    from sudoku_cp.formats import read_puzzles

    path = bundled_path(name)
    titles = _titles(path)
    return [
        Entry(
            name,
            record.index,
            titles.get(record.line) or record.id,
            record.puzzle,
            record.error or "",
            record.expected,
        )
        for record in read_puzzles(path)
    ]


# --- the run -----------------------------------------------------------------------------


def _our_side(backend: Any, name: str, puzzle: Puzzle, time_limit: float, side: Side | None):
    """One more round of backend ``name`` on ``puzzle``, added to ``side``."""
    start = time.perf_counter()
    try:
        result = backend.solve(puzzle, limit=2, time_limit=time_limit)
    except SudokuError as err:
        return Side("error", detail=str(err).split("\n")[0]), ()
    ms = (time.perf_counter() - start) * 1000
    status = result.status.value
    if status not in DECIDED:  # out of time (or undecided) in any round: that is the answer
        return Side(status, limit_ms=time_limit * 1000), result.solutions
    side = side or Side(status)
    if side.status != status:
        side.detail = f"rounds differ: {side.status}, then {status}"
    side.ms.append(ms)
    nodes = result.stats.get("nodes")
    side.search_size = int(nodes) if isinstance(nodes, int | float) else None
    return side, result.solutions


def _iss_side(iss: IssSolver, text: str, time_limit: float, side: Side | None):
    answer = iss.solve(text, time_limit)
    status = answer["status"]
    if status in ("timeout", "error"):
        return Side(status, detail=answer.get("error", ""), limit_ms=time_limit * 1000), ()
    side = side or Side(status)
    if side.status != status:
        side.detail = f"rounds differ: {side.status}, then {status}"
    side.ms.append(answer["build_ms"] + answer["search_ms"])
    side.search_size = answer.get("guesses")
    return side, [answer["solution"]] if answer.get("solution") else []


def run_entry(
    entry: Entry,
    iss: IssSolver,
    backends: dict[str, Any],
    time_limit: float,
    repeat: int,
    warm: bool = True,
) -> Row:
    """Both sides on one puzzle, ``repeat`` rounds, ISS then each backend in every round.

    With ``warm``, ISS solves the puzzle once more first, untimed: node compiles ISS's code for
    a constraint type on its first use ('Leven took ISS 28 ms cold, 3 ms warm), a cost a
    running ISS has paid on earlier puzzles of the kind. Our first round is timed: it is
    the first solve of this puzzle, whose tables (our compile of its model, cached per model
    by the backtracker) a later round would find made -- with ``repeat`` above 1 our median
    is of such later rounds too.
    """
    from sudoku_cp.formats.iss_writer import format_iss

    row = Row(entry.set, entry.index, entry.title)
    puzzle = entry.puzzle
    if puzzle is None:
        row.skipped = f"not read: {entry.reason}"
        return row
    text: str | None = None
    try:
        text = format_iss(puzzle.cells, puzzle.size, puzzle.model)
    except PuzzleError as err:
        # ISS cannot be asked, but backtrack's 10 s target holds for this puzzle all the same
        row.iss = Side(UNWRITTEN, detail=f"not written for ISS: {err}")
    refusals = {name: b.refusal(puzzle) for name, b in backends.items()}
    for name, why in refusals.items():
        if why:
            row.ours[name] = Side("unsupported", detail=why)
    if all(refusals.values()):
        row.skipped = "no backend takes it: " + "; ".join(str(w) for w in refusals.values())
        return row
    found: dict[str, Sequence[Sequence[int]]] = {}
    for k in range(repeat + warm):
        # A side that ran out of time or failed is not run again: its answer will not change
        # (and a warm-up round that ran out of time is the side's answer).
        if text is not None and (row.iss is None or row.iss.decided):
            row.iss, found["ISS"] = _iss_side(iss, text, time_limit, row.iss)
        for name, backend in backends.items():
            side = row.ours.get(name)
            if k < repeat and (side is None or side.decided):
                row.ours[name], found[name] = _our_side(backend, name, puzzle, time_limit, side)
    if warm and row.iss is not None and row.iss.decided:
        del row.iss.ms[0]
    count = entry.expected.get("solution_count")
    row.problems += published_breaks(puzzle)
    sides = {"ISS": row.iss, **row.ours}
    for name, side in sides.items():
        if side is not None:
            row.problems += answer_problems(name, side.status, found.get(name, ()), puzzle, count)
    row.problems += disagreements(row)
    return row


def warm_up(iss: IssSolver, backends: dict[str, Any], time_limit: float) -> None:
    """One untimed classic solve on each side, and the backtracker's compiled kernel loaded:
    the kernel, OR-Tools and node's JIT load."""
    from sudoku_cp.formats.iss_writer import format_iss

    puzzle = Puzzle.parse(WARM_UP)
    answer = iss.solve(format_iss(puzzle.cells, puzzle.size, puzzle.model), time_limit)
    if answer["status"] != "unique":
        raise Unusable(f"ISS does not solve a classic puzzle: {answer}")
    if "backtrack" in backends:
        # Load the compiled kernel as a long-running process has (a worker does so at its
        # start): else the first variants pay the pure search's allowance and the load.
        from sudoku_cp.backends.backtrack import warm_up as warm_kernel

        warm_kernel()
    for backend in backends.values():
        backend.solve(puzzle, limit=2, time_limit=time_limit)


# --- the report --------------------------------------------------------------------------


def summary(rows: Iterable[Row]) -> dict[str, dict[str, Any]]:
    """Per set: puzzles, skipped (not run at all), run (by our backends), compared (by ISS
    too), within 3x (of those compared), backtrack within 10 s (of those run), the median and
    worst ratio, and the puzzles with a disagreement."""
    sets: dict[str, list[Row]] = {}
    for row in rows:
        sets.setdefault(row.set, []).append(row)
    out = {}
    for name, members in sets.items():
        ran = [r for r in members if not r.skipped]
        compared = [r for r in ran if not r.unwritten]
        ratios = [x for x in (r.ratio() for r in compared) if x is not None]
        backtrack = [r.backtrack_in_time() for r in ran]
        out[name] = {
            "puzzles": len(members),
            "skipped": len(members) - len(ran),
            "run": len(ran),
            "compared": len(compared),
            "within_3x": sum(r.within_target() for r in compared),
            "backtrack_10s": sum(1 for b in backtrack if b),
            "backtrack_run": sum(1 for b in backtrack if b is not None),
            "median_ratio": statistics.median(ratios) if ratios else None,
            "worst_ratio": max(ratios) if ratios else None,
            "disagreements": sum(1 for r in ran if r.problems),
        }
    return out


def _ms(side: Side | None) -> str:
    if side is None:
        return ""
    ms = side.median_ms
    if not side.decided or ms is None:
        return side.status
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.1f}"


def _ratio(row: Row) -> str:
    ratio = row.ratio()
    if ratio is None:
        return "-"
    bound = "<" if row.iss is not None and row.iss.status == "timeout" else ""
    return f"{bound}{ratio:.2f}"


def print_report(rows: list[Row], backends: Sequence[str], heading: str) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    # wide when written to a file: the table is the output, not a terminal's view of it
    console = Console(width=None if sys.stdout.isatty() else 200)
    console.print(heading)
    table = Table("set", "#")
    table.add_column("title", no_wrap=True, max_width=34)
    for column in ("ISS ms", *[f"{b} ms" for b in backends]):
        table.add_column(column, justify="right")
    for column in ("fastest", "÷ ISS", "≤3x", "backtrack ≤10 s"):
        table.add_column(column)
    for row in rows:
        if row.skipped:
            continue
        best = row.fastest()
        in_time = row.backtrack_in_time()
        table.add_row(
            row.set,
            str(row.index),
            escape(row.title),  # titles hold brackets: "Nabner thermo [extra givens]"
            _ms(row.iss),
            *[_ms(row.ours.get(b)) for b in backends],
            best[0] if best else "-",
            _ratio(row),
            "-" if row.unwritten else "yes" if row.within_target() else "[bold red]no[/]",
            "-" if in_time is None else "yes" if in_time else "[bold red]no[/]",
        )
    console.print(table)
    skipped = [r for r in rows if r.skipped]
    if skipped:
        console.print(f"\nSkipped ({len(skipped)}):")
        for row in skipped:
            console.print(
                f"  {row.set} #{row.index} {row.title}: {row.skipped}", markup=False, soft_wrap=True
            )
    unwritten = [r for r in rows if r.unwritten]
    if unwritten:
        console.print(f"\nRun by our backends only ({len(unwritten)}):")
        for row in unwritten:
            console.print(
                f"  {row.set} #{row.index} {row.title}: {row.unwritten}",
                markup=False,
                soft_wrap=True,
            )
    bad = [r for r in rows if r.problems]
    for row in bad:
        for problem in row.problems:
            said = escape(f"{row.set} #{row.index} {row.title}: {problem}")
            console.print(
                f"[bold red]DISAGREEMENT[/] {said}",
                highlight=False,
                soft_wrap=True,
            )
    sums = Table(
        "set",
        "puzzles",
        "skipped",
        "run",
        "with ISS",
        "fastest ≤3x ISS",
        "backtrack ≤10 s",
        "median ÷ ISS",
        "worst ÷ ISS",
        "disagreements",
    )
    for name, s in summary(rows).items():
        sums.add_row(
            name,
            str(s["puzzles"]),
            str(s["skipped"]),
            str(s["run"]),
            str(s["compared"]),
            f"{s['within_3x']}/{s['compared']}",
            f"{s['backtrack_10s']}/{s['backtrack_run']}" if s["backtrack_run"] else "-",
            "-" if s["median_ratio"] is None else f"{s['median_ratio']:.2f}",
            "-" if s["worst_ratio"] is None else f"{s['worst_ratio']:.2f}",
            str(s["disagreements"]),
        )
    console.print(sums)


def _row_json(row: Row) -> dict[str, Any]:
    data = asdict(row)
    for side in [data["iss"], *data["ours"].values()]:
        if side is not None and side["ms"]:
            side["median_ms"] = statistics.median(side["ms"])
    best = row.fastest()
    data.update(
        fastest=best[0] if best else None,
        ratio=row.ratio(),
        within_3x=row.within_target(),
        backtrack_10s=row.backtrack_in_time(),
    )
    return data


def _positive(cap: float, kind: Callable[[str], Any]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not 0 < value <= cap:
            raise argparse.ArgumentTypeError(f"{text} is not in (0, {cap:g}]")
        return value

    return parse


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--iss", help=f"a checkout of the Interactive Sudoku Solver ({ISS_URL})")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS), help="bundled sets, by name")
    parser.add_argument("--backends", default=",".join(DEFAULT_BACKENDS))
    parser.add_argument(
        "--time-limit",
        type=_positive(MAX_TIME_LIMIT, float),
        default=10.0,
        help=f"seconds a solve may take, on either side (at most {MAX_TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--repeat",
        type=_positive(MAX_REPEAT, int),
        default=1,
        help=f"rounds per puzzle; medians are kept (at most {MAX_REPEAT})",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="time ISS's first solve of each puzzle too (by default it is an untimed warm-up)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of the tables")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return _run(args)
    except (Unusable, SudokuError) as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_USAGE


def _run(args: argparse.Namespace) -> int:
    from sudoku_cp.backends import get_backend
    from sudoku_cp.datasets import bundled_path

    root, node = find_iss(args.iss)
    sets = [s for s in args.sets.split(",") if s]
    for name in sets:
        bundled_path(name)  # an unknown name: InputError listing the bundled ones
    names = [b for b in args.backends.split(",") if b]
    if not sets or not names:
        raise Unusable("--sets and --backends each need at least one name")
    backends = {name: get_backend(name) for name in names}
    for name, backend in backends.items():
        why = backend.unavailable_reason()
        if why:
            raise Unusable(f"backend '{name}' cannot run here: {why}")
    heading = (
        f"{machine()}; Python {sys.version.split()[0]}; ISS at {root}; "
        f"limit 2, time limit {args.time_limit:g} s, {args.repeat} timed round(s)"
        f"{'' if args.cold else ' (ISS: after an untimed one)'}, medians"
    )
    iss = IssSolver(root, node)
    rows: list[Row] = []
    try:
        warm_up(iss, backends, max(args.time_limit, 60.0))
        for name in sets:
            for entry in entries(name):
                row = run_entry(entry, iss, backends, args.time_limit, args.repeat, not args.cold)
                rows.append(row)
                note = row.skipped or f"ISS {_ms(row.iss)}, ratio {_ratio(row)}"
                print(f"{row.set} #{row.index} {row.title}: {note}", file=sys.stderr, flush=True)
    finally:
        iss.close()
    end = f"load average at the end {os.getloadavg()[0]:.2f}"
    if args.json:
        print(
            json.dumps(
                {
                    "machine": heading,
                    "end": end,
                    "backends": names,
                    "rows": [_row_json(r) for r in rows],
                    "summary": summary(rows),
                },
                indent=1,
            )
        )
    else:
        print_report(rows, names, heading)
        print(end)
    return EXIT_NEGATIVE if any(r.problems for r in rows) else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
