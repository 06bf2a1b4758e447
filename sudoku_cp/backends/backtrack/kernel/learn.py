"""The compiled search of the ``backtrack`` backend for big grids (above 16x16): a search that
learns from its dead ends, with numba.

A depth-first search without memory meets the same dead end again and again in another part of
its tree; on the hard public 25x25 puzzles it finds no solution in minutes. This search keeps
what each dead end teaches, in the manner of conflict-driven clause learning (Marques-Silva and
Sakallah, 1999; Moskewicz et al., 2001):

- **the puzzle as yes/no questions**: each variable says "cell ``c`` holds digit ``d``", for
  the pairs the givens leave open only, numbered afresh (:class:`Problem`: on the hard public
  25x25 puzzles one variable in seven, so the search's arrays stay small and its memory
  close). Its rules are *exactly one* constraints, read straight from the model's groups
  rather than from clauses: each cell holds one digit, each full group holds each digit once,
  and no two peers share a digit. A "yes" makes every rival "no" (naked singles' work); a
  constraint left with one possible "yes" makes it (naked and hidden singles). A per-constraint
  counter of possible "yes"es finds the last one.
- **branching** on the variable most involved in recent dead ends (VSIDS), with the answer it
  last had (phase saving); a variable of the last level implied by a nogood tighter than the
  new one counts twice (Glucose's);
- **learning**: at a dead end the search traces which choices caused it, back to the first
  point that alone implies it (first UIP), shortens that (recursive minimisation, and a digit's
  rivals dropped from a nogood that rules the digit out), and keeps it as a *nogood*: a clause
  that no solution breaks, and that jumps back over the choices that played no part
  (:mod:`.analysis`). Nogoods are watched by two of their literals; the least useful
  ones, spanning most levels (literal block distance, Audemard and Simon, 2009), are dropped
  from time to time (:mod:`.nogoods` keeps them);
- **restarts** when the recent nogoods span more levels than the average (Glucose's rule), or
  after a Luby sequence of dead ends (Luby et al., 1993), keeping the nogoods;
- **more than one solution**: each solution found is kept and then excluded by a nogood of
  the choices that led to it, so the search goes on to the next until none is left. When a
  dead end needs no choice at all, every solution has been found.

Every step keeps the search complete and sound: a nogood is implied by the rules and the
solutions excluded so far, so no solution is lost and none is counted twice.

Nothing here allocates per node and a call can stop and resume: the state lives in arrays the
caller owns (:func:`search` is the glue). This module imports numba: import it only to solve.
"""

from __future__ import annotations

import functools
import time

import numpy as np

from ....jit import njit
from ....model import Model
from ....puzzle import Grid, Puzzle
from ... import Search
from .analysis import analyze
from .nogoods import (  # the state's layout, the order of choices, the nogood store
    BUDGET,
    BUFFER_FULL,
    BY_CLAUSE,
    BY_CONSTRAINT,
    BY_PEER,
    CLAUSES,
    CONFLICT_A,
    CONFLICT_B,
    CONFLICT_KIND,
    CONFLICTS,
    CTRL_SIZE,
    DECIDED,
    DECISIONS,
    DONE,
    EMPTY_CONSTRAINT,
    FALSE_CLAUSE,
    FCTRL_SIZE,
    FOUND,
    GROW,
    HEADER,
    HEAP_SIZE,
    IN_BUFFER,
    KEEP_LBD,
    LAST_N,
    LBD_ALL,
    LBD_RECENT,
    LBD_SEEN,
    LEARNT_FLAG,
    LEVEL,
    LIMIT,
    LIMIT_AT,
    LITS,
    PAUSED,
    PEER_CLASH,
    PROPAGATIONS,
    QHEAD,
    REDUCE_AT,
    REDUCE_FIRST,
    REDUCE_STEP_NOW,
    REDUCTIONS,
    RESTART_LEFT,
    RESTART_MODE,
    RESTART_NO,
    RESTARTS,
    S_ACT,
    S_BUF,
    S_CL_FLAGS,
    S_CL_LBD,
    S_CL_LEN,
    S_CL_START,
    S_COUNT,
    S_HEAP,
    S_HISTOGRAM,
    S_HPOS,
    S_LAST,
    S_LBD_RING,
    S_LEVEL,
    S_LIM,
    S_LITS,
    S_MEM_LIST,
    S_MEM_START,
    S_MORE,
    S_MOVED_TO,
    S_PHASE,
    S_RDATA,
    S_RKIND,
    S_SEEN,
    S_SPARE,
    S_STACK,
    S_STAMP,
    S_TOCLEAR,
    S_TRAIL,
    S_TRAIL_RING,
    S_VAL,
    S_WATCHES,
    S_WL,
    SETTLED,
    STARTED,
    STATE_SIZE,
    TRAIL,
    TRAIL_RECENT,
    TRAIL_SEEN,
    UNIT,
    UNIT_FACT,
    VAR_INC,
    add_clause,
    bump,
    heap_insert,
    heap_pop,
    lbd,
    load,
    pool_needs,
    push,
    reduce_nogoods,
    store,
)

