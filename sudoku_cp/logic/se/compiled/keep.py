"""What the compiled forcing search keeps of each hint in its every mode
(:func:`.forcing.every_records`, read by the nested chains: :mod:`.nested`): the hint's
removals as offs of an outer chaining, the candidates that chaining took out which the hint's
``basis`` read (its parents), and each of its chains' potentials (its identity) — what
``forcing._advanced`` reads of a hint of ``forcing._producer(kind, every=True)``. The runs the
hint's chains end in are :mod:`.runs`' slots.
"""

from __future__ import annotations

import numpy as np

from ....jit import njit
from ..grid import REGIONS
from ..step import REGION_OF
from .plus import room
from .rules import COUNT

REGION_INDEX = np.array(REGION_OF, dtype=np.int64)
"""Each cell's block, row and column index."""
CELL_REGION_CELLS = np.array(
    [[REGIONS[k][REGION_OF[c][k]] for k in range(3)] for c in range(81)], dtype=np.int64
)
"""Each cell's block, row and column (in that order), their cells in SE's order."""


@njit(cache=True)
def _gone(cell, mask, outer0, cands, mark, stamp, found, n):
    """The candidates of ``mask`` in ``cell`` gone from the outer chaining's grid since it
    began (``outer0`` then, ``cands`` now), each an off appended to ``found`` unless marked
    with ``stamp``; the new count."""
    gone = mask & outer0[cell] & ~cands[cell]
    for v in range(1, 10):
        if gone >> v & 1:
            k = (cell * 10 + v) * 2
            if mark[k] != stamp:
                mark[k] = stamp
                found[n] = k
                n += 1
    return n


@njit(cache=True)
def _gone_region(from_cell, kind, bit, outer0, cands, mark, stamp, found, n):
    """:func:`_gone` of digit ``bit`` in each cell of ``from_cell``'s region ``kind``."""
    for i in range(9):
        n = _gone(CELL_REGION_CELLS[from_cell, kind, i], bit, outer0, cands, mark, stamp, found, n)
    return n


