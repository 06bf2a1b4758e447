"""Every backend agrees with the backtracker, on every model and size, and with known answers.

The suite is generic: it runs over ``backend_names()`` (a backend whose library is missing is
skipped), so a backend added to the registry joins it without a change here. The reference is
the hand-written backtracker; every solution any backend returns is also checked with
``Puzzle.is_solution``, the validator that shares no code with any search.

Generated puzzles are deterministic: a seeded scatter of digits is completed by the reference,
then cells are blanked in a seeded order. Per model and size there are three:

- *unique*: each blank kept only while the reference still finds one solution, up to a share
  of the grid (``BLANK_SHARE``, so that python-constraint stays quick);
- *multiple*: the first blank that gave a second solution, if the puzzle then has at most
  ``MAX_COUNT`` solutions (all of them are enumerated by every backend);
- *none*: the unique puzzle plus one wrong given — a digit no peer holds, other than the
  cell's digit in the one solution — so nothing repeats and nothing fits.

The whole file runs in about 25 s on two cores.
"""

from __future__ import annotations

import csv
import functools
import random
from pathlib import Path

import pytest
from conftest import DATA

from sudoku_cp import Puzzle, Result, Status, backend_names, get_backend, model_names
from sudoku_cp.backends import backend_class
from sudoku_cp.model import load_model

REFERENCE = "backtrack"
SIZES = (4, 6, 9, 12, 16)
FULL_SIZE_BACKENDS = ("backtrack", "cpsat", "sat", "constraint", "dlx")
"""Backends also compared at 25x25 (measured quick there on the generated puzzles)."""
PUBLISHED_25X25_BACKENDS = ("cpsat", "sat")
"""Backends that solve the published 25x25 puzzles below in seconds (the others need minutes)."""
MAX_COUNT = 12
"""The most solutions a generated *multiple* puzzle may have (all are enumerated)."""
BLANK_SHARE = {4: 1.0, 6: 0.75, 9: 0.62, 12: 0.55, 16: 0.5, 25: 0.3}
"""The largest share of cells a generated puzzle leaves blank, by size."""
GENEROUS = 60.0
"""A time limit no backend should come near on these puzzles: a hang fails, it never blocks."""


def _usable(name: str) -> str | None:
    """Why backend ``name`` cannot run here (its module or library missing), or None."""
    try:
        cls = backend_class(name)
    except ImportError as err:  # a registered module not written yet
        return f"backend '{name}' is not importable: {err}"
    return cls.unavailable_reason()


def _backend_params() -> list:
    return [
        pytest.param(name, marks=pytest.mark.skip(reason=reason) if reason else ())
        for name in backend_names()
        for reason in [_usable(name)]
    ]


BACKENDS = _backend_params()


def _model_sizes(sizes: tuple[int, ...]) -> list[tuple[str, int]]:
    return [(m, n) for m in model_names() for n in sizes if load_model(m).fits(n) is None]


def _agreement_params() -> list:
    params = []
    for backend in BACKENDS:
        name = backend.values[0]
        sizes = SIZES + ((25,) if name in FULL_SIZE_BACKENDS else ())
        for model, n in _model_sizes(sizes):
            params.append(pytest.param(name, model, n, marks=backend.marks,
                                       id=f"{name}-{model}-{n}"))
    return params


def reference():
    reason = _usable(REFERENCE)
    if reason:
        pytest.skip(f"the reference backend is missing: {reason}")
    return get_backend(REFERENCE)


def run(backend: str, puzzle: Puzzle, limit: int | None, **kwargs) -> Result:
    """Solve, then check what came back: valid, distinct solutions, within the limit."""
    result = get_backend(backend).solve(puzzle, limit=limit, **kwargs)
    for solution in result.solutions:
        assert puzzle.is_solution(solution), puzzle.problems_with(solution)
    assert len(set(result.solutions)) == result.count
    assert limit is None or result.count <= limit
    return result


# --- generated puzzles -----------------------------------------------------------------------
def _filled(model: str, n: int, rng: random.Random) -> tuple[int, ...]:
    """A full grid: a seeded scatter of non-clashing digits, completed by the reference."""
    solver = reference()
    empty = Puzzle([0] * (n * n), model)
    peers = empty.peers()
    for _ in range(50):
        cells = [0] * (n * n)
        for cell in rng.sample(range(n * n), n):
            digits = [d for d in range(1, n + 1) if all(cells[p] != d for p in peers[cell])]
            if digits:
                cells[cell] = rng.choice(digits)
        found = solver.solve(Puzzle(cells, model), limit=1, time_limit=GENEROUS)
        if found.solution:
            return found.solution
    raise AssertionError(f"no {model} {n}x{n} grid found")  # pragma: no cover


