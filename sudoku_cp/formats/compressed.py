"""Puzzle files as collections are shipped: gzip, bzip2, xz, or a zip archive of one file.

Large collections come compressed (Royle's 17-clue list as ``sudoku17.gz``, Kaggle's millions as
``sudoku.csv.zip``); reading them as they are saves a step and the disk the unpacked copy
takes. The kind is told by the file's first bytes, not its name (a renamed file still reads),
with the standard library's own readers: the lines are then read as from any file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, cast

from ..errors import InputError

if TYPE_CHECKING:
    from pathlib import Path

_MAGIC = (
    (b"\x1f\x8b", "gzip"),  # RFC 1952, section 2.3.1
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),  # the xz file format, section 2.1.1.1
    (b"PK\x03\x04", "zip"),  # a local file header (PKWARE's APPNOTE, 4.3.7)
    (b"PK\x05\x06", "zip"),  # an empty archive: its end of central directory (4.3.16)
)


def damaged() -> tuple[type[BaseException], ...]:
    """What the decompressors raise, besides ``OSError``, on data that is damaged or cut short
    (imported here only when asked: a plain solve loads no decompressor)."""
    import lzma
    import zipfile
    import zlib

    return (EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile)


def compression_of(head: bytes) -> str | None:
    """The compression a file starting with ``head`` is in, or None for a plain file."""
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    return None


def _head(stream: Any) -> bytes:
    peek = getattr(stream, "peek", None)
    if peek is None:
        return b""
    try:
        head = peek(6)
    except (OSError, ValueError):
        return b""  # (reading then says what is wrong)
    return head[:6] if isinstance(head, bytes) else b""


def open_file(path: Path, raw: IO[bytes]) -> IO[bytes]:
    """``raw`` (``path`` opened for reading bytes) itself, or its decompressed bytes."""
    kind = compression_of(_head(raw))
    if kind is None:
        return raw
    raw.close()
    try:
        # (opened by name, the decompressor owns the file and closes it)
        return _zip_member(path, str(path)) if kind == "zip" else _decompressed(kind, path)
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None


def open_stream(stream: Any, name: str) -> Any:
    """A stream of bytes not ours to close (standard input), decompressed when it is gzip,
    bzip2 or xz; a zip archive is refused there (its directory is at its end)."""
    kind = compression_of(_head(stream))
    if kind is None:
        return stream
    if kind == "zip":
        raise InputError(
            f"{name} is a zip archive, which is read from a file only: give its path, or unzip it"
        )
    return _decompressed(kind, stream)  # (given a stream, the decompressor leaves it open)


def _decompressed(kind: str, source: Any) -> IO[bytes]:
    """``source`` (a path or a stream of bytes) read through the standard library's reader of
    ``kind``; each takes either (imported only here: a plain solve loads none of them)."""
    import bz2
    import gzip
    import lzma

    openers: dict[str, Callable[..., Any]] = {"gzip": gzip.open, "bzip2": bz2.open, "xz": lzma.open}
    opener = openers[kind]
    return cast(IO[bytes], opener(source, "rb"))


def _zip_member(path: Path, name: str) -> IO[bytes]:
    import zipfile

    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as err:
        raise InputError(f"cannot read {name}: a damaged zip archive ({err})") from None
    with archive:
        members = [
            info
            for info in archive.infolist()
            if not info.is_dir() and not info.filename.startswith("__MACOSX/")
        ]
        if len(members) != 1:
            listed = ", ".join(info.filename for info in members[:3])
            more = " …" if len(members) > 3 else ""
            raise InputError(
                f"{name} is a zip archive of {len(members)} files"
                + (f" ({listed}{more})" if members else "")
                + ": one puzzle file is read from an archive; unzip it and give the file"
            )
        member = members[0]
        if member.flag_bits & 0x1:
            raise InputError(f"{name}: {member.filename} is encrypted in the zip archive")
        try:
            # (the member stays readable after the archive is closed: it holds the file)
            return archive.open(member)
        except NotImplementedError as err:
            raise InputError(f"cannot read {name}: {err}") from None
