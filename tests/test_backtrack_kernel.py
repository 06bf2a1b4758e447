"""The backtracker's compiled kernels (numba) against their reference, the pure-Python search.

Skipped when numba is not installed (the ``test`` and ``jit`` extras install it; CI runs them).
The generic kernel implements the ``fast`` strategy's algorithm, so on every puzzle it must
return the same solutions in the same order, and say the same about exactness. The classic 9x9
kernel searches differently: it must return the same set of solutions when it runs to the end,
and ``limit`` valid, distinct ones when the puzzle has more. Tests that compare with the pure
search run with both kernels on classic puzzles (fixture ``engine``). Counts also come from the
datasets (serg's multi-solution set) and from plain enumeration. Every solution is checked by
``Puzzle.is_solution``, which shares no code with either search. No test looks at a clock: the
time limit is tested by its outcome.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

pytest.importorskip("numba")

from conftest import DATA  # noqa: E402
from puzzles import (  # noqa: E402
    HARD_25X25,
    INKALA,
    WINDOKU,
    brute_force_count,
    no_solution_puzzle,
    none_puzzle,
    puzzle_cells,
    read_csv,
)

from sudoku_cp import Puzzle, get_backend  # noqa: E402
from sudoku_cp.backends import Search  # noqa: E402
from sudoku_cp.backends.backtrack import Solver as backtrack_solver  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import glue as bk  # noqa: E402
from sudoku_cp.backends.backtrack.layout import layout  # noqa: E402
from sudoku_cp.backends.backtrack.search import _Clock, _fast  # noqa: E402
from sudoku_cp.datasets import load_puzzles  # noqa: E402
from sudoku_cp.model import load_model  # noqa: E402


@pytest.fixture(params=["classic", "generic"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Classic 9x9 puzzles go to the bitboard kernel, or (``generic``) to the generic one."""
    monkeypatch.setattr(bk, "CLASSIC", request.param == "classic")
    return str(request.param)


@pytest.fixture
def generic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every puzzle to the generic kernel: the pure search's own algorithm."""
    monkeypatch.setattr(bk, "CLASSIC", False)


def on_bitboards(puzzle: Puzzle) -> bool:
    return bk.CLASSIC and bk.is_classic(puzzle.model, puzzle.size)


def kernel(puzzle: Puzzle, limit: int | None, deadline: float | None = None) -> Search:
    found = bk._kernel_search(bk.load_kernel(), puzzle, limit, deadline)
    assert all(puzzle.is_solution(s) for s in found.solutions)
    assert len(set(found.solutions)) == len(found.solutions)
    return found


def pure(puzzle: Puzzle, limit: int | None) -> Search:
    return _fast(puzzle, layout(puzzle.model, puzzle.size), limit, _Clock(None))


def same(puzzle: Puzzle, limit: int | None) -> Search:
    """The kernel's search, after checking it against the pure one: the same solutions in the
    same order (generic kernel), or the same set when the search ends before the limit and
    as many valid, distinct ones when it stops there (bitboards; checked by kernel())."""
    compiled, reference = kernel(puzzle, limit), pure(puzzle, limit)
    if not on_bitboards(puzzle):
        assert compiled.solutions == reference.solutions, puzzle.to_line()
    elif reference.exhausted:
        assert sorted(compiled.solutions) == sorted(reference.solutions), puzzle.to_line()
    else:
        assert len(compiled.solutions) == len(reference.solutions) == limit, puzzle.to_line()
    assert compiled.exhausted == reference.exhausted and not compiled.timed_out
    return compiled


SAMPLES = {
    "17clue": 25,
    "top1465": 20,
    "forum-hardest": 10,
    "famous": 20,
    "easy": 10,
    "16x16": 6,
    "jigsaw": 15,
}


