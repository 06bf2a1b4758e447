"""The package's shape (issue 32): no import circles, read statically by ``tools/structure.py``
(function-level and TYPE_CHECKING imports count); one table of rule kinds; every package found
by setup.py's discovery."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from tools import structure

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def modules() -> dict[str, structure.Module]:
    return structure.load(REPO)


def test_no_two_modules_import_each_other(modules) -> None:
    circles = structure.module_cycles(modules)
    assert circles == [], "\n".join(structure.cycle_lines(modules))


def test_no_two_folders_import_each_other(modules) -> None:
    circles = structure.folder_cycles(modules)
    assert circles == [], "\n".join(structure.cycle_lines(modules))


def _tree(tmp_path: Path, files: dict[str, str]) -> dict[str, structure.Module]:
    for name, text in files.items():
        path = tmp_path / "sudoku_cp" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return structure.load(tmp_path)


def test_a_circle_through_a_function_level_or_type_only_import_is_found(tmp_path) -> None:
    modules = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "def f():\n    from .b import g\n",
            "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n",
            "c.py": "import sudoku_cp.a\n",
            "sub/__init__.py": "from .d import x\n",
            "sub/d.py": '"""D."""\nfrom .. import c\nfrom ..a import f\n',
        },
    )
    assert modules["sudoku_cp.sub.d"].imports == {"sudoku_cp.c", "sudoku_cp.a"}
    assert modules["sudoku_cp.sub"].imports == {"sudoku_cp.sub.d"}
    assert modules["sudoku_cp.sub.d"].doc == "D."
    assert structure.module_cycles(modules) == [["sudoku_cp.a", "sudoku_cp.b"]]
    assert structure.folder_cycles(modules) == []  # the root's own modules are left out


def test_a_circle_between_two_folders_is_found(tmp_path) -> None:
    modules = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "p/__init__.py": "",
            "p/one.py": "from ..q.two import y\n",
            "p/three.py": "",
            "q/__init__.py": "",
            "q/two.py": "def y():\n    from ..p import three\n",
        },
    )
    assert structure.module_cycles(modules) == []  # no module imports itself round a loop
    assert structure.folder_cycles(modules) == [["sudoku_cp.p", "sudoku_cp.q"]]
    lines = structure.cycle_lines(modules)
    assert "folder circles: 1" in lines
    assert "    sudoku_cp.q → sudoku_cp.p: sudoku_cp.q.two → sudoku_cp.p.three" in lines


def test_the_tree_has_a_line_per_module_with_its_length_and_first_docstring_line(
    modules,
) -> None:
    lines = structure.tree_lines(modules, REPO)
    assert len(lines) == len(modules)
    row = next(line for line in lines if line.startswith("sudoku_cp/verdict.py "))
    assert int(row.split()[1]) == len((REPO / "sudoku_cp" / "verdict.py").read_text().splitlines())
    assert "The harness's records" in row


def test_every_folder_of_python_code_is_a_package_the_wheel_finds() -> None:
    # setup.py's find_packages only finds folders with an __init__.py: one without would be
    # left out of the wheel silently.
    for folder in sorted({p.parent for p in (REPO / "sudoku_cp").rglob("*.py")}):
        assert (folder / "__init__.py").is_file(), folder
    assert not (REPO / "sudoku_cp" / "perf").exists()  # developer scripts: tools/perf


def test_the_rule_kinds_are_one_table() -> None:
    from sudoku_cp import rules

    assert [key for key, _, _ in rules.KINDS] == list(rules.RULE_KINDS)
    assert all(cls.key == key for key, cls in rules.RULE_KINDS.items())
    assert set(rules.GLOBAL_RULES) == set(rules.GLOBAL_KEYS) <= rules.RULE_KEYS
    # the TYPE_CHECKING imports (what mypy reads) name exactly the lazy names, module for module
    tree = ast.parse((REPO / "sudoku_cp" / "rules" / "__init__.py").read_text())
    typed = {
        alias.name: node.module
        for block in tree.body
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    derived = {"GLOBAL_KEYS", "GLOBAL_RULES", "KINDS", "RULE_KEYS", "RULE_KINDS", "global_rule"}
    assert set(typed) == set(rules.__all__) - derived
    assert all(typed[name] == module for _, module, name in rules.KINDS)


def test_a_room_and_its_inner_folder_are_one_room_but_two_rooms_are_not(tmp_path) -> None:
    # backends/backtrack/kernel reads layout.py at the backtracker's foot while the search
    # above calls the kernel: one room's layering, which the module graph still checks.
    modules = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "room/__init__.py": "",
            "room/layout.py": "",
            "room/search.py": "from .inner import glue\n",
            "room/inner/__init__.py": "",
            "room/inner/glue.py": "from ..layout import x\n",
            "other/__init__.py": "",
            "other/a.py": "from ..room import search\n",
            "room/uses_other.py": "from ..other import a\n",
        },
    )
    assert structure.module_cycles(modules) == []
    assert structure.folder_cycles(modules) == [["sudoku_cp.other", "sudoku_cp.room"]]


def test_no_module_imports_another_modules_private_names(modules) -> None:
    # Issue 32: what one module uses of another is that module's public surface. Names that
    # start with one underscore imported by `from X import _name` are private; aliases such as
    # `import datetime as _dt` are the importer's own business and allowed.
    reaches = []
    for module in modules.values():
        tree = ast.parse(module.path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                for alias in node.names:
                    private = alias.name.startswith("_") and not alias.name.startswith("__")
                    if private:
                        reaches.append(f"{module.name}: from {node.module} import {alias.name}")
    assert reaches == []


@pytest.mark.parametrize("room", ["backtrack", "sat"])
def test_each_solving_room_names_the_same_small_surface(room: str) -> None:
    # Issue 32: the generator, choice and true candidates use a room through these names only.
    import importlib
    import sys

    package = importlib.import_module(f"sudoku_cp.backends.{room}")
    for name in ("Solver", "available", "warm_up"):
        assert name in package.__all__, name
    assert isinstance(package.available(), bool)
    package.warm_up()
    if room == "sat" and package.available():
        assert "pysat.solvers" in sys.modules
