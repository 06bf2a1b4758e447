"""The summary of a batch (verdict counts, per-backend tallies and times) and its progress bar.

>>> summary = Summary(["backtrack"])
>>> summary.exit_status, summary.total
(0, 0)
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..experiment import input_path
from ..harness import DEFAULT_LIMIT
from ..result import Status
from ..verdict import CheckRecord, Verdict
from .items import BatchOptions
from .output import format_seconds


class _Times:
    """Median and worst of many durations in constant memory: a log-scale histogram.

    Bins are 1% wide, so the median is exact to within 1% however many puzzles are checked.
    """

    RATIO = math.log(1.01)

    def __init__(self) -> None:
        self.bins: Counter[int] = Counter()
        self.count = 0
        self.worst = 0.0

    def add(self, seconds: float) -> None:
        self.bins[math.floor(math.log(max(seconds, 1e-9)) / self.RATIO)] += 1
        self.count += 1
        self.worst = max(self.worst, seconds)

    def median(self) -> float | None:
        if not self.count:
            return None
        half, seen = (self.count + 1) / 2, 0
        for key in sorted(self.bins):
            seen += self.bins[key]
            if seen >= half:
                return min(math.exp((key + 0.5) * self.RATIO), self.worst)
        return self.worst


@dataclass
class BackendTally:
    solved: int = 0
    timeouts: int = 0
    errors: int = 0
    unsupported: int = 0
    wrong: int = 0
    times: _Times = field(default_factory=_Times)


def _band_order(key: str) -> tuple[bool, float, str]:
    """SE's ER bands in numeric order (``2.x`` before ``10.x``, ``7.x`` before ``≥7.x``),
    "not rated" last."""
    if key == "not rated":
        return True, 0.0, key
    return False, float(key.lstrip("≥").removesuffix(".x")), key


@dataclass
class Summary:
    """Puzzles per verdict and, per backend, solved / timed out / failed / wrong and times."""

    backends: list[str]
    verdicts: Counter = field(default_factory=Counter)
    tallies: dict[str, BackendTally] = field(default_factory=dict)
    checked: int = 0
    resumed: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    limit: int | None = DEFAULT_LIMIT
    """The limit the backends ran with: a count below it that is not exact was cut short."""
    cut_short: int = 0
    """Puzzles with solutions whose count is only a lower bound below the limit (a time limit
    or a failing backend stopped the count): undecided counts for ``count``."""

    capped: int = 0
    """Puzzles whose count stopped at the limit with more solutions possibly left."""
    auto: bool = False
    """Backends chosen per puzzle (the default): only those that judged some puzzle are shown."""
    certified: Counter = field(default_factory=Counter)
    """With ``--certify``: records certified (True) and not (False), and the first reason."""
    uncertified_reason: str | None = None
    levels: Counter = field(default_factory=Counter)
    """With ``--rate``: unique puzzles by level, or by ER band on SE's scale ("not rated" when
    the rating gave a reason; :func:`sudoku_cp.logic.scales.rated_key`)."""
    scale: str | None = None
    """The scale of the ratings counted (the records say it)."""
    sidecar_error: str | None = None
    """Why the sidecar could not be finished when the run ended (a full disk …): the records
    are whole, but the sidecar still describes the run as unfinished."""

    def add(self, record: CheckRecord, *, resumed: bool = False) -> None:
        self.verdicts[record.verdict] += 1
        if (
            record.verdict is Verdict.MULTIPLE
            and not record.exact
            and self.limit is not None
            and record.count >= self.limit
        ):
            self.capped += 1
        if (
            record.verdict is Verdict.MULTIPLE
            and not record.exact
            and (self.limit is None or record.count < self.limit)
        ):
            self.cut_short += 1
        if record.certificate is not None:
            ok = bool(record.certificate.get("certified"))
            self.certified[ok] += 1
            if not ok and record.verdict.value in ("unique", "none", "multiple"):
                self.uncertified_reason = self.uncertified_reason or (
                    f"{record.id}: {record.certificate.get('reason')}"
                )
        if record.rating is not None:
            from ..logic.scales import rated_key

            self.levels[rated_key(record.rating)] += 1
            self.scale = self.scale or record.rating.get("scale")
        if resumed:
            self.resumed += 1
        else:
            self.checked += 1
        for name, run in record.backends.items():
            tally = self.tallies.get(name)
            if tally is None:  # (not setdefault: it would build a tally for every record)
                tally = self.tallies[name] = BackendTally()
            if run.problems:
                tally.wrong += 1
            elif run.status is Status.TIMEOUT:
                tally.timeouts += 1
            elif run.status is Status.ERROR:
                tally.errors += 1
            elif run.status is Status.UNSUPPORTED:
                tally.unsupported += 1
            else:
                tally.solved += 1
                tally.times.add(run.seconds)

    @property
    def total(self) -> int:
        return self.checked + self.resumed

    @property
    def exit_status(self) -> int:
        """0 every puzzle unique; 1 some multiple, none or invalid; 3 some disagreement or
        undecided (the most serious wins)."""
        return max((v.exit_status for v in self.verdicts), default=0)

    def to_dict(self) -> dict[str, Any]:
        certified = (
            {"certified": {"yes": self.certified[True], "no": self.certified[False]}}
            if self.certified
            else {}
        )
        rated = {"rated": dict(self.levels), "rated_scale": self.scale} if self.levels else {}
        return {
            **certified,
            **rated,
            "puzzles": self.total,
            "checked_now": self.checked,
            "resumed": self.resumed,
            "seconds": round(self.seconds, 3),
            "verdicts": {v.value: self.verdicts.get(v, 0) for v in Verdict},
            "selection": "auto" if self.auto else "given",
            "backends": {
                name: {
                    "solved": t.solved,
                    "timeouts": t.timeouts,
                    "errors": t.errors,
                    "unsupported": t.unsupported,
                    "wrong": t.wrong,
                    "median_seconds": t.times.median(),
                    "worst_seconds": t.times.worst if t.times.count else None,
                }
                for name, t in self.tallies.items()
            },
        }

    def render(self, console: Any) -> None:
        """Print the verdict counts and a per-backend table with a rich ``console``."""
        from rich.table import Table

        rate = self.checked / self.seconds if self.seconds > 0 else 0.0
        resumed = f" (+{self.resumed} from before)" if self.resumed else ""
        verdicts = (
            ", ".join(f"{v.value} {self.verdicts[v]}" for v in Verdict if self.verdicts.get(v))
            or "no puzzles"
        )
        console.print(
            f"{self.checked} puzzles checked{resumed} in {self.seconds:.2f} s "
            f"({rate:.1f}/s): {verdicts}",
            highlight=False,
        )
        if self.certified:
            first = f" (first: {self.uncertified_reason})" if self.uncertified_reason else ""
            console.print(
                f"certified {self.certified[True]}, not certified {self.certified[False]}{first}",
                highlight=False,
            )
        if self.levels and self.scale == "se":
            bands = sorted(self.levels, key=_band_order)
            rated = ", ".join(f"{name} {self.levels[name]}" for name in bands)
            console.print(f"rated (SE's ER): {rated}", highlight=False)
        elif self.levels:
            order = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
            known = [level for level in order if level in self.levels]
            names = known + sorted(k for k in self.levels if k not in order)
            rated = ", ".join(f"{name} {self.levels[name]}" for name in names)
            console.print(f"rated (HoDoKu's levels): {rated}", highlight=False)
        # (the unsupported column only when some backend could not take some puzzle)
        refused = any(t.unsupported for t in self.tallies.values())
        table = Table(
            "backend",
            "solved",
            "timed out",
            "errors",
            *(["unsupported"] if refused else []),
            "wrong",
            "median",
            "worst",
        )
        for name in self.backends:
            if self.auto and name not in self.tallies:
                continue  # chosen for no puzzle of this run
            t = self.tallies.get(name, BackendTally())
            median = t.times.median()
            table.add_row(
                name,
                str(t.solved),
                str(t.timeouts),
                str(t.errors),
                *([str(t.unsupported)] if refused else []),
                str(t.wrong),
                format_seconds(median) if median is not None else "-",
                format_seconds(t.times.worst) if t.times.count else "-",
            )
        console.print(table)


class Progress:
    """A rich progress bar on standard error: puzzles done, rate and ETA."""

    def __init__(self, options: BatchOptions, already: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        total = _estimate_total(options.inputs)
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self.task = self.progress.add_task(options.command, total=total, completed=already, rate="")
        self.total = total
        self.done = already
        self.started = time.perf_counter()
        self.already = already

    def __enter__(self) -> Progress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def advance(self, count: int = 1) -> None:
        self.done += count
        elapsed = time.perf_counter() - self.started
        rate = (self.done - self.already) / elapsed if elapsed > 0 else 0.0
        if self.total is not None and self.done > self.total:
            self.total = None
        self.progress.update(
            self.task, completed=self.done, total=self.total, rate=f"{rate:.1f} puzzles/s"
        )


def _estimate_total(inputs: Sequence[str]) -> int | None:
    """About how many puzzles the inputs hold (lines of files, less a header); None if unknown."""
    total = 0
    for arg in inputs:
        if arg == "-":
            return None
        path = input_path(arg)
        if path is None:
            total += 1
            continue
        lines = 0
        first = b""
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                if not first:
                    first = block[:200].lower()
                lines += block.count(b"\n")
        if first and not first.endswith(b"\n") and b"\n" not in first[:200]:
            lines += 1
        if b"puzzle" in first.split(b"\n")[0] or first.startswith(b"id"):
            lines -= 1
        total += max(lines, 0)
    return total or None
