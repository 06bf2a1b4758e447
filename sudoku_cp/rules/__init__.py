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
:mod:`.sums` (killer cage, digit-root cage, arrow, little killer, sandwich), :mod:`.lines`
(thermometer, renban, whispers, palindrome, between line), :mod:`.lines_more` (slow
thermometer, entropic, modular, nabner, zipper, double arrow, region sum and lockout lines),
:mod:`.dots` (white and black kropki dots, XV, negative), :mod:`.cells` (odd, even, minimum,
maximum, clone, quadruple), :mod:`.indexers` (row, column and box indexers), :mod:`.candidates`
(given pencil marks), :mod:`.outside` (skyscraper, X-sum).

>>> [label for _, label in AntiKnight().groups(4)][:2]
['anti-knight r1c1 and r2c3', 'anti-knight r1c1 and r3c2']
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..errors import ModelError

if TYPE_CHECKING:
    from .base import (
        MAX_TOTAL,
        Automaton,
        DigitRule,
        Group,
        Labelled,
        PairRule,
        Rule,
        SequenceRule,
        SumRule,
        TripleRule,
        cell_name,
        cells_named,
    )
    from .candidates import Candidates
    from .cells import Clone, Even, Maximum, Minimum, Odd, Quadruple
    from .dots import XV, Difference, Negative, Ratio
    from .indexers import BoxIndexer, ColumnIndexer, Indexer, RowIndexer, indexer_rules
    from .lines import BetweenLine, Palindrome, Renban, Thermometer, Whispers, whispers_gap
    from .lines_more import (
        DoubleArrow,
        EntropicLine,
        Lockout,
        ModularLine,
        Nabner,
        RegionSumLine,
        SlowThermometer,
        ZipperLine,
    )
    from .neighbours import AntiKing, AntiKnight, NonConsecutive
    from .outside import Skyscraper, XSum
    from .sums import MAX_CAGE_SUM, Arrow, Cage, DigitRootCage, LittleKiller, Sandwich

# The rules are frozen data classes, slow to create: each module is imported when one of its
# names is first used (PEP 562), so that a classic puzzle's solve loads none of them.
_KINDS_BY_MODULE = {
    "base": (
        "MAX_TOTAL",
        "Automaton",
        "DigitRule",
        "Group",
        "Labelled",
        "PairRule",
        "Rule",
        "SequenceRule",
        "SumRule",
        "TripleRule",
        "cell_name",
        "cells_named",
    ),
    "candidates": ("Candidates",),
    "cells": ("Clone", "Even", "Maximum", "Minimum", "Odd", "Quadruple"),
    "dots": ("XV", "Difference", "Negative", "Ratio"),
    "indexers": ("BoxIndexer", "ColumnIndexer", "Indexer", "RowIndexer", "indexer_rules"),
    "lines": ("BetweenLine", "Palindrome", "Renban", "Thermometer", "Whispers", "whispers_gap"),
    "lines_more": (
        "DoubleArrow",
        "EntropicLine",
        "Lockout",
        "ModularLine",
        "Nabner",
        "RegionSumLine",
        "SlowThermometer",
        "ZipperLine",
    ),
    "neighbours": ("AntiKing", "AntiKnight", "NonConsecutive"),
    "outside": ("Skyscraper", "XSum"),
    "sums": ("MAX_CAGE_SUM", "Arrow", "Cage", "DigitRootCage", "LittleKiller", "Sandwich"),
}
_LAZY = {name: module for module, names in _KINDS_BY_MODULE.items() for name in names}

GLOBAL_KEYS = ("antiknight", "antiking", "nonconsecutive")
"""The keys of :data:`GLOBAL_RULES`, known without importing the classes (a test checks)."""

RULE_KEYS = frozenset(
    (
        *GLOBAL_KEYS,
        "killercage",
        "arrow",
        "littlekillersum",
        "sandwichsum",
        "thermometer",
        "renban",
        "whispers",
        "palindrome",
        "betweenline",
        "slowthermometer",
        "entropicline",
        "modularline",
        "nabner",
        "zipperline",
        "doublearrow",
        "regionsumline",
        "lockout",
        "difference",
        "ratio",
        "xv",
        "negative",
        "odd",
        "even",
        "minimum",
        "maximum",
        "clone",
        "quadruple",
        "rowindexer",
        "columnindexer",
        "boxindexer",
        "givenPencilMarks",
        "skyscraper",
        "xsum",
        "digitrootcage",
    )
)
"""The keys of :data:`RULE_KINDS` (what backends list in ``rules``), known without importing
the classes (a test checks that the two agree)."""


