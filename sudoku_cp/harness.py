"""Cross-checking one puzzle across backends: run them, check every answer, compare, judge.

The harness trusts no backend. Each one is run on the same puzzle with the same limit; what it
returns is first checked for shape (a :class:`~sudoku_cp.result.Result` whose status and
solutions agree with each other), then every solution it found goes through the puzzle's own
validator (:meth:`Puzzle.problems_with`, which shares no code with any backend). Only then are
the backends compared, and the verdict is drawn from *validated evidence*:

- two distinct valid solutions prove ``multiple`` whoever found them, even a backend that later
  ran out of time;
- a backend that claims an exact count (``unique``, ``none``, or an exhaustive count) is
  contradicted when the others' valid solutions outnumber its claim;
- a backend that raises, returns nonsense or runs out of time is recorded as such and simply
  does not vote; the others' answers stand.

>>> from sudoku_cp import Puzzle
>>> record = cross_check(Puzzle.parse("1234............"), ["backtrack"])
>>> record.verdict.value, record.count, len(record.solutions)
('multiple', 2, 2)
"""

from __future__ import annotations

import dataclasses
import numbers
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice
from operator import countOf
from typing import Any

from .backends import (
    Backend,
    available_backends,
    backend_class,
    backend_names,
    check_limits,
    get_backend,
)
from .errors import BackendError, SudokuError
from .fastcheck import solved_each
from .formats.record_form import record_text
from .model import Model, load_model
from .published import conflicts, explain, published_status
from .puzzle import Grid, Puzzle
from .result import DECIDING, Result, Status, solutions_text
from .transforms import RELABEL, Transform, digit_kind, transforms_for
from .verdict import BackendRun, CheckRecord, Verdict

DEFAULT_LIMIT = 2
"""Two solutions are all a uniqueness check needs: one to show it is solvable, a second to
show it is not unique."""
WITNESSES = 2
"""How many solutions a record keeps: enough to prove ``multiple`` (more would bloat files)."""


# --- choosing backends ---------------------------------------------------------------------------
def resolve_backends(names: Iterable[str] | str | None = None) -> list[str]:
    """Canonical backend names: ``names`` (a list or ``"a,b,c"``), default every available one.

    An unknown name, a repeated one or an unavailable one that was asked for by name raises
    :class:`BackendError` with one line saying which and why.
    """
    if names is None:
        chosen = available_backends()
        if not chosen:
            raise BackendError("no backend is available (see `sudoku-cp backends`)")
        return chosen
    if isinstance(names, str):
        names = [n for n in (part.strip() for part in names.split(",")) if n]
    resolved: list[str] = []
    for name in names:
        canonical = backend_class(name).name  # raises BackendError listing the known names
        if canonical in resolved:
            raise BackendError(f"backend '{canonical}' is named twice")
        reason = backend_class(canonical).unavailable_reason()
        if reason:
            raise BackendError(reason)
        resolved.append(canonical)
    if not resolved:
        raise BackendError(f"no backend named (known backends: {', '.join(backend_names())})")
    return resolved


def check_backend_options(
    backends: Sequence[str], options: Mapping[str, Mapping[str, Any]] | None
) -> dict[str, dict[str, Any]]:
    """Per-backend options, each checked by its backend (BackendError for unknown ones)."""
    options = dict(options or {})
    stray = sorted(set(options) - set(backends))
    if stray:
        raise BackendError(
            f"options given for backend(s) not being run: {', '.join(stray)} "
            f"(running: {', '.join(backends)})"
        )
    checked: dict[str, dict[str, Any]] = {}
    for name in backends:
        given = dict(options.get(name) or {})
        backend_class(name)().check_options(given)  # raises naming the valid options
        checked[name] = given
    return checked


MAX_METAMORPHIC = 1000
"""The most random transforms ``check --metamorphic K`` cross-checks per puzzle (each one is a
whole cross-check of its own)."""


