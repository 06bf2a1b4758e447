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

The decoded SudokuPad object becomes an f-puzzles object by
:func:`.sudokupad_rules.scl_to_fpuzzles`, which :mod:`.fpuzzles` then reads; the solution it
states (``metadata.solution`` or a ``solution: …`` cage, as ``fpuzzlesdecoder.js`` writes it)
becomes the puzzle's published one.

Reading settings (``--element``, ``--elements``, ``--fetch``) reach the reader through
:data:`_SETTINGS`, set once by the command line (:func:`reading`).

>>> import lzstring
>>> unzip("{ce:[[{v:1},{}]],c:#0,r:t}")
'{"cells": [[{"value": 1}, {}]], "color": "#000000", "rounded": true}'
>>> scl = decode_id("scl" + lzstring.compress_to_base64('{"cells":[[{}]]}'))
>>> scl
{'cells': [[{}]]}
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleError
from .links import MAX_PAYLOAD_CHARS, short_text

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
    :func:`.sudokupad_rules.parse_element_specs`' to say), else a ``PuzzleError``.

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
        data = tomllib.loads(raw.decode("utf-8"))
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


# --- decompressing --------------------------------------------------------------------------------
_BASE64 = re.compile(r"[A-Za-z0-9+/]*=*")
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_SLASH_CHECKS, _SLASH_SECONDS = 400, 1.0  # fixFPuzzleSlashes' maxChecks and maxTime


def decompress_id(data: str) -> str:
    """The text of a puzzle id's data, its prefix stripped: percent-decoded, slashes
    repaired, lz-string base64 decompressed — or the text itself when it does not
    decompress (puzzleloader.js decompressPuzzleId, saveDecompress), within the size cap."""
    if len(data) > MAX_PAYLOAD_CHARS:
        raise PuzzleError(
            f"bad SudokuPad payload: {len(data):,} characters, more than the cap of "
            f"{MAX_PAYLOAD_CHARS:,}"
        )
    text = _decode_uri(data)
    if not text:
        raise PuzzleError("bad SudokuPad payload: it is empty")
    text = _fix_slashes(text) or text
    size = _compressed_size(text)
    if size is None or size < 0.5 * len(text):
        return text  # (not lz-string: SudokuPad reads the text itself, JSON or zipped)
    import lzstring

    try:
        raw = lzstring.decompress_from_base64(text)
    except (KeyError, IndexError, ValueError):  # (the count above walked the same bits)
        raw = None
    return raw if raw else text


def _decode_uri(text: str) -> str:
    """JavaScript's decodeURIComponent, kept only when it shortens the text
    (fpuzzlesdecoder.js saveDecodeURIComponent); a malformed escape is an error, as there."""
    if "%" not in text:
        return text
    from urllib.parse import unquote

    if _PERCENT.search(text):
        raise PuzzleError("bad SudokuPad payload: a '%' that starts no %XX escape")
    try:
        decoded = unquote(text, errors="strict")
    except UnicodeDecodeError:
        raise PuzzleError("bad SudokuPad payload: its %XX escapes are not UTF-8") from None
    return decoded if len(decoded) < len(text) else text


@functools.lru_cache(maxsize=4)  # (asked twice of a payload: by the slash repair, then here)
def _compressed_size(text: str) -> int | None:
    """How long lz-string base64 ``text`` decompresses to (None: it does not, or to
    nothing); a payload that would pass the cap is refused here, before it takes memory."""
    from .links import decompressed_size

    if not _BASE64.fullmatch(text):
        return None
    size = decompressed_size(text.rstrip("="), MAX_PAYLOAD_CHARS)
    if size is not None and size > MAX_PAYLOAD_CHARS:
        raise PuzzleError(
            f"bad SudokuPad payload: it decompresses to more than the cap of "
            f"{MAX_PAYLOAD_CHARS:,} characters"
        )
    return size or None


