"""Uniqueness techniques: Uniqueness Test 1, 2, 4, 5 and 6, Hidden Rectangle and Bivalue
Universal Grave + 1.

**Every technique here assumes the puzzle has exactly one solution.** On a puzzle with several
(or none) they can remove true digits; use them for rating, never for a verdict of uniqueness.

The deadly pattern, generalised to any groups: four empty cells holding only x and y such that
every group meets the four in none or exactly two of them (for rows, columns and boxes: two
rows, two columns, two boxes). Then in any solution the x/y of the four can be swapped — each
group keeps its digits — giving a second solution. So a unique puzzle never fills the four with
x and y only. The swap argument needs all rules to be groups: on a model with rules beyond
groups (killer cages, thermometers …) these techniques report nothing. The argument is about
the solution, not the candidates: a corner that lost x or y to an earlier step still counts
(HoDoKu's default, "missing candidates"; see :func:`_deadly_patterns`).

BUG+1: when every empty cell but one has two candidates and each digit has 0 or 2 places in
every group, swapping every cell to its other candidate maps a solution to another (each group,
full-size, still has each digit once). So with one cell of three candidates, the digit whose
removal would leave that pattern must be the cell's digit. Only on models whose groups are all
full-size (every group holds every digit), for the same reason.

Names as HoDoKu spells them (hobiwan's HoDoKu ``SolutionType``/``intl/SolutionType.properties``:
"Uniqueness Test 1", "Uniqueness Test 2", "Uniqueness Test 4", "Uniqueness Test 5",
"Uniqueness Test 6", "Hidden Rectangle",
"Bivalue Universal Grave + 1").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .board import Board, Technique, digits_of, technique
from .patterns import cells_of, digit_mask, places, snapshot, tables
from .steps import Link, Step


def _swappable(board: Board) -> bool:
    return not board.puzzle.model.rules


def _rectangles(board: Board) -> list[tuple[int, int, int, int, int, int]]:
    """:func:`_deadly_patterns`, listed once per board state: seven techniques ask in turn."""
    snap = snapshot(board)
    if snap.rectangles is None:
        snap.rectangles = list(_deadly_patterns(board))
    return snap.rectangles


def _allowed(board: Board) -> list[int]:
    """Per digit, a mask of the empty cells no peer of which holds that digit (HoDoKu's
    ``SudokuStepFinder.initCandidatesAllowed``: a digit a technique removed is still allowed)."""
    t = tables(board)
    values = board.values
    empty = sum(1 << c for c, v in enumerate(values) if not v)
    allowed = [empty] * (board.size + 1)
    for cell, value in enumerate(values):
        if value:
            allowed[value] &= ~t.peer_mask[cell]
    return allowed


def _deadly_patterns(board: Board) -> Iterator[tuple[int, int, int, int, int, int]]:
    """(a, b, c, d, x, y): a bivalue empty cell a = {x, y} and three empty cells b, c, d no
    peer of which holds x or y, a-b, a-c, b-d, c-d sharing groups (d across from a), every
    group meeting the four in none or two. Each set of four with its two digits once.

    The corners may have lost x or y to other techniques ("missing candidates"): HoDoKu's
    default (``Options.ALLOW_UNIQUENESS_MISSING_CANDIDATES = true``; hobiwan's HoDoKu,
    ``src/solver/UniquenessSolver.java``, ``findUniquenessForStartCell`` with ``allowMissing``
    asks of the corners only ``finder.getCandidatesAllowed()``). The argument does not need the
    candidates: a unique puzzle never fills four such empty cells with x and y alone, whatever
    was removed. Every test below reads a corner's candidates as they are — a corner with none
    but x and y (one of them may be gone) is a pattern corner, the others hold more digits — and
    removes only candidates still there. Where a test needs a digit somewhere in a group
    (Uniqueness Test 4, 6, Hidden Rectangle), its being allowed in the corners (not placed in
    their groups) puts it in the group's places left. HoDoKu's far corner next to the start is
    tested for x only (``allowedCand2.contains(index22)`` twice in the condition); here both
    digits, in every corner."""
    t = tables(board)
    cands, values = board.candidates, board.values
    allowed = _allowed(board)
    seen: set[tuple[frozenset[int], int, int]] = set()
    for a, mask in enumerate(cands):
        if values[a] or bin(mask).count("1") != 2:
            continue
        x, y = digits_of(mask)
        both = allowed[x] & allowed[y] & ~(1 << a)
        near = cells_of(t.peer_mask[a] & both)
        for i, b in enumerate(near):
            for c in near[i + 1 :]:
                if (t.peer_mask[b] >> c) & 1:
                    continue
                far = t.peer_mask[b] & t.peer_mask[c] & both & ~t.peer_mask[a]
                for d in cells_of(far):
                    key = (frozenset((a, b, c, d)), x, y)
                    if key in seen or not _balanced(board, (a, b, c, d)):
                        continue
                    seen.add(key)
                    yield a, b, c, d, x, y


def _balanced(board: Board, cells: tuple[int, ...]) -> bool:
    count: dict[int, int] = {}
    for cell in cells:
        for g in board.cell_groups[cell]:
            count[g] = count.get(g, 0) + 1
    return all(n == 2 for n in count.values())


def _xy(x: int, y: int) -> int:
    return (1 << (x - 1)) | (1 << (y - 1))


def _extra(board: Board, corners: tuple[int, ...], x: int, y: int) -> list[int]:
    """The corners holding a digit besides x and y (HoDoKu's ``initCheck``:
    ``additionalCandidates``; the rest, its ``twoCandidates``, hold x and/or y only)."""
    xy = _xy(x, y)
    return [k for k in corners if board.candidates[k] & ~xy]


def _held(board: Board, cells: Iterable[int], digits: Iterable[int]) -> list[tuple[int, int]]:
    """The candidates ``digits`` of ``cells`` still on the board: a missing one is neither
    shown nor removed."""
    ds = tuple(digits)
    return [(k, v) for k in cells for v in ds if board.has(k, v)]


def _only_in(board: Board, g: int, digit: int, cells: tuple[int, ...]) -> bool:
    """``digit`` has places left in group ``g``, all among ``cells``."""
    found = places(board, g, digit)
    return bool(found) and set(found) <= set(cells)


def _ur_links(board: Board, a: int, b: int, c: int, d: int, x: int) -> list[Link]:
    return _held_links(board, [((a, b), x), ((b, d), x), ((d, c), x), ((c, a), x)], False)


def _held_links(
    board: Board, pairs: Iterable[tuple[tuple[int, int], int]], strong: bool
) -> list[Link]:
    """Links between candidates still held: a corner's missing digit is drawn nowhere."""
    return [
        Link((p, v), (q, v), strong) for (p, q), v in pairs if board.has(p, v) and board.has(q, v)
    ]


