"""SudokuPad elements: the element specs that say what a style the converter never writes is
(``KIND:COLOUR=KEY``, :func:`parse_element_specs`), and what reading any element takes — its
colour as specs name it, its style compared with a converter's, its points and cells, and the
error that names it and says how to give it a meaning. :mod:`.sudokupad_rules` reads a puzzle
object with these; :mod:`.sudokupad_lines` and :mod:`.sudokupad_marks` read its drawings.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, PuzzleError
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
EPS = 1e-6
FAR = 1_000  # a coordinate (in cells) no element of a grid of at most 16 cells comes near


@dataclass(frozen=True)
class ElementSpec:
    """What the user says elements of one kind and colour are: an f-puzzles ``key`` (with its
    ``value``, such as a whispers line's difference) or ``cosmetic``."""

    kind: str
    style: str
    key: str
    value: int | None = None


def spec_colour(value: Any) -> str:
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
        spec = ElementSpec(kind, spec_colour(match["style"]), key, value)
        if result.get((kind, spec.style), spec) != spec:
            raise InputError(f"element spec {shown!r} contradicts an earlier one for that style")
        result[(kind, spec.style)] = spec
    return result


def _norm(value: Any) -> Any:
    return spec_colour(value) if isinstance(value, str) and value.startswith("#") else value


def _fixed(element: dict, varying: Iterable[str]) -> dict:
    skip = set(varying)
    return {k: _norm(v) for k, v in element.items() if k not in skip}


def same_value(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < EPS
    return bool(a == b)


def has_style(element: dict, style: dict, varying: Iterable[str] = ("center", "wayPoints")) -> bool:
    fixed = _fixed(element, varying)
    return fixed.keys() == style.keys() and all(same_value(fixed[k], style[k]) for k in style)


def cell_name(cell: Cell) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def cell_names(cells: Iterable[Cell]) -> str:
    return "-".join(cell_name(c).lower() for c in cells)


def same_points(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
    return len(a) == len(b) and all(
        abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6 for p, q in zip(a, b, strict=True)
    )


class ElementReader:
    """One SudokuPad puzzle object's reading: the f-puzzles object it writes (:attr:`out`),
    the element specs it reads by, and what every step of the reading asks of an element."""

    # The drawings and the indexes of those a reading took, set when the drawings are read
    # (:meth:`.sudokupad_rules._Reader.read_drawings`).
    lines: list[dict]
    arrows: list[dict]
    overlays: list[dict]
    underlays: list[dict]
    used: dict[str, set[int]]

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
        it for the leftovers, :meth:`.sudokupad_rules._Reader.leftovers`) when an element spec
        says what it is, else the error naming it."""
        if (kind, self.element_colour(kind, element)) not in self.specs:
            raise self.error(kind, element, what, where, reason)

    @staticmethod
    def overlay_kind(element: dict) -> str:
        """How specs name an overlay: ``text`` when it shows text, else ``overlay``."""
        return "text" if element.get("text") not in (None, "") else "overlay"

    @staticmethod
    def element_colour(kind: str, element: dict) -> str:
        if kind in ("line", "arrow"):
            return spec_colour(element.get("color"))
        if kind == "text":
            return spec_colour(
                element.get("color")
                or element.get("textColor")
                or element.get("backgroundColor")
                or element.get("borderColor")
            )
        if kind == "cage":
            return spec_colour(element.get("outlineC") or element.get("borderColor"))
        return spec_colour(element.get("backgroundColor") or element.get("borderColor"))

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
        if any(abs(x) > FAR for x in value):
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
        if abs(r - round(r)) > EPS or abs(c - round(c)) > EPS:
            raise PuzzleError(f"SudokuPad {what}: {list(point)} is not the centre of a cell")
        cell = (round(r), round(c))
        self.check_cell(cell, what, ring=ring)
        return cell

    def check_cell(self, cell: Cell, what: str, *, ring: bool = False) -> None:
        low, high = (-1, self.size) if ring else (0, self.size - 1)
        if not (low <= cell[0] <= high and low <= cell[1] <= high):
            raise PuzzleError(
                f"SudokuPad {what}: cell {cell_name(cell).lower()} is off the "
                f"{self.size}x{self.size} grid"
            )

    def add(self, key: str, entry: Any) -> None:
        self.out.setdefault(key, []).append(entry)

    def unused(self, kind: str, items: list[dict]) -> Iterable[tuple[int, dict]]:
        return ((i, e) for i, e in enumerate(items) if i not in self.used[kind])


__all__ = [
    "ELEMENT_KINDS",
    "EPS",
    "FAR",
    "MAX_ELEMENTS",
    "MAX_SPECS",
    "SPEC_KEYS",
    "Cell",
    "ElementReader",
    "ElementSpec",
    "cell_name",
    "cell_names",
    "has_style",
    "parse_element_specs",
    "same_points",
    "same_value",
    "spec_colour",
]
