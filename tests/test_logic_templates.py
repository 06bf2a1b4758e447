"""Template Set and Template Delete (sudoku_cp.logic.templates).

Evidence:
- HoDoKu's own procedure, written again here as plainly as HoDoKu states it (hobiwan's HoDoKu,
  ``solver/SudokuStepFinder.java``, ``initCandTemplates`` with ``initLists``: the 46,656
  templates filtered per digit, then the "verfeinern" loop in HoDoKu's digit order; one step
  per digit, ``solver/TemplateSolver.java``), compared with the module on HoDoKu's library
  boards and on thinned boards of real puzzles.
- HoDoKu's regression library (reglib-1.4.txt, shipped with HoDoKu, GPL-3): its 18 template
  cases, through the harness (``tools.perf.reglib.run_case``).
- A board worked out by hand from the definition.
- Soundness on real puzzles (bundled top1465, forum-hardest, jigsaw, 16x16) and on other
  models (X, hyper, Latin, 6x6), candidates thinned at random but the solution's kept: every
  step removes no digit of the solution and places only the solution's.
"""

from __future__ import annotations

import random
from itertools import islice, permutations

import pytest
from logic_driver import check_step, puzzle_of, read_csv, run, solutions, thinned

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.logic import complex_fish, templates
from sudoku_cp.logic.board import Board, every_step
from sudoku_cp.logic.patterns import snapshot
from sudoku_cp.logic.rating import TECHNIQUE_RATING
from sudoku_cp.logic.solver import TECHNIQUES
from sudoku_cp.model import load_model
from tools.perf.reglib import Case, finder, read_cases, run_case

SEARCHES = (templates.template_set, templates.template_delete)
REGLIB = [c for c in read_cases() if c.code in ("1201", "1202")]


def cell(r: int, c: int) -> int:
    return (r - 1) * 9 + c - 1


