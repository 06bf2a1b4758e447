"""The SE rater's speed door: its solve path run by the compiled producers
(:mod:`.compiled`, numba, the ``jit`` extra) where they exist, by the plain ones elsewhere.

Plain Python, importing numba only in :func:`compiled_driver`. The path it gives is the plain
path step for step (same producers, same first steps; ``tests/test_se_compiled.py`` checks it
on real paths), without each step's ``where`` text: what shows steps to a person
(``explain --scale se``) rates through the plain path.

When it opens: as the backtracker's kernel (:mod:`sudoku_cp.backends.backtrack.kernel.glue`,
the same ``SUDOKU_CP_KERNEL`` switch): never when numba is missing or the switch is off; at the
first rating when it is on; else once this process has spent :data:`LOAD_AFTER` seconds
rating on the plain path, so that rating one ordinary puzzle never waits for numba (loading
the compiled code from numba's disk cache costs about half a second, compiling it the first
time on a machine about a minute), and a batch or a long rating loses at most that much. While
another process compiles it, a process goes on rating plain (:func:`open_door`). The time a
rating spends opening the door counts against no time cap.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .step import Producer, Step

LOAD_AFTER = 0.25
"""Seconds of plain rating a process spends before it opens the door."""
STEPS_PER_CALL = 1000
"""Steps one compiled call may take before the clock is read again (a time cap is checked
between calls, as the plain path checks it between steps): more than a path has, as the call
hands back after each step of a slow producer (``driver.SLOW_FROM``) anyway, and the others
take microseconds."""

_DOOR: dict[str, Any] = {"plain_seconds": 0.0}
log = logging.getLogger(__name__)


def _mode() -> str:
    from ...backends.backtrack.kernel.glue import ENV, installed, turned_off

    if turned_off() or not installed():
        return "off"
    value = os.environ.get(ENV, "").strip().lower()
    return "on" if value in ("1", "on", "true", "yes") else "auto"


def load_failure() -> str | None:
    """Why the compiled producers failed to load in this process, or None."""
    return _DOOR.get("failed")


def count_plain(seconds: float) -> None:
    """Add a plain rating's time to what opens the door."""
    _DOOR["plain_seconds"] += seconds


def compiled_driver() -> Any:
    """The compiled driver module when the door is open (opening it when its time has come),
    else None."""
    driver = _DOOR.get("driver")
    if driver is not None or "failed" in _DOOR:
        return driver
    mode = _mode()
    if mode == "off" or (mode == "auto" and _DOOR["plain_seconds"] < LOAD_AFTER):
        return None
    return open_door(wait=mode == "on")


_LOADED: dict[str, Any] = {}
"""The driver once loaded in this process (the door's state may be reset; the code stays)."""


def open_door(wait: bool = True) -> Any:
    """Load the compiled producers (from numba's disk cache, or compiled here once), whatever
    the switch says but off; None when numba is missing or fails to load (said in the log).
    One process of the machine compiles at a time (a lock); without ``wait``, one that finds
    another compiling gets None at once and goes on rating plain — a rating waiting a minute
    for another's compile would stall its batch — and asks again after its next plain step."""
    if "driver" in _DOOR:
        return _DOOR["driver"]
    if _mode() == "off":
        return None
    if "driver" in _LOADED:
        _DOOR["driver"] = _LOADED["driver"]
        return _DOOR["driver"]
    from ...backends.backtrack.kernel.compile_once import (
        check_cache,
        compiled_here,
        compiling,
    )

    start = time.perf_counter()
    try:
        with compiling("se-rater", wait=wait) as free:
            if not free:
                return None
            from .compiled import driver

            # (the driver compiles the producers' code in: cached code from older producers
            # is dropped before numba reads any)
            check_cache(driver.run, driver.__file__)

            values = _array([0] * 81)
            cands = _array([0] * 81)
            driver.initial(values, cands)
            driver.run(values, cands, 0, 1, _array([0] * driver.LOG_SIZE))
    except Exception as error:  # numba that fails to load: the plain path goes on, and says so
        reason = f"the compiled SE rater failed to load ({type(error).__name__}: {error})"
        _DOOR["failed"] = reason
        log.warning("%s; the plain producers rate instead", reason)
        return None
    _DOOR["driver"] = _LOADED["driver"] = driver
    seconds = time.perf_counter() - start
    if any(compiled_here(module) for module in (driver, *driver.SOURCES)):
        # (a pause of this length in a rating is said, once a machine; loads are not)
        log.warning(
            "the SE rater compiled its producers in %.1f s (once a machine: numba's disk "
            "cache keeps them)",
            seconds,
        )
    return driver


