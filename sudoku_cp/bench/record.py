"""A bench's configuration and what it leaves behind: :class:`BenchConfig` and its caps, the
record (made, read back, and turned back into a configuration for ``--replay``) and the output
folder's files. The measuring itself is :mod:`.run`'s.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..atomic import write_json_atomically
from ..backends import MAX_LIMIT, MAX_TIME_LIMIT, backend_class
from ..batch.output import OutputLock, check_output_apart
from ..batch.pool import hard_limit, max_jobs
from ..errors import InputError
from ..experiment import machine, versions
from .specs import DEFAULT_SEED, Dataset, Entry, Spec, resolve_datasets

RECORD_FORMAT = "sudoku-cp-bench/1"
DEFAULT_TIME_LIMIT = 5.0
"""Seconds per measurement: enough for every backend on most bundled puzzles, short enough that
a default bench of any bundled set takes about a minute (python-constraint is the slow one)."""
DEFAULT_LIMIT = 2
MAX_REPEAT = 1000
"""The most measurements per puzzle and backend (``--repeat``)."""
MAX_DATASETS = 100
"""The most datasets one bench (or a replayed record) measures: each is read and hashed, and a
replay listing 10,000 ran on before."""
MAX_BACKENDS = 32
"""The most backend labels one bench (or a replayed record) measures."""


# --- the configuration of a run -----------------------------------------------------------------
@dataclass
class BenchConfig:
    """Everything that decides what a bench measures; saved in the record to run it again."""

    datasets: list[str]
    backends: list[str] | None = None
    options: dict[str, dict[str, str]] = field(default_factory=dict)
    limit: int = DEFAULT_LIMIT
    repeat: int = 1
    time_limit: float = DEFAULT_TIME_LIMIT
    jobs: int = 1
    warmup: bool = True
    model: str = "classic"
    box: str | None = None
    seed: int = DEFAULT_SEED
    baseline: str | None = None
    scheduler: str | None = None
    """A Dask scheduler to measure on instead of ``jobs`` local workers (not saved in the
    record's options: where a bench ran is its ``executor``)."""

    def check(self) -> None:
        """Raise InputError for values no bench can run with, or above their caps (each message
        starts with the setting's name, as a record's ``options`` name it)."""
        for name, value, cap in (
            ("limit", self.limit, MAX_LIMIT),
            ("repeat", self.repeat, MAX_REPEAT),
            ("jobs", self.jobs, max_jobs()),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= cap:
                raise InputError(f"{name} must be a whole number from 1 to {cap:,}, not {value!r}")
        for name, many, cap in (
            ("datasets", self.datasets, MAX_DATASETS),
            ("backends", self.backends or (), MAX_BACKENDS),
        ):
            if len(many) > cap:
                raise InputError(f"{name}: {len(many):,} given, above the cap of {cap:,}")
        number = isinstance(self.time_limit, int | float) and not isinstance(self.time_limit, bool)
        if not number or not 0 < self.time_limit <= MAX_TIME_LIMIT:
            raise InputError(
                f"time_limit must be a positive number of seconds, at most "
                f"{MAX_TIME_LIMIT:,.0f}, not {self.time_limit!r}"
            )


def _field(data: Any, path: str, kind: type | tuple[type, ...], what: str) -> Any:
    """``data[path]`` (``path`` dotted, ``[i]`` for list items) when it is a ``kind``;
    InputError naming the field otherwise. A bool is no number here."""
    value = data
    for part in path.replace("[", ".[").split("."):
        if part.startswith("["):
            value = value[int(part[1:-1])]
            continue
        if not isinstance(value, Mapping) or part not in value:
            raise InputError(f"bench record: field {path!r} is missing")
        value = value[part]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
        raise InputError(f"bench record: field {path!r} must be {what}, not {value!r:.60}")
    return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def config_from_record(record: Any) -> BenchConfig:
    """The configuration a saved record was made with; InputError naming the field when the
    record is malformed (a field missing, of the wrong type or above its cap), or if a dataset
    has changed."""
    if not isinstance(record, Mapping):
        raise InputError(f"bench record: not a JSON object but {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        said = record.get("format")
        shown = repr(said)[:40] if isinstance(said, str | None) else f"a {type(said).__name__}"
        raise InputError(f"not a bench record (format {shown})")
    options = _field(record, "options", Mapping, "an object")
    text = (str,)
    for key, cap in (("backends", MAX_BACKENDS), ("datasets", MAX_DATASETS)):
        listed = _field(record, key, list, "a list")
        if len(listed) > cap:  # before any is read (each dataset is hashed)
            raise InputError(
                f"bench record: field {key!r} lists {len(listed):,}, above the cap of {cap:,}"
            )
    for i in range(len(_field(record, "backends", list, "a list"))):
        _field(record, f"backends[{i}]", Mapping, "an object")
        _field(record, f"backends[{i}].label", text, "a string")
        _field(record, f"backends[{i}].backend", text, "a string")
        _field(record, f"backends[{i}].options", Mapping, "an object")
        spec = record["backends"][i]
        named = spec["label"].partition(":")[0]
        if spec["backend"] != named:
            # Its options are keyed by 'backend': another name would drop them unseen.
            raise InputError(
                f"bench record: field 'backends[{i}].backend' is {spec['backend']!r}, but its "
                f"label {spec['label']!r} names backend {named!r}"
            )
    number = (int, float)
    for key, kind, what in (
        ("limit", int, "a whole number"),
        ("repeat", int, "a whole number"),
        ("time_limit", number, "a number of seconds"),
        ("jobs", int, "a whole number"),
        ("warmup", bool, "true or false"),
        ("model", text, "a string"),
    ):
        _field(record, f"options.{key}", kind, what)
    if options.get("baseline") is not None:
        _field(record, "options.baseline", text, "a string")
    _field(record, "seed", int, "a whole number")
    datasets = []
    for i, ds in enumerate(_field(record, "datasets", list, "a list")):
        _field(record, f"datasets[{i}]", Mapping, "an object")
        for key in ("name", "source", "sha256"):
            _field(record, f"datasets[{i}].{key}", text, "a string")
        if ds["source"] != "bundled":
            _field(record, f"datasets[{i}].path", text, "a string")
        where = ds["name"] if ds["source"] == "bundled" else ds["path"]
        found = resolve_datasets([where])[0]
        if found.sha256 != ds["sha256"]:
            raise InputError(
                f"dataset {ds['name']!r} has changed since the record was made "
                f"(sha256 {found.sha256[:12]}…, recorded {ds['sha256'][:12]}…)"
            )
        datasets.append(where)
    config = BenchConfig(
        datasets=datasets,
        backends=[s["label"] for s in record["backends"]],
        options={s["backend"]: dict(s["options"]) for s in record["backends"]},
        limit=options["limit"],
        repeat=options["repeat"],
        time_limit=options["time_limit"],
        jobs=options["jobs"],
        warmup=options["warmup"],
        model=options["model"],
        box=options.get("box"),
        seed=record["seed"],
        baseline=options.get("baseline"),
    )
    try:
        config.check()
    except InputError as err:
        name, _, rest = str(err).partition(" ")
        raise InputError(f"bench record: field 'options.{name}' {rest}") from None
    return config


# --- the record ---------------------------------------------------------------------------------
@dataclass
class BenchRun:
    """What a bench produced: the rows of the table, the counter columns and the record."""

    rows: list[dict[str, Any]]
    counters: list[str]
    record: dict[str, Any]
    interrupted: bool = False
    """Stopped by Ctrl-C or SIGTERM: the rows are the puzzles measured in full before it (the
    record's ``interrupted`` says how many measurements of how many)."""


def make_record(
    config: BenchConfig,
    specs: Sequence[Spec],
    baseline: Spec,
    loaded: Sequence[tuple[Dataset, list[Entry], list[dict[str, Any]]]],
    counters: Sequence[str],
    started: float,
    overheads: dict[str, Any],
) -> dict[str, Any]:
    """The experiment record: enough to know what was measured, where, and to run it again."""
    return {
        "format": RECORD_FORMAT,
        "created": datetime.datetime.fromtimestamp(started, datetime.UTC).isoformat(),
        "wall_seconds": round(time.time() - started, 3),
        "command": sys.argv,
        "seed": config.seed,
        "options": {
            "limit": config.limit,
            "repeat": config.repeat,
            "time_limit": config.time_limit,
            "hard_time_limit": hard_limit(config.time_limit),
            "jobs": config.jobs,
            "warmup": config.warmup,
            "model": config.model,
            "box": config.box,
            "baseline": baseline.label,
        },
        "backends": [
            {
                "label": s.label,
                "backend": s.backend,
                "strategy": s.strategy,
                "options": s.options,
                "counters": {
                    name: counter.description
                    for name, counter in backend_class(s.backend).counters.items()
                },
            }
            for s in specs
        ],
        "datasets": [
            {
                "name": ds.name,
                "source": ds.source,
                "path": str(ds.path),
                "sha256": ds.sha256,
                "puzzles": len(entries),
                "rejected": rejected,
            }
            for ds, entries, rejected in loaded
        ],
        "versions": versions(list(dict.fromkeys(s.backend for s in specs))),
        "machine": machine(),
        "overheads": overheads,
        "table": {"counters": list(counters)},
    }


# --- writing --------------------------------------------------------------------------------------
BENCH_FILES = ("results.csv", "results.parquet", "record.json", "summary.txt", "summary.md")
"""The files a bench writes into its --output folder (the lock is on the first)."""


def claim_output(outdir: str | Path, config: BenchConfig, reads: Sequence[str] = ()) -> OutputLock:
    """Make the output folder and lock it for the run, as ``check`` locks its output: refuse a
    folder whose result files are files the bench reads (a dataset, the model file, ``reads``:
    the record and table a ``--replay`` compares with — by identity: any spelling or link) and
    a folder another bench is writing now. The lock is on
    ``results.csv`` (made empty if new) and held until released; the caller releases it
    (with ``remove_if_empty``, so a bench that wrote nothing leaves no empty table)."""
    resolve_datasets(config.datasets)  # a dataset that is not there: refused before any mkdir
    out = Path(outdir)
    model_path = config.model if os.path.isfile(config.model) else None
    choose = "another --output folder"
    for name in BENCH_FILES:
        check_output_apart(out / name, [*config.datasets, *reads], model_path, choose=choose)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(
            f"cannot create output folder {str(out)!r}: {err.strerror or err}"
        ) from None
    return OutputLock(out / BENCH_FILES[0], choose=choose)


def write_bench(run: BenchRun, outdir: str | Path) -> dict[str, Path]:
    """Write the table (CSV, and Parquet when pyarrow is installed) and the record into outdir."""
    from .report import write_table

    out = Path(outdir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(
            f"cannot create output folder {str(out)!r}: {err.strerror or err}"
        ) from None
    paths = write_table(run.rows, run.counters, out)
    run.record["table"].update({name: p.name for name, p in paths.items()})
    run.record["table"]["rows"] = len(run.rows)
    record_path = out / "record.json"
    write_json_atomically(record_path, run.record)
    return {**paths, "record": record_path}


MAX_RECORD_BYTES = 16 << 20
"""The largest record ``--replay`` reads (16 MiB; a record is some kilobytes)."""


def load_record(path: str | Path) -> dict[str, Any]:
    """A saved record (the file itself, or the folder it is in)."""
    where = Path(path)
    if os.path.isdir(where):
        where = where / "record.json"
    try:
        with where.open("rb") as file:
            raw = file.read(MAX_RECORD_BYTES + 1)
        if len(raw) > MAX_RECORD_BYTES:
            raise InputError(
                f"record {str(where)!r} is larger than the cap of {MAX_RECORD_BYTES:,} bytes"
            )
        return json.loads(raw)
    except OSError as err:
        raise InputError(f"cannot read record {str(where)!r}: {err.strerror}") from None
    except RecursionError:
        raise InputError(f"{str(where)!r} is not a JSON record: nested too deeply") from None
    except ValueError as err:
        raise InputError(f"{str(where)!r} is not a JSON record: {err}") from None
