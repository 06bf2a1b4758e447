"""A model's groups and rules at one size in the generic kernel's arrays: :class:`Tables`, built
once per model by the glue (:func:`~.glue.tables`) and packed into the one ``int32`` array the
kernel takes (:func:`pack`). The rules' meaning is read once, by the pure search's
:func:`~sudoku_cp.backends.backtrack.rules.compile_rules`; here its tables are only laid out
for compiled code.

numpy is imported on the first table built, never by ``import sudoku_cp``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from typing import Any

from ....model import Model
from . import derived as derived_module
from .sequence_tables import on_a_line, seen_clues, sequences

RULES_MAX_SIZE = 31
"""The largest size whose digit and pair rules the generic kernel takes: their masks are
``int32`` words of the packed tables (the fast strategy sends it sizes below 17 anyway)."""


@functools.lru_cache(maxsize=64)
def classic_marks(model: Model, size: int) -> tuple[int, ...] | None:
    """For a model that is classic 9x9 (exactly the rows, columns and boxes) with, at most,
    rules that only limit which digits cells may take (:class:`~sudoku_cp.rules.DigitRule`:
    given pencil marks, so every candidate grid, odd, even): the cells each digit may take, as
    the classic kernel's root state holds them — 27 words, word ``3 (d - 1) + b`` the cells of
    band ``b`` (rows 3b to 3b + 2) that may hold ``d``, bit ``cell % 27``. None for any
    other model (a rule of another kind, other groups, another size)."""
    from ....model import load_model
    from ....rules import DigitRule
    from ..layout import layout

    if size != 9 or not all(isinstance(rule, DigitRule) for rule in model.rules):
        return None
    plain = dataclasses.replace(model, rules=()) if model.rules else model  # its groups
    lay, classic = layout(plain, 9), layout(load_model("classic"), 9)
    if lay.has_rules or lay.peers != classic.peers:
        return None
    if set(map(frozenset, lay.full_groups)) != set(map(frozenset, classic.full_groups)):
        return None
    marks = [(1 << 27) - 1] * 27
    for rule in model.rules:
        assert isinstance(rule, DigitRule)
        for digit in range(1, 10):
            if not rule.allows(digit):
                for cell in rule.cells:
                    marks[3 * (digit - 1) + cell // 27] &= ~(1 << (cell % 27))
    return tuple(marks)


class Tables:
    """A model's groups at one size in the kernel's arrays (built once, cached); with
    ``derived``, the sums its houses imply too (:func:`.derived.derived_sums`)."""

    def __init__(self, model: Model, size: int, derived: bool = True) -> None:
        import numpy as np

        from ..layout import layout

        lay = layout(model, size)
        cells = size * size
        self.cells = cells
        # Built with numpy: a puzzle with its own regions (jigsaw) builds them for itself.
        lengths = np.fromiter((len(p) for p in lay.peers), dtype=np.int32, count=cells)
        self.peer_start = np.concatenate(([0], np.cumsum(lengths))).astype(np.int32)
        self.peer_list = np.fromiter(itertools.chain.from_iterable(lay.peers), dtype=np.int32)
        full = len(lay.full_groups)
        self.groups = np.array(lay.full_groups, dtype=np.int32).reshape(full, size)
        member = np.zeros((full, cells), dtype=bool)  # member[g, c]: cell c is in group g
        member[np.repeat(np.arange(full), size), self.groups.ravel()] = True
        # The pairs the pure search confines on, in its order (none where it leaves them out).
        meet = member.astype(np.int32) @ member.T.astype(np.int32)
        first, second = np.nonzero(np.triu(meet >= 2, k=1))
        if not lay.confinements:
            first, second = first[:0], second[:0]
        pairs = len(first)
        self.conf_groups = np.stack([first, second], axis=1).astype(np.int32).reshape(pairs, 2)
        only_a = member[first] & ~member[second]
        only_b = member[second] & ~member[first]
        self.conf_a_len = only_a.sum(axis=1).astype(np.int32)
        self.conf_b_len = only_b.sum(axis=1).astype(np.int32)
        self.conf_a = np.zeros((pairs, size), dtype=np.int32)
        self.conf_b = np.zeros((pairs, size), dtype=np.int32)
        for table, only, counts in (
            (self.conf_a, only_a, self.conf_a_len),
            (self.conf_b, only_b, self.conf_b_len),
        ):
            rows, cols = np.nonzero(only)  # row-major: each pair's cells in reading order
            starts = np.concatenate(([0], np.cumsum(counts)[:-1])) if pairs else counts
            table[rows, np.arange(len(rows)) - np.repeat(starts, counts)] = cols
        self.init, self.arc_start, self.arc_partner, self.arc_rel, self.relations = rule_arrays(
            lay, size
        )
        sums = sum_arrays(lay, [set(p) for p in lay.peers], derived)
        seqs = sequences(model, size)
        assert seqs is not None, "takes_rules keeps models past the cap pure"
        self.seen = seen_clues(model, size)  # (one per sequence, packed last)
        # The full groups of each cell, for marking which groups changed, then its sums and
        # cages (numbered on from the groups: the kernel's ``dirty`` holds them all).
        # Each sum's cells are its cliques' terms: sum_cell[first:stop].
        spans = [
            (sums.clique_start[sums.sum_start[k]], sums.clique_start[sums.sum_start[k + 1]])
            for k in range(len(sums.sum_goal))
        ]
        watchers: list[list[int]] = [[] for _ in range(cells)]
        for k, (first, stop) in enumerate(spans):
            for cell in sums.sum_cell[first:stop].tolist():
                watchers[cell].append(full + k)
        for g in range(len(sums.cage_start) - 1):
            for cell in sums.cage_cell[sums.cage_start[g] : sums.cage_start[g + 1]].tolist():
                watchers[cell].append(full + len(sums.sum_goal) + g)
        seq_lines = [
            seqs.seq_cell[seqs.seq_start[r] : seqs.seq_start[r + 1]].tolist()
            for r in range(len(seqs.seq_start) - 1)
        ]
        sandwiches = sandwich_arrays(lay, size)
        sw_lines = [
            sandwiches.sw_cell[sandwiches.sw_start[r] : sandwiches.sw_start[r + 1]].tolist()
            for r in range(len(sandwiches.sw_start) - 1)
        ]
        # (each sequence's flag after the sums' and cages', each sandwich's after those, then
        # each triple's, then each quadruple's)
        triples, tri_rules = triple_arrays(lay, size)
        tri_lines = [row.tolist() for row in triples.tri_cell]
        quads = quadruple_arrays(lay)
        qd_cells = [
            quads.qd_cell[quads.qd_start[q] : quads.qd_start[q + 1]].tolist()
            for q in range(len(quads.qd_start) - 1)
        ]
        for r, line in enumerate(seq_lines + sw_lines + tri_lines + qd_cells):
            for cell in dict.fromkeys(line):
                watchers[cell].append(full + len(sums.sum_goal) + len(sums.cage_start) - 1 + r)
        cell_groups = [np.nonzero(member[:, c])[0].tolist() + watchers[c] for c in range(cells)]
        # The weighted search's starting weights on models with sums or cages, as ISS starts
        # its conflict scores at each cell's priority: its groups' sizes, and for each sum or
        # cage max(2N - its cells, N), for a pair rule's digit sets (renban, nabner: a cage
        # with no total) its cells, as ISS's default handler priority gives an all-different
        # pairwise rule (sigh/Interactive-Sudoku-Solver, js/solver/optimizer.js
        # ``_computeCellPriorities``, js/solver/handlers.js ``priority``,
        # js/solver/sum_handler.js ``priority``), and for each sequence, sandwich, triple rule
        # or quadruple its cells (ISS's handlers' default, which its Skyscraper, Lunchbox,
        # Between, Lockout and RequiredValues — its quadruples' handler — keep:
        # js/solver/handlers.js ``SudokuConstraintHandler.priority``; js/solver/
        # sudoku_builder.js, cases ``'Between'``, ``'Lockout'``, ``'Quad'``). None otherwise (pair
        # rules start at zero). Over the 190 bundled variants the kernel took before sequences,
        # cells against max(2N - cells, N) for the pair rules' sets: 22.1 s against 26.3 s on
        # the 17 whose search changed (Beauty Mark 0.16 s against 5.8 s; Hard renban 2 past
        # 10 s against 8.1 s).
        totals = [cage.total for cage in lay.rules.cages] if lay.rules else []
        self.priority = np.zeros(cells if any(watchers) else 0, dtype=np.int32)
        if any(watchers):
            # Each sum's cells (the derived ones too, as ISS's derived sums are handlers like
            # any: Deflation 84 nodes against 121 without them, Third-Degree Murder 3,078
            # against 3,679, CTC Tribute 435 against 601, Hailstone 17.3 thousand against
            # 16.4), then each cage's.
            for first, stop in spans:
                self.priority[sums.sum_cell[first:stop]] += max(2 * size - (stop - first), size)
            for k in range(len(sums.cage_start) - 1):
                first, stop = sums.cage_start[k], sums.cage_start[k + 1]
                plain = totals[k] is None
                weight = stop - first if plain else max(2 * size - (stop - first), size)
                self.priority[sums.cage_cell[first:stop]] += weight
            for line in seq_lines + sw_lines + tri_rules + qd_cells:
                self.priority[line] += len(line)
            self.priority += member.sum(axis=0).astype(np.int32) * size
        from . import generic  # (loaded already: tables are made for the kernel)

        self.halve_every = generic.HALVE_EVERY_SUMS if any(watchers) else generic.HALVE_EVERY
        self.cg_start = np.concatenate(([0], np.cumsum([len(g) for g in cell_groups]))).astype(
            np.int32
        )
        self.cg_list = np.fromiter(
            itertools.chain.from_iterable(cell_groups), dtype=np.int32, count=self.cg_start[-1]
        )
        self.packed = pack(
            size,
            [
                self.peer_start,
                self.peer_list,
                self.groups,
                self.cg_start,
                self.cg_list,
                self.conf_a,
                self.conf_a_len,
                self.conf_b,
                self.conf_b_len,
                self.conf_groups,
                self.init,
                self.arc_start,
                self.arc_partner,
                self.arc_rel,
                self.relations,
                *_fields(sums),
                self.priority,
                np.array([self.halve_every], dtype=np.int32),
                *_fields(seqs),
                *_fields(sandwiches),
                *_fields(triples),
                *_fields(quads),
                self.seen,
            ],
        )


def _fields(arrays: Any) -> list[Any]:
    """A data class's arrays in its fields' order, as they are (``dataclasses.astuple``
    deep-copies each: a tenth of a small puzzle's tables)."""
    return [getattr(arrays, f.name) for f in dataclasses.fields(arrays)]


def rule_arrays(lay: Any, size: int) -> tuple[Any, ...]:
    """The digit and pair rules of a layout (:func:`~.glue.takes_rules`) as the generic kernel
    reads them, from what :func:`~sudoku_cp.backends.backtrack.rules.compile_rules` made of them for
    the pure search (their meaning is read there, once): each cell's starting mask (``init``:
    bit ``d - 1`` for digit ``d``; empty when the model has no rules), and each cell's arcs,
    in the pure search's order (``arc_start`` per cell into ``arc_partner`` and ``arc_rel``):
    the partner, and the row of ``relations`` that says, for each digit ``d`` of the cell (at
    ``d - 1``), the partner's digits the rule allows beside it. Arcs of one relation (every
    thermometer, every white dot) share a row, as they share a table in the pure search."""
    import numpy as np

    cells = size * size
    rules = lay.rules
    if rules is None:
        empty = np.zeros(0, dtype=np.int32)
        return empty, empty, empty, empty, np.zeros((0, size), dtype=np.int32)
    assert size <= RULES_MAX_SIZE, "a mask is one int32 word of the packed tables"
    stride = rules.digits.stride

    def mask(spread: int) -> int:  # a spread (bit (d - 1) * stride) as a mask (bit d - 1)
        return sum(1 << d for d in range(size) if spread >> (d * stride) & 1)

    # Each digit's layer of the allowed candidates, set on its cells at once.
    init = np.zeros(cells, dtype=np.int32)
    every = (1 << cells) - 1
    for d in range(size):
        layer = (rules.allowed >> (d * stride)) & every
        if layer == every:
            init |= 1 << d
        elif layer:
            raw = np.frombuffer(layer.to_bytes((cells + 7) // 8, "little"), dtype=np.uint8)
            init[np.unpackbits(raw, bitorder="little")[:cells].astype(bool)] |= 1 << d
    rows: dict[int, int] = {}  # a relation's table (shared by its arcs) -> its row
    relations: list[list[int]] = []
    partners: list[int] = []
    kinds: list[int] = []
    lengths = []
    for arcs in rules.arcs:
        lengths.append(len(arcs))
        for partner, support, _memo in arcs:
            row = rows.get(id(support))
            if row is None:
                row = rows[id(support)] = len(relations)
                relations.append([mask(support[1 << (d * stride)]) for d in range(size)])
            partners.append(partner)
            kinds.append(row)
    return (
        init,
        np.concatenate(([0], np.cumsum(lengths))).astype(np.int32),
        np.array(partners, dtype=np.int32),
        np.array(kinds, dtype=np.int32),
        np.array(relations, dtype=np.int32).reshape(len(relations), size),
    )


@dataclasses.dataclass(frozen=True)
class SumArrays:
    """The sums and cages with a total of a layout (:func:`~.glue.takes_rules`) as the generic
    kernel reads them, from what :func:`~sudoku_cp.backends.backtrack.rules.compile_rules` made of
    them for the pure search (their meaning is read there, once). Each sum's terms come in
    cliques, cells of one weight that are all peers (so take different digits; split by
    :func:`clique_cover`): ``sum_start`` per sum into the cliques, ``clique_start`` per clique
    into the terms (``sum_cell``, ``sum_weight``), and the sum's goal. Each cage's cells
    (``cage_start`` per cage into ``cage_cell``) and its listed digit sets (``combo_start`` per
    cage into ``combos``: bit ``d - 1`` for digit ``d``). In the packed tables' order but the
    last (``clique_start``, added last)."""

    sum_start: Any
    sum_cell: Any
    sum_weight: Any
    sum_goal: Any
    cage_start: Any
    cage_cell: Any
    combo_start: Any
    combos: Any
    clique_start: Any


def sum_arrays(lay: Any, peers: list[set[int]], derived: bool = True) -> SumArrays:
    import numpy as np

    from ..shapes import SumPropagator

    rules = lay.rules
    sums = [p for p in rules.propagators if isinstance(p, SumPropagator)] if rules else []
    cages = list(rules.cages) if rules else []
    assert all(cage.combos is not None for cage in cages), "takes_rules keeps these pure"

    def starts(lengths: list[int]) -> Any:
        return np.concatenate(([0], np.cumsum(lengths, dtype=np.int64))).astype(np.int32)

    def flat(rows: Any) -> Any:
        return np.array(list(itertools.chain.from_iterable(rows)), dtype=np.int32)

    terms = [(p.cells, p.weights, p.goal) for p in sums]
    if derived and derived_module.DERIVED_SUMS:  # (read at the call: tests turn it off)
        terms += derived_module.derived_sums(
            lay, [(p.cells, p.weights, p.goal) for p in sums], cages
        )
    per_sum: list[int] = []
    cliques: list[list[tuple[int, int]]] = []
    for cells, weights, _ in terms:
        own = [
            [(cell, weight) for cell in clique]
            for weight in dict.fromkeys(weights)
            for clique in clique_cover(
                [c for c, w in zip(cells, weights, strict=True) if w == weight], peers
            )
        ]
        per_sum.append(len(own))
        cliques += own
    return SumArrays(
        sum_start=starts(per_sum),
        sum_cell=flat([c for c, _ in clique] for clique in cliques),
        sum_weight=flat([w for _, w in clique] for clique in cliques),
        sum_goal=np.array([goal for _, _, goal in terms], dtype=np.int32),
        cage_start=starts([len(c.cells) for c in cages]),
        cage_cell=flat(c.cells for c in cages),
        combo_start=starts([len(c.combos or ()) for c in cages]),
        combos=flat(c.combos or () for c in cages),
        clique_start=starts([len(clique) for clique in cliques]),
    )


def clique_cover(cells: list[int], peers: list[set[int]]) -> list[list[int]]:
    """``cells`` split into cliques (cells that are all peers, so take different digits), the
    split whose sizes have the largest sum of squares among a few greedy ones: the larger the
    cliques, the tighter a sum's bounds (a clique of k cells sums to at least 1 + … + k). The
    greedy splits: each cell into the first clique it fits, in the terms' order and in reading
    order; and cliques grown one at a time from the first cell left, or from the cell with the
    most peers among those left (ISS scores its exclusion groups so, by the sum of squares:
    sigh/Interactive-Sudoku-Solver, js/solver/handlers.js, ``HandlerUtil.findExclusionGroups``).
    A cell met twice stays in cliques of its own. Ties keep the first split."""
    if len(set(cells)) == len(cells) and all(
        b in peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :]
    ):
        return [list(cells)]  # (one clique already: a cage, a derived sum inside a house)

    def first_fit(order: list[int]) -> list[list[int]]:
        found: list[list[int]] = []
        for cell in order:
            home = next((c for c in found if all(cell in peers[x] for x in c)), None)
            if home is None:
                found.append([cell])
            else:
                home.append(cell)
        return found

    def grown(order: list[int], most_peers: bool) -> list[list[int]]:
        left = list(order)
        found = []
        while left:
            clique: list[int] = []
            able = list(left)
            while able:
                pick = able[0]
                if most_peers:
                    here = set(able)
                    pick = max(able, key=lambda c: len(peers[c] & here))  # the first of ties
                clique.append(pick)
                able = [x for x in able if x != pick and x in peers[pick]]
            found.append(clique)
            for cell in clique:
                left.remove(cell)
        return found

    splits = [first_fit(cells), first_fit(sorted(cells)), grown(cells, False), grown(cells, True)]
    return max(splits, key=lambda split: sum(len(c) ** 2 for c in split))


def takes(propagator: object) -> bool:
    """Whether the generic kernel takes the pure search's ``propagator``: a sum's
    (:class:`SumArrays`), a sequence rule's or a sandwich's on a line that is no group (an
    automaton: :func:`sequences`), a sandwich's on a group whose digit sets are all listed
    (:class:`SandwichArrays`), a triple rule's (:class:`TripleArrays`), a quadruple's
    (:class:`QuadrupleArrays`)."""
    from ..shapes import (
        LooseSandwich,
        QuadruplePropagator,
        SandwichPropagator,
        SumPropagator,
        TriplePropagator,
    )

    if isinstance(propagator, SandwichPropagator):
        return all(found is not None for found in propagator.combos.values())
    if isinstance(propagator, QuadruplePropagator):
        return len(propagator.cells) <= 64  # (its places are one word; a quadruple has 4)
    kinds = SumPropagator | LooseSandwich | TriplePropagator
    return isinstance(propagator, kinds) or on_a_line(propagator)


@dataclasses.dataclass(frozen=True)
class SandwichArrays:
    """The sandwiches of a layout whose lines are groups, as the pure search compiles them
    (:class:`~sudoku_cp.backends.backtrack.shapes.SandwichPropagator`: its ``gaps`` and, per
    gap, the sets of different digits of 2..N-1 the cells between may hold, from
    :func:`~sudoku_cp.backends.backtrack.shapes.cage_combos` as it lists them), laid out for
    the kernel: each sandwich's cells in order (``sw_start`` per sandwich into ``sw_cell``);
    its gaps, the distances the 1 and the N may be apart (``sw_gap_start`` per sandwich into
    ``sw_gaps``); for each gap its digit sets (``sw_combo_start`` per gap into ``sw_combos``:
    bit ``d - 1`` for digit ``d``). A sandwich on a line that is no group is an automaton
    (:func:`sequences`)."""

    sw_start: Any
    sw_cell: Any
    sw_gap_start: Any
    sw_gaps: Any
    sw_combo_start: Any
    sw_combos: Any


def sandwich_arrays(lay: Any, size: int) -> SandwichArrays:
    import numpy as np

    from ..shapes import SandwichPropagator, cage_combos

    rules = lay.rules
    props = [p for p in rules.propagators if isinstance(p, SandwichPropagator)] if rules else []
    edge = 1 | 1 << (size - 1)
    lines: list[tuple[int, ...]] = []
    gaps: list[list[int]] = []
    combos: list[list[int]] = []
    for p in props:
        lines.append(p.cells)
        gaps.append(list(p.gaps))
        for gap in p.gaps:
            # The sets the pure propagator lists for this gap (its ``combos[gap - 1]``), as
            # masks: those of gap - 1 different digits summing to the goal, without 1 or N.
            found = cage_combos(gap - 1, p.goal, size)
            assert found is not None, "takes_rules keeps these pure"
            combos.append([m for m in found if not m & edge])

    def starts(lengths: list[int]) -> Any:
        return np.concatenate(([0], np.cumsum(lengths, dtype=np.int64))).astype(np.int32)

    def flat(rows: list[Any]) -> Any:
        return np.array(list(itertools.chain.from_iterable(rows)), dtype=np.int32)

    return SandwichArrays(
        sw_start=starts([len(x) for x in lines]),
        sw_cell=flat(lines),
        sw_gap_start=starts([len(g) for g in gaps]),
        sw_gaps=flat(gaps),
        sw_combo_start=starts([len(c) for c in combos]),
        sw_combos=flat(combos),
    )


@dataclasses.dataclass(frozen=True)
class TripleArrays:
    """The triple rules of a layout (between lines, lockout lines) as the pure search compiles
    them (:class:`~sudoku_cp.backends.backtrack.shapes.TriplePropagator`: its ``triples`` and
    its ``allowed`` digit triples, the rule's meaning read there), laid out for the kernel:
    each triple's cells (``tri_cell[t]``) and its relation (``tri_rel[t]``, a row of
    ``tri_allow``, shared by rules with the same allowed triples); ``tri_allow[r, (a - 1) N + b
    - 1]`` the third cell's digits (bit ``c - 1`` for digit ``c``) allowed beside ``a`` and
    ``b``. Each triple has a flag of its own in the kernel's ``dirty``."""

    tri_cell: Any
    tri_rel: Any
    tri_allow: Any


def triple_arrays(lay: Any, size: int) -> tuple[TripleArrays, list[list[int]]]:
    """The :class:`TripleArrays` of a layout, and each rule's cells (for its priority)."""
    import numpy as np

    from ..shapes import TriplePropagator

    rules = lay.rules
    props = [p for p in rules.propagators if isinstance(p, TriplePropagator)] if rules else []
    digit_of = {rules.digits.bit(d): d for d in range(1, size + 1)} if rules else {}
    rows: dict[tuple[tuple[int, int, int], ...], int] = {}
    allow: list[list[int]] = []
    cells: list[tuple[int, int, int]] = []
    kinds: list[int] = []
    owned: list[list[int]] = []
    for p in props:
        row = rows.get(p.allowed)
        if row is None:
            row = rows[p.allowed] = len(allow)
            table = [0] * (size * size)
            for ba, bb, bc in p.allowed:
                a, b, c = digit_of[ba], digit_of[bb], digit_of[bc]
                table[(a - 1) * size + b - 1] |= 1 << (c - 1)
            allow.append(table)
        for triple in p.triples:
            cells.append(triple)
            kinds.append(row)
        owned.append(list(dict.fromkeys(c for triple in p.triples for c in triple)))
    arrays = TripleArrays(
        tri_cell=np.array(cells, dtype=np.int32).reshape(len(cells), 3),
        tri_rel=np.array(kinds, dtype=np.int32),
        tri_allow=np.array(allow, dtype=np.int32).reshape(len(allow), size * size),
    )
    return arrays, owned


@dataclasses.dataclass(frozen=True)
class QuadrupleArrays:
    """The quadruples of a layout as the pure search compiles them
    (:class:`~sudoku_cp.backends.backtrack.shapes.QuadruplePropagator`: its ``cells`` and
    ``need``, each listed digit with the times it must appear, a digit listed twice needing
    two places), laid out for the kernel: each quadruple's cells (``qd_start`` per quadruple
    into ``qd_cell``) and its listed digits (``qd_need_start`` per quadruple into
    ``qd_digit`` and ``qd_times``). Each quadruple has a flag of its own in the kernel's
    ``dirty``."""

    qd_start: Any
    qd_cell: Any
    qd_need_start: Any
    qd_digit: Any
    qd_times: Any


def quadruple_arrays(lay: Any) -> QuadrupleArrays:
    import numpy as np

    from ..shapes import QuadruplePropagator

    rules = lay.rules
    props = [p for p in rules.propagators if isinstance(p, QuadruplePropagator)] if rules else []

    def starts(lengths: list[int]) -> Any:
        return np.concatenate(([0], np.cumsum(lengths, dtype=np.int64))).astype(np.int32)

    return QuadrupleArrays(
        qd_start=starts([len(p.cells) for p in props]),
        qd_cell=np.array([c for p in props for c in p.cells], dtype=np.int32),
        qd_need_start=starts([len(p.need) for p in props]),
        qd_digit=np.array([d for p in props for d, _ in p.need], dtype=np.int32),
        qd_times=np.array([t for p in props for _, t in p.need], dtype=np.int32),
    )


def pack(size: int, arrays: list[Any]) -> Any:
    """The tables as the kernel takes them: one ``int32`` array, the size, then an (offset,
    rows, columns) triple per table (columns 0 for one dimension), then the tables."""
    import numpy as np

    header = [size]
    at = 1 + 3 * len(arrays)
    for array in arrays:
        rows = array.shape[0]
        header += [at, rows, array.shape[1] if array.ndim == 2 else 0]
        at += array.size if array.ndim == 2 else rows
    parts = [np.array(header, dtype=np.int32)] + [a.ravel().astype(np.int32) for a in arrays]
    return np.concatenate(parts)
