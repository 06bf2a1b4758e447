"""The ``sat`` backend: the puzzle as CNF, solved by a CDCL SAT solver through PySAT.

The encoding is the standard one, compiled from the model's groups (never a rule set by heart).
One Boolean variable ``x(cell, digit)`` says "this cell holds this digit", and

- every cell takes at least one digit (one clause per cell) and at most one (an at-most-one
  constraint per cell);
- every group takes each digit at most once (an at-most-one per group and digit) and, with
  ``redundant=True`` (the default), at least once. Those clauses are implied by the rest for a
  group of N cells (and left out for a shorter one, which may miss a digit), but they let unit
  propagation see "this digit has one place left in the group" (a hidden single): on the bundled
  hard puzzles they cut conflicts about sixfold and time about threefold;
- givens either become unit clauses (``simplify=False``) or, by default, are used to leave out
  the variables they rule out: a given cell has no variables, a blank cell only its candidates
  (the digits no peer is given), and a group only the digits not yet given in it.

Rules beyond groups (``rules``: every key of :data:`~sudoku_cp.rules.RULE_KINDS`; anti-knight,
anti-king, a killer cage's and a renban line's cells are groups, so those need nothing more):

- a killer cage's sum, from the sets of distinct digits of the cage's size that sum to its
  total: digits in no set are struck out; a two-cell cage says "``d`` here implies
  ``total - d`` there"; a larger one gets a selector variable per set (see
  :func:`_encode_cage`: exact because the cage's digits differ). Public killer set (151 9x9
  puzzles, uniqueness checks, gluecard4, best of 3, load 3.6): median 3.0 ms to encode and
  9.0 ms in all, against 8.3 and 12.1 with clauses written through one generic helper;
- the other shapes (:mod:`.rules`): a pair rule (dots, thermometers, clones …) is a binary
  clause per pair of cells and digit pair it forbids (a renban line's implied runs too:
  :func:`.rules.encode_renban_windows`); a digit rule (odd, even) unit clauses; a
  triple rule (between line) ``¬first=x ∨ ¬last=y ∨ OR(middle=v allowed)``; a quadruple
  at-least-k clauses; a weighted sum (arrow, little killer), a sandwich and a sequence rule's
  own automaton (skyscraper, X-sum) a one-hot layered automaton over the cells that keeps only
  states from which an accepting end is reachable. A weighted sum's terms first have the full
  groups' sums folded in (option ``sums``: ``plain``, ``folded``, ``grouped``, see
  :func:`.rules.encode_sum`; the default ``auto`` is grouped without killer-cage totals, else
  folded: :func:`resolve_sums`).

Givens and pruned digits are constants in those clauses (folded in), and a rule no digits can
satisfy is a contradiction before the solver runs.

At-most-one constraints (``amo``) are written as clauses — pairwise, or one of PySAT's CardEnc
encodings — or handed as they are (``native``) to a solver with built-in cardinality constraints
(Gluecard, Minicard). ``hybrid`` is pairwise up to 12 literals (every constraint of a 9x9 grid,
and most of a larger puzzle once the givens have pruned it) and a sequential counter above: on
puzzles pairwise is the fastest clause encoding at every size, but on near-empty 16x16 and 25x25
grids its N(N-1)/2 clauses per constraint make encoding dominate (25x25 empty grid, limit 2:
633 ms pairwise, 240 ms hybrid). The default, ``auto``, is ``native`` when the solver has
cardinality constraints and ``hybrid`` otherwise: passing one list instead of N(N-1)/2 clauses
saves most of the time a puzzle costs in Python (see "Defaults" below).

Solutions are enumerated with blocking clauses over the cell variables. The time limit is
enforced by conflict budgets: the solver runs in slices of conflicts, each up to twice the last,
and the clock is read between slices. (``interrupt()`` from a timer thread is the other way PySAT
offers; CaDiCaL does not support it, and for the others starting and joining a thread cost
1-3 ms of wall time per puzzle — as much as solving a hard 9x9 puzzle.)

**One solver for many puzzles** (``incremental=True``; ``check`` and ``count`` turn it on, up to
16x16, for every model a puzzle does not bring its own regions or cages to): the solver holds
the CNF of the model's empty grid, once per process, and each puzzle's givens are assumptions;
the clause blocking a solution is guarded by an activation literal of the puzzle's own, retired
after it (why learnt clauses stay sound is in :class:`KeptSolver`). 17-clue uniqueness checks take
0.36 ms of CPU against 1.4 ms with a fresh solver, where building and loading the CNF in Python
was most of the time. A single ``solve`` keeps a fresh solver: its answer and counters then do
not depend on what the process solved before.

Defaults, measured by ``python -m tools.perf.sat_encodings`` (figures in its docstring):
``redundant=True``, ``simplify=True``, ``amo="auto"`` and ``solver="auto"``: Glucose 4
(``gluecard4``) with native cardinality constraints, the fastest on the bundled hard 9x9 sets and
on 16x16 puzzles, where building and loading clauses in Python costs more than the search; for
candidate grids (pencil marks given in every cell) MiniSat 2.2 (:func:`solver_for`). On hard 25x25
puzzles, where the search dominates, CaDiCaL (``solver="cadical195"``) is 5-25% faster.

>>> from sudoku_cp import Puzzle, solve
>>> result = solve(Puzzle([0] * 16), "sat", limit=None)
>>> result.status.value, result.count
('multiple', 288)
"""

