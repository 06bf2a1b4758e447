"""SE's unique rectangles and loops compiled (numba): :func:`..uniqueness.unique_loops` (the
reference, read from SE as that module says) under the contract of
:mod:`sudoku_cp.logic.se.compiled`, its first step: the hints in the order the plain code
makes them (start cell, loop found, then types 1, 2, 3, 4 of each loop), the least by
(difficulty, type) kept, as the plain code's stable sort puts it first. The loop walk is the
plain one with its speed doors open (``PRUNE_LOOPS``, ``SKIP_FOUND_LOOPS``), as a loop of
frames instead of recursion."""

from __future__ import annotations

import numpy as np

from ....jit import njit
from ..step import REGION_OF
from .rules import CELLS, COUNT, LOW, SEES

MAX_LOOP = 80
NAMES = tuple(
    f"Unique {'Rectangle' if length == 4 else f'Loop {length}'} type {kind}"
    for length in range(4, MAX_LOOP + 1, 2)
    for kind in range(1, 5)
)
"""Index ``(length // 2 - 2) * 4 + type - 1``."""

REGION_AT = np.array(REGION_OF, dtype=np.int64)
"""REGION_AT[cell, kind]: the index of the cell's block, row, column."""
PLACE_AT = np.array(
    [[CELLS[k, REGION_OF[c][k]].tolist().index(c) for k in range(3)] for c in range(81)],
    dtype=np.int64,
)
"""PLACE_AT[cell, kind]: the cell's place (0..8) in its block, row, column."""


def _combo_table() -> tuple[np.ndarray, np.ndarray]:
    """Every ``Permutations(k, n)`` combination (n ≤ 9), masks increasing: ``rows`` (the k
    indexes, padded to 9) and, for each (n, k), the range of its rows."""
    from itertools import combinations

    rows: list[list[int]] = []
    start = np.zeros((10, 10, 2), dtype=np.int64)
    for n in range(10):
        for k in range(n + 1):
            combos = sorted(combinations(range(n), k), key=lambda c: sum(1 << i for i in c))
            start[n, k, 0] = len(rows)
            rows.extend(list(c) + [0] * (9 - k) for c in combos)
            start[n, k, 1] = len(rows)
    return np.array(rows, dtype=np.int64), start


COMBO_ROWS, COMBO_RANGE = _combo_table()


@njit(cache=True)
def _base_tenths(length):
    """``UniqueLoopHint.getDifficulty`` in tenths: 45 a rectangle, +1 a loop of 6, +2 of 8,
    +5 of 10 or more."""
    diff = 45
    if length >= 10:
        diff += 3
    if length >= 8:
        diff += 2
    elif length >= 6:
        diff += 1
    return diff


@njit(cache=True)
def _valid(loop, length):
    """``UniqueLoops.isValidLoop``: no region twice among the even places or the odd ones, and
    both cover the same regions."""
    seen = np.zeros((2, 27), dtype=np.bool_)
    for i in range(length):
        side = i & 1
        for k in range(3):
            region = 9 * k + REGION_AT[loop[i], k]
            if seen[side, region]:
                return False
            seen[side, region] = True
    return (seen[0] == seen[1]).all()


@njit(cache=True)
def _common_peer(cells, n, victim):
    i = 0  # (every cell of ``cells[:n]`` sees ``victim``)
    while i < n and SEES[cells[i], victim]:
        i += 1
    return i == n


@njit(cache=True)
def _offer(best, tenths, kind, name, cells, masks, n):
    """Keep the hint if it sorts before the best so far (difficulty, then type; the first of
    equals stays). ``best``: [0] the difficulty in tenths (-1 none), [1] the type, [2] the
    name's index, [3] the removal count, then (cell, mask) pairs."""
    if best[0] >= 0 and (tenths > best[0] or (tenths == best[0] and kind >= best[1])):
        return
    best[0] = tenths
    best[1] = kind
    best[2] = name
    best[3] = n
    for i in range(n):
        best[4 + 2 * i] = cells[i]
        best[5 + 2 * i] = masks[i]


