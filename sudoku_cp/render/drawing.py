"""A whole puzzle drawn: the canvas of :mod:`.svg` (grid, regions, digits, candidates) with
the rules drawn by :mod:`.rules` — the top of the drawing, so that the canvas and the rule
drawings import neither each other nor this.

>>> from sudoku_cp import Puzzle
>>> svg = puzzle_svg(Puzzle.parse("1...\\n..1.\\n.1..\\n...1"))
>>> svg.startswith("<svg") and svg.count('class="given"')
4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .rules import draw_rule
from .svg import HIGHLIGHT, Drawable, Picture


def puzzle_svg(
    puzzle: Drawable,
    *,
    values: Sequence[int] | None = None,
    candidates: Sequence[int] | None = None,
    highlight: Iterable[int] | Mapping[int, str] | None = None,
    cell_size: float | None = None,
    title: str | None = None,
) -> str:
    """The puzzle as a standalone SVG document.

    ``values``: the digits to show, a digit per cell in reading order (default: the givens;
    digits that are not givens are drawn in blue — pass a solution to draw it solved).
    ``candidates``: pencil marks, a bit mask per cell (bit d-1 for digit d), shown in empty
    cells. ``highlight``: cells to shade, or a mapping of cell to a CSS colour.
    ``cell_size``: pixels per cell (8 to 200; default 40, more above 16x16 so candidates stay
    legible). ``title``: the SVG's title (shown by viewers as its name or tooltip).
    Raises ValueError when a sequence has the wrong length or the cell size is out of range.
    """
    n = puzzle.size
    shown = tuple(puzzle.cells if values is None else values)
    for name, given in (("values", shown), ("candidates", candidates)):
        if given is not None and len(given) != n * n:
            raise ValueError(f"{name} has {len(given)} cells, not the {n * n} of the grid")
    picture = Picture(puzzle, cell_size=cell_size)
    picture.title = title
    if highlight is not None:
        colours = highlight if isinstance(highlight, Mapping) else dict.fromkeys(highlight, "")
        for cell, colour in colours.items():
            picture.shade((cell,), colour or HIGHLIGHT, "highlight", layer="highlight")
    draw_puzzle(picture, shown, candidates)
    return picture.svg()


def draw_puzzle(picture: Picture, values: Sequence[int], candidates: Sequence[int] | None) -> None:
    """Everything of the puzzle itself: model groups, rules, lines, digits, candidates."""
    picture.model_groups()
    for rule in picture.puzzle.model.rules:
        draw_rule(picture, rule)
    picture.grid_lines()
    picture.digits(values)
    if candidates is not None:
        picture.pencil_marks(candidates, values)
