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
    # What the lazy names below are, for mypy (a test keeps this equal to KINDS and
    # _OTHER_NAMES; they are exported through __all__, which ruff cannot read).
    from .base import (  # noqa: F401
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
    from .candidates import Candidates  # noqa: F401
    from .cells import Clone, Even, Maximum, Minimum, Odd, Quadruple  # noqa: F401
    from .dots import XV, Difference, Negative, Ratio  # noqa: F401
    from .indexers import BoxIndexer, ColumnIndexer, Indexer, RowIndexer, indexer_rules  # noqa: F401
    from .lines import BetweenLine, Palindrome, Renban, Thermometer, Whispers, whispers_gap  # noqa: F401
    from .lines_more import (  # noqa: F401
        DoubleArrow,
        EntropicLine,
        Lockout,
        ModularLine,
        Nabner,
        RegionSumLine,
        SlowThermometer,
        ZipperLine,
    )
    from .neighbours import AntiKing, AntiKnight, NonConsecutive  # noqa: F401
    from .outside import Skyscraper, XSum  # noqa: F401
    from .sums import MAX_CAGE_SUM, Arrow, Cage, DigitRootCage, LittleKiller, Sandwich  # noqa: F401

KINDS: tuple[tuple[str, str, str], ...] = (
    # (key, module, class): every kind of rule, in the order RULE_KINDS lists them. The one
    # table: the keys, the lazy imports and the kinds below are read from it, so a new kind is
    # a row here (and a line in the TYPE_CHECKING imports above, for mypy: a test keeps them
    # equal). The first three are the global rules a model file names.
    ("antiknight", "neighbours", "AntiKnight"),
    ("antiking", "neighbours", "AntiKing"),
    ("nonconsecutive", "neighbours", "NonConsecutive"),
    ("killercage", "sums", "Cage"),
    ("arrow", "sums", "Arrow"),
    ("littlekillersum", "sums", "LittleKiller"),
    ("sandwichsum", "sums", "Sandwich"),
    ("thermometer", "lines", "Thermometer"),
    ("renban", "lines", "Renban"),
    ("whispers", "lines", "Whispers"),
    ("palindrome", "lines", "Palindrome"),
    ("betweenline", "lines", "BetweenLine"),
    ("slowthermometer", "lines_more", "SlowThermometer"),
    ("entropicline", "lines_more", "EntropicLine"),
    ("modularline", "lines_more", "ModularLine"),
    ("nabner", "lines_more", "Nabner"),
    ("zipperline", "lines_more", "ZipperLine"),
    ("doublearrow", "lines_more", "DoubleArrow"),
    ("regionsumline", "lines_more", "RegionSumLine"),
    ("lockout", "lines_more", "Lockout"),
    ("difference", "dots", "Difference"),
    ("ratio", "dots", "Ratio"),
    ("xv", "dots", "XV"),
    ("negative", "dots", "Negative"),
    ("odd", "cells", "Odd"),
    ("even", "cells", "Even"),
    ("minimum", "cells", "Minimum"),
    ("maximum", "cells", "Maximum"),
    ("clone", "cells", "Clone"),
    ("quadruple", "cells", "Quadruple"),
    ("rowindexer", "indexers", "RowIndexer"),
    ("columnindexer", "indexers", "ColumnIndexer"),
    ("boxindexer", "indexers", "BoxIndexer"),
    ("givenPencilMarks", "candidates", "Candidates"),
    ("skyscraper", "outside", "Skyscraper"),
    ("xsum", "outside", "XSum"),
    ("digitrootcage", "sums", "DigitRootCage"),
)

_OTHER_NAMES = {
    # The names beside the kinds, by module: shapes and helpers.
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
    "indexers": ("Indexer", "indexer_rules"),
    "lines": ("whispers_gap",),
    "sums": ("MAX_CAGE_SUM",),
}

# The rules are frozen data classes, slow to create: each module is imported when one of its
# names is first used (PEP 562), so that a classic puzzle's solve loads none of them.
_LAZY = {name: module for _, module, name in KINDS}
_LAZY.update({name: module for module, names in _OTHER_NAMES.items() for name in names})

GLOBAL_KEYS = tuple(key for key, _, _ in KINDS[:3])
"""The keys of :data:`GLOBAL_RULES`, known without importing the classes (a test checks)."""

RULE_KEYS = frozenset(key for key, _, _ in KINDS)
"""The keys of :data:`RULE_KINDS` (what backends list in ``rules``), known without importing
the classes (a test checks that the two agree)."""


def _kinds(rows: tuple[tuple[str, str, str], ...]) -> dict[str, type[Rule]]:
    modules = {module: importlib.import_module(f".{module}", __name__) for _, module, _ in rows}
    return {key: getattr(modules[module], name) for key, module, name in rows}


def _global_rules() -> dict[str, type[Rule]]:
    return _kinds(KINDS[:3])


def _rule_kinds() -> dict[str, type[Rule]]:
    return _kinds(KINDS)


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


__all__ = sorted(
    {"GLOBAL_KEYS", "GLOBAL_RULES", "KINDS", "RULE_KEYS", "RULE_KINDS", "global_rule", *_LAZY}
)
