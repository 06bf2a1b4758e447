"""Deductions of the rules beyond groups (variant Sudoku), one kind of reasoning per rule shape.

Every rule contributes candidate eliminations on the same candidate grid as the group
techniques, each with a reason a person can read. The rules are read by their *shape*
(:mod:`sudoku_cp.rules.base`), never by their checker, and this module has its own code (the
logic backend imports no other backend):

- **Rule Digits** (digit rules: odd, even, given pencil marks): a cell loses the digits the
  rule does not allow in it.
- **Rule Pairs** (pair rules: dots, XV, non-consecutive, indexers, clones …): a cell loses a
  digit that no candidate of a partner allows beside it (arc consistency); two cells of one
  group never hold the same digit, which the relation of their pair also reads.
- **Rule Combinations** (everything with more cells: thermometers, whispers, renban and other
  lines, cages and other sums, between and lockout lines, quadruples, sandwiches, skyscrapers,
  X-sums, digit-root cages): every way of filling the rule's cells from their candidates is
  enumerated (cells of one group different, the rule's own relation read as an automaton over
  the cells in order: the running sum, the automaton of a sequence rule, the digits a
  quadruple still needs …); a candidate that is part of no such filling goes. This is the
  classic killer-combination reasoning, generalised: a 15-cage of two cells keeps 6 … 9, and
  after a 9 goes elsewhere in its box also loses the 6 that would need it.
- **Rule Contains**: a digit every filling of a rule's cells holds (a cage 1+2 must hold 1)
  is somewhere in those cells, so a cell outside them that sees every place of that digit in
  them cannot hold it (the pointing of locked candidates, with a rule in place of a box).

Each is sound for every solution: a filling that a solution makes is never ruled out, so a
step never removes a digit a solution holds (a fuzz test checks every step of the bundled
variant sets against their published solutions). An enumeration too large to finish (more
than :data:`MAX_NODES` partial fillings) deduces nothing rather than guess; a pair rule
joining too many cells (non-consecutive joins the whole grid) is read pair by pair.

Scores are our own scale (docs/logic-variants.md), placed among HoDoKu's: Rule Digits is as
easy as a single, Rule Pairs and Rule Combinations are Medium, Rule Contains is scored like
locked candidates.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ..errors import SudokuError
from .board import Board, cell_name, digits_of
from .steps import Candidate, Step

if TYPE_CHECKING:
    from ..model import Model
    from ..rules import Rule

MAX_NODES = 20_000
"""Partial fillings one enumeration may look at before it gives up (and deduces nothing)."""
MAX_COMPONENT = 12
"""The most cells of a pair or triple rule's connected cells enumerated together; more are
read pair by pair (arc consistency) or triple by triple."""

RULE_DIGITS = "Rule Digits"
RULE_PAIRS = "Rule Pairs"
RULE_COMBINATIONS = "Rule Combinations"
RULE_CONTAINS = "Rule Contains"

Step_ = Callable[[int, Hashable, int], Hashable | None]


class _TooBig(Exception):
    """An enumeration passed :data:`MAX_NODES`."""


@dataclass(frozen=True)
class Unit:
    """One piece of a rule the techniques read: its cells and how to check a filling."""

    rule: Rule
    name: str
    """The rule for people (``the killer cage at r1c1 (sum 15)``)."""
    cells: tuple[int, ...]
    kind: str
    """``digits``, ``arcs`` (pair by pair), ``fill`` (enumerated)."""
    allowed: int = 0
    """digits: the mask of the digits the rule allows."""
    arcs: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...] = ()
    """arcs: ``(a, b, ahead, back)``: per digit of a (index d - 1) the mask of b's digits
    allowed beside it, and per digit of b those of a."""
    checks: tuple[tuple[tuple[tuple[int, ...], Callable[..., bool]], ...], ...] = ()
    """fill: per position, the checks whose last position it is (positions, predicate)."""
    peers_before: tuple[tuple[int, ...], ...] = ()
    """fill: per position, the earlier positions in one group with it (different digits)."""
    keep: tuple[tuple[int, ...], ...] = ()
    """fill: per position i, the earlier positions whose digit a check at i or later reads."""
    clique: bool = False
    """fill: the cells are all in one group and nothing else reads earlier digits, so the set
    of digits used so far is all a partial filling's future depends on."""
    automaton: Callable[[list[int]], tuple[Hashable, Step_, Callable[[Hashable], bool]]] | None = (
        None
    )
    """fill: from the cells' candidate masks, the start state, the step ``(position, state,
    digit) -> state or None`` and the accepting test; None: every filling passing the checks."""


