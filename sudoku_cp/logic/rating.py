"""A puzzle's difficulty on HoDoKu's published scale: a level and a score.

Each technique has a level (Easy, Medium, Hard, Unfair, Extreme) and a score. A puzzle's score
is the sum of its steps' scores and its level that of its hardest step, raised while the score
is above the level's maximum (Easy up to 800, Medium 1,000, Hard 1,600, Unfair 1,800), as
HoDoKu does after a solve. The figures are HoDoKu's defaults: ``DEFAULT_DIFFICULTY_LEVELS``
and ``DEFAULT_SOLVER_STEPS`` in ``src/sudoku/Options.java`` of HoDoKu (hobiwan, GPL; read in
the PseudoFish/yoki123 fork), each step's level and base score.

When the techniques stall, the puzzle is rated **Extreme** and its score is its steps' sum plus
10,000 — the score HoDoKu gives its last resort, Brute Force — with ``hardest`` set to
``"stalled"`` (``hardest_used`` keeps the hardest technique that did apply). A puzzle the
techniques prove has no solution is rated ``Invalid``. A puzzle with more than one solution is
not rated (:class:`~sudoku_cp.errors.NotUniqueError`), as HoDoKu refuses one when it is
loaded: its rating would be that of a puzzle it is not.

>>> from sudoku_cp import Puzzle
>>> easy = "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"
>>> rating = rate_puzzle(Puzzle.parse(easy))
>>> rating.level, rating.hardest, rating.outcome
('Medium', 'Locked Pair', 'solved')
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import NotUniqueError, SudokuError
from .solver import solution_count, solve_logically
from .steps import Outcome, Trace

if TYPE_CHECKING:
    from ..puzzle import Puzzle

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
MAX_SCORE = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800}
"""HoDoKu's ``DEFAULT_DIFFICULTY_LEVELS``: the highest score of each level."""
STALL_SCORE = 10_000
"""HoDoKu's score of Brute Force, added when the techniques stall."""

