"""The compiled search of the ``backtrack`` backend for big grids (above 16x16), with numba.

The classic kernel (:mod:`.kernel`) follows the pure search step for step and has no memory of
its dead ends, which is what grids of 25x25 and more need. This one is a search of its own:

- **propagation** to a fixed point, on each cell's candidates as a bit mask: naked singles,
  hidden singles, a group with a digit left nowhere, and confinement both ways round (a digit
  whose places in one group all lie where it meets another is no candidate in the rest of the
  other: box-line and pointing);
- **branching by dom/wdeg** (Boussemart et al., 2004) with a weight per cell: the open cell with
  the fewest candidates per dead end it has caused (a cell left with no candidate, or a cell of
  a group left without a place for a digit), as the pure search does above 16x16;
- **restarts** (Luby et al., 1993): a run of the search stops after a budget of dead ends that
  follows the Luby sequence (1, 1, 2, 1, 1, 2, 4, ... times a unit) and starts again from the
  givens, keeping the weights, so that what the dead ends taught reorders the whole tree.

Restarts keep the search complete and sound: the budgets grow without bound, so some run ends
by exhausting its tree, and every solution lies in that tree. A solution found by an earlier
run is kept (the caller's buffer holds every distinct one), and met again it is not counted
again. Restarts are used when the caller wants at most a few solutions (``limit`` within the
buffer); counting all solutions runs one search without them, handing solutions back in
batches.

Nothing here allocates per node and a call can stop and resume: the state lives in arrays the
caller owns (:func:`search` is the glue). This module imports numba: import it only to solve.
"""

from __future__ import annotations

import functools
import time

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ..model import Model
from ..puzzle import Grid, Puzzle
from . import Search

# --- what a call says, and where it keeps its counters ------------------------------------------
DONE, LIMIT, PAUSED, BUFFER_FULL, STACK_FULL = range(5)
(
    NODES,
    BACKTRACKS,
    PROPAGATIONS,
    RESTARTS,
    DEPTH,
    FOUND,
    IN_BUFFER,
    STARTED,
    PENDING,
    FAILS_LEFT,
    RUN,
    LIMIT_AT,
    BUDGET,
    UNIT,
    RESTARTING,
    WORK,
    DOWN,
    GAC,
    BLAME,
    VALUE,
) = range(20)
"""Indices into ``ctrl``: four counters, the frames in use, solutions found in all and in the
buffer, whether the root is set up, whether a run is to start from the root, the dead ends left
to this run and its number; then what the caller sets: the solutions wanted (0: all), the nodes
a call may try, the dead ends of the shortest run, and whether to restart."""
CTRL_SIZE = 20

RESTART_UNIT = 64
"""Dead ends of the shortest run. Measured on the public 25x25 set (``perf.large``)."""
WORK_PER_CALL = 1_000_000
"""Cells' worth of work a call may do before it returns so the clock can be read (a node costs
about a pass over the grid): 1,600 nodes at 25x25."""
SOLUTION_ROWS = 64
OPTIONS = {"gac": 1, "blame": 0, "value": 1}
"""Choices measured on the public 25x25 set (README): ``gac`` domain consistency of each group
(1; 0: singles and confinement only), ``blame`` a group's dead end also weighs its open cells
(0: only a cell left empty or with two hidden digits weighs), ``value`` the digit tried first
(0 lowest, 1 fewest places in the cell's groups, 2 most)."""
RESTART_BY_DEFAULT = False
"""Whether the backend's searches restart: measured, they did not pay (see the README)."""
"""Solutions handed back per call at most; a search with a limit up to this restarts."""
FIRST_FRAMES = 128
"""Frames (branch levels) the stack starts with; it doubles when a search goes deeper."""


