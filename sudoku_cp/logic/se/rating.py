"""The SE rating of a puzzle: ER, EP, ED, as Sudoku Explainer computes them.

SE's solve loop (``diuf/sudoku/solver/Solver.java``, ``getDifficulty``, read in
SudokuMonster/SukakuExplainer, LGPL-2.1): while the grid is not solved, take the first step of
the first producer that has one (:data:`PRODUCERS`, SE's order) and apply it. ER is the
highest difficulty of the path; ED the difficulty of the first step (``diamond``, set after the
first step); EP the highest difficulty up to and including the first step that places a digit
(``pearl``, set when ``hint.getCell() != null`` the first time).

Where no producer has a step (SE then prints 20.0, "Beyond solver"), or the time cap stops the
path, the rating says so: the value is then only a lower bound (:data:`BEYOND_FLOOR`, or the
least difficulty of the producer the cap stopped in), reported as ``≥ x.y``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import door
from .chains import forcing_chains_cycles
from .forcing import (
    TimeCapReached,
    dynamic_forcing_chains,
    dynamic_forcing_chains_plus,
    multiple_forcing_chains,
    nested_forcing_chains_2,
    nested_forcing_chains_3,
    nested_forcing_chains_4,
    nishio_forcing_chains,
)
from .grid import ALL, SEGrid
from .rules import (
    aligned_pair_exclusion,
    aligned_triplet_exclusion,
    direct_locking,
    fish,
    hidden_set,
    hidden_single,
    locking,
    naked_set,
    naked_single,
    xy_wing,
)
from .step import Producer, Step, Steps
from .uniqueness import bug, unique_loops

if TYPE_CHECKING:
    from ...formats.state import State
    from ...puzzle import Puzzle

PRODUCERS: tuple[tuple[str, Producer], ...] = (
    # Solver(Grid), revisedRating 0, SE 1.2.1 set: directHintProducers then
    # indirectHintProducers, in this order.
    ("HiddenSingle", hidden_single),
    ("DirectPointing", direct_locking),
    ("DirectHiddenPair", hidden_set(2, True)),
    ("NakedSingle", naked_single),
    ("DirectHiddenTriplet", hidden_set(3, True)),
    ("PointingClaiming", locking),
    ("NakedPair", naked_set(2)),
    ("XWing", fish(2)),
    ("HiddenPair", hidden_set(2, False)),
    ("NakedTriplet", naked_set(3)),
    ("Swordfish", fish(3)),
    ("HiddenTriplet", hidden_set(3, False)),
    ("XYWing", xy_wing(False)),
    ("XYZWing", xy_wing(True)),
    ("UniqueLoop", unique_loops),
    ("NakedQuad", naked_set(4)),
    ("Jellyfish", fish(4)),
    ("HiddenQuad", hidden_set(4, False)),
    ("BivalueUniversalGrave", bug),
    ("AlignedPairExclusion", aligned_pair_exclusion),
    ("ForcingChainCycle", forcing_chains_cycles),
    # chainingHintProducers (TUVWXYZWing is not in SE 1.2.1's set, Settings.init121)
    ("AlignedTripletExclusion", aligned_triplet_exclusion),
    ("NishioForcingChain", nishio_forcing_chains),
    ("MultipleForcingChain", multiple_forcing_chains),
    ("DynamicForcingChain", dynamic_forcing_chains),
    # chainingHintProducers2
    ("DynamicForcingChainPlus", dynamic_forcing_chains_plus),
    # advancedHintProducers: nested forcing chains of levels 2 and 3
    ("NestedForcingChain2", nested_forcing_chains_2),
    ("NestedForcingChain3", nested_forcing_chains_3),
    # experimentalHintProducers (revisedRating 0): level 4, nestingLimit 0 to 3
    *((f"NestedForcingChain4/{n}", nested_forcing_chains_4[n]) for n in range(4)),
)
"""SE's producers, in SE's order (names as SE's ``SolvingTechnique``; the level-4 ones, all
``NestedForcingChain`` in SE, told apart by their nesting limit)."""
SE_PRODUCERS = PRODUCERS
"""SE's own list, the one the compiled driver (:mod:`.door`) follows: a path whose
:data:`PRODUCERS` were changed (an experiment leaving rules out) is rated plain."""

BEYOND_FLOOR = 10.5
"""What a path that no producer moves on is reported as, a lower bound: SE itself prints 20.0
("Beyond solver") there, a value that says nothing of the puzzle but that SE's rules stop; the
least difficulty of its last rules (``Chaining.getDifficulty``, ``8.5 + 0.5 * level`` with
level 4) is what is known."""

DEFAULT_TIME_CAP = 60.0
"""Seconds one rating may take by default."""
MAX_TIME_CAP = 3600.0
"""The most seconds a rating may be given."""


@dataclass
class SERating:
    """ER/EP/ED of one puzzle. ``exact`` False: the path reached a step no implemented rule
    finds (``outcome`` "beyond") or the time cap ("time cap"), and each value that was not
    settled before is a lower bound (``*_exact`` False)."""

    er: float
    ep: float
    ed: float
    er_exact: bool
    ep_exact: bool
    ed_exact: bool
    outcome: str  # "solved", "beyond", "time cap"
    steps: Sequence[Step] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        return self.er_exact and self.ep_exact and self.ed_exact

    @staticmethod
    def shown(value: float, exact: bool) -> str:
        return f"{value:.1f}" if exact else f"≥{value:.1f}"

    def text(self) -> str:
        """``ER/EP/ED`` as serate's ``%r/%p/%d`` prints them, with ``≥`` on lower bounds."""
        return "/".join(
            (
                self.shown(self.er, self.er_exact),
                self.shown(self.ep, self.ep_exact),
                self.shown(self.ed, self.ed_exact),
            )
        )

    def to_dict(self) -> dict[str, object]:
        """Numbers for JSON and CSV; ``*_exact`` False marks a lower bound. ``hardest``: the
        first step of the highest difficulty (SE's ``ERtN``)."""
        hardest = max(self.steps, key=lambda s: s.difficulty).name if self.steps else ""
        return {
            "er": round(self.er, 1),
            "ep": round(self.ep, 1),
            "ed": round(self.ed, 1),
            "er_exact": self.er_exact,
            "ep_exact": self.ep_exact,
            "ed_exact": self.ed_exact,
            "outcome": self.outcome,
            "hardest": hardest,
            "steps": len(self.steps),
        }


