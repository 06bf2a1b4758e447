"""SE's nested forcing chains of levels 2, 3 and 4 (``rate --scale se``, 9.5 and up:
:func:`~sudoku_cp.logic.se.forcing.nested_forcing_chains_2`, ``_3`` and ``_4``).

Expected values are Sudoku Explainer's own output, never ours: SE (SudokuMonster/
SukakuExplainer, built here by ``tools/build-se.sh``) with SE 1.2.1's technique set,

    java -cp /tmp/se/classes diuf.sudoku.test.serate \\
      --techs=1111111111010111011011011011000010100010111111 \\
      --before='%m' --after='%r|%s' --format='%r/%p/%d' --input=FILE

``%m`` being SE's candidates before a step (729 characters: a cell's nine places, a digit or
'.'), ``%r|%s`` the step's difficulty and SE's description of it.
"""

from __future__ import annotations

import importlib.util
import re
import time

import pytest
from clitools import error_line, run

from sudoku_cp import Puzzle
from sudoku_cp.backends import get_backend
from sudoku_cp.logic.se import rate_values
from sudoku_cp.logic.se.forcing import (
    TimeCapReached,
    dynamic_forcing_chains_plus,
    nested_forcing_chains_2,
    nested_forcing_chains_3,
    nested_forcing_chains_4,
)
from sudoku_cp.logic.se.grid import BITS, SEGrid
from sudoku_cp.logic.se.step import Step

# The first of the forum's hardest list (bundled forum-hardest.csv). SE: 10.3/1.2/1.2, its
# hardest step "Dynamic Region Forcing Chains (+ Forcing Chains)" (12 s here); the difficulties
# of its steps of 7.0 and more, in order:
FORUM_HARDEST = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
FORUM_HARDEST_SE_CHAINS = (
    "10.3 7.7 9.4 9.5 9.2 9.8 9.8 9.0 9.0 9.0 9.1 9.4 9.7 7.6 9.0 9.1 9.1 9.1 9.2 9.2 9.2 9.2 "
    "9.2 9.2 9.0 9.0 9.1 9.2 9.2 9.3 9.3 9.3 9.3 7.7 8.3 8.3 8.3 8.3 8.5 9.0 9.0 9.0 9.0 9.0 "
    "9.1 8.9 9.0 9.0 9.0 8.3 7.2 7.3 7.3 7.3 7.6 8.3 8.3 8.3 8.3 8.5 7.2 7.0 7.1 7.1 7.2 7.1"
)

# msolve's "hardest to solve" list (shared datasets, msolve/hardest_to_solve_1000.txt), its
# first line: SE 10.9/1.2/1.2 in 57 s. Two of the states SE's path passes through (%m before
# the step), with SE's step there.
MSOLVE_1 = "98.7..6..7..5..9....4.8....6..3..7...27.............615....3..6...6...9.....573.."
# "10.8|Cell Forcing Chains: r7c3 ==> r7c2.9 off": level 3 (SE's name for the rule,
# Chaining.getNestedSuffix(3), "(+ Multiple Forcing Chains)"; level 2 finds nothing there).
BEFORE_LEVEL_3 = (
    "........9.......8.123.5..........7..1234.....12.4..........6...12345.....2345...."
    "......7..1.3..6...123..6.......5....1234.6...12.4.6...........91234...8..234...8."
    "123......1.3.56......4.....12......9.......8.12...6..912..5....123.5.7....3.5.7.."
    ".....6...1..45...91...5..89..3......12.4....912.45..89......7...2.45..8..2.45..89"
    "1..4...8..2.............7..1..4...891..4.6..91..456.89...45..8...345..8...345..89"
    "..34...8...345...9..3.5..89.2.4...8.......7...2.45..89.2.45..8......6...1........"
    "....5....1..4..7.9.2.....8912.4...8912.4....9..3......12.4...8.12.4..78......6..."
    "1234...8.1.34..7..123....8......6...12.4.....12.4...8.12.45..8.........9.2.45.78."
    "12.4...8.1..4.6..9.....6..912.4...89....5..........7....3......12.4...8..2.4...8."
)
# "10.9|Contradiction Forcing Chain: r7c5.1 on ==> r5c7.4 both on & off": level 2
# ("(+ Forcing Chains)").
BEFORE_LEVEL_2 = (
    "........9.......8.123.5..........7..1234.....12.4..........6...12345.....2345...."
    "......7..1.3..6...123..6.......5....1234.6...12.4.6...........91234...8..234...8."
    ".23......1.3.56......4.....12......9.......8.12...6..912..5....123.5.7....3.5.7.."
    ".....6...1..45...91...5..89..3......12.4....912.45..89......7...2.45..8..2.45..89"
    "1..4...8..2.............7..1..4...891..4.6..91..456.89...45..8...345..8...345..89"
    "..34...8...345...9..3.5..89.2.4...8.......7...2.45..89.2.45..8......6...1........"
    "....5....1..4..7...2.....8912.4...8912.4....9..3......12.4...8.12.4..78......6..."
    "1234...8.1.34..7..123....8......6...12.4.....12.4...8.12.45..8.........9.2.45.78."
    "12.4...8....4.6..9.....6..912.4...89....5..........7....3......12.4...8..2.4...8."
)


