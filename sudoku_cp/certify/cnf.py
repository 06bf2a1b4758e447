"""The certificates' own CNF encoder: a puzzle as clauses, small enough to check by eye.

Written apart from the ``sat`` backend on purpose: a certificate proves a statement about
*this* formula, so the formula must be one a reader can trust without trusting a solver's
code. Variable ``cell * N + d`` (``d`` in 1..N) says "cell holds digit d"; cells are numbered
``row * N + col`` from 0. The clauses:

- every cell holds at least one digit and at most one (pairwise);
- two cells sharing a group (rows, columns, boxes, regions, diagonals, windows, a rule's
  groups: the model's :meth:`~sudoku_cp.model.Model.groups`) never hold the same digit; a group
  of N cells holds each digit at least once (implied by the rest, and what lets a solver see
  hidden singles);
- every given as a unit clause;
- the rules beyond groups, by shape (:mod:`sudoku_cp.rules.base`): a pair, triple or digit
  rule forbids each digit combination its ``allows`` refuses, one clause each; a sum (killer
  cage total, arrow, little killer, a sandwich between its 1 and N) is a layered partial-sum
  automaton; a sequence rule (skyscraper, X-sum) its own automaton unrolled along its cells,
  a variable per position and live state; a quadruple asks each listed digit among its cells
  as often as listed.

A rule of any other shape raises :class:`Unencodable` naming it: the certificate is then not
made, never made without the rule.

>>> from sudoku_cp.puzzle import Puzzle
>>> cnf = encode(Puzzle([1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1]))
>>> cnf.variables, len(cnf.clauses), cnf.clauses[-1]
(64, 388, (61,))
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import SudokuError
from ..model import Model
from ..puzzle import Puzzle
from ..rules import (
    AntiKing,
    AntiKnight,
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

Clause = tuple[int, ...]

MAX_CLAUSES = 1_000_000
"""The largest formula made: above it the puzzle is not certified, saying so. 16x16 classic
needs 112,000 clauses; 25x25 classic 690,000 (10 MB of DIMACS), which CaDiCaL refutes in 2-4 s
and dratify checks in 7-16 s (mostly reading the formula), in 530 MB of memory (measured on
vances25 and gecode#89, load 4-5). 36x36 needs about 3.4 million, and dratify's memory grows
with it: refused."""


class Unencodable(SudokuError):
    """The encoder cannot express this puzzle (a rule of an unknown shape, too large)."""


@dataclass(frozen=True)
class Formula:
    """A CNF: ``variables`` (the cell variables come first: 1..N³) and its clauses: the
    model's (``base``, shared by every puzzle of the model and size) then the givens'."""

    variables: int
    base: tuple[Clause, ...]
    units: tuple[Clause, ...] = ()

    @property
    def clauses(self) -> tuple[Clause, ...]:
        return self.base + self.units

    def dimacs(self, extra: Sequence[Clause] = ()) -> str:
        """The DIMACS text of these clauses plus ``extra`` (a blocking clause)."""
        more = self.units + tuple(extra)
        head = f"p cnf {self.variables} {len(self.base) + len(more)}\n"
        return head + _base_lines(self.base) + _lines(more)


def _lines(clauses: Sequence[Clause]) -> str:
    return "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses)


_BASE_TEXT: dict[int, tuple[tuple[Clause, ...], str]] = {}


def _base_lines(base: tuple[Clause, ...]) -> str:
    """The model's clauses as text, made once per process (the same for every puzzle)."""
    known = _BASE_TEXT.get(id(base))
    if known is None or known[0] is not base:
        if len(_BASE_TEXT) >= 32:
            _BASE_TEXT.clear()
        known = _BASE_TEXT[id(base)] = (base, _lines(base))
    return known[1]


def var(cell: int, digit: int, size: int) -> int:
    """The variable saying ``cell`` holds ``digit``."""
    return cell * size + digit


def blocking_clause(solution: Sequence[int], size: int) -> Clause:
    """The clause no grid but ``solution`` falsifies: "some cell holds another digit"."""
    return tuple(-var(cell, digit, size) for cell, digit in enumerate(solution))


def encode(puzzle: Puzzle) -> Formula:
    """The puzzle's CNF: its model's clauses (made once per model and size) plus its givens."""
    base = _model_formula(puzzle.model, puzzle.size)
    n = puzzle.size
    givens = tuple((var(cell, d, n),) for cell, d in enumerate(puzzle.cells) if d)
    return Formula(base.variables, base.base, givens)


@functools.lru_cache(maxsize=32)
def _model_formula(model: Model, size: int) -> Formula:
    n = size
    cells = range(n * n)
    digits = range(1, n + 1)
    rough = n * n * n * n * (len(model.groups(n)) / n + 1) / 2
    if rough > MAX_CLAUSES:
        raise Unencodable(
            f"a {n}x{n} grid needs about {rough:,.0f} clauses, above the certificates' cap "
            f"of {MAX_CLAUSES:,}"
        )
    out: list[Clause] = []
    for cell in cells:
        out.append(tuple(var(cell, d, n) for d in digits))
        out += [(-var(cell, a, n), -var(cell, b, n)) for a, b in itertools.combinations(digits, 2)]
    apart: set[tuple[int, int]] = set()  # cells sharing a group (once, however many they share)
    for group in model.groups(n):
        if len(group) == n:
            out += [tuple(var(cell, d, n) for cell in group) for d in digits]
        apart.update((min(a, b), max(a, b)) for a, b in itertools.combinations(group, 2))
    for a, b in sorted(apart):
        out += [(-var(a, d, n), -var(b, d, n)) for d in digits]
    fresh = Fresh(n * n * n)
    for rule in model.rules:
        out += _rule_clauses(rule, n, fresh)
        if len(out) > MAX_CLAUSES:
            raise Unencodable(f"the rules need more than {MAX_CLAUSES:,} clauses")
    return Formula(fresh.last, tuple(out))


class Fresh:
    """Numbers for auxiliary variables, after the cell variables."""

    def __init__(self, last: int) -> None:
        self.last = last

    def __call__(self) -> int:
        self.last += 1
        return self.last


GROUPS_ONLY = (AntiKnight, AntiKing)
"""Kinds whose whole meaning is the groups they add (already among the model's groups)."""


def _rule_clauses(rule: Rule, n: int, fresh: Fresh) -> list[Clause]:
    digits = range(1, n + 1)
    if isinstance(rule, Cage):  # its cells are a group already; the total is a sum
        if rule.total is None:
            return []
        return _sum(tuple((cell, 1) for cell in rule.cells), rule.total, n, fresh)
    if isinstance(rule, Sandwich):
        return sandwich_clauses(rule, n, fresh)
    if isinstance(rule, Quadruple):
        return _quadruple(rule, n, fresh)
    if isinstance(rule, SumRule):
        return _sum(rule.terms(n), rule.goal, n, fresh)
    if isinstance(rule, SequenceRule):
        return sequence_clauses(rule, n, fresh)
    if isinstance(rule, PairRule):
        return [
            (-var(a, x, n), -var(b, y, n))
            for a, b in rule.pairs(n)
            for x in digits
            for y in digits
            if not rule.allows(x, y)
        ]
    if isinstance(rule, TripleRule):
        return [
            (-var(a, x, n), -var(b, y, n), -var(c, z, n))
            for a, b, c in rule.triples(n)
            for x in digits
            for y in digits
            for z in digits
            if not rule.allows(x, y, z)
        ]
    if isinstance(rule, DigitRule):
        return [(-var(cell, d, n),) for cell in rule.cells for d in digits if not rule.allows(d)]
    if isinstance(rule, GROUPS_ONLY):
        return []
    raise Unencodable(f"the certificates' encoder cannot express the {rule.title} rule")


def _sum(
    terms: Sequence[tuple[int, int]], goal: int, n: int, fresh: Fresh, guard: int | None = None
) -> list[Clause]:
    """Σ weight · digit(cell) = goal, as layers of partial sums: ``s[i][t]`` says "the first i
    terms sum to t". Only sums reachable from 0 that can still reach ``goal`` get a variable;
    a digit leading anywhere else is forbidden. With ``guard``, the rule holds only when the
    guard literal is true (a sandwich between two given places)."""
    digits = range(1, n + 1)
    forward = [{0}]
    for _, weight in terms:
        forward.append({t + weight * d for t in forward[-1] for d in digits})
    live: list[set[int]] = [set() for _ in forward]
    live[-1] = {goal} & forward[-1]
    for i in range(len(terms) - 1, -1, -1):
        weight = terms[i][1]
        live[i] = {t for t in forward[i] if any(t + weight * d in live[i + 1] for d in digits)}
    layers = [{t: fresh() for t in sorted(layer)} for layer in live]
    start = layers[0].get(0)
    if start is None:  # the goal cannot be reached at all
        return _contradiction(fresh) if guard is None else [(-guard,)]
    out: list[Clause] = [(start,) if guard is None else (-guard, start)]
    for i, (cell, weight) in enumerate(terms):
        for t, here in layers[i].items():
            for d in digits:
                after = layers[i + 1].get(t + weight * d)
                if after is None:
                    out.append((-here, -var(cell, d, n)))
                else:
                    out.append((-here, -var(cell, d, n), after))
    return out


def sandwich_clauses(rule: Sandwich, n: int, fresh: Fresh) -> list[Clause]:
    """The line holds a 1 and an N, and for each two places holding them, the cells between
    sum to the total."""
    line = rule.cells
    out: list[Clause] = [tuple(var(c, 1, n) for c in line), tuple(var(c, n, n) for c in line)]
    if n == 1:
        return out + ([] if rule.total == 0 else _contradiction(fresh))
    for i, j in itertools.combinations(range(len(line)), 2):
        guard = fresh()
        for low, high in ((1, n), (n, 1)):  # 1 at i and N at j, or the other way round
            out.append((-var(line[i], low, n), -var(line[j], high, n), guard))
        out += _sum(tuple((c, 1) for c in line[i + 1 : j]), rule.total, n, fresh, guard)
    return out


def sequence_clauses(rule: SequenceRule, n: int, fresh: Fresh) -> list[Clause]:
    """The rule's automaton unrolled along its cells: ``q[i][s]`` says "after the first i
    cells the automaton is in state s". Only the states reachable from the start that can
    still end accepting get a variable; the start is true, and "state s here and digit d in
    the next cell" implies the state it leads to (or is forbidden, leading nowhere live). A
    grid keeping the rule satisfies these with its own run's states true; a grid breaking it
    meets a forbidden step, its run forced along by the implications."""
    dfa = rule.automaton(n)
    digits = range(1, n + 1)
    cells = rule.cells
    reached: list[list[object]] = [[dfa.start]]
    for _ in cells:
        found: dict[object, None] = {}
        for state in reached[-1]:
            for d in digits:
                after = dfa.step(state, d)
                if after is not None:
                    found[after] = None
        reached.append(list(found))
    live: list[set[object]] = [set() for _ in reached]
    live[-1] = {state for state in reached[-1] if dfa.accepts(state)}
    for i in range(len(cells) - 1, -1, -1):
        live[i] = {
            state for state in reached[i] if any(dfa.step(state, d) in live[i + 1] for d in digits)
        }
    if not live[0]:
        return _contradiction(fresh)
    layers = [
        {state: fresh() for state in states if state in alive}
        for states, alive in zip(reached, live, strict=True)
    ]
    out: list[Clause] = [(layers[0][dfa.start],)]
    for i, cell in enumerate(cells):
        for state, here in layers[i].items():
            for d in digits:
                after = layers[i + 1].get(dfa.step(state, d))
                if after is None:
                    out.append((-here, -var(cell, d, n)))
                else:
                    out.append((-here, -var(cell, d, n), after))
    return out


def _contradiction(fresh: Fresh) -> list[Clause]:
    """Two clauses no assignment satisfies (an empty clause, which not every tool reads)."""
    x = fresh()
    return [(x,), (-x,)]


def _quadruple(rule: Quadruple, n: int, fresh: Fresh) -> list[Clause]:
    """A digit listed m times among k cells: every k - m + 1 of the cells hold it somewhere."""
    out: list[Clause] = []
    for digit, times in rule.needed().items():
        if times > len(rule.cells):
            out += _contradiction(fresh)
            continue
        for some in itertools.combinations(rule.cells, len(rule.cells) - times + 1):
            out.append(tuple(var(cell, digit, n) for cell in some))
    return out
