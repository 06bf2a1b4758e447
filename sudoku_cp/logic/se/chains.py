"""SE's static chaining: X-, Y- and XY-cycles, forcing X-chains and forcing chains, with SE's
difficulty values and length increments; read (not copied) from SudokuMonster/SukakuExplainer
as :mod:`.rules` says."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import replace

from .grid import BITS, COUNT, OFF_MASKS, PEERS, REGION_MASKS, REGIONS, SEGrid, value_masks
from .step import REGION_OF, Step, cell_name

# --- Forcing chains and cycles (SE's static chaining) ----------------------------------------
#
# ``rules/chaining/Chaining.java`` built as ``Chaining(false, false, false, 0, false, 0)`` (SE's
# "Forcing Chains & Cycles"): ``getHintList`` runs ``getLoopHintList`` three times — X-links
# only, Y-links only, both — and sorts every hint found by difficulty, then complexity (the
# chain's distinct potentials, ``ChainingHint.getAncestorCount``), then ``getSortKey`` (2 X, 3
# Y, 4 both), keeping the order found among equals (Java's sort is stable). A potential is an
# int, (cell * 10 + digit) * 2 + on (written out as (cell, digit, on)); each keeps the one
# parent it was reached from.

_Key = tuple[int, int, bool]


def length_difficulty(complexity: int) -> float:
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


def _potential(cell: int, value: int, on: bool) -> int:
    """A potential as an int, as :mod:`.forcing` writes them: ``(cell * 10 + digit) * 2 +
    on``."""
    return (cell * 10 + value) * 2 + on


def _key(potential: int) -> _Key:
    """(cell, digit, on) of a potential."""
    cell, value = divmod(potential >> 1, 10)
    return cell, value, bool(potential & 1)


class _Links:
    """``Chaining.getOnToOff`` and ``getOffToOn`` on one grid state, made when first asked and
    kept per kind of link (the grid does not change while the rule searches): a list per
    potential, in SE's order."""

    def __init__(self, g: SEGrid) -> None:
        self.cands = g.cands
        self.masks = value_masks(g.cands)
        self._off: dict[bool, list[list[int] | None]] = {}
        self._on: dict[tuple[bool, bool], list[list[int] | None]] = {}

    def on_to_off(self, y: bool) -> list[list[int] | None]:
        """Per "on" potential, the table :meth:`fill_off` fills (None: not yet)."""
        table = self._off.get(y)
        if table is None:
            table = self._off[y] = [None] * 1620
        return table

    def off_to_on(self, y: bool, x: bool) -> list[list[int] | None]:
        """Per "off" potential, the table :meth:`fill_on` fills (None: not yet)."""
        table = self._on.get((y, x))
        if table is None:
            table = self._on[(y, x)] = [None] * 1620
        return table

    def fill_off(self, potential: int, y: bool) -> list[int]:
        """What turning a potential on turns off: with Y-links the cell's other digits, then
        the digit's other places in the cell's block, row, column (each cell once)."""
        cell, value = divmod(potential >> 1, 10)
        cands = self.cands
        found: list[int] = []
        if y:
            found.extend(_potential(cell, v, False) for v in BITS[cands[cell]] if v != value)
        places = self.masks[value]
        for unit in OFF_MASKS[cell]:
            rest = places & unit
            while rest:
                low = rest & -rest
                rest ^= low
                found.append(((low.bit_length() - 1) * 10 + value) * 2)
        self.on_to_off(y)[potential] = found
        return found

    def fill_on(self, potential: int, y: bool, x: bool) -> list[int]:
        """What turning a potential off turns on: with Y-links the other digit of a bivalue
        cell; with X-links the digit's only other place in the cell's block, row, column."""
        cell, value = divmod(potential >> 1, 10)
        cands = self.cands
        found = []
        if y and COUNT[cands[cell]] == 2:
            found.append(_potential(cell, BITS[cands[cell] & ~(1 << value)][0], True))
        if x:
            places = self.masks[value] & ~(1 << cell)
            for unit in REGION_MASKS[cell]:
                rest = places & unit
                if rest and not rest & (rest - 1):  # one other place
                    on = ((rest.bit_length() - 1) * 10 + value) * 2 + 1
                    if on not in found:
                        found.append(on)
        self.off_to_on(y, x)[potential] = found
        return found


