"""Basic fish (X-Wing, Swordfish, Jellyfish) and finned/sashimi fish, over rows and columns.

A fish of size k on digit d: k *base* rows in each of which d can only be in k *cover*
columns; each base row holds d once, no two in one column, so the cover columns' d are all in
the base rows and d leaves their other cells. Rows and columns swap roles too. A *fin* is a
base candidate outside the cover columns: either a fin is true, or the fish holds — so d
leaves the cover cells outside the base that see every fin (HoDoKu asks the fins to share a
box; "sees every fin" is the same on a classic grid and works on any model's groups).
*Sashimi*: some base row has at most one candidate inside the cover.

What is generalised: any size (k up to 4 for basic fish, up to 3 for finned ones), any model
with rows and columns (classic, X, hyper, jigsaw regions — fins are then seen through regions
and diagonals too). Fish whose base or cover sets are boxes (Franken, Mutant) are not looked for.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import TYPE_CHECKING

from .basic import and_list, layout
from .board import Board, technique
from .layout import layout_of
from .patterns import fresh_digits, snapshot, tables
from .steps import Step

if TYPE_CHECKING:
    from ..model import Model

_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
MAX_FINS = 4
"""Fins beyond the cover columns, at most (HoDoKu's default allows 5, in one box)."""


def _lines(board: Board, digit: int) -> list[tuple[str, str, list[tuple[int, int]]]]:
    """Both orientations: (base word, cover word, for each base line its index and mask of
    cover positions holding ``digit``). Made once per board state and digit (six fish
    techniques ask in turn), from the digit's cell mask: a row is a slice of it."""
    lay = layout(board)
    if not lay.rows or not lay.columns:
        return []
    snap = snapshot(board)
    found: list[tuple[str, str, list[tuple[int, int]]]] | None = snap.lines.get(digit)
    if found is None:
        size = board.size
        dmask = snap.masks[digit]
        row_bits = (1 << size) - 1
        by_row = []
        columns = [0] * size
        for r in range(size):
            mask = (dmask >> (r * size)) & row_bits
            if mask:
                by_row.append((r, mask))
                bit = 1 << r
                while mask:
                    low = mask & -mask
                    columns[low.bit_length() - 1] |= bit
                    mask ^= low
        by_col = [(c, mask) for c, mask in enumerate(columns) if mask]
        found = [("row", "column", by_row), ("column", "row", by_col)]
        snap.lines[digit] = found
    return found


def _cell(size: int, base_word: str, line: int, position: int) -> int:
    return line * size + position if base_word == "row" else position * size + line


def _positions(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask &= mask - 1
    return out


def _fish_text(base: str, cover: str, lines: list[int], covers: list[int], digit: int) -> str:
    b = and_list([str(i + 1) for i in lines])
    c = and_list([str(i + 1) for i in covers])
    return f"in {base}s {b}, {digit} fits only in {cover}s {c}"


def basic_fish(board: Board, k: int) -> Iterator[Step]:
    size, values, candidates = board.size, board.values, board.candidates
    for digit in fresh_digits(board, ("fish", k)):
        bit = 1 << (digit - 1)
        orientations = _lines(board, digit)
        for base, cover, lines in orientations:
            usable = [(i, m) for i, m in lines if m.bit_count() <= k]
            for combo in combinations(usable, k):
                union = 0
                for _, m in combo:
                    union |= m
                if union.bit_count() != k:
                    continue
                base_lines = {i for i, _ in combo}
                covers = _positions(union)
                elims = [
                    _cell(size, base, line, pos)
                    for pos in covers
                    for line in range(size)
                    if line not in base_lines
                ]
                elims = [c for c in elims if not values[c] and candidates[c] & bit]
                if not elims:
                    continue
                lines_sorted = sorted(base_lines)
                proof = [(_cell(size, base, i, p), digit) for i, m in combo for p in _positions(m)]
                yield board.step(
                    _NAMES[k],
                    f"On {digit}: "
                    f"{_fish_text(base, cover, lines_sorted, covers, digit)}"
                    f"; each of those {base}s holds one {digit}, so these {cover}s' {digit}s are "
                    f"in them and {digit} is removed from the rest of the {cover}s.",
                    eliminations=[(c, digit) for c in elims],
                    proof=sorted(proof),
                )


@functools.cache
def _fin_groups(
    model: Model, size: int
) -> tuple[tuple[tuple[dict[int, int], dict[int, int]], tuple[int, int]], ...]:
    """For each group that is not a row or column (boxes, regions, diagonals …): by row, the
    mask of its columns in that row, and by column, the mask of its rows; then the masks of
    the rows and of the columns it meets."""
    lay = layout_of(model, size)
    out = []
    for g, group in enumerate(lay.groups):
        if g in lay.lines:
            continue
        by_row: dict[int, int] = {}
        by_col: dict[int, int] = {}
        for cell in group:
            r, c = divmod(cell, size)
            by_row[r] = by_row.get(r, 0) | 1 << c
            by_col[c] = by_col.get(c, 0) | 1 << r
        meets = (sum(1 << r for r in by_row), sum(1 << c for c in by_col))
        out.append(((by_row, by_col), meets))
    return tuple(out)


def _narrow(
    lines: list[tuple[int, int]], k: int, widest: int
) -> Iterator[tuple[tuple[tuple[int, int], ...], int, int]]:
    """The k-combinations of ``lines`` (in ``combinations`` order) whose masks' union has at
    most ``widest`` bits, each with that union and the mask of the lines' indices; a branch
    stops as soon as its union is wider (it only grows)."""
    n = len(lines)

    def extend(
        start: int, chosen: tuple[tuple[int, int], ...], union: int, base: int
    ) -> Iterator[tuple[tuple[tuple[int, int], ...], int, int]]:
        last = len(chosen) == k - 1
        for i in range(start, n - (k - len(chosen)) + 1):
            index, mask = lines[i]
            grown = union | mask
            if grown.bit_count() > widest:
                continue
            if last:
                yield (*chosen, lines[i]), grown, base | 1 << index
            else:
                yield from extend(i + 1, (*chosen, lines[i]), grown, base | 1 << index)

    return extend(0, (), 0, 0)


@functools.lru_cache(maxsize=1 << 16)
def _line_cells(size: int, orientation: int, lines: int) -> int:
    """The cell mask of the rows (orientation 0) or columns (1) in the mask ``lines``."""
    out = 0
    for line in _positions(lines):
        for position in range(size):
            out |= 1 << (line * size + position if orientation == 0 else position * size + line)
    return out


def finned_fish(board: Board, k: int) -> Iterator[Step]:
    """Fins all in one group that is not a line (a box, a region, a diagonal): the cover
    holds every base candidate outside that group, and is filled up to k with positions of
    candidates inside it; the rest inside it are the fins."""
    fin_groups = _fin_groups(board.puzzle.model, board.size)
    size = board.size
    peer_mask = tables(board).peer_mask
    # The search depends only on this digit's candidates: one that found nothing on them
    # finds nothing again (hard puzzles retry fish after every other step).
    for digit in fresh_digits(board, ("finned fish", k)):
        orientations = _lines(board, digit)
        if not orientations:
            return
        dmask = snapshot(board).masks[digit]
        same_base: dict[tuple[int, int], list[Step]] = {}
        for index, (base, cover, lines) in enumerate(orientations):
            # cross[p]: the base lines holding the digit at cover position p
            cross = dict(orientations[1 - index][2])
            usable = [(i, m) for i, m in lines if m.bit_count() <= k + MAX_FINS]
            # Positions off the cover are fins, all inside one group: at most as many as
            # the widest group spans (3 for a 9x9 box), so a wider union has no finned fish.
            widest = k + max((meets[1 - index].bit_count() for _, meets in fin_groups), default=0)
            for combo, union, base_mask in _narrow(usable, k, widest):
                if union.bit_count() <= k:
                    continue  # a basic fish, or none
                for shapes, meets in fin_groups:
                    if not meets[index] & base_mask:
                        continue  # no base cell inside: nothing there can be a fin
                    inside = shapes[index]
                    outside = 0
                    for i, m in combo:
                        outside |= m & ~inside.get(i, 0)
                    room = k - outside.bit_count()
                    if room < 0 or outside == union:
                        continue
                    for more in combinations(_positions(union & ~outside), room):
                        cover_mask = outside
                        for p in more:
                            cover_mask |= 1 << p
                        if cover_mask == union or any(not m & cover_mask for _, m in combo):
                            continue
                        # Nothing to remove unless a cover cell outside the base sees every
                        # fin: test that on cell masks before building the step.
                        fin_mask = union & ~cover_mask
                        seen = -1
                        for i, m in combo:
                            fins = m & fin_mask
                            while fins:
                                low = fins & -fins
                                seen &= peer_mask[_cell(size, base, i, low.bit_length() - 1)]
                                fins ^= low
                        cover_cells = _line_cells(size, 1 - index, cover_mask)
                        if not seen & cover_cells & dmask & ~_line_cells(size, index, base_mask):
                            continue
                        targets = [
                            (p, cross.get(p, 0) & ~base_mask) for p in _positions(cover_mask)
                        ]
                        step = _finned_step(
                            board, digit, k, (base, cover), combo, targets, cover_mask
                        )
                        if step is not None:
                            same_base.setdefault((index, base_mask), []).append(step)
                            yield step
        yield from siamese(board, same_base.values())


def siamese(board: Board, same_base: Iterable[list[Step]]) -> Iterator[Step]:
    """HoDoKu's siamese fish (``FishSolver.findSiameseFish``): two finned fish on one digit
    with the same base lines that remove different candidates (their first differs), as one
    step removing what either removes. HoDoKu names it after the first of the two in its
    search order, where a finned fish comes before a sashimi one on the same base (so its
    reglib's cases): sashimi only when both are. Each fish alone holds, so both do; these
    come after every fish of the digit, never first. ``same_base`` lists one digit's finned
    fish in lists of those with the same base; :mod:`.complex_fish` uses it too."""
    for steps in same_base:
        for i, one in enumerate(steps):
            for other in steps[i + 1 :]:
                if one.eliminations[0] == other.eliminations[0]:
                    continue  # (the same fish found twice, as HoDoKu tells them apart)
                both = all(s.technique.startswith("Sashimi") for s in (one, other))
                name = one.technique.replace("Sashimi", "Finned") if not both else one.technique
                yield board.step(
                    "Siamese " + name,
                    f"Two fish on the same base lines (siamese): {one.text} And {other.text}",
                    eliminations=[*one.eliminations, *other.eliminations],
                    proof=sorted({*one.proof, *other.proof}),
                )


def _finned_step(
    board: Board,
    digit: int,
    k: int,
    words: tuple[str, str],
    combo: tuple[tuple[int, int], ...],
    targets: list[tuple[int, int]],
    cover_mask: int,
) -> Step | None:
    """The step of a finned fish, if some target (a cover candidate outside the base, given
    as a position and a mask of lines) sees every fin."""
    size, peer_sets = board.size, board.peer_sets
    base, cover = words
    chosen = [p for p, _ in targets]
    base_lines = {i for i, _ in combo}
    fins = [_cell(size, base, i, p) for i, m in combo for p in _positions(m & ~cover_mask)]
    seen = peer_sets[fins[0]]
    for fin in fins[1:]:
        seen = seen & peer_sets[fin]
        if not seen:
            return None
    elims = sorted(
        cell
        for p, lines in targets
        for line in _positions(lines)
        if (cell := _cell(size, base, line, p)) in seen
    )
    if not elims:
        return None
    sashimi = any((m & cover_mask).bit_count() < 2 for _, m in combo)
    name = ("Sashimi " if sashimi else "Finned ") + _NAMES[k]
    proof = [(_cell(size, base, i, p), digit) for i, m in combo for p in _positions(m & cover_mask)]
    fin_text = and_list([board.name(f) for f in fins])
    return board.step(
        name,
        f"On {digit}: {_fish_text(base, cover, sorted(base_lines), list(chosen), digit)}"
        f", apart from the fin{'s' if len(fins) > 1 else ''} {fin_text}. Either a fin holds "
        f"{digit} or the fish does: either way {digit} leaves "
        f"{and_list([board.name(c) for c in elims])}, which {'see' if len(elims) > 1 else 'sees'} "
        f"every fin and lie in the {cover}s.",
        eliminations=[(c, digit) for c in elims],
        proof=sorted(proof) + [(f, digit) for f in fins],
    )


@technique
def x_wing(board: Board) -> Iterator[Step]:
    return basic_fish(board, 2)


@technique
def swordfish(board: Board) -> Iterator[Step]:
    return basic_fish(board, 3)


@technique
def jellyfish(board: Board) -> Iterator[Step]:
    return basic_fish(board, 4)


@technique
def finned_x_wing(board: Board) -> Iterator[Step]:
    """Finned and sashimi X-Wings (the step's name says which)."""
    return finned_fish(board, 2)


@technique
def finned_swordfish(board: Board) -> Iterator[Step]:
    return finned_fish(board, 3)


@technique
def finned_jellyfish(board: Board) -> Iterator[Step]:
    return finned_fish(board, 4)
