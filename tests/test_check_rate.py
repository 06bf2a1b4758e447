"""``check --rate``: each unique puzzle's record carries its HoDoKu rating, the summary counts
the levels, and puzzles the rating cannot take say why."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from puzzles import DATA

from sudoku_cp import Puzzle
from sudoku_cp.batch import check_puzzles
from sudoku_cp.cli import main
from sudoku_cp.logic.rating import rate_puzzle

EASY = "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"
TWO_SOLUTIONS = "." * 81


def test_each_unique_record_carries_the_rating_rate_puzzle_gives() -> None:
    lines = [line.split(",")[1] for line in (DATA / "famous.csv").read_text().splitlines()[1:6]]
    lines += [EASY, TWO_SOLUTIONS]
    records = sorted(
        check_puzzles(lines, backends="backtrack,sat", jobs=0, rate=True), key=lambda r: r.index
    )
    for record in records[:-1]:
        expected = rate_puzzle(Puzzle.parse(record.puzzle))
        assert record.verdict.value == "unique" and record.rating is not None
        assert (record.rating["level"], record.rating["score"], record.rating["hardest"]) == (
            expected.level,
            expected.score,
            expected.hardest,
        )
    assert records[-1].verdict.value == "multiple" and records[-1].rating is None
    plain = next(iter(check_puzzles([EASY], backends="backtrack,sat", jobs=0)))
    assert plain.rating is None and "rating" not in plain.to_dict()


def test_check_rate_in_records_summary_and_for_puzzles_with_rules(tmp_path: Path) -> None:
    killer = tmp_path / "killer.jsonl"
    killer.write_text((DATA / "killer.jsonl").read_text().splitlines()[0] + "\n")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(
        main, ["check", EASY, str(killer), "--rate", "-b", "sat,cpsat", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    easy, cage = (json.loads(line) for line in out.read_text().splitlines())
    if easy["index"] != 1:
        easy, cage = cage, easy
    assert easy["rating"]["level"] == "Medium" and easy["rating"]["outcome"] == "solved"
    # a killer is rated too now, by the variant steps (sudoku_cp.logic.variants)
    level = cage["rating"]["level"]
    assert level in ("Easy", "Medium", "Hard", "Unfair", "Extreme"), cage["rating"]
    assert "not rated" not in result.output
    meta = json.loads(Path(str(out) + ".meta.json").read_text())
    assert sum(meta["summary"]["rated"].values()) == 2


def test_bench_puts_the_logic_rating_beside_the_search_effort(tmp_path: Path) -> None:
    import csv

    out = tmp_path / "bench"
    result = CliRunner().invoke(
        main, ["bench", "famous", "--backends", "logic,backtrack", "-o", str(out), "-q"]
    )
    assert result.exit_code in (0, 3), result.output  # (logic leaves some famous undecided)
    rows = list(csv.DictReader((out / "results.csv").open()))
    puzzles = {row["id"]: row["puzzle"] for row in csv.DictReader((DATA / "famous.csv").open())}
    logic = [row for row in rows if row["backend"] == "logic"]
    assert len(logic) == 20 and all(row["nodes"] for row in rows if row["backend"] == "backtrack")
    levels = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
    for row in logic:
        expected = rate_puzzle(Puzzle.parse(puzzles[row["puzzle_id"]]), uniqueness=False)
        assert int(row["score"]) == expected.score
        assert int(row["level"]) == levels.index(expected.level) + 1
