"""MiniZinc: a ``.mzn`` model (the puzzle's groups and rules) and a ``.dzn`` file of data (its
givens), so that every puzzle of one model shares the model text.

``grid[r, c]`` (``var 1..n``) is the digit in row r, column c, counted from 1; ``givens[r, c]``
(data) is 0 for a blank. Each part by shape, with the global that fits it:

- a group: ``alldifferent``; a cage's total and a sum rule: ``sum([...]) = total`` (weights
  as factors);
- a pair rule whose ``allows`` is exactly ``<``, ``>``, ``=`` or ``!=``: that relation;
  any other (whispers, dots, non-consecutive …) a ``table`` of its allowed digit pairs; a
  triple rule a ``table`` of allowed triples;
- a digit rule: its cells' domains (``grid[r, c] in {...}``);
- a sequence rule (skyscraper, X-sum, digit-root cage) and a sandwich: ``regular`` over the
  cells in order, with the rule's automaton numbered (:func:`.shapes.numbered`);
- a quadruple: ``count(cells, d) >= times`` for each listed digit.

Meanings from MiniZinc's own library as shipped with the reference compiler (MiniZinc/
libminizinc, ``share/minizinc/std/``): ``regular.mzn`` (predicate ``regular(x, Q, S, d, q0,
F)``: states 1..Q, inputs 1..S, ``d[q, s]`` the next state, 0 the failing state),
``table.mzn`` (predicate ``table(x, t)``: ``x`` equals some row of ``t``),
``alldifferent.mzn``, ``count_fn.mzn`` (function ``count(x, y)``: how many of x equal y).
"""

from __future__ import annotations

from collections.abc import Sequence

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
    allowed_pairs,
    allowed_triples,
    numbered,
    relation,
    sandwich_automaton,
    shape_of,
)

SUFFIX = ".mzn"
DATA_SUFFIX = ".dzn"


def export(puzzle: Puzzle) -> dict[str, str]:
    """``{".mzn": model, ".dzn": data}``."""
    return {SUFFIX: model_text(puzzle), DATA_SUFFIX: data_text(puzzle)}


def data_text(puzzle: Puzzle) -> str:
    """The givens as a 2-d array literal, 0 for a blank."""
    n = puzzle.size
    rows = [", ".join(str(d) for d in puzzle.cells[r * n : r * n + n]) for r in range(n)]
    return "givens = [|\n  " + " |\n  ".join(rows) + " |];\n"


def _cell(cell: int, n: int) -> str:
    return f"grid[{cell // n + 1}, {cell % n + 1}]"


def _cells(cells: Sequence[int], n: int) -> str:
    return "[" + ", ".join(_cell(c, n) for c in cells) + "]"


def _array2d(name: str, rows: Sequence[Sequence[int]], width: int) -> str:
    flat = ", ".join(str(v) for row in rows for v in row)
    dims = f"1..{len(rows)}, 1..{width}"
    return f"array[{dims}] of int: {name} = array2d({dims}, [{flat}]);"


def _regular(cells: Sequence[int], table: Table, n: int, name: str) -> list[str]:
    """``regular`` over ``cells`` with the automaton ``table`` (missing moves: state 0)."""
    if not table.accepting:
        return ["constraint false;  % no digits along these cells are accepted"]
    rows = [
        [table.moves.get((q, d), 0) for d in range(1, n + 1)] for q in range(1, table.states + 1)
    ]
    accepting = "{" + ", ".join(map(str, table.accepting)) + "}"
    return [
        _array2d(name, rows, n),
        f"constraint regular({_cells(cells, n)}, {table.states}, {n}, {name}, {table.start}, "
        f"{accepting});",
    ]


def _globals_used(puzzle: Puzzle) -> list[str]:
    """The library files of the globals the model calls: named one by one, not through
    ``globals.mzn``, which with Debian's MiniZinc 2.6.4 and its Gecode 6.2.0 library fails to
    compile (Gecode's outdated ``inverse`` redefinition); fewer files also flatten sooner."""
    used = {"alldifferent"}
    for rule in puzzle.model.rules:
        shape = shape_of(rule)
        if shape in ("sequence", "sandwich"):
            used.add("regular")
        elif shape == "quadruple":
            used.add("count")
        elif shape == "triple" or (
            shape == "pair" and isinstance(rule, PairRule) and relation(rule, puzzle.size) is None
        ):
            used.add("table")
    return sorted(used)


