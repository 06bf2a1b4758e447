"""Part-2 rules (lines, dots, sums, cells) on the ``constraint`` and ``dlx`` backends.

Counts come from the catalogue's enumeration (tests/variants.py) or from a second paradigm,
never from the backend under test: the catalogue again under every option of ``constraint``
that changes how rules compile (givens as variables, the library's other solvers); 9×9
mixed-rule puzzles against every other backend that declares their keys (skipped while none
does), and dlx's odd/even cells against constraint; givens that break a rule and arrows that
must sum past the largest digit, which have no solution; and each compiled rule's filter
against the rule's own plain checker on every small assignment (a filter must never take away
a digit some solution uses, and must judge a full assignment as the checker does).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from variants import MAX_COUNT, Entry, catalogue, solutions

from sudoku_cp import backend_names, get_backend
from sudoku_cp.backends import backend_class
from sudoku_cp.backends.constraint_rules import (
    QuadrupleSpec,
    SandwichSpec,
    Spec,
    SumSpec,
    TripleSpec,
    compile_rules,
)
from sudoku_cp.backends.dlx import DLXBackend
from sudoku_cp.backends.python_constraint import compile_problem
from sudoku_cp.errors import GivensBreakRule
from sudoku_cp.model import load_model
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.rules import (
    RULE_KINDS,
    Arrow,
    BetweenLine,
    Clone,
    Even,
    LittleKiller,
    Negative,
    Odd,
    Quadruple,
    Rule,
    Sandwich,
    Thermometer,
)
from tools.perf.variant_puzzles import variant_puzzle

CLASSIC = load_model("classic")
LATIN = load_model("latin")
PART_TWO = {
    "arrow",
    "littlekillersum",
    "sandwichsum",
    "thermometer",
    "renban",
    "whispers",
    "palindrome",
    "betweenline",
    "difference",
    "ratio",
    "xv",
    "negative",
    "odd",
    "even",
    "minimum",
    "maximum",
    "clone",
    "quadruple",
}
ENTRIES = [
    entry
    for entry in catalogue()
    if entry.count <= MAX_COUNT and entry.puzzle.model.rule_keys & PART_TWO
]
OPTIONS = [
    {"givens": "fixed"},
    {"solver": "RecursiveBacktrackingSolver"},
    {"solver": "OptimizedBacktrackingSolver", "givens": "fixed", "balance": False},
]


def test_constraint_declares_every_rule_and_dlx_only_the_digit_rules() -> None:
    assert get_backend("constraint").rules == frozenset(RULE_KINDS)
    assert DLXBackend.rules == {"odd", "even", "givenPencilMarks"}


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_constraint_options_count_every_part_two_entry_right(entry: Entry, options: dict) -> None:
    result = get_backend("constraint").solve(entry.puzzle, limit=None, time_limit=120, **options)
    assert result.exact
    assert sorted(result.solutions) == solutions(entry.puzzle)


# --- 9x9 -----------------------------------------------------------------------------------------
def _others_declaring(puzzle: Puzzle) -> list[str]:
    return [
        name
        for name in backend_names()
        if name != "constraint"
        and backend_class(name).complete  # logic deduces and never counts (its own tests)
        and not backend_class(name).unavailable_reason()
        and get_backend(name).refusal(puzzle) is None
    ]


@pytest.mark.parametrize("seed", range(1, 7))
def test_nine_by_nine_mixed_rules_agree_with_every_backend_that_declares_them(seed: int) -> None:
    puzzle, grid = variant_puzzle(seed, givens=24)
    result = get_backend("constraint").solve(puzzle, limit=None, time_limit=120)
    assert result.exact
    assert grid in result.solutions  # the grid the rules were drawn on is a solution
    assert all(puzzle.is_solution(found) for found in result.solutions)
    others = _others_declaring(puzzle)
    if not others:
        pytest.skip(f"no other backend declares {sorted(puzzle.model.rule_keys)} yet")
    for name in others:
        other = get_backend(name).solve(puzzle, limit=None, time_limit=120)
        assert other.exact and sorted(other.solutions) == sorted(result.solutions), name


def _odd_even_puzzle(seed: int) -> Puzzle:
    """A 9x9 classic puzzle with odd and even cells that hold in a classic grid, few givens."""
    rng = random.Random(seed)
    _, grid = variant_puzzle(seed)
    cells = rng.sample(range(81), 30)
    rules = [
        Odd(tuple(c for c in cells if grid[c] % 2)),
        Even(tuple(c for c in cells if not grid[c] % 2)),
    ]
    shown = set(rng.sample(range(81), 22))
    return Puzzle(
        [grid[c] if c in shown else 0 for c in range(81)],
        CLASSIC.with_rules(rules=rules, size=9),
    )


@pytest.mark.parametrize("seed", range(1, 4))
def test_dlx_odd_and_even_cells_agree_with_constraint_on_nine_by_nine(seed: int) -> None:
    puzzle = _odd_even_puzzle(seed)
    dlx = get_backend("dlx").solve(puzzle, limit=None, time_limit=120)
    con = get_backend("constraint").solve(puzzle, limit=None, time_limit=120)
    assert dlx.exact and con.exact
    assert dlx.count >= 1
    assert sorted(dlx.solutions) == sorted(con.solutions)


def test_dlx_takes_no_rows_for_a_digit_an_odd_cell_forbids() -> None:
    plain = Puzzle([0] * 16)
    odd = Puzzle([0] * 16, CLASSIC.with_rules(rules=[Odd((0, 5))], size=4))
    rows = get_backend("dlx").solve(plain, limit=1).stats["rows"]
    assert get_backend("dlx").solve(odd, limit=1).stats["rows"] == rows - 4


@pytest.mark.parametrize("backend", ["dlx", "constraint"])
def test_a_given_an_odd_cell_forbids_leaves_no_solution(backend: str) -> None:
    # A given the odd cell forbids is invalid on its own (issue 35's one rule for givens); an
    # odd cell that the givens leave no odd digit for is a puzzle with no solution.
    with pytest.raises(GivensBreakRule, match="r1c1 is odd but holds 2"):
        Puzzle([2] + [0] * 15, CLASSIC.with_rules(rules=[Odd((0,))], size=4))
    puzzle = Puzzle([0, 1, 3, 0] + [0] * 12, CLASSIC.with_rules(rules=[Odd((0,))], size=4))
    result = get_backend(backend).solve(puzzle, limit=None)
    assert result.status.value == "none" and result.exact


@pytest.mark.parametrize(
    "rule",
    [
        Thermometer((0, 1, 2, 3)),
        Arrow((0,), (1, 2, 3, 4, 5, 6, 7, 8)),
        Sandwich(tuple(range(9)), 2),
        LittleKiller(tuple(range(9, 81, 10)), 0),
        Quadruple((0, 1, 9, 10), (1, 1, 1)),
    ],
    ids=lambda rule: rule.key,
)
def test_dlx_refuses_every_other_part_two_rule_by_name(rule: Rule) -> None:
    puzzle = Puzzle([0] * 81, CLASSIC.with_rules(rules=[rule], size=9))
    reason = get_backend("dlx").refusal(puzzle)
    assert reason is not None and f"the {rule.title} rule ({rule.key})" in reason


# --- no solution: givens that break a rule, sums past the largest digit ---------------------------
def _nine(givens: dict[int, int], rules: Sequence[Rule]) -> Puzzle:
    cells = [givens.get(c, 0) for c in range(81)]
    return Puzzle(cells, CLASSIC.with_rules(rules=rules, size=9))


NONE_CASES = {
    "thermometer given downhill": _nine({0: 5, 2: 4}, [Thermometer((0, 1, 2))]),
    "thermometer too long for its bulb": _nine({0: 7}, [Thermometer((0, 1, 2, 3))]),
    "arrow over the largest digit (one line cell)": _nine({1: 9}, [Arrow((0,), (1, 10))]),
    "arrow of 5 distinct cells": _nine({}, [Arrow((0,), (1, 2, 3, 4, 5))]),
    "arrow with its line given past 9": _nine({10: 5, 20: 6}, [Arrow((0,), (10, 20))]),
    "pill past a single line cell": _nine({}, [Arrow((0, 1), (9,))]),
    "little killer given past its sum": _nine({0: 4, 10: 5}, [LittleKiller((0, 10, 20), 8)]),
    "sandwich no gap can make": _nine({}, [Sandwich(tuple(range(9)), 1)]),
    "sandwich given too far apart": _nine({0: 1, 8: 9}, [Sandwich(tuple(range(9)), 10)]),
    "quadruple needing more than its cells": _nine(
        {0: 2, 1: 3}, [Quadruple((0, 1, 9, 10), (1, 4, 5))]
    ),
}


# Givens that break a rule on their own (all of a line's or a quadruple's cells given, a pair of
# a pair rule, one cell of a digit rule) make the puzzle invalid before any backend sees it, one
# rule for all rules (issue 35): these were `none` cases of the constraint backend.
INVALID_CASES = {
    "between line given outside": ({0: 2, 1: 1, 2: 5}, [BetweenLine((0, 1, 2))]),
    "quadruple given without its digit": (
        {0: 2, 1: 3, 9: 4, 10: 5},
        [Quadruple((0, 1, 9, 10), (1,))],
    ),
    "clone given two digits": ({0: 1, 80: 2}, [Clone((0,), (80,))]),
    "negative pair given": ({0: 3, 1: 4}, [Negative("difference", ((0, 1),), (1,))]),
    "even given odd": ({40: 5}, [Even((40,))]),
}


@pytest.mark.parametrize("name", sorted(INVALID_CASES))
def test_givens_that_break_a_rule_on_their_own_are_invalid(name: str) -> None:
    givens, rules = INVALID_CASES[name]
    with pytest.raises(GivensBreakRule, match="the givens break"):
        _nine(givens, rules)


@pytest.mark.parametrize("givens", ["pruned", "fixed"])
@pytest.mark.parametrize("name", sorted(NONE_CASES))
def test_a_rule_no_digits_can_satisfy_gives_none(name: str, givens: str) -> None:
    puzzle = NONE_CASES[name]
    result = get_backend("constraint").solve(puzzle, limit=None, time_limit=60, givens=givens)
    assert result.status.value == "none" and result.exact, result.status


def test_an_arrow_past_the_largest_digit_is_none_before_any_search() -> None:
    puzzle = NONE_CASES["arrow with its line given past 9"]
    domains, _ = compile_problem(puzzle)
    assert compile_rules(puzzle, domains) is None


def test_up_front_pruning_follows_a_thermometer_both_ways_from_a_given() -> None:
    puzzle = _nine({2: 3}, [Thermometer((0, 1, 2, 3))])
    domains, _ = compile_problem(puzzle)
    assert compile_rules(puzzle, domains) is not None
    assert (domains[0], domains[1], domains[3]) == ([1], [2], [4, 5, 6, 7, 8, 9])


def test_a_negative_rule_prunes_only_its_own_pairs() -> None:
    puzzle = Puzzle(
        [1] + [0] * 15, LATIN.with_rules(rules=[Negative("xv", ((0, 1),), (5,))], size=4)
    )
    domains, _ = compile_problem(puzzle)
    assert compile_rules(puzzle, domains) == []
    assert domains[1] == [2, 3] and domains[4] == [2, 3, 4]


# --- each filter against the rule's own checker, on every small assignment ------------------------
def _check_filter(
    spec: Spec, cells: Sequence[int], holds, digits: Sequence[int], checker=None
) -> None:
    """Every partial assignment of ``cells`` (a digit or unassigned): the filter keeps every
    digit that some completion satisfying ``holds`` uses, and judges full assignments as
    ``checker`` (default ``holds``) does."""
    checker = checker or holds
    valid = [
        values
        for values in itertools.product(digits, repeat=len(cells))
        if holds(dict(zip(cells, values, strict=True)))
    ]
    for mask in itertools.product((False, True), repeat=len(cells)):
        assigned_cells = [c for c, m in zip(cells, mask, strict=True) if m]
        for values in itertools.product(digits, repeat=len(assigned_cells)):
            assigned = dict(zip(assigned_cells, values, strict=True))
            domains = {c: list(digits) for c in cells if c not in assigned}
            allowed = spec.filter(assigned, domains)
            completions = [
                v for v in valid if all(v[cells.index(c)] == d for c, d in assigned.items())
            ]
            if len(assigned) == len(cells):
                assert (allowed is not None) == checker(assigned), assigned
                continue
            if allowed is None:
                assert not completions, assigned
                continue
            for c in domains:
                used = {v[cells.index(c)] for v in completions}
                assert used <= allowed.get(c, set(digits)), (assigned, c)


def test_sum_filter_with_negative_weights_keeps_every_supported_digit() -> None:
    arrow = Arrow((3,), (0, 1, 2))
    spec = SumSpec((0, 1, 2, 3), (1, 1, 1, -1), 0)
    _check_filter(spec, [0, 1, 2, 3], lambda v: not arrow.problems(_grid(v, 16), 4), range(1, 5))
    pill = Arrow((0, 1), (2, 3))  # a two-cell circle: 10 a + b = c + d
    spec = SumSpec((2, 3, 0, 1), (1, 1, -10, -1), 0)
    _check_filter(spec, [0, 1, 2, 3], lambda v: not pill.problems(_grid(v, 81), 9), range(1, 10))


def test_sum_filter_of_a_little_killer_with_repeats() -> None:
    killer = LittleKiller((0, 5, 10), 7)
    spec = SumSpec((0, 5, 10), (1, 1, 1), 7)
    _check_filter(spec, [0, 5, 10], lambda v: not killer.problems(_grid(v, 16), 4), range(1, 5))


def test_triple_filter_of_a_between_line() -> None:
    line = BetweenLine((0, 1, 2))
    spec = TripleSpec((0, 1, 2), line, (0, 0, 0))
    _check_filter(spec, [0, 1, 2], lambda v: not line.problems(_grid(v, 16), 4), range(1, 5))


@pytest.mark.parametrize("total", [0, 2, 3, 5, 4])
def test_sandwich_filter_on_rows_of_distinct_digits(total: int) -> None:
    rule = Sandwich((0, 1, 2, 3), total)
    spec = SandwichSpec((0, 1, 2, 3), total, (0, 1, 2, 3), (0, 0, 0, 0), 4, True)

    def checker(values: dict[int, int]) -> bool:
        return not rule.problems(_grid(values, 16), 4)

    def holds(values: dict[int, int]) -> bool:
        # the row's group keeps its digits distinct: the filter may count on it
        return len(set(values.values())) == len(values) and checker(values)

    _check_filter(spec, [0, 1, 2, 3], holds, range(1, 5), checker)


def test_quadruple_filter_with_a_repeated_digit() -> None:
    rule = Quadruple((0, 1, 4, 5), (1, 1, 3))
    spec = QuadrupleSpec((0, 1, 4, 5), rule.needed())
    _check_filter(spec, [0, 1, 4, 5], lambda v: not rule.problems(_grid(v, 16), 4), range(1, 5))


def _grid(values: dict[int, int], cells: int) -> list[int]:
    grid = [0] * cells
    for cell, digit in values.items():
        grid[cell] = digit
    return grid
