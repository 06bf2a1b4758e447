"""Wings: XY-Wing, XYZ-Wing and W-Wing (names as HoDoKu's ``SolutionType`` spells them).

Each is a short chain through bivalue cells; "sees" means ``Board.peers`` (sharing any group),
so every wing holds for any model whose rules are all-different groups. W-Wing's strong link
is a digit with exactly two places in a full group (see :mod:`.patterns`).
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, Technique, digits_of, technique
from .patterns import cells_of, conjugates, digit_mask, tables
from .steps import Link, Step


def _bivalues(board: Board) -> list[int]:
    return [
        c
        for c, mask in enumerate(board.candidates)
        if not board.values[c] and bin(mask).count("1") == 2
    ]


@technique
def xy_wing(board: Board) -> Iterator[Step]:
    """A bivalue pivot {x,y} sees pincers {x,z} and {y,z}: whichever the pivot holds, one
    pincer is z, so a cell seeing both pincers cannot be z."""
    t = tables(board)
    cands = board.candidates
    bivalue = _bivalues(board)
    bivalue_mask = sum(1 << c for c in bivalue)
    for pivot in bivalue:
        pm = cands[pivot]
        near = cells_of(t.peer_mask[pivot] & bivalue_mask)
        for a in near:
            am = cands[a]
            common_a = am & pm
            if am == pm or not common_a:
                continue
            z_bit = am & ~pm
            for b in near:
                bm = cands[b]
                if b == a or bm != (pm & ~common_a) | z_bit:
                    continue
                z = z_bit.bit_length()
                gone = cells_of(digit_mask(board, z) & t.peer_mask[a] & t.peer_mask[b])
                if not gone:
                    continue
                x, y = common_a.bit_length(), (pm & ~common_a).bit_length()
                n = board.name
                text = (
                    f"{n(pivot)} is {x} or {y}; if {x}, {n(a)} is {z}, if {y}, "
                    f"{n(b)} is {z}, so {', '.join(n(c) for c in gone)}, seeing both, cannot "
                    f"be {z}."
                )
                yield board.step(
                    "XY-Wing",
                    text,
                    eliminations=[(c, z) for c in gone],
                    proof=[(pivot, x), (pivot, y), (a, x), (a, z), (b, y), (b, z)],
                    links=[
                        Link((a, z), (a, x), True),
                        Link((a, x), (pivot, x), False),
                        Link((pivot, x), (pivot, y), True),
                        Link((pivot, y), (b, y), False),
                        Link((b, y), (b, z), True),
                    ],
                )


@technique
def xyz_wing(board: Board) -> Iterator[Step]:
    """A pivot {x,y,z} sees pincers {x,z} and {y,z}: one of the three holds z, so a cell
    seeing all three cannot be z."""
    t = tables(board)
    cands, values = board.candidates, board.values
    bivalue_mask = sum(1 << c for c in _bivalues(board))
    for pivot in range(len(cands)):
        pm = cands[pivot]
        if values[pivot] or bin(pm).count("1") != 3:
            continue
        near = [c for c in cells_of(t.peer_mask[pivot] & bivalue_mask) if cands[c] & ~pm == 0]
        for i, a in enumerate(near):
            for b in near[i + 1 :]:
                am, bm = cands[a], cands[b]
                if am == bm or am | bm != pm:
                    continue
                z_bit = am & bm
                z = z_bit.bit_length()
                gone_mask = digit_mask(board, z) & t.peer_mask[pivot]
                gone = cells_of(gone_mask & t.peer_mask[a] & t.peer_mask[b])
                if not gone:
                    continue
                x, y = (am & ~z_bit).bit_length(), (bm & ~z_bit).bit_length()
                n = board.name
                text = (
                    f"{n(pivot)} is {x}, {y} or {z}; if {x}, {n(a)} is {z}, if {y}, "
                    f"{n(b)} is {z}, so {', '.join(n(c) for c in gone)}, seeing all three, "
                    f"cannot be {z}."
                )
                yield board.step(
                    "XYZ-Wing",
                    text,
                    eliminations=[(c, z) for c in gone],
                    proof=[(pivot, d) for d in digits_of(pm)] + [(a, x), (a, z), (b, y), (b, z)],
                    links=[
                        Link((a, z), (a, x), True),
                        Link((a, x), (pivot, x), False),
                        Link((pivot, y), (b, y), False),
                        Link((b, y), (b, z), True),
                    ],
                )


@technique
def w_wing(board: Board) -> Iterator[Step]:
    """Two bivalue cells {x,y} that do not see each other, joined by a strong link on x (one
    end seeing each): if one is not y it is x, the link passes x to the other end, and the
    other cell is y. So one of them is y, and a cell seeing both cannot be."""
    t = tables(board)
    cands = board.candidates
    bivalue = _bivalues(board)
    by_mask: dict[int, list[int]] = {}
    for c in bivalue:
        by_mask.setdefault(cands[c], []).append(c)
    links_of: dict[int, list[tuple[int, int, int]]] = {}
    for mask, cells in by_mask.items():
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                if (t.peer_mask[a] >> b) & 1:
                    continue
                for x in digits_of(mask):
                    y = (mask & ~(1 << (x - 1))).bit_length()
                    gone = cells_of(digit_mask(board, y) & t.peer_mask[a] & t.peer_mask[b])
                    if not gone:
                        continue
                    if x not in links_of:
                        links_of[x] = conjugates(board, x)
                    for p, q, group in links_of[x]:
                        if {p, q} & {a, b}:
                            continue
                        for near_a, near_b in ((p, q), (q, p)):
                            if not (t.peer_mask[a] >> near_a) & 1:
                                continue
                            if not (t.peer_mask[b] >> near_b) & 1:
                                continue
                            n = board.name
                            text = (
                                f"{n(a)} and {n(b)} are both {x}/{y} and "
                                f"{n(near_a)}={n(near_b)} is a strong link on {x}; they cannot "
                                f"both be {x}, so one is {y} and "
                                f"{', '.join(n(c) for c in gone)} cannot be {y}."
                            )
                            yield board.step(
                                "W-Wing",
                                text,
                                eliminations=[(c, y) for c in gone],
                                proof=[(a, x), (a, y), (b, x), (b, y), (near_a, x), (near_b, x)],
                                groups=(group,),
                                links=[
                                    Link((a, y), (a, x), True),
                                    Link((a, x), (near_a, x), False),
                                    Link((near_a, x), (near_b, x), True),
                                    Link((near_b, x), (b, x), False),
                                    Link((b, x), (b, y), True),
                                ],
                            )


# Cheapest first, as HoDoKu orders them.
TECHNIQUES: tuple[tuple[str, Technique], ...] = (
    ("XY-Wing", xy_wing),
    ("XYZ-Wing", xyz_wing),
    ("W-Wing", w_wing),
)
