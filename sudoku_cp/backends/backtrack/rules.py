"""The rules beyond groups as the ``backtrack`` backend's fast strategy propagates them: their
tables, built once per layout (:func:`compile_rules`), and the propagation step over the
bit-packed candidates (:func:`rules_step`). The teaching strategies' check of each assignment
is in :mod:`.checks`. Groups, anti-knight and anti-king included, are the search's
own peers and need nothing here.

Rules are compiled by shape (:mod:`sudoku_cp.rules.base`), reading only each rule's data and
relation (``pairs``/``allows``, ``terms``/``goal``, ``cells``/``digits``), never its checker:

- digit rules (odd, even) remove candidates once, at the start (``RuleTables.allowed``);
- pair rules (dots, thermometers, whispers, clones …) keep arc consistency: a digit of a cell
  stays only while every partner has a candidate the relation allows beside it, so a
  thermometer's cells get their bounds from both ends with no search;
- sums (arrows, little killers) keep bounds consistency: each term's candidates must leave a
  total the other terms can still reach, weights of either sign;
- triples (between lines) keep every digit that is part of some allowed triple of candidates;
- sandwiches keep the places of 1 and N where the cells between them can hold a set of digits
  making the sum, those sets' digits between, and none of the digits every set needs outside;
- quadruples force a listed digit into its last places and fail when one cannot fit;
- sequence rules (skyscrapers, X-sums) keep the digits on some path of their automaton, from
  its start to an accepting state, over the cells' candidates;
- killer cages work on their listed digit sets (:func:`_cage`).

The propagators of sums, triples, sandwiches and quadruples, and the *spreads* (one cell's
candidates cut out of the packed integer) they and the pair rules work on, are in
:mod:`.shapes`.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .shapes import (
    MEMO_MAX,
    Digits,
    LooseSandwich,
    Outcome,
    Propagator,
    QuadruplePropagator,
    SandwichPropagator,
    SequencePropagator,
    SumPropagator,
    TriplePropagator,
    cage_combos,
    cell_mask,
    clique_sets,
    set_bits,
)

if TYPE_CHECKING:
    from ...rules import PairRule, Rule


class Layout(Protocol):
    """What the propagation reads of a :class:`.layout.Layout`. A protocol rather than an
    import: :mod:`.layout` loads this module to compile a model's rules, and the imports of
    the family go one way, down to here."""

    @property
    def size(self) -> int: ...
    @property
    def shifts(self) -> tuple[int, ...]: ...
    @property
    def low_bits(self) -> int: ...
    @property
    def rules(self) -> RuleTables | None: ...


# --- cages (their digit sets, listed once per cage) -------------------------------------------
@dataclass(frozen=True)
class CageTable:
    """A cage with a sum, ready for the search."""

    cells: tuple[int, ...]
    mask: int
    """The cage's cells, as a cell mask."""
    layers: int
    """The cage's cells in every layer."""
    total: int | None
    """The cage's sum; None for the digit sets of a pair rule over a group of its own
    (:func:`_clique_table`)."""
    combos: tuple[int, ...] | None
    """Every set of ``len(cells)`` different digits summing to ``total`` (or that the pair
    rule allows), as digit masks (bit ``d`` for digit ``d + 1``); None when there are too many
    to list (a cage on a big grid), in which case only the bounds of the sum are used."""


# --- the compiled rules --------------------------------------------------------------------------
Memo = tuple[dict[int, int], dict[int, int]]
"""A relation's supports from one side and the memo of its arcs (see :data:`Arc`)."""
Arc = tuple[int, dict[int, int], dict[int, int]]
"""A pair rule seen from one of its cells: ``(partner, support, memo)``. ``support`` maps the
spread of each digit of the cell to the spread of the partner's digits the relation allows
beside it; ``memo`` maps a whole spread of the cell to the union of its digits' supports."""


@dataclass(frozen=True)
class RuleTables:
    """A model's rules beyond groups at one size, ready for the search."""

    rules: tuple[Rule, ...]
    """The rules themselves (the teaching strategies' check reads their data)."""
    digits: Digits
    allowed: int
    """Every candidate the digit rules leave, packed as the search packs candidates."""
    cages: tuple[CageTable, ...]
    arcs: tuple[tuple[Arc, ...], ...]
    """Per cell, its pair rules' arcs to its partners."""
    pair_cells: int
    """The cells with an arc, as a cell mask."""
    propagators: tuple[Propagator, ...]
    watched: int
    """The cells of every pair rule and propagator: a change elsewhere wakes none of them."""


