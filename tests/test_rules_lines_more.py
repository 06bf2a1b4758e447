"""The lines of sudoku_cp.rules.lines_more, read from f-puzzles JSON: for each key, which digit
sequences the line accepts, against a brute force written here from the reference's own code
(dclamage/SudokuSolver's Constraints/*.cs, SudokuVariantSolverJS's LockoutConstraint.ts), on
several grid sizes; the edge cases (short lines, a cell twice, regions a line leaves and comes
back to, values); the digit reversal; writing back; drawing; and generate --variant.

The solvers are held to these rules by the enumeration catalogue (tests/variants.py, run on
every backend by tests/test_rules_every_backend.py)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence

import pytest
from clitools import run

from sudoku_cp import Puzzle
from sudoku_cp.batch import check_puzzles
from sudoku_cp.errors import PuzzleError
from sudoku_cp.formats import read_input
from sudoku_cp.formats.fpuzzles import fpuzzles_data, read_fpuzzles
from sudoku_cp.model import load_model
from sudoku_cp.render import puzzle_svg
from sudoku_cp.rules import (
    DoubleArrow,
    EntropicLine,
    Lockout,
    ModularLine,
    Nabner,
    RegionSumLine,
    Rule,
    SlowThermometer,
    Whispers,
)
from sudoku_cp.rules.lines_more import region_sum_lines, zipper_lines

CLASSIC = load_model("classic")


def rc(cell: int, size: int) -> str:
    return f"R{cell // size + 1}C{cell % size + 1}"


def blank(size: int, regions: Sequence[int | None] | None = None, **keys) -> dict:
    grid = [[{} for _ in range(size)] for _ in range(size)]
    if regions is not None:
        for cell, region in enumerate(regions):
            grid[cell // size][cell % size]["region"] = region
    return {"size": size, "grid": grid, **keys}


def read(size: int, key: str, *lines: Sequence[int], regions=None, **entry) -> tuple[Rule, ...]:
    """The rules an f-puzzles puzzle of one ``key`` entry with ``lines`` reads as (its JSON
    goes through text, as a file's would)."""
    names = [[rc(cell, size) for cell in line] for line in lines]
    data = blank(size, regions, **{key: [{"lines": names, **entry}]})
    return read_fpuzzles(json.loads(json.dumps(data)), CLASSIC)[2].rules


def accepted(rules: Sequence[Rule], line: Sequence[int], size: int) -> set[tuple[int, ...]]:
    """The digit sequences along ``line`` that every rule's plain checker accepts."""
    found = set()
    for digits in itertools.product(range(1, size + 1), repeat=len(line)):
        grid = [0] * (size * size)
        for cell, digit in zip(line, digits, strict=True):
            grid[cell] = digit
        if all(not rule.problems(grid, size) for rule in rules):
            found.add(digits)
    return found


def brute(line: Sequence[int], size: int, holds: Callable[[tuple[int, ...]], bool]) -> set:
    return {d for d in itertools.product(range(1, size + 1), repeat=len(line)) if holds(d)}


def path(size: int, length: int) -> tuple[int, ...]:
    """A snake of ``length`` cells along the rows (each cell touching the next)."""
    cells = []
    for row in range(size):
        cols = range(size) if row % 2 == 0 else range(size - 1, -1, -1)
        cells += [row * size + col for col in cols]
    return tuple(cells[:length])


# --- slow thermometer (SlowThermometerConstraint.cs) ---------------------------------------------
def slow_reference(d: tuple[int, ...]) -> bool:
    # InitLinks: each candidate of an earlier cell excludes every smaller one of each later cell.
    return all(d[i] <= d[j] for i in range(len(d)) for j in range(i + 1, len(d)))


@pytest.mark.parametrize("size, length", [(4, 4), (6, 3), (9, 3), (1, 1)])
def test_a_slow_thermometer_never_falls_from_its_bulb(size, length):
    line = path(size, length)
    rules = read(size, "slowthermometer", line)
    assert rules == (SlowThermometer(line),)
    assert accepted(rules, line, size) == brute(line, size, slow_reference)


def test_a_slow_thermometer_accepts_a_repeat_across_boxes_on_a_solved_grid():
    # r3c2 and r2c3 both hold 1 (different boxes): a solved grid with 1 1 2 along the line.
    grid = "1234341221434321"
    data = blank(4, slowthermometer=[{"lines": [["R3C2", "R2C3", "R2C4"]]}])
    puzzle = Puzzle.parse(json.dumps(data))
    assert puzzle.is_solution([int(ch) for ch in grid])


# --- entropic and modular lines (EntropicLineConstraint.cs, ModularLineConstraint.cs) ------------
def entropic_group(size: int) -> Callable[[int], int]:
    # InitLinks: three runs of 1..N; sizes N/3 and (N+2)/3, the longer one in the middle
    # when N % 3 == 1, else the longer ones outside.
    small, large = size // 3, (size + 2) // 3
    sizes = [small, large, small] if size % 3 == 1 else [large, small, large]
    of = {}
    value = 1
    for group, count in enumerate(sizes):
        for _ in range(count):
            of[value] = group
            value += 1
    return of.__getitem__


def same_and_apart(group: Callable[[int], int]) -> Callable[[tuple[int, ...]], bool]:
    # Every two cells of the line: a distance that is a multiple of 3 means the same group,
    # any other different groups (the references' weak links).
    def holds(d: tuple[int, ...]) -> bool:
        return all(
            (group(d[i]) == group(d[j])) == ((j - i) % 3 == 0)
            for i in range(len(d))
            for j in range(i + 1, len(d))
        )

    return holds


@pytest.mark.parametrize(
    "size, length", [(2, 2), (3, 3), (4, 4), (5, 4), (6, 4), (7, 3), (8, 3), (9, 4), (16, 3)]
)
def test_an_entropic_line_has_its_three_groups_in_every_three_cells_on_every_size(size, length):
    line = path(size, length)
    rules = read(size, "entropicline", line)
    assert [type(r) for r in rules] == [EntropicLine]
    assert accepted(rules, line, size) == brute(line, size, same_and_apart(entropic_group(size)))


def test_the_entropic_groups_follow_the_reference_on_4x4_6x6_and_16x16():
    (rule,) = read(4, "entropicline", (0, 1, 2))
    assert (1, 2, 4) in accepted([rule], (0, 1, 2), 4)  # {1} {2,3} {4}
    assert (1, 2, 3) not in accepted([rule], (0, 1, 2), 4)
    (rule,) = read(6, "entropicline", (0, 1, 2))
    assert (2, 3, 5) in accepted([rule], (0, 1, 2), 6)  # {1,2} {3,4} {5,6}
    assert (2, 3, 4) not in accepted([rule], (0, 1, 2), 6)
    (rule,) = read(16, "entropicline", (0, 1))
    assert rule == EntropicLine((0, 1), (5, 11))  # 1-5, 6-11, 12-16


@pytest.mark.parametrize("size, length", [(2, 2), (4, 4), (5, 4), (6, 4), (9, 4), (16, 3)])
def test_a_modular_line_has_the_three_remainders_in_every_three_cells(size, length):
    line = path(size, length)
    rules = read(size, "modularline", line)
    assert rules == (ModularLine(line),)
    assert accepted(rules, line, size) == brute(line, size, same_and_apart(lambda v: v % 3))


def test_one_and_two_cell_entropic_and_modular_lines():
    assert accepted(read(9, "entropicline", (0,)), (0,), 9) == {(d,) for d in range(1, 10)}
    two = accepted(read(9, "modularline", (0, 1)), (0, 1), 9)
    assert two == {(a, b) for a in range(1, 10) for b in range(1, 10) if a % 3 != b % 3}


# --- nabner (NabnerConstraint.cs) ----------------------------------------------------------------
def nabner_reference(d: tuple[int, ...]) -> bool:
    # Every two cells of the line, not only neighbours: no equal or consecutive digits.
    return all(abs(d[i] - d[j]) > 1 for i in range(len(d)) for j in range(i + 1, len(d)))


@pytest.mark.parametrize("size, length", [(4, 2), (5, 3), (6, 4), (9, 3), (9, 5)])
def test_a_nabner_line_has_no_two_equal_or_consecutive_digits_anywhere_on_it(size, length):
    line = path(size, length)
    rules = read(size, "nabner", line)
    assert rules == (Nabner(line),)
    assert accepted(rules, line, size) == brute(line, size, nabner_reference)
    if length == 3:
        assert (1, 4, 2) not in accepted(rules, line, size)  # ends 1 and 2, not neighbours


def test_a_nabner_line_longer_than_n_is_refused_as_the_reference_does():
    with pytest.raises(PuzzleError, match="at most 4 cells on a 4x4 grid, not 5"):
        read(4, "nabner", path(4, 5))


# --- zipper lines, double arrows (ZipperLineConstraint.cs, DoubleArrowConstraint.cs) -----------
def zipper_reference(d: tuple[int, ...]) -> bool:
    # GetCellGroups: cells i and n-1-i together (the middle alone); all groups' sums equal.
    n = len(d)
    sums = [d[i] + (d[n - 1 - i] if i != n - 1 - i else 0) for i in range((n + 1) // 2)]
    return len(set(sums)) <= 1


def double_arrow_reference(d: tuple[int, ...]) -> bool:
    # GetCellGroups: no groups below 3 cells; else the two ends against the cells between.
    return len(d) < 3 or d[0] + d[-1] == sum(d[1:-1])


@pytest.mark.parametrize("size, length", [(4, 3), (4, 4), (5, 5), (6, 4), (9, 3), (9, 4)])
def test_a_zipper_line_sums_the_same_at_each_distance_from_its_middle(size, length):
    line = path(size, length)
    rules = read(size, "zipperline", line)
    assert rules == zipper_lines(line) and len(rules) == (length + 1) // 2 - 1
    assert accepted(rules, line, size) == brute(line, size, zipper_reference)


@pytest.mark.parametrize("size, length", [(4, 3), (4, 4), (5, 5), (9, 3), (9, 4)])
def test_a_double_arrow_s_ends_sum_to_the_cells_between_them(size, length):
    line = path(size, length)
    rules = read(size, "doublearrow", line)
    assert rules == (DoubleArrow(line),)
    assert accepted(rules, line, size) == brute(line, size, double_arrow_reference)


@pytest.mark.parametrize("key", ["zipperline", "doublearrow"])
def test_sum_lines_of_one_or_two_cells_say_nothing_as_in_the_references(key):
    assert read(9, key, (0,)) == () and read(9, key, (0, 1)) == ()
    assert read(9, key, (0, 1), (40,)) == ()
    with pytest.raises(PuzzleError, match="do not touch"):
        read(9, key, (0, 2))  # still a line, though


# --- region sum lines (RegionSumLinesConstraint.cs) ----------------------------------------------
def region_reference(
    line: Sequence[int], regions: Sequence[int | None]
) -> Callable[[tuple[int, ...]], bool]:
    # GetCellGroups: a new group whenever a cell's region differs from the last region met;
    # a cell in no region is skipped (the last region is kept). All groups' sums equal.
    def holds(d: tuple[int, ...]) -> bool:
        sums: list[int] = []
        last = None
        for cell, digit in zip(line, d, strict=True):
            if regions[cell] is None:
                continue
            if regions[cell] != last:
                sums.append(0)
            sums[-1] += digit
            last = regions[cell]
        return len(set(sums)) <= 1

    return holds


BOXES_4 = (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)


def test_a_region_sum_line_leaving_a_box_and_coming_back_sums_each_visit_apart():
    line = (0, 4, 9, 13, 10, 5)  # box 1, box 3, box 4, box 1 again
    rules = read(4, "regionsumline", line)
    assert len(rules) == 3 and {r.segments for r in rules} == {((0, 4), (9, 13), (10,), (5,))}
    assert accepted(rules, line, 4) == brute(line, 4, region_reference(line, BOXES_4))
    assert (1, 3, 1, 3, 4, 4) in accepted(rules, line, 4)  # 4 = 4 = 4 = 4


def test_a_region_sum_line_follows_jigsaw_regions_and_passes_over_cells_in_none():
    # Columns as regions but column 2 in none: r1c1-r2c2-r3c1 is one run in column 1, then
    # r3c2 is passed over and r3c3 starts the next run.
    regions: list[int | None] = [cell % 4 for cell in range(16)]
    regions[5] = None
    regions[1] = regions[9] = regions[13] = None
    line = (0, 5, 8, 9, 10)
    rules = read(4, "regionsumline", line, regions=regions)
    assert {r.segments for r in rules} == {((0, 8), (10,))}
    assert accepted(rules, line, 4) == brute(line, 4, region_reference(line, regions))


def test_on_a_size_without_boxes_the_rows_are_the_regions():
    line = (3, 4, 9, 14)  # r1c4, r1c5, r2c5, r3c5 of a 5x5 grid
    rows = [cell // 5 for cell in range(25)]
    rules = read(5, "regionsumline", line)
    assert {r.segments for r in rules} == {((3, 4), (9,), (14,))}
    assert accepted(rules, line, 5) == brute(line, 5, region_reference(line, rows))


def test_a_region_sum_line_inside_one_region_says_nothing():
    assert read(4, "regionsumline", (0, 1, 5)) == ()


# --- lockout (SudokuVariantSolverJS LockoutConstraint.ts) ----------------------------------------
def lockout_reference(size: int) -> Callable[[tuple[int, ...]], bool]:
    # The two hypothetical subboards: ends outer0 + N//2 <= outer1 (or the other way round),
    # each middle digit outside [low, low + N//2] and [high - N//2, high]. (Its third link,
    # from the middle's mutually seen cells, is a deduction that Sudoku's groups make.)
    gap = size // 2

    def branch(low: int, high: int, middle: tuple[int, ...]) -> bool:
        return low + gap <= high and all(
            not (low <= m <= low + gap) and not (high - gap <= m <= high) for m in middle
        )

    def holds(d: tuple[int, ...]) -> bool:
        middle = d[1:-1]
        return branch(d[0], d[-1], middle) or branch(d[-1], d[0], middle)

    return holds


@pytest.mark.parametrize("size, length", [(4, 3), (5, 4), (6, 3), (8, 3), (9, 3), (9, 4)])
def test_a_lockout_line_s_middle_avoids_its_ends_range_and_the_ends_are_n_over_2_apart(
    size, length
):
    line = path(size, length)
    rules = read(size, "lockout", line)
    assert rules == (Lockout(line, size // 2),)
    assert accepted(rules, line, size) == brute(line, size, lockout_reference(size))
    if size == 9 and length == 3:
        assert (1, 9, 5) in accepted(rules, line, 9) and (1, 2, 5) not in accepted(rules, line, 9)
        assert (3, 1, 6) not in accepted(rules, line, 9)  # ends 3 apart, not 4


def test_a_two_cell_lockout_line_is_only_its_ends_difference():
    rules = read(9, "lockout", (0, 1))
    assert rules == (Whispers((0, 1), 4),)
    assert accepted(rules, (0, 1), 9) == brute((0, 1), 9, lockout_reference(9))


def test_a_lockout_value_is_the_reference_s_difference_or_refused():
    assert read(9, "lockout", (0, 1, 2), value="4") == (Lockout((0, 1, 2), 4),)
    assert read(9, "lockout", (0, 1, 2), value="") == (Lockout((0, 1, 2), 4),)
    with pytest.raises(PuzzleError, match="differ by at least 4 on a 9x9 grid.*not 3"):
        read(9, "lockout", (0, 1, 2), value=3)
    with pytest.raises(PuzzleError, match="needs 2 cells or more"):
        read(9, "lockout", (0,))


# --- every key: a cell twice, values the references do not read ----------------------------------
KEYS = [
    "slowthermometer",
    "entropicline",
    "modularline",
    "nabner",
    "zipperline",
    "doublearrow",
    "regionsumline",
    "lockout",
]


@pytest.mark.parametrize("key", KEYS)
def test_a_line_through_a_cell_twice_is_refused_naming_the_entry(key):
    with pytest.raises(PuzzleError, match=rf"f-puzzles {key} 1 line 2: .* twice"):
        read(4, key, (0, 1, 2), (0, 1, 5, 0))


@pytest.mark.parametrize("key", [k for k in KEYS if k != "lockout"])
def test_a_value_is_not_read_where_dclamage_reads_none(key):
    line = (0, 1, 2, 11)
    assert read(9, key, line, value="7") == read(9, key, line)


# --- the digit reversal --------------------------------------------------------------------------
@pytest.mark.parametrize("size", [4, 5, 6, 7, 8, 9])
@pytest.mark.parametrize(
    "rule",
    [
        SlowThermometer((0, 1, 2)),
        ModularLine((0, 1, 2)),
        Nabner((0, 1, 2)),
        *zipper_lines((0, 1, 2, 3)),
        *zipper_lines((0, 1, 2)),
        DoubleArrow((0, 1, 2)),
        DoubleArrow((0, 1, 2, 3)),
        *region_sum_lines((0, 1, 2), (0, 1, 1) + (2,) * 100),
        *region_sum_lines((0, 1, 2, 3), (0, 0, 1, 1) + (2,) * 100),
    ],
    ids=lambda r: f"{type(r).__name__}{len(r.cells)}",
)
def test_a_reversed_line_accepts_exactly_the_reversed_digits_or_is_none(rule, size):
    line = rule.cells
    flipped = {tuple(size + 1 - d for d in seq) for seq in accepted([rule], line, size)}
    back = rule.reversed(size)
    if back is None:
        assert flipped != accepted([rule], line, size)  # the reversal does break it
    else:
        assert accepted([back], line, size) == flipped


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8, 9])
def test_entropic_and_lockout_lines_survive_the_reversal(size):
    (entropic,) = read(size, "entropicline", path(size, 3))
    (lockout,) = read(size, "lockout", path(size, 3))
    for rule in (entropic, lockout):
        line = path(size, 3)
        flipped = {tuple(size + 1 - d for d in seq) for seq in accepted([rule], line, size)}
        assert rule.reversed(size) == rule and accepted([rule], line, size) == flipped


# --- writing back --------------------------------------------------------------------------------
def test_every_key_reads_back_the_same_after_writing():
    lines = {
        "slowthermometer": [(0, 1, 2)],
        "entropicline": [(4, 5), (8, 9, 10)],
        "modularline": [(12, 13, 14, 15)],
        "nabner": [(3, 7)],
        "zipperline": [(0, 5, 10, 15), (12, 8, 4)],
        "doublearrow": [(1, 6, 11)],
        "regionsumline": [(0, 4, 9, 13, 10, 5)],
        "lockout": [(2, 3, 7), (14, 15)],
    }
    data = blank(
        4, **{k: [{"lines": [[rc(c, 4) for c in ln] for ln in v]}] for k, v in lines.items()}
    )
    cells, size, model = read_fpuzzles(data, CLASSIC)
    written = json.loads(json.dumps(fpuzzles_data(cells, size, model)))
    again = read_fpuzzles(written, CLASSIC)[2].rules
    assert set(again) == set(model.rules)  # a two-cell lockout comes back as a whispers pair
    assert len(again) == len(model.rules) == 1 + 2 + 1 + 1 + 2 + 1 + 3 + 2
    jigsaw = [cell % 4 for cell in range(16)]
    data = blank(4, jigsaw, regionsumline=[{"lines": [["R1C1", "R2C2", "R3C3"]]}])
    cells, size, model = read_fpuzzles(data, CLASSIC)
    written = json.loads(json.dumps(fpuzzles_data(cells, size, model)))
    assert read_fpuzzles(written, CLASSIC)[2].rules == model.rules and len(model.rules) == 2


def test_lines_f_puzzles_would_read_otherwise_are_refused_when_writing():
    for rules, message in [
        (zipper_lines((0, 1, 2, 3, 7))[:1], "part of a zipper line"),
        ([RegionSumLine((0, 1, 2), 0, ((0,), (1, 2)))], "cut other than by the puzzle's regions"),
        ([Lockout((0, 1, 2), 1)], "ends differ by 1 rather than 2"),
    ]:
        model = CLASSIC.with_rules(rules=rules, size=4)
        with pytest.raises(PuzzleError, match=message):
            fpuzzles_data([0] * 16, 4, model)


# --- drawing -------------------------------------------------------------------------------------
def test_each_line_is_drawn_once_with_its_own_look():
    rules = [
        SlowThermometer((0, 1, 2)),
        EntropicLine((9, 10, 11), (3, 6)),
        ModularLine((18, 19, 20)),
        Nabner((27, 28)),
        *zipper_lines((36, 37, 38, 39, 40)),
        DoubleArrow((45, 46, 47)),
        *region_sum_lines((2, 3, 4), [cell % 9 // 3 for cell in range(81)]),
        Lockout((54, 55, 56)),
    ]
    svg = puzzle_svg(Puzzle((0,) * 81, CLASSIC.with_rules(rules=rules, size=9)))
    for name, times in [
        ("slow-thermo-bulb", 1),
        ('class="entropicline"', 1),
        ('class="modularline"', 1),
        ('class="nabner"', 1),
        ('class="zipperline"', 1),
        ("zipper-middle", 1),
        ("double-arrow-end", 2),
        ('class="regionsumline"', 1),
        ("lockout-end", 2),
    ]:
        assert svg.count(name) == times, name


# --- generate --variant ---------------------------------------------------------------------------
GENERATED = {
    "slow-thermo": {"slowthermometer"},
    "entropic": {"entropicline"},
    "modular": {"modularline"},
    "nabner": {"nabner"},
    "zipper": {"zipperline"},
    "double-arrow": {"doublearrow"},
    "lockout": {"lockout"},
}


@pytest.mark.parametrize("kind", sorted(GENERATED))
def test_generated_lines_hold_in_the_solution_and_the_puzzles_are_unique(kind):
    result = run("generate", "-q", "-f", "jsonl", "-b", "sat,cpsat", "--variant", kind,
                 "-s", "6", "-n", "2", "--seed", "3", "--minimal")  # fmt: skip
    assert result.exit_code == 0, result.output
    puzzles = []
    for line in result.stdout.splitlines():
        record = json.loads(line)
        (read_,) = read_input(record["puzzle"], model=load_model(record["model"]))
        puzzle = read_.puzzle
        assert puzzle is not None, read_.error
        solution = tuple(int(d, 36) for d in record["solution"])
        keys = {rule.key for rule in puzzle.model.rules}
        assert keys and keys <= GENERATED[kind], keys
        assert puzzle.problems_with(solution) == []
        puzzles.append(puzzle)
    found = list(check_puzzles(puzzles, "backtrack,constraint", jobs=0, time_limit=60))
    assert [r.verdict.value for r in found] == ["unique", "unique"]
