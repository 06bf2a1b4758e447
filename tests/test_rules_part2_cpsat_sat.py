"""Part-2 rules (lines, dots, sums, cells) on ``cpsat`` and ``sat`` beyond the 4x4 / 5x5
catalogue (test_rules_every_backend.py): 9x9 puzzles mixing several rules, counted by both
paradigms (a constraint model and a CNF, compiled independently) and every solution checked by
the validator; givens that break a rule; sums no digits can reach; 16x16 thermometers; and the
catalogue again through the backends' other options (other SAT encodings, givens as unit
clauses, several CP-SAT workers), which take other paths through the compilers.

The 9x9 rule sets were drawn on the solution of 17clue#1 (the bundled 17-clue set): every rule
holds in it (tested below). Their givens are cells of that solution, chosen by removing givens
while the puzzle stayed unique; the counts were found by ``sat`` and ``cpsat`` agreeing and are
checked again here against both.
"""

from __future__ import annotations

import csv
import itertools
import time
from dataclasses import replace

import pytest
from conftest import DATA
from variants import catalogue

from sudoku_cp import Puzzle, get_backend
from sudoku_cp.backends.sat import OutOfTime, encode
from sudoku_cp.errors import GivensBreakRule
from sudoku_cp.model import load_model
from sudoku_cp.rules import (
    MAX_TOTAL,
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
from sudoku_cp.transforms import relabel, transforms_for

pytest.importorskip("pysat")
pytest.importorskip("ortools")

CLASSIC = load_model("classic")
PUZZLE_17 = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
"""17clue#1 of the bundled ``17clue.csv``."""
SOLUTION = tuple(
    int(ch)
    for ch in "953168742862734951417952836746893125281645397395271468138529674574386219629417583"
)
"""Its one solution (checked below by the validator)."""

LINES: tuple[Rule, ...] = (
    Thermometer((3, 11, 2, 1, 10, 20, 30, 21)),
    Thermometer((36, 45, 37, 46)),
    Thermometer((54, 55, 65, 57, 49, 59)),
    Arrow((0,), (9, 19)),
    Arrow((4,), (14, 23)),
    BetweenLine((6, 7, 8)),
    Whispers((17, 26), 5),
    Renban((32, 33, 34)),
    Palindrome((18, 28)),
)
SUMS: tuple[Rule, ...] = (
    LittleKiller((1, 11, 21, 31, 41, 51, 61, 71), 50),
    LittleKiller((9, 19, 29, 39, 49, 59, 69, 79), 47),
    LittleKiller((7, 15, 23, 31, 39, 47, 55, 63), 43),
    LittleKiller((74, 66, 58, 50, 42, 34, 26), 26),
    Sandwich((0, 1, 2, 3, 4, 5, 6, 7, 8), 8),
    Sandwich((36, 37, 38, 39, 40, 41, 42, 43, 44), 18),
    Sandwich((2, 11, 20, 29, 38, 47, 56, 65, 74), 17),
    Sandwich((6, 15, 24, 33, 42, 51, 60, 69, 78), 8),
    Arrow((0,), (9, 19)),
    Arrow((1,), (2, 11)),
    Arrow((4,), (14, 23)),
    Arrow((50, 51), (41, 42, 52)),  # a pill: r6c6 and r6c7 read as 25
    XV((28, 29), 10),
    XV((50, 51), 5),
    XV((50, 59), 10),
    XV((51, 52), 10),
    XV((51, 60), 10),
)
DOTS: tuple[Rule, ...] = (
    *(
        Difference(pair)
        for pair in (
            (0, 9),
            (1, 10),
            (2, 11),
            (5, 6),
            (7, 16),
            (8, 17),
            (13, 14),
            (15, 24),
            (20, 29),
            (21, 30),
            (23, 32),
            (25, 34),
            (26, 35),
            (30, 31),
            (33, 34),
        )
    ),  # fmt: skip
    *(Ratio(pair) for pair in ((4, 13), (5, 14), (7, 8), (9, 18), (14, 23), (25, 26), (28, 37))),
    Quadruple((0, 1, 9, 10), (9, 6)),
    Quadruple((40, 41, 49, 50), (5,)),
    Odd((0, 21, 35, 42, 49, 63, 70, 77)),
    Even((14, 36, 58, 69)),
    Minimum(3),
    Maximum(0),
    Clone((4, 5), (29, 30)),
)
RULE_SETS = {"lines": LINES, "sums": SUMS, "dots": DOTS}


def every_dot_and_negatives() -> tuple[Rule, ...]:
    """Every white and black dot the solution has, with both negative constraints."""
    dots: list[Rule] = []
    free = []
    for a in range(81):
        for b in (a + 1, a + 9):
            if b >= 81 or (b == a + 1 and b % 9 == 0):
                continue
            x, y = SOLUTION[a], SOLUTION[b]
            if abs(x - y) == 1:
                dots.append(Difference((a, b)))
            elif x == 2 * y or y == 2 * x:
                dots.append(Ratio((a, b)))
            else:
                free.append((a, b))
    pairs = tuple(free)
    return (*dots, Negative("difference", pairs, (1,)), Negative("ratio", pairs, (2,)))


def puzzle(rules: tuple[Rule, ...], givens: tuple[int, ...], change: dict | None = None) -> Puzzle:
    """The rules with the solution's digits in ``givens`` (``change`` overrides some)."""
    cells = [SOLUTION[c] if c in givens else 0 for c in range(81)]
    for cell, digit in (change or {}).items():
        cells[cell] = digit
    return Puzzle(cells, CLASSIC.with_rules(rules=rules, size=9))


LINES_GIVENS = (8, 13, 26, 34, 41, 63, 72, 79)
DOTS_GIVENS = (41, 49, 62, 63, 74)
CASES = [
    ("lines, unique", LINES, LINES_GIVENS, None, 1),
    ("lines, a given fewer", LINES, tuple(c for c in LINES_GIVENS if c != 34), None, 2),
    ("lines, two givens fewer", LINES, (13, 26, 41, 63, 72, 79), None, 13),
    ("lines, a wrong given", LINES, LINES_GIVENS, {8: 1}, 0),
    ("sums, unique", SUMS, (13,), None, 1),
    ("sums, no given", SUMS, (), None, 2),
    ("sums, a wrong given", SUMS, (13,), {13: 1}, 0),
    ("dots, unique", DOTS, DOTS_GIVENS, None, 1),
    ("dots, a given fewer", DOTS, tuple(c for c in DOTS_GIVENS if c != 63), None, 5),
    ("dots, two givens fewer", DOTS, (41, 49, 74), None, 44),
    ("every dot, negative: unique without a given", every_dot_and_negatives(), (), None, 1),
]


def _name(value: object) -> str | None:
    return value if isinstance(value, str) else None


def counted(backend: str, p: Puzzle, **options) -> list[tuple[int, ...]]:
    result = get_backend(backend).solve(p, limit=None, time_limit=120, **options)
    assert result.exact, (backend, result.status)
    assert all(p.is_solution(grid) for grid in result.solutions)
    return sorted(result.solutions)


def test_the_rule_sets_hold_in_the_solution() -> None:
    assert Puzzle.parse(PUZZLE_17).is_solution(SOLUTION)
    for rules in (*RULE_SETS.values(), every_dot_and_negatives()):
        assert puzzle(rules, ()).is_solution(SOLUTION)


@pytest.mark.parametrize(("name", "rules", "givens", "change", "expected"), CASES, ids=_name)
def test_9x9_mixed_rules_counted_alike_by_cpsat_and_sat(
    name: str, rules: tuple[Rule, ...], givens, change, expected: int
) -> None:
    p = puzzle(rules, givens, change)
    by_sat = counted("sat", p)
    assert counted("cpsat", p) == by_sat
    assert len(by_sat) == expected
    if change is None:
        assert SOLUTION in by_sat


BROKEN_GIVENS = [
    ("odd cell given an even digit", Odd((0, 1)), {1: 2}),
    ("thermometer given downhill", Thermometer((0, 1, 2)), {0: 5, 2: 4}),
    ("between line's middle given outside", BetweenLine((0, 1, 2)), {0: 3, 1: 9, 2: 7}),
    ("little killer's givens over the sum", LittleKiller((0, 10, 20), 10), {0: 5, 10: 6}),
    ("arrow's circle below its given line", Arrow((0,), (1, 2)), {1: 4, 2: 6}),
    ("sandwich: one cell between a given 1 and 9, sum 10", Sandwich(tuple(range(9)), 10),
     {0: 1, 2: 9}),
    ("quadruple's cells given without its digit", Quadruple((0, 1, 9, 10), (5,)),
     {0: 1, 1: 2, 9: 3, 10: 4}),
    ("clone given two digits", Clone((0,), (40,)), {0: 1, 40: 2}),
    ("white dot given digits two apart", Difference((0, 1)), {0: 1, 1: 3}),
]  # fmt: skip


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
@pytest.mark.parametrize(("name", "rule", "givens"), BROKEN_GIVENS, ids=_name)
def test_a_given_that_breaks_a_rule_leaves_no_solution(backend: str, name, rule, givens) -> None:
    cells = [0] * 81
    for cell, digit in givens.items():
        cells[cell] = digit
    try:
        p = Puzzle(cells, CLASSIC.with_rules(rules=[rule], size=9))
    except GivensBreakRule as err:
        # Givens that break a rule on their own are invalid before any backend sees them
        # (issue 35's one rule for givens); the others are puzzles with no solution.
        assert "the givens break" in str(err)
        return
    result = get_backend(backend).solve(p, limit=2, time_limit=60)
    assert result.exact and result.count == 0, (backend, name, result.status)


UNREACHABLE = [
    ("arrow of 4 box cells into one circle", Arrow((0,), (1, 2, 10, 11))),
    ("pill of 3 cells, reading at least 123, on a 2-cell line", Arrow((0, 1, 2), (9, 10))),
    ("little killer past 9 cells of 9", LittleKiller(tuple(range(0, 81, 10)), 82)),
    ("little killer at the cap", LittleKiller((0, 10), MAX_TOTAL)),
    ("sandwich above 2+...+8", Sandwich(tuple(range(9)), 36)),
    ("sandwich at the cap", Sandwich(tuple(range(0, 81, 9)), MAX_TOTAL)),
    ("arrow at a circle of one cell, line of 9 cells", Arrow((40,), tuple(range(9)))),
]


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
@pytest.mark.parametrize(("name", "rule"), UNREACHABLE, ids=_name)
def test_a_sum_no_digits_reach_is_none(backend: str, name: str, rule: Rule) -> None:
    p = Puzzle([0] * 81, CLASSIC.with_rules(rules=[rule], size=9))
    result = get_backend(backend).solve(p, limit=2, time_limit=60)
    assert result.exact and result.count == 0, (backend, name, result.status)


def test_sat_sees_an_unreachable_sum_before_solving() -> None:
    # The layered encoding keeps only states that can still reach the goal: none is left.
    for rule in (LittleKiller((0, 10), MAX_TOTAL), Sandwich(tuple(range(9)), MAX_TOTAL)):
        assert encode(Puzzle([0] * 81, CLASSIC.with_rules(rules=[rule], size=9))).contradiction


def test_a_pill_arrow_reads_as_a_decimal_number() -> None:
    # Circle r1c1-r1c2 and a line of three cells: the line sums to 10 * a + b.
    rule = Arrow((0, 1), (9, 10, 11))
    for backend in ("cpsat", "sat"):
        p = Puzzle([1, 2] + [0] * 79, CLASSIC.with_rules(rules=[rule], size=9))
        result = get_backend(backend).solve(p, limit=1, time_limit=60)
        grid = result.solutions[0]
        assert grid[9] + grid[10] + grid[11] == 12


def sixteen() -> tuple[Puzzle, tuple[int, ...]]:
    with (DATA / "16x16.csv").open(newline="") as handle:
        row = next(csv.DictReader(handle))
    return Puzzle.parse(row["puzzle"]), Puzzle.parse(row["solution"]).cells


def rising_line(solution: tuple[int, ...], size: int, start: int) -> tuple[int, ...]:
    """A line from ``start`` to ever larger neighbours (the next larger digit first)."""
    line = [start]
    while True:
        row, col = divmod(line[-1], size)
        around = [
            r * size + c
            for r in range(row - 1, row + 2)
            for c in range(col - 1, col + 2)
            if 0 <= r < size and 0 <= c < size and r * size + c not in line
        ]
        higher = [c for c in around if solution[c] > solution[line[-1]]]
        if not higher:
            return tuple(line)
        line.append(min(higher, key=lambda c: solution[c]))


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
def test_16x16_with_a_thermometer(backend: str) -> None:
    p, solution = sixteen()
    line = rising_line(solution, 16, solution.index(1))
    assert len(line) >= 5
    cells = [0 if c in line else d for c, d in enumerate(p.cells)]  # the line's cells blank
    thermo = Puzzle(cells, CLASSIC.with_rules(rules=[Thermometer(line)], size=16))
    result = get_backend(backend).solve(thermo, limit=2, time_limit=120)
    assert result.count == 1 and result.exact and result.solutions[0] == solution
    backwards = Puzzle(cells, CLASSIC.with_rules(rules=[Thermometer(line[::-1])], size=16))
    result = get_backend(backend).solve(backwards, limit=2, time_limit=120)
    assert result.count == 0 and result.exact


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
def test_16x16_thermometer_longer_than_the_digits_is_none(backend: str) -> None:
    snake = tuple(range(16)) + (31,)  # row 1, then down into row 2: 17 cells
    p = Puzzle([0] * 256, CLASSIC.with_rules(rules=[Thermometer(snake)], size=16))
    result = get_backend(backend).solve(p, limit=1, time_limit=120)
    assert result.count == 0 and result.exact


OPTIONS = [
    ("sat", {"simplify": False}),
    ("sat", {"amo": "pairwise", "solver": "cadical195"}),
    ("sat", {"amo": "hybrid", "solver": "glucose4"}),
    ("sat", {"amo": "seqcounter", "redundant": False, "solver": "minisat22"}),
    ("cpsat", {"workers": 2}),
    ("cpsat", {"presolve": "on"}),
]


@pytest.mark.parametrize(("backend", "options"), OPTIONS, ids=_name)
def test_the_catalogue_counts_right_with_other_options(backend: str, options: dict) -> None:
    part_two = set(RULE_KINDS) - {"killercage", "antiknight", "antiking", "nonconsecutive"}
    entries = [e for e in catalogue() if e.count <= 20 and e.puzzle.model.rule_keys & part_two]
    assert len(entries) > 40
    for entry in entries:
        found = counted(backend, entry.puzzle, **options)
        assert len(found) == entry.count, (entry.name, options)


@pytest.mark.parametrize("total", range(0, 9))
def test_a_sandwich_where_digits_repeat_sums_from_the_first_1_to_the_first_n(total: int) -> None:
    # Only the columns are groups, so row 1 may repeat digits: rows 2 and 3 given as 2233 and
    # 3322 leave each cell of rows 1 and 4 a 1 or a 4 — row 1 is each of the 16 words over
    # {1, 4}, and the sum runs from the first 1 to the first 4, as the validator reads it.
    model = replace(load_model("latin"), name="columns", group_kinds=("columns",))
    cells = [0] * 4 + [2, 2, 3, 3, 3, 3, 2, 2] + [0] * 4
    p = Puzzle(cells, model.with_rules(rules=[Sandwich((0, 1, 2, 3), total)], size=4))
    grids = []
    for top in itertools.product((1, 4), repeat=4):
        grids.append((*top, *cells[4:12], *(5 - d for d in top)))
    expected = sorted(grid for grid in grids if p.is_solution(grid))
    assert len(expected) == sum(
        1 for g in grids if Sandwich((0, 1, 2, 3), 0).between(g[:4], 4) == total
    )
    for backend in ("cpsat", "sat"):
        assert counted(backend, p) == expected


@pytest.mark.parametrize("sums", ["plain", "folded", "grouped"])
def test_the_time_limit_covers_encoding_a_long_sum(sums: str) -> None:
    # A sum over most of a 16x16 grid (possible only through the Python API: an f-puzzles
    # little killer follows a diagonal) writes millions of clauses; the clock must stop the
    # encoding, not wait for it. Plain: all 256 cells. Folded, those would fold away (every
    # row sums to 136), so there the sum takes a band of 7 cells in each row and column,
    # which no group's sum shortens.
    band = tuple(c for c in range(256) if (c % 16 + c // 16) % 16 < 7)
    cells = tuple(range(256)) if sums == "plain" else band
    rule = LittleKiller(cells, 16 * 136 if sums == "plain" else 7 * 136)
    p = Puzzle([0] * 256, load_model("latin").with_rules(rules=[rule], size=16))
    with pytest.raises(OutOfTime):
        encode(p, deadline=time.perf_counter(), sums=sums)
    result = get_backend("sat").solve(p, limit=1, time_limit=0.5, sums=sums)
    assert result.status.value == "timeout" and not result.exact


def test_a_sum_over_whole_rows_folds_away() -> None:
    # The 256-cell sum above, folded: 16 rows of 136 each, so it says nothing and the grid is
    # a plain 16x16 Latin square, found at once.
    rule = LittleKiller(tuple(range(256)), 16 * 136)
    p = Puzzle([0] * 256, load_model("latin").with_rules(rules=[rule], size=16))
    result = get_backend("sat").solve(p, limit=1, time_limit=30)
    assert result.count == 1 and p.is_solution(result.solutions[0])


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
@pytest.mark.parametrize("case", [c for c in CASES if 1 < c[4] < 20], ids=lambda c: c[0])
def test_moved_and_reversed_puzzles_keep_their_solutions(backend: str, case) -> None:
    # The rules as the metamorphic check moves them (a thermometer reversed with the digits,
    # a minimum cell's neighbours moved with it …): the same solutions, moved.
    name, rules, givens, change, expected = case
    p = puzzle(rules, givens, change)
    found = counted(backend, p)
    for transform in transforms_for(p, 3, seed=name):
        moved = transform.puzzle(p)
        assert sorted(transform.back(g) for g in counted(backend, moved)) == found, transform.name


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
def test_reversing_the_digits_reverses_the_solutions(backend: str) -> None:
    # Rules that survive d -> 10 - d, each turned as Rule.reversed says (a thermometer runs
    # the other way, a little killer's sum is complemented, odd stays odd at 9x9 …).
    kept = (*LINES, *DOTS, *SUMS[:4])
    rules = tuple(r for r in kept if not isinstance(r, (Arrow, Ratio, Difference)))
    p = puzzle(rules, (41,))
    found = counted(backend, p)
    assert len(found) > 1
    flip = relabel(9, range(9, 0, -1))
    flipped = flip.puzzle(p)
    assert flipped.model.rules != p.model.rules
    assert sorted(flip.back(g) for g in counted(backend, flipped)) == found


@pytest.mark.parametrize("case", [c for c in CASES if c[4] <= 5], ids=lambda c: c[0])
def test_9x9_counts_with_clause_written_at_most_one(case) -> None:
    # Layers of more than 12 states (a little killer's partial sums) get a sequential counter.
    name, rules, givens, change, expected = case
    p = puzzle(rules, givens, change)
    assert len(counted("sat", p, amo="hybrid", solver="cadical195")) == expected
