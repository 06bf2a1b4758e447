"""The propagation levels and CNF encodings of ``bench --propagation`` on hand-checked cases,
the encodings against the validator on real puzzles, and the command itself on a tiny dataset.

Every expected outcome below is derived by hand in the comment beside it (the reasoning of the
level's definition), never taken from this code's output."""

from __future__ import annotations

import csv
import io

import pytest
from clitools import error_line, run
from puzzles import EULER, EULER_SOLUTION, INKALA

from sudoku_cp.bench import propagation as P
from sudoku_cp.bench import propagation_run as PR
from sudoku_cp.datasets import load_puzzles
from sudoku_cp.puzzle import Puzzle


def _puzzle(text: str) -> Puzzle:
    return Puzzle([0 if ch == "." else int(ch) for ch in text])


# 6x6, boxes 2 rows x 3 columns.  . . 3 4 . . / 4 . . . 2 3 / 2 . . 5 . . / . . 4 . 3 . /
# 3 . . . . 5 / . . 5 . 1 .
# Forward checking: r5c0 sees 5,1 in its row, 4,2,3 in its column, so it is 6 (the one naked
# single); nothing else narrows to one digit (r0c0 keeps 1,5; r0c4 5,6; r0c5 1,6; r1c1 1,5,6 …).
# Hidden single: in row 0, digit 2 cannot go in c0 (2 in column 0), c4 (2 in column 4), c5 (the
# top-right box holds 2 at r1c4): only r0c1 — and singles finish the grid from there.
SINGLES_NOT_FC = "..34..4...232..5....4.3.3....5..5.1."
# 6x6: . . 3 . 5 . / . . 6 1 . . / . . . . . 4 / . . . 2 3 . / 3 1 . . . . / 6 . 5 . . .
# No single and no subset in one group is left once GAC holds (r0c1 keeps 2,4, r1c0 2,4 …).
# Placing 4 in r0c1 forces, by singles alone: r0c3=6 and r0c5=2 (row 0), r1c0=2 (box), r1c4=4,
# r5c1=2 (column 1), r5c5=1, r3c5=5, r4c5=6, r2c3=5, r4c3=4, r4c4=2 — and r4c2 (2 or 4) is left
# empty. So SAC removes 4 from r0c1, and shaving goes on to the whole grid.
SAC_NOT_GAC = "..3.5...61.......4...23.31....6.5..."
# 4x4: 1 2 . . / . . 3 . / . . . . / . . . .  Row 0 needs 3 in c2 or c3, both in the top-right
# box that holds 3 at r1c2: no solution. Forward checking sees it (r0c2 and r0c3 are both {4}).
NO_SOLUTION = "12....3........."


def test_forward_checking_stops_where_a_hidden_single_is_needed():
    puzzle = _puzzle(SINGLES_NOT_FC)
    fc = P.propagate(puzzle, "fc")
    assert fc.outcome == P.OPEN
    doms = P.candidates(puzzle, "fc")
    assert doms is not None
    assert doms[30] == 1 << 5  # r5c0 = 6, the one naked single
    assert [c for c in range(6) if doms[c] & 0b10] == [1]  # 2 has one place in row 0
    assert doms[1].bit_count() > 1  # …in a cell that still has other candidates
    singles = P.propagate(puzzle, "singles")
    assert singles.outcome == P.SOLVED
    assert puzzle.is_solution(singles.grid)
    assert P.propagate(puzzle, "gac").grid == singles.grid == P.propagate(puzzle, "sac").grid


