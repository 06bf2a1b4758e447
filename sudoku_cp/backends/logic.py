"""The ``logic`` backend: human-style deduction alone, no guessing (``sudoku_cp.logic``).

What its answers prove. Every technique it uses is sound for *every* solution of the puzzle
(none assumes the solution is unique: unique rectangles and BUG+1 are left out), so

- ``unique``: deduction filled the grid; each step followed from the givens, so any solution
  must be this grid — a proof there is exactly one;
- ``none``: deduction reached a cell with no candidate or a group missing a digit; any
  solution would have survived every step, so there is none;
- ``undecided`` otherwise: the techniques stalled (``Result.candidates`` holds the candidate
  grid where they stopped). It never guesses, so it never says ``multiple`` and never counts.

Rules beyond groups (every key of :data:`~sudoku_cp.rules.RULE_KEYS`) are reasoned about by
their shapes (:mod:`sudoku_cp.logic.variants`, docs/logic-variants.md), each step sound for
every solution as the group techniques are. The solve stops when the grid is full, so the
last placements are not read against every rule: a full grid is checked by the plain
validator (``Puzzle.is_solution``) and one that breaks a rule means there is no solution (it
was the only grid every sound step left).

>>> from sudoku_cp import Puzzle
>>> easy = "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"
>>> LogicBackend().solve(Puzzle.parse(easy), limit=2).status.value
'unique'
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import SudokuError
from ..puzzle import Puzzle
from ..result import Result, Status
from ..rules import RULE_KEYS
from . import Backend, Counter, Search


class LogicBackend(Backend):
    """Deduction by human techniques, cheapest first (singles … chains, the rules' steps)."""

    name = "logic"
    summary = (
        "logic: human-style deduction (singles, intersections, subsets, fish, chains, each "
        "rule's own steps …), no guessing; unique when it fills the grid, none on a "
        "contradiction, else undecided"
    )
    requires = None
    complete = False
    rules = RULE_KEYS
    counters = {
        "steps": Counter("deduction steps applied", kind="size"),
        "placements": Counter("digits placed by deduction"),
        "eliminations": Counter("candidates removed by deduction"),
        "undecided": Counter("1 when the techniques stalled before an answer"),
        "level": Counter(
            "HoDoKu's level of the solve, 1 Easy … 5 Extreme (5 also when it stalled; "
            "techniques assuming uniqueness left out, unlike `sudoku-cp rate`)"
        ),
        "score": Counter("HoDoKu's score of the solve (its steps' sum; +10,000 when stalled)"),
    }

    _stalled: tuple[int, ...] | None = None
    """The candidates where the last search stalled, for ``solve`` to report."""

    def supports(self, puzzle: Puzzle) -> str | None:
        from ..logic.solver import check_logic_model

        try:
            check_logic_model(puzzle)
        except SudokuError as err:
            return f"backend '{self.name}': {err}"
        return None

    def search(
        self, puzzle: Puzzle, limit: int | None, deadline: float | None, options: dict[str, Any]
    ) -> Search:
        from ..logic.rating import LEVELS, rating_of
        from ..logic.solver import solve_logically

        trace = solve_logically(puzzle, uniqueness=False, deadline=deadline)
        rating = rating_of(trace)
        found = Search()
        found.stats = {
            "steps": len(trace.steps),
            "placements": sum(len(s.placements) for s in trace.steps),
            "eliminations": sum(len(s.eliminations) for s in trace.steps),
            "undecided": 0,
            # (the rating beside the search paradigms' effort in a bench table; 0: Invalid)
            "level": LEVELS.index(rating.level) + 1 if rating.level in LEVELS else 0,
            "score": rating.score,
        }
        if trace.timed_out:
            found.timed_out = True
        elif trace.outcome == "solved":
            # (the full grid is the only one left; if it breaks a rule there is none)
            if puzzle.is_solution(trace.values):
                found.solutions.append(trace.values)
            found.exhausted = True
        elif trace.outcome == "contradiction":
            found.exhausted = True
        else:
            found.stats["undecided"] = 1
            self._stalled = trace.candidates
        return found

    def solve(
        self,
        puzzle: Puzzle,
        *,
        limit: int | None = 1,
        time_limit: float | None = None,
        **options: Any,
    ) -> Result:
        self._stalled = None
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, **options)
        if result.stats.get("undecided"):
            result = dataclasses.replace(
                result, status=Status.UNDECIDED, exact=False, candidates=self._stalled
            )
        self._stalled = None
        return result
