"""The generic compiled kernel of the ``backtrack`` backend's ``fast`` strategy (numba,
optional). Classic 9x9 has a faster one of its own (:mod:`.classic`, a different search);
this one takes every other model of groups, and classic 9x9 where the pure search's order is
wanted, and models whose other rules are digit rules (odd, even, candidates), pair rules
(thermometers, dots, XV, whispers, renban, palindromes, clones, negative constraints …), sums
and cages, sequence rules (skyscrapers, X-sums), sandwiches (on a line that is no group, as an
automaton), triple rules (between lines, lockout lines) and quadruples: their propagators are
in :mod:`.propagators`.

The same search as :func:`sudoku_cp.backends.backtrack.search._fast` — naked singles, hidden singles
and confinement to a fixed point, then a branch on a cell with the fewest candidates (most open
peers, then most peers with two candidates, then the first in reading order), smallest digit
first — over any model whose rules are all-different groups, any size up to 64. Only the way the
state is held differs, to suit compiled code: a candidate mask per cell (bit ``d - 1`` for digit
``d``, one ``uint64``) instead of one packed integer, and propagation driven by a queue of cells
that became singles instead of whole-grid rounds. The fixed point of a state that holds a
solution does not depend on the order the rules are applied in, so the branches taken on the way
to every solution, and the solutions and their order, are the pure-Python search's; only the
dead ends may be found sooner or later (the kernel also fails a group with a digit that has no
place left), so ``nodes`` and ``backtracks`` may differ slightly.

Digit and pair rules come as the pure search compiles them
(:mod:`sudoku_cp.backends.backtrack.rules`): each cell's starting mask, and each pair rule's
arcs with a table per relation, kept arc consistent among the other rules (:func:`_arcs`):
the pure search's fixed point again. On such models the glue may ask for dom/wdeg branching
instead (:func:`_branch_weighted`: the cell with the fewest candidates per dead end it took
part in — branched on (counting three), or settled by the propagation that failed — or a
digit's two places in a group, the weights halved every :data:`HALVE_EVERY` dead ends, or
:data:`HALVE_EVERY_SUMS` from each cell's priority on models with sums, cages, sequences,
sandwiches, triples or quadruples; a state one N² words wider, its last words the weights,
kept outside the frames): the same solutions and counts as the pure search, found in another
order, with far fewer nodes on puzzles with few givens.

Nothing here allocates per node, and the search can stop and resume: every bit of its state is in
arrays the caller owns (:mod:`sudoku_cp.backends.backtrack.kernel.glue` is the glue). A call returns
when it has tried ``budget`` more nodes (so the caller can look at its clock), when the solution
buffer is full, when the stack of frames is full (the caller grows it) or when the search ends.

This module imports numba: import it only to solve (see the glue).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ....jit import njit
from . import propagators, sequence_propagators
from .propagators import popcount, touch

# --- what a call says (status) and where it keeps its counters (ctrl) ---------------------------
DONE = 0
"""The search is over: every branch explored."""
LIMIT = 1
"""``limit`` solutions found."""
PAUSED = 2
"""``budget`` nodes tried: call again to go on."""
BUFFER_FULL = 3
"""The solution buffer is full: empty it (``ctrl[FOUND_IN_BUFFER] = 0``) and call again."""
STACK_FULL = 4
"""The stack of frames is full: grow it and call again."""

NODES, BACKTRACKS, PROPAGATIONS, DEPTH, FOUND, IN_BUFFER, STARTED, LIMIT_AT, BUDGET = range(9)
"""Indices into ``ctrl``: the three counters as the pure search keeps them, the frames in use,
solutions found in all, solutions in the buffer, whether the root has been set up; and two the
caller sets: the solutions wanted (0: all) and the nodes a call may try."""
CTRL_SIZE = 9
HALVE_EVERY = 256
"""Dead ends between two halvings of every cell's weight in the weighted search, so that the
cells that fail now count most (ISS halves its conflict scores so, every 2^14
dead ends: sigh/Interactive-Sudoku-Solver, js/solver/candidate_selector.js,
``ConflictScores.decay``). On the bundled
``variants9`` thermometer puzzles, when a dead end counted against the branched cell alone,
halving every 256 against never: "I want to break free" 330
thousand nodes against over 5.6 million (unfinished), "A kind of magic" 428 thousand against
1.7 million, "Bicycle race" 73 thousand against 4.8 million (unfinished); every 1,024 and 4,096
took 1.1 to 2.5 times the nodes of every 256. Counting the settled cells too (see
``run``), every 128 or 512 took within 4% of the nodes of every 256 over the bundled rule
puzzles."""
HALVE_EVERY_SUMS = 1 << 14
"""Dead ends between two halvings on models with sums or cages, whose weights start at each
cell's priority as ISS's conflict scores do (see the glue's ``Tables.priority``), and are
halved as seldom as ISS halves them: on the bundled ``variants9``, Hailstone (cages, little
killers) 273 thousand nodes against over 4.1 million (unfinished in 20 s) halving every 256,
The Barbed Cross (little killers) 134 thousand against 1.1 million; every 1,024 or 4,096
left Hailstone unfinished in 10 s or took twice the nodes, every 2^16 or never took 2.4 and
3 times the nodes on one arrow puzzle of the ``iss`` set (67), and the same elsewhere
(figures: docs/benchmarks/record.md); counting the settled cells too, every 2^12 or 2^16
within 1%. The table of that name (one number) says which a model takes."""
TABLES = 48
"""The model's tables, packed into one ``int32`` array (see :func:`_unpack`): a call passes a
few arrays rather than a dozen, which is a good part of a call's cost on an easy puzzle."""


@njit(cache=True, inline="always")
def _one(packed, t):
    at = np.int64(packed[1 + 3 * t])
    return packed[at : at + np.int64(packed[2 + 3 * t])]


@njit(cache=True, inline="always")
def _two(packed, t):
    at, rows, cols = (
        np.int64(packed[1 + 3 * t]),
        np.int64(packed[2 + 3 * t]),
        np.int64(packed[3 + 3 * t]),
    )
    return packed[at : at + rows * cols].reshape((rows, cols))


@njit(cache=True)
def _unpack(packed):
    """The tables in ``packed``: ``packed[0]`` is the size N, then ``TABLES`` triples (offset,
    rows, columns; columns 0 for a table of one dimension), then the tables themselves."""
    return (
        _one(packed, 0),
        _one(packed, 1),
        _two(packed, 2),
        _one(packed, 3),
        _one(packed, 4),
        _two(packed, 5),
        _one(packed, 6),
        _two(packed, 7),
        _one(packed, 8),
        _two(packed, 9),
        _one(packed, 10),
        _one(packed, 11),
        _one(packed, 12),
        _one(packed, 13),
        _two(packed, 14),
        _one(packed, 15),
        _one(packed, 16),
        _one(packed, 17),
        _one(packed, 18),
        _one(packed, 19),
        _one(packed, 20),
        _one(packed, 21),
        _one(packed, 22),
        _one(packed, 23),
        _one(packed, 24),
        _one(packed, 25),
        _one(packed, 26),
        _one(packed, 27),
        _one(packed, 28),
        _two(packed, 29),
        _one(packed, 30),
        _one(packed, 31),
        _one(packed, 32),
        _one(packed, 33),
        _one(packed, 34),
        _one(packed, 35),
        _one(packed, 36),
        _one(packed, 37),
        _one(packed, 38),
        _two(packed, 39),
        _one(packed, 40),
        _two(packed, 41),
        _one(packed, 42),
        _one(packed, 43),
        _one(packed, 44),
        _one(packed, 45),
        _one(packed, 46),
        _one(packed, 47),
    )


@njit(cache=True, inline="always")
def _settle(cand, openp, queue, head, tail, peer_start, peer_list, cg_start, cg_list, dirty):
    """Remove the digit of every cell queued from ``head`` on from its peers, queueing peers
    that become singles, and count one open peer less for each of them. Returns the new queue
    length (cells queued in all), or -1 when a cell runs out."""
    while head < tail:
        cell = queue[head]
        head += 1
        digit = cand[cell]
        if digit == 0:
            return -1
        for k in range(peer_start[cell], peer_start[cell + 1]):
            q = peer_list[k]
            openp[q] -= np.uint64(1)
            m = cand[q]
            if m & digit:
                m &= ~digit
                cand[q] = m
                touch(q, cg_start, cg_list, dirty)
                if m == 0:
                    return -1
                if m & (m - np.uint64(1)) == 0:
                    queue[tail] = q
                    tail += 1
    return tail


@njit(cache=True)
def _arcs(cand, seen, queue, tail, scratch, tab, dirty):
    """Arc consistency of the pair rules, from every cell with arcs whose candidates differ from
    ``seen`` (what they were when its arcs last ran): each partner keeps only the digits some
    candidate of the cell allows beside it (``relations[r, d]``: the partner's digits relation
    ``r`` allows beside digit ``d + 1``), and a partner that loses one is looked at in turn. A
    partner left with one digit is queued to settle, as the other rules queue their singles.

    Returns the new queue length, or -1 when a cell runs out. ``scratch`` is the work list (its
    first N² entries) and a flag per cell saying it is on the list (the next N²), all clear
    between calls."""
    cg_start, cg_list = tab[3], tab[4]
    arc_start, arc_partner, arc_rel, relations = tab[11], tab[12], tab[13], tab[14]
    cells = cand.shape[0]
    one = np.uint64(1)
    top = 0
    for c in range(cells):
        if arc_start[c] < arc_start[c + 1] and cand[c] != seen[c]:
            scratch[top] = c
            scratch[cells + c] = 1
            top += 1
    while top > 0:
        top -= 1
        c = scratch[top]
        scratch[cells + c] = 0
        mine = cand[c]
        seen[c] = mine
        for k in range(arc_start[c], arc_start[c + 1]):
            row = arc_rel[k]
            ok = np.uint64(0)
            rest = mine
            while rest:
                bit = rest & (~rest + one)
                rest ^= bit
                ok |= np.uint64(relations[row, trailing_zeros(bit)])
            p = arc_partner[k]
            theirs = cand[p]
            if theirs & ~ok == 0:
                continue
            theirs &= ok
            cand[p] = theirs
            if theirs == 0:
                for i in range(top):  # leave the flags clear for the next call
                    scratch[cells + scratch[i]] = 0
                return -1
            touch(p, cg_start, cg_list, dirty)
            if theirs & (theirs - one) == 0:
                queue[tail] = p
                tail += 1
            if scratch[cells + p] == 0:
                scratch[top] = p
                scratch[cells + p] = 1
                top += 1
    return tail


@njit(cache=True)
def _propagate(cand, openp, queue, tail, full, tab, dirty, confine, arc_seen, scratch, seq_work):
    """Settle the queue, then the pair rules (:func:`_arcs`, when the model has any), the
    triples and quadruples (each when the model has any; their propagators are in
    :mod:`.propagators`), hidden singles, the sums and cages, the sequences and sandwiches, and
    confinement, to a fixed point: the pure search's rules (with sums and cages, sequences on
    lines of peers, a fixed point at least as strong as the pure search's, which may be
    stronger: their own loops run to their own fixed points). The sums, sequences and
    sandwiches, the costliest, wait for the hidden singles: the same fixed point (on
    "Trollscraper" the same 134 thousand nodes, 2.0 s before them, 1.65 s after), though a
    dead end may be met with other cells settled on the way, which the weighted search counts
    (on "Solver needs SET", 18 cages and its houses' 9-cell leftovers, 0.97 million nodes in
    8.7 s with the sums first, 0.93 million in 7.9 s after).

    ``dirty[g]`` says whether full group ``g`` changed since hidden singles (bit 1) and
    confinement (bit 2) last looked at it and found nothing: only those are looked at again,
    as the pure search does. ``confine`` is scratch for the confinement pass; ``arc_seen`` and
    ``scratch`` are :func:`_arcs`' ``seen`` and ``scratch``, ``seq_work`` the sequences'
    scratch, then the sandwiches' (:mod:`.propagators`).

    Returns whether the state may still have a solution, and the cells settled by propagation
    (beyond the ``tail`` queued by the caller; up to the dead end when there is one).
    """
    (
        peer_start,
        peer_list,
        groups,
        cg_start,
        cg_list,
        conf_a,
        conf_a_len,
        conf_b,
        conf_b_len,
        conf_groups,
        _init,
        _arc_start,
        arc_partner,
        _rel,
        _relations,
        _sum_start,
        _sum_cell,
        _sum_weight,
        sum_goal,
        cage_start,
        _cage_cell,
        _combo_start,
        _combos,
        _clique_start,
        _priority,
        _halve_every,
        seq_start,
        _seq_cell,
        _seq_first,
        _seq_move,
        _seq_accept,
        _seq_room,
        _seq_last,
        sw_start,
        _sw_cell,
        _sw_gap_start,
        _sw_gaps,
        _sw_combo_start,
        _sw_combos,
        tri_cell,
        tri_rel,
        tri_allow,
        qd_start,
        qd_cell,
        qd_need_start,
        qd_digit,
        qd_times,
        _seq_seen,
    ) = tab
    arcs = arc_partner.shape[0] > 0
    sums = sum_goal.shape[0] > 0 or cage_start.shape[0] > 1
    seqs = seq_start.shape[0] > 1
    sandwiches = sw_start.shape[0] > 1
    triples = tri_cell.shape[0] > 0
    # (each triple's flag after the groups', sums', cages', sequences' and sandwiches')
    tri_base = groups.shape[0] + sum_goal.shape[0] + cage_start.shape[0] - 1
    tri_base += seq_start.shape[0] - 1 + sw_start.shape[0] - 1
    quads = qd_start.shape[0] > 1
    quad = (qd_start, qd_cell, qd_need_start, qd_digit, qd_times)
    qd_base = tri_base + tri_cell.shape[0]
    queued = tail
    one = np.uint64(1)
    size = groups.shape[1]
    head = 0
    while True:
        settled = _settle(
            cand, openp, queue, head, tail, peer_start, peer_list, cg_start, cg_list, dirty
        )
        if settled < 0:
            return False, tail - queued
        head = tail = settled
        if arcs:
            settled = _arcs(cand, arc_seen, queue, tail, scratch, tab, dirty)
            if settled < 0:
                return False, tail - queued
            if settled > tail:
                tail = settled
                continue
        if triples:
            settled, changed = propagators.triples(
                cand,
                queue,
                tail,
                dirty,
                tri_base,
                size,
                cg_start,
                cg_list,
                tri_cell,
                tri_rel,
                tri_allow,
            )
            if settled < 0:
                return False, tail - queued
            if changed:
                tail = settled
                continue
        if quads:
            settled, changed = propagators.quadruples(
                cand, queue, tail, dirty, qd_base, cg_start, cg_list, quad, peer_start, peer_list
            )
            if settled < 0:
                return False, tail - queued
            if changed:
                tail = settled
                continue
        # Hidden singles: a digit with one place in a full group goes there.
        start = tail
        for g in range(groups.shape[0]):
            if not dirty[g] & 1:
                continue
            dirty[g] &= 2
            once = np.uint64(0)
            twice = np.uint64(0)
            for i in range(size):
                m = cand[groups[g, i]]
                twice |= once & m
                once |= m
            if once != full:
                return False, tail - queued  # a digit with no place left in the group
            hidden = once & ~twice
            if hidden == 0:
                continue
            for i in range(size):
                c = groups[g, i]
                m = cand[c]
                if m & (m - one) == 0:
                    continue  # settled
                h = m & hidden
                if h:
                    if h & (h - one):
                        return False, tail - queued  # the only place of two digits
                    cand[c] = h
                    touch(c, cg_start, cg_list, dirty)
                    queue[tail] = c
                    tail += 1
        if tail > start:
            continue
        if sums:
            settled, changed = propagators.sums_and_cages(cand, queue, tail, tab, dirty)
            if settled < 0:
                return False, tail - queued
            if changed:
                tail = settled
                continue
        if seqs:
            settled, changed = sequence_propagators.sequences(
                cand, queue, tail, tab, dirty, seq_work
            )
            if settled < 0:
                return False, tail - queued
            if changed:
                tail = settled
                continue
        if sandwiches:
            settled, changed = propagators.sandwiches(cand, queue, tail, tab, dirty, seq_work[3])
            if settled < 0:
                return False, tail - queued
            if changed:
                tail = settled
                continue
        # Confinement: a digit with no place in A outside B is no candidate in B outside A.
        for g in range(groups.shape[0]):
            confine[g] = dirty[g] & 2
            dirty[g] &= 1
        changed = False
        for k in range(conf_a_len.shape[0]):
            if not (confine[conf_groups[k, 0]] or confine[conf_groups[k, 1]]):
                continue
            seen = np.uint64(0)
            for i in range(conf_a_len[k]):
                seen |= cand[conf_a[k, i]]
            confined = full & ~seen
            if confined == 0:
                continue
            for i in range(conf_b_len[k]):
                c = conf_b[k, i]
                m = cand[c]
                if m & confined:
                    m &= ~confined
                    cand[c] = m
                    touch(c, cg_start, cg_list, dirty)
                    changed = True
                    if m == 0:
                        return False, tail - queued
                    if m & (m - one) == 0:
                        queue[tail] = c
                        tail += 1
        if not changed:
            return True, tail - queued


@njit(cache=True)
def _branch_cell(cand, openp, counts, peer_start, peer_list):
    """The cell to branch on, as the pure search chooses it, or -1 when every cell is settled.

    The pure search scores each cell with the fewest candidates by its open peers, then its
    peers with two candidates; open peers are counted as cells settle (``openp``), so only the
    cells tied on them count their peers here."""
    cells = cand.shape[0]
    fewest = np.int64(65)
    for c in range(cells):
        n = np.int64(popcount(cand[c]))  # signed: mixing in unsigned makes numba use floats
        counts[c] = n
        if 1 < n < fewest:
            fewest = n
    if fewest == 65:
        return -1
    most_open = np.int64(-1)
    for c in range(cells):
        if counts[c] == fewest and np.int64(openp[c]) > most_open:
            most_open = np.int64(openp[c])
    best = -1
    cell = -1
    for c in range(cells):
        if counts[c] != fewest or np.int64(openp[c]) != most_open:
            continue
        pair_peers = 0
        for k in range(peer_start[c], peer_start[c + 1]):
            if counts[peer_list[k]] == 2:
                pair_peers += 1
        if pair_peers > best:
            best = pair_peers
            cell = c
    return cell


@njit(cache=True)
def _branch_weighted(cand, counts, weights, groups):
    """The choice to branch on by dom/wdeg, as ``(choice, left)``; ``(-1, 0)`` when every cell is
    settled. The open cell with the fewest candidates per dead end it took part in (``count / (1
    + weight)``, ties to the first in reading order): ``choice`` is the cell and ``left`` its
    candidates. But where that cell has more than two candidates and a digit has two places in a
    full group whose dead ends weigh more (``2 / (1 + the heavier place's weight)`` is less),
    the branch is on those places: ``choice`` is ``-2 - (64 g + d)`` for group ``g`` and digit
    ``d + 1``, and ``left`` the places' positions in the group (ISS weighs such a digit's two
    places so, by the heavier one: sigh/Interactive-Sudoku-Solver,
    js/solver/candidate_selector.js, ``CandidateFinders.House``). ``counts`` gets each cell's
    candidate count, as :func:`_branch_cell` leaves it."""
    one = np.uint64(1)
    best_count = np.int64(1)
    best_weight = np.int64(0)
    cell = -1
    for c in range(cand.shape[0]):
        n = np.int64(popcount(cand[c]))
        counts[c] = n
        if n < 2:
            continue
        w = np.int64(weights[c]) + 1
        if cell < 0 or n * best_weight < best_count * w:
            cell = c
            best_count = n
            best_weight = w
    if cell < 0:
        return -1, np.uint64(0)
    choice = cell
    left = cand[cell]
    if best_count <= 2:
        return choice, left
    size = groups.shape[1]
    for g in range(groups.shape[0]):
        once = np.uint64(0)
        twice = np.uint64(0)
        thrice = np.uint64(0)
        for i in range(size):
            m = cand[groups[g, i]]
            if counts[groups[g, i]] < 2:
                m = np.uint64(0)  # a settled digit has no place to choose
            thrice |= twice & m
            twice |= once & m
            once |= m
        pairs = twice & ~thrice
        while pairs:
            bit = pairs & (~pairs + one)
            pairs ^= bit
            heavier = np.int64(0)
            places = np.uint64(0)
            for i in range(size):
                c = groups[g, i]
                if cand[c] & bit and counts[c] >= 2:
                    places |= one << np.uint64(i)
                    heavier = max(heavier, np.int64(weights[c]))
            heavier += 1
            if 2 * best_weight < best_count * heavier:
                best_count = np.int64(2)
                best_weight = heavier
                choice = -2 - (64 * g + np.int64(trailing_zeros(bit)))
                left = places
    return choice, left


@njit(cache=True)
def _record(cand, sols, ctrl):
    row = ctrl[IN_BUFFER]
    for c in range(cand.shape[0]):
        sols[row, c] = trailing_zeros(cand[c]) + 1
    ctrl[IN_BUFFER] = row + 1
    ctrl[FOUND] += 1


@njit(cache=True)
def run(digits, packed, frames, frame_cell, frame_left, work, sols, ctrl):
    """Search, or go on searching, until one of the statuses above; returns it.

    ``digits`` are the givens (0 blank); ``packed`` the model's tables (see the glue's
    ``Tables``); ``ctrl`` holds the counters, and the limit and node budget the caller sets.
    ``frames[i]`` is the state (fixed point) at depth ``i``, ``frame_cell[i]`` the cell it
    branches on and ``frame_left[i]`` the digits not yet tried; ``work`` is the state being
    propagated. A state is 2 N² words: each cell's candidates, then its open peers.

    A model with digit rules starts each cell from its mask (``init``, none when it has no such
    rules); one with pair rules keeps them arc consistent (:func:`_arcs`).
    """
    tab = _unpack(packed)
    size = packed[0]
    full = ~np.uint64(0) if size == 64 else (np.uint64(1) << np.uint64(size)) - np.uint64(1)
    limit = ctrl[LIMIT_AT]
    peer_start = tab[0]
    peer_list = tab[1]
    ngroups = tab[2].shape[0]
    cells = digits.shape[0]
    cand = work[:cells]  # a state is the candidates, then each cell's open peers
    state = 2 * cells
    openp = work[cells:state]
    weighted = work.shape[0] > state
    weights = work[state:]  # dead ends per cell, when the search weighs them (not in a state)
    queue = np.empty(cells, dtype=np.int32)
    counts = np.empty(cells, dtype=np.int64)
    # (the full groups' flags, then each sum's, each cage's and each sequence's)
    nseqs = tab[26].shape[0] - 1
    nlines = nseqs + tab[33].shape[0] - 1  # the sequences', then the sandwiches'
    nlines += tab[39].shape[0] + tab[42].shape[0] - 1  # (then the triples', the quadruples')
    dirty = np.empty(ngroups + tab[18].shape[0] + tab[19].shape[0] - 1 + nlines, dtype=np.uint8)
    confine = np.empty(ngroups, dtype=np.uint8)
    init = tab[10]
    halve_every = np.int64(tab[25][0])
    arcs = tab[12].shape[0] > 0
    seen = np.zeros(cells if arcs else 0, dtype=np.uint64)
    scratch = np.zeros(2 * cells if arcs else 0, dtype=np.int32)
    longest = 0
    for r in range(nseqs):
        longest = max(longest, tab[26][r + 1] - tab[26][r])
    seq_work = (
        np.empty(tab[31][0] if nseqs else 0, dtype=np.int32),
        np.empty(longest + 2 if nseqs else 0, dtype=np.int32),
        np.zeros(tab[29].shape[0], dtype=np.int32),
        np.zeros(size if tab[33].shape[0] > 1 else 0, dtype=np.uint64),  # (sandwiches')
        np.zeros((2, size + 1, size + 1) if tab[47].any() else (2, 0, 0), dtype=np.uint64),
    )
    if ctrl[STARTED] == 0:
        ctrl[:STARTED] = 0
        ctrl[STARTED] = 1
        tail = 0
        for c in range(cells):
            d = digits[c]
            openp[c] = peer_start[c + 1] - peer_start[c]
            m = np.uint64(1) << np.uint64(d - 1) if d else full
            if init.shape[0]:
                m &= np.uint64(init[c])  # a given its digit rule forbids: an empty cell
            cand[c] = m
            if m & (m - np.uint64(1)) == 0:  # a given, a single or none: settled (or failed)
                queue[tail] = c
                tail += 1
        dirty[:] = 3
        ok, settled = _propagate(
            cand, openp, queue, tail, full, tab, dirty, confine, seen, scratch, seq_work
        )
        ctrl[PROPAGATIONS] += settled
        if not ok:
            ctrl[BACKTRACKS] += 1
            return DONE
        if weighted:
            weights[:] = 0
            priority = tab[24]  # (none without sums and cages)
            for c in range(priority.shape[0]):
                weights[c] = priority[c]
            cell, left = _branch_weighted(cand, counts, weights, tab[2])
        else:
            cell = _branch_cell(cand, openp, counts, peer_start, peer_list)
            left = cand[cell] if cell >= 0 else np.uint64(0)
        if cell == -1:
            _record(cand, sols, ctrl)
            return LIMIT if limit and ctrl[FOUND] >= limit else DONE
        frames[0, :state] = work[:state]
        frame_cell[0] = cell
        frame_left[0] = left
        ctrl[NODES] += popcount(left)
        ctrl[DEPTH] = 1
    stop = ctrl[NODES] + ctrl[BUDGET]
    depth = ctrl[DEPTH]
    while depth > 0:
        top = depth - 1
        left = frame_left[top]
        if left == 0:
            depth -= 1
            continue
        if depth == frames.shape[0]:
            ctrl[DEPTH] = depth
            return STACK_FULL
        if ctrl[NODES] >= stop:
            ctrl[DEPTH] = depth
            return PAUSED
        bit = left & (~left + np.uint64(1))
        frame_left[top] = left ^ bit
        work[:state] = frames[top, :state]
        cell = frame_cell[top]
        if cell >= 0:
            cand[cell] = bit
        else:  # a digit's place in a group (see _branch_weighted)
            choice = -2 - cell
            cell = tab[2][choice >> 6, trailing_zeros(bit)]
            cand[cell] = np.uint64(1) << np.uint64(choice & 63)
        queue[0] = cell
        dirty[:] = 0  # the frame is a fixed point: only what changes from here is new
        if arcs:
            seen[:] = frames[top, :cells]
        touch(cell, tab[3], tab[4], dirty)
        ok, settled = _propagate(
            cand, openp, queue, 1, full, tab, dirty, confine, seen, scratch, seq_work
        )
        ctrl[PROPAGATIONS] += settled
        if not ok:
            ctrl[BACKTRACKS] += 1
            if weighted:
                # The dead end counts three against the cell branched on and one against
                # every cell its propagation settled on the way. ISS counts a dead end against
                # the cell it set last, forced singles too (sigh/Interactive-Sudoku-Solver,
                # js/solver/engine.js, run: conflictScores.increment(cell, value)). Over the
                # 230 bundled rule puzzles the kernel takes (geometric mean of nodes on the 94
                # of more than 50, against the branched cell alone): the last settled cell
                # alone 0.99, the branched cell and the last settled 0.78, the branched cell
                # and every settled one 0.78, the branched cell counting 2, 3 or 4 with every
                # settled one 0.69, 0.67 and 0.69. At 3: 36 puzzles 1.5x better, 5 worse;
                # the decided ones' nodes 2.30 -> 0.93 million, Hard renban 2 decided.
                weights[cell] += np.uint64(3)
                for k in range(1, settled + 1):
                    weights[queue[k]] += np.uint64(1)
                if ctrl[BACKTRACKS] % halve_every == 0:  # recent dead ends count most
                    for c in range(cells):
                        weights[c] >>= np.uint64(1)
            continue
        if weighted:
            cell, left = _branch_weighted(cand, counts, weights, tab[2])
        else:
            cell = _branch_cell(cand, openp, counts, peer_start, peer_list)
            left = cand[cell] if cell >= 0 else np.uint64(0)
        if cell == -1:
            _record(cand, sols, ctrl)
            if limit and ctrl[FOUND] >= limit:
                ctrl[DEPTH] = depth
                return LIMIT
            if ctrl[IN_BUFFER] == sols.shape[0]:
                ctrl[DEPTH] = depth
                return BUFFER_FULL
            continue
        frames[depth, :state] = work[:state]
        frame_cell[depth] = cell
        frame_left[depth] = left
        ctrl[NODES] += popcount(left)
        depth += 1
    ctrl[DEPTH] = 0
    return DONE


@njit(cache=True)
def count_many(puzzles, limit, node_limit, packed, counts_out, first_out, nodes_out):
    """Many puzzles (one a row of ``puzzles``) in one call: each one's solution count up to
    ``limit`` (-1 when ``node_limit`` nodes did not settle it), its first solution and its
    nodes. The stack of frames starts small and doubles when a search goes deeper."""
    cells = puzzles.shape[1]
    depth = min(cells + 1, 64)
    frames = np.empty((depth, 2 * cells), dtype=np.uint64)
    frame_cell = np.empty(depth, dtype=np.int64)
    frame_left = np.empty(depth, dtype=np.uint64)
    work = np.empty(2 * cells, dtype=np.uint64)
    sols = np.zeros((1, cells), dtype=np.uint8)
    ctrl = np.zeros(CTRL_SIZE, dtype=np.int64)
    ctrl[LIMIT_AT] = limit
    for p in range(puzzles.shape[0]):
        ctrl[STARTED] = 0
        status = BUFFER_FULL
        while status == BUFFER_FULL or status == STACK_FULL:  # noqa: SIM109 (kept simple for numba)
            if status == STACK_FULL:
                depth = frames.shape[0]
                grown = np.empty((2 * depth, 2 * cells), dtype=np.uint64)
                grown[:depth] = frames
                frames = grown
                grown_cell = np.empty(2 * depth, dtype=np.int64)
                grown_cell[:depth] = frame_cell
                frame_cell = grown_cell
                grown_left = np.empty(2 * depth, dtype=np.uint64)
                grown_left[:depth] = frame_left
                frame_left = grown_left
            if ctrl[NODES] >= node_limit:
                status = PAUSED
                break
            ctrl[BUDGET] = node_limit - ctrl[NODES]
            status = run(puzzles[p], packed, frames, frame_cell, frame_left, work, sols, ctrl)
            if ctrl[FOUND] == 1 and ctrl[IN_BUFFER] == 1:
                first_out[p, :] = sols[0]
            ctrl[IN_BUFFER] = 0
        counts_out[p] = -1 if status == PAUSED else ctrl[FOUND]
        nodes_out[p] = ctrl[NODES]
