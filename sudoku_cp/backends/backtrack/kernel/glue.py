"""Glue between the ``backtrack`` backend and its optional compiled kernel (:mod:`.generic`).

The backend's ``fast`` strategy hands a puzzle to a kernel when numba is installed
(``pip install 'sudoku-cp[jit]'``), the puzzle's rules are all-different groups only, or
classic 9x9 with rules that only limit cells' digits (a candidate grid: :func:`classic_marks`),
or groups with digit rules, pair rules (thermometers, dots, whispers …), sums (arrows,
little killers, cages with a total), sequences (skyscrapers, X-sums) and sandwiches
(:func:`takes_rules`; no triples, quadruples), its size is below 17 (bigger grids have a
kernel of their own, :mod:`.learn`), and neither the backend's option ``kernel=false`` nor the
environment variable ``SUDOKU_CP_KERNEL=0`` turns it off. Otherwise the pure-Python search
runs, unchanged: it is also the reference the kernels are tested against.

Two kernels: classic 9x9 (rows, columns and boxes, and digit rules at most) goes to
:mod:`.classic`, on per-digit bitboards, with stronger inference and its own branching (the
same solutions and counts as the pure search, in another order); every other model of groups
to :mod:`.generic`, the pure search's own algorithm compiled (the same solutions in the same
order, the same nodes), and so do models with digit and pair rules, branched on by dom/wdeg
(:data:`WEIGHTED_RULES`), and models with sums, cages, sequences and sandwiches (a fixed
point maybe stronger than the pure search's): the same solutions and counts, in another
order. :data:`CLASSIC` turns the first off; :class:`Solver` uses it only when asked
(``same_search=False``): the generator needs the pure search's order.

numba and numpy are imported on the first solve, never by ``import sudoku_cp``; the code is
cached on disk (``cache=True``; :func:`.compile_once.check_cache` drops what older sources
left), and :func:`warm_up` loads it once per worker process.

Two entry points take digits directly, as tdoku's solver does: :func:`solve_digits` (one
puzzle: its count up to a limit and its solutions) and :func:`count_many` (many puzzles in one
call). :func:`classic_door` is the public ``solve()``'s fast path for a classic puzzle.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import struct
import threading
import time
from collections.abc import Callable
from time import perf_counter
from typing import Any

from ....model import Model
from ....puzzle import Grid, Puzzle
from ....result import Result, Status
from ... import Search
from .compile_once import check_cache, compiled_here, compiling
from .model_tables import RULES_MAX_SIZE, Tables, classic_marks, takes
from .sequence_tables import sequences

ENV = "SUDOKU_CP_KERNEL"
"""``0`` (or ``off``, ``false``, ``no``) keeps the backtracker in pure Python; ``1`` (``on``,
``true``, ``yes``) loads the kernel at the first solve; unset (``auto``): see :func:`search`."""
LOAD_AFTER = 0.25
"""Seconds of pure-Python search a process spends before it loads the kernel (when nothing
loaded it before): about half what loading costs, so a one-off solve of an ordinary puzzle
never waits for numba, and a long run loses at most this much."""
MAX_SIZE = 64
"""A cell's candidates are one 64-bit word."""
WORK_PER_CALL = 400_000
"""Cells' worth of work a kernel call may do before it returns so the clock can be read: a node
costs roughly a pass over the grid, so a call tries about this ÷ N² nodes (4,900 at 9x9, a
millisecond or two; 97 at 64x64)."""
PROBE_NODES = 64
"""Nodes a model with pieces to derive sums from (cages with a total, sums of weight 1: the
layout's ``derived.derived_sums``) is searched without them first: most killers are decided by
propagation alone, and deriving the sums (half a millisecond, and as much again to lay them
out, on a bundled 9x9 killer) would double their time. Past this, the search starts again
with them (when it derives any: else it goes on)."""
SOLUTION_ROWS = 64
"""Solutions the kernel hands back per call at most (more: it is called again)."""
FIRST_FRAMES = 64
"""Frames (branch levels) the stack starts with; it doubles when a search goes deeper."""

