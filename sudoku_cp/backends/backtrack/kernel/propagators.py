"""The generic compiled kernel's rules beyond pair rules (:mod:`.generic` is the search):
the propagators its :func:`~.generic._propagate` calls, each over the tables the glue laid out
(:mod:`.model_tables`): sums and killer cages (:func:`sums_and_cages`), sandwiches
(:func:`sandwiches`), triples (:func:`triples`) and quadruples (:func:`quadruples`), with the
two steps every one of them takes (:func:`narrow` a cell, :func:`touch` its groups); the
sequence rules' are in :mod:`.sequence_propagators`. Each keeps the pure search's meaning of
its rules, read once by :func:`~sudoku_cp.backends.backtrack.rules.compile_rules`; their
fixed points may be stronger.

This module imports numba: import it only to solve (see the glue).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from ....jit import njit


@intrinsic
def popcount(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True, inline="always")
def touch(cell, cg_start, cg_list, dirty):
    """Mark the full groups of ``cell`` as worth looking at again (for both rules), and its
    sums and cages (their entries of ``dirty`` follow the groups')."""
    for k in range(cg_start[cell], cg_start[cell + 1]):
        dirty[cg_list[k]] = 3


@njit(cache=True, inline="always")
def narrow(cell, keep, cand, queue, tail, cg_start, cg_list, dirty):
    """Keep only the digits of ``keep`` in ``cell``: the new queue length (the cell queued when
    it became a single), or -1 when it runs out."""
    m = cand[cell]
    if m & ~keep == 0:
        return tail
    m &= keep
    cand[cell] = m
    if m == 0:
        return -1
    touch(cell, cg_start, cg_list, dirty)
    if m & (m - np.uint64(1)) == 0:
        queue[tail] = cell
        tail += 1
    return tail


@njit(cache=True)
def _clique(cand, clique_start, sum_cell, q):
    """Bounds of the digits' sum over clique ``q`` of a sum's terms (cells of one weight that
    are all peers, so take different digits): ``(lo, hi)`` (``lo > hi``: no way), then the sums
    of the cells' own smallest and largest digits, the sums of the ``k - 1`` smallest and
    largest digits of the cells' union (``k`` its cells), and its ``k - 1``-th and ``k``-th
    smallest and largest digits (each term bounded by its own digits, the clique by its
    union's: both hold). Last, ``reach``: how far above ``lo`` and below ``hi`` the clique's
    sum can be forced by one of its cells taking one of its digits (bounds on what
    :func:`sums_and_cages` computes digit by digit: with slack beyond it on both sides, no
    digit of the clique can go)."""
    one = np.uint64(1)
    smin = np.int64(0)
    smax = np.int64(0)
    spread = np.int64(0)  # the widest cell's largest digit less its smallest
    union = np.uint64(0)
    for k in range(clique_start[q], clique_start[q + 1]):
        m = cand[sum_cell[k]]
        if m == 0:
            return np.int64(1), np.int64(0), smin, smax, smin, smax, 0, 0, 0, 0, np.int64(0)
        small = np.int64(trailing_zeros(m)) + 1
        big = np.int64(64 - leading_zeros(m))
        smin += small
        smax += big
        spread = max(spread, big - small)
        union |= m
    count = np.int64(clique_start[q + 1] - clique_start[q])
    if count == 1:
        return smin, smax, smin, smax, np.int64(0), np.int64(0), 0, 0, 0, 0, smax - smin
    if np.int64(popcount(union)) < count:
        return np.int64(1), np.int64(0), smin, smax, smin, smax, 0, 0, 0, 0, np.int64(0)
    restlo = np.int64(0)
    s1 = np.int64(0)
    rest = union
    for _ in range(count - 1):
        bit = rest & (~rest + one)
        rest ^= bit
        s1 = np.int64(trailing_zeros(bit)) + 1
        restlo += s1
    s2 = np.int64(trailing_zeros(rest)) + 1
    resthi = np.int64(0)
    l1 = np.int64(0)
    rest = union
    for _ in range(count - 1):
        l1 = np.int64(64 - leading_zeros(rest))
        rest ^= one << np.uint64(l1 - 1)
        resthi += l1
    l2 = np.int64(64 - leading_zeros(rest))
    lo = max(smin, restlo + s2)
    hi = min(smax, resthi + l2)
    # A cell taking digit d leaves the clique at least d + (the others' least), which is at
    # most max(smin + spread, restlo + the union's largest) by the two bounds
    # sums_and_cages takes for the others; and at most hi - (the mirror of that) below.
    umin = np.int64(trailing_zeros(union)) + 1
    umax = np.int64(64 - leading_zeros(union))
    reach = max(max(smin + spread, restlo + umax) - lo, hi - min(smax - spread, resthi + umin))
    return lo, hi, smin, smax, restlo, resthi, s1, s2, l1, l2, reach


@njit(cache=True)
def _in(cell, cells, start, stop):
    """Whether ``cell`` is among ``cells[start:stop]``."""
    for k in range(start, stop):  # noqa: SIM110 (a loop numba compiles without a generator)
        if cells[k] == cell:
            return True
    return False


@njit(cache=True, inline="always")
def _seen_by_all(cand, queue, tail, dirty, seen, bit, places):
    """Digit ``bit`` out of every cell outside ``cells[first:first + count]`` that sees each of
    its ``places`` there (bit i: the i-th cell): a cage's or a quadruple's digit that must go in
    one of them. Returns the new queue length (-1 at a dead end) and whether a candidate
    went."""
    cg_start, cg_list, peer_start, peer_list, cells, first, count = seen
    one = np.uint64(1)
    home = -1
    for i in range(count):
        if places >> np.uint64(i) & one:
            home = cells[first + i]
            break
    out = False
    for j in range(peer_start[home], peer_start[home + 1]):
        c = peer_list[j]
        if cand[c] & bit == 0 or _in(c, cells, first, first + count):
            continue
        sees = True
        for i in range(count):
            p = cells[first + i]
            held = p != home and places >> np.uint64(i) & one
            if held and not _in(c, peer_list, peer_start[p], peer_start[p + 1]):
                sees = False
                break
        if sees:
            tail = narrow(c, ~bit, cand, queue, tail, cg_start, cg_list, dirty)
            if tail < 0:
                return -1, out
            out = True
    return tail, out


@njit(cache=True, inline="always")
def _few_open(cand, queue, tail, dirty, tab_few, goal):
    """Sum ``s`` exactly when two or three of its cells are open, each of weight 1 or -1 (zipper
    lines, short arrows, a little killer's last cells): a digit stays only beside digits of the
    other open cells meeting the goal, peers taking different digits — what bounds alone miss
    (ISS solves such sums exactly so: sigh/Interactive-Sudoku-Solver, js/solver/sum_handler.js,
    ``_enforceFewRemainingCells``). A cell met twice among the terms counts as two (a looser
    rule, never a wrong cut). ``tab_few`` holds only the tables it reads, and the sum's range
    of cliques: passing the whole tuple of tables copies it at every call (twice the time a
    node takes on zipper lines). Returns the new queue length (-1 at a dead end) and whether a
    candidate went."""
    peer_start, peer_list, cg_start, cg_list, clique_start, sum_cell, sum_weight, first, stop = (
        tab_few
    )
    one = np.uint64(1)
    a = b = c = np.int64(-1)  # the open cells (scalars: nothing allocated per node)
    wa = wb = wc = np.int64(0)
    qa = qb = qc = np.int64(-1)  # their cliques: cells of one clique are peers
    count = 0
    for q in range(first, stop):
        for k in range(clique_start[q], clique_start[q + 1]):
            m = cand[sum_cell[k]]
            w = np.int64(sum_weight[k])
            if m & (m - one) == 0:
                goal -= w * (np.int64(trailing_zeros(m)) + 1)
                continue
            if count == 3 or (w != 1 and w != -1):
                return tail, False
            if count == 0:
                a, wa, qa = np.int64(sum_cell[k]), w, q
            elif count == 1:
                b, wb, qb = np.int64(sum_cell[k]), w, q
            else:
                c, wc, qc = np.int64(sum_cell[k]), w, q
            count += 1
    if count < 2:
        return tail, False
    # Peers among the open cells: one clique's cells are, others are looked up.
    ab = qa == qb or _in(b, peer_list, peer_start[a], peer_start[a + 1])
    ac = count == 3 and (qa == qc or _in(c, peer_list, peer_start[a], peer_start[a + 1]))
    bc = count == 3 and (qb == qc or _in(c, peer_list, peer_start[b], peer_start[b + 1]))
    keep_a = np.uint64(0)
    keep_b = np.uint64(0)
    keep_c = np.uint64(0)
    ra = cand[a]
    while ra:
        bit_a = ra & (~ra + one)
        ra ^= bit_a
        da = np.int64(trailing_zeros(bit_a)) + 1
        if count == 2:
            db = (goal - wa * da) * wb
            if 1 <= db <= 64 and cand[b] >> np.uint64(db - 1) & one and not (ab and db == da):
                keep_a |= bit_a
                keep_b |= one << np.uint64(db - 1)
            continue
        rb = cand[b]
        while rb:
            bit_b = rb & (~rb + one)
            rb ^= bit_b
            db = np.int64(trailing_zeros(bit_b)) + 1
            if ab and db == da:
                continue
            dc = (goal - wa * da - wb * db) * wc
            if not (1 <= dc <= 64 and cand[c] >> np.uint64(dc - 1) & one):
                continue
            if (ac and dc == da) or (bc and dc == db):
                continue
            keep_a |= bit_a
            keep_b |= bit_b
            keep_c |= one << np.uint64(dc - 1)
    pruned = False
    for i in range(count):
        cell = a if i == 0 else b if i == 1 else c
        keep = keep_a if i == 0 else keep_b if i == 1 else keep_c
        if cand[cell] & ~keep:
            tail = narrow(cell, keep, cand, queue, tail, cg_start, cg_list, dirty)
            if tail < 0:
                return -1, pruned
            pruned = True
    return tail, pruned


@njit(cache=True)
def sums_and_cages(cand, queue, tail, tab, dirty):
    """The sums and killer cages whose cells changed (``dirty`` after the full groups'), as the
    pure search compiles them (:mod:`sudoku_cp.backends.backtrack.rules`).

    A sum (``weight * digit`` over its terms equal to its goal; arrows, little killers) is kept
    bounds consistent, as :class:`~sudoku_cp.backends.backtrack.shapes.SumPropagator` keeps it:
    each term must fit in what the goal leaves once the others take their extremes (digits may
    repeat, so each cell's own bounds). A cage with a total works on its listed digit sets, as
    the pure search's ``_cage``: a set stays possible while it holds every digit settled in the
    cage, its other digits each have a place among the open cells and every open cell has one
    of them but at most one with no other place; the open cells keep the digits of possible
    sets, and a digit of every possible set with one open place goes there, or else leaves
    every cell outside the cage that sees all its places (ISS removes a cage's required digits
    from the cells that see all their places so: sigh/Interactive-Sudoku-Solver,
    js/solver/sum_handler.js, ``_restrictCellsSingleExclusionGroup``). The cage's cells are a
    group: the layout's peers keep them different. A renban's runs come as a cage without a
    sum (the pure search's ``_clique_table``).

    Returns the new queue length (-1 at a dead end) and whether a candidate went."""
    peer_start, peer_list, cg_start, cg_list = tab[0], tab[1], tab[3], tab[4]
    sum_start, clique_start, sum_cell, sum_weight = tab[15], tab[23], tab[16], tab[17]
    sum_goal = tab[18]
    cage_start, cage_cell, combo_start, combos = tab[19], tab[20], tab[21], tab[22]
    groups = tab[2]
    ngroups = groups.shape[0]
    nsums = sum_goal.shape[0]
    one = np.uint64(1)
    changed = False
    for s in range(nsums):
        if not dirty[ngroups + s]:
            continue
        goal = np.int64(sum_goal[s])
        while True:
            low = np.int64(0)
            high = np.int64(0)
            reach = np.int64(0)
            for q in range(sum_start[s], sum_start[s + 1]):
                bounds = _clique(cand, clique_start, sum_cell, q)
                lo, hi = bounds[0], bounds[1]
                if lo > hi:
                    return -1, changed
                w = np.int64(sum_weight[clique_start[q]])
                reach = max(reach, abs(w) * bounds[10])
                if w > 0:
                    low += w * lo
                    high += w * hi
                else:
                    low += w * hi
                    high += w * lo
            if not low <= goal <= high:
                return -1, changed
            # No digit can go when the goal leaves more slack on both sides than any one
            # digit's choice moves its clique (the same fixed point, without the loop below).
            if low == high or reach <= min(goal - low, high - goal):
                break
            pruned = False
            for q in range(sum_start[s], sum_start[s + 1]):
                lo, hi, smin, smax, restlo, resthi, s1, s2, l1, l2, _ = _clique(
                    cand, clique_start, sum_cell, q
                )
                w = np.int64(sum_weight[clique_start[q]])
                if w > 0:
                    low_rest, high_rest = low - w * lo, high - w * hi
                else:
                    low_rest, high_rest = low - w * hi, high - w * lo
                alone = clique_start[q + 1] - clique_start[q] == 1
                for k in range(clique_start[q], clique_start[q + 1]):
                    cell = sum_cell[k]
                    m = cand[cell]
                    small = np.int64(trailing_zeros(m)) + 1
                    big = np.int64(64 - leading_zeros(m))
                    keep = np.uint64(0)
                    rest = m
                    while rest:
                        bit = rest & (~rest + one)
                        rest ^= bit
                        d = np.int64(trailing_zeros(bit)) + 1
                        # The clique's other cells: their own bounds, and different digits
                        # of the clique's, d not among them.
                        others_low = np.int64(0)
                        others_high = np.int64(0)
                        if not alone:
                            others_low = max(smin - small, restlo - d + s2 if d <= s1 else restlo)
                            others_high = min(smax - big, resthi - d + l2 if d >= l1 else resthi)
                        if w > 0:
                            floor = low_rest + w * others_low
                            ceiling = high_rest + w * others_high
                        else:
                            floor = low_rest + w * others_high
                            ceiling = high_rest + w * others_low
                        if floor <= goal - w * d <= ceiling:
                            keep |= bit
                    if keep != m:
                        tail = narrow(cell, keep, cand, queue, tail, cg_start, cg_list, dirty)
                        if tail < 0:
                            return -1, changed
                        changed = True
                        pruned = True
            if not pruned:
                break
        if low != high:
            few = (
                peer_start,
                peer_list,
                cg_start,
                cg_list,
                clique_start,
                sum_cell,
                sum_weight,
                sum_start[s],
                sum_start[s + 1],
            )
            tail, pruned = _few_open(cand, queue, tail, dirty, few, goal)
            if tail < 0:
                return -1, changed
            changed |= pruned
        dirty[ngroups + s] = 0  # at its own fixed point (its own prunings marked it again)
    for g in range(cage_start.shape[0] - 1):
        if not dirty[ngroups + nsums + g]:
            continue
        dirty[ngroups + nsums + g] = 0
        placed = np.uint64(0)
        present = np.uint64(0)
        twice = np.uint64(0)
        for k in range(cage_start[g], cage_start[g + 1]):
            m = cand[cage_cell[k]]
            if m == 0:
                return -1, changed
            if m & (m - one) == 0:
                placed |= m
            else:
                twice |= present & m
                present |= m
        lone = present & ~twice  # open digits with one place in the cage
        allowed = np.uint64(0)
        must = present
        possible = False
        for k in range(combo_start[g], combo_start[g + 1]):
            combo = np.uint64(combos[k])
            if combo & placed != placed:
                continue
            rest = combo ^ placed
            if rest & present != rest:
                continue
            covered = True
            for i in range(cage_start[g], cage_start[g + 1]):
                m = cand[cage_cell[i]]
                # Every open cell takes a digit of the set, and at most one of the set's
                # digits with no other place (ISS checks a value unique to a cell against the
                # cell's other unique values so: handlers.js, ``_enforceCellUniqueValues``).
                if m & (m - one) and (m & rest == 0 or popcount(m & rest & lone) > 1):
                    covered = False
                    break
            if covered:
                possible = True
                allowed |= rest
                must &= rest
        if not possible:
            return -1, changed
        for k in range(cage_start[g], cage_start[g + 1]):
            cell = cage_cell[k]
            m = cand[cell]
            if m & (m - one) == 0:
                continue
            tail = narrow(cell, allowed, cand, queue, tail, cg_start, cg_list, dirty)
            if tail < 0:
                return -1, changed
            if cand[cell] != m:
                changed = True
        while must:
            bit = must & (~must + one)
            must ^= bit
            # Its places: open cells at the start, whose digits of possible sets all stayed.
            start, count = cage_start[g], cage_start[g + 1] - cage_start[g]
            first = -1
            held = np.uint64(0)  # bit i: the cage's i-th cell
            for i in range(count):
                if cand[cage_cell[start + i]] & bit:
                    held |= one << np.uint64(i)
                    if first < 0:
                        first = cage_cell[start + i]
            if held == 0:
                continue  # (taken by a placement just made: the next round sees it)
            if held & (held - one) == 0:
                if cand[first] != bit:
                    tail = narrow(first, bit, cand, queue, tail, cg_start, cg_list, dirty)
                    if tail < 0:
                        return -1, changed
                    changed = True
                continue
            # The digit is in the cage, at one of its places: not in a cell outside it that
            # sees every place (ISS's cell exclusions, any peers).
            seen = (cg_start, cg_list, peer_start, peer_list, cage_cell, start, count)
            tail, out = _seen_by_all(cand, queue, tail, dirty, seen, bit, held)
            if tail < 0:
                return -1, changed
            changed |= out
    return tail, changed


@njit(cache=True)
def sandwiches(cand, queue, tail, tab, dirty, support):
    """The sandwiches on groups whose cells changed (``dirty`` after the sequences'), as
    :class:`~sudoku_cp.backends.backtrack.shapes.SandwichPropagator` keeps them: every place
    of the 1 and of the N a gap apart that the sum allows is tried with every listed set of
    different digits of 2..N-1 for the cells between (model_tables' ``SandwichArrays``); a set
    fits when the cells between may hold all its digits and each of them one. Each candidate
    keeps only the support such placements give it: the 1 and the N their places, a cell
    between the digits of fitting sets, a cell outside any digit but 1, N and those every
    fitting set holds. ``support`` is scratch, a word per cell of a line at least.

    Returns the new queue length (-1 at a dead end) and whether a candidate went."""
    cg_start, cg_list = tab[3], tab[4]
    sw_start, sw_cell, sw_gap_start, sw_gaps = tab[33], tab[34], tab[35], tab[36]
    sw_combo_start, sw_combos = tab[37], tab[38]
    size = tab[2].shape[1]
    base = tab[2].shape[0] + tab[18].shape[0] + tab[19].shape[0] - 1 + tab[26].shape[0] - 1
    one = np.uint64(1)
    top = one << np.uint64(size - 1)
    ends = one | top
    changed = False
    for r in range(sw_start.shape[0] - 1):
        if not dirty[base + r]:
            continue
        dirty[base + r] = 0  # (its own prunings mark it again: it runs to its own fixed point)
        a0 = sw_start[r]
        length = sw_start[r + 1] - a0
        for x in range(length):
            support[x] = 0
        found = False
        for i in range(length):
            if not cand[sw_cell[a0 + i]] & one:
                continue
            for k in range(sw_gap_start[r], sw_gap_start[r + 1]):
                gap = sw_gaps[k]
                for j in (i - gap, i + gap):
                    if j < 0 or j >= length or not cand[sw_cell[a0 + j]] & top:
                        continue
                    a = min(i, j)
                    b = max(i, j)
                    union = np.uint64(0)
                    for x in range(a + 1, b):
                        union |= cand[sw_cell[a0 + x]]
                    fits = np.uint64(0)
                    common = ~np.uint64(0)
                    fit = False
                    for q in range(sw_combo_start[k], sw_combo_start[k + 1]):
                        combo = np.uint64(sw_combos[q])
                        if combo & union != combo:
                            continue
                        covered = True
                        for x in range(a + 1, b):
                            if not cand[sw_cell[a0 + x]] & combo:
                                covered = False
                                break
                        if covered:
                            fit = True
                            fits |= combo
                            common &= combo
                    if not fit:
                        continue
                    found = True
                    support[i] |= one
                    support[j] |= top
                    for x in range(a + 1, b):
                        support[x] |= cand[sw_cell[a0 + x]] & fits
                    rest = ~(ends | common)
                    for x in range(length):
                        if x < a or x > b:
                            support[x] |= cand[sw_cell[a0 + x]] & rest
        if not found:
            return -1, changed
        for x in range(length):
            cell = sw_cell[a0 + x]
            if cand[cell] & ~support[x]:
                tail = narrow(cell, support[x], cand, queue, tail, cg_start, cg_list, dirty)
                if tail < 0:
                    return -1, changed
                changed = True
    return tail, changed


@njit(cache=True)
def triples(cand, queue, tail, dirty, base, size, cg_start, cg_list, tri_cell, tri_rel, tri_allow):
    """The triples (between lines, lockout lines) whose cells changed (``dirty`` from ``base``,
    after the sandwiches'), each kept generalised arc consistent as
    :class:`~sudoku_cp.backends.backtrack.shapes.TriplePropagator` keeps it: a digit of one of
    its cells stays only while part of some allowed triple of candidates (model_tables'
    ``TripleArrays``). One pass is a triple's own fixed point when its cells differ (it stays
    marked otherwise). Only the tables it reads are passed (passing the whole tuple copies it
    at every call).

    Returns the new queue length (-1 at a dead end) and whether a candidate went."""
    one = np.uint64(1)
    changed = False
    for t in range(tri_cell.shape[0]):
        if not dirty[base + t]:
            continue
        dirty[base + t] = 0
        a, b, c = tri_cell[t, 0], tri_cell[t, 1], tri_cell[t, 2]
        row = tri_rel[t]
        mc = cand[c]
        keep_a = np.uint64(0)
        keep_b = np.uint64(0)
        keep_c = np.uint64(0)
        ra = cand[a]
        while ra:
            bit_a = ra & (~ra + one)
            ra ^= bit_a
            at = np.int64(trailing_zeros(bit_a)) * size
            rb = cand[b]
            while rb:
                bit_b = rb & (~rb + one)
                rb ^= bit_b
                ok = np.uint64(tri_allow[row, at + np.int64(trailing_zeros(bit_b))]) & mc
                if ok:
                    keep_a |= bit_a
                    keep_b |= bit_b
                    keep_c |= ok
        if keep_a == 0:
            return -1, changed
        for i in range(3):
            cell = a if i == 0 else b if i == 1 else c
            keep = keep_a if i == 0 else keep_b if i == 1 else keep_c
            if cand[cell] & ~keep:
                tail = narrow(cell, keep, cand, queue, tail, cg_start, cg_list, dirty)
                if tail < 0:
                    return -1, changed
                changed = True
        if a != b and a != c and b != c:
            dirty[base + t] = 0  # (its own prunings marked it again)
    return tail, changed


@njit(cache=True)
def quadruples(cand, queue, tail, dirty, base, cg_start, cg_list, quad, peer_start, peer_list):
    """The quadruples whose cells changed (``dirty`` from ``base``, after the triples'), as
    :class:`~sudoku_cp.backends.backtrack.shapes.QuadruplePropagator` keeps them (model_tables'
    ``QuadrupleArrays``, in ``quad``): a listed digit with fewer places among the cells than the
    times it is listed fails, with exactly as many goes in each; fewer cells able to hold a
    listed digit than digits listed fail; as many listed digits as cells leave the cells only
    those digits; a listed digit leaves every cell outside that sees all its places (it would
    take them all: ISS's required values with its cell exclusions,
    sigh/Interactive-Sudoku-Solver, js/solver/handlers.js, ``RequiredValues`` and
    ``HandlerUtil.enforceRequiredValueExclusions``). Its own prunings mark it again (it runs
    to its own fixed point).

    Returns the new queue length (-1 at a dead end) and whether a candidate went."""
    qd_start, qd_cell, qd_need_start, qd_digit, qd_times = quad
    one = np.uint64(1)
    changed = False
    for q in range(qd_start.shape[0] - 1):
        if not dirty[base + q]:
            continue
        dirty[base + q] = 0
        first = qd_start[q]
        count = qd_start[q + 1] - first
        able = np.uint64(0)  # the cells able to hold a listed digit (bit i: the i-th cell)
        listed = 0
        digits = np.uint64(0)
        for k in range(qd_need_start[q], qd_need_start[q + 1]):
            bit = one << np.uint64(qd_digit[k] - 1)
            times = qd_times[k]
            listed += times
            digits |= bit
            places = np.uint64(0)
            for i in range(count):
                if cand[qd_cell[first + i]] & bit:
                    places |= one << np.uint64(i)
            able |= places
            found = np.int64(popcount(places))
            if found < times:
                return -1, changed
            if found == times:
                for i in range(count):
                    cell = qd_cell[first + i]
                    if places >> np.uint64(i) & one and cand[cell] != bit:
                        tail = narrow(cell, bit, cand, queue, tail, cg_start, cg_list, dirty)
                        if tail < 0:
                            return -1, changed
                        changed = True
            elif found > 1:
                seen = (cg_start, cg_list, peer_start, peer_list, qd_cell, first, count)
                tail, out = _seen_by_all(cand, queue, tail, dirty, seen, bit, places)
                if tail < 0:
                    return -1, changed
                changed |= out
        if np.int64(popcount(able)) < listed:
            return -1, changed
        if listed == count:
            for i in range(count):
                cell = qd_cell[first + i]
                if cand[cell] & ~digits:
                    tail = narrow(cell, digits, cand, queue, tail, cg_start, cg_list, dirty)
                    if tail < 0:
                        return -1, changed
                    changed = True
    return tail, changed