from __future__ import annotations

import atexit
import functools
import itertools
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any

from ...errors import BackendError
from ...puzzle import Puzzle
from ...rules import (
    RULE_KINDS,
    Cage,
    DigitRule,
    PairRule,
    Quadruple,
    Renban,
    Rule,
    Sandwich,
    SequenceRule,
    SumRule,
    TripleRule,
)
from .. import Backend, Counter, Option, Search
from ..groupsums import sum_shapes
from .cnf import Encoding
from .rules import (
    SUMS,
    OutOfTime,
    Writer,
    encode_digit_rule,
    encode_pair_rule,
    encode_quadruple,
    encode_renban_windows,
    encode_sandwich,
    encode_sequence,
    encode_sum,
    encode_triple_rule,
    negate,
)

SOLVERS = (
    "gluecard4",
    "gluecard3",
    "glucose4",
    "glucose42",
    "glucose3",
    "cadical195",
    "cadical153",
    "cadical103",
    "cadical300",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minisat22",
    "minisatep",
    "minicard",
)
"""PySAT solvers this backend offers, by PySAT's own names.

Left out on purpose: ``lingeling`` (no limited solve, so no time limit), ``kissat404`` (aborts
the whole process when a blocking clause is added after a solve, and exposes no statistics),
``cryptosat`` and ``minisatgh`` (not built into the python-sat wheels)."""

NATIVE_CARD = ("minicard", "gluecard3", "gluecard4")
"""Solvers that accept native at-most-k constraints (the ``amo="native"`` encoding). CaDiCaL 1.9.5
and 3.0 and MinisatEP take ``native_card=True`` but then refuse ``add_atmost`` ("currently
disabled") in python-sat 1.9.dev17."""

AMO_ENCODINGS = (
    "auto",
    "native",
    "hybrid",
    "pairwise",
    "ladder",
    "seqcounter",
    "bitwise",
    "totalizer",
    "cardnetwrk",
)
"""How at-most-one constraints are written: ``auto`` picks ``native`` or ``hybrid`` by solver;
``pairwise`` and ``hybrid`` are written here, the other clause encodings by PySAT's CardEnc."""

HYBRID_PAIRWISE_MAX = 12
"""``amo="hybrid"``: up to this many literals pairwise, more a sequential counter."""

FIRST_BUDGET = 100
"""Conflicts in the first slice of a time-limited SAT call (a few ms), to learn the rate."""


