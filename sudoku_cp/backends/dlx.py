"""The ``dlx`` backend: the puzzle as exact cover, solved by Knuth's Algorithm X with dancing links.

Exact cover: choose rows of a 0/1 matrix so that every column holds exactly one 1. Compiled
from the model's groups:

- a *row* for every (cell, digit) the givens leave possible: "this cell holds this digit";
- a *column* for every blank cell ("the cell is filled") and for every group and digit not yet
  given in it ("the digit appears once in the group");
- row (cell, digit) has a 1 in the cell's column and in (group, digit) for each group of the cell.

A chosen set of rows covering every column exactly once is a solution. "Exactly once" is right
only when every group has N cells, as in every shipped model; a model with a shorter group
(where a digit may be missing: a short ``[[cells]]`` group or window) is refused up front by
:meth:`DLXBackend.supports`, before any search. Givens are taken out up front: their rows, their
columns and every row that clashes with them are never built.

What exact cover expresses, it takes: jigsaw regions (they replace the boxes), extra groups of
N cells, disjoint groups and diagonals are all groups of N cells; and the digit rules (``odd``,
``even``, given pencil marks), which only take rows away: a cell's rows for the digits its rule
forbids are never built, and a given the rule forbids leaves no solution. Every other rule —
killer cage, anti-knight, anti-king, and every rule relating two or more cells' digits (dots,
lines, sums, sandwiches, clones, which need equality, quadruples, minimum / maximum,
indexers) — makes
:meth:`~sudoku_cp.backends.Backend.refusal` answer ``unsupported``, naming the rule, before any
search — and before ``supports``, so a cage (a group shorter than N) is refused for being a
cage, not for its length. (Cages in exact cover — e.g. a column per cage and a choice of the
digit set it holds — are optional in issue 13 and not tried; anti-knight and anti-king pairs,
being groups that may miss digits, would need Knuth's secondary columns, not built here.)

Dancing links (Knuth, "Dancing Links", 2000): the 1s are nodes in circular doubly linked lists,
one per column (up/down) and one of column headers (left/right). Covering a column unlinks it
and every row meeting it; uncovering relinks them in reverse order, so backtracking costs no
copies. The search picks the column with the fewest rows (Knuth's S heuristic) and runs on an
explicit stack, so a 25x25 grid never meets Python's recursion limit.

The links are flat Python lists indexed by node number (about 25 ms of CPU per hard 9x9 puzzle,
some 70 ns per update in CPython 3.11). Rows never change, so instead of left/right links within
rows each node keeps the other nodes of its row as a tuple, walked by a ``for`` loop: measured,
that is as fast as following row links (within 5%) and simpler to read. The profile is spent in
cover/uncover (about 60%) and in scanning the column headers for the shortest column (the
rest); merging cover calls per row or reordering that scan gained nothing measurable.

Counters: ``nodes`` is the number of rows tried (search-tree nodes) and ``updates`` the number of
nodes unlinked from their lists by cover operations, as in Knuth's paper.

>>> from sudoku_cp import Puzzle, solve
>>> result = solve(Puzzle([0] * 16), "dlx", limit=None)
>>> result.status.value, result.count
('multiple', 288)
"""

from __future__ import annotations

import functools
import time
from typing import Any

from ..errors import BackendError
from ..model import Model
from ..puzzle import Puzzle
from ..rules import DigitRule, Rule
from . import Backend, Counter, Search

CLOCK_EVERY = 512
"""Search nodes between two looks at the clock."""

WEIGHTED_FROM_SIZE = 16
"""From this size on the column is chosen by rows per dead end (see :meth:`ExactCover.solve`)."""


class DLXBackend(Backend):
    """Knuth's Algorithm X on the exact-cover matrix of the model, with dancing links."""

    name = "dlx"
    summary = "exact cover, Knuth's Algorithm X with dancing links (pure Python)"
    rules = frozenset({"odd", "even", "givenPencilMarks"})
    counters = {
        "nodes": Counter("rows tried: nodes of the search tree", kind="size"),
        "updates": Counter("nodes unlinked from their lists by cover operations (Knuth's count)"),
        "columns": Counter("exact-cover columns left after taking out the givens"),
        "rows": Counter("exact-cover rows left after taking out the givens"),
    }

    def supports(self, puzzle: Puzzle) -> str | None:
        """Refuses a model with a group of fewer than N cells (see the module docstring).

        >>> from sudoku_cp.model import model_from_dict
        >>> short = model_from_dict({"groups": ["rows", "columns"],
        ...                          "cells": [{"cells": [[0, 0], [1, 1]]}]}, name="mine")
        >>> print(DLXBackend().supports(Puzzle([0] * 16, short)))  # doctest: +ELLIPSIS
        backend 'dlx' cannot express model 'mine': group 1 has 2 cells, and exact cover needs ...
        >>> DLXBackend().supports(Puzzle([0] * 16)) is None
        True
        """
        return short_group(puzzle.model, puzzle.size)

    def search(
        self, puzzle: Puzzle, limit: int | None, deadline: float | None, options: dict[str, Any]
    ) -> Search:
        matrix = ExactCover(puzzle)
        search = matrix.solve(limit, deadline, weighted=puzzle.size >= WEIGHTED_FROM_SIZE)
        search.stats["columns"] = matrix.column_count
        search.stats["rows"] = len(matrix.row_names)
        return search