CLASSIC = True
"""Whether classic 9x9 puzzles go to the bitboard kernel (:mod:`.classic`); False sends
them to the generic one (tests do, to test it on classic puzzles too)."""

WEIGHTED_RULES = True
"""Whether the generic kernel branches by dom/wdeg on models with digit and pair rules
(:func:`takes_rules`): on the open cell with the fewest candidates per dead end it led to, or
on a digit's two places in a group when they weigh more (see the kernel's
``_branch_weighted``), as the pure search weighs cells from
:data:`~sudoku_cp.backends.backtrack.layout.WEIGHTED_FROM_SIZE` on: the same solutions and
counts as the pure search, found in another order. False keeps the pure search's own order
(tests compare the two so). Nodes of a uniqueness check on the bundled ``variants9``, in the
pure search's order / weighted: 'Leven 3.3 million / 6.3 thousand, "Bicycle race" over 3.9
million (unfinished in 10 s) / 73 thousand, "I want to break free" over 5.7 million / 330
thousand, "A kind of magic" over 5.7 million / 428 thousand, puzzle 11 (whispers) 32
thousand / 1.2 thousand; a handful of easy ones went from a few dozen nodes to a few
hundred."""


_KERNEL: dict[str, Any] = {}

log = logging.getLogger(__name__)


def _mode() -> str:
    """``off``, ``on`` (load at the first solve) or ``auto``, from ``SUDOKU_CP_KERNEL``."""
    value = os.environ.get(ENV, "").strip().lower()
    if value in ("0", "off", "false", "no"):
        return "off"
    return "on" if value in ("1", "on", "true", "yes") else "auto"


def turned_off() -> bool:
    """Whether ``SUDOKU_CP_KERNEL`` turns the kernel off."""
    return _mode() == "off"


def installed_and_on() -> bool:
    """Whether numba is installed and the kernel not turned off (asked without importing it)."""
    return not turned_off() and _findable()


def installed() -> bool:
    """Whether numba is installed (asked without importing it)."""
    return _findable()


@functools.cache
def _findable() -> bool:
    """Whether numba is installed (asked without importing it)."""
    return importlib.util.find_spec("numba") is not None


@functools.cache
def _numba_version() -> str:
    """numba's version, read once a process (its metadata does not change under a run)."""
    from importlib import metadata

    return metadata.version("numba")


def status() -> str:
    """One line for ``sudoku-cp backends``: whether the kernel is in use, and if not, why.

    Says so without importing numba (which takes a while)."""
    if load_failure() is not None:
        return f"compiled kernel: {load_failure()}; pure Python"
    if not _findable():
        return "compiled kernel: not installed (pip install 'sudoku-cp[jit]'); pure Python"
    version = _numba_version()
    if turned_off():
        return f"compiled kernel: turned off by {ENV} (numba {version} installed); pure Python"
    return (
        f"compiled kernel: in use (numba {version}) for strategy fast on models of groups only, "
        f"sizes up to {MAX_SIZE}, and of groups with digit and pair rules (thermometers, dots, "
        f"whispers …), sums (arrows, little killers, killer cages), sequences (skyscrapers, "
        f"X-sums) and sandwiches up to 16x16, classic "
        f"9x9 on per-digit bitboards (candidate grids, odd and even cells too; loaded once a "
        f"process "
        f"has spent {LOAD_AFTER:g} s in pure Python, or at once in workers or with {ENV}=1), "
        f"above 16x16 a search that learns nogoods from its dead ends (loaded at the first "
        f"such puzzle); -O kernel=false or {ENV}=0 turns it off"
    )


def load_kernel() -> Any:
    """The kernel module, or None when numba is missing (or fails to load)."""
    if "module" not in _KERNEL:
        try:
            from . import generic as kernel
        except Exception as error:  # numba missing, or one that fails to load: the pure search
            kernel = None  # type: ignore[assignment]
            if _findable():  # an installed numba that fails is said, never hidden
                fell_back("the compiled kernel", error)
        else:  # (cached code from older sources dropped before numba reads any)
            check_cache(kernel.run, kernel.__file__)
        _KERNEL["module"] = kernel
    return _KERNEL["module"]


