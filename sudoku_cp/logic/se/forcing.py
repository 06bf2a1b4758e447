"""SE's binary, cell and region forcing chains: Nishio (7.5), multiple (8.0), dynamic (8.5)
and dynamic (+) (9.0) forcing chains, each plus SE's length increment; read (not copied) from
SudokuMonster/SukakuExplainer (LGPL-2.1) as :mod:`.rules` says.

``rules/chaining/Chaining.java`` built as ``Chaining(isMultiple, isDynamic, isNishio, level,
…)`` (``Solver(Grid)``: Nishio ``(false, true, true, 0)``, multiple ``(true, false, false,
0)``, dynamic ``(true, true, false, 0)``, dynamic (+) ``(true, true, false, 1)``),
``getMultipleChainsHintList``: for each empty cell (three digits or more; two or more for the
dynamic rules, Nishio's included), for each of its digits, ``doBinaryChaining`` (what follows
from the digit on, and from it off: a contradiction, or a potential both imply), then
``doRegionChainings`` (every place of the digit in a region: what all of them imply), and
last the cell's reductions (what every digit of the cell implies). ``getHintList`` sorts
every hint found by difficulty, complexity (``getComplexity``: the distinct potentials of the
hint's chains, ``ChainingHint.getAncestorCount``), then ``getSortKey`` (1 double forcing, 5
cell, 6 region, 7 contradiction), keeping the order found among equals (one thread, serate's
default, so the order is the cells'), and the solver takes the first.

A potential is an int: ``(cell * 10 + digit) * 2 + on``. One chaining (``doChaining``) keeps,
for each potential it reaches, the potentials it was reached from (its parents; in a dynamic
chaining also the "hidden" ones: the earlier offs that made a cell bivalue or a place single).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, KeysView

from .chains import length_difficulty
from .grid import BITS, COUNT, OFF_MASKS, REGION_MASKS, REGIONS, SEGrid, value_masks
from .step import REGION_OF, Producer, Step, cell_name


class TimeCapReached(Exception):
    """The grid's deadline (:attr:`SEGrid.deadline`) passed during a chain search."""


CELL_REGIONS = tuple(tuple(REGIONS[k][REGION_OF[c][k]] for k in range(3)) for c in range(81))

_Node = tuple[int, tuple[int, ...]]  # a potential and its parents


class _Run:
    """The outcome of one ``Chaining.doChaining``: the potentials turned on and off (each with
    its parents, in the order found) and the contradiction that stopped it, if any."""

    __slots__ = ("on", "off", "absurd", "_counts")

    def __init__(
        self,
        on: dict[int, tuple[int, ...]],
        off: dict[int, tuple[int, ...]],
        absurd: tuple[_Node, _Node] | None,
    ) -> None:
        self.on = on
        self.off = off
        self.absurd = absurd
        self._counts: dict[int, int] = {}

    def parents(self, key: int) -> tuple[int, ...]:
        return self.on[key] if key & 1 else self.off[key]

    def ancestors(self, key: int, parents: tuple[int, ...] | None = None) -> int:
        """``ChainingHint.getAncestorCount``: the distinct potentials ``key`` comes from, itself
        included (``parents`` given: a potential the run found but did not keep)."""
        if parents is None:
            count = self._counts.get(key)
            if count is not None:
                return count
        seen = {key}
        stack = list(self.parents(key) if parents is None else parents)
        on, off = self.on, self.off
        while stack:
            k = stack.pop()
            if k not in seen:
                seen.add(k)
                stack.extend(on[k] if k & 1 else off[k])
        if parents is None:
            self._counts[key] = len(seen)
        return len(seen)


