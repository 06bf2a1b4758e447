"""Variants part 2 (lines, dots, sums, marked cells): each rule's plain checker on hand-checked
grids, each rule's ``check`` errors, metamorphic moves and the digit reversal (the moved puzzle
has as many solutions as the original, both counted by enumeration), and f-puzzles reading and
writing of every key: the importers' conventions, malformed entries as one line naming the key
and entry, and read → write → read giving the same rules."""

from __future__ import annotations

import json

import lzstring
import pytest
from clitools import error_line, jsonl, run
from variants import catalogue, count

from sudoku_cp import Puzzle, Status
from sudoku_cp.backends import available_backends, get_backend
from sudoku_cp.datasets import bundled_count, bundled_path
from sudoku_cp.errors import ModelError, PuzzleError
from sudoku_cp.formats import read_puzzles
from sudoku_cp.formats.fpuzzles import fpuzzles_data, read_fpuzzles
from sudoku_cp.formats.fpuzzles_rules import MORE_LINE_KEYS
from sudoku_cp.formats.record_form import record_text
from sudoku_cp.model import load_model
from sudoku_cp.rules import (
    RULE_KINDS,
    XV,
    Arrow,
    BetweenLine,
    Clone,
    Difference,
    Even,
    LittleKiller,
    Maximum,
    Minimum,
    Negative,
    NonConsecutive,
    Odd,
    Palindrome,
    Quadruple,
    Ratio,
    Renban,
    Rule,
    Sandwich,
    Thermometer,
    Whispers,
)
from sudoku_cp.transforms import moves, relabel

# 1234 / 3412 / 2143 / 4321: a 4x4 Sudoku grid (hand-made); cells are numbered row * 4 + col.
GRID = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
CLASSIC = load_model("classic")