_NO_LIMIT = 1 << 30


def _chain(node: tuple) -> list[_Key]:
    """The potentials from ``node`` back to its source, ``node`` first."""
    return [_key(k) for k in _chain_keys(node)]


def _chain_keys(node: tuple) -> tuple[int, ...]:
    """The potentials from ``node`` back to its source, as ints."""
    keys = []
    while node is not None:
        keys.append(node[0])
        node = node[1]
    return tuple(keys)


def _ancestors(node: tuple) -> set[int]:
    """The potentials ``node``'s parents lead back through (``node`` itself excluded): what
    ``Chaining.isParent`` asks of each, gathered once for all of a node's children."""
    found = set()
    node = node[1]
    while node is not None:
        found.add(node[0])
        node = node[1]
    return found


def _cycles(links: _Links, source: int, y: bool, x: bool, limit: int = _NO_LIMIT) -> list[tuple]:
    """``Chaining.doCycles``: breadth first from ``source`` (on), alternating on→off and
    off→on; an on potential is expanded once, an off one unless it is an ancestor; a path back
    to ``source`` of length 4 or more is a cycle. A cycle closed at length ``n`` has ``n``
    distinct potentials (its complexity): none longer than ``limit`` is looked for."""
    offs, ons = links.on_to_off(y), links.off_to_on(y, x)
    to_on = {source}
    pending_on: list[tuple] = [(source, None)]
    pending_off: list[tuple] = []
    cycles = []
    length = 0
    while pending_on or pending_off:
        if length + 2 > limit:
            break  # the offs made next close cycles of length + 2
        length += 1
        for node in pending_on:
            targets = offs[node[0]]
            if targets is None:
                targets = links.fill_off(node[0], y)
            if not targets:
                continue
            ancestors = _ancestors(node)
            for key in targets:
                if key not in ancestors:
                    pending_off.append((key, node))
        pending_on = []
        length += 1
        for node in pending_off:
            targets = ons[node[0]]
            if targets is None:
                targets = links.fill_on(node[0], y, x)
            for key in targets:
                if length >= 4 and key == source:
                    cycles.append((key, node))
                if key not in to_on:
                    to_on.add(key)
                    pending_on.append((key, node))
        pending_off = []
    return cycles


def _forcing(
    links: _Links,
    source: int,
    y: bool,
    chains: list[tuple],
    seen: set[int],
    limit: int = _NO_LIMIT,
) -> None:
    """``Chaining.doForcingChains`` (X-links always on): breadth first from ``source``; a path
    to the source's opposite is a forcing chain (the first found for each target). A target
    met from a node ``d`` links from the source has ``d + 2`` distinct potentials (its
    complexity; every node of a path is new): none above ``limit`` is looked for. The only
    target is the opposite, kept once (``seen``), so the search ends when it is found."""
    offs, ons = links.on_to_off(y), links.off_to_on(y, True)
    to_on: set[int] = set()
    to_off: set[int] = set()
    pending_on: list[tuple] = []
    pending_off: list[tuple] = []
    if source & 1:
        to_on.add(source)
        pending_on.append((source, None))
    else:
        to_off.add(source)
        pending_off.append((source, None))
    opposite = source ^ 1
    depth = 0  # of the nodes pending next
    while pending_on or pending_off:
        if pending_on:
            if depth + 2 > limit:
                break
            depth += 1
        for node in pending_on:
            targets = offs[node[0]]
            if targets is None:
                targets = links.fill_off(node[0], y)
            for key in targets:
                if key == opposite and key not in seen:
                    seen.add(key)
                    chains.append((key, node))
                    return  # the one target found: the rest of the search finds nothing
                if key not in to_off:
                    to_off.add(key)
                    pending_off.append((key, node))
        pending_on = []
        if pending_off:
            if depth + 2 > limit:
                break
            depth += 1
        for node in pending_off:
            targets = ons[node[0]]
            if targets is None:
                targets = links.fill_on(node[0], y, True)
            for key in targets:
                if key == opposite and key not in seen:
                    seen.add(key)
                    chains.append((key, node))
                    return  # the one target found: the rest of the search finds nothing
                if key not in to_on:
                    to_on.add(key)
                    pending_on.append((key, node))
        pending_off = []


