"""Rules beyond groups (sudoku_cp.rules): each rule's plain checker on hand-made grids, model
files naming rules, a puzzle's own rules (``Model.with_rules``) and their errors, the shipped
rule models on the command line, and the independent enumeration the variant tests rely on."""

from __future__ import annotations

import json

import pytest
from clitools import run
from variants import catalogue, count, latin_squares, solutions, sudoku_grids

from sudoku_cp import Puzzle, backend_names, get_backend
from sudoku_cp.errors import ModelError
from sudoku_cp.model import load_model, model_from_dict, model_names
from sudoku_cp.rules import GLOBAL_RULES, RULE_KINDS, AntiKing, AntiKnight, Cage, NonConsecutive

# 1234 / 3412 / 2143 / 4321: a 4x4 Sudoku grid (hand-made; each test below breaks it a little)
GRID = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


# --- the plain checkers ----------------------------------------------------------------------
def test_a_cage_sum_off_by_one_is_named_with_its_cell_and_both_sums():
    assert Cage((0, 1), 3).problems(GRID, 4) == []
    assert Cage((0, 1), 4).problems(GRID, 4) == ["the killer cage at r1c1 sums to 3, not 4"]
    assert Cage((15, 10, 11), 7).problems(GRID, 4) == ["the killer cage at r3c3 sums to 8, not 7"]
    assert Cage((0, 1)).problems((9, 9) + (0,) * 14, 4) == []  # no sum: only its group
    assert Cage((0, 1)).groups(4) == (((0, 1), "the killer cage at r1c1"),)


def test_a_cage_repeating_a_digit_is_caught_by_its_group():
    cages = load_model("latin").with_rules(rules=[Cage((0, 5))], size=4)  # r1c1 and r2c2
    puzzle = Puzzle([0] * 16, cages)
    assert puzzle.problems_with(GRID) == []
    repeat = (1, 2, 3, 4, 2, 1, 4, 3) + GRID[8:]  # r2c2 is now 1, like r1c1
    assert "the killer cage at r1c1 repeats 1" in puzzle.problems_with(repeat)
    assert Puzzle([0] * 16, "latin").problems_with(repeat) == puzzle.problems_with(repeat)[:-1]


def test_non_consecutive_names_each_orthogonal_pair_but_not_diagonal_ones():
    rule = NonConsecutive()
    apart = (1, 3, 1, 3, 3, 1, 3, 1) * 2  # no two neighbours consecutive
    assert rule.problems(apart, 4) == []
    one = list(apart)
    one[5] = 2  # r2c2: 3 above, beside and below it, a 1 on each diagonal
    assert rule.problems(one, 4) == [
        "non-consecutive: r1c2 and r2c2 hold 3 and 2",
        "non-consecutive: r2c1 and r2c2 hold 3 and 2",
        "non-consecutive: r2c2 and r2c3 hold 2 and 3",
        "non-consecutive: r2c2 and r3c2 hold 2 and 3",
    ]
    assert rule.allows(1, 3) and rule.allows(4, 4) and not rule.allows(3, 2)
    assert not rule.allows(2, 1)


@pytest.mark.parametrize(
    ("rule", "apart", "not_apart"),
    [
        (AntiKnight(), [(0, 6), (0, 9), (3, 5), (3, 10), (12, 5), (15, 6)], [(0, 5), (0, 1)]),
        (AntiKing(), [(0, 1), (0, 4), (0, 5), (3, 6), (12, 9)], [(0, 2), (0, 6), (0, 10)]),
    ],
)
def test_each_kind_of_pair_is_a_group_of_two_the_validator_names(rule, apart, not_apart):
    pairs = {group for group, _ in rule.groups(4)}
    for a, b in apart:
        assert (min(a, b), max(a, b)) in pairs
    for a, b in not_apart:
        assert (min(a, b), max(a, b)) not in pairs
    # a grid holding one digit twice a move apart: the validator names the pair
    latin = load_model("latin").with_rules(rules=[rule], size=4)
    a, b = apart[0]
    grid = [0] * 16
    grid[a] = grid[b] = 1
    problems = Puzzle([0] * 16, latin).problems_with([d or 2 for d in grid])
    name = f"{rule.title} r{a // 4 + 1}c{a % 4 + 1} and r{b // 4 + 1}c{b % 4 + 1} repeats 1"
    assert name in problems


