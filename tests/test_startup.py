"""Start-up stays light: importing the command line (what ``sudoku-cp --help`` needs) loads no
model, backend, harness or batch code and no solver library; those come with the command that
uses them. Run in a fresh interpreter, since this test process has imported everything."""

from __future__ import annotations

import subprocess
import sys

LAZY = (
    "sudoku_cp.backends",
    "sudoku_cp.model",
    "sudoku_cp.puzzle",
    "sudoku_cp.harness",
    "sudoku_cp.batch",
    "sudoku_cp.formats",
    "sudoku_cp.result",
    "rich",
    "ortools",
    "pysat",
    "constraint",
    "importlib.metadata",
)


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nsys.stderr.write(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stderr  # (standard output has the help text)
    return set(out.split())


def _loaded(modules: set[str], name: str) -> bool:
    return name in modules or any(m.startswith(name + ".") for m in modules)


def test_importing_the_cli_loads_none_of_the_heavy_modules() -> None:
    modules = _modules_after("import sudoku_cp.cli")
    assert "sudoku_cp.cli.app" in modules
    assert [name for name in LAZY if _loaded(modules, name)] == []


def test_help_loads_none_of_them_either() -> None:
    code = "from sudoku_cp.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n  pass"
    modules = _modules_after(code)
    assert [name for name in LAZY if _loaded(modules, name)] == []


def test_public_names_still_come_on_first_use() -> None:
    modules = _modules_after("import sudoku_cp\nsudoku_cp.Puzzle")
    assert "sudoku_cp.puzzle" in modules and "sudoku_cp.harness" not in modules
    import sudoku_cp

    assert sudoku_cp.solve("12..............", limit=2).status.value == "multiple"
    assert {"Puzzle", "check_puzzles", "cross_check"} <= set(dir(sudoku_cp))