def model_text(puzzle: Puzzle) -> str:
    """The model: the grid, the givens from the data, every group and rule."""
    n = puzzle.size
    model = puzzle.model
    out = [
        f"% sudoku-cp export: a {n}x{n} puzzle of the model {model.name}",
        "% grid[r, c] is the digit in row r, column c (from 1); the givens are the data (.dzn)",
        *(f'include "{name}.mzn";' for name in _globals_used(puzzle)),
        f"int: n = {n};",
        "array[1..n, 1..n] of 0..n: givens;",
        "array[1..n, 1..n] of var 1..n: grid;",
        "constraint forall(r, c in 1..n where givens[r, c] > 0)(grid[r, c] = givens[r, c]);",
        "",
        "% the groups: all different",
    ]
    for group, label in zip(model.groups(n), model.group_labels(n), strict=True):
        out.append(f"constraint alldifferent({_cells(group, n)});  % {label}")
    for number, rule in enumerate(model.rules, 1):
        shape = shape_of(rule)
        name = f"rule{number}"
        out += ["", f"% {rule.title} ({rule.key}), shape {shape}"]
        if isinstance(rule, Cage):
            if rule.total is not None:
                out.append(f"constraint sum({_cells(rule.cells, n)}) = {rule.total};")
        elif isinstance(rule, Sandwich):
            where = f"the sandwich sum along {cells_named(rule.cells, n)}"
            table = numbered(sandwich_automaton(rule, n), n, len(rule.cells), where)
            out += _regular(rule.cells, table, n, name)
        elif isinstance(rule, Quadruple):
            for d, times in sorted(rule.needed().items()):
                out.append(f"constraint count({_cells(rule.cells, n)}, {d}) >= {times};")
        elif isinstance(rule, SumRule):
            terms = rule.terms(n)
            if all(weight == 1 for _, weight in terms):
                out.append(f"constraint sum({_cells([c for c, _ in terms], n)}) = {rule.goal};")
            else:
                listed = ", ".join(f"{w} * {_cell(c, n)}" for c, w in terms)
                out.append(f"constraint sum([{listed}]) = {rule.goal};")
        elif isinstance(rule, SequenceRule):
            table = numbered(rule.automaton(n), n, len(rule.cells), rule.describe(n))
            out += _regular(rule.cells, table, n, name)
        elif isinstance(rule, PairRule):
            op = relation(rule, n)
            pairs = rule.pairs(n)
            if op is not None:
                out += [f"constraint {_cell(a, n)} {op} {_cell(b, n)};" for a, b in pairs]
            elif pairs:
                allowed = allowed_pairs(rule, n)
                if not allowed:
                    out.append("constraint false;  % no digit pair is allowed")
                else:
                    out.append(_array2d(name, allowed, 2))
                    out += [f"constraint table({_cells(pair, n)}, {name});" for pair in pairs]
        elif isinstance(rule, TripleRule):
            triples = rule.triples(n)
            if triples:
                allowed3 = allowed_triples(rule, n)
                if not allowed3:
                    out.append("constraint false;  % no digit triple is allowed")
                else:
                    out.append(_array2d(name, allowed3, 3))
                    out += [f"constraint table({_cells(t, n)}, {name});" for t in triples]
        elif isinstance(rule, DigitRule):
            allowed1 = "{" + ", ".join(str(d) for d in range(1, n + 1) if rule.allows(d)) + "}"
            out += [f"constraint {_cell(c, n)} in {allowed1};" for c in rule.cells]
        # else: groups only (anti-knight, anti-king), already among the groups above
    # Fewest candidates first (first_fail), as every solver of the tool searches: Gecode's
    # default (the variables in order) took over two minutes on some published variants.
    out += ["", "solve :: int_search(array1d(grid), first_fail, indomain_min) satisfy;", ""]
    return "\n".join(out)
