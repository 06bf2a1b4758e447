"""SE's first rules compiled: singles, direct and plain locking, hidden and naked sets, fish,
XY- and XYZ-Wing (numba).

Each function is its plain producer in :mod:`..rules` (the reference, read from SE as that
module says) compiled under the contract of :mod:`sudoku_cp.logic.se.compiled`: the same scan
orders, so the same first step. Masks are at most 10 bits here (a cell's digits, or a digit's
places 0..8 in a region), so popcounts and lowest bits come from tables.
"""

from __future__ import annotations

import numpy as np

from ....jit import njit
from .. import rules as plain
from ..grid import BLOCK, COLUMN, OFF_MASKS, PEERS, REGIONS, ROW, SCAN_REGIONS
from ..step import REGION_OF

NAMES = (
    "Full House",
    "Hidden Single",
    "Naked Single",
    "Direct Pointing",
    "Direct Claiming",
    "Pointing",
    "Claiming",
    "Direct Hidden Pair",
    "Direct Hidden Triplet",
    "Hidden Pair",
    "Hidden Triplet",
    "Hidden Quad",
    "Naked Pair",
    "Naked Triplet",
    "Naked Quad",
    "X-Wing",
    "Swordfish",
    "Jellyfish",
    "XY-Wing",
    "XYZ-Wing",
)
"""The plain steps' names; a compiled step gives its name as an index here."""
(
    FULL_HOUSE,
    HIDDEN_SINGLE,
    NAKED_SINGLE,
    DIRECT_POINTING,
    DIRECT_CLAIMING,
    POINTING,
    CLAIMING,
    DIRECT_HIDDEN_PAIR,
    DIRECT_HIDDEN_TRIPLET,
    HIDDEN_PAIR,
    HIDDEN_TRIPLET,
    HIDDEN_QUAD,
    NAKED_PAIR,
    NAKED_TRIPLET,
    NAKED_QUAD,
    X_WING,
    SWORDFISH,
    JELLYFISH,
    XY_WING,
    XYZ_WING,
) = range(len(NAMES))

# --- tables (numpy arrays: numba reads them as constants) ---------------------------------

COUNT = np.array([bin(m).count("1") for m in range(1 << 10)], dtype=np.int64)
LOW = np.array([(m & -m).bit_length() - 1 if m else -1 for m in range(1 << 10)], dtype=np.int64)
"""The lowest set bit's index of a 10-bit mask (-1 for 0)."""
CELLS = np.array(REGIONS, dtype=np.int64)
"""CELLS[kind, index, i]: the i-th cell of a region, in SE's order."""
SCAN = np.array([(kind, index) for kind, index, _cells in SCAN_REGIONS], dtype=np.int64)
"""(kind, index) of the 27 regions in the order blocks, columns, rows."""
PEER = np.array(PEERS, dtype=np.int64)
SEES = np.zeros((81, 81), dtype=np.bool_)
for _cell, _peers in enumerate(PEERS):
    SEES[_cell, list(_peers)] = True

INSIDE = np.zeros((3, 9, 3, 9), dtype=np.int64)
for _k1 in range(3):
    for _i1 in range(9):
        for _k2 in range(3):
            for _i2 in range(9):
                _other = set(REGIONS[_k2][_i2])
                for _i, _c in enumerate(REGIONS[_k1][_i1]):
                    if _c in _other:
                        INSIDE[_k1, _i1, _k2, _i2] |= 1 << _i
"""INSIDE[k1, i1, k2, i2]: the places (indexes 0..8) of region (k1, i1) inside region
(k2, i2) as a mask; 0 when they do not cross."""

OFF_CELLS = np.array(
    [[c for unit in OFF_MASKS[cell] for c in range(81) if unit >> c & 1] for cell in range(81)],
    dtype=np.int64,
)
"""The 20 peers of each cell in the order ``Chaining.getOnToOff`` reads them: the block less
the cell, then the row less the block, then the column less the block, each ascending."""
REGION_SORTED = np.array(
    [[sorted(REGIONS[k][REGION_OF[c][k]]) for k in range(3)] for c in range(81)], dtype=np.int64
)
"""Each cell's block, row and column, their cells ascending (an 81-bit mask's order, as the
plain chaining walks a region)."""

LOCKING_PAIRS = np.array(plain._LOCKING_PAIRS, dtype=np.int64)
SET_KINDS = np.array(plain._SET_KINDS, dtype=np.int64)


def _combos(degree: int) -> np.ndarray:
    return np.array(plain.COMBOS[degree], dtype=np.int64)


COMBOS2, COMBOS3, COMBOS4 = _combos(2), _combos(3), _combos(4)
"""Index combinations of 0..8 in SE's order (``Permutations``: Gosper's hack)."""


@njit(cache=True)
def _combos_of(degree):
    if degree == 2:
        return COMBOS2
    if degree == 3:
        return COMBOS3
    return COMBOS4


