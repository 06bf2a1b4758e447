"""Indexer cells: row, column and box indexers (f-puzzles ``rowindexer``, ``columnindexer``,
``boxindexer``).

As dclamage/SudokuSolver reads them (``Constraints/IndexerConstraint.cs``: ``TargetCell`` of
each kind, enforced only through the weak links ``InitLinks`` adds; the JS successor
dclamage/SudokuVariantSolverJS ``src/solver/Constraint/IndexerConstraint.ts`` builds the same
links), an indexer cell names, by its digit, a place in the line or box it indexes, and that
place holds the indexer cell's own place. With rows and columns counted from 1:

- a **row indexer** at row ``r``, column ``c`` holding ``d``: the cell at row ``d`` of column
  ``c`` holds ``r`` (``TargetCell(i, j, v) = (v - 1, j, i + 1)``: so ``r`` sits in row ``d`` of
  its column — the digit indexes the rows);
- a **column indexer** at ``rRcC`` holding ``d``: the cell at column ``d`` of row ``r`` holds
  ``c`` (``(i, v - 1, j + 1)``);
- a **box indexer** at place ``p`` of its box (its region: the boxes, or a jigsaw's regions,
  each with its cells in reading order) holding ``d``: the box's ``d``-th cell holds ``p``. A
  cell in no region indexes nothing (``TargetCell`` returns the cell itself).

A cell holding its own place points at itself: no constraint. A cell marked by two kinds
obeys both (each kind is its own constraint in both readers).

Each of these is a relation between two cells that depends on their places, while a pair
rule's ``allows`` sees only digits: so an indexer is split into pair rules, one per place of
the indexer cells and digit ``when`` they may hold, each pairing every such indexer cell with
the cell that digit names (its ``target``): ``allows(a, b)`` is "``a`` is not ``when``, or
``b`` is ``then``" (``then``: the indexer cells' place). That is exactly the weak links
dclamage adds (the indexer's candidate ``when`` against every candidate but ``then`` of the
target), so every backend compiles indexers as pair rules, with no code of its own.
:func:`indexer_rules` builds the rules of a set of indexer cells.

A move of the cells carries each rule as the same relation between the moved cells (its
``when`` and ``then`` kept), and the digit reversal as the relation between the reversed
digits: both keep the number of solutions, though the result may no longer be an indexer as
f-puzzles states one (its places changed); f-puzzles writing then refuses it. A row indexer
transposed is a column indexer, and is carried as one.

>>> rules = indexer_rules(RowIndexer, (1,), 4)  # r1c2 indexes the rows of column 2
>>> [(r.when, r.then, r.targets) for r in rules]
[(2, 1, (5,)), (3, 1, (9,)), (4, 1, (13,))]
>>> rules[1].problems((0, 3) + (0,) * 7 + (4,) + (0,) * 6, 4)
['the row indexer r1c2 holds 3, so r3c2 must hold 1, not 4']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from .base import Group, PairRule, Rule, cell_name, cells_named, check_cells, check_number

Unit = tuple[int, ...]
"""The N cells of a row, column or region, in order: a cell's place in it counts from 1."""


@dataclass(frozen=True)
class Indexer(PairRule):
    """Indexer cells that hold ``when`` make their targets hold ``then``: ``cells[i]`` points
    at ``targets[i]``. Made by :func:`indexer_rules`, ``then`` is the cells' place in the line
    or box they index and ``when`` their targets' place."""

    cells: Group
    targets: Group
    when: int
    then: int
    relabelling: ClassVar[bool] = False

    # --- the kind's geometry ------------------------------------------------------------------
    @staticmethod
    def unit(cell: int, size: int, regions: Sequence[int | None] | None = None) -> Unit | None:
        """The cells the indexer cell ``cell`` indexes, in order (None: it indexes none)."""
        raise NotImplementedError

    def stated(self, size: int, regions: Sequence[int | None] | None = None) -> bool:
        """Whether every cell is at place ``then`` of its unit and its target at place
        ``when``: the rule is part of an indexer as f-puzzles states it (not a moved one)."""
        for cell, target in zip(self.cells, self.targets, strict=True):
            unit = self.unit(cell, size, regions)
            if unit is None or len(unit) != size:
                return False
            if not (1 <= self.then <= size and 1 <= self.when <= size):
                return False
            if unit[self.then - 1] != cell or unit[self.when - 1] != target:
                return False
        return True

    # --- the rule ------------------------------------------------------------------------------
    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return tuple(zip(self.cells, self.targets, strict=True))

    def allows(self, a: int, b: int) -> bool:
        return a != self.when or b == self.then

    def describe(self, size: int) -> str:
        return f"the {self.title} {cells_named(self.cells, size)} holding {self.when}"

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        # Plain, apart from ``allows``: the validator's own reading of the rule.
        found = []
        for cell, target in zip(self.cells, self.targets, strict=True):
            if grid[cell] == self.when and grid[target] != self.then:
                found.append(
                    f"the {self.title} {cell_name(cell, size)} holds {self.when}, so "
                    f"{cell_name(target, size)} must hold {self.then}, not {grid[target]}"
                )
        return found

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        # The pairs in the moved cells' reading order, as indexer_rules lists them.
        pairs = sorted((where[c], where[t]) for c, t in zip(self.cells, self.targets, strict=True))
        return type(self)(
            tuple(c for c, _ in pairs), tuple(t for _, t in pairs), self.when, self.then
        )

    def reversed(self, size: int) -> Rule | None:
        # d -> N+1-d: "a is not when, or b is then" between the new digits.
        return type(self)(self.cells, self.targets, size + 1 - self.when, size + 1 - self.then)

    def check(self, size: int) -> None:
        where = f"{self.title} {cells_named(self.cells, size) if self.cells else '(no cells)'}"
        check_cells(self.cells, size, where)
        check_cells(self.targets, size, f"{where} (its targets)")
        if len(self.cells) != len(self.targets):
            raise ModelError(
                f"{where}: {len(self.cells)} cells point at {len(self.targets)} targets"
            )
        for cell, target in zip(self.cells, self.targets, strict=True):
            if cell == target:
                raise ModelError(f"{where}: {cell_name(cell, size)} points at itself")
        check_number(self.when, where, "the digit that points", 1, size)
        check_number(self.then, where, "the digit pointed at", 1, size)
        if self.when == self.then:
            raise ModelError(f"{where}: a cell holding its own place points at itself")


