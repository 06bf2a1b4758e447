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


class Verdict(StrEnum):
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