def test_gac_on_alldifferent_removes_what_naked_and_hidden_pairs_remove():
    # One group of four cells over digits 1..4 (masks written as digit sets).
    def gac(*cells: set[int]) -> list[set[int]] | None:
        return P.alldifferent_gac(list(cells))

    # Naked pair {1,2} in A and B: C and D lose 1 and 2 (no single: singles do nothing here).
    assert gac({1, 2}, {1, 2}, {1, 2, 3, 4}, {1, 2, 3, 4}) == [{1, 2}, {1, 2}, {3, 4}, {3, 4}]
    # … and the hidden pair 3, 4 (only in C and D) the other way round.
    assert gac({1, 2, 3, 4}, {1, 2, 3, 4}, {3, 4}, {3, 4}) == [{1, 2}, {1, 2}, {3, 4}, {3, 4}]
    # Six cells: 5 and 6 fit only E and F, which lose 1 and 2 (no cell and no digit single).
    quad = {1, 2, 3, 4, 5, 6} - {5, 6}
    assert gac(quad, quad, quad, quad, {1, 5, 6}, {2, 5, 6}) == [quad] * 4 + [{5, 6}, {5, 6}]
    # Three cells sharing two digits: no matching, the constraint fails.
    assert gac({1, 2}, {1, 2}, {1, 2}, {1, 2, 3, 4}) is None
    # Fewer cells than digits (free digits): A, B hold {1,2} between them, so C is 3; and two
    # cells over three digits lose nothing (each digit fits some assignment).
    assert gac({1, 2}, {1, 2}, {1, 2, 3}) == [{1, 2}, {1, 2}, {3}]
    assert gac({1, 2, 3}, {1, 2, 3}) == [{1, 2, 3}, {1, 2, 3}]
    # A digit reached only through an alternating path from a free digit stays: A {1,2}, B {2,3}
    # over digits 1..3 (A=1,B=2 / A=1,B=3 / A=2,B=3).
    assert gac({1, 2}, {2, 3}) == [{1, 2}, {2, 3}]


def test_gac_solves_what_singles_leave_on_real_puzzles():
    # The bundled 17-clue sample: GAC (Hall sets in one group) is stronger than singles, and
    # each level's grid is the validator's solution.
    puzzles = load_puzzles("17clue", 12)
    solved = {level: [P.propagate(p, level) for p in puzzles] for level in P.LEVELS}
    for level, results in solved.items():
        for puzzle, result in zip(puzzles, results, strict=True):
            assert result.outcome in (P.SOLVED, P.OPEN), level
            if result.outcome == P.SOLVED:
                assert puzzle.is_solution(result.grid)
    for weaker, stronger in zip(P.LEVELS, P.LEVELS[1:], strict=False):  # each level implies
        for a, b in zip(solved[weaker], solved[stronger], strict=True):  # the one before it
            assert a.outcome != P.SOLVED or b.outcome == P.SOLVED
            assert b.left <= a.left or b.outcome == P.SOLVED
    assert any(
        a.outcome == P.OPEN and b.outcome == P.SOLVED
        for a, b in zip(solved["singles"], solved["gac"], strict=True)
    )


def test_sac_shaves_what_gac_cannot():
    puzzle = _puzzle(SAC_NOT_GAC)
    gac = P.candidates(puzzle, "gac")
    assert gac is not None and gac[1] == 0b1010  # r0c1 keeps 2 and 4 under GAC
    assert P.propagate(puzzle, "gac").outcome == P.OPEN
    sac = P.propagate(puzzle, "sac")
    assert sac.outcome == P.SOLVED and sac.grid is not None
    assert sac.grid[1] == 2 and puzzle.is_solution(sac.grid)


def test_every_level_refutes_a_puzzle_without_solution_and_leaves_an_empty_grid_open():
    for level in P.LEVELS:
        assert P.propagate(_puzzle(NO_SOLUTION), level).outcome == P.REFUTED
        assert P.propagate(Puzzle([0] * 16), level).outcome == P.OPEN


def test_the_levels_refuse_rules_they_do_not_read():
    from sudoku_cp.errors import InputError

    (variant,) = load_puzzles("variants9", 1)
    assert not P.groups_only(variant)
    with pytest.raises(InputError, match="read groups only"):
        P.propagate(variant, "gac")


# --- encodings -------------------------------------------------------------------------------
def test_clause_counts_are_the_papers():
    # Lynce & Ouaknine count 8,829 clauses for the minimal encoding and 11,988 for the extended
    # one: 81 cells' at-least-one + 27 groups x 9 digits x 36 pairs; + 81 x 36 cell pairs + 243
    # group at-least-ones. Triads: 54 intersections x 9 digits x (1 + 3) definitions, and 36
    # exactly-ones (9 rows, 9 columns, 9 boxes twice) x 9 digits x (1 + 3).
    counts = {e: len(P.encode_classic(e, 9, (3, 3))[1]) for e in P.ENCODINGS}
    assert counts == {
        "minimal": 81 + 27 * 9 * 36,
        "efficient": 81 + 27 * 9 * 36 + 81 * 36,
        "extended": 81 + 27 * 9 * 36 + 81 * 36 + 243,
        "redundant": 81 + 27 * 9 * 36 + 81 * 36 + 243 + 54 * 9 * 4 + 36 * 9 * 4,
    }
    assert counts["minimal"] == 8829 and counts["extended"] == 11988


