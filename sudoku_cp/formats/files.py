"""Inputs of many puzzles: files and streams, read line by line, their format detected.

The formats and the detection rules are described in the package docstring
(:mod:`sudoku_cp.formats`). :func:`read_input` takes a command-line argument (``-``, a path,
or puzzle text), :func:`read_puzzles` a path or an open stream; both stream
:class:`~sudoku_cp.formats.records.PuzzleRecord` items, one a puzzle.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, Literal, cast, overload

from ..errors import InputError, SudokuError
from ..model import MAX_SIZE, Model, load_model
from . import compressed, links
from .line import BLANKS, NUMBER
from .puzzles import parse_puzzle
from .records import (
    CsvColumns,
    Line,
    LineParser,
    PendingRecord,
    PuzzleRecord,
    csv_fields,
    fail,
    make_record,
)
from .text import (
    GRID_SEPARATORS,
    MAX_TEXT_CHARS,
    RECORD_FIELDS,
    REGION_KEYS,
    VARIANT_KEYS,
    check_format,
    content_lines,
    is_separator,
    may_be_iss,
    read_text,
)

if TYPE_CHECKING:
    from pathlib import Path

AnyRecord = PuzzleRecord | PendingRecord
"""What an input yields: records, or with ``defer`` pending ones for one-puzzle-a-line inputs."""

# The longest sensible line: a 64×64 puzzle and its solution as nested JSON lists (about
# 4 characters a cell, twice) with an id — 2**16 leaves room. Longer lines are skipped unread.
MAX_LINE_CHARS = 1 << 16

PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz")
ID_COLUMNS = ("id", "name")
SOLUTION_COLUMNS = ("solution", "solutions")
COUNT_COLUMNS = ("solution_count",)
_NOT_PUZZLE_COLUMNS = frozenset(
    ID_COLUMNS + SOLUTION_COLUMNS + COUNT_COLUMNS + REGION_KEYS + VARIANT_KEYS
)
_RULE_COLUMNS = ("cages", "cage")
"""Rules a CSV file cannot state (killer cages: JSON Lines, f-puzzles or SudokuPad)."""


def _refuse_unread_columns(name: str, header: list[str]) -> None:
    """A column of rules CSV does not read, or one that nearly names a column it reads
    ("regoins", "varient"), is refused: read as the file's own data, it would be dropped."""
    import difflib

    known = _NOT_PUZZLE_COLUMNS | set(PUZZLE_COLUMNS)
    for column in header:
        if column in known or column in RECORD_FIELDS or "." in column:
            continue  # (check's own columns: rating.level, backtrack.seconds …)
        if column in _RULE_COLUMNS:
            raise InputError(
                f"{name}: CSV does not read a {column!r} column (killer cages: write JSON Lines "
                "or f-puzzles)"
            )
        near = difflib.get_close_matches(column, known, n=1, cutoff=0.8)
        if near:
            raise InputError(
                f"{name}: unknown CSV column {column!r} (did you mean {near[0]!r}?): a "
                "misspelt column would be ignored"
            )


_NAME = re.compile(r"[a-z_][a-z0-9_ ]*")


