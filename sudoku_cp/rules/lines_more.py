"""More line rules: slow thermometers, entropic, modular and nabner lines, zipper lines, double
arrows, region sum lines and lockout lines — each in a shape the backends already compile.

Each meaning is the one f-puzzles' own solver gives its key (dclamage/SudokuSolver,
``SudokuSolver/Constraints/*Constraint.cs``; ``lockout``: dclamage/SudokuVariantSolverJS,
``src/solver/Constraint/LockoutConstraint.ts``), cited at each class. A line through a cell
twice is refused (as for every line here): the references work on positions along the line,
and dclamage's AddWeakLink silently drops a candidate's link with itself, so what such a line
means there is an accident of the code rather than a rule.

The sum lines state several equal sums; a :class:`~.base.SumRule` is one equation, so such a
line is several rules, one per ``step`` (:func:`zipper_lines`, :func:`region_sum_lines`).

>>> SlowThermometer((0, 1, 2)).problems((1, 1, 0) + (0,) * 13, 4)
['the slow thermometer r1c1-r1c2-r1c3: r1c2 and r1c3 hold 1 and 0']
>>> entropic_tops(9), entropic_tops(4), entropic_tops(8)
((3, 6), (1, 3), (3, 5))
>>> [line.terms(4) for line in zipper_lines((0, 1, 2))]
[((0, 1), (2, 1), (1, -1))]
>>> region_segments((0, 1, 2, 6), [0, 0, 1, 1] * 2 + [2, 2, 3, 3] * 2)
((0, 1), (2, 6))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from .base import Group, PairRule, Rule, SumRule, TripleRule, cells_named, check_number
from .lines import LineRule


def _pairs_within(cells: Group, apart: int) -> tuple[tuple[int, int], ...]:
    """The pairs of cells at most ``apart`` places from each other along the line."""
    return tuple(
        (cells[i], cells[j])
        for i in range(len(cells))
        for j in range(i + 1, min(i + apart + 1, len(cells)))
    )


@dataclass(frozen=True)
class SlowThermometer(LineRule, PairRule):
    """Digits never decrease from the bulb, the line's first cell (f-puzzles
    ``slowthermometer``; dclamage's SlowThermometerConstraint links each cell to every later
    one so that the later is not smaller, and splits the line into its neighbouring pairs)."""

    key: ClassVar[str] = "slowthermometer"
    title: ClassVar[str] = "slow thermometer"
    relabelling: ClassVar[bool] = False

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return _pairs_within(self.cells, 1)

    def allows(self, a: int, b: int) -> bool:
        return a <= b

    def reversed(self, size: int) -> Rule | None:
        return SlowThermometer(self.cells[::-1])  # larger digits become smaller: the bulb moves


def entropic_tops(size: int) -> tuple[int, int]:
    """The largest digit of the low and of the middle entropic group on a ``size`` grid.

    dclamage's EntropicLineConstraint splits 1..N into three runs: with N % 3 == 1 the middle
    one is the longer (4x4: 1 | 23 | 4; 16x16: 1-5 | 6-11 | 12-16), else the outer ones are
    (8x8: 123 | 45 | 678; 5x5: 12 | 3 | 45); SudokuVariantSolverJS's EntropicLineConstraint
    splits the same way. On 1x1 and 2x2 grids a run is empty, as the formula gives."""
    small, large = size // 3, (size + 2) // 3
    outer = small if size % 3 == 1 else large
    middle = size - 2 * outer
    return outer, outer + middle


@dataclass(frozen=True)
class EntropicLine(LineRule, PairRule):
    """Every three cells in a row along the line hold one low, one middle and one high digit
    (f-puzzles ``entropicline``; the groups are :func:`entropic_tops`, ``tops`` the largest
    digit of the low and middle ones).

    dclamage's EntropicLineConstraint links every two cells of the line: a distance that is a
    multiple of 3 means the same group, any other distance different groups. Cells one and two
    apart in different groups say the same: three pairwise different groups are all three, and
    then each cell repeats the group of the cell three before it. So a two-cell line is two
    cells of different groups and a one-cell line says nothing."""

    tops: tuple[int, int] = (3, 6)
    key: ClassVar[str] = "entropicline"
    title: ClassVar[str] = "entropic line"
    relabelling: ClassVar[bool] = False

    def group(self, digit: int) -> int:
        low, middle = self.tops
        return 0 if digit <= low else 1 if digit <= middle else 2

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return _pairs_within(self.cells, 2)

    def allows(self, a: int, b: int) -> bool:
        return self.group(a) != self.group(b)

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return EntropicLine(tuple(where[cell] for cell in self.cells), self.tops)

    def reversed(self, size: int) -> Rule | None:
        return self  # the groups' sizes read the same both ways: low and high swap

    def check(self, size: int) -> None:
        super().check(size)
        if self.tops != entropic_tops(size):
            low, middle = entropic_tops(size)
            raise ModelError(
                f"{self.describe(size)}: its groups must be f-puzzles' for a {size}x{size} "
                f"grid (up to {low}, up to {middle}, the rest), not {self.tops!r}"
            )


@dataclass(frozen=True)
class ModularLine(LineRule, PairRule):
    """Every three cells in a row along the line hold digits of the three remainders mod 3
    (f-puzzles ``modularline``: 147, 258, 369 on 9x9; dclamage's ModularLineConstraint groups
    the digits by ``v % 3`` on every size and links every two cells as the entropic line does,
    so as there, cells one and two apart differ in remainder)."""

    key: ClassVar[str] = "modularline"
    title: ClassVar[str] = "modular line"
    relabelling: ClassVar[bool] = False

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return _pairs_within(self.cells, 2)

    def allows(self, a: int, b: int) -> bool:
        return a % 3 != b % 3

    def reversed(self, size: int) -> Rule | None:
        return self  # d -> N+1-d maps the remainders one to one


@dataclass(frozen=True)
class Nabner(LineRule, PairRule):
    """No two digits on the line are equal or consecutive (f-puzzles ``nabner``; dclamage's
    NabnerConstraint links every two cells of the line, not only neighbours, and refuses a
    line of more than N cells)."""

    key: ClassVar[str] = "nabner"
    title: ClassVar[str] = "nabner line"
    relabelling: ClassVar[bool] = False

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return _pairs_within(self.cells, len(self.cells))

    def allows(self, a: int, b: int) -> bool:
        return abs(a - b) >= 2

    def reversed(self, size: int) -> Rule | None:
        return self

    def check(self, size: int) -> None:
        super().check(size)
        if len(self.cells) > size:
            raise ModelError(
                f"{self.describe(size)}: a nabner line has at most {size} cells on a "
                f"{size}x{size} grid, not {len(self.cells)}"
            )


def lockout_gap(size: int) -> int:
    """How far apart a lockout line's ends are at least: N // 2 (4 on 9x9), as
    SudokuVariantSolverJS's LockoutConstraint sets it for every size (it reads no value)."""
    return size // 2