def se_state(marks: str) -> SEGrid:
    """SE's candidates (``%m``) as a grid: a cell with one digit left is placed (SE takes
    every single before any chain, so none is left open before a chain step)."""
    values, cands = [], []
    for cell in range(81):
        digits = [int(ch) for ch in marks[9 * cell : 9 * cell + 9] if ch != "."]
        values.append(digits[0] if len(digits) == 1 else 0)
        cands.append(0 if len(digits) == 1 else sum(1 << d for d in digits))
    return SEGrid(values, cands)


def solution_of(text: str) -> tuple[int, ...]:
    result = get_backend("backtrack").solve(Puzzle.parse(text), limit=2)
    assert result.status.value == "unique"
    return result.solutions[0]


def sound(step: Step, solution: tuple[int, ...]) -> bool:
    """No removal takes a cell's digit in the solution; a placement is the solution's."""
    for cell, mask in step.removals:
        if solution[cell] in BITS[mask]:
            return False
    return step.placement is None or solution[step.placement[0]] == step.placement[1]


def test_the_forum_hardest_rates_as_se_with_nested_chains() -> None:
    rating = rate_values([0 if c == "." else int(c) for c in FORUM_HARDEST], time_cap=300)
    assert rating.outcome == "solved" and rating.exact
    assert rating.text() == "10.3/1.2/1.2"
    hardest = max(rating.steps, key=lambda s: s.difficulty)
    assert hardest.name == "Dynamic Region Forcing Chains (+ Forcing Chains)"
    chains = " ".join(f"{s.difficulty:.1f}" for s in rating.steps if s.difficulty >= 7.0)
    assert chains == FORUM_HARDEST_SE_CHAINS
    solution = solution_of(FORUM_HARDEST)
    assert all(sound(step, solution) for step in rating.steps)


def test_level_2_takes_se_s_step_where_level_1_has_none() -> None:
    grid = se_state(BEFORE_LEVEL_2)
    assert next(dynamic_forcing_chains_plus(grid), None) is None
    step = next(nested_forcing_chains_2(grid))
    assert step.name == "Dynamic Contradiction Forcing Chains (+ Forcing Chains)"
    assert step.difficulty == 10.9
    assert step.removals == ((6 * 9 + 4, 1 << 1),)  # r7c5, digit 1
    assert sound(step, solution_of(MSOLVE_1))


def test_level_3_takes_se_s_step_where_level_2_has_none() -> None:
    grid = se_state(BEFORE_LEVEL_3)
    assert next(nested_forcing_chains_2(grid), None) is None
    step = next(nested_forcing_chains_3(grid))
    assert step.name == "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)"
    assert step.difficulty == 10.8
    assert step.removals == ((6 * 9 + 1, 1 << 9),)  # r7c2, digit 9
    assert sound(step, solution_of(MSOLVE_1))