@technique
def uniqueness_test_1(board: Board) -> Iterator[Step]:
    """Three corners of a deadly pattern hold no digit but x and y: the fourth cannot be x or y
    (assumes a unique solution)."""
    if not _swappable(board):
        return
    for a, b, c, d, x, y in _rectangles(board):
        corners = (a, b, c, d)
        extra = _extra(board, corners, x, y)
        if len(extra) != 1:
            continue
        target = extra[0]
        gone = _held(board, [target], (x, y))
        if not gone:
            continue
        n = board.name
        text = (
            f"{', '.join(n(k) for k in corners if k != target)} hold no digit but "
            f"{x} and {y}; if {n(target)} were {x} or {y} the four could swap {x} and {y} and "
            f"the puzzle would have two solutions, so {n(target)} is neither."
        )
        yield board.step(
            "Uniqueness Test 1",
            text,
            eliminations=gone,
            proof=_held(board, corners, (x, y)),
            links=_ur_links(board, a, b, c, d, x),
        )


def _one_more(board: Board, extra: list[int], x: int, y: int) -> int:
    """The one digit besides x and y that the ``extra`` corners hold, or 0 when they hold more
    (HoDoKu's ``addMask`` in ``checkURForStep``)."""
    more = 0
    for k in extra:
        more |= board.candidates[k] & ~_xy(x, y)
    return more.bit_length() if more.bit_count() == 1 else 0


