"""Rules beyond the model's groups: the vocabulary of variant Sudoku, each kind a small class.

A model (:mod:`sudoku_cp.model`) is its all-different groups plus a tuple of rules. Each kind
of rule is one frozen data class here with

- ``key``: its name in model files (``rules = ["antiknight"]``) and in f-puzzles JSON;
- ``groups(size)``: the all-different groups it adds, with labels (a killer cage's cells, the
  cells a knight's move apart) — every backend already compiles groups, so this part of a rule
  needs no backend code;
- ``problems(grid, size)``: its plain checker for everything else (a cage's sum, neighbours
  that must not be consecutive) — part of the validator, sharing nothing with any backend;
- ``moved(where)``: the rule after the cells move (``where[cell]`` is the new place), for
  metamorphic testing; and ``relabelling`` saying whether renaming the digits keeps it.

Backends declare the keys they compile (``Backend.rules``) and answer ``unsupported``, naming
the rule, for any other: a rule is never silently ignored. A rule is either *global* (the same
for every puzzle of a model, built from the grid's size: anti-knight) or carries its cells
(a killer cage). Compiling by shape rather than by kind keeps backends short: a
:class:`PairRule` is a set of cell pairs plus which digit pairs they allow, a :class:`Cage` a
group with a sum.

>>> cage = Cage((0, 1), 3)
>>> cage.problems((1, 2, 2, 1) + (0,) * 12, 4), cage.problems((2, 2) + (0,) * 14, 4)
([], ['the killer cage at r1c1 sums to 4, not 3'])
>>> [label for _, label in AntiKnight().groups(4)][:2]
['anti-knight r1c1 and r2c3', 'anti-knight r1c1 and r3c2']
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .errors import ModelError

Group = tuple[int, ...]
Labelled = tuple[Group, str]


def cell_name(cell: int, size: int) -> str:
    """``r3c4``: the usual Sudoku name of a cell, rows and columns counted from 1."""
    return f"r{cell // size + 1}c{cell % size + 1}"


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

    def check(self, size: int) -> None:
        """Raise :class:`ModelError` when the rule does not fit a ``size`` grid."""


# --- rules of cell pairs -------------------------------------------------------------------------
@dataclass(frozen=True)
class PairRule(Rule):
    """A relation between the digits of pairs of cells: ``pairs(size)`` and ``allows(a, b)``.

    Backends compile every pair rule the same way (a forbidden digit pair is a clause, a
    table row, a candidate removed), so a new one is a subclass with its pairs and relation.
    """

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        raise NotImplementedError

    def allows(self, a: int, b: int) -> bool:
        raise NotImplementedError


@functools.cache
def _moves_apart(size: int, steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
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


def _keeps_pairs(pairs: tuple[tuple[int, int], ...], where: Sequence[int]) -> bool:
    """Whether moving cell ``c`` to ``where[c]`` maps this set of cell pairs onto itself (a
    global rule defined by its pairs is then kept by the move)."""
    known = set(pairs)
    return all(tuple(sorted((where[a], where[b]))) in known for a, b in pairs)


_KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))
_KING = ((0, 1), (1, 0), (1, 1), (1, -1))
_ORTHOGONAL = ((0, 1), (1, 0))


@dataclass(frozen=True)
class _Apart(Rule):
    """Cells a fixed kind of move apart hold different digits: a group of two per pair."""

    steps: ClassVar[tuple[tuple[int, int], ...]]
    is_global: ClassVar[bool] = True

    def groups(self, size: int) -> tuple[Labelled, ...]:
        return tuple(
            ((a, b), f"{self.title} {cell_name(a, size)} and {cell_name(b, size)}")
            for a, b in _moves_apart(size, self.steps)
        )

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return self if _keeps_pairs(_moves_apart(size, self.steps), where) else None


@dataclass(frozen=True)
class AntiKnight(_Apart):
    """Cells a chess knight's move apart hold different digits (f-puzzles ``antiknight``)."""

    key: ClassVar[str] = "antiknight"
    title: ClassVar[str] = "anti-knight"
    steps = _KNIGHT


