"""Writing a grid in each output form: pretty (boxed), line, rows, JSON.

Each reads back with :func:`sudoku_cp.formats.parse_puzzle`. The line form's writer,
:func:`~sudoku_cp.formats.line.format_line`, lives with its reader in :mod:`.line`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import SudokuError
from ..model import Model, box_shape, load_model
from .line import SYMBOLS, format_line

OUTPUT_FORMATS = ("pretty", "line", "json", "rows")
"""Names accepted by :func:`format_grid`."""


def _check_cells(cells: Sequence[int], size: int) -> None:
    if len(cells) != size * size:
        raise ValueError(f"{len(cells)} cells do not make a {size}x{size} grid")


def format_pretty(cells: Sequence[int], size: int, model: Model | str | None = None) -> str:
    """A boxed grid: box separators from the model's box shape, ``.`` for blanks.

    Grids above 35×35 show numbers, padded to line up; a model without boxes (``latin``), or
    whose regions replace them (jigsaw), gets no separators: box lines there would mislead.

    >>> print(format_pretty([1, 2, 3, 4, 5, 6] + [0] * 30, 6))
    1 2 3 | 4 5 6
    . . . | . . .
    ------+------
    . . . | . . .
    . . . | . . .
    ------+------
    . . . | . . .
    . . . | . . .
    """
    _check_cells(cells, size)
    rules = load_model(model) if model is not None else None
    if rules is None:
        shape = box_shape(size)
    else:
        regular = rules.uses_boxes and rules.regions is None
        shape = rules.box_for(size) if regular else None
    height, width = shape if shape and shape != (1, 1) else (size, size)
    if size > len(SYMBOLS):
        pad = len(str(size))
        shown = [str(d).rjust(pad) if d else ".".rjust(pad) for d in cells]
    else:
        shown = [SYMBOLS[d - 1] if d else "." for d in cells]
    lines = []
    for r in range(size):
        row = shown[r * size : (r + 1) * size]
        parts = [" ".join(row[c : c + width]) for c in range(0, size, width)]
        if r and r % height == 0:
            lines.append("-+-".join("-" * len(p) for p in parts))
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def format_rows(cells: Sequence[int], size: int) -> str:
    """N lines of N integers separated by spaces, ``0`` blank, padded to line up.

    >>> print(format_rows([1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1], 4))
    1 0 0 0
    0 0 1 0
    0 1 0 0
    0 0 0 1
    """
    _check_cells(cells, size)
    pad = len(str(size))
    return "\n".join(
        " ".join(str(d).rjust(pad) for d in cells[r * size : (r + 1) * size]) for r in range(size)
    )


def json_rows(cells: Sequence[int], size: int) -> list[list[int]]:
    """The JSON form's data: N lists of N integers, ``0`` blank.

    >>> json_rows([1, 0, 0, 2], 2)
    [[1, 0], [0, 2]]
    """
    _check_cells(cells, size)
    return [list(cells[r * size : (r + 1) * size]) for r in range(size)]


def format_json(cells: Sequence[int], size: int) -> str:
    """A list of N lists of N integers on one line, ``0`` blank (one line, so JSON Lines too).

    >>> format_json([1, 0, 0, 2], 2)
    '[[1, 0], [0, 2]]'
    """
    import json  # (here: a plain solve prints no JSON)

    return json.dumps(json_rows(cells, size))


def format_grid(
    cells: Sequence[int], size: int, fmt: str = "pretty", model: Model | str | None = None
) -> str:
    """The grid in the output format named ``fmt``: one of :data:`OUTPUT_FORMATS`.

    >>> format_grid([1, 0, 0, 2], 2, "line")
    '1..2'
    """
    name = fmt.lower() if isinstance(fmt, str) else fmt
    if name == "pretty":
        return format_pretty(cells, size, model)
    if name == "line":
        return format_line(cells, size)
    if name == "json":
        return format_json(cells, size)
    if name == "rows":
        return format_rows(cells, size)
    raise SudokuError(f"unknown output format {fmt!r} (choose from: {', '.join(OUTPUT_FORMATS)})")
