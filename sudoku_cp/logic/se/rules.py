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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations

from .grid import BITS, BLOCK, COLUMN, COUNT, PEER_SETS, PEERS, REGION_SETS, REGIONS, ROW, SEGrid


@dataclass(frozen=True)
class Step:
    """One SE step: its name and difficulty, the candidates it removes (cell, digit mask) and
    the digit it places (SE's ``Hint.getCell()``/``getValue()``), if any."""

    name: str
    difficulty: float
    removals: tuple[tuple[int, int], ...] = ()
    placement: tuple[int, int] | None = None
    where: str = ""

    def apply(self, grid: SEGrid) -> None:
        # SE's IndirectHint.apply: removals first, then the placement (setValueAndCancel).
        for cell, mask in self.removals:
            grid.remove(cell, mask)
        if self.placement is not None:
            grid.place(*self.placement)


Producer = Callable[[SEGrid], Iterator[Step]]


_KIND_NAME = ("block", "row", "column")


def _where(kind: int, index: int) -> str:
    return f"{_KIND_NAME[kind]} {index + 1}"


def _cell_name(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def _gosper(degree: int) -> tuple[tuple[int, ...], ...]:
    """Index combinations of 0..8 in the order of SE's ``diuf/sudoku/tools/Permutations.java``
    (Gosper's hack: the masks with ``degree`` ones in increasing order)."""
    return tuple(sorted(combinations(range(9), degree), key=lambda c: sum(1 << i for i in c)))


COMBOS = {degree: _gosper(degree) for degree in (1, 2, 3, 4)}


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


COUNT_POS = tuple(bin(m).count("1") for m in range(1 << 10))
POS_BITS = tuple(tuple(i for i in range(10) if m >> i & 1) for m in range(1 << 10))


# --- Singles -----------------------------------------------------------------------------


def hidden_single(g: SEGrid) -> Iterator[Step]:
    """``diuf/sudoku/solver/rules/HiddenSingle.java`` (scan) and ``HiddenSingleHint.java``
    ``getDifficulty``: 1.0 the last empty cell of a region (full house), 1.2 in a block, 1.5
    in a row or column. Full houses first, each pass blocks, columns, rows."""
    for alone in (True, False):
        for kind in (BLOCK, COLUMN, ROW):
            for index, cells in enumerate(REGIONS[kind]):
                empty = g.empty_count(cells)
                if (empty == 1) != alone:
                    continue
                for value in range(1, 10):
                    pos = g.positions(cells, value)
                    if COUNT_POS[pos] == 1:
                        cell = cells[POS_BITS[pos][0]]
                        if alone:
                            name, diff = "Full House", 1.0
                        else:
                            name, diff = "Hidden Single", 1.2 if kind == BLOCK else 1.5
                        yield Step(name, diff, (), (cell, value), _where(kind, index))


def naked_single(g: SEGrid) -> Iterator[Step]:
    """``NakedSingle.java``, ``NakedSingleHint.getDifficulty``: 2.3 (revisedRating 0)."""
    for cell in range(81):
        if not g.values[cell] and COUNT[g.cands[cell]] == 1:
            yield Step("Naked Single", 2.3, (), (cell, BITS[g.cands[cell]][0]), _cell_name(cell))


# --- Intersections -------------------------------------------------------------------------

_LOCKING_PAIRS = ((BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK))
"""``Locking.getHints``: (block, column), (block, row), (column, block), (row, block)."""


def _locking(g: SEGrid, direct: bool) -> Iterator[Step]:
    for kind1, kind2 in _LOCKING_PAIRS:
        for value in range(1, 10):
            bit = 1 << value
            for i1, cells1 in enumerate(REGIONS[kind1]):
                pos = g.positions(cells1, value)
                if COUNT_POS[pos] < 2:
                    continue
                inside = [cells1[i] for i in POS_BITS[pos]]
                set1 = REGION_SETS[kind1][i1]
                for i2, cells2 in enumerate(REGIONS[kind2]):
                    set2 = REGION_SETS[kind2][i2]
                    if set1.isdisjoint(set2) or not all(c in set2 for c in inside):
                        continue
                    removals = tuple((c, bit) for c in cells2 if c not in set1 and g.cands[c] & bit)
                    where = f"{_where(kind1, i1)} and {_where(kind2, i2)}"
                    if not direct:
                        # LockingHint.getDifficulty: 2.6 when the second region is a row or
                        # column (pointing), else 2.8 (claiming).
                        if removals:
                            pointing = kind2 in (ROW, COLUMN)
                            yield Step(
                                "Pointing" if pointing else "Claiming",
                                2.6 if pointing else 2.8,
                                removals,
                                None,
                                where,
                            )
                        continue
                    # Locking.lookForFollowingHiddenSingles: another region of the first
                    # kind crossing the second, left with one position outside it.
                    for i3, cells3 in enumerate(REGIONS[kind1]):
                        if i3 == i1 or REGION_SETS[kind1][i3].isdisjoint(set2):
                            continue
                        pos3 = g.positions(cells3, value)
                        if COUNT_POS[pos3] <= 1:
                            continue
                        outside = [cells3[i] for i in POS_BITS[pos3] if cells3[i] not in set2]
                        if len(outside) == 1:
                            # DirectLockingHint.getDifficulty: 1.7 when the first region is a
                            # block (pointing), else 1.9 (claiming).
                            pointing = kind1 == BLOCK
                            # DirectLockingHint passes IndirectHint an empty map of
                            # removals: SE applies only the placement.
                            yield Step(
                                "Direct Pointing" if pointing else "Direct Claiming",
                                1.7 if pointing else 1.9,
                                (),
                                (outside[0], value),
                                where,
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
                empty = g.empty_count(cells)
                # HiddenSet.getHints: regions with more than 2×degree empty cells (fewer
                # would show the naked set instead), or, direct, more than degree.
                if not (empty > degree * 2 or (direct and empty > degree)):
                    continue
                positions = [0] + [g.positions(cells, v) for v in range(1, 10)]
                for combo in COMBOS[degree]:
                    values = [i + 1 for i in combo]
                    common = _union_if_tuple([positions[v] for v in values], degree)
                    if not common:
                        continue
                    value_mask = sum(1 << v for v in values)
                    removals = tuple(
                        (cells[i], g.cands[cells[i]] & ~value_mask)
                        for i in POS_BITS[common]
                        if g.cands[cells[i]] & ~value_mask
                    )
                    where = f"{_where(kind, index)}: " + ",".join(map(str, values))
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
                                yield Step(name, diff, (), (cell, value), where)
                                break
                    elif removals:
                        yield Step(name, diff, removals, None, where)

    return produce


def naked_set(degree: int) -> Producer:
    """``NakedSet.java``; ``NakedSetHint.getDifficulty``: pair 3.0, triplet 3.6, quad 5.0."""
    diff = {2: 3.0, 3: 3.6, 4: 5.0}[degree]
    name = f"Naked {_SET_NAMES[degree]}"

    def produce(g: SEGrid) -> Iterator[Step]:
        for kind in _SET_KINDS:
            for index, cells in enumerate(REGIONS[kind]):
                # NakedSet.getHints: regions with at least 2×degree empty cells.
                if g.empty_count(cells) < degree * 2:
                    continue
                cands = [g.cands[c] for c in cells]
                for combo in COMBOS[degree]:
                    common = 0
                    for i in combo:
                        if COUNT[cands[i]] <= 1:
                            common = -1
                            break
                        common |= cands[i]
                    if common <= 0 or COUNT[common] != degree:
                        continue
                    removals = tuple(
                        (cells[i], cands[i] & common)
                        for i in range(9)
                        if i not in combo and cands[i] & common
                    )
                    if removals:
                        where = f"{_where(kind, index)}: " + ",".join(map(str, BITS[common]))
                        yield Step(name, diff, removals, None, where)

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
            for combo in COMBOS[degree]:
                base_mask = _mask_of(combo)
                for value in range(1, 10):
                    # Fisherman.getHints: only digits placed at most 9 − 2×degree times.
                    if placed[value] + degree * 2 > 9:
                        continue
                    common = _union_if_tuple([g.positions(bases[i], value) for i in combo], degree)
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
                        yield Step(name, diff, tuple(sorted(removals)), None, where)

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
                        where = ", ".join(map(_cell_name, (xy_cell, xz_cell, yz_cell)))
                        yield Step(name, diff, removals, None, where)

    return produce


# --- Unique rectangles and loops -----------------------------------------------------------


def _combos(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    """k of 0..n-1 in ``Permutations(k, n)``'s order (masks increasing)."""
    return tuple(sorted(combinations(range(n), k), key=lambda c: sum(1 << i for i in c)))


_REGION_OF = tuple(
    tuple(next(i for i, s in enumerate(REGION_SETS[k]) if c in s) for k in range(3))
    for c in range(81)
)
"""The index of each cell's block, row and column (``Grid.getRegionAt``)."""


def _ul_base(loop_len: int) -> float:
    """``UniqueLoopHint.getDifficulty``, revisedRating 0: 4.5 a rectangle, +0.1 a loop of 6,
    +0.2 of 8, +0.5 of 10 or more (its two ``if``s both add from 10 up)."""
    diff = 4.5
    if loop_len >= 10:
        diff += 0.3
    if loop_len >= 8:
        diff += 0.2
    elif loop_len >= 6:
        diff += 0.1
    return round(diff, 1)


def _ul_loops(g: SEGrid, start: int, v1: int, v2: int) -> list[list[int]]:
    """``UniqueLoops.checkForLoops`` with lkSudoku's fix (``Settings.islkSudokuURUL``, on by
    default): loops through cells holding both digits, each move along a region of another
    type than the move before, at most two cells with extra digits unless they all share one
    extra digit."""
    both = 1 << v1 | 1 << v2
    cands = g.cands
    found: list[list[int]] = []
    loop: list[int] = []
    in_loop: set[int] = set()
    # Only cells holding both digits can extend or close a loop (the start holds both), so
    # each region's scan keeps just those, in the region's order.
    holders = tuple(
        tuple(tuple(c for c in cells if cands[c] & both == both) for cells in REGIONS[kind])
        for kind in (BLOCK, ROW, COLUMN)
    )

    def walk(cell: int, allowed: int, extra: int, last: int) -> None:
        loop.append(cell)
        in_loop.add(cell)
        for kind in (BLOCK, ROW, COLUMN):
            if kind == last:
                continue
            for nxt in holders[kind][_REGION_OF[cell][kind]]:
                if nxt == loop[0] and len(loop) >= 4:
                    found.append(list(loop))
                elif nxt not in in_loop:
                    pot = cands[nxt]
                    new_extra = (extra | pot) & ~both
                    count = COUNT[pot]
                    if count == 2 or COUNT[new_extra] == 1 or allowed > 0:
                        walk(nxt, allowed - 1 if count > 2 else allowed, new_extra, kind)
        loop.pop()
        in_loop.discard(cell)

    walk(start, 2, 0, -1)
    return found


def _ul_valid(loop: list[int]) -> bool:
    """``UniqueLoops.isValidLoop``: cells alternate between two sets, no region twice in a set,
    and both sets cover the same regions."""
    odd: set[tuple[int, int]] = set()
    even: set[tuple[int, int]] = set()
    is_odd = False
    for cell in loop:
        seen = odd if is_odd else even
        for kind in (BLOCK, ROW, COLUMN):
            region = (kind, _REGION_OF[cell][kind])
            if region in seen:
                return False
            seen.add(region)
        is_odd = not is_odd
    return odd == even


def _shared_regions(c1: int, c2: int) -> list[tuple[int, int]]:
    return [
        (kind, _REGION_OF[c1][kind])
        for kind in (BLOCK, ROW, COLUMN)
        if _REGION_OF[c1][kind] == _REGION_OF[c2][kind]
    ]


def _common_peers(cells: list[int]) -> frozenset[int]:
    common = PEER_SETS[cells[0]]
    for cell in cells[1:]:
        common = common & PEER_SETS[cell]
    return common


def _ul_type3(
    g: SEGrid, loop: list[int], c1: int, c2: int, v1: int, v2: int, base: float, name: str
) -> list[tuple[float, int, Step]]:
    """``UniqueLoops.createType3Hints`` (lkSudoku branch): the two extra cells' other digits
    as one cell of a naked set, or the loop digits in a hidden set, in a region both share."""
    cands = g.cands
    both = 1 << v1 | 1 << v2
    extra = (cands[c1] | cands[c2]) & ~both
    out: list[tuple[float, int, Step]] = []
    for degree in range(2, 8):
        for kind, index in _shared_regions(c1, c2):
            cells = REGIONS[kind][index]
            empty = g.empty_count(cells)
            i1, i2 = cells.index(c1), cells.index(c2)
            if degree * 2 <= empty and degree >= COUNT[extra]:
                for combo in COMBOS_N[(degree, 9)]:
                    if i1 not in combo or i2 in combo:
                        continue
                    naked = extra & cands[c1] & cands[c2]
                    pots = []
                    others = []
                    for i in combo:
                        if i == i1:
                            pots.append(extra)
                        else:
                            pots.append(cands[cells[i]])
                            naked |= cands[cells[i]]
                            others.append(cells[i])
                    if COUNT[naked] != degree:
                        continue
                    common = 0
                    for p in pots:
                        if COUNT[p] <= 1:
                            common = -1
                            break
                        common |= p
                    if common <= 0 or COUNT[common] != degree:
                        continue
                    removals: dict[int, int] = {}
                    for value in BITS[common]:
                        bit = 1 << value
                        holders = [c for c in others if cands[c] & bit]
                        holders += [c for c in (c1, c2) if cands[c] & bit]
                        for victim in sorted(_common_peers(holders)):
                            if cands[victim] & bit:
                                removals[victim] = removals.get(victim, 0) | bit
                    if removals:
                        diff = round(base + (COUNT[common] - 1) * 0.1, 1)
                        step = Step(f"{name} type 3", diff, tuple(sorted(removals.items())))
                        out.append((diff, 3, step))
            if degree * 2 < empty:
                rem = [v for v in range(1, 10) if v not in (v1, v2) and not extra >> v & 1]
                if degree - 2 <= len(rem):
                    for pick in COMBOS_N[(degree - 2, len(rem))]:
                        values = [rem[i] for i in pick] + [v1, v2]
                        union = 0
                        ok = True
                        for value in values:
                            pos = g.positions(cells, value) & ~(1 << i2)
                            if not pos:
                                ok = False
                                break
                            union |= pos
                        if not ok or COUNT_POS[union] != degree:
                            continue
                        hidden = sum(1 << v for v in values)
                        union &= ~(1 << i1 | 1 << i2)
                        removals2 = tuple(
                            (cells[i], cands[cells[i]] & ~hidden)
                            for i in POS_BITS[union]
                            if cands[cells[i]] & ~hidden
                        )
                        if removals2:
                            diff = round(base + (COUNT_POS[union] - 1) * 0.1, 1)
                            out.append((diff, 3, Step(f"{name} type 3", diff, removals2)))
    return out


COMBOS_N = {(k, n): _combos(k, n) for n in range(10) for k in range(n + 1)}


def unique_loops(g: SEGrid) -> Iterator[Step]:
    """``rules/unique/UniqueLoops.java``: every unique rectangle or loop of the grid, sorted by
    difficulty then type (SE sorts its list before handing it on); difficulties
    ``UniqueLoopHint.getDifficulty`` (types 1, 2, 4), ``UniqueLoopType3NakedHint`` (+0.1 per
    naked digit beyond one) and ``UniqueLoopType3HiddenHint`` (+0.1 per hidden cell beyond
    one)."""
    cands = g.cands
    found: list[tuple[float, int, Step]] = []
    for start in range(81):
        if COUNT[cands[start]] != 2:
            continue
        v1, v2 = BITS[cands[start]]
        both = 1 << v1 | 1 << v2
        for loop in _ul_loops(g, start, v1, v2):
            if not _ul_valid(loop):
                continue
            base = _ul_base(len(loop))
            kind = "Rectangle" if len(loop) == 4 else f"Loop {len(loop)}"
            name = f"Unique {kind}"
            extras = [c for c in loop if COUNT[cands[c]] > 2]
            if len(extras) == 1:
                # createType1Hint: both loop digits leave the one cell with more.
                found.append((base, 1, Step(f"{name} type 1", base, ((extras[0], both),))))
            elif len(extras) > 2 or (
                len(extras) == 2 and COUNT[(cands[extras[0]] | cands[extras[1]]) & ~both] == 1
            ):
                # createType2Hint: the extra digit leaves the cells that see every extra cell.
                value = BITS[cands[extras[0]] & ~both][0]
                bit = 1 << value
                victims = sorted(_common_peers(extras) - set(extras))
                removals = tuple((c, bit) for c in victims if cands[c] & bit)
                if removals:
                    found.append((base, 2, Step(f"{name} type 2", base, removals)))
            elif len(extras) == 2:
                found.extend(_ul_type3(g, loop, extras[0], extras[1], v1, v2, base, name))
            if len(extras) == 2:
                # createType4Hint: a loop digit only in the two extra cells of a region they
                # share: the other loop digit leaves both (the last such region type wins).
                c1, c2 = extras
                r1 = r2 = False
                for kind_i, index in _shared_regions(c1, c2):
                    rest = [c for c in REGIONS[kind_i][index] if c not in (c1, c2)]
                    if not any(cands[c] >> v1 & 1 for c in rest):
                        r1 = True
                    if not any(cands[c] >> v2 & 1 for c in rest):
                        r2 = True
                if r1 or r2:
                    gone = 1 << (v2 if r1 else v1)
                    found.append((base, 4, Step(f"{name} type 4", base, ((c1, gone), (c2, gone)))))
    found.sort(key=lambda item: (item[0], item[1]))
    for _diff, _type, step in found:
        yield step


# --- Bivalue universal grave -----------------------------------------------------------------


def bug(g: SEGrid) -> Iterator[Step]:
    """``rules/unique/BivalueUniversalGrave.java`` with lkSudoku's fix
    (``Settings.islkSudokuBUG``, on by default): the BUG cells hold a digit that has neither
    zero nor two places in some region; without those digits the grid must be a bivalue
    universal grave. Then, as SE adds them (it keeps the first): type 1, one BUG cell keeps
    only its BUG digits (``Bug1Hint`` 5.6); type 2, one BUG digit leaves the cells seeing every
    BUG cell (``Bug2Hint`` 5.7); type 4, two BUG cells in one region sharing one other digit
    (``Bug4Hint`` 5.7); type 3, the BUG digits as one cell of a naked set
    (``Bug3Hint`` 5.7 + 0.1 a digit beyond two)."""
    cands = g.cands
    bug_cells: list[int] = []
    values_of: dict[int, int] = {}
    bug_values = 0
    common: frozenset[int] | None = None
    extra_cells: set[int] | None = None
    only_value = 0
    one_value = True
    temp = list(cands)

    def add(cell: int, value: int, replace: bool) -> bool:
        """Record a BUG cell; False when SE gives up (several cells and digits, no common
        peer)."""
        nonlocal common
        if cell not in bug_cells:
            bug_cells.append(cell)
        values_of[cell] = (0 if replace else values_of.get(cell, 0)) | 1 << value
        temp[cell] &= ~(1 << value)
        common = PEER_SETS[cell] if common is None else common & PEER_SETS[cell]
        common = common - set(bug_cells)
        return not (len(bug_cells) > 1 and COUNT[bug_values] > 1 and not common)

    for kind in (BLOCK, ROW, COLUMN):
        for cells in REGIONS[kind]:
            for value in range(1, 10):
                pos = g.positions(cells, value)
                if COUNT_POS[pos] in (0, 2):
                    continue
                new = [cells[i] for i in POS_BITS[pos] if COUNT[cands[cells[i]]] >= 3]
                if extra_cells is None:
                    extra_cells, only_value = set(new), value
                elif one_value:
                    if only_value == value:
                        extra_cells.update(new)
                    else:
                        one_value = False
                if len(new) == 1:
                    bug_values |= 1 << value
                    if not add(new[0], value, False):
                        return
                if not new:
                    return
    if one_value and extra_cells is not None and len(extra_cells) > len(bug_cells):
        # lkSudoku's type 2 with one digit: every extra cell is a BUG cell (the BUG digits
        # are left as they were, as SE leaves allBugValues; CellSet iterates by index).
        for cell in sorted(extra_cells - set(bug_cells)):
            if not add(cell, only_value, True):
                return
    for cell in range(81):
        if not g.values[cell] and COUNT[temp[cell]] != 2:
            return
    for kind in (BLOCK, ROW, COLUMN):
        for cells in REGIONS[kind]:
            for value in range(1, 10):
                bit = 1 << value
                if sum(1 for c in cells if temp[c] & bit) not in (0, 2):
                    return
    common_cells = sorted(common) if common else []
    if len(bug_cells) == 1:
        cell = bug_cells[0]
        removable = cands[cell] & ~bug_values
        yield Step(
            "BUG type 1", 5.6, ((cell, removable),) if removable else (), None, _cell_name(cell)
        )
        return
    if COUNT[bug_values] == 1:
        bit = bug_values
        removals = tuple((c, bit) for c in common_cells if cands[c] & bit)
        if common_cells and removals:
            yield Step("BUG type 2", 5.7, removals)
        if len(bug_cells) == 2:
            yield from _bug4(g, bug_cells, values_of, bug_values)
        return
    if common_cells:
        if len(bug_cells) == 2:
            yield from _bug4(g, bug_cells, values_of, bug_values)
        yield from _bug3(g, bug_cells, bug_values, common_cells)


def _shared_region(cells: list[int], kind: int) -> int | None:
    index = _REGION_OF[cells[0]][kind]
    return index if all(_REGION_OF[c][kind] == index for c in cells) else None


def _bug4(
    g: SEGrid, bug_cells: list[int], values_of: dict[int, int], bug_values: int
) -> Iterator[Step]:
    """``BivalueUniversalGrave.addBug4Hint``: the two BUG cells share a region and one
    non-BUG digit; each keeps only its BUG digits and that digit."""
    cands = g.cands
    c1, c2 = bug_cells[0], bug_cells[1]
    shared = cands[c1] & cands[c2] & ~bug_values
    if COUNT[shared] != 1:
        return
    for kind in (BLOCK, ROW, COLUMN):
        if _shared_region([c1, c2], kind) is not None:
            r1 = cands[c1] & ~values_of[c1] & ~shared
            r2 = cands[c2] & ~values_of[c2] & ~shared
            yield Step("BUG type 4", 5.7, tuple((c, m) for c, m in ((c1, r1), (c2, r2)) if m))
            return


def _bug3(
    g: SEGrid, bug_cells: list[int], bug_values: int, common_cells: list[int]
) -> Iterator[Step]:
    """``BivalueUniversalGrave.addBug3Hint`` (lkSudoku's branch): the BUG digits, as one cell,
    with degree − 1 cells of a region all BUG cells share, form a naked set; its digits leave
    the cells that see every holder of each."""
    cands = g.cands
    for degree in range(2, 7):
        for kind in (BLOCK, ROW, COLUMN):
            index = _shared_region(bug_cells, kind)
            if index is None:
                continue
            region_cells = [c for c in common_cells if _REGION_OF[c][kind] == index]
            if len(region_cells) < degree:
                continue
            for pick in COMBOS_N[(degree - 1, len(region_cells))]:
                naked = [region_cells[i] for i in pick]
                other = 0
                for c in naked:
                    other |= cands[c]
                if COUNT[other] != degree:
                    continue
                union = 0
                ok = True
                for mask in [cands[c] for c in naked] + [bug_values]:
                    if COUNT[mask] <= 1:
                        ok = False
                        break
                    union |= mask
                if not ok or COUNT[union] != degree:
                    continue
                removals: dict[int, int] = {}
                for value in BITS[union]:
                    bit = 1 << value
                    holders = [c for c in naked if cands[c] & bit]
                    holders += [c for c in bug_cells if cands[c] & bit]
                    for victim in sorted(_common_peers(holders)):
                        if cands[victim] & bit:
                            removals[victim] = removals.get(victim, 0) | bit
                if removals:
                    diff = round(5.7 + (COUNT[union] - 1) * 0.1, 1)
                    yield Step("BUG type 3", diff, tuple(sorted(removals.items())))


# --- Aligned pair exclusion ----------------------------------------------------------------


def aligned_pair_exclusion(g: SEGrid) -> Iterator[Step]:
    """``rules/AlignedPairExclusion.java``; ``AlignedExclusionHint.getDifficulty`` 6.2 for two
    cells. Candidate cells: two or more digits, no peer with one digit, and some bivalue peer;
    pairs in ``diuf/sudoku/tools/Twomutations.java``'s order ((0,1), (0,2), (1,2), (0,3) …);
    with two or more common bivalue peers, a pair of digits is excluded when the cells see each
    other and the digits are equal, or when it would empty a common bivalue peer; a cell's
    digit in no allowed pair goes."""
    cands = g.cands
    candidates: list[int] = []
    excluders: dict[int, list[int]] = {}
    for cell in range(81):
        if COUNT[cands[cell]] < 2:
            continue
        single = False
        bivalue = []
        for peer in PEERS[cell]:
            count = COUNT[cands[peer]]
            if count == 1:
                single = True
            elif count == 2:
                bivalue.append(peer)
        if not single and bivalue:
            candidates.append(cell)
            excluders[cell] = bivalue
    for n2 in range(1, len(candidates)):
        for n1 in range(n2):
            c0, c1 = candidates[n1], candidates[n2]
            common_set = set(excluders[c1])
            common = [c for c in excluders[c0] if c in common_set]
            if len(common) < 2:
                continue
            sees = c1 in PEER_SETS[c0]
            allowed0 = allowed1 = 0
            for d0 in BITS[cands[c0]]:
                for d1 in BITS[cands[c1]]:
                    if d0 == d1 and sees:
                        continue
                    pair = 1 << d0 | 1 << d1
                    if any(cands[c] & ~pair == 0 for c in common):
                        continue
                    allowed0 |= 1 << d0
                    allowed1 |= 1 << d1
            removals = tuple(
                (c, cands[c] & ~allowed)
                for c, allowed in ((c0, allowed0), (c1, allowed1))
                if cands[c] & ~allowed
            )
            if removals:
                where = f"{_cell_name(c0)}, {_cell_name(c1)}"
                yield Step("Aligned Pair Exclusion", 6.2, tuple(sorted(removals)), None, where)


# --- Forcing chains and cycles (SE's static chaining) ----------------------------------------
#
# ``rules/chaining/Chaining.java`` built as ``Chaining(false, false, false, 0, false, 0)`` (SE's
# "Forcing Chains & Cycles"): ``getHintList`` runs ``getLoopHintList`` three times — X-links
# only, Y-links only, both — and sorts every hint found by difficulty, then complexity (the
# chain's distinct potentials, ``ChainingHint.getAncestorCount``), then ``getSortKey`` (2 X, 3
# Y, 4 both), keeping the order found among equals (Java's sort is stable). A potential is
# (cell, digit, on/off); each keeps the one parent it was reached from.

_Key = tuple[int, int, bool]
_Node = tuple[_Key, "object"]  # (potential, parent node or None)


def _length_difficulty(complexity: int) -> float:
    """``ChainingHint.getLengthDifficulty``: +0.1 each time the length (complexity − 2) passes
    4, 6, 8, 12, 16, 24, 32 … (the ceiling grows by 3/2 and 4/3 in turn)."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added


class _Links:
    """``Chaining.getOnToOff`` and ``getOffToOn`` on one grid state, cached (the grid does not
    change while the rule searches)."""

    def __init__(self, g: SEGrid) -> None:
        self.cands = g.cands
        self._off: dict[tuple[int, int, bool], list[tuple[int, int]]] = {}
        self._on: dict[tuple[int, int, bool, bool], list[tuple[int, int]]] = {}

    def on_to_off(self, cell: int, value: int, y: bool) -> list[tuple[int, int]]:
        """What turning (cell, value) on turns off: with Y-links the cell's other digits, then
        the digit's other places in the cell's block, row, column (each cell once)."""
        key = (cell, value, y)
        found = self._off.get(key)
        if found is None:
            cands = self.cands
            found = []
            if y:
                found.extend((cell, v) for v in BITS[cands[cell]] if v != value)
            bit = 1 << value
            added = {cell}
            for kind in (BLOCK, ROW, COLUMN):
                for other in REGIONS[kind][_REGION_OF[cell][kind]]:
                    if other not in added and cands[other] & bit:
                        found.append((other, value))
                        added.add(other)
            self._off[key] = found
        return found

    def off_to_on(self, cell: int, value: int, y: bool, x: bool) -> list[tuple[int, int]]:
        """What turning (cell, value) off turns on: with Y-links the other digit of a bivalue
        cell; with X-links the digit's only other place in the cell's block, row, column."""
        key = (cell, value, y, x)
        found = self._on.get(key)
        if found is None:
            cands = self.cands
            found = []
            if y and COUNT[cands[cell]] == 2:
                found.append((cell, BITS[cands[cell] & ~(1 << value)][0]))
            if x:
                bit = 1 << value
                for kind in (BLOCK, ROW, COLUMN):
                    others = [
                        c
                        for c in REGIONS[kind][_REGION_OF[cell][kind]]
                        if c != cell and cands[c] & bit
                    ]
                    if len(others) == 1 and (others[0], value) not in found:
                        found.append((others[0], value))
            self._on[key] = found
        return found


def _chain(node: tuple) -> list[_Key]:
    """The potentials from ``node`` back to its source, ``node`` first."""
    keys = []
    while node is not None:
        keys.append(node[0])
        node = node[1]
    return keys


def _is_parent(node: tuple, key: _Key) -> bool:
    """``Chaining.isParent``: ``key`` among ``node``'s ancestors (``node`` itself excluded)."""
    node = node[1]
    while node is not None:
        if node[0] == key:
            return True
        node = node[1]
    return False


def _cycles(links: _Links, source: _Key, y: bool, x: bool) -> list[tuple]:
    """``Chaining.doCycles``: breadth first from ``source`` (on), alternating on→off and
    off→on; an on potential is expanded once, an off one unless it is an ancestor; a path back
    to ``source`` of length 4 or more is a cycle."""
    to_on = {source}
    pending_on: list[tuple] = [(source, None)]
    pending_off: list[tuple] = []
    cycles = []
    length = 0
    while pending_on or pending_off:
        length += 1
        for node in pending_on:
            cell, value, _ = node[0]
            for c, v in links.on_to_off(cell, value, y):
                key = (c, v, False)
                if not _is_parent(node, key):
                    pending_off.append((key, node))
        pending_on = []
        length += 1
        for node in pending_off:
            cell, value, _ = node[0]
            for c, v in links.off_to_on(cell, value, y, x):
                key = (c, v, True)
                if length >= 4 and key == source:
                    cycles.append((key, node))
                if key not in to_on:
                    to_on.add(key)
                    pending_on.append((key, node))
        pending_off = []
    return cycles


def _forcing(links: _Links, source: _Key, y: bool, chains: list[tuple], seen: set) -> None:
    """``Chaining.doForcingChains`` (X-links always on): breadth first from ``source``; a path
    to the source's opposite is a forcing chain (the first found for each target)."""
    to_on: set[_Key] = set()
    to_off: set[_Key] = set()
    pending_on: list[tuple] = []
    pending_off: list[tuple] = []
    if source[2]:
        to_on.add(source)
        pending_on.append((source, None))
    else:
        to_off.add(source)
        pending_off.append((source, None))
    opposite = (source[0], source[1], not source[2])
    while pending_on or pending_off:
        for node in pending_on:
            cell, value, _ = node[0]
            for c, v in links.on_to_off(cell, value, y):
                key = (c, v, False)
                if key == opposite and key not in seen:
                    seen.add(key)
                    chains.append((key, node))
                if key not in to_off:
                    to_off.add(key)
                    pending_off.append((key, node))
        pending_on = []
        for node in pending_off:
            cell, value, _ = node[0]
            for c, v in links.off_to_on(cell, value, y, True):
                key = (c, v, True)
                if key == opposite and key not in seen:
                    seen.add(key)
                    chains.append((key, node))
                if key not in to_on:
                    to_on.add(key)
                    pending_on.append((key, node))
        pending_off = []


def forcing_chains_cycles(g: SEGrid) -> Iterator[Step]:
    """SE's "Forcing Chains & Cycles". Difficulties: ``CycleHint.getDifficulty`` 6.5 (X- or
    Y-cycle) or 7.0 (both kinds of link), ``ForcingChainHint.getDifficulty`` 6.6 (X) or 7.0
    (both), each plus ``getLengthDifficulty``."""
    cands = g.cands
    links = _Links(g)
    found: list[tuple[float, int, int, int, Step]] = []
    order = 0
    for y, x in ((False, True), (True, False), (True, True)):  # getHintList's three passes
        sort_key = 4 if (x and y) else 3 if y else 2
        cycle_base = 7.0 if (x and y) else 6.5
        chain_base = 7.0 if (x and y) else 6.6
        for cell in range(81):
            if g.values[cell] or COUNT[cands[cell]] < 2:
                continue
            if not x and COUNT[cands[cell]] > 2:
                continue  # doUnaryChaining: Y-cycles start from bivalue cells only
            for value in BITS[cands[cell]]:
                source = (cell, value, True)
                hints: list[tuple[float, int, Step]] = []
                for dst in _cycles(links, source, y, x):
                    keys = _chain(dst)
                    path = keys[:-1]  # without the source at the end (dstOn equals it)
                    in_cycle = {k[0] for k in path}
                    forw: set[tuple[int, int]] = set()
                    back: set[tuple[int, int]] = set()
                    for c, v, on in path:
                        bit = 1 << v
                        for peer in PEERS[c]:
                            if peer not in in_cycle and cands[peer] & bit:
                                (forw if on else back).add((peer, v))
                    cancel = forw & back
                    if not cancel:
                        continue
                    removals: dict[int, int] = {}
                    for c, v in cancel:
                        removals[c] = removals.get(c, 0) | 1 << v
                    complexity = len(set(keys))
                    diff = cycle_base + _length_difficulty(complexity)
                    # CycleHint.getName
                    if sort_key == 2:
                        name = (
                            "Generalized X-Wing" if len(in_cycle) == 4 else "Bidirectional X-Cycle"
                        )
                    else:
                        name = "Bidirectional Y-Cycle" if sort_key == 3 else "Bidirectional Cycle"
                    step = Step(name, round(diff, 1), tuple(sorted(removals.items())))
                    hints.append((diff, complexity, step))
                if x:
                    chains: list[tuple] = []
                    seen: set[_Key] = set()
                    _forcing(links, source, y, chains, seen)
                    _forcing(links, (cell, value, False), y, chains, seen)
                    for target in chains:
                        (c, v, on) = target[0]
                        # createForcingChainHint: an "on" target keeps only its digit.
                        removal = (c, cands[c] & ~(1 << v)) if on else (c, 1 << v)
                        complexity = len(set(_chain(target)))
                        diff = chain_base + _length_difficulty(complexity)
                        # ForcingChainHint.getName
                        if sort_key == 2:
                            name = "Turbot Fish" if complexity == 6 else "Forcing X-Chain"
                        else:
                            name = "Forcing Chain"
                        step = Step(name, round(diff, 1), (removal,), None, _cell_name(c))
                        hints.append((diff, complexity, step))
                for diff, complexity, step in hints:
                    found.append((diff, complexity, sort_key, order, step))
                    order += 1
    found.sort(key=lambda item: item[:4])
    for item in found:
        yield item[4]