class _Lines:
    """The significant lines of a stream, each read with a size cap (flat memory).

    Counts what it skipped, so an input with no puzzles can say why.
    """

    def __init__(self, stream: IO[Any], name: str) -> None:
        self.stream = stream
        self.name = name
        self.number = 0
        self.saw_comment = False
        self.significant = 0
        self._pushed: list[Line] = []
        try:
            probe = stream.read(0)
        except (OSError, ValueError) as err:
            raise InputError(f"cannot read {name}: {_reason(err)}") from None
        self.binary = isinstance(probe, bytes)

    def __iter__(self) -> Iterator[Line]:
        return self

    def push(self, line: Line) -> None:
        self._pushed.append(line)

    def __next__(self) -> Line:
        if self._pushed:
            return self._pushed.pop()
        while True:
            raw = self._readline(MAX_LINE_CHARS + 1)
            if not raw:
                raise StopIteration
            self.number += 1
            if len(raw) > MAX_LINE_CHARS:
                newline = b"\n" if self.binary else "\n"
                if not raw.endswith(newline):
                    return self._too_long(raw, newline)
            if self.number == 1:
                if self.binary and raw.startswith(codecs.BOM_UTF8):
                    raw = raw[len(codecs.BOM_UTF8) :]
                elif not self.binary and raw.startswith("\ufeff"):
                    raw = raw[1:]
            head = raw[:1]
            if head.isspace() or head in (b"#", "#", b"", ""):  # perhaps blank, or a comment
                stripped = raw.strip()
                if not stripped:
                    continue
                if stripped[:1] in (b"#", "#"):
                    self.saw_comment = True
                    continue
            self.significant += 1
            return self._decode(raw)

    def _readline(self, limit: int) -> Any:
        try:
            return self.stream.readline(limit)
        except UnicodeDecodeError as err:  # a text stream over bytes that are not UTF-8
            raise InputError(f"{self.name} is not UTF-8 text ({err.reason})") from None
        except compressed.damaged() as err:  # (evaluated only when something was raised)
            raise InputError(
                f"cannot read {self.name}: its compressed data is damaged or cut short "
                f"({_reason(err)})"
            ) from None
        except (OSError, ValueError) as err:
            raise InputError(f"cannot read {self.name}: {_reason(err)}") from None

    def _too_long(self, start: Any, newline: Any) -> Line:
        if self.significant == 0 and start[:4096].count(b"\x00" if self.binary else "\x00"):
            raise InputError(f"{self.name} holds binary data (a NUL byte), not puzzle text")
        # Skip the rest of the line in chunks: it is never held whole, never parsed.
        total = len(start)
        chunk = start
        tail = start[-2:]  # the line's last two characters read so far
        while chunk and not chunk.endswith(newline):
            chunk = self._readline(MAX_LINE_CHARS)
            total += len(chunk)
            tail = (tail + chunk[-2:])[-2:]
        if chunk.endswith(newline):
            total -= 2 if tail[:1] in ("\r", b"\r") else 1  # (a CRLF line's \r is not its own)
        self.significant += 1
        head = start[:80]
        if isinstance(head, bytes):
            head = head.decode("utf-8", "replace")
        return Line(
            self.number,
            head + "…",
            f"line {self.number} is too long for a puzzle: {total:,} characters "
            f"(at most {MAX_LINE_CHARS:,})",
        )

    def _decode(self, raw: Any) -> Line:
        first = self.significant == 1
        if self.binary:
            if b"\x00" in raw:
                if first:
                    raise InputError(
                        f"{self.name} holds binary data (a NUL byte on line {self.number}), "
                        f"not puzzle text"
                    )
                return Line(
                    self.number,
                    raw[:80].decode("utf-8", "replace"),
                    f"line {self.number} holds binary data (a NUL byte), not text",
                )
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                what = (
                    f"byte 0x{raw[err.start]:02x} at column {err.start + 1} of line {self.number}"
                )
                if first:
                    raise InputError(f"{self.name} is not UTF-8 text ({what})") from None
                return Line(
                    self.number,
                    raw[:80].decode("utf-8", "replace"),
                    f"line {self.number} is not UTF-8 text ({what})",
                )
        else:
            text = raw
            if "\x00" in text:
                if first:
                    raise InputError(
                        f"{self.name} holds binary data (a NUL character on line "
                        f"{self.number}), not puzzle text"
                    )
                return Line(
                    self.number,
                    text[:80],
                    f"line {self.number} holds binary data (a NUL character), not text",
                )
        return Line(self.number, text.rstrip("\r\n"))

    def no_puzzles_error(self, csv_header: bool = False) -> InputError:
        if csv_header:
            return InputError(f"{self.name} has a CSV header but no puzzles")
        if self.number == 0:
            return InputError(f"{self.name} is empty")
        if not self.saw_comment and not self.significant:
            return InputError(f"{self.name} holds only whitespace")
        return InputError(f"{self.name} holds no puzzles (only comments and blank lines)")


