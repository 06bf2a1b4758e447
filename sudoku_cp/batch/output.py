"""Writing and reading batch records: JSON Lines, CSV and the table for people.

Each record is written as one whole line as soon as it is known (the records of a worker's
chunk, known together, with one ``write`` call, :class:`RecordWriter`) — a Ctrl-C or a killed
process loses no finished record and leaves at most a torn last line, which ``--resume`` drops
and :func:`read_records` skips. Records are written in *completion* order; every record carries
its ``index`` (its 1-based position in the whole input), so sorting on it gives input order.

>>> json_line({"id": "a", "count": 1})
b'{"id":"a","count":1}\\n'
"""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import json
import math
import os
import stat
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import orjson

from ..backends import backend_class
from ..errors import OutputError, SudokuError, one_line
from ..result import Status, shown_id, witness_grid
from ..verdict import BackendRun, CheckRecord, Verdict

FORMATS = ("table", "jsonl", "csv")
SIDECAR_SUFFIX = ".meta.json"


def check_output_apart(
    output: Path,
    inputs: Sequence[str],
    model_path: str | None,
    *,
    choose: str = "another --output file",
) -> None:
    """Refuse an output (or its sidecar ``OUTPUT.meta.json``) that is one of the files the run
    reads — an input, standard input, the model file — by identity, not by name: any spelling,
    a symlink or a hard link of the same file. Called before anything is opened for writing,
    since opening the output truncates it. (``bench`` calls it for each file of its --output
    folder, with ``choose`` "another --output folder".)
    """
    from ..experiment import input_path

    for name in {output.name, _resolved_name(output)}:
        if name.endswith(SIDECAR_SUFFIX):
            # Another run's sidecar, rewritten by renaming a new file over it, would drop every
            # record written here; and writing here drops that run's record.
            raise OutputError(
                f"the output {output} is named like a sidecar (FILE{SIDECAR_SUFFIX}, the run "
                f"record written beside an output, replaced whole when its run ends); choose "
                f"{choose}"
            )
    named: list[tuple[str, os.stat_result]] = []
    for arg in [*inputs, *_option_reads()]:
        try:
            if arg == "-":
                named.append(("standard input", os.fstat(0)))
                continue
            path = input_path(arg)
            if path is None and os.path.exists(arg) and not os.path.isdir(arg):
                path = Path(arg)  # a named pipe or a device read as input
            if path is not None:
                named.append((f"the input {arg}", path.stat()))
        except (OSError, ValueError):
            continue
    if model_path is not None:
        with contextlib.suppress(OSError, ValueError):
            named.append((f"the model file {model_path}", os.stat(model_path)))
    written_paths = [(output, "output")]
    if output.name:  # (not for "." or "/", which are refused as folders anyway)
        written_paths.append((output.with_name(output.name + SIDECAR_SUFFIX), "output's sidecar"))
    for written, what in written_paths:
        try:
            mine = os.stat(written)
        except (OSError, ValueError):
            continue  # not there yet: it cannot be a file that is read
        if not (stat.S_ISREG(mine.st_mode) or stat.S_ISFIFO(mine.st_mode)):
            continue  # /dev/null and other devices are not truncated
        # (A named pipe is not truncated, but a run writing the pipe it reads waits forever.)
        for label, theirs in named:
            if (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino):
                raise OutputError(
                    f"the {what} {written} is {label}: writing it would destroy what this "
                    f"run reads; choose {choose}"
                )


def _option_reads() -> list[str]:
    """The files the running command reads through its options rather than its inputs or
    model: ``--state`` (a file, or the state's own text, which names no file) and
    ``--elements`` — from click's context, so that every command writing an output refuses
    them as it refuses an input (none outside a command)."""
    import click

    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return []
    from ..context import READING_KEY

    named = [ctx.params.get("state"), ctx.meta.get(READING_KEY, {}).get("elements")]
    return [value for value in named if isinstance(value, str) and value]


def _resolved_name(path: Path) -> str:
    """The name a symlink leads to (the path's own where it cannot be resolved)."""
    try:
        return path.resolve().name
    except (OSError, RuntimeError):
        return path.name


