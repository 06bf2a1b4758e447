"""The lines of :mod:`sudoku_cp.rules.lines_more` drawn on a solved grid: slow thermometers,
entropic, modular and nabner lines, zipper lines, double arrows and lockout lines.

Each drawer walks random lines as :mod:`.lines` does (king steps, no cell on two lines of one
kind, every line checked against the solution by its own checker) and returns the lines a
puzzle with givens gets and a reserve. A zipper line is drawn with 3 or 4 cells, one equal sum
and so one rule, so that ``--minimal`` drops whole lines. Region sum lines are not drawn: the
drawers do not see the puzzle's regions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Rule
from ..rules.lines_more import (
    DoubleArrow,
    EntropicLine,
    Lockout,
    ModularLine,
    Nabner,
    SlowThermometer,
    ZipperLine,
    entropic_tops,
    lockout_gap,
)
from .lines import Drawn, draw_lines, grow_line, king_neighbours


def _ends(
    path: list[int], size: int, used: set[int], solution: Sequence[int], digit: int
) -> list[int]:
    """The free cells touching the path's last cell that hold ``digit``."""
    return [
        n
        for n in king_neighbours(path[-1], size)
        if n not in used and n not in path and solution[n] == digit
    ]


def slow_thermometers(
    solution: Sequence[int], size: int, rng: random.Random, reserve: bool
) -> Drawn:
    """Lines of 3–6 cells along which the solution never falls."""

    def make(start: int, used: set[int]) -> Rule | None:
        path = grow_line(
            [start],
            rng.randint(3, 6),
            size,
            rng,
            used,
            lambda path, n: solution[n] >= solution[path[-1]],
        )
        return SlowThermometer(tuple(path)) if len(path) >= 3 else None

    return draw_lines(solution, size, rng, reserve, make)


def _thirds(
    solution: Sequence[int], size: int, rng: random.Random, reserve: bool, entropic: bool
) -> Drawn:
    """Lines of 3–6 cells whose every three cells in a row hold three different groups."""
    tops = entropic_tops(size)
    low, middle = tops

    def group(digit: int) -> int:
        if not entropic:
            return digit % 3
        return 0 if digit <= low else 1 if digit <= middle else 2

    def make(start: int, used: set[int]) -> Rule | None:
        def fits(path: list[int], n: int) -> bool:
            return all(group(solution[n]) != group(solution[c]) for c in path[-2:])

        path = grow_line([start], rng.randint(3, 6), size, rng, used, fits)
        if len(path) < 3:
            return None
        return EntropicLine(tuple(path), tops) if entropic else ModularLine(tuple(path))

    return draw_lines(solution, size, rng, reserve, make)


def entropic_lines(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    return _thirds(solution, size, rng, reserve, True)


def modular_lines(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    return _thirds(solution, size, rng, reserve, False)


def nabner_lines(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Lines of 2–4 cells holding no two equal or consecutive digits."""

    def make(start: int, used: set[int]) -> Rule | None:
        path = grow_line(
            [start],
            rng.randint(2, 4),
            size,
            rng,
            used,
            lambda path, n: all(abs(solution[n] - solution[c]) >= 2 for c in path),
        )
        return Nabner(tuple(path)) if len(path) >= 2 else None

    return draw_lines(solution, size, rng, reserve, make)


def zipper_lines(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Lines of 3 cells whose middle is the ends' sum, or of 4 whose outer pair sums as the
    inner pair: a walk, then a last cell holding the digit that makes the sums equal."""

    def make(start: int, used: set[int]) -> Rule | None:
        length = rng.choice((3, 4))
        path = grow_line([start], length - 1, size, rng, used, lambda path, n: True)
        if len(path) < length - 1:
            return None
        digits = [solution[c] for c in path]
        need = digits[1] - digits[0] if length == 3 else digits[1] + digits[2] - digits[0]
        ends = _ends(path, size, used, solution, need)
        return ZipperLine((*path, rng.choice(ends))) if ends else None

    return draw_lines(solution, size, rng, reserve, make)


def double_arrows(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Lines of 3–5 cells whose two ends sum to the cells between them."""

    def make(start: int, used: set[int]) -> Rule | None:
        length = rng.randint(3, 5)
        path = grow_line([start], length - 1, size, rng, used, lambda path, n: True)
        if len(path) < 2:
            return None
        need = sum(solution[c] for c in path[1:]) - solution[start]
        ends = _ends(path, size, used, solution, need)
        return DoubleArrow((*path, rng.choice(ends))) if ends else None

    return draw_lines(solution, size, rng, reserve, make)


def lockout_lines(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Lines of 3–5 cells whose ends differ by at least N // 2 and whose middle digits all lie
    outside the ends' range: a walk from one end, then an end that fits."""
    gap = lockout_gap(size)

    def make(start: int, used: set[int]) -> Rule | None:
        path = grow_line([start], rng.randint(2, 4), size, rng, used, lambda path, n: True)
        if len(path) < 2:
            return None
        first, middle = solution[start], [solution[c] for c in path[1:]]
        ends = [
            n
            for n in king_neighbours(path[-1], size)
            if n not in used
            and n not in path
            and abs(solution[n] - first) >= gap
            and not any(min(first, solution[n]) <= m <= max(first, solution[n]) for m in middle)
        ]
        return Lockout((*path, rng.choice(ends)), gap) if ends else None

    return draw_lines(solution, size, rng, reserve, make)
