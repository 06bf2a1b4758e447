"""The ``constraint`` backend: the model as a python-constraint (``python-constraint2``) problem.

The compilation: a variable per cell, an ``AllDifferentConstraint`` per group of the puzzle's
model. Two ways to bring in the givens (option ``givens``):

- ``pruned`` (default): a given is not a variable at all. Each blank cell's domain is the digits
  no peer is given, and each group's constraint covers only its blank cells (a group left with
  fewer than two blanks has nothing to say and is left out). The same solutions, a smaller
  problem: the givens never enter the search.
- ``fixed``: every cell is a variable, a given one with the single digit as its domain, and each
  group's constraint covers all its cells, as in the library's own Sudoku examples.

The library's backtracking solvers pick the next variable by most constraints first, then fewest
values left (forward checking hides the digits a peer took), and break the remaining ties by the
order variables were added. Two options steer that choice:

- ``order``: the order variables are added in, ``candidates`` (fewest candidates first, then
  reading order; default) or ``reading``;
- ``balance`` (default on): "most constraints first" would send cells in more groups (the
  diagonals of Sudoku-X, the windows of Hyper, cells whose groups still hold other blanks)
  first however many values they have left, so every variable is padded to the same number of
  constraints by one constraint that never fails, and "fewest values left" decides.

Defaults, measured: median ms of a uniqueness check (limit 2), every variant run on the same
puzzle back to back, 5 s cap (3 s for the generated sets), on a loaded 2-core machine — the
ratios matter, not the absolute figures; in brackets the puzzles over the cap.

=================================  ===========  =============  ===================
variant (one change from default)  top1465 50   forum-hard 50  Hyper 30 / X 30 [1]
=================================  ===========  =============  ===================
default                            97           782            134 / 151
``balance=False``                  99           870 (1)        310 (1) / 153
``solver=RecursiveBacktracking…``  100          798 (1)        —
``givens="fixed"``                 276 (3)      2421 (10)      289 (1) / 280 (2)
``order="reading"``                224 (2)      2065 (8)       255 (1) / 240 (2)
``solver=OptimizedBacktracking…``  1618-1872    over 2 s for 39 of 50 (2 s cap)
=================================  ===========  =============  ===================

[1] minimal puzzles made for this measurement (seeded grids, cells blanked while unique).

``OptimizedBacktrackingSolver`` (the library's default) fixes the variable order before the
search, so it loses the "fewest values left" rule; ``RecursiveBacktrackingSolver`` matches
``BacktrackingSolver`` but yields each solution up through one generator per level. The default
is ``BacktrackingSolver``.

The library has no time limit, and a timer signal does not interrupt its compiled search loop;
but an exception raised by a constraint does escape it. So every problem gets one extra
constraint over all variables that the solver consults first, each time it tries a value: it
counts the tries (counter ``assignments``) and raises when the deadline has passed, which ends
the search as timed out. Measured cost: within noise (top1465, 40 puzzles, 49 ms median both).

Rules beyond groups (``rules``: every key of :data:`~sudoku_cp.rules.RULE_KINDS`; anti-knight
and anti-king are groups of two cells, a killer cage is a group) are compiled by shape in
:mod:`.constraint_rules` (:func:`~.constraint_rules.compile_rules`). A cage's sum is, with
``cages="sets"`` (default), a constraint holding the digit sets the cage may hold — the digits
placed must lie in one of them, and forward checking leaves the other cells only the digits of
the sets still possible — or, with ``cages="sum"``, the library's ``ExactSumConstraint``. First
30 puzzles of the public killer set, uniqueness checks, 5 s cap, interleaved, load 4.9: median
425 ms (1 over the cap) against 648 ms (3 over). A pair rule is a constraint per pair of blank
cells that forward-checks ``allows``; triple, sum, sandwich and quadruple rules forward-check
with their filters; odd and even cells only narrow domains.

>>> from sudoku_cp import Puzzle, solve
>>> result = solve(Puzzle([0] * 16), "constraint", limit=None)
>>> result.status.value, result.count
('multiple', 288)
"""

from __future__ import annotations

import time
from typing import Any