@intrinsic
def _popcount(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True)
def luby(i):
    """The ``i``-th term (from 0) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    size = 1
    power = 0
    while size < i + 1:
        power += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        power -= 1
        i = i % size
    return np.int64(1) << power


@njit(cache=True, inline="always")
def _touch(cell, cg_start, cg_list, dirty):
    """Mark the groups of ``cell`` as changed (for hidden singles and confinement)."""
    for k in range(cg_start[cell], cg_start[cell + 1]):
        dirty[cg_list[k]] = 7


@njit(cache=True, inline="always")
def _blame_group(g, groups, cand, weights):
    """A dead end in group ``g``: every open cell of it gains weight."""
    one = np.uint64(1)
    for i in range(groups.shape[1]):
        c = groups[g, i]
        m = cand[c]
        if m & (m - one):
            weights[c] += 1


@njit(cache=True)
def _all_different(g, groups, cand, scratch, masks):
    """Domain consistency of group ``g`` (Regin, 1994): remove every candidate that lies in no
    perfect matching of the group's cells to its digits. Returns -1 when there is no perfect
    matching, else how many cells lost candidates (their positions in the group are put in
    ``masks[2]``).

    A matching is grown by augmenting paths over bit masks. With every digit matched, digit d
    of cell c is in some perfect matching exactly when c and the cell matched to d lie on a
    common cycle of the graph "c -> the cell matched to a candidate of c", that is, in one
    strongly connected component: here, the cells that reach c among those c reaches."""
    n = groups.shape[1]
    match = scratch[0]
    owner = scratch[1]
    parent = scratch[2]
    queue = scratch[3]
    adj = masks[0]
    reach = masks[1]
    one = np.uint64(1)
    taken = np.uint64(0)
    for i in range(n):
        owner[i] = -1
        match[i] = -1
    for i in range(n):
        free = cand[groups[g, i]] & ~taken
        if free:
            b = free & (~free + one)
            d = np.int64(trailing_zeros(b))
            match[i] = d
            owner[d] = i
            taken |= b
    for i in range(n):
        if match[i] >= 0:
            continue
        visited = np.uint64(0)
        head = 0
        tail = 1
        queue[0] = i
        found = -1
        while head < tail and found < 0:
            x = queue[head]
            head += 1
            avail = cand[groups[g, x]] & ~visited
            while avail:
                b = avail & (~avail + one)
                avail ^= b
                d = np.int64(trailing_zeros(b))
                visited |= b
                parent[d] = x
                if owner[d] < 0:
                    found = d
                    break
                queue[tail] = owner[d]
                tail += 1
        if found < 0:
            return -1
        d = found
        while True:
            x = parent[d]
            prev = match[x]
            match[x] = d
            owner[d] = x
            if x == i:
                break
            d = prev
    for i in range(n):
        m = cand[groups[g, i]]
        a = np.uint64(0)
        while m:
            b = m & (~m + one)
            m ^= b
            a |= one << np.uint64(owner[np.int64(trailing_zeros(b))])
        adj[i] = a
    for i in range(n):
        r = one << np.uint64(i)
        frontier = r
        while frontier:
            b = frontier & (~frontier + one)
            frontier ^= b
            new = adj[np.int64(trailing_zeros(b))] & ~r
            r |= new
            frontier |= new
        reach[i] = r
    changed = 0
    for i in range(n):
        c = groups[g, i]
        m = cand[c]
        if m & (m - one) == 0:
            continue
        allowed = np.uint64(0)
        r = reach[i]
        while r:
            b = r & (~r + one)
            r ^= b
            j = np.int64(trailing_zeros(b))
            if reach[j] >> np.uint64(i) & one:
                allowed |= one << np.uint64(match[j])
        if m & ~allowed:
            cand[c] = m & allowed
            masks[2, changed] = np.uint64(i)
            changed += 1
    return changed


@njit(cache=True)
def _propagate(cand, queue, tail, full, tab, dirty, confine, weights, scratch, masks, ctrl):
    """Settle the queued cells, then hidden singles and confinement, to a fixed point.

    ``dirty[g]``: group ``g`` changed since hidden singles (bit 1) and confinement (bit 2) last
    looked at it. Returns the cells settled (beyond the ``tail`` queued), or -1 at a dead end
    (after adding to the weights of the cells that caused it)."""
    (peer_start, peer_list, groups, cg_start, cg_list, pair_groups, pair_a, pair_b) = tab
    one = np.uint64(1)
    size = groups.shape[1]
    queued = tail
    head = 0
    while True:
        # Naked singles: a settled cell's digit leaves its peers.
        while head < tail:
            cell = queue[head]
            head += 1
            digit = cand[cell]
            for k in range(peer_start[cell], peer_start[cell + 1]):
                q = peer_list[k]
                m = cand[q]
                if m & digit:
                    m &= ~digit
                    cand[q] = m
                    _touch(q, cg_start, cg_list, dirty)
                    if m == 0:
                        weights[q] += 1
                        return -1
                    if m & (m - one) == 0:
                        queue[tail] = q
                        tail += 1
        # Hidden singles: a digit with one place in a group goes there.
        for g in range(groups.shape[0]):
            if not dirty[g] & 1:
                continue
            dirty[g] &= 6
            once = np.uint64(0)
            twice = np.uint64(0)
            for i in range(size):
                m = cand[groups[g, i]]
                twice |= once & m
                once |= m
            if once != full:
                if ctrl[BLAME]:
                    _blame_group(g, groups, cand, weights)
                return -1
            hidden = once & ~twice
            if hidden == 0:
                continue
            for i in range(size):
                c = groups[g, i]
                m = cand[c]
                if m & (m - one) == 0:
                    continue  # settled (its digit is left nowhere else in the group)
                h = m & hidden
                if h:
                    if h & (h - one):
                        weights[c] += 1  # the only place of two digits
                        return -1
                    cand[c] = h
                    _touch(c, cg_start, cg_list, dirty)
                    queue[tail] = c
                    tail += 1
        if head < tail:
            continue
        # Confinement, both ways round each pair of groups meeting in two or more cells.
        for g in range(groups.shape[0]):
            confine[g] = dirty[g] & 2
            dirty[g] &= 5
        changed = False
        for k in range(pair_groups.shape[0]):
            if not (confine[pair_groups[k, 0]] or confine[pair_groups[k, 1]]):
                continue
            for way in range(2):
                inside = pair_a if way == 0 else pair_b
                outside = pair_b if way == 0 else pair_a
                seen = np.uint64(0)
                for i in range(inside.shape[1]):
                    c = inside[k, i]
                    if c < 0:
                        break
                    seen |= cand[c]
                confined = full & ~seen
                if confined == 0:
                    continue
                for i in range(outside.shape[1]):
                    c = outside[k, i]
                    if c < 0:
                        break
                    m = cand[c]
                    if m & confined:
                        m &= ~confined
                        cand[c] = m
                        _touch(c, cg_start, cg_list, dirty)
                        changed = True
                        if m == 0:
                            weights[c] += 1
                            return -1
                        if m & (m - one) == 0:
                            queue[tail] = c
                            tail += 1
        if changed:
            continue
        # Domain consistency of each changed group: Hall sets of every size, at last.
        if not ctrl[GAC]:
            return tail - queued
        for g in range(groups.shape[0]):
            if not dirty[g] & 4:
                continue
            dirty[g] &= 3
            lost = _all_different(g, groups, cand, scratch, masks)
            if lost < 0:
                if ctrl[BLAME]:
                    _blame_group(g, groups, cand, weights)
                return -1
            for k in range(lost):
                c = groups[g, np.int64(masks[2, k])]
                _touch(c, cg_start, cg_list, dirty)
                changed = True
                m = cand[c]
                if m & (m - one) == 0:
                    queue[tail] = c
                    tail += 1
            if changed:
                break
        if not changed:
            return tail - queued


@njit(cache=True)
def _branch_cell(cand, weights):
    """The open cell with the fewest candidates per unit of weight (1 + its dead ends), the
    first in reading order among equals; -1 when every cell is settled."""
    cell = -1
    best_count = np.int64(1)
    best_weight = np.int64(0)
    for c in range(cand.shape[0]):
        n = np.int64(_popcount(cand[c]))
        if n > 1:
            w = weights[c] + 1
            # n / w < best_count / best_weight, in integers
            if cell < 0 or n * best_weight < best_count * w:
                cell = c
                best_count = n
                best_weight = w
    return cell


@njit(cache=True)
def _leaf(cand, sols, ctrl):
    """A solution: into the buffer unless a restarted search met it before. Returns whether
    it is new."""
    cells = cand.shape[0]
    if ctrl[RESTARTING]:
        for r in range(ctrl[FOUND]):
            same = True
            for c in range(cells):
                if sols[r, c] != trailing_zeros(cand[c]) + 1:
                    same = False
                    break
            if same:
                return False
    row = ctrl[IN_BUFFER]
    for c in range(cells):
        sols[row, c] = trailing_zeros(cand[c]) + 1
    ctrl[IN_BUFFER] = row + 1
    ctrl[FOUND] += 1
    return True


@njit(cache=True)
def _value(cand, cell, groups, cg_start, cg_list, how):
    """The digit to try first in ``cell``: the lowest (``how`` 0), or the one with the fewest
    (1) or most (2) places in the cell's groups, the lowest among equals."""
    m = cand[cell]
    one = np.uint64(1)
    if how == 0:
        return m & (~m + one)
    best = m & (~m + one)
    best_places = np.int64(1) << 40
    left = m
    while left:
        b = left & (~left + one)
        left ^= b
        places = np.int64(0)
        for k in range(cg_start[cell], cg_start[cell + 1]):
            g = cg_list[k]
            for i in range(groups.shape[1]):
                if cand[groups[g, i]] & b:
                    places += 1
        if how == 2:
            places = -places
        if places < best_places:
            best_places = places
            best = b
    return best


