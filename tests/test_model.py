"""Models as data: box shapes, the groups of each shipped model, user model files, errors."""

from __future__ import annotations

import pytest

from sudoku_cp.errors import ModelError
from sudoku_cp.model import (
    MAX_SIZE,
    MODELS_DIR,
    Model,
    box_shape,
    load_model,
    model_from_dict,
    model_names,
)


@pytest.mark.parametrize(
    ("size", "shape"),
    [
        (4, (2, 2)),
        (6, (2, 3)),
        (8, (2, 4)),
        (9, (3, 3)),
        (10, (2, 5)),
        (12, (3, 4)),
        (16, (4, 4)),
        (25, (5, 5)),
        (36, (6, 6)),
        (64, (8, 8)),
        (7, None),
        (13, None),
    ],
)
def test_box_shape_is_tallest_box_with_height_at_most_width(size, shape):
    assert box_shape(size) == shape


def test_shipped_models_are_found():
    assert {"classic", "x", "hyper", "latin"} <= set(model_names())
    assert (MODELS_DIR / "classic.toml").is_file()
    for name in model_names():
        assert load_model(name).description


def cells_of(group, size):
    return sorted((cell // size, cell % size) for cell in group)


def test_classic_groups_are_rows_columns_and_boxes():
    classic = load_model("classic")
    groups = classic.groups(9)
    assert len(groups) == 27 and all(len(g) == 9 for g in groups)
    assert groups[0] == tuple(range(9))  # row 1
    assert groups[9] == tuple(range(0, 81, 9))  # column 1
    assert cells_of(groups[18], 9) == [(r, c) for r in range(3) for c in range(3)]  # box 1
    labels = classic.group_labels(9)
    assert labels[0] == "row 1" and labels[9] == "column 1" and labels[18] == "box 1"
    assert labels[26] == "box 9"
    # A 6x6 grid has six 2x3 boxes.
    box = classic.groups(6)[12]
    assert cells_of(box, 6) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]


def test_every_cell_of_a_classic_grid_has_twenty_peers():
    peers = load_model("classic").peers(9)
    assert all(len(p) == 20 for p in peers)
    assert 0 not in peers[0] and 1 in peers[0] and 9 in peers[0] and 10 in peers[0]


def test_x_adds_both_diagonals():
    groups = load_model("x").groups(9)
    assert len(groups) == 29
    assert tuple(i * 10 for i in range(9)) in groups
    assert tuple(i * 9 + 8 - i for i in range(9)) in groups


def test_hyper_adds_four_windows_at_rows_and_columns_1_and_5():
    hyper = load_model("hyper")
    windows = hyper.groups(9)[27:]
    corners = sorted(min(cells_of(w, 9)) for w in windows)
    assert corners == [(1, 1), (1, 5), (5, 1), (5, 5)]
    assert all(len(w) == 9 for w in windows)


def test_latin_has_no_boxes_and_fits_any_size():
    latin = load_model("latin")
    assert len(latin.groups(7)) == 14
    assert latin.fits(7) is None and latin.fits(MAX_SIZE) is None


@pytest.mark.parametrize(
    ("name", "size", "message"),
    [
        ("hyper", 16, "model 'hyper' only fits size 9, not 16"),
        ("classic", 7, "needs boxes, and size 7 has no box shape"),
        ("classic", MAX_SIZE + 1, f"size {MAX_SIZE + 1} is outside the supported range"),
        ("latin", 0, "size 0 is outside the supported range"),
    ],
)
def test_sizes_a_model_cannot_take(name, size, message):
    model = load_model(name)
    assert message in model.fits(size)
    with pytest.raises(ModelError, match=message):
        model.groups(size)


def test_unknown_model_lists_the_known_ones():
    with pytest.raises(ModelError, match=r"unknown model 'sudokuu' \(known models: .*classic"):
        load_model("sudokuu")


def test_a_user_model_file(tmp_path):
    path = tmp_path / "corners.toml"
    path.write_text(
        'description = "Latin square with the four corners different"\n'
        'groups = ["rows", "columns"]\n'
        "[[cells]]\n"
        "cells = [[0, 0], [0, 3], [3, 0], [3, 3]]\n"
    )
    model = load_model(str(path))
    assert model.name == "corners" and model.path == str(path)
    assert model.groups(4)[-1] == (0, 3, 12, 15)
    assert model.group_labels(4)[-1] == "group 1"
    assert load_model(model) is model


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('groups = ["rows", "squares"]', "unknown group name(s) 'squares'"),
        ('groups = ["rows"]\ncolour = "red"', "unknown key(s) colour"),
        ("groups = [rows", "is not valid TOML"),
        ("groups = []", "no groups"),
        ('groups = "rows"', "'groups' must be a list of group names"),
        ('groups = ["rows"]\nsizes = [0]', "'sizes' must be a list of sizes"),
        (
            'groups = ["rows"]\n[[windows]]\nrow = 1\ncol = 1\nheight = 3',
            "window 1 must have integer row, col, height and width",
        ),
        ('groups = ["rows"]\n[[cells]]\ncells = "a1"', "cell group 1 must be"),
    ],
)
def test_bad_model_files_say_what_is_wrong(tmp_path, content, message):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    with pytest.raises(ModelError) as info:
        load_model(str(path))
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_groups_outside_the_grid_are_refused_at_that_size(tmp_path):
    path = tmp_path / "far.toml"
    path.write_text('groups = ["rows"]\n[[cells]]\ncells = [[0, 0], [9, 9]]\n')
    model = load_model(str(path))
    with pytest.raises(ModelError, match=r"cell \[9, 9\] is outside the 9x9 grid"):
        model.groups(9)
    window = tmp_path / "window.toml"
    window.write_text('groups = ["rows"]\n[[windows]]\nrow = 7\ncol = 7\nheight = 3\nwidth = 3\n')
    with pytest.raises(ModelError, match="does not fit a 9x9 grid"):
        load_model(str(window)).groups(9)


