"""SE's Nishio, multiple, dynamic and dynamic (+) forcing chains compiled (numba): the
producers of :mod:`..forcing` up to level 1 (the reference, read from SE as that module says),
under the contract of :mod:`sudoku_cp.logic.se.compiled`; and the same search keeping every
hint, as the nested levels read them (:func:`every_records`, for :mod:`.nested`). The nested
levels' own chainings (2 to 4) stay plain.

One chaining (``Chaining.doChaining``) lives in a *slot* (:mod:`.runs`), its pending queues
read from their starts as the plain chaining's are; dynamic (+)'s level-1 rules are
:mod:`.plus`. A cell's runs stay in their slots while the cell is searched (its region and
cell chainings read them); the plain code also keeps runs across cells, which changes no run.
"""

from __future__ import annotations

import numpy as np

from ....jit import njit
from .keep import CELL_REGION_CELLS, absurd_pairs, keep_hint, stored_pair
from .plus import adopt, advanced, room
from .rules import COUNT, OFF_CELLS, REGION_SORTED
from .runs import KEYS, POOL, SLOTS, add_potential, clear_run, record_absurd

NAMES = (
    "Nishio Forcing Chains",
    "Cell Forcing Chains",
    "Region Forcing Chains",
    "Dynamic Contradiction Forcing Chains",
    "Dynamic Double Forcing Chains",
    "Dynamic Cell Forcing Chains",
    "Dynamic Region Forcing Chains",
    "Dynamic Contradiction Forcing Chains (+)",
    "Dynamic Double Forcing Chains (+)",
    "Dynamic Cell Forcing Chains (+)",
    "Dynamic Region Forcing Chains (+)",
)
NISHIO, MULTIPLE, DYNAMIC, PLUS = 0, 1, 2, 3
"""The kinds of search (``Chaining(isMultiple, isDynamic, isNishio, level)``: level 0, and
dynamic (+) at level 1)."""