@dataclass(frozen=True)
class AntiKing(_Apart):
    """Cells a chess king's move apart (diagonal neighbours included) hold different digits
    (f-puzzles ``antiking``)."""

    key: ClassVar[str] = "antiking"
    title: ClassVar[str] = "anti-king"
    steps = _KING


@dataclass(frozen=True)
class NonConsecutive(PairRule):
    """Orthogonal neighbours never hold consecutive digits (f-puzzles ``nonconsecutive``)."""

    key: ClassVar[str] = "nonconsecutive"
    title: ClassVar[str] = "non-consecutive"
    relabelling: ClassVar[bool] = False
    is_global: ClassVar[bool] = True

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return _moves_apart(size, _ORTHOGONAL)

    def allows(self, a: int, b: int) -> bool:
        return abs(a - b) != 1

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        return [
            f"non-consecutive: {cell_name(a, size)} and {cell_name(b, size)} hold "
            f"{grid[a]} and {grid[b]}"
            for a, b in self.pairs(size)
            if abs(grid[a] - grid[b]) == 1
        ]

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return self if _keeps_pairs(self.pairs(size), where) else None


# --- cages ---------------------------------------------------------------------------------------
MAX_CAGE_SUM = 1_000_000
"""The largest cage sum accepted: far above any a cage can reach (64 cells of a 64x64 grid sum
to 2,080, so a larger sum is simply never met: no solution), and small enough for every
solver's integers (a sum of 10**23 crashed CP-SAT's model builder)."""


@dataclass(frozen=True)
class Cage(Rule):
    """A killer cage: its cells hold different digits, summing to ``total`` when one is given.

    >>> Cage((4, 0), 9).groups(4)
    (((4, 0), 'the killer cage at r1c1'),)
    """

    cells: Group
    total: int | None = None
    key: ClassVar[str] = "killercage"
    title: ClassVar[str] = "killer cage"
    relabelling: ClassVar[bool] = False

    def label(self, size: int) -> str:
        return f"the killer cage at {cell_name(min(self.cells), size)}"

    def groups(self, size: int) -> tuple[Labelled, ...]:
        return ((self.cells, self.label(size)),)

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        if self.total is None:
            return []
        got = sum(grid[cell] for cell in self.cells)
        return [] if got == self.total else [f"{self.label(size)} sums to {got}, not {self.total}"]

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return Cage(tuple(where[cell] for cell in self.cells), self.total)

    def check(self, size: int) -> None:
        where = f"killer cage {self.cells!r}"
        if not self.cells:
            raise ModelError(f"{where}: a cage needs at least one cell")
        outside = [c for c in self.cells if not 0 <= c < size * size]
        if outside:
            raise ModelError(f"{where}: cell {outside[0]} is outside the {size}x{size} grid")
        if len(set(self.cells)) != len(self.cells):
            raise ModelError(f"{self.label(size)} lists a cell twice")
        if len(self.cells) > size:
            raise ModelError(
                f"{self.label(size)} has {len(self.cells)} cells, more than the {size} "
                "different digits a grid has"
            )
        if self.total is not None and (
            isinstance(self.total, bool)
            or not isinstance(self.total, int)
            or not 0 <= self.total <= MAX_CAGE_SUM
        ):
            raise ModelError(
                f"{self.label(size)}: its sum must be a whole number from 0 to "
                f"{MAX_CAGE_SUM:,}, not {self.total!r}"
            )


GLOBAL_RULES: dict[str, type[Rule]] = {
    rule.key: rule for rule in (AntiKnight, AntiKing, NonConsecutive)
}
"""The rules a model file can name (``rules = ["antiknight", "nonconsecutive"]``)."""


def global_rule(key: str, where: str) -> Rule:
    """The global rule named ``key`` (as in a model file), or ModelError naming ``where``."""
    try:
        return GLOBAL_RULES[key]()
    except KeyError:
        raise ModelError(
            f"{where}: unknown rule {key!r} (known: {', '.join(sorted(GLOBAL_RULES))})"
        ) from None


__all__ = [
    "GLOBAL_RULES",
    "AntiKing",
    "AntiKnight",
    "Cage",
    "NonConsecutive",
    "PairRule",
    "Rule",
    "cell_name",
    "global_rule",
]
