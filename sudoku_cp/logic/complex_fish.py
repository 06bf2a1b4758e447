"""Franken and Mutant fish, finned and unfinned (HoDoKu's "complex fish").

A fish of size n on digit d: n *base* units (rows, columns, boxes), no two sharing a candidate
of d, each of which must hold d once; and n *cover* units that hold every base candidate. The
n base digits are n different cells, all in the cover units, and each cover unit holds d at
most once: so every cover unit's d is one of them, and d leaves the cover cells outside the
base. A base candidate in two cover units would fill two of them at once and leave too few
for the rest (*cannibalism*): it goes too. A *fin* is a base candidate outside the cover, or
one in two base units (an *endo fin*, which would fill two base units at once): either a fin
holds d, or the fish does, so d leaves only the cells above that also see every fin.

The names and the search are HoDoKu's (hobiwan/HoDoKu ``src/solver/FishSolver.java``, read in
the yoki123 fork): ``initForCandidat`` gives the units a search may use — a *Franken* search
takes rows and boxes as base and columns and boxes as cover, then columns and boxes as base and
rows and boxes as cover; a *Mutant* search takes every unit for both. ``getFishes(boolean)``
tries every base set of exactly n units (unfinned: each with at most n candidates, none shared;
finned: at most ``MAX_ENDO_FINS`` endo fins), ``searchCoverUnits`` every n cover units that
are not base units and meet the base, and ``createFishStep`` names what it finds by the kinds of
units used: rows against columns is a basic fish (:mod:`.fish`, left out here), rows (and boxes)
against columns (and boxes) — or the other way round — is Franken, anything else Mutant. So a
Franken search can find a fish HoDoKu names Mutant (boxes alone against columns, rows against
boxes alone): it is yielded under that name, as HoDoKu's solver would give it; a Mutant search
yields only what is named Mutant (the rest is the other searches'). The fins are at most
``MAX_FINS`` (``Options.MAX_FINS`` = 5, endo fins included; ``Options.MAX_ENDO_FINS`` = 2).
Which fish comes first where several apply may differ from HoDoKu's (the covers are found by
branching on base cells, not in HoDoKu's order of units); every one is found.

Cost: the cover search branches on the lowest base cell not yet covered and prunes on fins no
removable cell sees. What a fish can remove is bounded by *templates* (placements of the digit,
one per full group): a fish removes only candidates no template holds, so a digit with none
is not searched (:func:`_no_template`; HoDoKu uses the same bound for fish bigger than these).

Sizes: HoDoKu's solver searches, by default (``Options.DEFAULT_SOLVER_STEPS``, the seventh
field), only Franken and Finned Franken X-Wing and Swordfish; Franken Jellyfish and every
Mutant fish are there but off. All of sizes 2 to 6 (Squirmbag: 5 units, Whale: 6) are written
here (:data:`TECHNIQUES`), the default four registered in :mod:`.solver`; the Leviathan (7
units; on a 9x9 grid a fish that big has a smaller complement) is not. The big ones can take
seconds on a board where templates leave the digit much to remove.

Other models: a *box* here is any full group that is not a row or column — a box, a jigsaw
region, a window of a hyper grid, a diagonal. The deduction needs only that a base unit holds
every digit once and a cover unit at most once, so it holds for any full groups; "sees every
fin" is sharing any group with it (``Board.peers``). A model with no rows and columns has no
Franken fish; Mutant fish use whatever full groups it has.

Kraken fish (``FishSolver.searchForKraken``, fins linked to eliminations by chains from the
``TablingSolver``) are :mod:`.kraken`'s; it takes its fish from here (``fish_on`` with
``kraken``).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from itertools import combinations

from .basic import and_list
from .board import Board, Searched, Technique, technique
from .fish import siamese
from .layout import layout_of
from .patterns import snapshot, tables
from .steps import Step
from .templates import template_cells

MAX_FINS = 5
"""HoDoKu's ``Options.MAX_FINS``: fins of one fish at most, endo fins included."""
MAX_ENDO_FINS = 2
"""HoDoKu's ``Options.MAX_ENDO_FINS``: endo fins of one fish at most."""
KRAKEN_FINS = 2
"""HoDoKu's ``Options.MAX_KRAKEN_FINS``: fins of a fish a Kraken search starts from."""
KRAKEN_ENDO_FINS = 0
"""HoDoKu's ``Options.MAX_KRAKEN_ENDO_FINS``: none."""

