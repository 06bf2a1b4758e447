"""A tiny human-style solve for the advanced-technique tests: singles, then the techniques
under test, each step checked against the puzzle's solution (from the sat backend).

Kept here, not in the library: the real solver loop is another module's job; this one only
brings grids to the states the advanced techniques work on.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Sequence
from pathlib import Path

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.logic.board import Board, Technique
from sudoku_cp.logic.steps import Step
from sudoku_cp.model import load_model

DATA = Path(__file__).resolve().parent.parent / "sudoku_cp" / "data"


def singles(board: Board) -> bool:
    """Naked and hidden singles until none is left; False when the grid broke."""
    progress = True
    while progress:
        progress = False
        for cell, mask in enumerate(board.candidates):
            if board.values[cell]:
                continue
            if not mask:
                return False
            if mask & (mask - 1) == 0:
                board.place(cell, mask.bit_length())
                progress = True
        for group in board.groups:
            if len(group) != board.size:
                continue
            for digit in range(1, board.size + 1):
                bit = 1 << (digit - 1)
                spots = [c for c in group if board.candidates[c] & bit]
                if len(spots) == 1 and not board.values[spots[0]]:
                    board.place(spots[0], digit)
                    progress = True
    return True


def solutions(puzzle: Puzzle) -> tuple[tuple[int, ...], ...]:
    """Up to two solutions, checked by the validator."""
    result = get_backend("sat").solve(puzzle, limit=2)
    for grid in result.solutions:
        assert puzzle.is_solution(grid)
    return tuple(tuple(g) for g in result.solutions)


def check_step(board: Board, step: Step, solution: Sequence[int]) -> None:
    """A step is sound when it removes only candidates the solution does not use, places only
    the solution's digits, and rests on candidates that are there."""
    assert step.placements or step.eliminations, step
    for cell, digit in step.eliminations:
        assert board.has(cell, digit), (step.technique, "removes a missing candidate", step)
        assert solution[cell] != digit, (step.technique, "removes the solution", step.text)
    for cell, digit in step.placements:
        assert solution[cell] == digit, (step.technique, "places a wrong digit", step.text)
    for cell, digit in step.proof:
        assert board.has(cell, digit), (step.technique, "rests on a missing candidate", step)
    for link in step.links:
        for cell, digit in (link.start, link.end):
            assert board.has(cell, digit), (step.technique, "links a missing candidate", step)


def run(
    puzzle: Puzzle,
    techniques: Sequence[tuple[str, Technique]],
    solution: Sequence[int],
    max_steps: int = 60,
) -> list[Step]:
    """Singles, then the first technique that applies, checked and applied, again and again."""
    board = Board(puzzle)
    steps: list[Step] = []
    while len(steps) < max_steps:
        assert singles(board)
        if board.solved():
            break
        for _, technique in techniques:
            step = technique(board)
            if step is not None:
                check_step(board, step, solution)
                steps.append(step)
                board.apply(step)
                break
        else:
            break
    return steps


def read_csv(name: str, count: int) -> list[dict[str, str]]:
    with (DATA / name).open(newline="") as handle:
        return [row for _, row in zip(range(count), csv.DictReader(handle), strict=False)]


def puzzle_of(row: dict[str, str]) -> Puzzle:
    if row.get("regions"):
        model = load_model("classic").with_rules(regions=[int(ch) for ch in row["regions"]])
        return Puzzle.parse(row["puzzle"], model)
    return Puzzle.parse(row["puzzle"])


def thinned(
    puzzle: Puzzle, solution: Sequence[int], rng: random.Random, share: float = 0.2
) -> Board:
    """The puzzle's board with a random ``share`` of the candidates the solution does not use
    removed: a state the solution still fits, with more bivalue cells, strong links and fish
    than the bare puzzle has."""
    board = Board(puzzle)
    for cell, digit in enumerate(solution):
        if board.values[cell]:
            continue
        for other in range(1, puzzle.size + 1):
            if other != digit and board.has(cell, other) and rng.random() < share:
                board.eliminate(cell, other)
    return board
