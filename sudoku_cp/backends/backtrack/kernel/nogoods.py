"""The state of the learning search (:mod:`.learn`): where a call keeps its counters,
the order in which it picks variables, and its store of nogoods with their watches.

Nogoods live in one array of literals, each behind a three-word header (its index, length, and
where the last search for a new watch in it ended), so that visiting one reads one stretch of
memory. Each literal has a list of the nogoods that watch it, kept in one pool of (nogood,
blocker) pairs: a full list moves to the end of the pool with twice the room, and a full pool is
packed. From time to time half of the learnt nogoods are dropped (:func:`reduce_nogoods`). This
module imports numba: import it only to solve.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ....jit import njit

# --- what a call says, and where it keeps its counters ------------------------------------------
DONE, LIMIT, PAUSED, BUFFER_FULL, GROW = range(5)
(
    DECISIONS,
    CONFLICTS,
    PROPAGATIONS,
    RESTARTS,
    FOUND,
    IN_BUFFER,
    STARTED,
    TRAIL,
    QHEAD,
    LEVEL,
    HEAP_SIZE,
    CLAUSES,
    LITS,
    LEARNT,
    RESTART_LEFT,
    RESTART_NO,
    REDUCE_AT,
    REDUCTIONS,
    CONFLICT_KIND,
    CONFLICT_A,
    CONFLICT_B,
    LIMIT_AT,
    BUDGET,
    UNIT,
    RESTART_MODE,
    LBD_SEEN,
    TRAIL_SEEN,
    MARK,
    KEEP_LBD,
    REDUCE_FIRST,
    REDUCE_STEP_NOW,
    SETTLED,
    WEND,
    LAST_N,
) = range(34)
"""Indices into ``ctrl``, one int64 array: counters, solutions found in all and in the buffer,
whether the root is set up, the trail's length and how much of it is propagated, the decision
level, the heap's size, the store's use (nogoods, literals, learnt ones, the watch pool's end),
the restart and reduction schedules, the last dead end; what the caller sets (solutions wanted,
0: all; work a call may do; the Luby unit; how restarts are timed; the distance kept for good;
the sweep schedule); and scratch (a stamp for levels, the variables to bump again)."""
CTRL_SIZE = 34
VAR_INC, LBD_RECENT, TRAIL_RECENT, LBD_ALL = range(4)
"""Indices into ``fctrl``: what a variable's activity gains in a dead end (grows by 1/DECAY);
the sums of the recent nogoods' distances and trail lengths, and of all distances."""
FCTRL_SIZE = 4

(
    S_VAL,
    S_LEVEL,
    S_RKIND,
    S_RDATA,
    S_TRAIL,
    S_LIM,
    S_COUNT,
    S_PHASE,
    S_ACT,
    S_HEAP,
    S_HPOS,
    S_SEEN,
    S_BUF,
    S_MORE,
    S_LITS,
    S_CL_START,
    S_CL_LEN,
    S_CL_LBD,
    S_CL_FLAGS,
    S_WL,
    S_STAMP,
    S_STACK,
    S_TOCLEAR,
    S_MEM_START,
    S_MEM_LIST,
    S_MOVED_TO,
    S_HISTOGRAM,
    S_LBD_RING,
    S_TRAIL_RING,
    S_WATCHES,
    S_SPARE,
    S_LAST,
) = range(32)
"""Slots of the state, one tuple of arrays the caller owns (see ``learn.search``): per
variable its value, level, why it has it (kind, data), the trail and where each level starts
on it, each constraint's count of possible "yes"es, phase, activity, heap and place in it,
analysis scratch (seen, the nogood being built, reason literals); the nogood store (literals,
each nogood's start, length, distance and flags, each literal's watch list); more scratch
(level stamps, the minimisation's stack and marks); each constraint's members; the sweep's
scratch (where each nogood moves, distances counted); the restart rings; the watch pool and
its spare; the last level's variables to bump again."""
STATE_SIZE = 32

# how a variable got its value
DECIDED, UNIT_FACT, BY_PEER, BY_CONSTRAINT, BY_CLAUSE = range(5)
# what a dead end was
PEER_CLASH, EMPTY_CONSTRAINT, FALSE_CLAUSE = range(3)
HEADER = 3
"""Words before each nogood's literals in the store (see :func:`_header`)."""
# clause flags
LEARNT_FLAG, DELETED_FLAG, SPARED_FLAG = 1, 2, 4
SPARE_UP_TO = 30
"""A nogood whose distance fell in an analysis, from at most this, is spared one sweep (as
Glucose's frozen clauses)."""


@intrinsic
def load(typingctx, array, index):
    """``array[index]`` for an ``index`` known not to be negative: numba's indexing also
    handles negative ones, a few instructions that the hottest loop pays on every access."""

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        return builder.load(ptr)

    return array.dtype(array, index), codegen


@intrinsic
def store(typingctx, array, index, value):
    """``array[index] = value`` for an ``index`` known not to be negative (see :func:`load`)."""

    def codegen(context, builder, signature, args):
        aryty, _, valty = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        builder.store(context.cast(builder, args[2], valty, aryty.dtype), ptr)
        return context.get_dummy_value()

    return types.void(array, index, value), codegen


@njit(cache=True, inline="always", _nrt=False)
def _heap_up(i, heap, hpos, act):
    v = load(heap, i)
    while i > 0:
        parent = (i - 1) >> 1
        if load(act, load(heap, parent)) >= load(act, v):
            break
        store(heap, i, load(heap, parent))
        store(hpos, load(heap, i), i)
        i = parent
    store(heap, i, v)
    store(hpos, v, i)


@njit(cache=True, inline="always", _nrt=False)
def _heap_down(i, heap, hpos, act, size):
    v = load(heap, i)
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and load(act, load(heap, child + 1)) > load(act, load(heap, child)):
            child += 1
        if load(act, load(heap, child)) <= load(act, v):
            break
        store(heap, i, load(heap, child))
        store(hpos, load(heap, i), i)
        i = child
    store(heap, i, v)
    store(hpos, v, i)


@njit(cache=True, inline="always", _nrt=False)
def heap_insert(v, heap, hpos, act, ctrl):
    if load(hpos, v) >= 0:
        return
    i = ctrl[HEAP_SIZE]
    ctrl[HEAP_SIZE] = i + 1
    store(heap, i, v)
    store(hpos, v, i)
    _heap_up(i, heap, hpos, act)


@njit(cache=True, inline="always", _nrt=False)
def heap_pop(heap, hpos, act, ctrl):
    v = load(heap, 0)
    size = ctrl[HEAP_SIZE] - 1
    ctrl[HEAP_SIZE] = size
    store(hpos, v, -1)
    if size > 0:
        store(heap, 0, load(heap, size))
        store(hpos, load(heap, 0), 0)
        _heap_down(0, heap, hpos, act, size)
    return v


@njit(cache=True, inline="always", _nrt=False)
def bump(v, act, heap, hpos, fctrl):
    store(act, v, load(act, v) + fctrl[VAR_INC])
    if load(act, v) > 1e100:
        for i in range(act.shape[0]):
            act[i] *= 1e-100
        fctrl[VAR_INC] *= 1e-100
    if load(hpos, v) >= 0:
        _heap_up(load(hpos, v), heap, hpos, act)


@njit(cache=True, inline="always", _nrt=False)
def pool_needs(nv, clauses):
    """Room the watch lists' pool must have: twice what they take packed (two watches a nogood,
    each list with room to double, four at least for a list that has any), and the longest list
    doubled on top of that."""
    return 2 * (8 * nv + 8 * clauses) + 64


@njit(cache=True, _nrt=False)
def _repack(st, ctrl):
    """Lay the watch lists out afresh, packed, each with room to double."""
    wl = st[S_WL]
    watches, spare = st[S_WATCHES], st[S_SPARE]
    pos = 0
    for lit in range(wl.shape[0] >> 2):
        b = wl[4 * lit]
        c = wl[4 * lit + 1]
        for i in range(2 * c):
            spare[2 * pos + i] = watches[2 * b + i]
        wl[4 * lit] = pos
        wl[4 * lit + 2] = 2 * c
        pos += 2 * c
    for i in range(2 * pos):
        watches[i] = spare[i]
    ctrl[WEND] = pos


@njit(cache=True, inline="always", _nrt=False)
def push(lit, ref, blocker, st, ctrl):
    """The nogood whose literals start at ``ref`` watches ``lit`` (it is visited when ``lit``
    turns false), ``blocker`` being another of its literals: when that one is true, the visit
    stops there. A full list moves to the end of the pool with twice the room; a full pool is
    packed first."""
    wl = st[S_WL]
    watches = st[S_WATCHES]
    if load(wl, 4 * lit + 1) == load(wl, 4 * lit + 2):
        if ctrl[WEND] + max(4, 2 * load(wl, 4 * lit + 2)) > watches.shape[0] >> 1:
            _repack(st, ctrl)
        if load(wl, 4 * lit + 1) == load(wl, 4 * lit + 2):
            room = max(4, 2 * load(wl, 4 * lit + 2))
            b = load(wl, 4 * lit)
            e = ctrl[WEND]
            for i in range(2 * load(wl, 4 * lit + 1)):
                store(watches, 2 * e + i, load(watches, 2 * b + i))
            store(wl, 4 * lit, e)
            store(wl, 4 * lit + 2, room)
            ctrl[WEND] = e + room
    k = 2 * (load(wl, 4 * lit) + load(wl, 4 * lit + 1))
    store(watches, k, ref)
    store(watches, k + 1, blocker)
    store(wl, 4 * lit + 1, load(wl, 4 * lit + 1) + 1)


@njit(cache=True, inline="always", _nrt=False)
def _header(lits, s, ci, m):
    """The three words before a nogood's literals: its index, its length, and where the last
    search for a new watch in it ended (so that a visit reads one stretch of memory)."""
    store(lits, s - 3, ci)
    store(lits, s - 2, m)
    store(lits, s - 1, 2)


@njit(cache=True, inline="always", _nrt=False)
def add_clause(buf, m, flags, st, ctrl):
    """Store ``buf[:m]`` (m >= 2) and watch its first two literals; its index."""
    lits, cl_start, cl_len, cl_lbd, cl_flags = st[S_LITS:S_WL]
    ci = ctrl[CLAUSES]
    ctrl[CLAUSES] = ci + 1
    s = ctrl[LITS] + HEADER
    ctrl[LITS] = s + m
    _header(lits, s, ci, m)
    store(cl_start, ci, s)
    store(cl_len, ci, m)
    store(cl_lbd, ci, 0)
    store(cl_flags, ci, flags)
    for i in range(m):
        store(lits, s + i, load(buf, i))
    push(load(buf, 0), s, load(buf, 1), st, ctrl)
    push(load(buf, 1), s, load(buf, 0), st, ctrl)
    if flags & LEARNT_FLAG:
        ctrl[LEARNT] += 1
    return ci


@njit(cache=True, inline="always", _nrt=False)
def lbd(lits, start, length, level, stamp, ctrl):
    """The literal block distance of ``lits[start:start + length]``: how many levels it spans."""
    ctrl[MARK] += 1
    mark = ctrl[MARK]
    distance = 0
    for i in range(start, start + length):
        lv = load(level, load(lits, i) >> 1)
        if load(stamp, lv) != mark:
            store(stamp, lv, mark)
            distance += 1
    return distance


@njit(cache=True, inline="always", _nrt=False)
def refresh(ci, level, stamp, lits, cl_start, cl_len, cl_lbd, cl_flags, ctrl):
    """A learnt nogood met in an analysis: its distance now, if lower (Glucose keeps it so)."""
    if load(cl_flags, ci) & LEARNT_FLAG and load(cl_lbd, ci) > 2:
        distance = lbd(lits, load(cl_start, ci), load(cl_len, ci), level, stamp, ctrl)
        if distance + 1 < load(cl_lbd, ci):
            if load(cl_lbd, ci) <= SPARE_UP_TO:  # it proved useful: not dropped in the next sweep
                store(cl_flags, ci, load(cl_flags, ci) | SPARED_FLAG)
            store(cl_lbd, ci, distance)


@njit(cache=True, inline="always", _nrt=False)
def _locked(ci, rkind, rdata, val, lits, cl_start):
    """Whether nogood ``ci`` is the reason of a value on the trail (then it must stay)."""
    s = load(cl_start, ci)
    for j in range(2):
        v = load(lits, s + j) >> 1
        if load(val, v) >= 0 and load(rkind, v) == BY_CLAUSE and load(rdata, v) == ci:
            return True
    return False


@njit(cache=True, _nrt=False)
def reduce_nogoods(st, ctrl):
    """Drop half of the learnt nogoods, those of highest literal block distance (older first
    among equals; never one of distance 2 or less, nor a reason in use), then pack the store
    and watch it afresh."""
    val, level, rkind, rdata = st[S_VAL], st[S_LEVEL], st[S_RKIND], st[S_RDATA]
    lits, cl_start, cl_len, cl_lbd, cl_flags = st[S_LITS:S_WL]
    wl, moved_to, histogram = st[S_WL], st[S_MOVED_TO], st[S_HISTOGRAM]
    total = ctrl[CLAUSES]
    top_bucket = histogram.shape[0] - 1
    histogram[:] = 0
    candidates = 0
    for ci in range(total):
        if cl_flags[ci] == LEARNT_FLAG and cl_lbd[ci] > ctrl[KEEP_LBD]:
            histogram[min(cl_lbd[ci], top_bucket)] += 1
            candidates += 1
    quota = candidates // 2
    cut = top_bucket  # the distance from which nogoods go (all above it, some at it)
    above = 0
    while cut > ctrl[KEEP_LBD] and above + histogram[cut] < quota:
        above += histogram[cut]
        cut -= 1
    at_cut = quota - above
    for ci in range(total):
        if cl_flags[ci] != LEARNT_FLAG or cl_lbd[ci] <= ctrl[KEEP_LBD]:
            continue
        bucket = min(cl_lbd[ci], top_bucket)
        if bucket < cut or (bucket == cut and at_cut <= 0):
            continue
        if bucket == cut:
            at_cut -= 1
        if not _locked(ci, rkind, rdata, val, lits, cl_start):
            cl_flags[ci] |= DELETED_FLAG
            ctrl[LEARNT] -= 1
    kept = 0
    top = 0
    for ci in range(total):
        if cl_flags[ci] & DELETED_FLAG:
            continue
        cl_flags[ci] &= ~SPARED_FLAG
        s = cl_start[ci]
        length = cl_len[ci]
        locked = _locked(ci, rkind, rdata, val, lits, cl_start)
        if not locked:  # settled for good at level 0: gone, or its false literals are
            settled = False
            for i in range(length):
                q = lits[s + i]
                if level[q >> 1] == 0 and val[q >> 1] == 1 - (q & 1):
                    settled = True
                    break
            if settled:
                if cl_flags[ci] & LEARNT_FLAG:
                    ctrl[LEARNT] -= 1
                continue
        moved_to[ci] = kept
        top += HEADER
        m = 0
        for i in range(length):
            q = lits[s + i]
            if i < 2 or locked or not (level[q >> 1] == 0 and val[q >> 1] >= 0):
                lits[top + m] = q
                m += 1
        length = m
        _header(lits, top, kept, length)
        cl_start[kept] = top
        cl_len[kept] = length
        cl_lbd[kept] = cl_lbd[ci]
        cl_flags[kept] = cl_flags[ci]
        top += length
        kept += 1
    for v in range(val.shape[0]):
        if val[v] >= 0 and rkind[v] == BY_CLAUSE:
            rdata[v] = moved_to[rdata[v]]
    ctrl[CLAUSES] = kept
    ctrl[LITS] = top
    wl[:] = 0
    ctrl[WEND] = 0
    for ci in range(kept):
        s = cl_start[ci]
        push(lits[s], s, lits[s + 1], st, ctrl)
        push(lits[s + 1], s, lits[s], st, ctrl)
