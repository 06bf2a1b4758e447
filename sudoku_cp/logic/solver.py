"""The human-style solve: apply the cheapest technique that finds something, repeat.

>>> from sudoku_cp import Puzzle
>>> easy = "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"
>>> trace = solve_logically(Puzzle.parse(easy))
>>> trace.outcome, trace.steps[0].technique
('solved', 'Locked Pair')
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import NotUniqueError, SudokuError
from . import (
    als,
    basic,
    chains,
    fish,
    forcing,
    grouped,
    patterns,
    tabling,
    uniqueness,
    variants,
    wings,
)
from . import sue_de_coq as sdc
from .board import Board, Technique
from .complex_fish import (
    finned_franken_swordfish,
    finned_franken_x_wing,
    franken_swordfish,
    franken_x_wing,
)
from .steps import Outcome, Step, Trace

HODOKU_SIDE = 9
"""The grid side HoDoKu's techniques are written for."""


@dataclass(frozen=True)
class Entry:
    """A technique in the registry: HoDoKu's sort key (its solver's order), the names its
    steps may carry, whether it assumes the puzzle has one solution, and the function."""

    order: int
    name: str
    find: Technique
    uniqueness: bool = False
    rules: bool = False
    """A variant technique (:mod:`.variants`): only for models with rules beyond groups."""
    largest: int = 64
    """The largest grid side it runs on by default. HoDoKu's families written for its 9×9
    grid (ALS, Sue de Coq, Franken fish, grouped chains, forcing chains and nets) enumerate
    subsets of groups or whole implication tables; on a 16×16 grid or larger they run for
    minutes on one stalled state, so a bigger grid stalls where they would begin."""


