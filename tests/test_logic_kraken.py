"""Kraken Fish Type 1 and Type 2 (sudoku_cp.logic.kraken).

Evidence (HoDoKu's regression library has no Kraken case, so the meaning is checked from the
definitions, read in hobiwan's HoDoKu, ``src/solver/FishSolver.java`` ``searchForKraken`` and
``src/solver/TablingSolver.java`` ``checkKrakenTypeOne``/``checkKrakenTypeTwo``):
- soundness: on real hard board states (bundled top1465 puzzles solved by the default
  techniques up to the plain chains, HoDoKu's order up to AIC, where they stall; and thinned
  candidate grids of top1465 and forum-hardest puzzles) every step removes no solution digit;
- structure, checked from the board alone: the step's base and cover units form a finned basic
  or Franken fish of 2 to 4 units with one or two fins and no endo fin, whose fins remove
  nothing (no cell the unfinned fish would remove sees every fin) — the premise of a Kraken;
- the chains, checked by a plain breadth-first search over the board's links written here from
  the definitions (strong: a digit's only two places in a group, a bivalue cell's two digits, a
  group node and the rest of its digit's places in a group; weak: one digit in two cells that
  see each other, two digits of one cell, a group node and what sees all of its cells): Type 1's
  candidate is reached false from every fin, Type 2's from every member of its set;
- the fish the search starts from are every such fish (a brute force over all unit sets).
"""

from __future__ import annotations

import random
import re
from collections import deque
from functools import cache
from itertools import combinations, islice

import pytest
from logic_driver import check_step, puzzle_of, read_csv, solutions, thinned

from sudoku_cp.logic import kraken
from sudoku_cp.logic.board import Board, every_step
from sudoku_cp.logic.complex_fish import FRANKEN, fish_on
from sudoku_cp.logic.rating import TECHNIQUE_RATING
from sudoku_cp.logic.solver import TECHNIQUES, solve_logically
from sudoku_cp.logic.steps import Step
from tools.perf.reglib import finder

KRAKEN_1, KRAKEN_2 = "Kraken Fish Type 1", "Kraken Fish Type 2"
BY_NAME = {name: find for _, name, find in kraken.TECHNIQUES}

# top1465 puzzles whose stalled states (default techniques up to AIC) hold Kraken fish of both
# types (found by running the search on the first 25 puzzles of the file: 12 of the 13 that
# stall have some; the steps are checked below, not their number).
STALLED = ["top1465#1", "top1465#29", "top1465#141", "top1465#295", "top1465#337"]


def _stalled(ident: str) -> tuple[Board, tuple[int, ...]]:
    row = next(r for r in read_csv("top1465.csv", 25) if r["id"] == ident)
    puzzle = puzzle_of(row)
    (solution,) = solutions(puzzle)
    chosen = [e.find for e in TECHNIQUES if not e.rules and e.order <= 5602]
    trace = solve_logically(puzzle, uniqueness=False, techniques=chosen)
    assert trace.outcome == "stalled"
    board = Board(puzzle)
    for step in trace.steps:
        board.apply(step)
    return board, solution


# --- an independent reading of the board ---------------------------------------------------
Node = tuple[frozenset[int], int]  # cells, digit: true when one of the cells holds the digit


