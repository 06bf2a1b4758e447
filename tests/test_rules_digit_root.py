"""Digit-root killer cages: f-puzzles ``cage`` entries valued ``DR<n>``.

The meaning below is written plainly from the reference reader, dclamage/SudokuSolver:
``SolverFactory.cs`` (the ``fpuzzlesData.cage`` loop) makes a cage of 1 to N cells whose value,
trimmed, has a match of ``DR(\\d+)`` (case-sensitive, anywhere, the first one) a
``MultiSumKillerCageConstraint`` with the sums root, root + 9, root + 18 … that are at least
the least sum of k different digits (1 + … + k) and at most the most (N + … + N-k+1); the
root is not reduced (``DR12`` starts at 12). ``Constraints/MultiSumKillerCageConstraint.cs``
keeps the cage's digits different (its ``Group``) and checks the sum only when that list is not
empty and the cage has fewer than N cells. Every expected answer comes from those lines and
brute force, never from the project's own rules or backends.
"""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ET

import pytest
from test_rules_sequence import counting_backends, fpuzzles, read, solutions
from variants import sudoku_grids

from sudoku_cp import Puzzle
from sudoku_cp.backends import get_backend
from sudoku_cp.errors import ModelError, PuzzleError
from sudoku_cp.formats.fpuzzles import fpuzzles_data, read_fpuzzles
from sudoku_cp.model import load_model
from sudoku_cp.render import puzzle_svg
from sudoku_cp.rules import DigitRootCage

CLASSIC = load_model("classic")


# --- the meaning, plainly -----------------------------------------------------------------------
def listed(k: int, n: int, root: int) -> list[int]:
    """The sums SolverFactory lists for a cage of ``k`` cells in an ``n`` grid."""
    least = sum(range(1, k + 1))
    most = sum(range(n - k + 1, n + 1))
    found, total = [], root
    while total <= most:
        if total >= least:
            found.append(total)
        total += 9
    return found


def sum_holds(digits, n: int, root: int) -> bool:
    """The constraint's sum check: none with N cells or an empty list, else one listed."""
    sums = listed(len(digits), n, root)
    return len(digits) == n or not sums or sum(digits) in sums


def holds(digits, n: int, root: int) -> bool:
    return len(set(digits)) == len(digits) and sum_holds(digits, n, root)


def name(cell: int, n: int) -> str:
    return f"R{cell // n + 1}C{cell % n + 1}"


def cage(cells, n: int, value: str) -> dict:
    return {"cells": [name(c, n) for c in cells], "value": value}


# --- the rule's checker and automaton against the meaning ---------------------------------------
def accepted(rule: DigitRootCage, word, n: int) -> bool:
    dfa = rule.automaton(n)
    state = dfa.start
    for digit in word:
        state = dfa.step(state, digit)
        if state is None:
            return False
    return dfa.accepts(state)


def words(k: int, n: int):
    """Every word of k digits 1..n up to 5x5 (digits repeating: the automaton and checker
    see any word); above, every set of k different digits (the sum is all that counts)."""
    if n <= 5:
        return itertools.product(range(1, n + 1), repeat=k)
    return itertools.combinations(range(1, n + 1), k)


@pytest.mark.parametrize("n", range(1, 10))
def test_the_checker_and_automaton_say_what_the_meaning_says(n: int) -> None:
    for k in range(1, n + 1):
        cells = tuple(range(k))  # row 1 from the left
        for root in range(0, sum(range(n - k + 1, n + 1)) + 12):
            rule = DigitRootCage(cells, root)
            ((group, _),) = rule.groups(n)
            assert group == cells
            for word in words(k, n):
                grid = word + (1,) * (n * n - k)
                checked = not rule.problems(grid, n) and len(set(word)) == len(word)
                assert checked == holds(word, n, root), (n, k, root, word)
                assert accepted(rule, word, n) == sum_holds(word, n, root), (n, k, root, word)


@pytest.mark.parametrize("n", [12, 16])
def test_bigger_grids_too(n: int) -> None:
    rng = random.Random(n)
    for _ in range(3000):
        k = rng.randint(1, n)
        word = tuple(rng.sample(range(1, n + 1), k))
        root = rng.randint(0, sum(word) + 20)
        rule = DigitRootCage(tuple(range(k)), root)
        assert (not rule.problems(word + (1,) * (n * n - k), n)) == holds(word, n, root)
        assert accepted(rule, word, n) == holds(word, n, root)


