"""Rules drawn from a solved grid: thermometers, kropki dots, XV marks.

Each is true of the solution by construction; the givens are then carved over them while the
puzzle stays unique (counted by the ``backtrack`` backend's pure search, which compiles these
pair rules), so the puzzle always has exactly one solution.

- ``thermo``: up to N thermometers, each a random orthogonal path of 3–6 cells along which the
  solution's digits rise, starting at a random cell;
- ``kropki``: every pair of orthogonal neighbours whose digits are consecutive gets a white dot,
  one double the other a black dot (1 and 2: black), drawn with probability ``share``;
- ``xv``: every pair of orthogonal neighbours summing to 10 gets an X, to 5 a V, with
  probability ``share``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Rule
from ..rules.dots import XV, Difference, Ratio
from ..rules.lines import Thermometer
from .grids import _neighbours

MARKS = ("thermo", "kropki", "xv")


def draw_rules(kind: str, solution: Sequence[int], size: int, rng: random.Random) -> list[Rule]:
    """The rules of ``kind`` (one of :data:`MARKS`) that ``solution`` satisfies, drawn at
    random."""
    if kind == "thermo":
        return _thermometers(solution, size, rng)
    rules: list[Rule] = []
    for cell in range(size * size):
        for other in _neighbours(cell, size):
            if other < cell or rng.random() > 0.6:
                continue
            a, b = solution[cell], solution[other]
            pair = (cell, other)
            if kind == "kropki":
                if a == 2 * b or b == 2 * a:
                    rules.append(Ratio(pair, 2))
                elif abs(a - b) == 1:
                    rules.append(Difference(pair, 1))
            elif a + b in (5, 10):
                rules.append(XV(pair, a + b))
    return rules


def _thermometers(solution: Sequence[int], size: int, rng: random.Random) -> list[Rule]:
    used: set[int] = set()
    found: list[Rule] = []
    starts = list(range(size * size))
    rng.shuffle(starts)
    for start in starts:
        if len(found) >= size or start in used:
            continue
        path = [start]
        want = rng.randint(3, 6)
        while len(path) < want:
            ahead = [
                n
                for n in _neighbours(path[-1], size)
                if n not in used and n not in path and solution[n] > solution[path[-1]]
            ]
            if not ahead:
                break
            path.append(rng.choice(ahead))
        if len(path) >= 3:
            used.update(path)
            found.append(Thermometer(tuple(path)))
    return found
