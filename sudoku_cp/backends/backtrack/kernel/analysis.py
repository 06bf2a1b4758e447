"""The learning search's analysis of a dead end (:mod:`.learn`): which choices caused
it, traced back through the reasons of the values on the trail to the first point that alone
implies it (first UIP), and the nogood that says so, shortened (recursive minimisation, and a
digit's rivals dropped) before it is kept. This module imports numba: import it only to solve.
"""

from __future__ import annotations

import numpy as np

from ....jit import njit
from .nogoods import (
    BY_CLAUSE,
    BY_CONSTRAINT,
    BY_PEER,
    CONFLICT_A,
    CONFLICT_B,
    CONFLICT_KIND,
    DECIDED,
    EMPTY_CONSTRAINT,
    FALSE_CLAUSE,
    LAST_N,
    LEARNT_FLAG,
    LEVEL,
    PEER_CLASH,
    S_CL_FLAGS,
    S_CL_LBD,
    S_LAST,
    S_LEVEL,
    S_LITS,
    S_MEM_LIST,
    S_MEM_START,
    S_MORE,
    S_PHASE,
    S_RDATA,
    S_RKIND,
    S_SEEN,
    S_STACK,
    S_STAMP,
    S_TOCLEAR,
    TRAIL,
    bump,
    load,
    refresh,
    store,
)


@njit(cache=True, inline="always", _nrt=False)
def _reason(v, rkind, rdata, mem_start, mem_list, cl_start, cl_len, lits, out):
    """The other literals of the reason of ``v``'s value (all false), into ``out``; how many."""
    kind = load(rkind, v)
    if kind == BY_PEER:
        store(out, 0, 2 * load(rdata, v) + 1)
        return 1
    if kind == BY_CONSTRAINT:
        k = load(rdata, v)
        m = 0
        for i in range(load(mem_start, k), load(mem_start, k + 1)):
            w = load(mem_list, i)
            if w != v:
                store(out, m, 2 * w)
                m += 1
        return m
    if kind == BY_CLAUSE:
        ci = load(rdata, v)
        m = 0
        s = load(cl_start, ci)
        for i in range(load(cl_len, ci)):
            if load(lits, s + i) >> 1 != v:
                store(out, m, load(lits, s + i))
                m += 1
        return m
    return 0


@njit(cache=True, inline="always", _nrt=False)
def _conflict_lits(tab, st, ctrl, out):
    """The literals of the dead end's clause (all false), into ``out``; how many."""
    lits, cl_start, cl_len = st[S_LITS:S_CL_LBD]
    mem_start, mem_list = st[S_MEM_START], st[S_MEM_LIST]
    kind = ctrl[CONFLICT_KIND]
    if kind == PEER_CLASH:
        store(out, 0, 2 * ctrl[CONFLICT_A] + 1)
        store(out, 1, 2 * ctrl[CONFLICT_B] + 1)
        return 2
    if kind == EMPTY_CONSTRAINT:
        k = ctrl[CONFLICT_A]
        lo = load(mem_start, k)
        for i in range(lo, load(mem_start, k + 1)):
            store(out, i - lo, 2 * load(mem_list, i))
        return load(mem_start, k + 1) - lo
    ci = ctrl[CONFLICT_A]
    s = load(cl_start, ci)
    for i in range(load(cl_len, ci)):
        store(out, i, load(lits, s + i))
    return load(cl_len, ci)


@njit(cache=True, inline="always", _nrt=False)
def _implied(p, levels, tab, st, stack, toclear, cleared):
    """Whether literal ``p`` of the nogood follows from the others: every path back through
    the reasons ends in a literal of the nogood or of level 0. What it proves implied on the
    way is marked seen and appended to ``toclear`` from ``cleared`` on, and the new length of
    ``toclear`` returned; -1 when it does not follow (those marks are then undone). ``levels``
    has a bit for each level of the nogood (modulo 64): a reason at another level cannot
    end within it."""
    level, rkind, rdata, seen, more = st[S_LEVEL], st[S_RKIND], st[S_RDATA], st[S_SEEN], st[S_MORE]
    lits, cl_start, cl_len = st[S_LITS:S_CL_LBD]
    mem_start, mem_list = st[S_MEM_START], st[S_MEM_LIST]
    top = cleared
    depth = 1
    store(stack, 0, p)
    while depth > 0:
        depth -= 1
        v = load(stack, depth) >> 1
        m = _reason(v, rkind, rdata, mem_start, mem_list, cl_start, cl_len, lits, more)
        for i in range(m):
            w = load(more, i) >> 1
            if load(seen, w) or load(level, w) == 0:
                continue
            if load(rkind, w) != DECIDED and (np.int64(1) << (load(level, w) & 63)) & levels:
                store(seen, w, 1)
                store(stack, depth, load(more, i))
                depth += 1
                store(toclear, cleared, load(more, i))
                cleared += 1
            else:
                for j in range(top, cleared):
                    store(seen, load(toclear, j) >> 1, 0)
                return -1
    return cleared