def test_the_quirks_as_the_reference_has_them() -> None:
    # Two cells of a 9x9 grid sum to 3..17: DR12 lists 12 alone, DR3 both 3 and 12, DR1 only
    # 10 (1 is below 3); DR0 lists 9.
    assert listed(2, 9, 12) == [12] and listed(2, 9, 3) == [3, 12] and listed(2, 9, 1) == [10]
    for root, ok, wrong in ((12, (5, 7), (1, 2)), (3, (4, 8), (4, 5)), (1, (4, 6), (1, 2))):
        rule = DigitRootCage((0, 1), root)
        assert not rule.problems(ok + (1,) * 79, 9) and rule.problems(wrong + (1,) * 79, 9)
    # No listed sum (DR18 on two cells: 18 > 17; the largest root): any different digits. N
    # cells: any, too (their sum is always N(N+1)/2 anyway).
    assert listed(2, 9, 18) == [] and not DigitRootCage((0, 1), 18).problems((9, 8) + (1,) * 79, 9)
    assert not DigitRootCage(tuple(range(9)), 4).problems(tuple(range(1, 10)) + (1,) * 72, 9)
    assert not DigitRootCage((0, 1), 2**31 - 1).problems((3, 4) + (1,) * 79, 9)


def test_a_reversed_grid_breaks_it_and_a_move_carries_it() -> None:
    assert DigitRootCage((0, 1), 5).reversed(4) is None
    transpose = [(c % 4) * 4 + c // 4 for c in range(16)]
    assert DigitRootCage((0, 1, 6), 5).moved(transpose, 4) == DigitRootCage((0, 4, 9), 5)


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (DigitRootCage((), 5), "needs at least 1 cell"),
        (DigitRootCage((0, 1, 2, 3, 4), 5), "has 5 cells, more than the 4"),
        (DigitRootCage((0, 16), 5), "outside the 4x4 grid"),
        (DigitRootCage((0, 0), 5), "twice"),
        (DigitRootCage((0, 1), -1), "digit root must be a whole number from 0"),
        (DigitRootCage((0, 1), 2**31), "digit root must be a whole number from 0"),
    ],
)
def test_a_cage_that_does_not_fit_is_refused(rule: DigitRootCage, message: str) -> None:
    with pytest.raises(ModelError, match=message):
        rule.check(4)


# --- f-puzzles: which cages are rules ----------------------------------------------------------
@pytest.mark.parametrize(
    ("entry", "rule"),
    [
        ({"cells": ["R1C1", "R1C2"], "value": "DR5"}, DigitRootCage((0, 1), 5)),
        ({"cells": ["R1C1", "R1C2"], "value": " DR12 "}, DigitRootCage((0, 1), 12)),
        ({"cells": ["r1c1"], "value": "sum DR3!"}, DigitRootCage((0,), 3)),  # anywhere
        ({"cells": ["R1C1", "R2C1"], "value": "DR3DR5"}, DigitRootCage((0, 4), 3)),  # first
        ({"cells": ["R1C1", "R2C1"], "value": "DR007"}, DigitRootCage((0, 4), 7)),  # int.Parse
        ({"cells": ["R4C4", "R1C1"], "value": "DR0"}, DigitRootCage((15, 0), 0)),
        (
            {"cells": [f"R1C{c}" for c in range(1, 5)], "value": "DR9"},
            DigitRootCage((0, 1, 2, 3), 9),
        ),
        ({"cells": ["R1C1", "R1C2"], "value": "dr5"}, None),  # the match is case-sensitive
        ({"cells": ["R1C1", "R1C2"], "value": "D R5"}, None),
        ({"cells": ["R1C1", "R1C2"], "value": "DR"}, None),
        ({"cells": ["R1C1", "R1C2"], "value": "5"}, None),
        ({"cells": ["R1C1", "R1C2"], "value": " "}, None),
        ({"cells": ["R1C1", "R1C2"], "value": 5}, None),  # FPuzzlesKillerCageEntry: a string
        ({"cells": ["R1C1", "R1C2"]}, None),
        ({"cells": [], "value": "DR5"}, None),  # 1 to N cells, or an outline
        ({"cells": [f"R{r}C{c}" for r in (1, 2) for c in (1, 2, 3)], "value": "DR5"}, None),
        ({"value": "DR5"}, None),
    ],
)
def test_a_cage_is_a_rule_exactly_where_the_reference_reads_one(entry, rule) -> None:
    rules = read(fpuzzles(4, cage=[entry])).model.rules
    assert rules == (() if rule is None else (rule,))


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"cells": ["R1C1", "R1C2"], "value": "DR٣"}, "root '٣' is not a number"),  # int.Parse
        ({"cells": ["R1C1", "R1C2"], "value": "DR2147483648"}, "at most 2,147,483,647"),
        ({"cells": ["R1C1", "R1C2"], "value": "DR" + "9" * 5000}, "is not a number"),
        ({"cells": ["R1C1", "R1C1"], "value": "DR5"}, "lists a cell twice"),
        ({"cells": ["R1C1", "R5C1"], "value": "DR5"}, "outside the 4x4 grid"),
        ({"cells": ["R1C1", "middle"], "value": "DR5"}, "is not a cell"),
    ],
)
def test_a_cage_f_puzzles_solver_cannot_load_is_refused_in_one_line(entry, message) -> None:
    with pytest.raises(PuzzleError, match=message) as err:
        read(fpuzzles(4, cage=[{"cells": ["R4C4"], "value": "outline"}, entry]))
    assert "f-puzzles cage 2" in str(err.value) and "\n" not in str(err.value)
    assert len(str(err.value)) < 300


