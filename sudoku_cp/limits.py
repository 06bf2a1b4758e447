"""The caps on user-given numbers that the command line reads before it imports anything heavy
(re-exported by :mod:`sudoku_cp.backends`, which checks them)."""

MAX_LIMIT = 100_000
"""The most solutions a search may be asked for (``--limit``): each is kept in memory, ~1 kB for
a 9x9 grid, in every backend's worker. ``None`` (``--all``) is bounded by the time limit."""
MAX_TIME_LIMIT = 86_400.0
"""The longest time limit, in seconds (a day), per backend per puzzle (``--time-limit``)."""