@dataclass(frozen=True)
class RowIndexer(Indexer):
    """A row indexer: the cell at row ``r`` holding ``d`` puts ``r`` in row ``d`` of its
    column (f-puzzles ``rowindexer``)."""

    key: ClassVar[str] = "rowindexer"
    title: ClassVar[str] = "row indexer"

    @staticmethod
    def unit(cell: int, size: int, regions: Sequence[int | None] | None = None) -> Unit | None:
        return tuple(row * size + cell % size for row in range(size))

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return _line_kind(super().moved(where, size), size)


@dataclass(frozen=True)
class ColumnIndexer(Indexer):
    """A column indexer: the cell at column ``c`` holding ``d`` puts ``c`` in column ``d`` of
    its row (f-puzzles ``columnindexer``)."""

    key: ClassVar[str] = "columnindexer"
    title: ClassVar[str] = "column indexer"

    @staticmethod
    def unit(cell: int, size: int, regions: Sequence[int | None] | None = None) -> Unit | None:
        row = cell // size
        return tuple(row * size + col for col in range(size))

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return _line_kind(super().moved(where, size), size)


@dataclass(frozen=True)
class BoxIndexer(Indexer):
    """A box indexer: the cell at place ``p`` of its box holding ``d`` puts ``p`` in the box's
    ``d``-th cell, places in reading order (f-puzzles ``boxindexer``)."""

    key: ClassVar[str] = "boxindexer"
    title: ClassVar[str] = "box indexer"

    @staticmethod
    def unit(cell: int, size: int, regions: Sequence[int | None] | None = None) -> Unit | None:
        # dclamage: the cell's Region group (cells in reading order), none for a cell in no
        # region; the JS successor takes only regions of N cells.
        if regions is None or regions[cell] is None:
            return None
        cells = tuple(c for c, number in enumerate(regions) if number == regions[cell])
        return cells if len(cells) == size else None


def _line_kind(rule: Rule | None, size: int) -> Rule | None:
    """A moved row or column indexer, as the kind it now states (a transposed row indexer is
    a column indexer)."""
    if not isinstance(rule, RowIndexer | ColumnIndexer) or rule.stated(size):
        return rule
    other = ColumnIndexer if isinstance(rule, RowIndexer) else RowIndexer
    swapped = other(rule.cells, rule.targets, rule.when, rule.then)
    return swapped if swapped.stated(size) else rule


INDEXERS: tuple[type[Indexer], ...] = (RowIndexer, ColumnIndexer, BoxIndexer)
"""The kinds of indexer, in the order their f-puzzles keys are read."""


def indexer_rules(
    kind: type[Indexer],
    cells: Sequence[int],
    size: int,
    regions: Sequence[int | None] | None = None,
) -> list[Indexer]:
    """The pair rules that make each of ``cells`` an indexer of ``kind`` (``regions``: the
    region number of each cell, for box indexers; None for a cell in no region). A cell listed
    twice is one indexer (dclamage merges a key's cells into one set); a cell that indexes no
    unit (a box indexer outside every region) adds nothing.

    >>> [(r.cells, r.targets, r.when) for r in indexer_rules(ColumnIndexer, (13, 1, 1), 4)]
    [((1, 13), (0, 12), 1), ((1, 13), (2, 14), 3), ((1, 13), (3, 15), 4)]
    """
    by_place: dict[int, list[tuple[int, Unit]]] = {}
    for cell in sorted(set(cells)):
        unit = kind.unit(cell, size, regions)
        if unit is not None:
            by_place.setdefault(unit.index(cell), []).append((cell, unit))
    rules = []
    for place, members in sorted(by_place.items()):
        for other in range(size):
            if other != place:
                rules.append(
                    kind(
                        tuple(cell for cell, _ in members),
                        tuple(unit[other] for _, unit in members),
                        other + 1,
                        place + 1,
                    )
                )
    return rules


__all__ = ["INDEXERS", "BoxIndexer", "ColumnIndexer", "Indexer", "RowIndexer", "indexer_rules"]