ROW, COLUMN, BOX = 1, 2, 4
"""Unit kinds as bits (HoDoKu's ``LINE_MASK``, ``COL_MASK``, ``BLOCK_MASK``)."""

SIZE_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale"}

FRANKEN, MUTANT = "Franken", "Mutant"


def fish_name(kind: str, size: int, finned: bool) -> str:
    """HoDoKu's ``SolutionType`` name: ``Franken X-Wing``, ``Finned Mutant Jellyfish`` …"""
    return f"{'Finned ' if finned else ''}{kind} {SIZE_NAMES[size]}"


def classify(base_kinds: int, cover_kinds: int) -> str | None:
    """The family of a fish by the kinds of its units (``FishSolver.createFishStep``): None
    for a basic fish (rows against columns), Franken for lines (and boxes) against the other
    lines (and boxes), Mutant for anything else."""
    if (base_kinds, cover_kinds) in ((ROW, COLUMN), (COLUMN, ROW)):
        return None
    rows, columns = (ROW, ROW | BOX), (COLUMN, COLUMN | BOX)
    if (base_kinds in rows and cover_kinds in columns) or (
        base_kinds in columns and cover_kinds in rows
    ):
        return FRANKEN
    return MUTANT


@dataclass(frozen=True)
class Unit:
    """A full group as a fish's base or cover unit: its index, its kind (ROW, COLUMN, BOX) and
    its cells holding the digit."""

    group: int
    kind: int
    mask: int
    """The cells of the unit holding the digit."""


def _units(board: Board, digit: int) -> list[Unit]:
    """The full groups holding ``digit`` somewhere, as rows, columns and boxes (any other
    full group), in HoDoKu's order: rows, columns, boxes."""
    lay = layout_of(board.puzzle.model, board.size)
    group_mask = tables(board).group_mask
    dmask = snapshot(board).masks[digit]
    rows, columns = set(lay.rows), set(lay.columns)
    out = []
    for kind_of in (rows, columns, None):
        for g in lay.full:
            if (kind_of is None and (g in rows or g in columns)) or (
                kind_of is not None and g not in kind_of
            ):
                continue
            mask = group_mask[g] & dmask
            if mask:
                kind = ROW if g in rows else COLUMN if g in columns else BOX
                out.append(Unit(g, kind, mask))
    return out


@functools.lru_cache(maxsize=1 << 16)
def _small_bits(mask: int) -> tuple[int, ...]:
    """:func:`_bits` of a set of units (a few dozen bits, asked for again and again)."""
    return tuple(_bits(mask))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Fish:
    """One fish found: its base and cover units, fins (endo fins included), endo fins, the
    candidates it removes and the cannibalistic ones among them (cell masks)."""

    base: tuple[Unit, ...]
    cover: tuple[Unit, ...]
    fins: int
    endo: int
    eliminations: int
    cannibal: int


def _base_sets(
    units: list[Unit], n: int, finned: bool, max_endo: int = MAX_ENDO_FINS
) -> Iterator[tuple[list[Unit], int, int]]:
    """Every n units of ``units`` (in order) that may be a fish's base: for an unfinned fish
    none with more than n candidates and no candidate shared; for a finned one at most
    ``max_endo`` shared (counted as ``FishSolver.getFishes`` counts them). Each with the
    union of its candidates and the shared ones (the endo fins)."""
    usable = units if finned else [u for u in units if u.mask.bit_count() <= n]

    def extend(
        start: int, chosen: list[Unit], union: int, endo: int, endo_count: int
    ) -> Iterator[tuple[list[Unit], int, int]]:
        if len(chosen) == n:
            yield chosen, union, endo
            return
        for i in range(start, len(usable) - (n - len(chosen)) + 1):
            unit = usable[i]
            shared = union & unit.mask
            count = endo_count
            if shared:
                count += shared.bit_count()
                if not finned or count > max_endo:
                    continue
            yield from extend(i + 1, [*chosen, unit], union | unit.mask, endo | shared, count)

    return extend(0, [], 0, 0, 0)


