"""One generated puzzle: drawn, carved, checked against the targets, judged by two paradigms.

Everything a puzzle is made of comes from ``random.Random(f"{seed}:{index}")`` — its grid,
its regions or cages, the order of removal — so the same seed and index give the same puzzle
in any process, and ``--jobs`` changes only the speed.
"""

from __future__ import annotations

import functools
import random
import time
from dataclasses import dataclass, field
from typing import Any

from ..choice import VARIANT_ORDER, Chooser
from ..errors import SudokuError
from ..model import Model, load_model
from ..puzzle import Grid, Puzzle
from ..rules import global_rule
from ..verdict import CheckRecord
from .carve import carve, removable_given
from .counting import LARGE_FROM, Counter, OutOfTime, deadline
from .difficulty import (
    Difficulty,
    SEDifficulty,
    beyond,
    difficulty,
    level_named,
    rateable,
    refusal,
    se_difficulty,
    se_meets,
)
from .grids import NoGrid, random_regions, random_solution
from .killer import random_cages, refine
from .marks import GLOBALS, add_until_unique, counter_for, draw_rules, prune, removable_rule
from .options import NO_GRID, OptionError, Options
from .satcount import needs_sat, sat_solution
from .symmetry import orbits


class Unreachable(SudokuError):
    """The targets were not met within the caps on attempts and time."""


@dataclass
class Generated:
    """A generated puzzle and what is known of it."""

    index: int
    seed: str
    puzzle: Puzzle
    solution: Grid
    clues: int
    minimal: bool | None
    difficulty: Difficulty | SEDifficulty | None
    """The logic rating, or SE's with ``--scale se`` (None when not asked for, or the model
    has rules beyond groups)."""
    attempts: int
    seconds: float
    record: CheckRecord
    counted_by: str
    extra: dict[str, Any] = field(default_factory=dict)
    drawn: tuple[Any, ...] = ()
    """The rules drawn for this puzzle (marks), which ``--minimal`` proves each needed."""
    layout: Model | None = None
    """The model before the drawn rules (regions and global rules)."""


def base_model(options: Options) -> Model:
    """The run's model (raises :class:`OptionError` for a difficulty target on a model the
    rating cannot judge)."""
    model = load_model(options.model, box=options.box)
    model.check_size(options.size)
    # The global rules asked for by --variant and those of the model itself (--model antiking)
    given = [("--variant", kind) for kind in options.kinds]
    given += [("--model", rule.key) for rule in model.rules if getattr(rule, "key", None)]
    for option, kind in given:
        box = model.box_for(options.size) if model.uses_boxes else None
        if (kind, options.size) in NO_GRID and box == (2, 2) and "jigsaw" not in options.kinds:
            raise OptionError(
                f"{option} {kind}: no {options.size}x{options.size} grid with 2x2 boxes "
                f"satisfies the {kind} rule"
            )
    if options.scale == "se":
        from ..logic.se import NotRatable
        from ..logic.se.rating import classic_values

        try:  # SE's own test of a classic 9x9 model, on an empty grid of this model
            classic_values(Puzzle.from_parsed((0,) * options.size**2, options.size, model))
        except NotRatable as err:
            raise OptionError(f"--scale se: {err} (the hodoku scale rates them)") from None
    why = refusal(options.variant, model)
    if why and (options.difficulty is not None or options.score is not None):
        raise OptionError(f"--difficulty/--score: the logic rating cannot judge this model; {why}")
    return model


def puzzle_seed(seed: int, index: int) -> str:
    """The seed of puzzle ``index`` (1-based) of a run seeded ``seed``.

    >>> puzzle_seed(7, 3)
    '7:3'
    """
    return f"{seed}:{index}"


def make(options: Options, index: int) -> Generated:
    """Puzzle ``index`` of the run ``options`` describe (raises :class:`Unreachable`)."""
    seed = puzzle_seed(options.seed, index)
    rng = random.Random(seed)
    start = time.perf_counter()
    base = base_model(options)
    shapes = orbits(options.symmetry, options.size)
    why = "no attempt finished"
    attempt = 0
    try:  # every count inside an attempt stops at the cap too, not only this loop
        with deadline(start + options.seconds):
            for attempt in range(1, options.attempts + 1):
                if time.perf_counter() - start > options.seconds:
                    raise OutOfTime("the cap ran out between attempts")
                made = _try(options, base, rng, shapes, index, seed, start, attempt)
                if isinstance(made, Generated):
                    return made
                why = made
    except OutOfTime:
        why = f"the {options.seconds:g} s cap on one puzzle ran out"
    raise Unreachable(
        f"puzzle {index}: targets not met after {attempt} attempt(s) ({why}); "
        "loosen --clues/--difficulty/--score/--minimal or raise --attempts/--max-seconds"
    )


