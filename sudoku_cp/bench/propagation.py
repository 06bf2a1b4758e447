"""Propagation without search: what each level of inference decides on its own.

Two families, each implemented here once (the backends and the validator share nothing with it):

Constraint propagation over a puzzle's groups (every group an AllDifferent; candidates are bit
masks, bit ``d-1`` for digit ``d``), from weakest to strongest:

- ``fc``: forward checking on the binary ≠ decomposition, run to its fixpoint — a cell with one
  candidate left removes it from its peers (this is "naked singles");
- ``singles``: ``fc`` plus hidden singles (a digit with one place left in a group of N cells);
- ``gac``: generalised arc consistency on each AllDifferent by Régin's matching method (a
  maximum matching of cells to digits; an edge stays when it is matched, lies on an even
  alternating cycle — both ends in one strongly connected component — or on an even alternating
  path from a free digit), run over all groups to their common fixpoint. It implies ``singles``
  and every naked and hidden subset inside one group;
- ``sac``: singleton arc consistency on top of ``gac`` (SAC-1, "shaving"): a candidate is
  removed when placing it and restoring GAC empties a cell, until no candidate fails.

Each returns :class:`Propagated`: ``solved`` (every cell one candidate: the only possible grid),
``refuted`` (a cell or group emptied: no solution) or ``open``. They read the groups only, so
they apply to puzzles whose model has no rules beyond groups (classic, jigsaw, diagonals,
windows …); :func:`groups_only` says which.

CNF encodings of classic Sudoku (any box shape), variable ``cell*N + d`` as in
:mod:`sudoku_cp.certify.cnf`, after Lynce & Ouaknine, "Sudoku as a SAT problem" (ISAIM 2006)
and Kwon & Jain, "Optimized CNF encoding for Sudoku puzzles" (LPAR 2006), and beside tdoku's four
minisat representations (t-dillon/tdoku, other/other_minisat.cc, ``SolverMiniSat``):

- ``minimal``: each cell holds at least one digit; each row, column and box holds each digit at
  most once (tdoku's ``minimal``);
- ``efficient``: ``minimal`` plus each cell holds at most one digit (tdoku's ``natural``);
- ``extended``: ``efficient`` plus each row, column and box holds each digit at least once —
  every cell and group exactly-one (tdoku's ``complete``);
- ``redundant``: ``extended`` plus triads, the redundant clauses that make unit propagation see
  locked candidates: for each digit and each intersection of a row (column) with a box, a
  variable that is true exactly when the digit lies in the intersection, and "exactly one
  triad per row (column) and per box" over them. tdoku's ``augmented`` has the same triads but
  drops the group clauses they imply; here they stay.

:class:`CnfProbe` runs unit propagation and failed-literal probing on a formula (PySAT's
``propagate`` on a solver that never searches, so no learnt clause adds strength);
:class:`CnfCounter` counts solutions to two by CDCL (minisat 2.2 through PySAT), as tdoku's
benchmark does.

>>> from sudoku_cp.puzzle import Puzzle
>>> p = Puzzle([1, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
>>> [propagate(p, level).outcome for level in LEVELS]
['open', 'open', 'open', 'open']
"""

from __future__ import annotations

import functools
import itertools
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..model import Model
from ..puzzle import Puzzle
from ..stopping import solver_interrupts

LEVELS = ("fc", "singles", "gac", "sac")
ENCODINGS = ("minimal", "efficient", "extended", "redundant")
CERTIFICATE = "certificate"
"""The certificate encoder's CNF (:mod:`sudoku_cp.certify.cnf`): the encoding of every puzzle
that is not classic (its rules included)."""
CNF_METHODS = ("up", "failed-literals", "cdcl")

SOLVED, REFUTED, OPEN, TIMEOUT = "solved", "refuted", "open", "timeout"
DECIDED = (SOLVED, REFUTED)

Clause = tuple[int, ...]


class Timeout(Exception):
    """A level ran past its deadline."""


@dataclass(frozen=True)
class Propagated:
    """What a level left: its outcome, the grid when solved, and the candidates left beyond
    one per cell (0 when solved; -1 when refuted or timed out)."""

    outcome: str
    grid: tuple[int, ...] | None = None
    left: int = -1


# --- constraint propagation ------------------------------------------------------------------
@dataclass(frozen=True)
class _Layout:
    size: int
    full: int
    groups: tuple[tuple[int, ...], ...]
    whole: tuple[bool, ...]
    """Per group: it has N cells, so it holds every digit (hidden singles apply)."""
    peers: tuple[tuple[int, ...], ...]
    groups_of: tuple[tuple[int, ...], ...]