@njit(cache=True)
def run(digits, tab, root, frames, frame_cell, frame_left, work, weights, sols, ctrl):
    """Search, or go on searching, until one of the statuses above; returns it.

    ``digits``: the givens (0 blank); ``tab``: the model's tables (see :class:`Tables`);
    ``root``: the fixed point of the givens (set up by the first call); ``frames[i]``: the
    state at depth ``i`` of the current run, ``frame_cell[i]`` the cell it branches on and
    ``frame_left[i]`` the digits not yet tried; ``work``: the state being propagated;
    ``weights``: each cell's dead ends; ``sols``: the solution buffer; ``ctrl``: see above.
    """
    size = tab[2].shape[1]
    ngroups = tab[2].shape[0]
    full = ~np.uint64(0) if size == 64 else (np.uint64(1) << np.uint64(size)) - np.uint64(1)
    cells = digits.shape[0]
    limit = ctrl[LIMIT_AT]
    queue = np.empty(cells, dtype=np.int32)
    dirty = np.empty(ngroups, dtype=np.uint8)
    confine = np.empty(ngroups, dtype=np.uint8)
    scratch = np.empty((4, 65), dtype=np.int64)
    masks = np.empty((3, 64), dtype=np.uint64)
    if ctrl[STARTED] == 0:
        ctrl[:STARTED] = 0
        ctrl[WORK] = 0
        ctrl[DOWN] = 0
        ctrl[STARTED] = 1
        tail = 0
        for c in range(cells):
            d = digits[c]
            if d:
                work[c] = np.uint64(1) << np.uint64(d - 1)
                queue[tail] = c
                tail += 1
            else:
                work[c] = full
        dirty[:] = 7
        settled = _propagate(
            work, queue, tail, full, tab, dirty, confine, weights, scratch, masks, ctrl
        )
        if settled < 0:
            ctrl[BACKTRACKS] += 1
            return DONE
        ctrl[PROPAGATIONS] += settled
        root[:] = work
        ctrl[RUN] = 0
        ctrl[FAILS_LEFT] = ctrl[UNIT] * luby(0)
        ctrl[PENDING] = 1
    stop = ctrl[WORK] + ctrl[BUDGET]
    depth = ctrl[DEPTH]
    one = np.uint64(1)
    while True:
        if ctrl[PENDING]:
            # Start a run from the givens' fixed point, branching by the weights as they are.
            ctrl[PENDING] = 0
            work[:] = root
            cell = _branch_cell(work, weights)
            if cell < 0:
                _leaf(work, sols, ctrl)
                ctrl[DEPTH] = 0
                return LIMIT if limit and ctrl[FOUND] >= limit else DONE
            frames[0, :] = work
            frame_cell[0] = cell
            frame_left[0] = _value(work, cell, tab[2], tab[3], tab[4], ctrl[VALUE])
            depth = 1
            ctrl[DOWN] = 1
        if depth == 0:
            ctrl[DEPTH] = 0
            return DONE
        if ctrl[RESTARTING] and ctrl[FAILS_LEFT] <= 0:
            ctrl[RUN] += 1
            ctrl[RESTARTS] += 1
            ctrl[FAILS_LEFT] = ctrl[UNIT] * luby(ctrl[RUN])
            ctrl[PENDING] = 1
            depth = 0
            continue
        if depth == frames.shape[0]:
            ctrl[DEPTH] = depth
            return STACK_FULL
        if ctrl[WORK] >= stop:
            ctrl[DEPTH] = depth
            return PAUSED
        # Two-way branching: the top frame's cell takes its digit (down), or, that explored,
        # loses it (the frame becomes that state, and branches anew).
        top = depth - 1
        down = ctrl[DOWN]
        work[:] = frames[top]
        cell = frame_cell[top]
        bit = frame_left[top]
        dirty[:] = 0  # the frame is a fixed point: only what changes from here is new
        tail = 0
        if down:
            work[cell] = bit
            queue[0] = cell
            tail = 1
        else:
            m = work[cell] & ~bit
            work[cell] = m
            if m & (m - one) == 0:
                queue[0] = cell
                tail = 1
        _touch(cell, tab[3], tab[4], dirty)
        ctrl[NODES] += 1
        ctrl[WORK] += 1
        settled = _propagate(
            work, queue, tail, full, tab, dirty, confine, weights, scratch, masks, ctrl
        )
        if settled < 0:
            ctrl[BACKTRACKS] += 1
            ctrl[FAILS_LEFT] -= 1
            if not down:
                depth -= 1
            ctrl[DOWN] = 0
            continue
        ctrl[PROPAGATIONS] += settled
        cell = _branch_cell(work, weights)
        if cell < 0:
            if not down:
                depth -= 1
            ctrl[DOWN] = 0
            if _leaf(work, sols, ctrl):
                if limit and ctrl[FOUND] >= limit:
                    ctrl[DEPTH] = depth
                    return LIMIT
                if not ctrl[RESTARTING] and ctrl[IN_BUFFER] == sols.shape[0]:
                    ctrl[DEPTH] = depth
                    return BUFFER_FULL
            continue
        at = depth if down else top
        frames[at, :] = work
        frame_cell[at] = cell
        frame_left[at] = _value(work, cell, tab[2], tab[3], tab[4], ctrl[VALUE])
        depth = at + 1
        ctrl[DOWN] = 1


