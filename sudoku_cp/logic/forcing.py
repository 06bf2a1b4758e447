"""Forcing nets for variant puzzles: assume a candidate, follow the simple deductions, and
keep what every assumption agrees on.

For a model with rules beyond groups only (classic ratings never see it). A *premise* is a set
of candidates of which exactly one is true: a cell's digits, or a digit's places in a full
group (two to five of them). Each is tried in turn: placed, and the cheap deductions run to
a fixed point on a copy of the grid — naked and hidden singles, locked candidates, and every
rule's own deductions (:mod:`.variants`: digits, pairs, fillings). Then

- a digit whose assumption ends in a contradiction (a cell with no candidate, a full group
  missing a digit, a rule no filling keeps) cannot be there;
- a candidate that every branch of a premise removes cannot be true either (one branch is).

Both hold for every solution, as the deductions followed do. HoDoKu calls such a net of
implications from one premise a *Forcing Net* (its ``Options.java`` rates it Extreme, 700),
and so do we. Each step tries at most :data:`MAX_TRIALS` premises, so its cost is bounded.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board, digits_of
from .steps import Step
from .variants import Unit, board_units, fillings

FORCING_NET = "Forcing Net"
MAX_TRIALS = 400
"""Assumptions one search for a step tries at most (premises of two branches first)."""
MAX_BRANCHES = 5
"""The most branches (a cell's digits, a digit's places in a group) of a premise tried."""
TRIAL_NODES = 1_500
"""The enumeration cap of a rule's fillings inside a trial (lower than a step's own: a trial
runs many; a rule too big to enumerate there deduces nothing in it)."""
CACHE_MAX = 1 << 15
"""Fillings remembered across trials before the memo starts afresh."""


class _Broken(Exception):
    """The premise led to a contradiction (``args[0]`` says where)."""


def _cell_units(board: Board) -> tuple[tuple[int, ...], ...]:
    found = board.memo.get("forcing cell units")
    if found is None:
        units = board_units(board)
        per: list[list[int]] = [[] for _ in range(board.size * board.size)]
        for index, unit in enumerate(units):
            for cell in unit.cells:
                per[cell].append(index)
        found = board.memo["forcing cell units"] = tuple(map(tuple, per))
    return found  # type: ignore[return-value]


def _full_of(board: Board) -> tuple[tuple[int, ...], ...]:
    found = board.memo.get("forcing full groups")
    if found is None:
        per: list[list[int]] = [[] for _ in range(board.size * board.size)]
        for index, group in enumerate(board.groups):
            if len(group) == board.size:
                for cell in group:
                    per[cell].append(index)
        found = board.memo["forcing full groups"] = tuple(map(tuple, per))
    return found  # type: ignore[return-value]


def propagate(board: Board, cell: int, digit: int) -> tuple[list[int], list[str]]:
    """The candidates after placing ``digit`` in ``cell`` and following the simple
    deductions, and the placements made (in order); raises :class:`_Broken`."""
    cands = list(board.candidates)
    values = list(board.values)
    labels = board.puzzle.model.group_labels(board.size)
    trail: list[str] = []
    dirty: set[int] = set()
    pending = [(cell, digit)]
    try:
        _follow(board, pending, cands, values, dirty, trail, labels)
    except _Broken as broken:
        steps = ", ".join(trail[1:7]) + (" …" if len(trail) > 7 else "")
        raise _Broken(f"{steps}: {broken.args[0]}" if steps else broken.args[0]) from None
    return cands, trail


Broken = _Broken
"""The contradiction :func:`implications` raises (its argument says where)."""


def implications(board: Board, cell: int, digit: int, true: bool) -> tuple[list[int], list[str]]:
    """:func:`propagate` from a premise that is a placement (``true``) or an elimination:
    the candidates after it and the placements it led to; raises :data:`Broken`."""
    if true:
        return propagate(board, cell, digit)
    cands = list(board.candidates)
    values = list(board.values)
    cands[cell] &= ~(1 << (digit - 1))
    trail: list[str] = []
    labels = board.puzzle.model.group_labels(board.size)
    try:
        _follow(board, [], cands, values, {cell}, trail, labels)
    except _Broken as broken:
        steps = ", ".join(trail[:6]) + (" …" if len(trail) > 6 else "")
        raise _Broken(f"{steps}: {broken.args[0]}" if steps else broken.args[0]) from None
    return cands, trail


def _follow(
    board: Board,
    pending: list[tuple[int, int]],
    cands: list[int],
    values: list[int],
    dirty: set[int],
    trail: list[str],
    labels: tuple[str, ...],
) -> None:
    """:func:`propagate`'s fixed point, on ``cands`` and ``values`` in place."""
    name = board.name
    peers, groups = board.peers, board.groups
    units = board_units(board)
    cell_units = _cell_units(board)
    full_of = _full_of(board)
    cache = board.memo.setdefault("forcing fillings", {})
    assert isinstance(cache, dict)

    def place(c: int, d: int) -> None:
        bit = 1 << (d - 1)
        if values[c]:
            if values[c] != d:
                raise _Broken(f"{name(c)} would hold {values[c]} and {d}")
            return
        if not cands[c] & bit:
            raise _Broken(f"{name(c)} would hold {d}, which it cannot")
        values[c] = d
        cands[c] = bit
        trail.append(f"{name(c)}={d}")
        dirty.add(c)
        for p in peers[c]:
            if cands[p] & bit:
                if values[p]:
                    raise _Broken(f"{name(p)} and {name(c)} would both hold {d}")
                cands[p] &= ~bit
                dirty.add(p)
                if not cands[p]:
                    raise _Broken(f"{name(p)} would have no candidate")

    while pending or dirty:
        while pending:
            place(*pending.pop())
        if not dirty:
            break
        changed, dirty = dirty, set()
        # naked singles
        for c in changed:
            if not values[c] and cands[c] & (cands[c] - 1) == 0:
                if not cands[c]:
                    raise _Broken(f"{name(c)} would have no candidate")
                pending.append((c, cands[c].bit_length()))
        # hidden singles (and missing digits) in the full groups that changed
        seen: set[int] = set()
        for c in changed:
            for g in full_of[c]:
                if g in seen:
                    continue
                seen.add(g)
                once = more = 0
                for member in groups[g]:
                    m = cands[member]
                    more |= once & m
                    once |= m
                if once != board.all_digits:
                    missing = digits_of(board.all_digits & ~once)[0]
                    raise _Broken(f"{labels[g]} would have no place for {missing}")
                for d in digits_of(once & ~more):
                    bit = 1 << (d - 1)
                    at = next(member for member in groups[g] if cands[member] & bit)
                    if not values[at]:
                        pending.append((at, d))
        if pending:
            continue
        # locked candidates: a digit's places in a changed full group all in another full group
        for g in seen:
            for d in range(1, board.size + 1):
                bit = 1 << (d - 1)
                places = [m for m in groups[g] if cands[m] & bit and not values[m]]
                if not 2 <= len(places) <= 3:
                    continue
                shared = set(full_of[places[0]]).intersection(*(full_of[m] for m in places[1:]))
                for other in shared - {g}:
                    for m in groups[other]:
                        if cands[m] & bit and m not in places and not values[m]:
                            cands[m] &= ~bit
                            dirty.add(m)
                            if not cands[m]:
                                raise _Broken(f"{name(m)} would have no candidate")
        # the rules of the cells that changed
        woken = sorted({u for c in changed for u in cell_units[c]})
        for index in woken:
            _rule(units[index], cands, values, dirty, cache, name)


