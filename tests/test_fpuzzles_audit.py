"""The f-puzzles keys read as the reference readers read them (docs/formats/fpuzzles.md).

Each test states the reference's meaning in plain code (a predicate over every 4x4 grid, or a
layout written from the reference's formula) and holds this tool's reading to it: the solutions
of the puzzle as read (by enumeration, :func:`variants.solutions`, their number also counted by
a real backend) must be the grids the reference's meaning accepts. Where the reference has no
reading this tool can state, the puzzle must be refused by name. The references, read in their
code:

- dclamage/SudokuSolver (f-puzzles' own solver): ``SudokuSolver/SolverFactory.cs``
  (``CreateFromFPuzzles``), ``SolverUtility.cs`` (``DefaultRegions``), ``Constraints/*.cs``;
- dclamage/SudokuVariantSolverJS (its successor): ``src/index.ts``, ``src/solver/Constraint/*.ts``;
- SudokuPad's decoder (marktekfan/sudokupad-penpa-import ``src/sudokupad/fpuzzlesdecoder.js``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

import pytest
from variants import latin_squares, solutions, sudoku_grids

from sudoku_cp import Puzzle
from sudoku_cp.backends import get_backend
from sudoku_cp.errors import PuzzleError

Grid = Sequence[int]


def blank(size: int = 4, regions: Sequence[int | None] | None = None, **keys: object) -> dict:
    """An empty f-puzzles object of ``size``, each cell stating ``regions[i]`` when given."""
    grid = [
        [{} if regions is None else {"region": regions[r * size + c]} for c in range(size)]
        for r in range(size)
    ]
    return {"size": size, "grid": grid, **keys}


def read(data: dict) -> Puzzle:
    return Puzzle.parse(json.dumps(data), "classic")


def sudoku4() -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku grid (288), by enumeration (tests/variants.py)."""
    return [tuple(int(d) for d in grid) for grid in sudoku_grids(4)]


def reference(grids: Sequence[Grid], holds: Callable[[Grid], bool]) -> set[tuple[int, ...]]:
    """The grids the reference's meaning (``holds``, written plainly) accepts."""
    return {tuple(grid) for grid in grids if holds(grid)}


