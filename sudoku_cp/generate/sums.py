"""Clues outside the grid read off a solved grid: little killers, sandwiches, skyscrapers and
X-sums.

Each comes from a finite list (every diagonal, every row and column, every row and column
from either end), each clue its value in the solution, so the solution satisfies them by
construction; the list is shuffled, N/2 (little killers) or N chosen for a puzzle with givens,
the rest kept back (see :mod:`.lines` for ``Drawn``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Rule
from ..rules.outside import Skyscraper, XSum, outside_line
from ..rules.sums import LittleKiller, Sandwich
from .lines import Drawn

DIAGONALS = ((-1, 1), (-1, -1), (1, 1), (1, -1))
"""The four directions a little killer clue points (f-puzzles UR, UL, DR, DL)."""


def diagonals(size: int) -> list[tuple[int, ...]]:
    """Every diagonal of at least two cells, each once, from the outside clue that starts it
    (a whole diagonal to the grid's edge, as f-puzzles draws a little killer)."""
    found: dict[frozenset[int], tuple[int, ...]] = {}
    for dr, dc in DIAGONALS:
        for row in range(-1, size + 1):
            for col in range(-1, size + 1):
                if 0 <= row < size and 0 <= col < size:
                    continue  # the clue sits outside the grid
                r, c = row + dr, col + dc
                cells = []
                while 0 <= r < size and 0 <= c < size:
                    cells.append(r * size + c)
                    r, c = r + dr, c + dc
                if len(cells) >= 2:
                    found.setdefault(frozenset(cells), tuple(cells))
    return list(found.values())


def little_killers(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Little killer clues on random diagonals, each the sum of the solution along it."""
    lines = diagonals(size)
    rng.shuffle(lines)
    rules: list[Rule] = [LittleKiller(cells, sum(solution[c] for c in cells)) for cells in lines]
    keep = max(2, size // 2)
    return rules[:keep], rules[keep:] if reserve else []


def sandwiches(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Sandwich clues on random rows and columns: the sum between the solution's 1 and N."""
    lines = [tuple(range(r * size, (r + 1) * size)) for r in range(size)]
    lines += [tuple(range(c, size * size, size)) for c in range(size)]
    rng.shuffle(lines)
    rules: list[Rule] = []
    for cells in lines:
        total = Sandwich(cells, 0).between([solution[c] for c in cells], size)
        if total is not None:  # always, in a grid whose rows and columns hold every digit
            rules.append(Sandwich(cells, total))
    return rules[:size], rules[size:] if reserve else []


def _ends(size: int) -> list[tuple[int, ...]]:
    """Every row and column, read from each of its two ends (a clue outside either)."""
    places = [(r, c) for r in range(size) for c in (-1, size)]
    places += [(r, c) for c in range(size) for r in (-1, size)]
    return [cells for place in places if (cells := outside_line(*place, size)) is not None]


def skyscrapers(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Skyscraper clues at random ends of rows and columns: how many of the solution's
    digits along the line are taller than every one before them."""
    lines = _ends(size)
    rng.shuffle(lines)
    rules: list[Rule] = []
    for cells in lines:
        seen = tallest = 0
        for cell in cells:
            if solution[cell] > tallest:
                seen, tallest = seen + 1, solution[cell]
        rules.append(Skyscraper(cells, seen))
    return rules[:size], rules[size:] if reserve else []


def x_sums(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """X-sum clues at random ends of rows and columns: the sum of the solution's first X
    digits along the line, X the first of them."""
    lines = _ends(size)
    rng.shuffle(lines)
    rules: list[Rule] = []
    for cells in lines:
        digits = [solution[cell] for cell in cells]
        rules.append(XSum(cells, sum(digits[: digits[0]])))
    return rules[:size], rules[size:] if reserve else []