def _rule(
    unit: Unit,
    cands: list[int],
    values: list[int],
    dirty: set[int],
    cache: dict[object, object],
    name: object,
) -> None:
    """One unit's eliminations on the trial grid."""
    if unit.kind == "digits":
        support: Sequence[int] = [unit.allowed] * len(unit.cells)
    elif unit.kind == "arcs":
        for a, b, ahead, back in unit.arcs:
            for me, other, table in ((a, b, ahead), (b, a, back)):
                theirs = cands[other]
                keep = 0
                for d in digits_of(cands[me]):
                    if table[d - 1] & theirs:
                        keep |= 1 << (d - 1)
                if keep != cands[me]:
                    if not keep:
                        raise _Broken(f"{unit.name} would leave no digit in a cell")
                    cands[me] = keep
                    dirty.add(me)
        return
    else:
        masks = [cands[c] for c in unit.cells]
        key = (id(unit), tuple(masks))
        found = cache.get(key)
        if found is None:
            if len(cache) >= CACHE_MAX:
                cache.clear()
            found = cache[key] = fillings(unit, masks, TRIAL_NODES) or False
        if found is False:
            return  # too big to enumerate: nothing deduced
        support = found  # type: ignore[assignment]
        if not any(support):
            raise _Broken(f"{unit.name} would have no filling")
    for c, kept in zip(unit.cells, support, strict=True):
        if cands[c] & ~kept:
            cands[c] &= kept
            if not cands[c]:
                raise _Broken(f"{unit.name} would leave no digit in a cell")
            dirty.add(c)


