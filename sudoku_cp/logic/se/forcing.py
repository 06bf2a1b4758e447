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
from collections.abc import Iterator, KeysView, Sequence
from dataclasses import replace
from typing import Any

from .chains import length_difficulty, link_basis
from .grid import BITS, COUNT, OFF_MASKS, REGION_MASKS, REGIONS, SEGrid, value_masks
from .step import REGION_OF, Producer, Step, cell_name


class TimeCapReached(Exception):
    """The grid's deadline (:attr:`SEGrid.deadline`) passed during a chain search."""


CELL_REGIONS = tuple(tuple(REGIONS[k][REGION_OF[c][k]] for k in range(3)) for c in range(81))

_Node = tuple[int, tuple[int, ...]]  # a potential and its parents
_Nested = tuple[tuple, int]  # a nested chain's identity and complexity


class _Run:
    """The outcome of one ``Chaining.doChaining``: the potentials turned on and off (each with
    its parents, in the order found) and the contradiction that stopped it, if any."""

    __slots__ = ("on", "off", "absurd", "nested", "_counts")

    def __init__(
        self,
        on: dict[int, tuple[int, ...]],
        off: dict[int, tuple[int, ...]],
        absurd: tuple[_Node, _Node] | None,
        nested: dict[int, _Nested] | None = None,
    ) -> None:
        self.on = on
        self.off = off
        self.absurd = absurd
        self.nested = nested
        """The offs a nested chain turned off (level 2 and up), with that chain."""
        self._counts: dict[int, int] = {}

    def parents(self, key: int) -> tuple[int, ...]:
        return self.on[key] if key & 1 else self.off[key]

    def ancestry(self, key: int, parents: tuple[int, ...] | None = None) -> set[int]:
        """``key`` and the distinct potentials it comes from (``parents`` given: a potential
        the run found but did not keep, reached from these)."""
        seen = {key}
        stack = list(self.parents(key) if parents is None else parents)
        on, off = self.on, self.off
        while stack:
            k = stack.pop()
            if k not in seen:
                seen.add(k)
                stack.extend(on[k] if k & 1 else off[k])
        return seen

    def ancestors(self, key: int, parents: tuple[int, ...] | None = None) -> int:
        """``ChainingHint.getAncestorCount``: how many potentials :meth:`ancestry` holds."""
        if parents is None:
            count = self._counts.get(key)
            if count is None:
                count = self._counts[key] = len(self.ancestry(key))
            return count
        return len(self.ancestry(key, parents))

    def chains(self, key: int, parents: tuple[int, ...] | None = None) -> dict[tuple, int]:
        """The nested chains among ``key``'s ancestors (itself included), each once, with their
        complexities: what ``ChainingHint.getNestedComplexity`` adds up."""
        nested = self.nested
        if not nested:
            return {}
        return dict(nested[k] for k in self.ancestry(key, parents) if k in nested)


_Target = tuple[_Run, int, tuple[int, ...] | None]
"""A chain's end: its run, the potential, and its parents when the run did not keep it."""


def _complexity(pairs: Sequence[_Target]) -> int:
    """``ChainingHint.getComplexity`` of a hint whose chains end at these (run, potential,
    parents — None: the run's own) targets: every chain's distinct potentials
    (``getAncestorCount``), plus each nested chain among them once (``getNestedComplexity``)."""
    total = 0
    nested: dict[tuple, int] = {}
    for run, key, parents in pairs:
        total += run.ancestors(key, parents)
        if run.nested:
            nested.update(run.chains(key, parents))
    return total + sum(nested.values())


