"""The candidate grid a human-style solve works on: digits placed, candidates left.

Techniques read a ``Board`` and return the first ``Step`` they find without applying it; the
solver applies it with ``Board.apply``. Groups are the puzzle's all-different groups (rows,
columns, boxes, regions, diagonals …), so every technique written over groups works for every
model whose rules are groups.
"""

from __future__ import annotations

import functools
import operator
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from .steps import Candidate, Link, Step

if TYPE_CHECKING:
    from ..puzzle import Puzzle


def cell_name(cell: int, size: int) -> str:
    """``r1c1`` style, rows and columns counted from 1."""
    return f"r{cell // size + 1}c{cell % size + 1}"


def digits_of(mask: int) -> list[int]:
    """The digits of a candidate mask, smallest first."""
    out = []
    digit = 1
    while mask:
        if mask & 1:
            out.append(digit)
        mask >>= 1
        digit += 1
    return out


@functools.lru_cache(maxsize=64)
def _structure(
    groups: tuple[tuple[int, ...], ...], peers: tuple[tuple[int, ...], ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[frozenset[int], ...]]:
    """Each cell's groups (indices) and peers (a set): made once per layout, not per board."""
    cell_groups: list[list[int]] = [[] for _ in range(len(peers))]
    for index, group in enumerate(groups):
        for cell in group:
            cell_groups[cell].append(index)
    return tuple(map(tuple, cell_groups)), tuple(frozenset(p) for p in peers)


@functools.lru_cache(maxsize=64)
def _full_groups(
    groups: tuple[tuple[int, ...], ...], size: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[Callable[[list[int]], tuple[int, ...]], ...]]:
    """Each cell's full groups (those of ``size`` cells), and per group a getter of its
    cells' entries (a C call where a loop would be slower)."""
    full_of: list[list[int]] = [[] for _ in range(size * size)]
    for index, group in enumerate(groups):
        if len(group) == size:
            for cell in group:
                full_of[cell].append(index)
    getters = tuple(
        operator.itemgetter(*g) if len(g) > 1 else lambda cells, c=g[0]: (cells[c],) for g in groups
    )
    return tuple(map(tuple, full_of)), getters


class Board:
    """Values and candidate masks of one puzzle, with the structure techniques need."""

    def __init__(self, puzzle: Puzzle) -> None:
        size = puzzle.size
        self.puzzle = puzzle
        self.size = size
        self.all_digits = (1 << size) - 1
        self.groups: tuple[tuple[int, ...], ...] = puzzle.groups()
        self.peers: tuple[tuple[int, ...], ...] = puzzle.peers()
        self.cell_groups, self.peer_sets = _structure(self.groups, self.peers)
        self.values: list[int] = [0] * (size * size)
        self.candidates: list[int] = [self.all_digits] * (size * size)
        self.memo: dict[object, object] = {}
        """Techniques' notes that stay true while the candidates they looked at are unchanged
        (fish: "no fish of this size on this digit pattern"), keyed by those candidates."""
        self.log: list[set[int]] | None = None
        """With :meth:`track`, the cells each applied step changed, in order."""
        self.quiet: dict[object, int] = {}
        """Per technique, the length of ``log`` when it last found nothing."""
        self.built = 0
        """Steps made by :meth:`step` so far: a search resumed after yielding one can tell
        that it found something (see :func:`.patterns.fresh_digits`)."""
        self.deadline: float | None = None
        """A ``time.perf_counter()`` value the long searches (grouped loops, ALS-XY-Chain,
        forcing chains and nets) stop at (:meth:`past_deadline`); the solver sets its own."""
        self.cut = False
        """True once a search stopped at the deadline: what it found may not be all."""
        for cell, digit in enumerate(puzzle.cells):
            if digit:
                self.place(cell, digit)

    def past_deadline(self) -> bool:
        """True (and :attr:`cut` set) when the board's deadline has passed: a long search asks
        between premises and stops, so that one search cannot run far past a caller's time
        cap (the solver checks only between steps). Without a deadline, always False."""
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            self.cut = True
            return True
        return False

    def place(self, cell: int, digit: int) -> None:
        """Put ``digit`` in ``cell`` and remove it from the cell's peers."""
        self.values[cell] = digit
        bit = 1 << (digit - 1)
        candidates = self.candidates
        candidates[cell] = bit
        keep = ~bit
        for peer in self.peers[cell]:
            candidates[peer] &= keep

    def eliminate(self, cell: int, digit: int) -> None:
        self.candidates[cell] &= ~(1 << (digit - 1))

    def apply(self, step: Step) -> set[int]:
        """Carry out a step's placements and eliminations; return the cells whose value or
        candidates it changed (what :meth:`broken_at` needs to look at)."""
        candidates, peers = self.candidates, self.peers
        changed: set[int] = set()
        for cell, digit in step.placements:  # as place(), noting the peers that change
            bit = 1 << (digit - 1)
            keep = ~bit
            self.values[cell] = digit
            candidates[cell] = bit
            changed.add(cell)
            for peer in peers[cell]:
                if candidates[peer] & bit:
                    candidates[peer] &= keep
                    changed.add(peer)
        for cell, digit in step.eliminations:
            if candidates[cell] >> (digit - 1) & 1:
                changed.add(cell)
            self.eliminate(cell, digit)
        if self.log is not None:
            self.log.append(changed)
        return changed

    def track(self) -> None:
        """Log what each :meth:`apply` changes, so techniques that found nothing before look
        again only where something changed (:meth:`changed_since`). Only for a board changed
        by ``apply`` alone from then on, as the solver's is."""
        self.log = []

    def changed_since(self, technique: object) -> set[int] | None:
        """The cells changed since ``technique`` last found nothing on this board (what it
        must look at again), or None when it must look everywhere (never found nothing, or
        the board is not tracked)."""
        log = self.log
        mark = self.quiet.get(technique)
        if log is None or mark is None or len(log) - mark > 8:
            return None  # (a long way back, a full look costs less than gathering changes)
        if mark == len(log) - 1:
            return log[mark]
        out: set[int] = set()
        for changed in log[mark:]:
            out |= changed
        return out

    def found_nothing(self, technique: object) -> None:
        """Note that ``technique`` found nothing on the board as it is now."""
        if self.log is not None:
            self.quiet[technique] = len(self.log)

    def has(self, cell: int, digit: int) -> bool:
        return not self.values[cell] and bool(self.candidates[cell] >> (digit - 1) & 1)

    def solved(self) -> bool:
        return all(self.values)

    def broken(self) -> bool:
        """True when some empty cell has no candidate left or a group lost a digit."""
        if any(not mask for mask in self.candidates):
            return True
        for group in self.groups:
            if len(group) == self.size:
                union = 0
                for cell in group:
                    union |= self.candidates[cell]
                if union != self.all_digits:
                    return True
        return False

    def broken_at(self, cells: set[int]) -> bool:
        """:meth:`broken`, for a board that was not broken before ``cells`` changed: only
        those cells can have lost their last candidate, and only the full groups holding one
        of them a digit (the solver checks after every step, so this keeps that cheap)."""
        candidates = self.candidates
        for cell in cells:
            if not candidates[cell]:
                return True
        full_of, getters = _full_groups(self.groups, self.size)
        everything = self.all_digits
        checked = 0
        for cell in cells:
            for g in full_of[cell]:
                if not checked >> g & 1:
                    checked |= 1 << g
                    if functools.reduce(operator.or_, getters[g](candidates)) != everything:
                        return True
        return False

    def name(self, cell: int) -> str:
        return cell_name(cell, self.size)

    def step(
        self,
        technique: str,
        text: str,
        *,
        placements: Iterable[Candidate] = (),
        eliminations: Iterable[Candidate] = (),
        proof: Iterable[Candidate] = (),
        groups: Iterable[int] = (),
        links: Iterable[Link] = (),
        cells: Iterable[int] = (),
        rule: str = "",
    ) -> Step:
        """A step with this board's grid as its "before" picture."""
        self.built += 1
        return Step(
            technique=technique,
            placements=tuple(placements),
            eliminations=tuple(sorted(set(eliminations))),
            proof=tuple(proof),
            groups=tuple(groups),
            links=tuple(links),
            text=text,
            values=tuple(self.values),
            candidates=tuple(self.candidates),
            cells=tuple(cells),
            rule=rule,
        )


Technique = Callable[[Board], Step | None]
"""Finds the first step of one technique on a board, without changing the board."""

StepSearch = Callable[[Board], Iterator[Step]]
"""Yields every step of one technique on a board, in the order the solver would meet them."""


class Searched:
    """A technique written as a search for every step (a generator), called as a
    :data:`Technique` for its first step. The solver wants only the first; HoDoKu's
    regression library and hints that list alternatives want them all (:func:`every_step`)."""

    def __init__(self, search: StepSearch) -> None:
        self.search = search
        functools.update_wrapper(self, search)

    def __call__(self, board: Board) -> Step | None:
        return next(self.search(board), None)


def technique(search: StepSearch) -> Searched:
    """Decorate a generator of a technique's steps: the result is the solver's technique."""
    return Searched(search)


def every_step(find: Technique, board: Board) -> Iterator[Step]:
    """Every step ``find`` can make on ``board``; a TypeError for a technique that was not
    written as a search (:func:`technique`), rather than its first step passed off as all."""
    if not isinstance(find, Searched):
        name = getattr(find, "__name__", repr(find))
        raise TypeError(f"{name} finds only its first step (not decorated with @technique)")
    return find.search(board)