def _cover_sets(
    base: int,
    endo: int,
    masks: list[int],
    n: int,
    finned: bool,
    peer_mask: tuple[int, ...],
    removable: int,
    *,
    max_fins: int = MAX_FINS,
    kraken: bool = False,
) -> list[tuple[int, int]]:
    """Every n of the cover units ``masks`` (their cells holding the digit) that hold all of
    ``base`` but at most MAX_FINS fins (none unfinned), as a bit mask of the units chosen
    with the fins, endo fins included. Each is made once: the lowest base cell still open is
    either covered by one of the units holding it (the earlier ones then left out) or made a
    fin (every unit holding it then left out); once none is open, units still allowed fill
    up the set. A branch stops when the units left cannot cover enough, or when no cell of
    ``removable`` (the candidates a fish could remove) in the cover sees every fin; a set
    is kept only if it removes some cell of ``removable``.

    ``kraken``: the sets a Kraken fish starts from (:mod:`.kraken`), kept only if their fins
    remove nothing (no cell the unfinned fish would remove sees every fin) while the unfinned
    fish would remove something; the "sees every fin" pruning is then off (``removable``
    should be all the digit's candidates)."""
    budget = max_fins - endo.bit_count() if finned else 0
    count = len(masks)
    full = (1 << count) - 1
    seen = removable
    for cell in _bits(endo):
        seen &= peer_mask[cell]
    if not seen and not kraken:
        return []
    holders_of: dict[int, tuple[list[tuple[int, int]], int]] = {}

    def holding(bit: int) -> tuple[list[tuple[int, int]], int]:
        """The units holding a cell, each with the units to leave out once it is chosen
        (itself and the earlier ones), and all of them."""
        found = holders_of.get(bit)
        if found is None:
            prefix, earlier = [], 0
            for i in range(count):
                if masks[i] & bit:
                    earlier |= 1 << i
                    prefix.append((i, earlier))
            found = holders_of[bit] = (prefix, earlier)
        return found

    out: list[tuple[int, int]] = []

    reached: dict[int, int] = {}

    def reach(units: int) -> int:
        """The cells these units could remove the digit from: theirs outside the base,
        and base cells in two of them (cannibalism)."""
        cells = reached.get(units)
        if cells is None:
            covered = twice = 0
            for i in _small_bits(units):
                twice |= covered & masks[i]
                covered |= masks[i]
            cells = (covered & ~base) | twice
            reached[units] = cells
        return cells

    def keeps(units: int, seen: int) -> bool:
        cells = reach(units)
        if kraken:  # (HoDoKu's FishSolver.searchCoverUnits, its ``kraken`` branch)
            return bool(cells) and not cells & seen
        return bool(seen & cells)

    spans: dict[int, int] = {}

    def span(units: int) -> int:
        cells = spans.get(units)
        if cells is None:
            cells = 0
            for i in _small_bits(units):
                cells |= masks[i]
            spans[units] = cells
        return cells

    def branch(open_: int, chosen: int, left: int, forbidden: int, fins: int, seen: int) -> None:
        if open_ and left:
            # Open cells no allowed unit holds can only be fins.
            forced = open_ & ~span(full & ~forbidden)
            if forced:
                fins |= forced
                if fins.bit_count() > budget:
                    return
                for cell in _bits(forced):
                    seen &= peer_mask[cell]
                if not kraken and not seen & reach((full & ~forbidden) | chosen):
                    return
                open_ &= ~forced
        if not open_:
            if finned and not fins | endo:
                return  # no fin: the unfinned search's
            if not left:
                if keeps(chosen, seen):
                    out.append((chosen, fins | endo))
                return
            for more in combinations(_small_bits(full & ~forbidden), left):
                picked = chosen
                for i in more:
                    picked |= 1 << i
                if keeps(picked, seen):
                    out.append((picked, fins | endo))
            return
        spare = budget - fins.bit_count()
        wide = open_.bit_count()
        if not left:
            if wide > spare:
                return
            for cell in _bits(open_):
                seen &= peer_mask[cell]
            if keeps(chosen, seen):
                out.append((chosen, fins | open_ | endo))
            return
        if wide > spare:
            # The units still allowed cover at most their ``left`` widest shares of the open
            # cells; the rest must be fins.
            shares = sorted(
                [(masks[i] & open_).bit_count() for i in _small_bits(full & ~forbidden)],
                reverse=True,
            )
            if wide - sum(shares[:left]) > spare:
                return
        low = open_ & -open_
        holders, every = holding(low)
        for i, shut in holders:
            if not forbidden >> i & 1:
                branch(open_ & ~masks[i], chosen | 1 << i, left - 1, forbidden | shut, fins, seen)
        if spare > 0:
            narrowed = seen & peer_mask[low.bit_length() - 1]
            shut = forbidden | every
            # What is removed lies in the cover: some unit chosen or still allowed must hold
            # a cell seeing every fin.
            if kraken or narrowed & reach((full & ~shut) | chosen):
                branch(open_ & ~low, chosen, left, shut, fins | low, narrowed)

    branch(base & ~endo, 0, n, 0, 0, seen)
    return out