SKIP_OUTRANKED_PASS = True
"""The speed door of :func:`forcing_chains_cycles`: True, its third pass (X- and Y-links
together, every hint 7.0 or more) is skipped once the first two found a hint below 7.0, which
then sorts before anything the third could find, so the first step (the one SE takes, and all
the rater reads) is the same; the hints after it are then those of the first two passes only.
False: every pass, every hint. ``tests/test_se_chains.py`` checks the first steps agree."""


PRUNE_OUTRANKED_CHAINS = True
"""The speed door of :func:`forcing_chains_cycles`: True, once a hint is found, the searches
that follow stop at the length past which every cycle or chain they could find sorts after it
(difficulty grows with complexity, and complexity with the search's depth, see
:func:`_cycles` and :func:`_forcing`), so the first step is the same and only outranked hints
are left out. False: every hint. ``tests/test_se_chains.py`` checks the first steps agree."""


def _longest(best: tuple[float, int, int] | None, base: float, sort_key: int) -> int:
    """The largest complexity a new hint of ``base`` and ``sort_key`` may have and still sort
    before ``best`` (difficulty, complexity, sort key; a hint found later sorts after an equal
    one)."""
    if best is None or not PRUNE_OUTRANKED_CHAINS:
        return _NO_LIMIT
    return _longest_below(best, base, sort_key)


@functools.lru_cache(maxsize=4096)
def _longest_below(best: tuple[float, int, int], base: float, sort_key: int) -> int:
    longest = 1
    while (base + length_difficulty(longest + 1), longest + 1, sort_key) < best:
        longest += 1
    return longest


MEMO_X_PASS = True
"""The speed door of :func:`forcing_chains_cycles`' first pass (X-links only): True, each
source's cycles and forcing X-chains, searched in full, are kept by the digit's places (an
X-link reads only the places of its one digit, :meth:`_Links.fill_off` and
:meth:`_Links.fill_on` without Y-links, and so do a cycle's removals), and read back on a
later grid where that digit's places are the same: most digits keep their places from one
step to the next. A search stopped at a length limit (:data:`PRUNE_OUTRANKED_CHAINS`) finds
what the full one finds up to that length, in the same order, so the kept hints are cut at the
limit. False: every search made on each grid. ``tests/test_se_chains.py`` compares them."""

_Hint = tuple[int, float, int, "Step | None", int, tuple]
"""(length, difficulty, complexity, step or None, target, node): a cycle's step is made when
found; a forcing chain's (None) by :func:`_chain_step`, from its target. ``node``: the chain's
last potential, linked back to its source (see :func:`_chain`)."""

_X_MEMO: dict[tuple[int, int], list[_Hint]] = {}
_X_MEMO_CAP = 50_000
"""At most this many sources' outcomes are kept (a few hundred bytes each); then the memo
starts again empty."""


def _cycle_hints(
    links: _Links, cands: list[int], source: int, y: bool, x: bool, limit: int
) -> list[_Hint]:
    """The cycles from ``source`` that remove something, as (length, difficulty,
    complexity, step, 0, node): ``CycleHint`` (6.5 X- or Y-cycle, 7.0 both kinds of link)."""
    sort_key = 4 if (x and y) else 3 if y else 2
    cycle_base = 7.0 if (x and y) else 6.5
    out: list[_Hint] = []
    for dst in _cycles(links, source, y, x, limit):
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
        diff = cycle_base + length_difficulty(complexity)
        # CycleHint.getName
        if sort_key == 2:
            name = "Generalized X-Wing" if len(in_cycle) == 4 else "Bidirectional X-Cycle"
        else:
            name = "Bidirectional Y-Cycle" if sort_key == 3 else "Bidirectional Cycle"
        step = Step(name, round(diff, 1), tuple(sorted(removals.items())))
        out.append((len(path), diff, complexity, step, 0, dst))
    return out


