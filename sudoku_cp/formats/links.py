"""f-puzzles and SudokuPad links and their lz-string base64 payloads: finding the payload in a
link (or a bare one), and decoding it with a cap on its size. What the decoded JSON means is
:mod:`.fpuzzles`' job; SudokuPad's own payloads (``scl…``, ``ctc…``, ``scf…``, ``pack…``) and
short ids are found here and read by :mod:`.sudokupad`.

>>> payload_in("https://f-puzzles.com/?load=N4IgzglgXgpiBcBOAvkA")
'N4IgzglgXgpiBcBOAvkA'
>>> decode_payload("N4IgzglgXgpiBcBOAvkA")
{'size': 9}
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from ..errors import InputError, PuzzleError

MAX_PAYLOAD_CHARS = 1 << 20
"""The most an f-puzzles payload may hold, compressed or decompressed (1 MiB): a 16x16 puzzle
full of rules is a few tens of kB, so a bigger one is refused before it takes memory."""

FPUZZLES_LINK = "https://f-puzzles.com/?load="
"""The start of an f-puzzles link: the lz-string base64 payload follows."""

# The patterns are compiled on first use (:func:`_pattern`): ~1 ms that a puzzle line, which
# :func:`is_link` and :func:`payload_in` turn away by a plain look at its text, never needs.
_PATTERNS = {
    "base64": (r"[A-Za-z0-9+/=]+", 0),
    "prefix": (r"^fpuz(?:zles)?", re.IGNORECASE),
    # f-puzzles links, as SudokuPad's link converter recognises them (marktekfan/
    # sudokupad-penpa-import src/puzzle-link-converter.ts: /f-puzzles.com\/.*\?load=(…)/),
    # plus the ?id= short links.
    "fpuzzles": (
        r"(?:https?://)?(?:[a-z0-9-]+\.)*f-puzzles\.com/\S*?[?&](load|id)=([^&#\s]*)(?:[&#]\S*)?",
        re.IGNORECASE,
    ),
    # SudokuPad links (same source: app.crackingthecryptic.com or sudokupad.app, an optional
    # /sudoku path, an optional ?puzzleid=, then the puzzle id), and the sudokupad:// scheme.
    "sudokupad": (
        r"(?:https?://)?(?:(?:[a-z0-9-]+\.)*sudokupad\.app|(?:app\.|www\.)?crackingthecryptic\.com)"
        r"(?:/sudoku(?:\.html)?)?/?(?:\?(?:puzzleid|puzzle)=)?([^?&#\s]+)\S*",
        re.IGNORECASE,
    ),
    "scheme": (r"sudokupad://puzzle/([^#\s]+)(?:#\S*)?", re.IGNORECASE),
    # SudokuPad's own payload forms, bare (puzzleloader.js addPuzzleFormat: case-sensitive
    # prefixes scl, ctc, scf; FeaturePuzzlePack's pack), of base64 or percent-encoded text;
    # an scf id's title and author follow a '*' (puzzletools.js decodeSCF).
    "sudokupad_bare": (r"(?:(?:scl|ctc|pack)[A-Za-z0-9+/=%\\]+|scf[A-Za-z0-9+/=%\\*]+)", 0),
    "fragment": (r"[^#\s]*#(\S*)", 0),
    # Links to the Interactive Sudoku Solver's page (or another of its pages) with its query.
    "iss": (
        r"(?:https?://)?sigh\.github\.io/Interactive-Sudoku-Solver(?:/[^?#\s]*)?"
        r"(?:\?([^#\s]*))?(?:#\S*)?",
        re.IGNORECASE,
    ),
}
_STARTS = ("N4Ig", "fpuz", "Fpuz", "FPUZ", "scl", "ctc", "scf", "pack")
_HOSTS = ("f-puzzles.com", "sudokupad", "crackingthecryptic", "sigh.github.io")
# What re.IGNORECASE also matches to an 'i' or an 's' that lower() does not make one.
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})


@functools.cache
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(*_PATTERNS[name])


# --- finding a payload ---------------------------------------------------------------------------
class Found(NamedTuple):
    """A payload found in a link or bare: ``kind`` is ``fpuzzles`` (``payload`` the lz-string
    base64), ``sudokupad`` (``payload`` SudokuPad's puzzle id: a prefixed payload or a
    short id, as the link writes it; ``fragment`` the link's ``#…`` part) or ``iss``
    (``payload`` the puzzle text an ISS link carries: :func:`iss_text`)."""

    kind: str
    payload: str
    fragment: str = ""


def find_payload(text: str) -> Found | None:
    """The payload a link or bare payload holds (None when ``text`` is neither); an
    f-puzzles ``?id=`` short link is a ``PuzzleError`` saying so.

    >>> find_payload("https://sudokupad.app/sclN4Ig#puzzle1")
    Found(kind='sudokupad', payload='sclN4Ig', fragment='puzzle1')
    >>> find_payload("ctcN4Ig")
    Found(kind='sudokupad', payload='ctcN4Ig', fragment='')
    """
    word = text.strip()
    if not word.startswith(_STARTS) and not any(host in word.lower() for host in _HOSTS):
        return None  # (the usual case, decided at once: puzzle lines go through here)
    if any(ch.isspace() for ch in word):
        return None
    iss = iss_text(word)
    if iss is not None:
        return Found("iss", iss)
    payload = payload_in(word)
    if payload is not None:
        return Found("fpuzzles", payload)
    match = _pattern("scheme").fullmatch(word) or _pattern("sudokupad").fullmatch(word)
    if match:
        fragment = _pattern("fragment").fullmatch(word)
        return Found("sudokupad", match.group(1), fragment.group(1) if fragment else "")
    if _pattern("sudokupad_bare").fullmatch(word):
        return Found("sudokupad", word)
    return None


def iss_text(text: str) -> str | None:
    """The puzzle text an ISS link carries (None when ``text`` is no ISS link): its ``q``
    parameter, decoded as ISS reads it (sigh/Interactive-Sudoku-Solver
    ``js/solution_controller.js``: ``new URL(…).searchParams.get('q')``, so ``+`` is a space
    and ``%7E`` a ``~``; the page loads it as text typed in its input box). A link without
    ``q`` (where ISS shows an empty grid) is a ``PuzzleError``.

    >>> iss_text("https://sigh.github.io/Interactive-Sudoku-Solver/?q=.Shape~4x4.~R1C1_1")
    '.Shape~4x4.~R1C1_1'
    >>> iss_text(".Shape~4x4") is None
    True
    """
    word = text.strip()
    if "sigh.github.io" not in word.translate(_FOLD).lower():
        return None
    match = _pattern("iss").fullmatch(word)
    if match is None:
        return None
    from urllib.parse import parse_qs  # (here: puzzle lines never come this far)

    values = parse_qs(match.group(1) or "", keep_blank_values=True).get("q")
    if not values or not values[0].strip():
        raise PuzzleError(f"ISS link {short_text(word)} holds no puzzle (it has no ?q= parameter)")
    return values[0]


def is_payload(text: str) -> bool:
    """True for a bare f-puzzles or SudokuPad payload (which may hold '/', as a path does).

    >>> is_payload("sclN4Ig/x"), is_payload("puzzles/a.txt")
    (True, False)
    """
    word = text.strip()
    if not word.startswith(_STARTS) or len(word) > MAX_PAYLOAD_CHARS:
        return False
    found = find_payload(word)
    return found is not None and not is_link(word)


def payload_in(text: str) -> str | None:
    """The f-puzzles payload a link or bare payload holds (None when ``text`` is neither, or
    holds a SudokuPad puzzle in another form: :func:`find_payload` finds those); an f-puzzles
    ``?id=`` short link is a ``PuzzleError`` saying so.

    >>> payload_in("https://f-puzzles.com/?load=N4IgzglgXgpiBcBOAvkA")
    'N4IgzglgXgpiBcBOAvkA'
    >>> payload_in("https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcBOAvkA")
    'N4IgzglgXgpiBcBOAvkA'
    >>> payload_in("1.3.") is None
    True
    """
    word = text.strip()
    if not word.startswith(_STARTS) and not any(host in word.lower() for host in _HOSTS):
        return None  # (the usual case, decided at once: puzzle lines go through here)
    if any(ch.isspace() for ch in word):
        return None
    match = _pattern("fpuzzles").fullmatch(word)
    if match:
        kind, value = match.group(1).lower(), match.group(2)
        if kind == "id":
            raise PuzzleError(
                f"f-puzzles link with ?id={value}: a short link names a puzzle stored on the "
                "f-puzzles server, which cannot be read offline (open it and copy the ?load= "
                "link, or export the JSON)"
            )
        return value
    match = _pattern("scheme").fullmatch(word) or _pattern("sudokupad").fullmatch(word)
    if match:
        from urllib.parse import unquote  # (here: puzzle lines never come this far)

        ident = unquote(match.group(1))
        if not _pattern("prefix").match(ident):
            return None  # SudokuPad's own form or a short id: see find_payload
        return _pattern("prefix").sub("", ident, count=1)
    prefix, base64 = _pattern("prefix"), _pattern("base64")
    if prefix.match(word) and base64.fullmatch(prefix.sub("", word, count=1)):
        return prefix.sub("", word, count=1)
    # A bare payload: f-puzzles JSON starts '{"', which lz-string's base64 writes as N4Ig.
    if word.startswith("N4Ig") and base64.fullmatch(word):
        return word
    return None


def is_link(text: str) -> bool:
    """True for text that is an f-puzzles, SudokuPad or ISS link (even one that cannot be read).

    >>> is_link("https://f-puzzles.com/?id=abc"), is_link("puzzles/a.txt")
    (True, False)
    """
    word = text.strip()
    folded = word.translate(_FOLD).lower()
    if not any(host in folded for host in _HOSTS):
        return False  # (each pattern needs one of them: puzzle lines end here)
    return bool(
        _pattern("fpuzzles").fullmatch(word)
        or _pattern("sudokupad").fullmatch(word)
        or _pattern("scheme").fullmatch(word)
        or _pattern("iss").fullmatch(word)
    )


def short_text(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "…"


def lz_string() -> Any:
    """The ``lzstring`` module of py-lzstring, the distribution the project depends on, with
    the two functions used here; else one line saying what to install. (The older ``lzstring``
    distribution installs a module of the same name, with only a class ``LZString``: whichever
    of the two was installed last is the one imported.)"""
    try:
        import lzstring
    except ImportError:
        raise InputError(
            "f-puzzles links need py-lzstring, which is not installed: pip install py-lzstring"
        ) from None
    if not all(
        callable(getattr(lzstring, name, None))
        for name in ("compress_to_base64", "decompress_from_base64")
    ):
        raise InputError(
            "the module 'lzstring' installed is not py-lzstring's (it has no "
            "compress_to_base64: the older 'lzstring' distribution, which installs the same "
            "name, replaced it): pip uninstall -y lzstring && pip install --force-reinstall "
            "py-lzstring"
        )
    return lzstring


def decode_payload(payload: str) -> Any:
    """The JSON an lz-string base64 payload holds (as f-puzzles' ``?load=`` carries it).

    Links pass through web pages and chat programs, so, like SudokuPad's decoder, a
    percent-encoded payload is decoded first and spaces are read as the ``+`` they were.

    >>> decode_payload("N4IgzglgXgpiBcBOAvkA")
    {'size': 9}
    >>> decode_payload("N4Ig!")
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.PuzzleError: bad f-puzzles payload: not lz-string base64 (character '!')
    """
    import json
    from urllib.parse import unquote

    lzstring = lz_string()
    text = unquote(payload.strip()).replace(" ", "+")
    if len(text) > MAX_PAYLOAD_CHARS:
        raise PuzzleError(
            f"bad f-puzzles payload: {len(text):,} characters, more than the cap of "
            f"{MAX_PAYLOAD_CHARS:,}"
        )
    if not text:
        raise PuzzleError("bad f-puzzles payload: it is empty")
    base64 = _pattern("base64")
    bad = next((ch for ch in text if not base64.fullmatch(ch)), None)
    if bad is not None:
        raise PuzzleError(f"bad f-puzzles payload: not lz-string base64 (character {bad!r})")
    size = decompressed_size(text.rstrip("="), MAX_PAYLOAD_CHARS)
    if size is None:
        raise PuzzleError("bad f-puzzles payload: not lz-string base64 (it does not decompress)")
    if size > MAX_PAYLOAD_CHARS:
        raise PuzzleError(
            f"bad f-puzzles payload: it decompresses to more than the cap of "
            f"{MAX_PAYLOAD_CHARS:,} characters"
        )
    try:
        raw = lzstring.decompress_from_base64(text)
    except (KeyError, IndexError, ValueError):
        raw = None
    if not raw:
        raise PuzzleError("bad f-puzzles payload: not lz-string base64 (it does not decompress)")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise PuzzleError("bad f-puzzles payload: it decompresses, but not to JSON") from None


# lz-string's alphabet ends with "=" (64), of which none of the six bits a character gives is
# set: an "=" inside a payload reads as zero bits (py-lzstring lzstring/_encodings.py
# _BASE64_ALPHABET, as pieroxy/lz-string's keyStrBase64; SudokuPad's copy, marktekfan/
# sudokupad-penpa-import src/sudokupad/fpuzzlesdecoder.js base64Codec, leaves "=" out of its
# alphabet, and the undefined its getBaseValue gives reads as the same zero bits).
_B64_VALUES = {
    ch: i
    for i, ch in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
}


def decompressed_size(text: str, cap: int) -> int | None:
    """How many characters lz-string's base64 decompression of ``text`` gives — counted, not
    made, and stopping once past ``cap`` (a payload of a few kB can otherwise decompress to
    gigabytes); None for a stream that does not decompress.

    The same walk over the bits as ``lzstring.decompress_from_base64`` (6 bits a character,
    codes of growing width: 0 a byte, 1 a 16-bit character, 2 the end, others dictionary
    entries), keeping only each dictionary entry's length.
    """
    values = [_B64_VALUES[ch] for ch in text]
    position = 0  # bits read

    def bits(count: int) -> int:
        nonlocal position
        value = 0
        for power in range(count):
            index, bit = divmod(position, 6)
            if index >= len(values):
                raise IndexError
            if values[index] & (32 >> bit):
                value |= 1 << power
            position += 1
        return value

    try:
        first = bits(2)
        if first == 2:
            return 0
        if first not in (0, 1):
            return None
        bits(8 if first == 0 else 16)
        lengths = [0, 0, 0, 1]
        previous, total, width, enlarge = 1, 1, 3, 4
        while True:
            code = bits(width)
            if code == 2:
                return total
            if code in (0, 1):
                bits(8 if code == 0 else 16)
                lengths.append(1)
                code = len(lengths) - 1
                enlarge -= 1
                if enlarge == 0:
                    enlarge, width = 1 << width, width + 1
            if code < len(lengths):
                entry = lengths[code]
            elif code == len(lengths):
                entry = previous + 1
            else:
                return None
            total += entry
            if total > cap:
                return total
            lengths.append(previous + 1)
            previous = entry
            enlarge -= 1
            if enlarge == 0:
                enlarge, width = 1 << width, width + 1
    except IndexError:
        return None


_decompressed_size = decompressed_size
"""The name other modules imported it by before it was public (kept so their code still runs)."""


__all__ = [
    "FPUZZLES_LINK",
    "Found",
    "find_payload",
    "is_payload",
    "MAX_PAYLOAD_CHARS",
    "decode_payload",
    "decompressed_size",
    "is_link",
    "lz_string",
    "payload_in",
    "short_text",
]
