"""Rules drawn from a solved grid, for ``--variant`` kinds beyond jigsaw and killer.

Each is true of the solution by construction (and checked by its own plain checker); then
either givens are carved over them while the puzzle stays unique (``--givens some``), or more
are added from a reserve until they alone fix the solution (``--givens none``,
:func:`add_until_unique`). Counting is the ``backtrack`` backend's pure-Python search, which
compiles every rule; every emitted puzzle is judged again by two paradigms.

- ``thermo``: up to N thermometers, each a random orthogonal path of 3–6 cells along which the
  solution's digits rise, starting at a random cell;
- ``kropki``: every pair of orthogonal neighbours whose digits are consecutive gets a white dot,
  one double the other a black dot (1 and 2: black), drawn with probability 0.6;
- ``xv``: every pair of orthogonal neighbours summing to 10 gets an X, to 5 a V, with
  probability 0.6;
- the lines of :mod:`.lines` (``arrow``, ``renban``, ``whispers``, ``palindrome``,
  ``between``), the clues outside the grid of :mod:`.sums` (``little-killer``, ``sandwich``,
  ``skyscraper``, ``x-sum``), the cell marks of :mod:`.cellmarks` (``odd-even``,
  ``min-max``, ``clone``, ``quadruple``) and the lines of :mod:`.lines_more` (``slow-thermo``,
  ``entropic``, ``modular``, ``nabner``, ``zipper``, ``double-arrow``, ``lockout``);
- the global rules (``antiknight``, ``antiking``, ``nonconsecutive``) are no marks: the
  solution is drawn under a model with the rule (:data:`GLOBALS`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..model import Model
from ..puzzle import Grid, Puzzle
from ..rules import Rule
from ..rules.dots import XV, Difference, Ratio
from ..rules.lines import Thermometer
from . import cellmarks, lines, lines_more, sums
from .counting import Counter
from .grids import orthogonal_neighbours
from .satcount import SatCounter, needs_sat

Drawer = Callable[[Sequence[int], int, random.Random, bool], lines.Drawn]

GLOBALS = {"antiknight": "antiknight", "antiking": "antiking", "nonconsecutive": "nonconsecutive"}
"""Variant name → the global rule's key (:data:`sudoku_cp.rules.GLOBAL_RULES`)."""

RESERVE_DRAWS = 4
"""Further draws of each kind for the reserve of a puzzle without givens."""
MAX_ADDS = 400
"""Rules :func:`add_until_unique` may add to one layout before it is dropped for a fresh one."""


