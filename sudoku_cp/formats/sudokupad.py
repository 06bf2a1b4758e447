"""SudokuPad's own puzzle payloads and links: ``scl…``/``ctc…``, ``scf…``, ``pack…`` (and the
``fpuz…``/``fpuzzles…`` f-puzzles payloads, read by :mod:`.links` and :mod:`.fpuzzles`), short
puzzle ids fetched from SudokuPad's server on request, and the link written back.

Every step follows SudokuPad's own loader, as vendored in marktekfan/sudokupad-penpa-import
``src/sudokupad/`` (the details, and the reference of each, are in ``docs/formats/sudokupad.md``):

- ``puzzleloader.js`` ``PuzzleLoader``: a puzzle id is a format prefix and its data
  (``addPuzzleFormat``: ``scl`` with the alias ``ctc``, ``fpuz`` with ``fpuzzles``, ``scf``;
  prefixes are case-sensitive); ``decompressPuzzleId`` strips the prefix, percent-decodes
  (``saveDecodeURIComponent``), repairs slashes a chat program collapsed (``fixFPuzzleSlashes``)
  and decompresses lz-string base64 — or keeps the text when it does not decompress
  (``saveDecompress``); ``saveJsonUnzip`` reads the text as JSON, else as zipped JSON
  (``puzzlezipper.js`` ``unzip``). An id with no prefix is a short id, stored on SudokuPad's
  server (``fetchPuzzle``, ``apiPuzzleUrlLocal``).
- ``puzzletools.js`` ``decodeSCF``: the classic compact form (9x9 givens, X and windoku flags).
- SudokuPad's ``feature-puzzlepack.js`` ``FeaturePuzzlePack`` (``handleParsePuzzlePack``,
  ``createPuzzlePack``, ``getHashIdx``; as vendored in SakanaAI/Sudoku-Bench
  ``src/sudokupad_interaction/sudoku_pad/sudoku_pad_scripts/``): a ``pack`` is lz-string JSON
  ``{"puzzles": [{"puzzle": <puzzle id>, …}, …]}``; the link's ``#puzzleN`` picks the puzzle
  (0 without one).

The decoding of an id's data (decompressing, the zipper, SCF) is :mod:`.sudokupad_decode`'s.
The decoded SudokuPad object becomes an f-puzzles object by
:func:`.sudokupad_rules.scl_to_fpuzzles`, which :mod:`.fpuzzles` then reads; the solution it
states (``metadata.solution`` or a ``solution: …`` cage, as ``fpuzzlesdecoder.js`` writes it)
becomes the puzzle's published one.

Reading settings (``--element``, ``--elements``, ``--fetch``) reach the reader through
:data:`_SETTINGS`, set once by the command line (:func:`reading`).

>>> import lzstring
>>> scl = decode_id("scl" + lzstring.compress_to_base64('{"cells":[[{}]]}'))
>>> scl
{'cells': [[{}]]}
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleError
from .links import MAX_PAYLOAD_CHARS, short_text
from .sudokupad_decode import decode_scf, decompress_id, json_unzip, parse_json

# --- reading settings -----------------------------------------------------------------------------
DEFAULT_FETCH_TIMEOUT = 10.0
"""Seconds a fetch from SudokuPad's server may take (puzzleloader.js fetchPuzzle: 10000 ms)."""
MAX_FETCH_TIMEOUT = 60.0
MAX_ELEMENT_SPECS = 1000
"""The most ``--element`` mappings one run takes (a puzzle has a few dozen elements)."""

API_ENV = "SUDOKU_CP_SUDOKUPAD_API"
"""The environment variable that replaces SudokuPad's puzzle API (for tests, or a mirror)."""
API_URL = "https://sudokupad.app/api/puzzle/"
"""Where SudokuPad itself fetches a short id (puzzleloader.js apiPuzzleUrlLocal)."""
LINK = "https://sudokupad.app/fpuzzles"
"""A SudokuPad link of an f-puzzles payload: SudokuPad's import of f-puzzles (its ``fpuz``
format, alias ``fpuzzles``: puzzleloader.js addPuzzleFormat)."""


