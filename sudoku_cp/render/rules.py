"""How each rule of :mod:`sudoku_cp.rules` is drawn, as setters expect (f-puzzles and SudokuPad
conventions): dashed killer cages with their sum in the top-left corner (a digit-root cage with
``DR<root>`` there), little killer sums outside the grid with a diagonal arrow, sandwich sums
left of rows and above columns, skyscraper and X-sum clues beside the end of the row or column
they read from (an X-sum in angle brackets, as the Interactive Sudoku Solver marks it), arrows
(circle, line, head), thermometers (bulb and thick line), coloured lines (whispers green,
renban purple, palindrome grey, between lines blue with circles at both ends), the lines of
:mod:`sudoku_cp.rules.lines_more` (a slow thermometer as a hollow thermometer; entropic orange,
modular teal, nabner yellow, region sum blue, zipper violet with its middle marked; a double
arrow grey with circles at both ends, a lockout line with diamonds at its ends), white and
black kropki dots, X and V, odd cells as grey circles and even ones as grey squares, minimum
and maximum cells with chevrons, clones shaded in pairs, quadruple circles with their digits,
indexer cells shaded by kind (row indexers red, column indexers blue, box indexers green,
see-through so a cell of two kinds shows both), given pencil marks as small digits along the
foot of the cell. Rules that apply everywhere (anti-knight, anti-king, non-consecutive, the
negative constraint) are written under the grid.

:data:`DRAWERS` has one entry per key of :data:`sudoku_cp.rules.RULE_KINDS`; a test fails when
a kind is added without one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..rules import (
    XV,
    Arrow,
    BetweenLine,
    Cage,
    Candidates,
    Clone,
    Difference,
    DigitRootCage,
    DoubleArrow,
    EntropicLine,
    Even,
    Indexer,
    LittleKiller,
    Lockout,
    Maximum,
    Minimum,
    ModularLine,
    Nabner,
    Negative,
    Odd,
    Palindrome,
    Quadruple,
    Ratio,
    RegionSumLine,
    Renban,
    Rule,
    Sandwich,
    Skyscraper,
    SlowThermometer,
    Thermometer,
    Whispers,
    XSum,
    ZipperLine,
)
from ..rules.base import touching
from ..rules.outside import clue_place

if TYPE_CHECKING:
    from .svg import Picture

Point = tuple[float, float]
LINE_COLOURS = {
    "whispers": "#4cbb4c",
    "renban": "#d36ad3",
    "palindrome": "#9a9a9a",
    "betweenline": "#7fbfef",
    "entropicline": "#f29a3c",
    "modularline": "#3fb8af",
    "nabner": "#e8cf3a",
    "regionsumline": "#3a7fd5",
    "zipperline": "#9b6fd6",
    "lockout": "#a5a5d8",
}
CLONE_COLOURS = ("#f6d2a8", "#c9e7c1", "#d9cdf0", "#f5c6cf", "#c4e2ef", "#eee2a0")
MARK_GREY = "#d4d4d4"
ARROW_GREY = "#8c8c8c"


def draw_rule(picture: Picture, rule: Rule) -> None:
    """Draw ``rule`` on ``picture``; a kind without a drawing is a bug (KeyError)."""
    DRAWERS[rule.key](picture, rule)


# --- small helpers --------------------------------------------------------------------------------
def _path(points: Sequence[Point]) -> str:
    from .svg import num

    return "M" + " L".join(f"{num(x)} {num(y)}" for x, y in points)


def _toward(a: Point, b: Point, distance: float) -> Point:
    """The point ``distance`` from ``a`` toward ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return a[0] + dx / length * distance, a[1] + dy / length * distance


def head(tip: Point, tail: Point, size: float) -> str:
    """An open arrowhead at ``tip`` for a line coming from ``tail``, as path data."""
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    left = (tip[0] - size * (ux - uy * 0.7), tip[1] - size * (uy + ux * 0.7))
    right = (tip[0] - size * (ux + uy * 0.7), tip[1] - size * (uy - ux * 0.7))
    return " " + _path((left, tip, right))


def _midpoint(picture: Picture, a: int, b: int) -> Point:
    (ax, ay), (bx, by) = picture.centre(a), picture.centre(b)
    return (ax + bx) / 2, (ay + by) / 2