def encode(
    puzzle: Puzzle,
    *,
    amo: str = "hybrid",
    redundant: bool = True,
    simplify: bool = True,
    deadline: float | None = None,
    sums: str = "folded",
) -> Encoding:
    """Compile ``puzzle`` to CNF (see the module docstring for the encoding and its options).
    Past ``deadline`` (a ``time.perf_counter`` value), the rules' encodings raise
    :class:`~.rules.OutOfTime`: a long sum over many cells can take seconds to write.

    >>> enc = encode(Puzzle([1] + [0] * 15, "latin"))
    >>> len(enc.cell_vars), enc.contradiction
    (54, False)
    """
    n = puzzle.size
    givens = puzzle.cells
    groups = puzzle.groups()
    enc = Encoding(size=n, grid=list(givens))
    if amo == "auto":  # without a solver to ask, "auto" can only mean clauses
        amo = "hybrid"

    # Which (cell, digit) pairs get a variable: all of them, or only the candidates.
    if simplify:
        taken: list[set[int]] = [set() for _ in range(n * n)]
        for group in groups:
            given_here = {givens[c] for c in group if givens[c]}
            for c in group:
                taken[c] |= given_here
        candidates = [
            [] if givens[c] else [d for d in range(1, n + 1) if d not in taken[c]]
            for c in range(n * n)
        ]
    else:
        candidates = [list(range(1, n + 1)) for _ in range(n * n)]

    var = {}  # (cell, digit) -> variable
    for cell, digits in enumerate(candidates):
        for digit in digits:
            enc.top += 1
            var[cell, digit] = enc.top
            enc.cell_vars.append((enc.top, cell, digit))

    clauses = enc.clauses
    at_most_one = _amo_writer(enc, amo)
    if not simplify:
        clauses.extend([var[c, d]] for c, d in enumerate(givens) if d)
    for cell, digits in enumerate(candidates):
        if givens[cell] and simplify:
            continue
        if not digits:
            enc.contradiction = True
            return enc
        lits = [var[cell, d] for d in digits]
        clauses.append(lits)
        at_most_one(lits)
    for group in groups:
        given_here = {givens[c] for c in group if givens[c]} if simplify else set()
        # "At least once" holds only for a group of N cells; a shorter one may miss a digit.
        full = len(group) == n
        for digit in range(1, n + 1):
            if digit in given_here:
                continue
            lits = [var[c, digit] for c in group if (c, digit) in var]
            at_most_one(lits)
            if redundant and full:
                if not lits:
                    enc.contradiction = True
                    return enc
                clauses.append(lits)
    if puzzle.model.rules:
        _encode_rules(enc, puzzle, var, at_most_one, deadline, sums)
    return enc


def _encode_rules(
    enc: Encoding,
    puzzle: Puzzle,
    var: dict[tuple[int, int], int],
    at_most_one: Any,
    deadline: float | None,
    sums: str = "folded",
) -> None:
    """The clauses of the rules beyond groups: cage sums here, the other
    shapes in :mod:`.rules`.

    A literal for "cell holds digit" is its variable, or a constant when the cell is given or
    the digit was pruned (``simplify``): :func:`_literal` answers True, False or the variable,
    and clauses are written with constants folded in.
    """
    n = puzzle.size
    givens = puzzle.cells

    def literal(cell: int, digit: int) -> bool | int:
        if givens[cell]:
            if (cell, digit) in var:  # simplify=False: a given keeps its variables
                return var[cell, digit]
            return givens[cell] == digit
        return var.get((cell, digit), False)

    def add(clause: list[bool | int]) -> None:
        if any(lit is True for lit in clause):
            return
        lits = [lit for lit in clause if lit is not False]
        if not lits:
            enc.contradiction = True
        else:
            enc.clauses.append(lits)

    writer = Writer(enc, n, literal, add, at_most_one, deadline, puzzle.groups(), sums)
    for rule in puzzle.model.rules:
        writer.check_time()
        if isinstance(rule, Cage) and rule.total is not None:
            given = {givens[c] for c in rule.cells if givens[c]}
            _encode_cage(enc, rule, n, given, literal, add, negate)
        elif isinstance(rule, PairRule):
            encode_pair_rule(writer, rule)
            if isinstance(rule, Renban):
                encode_renban_windows(writer, rule.cells)
        elif isinstance(rule, TripleRule):
            encode_triple_rule(writer, rule)
        elif isinstance(rule, DigitRule):
            encode_digit_rule(writer, rule)
        elif isinstance(rule, SumRule):
            encode_sum(writer, rule)
        elif isinstance(rule, Sandwich):
            encode_sandwich(writer, rule)
        elif isinstance(rule, Quadruple):
            encode_quadruple(writer, rule)
        elif isinstance(rule, SequenceRule):
            encode_sequence(writer, rule)
        elif not isinstance(rule, Cage) and type(rule).problems is not Rule.problems:
            # a shape this encoder does not know: never search as if the rule were not there
            raise BackendError(f"backend 'sat' cannot compile the {rule.title} rule ({rule.key})")
        if enc.contradiction:
            return


