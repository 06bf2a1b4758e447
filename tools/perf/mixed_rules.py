"""Mixed-rule 9x9 puzzles drawn on classic solutions, and the backends timed on them.

    python -m tools.perf.mixed_rules [--count 24] [--backends backtrack,cpsat,sat]
                                         [--repeat 3] [--seed 0] [--timeout 20]

Each puzzle starts from the solution of a bundled 17-clue puzzle (``sudoku_cp/data/17clue.csv``,
solved by ``backtrack``). Rules that hold in that solution are drawn at random by the
generator's own drawers (:data:`sudoku_cp.generate.marks.MARKS`, killer cages from
:func:`sudoku_cp.generate.killer.random_cages`) — thermometers, arrows, kropki dots, XV,
sandwich sums, little killers, odd and even cells, whispers, renban and between lines,
quadruples, minimum and maximum cells, killer cages — a few kinds per puzzle, in turn from
:data:`RECIPES`. The 17 givens are then taken away one by one, in a seeded order, while the
puzzle stays unique (asked of ``backtrack``; the benchmark has every backend check it again):
the rules carry most of the information, few givens remain.

For each backend it prints, per puzzle set, the median and worst wall time of a uniqueness check
(limit 2, fastest of ``--repeat`` runs) and how many puzzles it refused, timed out on or got
wrong (a count other than 1 or a solution the validator rejects). It asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Sequence

from sudoku_cp.backends import get_backend
from sudoku_cp.datasets import load_puzzles
from sudoku_cp.generate.killer import random_cages
from sudoku_cp.generate.marks import MARKS
from sudoku_cp.model import load_model
from sudoku_cp.puzzle import Grid, Puzzle
from sudoku_cp.rules import Cage, Rule

N = 9
CLASSIC = load_model("classic")


def drawn(kind: str, count: int) -> Callable[[Grid, random.Random], list[Rule]]:
    """Up to ``count`` rules of the generator's own drawer for ``kind`` (a name in
    :data:`sudoku_cp.generate.marks.MARKS`), picked at random from what it draws on the grid."""

    def draw(grid: Grid, rng: random.Random) -> list[Rule]:
        chosen, _ = MARKS[kind](grid, N, rng, False)
        return rng.sample(chosen, min(count, len(chosen)))

    return draw


def cages(count: int) -> Callable[[Grid, random.Random], list[Rule]]:
    """Up to ``count`` killer cages of two cells or more, from the generator's cage layout."""

    def draw(grid: Grid, rng: random.Random) -> list[Rule]:
        layout = [cells for cells in random_cages(grid, N, rng) if len(cells) >= 2]
        picked = rng.sample(layout, min(count, len(layout)))
        return [Cage(cells, sum(grid[c] for c in cells)) for cells in picked]

    return draw


DRAWS: dict[str, Callable[[Grid, random.Random], list[Rule]]] = {
    # The recipes' names, each the generator's drawer (sudoku_cp.generate) and how many it keeps.
    "thermometer": drawn("thermo", 3),
    "arrow": drawn("arrow", 3),
    "kropki": drawn("kropki", 10),
    "xv": drawn("xv", 6),
    "sandwich": drawn("sandwich", 3),
    "littlekiller": drawn("little-killer", 1),
    "parity": drawn("odd-even", 6),
    "whispers": drawn("whispers", 2),
    "renban": drawn("renban", 2),
    "betweenline": drawn("between", 2),
    "quadruple": drawn("quadruple", 2),
    "extremum": drawn("min-max", 2),
    "killercage": cages(3),
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
        prog="python -m tools.perf.mixed_rules",
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