LBD_WINDOW, TRAIL_WINDOW = 50, 5000
"""Dead ends over which the recent distances and trail lengths are averaged (Glucose's)."""

RESTART_MARGIN, BLOCK_MARGIN, BLOCK_FROM = 0.7, 1.4, 10_000
"""Glucose's restarts: when the recent nogoods' mean distance times RESTART_MARGIN exceeds the
mean of all; none for a while when the trail is BLOCK_MARGIN times longer than of late (after
BLOCK_FROM dead ends), as the search may then be near a solution. Glucose's margin is 0.8; 0.7
restarts sooner and took 1,596,000 dead ends on 16 public 25x25 puzzles against 1,772,000
(0.6: more again on gecode#26)."""

RESTART_UNIT = 100
"""Dead ends of the shortest run between restarts (MiniSat's)."""
DECAY = 0.97
"""How fast activities decay: each dead end the gain grows by 1/DECAY. Glucose's schedule (0.8
rising to 0.95) took 19.5 s on five public 25x25 puzzles where a steady 0.95 took 14.6 s and
0.97 12.8 s."""
FIRST_REDUCE, REDUCE_STEP = 2000, 300
"""Dead ends before the first sweep of the nogoods, and how much later each next one comes
(Glucose's schedule)."""
KEEP_DISTANCE = 2
"""Nogoods of this literal block distance or less are never dropped."""
WORK_PER_CALL = 500_000
"""Literals propagated before a call returns so the clock can be read."""
SOLUTION_ROWS = 64
"""Solutions handed back per call at most."""
CLAUSE_ROOM = 1024
"""Nogoods the store has room for at first; it doubles when full."""
RESTART_MODE_DEFAULT = 1
"""How restarts are timed: 1 Glucose's (by the nogoods' distances), 0 the Luby sequence (on
five public 25x25 puzzles: 14.4 s against 20.5 s)."""
POLARITY = 0
"""The first answer tried for a variable: 0 "no" (the digit is not in the cell), as MiniSat
(1 decided as many of the public 25x25 puzzles, in about the same time)."""


# --- small pieces --------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def _count(v, step, vcon_start, vcon_list, count):
    """Add ``step`` to the possible "yes"es of every constraint of variable ``v``."""
    for i in range(load(vcon_start, v), load(vcon_start, v + 1)):
        k = load(vcon_list, i)
        store(count, k, load(count, k) + step)


@njit(cache=True, inline="always", _nrt=False)
def _assign(v, value, kind, data, vcon_start, vcon_list, val, level, rkind, rdata, trail,
            count, ctrl):  # fmt: skip
    store(val, v, value)
    store(level, v, ctrl[LEVEL])
    store(rkind, v, kind)
    store(rdata, v, data)
    store(trail, ctrl[TRAIL], 2 * v + 1 - value)
    ctrl[TRAIL] += 1
    if value == 1 and kind >= BY_CONSTRAINT:
        ctrl[SETTLED] += 1
    if value == 0:  # one "yes" fewer for each constraint of v
        _count(v, -1, vcon_start, vcon_list, count)


