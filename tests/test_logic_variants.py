"""The logic solver's deductions for rules beyond groups (sudoku_cp.logic.variants, forcing).

Per shape, small hand-made cases whose expected candidates follow from the rule's meaning
(worked out in the comments); the soundness fuzz (every step of the bundled variant sets checked
against their published solutions); explain and rate on a variant puzzle from the CLI.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence

import pytest
from click.testing import CliRunner

from sudoku_cp import Puzzle
from sudoku_cp.cli import main
from sudoku_cp.datasets import bundled_file
from sudoku_cp.errors import NotUniqueError, SudokuError
from sudoku_cp.formats import read_input
from sudoku_cp.logic import variants
from sudoku_cp.logic.board import Board, digits_of
from sudoku_cp.logic.rating import rate_puzzle
from sudoku_cp.logic.solver import solve_logically
from sudoku_cp.model import load_model
from sudoku_cp.rules import (
    XV,
    Arrow,
    BetweenLine,
    Cage,
    Difference,
    LittleKiller,
    NonConsecutive,
    Odd,
    Quadruple,
    Renban,
    Rule,
    Sandwich,
    Skyscraper,
    Thermometer,
    XSum,
)

ROW1 = tuple(range(9))
ALL = set(range(1, 10))


def board_of(rules: Sequence[Rule], givens: dict[int, int] | None = None) -> Board:
    cells = [0] * 81
    for cell, digit in (givens or {}).items():
        cells[cell] = digit
    model = load_model("classic").with_rules(rules=list(rules), size=9)
    return Board(Puzzle(cells, model))


def settle(board: Board, *finds: Callable[[Board], object]) -> list[object]:
    """Apply the given techniques until none finds anything; the steps, in order."""
    steps = []
    while True:
        step = next((s for s in (find(board) for find in finds) if s is not None), None)
        if step is None:
            return steps
        board.apply(step)  # type: ignore[arg-type]
        steps.append(step)


def digits(board: Board, cell: int) -> set[int]:
    return set(digits_of(board.candidates[cell]))


ALL_RULES = (variants.rule_digits, variants.rule_pairs, variants.rule_combinations)


def test_digit_rule_keeps_the_digits_it_allows() -> None:
    board = board_of([Odd((0, 40))])
    step = variants.rule_digits(board)
    assert step is not None and step.technique == "Rule Digits"
    # an odd cell holds 1, 3, 5, 7 or 9
    assert set(step.eliminations) == {(c, d) for c in (0, 40) for d in (2, 4, 6, 8)}
    assert "r1c1 cannot be 2, 4, 6 or 8" in step.text and "odd" in step.text
    assert step.cells == (0, 40)


def test_xv_pair_in_one_row_never_five_five() -> None:
    # X: the two digits sum to 10; in one row they differ, so 5+5 is out and nothing else is
    board = board_of([XV((0, 1), 10)])
    step = variants.rule_pairs(board)
    assert step is not None and step.technique == "Rule Pairs"
    assert set(step.eliminations) == {(0, 5), (1, 5)}


def test_white_dot_beside_a_given() -> None:
    # a white dot: the digits differ by 1; beside a 5 only 4 or 6
    board = board_of([Difference((0, 1), 1)], {0: 5})
    settle(board, variants.rule_pairs)
    assert digits(board, 1) == {4, 6}


def test_non_consecutive_is_read_pair_by_pair() -> None:
    # orthogonal neighbours of a 5 are not 4 or 6; a diagonal neighbour keeps them
    board = board_of([NonConsecutive()], {40: 5})
    settle(board, variants.rule_pairs)
    for cell in (31, 39, 41, 49):
        assert digits(board, cell) == ALL - {4, 5, 6}
    assert digits(board, 30) == ALL - {5}


def test_cage_combinations() -> None:
    # 3 in two different digits: 1+2; 24 in three: 7+8+9
    board = board_of([Cage((0, 1), 3), Cage((30, 31, 32), 24)])
    steps = settle(board, *ALL_RULES)
    assert digits(board, 0) == digits(board, 1) == {1, 2}
    assert digits(board, 30) == digits(board, 31) == digits(board, 32) == {7, 8, 9}
    assert {s.technique for s in steps} == {"Rule Combinations"}  # type: ignore[attr-defined]
    assert any("the 3-cage at r1c1" in s.text for s in steps)  # type: ignore[attr-defined]


def test_cage_contains_points_out_of_its_row_and_box() -> None:
    # the 3-cage r1c1 r1c2 holds a 1: the rest of row 1 and of box 1 cannot
    board = board_of([Cage((0, 1), 3)])
    settle(board, *ALL_RULES)
    step = variants.rule_contains(board)
    assert step is not None and step.technique == "Rule Contains"
    seeing = {c for c in range(2, 9)} | {9, 10, 11, 18, 19, 20}
    assert set(step.eliminations) == {(c, 1) for c in seeing}


def test_thermometer_rises_from_its_bulb() -> None:
    board = board_of([Thermometer((0, 1, 2, 3))])
    settle(board, *ALL_RULES)
    # four rising digits: the bulb at most 6, the tip at least 4
    assert digits(board, 0) == set(range(1, 7)) and digits(board, 3) == set(range(4, 10))
    board = board_of([Thermometer((0, 1, 2, 3))], {0: 6})
    settle(board, *ALL_RULES)
    assert [digits(board, c) for c in (1, 2, 3)] == [{7}, {8}, {9}]


def test_arrow_circle_is_the_sum_of_its_line() -> None:
    # circle r1c1 = r1c2 + r1c3, all in row 1: the line differs, so the circle is at least 3
    # (1+2) and a line digit at most 8 (9 - 1)
    board = board_of([Arrow((0,), (1, 2))])
    settle(board, *ALL_RULES)
    assert digits(board, 0) == set(range(3, 10))
    assert digits(board, 1) == digits(board, 2) == set(range(1, 9))


def test_sandwich_of_nothing_puts_the_nine_beside_the_one() -> None:
    board = board_of([Sandwich(ROW1, 0)], {0: 1})
    settle(board, *ALL_RULES)
    assert digits(board, 1) == {9}


def test_skyscraper_of_nine_is_a_rising_row() -> None:
    # nine skyscrapers seen: each taller than the one before
    board = board_of([Skyscraper(ROW1, 9)])
    settle(board, *ALL_RULES)
    assert [digits(board, c) for c in ROW1] == [{d} for d in range(1, 10)]


def test_x_sum_of_one_starts_with_a_one() -> None:
    # the first X digits sum to the clue: X = 1 and the sum 1 need r1c1 = 1
    board = board_of([XSum(ROW1, 1)])
    settle(board, *ALL_RULES)
    assert digits(board, 0) == {1}


def test_quadruple_fills_a_box_corner() -> None:
    # four listed digits on four cells of one box: those cells hold only them
    board = board_of([Quadruple((0, 1, 9, 10), (1, 2, 3, 4))])
    settle(board, *ALL_RULES)
    assert all(digits(board, c) == {1, 2, 3, 4} for c in (0, 1, 9, 10))


def test_between_line_and_renban_and_little_killer() -> None:
    # between 1 and 3 lies 2
    board = board_of([BetweenLine((0, 1, 2))], {0: 1, 2: 3})
    settle(board, *ALL_RULES)
    assert digits(board, 1) == {2}
    # a renban of three with a 9: the others 7 and 8
    board = board_of([Renban((0, 1, 2))], {0: 9})
    settle(board, *ALL_RULES)
    assert digits(board, 1) == digits(board, 2) == {7, 8}
    # a little killer 6 down r1c1 r2c2 r3c3 (one box, so different): 1+2+3
    board = board_of([LittleKiller((0, 10, 20), 6)])
    settle(board, *ALL_RULES)
    assert all(digits(board, c) == {1, 2, 3} for c in (0, 10, 20))


def test_a_rule_no_filling_keeps_is_a_contradiction() -> None:
    # two cells of one row summing to 2 would both be 1
    trace = solve_logically(board_of([Cage((0, 1), 2)]).puzzle)
    assert trace.outcome == "contradiction"


def test_forcing_net_follows_a_premise() -> None:
    from sudoku_cp.logic import forcing

    # a 3-cage r1c1 r1c2: with r1c1 = 3 the other cell would need 0 (no filling); with 1, 2
    board = board_of([Cage((0, 1), 3)])
    with pytest.raises(forcing._Broken, match="3-cage"):
        forcing.propagate(board, 0, 3)
    cands, trail = forcing.propagate(board, 0, 1)
    assert set(digits_of(cands[1])) == {2} and "r1c2=2" in trail
    # once r1c1 and r1c2 hold {1, 2}: whichever r1c1 holds, the pair is 1 and 2, so every
    # cell seeing both (the rest of row 1 and of box 1) loses 1 and 2
    settle(board, *ALL_RULES)
    step = forcing.forcing_net(board)
    assert step is not None and step.technique == "Forcing Net"
    seeing = {c for c in range(2, 9)} | {9, 10, 11, 18, 19, 20}
    assert set(step.eliminations) == {(c, d) for c in seeing for d in (1, 2)}
    assert "whichever of 1, 2 r1c1 holds" in step.text


# --- soundness: every step against the published solutions ------------------------------------
def _records(name: str) -> list[object]:
    return [r for r in read_input(str(bundled_file(name)), model=load_model("classic"))]


def _check_steps(records: Sequence[object], seconds: float | None = None) -> tuple[int, int]:
    """Every step of every record checked against its published solution; the puzzles
    solved, and the chain steps using links that rules give (sudoku_cp.logic.rule_links).
    ``seconds`` bounds each solve (its steps up to then are checked all the same)."""
    solved = chained = 0
    for record in records:
        puzzle = record.puzzle  # type: ignore[attr-defined]
        truth = puzzle.published
        if truth is None or not puzzle.is_solution(truth):
            continue  # a puzzle read otherwise than its setter meant: nothing to check against
        deadline = None if seconds is None else time.perf_counter() + seconds
        trace = solve_logically(puzzle, deadline=deadline)
        for number, step in enumerate(trace.steps, 1):
            wrong = [(c, d) for c, d in step.eliminations if truth[c] == d]
            wrong += [(c, d) for c, d in step.placements if truth[c] != d]
            assert not wrong, f"{record.id} step {number} {step.technique}: {step.text}"  # type: ignore[attr-defined]
        assert trace.outcome != "contradiction", record.id  # type: ignore[attr-defined]
        solved += trace.outcome == "solved"
        chained += sum("Links from rules:" in step.text for step in trace.steps)
    return solved, chained


def test_variant_steps_are_sound_on_a_sample() -> None:
    sample = _records("variants9")[:8] + _records("published")[40:46]
    solved, chained = _check_steps(sample)
    assert solved > 0 and chained > 0  # the chains with rule links are checked too


@pytest.mark.slow
@pytest.mark.parametrize("part", range(3))
def test_variant_steps_are_sound_on_every_bundled_variant(part: int) -> None:
    # (each solve bounded: a stalled variant puzzle otherwise spends minutes in the ALS and
    # fish searches after its last step; the steps made are what is checked. In three parts,
    # so that test workers share the minute. What is asserted is the steps' soundness, not how
    # many finish in time: at 0.5 s a solve the 130 puzzles make 8,300 steps of 42 techniques,
    # at 1 s 9,500 of 43, for half again the time, 60 s.)
    records = (_records("variants9") + _records("published"))[part::3]
    assert _check_steps(records, seconds=0.5)[0] > 0


# --- uniqueness stays off, and the CLI -------------------------------------------------------
def test_uniqueness_techniques_stay_off_with_rules() -> None:
    # a classic puzzle with an odd cell on a given odd digit: the same grid logically, but
    # rate (which allows uniqueness techniques on classic puzzles) must not use them
    # (the puzzle has many solutions, which rate refuses: the solve it would rate is read here)
    puzzle = board_of([Thermometer((0, 1, 2, 3))], {0: 6}).puzzle
    trace = solve_logically(puzzle, uniqueness=True)
    assert trace.steps and trace.outcome == "stalled"
    assert not any("Uniqueness" in s.technique or "Rectangle" in s.technique for s in trace.steps)
    with pytest.raises(NotUniqueError):
        rate_puzzle(puzzle, uniqueness=True)


KILLER_LINE = (bundled_file("killer").read_text().splitlines()[0]) + "\n"  # type: ignore[union-attr]


def test_explain_and_rate_a_variant_puzzle(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "killer.jsonl"
    path.write_text(KILLER_LINE)
    runner = CliRunner()
    result = runner.invoke(main, ["explain", str(path)])
    assert result.exit_code in (0, 3), result.output
    assert "Rule Combinations (Easy, 8): " in result.output and "-cage at r" in result.output
    result = runner.invoke(main, ["rate", str(path), "-f", "json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)
    assert "Rule Combinations" in row["techniques"]
    assert not any("Uniqueness" in name for name in row["techniques"])
    result = runner.invoke(main, ["explain", str(path), "--format", "svg", "--step", "1"])
    assert result.exit_code == 0 and 'class="step-rule"' in result.output
    assert 'class="candidate eliminated"' in result.output
    result = runner.invoke(main, ["explain", str(path), "--format", "html"])
    assert result.exit_code in (0, 3) and 'class="step-rule"' in result.output
    result = runner.invoke(main, ["explain", str(path), "--format", "json"])
    first = json.loads(result.output)["steps"][0]
    # the first step is a cage's combinations: its cells are named, and they are a cage's
    assert first["technique"] == "Rule Combinations" and first["cells"]
    assert first["eliminations"] and "-cage at " in first["text"]
    assert first["rule"] == "killercage"  # the rule's kind, for the step drawing and readers


# --- a current state to start from -----------------------------------------------------------
EASY = "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"


def test_solving_from_a_state_of_placed_digits_and_marks() -> None:
    puzzle = Puzzle.parse(EASY)
    truth = solve_logically(puzzle).values
    # placed digits from the solution: the solve agrees, and never places them again
    placed = [truth[c] if c in (1, 2, 3) else 0 for c in range(81)]
    trace = solve_logically(puzzle, placed=placed)
    assert trace.outcome == "solved" and trace.values == truth
    assert not any(c in (1, 2, 3) for s in trace.steps for c, _ in s.placements)
    # marks that leave out r1c2's solution digit: no solution agrees, so it cannot be solved
    marks = [0] * 81
    marks[1] = ((1 << 9) - 1) & ~(1 << (truth[1] - 1))
    assert solve_logically(puzzle, marks=marks).outcome != "solved"
    # a placed digit beside the same given in its row: a contradiction from the start
    clash = [0] * 81
    clash[1] = 4  # r1c1 is a given 4
    assert solve_logically(puzzle, placed=clash).outcome == "contradiction"
    with pytest.raises(SudokuError, match="81"):
        solve_logically(puzzle, marks=[0] * 80)


SHAPES = [
    ([Odd((0, 40))], {}),
    ([XV((0, 1), 10)], {}),
    ([Difference((0, 1), 1)], {0: 5}),
    ([NonConsecutive()], {40: 5}),
    ([Cage((0, 1), 3)], {}),
    ([Thermometer((0, 1, 2, 3))], {}),
    ([Arrow((0,), (1, 2))], {}),
    ([Sandwich(ROW1, 0)], {0: 1}),
    ([Skyscraper(ROW1, 9)], {}),
    ([XSum(ROW1, 1)], {}),
    ([Quadruple((0, 1, 9, 10), (1, 2, 3, 4))], {}),
    ([BetweenLine((0, 1, 2))], {0: 1, 2: 3}),
    ([Renban((0, 1, 2))], {0: 9}),
    ([LittleKiller((0, 10, 20), 6)], {}),
]


@pytest.mark.parametrize(
    ("rules", "givens"), SHAPES, ids=lambda v: type(v[0]).__name__ if isinstance(v, list) else ""
)
def test_every_shape_has_a_step_picture(rules: list[Rule], givens: dict[int, int]) -> None:
    from sudoku_cp.render import step_svg

    trace = solve_logically(board_of(rules, givens).puzzle)
    step = next(s for s in trace.steps if s.technique.startswith("Rule"))
    picture = step_svg(trace, trace.steps.index(step))
    # the rule's cells shaded, each eliminated candidate drawn struck out
    assert picture.count('class="step-rule"') == len(step.cells) > 0
    assert picture.count('class="candidate eliminated"') == len(step.eliminations) > 0
