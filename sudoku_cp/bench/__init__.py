"""``sudoku-cp bench`` and ``sudoku-cp plot``: measuring and comparing solving paradigms.

:mod:`.run` measures every puzzle × backend × repeat and checks every answer; :mod:`.report`
reads and writes the tidy result table, summarises it and draws the figures.
"""

from .run import BenchConfig, BenchRun, run_bench, write_bench

__all__ = ["BenchConfig", "BenchRun", "run_bench", "write_bench"]