# SE's candidates before "10.5|Cell Forcing Chains: r7c3 ==> r8c3.8 off" on MSOLVE_1's path;
# SE's steps from there: 10.5, 7.8, 7.8, 9.0, 7.8, 8.3, 8.3, 8.4, 8.3, 8.4, 9.0, then pointing,
# claiming and singles (the first placement, 1.5, after them): ER, EP and ED 10.5.
BEFORE_LAST_NESTED = (
    "........9.......8.123.5..........7..1234.....12.4..........6...12345.....2345...."
    "......7..1.3..6...123..6.......5....1234.6...12.4.6...........91234...8..234...8."
    ".23......1.3.56......4.....12......9.......8.12...6..912..5....123.5.7....3.5.7.."
    ".....6...1..45...91...5..89..3......12.4.....12.45..89......7...2.45..8..2.45..89"
    "1..4...8..2.............7..1..4...891..4.6..91..456.89...45..8...345..8...345..89"
    "..34...8...345...9..3.5..89.2.4...8.......7...2.45..89.2.45..8......6...1........"
    "....5....1..4..7...2.....8912.4...8..2......9..3......12.4...8.1..4..78......6..."
    "1234.....1.34..7..123....8......6...12.4.....12.4...8.1..45..8.........9.2.45.78."
    "12.4...8....4.6..9.....6..912.4...89....5..........7....3......12.4...8..2.4...8."
)


def test_rate_se_from_a_state_follows_se_s_path_from_there() -> None:
    result = run("rate", "--scale", "se", "-f", "csv", "--state", BEFORE_LAST_NESTED, MSOLVE_1)
    assert result.exit_code == 0, result.output
    header, line = result.stdout.splitlines()
    row = dict(zip(header.split(","), line.split(","), strict=True))
    assert (row["er"], row["ep"], row["ed"], row["outcome"]) == ("10.5", "10.5", "10.5", "solved")
    explained = run("explain", "--scale", "se", "--state", BEFORE_LAST_NESTED, MSOLVE_1)
    steps = re.findall(r"^ *\d+\. .*\((\d+\.\d)\): (.*)$", explained.stdout, re.MULTILINE)
    assert " ".join(d for d, _ in steps[:11]) == "10.5 7.8 7.8 9.0 7.8 8.3 8.3 8.4 8.3 8.4 9.0"
    assert steps[0][1].startswith("remove r8c3 -8")


def test_rate_se_refuses_a_state_the_solution_disagrees_with() -> None:
    # r7c5's marks in BEFORE_LAST_NESTED with its solution digit (2) taken out
    cell = 6 * 9 + 4
    marks = BEFORE_LAST_NESTED[9 * cell : 9 * cell + 9]
    assert marks[1] == "2" and solution_of(MSOLVE_1)[cell] == 2
    wrong = BEFORE_LAST_NESTED[: 9 * cell + 1] + "." + BEFORE_LAST_NESTED[9 * cell + 2 :]
    result = run("rate", "--scale", "se", "--state", wrong, MSOLVE_1)
    assert result.exit_code == 1
    assert "the state is wrong" in error_line(result) and "r7c5" in error_line(result)


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("numba") is not None,
    reason="with numba the same step is taken, its nested rules compiled, in 2 s: "
    "test_se_compiled_nested.py (whose other tests hold the compiled rules to these plain ones)",
)
def test_level_4_takes_se_s_step_where_level_3_has_none() -> None:
    """Golden Nugget (``test_se_rating``): SE's candidates before its fourth step, "11.8|Region
    Forcing Chains: 6 in row ==> r1c1.8 off", the first of its path that SE's level 4 takes
    (``experimentalHintProducers``, nesting limit 0: dynamic forcing chains nested in dynamic
    forcing chains; ``Chaining.getNestedSuffix(4)``). About 15 s here."""
    from test_se_rating import GOLDEN_NUGGET, GOLDEN_NUGGET_AFTER_3

    grid = se_state(GOLDEN_NUGGET_AFTER_3)
    step = next(nested_forcing_chains_4[0](grid))
    assert step.name == "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)"
    assert step.difficulty == 11.8
    assert step.removals == ((0, 1 << 8),)  # r1c1, digit 8
    assert step.where.startswith("6 in ")  # (SE: "6 in row")
    assert sound(step, solution_of(GOLDEN_NUGGET))


@pytest.mark.parametrize("nesting", range(4))
def test_a_time_cap_stops_level_4_inside_its_nested_searches(nesting: int) -> None:
    """The nested chains read the grid's deadline too: a level-4 search stops soon after it,
    whatever it nests (one nested search alone can take minutes)."""
    from test_se_rating import GOLDEN_NUGGET_AFTER_3

    grid = se_state(GOLDEN_NUGGET_AFTER_3)
    start = time.perf_counter()
    grid.deadline = start + 0.5
    with pytest.raises(TimeCapReached):
        next(nested_forcing_chains_4[nesting](grid))
    assert time.perf_counter() - start < 2.5


