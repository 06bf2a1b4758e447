"""Puzzle: a model plus givens — always a well-formed puzzle once constructed.

The checks here (``problems_with`` / ``is_solution``) are the project's one validator. They
read only the model's groups and the givens and share no code with any backend's search, so
the harness can trust them to judge every backend.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable, Sequence

from .errors import DuplicateGivenError, PuzzleError
from .model import MAX_SIZE, Model, load_model

Grid = tuple[int, ...]
"""A grid as N² digits in reading order; 0 is a blank cell."""


def cell_name(cell: int, size: int) -> str:
    """``r3c4``: the usual Sudoku name of a cell, rows and columns counted from 1."""
    return f"r{cell // size + 1}c{cell % size + 1}"


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

    >>> p = Puzzle([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])
    >>> p.size, p.givens_count, p.model.name
    (4, 4, 'classic')
    """

    __slots__ = ("cells", "size", "model", "_hash")

    def __init__(self, grid: Sequence[int] | Sequence[Sequence[int | None]],
                 model: Model | str = "classic") -> None:
        self.model = load_model(model)
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
        # min/max first: batches construct many puzzles, and the loop below is only for the message.
        if min(cells) < 0 or max(cells) > size:
            for cell, digit in enumerate(cells):
                if not 0 <= digit <= size:
                    raise PuzzleError(
                        f"digit {digit} at row {cell // size + 1}, column {cell % size + 1} "
                        f"is outside 1..{size} (0 is a blank)"
                    )
        self.model.check_size(size)
        self.cells: Grid = cells
        self.size = size
        self._hash = hash((cells, self.model))
        self._check_repeated_givens()

    @classmethod
    def parse(cls, text: str, model: Model | str = "classic") -> Puzzle:
        """A puzzle from text in any single-puzzle format (line, grid, rows, JSON).

        >>> Puzzle.parse("1...\\n..1.\\n.1..\\n...1").givens_count
        4
        """
        from .formats import parse_puzzle

        return parse_puzzle(text, model=model)

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
        from .formats import format_line

        return format_line(self.cells, self.size)

    def with_cells(self, cells: Sequence[int]) -> Puzzle:
        """The same model with other givens."""
        return Puzzle(cells, self.model)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and self.cells == other.cells and self.model == other.model

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Puzzle({self.to_line()!r}, model={self.model.name!r})"

    def __str__(self) -> str:
        return self.to_line()

    # --- checking (the validator) ------------------------------------------------------------
    def _check_repeated_givens(self) -> None:
        cells = self.cells
        for index, read in enumerate(_group_readers(self.model, self.size)[2]):
            digits = read(cells)
            blanks = digits.count(0)
            # Distinct digits, counting all blanks as one: fewer than expected means a repeat.
            if len(set(digits)) != len(digits) - blanks + (blanks > 0):
                self._report_repeat(
                    self.groups()[index], self.model.group_labels(self.size)[index]
                )

    def _report_repeat(self, group: tuple[int, ...], label: str) -> None:
        seen: dict[int, int] = {}
        for cell in group:
            digit = self.cells[cell]
            if not digit:
                continue
            if digit in seen:
                raise DuplicateGivenError(
                    f"digit {digit} is given twice in {label}: "
                    f"{cell_name(seen[digit], self.size)} and {cell_name(cell, self.size)}"
                )
            seen[digit] = cell

    def problems_with(self, candidate: Sequence[int]) -> list[str]:
        """Why ``candidate`` is not a solution of this puzzle (empty when it is one).

        >>> p = Puzzle([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0])
        >>> p.problems_with([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
        []
        """
        n = self.size
        cand = tuple(candidate)
        if len(cand) != n * n:
            return [f"has {len(cand)} cells, not {n * n}"]
        if self._plainly_valid(cand):
            return []
        problems = []
        for cell, digit in enumerate(cand):
            if not (type(digit) is int and 1 <= digit <= n):  # True is not a digit
                problems.append(f"{cell_name(cell, n)} holds {digit!r}, not a digit 1..{n}")
        if problems:
            return problems
        for cell, given in enumerate(self.cells):
            if given and cand[cell] != given:
                problems.append(f"{cell_name(cell, n)} is {cand[cell]} but the given is {given}")
        for group, label in zip(self.groups(), self.model.group_labels(n), strict=True):
            digits = [cand[c] for c in group]
            if len(set(digits)) != len(digits):
                repeated = sorted({d for d in digits if digits.count(d) > 1})
                problems.append(f"{label} repeats {', '.join(map(str, repeated))}")
        return problems

    def _plainly_valid(self, cand: Grid) -> bool:
        # The common case, checked with set operations only; any doubt falls through to the
        # slow path, which names every problem.
        n = self.size
        if set(map(type, cand)) != {int} or min(cand) < 1 or max(cand) > n:
            return False
        full_groups, short_groups, _ = _group_readers(self.model, n)
        # Digits all in 1..N, so a group of N cells with N distinct digits holds each once.
        if [len(set(read(cand))) for read in full_groups].count(n) != len(full_groups):
            return False
        if any(len(set(read(cand))) != width for read, width in short_groups):
            return False
        return [d if given else 0 for given, d in zip(self.cells, cand, strict=True)] == list(
            self.cells
        )

    def is_solution(self, candidate: Sequence[int]) -> bool:
        """True when ``candidate`` fills every cell, keeps the givens and obeys every group."""
        return not self.problems_with(candidate)


@functools.lru_cache(maxsize=64)
def _group_readers(
    model: Model, size: int
) -> tuple[list[Callable], list[tuple[Callable, int]], list[Callable]]:
    """itemgetters reading each group's digits: groups of N cells, shorter ones, and all."""
    full, short, every = [], [], []
    for group in model.groups(size):
        read = operator.itemgetter(*group) if len(group) > 1 else (lambda g, c=group[0]: (g[c],))
        every.append(read)
        if len(group) == size:
            full.append(read)
        else:
            short.append((read, len(group)))
    return full, short, every


def _flatten(grid: Sequence[int] | Sequence[Sequence[int | None]]) -> Grid:
    # Fast path for what the parsers and backends hand over: a flat tuple of ints.
    if type(grid) is tuple and all(type(v) is int for v in grid):
        return grid
    if isinstance(grid, str | bytes):
        raise PuzzleError("a grid must be a sequence of digits; use Puzzle.parse() for text")
    try:
        items = list(grid)
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
