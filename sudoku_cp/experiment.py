"""The experiment record shared by ``check`` and ``bench``: what ran, on what, with what.

A result file is only as good as what is known about how it was made. Both ``sudoku-cp check``
(its ``OUTPUT.meta.json`` sidecar) and ``sudoku-cp bench`` (its ``record.json``) describe

- the **machine**: CPU model, core counts and platform (:func:`machine`);
- the **versions**: Python, sudoku-cp, pebble and every backend's library (:func:`versions`);
- the **inputs**: each file's path, size and SHA-256, or a hash of puzzle text given as an
  argument (:func:`describe_input`, :func:`file_sha256`);
- the **dates**, in UTC (:func:`now`);

and write their JSON atomically (:func:`sudoku_cp.atomic.write_json_atomically`), so that a
reader never sees half a record. This module only describes; what each command keeps in its
record, and when it writes it, is the command's business.

>>> sorted(describe_input("1234............"))
['arg', 'kind', 'sha256']
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import os
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .backends import backend_class


def usable_cores() -> int:
    """Every core this process may use.

    >>> usable_cores() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's content, in hexadecimal, read a megabyte at a time."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def describe_input(arg: str) -> dict[str, Any]:
    """What an INPUT argument is, with a hash of its content when it is a file.

    >>> describe_input("-")
    {'arg': '-', 'kind': 'stdin', 'sha256': None}
    """
    path = input_path(arg)
    if arg == "-":
        return {"arg": arg, "kind": "stdin", "sha256": None}
    if path is None:
        return {
            "arg": arg,
            "kind": "text",
            "sha256": hashlib.sha256(arg.encode("utf-8")).hexdigest(),
        }
    return {
        "arg": arg,
        "kind": "file",
        "path": str(path.resolve()),
        "bytes": path.stat().st_size,
        "sha256": file_sha256(path),
    }


def input_path(arg: str) -> Path | None:
    """The file an INPUT argument names (a path, or a bundled set's name); None for ``-`` and
    for puzzle text."""
    if arg == "-":
        return None
    path = Path(arg)
    if os.path.isfile(path):
        return path
    from .datasets import bundled_file

    return bundled_file(arg)


def machine() -> dict[str, Any]:
    """The CPU model, core counts and platform, for the experiment record."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "usable_cores": usable_cores(),
        "platform": platform.platform(),
        "machine": platform.machine(),
    }


def versions(backends: Sequence[str]) -> dict[str, Any]:
    """The versions of Python, sudoku-cp, pebble and each named backend's library, with what
    the backend notes about itself (the backtracker: whether its compiled kernel is in use).

    >>> sorted(versions(["backtrack"])["backends"]["backtrack"])
    ['library', 'notes', 'version']
    """
    from .version import __version__

    libraries: dict[str, dict[str, Any]] = {}
    for name in backends:
        cls = backend_class(name)
        libraries[name] = (
            {"library": cls.requires[1], "version": cls.version()}
            if cls.requires
            else {"library": None, "version": None}
        )
        if cls.notes():
            libraries[name]["notes"] = cls.notes()
    return {
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "sudoku_cp": __version__,
        "pebble": _dist_version("pebble"),
        "backends": libraries,
    }


@functools.cache
def _dist_version(name: str) -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def now() -> str:
    """The time now in UTC, to the second, in ISO 8601 (``2026-11-23T06:45:00+00:00``)."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


__all__ = [
    "describe_input",
    "file_sha256",
    "input_path",
    "machine",
    "now",
    "usable_cores",
    "versions",
]
