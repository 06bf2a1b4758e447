"""The validator's fast door: :class:`Puzzle`'s checks, for many grids at once.

An optimisation, and nothing more, of two checks of :mod:`sudoku_cp.puzzle` — whether a grid
solves a puzzle (:meth:`Puzzle.problems_with` is empty) and whether givens repeat a digit in a
group (:meth:`Puzzle.check_givens`) — for the batch runner, which asks them for every puzzle
and every solution (the plain checks cost ~20 µs a 9×9 grid, this about 1 µs in a chunk).
Only a *yes* from here is final: anything else (a grid it cannot read, a model with a rule it
does not know, a repeat) goes to the plain checks, which decide and write the message. Tests
check that both agree on valid and broken grids of every model.

Rules beyond groups (:mod:`sudoku_cp.rules`): their groups (a cage's cells, cells a knight's
move apart) are checked here with the others; the rest of a rule (a cage's sum, neighbours
not consecutive) by the rule's own plain checker, asked only for a grid the groups pass, so a
*yes* still means every rule holds. A puzzle with a model of its own (a jigsaw's regions, a
killer's cages) would need tables of its own, which cost more to build (~250 µs for a 9×9
jigsaw) than the plain checks of a few grids (~30 µs each): for such a model the door builds
the tables once it has been asked about :data:`WORTH_TABLES` of its grids (in one call or over
several), and defers until then. Shared models (a model file's) get their tables at once.

How: a grid becomes one big integer of one-hot fields, and shifted sums check every group of
the same shape at once (:class:`_Lanes`). Nothing here is shared with any backend.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import TYPE_CHECKING, Any

from .model import Model
from .puzzle import Grid, Puzzle

if TYPE_CHECKING:
    from .rules import Rule

__all__ = ["clean_givens_each", "solved_each"]


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
        shapes: dict[tuple[int, ...], list[Sequence[int]]] = {}
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
            self.shapes.append(
                _Shape(
                    steps=_steps(offsets, size, width),
                    mask=sum(field << (width * a) for a in anchors),
                    full=sum(everything << (width * a) for a in anchors)
                    if len(offsets) == size
                    else None,
                    cells=sum(covered),
                    covered=None if set(covered) == {1} else bytes(covered),
                )
            )
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
            held = givens if shape.covered is None else sum(compress(shape.covered * count, digits))
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
        if (
            across > 1
            and across * down == k
            and offsets == tuple(r * size + c for r in range(down) for c in range(across))
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
    """For each puzzle: True when no group of its model holds a given twice — what
    :meth:`Puzzle.check_givens` says without raising. Many puzzles are checked at once, far
    faster than one by one; False means "not plainly": ``check_givens`` names the group and the
    cells (or, for a rule this module does not know, decides)."""
    passed = [False] * len(puzzles)
    for (model, size), positions in _kinds(puzzles, range(len(puzzles))).items():
        if model.rules:
            continue  # its rules' givens are checked there too (pairs, filled lines, cages)
        if not _worth_lanes(model, size, len(positions)):
            continue  # a model of its own: the plain check is cheaper than tables
        found = _lanes(model, size).clean_each([puzzles[p].digits for p in positions])
        for position, ok in zip(positions, found, strict=True):
            passed[position] = ok
    return passed


def solved_each(pairs: Sequence[tuple[Puzzle, Grid]]) -> list[bytes | None]:
    """For each ``(puzzle, grid)``: the grid as bytes (a byte a cell) when it solves the puzzle
    — :meth:`Puzzle.problems_with` would have nothing to say — checked for many grids at once.
    None means "not plainly": ask ``problems_with``, which decides and says why."""
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
        if not _worth_lanes(model, size, len(positions)):
            continue  # a model of its own: the plain check is cheaper than tables
        found = _lanes(model, size).solved_each(
            [grids[p] for p in positions],  # type: ignore[misc]
            [puzzles[p].digits for p in positions],
        )
        checked = _checked_rules(model)
        for position, ok in zip(positions, found, strict=True):
            if ok and not any(rule.problems(pairs[position][1], size) for rule in checked):
                passed[position] = grids[position]
    return passed


def _checked_rules(model: Model) -> tuple[Rule, ...]:
    """The rules of ``model`` with a checker beyond their groups (a cage's sum …)."""
    from .rules import Rule  # (the rule classes load only when a model has rules)

    return tuple(rule for rule in model.rules if type(rule).problems is not Rule.problems)


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


WORTH_TABLES = 8
"""How many grids of one model the door is asked about before it builds the model's tables:
building them costs about as much as eight plain checks."""
_CACHED = 64
_TABLES: OrderedDict[tuple[Model, int], _Lanes] = OrderedDict()
_ASKED: OrderedDict[tuple[Model, int], int] = OrderedDict()
"""Grids asked about so far, for models without tables (the last few hundred models)."""


def _worth_lanes(model: Model, size: int, count: int) -> bool:
    """Whether to check ``count`` grids of ``model`` here rather than defer: its tables are
    cached, it is a shared model, or it has been asked about enough grids to pay for them."""
    key = (model, size)
    if key in _TABLES or not _of_its_own(model):
        return True
    asked = _ASKED.pop(key, 0) + count
    if asked >= WORTH_TABLES:
        return True
    _ASKED[key] = asked
    while len(_ASKED) > 4 * _CACHED:
        _ASKED.popitem(last=False)
    return False


def _of_its_own(model: Model) -> bool:
    """Whether ``model`` is likely a single puzzle's (a jigsaw's regions, a killer's cages)."""
    return model.regions is not None or any(not rule.is_global for rule in model.rules)


def _lanes(model: Model, size: int) -> _Lanes:
    """The tables of ``model`` at ``size``, the last few used kept (a batch of jigsaw puzzles,
    each with its own model, defers rather than evicting the shared ones)."""
    key = (model, size)
    lanes = _TABLES.get(key)
    if lanes is None:
        lanes = _TABLES[key] = _Lanes(model.groups(size), size)
        _ASKED.pop(key, None)
        while len(_TABLES) > _CACHED:
            _TABLES.popitem(last=False)
    else:
        _TABLES.move_to_end(key)
    return lanes
