"""Opening a command's output file: the one way every command that writes a file writes it.

:func:`output_file` refuses an output that is one of the files the command reads (an input,
the model file — by identity, any spelling or link: :func:`~.batch.output.check_output_apart`),
takes the exclusive lock ``check`` takes on its output (:class:`~.batch.output.OutputLock`: a
second run writing the same file fails at once, naming the file), and writes a whole output
through a temporary file in the same folder renamed over the output at the end — so the old
file or the new one is there, never half of one. An output that streams as it is made
(``generate``) is written in place, after the lock. Every failure to write (a missing folder,
a folder, a full disk, ``/dev/full``, a read-only file, a name too long) is one
:class:`~.errors.OutputError` line naming the file and the cause: exit 2, never a
traceback, never a silent success.

``check`` and ``count`` append records and resume, so they keep their own writer
(:class:`~.batch.output.RecordWriter`) over the same two guards.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from .batch.output import OutputLock, check_output_apart
from .errors import OutputError

TEMP_PREFIX = ".sudoku-cp-"
"""How this module's temporary files start (``.sudoku-cp-<name>-XXXX.tmp``, beside the output)."""


def write_failure(path: str | os.PathLike[str], err: OSError, option: str = "--output") -> str:
    """One line naming the output and why it cannot be written."""
    where = Path(path)
    reason = err.strerror or str(err)
    if err.errno == errno.ENOENT and not where.parent.is_dir():
        reason = f"the folder {where.parent} does not exist"
    elif err.errno == errno.ENOENT:  # e.g. under /proc: the folder takes no new files
        reason = f"the folder {where.parent} does not take new files"
    elif err.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        reason = f"{reason} (the disk is full, or a file size limit was reached)"
    return f"{option} {where}: cannot write: {reason}"


def _refuse_unwritable(path: Path, option: str) -> None:
    """The failures known before anything is made: a folder, a missing folder, a read-only
    file (which a rename would silently replace), a name the file system cannot take."""
    parent = path.parent
    try:
        max_name = os.pathconf(parent if os.path.isdir(parent) else ".", "PC_NAME_MAX")
    except (OSError, ValueError):
        max_name = 255
    if len(os.fsencode(path.name)) > max_name:
        raise OutputError(
            f"{option} {str(path)[:80]}…: cannot write: the file name is longer than the "
            f"{max_name} bytes a name may have here"
        )
    if os.path.isdir(path):
        raise OutputError(f"{option} {path}: is a folder; name a file")
    if not os.path.isdir(parent):
        what = "is not a folder" if os.path.exists(parent) else "does not exist"
        raise OutputError(f"{option} {path}: cannot write: the folder {parent} {what}")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise OutputError(f"{option} {path}: cannot write: the file is read-only")


class _Guarded:
    """A text stream whose write errors are one :class:`OutputError` line naming the file."""

    def __init__(self, handle: IO[str], path: Path, option: str) -> None:
        self.handle = handle
        self.path = path
        self.option = option

    def write(self, text: str) -> int:
        try:
            return self.handle.write(text)
        except OSError as err:
            raise OutputError(write_failure(self.path, err, self.option)) from None

    def flush(self) -> None:
        try:
            self.handle.flush()
        except OSError as err:
            raise OutputError(write_failure(self.path, err, self.option)) from None

    def close(self) -> None:
        try:
            self.handle.close()
        except OSError as err:
            raise OutputError(write_failure(self.path, err, self.option)) from None

    def __getattr__(self, name: str) -> Any:  # (csv.writer and friends need only write)
        return getattr(self.handle, name)


def refuse_output(
    path: str | os.PathLike[str],
    *,
    reads: Sequence[str] = (),
    model_path: str | None = None,
    option: str = "--output",
) -> int | None:
    """Raise :class:`OutputError` now for an output that cannot or must not be written (one of
    the files read, a folder, a missing folder, a read-only file, a name too long) — called
    before a long computation as well as by :func:`output_file`. The output's mode, or None
    when it does not exist yet."""
    if not os.fspath(path).strip():
        raise OutputError(f"{option} needs a file name, not an empty one")
    out = Path(path)
    check_output_apart(out, reads, model_path, choose=f"another {option}")
    try:
        mode: int | None = os.stat(out).st_mode
    except OSError:
        mode = None
    if mode is None or stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        # (/dev/null, /dev/full, a pipe: opened as they are, reported as they fail.)
        _refuse_unwritable(out, option)
    return mode


@contextlib.contextmanager
def output_file(
    path: str | os.PathLike[str],
    *,
    reads: Sequence[str] = (),
    model_path: str | None = None,
    streamed: bool = False,
    option: str = "--output",
    lock: bool = True,
) -> Iterator[_Guarded]:
    """A text stream onto ``path`` for the ``with`` block (see the module's notes).

    ``reads``: the command's inputs as given (puzzle text that is no file is passed over);
    ``model_path``: the model file, if the model is one. ``streamed``: write in place as the
    output is made (what was written before a stop stays), not through a renamed temporary
    file. ``lock=False`` where the caller already holds the run's lock (bench's folder).
    The output is left untouched if the block raises before anything was written in place.
    """
    out = Path(path)
    mode = refuse_output(path, reads=reads, model_path=model_path, option=option)
    special = mode is not None and not stat.S_ISREG(mode)
    held = OutputLock(out, choose=f"another {option}") if lock and not special else None
    # A symlink is written through, as opening it would: the file it leads to is replaced.
    target = Path(os.path.realpath(out)) if os.path.islink(out) else out
    temporary: str | None = None
    replaced = False
    try:
        try:
            if streamed or special:
                handle = open(out, "w", encoding="utf-8", newline="")  # noqa: SIM115
            else:
                fd, temporary = tempfile.mkstemp(
                    dir=target.parent, prefix=f"{TEMP_PREFIX}{target.name[:60]}-", suffix=".tmp"
                )
                # mkstemp makes the file 0600; an output gets the mode a new file would get.
                umask = os.umask(0)
                os.umask(umask)
                os.fchmod(fd, (mode & 0o7777) if mode is not None else 0o666 & ~umask)
                handle = os.fdopen(fd, "w", encoding="utf-8", newline="")
        except OSError as err:
            raise OutputError(write_failure(out, err, option)) from None
        stream = _Guarded(handle, out, option)
        try:
            yield stream
            stream.close()  # what a full disk refuses shows here at the latest
        finally:
            with contextlib.suppress(OSError):
                handle.close()
        if temporary is not None:
            try:
                os.replace(temporary, target)
            except OSError as err:
                raise OutputError(write_failure(out, err, option)) from None
            replaced = True
    finally:
        if temporary is not None and not replaced:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        if held is not None:
            # The lock's own empty file goes when nothing replaced it (a run that failed).
            held.release(remove_if_empty=not replaced and not streamed)


def write_output(
    path: str | os.PathLike[str],
    text: str,
    *,
    reads: Sequence[str] = (),
    model_path: str | None = None,
    option: str = "--output",
    lock: bool = True,
) -> None:
    """Write ``text`` whole to ``path`` by :func:`output_file`."""
    with output_file(path, reads=reads, model_path=model_path, option=option, lock=lock) as stream:
        stream.write(text)


def model_file(model: str) -> str | None:
    """The model option's file, when it names one (a built-in model's name is no file)."""
    return model if os.path.isfile(model) else None