@njit(cache=True)
def positions_into(cands, table):
    """table[kind, index, digit]: the places (0..8) of ``digit`` in each region, a mask."""
    table[:] = 0
    for kind in range(3):
        for index in range(9):
            for i in range(9):
                mask = cands[CELLS[kind, index, i]]
                while mask:
                    low = mask & -mask
                    mask ^= low
                    table[kind, index, LOW[low]] |= 1 << i


@njit(cache=True)
def empty_in(values, kind, index):
    n = 0
    for i in range(9):
        if values[CELLS[kind, index, i]] == 0:
            n += 1
    return n


@njit(cache=True)
def _place(out, name, cell, value):
    out[0] = name
    out[1] = cell
    out[2] = value
    out[3] = 0


@njit(cache=True)
def _start(out, name):
    out[0] = name
    out[1] = -1
    out[2] = 0
    out[3] = 0


@njit(cache=True)
def _remove(out, cell, mask):
    k = out[3]
    out[4 + 2 * k] = cell
    out[5 + 2 * k] = mask
    out[3] = k + 1


# --- singles ------------------------------------------------------------------------------


@njit(cache=True)
def hidden_single(values, cands, out):
    """:func:`..rules.hidden_single`: full houses first, then regions of two or more."""
    counts = np.zeros(27, dtype=np.int64)
    any_alone = False
    for slot in range(27):
        counts[slot] = empty_in(values, SCAN[slot, 0], SCAN[slot, 1])
        if counts[slot] == 1:
            any_alone = True
    for pass_ in range(2):
        alone = pass_ == 0
        if alone and not any_alone:
            continue
        for slot in range(27):
            left = counts[slot]
            if left == 0 or (left == 1) != alone:
                continue
            kind, index = SCAN[slot, 0], SCAN[slot, 1]
            once = 0
            twice = 0
            for i in range(9):
                mask = cands[CELLS[kind, index, i]]
                twice |= once & mask
                once |= mask
            single = once & ~twice
            if single:
                low = single & -single
                for i in range(9):
                    cell = CELLS[kind, index, i]
                    if cands[cell] & low:
                        if alone:
                            _place(out, FULL_HOUSE, cell, LOW[low])
                            return 1.0
                        _place(out, HIDDEN_SINGLE, cell, LOW[low])
                        return 1.2 if kind == BLOCK else 1.5
    return 0.0


@njit(cache=True)
def naked_single(values, cands, out):
    for cell in range(81):
        if values[cell] == 0 and COUNT[cands[cell]] == 1:
            _place(out, NAKED_SINGLE, cell, LOW[cands[cell]])
            return 2.3
    return 0.0


# --- intersections ------------------------------------------------------------------------


@njit(cache=True)
def locking_step(values, cands, out, direct):
    """:func:`..rules.direct_locking` (``direct``) or :func:`..rules.locking`."""
    table = np.zeros((3, 9, 10), dtype=np.int64)
    positions_into(cands, table)
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
                        continue  # not crossing, or a place of the digit outside region 2
                    if not direct:
                        _start(out, POINTING if kind2 != BLOCK else CLAIMING)
                        for i in range(9):
                            c = CELLS[kind2, i2, i]
                            if not (INSIDE[kind2, i2, kind1, i1] >> i & 1) and cands[c] & bit:
                                _remove(out, c, bit)
                        if out[3]:
                            return 2.6 if kind2 != BLOCK else 2.8
                        continue
                    for i3 in range(9):
                        inside = INSIDE[kind1, i3, kind2, i2]
                        if inside == 0 or i3 == i1:
                            continue
                        pos3 = table[kind1, i3, value]
                        if COUNT[pos3] <= 1:
                            continue
                        outside = pos3 & ~inside
                        if COUNT[outside] == 1:
                            cell = CELLS[kind1, i3, LOW[outside]]
                            if kind1 == BLOCK:
                                _place(out, DIRECT_POINTING, cell, value)
                                return 1.7
                            _place(out, DIRECT_CLAIMING, cell, value)
                            return 1.9
    return 0.0


# --- hidden and naked sets ----------------------------------------------------------------


