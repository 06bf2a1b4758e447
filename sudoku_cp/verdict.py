"""The harness's records: its ``Verdict`` on a puzzle, each backend's ``BackendRun`` and the
``CheckRecord`` that holds them (what ``check`` writes, a JSON Lines record each)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .formats.line import format_line
from .puzzle import Grid
from .result import (
    DECIDING,
    ByName,
    Status,
    microseconds,
    pickled_by_fields,
    solutions_text,
    witness_grid,
)


class Verdict(ByName):
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


# --- the harness's records --------------------------------------------------------------------
@pickled_by_fields
@dataclass(slots=True)
class BackendRun:
    """What one backend did on one puzzle, as the harness saw it.

    ``status`` is what the backend said (or ``timeout``/``error`` when it ran out of time,
    raised, crashed or returned something that is not a well-formed result); ``count`` is how
    many solutions it returned, ``seconds`` the wall time the harness measured around the call.
    ``error`` says why the status is ``error``; ``problems`` says why its answer is *wrong*
    (a solution the validator rejects, or a claim the others' valid solutions contradict) —
    a backend with problems makes the verdict ``disagreement``.
    """

    status: Status
    count: int = 0
    exact: bool = False
    seconds: float = 0.0
    counters: dict[str, float | int] = field(default_factory=dict)
    error: str | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """True when the backend gave an answer (not a timeout or a failure)."""
        return self.status in DECIDING

    @property
    def wrong(self) -> bool:
        return bool(self.problems)

    def said(self) -> str:
        """What the backend said, in a few words: ``unique (1 solution)``, ``timeout after 2 s``."""
        if self.status is Status.ERROR or self.status is Status.UNSUPPORTED:
            return f"{self.status.value} ({self.error})"
        if self.status is Status.TIMEOUT:
            found = f", {solutions_text(self.count)} found" if self.count else ""
            return f"timeout after {self.seconds:.3g} s{found}"
        return f"{self.status.value} ({solutions_text(self.count)})"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": self.status._value_,  # (``.value`` is a property: 4x slower, per record)
            "count": self.count,
            "exact": self.exact,
            "seconds": microseconds(self.seconds),
            "counters": self.counters,
        }
        if self.error is not None:
            data["error"] = self.error
        if self.problems:
            data["problems"] = self.problems
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BackendRun:
        return cls(
            status=Status(data["status"]),
            count=int(data.get("count", 0)),
            exact=bool(data.get("exact", False)),
            seconds=float(data.get("seconds", 0.0)),
            counters=dict(data.get("counters") or {}),
            error=data.get("error"),
            problems=list(data.get("problems") or []),
        )


@pickled_by_fields
@dataclass(slots=True)
class CheckRecord:
    """The harness's answer for one puzzle: the verdict, the evidence and every backend's run.

    ``id`` comes from the input (else the 1-based position); ``index`` is the 1-based position
    in the whole input stream (unique even when ids repeat) and ``line`` the line number in the
    source file. ``count`` is the number of distinct *valid* solutions found and ``exact`` says
    whether that is the puzzle's true count; ``solutions`` keeps up to two of them as witnesses
    (grids; written in single-line form). ``reason`` explains every verdict but ``unique``
    (and notes backends that failed even then). ``metamorphic`` is set when transformed
    copies of the puzzle were cross-checked too (:func:`check_variants`): how many, how many
    agreed, how many could not be compared (a variant no backend decided).
    """

    id: str
    puzzle: str
    verdict: Verdict
    count: int = 0
    exact: bool = False
    solutions: list[Grid] = field(default_factory=list)
    backends: dict[str, BackendRun] = field(default_factory=dict)
    reason: str | None = None
    index: int = 1
    line: int | None = None
    source: str | None = None
    metamorphic: dict[str, int] | None = None
    certificate: dict[str, Any] | None = None
    """Set by ``check --certify``: ``certified`` (bool) and the certificate's ``path`` and
    ``sha256``, or the ``reason`` it is not certified (:mod:`sudoku_cp.certify`)."""
    shrunk: dict[str, Any] | None = None
    """Set by ``check --shrink`` on a disagreement: the smallest reproducer found, its givens
    and rules against the original's, the solver calls it took (:mod:`sudoku_cp.shrink`)."""
    rating: dict[str, Any] | None = None
    """Set by ``check --rate`` on a ``unique`` verdict, with the ``scale`` it is on
    (:mod:`sudoku_cp.logic.scales`): HoDoKu's ``level`` and ``score``, the ``hardest``
    technique and the solve's ``outcome``; or SE's ``er``/``ep``/``ed`` (each with ``*_exact``,
    false for a lower bound), ``outcome``, ``hardest`` and ``steps``; or the ``reason`` it was
    not rated (``level``/``er`` None)."""

    published: str | None = None
    """Set when the puzzle states its solution (:attr:`Puzzle.published`): ``match``,
    ``differs``, ``holds`` or ``breaks: <the rule as read that rejects it>``
    (:mod:`sudoku_cp.published`); anything but ``match`` beside a decided answer makes the
    verdict a ``disagreement``."""

    def solution_lines(self) -> list[str]:
        """The witnesses as result files write them: each in single-line form."""
        return [format_line(grid, math.isqrt(len(grid))) for grid in self.solutions]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict, the form of one JSON Lines record."""
        data = {
            "id": self.id,
            "index": self.index,
            "line": self.line,
            "source": self.source,
            "puzzle": self.puzzle,
            "verdict": self.verdict._value_,
            "count": self.count,
            "exact": self.exact,
            "solutions": self.solution_lines(),
            "reason": self.reason,
            "backends": {name: run.to_dict() for name, run in self.backends.items()},
        }
        if self.metamorphic is not None:  # only when asked for: plain records stay as they were
            data["metamorphic"] = self.metamorphic
        if self.certificate is not None:  # likewise, only with --certify
            data["certified"] = self.certificate.get("certified", False)
            data["certificate"] = {k: v for k, v in self.certificate.items() if k != "certified"}
        if self.shrunk is not None:  # likewise, only with --shrink and on a disagreement
            data["shrunk"] = self.shrunk
        if self.rating is not None:  # likewise, only with --rate
            data["rating"] = self.rating
        if self.published is not None:  # likewise, only for a puzzle stating its solution
            data["published"] = self.published
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CheckRecord:
        """The record back from :meth:`to_dict`'s form (e.g. a line of a JSON Lines file)."""
        return cls(
            id=str(data["id"]),
            puzzle=data.get("puzzle", ""),
            verdict=Verdict(data["verdict"]),
            count=int(data.get("count", 0)),
            exact=bool(data.get("exact", False)),
            solutions=[witness_grid(line) for line in data.get("solutions") or []],
            backends={
                name: BackendRun.from_dict(run)
                for name, run in (data.get("backends") or {}).items()
            },
            reason=data.get("reason"),
            index=int(data["index"]),  # (no default: a resumed run would skip puzzle 1)
            line=data.get("line"),
            source=data.get("source"),
            metamorphic=data.get("metamorphic"),
            certificate=(
                None
                if "certified" not in data
                else {"certified": bool(data["certified"]), **(data.get("certificate") or {})}
            ),
            shrunk=data.get("shrunk"),
            rating=data.get("rating"),
            published=data.get("published"),
        )