def check_metamorphic(metamorphic: int) -> None:
    """Raise SudokuError unless ``metamorphic`` is a whole number of transforms within its cap."""
    if (
        isinstance(metamorphic, bool)
        or not isinstance(metamorphic, int)
        or not 0 <= metamorphic <= MAX_METAMORPHIC
    ):
        raise SudokuError(
            f"metamorphic must be a whole number of transforms from 0 to {MAX_METAMORPHIC:,},"
            f" not {metamorphic!r}"
        )


# --- one puzzle ----------------------------------------------------------------------------------
def cross_check(
    puzzle: Puzzle | str | Sequence[Any],
    backends: Iterable[str] | str | None = None,
    *,
    limit: int | None = DEFAULT_LIMIT,
    time_limit: float | None = None,
    model: Model | str = "classic",
    options: Mapping[str, Mapping[str, Any]] | None = None,
    id: str = "1",
    metamorphic: int = 0,
    seed: int | str = 0,
) -> CheckRecord:
    """Run ``backends`` (default: every available one) on one puzzle and judge their answers.

    ``puzzle`` is a :class:`Puzzle`, puzzle text or a grid; text that is not a puzzle gives a
    record with verdict ``invalid`` and the reason (no backend is run). ``limit`` is how many
    solutions each backend looks for (2 decides uniqueness; None counts all); ``time_limit`` is
    per backend, and here, in this process, it is the backends' own (cooperative) limit — the
    batch runner (:func:`sudoku_cp.batch.check_puzzles`) also enforces it by killing workers.
    ``options`` maps a backend name to its options, e.g. ``{"backtrack": {"strategy": "mrv"}}``.
    ``metamorphic=K`` also cross-checks K random transforms of the puzzle (chosen by ``seed``),
    which must agree with it (:func:`check_variants`).

    >>> record = cross_check("1...\\n..1.\\n.1..\\n...1", ["backtrack"], limit=None)
    >>> record.verdict.value, record.count, record.exact
    ('multiple', 18, True)
    >>> cross_check("1...\\n..1.\\n.1..\\n...1", ["backtrack"], metamorphic=3).metamorphic
    {'transforms': 3, 'agreed': 3, 'inconclusive': 0, 'relabelled': 3, 'reversed': 0, 'moved': 3}
    """
    # Checked as check_puzzles checks them: a bad limit was each backend's error and the
    # verdict 'undecided', and metamorphic=10**9 ran for ever.
    check_limits(limit, time_limit)
    check_metamorphic(metamorphic)
    names = resolve_backends(backends)
    settings = check_backend_options(names, options)
    rules = load_model(model)
    if not isinstance(puzzle, Puzzle):
        try:
            if isinstance(puzzle, str):
                puzzle = Puzzle.parse(puzzle, model=rules)
            else:
                puzzle = Puzzle(puzzle, model=rules)  # type: ignore[arg-type]  # Puzzle checks
        except SudokuError as err:
            return invalid_record(id, str(puzzle) if isinstance(puzzle, str) else repr(puzzle), err)
    runners = [(name, get_backend(name), settings[name]) for name in names]
    outcomes = run_backends(puzzle, runners, limit=limit, time_limit=time_limit)
    record = judge(puzzle, outcomes, id=id, limit=limit)
    if metamorphic:
        record = check_variants(
            puzzle,
            record,
            runners,
            transforms_for(puzzle, metamorphic, seed),
            limit=limit,
            time_limit=time_limit,
        )
    return record


def invalid_record(
    id: str,
    text: str,
    reason: str | BaseException,
    *,
    index: int = 1,
    line: int | None = None,
    source: str | None = None,
) -> CheckRecord:
    """The record of an input that is not a puzzle: verdict ``invalid`` and why; no backend ran."""
    why = str(reason)
    if line is not None and "line" not in why:
        why = f"line {line}: {why}"
    return CheckRecord(
        id=str(id),
        puzzle=_one_line(text),
        verdict=Verdict.INVALID,
        reason=why,
        index=index,
        line=line,
        source=source,
    )