@functools.cache
def digit_sets(size: int, cells: int, total: int) -> tuple[tuple[int, ...], ...]:
    """Every set of ``cells`` distinct digits of 1..``size`` summing to ``total``.

    >>> digit_sets(9, 2, 10)
    ((1, 9), (2, 8), (3, 7), (4, 6))
    """
    return tuple(
        combo for combo in itertools.combinations(range(1, size + 1), cells) if sum(combo) == total
    )


def _encode_cage(
    enc: Encoding, cage: Cage, n: int, given: set[int], literal: Any, add: Any, negate: Any
) -> None:
    """A cage's sum, from the sets of distinct digits (as many as the cage's cells) that sum
    to its total and hold its given digits. A digit in no set is struck from the cage's cells
    outright. Then, for a cage of two blank cells, each digit implies its partner in the other
    cell (``total - d``). Otherwise one selector variable per set: at least one selector holds;
    a selector forbids every digit outside its set in every cell of the cage, and says each
    digit of its set is somewhere in the cage.

    Exact: the cage is also a group (its digits differ), so ``k`` different digits from a
    ``k``-digit set are that set, whose sum is the total; and a grid whose cage sums right
    holds one of the sets, whose selector satisfies every clause (selectors are auxiliary:
    the grid decides them, and blocking clauses never mention them).
    """
    cells = cage.cells
    assert cage.total is not None
    sets = [s for s in digit_sets(n, len(cells), cage.total) if given <= set(s)]
    if not sets:
        enc.contradiction = True
        return
    used = set().union(*sets)
    table = {(c, d): literal(c, d) for c in cells for d in range(1, n + 1)}
    for cell in cells:
        for digit in range(1, n + 1):
            if digit not in used:
                add([negate(table[cell, digit])])
    if len(sets) == 1:
        return  # the digits outside the one set are already struck out
    if len(cells) == 2 and not given:
        one, two = cells
        for a, b in ((one, two), (two, one)):
            for digit in used:
                add([negate(table[a, digit]), table[b, cage.total - digit]])
        return
    constants = any(isinstance(lit, bool) and lit for lit in table.values())
    clauses = enc.clauses
    selectors = []
    for combo in sets:
        enc.top += 1
        selector = enc.top
        selectors.append(selector)
        for digit in used:
            if digit in combo:
                add([-selector] + [table[cell, digit] for cell in cells])
            elif constants:
                for cell in cells:
                    add([-selector, negate(table[cell, digit])])
            else:  # the common case, written out: variables, or False for a pruned digit
                for cell in cells:
                    lit = table[cell, digit]
                    if lit is not False:
                        clauses.append([-selector, -lit])
    add(list(selectors))


def _amo_writer(enc: Encoding, amo: str):
    """A function adding "at most one of these literals" to ``enc`` in the chosen encoding."""
    if amo == "pairwise":
        # Written here rather than by CardEnc: the same clauses, without a call per constraint.
        def pairwise(lits: list[int]) -> None:
            enc.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))

        return pairwise
    if amo == "native":

        def native(lits: list[int]) -> None:
            if len(lits) > 1:
                enc.atmosts.append(lits)

        return native

    from pysat.card import CardEnc, EncType

    kind = EncType.seqcounter if amo == "hybrid" else getattr(EncType, amo)
    # Pairwise is the best encoding for short lists, and cheap to write here; "hybrid" keeps it
    # up to HYBRID_PAIRWISE_MAX literals, where it stops paying off.
    shortcut = HYBRID_PAIRWISE_MAX if amo == "hybrid" else 2

    def library(lits: list[int]) -> None:
        if len(lits) <= shortcut:
            enc.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))
            return
        cnf = CardEnc.atmost(lits, bound=1, top_id=enc.top, encoding=kind)
        enc.clauses.extend(cnf.clauses)
        enc.top = max(enc.top, cnf.nv)

    return library


