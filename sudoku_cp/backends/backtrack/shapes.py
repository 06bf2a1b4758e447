"""The propagators of the ``backtrack`` backend's rules beyond groups, one per shape that is
more than pairs and digits: sums (arrows, little killers), triples (between lines), sandwiches,
sequences (skyscrapers, X-sums) and quadruples; the spreads they work on (:class:`Digits`),
and the digit sets of cages and sandwiches (:func:`cage_combos`). :mod:`.rules`
compiles the rules into them and runs them in the fast strategy's propagation step.

A *spread* is one cell's candidates cut out of the packed integer, ``(candidates >> cell) &
low_bits``: bit ``d * stride`` for digit ``d + 1``. Shifting it back by the cell puts it in
place, so a whole relation works on spreads and one table serves every cell. A propagator's
``run(candidates)`` answers the candidates it leaves and the cells it changed, or None when no
digits can keep its rule.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .bits import cell_mask as cell_mask  # (here too, for the rules' modules)
from .bits import set_bits as set_bits

if TYPE_CHECKING:  # (annotations only: the rule kinds load when a model has rules)
    from ...rules import Quadruple, Sandwich, SequenceRule, TripleRule

MEMO_MAX = 1 << 16
SANDWICH_MEMO_MAX = 1 << 12
"""Lines a sandwich remembers its answer for (each a tuple of N spreads: about 1 KB at 9x9)."""
"""Entries a relation's memo of spreads keeps before it starts afresh (big grids only: a 9x9
relation has at most 512 spreads to remember)."""


@dataclass(frozen=True)
class Digits:
    """What every propagator needs about spreads at one size."""

    size: int
    stride: int
    low: int
    """One bit per digit: the spread of a cell that may hold anything."""
    below: tuple[int, ...]
    """``below[k]``: the spread of the digits under ``k`` (k = 1 .. N + 1)."""
    above: tuple[int, ...]
    """``above[k]``: the spread of the digits over ``k`` (k = 0 .. N)."""
    spans: dict[int, tuple[int, int]] = field(default_factory=dict, compare=False)
    """A memo: a spread's smallest and largest digit (what sums and sandwiches read most)."""

    @classmethod
    def at(cls, size: int, stride: int) -> Digits:
        low = sum(1 << (d * stride) for d in range(size))
        return cls(
            size=size,
            stride=stride,
            low=low,
            below=tuple(low & ((1 << (max(k - 1, 0) * stride)) - 1) for k in range(size + 2)),
            above=tuple(low >> (k * stride) << (k * stride) for k in range(size + 1)),
        )

    def bit(self, digit: int) -> int:
        """The spread of one digit (1 .. N)."""
        return 1 << ((digit - 1) * self.stride)

    def spread(self, digits: Iterable[int]) -> int:
        return sum(self.bit(d) for d in set(digits))

    def span(self, spread: int) -> tuple[int, int]:
        """The smallest and the largest digit of a non-empty spread, remembered."""
        found = self.spans.get(spread)
        if found is None:
            if len(self.spans) >= MEMO_MAX:
                self.spans.clear()
            found = self.spans[spread] = (lowest(spread, self.stride), highest(spread, self.stride))
        return found

    def outside(self, least: int, most: int) -> int:
        """The spread of the digits below ``least`` or above ``most`` (clamped to 1 .. N)."""
        least, most = max(least, 1), min(most, self.size)
        if least > most:
            return self.low
        return self.below[least] | self.above[most]


def lowest(spread: int, stride: int) -> int:
    """The smallest digit of a non-empty spread (bit ``d * stride`` has bit length
    ``d * stride + 1``, which the stride, at least 2, divides down to ``d``)."""
    return (spread & -spread).bit_length() // stride + 1


def highest(spread: int, stride: int) -> int:
    return spread.bit_length() // stride + 1


MAX_COMBOS = 4096
"""The most digit sets listed for one cage; a cage with more (only on big grids: 12 cells of a
25x25 grid) is bounded by its sum alone."""