def test_the_largest_root_reads_and_lists_no_sum() -> None:
    puzzle = read(fpuzzles(4, cage=[{"cells": ["R1C1", "R2C3"], "value": "DR2147483647"}]))
    assert puzzle.model.rules == (DigitRootCage((0, 6), 2**31 - 1),)


def test_cages_read_back_the_same_after_writing() -> None:
    entries = [
        {"cells": ["R1C1", "R1C2"], "value": "sum DR5!"},
        {"cells": ["R2C3", "R3C3", "R3C4"], "value": "DR007"},
        {"cells": ["R6C6"], "value": "DR0"},
        {"cells": ["R4C1", "R5C1"], "value": "a plain outline"},
    ]
    cells, size, model = read_fpuzzles(fpuzzles(6, cage=entries), CLASSIC)
    written = json.loads(json.dumps(fpuzzles_data(cells, size, model)))
    # A cage valued DR<root>, as SolverFactory reads it; the outline is gone (cosmetic).
    assert written["cage"] == [
        {"cells": ["R1C1", "R1C2"], "value": "DR5"},
        {"cells": ["R2C3", "R3C3", "R3C4"], "value": "DR7"},
        {"cells": ["R6C6"], "value": "DR0"},
    ]
    assert read_fpuzzles(written, CLASSIC)[2].rules == model.rules


# --- real puzzles on every backend --------------------------------------------------------------
GRIDS_4 = [tuple(grid) for grid in sudoku_grids(4).tolist()]  # all 288, enumerated


def expected(grids, n: int, cages: list[tuple[tuple[int, ...], int]]) -> set[tuple[int, ...]]:
    return {g for g in grids if all(holds([g[c] for c in cells], n, r) for cells, r in cages)}


@pytest.mark.parametrize(
    ("cells", "root", "count"),
    [
        ((0, 6), 8, 144),  # r1c1, r2c3 sum to 3..7: no listed sum, only different digits
        ((0, 6), 0, 144),  # DR0 lists 9, unreachable: not "digit root 9"
        ((0, 5, 10, 15), 2, 48),  # N cells: the diagonal's digits differ, whatever the root
        ((0, 6), 5, 48),  # 1+4 or 2+3
        ((0,), 5, 288),  # one cell reaches 1..4: DR5 lists nothing
        ((0,), 3, 72),  # … and DR3 lists 3
    ],
)
def test_the_quirks_on_every_backend(cells, root, count) -> None:
    puzzle = read(fpuzzles(4, cage=[cage(cells, 4, f"DR{root}")]))
    want = expected(GRIDS_4, 4, [(cells, root)])
    assert len(want) == count  # (the brute force's own numbers, recorded)
    for backend in counting_backends(puzzle):
        assert solutions(puzzle, backend) == want, backend