FLOORS = {
    "AlignedTripletExclusion": 7.5,
    "NishioForcingChain": 7.5,
    "MultipleForcingChain": 8.0,
    "DynamicForcingChain": 8.5,
    "DynamicForcingChainPlus": 9.0,
    "NestedForcingChain2": 9.5,
    "NestedForcingChain3": 10.0,
    **{f"NestedForcingChain4/{n}": 10.5 for n in range(4)},
}
"""The least difficulty of the producers that stop at the time cap, each no more than any
later producer's (``AlignedExclusionHint.getDifficulty``, ``Chaining.getDifficulty``): when a
search stops there, every earlier producer had no step, so SE's next step is rated at least
this much."""


class _Stopped(Exception):
    def __init__(self, floor: float) -> None:
        super().__init__(floor)
        self.floor = floor


def next_step(grid: SEGrid) -> Step | None:
    """The step SE takes next on ``grid``, or None when no implemented rule has one.
    :class:`~.forcing.TimeCapReached` when ``grid.deadline`` passes during a chain search."""
    for _name, producer in PRODUCERS:
        for step in producer(grid):
            return step
    return None


def _next_step_or_floor(grid: SEGrid) -> Step | None:
    for name, producer in PRODUCERS:
        try:
            for step in producer(grid):
                return step
        except TimeCapReached:
            raise _Stopped(FLOORS.get(name, 0.0)) from None
    return None