# --- sums -----------------------------------------------------------------------------------------
def cage_outline(picture: Picture, cells: Sequence[int], inset: float) -> str:
    """The path data of a cage's outline, ``inset`` pixels inside its cells: one segment per
    cell side on the cage's edge, lengthened where it meets a neighbour's so corners join."""
    n, inside = picture.n, set(cells)

    def has(row: int, col: int) -> bool:
        return 0 <= row < n and 0 <= col < n and row * n + col in inside

    def end(beside: bool, diagonal: bool, edge: float, sign: int) -> float:
        # Runs on into the neighbour's outline; past the edge when it turns round a corner.
        if not beside:
            return edge - sign * inset
        return edge + sign * inset if diagonal else edge

    parts = []
    for cell in sorted(inside):
        r, c = divmod(cell, n)
        left, right, top, bottom = picture.x(c), picture.x(c + 1), picture.y(r), picture.y(r + 1)
        for dr, y_line in ((-1, top + inset), (1, bottom - inset)):
            if not has(r + dr, c):
                x0 = end(has(r, c - 1), has(r + dr, c - 1), left, -1)
                x1 = end(has(r, c + 1), has(r + dr, c + 1), right, 1)
                parts.append(_path(((x0, y_line), (x1, y_line))))
        for dc, x_line in ((-1, left + inset), (1, right - inset)):
            if not has(r, c + dc):
                y0 = end(has(r - 1, c), has(r - 1, c + dc), top, -1)
                y1 = end(has(r + 1, c), has(r + 1, c + dc), bottom, 1)
                parts.append(_path(((x_line, y0), (x_line, y1))))
    return " ".join(parts)


def draw_cage(picture: Picture, rule: Cage | DigitRootCage) -> None:
    """A dashed cage with its sum in the top-left corner; a digit-root cage the same, labelled
    ``DR<root>`` as f-puzzles writes it."""
    s = picture.s
    kind = "cage" if isinstance(rule, Cage) else "digit-root-cage"
    picture.add("cage", "path", class_=kind, d=cage_outline(picture, rule.cells, s * 0.08),
                fill="none", stroke="#000", stroke_width=max(0.8, s / 36),
                stroke_dasharray=f"{s / 10:.1f} {s / 14:.1f}")  # fmt: skip
    if isinstance(rule, Cage) and rule.total is None:
        return
    row, col = divmod(min(rule.cells), picture.n)
    font = s * 0.26
    text = str(rule.total) if isinstance(rule, Cage) else f"DR{rule.root}"
    if len(text) > 3:  # DR12 and longer: smaller, to stay inside the corner
        font *= 3 / len(text)
    picture.add("mark", "rect", class_=f"{kind}-sum-back", x=picture.x(col) + s * 0.03,
                y=picture.y(row) + s * 0.03, width=font * 0.6 * len(text) + s * 0.04,
                height=font * 1.05, fill="#fff")  # fmt: skip
    picture.add("mark", "text", text, class_=f"{kind}-sum", x=picture.x(col) + s * 0.05,
                y=picture.y(row) + s * 0.05 + font * 0.85, font_size=font,
                font_family="sans-serif", fill="#000")  # fmt: skip


def little_killer_step(cells: Sequence[int], n: int) -> tuple[int, int]:
    """The diagonal step (rows, columns) a little killer runs along, from its first cell."""
    r, c = divmod(cells[0], n)
    if len(cells) > 1:
        r1, c1 = divmod(cells[1], n)
        return r1 - r, c1 - c
    for dr, dc in ((-1, 1), (1, -1), (-1, -1), (1, 1)):  # a corner: the way out on both sides
        if not (0 <= r + dr < n and 0 <= c + dc < n) and not (0 <= r - dr < n and 0 <= c - dc < n):
            return dr, dc
    return 1, 1  # not reached for a line the reader made


def draw_little_killer(picture: Picture, rule: LittleKiller) -> None:
    s, n = picture.s, picture.n
    dr, dc = little_killer_step(rule.cells, n)
    r, c = divmod(rule.cells[0], n)
    clue = (picture.x(c - dc + 0.5), picture.y(r - dr + 0.5))
    text_at = (clue[0] + dc * s * 0.1, clue[1] + dr * s * 0.1)
    picture.add("outside", "text", str(rule.total), class_="little-killer", x=text_at[0],
                y=text_at[1], font_size=s * 0.32, text_anchor="middle",
                dominant_baseline="central", font_family="sans-serif", fill="#000")  # fmt: skip
    start = (clue[0] + dc * s * 0.3, clue[1] + dr * s * 0.3)
    tip = (clue[0] + dc * s * 0.46, clue[1] + dr * s * 0.46)
    picture.add("outside", "path", class_="little-killer-arrow",
                d=_path((start, tip)) + head(tip, start, s * 0.08), fill="none", stroke="#000",
                stroke_width=max(0.8, s / 40))  # fmt: skip