@functools.lru_cache(maxsize=32)
def _layout(model: Model, size: int) -> _Layout:
    groups = model.groups(size)
    groups_of: list[list[int]] = [[] for _ in range(size * size)]
    for g, group in enumerate(groups):
        for cell in group:
            groups_of[cell].append(g)
    return _Layout(
        size,
        (1 << size) - 1,
        groups,
        tuple(len(group) == size for group in groups),
        model.peers(size),
        tuple(map(tuple, groups_of)),
    )


def groups_only(puzzle: Puzzle) -> bool:
    """Whether the puzzle's rules are its groups alone (what the levels read)."""
    return not puzzle.model.rules


def propagate(puzzle: Puzzle, level: str, deadline: float | None = None) -> Propagated:
    """Run ``level`` (one of :data:`LEVELS`) on the puzzle's givens; past ``deadline`` (a
    ``time.perf_counter`` value) raise :class:`Timeout`."""
    if level not in LEVELS:
        raise InputError(f"unknown propagation level {level!r} (levels: {', '.join(LEVELS)})")
    if not groups_only(puzzle):
        raise InputError(
            f"the propagation levels read groups only, and this puzzle has other rules "
            f"({', '.join(sorted(puzzle.model.rule_keys))})"
        )
    lay = _layout(puzzle.model, puzzle.size)
    doms = [lay.full if d == 0 else 1 << (d - 1) for d in puzzle.cells]
    fixed = [cell for cell, d in enumerate(puzzle.cells) if d]
    if level == "fc":
        ok = _fc(doms, lay, fixed)
    elif level == "singles":
        ok = _singles(doms, lay, fixed)
    elif level == "gac":
        ok = _gac(doms, lay, range(len(lay.groups)))
    else:
        ok = _sac(doms, lay, deadline)
    if not ok:
        return Propagated(REFUTED)
    left = sum(d.bit_count() for d in doms) - len(doms)
    if left:
        return Propagated(OPEN, None, left)
    return Propagated(SOLVED, tuple(d.bit_length() for d in doms), 0)


def candidates(puzzle: Puzzle, level: str) -> list[int] | None:
    """The candidate masks ``level`` leaves (None when it refutes the puzzle): for tests and
    for reading what a level removed."""
    lay = _layout(puzzle.model, puzzle.size)
    doms = [lay.full if d == 0 else 1 << (d - 1) for d in puzzle.cells]
    fixed = [cell for cell, d in enumerate(puzzle.cells) if d]
    run = {
        "fc": lambda: _fc(doms, lay, fixed),
        "singles": lambda: _singles(doms, lay, fixed),
        "gac": lambda: _gac(doms, lay, range(len(lay.groups))),
        "sac": lambda: _sac(doms, lay, None),
    }[level]
    return doms if run() else None


def alldifferent_gac(domains: Sequence[set[int]]) -> list[set[int]] | None:
    """GAC on one AllDifferent over cells with these candidate digits (1-based): the narrowed
    candidates, or None when the cells cannot all differ.

    >>> alldifferent_gac([{1, 2}, {1, 2}, {1, 2, 3}])
    [{1, 2}, {1, 2}, {3}]
    """
    doms = [sum(1 << (d - 1) for d in ds) for ds in domains]
    if _regin(doms, range(len(doms))) is None:
        return None
    return [{b + 1 for b in range(d.bit_length()) if d >> b & 1} for d in doms]


def _fc(doms: list[int], lay: _Layout, queue: list[int]) -> bool:
    """Each fixed cell's digit out of its peers, to the fixpoint; False when a cell empties."""
    peers = lay.peers
    while queue:
        cell = queue.pop()
        bit = doms[cell]
        for peer in peers[cell]:
            d = doms[peer]
            if d & bit:
                d &= ~bit
                if not d:
                    return False
                doms[peer] = d
                if not d & (d - 1):
                    queue.append(peer)
    return True


def _singles(doms: list[int], lay: _Layout, queue: list[int]) -> bool:
    """Naked singles (``_fc``) and hidden singles, to their common fixpoint."""
    full = lay.full
    while True:
        if not _fc(doms, lay, queue):
            return False
        for group, whole in zip(lay.groups, lay.whole, strict=True):
            if not whole:
                continue
            once = twice = 0
            for cell in group:
                d = doms[cell]
                twice |= once & d
                once |= d
            if once != full:
                return False  # a digit has no place left in the group
            hidden = once & ~twice
            if not hidden:
                continue
            for cell in group:
                d = doms[cell]
                h = d & hidden
                if h and d != h:
                    if h & (h - 1):
                        return False  # two digits that must both go in this one cell
                    doms[cell] = h
                    queue.append(cell)
        if not queue:
            return True