def rate_values(
    values: Sequence[int],
    time_cap: float = DEFAULT_TIME_CAP,
    cands: Sequence[int] | None = None,
    *,
    plain: bool = False,
) -> SERating:
    """Rate a 9×9 grid of givens (81 digits, 0 blank) that has exactly one solution: SE's
    ``Solver.getDifficulty`` loop. The caller checks the puzzle first (SE rates a puzzle
    without a unique solution 0.0, a meaningless number). ``cands``: the path starts from these
    candidates (SE's masks, bit ``d`` for digit ``d``; 0 for a filled cell), as SE rates a
    pencil-mark puzzle, instead of every digit its peers allow. The path goes through the
    speed door (:mod:`.door`) when it is open, unless ``plain`` (or :data:`PRODUCERS` is not
    SE's own list): the same steps, without their ``where`` text."""
    use_door = not plain and PRODUCERS is SE_PRODUCERS
    # (opening the door, which may wait for numba to compile or load, counts against no cap)
    driver = door.compiled_driver() if use_door else None
    start = time.perf_counter()
    deadline = start + time_cap
    ending: list[Any] = ["solved", 0.0]
    path: Iterator[Step | door.Journal]
    if driver is None:
        path = _plain_path(values, cands, start, time_cap, ending, use_door)
    else:
        given = None if cands is None else list(cands)
        path = door.compiled_path(
            driver, PRODUCERS, FLOORS, (list(values), given), deadline, ending
        )
    er = ep = ed = 0.0
    ep_set = ed_set = False
    steps = Steps()
    while True:
        for part in path:
            steps.add(part)
            marks = (
                ((part.difficulty, part.placement is not None),)
                if isinstance(part, Step)
                else part.marks()
            )
            for difficulty, places in marks:
                if difficulty > er:
                    er = difficulty
                if not ed_set:
                    ed, ed_set = er, True
                if not ep_set and places:
                    ep, ep_set = er, True
        if ending[0] != "switch":
            break
        _switch, grid, driver, opening = ending
        deadline += opening  # (the cap is the path's: the door's opening is not counted)
        ending[:] = ["solved", 0.0]
        path = door.compiled_path(
            driver, PRODUCERS, FLOORS, (grid.values, grid.cands), deadline, ending
        )
    outcome, cap_floor = ending
    if outcome == "solved":
        return SERating(er, ep, ed, True, True, True, outcome, steps, time.perf_counter() - start)
    floor = max(er, BEYOND_FLOOR if outcome == "beyond" else cap_floor)
    return SERating(
        floor,
        ep if ep_set else floor,
        ed if ed_set else floor,
        False,
        ep_set,
        ed_set,
        outcome,
        steps,
        time.perf_counter() - start,
    )


def _plain_path(
    values: Sequence[int],
    cands: Sequence[int] | None,
    start: float,
    time_cap: float,
    ending: list[Any],
    may_switch: bool,
) -> Iterator[Step]:
    """The steps of SE's path by the plain producers; ``ending`` set as
    :func:`.door.compiled_path` sets it, or to ``["switch", grid, driver, seconds]`` when the
    door opened on the way (``may_switch``), in that many seconds: the path goes on through it
    from ``grid``, its deadline that much later."""
    grid = SEGrid(values, cands)
    grid.deadline = start + time_cap
    counted_from = start
    try:
        while not grid.solved():
            if time.perf_counter() - start > time_cap:
                ending[:] = ["time cap", 0.0]
                return
            try:
                step = _next_step_or_floor(grid)
            except _Stopped as stopped:
                ending[:] = ["time cap", stopped.floor]
                return
            if step is None:
                ending[:] = ["beyond", 0.0]
                return
            yield step
            step.apply(grid)
            if may_switch and not grid.solved():
                now = time.perf_counter()
                door.count_plain(now - counted_from)
                counted_from = now
                driver = door.compiled_driver()
                if driver is not None:
                    opening = time.perf_counter() - now
                    counted_from += opening
                    ending[:] = ["switch", grid, driver, opening]
                    return
    finally:
        door.count_plain(time.perf_counter() - counted_from)


def sukaku_grid(values: Sequence[int], state: State) -> tuple[list[int], list[int]]:
    """A candidate-grid state as SE rates a 729-character grid (SukakuExplainer
    ``test/serate.java``: ``Grid.fromString``, then ``Grid.adjustPencilmarks``, and no
    ``rebuildPotentialValues`` for a grid of 729): every cell keeps the candidates written
    for it (a cell with all nine keeps all nine, its filled peers' digits included), and a
    cell with one candidate is placed only when no cell it sees still lists that digit;
    otherwise it stays empty with that one candidate, for SE's rules to place. A given keeps
    its digit (the state cannot contradict it)."""
    from .grid import PEERS

    sets = []
    for given, placed, marks in zip(values, state.placed, state.marks, strict=True):
        digit = given or placed
        sets.append(1 << digit if digit else (marks << 1 if marks else ALL))
    filled = [0] * 81
    for cell, mask in enumerate(sets):  # adjustPencilmarks: "Naked Single not causing
        if mask & (mask - 1):  # direct eliminations", in reading order
            continue
        if not any(sets[peer] & mask for peer in PEERS[cell]):
            filled[cell] = mask.bit_length() - 1
            sets[cell] = 0
    return filled, sets


