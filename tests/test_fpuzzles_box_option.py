"""A --box or --model whose boxes differ from an f-puzzles puzzle's regions was overruled in
silence: f-puzzles' own boxes (2x3 at 6x6 when the file states no regions, as dclamage's
``DefaultRegions`` draws them) stayed in force as irregular regions, and the answer given
"under --box 3x2" repeated digits in 3x2 boxes. It is now refused in one line; a file whose
regions are the boxes asked for still reads."""

from __future__ import annotations

import json

import pytest
from clitools import error_line, run

from sudoku_cp.formats import read_input


def _six_by_six(regions: list[int] | None = None) -> str:
    grid = [[{} for _ in range(6)] for _ in range(6)]
    grid[0][0] = {"value": 1, "given": True}
    if regions is not None:
        for cell, region in enumerate(regions):
            grid[cell // 6][cell % 6]["region"] = region
    return json.dumps({"size": 6, "grid": grid})


def _boxes(height: int, width: int) -> list[int]:
    return [(r // height) * (6 // width) + c // width for r in range(6) for c in range(6)]


@pytest.mark.parametrize(
    ("options", "asked"), [(("--box", "3x2"), "3x2 boxes"), (("-m", "latin"), "no boxes")]
)
def test_other_boxes_than_the_files_are_refused(tmp_path, options, asked):
    path = tmp_path / "p.json"
    path.write_text(_six_by_six())
    result = run("solve", str(path), *options)
    assert result.exit_code == 2
    line = error_line(result)
    assert f"has f-puzzles' boxes (2x3 at 6x6), but the model asks for {asked}" in line


def test_boxes_that_are_the_files_read(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(_six_by_six())
    assert run("solve", str(path), "--box", "2x3").exit_code == 0
    # a file that states 3x2 boxes as its regions reads under --box 3x2, with those boxes
    path.write_text(_six_by_six(_boxes(3, 2)))
    [record] = read_input(str(path), model="classic")
    assert record.puzzle is not None
    result = run("solve", str(path), "--box", "3x2", "-f", "line")
    assert result.exit_code == 0, result.output
    grid = [int(ch) for ch in result.stdout.split()[0]]
    for box in range(6):
        cells = [c for c, r in enumerate(_boxes(3, 2)) if r == box]
        assert sorted(grid[c] for c in cells) == [1, 2, 3, 4, 5, 6]
