"""Random rule sets on small grids: ``backtrack`` against full enumeration.

Each case draws a base grid (a 4×4 Sudoku grid or a 5×5 Latin square, from the enumeration in
tests/variants.py), draws rules of several kinds on it — most hold in it, one in four is then
nudged (a sum one off, a thermometer turned round) so that none is a possible count — and
gives a few of its digits. Rules overlap freely, which the hand-made catalogue does little:
a bug waking only some of the rules sharing a cell passed the catalogue. The count and the
solutions come from the enumeration and the validator; every strategy must list the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from variants import latin_squares, solutions, sudoku_grids

from sudoku_cp import Puzzle, PuzzleError, get_backend
from sudoku_cp.backends.backtrack import STRATEGIES
from sudoku_cp.model import load_model
from sudoku_cp.rules import (
    XV,
    Arrow,
    BetweenLine,
    Cage,
    Clone,
    Difference,
    Even,
    LittleKiller,
    Maximum,
    Minimum,
    Negative,
    Odd,
    Palindrome,
    Quadruple,
    Ratio,
    Renban,
    Rule,
    Sandwich,
    Thermometer,
    Whispers,
    whispers_gap,
)
from sudoku_cp.rules.cells import orthogonal_neighbours

Grid = tuple[int, ...]
Draw = Callable[[Grid, int, random.Random], Rule | None]


def _walk(grid: Grid, n: int, rng: random.Random, length: int, ok: Callable) -> tuple | None:
    line = [rng.randrange(n * n)]
    while len(line) < length:
        row, col = divmod(line[-1], n)
        options = [
            r * n + c
            for r in range(row - 1, row + 2)
            for c in range(col - 1, col + 2)
            if 0 <= r < n and 0 <= c < n and r * n + c not in line and ok(line, r * n + c)
        ]
        if not options:
            return None
        line.append(rng.choice(options))
    return tuple(line)


def _pair(n: int, rng: random.Random) -> tuple[int, int]:
    cell = rng.randrange(n * n)
    return cell, rng.choice(orthogonal_neighbours(cell, n))


def thermometer(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    line = _walk(grid, n, rng, rng.randint(2, 4), lambda ln, c: grid[c] > grid[ln[-1]])
    return Thermometer(line) if line else None


def arrow(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    line = _walk(grid, n, rng, rng.randint(2, 3), lambda ln, c: True)
    if line is None or grid[line[0]] != sum(grid[c] for c in line[1:]):
        return None
    return Arrow(line[:1], line[1:])


def little_killer(grid: Grid, n: int, rng: random.Random) -> Rule:
    start = rng.randrange(n - 1)
    cells = tuple(r * n + start + r for r in range(n - start))
    return LittleKiller(cells, sum(grid[c] for c in cells))


def sandwich(grid: Grid, n: int, rng: random.Random) -> Rule:
    i = rng.randrange(n)
    cells = tuple(range(i * n, i * n + n)) if rng.random() < 0.5 else tuple(range(i, n * n, n))
    digits = [grid[c] for c in cells]
    a, b = sorted((digits.index(1), digits.index(n)))
    return Sandwich(cells, sum(digits[a + 1 : b]))


def dot(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    a, b = _pair(n, rng)
    x, y = grid[a], grid[b]
    if abs(x - y) == 1:
        return Difference((a, b))
    if x == 2 * y or y == 2 * x:
        return Ratio((a, b))
    return XV((a, b), x + y) if rng.random() < 0.5 else Difference((a, b), abs(x - y))


def parity(grid: Grid, n: int, rng: random.Random) -> Rule:
    cell = rng.randrange(n * n)
    return Odd((cell,)) if grid[cell] % 2 else Even((cell,))


def whispers(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    gap = whispers_gap(n)
    line = _walk(grid, n, rng, 3, lambda ln, c: abs(grid[c] - grid[ln[-1]]) >= gap)
    return Whispers(line, gap) if line else None


def renban(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    line = _walk(grid, n, rng, 3, lambda ln, c: True)
    if line is None:
        return None
    digits = sorted(grid[c] for c in line)
    return Renban(line) if digits == list(range(digits[0], digits[0] + 3)) else None


def between(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    line = _walk(grid, n, rng, rng.randint(3, 4), lambda ln, c: True)
    if line is None:
        return None
    low, high = sorted((grid[line[0]], grid[line[-1]]))
    return BetweenLine(line) if all(low < grid[c] < high for c in line[1:-1]) else None


def palindrome(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    line = _walk(grid, n, rng, 3, lambda ln, c: True)
    return Palindrome(line) if line and grid[line[0]] == grid[line[-1]] else None


def clone(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    a, b = rng.sample(range(n * n), 2)
    return Clone((a,), (b,)) if grid[a] == grid[b] else None


def quadruple(grid: Grid, n: int, rng: random.Random) -> Rule:
    r, c = rng.randrange(n - 1), rng.randrange(n - 1)
    cells = (r * n + c, r * n + c + 1, r * n + c + n, r * n + c + n + 1)
    return Quadruple(cells, tuple(grid[x] for x in rng.sample(cells, rng.randint(1, 3))))


def extremum(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    cell = rng.randrange(n * n)
    others = [grid[q] for q in orthogonal_neighbours(cell, n)]
    if grid[cell] < min(others):
        return Minimum(cell)
    return Maximum(cell) if grid[cell] > max(others) else None


def negative(grid: Grid, n: int, rng: random.Random) -> Rule:
    pairs = {_pair(n, rng) for _ in range(4)}
    return Negative(
        "difference", tuple(p for p in pairs if abs(grid[p[0]] - grid[p[1]]) != 1), (1,)
    )


def cage(grid: Grid, n: int, rng: random.Random) -> Rule | None:
    a, b = _pair(n, rng)
    return Cage((a, b), grid[a] + grid[b]) if grid[a] != grid[b] else None


DRAWS: tuple[Draw, ...] = (
    thermometer, arrow, little_killer, sandwich, dot, parity, whispers, renban, between,
    palindrome, clone, quadruple, extremum, negative, cage,
)  # fmt: skip


def nudged(rule: Rule, rng: random.Random) -> Rule:
    """The rule made a little wrong for the base grid (another grid may still keep it)."""
    if isinstance(rule, Sandwich):
        return Sandwich(rule.cells, rule.total + rng.choice((-1, 1)) if rule.total else 1)
    if isinstance(rule, LittleKiller):
        return LittleKiller(rule.cells, rule.total + 1)
    if isinstance(rule, Thermometer):
        return Thermometer(rule.cells[::-1])
    if isinstance(rule, Quadruple):
        return Quadruple(rule.cells, (*rule.digits[1:], rule.digits[0] % 4 + 1))
    return rule


def drawn_puzzle(seed: int) -> Puzzle:
    rng = random.Random(seed)
    n = 4 if seed % 3 else 5
    base = sudoku_grids(4) if n == 4 else latin_squares(5)
    model = load_model("classic" if n == 4 else "latin")
    grid = tuple(int(d) for d in base[rng.randrange(len(base))])
    rules: list[Rule] = []
    while len(rules) < rng.randint(3, 6):
        rule = rng.choice(DRAWS)(grid, n, rng)
        if rule is not None and rule not in rules and getattr(rule, "cell_pairs", True):
            rules.append(nudged(rule, rng) if rng.random() < 0.25 else rule)
    # On 5x5 a few givens keep the enumeration short (161,280 Latin squares otherwise go
    # through the validator one by one when no cheap filter applies to the rules).
    shown = rng.sample(range(n * n), rng.randint(0, 4) if n == 4 else rng.randint(3, 6))
    cells = [grid[c] if c in shown else 0 for c in range(n * n)]
    return Puzzle(cells, model.with_rules(rules=rules, size=n))


@pytest.mark.parametrize("seed", range(150))
def test_random_rules_on_small_grids_match_the_enumeration(seed: int) -> None:
    try:
        puzzle = drawn_puzzle(seed)
    except PuzzleError:
        pytest.skip("the drawn givens break a drawn cage's group")
    expected = solutions(puzzle)
    backend = get_backend("backtrack")
    for strategy in STRATEGIES:
        result = backend.solve(puzzle, limit=None, strategy=strategy, time_limit=60)
        assert result.exact, strategy
        assert sorted(result.solutions) == expected, (strategy, puzzle.model.rules)
