"""f-puzzles: every key read alone and together, every place a puzzle is read from, malformed
input as one line, and writing back (read → write → read gives the same puzzle)."""

from __future__ import annotations

import csv
import itertools
import json
import re

import lzstring
import pytest
from clitools import error_line, jsonl, run

from sudoku_cp import Puzzle
from sudoku_cp.backends import available_backends, get_backend
from sudoku_cp.errors import PuzzleError, SudokuError
from sudoku_cp.formats import parse_puzzle, read_input, read_puzzles
from sudoku_cp.formats.fpuzzles import (
    default_regions,
    fpuzzles_data,
    fpuzzles_link,
    read_fpuzzles,
)
from sudoku_cp.formats.links import MAX_PAYLOAD_CHARS, decode_payload
from sudoku_cp.model import load_model
from sudoku_cp.rules import AntiKing, AntiKnight, Cage, DigitRootCage, NonConsecutive


# --- building f-puzzles objects ------------------------------------------------------------------
def rc(cell: int, size: int) -> str:
    return f"R{cell // size + 1}C{cell % size + 1}"


def fpuzzle(line: str, size: int | None = None, regions=None, **keys) -> dict:
    """An f-puzzles object: givens from a line ('.' blank), optional region per cell."""
    size = size or int(len(line) ** 0.5)
    grid = []
    for r in range(size):
        row = []
        for c in range(size):
            cell: dict = {}
            ch = line[r * size + c]
            if ch not in ".0":
                cell = {"value": int(ch, 36), "given": True}
            if regions is not None:
                cell["region"] = regions[r * size + c]
            row.append(cell)
        grid.append(row)
    return {"size": size, "grid": grid, **keys}


def parse(data: dict, model: str = "classic") -> Puzzle:
    return Puzzle.parse(json.dumps(data), model)


def link(data: dict) -> str:
    return "https://f-puzzles.com/?load=" + lzstring.compress_to_base64(json.dumps(data))


EMPTY4 = "." * 16
GRID4 = "1234341221434321"  # a 4x4 Sudoku solution
EMPTY9 = "." * 81


def sudoku4_grids() -> list[tuple[int, ...]]:
    """Every 4x4 Latin square (576): what full enumeration checks counts against."""
    rows = list(itertools.permutations(range(1, 5)))
    grids = []
    for a, b, c, d in itertools.product(rows, repeat=4):
        grid = a + b + c + d
        if all(len({grid[r * 4 + col] for r in range(4)}) == 4 for col in range(4)):
            grids.append(grid)
    return grids


LATIN4 = sudoku4_grids()


def enumerated(puzzle: Puzzle) -> int:
    """The number of solutions, by checking every 4x4 Latin square with the validator."""
    return sum(1 for grid in LATIN4 if puzzle.is_solution(grid))


# --- the grid: givens and regions ----------------------------------------------------------------
def test_only_values_marked_given_are_givens():
    # SudokuPad's decoder and puzzletv keep a value only with given: true.
    data = fpuzzle(EMPTY4)
    data["grid"][0][0] = {"value": 1, "given": True}
    data["grid"][0][1] = {"value": 2}  # a solver's entry
    data["grid"][0][2] = {"value": 3, "given": False}
    assert parse(data).cells[:4] == (1, 0, 0, 0)


def test_default_regions_are_the_boxes_f_puzzles_draws():
    assert default_regions(6)[:12] == (0, 0, 0, 1, 1, 1) * 2  # 2x3
    assert default_regions(8)[:8] == (0, 0, 0, 0, 1, 1, 1, 1)  # 2x4
    assert default_regions(10)[:10] == (0,) * 5 + (1,) * 5  # 2x5
    assert default_regions(12)[:12] == (0,) * 4 + (1,) * 4 + (2,) * 4  # 3x4
    assert default_regions(5) == tuple(r for r in range(5) for _ in range(5))  # rows
    for size in (4, 6, 8, 9, 10, 12, 16):
        puzzle = parse(fpuzzle("." * size * size))
        assert puzzle.model.regions is None and puzzle.model.uses_boxes
        assert puzzle.groups() == load_model("classic").groups(size)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 11, 13])
