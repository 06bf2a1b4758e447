"""TEMPLATE: the starting point for a new backend — copy this file, rename, fill in.

A backend is one class: say what it is (``name``, ``summary``), what it needs (``requires``),
what it takes (``options``), what it counts (``counters``, each with its kind), what it cannot
take (``supports``), and write ``search``. The base class checks the arguments, runs
``supports`` before the search, starts the clock and turns the :class:`Search` into a
``Result``. The search here is a plain backtracker over the model's groups: fill a blank cell
with the fewest candidates (digits no peer holds), try each, go back at a dead end.

Not registered by default. To use a copy, register it and name it like any other backend::

    from sudoku_cp.backends import register
    register(TemplateBackend)          # then solve(puzzle, "template") or --backends template

``tests/test_template_backend.py`` runs the whole backend contract suite on it; do the same for
yours (add it to ``_BUILTIN`` in ``backends/__init__.py`` and the suite picks it up).

>>> from sudoku_cp import Puzzle
>>> result = TemplateBackend().solve(Puzzle([0] * 16), limit=None)
>>> result.status.value, result.count, result.stats["nodes"] > 0
('multiple', 288, True)
"""

from __future__ import annotations

import time
from typing import Any

from ..puzzle import Puzzle
from . import Backend, Counter, Option, Search

MAX_SIZE = 16
"""The search recurses once per blank cell, so grids above 16x16 (256 cells) could exceed
Python's recursion limit: ``supports`` refuses them."""


class TemplateBackend(Backend):
    """A plain backtracker, fewest candidates first: the template for a new backend."""

    name = "template"
    summary = "template: plain backtracking over the model's groups (copy it to write a backend)"
    requires = None  # an optional library: ("module.to.import", "pypi-distribution")
    options = (
        Option(
            "order",
            str,
            "fewest",
            "which blank to fill next: fewest candidates or reading",
            choices=("fewest", "reading"),
        ),
    )
    counters = {
        "nodes": Counter("digits put in a cell", kind="size"),
        "backtracks": Counter("blank cells reached with no candidate", kind="dead-end"),
    }

    def supports(self, puzzle: Puzzle) -> str | None:
        if puzzle.size > MAX_SIZE:
            return (
                f"backend '{self.name}' recurses once per blank cell and takes grids up to "
                f"{MAX_SIZE}x{MAX_SIZE}, not {puzzle.size}x{puzzle.size}"
            )
        return None

    def search(
        self, puzzle: Puzzle, limit: int | None, deadline: float | None, options: dict[str, Any]
    ) -> Search:
        found = Search()
        found.stats = {"nodes": 0, "backtracks": 0}
        grid = list(puzzle.cells)
        peers = puzzle.peers()
        digits = range(1, puzzle.size + 1)

        def candidates(cell: int) -> list[int]:
            held = {grid[p] for p in peers[cell]}
            return [d for d in digits if d not in held]

        def fill() -> bool:
            """Fill the blanks left; True when the search must stop (limit or clock)."""
            if deadline is not None and time.perf_counter() >= deadline:
                found.timed_out = True
                return True
            blanks = [c for c, d in enumerate(grid) if not d]
            if not blanks:
                found.solutions.append(tuple(grid))
                return limit is not None and len(found.solutions) >= limit
            cell, tries = blanks[0], candidates(blanks[0])
            for other in blanks[1:] if options["order"] == "fewest" else ():
                if len(tries) < 2:
                    break  # nothing beats a forced or a dead cell
                more = candidates(other)
                if len(more) < len(tries):
                    cell, tries = other, more
            if not tries:
                found.stats["backtracks"] += 1
            for digit in tries:
                found.stats["nodes"] += 1
                grid[cell] = digit
                stop = fill()
                grid[cell] = 0
                if stop:
                    return True
            return False

        stopped = fill()
        found.exhausted = not stopped
        return found