Outcome = tuple[BackendRun, tuple[Grid, ...]]
"""A backend's run and the solutions it returned (not yet validated)."""


def run_backends(
    puzzle: Puzzle,
    runners: Sequence[tuple[str, Backend, Mapping[str, Any]]],
    *,
    limit: int | None,
    time_limit: float | None,
    known: Mapping[str, BackendRun] | None = None,
    before: Callable[[int], None] | None = None,
    after: Callable[[], None] | None = None,
) -> dict[str, Outcome]:
    """Run each ``(name, backend, options)`` on ``puzzle``; never raises for a backend's fault.

    ``known`` holds runs already decided elsewhere (the batch runner's ``timeout`` for a backend
    whose worker it had to kill); those backends are not run again. ``before(i)`` and ``after()``
    bracket the call of the i-th backend, so the runner can watch how long it takes.
    """
    calls = call_backends(
        puzzle, runners, limit=limit, time_limit=time_limit, known=known, before=before, after=after
    )
    return read_calls(calls, limit)


Call = tuple[Any, float] | BackendRun
"""What a backend returned, not yet read, and the seconds it took — or the run of a backend
that did not return (it raised, it does not support the puzzle, or ``known`` already said how
it went)."""


def call_backends(
    puzzle: Puzzle,
    runners: Sequence[tuple[str, Backend, Mapping[str, Any]]],
    *,
    limit: int | None,
    time_limit: float | None,
    known: Mapping[str, BackendRun] | None = None,
    before: Callable[[int], None] | None = None,
    after: Callable[[], None] | None = None,
) -> dict[str, Call]:
    """The first half of :func:`run_backends`: call the backends and keep what they return.

    A backend that says up front it cannot take the puzzle (:meth:`Backend.supports`) is not
    called: its run is ``unsupported``, with the reason. Nothing else happens between two
    calls, so a batch can call the backends on many puzzles and then read all the results
    (:func:`read_calls`) while that code is hot in the caches.
    """
    calls: dict[str, Call] = {}
    clock = time.perf_counter
    for position, (name, backend, options) in enumerate(runners):
        if known and name in known:
            calls[name] = known[name]
            continue
        unsupported = backend.refusal(puzzle)
        if unsupported:
            calls[name] = BackendRun(Status.UNSUPPORTED, error=unsupported)
            continue
        if before is not None:
            before(position)
        start = clock()
        try:
            result = backend.solve(puzzle, limit=limit, time_limit=time_limit, **options)
            calls[name] = (result, clock() - start)
        except Exception as err:  # a backend's bug must not stop the others: record it
            calls[name] = BackendRun(
                Status.ERROR, seconds=clock() - start, error=f"raised {_describe(err)}"
            )
        finally:
            if after is not None:
                after()
    return calls


def read_calls(calls: Mapping[str, Call], limit: int | None) -> dict[str, Outcome]:
    """The second half of :func:`run_backends`: each returned result checked for shape."""
    return {
        name: (call, ()) if isinstance(call, BackendRun) else _read_result(*call, limit)
        for name, call in calls.items()
    }


def _read_result(result: Any, seconds: float, limit: int | None) -> Outcome:
    """The run of a returned result, or an ``error`` run when the result is malformed."""
    malformed, solutions = _malformed(result, limit)
    if malformed:
        return BackendRun(Status.ERROR, seconds=seconds, error=f"malformed result: {malformed}"), ()
    status = result.status
    exact = bool(result.exact) or status in (Status.UNIQUE, Status.NONE)
    return BackendRun(status, len(solutions), exact, seconds, dict(result.stats)), solutions