def _dots(kind: str) -> Drawer:
    def draw(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> lines.Drawn:
        chosen: list[Rule] = []
        kept: list[Rule] = []
        for cell in range(size * size):
            for other in orthogonal_neighbours(cell, size):
                if other < cell:
                    continue
                picked = rng.random() <= 0.6
                if not picked and not reserve:
                    continue
                rule = _dot(kind, solution[cell], solution[other], (cell, other))
                if rule is not None:
                    (chosen if picked else kept).append(rule)
        return chosen, kept

    return draw


def _dot(kind: str, a: int, b: int, pair: tuple[int, int]) -> Rule | None:
    if kind == "kropki":
        if a == 2 * b or b == 2 * a:
            return Ratio(pair, 2)
        if abs(a - b) == 1:
            return Difference(pair, 1)
        return None
    return XV(pair, a + b) if a + b in (5, 10) else None


def _thermometers(
    solution: Sequence[int], size: int, rng: random.Random, reserve: bool
) -> lines.Drawn:
    used: set[int] = set()
    found: list[Rule] = []
    kept: list[Rule] = []
    starts = list(range(size * size))
    rng.shuffle(starts)
    for start in starts:
        if (len(found) >= size and not reserve) or start in used:
            continue
        path = [start]
        want = rng.randint(3, 6)
        while len(path) < want:
            ahead = [
                n
                for n in orthogonal_neighbours(path[-1], size)
                if n not in used and n not in path and solution[n] > solution[path[-1]]
            ]
            if not ahead:
                break
            path.append(rng.choice(ahead))
        if len(path) >= 3:
            used.update(path)
            (found if len(found) < size else kept).append(Thermometer(tuple(path)))
    return found, kept


MARKS: dict[str, Drawer] = {
    "thermo": _thermometers,
    "kropki": _dots("kropki"),
    "xv": _dots("xv"),
    "arrow": lines.arrows,
    "little-killer": sums.little_killers,
    "sandwich": sums.sandwiches,
    "skyscraper": sums.skyscrapers,
    "x-sum": sums.x_sums,
    "odd-even": cellmarks.odd_even,
    "min-max": cellmarks.min_max,
    "renban": lines.renban,
    "whispers": lines.whispers,
    "palindrome": lines.palindrome,
    "between": lines.between,
    "clone": cellmarks.clones,
    "quadruple": cellmarks.quadruples,
    "slow-thermo": lines_more.slow_thermometers,
    "entropic": lines_more.entropic_lines,
    "modular": lines_more.modular_lines,
    "nabner": lines_more.nabner_lines,
    "zipper": lines_more.zipper_lines,
    "double-arrow": lines_more.double_arrows,
    "lockout": lines_more.lockout_lines,
}
"""Variant name → its drawer: ``(solution, size, rng, reserve)`` → (chosen, reserve)."""


def counter_for(model: Model, size: int) -> Counter:
    """The counter of ``model``: one kept SAT solver for rules beyond groups (and for any
    rule when the compiled kernel is not installed), else the backtracker."""
    if needs_sat(model):
        return SatCounter(model, size)
    counter = Counter(model, size)
    if model.rules and counter.engine != "kernel":
        # Anti-knight and anti-king are groups the compiled kernel counts fast; without it the
        # pure search made 0.7 anti-knight 9x9 puzzles a second where SAT makes more.
        return SatCounter(model, size)
    return counter


def draw_rules(
    kinds: Sequence[str], solution: Sequence[int], size: int, rng: random.Random, reserve: bool
) -> tuple[list[Rule], list[Rule]]:
    """The rules of ``kinds`` (names in :data:`MARKS`) that ``solution`` satisfies, drawn at
    random: those a puzzle gets, and (when ``reserve``) the others kept back, shuffled."""
    chosen: list[Rule] = []
    kept: list[Rule] = []
    for kind in kinds:
        some, more = MARKS[kind](solution, size, rng, reserve)
        chosen += some
        kept += more
        # Lines of one draw never share a cell, which leaves few for the reserve: further
        # draws (crossing the first) give the reserve enough to rule every other grid out.
        for _ in range(RESERVE_DRAWS if reserve else 0):
            again, more = MARKS[kind](solution, size, rng, reserve)
            kept += [rule for rule in again + more if rule not in chosen and rule not in kept]
    if reserve:
        rng.shuffle(kept)
    return chosen, kept


def add_until_unique(
    base: Model,
    size: int,
    rules: list[Rule],
    reserve: list[Rule],
    solution: Grid,
    rng: random.Random,
) -> list[Rule] | None:
    """``rules`` with rules of ``reserve`` added until they alone (no givens) have exactly
    one solution, ``solution``; None when the reserve runs out (or after :data:`MAX_ADDS`).

    While a second solution exists, a rule of the reserve it breaks is added (chosen at
    random among them): each step rules that grid out, so the loop ends."""
    rules = list(rules)
    reserve = list(reserve)
    empty = [0] * (size * size)
    for _ in range(MAX_ADDS):
        model = base.with_rules(rules=rules, size=size)
        found, grids = counter_for(model, size).count(empty)
        if found == 1:
            return rules
        others = [g for g in grids if tuple(g) != tuple(solution)]
        if found == 0 or not others:  # cannot happen (the solution fits): a bug
            return None
        breaking = [i for i, rule in enumerate(reserve) if rule.problems(others[0], size)]
        if not breaking:
            return None
        rules.append(reserve.pop(rng.choice(breaking)))
    return None


def prune(
    base: Model, size: int, rules: list[Rule], cells: Sequence[int], rng: random.Random
) -> list[Rule]:
    """``rules`` less every rule whose removal keeps the givens ``cells`` unique, tried in
    random order: a rule kept was needed when tried, and stays needed (removing others only
    adds solutions), so no rule left can go — and no given that was needed can either."""
    order = list(range(len(rules)))
    rng.shuffle(order)
    dropped: set[int] = set()
    for index in order:
        trial = [r for i, r in enumerate(rules) if i != index and i not in dropped]
        model = base.with_rules(rules=trial, size=size)
        if counter_for(model, size).unique(cells):
            dropped.add(index)
    return [r for i, r in enumerate(rules) if i not in dropped]


def removable_rule(
    base: Model, size: int, rules: Sequence[Rule], puzzle: Puzzle, solution: Grid
) -> Rule | None:
    """A drawn rule whose removal leaves the puzzle unique, or None when every one is needed:
    without it the search finds a second solution, which the validator
    (:meth:`Puzzle.problems_with`, sharing nothing with the search) confirms."""
    for index, rule in enumerate(rules):
        model = base.with_rules(rules=[r for i, r in enumerate(rules) if i != index], size=size)
        found, grids = counter_for(model, size).count(puzzle.cells)
        other = [g for g in grids if tuple(g) != tuple(solution)]
        if found < 2 or not other:
            return rule
        reduced = Puzzle.from_parsed(puzzle.cells, size, model, check_givens=False)
        if reduced.problems_with(other[0]):
            return rule
    return None
