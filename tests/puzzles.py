"""Puzzles and small oracles shared by the tests (``from puzzles import INKALA``).

Every helper that solves checks what comes back with ``Puzzle.is_solution``, the validator
that shares no code with any backend; counts come from the datasets or from the brute-force
counter here.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path
from typing import Any

from conftest import DATA

from sudoku_cp import Puzzle, Result, get_backend
from sudoku_cp.model import box_shape, load_model

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
"""Arto Inkala's 2012 "world's hardest Sudoku": unique, its solution is in famous.csv."""
# An easy puzzle with its one solution (the one the command-line tests solve).
KNOWN = "..48...1767.9.....5.8.3...43..74.1...69...78...1.69..51...8.3.6.....6.9124...15.."
KNOWN_SOLUTION = "934825617672914853518637924325748169469153782781269435197582346853476291246391578"
# Project Euler 96, grid 01: another easy unique puzzle (the harness tests' "easy" one).
EULER = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EULER_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
EULER_GRID = tuple(int(ch) for ch in EULER_SOLUTION)
SERG = "8.........95.......76.........426798...571243...893165......916....3.487....1.532"
"""serg's benchmark puzzle #1 (bundled multiple.csv): 872 solutions."""
WINDOKU = "..............5.1.....2...6......4....5...6...8...73.....214....7......2..6....4."
"""A hyper (windoku) puzzle: unique under model 'hyper'."""
FEW = "12.............."
"""A 4x4 puzzle with few solutions: every backend counts them all in milliseconds."""
FEW_COUNT = 24
"""The empty 4x4 grid's 288 solutions, by symmetry 288 / (4 * 3) with two digits fixed."""

# One of the minimal 25x25 puzzles of Alain Frisch's collection, as shipped in Gecode's examples
# (entry 26 of sudoku-instances.hh, via the shared datasets), the hardest of the public set here:
# sat proves it unique in about 40 s, backtrack's learning kernel in about 70 s, the others take
# minutes; no backend settles it in the fraction of a second the time-limit tests allow.
HARD_25X25 = (
    ".CNPHK.53.O9F..D.78..J...J.....F.DB...7.G..PAE...L.6.........5.4A......I..."
    "A..L.6.E.1JG....5.H.2...9..G4..P...E2N.M...C..FB.1..PKJ...G41O..C.N..H....."
    ".M..I5L97J.3H...E2.8...D.1.4..ON.83G.P.D59..C.BH....2.9.......4.F.3.6..O.7."
    "3F.7.MEC..5...2..4K.LN8.....I........MF7.6AOG..LE.C1.3..JG..D.9...4..N...68"
    "...M7L9..NHA...FJ.I..3.C..A...P...5...E3.8M..K4OFG.....C.6KIP...8..3.DJ...."
    ".2.J...3C..7.D.9A.EF6L...4...3.6N.....L9.H..P8...2.9.C.4H.......P....1..FJ3"
    ".LD.K87.1.BM5AJN....4H.G..B..MAI........47O.LD.....G....3....F..1..9..M..K6"
    "P7.A..B8.......2....I.3..M..O....9K2..6..1.N.FE.L.....E...A..N.J.IG8...C.9."
    "6KL.4...FCI.A.....5J.2D.N"
)


def no_solution_puzzle() -> str:
    """EULER with one more given that its only solution does not have: no solution at all,
    and no group repeats a given."""
    puzzle = Puzzle.parse(EULER)
    cells = list(puzzle.cells)
    for cell, given in enumerate(cells):
        if given:
            continue
        taken = {cells[peer] for peer in puzzle.peers()[cell]}
        for digit in range(1, 10):
            if digit != EULER_GRID[cell] and digit not in taken:
                cells[cell] = digit
                return Puzzle(cells).to_line()
    raise AssertionError("no cell to spoil")