def nested_rules(driver: Any, wait: bool) -> Any:
    """The nested forcing chains' compiled rules (:mod:`.compiled.nested`, what a nested
    chaining reads when its links run out), loaded when a path first reaches a nested level —
    most puzzles never do: from numba's disk cache, or compiled here once a machine (about 20
    s). None while another process compiles them (without ``wait``: the nested chains read
    their plain rules meanwhile, as :func:`open_door`) or when they fail to load (said once)."""
    if "nested" in _LOADED:
        return _LOADED["nested"]
    if "nested failed" in _DOOR:
        return None
    from ...backends.backtrack.kernel.compile_once import compiled_here, compiling

    start = time.perf_counter()
    try:
        with compiling("se-rater", wait=wait) as free:
            if not free:
                return None
            values = cands = _array([0] * 81)
            for level, nesting in ((3, 0), (4, 0)):  # (every compiled rule)
                driver.nested.advanced_records(values, cands, cands, level, nesting)
    except Exception as error:  # as open_door: the plain rules go on, and it is said
        reason = (
            f"the compiled rules of SE's nested chains failed to load "
            f"({type(error).__name__}: {error})"
        )
        _DOOR["nested failed"] = reason
        log.warning("%s; their plain rules run instead", reason)
        return None
    _LOADED["nested"] = driver.nested
    if compiled_here(driver.nested):
        log.warning(
            "the SE rater compiled its nested chains' rules in %.1f s (once a machine: "
            "numba's disk cache keeps them)",
            time.perf_counter() - start,
        )
    return driver.nested


def _array(values: list[int]) -> Any:
    import numpy as np

    return np.array(values, dtype=np.int64)


def compiled_path(
    driver: Any,
    producers: Sequence[tuple[str, Producer]],
    floors: Mapping[str, float],
    start: tuple[list[int], list[int] | None],
    deadline: float,
    ending: list[Any],
) -> Iterator[Step | Journal]:
    """The steps of SE's path from ``start``, the givens and candidates (SE's masks; None:
    what the filled cells leave), a compiled producer's as the :class:`Journal` of its run: a
    compiled producer asked where there is one, else the plain one of ``producers`` (SE's
    list, in its order). Ends when the grid is solved, no
    producer has a step, or ``deadline`` (a ``perf_counter`` time) passes; ``ending`` is then
    set to ``[outcome, floor]`` as :func:`.rating.rate_values` reads it (the floor of a
    producer stopped by the time cap from ``floors``)."""
    import numpy as np

    from .forcing import TimeCapReached
    from .grid import SEGrid

    assert len(producers) == driver.PRODUCER_COUNT, "the driver follows SE's producers"
    values, cands = start

    grid_values = _array(values)
    grid_cands = _array(cands) if cands is not None else _array([0] * 81)
    if cands is None:
        driver.initial(grid_values, grid_cands)
    journal = np.zeros(driver.LOG_SIZE, dtype=np.int64)
    names = driver.NAMES
    first = 0
    while True:
        if time.perf_counter() > deadline:
            ending[:] = ["time cap", 0.0]
            return
        count, stop, used = driver.run(grid_values, grid_cands, first, STEPS_PER_CALL, journal)
        first = 0
        if count:
            yield Journal(journal[:used].tolist(), count, names)
        if stop == -1:
            if not grid_values.all():
                continue  # the call's steps ran out: the clock is read, the path goes on
            ending[:] = ["solved", 0.0]
            return
        if stop == driver.PRODUCER_COUNT:
            ending[:] = ["beyond", 0.0]
            return
        name, producer = producers[stop]
        grid = SEGrid(grid_values.tolist(), grid_cands.tolist())
        if stop >= driver.NESTED_FROM:
            asked = time.perf_counter()
            grid.fast = nested_rules(driver, wait=_mode() == "on")
            deadline += time.perf_counter() - asked  # (loading them counts against no cap)
        grid.deadline = deadline
        try:
            step = next(iter(producer(grid)), None)
        except TimeCapReached:
            ending[:] = ["time cap", floors.get(name, 0.0)]
            return
        if step is None:
            first = stop + 1
            continue
        yield step
        step.apply(grid)
        grid_values[:] = grid.values
        grid_cands[:] = grid.cands


class Journal:
    """Steps the compiled loop took, as it logged them (``driver.run``): read for their
    difficulties and placements (:meth:`marks`) without building a :class:`Step`, built into
    Steps by :meth:`steps` when the path's steps are read."""

    __slots__ = ("numbers", "count", "names")

    def __init__(self, numbers: list[int], count: int, names: dict[int, tuple[str, ...]]) -> None:
        self.numbers = numbers
        self.count = count
        self.names = names

    def marks(self) -> Iterator[tuple[float, bool]]:
        """Each step's difficulty and whether it places a digit."""
        numbers = self.numbers
        pos = 0
        for _ in range(self.count):
            yield numbers[pos + 2] / 10, numbers[pos + 3] >= 0
            pos += 6 + 2 * numbers[pos + 5]

    def steps(self) -> list[Step]:
        numbers = self.numbers
        steps = []
        pos = 0
        for _ in range(self.count):
            producer, name, tenths, cell, value, removed = numbers[pos : pos + 6]
            pos += 6
            if removed:
                end = pos + 2 * removed
                pairs = numbers[pos:end]
                removals = tuple(zip(pairs[::2], pairs[1::2], strict=True))
                pos = end
            else:
                removals = ()
            placement = (cell, value) if cell >= 0 else None
            steps.append(Step(self.names[producer][name], tenths / 10, removals, placement))
        return steps
