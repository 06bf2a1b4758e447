"""The canvas of a puzzle's SVG picture: its grid, regions, digits and candidates.

:class:`Picture` collects elements in named layers and writes them in a fixed order (shading
under lines, lines under digits, marks on top), so callers may add in any order;
:func:`~.drawing.puzzle_svg` draws a puzzle with it (the rules of :mod:`sudoku_cp.rules` drawn
by :mod:`.rules`), and :mod:`.steps` adds a step's highlights. Every text and attribute is
escaped. Colours are presentation attributes (not a style sheet), so the picture looks the
same inline in a page, in a notebook and as a file.

>>> num(12.5), num(-0.001), symbol(10)
('12.5', '0', 'A')
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..model import Model


class Drawable(Protocol):
    """What a picture needs of a puzzle (a :class:`~sudoku_cp.puzzle.Puzzle` is one): drawing
    reads the grid, it never imports the class, so the puzzle's notebook hook may call down
    into this package without an import circle."""

    @property
    def size(self) -> int: ...
    @property
    def cells(self) -> tuple[int, ...]: ...
    @property
    def model(self) -> Model: ...
    def groups(self) -> tuple[tuple[int, ...], ...]: ...


MIN_CELL, MAX_CELL = 8, 200
"""The cell sizes accepted, in pixels (a user-given number is capped)."""

LAYERS = (
    "background",
    "shade",
    "highlight",
    "rule-shade",
    "grid",
    "rule-line",
    "cage",
    "border",
    "mark",
    "behind-digit",
    "link",  # under the digits: a chain's arrows never hide a given or a candidate
    "digit",
    "over-digit",
    "outside",
    "caption",
)
"""The order layers are written in: each one paints over the ones before it."""

INK = "#000"
PLACED = "#1a56c4"
"""Digits that are not givens (a solution, a step's grid) are drawn in this colour."""
PENCIL = "#555"
THIN = "#999"
WINDOW = "#d7e6f5"
HIGHLIGHT = "#fff0a0"
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""How the tool writes digits (``sudoku_cp.formats.line``): 10 is ``A``, 11 ``B`` …"""


def symbol(digit: int) -> str:
    """The digit as the line form writes it (``A`` for 10); numbers past the symbols as is."""
    return SYMBOLS[digit - 1] if 1 <= digit <= len(SYMBOLS) else str(digit)


def num(value: float) -> str:
    """A coordinate, short: two decimals at most."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def element(tag: str, text: str | None = None, **attrs: object) -> str:
    """One element, every attribute and the text escaped (``class_`` writes ``class``;
    other underscores become hyphens: ``stroke_width``)."""
    parts = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        name = "class" if key == "class_" else key.replace("_", "-")
        shown = num(value) if isinstance(value, float) else str(value)
        parts.append(f'{name}="{escape(shown, quote=True)}"')
    opening = " ".join(parts)
    if text is None:
        return f"<{opening}/>"
    return f"<{opening}>{escape(text, quote=False)}</{tag}>"


def cell_regions(puzzle: Drawable) -> tuple[int, ...] | None:
    """A region number per cell (a jigsaw's regions or the boxes), or None when the model
    has neither (latin squares): thick lines go wherever neighbours' numbers differ."""
    n, model = puzzle.size, puzzle.model
    if model.regions is not None:
        return model.regions
    shape = model.box_for(n) if model.uses_boxes else None
    if shape is None:
        return None
    height, width = shape
    return tuple(
        (cell // n) // height * (n // width) + (cell % n) // width for cell in range(n * n)
    )


def needs_margin(puzzle: Drawable) -> bool:
    """Whether clues sit outside the grid (little killers, sandwiches, skyscrapers, X-sums)."""
    from ..rules import LittleKiller, Sandwich, Skyscraper, XSum  # (a plain grid needs none)

    outside = LittleKiller | Sandwich | Skyscraper | XSum
    return any(isinstance(rule, outside) for rule in puzzle.model.rules)


class Picture:
    """The picture of one ``size`` grid: geometry, and elements gathered by layer."""

    def __init__(self, puzzle: Drawable, *, cell_size: float | None = None) -> None:
        n = puzzle.size
        if cell_size is None:
            # Room for a sub-grid of candidates at least 9 px a digit (5x5 on 25x25).
            cell_size = max(40, 9 * math.isqrt(n - 1) + 9)
        if isinstance(cell_size, bool) or not MIN_CELL <= cell_size <= MAX_CELL:
            raise ValueError(f"cell size must be from {MIN_CELL} to {MAX_CELL} px, not {cell_size}")
        self.puzzle = puzzle
        self.n = n
        self.s = float(cell_size)
        self.margin = self.s * 0.9 if needs_margin(puzzle) else max(4.0, self.s * 0.1)
        self.caption_height = self.s * 0.45
        self.captions: list[str] = []
        self.layers: dict[str, list[str]] = {name: [] for name in LAYERS}
        self.title: str | None = None
        self.clones_drawn = 0
        """Clones drawn so far: each pair takes the next colour."""

    # --- geometry ----------------------------------------------------------------------------
    def x(self, col: float) -> float:
        """The left edge of column ``col`` (fractions: inside it)."""
        return self.margin + col * self.s

    def y(self, row: float) -> float:
        return self.margin + row * self.s

    def centre(self, cell: int) -> tuple[float, float]:
        row, col = divmod(cell, self.n)
        return self.x(col + 0.5), self.y(row + 0.5)

    @property
    def pencil_columns(self) -> int:
        """Candidates sit in a sub-grid this many wide (3 for 9x9, 5 for 25x25)."""
        return max(2, math.isqrt(self.n - 1) + 1)

    def pencil(self, cell: int, digit: int) -> tuple[float, float]:
        """Where candidate ``digit`` of ``cell`` is written."""
        k = self.pencil_columns
        row, col = divmod(cell, self.n)
        sub_row, sub_col = divmod(digit - 1, k)
        return self.x(col + (sub_col + 0.5) / k), self.y(row + (sub_row + 0.5) / k)

    @property
    def pencil_size(self) -> float:
        return self.s / self.pencil_columns * 0.8

    def add(self, layer: str, tag: str, text: str | None = None, /, **attrs: object) -> None:
        self.layers[layer].append(element(tag, text, **attrs))

    def caption(self, text: str) -> None:
        """A line of text under the grid (rules that have no place on it: anti-knight …)."""
        self.captions.append(text)

    # --- the parts of every picture ------------------------------------------------------------
    def shade(
        self, cells: Iterable[int], colour: str, cls: str, layer: str = "shade", **extra: object
    ) -> None:
        for cell in cells:
            row, col = divmod(cell, self.n)
            self.add(
                layer, "rect", class_=cls, x=self.x(col), y=self.y(row), width=self.s,
                height=self.s, fill=colour, **extra,
            )  # fmt: skip

    def grid_lines(self) -> None:
        """Thin lines between every two cells; thick ones between regions; the frame."""
        n, s = self.n, self.s
        thin = max(0.5, s / 40)
        for i in range(1, n):
            self.add("grid", "line", class_="cell-line", x1=self.x(i), y1=self.y(0),
                     x2=self.x(i), y2=self.y(n), stroke=THIN, stroke_width=thin)  # fmt: skip
            self.add("grid", "line", class_="cell-line", x1=self.x(0), y1=self.y(i),
                     x2=self.x(n), y2=self.y(i), stroke=THIN, stroke_width=thin)  # fmt: skip
        thick = max(2.0, s / 14)
        regions = cell_regions(self.puzzle)
        if regions is not None:
            for cell in range(n * n):
                row, col = divmod(cell, n)
                if col + 1 < n and regions[cell] != regions[cell + 1]:
                    self.add("border", "line", class_="region-border", x1=self.x(col + 1),
                             y1=self.y(row), x2=self.x(col + 1), y2=self.y(row + 1), stroke=INK,
                             stroke_width=thick, stroke_linecap="square")  # fmt: skip
                if row + 1 < n and regions[cell] != regions[cell + n]:
                    self.add("border", "line", class_="region-border", x1=self.x(col),
                             y1=self.y(row + 1), x2=self.x(col + 1), y2=self.y(row + 1),
                             stroke=INK, stroke_width=thick, stroke_linecap="square")  # fmt: skip
        self.add("border", "rect", class_="grid-frame", x=self.x(0), y=self.y(0), width=n * s,
                 height=n * s, fill="none", stroke=INK, stroke_width=thick)  # fmt: skip

    def model_groups(self) -> None:
        """What the model adds to rows, columns and boxes: diagonals, windows, listed groups."""
        model, n = self.puzzle.model, self.n
        width = max(1.0, self.s / 18)
        if "diagonal" in model.group_kinds:
            self.add("rule-shade", "line", class_="diagonal", x1=self.x(0), y1=self.y(0),
                     x2=self.x(n), y2=self.y(n), stroke="#7f9fbf", stroke_width=width)  # fmt: skip
        if "anti-diagonal" in model.group_kinds:
            self.add("rule-shade", "line", class_="diagonal", x1=self.x(n), y1=self.y(0),
                     x2=self.x(0), y2=self.y(n), stroke="#7f9fbf", stroke_width=width)  # fmt: skip
        for row, col, height, wide in model.windows:
            self.add("shade", "rect", class_="window", x=self.x(col), y=self.y(row),
                     width=wide * self.s, height=height * self.s, fill=WINDOW)  # fmt: skip
        for cells in model.cell_groups:
            self.shade((r * n + c for r, c in cells), "#e6e6e6", "extra-group")
        if "disjoint" in model.group_kinds:
            self.caption("disjoint groups: cells in the same place of every box differ")

    def digits(self, values: Sequence[int]) -> None:
        """Givens bold in black, every other digit in :data:`PLACED`."""
        givens = self.puzzle.cells
        font = self.s * 0.62
        for cell, digit in enumerate(values):
            if not digit:
                continue
            cx, cy = self.centre(cell)
            given = givens[cell] == digit
            self.add("digit", "text", symbol(digit), class_="given" if given else "placed",
                     x=cx, y=cy, font_size=font, font_weight="bold" if given else None,
                     fill=INK if given else PLACED, text_anchor="middle",
                     dominant_baseline="central", font_family="sans-serif")  # fmt: skip

    def pencil_marks(
        self, candidates: Sequence[int], values: Sequence[int], skip: Iterable[tuple[int, int]] = ()
    ) -> None:
        """Each empty cell's candidates (a bit mask, bit d-1 for digit d) in its sub-grid;
        ``skip`` lists candidates the caller draws itself (coloured)."""
        left_out = set(skip)
        # One group carries the shared font and colour: a 25x25 grid has 15,625 candidates,
        # and each element then holds only its place (a third of the size and time).
        marks = []
        for cell, mask in enumerate(candidates):
            if values[cell]:
                continue
            for digit in range(1, self.n + 1):
                if mask >> (digit - 1) & 1 and (cell, digit) not in left_out:
                    x, y = self.pencil(cell, digit)
                    marks.append(
                        f'<text class="candidate" x="{num(x)}" y="{num(y)}">{symbol(digit)}</text>'
                    )
        if marks:
            group = element("g", class_="pencil-marks", font_size=self.pencil_size, fill=PENCIL,
                            text_anchor="middle", dominant_baseline="central",
                            font_family="sans-serif")  # fmt: skip
            self.layers["digit"].append(group[:-2] + ">" + "".join(marks) + "</g>")

    def candidate(self, cell: int, digit: int, colour: str, cls: str, **extra: object) -> None:
        px, py = self.pencil(cell, digit)
        self.add("digit", "text", symbol(digit), class_=cls, x=px, y=py,
                 font_size=self.pencil_size, fill=colour, text_anchor="middle",
                 dominant_baseline="central", font_family="sans-serif", **extra)  # fmt: skip

    # --- writing -------------------------------------------------------------------------------
    def svg(self) -> str:
        """The whole picture: a standalone SVG document (no external references)."""
        side = self.n * self.s + 2 * self.margin
        # Wrapped to the grid's width (a character is about 0.55 of the font size wide).
        width = max(20, int(self.n * self.s / (self.caption_height * 0.75 * 0.55)))
        wrapped = [line for text in self.captions for line in textwrap.wrap(text, width)]
        lines = len(wrapped)
        height = side + lines * self.caption_height + (self.s * 0.2 if lines else 0)
        for number, text in enumerate(wrapped):
            self.add("caption", "text", text, class_="caption", x=self.x(0),
                     y=side + (number + 0.75) * self.caption_height,
                     font_size=self.caption_height * 0.75, fill="#333",
                     font_family="sans-serif")  # fmt: skip
        self.layers["background"].insert(
            0, element("rect", class_="background", width=side, height=height, fill="#fff")
        )
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(side)}" height="{num(height)}" '
            f'viewBox="0 0 {num(side)} {num(height)}">'
        )
        body = [element("title", self.title)] if self.title else []
        for name in LAYERS:
            if self.layers[name]:
                body.append(f'<g class="layer-{name}">' + "".join(self.layers[name]) + "</g>")
        return head + "".join(body) + "</svg>"