def test_model_files_that_cannot_be_read(tmp_path):
    with pytest.raises(ModelError, match="model file not found"):
        load_model(str(tmp_path / "missing.toml"))
    with pytest.raises(ModelError, match="is a directory"):
        load_model(str(tmp_path) + "/")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ModelError, match="is not UTF-8 text"):
        load_model(str(binary))


def test_models_are_values():
    made = model_from_dict({"groups": ["rows", "columns"]}, name="latin2")
    assert isinstance(made, Model) and made.group_kinds == ("rows", "columns")
    assert load_model("classic") == load_model("classic")
    assert hash(load_model("classic")) == hash(load_model("classic"))


def test_a_rule_group_too_big_for_its_digits_is_named() -> None:
    # A renban of 10 cells on 9x9 was "a group of 10 cells cannot hold different digits",
    # naming neither the rule nor where it is.
    from sudoku_cp.rules import Renban

    line = (0, 1, 2, 3, 4, 5, 6, 7, 8, 17)
    with pytest.raises(ModelError, match=r"the renban line r1c1-.*-r2c9: 10 cells cannot hold"):
        load_model("classic").with_rules(rules=[Renban(line)], size=9)


def test_a_model_file_with_a_byte_order_mark_is_read(tmp_path) -> None:
    # Windows editors start UTF-8 files with a BOM, which is no TOML ("Invalid statement").
    path = tmp_path / "latin.toml"
    path.write_bytes(b'\xef\xbb\xbfgroups = ["rows", "columns"]\n')
    assert load_model(str(path)).group_kinds == ("rows", "columns")


@pytest.mark.parametrize(
    "kinds",
    [("rows", "columns", "Boxes"), "rows", ["rows", "columns"]],
    ids=["typo", "str", "list"],
)
def test_a_model_made_in_code_checks_its_group_kinds(kinds) -> None:
    # A typo ('Boxes') silently made no group, a str was read letter by letter; a model file
    # with the same groups is refused
    from sudoku_cp.model import Model

    with pytest.raises(ModelError, match="group_kinds must be a tuple of"):
        Model("mine", "made in code", kinds)