@njit(cache=True)
def length_difficulty(complexity):
    """:func:`..chains.length_difficulty`."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added


@njit(cache=True)
def _chaining(
    slot,
    start,
    y,
    dynamic,
    level,
    values,
    cands0,
    work,
    pos_on,
    pos_off,
    list_on,
    list_off,
    par,
    pool,
    counts,
    absurd,
):
    """:func:`..forcing._chaining` at level 0 or 1 into ``slot``; ``work`` a scratch copy of
    the candidates (a dynamic chaining takes its offs out of it); ``values`` the grid's (read
    by level 1's rules)."""
    clear_run(slot, pos_on, pos_off, list_on, list_off, counts)
    for c in range(81):
        work[c] = cands0[c]
    parents = np.empty(20, dtype=np.int64)
    made_keys = np.empty(4, dtype=np.int64)
    made_par = np.empty((4, 20), dtype=np.int64)
    made_n = np.empty(4, dtype=np.int64)
    add_potential(
        slot,
        start,
        start & 1 == 1,
        pos_on,
        pos_off,
        list_on,
        list_off,
        par,
        pool,
        counts,
        parents,
        0,
    )
    next_on = 0
    next_off = 0
    while True:
        if next_on < counts[slot, 0]:
            key = list_on[slot, next_on]
            next_on += 1
            cell = key // 20
            value = key // 2 % 10
            parents[0] = key
            if y:
                rest = work[cell] & ~(1 << value)
                for v in range(1, 10):
                    if not rest >> v & 1:
                        continue
                    k_off = (cell * 10 + v) * 2
                    if pos_on[slot, k_off + 1] >= 0:
                        record_absurd(
                            slot, k_off + 1, k_off, pool, counts, absurd, parents, 1, True
                        )
                        return
                    if pos_off[slot, k_off] < 0:
                        add_potential(
                            slot,
                            k_off,
                            False,
                            pos_on,
                            pos_off,
                            list_on,
                            list_off,
                            par,
                            pool,
                            counts,
                            parents,
                            1,
                        )
            bit = 1 << value
            for j in range(20):
                c = OFF_CELLS[cell, j]
                if not work[c] & bit:
                    continue
                k_off = (c * 10 + value) * 2
                if pos_on[slot, k_off + 1] >= 0:
                    record_absurd(slot, k_off + 1, k_off, pool, counts, absurd, parents, 1, True)
                    return
                if pos_off[slot, k_off] < 0:
                    add_potential(
                        slot,
                        k_off,
                        False,
                        pos_on,
                        pos_off,
                        list_on,
                        list_off,
                        par,
                        pool,
                        counts,
                        parents,
                        1,
                    )
            continue
        if next_off < counts[slot, 1]:
            key = list_off[slot, next_off]
            next_off += 1
            cell = key // 20
            value = key // 2 % 10
            bit = 1 << value
            made = 0
            mask = work[cell]
            if y and COUNT[mask] == 2:
                other = mask & ~bit
                other_value = 0
                while not other >> other_value & 1:
                    other_value += 1
                made_keys[0] = (cell * 10 + other_value) * 2 + 1
                made_par[0, 0] = key
                n = 1
                if dynamic:  # addHiddenParentsOfCell: the cell's digits offs took out
                    gone = cands0[cell] & ~mask
                    for v in range(1, 10):
                        if gone >> v & 1:
                            made_par[0, n] = (cell * 10 + v) * 2
                            n += 1
                made_n[0] = n
                made = 1
            for k in range(3):
                single = -1
                count = 0
                for i in range(9):
                    c = REGION_SORTED[cell, k, i]
                    if c != cell and work[c] & bit:
                        count += 1
                        single = c
                if count != 1:
                    continue  # no other place, or two or more
                k_on = (single * 10 + value) * 2 + 1
                seen = False
                for m in range(made):
                    if made_keys[m] == k_on:
                        seen = True  # a LinkedHashSet: the first version stays
                if seen:
                    continue
                made_keys[made] = k_on
                made_par[made, 0] = key
                n = 1
                if dynamic:  # addHiddenParentsOfRegion: the places offs took out
                    for i in range(9):
                        c = REGION_SORTED[cell, k, i]
                        if c != cell and cands0[c] & bit and not work[c] & bit:
                            made_par[made, n] = (c * 10 + value) * 2
                            n += 1
                made_n[made] = n
                made += 1
            if dynamic:
                work[cell] = mask & ~bit
            for m in range(made):
                k_on = made_keys[m]
                n = made_n[m]
                for i in range(n):
                    parents[i] = made_par[m, i]
                if pos_off[slot, k_on - 1] >= 0:
                    record_absurd(slot, k_on, k_on - 1, pool, counts, absurd, parents, n, False)
                    return
                if pos_on[slot, k_on] < 0:
                    add_potential(
                        slot,
                        k_on,
                        True,
                        pos_on,
                        pos_off,
                        list_on,
                        list_off,
                        par,
                        pool,
                        counts,
                        parents,
                        n,
                    )
            continue
        if level:  # the links ran out: what level 1's rules find on the chaining's grid
            end, buf = advanced(values, cands0, work, np.empty(256, dtype=np.int64))
            adopt(slot, buf, end, pos_on, pos_off, list_on, list_off, par, pool, counts)
            if next_off < counts[slot, 1]:
                continue
        return


@njit(cache=True)
def _ancestry(slot, key, ps, pn, pos_on, pos_off, par, pool, seen, stamp, stack):
    """How many distinct potentials ``key`` and its ancestors are (``_Run.ancestry``), the
    key's parents ``pool[slot, ps : ps + pn]``; ``seen`` is marked with ``stamp``."""
    seen[key] = stamp
    count = 1
    top = 0
    for i in range(pn):
        stack[top] = pool[slot, ps + i]
        top += 1
    while top:
        top -= 1
        k = stack[top]
        if seen[k] == stamp:
            continue
        seen[k] = stamp
        count += 1
        if k & 1:
            i = pos_on[slot, k]
            start, n = par[slot, 0, i, 0], par[slot, 0, i, 1]
        else:
            i = pos_off[slot, k]
            start, n = par[slot, 1, i, 0], par[slot, 1, i, 1]
        for j in range(n):
            stack[top] = pool[slot, start + j]
            top += 1
    return count


@njit(cache=True)
def _stored(slot, key, pos_on, pos_off, par, pool, seen, stamp, stack):
    """The ancestry count of a potential the run keeps."""
    if key & 1:
        i = pos_on[slot, key]
        return _ancestry(
            slot,
            key,
            par[slot, 0, i, 0],
            par[slot, 0, i, 1],
            pos_on,
            pos_off,
            par,
            pool,
            seen,
            stamp,
            stack,
        )
    i = pos_off[slot, key]
    return _ancestry(
        slot,
        key,
        par[slot, 1, i, 0],
        par[slot, 1, i, 1],
        pos_on,
        pos_off,
        par,
        pool,
        seen,
        stamp,
        stack,
    )