def _reason(err: BaseException) -> str:
    return getattr(err, "strerror", None) or str(err) or type(err).__name__


class _Reader:
    """Turns the lines of one input into records, by format; numbers records as it goes.

    With ``defer``, a record of a one-puzzle-a-line format comes out as a
    :class:`PendingRecord` — the line and the parser to read it with — so that the batch
    runner can leave the parsing to its worker processes.
    """

    def __init__(
        self, lines: _Lines, model: Model, prefix: bool = True, defer: bool = False
    ) -> None:
        self.lines = lines
        self.model = model
        self.prefix = prefix  # say "line N:" in errors (not for a lone puzzle text)
        self.defer = defer
        self.count = 0
        self.csv_header = False
        self.line_parser = LineParser("line", model, prefix)
        self.jsonl_parser = LineParser("jsonl", model, prefix)

    # -- making records --
    def record(
        self,
        line: Line,
        parse: Any,
        ident: str | None = None,
        expected: dict[str, Any] | None = None,
        prefix: bool | None = None,
        text: str | None = None,
    ) -> PuzzleRecord:
        self.count += 1
        return make_record(
            self.count,
            line,
            parse,
            ident,
            expected,
            self.prefix if prefix is None else prefix,
            text,
        )

    def parsed(self, parser: LineParser, line: Line) -> PuzzleRecord | PendingRecord:
        """The record of one line by ``parser`` (pending, when deferring)."""
        self.count += 1
        if self.defer:
            return PendingRecord(parser, self.count, line.number, line.text, line.error)
        return parser.record(self.count, line.number, line.text, line.error)

    def line_record(self, line: Line) -> PuzzleRecord | PendingRecord:
        return self.parsed(self.line_parser, line)

    def jsonl_record(self, line: Line) -> PuzzleRecord | PendingRecord:
        return self.parsed(self.jsonl_parser, line)

    # -- formats --
    def read(self, fmt: str) -> Iterator[AnyRecord]:
        if fmt in ("grid", "rows", "json"):
            yield from self.single(fmt)
        elif fmt == "line":
            yield from map(self.line_record, self.lines)
        elif fmt in ("iss", "candidates"):  # one ISS string, or candidate grid, a line
            self.line_parser = LineParser(fmt, self.line_parser.model, self.line_parser.prefix)
            yield from map(self.line_record, self.lines)
        elif fmt == "jsonl":
            yield from map(self.jsonl_record, self.lines)
        elif fmt == "csv":
            yield from self.csv_records()
        else:
            yield from self.auto()
        if self.count == 0:
            raise self.lines.no_puzzles_error(csv_header=self.csv_header)

    def auto(self) -> Iterator[AnyRecord]:
        first = None
        for line in self.lines:
            if line.error:  # unreadable: a record of its own, then look further
                yield self.record(line, None)
                continue
            first = line
            break
        if first is None:
            return
        head = first.text.lstrip()
        if head.startswith("{") and _complete_json(first.text):
            self.lines.push(first)
            yield from map(self.jsonl_record, self.lines)
        elif head.startswith(("[", "{")):
            yield from self.json_start(first)
        elif _is_csv_header(first.text):
            self.lines.push(first)
            yield from self.csv_records()
        elif _is_iss_line(first.text):  # ISS strings are one a line, never rows of a grid
            self.lines.push(first)
            yield from map(self.line_record, self.lines)
        else:
            yield from self.text_lines(first)

    def json_start(self, first: Line) -> Iterator[AnyRecord]:
        if _complete_json(first.text):
            self.lines.push(first)
            yield from map(self.jsonl_record, self.lines)
            return
        second = next(self.lines, None)
        if second is not None and second.error is None and _complete_json(second.text):
            yield self.jsonl_record(first)
            self.lines.push(second)
            yield from map(self.jsonl_record, self.lines)
            return
        if second is not None:
            self.lines.push(second)
        self.lines.push(first)
        yield from self.single("json")

    def text_lines(self, first: Line) -> Iterator[AnyRecord]:
        buffered = [first]
        chars = len(first.text)
        # Rows of numbers too long for a grid are still rows: read together, they are one grid
        # too large (one error), not a puzzle each. (A link or payload is no row of a grid,
        # however short: a SudokuPad short id is.)
        rows = _numbers_row(first.text)
        if (_cell_count(first.text) <= MAX_SIZE or rows) and not (
            links.is_link(first.text) or links.is_payload(first.text)
        ):
            # Perhaps one grid: look at the lines a grid could span, no more.
            for line in self.lines:
                buffered.append(line)
                chars += len(line.text)
                if (
                    line.error
                    or (
                        _cell_count(line.text) > MAX_SIZE and not (rows and _numbers_row(line.text))
                    )
                    or len(buffered) > 2 * MAX_SIZE + 1
                    or chars > MAX_TEXT_CHARS
                ):
                    break
            else:
                if len(buffered) > 1:
                    grid = self.grid_if_one(buffered)
                    if grid is not None:
                        yield grid
                        return
        yield from map(self.line_record, buffered)
        yield from map(self.line_record, self.lines)

    def grid_if_one(self, lines: list[Line]) -> PuzzleRecord | None:
        """The record of the whole text as one grid, or None when it is one puzzle a line."""
        text = "\n".join(line.text for line in lines)
        try:
            puzzle = parse_puzzle(text, self.model, "auto")
        except SudokuError as err:
            content = [ln for ln in lines if not is_separator(ln.text)]
            alone = sum(1 for ln in content if _reads_alone(ln.text, self.model))
            if 2 * alone >= len(content):
                return None
            error = str(err)
            return self.record(lines[0], lambda: fail(error), prefix=False, text=text)
        return self.record(lines[0], lambda: puzzle, text=text)

    def single(self, fmt: str) -> Iterator[AnyRecord]:
        """The whole input as one puzzle in a multi-line form."""
        parts: list[str] = []
        chars = 0
        start: Line | None = None
        for line in self.lines:
            start = start or line
            if line.error:
                yield self.record(line, None, prefix=False)
                return
            chars += len(line.text) + 1
            if chars > MAX_TEXT_CHARS:
                yield self.record(
                    start,
                    lambda: fail(
                        f"{self.lines.name} is too large to be one puzzle "
                        f"(more than {MAX_TEXT_CHARS:,} characters)"
                    ),
                    prefix=False,
                    text=start.text,
                )
                return
            parts.append(line.text)
        if start is None:
            return
        text = "\n".join(parts)
        yield self.record(
            start, lambda: parse_puzzle(text, self.model, fmt), prefix=False, text=text
        )

    def csv_records(self) -> Iterator[AnyRecord]:
        header_line = next(self.lines, None)
        if header_line is None:
            return
        if header_line.error:
            raise InputError(f"{self.lines.name}: cannot read the CSV header ({header_line.error})")
        self.csv_header = True
        header = [h.strip().lower() for h in csv_fields(header_line.text)]
        _refuse_unread_columns(self.lines.name, header)
        column = _puzzle_column(header)
        if column is None:
            raise InputError(
                f"{self.lines.name}: the CSV header has no puzzle column "
                f"(columns: {', '.join(header) or 'none'}; name one "
                f"{', '.join(repr(c) for c in PUZZLE_COLUMNS)})"
            )
        parser = LineParser(
            "csv",
            self.model,
            self.prefix,
            CsvColumns(
                header=tuple(header),
                puzzle=column,
                id=_first_index(header, ID_COLUMNS),
                solution=_first_index(header, SOLUTION_COLUMNS),
                count=_first_index(header, COUNT_COLUMNS),
                regions=_first_index(header, REGION_KEYS),
                variant=_first_index(header, VARIANT_KEYS),
            ),
        )
        for line in self.lines:
            if line.error is None and line.text.count('"') % 2:
                line = self._join_quoted(line)
            yield self.parsed(parser, line)

    def _join_quoted(self, line: Line) -> Line:
        """A CSV record whose quoted field spans lines: join them (within the line cap)."""
        text = line.text
        while text.count('"') % 2:
            more = next(self.lines, None)
            if more is None:
                break
            if more.error or len(text) + len(more.text) > MAX_LINE_CHARS:
                return Line(
                    line.number,
                    text[:80] + "…",
                    f"line {line.number}: a quoted field runs on past line "
                    f"{more.number} (unbalanced quote?)",
                )
            text += "\n" + more.text
        return Line(line.number, text)


