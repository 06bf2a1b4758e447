"""Every test backend that misbehaves on purpose, in one place.

Each is a small ``Backend`` subclass, added through the public ``register`` (the way a user adds
a backend) by the ``registered`` or ``fault_backends`` fixtures of conftest.py, and removed after
the test. Nothing registers on import. Workers are forked, so they see what the test registered;
a backend run in a fresh ``python`` (``Slow``, ``Sleepy``) is registered there by
``clitools.start_cli``/``clitools.PLUGIN``.

- whole-puzzle faults (the harness tests): ``WrongSolution``, ``FalselyUnique``, ``Raises``,
  ``Nonsense``, ``Hangs``, ``Reshaped``;
- faults on one chosen puzzle, the real backtracker elsewhere (the batch tests): ``SlowOnOne``,
  ``RaisesOnOne``, ``MalformedOnOne``, ``WrongOnOne``, ``HangsOnOne``, ``DiesOnOne``,
  ``HoldsOne``, ``FirstFinishesLast``;
- ``Counting`` (was any work done?), ``Slow`` and ``Sleepy`` (so a run can be stopped midway),
  ``SlowToStart`` (so a run can be stopped while it starts);
- ``Liar`` and ``Sleeper`` (the bench), ``LiesWhenFirstGivenIsOne`` and ``HangsOnVariants``
  (the metamorphic check), ``Probing`` (counters of a kind no built-in backend has).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from puzzles import EASY_LINES, EULER, INKALA

from sudoku_cp.backends import Backend, Counter, Search, get_backend
from sudoku_cp.backends.backtrack import BacktrackBackend
from sudoku_cp.result import Result, Status

REAL = "backtrack"


def _two_cells_swapped(puzzle) -> tuple[int, ...]:
    """The real solution with two free cells of different digits swapped: givens kept, groups
    broken."""
    solution = list(get_backend(REAL).solve(puzzle, limit=1).solution)
    free = [cell for cell, given in enumerate(puzzle.cells) if not given]
    a = free[0]
    b = next(c for c in free if solution[c] != solution[a])
    solution[a], solution[b] = solution[b], solution[a]
    return tuple(solution)


# --- whole-puzzle faults --------------------------------------------------------------------------
class WrongSolution(Backend):
    """Returns the real solution with two free cells swapped: givens kept, groups broken."""

    name = "test-wrong"
    summary = "returns a solution that breaks the rules"

    def search(self, puzzle, limit, deadline, options):
        return Search(solutions=[_two_cells_swapped(puzzle)], exhausted=True)


class FalselyUnique(Backend):
    """Returns one valid solution and claims the search was complete."""

    name = "test-falsely-unique"
    summary = "stops after one solution but says it searched everything"

    def search(self, puzzle, limit, deadline, options):
        return Search(
            solutions=list(get_backend(REAL).solve(puzzle, limit=1).solutions), exhausted=True
        )


class Raises(Backend):
    name = "test-raises"
    summary = "raises"

    def search(self, puzzle, limit, deadline, options):
        raise RuntimeError("boom")


class Nonsense(Backend):
    name = "test-nonsense"
    summary = "returns something that is not a Result"

    def solve(self, puzzle, *, limit=1, time_limit=None, **options):
        return {"status": "unique"}


class Hangs(Backend):
    name = "test-hangs"
    summary = "never returns, whatever its time limit"

    def search(self, puzzle, limit, deadline, options):
        while True:
            time.sleep(0.01)


class Reshaped(Backend):
    """Returns the real solution in another form than a tuple of plain ints (``form``, set per
    test with monkeypatch)."""

    name = "test-reshaped"
    summary = "returns the real solution as lists, NumPy ints, bools or floats"
    form = "lists"

    def solve(self, puzzle, *, limit=1, time_limit=None, **options):
        real = get_backend(REAL).solve(puzzle, limit=limit)
        solutions = [reshape(grid, self.form) for grid in real.solutions]  # a list of grids
        if self.form != "lists":
            solutions = tuple(solutions)
        return Result(self.name, real.status, solutions, real.exact, real.seconds, {"nodes": 1})


def reshape(grid, form):
    import numpy as np

    if form == "lists":
        return list(grid)
    if form == "numpy":
        return tuple(np.int64(d) for d in grid)
    if form == "bools":  # True in place of every 1
        return tuple(True if d == 1 else d for d in grid)
    if form in ("negative", "huge"):  # integers, but not digits: a wrong answer
        return (-grid[0] if form == "negative" else 2**70 + grid[0],) + tuple(grid[1:])
    return tuple(float(d) for d in grid)


# --- faults on one chosen puzzle, the real backtracker elsewhere --------------------------------
PUZZLES = EASY_LINES[:12]
"""The batch the one-puzzle faults run on; each fault strikes on one of them."""
RAISES_ON, MALFORMED_ON, WRONG_ON, HANGS_ON = (PUZZLES[i] for i in (2, 4, 6, 8))
HELD = PUZZLES[5]


class SlowOnOne(Backend):
    """The real backtracker, except that it never returns on INKALA."""

    name = "test-stuck-on-one"
    summary = "hangs on INKALA, solves everything else"

    def search(self, puzzle, limit, deadline, options):
        if puzzle.to_line() == INKALA:
            while True:
                time.sleep(0.01)
        real = get_backend(REAL)
        return real.search(puzzle, limit, deadline, real.check_options({}))


class _OnePuzzle(BacktrackBackend):
    """The real backtracker, except on ``target``, where ``fault`` decides what happens."""

    target = ""

    def solve(self, puzzle, *, limit=1, time_limit=None, **options):
        if puzzle.to_line() == self.target:
            return self.fault(puzzle, limit)
        return super().solve(puzzle, limit=limit, time_limit=time_limit, **options)

    def fault(self, puzzle, limit):
        raise NotImplementedError


class RaisesOnOne(_OnePuzzle):
    name, summary, target = "test-raises-on-one", "raises on one puzzle", RAISES_ON

    def fault(self, puzzle, limit):
        raise ZeroDivisionError("a bug in the backend")


class MalformedOnOne(_OnePuzzle):
    name, summary, target = "test-malformed-on-one", "a malformed result", MALFORMED_ON

    def fault(self, puzzle, limit):  # says unique, returns no solution
        return Result(self.name, Status.UNIQUE, (), True, 0.001, {}, {}, limit)


class WrongOnOne(_OnePuzzle):
    name, summary, target = "test-wrong-on-one", "a wrong solution on one puzzle", WRONG_ON

    def fault(self, puzzle, limit):  # the real solution with two cells swapped
        return Result(
            self.name, Status.UNIQUE, (_two_cells_swapped(puzzle),), True, 0.001, {}, {}, limit
        )


class HangsOnOne(_OnePuzzle):
    name, summary, target = "test-hangs-on-one", "ignores its time limit on one puzzle", HANGS_ON

    def fault(self, puzzle, limit):
        while True:
            time.sleep(0.01)


ON_ONE = (RaisesOnOne, MalformedOnOne, WrongOnOne, HangsOnOne)
"""The faults a batch records for their one puzzle each (all in one run)."""


class DiesOnOne(_OnePuzzle):
    name, summary, target = "test-dies-on-one", "its worker dies on one puzzle", HELD

    def fault(self, puzzle, limit):
        os.kill(os.getpid(), signal.SIGKILL)


class HoldsOne(BacktrackBackend):
    """The real backtracker; the first time it meets HELD it says where it is (its pid in
    ``folder / "held-by"``, set per test) and waits to be killed."""

    name, summary = "test-holds-one", "waits on one puzzle the first time"
    folder: Path | None = None

    def search(self, puzzle, limit, deadline, options):
        assert self.folder is not None
        mark = self.folder / "held-by"
        if puzzle.to_line() == HELD and not mark.exists():
            partial = self.folder / "held-by.tmp"
            partial.write_text(str(os.getpid()))
            partial.replace(mark)  # whole, or not there at all
            time.sleep(60)  # until killed
        return super().search(puzzle, limit, deadline, options)


class FirstFinishesLast(BacktrackBackend):
    """The real backtracker; on the first of PUZZLES it waits (up to 30 s) until the last one
    is solved in some worker (a file in ``folder``, set per test, else the working folder),
    and a moment more, so the first puzzle's record comes back after the others'. With a file
    ``keep-first`` there, it then waits a minute more: long enough to be interrupted."""

    name, summary = "test-first-finishes-last", "holds the first puzzle until the last is done"
    folder: Path | None = None

    def search(self, puzzle, limit, deadline, options):
        folder = self.folder or Path.cwd()
        mark = folder / "last-solved"
        line = puzzle.to_line()
        if line == PUZZLES[0]:
            give_up = time.monotonic() + 30
            while not mark.exists() and time.monotonic() < give_up:
                time.sleep(0.01)
            time.sleep(60 if (folder / "keep-first").exists() else 0.3)
        found = super().search(puzzle, limit, deadline, options)
        if line == PUZZLES[-1]:
            mark.write_text("yes")
        return found


# --- honest but observable: was work done, can a run be stopped midway --------------------------
class Counting(BacktrackBackend):
    """The real backtracker, counting its calls (in process, ``-j 0``): was any work done?"""

    name, summary = "test-counting", "counts its calls"
    calls = 0

    def search(self, puzzle, limit, deadline, options):
        Counting.calls += 1
        return super().search(puzzle, limit, deadline, options)


class Slow(BacktrackBackend):
    """The real backtracker, 40 ms slower per puzzle, so a run can be stopped midway."""

    name, summary = "test-slow", "the backtracker, 40 ms slower"

    def search(self, puzzle, limit, deadline, options):
        time.sleep(0.04)
        return super().search(puzzle, limit, deadline, options)


class Sleepy(BacktrackBackend):
    """Marks that it started (a file ``started`` in the working folder), then takes a minute:
    long enough to be interrupted."""

    name, summary = "test-sleepy", "takes a minute"

    def search(self, puzzle, limit, deadline, options):
        Path("started").write_text("yes")
        time.sleep(60)
        return super().search(puzzle, limit, deadline, options)


class SleepyAfterEuler(BacktrackBackend):
    """The backtracker on EULER; on any other puzzle it marks that it started (a file
    ``started`` in the working folder), then takes a minute: a bench of EULER then another
    puzzle can be stopped once EULER is measured in full."""

    name, summary = "test-sleepy-after-euler", "takes a minute on every puzzle but EULER"

    def search(self, puzzle, limit, deadline, options):
        if puzzle.to_line() != EULER:
            Path("started").write_text("yes")
            time.sleep(60)
        return super().search(puzzle, limit, deadline, options)


class SlowToStart(BacktrackBackend):
    """The backtracker, slow to say it is available (as a backend importing a big library is):
    while a file ``hold`` is in the working folder, asking marks ``starting`` there and waits,
    so a run can be stopped while it starts."""

    name, summary = "test-slow-start", "the backtracker, slow to import"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if Path("hold").exists():
            Path("starting").write_text("yes")
            deadline = time.monotonic() + 60
            while Path("hold").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        return None


# --- the bench and the metamorphic check ---------------------------------------------------------
class Liar(Backend):
    """Claims every puzzle is unique, 'solving' it by writing 1 in every blank cell."""

    name = "test-liar"
    summary = "a wrong backend for tests"

    def search(self, puzzle, limit, deadline, options):
        return Search(solutions=[tuple(d or 1 for d in puzzle.cells)], exhausted=True)


class Sleeper(Backend):
    """Ignores its deadline: only the bench's hard limit can stop it."""

    name = "test-sleeper"
    summary = "a backend that never looks at the clock"

    def search(self, puzzle, limit, deadline, options):
        time.sleep(60)
        return Search(exhausted=True)