from ..puzzle import Puzzle
from ..rules import RULE_KINDS, Cage, PairRule
from . import Backend, Counter, Option, Search
from .constraint_rules import (
    Spec,
    cage_constraint,
    cage_sets,
    compile_rules,
    pair_constraint,
    spec_constraint,
)

SOLVERS = ("BacktrackingSolver", "RecursiveBacktrackingSolver", "OptimizedBacktrackingSolver")
"""The library's solvers that can enumerate solutions one by one (``getSolutionIter``).

Left out: ``MinConflictsSolver`` (local search, finds one solution and cannot prove there is no
other) and ``ParallelSolver`` (returns whole lists, so a uniqueness check cannot stop at 2)."""

GIVENS = ("pruned", "fixed")
ORDERS = ("candidates", "reading")


class _OutOfTime(Exception):
    """Raised inside the library's search by the clock constraint."""


def _clock_constraint(base: type, deadline: float | None) -> Any:
    """The constraint that counts tries and stops the search at ``deadline``.

    Built here because its base class is the library's, imported only when a search runs.
    """

    class Clock(base):
        def __init__(self) -> None:
            self.tries = 0

        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: Any = False
        ) -> bool:
            self.tries += 1
            if deadline is not None and time.perf_counter() > deadline:
                raise _OutOfTime
            return True

    return Clock()


def _balance_constraint(base: type) -> Any:
    """A constraint that never fails, listed once per missing constraint of a variable.

    The library counts a variable's entries in its constraint lists to rank it ("most
    constraints first") before it looks at the values left, so cells in more groups (the
    diagonals of Sudoku-X, the windows of Hyper) or in groups with other blanks would be tried
    first however many candidates they have. Padding every variable to the same count leaves
    the choice to "fewest values left".
    """

    class Balance(base):
        def __call__(
            self, variables: Any, domains: Any, assignments: Any, forwardcheck: Any = False
        ) -> bool:
            return True

        def preProcess(
            self,
            variables: Any,
            domains: Any,
            constraints: Any,  # noqa: N802
            vconstraints: Any,
        ) -> None:
            # The base class drops a constraint on one variable, which would undo the padding.
            return None

    return Balance()