@dataclass(frozen=True)
class Lockout(LineRule, TripleRule):
    """The ends of the line differ by at least ``gap`` and no digit inside the line lies
    between them, the ends' own digits included (f-puzzles ``lockout``, as
    SudokuVariantSolverJS's LockoutConstraint reads it: in either order of the ends, each
    middle digit avoids ``[low end, low end + gap]`` and ``[high end - gap, high end]``, which
    with ends ``gap`` or more apart cover the ends' whole range). A line of two cells has no
    middle: the reader makes it a whispers pair; this class needs three cells."""

    gap: int = 4
    key: ClassVar[str] = "lockout"
    title: ClassVar[str] = "lockout line"
    relabelling: ClassVar[bool] = False

    def triples(self, size: int) -> tuple[tuple[int, int, int], ...]:
        first, last = self.cells[0], self.cells[-1]
        return tuple((first, middle, last) for middle in self.cells[1:-1])

    def allows(self, a: int, b: int, c: int) -> bool:
        low, high = min(a, c), max(a, c)
        return high - low >= self.gap and not low <= b <= high

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return Lockout(tuple(where[cell] for cell in self.cells), self.gap)

    def reversed(self, size: int) -> Rule | None:
        return self  # differences and betweenness survive d -> N+1-d

    def check(self, size: int) -> None:
        super().check(size)
        if len(self.cells) < 3:
            raise ModelError(f"{self.describe(size)}: a lockout line needs at least 3 cells")
        check_number(self.gap, self.describe(size), "its difference", 1, max(size - 1, 1))


# --- lines of equal sums -------------------------------------------------------------------------
@dataclass(frozen=True)
class EqualSums(LineRule, SumRule):
    """One equation of a line of equal sums: part ``step`` sums to the same as part
    ``step + 1`` (a line of k parts is k - 1 such rules; zipper lines, double arrows, region
    sum lines). Backends may add what the equations imply: any two parts of a line whose
    equations between them are all there sum to the same."""

    step: int = 0

    def parts(self) -> tuple[Group, ...]:
        raise NotImplementedError

    def terms(self, size: int) -> tuple[tuple[int, int], ...]:
        parts = self.parts()
        return tuple((cell, 1) for cell in parts[self.step]) + tuple(
            (cell, -1) for cell in parts[self.step + 1]
        )

    @property
    def goal(self) -> int:
        return 0

    def mismatch(self, grid: Sequence[int], size: int) -> str:
        parts = self.parts()
        a, b = parts[self.step], parts[self.step + 1]
        return (
            f"{self.describe(size)}: {cells_named(a, size)} sum to {sum(grid[c] for c in a)} "
            f"but {cells_named(b, size)} to {sum(grid[c] for c in b)}"
        )

    def reversed(self, size: int) -> Rule | None:
        # k cells summing to S sum to k(N+1) - S after d -> N+1-d: equal sums stay equal
        # only between parts of as many cells.
        parts = self.parts()
        return self if len(parts[self.step]) == len(parts[self.step + 1]) else None

    def check_step(self, size: int) -> None:
        count = len(self.parts())
        if isinstance(self.step, bool) or not isinstance(self.step, int):
            raise ModelError(f"{self.describe(size)}: step {self.step!r} is not a whole number")
        if not 0 <= self.step < count - 1:
            raise ModelError(
                f"{self.describe(size)}: step {self.step} is not one of the {count - 1} "
                f"equal sums of its {count} parts"
            )


