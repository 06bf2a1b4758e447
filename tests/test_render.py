"""Puzzle pictures (sudoku_cp.render.svg, .rules): well-formed SVG with the structure the puzzle
asks for — region borders where neighbours' regions differ, one outline per cage, a dot per
kropki pair, a drawing for every kind of rule — at every size from 4x4 to 25x25."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from conftest import DATA
from puzzles import INKALA

from sudoku_cp import Puzzle
from sudoku_cp.formats import read_input
from sudoku_cp.model import load_model
from sudoku_cp.render import puzzle_svg
from sudoku_cp.render.rules import DRAWERS
from sudoku_cp.rules import (
    RULE_KINDS,
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    BoxIndexer,
    Cage,
    Candidates,
    Clone,
    ColumnIndexer,
    Difference,
    DigitRootCage,
    DoubleArrow,
    EntropicLine,
    Even,
    LittleKiller,
    Lockout,
    Maximum,
    Minimum,
    ModularLine,
    Nabner,
    Negative,
    NonConsecutive,
    Odd,
    Palindrome,
    Quadruple,
    Ratio,
    RegionSumLine,
    Renban,
    RowIndexer,
    Rule,
    Sandwich,
    Skyscraper,
    SlowThermometer,
    Thermometer,
    Whispers,
    XSum,
    ZipperLine,
    indexer_rules,
)

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises on anything not well-formed
    assert root.tag == f"{SVG}svg"
    return root


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in e.get("class", "").split()]


def texts(root: ET.Element, name: str) -> list[str]:
    return [e.text or "" for e in of_class(root, name)]


def puzzle_file(path: str, number: int = 1) -> Puzzle:
    for index, record in enumerate(read_input(str(DATA / path)), start=1):
        if index == number:
            assert record.puzzle is not None
            return record.puzzle
    raise AssertionError(f"{path} has no puzzle {number}")


def with_rules(*rules: Rule, size: int = 9, cells: tuple[int, ...] | None = None) -> Puzzle:
    model = load_model("classic").with_rules(rules=rules, size=size)
    return Puzzle(cells or (0,) * (size * size), model)


# One of each kind, on a 9x9 grid (cells in reading order).
SAMPLES: dict[str, Rule] = {
    "antiknight": AntiKnight(),
    "antiking": AntiKing(),
    "nonconsecutive": NonConsecutive(),
    "killercage": Cage((0, 1, 10), 12),
    "arrow": Arrow((20,), (21, 22, 31)),
    "littlekillersum": LittleKiller((72, 64, 56, 48, 40, 32, 24, 16, 8), 45),
    "sandwichsum": Sandwich(tuple(range(9, 18)), 10),
    "thermometer": Thermometer((36, 37, 38, 47)),
    "renban": Renban((42, 43, 44)),
    "whispers": Whispers((50, 51, 52), 5),
    "palindrome": Palindrome((60, 61, 62, 71)),
    "betweenline": BetweenLine((63, 73, 74, 75)),
    "difference": Difference((4, 5)),
    "ratio": Ratio((6, 7), 3),
    "xv": XV((13, 14), 5),
    "negative": Negative("xv", ((26, 35),), (5, 10)),
    "odd": Odd((54, 55)),
    "even": Even((65,)),
    "minimum": Minimum(67),
    "maximum": Maximum(69),
    "clone": Clone((76, 77), (78, 79)),
    "quadruple": Quadruple((30, 31, 39, 40), (1, 2)),
    "slowthermometer": SlowThermometer((2, 3, 12)),
    "entropicline": EntropicLine((18, 19, 28)),
    "modularline": ModularLine((57, 58, 59)),
    "nabner": Nabner((33, 34)),
    "zipperline": ZipperLine((80, 70, 79)),
    "doublearrow": DoubleArrow((45, 46, 56)),
    "regionsumline": RegionSumLine((68, 69), 0, ((68,), (69,))),
    "lockout": Lockout((27, 36, 45)),
    # an indexer is one rule per digit its cells point with: the first one shades the cells
    "rowindexer": indexer_rules(RowIndexer, (27, 28), 9)[0],
    "columnindexer": indexer_rules(ColumnIndexer, (28,), 9)[0],
    "boxindexer": indexer_rules(
        BoxIndexer, (57,), 9, [r // 27 * 3 + r % 9 // 3 for r in range(81)]
    )[0],
    "givenPencilMarks": Candidates((66, 68), (2, 4, 8)),
    "skyscraper": Skyscraper(tuple(range(8, 81, 9)), 3),
    "xsum": XSum(tuple(range(80, 71, -1)), 15),
    "digitrootcage": DigitRootCage((15, 16, 24), 5),
}


def test_every_kind_of_rule_has_a_drawing_and_a_sample_here() -> None:
    # A new kind in RULE_KINDS fails here until render/rules.py draws it (and it is sampled).
    assert set(DRAWERS) == set(RULE_KINDS)
    assert set(SAMPLES) == set(RULE_KINDS)
    assert all(type(rule) is RULE_KINDS[key] for key, rule in SAMPLES.items())


@pytest.mark.parametrize("key", sorted(RULE_KINDS))
def test_each_kind_of_rule_adds_to_the_picture(key: str) -> None:
    plain = parsed(puzzle_svg(with_rules()))
    drawn = parsed(puzzle_svg(with_rules(SAMPLES[key])))
    assert len(list(drawn.iter())) > len(list(plain.iter()))


def test_all_rules_at_once_draw_as_expected() -> None:
    root = parsed(puzzle_svg(with_rules(*SAMPLES.values())))
    assert len(of_class(root, "cage")) == 1 and texts(root, "cage-sum") == ["12"]
    assert len(of_class(root, "digit-root-cage")) == 1
    assert texts(root, "digit-root-cage-sum") == ["DR5"]
    assert (
        texts(root, "little-killer") == ["45"] and len(of_class(root, "little-killer-arrow")) == 1
    )
    assert texts(root, "sandwich") == ["10"]
    assert len(of_class(root, "arrow")) == 1 and len(of_class(root, "arrow-circle")) == 1
    assert len(of_class(root, "thermo-bulb")) == 1 and len(of_class(root, "thermometer")) == 1
    for line in ("renban", "whispers", "palindrome", "betweenline"):
        assert len(of_class(root, line)) == 1, line
    assert len(of_class(root, "between-end")) == 2
    assert len(of_class(root, "kropki-white")) == 1 and len(of_class(root, "kropki-black")) == 1
    assert texts(root, "kropki-value") == ["3"]  # a black dot's 2 and a white dot's 1 go unsaid
    assert texts(root, "xv") == ["V"]
    assert len(of_class(root, "odd")) == 2 and len(of_class(root, "even")) == 1
    assert len(of_class(root, "minimum")) == 1 and len(of_class(root, "maximum")) == 1
    assert len(of_class(root, "clone")) == 4
    assert len(of_class(root, "quadruple")) == 1 and texts(root, "quadruple-digit") == ["1", "2"]
    assert len(of_class(root, "rowindexer")) == 2 and len(of_class(root, "columnindexer")) == 1
    assert len(of_class(root, "boxindexer")) == 1
    assert texts(root, "given-pencil-marks") == ["2 4 8", "2 4 8"]
    captions = " / ".join(texts(root, "caption"))
    for word in ("anti-knight", "anti-king", "non-consecutive", "negative"):
        assert word in captions


def test_clue_outside_the_grid_sits_outside() -> None:
    root = parsed(puzzle_svg(with_rules(SAMPLES["littlekillersum"], SAMPLES["sandwichsum"])))
    frame = of_class(root, "grid-frame")[0]
    left, top = float(frame.get("x", 0)), float(frame.get("y", 0))
    right, bottom = left + float(frame.get("width", 0)), top + float(frame.get("height", 0))
    for name in ("little-killer", "sandwich"):
        (clue,) = of_class(root, name)
        x, y = float(clue.get("x", 0)), float(clue.get("y", 0))
        assert not (left < x < right and top < y < bottom), name
    # The little killer runs up and right from r9c1: its clue is below-left of the grid.
    (clue,) = of_class(root, "little-killer")
    assert float(clue.get("x", 0)) < left and float(clue.get("y", 0)) > bottom


def test_an_indexer_cell_is_shaded_once_per_kind_and_a_cell_of_two_kinds_in_both() -> None:
    # Every rule of the indexers (one per digit the cells point with) drawn: r4c2 is a row
    # and a column indexer, r4c1 a row indexer.
    rules = [*indexer_rules(RowIndexer, (27, 28), 9), *indexer_rules(ColumnIndexer, (28,), 9)]
    root = parsed(puzzle_svg(with_rules(*rules)))
    rows, columns = of_class(root, "rowindexer"), of_class(root, "columnindexer")
    assert len(rows) == 2 and len(columns) == 1
    assert columns[0].get("x") == rows[1].get("x") and columns[0].get("y") == rows[1].get("y")
    assert rows[0].get("fill") != columns[0].get("fill")


def region_borders_expected(regions: tuple[int, ...], n: int) -> int:
    """Cell edges between neighbours of different regions, counted cell by cell."""
    count = 0
    for r in range(n):
        for c in range(n):
            if c + 1 < n and regions[r * n + c] != regions[r * n + c + 1]:
                count += 1
            if r + 1 < n and regions[r * n + c] != regions[(r + 1) * n + c]:
                count += 1
    return count


def test_jigsaw_borders_follow_its_regions() -> None:
    line = (DATA / "jigsaw.csv").read_text().splitlines()[1]
    regions = tuple(int(ch) for ch in line.split(",")[2])
    puzzle = puzzle_file("jigsaw.csv")
    assert puzzle.model.regions == regions
    root = parsed(puzzle_svg(puzzle))
    assert len(of_class(root, "region-border")) == region_borders_expected(regions, 9) > 36


@pytest.mark.parametrize(
    ("model", "size", "borders"),
    [("classic", 9, 2 * 2 * 9), ("classic", 6, 6 + 2 * 6), ("classic", 4, 2 * 4), ("latin", 5, 0)],
)
def test_box_borders(model: str, size: int, borders: int) -> None:
    root = parsed(puzzle_svg(Puzzle((0,) * size * size, model)))
    assert len(of_class(root, "region-border")) == borders
    assert len(of_class(root, "cell-line")) == 2 * (size - 1)


def test_x_diagonals_and_hyper_windows() -> None:
    assert len(of_class(parsed(puzzle_svg(Puzzle((0,) * 81, "x"))), "diagonal")) == 2
    assert len(of_class(parsed(puzzle_svg(Puzzle((0,) * 81, "hyper"))), "window")) == 4


def test_killer_has_one_outline_per_cage_with_its_sum() -> None:
    puzzle = puzzle_file("killer.jsonl")
    cages = json.loads((DATA / "killer.jsonl").read_text().splitlines()[0])["cages"]
    root = parsed(puzzle_svg(puzzle))
    assert len(of_class(root, "cage")) == len(cages)
    assert Counter(texts(root, "cage-sum")) == Counter(str(cage["sum"]) for cage in cages)


def outline_ends(path: str) -> Counter[tuple[str, str]]:
    numbers = re.findall(r"[ML](-?[\d.]+) (-?[\d.]+)", path)
    return Counter(numbers)


@pytest.mark.parametrize(
    "cells",
    [(40,), (0, 1, 2), (0, 9, 10), (0, 1, 10, 19, 18), (10, 11, 12, 19, 21, 28, 29, 30)],
    ids=["one", "bar", "L", "S", "ring"],
)
def test_cage_outlines_close(cells: tuple[int, ...]) -> None:
    # Every segment end meets another's: the outline has no gap, even round inner corners.
    (cage,) = of_class(parsed(puzzle_svg(with_rules(Cage(cells)))), "cage")
    ends = outline_ends(cage.get("d", ""))
    assert ends and all(count == 2 for count in ends.values()), ends


def test_kropki_and_xv_marks_one_per_pair() -> None:
    puzzle = puzzle_file("variants9.jsonl", 11)  # XV Kropki: white and black dots, X and V
    data = json.loads((DATA / "variants9.jsonl").read_text().splitlines()[10])
    root = parsed(puzzle_svg(puzzle))
    assert len(of_class(root, "kropki-white")) == len(data["difference"])
    assert len(of_class(root, "kropki-black")) == len(data["ratio"])
    assert sorted(texts(root, "xv")) == sorted(entry["value"] for entry in data["xv"])


@pytest.mark.parametrize("size", [4, 6, 8, 9, 10, 12, 16, 20, 25])
def test_every_size_draws_every_candidate(size: int) -> None:
    puzzle = Puzzle((0,) * (size * size))
    full = (1 << size) - 1
    root = parsed(puzzle_svg(puzzle, candidates=[full] * (size * size)))
    marks = texts(root, "candidate")
    assert len(marks) == size**3
    symbols = "123456789ABCDEFGHIJKLMNOP"[:size]
    assert set(marks) == set(symbols)
    (group,) = of_class(root, "pencil-marks")  # the candidates' shared font
    assert float(group.get("font-size", 0)) >= 7  # legible at the default size


def test_givens_bold_and_placed_digits_in_colour() -> None:
    puzzle = Puzzle.parse(INKALA)
    solution = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    grid = tuple(int(ch) for ch in solution)
    assert puzzle.is_solution(grid)
    root = parsed(puzzle_svg(puzzle, values=grid))
    givens, placed = of_class(root, "given"), of_class(root, "placed")
    assert len(givens) == puzzle.givens_count and len(placed) == 81 - puzzle.givens_count
    assert {e.get("font-weight") for e in givens} == {"bold"}
    assert {e.get("fill") for e in placed} != {e.get("fill") for e in givens}


def test_25x25_digits_written_as_the_line_form_writes_them() -> None:
    cells = list(range(1, 26)) + [0] * (625 - 25)
    root = parsed(puzzle_svg(Puzzle(cells)))
    assert texts(root, "given") == list("123456789ABCDEFGHIJKLMNOP")


def test_highlights_and_hostile_text_are_escaped() -> None:
    hostile = "</title><script>alert(\"x\")</script> & 'quote'"
    puzzle = Puzzle.parse(INKALA)
    svg = puzzle_svg(puzzle, highlight={0: 'red" onload="alert(1)', 1: ""}, title=hostile)
    root = parsed(svg)
    assert "<script>" not in svg
    assert root.find(f"{SVG}title") is not None
    assert root.find(f"{SVG}title").text == hostile  # type: ignore[union-attr]
    fills = [e.get("fill") for e in of_class(root, "highlight")]
    assert fills[0] == 'red" onload="alert(1)' and len(fills) == 2
    assert all(e.get("onload") is None for e in root.iter())


def test_bad_arguments_are_value_errors() -> None:
    puzzle = Puzzle.parse(INKALA)
    for kwargs in ({"cell_size": 2}, {"cell_size": 10_000}, {"values": (0,) * 80}):
        with pytest.raises(ValueError):
            puzzle_svg(puzzle, **kwargs)  # type: ignore[arg-type]


def test_puzzles_render_in_notebooks_without_the_validator_importing_render() -> None:
    puzzle = puzzle_file("variants9.jsonl", 18)
    assert puzzle._repr_svg_() == puzzle_svg(puzzle)
    code = "import sys, sudoku_cp.puzzle; print('sudoku_cp.render' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_bundled_variant_puzzle_draws() -> None:
    for number, record in enumerate(read_input(str(DATA / "variants9.jsonl")), start=1):
        assert record.puzzle is not None
        root = parsed(puzzle_svg(record.puzzle))
        drawn = sum(1 for e in root.iter() if e.get("class") not in (None, "cell-line"))
        assert drawn > 81 // 3, number
