"""Transforms that keep a puzzle the same puzzle, metamorphic properties of every backend, and
``sudoku-cp check --metamorphic K``.

The properties run for every backend in ``backend_names()`` (an unavailable one is skipped) on
small generated puzzles — random solutions of each model blanked at random, at most ``CAP``
solutions each, so that enumerating all of them stays quick even for python-constraint:

- a transform (relabelled digits, swapped rows, bands, columns, stacks, reversals, transpose —
  whatever keeps the model's groups) leaves the solution count unchanged, and maps the
  solutions of the transformed puzzle back onto exactly the solutions of the original;
- removing a given never lowers the count;
- adding a solution's digit as a given never raises it (and keeps that solution).
"""

from __future__ import annotations

import functools
import json
import random

import pytest
from clitools import run
from fault_backends import HangsOnVariants, LiesWhenFirstGivenIsOne
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from puzzles import EULER, SERG, WINDOKU, no_solution_puzzle

from sudoku_cp import Puzzle, backend_names, cross_check, get_backend
from sudoku_cp import transforms as transforms_module
from sudoku_cp.backends import backend_class
from sudoku_cp.model import load_model
from sudoku_cp.transforms import (
    Transform,
    identity,
    move_kinds,
    moves,
    preserves,
    random_transform,
    relabel,
    transforms_for,
)
from sudoku_cp.verdict import Verdict

REAL = "backtrack"
CAP = 120
"""Generated puzzles with more solutions than this are skipped (never enumerated in full)."""
# (model, size, share of cells blanked): small enough to enumerate every solution.
# About half of them have several solutions.
CASES = [
    ("classic", 4, 0.7),
    ("classic", 6, 0.55),
    ("x", 4, 0.75),
    ("latin", 4, 0.6),
    ("latin", 5, 0.55),
    ("hyper", 9, 0.5),
    ("classic", 9, 0.5),
    ("x", 9, 0.5),
]


# --- the moves each model gets -------------------------------------------------------------------
def test_each_model_gets_exactly_the_moves_that_keep_its_groups():
    assert move_kinds("classic", 9) == [
        "relabel digits",
        "swap two rows",
        "swap two bands",
        "reverse the rows",
        "swap two columns",
        "swap two stacks",
        "reverse the columns",
        "swap two rows and the same columns",
        "swap mirrored pairs of rows and the same columns",
        "swap two bands and the same stacks",
        "transpose",
    ]
    # 2x3 boxes: transposing would make them 3x2
    assert "transpose" not in move_kinds("classic", 6)
    assert "swap two bands" in move_kinds("classic", 6)
    # X: no lone row or column swap keeps both diagonals; reversals, transposes and the same
    # swap of rows and columns at mirrored places do
    x = [t.name for t in moves("x", 9)]
    assert not {"swap two rows", "swap two columns", "swap two bands"} & set(move_kinds("x", 9))
    assert {
        "transpose",
        "reverse the rows",
        "swap rows and columns 4,6",
        "swap rows and columns 1,2 and 8,9",
        "swap bands and stacks 1,3",
    } <= set(x)
    # hyper: the windows at rows and columns 2-4 and 6-8 (counting from 1) rule out band swaps
    hyper = [t.name for t in moves("hyper", 9)]
    assert "swap rows 2,3" in hyper and "swap rows 7,8" in hyper and "transpose" in hyper
    assert not [n for n in hyper if "bands" in n or n == "swap rows 1,2"]
    # latin: any two rows or columns, at any size (7 has no boxes at all)
    latin = [t.name for t in moves("latin", 7)]
    assert "swap rows 1,7" in latin and "swap columns 3,5" in latin and "transpose" in latin


@pytest.mark.parametrize(
    ("model", "size"),
    [
        ("classic", 4),
        ("classic", 6),
        ("classic", 8),
        ("classic", 9),
        ("classic", 12),
        ("x", 4),
        ("x", 9),
        ("hyper", 9),
        ("latin", 5),
        ("latin", 9),
        ("classic@3x2", 6),  # a chosen box shape: bands of 3 rows, stacks of 2 columns
        ("classic@4x2", 8),
        ("classic@4x3", 12),
        ("x@3x2", 6),
    ],
)
def test_every_move_offered_maps_groups_onto_groups_and_none_other_does(model, size):
    rules = load_model(*model.split("@"))
    offered = {t.cells for t in moves(rules, size)}
    shape = rules.box_for(size) if rules.uses_boxes else None
    for _, candidate in transforms_module._candidates(size, shape):
        assert preserves(rules, size, candidate.cells) == (candidate.cells in offered)
    groups = {frozenset(g) for g in rules.groups(size)}
    for move in moves(rules, size):
        assert {frozenset(move.cells[c] for c in g) for g in rules.groups(size)} == groups