@technique
def uniqueness_test_2(board: Board) -> Iterator[Step]:
    """Two corners of a deadly pattern hold no digit but x and y, the other two (in one group)
    one more digit z: one of those two is z, so a cell seeing both is not (assumes a unique
    solution)."""
    if not _swappable(board):
        return
    t = tables(board)
    for a, b, c, d, x, y in _rectangles(board):
        corners = (a, b, c, d)
        extra = _extra(board, corners, x, y)
        if len(extra) != 2:
            continue
        p, q = extra
        z = _one_more(board, extra, x, y)
        if not z or not (t.peer_mask[p] >> q) & 1:
            continue
        gone = cells_of(digit_mask(board, z) & t.peer_mask[p] & t.peer_mask[q])
        if not gone:
            continue
        n = board.name
        text = (
            f"{n(p)} and {n(q)} must not both drop {z} (the four cells "
            f"would hold only {x} and {y}, a second solution), so one is {z} and "
            f"{', '.join(n(k) for k in gone)} cannot be."
        )
        yield board.step(
            "Uniqueness Test 2",
            text,
            eliminations=[(k, z) for k in gone],
            proof=_held(board, corners, (x, y)) + [(p, z), (q, z)],
            links=_ur_links(board, a, b, c, d, x),
        )


@technique
def uniqueness_test_4(board: Board) -> Iterator[Step]:
    """Two corners hold no digit but x and y; the other two share a full group in which x has
    no other place, so one of them is x; neither may then be y (the four would be x/y only), so
    y leaves both (assumes a unique solution)."""
    if not _swappable(board):
        return
    t = tables(board)
    for a, b, c, d, x, y in _rectangles(board):
        corners = (a, b, c, d)
        extra = _extra(board, corners, x, y)
        if len(extra) != 2:
            continue
        p, q = extra
        shared = set(t.full_groups_of[p]).intersection(t.full_groups_of[q])
        for g in sorted(shared):
            for locked, other in ((x, y), (y, x)):
                if not _only_in(board, g, locked, (p, q)):
                    continue
                gone = _held(board, (p, q), (other,))
                if not gone:
                    continue
                n = board.name
                text = (
                    f"{locked} in its group can only be in {n(p)} or "
                    f"{n(q)}; if either were {other} the four cells would hold only {x} and "
                    f"{y} (a second solution), so {other} leaves {n(p)} and {n(q)}."
                )
                yield board.step(
                    "Uniqueness Test 4",
                    text,
                    eliminations=gone,
                    proof=_held(board, corners, (x, y)),
                    groups=(g,),
                    links=_held_links(board, [((p, q), locked)], True),
                )


@technique
def uniqueness_test_5(board: Board) -> Iterator[Step]:
    """The corners that hold more than x and y — two diagonal ones or three — hold one more
    digit z only: one of them is z (else the four are x/y only, a second solution), so a cell
    seeing all of them is not z (assumes a unique solution). Two such corners in one group are
    Uniqueness Test 2."""
    if not _swappable(board):
        return
    t = tables(board)
    for a, b, c, d, x, y in _rectangles(board):
        corners = (a, b, c, d)
        extra = _extra(board, corners, x, y)
        if len(extra) not in (2, 3):
            continue
        z = _one_more(board, extra, x, y)
        if not z or (len(extra) == 2 and (t.peer_mask[extra[0]] >> extra[1]) & 1):
            continue
        gone_mask = digit_mask(board, z)
        for k in extra:
            gone_mask &= t.peer_mask[k]
        gone = cells_of(gone_mask)
        if not gone:
            continue
        n = board.name
        text = (
            f"{', '.join(n(k) for k in extra)} must not all drop {z} (the "
            f"four cells would hold only {x} and {y}, a second solution), so one is {z} and "
            f"{', '.join(n(k) for k in gone)}, seeing all of them, cannot be."
        )
        yield board.step(
            "Uniqueness Test 5",
            text,
            eliminations=[(k, z) for k in gone],
            proof=_held(board, corners, (x, y)) + [(k, z) for k in extra],
            links=_ur_links(board, a, b, c, d, x),
        )