# --- the plain checkers, on GRID -----------------------------------------------------------------
@pytest.mark.parametrize(
    "rule, problems",
    [
        # r1: 1 2 3 4 — rising along the row, falling back down it
        (Thermometer((0, 1, 2, 3)), []),
        (
            Thermometer((3, 2, 1)),
            [
                "the thermometer r1c4-r1c3-r1c2: r1c4 and r1c3 hold 4 and 3",
                "the thermometer r1c4-r1c3-r1c2: r1c3 and r1c2 hold 3 and 2",
            ],
        ),
        (Thermometer((0, 5)), []),  # r1c1 = 1 below r2c2 = 4, diagonally
        # whispers: 1-4 differ by 3, 4-1 by 3; 1-2 only by 1
        (Whispers((0, 5, 6), 3), []),
        (Whispers((0, 1), 2), ["the whispers line r1c1-r1c2: r1c1 and r1c2 hold 1 and 2"]),
        (
            Renban((0, 1, 5)),
            ["the renban line r1c1-r1c2-r2c2 holds 1, 2, 4, not a run of consecutive digits"],
        ),
        (Renban((0, 1, 4)), []),  # 1, 2, 3
        (Palindrome((0, 5, 10, 15)), []),  # 1 4 4 1
        (Palindrome((0, 1, 4)), ["the palindrome r1c1-r1c2-r2c1: r1c1 and r2c1 hold 1 and 3"]),
        (BetweenLine((0, 1, 2, 3)), []),  # 2 and 3 lie between 1 and 4
        (
            BetweenLine((1, 0, 2)),
            ["the between line r1c2-r1c1-r1c3: r1c2, r1c1 and r1c3 hold 2, 1 and 3"],
        ),
        (Difference((0, 1)), []),
        (Difference((0, 4), 2), []),  # 1 and 3
        (Difference((0, 4)), ["the white dot 1 between r1c1-r2c1: r1c1 and r2c1 hold 1 and 3"]),
        (Ratio((1, 5)), []),  # 2 and 4
        (Ratio((0, 1), 3), ["the black dot 3 between r1c1-r1c2: r1c1 and r1c2 hold 1 and 2"]),
        (XV((0, 4), 4), []),  # 1 + 3
        (XV((0, 1), 5), ["the V between r1c1-r1c2: r1c1 and r1c2 hold 1 and 2"]),
        (XV((5, 4), 10), ["the X between r2c2-r2c1: r2c2 and r2c1 hold 4 and 3"]),
        (Negative("difference", ((0, 5), (0, 4)), (1,)), []),  # 1-4, 1-3
        (
            Negative("difference", ((0, 1),), (1,)),
            ["the negative difference constraint (1): r1c1 and r1c2 hold 1 and 2"],
        ),
        (
            Negative("ratio", ((0, 1),), (2,)),
            ["the negative ratio constraint (2): r1c1 and r1c2 hold 1 and 2"],
        ),
        (Negative("xv", ((0, 4), (2, 3)), (5, 10)), []),  # 1+3, 3+4
        (
            Negative("xv", ((1, 2),), (5, 10)),
            ["the negative xv constraint (5, 10): r1c2 and r1c3 hold 2 and 3"],
        ),
        (Odd((0, 2, 6)), []),
        (Odd((0, 1)), ["r1c2 is odd but holds 2"]),
        (Even((1, 3, 4)), ["r2c1 is even but holds 3"]),
        (Minimum(0), []),  # 1 beside 2 and 3
        (Minimum(6), []),  # r2c3 = 1
        (
            Minimum(5),
            [
                "the minimum cell r2c2: r2c2 and r1c2 hold 4 and 2",
                "the minimum cell r2c2: r2c2 and r2c1 hold 4 and 3",
                "the minimum cell r2c2: r2c2 and r2c3 hold 4 and 1",
                "the minimum cell r2c2: r2c2 and r3c2 hold 4 and 1",
            ],
        ),
        (Maximum(5), []),
        (
            Maximum(15),
            [
                "the maximum cell r4c4: r4c4 and r3c4 hold 1 and 3",
                "the maximum cell r4c4: r4c4 and r4c3 hold 1 and 2",
            ],
        ),
        (Clone((0, 1), (15, 14)), []),  # r4c4 = 1, r4c3 = 2
        (Clone((0, 1), (6, 9)), ["the clone of r1c1-r1c2: r1c2 and r3c2 hold 2 and 1"]),
        (Arrow((3,), (0, 4)), []),  # 4 = 1 + 3
        (Arrow((3,), (0, 1)), ["the arrow from r1c4: the circle reads 4 but the line sums to 3"]),
        (
            Arrow((0, 1), (2, 3)),
            ["the arrow from r1c1-r1c2: the circle reads 12 but the line sums to 7"],
        ),
        (LittleKiller((1, 4), 5), []),  # r1c2 + r2c1 = 2 + 3
        (
            LittleKiller((0, 5, 10, 15), 9),
            ["the little killer 9 along r1c1-r2c2-r3c3-r4c4 sums to 10"],
        ),
        (Sandwich((0, 1, 2, 3), 5), []),  # between 1 and 4: 2 + 3
        (Sandwich((4, 5, 6, 7), 0), []),  # 3 4 1 2: 4 and 1 touch
        (Sandwich((0, 4, 8, 12), 5), []),  # column 1: 1 3 2 4
        (
            Sandwich((8, 9, 10, 11), 1),
            ["the sandwich sum 1 of row 3: the digits between the 1 and the 4 sum to 0"],
        ),
        (Quadruple((0, 1, 4, 5), (1, 2, 3, 4)), []),
        (Quadruple((5, 6, 9, 10), (1, 1)), []),  # 4 1 / 1 4
        (Quadruple((0, 1, 4, 5), (1, 1)), ["the quadruple 11 at r1c1-r1c2-r2c1-r2c2: 1 missing"]),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, Rule) else "",
)
def test_each_checker_on_a_hand_checked_grid(rule, problems):
    got = rule.problems(GRID, 4)
    assert got == problems
    assert all("\n" not in line for line in got)


def test_a_sandwich_line_without_its_1_or_n_says_so():
    line = (2, 2, 3, 3) + (0,) * 12  # not a Sudoku row, but the checker must still answer
    assert Sandwich((0, 1, 2, 3), 0).problems(line, 4) == [
        "the sandwich sum 0 of row 1: the line lacks a 1 or a 4"
    ]


def test_renban_runs_are_consecutive_in_any_order():
    assert Renban((3, 2, 7)).problems(GRID, 4) == []  # 4, 3, 2
    assert Renban((0, 3)).problems(GRID, 4) == [
        "the renban line r1c1-r1c4 holds 1, 4, not a run of consecutive digits"
    ]