def test_transforms_compose_and_undo():
    rng = random.Random(5)
    for model, size in (("classic", 9), ("x", 9), ("latin", 5), ("classic", 6)):
        grid = tuple(rng.randint(0, size) for _ in range(size * size))
        first = random_transform(model, size, rng)
        second = random_transform(model, size, rng)
        assert first.back(first.apply(grid)) == grid
        assert first.inverse().apply(first.apply(grid)) == grid
        assert first.then(second).apply(grid) == second.apply(first.apply(grid))
        assert first.then(second).name == f"{first.name} · {second.name}"
        assert identity(size).apply(grid) == grid
    with pytest.raises(ValueError, match="a relabelling is a permutation of 1..4"):
        relabel(4, [1, 1, 2, 3])


def test_the_same_seed_and_puzzle_give_the_same_transforms():
    puzzle = Puzzle.parse(EULER)
    names = [t.name for t in transforms_for(puzzle, 5, seed=3)]
    assert names == [t.name for t in transforms_for(puzzle, 5, seed=3)]
    assert names != [t.name for t in transforms_for(puzzle, 5, seed=4)]
    assert all(name.startswith("relabel ") for name in names)


# --- properties, for every backend --------------------------------------------------------------
def _backends() -> list:
    params = []
    for name in backend_names():
        reason = backend_class(name).unavailable_reason()
        if not backend_class(name).complete:
            reason = (
                f"{name} deduces and never counts (its soundness: tests/test_logic_soundness.py)"
            )
        params.append(pytest.param(name, marks=pytest.mark.skip(reason=reason) if reason else ()))
    return params


@functools.cache
def _a_solution(model: str, size: int) -> tuple[int, ...]:
    return get_backend(REAL).solve(Puzzle([0] * size * size, model)).solution


def _puzzle(case: tuple[str, int, float], seed: int) -> Puzzle:
    """A random solution of the case's model (a random transform of one), blanked at random."""
    model, size, share = case
    rng = random.Random(seed)
    solution = random_transform(model, size, rng).apply(_a_solution(model, size))
    return Puzzle(tuple(0 if rng.random() < share else d for d in solution), model)


def _all_solutions(backend: str, puzzle: Puzzle) -> set[tuple[int, ...]]:
    """Every solution, or a skipped example when there are more than CAP."""
    result = get_backend(backend).solve(puzzle, limit=CAP + 1, time_limit=60)
    assume(result.exact and result.count <= CAP)
    assert all(puzzle.is_solution(s) for s in result.solutions)
    return set(result.solutions)


PROPERTY = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
PUZZLES = st.tuples(st.sampled_from(CASES), st.integers(0, 2**32))


@pytest.mark.parametrize("backend", _backends())
@PROPERTY
@given(PUZZLES, st.integers(0, 2**32))
def test_a_transform_keeps_the_count_and_maps_the_solutions(backend, made, seed):
    puzzle = _puzzle(*made)
    transform = random_transform(puzzle.model, puzzle.size, random.Random(seed))
    before = _all_solutions(backend, puzzle)
    after = _all_solutions(backend, transform.puzzle(puzzle))
    assert len(after) == len(before), transform.name
    assert {transform.back(s) for s in after} == before, transform.name


@pytest.mark.parametrize("backend", _backends())
@PROPERTY
@given(PUZZLES, st.integers(0, 10**6))
def test_removing_a_given_never_lowers_the_count(backend, made, pick):
    puzzle = _puzzle(*made)
    givens = [cell for cell, digit in enumerate(puzzle.cells) if digit]
    assume(givens)
    cells = list(puzzle.cells)
    cells[givens[pick % len(givens)]] = 0
    before = _all_solutions(backend, puzzle)  # at least one: the puzzle came from a solution
    # One more than the original has is enough to show whether the count dropped.
    result = get_backend(backend).solve(
        puzzle.with_cells(cells), limit=len(before) + 1, time_limit=60
    )
    assert result.count >= len(before)
    if result.exact:  # every solution of the original is one of these
        assert before <= set(result.solutions)