def _fix_slashes(text: str) -> str | None:
    """``text`` with single slashes doubled until it decompresses, as SudokuPad repairs a
    link whose ``//`` a chat program made ``/`` (fpuzzlesdecoder.js fixFPuzzleSlashes: one
    slash, then two …, at most 400 tries and one second); None when nothing decompresses."""
    if _compressed_size(text):
        return text
    if "/" not in text or not _BASE64.fullmatch(text):
        return None
    import time

    start, checks = time.monotonic(), 0

    def singles(data: str) -> list[int]:
        # Where a slash stands alone (neither half of '//'): a place to double it.
        return [
            i
            for i, ch in enumerate(data)
            if ch == "/"
            and (i == 0 or data[i - 1] != "/")
            and (i + 1 == len(data) or data[i + 1] != "/")
        ]

    def double(data: str, count: int) -> str | None:
        nonlocal checks
        if time.monotonic() - start >= _SLASH_SECONDS or checks >= _SLASH_CHECKS:
            return None
        checks += 1
        for place in singles(data):
            fixed = data[:place] + "/" + data[place:]
            if count == 1:
                if _compressed_size(fixed):
                    return fixed
            else:
                deeper = double(fixed, count - 1)
                if deeper:
                    return deeper
        return None

    count = 1
    while checks < _SLASH_CHECKS and time.monotonic() - start < _SLASH_SECONDS:
        found = double(text, count)
        if found:
            return found
        count += 1
        if count > text.count("/"):
            break
    return None


# --- JSON and the zipper --------------------------------------------------------------------------
def json_unzip(text: str) -> Any:
    """The JSON ``text`` holds, read as JSON and else as zipped JSON (puzzleloader.js
    saveJsonUnzip); a ``PuzzleError`` when it is neither."""
    try:
        return _json(text)
    except ValueError:
        pass
    try:
        return _json(unzip(text))
    except ValueError as err:
        raise PuzzleError(
            "bad SudokuPad payload: it is neither lz-string base64 nor SudokuPad's puzzle "
            f"JSON (zipped or not): {err}"
        ) from None


def _json(text: str, zipped: bool = False) -> Any:
    import json

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    try:
        data = json.loads(text, parse_constant=refuse)
    except RecursionError:
        raise ValueError("nesting too deep") from None
    except ValueError as err:
        raise ValueError(str(err).split(":")[0]) from None
    if zipped:
        try:
            data = _unzip_names(data)
        except RecursionError:
            raise ValueError("nesting too deep") from None
    return data


# puzzlezipper.js propMap: the short names the zipper writes for long ones.
PROP_MAP = {
    "color": "c",
    "cages": "ca",
    "center": "ct",
    "borderColor": "c1",
    "backgroundColor": "c2",
    "cells": "ce",
    "cellSize": "cs",
    "arrows": "a",
    "overlays": "o",
    "underlays": "u",
    "width": "w",
    "height": "h",
    "value": "v",
    "videos": "vd",
    "lines": "l",
    "rounded": "r",
    "regions": "re",
    "fontSize": "fs",
    "thickness": "th",
    "headLength": "hl",
    "wayPoints": "wp",
    "title": "t",
    "text": "te",
    "duration": "d",
    "d": "d2",
}
_LONG_NAMES = {short: long for long, short in PROP_MAP.items()}

# puzzlezipper.js unzipPuzzle's steps, in its order (the same patterns; $1 written \1).
_QUOTED = re.compile(r'("(?:[^"]|\\"\])*")')
_MARKER = re.compile(r'("__\{S[0-9]+\}__")')
_MARKER_INDEX = re.compile(r'"__\{S([0-9]+)\}__"')
_UNZIP_STEPS = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"([,{\[])([a-zA-Z0-9]+):", r'\1"\2":'),  # unquoted keys
        (r"([,{\[])(?=[,}\]])", r"\1_"),  # empty objects, dropped: mark them
        (r"{_}", "{}"),
        (r"([,{\[])_", r"\1{}"),
        (r"(:)f([,}\]])", r"\1false\2"),
        (r"(:)t([,}\]])", r"\1true\2"),
        (r"(:)#0([,}\]])", r'\1"#000000"\2'),
        (r"(:)#F([,}\]])", r'\1"#FFFFFF"\2'),
        (r"(:)([0-9a-fA-F]{6})([,}\]])", r'\1"#\2"\3'),  # colours without '#' and quotes
    )
)
_HEX_COLOUR = re.compile(r"[0-9a-fA-F]{6}")


