"""The storage of one SE chaining (``Chaining.doChaining``) in the compiled forcing chains
(:mod:`.forcing`, :mod:`.plus`), numba: a *slot* of arrays holds a run — the potentials it
turned on and off, each list in the order found, each potential's place in its list (-1: not
reached), each entry's parents in a pool, and the contradiction that stopped it. A potential
is ``(cell * 10 + digit) * 2 + on``, as in the plain code."""

from __future__ import annotations

from ....jit import njit

KEYS = 81 * 10 * 2
SLOTS = 19
"""A run per digit's on (0..8), the current digit's off (9), the other places of a digit in a
region (10..17), and one spare."""
POOL = 2 * 729 * 17 + 64
"""Parents a run may keep in all: 729 ons and 729 offs at most, each with at most 17 parents
(its cause, and up to 8 hidden parents of its region or 7 of its cell; an off from a level-1
rule, at most 14), and the contradiction's unkept potential's; also the depth of the
ancestry walk's stack, which holds at most these and the first potential's."""


@njit(cache=True)
def clear_run(slot, pos_on, pos_off, list_on, list_off, counts):
    """Empty the slot for a new run (only the entries it used are reset)."""
    for i in range(counts[slot, 0]):
        pos_on[slot, list_on[slot, i]] = -1
    for i in range(counts[slot, 1]):
        pos_off[slot, list_off[slot, i]] = -1
    counts[slot, 0] = 0
    counts[slot, 1] = 0
    counts[slot, 2] = 0  # pool used
    counts[slot, 3] = 0  # absurd: 0 none, else 1


@njit(cache=True)
def add_potential(slot, key, on, pos_on, pos_off, list_on, list_off, par, pool, counts, parents, n):
    """Put ``key`` in the slot's on or off list with ``parents[:n]``."""
    p = counts[slot, 2]
    for i in range(n):
        pool[slot, p + i] = parents[i]
    if on:
        i = counts[slot, 0]
        list_on[slot, i] = key
        pos_on[slot, key] = i
        par[slot, 0, i, 0] = p
        par[slot, 0, i, 1] = n
        counts[slot, 0] = i + 1
    else:
        i = counts[slot, 1]
        list_off[slot, i] = key
        pos_off[slot, key] = i
        par[slot, 1, i, 0] = p
        par[slot, 1, i, 1] = n
        counts[slot, 1] = i + 1
    counts[slot, 2] = p + n


@njit(cache=True)
def record_absurd(slot, on_key, off_key, pool, counts, absurd, parents, n, stored_on):
    """Record the contradiction: ``on_key`` and ``off_key`` both reached; the one not stored in
    the run (the off when ``stored_on``, else the on) has ``parents[:n]``, kept in the pool."""
    p = counts[slot, 2]
    for i in range(n):
        pool[slot, p + i] = parents[i]
    counts[slot, 2] = p + n
    counts[slot, 3] = 1
    absurd[slot, 0] = on_key
    absurd[slot, 1] = off_key
    absurd[slot, 2] = p
    absurd[slot, 3] = n
    absurd[slot, 4] = 1 if stored_on else 0
