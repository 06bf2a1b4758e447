"""SudokuPad's clues and cell marks read as the f-puzzles rules its converter draws them for:
little killers, XV and sandwich clues, kropki dots, quadruples, odd and even cells, minimum and
maximum cells, each by the exact style and shape of the converter's ``parse.<key>`` (SudokuPad's
``fpuzzlesdecoder.js``; see :mod:`.sudokupad_rules`). An element of such a style in another
shape is refused by name, unless an element spec says what it is.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..errors import PuzzleError
from .links import short_text
from .sudokupad_elements import (
    EPS,
    Cell,
    ElementReader,
    cell_name,
    cell_names,
    has_style,
    same_points,
    spec_colour,
)

# --- the converter's styles ----------------------------------------------------------------------
# Each is the exact set of fixed properties one parse.<key> function of the converter writes
# (puzzleAdd drops undefined ones); the varying ones (center, wayPoints, text, cells) are read
# apart. Colours compare case-insensitively.
_LITTLE_KILLER_ARROW = {"color": "#000000", "thickness": 2}  # parse.littlekillersum
_WHITE_TEXT = {  # parse.littlekillersum (28), parse.xv (21), parse.sandwichsum (32)
    "backgroundColor": "#ffffff",
    "borderColor": "#ffffff",
    "rounded": False,
    "width": 0.25,
    "height": 0.25,
}
_DOT = {"borderColor": "#000000", "rounded": True, "width": 0.3, "height": 0.3}
_DOT_KEYS = {"#000000": ("ratio", "#fff"), "#ffffff": ("difference", "#000")}  # parse.ratio/…
_QUADRUPLE = {  # parse.quadruple
    "backgroundColor": "#ffffff",
    "borderColor": "#000000",
    "fontSize": 14,
    "rounded": True,
    "width": 0.7,
    "height": 0.7,
}
_ODD_EVEN = {"borderColor": "#cfcfcf", "backgroundColor": "#cfcfcf", "width": 0.7, "height": 0.7}
_CLONE = {  # parse.clone: one square per cell of 'cells' and 'cloneCells'
    "borderColor": "#cfcfcf",
    "backgroundColor": "#cfcfcf",
    "rounded": False,
    "width": 1,
    "height": 1,
}
_MINMAX = {"backgroundColor": "#cccccc", "rounded": False, "width": 1, "height": 1}  # parse.minMax
_CHEVRON = {"color": "#000000", "thickness": 1}  # parse.minMax: one per compared neighbour
# parse.littlekillersum's littlekillerDirs: [row step, column step] of each direction.
_DIRECTIONS = {(-1, 1): "UR", (-1, -1): "UL", (1, 1): "DR", (1, -1): "DL"}


def _neighbours(cell: Cell, size: int) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
        if 0 <= r + dr < size and 0 <= c + dc < size
    ]


class MarkDrawings(ElementReader):
    """The readings of clues and cell marks (:meth:`.sudokupad_rules._Reader.read_drawings`
    calls them in order)."""

    def little_killers(self) -> None:
        # parse.littlekillersum: a short black arrow from 0.3 to 0.48 of a cell along the
        # diagonal from the clue cell's centre, and the clue as white text there ('_' when the
        # entry has no value).
        style = dict(_WHITE_TEXT, fontSize=28)
        for i, arrow in self.unused("arrows", self.arrows):
            if not has_style(arrow, _LITTLE_KILLER_ARROW):
                continue
            pts = self.points(arrow, "little killer arrow")
            what = f"arrow {spec_colour(arrow.get('color'))} at {[list(p) for p in pts]}"
            if len(pts) != 2:
                self.defer(
                    "arrow", arrow, "little-killer-style arrow", what, "not the converter's shape"
                )
                continue
            dr, dc = (pts[1][0] - pts[0][0]) / 0.18, (pts[1][1] - pts[0][1]) / 0.18
            direction = (round(dr), round(dc))
            name = _DIRECTIONS.get(direction)
            if name is None or abs(dr - direction[0]) > 1e-3 or abs(dc - direction[1]) > 1e-3:
                self.defer(
                    "arrow", arrow, "little-killer-style arrow", what, "not the converter's shape"
                )
                continue
            center = (pts[0][0] - 0.3 * direction[0], pts[0][1] - 0.3 * direction[1])
            cell = self.cell_at(center, "little killer", ring=True)
            texts = [
                (j, over)
                for j, over in self.unused("o", self.overlays)
                if has_style(over, style, ("center", "text"))
                and same_points([self.point(over.get("center"), "overlay")], [center])
            ]
            if not texts:
                self.defer(
                    "arrow",
                    arrow,
                    "little-killer-style arrow",
                    cell_names([cell]),
                    "its clue text is missing",
                )
                continue
            if len({repr(o.get("text")) for _, o in texts}) > 1:
                self.defer(
                    "arrow",
                    arrow,
                    "little-killer-style arrow",
                    cell_names([cell]),
                    "two clues share its cell: which is its is not drawn",
                )
                continue
            j, over = texts[0]
            self.used["o"].add(j)
            self.used["arrows"].add(i)
            entry: dict[str, Any] = {"cell": cell_name(cell), "direction": name}
            if over.get("text") != "_":
                entry["value"] = over.get("text")
            self.add("littlekillersum", entry)
        for _, over in self.unused("o", self.overlays):
            if has_style(over, style, ("center", "text")):
                self.defer(
                    self.overlay_kind(over),
                    over,
                    "little-killer-style text",
                    f"at {over.get('center')}",
                    "no little killer arrow points from it",
                )
                continue

    def text_clues(self) -> None:
        for j, over in self.unused("o", self.overlays):
            font = over.get("fontSize")
            if font not in (21, 32) or not has_style(
                over, dict(_WHITE_TEXT, fontSize=font), ("center", "text")
            ):
                continue
            center = self.point(over.get("center"), "overlay")
            text = over.get("text")
            if font == 21:
                # parse.xv: the letter on the middle of the two cells' edge.
                pair = self.edge_cells(center, over, "XV-style text")
                if pair is None:
                    continue
                entry: dict[str, Any] = {"cells": [cell_name(x) for x in pair]}
                if text is not None:
                    entry["value"] = text
                self.add("xv", entry)
            else:
                # parse.sandwichsum: the clue centred on its cell outside the grid.
                cell = self.cell_at(center, "sandwich clue", ring=True)
                entry = {"cell": cell_name(cell)}
                if text is not None:
                    entry["value"] = text
                self.add("sandwichsum", entry)
            self.used["o"].add(j)

    def edge_cells(
        self, center: tuple[float, float], over: dict, what: str
    ) -> tuple[Cell, Cell] | None:
        """The two cells whose shared edge ``center`` is the middle of (None: not there, and
        an element spec says what the overlay is)."""
        r, c = center
        r_half, c_half = abs(r - math.floor(r) - 0.5) < EPS, abs(c - math.floor(c) - 0.5) < EPS
        r_int, c_int = abs(r - round(r)) < EPS, abs(c - round(c)) < EPS
        if r_half and c_int:
            a, b = (math.floor(r), round(c) - 1), (math.floor(r), round(c))
        elif r_int and c_half:
            a, b = (round(r) - 1, math.floor(c)), (round(r), math.floor(c))
        else:
            kind = self.overlay_kind(over)
            self.defer(kind, over, what, f"at {list(center)}", "not on the edge of two cells")
            return None
        for cell in (a, b):
            self.check_cell(cell, f"{what} at {list(center)}")
        return a, b

    def dots(self) -> None:
        # parse.ratio / parse.difference: a black / white dot on the two cells' edge; with a
        # value, the value as text (white on black, black on white) and stroke 'none'.
        for j, over in self.unused("o", self.overlays):
            fill = spec_colour(over.get("backgroundColor"))
            if fill not in _DOT_KEYS:
                continue
            key, ink = _DOT_KEYS[fill]
            base = dict(_DOT, backgroundColor=fill)
            if has_style(over, dict(base, text=""), ("center",)):
                value = None
            elif has_style(
                over, dict(base, color=spec_colour(ink), stroke="none"), ("center", "text")
            ):
                value = over.get("text")
            else:
                continue
            pair = self.edge_cells(self.point(over.get("center"), "dot"), over, f"{key} dot")
            if pair is None:
                continue
            entry: dict[str, Any] = {"cells": [cell_name(x) for x in pair]}
            if value not in (None, ""):
                entry["value"] = value
            self.used["o"].add(j)
            self.add(key, entry)

    def quadruples(self) -> None:
        # parse.quadruple: a circle on the corner the four cells share, its digits as text.
        for j, over in self.unused("o", self.overlays):
            if not has_style(over, _QUADRUPLE, ("center", "text")):
                continue
            center = self.point(over.get("center"), "quadruple")
            if abs(center[0] - round(center[0])) > EPS or abs(center[1] - round(center[1])) > EPS:
                self.defer(
                    self.overlay_kind(over),
                    over,
                    "quadruple-style circle",
                    f"at {list(center)}",
                    "not on a corner of four cells",
                )
                continue
            r, c = round(center[0]), round(center[1])
            cells = [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)]
            for cell in cells:
                self.check_cell(cell, f"quadruple at {list(center)}")
            text = over.get("text")
            values = str(text).split() if text is not None else []
            if not all(v.isascii() and v.isdigit() and len(v) <= 2 for v in values):
                self.defer(
                    self.overlay_kind(over),
                    over,
                    "quadruple-style circle",
                    cell_names(cells),
                    f"its text {short_text(repr(text))} is not digits",
                )
                continue
            self.used["o"].add(j)
            self.add(
                "quadruple",
                {"cells": [cell_name(x) for x in cells], "values": [int(v) for v in values]},
            )

    def marked_cells(self) -> None:
        # parse.odd (a round grey mark) / parse.even (a square one) in the cell. parse.clone
        # draws each cell of a clone pair the same full grey square: which cell copies which
        # is not drawn, so a clone square is refused.
        for j, under in self.unused("u", self.underlays):
            for key, rounded in (("odd", True), ("even", False)):
                if has_style(under, dict(_ODD_EVEN, rounded=rounded), ("center",)):
                    cell = self.cell_at(self.point(under.get("center"), key), f"{key} mark")
                    self.used["u"].add(j)
                    self.add(key, {"cell": cell_name(cell)})
            if has_style(under, _CLONE, ("center",)):
                cell = self.cell_at(self.point(under.get("center"), "clone"), "clone square")
                self.defer(
                    "underlay",
                    under,
                    "clone-style square",
                    cell_names([cell]),
                    "the converter draws every clone cell so, without saying which cell "
                    "copies which",
                )
                continue

    def minmax(self) -> None:
        # parse.minMax: a grey square on each minimum / maximum cell and, toward each
        # neighbour in the grid that is not of its own kind, a chevron of three points: its
        # tip 0.39 of a cell from the centre and its arms at 0.44 (minimum: pointing in) or
        # the reverse (maximum: pointing out).
        squares: dict[Cell, int] = {}
        for j, under in self.unused("u", self.underlays):
            if has_style(under, _MINMAX, ("center",)):
                cell = self.cell_at(
                    self.point(under.get("center"), "minimum/maximum"), "grey square"
                )
                squares[cell] = j
        chevrons: dict[Cell, dict[Cell, str]] = {cell: {} for cell in squares}
        for i, line in self.unused("lines", self.lines):
            if not has_style(line, _CHEVRON):
                continue
            found = self.chevron(line, squares)
            if found is None:
                continue
            cell, toward, kind = found
            chevrons[cell][toward] = kind
            self.used["lines"].add(i)
        kinds: dict[Cell, str] = {}
        for cell, marks in chevrons.items():
            if len(set(marks.values())) > 1:
                raise PuzzleError(
                    f"SudokuPad grey square {cell_names([cell])} has both minimum and maximum "
                    "chevrons"
                )
            if marks:
                kinds[cell] = next(iter(marks.values()))
        changed = True
        while changed:  # a square with no chevron takes the kind of a neighbour that shows it
            changed = False
            for cell in squares:
                if cell in kinds:
                    continue
                for other in _neighbours(cell, self.size):
                    if other in kinds and cell not in chevrons[other]:
                        kinds[cell] = kinds[other]
                        changed = True
                        break
        for cell, j in squares.items():
            known = kinds.get(cell)
            if known is None:
                self.defer(
                    "underlay",
                    self.underlays[j],
                    "grey square (minimum/maximum style)",
                    cell_names([cell]),
                    "no chevron says whether it is a minimum or a maximum",
                )
                continue
            kind = known
            expected = {o for o in _neighbours(cell, self.size) if kinds.get(o) != kind}
            if set(chevrons[cell]) != expected:
                raise PuzzleError(
                    f"SudokuPad {kind} cell {cell_names([cell])}: its chevrons are not the ones "
                    "the converter draws toward each neighbour of another kind"
                )
            self.used["u"].add(j)
            self.add(kind, {"cell": cell_name(cell)})

    def chevron(self, line: dict, squares: Mapping[Cell, int]) -> tuple[Cell, Cell, str] | None:
        pts = self.points(line, "chevron")
        if len(pts) != 3:
            return None
        for cell in squares:
            cr, cc = cell[0] + 0.5, cell[1] + 0.5
            for dy, dx in ((-1, 0), (0, 1), (1, 0), (0, -1)):
                for kind, a, b in (("minimum", 0.44, 0.39), ("maximum", 0.39, 0.44)):
                    shape = [
                        (cr + dy * a + 0.1 * dx, cc + dx * a + 0.1 * dy),
                        (cr + dy * b, cc + dx * b),
                        (cr + dy * a - 0.1 * dx, cc + dx * a - 0.1 * dy),
                    ]
                    if same_points(pts, shape):
                        return cell, (cell[0] + dy, cell[1] + dx), kind
        return None


__all__ = ["MarkDrawings"]
