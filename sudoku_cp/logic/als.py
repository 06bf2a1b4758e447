"""Almost Locked Sets: ALS-XZ, ALS-XY-Wing, ALS-XY-Chain and Death Blossom.

An *almost locked set* (ALS) is N empty cells of one all-different group holding N+1 digits
between them: whatever happens, at most one of those digits is missing, so once one digit is
known to be missing, the others are all there (the set is "locked"). A single bivalue cell is
an ALS. A *restricted common* (RC) of two ALS is a digit both hold whose places in the two sets
all see each other, so at most one of the sets holds it: if one does, the other is locked.

- ALS-XZ: A and B with an RC x. One of them lacks x and is locked, so a digit z both hold (not
  x) is in A or in B: a cell seeing every z of both cannot be z. With two RCs ("doubly
  linked") each set minus the two RCs is locked on its own (a missing digit of A would leave A
  with both RCs and B with neither), so its digits go from every cell seeing all their places.
- ALS-XY-Wing: A and B each share an RC with C (two different digits). C lacks at most one of
  them, so A or B is locked and a digit z of both (not an RC) goes from cells seeing all its
  places in A and B.
- ALS-XY-Chain: A1 -x1- A2 -x2- … -An, each RC different from the one before it. If A1 lacks z
  it is locked and holds x1, so A2 lacks x1 and holds x2, …, so An holds z: z is in A1 or An.
- Death Blossom: a stem cell whose every digit d has a petal, an ALS whose places of d all see
  the stem. Whatever the stem holds, that petal lacks it and is locked, so a digit z every
  petal holds (not a stem digit) is in one of them.

"Sees" means ``Board.peers`` (sharing any group) and an ALS lies in one of ``Board.groups``, so
every step holds for any model whose rules are all-different groups (a group smaller than the
grid may lack digits, which an ALS allows: it claims only "at most one missing").

The meanings are HoDoKu's, read in hobiwan's HoDoKu (the PseudoFish/yoki123 fork):
``src/solver/Als.java`` (the ALS, ``computeFields``: its places and "buddies" per digit),
``src/solver/SudokuStepFinder.java`` (``doGetAlses``/``checkAlsRecursive``: ALS of one house of
at most house-size − 1 cells; ``doGetRestrictedCommons``: RCs, none in an overlap),
``src/solver/RestrictedCommon.java`` (``checkRC``: a chain's RC must differ from the one
before), and ``src/solver/AlsSolver.java`` (``getAlsXZInt``, ``checkDoublyLinkedAls``,
``getAlsXYWingInt``, ``getAlsXYChainRecursive``, ``checkAlsDeathBlossomRecursive`` and
``checkCandidatesToDelete``: what each step removes). HoDoKu's solver allows no overlapping
ALS (``Options.ALLOW_ALS_OVERLAP = false``); its regression library's "type 2" cases allow
them, which the searches here take as ``overlap=True``.

Step names: HoDoKu's ``SolutionType`` constants ``ALS_XZ``, ``ALS_XY_WING``, ``ALS_XY_CHAIN``,
``DEATH_BLOSSOM`` (reglib codes 0901–0904), spelled "ALS-XZ", "ALS-XY-Wing", "ALS-XY-Chain"
and "Death Blossom" (HoDoKu's English ``intl/SolutionType.properties`` writes the first three
out as "Almost Locked Set XZ-Rule", "Almost Locked Set XY-Wing" and "Almost Locked Set Chain";
the short names are those the rating table and the community use).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from .board import Board, Technique, digits_of, technique
from .patterns import cells_of, snapshot, tables
from .steps import Candidate, Link, Step

ALS_XZ, ALS_XY_WING, ALS_XY_CHAIN, DEATH_BLOSSOM = (
    "ALS-XZ",
    "ALS-XY-Wing",
    "ALS-XY-Chain",
    "Death Blossom",
)

MAX_ALS_CELLS = 8
"""The largest ALS: HoDoKu's ``checkAlsRecursive`` stops at a house's size − 1 cells (8 on
9x9); bigger grids keep the same cap, which bounds the enumeration (subsets of a 16-cell
group are too many otherwise)."""
MAX_SUBSET_WORK = 50_000
"""Subsets of one group looked at per board state at most (a 9-cell group has 511; only a
pathological big-grid group gets near it, and then some of its ALS go unseen)."""
MAX_CHAIN_RCS = 6
"""The longest ALS-XY-Chain, in RCs (7 ALS): HoDoKu's ``Options.ALL_STEPS_ALS_CHAIN_LENGTH``,
the length its regression tests and "all steps" search use."""
MAX_CHAIN_WORK = 200_000
"""Chain extensions examined per call at most (a bound on time on any grid; the search may
then miss a chain, never report a wrong one)."""
MAX_BLOSSOM_WORK = 100_000
"""Petal combinations examined per call at most (the same kind of bound)."""


class Als:
    """One ALS: its cells and digits, and per digit its places and the cells seeing them."""

    __slots__ = ("buddies", "cells", "digits", "group", "places", "seen")

    def __init__(self, cells: int, digits: int, group: int, board: Board, masks: list[int]) -> None:
        self.cells = cells
        self.digits = digits
        self.group = group
        peer_mask = tables(board).peer_mask
        size = board.size
        places = [0] * (size + 1)
        seen = [0] * (size + 1)
        buddies = [0] * (size + 1)
        for digit in digits_of(digits):
            here = cells & masks[digit]
            places[digit] = here
            common = -1
            while here:
                low = here & -here
                common &= peer_mask[low.bit_length() - 1]
                here ^= low
            seen[digit] = common
            # HoDoKu's buddiesPerCandidat: cells outside the ALS, with the digit, seeing all
            # of its places in the ALS (Als.computeFields).
            buddies[digit] = common & masks[digit] & ~cells
        self.places = places
        """Per digit, a mask of the cells of the ALS holding it."""
        self.seen = seen
        """Per digit, a mask of the cells seeing every place of it in the ALS."""
        self.buddies = buddies
        """Per digit, the empty cells outside the ALS with that digit seeing all its places."""


def _digit_masks(board: Board) -> list[int]:
    masks = [0] * (board.size + 1)
    values = board.values
    for cell, mask in enumerate(board.candidates):
        if values[cell]:
            continue
        bit = 1 << cell
        while mask:
            low = mask & -mask
            masks[low.bit_length()] |= bit
            mask ^= low
    return masks


class _State:
    """The ALS of one board state and what the searches derive from them, made once for all
    four techniques (the solver asks each in turn without changing the board)."""

    def __init__(self, board: Board) -> None:
        self.alses = _collect(board)
        self.rcs: dict[bool, list[list[tuple[int, int]]]] = {}

    def restricted_commons(self, overlap: bool) -> list[list[tuple[int, int]]]:
        """Per ALS (by index), its neighbours ``(j, rc_mask)`` with at least one RC."""
        found = self.rcs.get(overlap)
        if found is None:
            found = _restricted_commons(self.alses, overlap)
            self.rcs[overlap] = found
        return found


def _state(board: Board) -> _State:
    """The board state's ALS, kept on its :func:`.patterns.snapshot` (made once a state)."""
    snap = snapshot(board)
    if snap.als is None:
        snap.als = _State(board)
    return snap.als


