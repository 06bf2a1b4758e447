"""The ``minizinc`` backend: the MiniZinc export's model (:mod:`sudoku_cp.export.minizinc`)
solved by a MiniZinc solver through the MiniZinc Python interface (the ``minizinc`` extra).

The model is the export's, word for word: ``alldifferent`` per group, ``sum`` for cages and
sums, a relation or ``table`` for pair and triple rules, domains for digit rules,
``regular`` for sequence rules and sandwiches, ``count`` for quadruples — so it takes every
rule the export takes, and a rule of an unknown shape is refused, named. The givens are the
model's data. The solver is ``-O solver=`` (an id or tag MiniZinc knows: ``gecode``,
``chuffed`` …; Debian's ``minizinc`` package brings Gecode).

How ``limit`` is honoured: the solver is asked for ``limit`` solutions (``-n``), or for all
(``--all-solutions``) when there is no limit; MiniZinc says whether its search was complete
(status ``ALL_SOLUTIONS`` or ``UNSATISFIABLE``: the count is exact). The time limit is
MiniZinc's own (``--time-limit``, which covers flattening and search); a search it stopped
is reported as timed out with the solutions found so far. Each solve starts the
``minizinc`` program (flattening, then the solver: about 0.15-0.25 s for a 4x4 grid on a
loaded 2-core machine), and the first puzzle of each model once more to read the model's
interface; so this backend is for comparisons, not for speed.

>>> from sudoku_cp import Puzzle, solve
>>> result = solve(Puzzle([0] * 16), "minizinc", limit=None)  # doctest: +SKIP
>>> result.status.value, result.count  # doctest: +SKIP
('multiple', 288)
"""

from __future__ import annotations

import time
import warnings
from datetime import timedelta
from typing import Any

from ..errors import BackendError
from ..puzzle import Puzzle
from ..rules import RULE_KINDS
from . import Backend, Counter, Option, Search

INSTALL = (
    "pip install 'sudoku-cp[minizinc]' (or pip install minizinc), and the MiniZinc program "
    "with a solver (Debian: apt-get install minizinc, which brings Gecode)"
)


_INSTANCES: dict[tuple[str, str], Any] = {}
MAX_INSTANCES = 8
"""Models kept ready (per solver): the MiniZinc interface runs the program once to read a new
model's interface (about 0.1 s), which every puzzle of the same model and size then skips,
its givens added to a branch of the instance."""


def _instance(solver: Any, model_text: str) -> Any:
    import minizinc

    key = (solver.id, model_text)
    known = _INSTANCES.get(key)
    if known is None:
        if len(_INSTANCES) >= MAX_INSTANCES:
            _INSTANCES.clear()
        model = minizinc.Model()
        model.add_string(model_text)
        known = _INSTANCES[key] = minizinc.Instance(solver, model)
    return known


class MiniZincBackend(Backend):
    """The MiniZinc export's model solved by a MiniZinc solver (Gecode by default)."""

    name = "minizinc"
    summary = (
        "MiniZinc: the export's model (alldifferent, table, regular …) solved by Gecode, "
        "Chuffed or any MiniZinc solver"
    )
    requires = ("minizinc", "minizinc")
    options = (
        Option(
            "solver",
            str,
            "gecode",
            "the MiniZinc solver, by id or tag (gecode, chuffed …; `minizinc --solvers` lists "
            "those installed)",
        ),
    )
    counters = {
        "nodes": Counter("search nodes the solver reports", "size"),
        "failures": Counter("failed nodes the solver reports", "dead-end"),
        "solve_seconds": Counter("the solver's own search time, as it reports it", "other"),
    }
    rules = frozenset(RULE_KINDS)

    @classmethod
    def unavailable_reason(cls) -> str | None:
        with warnings.catch_warnings():
            # its import warns "MiniZinc was not found": said below, in one line
            warnings.simplefilter("ignore", RuntimeWarning)
            reason = super().unavailable_reason()
        if reason is not None:
            return f"{reason}; and the MiniZinc program (Debian: apt-get install minizinc)"
        import minizinc

        driver = minizinc.default_driver  # None when the package found no program on the PATH
        if driver is None:
            return (
                "backend 'minizinc' needs the MiniZinc program on the PATH, with a solver "
                "(Debian: apt-get install minizinc, which brings Gecode)"
            )
        # The solvers' list is asked of the program once and kept: here, before a solve's
        # clock starts (it costs a run of the program, about 0.1 s).
        driver.available_solvers()
        return None

    @classmethod
    def notes(cls) -> list[str]:
        if cls.unavailable_reason() is not None:
            return [f"install: {INSTALL}"]
        return []

    def supports(self, puzzle: Puzzle) -> str | None:
        from ..export.shapes import Unexportable, shape_of

        for rule in puzzle.model.rules:
            try:
                shape_of(rule)
            except Unexportable as err:
                return f"backend '{self.name}': {err}"
        return None

    def search(
        self, puzzle: Puzzle, limit: int | None, deadline: float | None, options: dict[str, Any]
    ) -> Search:
        import minizinc
        from minizinc.error import MiniZincWarning

        from ..export import minizinc as export

        found = Search()
        try:
            solver = minizinc.Solver.lookup(options["solver"])
        except LookupError as err:
            raise BackendError(
                f"backend 'minizinc': no MiniZinc solver {options['solver']!r} ({err})"
            ) from None
        instance = _instance(solver, export.model_text(puzzle))
        settings: dict[str, Any] = {}
        if limit is None:
            settings["all_solutions"] = True
        else:
            settings["nr_solutions"] = limit
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                found.timed_out = True
                return found
            # MiniZinc takes whole milliseconds; at least one, so that a tiny limit still runs
            settings["time_limit"] = timedelta(milliseconds=max(1, int(left * 1000)))
        try:
            with warnings.catch_warnings():
                # Debian's Gecode 6.2.0 library warns on every run that it redefines globals
                # the older way (count.mzn …): about the installation, never the puzzle.
                warnings.simplefilter("ignore", MiniZincWarning)
                with instance.branch() as child:
                    child.add_string(export.data_text(puzzle))
                    result = child.solve(**settings)
        except minizinc.MiniZincError as err:
            raise BackendError(f"backend 'minizinc': {str(err).strip().splitlines()[0]}") from None
        n = puzzle.size
        got = result.solution
        listed = got if isinstance(got, list) else ([got] if got is not None else [])
        for solution in listed:
            rows = solution.grid
            grid = tuple(int(d) for row in rows for d in row)
            if len(grid) != n * n:
                raise BackendError(f"backend 'minizinc': a solution of {len(grid)} cells")
            found.solutions.append(grid)
        status = result.status
        found.exhausted = status in (minizinc.Status.ALL_SOLUTIONS, minizinc.Status.UNSATISFIABLE)
        found.timed_out = not found.exhausted and (limit is None or len(found.solutions) < limit)
        stats = result.statistics
        for name, key in (("nodes", "nodes"), ("failures", "failures")):
            if isinstance(stats.get(key), int):
                found.stats[name] = stats[key]
        solve_time = stats.get("solveTime")
        if isinstance(solve_time, timedelta):
            found.stats["solve_seconds"] = solve_time.total_seconds()
        elif isinstance(solve_time, int | float):
            found.stats["solve_seconds"] = float(solve_time)
        return found