@functools.lru_cache(maxsize=64)
def short_group(model: Model, size: int) -> str | None:
    """Why exact cover cannot express ``model`` at ``size`` (a group of fewer than ``size``
    cells, which may miss a digit), or None. Cached: the harness asks for every puzzle."""
    for group, label in zip(model.groups(size), model.group_labels(size), strict=True):
        if len(group) != size:
            cells = f"{len(group)} cell{'s' if len(group) != 1 else ''}"
            return (
                f"backend 'dlx' cannot express model '{model.name}': {label} has {cells}, and "
                f"exact cover needs every group to hold each of the {size} digits exactly once "
                f"(use another backend for this model)"
            )
    return None


def digit_rules(puzzle: Puzzle) -> list[frozenset[int]]:
    """The digits each cell may hold under the puzzle's digit rules (odd, even): the rows
    exact cover keeps for it.

    >>> from sudoku_cp.model import load_model
    >>> from sudoku_cp.rules import Odd
    >>> model = load_model("latin").with_rules(rules=[Odd((1,))], size=4)
    >>> [sorted(digits) for digits in digit_rules(Puzzle([0] * 16, model))[:2]]
    [[1, 2, 3, 4], [1, 3]]
    """
    n = puzzle.size
    every = frozenset(range(1, n + 1))
    allowed = [every] * (n * n)
    for rule in puzzle.model.rules:
        if isinstance(rule, DigitRule):
            for cell in rule.cells:
                allowed[cell] = frozenset(d for d in allowed[cell] if rule.allows(d))
        elif type(rule).problems is not Rule.problems:
            # a shape exact cover does not take under a key it does: never search as if the
            # rule were not there (a rule of groups alone is in puzzle.groups() already)
            raise BackendError(f"backend 'dlx' cannot compile the {rule.title} rule ({rule.key})")
    return allowed


