"""The ``sat`` backend's clauses for rules beyond groups and cages: pair, digit, triple,
sum, sandwich, sequence and quadruple rules (cages are in :mod:`.encoding`).

Every encoding here is exact — a grid satisfies the clauses (for some values of the auxiliary
variables) exactly when it satisfies the rule — and writes literals through :class:`Writer`,
which folds in the constants a given cell or a pruned digit stands for. Auxiliary variables are
never in a blocking clause (those are over cell variables only), so they cannot make one grid
count twice.

- A pair rule (dots, thermometers, clones …): a binary clause per forbidden digit pair.
- A digit rule (odd, even) strikes the digits it forbids from its cells: unit clauses.
- A triple rule (between line): for each digit ``x`` of the first cell and ``y`` of the last,
  ``¬first=x ∨ ¬last=y ∨ OR(middle=v for every v the rule allows between x and y)``.
- A quadruple: for each listed digit needed ``m`` times among ``k`` cells, every ``k - m + 1``
  of the cells include one holding it (at least ``m`` of ``k``; ``k`` is at most 4).
- A weighted sum (arrow, little killer; digits may repeat) and a sandwich sum run as an
  automaton read along the cells (:func:`encode_automaton`): one-hot state variables per
  position (partial sums; for a sandwich, which end opened the sandwich and its sum so far),
  "state and digit imply the next state" clauses, and only the states from which the end can
  still be reached — so a final value other than the goal has no state at all. A sequence rule
  (skyscraper, X-sum) brings its own automaton, encoded the same way. The ``sums`` option
  (:data:`SUMS`; :func:`encode_sum`) reads a weighted sum's terms as they are (``plain``),
  with the full groups' sums folded in (``folded``: fewer cells, same grids), or folded and
  with cells that share a group read as a set of digits (``grouped``); the backend's default,
  ``auto``, picks one by the puzzle's rules (:func:`.backend.resolve_sums`).

Speed: uniqueness checks of the 11 9x9 mixed-rule puzzles of
``tests/test_rules_part2_cpsat_sat.py`` (lines, sums and dots drawn on 17clue#1's solution,
0 to 8 givens), 7 rounds interleaved with ``cpsat``, load 5.5: median 9.5 ms, worst 273 ms (a
one-given puzzle of sandwiches and little killers); ``cpsat`` 29.8 and 456 ms.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from ...rules import DigitRule, PairRule, Quadruple, Sandwich, SequenceRule, SumRule, TripleRule
from ..groupsums import cliques, folded_terms
from .cnf import Encoding

SUMS = ("plain", "folded", "grouped")
"""How weighted sums (arrows, little killers) are encoded: the ``sums`` option
(:func:`encode_sum`)."""

Lit = bool | int
"""A literal: a variable (negative when negated), or a constant True / False."""


def negate(lit: Lit) -> Lit:
    return (not lit) if isinstance(lit, bool) else -lit


class OutOfTime(Exception):
    """The deadline passed while the rules were being encoded."""


@dataclass
class Writer:
    """What an encoding needs: the cell literals, a way to add clauses with constants folded
    in, fresh variables and at-most-one constraints (in the encoding the backend chose)."""

    enc: Encoding
    size: int
    literal: Callable[[int, int], Lit]
    add: Callable[[list[Lit]], None]
    at_most_one: Callable[[list[int]], None]
    deadline: float | None = None
    groups: Sequence[Sequence[int]] = ()
    """The puzzle's groups (what ``sums="folded"`` and ``"grouped"`` reason from)."""
    sums: str = "plain"
    """How weighted sums are encoded: one of ``SUMS`` (:func:`encode_sum`)."""

    def check_time(self) -> None:
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise OutOfTime

    def new_var(self) -> int:
        self.enc.top += 1
        return self.enc.top

    def candidates(self, cell: int) -> list[int]:
        """The digits ``cell`` may still hold (a given: its digit; a pruned digit: not)."""
        return [d for d in range(1, self.size + 1) if self.literal(cell, d) is not False]