@pytest.mark.parametrize("name", list(SAMPLES))
@pytest.mark.parametrize("limit", [1, 2])
def test_same_solutions_as_the_pure_search_on_real_puzzles(
    name: str, limit: int, engine: str
) -> None:
    for puzzle in load_puzzles(name, SAMPLES[name]):
        assert bk.fits(puzzle.model, puzzle.size)
        found = same(puzzle, limit)
        assert len(found.solutions) == 1  # these samples are unique
        assert found.exhausted == (limit == 2)


def test_counts_of_serg_multi_solution_puzzles(engine: str) -> None:
    rows = read_csv(DATA / "multiple.csv")[:12]
    for row in rows:
        puzzle = Puzzle.parse(row["puzzle"])
        found = same(puzzle, None)
        assert len(found.solutions) == int(row["solution_count"]) and found.exhausted
        assert len(set(found.solutions)) == len(found.solutions)
        for limit in (1, 2, 7):  # fewer than there are: that many, valid and distinct
            assert len(same(puzzle, limit).solutions) == min(limit, len(found.solutions))


def test_real_puzzles_with_a_given_taken_away(engine: str) -> None:
    # Many solutions, none of them known in advance: every one when there are at most 40 (the
    # same set as the pure search's), else 40 valid, distinct ones.
    counts = []
    for puzzle in load_puzzles("17clue", 4) + load_puzzles("famous", 3) + load_puzzles("easy", 8):
        cells = list(puzzle.cells)
        cells[next(i for i, v in enumerate(cells) if v)] = 0
        counts.append(len(same(Puzzle(cells), 40).solutions))
    assert 40 in counts and any(1 < c < 40 for c in counts)


@pytest.mark.parametrize(
    ("model", "size"),
    [("classic", 4), ("latin", 4), ("x", 4), ("classic", 6), ("disjoint", 4), ("latin", 5)],
)
def test_every_solution_of_small_grids_in_models_of_groups(model: str, size: int) -> None:
    # Partly filled grids where the helper's pattern fits the model, else the empty grid.
    grids = [puzzle_cells(size, model, seed) for seed in range(3)]
    for cells in grids if model in ("classic", "latin") else [[0] * size * size]:
        puzzle = Puzzle(cells, load_model(model))
        found = same(puzzle, None)
        assert len(found.solutions) == brute_force_count(puzzle)
    empty = Puzzle([0] * 16, load_model("classic"))
    assert len(same(empty, None).solutions) == 288


def test_no_solution_is_proved(engine: str) -> None:
    for puzzle in (
        Puzzle.parse(no_solution_puzzle()),
        Puzzle(none_puzzle(9)),
        Puzzle(none_puzzle(16)),
        Puzzle(none_puzzle(9), load_model("x")),
    ):
        found = same(puzzle, 2)
        assert found.solutions == [] and found.exhausted


def test_other_models_and_big_grids() -> None:
    same(Puzzle.parse(WINDOKU, load_model("hyper")), 2)
    found = same(Puzzle(puzzle_cells(16, "classic", 1)), 2)
    assert found.solutions
    # Above 16x16 the backend runs the big grids' own kernel (kernel/learn.py, a search of its
    # own, tested in test_big_grids_kernel); this kernel itself still solves them.
    big = Puzzle(puzzle_cells(25, "classic", 1))
    assert len(kernel(big, 2).solutions) == len(pure(big, 2).solutions)
    used = get_backend("backtrack").solve(big, limit=2, time_limit=60)
    assert len(used.solutions) == len(pure(big, 2).solutions) and "restarts" in used.stats
    assert all(big.is_solution(s) for s in used.solutions)


@pytest.mark.slow
def test_the_largest_grids() -> None:
    assert len(kernel(Puzzle([0] * 36 * 36), 3).solutions) == 3
    # The largest size: a cell's candidates fill the whole 64-bit word (validated in kernel()).
    assert len(kernel(Puzzle([0] * 64 * 64, load_model("latin")), 1).solutions) == 1


