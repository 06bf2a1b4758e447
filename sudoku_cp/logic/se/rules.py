"""Sudoku Explainer's rules, in SE's order, with SE's difficulty values.

Read (not copied) from SudokuMonster/SukakuExplainer (LGPL-2.1), the SE 1.2.1 technique set
(``diuf/sudoku/Settings.java`` ``init121``;
``serate --techs=1111111111010111011011011011000010100010111111``)
with ``revisedRating`` 0, serate's default (``diuf/sudoku/test/serate.java``). The order is the
producers' order in ``diuf/sudoku/solver/Solver.java`` (the ``Solver(Grid)`` constructor, the
``else`` branch of ``revisedRating()==1``): SE applies the *first* step the first producer that
has one finds (``Solver.getSingleHint`` with a ``SingleHintAccumulator``), so each producer
here scans regions, digits and cell combinations in the order SE's does.

Each producer is a generator of :class:`Step`; the rater takes the first step of the first
producer that yields one.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .grid import (
    BITS,
    BLOCK,
    COLUMN,
    COUNT,
    PEER_SETS,
    PEERS,
    REGION_SETS,
    REGIONS,
    ROW,
    SCAN_REGIONS,
    SEGrid,
)
from .step import COUNT_POS, POS_BITS, Producer, Step, cell_name

_KIND_NAME = ("block", "row", "column")


def _where(kind: int, index: int) -> str:
    return f"{_KIND_NAME[kind]} {index + 1}"


def _gosper(degree: int) -> tuple[tuple[int, ...], ...]:
    """Index combinations of 0..8 in the order of SE's ``diuf/sudoku/tools/Permutations.java``
    (Gosper's hack: the masks with ``degree`` ones in increasing order)."""
    return tuple(sorted(combinations(range(9), degree), key=lambda c: sum(1 << i for i in c)))


COMBOS = {degree: _gosper(degree) for degree in (1, 2, 3, 4)}
COMBO_MASKS = {d: tuple(sum(1 << i for i in c) for c in combos) for d, combos in COMBOS.items()}
COMBOS_WITHIN = {
    degree: tuple(
        tuple(
            (combo, mask)
            for combo, mask in zip(COMBOS[degree], COMBO_MASKS[degree], strict=True)
            if not mask & ~usable
        )
        for usable in range(1 << 9)
    )
    for degree in COMBOS
}
"""For each degree and mask of indexes 0..8, the combinations (with their masks) inside the
mask, in :data:`COMBOS`' order: what a scan of every combination skipping those with an index
outside the mask meets, and in the same order."""


def _mask_of(indexes: tuple[int, ...]) -> int:
    mask = 0
    for i in indexes:
        mask |= 1 << i
    return mask


def _union_if_tuple(masks: list[int], degree: int) -> int:
    """SE's ``CommonTuples.searchCommonTuple``: the union of ``masks`` when each has at least
    two members and the union has exactly ``degree``; else 0."""
    union = 0
    for mask in masks:
        if COUNT_POS[mask] <= 1:
            return 0
        union |= mask
    return union if COUNT_POS[union] == degree else 0


_REGION_BITS = tuple(tuple(sum(1 << c for c in cells) for cells in kind) for kind in REGIONS)
"""Each region's cells as one 81-bit mask."""


# --- Singles -----------------------------------------------------------------------------


def hidden_single(g: SEGrid) -> Iterator[Step]:
    """``diuf/sudoku/solver/rules/HiddenSingle.java`` (scan) and ``HiddenSingleHint.java``
    ``getDifficulty``: 1.0 the last empty cell of a region (full house), 1.2 in a block, 1.5
    in a row or column. Full houses first, each pass blocks, columns, rows; in a region the
    digits in ascending order (a digit with one place: among the region's candidate masks,
    in one and in no second)."""
    cands = g.cands
    counts = g.region_empty()
    # full houses (one empty cell) first, then the regions with two or more; a full region
    # has no candidates, so no single
    for alone in (True, False):
        if alone and 1 not in counts:
            continue
        for slot, (kind, index, cells) in enumerate(SCAN_REGIONS):
            left = counts[slot]
            if left == 0 or (left == 1) != alone:
                continue
            once = twice = 0
            for cell in cells:
                mask = cands[cell]
                twice |= once & mask
                once |= mask
            single = once & ~twice
            while single:
                low = single & -single
                single ^= low
                value = low.bit_length() - 1
                cell = next(c for c in cells if cands[c] & low)
                if alone:
                    name, diff = "Full House", 1.0
                else:
                    name, diff = "Hidden Single", 1.2 if kind == BLOCK else 1.5
                yield Step(name, diff, (), (cell, value), _where(kind, index))


def naked_single(g: SEGrid) -> Iterator[Step]:
    """``NakedSingle.java``, ``NakedSingleHint.getDifficulty``: 2.3 (revisedRating 0)."""
    for cell in range(81):
        if not g.values[cell] and COUNT[g.cands[cell]] == 1:
            yield Step("Naked Single", 2.3, (), (cell, BITS[g.cands[cell]][0]), cell_name(cell))


# --- Intersections -------------------------------------------------------------------------

_LOCKING_PAIRS = ((BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK))
"""``Locking.getHints``: (block, column), (block, row), (column, block), (row, block)."""


_CROSSING = {
    (kind1, kind2): tuple(
        tuple(
            i2
            for i2 in range(9)
            if _REGION_BITS[kind1][i1] & _REGION_BITS[kind2][i2]  # Region.crosses
        )
        for i1 in range(9)
    )
    for kind1, kind2 in _LOCKING_PAIRS
}
"""For each pair of region kinds Locking reads, the regions of the second kind each region of
the first crosses, in index order."""


_PLACE_BITS = tuple(
    tuple(
        tuple(sum(1 << cells[i] for i in POS_BITS[pos]) for pos in range(1 << 9)) for cells in kind
    )
    for kind in REGIONS
)
"""For each region and mask of its places (indexes 0..8), the same places as an 81-bit mask."""


_CROSSED = {
    (kind1, kind2): tuple(
        tuple(
            (
                i3,
                sum(1 << i for i, c in enumerate(REGIONS[kind1][i3]) if c in cells2),
            )
            for i3 in range(9)
            if not REGION_SETS[kind1][i3].isdisjoint(cells2)
        )
        for cells2 in REGION_SETS[kind2]
    )
    for kind1, kind2 in _LOCKING_PAIRS
}
"""For each pair of region kinds Locking reads and each region of the second kind, the regions
of the first kind that cross it, ascending, each with the mask of its places (indexes 0..8)
inside the crossed region."""


def _locking(g: SEGrid, direct: bool) -> Iterator[Step]:
    tables = [[g.all_positions(cells) for cells in REGIONS[kind]] for kind in range(3)]
    for kind1, kind2 in _LOCKING_PAIRS:
        crossing = _CROSSING[kind1, kind2]
        bits2 = _REGION_BITS[kind2]
        table1 = tables[kind1]
        place_bits = _PLACE_BITS[kind1]
        crossed = _CROSSED[kind1, kind2]
        for value in range(1, 10):
            bit = 1 << value
            for i1, cells1 in enumerate(REGIONS[kind1]):
                pos = table1[i1][value]
                if COUNT_POS[pos] < 2:
                    continue
                inside_bits = place_bits[i1][pos]
                set1 = REGION_SETS[kind1][i1]
                for i2 in crossing[i1]:
                    if inside_bits & ~bits2[i2]:
                        continue  # a place of the digit outside the second region
                    cells2 = REGIONS[kind2][i2]
                    set2 = REGION_SETS[kind2][i2]
                    if not direct:
                        removals = tuple(
                            (c, bit) for c in cells2 if c not in set1 and g.cands[c] & bit
                        )
                        # LockingHint.getDifficulty: 2.6 when the second region is a row or
                        # column (pointing), else 2.8 (claiming).
                        if removals:
                            pointing = kind2 in (ROW, COLUMN)
                            # LockingHint.getRuleParents: the digit gone from the first
                            # region's cells outside the second
                            basis = tuple((c, bit) for c in cells1 if c not in set2)
                            yield Step(
                                "Pointing" if pointing else "Claiming",
                                2.6 if pointing else 2.8,
                                removals,
                                None,
                                f"{_where(kind1, i1)} and {_where(kind2, i2)}",
                                basis,
                            )
                        continue
                    # Locking.lookForFollowingHiddenSingles: another region of the first
                    # kind crossing the second, left with one position outside it.
                    for i3, inside in crossed[i2]:
                        if i3 == i1:
                            continue
                        pos3 = table1[i3][value]
                        if COUNT_POS[pos3] <= 1:
                            continue
                        outside = pos3 & ~inside
                        if COUNT_POS[outside] == 1:
                            # DirectLockingHint.getDifficulty: 1.7 when the first region is a
                            # block (pointing), else 1.9 (claiming).
                            pointing = kind1 == BLOCK
                            # DirectLockingHint passes IndirectHint an empty map of
                            # removals: SE applies only the placement.
                            yield Step(
                                "Direct Pointing" if pointing else "Direct Claiming",
                                1.7 if pointing else 1.9,
                                (),
                                (REGIONS[kind1][i3][POS_BITS[outside][0]], value),
                                f"{_where(kind1, i1)} and {_where(kind2, i2)}",
                            )


def direct_locking(g: SEGrid) -> Iterator[Step]:
    """``Locking.java`` with ``isDirectMode`` (SE's "Direct Pointing" technique)."""
    return _locking(g, True)


def locking(g: SEGrid) -> Iterator[Step]:
    """``Locking.java`` without direct mode (SE's "Pointing & Claiming")."""
    return _locking(g, False)


# --- Hidden and naked sets -----------------------------------------------------------------

_SET_KINDS = (BLOCK, COLUMN, ROW)
"""``HiddenSet.getHints`` and ``NakedSet.getHints`` scan blocks, columns, rows."""
_SET_NAMES = {2: "Pair", 3: "Triplet", 4: "Quad"}


def _set_where(kind: int, index: int, combo: tuple[int, ...]) -> str:
    """A hidden set's place and digits (``combo``: indexes 0..8, digit = index + 1)."""
    return f"{_where(kind, index)}: " + ",".join(str(i + 1) for i in combo)


def hidden_set(degree: int, direct: bool) -> Producer:
    """``HiddenSet.java``; difficulties from ``DirectHiddenSetHint.getDifficulty`` (direct:
    pair 2.0, triplet 2.5) and ``HiddenSetHint.getDifficulty`` (pair 3.4, triplet 4.0, quad
    5.4), revisedRating 0."""
    if direct:
        diff = {2: 2.0, 3: 2.5}[degree]
        name = f"Direct Hidden {_SET_NAMES[degree]}"
    else:
        diff = {2: 3.4, 3: 4.0, 4: 5.4}[degree]
        name = f"Hidden {_SET_NAMES[degree]}"

    def produce(g: SEGrid) -> Iterator[Step]:
        for kind in _SET_KINDS:
            for index, cells in enumerate(REGIONS[kind]):
                empty = g.empty_in(_REGION_BITS[kind][index])
                # HiddenSet.getHints: regions with more than 2×degree empty cells (fewer
                # would show the naked set instead), or, direct, more than degree.
                if not (empty > degree * 2 or (direct and empty > degree)):
                    continue
                positions = g.all_positions(cells)
                # digits with two places or more (searchCommonTuple refuses the others)
                usable = 0
                for i in range(9):
                    if COUNT_POS[positions[i + 1]] >= 2:
                        usable |= 1 << i
                for combo, combo_mask in COMBOS_WITHIN[degree][usable]:
                    common = 0
                    for i in combo:
                        common |= positions[i + 1]
                    if COUNT_POS[common] != degree:
                        continue
                    value_mask = combo_mask << 1  # index i is digit i + 1
                    if direct:
                        # createHiddenSetHint, direct: the first other digit left with one
                        # position once the set's cells are taken.
                        for value in range(1, 10):
                            if value_mask >> value & 1 or COUNT_POS[positions[value]] <= 1:
                                continue
                            rest = positions[value] & ~common
                            if COUNT_POS[rest] == 1:
                                cell = cells[POS_BITS[rest][0]]
                                # DirectHiddenSetHint passes IndirectHint an empty map of
                                # removals: SE applies only the placement.
                                where = _set_where(kind, index, combo)
                                yield Step(name, diff, (), (cell, value), where)
                                break
                        continue
                    removals = tuple(
                        (cells[i], g.cands[cells[i]] & ~value_mask)
                        for i in POS_BITS[common]
                        if g.cands[cells[i]] & ~value_mask
                    )
                    if removals:
                        # HiddenSetHint.getRuleParents: the set's digits gone from the
                        # region's other cells
                        basis = tuple(
                            (cells[i], value_mask) for i in range(9) if not common >> i & 1
                        )
                        where = _set_where(kind, index, combo)
                        yield Step(name, diff, removals, None, where, basis)

    return produce


def naked_set(degree: int) -> Producer:
    """``NakedSet.java``; ``NakedSetHint.getDifficulty``: pair 3.0, triplet 3.6, quad 5.0."""
    diff = {2: 3.0, 3: 3.6, 4: 5.0}[degree]
    name = f"Naked {_SET_NAMES[degree]}"

    def produce(g: SEGrid) -> Iterator[Step]:
        for kind in _SET_KINDS:
            for index, cells in enumerate(REGIONS[kind]):
                # NakedSet.getHints: regions with at least 2×degree empty cells.
                if g.empty_in(_REGION_BITS[kind][index]) < degree * 2:
                    continue
                cands = [g.cands[c] for c in cells]
                # the cells with two candidates or more (searchCommonTuple refuses the others)
                usable = 0
                for i in range(9):
                    if COUNT[cands[i]] >= 2:
                        usable |= 1 << i
                for combo, _mask in COMBOS_WITHIN[degree][usable]:
                    common = 0
                    for i in combo:
                        common |= cands[i]
                    if COUNT[common] != degree:
                        continue
                    removals = tuple(
                        (cells[i], cands[i] & common)
                        for i in range(9)
                        if i not in combo and cands[i] & common
                    )
                    if removals:
                        where = f"{_where(kind, index)}: " + ",".join(map(str, BITS[common]))
                        # NakedSetHint.getRuleParents: the other digits gone from the set's
                        # cells
                        basis = tuple((cells[i], 0b1111111110 & ~common) for i in combo)
                        yield Step(name, diff, removals, None, where, basis)

    return produce


# --- Fish ----------------------------------------------------------------------------------


def fish(degree: int) -> Producer:
    """``Fisherman.java`` (columns as base then rows); ``LockingHint.getDifficulty`` by degree,
    revisedRating 0: X-Wing 3.2, Swordfish 3.8, Jellyfish 5.2."""
    diff = {2: 3.2, 3: 3.8, 4: 5.2}[degree]
    name = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}[degree]

    def produce(g: SEGrid) -> Iterator[Step]:
        for base_kind, cover_kind in ((COLUMN, ROW), (ROW, COLUMN)):
            placed = [0] * 10
            for v in g.values:
                placed[v] += 1
            bases = REGIONS[base_kind]
            covers = REGIONS[cover_kind]
            table = [g.all_positions(cells) for cells in bases]
            for combo in COMBOS[degree]:
                base_mask = _mask_of(combo)
                for value in range(1, 10):
                    # Fisherman.getHints: only digits placed at most 9 − 2×degree times.
                    if placed[value] + degree * 2 > 9:
                        continue
                    common = _union_if_tuple([table[i][value] for i in combo], degree)
                    if not common:
                        continue
                    bit = 1 << value
                    removals = []
                    for j in POS_BITS[common]:
                        cover = covers[j]
                        for i in range(9):
                            if not base_mask >> i & 1 and g.cands[cover[i]] & bit:
                                removals.append((cover[i], bit))
                    if removals:
                        where = f"digit {value}, {_KIND_NAME[base_kind]}s " + ",".join(
                            str(i + 1) for i in combo
                        )
                        # LockingHint.getRuleParents (Fisherman.createFishHint): the digit
                        # gone from the base lines' cells outside the cover lines; removals
                        # kept in SE's order (cover line by line)
                        basis = tuple(
                            (bases[i][j], bit)
                            for i in combo
                            for j in range(9)
                            if not common >> j & 1
                        )
                        yield Step(name, diff, tuple(removals), None, where, basis)

    return produce