# HoDoKu's order of techniques (the first field of each ``StepConfig`` in
# HoDoKu's ``Options.DEFAULT_SOLVER_STEPS``, hobiwan/HoDoKu ``src/sudoku/Options.java``):
# the solver tries them cheapest first.
TECHNIQUES: list[Entry] = [
    Entry(100, "Full House", basic.full_house),
    Entry(200, "Naked Single", basic.naked_single),
    Entry(300, "Hidden Single", basic.hidden_single),
    # The rules' own deductions (our order keys: after the singles, before the intersections).
    Entry(400, variants.RULE_DIGITS, variants.rule_digits, rules=True),
    Entry(500, variants.RULE_PAIRS, variants.rule_pairs, rules=True),
    Entry(600, variants.RULE_COMBINATIONS, variants.rule_combinations, rules=True),
    Entry(700, variants.RULE_CONTAINS, variants.rule_contains, rules=True),
    Entry(1000, "Locked Pair", basic.locked_pair),
    Entry(1100, "Locked Triple", basic.locked_triple),
    Entry(1200, "Locked Candidates Type 1 (Pointing)", basic.locked_candidates_pointing),
    Entry(1210, "Locked Candidates Type 2 (Claiming)", basic.locked_candidates_claiming),
    Entry(1300, "Naked Pair", basic.naked_pair),
    Entry(1400, "Naked Triple", basic.naked_triple),
    Entry(1500, "Hidden Pair", basic.hidden_pair),
    Entry(1600, "Hidden Triple", basic.hidden_triple),
    Entry(2000, "Naked Quadruple", basic.naked_quadruple),
    Entry(2100, "Hidden Quadruple", basic.hidden_quadruple),
    Entry(2200, "X-Wing", fish.x_wing),
    Entry(2300, "Swordfish", fish.swordfish),
    Entry(2400, "Jellyfish", fish.jellyfish),
    # The advanced techniques (patterns, wings, chains, uniqueness), at HoDoKu's order keys.
    Entry(2800, "Remote Pair", chains.remote_pair),
    Entry(2900, "Bivalue Universal Grave + 1", uniqueness.bug_plus_1, uniqueness=True),
    Entry(3000, "Skyscraper", patterns.skyscraper),
    Entry(3100, "2-String Kite", patterns.two_string_kite),
    Entry(3120, "Turbot Fish", chains.turbot_fish),
    Entry(3170, "Empty Rectangle", patterns.empty_rectangle),
    Entry(3200, "W-Wing", wings.w_wing),
    Entry(3300, "XY-Wing", wings.xy_wing),
    Entry(3400, "XYZ-Wing", wings.xyz_wing),
    Entry(3500, "Uniqueness Test 1", uniqueness.uniqueness_test_1, uniqueness=True),
    Entry(3600, "Uniqueness Test 2", uniqueness.uniqueness_test_2, uniqueness=True),
    Entry(3700, "Uniqueness Test 3", uniqueness.uniqueness_test_3, uniqueness=True),
    Entry(3800, "Uniqueness Test 4", uniqueness.uniqueness_test_4, uniqueness=True),
    Entry(3900, "Uniqueness Test 5", uniqueness.uniqueness_test_5, uniqueness=True),
    Entry(4000, "Uniqueness Test 6", uniqueness.uniqueness_test_6, uniqueness=True),
    Entry(4010, "Hidden Rectangle", uniqueness.hidden_rectangle, uniqueness=True),
    Entry(4020, "Avoidable Rectangle Type 1", uniqueness.avoidable_rectangle_1, uniqueness=True),
    Entry(4030, "Avoidable Rectangle Type 2", uniqueness.avoidable_rectangle_2, uniqueness=True),
    Entry(5300, "Sue de Coq", sdc.sue_de_coq, largest=HODOKU_SIDE),
    Entry(5330, "Simple Colors Trap", patterns.simple_colors_trap),
    Entry(5331, "Simple Colors Wrap", patterns.simple_colors_wrap),
    Entry(5360, "Multi-Colors 1", patterns.multi_colors_1),
    Entry(5361, "Multi-Colors 2", patterns.multi_colors_2),
    Entry(5400, "X-Chain", chains.x_chain),
    Entry(5500, "XY-Chain", chains.xy_chain),
    Entry(5600, "Continuous Nice Loop", chains.continuous_nice_loop),
    Entry(5601, "Discontinuous Nice Loop", chains.discontinuous_nice_loop),
    Entry(5602, "AIC", chains.aic),
    # The last resort of variant puzzles (our order key, after every chain).
    Entry(6000, forcing.FORCING_NET, forcing.forcing_net, rules=True),
    # The list is sorted by ``order`` below, so entries may be added anywhere.
    Entry(4100, "Finned X-Wing", fish.finned_x_wing),
    Entry(4300, "Finned Swordfish", fish.finned_swordfish),
    Entry(4500, "Finned Jellyfish", fish.finned_jellyfish),
    # Franken fish: HoDoKu's solver has these four on by default (Options.DEFAULT_SOLVER_STEPS);
    # its Franken Jellyfish and Mutant fish are off (complex_fish.TECHNIQUES has them all).
    Entry(6100, "Franken X-Wing", franken_x_wing, largest=HODOKU_SIDE),
    Entry(6200, "Franken Swordfish", franken_swordfish, largest=HODOKU_SIDE),
    Entry(6700, "Finned Franken X-Wing", finned_franken_x_wing, largest=HODOKU_SIDE),
    Entry(6800, "Finned Franken Swordfish", finned_franken_swordfish, largest=HODOKU_SIDE),
    # Almost locked sets at HoDoKu's order keys. Death Blossom stays out of the default order,
    # as HoDoKu's own default leaves it off (its StepConfig has enabled=false), so that levels
    # agree with HoDoKu's; als.TECHNIQUES has it for a caller's own list and for reglib.
    Entry(5700, als.ALS_XZ, als.als_xz, largest=HODOKU_SIDE),
    Entry(5800, als.ALS_XY_WING, als.als_xy_wing, largest=HODOKU_SIDE),
    Entry(5900, als.ALS_XY_CHAIN, als.als_xy_chain, largest=HODOKU_SIDE),
    # HoDoKu's GROUPED_NICE_LOOP (5650) and its FORCING_CHAIN (8500) and FORCING_NET (8600),
    # each of whose kinds is one entry here.
    Entry(5650, grouped.GCNL, grouped.grouped_continuous_nice_loop, largest=HODOKU_SIDE),
    Entry(5651, grouped.GDNL, grouped.grouped_discontinuous_nice_loop, largest=HODOKU_SIDE),
    Entry(5652, grouped.GAIC, grouped.grouped_aic, largest=HODOKU_SIDE),
    Entry(8500, tabling.FCC, tabling.forcing_chain_contradiction, largest=HODOKU_SIDE),
    Entry(8501, tabling.FCV, tabling.forcing_chain_verity, largest=HODOKU_SIDE),
    Entry(8600, tabling.FNC, tabling.forcing_net_contradiction, largest=HODOKU_SIDE),
    Entry(8601, tabling.FNV, tabling.forcing_net_verity, largest=HODOKU_SIDE),
    # Kraken Fish (8450) is off in HoDoKu's default solver (StepConfig enabled=false):
    # kraken.TECHNIQUES has both types for a caller's list and reglib.
    # Template Set and Template Delete (8700, 8800) are off in HoDoKu's default solver
    # (StepConfig enabled=false): templates.TECHNIQUES has them for a caller's list and reglib.
]
TECHNIQUES.sort(key=lambda entry: entry.order)