@njit(cache=True, inline="always", _nrt=False)
def _backtrack(to, vcon_start, vcon_list, val, trail, lim, count, phase, heap, hpos, act,
               ctrl):  # fmt: skip
    if ctrl[LEVEL] <= to:
        return
    stop = load(lim, to)
    for t in range(ctrl[TRAIL] - 1, stop - 1, -1):
        v = load(trail, t) >> 1
        if load(val, v) == 0:
            _count(v, 1, vcon_start, vcon_list, count)
        store(phase, v, load(val, v))
        store(val, v, -1)
        heap_insert(v, heap, hpos, act, ctrl)
    ctrl[TRAIL] = stop
    ctrl[QHEAD] = stop
    ctrl[LEVEL] = to


@njit(cache=True, _nrt=False)
def _propagate(tab, st, ctrl):
    """Unit propagation to a fixed point. Returns True at a dead end (described in ``ctrl``)."""
    vcon_start, vcon_list, rival_start, rival_list = tab[:4]
    val, level, rkind, rdata, trail, lim, count = st[:S_PHASE]
    phase, act, heap, hpos, seen, buf, more = st[S_PHASE:S_LITS]
    lits, cl_start, cl_len = st[S_LITS:S_CL_LBD]
    wl, mem_start, mem_list, watches = st[S_WL], st[S_MEM_START], st[S_MEM_LIST], st[S_WATCHES]
    while ctrl[QHEAD] < ctrl[TRAIL]:
        p = load(trail, ctrl[QHEAD])
        ctrl[QHEAD] += 1
        ctrl[PROPAGATIONS] += 1
        v = p >> 1
        if p & 1 == 0:  # v is "yes": every rival of it is "no"
            first = load(vcon_start, v)
            last = load(vcon_start, v + 1)
            for kk in range(first, last + 1):
                if kk < last:  # the other members of a constraint of v
                    k = load(vcon_list, kk)
                    lo, hi = load(mem_start, k), load(mem_start, k + 1)
                else:  # its peers in no full group with it
                    lo, hi = load(rival_start, v), load(rival_start, v + 1)
                for i in range(lo, hi):
                    w = load(mem_list, i) if kk < last else load(rival_list, i)
                    if w == v:
                        continue
                    if load(val, w) == 1:
                        ctrl[CONFLICT_KIND] = PEER_CLASH
                        ctrl[CONFLICT_A] = v
                        ctrl[CONFLICT_B] = w
                        return True
                    if load(val, w) < 0:
                        _assign(w, 0, BY_PEER, v, vcon_start, vcon_list, val, level, rkind,
                                rdata, trail, count, ctrl)  # fmt: skip
        else:  # v is "no": a constraint of v may have one "yes" left, or none
            for kk in range(load(vcon_start, v), load(vcon_start, v + 1)):
                k = load(vcon_list, kk)
                left = load(count, k)
                if left > 1:
                    continue
                if left == 0:
                    ctrl[CONFLICT_KIND] = EMPTY_CONSTRAINT
                    ctrl[CONFLICT_A] = k
                    return True
                for i in range(load(mem_start, k), load(mem_start, k + 1)):
                    w = load(mem_list, i)
                    if load(val, w) != 0:
                        if load(val, w) < 0:
                            _assign(w, 1, BY_CONSTRAINT, k, vcon_start, vcon_list, val, level,
                                    rkind, rdata, trail, count, ctrl)  # fmt: skip
                        break
        # the nogoods watching the literal that just became false
        false_lit = p ^ 1
        base = load(wl, 4 * false_lit)
        watching = load(wl, 4 * false_lit + 1)
        i = 0
        j = 0
        while i < watching:
            s = load(watches, 2 * (base + i))
            b = load(watches, 2 * (base + i) + 1)
            i += 1
            if load(val, b >> 1) == 1 - (b & 1):  # its blocker is true: nothing to do
                store(watches, 2 * (base + j), s)
                store(watches, 2 * (base + j) + 1, b)
                j += 1
                continue
            if load(lits, s) == false_lit:  # the false watch goes second
                store(lits, s, load(lits, s + 1))
                store(lits, s + 1, false_lit)
            other = load(lits, s)
            ov = load(val, other >> 1)
            if ov >= 0 and ov == 1 - (other & 1):  # satisfied by the other watch
                store(watches, 2 * (base + j), s)
                store(watches, 2 * (base + j) + 1, other)
                j += 1
                continue
            moved = False
            length = load(lits, s - 2)
            # the search for a new watch goes on from where the last one ended
            k = load(lits, s - 1)
            for _ in range(length - 2):
                q = load(lits, s + k)
                qv = load(val, q >> 1)
                # True: it blocks and the watches stay (CaDiCaL's). Sound, as false_lit is of
                # the current level: no jump back frees q and leaves false_lit false.
                if qv >= 0 and qv == 1 - (q & 1):
                    store(lits, s - 1, k)
                    store(watches, 2 * (base + j), s)
                    store(watches, 2 * (base + j) + 1, q)
                    j += 1
                    moved = True
                    break
                if qv < 0:  # unassigned: watch it instead
                    store(lits, s + 1, q)
                    store(lits, s + k, false_lit)
                    store(lits, s - 1, k)
                    push(q, s, other, st, ctrl)
                    base = load(wl, 4 * false_lit)  # the pool may have been packed
                    moved = True
                    break
                k = k + 1 if k + 1 < length else 2
            if moved:
                continue
            store(watches, 2 * (base + j), s)
            store(watches, 2 * (base + j) + 1, other)
            j += 1
            ci = load(lits, s - 3)
            if ov >= 0:  # the other watch is false too: a dead end
                while i < watching:
                    store(watches, 2 * (base + j), load(watches, 2 * (base + i)))
                    store(watches, 2 * (base + j) + 1, load(watches, 2 * (base + i) + 1))
                    i += 1
                    j += 1
                store(wl, 4 * false_lit + 1, j)
                ctrl[CONFLICT_KIND] = FALSE_CLAUSE
                ctrl[CONFLICT_A] = ci
                return True
            _assign(other >> 1, 1 - (other & 1), BY_CLAUSE, ci, vcon_start, vcon_list,
                    val, level, rkind, rdata, trail, count, ctrl)  # fmt: skip
        store(wl, 4 * false_lit + 1, j)
    return False