def mixed_file(folder: Path) -> Path:
    """A CSV with every kind of record: unique, multiple, none, malformed, repeated given
    (ids easy, serg, nosol, short, twice, inkala; ``short`` is on line 5)."""
    path = folder / "mixed.csv"
    rows = [
        ("easy", EULER),
        ("serg", SERG),
        ("nosol", no_solution_puzzle()),
        ("short", "12345"),
        ("twice", "11" + "." * 79),
        ("inkala", INKALA),
    ]
    path.write_text("id,puzzle\n" + "".join(f"{i},{p}\n" for i, p in rows))
    return path


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def bundled(name: str, ids: tuple[str, ...] | None = None) -> list[dict[str, str]]:
    """Rows of a bundled sample (``sudoku_cp/data/NAME.csv``), only ``ids`` if given."""
    rows = read_csv(DATA / f"{name}.csv")
    return [r for r in rows if ids is None or r["id"] in ids]


EASY_LINES = [row["puzzle"] for row in read_csv(DATA / "easy.csv")]
"""The 100 puzzles of the bundled easy sample, in line form: each unique, each quick."""


def solve_checked(backend: str, puzzle: Puzzle, limit: int | None = 1, **kwargs: Any) -> Result:
    """Solve, then check what came back: valid, distinct solutions, within the limit."""
    result = get_backend(backend).solve(puzzle, limit=limit, **kwargs)
    for solution in result.solutions:
        assert puzzle.is_solution(solution), puzzle.problems_with(solution)
    assert len(set(result.solutions)) == result.count
    assert limit is None or result.count <= limit
    return result


def unique_from(solution: tuple[int, ...], n: int) -> list[int]:
    """The solution with one whole row and one whole column blanked: exactly one solution in
    any model.

    Every other row then misses one cell (forced by the row), which completes the blank column;
    the blank row's cells are then forced by their columns.
    """
    row, col = n // 2, n // 3
    return [0 if cell // n == row or cell % n == col else d for cell, d in enumerate(solution)]


def none_puzzle(n: int) -> list[int]:
    """Row 1 holds 2..n after a blank; 1 is given just below the blank: no digit fits it.

    No group repeats a given in any shipped model (row 1 has no 1; the 1 is on no diagonal and
    in no hyper window), so the puzzle is well formed and has no solution.
    """
    cells = [0] * (n * n)
    cells[1:n] = range(2, n + 1)
    cells[n] = 1
    return cells


def brute_force_count(puzzle: Puzzle) -> int:
    """Solutions of a small puzzle by plain enumeration, cell by cell (the tests' own oracle)."""
    n, groups = puzzle.size, puzzle.groups()
    peers = [sorted({c for g in groups if cell in g for c in g} - {cell}) for cell in range(n * n)]
    grid = list(puzzle.cells)

    def count(cell: int) -> int:
        if cell == n * n:
            return 1
        if grid[cell]:
            return count(cell + 1)
        total = 0
        for digit in range(1, n + 1):
            if all(grid[p] != digit for p in peers[cell]):
                grid[cell] = digit
                total += count(cell + 1)
                grid[cell] = 0
        return total

    return count(0)


def solved(size: int, model: str = "classic") -> list[int]:
    """A complete grid for ``size`` by the usual shifting pattern (boxes when the model has them).

    Row r starts at an offset chosen so that rows, columns and r×c boxes all hold 1..N once.
    """
    shape = box_shape(size) if load_model(model).uses_boxes else None
    if shape:
        height, width = shape
        return [
            (width * (r % height) + r // height + c) % size + 1
            for r in range(size)
            for c in range(size)
        ]
    return [(r + c) % size + 1 for r in range(size) for c in range(size)]


def puzzle_cells(size: int, model: str = "classic", seed: int = 0) -> list[int]:
    """A solved grid with about 60% of its cells blanked (deterministically)."""
    rng = random.Random(seed * 1000 + size)
    return [0 if rng.random() < 0.6 else d for d in solved(size, model)]


def all_solutions(backend: str, puzzle: Puzzle, **options: Any) -> set[tuple[int, ...]]:
    """Every solution of ``puzzle`` by ``backend`` (with ``options``), each one checked by the
    validator, none twice, the count exact."""
    from sudoku_cp import get_backend

    result = get_backend(backend).solve(puzzle, limit=None, **options)
    assert result.exact
    assert all(puzzle.is_solution(s) for s in result.solutions)
    assert len(set(result.solutions)) == result.count
    return set(result.solutions)
