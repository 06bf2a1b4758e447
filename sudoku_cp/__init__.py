"""sudoku-cp: a constraint-programming modelling toolkit for Sudoku.

>>> from sudoku_cp import Puzzle, solve
>>> puzzle = Puzzle.parse("12..............")
>>> result = solve(puzzle, limit=2)
>>> result.status.value
'multiple'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import (
    BackendError,
    DuplicateGivenError,
    InputError,
    ModelError,
    PuzzleError,
    SudokuError,
)
from .version import __version__ as __version__

if TYPE_CHECKING:
    from .backends import (
        Backend,
        Counter,
        Option,
        Search,
        backend_names,
        get_backend,
        register,
    )
    from .batch import check_puzzles, read_records
    from .harness import cross_check
    from .model import Model, load_model, model_names
    from .puzzle import Puzzle
    from .result import Result, Status
    from .verdict import BackendRun, CheckRecord, Verdict

# Each public name is imported on first use (PEP 562), so that `sudoku-cp --help` and
# `import sudoku_cp.cli` load no model, backend or harness code until a command needs it.
_LAZY = {
    "Backend": "backends",
    "Counter": "backends",
    "Option": "backends",
    "Search": "backends",
    "backend_names": "backends",
    "get_backend": "backends",
    "register": "backends",
    "check_puzzles": "batch",
    "read_records": "batch",
    "cross_check": "harness",
    "Model": "model",
    "load_model": "model",
    "model_names": "model",
    "Puzzle": "puzzle",
    "BackendRun": "verdict",
    "CheckRecord": "verdict",
    "Result": "result",
    "Status": "result",
    "Verdict": "verdict",
}

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
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sudoku_cp' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next look-up is a plain one
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
    # The two common calls first, through the classic door, with the names the first call bound
    # (_solve_needs; until then _Puzzle is None and both tests fail): a few tenths of a µs is a
    # tenth of a 17-clue puzzle's solve.
    if backend == "backtrack" and not options:
        if type(puzzle) is _Puzzle:
            if time_limit is None:
                result = _classic_door(puzzle.model, puzzle.digits, limit)  # type: ignore[union-attr]
                if result is not None:
                    return result
        elif type(puzzle) is str and model == "classic" and _Puzzle is not None:
            # The cells of a plain 81-character line, a byte each (0 blank), read here (its call
            # was a thirtieth of the whole): a byte the table marks 0xFF, a character that is not
            # ASCII or another length leave raw None and the text to Puzzle.parse (_solve_line).
            try:
                codes = puzzle.encode("ascii").translate(_CLASSIC_CODES)
            except UnicodeEncodeError:
                codes = b""
            raw = codes if len(codes) == 81 and 0xFF not in codes else None
            result = None
            if raw is not None and time_limit is None:
                result = _classic_door(None, raw, limit)
                if result is not None and result.solutions:
                    return result  # (a solution holds every given: they repeat nowhere)
            return _solve_line(puzzle, raw, result, limit, time_limit)
    return _solve_plain(puzzle, backend, limit, time_limit, model, options)


# What solve() calls, bound by its first call (_solve_needs), not by ``import sudoku_cp``.
_Puzzle: Any = None
_classic_door: Any = None
_CLASSIC_CODES: bytes = b""
_SOLVE: list[Any] = []  # get_backend, and the classic model


def _solve_plain(
    puzzle: Puzzle | str | list,
    backend: str,
    limit: int | None,
    time_limit: float | None,
    model: Model | str,
    options: dict[str, Any],
) -> Result:
    """:func:`solve` of any other call (and of every call until the first binds its names)."""
    get_backend, _ = _SOLVE or _solve_needs()
    if isinstance(puzzle, str):
        if backend == "backtrack" and model == "classic" and not options:
            # (a plain str now, and the names bound: solve's own line path takes it)
            # (str.__str__, not str(): a subclass's own __str__ must not change the puzzle)
            return solve(str.__str__(puzzle), limit=limit, time_limit=time_limit)
        puzzle = _Puzzle.parse(puzzle, model=model)
    elif not isinstance(puzzle, _Puzzle):
        puzzle = _Puzzle(puzzle, model=model)
    elif model != "classic":  # (the default: a Puzzle of any model passes it)
        from .model import load_model

        if puzzle.model != load_model(model):  # it was ignored: the Puzzle's own was solved
            raise ModelError(
                "solve(puzzle, model=...) with a Puzzle: the Puzzle has its own model "
                f"({puzzle.model.name!r}); make the Puzzle with the model instead"
            )
    return get_backend(backend).solve(puzzle, limit=limit, time_limit=time_limit, **options)


def _solve_needs() -> list[Any]:
    """Import and bind what :func:`solve` calls."""
    global _Puzzle, _classic_door, _CLASSIC_CODES
    from .backends import get_backend
    from .backends.backtrack.kernel.glue import classic_door
    from .formats.line import CLASSIC_CODES
    from .model import load_model
    from .puzzle import Puzzle

    # (the classic model itself: load_model's look-up by name is a quarter of a µs a call)
    _SOLVE[:] = [get_backend, load_model("classic")]
    _classic_door, _CLASSIC_CODES, _Puzzle = classic_door, CLASSIC_CODES, Puzzle
    return _SOLVE


def _solve_line(
    text: str, raw: bytes | None, result: Result | None, limit: int | None, time_limit: float | None
) -> Result:
    """The rest of :func:`solve` of a classic puzzle's text by the backtracker with its default
    options (the fast strategy, whose search rejects repeated givens: it finds no solution),
    after :func:`solve` read ``raw``, its 81 cells when it is a plain line (every symbol a digit
    or blank; None for any other text), and took the classic door when it could (``result``:
    its answer with no solution; None when the door did not apply).

    The repeated-givens check waits for the answer: a solution holds every given and no digit
    twice in a group, so it clears the givens at no cost; only when none is found (or the search
    ran out of time first) are they checked, raising :class:`DuplicateGivenError` as
    :class:`Puzzle` does. Any other text takes :meth:`Puzzle.parse`, which checks them first."""
    get_backend, classic = _SOLVE
    if raw is None:
        return get_backend("backtrack").solve(
            _Puzzle.parse(text, model=classic), limit=limit, time_limit=time_limit
        )
    # A Puzzle is made only for the plain path, or to say why givens that repeat have no
    # solution.
    puzzle = _Puzzle.from_parsed(tuple(raw), 9, classic, digits=raw, check_givens=False)
    if result is None:
        result = get_backend("backtrack").solve(puzzle, limit=limit, time_limit=time_limit)
    if not result.solutions:
        puzzle.check_givens()  # raises DuplicateGivenError, as Puzzle.parse would have
    return result
