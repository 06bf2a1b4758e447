"""SE's solve loop over the compiled producers (numba): :func:`run` applies the first step of
the first producer with one, in SE's order (``rating.PRODUCERS``), as long as that producer is
compiled, and hands back to Python at the first producer that is not.

Each step applied is written to a log, one record after the other: the producer's index, the
name (an index into that producer's module's ``NAMES``), the difficulty in tenths, the placed
cell (-1 none) and digit, the removal count, then the (cell, mask) pairs.
"""

from __future__ import annotations

import numpy as np

from ....jit import njit
from . import OUT_SIZE, keep, nested, plus, runs
from . import aligned as a
from . import chains as c
from . import forcing as f
from . import rules as r
from . import uniqueness as u
from .rules import PEER

PRODUCER_COUNT = 32
"""Indexes past the last compiled producer (any index not compiled hands back to Python)."""
COMPILED = tuple(range(26))
"""The producers (indexes in ``rating.PRODUCERS``) :func:`call` runs: every one but the nested
forcing chains (levels 2 to 4)."""
NAMES = {
    **{p: r.NAMES for p in range(14)},
    14: u.NAMES,
    **{p: r.NAMES for p in (15, 16, 17)},
    18: u.BUG_NAMES,
    19: a.NAMES,
    20: c.NAMES,
    21: a.NAMES,
    **{p: f.NAMES for p in (22, 23, 24, 25)},
}
"""The names a compiled producer's step name indexes."""
NESTED_FROM = 26
"""The nested forcing chains (levels 2 to 4): plain producers whose chainings read the rules
:mod:`.nested` compiles (``door.nested_rules``)."""
SOURCES = (a, c, f, keep, nested, plus, r, runs, u)
"""The modules compiled into :func:`run`, and :mod:`.nested` (the nested chains' compiled
rules, asked by the plain nested producers: ``nested.advanced_offs``)."""
SLOW_FROM = 19
"""Producers from this index on (aligned exclusion, the chains) may take milliseconds a call:
:func:`run` hands back after each of their steps, so that the clock is read between them."""
LOG_SIZE = 16 * 1024
RECORD_MAX = 6 + 2 * 729
"""The most a record takes in the log."""


@njit(cache=True)
def call(p, values, cands, out):
    """Producer ``p``'s first step into ``out`` (the contract of
    :mod:`sudoku_cp.logic.se.compiled`): its difficulty, 0.0 none, -1.0 not compiled. Each
    producer is one of a few generic searches with its parameters, so that each search is
    compiled once."""
    if p == 0:
        return r.hidden_single(values, cands, out)
    if p == 1:
        return r.locking_step(values, cands, out, True)
    if p == 2:
        return r.hidden_set_step(values, cands, out, 2, True, r.DIRECT_HIDDEN_PAIR, 2.0)
    if p == 3:
        return r.naked_single(values, cands, out)
    if p == 4:
        return r.hidden_set_step(values, cands, out, 3, True, r.DIRECT_HIDDEN_TRIPLET, 2.5)
    if p == 5:
        return r.locking_step(values, cands, out, False)
    if p == 6:
        return r.naked_set_step(values, cands, out, 2, r.NAKED_PAIR, 3.0)
    if p == 7:
        return r.fish_step(values, cands, out, 2, r.X_WING, 3.2)
    if p == 8:
        return r.hidden_set_step(values, cands, out, 2, False, r.HIDDEN_PAIR, 3.4)
    if p == 9:
        return r.naked_set_step(values, cands, out, 3, r.NAKED_TRIPLET, 3.6)
    if p == 10:
        return r.fish_step(values, cands, out, 3, r.SWORDFISH, 3.8)
    if p == 11:
        return r.hidden_set_step(values, cands, out, 3, False, r.HIDDEN_TRIPLET, 4.0)
    if p == 12:
        return r.xy_wing_step(values, cands, out, False)
    if p == 13:
        return r.xy_wing_step(values, cands, out, True)
    if p == 14:
        return u.unique_loops(values, cands, out)
    if p == 15:
        return r.naked_set_step(values, cands, out, 4, r.NAKED_QUAD, 5.0)
    if p == 16:
        return r.fish_step(values, cands, out, 4, r.JELLYFISH, 5.2)
    if p == 17:
        return r.hidden_set_step(values, cands, out, 4, False, r.HIDDEN_QUAD, 5.4)
    if p == 18:
        return u.bug(values, cands, out)
    if p == 19:
        return a.aligned_pair_exclusion(values, cands, out)
    if p == 20:
        return c.forcing_chains_cycles(values, cands, out)
    if p == 21:
        return a.aligned_triplet_exclusion(values, cands, out)
    if p == 22:
        return f.search(values, cands, out, f.NISHIO)
    if p == 23:
        return f.search(values, cands, out, f.MULTIPLE)
    if p == 24:
        return f.search(values, cands, out, f.DYNAMIC)
    if p == 25:
        return f.search(values, cands, out, f.PLUS)
    return -1.0


@njit(cache=True)
def apply(values, cands, cell, value, removals, count):
    """SE's ``IndirectHint.apply``: the removals (``removals[2 i]`` a cell, ``[2 i + 1]`` its
    mask), then the placement (``cell`` -1: none) with its digit cleared from the peers."""
    for i in range(count):
        cands[removals[2 * i]] &= ~removals[2 * i + 1]
    if cell >= 0:
        values[cell] = value
        cands[cell] = 0
        bit = ~(1 << value)
        for j in range(20):
            cands[PEER[cell, j]] &= bit


@njit(cache=True)
def initial(values, cands):
    """SE's ``Solver.rebuildPotentialValues``: every digit in an empty cell, less its filled
    peers' digits."""
    for cell in range(81):
        cands[cell] = 0 if values[cell] else 0b1111111110
    for cell in range(81):
        if values[cell]:
            bit = ~(1 << values[cell])
            for j in range(20):
                cands[PEER[cell, j]] &= bit


@njit(cache=True)
def run(values, cands, first, max_steps, log):
    """Steps from producer ``first`` on (then from 0 after each step), at most ``max_steps``.
    Returns (steps logged, where it stopped, log entries written); where it stopped: -1 solved,
    or ``max_steps`` reached, or the log full, or a step from :data:`SLOW_FROM` on taken; a
    producer's index when that producer is not compiled (Python asks it next, on the grid as
    left); :data:`PRODUCER_COUNT` when no producer has a step."""
    out = np.zeros(OUT_SIZE, dtype=np.int64)
    pos = 0
    steps = 0
    p = first
    while True:
        solved = True
        for cell in range(81):
            if values[cell] == 0:
                solved = False
                break
        if solved or steps >= max_steps or pos + RECORD_MAX > log.shape[0]:
            return steps, -1, pos
        while p < PRODUCER_COUNT:
            diff = call(p, values, cands, out)
            if diff < 0.0:
                return steps, p, pos
            if diff > 0.0:
                break
            p += 1
        if p == PRODUCER_COUNT:
            return steps, PRODUCER_COUNT, pos
        count = out[3]
        log[pos] = p
        log[pos + 1] = out[0]
        log[pos + 2] = np.int64(round(diff * 10.0))
        log[pos + 3] = out[1]
        log[pos + 4] = out[2]
        log[pos + 5] = count
        for i in range(2 * count):
            log[pos + 6 + i] = out[4 + i]
        pos += 6 + 2 * count
        apply(values, cands, out[1], out[2], out[4:], count)
        steps += 1
        if p >= SLOW_FROM:
            return steps, -1, pos
        p = 0