# --- XY- and XYZ-Wing ----------------------------------------------------------------------


def xy_wing(xyz: bool) -> Producer:
    """``XYWing.java``; ``XYWingHint.getDifficulty``: XY-Wing 4.2, XYZ-Wing 4.4."""
    target = 3 if xyz else 2
    diff, name = (4.4, "XYZ-Wing") if xyz else (4.2, "XY-Wing")

    def produce(g: SEGrid) -> Iterator[Step]:
        cands = g.cands
        for xy_cell in range(81):
            xy = cands[xy_cell]
            if COUNT[xy] != target:
                continue
            for xz_cell in PEERS[xy_cell]:
                xz = cands[xz_cell]
                if COUNT[xz] != 2 or COUNT[xy & ~xz] != 1:
                    continue
                for yz_cell in PEERS[xy_cell]:
                    yz = cands[yz_cell]
                    if COUNT[yz] != 2 or COUNT[xy | xz | yz] != 3:
                        continue
                    inter = COUNT[xy & xz & yz]
                    if inter != (1 if xyz else 0):
                        continue
                    z = xz & yz
                    victims = PEER_SETS[xz_cell] & PEER_SETS[yz_cell]
                    if xyz:
                        victims = victims & PEER_SETS[xy_cell]
                    victims = victims - {xy_cell, xz_cell, yz_cell}
                    removals = tuple((c, z) for c in sorted(victims) if cands[c] & z)
                    if removals:
                        where = ", ".join(map(cell_name, (xy_cell, xz_cell, yz_cell)))
                        yield Step(name, diff, removals, None, where)

    return produce


