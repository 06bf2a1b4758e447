"""``sudoku-cp bench`` and ``sudoku-cp plot``: measuring and comparing solving paradigms.

:mod:`.run` measures every puzzle × backend × repeat and checks every answer; :mod:`.record`
holds its configuration, makes and reads its record and writes its files; :mod:`.report` reads
and writes the tidy result table and summarises it; :mod:`.plots` draws the figures.
"""

from .record import BenchConfig, BenchRun, write_bench
from .run import run_bench

__all__ = ["BenchConfig", "BenchRun", "run_bench", "write_bench"]
