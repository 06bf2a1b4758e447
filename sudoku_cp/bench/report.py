"""Result files, summaries and tables of benches (the figures are in :mod:`.plots`).

A bench's table is tidy: one row per measurement (dataset × puzzle × backend spec × repeat) with
the columns of :data:`COLUMNS`, then one column per counter. It is written as CSV (always) and
Parquet (when pyarrow is installed), with the experiment record ``record.json`` beside it, and
read back by :func:`load_results` — so summaries and figures are redrawn from a saved run, never
by running it again. Everything here is plain Python over lists of dicts (no pandas needed);
matplotlib is imported only to draw, from the optional ``plot`` extra.

>>> rows = [{"dataset": "d", "puzzle_id": str(i), "backend": b, "strategy": "", "limit": 2,
...          "repeat": 1, "status": "unique", "count": 1, "seconds": s * (i + 1), "exact": True,
...          "valid": True, "verdict": "unique", "agrees": True, "note": ""}
...         for i in range(3) for b, s in (("slow", 0.004), ("fast", 0.001))]
>>> [(b.label, b.solved, round(b.ratio, 1)) for b in summarize(rows, baseline="slow")[0].backends]
[('slow', 3, 1.0), ('fast', 3, 4.0)]
"""

from __future__ import annotations

import csv
import json
import math
import os
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..backends import counter_kinds
from ..errors import InputError, one_line
from ..formats.links import short_text
from ..result import Status, shown_id
from ..verdict import Verdict

COLUMNS = (
    "dataset",
    "puzzle_id",
    "backend",
    "strategy",
    "limit",
    "repeat",
    "status",
    "count",
    "seconds",
    "exact",
    "valid",
    "verdict",
    "agrees",
    "note",
)
"""The fixed columns of a bench table, in order; every other column is a counter."""
_INT = {"limit", "repeat", "count"}
_FLOAT = {"seconds"}
_BOOL = {"exact", "valid", "agrees"}
_REQUIRED = frozenset(COLUMNS) - {"strategy", "limit", "agrees", "note"}
"""The columns every measurement fills (the others are empty where they do not apply)."""
FINISHED = frozenset({"unique", "multiple", "none", "solved"})
"""Statuses of a measurement that gave an answer (not a timeout or an error)."""


def counters_of_kind(kind: str) -> tuple[str, ...]:
    """The counters the registered backends declare of ``kind`` (see ``Counter``).

    ``size`` counters say how big a search was, in each paradigm's own unit, ``dead-end``
    ones how often it hit a dead end; the summary shows, per backend, the first of each that
    it reports.
    """
    return tuple(name for name, k in counter_kinds().items() if k == kind)


def shown_counters() -> tuple[str, ...]:
    """Counters the summary averages (size, then dead-end); the table keeps every counter."""
    return counters_of_kind("size") + counters_of_kind("dead-end")


def label_of(row: Mapping[str, Any]) -> str:
    """A row's backend spec as the summary names it: ``backtrack:mrv``, ``cpsat``."""
    return f"{row['backend']}:{row['strategy']}" if row.get("strategy") else str(row["backend"])


# --- writing and reading result files -------------------------------------------------------------
def write_table(
    rows: Sequence[Mapping[str, Any]], counters: Sequence[str], outdir: Path
) -> dict[str, Path]:
    """``results.csv`` (and ``results.parquet`` when pyarrow is installed) in ``outdir``."""
    columns = [*COLUMNS, *counters]
    paths = {"csv": outdir / "results.csv"}
    from ..outputs import output_file

    # In place (the run's lock is on this file), a failed write one line naming it.
    with output_file(paths["csv"], streamed=True, lock=False) as f:
        writer = csv.writer(f)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_cell(row.get(c)) for c in columns])
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:  # Parquet is optional: CSV alone is a complete result file
        return paths
    arrays = {
        c: pa.array([row.get(c) for row in rows], type=_arrow_type(pa, c, rows)) for c in columns
    }
    paths["parquet"] = outdir / "results.parquet"
    pq.write_table(pa.table(arrays), paths["parquet"])
    return paths


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _arrow_type(pa: Any, column: str, rows: Sequence[Mapping[str, Any]]) -> Any:
    if column in _INT:
        return pa.int64()
    if column in _FLOAT:
        return pa.float64()
    if column in _BOOL:
        return pa.bool_()
    if column in COLUMNS:
        return pa.string()
    values = [row.get(column) for row in rows]
    whole = all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in values)
    return pa.int64() if whole else pa.float64()


