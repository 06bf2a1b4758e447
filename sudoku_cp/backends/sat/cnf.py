"""The ``sat`` backend's CNF: clauses, native at-most-one constraints and the way back from a
SAT model to a grid (the foot of :mod:`sudoku_cp.backends.sat`: :mod:`.encoding` and
:mod:`.rules` write into it, :mod:`.solving` loads and solves it)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Encoding:
    """A puzzle as CNF: clauses, native at-most-one constraints and the way back to digits."""

    size: int
    grid: list[int]
    """The givens; a blank cell (0) is filled from a model's true cell variables."""
    cell_vars: list[tuple[int, int, int]] = field(default_factory=list)
    """``(variable, cell, digit)`` for every cell variable (not the auxiliary ones)."""
    clauses: list[list[int]] = field(default_factory=list)
    atmosts: list[list[int]] = field(default_factory=list)
    top: int = 0
    """The highest variable used, auxiliary ones included."""
    contradiction: bool = False
    """The givens alone leave a cell or a group-digit with no candidate (no solution)."""

    def decode(self, model: list[int]) -> tuple[int, ...]:
        """The grid a SAT model stands for."""
        grid = list(self.grid)
        for var, cell, digit in self.cell_vars:
            if model[var - 1] > 0:
                grid[cell] = digit
        return tuple(grid)

    def blocking_clause(self, model: list[int]) -> list[int]:
        """The clause that rules out this model's grid (over the cell variables only)."""
        return [-var for var, _, _ in self.cell_vars if model[var - 1] > 0]