def _gac(doms: list[int], lay: _Layout, start: Sequence[int] | range) -> bool:
    """GAC on every AllDifferent, from the groups in ``start``, to the common fixpoint."""
    queue = list(start)
    waiting = [False] * len(lay.groups)
    for g in queue:
        waiting[g] = True
    groups, groups_of = lay.groups, lay.groups_of
    while queue:
        g = queue.pop()
        waiting[g] = False
        changed = _regin(doms, groups[g])
        if changed is None:
            return False
        for cell in changed:
            for other in groups_of[cell]:
                if not waiting[other] and other != g:
                    waiting[other] = True
                    queue.append(other)
    return True


def _regin(doms: list[int], cells: Sequence[int]) -> list[int] | None:
    """Régin's filter for one AllDifferent over ``cells``: the cells it narrowed, or None when
    no matching covers every cell (the constraint cannot hold)."""
    k = len(cells)
    ds = [doms[c] for c in cells]
    mate = [0] * k  # the digit bit each cell is matched to
    owner: dict[int, int] = {}  # digit bit -> its matched cell (local index)
    used = 0
    for i, d in enumerate(ds):
        free = d & ~used
        if free:
            bit = free & -free
            mate[i] = bit
            owner[bit] = i
            used |= bit
    for i in range(k):
        if not mate[i]:
            seen = [0]
            if not _augment(i, ds, mate, owner, seen):
                return None
            used = 0
            for bit in mate:
                used |= bit
    union = 0
    for d in ds:
        union |= d
    # Digits reachable from a free digit by alternating paths (free digit -> a cell holding it
    # as a candidate -> that cell's matched digit -> …): their edges are all consistent.
    reach_digits = frontier = union & ~used
    reached_cells = 0
    while frontier:
        new = 0
        for i in range(k):
            if not reached_cells >> i & 1 and ds[i] & frontier:
                reached_cells |= 1 << i
                new |= mate[i]
        frontier = new & ~reach_digits
        reach_digits |= frontier
    # The matching graph contracted on cells: i -> j when j has i's matched digit. Two cells in
    # one strongly connected component lie on an even alternating cycle.
    reach = [0] * k
    for i in range(k):
        bit = mate[i]
        row = 0
        for j in range(k):
            if j != i and ds[j] & bit:
                row |= 1 << j
        reach[i] = row
    for m in range(k):  # transitive closure (Warshall, rows as bit masks)
        bm, rm = 1 << m, reach[m]
        for i in range(k):
            if reach[i] & bm:
                reach[i] |= rm
    changed: list[int] = []
    for j in range(k):
        d = ds[j]
        keep = mate[j] | (d & reach_digits)
        rest = d & ~keep
        while rest:
            bit = rest & -rest
            rest ^= bit
            i = owner[bit]
            if reach[i] >> j & 1 and reach[j] >> i & 1:
                keep |= bit
        if keep != d:
            doms[cells[j]] = keep
            changed.append(cells[j])
    return changed


def _augment(
    i: int, ds: list[int], mate: list[int], owner: dict[int, int], seen: list[int]
) -> bool:
    """An augmenting path from unmatched cell ``i`` (Kuhn's method); True when found."""
    options = ds[i] & ~seen[0]
    while options:
        bit = options & -options
        options ^= bit
        seen[0] |= bit
        j = owner.get(bit)
        if j is None or _augment(j, ds, mate, owner, seen):
            mate[i] = bit
            owner[bit] = i
            return True
    return False


def _sac(doms: list[int], lay: _Layout, deadline: float | None) -> bool:
    """GAC, then SAC-1: try each candidate of each open cell; one whose placement GAC refutes
    is removed (and GAC restored), until a whole sweep removes nothing."""
    if not _gac(doms, lay, range(len(lay.groups))):
        return False
    clock = time.perf_counter
    changed = True
    while changed:
        changed = False
        for cell in range(len(doms)):
            options = doms[cell]
            if not options & (options - 1):
                continue
            while options:
                bit = options & -options
                options ^= bit
                if not doms[cell] & bit:
                    continue
                if deadline is not None and clock() > deadline:
                    raise Timeout
                trial = doms[:]
                trial[cell] = bit
                if _gac(trial, lay, lay.groups_of[cell]):
                    continue
                doms[cell] &= ~bit
                if not doms[cell] or not _gac(doms, lay, lay.groups_of[cell]):
                    return False
                changed = True
    return True


