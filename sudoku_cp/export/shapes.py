"""What every export format needs to know about a rule's shape, worked out once.

A format compiles each rule by its shape (:mod:`sudoku_cp.rules.base`), in the order the
certificates' encoder dispatches (:func:`sudoku_cp.certify.cnf._rule_clauses`): cage, sandwich,
quadruple, sum, sequence, pair, triple, digit, groups only. What is shared here: the relation a
pair rule's ``allows`` amounts to, a sequence rule's automaton as a numbered transition table,
and the sandwich as an automaton of its own (so that formats with a ``regular`` constraint
take it as one). A rule of any other shape raises :class:`Unexportable`, naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from ..certify.cnf import GROUPS_ONLY
from ..errors import SudokuError
from ..rules import (
    Automaton,
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

MAX_STATES = 100_000
"""The most automaton states a sequence rule may number (an X-sum on a 25x25 grid has a few
hundred; far more would make a ``regular`` table too large to write)."""


class Unexportable(SudokuError):
    """The puzzle cannot be written in the asked format (a rule of an unknown shape …)."""


SHAPES = (
    "cage",
    "sandwich",
    "quadruple",
    "sum",
    "sequence",
    "pair",
    "triple",
    "digit",
    "groups",
)


def shape_of(rule: Rule) -> str:
    """The shape a format compiles ``rule`` by (one of :data:`SHAPES`), or Unexportable."""
    # The order matters: a sandwich or cage is no SumRule, but a digit-root cage is a
    # SequenceRule; the same order as the certificates' encoder.
    for kind, shape in (
        (Cage, "cage"),
        (Sandwich, "sandwich"),
        (Quadruple, "quadruple"),
        (SumRule, "sum"),
        (SequenceRule, "sequence"),
        (PairRule, "pair"),
        (TripleRule, "triple"),
        (DigitRule, "digit"),
        (GROUPS_ONLY, "groups"),
    ):
        if isinstance(rule, kind):
            return shape
    raise Unexportable(
        f"cannot export the {rule.title} rule ({rule.key}): its shape is none the exports know"
    )


_RELATIONS: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def relation(rule: PairRule, n: int) -> str | None:
    """``<``, ``>``, ``=`` or ``!=`` when ``allows`` is exactly that order or (in)equality on
    digits 1..n (a thermometer, a clone), else None (a table of allowed pairs)."""
    digits = range(1, n + 1)
    for name, holds in _RELATIONS.items():
        if all(rule.allows(a, b) == holds(a, b) for a in digits for b in digits):
            return name
    return None


def allowed_pairs(rule: PairRule, n: int) -> list[tuple[int, int]]:
    digits = range(1, n + 1)
    return [(a, b) for a in digits for b in digits if rule.allows(a, b)]


def allowed_triples(rule: TripleRule, n: int) -> list[tuple[int, int, int]]:
    digits = range(1, n + 1)
    return [(a, b, c) for a in digits for b in digits for c in digits if rule.allows(a, b, c)]


@dataclass(frozen=True)
class Table:
    """An automaton with its states numbered 1..``states``: ``moves[(state, digit)]`` is the
    next state (missing: no word goes on from there), ``start`` and ``accepting``. Only states
    reachable from the start that can still reach an accepting one are kept."""

    states: int
    start: int
    accepting: tuple[int, ...]
    moves: dict[tuple[int, int], int]


def numbered(dfa: Automaton, n: int, length: int, where: str) -> Table:
    """``dfa`` over digits 1..n as a table, kept to the states met within ``length`` digits
    (the cells the rule reads): beyond that a state is never reached."""
    digits = range(1, n + 1)
    layers: list[set[Hashable]] = [{dfa.start}]
    seen: set[Hashable] = {dfa.start}
    edges: dict[tuple[Hashable, int], Hashable] = {}
    for _ in range(length):
        nxt: set[Hashable] = set()
        for state in layers[-1]:
            for d in digits:
                after = dfa.step(state, d)
                if after is not None:
                    edges[(state, d)] = after
                    nxt.add(after)
        seen |= nxt
        if len(seen) > MAX_STATES:
            raise Unexportable(f"{where}: its automaton has more than {MAX_STATES:,} states")
        layers.append(nxt)
    # keep the states that can still end accepting (backwards over the edges found)
    alive = {state for state in seen if dfa.accepts(state)}
    changed = True
    while changed:
        changed = False
        for (state, _), after in edges.items():
            if after in alive and state not in alive:
                alive.add(state)
                changed = True
    if dfa.start not in alive:  # no word is accepted: one state, accepting nothing
        return Table(1, 1, (), {})
    names = {dfa.start: 1}
    for state in sorted(alive - {dfa.start}, key=repr):
        names[state] = len(names) + 1
    moves = {
        (names[state], d): names[after]
        for (state, d), after in edges.items()
        if state in names and after in names
    }
    accepting = tuple(sorted(names[s] for s in alive if dfa.accepts(s)))
    return Table(len(names), 1, accepting, moves)


def sandwich_automaton(rule: Sandwich, n: int) -> Automaton:
    """The sandwich as an automaton along its line, read as its checker reads the line
    (:meth:`~sudoku_cp.rules.Sandwich.between`: the first 1 and the first N, the digits
    strictly between summing to the total): ``out`` before either, ``(want, sum)`` after one
    end while waiting for the other, ``done`` after both."""
    total = rule.total

    def step(state: Hashable, d: int) -> Hashable | None:
        if state == "done":
            return "done"
        if state == "out":
            if d == 1 and n == 1:  # the one digit is both ends, nothing between
                return "done" if total == 0 else None
            if d in (1, n):
                return (n if d == 1 else 1, 0)
            return "out"
        assert isinstance(state, tuple)
        want, got = state
        if d == want:
            return "done" if got == total else None
        return (want, got + d) if got + d <= total else None

    return Automaton("out", step, lambda state: state == "done")
