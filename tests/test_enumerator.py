"""The test enumerator (variants.solutions) filters grids with numpy before the validator judges
them; a filter stricter than the rule would lose solutions from every count the tests compare
with. Here its answer is held to the validator's alone, over every 4x4 Latin square."""

from __future__ import annotations

import random

import pytest
from variants import latin_squares, solutions

from sudoku_cp.errors import SudokuError
from sudoku_cp.model import load_model
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.rules import Cage, Skyscraper, Thermometer, XSum
from sudoku_cp.rules.outside import outside_line


def _clue(rng: random.Random, n: int) -> Skyscraper | XSum | Cage | Thermometer:
    kind = rng.randrange(4)
    if kind < 2:
        place = rng.choice(
            [(rng.randrange(n), -1), (rng.randrange(n), n), (-1, rng.randrange(n))]
            + [(n, rng.randrange(n))]
        )
        cells = outside_line(*place, n)
        assert cells is not None
        if kind == 0:
            return Skyscraper(cells, rng.randint(1, n))
        return XSum(cells, rng.randint(1, n * (n + 1) // 2))
    if kind == 2:
        return Cage((0, 1, n), rng.randint(3, 3 * n))
    return Thermometer((n + 1, n + 2, 2 * n + 2))


@pytest.mark.parametrize("seed", range(30))
def test_the_filters_keep_exactly_the_grids_the_validator_accepts(seed: int) -> None:
    rng, n = random.Random(seed), 4
    rules = [_clue(rng, n) for _ in range(rng.randint(1, 3))]
    try:
        puzzle = Puzzle([0] * n * n, load_model("latin").with_rules(rules=rules, size=n))
    except SudokuError:
        pytest.skip(f"{rules}: not a valid set of rules")
    every = [tuple(int(d) for d in grid) for grid in latin_squares(n)]
    assert solutions(puzzle) == sorted(grid for grid in every if puzzle.is_solution(grid))