def _optional() -> list[Entry]:
    from . import complex_fish, kraken, templates

    on = {e.name for e in TECHNIQUES}
    found = [Entry(6000, als.DEATH_BLOSSOM, als.death_blossom, largest=HODOKU_SIDE)]
    for order, name, find in (*complex_fish.TECHNIQUES, *kraken.TECHNIQUES):
        if name not in on:
            found.append(Entry(order, name, find, largest=HODOKU_SIDE))
    for order, (name, find) in zip((8700, 8800), templates.TECHNIQUES, strict=True):
        found.append(Entry(order, name, find, largest=HODOKU_SIDE))
    return sorted(found, key=lambda entry: entry.order)


OPTIONAL: list[Entry] = _optional()
"""HoDoKu's searches its default solver leaves off (``Options.DEFAULT_SOLVER_STEPS``,
``enabled=false``), at its order keys: Death Blossom (6000), Franken Jellyfish, the Mutant
fish and the 5- and 6-unit fish (6300-8300), Kraken Fish (8450; Type 2 ours at 8451) and
templates (8700, 8800). A caller turns them on by name (``extra``; ``explain --also``), as
HoDoKu's settings do; the levels and scores of a puzzle then follow from what was used."""


def optional_entries(names: Sequence[str]) -> list[Entry]:
    """The :data:`OPTIONAL` entries named (any case); SudokuError for a name not among them."""
    by_name = {e.name.casefold(): e for e in OPTIONAL}
    out = []
    for name in names:
        entry = by_name.get(name.strip().casefold())
        if entry is None:
            on = {e.name.casefold() for e in TECHNIQUES}
            why = "is on already" if name.strip().casefold() in on else "is no technique to add"
            raise SudokuError(
                f"{name!r} {why}; those to add are " + ", ".join(e.name for e in OPTIONAL)
            )
        if entry not in out:
            out.append(entry)
    return out


def techniques(
    *, uniqueness: bool = False, rules: bool = False, size: int = 9, extra: Sequence[str] = ()
) -> list[Technique]:
    """The registry's techniques in order for a grid of side ``size``: those assuming
    uniqueness only when asked, the variant ones only for ``rules`` (a model with rules
    beyond groups), and only those whose :attr:`Entry.largest` allows the size; with the
    :data:`OPTIONAL` ones named in ``extra`` at their places."""
    entries = TECHNIQUES  # (sorted once; merged and sorted again only with extras)
    if extra:
        entries = sorted([*TECHNIQUES, *optional_entries(extra)], key=lambda entry: entry.order)
    return [
        e.find
        for e in entries
        if (uniqueness or not e.uniqueness) and (rules or not e.rules) and size <= e.largest
    ]