# --- Aligned pair exclusion ----------------------------------------------------------------

PEER_MASKS = tuple(sum(1 << p for p in peers) for peers in PEERS)
"""Each cell's peers as an 81-bit mask."""


def _counted(cands: list[int]) -> list[int]:
    """For each candidate count 0..9, the cells with that many candidates (81-bit masks)."""
    out = [0] * 10
    for cell, mask in enumerate(cands):
        out[COUNT[mask]] |= 1 << cell
    return out


def aligned_pair_exclusion(g: SEGrid) -> Iterator[Step]:
    """``rules/AlignedPairExclusion.java``; ``AlignedExclusionHint.getDifficulty`` 6.2 for two
    cells. Candidate cells: two or more digits, no peer with one digit, and some bivalue peer;
    pairs in ``diuf/sudoku/tools/Twomutations.java``'s order ((0,1), (0,2), (1,2), (0,3) …);
    with two or more common bivalue peers, a pair of digits is excluded when the cells see each
    other and the digits are equal, or when it would empty a common bivalue peer; a cell's
    digit in no allowed pair goes."""
    cands = g.cands
    counted = _counted(cands)
    single_bits, excluder_kind = counted[1], counted[2]
    candidates: list[int] = []
    excluders: dict[int, int] = {}
    for cell in range(81):
        if COUNT[cands[cell]] < 2:
            continue
        peers = PEER_MASKS[cell]
        bivalue = peers & excluder_kind
        if bivalue and not peers & single_bits:
            candidates.append(cell)
            excluders[cell] = bivalue
    for n2 in range(1, len(candidates)):
        c1 = candidates[n2]
        ex1 = excluders[c1]
        for n1 in range(n2):
            c0 = candidates[n1]
            common_bits = excluders[c0] & ex1
            if common_bits & (common_bits - 1) == 0:
                continue  # fewer than two common bivalue peers
            # a pair of digits empties a common bivalue peer when it is that peer's two digits
            common = set()
            while common_bits:
                low = common_bits & -common_bits
                common_bits ^= low
                common.add(cands[low.bit_length() - 1])
            sees = c1 in PEER_SETS[c0]
            allowed0 = allowed1 = 0
            for d0 in BITS[cands[c0]]:
                for d1 in BITS[cands[c1]]:
                    if d0 == d1 and sees:
                        continue
                    if (1 << d0 | 1 << d1) in common:
                        continue
                    allowed0 |= 1 << d0
                    allowed1 |= 1 << d1
            removals = tuple(
                (c, cands[c] & ~allowed)
                for c, allowed in ((c0, allowed0), (c1, allowed1))
                if cands[c] & ~allowed
            )
            if removals:
                where = f"{cell_name(c0)}, {cell_name(c1)}"
                yield Step("Aligned Pair Exclusion", 6.2, tuple(sorted(removals)), None, where)