@dataclass
class Results:
    """A loaded result table: its rows, counter columns, the record beside it (if any)."""

    rows: list[dict[str, Any]]
    counters: list[str]
    record: dict[str, Any] | None = None
    path: Path | None = None

    @property
    def time_limit(self) -> float | None:
        return (self.record or {}).get("options", {}).get("time_limit")

    @property
    def baseline(self) -> str | None:
        return (self.record or {}).get("options", {}).get("baseline")


def load_results(path: str | Path) -> Results:
    """A saved table: a bench folder, its ``results.csv`` or its ``results.parquet``."""
    where = Path(path)
    if os.path.isdir(where):
        parquet = where / "results.parquet"  # (the CSV deleted or never copied: the other)
        where = where / "results.csv"
        if not os.path.isfile(where) and os.path.isfile(parquet):
            where = parquet
    if not os.path.isfile(where):
        raise InputError(f"no result file at {str(where)!r} (give a bench folder or its CSV)")
    if where.suffix == ".parquet":
        rows, columns = _read_parquet(where)
    else:
        rows, columns = _read_csv(where)
    missing = [c for c in COLUMNS if c not in columns]
    if missing:
        raise InputError(f"{str(where)!r} is not a bench table (no column {', '.join(missing)})")
    record = None
    beside = where.parent / "record.json"
    if os.path.isfile(beside):
        try:
            record = json.loads(beside.read_text(encoding="utf-8"))
        except RecursionError:
            raise InputError(f"{str(beside)!r} is not a JSON record: nested too deeply") from None
        except ValueError as err:
            raise InputError(f"{str(beside)!r} is not a JSON record: {err}") from None
    return Results(rows, [c for c in columns if c not in COLUMNS], record, where)


