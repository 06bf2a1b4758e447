"""True candidates: the digits each cell takes in at least one solution, exactly, by SAT.

A digit is a true candidate of a cell iff some solution puts it there. :func:`analyse` decides
every (cell, digit) on one incremental SAT solver holding the puzzle's CNF (the ``sat``
backend's encoding, rules included): each solution found marks all its (cell, digit) pairs
true; then "some pair not yet marked is true" is asked (a clause guarded by a fresh activation
literal, retired after the call) until it is unsatisfiable — every pair left unmarked is in no
solution. A unique puzzle takes two SAT calls; each further call finds a new candidate.

The number of solutions is counted exactly up to a cap (blocking clauses over the cell
variables). Above it, it is estimated by *sequential importance sampling* (Knuth's estimator
over satisfiable branches only): a probe walks the cells, asks the solver which digits of the
next cell still lead to a solution, picks one at random and multiplies the numbers of choices
seen; the product is an unbiased estimate of the count and is never 0. The estimate is the mean
over the probes, with its standard error (the probes' standard deviation over √probes) and a
95% interval mean ± 1.96 standard errors — a normal approximation that heavy tails of the
products can make too narrow; more probes (``probes``) narrow it.

For a setter, :func:`suggestions` ranks single givens by the solutions they leave (fewest
first) and re-counts each one on the ``sat`` backend before it is reported;
:func:`mark_suggestions` does the same for rule marks between two orthogonally adjacent cells
(a white or black kropki dot, an X or a V, a two-cell cage with its sum).

>>> from sudoku_cp import Puzzle
>>> found = analyse(Puzzle([1, 0, 0, 0] + [0] * 12), cap=1000)
>>> found.count, found.exact, found.sets[:2]
(72, True, ((1,), (2, 3, 4)))
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from .errors import SudokuError
from .limits import MAX_LIMIT
from .puzzle import Puzzle

MAX_COUNT_CAP = 100_000
"""The most solutions counted one by one (each adds a blocking clause)."""
MAX_PROBES = 10_000
"""The most estimator probes."""
MAX_SUGGEST = 100
"""The most suggestions asked for."""
MAX_TALLY = 2_000
"""The most counted solutions read to rank rule marks (the re-count is the figure reported)."""
SOLVER = "gluecard4"
"""The PySAT solver: the ``sat`` backend's default (native at-most-one constraints)."""


class OutOfTime(SudokuError):
    """The time limit ran out before the answer (the command exits 3)."""


@dataclass(frozen=True)
class Estimate:
    """A solution count estimated by sequential importance sampling."""

    mean: float
    stderr: float
    probes: int
    low: float
    """The 95% interval's ends: mean ± 1.96 standard errors, the low end at least the count
    known to be exceeded."""
    high: float
    method: str = "sequential importance sampling (Knuth's estimator, satisfiable branches)"


@dataclass
class Analysis:
    """True candidates of a puzzle and its solution count."""

    size: int
    sets: tuple[tuple[int, ...], ...] | None
    """Each cell's true candidates (sorted); None when the puzzle has no solution."""
    count: int
    """Solutions counted: the exact count when ``exact``, else more than ``count - 1``."""
    exact: bool
    solutions: list[tuple[int, ...]] = field(default_factory=list)
    """The solutions counted (up to the cap + 1)."""
    estimate: Estimate | None = None
    sat_calls: int = 0
    seconds: float = 0.0

    def fixed(self, givens: tuple[int, ...]) -> list[int]:
        """Cells with one true candidate that are not givens (the logic of the puzzle fixes
        them, whatever the other cells hold)."""
        if self.sets is None:
            return []
        return [c for c, s in enumerate(self.sets) if len(s) == 1 and not givens[c]]


@dataclass(frozen=True)
class Suggestion:
    """One given a setter could add, and the solutions left with it (re-counted)."""

    cell: int
    digit: int
    left: int
    exact: bool
    """False when ``left`` is a lower bound (the re-count reached the cap)."""


@dataclass(frozen=True)
class MarkSuggestion:
    """One rule mark a setter could add between two adjacent cells, and the solutions left
    with it (re-counted)."""

    rule: Any
    """The mark as a rule of :mod:`sudoku_cp.rules` (Difference, Ratio, XV or Cage)."""
    text: str
    """``white dot r1c1-r1c2``, ``X r1c1-r1c2``, ``5-cage r1c1-r1c2``."""
    left: int
    exact: bool
    """False when ``left`` is a lower bound (the re-count reached the cap)."""


def _deadline(time_limit: float | None) -> float | None:
    return None if time_limit is None else time.perf_counter() + time_limit