def load_classic_kernel() -> Any:
    """The classic 9x9 kernel module (call only once :func:`load_kernel` found numba)."""
    if "classic" not in _KERNEL:
        from . import classic as kernel_classic

        _KERNEL["classic"] = kernel_classic
    return _KERNEL["classic"]


def fell_back(what: str, error: BaseException) -> None:
    """Say that ``what`` (a compiled kernel) failed to load, so the pure search runs in its
    place: a warning in the log, and the reason kept for :func:`load_failure` and :func:`status`
    (a broad ``except`` that fell back silently let a test pass without the kernel it named)."""
    reason = f"{what} failed to load ({type(error).__name__}: {error})"
    _KERNEL["failure"] = reason
    log.warning("%s; the pure-Python search runs instead", reason)


def load_failure() -> str | None:
    """Why a compiled kernel failed to load in this process (the last failure), or None."""
    return _KERNEL.get("failure")


def note_engine(engine: str) -> None:
    """Record which search a solve ran (see :func:`last_engine`)."""
    _KERNEL["engine"] = engine


def last_engine() -> str:
    """Which search the backend's last solve in this process ran: ``pure`` (Python), ``kernel``
    (the generic compiled kernel), ``classic kernel`` (9x9 bitboards) or ``learning kernel``
    (above 16x16). Tests read it to know the path they meant is the one that ran."""
    return str(_KERNEL.get("engine", "pure"))


def available() -> bool:
    """Whether the kernel can run here (numba installed and not turned off); loads it."""
    return not turned_off() and _findable() and load_kernel() is not None


@functools.lru_cache(maxsize=64)
def fits(model: Model, size: int) -> bool:
    """Whether a kernel takes this model at this size (groups only, at most 64 digits)."""
    from ..layout import layout

    return size <= MAX_SIZE and not layout(model, size).has_rules


@functools.lru_cache(maxsize=64)
def takes_rules(model: Model, size: int) -> bool:
    """Whether the generic kernel takes this model with its rules beyond groups: rules that
    only limit a cell's digits (:class:`~sudoku_cp.rules.DigitRule`: odd, even, candidates),
    rules of cell pairs (:class:`~sudoku_cp.rules.PairRule`: thermometers, dots, XV, whispers,
    renban, palindromes, negative constraints …), weighted sums
    (:class:`~sudoku_cp.rules.SumRule`: arrows, little killers), killer cages with a total
    whose digit sets the pure search lists, sequence rules
    (:class:`~sudoku_cp.rules.SequenceRule`: skyscrapers, X-sums, digit-root cages) whose
    automata number at most :data:`~.sequence_tables.SEQUENCE_STATES_MAX` states in all, and
    sandwiches (:class:`~sudoku_cp.rules.Sandwich`: on a group, with their digit sets listed;
    on a line that is no group, as an automaton counted in those states), triple rules
    (:class:`~sudoku_cp.rules.base.TripleRule`: between lines, lockout lines) and
    quadruples (:class:`~sudoku_cp.rules.Quadruple`), besides groups, at sizes up to
    :data:`RULES_MAX_SIZE` (:func:`~.model_tables.takes`): every rule shape, within those
    caps; past them the model stays in the pure search."""
    from ..layout import layout

    rules = layout(model, size).rules
    return (
        size <= RULES_MAX_SIZE
        and rules is not None
        and all(takes(p) for p in rules.propagators)
        and all(cage.combos is not None for cage in rules.cages)
        and sequences(model, size) is not None
    )


@functools.lru_cache(maxsize=64)
def is_classic(model: Model, size: int) -> bool:
    """Whether the model at this size is classic 9x9: exactly the rows, columns and boxes."""
    if model.fits(size) is not None:  # (a 6x6 or 16x16-only model: no groups at this size)
        return False
    return not model.rules and classic_marks(model, size) is not None