def resolve_sums(puzzle: Puzzle, sums: str) -> str:
    """The encoding ``sums="auto"`` stands for: ``grouped`` for a puzzle with weighted sums
    and no killer-cage totals, ``folded`` otherwise.

    Measured on every bundled puzzle with weighted sums (variants9, ``published``, ``iss``;
    uniqueness checks, median of 3 interleaved, load 3-5.5): without cage totals 11.2 s
    folded and 7.6 s grouped in all (``iss`` 23 4.25 to 1.43 s, variants9 13 1.26 to 0.79 s,
    ``published`` 61 654 to 177 ms; the worst loss "Triple digits" and its ISS twin, 207 to
    674 ms and 185 to 573 ms, where ``cpsat`` takes under 25 ms); with them 11.3 against
    24.1 s (Hailstone alone 11.2 against 24 s), slower on all three.

    >>> from sudoku_cp.model import load_model
    >>> from sudoku_cp.rules import Cage, LittleKiller
    >>> model = load_model("classic")
    >>> lone = Puzzle([0] * 16, model.with_rules(rules=[LittleKiller((4, 8, 12), 9)], size=4))
    >>> caged = Puzzle([0] * 16, model.with_rules(rules=[Cage((0, 1), 3)], size=4))
    >>> resolve_sums(lone, "auto"), resolve_sums(caged, "auto"), resolve_sums(lone, "plain")
    ('grouped', 'folded', 'plain')
    """
    if sums != "auto":
        return sums
    caged, summed = sum_shapes(puzzle.model.rules)
    return "grouped" if summed and not caged else "folded"


def resolve_amo(solver: str, amo: str) -> str:
    """The at-most-one encoding ``amo`` stands for with ``solver``: ``auto`` is ``native``
    where the solver has cardinality constraints, ``hybrid`` elsewhere."""
    if amo == "auto":
        return "native" if solver in NATIVE_CARD else "hybrid"
    return amo


def solver_for(puzzle: Puzzle, solver: str, amo: str = "auto") -> str:
    """The PySAT solver ``solver="auto"`` stands for: MiniSat 2.2 for a candidate grid (a
    classic model whose only rules are given pencil marks, as a 729-symbol grid reads), where it
    decided t-dillon/pencilmark_sudoku's ``hard/gurobi_hard`` with a median 0.61 s against
    gluecard4's 0.86 s (issue 34; ``python -m tools.perf.candidates_speed --pencilmark``);
    else Glucose 4 with cardinality constraints (see the module docstring). ``amo="native"``
    keeps gluecard4, which has them."""
    if solver != "auto":
        return solver
    rules = puzzle.model.rules
    if amo != "native" and rules and all(rule.key == "givenPencilMarks" for rule in rules):
        return "minisat22"
    return "gluecard4"