def _try(
    options: Options,
    base: Model,
    rng: random.Random,
    shapes: list[tuple[int, ...]],
    index: int,
    seed: str,
    start: float,
    attempt: int,
) -> Generated | str:
    """One attempt at puzzle ``index``: the puzzle, or why it missed the targets."""
    size = options.size
    if options.scale == "se":
        level = None
        targeted = options.difficulty is not None
    else:
        level = level_named(options.difficulty) if options.difficulty is not None else None
        targeted = level is not None or options.score is not None
    made = _attempt(options, base, size, rng, shapes)
    if made is None:
        return "no solved grid fits the drawn layout"
    puzzle, solution, counter, layout, drawn = made
    clues = puzzle.givens_count
    if options.clues is not None and not options.clues[0] <= clues <= options.clues[1]:
        return f"last attempt had {clues} clues"
    # Rated before the minimality proof: with a target most attempts fail here, and at a
    # level below Extreme most of those fail the quick test already.
    if level is not None and beyond(puzzle, level):
        return f"last attempt rated above {level}"
    # Not above 16x16: options refuse a target there, and a 25x25 rating stalls slowly.
    asked = (targeted or options.rate) and size < LARGE_FROM
    rated: Difficulty | SEDifficulty | None = None
    if asked and options.scale == "se":
        from ..logic.se.rating import DEFAULT_TIME_CAP

        # SE's rating within its own default cap and what is left of this puzzle's
        left = options.seconds - (time.perf_counter() - start)
        rated = se_difficulty(puzzle, max(0.1, min(DEFAULT_TIME_CAP, left)))
        missed = se_meets(rated, options.er_range) if options.er_range else None
        if missed:
            return missed
    elif asked and rateable(puzzle.model):
        try:
            rated = difficulty(puzzle)
        except OutOfTime:
            if targeted:
                raise
            rated = None  # asked for the record only: the puzzle stands, without a rating
        if targeted and rated is not None and not _meets(rated, level, options.score):
            return f"last attempt rated {rated.level}, score {rated.score}"
    minimal: bool | None = None
    if options.minimal:
        # With a symmetry, minimal by orbits: no orbit of givens can go (see carve).
        minimal = removable_given(puzzle, solution, counter, shapes) is None and (
            not drawn or removable_rule(layout, size, drawn, puzzle, solution) is None
        )
        if not minimal:
            return "last attempt was not proven minimal" + (
                " by orbits" if options.symmetry != "none" else ""
            )
    record = _judge(puzzle, options, index)
    return Generated(
        index=index,
        seed=seed,
        puzzle=puzzle,
        solution=solution,
        clues=clues,
        minimal=minimal,
        difficulty=rated,
        attempts=attempt,
        seconds=time.perf_counter() - start,
        record=record,
        counted_by=counter.engine,
        drawn=tuple(drawn),
        layout=layout,
    )