class OutputLock:
    """An exclusive lock on the output file for the whole run, so that a second run writing the
    same output (and its sidecar) fails at once instead of both recording every puzzle.

    ``fcntl.flock`` on the output itself: the kernel drops the lock when the process ends, however
    it ends, so a run killed with SIGKILL leaves no stale lock behind, and no lock file is left
    next to the output. The lock file descriptor is closed in forked worker processes, so a
    worker outliving a killed run does not keep the lock. Taken before the output is read (for
    ``--resume``) or truncated; an output that is not a regular file (``/dev/null``, a pipe) is
    not locked. Where ``fcntl`` does not exist (Windows) there is no lock.
    """

    def __init__(self, path: Path, *, choose: str = "another --output file") -> None:
        self.path = path
        self.fd: int | None = None
        self.created = False  # the lock made the file (bench: removed if nothing was written)
        try:
            import fcntl
        except ImportError:  # pragma: no cover — not POSIX
            return
        try:
            existed = path.exists()
            if existed and not path.is_file():
                return
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:
            return  # the writer reports why the output cannot be opened, with its own message
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(fd)
            if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise OutputError(
                    f"output {path} is being written by another sudoku-cp run; wait for it to "
                    f"finish (or stop it), or choose {choose}"
                ) from None
            return  # a file system without locks: run unlocked, as before
        self.fd = fd
        self.created = not existed
        _LOCKS.add(fd)

    def release(self, *, remove_if_empty: bool = False) -> None:
        """Unlock; with ``remove_if_empty``, first remove a file the lock made and nothing
        filled (while still locked, so that no other run has it)."""
        if self.fd is not None:
            if remove_if_empty and self.created:
                with contextlib.suppress(OSError):
                    if os.fstat(self.fd).st_size == 0:
                        self.path.unlink()
            _LOCKS.discard(self.fd)
            os.close(self.fd)  # closing the last descriptor releases the lock
            self.fd = None


class FolderLock:
    """An exclusive lock on the ``--certify`` folder for the whole run: certificates are named by
    input position, so two runs certifying into one folder would replace each other's, and
    each run's records would name the other's puzzles' files. ``fcntl.flock`` on the folder
    itself, dropped by the kernel however the run ends, closed in worker processes (the
    certificates they write are this run's); no lock where there is no ``fcntl``."""

    def __init__(self, path: Path) -> None:
        self.fd: int | None = None
        try:
            import fcntl
        except ImportError:  # pragma: no cover — not POSIX
            return
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return  # preparing the folder has said what is wrong with it
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(fd)
            if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise OutputError(
                    f"certificate folder {path} is being written by another sudoku-cp run; "
                    "wait for it to finish (or stop it), or choose another --certify folder"
                ) from None
            return
        self.fd = fd
        _LOCKS.add(fd)

    def release(self) -> None:
        if self.fd is not None:
            _LOCKS.discard(self.fd)
            os.close(self.fd)
            self.fd = None


_LOCKS: set[int] = set()


def _close_locks_in_child() -> None:
    """In a forked worker: drop the inherited lock descriptors (without unlocking — that would
    unlock the parent's too), so only the run's own process holds the lock."""
    for fd in list(_LOCKS):
        with contextlib.suppress(OSError):
            os.close(fd)
    _LOCKS.clear()


os.register_at_fork(after_in_child=_close_locks_in_child)


def count_text(record: CheckRecord) -> str:
    """``1``, ``>=2`` or ``-``: how many solutions, marking a count that is only a lower bound."""
    if record.verdict is Verdict.INVALID:
        return "-"
    return str(record.count) if record.exact else f">={record.count}"


