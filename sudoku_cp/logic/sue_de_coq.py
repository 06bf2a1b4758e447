"""Sue de Coq (the name as HoDoKu's ``SolutionType.SUE_DE_COQ`` spells it, library code 1101).

Read in hobiwan's HoDoKu, ``src/solver/MiscellaneousSolver.java`` (``getSueDeCoqInt``,
``checkIntersection``, ``checkHouses``): two or three empty cells C where a line meets a box hold
the digits V, at least two more than cells (|V| = |C| + n). Some cells R of the line (outside C)
and some cells B of the box (outside C and R) are picked so that

- R holds some digits of V (``A_R``) and ``e_R`` others, with |R| - e_R = d_R ≥ 1 and d_R < n;
- B holds digits of V (``A_B``, none of them in ``A_R``) and ``e_B`` others, with
  |B| - e_B = n - d_R.

R's cells are all different (one line), so at least d_R of them take digits of ``A_R``; likewise
at least n - d_R of B's take digits of ``A_B``; C's cells take |C| digits of V, different from R's
(same line) and from B's (same box); ``A_R`` and ``A_B`` are apart, so all of these are different
digits of V — |C| + n of them, all of V. Hence R takes every one of its other digits too (and B of
its), V minus ``A_B`` lies in C and R, V minus ``A_R`` in C and B: the rest of the line cannot hold
V minus ``A_B`` nor R's other digits, the rest of the box neither V minus ``A_R`` nor B's other
digits (HoDoKu's elimination sets in ``checkHouses``, the one for an extra digit both R and B
hold, added on 2009-02-16, included).

Only all-different groups are used, so the pattern holds for any two groups of any model that
share two empty cells (a line and a box in classic sudoku, a row and a jigsaw region, a diagonal
and a box …). The pairs are searched in the groups' order, the first as HoDoKu's line, the second
as its box: rows with boxes, then columns with boxes in classic sudoku, as HoDoKu does. As in
HoDoKu, C has two or three cells (``checkIntersection``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from .board import Board, Technique, digits_of, technique
from .patterns import cells_of
from .steps import Step

NAME = "Sue de Coq"


@functools.lru_cache(maxsize=64)
def _meetings(
    groups: tuple[tuple[int, ...], ...],
) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """Each pair of groups (first, second, in the groups' order) sharing at least two cells, with
    the cells they share and all their cells: made once per layout."""
    out = []
    for i, first in enumerate(groups):
        inside = set(first)
        for j in range(i + 1, len(groups)):
            shared = tuple(c for c in groups[j] if c in inside)
            if len(shared) >= 2:
                out.append((i, j, shared, tuple(sorted(inside.union(groups[j])))))
    return tuple(out)


def _subsets(
    cells: list[int], cands: list[int], v: int, least: int, most: int
) -> list[tuple[int, int, int]]:
    """The nonempty subsets of ``cells`` holding a digit of ``v`` that take between ``least``
    (at least one) and ``most`` of its digits (cells minus digits outside ``v``), as (a bit per
    cell, candidates, that number), in HoDoKu's order (depth first: {0}, {0,1}, {0,1,2} …
    then {0,2} …, ``checkHouses``' stack). Every set HoDoKu accepts is one of these."""
    out: list[tuple[int, int, int]] = []
    outside = ~v
    count = len(cells)
    masks = [cands[c] for c in cells]
    bits = [1 << c for c in cells]
    later = [0] * (count + 1)  # digits outside v the cells from k on hold
    for k in range(count - 1, -1, -1):
        later[k] = later[k + 1] | masks[k] & outside

    def walk(start: int, size: int, chosen: int, mask: int) -> None:
        for k in range(start, count):
            now_mask = mask | masks[k]
            now = chosen | bits[k]
            score = size - (now_mask & outside).bit_count()
            if least <= score <= most and now_mask & v:
                out.append((now, now_mask, score))
            # A further cell adds one at most, and takes one off for each new digit outside v:
            # go on only while some extension may land between least and most.
            if (
                score + count - k - 1 >= least
                and score + 1 - (later[k + 1] & ~now_mask).bit_count() <= most
            ):
                walk(k + 1, size + 1, now, now_mask)

    walk(0, 1, 0, 0)
    return out


@technique
def sue_de_coq(board: Board) -> Iterator[Step]:
    """Two or three cells where two groups meet hold n ≥ 2 more digits than cells; cells of the
    first group and cells of the second, with no digit of the meeting in common, use up those n
    digits: together the cells hold all their digits, which leave the rest of both groups."""
    values, cands = board.values, board.candidates
    # Where nothing was found before, only a pair of groups holding a changed cell can give a
    # step now: a pattern and its eliminations lie in its two groups.
    changed = board.changed_since(NAME)
    found = False
    for g1, g2, shared, cells in _meetings(board.groups):
        if changed is not None and changed.isdisjoint(cells):
            continue
        meet = [c for c in shared if not values[c]]
        if len(meet) < 2:
            continue
        line = [c for c in board.groups[g1] if not values[c]]
        box = [c for c in board.groups[g2] if not values[c]]
        for trio in _meeting_subsets(meet):
            v = 0
            for c in trio:
                v |= cands[c]
            n_plus = v.bit_count() - len(trio)
            if n_plus >= 2:
                for step in _with_houses(board, g1, g2, trio, v, n_plus, line, box):
                    found = True
                    yield step
    if not found:
        board.found_nothing(NAME)


def _meeting_subsets(meet: list[int]) -> Iterator[tuple[int, ...]]:
    """The two- and three-cell sets of the meeting, in HoDoKu's order (``checkIntersection``:
    a pair, then the triples that extend it)."""
    for i1 in range(len(meet) - 1):
        for i2 in range(i1 + 1, len(meet)):
            yield meet[i1], meet[i2]
            for i3 in range(i2 + 1, len(meet)):
                yield meet[i1], meet[i2], meet[i3]


def _with_houses(
    board: Board,
    g1: int,
    g2: int,
    trio: tuple[int, ...],
    v: int,
    n_plus: int,
    line: list[int],
    box: list[int],
) -> Iterator[Step]:
    cands = board.candidates
    by_score: dict[int, list[tuple[int, int]]] = {}
    box_source = [c for c in box if c not in trio]
    for box_bits, box_mask, score in _subsets(box_source, cands, v, 1, n_plus - 1):
        by_score.setdefault(score, []).append((box_bits, box_mask))
    if not by_score:
        return
    # The line cells take n_plus less what some box set takes.
    least, most = n_plus - max(by_score), n_plus - min(by_score)
    line_source = [c for c in line if c not in trio]
    for line_bits, line_mask, used in _subsets(line_source, cands, v, least, most):
        # used: the digits of V the line cells must take (HoDoKu: level - anzExtra)
        from_v = line_mask & v
        for box_bits, box_mask in by_score.get(n_plus - used, ()):
            # Not a line cell, and no digit of V the line cells hold (HoDoKu's
            # blockAllowedCandSet).
            if box_bits & line_bits or box_mask & from_v:
                continue
            step = _step(board, g1, g2, trio, v, line, box, cells_of(line_bits), line_mask,
                         cells_of(box_bits), box_mask)  # fmt: skip
            if step is not None:
                yield step


def _step(
    board: Board,
    g1: int,
    g2: int,
    trio: tuple[int, ...],
    v: int,
    line: list[int],
    box: list[int],
    line_cells: list[int],
    line_mask: int,
    box_cells: list[int],
    box_mask: int,
) -> Step | None:
    cands = board.candidates
    both = line_mask & box_mask  # extra digits held on both sides
    box_gone = ((v | box_mask) & ~line_mask) | both
    line_gone = ((v | line_mask) & ~box_mask) | both
    eliminations = []
    for cell in box:
        if cell not in trio and cell not in box_cells:
            eliminations += [(cell, d) for d in digits_of(cands[cell] & box_gone)]
    for cell in line:
        if cell not in trio and cell not in line_cells:
            eliminations += [(cell, d) for d in digits_of(cands[cell] & line_gone)]
    if not eliminations:
        return None
    n = board.name
    labels = board.puzzle.model.group_labels(board.size)

    def cells(group: Sequence[int]) -> str:
        return ", ".join(n(c) for c in group)

    def digits(mask: int) -> str:
        return "".join(str(d) for d in digits_of(mask))

    text = (
        f"{cells(trio)}, where {labels[g1]} meets {labels[g2]}, hold {digits(v)}; "
        f"{cells(line_cells)} in {labels[g1]} hold only {digits(line_mask)} and "
        f"{cells(box_cells)} in {labels[g2]} only {digits(box_mask)}, so these cells take "
        f"every one of those digits between them, and the rest of {labels[g1]} cannot be "
        f"{digits(line_gone)}, the rest of {labels[g2]} not {digits(box_gone)}."
    )
    pattern = [*trio, *line_cells, *box_cells]
    return board.step(
        NAME,
        text,
        eliminations=eliminations,
        proof=[(c, d) for c in pattern for d in digits_of(cands[c])],
        groups=(g1, g2),
    )


TECHNIQUES: tuple[tuple[str, Technique], ...] = ((NAME, sue_de_coq),)