class ConstraintBackend(Backend):
    """python-constraint's backtracking solvers on one AllDifferent constraint per group."""

    name = "constraint"
    summary = "python-constraint (python-constraint2): AllDifferent per group, backtracking"
    requires = ("constraint", "python-constraint2")
    rules = frozenset(RULE_KINDS)
    options = (
        Option(
            "solver",
            str,
            "BacktrackingSolver",
            "the library's solver, by class name (those that can enumerate)",
            choices=SOLVERS,
        ),
        Option(
            "givens",
            str,
            "pruned",
            "pruned: givens removed and their digits struck from their peers' domains; "
            "fixed: every cell a variable, a given one with a one-digit domain",
            choices=GIVENS,
        ),
        Option(
            "order",
            str,
            "candidates",
            "order variables are added in, which breaks the solver's ties: "
            "candidates (fewest first) or reading",
            choices=ORDERS,
        ),
        Option(
            "cages",
            str,
            "sets",
            "a killer cage's sum: sets (the digit sets it may hold, pruned by forward "
            "checking) or sum (the library's ExactSumConstraint)",
            choices=("sets", "sum"),
        ),
        Option(
            "balance",
            bool,
            True,
            "pad every variable to the same number of constraints, so the solver picks "
            "the one with fewest values left rather than the one in most groups",
        ),
    )
    counters = {
        "assignments": Counter(
            "values tried on a variable (each one a search-tree node)", kind="size"
        ),
        "variables": Counter("variables in the problem"),
        "constraints": Counter("AllDifferent constraints in the problem"),
        "build_seconds": Counter("time spent building the problem from the puzzle", timing=True),
        "search_seconds": Counter("time spent in the library's search", timing=True),
    }

    def search(
        self, puzzle: Puzzle, limit: int | None, deadline: float | None, options: dict[str, Any]
    ) -> Search:
        import constraint

        start = time.perf_counter()
        if deadline is not None and start >= deadline:
            return Search(timed_out=True)
        domains, groups = compile_problem(puzzle, options["givens"], options["order"])
        rules = compile_rules(puzzle, domains, options["givens"])
        stats: dict[str, float | int] = {
            "variables": len(domains),
            "constraints": len(groups) + len(rules or ()),
        }
        if rules is None or not domains or not all(domains.values()):
            # The givens break a rule, or every cell is given (the grid is its own one
            # solution), or a blank cell has no candidate left (no solution): nothing for
            # the library to search.
            stats["build_seconds"] = time.perf_counter() - start
            solutions = [puzzle.cells] if rules is not None and not domains else []
            return Search(solutions=solutions, exhausted=True, stats=stats)

        problem = constraint.Problem(getattr(constraint, options["solver"])())
        for cell, digits in domains.items():
            problem.addVariable(cell, digits)
        clock = _clock_constraint(constraint.Constraint, deadline)
        problem.addConstraint(clock)  # first, so it sees every value tried
        for group in groups:
            problem.addConstraint(constraint.AllDifferentConstraint(), group)
        for rule, scope in rules:
            if isinstance(rule, Cage):
                if options["cages"] == "sets":
                    sets = cage_sets(puzzle, rule)
                    problem.addConstraint(cage_constraint(constraint.Constraint, sets), scope)
                else:
                    problem.addConstraint(constraint.ExactSumConstraint(rule.total), scope)
            elif isinstance(rule, PairRule):
                problem.addConstraint(pair_constraint(constraint.Constraint, rule), scope)
            elif isinstance(rule, Spec):
                problem.addConstraint(spec_constraint(constraint.Constraint, rule), scope)
        if options["balance"]:
            padding = _padding(domains, groups + [scope for _, scope in rules])
            if padding:
                problem.addConstraint(_balance_constraint(constraint.Constraint), padding)
        built = time.perf_counter()
        stats["build_seconds"] = built - start

        solutions = []
        exhausted = timed_out = False
        try:
            for assignment in problem.getSolutionIter():
                grid = list(puzzle.cells)
                for cell, digit in assignment.items():
                    grid[cell] = digit
                solutions.append(tuple(grid))
                if limit is not None and len(solutions) >= limit:
                    break
            else:
                exhausted = True
        except _OutOfTime:
            timed_out = True
        stats["search_seconds"] = time.perf_counter() - built
        stats["assignments"] = clock.tries
        return Search(solutions=solutions, exhausted=exhausted, timed_out=timed_out, stats=stats)


def _padding(domains: dict[int, list[int]], groups: list[list[int]]) -> list[int]:
    """Each variable repeated as often as it has fewer groups than the most constrained one.

    >>> _padding({0: [1, 2], 1: [1, 2], 2: [1, 2]}, [[0, 1], [0, 2]])
    [1, 2]
    """
    degree = dict.fromkeys(domains, 0)
    for group in groups:
        for cell in group:
            degree[cell] += 1
    most = max(degree.values(), default=0)
    return [cell for cell, count in degree.items() for _ in range(most - count)]


def compile_problem(
    puzzle: Puzzle, givens: str = "pruned", order: str = "candidates"
) -> tuple[dict[int, list[int]], list[list[int]]]:
    """The variables (cell → domain, in the order to add them) and the groups to constrain.

    >>> domains, groups = compile_problem(Puzzle([1, 0, 0, 0] + [0] * 12, "latin"))
    >>> len(domains), domains[1], domains[5], len(groups)
    (15, [2, 3, 4], [1, 2, 3, 4], 8)
    """
    n = puzzle.size
    cells = puzzle.cells
    digits = range(1, n + 1)
    domains: dict[int, list[int]] = {}
    if givens == "fixed":
        for cell, given in enumerate(cells):
            domains[cell] = [given] if given else list(digits)
        groups = [list(group) for group in puzzle.groups()]
    else:
        peers = puzzle.peers()
        for cell, given in enumerate(cells):
            if not given:
                taken = {cells[p] for p in peers[cell]}
                domains[cell] = [d for d in digits if d not in taken]
        groups = [[c for c in group if not cells[c]] for group in puzzle.groups()]
        groups = [group for group in groups if len(group) >= 2]
    if order == "candidates":
        # sorted() is stable, so cells with as many candidates stay in reading order.
        domains = dict(sorted(domains.items(), key=lambda item: len(item[1])))
    return domains, groups