def test_more_solutions_than_one_call_returns(engine: str) -> None:
    # The solution buffer holds SOLUTION_ROWS: the kernel is called again and goes on.
    found = same(Puzzle([0] * 81), 3 * bk.SOLUTION_ROWS + 5)
    assert len(set(found.solutions)) == 3 * bk.SOLUTION_ROWS + 5


def test_resuming_after_a_paused_call_and_a_grown_stack(
    monkeypatch: pytest.MonkeyPatch, generic: None
) -> None:
    # A call that may try only 16 nodes, and a stack of one frame to start with: the search
    # pauses and grows its stack over and over, and must find exactly the same.
    monkeypatch.setattr(bk, "WORK_PER_CALL", 1)
    monkeypatch.setattr(bk, "FIRST_FRAMES", 1)
    far = time.perf_counter() + 3600
    for puzzle in load_puzzles("forum-hardest", 5) + load_puzzles("16x16", 2):
        compiled, reference = kernel(puzzle, 2, far), pure(puzzle, 2)
        assert compiled.solutions == reference.solutions
        assert compiled.exhausted and not compiled.timed_out
        assert compiled.stats["nodes"] == reference.stats["nodes"]
        assert compiled.stats["backtracks"] == reference.stats["backtracks"]


def test_the_bitboard_kernel_resumes_and_grows_its_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    # As above, for the classic kernel: the same as its own search in one call.
    puzzles = load_puzzles("forum-hardest", 5) + [Puzzle([0] * 81)]
    whole = [kernel(p, 2) for p in puzzles]
    monkeypatch.setattr(bk, "WORK_PER_CALL", 1)
    monkeypatch.setattr(bk, "FIRST_FRAMES", 1)
    far = time.perf_counter() + 3600
    for puzzle, one_call in zip(puzzles, whole, strict=True):
        assert on_bitboards(puzzle)
        paused = kernel(puzzle, 2, far)
        assert paused.solutions == one_call.solutions and not paused.timed_out
        assert paused.exhausted == one_call.exhausted
        assert paused.stats == one_call.stats
        assert len(paused.solutions) == len(pure(puzzle, 2).solutions)


def test_only_classic_9x9_goes_to_the_bitboard_kernel() -> None:
    assert bk.is_classic(load_model("classic"), 9)
    assert not bk.is_classic(load_model("classic"), 4)
    assert not bk.is_classic(load_model("classic"), 16)
    for model in ("x", "hyper", "latin", "disjoint"):
        assert not bk.is_classic(load_model(model), 9)
    jigsaw = load_puzzles("jigsaw", 1)[0]
    assert not bk.is_classic(jigsaw.model, 9)


def test_the_time_limit_stops_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    # A 25x25 puzzle no search here settles in minutes.
    monkeypatch.setenv(bk.ENV, "1")
    hard = Puzzle.parse(HARD_25X25)
    result = get_backend("backtrack").solve(hard, limit=2, time_limit=0.5)
    assert not result.exact and result.count <= 1
    assert all(hard.is_solution(s) for s in result.solutions)
    # A search that ends by itself within the limit is exact.
    quick = get_backend("backtrack").solve(Puzzle.parse(INKALA), limit=2, time_limit=60)
    assert quick.exact and quick.count == 1


def test_counters_keep_their_meaning(generic: None) -> None:
    # Same branches as the pure search: same nodes and dead ends; propagations count the cells
    # settled by singles, at least the open cells of a puzzle solved without branching.
    for puzzle in load_puzzles("famous", 10):
        compiled, reference = kernel(puzzle, 2), pure(puzzle, 2)
        assert compiled.stats["nodes"] == reference.stats["nodes"]
        assert compiled.stats["backtracks"] == reference.stats["backtracks"]
    easy = load_puzzles("easy", 1)[0]
    found = kernel(easy, 2)
    assert found.stats["nodes"] == 0
    assert found.stats["propagations"] == easy.cells.count(0)