def _hash_order(removals: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """A hint's removals in the order Java's ``HashMap<Cell, BitSet>`` gives them back
    (``IndirectHint.getRemovablePotentials``): by bucket (``Cell.hashCode`` is the cell's
    index, the table 16 buckets up to 12 entries, doubling after each 3/4 filled), then in
    the order put."""
    size = 16
    while len(removals) > size * 3 // 4:
        size *= 2
    return sorted(removals, key=lambda item: item[0] & (size - 1))


def _advanced(
    values: list[int],
    cands0: list[int],
    cands: list[int],
    level: int,
    nesting: int = 0,
    deadline: float | None = None,
    fast: Any = None,
) -> list[tuple[int, tuple[int, ...], _Nested | None]]:
    """``Chaining.getAdvancedPotentials`` (FCPlus 0, a plain Sudoku): SE's ``otherRules`` on the
    chain's grid, in order, until one gives something — pointing/claiming, hidden pair, naked
    pair, X-Wing; from level 2 on, SE's "Forcing Chains & Cycles" (every hint); from level 3,
    its multiple forcing chains; at level 4 (``experimentalHintProducers``), instead of those
    two, SE's dynamic forcing chains of level ``nesting`` (every hint). Each step that needs
    some of the chain's offs (its ``basis`` gone since the chaining began, ``getRuleParents``)
    turns its removals off, those offs their parents; a chain's removals also carry the chain
    (identity and complexity), which the hint that nests it counts
    (``getNestedComplexity``). ``fast``: the compiled rules when the speed door is open
    (the module ``compiled.nested``: what its ``advanced_offs`` gives is what the rules it
    runs give), else None."""
    from .chains import nested_hints
    from .rules import fish, hidden_set, locking, naked_set

    grid = SEGrid(values, cands)
    grid.deadline = deadline
    grid.fast = fast
    rules: list = [locking, hidden_set(2, False), naked_set(2), fish(2)]
    if level >= 4:
        rules.append(_EVERY_DYNAMIC[nesting])
    else:
        if level >= 2:
            rules.append(nested_hints)
        if level >= 3:
            rules.append(_nested_multiple)
    if fast is not None:  # the speed door: these rules compiled, the same offs
        offs = fast.advanced_offs(values, cands0, cands, level, nesting)
        if offs:
            return offs
        rules = rules[fast.compiled_rules(level, nesting) :]
    for rule in rules:
        found: list[tuple[int, tuple[int, ...], _Nested | None]] = []
        for item in rule(grid):
            step, nested = (item[0], item[1:]) if isinstance(item, tuple) else (item, None)
            parents = tuple(
                dict.fromkeys(
                    (cell * 10 + v) * 2
                    for cell, mask in step.basis
                    for v in BITS[mask & cands0[cell] & ~cands[cell]]
                )
            )
            if parents:
                for cell, mask in _hash_order(step.removals):
                    found.extend(((cell * 10 + v) * 2, parents, nested) for v in BITS[mask])
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
    nesting: int = 0,
    deadline: float | None = None,
    fast: Any = None,
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
    nested: dict[int, _Nested] = {}
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
                        return _Run(on, off, ((k_off + 1, on[k_off + 1]), (k_off, parents)), nested)
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
                        return _Run(on, off, ((k_off + 1, on[k_off + 1]), (k_off, parents)), nested)
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
                        return _Run(on, off, ((k_on, parents), (k_on - 1, off[k_on - 1])), nested)
                    if k_on not in on:
                        on[k_on] = parents
                        pending_on.append(k_on)
            continue
        if level and values is not None:
            for k_off, parents, chain in _advanced(
                values, cands0, cands, level, nesting, deadline, fast
            ):
                if k_off not in off:
                    off[k_off] = parents
                    if chain is not None:
                        nested[k_off] = chain
                    pending_off.append(k_off)
            if next_off < len(pending_off):
                continue
        return _Run(on, off, None, nested)


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
    # Chaining.getNestedSuffix(1), (2), (3)
    **{
        kind: tuple(
            f"Dynamic {what} Forcing Chains{suffix}"
            for what in ("Contradiction", "Double", "Cell", "Region")
        )
        for kind, suffix in (
            ("plus", " (+)"),
            ("nested2", " (+ Forcing Chains)"),
            ("nested3", " (+ Multiple Forcing Chains)"),
            ("nested4", " (+ Dynamic Forcing Chains)"),
        )
    },
}
_LEVELS = {"plus": 1, "nested2": 2, "nested3": 3, "nested4": 4}