class SATBackend(Backend):
    """CDCL SAT through PySAT on the standard encoding of the model (see the module docstring)."""

    name = "sat"
    summary = (
        "CDCL SAT solver (PySAT) on the standard CNF encoding, at-most-one constraints "
        "native where the solver has them"
    )
    requires = ("pysat", "python-sat")
    rules = frozenset(RULE_KINDS)
    options = (
        Option(
            "solver",
            str,
            "auto",
            "PySAT solver name; auto: minisat22 for a candidate grid (givens and given pencil "
            "marks only), else gluecard4",
            choices=("auto", *SOLVERS),
        ),
        Option(
            "amo",
            str,
            "auto",
            "at-most-one encoding (auto: native if the solver has it, else hybrid)",
            choices=AMO_ENCODINGS,
        ),
        Option(
            "redundant",
            bool,
            True,
            "also say every group takes every digit at least once (implied clauses)",
        ),
        Option(
            "simplify",
            bool,
            True,
            "leave out variables the givens rule out (else givens are unit clauses); "
            "a fresh solver's encoding only (see incremental)",
        ),
        Option(
            "incremental",
            bool,
            False,
            "keep one solver per model and size (up to 16x16) in a process, givens as "
            "assumptions; check and count turn it on (a puzzle's own regions or cages get a "
            "fresh solver)",
        ),
        Option(
            "sums",
            str,
            "auto",
            "weighted sums (arrows, little killers): plain, folded (full groups' sums folded "
            "in, fewer cells), grouped (folded, and cells sharing a group read as a digit set) "
            "or auto (grouped where there are no killer-cage totals, else folded)",
            choices=("auto", *SUMS),
        ),
    )
    batch_options = {"incremental": True}
    counters = {
        "decisions": Counter("solver decisions, summed over every SAT call", kind="size"),
        "conflicts": Counter("conflicts (each one learns a clause)", kind="dead-end"),
        "propagations": Counter("unit propagations (maplesat and maplecm report 0)"),
        "restarts": Counter("solver restarts"),
        "sat_calls": Counter("SAT calls: one per solution found, plus the last one"),
        "variables": Counter("CNF variables, auxiliary ones included"),
        "clauses": Counter("CNF clauses (native at-most-one constraints counted as one each)"),
        "encode_seconds": Counter(
            "time spent building the CNF and loading it into the solver", timing=True
        ),
        "solve_seconds": Counter("time spent inside the SAT solver", timing=True),
    }

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options checked one by one, then together: ``native`` needs a solver that
        has cardinality constraints."""
        settings = super().check_options(options)
        if settings["amo"] == "native" and settings["solver"] not in ("auto", *NATIVE_CARD):
            raise BackendError(
                f"backend 'sat': amo='native' needs a solver with cardinality constraints "
                f"({', '.join(NATIVE_CARD)}), not {settings['solver']!r}"
            )
        return settings

    def search(
        self, puzzle: Puzzle, limit: int | None, deadline: float | None, options: dict[str, Any]
    ) -> Search:
        name = solver_for(puzzle, options["solver"], options["amo"])
        amo = resolve_amo(name, options["amo"])
        if options["incremental"] and not puzzle.model.own and puzzle.size <= KEPT_MAX_SIZE:
            settings = (name, amo, options["redundant"], resolve_sums(puzzle, options["sums"]))
            return _search_kept(puzzle, limit, deadline, settings)
        start = time.perf_counter()
        try:
            enc = encode(
                puzzle,
                amo=amo,
                redundant=options["redundant"],
                simplify=options["simplify"],
                deadline=deadline,
                sums=resolve_sums(puzzle, options["sums"]),
            )
        except OutOfTime:
            return Search(timed_out=True, stats={"encode_seconds": time.perf_counter() - start})
        stats: dict[str, float | int] = {
            "variables": enc.top,
            "clauses": len(enc.clauses) + len(enc.atmosts),
        }
        if enc.contradiction:
            stats["encode_seconds"] = time.perf_counter() - start
            return Search(exhausted=True, stats=stats)
        with _load(name, enc) as solver:
            stats["encode_seconds"] = time.perf_counter() - start
            search = _enumerate(solver, enc, limit, deadline)
            stats["solve_seconds"] = time.perf_counter() - start - stats["encode_seconds"]
            stats.update(solver.accum_stats() or {})
        search.stats = {**stats, **search.stats}
        return search


def _load(name: str, enc: Encoding) -> Any:
    """A PySAT solver called ``name`` holding ``enc``'s clauses and at-most-one constraints."""
    from pysat.solvers import NoSuchSolverError, Solver

    try:
        solver = Solver(name=name, bootstrap_with=enc.clauses)
    except NoSuchSolverError:
        raise BackendError(
            f"backend 'sat': solver {name!r} is not built into the installed python-sat "
            f"(try one of: {', '.join(s for s in SOLVERS if s != name)})"
        ) from None
    for lits in enc.atmosts:
        solver.add_atmost(lits, 1)
    return solver


def _enumerate(solver: Any, enc: Encoding, limit: int | None, deadline: float | None) -> Search:
    """Solve, block the solution, solve again … until ``limit``, UNSAT or the deadline."""
    search = Search()
    calls = 0
    while limit is None or len(search.solutions) < limit:
        if deadline is not None and time.perf_counter() >= deadline:
            search.timed_out = True
            break
        calls += 1
        answer = _solve_once(solver, deadline)
        if answer is None:
            search.timed_out = True
            break
        if not answer:
            search.exhausted = True
            break
        model = solver.get_model()
        search.solutions.append(enc.decode(model))
        block = enc.blocking_clause(model)
        if not block:  # every cell given: the givens are the only solution
            search.exhausted = True
            break
        solver.add_clause(block)
    search.stats["sat_calls"] = calls
    return search


