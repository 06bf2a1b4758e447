"""Remove-while-unique, and the proof that a puzzle is minimal.

:func:`carve` starts from a solved grid and visits the symmetry's orbits of cells in random
order, blanking each orbit when the givens left still have exactly one solution, else
keeping it. Blanking givens never removes solutions, so a kept orbit stays needed to the end:
without symmetry one pass gives a minimal puzzle. With a symmetry the result is minimal by
orbits (no orbit can go, the setter's meaning of a minimal symmetric puzzle, and what
``--symmetry S --minimal`` asks), and may still have a single given that could.

:func:`removable_given` is the proof, written apart from the carving: for each given (or
orbit of givens), the puzzle without it must have a second solution, which the validator
(:meth:`Puzzle.problems_with`, plain code sharing nothing with the search) confirms.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..puzzle import Grid, Puzzle
from .counting import Counter


def carve(
    solution: Sequence[int],
    counter: Counter,
    rng: random.Random,
    orbits: Sequence[tuple[int, ...]],
    *,
    floor: int = 0,
    stop: int = 0,
) -> list[int]:
    """The givens left after blanking orbits while the puzzle stays unique (``solution`` may
    already have blanks: only orbits given in full are tried).

    ``floor``: never go below this many givens; ``stop``: stop once at most this many are
    left (0: carve all the way)."""
    cells = list(solution)
    givens = len(cells) - cells.count(0)
    order = list(orbits)
    rng.shuffle(order)
    if not floor and not stop:
        # Orbits are disjoint, so whether one is given in full is known up front.
        return _carve_runs([o for o in order if all(cells[c] for c in o)], cells, counter)
    for orbit in order:
        if stop and givens <= stop:
            break
        if givens - len(orbit) < floor or not all(cells[c] for c in orbit):
            continue
        kept = [cells[c] for c in orbit]
        for c in orbit:
            cells[c] = 0
        if counter.unique(cells):
            givens -= len(orbit)
        else:
            for c, digit in zip(orbit, kept, strict=True):
                cells[c] = digit
    return cells


BATCH_FLOOR = 4
"""A run of orbits blanked together must leave at least cells // BATCH_FLOOR givens (a single
orbit is always tried). Counting near-empty grids is where the search can get lost: a 9x9
jigsaw with 0-11 givens left took 0.2 s to minutes to show a second solution, and such runs
almost never leave a unique puzzle (minimal 9x9 puzzles made here have 22-28 givens)."""


def _carve_runs(order: list[tuple[int, ...]], cells: list[int], counter: Counter) -> list[int]:
    """The one-by-one walk of :func:`carve`, asked in runs: a run of orbits blanked together
    leaving the solution unique means every step inside it would have too (blanking only adds
    solutions), so the whole run goes at once; a run that fails is halved and retried from
    its start, down to one orbit, which is then kept as the walk would keep it. The result is
    the walk's, in fewer counts (the early blanks of a full grid almost all go). Runs never
    leave fewer than :data:`BATCH_FLOOR`'s share of givens, which changes only the counts
    asked, not the result."""
    at, run = 0, max(1, len(order) // 2)
    least = len(cells) // BATCH_FLOOR
    givens = len(cells) - cells.count(0)
    while at < len(order):
        batch = order[at : at + run]
        while len(batch) > 1 and givens - sum(map(len, batch)) < least:
            batch = batch[: len(batch) // 2]
        run = len(batch)
        kept = [(c, cells[c]) for orbit in batch for c in orbit]
        for c, _ in kept:
            cells[c] = 0
        if counter.unique(cells):
            at += len(batch)
            givens -= len(kept)
            run *= 2
            continue
        for c, digit in kept:
            cells[c] = digit
        if run == 1:
            at += 1
        else:
            run //= 2
    return cells


def removable_given(
    puzzle: Puzzle,
    solution: Grid,
    counter: Counter,
    orbits: Sequence[tuple[int, ...]] | None = None,
) -> int | None:
    """A given that can be blanked with the solution staying unique, or None when there is
    none: the puzzle is minimal. With ``orbits`` (a symmetry's), the givens of one orbit are
    blanked together and a cell of a removable orbit is returned: None then means *minimal by
    orbits*, no orbit can go (a single given of one might). Each "needed" verdict rests on a
    second solution of the puzzle without those givens, different from ``solution`` and
    accepted by the validator (its fast door for many grids at once, the plain checks for any
    it is unsure of)."""
    from ..fastcheck import solved_each

    cells = list(puzzle.cells)
    units = [(c,) for c, d in enumerate(cells) if d] if orbits is None else orbits
    witnesses: list[tuple[int, Puzzle, Grid]] = []
    for unit in units:
        given = [c for c in unit if cells[c]]
        if not given:
            continue
        for c in given:
            cells[c] = 0
        found, grids = counter.count(cells)
        reduced = Puzzle.from_parsed(tuple(cells), puzzle.size, puzzle.model, check_givens=False)
        for c in given:
            cells[c] = puzzle.cells[c]
        other = [g for g in grids if tuple(g) != tuple(solution)]
        if found < 2 or not other:
            return given[0]
        witnesses.append((given[0], reduced, other[0]))
    passed = solved_each([(reduced, grid) for _, reduced, grid in witnesses])
    for (cell, reduced, grid), ok in zip(witnesses, passed, strict=True):
        if ok is None and reduced.problems_with(grid):
            return cell
    return None