def compile_rules(
    rules: Sequence[Rule], size: int, stride: int, peers: Sequence[Sequence[int]]
) -> RuleTables | None:
    """The tables of ``rules`` at ``size``, or None when the groups say it all (anti-knight,
    cages without a sum …). ``peers`` tells which sandwich lines are groups."""
    if not rules:
        return None  # most models (classic, jigsaw): no tables to build for each puzzle
    # (the rule classes are not loaded for models without rules)
    from ...rules import (
        Cage,
        DigitRule,
        PairRule,
        Quadruple,
        Rule,
        Sandwich,
        SequenceRule,
        SumRule,
        TripleRule,
    )

    digits = Digits.at(size, stride)
    cells = size * size
    allowed = ((1 << cells) - 1) * digits.low
    cages: list[CageTable] = []
    arcs: list[list[Arc]] = [[] for _ in range(cells)]
    memos: dict[tuple[tuple[int, int], ...], tuple[dict[int, int], dict[int, int]]] = {}
    propagators: list[Propagator] = []

    def shared(support: dict[int, int]) -> tuple[dict[int, int], dict[int, int]]:
        # Every pair with the same relation (all thermometers, all white dots of one value)
        # shares one memo.
        key = tuple(sorted(support.items()))
        return memos.setdefault(key, (support, {}))

    relations: dict[tuple[tuple[bool, ...], ...], tuple[Memo, Memo]] = {}
    ds = range(1, size + 1)
    for rule in rules:
        if isinstance(rule, PairRule):
            # The relation read once per rule (N² calls); its supports made once per relation
            # (every thermometer, every white dot of one value): a first solve's cost.
            table = tuple(tuple(rule.allows(a, b) for b in ds) for a in ds)
            found = relations.get(table)
            if found is None:
                ahead = {
                    digits.bit(a): digits.spread(b for b in ds if table[a - 1][b - 1]) for a in ds
                }
                back = {
                    digits.bit(b): digits.spread(a for a in ds if table[a - 1][b - 1]) for b in ds
                }
                found = relations[table] = (shared(ahead), shared(back))
            to_second, to_first = found
            for a, b in rule.pairs(size):
                arcs[a].append((b, *to_second))
                arcs[b].append((a, *to_first))
            clique = _clique_table(rule, size, digits, table)
            if clique is not None:
                cages.append(clique)
        elif isinstance(rule, DigitRule):
            out = digits.spread(d for d in range(1, size + 1) if not rule.allows(d))
            for cell in rule.cells:
                allowed &= ~(out << cell)
        elif isinstance(rule, SumRule):
            propagators.append(SumPropagator(rule.terms(size), rule.goal, digits))
        elif isinstance(rule, TripleRule):
            propagators.append(TriplePropagator(rule, digits))
        elif isinstance(rule, Sandwich):
            line = rule.cells
            group = all(b in peers[a] for i, a in enumerate(line) for b in line[i + 1 :])
            propagators.append(
                SandwichPropagator(rule, digits) if group else LooseSandwich(rule, digits)
            )
        elif isinstance(rule, Quadruple):
            propagators.append(QuadruplePropagator(rule, digits))
        elif isinstance(rule, SequenceRule):
            propagators.append(SequencePropagator(rule, digits))
        elif isinstance(rule, Cage):
            if rule.total is not None:
                mask = cell_mask(rule.cells)
                cages.append(
                    CageTable(
                        cells=tuple(rule.cells),
                        mask=mask,
                        layers=mask * digits.low,
                        total=rule.total,
                        combos=cage_combos(len(rule.cells), rule.total, size),
                    )
                )
        elif type(rule).groups is Rule.groups:
            raise TypeError(f"backtrack cannot compile the {rule.title} rule ({rule.key})")
        # else: a rule that is only its groups (anti-knight, anti-king) — the peers hold it
    propagators += _implied_equal_sums(rules, digits)
    pair_cells = cell_mask(c for c in range(cells) if arcs[c])
    if not (cages or pair_cells or propagators) and allowed == ((1 << cells) - 1) * digits.low:
        return None
    return RuleTables(
        rules=tuple(rules),
        digits=digits,
        allowed=allowed,
        cages=tuple(cages),
        arcs=tuple(tuple(a) for a in arcs),
        pair_cells=pair_cells,
        propagators=tuple(propagators),
        watched=functools.reduce(operator.or_, (p.mask for p in propagators), pair_cells),
    )