def encode_pair_rule(w: Writer, rule: PairRule) -> None:
    """A binary clause ``¬one=a ∨ ¬two=b`` per pair of cells and digit pair the rule forbids
    (directed: ``a`` is the first cell's digit), written straight out for two variables — the
    common case, and most of the time a 9x9 puzzle with many dots spends encoding."""
    digits = range(1, w.size + 1)
    banned: list[list[int]] = [[], *([b for b in digits if not rule.allows(a, b)] for a in digits)]
    clauses = w.enc.clauses
    for one, two in rule.pairs(w.size):
        second = {b: w.literal(two, b) for b in w.candidates(two)}
        for a in w.candidates(one):
            first = w.literal(one, a)
            for b in banned[a]:
                other = second.get(b)
                if other is None:
                    continue
                if first is True or other is True:
                    w.add([negate(first), negate(other)])
                else:
                    clauses.append([-first, -other])


RENBAN_WINDOWS = True
"""Renban lines also get their implied window clauses (:func:`encode_renban_windows`); False
leaves their group and pair clauses alone (read at each encoding: a test compares both)."""


def encode_renban_windows(w: Writer, cells: Sequence[int]) -> None:
    """Implied clauses of a renban line of ``cells`` (the line's group and pair clauses say it
    all, but let unit propagation see little before its cells are set): a variable per run of
    digits the line may hold (its *window*), one of them chosen; a chosen window puts each of
    its digits somewhere on the line (as many digits as cells, all different); a digit on
    the line chooses a window that holds it. ISS's Hard renban 3 1.35 s → 34 ms, Hard renban
    1 1.43 → 1.28 s; median over the 16 bundled renban puzzles 0.87× the time."""
    if not RENBAN_WINDOWS:
        return
    n, length = w.size, len(cells)
    windows: list[tuple[int, Lit]] = []  # (first digit, its variable)
    for first in range(1, n - length + 2):
        digits = range(first, first + length)
        places = [[w.literal(cell, d) for cell in cells] for d in digits]
        if any(all(lit is False for lit in lits) for lits in places):
            continue  # a digit of this run has no place on the line: never the window
        chosen = w.new_var()
        windows.append((first, chosen))
        for lits in places:
            w.add([-chosen, *lits])
    w.add([lit for _, lit in windows])
    for cell in cells:
        for d in w.candidates(cell):
            w.add([negate(w.literal(cell, d)), *(lit for f, lit in windows if f <= d < f + length)])


def encode_digit_rule(w: Writer, rule: DigitRule) -> None:
    banned = [d for d in range(1, w.size + 1) if not rule.allows(d)]
    for cell in rule.cells:
        for digit in banned:
            w.add([negate(w.literal(cell, digit))])


def encode_triple_rule(w: Writer, rule: TripleRule) -> None:
    digits = range(1, w.size + 1)
    between = {(x, y): [v for v in digits if rule.allows(x, v, y)] for x in digits for y in digits}
    for first, middle, last in rule.triples(w.size):
        for x in w.candidates(first):
            for y in w.candidates(last):
                w.add(
                    [negate(w.literal(first, x)), negate(w.literal(last, y))]
                    + [w.literal(middle, v) for v in between[x, y]]
                )


def encode_quadruple(w: Writer, rule: Quadruple) -> None:
    cells = rule.cells
    for digit, times in Counter(rule.digits).items():
        holds = [w.literal(cell, digit) for cell in cells]
        # At least ``times`` of the k literals: no k - times + 1 of them are all false.
        for subset in itertools.combinations(holds, len(holds) - times + 1):
            w.add(list(subset))


def encode_sum(w: Writer, rule: SumRule) -> None:
    """The rule's weighted sum: ``plain``, an automaton over its own terms; ``folded``, over
    the terms with the full groups' sums folded in (:func:`~..groupsums.folded_terms`: an
    arrow along most of a row sums the cells the row leaves out); ``grouped``, folded, and
    the cells of a weight that share a group read as a set of digits (:func:`_encode_grouped_sum`).
    """
    terms, goal = rule.terms(w.size), rule.goal
    if w.sums != "plain":
        terms, goal = folded_terms(terms, goal, w.groups, w.size)
    if w.sums == "grouped":
        _encode_grouped_sum(w, terms, goal)
        return
    weights = [weight for _, weight in terms]

    def step(i: int, total: Hashable, digit: int) -> Hashable:
        assert isinstance(total, int)
        return total + weights[i] * digit

    encode_automaton(w, [cell for cell, _ in terms], 0, step, lambda total: total == goal)


