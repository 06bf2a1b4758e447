"""SE's "Forcing Chains & Cycles" compiled (numba): :func:`..chains.forcing_chains_cycles` (the
reference, read from SE as that module says) under the contract of
:mod:`sudoku_cp.logic.se.compiled`, its first step only.

The searches are the plain ones: breadth first, each node a potential with the node it was
reached from (``(cell * 10 + digit) * 2 + on``, as in the plain code), kept in two arrays (a
key and a parent index); an "on" is reached once, an "off" once per path in a cycle search
(unless it is on its own path) and once in a forcing-chain search. The hints are compared as
the plain list is sorted, by (difficulty, complexity, sort key, order found), and the least
kept; a search stops at the length past which nothing it finds could sort first (the plain
code's ``PRUNE_OUTRANKED_CHAINS``), and the third pass is skipped when the first two found a
hint below 7.0 (``SKIP_OUTRANKED_PASS``).
"""

from __future__ import annotations

import numpy as np

from ....jit import njit
from .forcing import length_difficulty
from .rules import COUNT, OFF_CELLS, PEER, REGION_SORTED

NAMES = (
    "Generalized X-Wing",
    "Bidirectional X-Cycle",
    "Bidirectional Y-Cycle",
    "Bidirectional Cycle",
    "Turbot Fish",
    "Forcing X-Chain",
    "Forcing Chain",
)
NODES = 729 + 2 * 729 * 28
"""Nodes a search may make: each "on" once (729 at most), each expanded once into at most 28
offs, and each off at most one cycle's end."""
NO_LIMIT = 1 << 30


@njit(cache=True)
def _offs(key, y, cands, found):
    """``_Links.fill_off``: what turning ``key`` (an on) on turns off; their count."""
    cell = key // 20
    value = key // 2 % 10
    n = 0
    if y:
        for v in range(1, 10):
            if v != value and cands[cell] >> v & 1:
                found[n] = (cell * 10 + v) * 2
                n += 1
    bit = 1 << value
    for j in range(20):
        c = OFF_CELLS[cell, j]
        if cands[c] & bit:
            found[n] = (c * 10 + value) * 2
            n += 1
    return n


@njit(cache=True)
def _ons(key, y, x, cands, found):
    """``_Links.fill_on``: what turning ``key`` (an off) off turns on; their count."""
    cell = key // 20
    value = key // 2 % 10
    n = 0
    mask = cands[cell]
    if y and COUNT[mask] == 2:
        rest = mask & ~(1 << value)
        other = 1
        while not rest >> other & 1:
            other += 1
        found[n] = (cell * 10 + other) * 2 + 1
        n += 1
    if x:
        bit = 1 << value
        for k in range(3):
            single = -1
            count = 0
            for i in range(9):
                c = REGION_SORTED[cell, k, i]
                if c != cell and cands[c] & bit:
                    count += 1
                    single = c
            if count == 1:
                on = (single * 10 + value) * 2 + 1
                known = False
                for i in range(n):
                    if found[i] == on:
                        known = True
                if not known:
                    found[n] = on
                    n += 1
    return n


@njit(cache=True)
def grid_links(cands):
    """The links of the grid, once a call (``_Links``): per potential, what turning it on
    turns off (``off_list[y]``, ``y`` whether Y-links count) and what turning it off turns on
    (``on_list[i]``, i 0 X-links only, 1 Y-links only, 2 both), with their counts."""
    off_n = np.zeros((2, 1620), dtype=np.int64)
    off_list = np.empty((2, 1620, 28), dtype=np.int64)
    on_n = np.zeros((3, 1620), dtype=np.int64)
    on_list = np.empty((3, 1620, 4), dtype=np.int64)
    for cell in range(81):
        for value in range(1, 10):
            if not cands[cell] >> value & 1:
                continue
            on = (cell * 10 + value) * 2 + 1
            off = on - 1
            for yi in range(2):
                off_n[yi, on] = _offs(on, yi == 1, cands, off_list[yi, on])
            for i in range(3):
                on_n[i, off] = _ons(off, i >= 1, i != 1, cands, on_list[i, off])
    return off_n, off_list, on_n, on_list


@njit(cache=True)
def _longest(best_diff, best_cx, best_sort, base, sort_key):
    """``chains._longest``: the largest complexity a hint of ``base`` and ``sort_key`` may have
    and still sort before the best so far (none yet: ``best_cx`` < 0)."""
    if best_cx < 0:
        return NO_LIMIT
    longest = 1
    while True:
        diff = base + length_difficulty(longest + 1)
        if diff < best_diff or (
            diff == best_diff
            and (longest + 1 < best_cx or (longest + 1 == best_cx and sort_key < best_sort))
        ):
            longest += 1
        else:
            return longest


@njit(cache=True)
def _better(diff, cx, sort_key, best_diff, best_cx, best_sort):
    if best_cx < 0:
        return True
    if diff != best_diff:
        return diff < best_diff
    if cx != best_cx:
        return cx < best_cx
    return sort_key < best_sort