# --- check: malformed rules, one line naming the rule and the place ------------------------------
@pytest.mark.parametrize(
    "rule, message",
    [
        (Thermometer((0, 1, 0)), "thermometer from r1c1: goes through r1c1 twice"),
        (Thermometer((0, 2)), "r1c1 and r1c3 are next on the line but do not touch"),
        (Thermometer((0, 16)), "thermometer from r1c1: cell 16 is outside the 4x4 grid"),
        (Whispers((0, 1), 4), "its difference must be a whole number from 1 to 3, not 4"),
        (Renban(()), "renban line: needs at least 1 cell"),
        (Difference((0, 5)), "white dot r1c1-r2c2: the cells do not touch"),
        (Ratio((0, 1), 0), "black dot r1c1-r1c2: its value must be a whole number from 1"),
        (XV((0, 1), -1), "XV sum r1c1-r1c2: its value must be a whole number from 0"),
        (Negative("parity", (), ()), "negative 'parity': not a kind of mark"),
        (Negative("ratio", ((0, 2),), (2,)), "negative 'ratio': r1c1 and r1c3 do not touch"),
        (Odd((0, 0)), "odd cells: goes through r1c1 twice"),
        (Minimum(99), "minimum cell: cell 99 is outside the 4x4 grid"),
        (Clone((0, 1), (2,)), "clone r1c1-r1c2: 2 cells cloned onto 1 cells"),
        (Clone((0,), (0,)), "clone r1c1: r1c1 is cloned onto itself"),
        (Quadruple((0, 1, 2, 3, 4), (1,)), "has 5 cells, at most 4"),
        (Quadruple((0, 1, 4, 6), (1,)), "its cells do not meet at one grid point"),
        (Quadruple((0, 1), (1, 2, 3)), "lists 3 digits for 2 cells"),
        (Quadruple((0, 1, 4, 5), (5,)), "5 is not a digit from 1 to 4"),
        (Arrow((0,), (0, 1)), "arrow r1c1: r1c1 is on the circle and the line"),
        (LittleKiller((0, 5), -1), "little killer -1: its sum must be a whole number from 0"),
        (Sandwich((0, 1, 2), 3), "sandwich sum 3: its cells must be a whole row or column"),
        (Sandwich((0, 1, 2, 4), 3), "sandwich sum 3: its cells must be a whole row or column"),
    ],
)
def test_a_malformed_rule_is_one_line_naming_what_and_where(rule, message):
    with pytest.raises(ModelError) as caught:
        rule.check(4)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_pill_is_refused_above_9x9_where_digits_have_two_places():
    Arrow((0, 1), (2,)).check(9)
    with pytest.raises(ModelError, match="reads as a decimal number"):
        Arrow((0, 1), (2,)).check(10)


def test_a_well_formed_rule_no_digits_can_satisfy_is_no_error_but_no_solution():
    # An arrow summing past the largest digit: the rest of a row of a 4x4 grid sums to 6+.
    arrow = Arrow((0,), (1, 2, 3))
    arrow.check(4)
    puzzle = Puzzle([0] * 16, CLASSIC.with_rules(rules=[arrow], size=4))
    assert count(puzzle) == 0


# --- moved and reversed: the same number of solutions, by enumeration ----------------------------
PART2 = [
    entry
    for entry in catalogue()
    if entry.puzzle.size == 4
    and entry.puzzle.model.rules
    and any(
        rule.key not in ("killercage", "antiknight", "antiking", "nonconsecutive")
        for rule in entry.puzzle.model.rules
    )
    and ": empty" not in entry.name
]


@pytest.mark.parametrize("entry", PART2, ids=str)
def test_every_move_the_rules_survive_keeps_the_number_of_solutions(entry):
    puzzle = entry.puzzle
    offered = moves(puzzle.model, 4)
    assert offered, "every 4x4 rule set keeps at least a transpose or a row swap"
    for transform in offered:
        moved = transform.puzzle(puzzle)
        assert count(moved) == entry.count, transform.name


@pytest.mark.parametrize("entry", PART2, ids=str)
def test_the_digit_reversal_keeps_the_number_of_solutions_where_every_rule_survives_it(entry):
    puzzle = entry.puzzle
    reversal = relabel(4, range(4, 0, -1))
    if any(rule.reversed(4) is None for rule in puzzle.model.rules):
        with pytest.raises(ValueError, match="does not keep"):
            reversal.puzzle(puzzle)
        return
    reversed_ = reversal.puzzle(puzzle)
    assert count(reversed_) == entry.count