# --- CNF encodings of classic Sudoku ---------------------------------------------------------
def classic_box(puzzle: Puzzle) -> tuple[int, int] | None:
    """The box shape (rows, columns) when the puzzle is classic Sudoku — its groups exactly the
    rows, columns and boxes, no other rule — else None (the encodings are for classic only)."""
    model, n = puzzle.model, puzzle.size
    box = model.box_for(n)
    if model.rules or box is None:
        return None
    rows, cols, boxes = _houses(n, box)
    if set(model.groups(n)) != {*rows, *cols, *boxes}:
        return None
    return box


def _houses(
    n: int, box: tuple[int, int]
) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[tuple[int, ...]]]:
    h, w = box
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    boxes = [
        tuple(sorted((br + r) * n + bc + c for r in range(h) for c in range(w)))
        for br in range(0, n, h)
        for bc in range(0, n, w)
    ]
    return rows, cols, boxes


@functools.lru_cache(maxsize=16)
def encode_classic(encoding: str, n: int, box: tuple[int, int]) -> tuple[int, tuple[Clause, ...]]:
    """The clauses of ``encoding`` for an N×N classic grid with ``box`` boxes (givens not
    included: they are assumptions), and the number of variables."""
    if encoding not in ENCODINGS:
        raise InputError(f"unknown encoding {encoding!r} (encodings: {', '.join(ENCODINGS)})")

    def x(cell: int, d: int) -> int:
        return cell * n + d

    digits = range(1, n + 1)
    rows, cols, boxes = _houses(n, box)
    out: list[Clause] = []
    for cell in range(n * n):
        out.append(tuple(x(cell, d) for d in digits))  # cell definedness
        if encoding != "minimal":  # cell uniqueness
            out += [(-x(cell, a), -x(cell, b)) for a, b in itertools.combinations(digits, 2)]
    for group in (*rows, *cols, *boxes):
        for d in digits:
            out += [(-x(a, d), -x(b, d)) for a, b in itertools.combinations(group, 2)]
            if encoding in ("extended", "redundant"):  # group definedness
                out.append(tuple(x(cell, d) for cell in group))
    variables = n * n * n
    if encoding == "redundant":
        variables, triads = _triads(n, rows, cols, boxes, variables)
        out += triads
    return variables, tuple(out)


def _triads(
    n: int,
    rows: list[tuple[int, ...]],
    cols: list[tuple[int, ...]],
    boxes: list[tuple[int, ...]],
    top: int,
) -> tuple[int, list[Clause]]:
    """Triad variables and clauses: per digit, one per row-box (column-box) intersection, true
    exactly when the digit lies there; exactly one triad per line and per box."""
    out: list[Clause] = []
    for lines in (rows, cols):
        per_line: dict[int, list[tuple[int, int]]] = {}  # line -> (box, triad base)
        per_box: dict[int, list[int]] = {}
        for li, line in enumerate(lines):
            for bi, bx in enumerate(boxes):
                part = sorted(set(line) & set(bx))
                if len(part) < 2:
                    continue
                base = top
                top += n
                per_line.setdefault(li, []).append((bi, base))
                per_box.setdefault(bi, []).append(base)
                for d in range(1, n + 1):
                    t = base + d
                    lits = [cell * n + d for cell in part]
                    out.append((-t, *lits))  # the triad holds d only if a cell does
                    out += [(-lit, t) for lit in lits]
        for bases in [[b for _, b in v] for v in per_line.values()] + list(per_box.values()):
            for d in range(1, n + 1):
                ts = [b + d for b in bases]
                out.append(tuple(ts))
                out += [(-a, -b) for a, b in itertools.combinations(ts, 2)]
    return top, out


def grid_of(literals: Sequence[int], n: int) -> tuple[int, ...] | None:
    """The grid the true cell literals fix, when each cell has exactly one; else None."""
    grid = [0] * (n * n)
    cells = n * n * n
    for lit in literals:
        if 0 < lit <= cells:
            cell, d = divmod(lit - 1, n)
            if grid[cell]:
                return None
            grid[cell] = d + 1
    return tuple(grid) if all(grid) else None


def _solver(clauses: Sequence[Clause]) -> Any:
    from pysat.solvers import Solver

    return Solver(name="minisat22", bootstrap_with=[list(c) for c in clauses])