@technique
def uniqueness_test_6(board: Board) -> Iterator[Step]:
    """Two diagonal corners a, d hold no digit but x and y, and in two parallel groups through
    the rectangle u (x or y) has its places left among their two corners only: u sits on a and
    d or on the other two b and c. On b and c it would leave a and d the other digit and the
    four x/y only (a second solution), so u leaves b and c (assumes a unique solution)."""
    if not _swappable(board):
        return
    for a, b, c, d, x, y in _rectangles(board):
        # a is bivalue x/y, so the two others are b and c, across from each other.
        if _extra(board, (a, b, c, d), x, y) != [b, c]:
            continue
        for u in (x, y):
            gone = _held(board, (b, c), (u,))
            if not gone:
                continue
            for (p, q), (r, s) in (((a, b), (c, d)), ((a, c), (b, d))):
                g1 = _link_group(board, p, q, u)
                g2 = _link_group(board, r, s, u)
                if g1 is None or g2 is None:
                    continue
                n = board.name
                text = (
                    f"{u} has no places but {n(p)}, {n(q)} in one group "
                    f"and {n(r)}, {n(s)} in another, so it is on {n(a)} and {n(d)} or on "
                    f"{n(b)} and {n(c)}; on {n(b)} and {n(c)} the four would hold only {x} and "
                    f"{y} (a second solution), so {u} leaves {n(b)} and {n(c)}."
                )
                yield board.step(
                    "Uniqueness Test 6",
                    text,
                    eliminations=gone,
                    proof=_held(board, (a, b, c, d), (x, y)),
                    groups=(g1, g2),
                    links=_held_links(board, [((p, q), u), ((r, s), u)], True),
                )


def _link_group(board: Board, p: int, q: int, digit: int) -> int | None:
    """A full group through p and q in which ``digit`` has places left only among the two."""
    t = tables(board)
    for g in sorted(set(t.full_groups_of[p]).intersection(t.full_groups_of[q])):
        if _only_in(board, g, digit, (p, q)):
            return g
    return None


@technique
def hidden_rectangle(board: Board) -> Iterator[Step]:
    """A corner k holds no digit but x and y; in a group through the opposite corner o and
    corner b, and in one through o and corner c, x has no places left but those two. Were o y,
    b and c would both be x, k then y, and the four x/y only (a second solution): so y leaves
    o (assumes a unique solution). HoDoKu's ``checkHiddenRectangle`` takes each such corner in
    turn."""
    if not _swappable(board):
        return
    t = tables(board)
    for a, b, c, d, x, y in _rectangles(board):
        xy = _xy(x, y)
        for k, o, sides in ((a, d, (b, c)), (d, a, (b, c)), (b, c, (a, d)), (c, b, (a, d))):
            if board.candidates[k] & ~xy:
                continue
            for locked, other in ((x, y), (y, x)):
                if not board.has(o, other):
                    continue
                via = []
                for corner in sides:
                    shared = sorted(set(t.full_groups_of[corner]).intersection(t.full_groups_of[o]))
                    g = next((g for g in shared if _only_in(board, g, locked, (corner, o))), None)
                    if g is None:
                        break
                    via.append(g)
                if len(via) != 2:
                    continue
                n = board.name
                m1, m2 = sides
                text = (
                    f"{n(k)} holds no digit but {x} and {y}, and {locked} has no places "
                    f"but {n(o)} and {n(m1)} in one group and {n(o)} and {n(m2)} in another; "
                    f"if {n(o)} were {other}, {n(m1)} and {n(m2)} would be {locked}, {n(k)} "
                    f"{other}, and the four could swap (a second solution), so {n(o)} is not "
                    f"{other}."
                )
                yield board.step(
                    "Hidden Rectangle",
                    text,
                    eliminations=[(o, other)],
                    proof=_held(board, (a, b, c, d), (x, y)),
                    groups=via,
                    links=_held_links(board, [((m1, o), locked), ((m2, o), locked)], True),
                )