@njit(cache=True)
def _absurd_complexity(slot, pos_on, pos_off, par, pool, absurd, seen, stamps, stack):
    """The complexity of the contradiction the run in ``slot`` met (its two chains)."""
    on_key, off_key = absurd[slot, 0], absurd[slot, 1]
    ps, pn = absurd[slot, 2], absurd[slot, 3]
    stamps[0] += 1
    if absurd[slot, 4]:  # the on stored, the off not
        total = _stored(slot, on_key, pos_on, pos_off, par, pool, seen, stamps[0], stack)
        stamps[0] += 1
        total += _ancestry(
            slot, off_key, ps, pn, pos_on, pos_off, par, pool, seen, stamps[0], stack
        )
    else:
        total = _ancestry(slot, on_key, ps, pn, pos_on, pos_off, par, pool, seen, stamps[0], stack)
        stamps[0] += 1
        total += _stored(slot, off_key, pos_on, pos_off, par, pool, seen, stamps[0], stack)
    return total


@njit(cache=True)
def search(values, cands, out, kind):
    """``forcing._producer(kind)``'s first step (every=False); its difficulty, or 0.0."""
    none = np.zeros(1, dtype=np.int64)
    return _search(values, cands, out, kind, False, cands, none, none, none)[0]


@njit(cache=True)
def every_records(values, cands, outer0, kind, buf, pos, hints):
    """Every hint of ``forcing._producer(kind, every=True)`` on the grid ``cands`` that gives
    an outer chaining (begun on ``outer0``) something, in SE's order (complexity, sort key,
    order found), as :func:`.plus.emit` records from ``buf[pos]`` on, each naming its chain
    in ``hints`` (``hints[0]``: where the next goes) as ``[1, sort key, target, complexity,
    chains, (length, potentials…) a chain]``. Returns (the records' end, the buffer, the
    hints)."""
    counts = np.zeros(2, dtype=np.int64)
    out = np.zeros(1, dtype=np.int64)
    _, starts, store = _search(
        values,
        cands,
        out,
        kind,
        True,
        outer0,
        np.empty(64, dtype=np.int64),
        np.empty(4096, dtype=np.int64),
        counts,
    )
    n_hints = counts[0]
    sort_keys = np.empty(n_hints, dtype=np.int64)
    complexities = np.empty(n_hints, dtype=np.int64)
    for h in range(n_hints):
        complexities[h] = store[starts[h]]
        sort_keys[h] = store[starts[h] + 1]
    # getHintList's sort, stable: by complexity (one rule's hints share a base), sort key
    order = np.argsort(sort_keys, kind="mergesort")
    order = order[np.argsort(complexities[order], kind="mergesort")]
    for h in order:
        at = starts[h]
        n = store[at + 2]
        m = store[at + 3 + n]
        chain = at + 4 + n + m  # target, chains, then each chain
        size = 2
        for _ in range(store[chain + 1]):
            size += 1 + store[chain + size]
        buf = room(buf, pos + 3 + n + m)
        named = hints[0]
        hints = room(hints, named + 3 + size)
        buf[pos] = n
        buf[pos + 1 : pos + 1 + n] = store[at + 3 : at + 3 + n]
        buf[pos + 1 + n : pos + 2 + n + m] = store[at + 3 + n : at + 4 + n + m]
        buf[pos + 2 + n + m] = named
        pos += 3 + n + m
        hints[named] = 1
        hints[named + 1] = store[at + 1]
        hints[named + 2] = store[chain]
        hints[named + 3] = store[at]
        hints[named + 4 : named + 3 + size] = store[chain + 1 : chain + size]
        hints[0] = named + 3 + size
    return pos, buf, hints