def _no_template(board: Board, digit: int) -> int:
    """The candidates of ``digit`` in no *template* — a placement of the digit on candidate
    cells (and the cell where it is placed), one in each full group and at most one in any
    group — as a cell mask. A fish removes nothing else: its argument holds for every
    template, so one holding a cell shows no fish removes it. (HoDoKu uses the same bound,
    ``FishSolver.getFishes`` with ``doTemplates``, only for bigger fish.) The templates are
    :func:`.templates.template_cells`' (unrefined); where it cannot tell (a model without rows,
    too many partial templates) every candidate is let through."""
    dmask = snapshot(board).masks[digit]
    key = ("no template", digit, dmask)
    found = board.memo.get(key)
    if isinstance(found, int):
        return found
    held = template_cells(board, digit, dmask)
    # (None: cannot tell, let all through; 0: no template at all, a broken grid, nothing to say)
    found = dmask if held is None else (dmask & ~held if held else 0)
    board.memo[key] = found
    return found


def fish_on(
    board: Board,
    digit: int,
    n: int,
    finned: bool,
    family: str,
    *,
    bound: bool = True,
    kraken: bool = False,
) -> Iterator[Fish]:
    """Every fish of size n on ``digit`` a Franken or Mutant search finds (``family``), of
    the families that search yields. ``bound=False`` searches without the template bound
    (the same fish, slower: for the tests). ``kraken``: instead, the finned fish a Kraken
    search starts from (:mod:`.kraken`: HoDoKu's ``FishSolver.getKrakenFish`` with
    ``Options.MAX_KRAKEN_FINS`` fins at most and ``MAX_KRAKEN_ENDO_FINS`` endo fins), of every
    family the units give (basic fish too), whose fins remove nothing; each with what the
    unfinned fish would remove as its ``eliminations``."""
    units = _units(board, digit)
    if family == FRANKEN:
        boxes = [u for u in units if u.kind == BOX]
        rows = [u for u in units if u.kind == ROW]
        columns = [u for u in units if u.kind == COLUMN]
        if not rows or not columns:
            return
        passes = [(rows + boxes, columns + boxes), (columns + boxes, rows + boxes)]
    else:
        passes = [(units, units)]
    peer_mask = tables(board).peer_mask
    # What a fish can remove at most: nothing there, no fish to look for.
    # (A Kraken's eliminations come from chains through other digits: no template bound.)
    bounded = bound and not kraken
    removable = _no_template(board, digit) if bounded else snapshot(board).masks[digit]
    if not removable:
        return
    max_fins, max_endo = (KRAKEN_FINS, KRAKEN_ENDO_FINS) if kraken else (MAX_FINS, MAX_ENDO_FINS)
    for base_units, cover_units in passes:
        for base, union, endo in _base_sets(base_units, n, finned, max_endo):
            groups = {u.group for u in base}
            base_kinds = 0
            for u in base:
                base_kinds |= u.kind
            covers = [u for u in cover_units if u.group not in groups and u.mask & union]
            if len(covers) < n:
                continue
            masks = [u.mask for u in covers]
            chosen_sets = _cover_sets(
                union,
                endo,
                masks,
                n,
                finned,
                peer_mask,
                removable,
                max_fins=max_fins,
                kraken=kraken,
            )
            for chosen, fins in chosen_sets:
                if bool(fins) != finned:
                    continue
                cover = [covers[i] for i in _small_bits(chosen)]
                cover_kinds = 0
                for u in cover:
                    cover_kinds |= u.kind
                found = classify(base_kinds, cover_kinds)
                if not kraken and (found is None or (family == MUTANT and found != MUTANT)):
                    continue
                covered = 0
                cannibal = 0
                for u in cover:
                    cannibal |= covered & u.mask
                    covered |= u.mask
                targets = (covered & ~union) | cannibal
                if fins and not kraken:
                    seen = -1
                    for cell in _bits(fins):
                        seen &= peer_mask[cell]
                    targets &= seen
                if targets:
                    yield Fish(tuple(base), tuple(cover), fins, endo, targets, cannibal & targets)