def test_rules_move_with_the_cells_or_say_they_are_not_kept():
    transpose = tuple((c % 4) * 4 + c // 4 for c in range(16))
    swap_rows = tuple((c + 4) % 8 + c // 8 * 8 for c in range(16))  # rows 1 and 2 swapped
    assert Cage((0, 1), 3).moved(transpose, 4) == Cage((0, 4), 3)
    for rule in (AntiKnight(), AntiKing(), NonConsecutive()):
        assert rule.moved(transpose, 4) == rule
        assert rule.moved(swap_rows, 4) is None, rule.title


# --- model files and a puzzle's own rules -----------------------------------------------------
def test_a_model_file_names_rules_and_disjoint_groups(tmp_path):
    path = tmp_path / "knights.toml"
    path.write_text(
        'description = "d"\ngroups = ["rows", "columns", "boxes", "disjoint"]\n'
        'rules = ["antiknight", "nonconsecutive", "antiknight"]\n'
    )
    model = load_model(str(path))
    assert model.rules == (AntiKnight(), NonConsecutive())  # a repeat is read once
    assert model.rule_keys == {"antiknight", "nonconsecutive"} and not model.relabelling
    labels = model.group_labels(9)
    assert labels.count("disjoint group 1") == 1 and "disjoint group 9" in labels
    disjoint = model.groups(9)[labels.index("disjoint group 1")]
    assert disjoint == (0, 3, 6, 27, 30, 33, 54, 57, 60)
    assert "anti-knight r1c1 and r2c3" in labels
    assert model.label.endswith("knights.toml + anti-knight + non-consecutive")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            'groups = ["rows"]\nrules = ["antibishop"]',
            "unknown rule 'antibishop' (known: antiking, antiknight, nonconsecutive)",
        ),
        ('groups = ["rows"]\nrules = "antiknight"', "'rules' must be a list of rule names"),
        ('groups = ["rows"]\nrules = [1]', "'rules' must be a list of rule names"),
        ('groups = ["rows"]\nrules = ["killercage"]', "unknown rule 'killercage'"),
    ],
)
def test_bad_rule_names_are_one_line_naming_the_file(tmp_path, content, message):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    with pytest.raises(ModelError) as err:
        load_model(str(path))
    text = str(err.value)
    assert message in text and str(path) in text and "\n" not in text
    result = run("solve", "." * 16, "--model", str(path))
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_disjoint_groups_need_boxes_one_line_naming_the_model(tmp_path):
    path = tmp_path / "nobox.toml"
    path.write_text('groups = ["rows", "columns", "disjoint"]')
    model = load_model(str(path))
    assert len(model.groups(4)) == 12  # 2x2 boxes: four disjoint groups of four
    with pytest.raises(ModelError) as err:
        Puzzle([0] * 25, model)
    assert str(err.value) == "model 'nobox': disjoint groups need boxes, and size 5 has none"
    result = run("solve", "." * 25, "--model", str(path))
    assert result.exit_code == 2 and "disjoint groups need boxes" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


CLASSIC = load_model("classic")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: CLASSIC.with_rules(regions=[0, 0, 1, 1] * 2 + [2, 2, 3, 3] + [2, 3, 3, 3]),
            "regions: region 3 has 3 cells, not 4",
        ),
        (lambda: CLASSIC.with_rules(regions=[0] * 15), "regions: 15 cells is not a square grid"),
        (
            lambda: CLASSIC.with_rules(regions=[0, 0, 1, 1] * 2 + [2, 2, 3, 3] + [2, 2, 3, 4]),
            "regions: r4c4 is in region 4, not one of 0..3",
        ),
        (
            lambda: CLASSIC.with_rules(rules=[Cage((0, 16), 5)], size=4),
            "killer cage (0, 16): cell 16 is outside the 4x4 grid",
        ),
        (
            lambda: CLASSIC.with_rules(rules=[Cage((0, 1, 2, 3, 4), 15)], size=4),
            "the killer cage at r1c1 has 5 cells, more than the 4 different digits a grid has",
        ),
        (
            lambda: CLASSIC.with_rules(rules=[Cage((5, 6, 5), 9)], size=4),
            "the killer cage at r2c2 lists a cell twice",
        ),
        (
            lambda: CLASSIC.with_rules(rules=[Cage((), 0)], size=4),
            "killer cage (): a cage needs at least one cell",
        ),
        (
            lambda: CLASSIC.with_rules(rules=[Cage((0, 1), -3)], size=4),
            "the killer cage at r1c1: its sum must be a whole number from 0 to 1,000,000, not -3",
        ),
        (
            # a sum of 10**23 crashed CP-SAT's model builder with a traceback
            lambda: CLASSIC.with_rules(rules=[Cage((0, 1), 10**23)], size=4),
            "the killer cage at r1c1: its sum must be a whole number from 0 to 1,000,000, not 1",
        ),
        (
            lambda: CLASSIC.with_rules(groups=[(0, 1, 99)], size=4),
            "extra group 1: cell 99 is outside the 4x4 grid",
        ),
        (lambda: CLASSIC.with_rules(rules=[Cage((0, 1), 3)]), "a puzzle's rules need the grid's"),
        (
            lambda: load_model("hyper").with_rules(rules=[Cage((0, 1), 3)], size=4),
            "only fits size 9, not 4",
        ),
    ],
)
def test_with_rules_errors_are_one_line_naming_what_and_where(make, message):
    with pytest.raises(ModelError) as err:
        make()
    assert message in str(err.value) and "\n" not in str(err.value)