def draw_sandwich(picture: Picture, rule: Sandwich) -> None:
    n, s = picture.n, picture.s
    first, last = rule.cells[0], rule.cells[-1]
    if first // n == last // n:  # a row: left of it
        at = (picture.x(-0.5), picture.y(first // n + 0.5))
    else:
        at = (picture.x(first % n + 0.5), picture.y(-0.5))
    picture.add("outside", "text", str(rule.total), class_="sandwich", x=at[0], y=at[1],
                font_size=s * 0.4, text_anchor="middle", dominant_baseline="central",
                font_family="sans-serif", fill="#000")  # fmt: skip


def draw_outside_clue(picture: Picture, rule: Skyscraper | XSum) -> None:
    """The clue beside the end of its line it reads from; a line no clue reads in order (its
    cells shuffled by a transform) gets it left of its row or above its column."""
    n, s = picture.n, picture.s
    place = clue_place(rule.cells, n)
    if place is None:
        first, last = rule.cells[0], rule.cells[-1]
        place = (first // n, -1) if first // n == last // n else (-1, first % n)
    row, col = place
    text = f"⟨{rule.value}⟩" if isinstance(rule, XSum) else str(rule.value)
    picture.add("outside", "text", text, class_=rule.key, x=picture.x(col + 0.5),
                y=picture.y(row + 0.5), font_size=s * (0.32 if len(text) > 3 else 0.4),
                text_anchor="middle", dominant_baseline="central", font_family="sans-serif",
                fill="#000")  # fmt: skip


def draw_arrow(picture: Picture, rule: Arrow) -> None:
    s, n = picture.s, picture.n
    width = max(1.0, s / 22)
    radius = s * 0.4
    circle = rule.circle
    rows = {cell // n for cell in circle}
    cols = {cell % n for cell in circle}
    if len(circle) > 1 and (len(rows) == 1 or len(cols) == 1):  # a pill, straight
        top, left = min(rows), min(cols)
        picture.add("rule-line", "rect", class_="arrow-circle", x=picture.x(left) + s * 0.1,
                    y=picture.y(top) + s * 0.1, width=len(cols) * s - s * 0.2,
                    height=len(rows) * s - s * 0.2, rx=radius, fill="none", stroke=ARROW_GREY,
                    stroke_width=width)  # fmt: skip
    else:
        for cell in circle:
            cx, cy = picture.centre(cell)
            picture.add("rule-line", "circle", class_="arrow-circle", cx=cx, cy=cy, r=radius,
                        fill="none", stroke=ARROW_GREY, stroke_width=width)  # fmt: skip
    if not rule.line:
        return
    # The line lists each cell once (branches share cells): each cell joins the cell before it
    # when they touch, else the first earlier cell (or circle cell) it touches.
    placed: list[int] = list(circle)
    strokes: list[list[int]] = []
    for cell in rule.line:
        if strokes and touching(strokes[-1][-1], cell, n, diagonal=True):
            strokes[-1].append(cell)
        else:
            origin = next((p for p in placed if touching(p, cell, n, diagonal=True)), placed[0])
            strokes.append([origin, cell])
        placed.append(cell)
    data = []
    for stroke in strokes:
        points = [picture.centre(cell) for cell in stroke]
        if stroke[0] in circle:
            points[0] = _toward(points[0], points[1], radius)
        data.append(_path(points) + head(points[-1], points[-2], s * 0.2))
    picture.add("rule-line", "path", class_="arrow", d=" ".join(data), fill="none",
                stroke=ARROW_GREY, stroke_width=width, stroke_linejoin="round",
                stroke_linecap="round")  # fmt: skip


# --- lines ----------------------------------------------------------------------------------------
def draw_thermometer(picture: Picture, rule: Thermometer) -> None:
    s = picture.s
    bx, by = picture.centre(rule.cells[0])
    picture.add("rule-line", "circle", class_="thermo-bulb", cx=bx, cy=by, r=s * 0.38,
                fill=MARK_GREY)  # fmt: skip
    if len(rule.cells) > 1:
        picture.add("rule-line", "path", class_="thermometer",
                    d=_path([picture.centre(cell) for cell in rule.cells]), fill="none",
                    stroke=MARK_GREY, stroke_width=s * 0.3, stroke_linecap="round",
                    stroke_linejoin="round")  # fmt: skip


def draw_line(picture: Picture, rule: Whispers | Renban | Palindrome | BetweenLine) -> None:
    s = picture.s
    colour = LINE_COLOURS[rule.key]
    points = [picture.centre(cell) for cell in rule.cells]
    if len(points) == 1:
        points.append(points[0])  # a line of one cell: a dot (round caps)
    picture.add("rule-line", "path", class_=rule.key, d=_path(points), fill="none",
                stroke=colour, stroke_width=s * 0.18, stroke_linecap="round",
                stroke_linejoin="round")  # fmt: skip
    if isinstance(rule, BetweenLine):
        for cell in {rule.cells[0], rule.cells[-1]}:
            cx, cy = picture.centre(cell)
            picture.add("rule-line", "circle", class_="between-end", cx=cx, cy=cy, r=s * 0.4,
                        fill="#fff", stroke=colour, stroke_width=max(1.0, s / 20))  # fmt: skip


def draw_slow_thermometer(picture: Picture, rule: SlowThermometer) -> None:
    """A thermometer drawn hollow: grey outline, white inside."""
    s = picture.s
    bx, by = picture.centre(rule.cells[0])
    points = [picture.centre(cell) for cell in rule.cells]
    if len(points) > 1:
        for width, colour in ((s * 0.3, MARK_GREY), (s * 0.16, "#fff")):
            picture.add("rule-line", "path", class_="slowthermometer", d=_path(points),
                        fill="none", stroke=colour, stroke_width=width, stroke_linecap="round",
                        stroke_linejoin="round")  # fmt: skip
    picture.add("rule-line", "circle", class_="slow-thermo-bulb", cx=bx, cy=by, r=s * 0.34,
                fill="#fff", stroke=MARK_GREY, stroke_width=s * 0.07)  # fmt: skip


def draw_more_line(
    picture: Picture,
    rule: EntropicLine | ModularLine | Nabner | ZipperLine | RegionSumLine | DoubleArrow | Lockout,
) -> None:
    """A coloured line; a zipper's middle marked, a double arrow's ends circled, a lockout
    line's ends in diamonds. A line made of several rules (one per equal sum) is drawn once."""
    if isinstance(rule, ZipperLine | RegionSumLine) and rule.step != 0:
        return
    s = picture.s
    colour = ARROW_GREY if isinstance(rule, DoubleArrow) else LINE_COLOURS[rule.key]
    points = [picture.centre(cell) for cell in rule.cells]
    if len(points) == 1:
        points.append(points[0])  # a line of one cell: a dot (round caps)
    width = s * 0.1 if isinstance(rule, DoubleArrow) else s * 0.18
    picture.add("rule-line", "path", class_=rule.key, d=_path(points), fill="none",
                stroke=colour, stroke_width=width, stroke_linecap="round",
                stroke_linejoin="round")  # fmt: skip
    ends = {rule.cells[0], rule.cells[-1]}
    if isinstance(rule, ZipperLine):
        n = len(rule.cells)
        mid = picture.centre(rule.cells[n // 2])
        if n % 2 == 0:
            mid = _midpoint(picture, rule.cells[n // 2 - 1], rule.cells[n // 2])
        picture.add("rule-line", "circle", class_="zipper-middle", cx=mid[0], cy=mid[1],
                    r=s * 0.09, fill="#fff", stroke=colour,
                    stroke_width=max(1.0, s / 30))  # fmt: skip
    elif isinstance(rule, DoubleArrow):
        for cell in ends:
            cx, cy = picture.centre(cell)
            picture.add("rule-line", "circle", class_="double-arrow-end", cx=cx, cy=cy,
                        r=s * 0.4, fill="#fff", stroke=colour,
                        stroke_width=max(1.0, s / 22))  # fmt: skip
    elif isinstance(rule, Lockout):
        for cell in ends:
            cx, cy = picture.centre(cell)
            r = s * 0.42
            diamond = _path(((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy))) + " Z"
            picture.add("rule-line", "path", class_="lockout-end", d=diamond, fill="#fff",
                        stroke=colour, stroke_width=max(1.0, s / 20))  # fmt: skip


# --- dots -----------------------------------------------------------------------------------------
def draw_dot(picture: Picture, rule: Difference | Ratio) -> None:
    s = picture.s
    black = isinstance(rule, Ratio)
    cx, cy = _midpoint(picture, *rule.cells)
    picture.add("mark", "circle", class_="kropki-black" if black else "kropki-white", cx=cx,
                cy=cy, r=s * 0.13, fill="#000" if black else "#fff", stroke="#000",
                stroke_width=max(0.8, s / 40))  # fmt: skip
    if rule.value != (2 if black else 1):
        picture.add("mark", "text", str(rule.value), class_="kropki-value", x=cx, y=cy,
                    font_size=s * 0.17, text_anchor="middle", dominant_baseline="central",
                    font_family="sans-serif", fill="#fff" if black else "#000")  # fmt: skip


def draw_xv(picture: Picture, rule: XV) -> None:
    s = picture.s
    cx, cy = _midpoint(picture, *rule.cells)
    text = {10: "X", 5: "V"}.get(rule.value, str(rule.value))
    font = s * 0.32
    picture.add("mark", "rect", class_="xv-back", x=cx - font * 0.35 * len(text),
                y=cy - font * 0.45, width=font * 0.7 * len(text), height=font * 0.9,
                fill="#fff")  # fmt: skip
    picture.add("mark", "text", text, class_="xv", x=cx, y=cy, font_size=font,
                font_weight="bold", text_anchor="middle", dominant_baseline="central",
                font_family="sans-serif", fill="#000")  # fmt: skip


# --- cells ----------------------------------------------------------------------------------------
def draw_odd_even(picture: Picture, rule: Odd | Even) -> None:
    s = picture.s
    for cell in rule.cells:
        cx, cy = picture.centre(cell)
        if isinstance(rule, Odd):
            picture.add("rule-shade", "circle", class_="odd", cx=cx, cy=cy, r=s * 0.38,
                        fill=MARK_GREY)  # fmt: skip
        else:
            picture.add("rule-shade", "rect", class_="even", x=cx - s * 0.37, y=cy - s * 0.37,
                        width=s * 0.74, height=s * 0.74, fill=MARK_GREY)  # fmt: skip


def draw_extremum(picture: Picture, rule: Minimum | Maximum) -> None:
    """Shaded, with a chevron by each compared neighbour: pointing at the neighbour for a
    maximum (the digits fall that way), back into the cell for a minimum — the directions
    yusitnikov/puzzletv draws (``constraints/min-max/MinMax.tsx``)."""
    s, n = picture.s, picture.n
    picture.shade((rule.cell,), "#ececec", rule.key, layer="rule-shade")
    cx, cy = picture.centre(rule.cell)
    data = []
    for _, other in rule.pairs(n):
        if not touching(rule.cell, other, n, diagonal=False):
            continue  # compared with a moved cell: no side to mark
        ox, oy = picture.centre(other)
        ux, uy = (ox - cx) / s, (oy - cy) / s
        base = (cx + ux * s * 0.36, cy + uy * s * 0.36)
        outward = isinstance(rule, Maximum)
        tip = (base[0] + ux * s * 0.08, base[1] + uy * s * 0.08) if outward else base
        back = base if outward else (base[0] + ux * s * 0.08, base[1] + uy * s * 0.08)
        data.append(head(tip, back, s * 0.1))
    if data:
        picture.add("rule-shade", "path", class_=f"{rule.key}-chevrons", d=" ".join(data),
                    fill="none", stroke="#666", stroke_width=max(0.8, s / 40))  # fmt: skip


def draw_clone(picture: Picture, rule: Clone) -> None:
    number = picture.clones_drawn
    picture.clones_drawn = number + 1
    colour = CLONE_COLOURS[number % len(CLONE_COLOURS)]
    picture.shade(rule.cells + rule.clones, colour, "clone", layer="rule-shade")


def draw_quadruple(picture: Picture, rule: Quadruple) -> None:
    s, n = picture.s, picture.n
    rows = sorted({cell // n for cell in rule.cells})
    cols = sorted({cell % n for cell in rule.cells})
    # The grid point the cells meet at (at the grid's edge for fewer than four cells).
    row = rows[-1] if len(rows) > 1 else (0 if rows[0] == 0 else rows[0] + 1)
    col = cols[-1] if len(cols) > 1 else (0 if cols[0] == 0 else cols[0] + 1)
    cx, cy = picture.x(col), picture.y(row)
    radius = s * 0.27
    picture.add("mark", "circle", class_="quadruple", cx=cx, cy=cy, r=radius, fill="#fff",
                stroke="#000", stroke_width=max(0.8, s / 40))  # fmt: skip
    from .svg import symbol

    digits = rule.digits
    font = s * (0.22 if len(digits) <= 2 else 0.18)
    per_row = 2 if len(digits) > 2 else max(1, len(digits))
    lines = (len(digits) + per_row - 1) // per_row
    for i, digit in enumerate(digits):
        r, c = divmod(i, per_row)
        count = min(per_row, len(digits) - r * per_row)
        x = cx + (c - (count - 1) / 2) * font * 0.75
        y = cy + (r - (lines - 1) / 2) * font * 0.95
        picture.add("mark", "text", symbol(digit), class_="quadruple-digit", x=x, y=y,
                    font_size=font, text_anchor="middle", dominant_baseline="central",
                    font_family="sans-serif", fill="#000")  # fmt: skip


INDEXER_COLOURS = {"rowindexer": "#f08080", "columnindexer": "#7fa0f0", "boxindexer": "#7fd07f"}


def draw_indexer(picture: Picture, rule: Indexer) -> None:
    """The indexer cells shaded in their kind's colour. An indexer is several rules (one per
    digit its cells may point with): only the one with the lowest such digit shades, so each
    cell is shaded once per kind."""
    if rule.when != min(d for d in range(1, picture.n + 1) if d != rule.then):
        return
    picture.shade(rule.cells, INDEXER_COLOURS[rule.key], rule.key, layer="rule-shade",
                  fill_opacity=0.45)  # fmt: skip


def draw_candidates(picture: Picture, rule: Candidates) -> None:
    """The given pencil marks, small, along the foot of each cell (clear of a digit placed in
    it)."""
    from .svg import symbol

    s = picture.s
    text = " ".join(symbol(d) for d in rule.digits)
    font = min(s * 0.2, s * 0.9 / max(1, len(text)) / 0.55)
    for cell in rule.cells:
        cx, _ = picture.centre(cell)
        bottom = picture.y(cell // picture.n + 1)
        picture.add("mark", "text", text, class_="given-pencil-marks", x=cx,
                    y=bottom - s * 0.06, font_size=font, text_anchor="middle",
                    font_family="sans-serif", fill="#555")  # fmt: skip


# --- rules that apply everywhere: a line under the grid -------------------------------------------
_EVERYWHERE = {
    "antiknight": "anti-knight: cells a knight's move apart hold different digits",
    "antiking": "anti-king: cells a king's move apart (diagonally too) hold different digits",
    "nonconsecutive": "non-consecutive: orthogonal neighbours never hold consecutive digits",
}
_MARKS = {"difference": "white dot", "ratio": "black dot", "xv": "X/V sum"}


def draw_everywhere(picture: Picture, rule: Rule) -> None:
    picture.caption(_EVERYWHERE[rule.key])


def draw_negative(picture: Picture, rule: Negative) -> None:
    values = ", ".join(map(str, rule.values))
    mark = _MARKS.get(rule.kind, rule.kind)
    picture.caption(f"negative constraint: every {mark} ({values}) is given")


DRAWERS: dict[str, Callable[[Picture, Any], None]] = {
    "antiknight": draw_everywhere,
    "antiking": draw_everywhere,
    "nonconsecutive": draw_everywhere,
    "killercage": draw_cage,
    "digitrootcage": draw_cage,
    "arrow": draw_arrow,
    "littlekillersum": draw_little_killer,
    "sandwichsum": draw_sandwich,
    "thermometer": draw_thermometer,
    "renban": draw_line,
    "whispers": draw_line,
    "palindrome": draw_line,
    "betweenline": draw_line,
    "slowthermometer": draw_slow_thermometer,
    "entropicline": draw_more_line,
    "modularline": draw_more_line,
    "nabner": draw_more_line,
    "zipperline": draw_more_line,
    "doublearrow": draw_more_line,
    "regionsumline": draw_more_line,
    "lockout": draw_more_line,
    "difference": draw_dot,
    "ratio": draw_dot,
    "xv": draw_xv,
    "negative": draw_negative,
    "odd": draw_odd_even,
    "even": draw_odd_even,
    "minimum": draw_extremum,
    "maximum": draw_extremum,
    "clone": draw_clone,
    "quadruple": draw_quadruple,
    "rowindexer": draw_indexer,
    "columnindexer": draw_indexer,
    "boxindexer": draw_indexer,
    "givenPencilMarks": draw_candidates,
    "skyscraper": draw_outside_clue,
    "xsum": draw_outside_clue,
}
"""How each kind of rule is drawn, by its key."""
