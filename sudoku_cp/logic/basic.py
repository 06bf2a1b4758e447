"""Singles, intersections and subsets: the techniques every human solver starts with.

Each technique is a search for every step (:func:`~sudoku_cp.logic.board.technique`), called
for the first it finds, without changing the board. Names are HoDoKu's. Every technique
is written over the model's groups, so it works for every size and every model whose rules are
groups (jigsaw regions, diagonals, windows). "A digit must go somewhere in this group" is used
only for groups of ``size`` cells; "a digit at most once" for every group.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import TYPE_CHECKING, TypeVar

from .board import Board, digits_of, technique
from .layout import Layout, layout_of
from .patterns import cells_of, snapshot
from .steps import Step

if TYPE_CHECKING:
    from ..model import Model

T = TypeVar("T")


def _per_board(board: Board, make: Callable[[Model, int], T]) -> T:
    """``make(model, size)`` (a cached table), kept on the board: hashing the model for the
    cache on every call costs more than the lookup here."""
    found = board.memo.get(make)
    if found is None:
        found = board.memo[make] = make(board.puzzle.model, board.size)
    return found  # type: ignore[return-value]


def layout(board: Board) -> Layout:
    return _per_board(board, layout_of)


def _digits_text(mask: int) -> str:
    return and_list(list(map(str, digits_of(mask))))


def and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _cells_text(board: Board, cells: list[int] | tuple[int, ...]) -> str:
    return and_list([board.name(c) for c in cells])


def _placed(board: Board, group: tuple[int, ...]) -> int:
    mask = 0
    values = board.values
    for cell in group:
        if values[cell]:
            mask |= 1 << (values[cell] - 1)
    return mask


Getter = Callable[[list[int]], tuple[int, ...]]


# --- singles -----------------------------------------------------------------------------------
@functools.cache
def _shapes(model: Model, size: int) -> tuple[tuple[Getter, ...], tuple[int, ...]]:
    """For each group: a getter of its cells' entries from a list of all cells (one C call
    instead of a Python loop), and the bit mask of its cells."""
    lay = layout_of(model, size)
    getters = tuple(
        operator.itemgetter(*g) if len(g) > 1 else lambda cells, c=g[0]: (cells[c],)
        for g in lay.groups
    )
    masks = tuple(sum(1 << c for c in g) for g in lay.groups)
    return getters, masks


@functools.cache
def _reach(model: Model, size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per cell, bit masks of groups: those holding it, and those whose subset and
    intersection searches read it (the group's cells and those of every group meeting it in
    two cells or more, where those searches remove candidates)."""
    lay = layout_of(model, size)
    sets = lay.group_sets
    own = [0] * (size * size)
    near = [0] * (size * size)
    for g, group in enumerate(lay.groups):
        cells = set(group)
        for h in range(len(lay.groups)):
            if h != g and len(sets[g] & sets[h]) >= 2:
                cells |= sets[h]
        for c in group:
            own[c] |= 1 << g
        for c in cells:
            near[c] |= 1 << g
    return tuple(own), tuple(near)


def _affected(board: Board, technique: object, wide: bool, cells: set[int] | None = None) -> int:
    """The groups (a bit mask) where ``technique``, which found nothing before, may find
    something now: those that hold (or, ``wide``, read) a cell changed since. -1 (all) when
    the board cannot tell (:meth:`Board.changed_since`)."""
    changed = board.changed_since(technique) if cells is None else cells
    if changed is None:
        return -1
    table = _per_board(board, _reach)[1 if wide else 0]
    mask = 0
    for cell in changed:
        mask |= table[cell]
    return mask


