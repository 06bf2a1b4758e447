"""A puzzle's difficulty: the one place the generator asks for it.

Difficulty is the logic rating (:func:`sudoku_cp.logic.rating.rate_puzzle`), on HoDoKu's
scale: the techniques a person needs, each with HoDoKu's level and score; a puzzle's level is
its hardest step's, raised while the summed score is above the level's top (Easy 800, Medium
1,000, Hard 1,600, Unfair 1,800), and its score the sum of its steps' scores.

``Extreme`` means one of two things here, and the record's ``hardest`` tells which:

- the techniques solve it but with Unfair steps summing above 1,800 (HoDoKu's own Extreme by
  score), ``hardest`` naming the technique;
- the techniques stall (``hardest: "stalled"``, score + 10,000, HoDoKu's Brute Force): the
  puzzle needs a technique beyond ours — ALS, Sue de Coq, forcing chains and nets — which
  HoDoKu may rate Unfair (ALS, Sue de Coq) or Extreme (forcing chains).

Levels are reached by generate-and-filter: every attempt is a fresh grid carved to a
minimal-by-orbits puzzle, rated, and kept only at the level (or score range) asked, within the
run's caps on attempts and seconds. Random minimal 9x9 puzzles fall at every level often
enough for that (a sample of 150: 7% Extreme, the rarest; see docs/guide/generate.md), so no
climbing is needed.

The rating reasons about all-different groups and, since issue 31, about every rule kind the
tool reads (cages, thermometers, kropki, XV, lines, sums …): the variant steps of
:mod:`sudoku_cp.logic.variants` and the forcing net take part, on **our own scale** placed
among HoDoKu's (docs/logic-variants.md: Rule Digits Easy 2, Rule Pairs Easy 4, Rule
Combinations Easy 8, Rule Contains Medium 30, Forcing Net Extreme 700), and the uniqueness
techniques stay off there (a swap of two digits may break a rule). Such a record's ``measure``
says so (:data:`MEASURE_RULES`). A rule of a shape the logic solver does not read has no
rating: ``--difficulty`` and ``--score`` are refused there (:func:`refusal`).

With ``--scale se`` the difficulty is Sudoku Explainer's instead (:class:`SEDifficulty`,
:func:`se_difficulty`; classic 9x9 only), and ``--difficulty`` an ER range (:func:`parse_er`).
A target is met only by an exact ER inside the range: a lower bound (the rating reached its
time cap, or no rule of SE's moved on) proves nothing but "at least".
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..logic.rating import LEVELS, TimeCapReached, rate_puzzle, technique_rating
from ..logic.solver import TECHNIQUES, solve_logically
from .counting import OutOfTime, time_left

if TYPE_CHECKING:
    from ..logic.board import Technique
    from ..model import Model
    from ..puzzle import Puzzle

__all__ = [
    "LEVELS",
    "MAX_ER",
    "SEDifficulty",
    "MEASURE",
    "MEASURE_RULES",
    "Difficulty",
    "beyond",
    "difficulty",
    "level_named",
    "parse_er",
    "refusal",
    "se_difficulty",
]

MEASURE = "hodoku"
"""What the score counts (written in every record beside level and score)."""
MEASURE_RULES = "hodoku+rules"
"""The measure of a puzzle with rules beyond groups: HoDoKu's scale with the variant steps
scored on our own scale (docs/logic-variants.md)."""
RULE_VARIANTS = ("killer", "killer-givens", "thermo", "kropki", "xv")
"""Variants whose puzzles carry rules beyond groups (rated with the variant steps)."""


@dataclass(frozen=True)
class Difficulty:
    level: str
    score: int
    hardest: str
    """The hardest technique used, or ``stalled`` when ours cannot finish the puzzle."""
    measure: str = MEASURE
    """:data:`MEASURE`, or :data:`MEASURE_RULES` for a puzzle with rules beyond groups."""


def difficulty(puzzle: Puzzle) -> Difficulty:
    """The rating of a puzzle with one solution (the uniqueness techniques take part, as in
    HoDoKu's rating: the generator has proven the solution unique), within the deadline of
    :func:`.counting.deadline` when one is set (:class:`.counting.OutOfTime` past it: a 16x16
    killer's rating took 30 s under a 3 s ``--max-seconds``)."""
    try:
        rating = rate_puzzle(puzzle, unique=True, deadline=_rating_deadline())
    except TimeCapReached as err:
        raise OutOfTime("the rating ran past the deadline") from err
    measure = MEASURE_RULES if puzzle.model.rules else MEASURE
    return Difficulty(rating.level, rating.score, rating.hardest, measure)


def beyond(puzzle: Puzzle, level: str) -> bool:
    """True when the puzzle's level is surely above ``level``: the techniques of ``level`` and
    below, in the solver's order, stall on it. A quick test before the full rating, for the
    attempts at a target level (most of which are rejected).

    Why it is sound: if the full solve used only techniques of ``level`` and below, at each
    step the first technique to fire was one of them, and the restricted solve, trying the
    same ones in the same order on the same board, takes the same step and finishes too. So
    a restricted stall means the full solve needs a harder technique or stalls itself, and
    the level (the hardest step's, only ever raised by the score) is above ``level``. False
    proves nothing: the full rating decides. With rules beyond groups the full solve leaves
    the uniqueness techniques out and adds the variant ones, and so does the restricted one."""
    rules = bool(puzzle.model.rules)
    restricted = _up_to(level, rules)
    if len(restricted) == len(_up_to("Extreme", rules)):  # the full rating's own solve
        return False
    trace = solve_logically(puzzle, techniques=restricted, deadline=_rating_deadline())
    if trace.timed_out:
        raise OutOfTime("the quick rating ran past the deadline")
    return trace.outcome == "stalled"


def _rating_deadline() -> float | None:
    """The :func:`.counting.deadline` as a ``time.perf_counter()`` value (None: none set);
    :class:`.counting.OutOfTime` when it has passed."""
    left = time_left()
    return None if left is None else time.perf_counter() + left


@functools.cache
def _up_to(level: str, rules: bool = False) -> tuple[Technique, ...]:
    """The techniques the rating's solve uses (uniqueness ones for groups alone, the variant
    ones with ``rules``), of ``level`` and below, in the solver's order."""
    rank = LEVELS.index(level)
    return tuple(
        entry.find
        for entry in TECHNIQUES
        if LEVELS.index(technique_rating(entry.name)[0]) <= rank
        and not (rules and entry.uniqueness)
        and (rules or not entry.rules)
    )


def level_named(name: str) -> str | None:
    """The level spelled ``name`` in any case, or None.

    >>> level_named("unfair"), level_named("nope")
    ('Unfair', None)
    """
    return next((level for level in LEVELS if level.lower() == name.lower()), None)


def rateable(model: Model) -> bool:
    """True when the rating can judge puzzles of ``model``: the logic solver reads each of
    its rules (every rule kind the tool reads has a shape it reads)."""
    return _unread(model) is None


def _unread(model: Model) -> str | None:
    from ..errors import SudokuError
    from ..logic.variants import check_shapes

    try:
        check_shapes(model.rules)
    except SudokuError as err:
        return str(err)
    return None


def refusal(variant: str, model: Model) -> str | None:
    """Why puzzles of ``variant`` over ``model`` cannot be rated, or None when they can (the
    rules drawn by every ``--variant`` are of shapes the logic solver reads)."""
    return _unread(model)


# --- Sudoku Explainer's scale (--scale se) ------------------------------------------------------
MEASURE_SE = "se"
MAX_ER = 20.0
"""The highest ER ``--difficulty`` takes with ``--scale se`` (a sane cap: SE's hardest rules,
nested forcing chains, rate in the 9s to 11s)."""


@dataclass(frozen=True)
class SEDifficulty:
    """SE's ER/EP/ED of a generated puzzle; ``*_exact`` False marks a lower bound."""

    er: float
    ep: float
    ed: float
    er_exact: bool
    ep_exact: bool
    ed_exact: bool
    outcome: str
    """"solved", "beyond" (no rule of SE's moves on), "time cap"."""
    hardest: str
    measure: str = MEASURE_SE


def se_difficulty(puzzle: Puzzle, time_cap: float) -> SEDifficulty:
    """The SE rating of a classic 9x9 puzzle with one solution, within ``time_cap`` seconds."""
    from ..logic.se import rate_puzzle_se

    rating = rate_puzzle_se(puzzle, time_cap)
    return SEDifficulty(
        round(rating.er, 1),
        round(rating.ep, 1),
        round(rating.ed, 1),
        rating.er_exact,
        rating.ep_exact,
        rating.ed_exact,
        rating.outcome,
        str(rating.to_dict()["hardest"]),
    )


def parse_er(text: str) -> tuple[float, float]:
    """``--scale se --difficulty``: ``"7.1-8.0"`` → (7.1, 8.0), ``"2.6"`` → (2.6, 2.6);
    ValueError with the reason otherwise.

    >>> parse_er("7.1-8.0"), parse_er(" 2.6 ")
    ((7.1, 8.0), (2.6, 2.6))
    """
    low, sep, high = text.strip().partition("-")
    try:
        first = float(low)
        last = float(high) if sep else first
    except ValueError:
        raise ValueError("expected an ER or an ER range, LOW-HIGH (e.g. 7.1-8.0)") from None
    if not (0.0 < first <= last <= MAX_ER):  # (also refuses nan and inf)
        raise ValueError(f"expected 0 < LOW <= HIGH <= {MAX_ER:g}")
    return round(first, 1), round(last, 1)


def se_meets(rated: SEDifficulty, er_range: tuple[float, float]) -> str | None:
    """None when ``rated`` is an exact ER inside ``er_range``, else why the attempt missed."""
    low, high = er_range
    shown = f"{rated.er:.1f}" if rated.er_exact else f"≥{rated.er:.1f}"
    if rated.er_exact and low <= rated.er <= high:
        return None
    if rated.er_exact or rated.er > high:
        return f"last attempt rated ER {shown}"
    return f"last attempt rated ER {shown} (a lower bound: {rated.outcome})"
