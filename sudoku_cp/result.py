"""The records every other part speaks: a backend's ``Result`` and the harness's verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .puzzle import Grid


class Status(StrEnum):
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