def _clique_table(
    rule: PairRule, size: int, digits: Digits, relation: tuple[tuple[bool, ...], ...]
) -> CageTable | None:
    """A pair rule binding every pair of its cells, which take different digits (renban: a
    group of its own, pairwise less than the length apart; nabner: never equal nor
    consecutive) as a cage without a sum: the digit sets it allows (a renban's runs of
    consecutive digits), listed once, so that the search keeps only digits of a set still
    possible and places a digit every set needs (a renban of five cells on 1-9 holds 5) —
    what arcs between pairs cannot see. ISS reasons so over the union of an all-different
    pairwise rule's candidates (sigh/Interactive-Sudoku-Solver, js/solver/handlers.js,
    ``BinaryPairwise._validCombinationInfoTable`` and ``_enforceRequiredValues``).
    ``relation`` is the rule's, read once by the caller. None for any other pair rule, or when
    the sets are too many to list."""
    cells = tuple(getattr(rule, "cells", ()))
    if len(cells) < 3 or len(set(cells)) != len(cells):
        return None
    apart = not any(relation[d][d] for d in range(size))  # nabner: never equal
    if not apart and frozenset(cells) not in {frozenset(g) for g, _ in rule.groups(size)}:
        return None  # its cells may repeat a digit: no sets of different digits to list
    every_pair = {frozenset((a, b)) for i, a in enumerate(cells) for b in cells[i + 1 :]}
    if {frozenset(p) for p in rule.pairs(size)} != every_pair:
        return None  # some pair unbound: the listed sets would be stronger than the rule
    combos = clique_sets(len(cells), relation)
    if combos is None:
        return None
    mask = cell_mask(cells)
    return CageTable(cells=cells, mask=mask, layers=mask * digits.low, total=None, combos=combos)


def _implied_equal_sums(rules: Sequence[Rule], digits: Digits) -> list[Propagator]:
    """For a line of equal sums (zipper lines, double arrows, region sum lines: each rule one
    equation between neighbouring parts), the equations between parts further apart that the
    line's own equations imply: a zipper line's every pair then sums to its middle cell, not
    only through the pairs between, as ISS builds a zipper (sigh/Interactive-Sudoku-Solver,
    js/solver/sudoku_builder.js, case 'Zipper': each pair equal to the centre, or every two
    pairs equal). Only across equations all present: a line given some of its steps keeps
    just those."""
    from ...rules.lines_more import EqualSums

    steps: dict[tuple[object, ...], tuple[EqualSums, set[int]]] = {}
    for rule in rules:
        if isinstance(rule, EqualSums):
            key = (type(rule), tuple(rule.cells), rule.parts())
            steps.setdefault(key, (rule, set()))[1].add(rule.step)
    implied: list[Propagator] = []
    for rule, present in steps.values():
        parts = rule.parts()
        for i in range(len(parts)):
            for j in range(i + 2, len(parts)):
                if all(k in present for k in range(i, j)):
                    terms = tuple((c, 1) for c in parts[i]) + tuple((c, -1) for c in parts[j])
                    implied.append(SumPropagator(terms, 0, digits))
    return implied


# --- the fast strategy's step --------------------------------------------------------------------
def rules_step(
    lay: Layout, candidates: int, layers: list[int], solved: int, changed: int
) -> int | None:
    """The candidates the model's rules beyond groups rule out, or None for a dead end.

    Only rules with a cell whose candidates differ since the last look (``changed``, packed)
    are woken; cages look at their layers (see :func:`_cage`), the other rules run to a common
    fixed point: pair rules as an arc-consistency work list over the cells that changed, then
    each propagator a changed cell wakes, again while any of them changes a cell.
    """
    tables = lay.rules
    assert tables is not None
    kill = 0
    for cage in tables.cages:
        if changed & cage.layers:
            more = _cage(lay, cage, layers, solved)
            if more is None:
                return None
            kill |= more
    if not tables.watched:
        return kill
    fold = 0
    for shift in lay.shifts:
        fold |= changed >> shift
    todo = fold & tables.watched
    if not todo:
        return kill
    cand = start = candidates & ~kill
    pair_todo = todo & tables.pair_cells
    while todo:
        woken = 0
        if pair_todo:
            outcome = _arcs(tables, cand, pair_todo)
            if outcome is None:
                return None
            cand, woken = outcome
        # The arcs' changes are already consistent with every arc: only the propagators'
        # changes go back to the arcs.
        touched = todo | woken
        todo = 0
        for propagator in tables.propagators:
            if propagator.mask & touched:
                outcome = propagator.run(cand)
                if outcome is None:
                    return None
                cand, more = outcome
                todo |= more
                touched |= more
        pair_todo = todo & tables.pair_cells
    return kill | (start ^ cand)