def _count(puzzle: Puzzle, limit: int) -> int:
    return reference().solve(puzzle, limit=limit, time_limit=GENEROUS).count


def _try_multiple(puzzles: dict[str, Puzzle], cells: list[int], model: str) -> None:
    """Keep ``cells`` as the multiple puzzle if it has few enough solutions to enumerate.

    Checked only once a quick check (limit 2) has seen two solutions: counting is the costly
    part for the reference.
    """
    if "multiple" not in puzzles:
        puzzle = Puzzle(cells, model)
        if _count(puzzle, MAX_COUNT + 1) <= MAX_COUNT:
            puzzles["multiple"] = puzzle


@functools.cache
def generated(model: str, n: int) -> dict[str, Puzzle]:
    """The unique, multiple and none puzzles for ``model`` at size ``n`` (see the module doc)."""
    rng = random.Random(f"{model}-{n}")
    cells = list(_filled(model, n, rng))
    solution = tuple(cells)
    order = rng.sample(range(n * n), n * n)
    blanks = int(BLANK_SHARE[n] * n * n)
    puzzles: dict[str, Puzzle] = {}
    for cell in order[:blanks]:
        digit, cells[cell] = cells[cell], 0
        if _count(Puzzle(cells, model), 2) > 1:
            _try_multiple(puzzles, cells, model)
            cells[cell] = digit
    for cell in order[blanks:] + order[:blanks]:
        # No blank within the share gave a multiple puzzle: blank one more given at a time.
        if "multiple" in puzzles:
            break
        if cells[cell]:
            digit, cells[cell] = cells[cell], 0
            if _count(Puzzle(cells, model), 2) > 1:
                _try_multiple(puzzles, cells, model)
            cells[cell] = digit
    unique = puzzles["unique"] = Puzzle(cells, model)
    # A wrong given: a candidate of a blank cell (no peer holds it) other than its digit in
    # the one solution, so nothing repeats and nothing fits.
    peers = unique.peers()
    for cell in rng.sample(range(n * n), n * n):
        if unique.cells[cell]:
            continue
        wrong = [d for d in range(1, n + 1) if d != solution[cell]
                 and all(unique.cells[p] != d for p in peers[cell])]
        if wrong:
            none = list(unique.cells)
            none[cell] = rng.choice(wrong)
            puzzles["none"] = Puzzle(none, model)
            break
    return puzzles


@functools.cache
def expected(model: str, n: int, kind: str) -> Result:
    """The reference's complete answer for a generated puzzle."""
    result = reference().solve(generated(model, n)[kind], limit=None, time_limit=GENEROUS)
    assert result.exact
    return result


@pytest.mark.parametrize(("backend", "model", "n"), _agreement_params())
def test_agrees_with_the_backtracker(backend: str, model: str, n: int) -> None:
    kinds = generated(model, n)
    assert {"unique", "none"} <= set(kinds)
    for kind, puzzle in kinds.items():
        truth = expected(model, n, kind)
        assert truth.status is {"unique": Status.UNIQUE, "multiple": Status.MULTIPLE,
                                "none": Status.NONE}[kind]
        everything = run(backend, puzzle, None, time_limit=GENEROUS)
        assert everything.status is truth.status, kind
        assert everything.exact, kind
        assert set(everything.solutions) == set(truth.solutions), kind

        check = run(backend, puzzle, 2, time_limit=GENEROUS)
        assert check.status is truth.status, kind
        assert set(check.solutions) <= set(truth.solutions)
        assert check.count == min(2, truth.count)

        first = run(backend, puzzle, 1, time_limit=GENEROUS)
        assert first.status is (Status.NONE if kind == "none" else Status.SOLVED), kind
        assert set(first.solutions) <= set(truth.solutions)


def test_generated_puzzles_cover_every_kind() -> None:
    """Multiple-solution puzzles come out of the generator for most models and sizes."""
    reference()
    with_multiple = [(m, n) for m, n in _model_sizes(SIZES) if "multiple" in generated(m, n)]
    assert len(with_multiple) >= len(_model_sizes(SIZES)) - 2, with_multiple


# --- known answers ---------------------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("model", "count"), [("classic", 288), ("latin", 576)])
def test_empty_4x4_counts(backend: str, model: str, count: int) -> None:
    result = run(backend, Puzzle([0] * 16, model), None, time_limit=GENEROUS)
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, count, True)


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def bundled(name: str, ids: tuple[str, ...] | None = None) -> list[dict[str, str]]:
    rows = read_csv(DATA / f"{name}.csv")
    return [r for r in rows if ids is None or r["id"] in ids]


