"""Mixed-rule 9x9 puzzles drawn on classic solutions, and the backends timed on them.

    python -m sudoku_cp.perf.mixed_rules [--count 24] [--backends backtrack,cpsat,sat]
                                         [--repeat 3] [--seed 0] [--timeout 20]

Each puzzle starts from the solution of a bundled 17-clue puzzle (``sudoku_cp/data/17clue.csv``,
solved by ``backtrack``). Rules that hold in that solution are drawn at random — thermometers,
arrows (some with a two-cell pill), kropki dots, XV, sandwich sums, little killers, odd and even
cells, whispers, renban and between lines, quadruples, minimum and maximum cells, killer cages —
a few kinds per puzzle, in turn from :data:`RECIPES`. The 17 givens are then taken away one by
one, in a seeded order, while the puzzle stays unique (asked of ``backtrack``; the benchmark
has every backend check it again): the rules carry most of the information, few givens remain.

For each backend it prints, per puzzle set, the median and worst wall time of a uniqueness check
(limit 2, fastest of ``--repeat`` runs) and how many puzzles it refused, timed out on or got
wrong (a count other than 1 or a solution the validator rejects). It asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Sequence

from ..backends import get_backend
from ..datasets import load_puzzles
from ..generate.lines import king_neighbours
from ..model import load_model
from ..puzzle import Grid, Puzzle
from ..rules import (
    XV,
    Arrow,
    BetweenLine,
    Cage,
    Difference,
    Even,
    LittleKiller,
    Maximum,
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
from ..rules.cells import orthogonal_neighbours

N = 9
CLASSIC = load_model("classic")


def walk(
    grid: Grid, rng: random.Random, length: int, step: Callable[[list[int], int], bool]
) -> list[int] | None:
    """A random line of ``length`` cells, each touching the last, where ``step(line, next)``
    allows every next cell; None when the walk gets stuck."""
    line = [rng.randrange(N * N)]
    while len(line) < length:
        options = [c for c in king_neighbours(line[-1], N) if c not in line and step(line, c)]
        if not options:
            return None
        line.append(rng.choice(options))
    return line


def _tries(make: Callable[[], Rule | None], tries: int = 200) -> Rule | None:
    for _ in range(tries):
        rule = make()
        if rule is not None:
            return rule
    return None


def thermometer(grid: Grid, rng: random.Random) -> Rule | None:
    line = walk(grid, rng, rng.randint(3, 6), lambda line, c: grid[c] > grid[line[-1]])
    return Thermometer(tuple(line)) if line else None


def arrow(grid: Grid, rng: random.Random) -> Rule | None:
    circle = rng.randrange(N * N)
    pill = rng.random() < 0.2
    if pill:  # a two-cell circle read as a two-digit number, its second cell to the right
        if circle % N == N - 1:
            return None
        circles: tuple[int, ...] = (circle, circle + 1)
        goal = 10 * grid[circle] + grid[circle + 1]
        if goal > 30:
            return None
    else:
        circles = (circle,)
        goal = grid[circle]
    line = [circles[-1]]
    total = 0
    while total < goal:
        options = [c for c in king_neighbours(line[-1], N) if c not in line and c not in circles]
        options = [c for c in options if total + grid[c] <= goal]
        if not options:
            return None
        line.append(rng.choice(options))
        total += grid[line[-1]]
    return Arrow(circles, tuple(line[1:])) if len(line) >= 3 else None


def orthogonal_pairs() -> list[tuple[int, int]]:
    return [(c, q) for c in range(N * N) for q in orthogonal_neighbours(c, N) if c < q]


def dots(grid: Grid, rng: random.Random) -> list[Rule]:
    white = [Difference(p) for p in orthogonal_pairs() if abs(grid[p[0]] - grid[p[1]]) == 1]
    black = [
        Ratio(p)
        for p in orthogonal_pairs()
        if grid[p[0]] == 2 * grid[p[1]] or grid[p[1]] == 2 * grid[p[0]]
    ]
    return rng.sample(white, min(len(white), 6)) + rng.sample(black, min(len(black), 4))


def xv(grid: Grid, rng: random.Random) -> list[Rule]:
    marks = [
        XV(p, grid[p[0]] + grid[p[1]])
        for p in orthogonal_pairs()
        if grid[p[0]] + grid[p[1]] in (5, 10)
    ]
    return rng.sample(marks, min(len(marks), 6))


def sandwich(grid: Grid, rng: random.Random) -> Rule:
    index = rng.randrange(N)
    cells = (
        tuple(range(index * N, index * N + N))
        if rng.random() < 0.5
        else tuple(range(index, N * N, N))
    )
    digits = [grid[c] for c in cells]
    a, b = sorted((digits.index(1), digits.index(N)))
    return Sandwich(cells, sum(digits[a + 1 : b]))


def little_killer(grid: Grid, rng: random.Random) -> Rule:
    start = rng.randrange(1, N - 1)
    cells = tuple((r * N + start + r) for r in range(N - start))
    return LittleKiller(cells, sum(grid[c] for c in cells))


def parity(grid: Grid, rng: random.Random) -> list[Rule]:
    cells = rng.sample(range(N * N), 6)
    odd = tuple(c for c in cells if grid[c] % 2)
    even = tuple(c for c in cells if not grid[c] % 2)
    return [rule for rule in (Odd(odd), Even(even)) if rule.cells]


def whispers(grid: Grid, rng: random.Random) -> Rule | None:
    line = walk(grid, rng, rng.randint(3, 5), lambda line, c: abs(grid[c] - grid[line[-1]]) >= 5)
    return Whispers(tuple(line), 5) if line else None


def renban(grid: Grid, rng: random.Random) -> Rule | None:
    length = rng.randint(3, 4)

    def step(line: list[int], c: int) -> bool:
        digits = [grid[q] for q in line] + [grid[c]]
        return len(set(digits)) == len(digits) and max(digits) - min(digits) < length

    line = walk(grid, rng, length, step)
    return Renban(tuple(line)) if line else None


def between(grid: Grid, rng: random.Random) -> Rule | None:
    line = walk(grid, rng, rng.randint(3, 5), lambda line, c: True)
    if line is None:
        return None
    low, high = sorted((grid[line[0]], grid[line[-1]]))
    if all(low < grid[c] < high for c in line[1:-1]):
        return BetweenLine(tuple(line))
    return None


def quadruple(grid: Grid, rng: random.Random) -> Rule:
    row, col = rng.randrange(N - 1), rng.randrange(N - 1)
    cells = (row * N + col, row * N + col + 1, row * N + col + N, row * N + col + N + 1)
    return Quadruple(cells, tuple(sorted(grid[c] for c in rng.sample(cells, 2))))


def extremum(grid: Grid, rng: random.Random) -> Rule | None:
    cell = rng.randrange(N * N)
    others = [grid[q] for q in orthogonal_neighbours(cell, N)]
    if grid[cell] < min(others):
        return Minimum(cell)
    if grid[cell] > max(others):
        return Maximum(cell)
    return None


def cage(grid: Grid, rng: random.Random) -> Rule | None:
    cells = walk(
        grid,
        rng,
        rng.randint(2, 4),
        lambda line, c: (
            abs(c // N - line[-1] // N) + abs(c % N - line[-1] % N) == 1
            and grid[c] not in {grid[q] for q in line}
        ),
    )
    return Cage(tuple(cells), sum(grid[c] for c in cells)) if cells else None


def _some(make: Callable[[Grid, random.Random], Rule | None], count: int) -> Callable:
    def draw(grid: Grid, rng: random.Random) -> list[Rule]:
        found = [_tries(lambda: make(grid, rng)) for _ in range(count)]
        return [rule for rule in found if rule is not None]

    return draw


def _one(make: Callable[[Grid, random.Random], Rule]) -> Callable:
    return lambda grid, rng: [make(grid, rng)]


DRAWS: dict[str, Callable[[Grid, random.Random], list[Rule]]] = {
    "thermometer": _some(thermometer, 3),
    "arrow": _some(arrow, 3),
    "kropki": dots,
    "xv": xv,
    "sandwich": lambda grid, rng: [sandwich(grid, rng) for _ in range(3)],
    "littlekiller": _one(little_killer),
    "parity": parity,
    "whispers": _some(whispers, 2),
    "renban": _some(renban, 2),
    "betweenline": _some(between, 2),
    "quadruple": lambda grid, rng: [quadruple(grid, rng) for _ in range(2)],
    "extremum": _some(extremum, 2),
    "killercage": _some(cage, 3),
}

RECIPES: tuple[tuple[str, ...], ...] = (
    ("thermometer", "arrow"),
    ("kropki", "xv", "parity"),
    ("sandwich", "littlekiller", "thermometer"),
    ("arrow", "whispers", "betweenline", "quadruple"),
    ("renban", "extremum", "killercage", "kropki"),
    ("thermometer", "sandwich", "xv", "arrow"),
)
"""The kinds of rules drawn for each puzzle, in turn."""


def solution_of(puzzle: Puzzle) -> Grid:
    result = get_backend("backtrack").solve(puzzle, limit=1)
    return result.solutions[0]


def mixed_puzzle(start: Puzzle, recipe: Sequence[str], rng: random.Random) -> Puzzle:
    """``start``'s solution with rules of the ``recipe``'s kinds drawn on it, and as few of
    ``start``'s givens as keep one solution."""
    grid = solution_of(start)
    rules: list[Rule] = []
    for kind in recipe:
        rules += [r for r in DRAWS[kind](grid, rng) if r not in rules]
    model = CLASSIC.with_rules(rules=rules, size=N)
    cells = list(start.cells)
    puzzle = Puzzle(cells, model)
    for cell in rng.sample([c for c, d in enumerate(cells) if d], sum(map(bool, cells))):
        fewer = list(puzzle.cells)
        fewer[cell] = 0
        trial = puzzle.with_cells(fewer)
        if _is_unique(trial):
            puzzle = trial
    return puzzle


