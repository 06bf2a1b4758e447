"""Shrinking a failing check to a small reproducer, and minimizing a unique puzzle.

Both take a puzzle apart into *parts* — its givens, and the rules and extra groups of its
model — and ask the harness about puzzles made of fewer parts.

- :func:`shrink` keeps a property that is a *failure* — "the backends disagree", "a
  metamorphic check fails" (:class:`Disagrees`) — while removing as many parts as it can: delta
  debugging (Zeller's ddmin) over the givens, then over the rules, then one part at a time until
  no single removal keeps the failure (a 1-minimal reproducer). Every solver call is counted.
- :func:`minimize` keeps a puzzle *unique* (judged by two paradigms, each counting to 2) while
  removing parts: first each part alone (the list of removable ones), then one at a time in
  that order. Removing a given or a rule can only add solutions, so a part whose removal alone
  gives two solutions is needed in every smaller puzzle too, and one pass gives a minimal
  puzzle: no given or rule of it can go.

>>> from sudoku_cp import Puzzle
>>> found = minimize(Puzzle.parse("1234341221434321"), ["backtrack", "dlx"])
>>> found.puzzle.to_line(), len(found.removable)
('......12.1.3.32.', 16)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import SudokuError
from .harness import check_backend_options, check_variants, judge, resolve_backends, run_backends
from .puzzle import Puzzle
from .verdict import CheckRecord, Verdict

Part = tuple[str, int]
"""One removable piece of a puzzle: ``("given", cell)``, ``("rule", i)`` (the model's i-th
rule) or ``("group", i)`` (its i-th listed extra group of cells)."""

MAX_CALLS = 1_000_000
"""The cap on ``--max-calls`` (solver calls of one shrink or minimize)."""
DEFAULT_CALLS = 20_000
"""Solver calls a shrink makes at most by default (a 9×9 takes a few hundred to a few
thousand with two backends)."""


class CallBudgetSpent(Exception):
    """Raised inside a search when it has made as many solver calls as it may."""


def parts_of(puzzle: Puzzle) -> tuple[list[Part], list[Part]]:
    """The puzzle's givens and its removable rules (rules, then listed extra groups).

    >>> parts_of(Puzzle.parse("1..............2"))
    ([('given', 0), ('given', 15)], [])
    """
    givens = [("given", cell) for cell, digit in enumerate(puzzle.cells) if digit]
    model = puzzle.model
    rules = [("rule", i) for i in range(len(model.rules))]
    rules += [("group", i) for i in range(len(model.cell_groups))]
    return givens, rules


def build(original: Puzzle, kept: Sequence[Part]) -> Puzzle:
    """``original`` with only the parts in ``kept`` (its regions and group kinds always stay).
    A puzzle that lost a rule is its own (``model.own``), so records write it with its rules."""
    keep = set(kept)
    cells = [d if ("given", c) in keep else 0 for c, d in enumerate(original.cells)]
    model = original.model
    rules = tuple(r for i, r in enumerate(model.rules) if ("rule", i) in keep)
    groups = tuple(g for i, g in enumerate(model.cell_groups) if ("group", i) in keep)
    if rules != model.rules or groups != model.cell_groups:
        model = dataclasses.replace(model, rules=rules, cell_groups=groups, own=True)
    return Puzzle.from_parsed(tuple(cells), original.size, model)


def describe(part: Part, puzzle: Puzzle) -> str:
    """A part as a user reads it: ``r1c3=5``, ``rule 2 (killer cage …)``, ``group 1``."""
    kind, index = part
    if kind == "given":
        size = puzzle.size
        return f"r{index // size + 1}c{index % size + 1}={puzzle.cells[index]}"
    if kind == "rule":
        rule = puzzle.model.rules[index]
        return f"rule {index + 1} ({rule.title})"
    return f"extra group {index + 1}"


# --- the question asked of each smaller puzzle ----------------------------------------------------
class Harness:
    """Cross-checks puzzles with ``backends`` (names, ``"all"``, or None / ``"auto"``: the
    default choice per puzzle), counting every solver call; raises :class:`CallBudgetSpent`
    past ``max_calls``.

    ``before``/``after`` bracket each solver call (a batch worker's watchdog) and ``known``
    marks backends already stopped on this puzzle, as for :func:`run_backends`.
    """

    def __init__(
        self,
        backends: Sequence[str] | str | None = None,
        *,
        options: Mapping[str, Mapping[str, Any]] | None = None,
        time_limit: float | None = None,
        max_calls: int = DEFAULT_CALLS,
        runners: Sequence[tuple[str, Any, Mapping[str, Any]]] | None = None,
        before: Callable[[int], None] | None = None,
        after: Callable[[], None] | None = None,
        known: Mapping[str, Any] | None = None,
    ) -> None:
        from .backends import get_backend

        word = backends.strip().lower() if isinstance(backends, str) else None
        self.auto = runners is None and (backends is None or word == "auto")
        if runners is None:  # "all": every available backend on every puzzle
            names = resolve_backends(None if self.auto or word == "all" else backends)
            settings = check_backend_options(names, options)
            runners = [(name, get_backend(name), settings[name]) for name in names]
        self.runners = list(runners)
        self.time_limit = time_limit
        self.max_calls = max_calls
        self.calls = 0
        self._before, self.after, self.known = before, after, known

    def before(self, position: int) -> None:
        if self.calls >= self.max_calls:
            raise CallBudgetSpent
        self.calls += 1
        if self._before is not None:
            self._before(position)

    def runners_for(self, puzzle: Puzzle) -> list[tuple[str, Any, Mapping[str, Any]]]:
        if not self.auto:
            return self.runners
        from .choice import choose

        names = choose(puzzle, [name for name, _, _ in self.runners])
        return [runner for runner in self.runners if runner[0] in names]

    def check(self, puzzle: Puzzle, transforms: Sequence[Any] = ()) -> CheckRecord:
        """The harness's record of ``puzzle`` (limit 2), its transforms cross-checked too."""
        runners = self.runners_for(puzzle)
        outcomes = run_backends(
            puzzle,
            runners,
            limit=2,
            time_limit=self.time_limit,
            known=self.known,
            before=self.before,
            after=self.after,
        )
        record = judge(puzzle, outcomes, limit=2)
        if transforms:
            record = check_variants(
                puzzle,
                record,
                runners,
                transforms,
                limit=2,
                time_limit=self.time_limit,
                known=self.known,
                before=self.before,
                after=self.after,
            )
        return record


class Disagrees:
    """The failure a shrink keeps: the harness's verdict is ``disagreement`` (the backends
    contradict each other or one is wrong, or — with ``transforms`` — a transformed copy's
    answer contradicts the puzzle's). The transforms are fixed once, from the original, and
    applied to every smaller puzzle."""

    def __init__(self, harness: Harness, transforms: Sequence[Any] = ()) -> None:
        self.harness = harness
        self.transforms = list(transforms)
        self.last: CheckRecord | None = None

    def __call__(self, puzzle: Puzzle) -> bool:
        try:
            record = self.harness.check(puzzle, self.transforms)
        except ValueError:  # a transform the smaller model does not keep: no evidence
            return False
        if record.verdict is Verdict.DISAGREEMENT:
            self.last = record
            return True
        return False


# --- shrinking ------------------------------------------------------------------------------------
def ddmin(parts: Sequence[Part], fails: Callable[[list[Part]], bool]) -> list[Part]:
    """Zeller's ddmin: a subset of ``parts`` that still ``fails``, found by trying halves,
    quarters … and their complements (``fails(parts)`` is assumed true).

    >>> ddmin([("given", i) for i in range(8)], lambda kept: ("given", 5) in kept)
    [('given', 5)]
    """
    kept = list(parts)
    chunks = 2
    while len(kept) >= 2:
        size = len(kept) / chunks
        pieces = [kept[round(i * size) : round((i + 1) * size)] for i in range(chunks)]
        for piece in pieces:
            if fails(piece):
                kept, chunks = piece, 2
                break
        else:
            for piece in pieces:
                rest = [p for p in kept if p not in piece]
                if fails(rest):
                    kept, chunks = rest, max(chunks - 1, 2)
                    break
            else:
                if chunks >= len(kept):
                    break
                chunks = min(2 * chunks, len(kept))
    return kept


@dataclass
class Shrunk:
    """What a shrink found: the smallest failing puzzle and what it cost."""

    original: Puzzle
    puzzle: Puzzle
    record: CheckRecord
    """The harness's record of the shrunk puzzle (its reason says what still fails)."""
    calls: int
    """Solver calls made, those of the original's own check included."""
    checks: int
    """Puzzles cross-checked (each is one or more solver calls)."""
    minimal: bool
    """True when no single given or rule can be removed with the failure kept (1-minimal);
    False when the call budget ran out first."""
    removed_rules: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The ``shrunk`` field of a check record (``check --shrink``)."""
        from .formats.record_form import record_text

        p = self.puzzle
        return {
            "puzzle": record_text(p.cells, p.size, p.model),
            "givens": p.givens_count,
            "original_givens": self.original.givens_count,
            "rules": len(p.model.rules) + len(p.model.cell_groups),
            "original_rules": len(self.original.model.rules) + len(self.original.model.cell_groups),
            "calls": self.calls,
            "minimal": self.minimal,
            "reason": self.record.reason,
        }


def shrink(puzzle: Puzzle, fails: Disagrees, harness: Harness) -> Shrunk | None:
    """The smallest puzzle made of ``puzzle``'s parts on which ``fails`` still holds (None when
    it does not hold on ``puzzle`` itself). ``fails`` asks ``harness``, which counts the calls
    and stops the search at its budget (the smallest failing puzzle found so far is kept,
    with the record that showed it failing)."""
    checks = 0
    seen: dict[frozenset[Part], bool] = {}
    givens, rules = parts_of(puzzle)
    best = givens + rules
    best_record: list[CheckRecord | None] = [None]

    def holds(kept: list[Part]) -> bool:
        nonlocal checks, best
        key = frozenset(kept)
        if key not in seen:
            checks += 1
            seen[key] = fails(build(puzzle, kept))
            if seen[key] and len(kept) <= len(best):
                best = list(kept)
                best_record[0] = fails.last
        return seen[key]

    minimal = False
    try:
        if not holds(best):
            return None
        kept_givens = ddmin(givens, lambda g: holds(g + rules)) if givens else []
        kept_rules = ddmin(rules, lambda r: holds(kept_givens + r)) if rules else []
        kept = kept_givens + kept_rules
        # ddmin leaves each half 1-minimal apart; removing a rule may free a given again
        changed = True
        while changed:
            changed = False
            for part in list(kept):
                rest = [p for p in kept if p != part]
                if holds(rest):
                    kept, changed = rest, True
        best = kept
        minimal = True
    except CallBudgetSpent:
        pass
    shrunk = build(puzzle, best)
    record = best_record[0]
    assert record is not None  # set when the original failed
    gone = [describe(p, puzzle) for p in rules if p not in set(best)]
    return Shrunk(puzzle, shrunk, record, harness.calls, checks, minimal, gone)


def shrink_record(
    record: CheckRecord,
    item: Any,
    config: Any,
    runners: Sequence[tuple[str, Any, Mapping[str, Any]]],
    before: Callable[[int], None] | None,
    after: Callable[[], None] | None,
) -> None:
    """``check --shrink``: set ``record.shrunk`` for a disagreement, in the worker that judged
    it, with the backends that judged it (and the same transforms, for a metamorphic failure),
    every call under the worker's watchdog. A backend stopped there is known as timed out for
    the puzzle when the pool retries it, as for the metamorphic variants, so a retry cannot
    loop."""
    from .transforms import transforms_for

    harness = Harness(
        runners=runners,
        time_limit=config.time_limit,
        before=before,
        after=after,
        known=item.known,
    )
    puzzle = item.puzzle
    transforms = (
        transforms_for(puzzle, config.metamorphic, config.seed) if config.metamorphic else ()
    )
    try:
        found = shrink(puzzle, Disagrees(harness, transforms), harness)
    except Exception as err:  # a fault here must not cost the batch its record
        record.shrunk = {"reason": f"shrinking failed: {type(err).__name__}: {err}"}
        return
    record.shrunk = (
        found.to_dict()
        if found is not None
        else {"reason": "the disagreement did not recur when checked again", "calls": harness.calls}
    )


# --- minimizing -----------------------------------------------------------------------------------
class MinimizeError(SudokuError):
    """The puzzle cannot be minimized: it is not unique, or the backends disagree on it."""

    def __init__(self, message: str, verdict: str) -> None:
        super().__init__(message)
        self.verdict = verdict


@dataclass
class Minimized:
    """A minimal puzzle made from a unique one, and how it was found."""

    original: Puzzle
    puzzle: Puzzle
    removable: list[Part]
    """The parts of the original that can each be removed alone, the solution staying unique."""
    undecided: list[Part]
    """Parts whose removal no backend decided within the time limit (kept: not proven)."""
    calls: int
    solution: tuple[int, ...]
    verdict: str = "unique"
    spent: bool = False
    """The solver-call budget ran out: ``puzzle`` is the smallest unique one reached (every
    removal made was judged), the parts not yet judged kept and listed as ``undecided``."""

    @property
    def minimal(self) -> bool:
        """Proven minimal: every kept part's removal was judged (two solutions)."""
        return not self.undecided and not self.spent


