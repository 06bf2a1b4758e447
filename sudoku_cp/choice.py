"""Which backends judge a puzzle by default: two paradigms, the fastest for its size and rules.

``check``, ``count`` and ``bench`` run, unless told otherwise (``--backends a,b`` or
``--backends all``), the first two backends of a preference order that are installed and take
the puzzle (a backend that refuses its rules — dlx on cages — is passed over). The order comes
from the time each backend takes at that size (uniqueness checks, median per puzzle, measured
one backend at a time):

- up to 16x16: ``backtrack`` (hand-written search, well under a millisecond on 17-clue
  puzzles), then ``sat`` (CDCL), then ``dlx``, ``cpsat``, ``constraint``;
- above 16x16: ``sat``, then ``backtrack`` when its compiled kernel is installed (numba; it
  learns nogoods from its dead ends there), else ``cpsat`` (lazy clause generation) — ``sat``
  decides every public 25x25 puzzle within a minute, ``backtrack``'s kernel 18 of the 19 at up
  to 1.84x ``sat``'s time, ``cpsat`` takes 1.3-2.6x ``backtrack``'s on those measured; ``dlx``
  and ``constraint`` decide only a few.

- puzzles with lines, dots or sums (thermometers, arrows, kropki, sandwiches … — any rule
  beyond killer cages, anti-knight and anti-king): ``sat``, then ``cpsat`` —
  on the 28 published puzzles of ``variants9`` they decide 27 and 28 within 30 s (medians 12
  and 27 ms), where ``backtrack`` leaves 7 undecided.
So every verdict is still agreed by two independent paradigms, and ``constraint`` (hundreds of
milliseconds a 17-clue puzzle) runs only when asked for. The choice depends on nothing but the
puzzle's size, its rules and what is installed: the same input gives the same choice on any
run, and each record lists the backends that judged it. With fewer than two backends able to
take a puzzle, the one there is judges alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .puzzle import Puzzle

AUTO = "auto"
"""``--backends auto`` (the default): this module's choice, puzzle by puzzle."""
ALL = "all"
"""``--backends all``: every available backend on every puzzle."""
JUDGES = 2
"""How many backends judge a puzzle by default: two paradigms must agree."""

SMALL_ORDER = ("backtrack", "sat", "dlx", "cpsat", "constraint")
LARGE_ORDER = ("sat", "cpsat", "backtrack", "dlx", "constraint")
LARGE_ORDER_COMPILED = ("sat", "backtrack", "cpsat", "dlx", "constraint")
"""Above 16x16 with ``backtrack``'s compiled kernel installed and not turned off."""
VARIANT_ORDER = ("sat", "cpsat", "backtrack", "constraint", "dlx")
SEARCHED_WELL = frozenset({"killercage", "antiknight", "antiking"})
"""Rules the small-grid order suits (backtrack decides killer puzzles in milliseconds).
Not non-consecutive: on generated 9x9 puzzles of few givens backtrack took a minute a puzzle
where sat took well under a second."""
LARGE_FROM = 17
"""Sizes from here on (25x25 …) take :data:`LARGE_ORDER`."""


def preference(size: int) -> tuple[str, ...]:
    """The backends in the order they are chosen for a puzzle of ``size``.

    >>> preference(9)[:2], preference(25)[0]
    (('backtrack', 'sat'), 'sat')
    """
    if size < LARGE_FROM:
        return SMALL_ORDER
    from .backends import backtrack

    compiled = backtrack.installed_and_on()
    return LARGE_ORDER_COMPILED if compiled else LARGE_ORDER


def choose(puzzle: Puzzle, available: Sequence[str]) -> tuple[str, ...]:
    """The backends that judge ``puzzle`` by default: the first :data:`JUDGES` of
    :func:`preference` that are in ``available`` and do not refuse it (then any other of
    ``available``, in its order, that takes it). Not cached: see :class:`Chooser`.

    >>> from sudoku_cp import Puzzle
    >>> choose(Puzzle([0] * 81), ["backtrack", "cpsat", "sat", "dlx"])
    ('backtrack', 'sat')
    """
    from .backends import get_backend

    variant = bool(puzzle.model.rule_keys - SEARCHED_WELL) and puzzle.size < LARGE_FROM
    order = [n for n in (VARIANT_ORDER if variant else preference(puzzle.size)) if n in available]
    order += [n for n in available if n not in order]
    chosen: list[str] = []
    for name in order:
        if get_backend(name).refusal(puzzle) is None:
            chosen.append(name)
            if len(chosen) == JUDGES:
                break
    return tuple(chosen)


class Chooser:
    """:func:`choose`, remembered per (model, size): a batch asks once per kind of puzzle,
    not once per puzzle (a dict look-up, where a refusal check costs microseconds)."""

    __slots__ = ("available", "known")

    MAX_KNOWN = 4096
    """Kinds remembered; puzzles with rules of their own (cages) are each a kind, so the
    memory is emptied when it grows past this."""

    def __init__(self, available: Sequence[str]) -> None:
        self.available = tuple(available)
        self.known: dict[tuple[object, int], tuple[str, ...]] = {}

    def __call__(self, puzzle: Puzzle) -> tuple[str, ...]:
        key = (puzzle.model, puzzle.size)
        chosen = self.known.get(key)
        if chosen is None:
            if len(self.known) >= self.MAX_KNOWN:
                self.known.clear()
            chosen = self.known[key] = choose(puzzle, self.available)
        return chosen


def first_solutions(
    puzzle: Puzzle, limit: int, seconds: float
) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """Up to ``limit`` solutions of ``puzzle`` by the first backend of :func:`choose`, and
    whether they are known to be all there are up to ``limit`` (the search finished within
    ``seconds``, or found ``limit``); ``((), False)`` when no installed backend takes it."""
    from .backends import available_backends, get_backend

    chosen = choose(puzzle, available_backends())
    if not chosen:
        return (), False
    result = get_backend(chosen[0]).solve(puzzle, limit=limit, time_limit=seconds)
    return result.solutions, result.exact or len(result.solutions) >= limit
