"""sudoku-cp: a constraint-programming modelling toolkit for Sudoku.

>>> from sudoku_cp import Puzzle, solve
>>> puzzle = Puzzle.parse("12..............")
>>> result = solve(puzzle, limit=2)
>>> result.status.value
'multiple'
"""

from __future__ import annotations

from typing import Any

from .backends import (
    Backend,
    Counter,
    Option,
    Search,
    backend_names,
    get_backend,
    register,
)
from .errors import (
    BackendError,
    DuplicateGivenError,
    InputError,
    ModelError,
    PuzzleError,
    SudokuError,
)
from .harness import cross_check
from .model import Model, load_model, model_names
from .puzzle import Puzzle
from .result import BackendRun, CheckRecord, Result, Status, Verdict
from .version import __version__ as __version__

__all__ = [
    "Backend",
    "BackendError",
    "Counter",
    "DuplicateGivenError",
    "InputError",
    "Model",
    "ModelError",
    "Option",
    "Puzzle",
    "PuzzleError",
    "Result",
    "Search",
    "Status",
    "SudokuError",
    "backend_names",
    "get_backend",
    "load_model",
    "model_names",
    "register",
    "solve",
    "BackendRun",
    "CheckRecord",
    "Verdict",
    "check_puzzles",
    "cross_check",
    "read_records",
]


def __getattr__(name: str) -> Any:
    # The batch package pulls in multiprocessing, csv and json: load it on first use only,
    # so `import sudoku_cp` stays fast.
    if name in ("check_puzzles", "read_records"):
        from . import batch

        return getattr(batch, name)
    raise AttributeError(f"module 'sudoku_cp' has no attribute {name!r}")


def solve(
    puzzle: Puzzle | str | list,
    backend: str = "backtrack",
    *,
    limit: int | None = 1,
    time_limit: float | None = None,
    model: Model | str = "classic",
    **options: Any,
) -> Result:
    """Solve ``puzzle`` (a Puzzle, puzzle text or a nested list) with the named backend.

    ``limit`` is how many solutions to look for (None = all); ``options`` are the backend's own
    (see ``sudoku-cp backends``), such as ``strategy="naive"`` for the backtracker.
    """
    if isinstance(puzzle, str):
        puzzle = Puzzle.parse(puzzle, model=model)
    elif not isinstance(puzzle, Puzzle):
        puzzle = Puzzle(puzzle, model=model)
    return get_backend(backend).solve(puzzle, limit=limit, time_limit=time_limit, **options)