@pytest.mark.parametrize("seed", range(8))
def test_4x4_puzzles_have_exactly_the_solutions_the_meaning_gives(seed: int) -> None:
    rng = random.Random(seed)
    target = rng.choice(GRIDS_4)
    cages = []
    for _ in range(3):
        cells = tuple(rng.sample(range(16), rng.randint(1, 4)))
        digits = [target[c] for c in cells]
        if len(set(digits)) < len(digits):
            continue
        root = rng.choice((sum(digits) % 9, sum(digits), rng.randint(0, 20)))
        cages.append((cells, root))
    puzzle = read(fpuzzles(4, cage=[cage(cells, 4, f"DR{root}") for cells, root in cages]))
    want = expected(GRIDS_4, 4, cages)
    for backend in counting_backends(puzzle):
        assert solutions(puzzle, backend) == want, (backend, cages)
    for strategy in ("naive", "ordered", "mrv"):
        assert solutions(puzzle, "backtrack", strategy=strategy) == want, strategy


def pattern_grid(n: int) -> tuple[int, ...]:
    h, w = CLASSIC.box_for(n)
    return tuple((w * (r % h) + r // h + c) % n + 1 for r in range(n) for c in range(n))


def band_completions(grid, n: int) -> list[tuple[int, ...]]:
    """Every classic grid differing from ``grid`` only in rows 1 and 2: each column swaps its
    two digits or not (rows 1 and 2 share a band of boxes)."""
    plain = Puzzle([0] * (n * n), CLASSIC.with_rules(size=n))
    found = []
    for swaps in itertools.product((False, True), repeat=n):
        cells = list(grid)
        for col, swap in enumerate(swaps):
            if swap:
                cells[col], cells[n + col] = cells[n + col], cells[col]
        if plain.is_solution(cells):
            found.append(tuple(cells))
    return found


@pytest.mark.parametrize("n", [6, 8, 9])
def test_bigger_grids_pick_the_completions_the_meaning_gives(n: int) -> None:
    # Rows 1 and 2 blank, the rest given: a few completions, which cages over rows 1 and 2
    # (some listing several sums, e.g. DR3 on 9x9: 3, 12, 21 …) pick from.
    target = pattern_grid(n)
    completions = band_completions(target, n)
    assert len(completions) > 1
    givens = [0 if cell < 2 * n else d for cell, d in enumerate(target)]
    rng = random.Random(n)
    picked_some = False
    for trial in range(4):
        chosen = rng.choice(completions)
        cages = []
        for _ in range(2):
            cells = tuple(rng.sample(range(2 * n), rng.randint(2, 4)))
            digits = [chosen[c] for c in cells]
            if len(set(digits)) == len(digits):
                cages.append((cells, rng.choice((sum(digits) % 9, sum(digits)))))
        puzzle = read(fpuzzles(n, givens, cage=[cage(c, n, f"DR{r}") for c, r in cages]))
        want = expected(completions, n, cages)
        picked_some |= 0 < len(want) < len(completions)
        for backend in counting_backends(puzzle):
            assert solutions(puzzle, backend) == want, (n, trial, backend, cages)
    assert picked_some


def test_backends_that_cannot_reason_about_it_refuse_it() -> None:
    puzzle = read(fpuzzles(4, cage=[{"cells": ["R1C1", "R2C3"], "value": "DR5"}]))
    refusal = get_backend("dlx").refusal(puzzle)
    assert refusal is not None and "the digit-root cage rule (digitrootcage)" in refusal
    # the logic backend reasons about every rule kind by its shape (issue 31)
    assert get_backend("logic").refusal(puzzle) is None


def test_it_is_drawn_as_a_cage_with_its_root() -> None:
    puzzle = read(fpuzzles(4, cage=[{"cells": ["R2C3", "R3C3"], "value": "DR12"}]))
    root = ET.fromstring(puzzle_svg(puzzle))
    by_class = {e.get("class"): e for e in root.iter() if e.get("class")}
    assert "digit-root-cage" in by_class
    label = by_class["digit-root-cage-sum"]
    assert label.text == "DR12"
    # In the cage's top-left cell, r2c3: the third column, the second row of four.
    frame = by_class["grid-frame"]
    x0, y0 = float(frame.get("x", 0)), float(frame.get("y", 0))
    side = float(frame.get("width", 0)) / 4
    assert x0 + 2 * side < float(label.get("x", 0)) < x0 + 3 * side
    assert y0 + side < float(label.get("y", 0)) < y0 + 2 * side