@dataclass(frozen=True)
class ReadingSettings:
    """How SudokuPad puzzles are read: the element mappings (``--element KIND:STYLE=KEY``,
    passed to :func:`.sudokupad_rules.scl_to_fpuzzles`), whether a short id may be fetched
    from SudokuPad's server, and how long a fetch may take."""

    element_specs: tuple[str, ...] = ()
    fetch: bool = False
    timeout: float = DEFAULT_FETCH_TIMEOUT


_SETTINGS: ContextVar[ReadingSettings | None] = ContextVar("sudoku_cp_reading", default=None)


def current_settings() -> ReadingSettings | None:
    """The settings the command line set (None: the defaults). A :class:`.records.LineParser`
    keeps them, so a batch worker process reads its lines with them too."""
    return _SETTINGS.get()


def settings() -> ReadingSettings:
    """The settings in force."""
    return _SETTINGS.get() or ReadingSettings()


@contextmanager
def reading(given: ReadingSettings | None) -> Iterator[None]:
    """Read with ``given`` settings inside the block (None: leave them as they are)."""
    if given is None:
        yield
        return
    token = _SETTINGS.set(given)
    try:
        yield
    finally:
        _SETTINGS.reset(token)


def set_settings(given: ReadingSettings) -> Any:
    """Set the settings until :func:`reset_settings` (the command line's options); a token."""
    return _SETTINGS.set(given)


def reset_settings(token: Any) -> None:
    _SETTINGS.reset(token)


_SPEC = re.compile(r"[^:=\s][^:=]*:[^=]+=\S.*")


def check_element_spec(spec: str) -> str:
    """``spec`` when it has the shape ``KIND:STYLE=KEY`` (what it means is
    :func:`.sudokupad_elements.parse_element_specs`' to say), else a ``PuzzleError``.

    >>> check_element_spec("line:#67f067=whispers")
    'line:#67f067=whispers'
    """
    if not isinstance(spec, str) or len(spec) > 500 or not _SPEC.fullmatch(spec.strip()):
        raise PuzzleError(
            f"element mapping {short_text(str(spec))!r} is not KIND:STYLE=KEY "
            "(e.g. 'line:#67f067=whispers')"
        )
    return spec.strip()