def marked(model: Model, size: int) -> bool:
    """Whether the classic kernel takes this model with digit rules (a candidate grid: see
    :func:`classic_marks`), which the generic kernel does not."""
    return CLASSIC and bool(model.rules) and classic_marks(model, size) is not None


class Engine:
    """The kernel that searches a model at one size: its ``run`` and ``count_many``, the tables
    they take, and the words of a state (a frame of the stack)."""

    def __init__(
        self, kernel: Any, model: Model, size: int, same_search: bool, derived: bool = True
    ) -> None:
        marks = classic_marks(model, size) if CLASSIC and not same_search else None
        self.classic = marks is not None
        self.weighted = False
        if marks is not None:
            import numpy as np

            classic = load_classic_kernel()
            self.run, self.count_many = classic.run, classic.count_many
            self.packed = np.array(marks, dtype=np.int32)  # the cells each digit may take
            self.width = classic.WIDTH
        else:
            tab = tables(model, size, derived)
            self.run, self.count_many = kernel.run, kernel.count_many
            self.packed = tab.packed
            # A weighted search keeps its dead ends per cell after the state (see WEIGHTED_RULES).
            self.weighted = WEIGHTED_RULES and not same_search and takes_rules(model, size)
            self.width = (3 if self.weighted else 2) * tab.cells


@functools.lru_cache(maxsize=8)
def tables(model: Model, size: int, derived: bool = True) -> Tables:
    return Tables(model, size, derived)


@functools.lru_cache(maxsize=16)
def derives(model: Model, size: int) -> bool:
    """Whether the model's rules hold pieces the kernel may derive sums from (see
    :data:`PROBE_NODES`)."""
    from ..layout import layout
    from .derived import DERIVED_SUMS, has_pieces

    return DERIVED_SUMS and has_pieces(layout(model, size))


@functools.lru_cache(maxsize=16)
def derived(model: Model, size: int) -> bool:
    """Whether the kernel derives any sum from the model's houses (what :func:`derives` only
    says it may)."""
    from ..layout import layout
    from .derived import DERIVED_SUMS, layout_derived_sums

    return DERIVED_SUMS and bool(layout_derived_sums(layout(model, size)))


def forget_models() -> None:
    """Drop what this module keeps per model (which kernel takes it, its tables, its engine),
    for a caller that changed how the layout compiles a model (a test changing a cap) and
    cleared the layout's own cache: a stale answer here would send the kernel tables the
    layout no longer has."""
    for cached in (
        fits,
        takes_rules,
        is_classic,
        classic_marks,
        tables,
        derives,
        derived,
        sequences,
        _engine,
    ):
        cached.cache_clear()


@functools.cache
def _weighted_from_size() -> int:
    from ..layout import WEIGHTED_FROM_SIZE  # (imported on first use: the layout's tables)

    return WEIGHTED_FROM_SIZE


def search(
    puzzle: Puzzle,
    limit: int | None,
    deadline: float | None,
    pure: Callable[[float | None], Search],
) -> Search:
    """The fast strategy's search: by the kernel when it can take the puzzle and is worth
    loading, else ``pure(deadline)`` (the pure-Python search, stopping at that deadline).

    Loading numba and the compiled code takes about half a second, more than most 9x9 puzzles
    take in pure Python, so a process that has not loaded it yet (a one-off ``solve``) first
    gives the pure search up to ``LOAD_AFTER`` seconds in all: once a process has spent that
    much, the kernel is loaded and, if a search was cut short for it, starts that puzzle again
    (within the same deadline). Workers load it up front (:func:`warm_up`)."""
    mode = _mode()
    # From WEIGHTED_FROM_SIZE on the pure search learns its branching from dead ends, which
    # the kernel does not (yet): those grids stay on the pure path, which decides more of them.
    if (
        mode == "off"
        or puzzle.size >= _weighted_from_size()
        or not _findable()
        or not (
            fits(puzzle.model, puzzle.size)
            or marked(puzzle.model, puzzle.size)
            or takes_rules(puzzle.model, puzzle.size)
        )
    ):
        return pure(deadline)
    if "module" not in _KERNEL and mode == "auto":
        allowance = LOAD_AFTER - _KERNEL.get("pure_seconds", 0.0)
        if allowance > 0:
            start = time.perf_counter()
            cutoff = start + allowance
            own = deadline is not None and deadline <= cutoff
            found = pure(deadline if own else cutoff)
            _KERNEL["pure_seconds"] = _KERNEL.get("pure_seconds", 0.0) + (
                time.perf_counter() - start
            )
            if not found.timed_out or own:
                return found
    kernel, deadline = _ready(deadline)
    if kernel is None:
        return pure(deadline)
    searched = _kernel_search(kernel, puzzle, limit, deadline)
    assert searched is not None  # (no node cap)
    return searched