# --- the glue ---------------------------------------------------------------------------------
class Tables:
    """A model's full groups at one size, as the kernel reads them (built once, cached)."""

    def __init__(self, model: Model, size: int) -> None:
        from .backtrack import layout

        lay = layout(model, size)
        cells = size * size
        peer_start = np.zeros(cells + 1, dtype=np.int32)
        peer_start[1:] = np.cumsum([len(p) for p in lay.peers])
        peer_list = np.array([q for p in lay.peers for q in p], dtype=np.int32)
        groups = np.array(lay.full_groups, dtype=np.int32).reshape(len(lay.full_groups), size)
        of_cell: list[list[int]] = [[] for _ in range(cells)]
        for g, group in enumerate(lay.full_groups):
            for c in group:
                of_cell[c].append(g)
        cg_start = np.zeros(cells + 1, dtype=np.int32)
        cg_start[1:] = np.cumsum([len(gs) for gs in of_cell])
        cg_list = np.array([g for gs in of_cell for g in gs], dtype=np.int32)
        sets = [frozenset(g) for g in lay.full_groups]
        pairs = [
            (i, j)
            for i in range(len(sets))
            for j in range(i + 1, len(sets))
            if len(sets[i] & sets[j]) >= 2
        ]
        pair_groups = np.array(pairs, dtype=np.int32).reshape(len(pairs), 2)
        # Each pair's cells of A outside B and of B outside A, padded with -1.
        pair_a = np.full((len(pairs), size), -1, dtype=np.int32)
        pair_b = np.full((len(pairs), size), -1, dtype=np.int32)
        for k, (i, j) in enumerate(pairs):
            only_a = sorted(sets[i] - sets[j])
            only_b = sorted(sets[j] - sets[i])
            pair_a[k, : len(only_a)] = only_a
            pair_b[k, : len(only_b)] = only_b
        self.cells = cells
        self.arrays = (
            peer_start,
            peer_list,
            groups,
            cg_start,
            cg_list,
            pair_groups,
            pair_a,
            pair_b,
        )


