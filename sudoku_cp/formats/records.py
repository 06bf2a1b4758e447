"""Records of inputs of many puzzles, and the parsing of one line of such an input.

A :class:`PuzzleRecord` is a puzzle read from a file or stream of many (or why it is not one).
A :class:`LineParser` turns one line of a one-puzzle-a-line input (line form, JSON Lines, a CSV
row) into its record; a :class:`PendingRecord` is such a line not parsed yet, and
:func:`parse_pending` parses many at once, checking their givens together — the batch path.
Finding the lines and telling the formats apart is :mod:`.files`' job.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..errors import PuzzleError, SudokuError
from ..model import Model
from ..puzzle import Puzzle
from .line import format_line, plain_codes
from .puzzles import parse_puzzle, puzzle_from_data


@dataclass(slots=True)
class PuzzleRecord:
    """One puzzle read from an input of many: the puzzle, or why it is not one.

    ``index`` counts records from 1; ``id`` comes from the input's id column or key, else it is
    ``str(index)``; ``line`` is the line the record starts on (for messages); ``text`` is the
    raw line as read (its start only, for a line too long to hold); ``expected`` holds the
    ``solution`` and ``solution_count`` the input states, when it states them.

    >>> from sudoku_cp.formats import read_input
    >>> record = next(read_input("1.....1........."))
    >>> record.id, record.puzzle.size, record.error
    ('1', 4, None)
    """

    index: int
    id: str
    line: int
    puzzle: Puzzle | None
    error: str | None
    text: str
    expected: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the record holds a puzzle."""
        return self.puzzle is not None


def make_record(
    index: int,
    line: Line,
    parse: Any,
    ident: str | None,
    expected: dict[str, Any] | None,
    prefix: bool,
    text: str | None = None,
) -> PuzzleRecord:
    """A record: ``parse()``'s puzzle, or the line's own error, or why parsing failed."""
    puzzle, error = None, line.error
    if error is None:
        try:
            made = parse()
            # (a solution beside a count above one is one of several: not the setter's)
            if (
                expected
                and made.published is None
                and "solution" in expected
                and expected.get("solution_count", 1) in (1, "1")
            ):
                made = made.with_published(stated_grid(expected["solution"], made), checked=True)
            puzzle = made  # (only once the record's every part is read)
        except SudokuError as err:
            error = f"line {line.number}: {err}" if prefix else str(err)
        except Exception as err:
            # A reader's own bug must cost this one line, not the batch (every line of every
            # input becomes its record here): the line is invalid, saying so.
            where = f"line {line.number}: " if prefix else ""
            error = f"{where}{reader_failed(err)}"
    # (positional, in the fields' order: this runs for every line of a file)
    return PuzzleRecord(
        index,
        ident or str(index),
        line.number,
        puzzle,
        error,
        line.text if text is None else text,
        {} if expected is None else expected,
    )


def stated_grid(solution: Any, puzzle: Puzzle) -> tuple[int, ...]:
    """The solution a record states (a JSON ``solution``, a CSV ``solution`` column) as the
    puzzle's published solution, which check and solve compare with what the backends find
    (:mod:`sudoku_cp.published`): the one witness independent of every backend. A solution
    that is not a full grid of the puzzle's size is the record's error, not left unread."""
    from .line import line_cells

    if isinstance(solution, list):  # rows of numbers, or one row of all of them
        rows = all(isinstance(row, list) for row in solution)
        flat = [v for row in solution for v in row] if rows else solution
        digits = tuple(v if type(v) is int else -1 for v in flat)
        if len(digits) != puzzle.size**2 or not all(1 <= d <= puzzle.size for d in digits):
            raise PuzzleError(
                f"solution: not the {puzzle.size**2} digits 1..{puzzle.size} of a "
                f"{puzzle.size}x{puzzle.size} solution"
            )
        return digits
    if not isinstance(solution, str):
        raise PuzzleError(f"solution: a line of {puzzle.size**2} digits, not {solution!r}"[:120])
    try:
        cells, size = line_cells(solution, puzzle.model)
    except PuzzleError as err:
        raise PuzzleError(f"solution: {err}") from None
    if size != puzzle.size or 0 in cells:
        raise PuzzleError(
            f"solution: {len(cells)} cells{' with blanks' if 0 in cells else ''}, not the "
            f"{puzzle.size**2} digits of a {puzzle.size}x{puzzle.size} solution"
        )
    return tuple(cells)


