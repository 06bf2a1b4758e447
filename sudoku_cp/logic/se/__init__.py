"""Sudoku Explainer's rating (SE, ER/EP/ED) for classic 9×9 puzzles.

:mod:`.rules` holds SE's rules in SE's order with SE's difficulty values, :mod:`.rating` SE's
solve loop and ER/EP/ED. The scale is implemented from the bottom up to where
:data:`.rating.NOT_IMPLEMENTED` begins; a path that needs more is reported as a lower bound.
"""

from .rating import NotRatable, SERating, rate_puzzle_se, rate_values

__all__ = ["NotRatable", "SERating", "rate_puzzle_se", "rate_values"]
