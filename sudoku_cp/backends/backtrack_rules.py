"""The rules beyond groups (killer cages, pair rules such as non-consecutive) as the
``backtrack`` backend compiles them: their tables, built once per layout, the fast strategy's
propagation step over its bit-packed candidates, and the plain check the teaching strategies
(naive, ordered, mrv) make on each assignment. Groups, anti-knight and anti-king included, are
the search's own peers and need nothing here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..puzzle import Puzzle
from ..rules import PairRule

if TYPE_CHECKING:
    from .backtrack import Layout


def cell_mask(cells: Any) -> int:
    return sum(1 << c for c in cells)


def set_bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class PairTable:
    """A pair rule, ready for the search: who is whose partner and which digits they forbid.

    For a pair ``(a, b)`` of the rule, ``a`` is the first cell and ``b`` the second, as in
    ``allows(digit of a, digit of b)``. Digits here count from 0 (``d`` is digit ``d + 1``).
    """

    as_first: tuple[int, ...]
    """Per cell: the cells it is first to, as a cell mask."""
    as_second: tuple[int, ...]
    """Per cell: the cells it is second to, as a cell mask."""
    spread_first: tuple[int, ...]
    """Per digit ``d`` of a first cell: the digits its partners may not hold, one low bit per
    layer (a cell mask times it is those cells in those layers)."""
    spread_second: tuple[int, ...]
    """The same for a digit of a second cell."""
    partners: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    """Per cell, for the other strategies: ``(partner, forbidden)`` for each partner, where
    ``forbidden[d]`` holds the digits the partner may not hold while the cell holds ``d``, as
    a digit mask (bit ``e`` for digit ``e + 1``)."""


@dataclass(frozen=True)
class CageTable:
    """A cage with a sum, ready for the search."""

    cells: tuple[int, ...]
    mask: int
    """The cage's cells, as a cell mask."""
    layers: int
    """The cage's cells in every layer."""
    total: int
    combos: tuple[int, ...] | None
    """Every set of ``len(cells)`` different digits summing to ``total``, as digit masks (bit
    ``d`` for digit ``d + 1``); None when there are too many to list (big grids), in which case
    only the bounds of the sum are used."""


def pair_table(rule: PairRule, size: int, stride: int) -> PairTable:
    """The tables of a pair rule: per digit, the digits it forbids its partner (both ways)."""
    digits = range(size)
    forbidden_first = tuple(
        cell_mask(e for e in digits if not rule.allows(d + 1, e + 1)) for d in digits
    )
    forbidden_second = tuple(
        cell_mask(e for e in digits if not rule.allows(e + 1, d + 1)) for d in digits
    )
    cells = size * size
    as_first, as_second = [0] * cells, [0] * cells
    partners: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(cells)]
    for a, b in rule.pairs(size):
        as_first[a] |= 1 << b
        as_second[b] |= 1 << a
        partners[a].append((b, forbidden_first))
        partners[b].append((a, forbidden_second))

    def spread(digit_mask: int) -> int:
        return sum(1 << (e * stride) for e in digits if digit_mask >> e & 1)

    return PairTable(
        as_first=tuple(as_first),
        as_second=tuple(as_second),
        spread_first=tuple(spread(m) for m in forbidden_first),
        spread_second=tuple(spread(m) for m in forbidden_second),
        partners=tuple(tuple(p) for p in partners),
    )


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


# --- the rules beyond groups, for the naive, ordered and mrv strategies ----------------------
Allows = Callable[[Sequence[int], int, int], bool]
"""``allows(grid, cell, digit)``: whether ``digit`` in ``cell`` keeps the rules beyond groups,
given the digits already in ``grid`` (0: blank; ``grid[cell]`` itself is not looked at)."""