def _attempt(
    options: Options, base: Model, size: int, rng: random.Random, shapes: list[tuple[int, ...]]
) -> tuple[Puzzle, Grid, Counter, Model, list[Any]] | None:
    """One fresh grid carved down, or None when the drawn layout has no solved grid: the
    puzzle, its solution, the counter of its model, the model before any drawn marks, and
    the marks."""
    model = base
    kinds = options.kinds
    if "jigsaw" in kinds:
        model = base.with_rules(regions=random_regions(size, base.box_for(size) or (1, size), rng))
    rules = [global_rule(GLOBALS[k], "--variant") for k in kinds if k in GLOBALS]
    if rules:  # the solution is drawn under the global rules, so it satisfies them
        model = model.with_rules(rules=rules, size=size)
    layout = model
    if needs_sat(model):
        drew = sat_solution(model, size, rng)
        if drew is None:
            return None
        solution = drew
    else:
        try:
            solution = random_solution(model, size, rng)
        except NoGrid:
            return None
    low, high = options.clues or (0, 0)
    drawn: list[Any] = []
    empty = Puzzle.from_parsed((0,) * (size * size), size, model) if options.no_givens else None
    if options.variant in ("killer", "killer-givens"):
        # Cages and givens: cages of up to 6 cells, the givens carved over them; cages alone:
        # refined until they fix the solution by themselves.
        largest = 6 if options.variant == "killer-givens" else 5
        cages = random_cages(solution, size, rng, largest)
        if options.variant == "killer":
            refined = refine(base, size, cages, solution, rng)
            if refined is None:
                return None
            model = refined[0]
            return (
                Puzzle.from_parsed((0,) * (size * size), size, model),
                solution,
                Counter(model, size, kernel=False),
                layout,
                drawn,
            )
        from .killer import cage_model

        model = cage_model(base, size, cages, solution)
    if options.marks:
        drawn, reserve = draw_rules(options.marks, solution, size, rng, options.no_givens)
        if empty is not None:
            fixed = add_until_unique(layout, size, drawn, reserve, solution, rng)
            if fixed is None:
                return None
            drawn = prune(layout, size, fixed, empty.cells, rng) if options.minimal else fixed
            model = layout.with_rules(rules=drawn, size=size)
            return (
                Puzzle.from_parsed(empty.cells, size, model),
                solution,
                counter_for(model, size),
                layout,
                drawn,
            )
        model = layout.with_rules(rules=drawn, size=size)
    # Killer cages keep the backtracker that made their puzzles so far; other rules count by
    # one kept SAT solver (see .satcount).
    killer = options.variant == "killer-givens"
    counter = Counter(model, size) if killer else counter_for(model, size)
    # Without --minimal a clue target stops the carving at a count drawn in the range (no
    # further than its floor): stopping at its top made every puzzle of 22-30 a 30.
    stop = rng.randint(low, high) if options.clues is not None and not options.minimal else 0
    floor = low if options.clues is not None and not options.minimal else 0
    cells = carve(solution, counter, rng, shapes, floor=floor, stop=stop)
    if drawn and options.minimal:
        # Givens first, then marks: a given needed stays needed as marks go (fewer rules only
        # add solutions), so both end minimal.
        drawn = prune(layout, size, drawn, cells, rng)
        model = layout.with_rules(rules=drawn, size=size)
        counter = counter_for(model, size)
    return Puzzle.from_parsed(tuple(cells), size, model), solution, counter, layout, drawn


def _both_judged(record: CheckRecord, index: int) -> None:
    """Every judge must have said ``unique`` itself: the harness's ``unique`` needs only one
    backend that decided (the others may have run out of time or not taken the rules), and a
    puzzle written on one judge's word is not "proven by two paradigms". A judge that cannot
    take the puzzle's rules is an unusable ``--backends`` (exit 2); one that ran out of time
    or could not decide leaves the puzzle undecided (exit 3)."""
    from ..result import Status

    runs = record.backends
    unsupported = [name for name, run in runs.items() if run.status is Status.UNSUPPORTED]
    if unsupported:
        raise OptionError(
            f"--backends: {', '.join(unsupported)} cannot judge puzzle {index}'s rules; "
            "choose backends that take them (sudoku-cp backends) or auto"
        )
    short = [
        f"{name}: {run.said()}"
        for name, run in runs.items()
        if run.status in (Status.TIMEOUT, Status.UNDECIDED, Status.ERROR)
    ]
    if short and record.verdict.value in ("unique", "undecided"):
        raise Unreachable(
            f"puzzle {index}: not judged unique by both backends ({', '.join(short)}); "
            "raise --time-limit or choose other --backends"
        )


def _meets(rated: Difficulty, level: str | None, score: tuple[int, int | None] | None) -> bool:
    if level is not None and rated.level != level:
        return False
    if score is not None:
        low, top = score
        return rated.score >= low and (top is None or rated.score <= top)
    return True


@functools.cache
def _chooser() -> Chooser:
    from ..backends import available_backends

    return Chooser(available_backends())


def _judge(puzzle: Puzzle, options: Options, index: int) -> CheckRecord:
    """The harness's verdict by two paradigms (``auto``'s choice, or the run's backends);
    anything but ``unique`` is a bug of the generator, reported, never written as a puzzle."""
    from ..harness import cross_check

    names = options.backends or _chooser()(puzzle)
    if options.backends is None and needs_sat(puzzle.model) and "backtrack" in names:
        # Few givens under non-consecutive: backtrack took 15 s on a 9x9 that sat and cpsat
        # decide in milliseconds (auto picks it for non-consecutive); lines, dots and sums
        # get these two from auto already.
        judges = [n for n in VARIANT_ORDER if n in _chooser().available][:2]
        names = tuple(judges) if len(judges) == 2 else names
    record = cross_check(puzzle, list(names), time_limit=options.time_limit, id=str(index))
    record.index = index
    _both_judged(record, index)
    if record.verdict.value != "unique":
        raise SudokuError(
            f"puzzle {index}: the cross-check says {record.verdict.value} "
            f"({record.reason}) for {record.puzzle}: a generator bug, please report it"
        )
    if options.certify:
        from ..certify.batch import certify_record

        certify_record(record, puzzle, options.certify, must_store=True)
    return record