class LiesWhenFirstGivenIsOne(BacktrackBackend):
    """Honest, except when the first given (reading order) is a 1: then it stops at the first
    solution and claims to have searched everything. Alone, nothing shows the lie; a relabelled
    copy of the puzzle does."""

    name, summary = "test-label-liar", "claims unique when the first given is a 1"

    def search(self, puzzle, limit, deadline, options):
        found = super().search(puzzle, limit, deadline, options)
        if next(d for d in puzzle.cells if d) == 1:
            found.solutions[1:] = []
            found.exhausted = True
        return found


class HangsOnVariants(BacktrackBackend):
    """Answers EULER itself, hangs on any transform of it."""

    name, summary = "test-hangs-on-variants", "hangs on every puzzle but EULER"

    def search(self, puzzle, limit, deadline, options):
        while puzzle.to_line() != EULER:
            time.sleep(0.01)
        return super().search(puzzle, limit, deadline, options)


class Probing(Backend):
    """A backend that only declares itself: its counters (one of a kind no built-in backend
    has) are what is tested; it never searches."""

    name = "test-probing"
    summary = "declares a size counter no built-in backend has"
    counters = {
        "probes": Counter("cells probed", kind="size"),
        "dead_probes": Counter("probes that found nothing", kind="dead-end"),
        "probe_seconds": Counter("time spent probing"),
    }

    def search(self, puzzle, limit, deadline, options) -> Search:  # pragma: no cover
        raise NotImplementedError


ALL = (
    WrongSolution,
    FalselyUnique,
    Raises,
    Nonsense,
    Hangs,
    Reshaped,
    SlowOnOne,
    *ON_ONE,
    DiesOnOne,
    HoldsOne,
    FirstFinishesLast,
    Counting,
    Slow,
    Sleepy,
    Liar,
    Sleeper,
    LiesWhenFirstGivenIsOne,
    HangsOnVariants,
)
"""Every backend above that answers puzzles; the ``fault_backends`` fixture registers them all
for one test. (``Probing`` is left out: its counters would reach every bench summary.)"""
