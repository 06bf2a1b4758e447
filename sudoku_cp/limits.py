"""The caps on user-given numbers that the command line reads before it imports anything heavy
(re-exported by :mod:`sudoku_cp.backends`, which checks them)."""

MAX_LIMIT = 100_000
"""The most solutions a search may be asked for (``--limit``): each is kept in memory, ~1 kB for
a 9x9 grid, in every backend's worker. ``None`` (``--all``) is bounded by the time limit."""
MAX_SOLUTION_CELLS = MAX_LIMIT * 81
"""Above 16x16, the most cells of solutions one search keeps: :data:`MAX_LIMIT` 9x9 grids'
worth. An empty 25x25 grid counted to 100,000 solutions reached 4.8 GB, an empty 64x64 over
7 GB (each solution is kept, for the validator, in every backend): :func:`solution_cap`."""


def solution_cap(size: int) -> int:
    """The most solutions one search of a ``size`` x ``size`` grid keeps: :data:`MAX_LIMIT` up
    to 16x16, :data:`MAX_SOLUTION_CELLS` / N² above (12,960 at 25x25, 1,977 at 64x64).

    >>> solution_cap(9), solution_cap(16), solution_cap(25), solution_cap(64)
    (100000, 100000, 12960, 1977)
    """
    return MAX_LIMIT if size <= 16 else MAX_SOLUTION_CELLS // (size * size)


MAX_TIME_LIMIT = 86_400.0
"""The longest time limit, in seconds (a day), per backend per puzzle (``--time-limit``)."""

MAX_SEED = 2**63 - 1
"""The largest ``--seed`` (a 64-bit signed integer, as records and other tools keep it); seeds
start at 0."""
