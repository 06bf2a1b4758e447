"""The records every other part speaks: a backend's ``Result`` and its ``Status`` (the
harness's ``Verdict``, ``BackendRun`` and ``CheckRecord`` live in :mod:`.verdict`, above this
module: ``solve`` needs none of them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any, TypeVar

from .formats.line import line_cells
from .puzzle import Grid

_T = TypeVar("_T")


def pickled_by_fields(cls: type[_T]) -> type[_T]:
    """Make a dataclass pickle as its class and its field values in order (unpickled by
    calling the class with them).

    Records cross between the batch runner and its worker processes a chunk at a time, and
    the ``__getstate__``/``__setstate__`` that ``dataclass(slots=True)`` writes run in Python
    field by field: this is about three times faster both ways."""
    values = attrgetter(*(f.name for f in fields(cls)))  # type: ignore[arg-type]

    def __reduce__(self: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        return type(self), values(self)

    cls.__reduce__ = __reduce__  # type: ignore[method-assign]
    return cls


class ByName(StrEnum):
    """An enum pickled by member name: a class attribute look-up when unpickled, where the
    default calls the class with the value (ten times slower, for every record)."""

    def __reduce_ex__(self, protocol: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        return getattr, (type(self), self._name_)


class Status(ByName):
    """What one backend found for one puzzle.

    ``unique``, ``multiple`` and ``none`` are facts about the puzzle (``multiple`` needs only two
    solutions found, so it can come from a search that stopped at its limit); ``solved`` means the
    search found ``limit`` solutions (limit 1) and stopped without deciding uniqueness;
    ``timeout`` means the time limit cut the search short; ``undecided`` means a backend that
    does not search (``logic``: deduction alone) stopped without an answer. ``error`` and
    ``unsupported`` are never returned by a backend: the harness records ``error`` when a
    backend raised, crashed or answered nonsense, and ``unsupported`` when the backend said
    up front that it cannot take the puzzle (:meth:`sudoku_cp.Backend.supports`) — neither votes.
    """

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    SOLVED = "solved"
    TIMEOUT = "timeout"
    UNDECIDED = "undecided"
    ERROR = "error"
    UNSUPPORTED = "unsupported"


DECIDING = frozenset({Status.UNIQUE, Status.MULTIPLE, Status.NONE, Status.SOLVED})
"""The statuses of a backend that gave an answer (the others ran out of time, failed, or were
not run because the puzzle has a rule they do not support)."""


@dataclass(frozen=True)
class Result:
    """One backend's answer for one puzzle.

    ``solutions`` holds up to ``limit`` distinct solutions; ``exact`` is True when the search
    was exhaustive, so ``count`` is the puzzle's true number of solutions. ``seconds`` is wall
    time inside ``solve`` and ``stats`` holds the backend's own counters (documented per backend).
    """

    backend: str
    status: Status
    solutions: tuple[Grid, ...]
    exact: bool
    seconds: float
    stats: dict[str, float | int] = field(default_factory=dict)
    options: dict[str, object] = field(default_factory=dict)
    limit: int | None = 1
    candidates: tuple[int, ...] | None = None
    """For ``undecided``: the candidate masks (bit d-1 for digit d) where deduction stopped."""

    @classmethod
    def made(
        cls,
        backend: str,
        status: Status,
        solutions: tuple[Grid, ...],
        exact: bool,
        seconds: float,
        stats: dict[str, float | int],
        options: dict[str, object],
        limit: int | None,
    ) -> Result:
        """The same Result as the constructor's (``candidates`` None), made without its
        per-field ``object.__setattr__`` calls (it is frozen): ~2 µs, which was half the
        kernel's time on a 17-clue puzzle, for every ``solve``."""
        result = object.__new__(cls)
        result.__dict__.update(
            {
                "backend": backend,
                "status": status,
                "solutions": solutions,
                "exact": exact,
                "seconds": seconds,
                "stats": stats,
                "options": options,
                "limit": limit,
                "candidates": None,
            }
        )
        return result

    @property
    def count(self) -> int:
        return len(self.solutions)

    @property
    def solution(self) -> Grid | None:
        return self.solutions[0] if self.solutions else None

    @property
    def finished(self) -> bool:
        return self.status not in (Status.TIMEOUT, Status.ERROR)


def status_for(count: int, limit: int | None, exhausted: bool, timed_out: bool) -> Status:
    """The one rule, shared by every backend, that turns what a search saw into a status."""
    if count >= 2:
        return Status.MULTIPLE
    if timed_out and not (limit is not None and count >= limit):
        return Status.TIMEOUT
    if limit is not None and count >= limit and not exhausted:
        return Status.SOLVED
    if not exhausted:
        return Status.TIMEOUT
    return Status.UNIQUE if count == 1 else Status.NONE


def microseconds(seconds: float) -> float:
    """``round(seconds, 6)`` for the non-negative times of records, in a fifth of the time."""
    return int(seconds * 1e6 + 0.5) / 1e6


def solutions_text(count: int) -> str:
    """``1 solution``, ``2 solutions``."""
    return f"{count} solution{'' if count == 1 else 's'}"


def witness_grid(line: str) -> Grid:
    """A witness read back from a result file's single-line form."""
    return tuple(line_cells(line)[0])


def shown_id(ident: str) -> str:
    r"""A record's id as people see it in a table or a sentence: one line, told apart from any
    other id. An id of printable characters (not starting with ``"``) is shown as it is; any
    other is shown in double quotes, with quotes, backslashes and every character that is not
    printable escaped (``\\n``, ``\\u001b`` …).

    >>> shown_id("AI Escargot"), shown_id("a\nb"), shown_id("a\\nb"), shown_id('"a"')
    ('AI Escargot', '"a\\nb"', 'a\\nb', '"\\"a\\""')
    """
    if ident.isprintable() and not ident.startswith('"'):
        return ident
    return '"' + "".join(map(_escaped, ident)) + '"'


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ch.isprintable():
        return ch
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
