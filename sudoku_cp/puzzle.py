"""Puzzle: a model plus givens — always a well-formed puzzle once constructed.

The checks here (``problems_with`` / ``is_solution``) are the project's one validator. They
read only the model's groups and the givens and share no code with any backend's search, so
the harness can trust them to judge every backend.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any

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

    __slots__ = ("cells", "size", "model", "_hash", "_givens", "_digits")

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
        self._finish(cells, size)

    @classmethod
    def _from_checked(cls, cells: Grid, size: int, model: Model, *,
                      digits: bytes | None = None, givens_checked: bool = False) -> Puzzle:
        """A puzzle from cells a parser has already checked: a tuple of N² ints in 0..N, for
        a size ``model`` takes (``digits``: the same as bytes, when the parser has them). Only
        the repeated-givens check is left to do — unless ``givens_checked`` says the caller
        does it (with :func:`clean_givens_each`, for many puzzles at once)."""
        puzzle = cls.__new__(cls)
        puzzle.model = model
        puzzle._finish(cells, size, digits, check_givens=not givens_checked)
        return puzzle

    def _finish(self, cells: Grid, size: int, digits: bytes | None = None,
                check_givens: bool = True) -> None:
        self.cells: Grid = cells
        self.size = size
        self._hash: int | None = None  # on demand: most puzzles are never hashed
        # the cells a byte each, for the validator's big-integer checks and the line form
        self._digits = bytes(cells) if digits is None else digits
        self._givens: int | None = None  # their one-hot form, made by the check or on demand
        if check_givens:
            lanes = _lanes(self.model, size)
            self._givens = lanes.encode(self._digits)
            if lanes.repeats(self._givens, self._digits):
                self._check_repeated_givens()  # names the group and the two cells

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
        if self._hash is None:
            self._hash = hash((self.cells, self.model))
        return self._hash

    def __repr__(self) -> str:
        return f"Puzzle({self.to_line()!r}, model={self.model.name!r})"

    def __str__(self) -> str:
        return self.to_line()

    # --- checking (the validator) ------------------------------------------------------------
    def _check_repeated_givens(self) -> None:
        """Raise for the first group, in the model's order, that holds a given twice (only
        called once the fast check has seen a repeat: this says where)."""
        for group, label in zip(self.groups(), self.model.group_labels(self.size), strict=True):
            self._report_repeat(group, label)

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
        # The common case, with a few big-integer operations (see _Lanes); any doubt falls
        # through to the slow path, which names every problem.
        if set(map(type, cand)) != {int}:
            return False
        return self._solves(cand)

    def _solves(self, cand: Grid) -> bool:
        """True when ``cand``, N² plain ints, fills the grid, keeps the givens and obeys every
        group. The harness calls it directly for solutions it has already made plain ints."""
        try:
            digits = bytes(cand)
        except (ValueError, TypeError):  # outside 0..255, or not an integer: not a digit
            return False
        lanes = _lanes(self.model, self.size)
        if 0 in digits.translate(lanes.digit):
            return False
        grid = lanes.encode(digits)
        givens = self._givens
        if givens is None:  # a puzzle whose givens were checked in a batch
            givens = self._givens = lanes.encode(self._digits)
        return (grid & givens) == givens and lanes.complete(grid)

    def is_solution(self, candidate: Sequence[int]) -> bool:
        """True when ``candidate`` fills every cell, keeps the givens and obeys every group."""
        return not self.problems_with(candidate)


class _Lanes:
    """Every group of a model on an N×N grid checked at once, with big-integer arithmetic.

    A grid becomes one integer with a field of ``width`` bits per cell, holding the cell's digit
    one-hot (digit d sets bit d-1; a blank, or anything outside 1..N, is an empty field). Adding
    copies of that integer shifted by a group's cell offsets puts, in the field of the group's
    first cell, the sum of the group's fields — for all groups of the same shape (all rows, all
    columns, all boxes) in one pass of a few additions. Fields are wide enough that no sum
    spills into its neighbour, so:

    - k one-hot terms have a sum with k set bits exactly when they are distinct (two equal
      terms carry, and a carry loses a bit). Summed over every group of a shape, the set bits
      at the groups' first cells number the givens those groups hold (counted once per group)
      exactly when no group repeats a digit;
    - a group of N filled cells holds each digit once exactly when its sum is 2**N - 1.

    A few µs for a 9×9 grid where a set per group costs about 15; the results are the same,
    which the tests check against the per-group reading on random grids.
    """

    def __init__(self, groups: Sequence[Sequence[int]], size: int) -> None:
        longest = max(len(g) for g in groups)
        self.nbytes = -(-(size - 1 + longest.bit_length()) // 8)
        width = 8 * self.nbytes
        self.tables = [
            bytes(((1 << (d - 1)) >> (8 * k)) & 0xFF if 1 <= d <= size else 0 for d in range(256))
            for k in range(self.nbytes)
        ]
        self.digit = bytes(1 if 1 <= d <= size else 0 for d in range(256))
        self.cells = size * size
        field = (1 << width) - 1
        everything = (1 << size) - 1
        shapes: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for group in groups:
            first = min(group)
            shapes.setdefault(tuple(sorted(cell - first for cell in group)), []).append(group)
        self.shapes = []
        for offsets, members in shapes.items():
            anchors = [min(group) for group in members]
            covered = [0] * (size * size)  # how many of the shape's groups hold each cell
            for group in members:
                for cell in group:
                    covered[cell] += 1
            self.shapes.append(_Shape(
                steps=_steps(offsets, size, width),
                mask=sum(field << (width * a) for a in anchors),
                full=sum(everything << (width * a) for a in anchors)
                if len(offsets) == size else None,
                cells=sum(covered),
                covered=None if set(covered) == {1} else bytes(covered),
            ))
        self._single = [(shape, shape.mask, shape.full) for shape in self.shapes]
        self._repeated: dict[int, list[tuple[_Shape, int, int | None]]] = {}

    def encode(self, digits: bytes) -> int:
        """The grid (one byte per cell) as one integer of one-hot fields."""
        if self.nbytes == 1:
            return int.from_bytes(digits.translate(self.tables[0]), "little")
        lanes = bytearray(len(digits) * self.nbytes)
        for k, table in enumerate(self.tables):
            lanes[k :: self.nbytes] = digits.translate(table)
        return int.from_bytes(lanes, "little")

    def repeats(self, grid: int, digits: bytes, count: int = 1) -> bool:
        """True when some group holds a digit twice; ``digits`` is the grid, a byte a cell
        (0 for a blank), ``grid`` its encoding — or ``count`` grids one after the other."""
        givens = len(digits) - digits.count(0)
        for shape, mask, _ in self._masks(count):
            held = (givens if shape.covered is None
                    else sum(compress(shape.covered * count, digits)))
            if (_spread(grid, shape.steps) & mask).bit_count() != held:
                return True
        return False

    def complete(self, grid: int, count: int = 1) -> bool:
        """True when every group of N cells holds each digit once and no shorter group holds
        one twice, for a grid — or ``count`` grids one after the other — whose every cell
        holds a digit 1..N."""
        for shape, mask, full in self._masks(count):
            total = _spread(grid, shape.steps) & mask
            if total != full if full is not None else total.bit_count() != shape.cells * count:
                return False
        return True

    def _masks(self, count: int) -> list[tuple[_Shape, int, int | None]]:
        """Each shape with its mask and full sums repeated for ``count`` grids in a row.

        Grids laid one after the other in one integer are checked like one: a group's sum
        lands on its first cell and takes in only its own cells, so whatever the shifts carry
        across the border between two grids lands on fields the masks leave out."""
        if count == 1:
            return self._single
        masks = self._repeated.get(count)
        if masks is None:
            if len(self._repeated) > 16:  # chunk sizes vary; keep a few
                self._repeated.clear()
            span = self.nbytes * self.cells

            def repeated(value: int) -> int:
                return int.from_bytes(value.to_bytes(span, "little") * count, "little")

            masks = self._repeated[count] = [
                (shape, repeated(shape.mask), None if shape.full is None else repeated(shape.full))
                for shape in self.shapes
            ]
        return masks

    def clean_each(self, grids: Sequence[bytes]) -> list[bool]:
        """For each grid (a byte a cell, 0 for a blank): True when no group repeats a digit.

        The grids are checked together, a batch at a time; a batch that fails is halved until
        the grids with repeats are found, so the usual all-clean chunk costs one pass."""

        def clean(batch: Sequence[bytes]) -> bool:
            joined = b"".join(batch)
            return not self.repeats(self.encode(joined), joined, len(batch))

        return _each(grids, clean)

    def solved_each(self, grids: Sequence[bytes], givens: Sequence[bytes]) -> list[bool]:
        """For each grid: True when it fills every cell with 1..N, keeps the ``givens`` beside
        it (same form, 0 for a blank) and obeys every group — checked together as above."""
        positions = range(len(grids))

        def solved(run: Sequence[int]) -> bool:
            joined = b"".join([grids[p] for p in run])
            if 0 in joined.translate(self.digit):
                return False
            # givens kept: a byte a cell is enough (no need for their one-hot form)
            given = b"".join([givens[p] for p in run])
            where = int.from_bytes(given.translate(_GIVEN), "little")
            if int.from_bytes(joined, "little") & where != int.from_bytes(given, "little"):
                return False
            return self.complete(self.encode(joined), len(run))

        return _each(positions, solved)


@dataclass(frozen=True, slots=True)
class _Shape:
    """The groups of one shape: how to add them up (_steps), where their sums land (mask),
    what those sums are when every group of N cells is complete (full), how many cells the
    groups hold in all (cells) and, unless it is one, how many of them hold each cell."""

    steps: tuple[tuple[int, int], ...]
    mask: int
    full: int | None
    cells: int
    covered: bytes | None


def _steps(offsets: tuple[int, ...], size: int, width: int) -> tuple[tuple[int, int], ...]:
    """The shifts that add up copies of a grid shifted by every offset of a shape.

    The offsets are split into runs of evenly spaced terms — a row or a column is one run, a box
    a run of runs — and each run is added up by doubling (nine terms take four shifts); any
    other shape is added up one term at a time. Each step is ``(kind, shift)``: START a run on
    the total so far (block = total), TAKE (total = block >> shift), ADD (total += block >>
    shift) or DOUBLE (block += block >> shift).
    """
    k = len(offsets)
    runs: list[tuple[int, int]] = []  # (step, count): the offsets are sums of one term of each
    if k > 2 and offsets == tuple(range(0, offsets[1] * k, offsets[1])):
        runs = [(offsets[1], k)]  # a row, a column, a diagonal
    elif k > 2:
        across = next((i for i, o in enumerate(offsets) if o != i), k)
        down = k // across
        if across > 1 and across * down == k and offsets == tuple(
            r * size + c for r in range(down) for c in range(across)
        ):
            runs = [(1, across), (size, down)]  # a box, a window
    if not runs:
        return ((_START, 0), (_TAKE, 0), *((_ADD, width * o) for o in offsets[1:]))
    steps: list[tuple[int, int]] = []
    for step, count in runs:
        shift = width * step
        steps.append((_START, 0))
        span, done = 1, 0
        while True:
            if count & span:
                steps.append((_ADD if done else _TAKE, shift * done))
                done += span
            if span * 2 > count:
                break
            steps.append((_DOUBLE, shift * span))
            span *= 2
    return tuple(steps)


_START, _TAKE, _ADD, _DOUBLE = 0, 1, 2, 3


def _spread(grid: int, steps: tuple[tuple[int, int], ...]) -> int:
    """``grid`` added up over a shape's offsets by its steps (see :func:`_steps`)."""
    block = total = grid
    for kind, shift in steps:
        if kind == _DOUBLE:
            block += block >> shift
        elif kind == _ADD:
            total += block >> shift
        elif kind == _TAKE:
            total = block >> shift
        else:
            block = total
    return total