@njit(cache=True, inline="always", _nrt=False)
def _note_distance(distance, trail, st, ctrl, fctrl):
    """Keep the recent distances and trail lengths (above level 0, at the dead end) that time
    Glucose's restarts."""
    lbd_ring, trail_ring = st[S_LBD_RING], st[S_TRAIL_RING]
    if ctrl[TRAIL_SEEN] >= TRAIL_WINDOW:
        slot = ctrl[TRAIL_SEEN] % TRAIL_WINDOW
        fctrl[TRAIL_RECENT] -= trail_ring[slot]
        if (
            ctrl[CONFLICTS] > BLOCK_FROM
            and ctrl[LBD_SEEN] >= LBD_WINDOW
            and trail > BLOCK_MARGIN * fctrl[TRAIL_RECENT] / (TRAIL_WINDOW - 1)
        ):
            ctrl[LBD_SEEN] = 0
            fctrl[LBD_RECENT] = 0.0
    trail_ring[ctrl[TRAIL_SEEN] % TRAIL_WINDOW] = trail
    fctrl[TRAIL_RECENT] += trail
    ctrl[TRAIL_SEEN] += 1
    fctrl[LBD_ALL] += distance
    slot = ctrl[LBD_SEEN] % LBD_WINDOW
    if ctrl[LBD_SEEN] >= LBD_WINDOW:
        fctrl[LBD_RECENT] -= lbd_ring[slot]
    lbd_ring[slot] = distance
    fctrl[LBD_RECENT] += distance
    ctrl[LBD_SEEN] += 1


@njit(cache=True, _nrt=False)
def _luby(i):
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