def alses(board: Board) -> list[Als]:
    """Every ALS of the board as it is (made once a board state), in HoDoKu's order."""
    return _state(board).alses


def _collect(board: Board) -> list[Als]:
    """Every ALS of the board, each once (one found in a row and a box is one ALS), in the
    order of HoDoKu's ``doGetAlses``: group by group, each as a depth-first walk of subsets."""
    values, cands = board.values, board.candidates
    seen: set[int] = set()
    out: list[Als] = []
    memo = board.memo
    masks = _digit_masks(board)
    for index, group in enumerate(board.groups):
        empty = [c for c in group if not values[c]]
        if not empty:
            continue
        most = min(len(group) - 1, MAX_ALS_CELLS)
        # The group's subsets depend on its empty cells and their candidates alone: a step
        # elsewhere leaves them as they were.
        key = ("als", index, *empty, *(cands[c] for c in empty))
        found = memo.get(key)
        if found is None:
            found = memo[key] = _subsets(empty, [cands[c] for c in empty], most)
        for cells, digits in cast(list[tuple[int, int]], found):
            if cells not in seen:
                seen.add(cells)
                out.append(Als(cells, digits, index, board, masks))
    return out


def _subsets(cells: list[int], masks: list[int], most: int) -> list[tuple[int, int]]:
    """The (cells, digits) masks of the subsets of ``cells`` (at most ``most``) holding one
    digit more than cells. A subset whose digits already exceed ``most`` + 1 cannot grow into
    one (digits only grow), so the walk stops there."""
    found: list[tuple[int, int]] = []
    limit = most + 1
    work = [0]

    def walk(start: int, count: int, cell_mask: int, digits: int) -> None:
        for i in range(start, len(cells)):
            work[0] += 1
            if work[0] > MAX_SUBSET_WORK:
                return
            union = digits | masks[i]
            width = union.bit_count()
            if width > limit:
                continue
            here = cell_mask | (1 << cells[i])
            if width == count + 2:
                found.append((here, union))
            if count + 1 < most:
                walk(i + 1, count + 1, here, union)

    walk(0, 0, 0, 0)
    return found