@technique
def full_house(board: Board) -> Iterator[Step]:
    """The last empty cell of a group takes the one digit the group still lacks."""
    lay = layout(board)
    values = board.values
    getters = _per_board(board, _shapes)[0]
    # Only a placement can leave a group one empty cell: look where one was made since.
    changed = board.changed_since(full_house)
    placed = None if changed is None else {c for c in changed if values[c]}
    groups = _affected(board, full_house, False, placed)
    found = False
    for g in lay.full:
        if groups >> g & 1 and getters[g](values).count(0) == 1:
            cell = next(c for c in lay.groups[g] if not values[c])
            missing = board.all_digits & ~_placed(board, lay.groups[g])
            if missing & board.candidates[cell] and missing.bit_count() == 1:
                digit = missing.bit_length()
                found = True
                yield board.step(
                    "Full House",
                    f"{board.name(cell)} is the last empty cell of {lay.labels[g]}, "
                    f"which lacks only {digit}: {board.name(cell)} = {digit}.",
                    placements=[(cell, digit)],
                    groups=[g],
                )
    if not found:
        board.found_nothing(full_house)


def _naked_single_text(board: Board, cell: int, digit: int) -> str:
    """Why ``cell`` takes ``digit``: it sees every other digit placed in its groups, or — when
    some were only removed from it (by earlier steps, or a solver's pencil marks), not placed
    where it sees them — those removals too, named, so the sentence holds."""
    name, values = board.name(cell), board.values
    seen = 0
    for peer in board.peers[cell]:
        if values[peer]:
            seen |= 1 << (values[peer] - 1)
    removed = board.all_digits & ~seen & ~(1 << (digit - 1))
    if not removed:
        return (
            f"{name} sees every digit but {digit} in its row, column and other groups: "
            f"{name} = {digit}."
        )
    many = removed & (removed - 1)
    return (
        f"{name} has only {digit} left: {_digits_text(removed)} "
        f"{'were' if many else 'was'} removed from it before, and it sees every other digit "
        f"in its row, column and other groups: {name} = {digit}."
    )


@technique
def naked_single(board: Board) -> Iterator[Step]:
    """A cell with one candidate left takes it."""
    values, candidates = board.values, board.candidates
    changed = board.changed_since(naked_single)
    found = False
    for cell in range(len(candidates)) if changed is None else sorted(changed):
        mask = candidates[cell]
        if not values[cell] and mask and not mask & (mask - 1):
            digit = mask.bit_length()
            found = True
            yield board.step(
                "Naked Single",
                _naked_single_text(board, cell, digit),
                placements=[(cell, digit)],
                proof=[(cell, digit)],
            )
    if not found:
        board.found_nothing(naked_single)


@technique
def hidden_single(board: Board) -> Iterator[Step]:
    """A digit that fits in only one cell of a group goes there."""
    lay = layout(board)
    values, candidates = board.values, board.candidates
    groups = _affected(board, hidden_single, False)
    found = False
    for g in lay.full:
        if not groups >> g & 1:
            continue
        once = twice = placed = 0
        group = lay.groups[g]
        for cell in group:
            if values[cell]:
                placed |= 1 << (values[cell] - 1)
            else:
                mask = candidates[cell]
                twice |= once & mask
                once |= mask
        single = once & ~twice & ~placed
        while single:
            bit = single & -single
            single &= single - 1
            digit = bit.bit_length()
            cell = next(c for c in group if not values[c] and candidates[c] & bit)
            found = True
            yield board.step(
                "Hidden Single",
                f"In {lay.labels[g]}, {digit} fits only in {board.name(cell)}: "
                f"{board.name(cell)} = {digit}.",
                placements=[(cell, digit)],
                proof=[(cell, digit)],
                groups=[g],
            )
    if not found:
        board.found_nothing(hidden_single)


# --- intersections -----------------------------------------------------------------------------
@technique
def locked_candidates_pointing(board: Board) -> Iterator[Step]:
    """Locked Candidates Type 1: a digit's candidates in a box (region, diagonal …) all lie
    in one line, or in another group it meets: that group's other cells cannot hold it."""
    return _locked_candidates(board, pointing=True)


@technique
def locked_candidates_claiming(board: Board) -> Iterator[Step]:
    """Locked Candidates Type 2: a digit's candidates in a row or column all lie in one box
    (or another group it meets): that group's other cells cannot hold it."""
    return _locked_candidates(board, pointing=False)


def locked_candidates(board: Board) -> Step | None:
    """Either type, pointing first (HoDoKu's order)."""
    return locked_candidates_pointing(board) or locked_candidates_claiming(board)