@njit(cache=True)
def hidden_set_step(values, cands, out, degree, direct, name, diff):
    """:func:`..rules.hidden_set` of ``degree`` (``direct`` or not), its step named ``name``
    (an index in :data:`NAMES`) and rated ``diff``."""
    table = np.zeros((3, 9, 10), dtype=np.int64)
    positions_into(cands, table)
    combos = _combos_of(degree)
    for k in range(3):
        kind = SET_KINDS[k]
        for index in range(9):
            empty = empty_in(values, kind, index)
            if not (empty > degree * 2 or (direct and empty > degree)):
                continue
            usable = 0
            for i in range(9):
                if COUNT[table[kind, index, i + 1]] >= 2:
                    usable |= 1 << i
            for n in range(combos.shape[0]):
                combo_mask = 0
                for j in range(degree):
                    combo_mask |= 1 << combos[n, j]
                if combo_mask & ~usable:
                    continue
                common = 0
                for j in range(degree):
                    common |= table[kind, index, combos[n, j] + 1]
                if COUNT[common] != degree:
                    continue
                value_mask = combo_mask << 1
                if direct:
                    for value in range(1, 10):
                        positions = table[kind, index, value]
                        if value_mask >> value & 1 or COUNT[positions] <= 1:
                            continue
                        rest = positions & ~common
                        if COUNT[rest] == 1:
                            _place(out, name, CELLS[kind, index, LOW[rest]], value)
                            return diff
                    continue
                _start(out, name)
                for i in range(9):
                    if common >> i & 1:
                        cell = CELLS[kind, index, i]
                        if cands[cell] & ~value_mask:
                            _remove(out, cell, cands[cell] & ~value_mask)
                if out[3]:
                    return diff
    return 0.0


@njit(cache=True)
def naked_set_step(values, cands, out, degree, name, diff):
    """:func:`..rules.naked_set` of ``degree``, named ``name`` and rated ``diff``."""
    combos = _combos_of(degree)
    for k in range(3):
        kind = SET_KINDS[k]
        for index in range(9):
            if empty_in(values, kind, index) < degree * 2:
                continue
            usable = 0
            for i in range(9):
                if COUNT[cands[CELLS[kind, index, i]]] >= 2:
                    usable |= 1 << i
            for n in range(combos.shape[0]):
                combo_mask = 0
                for j in range(degree):
                    combo_mask |= 1 << combos[n, j]
                if combo_mask & ~usable:
                    continue
                common = 0
                for j in range(degree):
                    common |= cands[CELLS[kind, index, combos[n, j]]]
                if COUNT[common] != degree:
                    continue
                _start(out, name)
                for i in range(9):
                    cell = CELLS[kind, index, i]
                    if not combo_mask >> i & 1 and cands[cell] & common:
                        _remove(out, cell, cands[cell] & common)
                if out[3]:
                    return diff
    return 0.0


# --- fish ---------------------------------------------------------------------------------


@njit(cache=True)
def fish_step(values, cands, out, degree, name, diff):
    """:func:`..rules.fish` of ``degree``, named ``name`` and rated ``diff``."""
    table = np.zeros((3, 9, 10), dtype=np.int64)
    positions_into(cands, table)
    placed = np.zeros(10, dtype=np.int64)
    for cell in range(81):
        placed[values[cell]] += 1
    combos = _combos_of(degree)
    for side in range(2):
        base_kind = COLUMN if side == 0 else ROW
        cover_kind = ROW if side == 0 else COLUMN
        for n in range(combos.shape[0]):
            base_mask = 0
            for j in range(degree):
                base_mask |= 1 << combos[n, j]
            for value in range(1, 10):
                if placed[value] + degree * 2 > 9:
                    continue
                common = 0
                for j in range(degree):
                    places = table[base_kind, combos[n, j], value]
                    if COUNT[places] <= 1:
                        common = 0
                        break
                    common |= places
                if COUNT[common] != degree:
                    continue
                bit = 1 << value
                _start(out, name)
                for j in range(9):
                    if common >> j & 1:
                        for i in range(9):
                            cell = CELLS[cover_kind, j, i]
                            if not base_mask >> i & 1 and cands[cell] & bit:
                                _remove(out, cell, bit)
                if out[3]:
                    return diff
    return 0.0


# --- XY- and XYZ-Wing ---------------------------------------------------------------------


@njit(cache=True)
def xy_wing_step(values, cands, out, xyz):
    """:func:`..rules.xy_wing` (XYZ-Wing with ``xyz``)."""
    target = 3 if xyz else 2
    inter_wanted = 1 if xyz else 0
    for xy_cell in range(81):
        xy = cands[xy_cell]
        if COUNT[xy] != target:
            continue
        for a in range(20):
            xz_cell = PEER[xy_cell, a]
            xz = cands[xz_cell]
            if COUNT[xz] != 2 or COUNT[xy & ~xz] != 1:
                continue
            for b in range(20):
                yz_cell = PEER[xy_cell, b]
                yz = cands[yz_cell]
                if COUNT[yz] != 2 or COUNT[xy | xz | yz] != 3:
                    continue
                if COUNT[xy & xz & yz] != inter_wanted:
                    continue
                z = xz & yz
                _start(out, XYZ_WING if xyz else XY_WING)
                for c in range(81):
                    if c in (xy_cell, xz_cell, yz_cell):
                        continue
                    if not (SEES[xz_cell, c] and SEES[yz_cell, c]):
                        continue
                    if xyz and not SEES[xy_cell, c]:
                        continue
                    if cands[c] & z:
                        _remove(out, c, z)
                if out[3]:
                    return 4.4 if xyz else 4.2
    return 0.0
