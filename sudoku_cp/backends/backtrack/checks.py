"""The rules beyond groups as the ``backtrack`` backend's teaching strategies (naive, ordered,
mrv) check them: on each assignment, whether the digit keeps every rule given the digits
already placed. Each rule is read through its data and relation only (``allows``, ``terms``
and ``goal``, ``cells`` and ``digits``) — never through the validator's checker, with which the
backends share no code.

A check may only fail when no completion can keep the rule, and must fail once the rule's
cells are all filled and it does not hold, so that every solution found keeps every rule:

- pair rules: no partner already holds a digit the relation forbids beside this one;
- digit rules: the digit is one the cell may hold;
- sums: the goal lies between the least and the most the terms can still make;
- triples: with at most one cell blank, some digit there completes an allowed triple;
- sandwiches on a group: once the 1 and the N are placed, the digits between can still make
  the sum (on a line that is not a group, once the line is full);
- quadruples: the listed digits still missing fit in the cells still blank;
- sequence rules (skyscrapers, X-sums): their automaton, read along the cells with any digit
  in a blank one, can still end accepting;
- killer cages: the blank cells can still make the sum with different unused digits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ...puzzle import Puzzle

if TYPE_CHECKING:
    from ...rules import (
        Cage,
        PairRule,
        Quadruple,
        Rule,
        Sandwich,
        SequenceRule,
        SumRule,
        TripleRule,
    )
    from .layout import Layout

Allows = Callable[[Sequence[int], int, int], bool]
"""``allows(grid, cell, digit)``: whether ``digit`` in ``cell`` keeps the rules beyond groups,
given the digits already in ``grid`` (0: blank; ``grid[cell]`` itself is not looked at)."""

Check = Callable[[Sequence[int], int, int], bool]


def rule_check(lay: Layout) -> Allows | None:
    """The check of the model's rules beyond groups on a partly filled grid, or None when the
    model has none (groups are checked by the strategies themselves)."""
    tables = lay.rules
    if tables is None:
        return None
    from ...rules import DigitRule, PairRule  # (the rule classes load only with rules)

    n = lay.size
    peers = [set(p) for p in lay.peers]
    partners: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(lay.cells)]
    digit_ok = [(1 << n) - 1] * lay.cells
    checks: list[list[Check]] = [[] for _ in range(lay.cells)]
    for rule in tables.rules:
        if isinstance(rule, PairRule):
            _pairs(rule, n, partners)
        elif isinstance(rule, DigitRule):
            ok = sum(1 << (d - 1) for d in range(1, n + 1) if rule.allows(d))
            for cell in rule.cells:
                digit_ok[cell] &= ok
        else:
            check = _check(rule, n, peers)
            if check is not None:
                cells, test = check
                for cell in cells:
                    checks[cell].append(test)
    every = [(tuple(partners[c]), digit_ok[c], tuple(checks[c])) for c in range(lay.cells)]

    def allows(grid: Sequence[int], cell: int, digit: int) -> bool:
        pairs, ok, more = every[cell]
        if not ok >> (digit - 1) & 1:
            return False
        for partner, forbidden in pairs:
            other = grid[partner]
            if other and forbidden[digit - 1] >> (other - 1) & 1:
                return False
        return all(test(grid, cell, digit) for test in more)

    return allows


def givens_allowed(puzzle: Puzzle, allows: Allows | None) -> bool:
    """Whether the givens alone keep the rules beyond groups (a rule whose cells are all given
    is never filled, so the search would not look at it)."""
    grid = puzzle.cells
    return allows is None or all(
        allows(grid, cell, digit) for cell, digit in enumerate(grid) if digit
    )


def _pairs(rule: PairRule, n: int, partners: list[list[tuple[int, tuple[int, ...]]]]) -> None:
    """Per cell, ``(partner, forbidden)``: ``forbidden[d - 1]`` holds the digits the partner may
    not hold while the cell holds ``d``, as a digit mask (bit ``e - 1`` for digit ``e``)."""
    digits = range(1, n + 1)
    as_first = tuple(sum(1 << (e - 1) for e in digits if not rule.allows(d, e)) for d in digits)
    as_second = tuple(sum(1 << (e - 1) for e in digits if not rule.allows(e, d)) for d in digits)
    for a, b in rule.pairs(n):
        partners[a].append((b, as_first))
        partners[b].append((a, as_second))


def _value(grid: Sequence[int], cell: int, digit: int, at: int) -> int:
    """The digit in ``at``, with ``digit`` in ``cell``."""
    return digit if at == cell else grid[at]


def _check(rule: Rule, n: int, peers: list[set[int]]) -> tuple[Sequence[int], Check] | None:
    """The cells a rule of another shape than pairs and digits watches, and its check."""
    from ...rules import Cage, Quadruple, Rule, Sandwich, SequenceRule, SumRule, TripleRule

    if isinstance(rule, SumRule):
        return _sum_check(rule, n)
    if isinstance(rule, TripleRule):
        return _triple_check(rule, n)
    if isinstance(rule, Sandwich):
        line = tuple(rule.cells)
        group = all(b in peers[a] for i, a in enumerate(line) for b in line[i + 1 :])
        return line, _sandwich_check(rule, n, group)
    if isinstance(rule, Quadruple):
        return rule.cells, _quadruple_check(rule)
    if isinstance(rule, SequenceRule):
        return rule.cells, _sequence_check(rule, n)
    if isinstance(rule, Cage):
        return (rule.cells, _cage_check(rule, n)) if rule.total is not None else None
    if type(rule).groups is Rule.groups:
        raise TypeError(f"backtrack cannot check the {rule.title} rule ({rule.key})")
    return None  # a rule that is only its groups: the strategies' own peers check it


def _sum_check(rule: SumRule, n: int) -> tuple[Sequence[int], Check]:
    terms, goal = rule.terms(n), rule.goal

    def test(grid: Sequence[int], cell: int, digit: int) -> bool:
        least = most = 0
        for at, weight in terms:
            value = _value(grid, cell, digit, at)
            if value:
                least += weight * value
                most += weight * value
            elif weight > 0:
                least, most = least + weight, most + weight * n
            else:
                least, most = least + weight * n, most + weight
        return least <= goal <= most

    return tuple(at for at, _ in terms), test


def _triple_check(rule: TripleRule, n: int) -> tuple[Sequence[int], Check]:
    triples = rule.triples(n)
    mine: dict[int, list[tuple[int, int, int]]] = {}
    for triple in triples:
        for at in set(triple):
            mine.setdefault(at, []).append(triple)

    def test(grid: Sequence[int], cell: int, digit: int) -> bool:
        for triple in mine[cell]:
            values = [_value(grid, cell, digit, at) for at in triple]
            blank = [i for i, v in enumerate(values) if not v]
            if not blank:
                if not rule.allows(*values):
                    return False
            elif len(blank) == 1:
                i = blank[0]
                if not any(
                    rule.allows(*(values[:i] + [d] + values[i + 1 :])) for d in range(1, n + 1)
                ):
                    return False
        return True

    return tuple(mine), test


def _sandwich_check(rule: Sandwich, n: int, group: bool) -> Check:
    line, goal = tuple(rule.cells), rule.total

    def test(grid: Sequence[int], cell: int, digit: int) -> bool:
        values = [_value(grid, cell, digit, at) for at in line]
        if not group and 0 in values:
            return True  # a later 1 or N before these may still move the sandwich
        if 1 not in values or n not in values:
            return 0 in values
        a, b = sorted((values.index(1), values.index(n)))
        between = values[a + 1 : b]
        blank = between.count(0)
        held = sum(between)
        # The blanks between hold digits other than 1 and N (the line is a group).
        return held + 2 * blank <= goal <= held + (n - 1) * blank

    return test


def _sequence_check(rule: SequenceRule, n: int) -> Check:
    line = tuple(rule.cells)
    dfa = rule.automaton(n)
    every = range(1, n + 1)

    def test(grid: Sequence[int], cell: int, digit: int) -> bool:
        states = {dfa.start}
        for at in line:
            value = _value(grid, cell, digit, at)
            ahead = set()
            for state in states:
                for d in (value,) if value else every:
                    nxt = dfa.step(state, d)
                    if nxt is not None:
                        ahead.add(nxt)
            if not ahead:
                return False
            states = ahead
        return any(dfa.accepts(state) for state in states)

    return test


def _quadruple_check(rule: Quadruple) -> Check:
    need, cells = rule.needed(), tuple(rule.cells)

    def test(grid: Sequence[int], cell: int, digit: int) -> bool:
        values = [_value(grid, cell, digit, at) for at in cells]
        held = Counter(v for v in values if v)
        missing = sum((need - held).values())
        return missing <= values.count(0)

    return test


def _cage_check(cage: Cage, n: int) -> Check:
    cells, total = tuple(cage.cells), cage.total
    assert total is not None

    def test(grid: Sequence[int], cell: int, digit: int) -> bool:
        held = [grid[c] for c in cells if c != cell and grid[c]]
        left = total - digit - sum(held)
        blank = len(cells) - 1 - len(held)
        unused = [d for d in range(1, n + 1) if d != digit and d not in held]
        return blank <= len(unused) and (
            sum(unused[:blank]) <= left <= sum(unused[len(unused) - blank :])
        )

    return test
