"""Links between candidates contributed by rules beyond groups, for the chains (:mod:`.chains`).

A chain needs two kinds of link between candidates (cell, digit): *strong* (at least one of
the two is true) and *weak* (not both). Groups give them (a digit's two places in a full group;
one digit in two peer cells; a bivalue cell). A rule gives them too, read from the fillings of
its cells that the candidates left allow (:func:`.variants.fillings`, the enumeration the
Rule Combinations step uses, so cells of one group differ there):

- for two cells ``a`` and ``b`` of one rule, the pairs of digits ``(x, y)`` that some filling
  puts in them. ``a=x`` and ``b=y`` with ``(x, y)`` in no filling are **weakly** linked: both
  true would break the rule (an X of XV: 3 and 6 beside it; a thermometer: a bulb 5 and a
  next cell 3). When every such pair has ``x`` in ``a`` or ``y`` in ``b``, the two are
  **strongly** linked: a solution's digits there are one of those pairs (a 2-cell 4-cage whose
  cells kept 1 and 3: r1c1=1 or r1c2=1);
- a digit every filling of the rule's cells holds, with exactly two places there (the premise
  of Rule Contains): the two are **strongly** linked, as a digit's two places in a group are.

Both hold in every solution that agrees with the candidates, so every chain built from them
is as sound as one of group links alone. The reason text of a chain names the rule of each
such link. The work is bounded: rules of up to :data:`MAX_CELLS` cells, at most
:data:`MAX_PROBES` enumerations per board state (a rule left out only misses links).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board, digits_of
from .variants import Unit, board_units, cached_fillings, fillings

MAX_CELLS = 6
"""The most cells of a rule whose pairs of cells are read for links."""
MAX_PROBES = 1_500
"""Enumerations (a digit fixed in a rule's cell) per board state at most."""
PROBE_NODES = 2_000
"""The enumeration cap of one probe (a probe past it proves nothing: no link)."""


@dataclass
class RuleLinks:
    """The links rules give on one board state (nodes are ``cell * size + digit - 1``)."""

    strong: dict[int, set[int]] = field(default_factory=dict)
    weak: dict[int, set[int]] = field(default_factory=dict)
    why: dict[tuple[int, int], str] = field(default_factory=dict)
    """Per link (the smaller node first), the rule that gives it, as steps name rules."""

    def add(self, kind: dict[int, set[int]], u: int, v: int, name: str) -> None:
        kind.setdefault(u, set()).add(v)
        kind.setdefault(v, set()).add(u)
        self.why.setdefault((min(u, v), max(u, v)), name)

    def rule_of(self, u: int, v: int) -> str | None:
        return self.why.get((min(u, v), max(u, v)))


def rule_links(board: Board) -> RuleLinks:
    """The links every rule of the board's puzzle gives on its candidates now (remembered per
    board state)."""
    state = (tuple(board.values), tuple(board.candidates))
    found = board.memo.get("rule links")
    if isinstance(found, tuple) and found[0] == state:
        return found[1]
    links = RuleLinks()
    budget = [MAX_PROBES]
    for unit in board_units(board):
        if budget[0] <= 0:
            break
        if unit.kind == "arcs":
            for a, b, ahead, _ in unit.arcs:
                allowed = {
                    (x, y)
                    for x in _open(board, a)
                    for y in digits_of(ahead[x - 1] & board.candidates[b])
                }
                _pair_links(board, links, unit, a, b, allowed)
        elif unit.kind == "fill" and 2 <= len(unit.cells) <= MAX_CELLS:
            _fill_links(board, links, unit, budget)
    board.memo["rule links"] = (state, links)
    return links


def _open(board: Board, cell: int) -> list[int]:
    return [] if board.values[cell] else digits_of(board.candidates[cell])


def _pair_links(
    board: Board, links: RuleLinks, unit: Unit, a: int, b: int, allowed: set[tuple[int, int]]
) -> None:
    """The weak and strong links between the open candidates of ``a`` and ``b``, from the
    pairs of digits some filling puts in them (``allowed``)."""
    if not allowed:
        return  # no filling at all: Rule Combinations reports that, no link is needed
    size = board.size
    xs, ys = _open(board, a), _open(board, b)
    for x in xs:
        for y in ys:
            u, v = a * size + x - 1, b * size + y - 1
            if (x, y) not in allowed:
                links.add(links.weak, u, v, unit.name)
            elif all(p == x or q == y for p, q in allowed):
                links.add(links.strong, u, v, unit.name)


def _fill_links(board: Board, links: RuleLinks, unit: Unit, budget: list[int]) -> None:
    masks = [board.candidates[c] for c in unit.cells]
    support = cached_fillings(board, unit, masks)
    if support is None or not all(support):
        return
    n = len(unit.cells)
    # with cell i fixed to x, the digits some filling puts in each later cell j: the pairs
    # (x, y) of cells i and j that a filling holds (one probe per candidate, not per pair)
    allowed: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for i in range(n - 1):
        if board.values[unit.cells[i]]:
            continue
        for x in digits_of(support[i]):
            if budget[0] <= 0:
                return
            budget[0] -= 1
            fixed = list(masks)
            fixed[i] = 1 << (x - 1)
            found = fillings(unit, fixed, PROBE_NODES)
            if found is None:
                return  # too big to probe: a missing pair could make a false weak link
            for j in range(i + 1, n):
                pairs = allowed.setdefault((i, j), set())
                pairs.update((x, y) for y in digits_of(found[j]))
    for (i, j), pairs in allowed.items():
        a, b = unit.cells[i], unit.cells[j]
        if not board.values[b]:
            _pair_links(board, links, unit, a, b, pairs)
    _contains_links(board, links, unit, masks, support)


def _contains_links(
    board: Board, links: RuleLinks, unit: Unit, masks: list[int], support: list[int]
) -> None:
    """A digit every filling holds, in exactly two open cells of the rule: a strong link."""
    size = board.size
    union = 0
    for kept in support:
        union |= kept
    for digit in digits_of(union):
        bit = 1 << (digit - 1)
        places = [c for c, kept in zip(unit.cells, support, strict=True) if kept & bit]
        if len(places) != 2 or any(board.values[c] for c in places):
            continue
        without = fillings(unit, [m & ~bit for m in masks])
        if without is not None and not any(without):
            a, b = places
            links.add(links.strong, a * size + digit - 1, b * size + digit - 1, unit.name)