@njit(cache=True, inline="always", _nrt=False)
def _drop_rivals(size, buf, tab):
    """A nogood that asserts "cell c does not hold d" needs no literal "x holds y" where x = y
    and c = d share a constraint (the same cell, or the same digit in one full group): the
    rules already imply it is false once the first literal is. (Resolution with a rule's
    two-literal clause; Glucose's binary minimisation in Sudoku's terms.)"""
    p = load(buf, 0)
    if p & 1 == 0:
        return size
    vcon_start, vcon_list = tab[0], tab[1]
    v = p >> 1
    kept = 1
    for i in range(1, size):
        q = load(buf, i)
        rival = False
        if q & 1 == 0:
            w = q >> 1
            for a in range(load(vcon_start, v), load(vcon_start, v + 1)):
                for b in range(load(vcon_start, w), load(vcon_start, w + 1)):
                    if load(vcon_list, a) == load(vcon_list, b):
                        rival = True
        if not rival:
            store(buf, kept, q)
            kept += 1
    return kept


@njit(cache=True, inline="always", _nrt=False)
def analyze(tab, st, ctrl, fctrl):
    """First-UIP learning: the nogood into ``buf`` (its asserting literal first, then one of
    the highest level); returns its length and the level to jump back to."""
    val, level, rkind, rdata, trail, lim, count = st[:S_PHASE]
    phase, act, heap, hpos, seen, buf, more = st[S_PHASE:S_LITS]
    lits, cl_start, cl_len = st[S_LITS:S_CL_LBD]
    mem_start, mem_list = st[S_MEM_START], st[S_MEM_LIST]
    cl_lbd, cl_flags, stamp = st[S_CL_LBD], st[S_CL_FLAGS], st[S_STAMP]
    current = ctrl[LEVEL]
    m = _conflict_lits(tab, st, ctrl, more)
    if ctrl[CONFLICT_KIND] == FALSE_CLAUSE:
        refresh(ctrl[CONFLICT_A], level, stamp, lits, cl_start, cl_len, cl_lbd, cl_flags, ctrl)
    size = 1
    open_paths = 0
    index = ctrl[TRAIL] - 1
    p = -1
    last = st[S_LAST]  # the level's variables implied by learnt nogoods (see run)
    ctrl[LAST_N] = 0
    while True:
        for i in range(m):
            q = load(more, i)
            v = q >> 1
            if load(seen, v) == 0 and load(level, v) > 0:
                store(seen, v, 1)
                bump(v, act, heap, hpos, fctrl)
                if load(level, v) >= current:
                    open_paths += 1
                    if load(rkind, v) == BY_CLAUSE and load(cl_flags, load(rdata, v)) & LEARNT_FLAG:
                        store(last, ctrl[LAST_N], v)
                        ctrl[LAST_N] += 1
                else:
                    store(buf, size, q)
                    size += 1
        while load(seen, load(trail, index) >> 1) == 0:
            index -= 1
        p = load(trail, index)
        index -= 1
        v = p >> 1
        store(seen, v, 0)
        open_paths -= 1
        if open_paths == 0:
            break
        m = _reason(v, rkind, rdata, mem_start, mem_list, cl_start, cl_len, lits, more)
        if load(rkind, v) == BY_CLAUSE:
            refresh(load(rdata, v), level, stamp, lits, cl_start, cl_len, cl_lbd, cl_flags, ctrl)
    store(buf, 0, p ^ 1)
    # drop literals implied by the rest of the nogood (recursive minimisation, as MiniSat)
    stack, toclear = st[S_STACK], st[S_TOCLEAR]
    cleared = 0
    levels = np.int64(0)
    for i in range(1, size):
        levels |= np.int64(1) << (load(level, load(buf, i) >> 1) & 63)
        store(toclear, cleared, load(buf, i))
        cleared += 1
    kept = 1
    for i in range(1, size):
        q = load(buf, i)
        implied = -1
        if load(rkind, q >> 1) != DECIDED:
            implied = _implied(q, levels, tab, st, stack, toclear, cleared)
        if implied < 0:
            store(buf, kept, q)
            kept += 1
        else:
            cleared = implied  # what it proved implied stays marked until the end
    for i in range(cleared):
        store(seen, load(toclear, i) >> 1, 0)
    kept = _drop_rivals(kept, buf, tab)
    # the jump: to the highest level among the rest, whose literal goes second (watched)
    back = 0
    if kept > 1:
        best = 1
        for i in range(2, kept):
            if load(level, load(buf, i) >> 1) > load(level, load(buf, best) >> 1):
                best = i
        q = load(buf, best)
        store(buf, best, load(buf, 1))
        store(buf, 1, q)
        back = load(level, q >> 1)
    return kept, back
