"""`sudoku-cp`: the command line, a thin layer over the library.

Exit statuses (every command):
  0  success (solve: a solution was found for every puzzle; check: every puzzle unique)
  1  a definite negative answer (solve: some puzzle has no solution; check: some puzzle
     multiple, none or invalid)
  2  unusable input or invocation (bad puzzle text, missing file, unknown backend/model/option)
  3  undecided (a time limit cut a search short before an answer; check: a disagreement)
  130 interrupted (Ctrl-C)
  143 terminated (SIGTERM) during a check or count batch; finished records kept
Errors are one line on standard error, never a traceback. Heavy libraries (OR-tools,
python-constraint, PySAT, rich) are imported only by the commands that need them.

:mod:`.app` holds the group and what every command shares; each other module adds its
commands to it when imported here.
"""

from . import batch, bench, info, solve
from .app import main

__all__ = ["batch", "bench", "info", "main", "solve"]