_GIVEN = bytes([0] + [0xFF] * 255)
"""Translates a grid's bytes into a mask of its given cells."""


def _each(items: Sequence[Any], check: Callable[[Sequence[Any]], bool]) -> list[bool]:
    """``check`` for each item, asking it about whole runs of items: a run that passes passes
    for all its items; one that fails is halved until the failing items stand alone."""
    passed = [False] * len(items)
    runs = [(0, len(items))] if items else []
    while runs:
        low, high = runs.pop()
        if check(items[low:high]):
            passed[low:high] = [True] * (high - low)
        elif high - low > 1:
            middle = (low + high) // 2
            runs += [(middle, high), (low, middle)]
    return passed


def clean_givens_each(puzzles: Sequence[Puzzle]) -> list[bool]:
    """For each puzzle made with ``Puzzle._from_checked(…, givens_checked=True)``: True when no
    group of its model holds a given twice. Many puzzles are checked at once, far faster than
    one by one; for a puzzle found False, ``_check_repeated_givens`` names the group and the
    cells."""
    passed = [False] * len(puzzles)
    for (model, size), positions in _kinds(puzzles, range(len(puzzles))).items():
        found = _lanes(model, size).clean_each([puzzles[p]._digits for p in positions])
        for position, ok in zip(positions, found, strict=True):
            passed[position] = ok
    return passed