def _step(board: Board, digit: int, n: int, fish: Fish) -> Step:
    labels = layout_of(board.puzzle.model, board.size).labels
    base_kinds = cover_kinds = 0
    for u in fish.base:
        base_kinds |= u.kind
    for u in fish.cover:
        cover_kinds |= u.kind
    family = classify(base_kinds, cover_kinds) or FRANKEN
    name = fish_name(family, n, bool(fish.fins))
    base_cells = 0
    for u in fish.base:
        base_cells |= u.mask
    gone = _bits(fish.eliminations)
    cells = and_list([board.name(c) for c in gone])
    base_text = and_list([labels[u.group] for u in fish.base])
    cover_text = and_list([labels[u.group] for u in fish.cover])
    text = (
        f"On {digit}: {base_text} must each hold one {digit}, in {n} different cells, and all "
        f"their {digit}s lie in {cover_text}, which hold at most one {digit} each"
    )
    if fish.fins:
        fins = _bits(fish.fins)
        fin_names = and_list([board.name(f) for f in fins])
        plural = "s" if len(fins) > 1 else ""
        text += (
            f", apart from the fin{plural} {fin_names}: either a fin holds {digit} or the "
            f"cover units' {digit}s are the base's, so {digit} leaves {cells}, which "
            f"{'see' if len(gone) > 1 else 'sees'} every fin"
        )
    else:
        text += f", so the cover units' {digit}s are the base's and {digit} leaves {cells}"
    if fish.cannibal:
        eaten = and_list([board.name(c) for c in _bits(fish.cannibal)])
        text += f" ({eaten} would fill two cover units at once)"
    text += "."
    proof = [(c, digit) for c in _bits(base_cells)]
    return board.step(
        name,
        text,
        eliminations=[(c, digit) for c in gone],
        proof=proof,
        groups=[u.group for u in fish.base] + [u.group for u in fish.cover],
    )


