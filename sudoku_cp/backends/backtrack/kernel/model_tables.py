"""A model's groups and rules at one size in the generic kernel's arrays: :class:`Tables`, built
once per model by the glue (:func:`~.glue.tables`) and packed into the one ``int32`` array the
kernel takes (:func:`pack`). The rules' meaning is read once, by the pure search's
:func:`~sudoku_cp.backends.backtrack.rules.compile_rules`; here its tables are only laid out
for compiled code.

numpy is imported on the first table built, never by ``import sudoku_cp``.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

from ....model import Model

RULES_MAX_SIZE = 31
"""The largest size whose digit and pair rules the generic kernel takes: their masks are
``int32`` words of the packed tables (the fast strategy sends it sizes below 17 anyway)."""


class Tables:
    """A model's groups at one size in the kernel's arrays (built once, cached)."""

    def __init__(self, model: Model, size: int) -> None:
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
        sums = sum_arrays(lay, [set(p) for p in lay.peers])
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
        cell_groups = [np.nonzero(member[:, c])[0].tolist() + watchers[c] for c in range(cells)]
        # The weighted search's starting weights on models with sums or cages, as ISS starts
        # its conflict scores at each cell's priority: its groups' sizes, and for each sum or
        # cage max(2N - its cells, N), for a pair rule's digit sets (renban, nabner: a cage
        # with no total) its cells, as ISS's default handler priority gives an all-different
        # pairwise rule (sigh/Interactive-Sudoku-Solver, js/solver/optimizer.js
        # ``_computeCellPriorities``, js/solver/handlers.js ``priority``,
        # js/solver/sum_handler.js ``priority``). None otherwise (pair rules start at zero).
        # Over the 190 bundled variants the kernel takes, cells against max(2N - cells, N) for
        # those sets: 22.1 s against 26.3 s on the 17 whose search changed (Beauty Mark 0.16 s
        # against 5.8 s; Hard renban 2 past 10 s against 8.1 s).
        totals = [cage.total for cage in lay.rules.cages] if lay.rules else []
        self.priority = np.zeros(cells if any(watchers) else 0, dtype=np.int32)
        if any(watchers):
            # Each sum's cells, then each cage's.
            for first, stop in spans:
                self.priority[sums.sum_cell[first:stop]] += max(2 * size - (stop - first), size)
            for k in range(len(sums.cage_start) - 1):
                first, stop = sums.cage_start[k], sums.cage_start[k + 1]
                plain = totals[k] is None
                weight = stop - first if plain else max(2 * size - (stop - first), size)
                self.priority[sums.cage_cell[first:stop]] += weight
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
                *dataclasses.astuple(sums),
                self.priority,
                np.array([self.halve_every], dtype=np.int32),
            ],
        )


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

    init = np.array([mask(rules.allowed >> c) for c in range(cells)], dtype=np.int32)
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


def sum_arrays(lay: Any, peers: list[set[int]]) -> SumArrays:
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

    per_sum: list[int] = []
    cliques: list[list[tuple[int, int]]] = []
    for p in sums:
        own = [
            [(cell, weight) for cell in clique]
            for weight in dict.fromkeys(p.weights)
            for clique in clique_cover(
                [c for c, w in zip(p.cells, p.weights, strict=True) if w == weight], peers
            )
        ]
        per_sum.append(len(own))
        cliques += own
    return SumArrays(
        sum_start=starts(per_sum),
        sum_cell=flat([c for c, _ in clique] for clique in cliques),
        sum_weight=flat([w for _, w in clique] for clique in cliques),
        sum_goal=np.array([p.goal for p in sums], dtype=np.int32),
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