@njit(cache=True)
def _type3(values, cands, c1, c2, v1, v2, base, name, best, cells_buf, masks_buf):
    """``uniqueness._ul_type3``: naked and hidden sets with the two extra cells."""
    both = (1 << v1) | (1 << v2)
    extra = (cands[c1] | cands[c2]) & ~both
    others = np.empty(9, dtype=np.int64)
    holders = np.empty(11, dtype=np.int64)
    removal = np.zeros(81, dtype=np.int64)
    for degree in range(2, 8):
        for kind in range(3):
            index = REGION_AT[c1, kind]
            if REGION_AT[c2, kind] != index:
                continue
            empty = 0
            for i in range(9):
                if values[CELLS[kind, index, i]] == 0:
                    empty += 1
            i1 = PLACE_AT[c1, kind]
            i2 = PLACE_AT[c2, kind]
            if degree * 2 <= empty and degree >= COUNT[extra]:
                for row in range(COMBO_RANGE[9, degree, 0], COMBO_RANGE[9, degree, 1]):
                    has1 = False
                    has2 = False
                    for j in range(degree):
                        if COMBO_ROWS[row, j] == i1:
                            has1 = True
                        if COMBO_ROWS[row, j] == i2:
                            has2 = True
                    if not has1 or has2:
                        continue
                    naked = extra & cands[c1] & cands[c2]
                    n_others = 0
                    common = 0
                    for j in range(degree):
                        i = COMBO_ROWS[row, j]
                        if i == i1:
                            pot = extra
                        else:
                            pot = cands[CELLS[kind, index, i]]
                            naked |= pot
                            others[n_others] = CELLS[kind, index, i]
                            n_others += 1
                        if common >= 0:
                            if COUNT[pot] <= 1:
                                common = -1
                            else:
                                common |= pot
                    if COUNT[naked] != degree:
                        continue
                    if common <= 0 or COUNT[common] != degree:
                        continue
                    removal[:] = 0
                    any_removal = False
                    for value in range(1, 10):
                        if not common >> value & 1:
                            continue
                        bit = 1 << value
                        n_holders = 0
                        for j in range(n_others):
                            if cands[others[j]] & bit:
                                holders[n_holders] = others[j]
                                n_holders += 1
                        for c in (c1, c2):
                            if cands[c] & bit:
                                holders[n_holders] = c
                                n_holders += 1
                        for victim in range(81):
                            if cands[victim] & bit and _common_peer(holders, n_holders, victim):
                                removal[victim] |= bit
                                any_removal = True
                    if any_removal:
                        n = 0
                        for c in range(81):
                            if removal[c]:
                                cells_buf[n] = c
                                masks_buf[n] = removal[c]
                                n += 1
                        _offer(best, base + COUNT[common] - 1, 3, name + 2, cells_buf, masks_buf, n)
            if degree * 2 < empty:
                rem = np.empty(9, dtype=np.int64)
                n_rem = 0
                for v in range(1, 10):
                    if v != v1 and v != v2 and not extra >> v & 1:
                        rem[n_rem] = v
                        n_rem += 1
                if degree - 2 <= n_rem:
                    for row in range(
                        COMBO_RANGE[n_rem, degree - 2, 0], COMBO_RANGE[n_rem, degree - 2, 1]
                    ):
                        union = 0
                        hidden = both
                        ok = True
                        for j in range(degree):
                            value = (
                                rem[COMBO_ROWS[row, j]]
                                if j < degree - 2
                                else (v1 if j == degree - 2 else v2)
                            )
                            hidden |= 1 << value
                            pos = 0
                            for i in range(9):
                                if cands[CELLS[kind, index, i]] >> value & 1:
                                    pos |= 1 << i
                            pos &= ~(1 << i2)
                            if not pos:
                                ok = False
                                break
                            union |= pos
                        if not ok or COUNT[union] != degree:
                            continue
                        union &= ~((1 << i1) | (1 << i2))
                        n = 0
                        for i in range(9):
                            if union >> i & 1:
                                cell = CELLS[kind, index, i]
                                if cands[cell] & ~hidden:
                                    cells_buf[n] = cell
                                    masks_buf[n] = cands[cell] & ~hidden
                                    n += 1
                        if n:
                            _offer(
                                best, base + COUNT[union] - 1, 3, name + 2, cells_buf, masks_buf, n
                            )


