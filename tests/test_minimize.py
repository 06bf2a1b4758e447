"""`sudoku-cp minimize` and sudoku_cp.shrink.minimize: the removable givens and rules, and a
minimal puzzle — every count checked by plain enumeration of the 288 4x4 grids
(tests/variants.py), which shares no code with any backend."""

from __future__ import annotations

import pytest
from clitools import run
from puzzles import KNOWN, KNOWN_SOLUTION
from variants import GRID_4, count

from sudoku_cp import Puzzle
from sudoku_cp.model import load_model
from sudoku_cp.rules import Cage
from sudoku_cp.shrink import MinimizeError, build, minimize, parts_of


def _minimal_by_enumeration(puzzle: Puzzle) -> bool:
    givens, rules = parts_of(puzzle)
    parts = givens + rules
    return count(puzzle) == 1 and all(
        count(build(puzzle, [p for p in parts if p != part])) >= 2 for part in parts
    )


def test_a_full_4x4_grid_minimized() -> None:
    full = Puzzle(GRID_4)
    found = minimize(full, ["backtrack", "dlx"])
    assert found.minimal and found.puzzle.cells == tuple(
        d if found.puzzle.cells[i] else 0 for i, d in enumerate(GRID_4)
    )
    assert _minimal_by_enumeration(found.puzzle)
    # every given of a full grid can go alone (the other 15 fix it)
    assert len(found.removable) == 16 and found.solution == GRID_4


def test_removable_alone_is_exactly_what_enumeration_says() -> None:
    cells = [d if i % 3 else 0 for i, d in enumerate(GRID_4)]
    puzzle = Puzzle(cells)
    assert count(puzzle) == 1
    found = minimize(puzzle)  # the default two paradigms
    givens, _ = parts_of(puzzle)
    expected = [g for g in givens if count(build(puzzle, [p for p in givens if p != g])) == 1]
    assert sorted(found.removable) == sorted(expected)
    assert _minimal_by_enumeration(found.puzzle)


def test_rules_are_removed_too() -> None:
    """Killer cages on the grid 1234/3412/2143/4321 with two givens: rules that are not needed
    go, and what is left is minimal (by enumeration, rules and givens)."""
    cages = [Cage((0, 1), 3), Cage((2, 6), 4), Cage((8, 12, 13), 9), Cage((10, 11, 15), 8)]
    model = load_model("classic").with_rules(rules=cages, size=4)
    puzzle = Puzzle([1, 0, 0, 0, 0, 4] + [0] * 10, model)
    assert count(puzzle) == 1
    found = minimize(puzzle, ["backtrack", "sat"])
    assert found.minimal and _minimal_by_enumeration(found.puzzle)
    assert len(found.puzzle.model.rules) + found.puzzle.givens_count < 6


def test_a_puzzle_that_is_not_unique_is_refused() -> None:
    with pytest.raises(MinimizeError, match="multiple"):
        minimize(Puzzle.parse("1..............."), ["backtrack", "dlx"])


def test_the_minimize_command(tmp_path) -> None:
    extra = [ch if ch != "." or i % 4 else KNOWN_SOLUTION[i] for i, ch in enumerate(KNOWN)]
    out = tmp_path / "minimal.txt"
    result = run("minimize", "".join(extra), "-o", str(out))
    assert result.exit_code == 0, result.output
    minimal = Puzzle.parse(out.read_text())
    assert minimal.givens_count < len([c for c in extra if c != "."])
    assert "removable alone" in result.stderr and "solver calls" in result.stderr
    assert all(minimal.cells[i] in (0, int(KNOWN_SOLUTION[i])) for i in range(81))
    assert run("minimize", "1...............").exit_code == 1