def rule_name(rule: Rule, size: int) -> str:
    """How steps name a rule: its own description (cages add their sum)."""
    from ..rules import Cage, DigitRule

    if isinstance(rule, Cage):
        at = cell_name(min(rule.cells), size)
        if rule.total is None:
            return f"the killer cage at {at}"
        return f"the {rule.total}-cage at {at}"
    if isinstance(rule, DigitRule):
        return f"the {rule.title} cells"
    describe = getattr(rule, "describe", None)
    return describe(size) if describe is not None else f"the {rule.title}"


def check_shapes(rules: Sequence[Rule]) -> None:
    """Raise SudokuError for a rule of a shape the logic solver does not read."""
    from ..rules import (
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

    shapes = (Cage, DigitRule, PairRule, Quadruple, Sandwich, SequenceRule, SumRule, TripleRule)
    for rule in rules:
        if not isinstance(rule, shapes) and type(rule).groups is Rule.groups:
            raise SudokuError(
                f"the logic solver does not reason about the {rule.title} rule ({rule.key})"
            )


# --- building the units of a model, once per layout ------------------------------------------
@functools.lru_cache(maxsize=32)
def units_of(model: Model, size: int) -> tuple[Unit, ...]:
    """The units of every rule of ``model`` at ``size``, in the rules' order."""
    peers = [frozenset(p) for p in model.peers(size)]
    out: list[Unit] = []
    for rule in model.rules:
        out.extend(_units(rule, size, peers))
    out.extend(_innies_and_outies(model, size, peers))
    return tuple(out)


MAX_REST = 5
"""The most cells an innie or outie sum is read over."""


def _innies_and_outies(model: Model, size: int, peers: list[frozenset[int]]) -> list[Unit]:
    """The killer solver's 45 rule: a full group's digits sum to 1 + … + N, so the cells of
    the group outside the cages inside it (the *innies*) sum to that minus their totals, and
    the cells of the cages reaching into it that lie outside it (the *outies*) to their totals
    minus it — each a sum unit of its own when it has at most :data:`MAX_REST` cells."""
    from ..rules import Cage

    cages = [r for r in model.rules if isinstance(r, Cage) and r.total is not None]
    if not cages:
        return []
    labels = model.group_labels(size)
    whole = size * (size + 1) // 2
    out: list[Unit] = []
    for group, label in zip(model.groups(size), labels, strict=True):
        if len(group) != size:
            continue
        cells = set(group)
        inside = [c for c in cages if set(c.cells) <= cells]
        reaching = [c for c in cages if set(c.cells) & cells]
        covered = [cell for c in inside for cell in c.cells]
        if inside and len(covered) == len(set(covered)):
            rest = [c for c in group if c not in set(covered)]
            if 0 < len(rest) <= MAX_REST:
                total = whole - sum(c.total or 0 for c in inside)
                name = f"the innies of {label} (the cells outside its cages sum to {total})"
                out.append(_sum_unit(inside[0], name, rest, [1] * len(rest), total, peers, size))
        spread = [cell for c in reaching for cell in c.cells]
        if reaching != inside and len(spread) == len(set(spread)) and cells <= set(spread):
            rest = [c for c in spread if c not in cells]
            if 0 < len(rest) <= MAX_REST:
                total = sum(c.total or 0 for c in reaching) - whole
                name = f"the outies of {label} (its cages' cells outside it sum to {total})"
                out.append(_sum_unit(reaching[0], name, rest, [1] * len(rest), total, peers, size))
    return out


def _sum_unit(
    rule: Rule,
    name: str,
    cells: Sequence[int],
    weights: Sequence[int],
    goal: int,
    peers: list[frozenset[int]],
    size: int,
) -> Unit:
    return _fill_unit(rule, name, cells, [], peers, _sum_automaton(weights, goal, size))


def _units(rule: Rule, size: int, peers: list[frozenset[int]]) -> list[Unit]:
    from ..rules import (
        Cage,
        DigitRule,
        PairRule,
        Quadruple,
        Sandwich,
        SequenceRule,
        SumRule,
        TripleRule,
    )

    name = rule_name(rule, size)
    if isinstance(rule, DigitRule):
        allowed = sum(1 << (d - 1) for d in range(1, size + 1) if rule.allows(d))
        return [Unit(rule, name, tuple(rule.cells), "digits", allowed=allowed)]
    if isinstance(rule, PairRule):
        table = {
            (a, b) for a in range(1, size + 1) for b in range(1, size + 1) if rule.allows(a, b)
        }
        pairs = [tuple(p) for p in rule.pairs(size)]
        units = []
        for component in _components(pairs):
            inside = [p for p in pairs if p[0] in component]
            # pair by pair first (cheap, and all there is for a big piece), then whole pieces
            if len(component) > 2:
                units.append(_arc_unit(rule, name, component, inside, table, peers, size))
            if len(component) <= MAX_COMPONENT:
                checks = [((a, b), _pair_check(table)) for a, b in inside]
                units.append(_fill_unit(rule, name, component, checks, peers, None))
        return units
    if isinstance(rule, TripleRule):
        triples = [tuple(t) for t in rule.triples(size)]
        units = []
        for component in _components(triples):
            inside = [t for t in triples if t[0] in component]
            for part in (
                [component] if len(component) <= MAX_COMPONENT else [list(t) for t in inside]
            ):
                held: list[tuple[tuple[int, ...], Callable[..., bool]]] = [
                    (t, rule.allows) for t in inside if set(t) <= set(part)
                ]
                units.append(_fill_unit(rule, name, part, held, peers, None))
        return units
    if isinstance(rule, Cage):
        if rule.total is None:
            return []  # only its group, which the group techniques read
        cells = list(rule.cells)
        return [
            _fill_unit(
                rule, name, cells, [], peers, _sum_automaton([1] * len(cells), rule.total, size)
            )
        ]
    if isinstance(rule, SumRule):
        weights: dict[int, int] = {}
        for cell, weight in rule.terms(size):
            weights[cell] = weights.get(cell, 0) + weight
        cells = [c for c in weights if weights[c]]
        automaton = _sum_automaton([weights[c] for c in cells], rule.goal, size)
        return [_fill_unit(rule, name, cells, [], peers, automaton)]
    if isinstance(rule, SequenceRule):
        return [
            _fill_unit(rule, name, list(rule.cells), [], peers, _sequence_automaton(rule, size))
        ]
    if isinstance(rule, Sandwich):
        cells = list(rule.cells)
        if not all(b in peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :]):
            return []  # a line that may repeat a 1: its "between" is not read here (no steps)
        return [_fill_unit(rule, name, cells, [], peers, _sandwich_automaton(rule.total, size))]
    if isinstance(rule, Quadruple):
        cells = list(rule.cells)
        return [
            _fill_unit(rule, name, cells, [], peers, _quadruple_automaton(rule.digits, len(cells)))
        ]
    return []  # a rule that is only its groups (anti-knight, anti-king)


