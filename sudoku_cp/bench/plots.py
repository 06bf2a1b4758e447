"""The figures of a bench, drawn from its saved table: the cactus plot, per-puzzle scatter
plots of two backends, and the search effort per backend. matplotlib comes from the optional
``plot`` extra and is imported only to draw.
"""

from __future__ import annotations

import contextlib
import math
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError
from .report import FINISHED, Results, counters_of_kind, label_of, pick_baseline

# --- plots ----------------------------------------------------------------------------------------
PLOT_FORMATS = ("png", "svg")


def check_plotting() -> None:
    """Raise InputError, saying how to install it, when matplotlib is missing."""
    load_figure_class()


def load_figure_class() -> Any:
    """matplotlib's Figure class, or InputError saying how to install the ``plot`` extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display is needed or wanted
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'sudoku-cp[plot]'") from None
    return Figure


def _puzzle_times(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """Per label, per puzzle: the median time of its repeats (inf when not solved correctly)."""
    seconds: dict[str, dict[str, list[float]]] = {}
    for row in rows:
        ok = (
            row["status"] in FINISHED
            and row.get("agrees") is not False
            and row.get("valid") is not False
        )
        seconds.setdefault(label_of(row), {}).setdefault(row["puzzle_id"], []).append(
            float(row["seconds"]) if ok else math.inf
        )
    return {
        label: {
            pid: statistics.median(v) if all(map(math.isfinite, v)) else math.inf
            for pid, v in per.items()
        }
        for label, per in seconds.items()
    }


def _short(value: float, _position: object = None) -> str:
    """A tick label as plain text (0.1, 1, 10, 1k, 10M): mathtext labels cost most of a figure."""
    if value == 0:
        return "0"
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:g}{suffix}"
    return f"{value:g}"


def _log_ticks(*axes: Any) -> None:
    """Plain labels at each power of ten and no minor ticks on log axes (x and/or y): tick
    objects and mathtext labels are most of what a figure costs to draw."""
    from matplotlib.ticker import FuncFormatter, NullLocator

    for axis in axes:
        axis.set_major_formatter(FuncFormatter(_short))
        axis.set_minor_locator(NullLocator())


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "x"


MAX_SERIES = 20
"""The most backends a figure draws (a line or box each): 2,000 took 74 s and 1.7 GB, and no
reader tells twenty colours apart anyway."""
MAX_FIGURE_DATASETS = 50
"""The most datasets drawn (three figures each, per format)."""


def refuse_too_many(results: Results) -> None:
    """InputError when the table holds more datasets, or a dataset more backends, than the
    figures draw (:data:`MAX_FIGURE_DATASETS`, :data:`MAX_SERIES`), before anything is drawn."""
    by_dataset: dict[str, set[str]] = {}
    for row in results.rows:
        by_dataset.setdefault(row["dataset"], set()).add(label_of(row))
    if len(by_dataset) > MAX_FIGURE_DATASETS:
        raise InputError(
            f"the results hold {len(by_dataset):,} datasets; figures are drawn for at most "
            f"{MAX_FIGURE_DATASETS} (plot a table of fewer, or --no-figures for the summary)"
        )
    for name, labels in by_dataset.items():
        if len(labels) > MAX_SERIES:
            raise InputError(
                f"dataset {name!r} has {len(labels):,} backends; a figure draws at most "
                f"{MAX_SERIES} (plot a table of fewer, or --no-figures for the summary)"
            )


def remove_figures(folder: Path) -> None:
    """Remove the figures :func:`plot_results` drew in ``folder`` from an earlier table: a
    bench writing a new table there makes them stale (they showed other datasets' puzzles
    beside the new results). Only files named as it names them go."""
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        stem, _, suffix = path.name.rpartition(".")
        kind = stem.split("-", 1)[0]
        if kind in ("cactus", "scatter", "effort") and suffix in PLOT_FORMATS and path.is_file():
            try:
                path.unlink()
            except OSError as err:
                raise InputError(
                    f"cannot remove the stale figure {str(path)!r}: {err.strerror}"
                ) from None
    with contextlib.suppress(OSError):
        folder.rmdir()  # (only when nothing else is in it)


def plot_results(
    results: Results,
    outdir: str | Path,
    formats: Sequence[str] = PLOT_FORMATS,
    scatter: Sequence[tuple[str, str]] | None = None,
    baseline: str | None = None,
) -> list[Path]:
    """Draw, per dataset, the cactus plot, the per-puzzle scatter(s) and the effort plot.

    ``scatter`` lists (x, y) pairs of backend labels; by default the baseline against the first
    other backend (one file per pair keeps the number of files small). Files are named
    ``cactus-DATASET``, ``scatter-DATASET-X-vs-Y`` and ``effort-DATASET``, one per format;
    the paths written are returned.
    """
    refuse_too_many(results)
    Figure = load_figure_class()
    out = Path(outdir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # (a name too long, a file in the way, no permission)
        raise InputError(f"cannot create output folder {str(out)!r}: {err.strerror}") from None
    by_dataset: dict[str, list[Mapping[str, Any]]] = {}
    for row in results.rows:
        by_dataset.setdefault(row["dataset"], []).append(row)
    written: list[Path] = []
    limit = results.time_limit
    for name, rows in by_dataset.items():
        times = _puzzle_times(rows)
        labels = list(times)
        colours = {label: f"C{i % 10}" for i, label in enumerate(labels)}
        figures = [(f"cactus-{_safe(name)}", _cactus(Figure, name, times, colours, limit))]
        pairs = list(scatter or [])
        if not pairs and len(labels) > 1:
            base = pick_baseline(labels, baseline or results.baseline) or labels[0]
            pairs = [(base, next(label for label in labels if label != base))]
        for x, y in pairs:
            for wanted in (x, y):
                if wanted not in times:
                    raise InputError(
                        f"no backend {wanted!r} in dataset {name!r} (backends: {', '.join(labels)})"
                    )
            figures.append(
                (
                    f"scatter-{_safe(name)}-{_safe(x)}-vs-{_safe(y)}",
                    _scatter(Figure, name, times, x, y, limit),
                )
            )
        figures.append((f"effort-{_safe(name)}", _effort(Figure, name, rows, labels, colours)))
        for stem, figure in figures:
            for fmt in formats:
                path = out / f"{stem}.{fmt}"
                try:
                    figure.savefig(path, format=fmt, dpi=110)
                except OSError as err:
                    raise InputError(f"cannot write figure {str(path)!r}: {err.strerror}") from None
                written.append(path)
    return written


def _cactus(
    Figure: Any,
    name: str,
    times: Mapping[str, Mapping[str, float]],
    colours: Mapping[str, str],
    limit: float | None,
) -> Any:
    """Puzzles solved within time t, one step line per backend, log time axis."""
    fig = Figure(figsize=(7, 4.5))
    # fixed margins: constrained layout measures every tick label and is most of the cost
    fig.subplots_adjust(left=0.1, right=0.97, bottom=0.12, top=0.92)
    ax = fig.add_subplot()
    total = max((len(v) for v in times.values()), default=0)
    for label, per in times.items():
        solved = sorted(1000 * t for t in per.values() if math.isfinite(t))
        if solved:
            ax.step(
                solved,
                range(1, len(solved) + 1),
                where="post",
                color=colours[label],
                label=f"{label} ({len(solved)}/{len(per)})",
            )
    if limit:
        ax.axvline(1000 * limit, color="grey", linestyle="--", linewidth=1, label="time limit")
    ax.set_xscale("log")
    _log_ticks(ax.xaxis)
    ax.set_ylim(0, total * 1.03 + 0.5)
    ax.set_xlabel("time per puzzle t (ms, log scale; median of repeats)")
    ax.set_ylabel("puzzles solved within t")
    ax.set_title(f"{name}: cactus plot", y=1.01)  # a fixed place: no layout pass needed
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="lower right", fontsize="small")
    return fig


def _scatter(
    Figure: Any,
    name: str,
    times: Mapping[str, Mapping[str, float]],
    x: str,
    y: str,
    limit: float | None,
) -> Any:
    """Per puzzle, x's time against y's (log-log), with the diagonal y = x and 10× lines."""
    fig = Figure(figsize=(5.5, 5.5))
    fig.subplots_adjust(left=0.14, right=0.96, bottom=0.11, top=0.93)
    ax = fig.add_subplot()
    common = [pid for pid in times[x] if pid in times[y]]
    finite = [
        1000 * t
        for pid in common
        for t in (times[x][pid], times[y][pid])
        if math.isfinite(t) and t > 0
    ]
    low = min(finite, default=0.1) / 1.5
    ceiling = 1000 * limit if limit else max(finite, default=1000.0) * 1.5
    high = max(max(finite, default=1.0) * 1.5, ceiling)

    def at(t: float) -> float:  # an unsolved puzzle sits on the ceiling, marked apart
        return ceiling if not math.isfinite(t) else max(1000 * t, low)

    points = [
        (
            at(times[x][p]),
            at(times[y][p]),
            math.isfinite(times[x][p]) and math.isfinite(times[y][p]),
        )
        for p in common
    ]
    solved = [(a, b) for a, b, ok in points if ok]
    unsolved = [(a, b) for a, b, ok in points if not ok]
    if solved:
        ax.scatter(
            *zip(*solved, strict=True),
            s=10,
            alpha=0.6,
            rasterized=len(solved) > 2000,
            label=f"both solved ({len(solved)})",
        )
    if unsolved:
        ax.scatter(
            *zip(*unsolved, strict=True),
            s=18,
            marker="x",
            color="C3",
            label=f"unsolved by one ({len(unsolved)}), at the limit",
        )
    ax.plot([low, high], [low, high], color="black", linewidth=1, label="y = x")
    for factor, style in ((10, ":"), (0.1, ":")):
        ax.plot(
            [low, high], [low * factor, high * factor], color="grey", linestyle=style, linewidth=0.8
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    _log_ticks(ax.xaxis, ax.yaxis)
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{x} (ms)")
    ax.set_ylabel(f"{y} (ms)")
    ax.set_title(f"{name}: per-puzzle time (dotted: 10×)", y=1.01)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    return fig


def effort_counter(rows: Iterable[Mapping[str, Any]], choices: Sequence[str]) -> str | None:
    """The first of ``choices`` that these rows (one backend's) report."""
    have = {c for row in rows for c in choices if row.get(c) is not None}
    return next((c for c in choices if c in have), None)


def _effort(
    Figure: Any,
    name: str,
    rows: Sequence[Mapping[str, Any]],
    labels: Sequence[str],
    colours: Mapping[str, str],
) -> Any:
    """Distribution of search effort per backend: search size and dead ends, one box each."""
    per_label: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        if row["status"] in FINISHED:
            per_label.setdefault(label_of(row), []).append(row)
    fig = Figure(figsize=(max(7.0, 1.2 * len(labels) * 2), 5))
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.22, top=0.86, wspace=0.25)
    sizes, dead_ends = counters_of_kind("size"), counters_of_kind("dead-end")
    panels = ((sizes, "search size"), (dead_ends, "dead ends"))
    for position, (choices, title) in enumerate(panels, start=1):
        ax = fig.add_subplot(1, 2, position)
        data, names, colour = [], [], []
        for label in labels:
            part = per_label.get(label, [])
            counter = effort_counter(part, choices)
            if counter is None:
                continue
            data.append([float(r[counter]) for r in part if r.get(counter) is not None])
            names.append(f"{label}\n({counter})")
            colour.append(colours[label])
        if data:
            boxes = ax.boxplot(
                data,
                patch_artist=True,
                widths=0.6,
                medianprops={"color": "black"},
                flierprops={"markersize": 2, "alpha": 0.4},
            )
            for patch, c in zip(boxes["boxes"], colour, strict=True):
                patch.set_facecolor(c)
                patch.set_alpha(0.5)
            ax.set_xticks(range(1, len(names) + 1), names, fontsize="small", rotation=20)
            ax.set_yscale("symlog", linthresh=1)  # log-like, yet zero dead ends still shows
            _log_ticks(ax.yaxis)
            ax.set_ylim(bottom=0)
        else:
            ax.text(
                0.5, 0.5, "no backend reports it", ha="center", va="center", transform=ax.transAxes
            )
        ax.set_title(f"{title} per puzzle", y=1.01)
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(
        f"{name}: search effort ({' / '.join(sizes)}; {' / '.join(dead_ends)})", fontsize="medium"
    )
    return fig
