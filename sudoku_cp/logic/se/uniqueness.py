"""SE's uniqueness rules: unique rectangles and loops (types 1-4) and the bivalue universal
grave (BUG types 1-4), with SE's difficulty values; read (not copied) from
SudokuMonster/SukakuExplainer as :mod:`.rules` says."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .grid import BITS, BLOCK, COLUMN, COUNT, PEER_SETS, REGIONS, ROW, SEGrid
from .step import COUNT_POS, POS_BITS, REGION_OF, Step, cell_name

# --- Unique rectangles and loops -----------------------------------------------------------


def _combos(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    """k of 0..n-1 in ``Permutations(k, n)``'s order (masks increasing)."""
    return tuple(sorted(combinations(range(n), k), key=lambda c: sum(1 << i for i in c)))


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


_Holders = tuple[tuple[tuple[int, ...], ...], ...]


def _holders(cands: list[int], both: int) -> _Holders:
    """Per region type (block, row, column) and region, its cells holding both digits of
    ``both``, in the region's order: only they can extend or close a loop."""
    return tuple(
        tuple(tuple(c for c in cells if cands[c] & both == both) for cells in REGIONS[kind])
        for kind in (BLOCK, ROW, COLUMN)
    )


PRUNE_LOOPS = True
"""The speed door of :func:`_ul_loops`: True, a path whose cells put two of one region at
places of the same parity is not walked further (every loop through it fails
:func:`_ul_valid`); False, SE's walk as it is. The valid loops, and so the steps, are the same
(``tests/test_se_rating.py`` compares them)."""

SKIP_FOUND_LOOPS = True
"""The speed door of :func:`unique_loops`: True, the walk from a start cell does not step on a
cell holding exactly the two loop digits that comes before the start (a start already
walked): every valid loop through such a cell was found from it, as the same cell cycle in
both directions (a valid loop's first and last moves are along regions of different types,
else its second and last cells would share a region at the same parity, and the extra-cell
rule reads only the union of the extras), so it gives the same hints, added before. SE sorts
the hints stably by difficulty and type and applies the first, which is then the same; only
later copies are left out. False: SE's walk from every start (``tests/test_se_rating.py``
compares the first step and whole ratings)."""


def _ul_loops(
    g: SEGrid,
    start: int,
    v1: int,
    v2: int,
    holders: _Holders | None = None,
    skip_before: bool = False,
) -> list[list[int]]:
    """``UniqueLoops.checkForLoops`` with lkSudoku's fix (``Settings.islkSudokuURUL``, on by
    default): loops through cells holding both digits, each move along a region of another
    type than the move before, at most two cells with extra digits unless they all share one
    extra digit. ``holders``: :func:`_holders` of the two digits, if made already."""
    both = 1 << v1 | 1 << v2
    cands = g.cands
    found: list[list[int]] = []
    loop: list[int] = []
    in_loop: set[int] = set()
    if holders is None:
        holders = _holders(cands, both)
    # A loop's first and last cells are two holders that see the start: without them there
    # is none to look for.
    near = {c for kind in range(3) for c in holders[kind][REGION_OF[start][kind]]}
    if len(near - {start}) < 2:
        return found

    # A loop is valid (_ul_valid) only if no region holds two of its cells at places of the
    # same parity: a path that breaks this already ends in no valid loop, so its walk stops
    # there (the valid loops come out as before, in the same order). ``sides``: per region
    # (9 * type + index), the parities (bits 1 and 2) of the path's cells in it.
    sides = [0] * 27

    def mark(cell: int, side: int) -> bool:
        """Put ``cell`` on the path's ``side``; False (nothing changed) if a region of it
        already has a cell there."""
        regions = REGION_OF[cell]
        if sides[regions[0]] & side or sides[9 + regions[1]] & side:
            return False
        if sides[18 + regions[2]] & side:
            return False
        sides[regions[0]] |= side
        sides[9 + regions[1]] |= side
        sides[18 + regions[2]] |= side
        return True

    def unmark(cell: int, side: int) -> None:
        regions = REGION_OF[cell]
        sides[regions[0]] &= ~side
        sides[9 + regions[1]] &= ~side
        sides[18 + regions[2]] &= ~side

    def walk(cell: int, allowed: int, extra: int, last: int) -> None:
        loop.append(cell)
        in_loop.add(cell)
        side = 2 if len(loop) & 1 else 1  # the next cell's: odd places after even ones
        for kind in (BLOCK, ROW, COLUMN):
            if kind == last:
                continue
            for nxt in holders[kind][REGION_OF[cell][kind]]:
                if nxt == loop[0] and len(loop) >= 4:
                    found.append(list(loop))
                elif nxt not in in_loop:
                    pot = cands[nxt]
                    if skip_before and pot == both and nxt < start:
                        continue  # a start already walked: its loops were found from it
                    new_extra = (extra | pot) & ~both
                    count = COUNT[pot]
                    if count == 2 or COUNT[new_extra] == 1 or allowed > 0:
                        if PRUNE_LOOPS and not mark(nxt, side):
                            continue
                        walk(nxt, allowed - 1 if count > 2 else allowed, new_extra, kind)
                        if PRUNE_LOOPS:
                            unmark(nxt, side)
        loop.pop()
        in_loop.discard(cell)

    if PRUNE_LOOPS:
        mark(start, 1)
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
            region = (kind, REGION_OF[cell][kind])
            if region in seen:
                return False
            seen.add(region)
        is_odd = not is_odd
    return odd == even


def _shared_regions(c1: int, c2: int) -> list[tuple[int, int]]:
    return [
        (kind, REGION_OF[c1][kind])
        for kind in (BLOCK, ROW, COLUMN)
        if REGION_OF[c1][kind] == REGION_OF[c2][kind]
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
    holders_of: dict[int, _Holders] = {}
    for start in range(81):
        if COUNT[cands[start]] != 2:
            continue
        v1, v2 = BITS[cands[start]]
        both = 1 << v1 | 1 << v2
        holders = holders_of.get(both)
        if holders is None:
            holders = holders_of[both] = _holders(cands, both)
        for loop in _ul_loops(g, start, v1, v2, holders, SKIP_FOUND_LOOPS):
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
            "BUG type 1", 5.6, ((cell, removable),) if removable else (), None, cell_name(cell)
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
    index = REGION_OF[cells[0]][kind]
    return index if all(REGION_OF[c][kind] == index for c in cells) else None


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
            region_cells = [c for c in common_cells if REGION_OF[c][kind] == index]
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
