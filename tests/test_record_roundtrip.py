"""Every record carries a puzzle that reads back as the same puzzle (issue 35, item 2): its
givens, groups, regions and rules — for every rule kind of the catalogue (tests/variants.py)
and for jigsaws and killers of every size from 4 to 25 (docs/troubleshooting.md)."""

from __future__ import annotations

import json
import random

import pytest
from clitools import jsonl, run
from variants import catalogue

from sudoku_cp.formats import parse_puzzle
from sudoku_cp.formats.record_form import record_text
from sudoku_cp.generate.grids import random_regions
from sudoku_cp.model import Model, box_shape, load_model
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.rules import Cage, Candidates, LittleKiller


def _groups(model: Model, size: int) -> set[frozenset[int]]:
    return {frozenset(group) for group in model.groups(size)}


def assert_reads_back(puzzle: Puzzle, base: Model) -> str:
    """The record text of ``puzzle``, after checking that reading it under ``base`` (the model
    the run was given) gives the same givens, groups, regions and rules."""
    size = puzzle.size
    text = record_text(puzzle.cells, size, puzzle.model)
    back = parse_puzzle(text, model=base)
    assert back.size == size and back.cells == puzzle.cells, text[:80]
    assert _groups(back.model, size) == _groups(puzzle.model, size), text[:80]
    assert back.model.regions == puzzle.model.regions or (
        # f-puzzles writes the default boxes as no regions at all: the same groups
        back.model.regions is None and puzzle.model.regions is not None
    ), text[:80]
    assert sorted(map(repr, back.model.rules)) == sorted(map(repr, puzzle.model.rules)), text[:80]
    return text


def _marks_on_givens(puzzle: Puzzle) -> list[Candidates]:
    return [
        rule
        for rule in puzzle.model.rules
        if isinstance(rule, Candidates) and any(puzzle.cells[c] for c in rule.cells)
    ]


@pytest.mark.parametrize("entry", catalogue(), ids=str)
def test_every_rule_kind_of_the_catalogue_reads_back(entry):
    puzzle = entry.puzzle
    base = load_model(puzzle.model.name) if puzzle.model.own else puzzle.model
    marked = _marks_on_givens(puzzle)
    if not marked:
        assert_reads_back(puzzle, base)
        return
    # Given pencil marks on a cell with a given: f-puzzles' readers ignore the marks of given
    # cells (fpuzzles_indexers.read_pencil_marks). A given the marks allow says all they say
    # of its cell, so the record holds the other cells' marks; a given they forbid (no input
    # reads such a puzzle, built in code) has no form and keeps its line (docs/formats/index.md).
    text = record_text(puzzle.cells, puzzle.size, puzzle.model)
    if any(0 < puzzle.cells[c] not in rule.digits for rule in marked for c in rule.cells):
        assert text == puzzle.to_line()
        return
    back = parse_puzzle(text, model=base)
    kept = {
        (c, rule.digits)
        for rule in puzzle.model.rules
        if isinstance(rule, Candidates)
        for c in rule.cells
        if not puzzle.cells[c]
    }
    assert {(c, r.digits) for r in back.model.rules for c in r.cells} == kept
    assert back.cells == puzzle.cells


def _jigsaw(size: int, rng: random.Random) -> tuple[int, ...]:
    box = box_shape(size) or (1, size)  # sizes without boxes start from the rows
    return random_regions(size, box, rng, moves=8 * size)


def _cages(size: int, rng: random.Random, avoid: set[int]) -> list[Cage]:
    """A few cages of two neighbouring cells (a sum of 3, 1 + 2, or none)."""
    cages, used = [], set(avoid)
    for _ in range(4):
        cell = rng.randrange(size * size - size)
        pair = (cell, cell + size)
        if used.isdisjoint(pair):
            used.update(pair)
            cages.append(Cage(pair, rng.choice([3, None])))
    return cages


def _givens(size: int, model: Model, rng: random.Random) -> list[int]:
    """Two givens, 1 and 2, in cells sharing no group."""
    cells = [0] * (size * size)
    first = rng.randrange(size * size)
    groups = model.groups(size)
    peers = {c for group in groups if first in group for c in group}
    second = rng.choice([c for c in range(size * size) if c not in peers])
    cells[first], cells[second] = 1, 2
    return cells