def test_with_rules_makes_a_model_of_its_own():
    regions = [0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3]
    model = CLASSIC.with_rules(regions=regions, rules=[Cage((0, 1), 3), AntiKing()])
    assert model.sizes == (4,) and model.regions == tuple(regions)
    assert model.rule_keys == {"killercage", "antiking"}
    assert (0, 1, 2, 5) in model.groups(4) and (0, 1, 4, 5) not in model.groups(4)
    assert model.label.endswith("classic.toml + regions + anti-king + killer cages")
    assert CLASSIC.rules == () and CLASSIC.regions is None  # the shared model is untouched


# --- the rule models (classic + one rule), by file ------------------------------------------------
RULE_MODELS = {  # name: (the rule's key, or None for a kind of group; the file's lines)
    "antiknight": ("antiknight", 'groups = ["rows", "columns", "boxes"]\nrules = ["antiknight"]'),
    "antiking": ("antiking", 'groups = ["rows", "columns", "boxes"]\nrules = ["antiking"]'),
    "nonconsecutive": (
        "nonconsecutive",
        'groups = ["rows", "columns", "boxes"]\nrules = ["nonconsecutive"]',
    ),
    "disjoint": (None, 'groups = ["rows", "columns", "boxes", "disjoint"]'),
}
"""The rule models as models/NAME.toml ships them (where the branch ships them: adding a model
file changes the contract suite's list of shipped models, see the tests below)."""


@pytest.fixture(params=sorted(RULE_MODELS))
def rule_model(request, tmp_path) -> tuple[str, str | None, str]:
    """(name, rule key, the model as --model takes it): the shipped file if there is one,
    else the same lines in a file of the test's own."""
    name = request.param
    key, text = RULE_MODELS[name]
    if name in model_names():
        shipped = load_model(name)
        assert shipped.group_kinds == model_from_dict(_toml(text), name=name).group_kinds
        assert shipped.rule_keys == ({key} if key else set())
        return name, key, name
    path = tmp_path / f"{name}.toml"
    path.write_text(f'description = "{name}"\n{text}\n')
    return name, key, str(path)


def _toml(text: str) -> dict:
    import tomllib

    return tomllib.loads(text)


def test_shipped_rule_models_are_listed_with_descriptions():
    shipped = [name for name in RULE_MODELS if name in model_names()]
    if not shipped:
        pytest.skip("no rule model file is shipped on this branch")
    listed = run("models").stdout
    for name in shipped:
        description = load_model(name).description
        line = next(line for line in listed.splitlines() if line.startswith(name + " "))
        assert description and description in line


def _unique_line(model: str) -> tuple[str, int]:
    """A 4x4 puzzle of ``model`` with givens added until the enumeration finds one solution
    (or the empty puzzle when it has none), and its count."""
    from variants import _unique

    empty = Puzzle([0] * 16, model)
    found = solutions(empty)
    puzzle = _unique(empty, found) if found else empty
    return puzzle.to_line(), count(puzzle)


