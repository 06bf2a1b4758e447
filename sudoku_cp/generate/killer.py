"""Killer cages drawn over a solved grid, refined until the cages alone fix the solution.

:func:`random_cages` grows connected cages of distinct digits (orthogonal neighbours, the
solution's digits all different within a cage) from random seeds, each up to a random size.
:func:`refine` then asks for two solutions of the cages alone; while a second one exists it
splits the cage holding a cell where the two differ (a one-cell cage is a given in all but
name, so it always ends, at worst with every cell its own cage).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..model import Model
from ..rules.sums import Cage
from .counting import Counter
from .grids import orthogonal_neighbours

MAX_REFINES = 400
"""Splits one cage layout may take before it is dropped for a fresh one."""


def random_cages(
    solution: Sequence[int], size: int, rng: random.Random, largest: int = 5
) -> list[tuple[int, ...]]:
    """Connected cages covering the grid, no digit twice in a cage, each of 1..``largest``
    cells (mostly 2–4)."""
    owner = [-1] * (size * size)
    cages: list[list[int]] = []
    order = list(range(size * size))
    rng.shuffle(order)
    for start in order:
        if owner[start] >= 0:
            continue
        want = rng.choice([2, 2, 3, 3, 3, 4, 4, largest])
        cage = [start]
        owner[start] = len(cages)
        digits = {solution[start]}
        while len(cage) < want:
            frontier = [
                n
                for c in cage
                for n in orthogonal_neighbours(c, size)
                if owner[n] < 0 and solution[n] not in digits
            ]
            if not frontier:
                break
            cell = rng.choice(frontier)
            owner[cell] = len(cages)
            cage.append(cell)
            digits.add(solution[cell])
        cages.append(cage)
    return [tuple(sorted(c)) for c in cages]


def cage_model(
    base: Model, size: int, cages: Sequence[tuple[int, ...]], solution: Sequence[int]
) -> Model:
    rules = [Cage(cells, sum(solution[c] for c in cells)) for cells in cages]
    return base.with_rules(rules=rules, size=size)


def refine(
    base: Model,
    size: int,
    cages: list[tuple[int, ...]],
    solution: Sequence[int],
    rng: random.Random,
) -> tuple[Model, list[tuple[int, ...]]] | None:
    """The cages split until the puzzle with no givens has exactly one solution (the model
    and the cages), or None after :data:`MAX_REFINES` splits."""
    for _ in range(MAX_REFINES):
        model = cage_model(base, size, cages, solution)
        found, grids = Counter(model, size, kernel=False).count([0] * (size * size))
        if found == 1:
            return model, cages
        if found == 0:  # cannot happen (the solution fits): a bug, not a puzzle
            return None
        other = next(g for g in grids if tuple(g) != tuple(solution))
        differ = [c for c in range(size * size) if other[c] != solution[c]]
        cell = rng.choice(differ)
        index = next(i for i, cage in enumerate(cages) if cell in cage)
        cage = cages.pop(index)
        cages.extend(_split(cage, cell, size))
    return None


def _split(cage: tuple[int, ...], cell: int, size: int) -> list[tuple[int, ...]]:
    """``cage`` cut in two connected parts, ``cell`` alone when what is left stays connected
    (else ``cell`` with the pieces it holds together), every cell alone for a two-cell cage."""
    rest = [c for c in cage if c != cell]
    if not rest:
        return [cage]
    pieces = _pieces(rest, size)
    return [(cell,)] + [tuple(sorted(p)) for p in pieces]


def _pieces(cells: list[int], size: int) -> list[list[int]]:
    left = set(cells)
    found = []
    while left:
        start = left.pop()
        piece = [start]
        todo = [start]
        while todo:
            c = todo.pop()
            for n in orthogonal_neighbours(c, size):
                if n in left:
                    left.discard(n)
                    piece.append(n)
                    todo.append(n)
        found.append(piece)
    return found
