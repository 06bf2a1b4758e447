"""OPB (pseudo-Boolean): the cell variables of the DIMACS export, constraints as linear sums.

Variable ``x(cell*N + d)`` says "cell holds digit d", numbered as in the certificates' CNF
(:func:`sudoku_cp.certify.cnf.var`), so the two exports read the same. The constraints:

- every cell holds exactly one digit: ``+1 x.. ... = 1`` (a cardinality constraint);
- a group of N cells holds each digit exactly once (``= 1``), a smaller group at most once
  (``-1 x.. ... >= -1``, i.e. at most one);
- a given: ``+1 x = 1``;
- a sum (killer cage total, arrow, little killer, zipper …): one linear equality over the
  cells' digit variables, ``weight * d`` each;
- a quadruple: each listed digit among its cells at least as often as listed;
- the rest as clauses: a pair, triple or digit rule forbids each combination ``allows``
  refuses; a sandwich and a sequence rule (skyscraper, X-sum, digit-root cage) are the
  certificates' encoder's clauses, auxiliary variables after the cells'.

Format meanings: the writer of the reference library PySAT (pysathq/pysat,
``pysat/formula.py``, ``CNF.to_alien`` with ``format='opb'``) writes the header comment
``* #variable= V #constraint= C``, a clause as ``+1 xA -1 xB >= 1 - (negatives) ;`` with
each coefficient signed and ``;`` ending a constraint; the PB competition format (Roussel and
Manquinho, "Input/Output Format and Solver Requirements for the Competitions of
Pseudo-Boolean Solvers", as read by toulbar2, ``docs/source/formats/opbformat.rst``) adds ``*``
comment lines and ``=`` beside ``>=``. Only ``>=`` and ``=`` are written, never ``~x``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..certify.cnf import Fresh, sandwich_clauses, sequence_clauses, var
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
    cell_name,
)
from .shapes import shape_of

SUFFIX = ".opb"

Term = tuple[int, int]  # (coefficient, variable)


def _line(terms: Sequence[Term], op: str, rhs: int) -> str:
    kept = [(c, v) for c, v in terms if c]
    if not kept:  # 0 >= rhs or 0 = rhs: true, or else a constraint no 0/1 value meets
        holds = rhs <= 0 if op == ">=" else rhs == 0
        return "* (a constraint with no terms, always true)" if holds else "+1 x1 >= 2 ;"
    return " ".join(f"{c:+d} x{v}" for c, v in kept) + f" {op} {rhs} ;"


def _clause(clause: Sequence[int]) -> str:
    """A clause as ``sum of its literals >= 1``, a negated x written as ``1 - x``."""
    negatives = sum(1 for lit in clause if lit < 0)
    return _line([(1 if lit > 0 else -1, abs(lit)) for lit in clause], ">=", 1 - negatives)


def export(puzzle: Puzzle) -> dict[str, str]:
    """``{".opb": text}``: the puzzle as pseudo-Boolean constraints."""
    n = puzzle.size
    digits = range(1, n + 1)
    model = puzzle.model
    lines: list[str] = []
    for cell in range(n * n):
        lines.append(_line([(1, var(cell, d, n)) for d in digits], "=", 1))
    for group in model.groups(n):
        full = len(group) == n
        for d in digits:
            if full:
                lines.append(_line([(1, var(c, d, n)) for c in group], "=", 1))
            else:
                lines.append(_line([(-1, var(c, d, n)) for c in group], ">=", -1))
    for cell, d in enumerate(puzzle.cells):
        if d:
            lines.append(_line([(1, var(cell, d, n))], "=", 1))
    fresh = Fresh(n * n * n)
    for rule in model.rules:
        shape = shape_of(rule)
        if shape == "cage" and isinstance(rule, Cage) and rule.total is not None:
            lines.append(_sum([(c, 1) for c in rule.cells], rule.total, n))
        elif shape == "sum" and isinstance(rule, SumRule):
            lines.append(_sum(rule.terms(n), rule.goal, n))
        elif shape == "quadruple" and isinstance(rule, Quadruple):
            for d, times in sorted(rule.needed().items()):
                lines.append(_line([(1, var(c, d, n)) for c in rule.cells], ">=", times))
        elif shape == "sandwich" and isinstance(rule, Sandwich):
            lines += map(_clause, sandwich_clauses(rule, n, fresh))
        elif shape == "sequence" and isinstance(rule, SequenceRule):
            lines += map(_clause, sequence_clauses(rule, n, fresh))
        elif shape == "pair" and isinstance(rule, PairRule):
            lines += [
                _clause((-var(a, x, n), -var(b, y, n)))
                for a, b in rule.pairs(n)
                for x in digits
                for y in digits
                if not rule.allows(x, y)
            ]
        elif shape == "triple" and isinstance(rule, TripleRule):
            lines += [
                _clause((-var(a, x, n), -var(b, y, n), -var(c, z, n)))
                for a, b, c in rule.triples(n)
                for x in digits
                for y in digits
                for z in digits
                if not rule.allows(x, y, z)
            ]
        elif shape == "digit" and isinstance(rule, DigitRule):
            lines += [
                _clause((-var(cell, d, n),))
                for cell in rule.cells
                for d in digits
                if not rule.allows(d)
            ]
    head = [
        f"* #variable= {fresh.last} #constraint= {sum(not line.startswith('*') for line in lines)}",
        f"* sudoku-cp export: {n}x{n} puzzle, model {model.name}",
        f"* givens: {puzzle.to_line()}",
        f"* x((row-1)*{n * n} + (col-1)*{n} + d) = rNcM is d (rows, columns, digits from 1);",
        f"* x1..x{n * n * n} are the cells' digits, x{n * n * n + 1}.. auxiliary "
        "(see docs/export.md)",
    ]
    head += [
        f"* x{cell * n + 1}..x{cell * n + n} = {cell_name(cell, n)} is 1..{n}"
        for cell in range(n * n)
    ]
    return {SUFFIX: "\n".join(head + lines) + "\n"}


def _sum(terms: Sequence[tuple[int, int]], goal: int, n: int) -> str:
    """Σ weight · digit(cell) = goal over the digit variables: digit(cell) = Σ d · x(cell, d)."""
    merged: dict[int, int] = {}
    for cell, weight in terms:
        for d in range(1, n + 1):
            merged[var(cell, d, n)] = merged.get(var(cell, d, n), 0) + weight * d
    return _line([(c, v) for v, c in merged.items()], "=", goal)