def _producer(  # noqa: C901 - SE's one search
    kind: str, every: bool = False, nesting: int = 0
) -> Producer:
    nishio = kind == "nishio"
    dynamic = kind != "multiple"  # Nishio's chaining is dynamic too: Chaining(false, true, true)
    multiple = kind != "nishio"
    level = _LEVELS.get(kind, 0)
    # Chaining.getDifficulty: 8.5 + 0.5 × level for a nested level, else Nishio 7.5, dynamic
    # 8.5, multiple 8.0
    base = 8.5 + 0.5 * level if level else 7.5 if nishio else 8.5 if dynamic else 8.0
    y = not nishio  # doChaining: getOnToOff(grid, p, !isNisho), getOffToOn(…, !isNisho, true)
    contradiction = dynamic or nishio
    names = _NAMES[kind]

    def produce(g: SEGrid) -> Iterator[Any]:  # (every: tuples, see _nested_multiple)
        cands = g.cands
        deadline = g.deadline
        fast = g.fast if level else None
        runs: dict[int, _Run] = {}
        masks0 = value_masks(cands)

        def run(start: int) -> _Run:
            found = runs.get(start)
            if found is None:
                found = runs[start] = _chaining(
                    cands, start, y, dynamic, level, g.values, masks0, nesting, deadline, fast
                )
            return found

        # The first hint of getHintList's sort: (complexity, sort key, order found, step). One
        # rule's hints share a base, so difficulty rises with complexity and sorting by
        # difficulty then complexity is sorting by complexity.
        best: tuple[int, int, int, Step] | None = None
        order = 0
        hints: list[tuple] = []  # every: all of them, with what their chains read
        pairs: list[_Target]

        def offer(
            complexity: int,
            sort_key: int,
            name: str,
            key: int,
            where: str,
            pairs: list[_Target] | None = None,
            origin: tuple[tuple[int, int], ...] = (),
        ) -> None:
            nonlocal best, order
            order += 1
            if every:
                step = target_step(name, key, complexity, where)
                hints.append((complexity, sort_key, order, step, key, pairs, origin))
            elif best is None or (complexity, sort_key) < best[:2]:
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
                    pairs = [(r_on, a_on, p_on), (r_on, a_off, p_off)]
                    offer(_complexity(pairs), 7, names[0], k_off, where, pairs)
                double = card >= 3 and not nishio and dynamic
                if contradiction or double:
                    r_off = run(k_off)
                    if contradiction and r_off.absurd is not None:
                        # createChainingOnHint: the digit must be on
                        (a_on, p_on), (a_off, p_off) = r_off.absurd
                        pairs = [(r_off, a_on, p_on), (r_off, a_off, p_off)]
                        offer(_complexity(pairs), 7, names[0], k_on, where, pairs)
                    if double:
                        for k in r_on.on:
                            if k in r_off.on and COUNT[cands[k // 20]] > 1:
                                pairs = [(r_on, k, None), (r_off, k, None)]
                                offer(_complexity(pairs), 1, names[1], k, where, pairs)
                        for k in r_on.off:
                            if k in r_off.off:
                                pairs = [(r_on, k, None), (r_off, k, None)]
                                offer(_complexity(pairs), 1, names[1], k, where, pairs)
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
                                pairs = [(r, k, None) for r in place_runs]
                                cx = _complexity(pairs)
                                # (RegionChainingHint: each start's cause is the region)
                                origin = tuple((c, bit) for c in region)
                                offer(cx, 6, names[3], k, rwhere, pairs, origin)
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
                        pairs = [(r, k, None) for r in value_runs]
                        cx = _complexity(pairs)
                        # (CellChainingHint: each start's cause is the cell, NakedSingle)
                        offer(cx, 5, names[2], k, cwhere, pairs, ((cell, 0x3FE),))
        if every:
            hints.sort(key=lambda item: item[:3])
            for _cx, sort_key, _order, step, key, pairs, origin in hints:
                basis = dict.fromkeys(origin)
                chains = []
                for r, k, parents in pairs:
                    ancestry = r.ancestry(k, parents)
                    if dynamic:
                        links = _dynamic_basis(r, k, parents, ancestry, masks0)
                    else:
                        links = _static_basis(r, ancestry, masks0)
                    basis.update(dict.fromkeys(links))
                    chains.append(tuple(sorted(ancestry)))
                yield replace(step, basis=tuple(basis)), (sort_key, key, *chains), _cx
        elif best is not None:
            yield best[3]

    return produce


def _static_basis(run: _Run, ancestry: set[int], masks: list[int]) -> list[tuple[int, int]]:
    """``ChainingHint.collectRuleParents`` of one chain of a static chaining (each potential
    reached from one; ``ancestry``: the chain's potentials, :meth:`_Run.ancestry`): what every
    "on" potential reached by a link read (:func:`~.chains.link_basis`); the start's cause is
    the hint's (the caller's ``origin``)."""
    basis = []
    for k in ancestry:
        parents = run.on[k] if k & 1 else ()
        if parents:
            basis.extend(link_basis(k, parents[0] // 20, masks))
    return basis


def _dynamic_basis(
    run: _Run,
    key: int,
    parents: tuple[int, ...] | None,
    ancestry: set[int],
    masks0: list[int],
) -> list[tuple[int, int]]:
    """``ChainingHint.collectRuleParents`` of one chain of a dynamic chaining (ending at
    ``key``, reached from ``parents`` when the run did not keep it; ``ancestry``: the chain's
    potentials): what each "on" potential's cause read on the chaining's grid (its start's
    cause is the caller's ``origin``). The cause is not stored: an "on" in the same cell as its
    first parent came by a Y-link (``NakedSingle``: the cell's digits); any other by an X-link
    in the first of block, row, column holding both cells where the digit had exactly those
    two places when the link was read, and those places are the region's first places
    (``masks0``, :func:`~.grid.value_masks` of the chaining's start) less the hidden parents
    (``addHiddenParentsOfRegion``: the region's places the chaining had taken out), so the
    region is the first where they leave exactly the two cells."""
    basis = []
    for k in ancestry:
        if not k & 1:
            continue
        reached = parents if k == key and parents is not None else run.on.get(k)
        if not reached:
            continue  # the chain's start: no cause
        cell, value = k // 20, k // 2 % 10
        from_cell = reached[0] // 20
        if from_cell == cell:
            basis.append((cell, 0x3FE))
            continue
        hidden = 0
        for h in reached[1:]:
            hidden |= 1 << (h // 20)
        pair = (1 << from_cell) | (1 << cell)
        for kind, unit in enumerate(REGION_MASKS[from_cell]):
            if unit >> cell & 1 and masks0[value] & unit & ~hidden == pair:
                region = REGIONS[kind][REGION_OF[from_cell][kind]]
                basis.extend((c, 1 << value) for c in region)
                break
    return basis


def _nested_multiple(g: SEGrid) -> Iterator[tuple]:
    """Every hint of SE's multiple forcing chains on ``g``, in SE's order, as a nested level
    reads them: (step with its ``basis``, identity, complexity)."""
    return _EVERY_MULTIPLE(g)  # type: ignore[return-value]


nishio_forcing_chains = _producer("nishio")
"""SE's "Nishio Forcing Chains" (``Chaining(false, true, true, 0, …)``): a digit that leads
to a contradiction through dynamic X-links alone goes (or, its absence contradicting, stays);
7.5 plus ``getLengthDifficulty``."""
multiple_forcing_chains = _producer("multiple")
"""SE's "Multiple Forcing Chains" (``Chaining(true, false, false, 0, …)``): cell and region
forcing chains; 8.0 plus ``getLengthDifficulty``."""
_EVERY_MULTIPLE = _producer("multiple", every=True)
dynamic_forcing_chains_plus = _producer("plus")
"""SE's "Dynamic Forcing Chains (+)" (``Chaining(true, true, false, 1, …)``): dynamic forcing
chains that, when their links run out, also take what pointing/claiming, hidden and naked pairs
and X-Wings find on the chain's grid; 9.0 plus ``getLengthDifficulty``."""
nested_forcing_chains_2 = _producer("nested2")
"""SE's "Nested Forcing Chains" of level 2 (``Chaining(true, true, false, 2, …)``, the first of
``advancedHintProducers``): dynamic forcing chains that, when their links run out, also take
what the level-1 rules and SE's "Forcing Chains & Cycles" (every hint) find on the chain's
grid; 9.5 plus ``getLengthDifficulty`` of the complexity, nested chains included."""
nested_forcing_chains_3 = _producer("nested3")
"""Level 3 (``Chaining(true, true, false, 3, …)``): level 2's rules, then SE's multiple
forcing chains (static cell and region chains, every hint); 10.0 plus the length
increment."""
nested_forcing_chains_4 = tuple(_producer("nested4", nesting=n) for n in range(4))
"""Level 4, SE's ``experimentalHintProducers`` (``Chaining(true, true, false, 4, false,
nestingLimit)``, nestingLimit 0 to 3, taken in that order): dynamic forcing chains that, when
their links run out, take what the level-1 rules find on the chain's grid, then every hint of
SE's dynamic forcing chains of level ``nestingLimit`` (``Chaining(true, true, false,
nestingLimit, …)``: plain, (+), nested levels 2 and 3); 10.5 plus the length increment."""
_EVERY_DYNAMIC = tuple(
    _producer(kind, every=True) for kind in ("dynamic", "plus", "nested2", "nested3")
)
"""Every hint of SE's dynamic forcing chains of level 0 to 3, as a level-4 chaining nests
them: (step with its ``basis``, identity, complexity)."""
dynamic_forcing_chains = _producer("dynamic")
"""SE's "Dynamic Forcing Chains" (``Chaining(true, true, false, 0, …)``): contradiction,
double, cell and region forcing chains whose links read the grid as the chain changes it;
8.5 plus ``getLengthDifficulty``."""