def _encode_grouped_sum(w: Writer, terms: Sequence[tuple[int, int]], goal: int) -> None:
    """``sum(weight·cell) == goal`` where the cells of one weight that share a group (a
    clique, :func:`~..groupsums.cliques`) are read digit by digit: for each digit ``d``, a
    Boolean "``d`` is in the clique" (the OR of its cells' ``cell=d``, equivalent both ways),
    worth ``weight·d``, and exactly as many of them true as the clique has cells. A lone cell
    is read as its digit. The automaton's state is (sum so far, digits of the clique so far).

    Exact: a clique's cells hold different digits (they share a group), so the digits present
    are as many as its cells and sum to what they hold. What it adds over a run along the
    cells: the run can no longer take two cells of a box for 1 and 1; a little killer's three
    box cells summing to 7 must be 1, 2 and 4, which propagation now sees.
    """
    by_weight: dict[int, list[int]] = {}
    for cell, weight in terms:
        by_weight.setdefault(weight, []).append(cell)
    positions: list[list[tuple[int, Lit]]] = []
    reads: list[tuple[int, int, bool]] = []  # (value of a 1, clique's cells or 0, clique ends)
    for weight, cells in by_weight.items():
        for clique in cliques(cells, w.groups):
            if len(clique) == 1:
                cell = clique[0]
                positions.append([(d, w.literal(cell, d)) for d in w.candidates(cell)])
                reads.append((weight, 0, False))
                continue
            here = [(d, _digit_in(w, clique, d)) for d in range(1, w.size + 1)]
            present = [(d, lit) for d, lit in here if lit is not False]
            if len(present) < len(clique):
                w.add([])  # fewer digits left than cells: no grid
                return
            for j, (d, lit) in enumerate(present):
                last = j == len(present) - 1
                if lit is True:
                    positions.append([(1, True)])
                else:
                    positions.append([(0, negate(lit)), (1, lit)])
                reads.append((weight * d, len(clique), last))

    def step(i: int, state: Hashable, symbol: int) -> Hashable:
        assert isinstance(state, tuple)
        total, count = state
        value, clique, last = reads[i]
        if not clique:
            return (total + value * symbol, 0)
        count += symbol
        if count > clique or (last and count != clique):
            return None
        return (total + value * symbol, 0 if last else count)

    encode_run(w, positions, (0, 0), step, lambda state: state == (goal, 0))


def _digit_in(w: Writer, clique: Sequence[int], digit: int) -> Lit:
    """A literal for "one of ``clique``'s cells holds ``digit``": a constant, the one cell's
    own literal, or a new variable equivalent to the OR of theirs."""
    lits = [w.literal(cell, digit) for cell in clique]
    if any(lit is True for lit in lits):
        return True
    open_ = [lit for lit in lits if lit is not False]
    if not open_:
        return False
    if len(open_) == 1:
        return open_[0]
    some = w.new_var()
    for lit in open_:
        w.add([negate(lit), some])
    w.add([-some, *open_])
    return some


_BEFORE, _AFTER = "before", "after"


def encode_sandwich(w: Writer, rule: Sandwich) -> None:
    """States: before the first 1 or N; ``(opening digit, sum so far)`` between them; after
    both. Exact as the validator reads a line (the sum between the *first* 1 and the first N),
    even on a model where the line is not a group and a digit may repeat."""
    n, total = w.size, rule.total

    def step(i: int, state: Hashable, digit: int) -> Hashable:
        if state == _AFTER:
            return _AFTER
        if state == _BEFORE:
            if digit == 1 == n:  # a 1x1 grid: both ends in one cell, nothing between
                return _AFTER if total == 0 else None
            return (digit, 0) if digit in (1, n) else _BEFORE
        assert isinstance(state, tuple)
        opened, held = state
        if digit == (n if opened == 1 else 1):
            return _AFTER if held == total else None
        held += digit
        return (opened, held) if held <= total else None

    encode_automaton(w, list(rule.cells), _BEFORE, step, lambda state: state == _AFTER)


