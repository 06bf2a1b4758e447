"""The ``sat`` backend's encoding: a puzzle as CNF, groups and cages here, the other rules' clauses
in :mod:`.rules`.

The encoding is the standard one, compiled from the model's groups (never a rule set by heart).
One Boolean variable ``x(cell, digit)`` says "this cell holds this digit", and

- every cell takes at least one digit (one clause per cell) and at most one (an at-most-one
  constraint per cell);
- every group takes each digit at most once (an at-most-one per group and digit) and, with
  ``redundant=True`` (the default), at least once. Those clauses are implied by the rest for a
  group of N cells (and left out for a shorter one, which may miss a digit), but they let unit
  propagation see "this digit has one place left in the group" (a hidden single): on the bundled
  hard puzzles they cut conflicts about sixfold and time about threefold;
- givens either become unit clauses (``simplify=False``) or, by default, are used to leave out
  the variables they rule out: a given cell has no variables, a blank cell only its candidates
  (the digits no peer is given), and a group only the digits not yet given in it.

Rules beyond groups (``rules``: every key of :data:`~sudoku_cp.rules.RULE_KINDS`; anti-knight,
anti-king, a killer cage's and a renban line's cells are groups, so those need nothing more):

- a killer cage's sum, from the sets of distinct digits of the cage's size that sum to its
  total: digits in no set are struck out; a two-cell cage says "``d`` here implies
  ``total - d`` there"; a larger one gets a selector variable per set (see
  :func:`_encode_cage`: exact because the cage's digits differ). Public killer set (151 9x9
  puzzles, uniqueness checks, gluecard4, best of 3, load 3.6): median 3.0 ms to encode and
  9.0 ms in all, against 8.3 and 12.1 with clauses written through one generic helper;
- the other shapes (:mod:`.rules`): a pair rule (dots, thermometers, clones …) is a binary
  clause per pair of cells and digit pair it forbids (a renban line's implied runs too:
  :func:`.rules.encode_renban_windows`); a digit rule (odd, even) unit clauses; a
  triple rule (between line) ``¬first=x ∨ ¬last=y ∨ OR(middle=v allowed)``; a quadruple
  at-least-k clauses; a weighted sum (arrow, little killer), a sandwich and a sequence rule's
  own automaton (skyscraper, X-sum) a one-hot layered automaton over the cells that keeps only
  states from which an accepting end is reachable. A weighted sum's terms first have the full
  groups' sums folded in (option ``sums``: ``plain``, ``folded``, ``grouped``, see
  :func:`.rules.encode_sum`; the default ``auto`` is grouped without killer-cage totals, else
  folded: :func:`.backend.resolve_sums`).

Givens and pruned digits are constants in those clauses (folded in), and a rule no digits can
satisfy is a contradiction before the solver runs.

At-most-one constraints (``amo``) are written as clauses — pairwise, or one of PySAT's CardEnc
encodings — or handed as they are (``native``) to a solver with built-in cardinality constraints
(Gluecard, Minicard). ``hybrid`` is pairwise up to 12 literals (every constraint of a 9x9 grid,
and most of a larger puzzle once the givens have pruned it) and a sequential counter above: on
puzzles pairwise is the fastest clause encoding at every size, but on near-empty 16x16 and 25x25
grids its N(N-1)/2 clauses per constraint make encoding dominate (25x25 empty grid, limit 2:
633 ms pairwise, 240 ms hybrid). The default, ``auto``, is ``native`` when the solver has
cardinality constraints and ``hybrid`` otherwise: passing one list instead of N(N-1)/2 clauses
saves most of the time a puzzle costs in Python (see "Defaults" in :mod:`.backend`).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from ...errors import BackendError
from ...puzzle import Puzzle
from ...rules import (
    Cage,
    DigitRule,
    PairRule,
    Quadruple,
    Renban,
    Rule,
    Sandwich,
    SequenceRule,
    SumRule,
    TripleRule,
)
from .cnf import Encoding
from .rules import (
    Writer,
    encode_digit_rule,
    encode_pair_rule,
    encode_quadruple,
    encode_renban_windows,
    encode_sandwich,
    encode_sequence,
    encode_sum,
    encode_triple_rule,
    negate,
)

AMO_ENCODINGS = (
    "auto",
    "native",
    "hybrid",
    "pairwise",
    "ladder",
    "seqcounter",
    "bitwise",
    "totalizer",
    "cardnetwrk",
)
"""How at-most-one constraints are written: ``auto`` picks ``native`` or ``hybrid`` by solver;
``pairwise`` and ``hybrid`` are written here, the other clause encodings by PySAT's CardEnc."""

