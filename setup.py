"""Package discovery beside pyproject.toml (which holds everything else).

Every package under ``sudoku_cp/`` is found, so a new subpackage needs no list to be kept;
``tools/`` (developer scripts such as ``tools/perf``) and ``tests/`` are never installed.
``models/`` lives at the top of the repository (rules as data) and is installed inside the
package as ``sudoku_cp._models``, so wheels find it too: a folder mapped to a package name,
which ``[tool.setuptools.packages.find]`` cannot express (it only finds folders as they lie).
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["sudoku_cp", "sudoku_cp.*"]), "sudoku_cp._models"],
    package_dir={"sudoku_cp._models": "models"},
)