def test_the_bitboard_counters_mean_the_same() -> None:
    # Propagations: cells placed by inference; nodes: branches tried; dead ends: backtracks.
    easy = load_puzzles("easy", 1)[0]
    found = kernel(easy, 2)
    assert found.stats == {"nodes": 0, "backtracks": 0, "propagations": easy.cells.count(0)}
    hard = kernel(load_puzzles("forum-hardest", 1)[0], 2)
    assert hard.stats["nodes"] > hard.stats["backtracks"] > 0


def test_option_and_environment_turn_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = Puzzle.parse(INKALA)
    backend = get_backend("backtrack")
    on_stats, off_stats = kernel(puzzle, 2).stats, pure(puzzle, 2).stats
    assert on_stats != off_stats  # propagations are counted as each search finds them
    monkeypatch.setenv(bk.ENV, "1")
    assert backend.solve(puzzle, limit=2).stats == on_stats
    assert backend.solve(puzzle, limit=2, kernel=False).stats == off_stats
    assert backend.solve(puzzle, limit=2, kernel="off").stats == off_stats
    monkeypatch.setenv(bk.ENV, "0")
    assert backend.solve(puzzle, limit=2).stats == off_stats


def test_rules_beyond_groups_stay_in_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(bk.ENV, "1")
    # Every rule shape goes to the kernel now (test_backtrack_kernel_rules, _sums, _sequences,
    # _sandwiches, _triples, _quadruples), within its caps: skyscrapers past the cap of
    # automaton states stay in the pure search.
    from sudoku_cp.backends.backtrack.kernel import sequence_tables

    puzzle = load_puzzles("iss")[26]  # Skyscraper
    assert bk.takes_rules(puzzle.model, puzzle.size)
    monkeypatch.setattr(sequence_tables, "SEQUENCE_STATES_MAX", 0)
    layout.cache_clear()
    bk.forget_models()
    try:
        assert not bk.fits(puzzle.model, puzzle.size)
        assert not bk.takes_rules(puzzle.model, puzzle.size)
        result = get_backend("backtrack").solve(puzzle, limit=2)
        assert result.stats == pure(puzzle, 2).stats and result.count == 1
    finally:
        layout.cache_clear()
        bk.forget_models()


def test_solver_entry_points_take_digits() -> None:
    solver = backtrack_solver(max_limit=2)
    puzzles = load_puzzles("17clue", 20) + load_puzzles("forum-hardest", 5)
    puzzles += [Puzzle.parse(no_solution_puzzle())]
    puzzles += [Puzzle.parse(r["puzzle"]) for r in read_csv(DATA / "multiple.csv")[:3]]
    import numpy as np

    grid = np.array([list(p.cells) for p in puzzles], dtype=np.uint8)
    counts, first = solver.count_many(grid, 2)
    for i, puzzle in enumerate(puzzles):
        reference = pure(puzzle, 2)
        count, solutions = solver.solve(puzzle.digits, 2)
        assert count == len(reference.solutions) == counts[i]
        assert [tuple(s) for s in solutions.tolist()] == reference.solutions
        if count:
            assert tuple(first[i].tolist()) == reference.solutions[0]
    # A node limit too small to settle a puzzle says so (-1) instead of a count.
    hardest = np.array([list(load_puzzles("forum-hardest", 1)[0].cells)], dtype=np.uint8)
    assert solver.count_many(hardest, 2, node_limit=1)[0][0] == -1


def test_workers_load_it_up_front_and_the_listing_says_so() -> None:
    get_backend("backtrack").prepare()
    assert bk._KERNEL.get("module") is not None
    out = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", "backends"], capture_output=True, text=True
    )
    assert "compiled kernel: in use" in out.stdout
    off = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", "backends"],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, bk.ENV: "0"},
    )
    assert "compiled kernel: turned off" in off.stdout


