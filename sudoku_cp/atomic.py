"""Files written whole or not at all: through a temporary file beside the target, renamed over
it (the experiment records of ``check`` and ``bench``, certificates). A foot module: it imports
nothing of the package, so any part may write atomically without importing what describes a run.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
from pathlib import Path
from typing import Any


def write_atomically(
    path: Path, blob: bytes, *, prefix: str | None = None, mode: int = 0o666
) -> None:
    """Write ``blob`` to ``path`` through a temporary file beside it, renamed over ``path``, so
    that ``path`` holds the old content or the new, never half of it. The temporary file is
    created new (``O_EXCL``, under a random name: ``.NAME.<hex>.tmp``, or ``PREFIX<hex>.tmp``),
    so a file or symbolic link planted where it goes is never written through. Raises OSError.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    start = prefix if prefix is not None else f".{path.name}."
    for _ in range(100):
        temporary = path.with_name(f"{start}{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(temporary, flags | getattr(os, "O_CLOEXEC", 0), mode)
            break
        except FileExistsError:  # (a name taken: another is drawn)
            continue
    else:
        raise FileExistsError(errno.EEXIST, "no free temporary name", str(path.parent))
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(blob)
        os.replace(temporary, path)
    except BaseException:  # a full disk, or Ctrl-C or SIGTERM halfway: no stray .tmp left
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def write_json_atomically(path: Path, data: Any) -> None:
    """Write ``data`` as indented JSON to ``path`` (:func:`write_atomically`): ``path`` holds
    the old record or the new one, never half of one. Raises OSError."""
    write_atomically(path, (json.dumps(data, indent=2, default=str) + "\n").encode("utf-8"))


__all__ = ["write_atomically", "write_json_atomically"]