@njit(cache=True)
def _search(values, cands, out, kind, every, outer0, starts, store, kept):  # noqa: C901
    """SE's search of ``kind``: its first step into ``out`` (returning its difficulty, 0.0
    none), or with ``every`` each hint an outer chaining begun on ``outer0`` reads
    (:func:`.keep.keep_hint`, into ``starts``, ``store``, ``kept``; see
    :func:`every_records`). Returns (the difficulty, starts, store)."""
    nishio = kind == NISHIO
    dynamic = kind != MULTIPLE
    multiple = kind != NISHIO
    level = 1 if kind == PLUS else 0
    plus = 4 if kind == PLUS else 0  # the (+) names come 4 after the dynamic ones
    base = 9.0 if level else 7.5 if nishio else 8.5 if dynamic else 8.0
    y = not nishio
    contradiction = dynamic or nishio
    pos_on = np.full((SLOTS, KEYS), -1, dtype=np.int64)
    pos_off = np.full((SLOTS, KEYS), -1, dtype=np.int64)
    list_on = np.empty((SLOTS, KEYS), dtype=np.int64)
    list_off = np.empty((SLOTS, KEYS), dtype=np.int64)
    par = np.empty((SLOTS, 2, KEYS, 2), dtype=np.int64)
    pool = np.empty((SLOTS, POOL), dtype=np.int64)
    counts = np.zeros((SLOTS, 4), dtype=np.int64)
    absurd = np.zeros((SLOTS, 5), dtype=np.int64)
    work = np.empty(81, dtype=np.int64)
    seen = np.zeros(KEYS, dtype=np.int64)
    stamps = np.zeros(1, dtype=np.int64)
    stack = np.empty(POOL, dtype=np.int64)
    pairs = np.empty((9, 4), dtype=np.int64)
    scratch = (
        np.empty((3, 9 * (KEYS + 1)), dtype=np.int64) if every else np.empty((3, 1), dtype=np.int64)
    )
    if every:
        scratch[0, :] = 0  # marks
    best_cx = -1
    best_sort = 0
    best_name = 0
    best_key = 0
    value_slots = np.empty(9, dtype=np.int64)
    places = np.empty(9, dtype=np.int64)
    for cell in range(81):
        if values[cell]:
            continue
        card = COUNT[cands[cell]]
        if not (card > 2 or (card > 1 and dynamic)):
            continue
        n_values = 0
        for value in range(1, 10):
            if not cands[cell] >> value & 1:
                continue
            k_on = (cell * 10 + value) * 2 + 1
            k_off = k_on - 1
            s_on = value - 1
            _chaining(
                s_on,
                k_on,
                y,
                dynamic,
                level,
                values,
                cands,
                work,
                pos_on,
                pos_off,
                list_on,
                list_off,
                par,
                pool,
                counts,
                absurd,
            )
            if contradiction and counts[s_on, 3]:
                cx = _absurd_complexity(
                    s_on, pos_on, pos_off, par, pool, absurd, seen, stamps, stack
                )
                if every:
                    absurd_pairs(s_on, absurd, pairs)
                    starts, store = keep_hint(
                        cands,
                        outer0,
                        dynamic,
                        7,
                        k_off,
                        cx,
                        cell,
                        -1,
                        0,
                        2,
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
                        kept,
                    )
                elif best_cx < 0 or cx < best_cx or (cx == best_cx and best_sort > 7):
                    best_cx, best_sort, best_name, best_key = (
                        cx,
                        7,
                        0 if nishio else 3 + plus,
                        k_off,
                    )
            double = card >= 3 and not nishio and dynamic
            if contradiction or double:
                s_off = 9
                _chaining(
                    s_off,
                    k_off,
                    y,
                    dynamic,
                    level,
                    values,
                    cands,
                    work,
                    pos_on,
                    pos_off,
                    list_on,
                    list_off,
                    par,
                    pool,
                    counts,
                    absurd,
                )
                if contradiction and counts[s_off, 3]:
                    cx = _absurd_complexity(
                        s_off, pos_on, pos_off, par, pool, absurd, seen, stamps, stack
                    )
                    if every:
                        absurd_pairs(s_off, absurd, pairs)
                        starts, store = keep_hint(
                            cands,
                            outer0,
                            dynamic,
                            7,
                            k_on,
                            cx,
                            cell,
                            -1,
                            0,
                            2,
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
                            kept,
                        )
                    elif best_cx < 0 or cx < best_cx or (cx == best_cx and best_sort > 7):
                        best_cx, best_sort = cx, 7
                        best_name, best_key = 0 if nishio else 3 + plus, k_on
                if double:
                    for table in range(2):
                        n = counts[s_on, table]
                        for i in range(n):
                            k = list_on[s_on, i] if table == 0 else list_off[s_on, i]
                            if table == 0:
                                if pos_on[s_off, k] < 0 or COUNT[cands[k // 20]] <= 1:
                                    continue
                            elif pos_off[s_off, k] < 0:
                                continue
                            stamps[0] += 1
                            cx = _stored(
                                s_on, k, pos_on, pos_off, par, pool, seen, stamps[0], stack
                            )
                            stamps[0] += 1
                            cx += _stored(
                                s_off, k, pos_on, pos_off, par, pool, seen, stamps[0], stack
                            )
                            if every:
                                stored_pair(pairs, 0, s_on, k)
                                stored_pair(pairs, 1, s_off, k)
                                starts, store = keep_hint(
                                    cands,
                                    outer0,
                                    dynamic,
                                    1,
                                    k,
                                    cx,
                                    cell,
                                    -1,
                                    0,
                                    2,
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
                                    kept,
                                )
                            elif best_cx < 0 or cx < best_cx or (cx == best_cx and best_sort > 1):
                                best_cx, best_sort, best_name, best_key = cx, 1, 4 + plus, k
            if not nishio:
                bit = 1 << value
                for r in range(3):
                    n_places = 0
                    for i in range(9):
                        c = CELL_REGION_CELLS[cell, r, i]
                        if cands[c] & bit:
                            places[n_places] = c
                            n_places += 1
                    if places[0] != cell or not (n_places == 2 or (multiple and n_places > 2)):
                        continue
                    for j in range(1, n_places):
                        _chaining(
                            9 + j,
                            (places[j] * 10 + value) * 2 + 1,
                            y,
                            dynamic,
                            level,
                            values,
                            cands,
                            work,
                            pos_on,
                            pos_off,
                            list_on,
                            list_off,
                            par,
                            pool,
                            counts,
                            absurd,
                        )
                    for table in range(2):
                        for i in range(counts[s_on, table]):
                            k = list_on[s_on, i] if table == 0 else list_off[s_on, i]
                            everywhere = True
                            for j in range(1, n_places):
                                where = pos_on[9 + j, k] if table == 0 else pos_off[9 + j, k]
                                if where < 0:
                                    everywhere = False
                                    break
                            if not everywhere:
                                continue
                            if k & 1 and COUNT[cands[k // 20]] < 2:
                                continue
                            cx = 0
                            for j in range(n_places):
                                stamps[0] += 1
                                s = s_on if j == 0 else 9 + j
                                cx += _stored(
                                    s, k, pos_on, pos_off, par, pool, seen, stamps[0], stack
                                )
                            if every:
                                for j in range(n_places):
                                    stored_pair(pairs, j, s_on if j == 0 else 9 + j, k)
                                starts, store = keep_hint(
                                    cands,
                                    outer0,
                                    dynamic,
                                    6,
                                    k,
                                    cx,
                                    cell,
                                    r,
                                    value,
                                    n_places,
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
                                    kept,
                                )
                            elif best_cx < 0 or cx < best_cx or (cx == best_cx and best_sort > 6):
                                best_cx, best_sort = cx, 6
                                best_name, best_key = 6 + plus if dynamic else 2, k
            value_slots[n_values] = s_on
            n_values += 1
        if not nishio:
            first = value_slots[0]
            for table in range(2):
                for i in range(counts[first, table]):
                    k = list_on[first, i] if table == 0 else list_off[first, i]
                    everywhere = True
                    for j in range(1, n_values):
                        s = value_slots[j]
                        where = pos_on[s, k] if table == 0 else pos_off[s, k]
                        if where < 0:
                            everywhere = False
                            break
                    if not everywhere:
                        continue
                    if k & 1 and COUNT[cands[k // 20]] < 2:
                        continue
                    cx = 0
                    for j in range(n_values):
                        stamps[0] += 1
                        cx += _stored(
                            value_slots[j], k, pos_on, pos_off, par, pool, seen, stamps[0], stack
                        )
                    if every:
                        for j in range(n_values):
                            stored_pair(pairs, j, value_slots[j], k)
                        starts, store = keep_hint(
                            cands,
                            outer0,
                            dynamic,
                            5,
                            k,
                            cx,
                            cell,
                            3,
                            0,
                            n_values,
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
                            kept,
                        )
                    elif best_cx < 0 or cx < best_cx or (cx == best_cx and best_sort > 5):
                        best_cx, best_sort, best_name, best_key = (
                            cx,
                            5,
                            5 + plus if dynamic else 1,
                            k,
                        )
    if best_cx < 0:
        return 0.0, starts, store
    cell = best_key // 20
    value = best_key // 2 % 10
    out[0] = best_name
    if best_key & 1:  # the target on: the cell's other digits go, the digit is placed
        out[1] = cell
        out[2] = value
        rest = cands[cell] & ~(1 << value)
        out[3] = 0
        if rest:
            out[3] = 1
            out[4] = cell
            out[5] = rest
    else:
        out[1] = -1
        out[2] = 0
        out[3] = 1
        out[4] = cell
        out[5] = 1 << value
    return base + length_difficulty(best_cx), starts, store
