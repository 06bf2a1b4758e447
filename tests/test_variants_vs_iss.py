"""The benchmark of issue 34 (tools/perf/variants_vs_iss.py): its arguments, its checks of the
answers, its ratios and summary, and its node process running the Interactive Sudoku Solver
(when a checkout of it is at hand). Nothing here is timed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.datasets import bundled_path, load_puzzles
from sudoku_cp.formats import read_puzzles
from sudoku_cp.formats.iss_writer import format_iss
from sudoku_cp.puzzle import Puzzle
from tools.perf import variants_vs_iss as bench

ISS = Path("/tmp/ref/sigh+Interactive-Sudoku-Solver")
needs_iss = pytest.mark.skipif(
    not (ISS / "js/solver/sudoku_builder.js").is_file() or shutil.which("node") is None,
    reason="needs a checkout of the Interactive Sudoku Solver at /tmp/ref and node",
)

# AI Escargot and the solution bundled with it (sudoku_cp/data/famous.csv, from its source)
ESCARGOT = [
    int(c) if c != "." else 0
    for c in "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
]
ESCARGOT_SOLUTION = tuple(
    int(d)
    for d in "162857493534129678789643521475312986913586742628794135356478219241935867897261354"
)


def test_no_checkout_is_one_line_and_exit_2_saying_how_to_get_it(tmp_path, capsys) -> None:
    assert bench.main(["--iss", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "js/sudoku_parser.js missing" in err
    assert "git clone https://github.com/sigh/Interactive-Sudoku-Solver" in err
    assert bench.main([]) == 2  # --iss not given
    assert "--iss PATH" in capsys.readouterr().err


@needs_iss
def test_unknown_set_or_backend_is_exit_2(capsys) -> None:
    assert bench.main(["--iss", str(ISS), "--sets", "no-such-set"]) == 2
    assert "unknown bundled set 'no-such-set'" in capsys.readouterr().err
    assert bench.main(["--iss", str(ISS), "--backends", "no-such"]) == 2
    assert "unknown backend 'no-such'" in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--repeat", "0"], ["--repeat", "21"], ["--time-limit", "0"]])
def test_numbers_are_capped(option) -> None:
    with pytest.raises(SystemExit) as exit:
        bench.parse_args(option)
    assert exit.value.code == 2


def _row(iss: bench.Side | None, **ours: bench.Side) -> bench.Row:
    return bench.Row("s", 1, "t", iss=iss, ours=dict(ours))


def test_ratio_is_the_fastest_deciding_backend_over_iss() -> None:
    row = _row(
        bench.Side("unique", [10.0, 30.0, 20.0]),  # median 20
        backtrack=bench.Side("timeout", limit_ms=10_000),
        sat=bench.Side("unique", [70.0]),
        cpsat=bench.Side("unique", [50.0, 40.0, 60.0]),  # median 50: the fastest
    )
    assert row.fastest() == ("cpsat", 50.0)
    assert row.ratio() == 2.5 and row.within_target()
    assert row.backtrack_in_time() is False
    row.ours["cpsat"].ms = [61.0]
    assert row.fastest() == ("cpsat", 61.0) and not row.within_target()  # 3.05 times ISS's


def test_iss_out_of_time_bounds_the_ratio_and_nothing_decided_has_none() -> None:
    row = _row(bench.Side("timeout", limit_ms=1000), sat=bench.Side("unique", [500.0]))
    assert row.ratio() == 0.5 and row.within_target()
    assert row.backtrack_in_time() is None  # backtrack not run
    undecided = _row(bench.Side("unique", [5.0]), sat=bench.Side("timeout", limit_ms=1000))
    assert undecided.ratio() is None and not undecided.within_target()
    slow = _row(bench.Side("unique", [5.0]), backtrack=bench.Side("unique", [10_001.0]))
    assert slow.backtrack_in_time() is False


def test_summary_counts_per_set_and_leaves_puzzles_iss_cannot_take_out_of_the_ratio() -> None:
    rows = [
        _row(bench.Side("unique", [10.0]), backtrack=bench.Side("unique", [20.0])),
        _row(bench.Side("unique", [10.0]), backtrack=bench.Side("unique", [40.0])),
        _row(bench.Side(bench.UNWRITTEN, detail="why"), backtrack=bench.Side("unique", [1.0])),
        bench.Row("s", 4, "t", skipped="not read: why"),
        bench.Row("other", 1, "t", iss=bench.Side("unique", [1.0])),
    ]
    rows[1].problems.append("statuses differ")
    s = bench.summary(rows)
    assert s["s"] == {
        "puzzles": 4,
        "skipped": 1,
        "run": 3,
        "compared": 2,
        "within_3x": 1,
        "backtrack_10s": 3,
        "backtrack_run": 3,
        "median_ratio": 3.0,
        "worst_ratio": 4.0,
        "disagreements": 1,
    }
    assert s["other"]["within_3x"] == 0 and s["other"]["backtrack_run"] == 0


def test_disagreements_are_between_decided_sides_only() -> None:
    agreeing = _row(bench.Side("unique", [1.0]), sat=bench.Side("unique", [1.0]))
    assert bench.disagreements(agreeing) == []
    timed_out = _row(bench.Side("unique", [1.0]), sat=bench.Side("timeout"))
    assert bench.disagreements(timed_out) == []
    differ = _row(bench.Side("multiple", [1.0]), sat=bench.Side("unique", [1.0]))
    assert bench.disagreements(differ) == ["statuses differ: ISS multiple, sat unique"]


def test_answers_are_checked_by_the_validator_the_published_solution_and_the_count() -> None:
    puzzle = Puzzle(ESCARGOT, published=ESCARGOT_SOLUTION)
    assert bench.answer_problems("sat", "unique", [ESCARGOT_SOLUTION], puzzle, 1) == []
    wrong = list(ESCARGOT_SOLUTION)
    wrong[1], wrong[2] = wrong[2], wrong[1]  # r1c2 and r1c3 swapped: columns repeat
    broken, differs = bench.answer_problems("ISS", "unique", [wrong], puzzle, None)
    assert broken.startswith("ISS's solution breaks the puzzle: ")
    assert differs.startswith("ISS says unique, but the published solution holds as read")
    # a published solution found beside another one: the setter's puzzle is unique
    [problem] = bench.answer_problems("sat", "multiple", [ESCARGOT_SOLUTION], puzzle, None)
    assert problem.startswith("sat says multiple, but the published solution")
    [problem] = bench.answer_problems("sat", "none", [], puzzle, None)
    assert problem.startswith("sat says none, but ")
    plain = Puzzle(ESCARGOT)
    [problem] = bench.answer_problems("sat", "unique", [ESCARGOT_SOLUTION], plain, 2)
    assert problem == "sat says unique; the set states 2 solution(s)"
    assert bench.answer_problems("sat", "timeout", [], puzzle, 2) == []  # nothing decided


def test_a_published_solution_breaking_the_puzzle_as_read_is_said_once() -> None:
    givens = list(ESCARGOT)
    givens[80] = 9  # a given the published solution (4 in r9c9) breaks
    puzzle = Puzzle(givens, published=ESCARGOT_SOLUTION)
    [problem] = bench.published_breaks(puzzle)
    assert problem.startswith("the published solution breaks the puzzle as read (r9c9 is 4")
    assert bench.published_breaks(Puzzle(ESCARGOT, published=ESCARGOT_SOLUTION)) == []


def test_titles_come_from_the_set_and_unread_records_are_kept() -> None:
    entries = bench.entries("iss")
    records = list(read_puzzles(bundled_path("iss")))
    assert len(entries) == len(records)  # every record, read or not
    assert entries[0].title == "Classic sudoku"  # its "name" (sudoku_cp/data/iss.jsonl)
    unread = [e for e in entries if e.puzzle is None]
    assert unread and all(e.reason for e in unread)
    assert bench.entries("variants9")[1].title == "Thermo"
    assert bench.entries("jigsaw")[0].title == "janko_jigsaw_93_9x9"  # the CSV's id


@needs_iss
def test_iss_process_answers_unique_none_and_errors_and_restarts_after_a_timeout() -> None:
    node = shutil.which("node")
    assert node is not None
    iss = bench.IssSolver(ISS, node)
    try:
        puzzle = Puzzle(ESCARGOT)
        answer = iss.solve(format_iss(puzzle.cells, puzzle.size, puzzle.model), 60)
        assert answer["status"] == "unique" and tuple(answer["solution"]) == ESCARGOT_SOLUTION
        # two 1s in row 1 (ISS's givens, as its classic example writes them): no solution
        answer = iss.solve(".~R1C1_1~R1C2_1", 60)
        assert answer["status"] == "none" and answer["solution"] is None
        answer = iss.solve(".NoSuchType~1", 60)
        assert answer["status"] == "error" and "NoSuchType" in answer["error"]
        # The Barbed Cross (variants9 #14): hundreds of ISS's guesses, far past a microsecond
        barbed = load_puzzles("variants9")[13]
        text = format_iss(barbed.cells, barbed.size, barbed.model)
        assert iss.solve(text, 1e-6) == {"status": "timeout"}
        assert iss._proc is None  # killed; the next solve starts a fresh process
        answer = iss.solve(text, 120)
        assert answer["status"] == "unique" and tuple(answer["solution"]) == barbed.published
    finally:
        iss.close()


@needs_iss
def test_a_puzzle_iss_cannot_be_given_still_runs_on_our_side() -> None:
    node = shutil.which("node")
    assert node is not None
    # (ISS's Indexing is by row or column only: no box indexer)
    [entry] = [e for e in bench.entries("published") if e.title == "Box Indexing Test"]
    iss = bench.IssSolver(ISS, node)
    try:
        row = bench.run_entry(entry, iss, {"sat": get_backend("sat")}, 60, 2)
    finally:
        iss.close()
    assert row.unwritten.startswith("not written for ISS: the box indexer rule")
    assert row.ours["sat"].status == "unique" and row.problems == []
    assert len(row.ours["sat"].ms) == 2  # every round of ours is timed
    assert row.ratio() is None and not row.skipped


@needs_iss
def test_both_sides_run_a_puzzle_iss_first_solving_it_once_untimed() -> None:
    node = shutil.which("node")
    assert node is not None
    [entry] = [e for e in bench.entries("variants9") if e.title == "Thermo"]
    iss = bench.IssSolver(ISS, node)
    try:
        row = bench.run_entry(entry, iss, {"sat": get_backend("sat")}, 60, 1)
        cold = bench.run_entry(entry, iss, {"sat": get_backend("sat")}, 60, 1, warm=False)
    finally:
        iss.close()
    for done in (row, cold):
        assert done.iss is not None and done.iss.status == "unique"
        assert done.ours["sat"].status == "unique" and done.problems == []
        assert len(done.iss.ms) == 1 and len(done.ours["sat"].ms) == 1
        assert done.ratio() is not None
