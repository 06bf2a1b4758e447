"""Sudoku Explainer's rating (SE, ER/EP/ED) for classic 9×9 puzzles.

:mod:`.rules`, :mod:`.uniqueness`, :mod:`.chains` and :mod:`.forcing` hold SE's rules in SE's
order with SE's difficulty values (every producer of SE 1.2.1's set, the nested forcing chains
of levels 2 to 4 included), :mod:`.rating` SE's solve loop and ER/EP/ED. A path no producer
moves on, or one the time cap stops, is reported as a lower bound.

The project's HoDoKu-style techniques (:mod:`sudoku_cp.logic`) are not reused: SE's rating
depends on SE's exact rules — its "direct" pointing and hidden sets that only place a digit,
the empty-cell thresholds of its subset rules, its fish's digit filter, its scan orders (the
first step found is applied) and its chain search and hint order — which those techniques,
written to HoDoKu's order and definitions, do not reproduce step for step.

A Royle 17-clue puzzle SE 1.2.1's ``serate`` rates 2.8/1.5/1.5:

>>> from sudoku_cp import Puzzle
>>> p = ".......193..6..............6...8.5...4....3......1....48.....7....2..4...1.9....."
>>> rating = rate_puzzle_se(Puzzle.parse(p))
>>> rating.text(), rating.outcome
('2.8/1.5/1.5', 'solved')
"""

from .rating import NotRatable, SERating, rate_puzzle_se, rate_values

__all__ = ["NotRatable", "SERating", "rate_puzzle_se", "rate_values"]