@njit(cache=True)
def link_region(key, from_cell, cands, hidden, n_hidden, dynamic):
    """The region a link to ``key`` (reached from a potential of ``from_cell``, in another
    cell) read, of ``from_cell``'s block, row, column (0..2; -1 none): an "on" in a dynamic
    chaining (``forcing._dynamic_basis``) the first holding both cells where the digit's
    places on the search's grid, less the ``hidden`` cells, are those two; in a static one
    (``chains.link_basis``) the first where the digit has two places; an "off" (static) the
    first holding both."""
    cell = key // 20
    bit = 1 << (key // 2 % 10)
    for kind in range(3):
        if REGION_INDEX[cell, kind] != REGION_INDEX[from_cell, kind]:
            continue
        if not key & 1:
            return kind  # (static: an "off" reads the first region holding both)
        count = 0
        both = 0
        for i in range(9):
            c = CELL_REGION_CELLS[from_cell, kind, i]
            if not cands[c] & bit:
                continue
            if dynamic:
                is_hidden = False
                for j in range(n_hidden):
                    if hidden[j] == c:
                        is_hidden = True
                if is_hidden:
                    continue
            count += 1
            both += (c == cell) + (c == from_cell)
        if count == 2 and (both == 2 or not dynamic):
            return kind
    return -1


@njit(cache=True)
def stored_pair(pairs, j, slot, key):
    """Chain ``j`` of a hint: ``key`` as the run in ``slot`` keeps it."""
    pairs[j, 0] = slot
    pairs[j, 1] = key
    pairs[j, 2] = -1
    pairs[j, 3] = 0


@njit(cache=True)
def absurd_pairs(slot, absurd, pairs):
    """The two chains of the contradiction the run in ``slot`` met: the on and the off, the
    one the run did not keep with its parents (``record_absurd``)."""
    on_key, off_key = absurd[slot, 0], absurd[slot, 1]
    stored_pair(pairs, 0, slot, on_key)
    stored_pair(pairs, 1, slot, off_key)
    unkept = 1 if absurd[slot, 4] else 0
    pairs[unkept, 2] = absurd[slot, 2]
    pairs[unkept, 3] = absurd[slot, 3]


@njit(cache=True)
def keep_hint(
    cands,
    outer0,
    dynamic,
    sort_key,
    key,
    cx,
    origin_cell,
    origin,
    origin_value,
    n_pairs,
    pairs,
    pos_on,
    pos_off,
    par,
    pool,
    seen,
    stamps,
    stack,
    scratch,
    starts,
    store,
    counts,
):
    """Keep one hint of an every-hint search (``forcing._producer(kind, every=True)``, as
    ``forcing._advanced`` reads it on the grid ``cands`` of an outer chaining that began on
    ``outer0``) when it gives that chaining something: its removals as offs, their parents
    (what its ``basis`` read that the outer chaining took out: ``origin``'s cells — the
    region 0..2 of ``origin_cell`` (the searched cell), digit ``origin_value``, that cell
    3, or none -1 — and each
    chain's links, as
    ``_dynamic_basis`` or ``_static_basis`` reads them), and its identity (each chain's
    potentials, ascending). Chain ``i`` ends at ``pairs[i, 1]`` in the run in slot
    ``pairs[i, 0]``, reached from ``pool[slot, pairs[i, 2] :][: pairs[i, 3]]`` (``pairs[i,
    2]`` -1: the run's own parents). Hint ``counts[0]`` goes at ``store[counts[1]]``
    (``starts`` says where): ``[complexity, sort key, n, parents…, m, offs…, target, chains,
    (length, potentials…) a chain]``. ``scratch``: ``[marks, found, chains]``, each
    ``9 * (KEYS + 1)`` long. The parents' order is not SE's (a set is what a run reads).
    Returns (starts, store), grown when they had no room."""
    cell = key // 20
    value = key // 2 % 10
    rest = cands[cell] & ~(1 << value) if key & 1 else 1 << value
    if rest == 0:
        return starts, store
    mark, found, chains = scratch[0], scratch[1], scratch[2]
    hidden = np.empty(20, dtype=np.int64)
    stamps[0] += 1
    stamp = stamps[0]  # the parents found, marked in ``mark``
    n = 0
    if origin == 3:
        n = _gone(origin_cell, 0x3FE, outer0, cands, mark, stamp, found, n)
    elif origin >= 0:
        n = _gone_region(
            origin_cell, origin, 1 << origin_value, outer0, cands, mark, stamp, found, n
        )
    at = 0
    for j in range(n_pairs):
        slot, start, ps, pn = pairs[j, 0], pairs[j, 1], pairs[j, 2], pairs[j, 3]
        if ps < 0:
            i = pos_on[slot, start] if start & 1 else pos_off[slot, start]
            side = 0 if start & 1 else 1
            ps, pn = par[slot, side, i, 0], par[slot, side, i, 1]
        # the chain's potentials (_Run.ancestry), each met once (``seen`` marks)
        stamps[0] += 1
        walk = stamps[0]
        count = 0
        top = 0
        k = start
        kp, kn = ps, pn
        while True:
            seen[k] = walk
            chains[at + 1 + count] = k
            count += 1
            for q in range(kn):
                stack[top] = pool[slot, kp + q]
                top += 1
            if k & 1 and kn:  # an "on" with a cause: what its link read
                from_cell = pool[slot, kp] // 20
                kc = k // 20
                if from_cell == kc:
                    n = _gone(kc, 0x3FE, outer0, cands, mark, stamp, found, n)
                else:
                    nh = 0
                    if dynamic:  # the hidden parents' cells
                        for q in range(1, kn):
                            hidden[nh] = pool[slot, kp + q] // 20
                            nh += 1
                    kind = link_region(k, from_cell, cands, hidden, nh, dynamic)
                    if kind >= 0:
                        bit = 1 << (k // 2 % 10)
                        n = _gone_region(from_cell, kind, bit, outer0, cands, mark, stamp, found, n)
            k = -1
            while top:
                top -= 1
                if seen[stack[top]] != walk:
                    k = stack[top]
                    break
            if k < 0:
                break
            side = 0 if k & 1 else 1
            i = pos_on[slot, k] if k & 1 else pos_off[slot, k]
            kp, kn = par[slot, side, i, 0], par[slot, side, i, 1]
        chains[at] = count
        chains[at + 1 : at + 1 + count].sort()
        at += 1 + count
    if n == 0:
        return starts, store
    m = COUNT[rest]
    used = counts[1]
    starts = room(starts, counts[0] + 1)
    store = room(store, used + 9 + n + m + at)
    starts[counts[0]] = used
    counts[0] += 1
    store[used] = cx
    store[used + 1] = sort_key
    store[used + 2] = n
    store[used + 3 : used + 3 + n] = found[:n]
    used += 3 + n
    store[used] = m
    used += 1
    for v in range(1, 10):
        if rest >> v & 1:
            store[used] = (cell * 10 + v) * 2
            used += 1
    store[used] = key
    store[used + 1] = n_pairs
    used += 2
    store[used : used + at] = chains[:at]
    counts[1] = used + at
    return starts, store
