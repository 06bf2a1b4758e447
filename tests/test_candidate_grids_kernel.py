"""The classic kernel on candidate grids (issue 34): a classic 9x9 puzzle whose only rules limit
which digits cells may take (given pencil marks, so every 729-symbol candidate grid; odd, even)
is searched by the compiled bitboard kernel, its root holding only the cells each digit may
take (``glue.classic_marks``). Every answer here is checked by the plain validator
(``Puzzle.is_solution``) and against a second backend (``sat``), never against our own output.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")
pytest.importorskip("pysat")

from sudoku_cp import Puzzle, Result, get_backend, solve  # noqa: E402
from sudoku_cp.backends.backtrack import last_engine  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import glue  # noqa: E402
from sudoku_cp.datasets import load_puzzles  # noqa: E402
from sudoku_cp.formats.candidates import format_candidates  # noqa: E402


@pytest.fixture(autouse=True)
def _kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "1")  # at the first solve, not after 0.25 s
    glue.warm_up()


def _kernel_solve(puzzle: Puzzle, limit: int | None) -> Result:
    result = get_backend("backtrack").solve(puzzle, limit=limit)
    assert last_engine() == "classic kernel"
    return result


def _agree(puzzle: Puzzle, limit: int | None) -> Result:
    """The kernel's answer, each solution accepted by the validator, and the same status and
    solutions as sat's (the same set: the two find them in different orders)."""
    ours = _kernel_solve(puzzle, limit)
    theirs = get_backend("sat").solve(puzzle, limit=limit)
    assert ours.status == theirs.status
    assert ours.count == theirs.count
    if limit is None or ours.count < limit or ours.count == 1:
        assert set(ours.solutions) == set(theirs.solutions)
    for solution in ours.solutions:
        assert puzzle.is_solution(solution)
    return ours


def _grid(sets: list[set[int]]) -> Puzzle:
    """The puzzle a 729-symbol candidate grid of these cell sets reads as (the format's own
    writer and reader: sudoku_cp/formats/candidates.py)."""
    text = format_candidates([sorted(s) for s in sets], 9)
    assert len(text) == 729
    return Puzzle.parse(text)


def _open_sets(puzzle: Puzzle) -> list[set[int]]:
    """Each cell's candidates once the givens are struck from their peers: the same puzzle,
    written as a candidate grid (a pencil-mark puzzle every blank cell of which is limited)."""
    sets = []
    for cell, given in enumerate(puzzle.cells):
        if given:
            sets.append({given})
            continue
        seen = {puzzle.cells[p] for p in puzzle.model.peers(9)[cell]}
        sets.append(set(range(1, 10)) - seen)
    return sets


@pytest.mark.parametrize(
    ("source", "index"),
    [("variants9", 0), ("published", 32), ("iss", 1), ("iss", 2)],
)
def test_published_puzzles_with_digit_rules_only(source: str, index: int) -> None:
    # Odd and even cells (sigh's examples; a setter's puzzle from dclamage's list) and given
    # pencil marks (ISS's collection: iss 2 has no given at all, 23 sets of marks): unique,
    # and the kernel's solution is the setter's (sudoku_cp/data/SOURCES.md).
    puzzle = load_puzzles(source)[index]
    assert glue.marked(puzzle.model, 9)
    result = _agree(puzzle, 2)
    assert result.status.value == "unique"
    assert result.solution == puzzle.published


def test_classic_puzzles_written_as_candidate_grids_keep_their_answers() -> None:
    for puzzle in load_puzzles("17clue", 4) + load_puzzles("forum-hardest", 3):
        grid = _grid(_open_sets(puzzle))
        assert grid.model.rules  # read with its marks: the kernel's marks path
        result = _agree(grid, 2)
        assert result.status.value == "unique"
        assert result.solutions == solve(puzzle, limit=2).solutions


def test_many_solutions_counted_as_sat_counts_them() -> None:
    # Serg's puzzles with 20 to 872 solutions (multiple.csv), as candidate grids.
    for puzzle in load_puzzles("multiple", 4)[1:]:
        grid = _grid(_open_sets(puzzle))
        counted = _agree(grid, None)
        assert counted.status.value == "multiple"
        assert counted.count == solve(puzzle, limit=None).count
        assert _agree(grid, 5).count == 5


def test_thinned_marks_and_marks_that_leave_no_solution() -> None:
    rng = random.Random(34)
    puzzles = load_puzzles("forum-hardest", 4)
    statuses = set()
    for puzzle in puzzles:
        solution = solve(puzzle, limit=1).solution
        assert solution is not None
        for keep in (0.25, 0.5, 0.75):
            # The solution's digit and a random share of the other open candidates: the
            # solution stays one, others may stay too (unique or multiple).
            sets = [
                {solution[cell]} | {d for d in marks if rng.random() < keep}
                for cell, marks in enumerate(_open_sets(puzzle))
            ]
            statuses.add(_agree(_grid(sets), 3).status.value)
        # The solution's digit struck from one blank cell: the puzzle was unique, so none.
        sets = _open_sets(puzzle)
        blank = next(c for c, g in enumerate(puzzle.cells) if not g and len(sets[c]) > 1)
        sets[blank].discard(solution[blank])
        assert _agree(_grid(sets), 2).status.value == "none"
    assert "unique" in statuses


def test_the_pure_search_agrees_and_the_classic_door_stays_shut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    puzzle = load_puzzles("iss")[1]
    kernel = _kernel_solve(puzzle, 2)
    # The door takes classic puzzles without rules only (its root is every cell open).
    assert glue.classic_door(puzzle.model, puzzle.digits, 2) is None
    assert solve(puzzle, limit=2).solutions == kernel.solutions
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "0")
    pure = get_backend("backtrack").solve(puzzle, limit=2)
    assert last_engine() == "pure"
    assert (pure.status, pure.solutions) == (kernel.status, kernel.solutions)


def test_other_rules_and_groups_stay_off_the_marks_path() -> None:
    killer = next(p for p in load_puzzles("killer") if p.size == 9)
    assert glue.classic_marks(killer.model, 9) is None  # a cage is no digit rule
    odd_even_jigsaw = load_puzzles("published")[11]  # odd and even, but other regions
    assert glue.classic_marks(odd_even_jigsaw.model, 9) is None
    assert glue.classic_marks(Puzzle([0] * 16).model, 4) is None