class Links:
    """The board's chain nodes and links, from the definitions (no code of the library's)."""

    def __init__(self, board: Board, groups: bool = True) -> None:
        self.board = board
        self.full = [frozenset(g) for g in board.groups if len(g) == board.size]
        self.peers = [frozenset(p) for p in board.peers]
        self.nodes: dict[int, set[Node]] = {d: set() for d in range(1, board.size + 1)}
        for cell in range(board.size * board.size):
            for d in self.digits(cell):
                self.nodes[d].add((frozenset({cell}), d))
        if groups:  # a digit's places where a line and a box meet, two or more
            for a, b in combinations(self.full, 2):
                common = a & b
                if len(common) < 2:
                    continue
                for d in range(1, board.size + 1):
                    places = frozenset(c for c in common if self.has(c, d))
                    if len(places) >= 2:
                        self.nodes[d].add((places, d))

    def has(self, cell: int, digit: int) -> bool:
        return not self.board.values[cell] and self.board.has(cell, digit)

    def digits(self, cell: int) -> list[int]:
        return [d for d in range(1, self.board.size + 1) if self.has(cell, d)]

    def sees(self, a: frozenset[int], b: frozenset[int]) -> bool:
        return not a & b and all(y in self.peers[x] for x in a for y in b)

    def after(self, node: Node, true: bool) -> list[tuple[Node, bool]]:
        cells, d = node
        out: list[tuple[Node, bool]] = []
        if true:  # weak links: not both
            out += [(m, False) for m in self.nodes[d] if self.sees(cells, m[0])]
            if len(cells) == 1:
                (cell,) = cells
                out += [((cells, e), False) for e in self.digits(cell) if e != d]
            return out
        # strong links: at least one
        for house in self.full:
            if cells <= house:
                rest = frozenset(c for c in house if self.has(c, d)) - cells
                if rest and (rest, d) in self.nodes[d]:
                    out.append(((rest, d), True))
        if len(cells) == 1:
            (cell,) = cells
            others = [e for e in self.digits(cell) if e != d]
            if len(others) == 1:
                out.append(((cells, others[0]), True))
        return out

    @cache  # noqa: B019 (a few boards per test)
    def false_from(self, cell: int, digit: int) -> frozenset[tuple[int, int]]:
        """The candidates "``digit`` in ``cell``" implies false."""
        start = ((frozenset({cell}), digit), True)
        seen = {start}
        queue = deque([start])
        while queue:
            node, true = queue.popleft()
            for nxt in self.after(node, true):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return frozenset((next(iter(n[0])), n[1]) for n, t in seen if not t and len(n[0]) == 1)


def _kind(board: Board, group: int) -> str:
    """Row, column or box (any other full group: a jigsaw region)."""
    kind = board.puzzle.model.group_labels(board.size)[group].split()[0]
    return kind if kind in ("row", "column") else "box"


def _fish_of(board: Board, step: Step) -> tuple[int, list[frozenset[int]], list[frozenset[int]]]:
    """The step's digit (its text names it) and its base and cover units' cells of it."""
    match = re.search(r" on (\d+) with base ", step.text)
    assert match, step.text
    digit = int(match.group(1))
    n = len(step.groups) // 2
    assert len(step.groups) == 2 * n and 2 <= n <= 4
    cells = [
        frozenset(c for c in board.groups[g] if not board.values[c] and board.has(c, digit))
        for g in step.groups
    ]
    base_kinds = {_kind(board, g) for g in step.groups[:n]}
    cover_kinds = {_kind(board, g) for g in step.groups[n:]}
    # basic or Franken: rows (and boxes) against columns (and boxes), or the other way round
    assert (base_kinds <= {"row", "box"} and cover_kinds <= {"column", "box"}) or (
        base_kinds <= {"column", "box"} and cover_kinds <= {"row", "box"}
    ), step.text
    assert not set(step.groups[:n]) & set(step.groups[n:])
    return digit, cells[:n], cells[n:]


def _check(board: Board, links: Links, step: Step) -> None:
    """The step's fish is a Kraken's premise and its elimination follows from every member."""
    digit, base, cover = _fish_of(board, step)
    union = frozenset().union(*base)
    assert sum(len(b) for b in base) == len(union), "endo fins"
    covered = frozenset().union(*cover)
    fins = union - covered
    assert 1 <= len(fins) <= 2, step.text
    cannibal = frozenset(c for c in union if sum(c in u for u in cover) >= 2)
    would = (covered - union) | cannibal
    assert would, "the unfinned fish removes nothing"
    assert not [c for c in would if all(c in links.peers[f] for f in fins)], "fins remove"
    ((cell, gone),) = step.eliminations
    if step.technique == KRAKEN_1:
        assert gone == digit and cell in would
        for fin in fins:
            assert (cell, gone) in links.false_from(fin, digit), (fin, step.text)
        return
    assert step.technique == KRAKEN_2
    sets = []
    for unit in cover:
        members = (unit & union) - cannibal
        if members != unit:  # a unit of base candidates only is a forcing chain's
            sets.append(members | fins)
    assert any(
        cell not in chosen and all((cell, gone) in links.false_from(c, digit) for c in chosen)
        for chosen in sets
    ), step.text


