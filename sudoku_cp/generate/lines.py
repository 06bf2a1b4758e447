"""Lines drawn on a solved grid: arrows, renban, whispers, palindromes, between lines.

Each drawer walks random lines (king steps, as f-puzzles draws lines: diagonals count) that
the solution satisfies, no cell on two lines of one kind, and returns ``(chosen, reserve)``:
the lines a puzzle with givens gets (up to N/2), and further lines kept back for a puzzle that
must be fixed by its rules alone (:func:`.marks.add_until_unique`). The rule classes and their
checkers (:mod:`sudoku_cp.rules`) decide what a line means; every drawn line is checked
against the solution by its own checker before it is kept.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..rules import Rule
from ..rules.lines import BetweenLine, Palindrome, Renban, Whispers, whispers_gap
from ..rules.sums import Arrow

Drawn = tuple[list[Rule], list[Rule]]
"""The rules a puzzle with givens gets, and the reserve for a puzzle without."""


def king_neighbours(cell: int, size: int) -> list[int]:
    row, col = divmod(cell, size)
    return [
        (row + dr) * size + col + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= row + dr < size and 0 <= col + dc < size
    ]


def grow_line(
    path: list[int],
    want: int,
    size: int,
    rng: random.Random,
    used: set[int],
    fits: Callable[[list[int], int], bool],
) -> list[int]:
    """``path`` extended at its end by random king steps onto free cells ``fits`` accepts,
    up to ``want`` cells (fewer when it runs out of steps)."""
    while len(path) < want:
        ahead = [
            n
            for n in king_neighbours(path[-1], size)
            if n not in used and n not in path and fits(path, n)
        ]
        if not ahead:
            break
        path.append(rng.choice(ahead))
    return path


def draw_lines(
    solution: Sequence[int],
    size: int,
    rng: random.Random,
    reserve: bool,
    make: Callable[[int, set[int]], Rule | None],
) -> Drawn:
    """One try of ``make`` from every cell in random order (skipping cells already on a
    line), keeping the rules the solution satisfies: the first N/2 chosen, the rest (only
    drawn when ``reserve``) kept back."""
    used: set[int] = set()
    chosen: list[Rule] = []
    kept: list[Rule] = []
    starts = list(range(size * size))
    rng.shuffle(starts)
    for start in starts:
        if start in used:
            continue
        if len(chosen) >= max(2, size // 2) and not reserve:
            break
        rule = make(start, used)
        if rule is None or rule.problems(solution, size):
            continue
        used.update(_cells(rule))
        (chosen if len(chosen) < max(2, size // 2) else kept).append(rule)
    return chosen, kept


def _cells(rule: Rule) -> tuple[int, ...]:
    if isinstance(rule, Arrow):
        return rule.circle + rule.line
    return tuple(getattr(rule, "cells", ()))


def renban(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Lines of 3–5 cells holding a run of consecutive digits (different digits whose span is
    less than the line's length)."""

    def make(start: int, used: set[int]) -> Rule | None:
        want = rng.randint(3, min(5, size))

        def fits(path: list[int], n: int) -> bool:
            digits = [solution[c] for c in path] + [solution[n]]
            return solution[n] not in digits[:-1] and max(digits) - min(digits) < want

        path = grow_line([start], want, size, rng, used, fits)
        return Renban(tuple(path)) if len(path) >= 3 else None

    return draw_lines(solution, size, rng, reserve, make)


def whispers(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Lines of 3–6 cells whose neighbours differ by at least the size's gap (5 on 9x9)."""
    gap = whispers_gap(size)

    def make(start: int, used: set[int]) -> Rule | None:
        path = grow_line(
            [start],
            rng.randint(3, 6),
            size,
            rng,
            used,
            lambda path, n: abs(solution[n] - solution[path[-1]]) >= gap,
        )
        return Whispers(tuple(path), gap) if len(path) >= 3 else None

    return draw_lines(solution, size, rng, reserve, make)


def between(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Lines of 3–6 cells whose inner digits lie strictly between the two ends': the walk
    keeps inner digits beyond the first end's (above it or below, as it starts), then ends on
    a cell beyond every inner digit."""

    def make(start: int, used: set[int]) -> Rule | None:
        first = solution[start]
        rising = rng.random() < 0.5 if 1 < first < size else first == 1
        if (rising and first == size) or (not rising and first == 1):
            return None

        def inside(path: list[int], n: int) -> bool:
            return solution[n] > first if rising else solution[n] < first

        path = grow_line([start], rng.randint(2, 5), size, rng, used, inside)
        if len(path) < 2:
            return None
        inner = [solution[c] for c in path[1:]]
        ends = [
            n
            for n in king_neighbours(path[-1], size)
            if n not in used
            and n not in path
            and (solution[n] > max(inner) if rising else solution[n] < min(inner))
        ]
        if not ends:
            return None
        return BetweenLine((*path, rng.choice(ends)))

    return draw_lines(solution, size, rng, reserve, make)


def palindrome(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Lines of 3–7 cells reading the same both ways, grown outwards from their middle cell:
    each step adds a cell at both ends holding the same digit."""

    def make(start: int, used: set[int]) -> Rule | None:
        left, right = [start], [start]
        for _ in range(rng.randint(1, 3)):
            taken = set(left) | set(right) | used
            pairs = [
                (a, b)
                for a in king_neighbours(left[-1], size)
                for b in king_neighbours(right[-1], size)
                if a != b and a not in taken and b not in taken and solution[a] == solution[b]
            ]
            if not pairs:
                break
            a, b = rng.choice(pairs)
            left.append(a)
            right.append(b)
        if len(left) < 2:
            return None
        return Palindrome((*left[::-1], *right[1:]))

    return draw_lines(solution, size, rng, reserve, make)


def arrows(solution: Sequence[int], size: int, rng: random.Random, reserve: bool) -> Drawn:
    """Arrows from a one-cell circle (its digit at least 3) along 2–4 cells summing to it."""

    def make(start: int, used: set[int]) -> Rule | None:
        total = solution[start]
        if total < 3:
            return None
        firsts = [n for n in king_neighbours(start, size) if n not in used]
        if not firsts:
            return None
        begin = rng.choice(firsts)
        if solution[begin] >= total:
            return None

        def fits(path: list[int], n: int) -> bool:
            return n != start and sum(solution[c] for c in path) + solution[n] <= total

        line = grow_line([begin], 4, size, rng, used | {start}, fits)
        # Cut the line where it reaches the circle's digit (a longer walk overshoots).
        for end in range(2, len(line) + 1):
            if sum(solution[c] for c in line[:end]) == total:
                return Arrow((start,), tuple(line[:end]))
        return None

    return draw_lines(solution, size, rng, reserve, make)