@technique
def bug_plus_1(board: Board) -> Iterator[Step]:
    """Every empty cell but one is bivalue: the digit of the three-candidate cell that appears
    three times in its groups is the cell's digit (assumes a unique solution)."""
    if not _swappable(board) or any(len(g) != board.size for g in board.groups):
        return
    cands, values = board.candidates, board.values
    triple = -1
    for cell, mask in enumerate(cands):
        if values[cell]:
            continue
        count = bin(mask).count("1")
        if count == 2:
            continue
        if count != 3 or triple >= 0:
            return
        triple = cell
    if triple < 0:
        return
    for z in digits_of(cands[triple]):
        if _bug_without(board, triple, z):
            n = board.name
            text = (
                f"Every other empty cell has two candidates; "
                f"without {z} in {n(triple)} each digit would have two places in every group, "
                f"a pattern with no or two solutions, so {n(triple)} is {z}."
            )
            yield board.step(
                "Bivalue Universal Grave + 1",
                text,
                placements=[(triple, z)],
                proof=[(triple, d) for d in digits_of(cands[triple])],
                groups=board.cell_groups[triple],
            )


def _bug_without(board: Board, cell: int, digit: int) -> bool:
    """True when every digit has 0 or 2 places in every group once ``digit`` leaves ``cell``."""
    for g in range(len(board.groups)):
        for d in range(1, board.size + 1):
            found = places(board, g, d)
            n = len(found) - (d == digit and cell in found)
            if n not in (0, 2):
                return False
    return True


# Cheapest first, as HoDoKu orders them.
TECHNIQUES: tuple[tuple[str, Technique], ...] = (
    ("Uniqueness Test 1", uniqueness_test_1),
    ("Uniqueness Test 2", uniqueness_test_2),
    ("Uniqueness Test 4", uniqueness_test_4),
    ("Uniqueness Test 5", uniqueness_test_5),
    ("Uniqueness Test 6", uniqueness_test_6),
    ("Hidden Rectangle", hidden_rectangle),
    ("Bivalue Universal Grave + 1", bug_plus_1),
)


# Uniqueness Test 3 and the Avoidable Rectangles, read in hobiwan's HoDoKu
# (src/solver/UniquenessSolver.java; names as its SolutionType spells them: "Uniqueness Test 3",
# "Avoidable Rectangle Type 1", "Avoidable Rectangle Type 2"), written as searches for every step.


