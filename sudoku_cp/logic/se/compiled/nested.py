"""What SE's nested forcing chains read when a chaining's links run out, compiled (numba):
:func:`..forcing._advanced`'s rules on the chaining's grid — the level-1 rules (:mod:`.plus`);
at levels 2 and 3 every hint of SE's "Forcing Chains & Cycles" (:func:`..chains.nested_hints`,
the reference), at level 3 then every hint of its multiple forcing chains, and at level 4
every hint of its dynamic or dynamic (+) forcing chains (``forcing._producer(every=True)``,
the compiled search's every mode: :func:`.forcing.every_records`). The nested levels'
chainings stay plain (:mod:`..forcing`), and so do level 4's nested searches of levels 2 and
3 (whose own chainings read these rules); they ask :func:`advanced_offs` here when the speed
door is open, and it answers what the plain rules would: the same offs in the same order,
each with the same parents and nested chain.

A record (:func:`.plus.emit`) names its nested chain by its place in a second array (see
:func:`advanced_records`), holding what the plain code's identity of that chain holds.
"""

from __future__ import annotations

import numpy as np

from ....jit import njit
from .chains import NO_LIMIT, NODES, chain_search, cycle_search, grid_links
from .forcing import DYNAMIC, MULTIPLE, PLUS, every_records, length_difficulty
from .keep import CELL_REGION_CELLS, link_region
from .plus import advanced, emit, room
from .rules import COUNT, PEER


