"""Marks on cells read off a solved grid: odd and even cells, minimum and maximum cells,
clones, quadruples (see :mod:`.lines` for ``Drawn``).

Odd and even cells are one rule per cell, so that ``--minimal`` can prove each needed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Rule
from ..rules.cells import Clone, Even, Maximum, Minimum, Odd, Quadruple, orthogonal_neighbours
from .lines import Drawn


def _split(rules: list[Rule], share: float, rng: random.Random, reserve: bool) -> Drawn:
    """``rules`` shuffled, the first ``share`` of them chosen (at least one)."""
    rng.shuffle(rules)
    keep = max(1, round(share * len(rules)))
    return rules[:keep], rules[keep:] if reserve else []


def odd_even(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """A third of the cells marked odd or even, as their digit is."""
    rules: list[Rule] = [
        (Odd if solution[cell] % 2 else Even)((cell,)) for cell in range(size * size)
    ]
    return _split(rules, 1 / 3, rng, reserve)


def min_max(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Half the cells whose digit is below (above) every orthogonal neighbour's marked
    minimum (maximum)."""
    rules: list[Rule] = []
    for cell in range(size * size):
        around = [solution[n] for n in orthogonal_neighbours(cell, size)]
        if solution[cell] < min(around):
            rules.append(Minimum(cell))
        elif solution[cell] > max(around):
            rules.append(Maximum(cell))
    return _split(rules, 1 / 2, rng, reserve)


def quadruples(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """A quadruple on a fifth of the inner grid points, listing 2–4 of its four digits."""
    rules: list[Rule] = []
    for row in range(size - 1):
        for col in range(size - 1):
            top = row * size + col
            cells = (top, top + 1, top + size, top + size + 1)
            digits = sorted(rng.sample([solution[c] for c in cells], rng.randint(2, 4)))
            rules.append(Quadruple(cells, tuple(digits)))
    return _split(rules, 1 / 5, rng, reserve)


def clones(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Pairs of same-shaped connected pieces of 2–4 cells, one the other moved by a random
    shift, holding the same digits cell for cell; no cell in two clones."""
    used: set[int] = set()
    rules: list[Rule] = []
    starts = list(range(size * size))
    rng.shuffle(starts)
    for start in starts:
        if start in used:
            continue
        row, col = divmod(start, size)
        shifts = [
            (dr, dc)
            for dr in range(-row, size - row)
            for dc in range(-col, size - col)
            if (dr or dc)
            and (start + dr * size + dc) not in used
            and solution[start + dr * size + dc] == solution[start]
        ]
        if not shifts:
            continue
        dr, dc = rng.choice(shifts)
        piece = [start]
        want = rng.randint(2, 4)

        def image(cell: int, dr: int = dr, dc: int = dc) -> int | None:
            r, c = divmod(cell, size)
            return (r + dr) * size + c + dc if 0 <= r + dr < size and 0 <= c + dc < size else None

        while len(piece) < want:
            grow = [
                n
                for p in piece
                for n in orthogonal_neighbours(p, size)
                if n not in piece
                and n not in used
                and _clonable(n, image(n), piece, used)
                and solution[n] == solution[image(n) or 0]
            ]
            if not grow:
                break
            piece.append(rng.choice(grow))
        if len(piece) < 2:
            continue
        copy = tuple(image(c) or 0 for c in piece)
        if set(copy) & set(piece):
            continue
        used.update(piece)
        used.update(copy)
        rules.append(Clone(tuple(piece), copy))
    keep = max(1, size // 3)
    return rules[:keep], rules[keep:] if reserve else []


def _clonable(cell: int, image: int | None, piece: list[int], used: set[int]) -> bool:
    return image is not None and image not in used and image not in piece and image != cell
