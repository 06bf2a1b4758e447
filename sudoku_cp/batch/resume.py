"""Resuming a batch, and its experiment record beside the output (the sidecar).

``--resume`` reads the output file, drops a torn last line (:func:`repair_torn_tail`), skips
every ``index`` already recorded (:class:`IndexSet`) and appends the rest. The sidecar
``OUTPUT.meta.json`` (versions, options, input hashes, machine, dates: :mod:`sudoku_cp.experiment`)
is written before any work and again at the end, and is checked so that a resume uses the same
inputs and options.

>>> done = IndexSet([1, 2, 3, 7])
>>> 2 in done, 5 in done, 7 in done, len(done)
(True, False, True, 4)
"""

from __future__ import annotations

import csv
import json
import os
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..atomic import write_json_atomically
from ..errors import OutputError
from ..experiment import file_sha256, machine, now, versions
from .items import BatchOptions, ResumeError
from .output import csv_columns, read_records
from .summary import Summary


class IndexSet:
    """The input positions already done, in little memory: all up to a mark, plus a few more.

    Results are written roughly in input order, so nearly every done index is below the mark.
    """

    def __init__(self, indices: Iterable[int] = ()) -> None:
        ordered = sorted(set(indices))
        mark = 0
        for value in ordered:
            if value != mark + 1:
                break
            mark = value
        self.mark = mark
        self.above = {v for v in ordered if v > mark}
        self.size = len(ordered)

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and (0 < index <= self.mark or index in self.above)

    def __len__(self) -> int:
        return self.size


def repair_torn_tail(path: Path) -> int:
    """Cut a last line without its newline (left by a killed writer); return bytes dropped."""
    size = path.stat().st_size
    if size == 0:
        return 0
    with path.open("rb+") as handle:
        step = 1 << 16
        end = size
        while end > 0:
            start = max(0, end - step)
            handle.seek(start)
            block = handle.read(end - start)
            cut = block.rfind(b"\n")
            if cut >= 0:
                keep = start + cut + 1
                break
            end = start
        else:
            keep = 0
        if keep < size:
            handle.truncate(keep)
        return size - keep


def meta_path(output: Path) -> Path:
    """``results.jsonl`` → ``results.jsonl.meta.json``."""
    return output.with_name(output.name + ".meta.json")


def write_meta(path: Path, meta: dict[str, Any]) -> None:
    """Write the sidecar atomically; OutputError if it cannot be written."""
    try:
        write_json_atomically(path, meta)
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from None


def check_output(options: BatchOptions) -> None:
    """Refuse an output that is a folder, and ``--resume`` of what it cannot continue — before
    anything is created, locked or written."""
    output = options.output
    assert output is not None
    if os.path.isdir(output):
        raise OutputError(f"output {output} is a directory")
    if options.resume and options.fmt not in ("jsonl", "csv"):
        raise ResumeError("--resume continues a jsonl or csv output file (see --format)")
    if options.resume and os.path.exists(output) and not os.path.isfile(output):
        raise ResumeError(f"--resume continues a file, and {output} is a device or a pipe")


def open_run(
    options: BatchOptions, inputs_info: list[dict[str, Any]], summary: Summary
) -> tuple[dict[str, Any] | None, IndexSet]:
    """Check the output path, read what a resumed run already did, and make the meta (None for
    an output that is a device or a pipe, such as /dev/null: no file to keep a sidecar beside)."""
    output = options.output
    assert output is not None
    check_output(options)
    if os.path.exists(output) and not os.path.isfile(output):
        return None, IndexSet()
    sidecar = meta_path(output)
    settings = {
        "command": options.command,
        "backends": list(options.config.backends),
        "selection": "auto" if options.config.auto else "given",
        "limit": options.config.limit,
        "time_limit": options.config.time_limit,
        "model": options.config.model.label,
        "model_sha256": _model_sha256(options.config.model.path),
        "backend_options": options.config.options,
        "jobs": options.jobs,
        "format": options.fmt,
        "input_format": options.input_format,
        "metamorphic": options.config.metamorphic,
        "seed": options.config.seed,
    }
    if options.config.certify is not None:  # (absent otherwise: older sidecars stay alike)
        settings["certify"] = os.path.abspath(options.config.certify)
    if options.config.rate is not None:  # likewise: the scale of --rate, the records' ratings
        settings["rate"] = options.config.rate
    run = {
        "started": now(),
        "finished": None,
        "argv": list(options.argv),
        "jobs": options.jobs,
        "time_limit": options.config.time_limit,
    }
    done = IndexSet()
    meta: dict[str, Any] | None = None
    if options.resume and os.path.exists(output) and not _holds_records(output):
        # Nothing to continue (a run stopped while starting, after the output was opened and
        # before its sidecar was written): started over, whatever the sidecar says.
        _start_over(output)
    elif options.resume and os.path.exists(output):
        meta = _load_meta(sidecar)
        if meta is not None:
            _check_same_run(meta, settings, inputs_info)
        elif output.stat().st_size > 0:
            # Records with nothing to show what made them: they cannot be proved compatible.
            state = "is missing" if not os.path.exists(sidecar) else "is not a sudoku-cp run record"
            raise ResumeError(
                f"cannot resume {output}: its sidecar {sidecar.name} {state}, so nothing shows "
                "which inputs and options made its records; run without --resume to start over "
                "(this overwrites it), or choose another --output file"
            )
        indices = array("q")
        try:
            repair_torn_tail(output)
            if options.fmt == "csv":
                _check_csv_header(output, options.config.backends, options.config.rate)
            for record in read_records(output):
                indices.append(record.index)
                summary.add(record, resumed=True)
        except (OSError, UnicodeDecodeError) as err:
            reason = getattr(err, "strerror", None) or "not UTF-8 text"
            raise ResumeError(f"cannot resume from {output}: {reason}") from None
        done = IndexSet(indices)
        if len(done) != len(indices):
            # Only two runs writing at once leave a puzzle twice: which record stands is unknown.
            twice = len(indices) - len(done)
            raise ResumeError(
                f"cannot resume {output}: it records a puzzle more than once ({twice:,} extra "
                f"record{'s' if twice > 1 else ''}: two runs wrote it at once?); run without "
                "--resume to start over (this overwrites it), or choose another --output file"
            )
    if meta is None:
        meta = {
            "tool": "sudoku-cp",
            "settings": settings,
            "inputs": inputs_info,
            "versions": versions(options.config.backends),
            "machine": machine(),
            "created": now(),
            "runs": [],
        }
    meta["runs"].append(run)
    if not os.path.exists(output.parent):
        raise OutputError(
            f"cannot write output file {output}: folder {output.parent} does not exist"
        )
    return meta, done


