"""`sudoku-cp generate --variant` for the rules of the variants issue, as a user meets it: each
puzzle re-read from its written record (the f-puzzles link) and re-checked unique by two
backends other than the judges (which are sat and cpsat here), every drawn rule holding in
the written solution by its own plain checker and the validator, the same seed giving the
same bytes, bad combinations refused in one line."""

from __future__ import annotations

import json

import pytest
from clitools import error_line, run

from sudoku_cp import solve
from sudoku_cp.batch import check_puzzles
from sudoku_cp.formats import read_input
from sudoku_cp.model import load_model
from sudoku_cp.puzzle import Puzzle

JUDGES = ("-b", "sat,cpsat")
"""The generator's judges, named so that the re-check can use two others."""

KEYS = {
    "arrow": {"arrow"},
    "little-killer": {"littlekillersum"},
    "sandwich": {"sandwichsum"},
    "skyscraper": {"skyscraper"},
    "x-sum": {"xsum"},
    "odd-even": {"odd", "even"},
    "min-max": {"minimum", "maximum"},
    "renban": {"renban"},
    "whispers": {"whispers"},
    "palindrome": {"palindrome"},
    "between": {"betweenline"},
    "clone": {"clone"},
    "quadruple": {"quadruple"},
    "antiknight": {"antiknight"},
    "antiking": {"antiking"},
    "nonconsecutive": {"nonconsecutive"},
}


def records(*args: str) -> list[dict]:
    result = run("generate", "-q", "-f", "jsonl", *JUDGES, *args)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def read_back(record: dict) -> tuple[Puzzle, tuple[int, ...]]:
    (read,) = read_input(record["puzzle"], model=load_model(record["model"]))
    assert read.puzzle is not None, read.error
    return read.puzzle, tuple(int(d, 36) for d in record["solution"])


def assert_unique(puzzles: list[Puzzle], backends: str = "backtrack,constraint") -> None:
    found = list(check_puzzles(puzzles, backends, jobs=0, time_limit=60))
    assert [r.verdict.value for r in found] == ["unique"] * len(puzzles), [
        (r.verdict.value, r.reason) for r in found
    ]


def assert_rules_hold(puzzle: Puzzle, solution: tuple[int, ...], keys: set[str]) -> None:
    rules = puzzle.model.rules
    assert rules and {rule.key for rule in rules} <= keys, rules
    for rule in rules:
        assert rule.problems(solution, puzzle.size) == [], rule
    assert puzzle.problems_with(solution) == []  # the validator: groups, givens and rules


@pytest.mark.parametrize(
    ("kind", "size"),
    [
        ("arrow", 6),
        ("little-killer", 6),
        ("sandwich", 6),
        ("skyscraper", 6),
        ("x-sum", 6),
        ("odd-even", 6),
        ("min-max", 6),
        ("renban", 6),
        ("whispers", 6),
        ("palindrome", 6),
        ("between", 6),
        ("clone", 6),
        ("quadruple", 6),
        ("antiknight", 6),
        ("antiking", 6),
        ("nonconsecutive", 6),
        ("whispers", 4),
        ("arrow", 9),
        ("quadruple", 9),
    ],
)
def test_each_kind_is_unique_by_other_backends_and_its_rules_hold(kind: str, size: int) -> None:
    made = records("--variant", kind, "-s", str(size), "-n", "2", "--seed", "3")
    puzzles = []
    for record in made:
        puzzle, solution = read_back(record)
        assert puzzle.size == size and record["kind"] == kind
        assert record["puzzle"].startswith("https://f-puzzles.com/?load=")
        assert_rules_hold(puzzle, solution, KEYS[kind])
        puzzles.append(puzzle)
    assert_unique(puzzles, "cpsat,dlx" if kind in ("antiknight", "antiking") else "backtrack,sat")
    # The judges' verdict, recorded; the re-check above used other backends where it could.
    assert all(set(r["backends"]) == {"sat", "cpsat"} for r in made)


def test_combined_kinds_and_no_givens() -> None:
    made = records("--variant", "thermo,arrow", "-s", "6", "-n", "2", "--seed", "1")
    for record in made:
        puzzle, solution = read_back(record)
        assert_rules_hold(puzzle, solution, {"thermometer", "arrow"})
    alone = records("--variant", "arrow", "--givens", "none", "-s", "6", "-n", "2", "--seed", "2")
    puzzles = []
    for record in alone:
        puzzle, solution = read_back(record)
        assert puzzle.givens_count == 0 and record["clues"] == 0
        assert_rules_hold(puzzle, solution, {"arrow"})
        puzzles.append(puzzle)
    assert_unique(puzzles, "backtrack,constraint")


def _without(puzzle: Puzzle, index: int) -> Puzzle:
    rules = [r for i, r in enumerate(puzzle.model.rules) if i != index]
    model = load_model("classic").with_rules(rules=rules, size=puzzle.size)
    return Puzzle.from_parsed(puzzle.cells, puzzle.size, model)


@pytest.mark.parametrize(
    "args", [("--variant", "renban"), ("--variant", "arrow,renban", "--givens", "none")]
)
def test_minimal_means_no_given_and_no_rule_can_go(args: tuple[str, ...]) -> None:
    (record,) = records(*args, "-s", "6", "--minimal", "--seed", "5")
    assert record["minimal"] is True
    puzzle, _ = read_back(record)
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            cells = list(puzzle.cells)
            cells[cell] = 0
            reduced = Puzzle.from_parsed(tuple(cells), puzzle.size, puzzle.model)
            assert solve(reduced, backend="backtrack", limit=2).status.value == "multiple"
    for index in range(len(puzzle.model.rules)):
        reduced = _without(puzzle, index)
        assert solve(reduced, backend="backtrack", limit=2).status.value == "multiple", index


