"""Mixed-rule 9×9 puzzles drawn on a classic solution, and how long a backend takes on them.

    python -m sudoku_cp.perf.variant_puzzles [--count 20] [--seed 1] [--givens 8]
                                             [--backends constraint] [--timeout 20]

Each puzzle starts from a full classic grid (the solution of the first puzzle of the bundled
``top1465`` sample, shuffled by a seeded random relabelling and row / column moves that keep a
Sudoku a Sudoku), then draws rules that hold in it — thermometers, arrows, white and black
dots, X and V, odd and even cells, a little killer, a sandwich sum, a between line, a
quadruple, a whisper, a renban, a minimum cell — and keeps ``--givens`` of its digits. The
grid is therefore one solution of every puzzle; whether it is the only one is what the run
finds out (a uniqueness check, limit 2). Every solution goes through the validator.

It prints, per backend, the median and largest wall time and the verdicts; it asserts nothing.
These are developer puzzles, not published ones: the README's benchmark of published variant
puzzles is issue 15's own.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from ..model import load_model
from ..puzzle import Puzzle
from ..rules import (
    XV,
    Arrow,
    BetweenLine,
    Difference,
    Even,
    LittleKiller,
    Minimum,
    Odd,
    Quadruple,
    Ratio,
    Renban,
    Rule,
    Sandwich,
    Thermometer,
    Whispers,
)

T = TypeVar("T")
N = 9
SOLUTION = tuple(
    int(d)
    for d in "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
)
"""A classic 9×9 grid (the solution of Arto Inkala's 'hardest', 8..........36......)."""


def shuffled_grid(rng: random.Random) -> tuple[int, ...]:
    """:data:`SOLUTION` with its digits renamed, bands, stacks, rows in a band and columns in a
    stack reordered, and maybe transposed: still a classic grid."""
    names = list(range(1, N + 1))
    rng.shuffle(names)
    bands, stacks = rng.sample(range(3), 3), rng.sample(range(3), 3)
    rows = [3 * b + r for b in bands for r in rng.sample(range(3), 3)]
    cols = [3 * s + c for s in stacks for c in rng.sample(range(3), 3)]
    grid = [names[SOLUTION[r * N + c] - 1] for r in rows for c in cols]
    if rng.random() < 0.5:
        grid = [grid[c * N + r] for r in range(N) for c in range(N)]
    return tuple(grid)


def _neighbours(cell: int, diagonal: bool = True) -> list[int]:
    row, col = divmod(cell, N)
    found = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and (diagonal or not (dr and dc)):
                r, c = row + dr, col + dc
                if 0 <= r < N and 0 <= c < N:
                    found.append(r * N + c)
    return found


def _walk(rng: random.Random, grid: Sequence[int], length: int, step_ok, used: set[int]):
    """A random line of ``length`` unused cells, each step accepted by ``step_ok(line, next)``,
    or None."""
    start = rng.randrange(N * N)
    if start in used:
        return None
    line = [start]
    while len(line) < length:
        options = [
            c for c in _neighbours(line[-1]) if c not in used and c not in line and step_ok(line, c)
        ]
        if not options:
            return None
        line.append(rng.choice(options))
    return tuple(line)


def _draw(rng: random.Random, make: Callable[[], T | None], tries: int = 200) -> T | None:
    for _ in range(tries):
        rule = make()
        if rule is not None:
            return rule
    return None


def variant_rules(grid: Sequence[int], rng: random.Random) -> list[Rule]:
    """Rules of many kinds that all hold in ``grid`` (a full 9×9 grid)."""
    used: set[int] = set()  # cells already on a line, so lines do not cross
    rules: list[Rule] = []

    def keep(rule: Rule | None, cells: Sequence[int] = ()) -> None:
        if rule is not None:
            rules.append(rule)
            used.update(cells)

    for _ in range(2):
        line = _draw(rng, lambda: _walk(rng, grid, rng.randint(3, 5), _rising(grid), used))
        keep(Thermometer(line) if line else None, line or ())
    for _ in range(2):
        arrow = _draw(rng, lambda: _arrow(rng, grid, used))
        if arrow:
            keep(arrow, arrow.circle + arrow.line)
    line = _draw(rng, lambda: _walk(rng, grid, 4, _whisper(grid), used))
    keep(Whispers(line, 5) if line else None, line or ())
    line = _draw(rng, lambda: _renban(rng, grid, used))
    keep(Renban(line) if line else None, line or ())
    line = _draw(rng, lambda: _between(rng, grid, used))
    keep(BetweenLine(line) if line else None, line or ())
    orthogonal = [(a, b) for a in range(N * N) for b in _neighbours(a, False) if a < b]
    rng.shuffle(orthogonal)
    marks = {"white": 0, "black": 0, "x": 0, "v": 0}
    for a, b in orthogonal:
        x, y = grid[a], grid[b]
        if abs(x - y) == 1 and marks["white"] < 4:
            rules.append(Difference((a, b)))
            marks["white"] += 1
        elif (x == 2 * y or y == 2 * x) and marks["black"] < 3:
            rules.append(Ratio((a, b)))
            marks["black"] += 1
        elif x + y == 10 and marks["x"] < 2:
            rules.append(XV((a, b), 10))
            marks["x"] += 1
        elif x + y == 5 and marks["v"] < 2:
            rules.append(XV((a, b), 5))
            marks["v"] += 1
    cells = rng.sample(range(N * N), 6)
    rules.append(Odd(tuple(c for c in cells if grid[c] % 2)))
    rules.append(Even(tuple(c for c in cells if not grid[c] % 2)))
    rules = [r for r in rules if not (isinstance(r, Odd | Even) and not r.cells)]
    start = rng.randrange(1, N - 2)
    diagonal = tuple((start + k) * N + k for k in range(N - start))
    rules.append(LittleKiller(diagonal, sum(grid[c] for c in diagonal)))
    row = rng.randrange(N)
    cells_of_row = tuple(range(row * N, row * N + N))
    digits = [grid[c] for c in cells_of_row]
    low, high = sorted((digits.index(1), digits.index(N)))
    rules.append(Sandwich(cells_of_row, sum(digits[low + 1 : high])))
    corner = rng.randrange(N - 1) * N + rng.randrange(N - 1)
    square = (corner, corner + 1, corner + N, corner + N + 1)
    rules.append(Quadruple(square, tuple(sorted(rng.sample([grid[c] for c in square], 2)))))
    minima = [c for c in range(N * N) if all(grid[c] < grid[o] for o in _neighbours(c, False))]
    if minima:
        rules.append(Minimum(rng.choice(minima)))
    return rules


def _rising(grid: Sequence[int]):
    return lambda line, cell: grid[cell] > grid[line[-1]]


def _whisper(grid: Sequence[int]):
    return lambda line, cell: abs(grid[cell] - grid[line[-1]]) >= 5


def _arrow(rng: random.Random, grid: Sequence[int], used: set[int]) -> Arrow | None:
    circle = rng.randrange(N * N)
    if circle in used or grid[circle] < 3:
        return None
    line = _walk(rng, grid, rng.randint(2, 3), lambda line, cell: True, used | {circle})
    if line is None or line[0] not in _neighbours(circle):
        return None
    if sum(grid[c] for c in line) != grid[circle]:
        return None
    return Arrow((circle,), line)


def _renban(rng: random.Random, grid: Sequence[int], used: set[int]):
    line = _walk(rng, grid, 3, lambda line, cell: True, used)
    if line is None:
        return None
    digits = sorted(grid[c] for c in line)
    return line if digits == list(range(digits[0], digits[0] + 3)) else None


def _between(rng: random.Random, grid: Sequence[int], used: set[int]):
    line = _walk(rng, grid, 4, lambda line, cell: True, used)
    if line is None:
        return None
    a, b = sorted((grid[line[0]], grid[line[-1]]))
    return line if all(a < grid[c] < b for c in line[1:-1]) else None


def variant_puzzle(seed: int, givens: int = 8) -> tuple[Puzzle, tuple[int, ...]]:
    """A mixed-rule 9×9 puzzle (seeded) and the grid it was drawn on (one of its solutions)."""
    rng = random.Random(seed)
    grid = shuffled_grid(rng)
    rules = variant_rules(grid, rng)
    model = load_model("classic").with_rules(rules=rules, size=N)
    shown = set(rng.sample(range(N * N), givens))
    cells = [grid[c] if c in shown else 0 for c in range(N * N)]
    return Puzzle(cells, model), grid


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--givens", type=int, default=8)
    parser.add_argument("--backends", default="constraint")
    parser.add_argument("--timeout", type=float, default=20.0)
    args = parser.parse_args(argv)
    from ..backends import get_backend

    backends = args.backends.split(",")
    times: dict[str, list[float]] = {name: [] for name in backends}
    verdicts: dict[str, dict[str, int]] = {name: {} for name in backends}
    for k in range(args.count):
        puzzle, grid = variant_puzzle(args.seed + k, args.givens)
        assert puzzle.is_solution(grid)
        for name in backends:  # interleaved: each puzzle on every backend in turn
            backend = get_backend(name)
            if backend.refusal(puzzle):
                verdicts[name]["unsupported"] = verdicts[name].get("unsupported", 0) + 1
                continue
            start = time.perf_counter()
            result = backend.solve(puzzle, limit=2, time_limit=args.timeout)
            times[name].append((time.perf_counter() - start) * 1000)
            bad = [g for g in result.solutions if not puzzle.is_solution(g)]
            verdict = "WRONG" if bad else result.status.value
            verdicts[name][verdict] = verdicts[name].get(verdict, 0) + 1
    for name in backends:
        ms = times[name] or [float("nan")]
        shown = ", ".join(f"{v} {n}" for v, n in sorted(verdicts[name].items()))
        print(
            f"{name:12} median {statistics.median(ms):8.1f} ms  worst {max(ms):8.1f} ms  "
            f"({len(ms)} puzzles: {shown})"
        )


if __name__ == "__main__":
    main()