@pytest.mark.parametrize("size", range(4, 26))
def test_jigsaws_and_killers_of_every_size_read_back(size):
    rng = random.Random(size)
    classic, latin = load_model("classic"), load_model("latin")
    regions = _jigsaw(size, rng)
    jigsaw = classic.with_rules(regions=regions)
    cages = _cages(size, rng, set())
    models = [
        (jigsaw, classic),
        (classic.with_rules(regions=regions, rules=cages), classic),
        (latin.with_rules(rules=cages, size=size), latin),
        (load_model("x").with_rules(regions=regions, rules=cages[:1]), load_model("x")),
    ]
    if box_shape(size) is not None:
        models.append((classic.with_rules(rules=cages, size=size), classic))
    for own, base in models:
        cells = _givens(size, own, rng)
        text = assert_reads_back(Puzzle(cells, own), base)
        assert len(text) < 8 * size * size + 400  # a record line, not an expansion


def test_a_25x25_jigsaw_is_no_bare_line():
    rng = random.Random(25)
    regions = _jigsaw(25, rng)
    puzzle = Puzzle([0] * 625, load_model("classic").with_rules(regions=regions))
    text = assert_reads_back(puzzle, load_model("classic"))
    assert json.loads(text)["regions"][:5] == "".join(
        "0123456789ABCDEFGHIJKLMNO"[r] for r in regions[:5]
    )


@pytest.mark.parametrize(
    ("clue", "direction", "cells"),
    [
        ("R2C2", "DR", (10, 20, 30, 40, 50, 60, 70, 80)),  # a clue inside the grid: its first cell
        ("R5C1", "UR", (36, 28, 20, 12, 4)),  # on the edge: likewise
        ("R0C0", "DR", (0, 10, 20, 30, 40, 50, 60, 70, 80)),  # outside
        ("R0C10", "DL", (8, 16, 24, 32, 40, 48, 56, 64, 72)),
    ],
)
def test_little_killers_read_back_wherever_their_clue_is(clue, direction, cells):
    # dclamage's LittleKillerConstraint: a clue cell inside the grid is the diagonal's first
    # cell; one outside steps in once.
    data = {
        "size": 9,
        "grid": [[{} for _ in range(9)] for _ in range(9)],
        "littlekillersum": [{"cell": clue, "direction": direction, "value": "40"}],
    }
    puzzle = parse_puzzle(json.dumps(data))
    assert puzzle.model.rules == (LittleKiller(cells, 40),)
    assert record_text(puzzle.cells, 9, puzzle.model).startswith("https://f-puzzles.com/")
    assert_reads_back(puzzle, load_model("classic"))


@pytest.mark.parametrize("corner", [0, 8, 72, 80])
def test_a_one_cell_little_killer_in_a_corner_reads_back(corner):
    model = load_model("classic").with_rules(rules=[LittleKiller((corner,), 5)], size=9)
    assert_reads_back(Puzzle([0] * 81, model), load_model("classic"))


def test_a_recheck_of_the_records_keeps_the_little_killer(tmp_path):
    # A clue inside the grid (R2C2, DR): the first record wrote the bare line, so checking the
    # records again dropped the rule and its verdict changed.
    data = {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "littlekillersum": [{"cell": "R2C2", "direction": "DR", "value": "3"}],
    }
    source = tmp_path / "lk.json"
    source.write_text(json.dumps(data))
    first, again = tmp_path / "first.jsonl", tmp_path / "again.jsonl"
    assert run("check", str(source), "-b", "backtrack", "-o", str(first)).exit_code in (0, 1)
    assert run("check", str(first), "-b", "backtrack", "-o", str(again)).exit_code in (0, 1)
    one, two = jsonl(first.read_text())[0], jsonl(again.read_text())[0]
    assert one["puzzle"].startswith("https://f-puzzles.com/")
    assert (two["puzzle"], two["verdict"], two["count"]) == (
        one["puzzle"],
        one["verdict"],
        one["count"],
    )
    # 3 in three cells is 1 + 2 + ... impossible (digits of a 4x4 sum at least 1 + 2 + 1 = 4
    # along a diagonal whose cells lie in different rows and columns): no solution
    assert one["verdict"] == "none"