def _first_index(header: list[str], names: Iterable[str]) -> int | None:
    for name in names:
        if name in header:
            return header.index(name)
    return None


def _puzzle_column(header: list[str]) -> int | None:
    named = _first_index(header, PUZZLE_COLUMNS)
    if named is not None:
        return named
    return next((i for i, h in enumerate(header) if h and h not in _NOT_PUZZLE_COLUMNS), None)


def _is_csv_header(text: str) -> bool:
    fields = [f.strip().lower() for f in csv_fields(text)]
    if any(f in PUZZLE_COLUMNS for f in fields):
        return True
    return len(fields) >= 2 and all(_NAME.fullmatch(f) for f in fields)


def _complete_json(text: str) -> bool:
    import json  # (here: a plain puzzle line never needs it)

    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _is_iss_line(text: str) -> bool:
    """True for an ISS constraint string (:func:`.iss.is_iss`), tried only on a line that
    starts with '.' and a letter or '~' (which loads the rule kinds)."""
    if not may_be_iss(text):
        return False
    from .iss import is_iss

    return is_iss(text)


def _cell_count(text: str) -> int:
    """How many cells a line holds, read as a grid row or a row of numbers."""
    tokens = _row_tokens(text)
    if tokens is not None:
        return len(tokens)
    return len("".join(text.translate(GRID_SEPARATORS).split()))


