"""Puzzle: a model plus givens — always a well-formed puzzle once constructed.

The checks here (``problems_with`` / ``is_solution``) are the project's one validator, the
reference every other check answers to. They read only the model's groups and the givens,
one small checker per kind of rule, in plain Python a reader verifies at a glance, and share
no code with any backend's search, so the harness can trust them to judge every backend.
(Batches ask :mod:`sudoku_cp.fastcheck` first, an optimisation of these same checks that
defers to them whenever it is not sure.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .errors import DuplicateGivenError, GivensBreakRule, PuzzleError
from .model import MAX_SIZE, Model, load_model, other_box_hint

Grid = tuple[int, ...]
"""A grid as N² digits in reading order; 0 is a blank cell."""


def size_for_cells(count: int) -> int | None:
    """The grid side for ``count`` cells, or None when ``count`` is not a square."""
    side = math.isqrt(count)
    return side if side * side == count and side >= 1 else None


def possible_sizes_text(count: int) -> str:
    """The square cell counts just below and above ``count``: what a grid could have held.

    >>> possible_sizes_text(80)
    '64 (8x8) or 81 (9x9)'
    """
    low = math.isqrt(count)
    high = low + 1
    if low < 1:
        return f"{high * high} ({high}x{high})"
    return f"{low * low} ({low}x{low}) or {high * high} ({high}x{high})"


class Puzzle:
    """A puzzle: an N×N grid of givens (0 = blank) under a model.

    Construction checks everything a backend relies on: the cell count is a square, digits are
    in 0..N, the model fits the size and no digit is given twice in one group.

    ``published`` is the solution the puzzle's source states (an f-puzzles ``solution``, the
    setter's), N² digits, or None. No backend sees it: the harness validates it under the
    model as read and compares it with the backends' answer (:mod:`sudoku_cp.published`).

    >>> p = Puzzle([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])
    >>> p.size, p.givens_count, p.model.name
    (4, 4, 'classic')
    """

    __slots__ = ("cells", "size", "model", "published", "_hash", "_digits")
    cells: Grid
    size: int
    model: Model
    published: Grid | None
    _hash: int | None
    _digits: bytes | None

    def __init__(
        self,
        grid: Sequence[int] | Sequence[Sequence[int | None]],
        model: Model | str = "classic",
        *,
        published: Sequence[int] | None = None,
    ) -> None:
        _put_model(self, load_model(model))
        cells = _flatten(grid)
        size = size_for_cells(len(cells))
        if size is None or len(cells) == 0:
            raise PuzzleError(
                f"read {len(cells)} cells, which is not a square grid "
                f"(a puzzle has N*N cells, such as {possible_sizes_text(len(cells))})"
            )
        if size > MAX_SIZE:
            raise PuzzleError(
                f"a {size}x{size} grid is larger than the maximum {MAX_SIZE}x{MAX_SIZE}"
            )
        for cell, digit in enumerate(cells):
            if not 0 <= digit <= size:
                raise PuzzleError(
                    f"digit {digit} at row {cell // size + 1}, column {cell % size + 1} "
                    f"is outside 1..{size} (0 is a blank)"
                )
        self.model.check_size(size)
        self._set(cells, size, published=published)
        self.check_givens()

    @classmethod
    def from_parsed(
        cls,
        cells: Grid,
        size: int,
        model: Model,
        *,
        digits: bytes | None = None,
        check_givens: bool = True,
        published: Sequence[int] | None = None,
    ) -> Puzzle:
        """A puzzle from cells a parser has already checked: a tuple of N² ints in 0..N, for a
        size ``model`` takes (and the same as ``digits``, a byte a cell, if the parser has
        them). Only the repeated-givens check is left to do — unless ``check_givens=False``
        says the caller does it (for many puzzles at once with
        :func:`sudoku_cp.fastcheck.clean_givens_each`, then :meth:`check_givens` for any it
        flags). ``published`` is the solution the puzzle's source states (see
        :attr:`published`)."""
        puzzle = cls.__new__(cls)
        _put_model(puzzle, model)
        puzzle._set(cells, size, digits, published)
        if check_givens:
            puzzle.check_givens()
        return puzzle

    def _set(
        self,
        cells: Grid,
        size: int,
        digits: bytes | None = None,
        published: Sequence[int] | None = None,
    ) -> None:
        # (its model set first; the slots by __setstate__: __setattr__ refuses every change)
        self.__setstate__((cells, size, self.model, _published(published, size), digits))

    @property
    def digits(self) -> bytes:
        """The cells a byte each (0 for a blank): the form batches check and write fastest
        (made once; ``bytes()`` of a 9×9 tuple costs more than writing its line from it)."""
        if self._digits is None:
            _put_digits(self, bytes(self.cells))
        return self._digits  # type: ignore[return-value]  # (set just above)

    @classmethod
    def parse(cls, text: str, model: Model | str = "classic") -> Puzzle:
        """A puzzle from text in any single-puzzle format (line, grid, rows, JSON).

        >>> Puzzle.parse("1...\\n..1.\\n.1..\\n...1").givens_count
        4
        """
        from .formats.text import read_text  # (it imports no Puzzle: no import circle)

        return read_text(text, model, "auto", Puzzle.from_parsed)

    # --- reading ---------------------------------------------------------------------------
    @property
    def givens_count(self) -> int:
        return sum(1 for d in self.cells if d)

    def groups(self) -> tuple[tuple[int, ...], ...]:
        return self.model.groups(self.size)

    def peers(self) -> tuple[tuple[int, ...], ...]:
        return self.model.peers(self.size)

    def to_line(self) -> str:
        """The single-line form: N² symbols, ``.`` for blanks."""
        from .formats.line import format_line  # (it imports no Puzzle: no import circle)

        return format_line(self.cells, self.size)

    def with_published(self, published: Sequence[int], *, checked: bool = False) -> Puzzle:
        """The same puzzle with ``published`` as the solution its source states (see
        :attr:`published`; the givens were checked when this one was made). ``checked=True``
        says the caller has made it a tuple of N² ints 1..N already (a record's reader, for
        every line: the check again cost half a line's parse)."""
        grid = tuple(published) if checked else _published(published, self.size)
        puzzle = Puzzle.__new__(Puzzle)
        puzzle.__setstate__((self.cells, self.size, self.model, grid, self._digits))
        return puzzle

    def with_cells(self, cells: Sequence[int]) -> Puzzle:
        """The same model with other givens (and no published solution: it was the other
        givens')."""
        return Puzzle(cells, self.model)

    def __setattr__(self, name: str, value: object) -> None:
        # A Puzzle is a value: its digits and hash are cached, and the classic door reads the
        # cached digits, so an edited .cells was answered by the stale digits on one path and
        # the new cells on another. Its slots are set only by their descriptors (_set).
        raise AttributeError(f"a Puzzle cannot be changed: cannot set {name!r} (use with_cells)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Puzzle cannot be changed: cannot delete {name!r}")

    def __getstate__(self) -> tuple[Grid, int, Model, Grid | None, bytes | None]:
        # (not the hash: a string's differs from one process to the next)
        return self.cells, self.size, self.model, self.published, self._digits

    def __setstate__(self, state: tuple[Grid, int, Model, Grid | None, bytes | None]) -> None:
        # Each slot set by its descriptor (Puzzle.__setattr__ refuses); the hash on demand:
        # most puzzles are never hashed.
        cells, size, model, published, digits = state
        _put_cells(self, cells)
        _put_size(self, size)
        _put_model(self, model)
        _put_published(self, published)
        _put_hash(self, None)
        _put_digits(self, digits)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and self.cells == other.cells and self.model == other.model

    def __hash__(self) -> int:
        if self._hash is None:
            _put_hash(self, hash((self.cells, self.model)))
        return self._hash  # type: ignore[return-value]  # (set just above)

    def __repr__(self) -> str:
        return f"Puzzle({self.to_line()!r}, model={self.model.name!r})"

    def __str__(self) -> str:
        return self.to_line()

    def _repr_svg_(self) -> str:
        """The puzzle as SVG, for notebooks (Jupyter shows it instead of the repr)."""
        from .render.drawing import (
            puzzle_svg,  # (here, not above: the validator imports no drawing)
        )

        return puzzle_svg(self)

    # --- checking (the validator) ------------------------------------------------------------
    def check_givens(self) -> None:
        """Raise :class:`DuplicateGivenError` for the first group, in the model's order, that
        holds a given twice, naming the group and the two cells."""
        n = self.size
        for group, label in zip(self.groups(), self.model.group_labels(n), strict=True):
            seen: dict[int, int] = {}
            for cell in group:
                digit = self.cells[cell]
                if not digit:
                    continue
                if digit in seen:
                    hint = other_box_hint(self.model, n) if label.startswith("box ") else ""
                    cells = f"{cell_name(seen[digit], n)} and {cell_name(cell, n)}"
                    where = "" if cells in label else f": {cells}"  # (a pair's label names them)
                    raise DuplicateGivenError(
                        f"digit {digit} is given twice in {label}{where}{hint}"
                    )
                seen[digit] = cell
        self._check_rules_on_givens()

    def _check_rules_on_givens(self) -> None:
        """Raise :class:`GivensBreakRule` for the first rule that the givens alone break.

        The one rule for givens, whatever the rule: what the givens decide by themselves is
        checked, and breaking it makes the input ``invalid`` — a digit twice in a group (rows,
        boxes, anti-knight pairs, cages …, above), a pair of givens a relation forbids (a kropki
        dot, XV, non-consecutive, a thermometer's neighbours …: any pair rule), or a rule whose
        cells are all given and fail it. Givens that leave a rule no way to hold only together
        with the blanks are left to the search: ``none``. (Anti-knight pairs were ``invalid``
        and a thermometer, kropki or non-consecutive pair of givens ``none``.)"""
        if not self.model.rules:
            return  # (and a plain solve imports no rule module)
        from .rules.base import PairRule

        n, cells = self.size, self.cells
        for rule in self.model.rules:
            if isinstance(rule, PairRule):
                for a, b in rule.pairs(n):
                    if cells[a] and cells[b] and not rule.allows(cells[a], cells[b]):
                        raise GivensBreakRule(
                            f"the givens break the {rule.title} rule: {cell_name(a, n)} = "
                            f"{cells[a]} and {cell_name(b, n)} = {cells[b]}"
                        )
                continue
            own = getattr(rule, "cells", None)
            if isinstance(own, tuple) and own and all(cells[c] for c in own):
                broken = rule.problems(cells, n)
                if broken:
                    raise GivensBreakRule(f"the givens break a rule: {broken[0]}")

    def problems_with(self, candidate: Sequence[int]) -> list[str]:
        """Why ``candidate`` is not a solution of this puzzle (empty when it is one): every
        cell holds a digit, every given is kept, and every rule of the model holds — each
        checked on its own, in plain code.

        >>> p = Puzzle([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0])
        >>> p.problems_with([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
        []
        >>> p.problems_with([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 2])
        ['row 4 repeats 2', 'column 4 repeats 2', 'box 4 repeats 2']
        """
        grid = tuple(candidate)
        n = self.size
        if len(grid) != n * n:
            return [f"has {len(grid)} cells, not {n * n}"]
        problems = _not_digits(grid, n)
        if problems:  # the rules below read digits only
            return problems
        return (
            _givens_changed(grid, self.cells, n)
            + _groups_repeating(grid, self)
            + [problem for rule in self.model.rules for problem in rule.problems(grid, n)]
        )

    def is_solution(self, candidate: Sequence[int]) -> bool:
        """True when ``candidate`` fills every cell, keeps the givens and obeys every rule."""
        return not self.problems_with(candidate)


# --- the validator's checkers: one per kind of rule ---------------------------------------------
def cell_name(cell: int, size: int) -> str:
    """``r3c4``: :func:`sudoku_cp.rules.cell_name`, whose module (the rule base classes) loads
    only when a message needs it."""
    from .rules.base import cell_name as name

    return name(cell, size)


def _not_digits(grid: Grid, size: int) -> list[str]:
    """Cells that do not hold a digit 1..N (a bool is not a digit, nor is 2.0)."""
    return [
        f"{cell_name(cell, size)} holds {value!r}, not a digit 1..{size}"
        for cell, value in enumerate(grid)
        if not (type(value) is int and 1 <= value <= size)
    ]


def _givens_changed(grid: Grid, givens: Grid, size: int) -> list[str]:
    """Givens the grid does not keep."""
    return [
        f"{cell_name(cell, size)} is {grid[cell]} but the given is {given}"
        for cell, given in enumerate(givens)
        if given and grid[cell] != given
    ]


def _groups_repeating(grid: Grid, puzzle: Puzzle) -> list[str]:
    """All-different groups (rows, columns, boxes, diagonals, windows …) holding a digit twice."""
    problems = []
    for group, label in zip(puzzle.groups(), puzzle.model.group_labels(puzzle.size), strict=True):
        digits = [grid[cell] for cell in group]
        if len(set(digits)) != len(digits):
            repeated = sorted({d for d in digits if digits.count(d) > 1})
            problems.append(f"{label} repeats {', '.join(map(str, repeated))}")
    return problems


# The slots' own setters: the only way a Puzzle's fields are set (Puzzle.__setattr__ refuses).
_put_cells: Any = vars(Puzzle)["cells"].__set__
_put_size: Any = vars(Puzzle)["size"].__set__
_put_model: Any = vars(Puzzle)["model"].__set__
_put_published: Any = vars(Puzzle)["published"].__set__
_put_hash: Any = vars(Puzzle)["_hash"].__set__
_put_digits: Any = vars(Puzzle)["_digits"].__set__


def _published(grid: Sequence[int] | None, size: int) -> Grid | None:
    """A published solution as a grid, or PuzzleError when it is not N² digits 1..N."""
    if grid is None:
        return None
    cells = tuple(grid)
    if len(cells) != size * size or not all(
        isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= size for d in cells
    ):
        raise PuzzleError(
            f"a published solution of a {size}x{size} puzzle is {size * size} digits 1..{size}"
        )
    return cells


def _flatten(grid: Sequence[int] | Sequence[Sequence[int | None]]) -> Grid:
    # Fast path for what the parsers and backends hand over: a flat tuple of ints.
    if type(grid) is tuple and all(type(v) is int for v in grid):
        return grid
    if isinstance(grid, str | bytes):
        raise PuzzleError("a grid must be a sequence of digits; use Puzzle.parse() for text")
    try:
        items: list[Any] = list(grid)
    except TypeError:
        raise PuzzleError(
            f"a grid must be a list of digits or of rows, not {type(grid).__name__}"
        ) from None
    nested = bool(items) and all(isinstance(row, list | tuple) for row in items)
    if nested:
        width = len(items)
        for r, row in enumerate(items, start=1):
            if len(row) != width:
                raise PuzzleError(
                    f"row {r} has {len(row)} cells but the grid has {width} rows (rows are ragged)"
                )
        items = [v for row in items for v in row]
    cells = []
    for i, value in enumerate(items):
        if value is None:
            cells.append(0)
        elif isinstance(value, bool) or not isinstance(value, int):
            raise PuzzleError(
                f"cell {i + 1} is {value!r}, not an integer digit (0 or None is blank)"
            )
        else:
            cells.append(value)
    return tuple(cells)