class CnfProbe:
    """Unit propagation and failed literals on one formula: a PySAT solver kept for its
    ``propagate`` only (it never searches, so it never learns a clause)."""

    def __init__(self, variables: int, clauses: Sequence[Clause], n: int) -> None:
        self.variables = variables
        self.n = n
        self.solver = _solver(clauses)

    def close(self) -> None:
        self.solver.delete()

    def _outcome(self, ok: bool, literals: Sequence[int]) -> Propagated:
        if not ok:
            return Propagated(REFUTED)
        grid = grid_of(literals, self.n)
        if grid is not None:
            return Propagated(SOLVED, grid, 0)
        cells = self.n**3
        known = sum(1 for lit in literals if abs(lit) <= cells)
        return Propagated(OPEN, None, cells - known)

    def up(self, assumptions: Sequence[int]) -> Propagated:
        """What unit propagation from ``assumptions`` (the givens) decides."""
        ok, literals = self.solver.propagate(assumptions=list(assumptions))
        return self._outcome(ok, literals)

    def failed_literals(
        self, assumptions: Sequence[int], deadline: float | None = None
    ) -> Propagated:
        """Unit propagation plus failed literals: a literal whose propagation conflicts is set
        false, over every variable in both polarities, until a whole sweep finds none. A literal
        implied by a successful probe in the same state is not probed (its propagation is a
        subset of that probe's, so it cannot fail)."""
        propagate = self.solver.propagate
        assumed = list(assumptions)
        ok, literals = propagate(assumptions=assumed)
        clock = time.perf_counter
        found = ok
        while ok and found:
            found = False
            known = set(literals)
            dominated: set[int] = set()
            for v in range(1, self.variables + 1):
                if v in known or -v in known:
                    continue
                for lit in (v, -v):
                    if lit in dominated:
                        continue
                    if deadline is not None and clock() > deadline:
                        raise Timeout
                    fine, implied = propagate(assumptions=[*assumed, lit])
                    if fine:
                        dominated.update(implied)
                        continue
                    assumed.append(-lit)
                    ok, literals = propagate(assumptions=assumed)
                    if not ok:
                        return Propagated(REFUTED)
                    known = set(literals)
                    dominated = set()
                    found = True
                    break
        return self._outcome(ok, literals)


class CnfCounter:
    """Counting solutions to two by CDCL on one formula (minisat 2.2), the givens as
    assumptions; as tdoku's benchmark does (other/other_minisat.cc, ``SatCount``), each blocking
    clause is switched on by a fresh variable, and the solver is rebuilt after 20 counts."""

    REBUILD = 20

    def __init__(self, variables: int, clauses: Sequence[Clause], n: int) -> None:
        self.variables, self.clauses, self.n = variables, clauses, n
        self.solver: Any = None
        self.counts = 0
        self.top = variables

    def rebuild_if_due(self) -> None:
        """A fresh solver when none is held or 20 counts have passed (not timed: loading)."""
        if self.solver is None or self.counts >= self.REBUILD:
            self.close()
            self.solver = _solver(self.clauses)
            self.counts = 0
            self.top = self.variables

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def count(
        self, assumptions: Sequence[int], deadline: float | None = None
    ) -> tuple[int, tuple[int, ...] | None]:
        """Solutions up to two, and the first one's grid; past ``deadline`` (a
        ``time.perf_counter`` value) the solver is interrupted and :class:`Timeout` raised."""
        self.counts += 1
        if not self._solve(list(assumptions), deadline):
            return 0, None
        grid = grid_of([lit for lit in self.solver.get_model() if lit > 0], self.n)
        if grid is None:
            raise RuntimeError("the solver's model places no digit in some cell")
        self.top += 1
        switch = self.top
        n = self.n
        blocking = [-(cell * n + d) for cell, d in enumerate(grid)]
        self.solver.add_clause([-switch, *blocking])
        try:
            second = self._solve([*assumptions, switch], deadline)
        finally:
            self.solver.add_clause([-switch])  # the blocking clause off for good
        return (2 if second else 1), grid

    @solver_interrupts()
    def _solve(self, assumptions: list[int], deadline: float | None) -> bool:
        solver = self.solver
        if deadline is None:
            return bool(solver.solve(assumptions=assumptions))
        left = deadline - time.perf_counter()
        if left <= 0:
            raise Timeout
        # minisat stops at the next restart check once interrupted; solve_limited releases the
        # interpreter while it runs, so the timer's thread gets to interrupt it.
        timer = threading.Timer(left, solver.interrupt)
        timer.start()
        try:
            result = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
            solver.clear_interrupt()
        if result is None:
            raise Timeout
        return bool(result)


def given_literals(puzzle: Puzzle) -> list[int]:
    """The givens as literals (variable ``cell*N + d``)."""
    n = puzzle.size
    return [cell * n + d for cell, d in enumerate(puzzle.cells) if d]