# --- Aligned triplet exclusion -------------------------------------------------------------


MEMO_ALIGNED_TRIPLETS = True
"""The speed door of :func:`aligned_triplet_exclusion`: True, the outcome of each triplet of
cells is kept, keyed by everything it reads (the three cells, their candidates and those of
their common excluders, in order), and read back when the same triplet is met again with the
same candidates, in this rating or a later one; the grid changes little between two calls, so
most triplets are met again unchanged. False: every triplet worked out each time.
``tests/test_se_rating.py`` checks both give the same ratings and steps."""

_TRIPLET_MEMO: dict[tuple[int, ...], Step | None] = {}
_TRIPLET_MEMO_CAP = 100_000
"""Entries kept at most (about 30 MB); past it the memo starts afresh."""


def aligned_triplet_exclusion(g: SEGrid) -> Iterator[Step]:
    """``rules/AlignedExclusion.java`` with degree 3; ``AlignedExclusionHint.getDifficulty``
    7.5 for three cells. Candidate cells: two or more digits, no peer with one digit, and some
    peer with two or three (its excluders). The first two cells in ``Twomutations``' order; the
    third among the other candidate cells that are excluders of the first or the second (in
    that order, ``twinArea``); with two or more common excluders, a choice of three digits is
    excluded when two cells that see each other get the same one, or when it would empty a
    common excluder; a cell's digit in no allowed choice goes. The first such step is SE's."""
    cands = g.cands
    counted = _counted(cands)
    single_bits, excluder_kind = counted[1], counted[2] | counted[3]
    candidates: list[int] = []
    excluder_bits: dict[int, int] = {}
    for cell in range(81):
        if COUNT[cands[cell]] < 2:
            continue
        peers = PEER_MASKS[cell]
        found = peers & excluder_kind
        if found and not peers & single_bits:
            candidates.append(cell)
            excluder_bits[cell] = found
    if len(candidates) < 3:
        return
    candidate_bits = sum(1 << c for c in candidates)
    memo = _TRIPLET_MEMO if MEMO_ALIGNED_TRIPLETS else None
    if memo is not None and len(memo) > _TRIPLET_MEMO_CAP:
        memo.clear()
    for n2 in range(1, len(candidates)):
        c1 = candidates[n2]
        ex1 = excluder_bits[c1]
        for n1 in range(n2):
            c0 = candidates[n1]
            ex0 = excluder_bits[c0]
            pair_bits = ex0 & ex1
            if pair_bits & (pair_bits - 1) == 0:
                continue  # fewer than two common excluders already
            # the third cell: the first cell's excluders, then the second's not met yet
            # (twinArea's order, each ascending), candidate cells other than the two
            others = candidate_bits & ~(1 << c0 | 1 << c1)
            for third in (ex0 & others, ex1 & ~ex0 & others):
                while third:
                    low = third & -third
                    third ^= low
                    c2 = low.bit_length() - 1
                    common_bits = pair_bits & excluder_bits[c2]
                    if common_bits & (common_bits - 1) == 0:
                        continue
                    common = []  # the common excluders' candidates, ascending
                    rest = common_bits
                    while rest:
                        low = rest & -rest
                        rest ^= low
                        common.append(cands[low.bit_length() - 1])
                    if memo is None:
                        step = _aligned_triplet(cands, (c0, c1, c2), common)
                    else:
                        key = (c0, c1, c2, cands[c0], cands[c1], cands[c2], *common)
                        if key in memo:
                            step = memo[key]
                        else:
                            step = memo[key] = _aligned_triplet(cands, (c0, c1, c2), common)
                    if step is not None:
                        yield step