def test_a_size_without_boxes_has_rows_and_columns(size):
    puzzle = parse(fpuzzle("." * size * size))
    assert puzzle.model.group_kinds == ("rows", "columns")
    assert len(puzzle.groups()) == (2 * size if size > 1 else 1)  # (1x1: one group twice)


def test_regions_stated_on_some_cells_only_keep_the_default_on_the_others():
    # dclamage's SolverFactory: a cell's region overrides the default only when provided.
    regions = list(default_regions(4))
    regions[1], regions[2] = 1, 0  # swap r1c2 and r1c3 between the two top regions
    data = fpuzzle(EMPTY4)
    data["grid"][0][1]["region"] = 1
    data["grid"][0][2]["region"] = 0
    puzzle = parse(data)
    assert puzzle.model.regions == tuple(regions)
    assert parse(fpuzzle(EMPTY4, regions=regions)) == puzzle  # every cell stating it: the same


def test_regions_equal_to_the_default_are_the_boxes():
    assert parse(fpuzzle(EMPTY4, regions=default_regions(4))).model.regions is None


def test_a_size_without_boxes_reads_regions():
    regions = [0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 3, 3, 4, 4, 4]
    puzzle = parse(fpuzzle("." * 25, regions=regions))
    assert puzzle.model.regions == tuple(regions)
    assert "boxes" in puzzle.model.group_kinds


def test_cells_in_no_region_leave_the_others_as_groups():
    regions: list = [0, 0, 1, 1, 0, 0, 1, 1] + [None] * 8
    puzzle = parse(fpuzzle(EMPTY4, regions=regions))
    assert not puzzle.model.uses_boxes
    assert puzzle.model.cell_groups == (
        ((0, 0), (0, 1), (1, 0), (1, 1)),
        ((0, 2), (0, 3), (1, 2), (1, 3)),
    )


# --- groups and rules ----------------------------------------------------------------------------
def test_diagonal_minus_runs_from_the_top_left_and_plus_from_the_top_right():
    # SudokuPad draws diagonal+ from [0, width] to [height, 0]; dclamage's Diagonal+ group
    # runs from (N-1, 0) to (0, N-1).
    minus = parse(fpuzzle(EMPTY4, **{"diagonal-": True}))
    plus = parse(fpuzzle(EMPTY4, **{"diagonal+": True}))
    assert minus.groups()[-1] == (0, 5, 10, 15)
    assert plus.groups()[-1] == (3, 6, 9, 12)


def test_extra_regions_are_groups():
    puzzle = parse(fpuzzle(EMPTY4, extraregion=[{"cells": ["R1C1", "R2C2", "R3C4"]}]))
    assert puzzle.model.cell_groups == (((0, 0), (1, 1), (2, 3)),)
    grid = [int(ch) for ch in GRID4]  # 1, 4 and 3 on the extra region
    assert puzzle.is_solution(grid)
    grid[11] = 1  # r3c4 now 1, like r1c1
    assert "group 1 repeats 1" in puzzle.problems_with(grid)


def test_disjoint_groups_on_boxes_and_on_irregular_regions():
    regular = parse(fpuzzle(EMPTY4, disjointgroups=True))
    assert "disjoint" in regular.model.group_kinds
    assert (0, 2, 8, 10) in regular.groups()
    regions = [0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3]
    jigsaw = parse(fpuzzle(EMPTY4, regions=regions, disjointgroups=True))
    # the n-th cell, in reading order, of every region (SudokuPad, dclamage)
    assert jigsaw.model.cell_groups[0] == ((0, 0), (0, 3), (1, 0), (2, 1))


def test_killer_cages_with_and_without_sums():
    puzzle = parse(
        fpuzzle(
            EMPTY4,
            killercage=[
                {"cells": ["R1C1", "R1C2"], "value": "3"},
                {"cells": ["R4C4"], "value": 1},
                {"cells": ["R2C1", "R2C2"]},
                {"cells": ["R3C1"], "value": ""},
            ],
        )
    )
    assert puzzle.model.rules == (
        Cage((0, 1), 3),
        Cage((15,), 1),
        Cage((4, 5), None),
        Cage((8,), None),
    )


def test_global_rules():
    puzzle = parse(fpuzzle(EMPTY4, antiknight=True, antiking=True, nonconsecutive=True))
    assert puzzle.model.rules == (AntiKnight(), AntiKing(), NonConsecutive())
    assert parse(fpuzzle(EMPTY4, antiknight=False)).model.rules == ()


