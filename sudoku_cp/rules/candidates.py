"""Given candidates: cells that may hold only some digits (f-puzzles' given pencil marks,
``grid[r][c].givenPencilMarks``).

dclamage/SudokuSolver (``SolverFactory.cs``, the end of ``CreateFromFPuzzles``) keeps only
the listed digits in a cell with no given value (``KeepMask``), when solving from the givens
(``onlyGivens``: its solve, check, count and true-candidates commands); an empty list limits
nothing. The JS successor (dclamage/SudokuVariantSolverJS ``src/index.ts``, ``createBoard``)
does the same. Centre pencil marks are a solver's notes there, no rule.

>>> rule = Candidates((0, 5), (1, 3))
>>> rule.problems((1, 0, 0, 0, 0, 2) + (0,) * 10, 4)
['r2c2 may hold only 1, 3 (its given pencil marks), not 2']
>>> rule.reversed(4)
Candidates(cells=(0, 5), digits=(2, 4))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from .base import DigitRule, Rule, cell_name, cells_named, check_cells


@dataclass(frozen=True)
class Candidates(DigitRule):
    """The cells hold one of ``digits`` (f-puzzles ``givenPencilMarks``)."""

    digits: tuple[int, ...]
    key: ClassVar[str] = "givenPencilMarks"
    title: ClassVar[str] = "given pencil mark"
    relabelling: ClassVar[bool] = False

    def allows(self, digit: int) -> bool:
        return digit in self.digits

    def problems(self, grid: Sequence[int], size: int) -> list[str]:
        listed = ", ".join(map(str, self.digits))
        return [
            f"{cell_name(cell, size)} may hold only {listed} (its given pencil marks), "
            f"not {grid[cell]}"
            for cell in self.cells
            if grid[cell] not in self.digits
        ]

    def moved(self, where: Sequence[int], size: int) -> Rule | None:
        # (in reading order, as the f-puzzles reader lists them: the order says nothing)
        return Candidates(tuple(sorted(where[cell] for cell in self.cells)), self.digits)

    def reversed(self, size: int) -> Rule | None:
        return Candidates(self.cells, tuple(sorted(size + 1 - d for d in self.digits)))

    def check(self, size: int) -> None:
        where = f"given pencil marks at {cells_named(self.cells, size)}"
        check_cells(self.cells, size, where)
        if not self.digits:
            raise ModelError(f"{where}: no digit listed")
        for digit in self.digits:
            if isinstance(digit, bool) or not isinstance(digit, int) or not 1 <= digit <= size:
                raise ModelError(f"{where}: {digit!r} is not a digit from 1 to {size}")


__all__ = ["Candidates"]