def _solver(puzzle: Puzzle, deadline: float | None) -> tuple[Any, Any, dict[int, list[int]]]:
    """The encoding, a loaded solver (None when the givens contradict) and each cell's
    variables."""
    from .backends.sat import OutOfTime as EncodingOutOfTime
    from .backends.sat import encode, load_solver

    try:
        enc = encode(puzzle, amo="native", deadline=deadline)
    except EncodingOutOfTime:
        raise OutOfTime("the time limit ran out while encoding the puzzle") from None
    by_cell: dict[int, list[int]] = {}
    for var, cell, _ in enc.cell_vars:
        by_cell.setdefault(cell, []).append(var)
    if enc.contradiction:
        return enc, None, by_cell
    return enc, load_solver(SOLVER, enc), by_cell


def _call(solver: Any, deadline: float | None, assumptions: list[int]) -> bool:
    from .backends.sat import solve_within

    answer = solve_within(solver, deadline, assumptions)
    if answer is None:
        raise OutOfTime("the time limit ran out")
    return bool(answer)


def true_sets(puzzle: Puzzle, deadline: float | None = None) -> tuple[Any, int]:
    """Each cell's true candidates (None: no solution) and the SAT calls it took."""
    enc, solver, _ = _solver(puzzle, deadline)
    if solver is None:
        return None, 0
    n = puzzle.size
    digit_of = {var: (cell, digit) for var, cell, digit in enc.cell_vars}
    seen: set[int] = set()

    def harvest() -> None:
        model = solver.get_model()
        seen.update(var for var in digit_of if model[var - 1] > 0)

    try:
        calls = 1
        if not _call(solver, deadline, []):
            return None, calls
        harvest()
        first = True
        while True:
            unknown = [var for var in digit_of if var not in seen]
            if not unknown:
                break
            # "Some pair not seen yet is true", guarded by a fresh literal retired after it.
            # After one solution that is "another solution", whose blocking clause (the
            # solution's pairs, negated) is the shorter way to say it: CDCL proves a unique
            # puzzle unique far faster from it (variants9 "Hailstone" among others).
            enc.top += 1
            act = enc.top
            question = [-var for var in seen] if first else unknown
            first = False
            solver.add_clause([-act, *question])
            # lean the solver towards the pairs not yet seen (a hint only)
            with contextlib.suppress(NotImplementedError, AttributeError):
                solver.set_phases(unknown)
            calls += 1
            found = _call(solver, deadline, [act])
            if found:
                harvest()
            solver.add_clause([-act])
            if not found:
                break
    finally:
        solver.delete()
    sets: list[set[int]] = [set() for _ in range(n * n)]
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            sets[cell].add(digit)
    for var in seen:
        cell, digit = digit_of[var]
        sets[cell].add(digit)
    return tuple(tuple(sorted(s)) for s in sets), calls


def count_solutions(
    puzzle: Puzzle, cap: int, deadline: float | None = None
) -> tuple[list[tuple[int, ...]], bool]:
    """Up to ``cap + 1`` solutions and whether that is all of them."""
    from .backends.sat import enumerate_solutions

    enc, solver, _ = _solver(puzzle, deadline)
    if solver is None:
        return [], True
    try:
        search = enumerate_solutions(solver, enc, cap + 1, deadline)
    finally:
        solver.delete()
    if search.timed_out:
        raise OutOfTime(f"the time limit ran out after {len(search.solutions):,} solutions")
    solutions = [tuple(s) for s in search.solutions]
    return solutions, len(solutions) <= cap


def estimate_count(
    puzzle: Puzzle,
    probes: int,
    *,
    above: int = 0,
    seed: int | None = None,
    deadline: float | None = None,
) -> Estimate:
    """The solution count by sequential importance sampling (see the module docstring);
    ``above``: a count the puzzle is known to exceed (the interval's floor)."""
    enc, solver, by_cell = _solver(puzzle, deadline)
    if solver is None:
        return Estimate(0.0, 0.0, probes, 0.0, 0.0)
    rng = random.Random(seed)
    # Cells with fewer candidates first: fewer choices high in the walk, so less variance.
    order = sorted(by_cell, key=lambda cell: (len(by_cell[cell]), cell))
    values: list[float] = []
    try:
        for _ in range(probes):
            weight = 1.0
            chosen: list[int] = []
            model: list[int] | None = None
            for cell in order:
                live = []
                for var in by_cell[cell]:
                    if model is not None and model[var - 1] > 0:
                        live.append((var, model))  # the last solution holds it: no call
                    elif _call(solver, deadline, [*chosen, var]):
                        live.append((var, solver.get_model()))
                if not live:  # cannot be: the path so far has a solution
                    raise RuntimeError("estimator lost its solution")
                weight *= len(live)
                var, model = rng.choice(live)
                chosen.append(var)
            values.append(weight)
    finally:
        solver.delete()
    mean = sum(values) / len(values)
    var_sum = sum((v - mean) ** 2 for v in values)
    stderr = math.sqrt(var_sum / (len(values) - 1) / len(values)) if len(values) > 1 else mean
    low = max(float(above + 1), mean - 1.96 * stderr)
    return Estimate(mean, stderr, len(values), low, max(low, mean + 1.96 * stderr))