def _locked_candidates(board: Board, pointing: bool) -> Iterator[Step]:
    """When a digit's candidates in a full group A all lie where A meets another group B,
    B's other cells cannot hold it. Over any pair of intersecting groups; *pointing* when A
    is not a row or column, *claiming* when it is (HoDoKu's two types)."""
    lay = layout(board)
    values, candidates = board.values, board.candidates
    # HoDoKu's scan order (``SimpleSolver``): group A, then digit, then B (a row before a
    # column); the intersections come grouped by A, so the steps of one A are yielded
    # together, smallest digit first (the first intersection first for one digit).
    # What A and B hold decides, so only an A near a change can find something new.
    key = ("locked candidates", pointing)
    groups = _affected(board, key, True)
    found = False
    pending: list[tuple[int, int, int, tuple[int, ...], tuple[int, ...]]] = []
    end = (-1, -1, (), (), ())  # (flushes the last A's steps)
    for a, b, common, a_rest, b_rest in (*lay.intersections, end):
        if pending and a != pending[0][1]:
            pending.sort(key=lambda p: p[0])
            for digit, pa, pb, pcommon, pb_rest in pending:
                found = True
                yield _locked_step(board, digit, pa, pb, pcommon, pb_rest)
            pending = []
        if a < 0 or (a in lay.lines) == pointing or not groups >> a & 1:
            continue
        inside = 0
        for cell in common:
            if not values[cell]:
                inside |= candidates[cell]
        if not inside:
            continue
        outside = _placed(board, common)
        for cell in a_rest:
            outside |= candidates[cell]  # a filled cell's mask is its digit
        locked = inside & ~outside
        while locked:
            bit = locked & -locked
            locked &= locked - 1
            if any(not values[c] and candidates[c] & bit for c in b_rest):
                pending.append((bit.bit_length(), a, b, common, b_rest))
    if not found:
        board.found_nothing(key)


def _locked_step(
    board: Board, digit: int, a: int, b: int, common: tuple[int, ...], b_rest: tuple[int, ...]
) -> Step:
    lay = layout(board)
    values, candidates = board.values, board.candidates
    bit = 1 << (digit - 1)
    elims = [c for c in b_rest if not values[c] and candidates[c] & bit]
    kind = "Type 2 (Claiming)" if a in lay.lines else "Type 1 (Pointing)"
    where = [c for c in common if not values[c] and candidates[c] & bit]
    return board.step(
        f"Locked Candidates {kind}",
        f"In {lay.labels[a]}, {digit} can only be in {_cells_text(board, where)}, "
        f"which are also in {lay.labels[b]}: {digit} is removed from the other "
        f"cells of {lay.labels[b]} ({_cells_text(board, elims)}).",
        eliminations=[(c, digit) for c in elims],
        proof=[(c, digit) for c in where],
        groups=[a, b],
    )


# --- subsets -----------------------------------------------------------------------------------
_SUBSET_NAMES = {2: "Pair", 3: "Triple", 4: "Quadruple"}


def _naked(board: Board, k: int, locked: bool) -> Iterator[Step]:
    lay = layout(board)
    values, candidates = board.values, board.candidates
    key = ("naked", k, locked)
    groups = _affected(board, key, True)
    found = False
    for index in lay.scan_order:  # HoDoKu's order: boxes, rows, columns
        if not groups >> index & 1:
            continue
        group = lay.groups[index]
        cells = [c for c in group if not values[c] and 2 <= candidates[c].bit_count() <= k]
        if len(cells) < k:
            continue
        for subset in combinations(cells, k):
            union = 0
            for cell in subset:
                union |= candidates[cell]
            if union.bit_count() != k:
                continue
            shared = [
                h
                for h in board.cell_groups[subset[0]]
                if all(c in lay.group_sets[h] for c in subset)
            ]
            if locked and len(shared) < 2:
                continue
            elims = sorted(
                {
                    (c, d)
                    for h in shared
                    for c in lay.groups[h]
                    if c not in subset and not values[c] and candidates[c] & union
                    for d in digits_of(candidates[c] & union)
                }
            )
            if not elims:
                continue
            if locked and not _locked_both_ways(lay, shared, [c for c, _ in elims]):
                continue
            name = ("Locked " if locked else "Naked ") + _SUBSET_NAMES[k]
            where = and_list([lay.labels[h] for h in shared])
            found = True
            yield board.step(
                name,
                f"{_cells_text(board, subset)} hold only {_digits_text(union)} between them, "
                f"so these {k} digits go in these {k} cells of {where}: they are removed from "
                f"the other cells there.",
                eliminations=elims,
                proof=[(c, d) for c in subset for d in digits_of(candidates[c])],
                groups=shared,
            )
    if not found:
        board.found_nothing(key)


