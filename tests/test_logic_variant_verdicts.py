"""The logic backend on puzzles with rules beyond groups (issue 31): `solve -b logic` takes
them, and its verdicts (unique / none / undecided) agree with independent counts (the
catalogue's plain enumeration, tests/variants.py) and with another paradigm (the sat backend)
on the bundled variant sets."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from variants import MAX_COUNT, catalogue, solutions

from sudoku_cp import Status, get_backend
from sudoku_cp.cli import main
from sudoku_cp.datasets import bundled_file
from sudoku_cp.formats import read_input
from sudoku_cp.model import load_model

ENTRIES = [entry for entry in catalogue() if entry.count <= MAX_COUNT]


def test_logic_verdicts_agree_with_the_catalogue_counts() -> None:
    logic = get_backend("logic")
    verdicts: dict[Status, int] = {}
    for entry in ENTRIES:
        puzzle = entry.puzzle
        assert logic.refusal(puzzle) is None, entry.name  # every rule kind is read
        result = logic.solve(puzzle, limit=2, time_limit=60)
        verdicts[result.status] = verdicts.get(result.status, 0) + 1
        if result.status is Status.UNIQUE:
            assert entry.count == 1, entry.name
            assert list(result.solutions) == solutions(puzzle), entry.name
            assert result.exact
        elif result.status is Status.NONE:
            assert entry.count == 0, entry.name
            assert result.exact and not result.solutions
        else:
            assert result.status is Status.UNDECIDED, (entry.name, result.status)
            assert not result.solutions and not result.exact
    # it decides most of them both ways; it never says multiple
    assert verdicts.get(Status.UNIQUE, 0) >= 20, verdicts
    assert verdicts.get(Status.NONE, 0) >= 10, verdicts
    assert set(verdicts) <= {Status.UNIQUE, Status.NONE, Status.UNDECIDED}


def _bundled(name: str, take: int) -> list:
    path = bundled_file(name)
    assert path is not None
    records = read_input(str(path), model=load_model("classic"))
    out = []
    for record in records:
        puzzle = record.puzzle
        if (
            puzzle is not None
            and puzzle.published is not None
            and puzzle.is_solution(puzzle.published)
        ):
            out.append(puzzle)
        if len(out) == take:
            break
    return out


@pytest.mark.parametrize(("name", "take"), [("variants9", 10), ("published", 10)])
def test_logic_verdicts_on_bundled_variants_agree_with_sat(name: str, take: int) -> None:
    logic, sat = get_backend("logic"), get_backend("sat")
    decided = 0
    for puzzle in _bundled(name, take):
        truth = sat.solve(puzzle, limit=2, time_limit=60)
        assert truth.status is Status.UNIQUE
        found = logic.solve(puzzle, limit=2, time_limit=60)
        if found.status is Status.UNDECIDED:
            # stalled: the candidates left still hold the solution's digits
            assert found.candidates is not None
            assert all(found.candidates[c] >> (d - 1) & 1 for c, d in enumerate(truth.solution))
            continue
        assert found.status is Status.UNIQUE
        assert found.solution == truth.solution == tuple(puzzle.published or ())
        decided += 1
    assert decided >= take // 2, decided


def test_a_full_grid_that_breaks_a_rule_is_none_not_unique() -> None:
    # All but r1c1 r1c2 given, the groups fine; full houses fill them with 1 and 2 before any
    # rule step runs, but the cage on them sums to 4: only the final check of the rules can
    # say there is no solution (before, logic answered unique with a grid breaking the cage).
    from sudoku_cp import Puzzle
    from sudoku_cp.rules import Cage

    grid = [
        *(0, 0, 3, 4),
        *(3, 4, 1, 2),
        *(2, 1, 4, 3),
        *(4, 3, 2, 1),
    ]
    model = load_model("classic").with_rules(rules=[Cage((0, 1), 4)], size=4)  # 1+2 is 3
    result = get_backend("logic").solve(Puzzle(grid, model), limit=2)
    assert result.status is Status.NONE and result.exact


def test_solve_cli_with_the_logic_backend_on_a_variant(tmp_path) -> None:
    path = bundled_file("variants9")
    assert path is not None
    line = path.read_text(encoding="utf-8").splitlines()[0]
    source = tmp_path / "one.jsonl"
    source.write_text(line + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["solve", "-b", "logic", "-f", "json", str(source)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert data["status"] == "unique" and data["exact"] is True

    record = next(iter(read_input(str(source), model=load_model("classic"))))
    assert record.puzzle is not None
    grid = tuple(d for row in data["solutions"][0] for d in row)
    assert record.puzzle.is_solution(grid)