class NotRatable(Exception):
    """A puzzle SE's scale does not rate: ``status`` is the CLI exit status (1 no solution or
    more than one, 2 not a classic 9×9 puzzle)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def classic_values(puzzle: Puzzle) -> list[int]:
    """The 81 givens of a classic 9×9 puzzle; :class:`NotRatable` (status 2) for any other
    model: SE's scale is defined on classic Sudoku only (and on pencil-mark puzzles, which
    :func:`rate_puzzle_se` takes apart: :func:`given_marks`)."""
    from ...model import load_model

    model = puzzle.model
    n = puzzle.size
    if n != 9:
        what = f"a {n}x{n} one"
    elif model.rules and model.rule_keys != {"givenPencilMarks"}:
        # (a killer or a variant read from a file keeps its model's name)
        kinds = ", ".join(sorted(model.rule_keys))
        what = f"one with rules beyond rows, columns and boxes ({kinds})"
    elif model.groups(9) != load_model("classic").groups(9):
        what = "one whose groups are not rows, columns and boxes (regions, diagonals …)"
    else:
        return list(puzzle.cells)
    raise NotRatable(f"SE's scale rates classic 9x9 puzzles only, not {what}", 2)


def given_marks(puzzle: Puzzle) -> State | None:
    """A pencil-mark puzzle (a 729-character candidate grid, or f-puzzles
    ``givenPencilMarks``) as the candidate-grid state SE's ``serate`` starts from when it reads
    one: every cell's candidates, a given as its one digit; None for a puzzle without marks."""
    from ...formats.state import State

    marks = [0] * 81
    from ...rules.candidates import Candidates

    for rule in puzzle.model.rules:  # (classic_values let through only givenPencilMarks)
        assert isinstance(rule, Candidates)
        mask = sum(1 << (d - 1) for d in rule.digits)
        for cell in rule.cells:
            marks[cell] = (marks[cell] or 0x1FF) & mask
    if not any(marks):
        return None
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            marks[cell] = 1 << (digit - 1)
    return State((0,) * 81, tuple(marks), "a candidate grid")


def state_grid(values: Sequence[int], state: State) -> tuple[list[int], list[int]]:
    """The values and candidates (SE's masks) a solver's ``state`` leaves of a puzzle whose
    givens are ``values``. A candidate grid is read as SE's ``serate`` reads one
    (:func:`sukaku_grid`); any other state (placed digits, f-puzzles cells): its placed digits
    filled in, each empty cell narrowed to its marks (bit ``d - 1`` for digit ``d``; none:
    every digit) and to what its filled peers leave."""
    if state.source == "a candidate grid":
        return sukaku_grid(values, state)
    filled = [given or placed for given, placed in zip(values, state.placed, strict=True)]
    peers_left = SEGrid(filled).cands  # (every digit its filled peers leave; 0 when filled)
    cands = [
        mask & (marks << 1 if marks else ALL)
        for mask, marks in zip(peers_left, state.marks, strict=True)
    ]
    return filled, cands


def rate_puzzle_se(
    puzzle: Puzzle,
    time_cap: float = DEFAULT_TIME_CAP,
    state: State | None = None,
    *,
    plain: bool = False,
) -> SERating:
    """Rate ``puzzle`` on SE's scale, after checking it is classic 9×9 with exactly one solution
    (the backtrack backend counts up to two: 0.16 ms a 17-clue puzzle and 7.6 ms a
    forum-hardest one even without its compiled kernel, where dlx took 1.5 and 21 ms, most of
    a 17-clue puzzle's rating); :class:`NotRatable` otherwise. SE's rules that assume
    uniqueness (unique loops, BUG) make a rating of any other puzzle meaningless. ``plain``:
    rate through the plain producers only (:func:`rate_values`), so each step has its
    ``where`` text."""
    from ...backends import get_backend

    values = classic_values(puzzle)
    start = time.perf_counter()
    result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=time_cap)
    solutions = len(result.solutions)
    if solutions >= 2:
        raise NotRatable("has more than one solution (SE rates only unique puzzles)", 1)
    if not result.exact:  # the count ran out of time: uniqueness unknown, nothing rated
        return SERating(0.0, 0.0, 0.0, False, False, False, "time cap", [], time_cap)
    if solutions == 0:
        raise NotRatable("has no solution", 1)
    left = max(0.0, time_cap - (time.perf_counter() - start))
    marked = given_marks(puzzle)
    if marked is not None:  # a pencil-mark puzzle: its marks are where SE's path starts
        if state is not None:
            raise NotRatable(
                "a pencil-mark puzzle is its own state: give its candidates as the puzzle, "
                "without --state",
                2,
            )
        values, state = [0] * 81, marked
    if state is None:
        return rate_values(values, left, plain=plain)
    # From a solver's position: only one the solution agrees with has a path worth rating.
    from ...hint import wrong_cell

    wrong = wrong_cell(result.solutions[0], state, 9)
    if wrong is not None:
        raise NotRatable(f"the state is wrong: {wrong[1]}", 1)
    filled, cands = state_grid(values, state)
    return rate_values(filled, left, cands, plain=plain)