_RETURNABLE = frozenset(Status) - {Status.ERROR, Status.UNSUPPORTED}
_NAMES, _NUMBERS = frozenset((str,)), frozenset((int, float))  # exactly: a bool is no number


def _malformed(result: Any, limit: int | None) -> tuple[str | None, tuple[Grid, ...]]:
    """Why ``result`` is not a well-formed answer (None when it is one), and its solutions as
    tuples of ints.

    Only the *shape* is judged here: a solution that is a sequence of integers but breaks the
    rules is left to the validator, so that it is reported as a wrong answer.
    """
    if not isinstance(result, Result):
        return f"returned {type(result).__name__}, not a Result", ()
    status = result.status
    if not isinstance(status, Status) or status not in _RETURNABLE:
        return f"status {status!r} is not one a backend may return", ()
    if not isinstance(result.solutions, tuple | list):
        return (f"solutions is a {type(result.solutions).__name__}, not a sequence of grids"), ()
    solutions: tuple[Grid, ...] = result.solutions
    if not _plain_grids(solutions):  # not the usual tuple of tuples of ints: read each
        read = []
        for number, solution in enumerate(result.solutions, start=1):
            grid = _integers(solution)
            if grid is None:
                return f"solution {number} is not a sequence of integer digits", ()
            read.append(grid)
        solutions = tuple(read)
    stats = result.stats
    if not isinstance(stats, dict) or not (
        _NAMES.issuperset(map(type, stats)) and _NUMBERS.issuperset(map(type, stats.values()))
    ):
        return "stats is not a dict of named numbers", ()
    count = len(solutions)
    if limit is not None and count > limit:
        return f"{count} solutions returned for limit {limit}", ()
    if not _count_fits(status, count):
        return f"status {status.value} with {solutions_text(count)}", ()
    return None, solutions


def _plain_grids(solutions: Any) -> bool:
    """True for a tuple of tuples of ints: the usual answer, taken as it is."""
    if type(solutions) is not tuple:
        return False
    for grid in solutions:
        if type(grid) is not tuple or countOf(map(type, grid), int) != len(grid):
            return False
    return True


def _integers(solution: Any) -> Grid | None:
    """``solution`` as a tuple of ints, or None when it is not a sequence of integers (a bool
    is not one; NumPy's integer types are)."""
    if not isinstance(solution, tuple | list):
        return None
    if countOf(map(type, solution), int) == len(solution):  # the usual case, plain ints
        return tuple(solution)
    if all(isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in solution):
        return tuple(map(int, solution))
    return None


def _count_fits(status: Status, count: int) -> bool:
    """Whether a backend saying ``status`` may return ``count`` solutions."""
    if status is Status.UNIQUE:
        return count == 1
    if status is Status.NONE:
        return count == 0
    if status is Status.MULTIPLE:
        return count >= 2
    return count >= 1 if status is Status.SOLVED else True  # a timeout may hold any


# --- judging ---------------------------------------------------------------------------------
Valid = Mapping[str, Sequence[bool]]
"""Per backend, for each solution it returned: True when the validator accepts it."""


def validate_many(
    puzzles: Sequence[Puzzle], outcomes: Sequence[Mapping[str, Outcome]]
) -> list[dict[str, list[bool]]]:
    """For each puzzle, per backend, which of the returned solutions solve it — the
    validator's answer for every solution of every puzzle, asked all at once through its fast
    door (:func:`sudoku_cp.fastcheck.solved_each`), whose every doubt goes to the plain
    :meth:`Puzzle.problems_with`. Give each to :func:`judge` as ``valid``."""
    pairs = [
        (puzzle, solution)
        for puzzle, outcome in zip(puzzles, outcomes, strict=True)
        for _, solutions in outcome.values()
        for solution in solutions
    ]
    accepted = [
        fast is not None or puzzle.is_solution(grid)
        for (puzzle, grid), fast in zip(pairs, solved_each(pairs), strict=True)
    ]
    valid = []
    start = 0
    for outcome in outcomes:
        each = {}
        for name, (_, solutions) in outcome.items():
            end = start + len(solutions)
            each[name] = accepted[start:end]
            start = end
        valid.append(each)
    return valid