def _row_tokens(text: str) -> list[str] | None:
    tokens = [t for t in text.replace(",", " ").split() if t.strip("|+")]
    if len(tokens) > 1 and all(NUMBER.fullmatch(t) or t in BLANKS for t in tokens):
        return tokens
    return None


def _numbers_row(text: str) -> bool:
    """True for a line of two or more numbers (or blanks): a row of the rows form."""
    return _row_tokens(text) is not None


def _reads_alone(text: str, model: Model) -> bool:
    """True when the line is a puzzle of 4×4 or more in line form by itself."""
    # The line's shape alone: repeated givens (or givens breaking the model's rules) make an
    # invalid puzzle of that line, not a row of a grid.
    try:
        return read_text(text, model, "line", lambda cells, size, model: size) >= 4
    except SudokuError:
        return False


# --- sources ---------------------------------------------------------------------------------
@overload
def read_puzzles(
    source: str | Path | IO[str] | IO[bytes],
    model: Model | str = ...,
    fmt: str = ...,
    *,
    defer: Literal[False] = ...,
) -> Iterator[PuzzleRecord]: ...
@overload
def read_puzzles(
    source: str | Path | IO[str] | IO[bytes],
    model: Model | str = ...,
    fmt: str = ...,
    *,
    defer: bool,
) -> Iterator[AnyRecord]: ...
def read_puzzles(
    source: str | Path | IO[str] | IO[bytes],
    model: Model | str = "classic",
    fmt: str = "auto",
    *,
    defer: bool = False,
) -> Iterator[AnyRecord]:
    """Every puzzle in a file (a path) or an open stream, one record at a time (streaming).

    Problems with the source itself (missing, a directory, unreadable, binary, no puzzles at
    all) raise ``InputError``; a bad puzzle is a record with ``error`` set, and reading goes on.
    With ``defer``, each line of a one-puzzle-a-line input comes as a :class:`PendingRecord`
    whose ``parse()`` gives its record, so the parsing can be done elsewhere (the batch runner
    leaves it to its worker processes).

    >>> import io
    >>> records = list(read_puzzles(io.StringIO("id,puzzle\\nA,1.....1.........\\nB,1.3\\n")))
    >>> [(r.id, r.puzzle is not None) for r in records]
    [('A', True), ('B', False)]
    >>> records[1].error
    'line 3: read 3 cells; a puzzle has N*N cells: 16 (4x4), 36 (6x6), 64 (8x8), \
81 (9x9), 100 (10x10), 144 (12x12), 256 (16x16), 625 (25x25) …'
    """
    from pathlib import Path  # (here, not above: puzzle text given directly opens no file)

    fmt = check_format(fmt)
    rules = load_model(model)
    if isinstance(source, str | Path):
        stream, name = _open_path(Path(source)), str(source)
        return _read_stream(stream, name, rules, fmt, owned=True, defer=defer)
    given = getattr(source, "name", None)
    if given == "<stdin>":
        name = "standard input"
    elif not isinstance(given, str) or not given:
        name = "the input stream"
    else:
        name = given
    return _read_stream(source, name, rules, fmt, owned=False, defer=defer)