def test_a_reversed_thermometer_runs_the_other_way_and_a_moved_one_keeps_its_bulb():
    assert Thermometer((0, 1, 2)).reversed(4) == Thermometer((2, 1, 0))
    where = list(range(16))
    where[0], where[3] = 3, 0  # swap r1c1 and r1c4
    assert Thermometer((0, 1, 2)).moved(where, 4) == Thermometer((3, 1, 2))
    assert Minimum(0).reversed(4) == Maximum(0)
    assert XV((0, 1), 5).reversed(4) == XV((0, 1), 5)  # d + e = 5 ⇔ (5-d) + (5-e) = 5
    assert XV((0, 1), 10).reversed(9) == XV((0, 1), 10)
    assert LittleKiller((0, 5), 3).reversed(4) == LittleKiller((0, 5), 7)
    assert Odd((0,)).reversed(4) == Even((0,)) and Odd((0,)).reversed(5) == Odd((0,))
    assert Sandwich((0, 1, 2, 3), 5).reversed(4) is None  # 1 and N swap, the sum changes


# --- f-puzzles: reading each key as the importers do ---------------------------------------------
def blank(size: int = 4, **keys) -> dict:
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **keys}


def rules(data: dict, model: str = "classic") -> tuple[Rule, ...]:
    return read_fpuzzles(data, load_model(model))[2].rules


def test_a_thermometer_rises_from_its_bulb_the_first_cell_of_each_line():
    data = blank(thermometer=[{"lines": [["R1C1", "R1C2", "R1C3"], ["R1C1", "R2C1"]]}])
    assert rules(data) == (Thermometer((0, 1, 2)), Thermometer((0, 4)))


def test_an_arrow_leaves_its_circle_off_each_line_and_each_line_sums_to_the_circle():
    data = blank(
        9, arrow=[{"cells": ["R1C1"], "lines": [["R1C1", "R1C2", "R1C3"], ["R1C1", "R2C1"]]}]
    )
    assert rules(data) == (Arrow((0,), (1, 2)), Arrow((0,), (9,)))
    # A pill reads in the order f-puzzles lists it in (dclamage, the JS solver: see
    # tests/test_fpuzzles_audit.py).
    data = blank(9, arrow=[{"cells": ["R2C2", "R1C2"], "lines": [["R2C2", "R3C3", "R4C4"]]}])
    assert rules(data) == (Arrow((10, 1), (20, 30)),)
    # a circle with no arrow drawn from it is no rule (dclamage adds none)
    assert rules(blank(arrow=[{"cells": ["R1C1"], "lines": []}])) == ()


def test_a_little_killer_runs_from_its_clue_outside_the_grid_in_its_direction():
    clues = [
        {"cell": "R0C0", "direction": "DR", "value": "10"},  # the main diagonal
        {"cell": "R2C5", "direction": "DL", "value": "5"},  # right of row 2: r3c4, r4c3
        {"cell": "R5C3", "direction": "UL", "value": "3"},  # below column 3: r4c2, r3c1
        {"cell": "R1C4", "direction": "DL", "value": "7"},  # a clue at the edge: its own cell
        {"cell": "R0C2", "direction": "DR", "value": ""},  # no value: no clue
    ]
    assert rules(blank(littlekillersum=clues)) == (
        LittleKiller((0, 5, 10, 15), 10),
        LittleKiller((11, 14), 5),
        LittleKiller((13, 8), 3),
        LittleKiller((3, 6, 9, 12), 7),
    )


def test_a_sandwich_clue_outside_the_grid_names_its_row_or_column():
    clues = [
        {"cell": "R0C2", "value": "5"},
        {"cell": "R3C0", "value": "0"},
        {"cell": "R5C4", "value": "2"},
        {"cell": "R1C5", "value": 1},
        {"cell": "R0C3"},
        # FPuzzlesCell.AddConstraint (dclamage's FPuzzlesBoard.cs) skips an entry whose value
        # or cell is empty, for sandwiches as for skyscrapers and X-sums: no clue, no refusal
        {"cell": "", "value": "2"},
        {"cell": " ", "value": "2"},
        {"value": "2"},
    ]
    assert rules(blank(sandwichsum=clues)) == (
        Sandwich((1, 5, 9, 13), 5),
        Sandwich((8, 9, 10, 11), 0),
        Sandwich((3, 7, 11, 15), 2),
        Sandwich((0, 1, 2, 3), 1),
    )