def analyse(
    puzzle: Puzzle,
    *,
    cap: int = 1000,
    probes: int = 30,
    seed: int | None = None,
    time_limit: float | None = None,
) -> Analysis:
    """True candidates, the count up to ``cap`` and, above it, an estimate from ``probes``
    probes; :class:`OutOfTime` past ``time_limit`` seconds."""
    if not 1 <= cap <= MAX_COUNT_CAP:
        raise ValueError(f"cap must be 1 to {MAX_COUNT_CAP:,}, not {cap}")
    if not 1 <= probes <= MAX_PROBES:
        raise ValueError(f"probes must be 1 to {MAX_PROBES:,}, not {probes}")
    start = time.perf_counter()
    deadline = _deadline(time_limit)
    sets, calls = true_sets(puzzle, deadline)
    if sets is None:
        return Analysis(puzzle.size, None, 0, True, sat_calls=calls,
                        seconds=time.perf_counter() - start)  # fmt: skip
    if all(len(digits) == 1 for digits in sets):
        # One candidate a cell: the grid they make is the one solution (no second search).
        solutions, exact = [tuple(digits[0] for digits in sets)], True
    else:
        solutions, exact = count_solutions(puzzle, cap, deadline)
    estimate = None
    if not exact:
        estimate = estimate_count(puzzle, probes, above=cap, seed=seed, deadline=deadline)
    return Analysis(
        puzzle.size,
        sets,
        len(solutions),
        exact,
        solutions,
        estimate,
        calls,
        time.perf_counter() - start,
    )


def suggestions(
    puzzle: Puzzle, analysis: Analysis, wanted: int, cap: int, time_limit: float | None = None
) -> list[Suggestion]:
    """The ``wanted`` single givens that leave the fewest solutions, each re-counted by the
    ``sat`` backend (up to ``cap``). Ranked by the solutions counted that hold the digit: all
    of them when the count is exact, else the first ``cap + 1`` found (then the re-count, not
    the rank, is the figure reported)."""
    from .backends import get_backend

    if analysis.sets is None or wanted <= 0:
        return []
    tally: dict[tuple[int, int], int] = {}
    for solution in analysis.solutions:
        for cell, digit in enumerate(solution):
            if not puzzle.cells[cell] and len(analysis.sets[cell]) > 1:
                tally[cell, digit] = tally.get((cell, digit), 0) + 1
    ranked = sorted(tally, key=lambda pair: (tally[pair], pair))
    backend = get_backend("sat")
    deadline = _deadline(time_limit)
    found = []
    for cell, digit in ranked[:wanted]:
        cells = list(puzzle.cells)
        cells[cell] = digit
        left_time = None if deadline is None else deadline - time.perf_counter()
        if left_time is not None and left_time <= 0:
            raise OutOfTime("the time limit ran out while re-counting the suggestions")
        limit = min(cap + 1, MAX_LIMIT)  # a backend counts to MAX_LIMIT at most
        result = backend.solve(puzzle.with_cells(cells), limit=limit, time_limit=left_time)
        if result.status.value == "timeout":
            raise OutOfTime("the time limit ran out while re-counting the suggestions")
        count = result.count or 0
        exact = count <= cap and (count < limit or bool(result.exact))
        found.append(Suggestion(cell, digit, min(count, cap + 1), exact))
    return found


def _adjacent(size: int) -> list[tuple[int, int]]:
    """Every pair of orthogonally adjacent cells, in reading order."""
    out = []
    for cell in range(size * size):
        row, col = divmod(cell, size)
        if col + 1 < size:
            out.append((cell, cell + 1))
        if row + 1 < size:
            out.append((cell, cell + size))
    return out


def _marks_held(x: int, y: int) -> list[tuple[str, int]]:
    """The marks (kind, value) two digits side by side keep: their meanings as the rules'
    own ``allows`` read them (sudoku_cp/rules/dots.py, sums.py), here only to rank."""
    out = [("cage", x + y)]
    if abs(x - y) == 1:
        out.append(("white", 1))
    if x == 2 * y or y == 2 * x:
        out.append(("black", 2))
    if x + y == 10:
        out.append(("xv", 10))
    if x + y == 5:
        out.append(("xv", 5))
    return out