def rule_check(lay: Layout) -> Allows | None:
    """The check of the model's pair rules and cage sums on a partly filled grid, or None when
    the model has none (groups are checked by the strategies themselves).

    Pair rules: no partner may already hold a digit the rule forbids beside ``digit``. Cages:
    the digits already in the cage plus ``digit`` must leave a sum the blank cells can still
    make with different digits not yet used there (between the smallest and the largest).
    """
    if not lay.has_rules:
        return None
    n = lay.size
    partners = [
        tuple(pair for table in lay.pair_rules for pair in table.partners[cell])
        for cell in range(lay.cells)
    ]
    cages: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(lay.cells)]
    for cage in lay.cages:
        for cell in cage.cells:
            cages[cell].append((tuple(c for c in cage.cells if c != cell), cage.total))

    def allows(grid: Sequence[int], cell: int, digit: int) -> bool:
        for partner, forbidden in partners[cell]:
            other = grid[partner]
            if other and forbidden[digit - 1] >> (other - 1) & 1:
                return False
        for others, total in cages[cell]:
            held = [grid[c] for c in others if grid[c]]
            left = total - digit - sum(held)
            blank = len(others) - len(held)
            unused = [d for d in range(1, n + 1) if d != digit and d not in held]
            if blank > len(unused) or not (
                sum(unused[:blank]) <= left <= sum(unused[len(unused) - blank :])
            ):
                return False
        return True

    return allows


def givens_allowed(puzzle: Puzzle, allows: Allows | None) -> bool:
    """Whether the givens alone keep the rules beyond groups (a cage of givens is never
    filled, so the search would not look at it)."""
    grid = puzzle.cells
    return allows is None or all(
        allows(grid, cell, digit) for cell, digit in enumerate(grid) if digit
    )


def rules_step(lay: Layout, layers: list[int], solved: int, ruled: int, changed: int) -> int | None:
    """The candidates the model's rules beyond groups rule out, or None for a dead end.

    - pair rules: a digit settled in a cell since ``ruled`` removes from each partner the
      digits the rule forbids beside it (see :class:`PairTable`);
    - cages with a sum, where a candidate changed (``changed``): see :func:`_cage`.
    """
    kill = 0
    fresh_cells = solved & ~ruled
    if fresh_cells:
        for table in lay.pair_rules:
            as_first, as_second = table.as_first, table.as_second
            for digit, layer in enumerate(layers):
                fresh = layer & fresh_cells
                if not fresh:
                    continue
                first = second = 0
                while fresh:
                    bit = fresh & -fresh
                    fresh ^= bit
                    cell = bit.bit_length() - 1
                    first |= as_first[cell]
                    second |= as_second[cell]
                # A cell mask times a spread: those cells in the forbidden digits' layers.
                kill |= first * table.spread_first[digit] | second * table.spread_second[digit]
    for cage in lay.cages:
        if changed & cage.layers:
            more = _cage(lay, cage, layers, solved)
            if more is None:
                return None
            kill |= more
    return kill


def _cage(lay: Layout, cage: CageTable, layers: list[int], solved: int) -> int | None:
    """The candidates a cage's sum rules out, or None when no set of digits can meet it.

    A set of digits from ``cage.combos`` is still possible when it holds every digit settled
    in the cage, and its other digits each have a place among the open cells, which they
    cover (every open cell has one of them). The open cells keep only the digits of possible
    sets; a digit in every possible set with one place in the cage goes there (one open cell
    left: its digit is forced).
    """
    cells = cage.mask
    open_cells = cells & ~solved
    placed = present = 0
    inside = []  # per digit: its places among the open cells
    for digit, layer in enumerate(layers):
        here = layer & cells
        places = here & open_cells
        inside.append(places)
        if places:
            present |= 1 << digit
        elif here:
            placed |= 1 << digit
    if cage.combos is None:
        return _cage_bounds(lay, cage, inside, placed, present, open_cells)
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
    return kill


def _cage_bounds(
    lay: Layout, cage: CageTable, inside: list[int], placed: int, present: int, open_cells: int
) -> int | None:
    """For a cage with too many digit sets to list: the sum's bounds alone. The open cells
    must take different digits among those still present, summing to what is left."""
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
