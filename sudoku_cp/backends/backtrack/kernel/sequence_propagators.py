"""The generic compiled kernel's sequence rules (skyscrapers, X-sums, digit-root cages …, and
sandwiches on lines that are no group): each kept consistent on its automaton over the line's
cells (:func:`sequences`, over :mod:`.sequence_tables`' tables), and a skyscraper along a full
group over its digits' places too (:func:`seen_by_digit`). :func:`~.generic._propagate` calls
:func:`sequences`.

This module imports numba: import it only to solve (see the glue).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ....jit import njit
from .propagators import narrow


@njit(cache=True)
def _forget(members, top, mark):
    """Clear the marks of the states listed in ``members[:top]`` (live ones are listed as
    ``-1 - state``)."""
    for k in range(top):
        s = members[k]
        mark[s if s >= 0 else -1 - s] = 0


@njit(cache=True)
def sequences(cand, queue, tail, tab, dirty, seq_work):
    """The sequence rules whose cells changed (``dirty`` after the sums' and cages'), each kept
    generalised arc consistent on its automaton (model_tables' ``SequenceArrays``), as
    :class:`~sudoku_cp.backends.backtrack.shapes.SequencePropagator` keeps it: forwards, the
    states reachable at each position over the cells' candidates; backwards, of those, the
    ones from which an accepting state is still reachable (live); each cell keeps the digits
    that lead from a state of its position to a live state of the next. A state stands only up
    to its last position (``seq_last``: on a line of peers, the largest digit read so far).
    The two passes make the rule's own fixed point (its cells are all different), so one pass
    a rule.

    ``seq_work`` starts ``(members, layer_at, mark)``: the states of each layer, listed one layer
    after the other (``members[layer_at[i]:layer_at[i + 1]]`` for position ``i``), and a mark
    per state, 0 between calls (``i + 1``: met at position ``i``, or live there).

    Returns the new queue length (-1 at a dead end) and whether a candidate went."""
    cg_start, cg_list = tab[3], tab[4]
    seq_start, seq_cell, seq_first = tab[26], tab[27], tab[28]
    seq_move, seq_accept, seq_last = tab[29], tab[30], tab[32]
    seen = tab[47]  # (skyscrapers along full groups: their clue; see seen_by_digit)
    members, layer_at, mark = seq_work[0], seq_work[1], seq_work[2]
    base = tab[2].shape[0] + tab[18].shape[0] + tab[19].shape[0] - 1
    one = np.uint64(1)
    changed = False
    for r in range(seq_start.shape[0] - 1):
        if not dirty[base + r]:
            continue
        a = seq_start[r]
        length = seq_start[r + 1] - a
        members[0] = seq_first[r]
        layer_at[0] = 0
        layer_at[1] = 1
        top = 1
        # Forwards: the states each position's digits lead to (mark: the position met at).
        for i in range(length):
            m = cand[seq_cell[a + i]]
            stamp = i + 2
            for k in range(layer_at[i], layer_at[i + 1]):
                s = members[k]
                rest = m
                while rest:
                    bit = rest & (~rest + one)
                    rest ^= bit
                    t = seq_move[s, trailing_zeros(bit)]
                    if t >= 0 and seq_last[t] > i and mark[t] != stamp:
                        mark[t] = stamp
                        members[top] = t
                        top += 1
            layer_at[i + 2] = top
            if top == layer_at[i + 1]:
                _forget(members, top, mark)
                return -1, changed
        _forget(members, top, mark)
        # Backwards: a state is live when it accepts at the end, or a digit of its position
        # leads from it to a live state (mark: the position it is live at, plus one).
        alive = False
        for k in range(layer_at[length], layer_at[length + 1]):
            s = members[k]
            if seq_accept[s]:
                mark[s] = length + 1
                alive = True
        if not alive:
            _forget(members, top, mark)
            return -1, changed
        for i in range(length - 1, -1, -1):
            cell = seq_cell[a + i]
            m = cand[cell]
            keep = np.uint64(0)
            for k in range(layer_at[i], layer_at[i + 1]):
                s = members[k]
                rest = m
                live = False
                while rest:
                    bit = rest & (~rest + one)
                    rest ^= bit
                    t = seq_move[s, trailing_zeros(bit)]
                    if t >= 0 and mark[t] == i + 2:
                        keep |= bit
                        live = True
                if live:
                    members[k] = -1 - s
            # (marked once the whole layer is read: a state may be in the next layer too)
            for k in range(layer_at[i], layer_at[i + 1]):
                s = members[k]
                if s < 0:
                    mark[-1 - s] = i + 1
            if keep != m:
                tail = narrow(cell, keep, cand, queue, tail, cg_start, cg_list, dirty)
                if tail < 0:
                    _forget(members, top, mark)
                    return -1, changed
                changed = True
        _forget(members, top, mark)
        if 0 < seen[r] < seq_work[4].shape[2]:  # (seen_clues gives counts up to N only)
            work = seq_work[4]
            tail, pruned = seen_by_digit(
                cand, queue, tail, seq_cell, a, length, seen[r], work, cg_start, cg_list, dirty
            )
            if tail < 0:
                return -1, changed
            if pruned:  # (left marked: the automaton reads the cells again next round)
                changed = True
                continue
        dirty[base + r] = 0  # at its own fixed point (its own prunings marked it again)
    return tail, changed


@njit(cache=True)
def seen_by_digit(cand, queue, tail, cells, a, n, clue, work, cg_start, cg_list, dirty):
    """A skyscraper along a full group (``cells[a : a + n]`` from its clue, each digit once)
    kept consistent over where its digits go, tallest first: a digit is seen when it stands
    nearer the clue than every taller one, so the nearest place taken so far and the count
    seen so far are all a state needs. ``clue`` buildings seen and the nearest place 0 at the
    end; after ``k`` digits the nearest place is at most ``n - k`` (they take ``k`` places).
    Forwards, the states each digit's places lead to; backwards, those still ending well; a
    digit leaves a place that leads from no such state to another. The places' being
    different is left to the group, so this is the rule's fixed point over its digits' places
    as the automaton over the cells (:func:`sequences`) is over the cells' digits, blind to
    their being different: on "Trollscraper" the column with clue 2 whose 8 can only stand
    after its 9 leaves the 9 one place, which neither the automaton nor ISS's handler sees.

    ``work`` is scratch of at least ``(2, n + 1, clue + 1)`` words: the states per digit and
    count seen, as masks of the nearest place (bit ``n``: none yet), forwards then live.
    Returns the new queue length (-1 at a dead end) and whether a candidate went."""
    one = np.uint64(1)
    fwd = work[0]
    live = work[1]
    for k in range(n + 1):
        for v in range(clue + 1):
            fwd[k, v] = 0
            live[k, v] = 0
    fwd[0, 0] = one << np.uint64(n)
    for k in range(1, n + 1):
        bit = one << np.uint64(n - k)  # digit n - k + 1: the tallest left
        for p in range(n):
            if not cand[cells[a + p]] & bit:
                continue
            place = one << np.uint64(p)
            nearer = place - one
            farther = ~(nearer | place)
            for v in range(clue + 1):
                s = fwd[k - 1, v]
                if s == 0:
                    continue
                fwd[k, v] |= s & nearer  # hidden: a taller one stands nearer
                if v < clue and s & farther:
                    fwd[k, v + 1] |= place  # seen: nearer than every taller one
        cap = (one << np.uint64(n - k + 1)) - one
        reached = False
        for v in range(clue + 1):
            fwd[k, v] &= cap
            if fwd[k, v]:
                reached = True
        if not reached:
            return -1, False
    if not fwd[n, clue] & one:
        return -1, False
    live[n, clue] = one
    pruned = False
    for k in range(n, 0, -1):
        bit = one << np.uint64(n - k)
        for p in range(n):
            cell = cells[a + p]
            if not cand[cell] & bit:
                continue
            place = one << np.uint64(p)
            nearer = place - one
            farther = ~(nearer | place)
            used = False
            for v in range(clue + 1):
                s = fwd[k - 1, v]
                if s == 0:
                    continue
                stay = s & nearer & live[k, v]
                if stay:
                    live[k - 1, v] |= stay
                    used = True
                if v < clue and live[k, v + 1] & place:
                    up = s & farther
                    if up:
                        live[k - 1, v] |= up
                        used = True
            if not used:
                tail = narrow(cell, ~bit, cand, queue, tail, cg_start, cg_list, dirty)
                if tail < 0:
                    return -1, pruned
                pruned = True
    return tail, pruned