UNIQUE_SECONDS = 10.0
"""How long the check that a puzzle has one solution may search, before a technique that
assumes one is applied (:func:`solve_logically`) or a stalled rating is refused."""

MULTIPLE = (
    "has more than one solution: the techniques that assume one (unique rectangles, BUG+1) "
    "would take wrong steps, and no rating applies"
)


def solution_count(puzzle: object) -> int | None:
    """The puzzle's solutions counted up to 2 (0, 1 or 2: two or more) by the backend the tool
    prefers for it, within :data:`UNIQUE_SECONDS`; None when that was not enough to know."""
    from ..choice import first_solutions

    solutions, known = first_solutions(puzzle, 2, UNIQUE_SECONDS)  # type: ignore[arg-type]
    return len(solutions) if known else None


def confirm_unique(puzzle: object) -> None:
    """Raise :class:`NotUniqueError` unless ``puzzle`` has at most one solution (none is
    allowed: every step holds vacuously, and a solve of it ends in a contradiction)."""
    count = solution_count(puzzle)
    if count is None:
        raise NotUniqueError(
            f"its uniqueness could not be confirmed within {UNIQUE_SECONDS:g} s, and the "
            "techniques that assume one solution (unique rectangles, BUG+1) need it: "
            "--no-uniqueness (uniqueness=False) leaves them out"
        )
    if count > 1:
        raise NotUniqueError(MULTIPLE)


_ASSUMING_ONE = frozenset(id(e.find) for e in [*TECHNIQUES, *OPTIONAL] if e.uniqueness)
"""The techniques whose steps hold only if the puzzle has one solution."""


def check_logic_model(puzzle: object) -> None:
    """Raise SudokuError when the puzzle has a rule of a shape the logic solver does not
    read (every rule kind the tool reads has one it does)."""
    rules = getattr(getattr(puzzle, "model", None), "rules", ())
    if rules:
        variants.check_shapes(rules)


