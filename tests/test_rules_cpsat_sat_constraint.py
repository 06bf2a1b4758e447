"""Rules on the cpsat, sat and constraint backends (killer cages, anti-knight, anti-king,
non-consecutive and their mixes), and dlx's refusal of what exact cover does not express.

Every expected count comes from enumeration, never from a backend: every 4x4 grid of the
model is generated (rows as permutations, kept when the plain validator
``Puzzle.is_solution`` accepts them), and a puzzle's solutions are the grids the validator
accepts for it — givens, groups and each rule's own checker. Each backend must return
exactly those grids. On 9x9, the public killer set's published solutions and counts.
"""

from __future__ import annotations

import csv
import functools
import itertools
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.errors import GivensBreakRule
from sudoku_cp.model import Model, load_model, model_from_dict
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.rules import AntiKing, AntiKnight, Cage, NonConsecutive, Rule

RULE_BACKENDS = ("cpsat", "sat", "constraint")
"""The backends that compile every rule here, each with option sets worth covering."""
SETTINGS: dict[str, list[dict]] = {
    "cpsat": [{}, {"workers": 2}],
    "sat": [
        {},
        {"solver": "cadical195"},
        {"solver": "minisat22", "amo": "pairwise", "simplify": False, "redundant": False},
    ],
    "constraint": [{}, {"givens": "fixed"}, {"cages": "sum", "givens": "fixed"}, {"cages": "sum"}],
}
CASES = [(name, opts) for name in RULE_BACKENDS for opts in SETTINGS[name]]
CASE_IDS = [
    f"{name}-{'-'.join(f'{k}={v}' for k, v in opts.items()) or 'default'}" for name, opts in CASES
]


def available(name: str) -> None:
    reason = get_backend(name).unavailable_reason()
    if reason:
        pytest.skip(reason)


# --- the reference: every grid, and the validator ------------------------------------------------
@functools.cache
def all_grids(model_name: str, size: int = 4) -> tuple[tuple[int, ...], ...]:
    """Every full grid of the model: rows chosen as permutations (no digit twice in a
    column), kept when the validator accepts them."""
    empty = Puzzle([0] * size * size, model_name)
    rows = list(itertools.permutations(range(1, size + 1)))
    grids = []

    def extend(prefix: list[tuple[int, ...]]) -> None:
        if len(prefix) == size:
            grid = tuple(d for row in prefix for d in row)
            if empty.is_solution(grid):
                grids.append(grid)
            return
        for row in rows:
            if all(row[c] != other[c] for other in prefix for c in range(size)):
                extend([*prefix, row])

    extend([])
    return tuple(grids)