def _hash_order(removals: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """A hint's removals in the order Java's ``HashMap<Cell, BitSet>`` gives them back
    (``IndirectHint.getRemovablePotentials``): by bucket (``Cell.hashCode`` is the cell's
    index, the table 16 buckets up to 12 entries, doubling after each 3/4 filled), then in
    the order put."""
    size = 16
    while len(removals) > size * 3 // 4:
        size *= 2
    return sorted(removals, key=lambda item: item[0] & (size - 1))


def _advanced(values: list[int], cands0: list[int], cands: list[int]) -> list[_Node]:
    """``Chaining.getAdvancedPotentials`` for level 1 (FCPlus 0, a plain Sudoku): the first
    of SE's ``otherRules`` (pointing/claiming, hidden pair, naked pair, X-Wing) with steps on
    the chain's grid; each step that needs some of the chain's offs (its ``basis`` gone since
    the chaining began, ``getRuleParents``) turns its removals off, those offs its parents."""
    from .rules import fish, hidden_set, locking, naked_set

    grid = SEGrid(values, cands)
    for rule in (locking, hidden_set(2, False), naked_set(2), fish(2)):
        found: list[_Node] = []
        for step in rule(grid):
            parents = tuple(
                (cell * 10 + v) * 2
                for cell, mask in step.basis
                for v in BITS[mask & cands0[cell] & ~cands[cell]]
            )
            if parents:
                for cell, mask in _hash_order(step.removals):
                    found.extend(((cell * 10 + v) * 2, parents) for v in BITS[mask])
        if found:
            return found
    return []


def _chaining(
    cands0: list[int],
    start: int,
    y: bool,
    dynamic: bool,
    level: int = 0,
    values: list[int] | None = None,
    masks0: list[int] | None = None,
) -> _Run:  # noqa: C901 - one loop, as SE's
    """``Chaining.doChaining`` from one potential (on or off). Ons go first: each turn takes
    the oldest pending on, else the oldest pending off. An on turns off (``getOnToOff``) the
    cell's other digits (Y-links) and the digit's other places in its block, row, column; an
    off turns on (``getOffToOn``) the other digit of a bivalue cell (Y-links) and the digit's
    only other place in a block, row, column. A dynamic chaining takes each off out of its
    grid after reading what it turns on, so later links see a grid with fewer candidates.
    ``masks0``: :func:`~.grid.value_masks` of ``cands0`` (made here when not given); the places of a
    digit are read from these masks, kept in step with the grid."""
    if masks0 is None:
        masks0 = value_masks(cands0)
    cands = list(cands0) if dynamic else cands0
    masks = list(masks0) if dynamic else masks0
    on: dict[int, tuple[int, ...]] = {}
    off: dict[int, tuple[int, ...]] = {}
    # the pending potentials in the order found, each list read from its index on (a queue)
    pending_on: list[int] = []
    pending_off: list[int] = []
    next_on = next_off = 0
    if start & 1:
        on[start] = ()
        pending_on.append(start)
    else:
        off[start] = ()
        pending_off.append(start)
    while True:
        if next_on < len(pending_on):
            key = pending_on[next_on]
            next_on += 1
            cell, value = key // 20, key // 2 % 10
            parents: tuple[int, ...] = (key,)
            if y:
                for v in BITS[cands[cell] & ~(1 << value)]:
                    k_off = (cell * 10 + v) * 2
                    if k_off + 1 in on:
                        return _Run(on, off, ((k_off + 1, on[k_off + 1]), (k_off, parents)))
                    if k_off not in off:
                        off[k_off] = parents
                        pending_off.append(k_off)
            places = masks[value]
            for unit in OFF_MASKS[cell]:
                found = places & unit
                while found:
                    low = found & -found
                    found ^= low
                    k_off = ((low.bit_length() - 1) * 10 + value) * 2
                    if k_off + 1 in on:
                        return _Run(on, off, ((k_off + 1, on[k_off + 1]), (k_off, parents)))
                    if k_off not in off:
                        off[k_off] = parents
                        pending_off.append(k_off)
            continue
        if next_off < len(pending_off):
            key = pending_off[next_off]
            next_off += 1
            cell, value = key // 20, key // 2 % 10
            bit = 1 << value
            made: dict[int, tuple[int, ...]] | None = None
            mask = cands[cell]
            if y and COUNT[mask] == 2:
                other_value = BITS[mask & ~bit][0]
                parents = (key,)
                if dynamic:  # addHiddenParentsOfCell: the cell's digits offs took out
                    gone = cands0[cell] & ~mask
                    if gone:
                        parents += tuple((cell * 10 + v) * 2 for v in BITS[gone])
                made = {(cell * 10 + other_value) * 2 + 1: parents}
            places = masks[value]
            cell_bit = 1 << cell
            others = places & ~cell_bit
            for unit in REGION_MASKS[cell]:
                rest = others & unit
                if not rest or rest & (rest - 1):
                    continue  # no other place, or two or more
                k_on = ((rest.bit_length() - 1) * 10 + value) * 2 + 1
                if made is None:
                    made = {}
                elif k_on in made:  # a LinkedHashSet: the first version stays
                    continue
                parents = (key,)
                if dynamic:  # addHiddenParentsOfRegion: the places offs took out
                    gone = masks0[value] & ~places & unit
                    while gone:
                        low = gone & -gone
                        gone ^= low
                        parents += (((low.bit_length() - 1) * 10 + value) * 2,)
                made[k_on] = parents
            if dynamic:
                cands[cell] = mask & ~bit
                masks[value] = others
            if made is not None:
                for k_on, parents in made.items():
                    if k_on - 1 in off:
                        return _Run(on, off, ((k_on, parents), (k_on - 1, off[k_on - 1])))
                    if k_on not in on:
                        on[k_on] = parents
                        pending_on.append(k_on)
            continue
        if level and values is not None:
            for k_off, parents in _advanced(values, cands0, cands):
                if k_off not in off:
                    off[k_off] = parents
                    pending_off.append(k_off)
            if next_off < len(pending_off):
                continue
        return _Run(on, off, None)


def _retained(first: dict[int, tuple[int, ...]], others: list[dict]) -> list[int]:
    """``LinkedSet.retainAll`` in turn: ``first``'s keys, in its order, found in every other."""
    common: set[int] | KeysView[int] = first.keys()
    for other in others:
        common = common & other.keys()  # a set: membership only, the order is ``first``'s
        if not common:
            return []
    return [k for k in first if k in common]


_NAMES = {
    # BinaryChainingHint / CellChainingHint / RegionChainingHint getName, with
    # ChainingHint.getNamePrefix and getNameSuffix
    "nishio": ("Nishio Forcing Chains", "", "", ""),
    "multiple": ("", "", "Cell Forcing Chains", "Region Forcing Chains"),
    "dynamic": (
        "Dynamic Contradiction Forcing Chains",
        "Dynamic Double Forcing Chains",
        "Dynamic Cell Forcing Chains",
        "Dynamic Region Forcing Chains",
    ),
    # Chaining.getNestedSuffix(1)
    "plus": (
        "Dynamic Contradiction Forcing Chains (+)",
        "Dynamic Double Forcing Chains (+)",
        "Dynamic Cell Forcing Chains (+)",
        "Dynamic Region Forcing Chains (+)",
    ),
}


def _producer(kind: str) -> Producer:  # noqa: C901 - SE's one search
    nishio = kind == "nishio"
    dynamic = kind != "multiple"  # Nishio's chaining is dynamic too: Chaining(false, true, true)
    multiple = kind != "nishio"
    level = 1 if kind == "plus" else 0
    # Chaining.getDifficulty: 8.5 + 0.5 × level for a nested level, else Nishio 7.5, dynamic
    # 8.5, multiple 8.0
    base = 8.5 + 0.5 * level if level else 7.5 if nishio else 8.5 if dynamic else 8.0
    y = not nishio  # doChaining: getOnToOff(grid, p, !isNisho), getOffToOn(…, !isNisho, true)
    contradiction = dynamic or nishio
    names = _NAMES[kind]

    def produce(g: SEGrid) -> Iterator[Step]:
        cands = g.cands
        deadline = g.deadline
        runs: dict[int, _Run] = {}
        masks0 = value_masks(cands)

        def run(start: int) -> _Run:
            found = runs.get(start)
            if found is None:
                found = runs[start] = _chaining(cands, start, y, dynamic, level, g.values, masks0)
            return found

        # The first hint of getHintList's sort: (complexity, sort key, order found, step). One
        # rule's hints share a base, so difficulty rises with complexity and sorting by
        # difficulty then complexity is sorting by complexity.
        best: tuple[int, int, int, Step] | None = None
        order = 0

        def offer(complexity: int, sort_key: int, name: str, key: int, where: str) -> None:
            nonlocal best, order
            order += 1
            if best is None or (complexity, sort_key) < best[:2]:
                best = (complexity, sort_key, order, target_step(name, key, complexity, where))

        def target_step(name: str, key: int, complexity: int, where: str) -> Step:
            cell, value = key // 20, key // 2 % 10
            diff = round(base + length_difficulty(complexity), 1)
            if key & 1:  # the target on: the cell's other digits go, the digit is placed
                rest = cands[cell] & ~(1 << value)
                return Step(name, diff, ((cell, rest),) if rest else (), (cell, value), where)
            return Step(name, diff, ((cell, 1 << value),), None, where)

        for cell in range(81):
            if g.values[cell]:
                continue
            card = COUNT[cands[cell]]
            if not (card > 2 or (card > 1 and dynamic)):
                continue
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeCapReached
            value_runs: list[_Run] = []
            for value in BITS[cands[cell]]:
                k_on = (cell * 10 + value) * 2 + 1
                k_off = k_on - 1
                where = f"{cell_name(cell)}={value}"
                r_on = run(k_on)
                if contradiction and r_on.absurd is not None:
                    # createChainingOffHint: the digit cannot be on
                    (a_on, p_on), (a_off, p_off) = r_on.absurd
                    cx = r_on.ancestors(a_on, p_on) + r_on.ancestors(a_off, p_off)
                    offer(cx, 7, names[0], k_off, where)
                double = card >= 3 and not nishio and dynamic
                if contradiction or double:
                    r_off = run(k_off)
                    if contradiction and r_off.absurd is not None:
                        # createChainingOnHint: the digit must be on
                        (a_on, p_on), (a_off, p_off) = r_off.absurd
                        cx = r_off.ancestors(a_on, p_on) + r_off.ancestors(a_off, p_off)
                        offer(cx, 7, names[0], k_on, where)
                    if double:
                        for k in r_on.on:
                            if k in r_off.on and COUNT[cands[k // 20]] > 1:
                                cx = r_on.ancestors(k) + r_off.ancestors(k)
                                offer(cx, 1, names[1], k, where)
                        for k in r_on.off:
                            if k in r_off.off:
                                cx = r_on.ancestors(k) + r_off.ancestors(k)
                                offer(cx, 1, names[1], k, where)
                if not nishio:
                    # doRegionChainings: the regions where this cell is the digit's first place
                    bit = 1 << value
                    for region in CELL_REGIONS[cell]:
                        places = [c for c in region if cands[c] & bit]
                        if places[0] != cell or not (
                            len(places) == 2 or (multiple and len(places) > 2)
                        ):
                            continue
                        place_runs = [r_on] + [run((c * 10 + value) * 2 + 1) for c in places[1:]]
                        others = place_runs[1:]
                        rwhere = f"{value} in {cell_name(places[0])}…{cell_name(places[-1])}"
                        for table in ("on", "off"):
                            first = getattr(r_on, table)
                            for k in _retained(first, [getattr(r, table) for r in others]):
                                if k & 1 and COUNT[cands[k // 20]] < 2:
                                    continue  # nothing to remove: not worth
                                cx = sum(r.ancestors(k) for r in place_runs)
                                offer(
                                    cx,
                                    6,
                                    names[3],
                                    k,
                                    rwhere,
                                )
                value_runs.append(r_on)
            if not nishio:
                # cell reduction: what every digit of the cell implies
                cwhere = cell_name(cell)
                for table in ("on", "off"):
                    first = getattr(value_runs[0], table)
                    rest = [getattr(r, table) for r in value_runs[1:]]
                    for k in _retained(first, rest):
                        if k & 1 and COUNT[cands[k // 20]] < 2:
                            continue
                        cx = sum(r.ancestors(k) for r in value_runs)
                        offer(cx, 5, names[2], k, cwhere)
        if best is not None:
            yield best[3]

    return produce


nishio_forcing_chains = _producer("nishio")
"""SE's "Nishio Forcing Chains" (``Chaining(false, true, true, 0, …)``): a digit that leads
to a contradiction through dynamic X-links alone goes (or, its absence contradicting, stays);
7.5 plus ``getLengthDifficulty``."""
multiple_forcing_chains = _producer("multiple")
"""SE's "Multiple Forcing Chains" (``Chaining(true, false, false, 0, …)``): cell and region
forcing chains; 8.0 plus ``getLengthDifficulty``."""
dynamic_forcing_chains_plus = _producer("plus")
"""SE's "Dynamic Forcing Chains (+)" (``Chaining(true, true, false, 1, …)``): dynamic forcing
chains that, when their links run out, also take what pointing/claiming, hidden and naked pairs
and X-Wings find on the chain's grid; 9.0 plus ``getLengthDifficulty``."""
dynamic_forcing_chains = _producer("dynamic")
"""SE's "Dynamic Forcing Chains" (``Chaining(true, true, false, 0, …)``): contradiction,
double, cell and region forcing chains whose links read the grid as the chain changes it;
8.5 plus ``getLengthDifficulty``."""