# --- HoDoKu's procedure, written out -----------------------------------------------------------
def _all_templates() -> list[int]:
    """Every placement of a digit on 9x9, a cell per row, column and box: a permutation of the
    columns (row r in column p[r]) whose three rows of each band meet three boxes."""
    out = []
    for p in permutations(range(9)):
        if all(len({p[3 * b + i] // 3 for i in range(3)}) == 3 for b in range(3)):
            out.append(sum(1 << (r * 9 + p[r]) for r in range(9)))
    return out


ALL = (1 << 81) - 1


@pytest.fixture(scope="module")
def all_templates() -> list[int]:
    found = _all_templates()
    assert len(found) == 46_656  # the count HoDoKu's Sudoku2.templates holds
    return found


def hodoku(board: Board, every: list[int]) -> tuple[list[int], list[int], bool]:
    """``initCandTemplates(true)`` on a 9x9 board: per digit the OR and the AND of its refined
    templates (HoDoKu's delCandTemplates before its ``not``, and setValueTemplates), and
    whether every digit kept a template."""
    lists: list[list[int]] = [[]]
    for d in range(1, 10):
        positions = sum(1 << c for c in range(81) if board.values[c] == d)
        allowed = sum(1 << c for c in range(81) if not board.values[c] and board.has(c, d))
        forbidden = ALL & ~(positions | allowed)
        lists.append([t for t in every if t & positions == positions and not t & forbidden])
    set_value = [ALL] * 10
    for d in range(1, 10):
        for t in lists[d]:
            set_value[d] &= t
    del_cand = [0] * 10
    removals = 1
    while removals:
        removals = 0
        for j in range(1, 10):
            set_value[j], del_cand[j] = ALL, 0
            kept = []
            for t in lists[j]:
                if any(k != j and t & set_value[k] for k in range(1, 10)):
                    removals += 1
                    continue
                kept.append(t)
                set_value[j] &= t
                del_cand[j] |= t
            lists[j] = kept
    return del_cand, set_value, all(lists[1:])


def _boards() -> list[Board]:
    out = [case.board for case in REGLIB]
    rng = random.Random(30)
    for row in read_csv("top1465.csv", 4) + read_csv("forum-hardest.csv", 2):
        puzzle = puzzle_of(row)
        (solution,) = solutions(puzzle)
        out += [thinned(puzzle, solution, rng, share) for share in (0.2, 0.45)]
    return out


def test_the_module_agrees_with_hodoku_s_procedure(all_templates: list[int]) -> None:
    compared = 0
    for board in _boards():
        del_cand, set_value, kept = hodoku(board, all_templates)
        found = templates.refined(board)
        if not kept:
            assert found is None  # (HoDoKu would set and delete everything there)
            continue
        assert found is not None
        held, forced = found
        assert list(held[1:]) == del_cand[1:]
        assert list(forced[1:]) == set_value[1:]
        # the steps, one per digit as TemplateSolver makes them, digits in order
        masks = snapshot(board).masks
        sets = [
            (d, sorted(c for c in range(81) if set_value[d] >> c & 1 and not board.values[c]))
            for d in range(1, 10)
        ]
        expected = [(d, cells) for d, cells in sets if cells]
        got = [
            (s.placements[0][1], sorted(c for c, _ in s.placements))
            for s in every_step(templates.template_set, board)
        ]
        assert got == expected
        deletes = [
            (d, sorted(c for c in range(81) if masks[d] >> c & 1 and not del_cand[d] >> c & 1))
            for d in range(1, 10)
        ]
        got = [
            (s.eliminations[0][1], [c for c, _ in s.eliminations])
            for s in every_step(templates.template_delete, board)
        ]
        assert got == [(d, cells) for d, cells in deletes if cells]
        compared += 1
    assert compared >= 20


# --- HoDoKu's library ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", REGLIB, ids=lambda c: f"{c.code}-line{c.line}")
def test_reglib_cases(case: Case) -> None:
    result = run_case(case)
    assert result.status == "pass", result.found


def test_the_refinement_is_needed_for_hodoku_s_answer() -> None:
    # reglib-1.4.txt line 1529, Template Set on 9: r1c4 r2c9 r3c2 r4c3 r5c8 r6c6 r8c1 r9c5.
    # Digit 9's own templates, unrefined, leave only some of them; those of the other digits
    # hold cells of every template of theirs, which no 9 may take (HoDoKu's "verfeinern").
    case = next(c for c in REGLIB if c.line == 1529)
    board = case.board
    nine = snapshot(board).masks[9]
    unrefined = templates.template_cells(board, 9, nine)
    assert unrefined
    step = next(s for s in every_step(templates.template_set, board) if s.placements[0][1] == 9)
    assert set(step.placements) == set(case.placements)
    assert templates._forced(board, unrefined) & nine != sum(1 << c for c, _ in case.placements)


# --- worked out by hand -------------------------------------------------------------------------
def test_a_board_worked_out_from_the_definition() -> None:
    # An empty grid where 1 is left only at r1c1 r1c4, r2c2 r2c5, r3c3 r3c7 in the top band
    # (every other row keeps all nine). A template has a cell in each of boxes 1, 2, 3 in rows
    # 1-3; box 3 only has r3c7 there, so every template holds r3c7 (Template Set) and none
    # holds r3c3 (the row's other cell) nor another 1 of column 7 (r4c7 … r9c7): Template
    # Delete. r1c1+r2c5 and r1c4+r2c2 both fill boxes 1 and 2, and every cell of rows 4-9
    # outside column 7 completes some template, so nothing else goes.
    # The refinement: r3c7 is 1's in every template, so no template of 2 … 9 holds it —
    # they lose r3c7 (HoDoKu's verfeinern); with all their other candidates they have no
    # cell in every template, so no Template Set for them.
    board = Board(Puzzle.parse("." * 81))
    top = {cell(1, 1), cell(1, 4), cell(2, 2), cell(2, 5), cell(3, 3), cell(3, 7)}
    for c in range(27):
        if c not in top:
            board.eliminate(c, 1)
    sets = list(every_step(templates.template_set, board))
    assert [s.placements for s in sets] == [((cell(3, 7), 1),)]
    deletes = {
        s.eliminations[0][1]: set(s.eliminations)
        for s in every_step(templates.template_delete, board)
    }
    assert deletes[1] == {(cell(3, 3), 1)} | {(cell(r, 7), 1) for r in range(4, 10)}
    for d in range(2, 10):
        assert deletes[d] == {(cell(3, 7), d)}
    assert sorted(deletes) == list(range(1, 10))


# --- no template --------------------------------------------------------------------------------
def test_a_digit_without_a_template_gives_nothing_and_does_not_crash() -> None:
    # 1 only at columns 1 and 4 in rows 1, 2 and 4: three rows, two columns — no template of 1,
    # though every row, column and box still has a 1 left (the board is not visibly broken).
    board = Board(Puzzle.parse("." * 81))
    for r in (1, 2, 4):
        for c in range(1, 10):
            if c not in (1, 4):
                board.eliminate(cell(r, c), 1)
    assert not board.broken()
    assert templates.template_cells(board, 1, snapshot(board).masks[1]) == 0
    assert templates.refined(board) is None
    for search in SEARCHES:
        assert list(every_step(search, board)) == []
        assert search(board) is None
    # the fish searches' bound reads the same enumeration: no template, nothing to remove
    assert complex_fish._no_template(board, 1) == 0


def test_the_enumeration_gives_up_past_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # The empty 9x9 grid's rows have 9, 27, 27, 81 … sets of columns and boxes used; with the
    # cap lowered below that, no digit's templates are worked out: every candidate counts as
    # held, only placed cells as forced, and no step comes.
    monkeypatch.setattr(templates, "MAX_TEMPLATE_STATES", 10)
    board = Board(Puzzle.parse("4" + "." * 80))
    masks = snapshot(board).masks
    assert templates.template_cells(board, 1, masks[1]) is None
    found = templates.refined(board)
    assert found is not None
    held, forced = found
    assert held[1:] == tuple(masks[d] | (d == 4) for d in range(1, 10))  # r1c1 holds 4
    assert forced[1:] == (0, 0, 0, 1, 0, 0, 0, 0, 0)
    for search in SEARCHES:
        assert list(every_step(search, board)) == []
    assert complex_fish._no_template(board, 1) == masks[1]  # all let through


# --- soundness ----------------------------------------------------------------------------------
def _check_all(board: Board, solution: tuple[int, ...]) -> int:
    checked = 0
    for search in SEARCHES:
        steps = list(islice(every_step(search, board), 40))
        for step in steps:
            check_step(board, step, solution)
        assert (steps[0] if steps else None) == search(board)
        checked += len(steps)
    return checked


def _rows() -> list[dict[str, str]]:
    return read_csv("top1465.csv", 8) + read_csv("forum-hardest.csv", 4) + read_csv("jigsaw.csv", 4)


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row["id"])
def test_templates_with_singles_are_sound_on_real_puzzles(row: dict[str, str]) -> None:
    puzzle = puzzle_of(row)
    (solution,) = solutions(puzzle)
    # singles, then the first template step, each checked against the solution
    steps = run(puzzle, templates.TECHNIQUES, solution)
    rng = random.Random(row["id"])
    checked = len(steps)
    for share in (0.15, 0.3, 0.5):
        checked += _check_all(thinned(puzzle, solution, rng, share), solution)
    assert checked > 0


def _solution(model_name: str, size: int, box: str | None = None) -> tuple[Puzzle, tuple[int, ...]]:
    """A puzzle of the model with a third of a solution's cells given (the solution from the
    sat backend on the empty grid; the puzzle may have others, each step must keep this one)."""
    model = load_model(model_name, box=box)
    empty = Puzzle([0] * (size * size), model)
    grid = tuple(get_backend("sat").solve(empty, limit=1).solutions[0])
    assert empty.is_solution(list(grid))
    rng = random.Random(model_name + str(size))
    cells = [v if rng.random() < 0.33 else 0 for v in grid]
    return Puzzle(cells, model), grid


@pytest.mark.parametrize(
    ("model_name", "size", "box"),
    [("x", 9, None), ("hyper", 9, None), ("latin", 9, None), ("classic", 6, "2x3")],
)
def test_sound_on_other_models(model_name: str, size: int, box: str | None) -> None:
    puzzle, solution = _solution(model_name, size, box)
    rng = random.Random(7)
    checked = 0
    for share in (0.2, 0.4, 0.6, 0.75):
        checked += _check_all(thinned(puzzle, solution, rng, share), solution)
    assert checked > 0


def test_a_16x16_board_is_worked_out_soundly() -> None:
    row = read_csv("16x16.csv", 1)[0]
    puzzle = Puzzle.parse(row["puzzle"])
    solution = tuple(Puzzle.parse(row["solution"]).cells)
    assert puzzle.is_solution(list(solution))
    _check_all(thinned(puzzle, solution, random.Random(16), 0.3), solution)


# --- where it is listed -------------------------------------------------------------------------
def test_listed_for_reglib_and_rated_but_off_in_the_solver() -> None:
    # HoDoKu's Options.DEFAULT_SOLVER_STEPS: StepConfig(8700, TEMPLATE_SET, EXTREME, …, 10000,
    # 0, false, …) and 8800 TEMPLATE_DEL alike: off by default, Extreme, 10,000.
    assert finder("Template Set") == (templates.template_set, frozenset({"Template Set"}))
    assert finder("Template Delete") == (templates.template_delete, frozenset({"Template Delete"}))
    assert not {templates.template_set, templates.template_delete} & {e.find for e in TECHNIQUES}
    assert TECHNIQUE_RATING["Template Set"] == ("Extreme", 10_000)
    assert TECHNIQUE_RATING["Template Delete"] == ("Extreme", 10_000)
