"""The generic compiled kernel's derived sums (issue 34).

Derived sums (:func:`~sudoku_cp.backends.backtrack.kernel.derived_mod.derived_sums`): the sums
a model's houses imply with its killer cages and sums of weight 1 (innies and outies, the law
of leftovers), which the kernel keeps beside the model's own rules. They must hold in every
solution: checked on the bundled puzzles' published solutions, from the rules' meaning on a
hand-made case, and on drawn 4x4 and 6x6 killers against plain enumeration (every filling of
the groups, kept by the validator ``Puzzle.is_solution``), with the derived sums and without.

Skipped when numba is not installed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("numba")

from kernel_searches import (  # noqa: E402
    Grid,
    assert_agrees_with_the_oracle,
    fillings,
    kernel,
    kernel_first,
)

from sudoku_cp import Puzzle, Status, get_backend  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import derived as derived_mod  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import glue  # noqa: E402
from sudoku_cp.backends.backtrack.layout import layout  # noqa: E402
from sudoku_cp.backends.backtrack.shapes import SumPropagator  # noqa: E402
from sudoku_cp.datasets import bundled_path, load_puzzles  # noqa: E402
from sudoku_cp.errors import GivensBreakRule  # noqa: E402
from sudoku_cp.formats import read_puzzles  # noqa: E402
from sudoku_cp.model import load_model  # noqa: E402
from sudoku_cp.rules import Rule  # noqa: E402
from sudoku_cp.rules.cells import Odd  # noqa: E402
from sudoku_cp.rules.sums import Cage, LittleKiller  # noqa: E402

_ = kernel_first  # the autouse fixture, in force here


def derived(puzzle: Puzzle) -> list[derived_mod.Terms]:
    lay = layout(puzzle.model, puzzle.size)
    rules = lay.rules
    assert rules is not None
    sums = [(p.cells, p.weights, p.goal) for p in rules.propagators if isinstance(p, SumPropagator)]
    return derived_mod.derived_sums(lay, sums, list(rules.cages))


def holds(terms: derived_mod.Terms, grid: Grid) -> bool:
    cells, weights, goal = terms
    return sum(w * grid[c] for c, w in zip(cells, weights, strict=True)) == goal


def cell(r: int, c: int) -> int:
    return 9 * (r - 1) + c - 1


def test_a_box_with_two_cages_leaves_its_last_cell() -> None:
    """Box 5 of "Deflation" (``published`` 60): a cage of 10 on r5c6, r6c5, r6c6 and one of 26
    on r4c5, r4c6, r5c4, r5c5, r6c4 leave r4c4, which must be 45 - 10 - 26 = 9."""
    (puzzle,) = [r.puzzle for r in read_puzzles(bundled_path("published")) if r.index == 60]
    assert puzzle is not None
    assert ((cell(4, 4),), (1,), 9) in derived(puzzle)
    assert puzzle.published is not None and puzzle.published[cell(4, 4)] == 9


def test_outies_of_a_box() -> None:
    """Four cages of three cells each with two cells in box 5 and one outside (the centre of
    "Hailstone"'s rules: 14, 19, 14, 14), every box cell but r5c5 in them: the box's 45 is
    61 less the four outside cells plus r5c5, so the outside cells less r5c5 make 16."""
    cages = [
        Cage((cell(5, 3), cell(5, 4), cell(6, 4)), 14),
        Cage((cell(6, 6), cell(6, 5), cell(7, 5)), 19),
        Cage((cell(4, 4), cell(4, 5), cell(3, 5)), 14),
        Cage((cell(4, 6), cell(5, 6), cell(5, 7)), 14),
    ]
    puzzle = Puzzle([0] * 81, load_model("classic").with_rules(rules=list(cages), size=9))
    outside = sorted((cell(5, 3), cell(7, 5), cell(3, 5), cell(5, 7)))
    found = {(frozenset(zip(c, w, strict=True)), g) for c, w, g in derived(puzzle)}
    want = frozenset([(cell(5, 5), 1)] + [(c, -1) for c in outside])
    assert (want, -16) in found


def test_a_cage_leaving_two_cells_of_a_box() -> None:
    """A cage of 38 on seven cells of box 1 leaves r3c2 and r3c3 summing to 45 - 38 = 7; a
    little killer of 5 on r1c2 and r2c3, inside box 1 too, leaves the box's seven other cells
    summing to 40 (a leftover of any size, as ISS keeps it; its row and column leave no sum:
    the little killer has only half its cells in each). A model with no sums or cages derives
    nothing."""
    classic = load_model("classic")
    box = [cell(r, c) for r in (1, 2, 3) for c in (1, 2, 3)]
    caged = tuple(c for c in box if c not in (cell(3, 2), cell(3, 3)))
    model = classic.with_rules(rules=[Cage(caged, 38)], size=9)
    assert derived(Puzzle([0] * 81, model)) == [((cell(3, 2), cell(3, 3)), (1, 1), 7)]
    killer = classic.with_rules(rules=[LittleKiller((cell(1, 2), cell(2, 3)), 5)], size=9)
    rest = tuple(c for c in box if c not in (cell(1, 2), cell(2, 3)))
    assert derived(Puzzle([0] * 81, killer)) == [(rest, (1,) * 7, 40)]
    odd = classic.with_rules(rules=[Odd((0,))], size=9)
    assert derived(Puzzle([0] * 81, odd)) == []


@pytest.mark.parametrize(
    ("name", "index"), [("variants9", 24), ("published", 60), ("published", 86)]
)
def test_derived_sums_hold_in_published_solutions(name: str, index: int) -> None:
    (puzzle,) = [r.puzzle for r in read_puzzles(bundled_path(name)) if r.index == index]
    assert puzzle is not None and puzzle.published is not None
    found = derived(puzzle)
    assert found
    assert all(holds(t, puzzle.published) for t in found)


def test_derived_sums_hold_in_the_bundled_killers() -> None:
    """The bundled killers carry no published solution: the SAT backend's (another paradigm,
    no code shared with the kernel) is the witness, checked by the validator."""
    sat = get_backend("sat")
    seen = 0
    for puzzle in load_puzzles("killer")[:12]:
        assert glue.takes_rules(puzzle.model, puzzle.size)
        found = derived(puzzle)
        seen += len(found)
        result = sat.solve(puzzle, limit=2, time_limit=60)
        assert result.status is Status.UNIQUE and puzzle.is_solution(result.solutions[0])
        assert all(holds(t, result.solutions[0]) for t in found)
        assert kernel(puzzle, 2).solutions == list(result.solutions)
    assert seen > 100


def drawn_killers(n: int, givens: int, seeds: range) -> Iterator[Puzzle]:
    """Killers on the classic n x n model: cages of one to four neighbouring cells of one
    solved grid (different digits there) covering most of it, their totals read off the grid
    but in a quarter of the puzzles one off by one; some givens."""
    classic = load_model("classic")
    for seed in seeds:
        rng = random.Random(seed)
        relabel = list(range(1, n + 1))
        rng.shuffle(relabel)
        base = next(fillings(Puzzle([0] * n * n, classic.with_rules(size=n))))
        grid = tuple(relabel[d - 1] for d in base)
        free = set(range(n * n))
        rules: list[Rule] = []
        for start in rng.sample(range(n * n), n * n):
            if start not in free or rng.random() < 0.15:
                continue
            cage = [start]
            free.discard(start)
            for _ in range(rng.randrange(0, 4)):
                x = rng.choice(cage)
                nxt = rng.choice((x - 1, x + 1, x - n, x + n))
                if (
                    0 <= nxt < n * n
                    and abs(nxt % n - x % n) <= 1
                    and nxt in free
                    and grid[nxt] not in {grid[c] for c in cage}
                ):
                    cage.append(nxt)
                    free.discard(nxt)
            rules.append(Cage(tuple(cage), sum(grid[c] for c in cage)))
        if rules and rng.random() < 0.25:
            k = rng.randrange(len(rules))
            off = rules[k]
            assert isinstance(off, Cage) and off.total is not None
            rules[k] = Cage(off.cells, off.total + rng.choice((-1, 1)))
        cells = [0] * (n * n)
        for c in rng.sample(range(n * n), givens):
            cells[c] = grid[c]
        try:
            yield Puzzle(cells, classic.with_rules(rules=rules, size=n))
        except GivensBreakRule:
            continue  # givens that break a cage off by one: refused before any search


@pytest.mark.parametrize("probe", [glue.PROBE_NODES, 1])
@pytest.mark.parametrize(("n", "givens", "seeds"), [(4, 0, range(40)), (6, 12, range(15))])
def test_every_solution_of_small_killers(
    n: int, givens: int, seeds: range, probe: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel with its derived sums, and without, finds exactly the solutions plain
    enumeration finds (both branchings, and the pure search, which has none); with a probe of
    one node, every search that branches starts again with the derived sums (what the probe
    found is not counted twice)."""
    monkeypatch.setattr(glue, "PROBE_NODES", probe)
    counts = []
    with_derived = puzzles = 0
    for puzzle in drawn_killers(n, givens, seeds):
        if not glue.takes_rules(puzzle.model, puzzle.size):
            continue
        puzzles += 1
        with_derived += bool(derived(puzzle))
        for on in (True, False):
            monkeypatch.setattr(derived_mod, "DERIVED_SUMS", on)
            glue.forget_models()
            counts.append(len(assert_agrees_with_the_oracle(puzzle)))
        monkeypatch.setattr(derived_mod, "DERIVED_SUMS", True)
        glue.forget_models()
    assert with_derived > puzzles // 4  # the draws do derive sums
    assert 0 in counts and 1 in counts  # the draws vary
    assert n > 4 or any(c > 1 for c in counts)


