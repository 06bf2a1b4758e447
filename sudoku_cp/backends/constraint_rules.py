"""The rules beyond groups as the ``constraint`` backend compiles them (python-constraint).

Each rule's *shape* (:mod:`sudoku_cp.rules.base`) becomes library constraints over the blank
cells it touches; a given cell of the rule is not a variable (with ``givens="pruned"``) but a
known digit the constraint carries:

- a killer cage's sum: the digit sets the cage may hold (``cages="sets"``) or the library's
  ``ExactSumConstraint`` (``cages="sum"``);
- a :class:`PairRule` (dots, thermometers, whispers, palindromes, clones, minimum / maximum,
  negative …): one constraint per pair of cells testing the *directed* ``allows(first,
  second)``; a pair with one given cell narrows the other's domain up front instead;
- a :class:`DigitRule` (odd, even): its cells' domains filtered up front, no constraint;
- a :class:`TripleRule` (between lines), a :class:`SumRule` (arrows — circle cells weigh
  −10^k —, little killers, digits may repeat), a sandwich sum and a quadruple: a
  :class:`Spec` each, whose ``filter`` says which digits every unassigned cell keeps given the
  digits placed, or that the rule is already broken. :func:`spec_constraint` turns a spec into
  a library constraint that forward-checks with it (sums by bounds, so a little killer prunes
  long before its last cell is placed). A :class:`SequenceRule` (skyscraper, X-sum) runs its
  automaton over the cells' current digits (:class:`SequenceSpec`).

Before the search every rule's up-front pruning runs to a fixed point (a thermometer's bulb
loses the largest digits, a whisper's cells the middle one, an arrow that must sum past what
its cells can hold leaves a cell with no digit): a well-formed rule no digits satisfy makes
the puzzle a quick ``none``.

The backend reads each rule's data and relation only (``pairs``/``allows``, ``terms``/``goal``,
``digits``, a sandwich's cells and total), never its checker (``problems``): the validator's
code stays independent of every backend's.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import BackendError
from ..puzzle import Puzzle
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

Domains = Mapping[int, Sequence[int]]
Allowed = dict[int, set[int]] | None
"""What a spec's filter answers: per unassigned cell the digits it may keep (cells not listed
keep all), or None when the rule is broken whatever the unassigned cells hold."""

FIXPOINT_ROUNDS = 50
"""Passes of up-front pruning at most (each pass that changes nothing ends it sooner)."""


class Spec:
    """A compiled rule over ``scope`` (its unassigned cells, in order), with a filter."""

    scope: tuple[int, ...]

    def filter(self, assigned: Mapping[int, int], domains: Domains) -> Allowed:
        raise NotImplementedError


@dataclass
class SumSpec(Spec):
    """``sum(weight * digit) == goal`` over ``scope`` (the givens' share already taken off
    ``goal``); digits may repeat. Filtered by bounds: each cell keeps the digits with which the
    others' least and greatest sums can still reach the goal.

    >>> spec = SumSpec((0, 1, 2), (1, 1, -1), 0)  # an arrow: cells 0 and 1 sum to cell 2
    >>> spec.filter({}, {0: [1, 2, 3], 1: [1, 2, 3], 2: [1, 2, 3]})
    {0: {1, 2}, 1: {1, 2}, 2: {2, 3}}
    >>> print(spec.filter({0: 3}, {1: [1, 2, 3], 2: [1, 2, 3]}))
    None
    """

    scope: tuple[int, ...]
    weights: tuple[int, ...]
    goal: int

    def filter(self, assigned: Mapping[int, int], domains: Domains) -> Allowed:
        total = 0
        free: list[tuple[int, int, int, int, Sequence[int]]] = []
        low = high = 0
        for cell, weight in zip(self.scope, self.weights, strict=True):
            if cell in assigned:
                total += weight * assigned[cell]
            else:
                domain = domains[cell]
                if not domain:
                    return None
                a, b = weight * min(domain), weight * max(domain)
                lo, hi = (a, b) if a <= b else (b, a)
                low += lo
                high += hi
                free.append((cell, weight, lo, hi, domain))
        need = self.goal - total
        if not low <= need <= high:
            return None
        allowed: dict[int, set[int]] = {}
        for cell, weight, lo, hi, domain in free:
            # the others reach from low - lo to high - hi
            keep = {d for d in domain if low - lo <= need - weight * d <= high - hi}
            if len(keep) < len(domain):
                if not keep:
                    return None
                allowed[cell] = keep
        return allowed


@dataclass
class TripleSpec(Spec):
    """A triple rule's relation over three cells, some of them known (``known[i]`` the digit,
    0 for a variable); each unassigned cell keeps the digits some digits of the others support.

    >>> from sudoku_cp.rules import BetweenLine
    >>> spec = TripleSpec((0, 1, 2), BetweenLine((0, 1, 2)), (0, 0, 0))
    >>> spec.filter({0: 1}, {1: [2, 3, 4], 2: [2, 3, 4]})
    {1: {2, 3}, 2: {3, 4}}
    """

    scope: tuple[int, ...]
    rule: TripleRule
    known: tuple[int, int, int]
    cells: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        # the triple's cells in the rule's order: a known digit's place holds no variable
        free = iter(self.scope)
        self.cells = tuple(-1 if k else next(free) for k in self.known)

    def filter(self, assigned: Mapping[int, int], domains: Domains) -> Allowed:
        options = _line_options(self.cells, self.known, assigned, domains)
        allows = self.rule.allows
        supported: list[set[int]] = [set(), set(), set()]
        for a, b, c in itertools.product(*options):
            if allows(a, b, c):
                supported[0].add(a)
                supported[1].add(b)
                supported[2].add(c)
        if not supported[0]:
            return None
        allowed: dict[int, set[int]] = {}
        for i, cell in enumerate(self.cells):
            if cell >= 0 and cell not in assigned and len(supported[i]) < len(options[i]):
                allowed[cell] = supported[i]
        return allowed


def _sandwich_gaps(size: int, total: int) -> frozenset[int]:
    """How many cells may lie between the 1 and the N of a line of distinct digits for the
    ones between to sum to ``total`` (distinct digits from 2 to N-1).

    >>> sorted(_sandwich_gaps(9, 0)), sorted(_sandwich_gaps(9, 35))
    ([0], [7])
    >>> sorted(_sandwich_gaps(4, 5)), sorted(_sandwich_gaps(4, 4))
    ([2], [])
    """
    sums: list[set[int]] = [{0}] + [set() for _ in range(size)]
    for digit in range(2, size):
        for count in range(size - 2, 0, -1):
            sums[count] |= {s + digit for s in sums[count - 1]}
    return frozenset(count for count, reachable in enumerate(sums) if total in reachable)


@dataclass
class SandwichSpec(Spec):
    """A sandwich sum over a line (``line`` its cells in order, ``known`` the given digits, 0
    for a variable). When the line is one of the puzzle's groups (``distinct``: each digit once,
    as in every row and column of a Sudoku or Latin square), the 1 and the N must stand as far
    apart as some set of distinct middle digits with the sum needs, and once both stand the
    cells between are a sum filtered by bounds; otherwise the rule is checked on full lines only.

    >>> spec = SandwichSpec((0, 1, 2, 3), 5, (0, 1, 2, 3), (0, 0, 0, 0), 4, True)
    >>> spec.filter({0: 1}, {1: [2, 3, 4], 2: [2, 3, 4], 3: [2, 3, 4]})
    {1: {2, 3}, 2: {2, 3}}
    """

    scope: tuple[int, ...]
    total: int
    line: tuple[int, ...]
    known: tuple[int, ...]
    size: int
    distinct: bool
    gaps: frozenset[int] = field(init=False)

    def __post_init__(self) -> None:
        self.gaps = _sandwich_gaps(self.size, self.total)

    def filter(self, assigned: Mapping[int, int], domains: Domains) -> Allowed:
        n = self.size
        digits = [k or assigned.get(cell, 0) for cell, k in zip(self.line, self.known, strict=True)]
        if all(digits):
            return {} if self._full(digits) else None
        if not self.distinct:
            return {}
        one = digits.index(1) if 1 in digits else -1
        top = digits.index(n) if n in digits else -1
        if one >= 0 and top >= 0:
            low, high = sorted((one, top))
            if high - low - 1 not in self.gaps:
                return None
            between = range(low + 1, high)
            placed = sum(digits[i] for i in between if digits[i])
            free = tuple(self.line[i] for i in between if not digits[i])
            if not free:
                return {} if placed == self.total else None
            return SumSpec(free, (1,) * len(free), self.total - placed).filter({}, domains)
        allowed: dict[int, set[int]] = {}
        for digit, other, at in ((1, n, one), (n, 1, top)):
            # where ``digit`` may stand: some place for ``other`` lies at a good distance
            if at >= 0:
                places = [at]
            else:
                places = [
                    i
                    for i, cell in enumerate(self.line)
                    if not digits[i] and digit in domains[cell]
                ]
            partner = [
                i
                for i, cell in enumerate(self.line)
                if digits[i] == other or (not digits[i] and other in domains[cell])
            ]
            good = {p for p in places if any(abs(p - q) - 1 in self.gaps for q in partner)}
            if not good:
                return None
            for p in places:
                if p not in good:
                    cell = self.line[p]
                    allowed.setdefault(cell, set(domains[cell])).discard(digit)
        return allowed

    def _full(self, digits: Sequence[int]) -> bool:
        n = self.size
        if 1 not in digits or n not in digits:
            return False
        low, high = sorted((digits.index(1), digits.index(n)))
        return sum(digits[low + 1 : high]) == self.total


@dataclass
class QuadrupleSpec(Spec):
    """The digits ``needs`` (after the givens) must appear among ``scope``, a digit needed
    twice in two cells. Fails when too few cells are left or a needed digit has too few cells
    that may take it; when the needs fill every cell left, each keeps only needed digits.

    >>> spec = QuadrupleSpec((0, 1, 2), Counter({1: 1, 4: 1}))
    >>> spec.filter({0: 2}, {1: [1, 3, 4], 2: [3, 4]})
    {1: {1, 4}, 2: {4}}
    """

    scope: tuple[int, ...]
    needs: Counter[int]

    def filter(self, assigned: Mapping[int, int], domains: Domains) -> Allowed:
        left = self.needs - Counter(assigned[c] for c in self.scope if c in assigned)
        free = [c for c in self.scope if c not in assigned]
        wanted = sum(left.values())
        if wanted > len(free):
            return None
        for digit, times in left.items():
            if sum(digit in domains[c] for c in free) < times:
                return None
        if wanted and wanted == len(free):
            return {c: set(left) & set(domains[c]) for c in free}
        return {}


@dataclass
class SequenceSpec(Spec):
    """A sequence rule's automaton read along ``line`` (``known`` the given digits, 0 for a
    variable): the states reachable over the digits each cell may still hold, forwards, then
    those from which an accepting end is still reachable, backwards; each unassigned cell keeps
    the digits that lead from a live state to a live one. Exact once every cell is assigned.

    >>> from sudoku_cp.rules import Skyscraper
    >>> spec = SequenceSpec((0, 1, 2), (0, 1, 2), (0, 0, 0), Skyscraper((0, 1, 2), 3).automaton(3))
    >>> spec.filter({}, {0: [1, 2, 3], 1: [1, 2, 3], 2: [1, 2, 3]})
    {0: {1}, 1: {2}, 2: {3}}
    """

    scope: tuple[int, ...]
    line: tuple[int, ...]
    known: tuple[int, ...]
    automaton: Automaton

    def filter(self, assigned: Mapping[int, int], domains: Domains) -> Allowed:
        step = self.automaton.step
        options = _line_options(self.line, self.known, assigned, domains)
        layers: list[set[Any]] = [{self.automaton.start}]
        for digits in options:
            ahead = (step(state, d) for state in layers[-1] for d in digits)
            layers.append({state for state in ahead if state is not None})
        alive = {s for s in layers[-1] if self.automaton.accepts(s)}
        keep: list[set[int]] = [set() for _ in options]
        for i in range(len(options) - 1, -1, -1):
            here = set()
            for state in layers[i]:
                for d in options[i]:
                    if step(state, d) in alive:
                        here.add(state)
                        keep[i].add(d)
            alive = here
        if not alive:
            return None
        allowed: dict[int, set[int]] = {}
        for cell, known, digits, kept in zip(self.line, self.known, options, keep, strict=True):
            if not known and cell not in assigned and len(kept) < len(digits):
                allowed[cell] = kept
        return allowed


def compile_rules(
    puzzle: Puzzle, domains: dict[int, list[int]], givens: str = "pruned"
) -> list[tuple[Rule | Spec, list[int]]] | None:
    """The rule constraints beyond groups, each with the variables it covers, or None when
    the givens already break a rule. Strikes from ``domains`` (in place) the digits the rules
    rule out up front (see the module docstring), to a fixed point.

    A cage with a sum comes back as a :class:`Cage` over its blank cells (with
    ``givens="fixed"`` all its cells), its ``total`` what they must sum to; each of its cells
    keeps only digits of some set of distinct digits with that sum. A pair rule comes back as
    itself, once per pair of variables. Triple, sum, sandwich and quadruple rules come back as
    a :class:`Spec`; a digit rule only filters domains.

    >>> from sudoku_cp.backends.python_constraint import compile_problem
    >>> from sudoku_cp.model import load_model
    >>> from sudoku_cp.rules import Cage, Thermometer
    >>> model = load_model("latin").with_rules(rules=[Cage((0, 1), 3), Thermometer((2, 3))], size=4)
    >>> puzzle = Puzzle([0] * 16, model)
    >>> domains, _ = compile_problem(puzzle)
    >>> [(type(rule).__name__, scope) for rule, scope in compile_rules(puzzle, domains)]
    [('Cage', [0, 1]), ('Thermometer', [2, 3])]
    >>> domains[0], domains[1], domains[2], domains[3]
    ([1, 2], [1, 2], [1, 2, 3], [2, 3, 4])
    """
    n = puzzle.size
    cells = puzzle.cells
    fixed = givens == "fixed"

    def known(cell: int) -> int:
        """The digit of a cell that is no variable (0 for a variable)."""
        return 0 if fixed else cells[cell]

    compiled: list[tuple[Rule | Spec, list[int]]] = []
    specs: list[Spec] = []
    pairs: list[tuple[PairRule, int, int]] = []
    groups = {frozenset(group) for group in puzzle.groups()}
    for rule in puzzle.model.rules:
        if isinstance(rule, Cage):
            if rule.total is None:
                continue  # only a group
            scope = [c for c in rule.cells if not known(c)]
            given = {cells[c] for c in rule.cells if cells[c]}
            sets = [
                combo
                for combo in itertools.combinations(range(1, n + 1), len(rule.cells))
                if sum(combo) == rule.total and given <= set(combo)
            ]
            if not sets:
                return None
            if scope:
                used = set().union(*sets)
                for c in scope:
                    domains[c] = [d for d in domains[c] if d in used]
                rest = rule.total - sum(cells[c] for c in rule.cells if c not in scope)
                compiled.append((Cage(tuple(scope), rest), scope))
        elif isinstance(rule, PairRule):
            for a, b in rule.pairs(n):
                if not (known(a) or known(b)):
                    compiled.append((rule, [a, b]))
                    pairs.append((rule, a, b))
                elif not known(b):
                    domains[b] = [d for d in domains[b] if rule.allows(cells[a], d)]
                elif not known(a):
                    domains[a] = [d for d in domains[a] if rule.allows(d, cells[b])]
                elif not rule.allows(cells[a], cells[b]):
                    return None
        elif isinstance(rule, DigitRule):
            for c in rule.cells:
                if known(c):
                    if not rule.allows(cells[c]):
                        return None
                else:
                    domains[c] = [d for d in domains[c] if rule.allows(d)]
        else:
            specs.extend(_specs(rule, puzzle, known, groups))
    for spec in specs:
        if not spec.scope:  # every cell known: the rule holds or the puzzle has no solution
            if spec.filter({}, {}) is None:
                return None
        else:
            compiled.append((spec, list(spec.scope)))
    live = [spec for spec in specs if spec.scope]
    if not _prune_to_fixpoint(domains, live, pairs):
        return None
    return compiled


def _specs(rule: Rule, puzzle: Puzzle, known: Any, groups: set[frozenset[int]]) -> list[Spec]:
    """The specs of a triple, sum, sandwich or quadruple rule, ``known(cell)`` giving the digit
    of a cell that is no variable."""
    n = puzzle.size
    if isinstance(rule, TripleRule):
        found: list[Spec] = []
        for triple in rule.triples(n):
            digits = (known(triple[0]), known(triple[1]), known(triple[2]))
            scope = tuple(c for c, k in zip(triple, digits, strict=True) if not k)
            found.append(TripleSpec(scope, rule, digits))
        return found
    if isinstance(rule, SumRule):
        terms = rule.terms(n)
        goal = rule.goal - sum(weight * known(c) for c, weight in terms)
        free = [(c, weight) for c, weight in terms if not known(c)]
        return [SumSpec(tuple(c for c, _ in free), tuple(w for _, w in free), goal)]
    if isinstance(rule, Sandwich):
        digits = tuple(known(c) for c in rule.cells)
        scope = tuple(c for c, k in zip(rule.cells, digits, strict=True) if not k)
        distinct = frozenset(rule.cells) in groups
        return [SandwichSpec(scope, rule.total, rule.cells, digits, n, distinct)]
    if isinstance(rule, Quadruple):
        needs = Counter(rule.digits) - Counter(known(c) for c in rule.cells if known(c))
        scope = tuple(c for c in rule.cells if not known(c))
        return [QuadrupleSpec(scope, needs)]
    if isinstance(rule, SequenceRule):
        digits = tuple(known(c) for c in rule.cells)
        scope = tuple(c for c, k in zip(rule.cells, digits, strict=True) if not k)
        return [SequenceSpec(scope, tuple(rule.cells), digits, rule.automaton(n))]
    if type(rule).problems is Rule.problems:
        return []  # nothing beyond its groups (anti-knight, anti-king)
    # a shape this module does not know: never search as if the rule were not there
    raise BackendError(f"backend 'constraint' cannot compile the {rule.title} rule ({rule.key})")


def _line_options(
    cells: Sequence[int], known: Sequence[int], assigned: Mapping[int, int], domains: Domains
) -> list[Sequence[int]]:
    """The digits each place of a rule's line may hold now: its given, its assigned digit, or
    its domain."""
    return [
        (k,) if k else (assigned[c],) if c in assigned else domains[c]
        for c, k in zip(cells, known, strict=True)
    ]


def _prune_to_fixpoint(
    domains: dict[int, list[int]], specs: list[Spec], pairs: list[tuple[PairRule, int, int]]
) -> bool:
    """Filter the domains by every spec and every pair of variables until nothing changes;
    False when a rule can no longer hold (or a cell has no digit left)."""
    for _ in range(FIXPOINT_ROUNDS):
        changed = False
        for spec in specs:
            allowed = spec.filter({}, domains)
            if allowed is None:
                return False
            for cell, keep in allowed.items():
                if len(keep) < len(domains[cell]):
                    domains[cell] = [d for d in domains[cell] if d in keep]
                    changed = True
        for rule, a, b in pairs:
            first = [d for d in domains[a] if any(rule.allows(d, e) for e in domains[b])]
            second = [e for e in domains[b] if any(rule.allows(d, e) for d in first)]
            if len(first) < len(domains[a]) or len(second) < len(domains[b]):
                domains[a], domains[b] = first, second
                changed = True
        if any(not domain for domain in domains.values()):
            return False
        if not changed:
            break
    return True


def spec_constraint(base: type, spec: Spec) -> Any:
    """The library constraint of a spec: broken when the spec's filter says so; with forward
    checking, every unassigned cell loses the digits the filter takes away."""
    filter_ = spec.filter

    class RuleConstraint(base):
        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: Any = False
        ) -> bool:
            allowed = filter_(assignments, domains)
            if allowed is None:
                return False
            if forwardcheck:
                for cell, keep in allowed.items():
                    if not prune(domains[cell], keep.__contains__):
                        return False
            return True

    return RuleConstraint()


def cage_sets(puzzle: Puzzle, cage: Cage) -> list[frozenset[int]]:
    """The digit sets a compiled cage's cells may hold: as many distinct digits as cells,
    summing to what they must sum to (a digit given in the cage is already struck from its
    blank cells' domains, being a digit of their group).

    >>> cage_sets(Puzzle([0] * 16), Cage((0, 1), 5))
    [frozenset({1, 4}), frozenset({2, 3})]
    """
    assert cage.total is not None
    n = puzzle.size
    return [
        frozenset(combo)
        for combo in itertools.combinations(range(1, n + 1), len(cage.cells))
        if sum(combo) == cage.total
    ]


def cage_constraint(base: type, sets: list[frozenset[int]]) -> Any:
    """A cage's sum as the digit sets its cells may hold: the digits placed must all lie in
    one set, and with forward checking every other cell keeps only the digits of the sets
    still possible (less those placed)."""

    class CageSets(base):
        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: Any = False
        ) -> bool:
            placed = [assignments[v] for v in variables if v in assignments]
            if len(set(placed)) < len(placed):
                return False
            live = [s for s in sets if s.issuperset(placed)]
            if not live:
                return False
            if forwardcheck and len(placed) < len(variables):
                allowed = set().union(*live).difference(placed)
                for v in variables:
                    if v not in assignments and not prune(domains[v], allowed.__contains__):
                        return False
            return True

    return CageSets()


def pair_constraint(base: type, rule: PairRule) -> Any:
    """The library constraint of one pair of cells under ``rule``: the pair must be allowed
    (directed: ``allows(digit of the first, digit of the second)``).

    With forward checking, once one cell has a digit the other's domain loses every digit the
    rule does not allow beside it.
    """

    class Pair(base):
        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: Any = False
        ) -> bool:
            a, b = variables
            if a in assignments:
                if b in assignments:
                    return rule.allows(assignments[a], assignments[b])
                if forwardcheck:
                    return prune(domains[b], lambda d: rule.allows(assignments[a], d))
            elif b in assignments and forwardcheck:
                return prune(domains[a], lambda d: rule.allows(d, assignments[b]))
            return True

    return Pair()


def prune(domain: Any, keep: Any) -> bool:
    """Hide the values of ``domain`` that ``keep`` rejects; False when none is left."""
    for value in domain[:]:
        if not keep(value):
            domain.hideValue(value)
            if not domain:
                return False
    return True