@functools.cache
def cage_combos(cells: int, total: int, size: int) -> tuple[int, ...] | None:
    """Every set of ``cells`` different digits 1..``size`` summing to ``total``, as digit masks
    (bit ``d`` for digit ``d + 1``), in increasing order; None when more than MAX_COMBOS.

    >>> [[d + 1 for d in range(9) if m >> d & 1] for m in cage_combos(3, 7, 9)]
    [[1, 2, 4]]
    >>> len(cage_combos(2, 10, 9)), cage_combos(2, 2, 9), cage_combos(9, 45, 9) == (511,)
    (4, (), True)
    """
    found: list[int] = []
    # Digits chosen in increasing order; prune when even the smallest or largest remaining
    # digits cannot reach the total.
    stack = [(0, 1, cells, total)]  # (mask so far, next digit, digits still to choose, rest)
    while stack:
        mask, low, count, rest = stack.pop()
        if count == 0:
            if rest == 0:
                found.append(mask)
                if len(found) > MAX_COMBOS:
                    return None
            continue
        for digit in range(size, low - 1, -1):  # pushed high to low: popped low to high
            smallest = count * digit + count * (count - 1) // 2  # digit, digit+1, …
            largest = count * (2 * size - count + 1) // 2  # the top `count` digits
            if size - digit + 1 >= count and smallest <= rest <= largest:
                stack.append((mask | 1 << (digit - 1), digit + 1, count - 1, rest - digit))
    return tuple(sorted(found))


@functools.lru_cache(maxsize=256)
def clique_sets(cells: int, relation: tuple[tuple[bool, ...], ...]) -> tuple[int, ...] | None:
    """Every set of ``cells`` different digits that ``relation`` (``relation[a - 1][b - 1]``:
    whether a pair rule allows ``a`` beside ``b``, for the digits 1..N) accepts pairwise in
    both orders, as digit masks in increasing order; None when more than MAX_COMBOS. A pair
    rule binding every pair of a group of its own (renban: the runs of consecutive digits) takes
    one of these sets, so the search can work on them as on a cage's. Remembered per relation.

    >>> near = tuple(tuple(abs(a - b) < 3 for b in range(1, 6)) for a in range(1, 6))
    >>> [[d + 1 for d in range(9) if m >> d & 1] for m in clique_sets(3, near)]
    [[1, 2, 3], [2, 3, 4], [3, 4, 5]]
    """
    size = len(relation)
    ok = [
        [a != b and relation[a - 1][b - 1] and relation[b - 1][a - 1] for b in range(1, size + 1)]
        for a in range(1, size + 1)
    ]
    found: list[int] = []
    stack: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    while stack:
        mask, chosen = stack.pop()
        if len(chosen) == cells:
            found.append(mask)
            if len(found) > MAX_COMBOS:
                return None
            continue
        low = chosen[-1] + 1 if chosen else 1
        for digit in range(size - (cells - len(chosen)) + 1, low - 1, -1):
            if all(ok[digit - 1][c - 1] for c in chosen):
                stack.append((mask | 1 << (digit - 1), (*chosen, digit)))
    return tuple(sorted(found))


# --- the propagators of sums, triples, sandwiches and quadruples ------------------------------
Outcome = tuple[int, int] | None
"""A propagator's answer: the candidates it leaves and the cells it changed (a cell mask), or
None when no digits can keep its rule."""