@njit(cache=True)
def _loop_hints(values, cands, loop, length, v1, v2, best, cells_buf, masks_buf):
    """The hints of one valid loop, in the plain code's order (types 1, 2, 3, 4)."""
    both = (1 << v1) | (1 << v2)
    base = _base_tenths(length)
    name = (length // 2 - 2) * 4  # type 1's name
    extras = np.empty(81, dtype=np.int64)
    n_extras = 0
    for i in range(length):
        if COUNT[cands[loop[i]]] > 2:
            extras[n_extras] = loop[i]
            n_extras += 1
    if n_extras == 1:
        cells_buf[0] = extras[0]
        masks_buf[0] = both
        _offer(best, base, 1, name, cells_buf, masks_buf, 1)
    elif n_extras > 2 or (
        n_extras == 2 and COUNT[(cands[extras[0]] | cands[extras[1]]) & ~both] == 1
    ):
        bit = 1 << LOW[cands[extras[0]] & ~both]
        n = 0
        for c in range(81):
            if not cands[c] & bit:
                continue
            is_extra = False
            for j in range(n_extras):
                if extras[j] == c:
                    is_extra = True
            if not is_extra and _common_peer(extras, n_extras, c):
                cells_buf[n] = c
                masks_buf[n] = bit
                n += 1
        if n:
            _offer(best, base, 2, name + 1, cells_buf, masks_buf, n)
    elif n_extras == 2:
        _type3(values, cands, extras[0], extras[1], v1, v2, base, name, best, cells_buf, masks_buf)
    if n_extras == 2:
        c1, c2 = extras[0], extras[1]
        r1 = False
        r2 = False
        for kind in range(3):
            index = REGION_AT[c1, kind]
            if REGION_AT[c2, kind] != index:
                continue
            has1 = False
            has2 = False
            for i in range(9):
                c = CELLS[kind, index, i]
                if c != c1 and c != c2:
                    has1 |= cands[c] >> v1 & 1 == 1
                    has2 |= cands[c] >> v2 & 1 == 1
            r1 |= not has1
            r2 |= not has2
        if r1 or r2:
            gone = 1 << (v2 if r1 else v1)
            cells_buf[0], cells_buf[1] = c1, c2
            masks_buf[0], masks_buf[1] = gone, gone
            _offer(best, base, 4, name + 3, cells_buf, masks_buf, 2)


@njit(cache=True)
def unique_loops(values, cands, out):
    """:func:`..uniqueness.unique_loops`' first step; its difficulty, or 0.0."""
    best = np.full(4 + 2 * 81, -1, dtype=np.int64)
    cells_buf = np.empty(81, dtype=np.int64)
    masks_buf = np.empty(81, dtype=np.int64)
    hold = np.empty((3, 9, 9), dtype=np.int64)
    hold_n = np.zeros((3, 9), dtype=np.int64)
    loop = np.empty(82, dtype=np.int64)
    in_loop = np.zeros(81, dtype=np.bool_)
    sides = np.zeros(27, dtype=np.int64)
    # frames of the walk: cell, allowed, extra, last kind, next kind, next place, side marked
    f_allowed = np.empty(82, dtype=np.int64)
    f_extra = np.empty(82, dtype=np.int64)
    f_last = np.empty(82, dtype=np.int64)
    f_kind = np.empty(82, dtype=np.int64)
    f_place = np.empty(82, dtype=np.int64)
    f_side = np.empty(82, dtype=np.int64)
    for start in range(81):
        if COUNT[cands[start]] != 2:
            continue
        v1 = LOW[cands[start]]
        v2 = LOW[cands[start] & ~(1 << v1)]
        both = (1 << v1) | (1 << v2)
        for kind in range(3):
            for index in range(9):
                n = 0
                for i in range(9):
                    c = CELLS[kind, index, i]
                    if cands[c] & both == both:
                        hold[kind, index, n] = c
                        n += 1
                hold_n[kind, index] = n
        near = 0  # holders seeing the start, itself left out (each once)
        for c in range(81):
            if c == start:
                continue
            for kind in range(3):
                index = REGION_AT[start, kind]
                if REGION_AT[c, kind] == index and cands[c] & both == both:
                    near += 1
                    break
        if near < 2:
            continue
        sides[:] = 0
        for k in range(3):  # mark(start, 1)
            sides[9 * k + REGION_AT[start, k]] |= 1
        depth = 1
        loop[0] = start
        in_loop[start] = True
        f_allowed[0] = 2
        f_extra[0] = 0
        f_last[0] = -1
        f_kind[0] = 0
        f_place[0] = 0
        f_side[0] = 1
        while depth:
            f = depth - 1
            cell = loop[f]
            side = 2 if depth & 1 else 1  # the next cell's
            pushed = False
            while f_kind[f] < 3 and not pushed:
                kind = f_kind[f]
                index = REGION_AT[cell, kind]
                if kind == f_last[f] or f_place[f] >= hold_n[kind, index]:
                    f_kind[f] += 1
                    f_place[f] = 0
                    continue
                nxt = hold[kind, index, f_place[f]]
                f_place[f] += 1
                if nxt == loop[0] and depth >= 4:
                    if _valid(loop, depth):
                        _loop_hints(values, cands, loop, depth, v1, v2, best, cells_buf, masks_buf)
                    continue
                if in_loop[nxt]:
                    continue
                pot = cands[nxt]
                if pot == both and nxt < start:
                    continue  # a start already walked: its loops were found from it
                new_extra = (f_extra[f] | pot) & ~both
                count = COUNT[pot]
                if not (count == 2 or COUNT[new_extra] == 1 or f_allowed[f] > 0):
                    continue
                taken = False  # mark(nxt, side)
                for k in range(3):
                    if sides[9 * k + REGION_AT[nxt, k]] & side:
                        taken = True
                if taken:
                    continue
                for k in range(3):
                    sides[9 * k + REGION_AT[nxt, k]] |= side
                loop[depth] = nxt
                in_loop[nxt] = True
                f_allowed[depth] = f_allowed[f] - 1 if count > 2 else f_allowed[f]
                f_extra[depth] = new_extra
                f_last[depth] = kind
                f_kind[depth] = 0
                f_place[depth] = 0
                f_side[depth] = side
                depth += 1
                pushed = True
            if pushed:
                continue
            # this frame is done: unwalk its cell (unmark it, but the start)
            in_loop[cell] = False
            if f > 0:
                for k in range(3):
                    sides[9 * k + REGION_AT[cell, k]] &= ~f_side[f]
            depth -= 1
    if best[0] < 0:
        return 0.0
    out[0] = best[2]
    out[1] = -1
    out[2] = 0
    out[3] = best[3]
    for i in range(2 * best[3]):
        out[4 + i] = best[4 + i]
    return best[0] / 10.0


BUG_NAMES = ("BUG type 1", "BUG type 2", "BUG type 3", "BUG type 4")


@njit(cache=True)
def _shared_index(cells, n, kind):
    """The region of ``kind`` holding every cell of ``cells[:n]``, or -1."""
    index = REGION_AT[cells[0], kind]
    for i in range(1, n):
        if REGION_AT[cells[i], kind] != index:
            return -1
    return index


@njit(cache=True)
def _bug_step(out, name, tenths, cells, masks, n):
    out[0] = name
    out[1] = -1
    out[2] = 0
    k = 0
    for i in range(n):
        if masks[i]:
            out[4 + 2 * k] = cells[i]
            out[5 + 2 * k] = masks[i]
            k += 1
    out[3] = k
    return tenths / 10.0


@njit(cache=True)
def _bug4(cands, bug_cells, values_of, bug_values, out):
    """``uniqueness._bug4``: its difficulty, or 0.0."""
    c1, c2 = bug_cells[0], bug_cells[1]
    shared = cands[c1] & cands[c2] & ~bug_values
    if COUNT[shared] != 1:
        return 0.0
    for kind in range(3):
        if _shared_index(bug_cells, 2, kind) >= 0:
            cells = np.array([c1, c2], dtype=np.int64)
            masks = np.array(
                [cands[c1] & ~values_of[c1] & ~shared, cands[c2] & ~values_of[c2] & ~shared],
                dtype=np.int64,
            )
            return _bug_step(out, 3, 57, cells, masks, 2)
    return 0.0


@njit(cache=True)
def _bug3(cands, bug_cells, n_bug, bug_values, common, n_common, out):
    """``uniqueness._bug3``: its first step's difficulty, or 0.0."""
    region_cells = np.empty(81, dtype=np.int64)
    naked = np.empty(9, dtype=np.int64)
    holders = np.empty(90, dtype=np.int64)
    removal = np.zeros(81, dtype=np.int64)
    cells = np.empty(81, dtype=np.int64)
    masks = np.empty(81, dtype=np.int64)
    for degree in range(2, 7):
        for kind in range(3):
            index = _shared_index(bug_cells, n_bug, kind)
            if index < 0:
                continue
            n_region = 0
            for i in range(n_common):
                if REGION_AT[common[i], kind] == index:
                    region_cells[n_region] = common[i]
                    n_region += 1
            if n_region < degree:
                continue
            k = degree - 1
            for row in range(COMBO_RANGE[n_region, k, 0], COMBO_RANGE[n_region, k, 1]):
                other = 0
                for j in range(k):
                    naked[j] = region_cells[COMBO_ROWS[row, j]]
                    other |= cands[naked[j]]
                if COUNT[other] != degree:
                    continue
                union = 0
                ok = COUNT[bug_values] > 1
                for j in range(k):
                    if COUNT[cands[naked[j]]] <= 1:
                        ok = False
                    union |= cands[naked[j]]
                union |= bug_values
                if not ok or COUNT[union] != degree:
                    continue
                removal[:] = 0
                found = False
                for value in range(1, 10):
                    if not union >> value & 1:
                        continue
                    bit = 1 << value
                    n_holders = 0
                    for j in range(k):
                        if cands[naked[j]] & bit:
                            holders[n_holders] = naked[j]
                            n_holders += 1
                    for j in range(n_bug):
                        if cands[bug_cells[j]] & bit:
                            holders[n_holders] = bug_cells[j]
                            n_holders += 1
                    if n_holders == 0:
                        continue
                    for victim in range(81):
                        if cands[victim] & bit and _common_peer(holders, n_holders, victim):
                            removal[victim] |= bit
                            found = True
                if found:
                    n = 0
                    for c in range(81):
                        if removal[c]:
                            cells[n] = c
                            masks[n] = removal[c]
                            n += 1
                    return _bug_step(out, 2, 57 + COUNT[union] - 1, cells, masks, n)
    return 0.0


@njit(cache=True)
def bug(values, cands, out):
    """:func:`..uniqueness.bug`'s first step; its difficulty, or 0.0."""
    bug_cells = np.empty(81, dtype=np.int64)
    n_bug = 0
    values_of = np.zeros(81, dtype=np.int64)
    bug_values = 0
    common = np.zeros(81, dtype=np.bool_)  # the cells seeing every BUG cell, BUG cells out
    common_set = False
    extra = np.zeros(81, dtype=np.bool_)
    extra_set = False
    only_value = 0
    one_value = True
    temp = cands.copy()
    for kind in range(3):
        for index in range(9):
            for value in range(1, 10):
                bit = 1 << value
                places = 0
                for i in range(9):
                    if cands[CELLS[kind, index, i]] & bit:
                        places += 1
                if places == 0 or places == 2:
                    continue
                n_new = 0
                new_cell = -1
                for i in range(9):
                    c = CELLS[kind, index, i]
                    if cands[c] & bit and COUNT[cands[c]] >= 3:
                        n_new += 1
                        new_cell = c
                if not extra_set:
                    extra_set = True
                    only_value = value
                    for i in range(9):
                        c = CELLS[kind, index, i]
                        extra[c] = cands[c] & bit != 0 and COUNT[cands[c]] >= 3
                elif one_value:
                    if only_value == value:
                        for i in range(9):
                            c = CELLS[kind, index, i]
                            if cands[c] & bit and COUNT[cands[c]] >= 3:
                                extra[c] = True
                    else:
                        one_value = False
                if n_new == 1:
                    bug_values |= bit
                    # add(new_cell, value, False)
                    known = False
                    for j in range(n_bug):
                        if bug_cells[j] == new_cell:
                            known = True
                    if not known:
                        bug_cells[n_bug] = new_cell
                        n_bug += 1
                    values_of[new_cell] |= bit
                    temp[new_cell] &= ~bit
                    for c in range(81):
                        if common_set:
                            common[c] = common[c] and SEES[new_cell, c]
                        else:
                            common[c] = SEES[new_cell, c]
                    common_set = True
                    for j in range(n_bug):
                        common[bug_cells[j]] = False
                    if n_bug > 1 and COUNT[bug_values] > 1 and not common.any():
                        return 0.0
                if n_new == 0:
                    return 0.0
    if one_value and extra_set:
        n_extra = 0
        for c in range(81):
            if extra[c]:
                n_extra += 1
        if n_extra > n_bug:
            for cell in range(81):
                if not extra[cell]:
                    continue
                known = False
                for j in range(n_bug):
                    if bug_cells[j] == cell:
                        known = True
                if known:
                    continue
                # add(cell, only_value, True)
                bug_cells[n_bug] = cell
                n_bug += 1
                values_of[cell] = 1 << only_value
                temp[cell] &= ~(1 << only_value)
                for c in range(81):
                    if common_set:
                        common[c] = common[c] and SEES[cell, c]
                    else:
                        common[c] = SEES[cell, c]
                common_set = True
                for j in range(n_bug):
                    common[bug_cells[j]] = False
                if n_bug > 1 and COUNT[bug_values] > 1 and not common.any():
                    return 0.0
    for cell in range(81):
        if not values[cell] and COUNT[temp[cell]] != 2:
            return 0.0
    for kind in range(3):
        for index in range(9):
            for value in range(1, 10):
                n = 0
                for i in range(9):
                    if temp[CELLS[kind, index, i]] >> value & 1:
                        n += 1
                if n != 0 and n != 2:
                    return 0.0
    common_cells = np.empty(81, dtype=np.int64)
    n_common = 0
    for c in range(81):
        if common[c]:
            common_cells[n_common] = c
            n_common += 1
    cells = np.empty(81, dtype=np.int64)
    masks = np.empty(81, dtype=np.int64)
    if n_bug == 1:
        cells[0] = bug_cells[0]
        masks[0] = cands[bug_cells[0]] & ~bug_values
        return _bug_step(out, 0, 56, cells, masks, 1)
    if COUNT[bug_values] == 1:
        n = 0
        for j in range(n_common):
            if cands[common_cells[j]] & bug_values:
                cells[n] = common_cells[j]
                masks[n] = bug_values
                n += 1
        if n_common and n:
            return _bug_step(out, 1, 57, cells, masks, n)
        if n_bug == 2:
            return _bug4(cands, bug_cells, values_of, bug_values, out)
        return 0.0
    if n_common:
        if n_bug == 2:
            diff = _bug4(cands, bug_cells, values_of, bug_values, out)
            if diff:
                return diff
        return _bug3(cands, bug_cells, n_bug, bug_values, common_cells, n_common, out)
    return 0.0
