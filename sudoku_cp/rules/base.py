"""The shapes every rule comes in, and the checks they share.

A backend compiles a rule by its *shape*, not its kind, so a new kind of rule is a subclass
here with its cells and relation, and needs no backend code when its shape is known:

- :class:`Rule` itself: only the all-different ``groups`` it adds (anti-knight, a cage's cells);
- :class:`PairRule`: cell pairs and which digit pairs they allow (dots, thermometers, whispers,
  palindromes, clones, minimum / maximum cells, non-consecutive, negative constraints);
- :class:`TripleRule`: cell triples and which digit triples they allow (between lines);
- :class:`DigitRule`: cells and which single digits they allow (odd and even cells);
- :class:`SumRule`: a weighted sum of cells equal to a total (arrows, little killers);
- :class:`SequenceRule`: the digits of an ordered tuple of cells, read one by one by a
  deterministic automaton, end in an accepting state (skyscrapers, X-sums).

Killer cages, sandwich sums and quadruples have shapes of their own (see their modules).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError

Group = tuple[int, ...]
Labelled = tuple[Group, str]

MAX_TOTAL = 1_000_000
"""The largest sum or value a rule accepts: far above any a grid can reach (64 cells of a 64x64
grid sum to 2,080, so a larger one is simply never met: no solution), and small enough for every
solver's integers (a sum of 10**23 crashed CP-SAT's model builder)."""


def cell_name(cell: int, size: int) -> str:
    """``r3c4``: the usual Sudoku name of a cell, rows and columns counted from 1."""
    return f"r{cell // size + 1}c{cell % size + 1}"


def cells_named(cells: Iterable[int], size: int) -> str:
    """``r1c1-r1c2-r2c3``: a line or set of cells, for messages."""
    return "-".join(cell_name(cell, size) for cell in cells)


@dataclass(frozen=True)
class Rule:
    """Base of every rule: adds no group and finds no problem; subclasses override."""

    key: ClassVar[str]
    """The rule's name in model files and f-puzzles JSON, and in backends' ``rules``."""
    title: ClassVar[str]
    """The rule for people: ``killer cage``, ``anti-knight``."""
    relabelling: ClassVar[bool] = True
    """Whether renaming the digits (1↔5 …) keeps the rule (not for sums or consecutive)."""
    is_global: ClassVar[bool] = False
    """The same for every puzzle of a model, built from the size (model files can name it)."""

    def groups(self, size: int) -> tuple[Labelled, ...]:
        """The all-different groups this rule adds, each with a label."""
        return ()

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        """Why a full grid of digits breaks this rule beyond its groups (empty: it holds)."""
        return []

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        """The rule after cell ``c`` moves to ``where[c]``, or None when the move does not
        carry it (a global rule the move does not keep in place)."""
        return self

    def reversed(self, size: int) -> Rule | None:
        """The rule after every digit ``d`` becomes ``size + 1 - d``: itself when any renaming
        keeps it, None when the reversal breaks it (subclasses say when it carries over, e.g.
        a thermometer runs the other way)."""
        return self if self.relabelling else None

    def check(self, size: int) -> None:
        """Raise :class:`ModelError` when the rule does not fit a ``size`` grid."""


# --- the shared checks of a rule's cells ---------------------------------------------------------
def check_cells(cells: Sequence[int], size: int, where: str, *, least: int = 1) -> None:
    """Every cell inside the grid, none twice, at least ``least`` of them."""
    if len(cells) < least:
        raise ModelError(f"{where}: needs at least {least} cell{'s' * (least > 1)}")
    for cell in cells:
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < size * size:
            raise ModelError(f"{where}: cell {cell!r} is outside the {size}x{size} grid")
    seen: set[int] = set()
    for cell in cells:
        if cell in seen:
            raise ModelError(f"{where}: goes through {cell_name(cell, size)} twice")
        seen.add(cell)


def touching(a: int, b: int, size: int, *, diagonal: bool) -> bool:
    """Whether cells ``a`` and ``b`` are neighbours (orthogonally, or also diagonally)."""
    dr, dc = abs(a // size - b // size), abs(a % size - b % size)
    return (dr, dc) in ((0, 1), (1, 0)) or (diagonal and (dr, dc) == (1, 1))


def check_line(cells: Sequence[int], size: int, where: str, *, least: int = 1) -> None:
    """A line: cells inside the grid, none twice, each touching the next (diagonals count)."""
    check_cells(cells, size, where, least=least)
    for a, b in zip(cells, cells[1:], strict=False):
        if not touching(a, b, size, diagonal=True):
            raise ModelError(
                f"{where}: {cell_name(a, size)} and {cell_name(b, size)} are next on the line "
                "but do not touch"
            )


def check_number(value: object, where: str, what: str, low: int, high: int = MAX_TOTAL) -> None:
    """A whole number from ``low`` to ``high`` (the value of a clue, a dot, a sum)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ModelError(
            f"{where}: {what} must be a whole number from {low} to {high:,}, not {value!r}"
        )