def _premises(board: Board) -> list[tuple[str, list[tuple[int, int]]]]:
    """Sets of candidates of which exactly one is true, fewest first: a cell's digits, and a
    digit's places in a full group (two to :data:`MAX_BRANCHES` of them)."""
    out: list[tuple[int, int, str, list[tuple[int, int]]]] = []
    values, cands, size = board.values, board.candidates, board.size
    for c in range(size * size):
        if not values[c] and 2 <= cands[c].bit_count() <= MAX_BRANCHES:
            digits = digits_of(cands[c])
            out.append((len(digits), 0, f"whichever of {', '.join(map(str, digits))} "
                        f"{board.name(c)} holds", [(c, d) for d in digits]))  # fmt: skip
    for group in board.groups:
        if len(group) != size:
            continue
        for d in range(1, size + 1):
            bit = 1 << (d - 1)
            places = [c for c in group if not values[c] and cands[c] & bit]
            if 2 <= len(places) <= MAX_BRANCHES and not any(values[c] == d for c in group):
                where = ", ".join(board.name(c) for c in places)
                out.append((len(places), 1, f"wherever the {d} of {{{where}}} is",
                            [(c, d) for c in places]))  # fmt: skip
    out.sort(key=lambda item: (item[0], item[1]))
    return [(text, branches) for _, _, text, branches in out]


def forcing_net(board: Board) -> Step | None:
    """The first premise (fewest branches first) whose branches' nets prove something: a
    branch that contradicts itself goes; what every branch removes goes."""
    trials = 0
    tried: dict[tuple[int, int], list[int] | None] = {}
    for text, branches in _premises(board):
        if trials + len(branches) > MAX_TRIALS:
            break
        results: list[list[int]] = []
        for cell, digit in branches:
            if (cell, digit) not in tried:
                trials += 1
                try:
                    tried[(cell, digit)] = propagate(board, cell, digit)[0]
                except _Broken as broken:
                    return board.step(
                        FORCING_NET,
                        f"{board.name(cell)} cannot be {digit}: if it were, singles, locked "
                        f"candidates and the rules' deductions would lead to a contradiction "
                        f"({broken.args[0]})",
                        eliminations=[(cell, digit)],
                        proof=[b for b in branches if b != (cell, digit)],
                        cells=sorted({c for c, _ in branches}),
                    )
            found = tried[(cell, digit)]
            assert found is not None
            results.append(found)
        common = [
            (c, d)
            for c in range(board.size * board.size)
            if not board.values[c]
            for d in digits_of(board.candidates[c])
            if (c, d) not in branches and all(not r[c] >> (d - 1) & 1 for r in results)
        ]
        if common:
            listed = ", ".join(f"{board.name(c)}≠{d}" for c, d in common[:8])
            return board.step(
                FORCING_NET,
                f"{text}, singles, locked candidates and the rules' deductions remove {listed}"
                + (" …" if len(common) > 8 else ""),
                eliminations=common,
                proof=branches,
                cells=sorted({c for c, _ in branches}),
            )
    return None