SPARSE_GIVENS = 0.25
"""Grids above 16x16 given less than this share go to the generic kernel first: learning wins
on the public 25x25 (40-45% given) but an empty 36x36 took it 12.9 s against 0.12 s."""
SPARSE_PROBE_NODES = 1_000_000
"""Nodes the probe tries before the learning search takes over (about 5 s on a 49x49)."""


def sparse_probe(puzzle: Puzzle, limit: int | None, deadline: float | None) -> Search | None:
    """The generic kernel's search of a grid given less than :data:`SPARSE_GIVENS`; None when
    it is not so sparse, or :data:`SPARSE_PROBE_NODES` did not decide it (the caller's learning
    search then runs, from scratch). A search the deadline cut short is returned as it is."""
    cells = len(puzzle.digits)
    sparse = cells - puzzle.digits.count(0) < SPARSE_GIVENS * cells
    if sparse and _mode() != "off" and fits(puzzle.model, puzzle.size):
        kernel, deadline = _ready(deadline)
        if kernel is not None:
            return _kernel_search(kernel, puzzle, limit, deadline, SPARSE_PROBE_NODES)
    return None


def _ready(deadline: float | None) -> tuple[Any, float | None]:
    """The generic kernel's module (None if it cannot load) and ``deadline`` moved on by the time
    loading it (numba too: once past a 0.5 s limit alone) and warming it up took."""
    if "module" not in _KERNEL:
        deadline = outside_the_limit(deadline, load_kernel)
    kernel = load_kernel()
    if kernel is not None and "warm" not in _KERNEL:
        deadline = outside_the_limit(deadline, warm_up)
    return kernel, deadline


def outside_the_limit(deadline: float | None, load: Callable[[], object]) -> float | None:
    """``load()`` run (numba compiling or loading compiled code), and ``deadline`` moved on by
    the time it took: compiling is not searching. A cold compile took 10 s, so that a solve
    with ``--time-limit 0.5`` ran 10.6 s before; now the search gets its whole limit after it."""
    start = time.perf_counter()
    load()
    return None if deadline is None else deadline + (time.perf_counter() - start)


class _Buffers(threading.local):
    """The kernel's working arrays, kept between searches (one set per thread and per kind of
    state, as Dask's threads may search at once): making them took a third of a 17-clue
    puzzle's search."""

    def __init__(self) -> None:
        self.by_shape: dict[tuple[int, int], list[Any]] = {}


_BUFFERS = _Buffers()


def _buffers(kernel: Any, width: int, cells: int) -> list[Any]:
    """``[frames, frame_cell, frame_left, work, sols, ctrl]`` for states of ``width`` words on
    ``cells`` cells (made on first use; a grown stack is kept)."""
    import numpy as np

    made = _BUFFERS.by_shape.get((width, cells))
    if made is None:
        depth = min(FIRST_FRAMES, cells + 1)
        made = _BUFFERS.by_shape[(width, cells)] = [
            np.empty((depth, width), dtype=np.uint64),
            np.empty(depth, dtype=np.int64),
            np.empty(depth, dtype=np.uint64),
            np.empty(width, dtype=np.uint64),
            np.empty((SOLUTION_ROWS, cells), dtype=np.uint8),
            np.zeros(kernel.CTRL_SIZE, dtype=np.int64),
        ]
    return made