COSMETIC = {
    "title": "A title",
    "author": "Someone",
    "ruleset": "Normal sudoku rules apply.",
    "text": [{"cells": ["R1C1"], "value": "hi", "fontC": "#000000", "size": 1}],
    "line": [{"lines": [["R1C1", "R2C2"]], "outlineC": "#000000", "width": 0.1}],
    "circle": [{"cells": ["R1C1"], "baseC": "#FFFFFF", "outlineC": "#000", "width": 1}],
    "rectangle": [{"cells": ["R1C1"], "baseC": "#FFFFFF", "outlineC": "#000", "width": 1}],
    "cage": [{"cells": ["R1C1", "R1C2"], "value": "x", "outlineC": "#000", "fontC": "#000"}],
    "solution": [int(ch) for ch in GRID4],
}


def test_cosmetic_keys_are_ignored():
    data = fpuzzle(EMPTY4)
    data.update(COSMETIC)
    data["grid"][0][0].update(centerPencilMarks=[1, 2], cornerPencilMarks=[3], c="#ff0000")
    assert parse(data) == parse(fpuzzle(EMPTY4))


@pytest.mark.parametrize(
    "key, value",
    [
        # keys of rules no reference reader here defines (SudokuPad's own, invented ones)
        ("sum", [{"cells": ["R1C1", "R1C2"], "value": "3"}]),
        ("doublearrows", [{"lines": [["R1C1", "R1C2"]]}]),
        ("somethingnew", True),
    ],
)
def test_a_rule_this_tool_does_not_know_makes_the_puzzle_invalid_naming_the_key(key, value):
    with pytest.raises(PuzzleError) as caught:
        parse(fpuzzle(EMPTY4, **{key: value}))
    assert f"f-puzzles key {key!r} is a rule this tool does not support yet" in str(caught.value)
    assert parse(fpuzzle(EMPTY4, **{key: []})) == parse(fpuzzle(EMPTY4))  # an empty list: none


def test_digit_root_cages_are_rules_too():
    # dclamage's solver reads a 'cage' valued DR<n> as a digit-root killer cage (read here:
    # tests/test_rules_digit_root.py), not an outline.
    puzzle = parse(fpuzzle(EMPTY4, cage=[{"cells": ["R1C1", "R1C2"], "value": "DR5"}]))
    assert puzzle.model.rules == (DigitRootCage((0, 1), 5),)


