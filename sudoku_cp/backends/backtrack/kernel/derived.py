"""The sums a model's houses imply, kept by the generic kernel beside the model's own cages and
sums (ISS's optimizer derives them so: sigh/Interactive-Sudoku-Solver, js/solver/optimizer.js):
a house sums to N(N+1)/2 and its first k rows or columns to k times that, so a house's
leftover cells, the cells of cages sticking out of a house or of the first rows or columns,
and what the pieces crossing a house hold beyond it have sums of their own. They are implied
by the rules, so they remove no solution. :func:`.model_tables.sum_arrays` lays them out;
:mod:`.glue` probes a model without them first (``glue.PROBE_NODES``).
"""

from __future__ import annotations

from typing import Any

from ..bits import cell_mask, set_bits

DERIVED_SUMS = True
"""Whether the kernel also keeps the sums a model's houses imply (:func:`derived_sums`); False
leaves them out (tests compare the two)."""
DERIVED_MAX_CELLS = 6
"""A region's derived sum with cells on both sides of one house (pieces sticking out of it),
or whose cells are all in pieces already, is kept up to this many cells (ISS keeps such sums
so: sigh/Interactive-Sudoku-Solver, js/solver/optimizer.js, ``_MAX_SUM_SIZE`` in
``_makeHiddenCageHandlers`` and ``_makeInnieOutieSumHandlers``). On "Third-Degree Murder"
(``published`` 80: entropic lines, 13 cages) sums of up to N cells, 21 of them, took the search
from 3.4 thousand nodes to 5.7 thousand and each node twice the time."""

Terms = tuple[tuple[int, ...], tuple[int, ...], int]


def layout_derived_sums(lay: Any) -> list[Terms]:
    """:func:`derived_sums` of a layout's own sums and cages (none when it has no rules)."""
    from ..shapes import SumPropagator

    rules = lay.rules
    if rules is None:
        return []
    sums = [(p.cells, p.weights, p.goal) for p in rules.propagators if isinstance(p, SumPropagator)]
    return derived_sums(lay, sums, list(rules.cages))


def has_pieces(lay: Any) -> bool:
    """Whether a layout's rules hold a piece :func:`derived_sums` can derive from: a cage with a
    total, or a sum of weight 1."""
    from ..shapes import SumPropagator

    rules = lay.rules
    return rules is not None and (
        any(cage.total is not None for cage in rules.cages)
        or any(
            isinstance(p, SumPropagator) and all(w == 1 for w in p.weights)
            for p in rules.propagators
        )
    )


