"""SudokuPad's lines and arrows read as the f-puzzles rules its converter draws them for:
diagonals, thermometers, palindromes, between lines and arrows (their bulbs and pills), each by
the exact style and shape of the converter's ``parse.<key>`` (SudokuPad's ``fpuzzlesdecoder.js``;
see :mod:`.sudokupad_rules`). An element of such a style in another shape is refused by name,
unless an element spec says what it is.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import PuzzleError
from .sudokupad_elements import (
    EPS,
    FAR,
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
_THERMO_BULB = {  # parse.thermometer: the bulb, an underlay centred on the line's first cell
    "borderColor": "#cfcfcf",
    "backgroundColor": "#cfcfcf",
    "rounded": True,
    "width": 0.85,
    "height": 0.85,
}
_THERMO_LINE = {"color": "#cfcfcf", "thickness": 21}  # parse.thermometer: the line
_PALINDROME = {"color": "#cfcfcf", "thickness": 16}  # parse.palindrome
_BETWEEN_LINE = {"color": "#cfcfcf", "thickness": 2}  # parse.betweenline: its line
_BETWEEN_CIRCLE = {  # parse.betweenline: a circle on each end
    "borderColor": "#cfcfcf",
    "backgroundColor": "#ffffff",
    "fontSize": 16,
    "borderSize": 2,
    "rounded": True,
    "width": 0.8,
    "height": 0.8,
}
_DIAGONAL = {"color": "#34bbe6", "thickness": 2}  # parse['diagonal+'], parse['diagonal-']
_ARROW = {"color": "#a1a1a1", "headLength": 0.3, "thickness": 5}  # parse.arrow: each arrow
_ARROW_BULB = {  # parse.arrow: a bulb whose cells are in one row or column (width varies)
    "borderColor": "#a1a1a1",
    "backgroundColor": "#ffffff",
    "fontSize": 16,
    "borderSize": 5,
    "rounded": True,
    "text": "",
}
# parse.arrow, a bulb whose cells are not in one line: a thick grey line through them and a
# thinner white one over it (Math.round(0.7 * getCellSize()), getCellSize() 64 outside the
# browser's SvgRenderer, less 2 × the bulb's stroke of 5).
_ARROW_PILL = {"color": "#a1a1a1", "thickness": 45, "opacity": 0.7}
_ARROW_PILL_INNER = {"color": "#ffffff", "thickness": 35, "opacity": 0.8}


def _js_round(x: float) -> float:
    return math.floor(x + 0.5)


def _toward(
    start: tuple[float, float], nxt: tuple[float, float], scale: int
) -> tuple[float, float]:
    """``start`` moved 0.4 of a cell toward ``nxt`` per axis, as the converter moves an arrow's
    (scale 100) or a between line's (scale 10) end: round(scale·0.4·sign(d)/dist)/scale."""
    dr, dc = nxt[0] - start[0], nxt[1] - start[1]
    dist = math.hypot(dr, dc)
    if dist == 0:
        return start
    sign = lambda x: (x > 0) - (x < 0)  # noqa: E731
    return (
        start[0] + _js_round(scale * 0.4 * sign(dr) / dist) / scale,
        start[1] + _js_round(scale * 0.4 * sign(dc) / dist) / scale,
    )