class CsvColumns(NamedTuple):
    """Where a CSV file keeps what: column positions from its header. (A named tuple: a
    frozen data class would cost every start-up ~0.5 ms to create, for CSV input alone.)"""

    header: tuple[str, ...]
    puzzle: int
    id: int | None
    solution: int | None
    count: int | None  # type: ignore[assignment]  # (shadows tuple.count, which no one calls)
    regions: int | None = None
    variant: int | None = None


def _reading_now() -> Any:
    """The SudokuPad reading settings the command line set (``--element``, ``--fetch``), or
    None. Only setting them loads :mod:`.sudokupad`, so a plain run never imports it here."""
    module = sys.modules.get(f"{__package__}.sudokupad")
    return None if module is None else module.current_settings()


@dataclass(frozen=True)
class LineParser:
    """How one line of a one-puzzle-a-line input (line form, JSON Lines, a CSV row) becomes
    its record. Small and picklable, so a worker process can do the parsing — with the
    reading settings in force where it was made (``reading``), which a worker has not."""

    kind: str
    model: Model
    prefix: bool = True
    columns: CsvColumns | None = None
    _sizes: dict[int, bool] = field(default_factory=dict, compare=False, repr=False)
    reading: Any = field(default_factory=_reading_now, compare=False, repr=False)

    def _fits(self, size: int) -> bool:
        """``model.fits(size) is None``, remembered: asked once for every line of a file."""
        fits = self._sizes.get(size)
        if fits is None:
            fits = self._sizes[size] = self.model.fits(size) is None
        return fits

    def record(
        self,
        index: int,
        number: int,
        text: str,
        error: str | None = None,
        unchecked: list[Puzzle] | None = None,
    ) -> PuzzleRecord:
        """The record of line ``number`` (the ``index``-th record of its input).

        With ``unchecked`` (see :func:`parse_pending`), a puzzle read by the shortcut for plain
        lines skips the repeated-givens check and is appended there, to be checked with many
        others at once."""
        if self.reading is not None:
            from .sudokupad import reading

            with reading(self.reading):
                return self._record(index, number, text, error, unchecked)
        return self._record(index, number, text, error, unchecked)

    def _record(
        self,
        index: int,
        number: int,
        text: str,
        error: str | None,
        unchecked: list[Puzzle] | None,
    ) -> PuzzleRecord:
        line = Line(number, text, error)
        if error is not None:
            return make_record(index, line, None, None, None, self.prefix)
        if self.kind == "jsonl":
            return self._jsonl(index, line)
        if self.kind == "csv":
            return self._csv(index, line, unchecked)
        if self.kind in ("iss", "candidates"):
            return make_record(
                index,
                line,
                lambda: parse_puzzle(text, self.model, self.kind),
                None,
                None,
                self.prefix,
            )
        return make_record(
            index, line, lambda: self._puzzle(text, unchecked), None, None, self.prefix
        )

    def _puzzle(self, text: str, unchecked: list[Puzzle] | None = None) -> Puzzle:
        """``parse_puzzle(text, model, "line")``, with a shortcut for the usual line of a big
        file: nothing but N² known symbols, each a digit up to N, for a size the model fits."""
        plain = plain_codes(text)
        # (27x27 lines take the long way: 729 symbols may be a 9x9 candidate grid)
        if plain is not None and plain[1] != 27 and self._fits(plain[1]):
            raw, size = plain
            if unchecked is not None:
                puzzle = Puzzle.from_parsed(
                    tuple(raw), size, self.model, digits=raw, check_givens=False
                )
                unchecked.append(puzzle)
                return puzzle
            with contextlib.suppress(SudokuError):  # the long way says what is wrong
                return Puzzle.from_parsed(tuple(raw), size, self.model, digits=raw)
        return parse_puzzle(text, self.model, "line")

    def _variant(self, text: str, regions: str | None, variant: str | None) -> Puzzle:
        """A CSV row's puzzle under its own regions and variant (see :mod:`.variants`)."""
        from .variants import side_of, variant_model  # (loads rule kinds: not for plain lines)

        model = variant_model(self.model, side_of(text, regions), regions, variant)
        return parse_puzzle(text, model, "line")

    def _jsonl(self, index: int, line: Line) -> PuzzleRecord:
        import json  # (here: a plain puzzle line never needs it)

        try:
            data = json.loads(line.text)
        except json.JSONDecodeError as err:
            message = f"not valid JSON: {err.msg} at column {err.colno}"
            return make_record(index, line, lambda: fail(message), None, None, self.prefix)
        except (ValueError, RecursionError):
            return make_record(
                index,
                line,
                lambda: fail("not valid JSON (too long or too deep)"),
                None,
                None,
                self.prefix,
            )
        ident, expected = None, {}
        if isinstance(data, dict):
            from .fpuzzles import is_fpuzzles, stated_solution  # (loads every rule kind)

            raw_id = data.get("id", data.get("name"))
            ident = None if raw_id is None else str(raw_id)
            for key in ("solution", "solution_count"):
                if data.get(key) is not None:
                    expected[key] = data[key]
            if is_fpuzzles(data):  # its solution: N² digits, '.' for unknown ones
                expected.pop("solution", None)
                grid = data.get("grid")
                size = data.get("size", len(grid) if isinstance(grid, list) else 0)
                solution = stated_solution(data, size) if isinstance(size, int) else None
                if solution is not None and "." not in solution:
                    expected["solution"] = solution
            elif isinstance(data.get("puzzle"), str) and "solution" in expected:
                _iss_solution(data["puzzle"], expected)
        return make_record(
            index, line, lambda: puzzle_from_data(data, self.model), ident, expected, self.prefix
        )

    def _csv(self, index: int, line: Line, unchecked: list[Puzzle] | None = None) -> PuzzleRecord:
        columns = self.columns
        assert columns is not None
        fields = csv_fields(line.text)
        ident = _field(fields, columns.id)
        expected: dict[str, Any] = {}
        if columns.solution is not None and _field(fields, columns.solution):
            expected["solution"] = _field(fields, columns.solution)
        count_text = None if columns.count is None else _field(fields, columns.count)
        if count_text:
            expected["solution_count"] = (
                int(count_text)
                if count_text.isascii() and count_text.isdigit() and len(count_text) < 19
                else count_text
            )
        column = columns.puzzle
        extra = [f for f in fields[len(columns.header) :] if f.strip()]
        if extra:  # (a regions column missing from the header would otherwise go unread)
            message = (
                f"the row has {len(fields)} fields, but the header names "
                f"{len(columns.header)} column(s): {extra[0][:40]!r} has no column"
            )
            return make_record(index, line, lambda: fail(message), ident, expected, self.prefix)
        if column >= len(fields):
            message = (
                f"no puzzle: the row has {len(fields)} field(s), the puzzle is in "
                f"column {column + 1} ({columns.header[column]!r})"
            )
            return make_record(index, line, lambda: fail(message), ident, expected, self.prefix)
        puzzle_text = fields[column]
        regions = _field(fields, columns.regions)
        variant = _field(fields, columns.variant)
        if regions is not None or variant is not None:
            return make_record(
                index,
                line,
                lambda: self._variant(puzzle_text, regions, variant),
                ident,
                expected,
                self.prefix,
            )
        return make_record(
            index,
            line,
            lambda: self._puzzle(puzzle_text, unchecked),
            ident,
            expected,
            self.prefix,
        )