def _mark_rule(kind: str, value: int, pair: tuple[int, int]) -> Any:
    from .rules import XV, Cage, Difference, Ratio

    if kind == "white":
        return Difference(pair, value)
    if kind == "black":
        return Ratio(pair, value)
    if kind == "xv":
        return XV(pair, value)
    return Cage(pair, value)


def _mark_text(kind: str, value: int, pair: tuple[int, int], size: int) -> str:
    where = f"{_cell(pair[0], size)}-{_cell(pair[1], size)}"
    name = {"white": "white dot", "black": "black dot"}.get(kind)
    if name is None:
        name = ("X" if value == 10 else "V") if kind == "xv" else f"{value}-cage"
    return f"{name} {where}"


def _cell(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def mark_suggestions(
    puzzle: Puzzle, analysis: Analysis, wanted: int, cap: int, time_limit: float | None = None
) -> list[MarkSuggestion]:
    """The ``wanted`` rule marks between two adjacent cells (a white or black dot, an X or V,
    a two-cell cage) that leave the fewest solutions and at least one, each re-counted by the
    ``sat`` backend with the mark added (up to ``cap``). Ranked by how many of the counted
    solutions (the first :data:`MAX_TALLY`) keep the mark; a mark every counted solution
    keeps, or none, is not suggested, nor one the puzzle has, nor one between two givens."""
    from .backends import get_backend

    if analysis.sets is None or wanted <= 0 or len(analysis.solutions) < 2:
        return []
    size = puzzle.size
    have = set(puzzle.model.rules)
    pairs = [(a, b) for a, b in _adjacent(size) if not (puzzle.cells[a] and puzzle.cells[b])]
    tally: dict[tuple[str, int, tuple[int, int]], int] = {}
    # which counted solutions keep a mark, as a sum of random tags: two marks of one pair
    # kept by the same solutions (an X and a 10-cage in a row) are one suggestion
    tags: dict[tuple[str, int, tuple[int, int]], int] = {}
    counted = analysis.solutions[:MAX_TALLY]
    rng = random.Random(0)
    deadline = _deadline(time_limit)
    for solution in counted:
        if deadline is not None and time.perf_counter() > deadline:
            raise OutOfTime("the time limit ran out while ranking the marks")
        tag = rng.getrandbits(62)
        for pair in pairs:
            for kind, value in _marks_held(solution[pair[0]], solution[pair[1]]):
                key = (kind, value, pair)
                tally[key] = tally.get(key, 0) + 1
                tags[key] = tags.get(key, 0) + tag
    order = {"white": 0, "black": 1, "xv": 2, "cage": 3}
    ranked = sorted(
        (key for key, kept in tally.items() if kept < len(counted)),
        key=lambda key: (tally[key], order[key[0]], key[2], key[1]),
    )
    backend = get_backend("sat")
    found: list[MarkSuggestion] = []
    said: set[tuple[tuple[int, int], int]] = set()
    for kind, value, pair in ranked:
        if len(found) == wanted:
            break
        rule = _mark_rule(kind, value, pair)
        if rule in have or (pair, tags[kind, value, pair]) in said:
            continue
        said.add((pair, tags[kind, value, pair]))
        model = puzzle.model.with_rules(rules=[rule], size=size)
        marked = Puzzle.from_parsed(puzzle.cells, size, model)
        left_time = None if deadline is None else deadline - time.perf_counter()
        if left_time is not None and left_time <= 0:
            raise OutOfTime("the time limit ran out while re-counting the suggested marks")
        limit = min(cap + 1, MAX_LIMIT)  # a backend counts to MAX_LIMIT at most
        result = backend.solve(marked, limit=limit, time_limit=left_time)
        if result.status.value == "timeout":
            raise OutOfTime("the time limit ran out while re-counting the suggested marks")
        count = result.count or 0
        if count == 0:
            continue  # (cannot be: a counted solution keeps it; a re-count is the judge)
        text = _mark_text(kind, value, pair, size)
        exact = count <= cap and (count < limit or bool(result.exact))
        found.append(MarkSuggestion(rule, text, min(count, cap + 1), exact))
    return found


__all__ = [
    "MAX_COUNT_CAP",
    "MAX_PROBES",
    "MAX_SUGGEST",
    "MAX_TALLY",
    "Analysis",
    "Estimate",
    "MarkSuggestion",
    "OutOfTime",
    "Suggestion",
    "analyse",
    "count_solutions",
    "estimate_count",
    "mark_suggestions",
    "suggestions",
    "true_sets",
]
