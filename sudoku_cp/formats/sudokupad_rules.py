"""SudokuPad's own puzzle object (SCL: cells, regions, cages, lines, arrows, overlays, underlays,
metadata, global) → an f-puzzles object, so that every rule's meaning stays in the audited
f-puzzles reader (:func:`sudoku_cp.formats.fpuzzles.read_fpuzzles`, ``docs/formats/fpuzzles.md``).

SudokuPad draws; it does not say which rule a drawing is. What is certain is the styles its own
f-puzzles converter writes for each f-puzzles rule: SudokuPad's ``fpuzzlesdecoder.js`` (as
vendored in marktekfan/sudokupad-penpa-import ``src/sudokupad/fpuzzlesdecoder.js``, commit
b299d1a, MIT; "the converter" below), whose ``parse.<key>`` functions are named at each
inversion here. An element is read as a rule only when it has exactly such a style and shape (a
thermometer: a bulb underlay and a line starting in it; an arrow: its bulb and its arrow).
Everything else — a line of another colour, text in a cell, a shape the converter never writes,
or one it writes for two different things — makes the reading fail with one line naming the
element (kind, colour, cells) and how to say what it means, an element spec::

    line:#67f067=whispers        KIND:COLOUR=KEY, KEY an f-puzzles rule key (whispers:4: a value)
    overlay:#e7e6ff=cosmetic     the element carries no rule: left out on purpose

(:func:`parse_element_specs`). No verdict rests on a silently ignored or guessed element. The
table of styles is ``docs/formats/sudokupad_elements.md``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, PuzzleError
from .fpuzzles import MAX_FPUZZLES_SIZE, default_regions
from .fpuzzles_rules import LINE_KEYS, MORE_LINE_KEYS
from .links import short_text

Cell = tuple[int, int]

ELEMENT_KINDS = ("line", "arrow", "underlay", "overlay", "text", "cage", "image")
"""The kinds of element an element spec names (``KIND:COLOUR=KEY``)."""

SPEC_KEYS: dict[str, tuple[str, ...]] = {
    # A line through cell centres read as the f-puzzles key's line ({"lines": [[cells]]}).
    "line": (*LINE_KEYS, *MORE_LINE_KEYS, "cosmetic"),
    # A mark centred in one cell ({"cell"}).
    "underlay": ("odd", "even", "cosmetic"),
    # A mark on the edge of two cells: a kropki dot (f-puzzles 'difference' / 'ratio', their
    # value 1 / 2 unless the spec gives one, as the f-puzzles reader reads them).
    "overlay": ("odd", "even", "difference", "ratio", "cosmetic"),
    # A cage of cells: a killer cage (its value the sum) or an extra region.
    "cage": ("killercage", "extraregion", "cosmetic"),
    "arrow": ("cosmetic",),
    "text": ("cosmetic",),
    # A picture the puzzle shows (metadata 'bgimage': Sudoku Maker's background image).
    "image": ("cosmetic",),
}
"""The f-puzzles keys an element of each kind may be said to be (and ``cosmetic``)."""

MAX_SPECS = 100
"""Element specs read at most (each names one style: a puzzle has few)."""

MAX_ELEMENTS = 20_000
"""Elements of one kind read at most (a SudokuPad puzzle has hundreds)."""

_SPEC = re.compile(
    r"(?P<kind>[a-z]+):(?P<style>[^=\s]+)=(?P<key>[a-z+-]+)(?::(?P<value>[0-9]{1,3}))?"
)
# The converter's metadata tags (reMetaTags): "name: text", the text running to the end.
_META = re.compile(r"^([^: ]+):\s*([\s\S]+)", re.MULTILINE)
_EPS = 1e-6
_FAR = 1_000  # a coordinate (in cells) no element of a grid of at most 16 cells comes near
_NUMBER = re.compile(r"\s*-?[0-9]+(?:\.[0-9]*)?\s*")


@dataclass(frozen=True)
class ElementSpec:
    """What the user says elements of one kind and colour are: an f-puzzles ``key`` (with its
    ``value``, such as a whispers line's difference) or ``cosmetic``."""

    kind: str
    style: str
    key: str
    value: int | None = None


def _colour(value: Any) -> str:
    """A colour as specs name it: lower case, ``#abc`` written ``#aabbcc``; no colour: ``none``."""
    if not isinstance(value, str) or not value.strip():
        return "none"
    text = value.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{3}", text):
        text = "#" + "".join(ch * 2 for ch in text[1:])
    return text


def parse_element_specs(specs: Iterable[str]) -> dict[tuple[str, str], ElementSpec]:
    """Element specs (``KIND:COLOUR=KEY`` or ``KIND:COLOUR=KEY:VALUE``) by (kind, colour).
    ``InputError``, one line, for a malformed spec, an unknown kind or key, or two specs that
    say different things of one style.

    >>> parse_element_specs(["line:#67F067=whispers", "overlay:#E7E6FF=cosmetic"])
    ... # doctest: +NORMALIZE_WHITESPACE
    {('line', '#67f067'): ElementSpec(kind='line', style='#67f067', key='whispers', value=None),
     ('overlay', '#e7e6ff'): ElementSpec(kind='overlay', style='#e7e6ff', key='cosmetic',
     value=None)}
    >>> parse_element_specs(["line:#67f067=wispers"])
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.InputError: element spec 'line:#67f067=wispers': unknown key 'wispers' for \
a line (one of thermometer, renban, whispers, palindrome, betweenline, slowthermometer, \
entropicline, modularline, nabner, zipperline, doublearrow, regionsumline, lockout, cosmetic)
    """
    result: dict[tuple[str, str], ElementSpec] = {}
    for count, raw in enumerate(specs, start=1):
        if count > MAX_SPECS:
            raise InputError(f"more than {MAX_SPECS} element specs")
        if not isinstance(raw, str):
            raise InputError(f"element spec {short_text(repr(raw))} is not text")
        text = raw.strip()
        match = _SPEC.fullmatch(text)
        shown = short_text(text)
        if match is None:
            raise InputError(
                f"element spec {shown!r} is not KIND:COLOUR=KEY (such as "
                "'line:#67f067=whispers', or KEY:VALUE such as 'line:#ff9a00=whispers:4')"
            )
        kind, key = match["kind"], match["key"]
        if kind not in SPEC_KEYS:
            raise InputError(
                f"element spec {shown!r}: unknown kind {kind!r} (one of {', '.join(ELEMENT_KINDS)})"
            )
        if key not in SPEC_KEYS[kind]:
            raise InputError(
                f"element spec {shown!r}: unknown key {key!r} for a {kind} "
                f"(one of {', '.join(SPEC_KEYS[kind])})"
            )
        value = int(match["value"]) if match["value"] is not None else None
        if value is not None and key in ("cosmetic", "odd", "even", "extraregion", "killercage"):
            raise InputError(f"element spec {shown!r}: {key} takes no value")
        spec = ElementSpec(kind, _colour(match["style"]), key, value)
        if result.get((kind, spec.style), spec) != spec:
            raise InputError(f"element spec {shown!r} contradicts an earlier one for that style")
        result[(kind, spec.style)] = spec
    return result


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
_LITTLE_KILLER_ARROW = {"color": "#000000", "thickness": 2}  # parse.littlekillersum
_WHITE_TEXT = {  # parse.littlekillersum (28), parse.xv (21), parse.sandwichsum (32)
    "backgroundColor": "#ffffff",
    "borderColor": "#ffffff",
    "rounded": False,
    "width": 0.25,
    "height": 0.25,
}
_TEXT_KEYS = {28: "littlekillersum", 21: "xv", 32: "sandwichsum"}
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
_SQUARE_KEYS = frozenset({"backgroundColor", "center", "rounded", "width", "height"})


def _norm(value: Any) -> Any:
    return _colour(value) if isinstance(value, str) and value.startswith("#") else value


def _fixed(element: dict, varying: Iterable[str]) -> dict:
    skip = set(varying)
    return {k: _norm(v) for k, v in element.items() if k not in skip}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < _EPS
    return bool(a == b)


def _is(element: dict, style: dict, varying: Iterable[str] = ("center", "wayPoints")) -> bool:
    fixed = _fixed(element, varying)
    return fixed.keys() == style.keys() and all(_same(fixed[k], style[k]) for k in style)


def _js_round(x: float) -> float:
    return math.floor(x + 0.5)


def _name(cell: Cell) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def _names(cells: Iterable[Cell]) -> str:
    return "-".join(_name(c).lower() for c in cells)


class _Reader:
    def __init__(self, scl: Any, specs: Mapping[tuple[str, str], ElementSpec]) -> None:
        if not isinstance(scl, dict):
            raise PuzzleError(f"a SudokuPad puzzle is a JSON object, not {type(scl).__name__}")
        self.scl = scl
        self.specs = specs
        self.out: dict[str, Any] = {}
        self.size = 0

    # --- helpers ---
    def error(self, kind: str, element: dict, what: str, where: str, reason: str) -> PuzzleError:
        colour = self.element_colour(kind, element)
        keys = ", ".join(SPEC_KEYS.get(kind, ("cosmetic",)))
        return PuzzleError(
            f"SudokuPad {what} {where}: {reason}; say what it means with --element "
            f"'{kind}:{colour}=KEY' (KEY one of {keys})"
        )

    def defer(self, kind: str, element: dict, what: str, where: str, reason: str) -> None:
        """An element in a converter's style but not in its shape: returns (the caller leaves
        it for :meth:`leftovers`) when an element spec says what it is, else the error naming
        it."""
        if (kind, self.element_colour(kind, element)) not in self.specs:
            raise self.error(kind, element, what, where, reason)

    @staticmethod
    def overlay_kind(element: dict) -> str:
        """How specs name an overlay: ``text`` when it shows text, else ``overlay``."""
        return "text" if element.get("text") not in (None, "") else "overlay"

    @staticmethod
    def element_colour(kind: str, element: dict) -> str:
        if kind in ("line", "arrow"):
            return _colour(element.get("color"))
        if kind == "text":
            return _colour(
                element.get("color")
                or element.get("textColor")
                or element.get("backgroundColor")
                or element.get("borderColor")
            )
        if kind == "cage":
            return _colour(element.get("outlineC") or element.get("borderColor"))
        return _colour(element.get("backgroundColor") or element.get("borderColor"))

    def items(self, key: str) -> list[dict]:
        value = self.scl.get(key)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
            raise PuzzleError(f"SudokuPad {key!r} must be a list of objects")
        if len(value) > MAX_ELEMENTS:
            raise PuzzleError(f"SudokuPad {key!r} has over {MAX_ELEMENTS:,} elements")
        return value

    @staticmethod
    def point(value: Any, what: str) -> tuple[float, float]:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                for x in value
            )
        ):
            raise PuzzleError(f"SudokuPad {what}: {short_text(repr(value))} is not a point [r, c]")
        if any(abs(x) > _FAR for x in value):
            # Far beyond any grid: arithmetic on it (a direction, a distance) would overflow.
            raise PuzzleError(f"SudokuPad {what}: {short_text(repr(value))} lies far off the grid")
        return float(value[0]), float(value[1])

    def points(self, element: dict, what: str) -> list[tuple[float, float]]:
        value = element.get("wayPoints")
        if not isinstance(value, list) or not value or len(value) > self.size * self.size * 4:
            raise PuzzleError(f"SudokuPad {what}: 'wayPoints' must be a list of points [r, c]")
        return [self.point(p, what) for p in value]

    def cell_at(self, point: tuple[float, float], what: str, *, ring: bool = False) -> Cell:
        """The cell whose centre ``point`` is (in the grid, or in the ring around it)."""
        r, c = point[0] - 0.5, point[1] - 0.5
        if abs(r - round(r)) > _EPS or abs(c - round(c)) > _EPS:
            raise PuzzleError(f"SudokuPad {what}: {list(point)} is not the centre of a cell")
        cell = (round(r), round(c))
        self.check_cell(cell, what, ring=ring)
        return cell

    def check_cell(self, cell: Cell, what: str, *, ring: bool = False) -> None:
        low, high = (-1, self.size) if ring else (0, self.size - 1)
        if not (low <= cell[0] <= high and low <= cell[1] <= high):
            raise PuzzleError(
                f"SudokuPad {what}: cell {_name(cell).lower()} is off the "
                f"{self.size}x{self.size} grid"
            )

    def cage_cells(self, cage: dict, what: str) -> list[Cell]:
        value = cage.get("cells")
        if not isinstance(value, list) or len(value) > self.size * self.size:
            raise PuzzleError(f"SudokuPad {what}: 'cells' must be a list of cells [r, c]")
        cells: list[Cell] = []
        for item in value:
            if (
                not isinstance(item, list)
                or len(item) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in item)
            ):
                raise PuzzleError(
                    f"SudokuPad {what}: {short_text(repr(item))} is not a cell [row, column]"
                )
            cell = (item[0], item[1])
            self.check_cell(cell, what)
            cells.append(cell)
        if len(set(cells)) != len(cells):
            raise PuzzleError(f"SudokuPad {what} lists a cell twice")
        return cells

    def add(self, key: str, entry: Any) -> None:
        self.out.setdefault(key, []).append(entry)

    # --- the reading ---
    def read(self) -> dict[str, Any]:
        known = {
            "id",  # the converter's md5 of the payload (createFpuzId)
            "cellSize",  # drawing scale (createBlankPuzzle)
            # Links to solving videos: the zipper's propMap packs them with their own 'title'
            # and 'duration' (puzzlezipper.js videos/vd, title/t, duration/d); no rule.
            "videos",
            "cells",
            "regions",
            "cages",
            "lines",
            "arrows",
            "overlays",
            "underlays",
            "metadata",
            "global",
            # Fog of war (parse.fogofwar, parse.foglight) hides cells while solving; the rules
            # stay the same, as the f-puzzles reader reads 'fogofwar'/'foglight'.
            "foglight",
        }
        for key, value in self.scl.items():
            if key not in known and value not in (None, [], {}, "", False):
                raise PuzzleError(
                    f"SudokuPad puzzle key {short_text(str(key))!r} is not read by this tool "
                    "(checked without it, the verdict could be wrong)"
                )
        self.read_cells()
        self.read_regions()
        self.read_global()
        self.read_metadata()
        self.read_cages()
        self.read_drawings()
        return self.out

    def read_cells(self) -> None:
        # createBlankPuzzle: one row of cell objects per grid row; a given's 'value'.
        rows = self.scl.get("cells")
        if not isinstance(rows, list) or not rows:
            raise PuzzleError("a SudokuPad puzzle needs 'cells': a list of rows of cell objects")
        size = len(rows)
        if size > MAX_FPUZZLES_SIZE:
            raise PuzzleError(
                f"SudokuPad grid of {size} rows: grids of 1 to {MAX_FPUZZLES_SIZE} are read"
            )
        self.size = size
        grid = []
        for r, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != size:
                got = f"{len(row)} cells" if isinstance(row, list) else short_text(repr(row))
                raise PuzzleError(
                    f"SudokuPad cells row {r + 1} is {got}, not {size} cells (a square grid)"
                )
            out_row: list[dict[str, Any]] = []
            for c, cell in enumerate(row):
                where = f"SudokuPad cell r{r + 1}c{c + 1}"
                if not isinstance(cell, dict):
                    raise PuzzleError(f"{where} is {short_text(repr(cell))}, not a cell object")
                for key, value in cell.items():
                    # A player's marks (createBlankPuzzle copies f-puzzles' centre and corner
                    # pencil marks): no rule.
                    if key not in ("value", "centremarks", "pencilMarks") and value not in (
                        None,
                        [],
                        "",
                    ):
                        raise PuzzleError(f"{where}: key {short_text(str(key))!r} is not read")
                value = cell.get("value")
                if value in (None, ""):
                    out_row.append({})
                    continue
                digit = value if isinstance(value, int) and not isinstance(value, bool) else None
                if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
                    digit = int(value.strip()[:9])
                if digit is None or not 1 <= digit <= size:
                    raise PuzzleError(f"{where}: given {short_text(repr(value))} is not 1..{size}")
                out_row.append({"value": digit, "given": True})
            grid.append(out_row)
        self.out["size"] = size
        self.out["grid"] = grid

    def read_regions(self) -> None:
        # createBlankPuzzle: one list of [r, c] cells per region; cells of f-puzzles region
        # null are in none (and in a hidden cage, read in read_cages).
        size = self.size
        value = self.scl.get("regions")
        if value is None:
            # The converter always writes them; without them, whether the grid has boxes is
            # not said. (An empty list says it has none.)
            raise PuzzleError("a SudokuPad puzzle needs 'regions' (an empty list: no regions)")
        if not isinstance(value, list) or len(value) > size * size:
            raise PuzzleError("SudokuPad 'regions' must be a list of regions (lists of cells)")
        region_of: dict[Cell, int] = {}
        for number, region in enumerate(value):
            cells = self.cage_cells({"cells": region}, f"region {number + 1}")
            for cell in cells:
                if cell in region_of:
                    raise PuzzleError(
                        f"SudokuPad region {number + 1}: cell {_name(cell).lower()} is in region "
                        f"{region_of[cell] + 1} too"
                    )
                region_of[cell] = number
        if len(value) > size:
            raise PuzzleError(f"SudokuPad 'regions' has {len(value)} regions, not {size} or fewer")
        self.region_lists = [[tuple(c) for c in region] for region in value]
        self.no_region = {(r, c) for r in range(size) for c in range(size)} - region_of.keys()
        default = default_regions(size)
        stated = [region_of.get((i // size, i % size)) for i in range(size * size)]
        if _partition(stated) != _partition(list(default)):
            for i, region in enumerate(stated):
                self.out["grid"][i // size][i % size]["region"] = region

    def read_global(self) -> None:
        value = self.scl.get("global") or []
        if not isinstance(value, list) or not all(isinstance(g, str) for g in value):
            raise PuzzleError("SudokuPad 'global' must be a list of names")
        self.globals = set(value)
        negative = []
        for name in value:
            if name in ("antiknight", "antiking", "nonconsecutive"):
                # parse.antiknight, parse.antiking, parse.nonconsecutive
                self.out[name] = True
            elif name == "disjoint":
                self.out["disjointgroups"] = True  # parse.disjointgroups
            elif name in ("antiratio", "antixv", "antidifference"):
                # parse.negative writes 'anti' + each name of f-puzzles' 'negative' list (the
                # f-puzzles reader then reads or refuses each as f-puzzles' solver does).
                negative.append(name[4:])
            else:
                raise PuzzleError(
                    f"SudokuPad global constraint {short_text(name)!r} is not read by this tool "
                    "(known: antiknight, antiking, nonconsecutive, disjoint, antiratio, antixv)"
                )
        if negative:
            self.out["negative"] = negative

    def read_metadata(self) -> None:
        value = self.scl.get("metadata") or {}
        if not isinstance(value, dict):
            raise PuzzleError("SudokuPad 'metadata' must be an object")
        self.meta: dict[str, list[Any]] = {}
        for key, item in value.items():
            self.meta.setdefault(str(key), []).extend(item if isinstance(item, list) else [item])

    def meta_text(self) -> None:
        for key, item in (("title", "title"), ("author", "author"), ("rules", "ruleset")):
            texts = [str(t) for t in self.meta.get(key, []) if isinstance(t, (str, int))]
            if texts:
                self.out[item] = "\n".join(texts)
        # parse.antiknight / parse.antiking write the f-puzzles flag both as metadata and as a
        # global; SudokuPad's metadata is text, so a flag set there alone is not guessed at.
        for flag in ("antiknight", "antiking"):
            if any(v is True or v == "true" for v in self.meta.get(flag, [])) and (
                flag not in self.globals
            ):
                raise PuzzleError(
                    f"SudokuPad metadata says {flag} but 'global' does not: the converter writes "
                    "both, so which holds is not certain"
                )
        # A picture can draw rules no element carries (Parity Fish draws its red parity lines
        # in its 'bgimage' only): unread, it would silently drop them, so it is refused by name
        # unless the user says it draws nothing that is a rule. Opacity and such are numbers.
        for key, items in self.meta.items():
            pictures = [
                str(v).strip()
                for v in items
                if "image" in key.lower() and isinstance(v, str) and not _NUMBER.fullmatch(v)
            ]
            if any(pictures) and ("image", _colour(key)) not in self.specs:
                raise PuzzleError(
                    f"SudokuPad metadata {key!r} shows a picture ({short_text(pictures[0])}) that "
                    "may draw rules this tool cannot see; if it draws none, say so with "
                    f"--element 'image:{_colour(key)}=cosmetic'"
                )
        solutions = {
            str(s).strip() for s in self.meta.get("solution", []) if str(s).strip()
        }  # parseSolution, parse.solution: the solution as a digit per cell
        if len(solutions) > 1:
            raise PuzzleError("SudokuPad metadata states two different solutions")
        if solutions:
            solution = solutions.pop()
            if len(solution) == self.size * self.size:
                self.out["solution"] = solution

    def read_cages(self) -> None:
        disjoint: list[list[Cell]] = []
        hidden: list[Cell] = []
        for number, cage in enumerate(self.items("cages"), start=1):
            cells_value = cage.get("cells")
            value = cage.get("value")
            if not cells_value:
                # parse.title/author/ruleset/solution (fpuzzlesParseMeta), parseMetaData and
                # parse.cage (a "name: " value loses its cells): metadata, no rule.
                match = _META.search(value) if isinstance(value, str) else None
                if match is None:
                    raise PuzzleError(
                        f"SudokuPad cage {number} has no cells and its value "
                        f"{short_text(repr(value))} is not metadata ('name: text')"
                    )
                self.meta.setdefault(match[1], []).append(match[2])
                continue
            what = f"cage {number}"
            cells = self.cage_cells(cage, what)
            what = f"cage {_names(cells)}"
            keys = set(cage) - {"cells"}
            if cage.get("type") == "disjoint":
                # parse.disjointgroups: {cells, unique: true, type: 'disjoint', style: null}
                if keys != {"unique", "type", "style"} or cage.get("unique") is not True:
                    self.spec_cage(cage, cells, what, "a disjoint-group cage not the converter's")
                else:
                    disjoint.append(cells)
            elif (
                cage.get("hidden") is True
                and cage.get("unique") is False
                and keys == {"unique", "hidden"}
            ):
                # createBlankPuzzle: the cells of f-puzzles region null, in one hidden cage.
                hidden += cells
            elif cage.get("style") == "extraregion":
                # parse.extraregion: {style: 'extraregion', unique: true, sum, cells}, the sum
                # triangularNumber(cells.length): an all-different group.
                n = len(cells)
                if keys != {"style", "unique", "sum"} or not _same(
                    cage.get("sum"), n * (n + 1) // 2
                ):
                    self.spec_cage(cage, cells, what, "an extra-region cage not the converter's")
                else:
                    self.add("extraregion", {"cells": [_name(c) for c in cells]})
            elif isinstance(cage.get("style"), str) and cage["style"] in _INDEXER_STYLES:
                # parse.cage: an f-puzzles cage drawn for an indexer (fromConstraint 'Row
                # Indexer' …) gets style fpRowIndexer …: f-puzzles' own mark of the rule.
                key = _INDEXER_STYLES[cage["style"]]
                if (
                    not keys <= {"style", "fromConstraint", "outlineC", "fontC"}
                    or cage.get("fromConstraint", _INDEXER_NAMES[key]) != _INDEXER_NAMES[key]
                ):
                    self.spec_cage(cage, cells, what, "an indexer cage not the converter's")
                else:
                    self.add(key, {"cells": [_name(c) for c in cells]})
            elif keys <= {"unique", "value", "sum"} and cage.get("unique", True) is True:
                # parse.killercage: {unique: true, cells, value, sum: parseInt(value) when
                # isIntStrict}: a killer cage, its sum the value when it is a whole number.
                self.killer(cage, cells, what)
            else:
                self.spec_cage(cage, cells, what, "a cage the converter never writes")
        self.check_disjoint(disjoint)
        # Only the converter's hidden cage of exactly the cells in no region is known (cells
        # in no region without it are in no region all the same).
        if hidden and (set(hidden) != self.no_region or len(hidden) != len(set(hidden))):
            raise PuzzleError(
                f"SudokuPad hidden cage {_names(hidden)} is not the cells in no region"
            )
        self.meta_text()

    def killer(self, cage: dict, cells: list[Cell], what: str, *, spec: bool = False) -> None:
        value = cage.get("value")
        entry: dict[str, Any] = {"cells": [_name(c) for c in cells]}
        if value not in (None, ""):
            text = str(value).strip() if not isinstance(value, bool) else ""
            if not (text.isascii() and text.isdigit() and len(text) <= 4):
                reason = (
                    f"its value {short_text(repr(value))} is neither a sum nor metadata "
                    "('name: text')"
                )
                if spec:
                    raise PuzzleError(f"SudokuPad {what}: {reason}")
                self.spec_cage(cage, cells, what, reason)
                return
            if "sum" in cage and not _same(cage["sum"], int(text)):
                raise PuzzleError(
                    f"SudokuPad {what}: its sum {cage['sum']} is not its value {text}"
                )
            entry["value"] = text
        elif "sum" in cage:
            raise PuzzleError(f"SudokuPad {what}: a sum {cage['sum']!r} without a value")
        self.add("killercage", entry)

    def spec_cage(self, cage: dict, cells: list[Cell], what: str, reason: str) -> None:
        """A cage read by the element spec for its colour, or the error naming it."""
        spec = self.specs.get(("cage", self.element_colour("cage", cage)))
        if spec is None:
            raise self.error("cage", cage, "cage", _names(cells), reason)
        if spec.key == "killercage":
            kept = {k: v for k, v in cage.items() if k in ("cells", "value")}
            self.killer(kept, cells, what, spec=True)
        elif spec.key == "extraregion":
            self.add("extraregion", {"cells": [_name(c) for c in cells]})

    def check_disjoint(self, disjoint: list[list[Cell]]) -> None:
        if not disjoint:
            return
        if "disjoint" not in self.globals:
            raise PuzzleError(
                f"SudokuPad disjoint-group cage {_names(disjoint[0])} without the global 'disjoint'"
            )
        # parse.disjointgroups: the c-th cell of every region list, for each c.
        longest = max((len(r) for r in self.region_lists), default=0)
        expected = [
            sorted(tuple(r[c]) for r in self.region_lists if c < len(r)) for c in range(longest)
        ]
        if sorted(map(sorted, disjoint)) != sorted(expected):
            raise PuzzleError(
                "SudokuPad disjoint-group cages are not the regions' disjoint groups as the "
                "converter writes them (parse.disjointgroups)"
            )

    # --- drawings ---
    def read_drawings(self) -> None:
        lines = self.items("lines")
        arrows = self.items("arrows")
        overlays = self.items("overlays")
        underlays = self.items("underlays")
        used: dict[str, set[int]] = {"lines": set(), "arrows": set(), "o": set(), "u": set()}
        self.used = used
        self.lines, self.arrows, self.overlays, self.underlays = lines, arrows, overlays, underlays
        self.diagonals()
        self.thermometers()
        self.simple_lines()
        self.between_lines()
        self.arrow_sums()
        self.little_killers()
        self.text_clues()
        self.dots()
        self.quadruples()
        self.marked_cells()
        self.minmax()
        self.leftovers()

    def unused(self, kind: str, items: list[dict]) -> Iterable[tuple[int, dict]]:
        return ((i, e) for i, e in enumerate(items) if i not in self.used[kind])

    def line_cells(self, element: dict, what: str) -> list[Cell]:
        return [self.cell_at(p, what) for p in self.points(element, what)]

    def diagonals(self) -> None:
        n = float(self.size)
        for i, line in self.unused("lines", self.lines):
            if not _is(line, _DIAGONAL):
                continue
            pts = self.points(line, "diagonal line")
            # parse['diagonal+']: [[0, width], [height, 0]]; parse['diagonal-']: [[0, 0],
            # [height, width]].
            if _close(pts, [(0, n), (n, 0)]):
                self.out["diagonal+"] = True
            elif _close(pts, [(0, 0), (n, n)]):
                self.out["diagonal-"] = True
            else:
                continue  # a between line's style too: read there, or refused
            self.used["lines"].add(i)

    def take_underlay(self, style: dict, center: tuple[float, float]) -> bool:
        for j, under in self.unused("u", self.underlays):
            if _is(under, style, ("center",)) and _close(
                [self.point(under.get("center"), "underlay")], [center]
            ):
                self.used["u"].add(j)
                return True
        return False

    def take_overlay(self, style: dict, center: tuple[float, float]) -> int | None:
        for j, over in self.unused("o", self.overlays):
            if _is(over, style, ("center",)) and _close(
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
            if not _is(line, _THERMO_LINE):
                continue
            cells = self.line_cells(line, f"thermometer line {_colour(line.get('color'))}")
            pts = self.points(line, "thermometer")
            if not self.take_underlay(_THERMO_BULB, pts[0]):
                self.defer(
                    "line",
                    line,
                    "thermometer-style line",
                    _names(cells),
                    "it has no bulb on its first cell (the converter draws one)",
                )
                continue
            self.used["lines"].add(i)
            self.add("thermometer", {"lines": [[_name(c) for c in cells]]})
        for _, under in self.unused("u", self.underlays):
            if _is(under, _THERMO_BULB, ("center",)):
                center = self.point(under.get("center"), "underlay")
                self.defer(
                    "underlay",
                    under,
                    "thermometer bulb",
                    _names([self.cell_at(center, "thermometer bulb")]),
                    "no thermometer line starts there",
                )
                continue

    def simple_lines(self) -> None:
        for i, line in self.unused("lines", self.lines):
            if _is(line, _PALINDROME):  # parse.palindrome
                cells = self.line_cells(line, "palindrome line")
                self.used["lines"].add(i)
                self.add("palindrome", {"lines": [[_name(c) for c in cells]]})

    def between_lines(self) -> None:
        # parse.betweenline: a circle on each end, and a thin line whose end points are moved
        # 0.4 of a cell (rounded to 0.1) toward their neighbours.
        for i, line in self.unused("lines", self.lines):
            if not _is(line, _BETWEEN_LINE):
                continue
            pts = self.points(line, "between line")
            what = f"line #cfcfcf (thickness 2) through {len(pts)} points"
            if len(pts) < 2:
                self.defer("line", line, "between-style line", what, "it has one point")
                continue
            cells = [(math.floor(r), math.floor(c)) for r, c in pts]
            for cell in cells:
                self.check_cell(cell, f"between line {_names(cells)}")
            centres = [(r + 0.5, c + 0.5) for r, c in cells]
            moved = list(centres)
            moved[0] = _toward(centres[0], centres[1], 10)
            moved[-1] = _toward(centres[-1], centres[-2], 10)
            if not _close(pts, moved):
                self.defer(
                    "line", line, "between-style line", _names(cells), "not the converter's shape"
                )
                continue
            first = self.take_overlay(_BETWEEN_CIRCLE, centres[0])
            last = self.take_overlay(_BETWEEN_CIRCLE, centres[-1]) if first is not None else None
            if first is None or last is None:
                self.used["o"].discard(first if first is not None else -1)
                self.defer(
                    "line", line, "between-style line", _names(cells), "its end circles are missing"
                )
                continue
            self.used["lines"].add(i)
            self.add("betweenline", {"lines": [[_name(c) for c in cells]]})
        for _, over in self.unused("o", self.overlays):
            if _is(over, _BETWEEN_CIRCLE, ("center",)):
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
            if not _is(over, _ARROW_BULB, ("center", "width", "height")):
                continue
            center = self.point(over.get("center"), "arrow bulb")
            width, height = over.get("width"), over.get("height")
            if not all(
                isinstance(x, (int, float))
                and not isinstance(x, bool)
                and math.isfinite(x)
                and abs(x) <= _FAR
                for x in (width, height)
            ):
                raise PuzzleError(
                    "SudokuPad arrow bulb: its width and height must be numbers of cells"
                )
            cols, rows = float(width) - 0.83, float(height) - 0.83  # type: ignore[arg-type]
            if min(rows, cols) < -_EPS or min(rows, cols) > _EPS:
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
                abs(top - round(top)) > _EPS
                or abs(left - round(left)) > _EPS
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
                self.check_cell(cell, f"arrow bulb {_names(cells)}")
            self.used["o"].add(j)
            # The cells' order is not drawn: a pill reads in reading order.
            bulbs.append((cells, over))
        for i, line in self.unused("lines", self.lines):
            if not _is(line, _ARROW_PILL):
                continue
            cells = self.line_cells(line, "arrow bulb")
            inner = next(
                (
                    k
                    for k, other in self.unused("lines", self.lines)
                    if k != i
                    and _is(other, _ARROW_PILL_INNER)
                    and other.get("wayPoints") == line.get("wayPoints")
                ),
                None,
            )
            if inner is None:
                self.defer(
                    "line",
                    line,
                    "arrow-bulb-style line",
                    _names(cells),
                    "its white inner line is missing",
                )
                continue
            self.used["lines"] |= {i, inner}
            bulbs.append((cells, line))
        entries: list[dict[str, Any]] = [
            {"cells": [_name(c) for c in cells], "lines": []} for cells, _ in bulbs
        ]
        for i, arrow in self.unused("arrows", self.arrows):
            if not _is(arrow, _ARROW):
                continue
            pts = self.points(arrow, "arrow")
            if len(pts) < 2:
                self.defer("arrow", arrow, "arrow", f"at {list(pts[0])}", "it has one point")
                continue
            first = (math.floor(pts[0][0]), math.floor(pts[0][1]))
            rest = [self.cell_at(p, "arrow") for p in pts[1:]]
            cells = [first, *rest]
            self.check_cell(first, f"arrow {_names(cells)}")
            if not _close(
                pts[:1],
                [
                    _toward(
                        (first[0] + 0.5, first[1] + 0.5), (rest[0][0] + 0.5, rest[0][1] + 0.5), 100
                    )
                ],
            ):
                self.defer("arrow", arrow, "arrow", _names(cells), "not the converter's shape")
                continue
            owners = [k for k, (bulb, _) in enumerate(bulbs) if first in bulb]
            if not owners:
                self.defer("arrow", arrow, "arrow", _names(cells), "it starts in no arrow bulb")
                continue
            if len({tuple(sorted(bulbs[k][0])) for k in owners}) > 1:
                self.defer(
                    "arrow", arrow, "arrow", _names(cells), "it starts in two different bulbs"
                )
                continue
            self.used["arrows"].add(i)
            entries[owners[0]]["lines"].append([_name(c) for c in cells])
        for entry in entries:
            self.add("arrow", entry)

    def little_killers(self) -> None:
        # parse.littlekillersum: a short black arrow from 0.3 to 0.48 of a cell along the
        # diagonal from the clue cell's centre, and the clue as white text there ('_' when the
        # entry has no value).
        style = dict(_WHITE_TEXT, fontSize=28)
        for i, arrow in self.unused("arrows", self.arrows):
            if not _is(arrow, _LITTLE_KILLER_ARROW):
                continue
            pts = self.points(arrow, "little killer arrow")
            what = f"arrow {_colour(arrow.get('color'))} at {[list(p) for p in pts]}"
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
                if _is(over, style, ("center", "text"))
                and _close([self.point(over.get("center"), "overlay")], [center])
            ]
            if not texts:
                self.defer(
                    "arrow",
                    arrow,
                    "little-killer-style arrow",
                    _names([cell]),
                    "its clue text is missing",
                )
                continue
            if len({repr(o.get("text")) for _, o in texts}) > 1:
                self.defer(
                    "arrow",
                    arrow,
                    "little-killer-style arrow",
                    _names([cell]),
                    "two clues share its cell: which is its is not drawn",
                )
                continue
            j, over = texts[0]
            self.used["o"].add(j)
            self.used["arrows"].add(i)
            entry: dict[str, Any] = {"cell": _name(cell), "direction": name}
            if over.get("text") != "_":
                entry["value"] = over.get("text")
            self.add("littlekillersum", entry)
        for _, over in self.unused("o", self.overlays):
            if _is(over, style, ("center", "text")):
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
            if font not in (21, 32) or not _is(
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
                entry: dict[str, Any] = {"cells": [_name(x) for x in pair]}
                if text is not None:
                    entry["value"] = text
                self.add("xv", entry)
            else:
                # parse.sandwichsum: the clue centred on its cell outside the grid.
                cell = self.cell_at(center, "sandwich clue", ring=True)
                entry = {"cell": _name(cell)}
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
        r_half, c_half = abs(r - math.floor(r) - 0.5) < _EPS, abs(c - math.floor(c) - 0.5) < _EPS
        r_int, c_int = abs(r - round(r)) < _EPS, abs(c - round(c)) < _EPS
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
            fill = _colour(over.get("backgroundColor"))
            if fill not in _DOT_KEYS:
                continue
            key, ink = _DOT_KEYS[fill]
            base = dict(_DOT, backgroundColor=fill)
            if _is(over, dict(base, text=""), ("center",)):
                value = None
            elif _is(over, dict(base, color=_colour(ink), stroke="none"), ("center", "text")):
                value = over.get("text")
            else:
                continue
            pair = self.edge_cells(self.point(over.get("center"), "dot"), over, f"{key} dot")
            if pair is None:
                continue
            entry: dict[str, Any] = {"cells": [_name(x) for x in pair]}
            if value not in (None, ""):
                entry["value"] = value
            self.used["o"].add(j)
            self.add(key, entry)

    def quadruples(self) -> None:
        # parse.quadruple: a circle on the corner the four cells share, its digits as text.
        for j, over in self.unused("o", self.overlays):
            if not _is(over, _QUADRUPLE, ("center", "text")):
                continue
            center = self.point(over.get("center"), "quadruple")
            if abs(center[0] - round(center[0])) > _EPS or abs(center[1] - round(center[1])) > _EPS:
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
                    _names(cells),
                    f"its text {short_text(repr(text))} is not digits",
                )
                continue
            self.used["o"].add(j)
            self.add(
                "quadruple",
                {"cells": [_name(x) for x in cells], "values": [int(v) for v in values]},
            )

    def marked_cells(self) -> None:
        # parse.odd (a round grey mark) / parse.even (a square one) in the cell. parse.clone
        # draws each cell of a clone pair the same full grey square: which cell copies which
        # is not drawn, so a clone square is refused.
        for j, under in self.unused("u", self.underlays):
            for key, rounded in (("odd", True), ("even", False)):
                if _is(under, dict(_ODD_EVEN, rounded=rounded), ("center",)):
                    cell = self.cell_at(self.point(under.get("center"), key), f"{key} mark")
                    self.used["u"].add(j)
                    self.add(key, {"cell": _name(cell)})
            if _is(under, _CLONE, ("center",)):
                cell = self.cell_at(self.point(under.get("center"), "clone"), "clone square")
                self.defer(
                    "underlay",
                    under,
                    "clone-style square",
                    _names([cell]),
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
            if _is(under, _MINMAX, ("center",)):
                cell = self.cell_at(
                    self.point(under.get("center"), "minimum/maximum"), "grey square"
                )
                squares[cell] = j
        chevrons: dict[Cell, dict[Cell, str]] = {cell: {} for cell in squares}
        for i, line in self.unused("lines", self.lines):
            if not _is(line, _CHEVRON):
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
                    f"SudokuPad grey square {_names([cell])} has both minimum and maximum chevrons"
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
                    _names([cell]),
                    "no chevron says whether it is a minimum or a maximum",
                )
                continue
            kind = known
            expected = {o for o in _neighbours(cell, self.size) if kinds.get(o) != kind}
            if set(chevrons[cell]) != expected:
                raise PuzzleError(
                    f"SudokuPad {kind} cell {_names([cell])}: its chevrons are not the ones the "
                    "converter draws toward each neighbour of another kind"
                )
            self.used["u"].add(j)
            self.add(kind, {"cell": _name(cell)})

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
                    if _close(pts, shape):
                        return cell, (cell[0] + dy, cell[1] + dx), kind
        return None

    def leftovers(self) -> None:
        """Every element no converter style took: read by an element spec, left out by one
        (``cosmetic``, or a cell colour), or refused by name."""
        for _, line in self.unused("lines", self.lines):
            pts = self.points(line, "line")
            where = self.where(pts)
            spec = self.specs.get(("line", _colour(line.get("color"))))
            if spec is None:
                thick = line.get("thickness")
                raise self.error(
                    "line",
                    line,
                    f"line {_colour(line.get('color'))} (thickness {thick})",
                    where,
                    "a line style the converter writes for no rule",
                )
            if spec.key == "cosmetic":
                continue
            cells = self.line_cells(line, f"line {_colour(line.get('color'))} {where}")
            entry: dict[str, Any] = {"lines": [[_name(c) for c in cells]]}
            if spec.value is not None:
                entry["value"] = spec.value
            self.add(spec.key, entry)
        for _, arrow in self.unused("arrows", self.arrows):
            pts = self.points(arrow, "arrow")
            spec = self.specs.get(("arrow", _colour(arrow.get("color"))))
            if spec is None:
                raise self.error(
                    "arrow",
                    arrow,
                    f"arrow {_colour(arrow.get('color'))}",
                    self.where(pts),
                    "an arrow style the converter writes for no rule",
                )
        for kind, items, label in (
            ("u", self.underlays, "underlay"),
            ("o", self.overlays, "overlay"),
        ):
            for _, item in self.unused(kind, items):
                center = self.point(item.get("center"), label)
                if (
                    kind == "u"
                    and set(item) == _SQUARE_KEYS
                    and item.get("rounded") is False
                    and _same(item.get("width"), 1)
                    and _same(item.get("height"), 1)
                    and _colour(item.get("backgroundColor")) != "#cccccc"
                ):
                    # parse.grid: a cell's colour (f-puzzles 'c'/'cArray'), a full square with
                    # no border; cosmetic, as the f-puzzles reader reads 'c'.
                    self.cell_at(center, "cell colour")
                    continue
                text = item.get("text")
                spec_kind = "text" if text not in (None, "") else label
                spec = self.specs.get((spec_kind, self.element_colour(spec_kind, item)))
                where = self.where([center])
                if spec is None:
                    shown = f" {short_text(repr(text))}" if spec_kind == "text" else ""
                    raise self.error(
                        spec_kind,
                        item,
                        f"{spec_kind} {self.element_colour(spec_kind, item)}{shown}",
                        where,
                        f"an {label} style the converter writes for no rule",
                    )
                if spec.key in ("odd", "even"):
                    cell = self.cell_at(center, f"{label} {where}")
                    self.add(spec.key, {"cell": _name(cell)})
                elif spec.key in ("difference", "ratio"):
                    pair = self.edge_cells(center, item, f"{label} {where}")
                    if pair is None:  # (edge_cells leaves it to the spec, which says a dot)
                        raise PuzzleError(
                            f"SudokuPad {label} {where}: --element says it is a {spec.key} dot, "
                            "but it is not on the edge of two cells"
                        )
                    entry = {"cells": [_name(pair[0]), _name(pair[1])]}
                    if spec.value is not None:
                        entry["value"] = spec.value
                    self.add(spec.key, entry)

    def where(self, pts: Sequence[tuple[float, float]]) -> str:
        """Points named as cells where they are cell centres (else as coordinates)."""
        names = []
        for r, c in pts:
            rr, cc = r - 0.5, c - 0.5
            if abs(rr - round(rr)) < _EPS and abs(cc - round(cc)) < _EPS:
                names.append(_name((round(rr), round(cc))).lower())
            else:
                names.append(f"[{r:g}, {c:g}]")
        return (
            ("at " if len(names) == 1 else "through ")
            + "-".join(names[:12])
            + ("…" if len(names) > 12 else "")
        )


_INDEXER_STYLES = {
    "fpRowIndexer": "rowindexer",
    "fpColumnIndexer": "columnindexer",
    "fpBoxIndexer": "boxindexer",
}
_INDEXER_NAMES = {
    "rowindexer": "Row Indexer",
    "columnindexer": "Column Indexer",
    "boxindexer": "Box Indexer",
}
# parse.littlekillersum's littlekillerDirs: [row step, column step] of each direction.
_DIRECTIONS = {(-1, 1): "UR", (-1, -1): "UL", (1, 1): "DR", (1, -1): "DL"}


def _partition(regions: Sequence[int | None]) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for i, region in enumerate(regions):
        if region is not None:
            groups.setdefault(region, set()).add(i)
    return {frozenset(g) for g in groups.values()}


def _close(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
    return len(a) == len(b) and all(
        abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6 for p, q in zip(a, b, strict=True)
    )


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


def _neighbours(cell: Cell, size: int) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
        if 0 <= r + dr < size and 0 <= c + dc < size
    ]


def scl_to_fpuzzles(scl: Any, element_specs: Sequence[str] = ()) -> dict[str, Any]:
    """A SudokuPad puzzle object → the f-puzzles object that states the same rules, for
    :func:`~sudoku_cp.formats.fpuzzles.read_fpuzzles` (and ``published_solution``) to read.
    ``element_specs`` say what elements of a style the converter never writes are
    (:func:`parse_element_specs`). ``PuzzleError``, one line naming the element, for any
    element whose meaning is not certain.

    >>> scl = {"cells": [[{"value": 1}, {}], [{}, {}]], "regions": [[[0, 0]], [[0, 1]]],
    ...        "lines": [{"color": "#67F067", "thickness": 6, "wayPoints": [[0.5, 0.5],
    ...                   [1.5, 1.5]]}]}
    >>> scl_to_fpuzzles(scl)
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.PuzzleError: SudokuPad line #67f067 (thickness 6) through r1c1-r2c2: a \
line style the converter writes for no rule; say what it means with --element 'line:#67f067=KEY' \
(KEY one of thermometer, renban, whispers, palindrome, betweenline, slowthermometer, \
entropicline, modularline, nabner, zipperline, doublearrow, regionsumline, lockout, cosmetic)
    >>> scl_to_fpuzzles(scl, ["line:#67f067=whispers:1"])["whispers"]
    [{'lines': [['R1C1', 'R2C2']], 'value': 1}]
    """
    return _Reader(scl, parse_element_specs(element_specs)).read()


__all__ = ["ELEMENT_KINDS", "SPEC_KEYS", "ElementSpec", "parse_element_specs", "scl_to_fpuzzles"]
