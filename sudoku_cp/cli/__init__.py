"""`sudoku-cp`: the command line, a thin layer over the library.

:mod:`.app` holds the group (its exit statuses, its one-line errors) and what every command
shares; each other module adds its commands to it when imported here.
"""

from . import batch, bench, certificate, info, logic, solve
from .app import main

__all__ = ["batch", "bench", "certificate", "info", "logic", "main", "solve"]