class SumPropagator:
    """A weighted sum equal to a goal, kept bounds-consistent (arrows, little killers).

    Each term ``weight * digit`` ranges between its smallest and largest candidate's; every
    term must fit in what the goal leaves once the others take their extremes. Digits may
    repeat, so the bounds are each cell's own: exact once the terms are settled."""

    __slots__ = ("cells", "digits", "goal", "mask", "weights")

    def __init__(self, terms: Sequence[tuple[int, int]], goal: int, digits: Digits) -> None:
        weight: dict[int, int] = {}
        for cell, w in terms:  # a cell twice is one term (never so in the kinds today)
            weight[cell] = weight.get(cell, 0) + w
        kept = [(c, w) for c, w in weight.items() if w]
        self.cells = tuple(c for c, _ in kept)
        self.weights = tuple(w for _, w in kept)
        self.goal = goal
        self.digits = digits
        self.mask = cell_mask(self.cells)

    def run(self, cand: int) -> Outcome:
        t = self.digits
        low, spans, span = t.low, t.spans, t.span
        cells, weights, goal = self.cells, self.weights, self.goal
        changed = 0
        while True:
            spreads, bounds = [], []
            total_low = total_high = 0
            for cell, w in zip(cells, weights, strict=True):
                s = (cand >> cell) & low
                if not s:
                    return None
                small, big = spans.get(s) or span(s)
                if w > 0:
                    small, big = small * w, big * w
                else:
                    small, big = big * w, small * w
                spreads.append(s)
                bounds.append((small, big))
                total_low += small
                total_high += big
            if not total_low <= goal <= total_high:
                return None
            if total_low == total_high:
                return cand, changed
            pruned = False
            for cell, w, s, (small, big) in zip(cells, weights, spreads, bounds, strict=True):
                floor = goal - (total_high - big)  # the least this term may be
                ceiling = goal - (total_low - small)  # the most
                if floor <= small and big <= ceiling:
                    continue
                if w > 0:
                    least, most = -(-floor // w), ceiling // w
                else:
                    least, most = -(-ceiling // w), floor // w
                out = s & t.outside(least, most)
                if out:
                    if out == s:
                        return None
                    cand ^= out << cell
                    changed |= 1 << cell
                    pruned = True
            if not pruned:
                return cand, changed


class TriplePropagator:
    """The triples of one rule (a between line's ends with each middle cell): every candidate
    must be part of some allowed triple of candidates (generalised arc consistency), memoised
    on the three spreads."""

    __slots__ = ("allowed", "digits", "mask", "memo", "triples")

    def __init__(self, rule: TripleRule, digits: Digits) -> None:
        n = digits.size
        self.triples = rule.triples(n)
        self.allowed = tuple(
            (digits.bit(a), digits.bit(b), digits.bit(c))
            for a in range(1, n + 1)
            for b in range(1, n + 1)
            for c in range(1, n + 1)
            if rule.allows(a, b, c)
        )
        self.digits = digits
        self.mask = cell_mask(c for triple in self.triples for c in triple)
        self.memo: dict[tuple[int, int, int], tuple[int, int, int]] = {}

    def supported(self, key: tuple[int, int, int]) -> tuple[int, int, int]:
        sx, sy, sz = key
        ox = oy = oz = 0
        for bx, by, bz in self.allowed:
            if sx & bx and sy & by and sz & bz:
                ox |= bx
                oy |= by
                oz |= bz
        if len(self.memo) >= MEMO_MAX:
            self.memo.clear()
        self.memo[key] = (ox, oy, oz)
        return ox, oy, oz

    def run(self, cand: int) -> Outcome:
        low = self.digits.low
        changed = 0
        for triple in self.triples:
            key = ((cand >> triple[0]) & low, (cand >> triple[1]) & low, (cand >> triple[2]) & low)
            kept = self.memo.get(key) or self.supported(key)
            for cell, s, keep in zip(triple, key, kept, strict=True):
                if s != keep:
                    if not keep:
                        return None
                    cand ^= (s ^ keep) << cell
                    changed |= 1 << cell
        return cand, changed


class _LinePropagator:
    """A propagator of a line of cells that answers, once per line of candidate spreads it
    meets (remembered, up to SANDWICH_MEMO_MAX), what each cell loses: ``supported``."""

    __slots__ = ()
    cells: tuple[int, ...]
    digits: Digits
    memo: dict[tuple[int, ...], tuple[int, ...] | None]

    def supported(self, line: tuple[int, ...]) -> tuple[int, ...] | None:
        raise NotImplementedError

    def run(self, cand: int) -> Outcome:
        low = self.digits.low
        cells = self.cells
        spreads = tuple((cand >> c) & low for c in cells)
        memo = self.memo
        if spreads in memo:
            outs = memo[spreads]
        else:
            if len(memo) >= SANDWICH_MEMO_MAX:
                memo.clear()
            outs = memo[spreads] = self.supported(spreads)
        if outs is None:
            return None
        changed = 0
        for cell, out in zip(cells, outs, strict=True):
            if out:
                cand ^= out << cell
                changed |= 1 << cell
        return cand, changed


class SandwichPropagator(_LinePropagator):
    """A sandwich sum on a line that is a group (its digits differ, so 1 and N appear once).

    Every place of the 1 and of the N a distance apart that the sum allows is tried, with every
    set of different digits of 2..N-1 the cells between could hold (as a cage's sets are
    listed): the set must cover those cells and each of its digits must have a place there.
    Each candidate keeps only the support such placements give it — the 1 and the N their
    possible places, a cell between the digits of possible sets, a cell outside any digit but
    1, N and the set's. Once the cells between are settled, the sum is exact. Where the sets
    are too many to list (big grids), each cell between is bounded by the sum instead."""

    __slots__ = (
        "cells",
        "combos",
        "memo",
        "digits",
        "ends",
        "gaps",
        "goal",
        "mask",
        "middle",
        "one",
        "top",
    )

    def __init__(self, rule: Sandwich, digits: Digits) -> None:
        n = digits.size
        self.cells = tuple(rule.cells)
        self.mask = cell_mask(self.cells)
        self.digits = digits
        self.one, self.top = digits.bit(1), digits.bit(n)
        self.ends = self.one | self.top
        self.middle = digits.low ^ self.ends if n > 1 else 0
        self.goal = rule.total
        inner = list(range(2, n))
        # How far apart the 1 and the N may be: k cells between them hold k different digits
        # of 2..N-1, so the sum rules out most distances before any candidate is read.
        self.gaps = tuple(
            k + 1
            for k in range(n - 1)
            if sum(inner[:k]) <= self.goal <= sum(inner[len(inner) - k :] if k else ())
        )
        combos: dict[int, tuple[int, ...] | None] = {}
        for gap in self.gaps:
            found = cage_combos(gap - 1, self.goal, n)  # the gaps kept the goal small
            edge = 1 | 1 << (n - 1)
            combos[gap - 1] = (
                None
                if found is None
                else tuple(
                    digits.spread(d + 1 for d in range(n) if m >> d & 1)
                    for m in found
                    if not m & edge
                )
            )
        self.combos = combos
        self.memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}

    def supported(self, line: tuple[int, ...]) -> tuple[int, ...] | None:
        """What each cell loses (its digits without support), or None for a dead end."""
        spreads = list(line)
        ends, one, top = self.ends, self.one, self.top
        size = len(spreads)
        tops = 0
        for i, s in enumerate(spreads):
            if s & top:
                tops |= 1 << i
        support = [0] * size
        found = False
        for i, s in enumerate(spreads):
            if not s & one:
                continue
            for gap in self.gaps:
                for j in (i - gap, i + gap):
                    if j < 0 or not tops >> j & 1:
                        continue
                    a, b = (i, j) if i < j else (j, i)
                    between = spreads[a + 1 : b]
                    combos = self.combos[b - a - 1]
                    if combos is None:
                        found |= self._bounded(spreads, support, i, j, a, b)
                        continue
                    union = 0
                    for x in between:
                        union |= x
                    # The sets that fit: their union is what the cells between may hold, and
                    # their common digits are what the cells outside may not.
                    fit = False
                    fits = 0
                    common = -1
                    for combo in combos:
                        if combo & union != combo:
                            continue
                        for x in between:
                            if not x & combo:
                                break
                        else:
                            fit = True
                            fits |= combo
                            common &= combo
                    if not fit:
                        continue
                    found = True
                    support[i] |= one
                    support[j] |= top
                    for x in range(a + 1, b):
                        support[x] |= spreads[x] & fits
                    rest = ~(ends | common)
                    for x in range(size):
                        if not a <= x <= b:
                            support[x] |= spreads[x] & rest
                    if support == spreads:
                        return (0,) * size  # every candidate has support: nothing to remove
        if not found or not all(support):
            return None
        return tuple(s & ~kept for s, kept in zip(spreads, support, strict=True))

    def _bounded(
        self, spreads: list[int], support: list[int], i: int, j: int, a: int, b: int
    ) -> bool:
        """For a gap whose digit sets are too many to list: whether the cells between can
        make the sum within their bounds; if so, the support this placement gives."""
        t = self.digits
        middle, goal = self.middle, self.goal
        spans = [
            t.span(spreads[x] & middle) if spreads[x] & middle else None for x in range(a + 1, b)
        ]
        if None in spans:
            return False
        least = sum(span[0] for span in spans if span)
        most = sum(span[1] for span in spans if span)
        if not least <= goal <= most:
            return False
        support[i] |= self.one
        support[j] |= self.top
        for x, span in zip(range(a + 1, b), spans, strict=True):
            assert span is not None
            small, big = span
            keep = middle & ~t.outside(goal - (most - big), goal - (least - small))
            support[x] |= spreads[x] & keep
        for x in range(len(spreads)):
            if not a <= x <= b:
                support[x] |= spreads[x] & ~self.ends
        return True


class LooseSandwich:
    """A sandwich sum on a line that is not a group (a model without rows or columns): its
    digits may repeat, so it is checked, reading the first 1 and N, once every cell is
    settled."""

    __slots__ = ("cells", "digits", "goal", "mask")

    def __init__(self, rule: Sandwich, digits: Digits) -> None:
        self.cells, self.goal, self.digits = tuple(rule.cells), rule.total, digits
        self.mask = cell_mask(self.cells)

    def run(self, cand: int) -> Outcome:
        t = self.digits
        line = []
        for cell in self.cells:
            s = (cand >> cell) & t.low
            if s & (s - 1) or not s:
                return cand, 0
            line.append(lowest(s, t.stride))
        if 1 not in line or t.size not in line:
            return None
        a, b = sorted((line.index(1), line.index(t.size)))
        return (cand, 0) if sum(line[a + 1 : b]) == self.goal else None


class QuadruplePropagator:
    """The listed digits appear among the cells, a digit listed twice at least twice.

    A listed digit with fewer places among the cells than it must appear fails; with exactly
    as many, it goes in each. Fewer cells able to hold a listed digit than digits listed fail;
    as many listed digits as cells leave the cells only those digits."""

    __slots__ = ("cells", "digits", "listed", "mask", "need", "shifts")

    def __init__(self, rule: Quadruple, digits: Digits) -> None:
        self.cells = tuple(rule.cells)
        self.mask = cell_mask(self.cells)
        self.digits = digits
        counts = rule.needed()
        self.need = tuple((d, counts[d]) for d in sorted(counts))
        self.shifts = tuple((d - 1) * digits.stride for d, _ in self.need)
        self.listed = digits.spread(counts)

    def run(self, cand: int) -> Outcome:
        t = self.digits
        low, mask = t.low, self.mask
        changed = able = 0
        for (digit, times), shift in zip(self.need, self.shifts, strict=True):
            places = (cand >> shift) & mask
            able |= places
            count = places.bit_count()
            if count < times:
                return None
            if count == times:
                bit = t.bit(digit)
                for cell in set_bits(places):
                    out = (cand >> cell) & low & ~bit
                    if out:
                        cand ^= out << cell
                        changed |= 1 << cell
        listed = sum(times for _, times in self.need)
        if able.bit_count() < listed:
            return None
        if listed == len(self.cells):
            for cell in self.cells:
                s = (cand >> cell) & low
                out = s & ~self.listed
                if out:
                    if out == s:
                        return None
                    cand ^= out << cell
                    changed |= 1 << cell
        return cand, changed


class SequencePropagator(_LinePropagator):
    """A sequence rule's automaton along its line, kept generalised-arc-consistent: the states
    reachable over the cells' candidates, forwards; of them, backwards, those from which an
    accepting end is still reachable; each cell keeps the digits leading from a live state to
    a live one.

    States are numbered as they are met, each with its row of moves (the next state's number
    per digit, -1 for none), so that the passes look up lists rather than call the rule; each
    pass's steps, and the answers per line of spreads, are remembered. A 9x9 puzzle of 9
    skyscrapers, 9 X-sums and 5 givens (14,000 nodes, under cProfile): 46 s calling the rule
    at each step, 25 s with numbered states, 11 s remembering the steps too."""

    __slots__ = (
        "accepting",
        "backward",
        "cells",
        "dfa",
        "digits",
        "first",
        "forward",
        "mask",
        "memo",
        "number",
        "rows",
        "rule",
        "unpack",
    )

    def __init__(self, rule: SequenceRule, digits: Digits) -> None:
        self.rule = rule  # (the kernel's tables share one layout between rules alike)
        self.dfa = rule.automaton(digits.size)
        self.cells = tuple(rule.cells)
        self.mask = cell_mask(self.cells)
        self.digits = digits
        self.number: dict[Hashable, int] = {self.dfa.start: 0}
        self.rows: list[list[int]] = []
        self.accepting: list[bool] = []
        self.unpack: dict[int, tuple[tuple[int, int], ...]] = {}
        self.memo: dict[tuple[int, ...], tuple[int, ...] | None] = {}
        self.first = frozenset((0,))
        self.forward: dict[tuple[frozenset[int], int], frozenset[int]] = {}
        self.backward: dict[
            tuple[frozenset[int], int, frozenset[int]], tuple[frozenset[int], int]
        ] = {}

    def _bits(self, spread: int) -> tuple[tuple[int, int], ...]:
        """A spread's digits, each as (digit - 1, its bit)."""
        found = self.unpack.get(spread)
        if found is None:
            t = self.digits
            found = tuple((d - 1, t.bit(d)) for d in range(1, t.size + 1) if spread & t.bit(d))
            if len(self.unpack) >= MEMO_MAX:
                self.unpack.clear()
            self.unpack[spread] = found
        return found

    def _row(self, state: int) -> list[int]:
        """The moves of state number ``state``, worked out for it and every state numbered
        before it that has none yet."""
        rows, number, dfa = self.rows, self.number, self.dfa
        states = list(number)
        while len(rows) <= state:
            here = states[len(rows)]
            row = []
            for digit in range(1, self.digits.size + 1):
                nxt = dfa.step(here, digit)
                if nxt is None:
                    row.append(-1)
                else:
                    if nxt not in number:
                        number[nxt] = len(number)
                        states.append(nxt)
                    row.append(number[nxt])
            rows.append(row)
            self.accepting.append(dfa.accepts(here))
        return rows[state]

    def supported(self, spreads: tuple[int, ...]) -> tuple[int, ...] | None:
        """What each cell loses (its digits on no accepted path), or None for a dead end.
        Each step of either pass is remembered (a search meets the same sets of states and
        spreads again and again, a line differing from the last in a cell or two)."""
        forward, backward = self.forward, self.backward
        if len(forward) >= MEMO_MAX or len(backward) >= MEMO_MAX:
            forward.clear()
            backward.clear()
        layers = [self.first]
        for spread in spreads:
            key = (layers[-1], spread)
            after = forward.get(key)
            if after is None:
                after = forward[key] = self._ahead(layers[-1], spread)
            layers.append(after)
        alive = self._accepted(layers[-1])
        outs = [0] * len(spreads)
        for i in range(len(spreads) - 1, -1, -1):
            spread = spreads[i]
            back = (layers[i], spread, alive)
            found = backward.get(back)
            if found is None:
                found = backward[back] = self._behind(layers[i], spread, alive)
            alive, kept = found
            if not alive:
                return None
            outs[i] = spread & ~kept
        return tuple(outs)

    def _ahead(self, layer: frozenset[int], spread: int) -> frozenset[int]:
        """The states one digit of ``spread`` on from ``layer``."""
        rows = self.rows
        after = set()
        digits = self._bits(spread)
        for state in layer:
            row = rows[state] if state < len(rows) else self._row(state)
            for d, _ in digits:
                after.add(row[d])
        after.discard(-1)
        return frozenset(after)

    def _accepted(self, layer: frozenset[int]) -> frozenset[int]:
        for state in layer:
            if state >= len(self.rows):
                self._row(state)  # (its row also says whether it accepts)
        return frozenset(state for state in layer if self.accepting[state])

    def _behind(
        self, layer: frozenset[int], spread: int, alive: frozenset[int]
    ) -> tuple[frozenset[int], int]:
        """The states of ``layer`` with a digit of ``spread`` leading into ``alive``, and
        those digits (as a spread)."""
        rows = self.rows
        here = set()
        kept = 0
        for state in layer:
            row = rows[state]
            for d, bit in self._bits(spread):
                if row[d] in alive:
                    here.add(state)
                    kept |= bit
        return frozenset(here), kept


Propagator = (
    SumPropagator
    | TriplePropagator
    | SandwichPropagator
    | LooseSandwich
    | QuadruplePropagator
    | SequencePropagator
)
