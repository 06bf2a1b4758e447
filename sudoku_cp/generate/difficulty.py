"""A puzzle's difficulty: the one place the generator asks for it.

Until the logic rating (``sudoku_cp.logic.rating``, HoDoKu's levels by the techniques a
person needs) is on this branch, difficulty is *search effort*: the nodes the ``backtrack``
backend's ``fast`` strategy (naked and hidden singles, fewest candidates first) visits to
prove the puzzle unique (a count up to two solutions). Singles alone settle a puzzle in one
node; every guess adds nodes. The levels carry HoDoKu's names, on this scale:

==========  =================  ===========================================================
level       nodes (score)      what it means for the search
==========  =================  ===========================================================
Easy        1                  singles alone solve it and prove it unique
Medium      2–3                one guess, settled at once
Hard        4–9                a few guesses
Unfair      10–29              a real search
Extreme     30 and more        a long search (the famous "hardest" puzzles: hundreds)
==========  =================  ===========================================================

The names match HoDoKu's so the switch to the logic rating changes no caller, but the two
scales are not the same: a puzzle hard for a person (an X-wing) may still fall to singles and
one guess here. At merge, :func:`difficulty` becomes ``rate_puzzle(puzzle)``'s ``.level``,
``.score`` and ``"hodoku"``.
"""

from __future__ import annotations

from ..puzzle import Puzzle

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
"""From easiest to hardest; ``--difficulty`` takes these names in any case."""
_FLOORS = (1, 2, 4, 10, 30)
"""The lowest score of each level, in :data:`LEVELS` order."""
MEASURE = "backtrack-nodes"
"""What the score counts (written in every record beside level and score)."""


def level_of(score: int) -> str:
    """The level a score falls in.

    >>> level_of(1), level_of(3), level_of(30)
    ('Easy', 'Medium', 'Extreme')
    """
    name = LEVELS[0]
    for level, floor in zip(LEVELS, _FLOORS, strict=True):
        if score >= floor:
            name = level
    return name


def score_range(level: str) -> tuple[int, int | None]:
    """The scores of a level: (lowest, highest or None for no top).

    >>> score_range("hard"), score_range("Extreme")
    ((4, 9), (30, None))
    """
    index = [name.lower() for name in LEVELS].index(level.lower())
    top = _FLOORS[index + 1] - 1 if index + 1 < len(_FLOORS) else None
    return _FLOORS[index], top


def difficulty(puzzle: Puzzle) -> tuple[str, int, str]:
    """(level, score, measure) of a puzzle with one solution."""
    from ..backends import get_backend

    result = get_backend("backtrack").solve(puzzle, limit=2)
    score = max(1, int(result.stats.get("nodes", 1)))
    return level_of(score), score, MEASURE