def _search(family: str, n: int, finned: bool) -> Searched:
    key = ("complex fish", family, n, finned)

    def search(board: Board) -> Iterator[Step]:
        memo = board.memo
        masks = snapshot(board).masks
        for digit in range(1, board.size + 1):
            # The search reads this digit's candidates alone: one that found nothing on them
            # finds nothing again (hard puzzles come back to it after every other step).
            seen_key = (*key, digit, masks[digit])
            if seen_key in memo:
                continue
            found = False
            same_base: dict[Hashable, list[Step]] = {}
            for fish in fish_on(board, digit, n, finned, family):
                found = True
                step = _step(board, digit, n, fish)
                if finned:
                    same_base.setdefault(tuple(u.group for u in fish.base), []).append(step)
                yield step
            if not found:
                memo[seen_key] = True
            # HoDoKu's siamese fish (FishSolver.findSiameseFish): two finned fish of this
            # search with the same base, after all of the digit's own
            yield from siamese(board, same_base.values())

    name = fish_name(family, n, finned)
    search.__name__ = search.__qualname__ = name.lower().replace(" ", "_").replace("-", "_")
    search.__doc__ = (
        f"Every {name} (a step may carry the name of the family HoDoKu gives the units it "
        "uses: see the module's docstring)."
    )
    return technique(search)


franken_x_wing = _search(FRANKEN, 2, False)
franken_swordfish = _search(FRANKEN, 3, False)
franken_jellyfish = _search(FRANKEN, 4, False)
finned_franken_x_wing = _search(FRANKEN, 2, True)
finned_franken_swordfish = _search(FRANKEN, 3, True)
finned_franken_jellyfish = _search(FRANKEN, 4, True)
mutant_x_wing = _search(MUTANT, 2, False)
mutant_swordfish = _search(MUTANT, 3, False)
mutant_jellyfish = _search(MUTANT, 4, False)
finned_mutant_x_wing = _search(MUTANT, 2, True)
finned_mutant_swordfish = _search(MUTANT, 3, True)
finned_mutant_jellyfish = _search(MUTANT, 4, True)
franken_squirmbag = _search(FRANKEN, 5, False)
franken_whale = _search(FRANKEN, 6, False)
finned_franken_squirmbag = _search(FRANKEN, 5, True)
finned_franken_whale = _search(FRANKEN, 6, True)
mutant_squirmbag = _search(MUTANT, 5, False)
mutant_whale = _search(MUTANT, 6, False)
finned_mutant_squirmbag = _search(MUTANT, 5, True)
finned_mutant_whale = _search(MUTANT, 6, True)

TECHNIQUES: tuple[tuple[int, str, Technique], ...] = (
    # HoDoKu's order key (Options.DEFAULT_SOLVER_STEPS), name, search
    (6100, "Franken X-Wing", franken_x_wing),
    (6200, "Franken Swordfish", franken_swordfish),
    (6300, "Franken Jellyfish", franken_jellyfish),
    (6700, "Finned Franken X-Wing", finned_franken_x_wing),
    (6800, "Finned Franken Swordfish", finned_franken_swordfish),
    (6900, "Finned Franken Jellyfish", finned_franken_jellyfish),
    (7300, "Mutant X-Wing", mutant_x_wing),
    (7400, "Mutant Swordfish", mutant_swordfish),
    (7500, "Mutant Jellyfish", mutant_jellyfish),
    (7900, "Finned Mutant X-Wing", finned_mutant_x_wing),
    (8000, "Finned Mutant Swordfish", finned_mutant_swordfish),
    (8100, "Finned Mutant Jellyfish", finned_mutant_jellyfish),
    (6400, "Franken Squirmbag", franken_squirmbag),
    (6500, "Franken Whale", franken_whale),
    (7000, "Finned Franken Squirmbag", finned_franken_squirmbag),
    (7100, "Finned Franken Whale", finned_franken_whale),
    (7600, "Mutant Squirmbag", mutant_squirmbag),
    (7700, "Mutant Whale", mutant_whale),
    (8200, "Finned Mutant Squirmbag", finned_mutant_squirmbag),
    (8300, "Finned Mutant Whale", finned_mutant_whale),
)
"""Every search here; HoDoKu's solver has only 6100, 6200, 6700 and 6800 on by default."""