def unzip(zipped: str) -> str:
    """Zipped puzzle JSON as JSON text, its long names back (puzzlezipper.js unzipPuzzle:
    single quotes, unquoted keys, dropped empty objects, ``t``/``f``, colour shortcuts).
    A ``ValueError`` when the result is not JSON."""
    import json

    if '"' not in zipped:  # (unzipQuotes: \' is a quote inside a string, ' delimits one)
        zipped = zipped.replace("\\'", "\u2019").replace("'", '"').replace("\u2019", "'")
    parts = _QUOTED.split(zipped)
    strings = parts[1::2]
    text = "".join(
        f'"__{{S{index // 2}}}__"' if index % 2 else part for index, part in enumerate(parts)
    )
    for pattern, replacement in _UNZIP_STEPS:
        text = pattern.sub(replacement, text)
    pieces = _MARKER.split(text)
    for index in range(1, len(pieces), 2):
        found = _MARKER_INDEX.fullmatch(pieces[index])
        assert found is not None
        pieces[index] = strings[int(found.group(1))]
    return json.dumps(_json("".join(pieces), zipped=True), ensure_ascii=False)


def _unzip_names(value: Any) -> Any:
    """Long names for short ones (puzzlezipper.js mapProps with the reversed propMap: a short
    name whose long one is there already is an error) and ``#`` before six-hex-digit
    strings (its mapValues)."""
    if isinstance(value, list):
        return [_unzip_names(item) for item in value]
    if isinstance(value, dict):
        result = dict(value)
        for key in list(value):  # (the keys as they were: a renamed key is not renamed again)
            name = _LONG_NAMES.get(key)
            if name is not None:
                if name in result:
                    raise ValueError(f"zipped name {key!r} and {name!r} are both present")
                result[name] = result.pop(key)
        return {key: _unzip_names(item) for key, item in result.items()}
    if isinstance(value, str) and _HEX_COLOUR.fullmatch(value):
        return "#" + value
    return value


# --- scf ------------------------------------------------------------------------------------------
_SCF_FORMAT = re.compile(r"(?:scf)?([^*\n]*)\*?([^\n]*)")
_SCF_ALPHABET = re.compile(r"[0-9A-Za-z]*")


