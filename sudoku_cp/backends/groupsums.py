"""What the groups of a puzzle say about a sum of its cells: the reasoning the ``sums="grouped"``
encodings of the ``sat`` and ``cpsat`` backends add (:mod:`.sat.rules`, :mod:`.cpsat`).

Two facts, both true of every grid that satisfies the groups:

- a *full* group (N cells on an NxN grid) holds each digit 1..N once, so its cells sum to
  N(N+1)/2. A weighted sum that holds most of such a group with one weight ``w`` may subtract
  ``w·(sum of the group − N(N+1)/2)``, which is zero: the group's cells then carry the weight
  ``w`` less, and the goal ``w·N(N+1)/2`` less (:func:`folded_terms`). An arrow along most of a
  row thus sums the few cells the row leaves out (the solver's "innies and outies"). It is
  exact for any grid that satisfies the groups, so a backend may solve with the folded sum in
  place of the rule's own;
- cells of one group hold different digits, so the cells of a sum that lie in one group (a
  *clique*, :func:`cliques`) sum like a set of distinct digits: three cells of a box along a
  little killer's diagonal sum to 6 at least, not 3.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Cage, Rule, SumRule

Terms = tuple[tuple[int, int], ...]


def sum_shapes(rules: Sequence[Rule]) -> tuple[bool, bool]:
    """Whether ``rules`` hold killer cages with a total, and weighted sums (arrows, little
    killers, region-sum lines …): what the backends' ``sums="auto"`` choose by.

    >>> from sudoku_cp.rules import LittleKiller
    >>> sum_shapes([Cage((0, 1), 3)]), sum_shapes([Cage((0, 1)), LittleKiller((4, 8), 9)])
    ((True, False), (False, True))
    """
    caged = any(isinstance(rule, Cage) and rule.total is not None for rule in rules)
    return caged, any(isinstance(rule, SumRule) for rule in rules)


def folded_terms(
    terms: Sequence[tuple[int, int]], goal: int, groups: Sequence[Sequence[int]], size: int
) -> tuple[Terms, int]:
    """``sum(weight·cell) == goal`` rewritten with every full group's sum folded in while that
    leaves fewer cells in the sum (so the rewriting ends): the new terms (cells in first-seen
    order, no zero weights) and goal.

    >>> row = tuple(range(9))  # a full row of a 9x9 grid
    >>> folded_terms([(c, 1) for c in range(1, 9)], 40, [row], 9)  # 8 cells of it sum to 40
    (((0, -1),), -5)
    """
    weights: dict[int, int] = {}
    for cell, weight in terms:
        weights[cell] = weights.get(cell, 0) + weight
    total = size * (size + 1) // 2
    full = [tuple(group) for group in groups if len(group) == size]
    while True:
        best: tuple[int, int, tuple[int, ...]] | None = None  # (cells saved, weight, group)
        for group in full:
            here = [weights.get(cell, 0) for cell in group]
            zeros = here.count(0)
            for weight in dict.fromkeys(w for w in here if w):
                saved = here.count(weight) - zeros
                if saved > 0 and (best is None or saved > best[0]):
                    best = (saved, weight, group)
        if best is None:
            break
        _, weight, group = best
        for cell in group:
            weights[cell] = weights.get(cell, 0) - weight
        goal -= weight * total
    return tuple((cell, w) for cell, w in weights.items() if w), goal


def cliques(cells: Sequence[int], groups: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """``cells`` cut into cliques: each one the cells left that share the group holding most
    of them (two at least; first such group on ties), then the rest one by one; each clique in
    the order ``cells`` lists them.

    >>> cliques([0, 1, 9, 10, 20], [(0, 1, 2), (9, 10, 11), (0, 9, 20)])
    [(0, 9, 20), (1,), (10,)]
    """
    left = dict.fromkeys(cells)
    found: list[tuple[int, ...]] = []
    sets = [set(group) for group in groups]
    while left:
        best: set[int] = set()
        for group in sets:
            shared = group.intersection(left)
            if len(shared) > len(best):
                best = shared
        if len(best) < 2:
            break
        found.append(tuple(cell for cell in left if cell in best))
        for cell in best:
            del left[cell]
    return found + [(cell,) for cell in left]