def element_specs_from_toml(path: str) -> tuple[str, ...]:
    """The mappings of an ``--elements`` file: a TOML table ``[elements]`` of
    ``"KIND:STYLE" = "KEY"`` pairs, as ``KIND:STYLE=KEY`` strings; a ``PuzzleError`` naming
    the file and what is wrong otherwise."""
    import tomllib

    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_PAYLOAD_CHARS + 1)
    except OSError as err:
        raise PuzzleError(f"cannot read --elements file {path}: {err.strerror or err}") from None
    if len(raw) > MAX_PAYLOAD_CHARS:
        raise PuzzleError(f"--elements file {path} is larger than {MAX_PAYLOAD_CHARS:,} bytes")
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise PuzzleError(f"--elements file {path} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise PuzzleError(f"--elements file {path} is not TOML: {err}") from None
    table = data.get("elements")
    extra = sorted(set(data) - {"elements"})
    if not isinstance(table, dict) or extra:
        what = f"unknown key(s) {', '.join(extra)}" if extra else "no [elements] table"
        raise PuzzleError(
            f'--elements file {path}: {what} (it holds a table [elements] of "KIND:STYLE" = '
            '"KEY" pairs)'
        )
    if len(table) > MAX_ELEMENT_SPECS:
        raise PuzzleError(
            f"--elements file {path} maps {len(table):,} elements, more than {MAX_ELEMENT_SPECS:,}"
        )
    specs = []
    for style, key in table.items():
        if not isinstance(key, str):
            raise PuzzleError(
                f"--elements file {path}: {style!r} maps to {key!r}, not a rule key (a string)"
            )
        specs.append(check_element_spec(f"{style}={key}"))
    return tuple(specs)


# --- puzzle ids -----------------------------------------------------------------------------------
# SudokuPad's formats in its order (puzzleloader.js PuzzleFormats, then FeaturePuzzlePack's
# 'pack'); within one, the longer alias is tried first (createReAlias sorts by length). No
# flag: the prefixes are case-sensitive.
_FORMATS = (
    ("scl", "scl"),
    ("ctc", "scl"),
    ("fpuzzles", "fpuz"),
    ("fpuz", "fpuz"),
    ("scf", "scf"),
    ("pack", "pack"),
)
MAX_ID_CHARS = 200
"""The longest short id sent to SudokuPad's server (its ids are about ten characters)."""
_MAX_PACK_DEPTH = 1


def split_id(ident: str) -> tuple[str, str]:
    """``(format, data)`` of a puzzle id; the format is ``""`` for a short id.

    >>> split_id("ctcN4Ig"), split_id("fpuzzlesN4Ig"), split_id("wsj7iunsg6")
    (('scl', 'N4Ig'), ('fpuz', 'N4Ig'), ('', 'wsj7iunsg6'))
    """
    for prefix, name in _FORMATS:
        if ident.startswith(prefix):
            return name, ident[len(prefix) :]
    return "", ident


def sudokupad_data(ident: str, fragment: str = "", depth: int = 0) -> dict[str, Any]:
    """The f-puzzles object of a SudokuPad puzzle id (``scl…``, ``ctc…``, ``scf…``,
    ``pack…``, ``fpuz…``, or a short id, fetched when the settings allow); ``fragment`` is
    the link's ``#…`` part (a pack's ``#puzzleN``). A ``PuzzleError`` saying what is wrong
    otherwise."""
    kind, data = split_id(ident)
    if kind == "":
        return sudokupad_data(fetch_id(ident), fragment, depth)
    if kind == "fpuz":
        from . import fpuzzles
        from .links import decode_payload

        found = decode_payload(data)
        if not fpuzzles.is_fpuzzles(found):
            raise PuzzleError(
                "bad f-puzzles payload: its JSON is not an f-puzzles object (with a 'grid')"
            )
        return found
    if kind == "pack":
        if depth >= _MAX_PACK_DEPTH:
            raise PuzzleError("SudokuPad pack: a pack inside a pack is not read")
        return sudokupad_data(_pack_puzzle(data, fragment), "", depth + 1)
    text = decompress_id(data)
    return scl_data(decode_scf(text) if kind == "scf" else json_unzip(text))


def decode_id(ident: str) -> Any:
    """The SudokuPad object an ``scl``/``ctc`` (or ``scf``) id holds, before any typing."""
    kind, data = split_id(ident)
    if kind == "scf":
        return decode_scf(decompress_id(data))
    if kind != "scl":
        raise PuzzleError(f"SudokuPad id {short_text(ident)!r} is not an scl, ctc or scf payload")
    return json_unzip(decompress_id(data))


def scl_data(scl: Any) -> dict[str, Any]:
    """The f-puzzles object of a decoded SudokuPad object: its shape checked here, its
    elements typed by :func:`.sudokupad_rules.scl_to_fpuzzles` with the ``--element``
    mappings, and the solution it states kept as the f-puzzles ``solution``."""
    rows, columns = check_shape(scl)
    from .sudokupad_rules import scl_to_fpuzzles  # (the typing of elements: its own module)

    data = scl_to_fpuzzles(scl, settings().element_specs)
    if "solution" not in data:
        solution = stated_solution(scl, rows * columns)
        if solution is not None:
            data = dict(data, solution=solution)
    return data


def check_shape(scl: Any) -> tuple[int, int]:
    """The rows and columns of a SudokuPad object's ``cells`` (a list of rows, each a list
    of cell objects); a ``PuzzleError`` naming what is not so."""
    from ..model import MAX_SIZE

    if not isinstance(scl, dict):
        raise PuzzleError(f"SudokuPad payload: its JSON is {_kind(scl)}, not a puzzle object")
    cells = scl.get("cells")
    if not isinstance(cells, list) or not cells:
        raise PuzzleError(
            "SudokuPad payload: its 'cells' is "
            + ("missing" if cells is None else _kind(cells))
            + ", not a list of rows"
        )
    if len(cells) > MAX_SIZE:
        raise PuzzleError(
            f"SudokuPad payload: {len(cells)} rows; the largest puzzle is {MAX_SIZE}x{MAX_SIZE}"
        )
    columns = None
    for r, row in enumerate(cells, start=1):
        if not isinstance(row, list):
            raise PuzzleError(f"SudokuPad payload: row {r} of 'cells' is {_kind(row)}, not a list")
        if len(row) > MAX_SIZE:
            raise PuzzleError(
                f"SudokuPad payload: row {r} has {len(row)} cells; the largest puzzle is "
                f"{MAX_SIZE}x{MAX_SIZE}"
            )
        for c, cell in enumerate(row, start=1):
            if not isinstance(cell, dict):
                raise PuzzleError(
                    f"SudokuPad payload: cell r{r}c{c} is {_kind(cell)}, not a cell object"
                )
        columns = len(row) if columns is None else max(columns, len(row))
    assert columns is not None
    return len(cells), columns


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")


# The metadata tag of a cage value (fpuzzlesdecoder.js reMetaTags: /^([^: ]+):\s*([\s\S]+)/m).
_META = re.compile(r"([^: \n]+):\s*(.+)", re.DOTALL)


def stated_solution(scl: dict, cells: int) -> list[int] | None:
    """The solution a SudokuPad object states — ``metadata.solution``, else a cage valued
    ``solution: …`` (fpuzzlesdecoder.js parseSolution and parse.solution write it so: one
    character a cell, ``?`` or ``.`` for unknown ones) — as digits (0 unknown), or None
    when it states none of ``cells`` characters.

    >>> stated_solution({"cages": [{"value": "solution: 12?1"}]}, 4)
    [1, 2, 0, 1]
    """
    metadata = scl.get("metadata")
    text = metadata.get("solution") if isinstance(metadata, dict) else None
    if not isinstance(text, str):
        cages = scl.get("cages")
        for cage in cages if isinstance(cages, list) else ():
            value = cage.get("value") if isinstance(cage, dict) else None
            match = _META.match(value) if isinstance(value, str) else None
            if match and match.group(1) == "solution":
                text = match.group(2).strip()
                break
    if not isinstance(text, str):
        return None
    chars = text.split(",") if "," in text else list(text)
    if len(chars) != cells:
        return None
    digits = [int(ch) if ch.isascii() and ch.isdigit() and len(ch) <= 2 else 0 for ch in chars]
    return digits if any(digits) else None


# --- packs ----------------------------------------------------------------------------------------
_PACK_INDEX = re.compile(r"puzzle([0-9]{1,9})")


def _pack_puzzle(data: str, fragment: str) -> str:
    """The id of the pack's puzzle that ``#puzzleN`` names (the first without one), as
    SudokuPad's FeaturePuzzlePack opens it (getHashIdx, getPuzzle)."""
    try:
        pack = parse_json(decompress_id(data))  # (plain JSON: JSON.parse, no unzip)
    except ValueError as err:
        raise PuzzleError(f"bad SudokuPad pack: it is not JSON: {err}") from None
    puzzles = pack.get("puzzles") if isinstance(pack, dict) else None
    if not isinstance(puzzles, list) or not puzzles:
        raise PuzzleError("SudokuPad pack: its JSON has no list of 'puzzles'")
    found = _PACK_INDEX.search(fragment or "")
    index = int(found.group(1)) if found else 0
    if index >= len(puzzles):
        raise PuzzleError(
            f"SudokuPad pack: #puzzle{index} names no puzzle (it holds {len(puzzles)}, "
            f"#puzzle0 to #puzzle{len(puzzles) - 1})"
        )
    entry = puzzles[index]
    ident = entry.get("puzzle") if isinstance(entry, dict) else None
    if not isinstance(ident, str) or not ident:
        raise PuzzleError(f"SudokuPad pack: puzzle {index} has no 'puzzle' id")
    return ident


# --- fetching short ids ---------------------------------------------------------------------------
def api_url(ident: str) -> str:
    """Where a short id is fetched: SudokuPad's API (or :data:`API_ENV`'s URL) and the id,
    each part between slashes percent-encoded (puzzleloader.js apiEncodePuzzleId)."""
    import os
    from urllib.parse import quote, unquote

    base = os.environ.get(API_ENV) or API_URL
    if not base.startswith(("http://", "https://")):
        raise PuzzleError(f"{API_ENV}={short_text(base)!r} is not an http:// or https:// URL")
    parts = unquote(ident).split("/")
    return base.rstrip("/") + "/" + "/".join(quote(part, safe="") for part in parts)


def fetch_id(ident: str) -> str:
    """The puzzle id a short id stands for, fetched from SudokuPad's server when the settings
    allow (``--fetch``): the body is a puzzle id, else puzzle JSON read as ``scl``
    (puzzleloader.js fetchPuzzle). Offline, or on any failure, a one-line ``PuzzleError``."""
    if not ident or len(ident) > MAX_ID_CHARS or not ident.isprintable() or " " in ident:
        raise PuzzleError(
            f"SudokuPad puzzle {short_text(ident)!r} is neither a payload (scl…, ctc…, scf…, "
            "pack…, fpuzzles…) nor a short id"
        )
    given = settings()
    if not given.fetch:
        raise PuzzleError(
            f"SudokuPad puzzle {short_text(ident)!r} is stored on SudokuPad's server: add "
            f"--fetch to download it from {api_url(ident)} (or open it and copy a link "
            "with its payload)"
        )
    body = download(api_url(ident), given.timeout)
    kind, _ = split_id(body)
    return body if kind else "scl" + body


def download(url: str, timeout: float) -> str:
    """The text at ``url`` (standard library HTTP): at most :data:`MAX_PAYLOAD_CHARS` bytes,
    ``timeout`` seconds in all; a one-line ``PuzzleError`` naming the URL and the cause."""
    import time
    import urllib.error
    import urllib.request

    from ..version import __version__

    timeout = min(max(timeout, 0.001), MAX_FETCH_TIMEOUT)
    request = urllib.request.Request(url, headers={"User-Agent": f"sudoku-cp/{__version__}"})
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    total = 0
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                chunk = response.read(min(65536, MAX_PAYLOAD_CHARS + 1 - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
                if total > MAX_PAYLOAD_CHARS:
                    raise PuzzleError(
                        f"cannot fetch {url}: the answer is larger than the cap of "
                        f"{MAX_PAYLOAD_CHARS:,} bytes"
                    )
    except urllib.error.HTTPError as err:
        raise PuzzleError(f"cannot fetch {url}: HTTP {err.code} {err.reason}") from None
    except urllib.error.URLError as err:
        reason = err.reason
        if isinstance(reason, TimeoutError):
            raise PuzzleError(f"cannot fetch {url}: no answer within {timeout:g} s") from None
        cause = getattr(reason, "strerror", None) or reason
        raise PuzzleError(f"cannot fetch {url}: {cause}") from None
    except TimeoutError:  # (socket.timeout is TimeoutError)
        raise PuzzleError(f"cannot fetch {url}: no answer within {timeout:g} s") from None
    except (OSError, ValueError) as err:  # (a reset connection, a malformed answer)
        cause = getattr(err, "strerror", None) or err
        raise PuzzleError(f"cannot fetch {url}: {cause}") from None
    try:
        body = b"".join(chunks).decode("utf-8").strip()
    except UnicodeDecodeError:
        raise PuzzleError(f"cannot fetch {url}: the answer is not UTF-8 text") from None
    if not body:
        raise PuzzleError(f"cannot fetch {url}: the answer is empty")
    return body


# --- writing --------------------------------------------------------------------------------------
def sudokupad_link(data: dict[str, Any]) -> str:
    """The SudokuPad link that opens an f-puzzles object (SudokuPad's f-puzzles import:
    ``https://sudokupad.app/fpuzzles`` and the lz-string base64 payload).

    >>> sudokupad_link({"size": 9})
    'https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcBOAvkA'
    """
    import lzstring

    from .fpuzzles import fpuzzles_json

    return LINK + lzstring.compress_to_base64(fpuzzles_json(data))


__all__ = [
    "API_ENV",
    "API_URL",
    "LINK",
    "ReadingSettings",
    "check_element_spec",
    "current_settings",
    "decode_id",
    "element_specs_from_toml",
    "reading",
    "scl_data",
    "settings",
    "stated_solution",
    "sudokupad_data",
    "sudokupad_link",
]
