"""``sudoku-cp bench --propagation``: the levels and encodings of
:mod:`sudoku_cp.bench.propagation` measured on datasets — per puzzle a tidy row, per dataset and
method the share decided without search and the time per puzzle, a figure of both.

What applies to which puzzle: the four propagation levels to puzzles whose rules are their
groups (classic, jigsaw, diagonals, windows …); the four classic encodings to classic puzzles
(any box shape); every other puzzle (rules beyond groups, irregular regions) gets the certificate
encoder's CNF (:mod:`sudoku_cp.certify.cnf`) as its one encoding. A method that does not apply
is a ``skipped`` row, counted apart, never silently left out.

Every answer is checked: a solved grid by the validator (:meth:`Puzzle.is_solution`) and against
the file's solution, a refutation or a count against the file's solution and solution count. A
wrong answer is an error of this tool, reported (``wrong``) and turned into exit status 3.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import math
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import propagation as prop
from .propagation import DECIDED, REFUTED, SOLVED, TIMEOUT, Propagated

MAX_PUZZLES = 1_000_000
"""The cap on --max-puzzles (a dataset is read lazily, but each puzzle's rows are held)."""
MULTIPLE = "multiple"
SKIPPED = "skipped"
COLUMNS = (
    "dataset",
    "puzzle_id",
    "family",
    "encoding",
    "method",
    "outcome",
    "seconds",
    "left",
    "wrong",
)
"""The tidy table: one row per dataset x puzzle x method. ``family`` is ``propagation`` (the
levels; ``encoding`` empty) or ``cnf``; ``left`` is the candidates (propagation) or unassigned
cell variables (cnf) left open, empty when decided; ``wrong`` names a check that failed."""


@dataclass(frozen=True)
class Method:
    family: str
    encoding: str
    method: str

    @property
    def label(self) -> str:
        return self.method if self.family == "propagation" else f"{self.encoding}/{self.method}"


METHODS = (
    *(Method("propagation", "", level) for level in prop.LEVELS),
    *(
        Method("cnf", encoding, method)
        for encoding in (*prop.ENCODINGS, prop.CERTIFICATE)
        for method in prop.CNF_METHODS
    ),
)


@dataclass
class PropagationConfig:
    datasets: list[str]
    max_puzzles: int = 1000
    time_limit: float = 5.0
    model: str = "classic"
    box: str | None = None


@dataclass
class PropagationRun:
    rows: list[dict[str, Any]]
    record: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Entry:
    id: str
    puzzle: Any
    expected: Mapping[str, Any]


def run_propagation(
    config: PropagationConfig, progress: Callable[[str, int, int], None] | None = None
) -> PropagationRun:
    """Measure every method on the first ``max_puzzles`` puzzles of each dataset."""
    from ..experiment import machine, now
    from ..model import load_model
    from .specs import resolve_datasets

    model = load_model(config.model)
    if config.box:
        model = model.with_box(config.box)
    datasets = resolve_datasets(config.datasets)
    started = now()
    rows: list[dict[str, Any]] = []
    described = []
    for dataset in datasets:
        entries, rejected = _load(dataset.path, model, config.max_puzzles)
        described.append(
            {
                "name": dataset.name,
                "path": str(dataset.path),
                "sha256": dataset.sha256,
                "puzzles": len(entries),
                "rejected": len(rejected),
                "first_rejected": rejected[0] if rejected else None,
            }
        )
        for i, method in enumerate(METHODS):
            if progress:
                progress(dataset.name, i, len(METHODS))
            rows += _measure(dataset.name, entries, method, config.time_limit)
    record = {
        "command": "bench --propagation",
        "max_puzzles": config.max_puzzles,
        "time_limit": config.time_limit,
        "datasets": described,
        "started": started,
        "machine": machine(),
    }
    return PropagationRun(rows, record)


def _load(path: Any, model: Any, cap: int) -> tuple[list[_Entry], list[str]]:
    from ..formats import read_puzzles

    entries: list[_Entry] = []
    rejected: list[str] = []
    for record in itertools.islice(read_puzzles(str(path), model), cap):
        if record.puzzle is None:
            rejected.append(str(record.error))
        else:
            entries.append(_Entry(str(record.id), record.puzzle, record.expected))
    return entries, rejected


def _row(dataset: str, entry: _Entry, method: Method, outcome: str, **more: Any) -> dict:
    return {
        "dataset": dataset,
        "puzzle_id": entry.id,
        "family": method.family,
        "encoding": method.encoding,
        "method": method.method,
        "outcome": outcome,
        "seconds": more.get("seconds", ""),
        "left": more.get("left", ""),
        "wrong": more.get("wrong", ""),
    }


def _measure(
    dataset: str, entries: Sequence[_Entry], method: Method, time_limit: float
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    clock = time.perf_counter
    tools: dict[Any, Any] = {}
    try:
        for entry in entries[:1]:  # an unmeasured warm-up (first calls fill caches)
            runner = _runner(entry.puzzle, method, tools)
            if runner is not None:
                with contextlib.suppress(prop.Timeout):
                    runner(clock() + time_limit)
        for entry in entries:
            puzzle = entry.puzzle
            runner = _runner(puzzle, method, tools)
            if runner is None:
                rows.append(_row(dataset, entry, method, SKIPPED))
                continue
            start = clock()
            try:
                result = runner(start + time_limit)
            except prop.Timeout:
                rows.append(_row(dataset, entry, method, TIMEOUT, seconds=clock() - start))
                continue
            seconds = clock() - start
            if isinstance(result, Propagated):
                outcome, grid, count = result.outcome, result.grid, None
                left = "" if outcome in DECIDED else result.left
            else:
                count, grid = result
                outcome = {0: REFUTED, 1: SOLVED}.get(count, MULTIPLE)
                left = ""
            wrong = _check(entry, outcome, grid, count)
            rows.append(
                _row(dataset, entry, method, outcome, seconds=seconds, left=left, wrong=wrong)
            )
    finally:
        for tool in tools.values():
            tool.close()
    return rows


def _runner(puzzle: Any, method: Method, tools: dict[Any, Any]) -> Callable[[float], Any] | None:
    """The call measuring ``method`` on ``puzzle`` (given a deadline), or None when the method
    does not apply to it. Solvers are made here, before the clock starts."""
    if method.family == "propagation":
        if not prop.groups_only(puzzle):
            return None
        return lambda deadline: prop.propagate(puzzle, method.method, deadline)
    n = puzzle.size
    box = prop.classic_box(puzzle)
    if method.encoding == prop.CERTIFICATE:
        if box is not None:
            return None  # classic puzzles have the four encodings
        from ..certify.cnf import Unencodable, encode

        try:
            formula = encode(puzzle)
        except Unencodable:
            return None
        key: Any = ("certificate", formula.base)
        variables, clauses = formula.variables, formula.base
    else:
        if box is None:
            return None
        key = (method.encoding, n, box)
        variables, clauses = prop.encode_classic(method.encoding, n, box)
    assumptions = prop.given_literals(puzzle)
    tool: Any = tools.get(key)
    if tool is None:
        for old in tools.values():  # one formula at a time: a variant set has one per puzzle
            old.close()
        tools.clear()
        tool = tools[key] = (
            prop.CnfCounter(variables, clauses, n)
            if method.method == "cdcl"
            else prop.CnfProbe(variables, clauses, n)
        )
    if method.method == "up":
        probe: prop.CnfProbe = tool
        return lambda deadline: probe.up(assumptions)
    if method.method == "failed-literals":
        probe = tool
        return lambda deadline: probe.failed_literals(assumptions, deadline)
    counter: prop.CnfCounter = tool
    counter.rebuild_if_due()
    return lambda deadline: counter.count(assumptions, deadline)


def _check(entry: _Entry, outcome: str, grid: Sequence[int] | None, count: int | None) -> str:
    """What is wrong with an answer, by the validator and the file's own answers ('' if all
    holds)."""
    from ..formats.line import format_line

    puzzle = entry.puzzle
    known = entry.expected.get("solution")
    try:
        known_count = int(entry.expected["solution_count"])
    except (KeyError, TypeError, ValueError):
        known_count = None
    if grid is not None:
        if not puzzle.is_solution(grid):
            return "the grid breaks a rule"
        if outcome == SOLVED and known_count is not None and known_count > 1:
            return f"one grid forced, but the file counts {known_count} solutions"
        unique = outcome == SOLVED  # (a count of 1 is SOLVED too)
        if unique and known and format_line(grid, puzzle.size) != known:
            return "a grid other than the file's solution"
    if outcome == REFUTED and (known or puzzle.published or (known_count or 0) > 0):
        return "refuted, but the file has a solution"
    if count is not None and known_count is not None and min(count, 2) != min(known_count, 2):
        return f"{count} solution(s) counted, the file says {known_count}"
    return ""


# --- summaries -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Summary:
    dataset: str
    label: str
    family: str
    puzzles: int
    applied: int
    decided: int
    solved: int
    refuted: int
    multiple: int
    timeouts: int
    wrong: int
    mean_seconds: float | None

    @property
    def share(self) -> float | None:
        return self.decided / self.applied if self.applied else None

    @property
    def rate(self) -> float | None:
        if not self.mean_seconds:
            return None
        return 1 / self.mean_seconds


def summarize(rows: Sequence[Mapping[str, Any]]) -> list[Summary]:
    """Per dataset and method (in the order of :data:`METHODS`): decided share and speed."""
    order = {(m.family, m.encoding, m.method): i for i, m in enumerate(METHODS)}
    groups: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    datasets: list[str] = []
    for row in rows:
        if row["dataset"] not in datasets:
            datasets.append(row["dataset"])
        key = (row["dataset"], order[(row["family"], row["encoding"], row["method"])])
        groups.setdefault(key, []).append(row)
    out = []
    for key in sorted(groups, key=lambda k: (datasets.index(k[0]), k[1])):
        group = groups[key]
        method = METHODS[key[1]]
        applied = [r for r in group if r["outcome"] != SKIPPED]
        if not applied:
            continue
        finished = [float(r["seconds"]) for r in applied if r["outcome"] != TIMEOUT]
        out.append(
            Summary(
                dataset=key[0],
                label=method.label,
                family=method.family,
                puzzles=len(group),
                applied=len(applied),
                decided=sum(r["outcome"] in (*DECIDED, MULTIPLE) for r in applied),
                solved=sum(r["outcome"] == SOLVED for r in applied),
                refuted=sum(r["outcome"] == REFUTED for r in applied),
                multiple=sum(r["outcome"] == MULTIPLE for r in applied),
                timeouts=sum(r["outcome"] == TIMEOUT for r in applied),
                wrong=sum(bool(r["wrong"]) for r in applied),
                mean_seconds=statistics.fmean(finished) if finished else None,
            )
        )
    return out


def render(summaries: Sequence[Summary], style: str = "text", record: Mapping | None = None) -> str:
    """The summaries as one table per dataset (text or GitHub Markdown)."""
    from .report import text_table

    headers = ["method", "decided", "share", "solved", "refuted", "2+ sol.", "timeouts",
               "ms/puzzle", "puzzles/s"]  # fmt: skip
    out: list[str] = []
    for dataset, group in itertools.groupby(summaries, key=lambda s: s.dataset):
        items = list(group)
        skipped = max(s.puzzles for s in items) - min(s.applied for s in items)
        title = f"{dataset}: {max(s.puzzles for s in items)} puzzles"
        if skipped:
            title += " (a method that does not apply to a puzzle skips it: see 'decided')"
        out.append(f"### {title}" if style == "markdown" else title)
        out.append("")
        body = [
            [
                s.label,
                f"{s.decided}/{s.applied}",
                "-" if s.share is None else f"{100 * s.share:.1f}%",
                str(s.solved),
                str(s.refuted),
                str(s.multiple) if s.label.endswith("cdcl") else "",
                str(s.timeouts),
                _ms(s.mean_seconds),
                "-" if s.rate is None else f"{s.rate:,.0f}",
            ]
            for s in items
        ]
        out.append(text_table(headers, body, style))
        bad = sum(s.wrong for s in items)
        if bad:
            out.append("")
            out.append(f"WRONG on {dataset}: {bad} answers failed a check (see the 'wrong' column)")
        out.append("")
    out.append(
        "decided: solved (one grid forced) or refuted without search — for cdcl (which "
        "searches) solutions counted to two, 2+ sol. the puzzles with more than one; "
        "ms/puzzle: mean over puzzles that finished (time-outs left out), loading clauses into "
        "the solver not included; puzzles/s = 1000 / ms/puzzle."
    )
    return "\n".join(out).rstrip() + "\n"


def _ms(seconds: float | None) -> str:
    if seconds is None or math.isnan(seconds):
        return "-"
    ms = seconds * 1000
    return f"{ms:.3f}" if ms < 1 else f"{ms:.2f}" if ms < 100 else f"{ms:,.0f}"


def csv_text(rows: Sequence[Mapping[str, Any]]) -> str:
    """The tidy table as CSV (seconds to the microsecond's tenth)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        seconds = row["seconds"]
        writer.writerow({**row, "seconds": f"{seconds:.7f}" if seconds != "" else ""})
    return buffer.getvalue()


def plot(summaries: Sequence[Summary], path: Any) -> None:
    """Two panels: the share each method decides per dataset, and its time per puzzle (log)."""
    from .plots import load_figure_class

    figure_class = load_figure_class()
    datasets = list(dict.fromkeys(s.dataset for s in summaries))
    labels = list(dict.fromkeys(s.label for s in summaries))
    by = {(s.dataset, s.label): s for s in summaries}
    figure = figure_class(figsize=(min(18.0, max(8.0, 1.8 * len(datasets))), 8.5))
    share_axes, time_axes = figure.subplots(2, 1, sharex=True)
    width = 0.85 / max(1, len(labels))
    colours = _colours(len(labels))
    for j, label in enumerate(labels):
        xs, shares, times = [], [], []
        for i, dataset in enumerate(datasets):
            s = by.get((dataset, label))
            if s is None or s.share is None:
                continue
            xs.append(i + (j - (len(labels) - 1) / 2) * width)
            shares.append(100 * s.share)
            times.append(1000 * s.mean_seconds if s.mean_seconds else math.nan)
        share_axes.bar(xs, shares, width, label=label, color=colours[j])
        time_axes.bar(xs, times, width, color=colours[j])
    share_axes.set_ylabel("decided (%; cdcl searches)")
    share_axes.set_ylim(0, 100)
    time_axes.set_ylabel("ms per puzzle (log)")
    time_axes.set_yscale("log")
    time_axes.set_xticks(range(len(datasets)), datasets, rotation=20)
    share_axes.legend(fontsize=7, ncol=7, loc="lower center", bbox_to_anchor=(0.5, 1.02))
    figure.tight_layout()
    figure.savefig(path)


def _colours(count: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab20"]
    return [cmap(i % 20) for i in range(count)]


def iter_wrong(rows: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    return (row for row in rows if row["wrong"])