class RecordWriter:
    """Writes records as whole lines, with one ``write`` call per batch, as soon as they come.

    Whole lines in one ``os.write`` mean a killed process leaves at most one torn line at the
    end (which ``--resume`` drops), and nothing sits in a buffer: what was written is on its
    way to the disk even if the process dies the next moment.
    """

    def __init__(
        self,
        fmt: str,
        backends: Sequence[str],
        path: Path | None = None,
        *,
        append: bool = False,
        stream: TextIO | None = None,
        auto: bool = False,
        rating: str | None = None,
    ) -> None:
        if fmt not in FORMATS + ("count",):
            raise SudokuError(f"unknown output format '{fmt}' (choose from: {', '.join(FORMATS)})")
        self.fmt = fmt
        self.backends = list(backends)
        self.auto = auto
        """Backends chosen per puzzle: the table shows each puzzle's judges, not every one."""
        self.rating = rating
        """The scale of ``check --rate`` (None without it): a rating column in the table and
        rating columns in CSV (:data:`RATING_COLUMNS`)."""
        self.path = path
        self.stream = stream
        self.fd: int | None = None
        self.written = 0
        self.columns = csv_columns(self.backends, rating) if fmt == "csv" else []
        if path is not None:
            flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (0 if append else os.O_TRUNC)
            try:
                self.fd = os.open(path, flags, 0o644)
                # Writing nothing costs nothing, yet fails at once where every write would
                # (/dev/full, a broken mount): better now than after the first results.
                os.write(self.fd, b"")
            except OSError as err:
                self.close()
                reason = err.strerror
                if err.errno == errno.ENOENT and path.parent.is_dir():  # e.g. under /proc
                    reason = f"folder {path.parent} does not take new files"
                raise OutputError(f"cannot write output file {path}: {reason}") from None
        fresh = not append or (path is not None and os.path.getsize(path) == 0)
        if fresh:
            self._emit(self.header())

    def header(self) -> str:
        if self.fmt == "csv":
            return _csv_line(self.columns)
        if self.fmt == "table":
            if self.auto:
                cells = "".join(f"{name:<{JUDGE_WIDTH}}" for name in ("judge", "judge"))
            else:
                cells = "".join(f"{name[:11]:<12}" for name in self.backends)
            rated = f"{RATING_HEADER[self.rating]:<{RATING_WIDTH}}" if self.rating else ""
            return f"{'id':<{ID_WIDTH}} {'verdict':<13}{'count':>6}  {cells}{rated}note\n"
        return ""

    def write(self, record: CheckRecord) -> None:
        self.write_many([record])

    def write_many(self, records: Sequence[CheckRecord]) -> None:
        """Several records with one ``write`` call (records that became known together)."""
        if self.fmt == "jsonl":
            self._emit(b"".join(json_line(record.to_dict()) for record in records))
        else:
            self._emit("".join(map(self._text, records)))
        self.written += len(records)

    def _text(self, record: CheckRecord) -> str:
        if self.fmt == "csv":
            row = csv_row(record, self.backends, self.rating)
            return _csv_line([row.get(c, "") for c in self.columns])
        if self.fmt == "count":
            return f"{shown_id(record.id)}: {one_line(_count_sentence(record))}\n"
        return table_row(record, self.backends, auto=self.auto, rating=self.rating)

    def _emit(self, text: str | bytes) -> None:
        if not text:
            return
        if self.fd is None:
            stream = self.stream or sys.stdout  # looked up each time: rich may redirect it
            stream.write(text.decode("utf-8") if isinstance(text, bytes) else text)
            stream.flush()
            return
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        sent = 0
        try:
            while sent < len(data):
                sent += os.write(self.fd, data[sent:])
        except OSError as err:
            # whole lines of this batch that did reach the file count as written
            self.written += data.count(b"\n", 0, sent)
            raise OutputError(
                f"writing {self.path} failed after {self.written} records: {err.strerror}; "
                "make room and run the same command again with --resume"
            ) from None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def json_line(data: Mapping[str, Any]) -> bytes:
    """One JSON Lines record, UTF-8, newline included.

    orjson writes a record about ten times faster than the json module, which matters when a
    file has millions of them; anything it refuses (a key that is not a string, an integer
    beyond 64 bits) goes through the json module instead. Both read back the same.
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)
    except (TypeError, orjson.JSONEncodeError):
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
        return (text + "\n").encode("utf-8")


def _count_sentence(record: CheckRecord) -> str:
    if record.verdict is Verdict.INVALID:
        return f"invalid: {record.reason}"
    if record.verdict in (Verdict.DISAGREEMENT, Verdict.UNDECIDED):
        found = f"{record.count} found so far; " if record.count else ""
        return f"{record.verdict.value}: {found}{record.reason}"
    plural = "" if record.count == 1 else "s"
    # (a conflict with the published solution is a disagreement, above, with its reason)
    published = f" · published solution: {record.published}" if record.published else ""
    if record.exact:
        return f"exactly {record.count} solution{plural}{published}"
    return f"at least {record.count} solution{plural}{published}"


ID_WIDTH = 24
"""The table's id column: a longer id is cut to it in the middle, "…" standing for what is cut
(its start and its end stay: ids that differ only in a number at the end still differ); the
records keep it whole."""
JUDGE_WIDTH = 22
"""A judge's cell when backends are chosen per puzzle: its name and time (``sat 9.92 ms``)."""