def solved_each(pairs: Sequence[tuple[Puzzle, Grid]]) -> list[bytes | None]:
    """For each ``(puzzle, grid)``, where the grid holds N² plain ints: the grid as bytes (a
    byte a cell) when it solves the puzzle — :meth:`Puzzle.problems_with` has nothing to say
    — checked for many grids at once. None means "not plainly": ask ``problems_with`` why."""
    passed: list[bytes | None] = [None] * len(pairs)
    grids: list[bytes | None] = []
    for puzzle, grid in pairs:
        try:
            grids.append(bytes(grid) if len(grid) == puzzle.size * puzzle.size else None)
        except (ValueError, TypeError):  # outside 0..255, or not an integer: not a digit
            grids.append(None)
    usable = [position for position, grid in enumerate(grids) if grid is not None]
    puzzles = [puzzle for puzzle, _ in pairs]
    for (model, size), positions in _kinds(puzzles, usable).items():
        found = _lanes(model, size).solved_each(
            [grids[p] for p in positions],  # type: ignore[misc]
            [puzzles[p]._digits for p in positions],
        )
        for position, ok in zip(positions, found, strict=True):
            if ok:
                passed[position] = grids[position]
    return passed


def _kinds(
    puzzles: Sequence[Puzzle], positions: Iterable[int]
) -> dict[tuple[Model, int], list[int]]:
    """The ``positions`` of ``puzzles`` by model and size, which the lanes are made for."""
    kinds: dict[tuple[Model, int], list[int]] = {}
    kind: tuple[Model, int] | None = None
    chosen: list[int] = []
    for position in positions:
        puzzle = puzzles[position]
        if kind is None or puzzle.model is not kind[0] or puzzle.size != kind[1]:
            kind = (puzzle.model, puzzle.size)  # (a run of one kind looks it up once)
            chosen = kinds.setdefault(kind, [])
        chosen.append(position)
    return kinds


@functools.lru_cache(maxsize=64)
def _lanes(model: Model, size: int) -> _Lanes:
    return _Lanes(model.groups(size), size)


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
