"""One puzzle from text or decoded JSON: the readers of :mod:`.text`, building a Puzzle."""

from __future__ import annotations

from typing import Any

from ..model import Model
from ..puzzle import Puzzle
from .text import read_data, read_text


def parse_puzzle(text: str, model: Model | str = "classic", fmt: str = "auto") -> Puzzle:
    """One puzzle from text in any single-puzzle form (line, grid, rows, JSON).

    >>> parse_puzzle("12.. ..12 .... ....").givens_count
    4
    >>> parse_puzzle("[[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, null]]").cells[:4]
    (1, 0, 0, 0)
    >>> parse_puzzle("1 . 3")
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.PuzzleError: read 3 cells; a puzzle has N*N cells: 16 (4x4), 36 (6x6), \
64 (8x8), 81 (9x9), 100 (10x10), 144 (12x12), 256 (16x16), 625 (25x25) …
    """
    return read_text(text, model, fmt, Puzzle.from_parsed)


def puzzle_from_data(data: Any, model: Model | str = "classic") -> Puzzle:
    """A puzzle from decoded JSON: a list of rows, a line string, or ``{"puzzle": …}``.

    >>> puzzle_from_data({"puzzle": "1.....1........."}).givens_count
    2
    >>> puzzle_from_data([1, 2, 3, 4])
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.PuzzleError: a JSON puzzle is a list of rows (lists of integers); item 1 is 1
    """
    return read_data(data, model, Puzzle.from_parsed)