RATING_HEADER = {"hodoku": "rating", "se": "ER/EP/ED"}
"""The table's rating column with ``check --rate``, by scale."""
RATING_WIDTH = 18
"""That column: ``≥10.5/≥10.5/≥10.5`` or ``Extreme 12345``, and a space."""


def rating_cell(rating: dict[str, Any] | None) -> str:
    """A record's rating in the table: ``Medium 1420``, ``7.1/1.2/1.2`` (``≥`` on SE's lower
    bounds), ``-`` when not rated (the JSON Lines record says why).

    >>> rating_cell({"scale": "se", "er": 2.8, "ep": 1.5, "ed": 1.5, "er_exact": True,
    ...              "ep_exact": True, "ed_exact": True})
    '2.8/1.5/1.5'
    """
    from ..logic.scales import se_text

    if rating is None:
        return "-"
    if rating.get("scale") == "se":
        return se_text(rating)
    return "-" if rating.get("level") is None else f"{rating['level']} {rating.get('score')}"


def table_row(
    record: CheckRecord,
    backends: Sequence[str],
    *,
    auto: bool = False,
    rating: str | None = None,
) -> str:
    """One line for people: id, verdict, count, each backend's time, a note — in fixed-width
    columns. With ``auto`` (backends chosen per puzzle) the cells are the puzzle's judges,
    each with its time, rather than a column for every backend, most of them empty. With
    ``rating`` (a scale: ``check --rate``) a rating column before the note."""
    cells = []
    for name in [n for n in record.backends] if auto else backends:
        run = record.backends.get(name)
        if run is None:
            cell = "-"
        elif run.problems:
            cell = "WRONG"
        elif run.status in (Status.TIMEOUT, Status.ERROR, Status.UNSUPPORTED):
            cell = run.status.value
        else:
            cell = format_seconds(run.seconds)
        cells.append(f"{name} {cell}".ljust(JUDGE_WIDTH) if auto else f"{cell:<12}")
    if auto:  # (an invalid puzzle has no judge: its note stays in its column)
        cells += [" " * JUDGE_WIDTH] * (2 - len(cells))
    if rating is not None:
        cells.append(f"{rating_cell(record.rating):<{RATING_WIDTH}}")
    note = one_line(record.reason or "")
    if rating is not None:
        from ..logic.scales import rating_note

        noted = rating_note(record.rating)
        note = "; ".join(part for part in (note, noted) if part)
    # One line, never two different ids shown the same (shown_id), and cut to its column so
    # that a long id does not push the row's other columns out of line.
    shown = shown_id(record.id)
    if len(shown) > ID_WIDTH:
        head = (ID_WIDTH - 1) // 2
        shown = shown[:head] + "…" + shown[len(shown) - (ID_WIDTH - 1 - head) :]
    return (
        f"{shown:<{ID_WIDTH}} {record.verdict.value:<13}{count_text(record):>6}  "
        f"{''.join(cells)}{note}".rstrip()
        + "\n"
    )