def _chain_hints(links: _Links, source: int, y: bool, limit: int) -> list[_Hint]:
    """The forcing chains from ``source`` and from its opposite, as (length, difficulty,
    complexity, None, target, node): ``ForcingChainHint`` (6.6 X-links, 7.0 both); the step is
    made by :func:`_chain_step`, as an "on" target's removals read the target cell's digits."""
    chain_base = 7.0 if y else 6.6
    chains: list[tuple] = []
    seen: set[int] = set()
    _forcing(links, source, y, chains, seen, limit)
    _forcing(links, source ^ 1, y, chains, seen, limit)
    out: list[_Hint] = []
    for target in chains:
        keys = _chain(target)
        complexity = len(set(keys))
        diff = chain_base + length_difficulty(complexity)
        out.append((len(keys), diff, complexity, None, target[0], target))
    return out


def _chain_step(cands: list[int], diff: float, complexity: int, target: int, y: bool) -> Step:
    (c, v, on) = _key(target)
    # createForcingChainHint: an "on" target keeps only its digit.
    removal = (c, cands[c] & ~(1 << v)) if on else (c, 1 << v)
    # ForcingChainHint.getName
    name = "Forcing Chain"
    if not y:
        name = "Turbot Fish" if complexity == 6 else "Forcing X-Chain"
    return Step(name, round(diff, 1), (removal,), None, cell_name(c))


def forcing_chains_cycles(g: SEGrid) -> Iterator[Step]:
    """SE's "Forcing Chains & Cycles". Difficulties: ``CycleHint.getDifficulty`` 6.5 (X- or
    Y-cycle) or 7.0 (both kinds of link), ``ForcingChainHint.getDifficulty`` 6.6 (X) or 7.0
    (both), each plus ``getLengthDifficulty``. The hints in SE's order (see
    :data:`SKIP_OUTRANKED_PASS`)."""
    for item in _hint_list(g, full=False):
        yield item[4]


def _hint_list(g: SEGrid, full: bool) -> list[tuple[float, int, int, int, Step, tuple, bool]]:
    """``getHintList`` of SE's "Forcing Chains & Cycles", sorted: (difficulty, complexity, sort
    key, order found, step, node, whether a cycle) a hint. ``full``: every hint, with no speed
    door (what a nested chain reads); else what :data:`SKIP_OUTRANKED_PASS` and
    :data:`PRUNE_OUTRANKED_CHAINS` leave, the first the same."""
    cands = g.cands
    links = _Links(g)
    masks = links.masks
    found: list[tuple[float, int, int, int, Step, tuple, bool]] = []
    best: tuple[float, int, int] | None = None  # the least (difficulty, complexity, sort key)
    order = 0
    memo = _X_MEMO if MEMO_X_PASS else None
    if memo is not None and len(memo) > _X_MEMO_CAP:
        memo.clear()
    for y, x in ((False, True), (True, False), (True, True)):  # getHintList's three passes
        if x and y and SKIP_OUTRANKED_PASS and not full and any(item[0] < 7.0 for item in found):
            break
        sort_key = 4 if (x and y) else 3 if y else 2
        cycle_base = 7.0 if (x and y) else 6.5
        chain_base = 7.0 if (x and y) else 6.6
        for cell in range(81):
            if g.values[cell] or COUNT[cands[cell]] < 2:
                continue
            if not x and COUNT[cands[cell]] > 2:
                continue  # doUnaryChaining: Y-cycles start from bivalue cells only
            for value in BITS[cands[cell]]:
                source = _potential(cell, value, True)
                cycle_limit = _NO_LIMIT if full else _longest(best, cycle_base, sort_key)
                if memo is not None and not y:
                    # the full searches, kept by the digit's places, cut at the limits
                    mkey = (source, masks[value])
                    every = memo.get(mkey)
                    if every is None:
                        every = memo[mkey] = _cycle_hints(
                            links, cands, source, y, x, _NO_LIMIT
                        ) + _chain_hints(links, source, y, _NO_LIMIT)
                    chain_limit = _NO_LIMIT if full else _longest(best, chain_base, sort_key)
                    raw = [
                        item
                        for item in every
                        if item[0] <= (cycle_limit if item[3] is not None else chain_limit)
                    ]
                else:
                    raw = _cycle_hints(links, cands, source, y, x, cycle_limit)
                    if x:
                        chain_limit = _NO_LIMIT if full else _longest(best, chain_base, sort_key)
                        raw += _chain_hints(links, source, y, chain_limit)
                for _size, diff, complexity, made, target, node in raw:
                    step = made
                    if step is None:
                        step = _chain_step(cands, diff, complexity, target, y)
                    found.append((diff, complexity, sort_key, order, step, node, made is not None))
                    order += 1
                    if best is None or (diff, complexity, sort_key) < best:
                        best = (diff, complexity, sort_key)
    found.sort(key=lambda item: item[:4])
    return found