@pytest.mark.parametrize("backend", _backends())
@PROPERTY
@given(PUZZLES, st.integers(0, 10**6))
def test_adding_a_solutions_digit_as_a_given_never_raises_the_count(backend, made, pick):
    puzzle = _puzzle(*made)
    before = _all_solutions(backend, puzzle)
    blanks = [cell for cell, digit in enumerate(puzzle.cells) if not digit]
    assume(before and blanks)
    solution = sorted(before)[pick % len(before)]
    cell = blanks[(pick // len(before)) % len(blanks)]
    cells = list(puzzle.cells)
    cells[cell] = solution[cell]
    after = _all_solutions(backend, puzzle.with_cells(cells))
    assert 1 <= len(after) <= len(before)
    assert solution in after and after <= before


# --- check --metamorphic K ----------------------------------------------------------------------
def records(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def counts(metamorphic: dict | None) -> dict | None:
    """The metamorphic field without the kinds of transforms used (``relabelled``,
    ``reversed``, ``moved``: how many of the random transforms renamed digits freely, reversed
    them, moved cells)."""
    if metamorphic is None:
        return None
    kinds = ("relabelled", "reversed", "moved")
    assert all(0 <= metamorphic[kind] <= metamorphic["transforms"] for kind in kinds)
    assert metamorphic["relabelled"] == 0 or metamorphic["reversed"] == 0
    return {k: v for k, v in metamorphic.items() if k not in kinds}


def test_metamorphic_agreement_on_every_verdict_and_model(tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text(f"{EULER}\n{SERG}\n{no_solution_puzzle()}\n12345\n")
    result = run(
        "check",
        str(path),
        "-b",
        f"{REAL},dlx",
        "--metamorphic",
        "3",
        "--seed",
        "7",
        "-j",
        "2",
        "-f",
        "jsonl",
        "-q",
    )
    assert result.exit_code == 1  # multiple, none, invalid: as without the option
    verdicts = {r["index"]: (r["verdict"], counts(r.get("metamorphic"))) for r in records(result)}
    agreed = {"transforms": 3, "agreed": 3, "inconclusive": 0}
    assert verdicts == {
        1: ("unique", agreed),
        2: ("multiple", agreed),
        3: ("none", agreed),
        4: ("invalid", None),
    }
    plain = run("check", str(path), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    assert all("metamorphic" not in r for r in records(plain))  # records unchanged without it
    for model, text in (("hyper", WINDOKU), ("latin", "1...\n..1.\n.1..\n...1")):
        [record] = records(
            run(
                "check",
                text,
                "-m",
                model,
                "-b",
                REAL,
                "--metamorphic",
                "4",
                "-j",
                "0",
                "-f",
                "jsonl",
                "-q",
            )
        )
        assert counts(record["metamorphic"]) == {"transforms": 4, "agreed": 4, "inconclusive": 0}
        assert record["metamorphic"]["relabelled"] >= 3  # (a random renaming may be the same)


@pytest.fixture
def liar(registered):
    registered(LiesWhenFirstGivenIsOne)
    return LiesWhenFirstGivenIsOne.name


def test_a_backend_that_depends_on_the_labels_is_caught_and_the_transform_named(liar):
    # SERG (several solutions) with digits 1 and 8 swapped, so its first given is a 1.
    swapped = SERG.translate(str.maketrans("18", "81"))
    alone = run("check", swapped, "-b", liar, "-j", "0", "-f", "jsonl", "-q")
    assert alone.exit_code == 0 and records(alone)[0]["verdict"] == "unique"  # fooled
    args = [
        "check",
        swapped,
        "-b",
        liar,
        "--metamorphic",
        "3",
        "--seed",
        "1",
        "-j",
        "1",
        "-f",
        "jsonl",
        "-q",
    ]
    caught = run(*args)
    assert caught.exit_code == 3
    [record] = records(caught)
    assert record["verdict"] == "disagreement"
    assert record["reason"].startswith("metamorphic check failed: under transform [relabel ")
    assert (
        "the verdict is multiple (2 solutions), but the original puzzle's is unique"
        in (record["reason"])
    )
    assert record["metamorphic"]["agreed"] < 3
    [again] = records(run(*args))  # the same seed: the same transforms, the same finding
    assert (again["reason"], again["metamorphic"]) == (record["reason"], record["metamorphic"])
    [other] = records(run(*[arg if arg != "1" else "2" for arg in args]))
    assert other["reason"] != record["reason"]  # another seed, other transforms


@pytest.mark.slow
def test_a_backend_hanging_on_a_variant_is_stopped_and_the_batch_completes(registered):
    registered(HangsOnVariants)
    result = run(
        "check",
        EULER,
        "-b",
        f"{REAL},{HangsOnVariants.name}",
        "--metamorphic",
        "2",
        "-t",
        "0.3",
        "-j",
        "1",
        "-f",
        "jsonl",
        "-q",
    )
    [record] = records(result)
    assert record["verdict"] == "unique"  # the others agree; the stopped one does not vote
    assert record["backends"][HangsOnVariants.name]["status"] == "timeout"
    assert counts(record["metamorphic"]) == {"transforms": 2, "agreed": 2, "inconclusive": 0}


def test_resume_keeps_the_metamorphic_settings(tmp_path):
    out = tmp_path / "out.jsonl"
    first = run(
        "check",
        EULER,
        "-b",
        REAL,
        "--metamorphic",
        "2",
        "--seed",
        "1",
        "-j",
        "0",
        "-o",
        str(out),
        "-q",
    )
    assert first.exit_code == 0
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["settings"]["metamorphic"] == 2 and meta["settings"]["seed"] == 1
    other = run(
        "check",
        EULER,
        "-b",
        REAL,
        "--metamorphic",
        "2",
        "--seed",
        "5",
        "-j",
        "0",
        "-o",
        str(out),
        "--resume",
    )
    assert other.exit_code == 2
    assert "made with seed 1, not 5" in other.stderr


def test_the_python_api_and_the_help_offer_it():
    record = cross_check(SERG, [REAL], metamorphic=2, seed=9)
    assert record.verdict is Verdict.MULTIPLE and record.metamorphic["agreed"] == 2
    assert isinstance(transforms_for(Puzzle.parse(SERG), 1)[0], Transform)
    text = run("check", "--help").output
    assert "--metamorphic K" in text and "--seed" in text and "Metamorphic check" in text


# --- rules carried over (the catalogue of tests/variants.py, counted without any backend) -------
def _catalogue() -> list:
    from variants import MAX_COUNT, catalogue

    return [entry for entry in catalogue() if entry.count <= MAX_COUNT]


def _rule_transforms(puzzle: Puzzle, seed: int = 0) -> list[Transform]:
    """Every move offered alone, and a few random transforms (digits renamed as allowed)."""
    rng = random.Random(f"{seed}/{puzzle.to_line()}")
    offered = list(moves(puzzle.model, puzzle.size))
    return offered + [random_transform(puzzle.model, puzzle.size, rng) for _ in range(6)]


@pytest.mark.parametrize("entry", _catalogue(), ids=str)
def test_a_transform_carries_every_rule_keeping_the_count_and_the_solutions(entry):
    from variants import solutions

    puzzle = entry.puzzle
    before = set(solutions(puzzle))
    for transform in _rule_transforms(puzzle):
        variant = transform.puzzle(puzzle)
        after = solutions(variant)  # by enumeration, judged by the variant's own model
        assert len(after) == entry.count, transform.name
        assert {transform.back(grid) for grid in after} == before, transform.name
        assert {transform.apply(grid) for grid in before} == set(after), transform.name


@pytest.mark.parametrize("entry", _catalogue(), ids=str)
def test_no_move_that_breaks_a_global_rule_or_a_base_group_is_offered(entry):
    model, size = entry.puzzle.model, entry.puzzle.size
    offered = {move.cells for move in moves(model, size)}
    global_rules = [rule for rule in model.rules if rule.is_global]
    base = {frozenset(g) for g in transforms_module._fixed_part(model).groups(size)}
    for _, candidate in transforms_module._candidates(size, transforms_module._shape(model, size)):
        keeps = all(rule.moved(candidate.cells, size) is not None for rule in global_rules)
        maps = {frozenset(candidate.cells[c] for c in g) for g in base} == base
        assert (candidate.cells in offered) == (keeps and maps), candidate.name


def test_the_puzzles_own_rules_move_with_the_cells():
    from variants import CAGES, JIGSAW_5

    from sudoku_cp.rules import Cage

    jigsaw = load_model("classic").with_rules(regions=JIGSAW_5, rules=[Cage((0, 1, 2), 6)])
    puzzle = Puzzle([0] * 25, jigsaw)
    names = [move.name for move in moves(jigsaw, 5)]
    # no boxes: any two rows or columns (the regions move along), reversals, transpose
    assert {"swap rows 1,5", "swap columns 2,4", "transpose", "reverse the rows"} <= set(names)
    transpose = next(move for move in moves(jigsaw, 5) if move.name == "transpose")
    moved = transpose.puzzle(puzzle).model
    assert moved.rules == (Cage((0, 5, 10), 6),)
    assert all(moved.regions[transpose.cells[c]] == JIGSAW_5[c] for c in range(25))
    assert moved.group_kinds == jigsaw.group_kinds and moved.name == jigsaw.name
    # a classic killer: every classic move, the cages carried; digits kept or reversed
    killer = load_model("classic").with_rules(rules=CAGES, size=4)
    assert [m.name for m in moves(killer, 4)] == [m.name for m in moves("classic", 4)]
    assert move_kinds(killer, 4)[0] == "reverse the digits"
    reverse = relabel(4, [4, 3, 2, 1])
    reversed_cages = reverse.puzzle(Puzzle([0] * 16, killer)).model.rules
    assert [(c.cells, c.total) for c in reversed_cages] == [
        (c.cells, 5 * len(c.cells) - c.total) for c in CAGES
    ]
    with pytest.raises(ValueError, match=r"does not keep .*killer cages"):
        relabel(4, [2, 1, 3, 4]).puzzle(Puzzle([0] * 16, killer))


def test_digits_are_renamed_only_as_the_rules_allow():
    from sudoku_cp.rules import AntiKnight, NonConsecutive

    classic = load_model("classic")
    for rule, allowed in (
        (AntiKnight(), "any"),
        (NonConsecutive(), "reverse"),
    ):
        model = classic.with_rules(rules=[rule], size=9)
        puzzle = Puzzle([0] * 81, model)
        for transform in transforms_for(puzzle, 40, seed=1):
            identity_digits = tuple(range(10))
            if allowed == "reverse":
                assert transform.digits in (identity_digits, (0, 9, 8, 7, 6, 5, 4, 3, 2, 1))
            assert (
                not transform.steps[0].startswith("relabel")
                or allowed == "any"
                or (transform.steps[0] == "relabel 123456789→987654321")
            )
    # a puzzle without rules keeps renaming every digit
    assert move_kinds("latin", 5)[0] == "relabel digits"


def test_the_metamorphic_check_says_which_transforms_it_used():
    from variants import catalogue

    jigsaw = next(e for e in catalogue() if e.name == "jigsaw 5: unique")
    record = cross_check(jigsaw.puzzle, [REAL, "dlx"], metamorphic=4, seed=2)
    assert record.verdict is Verdict.UNIQUE
    assert counts(record.metamorphic) == {"transforms": 4, "agreed": 4, "inconclusive": 0}
    assert record.metamorphic["relabelled"] >= 3 and record.metamorphic["moved"] >= 3
    assert record.metamorphic["reversed"] == 0
    # a rule that forbids renaming digits: relabelled stays 0 and reversals are counted apart;
    # a model no backend on this branch compiles is left untransformed (undecided)
    for entry in catalogue():
        if entry.name in ("killer cages with sums: unique", "non-consecutive (latin 5): unique"):
            record = cross_check(entry.puzzle, None, metamorphic=6, seed=2)
            if record.verdict is Verdict.UNDECIDED:
                assert record.metamorphic is None
                assert {run.status.value for run in record.backends.values()} == {"unsupported"}
                continue
            assert counts(record.metamorphic)["agreed"] == 6, record.reason
            assert record.metamorphic["relabelled"] == 0
            reversals = sum(t.relabels for t in transforms_for(entry.puzzle, 6, seed=2))
            assert record.metamorphic["reversed"] == reversals  # the same seed: the same ones


def test_the_record_says_when_the_rules_allowed_only_reversed_digits():
    """Whatever backends compile the rules: the kinds counted for a killer puzzle's transforms
    (no backend run here — every variant is then inconclusive, but the kinds are still told)."""
    from variants import catalogue, solutions

    from sudoku_cp.harness import check_variants
    from sudoku_cp.verdict import CheckRecord

    for name in ("killer cages with sums: unique", "anti-knight (latin 4): unique"):
        puzzle = next(e.puzzle for e in catalogue() if e.name == name)
        record = CheckRecord("1", puzzle.to_line(), Verdict.UNIQUE, 1, True, solutions(puzzle))
        used = transforms_for(puzzle, 12, seed=4)
        meta = check_variants(puzzle, record, [], used, limit=2, time_limit=None).metamorphic
        renamed = sum(t.relabels for t in used)
        assert meta["inconclusive"] == 12 and renamed > 0
        if puzzle.model.relabelling:  # anti-knight: any renaming
            assert (meta["relabelled"], meta["reversed"]) == (renamed, 0)
        else:  # cage sums: only d -> 5-d, told apart
            assert (meta["relabelled"], meta["reversed"]) == (0, renamed)
            assert all(t.digits in ((0, 1, 2, 3, 4), (0, 4, 3, 2, 1)) for t in used)
        assert meta["moved"] == sum(t.moves_cells for t in used)