def zipper_parts(cells: Group) -> tuple[Group, ...]:
    """A zipper line's parts: the cells the same distance from its middle, the outer pair
    first, and the middle cell alone when the length is odd (dclamage's ZipperLineConstraint
    and SudokuVariantSolverJS's agree)."""
    half = (len(cells) + 1) // 2
    return tuple(
        (cells[i],) if i == len(cells) - 1 - i else (cells[i], cells[len(cells) - 1 - i])
        for i in range(half)
    )


@dataclass(frozen=True)
class ZipperLine(EqualSums):
    """Cells the same distance from the line's middle sum to the same, which is the middle
    digit on a line of odd length (f-puzzles ``zipperline``). A line of 1 or 2 cells has one
    part and says nothing (dclamage adds no constraint for it)."""

    key: ClassVar[str] = "zipperline"
    title: ClassVar[str] = "zipper line"

    def parts(self) -> tuple[Group, ...]:
        return zipper_parts(self.cells)

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return ZipperLine(tuple(where[cell] for cell in self.cells), self.step)

    def check(self, size: int) -> None:
        super().check(size)
        if len(self.cells) < 3:
            raise ModelError(f"{self.describe(size)}: a zipper line needs at least 3 cells")
        self.check_step(size)


def zipper_lines(cells: Sequence[int]) -> tuple[ZipperLine, ...]:
    """The rules of one zipper line: one per pair of neighbouring parts (none for 1-2 cells)."""
    line = tuple(cells)
    return tuple(ZipperLine(line, step) for step in range(len(zipper_parts(line)) - 1))


@dataclass(frozen=True)
class DoubleArrow(EqualSums):
    """The two ends of the line sum to the same as the cells between them (f-puzzles
    ``doublearrow``; dclamage's DoubleArrowConstraint and SudokuVariantSolverJS's: a line of
    fewer than 3 cells says nothing)."""

    key: ClassVar[str] = "doublearrow"
    title: ClassVar[str] = "double arrow"

    def parts(self) -> tuple[Group, ...]:
        return (self.cells[0], self.cells[-1]), self.cells[1:-1]

    def check(self, size: int) -> None:
        super().check(size)
        if len(self.cells) < 3:
            raise ModelError(f"{self.describe(size)}: a double arrow needs at least 3 cells")
        self.check_step(size)


def region_segments(cells: Sequence[int], regions: Sequence[int | None]) -> tuple[Group, ...]:
    """A region sum line's parts: its runs of cells in one region, in order. A line that leaves
    a region and comes back starts a new run; a cell in no region is passed over and does not
    end a run (dclamage's RegionSumLinesConstraint and SudokuVariantSolverJS's agree)."""
    runs: list[list[int]] = []
    last: int | None = None
    for cell in cells:
        region = regions[cell]
        if region is None:
            continue
        if not runs or region != last:
            runs.append([])
        runs[-1].append(cell)
        last = region
    return tuple(tuple(run) for run in runs)


@dataclass(frozen=True)
class RegionSumLine(EqualSums):
    """Each run of the line inside one region sums to the same (f-puzzles ``regionsumline``).
    ``segments`` are those runs as the puzzle's regions (boxes or jigsaw) cut the line
    (:func:`region_segments`); a line in one run says nothing."""

    segments: tuple[Group, ...] = ()
    key: ClassVar[str] = "regionsumline"
    title: ClassVar[str] = "region sum line"

    def parts(self) -> tuple[Group, ...]:
        return self.segments

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return RegionSumLine(
            tuple(where[cell] for cell in self.cells),
            self.step,
            tuple(tuple(where[cell] for cell in run) for run in self.segments),
        )

    def check(self, size: int) -> None:
        super().check(size)
        runs = [run for run in self.segments if run]
        flat = [cell for run in runs for cell in run]
        place = {cell: i for i, cell in enumerate(self.cells)}
        order = [place.get(cell, -1) for cell in flat]
        if len(runs) != len(self.segments) or -1 in order or order != sorted(set(order)):
            raise ModelError(
                f"{self.describe(size)}: its segments must be runs of its own cells, in order"
            )
        if len(self.segments) < 2:
            raise ModelError(f"{self.describe(size)}: a region sum line needs 2 segments or more")
        self.check_step(size)


def region_sum_lines(
    cells: Sequence[int], regions: Sequence[int | None]
) -> tuple[RegionSumLine, ...]:
    """The rules of one region sum line under ``regions`` (a region number per cell, None for
    a cell in none): one per pair of neighbouring runs (none for a line in one run)."""
    line = tuple(cells)
    runs = region_segments(line, regions)
    return tuple(RegionSumLine(line, step, runs) for step in range(len(runs) - 1))