# --- tests -----------------------------------------------------------------------------------
def test_listed_off_in_the_solver_rated_and_found_by_reglib() -> None:
    """HoDoKu's StepConfig 8450 KRAKEN_FISH (Extreme, 500, off in its solver); reglib's
    0371/0372 names (tools/perf/reglib.py) find the searches."""
    assert [(order, name) for order, name, _ in kraken.TECHNIQUES] == [
        (8450, KRAKEN_1),
        (8451, KRAKEN_2),
    ]
    assert not {KRAKEN_1, KRAKEN_2} & {e.name for e in TECHNIQUES}
    for name in (KRAKEN_1, KRAKEN_2):
        assert TECHNIQUE_RATING[name] == ("Extreme", 500)
        found = finder(name)
        assert found is not None and found[0] is BY_NAME[name] and found[1] == {name}


@pytest.mark.parametrize("ident", STALLED)
def test_steps_on_stalled_states(ident: str) -> None:
    """Every step on the state where the default techniques up to AIC stall: sound, a Kraken
    premise, its chains confirmed by the plain search; both types among them."""
    board, solution = _stalled(ident)
    links = Links(board)
    found = 0
    for find in BY_NAME.values():
        for step in every_step(find, board):
            check_step(board, step, solution)
            _check(board, links, step)
            found += 1
    assert found, ident


def test_both_types_occur_on_real_states() -> None:
    """Type 1 and Type 2 both on top1465#29's and #141's stalled states (cited in STALLED)."""
    for ident in ("top1465#29", "top1465#141"):
        board, solution = _stalled(ident)
        links = Links(board)
        for name, find in BY_NAME.items():
            step = next(every_step(find, board), None)
            assert step is not None, (ident, name)
            check_step(board, step, solution)
            _check(board, links, step)


@pytest.mark.parametrize(("file", "count"), [("top1465.csv", 6), ("forum-hardest.csv", 4)])
def test_thinned_states(file: str, count: int) -> None:
    rng = random.Random(30)
    found: dict[str, int] = {KRAKEN_1: 0, KRAKEN_2: 0}
    for row in read_csv(file, count):
        puzzle = puzzle_of(row)
        (solution,) = solutions(puzzle)
        board = thinned(puzzle, solution, rng)
        links = Links(board)
        for name, find in BY_NAME.items():
            for step in islice(every_step(find, board), 40):
                check_step(board, step, solution)
                _check(board, links, step)
                found[name] += 1
    assert all(found.values()), found


def test_step_text_names_fish_and_chains() -> None:
    board, _ = _stalled("top1465#29")
    for find in BY_NAME.values():
        step = next(every_step(find, board))
        digit, base, cover = _fish_of(board, step)
        labels = board.puzzle.model.group_labels(9)
        for g in step.groups:
            assert labels[g] in step.text
        fins = frozenset().union(*base) - frozenset().union(*cover)
        for fin in fins:  # each fin's chain starts from it
            assert f"{digit}{board.name(fin)}-" in step.text
        assert step.links and all(link.start[0] >= 0 for link in step.links)
        assert {(f, digit) for f in fins} <= set(step.proof)
        ((cell, gone),) = step.eliminations
        assert step.text.endswith(f"so {gone} leaves {board.name(cell)}.")


