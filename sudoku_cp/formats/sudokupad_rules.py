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

(:func:`.sudokupad_elements.parse_element_specs`). No verdict rests on a silently ignored or
guessed element. The table of styles is ``docs/formats/sudokupad_elements.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..errors import PuzzleError
from .fpuzzles import MAX_FPUZZLES_SIZE, default_regions
from .links import short_text
from .sudokupad_elements import (
    EPS,
    Cell,
    cell_name,
    cell_names,
    parse_element_specs,
    same_points,
    same_value,
    spec_colour,
)
from .sudokupad_lines import LineDrawings
from .sudokupad_marks import MarkDrawings

# The converter's metadata tags (reMetaTags): "name: text", the text running to the end.
_META = re.compile(r"^([^: ]+):\s*([\s\S]+)", re.MULTILINE)
_NUMBER = re.compile(r"\s*-?[0-9]+(?:\.[0-9]*)?\s*")
_SQUARE_KEYS = frozenset({"backgroundColor", "center", "rounded", "width", "height"})


class _Reader(LineDrawings, MarkDrawings):
    """The reading of one puzzle object: its cells, regions, global rules, metadata and cages
    here; its drawings by the readings of lines (:class:`.sudokupad_lines.LineDrawings`) and of
    clues and marks (:class:`.sudokupad_marks.MarkDrawings`), then what is left over."""

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
            # puzzletools.js decodeSCF: an scf id's flags 'x' (both diagonals, their lines
            # drawn too) and 'w' (windoku, its four 3x3 boxes drawn as grey underlays).
            "diagonal+",
            "diagonal-",
            "windoku",
        }
        for key, value in self.scl.items():
            if key not in known and value not in (None, [], {}, "", False):
                raise PuzzleError(
                    f"SudokuPad puzzle key {short_text(str(key))!r} is not read by this tool "
                    "(checked without it, the verdict could be wrong)"
                )
        self.converted = str(self.scl.get("id", "")).startswith("fpuzzle")
        self.read_cells()
        self.read_regions()
        self.read_global()
        self.read_flags()
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
                        f"SudokuPad region {number + 1}: cell {cell_name(cell).lower()} is in "
                        f"region {region_of[cell] + 1} too"
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

    def read_flags(self) -> None:
        # decodeSCF: 'diagonal+' / 'diagonal-' / 'windoku' true (getPuzTypes reads them so).
        self.windoku = False
        for key in ("diagonal+", "diagonal-", "windoku"):
            value = self.scl.get(key)
            if value in (None, False):
                continue
            if value is not True:
                raise PuzzleError(f"SudokuPad {key!r} must be true or false")
            if key == "windoku":
                if self.size != 9:
                    raise PuzzleError("SudokuPad 'windoku' is read on a 9x9 grid only")
                self.windoku = True
                for top, left in _WINDOKU:
                    cells = [(top + dr, left + dc) for dr in range(3) for dc in range(3)]
                    self.add("extraregion", {"cells": [cell_name(c) for c in cells]})
            else:
                self.out[key] = True

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
            if any(pictures) and ("image", spec_colour(key)) not in self.specs:
                raise PuzzleError(
                    f"SudokuPad metadata {key!r} shows a picture ({short_text(pictures[0])}) that "
                    "may draw rules this tool cannot see; if it draws none, say so with "
                    f"--element 'image:{spec_colour(key)}=cosmetic'"
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
            what = f"cage {cell_names(cells)}"
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
                if keys != {"style", "unique", "sum"} or not same_value(
                    cage.get("sum"), n * (n + 1) // 2
                ):
                    self.spec_cage(cage, cells, what, "an extra-region cage not the converter's")
                else:
                    self.add("extraregion", {"cells": [cell_name(c) for c in cells]})
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
                    self.add(key, {"cells": [cell_name(c) for c in cells]})
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
                f"SudokuPad hidden cage {cell_names(hidden)} is not the cells in no region"
            )
        self.meta_text()

    def killer(self, cage: dict, cells: list[Cell], what: str, *, spec: bool = False) -> None:
        value = cage.get("value")
        entry: dict[str, Any] = {"cells": [cell_name(c) for c in cells]}
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
            if "sum" in cage and not same_value(cage["sum"], int(text)):
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
            raise self.error("cage", cage, "cage", cell_names(cells), reason)
        if spec.key == "killercage":
            kept = {k: v for k, v in cage.items() if k in ("cells", "value")}
            self.killer(kept, cells, what, spec=True)
        elif spec.key == "extraregion":
            self.add("extraregion", {"cells": [cell_name(c) for c in cells]})

    def check_disjoint(self, disjoint: list[list[Cell]]) -> None:
        if not disjoint:
            return
        if "disjoint" not in self.globals:
            raise PuzzleError(
                f"SudokuPad disjoint-group cage {cell_names(disjoint[0])} without the global "
                "'disjoint'"
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
        if self.windoku:
            # decodeSCF's windoku boxes: {center, width 3, height 3, backgroundColor #CFCFCF}.
            for j, under in self.unused("u", self.underlays):
                if set(under) == {"center", "width", "height", "backgroundColor"} and (
                    spec_colour(under.get("backgroundColor")) == "#cfcfcf"
                    and same_value(under.get("width"), 3)
                    and same_value(under.get("height"), 3)
                    and any(
                        same_points(
                            [self.point(under.get("center"), "windoku box")],
                            [(top + 1.5, left + 1.5)],
                        )
                        for top, left in _WINDOKU
                    )
                ):
                    self.used["u"].add(j)
        self.leftovers()

    def leftovers(self) -> None:
        """Every element no converter style took: read by an element spec, left out by one
        (``cosmetic``, or a cell colour), or refused by name."""
        for _, line in self.unused("lines", self.lines):
            pts = self.points(line, "line")
            where = self.where(pts)
            spec = self.specs.get(("line", spec_colour(line.get("color"))))
            if spec is None:
                thick = line.get("thickness")
                raise self.error(
                    "line",
                    line,
                    f"line {spec_colour(line.get('color'))} (thickness {thick})",
                    where,
                    "a line style the converter writes for no rule",
                )
            if spec.key == "cosmetic":
                continue
            cells = self.line_cells(line, f"line {spec_colour(line.get('color'))} {where}")
            if spec.key in _BULB_FIRST:
                cells = self.bulb_first(cells, f"line {spec_colour(line.get('color'))} {where}")
            entry: dict[str, Any] = {"lines": [[cell_name(c) for c in cells]]}
            if spec.value is not None:
                entry["value"] = spec.value
            self.add(spec.key, entry)
        for _, arrow in self.unused("arrows", self.arrows):
            pts = self.points(arrow, "arrow")
            spec = self.specs.get(("arrow", spec_colour(arrow.get("color"))))
            if spec is None:
                raise self.error(
                    "arrow",
                    arrow,
                    f"arrow {spec_colour(arrow.get('color'))}",
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
                    and self.converted
                    and set(item) == _SQUARE_KEYS
                    and item.get("rounded") is False
                    and same_value(item.get("width"), 1)
                    and same_value(item.get("height"), 1)
                    and spec_colour(item.get("backgroundColor")) != "#cccccc"
                ):
                    # parse.grid: a cell's colour (f-puzzles 'c'/'cArray'), a full square with
                    # no border; cosmetic, as the f-puzzles reader reads 'c'. Only in a puzzle
                    # the converter made (its 'id', createFpuzId: 'fpuzzle' and an md5): a
                    # setter's own shading may carry a rule, so it needs an --element spec.
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
                    self.add(spec.key, {"cell": cell_name(cell)})
                elif spec.key in ("difference", "ratio"):
                    pair = self.edge_cells(center, item, f"{label} {where}")
                    if pair is None:  # (edge_cells leaves it to the spec, which says a dot)
                        raise PuzzleError(
                            f"SudokuPad {label} {where}: --element says it is a {spec.key} dot, "
                            "but it is not on the edge of two cells"
                        )
                    entry = {"cells": [cell_name(pair[0]), cell_name(pair[1])]}
                    if spec.value is not None:
                        entry["value"] = spec.value
                    self.add(spec.key, entry)

    def bulb_first(self, cells: list[Cell], what: str) -> list[Cell]:
        """A line an element spec calls a thermometer, from its bulb: SudokuPad draws the bulb
        as a round mark on the line's first cell (``parse.thermometer``), but a setter's own
        line may be drawn from the tip. A round underlay or overlay centred on exactly one end
        is the bulb; on both ends it is refused; on neither, the first point is the bulb."""
        ends = [
            any(
                item.get("rounded") is True
                and isinstance(item.get("center"), list)
                and self.point(item.get("center"), "round mark") == (r + 0.5, c + 0.5)
                for item in (*self.underlays, *self.overlays)
            )
            for r, c in (cells[0], cells[-1])
        ]
        if ends == [True, True] and len(cells) > 1:
            raise PuzzleError(
                f"SudokuPad {what}: a round mark on both ends, so which is the bulb is not "
                "certain (draw the line from its bulb, or remove the other mark)"
            )
        return cells[::-1] if ends == [False, True] else cells

    def where(self, pts: Sequence[tuple[float, float]]) -> str:
        """Points named as cells where they are cell centres (else as coordinates)."""
        names = []
        for r, c in pts:
            rr, cc = r - 0.5, c - 0.5
            if abs(rr - round(rr)) < EPS and abs(cc - round(cc)) < EPS:
                names.append(cell_name((round(rr), round(cc))).lower())
            else:
                names.append(f"[{r:g}, {c:g}]")
        return (
            ("at " if len(names) == 1 else "through ")
            + "-".join(names[:12])
            + ("…" if len(names) > 12 else "")
        )


_BULB_FIRST = ("thermometer", "slowthermometer")
"""Line keys read from one end (the bulb): :meth:`_Reader.bulb_first` finds it."""

_WINDOKU = ((1, 1), (1, 5), (5, 1), (5, 5))
"""The top-left cells (from 0) of windoku's four extra boxes (decodeSCF's underlays)."""

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


def _partition(regions: Sequence[int | None]) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for i, region in enumerate(regions):
        if region is not None:
            groups.setdefault(region, set()).add(i)
    return {frozenset(g) for g in groups.values()}


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


__all__ = ["scl_to_fpuzzles"]