@njit(cache=True)
def cycle_search(
    source, yi, xi, limit, links, key, parent, cycles, scratch, pending_on, pending_off
):
    """``chains._cycles``: the cycles from ``source`` (an on), each a node (its key the source,
    its parent the path back) in ``cycles``; their count. Nodes go in ``key``/``parent``;
    ``scratch`` rows: 0 the ons reached (marked with the search's number), 1 ancestor marks,
    2 the last ancestor mark (first entry) and search number (second), 3 a link's targets."""
    off_n, off_list, on_n, on_list = links
    to_on = scratch[0]
    marks = scratch[1]
    stamp = scratch[2]
    stamp[1] += 1  # this search's mark of the ons it reached
    reached = stamp[1]
    n_nodes = 1
    key[0] = source
    parent[0] = -1
    to_on[source] = reached
    n_cycles = 0
    length = 0
    pending_on[0] = 0
    n_on = 1
    while n_on:
        if length + 2 > limit:
            break
        length += 1
        n_off = 0
        for i in range(n_on):
            node = pending_on[i]
            targets = off_list[yi, key[node]]
            nt = off_n[yi, key[node]]
            if nt == 0:
                continue
            stamp[0] += 1
            p = parent[node]
            while p >= 0:  # the node's ancestors
                marks[key[p]] = stamp[0]
                p = parent[p]
            for t in range(nt):
                k = targets[t]
                if marks[k] != stamp[0]:
                    key[n_nodes] = k
                    parent[n_nodes] = node
                    pending_off[n_off] = n_nodes
                    n_off += 1
                    n_nodes += 1
        length += 1
        n_on = 0
        for i in range(n_off):
            node = pending_off[i]
            targets = on_list[xi, key[node]]
            nt = on_n[xi, key[node]]
            for t in range(nt):
                k = targets[t]
                if length >= 4 and k == source:
                    key[n_nodes] = k
                    parent[n_nodes] = node
                    cycles[n_cycles] = n_nodes
                    n_cycles += 1
                    n_nodes += 1
                if to_on[k] != reached:
                    to_on[k] = reached
                    key[n_nodes] = k
                    parent[n_nodes] = node
                    pending_on[n_on] = n_nodes
                    n_on += 1
                    n_nodes += 1
    return n_cycles


@njit(cache=True)
def chain_search(source, yi, xi, limit, links, key, parent, scratch, pending_on, pending_off):
    """``chains._forcing``: the node reaching ``source``'s opposite (X-links always), or -1.
    ``scratch`` rows: 0 the ons reached, 4 the offs reached (each marked with the search's
    number, ``scratch[2, 1]``), 3 a link's targets."""
    off_n, off_list, on_n, on_list = links
    to_on = scratch[0]
    to_off = scratch[4]
    scratch[2, 1] += 1
    reached = scratch[2, 1]
    key[0] = source
    parent[0] = -1
    n_nodes = 1
    n_on = n_off = 0
    if source & 1:
        to_on[source] = reached
        pending_on[0] = 0
        n_on = 1
    else:
        to_off[source] = reached
        pending_off[0] = 0
        n_off = 1
    opposite = source ^ 1
    depth = 0
    while n_on or n_off:
        if n_on:
            if depth + 2 > limit:
                break
            depth += 1
        i = 0
        while i < n_on:
            node = pending_on[i]
            i += 1
            targets = off_list[yi, key[node]]
            nt = off_n[yi, key[node]]
            for t in range(nt):
                k = targets[t]
                if k == opposite:
                    key[n_nodes] = k
                    parent[n_nodes] = node
                    return n_nodes
                if to_off[k] != reached:
                    to_off[k] = reached
                    key[n_nodes] = k
                    parent[n_nodes] = node
                    pending_off[n_off] = n_nodes
                    n_off += 1
                    n_nodes += 1
        n_on = 0
        if n_off:
            if depth + 2 > limit:
                break
            depth += 1
        i = 0
        while i < n_off:
            node = pending_off[i]
            i += 1
            targets = on_list[xi, key[node]]
            nt = on_n[xi, key[node]]
            for t in range(nt):
                k = targets[t]
                if k == opposite:
                    key[n_nodes] = k
                    parent[n_nodes] = node
                    return n_nodes
                if to_on[k] != reached:
                    to_on[k] = reached
                    key[n_nodes] = k
                    parent[n_nodes] = node
                    pending_on[n_on] = n_nodes
                    n_on += 1
                    n_nodes += 1
        n_off = 0
    return -1


