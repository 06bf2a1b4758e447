"""Rules beyond the model's groups: the vocabulary of variant Sudoku, each kind a small class.

A model (:mod:`sudoku_cp.model`) is its all-different groups plus a tuple of rules. Each kind
of rule is one frozen data class with

- ``key``: its name in model files (``rules = ["antiknight"]``) and in f-puzzles JSON;
- ``groups(size)``: the all-different groups it adds, with labels (a killer cage's cells, the
  cells a knight's move apart) — every backend already compiles groups, so this part of a rule
  needs no backend code;
- ``problems(grid, size)``: its plain checker for everything else (a cage's sum, a
  thermometer's order) — part of the validator, sharing nothing with any backend;
- ``moved(where, size)`` and ``reversed(size)``: the rule after the cells move or the digits
  are reversed (d → N+1-d), for metamorphic testing; and ``relabelling`` saying whether any
  renaming of the digits keeps it.

Backends declare the keys they compile (``Backend.rules``) and answer ``unsupported``, naming
the rule, for any other: a rule is never silently ignored. A rule is either *global* (the same
for every puzzle of a model, built from the grid's size: anti-knight) or carries its cells (a
killer cage). Backends compile by *shape* (:mod:`.base`: pair, triple, digit and sum rules)
rather than by kind, so most new kinds need no backend code.

The kinds, by module: :mod:`.neighbours` (anti-knight, anti-king, non-consecutive),
:mod:`.sums` (killer cage, arrow, little killer, sandwich), :mod:`.lines` (thermometer,
renban, whispers, palindrome, between line), :mod:`.dots` (white and black kropki dots, XV,
negative), :mod:`.cells` (odd, even, minimum, maximum, clone, quadruple).

>>> [label for _, label in AntiKnight().groups(4)][:2]
['anti-knight r1c1 and r2c3', 'anti-knight r1c1 and r3c2']
"""

from __future__ import annotations

from ..errors import ModelError
from .base import (
    MAX_TOTAL,
    DigitRule,
    Group,
    Labelled,
    PairRule,
    Rule,
    SumRule,
    TripleRule,
    cell_name,
    cells_named,
)
from .cells import Clone, Even, Maximum, Minimum, Odd, Quadruple
from .dots import XV, Difference, Negative, Ratio
from .lines import BetweenLine, Palindrome, Renban, Thermometer, Whispers, whispers_gap
from .neighbours import AntiKing, AntiKnight, NonConsecutive
from .sums import MAX_CAGE_SUM, Arrow, Cage, LittleKiller, Sandwich

GLOBAL_RULES: dict[str, type[Rule]] = {
    rule.key: rule for rule in (AntiKnight, AntiKing, NonConsecutive)
}
"""The rules a model file can name (``rules = ["antiknight", "nonconsecutive"]``)."""

RULE_KINDS: dict[str, type[Rule]] = {
    rule.key: rule
    for rule in (
        AntiKnight,
        AntiKing,
        NonConsecutive,
        Cage,
        Arrow,
        LittleKiller,
        Sandwich,
        Thermometer,
        Renban,
        Whispers,
        Palindrome,
        BetweenLine,
        Difference,
        Ratio,
        XV,
        Negative,
        Odd,
        Even,
        Minimum,
        Maximum,
        Clone,
        Quadruple,
    )
}
"""Every kind of rule, by key (what backends list in ``rules``)."""


def global_rule(key: str, where: str) -> Rule:
    """The global rule named ``key`` (as in a model file), or ModelError naming ``where``."""
    try:
        return GLOBAL_RULES[key]()
    except KeyError:
        raise ModelError(
            f"{where}: unknown rule {key!r} (known: {', '.join(sorted(GLOBAL_RULES))})"
        ) from None


__all__ = [
    "GLOBAL_RULES",
    "MAX_CAGE_SUM",
    "MAX_TOTAL",
    "RULE_KINDS",
    "XV",
    "AntiKing",
    "AntiKnight",
    "Arrow",
    "BetweenLine",
    "Cage",
    "Clone",
    "Difference",
    "DigitRule",
    "Even",
    "Group",
    "Labelled",
    "LittleKiller",
    "Maximum",
    "Minimum",
    "Negative",
    "NonConsecutive",
    "Odd",
    "PairRule",
    "Palindrome",
    "Quadruple",
    "Ratio",
    "Renban",
    "Rule",
    "Sandwich",
    "SumRule",
    "Thermometer",
    "TripleRule",
    "Whispers",
    "cell_name",
    "cells_named",
    "global_rule",
    "whispers_gap",
]