def _brute_force(board: Board, digit: int, n: int) -> set[tuple[frozenset[int], ...]]:
    """Every finned basic or Franken fish of n units on ``digit`` with one or two fins, no
    endo fin, whose fins remove nothing while the unfinned fish would remove something — over
    all unit sets (cover units meeting the base, HoDoKu's ``searchCoverUnits``)."""
    links = Links(board, groups=False)
    units = {}
    for g, group in enumerate(board.groups):
        cells = frozenset(c for c in group if links.has(c, digit))
        if cells:
            units[g] = (_kind(board, g), cells)
    out = set()
    lines = ({"row", "box"}, {"column", "box"})
    for base_kinds, cover_kinds in (lines, lines[::-1]):
        bases = [g for g, (k, _) in units.items() if k in base_kinds]
        covers = [g for g, (k, _) in units.items() if k in cover_kinds]
        for base in combinations(bases, n):
            parts = [units[g][1] for g in base]
            union = frozenset().union(*parts)
            if sum(map(len, parts)) != len(union):
                continue
            usable = [g for g in covers if g not in base and units[g][1] & union]
            for cover in combinations(usable, n):
                covered = frozenset().union(*(units[g][1] for g in cover))
                fins = union - covered
                if not 1 <= len(fins) <= 2:
                    continue
                cannibal = {c for c in union if sum(c in units[g][1] for g in cover) >= 2}
                would = (covered - union) | cannibal
                if would and not [c for c in would if all(c in links.peers[f] for f in fins)]:
                    out.add((frozenset(base), frozenset(cover)))
    return out


@pytest.mark.parametrize("state", ["stalled", "thinned"])
def test_fish_are_every_kraken_premise(state: str) -> None:
    """complex_fish's kraken search finds exactly the fish a brute force finds (every digit
    at size 2, two digits at sizes 3 and 4) on top1465#29's stalled state and on a thinned grid."""
    if state == "stalled":
        board, _ = _stalled("top1465#29")
    else:
        row = read_csv("top1465.csv", 1)[0]
        puzzle = puzzle_of(row)
        (solution,) = solutions(puzzle)
        board = thinned(puzzle, solution, random.Random(11))
    total = 0
    for digit in range(1, 10):
        for n in (2, 3, 4) if digit in (1, 8) else (2,):
            found = {
                (frozenset(u.group for u in f.base), frozenset(u.group for u in f.cover))
                for f in fish_on(board, digit, n, True, FRANKEN, kraken=True)
            }
            assert found == _brute_force(board, digit, n), (digit, n)
            total += len(found)
    assert total


def test_jigsaw_regions_are_boxes() -> None:
    """On a jigsaw grid the regions take the boxes' part: steps there hold too."""
    rng = random.Random(5)
    total = 0
    for row in read_csv("jigsaw.csv", 3):
        puzzle = puzzle_of(row)
        (solution,) = solutions(puzzle)
        board = thinned(puzzle, solution, rng)
        links = Links(board)
        for find in BY_NAME.values():
            for step in islice(every_step(find, board), 20):
                check_step(board, step, solution)
                _check(board, links, step)
                total += 1
    assert total


def test_solves_with_kraken_stay_sound() -> None:
    """Whole solves with both types right after the default techniques up to AIC (before the
    grouped chains, ALS steps and forcing chains that would take most of their states): every
    step holds in the solution, and every Kraken step is a Kraken from the board it was on."""
    chosen = [e.find for e in TECHNIQUES if not e.rules and e.order <= 5602]
    chosen += list(BY_NAME.values())
    used = 0
    for ident in ("top1465#29", "top1465#141", "top1465#295"):
        row = next(r for r in read_csv("top1465.csv", 25) if r["id"] == ident)
        puzzle = puzzle_of(row)
        (solution,) = solutions(puzzle)
        trace = solve_logically(puzzle, uniqueness=False, techniques=chosen)
        board = Board(puzzle)
        for step in trace.steps:
            check_step(board, step, solution)
            if step.technique in BY_NAME:
                _check(board, Links(board), step)
                used += 1
            board.apply(step)
    assert used


def test_the_fish_cap_cuts_the_search_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Past ``MAX_FISH`` fish on a digit the rest of the digit is not searched, and a warning
    says so (the cap is never reached on the bundled puzzles)."""
    board, _ = _stalled("top1465#29")
    monkeypatch.setattr(kraken, "MAX_FISH", 1)
    with caplog.at_level("WARNING", logger="sudoku_cp.logic.kraken"):
        list(every_step(kraken.kraken_fish_type_1, board))
    assert any("the rest are not searched" in r.getMessage() for r in caplog.records)