def _restricted_commons(alses: list[Als], overlap: bool) -> list[list[tuple[int, int]]]:
    """For every pair of ALS, the digits that are RCs (HoDoKu's ``doGetRestrictedCommons``): a
    digit of both whose places all see each other and, where the sets overlap, none of whose
    places lies in the overlap. Without ``overlap``, overlapping sets have no RC at all."""
    by_digit: dict[int, list[int]] = {}
    for i, als in enumerate(alses):
        for digit in digits_of(als.digits):
            by_digit.setdefault(digit, []).append(i)
    pair_rcs: dict[tuple[int, int], int] = {}
    for digit, members in by_digit.items():
        bit = 1 << (digit - 1)
        # Sets with the same places of the digit behave alike: pair the patterns first.
        patterns: dict[int, list[int]] = {}
        for i in members:
            patterns.setdefault(alses[i].places[digit], []).append(i)
        keys = list(patterns)
        seen_of = {p: alses[patterns[p][0]].seen[digit] for p in keys}
        for a_index, p in enumerate(keys):
            for q in keys[a_index:]:
                if p & ~seen_of[q]:
                    continue  # some place of p misses some place of q (or they share one)
                for i in patterns[p]:
                    a = alses[i]
                    for j in patterns[q]:
                        if i == j:
                            continue
                        b = alses[j]
                        shared = a.cells & b.cells
                        if shared and (not overlap or (p | q) & shared):
                            continue
                        key = (i, j) if i < j else (j, i)
                        pair_rcs[key] = pair_rcs.get(key, 0) | bit
    out: list[list[tuple[int, int]]] = [[] for _ in alses]
    for (i, j), mask in sorted(pair_rcs.items()):
        out[i].append((j, mask))
        out[j].append((i, mask))
    return out


# --- the steps' pictures and words ------------------------------------------------------------


def _names(board: Board, mask: int) -> str:
    return ",".join(board.name(c) for c in cells_of(mask))


def _describe(board: Board, als: Als) -> str:
    return f"{{{_names(board, als.cells)}}} ({''.join(map(str, digits_of(als.digits)))})"


def _proof(board: Board, *alses: Als, gone: dict[int, int] | None = None) -> list[Candidate]:
    """The sets' candidates, less those the step removes (a middle set of a chain, or C of
    a wing, may lose one: drawn as removed, not as proof)."""
    out: list[Candidate] = []
    seen: set[Candidate] = set(_eliminations(gone or {}))
    for als in alses:
        for cell in cells_of(als.cells):
            for digit in digits_of(board.candidates[cell]):
                if (cell, digit) not in seen:
                    seen.add((cell, digit))
                    out.append((cell, digit))
    return out


def _rc_link(board: Board, a: Als, b: Als, digit: int) -> Link:
    """A weak link between the nearest places of an RC in two sets (as HoDoKu draws it,
    ``AlsSolver.addRestrictedCommonToStep``)."""
    size = board.size
    best: tuple[int, int, int] | None = None
    for p in cells_of(a.places[digit]):
        for q in cells_of(b.places[digit]):
            dr, dc = p // size - q // size, p % size - q % size
            dist = dr * dr + dc * dc
            if best is None or dist < best[0]:
                best = (dist, p, q)
    assert best is not None
    return Link((best[1], digit), (best[2], digit), False)