def _holds_records(output: Path) -> bool:
    """Whether the output holds a whole record (a CSV header alone is none)."""
    try:
        return next(iter(read_records(output)), None) is not None
    except (OSError, UnicodeDecodeError, csv.Error):
        return True  # let the reading below say what is wrong with it


def _start_over(output: Path) -> None:
    try:
        os.truncate(output, 0)
    except OSError as err:
        raise ResumeError(f"cannot resume from {output}: {err.strerror}") from None


def _model_sha256(path: str | None) -> str | None:
    """The content hash of a model file (None for a shipped model, named by its name)."""
    if path is None:
        return None
    try:
        return file_sha256(Path(path))
    except OSError:
        return None


def _load_meta(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (
        isinstance(data, dict)
        and isinstance(data.get("runs"), list)
        and isinstance(data.get("settings"), dict)
        and isinstance(data.get("inputs"), list)
        and all(isinstance(i, dict) for i in data["inputs"])
    ):
        return None
    return data


def _check_same_run(
    meta: dict[str, Any], settings: dict[str, Any], inputs_info: list[dict[str, Any]]
) -> None:
    before = meta["settings"]
    model = settings["model_sha256"]
    same_file = before.get("model") == settings["model"]
    if model is not None and same_file and before.get("model_sha256") != model:
        raise ResumeError(
            f"cannot resume: model file {settings['model']} has changed since the output "
            "was made (or the output does not record its content); use another output file"
        )
    if before.get("selection", "given") != settings["selection"]:
        raise ResumeError(
            f"cannot resume: the output was made with {_backends_shown(before)}, not "
            f"{_backends_shown(settings)}; use the same options or another output file"
        )
    # input_format: the same file read as another format numbers its puzzles differently, so
    # the recorded indices would name other puzzles.
    keys = (
        "command",
        "backends",
        "limit",
        "model",
        "backend_options",
        "metamorphic",
        "seed",
        "input_format",
    )
    for key in (*keys, "certify", "rate"):
        if before.get(key) != settings.get(key):
            raise ResumeError(
                f"cannot resume: the output was made with {key} {before.get(key)!r}, "
                f"not {settings.get(key)!r}; use the same options or another output file"
            )
    old = [(i.get("arg"), i.get("sha256")) for i in meta.get("inputs", [])]
    new = [(i.get("arg"), i.get("sha256")) for i in inputs_info]
    hashes = [h for _, h in new]
    same_content = [h for _, h in old] == hashes and None not in hashes
    if [a for a, _ in old] != [a for a, _ in new] and not same_content:
        # (the same files by another path, from another folder: their contents decide)
        raise ResumeError(
            f"cannot resume: the output was made from inputs {[a for a, _ in old]}, "
            f"not {[a for a, _ in new]}"
        )
    for (arg, was), (_, is_now) in zip(old, new, strict=True):
        if arg == "-":
            raise ResumeError(
                "cannot resume: standard input cannot be compared with what the output was "
                "made from; save it to a file, check that file, and resume with it"
            )
        if was != is_now:
            raise ResumeError(f"cannot resume: input {arg} has changed since the output was made")


def _backends_shown(settings: dict[str, Any]) -> str:
    """How a run's backends were asked for, as its command line said it."""
    if settings.get("selection", "given") == "auto":
        return "--backends auto (chosen for each puzzle)"
    backends = settings.get("backends")
    return f"--backends {','.join(backends)}" if backends else "the backends named"


def _check_csv_header(output: Path, backends: Sequence[str], rating: str | None) -> None:
    with output.open(encoding="utf-8", newline="") as handle:
        first = handle.readline()
    if first and next(csv.reader([first])) != csv_columns(backends, rating):
        raise ResumeError(f"cannot resume: {output} has other columns than this run would write")


def close_run(meta: dict[str, Any], output: Path, summary: Summary) -> None:
    """Finish the run's entry in the sidecar (when, how far, the summary) and write it."""
    run = meta["runs"][-1]
    run.update(
        finished=now(),
        interrupted=summary.interrupted,
        records_written=summary.checked,
        seconds=round(summary.seconds, 3),
    )
    meta["summary"] = summary.to_dict()
    # The records themselves are safe; a stale sidecar is no reason to fail the run, but it is
    # said: the sidecar left behind describes the run as unfinished, with no summary.
    try:
        write_meta(meta_path(output), meta)
    except OutputError as err:
        summary.sidecar_error = str(err)
