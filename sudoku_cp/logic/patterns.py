"""Single-digit patterns: Skyscraper, 2-String Kite, Empty Rectangle, Simple and Multi-Colors.

Also the small tables the wings, chains and uniqueness modules share (``tables``, ``places``,
``conjugates``), since the others import from here.

A *strong link* on digit d is a full group (as many cells as the grid has digits, so it must
hold d) where d has exactly two places: one of them is d. A *weak link* joins two candidates
that cannot both be true: the same digit in two peer cells (``Board.peers``), or two digits of
one cell. Every technique here is an alternating chain of such links, which is why each is sound
for any model whose rules are all-different groups; what the names add is the *shape*, and the
shape is judged by geometry: a *line* is a group whose cells share one row or one column, a
*box* any other full group (a box, a jigsaw region, a window, a diagonal).

Names as HoDoKu spells them (``SolutionType``/``intl/SolutionType.properties`` of hobiwan's
HoDoKu: "Skyscraper", "2-String Kite", "Empty Rectangle", "Simple Colors Trap", "Simple Colors
Wrap", "Multi-Colors 1", "Multi-Colors 2").
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from .board import Board, Technique, technique
from .steps import Candidate, Link, Step

ROW, COLUMN, OTHER = 0, 1, 2


@dataclass(frozen=True)
class Tables:
    """What the techniques need of a board's structure (not of its candidates)."""

    full: tuple[int, ...]
    """Indices of the groups with as many cells as digits (each must hold every digit)."""
    kind: tuple[int, ...]
    """ROW, COLUMN or OTHER for each group, by its cells' geometry."""
    peer_mask: tuple[int, ...]
    """For each cell, a bit mask of its peers (bit ``c`` for cell ``c``)."""
    full_groups_of: tuple[tuple[int, ...], ...]
    """For each cell, the full groups it is in."""
    group_mask: tuple[int, ...]
    """For each group, a bit mask of its cells."""


_TABLES: weakref.WeakKeyDictionary[Board, Tables] = weakref.WeakKeyDictionary()