class PendingRecord(NamedTuple):
    """A line read but not yet parsed (see ``read_puzzles(…, defer=True)``): ``parse()`` makes
    its :class:`PuzzleRecord`. A tuple, so it travels to a worker process cheaply."""

    parser: LineParser
    index: int  # type: ignore[assignment]  # (shadows tuple.index, which no one calls)
    line: int
    text: str
    error: str | None = None

    def parse(self) -> PuzzleRecord:
        return self.parser.record(self.index, self.line, self.text, self.error)


def parse_pending(pending: Sequence[PendingRecord]) -> list[PuzzleRecord]:
    """``[p.parse() for p in pending]``, faster: the repeated-givens check of every puzzle read
    by the plain-line shortcut runs once for them all (:func:`clean_givens_each`). A puzzle
    that fails it is checked again on its own, which names the group and cells."""
    records: list[PuzzleRecord] = []
    unchecked: list[Puzzle] = []
    positions: list[int] = []  # the record each unchecked puzzle belongs to
    for item in pending:
        before = len(unchecked)
        records.append(item.parser.record(item.index, item.line, item.text, item.error, unchecked))
        if len(unchecked) > before:
            positions.append(len(records) - 1)
    from ..fastcheck import clean_givens_each  # (once a batch; a single puzzle needs none)

    clean = clean_givens_each(unchecked)
    for position, puzzle, ok in zip(positions, unchecked, clean, strict=True):
        if ok:
            continue
        try:
            puzzle.check_givens()  # the per-group reading has the last word
        except SudokuError as err:
            record = records[position]
            error = f"line {record.line}: {err}" if pending[position].parser.prefix else str(err)
            records[position] = dataclasses.replace(record, puzzle=None, error=error)
    return records