@njit(cache=True)
def forcing_chains_cycles(values, cands, out):
    """:func:`..chains.forcing_chains_cycles`' first step; its difficulty, or 0.0."""
    key = np.empty(NODES, dtype=np.int64)
    parent = np.empty(NODES, dtype=np.int64)
    cycles = np.empty(NODES, dtype=np.int64)
    scratch = np.zeros((5, 1620), dtype=np.int64)
    pending_on = np.empty(NODES, dtype=np.int64)
    pending_off = np.empty(NODES, dtype=np.int64)
    forw = np.zeros(810, dtype=np.int64)
    back = np.zeros(810, dtype=np.int64)
    in_cycle = np.zeros(81, dtype=np.int64)
    best_diff = 0.0
    best_cx = -1
    best_sort = 0
    best_name = 0
    best_removals = np.zeros(81, dtype=np.int64)  # a mask per cell
    links = grid_links(cands)
    visit = 0
    for pass_ in range(3):
        y = pass_ >= 1
        x = pass_ != 1
        if x and y and best_cx >= 0 and best_diff < 7.0:
            break  # SKIP_OUTRANKED_PASS: the third pass's hints are all 7.0 or more
        sort_key = 4 if (x and y) else 3 if y else 2
        yi = 1 if y else 0  # the off links' table: without, with Y-links
        xi = pass_  # the on links' table: X only, Y only, both
        cycle_base = 7.0 if (x and y) else 6.5
        chain_base = 7.0 if y else 6.6
        for cell in range(81):
            mask = cands[cell]
            if values[cell] or COUNT[mask] < 2:
                continue
            if not x and COUNT[mask] > 2:
                continue  # Y-cycles start from bivalue cells only
            for value in range(1, 10):
                if not mask >> value & 1:
                    continue
                source = (cell * 10 + value) * 2 + 1
                limit = _longest(best_diff, best_cx, best_sort, cycle_base, sort_key)
                n_cycles = cycle_search(
                    source,
                    yi,
                    xi,
                    limit,
                    links,
                    key,
                    parent,
                    cycles,
                    scratch,
                    pending_on,
                    pending_off,
                )
                # the cycles, in the order found; a hint must remove something
                for ci in range(n_cycles):
                    visit += 1
                    node = parent[cycles[ci]]  # the path, the source's end left out
                    length = 0
                    n = node
                    while n >= 0:  # the cells of the path (the source included once)
                        in_cycle[key[n] // 20] = visit
                        length += 1
                        n = parent[n]
                    # the path without its root (the source is its first node, dst)
                    length_path = length  # dst (the source) + the nodes before the root
                    visit += 1
                    stamp_f = visit
                    any_cancel = False
                    n = cycles[ci]
                    while parent[n] >= 0:  # dst, then each node but the root
                        k = key[n]
                        c = k // 20
                        v = k // 2 % 10
                        bit = 1 << v
                        for j in range(20):
                            peer = PEER[c, j]
                            if cands[peer] & bit and in_cycle[peer] != visit - 1:
                                if k & 1:
                                    forw[peer * 10 + v] = stamp_f
                                    any_cancel |= back[peer * 10 + v] == stamp_f
                                else:
                                    back[peer * 10 + v] = stamp_f
                                    any_cancel |= forw[peer * 10 + v] == stamp_f
                        n = parent[n]
                    complexity = length_path
                    if not any_cancel:
                        continue
                    diff = cycle_base + length_difficulty(complexity)
                    if _better(diff, complexity, sort_key, best_diff, best_cx, best_sort):
                        best_diff, best_cx, best_sort = diff, complexity, sort_key
                        n_cells = 0
                        for c in range(81):
                            best_removals[c] = 0
                            for v in range(1, 10):
                                if forw[c * 10 + v] == stamp_f and back[c * 10 + v] == stamp_f:
                                    best_removals[c] |= 1 << v
                        # CycleHint.getName
                        if sort_key == 2:
                            n_cells = 0
                            seen = np.zeros(81, dtype=np.int64)
                            n = node
                            while n >= 0:
                                c = key[n] // 20
                                if not seen[c]:
                                    seen[c] = 1
                                    n_cells += 1
                                n = parent[n]
                            best_name = 0 if n_cells == 4 else 1
                        else:
                            best_name = 2 if sort_key == 3 else 3
                if not x:
                    continue
                limit = _longest(best_diff, best_cx, best_sort, chain_base, sort_key)
                for side in range(2):
                    start = source if side == 0 else source ^ 1
                    target = chain_search(
                        start,
                        yi,
                        2 if y else 0,
                        limit,
                        links,
                        key,
                        parent,
                        scratch,
                        pending_on,
                        pending_off,
                    )
                    if target < 0:
                        continue
                    complexity = 0
                    n = target
                    while n >= 0:
                        complexity += 1
                        n = parent[n]
                    diff = chain_base + length_difficulty(complexity)
                    if _better(diff, complexity, sort_key, best_diff, best_cx, best_sort):
                        best_diff, best_cx, best_sort = diff, complexity, sort_key
                        k = key[target]
                        c = k // 20
                        v = k // 2 % 10
                        for i in range(81):
                            best_removals[i] = 0
                        # createForcingChainHint: an "on" target keeps only its digit
                        best_removals[c] = cands[c] & ~(1 << v) if k & 1 else 1 << v
                        # ForcingChainHint.getName
                        best_name = 6 if y else 4 if complexity == 6 else 5
    if best_cx < 0:
        return 0.0
    out[0] = best_name
    out[1] = -1
    out[2] = 0
    n = 0
    for c in range(81):
        if best_removals[c]:
            out[4 + 2 * n] = c
            out[5 + 2 * n] = best_removals[c]
            n += 1
    out[3] = n
    return best_diff