def test_a_probe_left_undecided_starts_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 4x4 killer with one cage (r1c1 + r1c2 = 3) has many solutions: all of them each once,
    probe or none (a probe of one node finds some and pauses; the search starts again)."""
    model = load_model("classic").with_rules(rules=[Cage((0, 1), 3)], size=4)
    puzzle = Puzzle([0] * 16, model)
    assert glue.derives(puzzle.model, puzzle.size)
    truth = set(fillings_kept(puzzle))
    assert len(truth) > 8
    for probe in (1, 2, glue.PROBE_NODES):
        monkeypatch.setattr(glue, "PROBE_NODES", probe)
        found = kernel(puzzle, None)
        assert sorted(found.solutions) == sorted(truth) and found.exhausted


def fillings_kept(puzzle: Puzzle) -> Iterator[Grid]:
    return (grid for grid in fillings(puzzle) if puzzle.is_solution(grid))


def test_hailstone_on_the_kernel_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hailstone (``variants9`` 24: cages, little killers), with its derived sums and without:
    its published solution alone."""
    puzzle = load_puzzles("variants9")[23]
    assert puzzle.published is not None
    for on in (True, False):
        monkeypatch.setattr(derived_mod, "DERIVED_SUMS", on)
        glue.forget_models()
        assert kernel(puzzle, 2).solutions == [puzzle.published]
    glue.forget_models()


def test_the_leftover_of_two_rows_of_solver_needs_set() -> None:
    """ "Solver needs SET" (TopAutism) is a Latin square with 18 three-cell cages crossing pairs
    of rows. Rows 1 and 2 sum to 2 x 45 = 90 and hold three whole cages of 12 (r1c1 r1c2 r2c1,
    r1c5 r1c6 r2c6, r1c7 r1c8 r2c7): their other nine cells sum to 90 - 36 = 54 (ISS derives
    the same sum). A leftover of nine cells, kept since a cap of two left the search 3.0
    million nodes (18 s) where it now takes under a million."""
    (puzzle,) = [r.puzzle for r in read_puzzles(bundled_path("published")) if r.index == 86]
    assert puzzle is not None and puzzle.published is not None
    caged = {cell(1, 1), cell(1, 2), cell(2, 1), cell(1, 5), cell(1, 6), cell(2, 6)}
    caged |= {cell(1, 7), cell(1, 8), cell(2, 7)}
    rest = tuple(sorted(c for c in range(18) if c not in caged))
    assert (rest, (1,) * 9, 54) in derived(puzzle)
    assert sum(puzzle.published[c] for c in rest) == 54