def _dedoku(text: str) -> str:
    """SCF's run-length digits (puzzletools.js dedoku): a character is a digit and a run of
    zeros after it."""
    out = []
    for ch in text:
        code = ord(ch) - (61 if ch > "Z" else 55 if ch > "9" else 48)
        out.append(str(code % 10) + "0" * (code // 10))
    return "".join(out)


def _codoku(digits: str) -> str:
    """The inverse (puzzletools.js codoku), used as there to find where the givens end."""
    out = []
    for match in re.finditer(r".0{0,5}", digits):
        chunk = match.group()
        value = int(chunk[0]) + 10 * len(chunk)
        out.append(chr(value + (38 if value < 20 else 45 if value < 46 else 51)))
    return "".join(out)


def decode_scf(text: str) -> dict[str, Any]:
    """The SudokuPad object of SCF data (puzzletools.js decodeSCF): 81 run-length givens of a
    9x9 classic grid, then ``x`` (both diagonals), ``w`` (windoku's four extra boxes), and
    ``t``/``a`` title and author up to a ``*`` (``**`` is a ``*``).

    >>> puzzle = decode_scf("123456789" + "o" * 12 + "x")  # (row 1, then 12 runs of 6 zeros)
    >>> [cell.get("value") for cell in puzzle["cells"][0]][:4], puzzle["diagonal+"]
    ([1, 2, 3, 4], True)
    """
    match = _SCF_FORMAT.fullmatch(text)
    if match is None:
        raise PuzzleError("bad SudokuPad scf payload: it holds a line break")
    data, constraints = match.group(1), match.group(2)
    if not _SCF_ALPHABET.fullmatch(data):
        # (decodeSCF would read a sign or worse from such a character: refused instead)
        bad = next(ch for ch in data if not _SCF_ALPHABET.fullmatch(ch))
        raise PuzzleError(
            f"bad SudokuPad scf payload: character {bad!r} is not in its alphabet (0-9, A-Z, a-z)"
        )
    givens = _dedoku(data)
    if "*" not in text:
        givens = givens[:81]
        encoded = _codoku(givens)
        constraints = data[len(encoded) :] if data.startswith(encoded) else data
    if len(givens) < 81:
        raise PuzzleError(
            f"bad SudokuPad scf payload: it gives {len(givens)} of the 81 cells of its grid"
        )
    cells = [[{"value": int(givens[r * 9 + c])} if givens[r * 9 + c] != "0" else {}
              for c in range(9)] for r in range(9)]  # fmt: skip
    regions = [[[b, p] for p in range(9)] for b in range(9)]  # (decodeSCF: the 3x3 boxes)
    scl: dict[str, Any] = {"cells": cells, "regions": regions}
    metadata: dict[str, Any] = {}

    def add_meta(key: str, value: str) -> None:
        # decodeSCF addMetaData: a second value of a key makes it a list of them.
        if key not in metadata:
            metadata[key] = value
        else:
            if not isinstance(metadata[key], list):
                metadata[key] = [metadata[key]]
            metadata[key].append(value)

    add_meta("rules", "Normal sudoku rules apply.")
    i = 0
    while i < len(constraints):
        letter = constraints[i]
        i += 1
        if letter == "w":  # windoku
            scl["windoku"] = True
            scl.setdefault("underlays", []).extend(
                {"center": center, "width": 3, "height": 3, "backgroundColor": "#CFCFCF"}
                for center in ([2.5, 2.5], [2.5, 6.5], [6.5, 2.5], [6.5, 6.5])
            )
            add_meta("rules", "Windoku: there are 4 indicated additional 3x3 regions.")
        elif letter == "x":  # both diagonals
            scl["diagonal+"] = scl["diagonal-"] = True
            scl.setdefault("lines", []).extend(
                {"color": "#34BBE6", "thickness": 2, "wayPoints": way}
                for way in ([[0, 0], [9, 9]], [[0, 9], [9, 0]])
            )
            add_meta("rules", "X-sudoku: digits cannot repeat along major diagonals.")
        elif letter in "at":
            # The text runs to a lone '*'; decodeSCF then steps on by the unescaped length
            # (so past a '**' it lands inside the text, as SudokuPad does).
            j = i
            while j < len(constraints):
                if constraints[j] == "*" and constraints[j + 1 : j + 2] == "*":
                    j += 2
                    continue
                if constraints[j] == "*":
                    break
                j += 1
            value = constraints[i:j].replace("**", "*")
            add_meta("title" if letter == "t" else "author", value)
            i += len(value) + 1
    scl["metadata"] = metadata
    return scl


# --- packs ----------------------------------------------------------------------------------------
_PACK_INDEX = re.compile(r"puzzle([0-9]{1,9})")


def _pack_puzzle(data: str, fragment: str) -> str:
    """The id of the pack's puzzle that ``#puzzleN`` names (the first without one), as
    SudokuPad's FeaturePuzzlePack opens it (getHashIdx, getPuzzle)."""
    try:
        pack = _json(decompress_id(data))  # (plain JSON: JSON.parse, no unzip)
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
    "decode_scf",
    "element_specs_from_toml",
    "json_unzip",
    "reading",
    "scl_data",
    "settings",
    "stated_solution",
    "sudokupad_data",
    "sudokupad_link",
    "unzip",
]