def _digits(mask: int) -> str:
    return "/".join(map(str, digits_of(mask)))


def _gone_text(board: Board, gone: dict[int, int]) -> str:
    """ "r1c1,r1c2<>5, r3c3<>7" style, digit by digit."""
    parts = []
    for digit in sorted(gone):
        parts.append(f"{_names(board, gone[digit])}<>{digit}")
    return ", ".join(parts)


def _eliminations(gone: dict[int, int]) -> list[Candidate]:
    return [(cell, digit) for digit, mask in gone.items() for cell in cells_of(mask)]


# --- ALS-XZ -----------------------------------------------------------------------------------


def search_als_xz(board: Board, *, overlap: bool = False) -> Iterator[Step]:
    """Every ALS-XZ (HoDoKu ``AlsSolver.getAlsXZInt``): for each pair of ALS with an RC, the
    common digits other than the RC leave the cells seeing all their places in both; with two
    RCs (doubly linked), both RCs do so, and each set's other digits leave the cells (outside
    the other set) seeing all their places in it (``checkDoublyLinkedAls``)."""
    state = _state(board)
    alses = state.alses
    for i, neighbours in enumerate(state.restricted_commons(overlap)):
        a = alses[i]
        for j, rcs in neighbours:
            if j < i:
                continue
            b = alses[j]
            gone: dict[int, int] = {}
            common = a.digits & b.digits
            for x in digits_of(rcs):
                for z in digits_of(common & ~(1 << (x - 1))):
                    hit = a.buddies[z] & b.buddies[z]
                    if hit:
                        gone[z] = gone.get(z, 0) | hit
            doubly = rcs.bit_count() > 1
            if doubly:
                for one, other in ((a, b), (b, a)):
                    for v in digits_of(one.digits & ~rcs):
                        hit = one.buddies[v] & ~other.cells
                        if hit:
                            gone[v] = gone.get(v, 0) | hit
            if not gone:
                continue
            links = [_rc_link(board, a, b, x) for x in digits_of(rcs)]
            if doubly:
                why = (
                    f"{_digits(rcs)} are restricted commons (their places in both see each "
                    "other, so each is in one set at most): each set less them is locked"
                )
            else:
                why = (
                    f"{_digits(rcs)} is a restricted common (its places in both see each "
                    "other, so one set at most holds it and the other is locked): "
                    f"{_digits(a.digits & b.digits & ~rcs)} of both is in A or B"
                )
            text = (
                f"ALS A {_describe(board, a)} and ALS B {_describe(board, b)}: {why}, so "
                f"{_gone_text(board, gone)}."
            )
            yield board.step(
                ALS_XZ,
                text,
                eliminations=_eliminations(gone),
                proof=_proof(board, a, b, gone=gone),
                links=links,
            )


# --- ALS-XY-Wing ------------------------------------------------------------------------------


def search_als_xy_wing(board: Board, *, overlap: bool = False) -> Iterator[Step]:
    """Every ALS-XY-Wing (HoDoKu ``AlsSolver.getAlsXYWingInt``): A and B each share an RC with
    C, not one and the same single digit; A and B do not overlap (unless ``overlap``) and
    neither holds the other; a digit of A and B other than those RCs leaves every cell seeing
    all its places in A and B (cells of C included)."""
    state = _state(board)
    alses = state.alses
    for k, neighbours in enumerate(state.restricted_commons(overlap)):
        c = alses[k]
        for n, (i, ra) in enumerate(neighbours):
            a = alses[i]
            for j, rb in neighbours[n + 1 :]:
                if ra == rb and ra.bit_count() == 1:
                    continue
                b = alses[j]
                shared = a.cells & b.cells
                if shared and (not overlap or shared in (a.cells, b.cells)):
                    continue
                gone: dict[int, int] = {}
                for z in digits_of(a.digits & b.digits & ~ra & ~rb):
                    hit = a.buddies[z] & b.buddies[z]
                    if hit:
                        gone[z] = hit
                if not gone:
                    continue
                x, y = _pick_two(ra, rb)
                text = (
                    f"ALS C {_describe(board, c)} shares restricted common {x} with ALS A "
                    f"{_describe(board, a)} and {y} with ALS B {_describe(board, b)}; C lacks "
                    f"at most one of them, so A or B is locked and holds what both hold, so "
                    f"{_gone_text(board, gone)}."
                )
                yield board.step(
                    ALS_XY_WING,
                    text,
                    eliminations=_eliminations(gone),
                    proof=_proof(board, a, b, c, gone=gone),
                    links=[_rc_link(board, a, c, x), _rc_link(board, c, b, y)],
                )