def test_a_one_off_quick_solve_does_not_import_numba() -> None:
    code = (
        "import sys; from sudoku_cp import Puzzle, solve\n"
        f"print(solve(Puzzle.parse({INKALA!r}), limit=2).count, 'numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "False"]


def test_the_bitboard_solver_takes_digits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bk, "FIRST_FRAMES", 1)  # (the bitboard one keeps a stack deep enough)
    solver = backtrack_solver(max_limit=3, same_search=False)
    assert solver.classic and not backtrack_solver(max_limit=2).classic
    puzzles = load_puzzles("17clue", 10) + load_puzzles("forum-hardest", 5)
    puzzles += [Puzzle.parse(no_solution_puzzle()), Puzzle(none_puzzle(9))]
    puzzles += [Puzzle.parse(r["puzzle"]) for r in read_csv(DATA / "multiple.csv")[:3]]
    import numpy as np

    grid = np.array([list(p.cells) for p in puzzles], dtype=np.uint8)
    counts, first = solver.count_many(grid, 3)
    for i, puzzle in enumerate(puzzles):
        reference = pure(puzzle, 3)
        count, solutions = solver.solve(puzzle.digits, 3)
        assert count == len(reference.solutions) == counts[i]
        found = [tuple(s) for s in solutions.tolist()]
        assert len(set(found)) == count and all(puzzle.is_solution(s) for s in found)
        if reference.exhausted:
            assert sorted(found) == sorted(reference.solutions)
        if count:
            assert puzzle.is_solution(tuple(first[i].tolist()))
    hardest = np.array([list(load_puzzles("forum-hardest", 1)[0].cells)], dtype=np.uint8)
    assert solver.count_many(hardest, 2, node_limit=1)[0][0] == -1


def test_the_one_buffer_entry_is_the_bitboard_kernel_s_run() -> None:
    """``classic.run_buffer`` (the classic :class:`Solver`'s and the door's entry: one buffer
    instead of six arrays) gives what ``classic.run`` with its own arrays gives: status,
    counters and solutions, for each limit."""
    import numpy as np

    classic = bk.load_classic_kernel()
    kernel = bk.load_kernel()
    puzzles = load_puzzles("17clue", 5) + load_puzzles("forum-hardest", 5)
    puzzles += [Puzzle.parse(no_solution_puzzle()), Puzzle(none_puzzle(9))]
    puzzles += [Puzzle.parse(r["puzzle"]) for r in read_csv(DATA / "multiple.csv")[:3]]
    marks = np.array(bk.classic_marks(load_model("classic"), 9), dtype=np.int32)
    words, ctrl = classic.buffer(marks)
    for puzzle in puzzles:
        digits = np.frombuffer(puzzle.digits, dtype=np.uint8)
        for limit in (1, 2, 3):
            sols = np.zeros((3, 81), dtype=np.uint8)
            status = classic.run_buffer(digits, sols, words, limit)
            plain_ctrl = np.zeros(kernel.CTRL_SIZE, dtype=np.int64)
            plain_ctrl[kernel.BUDGET] = 1 << 62
            plain_ctrl[kernel.LIMIT_AT] = limit
            plain_sols = np.zeros((3, 81), dtype=np.uint8)
            frames = np.empty((82, classic.WIDTH), dtype=np.uint64)
            plain = classic.run(
                digits,
                marks,
                frames,
                np.empty(82, dtype=np.int64),
                np.empty(82, dtype=np.uint64),
                np.empty(classic.WIDTH, dtype=np.uint64),
                plain_sols,
                plain_ctrl,
            )
            assert status == plain
            assert ctrl.tolist()[:6] == plain_ctrl.tolist()[:6]
            assert (sols == plain_sols).all()