def judge(
    puzzle: Puzzle,
    outcomes: Mapping[str, Outcome],
    *,
    id: str = "1",
    index: int = 1,
    line: int | None = None,
    source: str | None = None,
    valid: Valid | None = None,
    limit: int | None = None,
) -> CheckRecord:
    """Compare the backends' validated answers and give the verdict; changes none of its
    inputs. ``valid`` is :func:`validate_many`'s answer for this puzzle (asked here when not
    given): a rejected solution makes its backend wrong, with the validator's reasons.

    The record's count is of the distinct validated solutions, capped at ``limit`` (the limit
    the backends ran with): backends that each found ``limit`` solutions, different ones, show
    that there are at least ``limit`` — never more than was asked for.
    """
    if valid is None:
        valid = validate_many([puzzle], [outcomes])[0]
    evidence: dict[Grid, None] = {}  # distinct valid solutions, first found first
    runs: dict[str, BackendRun] = {}
    wrong: list[str] = []
    failed = False  # some backend gave no answer (a plain unique verdict then needs a reason)
    for name, (run, solutions) in outcomes.items():
        runs[name] = run
        if run.status not in DECIDING:
            failed = True
        if not solutions:
            continue
        problems = []
        if len(solutions) > 1 and len(set(solutions)) != len(solutions):
            problems.append("returned the same solution twice")
        for number, (solution, ok) in enumerate(zip(solutions, valid[name], strict=True), 1):
            if not ok:
                why = "; ".join(puzzle.problems_with(solution)[:3])
                problems.append(f"solution {number} fails the validator: {why}")
            else:
                evidence.setdefault(solution)
        if problems:
            runs[name] = _with_problems(run, problems)
            wrong.append(name)
    found = len(evidence)
    deciders = []
    for name, run in runs.items():
        # An exact claim (unique, none, an exhaustive count) is wrong when valid solutions
        # found by anyone outnumber it; a timeout's solutions count as evidence too.
        if run.exact and run.status in DECIDING and name not in wrong:
            if found > run.count:
                runs[name] = _with_problems(
                    run,
                    [
                        f"said {run.status.value} ({solutions_text(run.count)}) but "
                        f"{solutions_text(found)} were found and validated"
                    ],
                )
                wrong.append(name)
            else:
                deciders.append(run)
    verdict = _verdict(wrong, found, deciders)
    # The puzzle's own published solution, validated as read, witnesses the reading: beside
    # it a decided answer other than its unique match is no plain verdict (see .published).
    published = published_status(puzzle, evidence) if puzzle.published is not None else None
    misread = conflicts(published, verdict._value_)
    prior = verdict
    if misread:
        verdict = Verdict.DISAGREEMENT
    exact = (
        verdict is Verdict.UNIQUE
        or verdict is Verdict.NONE
        or (verdict is Verdict.MULTIPLE and any(run.count == found for run in deciders))
    )
    # (a plain unique verdict, by far the most common, needs no reason)
    reason = (
        None if verdict is Verdict.UNIQUE and not failed else _reason(prior, runs, wrong, found)
    )
    if published is not None and (misread or prior is not Verdict.UNIQUE):
        said = ", ".join(f"{name}: {run.said()}" for name, run in runs.items())
        said = "" if wrong else f" (the backends said {prior._value_}: {said})"
        note = explain(published) + said
        reason = note if reason is None else f"{note} | {reason}"
    count = found if limit is None else min(found, limit)
    # positional, in field order (id, puzzle, verdict, count, exact, solutions, backends,
    # reason, index, line, source): this runs for every puzzle of a batch
    return CheckRecord(
        str(id),
        record_text(puzzle.digits, puzzle.size, puzzle.model),
        verdict,
        count,
        exact and count == found,
        list(islice(evidence, WITNESSES)),
        runs,
        reason,
        index,
        line,
        source,
        published=published,
    )


