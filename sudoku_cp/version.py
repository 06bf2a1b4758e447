"""The version of sudoku-cp, in one place: the package, the build and experiment records."""

__version__ = "0.1.0"
