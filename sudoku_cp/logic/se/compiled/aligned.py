"""SE's aligned pair and triplet exclusion compiled (numba): :func:`..rules.aligned_pair_exclusion`
and :func:`..rules.aligned_triplet_exclusion` (the reference, read from SE as that module
says) under the contract of :mod:`sudoku_cp.logic.se.compiled`: the same candidate cells in
the same order (``Twomutations``), the same third cells (the first cell's excluders, then the
second's), so the same first step. The plain triplet search's memo (a speed door of its own)
is not needed here."""

from __future__ import annotations

import numpy as np

from ....jit import njit
from .rules import COUNT, PEER, SEES

NAMES = ("Aligned Pair Exclusion", "Aligned Triplet Exclusion")


@njit(cache=True)
def _candidates(cands, most, chosen, excluder):
    """The candidate cells, ascending, into ``chosen`` (their count returned): two digits or
    more, no peer with one, and some peer with 2..``most`` digits (an excluder; ``excluder``
    marks those cells)."""
    for cell in range(81):
        n = COUNT[cands[cell]]
        excluder[cell] = 2 <= n <= most
    count = 0
    for cell in range(81):
        if COUNT[cands[cell]] < 2:
            continue
        has_excluder = False
        has_single = False
        for j in range(20):
            peer = PEER[cell, j]
            if excluder[peer]:
                has_excluder = True
            if COUNT[cands[peer]] == 1:
                has_single = True
        if has_excluder and not has_single:
            chosen[count] = cell
            count += 1
    return count


@njit(cache=True)
def _common(c0, c1, excluder, found):
    """The excluders both cells see, ascending, into ``found``; their count."""
    n = 0
    for e in range(81):
        if excluder[e] and SEES[c0, e] and SEES[c1, e]:
            found[n] = e
            n += 1
    return n


@njit(cache=True)
def _write(out, name, cells, allowed, cands):
    """The removals of the cells' digits no allowed choice kept, by cell ascending."""
    out[0] = name
    out[1] = -1
    out[2] = 0
    n = 0
    order = np.argsort(cells)
    for i in order:
        rest = cands[cells[i]] & ~allowed[i]
        if rest:
            out[4 + 2 * n] = cells[i]
            out[5 + 2 * n] = rest
            n += 1
    out[3] = n
    return n


@njit(cache=True)
def aligned_pair_exclusion(values, cands, out):
    """:func:`..rules.aligned_pair_exclusion`'s first step: 6.2, or 0.0."""
    chosen = np.empty(81, dtype=np.int64)
    excluder = np.zeros(81, dtype=np.bool_)
    count = _candidates(cands, 2, chosen, excluder)
    common = np.empty(81, dtype=np.int64)
    cells = np.empty(2, dtype=np.int64)
    allowed = np.empty(2, dtype=np.int64)
    for n2 in range(1, count):
        c1 = chosen[n2]
        for n1 in range(n2):
            c0 = chosen[n1]
            n_common = _common(c0, c1, excluder, common)
            if n_common < 2:
                continue
            sees = SEES[c0, c1]
            allowed0 = 0
            allowed1 = 0
            for d0 in range(1, 10):
                if not cands[c0] >> d0 & 1:
                    continue
                for d1 in range(1, 10):
                    if not cands[c1] >> d1 & 1:
                        continue
                    if d0 == d1 and sees:
                        continue
                    pair = (1 << d0) | (1 << d1)
                    emptied = False  # a common bivalue excluder left with nothing
                    for i in range(n_common):
                        if cands[common[i]] == pair:
                            emptied = True
                            break
                    if emptied:
                        continue
                    allowed0 |= 1 << d0
                    allowed1 |= 1 << d1
            if cands[c0] & ~allowed0 or cands[c1] & ~allowed1:
                cells[0], cells[1] = c0, c1
                allowed[0], allowed[1] = allowed0, allowed1
                _write(out, 0, cells, allowed, cands)
                return 6.2
    return 0.0


@njit(cache=True)
def _triplet(cands, c0, c1, c2, common, n_common, allowed):
    """``rules._aligned_triplet``: the digits each cell keeps (into ``allowed``); False when
    every digit of the three is allowed."""
    sees01 = SEES[c0, c1]
    sees02 = SEES[c0, c2]
    sees12 = SEES[c1, c2]
    mask0, mask1, mask2 = cands[c0], cands[c1], cands[c2]
    allowed0 = allowed1 = allowed2 = 0
    for d0 in range(1, 10):
        if not mask0 >> d0 & 1:
            continue
        b0 = 1 << d0
        for d1 in range(1, 10):
            if not mask1 >> d1 & 1:
                continue
            if d0 == d1 and sees01:
                continue
            b01 = b0 | (1 << d1)
            forbidden = 0
            for i in range(n_common):
                mask = cands[common[i]]
                rest = mask & ~b01
                if rest & (rest - 1) == 0:  # one digit left, or none (then every third one)
                    forbidden |= rest if rest else mask2
            if sees02:
                forbidden |= b0
            if sees12:
                forbidden |= 1 << d1
            third = mask2 & ~forbidden
            if third:
                allowed0 |= b0
                allowed1 |= 1 << d1
                allowed2 |= third
                if allowed0 == mask0 and allowed1 == mask1 and allowed2 == mask2:
                    return False
    allowed[0], allowed[1], allowed[2] = allowed0, allowed1, allowed2
    return bool(mask0 & ~allowed0 or mask1 & ~allowed1 or mask2 & ~allowed2)


@njit(cache=True)
def aligned_triplet_exclusion(values, cands, out):
    """:func:`..rules.aligned_triplet_exclusion`'s first step: 7.5, or 0.0."""
    chosen = np.empty(81, dtype=np.int64)
    excluder = np.zeros(81, dtype=np.bool_)
    count = _candidates(cands, 3, chosen, excluder)
    if count < 3:
        return 0.0
    is_candidate = np.zeros(81, dtype=np.bool_)
    for i in range(count):
        is_candidate[chosen[i]] = True
    pair_common = np.empty(81, dtype=np.int64)
    common = np.empty(81, dtype=np.int64)
    cells = np.empty(3, dtype=np.int64)
    allowed = np.empty(3, dtype=np.int64)
    for n2 in range(1, count):
        c1 = chosen[n2]
        for n1 in range(n2):
            c0 = chosen[n1]
            n_pair = _common(c0, c1, excluder, pair_common)
            if n_pair < 2:
                continue
            # the third cell: the first cell's excluders, then the second's not met yet
            for group in range(2):
                for c2 in range(81):
                    if not is_candidate[c2] or c2 in (c0, c1) or not excluder[c2]:
                        continue
                    if group == 0 and not SEES[c0, c2]:
                        continue
                    if group == 1 and (SEES[c0, c2] or not SEES[c1, c2]):
                        continue
                    n_common = 0
                    for i in range(n_pair):
                        if SEES[c2, pair_common[i]]:
                            common[n_common] = pair_common[i]
                            n_common += 1
                    if n_common < 2:
                        continue
                    if _triplet(cands, c0, c1, c2, common, n_common, allowed):
                        cells[0], cells[1], cells[2] = c0, c1, c2
                        _write(out, 1, cells, allowed, cands)
                        return 7.5
    return 0.0
