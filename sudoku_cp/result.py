"""The records every other part speaks: a backend's ``Result`` and the harness's verdicts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any, TypeVar

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

    cls.__reduce__ = __reduce__  # type: ignore[assignment,method-assign]
    return cls


class _ByName(StrEnum):
    """An enum pickled by member name: a class attribute look-up when unpickled, where the
    default calls the class with the value (ten times slower, for every record)."""

    def __reduce_ex__(self, protocol: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        return getattr, (type(self), self._name_)


class Status(_ByName):
    """What one backend found for one puzzle.

    ``unique``, ``multiple`` and ``none`` are facts about the puzzle (``multiple`` needs only two
    solutions found, so it can come from a search that stopped at its limit); ``solved`` means the
    search found ``limit`` solutions (limit 1) and stopped without deciding uniqueness;
    ``timeout`` means the time limit cut the search short. ``error`` is never returned by a
    backend: the harness records it when a backend raised, crashed or answered nonsense.
    """

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    SOLVED = "solved"
    TIMEOUT = "timeout"
    ERROR = "error"


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


class Verdict(_ByName):
    """The harness's answer for one puzzle, after checking and comparing every backend.

    ``unique``: every backend that finished found exactly one solution, the same one;
    ``multiple``: at least two distinct valid solutions were found (two are kept as witnesses);
    ``none``: every backend that finished proved there is no solution;
    ``invalid``: the input is not a puzzle (no backend was run);
    ``disagreement``: a backend returned a solution the validator rejects, or a claim that the
    validated solutions of the others contradict;
    ``undecided``: no backend finished within its time limit (or none could decide).
    """

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    INVALID = "invalid"
    DISAGREEMENT = "disagreement"
    UNDECIDED = "undecided"

    @property
    def exit_status(self) -> int:
        """The command line's exit status for a run whose worst verdict is this one."""
        if self is Verdict.UNIQUE:
            return 0
        if self in (Verdict.MULTIPLE, Verdict.NONE, Verdict.INVALID):
            return 1
        return 3