class LineDrawings(ElementReader):
    """The readings of lines and arrows (:meth:`.sudokupad_rules._Reader.read_drawings` calls
    them in order)."""

    def line_cells(self, element: dict, what: str) -> list[Cell]:
        return [self.cell_at(p, what) for p in self.points(element, what)]

    def diagonals(self) -> None:
        n = float(self.size)
        for i, line in self.unused("lines", self.lines):
            if not has_style(line, _DIAGONAL):
                continue
            pts = self.points(line, "diagonal line")
            # parse['diagonal+']: [[0, width], [height, 0]]; parse['diagonal-']: [[0, 0],
            # [height, width]].
            if same_points(pts, [(0, n), (n, 0)]):
                self.out["diagonal+"] = True
            elif same_points(pts, [(0, 0), (n, n)]):
                self.out["diagonal-"] = True
            else:
                continue  # a between line's style too: read there, or refused
            self.used["lines"].add(i)

    def take_underlay(self, style: dict, center: tuple[float, float]) -> bool:
        for j, under in self.unused("u", self.underlays):
            if has_style(under, style, ("center",)) and same_points(
                [self.point(under.get("center"), "underlay")], [center]
            ):
                self.used["u"].add(j)
                return True
        return False

    def take_overlay(self, style: dict, center: tuple[float, float]) -> int | None:
        for j, over in self.unused("o", self.overlays):
            if has_style(over, style, ("center",)) and same_points(
                [self.point(over.get("center"), "overlay")], [center]
            ):
                self.used["o"].add(j)
                return j
        return None

    def thermometers(self) -> None:
        # parse.thermometer: for each line of an entry, a bulb underlay on its first cell and
        # the line. Each line is read as one thermometer (as the f-puzzles reader reads each
        # line of an entry).
        for i, line in self.unused("lines", self.lines):
            if not has_style(line, _THERMO_LINE):
                continue
            cells = self.line_cells(line, f"thermometer line {spec_colour(line.get('color'))}")
            pts = self.points(line, "thermometer")
            if not self.take_underlay(_THERMO_BULB, pts[0]):
                self.defer(
                    "line",
                    line,
                    "thermometer-style line",
                    cell_names(cells),
                    "it has no bulb on its first cell (the converter draws one)",
                )
                continue
            self.used["lines"].add(i)
            self.add("thermometer", {"lines": [[cell_name(c) for c in cells]]})
        for _, under in self.unused("u", self.underlays):
            if has_style(under, _THERMO_BULB, ("center",)):
                center = self.point(under.get("center"), "underlay")
                self.defer(
                    "underlay",
                    under,
                    "thermometer bulb",
                    cell_names([self.cell_at(center, "thermometer bulb")]),
                    "no thermometer line starts there",
                )
                continue

    def simple_lines(self) -> None:
        for i, line in self.unused("lines", self.lines):
            if has_style(line, _PALINDROME):  # parse.palindrome
                cells = self.line_cells(line, "palindrome line")
                self.used["lines"].add(i)
                self.add("palindrome", {"lines": [[cell_name(c) for c in cells]]})

    def between_lines(self) -> None:
        # parse.betweenline: a circle on each end, and a thin line whose end points are moved
        # 0.4 of a cell (rounded to 0.1) toward their neighbours.
        for i, line in self.unused("lines", self.lines):
            if not has_style(line, _BETWEEN_LINE):
                continue
            pts = self.points(line, "between line")
            what = f"line #cfcfcf (thickness 2) through {len(pts)} points"
            if len(pts) < 2:
                self.defer("line", line, "between-style line", what, "it has one point")
                continue
            cells = [(math.floor(r), math.floor(c)) for r, c in pts]
            for cell in cells:
                self.check_cell(cell, f"between line {cell_names(cells)}")
            centres = [(r + 0.5, c + 0.5) for r, c in cells]
            moved = list(centres)
            moved[0] = _toward(centres[0], centres[1], 10)
            moved[-1] = _toward(centres[-1], centres[-2], 10)
            if not same_points(pts, moved):
                self.defer(
                    "line",
                    line,
                    "between-style line",
                    cell_names(cells),
                    "not the converter's shape",
                )
                continue
            first = self.take_overlay(_BETWEEN_CIRCLE, centres[0])
            last = self.take_overlay(_BETWEEN_CIRCLE, centres[-1]) if first is not None else None
            if first is None or last is None:
                self.used["o"].discard(first if first is not None else -1)
                self.defer(
                    "line",
                    line,
                    "between-style line",
                    cell_names(cells),
                    "its end circles are missing",
                )
                continue
            self.used["lines"].add(i)
            self.add("betweenline", {"lines": [[cell_name(c) for c in cells]]})
        for _, over in self.unused("o", self.overlays):
            if has_style(over, _BETWEEN_CIRCLE, ("center",)):
                center = self.point(over.get("center"), "overlay")
                self.defer(
                    self.overlay_kind(over),
                    over,
                    "between-line circle",
                    f"at {list(center)}",
                    "no between line ends there",
                )
                continue

    def arrow_sums(self) -> None:
        # parse.arrow: each bulb (an overlay when its cells are in one row or column, else a
        # grey line with a white one over it), and each arrow, its first point moved 0.4 of a
        # cell (rounded to 0.01) from its first cell, which is in the bulb.
        bulbs: list[tuple[list[Cell], dict]] = []
        for j, over in self.unused("o", self.overlays):
            if not has_style(over, _ARROW_BULB, ("center", "width", "height")):
                continue
            center = self.point(over.get("center"), "arrow bulb")
            width, height = over.get("width"), over.get("height")
            if not all(
                isinstance(x, (int, float))
                and not isinstance(x, bool)
                and math.isfinite(x)
                and abs(x) <= FAR
                for x in (width, height)
            ):
                raise PuzzleError(
                    "SudokuPad arrow bulb: its width and height must be numbers of cells"
                )
            cols, rows = float(width) - 0.83, float(height) - 0.83  # type: ignore[arg-type]
            if min(rows, cols) < -EPS or min(rows, cols) > EPS:
                self.defer(
                    self.overlay_kind(over),
                    over,
                    "arrow-bulb-style overlay",
                    f"at {list(center)}",
                    "not the converter's size",
                )
                continue
            top, left = center[0] - rows / 2 - 0.5, center[1] - cols / 2 - 0.5
            if (
                abs(top - round(top)) > EPS
                or abs(left - round(left)) > EPS
                or max(rows, cols) > self.size
            ):
                self.defer(
                    self.overlay_kind(over),
                    over,
                    "arrow-bulb-style overlay",
                    f"at {list(center)}",
                    "not on cells",
                )
                continue
            cells = [
                (round(top) + dr, round(left) + dc)
                for dr in range(round(rows) + 1)
                for dc in range(round(cols) + 1)
            ]
            for cell in cells:
                self.check_cell(cell, f"arrow bulb {cell_names(cells)}")
            self.used["o"].add(j)
            # The cells' order is not drawn: a pill reads in reading order.
            bulbs.append((cells, over))
        for i, line in self.unused("lines", self.lines):
            if not has_style(line, _ARROW_PILL):
                continue
            cells = self.line_cells(line, "arrow bulb")
            inner = next(
                (
                    k
                    for k, other in self.unused("lines", self.lines)
                    if k != i
                    and has_style(other, _ARROW_PILL_INNER)
                    and other.get("wayPoints") == line.get("wayPoints")
                ),
                None,
            )
            if inner is None:
                self.defer(
                    "line",
                    line,
                    "arrow-bulb-style line",
                    cell_names(cells),
                    "its white inner line is missing",
                )
                continue
            self.used["lines"] |= {i, inner}
            bulbs.append((cells, line))
        entries: list[dict[str, Any]] = [
            {"cells": [cell_name(c) for c in cells], "lines": []} for cells, _ in bulbs
        ]
        for i, arrow in self.unused("arrows", self.arrows):
            if not has_style(arrow, _ARROW):
                continue
            pts = self.points(arrow, "arrow")
            if len(pts) < 2:
                self.defer("arrow", arrow, "arrow", f"at {list(pts[0])}", "it has one point")
                continue
            first = (math.floor(pts[0][0]), math.floor(pts[0][1]))
            rest = [self.cell_at(p, "arrow") for p in pts[1:]]
            cells = [first, *rest]
            self.check_cell(first, f"arrow {cell_names(cells)}")
            if not same_points(
                pts[:1],
                [
                    _toward(
                        (first[0] + 0.5, first[1] + 0.5), (rest[0][0] + 0.5, rest[0][1] + 0.5), 100
                    )
                ],
            ):
                self.defer("arrow", arrow, "arrow", cell_names(cells), "not the converter's shape")
                continue
            owners = [k for k, (bulb, _) in enumerate(bulbs) if first in bulb]
            if not owners:
                self.defer("arrow", arrow, "arrow", cell_names(cells), "it starts in no arrow bulb")
                continue
            if len({tuple(sorted(bulbs[k][0])) for k in owners}) > 1:
                self.defer(
                    "arrow", arrow, "arrow", cell_names(cells), "it starts in two different bulbs"
                )
                continue
            self.used["arrows"].add(i)
            entries[owners[0]]["lines"].append([cell_name(c) for c in cells])
        for entry in entries:
            self.add("arrow", entry)


__all__ = ["LineDrawings"]