def test_dots_default_to_a_difference_of_1_and_a_ratio_of_2_and_xv_letters_are_sums():
    data = blank(
        difference=[{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C1", "R3C1"], "value": "2"}],
        ratio=[{"cells": ["R1C3", "R1C4"], "value": ""}, {"cells": ["R2C2", "R2C3"], "value": 3}],
        xv=[
            {"cells": ["R4C1", "R4C2"], "value": "X"},
            {"cells": ["R4C3", "R4C4"], "value": "v"},
            {"cells": ["R3C3", "R3C4"], "value": ""},
        ],
    )
    assert rules(data) == (
        Difference((0, 1), 1),
        Difference((4, 8), 2),
        Ratio((2, 3), 2),
        Ratio((5, 6), 3),
        XV((12, 13), 10),
        XV((14, 15), 5),
    )


def orthogonal_pairs(size: int, without=()) -> tuple[tuple[int, int], ...]:
    pairs = []
    for cell in range(size * size):
        if cell % size + 1 < size:
            pairs.append((cell, cell + 1))
        if cell + size < size * size:
            pairs.append((cell, cell + size))
    return tuple(sorted(p for p in pairs if p not in without))


def test_negative_marks_are_every_unmarked_pair_with_the_kropki_and_xv_families_apart():
    data = blank(
        difference=[{"cells": ["R1C1", "R1C2"]}],
        ratio=[{"cells": ["R2C1", "R1C1"], "value": "3"}],
        xv=[{"cells": ["R4C4", "R4C3"], "value": "X"}],
        negative=["ratio", "xv"],
    )
    got = [rule for rule in rules(data) if isinstance(rule, Negative)]
    # A white or black dot exempts its pair from the black dots' negative (dclamage: related
    # constraints); the values are the black dots' ratios. X and V exempt only from the XV one,
    # which forbids both 5 and 10.
    assert got == [
        Negative("ratio", orthogonal_pairs(4, {(0, 1), (0, 4)}), (3,)),
        Negative("xv", orthogonal_pairs(4, {(14, 15)}), (5, 10)),
    ]
    # With no black dot, the ratio negative forbids 2.
    assert [r for r in rules(blank(negative=["ratio"]))] == [
        Negative("ratio", orthogonal_pairs(4), (2,)),
    ]


def test_nonconsecutive_beside_kropki_dots_is_the_white_dots_negative_as_dclamage_reads_it():
    alone = rules(blank(nonconsecutive=True))
    assert alone == (NonConsecutive(),)
    dotted = rules(blank(nonconsecutive=True, ratio=[{"cells": ["R1C1", "R1C2"]}]))
    assert dotted == (Ratio((0, 1), 2), Negative("difference", orthogonal_pairs(4, {(0, 1)}), (1,)))


def test_cells_keys_clones_quadruples_and_the_whispers_default():
    data = blank(
        9,
        odd=[{"cell": "R1C1"}, {"cell": "R1C3"}, {"cell": ""}],
        even=[{"cell": "R2C2"}],
        minimum=[{"cell": "R5C5"}],
        maximum=[{"cell": "R9C9"}, {"cell": "R1C9"}],
        clone=[{"cells": ["R1C1", "R1C2", "R3C3"], "cloneCells": ["R9C8", "R9C9", "R3C3"]}],
        quadruple=[{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, "2", 2]}],
        whispers=[{"lines": [["R8C1", "R8C2"]]}, {"lines": [["R7C1", "R7C2"]], "value": "3"}],
    )
    assert rules(data) == (
        Whispers((63, 64), 5),
        Whispers((54, 55), 3),
        Odd((0, 2)),
        Even((10,)),
        Minimum(40),
        Maximum(80),
        Maximum(8),
        Clone((0, 1), (79, 80)),
        Quadruple((0, 1, 9, 10), (1, 2, 2)),
    )
    assert rules(blank(whispers=[{"lines": [["R1C1", "R1C2"]]}])) == (Whispers((0, 1), 2),)


@pytest.mark.parametrize(
    "keys, message",
    [
        (
            {"thermometer": [{"lines": [["R1C1", "R1C2"]]}, {"lines": [["R1C1", "R1C2", "R1C1"]]}]},
            "f-puzzles thermometer 2: thermometer from r1c1: goes through r1c1 twice",
        ),
        (
            {"renban": [{"lines": [["R1C1", "R1C2"], ["R1C1", "R3C3"]]}]},
            "f-puzzles renban 1 line 2: renban line from r1c1: r1c1 and r3c3 are next on the line "
            "but do not touch",
        ),
        (
            {"difference": [{"cells": ["R1C1", "R2C2"]}]},
            "f-puzzles difference 1: white dot r1c1-r2c2: the cells do not touch",
        ),
        (
            {"ratio": [{"cells": ["R1C1", "R1C5"]}]},
            "f-puzzles ratio 1: cell R1C5 is outside the 4x4 grid",
        ),
        (
            {"xv": [{"cells": ["R1C1", "R1C2"], "value": "Y"}]},
            'f-puzzles xv 1: XV value "Y" is not X or V',
        ),
        (
            {"xv": [{"cells": ["R1C1", "R1C2", "R1C3"], "value": "X"}]},
            "f-puzzles xv 1: a mark lies between 2 cells, not 3",
        ),
        (
            {"difference": [{"cells": ["R1C1", "R1C2"], "value": "big"}]},
            'f-puzzles difference 1: its value "big" is not a whole number',
        ),
        (
            {"littlekillersum": [{"cell": "R0C0", "direction": "UL", "value": "5"}]},
            "f-puzzles littlekillersum 1: the clue at R0C0 pointing UL misses the grid",
        ),
        (
            {"littlekillersum": [{"cell": "R0C1", "direction": "N", "value": "5"}]},
            'f-puzzles littlekillersum 1: direction "N" is not one of UR, UL, DR, DL',
        ),
        (
            {"littlekillersum": [{"cell": "R7C1", "direction": "DR", "value": "5"}]},
            "f-puzzles littlekillersum 1: cell R7C1 is outside the 4x4 grid or the ring around it",
        ),
        (
            {"sandwichsum": [{"cell": "R2C2", "value": "5"}]},
            "f-puzzles sandwichsum 1: clue cell R2C2 is not beside a row or column",
        ),
        (
            {"sandwichsum": [{"cell": "R0C1", "value": "-5"}]},
            "f-puzzles sandwichsum 1: sandwich sum -5: its sum must be a whole number from 0",
        ),
        (
            {"arrow": [{"cells": ["R1C1"], "lines": [["R2C2", "R3C3"]]}]},
            "f-puzzles arrow 1: the line does not start in the arrow's circle",
        ),
        (
            {"arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R1C2"], ["R1C1"]]}]},
            "f-puzzles arrow 1 line 2: the line has no cell outside the circle",
        ),
        (
            {"whispers": [{"lines": [["R1C1", "R1C2"]], "value": 9}]},
            "f-puzzles whispers 1: the whispers line r1c1-r1c2: its difference must be",
        ),
        (
            {"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [5]}]},
            "f-puzzles quadruple 1: quadruple at r1c1-r1c2-r2c1-r2c2: 5 is not a digit from 1 to 4",
        ),
        (
            {"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": "12"}]},
            "f-puzzles quadruple 1: 'values' must be a list of digits",
        ),
        (
            {"clone": [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R2C1"]}]},
            "f-puzzles clone 1: 2 cells cloned onto 1 cloneCells",
        ),
        (
            {"odd": [{"cell": "R1C1"}, {"cell": "R5C1"}]},
            "f-puzzles odd 2: cell R5C1 is outside the 4x4 grid",
        ),
        ({"minimum": [{"cell": "X9"}]}, 'f-puzzles minimum 1: "X9" is not a cell such as "R1C1"'),
        (
            {"negative": ["ratio", "blue"]},
            "f-puzzles 'negative': 'blue' is not a kind of mark (ratio, xv)",
        ),
        ({"negative": "ratio"}, "f-puzzles 'negative' must be a list of mark kinds"),
        ({"betweenline": {"lines": []}}, "f-puzzles 'betweenline' must be a list of objects"),
        (
            {"palindrome": [{"lines": "R1C1"}]},
            "f-puzzles palindrome 1: 'lines' must be a list of lines of cells",
        ),
    ],
)
def test_a_malformed_entry_is_one_line_naming_the_key_and_the_entry(keys, message):
    with pytest.raises(PuzzleError) as caught:
        rules(blank(**keys))
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_on_the_command_line_a_malformed_entry_exits_2_with_one_line():
    data = blank(thermometer=[{"lines": [["R1C1", "R1C2", "R1C1"]]}])
    link = "https://f-puzzles.com/?load=" + lzstring.compress_to_base64(json.dumps(data))
    result = run("solve", link)
    assert result.exit_code == 2
    assert "f-puzzles thermometer 1: thermometer from r1c1: goes through r1c1 twice" in (
        error_line(result)
    )