def _pick_two(ra: int, rb: int) -> tuple[int, int]:
    """A digit of each RC mask, different ones (there are: not both the same single digit)."""
    for x in digits_of(ra):
        for y in digits_of(rb):
            if x != y:
                return x, y
    raise AssertionError("an XY-Wing needs two different restricted commons")


# --- ALS-XY-Chain -----------------------------------------------------------------------------


def search_als_xy_chain(
    board: Board,
    *,
    overlap: bool = False,
    longest: int = MAX_CHAIN_RCS,
) -> Iterator[Step]:
    """Every ALS-XY-Chain of 3 to ``longest`` RCs (HoDoKu ``AlsSolver.getAlsXYChainRecursive``):
    from each ALS, a depth-first walk to ALS not yet in the chain, each RC differing from the
    one used before it (``RestrictedCommon.checkRC``: the link's RCs less the previous link's;
    a first link with two RCs is tried with each). At every length from 3 RCs on, the end's
    digits shared with the start, other than the first and last RCs, leave every cell (outside
    both ends) seeing all their places in both ends. One step per set of eliminations, the
    first found. Both ways along each RC, as HoDoKu's all-steps search and regression tests
    (its solver goes only to ALS found later, ``rcOnlyForward``, up to 50 RCs: cheaper in
    Java, but it misses chains the regression library holds).

    Two bounds keep it quick: a set is entered only if some useful end (one sharing a digit
    with the start whose places in both some cell sees) is near enough for the RCs left, and
    a set reached again by the same RC with no more RCs left is not walked again."""
    state = _state(board)
    alses = state.alses
    graph = state.restricted_commons(overlap)
    work = [0]
    reported: set[tuple[Candidate, ...]] = set()
    # Per digit z and cell, the ALS (a mask of their indices) whose places of z it sees.
    seeing: dict[int, dict[int, int]] = {}
    for index, als in enumerate(alses):
        for z in digits_of(als.digits):
            per_cell = seeing.setdefault(z, {})
            for cell in cells_of(als.buddies[z]):
                per_cell[cell] = per_cell.get(cell, 0) | 1 << index
    neighbours = [sum(1 << j for j, _ in near) for near in graph]
    for start, first in enumerate(alses):
        if not graph[start]:
            continue
        if board.past_deadline():
            return
        # The ends that could remove something with this start: per end, the digits z whose
        # places in both some cell sees.
        ends: dict[int, int] = {}
        for z in digits_of(first.digits):
            per_cell = seeing.get(z, {})
            reach = 0
            for cell in cells_of(first.buddies[z]):
                reach |= per_cell.get(cell, 0)
            reach &= ~(1 << start)
            for b in cells_of(reach):
                ends[b] = ends.get(b, 0) | 1 << (z - 1)
        if not ends:
            continue
        within = _within(neighbours, sum(1 << b for b in ends), longest)
        for x in digits_of(first.digits):
            explored: dict[tuple[int, int], int] = {}
            x_bit = 1 << (x - 1)
            for j, rcs in graph[start]:
                if rcs & x_bit and within[longest - 1] >> j & 1:
                    explored[(j, x_bit)] = longest - 1
                    yield from _extend(
                        board,
                        alses,
                        graph,
                        (within, ends, explored),
                        [start, j],
                        [x_bit],
                        longest,
                        work,
                        reported,
                    )
                    if work[0] > MAX_CHAIN_WORK:
                        return