def derived_sums(lay: Any, sums: list[Terms], cages: list[Any]) -> list[Terms]:
    """The sums the model's houses imply with its sums and killer cages (the "law of leftovers",
    innies and outies; ISS derives them so: sigh/Interactive-Sudoku-Solver,
    js/solver/optimizer.js, ``_makeHiddenCageHandlers``, ``_makeInnieOutieSumHandlers`` and
    ``_addSumIntersectionHandler``). A house (a full group) of N cells holds 1..N, so its digits
    sum to N(N + 1)/2, and a region made of k disjoint houses — one house, or the first k rows
    or columns from either side — to k times that. Pieces are the sums of weight 1 over
    distinct cells and the cages with a total: whatever pairwise disjoint pieces are taken,
    ``sum(region - pieces) - sum(pieces - region) = region's total - pieces' totals``, a sum of
    weights 1 and -1 implied by the rules (so it removes no solution). Two kinds are derived:

    - for each region, the pieces with more than half of their cells in it (chosen disjoint
      greedily, those overlapping the fewest other pieces first), kept when small enough to
      tell something: at most N cells, not more than two on both sides, at most
      :data:`DERIVED_MAX_CELLS` when one house has pieces sticking out or when every cell of
      the sum is in a piece already. A leftover (no piece sticks out) of any size up to N is
      kept, as ISS keeps it: on "Solver needs SET" (a Latin square of 18 cages, no givens) the
      first two and three rows' leftovers, 9 cells each, took the search from 3.0 million nodes
      (18 s) to 0.93 million (7 s); over the 230 bundled rule puzzles the kernel takes,
      a cap of two cells (kept before) against none: geometric mean of nodes 1.01 on the 97 of
      more than 50 nodes, 5 puzzles 1.5x better, 4 worse, none by more than 2,000 nodes;
    - for each house, the pieces crossing it, chosen so, when they cover it (its cells no piece
      holds may be made up by other houses lying in that gap): the cells they hold beyond it
      (less any house lying wholly there) sum to their totals less the house's, kept when that
      total is narrow beside the sums those cells could reach (ISS's test: a range over four
      times the slack).

    A derived sum the model has already is not repeated."""
    size = lay.size
    pieces: list[tuple[int, int]] = [
        (cell_mask(cells), goal)
        for cells, weights, goal in sums
        if all(w == 1 for w in weights) and len(set(cells)) == len(cells)
    ]
    pieces += [(cell_mask(c.cells), c.total) for c in cages if c.total is not None]
    if not pieces or size < 2:
        return []
    overlaps = [sum(1 for q, _ in pieces if q & p) for p, _ in pieces]
    order = [pieces[i] for i in sorted(range(len(pieces)), key=overlaps.__getitem__)]
    halves = [p.bit_count() // 2 for p, _ in order]
    in_pieces = 0
    for p, _ in pieces:
        in_pieces |= p
    house_total = size * (size + 1) // 2
    houses = list(dict.fromkeys(cell_mask(g) for g in lay.full_groups))
    regions: list[tuple[int, int, bool]] = [(h, house_total, True) for h in houses]
    line = (1 << size) - 1
    rows = [line << (r * size) for r in range(size)]
    column = sum(1 << (r * size) for r in range(size))
    cols = [column << c for c in range(size)]
    for family in (rows, cols):
        if all(x in houses for x in family):
            for lines in (family, family[::-1]):
                union = 0
                for k, x in enumerate(lines[:-1], 1):
                    union |= x
                    if k > 1:
                        regions.append((union, k * house_total, False))
    known = {(frozenset(zip(c, w, strict=True)), goal) for c, w, goal in sums}
    found: list[Terms] = []

    def keep(cells: list[int], weights: tuple[int, ...], goal: int) -> None:
        key = (frozenset(zip(cells, weights, strict=True)), goal)
        if key not in known:
            known.add(key)
            found.append((tuple(cells), weights, goal))

    for region, total, single in regions:
        used = 0
        goal = total
        for (p, piece_total), half in zip(order, halves, strict=True):
            if (p & region).bit_count() > half and not p & used:
                used |= p
                goal -= piece_total
        if not used:
            continue
        ins, outs = (region & ~used).bit_count(), (used & ~region).bit_count()
        if not 0 < ins + outs <= size or (ins > 2 and outs > 2):
            continue
        if ins + outs > DERIVED_MAX_CELLS and (
            (single and outs) or not (region ^ used) & ~in_pieces
        ):
            continue
        inner, outer = set_bits(region & ~used), set_bits(used & ~region)
        keep(inner + outer, (1,) * len(inner) + (-1,) * len(outer), goal)
    for house in houses:
        used = 0
        goal = -house_total
        for p, piece_total in order:
            if p & house and not p & used:
                used |= p
                goal += piece_total
        if not used:
            continue
        for other in houses:
            gap = house & ~used
            if not gap:
                break
            met = other & gap
            if other & used or met.bit_count() < 2 or other & house != met:
                continue
            used |= other
            goal += house_total
        if house & ~used:
            continue
        outside = used & ~house
        for other in houses:
            if other & outside == other:
                outside &= ~other
                goal -= house_total
        if not outside:
            continue
        cells = set_bits(outside)
        low = high = 0
        for clique in _greedy_cliques(cells, lay.peer_masks):
            k = clique.bit_count()
            low += k * (k + 1) // 2
            high += k * (2 * size - k + 1) // 2
        if low <= goal <= high and high - low <= 4 * min(goal - low, high - goal):
            continue  # (too loose to tell anything)
        keep(cells, (1,) * len(cells), goal)
    return found


def _greedy_cliques(cells: list[int], peer_masks: Any) -> list[int]:
    """``cells`` split into cliques of peers, each cell into the first that it fits (as masks)."""
    cliques: list[int] = []
    for cell in cells:
        for i, clique in enumerate(cliques):
            if clique & ~peer_masks[cell] == 0:
                cliques[i] |= 1 << cell
                break
        else:
            cliques.append(1 << cell)
    return cliques
