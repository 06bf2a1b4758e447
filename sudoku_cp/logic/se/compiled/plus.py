"""Level 1 of SE's dynamic forcing chains (+) compiled (numba): when a chaining's links run out,
:func:`..forcing._advanced` reads pointing/claiming, hidden pairs, naked pairs and X-Wings on
the chaining's grid and turns the removals of the steps that need some of the chaining's offs
into offs of the run. Every step of each rule is read here, where the compiled rules
(:mod:`.rules`) give the first step only; each gives a record (:func:`emit`) that a compiled
run adopts (:func:`adopt`, into :mod:`.runs`' slots) and the plain nested chains read
(:mod:`.nested`)."""

from __future__ import annotations

import numpy as np

from ....jit import njit
from .rules import (
    CELLS,
    COMBOS2,
    COUNT,
    INSIDE,
    LOCKING_PAIRS,
    SET_KINDS,
    empty_in,
    positions_into,
)
from .runs import add_potential


@njit(cache=True)
def room(buf, need):
    """``buf``, or a copy twice as long (or more) when it holds fewer than ``need`` entries."""
    if need <= buf.shape[0]:
        return buf
    size = 2 * buf.shape[0]
    while size < need:
        size *= 2
    grown = np.empty(size, dtype=buf.dtype)
    grown[: buf.shape[0]] = buf
    return grown


@njit(cache=True)
def emit(cands0, work, basis, n_basis, removals, n_removals, hint, buf, pos):
    """One step a rule found on the chaining's grid (``forcing._advanced``): when some of its
    basis (``basis[i] = (cell, mask)``) is gone since the chaining began, a record of the offs
    it gives the run is written at ``buf[pos]``: the parents (those gone candidates, each
    once, in the basis' order), then its removals as offs in Java's ``HashMap`` order
    (``forcing._hash_order``: by bucket, the step's order within one), then ``hint`` (the nested
    chain the offs carry, -1 none) — ``[n, parents…, m, offs…, hint]``; nothing when nothing
    is gone or nothing is removed. Returns (the position after it, the buffer)."""
    buf = room(buf, pos + 3 + 9 * n_basis + 9 * n_removals)
    n = 0
    for i in range(n_basis):
        cell = basis[i, 0]
        gone = basis[i, 1] & cands0[cell] & ~work[cell]
        for v in range(1, 10):
            if gone >> v & 1:
                key = (cell * 10 + v) * 2
                known = False
                for j in range(n):
                    if buf[pos + 1 + j] == key:
                        known = True
                        break
                if not known:
                    buf[pos + 1 + n] = key
                    n += 1
    if n == 0:
        return pos, buf
    size = 16
    while n_removals > size * 3 // 4:
        size *= 2
    at = pos + 2 + n
    m = 0
    for bucket in range(size):
        for i in range(n_removals):
            cell = removals[i, 0]
            if cell & (size - 1) != bucket:
                continue
            for v in range(1, 10):
                if removals[i, 1] >> v & 1:
                    buf[at + m] = (cell * 10 + v) * 2
                    m += 1
    if m == 0:
        return pos, buf
    buf[pos] = n
    buf[pos + 1 + n] = m
    buf[at + m] = hint
    return at + m + 1, buf


@njit(cache=True)
def adopt(slot, buf, end, pos_on, pos_off, list_on, list_off, par, pool, counts):
    """The offs of the records ``buf[:end]`` (:func:`emit`) the run has not reached yet, each
    with its record's parents, in order (``forcing._chaining``: the first version stays)."""
    pos = 0
    while pos < end:
        n = buf[pos]
        parents = buf[pos + 1 : pos + 1 + n]
        m = buf[pos + 1 + n]
        at = pos + 2 + n
        for i in range(m):
            key = buf[at + i]
            if pos_off[slot, key] < 0:
                add_potential(
                    slot,
                    key,
                    False,
                    pos_on,
                    pos_off,
                    list_on,
                    list_off,
                    par,
                    pool,
                    counts,
                    parents,
                    n,
                )
        pos = at + m + 1