@njit(cache=True, _nrt=False)
def run(tab, st, sols, ctrl, fctrl):
    """Search on from where the last call stopped, until the solutions wanted are found, the
    tree is exhausted, the buffer is full, the store needs more room or the call's work is done
    (see the states at the top of the module)."""
    vcon_start, vcon_list, _, _, var_cell, var_digit = tab
    val, level, rkind, rdata, trail, lim, count = st[:S_PHASE]
    phase, act, heap, hpos, seen, buf, more = st[S_PHASE:S_LITS]
    lits, cl_start, cl_len, cl_lbd, cl_flags = st[S_LITS:S_WL]
    stamp, watches = st[S_STAMP], st[S_WATCHES]
    mem_start, mem_list = st[S_MEM_START], st[S_MEM_LIST]
    nv = val.shape[0]
    if ctrl[STARTED] == 0:
        ctrl[STARTED] = 1
        ctrl[RESTART_LEFT] = ctrl[UNIT]
        ctrl[REDUCE_AT] = ctrl[REDUCE_FIRST]
        for k in range(count.shape[0]):  # a constraint with one member left by the givens
            if count[k] == 1:
                w = mem_list[mem_start[k]]
                if val[w] < 0:
                    _assign(w, 1, UNIT_FACT, -1, vcon_start, vcon_list, val, level, rkind,
                            rdata, trail, count, ctrl)  # fmt: skip
        if _propagate(tab, st, ctrl):
            return DONE
        # keep in each constraint only what level 0 left possible
        top = 0
        for k in range(mem_start.shape[0] - 1):
            lo = mem_start[k]
            mem_start[k] = top
            for i in range(lo, mem_start[k + 1]):
                if val[mem_list[i]] != 0:
                    mem_list[top] = mem_list[i]
                    top += 1
        mem_start[mem_start.shape[0] - 1] = top
    budget_end = ctrl[PROPAGATIONS] + ctrl[BUDGET]
    while True:
        if ctrl[PROPAGATIONS] >= budget_end:
            return PAUSED
        if (
            ctrl[LITS] + nv + 2 + HEADER > lits.shape[0]
            or ctrl[CLAUSES] + 2 > cl_start.shape[0]
            or watches.shape[0] < 2 * pool_needs(nv, ctrl[CLAUSES])
        ):
            return GROW
        if _propagate(tab, st, ctrl):
            ctrl[CONFLICTS] += 1
            if ctrl[LEVEL] == 0:
                return DONE
            reached = ctrl[TRAIL] - lim[0]
            size, back = analyze(tab, st, ctrl, fctrl)
            _backtrack(back, vcon_start, vcon_list, val, trail, lim, count, phase, heap,
                       hpos, act, ctrl)  # fmt: skip
            p = buf[0]
            if size == 1:
                _assign(p >> 1, 1 - (p & 1), UNIT_FACT, -1, vcon_start, vcon_list, val,
                        level, rkind, rdata, trail, count, ctrl)  # fmt: skip
            else:
                ci = add_clause(buf, size, LEARNT_FLAG, st, ctrl)
                distance = lbd(buf, 0, size, level, stamp, ctrl)
                cl_lbd[ci] = distance
                for i in range(ctrl[LAST_N]):  # implied by nogoods tighter than this one
                    v = st[S_LAST][i]
                    if cl_lbd[rdata[v]] < distance:
                        bump(v, act, heap, hpos, fctrl)
                _assign(p >> 1, 1 - (p & 1), BY_CLAUSE, ci, vcon_start, vcon_list, val,
                        level, rkind, rdata, trail, count, ctrl)  # fmt: skip
                _note_distance(distance, reached, st, ctrl, fctrl)
            fctrl[VAR_INC] /= DECAY
            ctrl[RESTART_LEFT] -= 1
            if ctrl[CONFLICTS] >= ctrl[REDUCE_AT]:
                ctrl[REDUCTIONS] += 1
                ctrl[REDUCE_AT] = (
                    ctrl[CONFLICTS] + ctrl[REDUCE_FIRST] + ctrl[REDUCE_STEP_NOW] * ctrl[REDUCTIONS]
                )
                reduce_nogoods(st, ctrl)
            continue
        if ctrl[RESTART_MODE] == 1:
            due = ctrl[LBD_SEEN] >= LBD_WINDOW and (
                fctrl[LBD_RECENT] / LBD_WINDOW * RESTART_MARGIN
                > fctrl[LBD_ALL] / max(1, ctrl[CONFLICTS])
            )
            if due:
                ctrl[LBD_SEEN] = 0
                fctrl[LBD_RECENT] = 0.0
        else:
            due = ctrl[RESTART_LEFT] <= 0
        if due and ctrl[LEVEL] > 0:
            ctrl[RESTARTS] += 1
            ctrl[RESTART_NO] += 1
            ctrl[RESTART_LEFT] = _luby(ctrl[RESTART_NO]) * ctrl[UNIT]
            _backtrack(0, vcon_start, vcon_list, val, trail, lim, count, phase, heap,
                       hpos, act, ctrl)  # fmt: skip
            continue
        v = -1
        while ctrl[HEAP_SIZE] > 0:
            w = heap_pop(heap, hpos, act, ctrl)
            if val[w] < 0:
                v = w
                break
        if v >= 0:
            lim[ctrl[LEVEL]] = ctrl[TRAIL]
            ctrl[LEVEL] += 1
            ctrl[DECISIONS] += 1
            _assign(v, phase[v], DECIDED, -1, vcon_start, vcon_list, val, level, rkind,
                    rdata, trail, count, ctrl)  # fmt: skip
            continue
        # every variable has its value: a solution
        row = ctrl[IN_BUFFER]
        for v in range(nv):
            if val[v] == 1:
                sols[row, var_cell[v]] = var_digit[v] + 1
        ctrl[FOUND] += 1
        ctrl[IN_BUFFER] += 1
        if ctrl[LIMIT_AT] and ctrl[FOUND] >= ctrl[LIMIT_AT]:
            return LIMIT
        top = ctrl[LEVEL]
        if top == 0:
            return DONE
        # exclude it: not all of the choices that led here again
        for i in range(top):
            buf[i] = trail[lim[top - 1 - i]] ^ 1
        _backtrack(top - 1, vcon_start, vcon_list, val, trail, lim, count, phase, heap,
                   hpos, act, ctrl)  # fmt: skip
        p = buf[0]
        if top == 1:
            _assign(p >> 1, 1 - (p & 1), UNIT_FACT, -1, vcon_start, vcon_list, val, level,
                    rkind, rdata, trail, count, ctrl)  # fmt: skip
        else:
            ci = add_clause(buf, top, 0, st, ctrl)
            _assign(p >> 1, 1 - (p & 1), BY_CLAUSE, ci, vcon_start, vcon_list, val, level,
                    rkind, rdata, trail, count, ctrl)  # fmt: skip
        if ctrl[IN_BUFFER] >= sols.shape[0]:
            return BUFFER_FULL