def _open_path(path: Path) -> IO[bytes]:
    try:
        raw = open(path, "rb")  # noqa: SIM115 — closed by the reading generator
    except FileNotFoundError:
        raise InputError(f"file not found: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not a puzzle file") from None
    except PermissionError:
        raise InputError(f"cannot read {path}: permission denied") from None
    except (OSError, ValueError) as err:
        raise InputError(f"cannot read {path}: {_reason(err)}") from None
    return compressed.open_file(path, raw)


def _read_stream(
    stream: IO[Any],
    name: str,
    model: Model,
    fmt: str,
    owned: bool,
    prefix: bool = True,
    defer: bool = False,
) -> Iterator[AnyRecord]:
    try:
        lines = _Lines(stream, name)
    except BaseException:
        if owned:
            stream.close()
        raise
    return _generate(lines, model, fmt, owned, prefix, defer)


def _generate(
    lines: _Lines, model: Model, fmt: str, owned: bool, prefix: bool, defer: bool
) -> Iterator[AnyRecord]:
    try:
        yield from _Reader(lines, model, prefix, defer).read(fmt)
    finally:
        if owned:
            lines.stream.close()


_PATH_SUFFIXES = (
    *(".txt", ".csv", ".jsonl", ".json", ".ndjson", ".sdk", ".sdm", ".ss", ".tsv"),
    *(".gz", ".bz2", ".xz", ".zip"),
)