@njit(cache=True)
def advanced(values, cands0, work, buf):
    """``forcing._advanced`` at level 1: pointing/claiming, hidden pairs, naked pairs and
    X-Wings on the chaining's grid (``values``, ``work``), every step of the first of these
    rules that gives something, as :func:`emit`'s records from ``buf[0]`` on. Returns (where
    they end, 0 none, the buffer)."""
    end = 0
    table = np.zeros((3, 9, 10), dtype=np.int64)
    positions_into(work, table)
    basis = np.empty((81, 2), dtype=np.int64)
    removals = np.empty((81, 2), dtype=np.int64)
    # pointing and claiming (rules._locking, not direct)
    for pair in range(4):
        kind1, kind2 = LOCKING_PAIRS[pair, 0], LOCKING_PAIRS[pair, 1]
        for value in range(1, 10):
            bit = 1 << value
            for i1 in range(9):
                pos = table[kind1, i1, value]
                if COUNT[pos] < 2:
                    continue
                for i2 in range(9):
                    inside12 = INSIDE[kind1, i1, kind2, i2]
                    if inside12 == 0 or pos & ~inside12:
                        continue
                    nr = 0
                    for i in range(9):
                        c = CELLS[kind2, i2, i]
                        if not (INSIDE[kind2, i2, kind1, i1] >> i & 1) and work[c] & bit:
                            removals[nr, 0] = c
                            removals[nr, 1] = bit
                            nr += 1
                    if not nr:
                        continue
                    nb = 0
                    for i in range(9):
                        if not inside12 >> i & 1:
                            basis[nb, 0] = CELLS[kind1, i1, i]
                            basis[nb, 1] = bit
                            nb += 1
                    end, buf = emit(cands0, work, basis, nb, removals, nr, -1, buf, end)
    if end:
        return end, buf
    # hidden pairs (rules.hidden_set(2, False))
    for k in range(3):
        kind = SET_KINDS[k]
        for index in range(9):
            if not empty_in(values, kind, index) > 4:
                continue
            usable = 0
            for i in range(9):
                if COUNT[table[kind, index, i + 1]] >= 2:
                    usable |= 1 << i
            for n in range(COMBOS2.shape[0]):
                combo_mask = (1 << COMBOS2[n, 0]) | (1 << COMBOS2[n, 1])
                if combo_mask & ~usable:
                    continue
                common = (
                    table[kind, index, COMBOS2[n, 0] + 1] | table[kind, index, COMBOS2[n, 1] + 1]
                )
                if COUNT[common] != 2:
                    continue
                value_mask = combo_mask << 1
                nr = 0
                for i in range(9):
                    if common >> i & 1:
                        cell = CELLS[kind, index, i]
                        if work[cell] & ~value_mask:
                            removals[nr, 0] = cell
                            removals[nr, 1] = work[cell] & ~value_mask
                            nr += 1
                if not nr:
                    continue
                nb = 0
                for i in range(9):
                    if not common >> i & 1:
                        basis[nb, 0] = CELLS[kind, index, i]
                        basis[nb, 1] = value_mask
                        nb += 1
                end, buf = emit(cands0, work, basis, nb, removals, nr, -1, buf, end)
    if end:
        return end, buf
    # naked pairs (rules.naked_set(2))
    for k in range(3):
        kind = SET_KINDS[k]
        for index in range(9):
            if empty_in(values, kind, index) < 4:
                continue
            usable = 0
            for i in range(9):
                if COUNT[work[CELLS[kind, index, i]]] >= 2:
                    usable |= 1 << i
            for n in range(COMBOS2.shape[0]):
                combo_mask = (1 << COMBOS2[n, 0]) | (1 << COMBOS2[n, 1])
                if combo_mask & ~usable:
                    continue
                common = (
                    work[CELLS[kind, index, COMBOS2[n, 0]]]
                    | work[CELLS[kind, index, COMBOS2[n, 1]]]
                )
                if COUNT[common] != 2:
                    continue
                nr = 0
                for i in range(9):
                    cell = CELLS[kind, index, i]
                    if not combo_mask >> i & 1 and work[cell] & common:
                        removals[nr, 0] = cell
                        removals[nr, 1] = work[cell] & common
                        nr += 1
                if not nr:
                    continue
                for j in range(2):
                    basis[j, 0] = CELLS[kind, index, COMBOS2[n, j]]
                    basis[j, 1] = 0b1111111110 & ~common
                end, buf = emit(cands0, work, basis, 2, removals, nr, -1, buf, end)
    if end:
        return end, buf
    # X-Wings (rules.fish(2))
    placed = np.zeros(10, dtype=np.int64)
    for cell in range(81):
        placed[values[cell]] += 1
    for side in range(2):
        base_kind = 2 if side == 0 else 1  # columns, then rows
        cover_kind = 1 if side == 0 else 2
        for n in range(COMBOS2.shape[0]):
            b0, b1 = COMBOS2[n, 0], COMBOS2[n, 1]
            base_mask = (1 << b0) | (1 << b1)
            for value in range(1, 10):
                if placed[value] + 4 > 9:
                    continue
                p0 = table[base_kind, b0, value]
                p1 = table[base_kind, b1, value]
                if COUNT[p0] <= 1 or COUNT[p1] <= 1 or COUNT[p0 | p1] != 2:
                    continue
                common = p0 | p1
                bit = 1 << value
                nr = 0
                for j in range(9):
                    if common >> j & 1:
                        for i in range(9):
                            cell = CELLS[cover_kind, j, i]
                            if not base_mask >> i & 1 and work[cell] & bit:
                                removals[nr, 0] = cell
                                removals[nr, 1] = bit
                                nr += 1
                if not nr:
                    continue
                nb = 0
                for b in (b0, b1):
                    for j in range(9):
                        if not common >> j & 1:
                            basis[nb, 0] = CELLS[base_kind, b, j]
                            basis[nb, 1] = bit
                            nb += 1
                end, buf = emit(cands0, work, basis, nb, removals, nr, -1, buf, end)
    return end, buf