def solved(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """The puzzle's solutions by enumeration (the validator), their number checked against a
    real backend's count."""
    found = set(solutions(puzzle))
    assert get_backend("backtrack").solve(puzzle, limit=None).count == len(found)
    return found


# --- killer cages: a sum of 0 is no sum ----------------------------------------------------------
@pytest.mark.parametrize("value", ["0", 0])
def test_a_killer_cage_valued_0_is_a_cage_without_a_sum(value):
    # dclamage's KillerCageConstraint checks the sum only when it is above 0 ('sum <= 0':
    # no sum helper), and its writer writes a cage without a sum as sum 0; the JS solver adds
    # the sum only when 'sum > 0'. So the cage is only different digits.
    puzzle = read(blank(killercage=[{"cells": ["R1C1", "R2C2"], "value": value}]))
    expected = reference(sudoku4(), lambda g: g[0] != g[5])
    assert len(expected) == 288
    assert solved(puzzle) == expected


# --- little killers: a clue of 0 or below is no clue ---------------------------------------------
@pytest.mark.parametrize("value", ["0", "-3"])
def test_a_little_killer_valued_0_or_below_is_no_clue(value):
    # dclamage's SolverFactory adds a little killer only when 'int.TryParse(value) && value > 0'.
    puzzle = read(blank(littlekillersum=[{"cell": "R0C0", "direction": "DR", "value": value}]))
    assert puzzle.model.rules == ()
    assert len(solved(puzzle)) == 288


# --- disjoint groups need every cell in a region -------------------------------------------------
def test_disjoint_groups_with_cells_in_no_region_are_refused():
    # dclamage's DisjointGroupConstraint counts cells per region (numSeen[region]), which a
    # cell of region null (-1) breaks; the JS solver throws unless there are N whole regions.
    # (SudokuPad's decoder groups the regions left; dclamage is followed.)
    regions: list[int | None] = [0, 0, 1, 1, 0, 0, 1, 1] + [None] * 8
    with pytest.raises(PuzzleError, match="disjointgroups"):
        read(blank(regions=regions, disjointgroups=True))


def test_disjoint_groups_on_a_jigsaw_are_the_nth_cells_of_each_region_in_reading_order():
    # dclamage's DisjointGroupConstraint: group k is the k-th cell, in reading order, of every
    # region (the JS solver and SudokuPad's parse.disjointgroups alike).
    regions = [0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3]
    puzzle = read(blank(regions=regions, disjointgroups=True))
    members = [[c for c in range(16) if regions[c] == n] for n in range(4)]
    groups = [[m[k] for m in members] for k in range(4)] + members

    def holds(grid: Grid) -> bool:
        return all(len({grid[c] for c in group}) == 4 for group in groups)

    expected = reference([tuple(int(d) for d in g) for g in latin_squares(4)], holds)
    assert len(expected) == 144  # half of the 288 grids of these regions
    assert solved(puzzle) == expected


# --- default boxes -------------------------------------------------------------------------------
@pytest.mark.parametrize("size, height", [(6, 2), (8, 2), (10, 2), (12, 3), (14, 2), (15, 3)])
def test_default_boxes_are_wide_as_dclamage_draws_them(size, height):
    # dclamage's DefaultRegions: 6, 8, 10, 14 are 2 rows tall and N/2 wide; 12 and 15 are
    # 3 rows tall and N/3 wide (SudokuPad's getRegionShape and the JS solver's
    # applyDefaultRegions agree: the largest height up to the square root).
    width = size // height
    boxes = {
        tuple((top + r) * size + left + c for r in range(height) for c in range(width))
        for top in range(0, size, height)
        for left in range(0, size, width)
    }
    groups = {tuple(sorted(g)) for g in read(blank(size)).groups()}
    assert boxes <= groups


# --- arrows --------------------------------------------------------------------------------------
PILL_LINE = ["R1C1", "R2C1", "R2C2", "R3C2", "R3C1", "R4C1"]


def test_a_pill_reads_in_the_order_its_cells_are_listed():
    # dclamage's ArrowSumConstraint concatenates the circle's digits in the order of 'cells'
    # (ArrowConstraintHelpers.CalculatePillValueFromValues); the JS solver takes circleCells[0]
    # as the tens digit. The line's first cell is where it leaves the pill; the rest sum.
    data = blank(arrow=[{"cells": ["R1C2", "R1C1"], "lines": [PILL_LINE]}])
    body = [4, 5, 9, 8, 12]  # R2C1 R2C2 R3C2 R3C1 R4C1

    def as_listed(grid: Grid) -> bool:
        return 10 * grid[1] + grid[0] == sum(grid[c] for c in body)

    def reading_order(grid: Grid) -> bool:
        return 10 * grid[0] + grid[1] == sum(grid[c] for c in body)

    expected = reference(sudoku4(), as_listed)
    assert expected != reference(sudoku4(), reading_order)  # the test tells the two apart
    assert solved(read(data)) == expected


def test_an_arrow_line_coming_back_through_its_pill_is_refused():
    # dclamage leaves only the line's first cell off (SolverFactory: lines.Skip(1), since its
    # commit 30313ca "arrows ... when they loop back around and include a digit from the pill"):
    # a pill cell further on the line is summed too, which an arrow here cannot state.
    line = ["R1C1", "R2C1", "R2C2", "R1C2", "R1C3"]
    with pytest.raises(PuzzleError, match="comes back through"):
        read(blank(arrow=[{"cells": ["R1C1", "R1C2"], "lines": [line]}]))


# --- negative constraints ------------------------------------------------------------------------
def test_negative_difference_is_refused():
    # dclamage's SolverFactory reads only "ratio" and "xv" from 'negative' (the white dots'
    # negative is 'nonconsecutive'); the JS solver forbids every white dot's value, and nothing
    # when there are no dots. No meaning to follow: refused, like any rule not known.
    with pytest.raises(PuzzleError, match="difference"):
        read(blank(negative=["difference"]))
    with pytest.raises(PuzzleError, match="difference"):
        read(blank(negative=["difference"], difference=[{"cells": ["R1C1", "R1C2"]}]))


# --- whispers ------------------------------------------------------------------------------------
def test_a_one_cell_whispers_line_that_rules_out_digits_is_refused():
    # dclamage's WhispersConstraint.InitCandidates clears, on every cell of the line, the digits
    # with no partner at the difference (v - d < 1 and v + d > N): on 5x5 with difference 3 a
    # lone whispers cell cannot be 3. The JS solver, with no neighbours, adds nothing.
    with pytest.raises(PuzzleError, match="one cell"):
        read(blank(5, whispers=[{"lines": [["R1C1"]]}]))


def test_a_one_cell_whispers_line_where_every_digit_has_a_partner_is_no_rule():
    # 4x4, difference 2: every digit has a partner (1-3, 2-4), so nothing is cleared.
    puzzle = read(blank(whispers=[{"lines": [["R1C1"]]}]))
    assert len(solved(puzzle)) == 288


# --- the grid: givens and regions -----------------------------------------------------------------
@pytest.mark.parametrize("given", [1, "true", "yes"])
def test_a_given_flag_that_is_not_true_or_false_is_refused(given):
    # dclamage's FPuzzlesGridEntry reads 'given' as a bool (System.Text.Json refuses anything
    # else), while SudokuPad ('if(cell.given)') and the JS solver take any truthy value: a value
    # so flagged is a given to two readers and an error to the third, never a blank.
    data = blank()
    data["grid"][0][0] = {"value": 3, "given": given}
    with pytest.raises(PuzzleError, match="given"):
        read(data)


def test_a_region_below_0_is_no_region():
    # dclamage's SolverFactory keeps a cell's region number as given, null as -1, and counts
    # only regions 0..N-1 (a cell of -1 is in no region; its own writer, ToFPuzzlesURL, writes
    # such a cell's region as -1); the JS solver (src/index.ts) makes regions of 'region >= 0'
    # only. So -1 reads as null: these cells hold no region, the other regions stay groups.
    regions = [0, 0, 1, 1, 0, -1, 1, 1, 0, -1, -1, -1, -1, -1, -1, -1]
    puzzle = read(blank(regions=regions))
    groups = [[0, 1, 4, 8], [2, 3, 6, 7]]

    def holds(grid: Grid) -> bool:
        return all(len({grid[c] for c in group}) == 4 for group in groups)

    expected = reference([tuple(int(d) for d in g) for g in latin_squares(4)], holds)
    assert len(expected) == 144
    assert solved(puzzle) == expected


# --- names matched exactly ------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["Ratio", " ratio", "XV"])
def test_a_negative_kind_is_matched_exactly(kind):
    # dclamage's SolverFactory ('negative?.Contains("ratio")') and the JS solver
    # ('negative.includes("ratio")') match the names exactly: "Ratio" is no ratio negative to
    # either. A name neither knows is refused, never read as the one it resembles.
    with pytest.raises(PuzzleError, match="not a kind of mark"):
        read(blank(negative=[kind]))


@pytest.mark.parametrize("value", [" X", "x ", "10"])
def test_an_xv_mark_is_x_or_v_exactly(value):
    # dclamage's SolverFactory takes exactly "x", "X", "v", "V" (anything else not blank throws
    # "Unrecognized XV value"); the JS solver drops any other mark.
    with pytest.raises(PuzzleError, match="is not X or V"):
        read(blank(xv=[{"cells": ["R1C1", "R1C2"], "value": value}]))


def test_x_and_v_in_either_case():
    data = blank(
        xv=[{"cells": ["R1C1", "R1C2"], "value": "x"}, {"cells": ["R2C1", "R3C1"], "value": "v"}]
    )
    expected = reference(sudoku4(), lambda g: g[0] + g[1] == 10 and g[4] + g[8] == 5)
    assert solved(read(data)) == expected


@pytest.mark.parametrize("direction", ["dr", " DR"])
def test_a_little_killer_direction_is_matched_exactly(direction):
    # dclamage's LittleKillerConstraint matches '([UD][LR])' (upper case), and throws on
    # anything else. (The JS solver reads the entry's 'cells' instead.)
    clue = {"cell": "R0C0", "direction": direction, "value": "10"}
    with pytest.raises(PuzzleError, match="is not one of UR, UL, DR, DL"):
        read(blank(littlekillersum=[clue]))


# --- plain cages ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "sums"), [("DR5", {5}), ("sum DR5", {5}), (" DR12 ", None), ("DR3DR5", {3})]
)
def test_a_cage_whose_value_holds_dr_and_a_number_is_a_digit_root_cage(value, sums):
    # dclamage's SolverFactory reads a 'cage' as a digit-root killer cage when its value, trimmed,
    # has a match of 'DR(\d+)' anywhere (Regex.Match, not a whole-string match: the first one)
    # and it has 1..N cells. Two cells of a 4x4 grid sum to 3..7: DR5 lists 5, DR12 nothing
    # (the root is not reduced), and with no sum listed MultiSumKillerCageConstraint checks none.
    puzzle = read(blank(cage=[{"cells": ["R1C1", "R1C2"], "value": value}]))
    expected = reference(sudoku4(), lambda g: sums is None or g[0] + g[1] in sums)
    assert solved(puzzle) == expected and 0 < len(expected) <= 288