# --- writing: read → write → read gives the same rules, for every key ----------------------------
EVERY_KEY = {
    "thermometer": [{"lines": [["R1C1", "R1C2", "R2C3"], ["R4C4", "R3C3"]]}],
    "arrow": [
        {"cells": ["R1C1", "R1C2"], "lines": [["R1C2", "R2C3", "R3C3"]]},
        {"cells": ["R4C4"], "lines": [["R4C4", "R4C3"], ["R4C4", "R3C4"]]},
    ],
    "littlekillersum": [
        {"cell": "R0C1", "direction": "DR", "value": "10"},
        {"cell": "R1C4", "direction": "DL", "value": "7"},
        {"cell": "R5C5", "direction": "UL", "value": "4"},
    ],
    "sandwichsum": [{"cell": "R0C2", "value": "5"}, {"cell": "R3C5", "value": "0"}],
    "difference": [{"cells": ["R1C1", "R2C1"]}, {"cells": ["R3C1", "R3C2"], "value": "2"}],
    "ratio": [{"cells": ["R1C3", "R1C4"]}],
    "xv": [{"cells": ["R4C1", "R4C2"], "value": "X"}, {"cells": ["R2C2", "R2C3"], "value": "V"}],
    "negative": ["ratio", "xv"],
    "odd": [{"cell": "R1C1"}, {"cell": "R2C4"}],
    "even": [{"cell": "R3C3"}],
    "minimum": [{"cell": "R2C2"}],
    "maximum": [{"cell": "R4C1"}],
    "renban": [{"lines": [["R1C1", "R1C2", "R1C3"]]}],
    "whispers": [{"lines": [["R3C1", "R4C2"]], "value": 3}, {"lines": [["R1C4", "R2C4"]]}],
    "palindrome": [{"lines": [["R2C1", "R3C2", "R4C3"]]}],
    "betweenline": [{"lines": [["R1C1", "R2C2", "R3C3", "R4C4"]]}],
    "clone": [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R4C3", "R4C4"]}],
    "quadruple": [{"cells": ["R2C2", "R2C3", "R3C2", "R3C3"], "values": [1, 1]}],
}


def round_trip(data: dict) -> tuple[tuple[Rule, ...], tuple[Rule, ...]]:
    cells, size, model = read_fpuzzles(data, CLASSIC)
    written = json.loads(json.dumps(fpuzzles_data(cells, size, model)))
    return model.rules, read_fpuzzles(written, CLASSIC)[2].rules


@pytest.mark.parametrize("key", sorted(EVERY_KEY))
def test_every_key_reads_back_as_the_same_rules_after_writing(key):
    keys = {key: EVERY_KEY[key]}
    if key == "negative":
        keys.update(
            difference=EVERY_KEY["difference"], ratio=EVERY_KEY["ratio"], xv=EVERY_KEY["xv"]
        )
    first, again = round_trip(blank(**keys))
    assert first and first == again


def test_every_key_together_reads_back_the_same_and_as_a_record_link():
    first, again = round_trip(blank(**EVERY_KEY))
    assert len(first) >= 25 and first == again
    cells, size, model = read_fpuzzles(blank(**EVERY_KEY), CLASSIC)
    text = record_text(cells, size, model)
    assert text.startswith("https://f-puzzles.com/?load=")
    assert Puzzle.parse(text).model.rules == first


def test_nonconsecutive_beside_dots_reads_back_the_same():
    data = blank(nonconsecutive=True, difference=[{"cells": ["R1C1", "R1C2"]}])
    first, again = round_trip(data)
    assert first == again and isinstance(first[-1], Negative)


def test_rules_f_puzzles_cannot_state_are_refused_when_writing():
    for rule, message in [
        (XV((0, 1), 7), "an XV sum of 7 cannot be written"),
        (Sandwich((3, 2, 1, 0), 2), "a sandwich clue over a reversed line"),
        (LittleKiller((5, 10), 3), "not a diagonal running to the grid.s edge"),
        (Negative("ratio", ((0, 1),), (2,)), "a negative ratio constraint on pairs of its own"),
        (Minimum(0, (1, 2)), "the minimum cell R1C1 compared with cells other than its"),
    ]:
        model = CLASSIC.with_rules(rules=[rule], size=4)
        with pytest.raises(PuzzleError, match=message):
            fpuzzles_data([0] * 16, 4, model)
    both = CLASSIC.with_rules(rules=[NonConsecutive(), Difference((0, 1))], size=4)
    with pytest.raises(PuzzleError, match="non-consecutive with kropki dots"):
        fpuzzles_data([0] * 16, 4, both)


def test_a_check_record_of_a_part_two_puzzle_reads_back_as_the_same_puzzle(tmp_path):
    data = blank(thermometer=[{"lines": [["R1C1", "R1C2"]]}], odd=[{"cell": "R4C4"}])
    path = tmp_path / "one.json"
    path.write_text(json.dumps(data))
    result = run("check", str(path), "--backends", "backtrack", "--format", "jsonl")
    records = jsonl(result.stdout)
    assert records and records[0]["puzzle"].startswith("https://f-puzzles.com/?load=")
    assert Puzzle.parse(records[0]["puzzle"]).model.rules == rules(data)


# --- the bundled mixed-rule sample (variants9) ---------------------------------------------------
SAMPLE = list(read_puzzles(bundled_path("variants9")))


def published(record) -> tuple[int, ...]:
    return tuple(int(ch) for ch in record.expected["solution"])


def test_the_sample_reads_and_every_published_solution_passes_the_validator():
    assert len(SAMPLE) == bundled_count("variants9") == 28
    for record in SAMPLE:
        assert record.puzzle is not None and record.puzzle.size == 9, record.id
        assert record.puzzle.problems_with(published(record)) == [], record.id


def test_the_sample_uses_every_part_two_key_but_clones_and_minimum_maximum_cells():
    used = {rule.key for record in SAMPLE for rule in record.puzzle.model.rules}
    wanted = set(RULE_KINDS) - {"clone", "minimum", "maximum"}
    wanted -= {"antiknight", "antiking", "nonconsecutive"}  # part 1's
    wanted -= set(MORE_LINE_KEYS)  # read since the sample was gathered (test_rules_lines_more)
    # indexers and given pencil marks (issue 36): tests/test_rules_indexers.py
    wanted -= {"rowindexer", "columnindexer", "boxindexer", "givenPencilMarks"}
    wanted -= {"skyscraper", "xsum"}  # later keys, tested in tests/test_rules_sequence.py
    wanted -= {"digitrootcage"}  # tested in tests/test_rules_digit_root.py
    assert wanted <= used, wanted - used


def test_the_sample_records_read_back_as_the_same_puzzles():
    for record in SAMPLE:
        puzzle = record.puzzle
        assert Puzzle.parse(record_text(puzzle.cells, 9, puzzle.model)) == puzzle, record.id


@pytest.mark.slow
@pytest.mark.parametrize("record", SAMPLE, ids=lambda record: str(record.id))
def test_each_sample_puzzle_has_its_published_solution_alone_on_every_backend_that_compiles_it(
    record,
):
    names = [
        name
        for name in available_backends()
        if get_backend(name).refusal(record.puzzle) is None
        and name in ("cpsat", "sat", "backtrack")
    ]
    if not names:
        pytest.skip("no backend compiles these rules yet")
    for name in names:
        # cpsat must decide every sample puzzle. sat decides all but one within seconds (it
        # needs 30-55 s on #17, which made this test flaky under load) and backtrack leaves
        # some undecided in any reasonable time (its 9x9 variant search has no learning): both
        # are held to never being wrong, within 10 s and 5 s.
        patient = name == "cpsat"
        limit = {"cpsat": 60, "sat": 10}.get(name, 5)
        result = get_backend(name).solve(record.puzzle, limit=2, time_limit=limit)
        if not patient and result.status is Status.TIMEOUT:
            assert all(record.puzzle.is_solution(grid) for grid in result.solutions)
            continue
        assert result.count == 1, name
        assert tuple(result.solutions[0]) == published(record), name


def test_a_line_entry_with_no_lines_is_no_rule():
    """dclamage's SolverFactory adds one constraint per line of an entry (``foreach (var line
    in thermo.lines)``): an entry with ``"lines": []`` adds none. It was refused, saying that
    'lines' must be a list, which it is."""
    for key in ("thermometer", "palindrome", "renban", "whispers", "betweenline"):
        assert rules(blank(**{key: [{"lines": []}]})) == (), key
    result = run("count", json.dumps(blank(thermometer=[{"lines": []}])))
    assert result.exit_code == 0 and "exactly 288 solutions" in result.stdout, result.output
