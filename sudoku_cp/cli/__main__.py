"""``python -m sudoku_cp.cli``: the same as the ``sudoku-cp`` command."""

from .app import main

main()
