"""The examples in the package's docstrings, run against the installed package.

(pytest's ``--doctest-modules`` would import the checkout's files, which CI's normal,
non-editable install does not hold: it collects each module twice and refuses.)
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import sudoku_cp

MODULES = sorted(
    module.name
    for module in pkgutil.walk_packages(sudoku_cp.__path__, "sudoku_cp.")
    if not module.name.endswith("__main__")  # running it is the command line itself
)


def test_every_module_is_found() -> None:
    assert {"sudoku_cp.puzzle", "sudoku_cp.harness", "sudoku_cp.formats.line"} <= set(MODULES)


@pytest.mark.parametrize("name", ["sudoku_cp", *MODULES])
def test_the_examples_in_the_docstrings_hold(name: str) -> None:
    if name.startswith("sudoku_cp.backends.backtrack.kernel.") and not name.endswith(".glue"):
        pytest.importorskip("numba")  # the optional compiled kernels (the jit extra)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
