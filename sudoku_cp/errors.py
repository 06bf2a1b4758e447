"""The errors a user can cause. Each carries one line that says what and where.

The command line turns every ``SudokuError`` into that line on standard error and
exit status 2 (``UsageError`` and friends) — never a traceback.
"""

from __future__ import annotations


def one_line(message: str) -> str:
    r"""``message`` with control characters shown escaped, so that it stays one line even when
    it quotes a file name or an id holding a line break.

    >>> one_line("file not found: a\rb")
    'file not found: a\\rb'
    """
    if message.isprintable():
        return message
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)


class SudokuError(Exception):
    """Base class of every error a user can cause; ``str(err)`` is one clear line."""


class ModelError(SudokuError):
    """A model name or model file that cannot be used (unknown, malformed, wrong size)."""


class PuzzleError(SudokuError):
    """Text or data that is not a puzzle (wrong length, unknown symbol, repeated given …)."""


class DuplicateGivenError(PuzzleError):
    """A digit given twice in one group: the puzzle contradicts itself before any search."""


class GivensBreakRule(PuzzleError):
    """The givens alone break a rule of the model (see ``Puzzle.check_givens``)."""


class NotUniqueError(PuzzleError):
    """A puzzle with more than one solution (or whose uniqueness could not be confirmed) where
    one is assumed: a rating, or the techniques that assume one (unique rectangles, BUG+1)."""


class BackendError(SudokuError):
    """An unknown backend, an unavailable one, or an option it does not take."""


class InputError(SudokuError):
    """A file or stream that cannot be read (missing, a directory, no permission, binary)."""


class OutputError(SudokuError):
    """The output file cannot be written (read-only place, missing folder, disk full)."""


class ClusterLost(SudokuError):
    """The Dask scheduler (or the client's link to it) went away mid-run: the records finished
    are written, and the run, marked interrupted, can be resumed. ``summary`` is the batch's
    when it had begun."""

    summary: object = None