def test_same_seed_same_bytes() -> None:
    args = ("generate", "-q", "--variant", "between,odd-even", "-s", "6", "-n", "2", "--seed", "9")
    first, second = run(*args), run(*args)
    assert first.exit_code == 0 and first.stdout == second.stdout
    other = run(*args[:-1], "10")
    assert other.stdout != first.stdout


def test_a_model_with_non_consecutive_makes_puzzles() -> None:
    """The solved grid was renamed by a random permutation of the digits, which breaks
    non-consecutive: every `-m nonconsecutive` puzzle came out with no solution."""
    result = run("generate", "-q", "-m", "nonconsecutive", "-s", "6", "-n", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    puzzles = [
        r.puzzle
        for r in read_input(result.stdout, model=load_model("nonconsecutive"))
        if r.puzzle is not None
    ]
    assert len(puzzles) == 2
    assert_unique(puzzles, "sat,cpsat")


@pytest.mark.parametrize("rule", ["antiking", "nonconsecutive"])
def test_the_refused_4x4_rules_have_no_grid(rule: str) -> None:
    """options.NO_GRID, proven by two paradigms: the empty 4x4 grid has no solution."""
    empty = Puzzle.from_parsed((0,) * 16, 4, load_model(rule))
    for backend in ("sat", "cpsat"):
        assert solve(empty, backend=backend).status.value == "none"
    result = run("generate", "--variant", rule, "-s", "4")
    assert result.exit_code == 2 and "no 4x4 grid with 2x2 boxes" in error_line(result)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--variant", "killer,thermo"], "killer does not combine"),
        (["--variant", "kropki,nonconsecutive"], "negative constraint"),
        (["--variant", "jigsaw,antiknight"], "jigsaw does not combine with global rules"),
        (["--variant", "arrow,arrow"], "named twice"),
        (["--variant", "arrows"], "'arrows' is not one of"),
        (["--variant", "odd-even", "--givens", "none"], "cannot fix a solution without givens"),
        (["--variant", "antiknight", "--givens", "none"], "cannot fix a solution"),
        (["--variant", "killer", "--givens", "some"], "killer-givens"),
        (["--variant", "arrow", "--givens", "none", "--clues", "3"], "no clues to count"),
        (["--variant", "arrow", "--givens", "none", "--symmetry", "mirror"], "--symmetry"),
        (["--variant", "antiking", "-f", "rows"], "--format rows"),
    ],
)
def test_bad_combinations_give_one_line(args: list[str], says: str) -> None:
    result = run("generate", *args)
    assert result.exit_code == 2
    assert says in error_line(result)


@pytest.mark.parametrize(
    ("args", "level"),
    [
        (("--variant", "xv"), "Medium"),
        (("--variant", "thermo", "-s", "6"), "Easy"),
        (("--variant", "killer-givens", "-s", "6"), "Medium"),
        (("-m", "antiknight", "-s", "6", "--variant", "arrow"), "Medium"),
    ],
)
def test_difficulty_on_variants_rates_with_the_variant_steps(
    args: tuple[str, ...], level: str
) -> None:
    """Issue 31: --difficulty on models with rules (refused before). The puzzle re-read from
    its record is unique by two backends other than the judges, and the logic rating, asked
    again here, is the level asked for, on the scale the record names."""
    from sudoku_cp.logic.rating import rate_puzzle

    (record,) = records(*args, "--difficulty", level.lower(), "--seed", "2")
    assert record["difficulty"]["level"] == level
    assert record["difficulty"]["measure"] == "hodoku+rules"
    puzzle, solution = read_back(record)
    assert puzzle.model.rules and puzzle.is_solution(solution)
    assert_unique([puzzle])
    rating = rate_puzzle(puzzle)
    assert rating.level == level and rating.outcome == "solved"
    assert rating.score == record["difficulty"]["score"]
    assert any(name.startswith("Rule ") for name, _ in rating.techniques)


def test_a_score_range_on_a_variant() -> None:
    from sudoku_cp.logic.rating import rate_puzzle

    (record,) = records("--variant", "kropki", "-s", "6", "--score", "100-400", "--seed", "4")
    puzzle, _ = read_back(record)
    assert 100 <= rate_puzzle(puzzle).score <= 400
    assert_unique([puzzle])


def test_the_quick_level_test_of_a_variant_uses_the_full_solves_techniques() -> None:
    """beyond() is sound only when its techniques are a part of the rating's own solve, in
    order: with rules that solve has no uniqueness technique and has the variant ones."""
    from sudoku_cp.generate.difficulty import _up_to
    from sudoku_cp.logic.solver import TECHNIQUES

    for level in ("Easy", "Medium", "Hard", "Unfair", "Extreme"):
        with_rules = _up_to(level, True)
        assert not {e.find for e in TECHNIQUES if e.uniqueness} & set(with_rules)
        assert {e.find for e in TECHNIQUES if e.rules and e.order < 700} <= set(with_rules)
        assert not {e.find for e in TECHNIQUES if e.rules} & set(_up_to(level))