# --- malformed input: one line naming what and where ---------------------------------------------
@pytest.mark.parametrize(
    "keys, regions, message",
    [
        (
            {"killercage": [{"cells": ["R1C1"]}, {"cells": ["R1C2"]}, {"cells": ["R10C1"]}]},
            None,
            "killercage 3: cell R10C1 is outside the 9x9 grid",
        ),
        ({"killercage": [{"cells": ["R1C1"], "value": "ten"}]}, None, "killercage 1: its sum"),
        ({"killercage": [{"cells": ["A1"]}]}, None, 'killercage 1: "A1" is not a cell such as'),
        ({"extraregion": [{"cells": ["R1C1", "R1C1"]}]}, None, "extraregion 1 lists a cell twice"),
        ({"antiknight": "yes"}, None, "f-puzzles key 'antiknight' must be true or false"),
        (
            {},
            [0] * 9 + [1] * 8 + [2] * 10 + [3 + i // 9 for i in range(54)],
            "region 2 has 8 cells",
        ),
        ({}, [9] * 81, "region 9 is not one of 0..8"),
        ({"size": 10}, None, "f-puzzles 'grid' has 9 rows, but 'size' is 10"),
        ({"size": 17}, None, "f-puzzles size 17 is outside 1..16"),
    ],
)
def test_malformed_objects_are_one_line_errors(keys, regions, message):
    data = fpuzzle(EMPTY9, regions=regions)
    data.update(keys)
    with pytest.raises(SudokuError) as caught:
        parse(data)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_bad_givens_are_named_with_their_cell():
    data = fpuzzle(EMPTY4)
    data["grid"][2][3] = {"value": 5, "given": True}
    with pytest.raises(PuzzleError, match=r"f-puzzles grid R3C4: given 5 is not a digit 1..4"):
        parse(data)
    data["grid"][2][3] = {"value": 1, "given": True}
    data["grid"][2][0] = {"value": 1, "given": True}
    with pytest.raises(PuzzleError, match="digit 1 is given twice in row 3"):
        parse(data)


@pytest.mark.parametrize(
    "text, message",
    [
        ("https://f-puzzles.com/?load=N4Ig!!", "bad f-puzzles payload: not lz-string base64"),
        ("https://f-puzzles.com/?load=N4IgAAAA", "bad f-puzzles payload"),
        ("https://f-puzzles.com/?id=y82pttpx", "cannot be read offline"),
        # (SudokuPad's own forms are read now: a truncated one says what it is not)
        ("https://sudokupad.app/sclN4Ig", "bad SudokuPad payload: it is neither lz-string"),
        ("https://f-puzzles.com/?load=" + lzstring.compress_to_base64("[1, 2"), "not to JSON"),
        (
            "https://f-puzzles.com/?load=" + lzstring.compress_to_base64("[1, 2]"),
            "not an f-puzzles object",
        ),
    ],
)
def test_bad_links_are_one_line_errors(text, message):
    with pytest.raises(PuzzleError) as caught:
        Puzzle.parse(text)
    assert message in str(caught.value)


def test_a_payload_that_decompresses_to_too_much_is_refused_before_it_takes_memory():
    bomb = lzstring.compress_to_base64("a" * (4 * MAX_PAYLOAD_CHARS))
    assert len(bomb) < 20_000
    with pytest.raises(PuzzleError, match="decompresses to more than the cap"):
        decode_payload(bomb)


# --- where f-puzzles are read --------------------------------------------------------------------
def test_every_form_of_link_and_payload_reads_the_same_puzzle():
    data = fpuzzle(
        "1" + "." * 15,
        **{"diagonal-": True, "killercage": [{"cells": ["R1C2", "R1C3"], "value": "5"}]},
    )
    expected = parse(data)
    payload = lzstring.compress_to_base64(json.dumps(data))
    quoted = payload.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    for text in (
        "https://f-puzzles.com/?load=" + payload,
        "http://www.f-puzzles.com/?load=" + quoted,
        "f-puzzles.com/?load=" + payload.replace("+", " ").replace(" ", "+"),
        "https://f-puzzles.com/?load=" + payload + "&from=chat#top",
        "HTTPS://WWW.F-Puzzles.com/?load=" + payload,
        "https://sudokupad.app/fpuzzles" + payload,
        "https://sudokupad.app/fpuzzles" + payload + "?setting-nogrid=1",
        "https://sudokupad.app/fpuz" + payload,
        "https://sudokupad.app/?puzzleid=fpuzzles" + payload,
        "https://app.crackingthecryptic.com/sudoku/fpuzzles" + payload,
        "sudokupad://puzzle/fpuzzles" + payload,
        payload,
        "fpuzzles" + payload,
    ):
        assert Puzzle.parse(text) == expected, text
        [record] = read_input(text)
        assert record.puzzle == expected, text


def test_a_json_file_of_one_object_and_json_lines_of_many(tmp_path):
    first = fpuzzle("1" + "." * 15, antiknight=True)
    second = fpuzzle("." * 15 + "2", **{"diagonal+": True})
    one = tmp_path / "one.json"
    one.write_text(json.dumps(first, indent=2))
    [record] = read_puzzles(one)
    assert record.puzzle == parse(first)
    many = tmp_path / "many.jsonl"
    bad = dict(second, killercage=[{"cells": ["R5C1"]}])
    many.write_text("\n".join(json.dumps(d) for d in (first, second, bad, first)) + "\n")
    records = list(read_puzzles(many))
    assert [r.puzzle for r in records[:2]] == [parse(first), parse(second)]
    assert records[2].error == "line 3: killercage 1: cell R5C1 is outside the 4x4 grid"
    assert records[3].ok
    links = tmp_path / "links.txt"
    links.write_text(link(first) + "\n" + link(second) + "\n")
    assert [r.puzzle for r in read_puzzles(links)] == [parse(first), parse(second)]


def test_a_stated_solution_is_the_expected_one(tmp_path):
    data = fpuzzle(GRID4[:8] + "." * 8, solution=[int(ch) for ch in GRID4])
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps(data) + "\n")
    [record] = read_puzzles(path)
    assert record.expected == {"solution": GRID4}