@dataclass(slots=True)
class Line:
    """One non-blank, non-comment line as read: its text, or why it could not be read."""

    number: int
    text: str
    error: str | None = None


def _iss_solution(puzzle: str, expected: dict[str, Any]) -> None:
    """An ISS record's solution (ISS's short form: letters from A on grids above 9x9) in line
    form, as the other records state theirs; left as it is when the puzzle is no ISS string."""
    from .text import may_be_iss

    if not may_be_iss(puzzle):
        return
    from . import iss

    if not iss.is_iss(puzzle):
        return
    solution = expected["solution"]
    side = int(len(solution) ** 0.5) if isinstance(solution, str) else 0
    digits = iss.published_digits(solution, side)
    if digits is not None:
        expected["solution"] = format_line(digits, side)


def reader_failed(err: BaseException) -> str:
    """The one line a record says when reading it raised something other than a SudokuError:
    a fault of sudoku-cp's, named as such.

    >>> reader_failed(KeyError("="))
    "sudoku-cp could not read it: KeyError '=' (a fault in sudoku-cp's reader; please report it)"
    """
    detail = " ".join(str(err).split())
    detail = detail if len(detail) <= 80 else detail[:80] + "…"
    return (
        f"sudoku-cp could not read it: {type(err).__name__} {detail}".rstrip()
        + " (a fault in sudoku-cp's reader; please report it)"
    )


def fail(message: str) -> Any:
    """Raise a ``PuzzleError``: the ``parse`` of a record whose error is known already."""
    raise PuzzleError(message)


def csv_fields(text: str) -> list[str]:
    """The fields of one CSV row."""
    if text and '"' not in text and "\r" not in text and "\n" not in text:
        return text.split(",")  # what the csv module gives for such a row, several times faster
    import csv  # (here: the shortcut above serves most rows, and a puzzle line never comes here)

    try:
        return next(csv.reader([text]), [])
    except csv.Error:
        return text.split(",")


def _field(fields: list[str], index: int | None) -> str | None:
    if index is None or index >= len(fields):
        return None
    return fields[index].strip() or None
