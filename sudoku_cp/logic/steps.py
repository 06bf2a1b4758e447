"""What a human-style solve records: its steps, each with the candidates it rests on.

The shared vocabulary of the ``logic`` backend (which makes these), ``explain`` and ``rate``
(which read them) and the pictures (``sudoku_cp.render``, which draws them). Cells are indices
in reading order (``row * size + column``), digits run from 1 to the puzzle's size, and a cell's
candidates are a bit mask with bit ``d - 1`` set when digit ``d`` is still possible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..puzzle import Puzzle

Candidate = tuple[int, int]
"""A cell index and a digit."""


@dataclass(frozen=True)
class Link:
    """One link of a chain: strong (at least one of the two is true) or weak (not both).

    An end may be a *group node* (grouped chains: a digit's candidates in several cells,
    true when one of them holds it): its cells are then ``start_cells``/``end_cells`` and
    ``start``/``end`` names the first of them."""

    start: Candidate
    end: Candidate
    strong: bool
    start_cells: tuple[int, ...] = ()
    end_cells: tuple[int, ...] = ()


@dataclass(frozen=True)
class Step:
    """One deduction: what it is called, what it proves and what it rests on."""

    technique: str
    """The technique's name as HoDoKu spells it, e.g. ``"Hidden Single"``, ``"X-Wing"``."""
    placements: tuple[Candidate, ...]
    """Digits this step puts in cells."""
    eliminations: tuple[Candidate, ...]
    """Candidates this step removes."""
    proof: tuple[Candidate, ...]
    """The candidates the deduction rests on (drawn highlighted)."""
    groups: tuple[int, ...]
    """Indices into ``puzzle.groups()`` of the groups the deduction uses (drawn shaded)."""
    links: tuple[Link, ...]
    """A chain's links, in order (empty for techniques that are not chains)."""
    text: str
    """One sentence a student can follow, naming cells as r1c1 and digits."""
    values: tuple[int, ...]
    """The grid before the step, a digit per cell (0 for an empty cell)."""
    candidates: tuple[int, ...]
    """The candidate masks before the step, one per cell (a filled cell's mask is its digit)."""
    cells: tuple[int, ...] = ()
    """The cells of the rule a variant step reads (drawn shaded); empty for group techniques."""
    rule: str = ""
    """The key of the rule a variant step reads (``killercage``, ``xv`` …; its cells drawn
    outlined in the rule's step drawing); empty for group techniques and forcing nets."""


Outcome = Literal["solved", "stalled", "contradiction"]


@dataclass(frozen=True)
class Trace:
    """A whole human-style solve: the steps in order and where it ended."""

    puzzle: Puzzle
    steps: tuple[Step, ...]
    outcome: Outcome
    """``solved`` (the grid is full), ``stalled`` (no technique applies) or ``contradiction``."""
    values: tuple[int, ...]
    """The grid at the end."""
    candidates: tuple[int, ...]
    """The candidate masks at the end (where it stalled, the grid of candidates to report)."""
    timed_out: bool = False
    """True when a deadline stopped the solve (its outcome is then ``stalled``)."""