@technique
def uniqueness_test_3(board: Board) -> Iterator[Step]:
    """Two corners of a deadly pattern hold only x and y, the other two (sharing a group) more
    digits: one of those two holds one of its other digits, so the pair acts as one cell with
    those digits; with k more cells of the group it makes a naked set of k + 1 digits, which
    leave the rest of the group (assumes a unique solution).

    HoDoKu's ``checkURForStep`` (``twoSize == 2``), ``checkUniqueness3`` and
    ``checkUniqueness3Recursive``: the other cells have neither x nor y; every set of them is
    tried (depth first), and a set lying in another group the pair shares (a line's cells all
    in one box) removes the digits from that group too, reported once."""
    if not _swappable(board):
        return
    cands, values = board.candidates, board.values
    groups, cell_groups = board.groups, board.cell_groups
    for a, b, c, d, x, y in _rectangles(board):
        corners = (a, b, c, d)
        xy = _xy(x, y)
        extra = _extra(board, corners, x, y)
        if len(extra) != 2:
            continue
        p, q = extra
        shared = sorted(set(cell_groups[p]).intersection(cell_groups[q]))
        if not shared:
            continue
        pair_digits = (cands[p] | cands[q]) & ~xy
        for g in shared:
            others = [
                c for c in groups[g] if not values[c] and c not in (p, q) and not cands[c] & xy
            ]
            for chosen, mask in _naked_with_pair(board, others, pair_digits):
                members = {p, q, *chosen}
                # Cells all in a group searched before were reported from there (HoDoKu: a
                # box's cells all in one line or column are skipped, isSameLineOrCol).
                if any(h < g and members.issubset(groups[h]) for h in shared):
                    continue
                holding = [h for h in shared if members.issubset(groups[h])]
                gone = sorted(
                    {
                        (c, d)
                        for h in holding
                        for c in groups[h]
                        if not values[c] and c not in members
                        for d in digits_of(cands[c] & mask)
                    }
                )
                if not gone:
                    continue
                n = board.name
                two = [k for k in corners if k not in (p, q)]
                digits = "".join(str(d) for d in digits_of(mask))
                labels = board.puzzle.model.group_labels(board.size)
                where = " and ".join(labels[h] for h in holding)
                text = (
                    f"{n(two[0])} and {n(two[1])} hold only {x} and {y}, so {n(p)} or {n(q)} "
                    f"holds one of {''.join(str(d) for d in digits_of(pair_digits))} (else the "
                    f"four could swap {x} and {y}: a second solution); with "
                    f"{', '.join(n(c) for c in chosen)} they fill {len(chosen) + 1} places with "
                    f"{digits}, so the rest of {where} cannot be {digits}."
                )
                yield board.step(
                    "Uniqueness Test 3",
                    text,
                    eliminations=gone,
                    proof=[(k, v) for k in (*corners, *chosen) for v in digits_of(cands[k])],
                    groups=holding,
                )


def _naked_with_pair(
    board: Board, others: list[int], pair_digits: int
) -> Iterator[tuple[list[int], int]]:
    """Every nonempty set of ``others`` that, with the pair's digits, holds one digit more than
    it has cells, with those digits; depth first, as ``checkUniqueness3Recursive``."""
    cands = board.candidates
    chosen: list[int] = []

    def walk(start: int, mask: int) -> Iterator[tuple[list[int], int]]:
        for k in range(start, len(others)):
            with_k = mask | cands[others[k]]
            chosen.append(others[k])
            count = bin(with_k).count("1")
            if count == len(chosen) + 1:
                yield list(chosen), with_k
            # Digits only grow: past one more than every cell left could take, give up.
            if count <= len(others) - k + len(chosen):
                yield from walk(k + 1, with_k)
            chosen.pop()

    return walk(0, pair_digits)


def _placed(board: Board) -> list[int]:
    """The cells solved on the board that are not givens: placed by earlier steps or by the
    user's state (HoDoKu: ``getValue(i) != 0 && !isFixed(i)``, a '+' in its library format)."""
    givens = board.puzzle.cells
    return [c for c, v in enumerate(board.values) if v and not givens[c]]


def _avoidable_rectangles(
    board: Board,
) -> Iterator[tuple[int, int, int, int, int, int]]:
    """(a, b, c, d, x, y): a and b solved but not given, a = x and b = y, sharing a group; c
    sharing one with a, d with b and c; every group meeting the four in none or two. c is y
    solved (not given) or an open bivalue cell holding y, d likewise with x, not both solved
    (HoDoKu's conditions in ``findUniquenessForStartCell``). Each set of four cells once
    (HoDoKu's ``checkRect``). HoDoKu's search also wants a and b in one box (it pairs a start
    cell with a cell of its block); the argument does not, nor do other groups have boxes, so
    a and b here are any two cells sharing a group."""
    t = tables(board)
    values, cands = board.values, board.candidates
    placed = _placed(board)
    placed_mask = sum(1 << c for c in placed)
    solved_as = [0] * (board.size + 1)  # per digit, the placed cells holding it
    for cell in placed:
        solved_as[values[cell]] |= 1 << cell
    open_with = [0] * (board.size + 1)  # per digit, the open bivalue cells holding it
    for cell, mask in enumerate(cands):
        if not values[cell] and mask.bit_count() == 2:
            for digit in digits_of(mask):
                open_with[digit] |= 1 << cell
    seen: set[frozenset[int]] = set()
    for a in placed:
        x = values[a]
        for b in cells_of(t.peer_mask[a] & placed_mask):
            y = values[b]
            near_a = t.peer_mask[a] & ~t.peer_mask[b] & ~(1 << b)
            for c in cells_of(near_a & (solved_as[y] | open_with[y])):
                far = t.peer_mask[b] & t.peer_mask[c] & ~t.peer_mask[a] & ~(1 << a)
                far &= open_with[x] if values[c] else solved_as[x] | open_with[x]
                for d in cells_of(far):
                    four = frozenset((a, b, c, d))
                    if four in seen or not _balanced(board, (a, b, c, d)):
                        continue
                    seen.add(four)
                    yield a, b, c, d, x, y