def format_seconds(seconds: float) -> str:
    """A duration for people: ``1.23 ms``, ``45.6 ms``, ``2.10 s``."""
    ms = seconds * 1000
    return f"{ms:.2f} ms" if ms < 10 else f"{ms:.1f} ms" if ms < 1000 else f"{seconds:.2f} s"


RATING_COLUMNS = {
    "hodoku": ("level", "score", "hardest", "outcome", "steps", "reason"),
    "se": ("er", "ep", "ed", "er_exact", "ep_exact", "ed_exact", "outcome", "hardest", "steps",
           "reason"),
}  # fmt: skip
"""The rating's keys written as CSV columns ``rating.KEY`` with ``check --rate``, by scale
(:attr:`CheckRecord.rating`)."""


def csv_columns(backends: Sequence[str], rating: str | None = None) -> list[str]:
    """The CSV header: the record's fields, the rating's with ``rating`` (a scale), then per
    backend its run and its counters."""
    columns = [
        "id",
        "index",
        "line",
        "source",
        "puzzle",
        "verdict",
        "count",
        "exact",
        "solution_1",
        "solution_2",
        "reason",
        "published",
    ]
    if rating is not None:
        columns += [f"rating.{key}" for key in RATING_COLUMNS[rating]]
    for name in backends:
        columns += [
            f"{name}.{part}"
            for part in ("status", "count", "exact", "seconds", "error", "problems")
        ]
        columns += [f"{name}.{counter}" for counter in backend_class(name).counters]
    return columns


def csv_row(
    record: CheckRecord, backends: Sequence[str], rating: str | None = None
) -> dict[str, Any]:
    """The record flattened to one CSV row (keys as in :func:`csv_columns`)."""
    row: dict[str, Any] = {
        "id": record.id,
        "index": record.index,
        "line": record.line,
        "source": record.source,
        "puzzle": record.puzzle,
        "verdict": record.verdict.value,
        "count": record.count,
        "exact": record.exact,
        "reason": record.reason,
        "published": record.published,
    }
    for number, line in enumerate(record.solution_lines()[:2], start=1):
        row[f"solution_{number}"] = line
    if rating is not None and record.rating is not None:
        for key in RATING_COLUMNS[rating]:
            row[f"rating.{key}"] = record.rating.get(key)
    for name in backends:
        run = record.backends.get(name)
        if run is None:
            continue
        row.update(
            {
                f"{name}.status": run.status.value,
                f"{name}.count": run.count,
                f"{name}.exact": run.exact,
                f"{name}.seconds": round(run.seconds, 6),
                f"{name}.error": run.error,
                f"{name}.problems": " | ".join(run.problems),
            }
        )
        for counter, value in run.counters.items():
            row[f"{name}.{counter}"] = value
    return row


def _csv_line(values: Sequence[Any]) -> str:
    buffer = io.StringIO()
    cleaned = ["" if v is None else " ".join(str(v).split()) for v in values]  # one line each
    csv.writer(buffer, lineterminator="\n").writerow(cleaned)
    return buffer.getvalue()


def read_records(path: str | Path) -> Iterator[CheckRecord]:
    """The records of a JSON Lines or CSV result file, skipping a torn last line.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "r.jsonl"
    >>> _ = out.write_text('{"id": "a", "index": 1, "verdict": "unique"}\\n{"id": "b", "in')
    >>> [r.id for r in read_records(out)]
    ['a']
    """
    path = Path(path)
    with path.open("rb") as handle:
        if path.suffix.lower() == ".csv":
            yield from _read_csv(handle)
            return
        for raw in handle:
            if not raw.endswith(b"\n"):
                break  # torn by a killed writer
            text = raw.strip()
            if text:
                try:
                    record = _countable(CheckRecord.from_dict(json.loads(text)))
                except _NOT_A_RECORD:
                    continue
                yield record


_NOT_A_RECORD = (
    ValueError,
    KeyError,
    TypeError,
    AttributeError,  # "backends": [...], a rating that is not an object
    ArithmeticError,  # an index or a count of 1e999, a number past the index set's 64 bits
    RecursionError,  # a line nested too deeply for the JSON reader
    SudokuError,  # a witness that does not read as a grid
)
"""What reading back a line that is not a record this tool wrote can raise: the line is
skipped, as a malformed one always was (its puzzle is checked again), never a traceback."""

