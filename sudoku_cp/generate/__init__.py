"""Generating puzzles: unique by two paradigms, minimal when asked (and proven so),
symmetric, at a clue count or difficulty, for every model of groups, jigsaw regions, killer
cages and the variant rules drawn from a solution (:mod:`.marks`).

>>> from sudoku_cp.generate import Options, generate
>>> (made,) = generate(Options(size=4, seed=3), 1)
>>> made.record.verdict.value, made.puzzle.size
('unique', 4)

How a puzzle is made (:mod:`.make`): a solved grid drawn at random (:mod:`.grids`), for a
jigsaw after random connected regions, for a killer with random cages (:mod:`.killer`), for
other variants with rules drawn from it (:mod:`.marks`); then
remove-while-unique in random order, orbit by orbit of the chosen symmetry (:mod:`.carve`,
counting by :mod:`.counting`); then the targets (clues, minimality, difficulty from
:mod:`.difficulty`) are checked and a miss starts over, within caps on attempts and seconds;
finally the harness cross-checks the puzzle with two paradigms and, with ``certify``, a
checked DRAT proof is attached.
"""

from __future__ import annotations

from .make import Generated, Unreachable, make
from .options import OptionError, Options
from .run import generate

__all__ = ["Generated", "OptionError", "Options", "Unreachable", "generate", "make"]