def _solve_once(
    solver: Any, deadline: float | None, assumptions: list[int] | None = None
) -> bool | None:
    """One SAT call within the deadline: True, False, or None when time ran out."""
    assumptions = assumptions or []
    if deadline is None:
        return solver.solve(assumptions=assumptions)
    # Slices of conflicts, looking at the clock between them. Each slice may double the last,
    # so a long search is cut into few slices: MiniSat-like solvers reset their restart and
    # learnt-clause schedules at every call, and fixed slices of 2000 conflicts cost MiniSat up
    # to 2.7 times the conflicts (1.4 times the time) on hard 25x25 puzzles; doubling slices
    # cost nothing measurable. A slice is also held to half the time left at the rate the last
    # one ran, so the limit is overrun by ms, not by a whole slice.
    budget = FIRST_BUDGET
    while True:
        solver.conf_budget(budget)
        started = time.perf_counter()
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
        now = time.perf_counter()
        if now >= deadline:
            return None
        per_second = budget / max(now - started, 1e-6)
        budget = max(FIRST_BUDGET, min(2 * budget, int((deadline - now) * per_second / 2)))


# --- one solver kept across puzzles (incremental=True) ---------------------------------------
KEPT_PUZZLES = 2000
"""Puzzles a kept solver serves before it is built afresh: each puzzle that needed a blocking
clause leaves a retired activation variable behind, which every later model read carries."""
KEPT_MAX_SIZE = 16
"""Sizes up to this one are solved by a kept solver. Where encoding dominates, keeping pays
(17-clue 9x9: 0.36 against 1.4 ms of CPU a uniqueness check; 16x16: 2-3 against 6.3 ms);
above it the search does, and the fresh solver's encoding, pruned by the givens, is the
smaller (three 25x25 puzzles: 45 against 56 ms once built, and building the empty grid's CNF
takes 0.5 s)."""
KEPT_SOLVERS = 8
"""Kept solvers per thread (by model, size and settings); the oldest goes first."""
_STAT_KEYS = ("decisions", "conflicts", "propagations", "restarts")
_POSITIVE = (0).__lt__