def minimize(
    puzzle: Puzzle, backends: Sequence[str] | str | None = None, *, harness: Harness | None = None
) -> Minimized:
    """A minimal puzzle from the unique ``puzzle``: each removal judged by the harness (the
    default two paradigms when ``backends`` is None or ``"auto"``). :class:`MinimizeError` when
    ``puzzle`` is not unique or a judgement ends in disagreement."""
    harness = harness or Harness(backends)
    try:
        first = harness.check(puzzle)
    except CallBudgetSpent:
        raise MinimizeError(
            f"the budget of {harness.max_calls:,} solver calls ran out before the puzzle itself "
            "was judged (raise --max-calls)",
            "undecided",
        ) from None
    if first.verdict is not Verdict.UNIQUE:
        raise MinimizeError(
            f"the puzzle is {first.verdict.value}"
            + (f" ({first.reason})" if first.reason else "")
            + ": only a unique puzzle can be minimized",
            first.verdict.value,
        )
    solution = first.solutions[0]
    givens, rules = parts_of(puzzle)
    parts = rules + givens  # rules first: a setter drops a rule before the givens it needs
    every = set(parts)

    def unique_without(kept: set[Part], part: Part) -> bool | None:
        record = harness.check(build(puzzle, [p for p in parts if p in kept and p != part]))
        if record.verdict is Verdict.DISAGREEMENT:
            raise MinimizeError(
                f"the backends disagree without {describe(part, puzzle)}: {record.reason} "
                "(`sudoku-cp shrink` makes a small reproducer)",
                "disagreement",
            )
        if record.verdict is Verdict.UNDECIDED:
            return None
        return record.verdict is Verdict.UNIQUE

    removable: list[Part] = []
    undecided: list[Part] = []
    kept = set(every)
    judged = 0  # parts judged alone
    spent = False
    try:
        for part in parts:
            alone = unique_without(every, part)
            judged += 1
            if alone is None:
                undecided.append(part)
            elif alone:
                removable.append(part)
        for number, part in enumerate(removable):
            # the first removal is the one just judged; each later one is judged anew
            if number == 0 or unique_without(kept, part):
                kept.discard(part)
    except CallBudgetSpent:
        # Stop with the best puzzle reached: every removal made so far was judged unique (the
        # first judged alone, from the whole puzzle); what was not judged stays.
        spent = True
        if kept == every and removable:
            kept.discard(removable[0])
        undecided += parts[judged:]
    minimal = build(puzzle, [p for p in parts if p in kept])
    return Minimized(puzzle, minimal, removable, undecided, harness.calls, solution, spent=spent)


__all__ = [
    "DEFAULT_CALLS",
    "MAX_CALLS",
    "CallBudgetSpent",
    "Disagrees",
    "Harness",
    "MinimizeError",
    "Minimized",
    "Part",
    "Shrunk",
    "build",
    "ddmin",
    "describe",
    "minimize",
    "parts_of",
    "shrink",
    "shrink_record",
]