@functools.lru_cache(maxsize=8)
def tables(model: Model, size: int) -> Tables:
    return Tables(model, size)


def search(
    puzzle: Puzzle, limit: int | None, deadline: float | None, restarts: bool | None = None
) -> Search:
    """The kernel's search of ``puzzle``: up to ``limit`` solutions (None: all), stopping at
    ``deadline`` (``time.perf_counter()`` seconds). It restarts (see the module docstring) when
    ``restarts`` and ``limit`` is at most ``SOLUTION_ROWS``."""
    tab = tables(puzzle.model, puzzle.size)
    cells = tab.cells
    digits = np.frombuffer(puzzle.digits, dtype=np.uint8)
    if restarts is None:
        restarts = RESTART_BY_DEFAULT
    restarting = restarts and limit is not None and limit <= SOLUTION_ROWS
    depth = min(FIRST_FRAMES, cells + 1)
    frames = np.empty((depth, cells), dtype=np.uint64)
    frame_cell = np.empty(depth, dtype=np.int64)
    frame_left = np.empty(depth, dtype=np.uint64)
    root = np.empty(cells, dtype=np.uint64)
    work = np.empty(cells, dtype=np.uint64)
    weights = np.zeros(cells, dtype=np.int64)
    rows = limit if restarting and limit is not None else SOLUTION_ROWS
    sols = np.empty((rows, cells), dtype=np.uint8)
    ctrl = np.zeros(CTRL_SIZE, dtype=np.int64)
    ctrl[LIMIT_AT] = limit or 0
    ctrl[BUDGET] = max(16, WORK_PER_CALL // cells) if deadline is not None else 1 << 62
    ctrl[UNIT] = RESTART_UNIT
    ctrl[RESTARTING] = restarting
    ctrl[GAC] = OPTIONS["gac"]
    ctrl[BLAME] = OPTIONS["blame"]
    ctrl[VALUE] = OPTIONS["value"]
    found: list[Grid] = []
    timed_out = False
    while True:
        state = run(
            digits, tab.arrays, root, frames, frame_cell, frame_left, work, weights, sols, ctrl
        )
        if not restarting and ctrl[IN_BUFFER]:
            found.extend(tuple(row) for row in sols[: ctrl[IN_BUFFER]].tolist())
            ctrl[IN_BUFFER] = 0
        if state in (DONE, LIMIT):
            break
        if deadline is not None and time.perf_counter() >= deadline:
            timed_out = True
            break
        if state == STACK_FULL:
            frames = np.concatenate([frames, np.empty_like(frames)])
            frame_cell = np.concatenate([frame_cell, np.empty_like(frame_cell)])
            frame_left = np.concatenate([frame_left, np.empty_like(frame_left)])
    if restarting:
        found = [tuple(row) for row in sols[: ctrl[IN_BUFFER]].tolist()]
    return Search(
        solutions=found,
        exhausted=state == DONE,
        timed_out=timed_out,
        stats={
            "nodes": int(ctrl[NODES]),
            "backtracks": int(ctrl[BACKTRACKS]),
            "propagations": int(ctrl[PROPAGATIONS]),
            "restarts": int(ctrl[RESTARTS]),
        },
    )


def warm_up() -> None:
    """Load the compiled code (from numba's disk cache, or compiled once) on a tiny grid."""
    search(Puzzle([0] * 625), 1, None)