@functools.lru_cache(maxsize=16)
def _engine(
    model: Model, size: int, classic: bool, weighted: bool = True, derived: bool = True
) -> Engine:
    """The engine for a model at a size, made once (``classic`` and ``weighted``:
    :data:`CLASSIC` and :data:`WEIGHTED_RULES` then, which tests turn off; ``derived``: with
    the sums its houses imply)."""
    return Engine(load_kernel(), model, size, same_search=False, derived=derived)


def _kernel_search(
    kernel: Any, puzzle: Puzzle, limit: int | None, deadline: float | None, nodes: int = 0
) -> Search | None:
    """Call the kernel until it is done, emptying its solution buffer, growing its stack and
    looking at the clock between calls; None once it has tried ``nodes`` nodes undecided (0:
    no cap)."""
    import numpy as np

    # A model with pieces to derive sums from is first searched without them (see PROBE_NODES).
    probing = derives(puzzle.model, puzzle.size)
    engine = _engine(puzzle.model, puzzle.size, CLASSIC, WEIGHTED_RULES, not probing)
    note_engine("classic kernel" if engine.classic else "kernel")
    cells = puzzle.size * puzzle.size
    digits = np.frombuffer(puzzle.digits, dtype=np.uint8)
    buffers = _buffers(kernel, engine.width, cells)
    frames, frame_cell, frame_left, work, sols, ctrl = buffers
    ctrl[kernel.STARTED] = 0  # the kernel then clears its counters
    ctrl[kernel.IN_BUFFER] = 0
    ctrl[kernel.LIMIT_AT] = limit or 0
    budget = max(16, WORK_PER_CALL // cells) if deadline is not None else 1 << 62
    if nodes:
        budget = min(budget, nodes)
    ctrl[kernel.BUDGET] = min(budget, PROBE_NODES) if probing else budget
    found: list[Grid] = []
    timed_out = False
    run, packed = engine.run, engine.packed
    while True:
        state = run(digits, packed, frames, frame_cell, frame_left, work, sols, ctrl)
        if ctrl[kernel.IN_BUFFER]:
            found.extend(map(tuple, sols[: ctrl[kernel.IN_BUFFER]].tolist()))
            ctrl[kernel.IN_BUFFER] = 0
        if state in (kernel.DONE, kernel.LIMIT):
            break
        if probing:
            # Not decided in the probe: the search starts again with the derived sums (what it
            # found so far it finds again), or, when none is derived, goes on as it is.
            probing = False
            ctrl[kernel.BUDGET] = budget
            if derived(puzzle.model, puzzle.size):
                engine = _engine(puzzle.model, puzzle.size, CLASSIC, WEIGHTED_RULES, True)
                run, packed = engine.run, engine.packed
                if engine.width != frames.shape[1]:  # (a state of the same cells: never)
                    buffers = _buffers(kernel, engine.width, cells)
                    frames, frame_cell, frame_left, work, sols, ctrl = buffers
                    ctrl[kernel.LIMIT_AT] = limit or 0
                    ctrl[kernel.BUDGET] = budget
                found.clear()
                ctrl[kernel.STARTED] = 0
                ctrl[kernel.IN_BUFFER] = 0
                continue
        if deadline is not None and time.perf_counter() >= deadline:
            timed_out = True
            break
        if nodes and ctrl[kernel.NODES] >= nodes:
            return None
        if state == kernel.STACK_FULL:
            frames = np.concatenate([frames, np.empty_like(frames)])
            frame_cell = np.concatenate([frame_cell, np.empty_like(frame_cell)])
            frame_left = np.concatenate([frame_left, np.empty_like(frame_left)])
            buffers[:3] = frames, frame_cell, frame_left
    nodes, backtracks, propagations = ctrl[: kernel.PROPAGATIONS + 1].tolist()
    return Search(
        solutions=found,
        exhausted=state == kernel.DONE,
        timed_out=timed_out,
        stats={"nodes": nodes, "backtracks": backtracks, "propagations": propagations},
    )


def warm_up() -> str | None:
    """Import numba and load the compiled kernel (from the disk cache, or compiled once), so
    that no puzzle pays for it: workers call this when they start. Does nothing when the
    kernel is off or missing, or already loaded here. A line to report when this process
    compiled it rather than loaded it (the first run on a machine: the user sees what the
    first run spent compiling, which no time limit counts), else None."""
    if "warm" in _KERNEL or not available():
        return None
    start = perf_counter()
    with compiling():
        _kernel_search(load_kernel(), Puzzle([0] * 16), 1, None)
        _kernel_search(load_kernel(), Puzzle([0] * 81), 1, None)  # the classic kernel
    _KERNEL["warm"] = True
    if not (compiled_here(load_kernel()) or compiled_here(load_classic_kernel())):
        return None
    return (
        f"backtrack: compiled its kernels in {perf_counter() - start:.1f} s (once a machine: "
        "numba's disk cache keeps them; not counted in any time limit)"
    )


# --- the classic door: one classic puzzle through the public solve(), at the kernel's cost ------
DOOR_LIMIT = SOLUTION_ROWS
"""The largest ``limit`` the door takes: all it looks for fit its buffer (more go the plain way)."""

_ENVIRON: Any = getattr(os.environ, "_data", os.environ)
"""Where ``ENV`` is looked up: CPython's dict under ``os.environ`` (keys encoded; ``ENV in
os.environ`` raises and catches a KeyError when unset: 0.5 µs), else ``os.environ``."""
_ENV_KEY: Any = os.environ.encodekey(ENV) if _ENVIRON is not os.environ else ENV


class _DoorBuffers(threading.local):
    """The door's arrays, one set per thread (the kernel's one-puzzle buffer, its stack deeper
    than any classic search, and the solutions), and the last model it took."""

    def __init__(self) -> None:
        self.arrays: tuple[Any, ...] | None = None
        self.model: Model | None = None


_DOOR = _DoorBuffers()
_DOOR_MODELS: dict[int, Model] = {}
"""Classic 9x9 models the door has seen, by ``id`` (kept, so the id stays theirs): hashing a
model would call its ``__hash__``."""


def classic_door(model: Model | None, digits: bytes, limit: int | None) -> Any:
    """The public ``solve(puzzle, limit=limit)`` of a classic 9x9 puzzle (``model``, and its 81
    ``digits`` a byte each, 0 blank) by the backtracker with its default options and no time
    limit, when the classic kernel is already loaded: the same :class:`~sudoku_cp.Result` as
    :meth:`Backend.solve` gives through :func:`search` (the same search, so the same solutions
    in the same order and the same counters), without the layers between (options, refusal,
    layout, the deadline loop, the :class:`Search`), which cost twice the kernel's own time on
    a 17-clue puzzle.

    None when the door does not apply — the kernel not loaded yet (the plain path's loading
    rule, :func:`search`, decides when it is), turned off, another model or size, a ``limit``
    outside 1..:data:`DOOR_LIMIT` (an invalid one gets its error from the plain path) — and
    the caller takes the plain path. The givens are not checked here: a :class:`Puzzle` checks
    them when it is made, and the kernel finds no solution for givens that repeat (a caller
    that made no Puzzle checks them then, as :func:`sudoku_cp.solve` does for text).

    ``model`` None: the caller vouches that ``digits`` are the 81 cells (bytes) of a classic
    9x9 puzzle, read from its line (:data:`~sudoku_cp.formats.line.CLASSIC_CODES`), and the
    door skips those two checks."""
    if type(limit) is not int or not 0 < limit <= DOOR_LIMIT or not CLASSIC:
        return None
    if model is not None:
        if model is not _DOOR.model and _DOOR_MODELS.get(id(model)) is not model:
            if "warm" not in _KERNEL or not is_classic(model, 9):
                return None
            _DOOR_MODELS[id(model)] = model
            _DOOR.model = model  # (the next call with it: one identity test)
        if type(digits) is not bytes or len(digits) != 81:
            return None  # (the entry below is compiled for bytes: read without a copy)
    elif "warm" not in _KERNEL:
        return None
    if _ENV_KEY in _ENVIRON and _mode() == "off":  # (unset: on)
        return None
    arrays = _DOOR.arrays
    if arrays is None:
        arrays = _DOOR.arrays = _door_arrays()
    run, words, sols, ctrl, rows = arrays
    _KERNEL["engine"] = "classic kernel"  # (note_engine, without the call)
    start = perf_counter()
    state = run(digits, sols, words, limit)
    seconds = perf_counter() - start
    if state > _LIMIT:  # paused or a buffer full: never, the buffers are big enough
        return None
    nodes, backtracks, propagations, _, found = ctrl.tolist()
    exhausted = state == _DONE
    # status_for(found, limit, exhausted, timed_out=False), and Result.made's body, written
    # out: their calls were a fifth of what the door adds. The tests compare every field with
    # the plain path's Result, which both make.
    if found >= 2:
        status = _MULTIPLE
    elif not exhausted:  # stopped at the limit: 1
        status = _SOLVED
    else:
        status = _UNIQUE if found else _NONE
    result = _new(Result)
    fields = result.__dict__  # (filled in the dataclass's field order, item by item)
    fields["backend"] = "backtrack"
    fields["status"] = status
    fields["solutions"] = (
        (_GRID(rows),) if found == 1 else tuple(_GRID(rows, 81 * n) for n in range(found))
    )
    fields["exact"] = exhausted
    fields["seconds"] = seconds
    fields["stats"] = {"nodes": nodes, "backtracks": backtracks, "propagations": propagations}
    fields["options"] = {"strategy": "fast", "kernel": True}
    fields["limit"] = limit
    fields["candidates"] = None
    return result


_MULTIPLE, _SOLVED, _UNIQUE, _NONE = Status.MULTIPLE, Status.SOLVED, Status.UNIQUE, Status.NONE
_new = object.__new__
_GRID = struct.Struct("81B").unpack_from
"""A solution row of the door's buffer as a tuple of ints (no slice, no ``tolist``)."""
_DONE, _LIMIT = 0, 1
"""The kernels' statuses the door reads (:func:`_door_arrays` checks them with :mod:`.generic`)."""


def _door_arrays() -> tuple[Any, ...]:
    """The classic kernel's one-puzzle entry for 81 bytes, and the door's buffers."""
    import numpy as np

    from ....model import load_model

    kernel, classic = load_kernel(), load_classic_kernel()
    assert (_DONE, _LIMIT) == (kernel.DONE, kernel.LIMIT), "the door's copies of the statuses"
    words, ctrl = classic.buffer(classic_marks(load_model("classic"), 9))
    rows = bytearray(DOOR_LIMIT * 81)  # (struct reads a bytearray faster than an array)
    sols = np.frombuffer(rows, dtype=np.uint8).reshape(DOOR_LIMIT, 81)
    args = (bytes(81), sols, words, 1)  # the digits as the door hands them over
    classic.run_buffer(*args)  # (compiled for these types, if it was not)
    # (the counters the door reads: a view of the first five control words)
    return (_entry(classic.run_buffer, args), words, sols, ctrl[:5], rows)


def _entry(run: Any, args: tuple[Any, ...]) -> Any:
    """The compiled ``run`` for these arguments' types, called without numba's dispatch (which
    types every argument at every call: 0.2 µs of the door's four, a tenth of what the door
    may add), or ``run`` itself where numba keeps it elsewhere. Safe only because the door passes
    arrays of exactly these types, all its own but the digits (always 81 ``bytes``)."""
    from numba import typeof

    compiled = getattr(run, "overloads", {}).get(tuple(typeof(arg) for arg in args))  # (int64)
    return getattr(compiled, "entry_point", None) or run