def test_the_bitboard_run_without_reference_counts_is_the_counted_one() -> None:
    """``classic.run`` is compiled without numba's reference counting where numba has the
    switch (``classic._UNCOUNTED``, a speed trick): the same code compiled with it (numba's
    default) gives the same status, counters and solutions."""
    import numpy as np
    from numba import njit

    classic = bk.load_classic_kernel()
    kernel = bk.load_kernel()
    counted = njit(classic.run.py_func)
    puzzles = load_puzzles("17clue", 3) + load_puzzles("forum-hardest", 5)
    puzzles += [Puzzle.parse(no_solution_puzzle()), Puzzle(none_puzzle(9))]
    puzzles += [Puzzle.parse(r["puzzle"]) for r in read_csv(DATA / "multiple.csv")[:3]]
    marks = np.array(bk.classic_marks(load_model("classic"), 9), dtype=np.int32)
    for puzzle in puzzles:
        digits = np.frombuffer(puzzle.digits, dtype=np.uint8)
        for limit in (1, 2, 3):
            outcomes = []
            for run in (classic.run, counted):
                ctrl = np.zeros(kernel.CTRL_SIZE, dtype=np.int64)
                ctrl[kernel.BUDGET] = 1 << 62
                ctrl[kernel.LIMIT_AT] = limit
                sols = np.zeros((3, 81), dtype=np.uint8)
                status = run(
                    digits,
                    marks,
                    np.empty((82, classic.WIDTH), dtype=np.uint64),
                    np.empty(82, dtype=np.int64),
                    np.empty(82, dtype=np.uint64),
                    np.empty(classic.WIDTH, dtype=np.uint64),
                    sols,
                    ctrl,
                )
                outcomes.append((status, ctrl.tolist(), sols.tolist()))
            assert outcomes[0] == outcomes[1]


def test_the_bitboard_triads_match_their_definition() -> None:
    """The classic kernel reads a band word's triads, and a row with one place left, through
    tables (``MINIROWS``, ``KEEP``, ``ALONE``: a speed trick). Against the definitions, written
    here from the rules: bit ``3 r + k`` is set when row ``r`` of the band meets box ``k`` in a
    candidate; a band keeps the cells of the intersections that lie on a choice of one
    intersection per row, each in another box; a row is alone when it has one bit or none."""
    import itertools
    import random

    import numpy as np

    classic = bk.load_classic_kernel()

    def triads(w: int) -> int:
        return sum(1 << (3 * r + k) for r in range(3) for k in range(3) if w >> (9 * r + 3 * k) & 7)

    def band(w: int) -> int:
        occ = triads(w)
        kept = 0
        for boxes in itertools.permutations(range(3)):
            if all(occ >> (3 * r + boxes[r]) & 1 for r in range(3)):
                for r in range(3):
                    kept |= 7 << (9 * r + 3 * boxes[r])
        return w & kept

    rng = random.Random(34)
    words = [rng.getrandbits(27) & rng.getrandbits(27) for _ in range(3000)]
    words += [1 << p for p in range(27)] + [(1 << 27) - 1, 0x1FF, 0x7007007]
    for x in range(512):
        assert int(classic.ALONE[x]) == (x if bin(x).count("1") <= 1 else 0)
    for w in words:
        assert int(classic._triads(np.uint64(w))) == triads(w), hex(w)
        assert int(classic._band(np.uint64(w))) == band(w), hex(w)


def test_the_solver_refuses_digits_it_cannot_read() -> None:
    solver = backtrack_solver(same_search=False)
    with pytest.raises(ValueError, match="80 digits for 81 cells"):
        solver.solve(bytes(80), 2)
    # A digit above 9 is no digit of the grid: no solution (it must not write past the board).
    count, _ = solver.solve(bytes([10] + [0] * 80), 2)
    assert count == 0


def test_solver_grows_its_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bk, "FIRST_FRAMES", 1)
    solver = backtrack_solver(max_limit=2)
    for puzzle in load_puzzles("forum-hardest", 3):
        count, solutions = solver.solve(puzzle.digits, 2)
        assert [tuple(s) for s in solutions.tolist()] == pure(puzzle, 2).solutions
    # The batch entry grows its own stack (64 frames first): a big empty grid goes deep.
    import numpy as np

    big = backtrack_solver(size=25, max_limit=2)
    counts, first = big.count_many(np.zeros((1, 625), dtype=np.uint8), 2)
    assert counts[0] == 2 and Puzzle([0] * 625).is_solution(tuple(first[0].tolist()))