def _global_rules() -> dict[str, type[Rule]]:
    from .neighbours import AntiKing, AntiKnight, NonConsecutive

    return {rule.key: rule for rule in (AntiKnight, AntiKing, NonConsecutive)}


def _rule_kinds() -> dict[str, type[Rule]]:
    from .candidates import Candidates
    from .cells import Clone, Even, Maximum, Minimum, Odd, Quadruple
    from .dots import XV, Difference, Negative, Ratio
    from .indexers import BoxIndexer, ColumnIndexer, RowIndexer
    from .lines import BetweenLine, Palindrome, Renban, Thermometer, Whispers
    from .lines_more import (
        DoubleArrow,
        EntropicLine,
        Lockout,
        ModularLine,
        Nabner,
        RegionSumLine,
        SlowThermometer,
        ZipperLine,
    )
    from .neighbours import AntiKing, AntiKnight, NonConsecutive
    from .outside import Skyscraper, XSum
    from .sums import Arrow, Cage, DigitRootCage, LittleKiller, Sandwich

    return {
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
            SlowThermometer,
            EntropicLine,
            ModularLine,
            Nabner,
            ZipperLine,
            DoubleArrow,
            RegionSumLine,
            Lockout,
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
            RowIndexer,
            ColumnIndexer,
            BoxIndexer,
            Candidates,
            Skyscraper,
            XSum,
            DigitRootCage,
        )
    }


if TYPE_CHECKING:
    GLOBAL_RULES: dict[str, type[Rule]]
    """The rules a model file can name (``rules = ["antiknight", "nonconsecutive"]``)."""
    RULE_KINDS: dict[str, type[Rule]]
    """Every kind of rule, by key (what backends list in ``rules``)."""


def __getattr__(name: str) -> Any:
    if name == "GLOBAL_RULES":
        value: Any = _global_rules()
    elif name == "RULE_KINDS":
        value = _rule_kinds()
    elif name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # once loaded, a plain module attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"GLOBAL_RULES", "RULE_KINDS"})


def global_rule(key: str, where: str) -> Rule:
    """The global rule named ``key`` (as in a model file), or ModelError naming ``where``."""
    try:
        return _global_rules()[key]()
    except KeyError:
        raise ModelError(
            f"{where}: unknown rule {key!r} (known: {', '.join(sorted(GLOBAL_KEYS))})"
        ) from None


__all__ = [
    "GLOBAL_KEYS",
    "GLOBAL_RULES",
    "MAX_CAGE_SUM",
    "MAX_TOTAL",
    "RULE_KEYS",
    "RULE_KINDS",
    "XV",
    "AntiKing",
    "AntiKnight",
    "Arrow",
    "Automaton",
    "BetweenLine",
    "BoxIndexer",
    "Cage",
    "Candidates",
    "Clone",
    "ColumnIndexer",
    "Difference",
    "DigitRootCage",
    "DigitRule",
    "DoubleArrow",
    "EntropicLine",
    "Even",
    "Group",
    "Indexer",
    "Labelled",
    "LittleKiller",
    "Lockout",
    "Maximum",
    "Minimum",
    "ModularLine",
    "Nabner",
    "Negative",
    "NonConsecutive",
    "Odd",
    "PairRule",
    "Palindrome",
    "Quadruple",
    "Ratio",
    "RegionSumLine",
    "Renban",
    "RowIndexer",
    "Rule",
    "Sandwich",
    "SlowThermometer",
    "SequenceRule",
    "Skyscraper",
    "SumRule",
    "Thermometer",
    "TripleRule",
    "Whispers",
    "ZipperLine",
    "XSum",
    "cell_name",
    "cells_named",
    "global_rule",
    "indexer_rules",
    "whispers_gap",
]