TECHNIQUE_RATING: dict[str, tuple[str, int]] = {
    # name as the step spells it: (level, base score), from HoDoKu's DEFAULT_SOLVER_STEPS
    "Full House": ("Easy", 4),
    "Naked Single": ("Easy", 4),
    "Hidden Single": ("Easy", 14),
    "Locked Pair": ("Medium", 40),
    "Locked Triple": ("Medium", 60),
    "Locked Candidates Type 1 (Pointing)": ("Medium", 50),
    "Locked Candidates Type 2 (Claiming)": ("Medium", 50),
    "Naked Pair": ("Medium", 60),
    "Naked Triple": ("Medium", 80),
    "Hidden Pair": ("Medium", 70),
    "Hidden Triple": ("Medium", 100),
    "Naked Quadruple": ("Hard", 120),
    "Hidden Quadruple": ("Hard", 150),
    "X-Wing": ("Hard", 140),
    "Swordfish": ("Hard", 150),
    "Jellyfish": ("Hard", 160),
    "Remote Pair": ("Hard", 110),
    "BUG+1": ("Hard", 100),
    "Bivalue Universal Grave + 1": ("Hard", 100),
    "Skyscraper": ("Hard", 130),
    "2-String Kite": ("Hard", 150),
    "Turbot Fish": ("Hard", 120),
    "Empty Rectangle": ("Hard", 120),
    "W-Wing": ("Hard", 150),
    "XY-Wing": ("Hard", 160),
    "XYZ-Wing": ("Hard", 180),
    "Uniqueness Test 1": ("Hard", 100),
    "Uniqueness Test 2": ("Hard", 100),
    "Uniqueness Test 3": ("Hard", 100),
    "Uniqueness Test 4": ("Hard", 100),
    "Uniqueness Test 5": ("Hard", 100),
    "Uniqueness Test 6": ("Hard", 100),
    "Hidden Rectangle": ("Hard", 100),
    "Avoidable Rectangle Type 1": ("Hard", 100),  # StepConfig 4020
    "Avoidable Rectangle Type 2": ("Hard", 100),  # StepConfig 4030
    "Finned X-Wing": ("Hard", 130),
    "Sashimi X-Wing": ("Hard", 150),
    "Finned Swordfish": ("Unfair", 200),
    "Sashimi Swordfish": ("Unfair", 240),
    "Finned Jellyfish": ("Unfair", 250),
    "Sashimi Jellyfish": ("Unfair", 260),
    "Simple Colors": ("Hard", 150),
    "Simple Colors Trap": ("Hard", 150),
    "Simple Colors Wrap": ("Hard", 150),
    "Multi Colors": ("Hard", 200),
    "Multi-Colors 1": ("Hard", 200),
    "Multi-Colors 2": ("Hard", 200),
    "Sue de Coq": ("Unfair", 250),
    "X-Chain": ("Unfair", 260),
    "XY-Chain": ("Unfair", 260),
    # HoDoKu rates its three loop kinds with the NICE_LOOP entry, grouped ones with its own.
    "Continuous Nice Loop": ("Unfair", 280),
    "Discontinuous Nice Loop": ("Unfair", 280),
    "AIC": ("Unfair", 280),
    "Grouped Continuous Nice Loop": ("Unfair", 300),
    "Grouped Discontinuous Nice Loop": ("Unfair", 300),
    "Grouped AIC": ("Unfair", 300),
    "ALS-XZ": ("Unfair", 300),
    "ALS-XY-Wing": ("Unfair", 320),
    "ALS-XY-Chain": ("Unfair", 340),
    # Franken and Mutant fish (sudoku_cp.logic.complex_fish), each its DEFAULT_SOLVER_STEPS row.
    "Franken X-Wing": ("Unfair", 300),
    "Franken Swordfish": ("Unfair", 350),
    "Franken Jellyfish": ("Unfair", 370),
    "Finned Franken X-Wing": ("Unfair", 390),
    "Finned Franken Swordfish": ("Unfair", 410),
    "Finned Franken Jellyfish": ("Unfair", 430),
    "Mutant X-Wing": ("Extreme", 450),
    "Mutant Swordfish": ("Extreme", 450),
    "Mutant Jellyfish": ("Extreme", 450),
    "Finned Mutant X-Wing": ("Extreme", 470),
    "Finned Mutant Swordfish": ("Extreme", 470),
    "Finned Mutant Jellyfish": ("Extreme", 470),
    # (5 and 6 units: StepConfig 6400-8300, all Extreme, 470, off in HoDoKu's solver)
    "Franken Squirmbag": ("Extreme", 470),
    "Franken Whale": ("Extreme", 470),
    "Finned Franken Squirmbag": ("Extreme", 470),
    "Finned Franken Whale": ("Extreme", 470),
    "Mutant Squirmbag": ("Extreme", 470),
    "Mutant Whale": ("Extreme", 470),
    "Finned Mutant Squirmbag": ("Extreme", 470),
    "Finned Mutant Whale": ("Extreme", 470),
    "Death Blossom": ("Unfair", 360),
    "Forcing Chain": ("Extreme", 500),
    "Forcing Net": ("Extreme", 700),
    # HoDoKu rates the kinds of forcing chains and nets with their FORCING_CHAIN and
    # FORCING_NET entries (SolutionType.getStepConfig maps each kind to them).
    "Forcing Chain Contradiction": ("Extreme", 500),
    "Forcing Chain Verity": ("Extreme", 500),
    "Forcing Net Contradiction": ("Extreme", 700),
    "Forcing Net Verity": ("Extreme", 700),
    # Kraken fish (sudoku_cp.logic.kraken): StepConfig 8450 KRAKEN_FISH, off in HoDoKu's
    # solver; SolutionType.getStepConfig rates both types with it.
    "Kraken Fish Type 1": ("Extreme", 500),
    "Kraken Fish Type 2": ("Extreme", 500),
    # Templates (sudoku_cp.logic.templates): StepConfig 8700 and 8800, off in HoDoKu's solver.
    "Template Set": ("Extreme", 10_000),
    "Template Delete": ("Extreme", 10_000),
    "Brute Force": ("Extreme", 10_000),
    # The variant steps (sudoku_cp.logic.variants): our own scale, not HoDoKu's (it has no
    # rules beyond groups), placed among its scores — docs/logic-variants.md says why.
    "Rule Digits": ("Easy", 2),
    "Rule Pairs": ("Easy", 4),
    "Rule Combinations": ("Easy", 8),
    "Rule Contains": ("Medium", 30),
}
# A siamese fish (two finned fish with one base, fish.siamese) is rated as the fish whose name
# it carries: HoDoKu's step keeps that fish's SolutionType (FishSolver.findSiameseFish).
TECHNIQUE_RATING.update(
    {
        f"Siamese {name}": rating
        for name, rating in list(TECHNIQUE_RATING.items())
        if name.startswith(("Finned ", "Sashimi "))
    }
)


def technique_rating(name: str) -> tuple[str, int]:
    """A technique's (level, score); a name missing from the table is a programming error."""
    try:
        return TECHNIQUE_RATING[name]
    except KeyError:
        raise KeyError(f"technique {name!r} has no rating in TECHNIQUE_RATING") from None