def nested_hints(g: SEGrid) -> list[tuple[Step, tuple[int, ...], int]]:
    """Every hint of SE's "Forcing Chains & Cycles" on ``g``, in SE's order, as a forcing chain
    of a nested level reads them (``Chaining.getAdvancedPotentials``, level 2 and up: the rule
    ``Chaining(false, false, false, 0, …)``): (step, identity, complexity). The step's
    ``basis`` is what ``ChainingHint.getRuleParents`` reads (:func:`_rule_basis`); the identity
    (the chain's potentials, source last) tells the same chain apart as ``FullChain.equals``
    does; the complexity is what the chain adds to the hint that nests it
    (``getNestedComplexity``)."""
    out = []
    masks = value_masks(g.cands)
    for _diff, complexity, sort_key, _order, step, node, cycle in _hint_list(g, full=True):
        keys = _chain_keys(node)
        basis = _rule_basis(keys, masks, cycle)
        out.append((replace(step, basis=basis), (sort_key, cycle, *keys), complexity))
    return out


def _rule_basis(
    keys: tuple[int, ...], masks: list[int], cycle: bool
) -> tuple[tuple[int, int], ...]:
    """``ChainingHint.collectRuleParents`` of a static chain (``keys``: its potentials, each
    reached from the next): what every "on" potential with a cause read (:func:`link_basis`).
    A cycle's other target is the chain reversed (``getReversedCycle``): its "on" potentials
    are this one's "off" ones, with their causes. ``masks``: the grid's
    :func:`~.grid.value_masks`."""
    basis: dict[tuple[int, int], None] = {}
    for k, parent in zip(keys, keys[1:], strict=False):
        if k & 1 or cycle:
            basis.update(dict.fromkeys(link_basis(k, parent // 20, masks)))
    return tuple(basis)


def link_basis(key: int, from_cell: int, masks: list[int]) -> list[tuple[int, int]]:
    """What the cause of potential ``key``, reached in a static chaining from a potential of
    ``from_cell``, reads (``collectRuleParents``), as (cell, digit mask) pairs: a link within
    the cell (``Potential.Cause.NakedSingle``) the cell's candidates; an "on" reached by an
    X-link the region where its digit had two places (the first of block, row, column, as
    ``getOffToOn`` adds them); an "off" the first of those regions holding both cells
    (``getOnToOff``) — that digit's places in the region. ``masks``: the grid's
    :func:`~.grid.value_masks`."""
    cell, value = key // 20, key // 2 % 10
    if from_cell == cell:
        return [(cell, 0x3FE)]
    for kind, unit in enumerate(REGION_MASKS[from_cell]):
        if unit >> cell & 1 and (not key & 1 or (masks[value] & unit).bit_count() == 2):
            return [(c, 1 << value) for c in REGIONS[kind][REGION_OF[from_cell][kind]]]
    return []
