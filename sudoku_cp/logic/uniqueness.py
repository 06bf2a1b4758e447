"""Uniqueness techniques: Uniqueness Test 1, 2, 4, 5 and 6, Hidden Rectangle and Bivalue
Universal Grave + 1.

**Every technique here assumes the puzzle has exactly one solution.** On a puzzle with several
(or none) they can remove true digits; use them for rating, never for a verdict of uniqueness.

The deadly pattern, generalised to any groups: four empty cells holding only x and y such that
every group meets the four in none or exactly two of them (for rows, columns and boxes: two
rows, two columns, two boxes). Then in any solution the x/y of the four can be swapped — each
group keeps its digits — giving a second solution. So a unique puzzle never fills the four with
x and y only. The swap argument needs all rules to be groups: on a model with rules beyond
groups (killer cages, thermometers …) these techniques report nothing.

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

from collections.abc import Iterator

from .board import Board, Technique, digits_of, technique
from .patterns import cells_of, digit_mask, places, snapshot, tables
from .steps import Link, Step


def _swappable(board: Board) -> bool:
    return not board.puzzle.model.rules


def _rectangles(board: Board) -> list[tuple[int, int, int, int, int, int]]:
    """:func:`_deadly_patterns`, listed once per board state: six techniques ask in turn."""
    snap = snapshot(board)
    if snap.rectangles is None:
        snap.rectangles = list(_deadly_patterns(board))
    return snap.rectangles


def _deadly_patterns(board: Board) -> Iterator[tuple[int, int, int, int, int, int]]:
    """(a, b, c, d, x, y): a deadly pattern a-b, a-c, b-d, c-d (each pair in a group), a
    bivalue {x, y}, the other three with x and y among their candidates; every group meets the
    four cells in 0 or 2 of them."""
    t = tables(board)
    cands, values = board.candidates, board.values
    size = len(cands)
    masks = snapshot(board).masks  # per digit, the empty cells holding it
    for a in range(size):
        mask = cands[a]
        if values[a] or bin(mask).count("1") != 2:
            continue
        x, y = digits_of(mask)
        both_mask = masks[x] & masks[y] & ~(1 << a)
        near = cells_of(t.peer_mask[a] & both_mask)
        for i, b in enumerate(near):
            for c in near[i + 1 :]:
                if (t.peer_mask[b] >> c) & 1:
                    continue
                for d in cells_of(t.peer_mask[b] & t.peer_mask[c] & both_mask):
                    if d == a or (t.peer_mask[a] >> d) & 1:
                        continue
                    if not _balanced(board, (a, b, c, d)):
                        continue
                    yield a, b, c, d, x, y


def _balanced(board: Board, cells: tuple[int, ...]) -> bool:
    count: dict[int, int] = {}
    for cell in cells:
        for g in board.cell_groups[cell]:
            count[g] = count.get(g, 0) + 1
    return all(n == 2 for n in count.values())


def _ur_links(a: int, b: int, c: int, d: int, x: int) -> list[Link]:
    return [
        Link((a, x), (b, x), False),
        Link((b, x), (d, x), False),
        Link((d, x), (c, x), False),
        Link((c, x), (a, x), False),
    ]


@technique
def uniqueness_test_1(board: Board) -> Iterator[Step]:
    """Three corners of a deadly pattern hold only x and y: the fourth cannot be x or y
    (assumes a unique solution)."""
    if not _swappable(board):
        return
    cands = board.candidates
    for a, b, c, d, x, y in _rectangles(board):
        pair = cands[a]
        corners = (a, b, c, d)
        extra = [cell for cell in corners if cands[cell] != pair]
        if len(extra) != 1:
            continue
        target = extra[0]
        n = board.name
        text = (
            f"{', '.join(n(k) for k in corners if k != target)} hold only "
            f"{x} and {y}; if {n(target)} were {x} or {y} the four could swap {x} and {y} and "
            f"the puzzle would have two solutions, so {n(target)} is neither."
        )
        yield board.step(
            "Uniqueness Test 1",
            text,
            eliminations=[(target, x), (target, y)],
            proof=[(k, v) for k in corners for v in (x, y)],
            links=_ur_links(a, b, c, d, x),
        )


@technique
def uniqueness_test_2(board: Board) -> Iterator[Step]:
    """Two corners of a deadly pattern hold only x and y, the other two (in one group) x, y
    and one more digit z: one of those two is z, so a cell seeing both is not (assumes a
    unique solution)."""
    if not _swappable(board):
        return
    t = tables(board)
    cands = board.candidates
    for a, b, c, d, x, y in _rectangles(board):
        pair = cands[a]
        corners = (a, b, c, d)
        extra = [cell for cell in corners if cands[cell] != pair]
        if len(extra) != 2:
            continue
        p, q = extra
        if cands[p] != cands[q] or bin(cands[p]).count("1") != 3:
            continue
        if not (t.peer_mask[p] >> q) & 1:
            continue
        z = (cands[p] & ~pair).bit_length()
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
            proof=[(k, v) for k in corners for v in (x, y)] + [(p, z), (q, z)],
            links=_ur_links(a, b, c, d, x),
        )


@technique
def uniqueness_test_4(board: Board) -> Iterator[Step]:
    """Two corners hold only x and y; the other two share a full group in which x has no other
    place, so one of them is x; neither may then be y (the four would be x/y only), so y
    leaves both (assumes a unique solution)."""
    if not _swappable(board):
        return
    t = tables(board)
    cands = board.candidates
    for a, b, c, d, x, y in _rectangles(board):
        pair = cands[a]
        corners = (a, b, c, d)
        extra = [cell for cell in corners if cands[cell] != pair]
        if len(extra) != 2:
            continue
        p, q = extra
        shared = set(t.full_groups_of[p]).intersection(t.full_groups_of[q])
        for g in sorted(shared):
            for locked, other in ((x, y), (y, x)):
                if sorted(places(board, g, locked)) != sorted((p, q)):
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
                    eliminations=[(p, other), (q, other)],
                    proof=[(k, v) for k in corners for v in (x, y)],
                    groups=(g,),
                    links=[Link((p, locked), (q, locked), True)],
                )


@technique
def uniqueness_test_5(board: Board) -> Iterator[Step]:
    """The corners that are not x/y only — two diagonal ones or three — all hold x, y and one
    more digit z: one of them is z (else the four are x/y only, a second solution), so a cell
    seeing all of them is not z (assumes a unique solution). Two such corners in one group are
    Uniqueness Test 2."""
    if not _swappable(board):
        return
    t = tables(board)
    cands = board.candidates
    for a, b, c, d, x, y in _rectangles(board):
        pair = cands[a]
        corners = (a, b, c, d)
        extra = [cell for cell in corners if cands[cell] != pair]
        if len(extra) not in (2, 3) or len({cands[k] for k in extra}) != 1:
            continue
        if bin(cands[extra[0]]).count("1") != 3:
            continue
        if len(extra) == 2 and (t.peer_mask[extra[0]] >> extra[1]) & 1:
            continue
        z = (cands[extra[0]] & ~pair).bit_length()
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
            proof=[(k, v) for k in corners for v in (x, y)] + [(k, z) for k in extra],
            links=_ur_links(a, b, c, d, x),
        )


@technique
def uniqueness_test_6(board: Board) -> Iterator[Step]:
    """Two diagonal corners a, d hold only x and y, and in two parallel groups through the
    rectangle u (x or y) has only its two corners each: u sits on a and d or on the other two
    b and c. On b and c it would leave a and d the other digit and the four x/y only (a second
    solution), so u leaves b and c (assumes a unique solution)."""
    if not _swappable(board):
        return
    cands = board.candidates
    for a, b, c, d, x, y in _rectangles(board):
        pair = cands[a]
        if cands[d] != pair or cands[b] == pair or cands[c] == pair:
            continue
        for u in (x, y):
            for (p, q), (r, s) in (((a, b), (c, d)), ((a, c), (b, d))):
                g1 = _link_group(board, p, q, u)
                g2 = _link_group(board, r, s, u)
                if g1 is None or g2 is None:
                    continue
                n = board.name
                text = (
                    f"{u} has only the places {n(p)}, {n(q)} in one group "
                    f"and {n(r)}, {n(s)} in another, so it is on {n(a)} and {n(d)} or on "
                    f"{n(b)} and {n(c)}; on {n(b)} and {n(c)} the four would hold only {x} and "
                    f"{y} (a second solution), so {u} leaves {n(b)} and {n(c)}."
                )
                yield board.step(
                    "Uniqueness Test 6",
                    text,
                    eliminations=[(b, u), (c, u)],
                    proof=[(k, v) for k in (a, b, c, d) for v in (x, y)],
                    groups=(g1, g2),
                    links=[Link((p, u), (q, u), True), Link((r, u), (s, u), True)],
                )


def _link_group(board: Board, p: int, q: int, digit: int) -> int | None:
    """A full group in which ``digit`` has exactly the two places p and q, if any."""
    t = tables(board)
    for g in sorted(set(t.full_groups_of[p]).intersection(t.full_groups_of[q])):
        if sorted(places(board, g, digit)) == sorted((p, q)):
            return g
    return None


@technique
def hidden_rectangle(board: Board) -> Iterator[Step]:
    """Corner a holds only x and y; in a group through the opposite corner d and corner b, and
    in one through d and corner c, x has no other place than those two. Were d y, b and c would
    both be x, a then y, and the four x/y only (a second solution): so y leaves d (assumes a
    unique solution)."""
    if not _swappable(board):
        return
    t = tables(board)
    for a, b, c, d, x, y in _rectangles(board):
        for locked, other in ((x, y), (y, x)):
            via = []
            for corner in (b, c):
                shared = sorted(set(t.full_groups_of[corner]).intersection(t.full_groups_of[d]))
                g = next(
                    (g for g in shared if sorted(places(board, g, locked)) == sorted((corner, d))),
                    None,
                )
                if g is None:
                    break
                via.append(g)
            if len(via) != 2:
                continue
            n = board.name
            text = (
                f"{n(a)} holds only {x} and {y}, and {locked} has only two "
                f"places in a group through {n(d)} and {n(b)} and in one through {n(d)} and "
                f"{n(c)}; if {n(d)} were {other}, {n(b)} and {n(c)} would be {locked}, {n(a)} "
                f"{other}, and the four could swap (a second solution), so {n(d)} is not {other}."
            )
            yield board.step(
                "Hidden Rectangle",
                text,
                eliminations=[(d, other)],
                proof=[(k, v) for k in (a, b, c, d) for v in (x, y)],
                groups=via,
                links=[Link((b, locked), (d, locked), True), Link((c, locked), (d, locked), True)],
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


def _allowed(board: Board) -> list[int]:
    """Per digit, a mask of the empty cells no peer of which holds that digit (HoDoKu's
    ``SudokuStepFinder.candidatesAllowed``: a digit a technique removed is still allowed)."""
    t = tables(board)
    values = board.values
    empty = sum(1 << c for c, v in enumerate(values) if not v)
    allowed = [empty] * (board.size + 1)
    for cell, value in enumerate(values):
        if value:
            allowed[value] &= ~t.peer_mask[cell]
    return allowed


def _open_rectangles(board: Board) -> Iterator[tuple[tuple[int, int, int, int], int, int]]:
    """((a, b, c, d), x, y): a bivalue empty cell a = {x, y} and three empty cells in which
    no peer holds x or y, every group meeting the four in none or two, a-b, a-c, b-d, c-d
    sharing groups. The corners may have lost x or y to other techniques: HoDoKu's default
    (``Options.ALLOW_UNIQUENESS_MISSING_CANDIDATES = true``, read in
    ``UniquenessSolver.findUniquenessForStartCell``) — the pattern's argument does not need
    them (a unique solution never fills the four with x and y alone). There, the far corner
    next to the start is tested for x only (``allowedCand2.contains(index22)`` twice); here
    both digits, in every corner."""
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
                    yield (a, b, c, d), x, y


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
    for corners, x, y in _open_rectangles(board):
        xy = (1 << (x - 1)) | (1 << (y - 1))
        extra = [k for k in corners if cands[k] & ~xy]
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