# --- the glue ------------------------------------------------------------------------------------
class Tables:
    """A model's groups at one size (built once, cached): the variables of each constraint
    (each cell's, then each full group's for each digit), one row each, and each cell's peers
    that share no full group with it."""

    def __init__(self, model: Model, size: int) -> None:
        from ..layout import layout

        lay = layout(model, size)
        cells = size * size
        shared: list[set[int]] = [set() for _ in range(cells)]
        for group in lay.full_groups:
            for c in group:
                shared[c].update(group)
        self.size = size
        self.cells = cells
        self.extra = [[q for q in lay.peers[c] if q not in shared[c]] for c in range(cells)]
        groups = np.array(lay.full_groups, dtype=np.int64).reshape(len(lay.full_groups), size)
        digit = np.arange(size, dtype=np.int64)
        self.members = np.concatenate(
            [
                np.arange(cells * size, dtype=np.int64).reshape(cells, size),
                (groups[:, None, :] * size + digit[None, :, None]).reshape(-1, size),
            ]
        )


@functools.lru_cache(maxsize=8)
def tables(model: Model, size: int) -> Tables:
    return Tables(model, size)


class Problem:
    """What is left of a puzzle once its givens are placed: the variables still open (numbered
    afresh, so that the search's arrays hold only them), the constraints no given settles with
    their open members, each variable's constraints and its rivals outside them."""

    def __init__(self, tab: Tables, ids: np.ndarray, live: np.ndarray, free: np.ndarray) -> None:
        n = tab.size
        renumber = np.full(len(free), -1, dtype=np.int64)
        renumber[ids] = np.arange(len(ids))
        open_members = free[tab.members[live]]
        counts = open_members.sum(axis=1)
        self.variables = len(ids)
        self.mem_list = renumber[tab.members[live]][open_members].astype(np.int32)
        self.mem_start = _starts(counts)
        self.count = counts.astype(np.int32)
        owner = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
        by_variable = np.argsort(self.mem_list, kind="stable")
        rivals: list[list[int]] = [[] for _ in ids]
        if any(tab.extra):
            for i, v in enumerate(ids.tolist()):
                c, d = divmod(v, n)
                rivals[i] = [int(renumber[q * n + d]) for q in tab.extra[c] if free[q * n + d]]
        self.arrays = (
            _starts(np.bincount(self.mem_list, minlength=len(ids))),
            owner[by_variable].astype(np.int32),
            _starts([len(r) for r in rivals]),
            np.array([w for r in rivals for w in r], dtype=np.int32),
            (ids // n).astype(np.int32),
            (ids % n).astype(np.int32),
        )


def problem(puzzle: Puzzle) -> Problem | None:
    """The open part of ``puzzle`` (see :class:`Problem`), or None when its givens already
    break a rule or leave a cell or a group's digit no place."""
    tab = tables(puzzle.model, puzzle.size)
    n = tab.size
    digits = np.frombuffer(puzzle.digits, dtype=np.uint8).astype(np.int64)
    given = np.flatnonzero(digits)
    placed = np.zeros(tab.cells * n, dtype=bool)
    placed[given * n + digits[given] - 1] = True
    settled = placed[tab.members].sum(axis=1)
    if (settled > 1).any():
        return None
    free = np.ones(tab.cells * n, dtype=bool)
    free[tab.members[settled == 1].ravel()] = False  # a given decides all of its constraints
    for c in given.tolist():
        for q in tab.extra[c]:
            if placed[q * n + digits[c] - 1]:
                return None
            free[q * n + digits[c] - 1] = False
    open_part = Problem(tab, np.flatnonzero(free), settled == 0, free)
    return None if (open_part.count == 0).any() else open_part


def _starts(counts: object) -> np.ndarray:
    sizes = np.asarray(counts, dtype=np.int64)
    out = np.zeros(len(sizes) + 1, dtype=np.int32)
    out[1:] = np.cumsum(sizes)
    return out


def _grown(array: np.ndarray, fill: int = 0) -> np.ndarray:
    """``array`` with twice the rows, the new ones ``fill``."""
    out = np.full((2 * len(array), *array.shape[1:]), fill, dtype=array.dtype)
    out[: len(array)] = array
    return out


def search(puzzle: Puzzle, limit: int | None, deadline: float | None) -> Search:
    """The learning search of ``puzzle``: up to ``limit`` solutions (None: all), stopping at
    ``deadline`` (``time.perf_counter()`` seconds)."""
    digits = np.frombuffer(puzzle.digits, dtype=np.uint8)
    open_part = problem(puzzle)
    if open_part is None or open_part.variables == 0:  # the givens decide it alone
        none = {"nodes": 0, "backtracks": 0, "propagations": 0, "restarts": 0}
        if open_part is None:
            return Search(exhausted=True, stats=none)
        # every cell given: that grid (exhausted when the limit asked for more, as below)
        return Search(solutions=[tuple(digits.tolist())], exhausted=limit != 1, stats=none)
    nv = open_part.variables
    n = puzzle.size
    clause_room = CLAUSE_ROOM
    pool = pool_needs(nv, clause_room)
    state: list[np.ndarray] = [np.empty(0)] * STATE_SIZE  # filled slot by slot
    state[S_VAL] = np.full(nv, -1, dtype=np.int8)
    state[S_LEVEL] = np.zeros(nv, dtype=np.int32)
    state[S_RKIND] = np.zeros(nv, dtype=np.int8)
    state[S_RDATA] = np.zeros(nv, dtype=np.int32)
    state[S_TRAIL] = np.zeros(nv, dtype=np.int32)
    state[S_LIM] = np.zeros(nv + 1, dtype=np.int32)
    state[S_COUNT] = open_part.count
    state[S_PHASE] = np.full(nv, POLARITY, dtype=np.int8)
    state[S_ACT] = np.zeros(nv, dtype=np.float64)
    state[S_HEAP] = np.arange(nv, dtype=np.int32)  # all equal, so any order is one
    state[S_HPOS] = np.arange(nv, dtype=np.int32)
    state[S_SEEN] = np.zeros(nv, dtype=np.int8)
    state[S_BUF] = np.zeros(nv, dtype=np.int32)
    state[S_MORE] = np.zeros(max(nv, 2 * n), dtype=np.int32)
    state[S_LITS] = np.zeros(4 * nv, dtype=np.int32)
    state[S_CL_START] = np.zeros(clause_room, dtype=np.int32)
    state[S_CL_LEN] = np.zeros(clause_room, dtype=np.int32)
    state[S_CL_LBD] = np.zeros(clause_room, dtype=np.int32)
    state[S_CL_FLAGS] = np.zeros(clause_room, dtype=np.int8)
    state[S_WL] = np.zeros(8 * nv, dtype=np.int32)  # each literal's watch list: start, length, room
    state[S_STAMP] = np.full(nv + 1, -1, dtype=np.int64)
    state[S_STACK] = np.zeros(nv, dtype=np.int32)
    state[S_TOCLEAR] = np.zeros(nv, dtype=np.int32)
    state[S_MEM_START] = open_part.mem_start
    state[S_MEM_LIST] = open_part.mem_list
    state[S_MOVED_TO] = np.zeros(clause_room, dtype=np.int32)
    state[S_HISTOGRAM] = np.zeros(256, dtype=np.int64)
    state[S_LBD_RING] = np.zeros(LBD_WINDOW, dtype=np.int64)
    state[S_TRAIL_RING] = np.zeros(TRAIL_WINDOW, dtype=np.int64)
    state[S_WATCHES] = np.zeros(2 * pool, dtype=np.int32)  # (nogood, blocker) pairs, by literal
    state[S_SPARE] = np.zeros(2 * pool, dtype=np.int32)  # where _repack lays them out
    state[S_LAST] = np.zeros(nv, dtype=np.int32)
    rows = SOLUTION_ROWS if limit is None else max(1, min(limit, SOLUTION_ROWS))
    sols = np.repeat(digits[None, :], rows, axis=0)  # the givens stay; the search fills the rest
    ctrl = np.zeros(CTRL_SIZE, dtype=np.int64)
    ctrl[HEAP_SIZE] = nv
    ctrl[LIMIT_AT] = limit or 0
    ctrl[BUDGET] = WORK_PER_CALL if deadline is not None else 1 << 62
    ctrl[UNIT] = RESTART_UNIT
    ctrl[RESTART_MODE] = RESTART_MODE_DEFAULT
    ctrl[KEEP_LBD] = KEEP_DISTANCE
    ctrl[REDUCE_FIRST] = FIRST_REDUCE
    ctrl[REDUCE_STEP_NOW] = REDUCE_STEP
    fctrl = np.zeros(FCTRL_SIZE, dtype=np.float64)
    fctrl[VAR_INC] = 1.0
    found: list[Grid] = []
    timed_out = False
    while True:
        outcome = run(open_part.arrays, tuple(state), sols, ctrl, fctrl)
        if ctrl[IN_BUFFER]:
            found.extend(tuple(row) for row in sols[: ctrl[IN_BUFFER]].tolist())
            ctrl[IN_BUFFER] = 0
        if outcome in (DONE, LIMIT):
            break
        if outcome == GROW:
            if ctrl[LITS] + nv + 2 + HEADER > len(state[S_LITS]):
                state[S_LITS] = _grown(state[S_LITS])
            if ctrl[CLAUSES] + 2 > len(state[S_CL_START]):
                for i in (S_CL_START, S_CL_LEN, S_CL_LBD, S_CL_FLAGS):
                    state[i] = _grown(state[i])
                state[S_MOVED_TO] = _grown(state[S_MOVED_TO])
            if len(state[S_WATCHES]) < 2 * pool_needs(nv, ctrl[CLAUSES]):
                for i in (S_WATCHES, S_SPARE):
                    state[i] = _grown(state[i])
            continue
        if deadline is not None and time.perf_counter() >= deadline:
            timed_out = True
            break
    return Search(
        solutions=found,
        exhausted=outcome == DONE,
        timed_out=timed_out,
        stats={
            "nodes": int(ctrl[DECISIONS]),
            "backtracks": int(ctrl[CONFLICTS]),
            "propagations": int(ctrl[SETTLED]),
            "restarts": int(ctrl[RESTARTS]),
        },
    )


def warm_up() -> None:
    """Load the compiled code (from numba's disk cache, or compiled once) on a tiny grid."""
    search(Puzzle([0] * 625), 1, None)
