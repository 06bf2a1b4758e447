"""The finish-rate benchmark (tools/perf/logic_finish.py) counts real solves and refuses
unusable input in one line with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_cp.datasets import load_puzzles
from sudoku_cp.puzzle import Puzzle
from tools.perf import logic_finish

# Two bundled easy puzzles and the first of tdoku's forum-hardest list
# (puzzles6_forum_hardest_1106.txt), which no default technique up to forcing nets finishes.
EASY = [p.to_line() for p in load_puzzles("easy", 2)]
HARDEST = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


def test_counts_solved_and_stalled_puzzles(tmp_path: Path, capsys) -> None:
    source = tmp_path / "puzzles.txt"
    source.write_text("# a comment\n" + "\n".join([*EASY, HARDEST]) + "\n\n")
    assert logic_finish.main([str(source), "--time-cap", "60"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("puzzles.txt: ") and "/3 solved" in out
    result = logic_finish.measure(logic_finish.read_puzzles(source, 10, 1), time_cap=60)
    assert result.puzzles == 3 and sum(result.outcomes.values()) == 3
    assert result.outcomes["solved"] >= 2  # the easy two at least
    assert 0 <= result.median_s <= result.p90_s <= result.max_s <= result.total_s


def test_stride_and_count_sample_the_file(tmp_path: Path) -> None:
    source = tmp_path / "puzzles.txt"
    source.write_text("\n".join([EASY[0], HARDEST, EASY[1], HARDEST]) + "\n")
    kept = logic_finish.read_puzzles(source, count=2, stride=2)
    assert [p.to_line() for p in kept] == EASY


def test_a_deadline_stops_a_slow_solve(tmp_path: Path) -> None:
    result = logic_finish.measure([Puzzle.parse(HARDEST)], time_cap=1e-9)
    assert result.outcomes == {"timed out": 1}


@pytest.mark.parametrize(
    ("text", "args", "message"),
    [
        (None, [], "cannot read"),
        ("12345\n", [], "puzzles.txt:1: not an 81-character puzzle (5 characters)"),
        ("# only a comment\n", [], "puzzles.txt: no puzzles"),
        ("x" * 81 + "\n", [], "puzzles.txt:1:"),
    ],
)
def test_unusable_input_is_one_line_and_status_2(
    tmp_path: Path, capsys, text: str | None, args: list[str], message: str
) -> None:
    source = tmp_path / "puzzles.txt"
    if text is not None:
        source.write_text(text)
    assert logic_finish.main([str(source), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "args", [["--count", "0"], ["--stride", "100001"], ["--time-cap", "0"], ["--time-cap", "1e9"]]
)
def test_numbers_have_caps(tmp_path: Path, args: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        logic_finish.main([str(tmp_path / "x.txt"), *args])
    assert exit_.value.code == 2