@pytest.mark.parametrize(
    "cage",
    [
        {"cells": ["R1C1", "R1C2"], "value": "dr5"},  # the match is case-sensitive
        {"cells": [], "value": "DR5"},  # no cells: SudokuPad's metadata cages
        {"cells": ["R1C1", "R1C2", "R1C3", "R1C4", "R2C1"], "value": "DR5"},  # more than N
    ],
)
def test_other_cages_are_outlines(cage):
    assert len(solved(read(blank(cage=[cage])))) == 288


@pytest.mark.parametrize(
    ("where", "entry", "message"),
    [
        ("value", {"value": "²", "given": True}, 'grid R1C1: given "\\u00b2" is not a digit'),
        ("value", {"value": "\u2460", "given": True}, 'grid R1C1: given "\\u2460" is not'),
        ("region", {"region": "²"}, 'grid R1C1: region "\\u00b2" is not one of'),
        ("marks", {"givenPencilMarks": ["²"]}, 'givenPencilMarks: "\\u00b2" is not a digit'),
        ("long", {"value": "9" * 5000, "given": True}, "grid R1C1: given"),
    ],
)
def test_digits_that_are_not_ascii_or_too_long_are_one_line_errors(where, entry, message):
    # "²" passes str.isdigit() but not int(): it once escaped as a ValueError (a traceback).
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]}
    data["grid"][0][0 if where != "marks" else 1] = entry
    if where == "marks":
        message = message.replace("R1C1", "R1C2")
    with pytest.raises(PuzzleError, match=re.escape(message)):
        Puzzle.parse(json.dumps(data))


def test_a_sum_in_other_scripts_digits_is_not_read_as_a_number():
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]}
    data["killercage"] = [{"cells": ["R1C1", "R1C2"], "value": "٣"}]  # Arabic-Indic 3
    with pytest.raises(PuzzleError, match="its sum .* is not a whole number"):
        Puzzle.parse(json.dumps(data))


def test_a_negative_cage_sum_is_refused_as_negative():
    """ "-5" was refused as "not a whole number", which it is."""
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]}
    data["killercage"] = [{"cells": ["R1C1", "R1C2"], "value": "-5"}]
    with pytest.raises(PuzzleError, match='its sum "-5" is negative, which no cage sums to'):
        Puzzle.parse(json.dumps(data))
