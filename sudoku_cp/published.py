"""The puzzle's own solution as a witness of how it was read.

The cross-check guards the answer against a wrong solver; it cannot guard against a wrong
*reading*: a rule given a meaning its setter did not intend is solved the same wrong way by
every paradigm. A published puzzle often states its setter's solution (f-puzzles and SudokuPad
``solution``), the one witness independent of every backend and of the reader's rules. This
module compares it, with the plain validator (:meth:`Puzzle.problems_with`), against what the
backends found:

- ``match``: it holds under the model as read and is among the solutions found;
- ``differs``: it holds, but the backends found other solutions and not it;
- ``breaks: <why>``: a rule as read (or a given) rejects it — the why names the rule;
- ``holds``: it holds as read, and no solution was found to compare it with.

The setter's puzzle has exactly one solution, theirs. So ``breaks``, ``differs``, ``holds``
beside ``none`` and ``match`` beside ``multiple`` mean the model as read is not the setter's
puzzle (or the published solution is wrong): the harness reports a ``disagreement``
(:func:`conflicts`).

>>> from sudoku_cp import Puzzle
>>> solution = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
>>> p = Puzzle([1, 2, 0, 0] + [0] * 12, published=solution)
>>> published_status(p, [solution]), published_status(p, [])
('match', 'holds')
>>> published_status(p.with_cells(p.cells), [])  # with_cells drops it
>>> published_status(Puzzle([2, 1, 0, 0] + [0] * 12, published=solution), [])
'breaks: r1c1 is 1 but the given is 2'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .puzzle import Grid, Puzzle

MATCH, DIFFERS, HOLDS, BREAKS = "match", "differs", "holds", "breaks"


def published_status(puzzle: Puzzle, solutions: Iterable[Grid]) -> str | None:
    """How the puzzle's published solution compares with ``solutions`` (valid solutions found
    by the backends): ``match``, ``differs``, ``breaks: <the first problem>`` or ``holds``;
    None when the puzzle states no solution."""
    published = puzzle.published
    if published is None:
        return None
    problems = puzzle.problems_with(published)
    if problems:
        return f"{BREAKS}: {problems[0]}"
    found = [tuple(s) for s in solutions]
    if published in found:
        return MATCH
    return DIFFERS if found else HOLDS


def conflicts(status: str | None, answer: str) -> bool:
    """Whether a published-solution status contradicts the answer (a verdict or a backend's
    status: ``unique``, ``none``, ``multiple``, ``solved`` …). The setter's puzzle has one
    solution, theirs; so a published solution that breaks the model as read contradicts any
    answer, one that holds beside another solution found (``differs``) shows two solutions as
    read, and one that holds contradicts ``none``; a match contradicts ``multiple``."""
    if status is None:
        return False
    if status.startswith(BREAKS) or status == DIFFERS:
        return True
    return answer == ("none" if status == HOLDS else "multiple")


def explain(status: str) -> str:
    """One clause for a reason or a status line."""
    if status.startswith(BREAKS):
        why = status[len(BREAKS) + 2 :]
        return (
            f"the published solution breaks the puzzle as read ({why}): a rule is misread, "
            "or the published solution is wrong"
        )
    return {
        MATCH: "the published solution is the one found",
        DIFFERS: "the published solution holds as read but is not the solution found",
        HOLDS: "the published solution holds as read (nothing found to compare it with)",
    }[status]


def stated_count_problem(stated: object, verdict: str, found: int, exact: bool) -> str | None:
    """Why a verdict contradicts the solution count the input states (a ``solution_count``
    key or column: another published witness of the reading), or None. ``found``: the valid
    solutions found; ``exact``: whether that is the whole count. A count that is not a whole
    number, or a verdict that decides nothing, contradicts nothing."""
    if not isinstance(stated, int) or isinstance(stated, bool) or stated < 0:
        return None
    contradicted = (
        (verdict == "unique" and stated != 1)
        or (verdict == "none" and stated != 0)
        or (verdict == "multiple" and (stated < 2 or (exact and found != stated)))
        or (found > 0 and stated == 0)
    )
    if not contradicted:
        return None
    what = f"exactly {found}" if verdict == "multiple" and exact else verdict
    return (
        f"{STATED_COUNT}{stated} solution{'s' if stated != 1 else ''}, the backends found "
        f"{what}: a rule is misread, or the stated count is wrong"
    )


STATED_COUNT = "the input states "
"""How the reason of a disagreement with a stated solution count begins."""


__all__ = [
    "BREAKS",
    "DIFFERS",
    "HOLDS",
    "MATCH",
    "STATED_COUNT",
    "conflicts",
    "explain",
    "published_status",
    "stated_count_problem",
]