# A few of each bundled hard set, chosen so that python-constraint also answers in well under a
# second; the full sets are the benchmark's business.
HARD_9X9 = {
    "17clue": ("17clue#1", "17clue#492"),
    "top1465": ("top1465#1", "top1465#15"),
    "forum-hardest": ("hardest1106#1",),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dataset", sorted(HARD_9X9))
def test_bundled_hard_puzzles_are_unique(backend: str, dataset: str) -> None:
    for row in bundled(dataset, HARD_9X9[dataset]):
        puzzle = Puzzle.parse(row["puzzle"])
        result = run(backend, puzzle, 2, time_limit=GENEROUS)
        assert result.status is Status.UNIQUE, row["id"]
        ref = reference().solve(puzzle, limit=1, time_limit=GENEROUS)
        assert result.solution == ref.solution, row["id"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_bundled_multiple_counts(backend: str) -> None:
    rows = bundled("multiple", ("serg#601", "serg#2401", "serg#1801"))  # 20, 66, 88 solutions
    assert len(rows) == 3
    for row in rows:
        result = run(backend, Puzzle.parse(row["puzzle"]), None, time_limit=GENEROUS)
        assert result.exact, row["id"]
        assert result.count == int(row["solution_count"]), row["id"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_bundled_16x16_solutions(backend: str) -> None:
    for row in bundled("16x16", ("gecode#34", "gecode#45")):
        result = run(backend, Puzzle.parse(row["puzzle"]), 2, time_limit=GENEROUS)
        assert result.status is Status.UNIQUE, row["id"]
        assert Puzzle.parse(row["solution"]).cells == result.solution, row["id"]


# tdoku's test file: unique puzzles with their solutions, puzzles with no solution (none repeats
# a given) and multi-solution puzzles with their exact counts. Data rows counted from 0; the
# quickest of each kind for python-constraint.
TDOKU_ROWS = (0, 1, 18, 21, 23, 28, 34, 36)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tdoku_known_answers(backend: str, datasets: Path) -> None:
    rows = read_csv(datasets / "tdoku" / "tdoku_test_puzzles.csv")
    kinds = set()
    for line in TDOKU_ROWS:
        row = rows[line]
        count = int(row["solution_count"])
        kinds.add(min(count, 2))
        result = run(backend, Puzzle.parse(row["puzzle"]), None, time_limit=GENEROUS)
        assert (result.count, result.exact) == (count, True), line
        if count == 1:
            assert result.solution == Puzzle.parse(row["solution"]).cells
    assert kinds == {0, 1, 2}


@pytest.mark.parametrize("backend", [b for b in BACKENDS
                                     if b.values[0] in PUBLISHED_25X25_BACKENDS])
def test_25x25_from_the_datasets(backend: str, datasets: Path) -> None:
    """Two published 25x25 puzzles, checked against their published solutions."""
    rows = read_csv(datasets / "large" / "25x25_19.csv")
    for row in [r for r in rows if r["id"] in ("gecode#89", "vances25/25x25s01")]:
        result = run(backend, Puzzle.parse(row["puzzle"]), 2, time_limit=GENEROUS)
        assert result.status is Status.UNIQUE, row["id"]
        assert result.solution == Puzzle.parse(row["solution"]).cells


# --- time limits -----------------------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
def test_time_limit_cuts_counting_short(backend: str) -> None:
    """Counting the ~10^21 solutions of the empty 9x9 grid stops at the time limit."""
    result = run(backend, Puzzle([0] * 81), None, time_limit=0.5)
    assert not result.exact
    # Two solutions found already make it a fact that there are several; fewer is a timeout.
    assert result.status is (Status.MULTIPLE if result.count >= 2 else Status.TIMEOUT)
    assert result.seconds < 30  # a hang guard, not a timing: the limit is 0.5 s


# One of the minimal 25x25 puzzles of Alain Frisch's collection, as shipped in Gecode's examples
# (entry 26 of sudoku-instances.hh, via the shared datasets): no backend here proves it unique
# in minutes, and none but CP-SAT and SAT finds its solution in seconds.
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


@pytest.mark.parametrize("backend", BACKENDS)
def test_time_limit_gives_timeout(backend: str) -> None:
    result = run(backend, Puzzle.parse(HARD_25X25), 2, time_limit=0.5)
    assert result.status is Status.TIMEOUT
    assert not result.exact and result.count <= 1
    assert result.seconds < 30  # a hang guard, not a timing