def _within(neighbours: list[int], targets: int, most: int) -> list[int]:
    """Per k below ``most``, a mask of the ALS at most k RC steps from one of ``targets``
    (digits ignored: a lower bound on what a chain needs)."""
    out = [targets]
    frontier = targets
    for _ in range(1, most):
        reach = out[-1]
        for i in cells_of(frontier):
            reach |= neighbours[i]
        frontier = reach & ~out[-1]
        out.append(reach)
    return out


def _extend(
    board: Board,
    alses: list[Als],
    graph: list[list[tuple[int, int]]],
    search: tuple[list[int], dict[int, int], dict[tuple[int, int], int]],
    chain: list[int],
    used: list[int],
    longest: int,
    work: list[int],
    reported: set[tuple[Candidate, ...]],
) -> Iterator[Step]:
    work[0] += 1
    if work[0] > MAX_CHAIN_WORK:
        return
    within, ends, explored = search
    before = used[-1]
    room = longest - len(used) - 1  # RCs left after the next one
    near = within[room]
    deep = len(used) >= 2
    for j, rcs in graph[chain[-1]]:
        actual = rcs & ~before
        if not actual or not near >> j & 1 or j in chain:
            continue
        chain.append(j)
        used.append(actual)
        if deep and ends.get(j, 0) & ~used[0] & ~actual:
            step = _chain_step(board, alses, chain, used, reported)
            if step is not None:
                yield step
        # Where the walk goes on from here depends only on the set and the RC it came by:
        # a second arrival with no more room left finds nothing new (this may miss a chain
        # the first walk could not take past its own earlier sets; it never adds a wrong one).
        if room > explored.get((j, actual), 0):
            explored[(j, actual)] = room
            yield from _extend(board, alses, graph, search, chain, used, longest, work, reported)
        chain.pop()
        used.pop()
        if work[0] > MAX_CHAIN_WORK:
            return


def _chain_step(
    board: Board,
    alses: list[Als],
    chain: list[int],
    used: list[int],
    reported: set[tuple[Candidate, ...]],
) -> Step | None:
    """The chain's step, or None when it removes nothing or nothing new."""
    first, end = alses[chain[0]], alses[chain[-1]]
    gone: dict[int, int] = {}
    for z in digits_of(first.digits & end.digits & ~used[0] & ~used[-1]):
        hit = first.buddies[z] & end.buddies[z]
        if hit:
            gone[z] = hit
    if not gone:
        return None
    eliminations = _eliminations(gone)
    key = tuple(sorted(eliminations))
    if key in reported:
        return None
    reported.add(key)
    sets = [alses[i] for i in chain]
    rc_words = " ".join(
        f"{_describe(board, s)} -{_digits(rc)}-" for s, rc in zip(sets, used, strict=False)
    )
    text = (
        f"ALS chain {rc_words} {_describe(board, end)}: each restricted common differs from "
        f"the one before, so if the first set lacks a digit the last holds it, and "
        f"{_gone_text(board, gone)}."
    )
    links: list[Link] = []
    for (p, q), rc in zip(zip(sets, sets[1:], strict=False), used, strict=True):
        links.extend(_rc_link(board, p, q, x) for x in digits_of(rc))
    return board.step(
        ALS_XY_CHAIN,
        text,
        eliminations=eliminations,
        proof=_proof(board, *sets, gone=gone),
        links=links,
    )


# --- Death Blossom ----------------------------------------------------------------------------