HYBRID_PAIRWISE_MAX = 12
"""``amo="hybrid"``: up to this many literals pairwise, more a sequential counter."""


def encode(
    puzzle: Puzzle,
    *,
    amo: str = "hybrid",
    redundant: bool = True,
    simplify: bool = True,
    deadline: float | None = None,
    sums: str = "folded",
) -> Encoding:
    """Compile ``puzzle`` to CNF (see the module docstring for the encoding and its options).
    Past ``deadline`` (a ``time.perf_counter`` value), the rules' encodings raise
    :class:`~.rules.OutOfTime`: a long sum over many cells can take seconds to write.

    >>> enc = encode(Puzzle([1] + [0] * 15, "latin"))
    >>> len(enc.cell_vars), enc.contradiction
    (54, False)
    """
    n = puzzle.size
    givens = puzzle.cells
    groups = puzzle.groups()
    enc = Encoding(size=n, grid=list(givens))
    if amo == "auto":  # without a solver to ask, "auto" can only mean clauses
        amo = "hybrid"

    # Which (cell, digit) pairs get a variable: all of them, or only the candidates.
    if simplify:
        taken: list[set[int]] = [set() for _ in range(n * n)]
        for group in groups:
            given_here = {givens[c] for c in group if givens[c]}
            for c in group:
                taken[c] |= given_here
        candidates = [
            [] if givens[c] else [d for d in range(1, n + 1) if d not in taken[c]]
            for c in range(n * n)
        ]
    else:
        candidates = [list(range(1, n + 1)) for _ in range(n * n)]

    var = {}  # (cell, digit) -> variable
    for cell, digits in enumerate(candidates):
        for digit in digits:
            enc.top += 1
            var[cell, digit] = enc.top
            enc.cell_vars.append((enc.top, cell, digit))

    clauses = enc.clauses
    at_most_one = _amo_writer(enc, amo)
    if not simplify:
        clauses.extend([var[c, d]] for c, d in enumerate(givens) if d)
    for cell, digits in enumerate(candidates):
        if givens[cell] and simplify:
            continue
        if not digits:
            enc.contradiction = True
            return enc
        lits = [var[cell, d] for d in digits]
        clauses.append(lits)
        at_most_one(lits)
    for group in groups:
        given_here = {givens[c] for c in group if givens[c]} if simplify else set()
        # "At least once" holds only for a group of N cells; a shorter one may miss a digit.
        full = len(group) == n
        for digit in range(1, n + 1):
            if digit in given_here:
                continue
            lits = [var[c, digit] for c in group if (c, digit) in var]
            at_most_one(lits)
            if redundant and full:
                if not lits:
                    enc.contradiction = True
                    return enc
                clauses.append(lits)
    if puzzle.model.rules:
        _encode_rules(enc, puzzle, var, at_most_one, deadline, sums)
    return enc


def _encode_rules(
    enc: Encoding,
    puzzle: Puzzle,
    var: dict[tuple[int, int], int],
    at_most_one: Any,
    deadline: float | None,
    sums: str = "folded",
) -> None:
    """The clauses of the rules beyond groups: cage sums here, the other
    shapes in :mod:`.rules`.

    A literal for "cell holds digit" is its variable, or a constant when the cell is given or
    the digit was pruned (``simplify``): the local ``literal`` answers True, False or the variable,
    and clauses are written with constants folded in.
    """
    n = puzzle.size
    givens = puzzle.cells

    def literal(cell: int, digit: int) -> bool | int:
        if givens[cell]:
            if (cell, digit) in var:  # simplify=False: a given keeps its variables
                return var[cell, digit]
            return givens[cell] == digit
        return var.get((cell, digit), False)

    def add(clause: list[bool | int]) -> None:
        if any(lit is True for lit in clause):
            return
        lits = [lit for lit in clause if lit is not False]
        if not lits:
            enc.contradiction = True
        else:
            enc.clauses.append(lits)

    writer = Writer(enc, n, literal, add, at_most_one, deadline, puzzle.groups(), sums)
    for rule in puzzle.model.rules:
        writer.check_time()
        if isinstance(rule, Cage) and rule.total is not None:
            given = {givens[c] for c in rule.cells if givens[c]}
            _encode_cage(enc, rule, n, given, literal, add, negate)
        elif isinstance(rule, PairRule):
            encode_pair_rule(writer, rule)
            if isinstance(rule, Renban):
                encode_renban_windows(writer, rule.cells)
        elif isinstance(rule, TripleRule):
            encode_triple_rule(writer, rule)
        elif isinstance(rule, DigitRule):
            encode_digit_rule(writer, rule)
        elif isinstance(rule, SumRule):
            encode_sum(writer, rule)
        elif isinstance(rule, Sandwich):
            encode_sandwich(writer, rule)
        elif isinstance(rule, Quadruple):
            encode_quadruple(writer, rule)
        elif isinstance(rule, SequenceRule):
            encode_sequence(writer, rule)
        elif not isinstance(rule, Cage) and type(rule).problems is not Rule.problems:
            # a shape this encoder does not know: never search as if the rule were not there
            raise BackendError(f"backend 'sat' cannot compile the {rule.title} rule ({rule.key})")
        if enc.contradiction:
            return


