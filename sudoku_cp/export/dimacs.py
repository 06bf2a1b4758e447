"""DIMACS CNF: the certificates' own encoder (:mod:`sudoku_cp.certify.cnf`), with a comment
header naming the variables. Nothing here encodes: the clauses are exactly the ones a
certificate is made and verified against, so an exported CNF can be checked by the same eye.

Format meanings from the reference reader PySAT (pysathq/pysat, ``pysat/formula.py``,
``CNF.from_fp``): a line starting with ``c`` is a comment, ``p cnf V C`` the header, every other
line a clause of non-zero integers ended by ``0`` (negative: the negated variable).
"""

from __future__ import annotations

from ..certify.cnf import Unencodable, encode
from ..puzzle import Puzzle
from ..rules import cell_name
from .shapes import Unexportable, shape_of

SUFFIX = ".cnf"


def export(puzzle: Puzzle) -> dict[str, str]:
    """``{".cnf": text}``: the puzzle's CNF with its variables named in comments."""
    for rule in puzzle.model.rules:
        shape_of(rule)  # an unknown shape is named here, as in every format
    try:
        formula = encode(puzzle)
    except Unencodable as err:
        raise Unexportable(str(err)) from None
    n = puzzle.size
    cells = n * n * n
    head = [
        f"c sudoku-cp export: {n}x{n} puzzle, model {puzzle.model.name}",
        f"c givens: {puzzle.to_line()}",
        f"c var (row-1)*{n * n} + (col-1)*{n} + d = rNcM is d (rows, columns, digits from 1);",
        f"c vars 1..{cells} are the cells' digits"
        + (
            f", {cells + 1}..{formula.variables} auxiliary (partial sums, automaton states; "
            "see docs/export.md)"
            if formula.variables > cells
            else ""
        ),
    ]
    for cell in range(n * n):
        first = cell * n + 1
        head.append(f"c var {first}..{first + n - 1} = {cell_name(cell, n)} is 1..{n}")
    return {SUFFIX: "\n".join(head) + "\n" + formula.dimacs()}