def _with_problems(run: BackendRun, problems: list[str]) -> BackendRun:
    """A copy of ``run`` that also says why its answer is wrong."""
    return dataclasses.replace(run, problems=[*run.problems, *problems])


def _verdict(wrong: list[str], found: int, deciders: list[BackendRun]) -> Verdict:
    if wrong:
        return Verdict.DISAGREEMENT
    if found >= 2:
        return Verdict.MULTIPLE
    if deciders:
        return Verdict.UNIQUE if found == 1 else Verdict.NONE
    return Verdict.UNDECIDED


def _reason(
    verdict: Verdict, runs: Mapping[str, BackendRun], wrong: list[str], found: int
) -> str | None:
    """One line explaining the verdict, naming the backends it rests on or that failed; None
    for a plain ``unique``."""
    failed = [
        f"{name}: {run.said()}"
        for name, run in runs.items()
        if run.status in (Status.TIMEOUT, Status.ERROR, Status.UNSUPPORTED, Status.UNDECIDED)
    ]
    if verdict is Verdict.DISAGREEMENT:
        accused = [f"{name} is wrong: {'; '.join(runs[name].problems)}" for name in wrong]
        said = [f"{name}: {run.said()}" for name, run in runs.items() if name not in wrong]
        return " | ".join(accused + ([f"the others said: {', '.join(said)}"] if said else []))
    if verdict is Verdict.UNDECIDED:
        if any(run.finished for run in runs.values()):
            everyone = ", ".join(f"{name}: {run.said()}" for name, run in runs.items())
            return f"no backend decided uniqueness ({everyone}); use a limit of at least 2"
        return "no backend finished: " + ", ".join(failed)
    notes = []
    if verdict is Verdict.MULTIPLE:
        finders = [name for name, run in runs.items() if run.count and not run.problems]
        notes.append(f"{solutions_text(found)} found ({', '.join(finders)})")
    elif verdict is Verdict.NONE:
        deciders = [name for name, run in runs.items() if run.finished]
        notes.append(f"no solution ({', '.join(deciders)})")
    if failed:
        notes.append("; ".join(failed))
    return "; ".join(notes) or None


# --- metamorphic checking ------------------------------------------------------------------------
_COMPARABLE = (Verdict.UNIQUE, Verdict.MULTIPLE, Verdict.NONE)


