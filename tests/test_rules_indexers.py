"""Indexer cells (f-puzzles ``rowindexer``, ``columnindexer``, ``boxindexer``) and given pencil
marks (``grid[r][c].givenPencilMarks``); digit-root cages: tests/test_rules_digit_root.py.

The expected answers come from the reference's meaning written plainly here, never from this
tool's rules: dclamage/SudokuSolver's ``Constraints/IndexerConstraint.cs`` (``TargetCell``: a
row indexer at (i, j) holding v puts i + 1 at (v - 1, j); a column indexer puts j + 1 at
(i, v - 1); a box indexer puts its place + 1 at its region's v-th cell, regions' cells in
reading order) and ``SolverFactory.cs`` (a key's cells merged; given pencil marks kept as a
cell's only candidates when it has no given). Counts are by brute force
over every 4x4 grid, and backends are held to them."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from sudoku_cp import Puzzle
from sudoku_cp.backends import available_backends, get_backend
from sudoku_cp.errors import ModelError, PuzzleError
from sudoku_cp.formats.fpuzzles import default_regions, fpuzzles_data
from sudoku_cp.model import load_model
from sudoku_cp.rules import (
    BoxIndexer,
    Candidates,
    ColumnIndexer,
    RowIndexer,
    indexer_rules,
)
from sudoku_cp.transforms import moves, relabel

Grid = tuple[int, ...]


# --- the reference's meaning, plainly ------------------------------------------------------------
def rc(cell: int, size: int) -> str:
    return f"R{cell // size + 1}C{cell % size + 1}"


def region_cells(regions: list, size: int) -> dict[int, list[int]]:
    """Each region number's cells in reading order (dclamage's Region groups)."""
    found: dict[int, list[int]] = {}
    for cell, number in enumerate(regions):
        if number is not None:
            found.setdefault(number, []).append(cell)
    return found


def reference_holds(
    grid: Grid,
    size: int,
    rows: tuple = (),
    columns: tuple = (),
    boxes: tuple = (),
    regions: list | None = None,
) -> bool:
    """Whether ``grid`` keeps the indexers, read as IndexerConstraint.TargetCell reads them."""
    at = lambda i, j: grid[i * size + j]  # noqa: E731
    for cell in rows:
        i, j = divmod(cell, size)
        if at(at(i, j) - 1, j) != i + 1:
            return False
    for cell in columns:
        i, j = divmod(cell, size)
        if at(i, at(i, j) - 1) != j + 1:
            return False
    if boxes:
        regions = list(default_regions(size)) if regions is None else regions
        members = region_cells(regions, size)
        for cell in boxes:
            if regions[cell] is None:
                continue  # a cell in no region targets itself: nothing
            region = members[regions[cell]]
            if grid[region[grid[cell] - 1]] != region.index(cell) + 1:
                return False
    return True


def latin_squares(size: int) -> list[Grid]:
    rows = list(itertools.permutations(range(1, size + 1)))
    found: list[Grid] = []

    def extend(grid: tuple, depth: int) -> None:
        if depth == size:
            found.append(grid)
            return
        for row in rows:
            if all(row[c] != grid[r * size + c] for r in range(depth) for c in range(size)):
                extend(grid + row, depth + 1)

    extend((), 0)
    return found


LATIN4 = latin_squares(4)
SUDOKU4 = [
    g
    for g in LATIN4
    if all(
        len({g[(top + r) * 4 + left + c] for r in range(2) for c in range(2)}) == 4
        for top in (0, 2)
        for left in (0, 2)
    )
]


def sudoku_grid(size: int, height: int, width: int, seed: int) -> Grid:
    """A random Sudoku solution with ``height`` x ``width`` boxes: the pattern grid with
    rows and columns shuffled within bands and stacks and the digits renamed."""
    rng = random.Random(seed)

    def pattern(r: int, c: int) -> int:
        return (width * (r % height) + r // height + c) % size

    bands = rng.sample(range(size // height), size // height)
    stacks = rng.sample(range(size // width), size // width)
    rows = [b * height + r for b in bands for r in rng.sample(range(height), height)]
    cols = [s * width + c for s in stacks for c in rng.sample(range(width), width)]
    names = rng.sample(range(1, size + 1), size)
    return tuple(names[pattern(r, c)] for r in rows for c in cols)


# --- f-puzzles objects ---------------------------------------------------------------------------
def fpuzzle(size: int, givens: dict | None = None, regions=None, **keys) -> dict:
    grid = []
    for r in range(size):
        row = []
        for c in range(size):
            cell: dict = {}
            if givens and r * size + c in givens:
                cell = {"value": givens[r * size + c], "given": True}
            if regions is not None:
                cell["region"] = regions[r * size + c]
            row.append(cell)
        grid.append(row)
    return {"size": size, "grid": grid, **keys}


def marked(key: str, cells, size: int) -> list:
    return [{"cells": [rc(c, size) for c in cells]}]


def parse(data: dict, model: str = "classic") -> Puzzle:
    return Puzzle.parse(json.dumps(data), model)


def backends() -> list[str]:
    return [
        name
        for name in ("backtrack", "sat", "cpsat", "constraint", "dlx")
        if name in available_backends()
    ]


def counted_everywhere(puzzle: Puzzle, expected: list[Grid]) -> None:
    """Every backend that compiles the puzzle finds exactly ``expected``; one that does not
    compile it refuses."""
    tried = 0
    for name in backends():
        backend = get_backend(name)
        if backend.refusal(puzzle) is not None:
            assert name == "dlx", name  # dlx takes no pair rule; every other takes indexers
            continue
        result = backend.solve(puzzle, limit=None, time_limit=60)
        assert result.exact, name
        assert sorted(result.solutions) == sorted(expected), name
        tried += 1
    assert tried >= 1


# --- the meaning: every grid, read against the reference ------------------------------------------
@pytest.mark.parametrize(
    "rows, columns, boxes",
    [
        ((4, 11), (), ()),
        ((), (1, 6), ()),
        ((), (), (1, 14)),
        ((4,), (4,), ()),  # one cell, two kinds: both hold
        ((4,), (), (4,)),
        ((0, 4, 8, 12), (), ()),  # a whole column of row indexers side by side
        ((), (0, 1, 2, 3), (0, 5, 10, 15)),
    ],
)
def test_indexers_read_from_f_puzzles_count_as_the_reference_means(rows, columns, boxes):
    keys = {}
    for key, cells in (("rowindexer", rows), ("columnindexer", columns), ("boxindexer", boxes)):
        if cells:
            keys[key] = marked(key, cells, 4)
    puzzle = parse(fpuzzle(4, **keys))
    expected = [g for g in SUDOKU4 if reference_holds(g, 4, rows, columns, boxes)]
    assert 0 < len(expected) < len(SUDOKU4)
    # the validator agrees on every grid, not only on the solutions
    assert [g for g in SUDOKU4 if puzzle.is_solution(g)] == expected
    counted_everywhere(puzzle, expected)


def test_a_row_indexer_indexes_the_rows_of_its_column_and_a_column_indexer_its_row():
    # r2c1 holding 3 (row indexer): row 3 of column 1 holds 2. As a column indexer: column 3
    # of row 2 holds 1. Grid rows 1234 / 3412 / 2143 / 4321.
    grid = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    row = parse(fpuzzle(4, rowindexer=[{"cells": ["R2C1"]}]))
    column = parse(fpuzzle(4, columnindexer=[{"cells": ["R2C1"]}]))
    assert grid[8] == 2 and row.is_solution(grid)
    assert grid[6] == 1 and column.is_solution(grid)
    swapped = (1, 2, 3, 4, 3, 4, 1, 2, 4, 3, 2, 1, 2, 1, 4, 3)  # rows 3 and 4 swapped
    assert not row.is_solution(swapped) and column.is_solution(swapped)
    assert row.problems_with(swapped) == [
        "the row indexer r2c1 holds 3, so r3c1 must hold 2, not 4"
    ]


@pytest.mark.parametrize(
    "size, height, width", [(4, 2, 2), (6, 2, 3), (8, 2, 4), (9, 3, 3), (12, 3, 4)]
)
def test_every_cell_as_an_indexer_of_each_kind_on_every_box_shape(size, height, width):
    # On a few full grids, each cell alone as an indexer: this tool's validator says what the
    # reference says (box places in reading order within 2x3, 2x4, 3x4 … boxes).
    assert default_regions(size)[width] == (1 if size > width else 0)  # boxes as f-puzzles draws
    for seed in range(3):
        grid = sudoku_grid(size, height, width, seed)
        assert parse(fpuzzle(size)).is_solution(grid)
        for key, kind in (
            ("rowindexer", "rows"),
            ("columnindexer", "columns"),
            ("boxindexer", "boxes"),
        ):
            for cell in range(size * size):
                puzzle = parse(fpuzzle(size, **{key: [{"cells": [rc(cell, size)]}]}))
                expected = reference_holds(grid, size, **{kind: (cell,)})
                assert puzzle.is_solution(grid) == expected, (key, rc(cell, size), seed)


def test_box_indexers_follow_jigsaw_regions_and_a_cell_in_no_region_indexes_nothing():
    regions = [0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3]
    cells = (0, 7, 13)
    puzzle = parse(fpuzzle(4, regions=regions, boxindexer=marked("boxindexer", cells, 4)))
    jigsaw = [g for g in LATIN4 if parse(fpuzzle(4, regions=regions)).is_solution(g)]
    expected = [g for g in jigsaw if reference_holds(g, 4, boxes=cells, regions=regions)]
    assert 0 < len(expected) < len(jigsaw)
    assert [g for g in jigsaw if puzzle.is_solution(g)] == expected
    counted_everywhere(puzzle, expected)
    # cells of rows 3-4 in no region: a box indexer there adds no rule
    partial: list = [0, 0, 1, 1, 0, 0, 1, 1] + [None] * 8
    alone = parse(fpuzzle(4, regions=partial, boxindexer=[{"cells": ["R4C4"]}]))
    assert alone.model.rules == ()
    top = parse(fpuzzle(4, regions=partial, boxindexer=[{"cells": ["R2C1"]}]))
    assert {rule.targets for rule in top.model.rules} == {(0,), (1,), (5,)}


def test_a_box_indexer_on_a_size_without_boxes_indexes_its_row():
    # dclamage's DefaultRegions: rows for a prime size, so a box indexer acts on its row.
    box = parse(fpuzzle(5, boxindexer=[{"cells": ["R2C3"]}]))
    column = parse(fpuzzle(5, columnindexer=[{"cells": ["R2C3"]}]))
    assert box.model.rules and [r.pairs(5) for r in box.model.rules] == [
        r.pairs(5) for r in column.model.rules
    ]


def test_a_cell_listed_twice_or_in_two_entries_is_one_indexer_and_empty_names_are_skipped():
    once = parse(fpuzzle(4, rowindexer=[{"cells": ["R2C1", "R3C4"]}]))
    twice = parse(
        fpuzzle(
            4,
            rowindexer=[{"cells": ["R3C4", "R2C1", ""]}, {"cells": ["r2c1"]}, {"cells": []}],
        )
    )
    assert twice.model.rules == once.model.rules
    assert parse(fpuzzle(4, rowindexer=[{"cells": [" "]}])).model.rules == ()


@pytest.mark.parametrize(
    "value, message",
    [
        ({"cells": "R1C1"}, "f-puzzles rowindexer 1: 'cells' must be a list of cells"),
        ({}, "f-puzzles rowindexer 1: 'cells' must be a list of cells"),
        ({"cells": ["R5C1"]}, "f-puzzles rowindexer 1: cell R5C1 is outside the 4x4 grid"),
        ({"cells": ["R1"]}, 'f-puzzles rowindexer 1: "R1" is not a cell such as "R1C1"'),
        ({"cells": [11]}, 'f-puzzles rowindexer 1: 11 is not a cell such as "R1C1"'),
    ],
)
def test_a_malformed_indexer_is_one_line_naming_the_entry(value, message):
    with pytest.raises(PuzzleError) as caught:
        parse(fpuzzle(4, rowindexer=[value]))
    assert message in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(PuzzleError, match="'columnindexer' must be a list of objects"):
        parse(fpuzzle(4, columnindexer={"cells": ["R1C1"]}))


def test_a_one_by_one_indexer_points_at_itself_and_adds_no_rule():
    assert parse(fpuzzle(1, rowindexer=[{"cells": ["R1C1"]}])).model.rules == ()


def test_an_indexer_rule_is_checked():
    with pytest.raises(ModelError, match="points at itself"):
        RowIndexer((0,), (0,), 2, 1).check(4)
    with pytest.raises(ModelError, match="from 1 to 4"):
        RowIndexer((0,), (4,), 5, 1).check(4)
    with pytest.raises(ModelError, match="1 cells point at 2 targets"):
        ColumnIndexer((0,), (1, 2), 2, 1).check(4)
    with pytest.raises(ModelError, match="its own place"):
        BoxIndexer((0,), (1,), 1, 1).check(4)
    with pytest.raises(ModelError, match="outside the 4x4 grid"):
        RowIndexer((0,), (16,), 2, 1).check(4)


# --- moved and reversed --------------------------------------------------------------------------
def solutions_of(puzzle: Puzzle, grids: list[Grid]) -> list[Grid]:
    return [g for g in grids if puzzle.is_solution(g)]


def test_a_transposed_row_indexer_is_a_column_indexer_and_every_move_keeps_the_count():
    puzzle = parse(fpuzzle(4, rowindexer=marked("rowindexer", (4, 11), 4)))
    before = solutions_of(puzzle, SUDOKU4)
    for transform in moves(puzzle.model, 4):
        moved = transform.puzzle(puzzle)
        after = solutions_of(moved, SUDOKU4)
        assert sorted(after) == sorted(transform.apply(g) for g in before), transform.name
        if transform.name == "transpose":
            assert {type(rule) for rule in moved.model.rules} == {ColumnIndexer}
            assert (
                moved.model.rules
                == parse(fpuzzle(4, columnindexer=marked("columnindexer", (1, 14), 4))).model.rules
            )
    reversal = relabel(4, range(4, 0, -1))
    reversed_ = reversal.puzzle(puzzle)
    assert sorted(solutions_of(reversed_, SUDOKU4)) == sorted(reversal.apply(g) for g in before)


def test_a_moved_indexer_that_f_puzzles_cannot_state_is_not_written():
    puzzle = parse(fpuzzle(4, rowindexer=marked("rowindexer", (4,), 4)))
    swap = next(t for t in moves(puzzle.model, 4) if t.name == "swap rows 1,2")
    with pytest.raises(PuzzleError, match="row indexer R1C1 moved off its places"):
        fpuzzles_data(swap.puzzle(puzzle).cells, 4, swap.puzzle(puzzle).model)
    reversal = relabel(4, range(4, 0, -1)).puzzle(puzzle)
    with pytest.raises(PuzzleError, match="moved off its places"):
        fpuzzles_data(reversal.cells, 4, reversal.model)
    # a family cut short: only some of the digits its cell points with
    part = load_model("classic").with_rules(rules=indexer_rules(RowIndexer, (4,), 4)[:2], size=4)
    with pytest.raises(PuzzleError, match="row indexer R2C1 pointing only with 1, 3"):
        fpuzzles_data((0,) * 16, 4, part)


# --- writing back --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "size, regions, keys",
    [
        (4, None, {"rowindexer": [4, 11], "columnindexer": [4, 6], "boxindexer": [1, 14]}),
        (6, None, {"boxindexer": [0, 4, 20, 35], "columnindexer": [0, 6, 12]}),
        (5, None, {"boxindexer": [7, 24]}),
        (4, [0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3], {"boxindexer": [0, 7, 13]}),
    ],
)
def test_indexers_read_back_as_the_same_puzzle(size, regions, keys):
    data = fpuzzle(
        size, regions=regions, **{k: marked(k, cells, size) for k, cells in keys.items()}
    )
    puzzle = parse(data)
    written = fpuzzles_data(puzzle.cells, size, puzzle.model)
    for key, cells in keys.items():
        assert written[key] == [{"cells": [rc(c, size) for c in sorted(cells)]}]
    assert parse(written) == puzzle


# --- given pencil marks --------------------------------------------------------------------------
def with_marks(marks: dict, givens: dict | None = None, size: int = 4) -> dict:
    data = fpuzzle(size, givens)
    for cell, digits in marks.items():
        data["grid"][cell // size][cell % size]["givenPencilMarks"] = digits
    return data


def test_given_pencil_marks_are_a_cells_only_candidates():
    marks = {0: [1, 4], 5: [4, 1], 10: [2, 3], 15: []}  # an empty list limits nothing
    puzzle = parse(with_marks(marks))
    expected = [
        g for g in SUDOKU4 if all(not digits or g[c] in digits for c, digits in marks.items())
    ]
    assert 0 < len(expected) < len(SUDOKU4)
    assert solutions_of(puzzle, SUDOKU4) == expected
    assert puzzle.model.rules == (Candidates((0, 5), (1, 4)), Candidates((10,), (2, 3)))
    counted_everywhere(puzzle, expected)


def test_pencil_marks_beside_a_given_are_ignored_but_not_beside_a_solvers_entry():
    # SolverFactory: a given value is set first and its marks never looked at; with onlyGivens
    # (f-puzzles' solve and count) a value without 'given' is no value, so its marks count.
    beside_given = with_marks({0: [2, 3]}, givens={0: 1})
    assert parse(beside_given).model.rules == ()
    assert parse(beside_given).cells[0] == 1
    entry = with_marks({0: [2, 3]})
    entry["grid"][0][0]["value"] = 1  # a solver's entry, not a given
    puzzle = parse(entry)
    assert puzzle.cells[0] == 0 and puzzle.model.rules == (Candidates((0,), (2, 3)),)


def test_pencil_marks_as_text_read_as_digits_and_others_are_refused():
    assert parse(with_marks({3: ["2", 3]})).model.rules == (Candidates((3,), (2, 3)),)
    for bad, shown in (([0], "0"), ([5], "5"), (["x"], '"x"'), ([True], "true")):
        with pytest.raises(PuzzleError) as caught:
            parse(with_marks({3: bad}))
        assert f"R1C4: givenPencilMarks: {shown} is not a digit 1..4" in str(caught.value)
    with pytest.raises(PuzzleError, match="givenPencilMarks must be a list of digits"):
        parse(with_marks({3: 2}))


def test_centre_pencil_marks_are_no_rule():
    data = fpuzzle(4)
    data["grid"][0][0]["centerPencilMarks"] = [1]
    assert parse(data).model.rules == ()


def test_given_pencil_marks_read_back_moved_and_reversed():
    puzzle = parse(with_marks({0: [1, 4], 5: [1, 4], 10: [2, 3]}, givens={15: 1}))
    written = fpuzzles_data(puzzle.cells, 4, puzzle.model)
    assert written["grid"][0][0]["givenPencilMarks"] == [1, 4]
    assert parse(written) == puzzle
    before = solutions_of(puzzle, SUDOKU4)
    reversal = relabel(4, range(4, 0, -1))
    assert sorted(solutions_of(reversal.puzzle(puzzle), SUDOKU4)) == sorted(
        reversal.apply(g) for g in before
    )
    for transform in moves(puzzle.model, 4):
        moved = transform.puzzle(puzzle)
        assert sorted(solutions_of(moved, SUDOKU4)) == sorted(transform.apply(g) for g in before)
        back = parse(fpuzzles_data(moved.cells, 4, moved.model))
        # (the marks are written cell by cell: the rules come back in reading order)
        assert back.cells == moved.cells
        assert set(back.model.rules) == set(moved.model.rules), transform.name


def test_pencil_marks_f_puzzles_cannot_state_are_not_written():
    model = load_model("classic")
    clash = model.with_rules(rules=[Candidates((0,), (2, 3))], size=4)
    with pytest.raises(PuzzleError, match="the given 1 at R1C1 outside its given pencil marks"):
        fpuzzles_data((1,) + (0,) * 15, 4, clash)
    kept = fpuzzles_data((2,) + (0,) * 15, 4, clash)  # the given is a candidate: no marks
    assert "givenPencilMarks" not in kept["grid"][0][0]
    empty = model.with_rules(rules=[Candidates((0,), (2,)), Candidates((0,), (3,))], size=4)
    with pytest.raises(PuzzleError, match="R1C1 left no candidate"):
        fpuzzles_data((0,) * 16, 4, empty)