def _is_unique(puzzle: Puzzle) -> bool:
    result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=5.0)
    return result.exact and result.count == 1


def mixed_puzzles(count: int, seed: int = 0) -> list[Puzzle]:
    """``count`` mixed-rule 9x9 puzzles, the same for the same ``seed``."""
    rng = random.Random(seed)
    starts = load_puzzles("17clue", count)
    return [mixed_puzzle(p, RECIPES[i % len(RECIPES)], rng) for i, p in enumerate(starts)]


def measure(
    backend: str, puzzles: Sequence[Puzzle], repeat: int, timeout: float
) -> dict[str, object]:
    solver = get_backend(backend)
    times: list[float] = []
    refused = timeouts = wrong = 0
    for puzzle in puzzles:
        if solver.refusal(puzzle):
            refused += 1
            continue
        runs = [solver.solve(puzzle, limit=2, time_limit=timeout) for _ in range(repeat)]
        best = min(runs, key=lambda r: r.seconds)
        if not best.exact:
            timeouts += 1
        elif best.count != 1 or not puzzle.is_solution(best.solutions[0]):
            wrong += 1
        times.append(best.seconds * 1000)
    return {
        "backend": backend,
        "solved": len(times) - timeouts,
        "refused": refused,
        "timeouts": timeouts,
        "wrong": wrong,
        "median": statistics.median(times) if times else None,
        "worst": max(times) if times else None,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m sudoku_cp.perf.mixed_rules",
        description="Time the backends on mixed-rule 9x9 puzzles drawn on classic solutions.",
    )
    parser.add_argument("--count", type=int, default=24, help="puzzles (at most 200)")
    parser.add_argument("--backends", default="backtrack,cpsat,sat")
    parser.add_argument("--repeat", type=int, default=3, help="runs per puzzle (fastest kept)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per run")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 200 or not 1 <= args.repeat <= 20:
        parser.error("--count must be 1..200 and --repeat 1..20")
    puzzles = mixed_puzzles(args.count, args.seed)
    givens = [sum(map(bool, p.cells)) for p in puzzles]
    rules = [len(p.model.rules) for p in puzzles]
    print(
        f"{len(puzzles)} puzzles (seed {args.seed}): givens median {statistics.median(givens)}"
        f" (max {max(givens)}), rules median {statistics.median(rules)}; limit 2, fastest of"
        f" {args.repeat}"
    )
    print(f"{'backend':<12}{'median ms':>10}{'worst ms':>10}  solved refused timeouts wrong")
    for name in (b.strip() for b in args.backends.split(",") if b.strip()):
        row = measure(name, puzzles, args.repeat, args.timeout)
        median = "-" if row["median"] is None else f"{row['median']:.2f}"
        worst = "-" if row["worst"] is None else f"{row['worst']:.2f}"
        print(
            f"{name:<12}{median:>10}{worst:>10}  {row['solved']:>6} {row['refused']:>7}"
            f" {row['timeouts']:>8} {row['wrong']:>5}"
        )


if __name__ == "__main__":
    main()