class KeptSolver:
    """A solver holding the CNF of a model's *empty* grid (``simplify=False``: variable
    ``cell·N + digit`` says the cell holds the digit), reused for every puzzle of that model
    and size: a puzzle's givens are assumptions, and the clause blocking a solution found is
    guarded by an activation literal of that puzzle's own, retired (a unit ``¬a``) after it.

    Why the solver stays sound across puzzles, learnt clauses included: assumptions are
    decisions to a CDCL solver, never clauses, so every clause it learns is derived by
    resolution from the clauses it holds — the empty grid's CNF, true of every grid of the
    model, and guarded blocking clauses ``¬a ∨ …``. No clause holds a positive activation
    literal, so ``¬a`` is never resolved away: whatever is learnt from a blocking clause keeps
    ``¬a`` and is switched off with it. So every clause the solver ever holds is satisfied by
    any grid of the model (its auxiliary variables set to match) with every activation
    variable false — no later puzzle loses a solution — and a retired blocking clause blocks
    nothing again. (PySAT documents this
    assumption interface as the way to keep and reuse learnt clauses.)
    """

    __slots__ = ("solver", "size", "digit", "top", "puzzles", "stats", "encode_seconds", "empty")

    def __init__(
        self,
        puzzle: Puzzle,
        name: str,
        amo: str,
        redundant: bool,
        deadline: float | None,
        sums: str = "folded",
    ):
        start = time.perf_counter()
        n = puzzle.size
        empty = Puzzle.from_parsed(tuple([0] * (n * n)), n, puzzle.model, check_givens=False)
        enc = encode(
            empty, amo=amo, redundant=redundant, simplify=False, deadline=deadline, sums=sums
        )
        self.size = n
        self.digit = [0] + [(v - 1) % n + 1 for v in range(1, n**3 + 1)]  # variable -> digit
        self.top = enc.top
        self.puzzles = 0
        self.stats: dict[str, float | int] = {
            "variables": enc.top,
            "clauses": len(enc.clauses) + len(enc.atmosts),
        }
        # The empty grid has no solution under its rules: neither has any puzzle.
        self.empty = enc.contradiction
        self.solver = None if enc.contradiction else _load(name, enc)
        self.encode_seconds = time.perf_counter() - start

    def delete(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def search(self, cells: Sequence[int], limit: int | None, deadline: float | None) -> Search:
        """Up to ``limit`` solutions of the puzzle with these givens."""
        search = Search()
        self.puzzles += 1
        if self.empty:
            search.exhausted = True
            return search
        solver, n = self.solver, self.size
        assert solver is not None
        cube = n * n * n
        assumptions = [cell * n + d for cell, d in enumerate(cells) if d]
        before = solver.accum_stats() or {}
        guard = 0  # the activation literal, made when the first blocking clause is
        calls = 0
        try:
            while limit is None or len(search.solutions) < limit:
                if deadline is not None and time.perf_counter() >= deadline:
                    search.timed_out = True
                    break
                calls += 1
                answer = _solve_once(solver, deadline, assumptions)
                if answer is None:
                    search.timed_out = True
                    break
                if not answer:
                    search.exhausted = True
                    break
                # The true cell variables, one a cell in cell order (each cell holds exactly
                # one digit, by the CNF): the grid, and the clause that blocks it.
                true = list(filter(_POSITIVE, solver.get_model()[:cube]))
                if len(true) != n * n:
                    raise BackendError(f"backend 'sat': a model with {len(true)} cells filled")
                search.solutions.append(tuple(map(self.digit.__getitem__, true)))
                block = [-v for v, given in zip(true, cells, strict=True) if not given]
                if not block:  # every cell given: the givens are the only solution
                    search.exhausted = True
                    break
                if not guard:
                    self.top += 1
                    guard = self.top
                    assumptions.append(guard)
                solver.add_clause([-guard, *block])
        finally:
            if guard:
                solver.add_clause([-guard])  # retired: its blocking clauses hold no more
        after = solver.accum_stats() or {}
        search.stats = {k: after.get(k, 0) - before.get(k, 0) for k in _STAT_KEYS if k in after}
        search.stats["sat_calls"] = calls
        return search


class _Shelf:
    """A thread's kept solvers, by (model, size, settings), in the order last used (held
    weakly by :data:`_SHELVES`, so a thread's go when it ends)."""

    __slots__ = ("solvers", "__weakref__")

    def __init__(self) -> None:
        self.solvers: dict[Any, KeptSolver] = {}


_KEPT = threading.local()
_SHELVES: weakref.WeakSet[_Shelf] = weakref.WeakSet()


def drop_kept_solvers() -> None:
    """Delete every kept solver (at exit: PySAT's own clean-up fails once the interpreter
    has begun to dismantle its modules, and says so on standard error)."""
    for shelf in list(_SHELVES):
        while shelf.solvers:
            shelf.solvers.popitem()[1].delete()


def _search_kept(
    puzzle: Puzzle,
    limit: int | None,
    deadline: float | None,
    settings: tuple[str, str, bool, str],
) -> Search:
    """``search`` with the solver kept for the puzzle's model and size (built if need be)."""
    shelf: _Shelf | None = getattr(_KEPT, "shelf", None)
    if shelf is None:
        shelf = _KEPT.shelf = _Shelf()
        if not _SHELVES:
            atexit.register(drop_kept_solvers)
        _SHELVES.add(shelf)
    kept = shelf.solvers
    key = (puzzle.model, puzzle.size, *settings)
    solver = kept.pop(key, None)  # put back last: the dict's order is the order of use
    built = 0.0
    if solver is None or solver.puzzles >= KEPT_PUZZLES:
        if solver is not None:
            solver.delete()
        while len(kept) >= KEPT_SOLVERS:
            kept.pop(next(iter(kept))).delete()
        try:
            name, amo, redundant, sums = settings
            solver = KeptSolver(puzzle, name, amo, redundant, deadline, sums)
        except OutOfTime:
            return Search(timed_out=True)
        built = solver.encode_seconds
    start = time.perf_counter()
    try:
        search = solver.search(puzzle.cells, limit, deadline)
    except BaseException:
        solver.delete()  # a search cut short (Ctrl-C, an error) leaves no solver behind
        raise
    kept[key] = solver
    search.stats = {
        **solver.stats,
        "encode_seconds": built,
        "solve_seconds": time.perf_counter() - start,
        **search.stats,
    }
    return search


# --- the pieces other modules drive a solver with (true candidates: sudoku_cp.true_candidates)
load_solver = _load
"""``load_solver(name, encoding)``: a PySAT solver holding the encoding (close it after)."""
solve_within = _solve_once
"""``solve_within(solver, deadline, assumptions)``: True, False, or None past the deadline."""
enumerate_solutions = _enumerate
"""``enumerate_solutions(solver, encoding, limit, deadline)``: a :class:`Search` of solutions
found with blocking clauses (which stay in the solver)."""