def _components(tuples: Sequence[tuple[int, ...]]) -> list[list[int]]:
    """The connected sets of cells the tuples join, each in order of first appearance."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    order: list[int] = []
    for t in tuples:
        for cell in t:
            if cell not in parent:
                order.append(cell)
            find(cell)
        for cell in t[1:]:
            parent[find(cell)] = find(t[0])
    groups: dict[int, list[int]] = {}
    for cell in order:
        groups.setdefault(find(cell), []).append(cell)
    return list(groups.values())


def _pair_check(table: set[tuple[int, int]]) -> Callable[..., bool]:
    return lambda a, b: (a, b) in table


def _fill_unit(
    rule: Rule,
    name: str,
    cells: Sequence[int],
    checks: Sequence[tuple[tuple[int, ...], Callable[..., bool]]],
    peers: list[frozenset[int]],
    automaton: Any,
) -> Unit:
    cells = tuple(cells)
    where = {cell: i for i, cell in enumerate(cells)}
    n = len(cells)
    per_position: list[list[tuple[tuple[int, ...], Callable[..., bool]]]] = [[] for _ in range(n)]
    for tuple_cells, predicate in checks:
        positions = tuple(where[c] for c in tuple_cells)
        per_position[max(positions)].append((positions, predicate))
    peers_before = tuple(
        tuple(j for j in range(i) if cells[j] in peers[cells[i]]) for i in range(n)
    )
    # the last position reading each position's digit (a check or a group partner)
    last = list(range(n))
    for i in range(n):
        for j in peers_before[i]:
            last[j] = max(last[j], i)
        for positions, _ in per_position[i]:
            for j in positions:
                last[j] = max(last[j], i)
    keep = tuple(tuple(j for j in range(i) if last[j] >= i) for i in range(n + 1))
    return Unit(
        rule,
        name,
        cells,
        "fill",
        checks=tuple(tuple(p) for p in per_position),
        peers_before=peers_before,
        keep=keep,
        clique=not checks and all(len(p) == i for i, p in enumerate(peers_before)),
        automaton=automaton,
    )


def _arc_unit(
    rule: Rule,
    name: str,
    cells: Sequence[int],
    pairs: Sequence[tuple[int, ...]],
    table: set[tuple[int, int]],
    peers: list[frozenset[int]],
    size: int,
) -> Unit:
    arcs = []
    digits = range(1, size + 1)
    for a, b in pairs:
        same = b in peers[a]  # one group: never the same digit

        def ok(x: int, y: int, same: bool = same) -> bool:
            return (x, y) in table and not (same and x == y)

        ahead = tuple(sum(1 << (y - 1) for y in digits if ok(x, y)) for x in digits)
        back = tuple(sum(1 << (x - 1) for x in digits if ok(x, y)) for y in digits)
        arcs.append((a, b, ahead, back))
    return Unit(rule, name, tuple(cells), "arcs", arcs=tuple(arcs))


# --- each shape's relation as an automaton over the cells in order ----------------------------
def _sum_automaton(weights: Sequence[int], goal: int, size: int) -> Any:
    """The running weighted sum; a partial sum the remaining cells' candidates cannot bring to
    ``goal`` is cut (their bounds, digits allowed to repeat: loose but never wrong)."""

    def build(masks: list[int]) -> tuple[Hashable, Step_, Callable[[Hashable], bool]]:
        n = len(masks)
        low = [0] * (n + 1)
        high = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            ds = digits_of(masks[i]) or [0]
            w = weights[i]
            values = (w * ds[0], w * ds[-1])
            low[i] = low[i + 1] + min(values)
            high[i] = high[i + 1] + max(values)

        def step(i: int, state: Hashable, digit: int) -> Hashable | None:
            total = state + weights[i] * digit  # type: ignore[operator]
            left = goal - total
            return total if low[i + 1] <= left <= high[i + 1] else None

        return 0, step, lambda state: state == goal

    return build


def _sequence_automaton(rule: Any, size: int) -> Any:
    machine = rule.automaton(size)

    def build(masks: list[int]) -> tuple[Hashable, Step_, Callable[[Hashable], bool]]:
        return machine.start, lambda i, state, digit: machine.step(state, digit), machine.accepts

    return build


def _sandwich_automaton(total: int, size: int) -> Any:
    """Before the first of 1 and N (phase 0), between them adding up (phase 1, the sum so far),
    after the second (phase 2, the sum made). Only for a line that is a group (each digit once)."""

    def step(i: int, state: Hashable, digit: int) -> Hashable | None:
        phase, got = cast(tuple[int, int], state)
        edge = digit in (1, size)
        if phase == 0:
            return (1, 0) if edge else state
        if phase == 1:
            if edge:
                return (2, 0) if got == total else None
            return (1, got + digit) if got + digit <= total else None
        return None if edge else state

    def build(masks: list[int]) -> tuple[Hashable, Step_, Callable[[Hashable], bool]]:
        return (0, 0), step, lambda state: cast(tuple[int, int], state)[0] == 2

    return build


def _quadruple_automaton(digits: Sequence[int], cells: int) -> Any:
    """The listed digits still missing (sorted); cut when more are missing than cells left."""

    def step(i: int, state: Hashable, digit: int) -> Hashable | None:
        missing = list(state)  # type: ignore[call-overload]
        if digit in missing:
            missing.remove(digit)
        return tuple(missing) if len(missing) <= cells - i - 1 else None

    def build(masks: list[int]) -> tuple[Hashable, Step_, Callable[[Hashable], bool]]:
        return tuple(sorted(digits)), step, lambda state: not state

    return build


# --- the enumeration ---------------------------------------------------------------------------
def fillings(unit: Unit, masks: list[int], limit: int = MAX_NODES) -> list[int] | None:
    """Per cell of ``unit``, the mask of its digits that are part of some filling of the
    unit's cells from ``masks`` keeping the rule (all zero: none keeps it); None when the
    enumeration passed ``limit`` partial fillings."""
    n = len(unit.cells)
    if unit.automaton is not None:
        start, step, accepts = unit.automaton(masks)
    else:
        start, step, accepts = 0, (lambda i, state, digit: state), (lambda state: True)
    support = [0] * n
    memo: dict[tuple[Any, ...], bool] = {}
    prefix: list[int] = []
    nodes = 0
    checks, peers_before, keep, clique = unit.checks, unit.peers_before, unit.keep, unit.clique

    def viable(i: int, state: Hashable) -> bool:
        nonlocal nodes
        if i == n:
            return bool(accepts(state))
        if clique:
            used = 0
            for digit in prefix:
                used |= 1 << (digit - 1)
            key: tuple[Any, ...] = (i, state, used)
        else:
            key = (i, state, *(prefix[j] for j in keep[i]))
        found = memo.get(key)
        if found is not None:
            return found
        nodes += 1
        if nodes > limit:
            raise _TooBig
        mask = masks[i]
        for j in peers_before[i]:
            mask &= ~(1 << (prefix[j] - 1))
        ok = False
        for digit in digits_of(mask):
            following = step(i, state, digit)
            if following is None:
                continue
            prefix.append(digit)
            if all(pred(*(prefix[j] for j in pos)) for pos, pred in checks[i]) and viable(
                i + 1, following
            ):
                ok = True
                support[i] |= 1 << (digit - 1)
            prefix.pop()
        memo[key] = ok
        return ok

    try:
        viable(0, start)
    except _TooBig:
        return None
    return support


def _masks(board: Board, cells: Sequence[int]) -> list[int]:
    return [board.candidates[c] for c in cells]


def cached_fillings(board: Board, unit: Unit, masks: list[int]) -> list[int] | None:
    key = ("fill", id(unit), tuple(masks))
    memo = board.memo
    if key not in memo:
        memo[key] = fillings(unit, masks)
    return memo[key]  # type: ignore[return-value]


# --- the techniques --------------------------------------------------------------------------
def board_units(board: Board) -> tuple[Unit, ...]:
    found = board.memo.get("variant units")
    if found is None:
        found = board.memo["variant units"] = units_of(board.puzzle.model, board.size)
    return found  # type: ignore[return-value]


def _listing(board: Board, eliminations: Sequence[Candidate]) -> str:
    """``r3c4 cannot be 9, r3c5 cannot be 1 or 2``."""
    by_cell: dict[int, list[int]] = {}
    for cell, digit in sorted(eliminations):
        by_cell.setdefault(cell, []).append(digit)
    parts = []
    for cell, ds in by_cell.items():
        words = ", ".join(map(str, ds[:-1])) + (" or " if len(ds) > 1 else "") + str(ds[-1])
        parts.append(f"{board.name(cell)} cannot be {words}")
    return ", ".join(parts)


def rule_digits(board: Board) -> Step | None:
    """A cell of a digit rule loses the digits the rule does not allow."""
    for unit in board_units(board):
        if unit.kind != "digits":
            continue
        out = [
            (c, d)
            for c in unit.cells
            if not board.values[c]
            for d in digits_of(board.candidates[c] & ~unit.allowed)
        ]
        if out:
            allowed = ", ".join(map(str, digits_of(unit.allowed)))
            return board.step(
                RULE_DIGITS,
                f"{_listing(board, out)}: {unit.name} hold only {allowed}",
                eliminations=out,
                cells=sorted({c for c, _ in out}),
                rule=unit.rule.key,
            )
    return None


def rule_pairs(board: Board) -> Step | None:
    """Arc consistency of pair rules: a digit no candidate of a partner allows goes. Two-cell
    pieces are read here too (their enumeration is the same thing)."""
    candidates, values = board.candidates, board.values
    for unit in board_units(board):
        if unit.kind == "arcs":
            out: dict[Candidate, int] = {}
            for a, b, ahead, back in unit.arcs:
                for me, other, table in ((a, b, ahead), (b, a, back)):
                    if values[me]:
                        continue
                    theirs = candidates[other]
                    for d in digits_of(candidates[me]):
                        if not table[d - 1] & theirs:
                            out.setdefault((me, d), other)
            if out:
                why = "; ".join(
                    f"{board.name(c)}={d} leaves {board.name(o)} nothing"
                    for (c, d), o in list(sorted(out.items()))[:6]
                ) + ("; …" if len(out) > 6 else "")
                return board.step(
                    RULE_PAIRS,
                    f"{_listing(board, list(out))}: {unit.name} allows no digit beside them "
                    f"({why})",
                    eliminations=list(out),
                    proof=[(o, d) for o in set(out.values()) for d in digits_of(candidates[o])],
                    cells=sorted({c for c, _ in out} | set(out.values())),
                    rule=unit.rule.key,
                )
        elif unit.kind == "fill" and _pairwise(unit):
            step = _fill_step(board, unit, RULE_PAIRS)
            if step is not None:
                return step
    return None


def _pairwise(unit: Unit) -> bool:
    """A two-cell piece of a pair rule: its filling is arc consistency, a Rule Pairs step."""
    from ..rules import PairRule

    return len(unit.cells) == 2 and isinstance(unit.rule, PairRule)


def rule_combinations(board: Board) -> Step | None:
    """A candidate in no filling of a rule's cells (its cells different where they share a
    group, the rule kept) goes."""
    for unit in board_units(board):
        if unit.kind == "fill" and not _pairwise(unit):
            step = _fill_step(board, unit, RULE_COMBINATIONS)
            if step is not None:
                return step
    return None


def _fill_step(board: Board, unit: Unit, technique: str) -> Step | None:
    masks = _masks(board, unit.cells)
    support = cached_fillings(board, unit, masks)
    if support is None:
        return None
    out = [
        (c, d)
        for c, mask, kept in zip(unit.cells, masks, support, strict=True)
        if not board.values[c] or not kept
        for d in digits_of(mask & ~kept)
    ]
    if not out:
        return None
    cells = " ".join(board.name(c) for c in unit.cells)
    if not any(support):
        text = f"{unit.name} ({cells}): no filling from the candidates left keeps the rule"
        out = [(c, d) for c, mask in zip(unit.cells, masks, strict=True) for d in digits_of(mask)]
    else:
        kept_text = ", ".join(
            f"{board.name(c)} {''.join(map(str, digits_of(k)))}"
            for c, k in zip(unit.cells, support, strict=True)
            if not board.values[c]
        )
        text = (
            f"{_listing(board, out)}: {unit.name} ({cells}) has no filling from the candidates "
            f"left that keeps its rule with them (those that do: {kept_text})"
        )
    proof = [
        (c, d)
        for c, k in zip(unit.cells, support, strict=True)
        if not board.values[c]
        for d in digits_of(k)
    ]
    return board.step(
        technique, text, eliminations=out, proof=proof, cells=unit.cells, rule=unit.rule.key
    )


def rule_contains(board: Board) -> Step | None:
    """A digit every filling of a rule's cells holds is in those cells: a cell outside them
    that sees each of its places there loses it."""
    peer_sets = board.peer_sets
    for unit in board_units(board):
        if unit.kind != "fill" or len(unit.cells) < 2:
            continue
        masks = _masks(board, unit.cells)
        support = cached_fillings(board, unit, masks)
        if support is None or not all(support):
            continue
        inside = set(unit.cells)
        union = 0
        for kept in support:
            union |= kept
        for digit in digits_of(union):
            bit = 1 << (digit - 1)
            places = [c for c, kept in zip(unit.cells, support, strict=True) if kept & bit]
            if any(board.values[c] == digit for c in places):
                continue  # placed already: its peers lost it with the placement
            seeing = functools.reduce(frozenset.intersection, (peer_sets[c] for c in places))
            targets = [c for c in seeing if c not in inside and board.has(c, digit)]
            if not targets:
                continue
            key = ("contains", id(unit), tuple(masks), digit)
            if key not in board.memo:
                without = fillings(unit, [m & ~bit for m in masks])
                board.memo[key] = without is not None and not any(without)
            if not board.memo[key]:
                continue
            out = [(c, digit) for c in sorted(targets)]
            return board.step(
                RULE_CONTAINS,
                f"{_listing(board, out)}: every filling of {unit.name} "
                f"({' '.join(board.name(c) for c in unit.cells)}) holds a {digit}, in "
                f"{', '.join(board.name(c) for c in places)}, and they see all of those",
                eliminations=out,
                proof=[(c, digit) for c in places],
                cells=unit.cells,
                rule=unit.rule.key,
            )
    return None