def solve_logically(
    puzzle: object,
    *,
    uniqueness: bool = False,
    techniques: Sequence[Technique] | None = None,
    max_steps: int | None = None,
    deadline: float | None = None,
    placed: Sequence[int] | None = None,
    marks: Sequence[int] | None = None,
    extra: Sequence[str] = (),
    unique: bool | None = None,
) -> Trace:
    """Solve ``puzzle`` by deduction alone: each round, the first technique (cheapest first)
    that finds a step is applied. Ends ``solved`` (the grid is full), ``stalled`` (no technique
    finds anything) or ``contradiction`` (an empty cell has no candidate, or a full group lost a
    digit: with sound techniques, a proof the puzzle has no solution). ``max_steps`` (default:
    one per candidate, which no solve can exceed) cuts a solve short as ``stalled``, and so does
    ``deadline`` (a ``time.perf_counter()`` value; the trace says ``timed_out``): it is looked
    at between steps, and by the long searches (grouped loops, ALS-XY-Chain, forcing chains
    and nets) between premises (a forcing net may take a second on a hard board), whose round
    then ends the solve.

    A current state to start from (a setter's or solver's progress): ``placed``, a digit per
    cell (0: none) placed beside the givens, and ``marks``, a candidate mask per cell (bit
    ``d - 1`` for digit ``d``; 0: no marks, every digit left) the cell keeps at most. The
    steps then hold for every solution that agrees with the state; a state no solution
    agrees with may end in a contradiction.

    ``extra``: names of :data:`OPTIONAL` techniques to add to the default ones (not with
    ``techniques``).

    ``unique``: whether the puzzle is known to have one solution. When it is not (None), the
    first step of a technique that assumes one (unique rectangles, BUG+1) waits for
    :func:`confirm_unique`: a puzzle with two solutions raises :class:`NotUniqueError` there
    instead of taking a step that could remove a true candidate (such a step would "solve" a
    puzzle with two solutions to one of them)."""
    from ..puzzle import Puzzle

    if not isinstance(puzzle, Puzzle):
        raise SudokuError(f"solve_logically takes a Puzzle, not {type(puzzle).__name__}")
    check_logic_model(puzzle)
    has_rules = bool(puzzle.model.rules)
    # Uniqueness techniques swap digits between cells, which a rule beyond groups (a cage's
    # sum, a knight's move) may forbid: they stay off for every such model.
    if techniques is not None and extra:
        raise SudokuError("solve_logically takes techniques or extra, not both")
    chosen = (
        list(techniques)
        if techniques is not None
        else _default(uniqueness and not has_rules, has_rules, puzzle.size, extra)
    )
    board = Board(puzzle)
    clash = _start_from(board, placed, marks)
    board.track()
    board.deadline = deadline
    limit = puzzle.size**3 if max_steps is None else max_steps
    steps: list[Step] = []
    outcome: Outcome = "stalled"
    timed_out = False
    if clash or board.broken() or _clash(puzzle):
        outcome = "contradiction"
    while outcome == "stalled" and not board.solved() and len(steps) < limit:
        if deadline is not None and time.perf_counter() >= deadline:
            timed_out = True
            break
        step = None
        for find in chosen:
            step = find(board)
            if step is not None:
                break
        if board.cut:  # a search stopped at the deadline: its step may not be the first
            timed_out = True
            break
        if step is None:
            break
        if not unique and id(find) in _ASSUMING_ONE:
            confirm_unique(puzzle)  # (raises on two solutions: the step may be wrong)
            unique = True
        changed = board.apply(step)
        steps.append(step)
        if board.broken_at(changed):
            outcome = "contradiction"
    if outcome == "stalled" and board.solved():
        outcome = "solved"
    return Trace(
        puzzle=puzzle,
        steps=tuple(steps),
        outcome=outcome,
        values=tuple(board.values),
        candidates=tuple(board.candidates),
        timed_out=timed_out,
    )


def _start_from(board: Board, placed: Sequence[int] | None, marks: Sequence[int] | None) -> bool:
    """Put a state's placed digits and pencil marks on ``board``; True when a placed digit
    clashes with the givens or another placed digit (a contradiction from the start)."""
    cells = board.size * board.size
    for name, grid in (("placed", placed), ("marks", marks)):
        if grid is not None and len(grid) != cells:
            raise SudokuError(f"the state's {name} has {len(grid)} cells, not {cells}")
    clash = False
    for cell, digit in enumerate(placed or ()):
        if not digit or board.values[cell] == digit:
            continue
        if not 1 <= digit <= board.size:
            raise SudokuError(f"the state places {digit} in {board.name(cell)}: not a digit")
        if board.values[cell] or not board.candidates[cell] >> (digit - 1) & 1:
            clash = True
        board.place(cell, digit)
    for cell, mask in enumerate(marks or ()):
        if mask and not board.values[cell]:
            if not 0 < mask <= board.all_digits:
                raise SudokuError(f"the state's marks of {board.name(cell)} are not digits")
            board.candidates[cell] &= mask
    return clash


def _default(
    uniqueness: bool, rules: bool = False, size: int = 9, extra: Sequence[str] = ()
) -> list[Technique]:
    return techniques(uniqueness=uniqueness, rules=rules, size=size, extra=extra)


def _clash(puzzle: object) -> bool:
    """True when two givens of one group hold the same digit."""
    cells = puzzle.cells  # type: ignore[attr-defined]
    for group in puzzle.groups():  # type: ignore[attr-defined]
        seen = [cells[c] for c in group if cells[c]]
        if len(seen) != len(set(seen)):
            return True
    return False
