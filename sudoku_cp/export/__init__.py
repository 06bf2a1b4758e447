"""Exports: a puzzle (every rule kind, every size) written for solvers outside the tool.

One module per format, each with ``export(puzzle) -> {suffix: text}`` (MiniZinc writes a model
and a data file, the others one file):

- :mod:`.dimacs`: the certificates' CNF (:mod:`sudoku_cp.certify.cnf`), variables named in
  comments;
- :mod:`.opb`: pseudo-Boolean, cardinality and linear constraints, the rest as clauses;
- :mod:`.minizinc`: ``.mzn`` + ``.dzn`` with ``alldifferent``, ``table``, ``regular`` …;
- :mod:`.xcsp3`: XCSP3 XML written by ``pycsp3`` (the ``xcsp3`` extra).

Every rule is compiled by its shape (:mod:`.shapes`); one of an unknown shape raises
:class:`~.shapes.Unexportable` naming it, never skipped. See ``docs/export.md``.
"""

from __future__ import annotations

import importlib

from ..puzzle import Puzzle
from .shapes import Unexportable

FORMATS = ("dimacs", "opb", "minizinc", "xcsp3")


def export(puzzle: Puzzle, fmt: str) -> dict[str, str]:
    """The files (suffix → text) of ``puzzle`` in format ``fmt`` (one of :data:`FORMATS`)."""
    if fmt not in FORMATS:
        raise Unexportable(f"unknown export format {fmt!r} (choose from: {', '.join(FORMATS)})")
    module = importlib.import_module(f"{__name__}.{fmt}")
    files: dict[str, str] = module.export(puzzle)
    return files


def suffixes(fmt: str) -> tuple[str, ...]:
    """The suffixes of the files :func:`export` writes in format ``fmt`` (its module's
    ``SUFFIX``, and MiniZinc's ``DATA_SUFFIX``)."""
    module = importlib.import_module(f"{__name__}.{fmt}")
    return tuple(
        getattr(module, name) for name in ("SUFFIX", "DATA_SUFFIX") if hasattr(module, name)
    )


__all__ = ["FORMATS", "Unexportable", "export", "suffixes"]