_MAX_INDEX = (1 << 63) - 1
"""The largest index the resumed run's index set holds (a signed 64-bit array)."""


def _countable(record: CheckRecord) -> CheckRecord:
    """``record``, when the resumed run can count it in its summary; ValueError for a line
    damaged or edited past what :meth:`CheckRecord.from_dict` checks (an index below 1 or
    past 64 bits, a time that is not a finite number, a rating that is not an object …)."""
    if not (0 < record.index <= _MAX_INDEX and 0 <= record.count <= _MAX_INDEX):
        raise ValueError("index or count out of range")
    for run in record.backends.values():
        if not (math.isfinite(run.seconds) and 0 <= run.count <= _MAX_INDEX):
            raise ValueError("a backend's time or count out of range")
    rating = record.rating
    if rating is not None:
        if not isinstance(rating, dict):
            raise ValueError("a rating is an object")
        er = rating.get("er")
        if er is not None and not math.isfinite(float(er)):
            raise ValueError("an ER is a finite number")
        if not all(isinstance(rating.get(k), (str, type(None))) for k in ("scale", "level")):
            raise ValueError("a rating's scale and level are text")
    return record


def _read_csv(handle: Any) -> Iterator[CheckRecord]:
    lines = (raw.decode("utf-8") for raw in handle if raw.endswith(b"\n"))
    for row in csv.DictReader(lines):
        try:
            record = _countable(_record_from_row(row))
        except _NOT_A_RECORD:
            continue
        yield record


def _record_from_row(row: Mapping[str, str]) -> CheckRecord:
    backends: dict[str, BackendRun] = {}
    for key, value in row.items():
        name, dot, part = (key or "").rpartition(".")
        if not dot or part != "status" or not value:
            continue
        counters = {}
        for column, cell in row.items():
            prefix, _, counter = (column or "").rpartition(".")
            if (
                prefix == name
                and counter not in ("status", "count", "exact", "seconds", "error", "problems")
                and cell
            ):
                counters[counter] = float(cell) if "." in cell or "e" in cell else int(cell)
        backends[name] = BackendRun(
            status=Status(value),
            count=int(row[f"{name}.count"] or 0),
            exact=row[f"{name}.exact"] == "True",
            seconds=float(row[f"{name}.seconds"] or 0),
            counters=counters,
            error=row[f"{name}.error"] or None,
            problems=[p for p in (row[f"{name}.problems"] or "").split(" | ") if p],
        )
    return CheckRecord(
        id=row["id"],
        puzzle=row["puzzle"],
        verdict=Verdict(row["verdict"]),
        count=int(row["count"] or 0),
        exact=row["exact"] == "True",
        solutions=[witness_grid(s) for s in (row.get("solution_1"), row.get("solution_2")) if s],
        backends=backends,
        reason=row.get("reason") or None,
        index=int(row["index"]),
        line=int(row["line"]) if row.get("line") else None,
        source=row.get("source") or None,
        published=row.get("published") or None,
        rating=_rating_from_row(row),
    )


def _rating_from_row(row: Mapping[str, str]) -> dict[str, Any] | None:
    """The record's rating back from its ``rating.*`` columns (None when it has none: no
    --rate, or not a unique verdict), its values typed as :attr:`CheckRecord.rating` has them."""
    scale = "se" if "rating.er" in row else "hodoku" if "rating.level" in row else None
    if scale is None or not any(row[f"rating.{key}"] for key in RATING_COLUMNS[scale]):
        return None
    rating: dict[str, Any] = {"scale": scale}
    for key in RATING_COLUMNS[scale]:
        cell = row[f"rating.{key}"]
        if key in ("er", "ep", "ed"):
            rating[key] = float(cell) if cell else None
        elif key.endswith("_exact"):
            rating[key] = cell == "True"
        elif key in ("score", "steps"):
            rating[key] = int(cell) if cell else None
        else:
            rating[key] = cell or None
    return rating