@dataclass(frozen=True)
class Rating:
    """A puzzle's difficulty: HoDoKu's level and score, and how the solve went."""

    level: str
    """Easy, Medium, Hard, Unfair or Extreme (Extreme also when the techniques stall), or
    Invalid when they prove there is no solution."""
    score: int
    hardest: str
    """The hardest step's technique (highest level, then score), or ``stalled``."""
    outcome: Outcome
    steps: int
    hardest_used: str = ""
    """The hardest technique that applied, also when the solve stalled."""
    techniques: tuple[tuple[str, int], ...] = ()
    """How often each technique was used, in the order first used."""

    def to_dict(self) -> dict[str, object]:
        return {
            "level": self.level,
            "score": self.score,
            "hardest": self.hardest,
            "outcome": self.outcome,
            "steps": self.steps,
            "hardest_used": self.hardest_used,
            "techniques": dict(self.techniques),
        }


def rating_of(trace: Trace) -> Rating:
    """The rating of a finished human-style solve."""
    score = 0
    best = ("", -1, -1)  # name, level rank, score
    for step in trace.steps:
        level, points = technique_rating(step.technique)
        score += points
        rank = LEVELS.index(level)
        if (rank, points) > best[1:]:
            best = (step.technique, rank, points)
    used = Counter(step.technique for step in trace.steps)
    hardest_used = best[0]
    if trace.outcome == "contradiction":
        level, hardest = "Invalid", hardest_used
    elif trace.outcome == "stalled":
        level, hardest, score = "Extreme", "stalled", score + STALL_SCORE
    else:
        level = LEVELS[max(best[1], 0)]
        while level in MAX_SCORE and score > MAX_SCORE[level]:
            level = LEVELS[LEVELS.index(level) + 1]
        hardest = hardest_used
    return Rating(
        level=level,
        score=score,
        hardest=hardest,
        outcome=trace.outcome,
        steps=len(trace.steps),
        hardest_used=hardest_used,
        techniques=tuple(used.items()),
    )


class TimeCapReached(SudokuError):
    """A rating's solve stopped at its deadline: no rating (a partial solve's would be that of
    a harder puzzle: it would look stalled)."""


def rate_puzzle(
    puzzle: Puzzle,
    *,
    uniqueness: bool = True,
    extra: Sequence[str] = (),
    unique: bool | None = None,
    deadline: float | None = None,
) -> Rating:
    """Rate ``puzzle`` on HoDoKu's scale. ``uniqueness`` (default on, as HoDoKu rates) lets
    the techniques that assume one solution (unique rectangles, BUG+1) take part; ``extra``
    names searches HoDoKu leaves off to turn on (:data:`.solver.OPTIONAL`); ``unique``: the
    puzzle is known to have one solution (None: checked where it matters). A puzzle with more
    than one solution raises :class:`~sudoku_cp.errors.NotUniqueError`; a solve still going
    at ``deadline`` (a ``time.perf_counter()`` value), :class:`TimeCapReached`."""
    trace = solve_logically(
        puzzle, uniqueness=uniqueness, extra=extra, unique=unique, deadline=deadline
    )
    if trace.timed_out:
        raise TimeCapReached("not rated: its solve reached the time cap")
    if not unique:
        refuse_multiple(trace)
    return rating_of(trace)


def refuse_multiple(trace: Trace) -> None:
    """Raise :class:`~sudoku_cp.errors.NotUniqueError` when ``trace`` stalled (not for lack
    of time) on a puzzle with more than one solution, where no sound step can choose between
    them: "stalled" would call it too hard for the techniques. A solve that ends solved or in a
    contradiction needs no count (sound steps keep every solution)."""
    if trace.outcome == "stalled" and not trace.timed_out and solution_count(trace.puzzle) == 2:
        raise NotUniqueError(STALLED_MULTIPLE)


STALLED_MULTIPLE = (
    "has more than one solution, so no sound step can choose between them and the techniques "
    "stall; it is not rated (HoDoKu and SE rate only puzzles with one solution)"
)


def rate_record(record: Any, puzzle: Puzzle | None, time_limit: float | None) -> None:
    """``check --rate``: rate a unique record's puzzle into ``record.rating`` (level, score,
    hardest technique, outcome, steps), within ``time_limit`` seconds — or say in ``reason``
    why it is not rated (a rule of a shape the logic solver does not read, out of time)."""
    from ..errors import SudokuError
    from .solver import check_logic_model

    if puzzle is None:
        return
    try:
        check_logic_model(puzzle)
    except SudokuError as err:
        record.rating = {"level": None, "reason": str(err)}
        return
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    trace = solve_logically(puzzle, uniqueness=True, deadline=deadline, unique=True)
    if trace.timed_out:
        record.rating = {"level": None, "reason": f"timeout: not rated within {time_limit:g} s"}
        return
    data = rating_of(trace).to_dict()
    data.pop("techniques")
    record.rating = data
