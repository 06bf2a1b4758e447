"""The ``sat`` backend: the puzzle as CNF, solved by a CDCL SAT solver through PySAT.

Its layers, each saying how in its own docstring: the encoding (:mod:`.encoding`: groups and
cages; :mod:`.rules`: the other rules' clauses; :mod:`.cnf`: the record), the solver calls within
a time limit (:mod:`.solving`) and one solver kept for many puzzles (:mod:`.kept`). Here: the
backend class, its options and what their ``auto`` settings stand for.

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

import time
from typing import Any

from ...errors import BackendError
from ...puzzle import Puzzle
from ...rules import RULE_KINDS
from .. import Backend, Counter, Option, Search
from ..groupsums import sum_shapes
from .encoding import AMO_ENCODINGS, encode
from .kept import search_kept
from .rules import SUMS, OutOfTime
from .solving import NATIVE_CARD, SOLVERS, enumerate_solutions, load_solver

KEPT_MAX_SIZE = 16
"""Sizes up to this one are solved by a kept solver. Where encoding dominates, keeping pays
(17-clue 9x9: 0.36 against 1.4 ms of CPU a uniqueness check; 16x16: 2-3 against 6.3 ms);
above it the search does, and the fresh solver's encoding, pruned by the givens, is the
smaller (three 25x25 puzzles: 45 against 56 ms once built, and building the empty grid's CNF
takes 0.5 s)."""


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
    """CDCL SAT through PySAT on the standard encoding of the model (see :mod:`.encoding`)."""

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
            return search_kept(puzzle, limit, deadline, settings)
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
        with load_solver(name, enc) as solver:
            stats["encode_seconds"] = time.perf_counter() - start
            search = enumerate_solutions(solver, enc, limit, deadline)
            stats["solve_seconds"] = time.perf_counter() - start - stats["encode_seconds"]
            stats.update(solver.accum_stats() or {})
        search.stats = {**stats, **search.stats}
        return search
