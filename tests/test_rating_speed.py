"""The rating benchmark runs end to end: two workers (this tree against itself as the
baseline) agree on every rating and the report names each level met."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_cp.datasets import load_puzzles
from tools.perf import rating_speed


def test_rating_speed_compares_two_trees_puzzle_by_puzzle(tmp_path: Path, capsys) -> None:
    lines = [p.to_line() for p in load_puzzles("easy", 2) + load_puzzles("17clue", 1)]
    source = tmp_path / "puzzles.txt"
    source.write_text("\n".join(lines) + "\n")
    assert (
        rating_speed.main(
            ["--per-set", "0", "--file", str(source), "--baseline", str(rating_speed.ROOT)]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("3 puzzles;")
    assert "rated differently (level, score or hardest) by the two trees: 0" in out
    assert "\nall " in out and "base med" in out


def test_rating_speed_refuses_a_missing_file_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="cannot read --file"):
        rating_speed.main(["--per-set", "0", "--file", str(tmp_path / "none.txt")])
