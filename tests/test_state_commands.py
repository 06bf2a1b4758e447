"""``--state`` on draw and export (issue 31: every command that takes a puzzle takes a
position): the expected grids come from a plain enumeration of 4x4 Sudoku here, not from the
tool."""

from __future__ import annotations

import itertools
import re

from clitools import error_line, run

EMPTY_4 = "." * 16


def _state_grid() -> str:
    """A 64-symbol candidate grid (4 symbols a cell): r1c1 = 1, r1c2 ∈ {2, 3}, r3c3 = 4."""
    cells = ["1234"] * 16
    cells[0] = "1..."
    cells[1] = ".23."
    cells[10] = "...4"
    return "".join(cells)


def _all_4x4() -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku grid, by brute force over row permutations."""
    rows = list(itertools.permutations((1, 2, 3, 4)))
    found = []
    for grid_rows in itertools.product(rows, repeat=4):
        grid = tuple(d for row in grid_rows for d in row)
        columns_ok = all(len({grid[r * 4 + c] for r in range(4)}) == 4 for c in range(4))
        boxes_ok = all(
            len({grid[(br + r) * 4 + bc + c] for r in range(2) for c in range(2)}) == 4
            for br in (0, 2)
            for bc in (0, 2)
        )
        if columns_ok and boxes_ok:
            found.append(grid)
    return found


def _agrees(grid: tuple[int, ...]) -> bool:
    return grid[0] == 1 and grid[1] in (2, 3) and grid[10] == 4


def test_brute_force_knows_4x4() -> None:
    assert len(_all_4x4()) == 288


def test_export_with_a_state_has_exactly_the_grids_that_agree_with_it(tmp_path) -> None:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    result = run("export", EMPTY_4, "--to", "dimacs", "--state", _state_grid())
    assert result.exit_code == 0, result.output
    cnf = CNF(from_string=result.stdout)
    found = set()
    with Solver(name="cadical153", bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            true = {lit for lit in solver.get_model() if 0 < lit <= 64}
            grid = tuple(next(d for d in range(1, 5) if cell * 4 + d in true) for cell in range(16))
            found.add(grid)
            solver.add_clause([-lit for lit in true])
    expected = {grid for grid in _all_4x4() if _agrees(grid)}
    assert expected and found == expected


def test_export_refuses_a_state_that_breaks_a_rule_and_several_puzzles(tmp_path) -> None:
    bad = "1..." + "1..." + "1234" * 14  # 1 placed twice in row 1
    line = error_line(run("export", EMPTY_4, "--to", "dimacs", "--state", bad))
    assert "r1c2" in line
    two = tmp_path / "two.txt"
    two.write_text(EMPTY_4 + "\n" + EMPTY_4 + "\n")
    line = error_line(
        run("export", str(two), "--to", "dimacs", "-o", str(tmp_path / "out"), "--state", bad)
    )
    assert "more than one puzzle" in line


def test_draw_with_a_state_shows_its_digits_and_marks() -> None:
    result = run("draw", EMPTY_4, "--state", _state_grid())
    assert result.exit_code == 0, result.output
    placed = re.findall(r'<text class="placed"[^>]*>(\d)</text>', result.stdout)
    assert sorted(placed) == ["1", "4"]  # r1c1 and the one-mark cell r3c3
    marks = re.findall(r'<text class="candidate"[^>]*>(\d)</text>', result.stdout)
    assert sorted(marks) == ["2", "3"]  # r1c2's marks; unmarked cells show none
    plain = run("draw", EMPTY_4)
    assert '<text class="placed"' not in plain.stdout


def test_draw_solution_from_a_state_solves_that_position() -> None:
    result = run("draw", EMPTY_4, "--state", _state_grid(), "--solution")
    assert result.exit_code == 0, result.output
    digits = [int(d) for d in re.findall(r'<text class="placed"[^>]*>(\d)</text>', result.stdout)]
    assert len(digits) == 16
    assert tuple(digits) in {grid for grid in _all_4x4() if _agrees(grid)}