def _aligned_triplet(
    cands: list[int], cells: tuple[int, int, int], common: list[int]
) -> Step | None:
    c0, c1, c2 = cells
    sees01, sees02, sees12 = c1 in PEER_SETS[c0], c2 in PEER_SETS[c0], c2 in PEER_SETS[c1]
    allowed0 = allowed1 = allowed2 = 0
    mask0, mask1, mask2 = cands[c0], cands[c1], cands[c2]
    for d0 in BITS[mask0]:
        b0 = 1 << d0
        for d1 in BITS[mask1]:
            if d0 == d1 and sees01:
                continue
            b01 = b0 | 1 << d1
            # the third digits this pair leaves no room for: one that would empty a common
            # excluder (all of it but that digit already taken), or equal to a seen cell's
            forbidden = 0
            for mask in common:
                rest = mask & ~b01
                if rest & (rest - 1) == 0:  # one digit left, or none (then every third one)
                    forbidden |= rest if rest else mask2
            if sees02:
                forbidden |= b0
            if sees12:
                forbidden |= 1 << d1
            third = mask2 & ~forbidden
            if third:
                allowed0 |= b0
                allowed1 |= 1 << d1
                allowed2 |= third
                if allowed0 == mask0 and allowed1 == mask1 and allowed2 == mask2:
                    return None  # every digit allowed: nothing to exclude
    removals = tuple(
        (c, cands[c] & ~allowed)
        for c, allowed in sorted(((c0, allowed0), (c1, allowed1), (c2, allowed2)))
        if cands[c] & ~allowed
    )
    if not removals:
        return None
    where = ", ".join(map(cell_name, cells))
    return Step("Aligned Triplet Exclusion", 7.5, removals, None, where)