def _counted(puzzle: Puzzle, encoding: str) -> tuple[int, tuple[int, ...] | None]:
    box = P.classic_box(puzzle)
    assert box is not None
    variables, clauses = P.encode_classic(encoding, puzzle.size, box)
    counter = P.CnfCounter(variables, clauses, puzzle.size)
    try:
        counter.rebuild_if_due()
        return counter.count(P.given_literals(puzzle))
    finally:
        counter.close()


@pytest.mark.parametrize("encoding", P.ENCODINGS)
def test_each_encoding_has_the_validators_solutions(encoding):
    # Unique puzzles: one solution, the published one, which the validator accepts.
    euler = _puzzle(EULER)
    assert _counted(euler, encoding) == (1, tuple(map(int, EULER_SOLUTION)))
    for puzzle in (*load_puzzles("16x16", 1), _puzzle(INKALA)):
        count, grid = _counted(puzzle, encoding)
        assert count == 1 and puzzle.is_solution(grid)
    # serg's benchmark puzzles have several solutions; a hand-made one has none; a 6x6 grid
    # (boxes 2x3) and an empty 4x4 grid work as well.
    for puzzle in load_puzzles("multiple", 2):
        count, grid = _counted(puzzle, encoding)
        assert count == 2 and puzzle.is_solution(grid)
    assert _counted(_puzzle(NO_SOLUTION), encoding) == (0, None)
    six = _puzzle(SAC_NOT_GAC)
    assert _counted(six, encoding) == (1, P.propagate(six, "sac").grid)
    count, grid = _counted(Puzzle([0] * 16), encoding)
    assert count == 2 and Puzzle([0] * 16).is_solution(grid)


def _probe(puzzle: Puzzle, encoding: str, method: str) -> P.Propagated:
    box = P.classic_box(puzzle)
    assert box is not None
    variables, clauses = P.encode_classic(encoding, puzzle.size, box)
    probe = P.CnfProbe(variables, clauses, puzzle.size)
    try:
        givens = P.given_literals(puzzle)
        return probe.up(givens) if method == "up" else probe.failed_literals(givens)
    finally:
        probe.close()


def test_unit_propagation_matches_the_levels_it_simulates():
    # Unit propagation on the minimal and efficient encodings is forward checking (a given
    # falsifies its digit in its groups; a cell with one digit left takes it): no hidden single.
    # The extended encoding's group at-least-ones add hidden singles.
    puzzle = _puzzle(SINGLES_NOT_FC)
    assert _probe(puzzle, "minimal", "up").outcome == P.OPEN
    assert _probe(puzzle, "efficient", "up").outcome == P.OPEN
    extended = _probe(puzzle, "extended", "up")
    assert extended.outcome == P.SOLVED and puzzle.is_solution(extended.grid)
    assert _probe(puzzle, "redundant", "up").grid == extended.grid
    for encoding in P.ENCODINGS:  # r0c2 and r0c3 both reduce to 4: a conflict by propagation
        assert _probe(_puzzle(NO_SOLUTION), encoding, "up").outcome == P.REFUTED
        assert _probe(Puzzle([0] * 16), encoding, "up").outcome == P.OPEN


def test_failed_literals_find_the_placement_that_fails():
    # SAC_NOT_GAC: singles alone leave it open, so unit propagation on the extended encoding does;
    # placing 4 in r0c1 fails by singles (see above), so that literal fails under propagation and
    # the probing goes on to the whole grid.
    puzzle = _puzzle(SAC_NOT_GAC)
    assert P.propagate(puzzle, "singles").outcome == P.OPEN
    assert _probe(puzzle, "extended", "up").outcome == P.OPEN
    probed = _probe(puzzle, "extended", "failed-literals")
    assert probed.outcome == P.SOLVED and probed.grid is not None and probed.grid[1] == 2
    assert puzzle.is_solution(probed.grid)
    assert _probe(_puzzle(NO_SOLUTION), "minimal", "failed-literals").outcome == P.REFUTED


def test_classic_box_is_only_for_classic_puzzles():
    assert P.classic_box(_puzzle(EULER)) == (3, 3)
    assert P.classic_box(_puzzle(SAC_NOT_GAC)) == (2, 3)
    (variant,) = load_puzzles("variants9", 1)
    assert P.classic_box(variant) is None
    (jigsaw,) = load_puzzles("jigsaw", 1)
    assert P.classic_box(jigsaw) is None and P.groups_only(jigsaw)