KNIGHT = [(1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1)]
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
ORTHOGONAL = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def plain_grids(base: str, size: int, rules: Sequence[Rule]) -> Iterator[tuple[int, ...]]:
    """Every grid of ``base`` ("classic" with 2x2 boxes at size 4, or "latin") under
    ``rules``, by a plain backtracking written here from the rules' definitions — sharing no
    code with the backends or the rules module (the tests compare it with the validator)."""
    n = size
    grid = [0] * (n * n)
    cages = [r for r in rules if isinstance(r, Cage)]
    cage_of = {c: cage for cage in cages for c in cage.cells}
    steps = {
        "knight": KNIGHT if any(isinstance(r, AntiKnight) for r in rules) else [],
        "king": KING if any(isinstance(r, AntiKing) for r in rules) else [],
    }
    consecutive = any(isinstance(r, NonConsecutive) for r in rules)

    def fits(cell: int, d: int) -> bool:
        row, col = divmod(cell, n)
        placed = range(cell)  # cells before this one in reading order are filled
        for other in placed:
            r, c = divmod(other, n)
            same_box = base == "classic" and (r // 2, c // 2) == (row // 2, col // 2)
            if grid[other] == d and (r == row or c == col or same_box):
                return False
        for dr, dc in steps["knight"] + steps["king"]:
            r, c = row + dr, col + dc
            if 0 <= r < n and 0 <= c < n and r * n + c < cell and grid[r * n + c] == d:
                return False
        if consecutive:
            for dr, dc in ORTHOGONAL:
                r, c = row + dr, col + dc
                if 0 <= r < n and 0 <= c < n and r * n + c < cell and abs(grid[r * n + c] - d) == 1:
                    return False
        cage = cage_of.get(cell)
        if cage is not None:
            digits = [grid[c] for c in cage.cells if c < cell]
            if d in digits:
                return False
            if cage.total is not None:
                total = sum(digits) + d
                if total > cage.total or (max(cage.cells) == cell and total != cage.total):
                    return False
        return True

    def fill(cell: int) -> Iterator[tuple[int, ...]]:
        if cell == n * n:
            yield tuple(grid)
            return
        for d in range(1, n + 1):
            if fits(cell, d):
                grid[cell] = d
                yield from fill(cell + 1)
                grid[cell] = 0

    return fill(0)


@functools.cache
def rule_grids(base: str, size: int, rules: tuple[Rule, ...]) -> frozenset[tuple[int, ...]]:
    """Every grid of ``base`` under ``rules``, each confirmed by the validator."""
    empty = Puzzle([0] * size * size, ruled(base, rules, size))
    grids = frozenset(plain_grids(base, size, rules))
    assert all(empty.is_solution(g) for g in grids)
    return grids


def test_the_enumeration_is_complete() -> None:
    # 288 4x4 Sudoku grids and 576 4x4 Latin squares are known counts, found here by brute force.
    assert len(all_grids("classic")) == 288
    assert len(all_grids("latin")) == 576
    assert rule_grids("classic", 4, ()) == set(all_grids("classic"))
    assert rule_grids("latin", 4, ()) == set(all_grids("latin"))


def ruled(base: str, rules: Sequence[Rule], size: int = 4) -> Model:
    return load_model(base).with_rules(rules=list(rules), size=size)


def check(puzzle: Puzzle, expected: set[tuple[int, ...]], name: str, opts: dict) -> None:
    if opts.get("workers", 1) > 1 and len(expected) > 20:
        # Several CP-SAT workers solve once per solution: 20 of them show enough.
        result = get_backend(name).solve(puzzle, limit=20, **opts)
        assert result.count == 20 and set(result.solutions) <= expected
        return
    result = get_backend(name).solve(puzzle, limit=None, **opts)
    assert result.exact
    assert len(result.solutions) == len(set(result.solutions)) == result.count
    assert set(result.solutions) == expected
    # A limit of 1 answers with one of them, or none when there is none.
    first = get_backend(name).solve(puzzle, limit=1, **opts)
    assert (first.solutions[0] in expected) if expected else first.count == 0


# --- puzzles per rule, with 0, 1 and many solutions ----------------------------------------------
def random_cages(rng: random.Random, size: int, grid: Sequence[int]) -> list[Cage]:
    """The grid cut into cages of 1 to 3 cells (a cage never repeats a digit), each with the
    sum of ``grid``'s digits in it."""
    free = list(range(size * size))
    rng.shuffle(free)
    cages = []
    while free:
        cells = [free.pop()]
        want = rng.choice((1, 2, 2, 3, 3))
        for other in list(free):
            if len(cells) == want:
                break
            if grid[other] not in {grid[c] for c in cells}:
                cells.append(other)
                free.remove(other)
        cages.append(Cage(tuple(sorted(cells)), sum(grid[c] for c in cells)))
    return cages


def puzzles_with_counts(
    model: Model,
    base: str,
    rules: Sequence[Rule],
    rng: random.Random,
    candidates: Sequence[Sequence[int]],
) -> list[tuple[Puzzle, set[tuple[int, ...]]]]:
    """Puzzles of ``model`` with no, one and many solutions (as the enumeration says), made by
    adding givens of ``candidates`` grids one at a time in a random order."""
    found: dict[str, tuple[Puzzle, set[tuple[int, ...]]]] = {}
    for grid in candidates:
        order = list(range(len(grid)))
        rng.shuffle(order)
        cells = [0] * len(grid)
        for cell in order:
            cells[cell] = grid[cell]
            try:
                puzzle = Puzzle(cells, model)
            except Exception:  # a given repeated in a group: not a puzzle at all
                break
            solutions = reference(puzzle, base, rules)
            kind = "none" if not solutions else "one" if len(solutions) == 1 else "many"
            found.setdefault(kind, (puzzle, solutions))
            if len(solutions) <= 1:
                break
    return list(found.values())


def rule_sets() -> list[tuple[str, str, int, list[Rule]]]:
    """(id, base model, size, rules): every rule alone and some mixes. Anti-king and
    non-consecutive grids exist from 5x5 Latin squares on (none at 4x4: tested too)."""
    rng = random.Random(13)
    grids = all_grids("classic")
    cages = random_cages(rng, 4, rng.choice(grids))
    other = random_cages(rng, 4, rng.choice(grids))
    wrong = [Cage(c.cells, (c.total or 0) + (1 if i % 2 else -1)) for i, c in enumerate(other)]
    latin5 = sorted(rule_grids("latin", 5, (NonConsecutive(),)))
    cages5 = random_cages(rng, 5, rng.choice(latin5))
    knights = random_cages(rng, 4, rng.choice(sorted(rule_grids("classic", 4, (AntiKnight(),)))))
    return [
        ("cages", "classic", 4, list(cages)),
        ("some-cages", "classic", 4, list(cages[: len(cages) // 2])),
        ("cages-without-sums", "classic", 4, [Cage(c.cells) for c in cages if len(c.cells) > 1]),
        ("cages-wrong-sums", "classic", 4, [c for c in wrong if c.total]),
        ("big-cage", "latin", 4, [Cage((0, 1, 4, 5), 10), Cage((2, 7), 4)]),
        ("antiknight", "classic", 4, [AntiKnight()]),
        ("antiking", "latin", 5, [AntiKing()]),
        ("antiking-4x4", "classic", 4, [AntiKing()]),
        ("nonconsecutive", "latin", 5, [NonConsecutive()]),
        ("nonconsecutive-4x4", "classic", 4, [NonConsecutive()]),
        ("antiknight-nonconsecutive", "latin", 5, [AntiKnight(), NonConsecutive()]),
        ("cages-antiknight", "classic", 4, [*knights[:2], AntiKnight()]),
        ("cages-nonconsecutive", "latin", 5, [*cages5[::4], NonConsecutive()]),
    ]


def test_plain_enumeration_agrees_with_the_validator() -> None:
    # At 4x4 every grid is cheap to validate: the plain backtracking's grids under each rule
    # set are exactly the grids the validator accepts.
    for name, base, size, rules in rule_sets():
        if size == 4:
            empty = Puzzle([0] * 16, ruled(base, rules, size))
            expected = {g for g in all_grids(base) if empty.is_solution(g)}
            assert rule_grids(base, size, tuple(rules)) == expected, name


def reference(puzzle: Puzzle, base: str, rules: Sequence[Rule]) -> set[tuple[int, ...]]:
    """The puzzle's solutions: the grids of its rules that the validator accepts for it."""
    grids = rule_grids(base, puzzle.size, tuple(rules))
    return {grid for grid in grids if puzzle.is_solution(grid)}


def ruled_puzzles() -> list[tuple[str, Puzzle, set[tuple[int, ...]]]]:
    out = []
    rng = random.Random(2026)
    for name, base, size, rules in rule_sets():
        model = ruled(base, rules, size)
        empty = Puzzle([0] * size * size, model)
        out.append((f"{name}-empty", empty, reference(empty, base, rules)))
        valid = sorted(rule_grids(base, size, tuple(rules)))
        rng.shuffle(valid)
        plain = (
            rule_grids(base, size, ())
            if size == 4
            else frozenset(itertools.islice(plain_grids(base, size, ()), 200))
        )
        invalid = sorted(plain - set(valid))
        rng.shuffle(invalid)
        for puzzle, solutions in puzzles_with_counts(
            model, base, rules, rng, valid[:3] + invalid[:3]
        ):
            out.append((f"{name}-{len(solutions)}", puzzle, solutions))
    return out


PUZZLES = ruled_puzzles()


def test_the_puzzles_cover_none_one_and_many() -> None:
    counts = {}
    for name, _, solutions in PUZZLES:
        rule = name.rsplit("-", 1)[0]
        kind = "none" if not solutions else "one" if len(solutions) == 1 else "many"
        counts.setdefault(rule, set()).add(kind)
    for rule in ("some-cages", "antiknight", "antiking", "nonconsecutive", "cages-antiknight"):
        assert counts[rule] == {"none", "one", "many"}, rule


@pytest.mark.parametrize(("name", "opts"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize(("title", "puzzle", "expected"), PUZZLES, ids=[p[0] for p in PUZZLES])
def test_solutions_equal_the_enumeration(
    name: str, opts: dict, title: str, puzzle: Puzzle, expected: set
) -> None:
    available(name)
    check(puzzle, expected, name, opts)


@pytest.mark.parametrize("name", RULE_BACKENDS)
def test_a_full_grid_is_checked_against_the_rules(name: str) -> None:
    available(name)
    grid = all_grids("classic")[0]
    knights = min(rule_grids("classic", 4, (AntiKnight(),)))
    cases = [
        (grid, [NonConsecutive()]),  # no 4x4 Sudoku grid is non-consecutive
        (knights, [AntiKnight()]),
        (grid, [Cage((0, 1), grid[0] + grid[1])]),
        (grid, [Cage((0, 1), grid[0] + grid[1] + 1)]),
    ]
    for full, rules in cases:
        try:
            puzzle = Puzzle(full, ruled("classic", rules))
        except GivensBreakRule:
            continue  # a full grid that breaks a rule is invalid on its own (issue 35)
        expected = {full} if puzzle.is_solution(full) else set()
        check(puzzle, expected, name, {})


@pytest.mark.parametrize("name", RULE_BACKENDS)
def test_a_cage_with_an_impossible_sum_has_no_solution(name: str) -> None:
    available(name)
    # Two different digits of 1..4 never sum to 2 or 8; a single cell never to 5.
    for cage in (Cage((0, 5), 2), Cage((0, 5), 8), Cage((3,), 5)):
        puzzle = Puzzle([0] * 16, ruled("classic", [cage]))
        assert reference(puzzle, "classic", [cage]) == set()
        assert get_backend(name).solve(puzzle, limit=None).count == 0


# --- 9x9: the public killer set ------------------------------------------------------------------
def killers(datasets: Path) -> list[dict]:
    path = datasets / "variants" / "killer_janko_151.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def killer_puzzle(record: dict) -> Puzzle:
    rules = [Cage(tuple(cage["cells"]), cage["sum"]) for cage in record["cages"]]
    model = load_model("classic").with_rules(rules=rules, size=record["size"])
    return Puzzle.parse(record["givens"], model)


def published(record: dict) -> tuple[int, ...]:
    return tuple(int(d) for d in record["solution"])


@pytest.mark.parametrize("name", ["cpsat", "sat"])
def test_killer_sample_matches_the_published_solutions(name: str, datasets: Path) -> None:
    available(name)
    records = killers(datasets)
    sample = records[::15] + [r for r in records if r["solution_count"] == 2]
    for record in sample:
        result = get_backend(name).solve(killer_puzzle(record), limit=3, time_limit=30)
        assert result.exact, record["id"]
        assert result.count == record["solution_count"], record["id"]
        assert published(record) in result.solutions, record["id"]
        assert all(killer_puzzle(record).is_solution(s) for s in result.solutions)


def test_killer_set_has_three_puzzles_with_two_solutions(datasets: Path) -> None:
    assert sum(r["solution_count"] == 2 for r in killers(datasets)) == 3


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cpsat", "sat"])
def test_every_killer_and_jigsaw_is_decided(name: str, datasets: Path) -> None:
    available(name)
    for record in killers(datasets):
        result = get_backend(name).solve(killer_puzzle(record), limit=2, time_limit=30)
        assert result.count == record["solution_count"], record["id"]
        assert published(record) in result.solutions, record["id"]
    for row in jigsaws(datasets):
        result = get_backend(name).solve(jigsaw_puzzle(row), limit=2, time_limit=30)
        assert result.count == int(row["solution_count"]), row["id"]
        assert result.solutions[0] == published(row), row["id"]


@pytest.mark.slow
def test_constraint_solves_some_killers(datasets: Path) -> None:
    available("constraint")
    records = killers(datasets)
    for record in records[:3] + [r for r in records if r["solution_count"] == 2][:1]:
        result = get_backend("constraint").solve(killer_puzzle(record), limit=2, time_limit=120)
        assert result.count == record["solution_count"], record["id"]
        assert published(record) in result.solutions, record["id"]


# --- dlx: what exact cover expresses, and a refusal for the rest ---------------------------------
def jigsaws(datasets: Path) -> list[dict]:
    with (datasets / "variants" / "jigsaw_janko_127.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def jigsaw_puzzle(row: dict) -> Puzzle:
    model = load_model("classic").with_rules(regions=[int(r) for r in row["regions"]])
    return Puzzle.parse(row["puzzle"], model)


@pytest.mark.parametrize(
    "rules",
    [[Cage((0, 1), 3)], [Cage((0, 1, 2, 3))], [AntiKnight()], [AntiKing()], [NonConsecutive()]],
)
def test_dlx_refuses_each_rule_by_name_before_searching(rules: list[Rule]) -> None:
    puzzle = Puzzle([0] * 16, ruled("classic", rules))
    reason = get_backend("dlx").refusal(puzzle)
    rule = rules[0]
    assert reason is not None
    assert reason.startswith(f"backend 'dlx' does not compile the {rule.title} rule ({rule.key})")
    assert "cpsat" in reason and "sat" in reason
    with pytest.raises(Exception, match=rule.key):
        get_backend("dlx").solve(puzzle)


@pytest.mark.parametrize(
    "model",
    [
        load_model("classic").with_rules(regions=[int(r) for r in "0001201122312333"]),
        model_from_dict({"groups": ["rows", "columns", "boxes", "disjoint"]}, name="disjoint"),
        load_model("x"),
        load_model("classic").with_rules(groups=[[0, 5, 10, 15]], size=4),
    ],
    ids=["jigsaw", "disjoint", "diagonals", "extra-group"],
)
@pytest.mark.parametrize("name", ["dlx", *RULE_BACKENDS])
def test_group_rules_on_every_backend(name: str, model: Model) -> None:
    available(name)
    empty = Puzzle([0] * 16, model)
    latin = all_grids("latin")
    expected = {g for g in latin if empty.is_solution(g)}
    assert expected  # the model has grids at all
    result = get_backend(name).solve(empty, limit=None)
    assert set(result.solutions) == expected and result.count == len(expected)


def test_dlx_solves_a_jigsaw_sample(datasets: Path) -> None:
    for row in jigsaws(datasets)[::25]:
        result = get_backend("dlx").solve(jigsaw_puzzle(row), limit=2)
        assert result.count == 1 and result.solutions[0] == published(row), row["id"]


@pytest.mark.slow
def test_cpsat_bare_benchmark_runs(datasets: Path) -> None:
    available("cpsat")
    from tools.perf import cpsat_bare

    results = cpsat_bare.main(["--datasets", str(datasets), "--count", "3", "--rounds", "1"])
    assert set(results) == {"killer", "jigsaw"}
    assert all(r["puzzles"] == 3 and r["ratio"] > 0 for r in results.values())