def _read_csv(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    try:
        with path.open(newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            columns = next(reader, [])
            rows = []
            for line in reader:
                if not line:
                    continue
                if len(line) != len(columns):  # a row cut short, or a table edited by hand
                    raise InputError(
                        f"{str(path)!r}, line {reader.line_num}: {len(line)} fields, but the "
                        f"header names {len(columns)} columns"
                    )
                row = {}
                for column, value in zip(columns, line, strict=False):
                    if value == "" and column in _REQUIRED:
                        raise InputError(
                            f"{str(path)!r}, line {reader.line_num}: column {column!r} is empty"
                        )
                    try:
                        row[column] = _parse(column, value)
                        if column in _FLOAT and not 0 <= row[column] < math.inf:
                            raise ValueError  # (nan, negative or infinite: no time measured)
                    except ValueError:  # a table edited by hand, or not a bench table at all
                        time = column in _FLOAT and _number(value)
                        raise InputError(
                            f"{str(path)!r}, line {reader.line_num}: column {column!r} holds "
                            f"{_shown(value)}, "
                            + ("not a time in seconds" if time else "not a number")
                        ) from None
                _check_row(row, f"{str(path)!r}, line {reader.line_num}")
                rows.append(row)
    except (OSError, UnicodeDecodeError, csv.Error) as err:
        raise InputError(f"cannot read {str(path)!r}: {err}") from None
    return rows, columns


_ALLOWED = {
    "status": frozenset(s.value for s in Status),
    "verdict": frozenset(v.value for v in Verdict),
    **dict.fromkeys(_BOOL, frozenset({True, False, None})),
}
"""The values a bench writes in these columns (``agrees`` is empty where no baseline is)."""


def _check_row(row: Mapping[str, Any], where: str) -> None:
    """InputError for a value no bench writes: an unknown status or verdict, a count below
    zero, a repeat or limit below one, a boolean that is not true or false, a counter that is
    not a finite number (a table edited by hand would otherwise be summarised as it reads)."""
    for column, value in row.items():
        allowed = _ALLOWED.get(column)
        if allowed is not None and value not in allowed and value != "":
            shown = value if isinstance(value, str) else str(value)
            raise InputError(
                f"{where}: column {column!r} holds {_shown(shown)}, not "
                + (
                    "true or false"
                    if column in _BOOL
                    else f"a {column} ({', '.join(sorted(str(a) for a in allowed))})"
                )
            )
        least = _LEAST.get(column)
        if (
            least is not None
            and value is not None
            and not (isinstance(value, int) and not isinstance(value, bool) and value >= least)
        ):
            raise InputError(
                f"{where}: column {column!r} holds {_shown(str(value))}, not a whole number "
                f"of at least {least}"
            )
        if (
            column not in COLUMNS
            and value is not None
            and not (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and math.isfinite(value)
            )
        ):
            raise InputError(
                f"{where}: counter {column!r} holds {_shown(str(value))}, not a finite number"
            )


_LEAST = {"count": 0, "repeat": 1, "limit": 1}


def _shown(value: str) -> str:
    return repr(short_text(value))


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _parse(column: str, text: str) -> Any:
    if text == "":
        return "" if column in ("strategy", "note") else None
    if column in _INT:
        return int(text)
    if column in _FLOAT:
        return float(text)
    if column in _BOOL:
        word = text.lower()
        return word == "true" if word in ("true", "false") else text  # (the check names it)
    if column in COLUMNS:
        return text
    try:
        return int(text)
    except ValueError:
        return float(text)


def _read_parquet(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(
            "reading Parquet needs pyarrow: pip install 'sudoku-cp[parquet]' (or read the CSV)"
        ) from None
    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as err:  # (pyarrow's ArrowInvalid is a ValueError)
        raise InputError(f"cannot read {str(path)!r} as Parquet: {one_line(str(err))}") from None
    rows = table.to_pylist()
    for number, row in enumerate(rows, start=1):
        empty = next((c for c in COLUMNS if c in _REQUIRED and row.get(c) in (None, "")), None)
        if empty is not None:
            raise InputError(f"{str(path)!r}, row {number}: column {empty!r} is empty")
        _check_row(row, f"{str(path)!r}, row {number}")
    return rows, list(table.column_names)


# --- summaries ------------------------------------------------------------------------------------
@dataclass
class BackendSummary:
    """One backend spec on one dataset. Times are per puzzle, the median of its repeats, in s;
    a puzzle not solved (timeout, error, wrong answer) counts as infinitely slow, so the order
    statistics never flatter a backend that gave up."""

    label: str
    puzzles: int
    solved: int
    timeouts: int
    errors: int
    wrong: int
    median: float
    p90: float
    max: float
    spread: float | None
    counters: dict[str, float]
    ratio: float | None = None

    def mean_of(self, choices: Sequence[str]) -> tuple[str, float] | None:
        """(counter, mean) for the first of ``choices`` this backend reports."""
        name = next((c for c in choices if c in self.counters), None)
        return None if name is None else (name, self.counters[name])

    @property
    def worst_ratio(self) -> float:
        """The slowest puzzle's time over the median: how far the tail reaches."""
        return self.max / self.median if self.median > 0 else math.inf


@dataclass
class DatasetSummary:
    """Every backend on one dataset, the puzzles' verdicts and the problems found."""

    name: str
    puzzles: int
    repeats: int
    limit: int | None
    baseline: str | None
    backends: list[BackendSummary]
    verdicts: dict[str, int]
    problems: list[str] = field(default_factory=list)

    @property
    def disagreements(self) -> int:
        return self.verdicts.get("disagreement", 0)


def summarize(
    rows: Iterable[Mapping[str, Any]],
    baseline: str | None = None,
    counters: Sequence[str] | None = None,
) -> list[DatasetSummary]:
    """Per dataset, per backend spec: solved, timeouts, median / p90 / max, counters, ratio.

    ``baseline`` names the spec the others are compared with (default: ``cpsat`` if present,
    else the first); ``ratio`` is the baseline's median time over this spec's (above 1: faster).
    ``counters`` are the ones averaged (default: :func:`shown_counters`).
    """
    if counters is None:
        counters = shown_counters()
    by_dataset: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_dataset.setdefault(row["dataset"], []).append(row)
    return [_summarize_dataset(name, part, baseline, counters) for name, part in by_dataset.items()]


def _summarize_dataset(
    name: str, rows: list[Mapping[str, Any]], baseline: str | None, counters: Sequence[str]
) -> DatasetSummary:
    groups: dict[str, dict[str, list[Mapping[str, Any]]]] = {}
    verdicts: dict[str, str] = {}
    problems = []
    for row in rows:
        groups.setdefault(label_of(row), {}).setdefault(row["puzzle_id"], []).append(row)
        verdicts[row["puzzle_id"]] = row["verdict"]
        if row.get("agrees") is False or row.get("valid") is False:
            problems.append(
                f"{shown_id(str(row['puzzle_id']))} · {label_of(row)} (repeat {row['repeat']}): "
                f"{one_line(row.get('note') or 'wrong answer')}"
            )
    present = [c for c in counters if any(r.get(c) is not None for r in rows)]
    summaries = [_summarize_backend(label, puzzles, present) for label, puzzles in groups.items()]
    labels = [s.label for s in summaries]
    chosen = pick_baseline(labels, baseline)
    if chosen is not None:
        base = summaries[labels.index(chosen)]
        for s in summaries:
            s.ratio = _ratio(base.median, s.median)
    tally: dict[str, int] = {}
    for verdict in verdicts.values():
        tally[verdict] = tally.get(verdict, 0) + 1
    repeats = max((int(r["repeat"]) for r in rows), default=0)
    limits = {r["limit"] for r in rows}
    return DatasetSummary(
        name,
        len(verdicts),
        repeats,
        limits.pop() if len(limits) == 1 else None,
        chosen,
        summaries,
        tally,
        problems,
    )


def pick_baseline(labels: Sequence[str], wanted: str | None) -> str | None:
    if not labels:
        return None
    if wanted:
        for label in labels:  # "backtrack" names the one backtrack spec when there is one
            if label == wanted or label.split(":")[0] == wanted:
                return label
        return None
    return next((label for label in labels if label == "cpsat"), labels[0])


def _ratio(base: float, value: float) -> float | None:
    if math.isinf(base) or math.isinf(value) or value <= 0:
        return None
    return base / value


def _summarize_backend(
    label: str, puzzles: Mapping[str, list[Mapping[str, Any]]], counters: Sequence[str]
) -> BackendSummary:
    times, spreads = [], []
    solved = timeouts = errors = wrong = 0
    sums = dict.fromkeys(counters, 0.0)
    seen = dict.fromkeys(counters, 0)
    for repeats in puzzles.values():
        statuses = [r["status"] for r in repeats]
        bad = any(r.get("agrees") is False or r.get("valid") is False for r in repeats)
        timeouts += "timeout" in statuses
        errors += "error" in statuses
        wrong += bad
        if bad or not all(s in FINISHED for s in statuses):
            times.append(math.inf)
            continue
        solved += 1
        seconds = [float(r["seconds"]) for r in repeats]
        middle = statistics.median(seconds)
        times.append(middle)
        if len(seconds) > 1 and middle > 0:
            spreads.append((max(seconds) - min(seconds)) / middle)
        for r in repeats:
            for c in counters:
                if r.get(c) is not None:
                    sums[c] += float(r[c])
                    seen[c] += 1
    times.sort()
    return BackendSummary(
        label,
        len(puzzles),
        solved,
        timeouts,
        errors,
        wrong,
        median=quantile(times, 0.5),
        p90=quantile(times, 0.9),
        max=times[-1] if times else 0.0,
        spread=statistics.median(spreads) if spreads else None,
        counters={c: sums[c] / seen[c] for c in counters if seen[c]},
    )


def quantile(ordered: Sequence[float], q: float) -> float:
    """The q-quantile of sorted values, interpolated linearly (infinite values allowed).

    >>> quantile([1.0, 2.0, 3.0, 4.0], 0.5), quantile([1.0, math.inf], 0.9)
    (2.5, inf)
    """
    if not ordered:
        return math.nan
    position = (len(ordered) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    frac = position - low
    if frac == 0 or ordered[low] == ordered[high]:
        return ordered[low]
    if math.isinf(ordered[high]):
        return math.inf
    return ordered[low] + (ordered[high] - ordered[low]) * frac


# --- rendering --------------------------------------------------------------------------------
def render_summary(
    summaries: Sequence[DatasetSummary],
    style: str = "text",
    record: Mapping[str, Any] | None = None,
    max_problems: int = 20,
) -> str:
    """The summaries as text tables (``style`` "text") or GitHub Markdown ("markdown")."""
    out: list[str] = []
    sizes, dead_ends = counters_of_kind("size"), counters_of_kind("dead-end")
    for ds in summaries:
        headers = [
            "backend",
            "solved",
            "timeouts",
            "errors",
            "median ms",
            "p90 ms",
            "max ms",
            "max/median",
            "repeat spread",
            f"× {ds.baseline}" if ds.baseline else "×",
            "mean search size",
            "mean dead ends",
        ]
        body = [
            [
                b.label,
                f"{b.solved}/{b.puzzles}",
                str(b.timeouts),
                str(b.errors + b.wrong),
                _ms(b.median),
                _ms(b.p90),
                _ms(b.max),
                "-"
                if math.isinf(b.worst_ratio) or math.isnan(b.worst_ratio)
                else f"{b.worst_ratio:.1f}",
                "-" if b.spread is None else f"{100 * b.spread:.0f}%",
                "-" if b.ratio is None else f"{b.ratio:.2f}",
                _count(b.mean_of(sizes)),
                _count(b.mean_of(dead_ends)),
            ]
            for b in ds.backends
        ]
        verdicts = ", ".join(f"{n} {v}" for v, n in sorted(ds.verdicts.items()))
        title = (
            f"{ds.name}: {ds.puzzles} puzzles × {len(ds.backends)} backends × "
            f"{ds.repeats} repeat{'s' if ds.repeats != 1 else ''}, limit {ds.limit} "
            f"· verdicts: {verdicts}"
        )
        out.append(f"### {title}" if style == "markdown" else title)
        out.append("")
        out.append(text_table(headers, body, style))
        if ds.problems:
            out.append("")
            out.append(
                f"DISAGREEMENTS on {ds.name}: {len(ds.problems)} wrong or contradicted "
                f"answers ({ds.disagreements} puzzles):"
            )
            out.extend(f"  ! {_clip(p)}" for p in ds.problems[:max_problems])
            if len(ds.problems) > max_problems:
                out.append(f"  … and {len(ds.problems) - max_problems} more (see the note column)")
        out.append("")
    for ds in (record or {}).get("datasets", []):
        rejected = ds.get("rejected") or []
        if rejected:
            out.append(
                f"{ds['name']}: {len(rejected)} line(s) are not puzzles and were not "
                f"measured, e.g. {_clip(str(rejected[0].get('error')), 100)}"
            )
            out.append("")
    stopped = (record or {}).get("interrupted")
    if stopped:
        out.append(
            f"INTERRUPTED after {stopped['measurements']:,} of {stopped['of']:,} measurements: "
            f"only the {stopped['puzzles_kept']:,} puzzles measured in full are above."
        )
        out.append("")
    if record and record.get("overheads"):
        out.append(_overheads(record["overheads"]))
    out.append(
        "Times: per puzzle the median of its repeats, then over puzzles; a puzzle not "
        "solved counts as infinitely slow ('-'); × = baseline median / median; "
        "repeat spread = median of (max-min)/median over repeats; errors include wrong "
        "answers; search size and dead ends are means over finished measurements, in "
        "each backend's own counter."
    )
    return "\n".join(out).rstrip() + "\n"


def _clip(text: str, width: int = 160) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _overheads(overheads: Mapping[str, Any]) -> str:
    if "error" in overheads:
        return f"Start-up costs: not measured ({overheads['error']})\n"
    lines = [
        "Start-up costs (measured apart, in a fresh process, not in the times above; a first "
        "solve includes what the backend imports lazily): "
        f"python {_ms(overheads.get('python_startup_s'))} ms, "
        f"import sudoku_cp {_ms(overheads.get('import_sudoku_cp_s'))} ms"
    ]
    for label, entry in (overheads.get("backends") or {}).items():
        if "error" in entry:
            lines.append(f"  {label}: {entry['error']}")
            continue
        part = [f"import {_ms(entry['import_s'])} ms"] if "import_s" in entry else []
        if "unsupported" in entry:  # the probe's puzzle has a rule this backend does not compile
            part.append(f"no solve timed: unsupported ({entry['unsupported']})")
        else:
            part.append(f"first solve {_ms(entry.get('first_solve_s'))} ms")
            part.append(f"warm solve {_ms(entry.get('warm_solve_s'))} ms")
        lines.append(f"  {label}: {', '.join(part)}")
    return "\n".join(lines) + "\n"


def _ms(seconds: float | None) -> str:
    if seconds is None or math.isnan(seconds):
        return "?"
    if math.isinf(seconds):
        return "-"
    ms = seconds * 1000
    if ms < 10:
        return f"{ms:.2f}"
    if ms < 1000:
        return f"{ms:.1f}"
    return f"{ms:,.0f}"


def _count(mean: tuple[str, float] | None) -> str:
    """``1,234 nodes``: a mean counter with its name, since each paradigm counts its own way."""
    if mean is None:
        return ""
    name, value = mean
    return f"{value:,.1f} {name}" if value < 100 else f"{value:,.0f} {name}"


def text_table(headers: Sequence[str], body: Sequence[Sequence[str]], style: str) -> str:
    if style == "markdown":
        lines = [
            "| " + " | ".join(headers) + " |",
            "|" + "|".join("---" if i == 0 else "---:" for i in range(len(headers))) + "|",
        ]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, body)])


# --- comparing two runs (a replay) ---------------------------------------------------------
def compare_runs(
    old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]], counters: Sequence[str]
) -> list[str]:
    """Where ``new`` differs from ``old`` in statuses, counts or counters — the deterministic
    ones: the seconds and the counters the backends declare as timings (``encode_seconds``)
    vary run to run, and made every replay of ``sat`` or ``cpsat`` fail."""
    from ..backends import timing_counters

    timings = timing_counters()
    counters = [c for c in counters if c not in timings]

    def key(row: Mapping[str, Any]) -> tuple[Any, ...]:
        return (row["dataset"], row["puzzle_id"], label_of(row), int(row["repeat"]))

    before = {key(r): r for r in old}
    after = {key(r): r for r in new}
    differences = [f"only in the record: {' '.join(map(str, k))}" for k in before if k not in after]
    differences += [f"not in the record: {' '.join(map(str, k))}" for k in after if k not in before]
    for k, row in after.items():
        was = before.get(k)
        if was is None:
            continue
        columns: tuple[str, ...] = ("status", "verdict", "count", *counters)
        if was.get("status") == row.get("status") == "timeout":
            # How far a measurement got before the clock stopped it (its solutions, nodes,
            # conflicts) is no result to reproduce: every replay of a bench with a timeout
            # differed from its record. The status itself is compared.
            columns = ("status", "verdict")
        for column in columns:
            if _same(was.get(column), row.get(column)):
                continue
            differences.append(
                f"{' '.join(map(str, k))}: {column} was {was.get(column)}, now {row.get(column)}"
            )
    return differences


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(float(a), float(b), rel_tol=1e-9)
    return (a if a != "" else None) == (b if b != "" else None)