@functools.cache
def digit_sets(size: int, cells: int, total: int) -> tuple[tuple[int, ...], ...]:
    """Every set of ``cells`` distinct digits of 1..``size`` summing to ``total``.

    >>> digit_sets(9, 2, 10)
    ((1, 9), (2, 8), (3, 7), (4, 6))
    """
    return tuple(
        combo for combo in itertools.combinations(range(1, size + 1), cells) if sum(combo) == total
    )


def _encode_cage(
    enc: Encoding, cage: Cage, n: int, given: set[int], literal: Any, add: Any, negate: Any
) -> None:
    """A cage's sum, from the sets of distinct digits (as many as the cage's cells) that sum
    to its total and hold its given digits. A digit in no set is struck from the cage's cells
    outright. Then, for a cage of two blank cells, each digit implies its partner in the other
    cell (``total - d``). Otherwise one selector variable per set: at least one selector holds;
    a selector forbids every digit outside its set in every cell of the cage, and says each
    digit of its set is somewhere in the cage.

    Exact: the cage is also a group (its digits differ), so ``k`` different digits from a
    ``k``-digit set are that set, whose sum is the total; and a grid whose cage sums right
    holds one of the sets, whose selector satisfies every clause (selectors are auxiliary:
    the grid decides them, and blocking clauses never mention them).
    """
    cells = cage.cells
    assert cage.total is not None
    sets = [s for s in digit_sets(n, len(cells), cage.total) if given <= set(s)]
    if not sets:
        enc.contradiction = True
        return
    used = set().union(*sets)
    table = {(c, d): literal(c, d) for c in cells for d in range(1, n + 1)}
    for cell in cells:
        for digit in range(1, n + 1):
            if digit not in used:
                add([negate(table[cell, digit])])
    if len(sets) == 1:
        return  # the digits outside the one set are already struck out
    if len(cells) == 2 and not given:
        one, two = cells
        for a, b in ((one, two), (two, one)):
            for digit in used:
                add([negate(table[a, digit]), table[b, cage.total - digit]])
        return
    constants = any(isinstance(lit, bool) and lit for lit in table.values())
    clauses = enc.clauses
    selectors = []
    for combo in sets:
        enc.top += 1
        selector = enc.top
        selectors.append(selector)
        for digit in used:
            if digit in combo:
                add([-selector] + [table[cell, digit] for cell in cells])
            elif constants:
                for cell in cells:
                    add([-selector, negate(table[cell, digit])])
            else:  # the common case, written out: variables, or False for a pruned digit
                for cell in cells:
                    lit = table[cell, digit]
                    if lit is not False:
                        clauses.append([-selector, -lit])
    add(list(selectors))


def _amo_writer(enc: Encoding, amo: str):
    """A function adding "at most one of these literals" to ``enc`` in the chosen encoding."""
    if amo == "pairwise":
        # Written here rather than by CardEnc: the same clauses, without a call per constraint.
        def pairwise(lits: list[int]) -> None:
            enc.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))

        return pairwise
    if amo == "native":

        def native(lits: list[int]) -> None:
            if len(lits) > 1:
                enc.atmosts.append(lits)

        return native

    from pysat.card import CardEnc, EncType

    kind = EncType.seqcounter if amo == "hybrid" else getattr(EncType, amo)
    # Pairwise is the best encoding for short lists, and cheap to write here; "hybrid" keeps it
    # up to HYBRID_PAIRWISE_MAX literals, where it stops paying off.
    shortcut = HYBRID_PAIRWISE_MAX if amo == "hybrid" else 2

    def library(lits: list[int]) -> None:
        if len(lits) <= shortcut:
            enc.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))
            return
        cnf = CardEnc.atmost(lits, bound=1, top_id=enc.top, encoding=kind)
        enc.clauses.extend(cnf.clauses)
        enc.top = max(enc.top, cnf.nv)

    return library