def _arcs(tables: RuleTables, cand: int, todo: int) -> Outcome:
    """Arc consistency of the pair rules, from the cells of ``todo``: each partner of a changed
    cell keeps only the digits some candidate of the cell allows; a partner that loses one is
    looked at in turn."""
    low, arcs = tables.digits.low, tables.arcs
    work = set_bits(todo)
    changed = 0
    while work:
        cell = work.pop()
        mine = (cand >> cell) & low
        for partner, support, memo in arcs[cell]:
            ok = memo.get(mine)
            if ok is None:
                ok = 0
                rest = mine
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    ok |= support[bit]
                if len(memo) >= MEMO_MAX:
                    memo.clear()
                memo[mine] = ok
            theirs = (cand >> partner) & low
            out = theirs & ~ok
            if out:
                if out == theirs:
                    return None
                cand ^= out << partner
                changed |= 1 << partner
                work.append(partner)
    return cand, changed


def _cage(lay: Layout, cage: CageTable, layers: list[int], solved: int) -> int | None:
    """The candidates a cage's sum rules out, or None when no set of digits can meet it.

    A set of digits from ``cage.combos`` is still possible when it holds every digit settled
    in the cage, and its other digits each have a place among the open cells, which they
    cover (every open cell has one of them). The open cells keep only the digits of possible
    sets; a digit in every possible set with one place in the cage goes there (one open cell
    left: its digit is forced).

    The cage's digits differ, but its cells need not be peers (a nabner line's digit sets):
    a digit settled in the cage leaves its open cells here, as the peers would, since the
    cages run before the pair rules' arcs.
    """
    cells = cage.mask
    open_cells = cells & ~solved
    settled = cells & solved
    placed = present = 0
    inside = []  # per digit: its places among the open cells
    clash = 0  # candidates of open cells whose digit is settled elsewhere in the cage
    for digit, layer in enumerate(layers):
        here = layer & cells
        places = here & open_cells
        if here & settled:
            if (here & settled) & ((here & settled) - 1):
                return None  # settled twice in the cage
            placed |= 1 << digit
            clash |= places << lay.shifts[digit]
            places = 0
        inside.append(places)
        if places:
            present |= 1 << digit
    if cage.combos is None:
        kill = _cage_bounds(lay, cage, inside, placed, present, open_cells)
        return None if kill is None else kill | clash
    allowed = possible = 0
    must = present
    for combo in cage.combos:
        if combo & placed != placed:
            continue
        rest = combo ^ placed
        if rest & present != rest:
            continue
        covered = 0
        digits = rest
        while digits:
            low = digits & -digits
            digits ^= low
            covered |= inside[low.bit_length() - 1]
        if covered == open_cells:
            possible += 1
            allowed |= rest
            must &= rest
    if not possible:
        return None
    shifts = lay.shifts
    kill = 0
    out = present & ~allowed
    while out:
        low = out & -out
        out ^= low
        kill |= open_cells << shifts[low.bit_length() - 1]
    while must:
        low = must & -must
        must ^= low
        digit = low.bit_length() - 1
        places = inside[digit]
        if not places & (places - 1):  # its one place: the cell's other digits go
            kill |= places * lay.low_bits ^ places << shifts[digit]
    return kill | clash


def _cage_bounds(
    lay: Layout, cage: CageTable, inside: list[int], placed: int, present: int, open_cells: int
) -> int | None:
    """For a cage with too many digit sets to list: the sum's bounds alone. The open cells
    must take different digits among those still present, summing to what is left."""
    assert cage.total is not None, "a pair rule's sets are always listed"
    left = cage.total - sum(d + 1 for d in range(lay.size) if placed >> d & 1)
    count = open_cells.bit_count()
    digits = [d + 1 for d in range(lay.size) if present >> d & 1]
    if count == 0:
        return None if left else 0
    if count > len(digits) or not sum(digits[:count]) <= left <= sum(digits[-count:]):
        return None
    # One digit in a cell, the others somewhere in the rest: bounds for the others that may
    # count the digit itself, so they are loose but never wrong.
    low_others = sum(digits[: count - 1])
    high_others = sum(digits[len(digits) - count + 1 :])
    kill = 0
    for digit in digits:
        if not left - high_others <= digit <= left - low_others:
            kill |= open_cells << lay.shifts[digit - 1]
    return kill