# --- the command -----------------------------------------------------------------------------
def test_bench_propagation_on_a_tiny_dataset(tmp_path):
    data = tmp_path / "tiny.csv"
    data.write_text(
        f"id,puzzle,solution\neuler,{EULER},{EULER_SOLUTION}\nsix,{SINGLES_NOT_FC},\n"
        f"none,{NO_SOLUTION},\n"
    )
    out = tmp_path / "out"
    result = run("bench", str(data), "jigsaw", "--propagation", "--max-puzzles", "2", "-o",
                 str(out), "-q", "--plot")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "tiny: 2 puzzles" in result.stdout and "jigsaw: 2 puzzles" in result.stdout
    assert "extended/up" in result.stdout and "certificate/cdcl" in result.stdout
    rows = list(csv.DictReader(io.StringIO((out / "propagation.csv").read_text())))
    assert tuple(rows[0]) == PR.COLUMNS
    assert len(rows) == 2 * 2 * len(PR.METHODS)  # two datasets x two puzzles x every method
    mine = {(r["puzzle_id"], r["encoding"], r["method"]): r for r in rows if r["dataset"] == "tiny"}
    assert mine[("euler", "extended", "cdcl")]["outcome"] == "solved"  # one solution, the file's
    assert mine[("six", "", "fc")]["outcome"] == "open"
    assert mine[("six", "", "singles")]["outcome"] == "solved"
    assert mine[("six", "certificate", "up")]["outcome"] == "skipped"  # classic: four encodings
    jig = [r for r in rows if r["dataset"] == "jigsaw"]
    assert {r["outcome"] for r in jig if r["encoding"] in P.ENCODINGS} == {"skipped"}
    assert all(r["wrong"] == "" for r in rows)
    assert (out / "propagation.png").stat().st_size > 0


def test_bench_propagation_checks_answers_against_the_file(tmp_path):
    # A file claiming a solution for a puzzle without one: every refutation is flagged wrong,
    # and the command exits 3.
    data = tmp_path / "claims.csv"
    data.write_text(f"id,puzzle,solution_count\nnone,{NO_SOLUTION},1\nbad,12,1\n")
    result = run("bench", str(data), "--propagation", "-o", str(tmp_path / "o"), "-q")
    assert result.exit_code == 3
    assert "WRONG on claims" in result.stdout
    assert "claims: 1 line(s) are not puzzles and were not measured" in result.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-b", "backtrack"], "--backends cannot be used with --propagation"),
        (["--repeat", "2", "-j", "2"], "--repeat, --jobs cannot be used with --propagation"),
    ],
)
def test_backend_options_are_refused_with_propagation(tmp_path, extra, message):
    result = run("bench", "easy", "--propagation", *extra, "-o", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert message in error_line(result)
    assert not (tmp_path / "o").exists()


def test_max_puzzles_goes_with_propagation_and_has_a_cap(tmp_path):
    result = run("bench", "easy", "--max-puzzles", "3", "-o", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert "--max-puzzles goes with --propagation" in error_line(result)
    result = run("bench", "easy", "--propagation", "--max-puzzles", "2000000")
    assert result.exit_code == 2
    assert "1000000" in error_line(result) or "1,000,000" in error_line(result)


def test_the_csv_is_the_rows():
    rows = [
        {
            "dataset": "d",
            "puzzle_id": "p",
            "family": "propagation",
            "encoding": "",
            "method": "fc",
            "outcome": "open",
            "seconds": 0.5,
            "left": 3,
            "wrong": "",
        }
    ]
    assert PR.csv_text(rows).splitlines()[1] == "d,p,propagation,,fc,open,0.5000000,3,"


def test_a_cdcl_count_stops_at_its_deadline():
    # (A variant puzzle once kept minisat busy for many minutes: the count had no deadline.)
    import time

    puzzle = _puzzle(INKALA)
    variables, clauses = P.encode_classic("minimal", 9, (3, 3))
    counter = P.CnfCounter(variables, clauses, 9)
    try:
        counter.rebuild_if_due()
        with pytest.raises(P.Timeout):
            counter.count(P.given_literals(puzzle), time.perf_counter() - 1)
        assert counter.count(P.given_literals(puzzle), time.perf_counter() + 60)[0] == 1
    finally:
        counter.close()