# --- counts established by enumeration, on every backend that takes the rule ---------------------
SMALL = {
    "jigsaw": fpuzzle("12" + "." * 14, regions=[0, 0, 1, 1, 0, 2, 1, 1, 0, 2, 3, 3, 2, 2, 3, 3]),
    "jigsaw-none": fpuzzle(
        "1" + "." * 15, regions=[0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3]
    ),
    "diagonals": fpuzzle("1" + "." * 15, **{"diagonal+": True, "diagonal-": True}),
    "extraregion": fpuzzle("1" + "." * 15, extraregion=[{"cells": ["R1C2", "R2C3", "R3C4"]}]),
    "disjoint": fpuzzle("12" + "." * 14, disjointgroups=True),
    "killer": fpuzzle(
        "." * 16,
        killercage=[
            {"cells": ["R1C1", "R1C2"], "value": "3"},
            {"cells": ["R2C1", "R3C1"], "value": "7"},
            {"cells": ["R4C3", "R4C4"]},
        ],
    ),
    "antiking": fpuzzle("1" + "." * 15, antiking=True),
    "antiknight": fpuzzle("1" + "." * 15, antiknight=True),
    "nonconsecutive": fpuzzle("." * 16, nonconsecutive=True),
    "none": fpuzzle("12" + "." * 14, killercage=[{"cells": ["R1C3", "R1C4"], "value": "4"}]),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_counts_agree_with_full_enumeration(name):
    puzzle = parse(SMALL[name])
    expected = enumerated(puzzle)
    tried = 0
    for backend in available_backends():
        solver = get_backend(backend)
        if solver.refusal(puzzle) is not None or not solver.complete:
            continue  # (other engineers are teaching the backends these rules; logic never counts)
        result = solver.solve(puzzle, limit=None, time_limit=20)
        assert result.count == expected, backend
        assert all(puzzle.is_solution(s) for s in result.solutions)
        tried += 1
    if name in ("jigsaw", "diagonals", "extraregion", "disjoint"):
        assert tried >= 3  # groups only: every backend compiles them already
    if name.endswith("none"):
        assert expected == 0


# --- writing -------------------------------------------------------------------------------------
JIGSAW5 = [0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 3, 3, 4, 4, 4]
JIGSAW7 = [r // 7 if r % 7 else (r // 7 + 1) % 7 for r in range(49)]


def everything(size: int) -> dict:
    last = f"R{size}C{size}"
    return {
        "diagonal+": True,
        "diagonal-": size != 5,
        "antiknight": True,
        "antiking": size > 5,
        "nonconsecutive": size == 9,
        "disjointgroups": size in (4, 9),
        "extraregion": [{"cells": ["R1C1", "R2C2"]}, {"cells": [last]}],
        "killercage": [{"cells": ["R1C2", "R1C3"], "value": "5"}, {"cells": [last]}],
    }


@pytest.mark.parametrize(
    "size, regions",
    [
        (4, None),
        (6, None),
        (8, None),
        (9, None),
        (12, None),
        (16, None),
        (5, JIGSAW5),
        (7, JIGSAW7),
        (9, "jigsaw"),
        (5, None),
        (4, "none"),
    ],
)
def test_read_write_read_gives_the_same_puzzle(size, regions):
    line = "1" + "." * (size * size - 1)
    if regions == "jigsaw":
        with open_jigsaws() as file:
            regions = [int(ch) for ch in next(csv.DictReader(file))["regions"]]
    keys = everything(size)
    if regions == "none":
        regions = [None] * (size * size)
        keys["disjointgroups"] = False  # needs regions: refused without (test_fpuzzles_audit)
    data = fpuzzle(line, size=size, regions=regions, **keys)
    first = parse(data)
    written = fpuzzles_data(first.cells, first.size, first.model)
    again = parse(written)
    assert again == first
    assert Puzzle.parse(fpuzzles_link(written)) == first
    # a second writing is the first one
    assert fpuzzles_data(again.cells, again.size, again.model) == written


def test_each_rule_alone_round_trips():
    for keys in ({k: v} for k, v in everything(9).items()):
        first = parse(fpuzzle("1" + "." * 80, **keys))
        assert parse(fpuzzles_data(first.cells, 9, first.model)) == first, keys


def test_models_write_their_groups():
    x = Puzzle.parse(EMPTY9, "x")
    data = fpuzzles_data(x.cells, 9, x.model)
    assert data["diagonal+"] and data["diagonal-"]
    hyper = Puzzle.parse(EMPTY9, "hyper")
    assert len(fpuzzles_data(hyper.cells, 9, hyper.model)["extraregion"]) == 4
    tall = Puzzle.parse("." * 36, load_model("classic", box="3x2"))
    back = parse(fpuzzles_data(tall.cells, 6, tall.model))
    assert back.groups()[12:] == tall.groups()[12:]  # 3x2 boxes, as explicit regions
    latin = Puzzle.parse(EMPTY9, "latin")
    assert parse(fpuzzles_data(latin.cells, 9, latin.model)).groups() == latin.groups()
    with pytest.raises(PuzzleError, match="f-puzzles, which draws sizes 1..16"):
        fpuzzles_data([0] * 625, 25, load_model())


def open_jigsaws():
    from conftest import DATASETS

    path = DATASETS / "variants" / "jigsaw_janko_127.csv"
    if not path.is_file():
        pytest.skip("shared/datasets is not beside this checkout")
    return path.open()


# --- the command line ----------------------------------------------------------------------------
def test_solve_reads_a_link_and_writes_fpuzzles_that_reads_back():
    data = fpuzzle(GRID4[:12] + "....", extraregion=[{"cells": ["R1C1", "R2C2"]}])
    result = run("solve", link(data), "--format", "fpuzzles", "-n", "2")
    assert result.exit_code == 0, result.output
    text, url = result.stdout.splitlines()
    written = json.loads(text)
    assert written["solution"] and len(written["solution"]) == 16
    assert url.startswith("https://f-puzzles.com/?load=")
    assert Puzzle.parse(url) == parse(data)
    assert Puzzle.parse(url).is_solution(written["solution"])
    assert "puzzle 1: unique: 1 solution, search complete" in result.stderr


def test_solve_says_one_line_and_exits_2_for_a_bad_link():
    result = run("solve", "https://f-puzzles.com/?load=N4Ig!!")
    assert result.exit_code == 2
    assert "bad f-puzzles payload: not lz-string base64" in error_line(result)
    result = run("solve", link(fpuzzle(EMPTY4, somethingnew=[{"lines": [["R1C1", "R1C2"]]}])))
    assert result.exit_code == 2
    assert "f-puzzles key 'somethingnew' is a rule" in error_line(result)


def test_check_gives_a_bad_entry_an_invalid_record(tmp_path):
    path = tmp_path / "mixed.jsonl"
    good = SMALL["jigsaw"]
    bad = fpuzzle(EMPTY4, killercage=[{"cells": ["R1C9"]}])
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    result = run("check", str(path), "-b", "backtrack", "-j", "0", "-f", "jsonl", "-q")
    records = jsonl(result.stdout)
    assert [r["verdict"] for r in records] == ["multiple", "invalid"]  # 12 solutions
    assert records[1]["reason"] == "line 2: killercage 1: cell R1C9 is outside the 4x4 grid"


def test_read_fpuzzles_keeps_the_base_models_rules():
    cells, size, model = read_fpuzzles(fpuzzle("1" + "." * 80), load_model("x"))
    assert {"diagonal", "anti-diagonal"} <= set(model.group_kinds) and size == 9


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"size": 100, "grid": []}, "an f-puzzles puzzle needs a 'grid'"),
        ({"size": 9, "grid": 5}, "an f-puzzles puzzle needs a 'grid'"),
        ({"size": -1, "grid": [[]]}, "f-puzzles size -1 is outside 1..16"),
    ],
)
def test_a_wrong_size_or_grid_is_named_as_f_puzzles_own_error(data, message):
    """An object with 'size' and 'grid' is f-puzzles even when they are wrong (it was told it
    lacked this project's 'puzzle' key)."""
    with pytest.raises(SudokuError, match=re.escape(message)):
        parse_puzzle(json.dumps(data))
