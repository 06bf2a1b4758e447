"""Mixed-rule 9×9 puzzles drawn on a classic solution, and how long a backend takes on them.

    python -m tools.perf.variant_puzzles [--count 20] [--seed 1] [--givens 8]
                                             [--backends constraint] [--timeout 20]

Each puzzle starts from a full classic grid (the solution of the first puzzle of the bundled
``top1465`` sample, shuffled by a seeded random relabelling and row / column moves that keep a
Sudoku a Sudoku), then draws rules that hold in it with the generator's own drawers —
thermometers, arrows, white and black dots, X and V, odd and even cells, a little killer, a
sandwich sum, a between line, a quadruple, a whisper, a renban, a minimum or maximum cell — and
keeps ``--givens`` of its digits. The grid is therefore one solution of every puzzle; whether it
is the only one is what the run finds out (a uniqueness check, limit 2). Every solution goes
through the validator.

It prints, per backend, the median and largest wall time and the verdicts; it asserts nothing.
These are developer puzzles, not published ones: the README's benchmark of published variant
puzzles is issue 15's own.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from sudoku_cp.model import load_model
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.rules import Rule

from .mixed_rules import drawn

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


VARIANT_DRAWS = (
    # (the generator's kind, how many of its rules a puzzle keeps)
    ("thermo", 2),
    ("arrow", 2),
    ("whispers", 1),
    ("renban", 1),
    ("between", 1),
    ("kropki", 7),
    ("xv", 4),
    ("odd-even", 6),
    ("little-killer", 1),
    ("sandwich", 1),
    ("quadruple", 1),
    ("min-max", 1),
)


def variant_rules(grid: Sequence[int], rng: random.Random) -> list[Rule]:
    """Rules of many kinds that all hold in ``grid`` (a full 9×9 grid), each kind drawn by the
    generator's own drawer (:data:`sudoku_cp.generate.marks.MARKS`)."""
    rules: list[Rule] = []
    for kind, count in VARIANT_DRAWS:
        rules += [rule for rule in drawn(kind, count)(tuple(grid), rng) if rule not in rules]
    return rules


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
    from sudoku_cp.backends import get_backend

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