def _locked_both_ways(lay: Layout, shared: list[int], cells: list[int]) -> bool:
    """HoDoKu's test for a *locked* pair or triple: it clears candidates from the box and from
    the line outside the box (``createSubsetStep`` in hobiwan's HoDoKu ``SimpleSolver``);
    otherwise it is a naked subset, and locked candidates, tried before naked subsets, may
    come first. Generalised: some group A of the shared ones (a line where there is one)
    loses a candidate outside another, B, and B loses one too."""
    has_line = any(h in lay.lines for h in shared)
    for a in shared:
        if has_line and a not in lay.lines:
            continue
        for b in shared:
            if a == b:
                continue
            outside = any(c in lay.group_sets[a] and c not in lay.group_sets[b] for c in cells)
            if outside and any(c in lay.group_sets[b] for c in cells):
                return True
    return False


def _hidden(board: Board, k: int) -> Iterator[Step]:
    lay = layout(board)
    candidates = board.candidates
    masks = snapshot(board).masks  # per digit, the empty cells holding it
    group_masks = _per_board(board, _shapes)[1]
    digit_range = range(1, board.size + 1)
    full = set(lay.full)
    key = ("hidden", k)
    groups = _affected(board, key, False)
    found = False
    for g in (g for g in lay.scan_order if g in full):  # HoDoKu's order: boxes, rows, columns
        if not groups >> g & 1:
            continue
        group = group_masks[g]
        where: dict[int, int] = {}
        for d in digit_range:
            places = masks[d] & group
            if 2 <= places.bit_count() <= k:
                where[d] = places
        if len(where) < k:
            continue
        for subset in combinations(where, k):  # digits in increasing order
            union = 0
            for d in subset:
                union |= where[d]
            if union.bit_count() != k:
                continue
            cells = cells_of(union)
            mask = sum(1 << (d - 1) for d in subset)
            elims = [(c, d) for c in cells for d in digits_of(candidates[c] & ~mask)]
            if not elims:
                continue
            found = True
            yield board.step(
                f"Hidden {_SUBSET_NAMES[k]}",
                f"In {lay.labels[g]}, {_digits_text(mask)} fit only in "
                f"{_cells_text(board, cells)}: those cells hold these {k} digits, so their "
                f"other candidates are removed.",
                eliminations=elims,
                proof=[(c, d) for c in cells for d in subset if candidates[c] >> (d - 1) & 1],
                groups=[g],
            )
    if not found:
        board.found_nothing(key)


@technique
def locked_pair(board: Board) -> Iterator[Step]:
    """A naked pair in two groups at once (a box and a line): cleared from both."""
    return _naked(board, 2, locked=True)


@technique
def locked_triple(board: Board) -> Iterator[Step]:
    return _naked(board, 3, locked=True)


@technique
def naked_pair(board: Board) -> Iterator[Step]:
    """k cells of a group holding only k digits between them: those digits leave the group's
    other cells (and every other group holding all k cells)."""
    return _naked(board, 2, locked=False)


@technique
def naked_triple(board: Board) -> Iterator[Step]:
    return _naked(board, 3, locked=False)


@technique
def naked_quadruple(board: Board) -> Iterator[Step]:
    return _naked(board, 4, locked=False)


@technique
def hidden_pair(board: Board) -> Iterator[Step]:
    """k digits that fit only in the same k cells of a full group: those cells lose every
    other candidate."""
    return _hidden(board, 2)


@technique
def hidden_triple(board: Board) -> Iterator[Step]:
    return _hidden(board, 3)


@technique
def hidden_quadruple(board: Board) -> Iterator[Step]:
    return _hidden(board, 4)
