"""Decoding a SudokuPad puzzle id's data into its text and its puzzle object: the steps of
SudokuPad's own loader, as vendored in marktekfan/sudokupad-penpa-import ``src/sudokupad/``
(the details, and the reference of each, are in ``docs/formats/sudokupad.md``); :mod:`.sudokupad`
strips the prefix and calls them.

- ``puzzleloader.js`` ``decompressPuzzleId``: percent-decoding (``saveDecodeURIComponent``),
  slashes a chat program collapsed repaired (``fixFPuzzleSlashes``), lz-string base64
  decompressed — or the text kept when it does not decompress (``saveDecompress``);
  ``saveJsonUnzip`` reads the text as JSON, else as zipped JSON (``puzzlezipper.js``
  ``unzip``).
- ``puzzletools.js`` ``decodeSCF``: the classic compact form (9x9 givens, X and windoku flags).

>>> unzip("{ce:[[{v:1},{}]],c:#0,r:t}")
'{"cells": [[{"value": 1}, {}]], "color": "#000000", "rounded": true}'
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ..errors import PuzzleError
from .links import MAX_PAYLOAD_CHARS

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
        return parse_json(text)
    except ValueError:
        pass
    try:
        return parse_json(unzip(text))
    except ValueError as err:
        raise PuzzleError(
            "bad SudokuPad payload: it is neither lz-string base64 nor SudokuPad's puzzle "
            f"JSON (zipped or not): {err}"
        ) from None


def parse_json(text: str, zipped: bool = False) -> Any:
    """The JSON ``text`` holds, as ``JSON.parse`` reads it (``NaN`` and ``Infinity`` are not
    JSON); ``zipped``: with the zipper's long names and colours back. A ``ValueError`` saying
    what is wrong (nesting too deep for Python included)."""
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
    return json.dumps(parse_json("".join(pieces), zipped=True), ensure_ascii=False)


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
    # decodeSCF addGivens: regions[r][c] = [~~(r / 3) * 3 + ~~(c / 3), (r * 3) % 9 + c % 3],
    # which SudokuPad reads as a cell [row, column]: region r is the r-th 3x3 box.
    regions = [[[r // 3 * 3 + c // 3, r * 3 % 9 + c % 3] for c in range(9)] for r in range(9)]
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


__all__ = ["PROP_MAP", "decode_scf", "decompress_id", "json_unzip", "parse_json", "unzip"]