def encode_sequence(w: Writer, rule: SequenceRule) -> None:
    """The rule's own automaton (the same at every position), read along its cells."""
    dfa = rule.automaton(w.size)

    def step(i: int, state: Hashable, digit: int) -> Hashable:
        return dfa.step(state, digit)

    encode_automaton(w, list(rule.cells), dfa.start, step, dfa.accepts)


def encode_automaton(
    w: Writer,
    cells: Sequence[int],
    start: Hashable,
    step: Callable[[int, Hashable, int], Hashable],
    accepting: Callable[[Hashable], bool],
) -> None:
    """The digits of ``cells``, read in order by a deterministic automaton (see
    :func:`encode_run`, whose positions are here the cells and their candidate digits)."""
    positions = [[(d, w.literal(cell, d)) for d in w.candidates(cell)] for cell in cells]
    encode_run(w, positions, start, step, accepting)


def encode_run(
    w: Writer,
    positions: Sequence[Sequence[tuple[int, Lit]]],
    start: Hashable,
    step: Callable[[int, Hashable, int], Hashable],
    accepting: Callable[[Hashable], bool],
) -> None:
    """The symbols of ``positions``, read in order by a deterministic automaton from
    ``start`` (``step(position, state, symbol)``: the next state, None for none), end in an
    accepting state. A position lists ``(symbol, literal)`` options of which every model and
    every grid makes exactly one true: a cell's candidate digits, or a Boolean's 0 and 1.

    Layer ``i`` holds the states reachable after ``i`` cells from which an accepting end is
    still reachable (both computed over the cells' candidates). A layer of one state is a
    constant; otherwise each state gets a variable, exactly one of them true. The clauses
    ``state ∧ cell=d → next state`` (just ``¬state ∨ ¬cell=d`` when that state was pruned)
    force the true run's states, so a model's grid is accepted; and a grid that is accepted
    sets its run's states and nothing else, which satisfies every clause. No layer left:
    no digits can satisfy the rule (an arrow summing past the largest digit), a contradiction.
    """
    candidates = [[symbol for symbol, _ in options] for options in positions]
    layers: list[set[Hashable]] = [{start}]
    arcs: list[dict[tuple[Hashable, int], Hashable]] = []  # each step computed once
    for i, digits in enumerate(candidates):
        w.check_time()
        moves = {(state, d): step(i, state, d) for state in layers[-1] for d in digits}
        arcs.append({move: state for move, state in moves.items() if state is not None})
        layers.append(set(arcs[-1].values()))
    layers[-1] = {state for state in layers[-1] if accepting(state)}
    for i in range(len(positions) - 1, -1, -1):
        w.check_time()
        ahead, moves = layers[i + 1], arcs[i]
        alive = {state for (state, _), after in moves.items() if after in ahead}
        layers[i] &= alive
    if not layers[0]:
        w.add([])
        return
    states: list[dict[Hashable, Lit]] = []
    for layer in layers:
        if len(layer) == 1:
            states.append({next(iter(layer)): True})
            continue
        variables = {state: w.new_var() for state in layer}
        states.append(dict(variables.items()))
        w.add(list(variables.values()))
        w.at_most_one(list(variables.values()))
    clauses = w.enc.clauses
    for i, options in enumerate(positions):
        w.check_time()  # a long sum over many cells writes millions of clauses
        here, there, moves = states[i], states[i + 1], arcs[i]
        for digit, holds in options:
            for state, lit in here.items():
                after = there.get(moves.get((state, digit)), False)
                if after is True:
                    continue
                if lit is True or holds is True:  # a constant: fold it in
                    w.add([negate(lit), negate(holds), after])
                elif after is False:
                    clauses.append([-lit, -holds])
                else:
                    clauses.append([-lit, -holds, after])