def tables(board: Board) -> Tables:
    """The board's structural tables, made once per board."""
    found = _TABLES.get(board)
    if found is not None:
        return found
    size = board.size
    full = tuple(i for i, g in enumerate(board.groups) if len(g) == size)
    kind = []
    for group in board.groups:
        if len({c // size for c in group}) == 1:
            kind.append(ROW)
        elif len({c % size for c in group}) == 1:
            kind.append(COLUMN)
        else:
            kind.append(OTHER)
    peer_mask = tuple(sum(1 << p for p in peers) for peers in board.peers)
    full_set = set(full)
    full_of = tuple(tuple(g for g in gs if g in full_set) for gs in board.cell_groups)
    group_mask = tuple(sum(1 << c for c in g) for g in board.groups)
    made = Tables(full, tuple(kind), peer_mask, full_of, group_mask)
    _TABLES[board] = made
    return made


def places(board: Board, group: int, digit: int) -> list[int]:
    """The empty cells of ``group`` where ``digit`` is still a candidate."""
    bit = 1 << (digit - 1)
    values, cands = board.values, board.candidates
    return [c for c in board.groups[group] if not values[c] and cands[c] & bit]


class _Snapshot:
    """Digit masks and strong links of one board state, made once for all the techniques that
    look at that state (the solver asks each technique in turn without changing the board)."""

    __slots__ = ("als", "conjugates", "lines", "masks", "rectangles", "state")

    def __init__(self, board: Board, state: tuple[int, ...]) -> None:
        self.state = state
        masks = [0] * (board.size + 1)
        values, cands = board.values, board.candidates
        for cell, mask in enumerate(cands):
            if values[cell]:
                continue
            bit = 1 << cell
            while mask:
                low = mask & -mask
                masks[low.bit_length()] |= bit
                mask ^= low
        self.masks = masks
        self.conjugates: dict[int, list[tuple[int, int, int]]] = {}
        self.lines: dict[int, Any] = {}
        """The fish module's per-digit row and column masks (:func:`.fish._lines`)."""
        self.rectangles: Any = None
        """The uniqueness module's deadly patterns (:func:`.uniqueness._rectangles`)."""
        self.als: Any = None
        """The ALS module's sets and restricted commons (:func:`.als._state`)."""


_SNAPSHOTS: weakref.WeakKeyDictionary[Board, _Snapshot] = weakref.WeakKeyDictionary()


def snapshot(board: Board) -> _Snapshot:
    # A tracked board changes only by logged steps: the log's length names its state.
    log = board.log
    state = (-1, len(log)) if log is not None else (*board.values, *board.candidates)
    found = _SNAPSHOTS.get(board)
    if found is None or found.state != state:
        found = _Snapshot(board, state)
        _SNAPSHOTS[board] = found
    return found


def digit_mask(board: Board, digit: int) -> int:
    """A bit mask of the empty cells with ``digit`` as a candidate."""
    return snapshot(board).masks[digit]


def fresh_digits(board: Board, technique: tuple[object, ...]) -> Iterator[int]:
    """The digits 1, 2, … for a single-digit technique to search, less those on which it found
    nothing before with the digit's candidates as they are now (its search depends on them
    alone, and a step changes only a few digits). Asking for the next digit without a step
    made meanwhile (``Board.built``) means the search of this one found nothing, which is then
    remembered in ``board.memo``; a search resumed after yielding a step found something."""
    memo = board.memo
    masks = snapshot(board).masks
    for digit in range(1, board.size + 1):
        key = (*technique, digit, masks[digit])
        if key in memo:
            continue
        built = board.built
        yield digit
        if board.built == built:
            memo[key] = True


def cells_of(mask: int) -> list[int]:
    """The cells of a bit mask, smallest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def conjugates(board: Board, digit: int) -> list[tuple[int, int, int]]:
    """Strong links on ``digit``: ``(a, b, group)`` for each full group where it has exactly
    the two places ``a < b``."""
    snap = snapshot(board)
    found = snap.conjugates.get(digit)
    if found is None:
        t = tables(board)
        mask = snap.masks[digit]
        found = []
        for group in t.full:
            here = t.group_mask[group] & mask
            if here.bit_count() == 2:
                low = here & -here
                found.append((low.bit_length() - 1, (here ^ low).bit_length() - 1, group))
        snap.conjugates[digit] = found
    return list(found)


def seen_by_all(board: Board, cells: list[int], digit: int, mask: int | None = None) -> list[int]:
    """Empty cells with ``digit`` that see every cell of ``cells`` (and are none of them)."""
    t = tables(board)
    common = digit_mask(board, digit) if mask is None else mask
    for cell in cells:
        common &= t.peer_mask[cell]
    return cells_of(common)


def _turbot(board: Board, want_kite: bool) -> Iterator[Step]:
    """Skyscraper (two parallel lines) or 2-String Kite (a row and a column whose near ends
    share a box): a1 = b1 - b2 = a2 on one digit, so a1 or a2 holds it."""
    t = tables(board)
    # Kites by the two cells joining them in a box, whatever their digit: HoDoKu's dual kite
    # (findDualTwoStringKites) compares those cells only.
    joined: dict[object, list[Step]] = {}
    for digit in fresh_digits(board, ("kite" if want_kite else "skyscraper",)):
        links = [link for link in conjugates(board, digit) if t.kind[link[2]] != OTHER]
        if len(links) < 2:
            continue
        mask = digit_mask(board, digit)
        for i, (p, q, g1) in enumerate(links):
            for r, s, g2 in links[i + 1 :]:
                if len({p, q, r, s}) < 4:
                    continue
                k1, k2 = t.kind[g1], t.kind[g2]
                if want_kite != (k1 != k2):
                    continue
                for a1, b1 in ((p, q), (q, p)):
                    for a2, b2 in ((r, s), (s, r)):
                        # Cheap tests first: the near ends must see each other, the far
                        # ends must have a common peer with the digit.
                        if not (t.peer_mask[b1] >> b2) & 1:
                            continue
                        gone_mask = mask & t.peer_mask[a1] & t.peer_mask[a2]
                        if not gone_mask:
                            continue
                        # The kite's near ends meet in a box; the skyscraper's in a line
                        # across its two lines.
                        shared = set(board.cell_groups[b1]).intersection(board.cell_groups[b2])
                        fits = [g for g in shared if (t.kind[g] == OTHER) == want_kite]
                        fits = [g for g in fits if want_kite or t.kind[g] != k1]
                        if not fits:
                            continue
                        # An end inside the connecting group would make it locked candidates.
                        ends = (1 << a1) | (1 << a2)
                        fits = [g for g in fits if not t.group_mask[g] & ends]
                        if not fits:
                            continue
                        via = min(fits)
                        if not want_kite and any(
                            t.kind[g] == t.kind[via]
                            for g in set(board.cell_groups[a1]).intersection(board.cell_groups[a2])
                        ):
                            continue  # both ends in one line too: an X-Wing, not this
                        gone = cells_of(gone_mask)
                        name = "2-String Kite" if want_kite else "Skyscraper"
                        n = board.name
                        text = (
                            f"On {digit}: {n(a1)}={n(b1)} and {n(a2)}={n(b2)} are the only "
                            f"places for {digit} in their groups and {n(b1)} sees {n(b2)}, so "
                            f"{digit} is in {n(a1)} or {n(a2)}, and "
                            f"{', '.join(n(c) for c in gone)}, seeing both, cannot be {digit}."
                        )
                        chain = [(a1, digit), (b1, digit), (b2, digit), (a2, digit)]
                        step = board.step(
                            name,
                            text,
                            eliminations=[(c, digit) for c in gone],
                            proof=chain,
                            groups=(g1, via, g2),
                            links=_alternating(chain, first_strong=True),
                        )
                        joined.setdefault(frozenset((b1, b2)), []).append(step)
                        yield step
    if want_kite:
        yield from _duals(board, "Dual 2-String Kite", joined)


def _alternating(chain: list[Candidate], first_strong: bool) -> list[Link]:
    strong = first_strong
    links = []
    for start, end in pairwise(chain):
        links.append(Link(start, end, strong))
        strong = not strong
    return links


@technique
def skyscraper(board: Board) -> Iterator[Step]:
    """Two strong links on one digit in parallel lines (two rows or two columns) whose ends b1,
    b2 share a line of the other direction: the far ends a1, a2 hold the digit between them, so
    a cell seeing both loses it. Sound for any groups (it is the chain a1=b1-b2=a2)."""
    return _turbot(board, want_kite=False)


@technique
def two_string_kite(board: Board) -> Iterator[Step]:
    """A strong link in a row and one in a column, one end of each in a common box (not the
    crossing cell): the other two ends hold the digit between them. Sound for any groups; a
    "box" here is any full group that is not a line (jigsaw regions, windows …)."""
    return _turbot(board, want_kite=True)


@technique
def empty_rectangle(board: Board) -> Iterator[Step]:
    """A box whose places for a digit lie on one line L1 through it (part P) and another line
    L2 through it (part Q), and a strong link X=Y on the digit in a line, X seeing all of P:
    if Y is not the digit X is, so the box's digit is in Q. A cell T seeing Y and all of Q
    therefore loses it. Sound for any full group as the box; P and Q must each lie in one line.
    """
    t = tables(board)
    for digit in fresh_digits(board, ("empty rectangle",)):
        links = [link for link in conjugates(board, digit) if t.kind[link[2]] != OTHER]
        if not links:
            continue
        mask = digit_mask(board, digit)
        joined: dict[object, list[Step]] = {}  # rectangles by their box
        for box in t.full:
            if t.kind[box] != OTHER:
                continue
            box_mask = t.group_mask[box]
            here_mask = box_mask & mask
            if here_mask.bit_count() < 2:
                continue
            for p, q, line in links:
                for x, y in ((p, q), (q, p)):
                    if (box_mask >> x) & 1 or (box_mask >> y) & 1:
                        continue
                    p_mask = here_mask & t.peer_mask[x]
                    q_mask = here_mask & ~t.peer_mask[x]
                    if not p_mask or not q_mask:
                        continue
                    target = mask & t.peer_mask[y] & ~box_mask & ~(1 << x)
                    part_q = cells_of(q_mask)
                    for c in part_q:
                        target &= t.peer_mask[c]
                    if not target:
                        continue
                    part_p = cells_of(p_mask)
                    if not (_in_one_line(board, part_p) and _in_one_line(board, part_q)):
                        continue
                    gone = cells_of(target)
                    here = cells_of(here_mask)
                    n = board.name
                    qs = ", ".join(n(c) for c in part_q)
                    ps = ", ".join(n(c) for c in part_p)
                    text = (
                        f"On {digit}: in its box {digit} is only on two lines; "
                        f"{n(x)}={n(y)} is a strong link and {n(x)} sees {ps}, so if {n(y)} "
                        f"is not {digit} the box's {digit} is in {qs}, and "
                        f"either way {', '.join(n(c) for c in gone)} cannot be {digit}."
                    )
                    step = board.step(
                        "Empty Rectangle",
                        text,
                        eliminations=[(c, digit) for c in gone],
                        proof=[(c, digit) for c in here] + [(x, digit), (y, digit)],
                        groups=(box, line),
                        links=[Link((y, digit), (x, digit), True)]
                        + [Link((x, digit), (c, digit), False) for c in part_p],
                    )
                    joined.setdefault(box, []).append(step)
                    yield step
        yield from _duals(board, "Dual Empty Rectangle", joined)


def _duals(board: Board, name: str, joined: dict[object, list[Step]]) -> Iterator[Step]:
    """HoDoKu's duals (``SingleDigitPatternSolver.findDualTwoStringKites`` and
    ``findDualEmptyRectangles``): two kites joined by the same two cells of a box, or two
    empty rectangles on the same box, that remove different candidates (their first
    differs), as one step removing what either removes. Each holds alone, so both do; these
    come after the steps they join, never first."""
    for steps in joined.values():
        for i, one in enumerate(steps):
            for other in steps[i + 1 :]:
                if one.eliminations[0] == other.eliminations[0]:
                    continue  # (the same step found twice, as HoDoKu tells them apart)
                yield board.step(
                    name,
                    f"Two at once (dual): {one.text} And {other.text}",
                    eliminations=[*one.eliminations, *other.eliminations],
                    proof=sorted({*one.proof, *other.proof}),
                    groups=sorted({*one.groups, *other.groups}),
                    links=[*one.links, *other.links],
                )


def _in_one_line(board: Board, cells: list[int]) -> bool:
    size = board.size
    return len({c // size for c in cells}) == 1 or len({c % size for c in cells}) == 1


def _colour(
    board: Board, digit: int, links: list[tuple[int, int, int]], least: int = 3
) -> list[tuple[list[int], list[int], list[int]]]:
    """The strong-link graph's clusters of at least ``least`` cells, two-coloured:
    ``(colour A, colour B, groups)``; a cluster that cannot be two-coloured (a broken grid)
    is left out."""
    adjacent: dict[int, list[tuple[int, int]]] = {}
    for a, b, g in links:
        adjacent.setdefault(a, []).append((b, g))
        adjacent.setdefault(b, []).append((a, g))
    seen: dict[int, int] = {}
    out = []
    for start in sorted(adjacent):
        if start in seen:
            continue
        seen[start] = 0
        stack, members, groups, ok = [start], [start], set(), True
        while stack:
            cell = stack.pop()
            for other, g in adjacent[cell]:
                groups.add(g)
                if other not in seen:
                    seen[other] = 1 - seen[cell]
                    members.append(other)
                    stack.append(other)
                elif seen[other] == seen[cell]:
                    ok = False
        if ok and len(members) >= least:
            out.append(
                (
                    sorted(c for c in members if seen[c] == 0),
                    sorted(c for c in members if seen[c] == 1),
                    sorted(groups),
                )
            )
    return out


def _colour_step(
    board: Board, digit: int, on: list[int], off: list[int], groups: list[int]
) -> tuple[list[Candidate], list[Link]]:
    proof = [(c, digit) for c in on + off]
    on_set = set(on)
    links = []
    for g in groups:
        cells = places(board, g, digit)
        if len(cells) == 2:
            a, b = cells
            if (a in on_set) != (b in on_set):
                links.append(Link((a, digit), (b, digit), True))
    return proof, links


@technique
def simple_colors_trap(board: Board) -> Iterator[Step]:
    """Colour a digit's strong links in two colours (one colour holds the digit): a cell that
    sees a cell of each colour cannot hold it."""
    t = tables(board)
    for digit in fresh_digits(board, ("colors trap",)):
        mask = digit_mask(board, digit)
        for on, off, groups in _colour(board, digit, conjugates(board, digit)):
            see_on = 0
            for c in on:
                see_on |= t.peer_mask[c]
            see_off = 0
            for c in off:
                see_off |= t.peer_mask[c]
            gone = cells_of(mask & see_on & see_off)
            if not gone:
                continue
            proof, links = _colour_step(board, digit, on, off, groups)
            n = board.name
            text = (
                f"On {digit}: the strong links colour "
                f"{', '.join(n(c) for c in on)} one way and {', '.join(n(c) for c in off)} the "
                f"other; one colour holds {digit}, so {', '.join(n(c) for c in gone)}, seeing "
                f"both colours, cannot."
            )
            yield board.step(
                "Simple Colors Trap",
                text,
                eliminations=[(c, digit) for c in gone],
                proof=proof,
                groups=groups,
                links=links,
            )


@technique
def simple_colors_wrap(board: Board) -> Iterator[Step]:
    """Colour a digit's strong links in two colours: when two cells of one colour see each
    other that colour is false, and the digit leaves every cell of it."""
    t = tables(board)
    for digit in fresh_digits(board, ("colors wrap",)):
        for on, off, groups in _colour(board, digit, conjugates(board, digit)):
            for wrong, right in ((on, off), (off, on)):
                clash = next(
                    (
                        (a, b)
                        for i, a in enumerate(wrong)
                        for b in wrong[i + 1 :]
                        if (t.peer_mask[a] >> b) & 1
                    ),
                    None,
                )
                if clash is None:
                    continue
                proof, links = _colour_step(board, digit, right, wrong, groups)
                n = board.name
                text = (
                    f"On {digit}: the strong links colour "
                    f"{', '.join(n(c) for c in wrong)} alike, and {n(clash[0])} sees "
                    f"{n(clash[1])}, so that colour cannot hold {digit}."
                )
                yield board.step(
                    "Simple Colors Wrap",
                    text,
                    eliminations=[(c, digit) for c in wrong],
                    proof=proof,
                    groups=groups,
                    links=links,
                )


def _multi_colors(board: Board, kind: int) -> Iterator[Step]:
    """Two clusters of one digit's strong links, each two-coloured (one colour of each holds
    the digit). Type 1: a cell of colour A sees a cell of colour B, so A and B are not both
    true, and their opposites A', B' are not both false: a cell seeing A' and B' loses the
    digit. Type 2: colour A sees both colours of the other cluster, one of which is true, so A
    is false and the digit leaves its cells."""
    t = tables(board)
    for digit in fresh_digits(board, ("multi-colors", kind)):
        clusters = _colour(board, digit, conjugates(board, digit), least=2)
        if len(clusters) < 2:
            continue
        mask = digit_mask(board, digit)
        sight = [[_seen(t.peer_mask, colour) for colour in (on, off)] for on, off, _ in clusters]
        for i, first in enumerate(clusters):
            for j, second in enumerate(clusters):
                if i == j or (kind == 1 and j < i):
                    continue
                yield from (
                    _multi_1(board, digit, mask, first, second, sight[i], sight[j])
                    if kind == 1
                    else _multi_2(board, digit, first, second, sight[i])
                )


def _seen(peer_mask: tuple[int, ...], cells: list[int]) -> int:
    out = 0
    for c in cells:
        out |= peer_mask[c]
    return out


def _bits(cells: list[int]) -> int:
    return sum(1 << c for c in cells)


def _multi_1(
    board: Board,
    digit: int,
    mask: int,
    first: tuple[list[int], list[int], list[int]],
    second: tuple[list[int], list[int], list[int]],
    sees_first: list[int],
    sees_second: list[int],
) -> Iterator[Step]:
    # Each pair of colours that see each other is a step; the two clusters' step as HoDoKu
    # makes it (``ColoringSolver.findMultiColorStepsForCandidate``: all four pairs checked
    # into one step) follows when more than one pair removes something.
    every: set[int] = set()
    pairs = 0
    for a in (0, 1):
        for b in (0, 1):
            if not sees_first[a] & _bits(second[b]):
                continue
            gone = cells_of(mask & sees_first[1 - a] & sees_second[1 - b])
            if not gone:
                continue
            every.update(gone)
            pairs += 1
            n = board.name
            A, B = first[a], second[b]
            text = (
                f"On {digit}: two clusters of strong links, each two-coloured; "
                f"{', '.join(n(c) for c in A)} and {', '.join(n(c) for c in B)} see each "
                f"other, so not both colours hold {digit} and one of their opposites does: "
                f"{', '.join(n(c) for c in gone)}, seeing both opposites, cannot be {digit}."
            )
            yield _multi_step(board, "Multi-Colors 1", text, digit, gone, first, second)
    if pairs > 1:
        n = board.name
        text = (
            f"On {digit}: two clusters of strong links, each two-coloured, with {pairs} pairs "
            f"of colours (one of each cluster) that see each other: not both colours of such "
            f"a pair hold {digit}, so one of their opposites does, and "
            f"{', '.join(n(c) for c in sorted(every))}, each seeing the opposites of one "
            f"pair, cannot be {digit}."
        )
        yield _multi_step(board, "Multi-Colors 1", text, digit, sorted(every), first, second)


def _multi_2(
    board: Board,
    digit: int,
    first: tuple[list[int], list[int], list[int]],
    second: tuple[list[int], list[int], list[int]],
    sees_first: list[int],
) -> Iterator[Step]:
    for a in (0, 1):
        if not (sees_first[a] & _bits(second[0]) and sees_first[a] & _bits(second[1])):
            continue
        wrong = first[a]
        n = board.name
        text = (
            f"On {digit}: {', '.join(n(c) for c in wrong)} (one colour of a "
            f"cluster of strong links) see both colours of another cluster, one of which holds "
            f"{digit}, so that colour cannot hold {digit}."
        )
        yield _multi_step(board, "Multi-Colors 2", text, digit, wrong, first, second)


def _multi_step(
    board: Board,
    name: str,
    text: str,
    digit: int,
    gone: list[int],
    first: tuple[list[int], list[int], list[int]],
    second: tuple[list[int], list[int], list[int]],
) -> Step:
    proof, links = _colour_step(board, digit, first[0], first[1], first[2])
    proof2, links2 = _colour_step(board, digit, second[0], second[1], second[2])
    return board.step(
        name,
        text,
        eliminations=[(c, digit) for c in gone],
        proof=proof + proof2,
        groups=sorted(set(first[2]) | set(second[2])),
        links=links + links2,
    )


@technique
def multi_colors_1(board: Board) -> Iterator[Step]:
    """Multi-Colors, type 1 (see ``_multi_colors``)."""
    return _multi_colors(board, 1)


@technique
def multi_colors_2(board: Board) -> Iterator[Step]:
    """Multi-Colors, type 2 (see ``_multi_colors``)."""
    return _multi_colors(board, 2)


# Cheapest first (HoDoKu's order within its single-digit patterns and colouring).
TECHNIQUES: tuple[tuple[str, Technique], ...] = (
    ("Skyscraper", skyscraper),
    ("2-String Kite", two_string_kite),
    ("Empty Rectangle", empty_rectangle),
    ("Simple Colors Trap", simple_colors_trap),
    ("Simple Colors Wrap", simple_colors_wrap),
    ("Multi-Colors 1", multi_colors_1),
    ("Multi-Colors 2", multi_colors_2),
)