def test_checking_plain_lines_under_a_rule_model(rule_model):
    """The verdict is the independent one — or, while no backend compiles the rule, every
    backend answers unsupported, naming it, and the verdict is undecided (exit 3)."""
    name, key, model = rule_model
    line, expected = _unique_line(model)
    result = run("check", line, "--model", model, "-j", "0", "-f", "jsonl", "-q")
    [record] = [json.loads(text) for text in result.stdout.splitlines()]
    statuses = {backend: run["status"] for backend, run in record["backends"].items()}
    deciding = [b for b, status in statuses.items() if status != "unsupported"]
    for backend, status in statuses.items():
        if status == "unsupported":  # only for a rule it does not declare, named
            assert key is not None and key not in get_backend(backend).rules
            assert f"({key})" in record["backends"][backend]["error"]
        else:
            assert status in ("unique", "multiple", "none"), (backend, record["backends"][backend])
    if deciding:
        want = {0: "none", 1: "unique"}.get(expected, "multiple")
        assert (record["verdict"], result.exit_code) == (want, 0 if want == "unique" else 1)
        assert record["count"] == min(expected, 2)
    else:
        assert record["verdict"] == "undecided" and result.exit_code == 3
        assert record["reason"].startswith("no backend finished: ")
        title = load_model(model).rules[0].title
        assert f"does not compile the {title} rule ({key})" in record["reason"]


def test_disjoint_lines_are_decided_by_exact_cover_on_this_branch_too(tmp_path):
    path = tmp_path / "disjoint.toml"
    path.write_text(RULE_MODELS["disjoint"][1])
    line, expected = _unique_line(str(path))
    assert expected == 1
    args = ["check", line, "--model", str(path), "-b", "dlx", "-j", "0", "-f", "jsonl", "-q"]
    result = run(*args)
    assert result.exit_code == 0 and json.loads(result.stdout)["verdict"] == "unique"


def test_a_rule_broken_by_the_givens_alone_is_invalid_as_a_repeat_is(tmp_path):
    # One rule for every rule (issue 35): what the givens decide by themselves is checked,
    # as a digit twice in a row is. Before, this was "none" while anti-knight was "invalid".
    path = tmp_path / "nonconsecutive.toml"
    path.write_text(RULE_MODELS["nonconsecutive"][1])
    line = "12" + "." * 79  # 1 and 2 side by side
    result = run("check", line, "--model", str(path), "-j", "0", "-f", "jsonl", "-q")
    record = json.loads(result.stdout)
    assert record["verdict"] == "invalid" and result.exit_code == 1
    assert record["reason"].endswith(
        "the givens break the non-consecutive rule: r1c1 = 1 and r1c2 = 2"
    )


# --- the independent enumeration ---------------------------------------------------------------
def test_the_enumeration_lists_every_small_grid_once():
    for size, expected in ((4, 576), (5, 161_280)):  # the known counts of Latin squares
        grids = latin_squares(size)
        assert len({tuple(g) for g in grids.tolist()}) == len(grids) == expected
    assert len(sudoku_grids(4)) == 288  # the known count of 4x4 Sudoku grids
    empty = Puzzle([0] * 16)
    assert all(empty.is_solution(tuple(int(d) for d in g)) for g in sudoku_grids(4))
    latin = Puzzle([0] * 25, "latin")
    sample = latin_squares(5)[::997]
    assert all(latin.is_solution(tuple(int(d) for d in g)) for g in sample)


def test_the_catalogue_has_none_unique_and_many_for_every_rule():
    seen: dict[str, set[str]] = {}
    for entry in catalogue():
        model = entry.puzzle.model
        kinds = set(model.rule_keys) | {
            k for k in model.group_kinds if k not in ("rows", "columns", "boxes")
        }
        if model.regions is not None:
            kinds.add("regions")
        if model.cell_groups:
            kinds.add("extra groups")
        for kind in kinds:
            seen.setdefault(kind, set()).add(
                "none" if entry.count == 0 else "unique" if entry.count == 1 else "many"
            )
    wanted = {*GLOBAL_RULES, "killercage", "diagonal", "anti-diagonal", "disjoint", "regions"}
    wanted.add("extra groups")
    for kind in wanted:
        assert seen.get(kind) == {"none", "unique", "many"}, kind


def test_every_backend_declares_only_rules_that_exist():
    known = set(RULE_KINDS)
    for name in backend_names():
        from sudoku_cp.backends import backend_class

        assert backend_class(name).rules <= known, name