class ExactCover:
    """The dancing-links matrix of one puzzle, ready to search.

    >>> matrix = ExactCover(Puzzle([1, 0, 0, 0] + [0] * 12, "latin"))
    >>> matrix.column_count, len(matrix.row_names)
    (45, 54)
    """

    def __init__(self, puzzle: Puzzle) -> None:
        n = puzzle.size
        givens = puzzle.cells
        groups = puzzle.groups()
        refused = short_group(puzzle.model, n)
        if refused:  # never build a matrix whose exact covers are not the solutions
            raise BackendError(refused)
        self.grid = list(givens)
        allowed = digit_rules(puzzle)
        # A given a digit rule forbids (an even cell given a 3): no exact cover is a solution.
        self.broken = any(givens[c] and givens[c] not in allowed[c] for c in range(n * n))

        groups_of: list[list[int]] = [[] for _ in range(n * n)]
        given_in: list[set[int]] = []
        for g, group in enumerate(groups):
            given_in.append({givens[c] for c in group if givens[c]})
            for c in group:
                groups_of[c].append(g)

        # Columns 1.. (0 is the root): a blank cell, or a digit still missing from a group.
        column: dict[tuple, int] = {}
        for cell in range(n * n):
            if not givens[cell]:
                column["cell", cell] = len(column) + 1
        for g in range(len(groups)):
            for digit in range(1, n + 1):
                if digit not in given_in[g]:
                    column["group", g, digit] = len(column) + 1
        self.column_count = len(column)

        # Rows: (cell, digit) pairs the givens allow, each as the list of its columns.
        self.row_names: list[tuple[int, int]] = []
        rows: list[list[int]] = []
        for cell in range(n * n):
            if givens[cell]:
                continue
            for digit in range(1, n + 1):
                if digit not in allowed[cell] or any(digit in given_in[g] for g in groups_of[cell]):
                    continue
                self.row_names.append((cell, digit))
                rows.append(
                    [column["cell", cell]] + [column["group", g, digit] for g in groups_of[cell]]
                )
        self._link(rows)

    def _link(self, rows: list[list[int]]) -> None:
        """Build the circular lists: node 0 the root, 1..columns the headers, then the 1s."""
        headers = self.column_count + 1
        self.left = [h - 1 for h in range(headers)]
        self.right = [h + 1 for h in range(headers)]
        self.left[0], self.right[-1] = headers - 1, 0
        self.up = list(range(headers))
        self.down = list(range(headers))
        self.col = list(range(headers))
        self.size = [0] * headers
        self.row_of = [-1] * headers
        self.others: list[tuple[int, ...]] = [()] * headers
        """For each node, the other nodes of its row left to right (rows never change)."""
        self.others_reversed: list[tuple[int, ...]] = [()] * headers
        up, down, col, size = self.up, self.down, self.col, self.size
        for r, columns in enumerate(rows):
            first = len(col)
            nodes = tuple(range(first, first + len(columns)))
            for node, c in zip(nodes, columns, strict=True):
                col.append(c)
                self.row_of.append(r)
                up.append(up[c])  # append at the bottom of column c
                down.append(c)
                down[up[c]] = node
                up[c] = node
                size[c] += 1
            for i in range(len(nodes)):
                after = nodes[i + 1 :] + nodes[:i]
                self.others.append(after)
                self.others_reversed.append(after[::-1])

    def solve(self, limit: int | None, deadline: float | None, weighted: bool = False) -> Search:
        """Algorithm X on an explicit stack: up to ``limit`` solutions before ``deadline``.

        ``weighted``: a column left with no row (a dead end) gains weight, and the column
        chosen is one with a single row, else the fewest rows per unit of weight
        (rows / (1 + dead ends), the dom/wdeg rule of constraint programming) — on 16x16 it
        learns which cells and group-digits are hard, where Knuth's fewest rows does not.
        """
        if self.broken:
            return Search(exhausted=True, stats={"nodes": 0, "updates": 0})
        left, right, up, down = self.left, self.right, self.up, self.down
        col, size, others, others_reversed = self.col, self.size, self.others, self.others_reversed
        search = Search()
        chosen: list[int] = []  # the row node picked at each level
        nodes = updates = 0
        clock = CLOCK_EVERY
        weights = [0] * len(size) if weighted else None

        def cover(c: int) -> int:
            left[right[c]] = left[c]
            right[left[c]] = right[c]
            unlinked = 1
            i = down[c]
            while i != c:
                row = others[i]
                unlinked += len(row)
                for j in row:
                    u, d = up[j], down[j]
                    down[u] = d
                    up[d] = u
                    size[col[j]] -= 1
                i = down[i]
            return unlinked

        def uncover(c: int) -> None:
            i = up[c]
            while i != c:
                for j in others_reversed[i]:
                    size[col[j]] += 1
                    down[up[j]] = j
                    up[down[j]] = j
                i = up[i]
            left[right[c]] = c
            right[left[c]] = c

        # Each pass either descends (choose a column, try its first row) or, when the matrix is
        # empty (a solution) or has a column no row can cover (a dead end), backtracks to the
        # next row of the deepest column that still has one.
        while True:
            descend = False
            if right[0] == 0:
                search.solutions.append(self._grid(chosen))
                if limit is not None and len(search.solutions) >= limit:
                    break
            else:
                c = right[0]
                fewest = size[c]
                j = right[c]
                if weights is None:
                    while j and fewest > 1:
                        if size[j] < fewest:
                            c, fewest = j, size[j]
                        j = right[j]
                else:
                    weight = 1 + weights[c]
                    while j and fewest > 1:
                        here = size[j]
                        if here < 2 or here * weight < fewest * (1 + weights[j]):
                            c, fewest, weight = j, here, 1 + weights[j]
                        j = right[j]
                    if not fewest:
                        weights[c] += 1
                if fewest:
                    updates += cover(c)
                    r = down[c]
                    chosen.append(r)
                    for j in others[r]:
                        updates += cover(col[j])
                    nodes += 1
                    descend = True
            while not descend and chosen:  # backtrack
                r = chosen.pop()
                for j in others_reversed[r]:
                    uncover(col[j])
                c = col[r]
                r = down[r]
                if r == c:
                    uncover(c)
                    continue
                chosen.append(r)
                for j in others[r]:
                    updates += cover(col[j])
                nodes += 1
                descend = True
            if not descend:
                search.exhausted = True
                break
            clock -= 1
            if not clock:
                clock = CLOCK_EVERY
                if deadline is not None and time.perf_counter() >= deadline:
                    search.timed_out = True
                    break
        search.stats = {"nodes": nodes, "updates": updates}
        return search

    def _grid(self, chosen: list[int]) -> tuple[int, ...]:
        grid = list(self.grid)
        for node in chosen:
            cell, digit = self.row_names[self.row_of[node]]
            grid[cell] = digit
        return tuple(grid)