def check_variants(
    puzzle: Puzzle,
    record: CheckRecord,
    runners: Sequence[tuple[str, Backend, Mapping[str, Any]]],
    transforms: Sequence[Transform],
    *,
    limit: int | None,
    time_limit: float | None,
    known: Mapping[str, BackendRun] | None = None,
    before: Callable[[int], None] | None = None,
    after: Callable[[], None] | None = None,
) -> CheckRecord:
    """``record`` with transformed copies of ``puzzle`` cross-checked and compared with it
    (a new record; ``record`` is not changed).

    Each transform moves cells and renames digits so that the model's groups map onto its
    groups and its rules are carried over (:mod:`sudoku_cp.transforms`: a puzzle's own regions
    and cages move with the cells, into the variant's own model; digits are renamed only as the
    rules allow): the transformed puzzle has exactly as many solutions as the original, and
    each maps back onto one of the original's. Each variant is run and judged like the original
    (its solutions validated against the variant); then its verdict, its exact count and its
    witnesses mapped back must match the original's. A mismatch makes the verdict
    ``disagreement``, and the reason names the transform. A variant no backend
    decided (time limits) cannot be compared and counts as inconclusive. Only a decided original
    (unique, multiple, none) is transformed; ``known``, ``before`` and ``after`` are passed to
    :func:`run_backends` for every variant. The record's ``metamorphic`` field says how many
    transforms were used, agreed and were inconclusive, and which kinds: how many renamed the
    digits freely (``relabelled``), only reversed them where the rules allow no more
    (``reversed``) and moved cells (``moved``).
    """
    if record.verdict not in _COMPARABLE:
        return record
    agreed = inconclusive = 0
    mismatches = []
    for transform in transforms:
        variant = transform.puzzle(puzzle)
        outcomes = run_backends(
            variant,
            runners,
            limit=limit,
            time_limit=time_limit,
            known=known,
            before=before,
            after=after,
        )
        judged = judge(variant, outcomes, limit=limit)
        if judged.verdict is Verdict.UNDECIDED:
            inconclusive += 1
            continue
        problem = _variant_problem(puzzle, record, transform, judged)
        if problem is None:
            agreed += 1
        else:
            mismatches.append(f"under transform [{transform.name}] {problem}")
    metamorphic = {
        "transforms": len(transforms),
        "agreed": agreed,
        "inconclusive": inconclusive,
        **_kinds_used(puzzle, transforms),
    }
    if not mismatches:
        return dataclasses.replace(record, metamorphic=metamorphic)
    notes = ["metamorphic check failed: " + " | ".join(mismatches)]
    return dataclasses.replace(
        record,
        metamorphic=metamorphic,
        verdict=Verdict.DISAGREEMENT,
        reason="; ".join(notes + ([record.reason] if record.reason else [])),
    )


def _kinds_used(puzzle: Puzzle, transforms: Sequence[Transform]) -> dict[str, int]:
    """How many of ``transforms`` renamed the digits freely (``relabelled``: 0 for a model
    whose rules forbid it — cage sums, non-consecutive), only reversed them (``reversed``:
    d -> N+1-d, what those rules allow) and moved cells (``moved``)."""
    renamed = sum(transform.relabels for transform in transforms)
    free = digit_kind(puzzle.model, puzzle.size) == RELABEL
    return {
        "relabelled": renamed if free else 0,
        "reversed": 0 if free else renamed,
        "moved": sum(transform.moves_cells for transform in transforms),
    }


def _variant_problem(
    puzzle: Puzzle, record: CheckRecord, transform: Transform, variant: CheckRecord
) -> str | None:
    """Why the judged ``variant`` (of ``transform``) contradicts ``record``; None if it agrees."""
    if variant.verdict is Verdict.DISAGREEMENT:
        return f"the backends disagree: {variant.reason}"
    shown = f"{variant.verdict.value} ({solutions_text(variant.count)})"
    original = f"{record.verdict.value} ({solutions_text(record.count)})"
    if variant.verdict is not record.verdict:
        return f"the verdict is {shown}, but the original puzzle's is {original}"
    if variant.exact and record.exact and variant.count != record.count:
        return (
            f"there are exactly {solutions_text(variant.count)}, "
            f"but the original has {record.count}"
        )
    for number, solution in enumerate(variant.solutions, start=1):
        back = transform.back(solution)
        problems = puzzle.problems_with(back)
        if problems:
            return (
                f"solution {number} maps back to a grid that does not solve the original: "
                f"{'; '.join(problems[:3])}"
            )
        if record.verdict is Verdict.UNIQUE and back != record.solutions[0]:
            return "the one solution maps back to another grid than the original's one solution"
    return None


# --- small helpers -------------------------------------------------------------------------------
def _describe(err: BaseException) -> str:
    text = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _one_line(text: str, width: int = 200) -> str:
    """Input text as one bounded line, so a huge or multi-line bad input cannot flood a record."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


__all__ = [
    "DEFAULT_LIMIT",
    "Call",
    "Outcome",
    "Valid",
    "call_backends",
    "check_backend_options",
    "check_variants",
    "cross_check",
    "invalid_record",
    "judge",
    "read_calls",
    "resolve_backends",
    "run_backends",
    "validate_many",
]
