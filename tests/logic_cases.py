"""Boards for the technique tests: a line of HoDoKu's regression library, and the states of
real solves for the soundness fuzz.

A line of HoDoKu's regression library (reglib-1.4.txt), for the tests that copy the lines of
their technique as literal data:

The format as HoDoKu's ``RegressionTester.test`` and ``Sudoku2.setSudoku`` read it (hobiwan's
HoDoKu, src/sudoku/): ``:code[-variant]:candidates:grid:deleted:eliminations:placements:extra:``;
in the grid a digit after '+' was placed, not given (``setIsFixed`` false): it is placed on the
board, not made a given of the puzzle; the deleted candidates ("digit row column", counted from
1) are then removed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from logic_driver import check_step, puzzle_of, read_csv

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.logic.board import Board, Technique, every_step
from sudoku_cp.logic.solver import solve_logically


def candidates(field: str) -> set[tuple[int, int]]:
    """ "436 257" (digit, row, column) → {(cell, digit)}."""
    return {((int(t[1]) - 1) * 9 + int(t[2]) - 1, int(t[0])) for t in field.split()}


def fields(line: str) -> list[str]:
    parts = line.split(":")
    assert len(parts) >= 7 and parts[0] == "", line
    return parts


def board_of(line: str) -> Board:
    grid, deleted = fields(line)[3:5]
    givens: list[int] = []
    placed: list[int] = []
    plus = False
    for ch in grid:
        if ch == "+":
            plus = True
            continue
        digit = 0 if ch == "." else int(ch)
        givens.append(0 if plus else digit)
        placed.append(digit if plus else 0)
        plus = False
    assert len(givens) == 81, line
    board = Board(Puzzle(givens))
    for cell, digit in enumerate(placed):
        if digit:
            board.place(cell, digit)
    for cell, digit in candidates(deleted):
        board.eliminate(cell, digit)
    return board


def expected(line: str) -> set[tuple[int, int]]:
    """The eliminations the case expects."""
    return candidates(fields(line)[5])


def solve_states(puzzle: Puzzle) -> Iterator[Board]:
    """The board before each step of the solver's own solve (uniqueness techniques on) that is
    not a single: the states the advanced techniques meet, placed cells and all."""
    for values, candidates in _solve_snapshots(puzzle):
        board = Board(puzzle)
        board.values[:] = values
        board.candidates[:] = candidates
        yield board


@functools.cache
def _solve_snapshots(puzzle: Puzzle) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """(values, candidates) before each step of :func:`solve_states`: the solve is most of a
    fuzz's time, and two fuzzes (Sue de Coq, the uniqueness tests) walk the same puzzles."""
    singles = {"Full House", "Naked Single", "Hidden Single"}
    return tuple(
        (tuple(step.values), tuple(step.candidates))
        for step in solve_logically(puzzle, uniqueness=True).steps
        if step.technique not in singles
    )


def real_puzzles(jigsaw: bool = False, top1465: int = 100, hardest: int = 50) -> list[Puzzle]:
    """A few hundred bundled puzzles (in the package, so the fuzz runs anywhere): the first
    ``top1465`` of top1465 and ``hardest`` of the forum's hardest, and 100 17-clue ones; or,
    ``jigsaw``, the jigsaws (regions: the techniques over other groups)."""
    if jigsaw:
        rows = read_csv("jigsaw.csv", 100)
    else:
        rows = [
            *read_csv("top1465.csv", top1465),
            *read_csv("forum-hardest.csv", hardest),
            *read_csv("17clue.csv", 100),
        ]
    return [puzzle_of(row) for row in rows]


def solved_puzzles() -> list[Puzzle]:
    """The puzzles whose logical solves the fuzzes walk: :func:`real_puzzles` with 35 of
    top1465's (0.3 s a solve, and most of the steps: hundreds of Sue de Coq) and 15 of the
    forum's hardest (whose solves stall early)."""
    return real_puzzles(top1465=35, hardest=15)


def fuzz(techniques: dict[str, Technique], puzzles: list[Puzzle]) -> dict[str, int]:
    """Every step of each technique on every state of the puzzles' solves, checked against the
    puzzle's one solution (the backtracker's); how many steps each made."""
    made = dict.fromkeys(techniques, 0)
    backtrack = get_backend("backtrack")
    for puzzle in puzzles:
        found = backtrack.solve(puzzle, limit=2)
        assert found.count == 1, puzzle.to_line()
        solution = found.solutions[0]
        for board in solve_states(puzzle):
            for name, find in techniques.items():
                for step in every_step(find, board):
                    assert step.technique == name
                    check_step(board, step, solution)
                    made[name] += 1
    return made
