"""Global rules between neighbours: anti-knight, anti-king, non-consecutive."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .base import (
    KING,
    KNIGHT,
    ORTHOGONAL,
    Labelled,
    PairRule,
    Rule,
    cell_name,
    keeps_pairs,
    moves_apart,
)


@dataclass(frozen=True)
class ApartRule(Rule):
    """Cells a fixed kind of move apart hold different digits: a group of two per pair."""

    steps: ClassVar[tuple[tuple[int, int], ...]]
    is_global: ClassVar[bool] = True

    def groups(self, size: int) -> tuple[Labelled, ...]:
        return tuple(
            ((a, b), f"{self.title} {cell_name(a, size)} and {cell_name(b, size)}")
            for a, b in moves_apart(size, self.steps)
        )

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        return self if keeps_pairs(moves_apart(size, self.steps), where) else None


@dataclass(frozen=True)
class AntiKnight(ApartRule):
    """Cells a chess knight's move apart hold different digits (f-puzzles ``antiknight``)."""

    key: ClassVar[str] = "antiknight"
    title: ClassVar[str] = "anti-knight"
    steps = KNIGHT


@dataclass(frozen=True)
class AntiKing(ApartRule):
    """Cells a chess king's move apart (diagonal neighbours included) hold different digits
    (f-puzzles ``antiking``)."""

    key: ClassVar[str] = "antiking"
    title: ClassVar[str] = "anti-king"
    steps = KING


@dataclass(frozen=True)
class NonConsecutive(PairRule):
    """Orthogonal neighbours never hold consecutive digits (f-puzzles ``nonconsecutive``)."""

    key: ClassVar[str] = "nonconsecutive"
    title: ClassVar[str] = "non-consecutive"
    relabelling: ClassVar[bool] = False
    is_global: ClassVar[bool] = True

    def pairs(self, size: int) -> tuple[tuple[int, int], ...]:
        return moves_apart(size, ORTHOGONAL)

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
        return self if keeps_pairs(self.pairs(size), where) else None

    def reversed(self, size: int) -> Rule | None:
        return self