# Royle's 17-clue list, line 45,016, pencil-marked by its candidates, with r4c8 left unmarked
# (all nine digits, as a solver writes a cell not pencilled yet).
ONE_UNMARKED_PUZZLE = (
    "4.1.........2..7.....8......2....4...3..1........4.6..8..5...3.....6...9.......1."
)
ONE_UNMARKED = (
    "...4.........567891..........3..67.9..3.5.7.9..3.567.9.23.5..89.2..56.89.23.56.8."
    "..3.56..9....56.89..3.56.89.2.........3.5...91.3456..9......7.....456.891.3456.8."
    ".23.567.9....567.9.23.567.9.......8...3.5.7.91.34567.9123.5...9.2.456..9123456..."
    "1...567.9.2...........56789..3..67.9..3.5.789..3.56789...4.....1234567891.3.5.78."
    "....567.9..3.........456789.....67.91.........2..56789.2..5..89.2..5.789.2..5.78."
    "1...5.7.91...5.789....5.789..3...7.9...4......23.5.789.....6....2..5.789123.5.78."
    ".......8.1..4.67.9.2.4.67.9....5.....2....7.912.4..7.9.2.........3.......2.4.67.."
    "123.5.7..1..45.7...2345.7..1.34..7.......6...1234..78..2..5..8..2.45.78.........9"
    ".23.567.9...4567.9.234567.9..34..7.9.23...789.234..789.2..5..8.1.........2.45678."
)

EASY = "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"


def _single(ch: str) -> str:
    """A cell of a candidate grid: a given's digit alone at its place, else all nine."""
    return "123456789" if ch == "." else "." * (int(ch) - 1) + ch + "." * (9 - int(ch))


@pytest.mark.parametrize(
    ("puzzle", "state", "se"),
    [
        # SE 1.2.1's serate on the 729 symbols (the --techs of SE 1.2.1, as tools/build-se.sh):
        # r4c8's nine candidates keep its row's, column's and box's givens from being placed,
        # so SE's path starts otherwise (ER 2.0; reading it as every digit less the filled
        # peers' gave 1.7/1.2/1.2).
        (ONE_UNMARKED_PUZZLE, ONE_UNMARKED, ("2.0", "1.2", "1.2")),
        # Every given a single, every other cell unmarked: SE places none of them (2.6/2.0/2.0;
        # from the givens alone SE says 2.6/2.6/2.6).
        (EASY, "".join(_single(ch) for ch in EASY), ("2.6", "2.0", "2.0")),
    ],
    ids=["one cell unmarked", "givens alone"],
)
def test_rate_se_reads_a_candidate_grid_state_as_se_reads_the_grid(
    puzzle: str, state: str, se: tuple[str, str, str]
) -> None:
    result = run("rate", "--scale", "se", "-f", "csv", "--state", state, puzzle)
    assert result.exit_code == 0, result.output
    header, line = result.stdout.splitlines()
    row = dict(zip(header.split(","), line.split(","), strict=True))
    assert (row["er"], row["ep"], row["ed"], row["outcome"]) == (*se, "solved")


def test_rate_se_rates_a_candidate_grid_given_as_the_puzzle_as_se_does() -> None:
    """A 729-character grid given as the puzzle itself (a pencil-mark puzzle) was refused as
    "rules beyond rows, columns and boxes (givenPencilMarks)", though SE's serate rates the
    same symbols: it is rated as serate reads them (ER 2.0 here, as SE 1.2.1 says)."""
    result = run("rate", "--scale", "se", "-f", "csv", ONE_UNMARKED)
    assert result.exit_code == 0, result.output
    header, line = result.stdout.splitlines()
    row = dict(zip(header.split(","), line.split(","), strict=True))
    assert (row["er"], row["ep"], row["ed"], row["outcome"]) == ("2.0", "1.2", "1.2", "solved")
    both = run("rate", "--scale", "se", "--state", ONE_UNMARKED, ONE_UNMARKED)
    assert both.exit_code == 2
    assert "a pencil-mark puzzle is its own state" in both.stderr