def search_death_blossom(board: Board, *, overlap: bool = False) -> Iterator[Step]:
    """Every Death Blossom (HoDoKu ``AlsSolver.collectAllRCsForDeathBlossom`` and
    ``checkAlsDeathBlossomRecursive``): a stem cell every digit d of which has a petal (an ALS
    outside it whose places of d all see it); one petal per digit, not overlapping (unless
    ``overlap``), sharing a digit z that is not the stem's; z leaves every cell (outside the
    petals and the stem) seeing all its places in all petals."""
    state = _state(board)
    alses = state.alses
    size = board.size
    petals: dict[int, list[list[int]]] = {}
    for index, als in enumerate(alses):
        for digit in digits_of(als.digits):
            for stem in cells_of(als.buddies[digit]):
                per = petals.get(stem)
                if per is None:
                    per = petals[stem] = [[] for _ in range(size + 1)]
                per[digit].append(index)
    work = [0]
    masks = _digit_masks(board)
    for stem in sorted(petals):
        per = petals[stem]
        stem_mask = board.candidates[stem]
        digits = digits_of(stem_mask)
        if board.values[stem] or any(not per[d] for d in digits):
            continue
        keep = ~(1 << stem)
        hits = {z: masks[z] & keep for z in digits_of(board.all_digits & ~stem_mask)}
        chosen: list[int] = []
        for found, gone in _blossom(alses, per, digits, chosen, 0, hits, overlap, work):
            yield _blossom_step(board, stem, digits, [alses[i] for i in found], gone)
        if work[0] > MAX_BLOSSOM_WORK:
            return


def _blossom(
    alses: list[Als],
    per: list[list[int]],
    digits: list[int],
    chosen: list[int],
    cells: int,
    hits: dict[int, int],
    overlap: bool,
    work: list[int],
) -> Iterator[tuple[list[int], dict[int, int]]]:
    """Petal choices, one per stem digit after those ``chosen``, not overlapping (unless
    ``overlap``), with what they remove: ``hits`` holds, per digit z every petal so far has
    (not the stem's), the cells outside them (and the stem) seeing all its places in them; a
    choice that leaves none is dropped at once."""
    at = len(chosen)
    if at == len(digits):
        yield list(chosen), hits
        return
    for index in per[digits[at]]:
        work[0] += 1
        if work[0] > MAX_BLOSSOM_WORK:
            return
        als = alses[index]
        if not overlap and als.cells & cells:
            continue
        outside = ~als.cells
        left = {}
        for z, hit in hits.items():
            if als.digits >> (z - 1) & 1:
                hit &= als.seen[z] & outside
                if hit:
                    left[z] = hit
        if not left:
            continue
        chosen.append(index)
        yield from _blossom(alses, per, digits, chosen, cells | als.cells, left, overlap, work)
        chosen.pop()


def _blossom_step(
    board: Board, stem: int, digits: list[int], petals: list[Als], gone: dict[int, int]
) -> Step:
    n = board.name
    words = "; ".join(
        f"if {d}, ALS {_describe(board, petal)} lacks {d}"
        for d, petal in zip(digits, petals, strict=True)
    )
    text = (
        f"Stem {n(stem)} is {_digits(board.candidates[stem])}: {words}; whichever it is, "
        f"that set is locked and holds the digits all sets share, so {_gone_text(board, gone)}."
    )
    links = []
    for d, petal in zip(digits, petals, strict=True):
        for cell in cells_of(petal.places[d]):
            links.append(Link((stem, d), (cell, d), False))
    return board.step(
        DEATH_BLOSSOM,
        text,
        eliminations=_eliminations(gone),
        proof=[(stem, d) for d in digits] + _proof(board, *petals, gone=gone),
        links=links,
    )


@technique
def als_xz(board: Board) -> Iterator[Step]:
    """ALS-XZ as HoDoKu's solver finds them (no overlapping sets)."""
    return search_als_xz(board)


@technique
def als_xy_wing(board: Board) -> Iterator[Step]:
    """ALS-XY-Wing as HoDoKu's solver finds them (no overlapping sets)."""
    return search_als_xy_wing(board)


@technique
def als_xy_chain(board: Board) -> Iterator[Step]:
    """ALS-XY-Chain of up to MAX_CHAIN_RCS restricted commons (no overlapping neighbours)."""
    return search_als_xy_chain(board)


@technique
def death_blossom(board: Board) -> Iterator[Step]:
    """Death Blossom as HoDoKu finds them (no overlapping petals)."""
    return search_death_blossom(board)


# Cheapest first, as HoDoKu orders them.
TECHNIQUES: tuple[tuple[str, Technique], ...] = (
    (ALS_XZ, als_xz),
    (ALS_XY_WING, als_xy_wing),
    (ALS_XY_CHAIN, als_xy_chain),
    (DEATH_BLOSSOM, death_blossom),
)
