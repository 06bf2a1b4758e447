"""XCSP3: the puzzle as an XCSP3 instance written by ``pycsp3`` (the ``xcsp3`` extra).

``grid[r][c]`` is the digit of row r, column c, counted from 0 as XCSP3 arrays are; every
cell's domain is 1..N, a given is ``grid[r][c] = d`` and a digit rule a unary table of the
digits it allows. Each part by shape, with the XCSP3 constraint that fits it (built with
pycsp3's functions, which write them):

- a group: ``allDifferent``; a cage total and a sum rule: ``sum`` (``coeffs`` for weights);
- a pair rule that is exactly ``<``, ``>``, ``=`` or ``!=``: an ``intension``; any other an
  ``extension`` (table) of its allowed pairs; a triple rule a table of its allowed triples;
- a sequence rule and a sandwich: ``regular`` with the rule's automaton (states ``q1``..,
  ``q1`` the start);
- a quadruple: a ``count`` of each listed digit at least the times listed.

Where nothing can hold (a rule accepting nothing) the instance says so with a sum of
positive digits equal to -1.

pycsp3 is a modelling library meant for scripts: on import it reads ``sys.argv`` (the model
file to load) and at exit it compiles any model not compiled yet. It is imported here with an
empty ``sys.argv[0]`` (its console mode, pycsp3/__init__.py, which loads no file) and marked
compiled after each export (``Compilation.done``, read by its ``end`` at exit), so that
neither touches this process's arguments or writes a file of its own.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..puzzle import Puzzle
from ..rules import (
    Cage,
    DigitRule,
    PairRule,
    Quadruple,
    Sandwich,
    SequenceRule,
    SumRule,
    TripleRule,
    cells_named,
)
from .shapes import (
    Table,
    Unexportable,
    allowed_pairs,
    allowed_triples,
    numbered,
    relation,
    sandwich_automaton,
    shape_of,
)

SUFFIX = ".xml"


def _pycsp3() -> Any:
    """pycsp3, imported in its console mode (see the module's docstring)."""
    if "pycsp3" not in sys.modules:
        saved = sys.argv
        sys.argv = [""]
        try:
            importlib.import_module("pycsp3")
        except ImportError as err:
            raise Unexportable(
                f"the xcsp3 export needs the 'pycsp3' package ({err}); install it with: "
                "pip install 'sudoku-cp[xcsp3]'"
            ) from None
        finally:
            sys.argv = saved
    return sys.modules["pycsp3"]


_WORKER: Any = None


def export(puzzle: Puzzle) -> dict[str, str]:
    """``{".xml": text}``: the XCSP3 instance.

    pycsp3 is imported in a child process of its own, never here: on import it rewrites
    built-in types (forbiddenfruit patches ``set.__contains__`` and more), which slowed every
    later set test of the importing process many times over (the test suite's logic tests ran
    minutes longer after one XCSP3 export). One child serves the whole process.
    """
    for rule in puzzle.model.rules:
        shape_of(rule)  # an unknown shape is named before pycsp3 is even imported
    global _WORKER
    if _WORKER is None:
        import atexit
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        _WORKER = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        atexit.register(_WORKER.shutdown)
    return _WORKER.submit(_export_here, puzzle).result()


def _export_here(puzzle: Puzzle) -> dict[str, str]:
    p = _pycsp3()
    from pycsp3.compiler import Compilation

    p.clear()
    try:
        _build(p, puzzle)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "puzzle.xml"
            p.compile(str(path), verbose=-1)
            text = path.read_text()
    finally:
        p.clear()
        Compilation.done = True
    n = puzzle.size
    head = (
        f"<!-- sudoku-cp export: a {n}x{n} puzzle of the model {puzzle.model.name}; "
        "grid[r][c] is the digit of row r+1, column c+1 -->\n"
    )
    return {SUFFIX: head + text}


def _build(p: Any, puzzle: Puzzle) -> None:
    n = puzzle.size
    digits = range(1, n + 1)
    rules = puzzle.model.rules
    # Every cell's domain is 1..N; digit rules and givens are unary constraints. Narrowed
    # domains are the same meaning, but ACE 2.6 (pycsp3's bundled solver) then crashes in
    # its table propagator on an allDifferent it turned into a table (STR0a,
    # ArrayIndexOutOfBoundsException), as on odd and even cells of a 4x4 grid.
    grid = p.VarArray(size=[n, n], dom=range(1, n + 1), id="grid", comment="cell digits")

    def cells(group: Sequence[int]) -> list[Any]:
        return [grid[c // n][c % n] for c in group]

    def never() -> Any:
        return p.Sum(cells(range(n * n))) == -1

    constraints: list[Any] = []
    for cell, d in enumerate(puzzle.cells):
        if d:
            constraints.append(grid[cell // n][cell % n] == d)
    for group in puzzle.model.groups(n):
        constraints.append(p.AllDifferent(cells(group)))
    for rule in rules:
        if isinstance(rule, Cage):
            if rule.total is not None:
                constraints.append(p.Sum(cells(rule.cells)) == rule.total)
        elif isinstance(rule, Sandwich):
            where = f"the sandwich sum along {cells_named(rule.cells, n)}"
            table = numbered(sandwich_automaton(rule, n), n, len(rule.cells), where)
            constraints.append(_regular(p, cells(rule.cells), table, never))
        elif isinstance(rule, Quadruple):
            for d, times in sorted(rule.needed().items()):
                constraints.append(p.Count(cells(rule.cells), value=d) >= times)
        elif isinstance(rule, SumRule):
            terms = rule.terms(n)
            constraints.append(
                p.Sum([grid[c // n][c % n] * w for c, w in terms]) == rule.goal
                if any(w != 1 for _, w in terms)
                else p.Sum(cells([c for c, _ in terms])) == rule.goal
            )
        elif isinstance(rule, SequenceRule):
            table = numbered(rule.automaton(n), n, len(rule.cells), rule.describe(n))
            constraints.append(_regular(p, cells(rule.cells), table, never))
        elif isinstance(rule, PairRule):
            constraints += _pairs(p, rule, n, cells, never)
        elif isinstance(rule, TripleRule):
            allowed = allowed_triples(rule, n)
            for triple in rule.triples(n):
                constraints.append(
                    p.Table(scope=cells(triple), supports=allowed) if allowed else never()
                )
        elif isinstance(rule, DigitRule):
            allowed1 = [d for d in digits if rule.allows(d)]
            for cell in rule.cells:
                constraints.append(
                    p.Table(scope=[grid[cell // n][cell % n]], supports=allowed1)
                    if allowed1
                    else never()
                )
        # else: groups only (anti-knight, anti-king), already among the groups above
    p.satisfy(*constraints)


def _pairs(p: Any, rule: PairRule, n: int, cells: Any, never: Any) -> list[Any]:
    op = relation(rule, n)
    out = []
    allowed = allowed_pairs(rule, n)
    for pair in rule.pairs(n):
        a, b = cells(pair)
        if op == "<":
            out.append(a < b)
        elif op == ">":
            out.append(a > b)
        elif op == "=":
            out.append(a == b)
        elif op == "!=":
            out.append(a != b)
        else:
            out.append(p.Table(scope=[a, b], supports=allowed) if allowed else never())
    return out


def _regular(p: Any, scope: list[Any], table: Table, never: Any) -> Any:
    if not table.accepting:
        return never()
    transitions = [(f"q{q}", d, f"q{after}") for (q, d), after in sorted(table.moves.items())]
    automaton = p.Automaton(
        start=f"q{table.start}",
        transitions=transitions,
        final=[f"q{q}" for q in table.accepting],
    )
    return scope in automaton