@njit(cache=True)
def _link_basis(key, from_cell, cands, basis, nb):
    """:func:`..chains.link_basis` on the grid ``cands``, appended to ``basis`` from row
    ``nb``; the new count."""
    cell = key // 20
    if from_cell == cell:
        basis[nb, 0] = cell
        basis[nb, 1] = 0x3FE
        return nb + 1
    kind = link_region(key, from_cell, cands, basis[:0, 0], 0, False)
    if kind >= 0:
        for i in range(9):
            basis[nb, 0] = CELL_REGION_CELLS[from_cell, kind, i]
            basis[nb, 1] = 1 << (key // 2 % 10)
            nb += 1
    return nb


@njit(cache=True)
def fcc_records(values, cands0, work, buf, pos, hints):  # noqa: C901 - SE's one search
    """Every hint of "Forcing Chains & Cycles" on the chaining's grid (``values``, ``work``),
    in SE's order (difficulty, complexity, sort key, order found: the plain ``_hint_list``
    with ``full``), as :func:`.plus.emit` records from ``buf[pos]`` on, each naming its chain
    in ``hints`` (``hints[0]``: where the next chain goes). Returns (the records' end, the
    buffer, the hints)."""
    links = grid_links(work)
    key = np.empty(NODES, dtype=np.int64)
    parent = np.empty(NODES, dtype=np.int64)
    cycles = np.empty(NODES, dtype=np.int64)
    scratch = np.zeros((5, 1620), dtype=np.int64)
    pending_on = np.empty(NODES, dtype=np.int64)
    pending_off = np.empty(NODES, dtype=np.int64)
    forw = np.zeros(810, dtype=np.int64)
    back = np.zeros(810, dtype=np.int64)
    in_cycle = np.zeros(81, dtype=np.int64)
    cancel = np.zeros(81, dtype=np.int64)
    # the hints found, in order: where each starts in ``store``, and its sort
    starts = np.empty(256, dtype=np.int64)
    diffs = np.empty(256, dtype=np.float64)
    complexities = np.empty(256, dtype=np.int64)
    sort_keys = np.empty(256, dtype=np.int64)
    # per hint: sort key, cycle, complexity, n, potentials…, removal count, (cell, mask)…
    store = np.empty(4096, dtype=np.int64)
    used = 0
    n_hints = 0
    visit = 0
    for pass_ in range(3):  # getHintList's three passes: X-links, Y-links, both
        y = pass_ >= 1
        x = pass_ != 1
        sort_key = 4 if (x and y) else 3 if y else 2
        yi = 1 if y else 0
        cycle_base = 7.0 if (x and y) else 6.5
        chain_base = 7.0 if y else 6.6
        for cell in range(81):
            mask = work[cell]
            if values[cell] or COUNT[mask] < 2:
                continue
            if not x and COUNT[mask] > 2:
                continue  # Y-cycles start from bivalue cells only
            for value in range(1, 10):
                if not mask >> value & 1:
                    continue
                source = (cell * 10 + value) * 2 + 1
                n_cycles = cycle_search(
                    source,
                    yi,
                    pass_,
                    NO_LIMIT,
                    links,
                    key,
                    parent,
                    cycles,
                    scratch,
                    pending_on,
                    pending_off,
                )
                for ci in range(n_cycles):
                    visit += 1
                    length = 0
                    n = parent[cycles[ci]]
                    while n >= 0:  # the path's cells (the source's once)
                        in_cycle[key[n] // 20] = visit
                        length += 1
                        n = parent[n]
                    visit += 1
                    stamp = visit
                    for c in range(81):
                        cancel[c] = 0
                    any_cancel = False
                    n = cycles[ci]
                    while parent[n] >= 0:  # the path: the end, each node but the root
                        k = key[n]
                        c = k // 20
                        v = k // 2 % 10
                        bit = 1 << v
                        for j in range(20):
                            peer = PEER[c, j]
                            if work[peer] & bit and in_cycle[peer] != stamp - 1:
                                if k & 1:
                                    forw[peer * 10 + v] = stamp
                                    if back[peer * 10 + v] == stamp:
                                        cancel[peer] |= bit
                                        any_cancel = True
                                else:
                                    back[peer * 10 + v] = stamp
                                    if forw[peer * 10 + v] == stamp:
                                        cancel[peer] |= bit
                                        any_cancel = True
                        n = parent[n]
                    if not any_cancel:
                        continue
                    n_removed = 0
                    for c in range(81):
                        if cancel[c]:
                            n_removed += 1
                    starts = room(starts, n_hints + 1)
                    diffs = room(diffs, n_hints + 1)
                    complexities = room(complexities, n_hints + 1)
                    sort_keys = room(sort_keys, n_hints + 1)
                    store = room(store, used + 6 + length + 1 + 2 * n_removed)
                    starts[n_hints] = used
                    diffs[n_hints] = cycle_base + length_difficulty(length)
                    complexities[n_hints] = length
                    sort_keys[n_hints] = sort_key
                    n_hints += 1
                    store[used] = sort_key
                    store[used + 1] = 1
                    store[used + 2] = length
                    store[used + 3] = length + 1
                    used += 4
                    n = cycles[ci]
                    while n >= 0:
                        store[used] = key[n]
                        used += 1
                        n = parent[n]
                    store[used] = n_removed
                    used += 1
                    for c in range(81):
                        if cancel[c]:
                            store[used] = c
                            store[used + 1] = cancel[c]
                            used += 2
                if not x:
                    continue
                for side in range(2):
                    start = source if side == 0 else source ^ 1
                    target = chain_search(
                        start,
                        yi,
                        2 if y else 0,
                        NO_LIMIT,
                        links,
                        key,
                        parent,
                        scratch,
                        pending_on,
                        pending_off,
                    )
                    if target < 0:
                        continue
                    length = 0
                    n = target
                    while n >= 0:
                        length += 1
                        n = parent[n]
                    starts = room(starts, n_hints + 1)
                    diffs = room(diffs, n_hints + 1)
                    complexities = room(complexities, n_hints + 1)
                    sort_keys = room(sort_keys, n_hints + 1)
                    store = room(store, used + 4 + length + 3)
                    starts[n_hints] = used
                    diffs[n_hints] = chain_base + length_difficulty(length)
                    complexities[n_hints] = length
                    sort_keys[n_hints] = sort_key
                    n_hints += 1
                    store[used] = sort_key
                    store[used + 1] = 0
                    store[used + 2] = length
                    store[used + 3] = length
                    used += 4
                    n = target
                    while n >= 0:
                        store[used] = key[n]
                        used += 1
                        n = parent[n]
                    k = key[target]
                    c = k // 20
                    v = k // 2 % 10
                    # createForcingChainHint: an "on" target keeps only its digit
                    store[used] = 1
                    store[used + 1] = c
                    store[used + 2] = work[c] & ~(1 << v) if k & 1 else 1 << v
                    used += 3
    # getHintList's sort, stable: by difficulty, then complexity, then sort key
    order = np.argsort(sort_keys[:n_hints], kind="mergesort")
    order = order[np.argsort(complexities[order], kind="mergesort")]
    order = order[np.argsort(diffs[order], kind="mergesort")]
    basis = np.empty((64 * 9, 2), dtype=np.int64)
    removals = np.empty((81, 2), dtype=np.int64)
    for h in order:
        at = starts[h]
        cycle = store[at + 1] == 1
        n_keys = store[at + 3]
        chain = at + 4
        nb = 0
        for i in range(n_keys - 1):  # each potential reached from the next (_rule_basis)
            k = store[chain + i]
            if k & 1 or cycle:
                if nb + 9 > basis.shape[0]:
                    grown = np.empty((2 * basis.shape[0], 2), dtype=np.int64)
                    grown[:nb] = basis[:nb]
                    basis = grown
                nb = _link_basis(k, store[chain + i + 1] // 20, work, basis, nb)
        rem = chain + n_keys
        n_removals = store[rem]
        for i in range(n_removals):
            removals[i, 0] = store[rem + 1 + 2 * i]
            removals[i, 1] = store[rem + 2 + 2 * i]
        named = hints[0]
        before = pos
        pos, buf = emit(cands0, work, basis, nb, removals, n_removals, named, buf, pos)
        if pos != before:  # a record: its chain kept where it names it
            hints = room(hints, named + 5 + n_keys)
            hints[named] = 0
            for i in range(4 + n_keys):
                hints[named + 1 + i] = store[at + i]
            hints[0] = named + 5 + n_keys
    return pos, buf, hints


@njit(cache=True)
def advanced_records(values, cands0, work, level, nesting):
    """:func:`..forcing._advanced`'s rules at ``level`` (and ``nesting``) on the chaining's
    grid (``values``, ``work``; ``cands0`` its candidates when the chaining began), those
    compiled: the level-1 rules, then (when they give nothing) at levels 2 and 3 every
    "Forcing Chains & Cycles" hint, and at level 3 then every multiple forcing chains hint; at
    level 4 every dynamic forcing chains hint of level ``nesting`` 0 or 1. Returns (the
    records, :func:`.plus.emit`'s; the chains they name: ``hints[0]`` is its length, each
    chain ``[0, sort key, cycle, complexity, n, potentials…]`` (a static chain) or
    ``[1, sort key, target, complexity, chains, (length, potentials…) a chain]`` (a forcing
    chains hint) from the index a record names)."""
    end, buf = advanced(values, cands0, work, np.empty(256, dtype=np.int64))
    hints = np.empty(256, dtype=np.int64)
    hints[0] = 1
    if end == 0 and 2 <= level <= 3:
        end, buf, hints = fcc_records(values, cands0, work, buf, 0, hints)
        if end == 0 and level == 3:
            end, buf, hints = every_records(values, work, cands0, MULTIPLE, buf, 0, hints)
    elif end == 0 and level >= 4 and nesting <= 1:
        kind = DYNAMIC if nesting == 0 else PLUS
        end, buf, hints = every_records(values, work, cands0, kind, buf, 0, hints)
    return buf[:end], hints[: hints[0]]


def compiled_rules(level: int, nesting: int) -> int:
    """How many of ``forcing._advanced``'s rules at ``level`` (and ``nesting``)
    :func:`advanced_records` runs: all but level 4's nested levels 2 and 3."""
    if level <= 3:
        return 4 + (level >= 2) + (level >= 3)
    return 5 if nesting <= 1 else 4


def advanced_offs(
    values: list[int], cands0: list[int], cands: list[int], level: int, nesting: int
) -> list[tuple[int, tuple[int, ...], tuple[tuple, int] | None]]:
    """:func:`advanced_records` read back as the plain ``forcing._advanced`` gives its offs:
    (off, its parents, the nested chain it carries — identity and complexity — or None). The
    identities are the plain ones (``chains.nested_hints``: sort key, whether a cycle, the
    potentials; ``forcing._producer(every=True)``: sort key, target, each chain's potentials
    ascending)."""
    records, hints = advanced_records(
        np.array(values, dtype=np.int64),
        np.array(cands0, dtype=np.int64),
        np.array(cands, dtype=np.int64),
        level,
        nesting,
    )
    numbers = records.tolist()
    chains = hints.tolist()
    found: list[tuple[int, tuple[int, ...], tuple[tuple, int] | None]] = []
    known: dict[int, tuple[tuple, int]] = {}
    pos = 0
    while pos < len(numbers):
        n = numbers[pos]
        parents = tuple(numbers[pos + 1 : pos + 1 + n])
        m = numbers[pos + 1 + n]
        at = pos + 2 + n
        named = numbers[at + m]
        nested = known.get(named) if named >= 0 else None
        if named >= 0 and nested is None:
            nested = known[named] = _identity(chains, named)
        found.extend((key, parents, nested) for key in numbers[at : at + m])
        pos = at + m + 1
    return found


def _identity(chains: list[int], at: int) -> tuple[tuple, int]:
    """The nested chain at ``chains[at]`` (:func:`advanced_records`): identity, complexity."""
    if chains[at] == 0:
        sort_key, cycle, complexity, n = chains[at + 1 : at + 5]
        return (sort_key, cycle == 1, *chains[at + 5 : at + 5 + n]), complexity
    sort_key, target, complexity, n_chains = chains[at + 1 : at + 5]
    parts: list[tuple[int, ...]] = []
    pos = at + 5
    for _ in range(n_chains):
        length = chains[pos]
        parts.append(tuple(chains[pos + 1 : pos + 1 + length]))
        pos += 1 + length
    return (sort_key, target, *parts), complexity