# --- rules of cell pairs -------------------------------------------------------------------------
@dataclass(frozen=True)
class PairRule(Rule):
    """A relation between the digits of pairs of cells: ``pairs(size)`` and ``allows(a, b)``.

    Backends compile every pair rule the same way (a forbidden digit pair is a clause, a
    table row, a candidate removed), so a new one is a subclass with its pairs and relation.
    The relation is directed: ``allows(digit of first cell, digit of second cell)``.
    """

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        raise NotImplementedError

    def allows(self, a: int, b: int) -> bool:
        raise NotImplementedError

    def describe(self, size: int) -> str:
        """The rule for messages, e.g. ``the thermometer r1c1-r1c2``."""
        return f"the {self.title}"

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        return [
            f"{self.describe(size)}: {cell_name(a, size)} and {cell_name(b, size)} hold "
            f"{grid[a]} and {grid[b]}"
            for a, b in self.pairs(size)
            if not self.allows(grid[a], grid[b])
        ]


@dataclass(frozen=True)
class TripleRule(Rule):
    """A relation between the digits of triples of cells: ``triples(size)`` and
    ``allows(a, b, c)``, compiled like a pair rule one cell wider."""

    def triples(self, size: int) -> tuple[tuple[int, int, int], ...]:
        raise NotImplementedError

    def allows(self, a: int, b: int, c: int) -> bool:
        raise NotImplementedError

    def describe(self, size: int) -> str:
        return f"the {self.title}"

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        return [
            f"{self.describe(size)}: {cell_name(a, size)}, {cell_name(b, size)} and "
            f"{cell_name(c, size)} hold {grid[a]}, {grid[b]} and {grid[c]}"
            for a, b, c in self.triples(size)
            if not self.allows(grid[a], grid[b], grid[c])
        ]


@dataclass(frozen=True)
class DigitRule(Rule):
    """Cells that may hold only some digits: ``cells`` and ``allows(digit)``."""

    cells: Group

    def allows(self, digit: int) -> bool:
        raise NotImplementedError

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        return [
            f"{cell_name(cell, size)} is {self.title} but holds {grid[cell]}"
            for cell in self.cells
            if not self.allows(grid[cell])
        ]

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return type(self)(tuple(where[cell] for cell in self.cells))

    def check(self, size: int) -> None:
        check_cells(self.cells, size, f"{self.title} cells")


@dataclass(frozen=True)
class SumRule(Rule):
    """A weighted sum of cells equal to a total: ``terms(size)`` as ``(cell, weight)`` and
    ``total``. Digits may repeat unless the rule also adds a group."""

    relabelling: ClassVar[bool] = False

    def terms(self, size: int) -> tuple[tuple[int, int], ...]:
        raise NotImplementedError

    @property
    def goal(self) -> int:
        """What the weighted sum must equal."""
        raise NotImplementedError

    def describe(self, size: int) -> str:
        return f"the {self.title}"

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        got = sum(grid[cell] * weight for cell, weight in self.terms(size))
        return [] if got == self.goal else [self.mismatch(grid, size)]

    def mismatch(self, grid: Sequence[int], size: int) -> str:
        return f"{self.describe(size)} does not add up"


@dataclass(frozen=True)
class Automaton:
    """A deterministic automaton over digits: it starts in ``start``; ``step(state, digit)``
    is the state after reading ``digit``, or None when no digits that follow can be accepted
    any more; a word is accepted when the state after its last digit ``accepts``. States are
    hashable, and finitely many are reachable from ``start`` in any number of steps (backends
    number them)."""

    start: Hashable
    step: Callable[[Hashable, int], Hashable | None]
    accepts: Callable[[Hashable], bool]


@dataclass(frozen=True)
class SequenceRule(Rule):
    """The digits of ``cells``, read in that order, are a word ``automaton(size)`` accepts.

    For a rule that reads a whole line of cells, neither pairs nor a sum (how many skyscrapers
    a clue sees, the first X digits summing to a total). Backends compile it from the
    automaton alone (a layered reachability over the cells' candidates, an automaton
    constraint, state variables per position); the plain checker ``problems`` reads the rule
    its own way, without it."""

    cells: Group
    relabelling: ClassVar[bool] = False
    automaton_by_count: ClassVar[bool] = False
    """Whether ``automaton(size)`` reads of ``cells`` only how many there are: backends may
    then lay one automaton out once for rules alike but for their cells (every clue 3
    skyscraper of a grid). False, the safe default, for a rule whose automaton could read
    which cells it covers."""

    def automaton(self, size: int) -> Automaton:
        raise NotImplementedError

    def describe(self, size: int) -> str:
        return f"the {self.title} along {cells_named(self.cells, size)}"


@functools.cache
def moves_apart(size: int, steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Every pair of cells (first < second) one of ``steps`` apart, in reading order."""
    pairs = set()
    for row in range(size):
        for col in range(size):
            for dr, dc in steps:
                r, c = row + dr, col + dc
                if 0 <= r < size and 0 <= c < size:
                    a, b = row * size + col, r * size + c
                    pairs.add((min(a, b), max(a, b)))
    return tuple(sorted(pairs))


def keeps_pairs(pairs: tuple[tuple[int, int], ...], where: Sequence[int]) -> bool:
    """Whether moving cell ``c`` to ``where[c]`` maps this set of cell pairs onto itself (a
    global rule defined by its pairs is then kept by the move)."""
    known = set(pairs)
    return all(tuple(sorted((where[a], where[b]))) in known for a, b in pairs)


KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))
KING = ((0, 1), (1, 0), (1, 1), (1, -1))
ORTHOGONAL = ((0, 1), (1, 0))