@overload
def read_input(
    arg: str, model: Model | str = ..., fmt: str = ..., *, defer: Literal[False] = ...
) -> Iterator[PuzzleRecord]: ...
@overload
def read_input(
    arg: str, model: Model | str = ..., fmt: str = ..., *, defer: bool
) -> Iterator[AnyRecord]: ...
def read_input(
    arg: str, model: Model | str = "classic", fmt: str = "auto", *, defer: bool = False
) -> Iterator[AnyRecord]:
    """What a command-line argument means: ``-`` is standard input, an existing path is that
    file, anything else is puzzle text itself (one puzzle, or several lines of them).

    A missing file that looks like a path (has ``/`` or a file suffix such as ``.txt``) is an
    ``InputError``; bad puzzle text is a record with ``error`` set. ``defer`` is as in
    :func:`read_puzzles` (puzzle text given as the argument itself is always parsed here).

    >>> [r.puzzle.size for r in read_input("1.....1.........")]
    [4]
    >>> read_input("puzzles/missing.txt")
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.InputError: file not found: puzzles/missing.txt
    """
    fmt = check_format(fmt)
    rules = load_model(model)
    if arg == "-":
        stream = getattr(sys.stdin, "buffer", sys.stdin)  # bytes: we decode, with clear errors
        stream = compressed.open_stream(stream, "standard input")
        return _read_stream(stream, "standard input", rules, fmt, owned=False, defer=defer)
    if links.is_link(arg) or (links.is_payload(arg) and not _is_existing_path(arg)):
        # A link, or a bare payload, has '/' but is no path: it is the puzzle itself.
        return _read_text(arg, rules, fmt)
    existing = _is_existing_path(arg)
    if not existing and _OTHER_URL.fullmatch(arg.strip()):
        # (a path would have the URL's '//' folded: "file not found: https:/…")
        raise InputError(
            f"{links.short_text(arg.strip())}: not a puzzle link this tool reads (f-puzzles, "
            "SudokuPad and ISS links are; another web address is not downloaded: save the "
            "puzzle to a file, or paste its text)"
        )
    if not existing and _bare_payload(arg):
        # lz-string's base64 has '/' and '+', and a payload is hundreds of characters: it
        # was taken for a path ("file not found", "File name too long").
        return _read_text(arg, rules, fmt)
    if existing or looks_like_path(arg):
        # Opening says best what is wrong: missing, a directory, or no permission (also on
        # a parent directory, which makes the path look missing to a mere existence check).
        return read_puzzles(arg, rules, fmt, defer=defer)
    return _read_text(arg, rules, fmt)


_OTHER_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S*")
"""A web address (``scheme://``, one word: lines of links are puzzle text) that
:func:`links.is_link` did not take."""


def _bare_payload(arg: str) -> bool:
    """Whether ``arg`` is a bare f-puzzles payload (``N4Ig…`` in lz-string's base64)."""
    word = arg.strip()
    if not word.startswith("N4Ig") or "\n" in word:
        return False
    try:
        return links.payload_in(word) == word
    except SudokuError:
        return False


def _is_existing_path(arg: str) -> bool:
    # (Text with a line break may still name a file: a file name may hold one.)
    if len(arg) > 4096:
        return False
    try:
        return os.path.lexists(arg)
    except (OSError, ValueError):
        return False


def looks_like_path(arg: str) -> bool:
    if len(arg) > 4096:
        return False
    if "\n" in arg:  # puzzle text of several lines, unless it ends like a file name
        return arg.lower().endswith(_PATH_SUFFIXES)
    return "/" in arg or "\\" in arg or arg.strip().lower().endswith(_PATH_SUFFIXES)


def _read_text(text: str, model: Model, fmt: str) -> Iterator[PuzzleRecord]:
    """Records for puzzle text given directly; empty text is a bad record, not an InputError."""
    if not text.strip():
        message = "empty input" if not text else "input is only whitespace"
        return iter([PuzzleRecord(1, "1", 1, None, message, text)])
    lone = len(content_lines(text)) <= 1
    if lone and fmt == "auto" and not text.lstrip().startswith(("[", "{", "#")):
        fmt = "line"  # one line of text is one puzzle, never a CSV header without rows
    records = cast(  # (not deferred: records only)
        Iterator[PuzzleRecord],
        _read_stream(
            io.StringIO(text), "the puzzle text", model, fmt, owned=False, prefix=not lone
        ),
    )
    word = text.strip()
    if (
        lone
        and len(word) <= 255
        and not any(ch.isspace() or ch in BLANKS for ch in word)
        and any(ch.isalpha() for ch in word)
        and not links.is_payload(word)
    ):
        # A word such as 'puzzles' was probably meant as a file name: say that none exists.
        return _with_hint(records, f" (and there is no file named {word!r})")
    return records


def _with_hint(records: Iterator[PuzzleRecord], hint: str) -> Iterator[PuzzleRecord]:
    for record in records:
        if record.error is not None:
            record.error += hint
        yield record
