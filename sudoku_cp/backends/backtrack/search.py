"""The ``backtrack`` backend: a hand-written depth-first search in pure Python.

Vocabulary, as in :mod:`sudoku_cp.model`: a *cell* is ``row * N + col``, a *digit* is 1..N, a
*group* is a set of cells that must hold different digits, a cell's *peers* share a group with
it, a *candidate* is a digit a cell may still take. Two more words for the search:

- a *place* of a digit in a group is a cell of the group where the digit is still a candidate;
- a *node* is one assignment tried (a digit put in a cell), a *backtrack* one dead end left.

Everything about the rules comes from the model's groups, read once per (model, size) into a
:class:`.layout.Layout`; nothing here assumes 9x9 grids or rows, columns and boxes.

Four strategies keep the classic algorithms comparable (``strategy=…``):

``naive``
    Blanks in reading order; try every digit 1..N and keep it if no peer holds it.
``ordered``
    Blanks in reading order; try only the digits no given peer holds (computed once), each
    still checked against the current peers.
``mrv``
    Fewest candidates first: keep every blank's candidates up to date as digits go in and out
    (forward checking, no propagation), always fill a blank with the fewest.
``fast`` (default)
    Candidates as bits, propagation of naked singles (a cell with one candidate), hidden
    singles (a digit with one place in a group) and confinement (a digit whose places in one
    group all lie where it meets a later group is no candidate elsewhere in that later group),
    then a branch on a cell with the fewest candidates. Only this one is meant to be quick;
    see :func:`_fast` for how its state is held and why.

Every strategy runs on an explicit stack (no recursion, so 64x64 grids are fine), checks the
clock every few hundred nodes, and stops after ``limit`` solutions.

>>> from sudoku_cp import Puzzle
>>> backend = BacktrackBackend()
>>> inkala = Puzzle.parse(
...     "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")
>>> result = backend.solve(inkala, limit=2)
>>> result.status.value, inkala.is_solution(result.solution)
('unique', True)
>>> [backend.solve(Puzzle([0] * 16), limit=None, strategy=s).count
...  for s in ("fast", "naive", "ordered", "mrv")]
[288, 288, 288, 288]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...puzzle import Grid, Puzzle
from ...rules import RULE_KEYS
from .. import Backend, Counter, Option, Search
from .bits import cell_mask, set_bits
from .kernel import glue as backtrack_kernel
from .kernel.compile_once import compiled_here, compiling
from .layout import WEIGHTED_FROM_SIZE, Layout, layout

if TYPE_CHECKING:
    from .checks import Allows

STRATEGIES = ("fast", "naive", "ordered", "mrv")

CLOCK_EVERY = 256
"""Nodes between two looks at the clock: often enough for a prompt stop, rare enough to be
free (a look costs about as much as a node of the naive search)."""


def _givens_allowed(puzzle: Puzzle, lay: Layout) -> tuple[bool, Allows | None]:
    """Whether the givens keep the rules beyond groups, and the check of those rules (None
    when the model has none: then :mod:`.checks` is not loaded)."""
    if lay.rules is None:
        return True, None
    from .checks import givens_allowed, rule_check

    allows = rule_check(lay)
    return givens_allowed(puzzle, allows), allows


class _Clock:
    """Says whether the deadline has passed, looking at the clock only every CLOCK_EVERY nodes.

    Searches call ``late(nodes)`` with their node count; between looks it is one comparison.
    """

    __slots__ = ("deadline", "next_look")

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.next_look = CLOCK_EVERY if deadline is not None else float("inf")

    def late(self, nodes: int) -> bool:
        if nodes < self.next_look:
            return False
        self.next_look = nodes + CLOCK_EVERY
        return time.perf_counter() >= self.deadline  # type: ignore[operator]


# --- naive and ordered: reading order, one blank at a time ------------------------------------
def _naive(puzzle: Puzzle, lay: Layout, limit: int | None, clock: _Clock) -> Search:
    digits = tuple(range(1, lay.size + 1))
    return _reading_order(puzzle, lay, limit, clock, lambda cell: digits)


def _ordered(puzzle: Puzzle, lay: Layout, limit: int | None, clock: _Clock) -> Search:
    givens = puzzle.cells

    def candidates(cell: int) -> tuple[int, ...]:
        taken = {givens[q] for q in lay.peers[cell]}
        return tuple(d for d in range(1, lay.size + 1) if d not in taken)

    return _reading_order(puzzle, lay, limit, clock, candidates)


def _reading_order(
    puzzle: Puzzle,
    lay: Layout,
    limit: int | None,
    clock: _Clock,
    candidates: Callable[[int], tuple[int, ...]],
) -> Search:
    """Fill the blanks in reading order, each with the next of its candidates no peer holds.

    ``tried[i]`` is how many candidates of blank ``i`` have been tried; going back to blank
    ``i - 1`` when blank ``i`` has none left is the backtrack. No recursion: a 64x64 grid has
    thousands of blanks.
    """
    grid = list(puzzle.cells)
    blanks = [c for c, d in enumerate(grid) if not d]
    options = [candidates(c) for c in blanks]
    ok, allows = _givens_allowed(puzzle, lay)
    if not ok:
        return _report([], True, False, 0, 0)
    peers = [lay.peers[c] for c in blanks]
    tried = [0] * len(blanks)
    found: list[Grid] = []
    nodes = backtracks = 0
    i = 0
    while True:
        if i == len(blanks):
            found.append(tuple(grid))
            if limit is not None and len(found) >= limit:
                return _report(found, False, False, nodes, backtracks)
            i -= 1  # look for the next solution from the last blank on
        if i < 0:
            return _report(found, True, False, nodes, backtracks)
        if clock.late(nodes):
            return _report(found, False, True, nodes, backtracks)
        cell = blanks[i]
        grid[cell] = 0
        held = {grid[q] for q in peers[i]}
        digits = options[i]
        k = tried[i]
        while k < len(digits):
            nodes += 1
            if digits[k] not in held and (allows is None or allows(grid, cell, digits[k])):
                break
            k += 1
        if k < len(digits):
            grid[cell] = digits[k]
            tried[i] = k + 1
            i += 1
        else:
            if not tried[i]:
                backtracks += 1  # arrived here and nothing fits: a dead end
            tried[i] = 0
            i -= 1


def _report(
    found: list[Grid], exhausted: bool, timed_out: bool, nodes: int, backtracks: int, **more: int
) -> Search:
    return Search(
        solutions=found,
        exhausted=exhausted,
        timed_out=timed_out,
        stats={"nodes": nodes, "backtracks": backtracks, **more},
    )


# --- mrv: fewest candidates first, forward checking, no propagation ---------------------------
def _mrv(puzzle: Puzzle, lay: Layout, limit: int | None, clock: _Clock) -> Search:
    """Always fill the open cell with the fewest candidates.

    Candidates are bit masks (bit ``d - 1`` for digit ``d``) kept up to date by forward
    checking: putting a digit in a cell removes it from its open peers, and taking it out puts
    it back (each frame remembers which peers it changed). A frame on the stack is one open
    cell being filled: the cell, the candidates not yet tried, the digit now in it and the
    peers it changed.
    """
    n = lay.size
    grid = list(puzzle.cells)
    candidates = [0] * lay.cells
    for c, digit in enumerate(grid):
        if not digit:
            held = {grid[q] for q in lay.peers[c]}
            candidates[c] = cell_mask(d - 1 for d in range(1, n + 1) if d not in held)
    blanks = [c for c, d in enumerate(grid) if not d]
    is_open = [not d for d in grid]
    ok, allows = _givens_allowed(puzzle, lay)
    if not ok:
        return _report([], True, False, 0, 0)
    stack: list[list[Any]] = []
    found: list[Grid] = []
    nodes = backtracks = 0
    while True:
        cell = _fewest(blanks, is_open, candidates)
        if cell < 0:
            found.append(tuple(grid))
            if limit is not None and len(found) >= limit:
                return _report(found, False, False, nodes, backtracks)
        else:
            is_open[cell] = False
            stack.append([cell, candidates[cell], 0, []])
        # Take back the digit of the top frame and put in its next candidate, or retreat.
        while stack:
            frame = stack[-1]
            cell, untried, bit, changed = frame
            for q in changed:
                candidates[q] |= bit
            if allows is not None:  # skip the candidates the rules beyond groups forbid
                while untried and not allows(grid, cell, (untried & -untried).bit_length()):
                    nodes += 1
                    untried &= untried - 1
            if untried:
                nodes += 1
                if clock.late(nodes):
                    return _report(found, False, True, nodes, backtracks)
                bit = untried & -untried
                changed = [q for q in lay.peers[cell] if is_open[q] and candidates[q] & bit]
                for q in changed:
                    candidates[q] ^= bit
                grid[cell] = bit.bit_length()
                stack[-1] = [cell, untried ^ bit, bit, changed]
                break
            stack.pop()
            grid[cell] = 0
            is_open[cell] = True
            if not bit:
                backtracks += 1  # the cell had no candidate at all: a dead end
        else:
            return _report(found, True, False, nodes, backtracks)


def _fewest(blanks: list[int], is_open: list[bool], candidates: list[int]) -> int:
    """The open cell with the fewest candidates (the first in reading order), or -1."""
    best, best_count = -1, 1 << 30
    for c in blanks:
        if is_open[c]:
            count = candidates[c].bit_count()
            if count < best_count:
                best, best_count = c, count
                if count < 2:
                    break  # nothing beats a forced or a dead cell
    return best


# --- fast: bit-packed candidates, singles and confinement, fewest candidates first ------------
def _fast(puzzle: Puzzle, lay: Layout, limit: int | None, clock: _Clock) -> Search:
    """Depth-first search over propagated states, branching on a cell with fewest candidates.

    A state is two integers: ``candidates`` (every candidate of the grid, packed as described
    in :class:`Layout`) and ``solved`` (one bit per cell whose digit is settled and removed
    from its peers). Integers are immutable, so a child state is a new pair and going back is
    free: no copying of lists, no trail to undo. The stack holds the states still to explore,
    each with its parent's candidates, where propagation had nothing more to find (so the
    child's propagation only looks again where something changed).
    """
    candidates, solved = _start(puzzle, lay)
    all_cells = lay.all_cells
    stack = [(candidates, solved, 0)]  # 0: nothing looked at yet
    found: list[Grid] = []
    stats = {"nodes": 0, "backtracks": 0, "propagations": 0}
    # Dead ends per cell, for big grids' branching: learning where the search fails.
    failures = [0] * lay.cells if lay.size >= WEIGHTED_FROM_SIZE else None
    while stack:
        if clock.late(stats["nodes"]):
            return _report(found, False, True, **stats)
        candidates, solved, parent = stack.pop()
        settled = _propagate(lay, candidates, solved, parent, stats, failures)
        if settled is None:
            stats["backtracks"] += 1
            continue
        candidates, solved, pairs = settled
        if solved == all_cells:
            found.append(_grid(lay, candidates))
            if limit is not None and len(found) >= limit:
                return _report(found, False, False, **stats)
            continue
        children = (
            _branch(lay, candidates, solved, pairs)
            if failures is None
            else _branch_weighted(lay, candidates, solved, failures)
        )
        stats["nodes"] += len(children)
        for child in reversed(children):  # reversed: the smallest digit is tried first
            stack.append((*child, candidates))
    return _report(found, True, False, **stats)


def _start(puzzle: Puzzle, lay: Layout) -> tuple[int, int]:
    """The state of the givens: each given settled, its digit gone from its peers."""
    kill = solved = 0
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            bit, shift = 1 << cell, lay.shifts[digit - 1]
            kill |= (lay.peer_masks[cell] << shift) | (bit * lay.low_bits ^ bit << shift)
            solved |= bit
    full = lay.all_cells * lay.low_bits
    # A given's own bit is never in another given's kill: the puzzle has no repeated givens.
    if lay.rules is not None:
        full &= lay.rules.allowed  # odd / even cells (a given breaking one empties its cell)
    return full & ~kill, solved


def _propagate(
    lay: Layout,
    candidates: int,
    solved: int,
    seen: int,
    stats: dict[str, int],
    failures: list[int] | None = None,
) -> tuple[int, int, int] | None:
    """Apply singles, the model's rules and confinement until none applies; None when a cell
    runs out.

    ``seen`` is a state in which neither hidden singles, the rules nor confinement found
    anything (the parent's, or 0 for none): only groups and cages whose candidates differ from
    it are looked at again, which skips more than half of them on hard 9x9 puzzles, with the
    same result; the rules beyond groups wake only where a cell's candidates changed.
    ``failures``, if given, counts per cell the dead ends where that cell ran out of candidates.

    Returns the new state and the cells with exactly two candidates (for the branch). Rules,
    cheapest first, going back to the first after any progress:

    1. naked singles: a cell with one candidate is settled, its digit removed from its peers;
    2. the rules beyond groups, if the model has any (see :mod:`.rules`);
    3. hidden singles: a digit with one place in a group goes there;
    4. confinement: see the module docstring.

    This loop is where the time goes, so it is written for speed (names bound locally, the
    rules inline). Each rule works on whole layers at once: the cell counts come from N
    layer-wide operations, the places in a group from a handful of grid-wide ones.
    """
    all_cells = lay.all_cells
    shifts = lay.shifts
    peer_masks = lay.peer_masks
    low = lay.low_bits
    guards = lay.guards
    guard_shift = lay.cells
    seen_hidden = seen_confined = seen_rules = seen
    rules = lay.has_rules
    if rules:
        from .rules import rules_step  # (loaded only for models with rules)
    layers = None
    while True:
        # Naked singles change few layers, so the layers are kept up to date between rounds
        # rather than cut out of the packed candidates again.
        if layers is None:
            layers = [(candidates >> s) & all_cells for s in shifts]
        # Count candidates per cell, bit-sliced: cells with >= 1 and >= 2 candidates.
        once = twice = 0
        for layer in layers:
            twice |= once & layer
            once |= layer
        if once != all_cells:
            if failures is not None:
                for cell in set_bits(all_cells ^ once):
                    failures[cell] += 1
            return None
        singles = once ^ twice ^ solved  # settled cells have one candidate too
        if singles:
            kill = 0
            for digit, layer in enumerate(layers):
                fresh = layer & singles
                if fresh:
                    peers = 0
                    while fresh:
                        bit = fresh & -fresh
                        peers |= peer_masks[bit.bit_length() - 1]
                        fresh ^= bit
                    layers[digit] = layer & ~peers
                    kill |= peers << shifts[digit]
            # Two peers settled on one digit remove it from each other: the next round sees an
            # empty cell, so no separate check is needed.
            candidates &= ~kill
            solved |= singles
            stats["propagations"] += singles.bit_count()
            continue
        if rules:
            ruling = rules_step(lay, candidates, layers, solved, candidates ^ seen_rules)
            seen_rules = candidates
            if ruling is None:
                return None
            if candidates & ruling:
                candidates &= ~ruling
                layers = None
                continue
        if solved == all_cells:
            return candidates, solved, 0
        forced = _hidden_singles(
            lay, candidates & (all_cells ^ solved) * low, candidates ^ seen_hidden
        )
        seen_hidden = candidates
        if forced:
            # Settle them as naked singles are settled, and drop their other candidates.
            cells = kill = 0
            for shift in shifts:
                fresh = (forced >> shift) & all_cells
                if fresh:
                    if fresh & cells:
                        return None  # one cell is the only place of two digits
                    cells |= fresh
                    peers = 0
                    while fresh:
                        bit = fresh & -fresh
                        peers |= peer_masks[bit.bit_length() - 1]
                        fresh ^= bit
                    kill |= peers << shift
            candidates &= ~(kill | (cells * low ^ forced))
            layers = None
            solved |= cells
            stats["propagations"] += cells.bit_count()
            continue
        kill = 0
        changed = candidates ^ seen_confined
        seen_confined = candidates
        for outside_a, outside_b, both in lay.confinements:
            if changed & both:
                confined = guards ^ ((((candidates & outside_a) | guards) - low) & guards)
                if confined:
                    kill |= (confined - (confined >> guard_shift)) & outside_b
        if candidates & kill:
            candidates &= ~kill
            layers = None
            continue
        once = twice = thrice = 0
        for layer in layers:
            thrice |= twice & layer
            twice |= once & layer
            once |= layer
        return candidates, solved, twice & ~thrice


def _hidden_singles(lay: Layout, open_candidates: int, changed: int) -> int:
    """The candidates that are the only place of their digit in some full group.

    ``open_candidates`` holds the candidates of unsettled cells only, so a digit already
    settled in a group has no place there and is not reported again. Only groups with a bit
    in ``changed`` are looked at (the others were, with nothing found).

    All digits of a group are counted at once, layer by layer: in a layer ``x`` (its guard bit
    clear), ``(x | guard) - 1`` borrows only inside the layer, so its guard survives when ``x``
    is not zero and its low bits become ``x - 1``; ``x & (x - 1)`` is zero when ``x`` has at most
    one bit. The guard bits left by the first and not by the second mark the layers with
    exactly one place; subtracting their shifted copies widens them to the whole layer.
    """
    guards = lay.guards
    low = lay.low_bits
    guard_shift = lay.cells
    forced = 0
    for group in lay.group_masks:
        if not changed & group:
            continue
        places = open_candidates & group
        less = (places | guards) - low
        one = (less ^ (((places & less) | guards) - low)) & guards
        if one:
            forced |= places & (one - (one >> guard_shift))
    return forced


def _branch(lay: Layout, candidates: int, solved: int, pairs: int) -> list[tuple[int, int]]:
    """One child state per candidate of the cell to branch on, smallest digit first.

    The cell: one with the fewest candidates; among those, the one with the most open peers
    (it constrains the most), then the one with the most peers left with two candidates (its
    children settle them soonest); then the first in reading order. Mean nodes of a uniqueness
    check on the bundled samples, first cell / + open peers / + peers with two candidates:
    forum-hardest 545 / 283 / 270, top1465 50.9 / 21.4 / 19.7. Cells with two candidates are
    known from the propagation's counts, so the usual case costs little.
    """
    open_cells = lay.all_cells ^ solved
    fewest = pairs or _fewest_candidates(lay, candidates, open_cells)
    peer_masks = lay.peer_masks
    weight = lay.cells  # more open peers always beats more peers with two candidates
    best = -1
    while fewest:
        bit = fewest & -fewest
        fewest ^= bit
        here = bit.bit_length() - 1
        peers = peer_masks[here]
        score = (peers & open_cells).bit_count() * weight + (peers & pairs).bit_count()
        if score > best:
            best, cell = score, here
    bit = 1 << cell
    children = []
    for shift in lay.shifts:
        if candidates >> shift & bit:
            kill = (peer_masks[cell] << shift) | (bit * lay.low_bits ^ bit << shift)
            children.append((candidates & ~kill, solved | bit))
    return children


def _branch_weighted(
    lay: Layout, candidates: int, solved: int, failures: list[int]
) -> list[tuple[int, int]]:
    """Like :func:`_branch`, but the cell is the open one with the fewest candidates per dead
    end it has caused (candidates / (1 + failures)), ties to the first in reading order.

    This is the dom/wdeg heuristic of constraint programming (Boussemart et al., 2004) with a
    weight per cell: the search learns from its dead ends which cells are hard and settles them
    first. On 25x25 it decides puzzles that fewest-candidates-first does not in minutes
    (public gecode#89: 35 s against none within 60 s); on 9x9 it does not pay. (On 16x16 it
    saves a third of the nodes, but the contract tests complete their generated 16x16 grids
    with this search, and another order gave another grid: it starts above 16x16.)
    """
    open_cells = lay.all_cells ^ solved
    planes = _count_planes(lay, candidates, open_cells)
    most = max(failures) + 1
    best = float(lay.size + 1)
    cell = -1
    for count in range(2, lay.size + 1):
        if count >= best * most:
            break  # no cell with this many candidates can score better
        for here in set_bits(_with_count(planes, open_cells, count)):
            score = count / (1 + failures[here])
            if score < best:
                best, cell = score, here
    bit = 1 << cell
    peers = lay.peer_masks[cell]
    children = []
    for shift in lay.shifts:
        if candidates >> shift & bit:
            kill = (peers << shift) | (bit * lay.low_bits ^ bit << shift)
            children.append((candidates & ~kill, solved | bit))
    return children


def _count_planes(lay: Layout, candidates: int, cells: int) -> list[int]:
    """Each cell's candidate count, bit-sliced: ``planes[i]`` holds bit ``i`` of every count,
    so a 25x25 grid costs N layer additions, not N² cell look-ups."""
    planes: list[int] = []
    for shift in lay.shifts:
        carry = (candidates >> shift) & cells
        for i, plane in enumerate(planes):
            planes[i] = plane ^ carry
            carry &= plane
            if not carry:
                break
        if carry:
            planes.append(carry)
    return planes


def _with_count(planes: list[int], cells: int, count: int) -> int:
    """The cells among ``cells`` with exactly ``count`` candidates (see :func:`_count_planes`)."""
    if count >> len(planes):
        return 0
    for i, plane in enumerate(planes):
        cells &= plane if count >> i & 1 else ~plane
    return cells


def _fewest_candidates(lay: Layout, candidates: int, open_cells: int) -> int:
    """The open cells whose candidate count is the smallest, as a cell mask."""
    planes = _count_planes(lay, candidates, lay.all_cells)
    for count in range(2, lay.size + 1):
        cells = _with_count(planes, open_cells, count)
        if cells:
            return cells
    return open_cells  # not reached: an open cell has 2..N candidates after propagation


def _grid(lay: Layout, candidates: int) -> Grid:
    """The grid of a state where every cell has one candidate."""
    grid = [0] * lay.cells
    for digit, shift in enumerate(lay.shifts, start=1):
        for cell in set_bits((candidates >> shift) & lay.all_cells):
            grid[cell] = digit
    return tuple(grid)


# --- big grids: the compiled kernel of their own -----------------------------------------------
def _large_kernel(puzzle: Puzzle) -> Any:
    """:mod:`.kernel.learn` when it can take ``puzzle`` (numba installed, not turned off, groups
    only, size up to 64), else None: the pure search runs."""
    # (available() loads the generic kernel's module first, which compiles nothing but drops
    # the kernels' cached code made from older sources: the learning kernel's too)
    if not backtrack_kernel.available() or not backtrack_kernel.fits(puzzle.model, puzzle.size):
        return None
    try:
        from .kernel import learn as kernel_learn
    except Exception as error:  # a numba that fails to load: the pure search runs, and says so
        backtrack_kernel.fell_back("the learning kernel", error)
        return None
    return kernel_learn


_LARGE_WARM: list[bool] = []
"""Non-empty once :mod:`.kernel.learn` ran in this process (compiled, or loaded from cache)."""


def _warm_large() -> None:
    from .kernel import learn as kernel_learn

    with compiling("big-grid"):  # one process compiles, the others load
        kernel_learn.warm_up()
    _LARGE_WARM.append(True)


def warm_up(large: bool = False) -> None:
    """Load the compiled kernels (from numba's disk cache, or compiled once: 10-35 s cold) so
    that no puzzle pays for it, and with ``large`` the learning search of grids above 16x16 too.
    Does nothing when numba is missing or the kernel is turned off."""
    backtrack_kernel.warm_up()  # (its line, when it compiled, is for prepare()'s callers)
    if large and backtrack_kernel.available() and not _LARGE_WARM:
        _warm_large()


def prepare_large(size: int) -> str | None:
    """Load the big-grid kernel before a puzzle of ``size`` is timed, if the fast strategy
    will run it there; a line saying so when this process compiled it (not loaded it)."""
    if _LARGE_WARM or size < WEIGHTED_FROM_SIZE or size > backtrack_kernel.MAX_SIZE:
        return None
    if not backtrack_kernel.available():  # (the cache checked first, as in _large_kernel)
        return None
    start = time.perf_counter()
    try:
        _warm_large()
        from .kernel import learn as kernel_learn
    except Exception:  # a numba that fails to load: the pure search runs, as in search()
        return None
    if not compiled_here(kernel_learn):
        return None
    return (
        f"backtrack: compiled its big-grid kernel in {time.perf_counter() - start:.1f} s "
        "(once a machine: numba's disk cache keeps it; not counted in any time limit)"
    )


# --- the backend ---------------------------------------------------------------------------
_SEARCHES: dict[str, Callable[[Puzzle, Layout, int | None, _Clock], Search]] = {
    "fast": _fast,
    "naive": _naive,
    "ordered": _ordered,
    "mrv": _mrv,
}


class BacktrackBackend(Backend):
    """Depth-first search in pure Python, with four strategies from textbook to fast."""

    name = "backtrack"
    summary = "hand-written depth-first search in pure Python: fast, naive, ordered, mrv"
    rules = RULE_KEYS
    options = (
        Option(
            "strategy",
            str,
            "fast",
            "fast: bit-packed candidates, naked/hidden singles and confinement, fewest "
            "candidates first; naive: reading order, every digit; ordered: reading order, "
            "candidates from the givens; mrv: fewest candidates first, no propagation",
            choices=STRATEGIES,
        ),
        Option(
            "kernel",
            bool,
            True,
            "strategy fast on models of groups only, classic 9x9 candidate grids, and models of "
            "groups with digit and pair rules (thermometers, dots, whispers …) up to 16x16: "
            "search with the compiled kernel when numba is installed (pip install "
            "'sudoku-cp[jit]'); "
            "false, or the environment variable SUDOKU_CP_KERNEL=0, keeps the search in pure "
            "Python",
        ),
    )
    counters = {
        "nodes": Counter(
            "assignments tried: a digit put in a cell (naive and ordered count every digit "
            "checked against the peers, the others every candidate tried; above 16x16 with the "
            "compiled kernel, every choice: a digit put in a cell or ruled out of it)",
            kind="size",
        ),
        "backtracks": Counter(
            "dead ends: a cell the search reached with no digit that fits "
            "(fast: a propagation that emptied a cell, or a group that lost a digit's last "
            "place, or above 16x16 with the compiled kernel a nogood it broke)",
            kind="dead-end",
        ),
        "propagations": Counter(
            "fast only: cells settled by propagation (naked and hidden singles)"
        ),
        "restarts": Counter(
            "fast above 16x16 with the compiled kernel: searches started again from the givens, "
            "keeping the nogoods learnt from dead ends"
        ),
    }

    @classmethod
    def notes(cls) -> list[str]:
        return [backtrack_kernel.status()]

    @classmethod
    def prepare(cls) -> str | None:
        return backtrack_kernel.warm_up()

    @classmethod
    def prepare_size(cls, size: int, settings: Mapping[str, Any]) -> str | None:
        if settings["strategy"] != "fast" or not settings["kernel"]:
            return None  # the big-grid kernel will not run
        return prepare_large(size)

    def search(
        self, puzzle: Puzzle, limit: int | None, deadline: float | None, options: dict[str, Any]
    ) -> Search:
        lay = layout(puzzle.model, puzzle.size)
        backtrack_kernel.note_engine("pure")  # until a kernel takes the puzzle
        if options["strategy"] == "fast" and options["kernel"]:
            if puzzle.size >= WEIGHTED_FROM_SIZE:
                large = _large_kernel(puzzle)
                if large is not None:  # big grids: the compiled search that learns
                    probed = backtrack_kernel.sparse_probe(puzzle, limit, deadline)
                    if probed is not None:  # (an open grid, decided by the plain kernel)
                        return probed
                    if not _LARGE_WARM:  # its compile (10-30 s cold) is not the search's time
                        deadline = backtrack_kernel.outside_the_limit(deadline, _warm_large)
                    backtrack_kernel.note_engine("learning kernel")
                    return large.search(puzzle, limit, deadline)
            # The compiled kernel when it is installed and fits, else this pure search.
            return backtrack_kernel.search(
                puzzle, limit, deadline, lambda until: _fast(puzzle, lay, limit, _Clock(until))
            )
        return _SEARCHES[options["strategy"]](puzzle, lay, limit, _Clock(deadline))
