"""f-puzzles: reading the keys of lines, dots, sums and marked cells (variants part 2), each
into its rule class (:mod:`sudoku_cp.rules`); :mod:`.fpuzzles_rules_writer` writes them back.

Each reading follows the established importers, named at the reading:
**dclamage/SudokuSolver** (``SudokuSolver/SolverFactory.cs``, ``PuzzleFormats/FPuzzlesBoard.cs``
and the constraint classes it builds), **yusitnikov/puzzletv** (``src/data/puzzles/FPuzzles.tsx``)
and **SudokuPad**'s f-puzzles decoder (``fpuzzlesdecoder.js``). In short:

- ``thermometer``, ``renban``, ``whispers``, ``palindrome``, ``betweenline``: ``{"lines":
  [[cells …], …]}``; every line of an entry is one rule, a thermometer's bulb its first cell;
  a whispers entry's ``value`` is its difference (default ``whispers_gap(size)``, 5 on 9x9).
- ``arrow``: ``{"cells": circle, "lines": [...]}``; each line is one arrow summing to the
  circle; a line starts in the circle, and its other cells are the arrow's; a circle of several
  cells reads as a number, its digits in the order ``cells`` lists them.
- ``littlekillersum``: ``{"cell", "direction", "value"}``: the clue's cell (outside the grid, or
  at its edge) and ``UR``/``UL``/``DR``/``DL``; the diagonal runs from there to the grid's edge.
- ``sandwichsum``: ``{"cell", "value"}``, the cell outside the grid naming a row or column.
- ``skyscraper``, ``xsum``: ``{"cell", "value"}`` likewise, read from the clue's side.
- ``difference`` / ``ratio`` / ``xv``: ``{"cells": [a, b], "value"}`` (white dot 1, black dot 2,
  ``X`` = 10, ``V`` = 5); ``negative``: ``["ratio", "xv"]``, every such mark is given.
- ``odd``, ``even``, ``minimum``, ``maximum``: ``[{"cell"}, …]`` (a minimum / maximum cell is
  compared with its orthogonal neighbours that are not minimum / maximum cells too);
  ``clone``: ``{"cells", "cloneCells"}``; ``quadruple``: ``{"cells", "values"}``.
- ``slowthermometer``, ``entropicline``, ``modularline``, ``nabner``, ``zipperline``,
  ``doublearrow``, ``regionsumline``, ``lockout``: ``{"lines": [[cells …], …]}``, every line
  one rule (:mod:`sudoku_cp.rules.lines_more` gives each meaning with its reference); a region
  sum line is cut by the puzzle's regions, which the caller passes in.

A clue with an empty value (a sandwich, little killer or XV mark not filled in) is no rule, as
every importer reads it; so is a little killer of 0 or below (dclamage). Anything malformed is
one line naming the key, the entry and the place. The meaning of every key, with its edge cases
and sources, is tabled in ``docs/formats/fpuzzles.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import ModelError, PuzzleError
from ..rules import (
    XV,
    Arrow,
    BetweenLine,
    Clone,
    Difference,
    DoubleArrow,
    EntropicLine,
    Even,
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
    Renban,
    Rule,
    Sandwich,
    Skyscraper,
    SlowThermometer,
    Thermometer,
    Whispers,
    XSum,
    whispers_gap,
)
from ..rules.base import ORTHOGONAL, check_line, moves_apart
from ..rules.cells import orthogonal_neighbours
from ..rules.lines_more import entropic_tops, lockout_gap, region_sum_lines, zipper_lines
from ..rules.outside import outside_line
from .links import short_text

LINE_KEYS = ("thermometer", "renban", "whispers", "palindrome", "betweenline")
DOT_KEYS = ("difference", "ratio", "xv")
CELL_KEYS = ("odd", "even", "minimum", "maximum")
MORE_LINE_KEYS = (
    "slowthermometer",
    "entropicline",
    "modularline",
    "nabner",
    "zipperline",
    "doublearrow",
    "regionsumline",
    "lockout",
)
PART2_KEYS = (
    "arrow",
    "littlekillersum",
    "sandwichsum",
    "skyscraper",
    "xsum",
    *LINE_KEYS,
    *DOT_KEYS,
    "negative",
    *CELL_KEYS,
    "clone",
    "quadruple",
    *MORE_LINE_KEYS,
)
"""The keys this module reads."""

_LINE_RULES: dict[str, type[Thermometer | Renban | Palindrome | BetweenLine]] = {
    "thermometer": Thermometer,
    "renban": Renban,
    "palindrome": Palindrome,
    "betweenline": BetweenLine,
}
# ASCII digits only, as SudokuPad's fpuzzlesParseRC (src/sudokupad/fpuzzlesdecoder.js:
# /R([0-9]+)C([0-9]+)/) and dclamage's FPuzzlesUtility.ParseCell (PuzzleFormats/FPuzzlesBoard.cs,
# whose int.Parse refuses other scripts' digits) read them; "-" only to say "outside" of R-1C1.
_CELL = re.compile(r"R(-?[0-9]+)C(-?[0-9]+)", re.IGNORECASE)
_FAR = 10**9
"""Where a row or column number too long to convert lies: outside any grid (SudokuPad's Number()
of a long run of digits is as far out; Python's int() refuses more than 4,300 digits)."""


def cell_place(item: Any) -> tuple[int, int] | None:
    """The (row, column), from 1, an f-puzzles cell name such as ``"R1C1"`` names (None when
    ``item`` is not one). A number too long for ``int()`` is far outside any grid.

    >>> cell_place(" r2C10 "), cell_place("R" + "0" * 5000 + "3C1"), cell_place("R٣C1")
    ((2, 10), (3, 1), None)
    >>> cell_place("R" + "9" * 5000 + "C1")[0] > 64
    True
    """
    match = _CELL.fullmatch(item.strip()) if isinstance(item, str) else None
    if match is None:
        return None
    return _bounded(match.group(1)), _bounded(match.group(2))


def _bounded(digits: str) -> int:
    sign = -1 if digits.startswith("-") else 1
    significant = digits.lstrip("-").lstrip("0") or "0"
    return sign * (int(significant) if len(significant) <= 9 else _FAR)


def cell_name(cell: int, size: int) -> str:
    """The f-puzzles name of a cell (from 0, in reading order): :func:`cell_place`'s inverse.

    >>> cell_name(9, 4)
    'R3C2'
    """
    return f"R{cell // size + 1}C{cell % size + 1}"


# Little killer directions as (row step, column step): dclamage's LittleKillerConstraint and
# SudokuPad's littlekillerDirs agree.
DIRECTIONS = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}
XV_VALUES = {"X": 10, "V": 5}
NEGATIVE_KINDS = ("difference", "ratio", "xv")
NEGATIVE_READ = ("ratio", "xv")
"""The kinds the ``negative`` key may name (the white dots' negative is ``nonconsecutive``)."""