def _wants(board: Board, cell: int, digit: int) -> bool:
    """An empty bivalue cell holding ``digit`` (HoDoKu's condition on an avoidable rectangle's
    open corners, ``findUniquenessForStartCell``)."""
    mask = board.candidates[cell]
    return board.has(cell, digit) and bin(mask).count("1") == 2


@technique
def avoidable_rectangle_1(board: Board) -> Iterator[Step]:
    """Three corners of a rectangle were solved, not given, as x, y, y, and the fourth (open,
    x and one more digit) completes the pattern with x: the four could swap x and y, a second
    solution of the givens, so it is not x (assumes a unique solution). HoDoKu's
    ``checkAvoidableRectangle``, first branch."""
    if not _swappable(board):
        return
    values, givens = board.values, board.puzzle.cells
    for a, b, c, d, x, y in _avoidable_rectangles(board):
        for solved, open_, want, other in ((c, d, x, y), (d, c, y, x)):
            if values[solved] != other or givens[solved] or not _wants(board, open_, want):
                continue
            n = board.name
            trio = [k for k in (a, b, c, d) if k != open_]
            text = (
                f"{', '.join(f'{n(k)}={values[k]}' for k in trio)} were solved, not given; "
                f"were {n(open_)} {want}, the four could swap {x} and {y} and the givens would "
                f"have two solutions, so {n(open_)} is not {want}."
            )
            yield board.step(
                "Avoidable Rectangle Type 1",
                text,
                eliminations=[(open_, want)],
                proof=[(open_, v) for v in digits_of(board.candidates[open_]) if v != want],
                cells=trio,
            )


@technique
def avoidable_rectangle_2(board: Board) -> Iterator[Step]:
    """Two corners were solved, not given, as x and y; the other two are open, one {y, z}
    across from x, the other {x, z}: they may not be y and x (the four could swap, a second
    solution), so one of them is z and a cell seeing both is not (assumes a unique solution).
    HoDoKu's ``checkAvoidableRectangle``, second branch."""
    if not _swappable(board):
        return
    t = tables(board)
    cands, values = board.candidates, board.values
    for a, b, c, d, x, y in _avoidable_rectangles(board):
        if values[c] or values[d] or not _wants(board, c, y) or not _wants(board, d, x):
            continue
        z = (cands[c] & ~(1 << (y - 1))).bit_length()
        if not board.has(d, z):
            continue
        gone = cells_of(digit_mask(board, z) & t.peer_mask[c] & t.peer_mask[d])
        if not gone:
            continue
        n = board.name
        text = (
            f"{n(a)}={x} and {n(b)}={y} were solved, not given; {n(c)} and {n(d)} may not be "
            f"{y} and {x} (the four could swap: two solutions of the givens), so one is {z} "
            f"and {', '.join(n(k) for k in gone)}, seeing both, cannot be {z}."
        )
        yield board.step(
            "Avoidable Rectangle Type 2",
            text,
            eliminations=[(k, z) for k in gone],
            proof=[(c, y), (c, z), (d, x), (d, z)],
            cells=(a, b),
        )