def _json(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 30 else text[:30] + "…"


# --- reading -------------------------------------------------------------------------------------
class _Reader:
    """Reads one puzzle's part-2 keys; ``size`` is the grid's, ``regions`` the region of each
    cell (None: in none), which cut region sum lines."""

    def __init__(self, data: dict, size: int, regions: Sequence[int | None] | None) -> None:
        self.data = data
        self.size = size
        self.regions = regions

    # cells
    def place(self, item: Any, where: str, *, outside: bool = False) -> tuple[int, int]:
        """The (row, column) from 0 a cell name gives; ``outside`` allows the ring of cells
        around the grid (rows and columns 0 and N+1 in f-puzzles' names)."""
        place = cell_place(item)
        if place is None:
            raise PuzzleError(f'{where}: {_json(item)} is not a cell such as "R1C1"')
        row, col = place[0] - 1, place[1] - 1
        low, high = (-1, self.size) if outside else (0, self.size - 1)
        if not (low <= row <= high and low <= col <= high):
            ring = " or the ring around it" if outside else ""
            grid = f"{self.size}x{self.size} grid{ring}"
            raise PuzzleError(f"{where}: cell {short_text(item)} is outside the {grid}")
        return row, col

    def cell(self, item: Any, where: str) -> int:
        row, col = self.place(item, where)
        return row * self.size + col

    def cells(self, value: Any, where: str, what: str = "cells") -> tuple[int, ...]:
        if not isinstance(value, list) or not value:
            raise PuzzleError(f'{where}: {what!r} must be a list of cells such as "R1C1"')
        return tuple(self.cell(item, where) for item in value)

    # entries
    def entries(self, key: str, shape: str) -> list[tuple[str, dict]]:
        """The objects listed under ``key``, each with its place in messages."""
        value = self.data.get(key)
        if value is None or value == []:
            return []
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise PuzzleError(f"f-puzzles {key!r} must be a list of objects with {shape}")
        return [(f"f-puzzles {key} {number}", item) for number, item in enumerate(value, 1)]

    def lines(self, key: str) -> Iterable[tuple[str, dict, tuple[int, ...]]]:
        for where, entry in self.entries(key, "'lines'"):
            lines = entry.get("lines")
            if lines == []:  # no line, no rule: dclamage's SolverFactory and the JS solver loop
                continue  # over the entry's lines, and an empty list adds nothing
            if not isinstance(lines, list):
                raise PuzzleError(f"{where}: 'lines' must be a list of lines of cells")
            for number, line in enumerate(lines, 1):
                here = where if len(lines) == 1 else f"{where} line {number}"
                yield here, entry, self.cells(line, here, "lines")

    @staticmethod
    def checked(rule: Rule, size: int, where: str) -> Rule:
        """The rule, after its own check, whose error is prefixed with the f-puzzles place."""
        try:
            rule.check(size)
        except ModelError as err:
            raise PuzzleError(f"{where}: {err}") from None
        return rule

    @staticmethod
    def number(value: Any, where: str, what: str) -> int | None:
        """A whole number written as a number or as text; None for an empty value."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and len(value) <= 40 and re.fullmatch(r"\s*-?[0-9]+\s*", value):
            return int(value)
        raise PuzzleError(f"{where}: {what} {_json(value)} is not a whole number")

    # the keys
    def read(self) -> list[Rule]:
        rules: list[Rule] = []
        size = self.size
        for key, kind in _LINE_RULES.items():
            # Each line of an entry is its own rule (dclamage: one constraint per line; puzzletv
            # and SudokuPad draw each line); a thermometer's bulb is its line's first cell
            # (SudokuPad draws the bulb at cells[0]; dclamage's ThermometerConstraint rises
            # from the first cell).
            for where, _, cells in self.lines(key):
                rules.append(self.checked(kind(cells), size, where))
        for where, entry, cells in self.lines("whispers"):
            # The entry's 'value' is the difference; none: (N + 1) // 2 (dclamage's
            # WhispersConstraint; puzzletv passes the value on).
            gap = self.number(entry.get("value"), where, "its difference")
            gap = whispers_gap(size) if gap is None else gap
            rule = self.checked(Whispers(cells, gap), size, where)
            lone = [d for d in range(1, size + 1) if d - gap < 1 and d + gap > size]
            if len(cells) == 1 and lone:
                # dclamage's WhispersConstraint.InitCandidates clears from every cell of the
                # line the digits with no partner at the difference, even on a line of one
                # cell (the JS solver adds nothing there): a rule no class here states.
                raise PuzzleError(
                    f"{where}: a whispers line of one cell, which f-puzzles' solver reads as "
                    f"ruling out {', '.join(map(str, lone))} there: not supported"
                )
            rules.append(rule)
        rules += self.arrows()
        rules += self.little_killers()
        rules += self.sandwiches()
        rules += self.outside_clues()
        rules += self.dots()
        rules += self.marked_cells()
        rules += self.clones()
        rules += self.quadruples()
        rules += self.more_lines()
        return rules

    def more_lines(self) -> list[Rule]:
        """The line keys of :mod:`sudoku_cp.rules.lines_more`. dclamage's SolverFactory makes
        one constraint of each line of each entry (SudokuVariantSolverJS: ``params.lines.map``
        for lockout) from its cells alone: it reads no ``value`` for these keys, nor does
        either reference for any of them but lockout, whose difference is fixed (below)."""
        rules: list[Rule] = []
        size = self.size
        simple = (
            ("slowthermometer", SlowThermometer),
            ("modularline", ModularLine),
            ("nabner", Nabner),
        )
        for key, kind in simple:
            for where, _, cells in self.lines(key):
                rules.append(self.checked(kind(cells), size, where))
        for where, _, cells in self.lines("entropicline"):
            rules.append(self.checked(EntropicLine(cells, entropic_tops(size)), size, where))
        # The sum lines: parts of equal sums, one rule per equation; a line of a single part
        # says nothing (dclamage's EqualSumsConstraint adds nothing for fewer than 2 groups;
        # a double arrow of fewer than 3 cells has no groups), but must still be a line.
        for where, _, cells in self.lines("zipperline"):
            self.line_only(cells, "zipper line", where)
            rules += [self.checked(rule, size, where) for rule in zipper_lines(cells)]
        for where, _, cells in self.lines("doublearrow"):
            self.line_only(cells, "double arrow", where)
            if len(cells) >= 3:
                rules.append(self.checked(DoubleArrow(cells), size, where))
        for where, _, cells in self.lines("regionsumline"):
            # Runs of the line in one region, as the puzzle's regions (boxes, rows on a size
            # without boxes, jigsaw regions) cut it: dclamage's RegionSumLinesConstraint looks
            # up each cell's Region group.
            self.line_only(cells, "region sum line", where)
            if self.regions is None:
                raise PuzzleError(f"{where}: a region sum line needs the puzzle's regions")
            rules += [self.checked(r, size, where) for r in region_sum_lines(cells, self.regions)]
        for where, entry, cells in self.lines("lockout"):
            rules.append(self.lockout(entry, cells, where))
        return rules

    def line_only(self, cells: tuple[int, ...], title: str, where: str) -> None:
        try:
            check_line(cells, self.size, f"{title} from {cell_name(cells[0], self.size)}")
        except ModelError as err:
            raise PuzzleError(f"{where}: {err}") from None

    def lockout(self, entry: dict, cells: tuple[int, ...], where: str) -> Rule:
        # SudokuVariantSolverJS's LockoutConstraint: the ends differ by at least N // 2 on
        # every size, whatever 'value' says (it reads none); a value that says otherwise is
        # refused rather than guessed at.
        size = self.size
        gap = lockout_gap(size)
        value = self.number(entry.get("value"), where, "its difference")
        if value is not None and value != gap:
            raise PuzzleError(
                f"{where}: a lockout line's ends differ by at least {gap} on a {size}x{size} "
                f"grid (SudokuVariantSolverJS reads no value), not {value}"
            )
        if len(cells) == 1:
            # The reference takes the first cell as one end and has no other: no meaning.
            raise PuzzleError(f"{where}: a lockout line needs 2 cells or more (its two ends)")
        if len(cells) == 2:
            # Two ends and nothing between: only the ends' difference, a whispers pair.
            return self.checked(Whispers(cells, gap), size, where)
        return self.checked(Lockout(cells, gap), size, where)

    def arrows(self) -> list[Rule]:
        rules: list[Rule] = []
        for where, entry in self.entries("arrow", "'cells' and 'lines'"):
            # A circle of several cells (a pill) reads as a number, its digits in the order
            # 'cells' lists them: dclamage's ArrowSumConstraint concatenates them so
            # (ArrowConstraintHelpers.CalculatePillValueFromValues), and the JS solver takes
            # circleCells[0] as the tens digit. (The Interactive Sudoku Solver's own PillArrow
            # reads left to right, top to bottom; it is not an f-puzzles reader.)
            circle = self.cells(entry.get("cells"), where)
            lines = entry.get("lines") or []
            if not isinstance(lines, list):
                raise PuzzleError(f"{where}: 'lines' must be a list of lines of cells")
            # Each line is its own arrow summing to the circle (dclamage: one ArrowSumConstraint
            # per line; puzzletv: addArrow per line). A line starts in the circle, and only
            # that first cell is left off: dclamage's SolverFactory sums lines.Skip(1) (since
            # its commit 30313ca, for arrows that "loop back around and include a digit from
            # the pill"), as the JS solver (line.slice(1)). A line that comes back through
            # the circle sums a circle cell too, which Arrow cannot state: refused. An entry
            # without lines is a circle with no arrow: no rule (dclamage adds none).
            for number, line in enumerate(lines, 1):
                here = where if len(lines) == 1 else f"{where} line {number}"
                cells = self.cells(line, here, "lines")
                if cells[0] not in circle:
                    raise PuzzleError(f"{here}: the line does not start in the arrow's circle")
                body = cells[1:]
                if not body:
                    raise PuzzleError(f"{here}: the line has no cell outside the circle")
                back = [c for c in body if c in circle]
                if back:
                    raise PuzzleError(
                        f"{here}: the line comes back through the circle at "
                        f"{cell_name(back[0], self.size)}, which f-puzzles' solver adds to the "
                        "arrow's sum: not supported"
                    )
                rules.append(self.checked(Arrow(circle, body), self.size, here))
        return rules

    def little_killers(self) -> list[Rule]:
        rules: list[Rule] = []
        size = self.size
        for where, entry in self.entries("littlekillersum", "'cell', 'direction' and 'value'"):
            total = self.number(entry.get("value"), where, "its sum")
            if total is None or total <= 0:
                # No value, or 0 or below, is no clue: dclamage's SolverFactory adds a little
                # killer only when 'int.TryParse(value) && value > 0'. (The JS solver would
                # sum its cells to 0; SudokuPad only draws the clue.)
                continue
            direction = entry.get("direction")
            # Matched exactly: dclamage's LittleKillerConstraint matches '([UD][LR])'.
            step = DIRECTIONS.get(direction) if isinstance(direction, str) else None
            if step is None:
                raise PuzzleError(
                    f"{where}: direction {_json(direction)} is not one of UR, UL, DR, DL"
                )
            # The clue sits outside the grid and points into it: its first cell is one step
            # on; a clue cell at the grid's edge is itself the first cell (dclamage's
            # LittleKillerConstraint: "f-puzzles starts off the grid").
            row, col = self.place(entry.get("cell"), where, outside=True)
            if not (0 <= row < size and 0 <= col < size):
                row, col = row + step[0], col + step[1]
            if not (0 <= row < size and 0 <= col < size):
                raise PuzzleError(
                    f"{where}: the clue at {entry.get('cell')} pointing {direction} misses the grid"
                )
            cells = []
            while 0 <= row < size and 0 <= col < size:
                cells.append(row * size + col)
                row, col = row + step[0], col + step[1]
            rules.append(self.checked(LittleKiller(tuple(cells), total), size, where))
        return rules

    def sandwiches(self) -> list[Rule]:
        rules: list[Rule] = []
        size = self.size
        for where, entry in self.entries("sandwichsum", "'cell' and 'value'"):
            total = self.number(entry.get("value"), where, "its sum")
            cell = entry.get("cell")
            if total is None or cell is None or (isinstance(cell, str) and not cell.strip()):
                # No value, or no cell, is no clue: dclamage's SolverFactory passes each entry
                # to FPuzzlesCell.AddConstraint (PuzzleFormats/FPuzzlesBoard.cs), which skips
                # an empty value or an empty cell, as for skyscrapers and X-sums (puzzletv too).
                continue
            # The clue's cell lies outside the grid beside a row (column 0 or N+1) or above or
            # below a column (row 0 or N+1): dclamage's SandwichConstraint.
            row, col = self.place(cell, where, outside=True)
            beside_row = not 0 <= col < size
            beside_col = not 0 <= row < size
            if beside_row == beside_col:
                raise PuzzleError(
                    f"{where}: clue cell {entry.get('cell')} is not beside a row or column "
                    "outside the grid"
                )
            if beside_row:
                cells = tuple(row * size + c for c in range(size))
            else:
                cells = tuple(r * size + col for r in range(size))
            rules.append(self.checked(Sandwich(cells, total), size, where))
        return rules

    def outside_clues(self) -> list[Rule]:
        """Skyscrapers and X-sums, as dclamage/SudokuSolver reads them (``SolverFactory.cs``
        passes each entry to ``FPuzzlesCell.AddConstraint``, in ``PuzzleFormats/
        FPuzzlesBoard.cs``; ``Constraints/SkyscraperConstraint.cs`` and ``XSumConstraint.cs``
        turn the clue's cell into the line)."""
        rules: list[Rule] = []
        size = self.size
        kinds: dict[str, type[Skyscraper | XSum]] = {"skyscraper": Skyscraper, "xsum": XSum}
        for key, kind in kinds.items():
            for where, entry in self.entries(key, "'cell' and 'value'"):
                # AddConstraint skips an entry whose value or cell is empty. A value that is
                # no number (skipped there too) or is negative (its pattern "(\d+)" has no
                # sign, so -3 would read as 3) is refused here instead.
                value = self.number(entry.get("value"), where, "its clue")
                cell = entry.get("cell")
                if value is None or cell is None or (isinstance(cell, str) and not cell.strip()):
                    continue
                # The clue sits beside a row (column 0 or N+1) or a column (row 0 or N+1),
                # never at a corner; the line is read from the clue's side: a clue right of a
                # row or below a column reads it backwards (the constraints reverse the cells
                # when the clue's row or column is past the grid's last).
                row, col = self.place(cell, where, outside=True)
                cells = outside_line(row, col, size)
                if cells is None:
                    raise PuzzleError(
                        f"{where}: clue cell {cell} is not beside a row or column outside the grid"
                    )
                rules.append(self.checked(kind(cells, value), size, where))
        return rules

    def dots(self) -> list[Rule]:
        rules: list[Rule] = []
        size = self.size
        marked: dict[str, list[tuple[int, int]]] = {kind: [] for kind in DOT_KEYS}
        values: dict[str, set[int]] = {kind: set() for kind in DOT_KEYS}
        for key in DOT_KEYS:
            for where, entry in self.entries(key, "'cells'"):
                raw = entry.get("value")
                if key == "xv":
                    # "X" or "x" is a sum of 10, "V" or "v" of 5, exactly (dclamage's
                    # SolverFactory throws on any other letter; the JS solver drops it); a mark
                    # with no letter is skipped, as dclamage does.
                    if raw is None or (isinstance(raw, str) and not raw.strip()):
                        continue
                    value = XV_VALUES.get(raw.upper()) if raw in ("x", "v", "X", "V") else None
                    if value is None:
                        raise PuzzleError(f"{where}: XV value {_json(raw)} is not X or V")
                else:
                    # No value: a white dot's difference is 1, a black dot's ratio 2
                    # (dclamage's DefaultMarkerValue; puzzletv's optional value).
                    read = self.number(raw, where, "its value")
                    value = (1 if key == "difference" else 2) if read is None else read
                cells = self.cells(entry.get("cells"), where)
                if len(cells) != 2:
                    raise PuzzleError(f"{where}: a mark lies between 2 cells, not {len(cells)}")
                kind = {"difference": Difference, "ratio": Ratio, "xv": XV}[key]
                rules.append(self.checked(kind((cells[0], cells[1]), value), size, where))
                marked[key].append((min(cells), max(cells)))
                values[key].add(value)
        rules += self.negatives(marked, values)
        return rules

    def negatives(
        self, marked: dict[str, list[tuple[int, int]]], values: dict[str, set[int]]
    ) -> list[Rule]:
        """The negative constraints, as dclamage's OrthogonalValueConstraint reads them: every
        orthogonal pair without a mark of the family may not hold what such a mark allows. The
        white and black dots are one family (DifferenceConstraint and RatioConstraint name each
        other as related: a dot of either kind exempts its pair from both negatives); X and V
        are another. The values forbidden: the black dots' ratios (2 when there are none), X
        and V's 10 and 5 always; ``nonconsecutive`` is the white dots' negative with difference
        1 (f-puzzles' name for it; ``negative: ["difference"]`` is refused)."""
        raw = self.data.get("negative")
        if raw is None or raw == []:
            kinds: list[str] = []
        elif isinstance(raw, list) and all(isinstance(k, str) for k in raw):
            # Matched exactly, as dclamage ('negative?.Contains("ratio")') and the JS solver
            # ('includes') match them: "Ratio" is no ratio negative to either.
            kinds = list(dict.fromkeys(raw))
        else:
            raise PuzzleError(
                f'f-puzzles \'negative\' must be a list of mark kinds such as ["ratio", "xv"], '
                f"not {_json(raw)}"
            )
        for kind in kinds:
            if kind == "difference":
                # dclamage's SolverFactory reads only "ratio" and "xv" from 'negative' (f-puzzles
                # states the white dots' negative as 'nonconsecutive'); the JS solver
                # (KropkiConstraint.ts) forbids each white dot's value, and nothing without
                # dots. No meaning to follow, so it is refused like any rule not known.
                raise PuzzleError(
                    "f-puzzles 'negative': 'difference' is not read (f-puzzles' solver gives it "
                    "no meaning; the white dots' negative is 'nonconsecutive')"
                )
            if kind not in NEGATIVE_READ:
                raise PuzzleError(
                    f"f-puzzles 'negative': {short_text(kind)!r} is not a kind of mark "
                    f"({', '.join(NEGATIVE_READ)})"
                )
        kropki = set(marked["difference"]) | set(marked["ratio"])
        nonconsecutive = self.data.get("nonconsecutive") is True and bool(kropki)
        every = moves_apart(self.size, ORTHOGONAL)
        rules: list[Rule] = []
        for kind in NEGATIVE_KINDS:
            if kind == "difference" and nonconsecutive:
                forbidden: set[int] = {1}
            elif kind in kinds:
                default = {"ratio": {2}, "xv": {5, 10}}[kind]
                forbidden = default if kind == "xv" else values[kind] or default
            else:
                continue
            exempt = set(marked["xv"]) if kind == "xv" else kropki
            pairs = tuple(pair for pair in every if pair not in exempt)
            rule = Negative(kind, pairs, tuple(sorted(forbidden)))
            rules.append(self.checked(rule, self.size, f"f-puzzles negative {kind!r}"))
        return rules

    def marked_cells(self) -> list[Rule]:
        rules: list[Rule] = []
        for key in CELL_KEYS:
            cells = []
            for where, entry in self.entries(key, "'cell'"):
                item = entry.get("cell")
                if item is None or (isinstance(item, str) and not item.strip()):
                    continue  # dclamage skips an entry without a cell
                cells.append((where, self.cell(item, where)))
            if key in ("odd", "even"):
                if cells:
                    kind = Odd if key == "odd" else Even
                    where = cells[0][0] if len(cells) == 1 else f"f-puzzles {key}"
                    rule = kind(tuple(dict.fromkeys(c for _, c in cells)))
                    rules.append(self.checked(rule, self.size, where))
                continue
            # A fortress cell is compared only with its neighbours that are not cells of the
            # same kind: dclamage's MinimumConstraint / MaximumConstraint (ValidAdjacentCells
            # skips the constraint's own cells; SolverFactory.cs makes one constraint of all
            # the key's cells) and SudokuVariantSolverJS (SingleCellConstraints.ts: "Skip if
            # the neighbor is also a minimum cell"). A minimum beside a maximum is compared.
            extremum = Minimum if key == "minimum" else Maximum
            fortress = {cell for _, cell in cells}
            for where, cell in cells:
                around = orthogonal_neighbours(cell, self.size)
                others = tuple(n for n in around if n not in fortress)
                mark = extremum(cell) if others == around else extremum(cell, others)
                rules.append(self.checked(mark, self.size, where))
        return rules

    def clones(self) -> list[Rule]:
        rules: list[Rule] = []
        for where, entry in self.entries("clone", "'cells' and 'cloneCells'"):
            cells = self.cells(entry.get("cells"), where)
            clones = self.cells(entry.get("cloneCells"), where, "cloneCells")
            if len(cells) != len(clones):
                raise PuzzleError(
                    f"{where}: {len(cells)} cells cloned onto {len(clones)} cloneCells"
                )
            # cells[i] holds the digit of cloneCells[i]; a cell cloned onto itself says
            # nothing (dclamage skips the pair).
            pairs = [(a, b) for a, b in zip(cells, clones, strict=True) if a != b]
            if pairs:
                rule = Clone(tuple(a for a, _ in pairs), tuple(b for _, b in pairs))
                rules.append(self.checked(rule, self.size, where))
        return rules

    def quadruples(self) -> list[Rule]:
        rules: list[Rule] = []
        for where, entry in self.entries("quadruple", "'cells' and 'values'"):
            cells = self.cells(entry.get("cells"), where)
            raw = entry.get("values")
            if not isinstance(raw, list):
                raise PuzzleError(f"{where}: 'values' must be a list of digits")
            # The listed digits all appear in the cells, a digit listed twice twice
            # (dclamage's QuadrupleConstraint; puzzletv's QuadConstraint).
            digits = []
            for item in raw:
                digit = self.number(item, where, "digit")
                if digit is None:
                    raise PuzzleError(f"{where}: {_json(item)} is not a digit")
                digits.append(digit)
            rules.append(self.checked(Quadruple(cells, tuple(digits)), self.size, where))
        return rules


def read_part2(data: dict, size: int, regions: Sequence[int | None] | None = None) -> list[Rule]:
    """The rules a puzzle's part-2 keys (:data:`PART2_KEYS`) state; ``PuzzleError`` naming the
    key, entry and place for anything malformed. ``regions`` (a region number per cell, None
    for a cell in none) cut region sum lines, which cannot be read without them.

    >>> rules = read_part2({"thermometer": [{"lines": [["R1C1", "R1C2", "R2C3"]]}]}, 4)
    >>> rules
    [Thermometer(cells=(0, 1, 6))]
    """
    return _Reader(data, size, regions).read()


def kropki_negative(data: dict) -> bool:
    """Whether ``nonconsecutive`` is the white dots' negative constraint rather than the global
    rule: it is when the puzzle has kropki dots (dclamage reads ``nonconsecutive`` as the
    difference-1 negative of its DifferenceConstraint, which dots exempt)."""
    return data.get("nonconsecutive") is True and any(
        isinstance(data.get(key), list) and data[key] for key in ("difference", "ratio")
    )


__all__ = ["PART2_KEYS", "cell_name", "kropki_negative", "read_part2"]
