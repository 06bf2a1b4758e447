"""f-puzzles: the exchange format of variant Sudoku — reading its JSON, payloads and links, and
writing puzzles back so that a result opens in the web tools.

An f-puzzles puzzle is one JSON object. f-puzzles has no formal specification; each key is
read as the established importers read it, and the comment at each reading names them:

- **SudokuPad**'s f-puzzles decoder (``fpuzzlesdecoder.js``, as vendored in
  marktekfan/sudokupad-penpa-import ``src/sudokupad/fpuzzlesdecoder.js``, formerly
  ``docs/lib/``),
- **dclamage/SudokuSolver** (the solver behind f-puzzles' own solve buttons:
  ``SudokuSolver/SolverFactory.cs``, ``PuzzleFormats/FPuzzlesBoard.cs``, ``SolverUtility.cs``),
- **yusitnikov/puzzletv**'s importer (``src/data/puzzles/FPuzzles.tsx``).

What is read (anything else that is a rule makes the puzzle invalid, naming the key — a verdict
never silently ignores a rule; every key's meaning, edge cases and sources are tabled in
``docs/formats/fpuzzles.md``):

==================================  ============================================================
``size``, ``grid[r][c]``            the grid; ``value`` is a given only with ``given: true``
``grid[r][c].region``               irregular regions (jigsaw), replacing the default boxes
``diagonal-`` / ``diagonal+``       the diagonal from the top-left / from the top-right corner
``extraregion``                     more all-different groups (``{"cells": ["R1C1", …]}``)
``disjointgroups``                  the cells at the same place in every region differ (every
                                    cell must be in a region)
``killercage``                      a cage: different digits, summing to ``value`` when above 0
``antiknight``, ``antiking``        cells a knight's / king's move apart differ
``nonconsecutive``                  orthogonal neighbours are not consecutive (beside kropki
                                    dots: every white dot is given, as dclamage reads it)
lines, dots, sums, marked cells     ``thermometer``, ``arrow``, ``littlekillersum``,
                                    ``sandwichsum``, ``difference``, ``ratio``, ``xv``,
                                    ``negative``, ``odd``, ``even``, ``minimum``, ``maximum``,
                                    ``renban``, ``whispers``, ``palindrome``, ``betweenline``,
                                    ``clone``, ``quadruple``, ``slowthermometer``,
                                    ``entropicline``, ``modularline``, ``nabner``,
                                    ``zipperline``, ``doublearrow``, ``regionsumline``,
                                    ``lockout``: see :mod:`.fpuzzles_rules`
``rowindexer``, ``columnindexer``,  indexer cells, and a cell's only candidates when it has no
``boxindexer``,                     given: see :mod:`.fpuzzles_indexers`
``grid[r][c].givenPencilMarks``
==================================  ============================================================

Cosmetic keys (title, author, licence and source, rules text, colours, text, lines, circles,
rectangles, plain ``cage`` outlines, centre and corner pencil marks, the ``solution``, solver
settings) are read and ignored. A ``cage`` of 1 to N cells valued ``DR<n>`` is a digit-root
killer cage, read as f-puzzles' solver reads it (:func:`_digit_root_cages`) and written back so.

Where an f-puzzles puzzle is found: an f-puzzles link (``https://f-puzzles.com/?load=…``; a
``?id=`` short link needs the f-puzzles server and cannot be read offline), a SudokuPad link
that carries an f-puzzles payload (``https://sudokupad.app/fpuzzles…``, ``…/fpuz…``,
``…?puzzleid=fpuzzles…``, ``sudokupad://puzzle/fpuzzles…``), the bare lz-string base64
payload, or the JSON object itself (:func:`is_fpuzzles`).

>>> from sudoku_cp.model import load_model
>>> data = {"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3,
...         "antiknight": True, "killercage": [{"cells": ["R4C3", "R4C4"], "value": "3"}]}
>>> cells, size, model = read_fpuzzles(data, load_model("classic"))
>>> cells[:4], size, model.label.endswith("classic.toml + anti-knight + killer cages")
((1, 0, 0, 0), 4, True)
>>> read_fpuzzles(dict(data, somethingnew=[{"lines": [["R1C1", "R1C2"]]}]), load_model())
Traceback (most recent call last):
...
sudoku_cp.errors.PuzzleError: f-puzzles key 'somethingnew' is a rule this tool does not support \
yet (checked without it, the verdict would be wrong)
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..errors import ModelError, PuzzleError
from ..model import Model, box_shape
from ..rules import AntiKing, AntiKnight, Cage, DigitRootCage, NonConsecutive, Rule
from ..rules.sums import MAX_ROOT
from .fpuzzles_indexers import (
    INDEXER_KEYS,
    PENCIL_MARKS,
    WRITTEN_HERE,
    read_indexers,
    read_pencil_marks,
    write_indexers,
    write_pencil_marks,
)
from .fpuzzles_rules import PART2_KEYS, cell_name, cell_place, kropki_negative, read_part2
from .fpuzzles_rules_writer import WRITTEN, write_part2
from .line import Grid, format_line
from .links import FPUZZLES_LINK, short_text

MAX_FPUZZLES_SIZE = 16
"""The largest grid f-puzzles draws (16x16); sizes 1 to 16 are read and written."""

RULE_KEYS = (
    "size",
    "grid",
    "diagonal+",
    "diagonal-",
    "extraregion",
    "disjointgroups",
    "killercage",
    "antiknight",
    "antiking",
    "nonconsecutive",
    *PART2_KEYS,
    *INDEXER_KEYS,
)
"""The keys read as rules (and the grid); lines, dots, sums and marked cells are read in
:mod:`.fpuzzles_rules`, indexers (and given pencil marks) in :mod:`.fpuzzles_indexers`."""

COSMETIC_KEYS = frozenset(
    {
        "title",
        "author",
        # Where a puzzle came from and on what terms (as the bundled ``published`` set carries
        # them): attribution, no rule.
        "license",
        "source",
        "ruleset",
        "solution",
        "successMessage",
        "text",
        "line",
        "circle",
        "rectangle",
        "cage",  # a plain outline (but see _digit_root_cages: digit-root cages are rules)
        "highlight",
        "c",
        "cellC",
        "cArray",
        "metadata",
        "fogofwar",  # fog of war hides cells while solving; the rules stay the same
        "foglight",
        "disabledlogic",  # settings of f-puzzles' own solver
        "truecandidatesoptions",
        # The names of the constraints f-puzzles' editor shows as in use ("Killer Cage"): each
        # rule's data is under its own key, read (or refused) there.
        "activeConstraints",
    }
)
"""Keys read and ignored: they draw or describe the puzzle but are no rule of it."""

_CELL_KEYS = frozenset({"value", "given", "region", PENCIL_MARKS})
_COSMETIC_CELL_KEYS = frozenset(
    {
        "centerPencilMarks",
        "cornerPencilMarks",
        "candidates",
        "c",
        "cArray",
        "highlight",
        "highlightArray",
        "cellC",
    }
)


# --- reading -------------------------------------------------------------------------------------
def is_fpuzzles(data: Any) -> bool:
    """True for decoded JSON that is an f-puzzles object: it has a ``grid`` list of rows (and
    usually a ``size``), and no ``puzzle`` key of this project's JSON form.

    >>> is_fpuzzles({"size": 1, "grid": [[{}]]}), is_fpuzzles({"puzzle": "1..."})
    (True, False)
    """
    if not isinstance(data, dict) or "puzzle" in data:
        return False
    # ``size`` and ``grid`` together say f-puzzles even when they are wrong, so the error is
    # f-puzzles' own ("'size' must be …"), not a missing 'puzzle' key.
    return ("size" in data and "grid" in data) or (
        isinstance(data.get("grid"), list) and bool(data["grid"])
    )


def _empty(value: Any) -> bool:
    return value is None or value is False or value == [] or value == {} or value == ""


def read_fpuzzles(data: Any, model: Model) -> tuple[Grid, int, Model]:
    """An f-puzzles object → its givens, its size and its model (``model`` with the puzzle's
    own regions, groups and rules, by :meth:`Model.with_rules`). A ``PuzzleError`` (or
    ``ModelError``) names what is wrong and where."""
    if not isinstance(data, dict):
        raise PuzzleError(f"an f-puzzles puzzle is a JSON object, not {type(data).__name__}")
    for key, value in data.items():
        if key in RULE_KEYS or key in COSMETIC_KEYS or _empty(value):
            continue
        raise PuzzleError(
            f"f-puzzles key {short_text(str(key))!r} is a rule this tool does not support yet "
            "(checked without it, the verdict would be wrong)"
        )
    grid = data.get("grid")
    size = _size(data, grid)
    cells, regions = _grid(grid, size)
    # Each cell's f-puzzles region (boxes, or rows without a box shape, unless stated), which
    # cut region sum lines as dclamage's Region groups do.
    cell_regions = list(default_regions(size)) if regions is None else list(regions)
    kinds = list(model.group_kinds)
    for kind in ("rows", "columns"):
        if kind not in kinds:
            kinds.insert(0 if kind == "rows" else 1, kind)
    groups: list[tuple[int, ...]] = []
    region_list, regions = _regions(regions, size, model)
    if region_list is None:  # no boxes: a size without box shape, or cells in no region
        kinds = [k for k in kinds if k not in ("boxes", "disjoint")]
        groups += _region_groups(regions, size) if regions is not None else []
    elif "boxes" not in kinds:
        kinds.append("boxes")
    # diagonal-: top-left to bottom-right; diagonal+: top-right (bottom-left) to the other
    # corner. SudokuPad draws 'diagonal+' from [0, width] to [height, 0] and 'diagonal-' from
    # [0, 0] to [height, width]; dclamage's DiagonalPositiveGroupConstraint runs (N-1, 0) →
    # (0, N-1).
    for key, kind in (("diagonal-", "diagonal"), ("diagonal+", "anti-diagonal")):
        if _flag(data, key) and kind not in kinds:
            kinds.append(kind)
    if _flag(data, "disjointgroups"):
        # The n-th cell (in reading order) of every region: SudokuPad's decoder
        # (parse.disjointgroups) and dclamage's DisjointGroupConstraint read it so.
        if regions is not None and None in regions:
            # dclamage's DisjointGroupConstraint counts cells per region (numSeen[region]),
            # which a cell of region null (-1) breaks, and the JS solver throws unless there
            # are N whole regions (DisjointGroupsConstraint.ts); only SudokuPad's decoder
            # groups the regions that are left. Refused, as f-puzzles' solver refuses it.
            raise PuzzleError(
                "f-puzzles 'disjointgroups' with cells in no region: f-puzzles' solver cannot "
                "load it, so it is not read"
            )
        if region_list == "boxes":
            if "disjoint" not in kinds:
                kinds.append("disjoint")
        else:
            groups += _disjoint_groups(regions, size)
    groups += _extra_regions(data.get("extraregion"), size)
    rules: list[Rule] = []
    for key, rule in (("antiknight", AntiKnight), ("antiking", AntiKing)):
        if _flag(data, key):
            rules.append(rule())
    # With kropki dots, 'nonconsecutive' is the white dots' negative constraint, which the dots
    # exempt (read with the dots in fpuzzles_rules); without, the global rule.
    if _flag(data, "nonconsecutive") and not kropki_negative(data):
        rules.append(NonConsecutive())
    rules += _killer_cages(data.get("killercage"), size)
    rules += _digit_root_cages(data.get("cage"), size)
    rules += read_part2(data, size, cell_regions)
    rules += read_indexers(data, size, regions if regions is not None else default_regions(size))
    rules += read_pencil_marks(grid, cells, size)
    ordered = tuple(dict.fromkeys(kinds))
    base = replace(model, group_kinds=ordered, regions=None)
    try:
        result = base.with_rules(
            regions=region_list if isinstance(region_list, tuple) else None,
            groups=groups,
            rules=rules,
            size=size,
        )
    except ModelError as err:
        raise PuzzleError(str(err)) from None
    return cells, size, result


def _flag(data: dict, key: str) -> bool:
    value = data.get(key)
    if value is None or isinstance(value, bool):
        return bool(value)
    raise PuzzleError(f"f-puzzles key {key!r} must be true or false, not {_json(value)}")


def _json(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 30 else text[:30] + "…"


def _size(data: dict, grid: Any) -> int:
    if not isinstance(grid, list) or not grid:
        raise PuzzleError("an f-puzzles puzzle needs a 'grid': a list of rows of cell objects")
    size = data.get("size", len(grid))
    if isinstance(size, bool) or not isinstance(size, int):
        raise PuzzleError(f"f-puzzles 'size' must be a whole number, not {_json(size)}")
    if not 1 <= size <= MAX_FPUZZLES_SIZE:
        raise PuzzleError(
            f"f-puzzles size {size} is outside 1..{MAX_FPUZZLES_SIZE} (the grids f-puzzles draws)"
        )
    if len(grid) != size:
        raise PuzzleError(f"f-puzzles 'grid' has {len(grid)} rows, but 'size' is {size}")
    return size


def _grid(grid: Any, size: int) -> tuple[Grid, list[int | None] | None]:
    """The givens, and the region of each cell when any cell states one (None: a cell in no
    region; a cell that states none keeps its default region)."""
    cells = [0] * (size * size)
    stated: dict[int, int | None] = {}
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != size:
            got = f"{len(row)} cells" if isinstance(row, list) else _json(row)
            raise PuzzleError(f"f-puzzles grid row {r + 1} is {got}, not a list of {size} cells")
        for c, cell in enumerate(row):
            where = f"f-puzzles grid R{r + 1}C{c + 1}"
            if not isinstance(cell, dict):
                raise PuzzleError(f"{where} is {_json(cell)}, not a cell object")
            for key, value in cell.items():
                if key in _CELL_KEYS or key in _COSMETIC_CELL_KEYS or _empty(value):
                    continue
                # A rule, as is any key not known to be cosmetic.
                raise PuzzleError(
                    f"{where}: key {short_text(str(key))!r} is a rule this tool does not "
                    "support yet"
                )
            value = cell.get("value")
            # Only a value marked given is a given: SudokuPad's decoder ('if(cell.given)
            # newCell.value = cell.value') and puzzletv ('if (given && value !== undefined)');
            # a value without it is a solver's entry. (dclamage's solver can take entries as
            # set digits, but only when asked to solve from the current state.)
            given = cell.get("given")
            if given is not None and not isinstance(given, bool):
                # dclamage's FPuzzlesGridEntry.given is a bool (anything else fails to load);
                # SudokuPad and the JS solver take any truthy value: refused, never a blank.
                raise PuzzleError(f"{where}: 'given' must be true or false, not {_json(given)}")
            if given is True and value not in (None, 0, ""):
                digit = _number(value)
                if digit is None or not 1 <= digit <= size:
                    raise PuzzleError(f"{where}: given {_json(value)} is not a digit 1..{size}")
                cells[r * size + c] = digit
            if "region" in cell:
                region = cell["region"]
                if isinstance(region, int) and not isinstance(region, bool) and region < 0:
                    # Below 0 is no region, as null: dclamage's SolverFactory counts only
                    # regions 0..N-1 (null becomes -1, which its writer writes back), and the
                    # JS solver (src/index.ts) makes regions of 'region >= 0' only.
                    region = None
                if region is not None:
                    number = _number(region)
                    if number is None or not 0 <= number < size:
                        raise PuzzleError(
                            f"{where}: region {_json(region)} is not one of 0..{size - 1}"
                        )
                    region = number
                stated[r * size + c] = region
    if not stated:
        return tuple(cells), None
    # A cell without 'region' keeps its default one (dclamage: RegionProvided; SudokuPad:
    # convRegion gives the default box for an undefined region).
    regions: list[int | None] = list(default_regions(size))
    for cell, region in stated.items():
        regions[cell] = region
    return tuple(cells), regions


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    # ASCII digits only, and few: "²" and "٣" pass str.isdigit(), and int() of a long run of
    # digits is slow or refused outright.
    text = value.strip() if isinstance(value, str) else ""
    if text.isascii() and text.isdigit() and len(text) <= 9:
        return int(text)
    return None


def default_regions(size: int) -> tuple[int, ...]:
    """The region of each cell of an f-puzzles grid that states none: the boxes (2x3 for 6,
    2x4 for 8, 2x5 for 10, 3x4 for 12 …, as :func:`~sudoku_cp.model.box_shape`), and for a
    size with no box shape (1, 2, 3, 5, 7, 11, 13) the rows — as dclamage's ``DefaultRegions``
    and SudokuPad's ``getRegionShape`` both draw them.

    >>> default_regions(4)
    (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)
    >>> default_regions(3)
    (0, 0, 0, 1, 1, 1, 2, 2, 2)
    """
    return _boxes(size, box_shape(size) or (1, size))


def _regions(
    regions: list[int | None] | None, size: int, model: Model
) -> tuple[tuple[int, ...] | str | None, list[int | None] | None]:
    """How the puzzle's regions become the model's: ``"boxes"`` (the default boxes), a tuple
    (irregular regions replacing them) or None (no boxes: a size without a box shape, or some
    cells in no region — then each region is an extra group), with the region of each cell."""
    default = default_regions(size)
    has_boxes = box_shape(size) is not None
    if regions is None:
        regions = list(default)
    if None in regions:
        for number in sorted({r for r in regions if r is not None}):
            count = regions.count(number)
            if count != size:  # dclamage's check: every region used has N cells
                raise PuzzleError(f"f-puzzles region {number + 1} has {count} cells, not {size}")
        return None, regions
    wanted = model.box_for(size) if model.uses_boxes else None
    boxes = _boxes(size, wanted) if wanted else range(size * size)  # (none: cells apart)
    if wanted != box_shape(size) and _partition(regions) != _partition(boxes):
        # The file's regions (f-puzzles' own boxes when it states none) are the puzzle; a
        # --box or --model asking for other boxes, or none, would be silently overruled.
        shape = box_shape(size)
        own = "its own regions" if tuple(regions) != default else "f-puzzles' boxes"
        if tuple(regions) == default and shape is not None:
            own += f" ({shape[0]}x{shape[1]} at {size}x{size})"
        asked = f"{wanted[0]}x{wanted[1]} boxes" if wanted else "no boxes"
        raise PuzzleError(
            f"the f-puzzles puzzle has {own}, but the model asks for {asked}: a file's "
            "regions are its puzzle's, so leave --box out (and give a model that keeps the "
            "puzzle's boxes, such as classic)"
        )
    if tuple(regions) == default:
        if has_boxes and model.box_for(size) == box_shape(size):
            return "boxes", regions
        if not has_boxes:
            return None, None  # the rows: nothing to add
    for number in range(size):
        count = regions.count(number)
        if count != size:
            raise PuzzleError(f"f-puzzles region {number + 1} has {count} cells, not {size}")
    return tuple(r for r in regions if r is not None), regions


def _boxes(size: int, shape: tuple[int, int]) -> tuple[int, ...]:
    """The region of each cell for boxes of ``shape`` (rows, columns), in reading order."""
    height, width = shape
    return tuple(
        (r // height) * (size // width) + c // width for r in range(size) for c in range(size)
    )


def _partition(regions: Sequence[int | None]) -> frozenset[frozenset[int]]:
    """The cells grouped by region, whatever the regions' numbers."""
    groups: dict[int | None, set[int]] = {}
    for cell, region in enumerate(regions):
        groups.setdefault(region, set()).add(cell)
    return frozenset(frozenset(cells) for cells in groups.values())


def _region_groups(regions: list[int | None], size: int) -> list[tuple[int, ...]]:
    numbers = sorted({r for r in regions if r is not None})
    return [tuple(c for c, r in enumerate(regions) if r == n) for n in numbers]


def _disjoint_groups(regions: list[int | None] | None, size: int) -> list[tuple[int, ...]]:
    if regions is None:
        regions = list(default_regions(size))
    members = _region_groups(regions, size)
    longest = max((len(m) for m in members), default=0)
    return [tuple(m[k] for m in members if k < len(m)) for k in range(longest)]


def _cells(value: Any, size: int, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise PuzzleError(f"{where}: 'cells' must be a list of cells such as \"R1C1\"")
    cells = []
    for item in value:
        place = cell_place(item)
        if place is None:
            raise PuzzleError(f'{where}: {_json(item)} is not a cell such as "R1C1"')
        row, col = place
        if not (1 <= row <= size and 1 <= col <= size):
            raise PuzzleError(f"{where}: cell {short_text(item)} is outside the {size}x{size} grid")
        cells.append((row - 1) * size + col - 1)
    if len(set(cells)) != len(cells):
        raise PuzzleError(f"{where} lists a cell twice")
    return tuple(cells)


def _entries(value: Any, key: str) -> list[dict]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise PuzzleError(f"f-puzzles {key!r} must be a list of objects with 'cells'")
    return value


def _extra_regions(value: Any, size: int) -> list[tuple[int, ...]]:
    # Extra regions: all different, like SudokuPad's 'extraregion' cages (unique: true) and
    # dclamage's ExtraRegionConstraint.
    groups = []
    for number, entry in enumerate(_entries(value, "extraregion"), start=1):
        cells = _cells(entry.get("cells"), size, f"extraregion {number}")
        if len(cells) > size:
            raise PuzzleError(
                f"extraregion {number} has {len(cells)} cells, more than the {size} different "
                "digits a grid has"
            )
        groups.append(cells)
    return groups


def _killer_cages(value: Any, size: int) -> list[Rule]:
    # Killer cages: digits differ (SudokuPad: unique: true), summing to 'value' when it is a
    # whole number above 0. No value, an empty one or 0 is a cage without a sum: dclamage's
    # KillerCageConstraint checks its sum only when above 0 (and its writer writes a cage
    # without a sum as 0), and the JS solver (src/solver/Constraint/KillerCageConstraint.ts)
    # adds the sum only when 'sum > 0'. (SudokuPad's isIntStrict would take "0" as a sum.)
    cages: list[Rule] = []
    for number, entry in enumerate(_entries(value, "killercage"), start=1):
        where = f"killercage {number}"
        cells = _cells(entry.get("cells"), size, where)
        if len(cells) > size:
            raise PuzzleError(
                f"{where} has {len(cells)} cells, more than the {size} different digits a grid has"
            )
        raw = entry.get("value")
        total = None if raw is None or (isinstance(raw, str) and not raw.strip()) else _number(raw)
        if total is None and raw is not None and not (isinstance(raw, str) and not raw.strip()):
            negative = isinstance(raw, str) and re.fullmatch(r"\s*-[0-9]+\s*", raw)
            what = "is negative, which no cage sums to" if negative else "is not a whole number"
            raise PuzzleError(f"{where}: its sum {_json(raw)} {what}")
        cages.append(Cage(cells, total or None))
    return cages


# dclamage's SolverFactory.cs searches a cage's trimmed value with the .NET pattern DR(\d+):
# case-sensitive, anywhere in the text, and \d takes any Unicode decimal digit (as Python's
# does on str), which its int.Parse then refuses.
_DIGIT_ROOT = re.compile(r"DR(\d+)")


def _digit_root_cages(value: Any, size: int) -> list[Rule]:
    r"""Plain ``cage`` entries are outlines — except those dclamage's solver reads as digit-root
    killer cages (``SolverFactory.cs``, the ``fpuzzlesData.cage`` loop: 1 to N cells and a
    value, not blank, in which ``DR(\d+)`` is found; ``Constraints/MultiSumKillerCageConstraint
    .cs``): :class:`~sudoku_cp.rules.DigitRootCage`, whose digits differ and sum to one of
    root, root + 9 … (see there for when no sum is checked). A cage of more than N cells, or
    whose value names no root, stays an outline, as there. A root f-puzzles' solver cannot
    parse (digits other than ASCII, or past its 32-bit ``int``) fails to load there: refused,
    as are cells that are not cells of the grid."""
    if not isinstance(value, list):
        return []
    cages: list[Rule] = []
    for number, entry in enumerate(value, start=1):
        if not isinstance(entry, dict):
            continue
        cells, text = entry.get("cells"), entry.get("value")
        if not (isinstance(cells, list) and 1 <= len(cells) <= size and isinstance(text, str)):
            continue
        match = _DIGIT_ROOT.search(text.strip())
        if match is None:
            continue
        where = f"f-puzzles cage {number} ({short_text(text)!r}, a digit-root cage)"
        digits = match.group(1)
        significant = digits.lstrip("0") or "0"
        if not digits.isascii() or len(significant) > 10 or int(significant) > MAX_ROOT:
            raise PuzzleError(
                f"{where}: its root {short_text(digits)!r} is not a number f-puzzles' solver "
                "reads (ASCII digits, at most 2,147,483,647)"
            )
        cages.append(DigitRootCage(_cells(cells, size, where), int(significant)))
    return cages


def _stated_digits(data: Any, size: int) -> list[int] | None:
    """The digits of the ``solution`` an f-puzzles object states (0 for an unknown cell), or
    None when it states none (as SudokuPad and puzzletv read the key)."""
    solution = data.get("solution") if isinstance(data, dict) else None
    if isinstance(solution, str):
        solution = solution.split(",") if "," in solution else list(solution)
    if not isinstance(solution, list) or len(solution) != size * size:
        return None
    digits = []
    for value in solution:
        number = _number(value)
        digits.append(number if number is not None and 1 <= number <= size else 0)
    return digits if any(digits) else None


def stated_solution(data: Any, size: int) -> str | None:
    """The ``solution`` an f-puzzles object states (N² digits, ``.`` for unknown ones) in line
    form, or None when it states none.

    >>> stated_solution({"solution": [1, 2, 2, 1]}, 2)
    '1221'
    """

    digits = _stated_digits(data, size)
    return None if digits is None else format_line(digits, size)


def published_solution(data: Any, size: int) -> Grid | None:
    """The setter's solution an f-puzzles object states, when it states every cell of it;
    None otherwise. It becomes the puzzle's :attr:`~sudoku_cp.puzzle.Puzzle.published`
    solution, the witness of the reading (:mod:`sudoku_cp.published`).

    >>> published_solution({"solution": [1, 2, 2, 1]}, 2), published_solution({}, 2)
    ((1, 2, 2, 1), None)
    """
    digits = _stated_digits(data, size)
    return None if digits is None or 0 in digits else tuple(digits)


# --- writing -------------------------------------------------------------------------------------
def fpuzzles_data(
    cells: Sequence[int], size: int, model: Model, solution: Sequence[int] | None = None
) -> dict[str, Any]:
    """The f-puzzles object of a puzzle: its givens, regions, groups and rules (and
    ``solution`` when one is given). ``PuzzleError`` for a puzzle f-puzzles cannot express.

    >>> from sudoku_cp.model import load_model
    >>> data = fpuzzles_data([1, 0, 0, 0] + [0] * 12, 4, load_model("x"))
    >>> data["grid"][0][:2], data["diagonal+"], data["diagonal-"]
    ([{'value': 1, 'given': True}, {}], True, True)
    """
    if not 1 <= size <= MAX_FPUZZLES_SIZE:
        raise PuzzleError(
            f"a {size}x{size} puzzle cannot be written for f-puzzles, which draws sizes "
            f"1..{MAX_FPUZZLES_SIZE}"
        )
    kinds = set(model.group_kinds)
    if not {"rows", "columns"} <= kinds:
        raise PuzzleError(
            f"model '{model.name}' has no {'rows' if 'rows' not in kinds else 'columns'} "
            "groups, which every f-puzzles puzzle has: it cannot be written for f-puzzles"
        )
    for rule in model.rules:
        if not isinstance(
            rule,
            (AntiKnight, AntiKing, NonConsecutive, Cage, DigitRootCage, *WRITTEN, *WRITTEN_HERE),
        ):
            raise PuzzleError(f"the {rule.title} rule cannot be written for f-puzzles yet")
    regions = model_regions(model, size)
    part2 = write_part2(model.rules, size, regions or (None,) * (size * size))
    # f-puzzles has one key for both: beside kropki dots 'nonconsecutive' reads as the white
    # dots' negative, so the global rule cannot be written beside dots.
    if any(isinstance(rule, NonConsecutive) for rule in model.rules) and (
        "nonconsecutive" in part2 or part2.get("difference") or part2.get("ratio")
    ):
        raise PuzzleError(
            "non-consecutive with kropki dots cannot be written for f-puzzles (beside dots "
            "'nonconsecutive' means that every white dot is given)"
        )
    default = default_regions(size)
    indexers = write_indexers(model.rules, size, regions)
    marks = write_pencil_marks(model.rules, cells, size)
    grid = []
    for r in range(size):
        row = []
        for c in range(size):
            cell: dict[str, Any] = {}
            digit = cells[r * size + c]
            if digit:
                cell.update(value=digit, given=True)
            if regions != default:
                cell["region"] = None if regions is None else regions[r * size + c]
            if r * size + c in marks:
                cell[PENCIL_MARKS] = marks[r * size + c]
            row.append(cell)
        grid.append(row)
    data: dict[str, Any] = {"size": size, "grid": grid}
    if "anti-diagonal" in kinds:
        data["diagonal+"] = True
    if "diagonal" in kinds:
        data["diagonal-"] = True
    extra = [
        tuple((row + r) * size + col + c for r in range(height) for c in range(width))
        for row, col, height, width in model.windows
    ] + [tuple(r * size + c for r, c in group) for group in model.cell_groups]
    if "disjoint" in kinds:
        if model.regions is None:
            data["disjointgroups"] = True
        else:  # boxes' disjoint groups under regions: not what f-puzzles' key means
            shape = model.box_for(size)
            if shape is None:
                raise PuzzleError("disjoint groups need boxes")
            bh, bw = shape
            extra += [
                tuple(
                    (top + r) * size + left + c
                    for top in range(0, size, bh)
                    for left in range(0, size, bw)
                )
                for r in range(bh)
                for c in range(bw)
            ]
    if extra:
        data["extraregion"] = [{"cells": [cell_name(c, size) for c in g]} for g in extra]
    cages, outlines = [], []
    for rule in model.rules:
        if isinstance(rule, DigitRootCage):
            # A cage outline valued DR<root>, as dclamage's SolverFactory reads it back.
            names = [cell_name(c, size) for c in rule.cells]
            outlines.append({"cells": names, "value": f"DR{rule.root}"})
        elif isinstance(rule, Cage):
            cage: dict[str, Any] = {"cells": [cell_name(c, size) for c in rule.cells]}
            if rule.total == 0:  # f-puzzles' readers take a sum of 0 for no sum
                raise PuzzleError("a killer cage summing to 0 cannot be written for f-puzzles")
            if rule.total is not None:
                cage["value"] = str(rule.total)
            cages.append(cage)
        elif isinstance(rule, AntiKnight | AntiKing | NonConsecutive):
            data[rule.key] = True
    if cages:
        data["killercage"] = cages
    if outlines:
        data["cage"] = outlines
    data.update(part2)
    data.update(indexers)
    if solution is not None:
        data["solution"] = list(solution)
    return data


def model_regions(model: Model, size: int) -> tuple[int, ...] | None:
    """The region of each cell under ``model`` (None: no regions at all)."""
    if model.regions is not None:
        return model.regions
    if not model.uses_boxes:
        return None if box_shape(size) is not None else default_regions(size)
    shape = model.box_for(size)
    if shape is None:
        return None
    height, width = shape
    return tuple(
        (r // height) * (size // width) + c // width for r in range(size) for c in range(size)
    )


def fpuzzles_json(data: dict[str, Any]) -> str:
    """The f-puzzles object as one line of JSON."""
    return json.dumps(data, separators=(",", ":"))


def fpuzzles_link(data: dict[str, Any]) -> str:
    """The f-puzzles link that opens the object (``https://f-puzzles.com/?load=…``).

    >>> fpuzzles_link({"size": 9})
    'https://f-puzzles.com/?load=N4IgzglgXgpiBcBOAvkA'
    """
    from .links import lz_string

    return FPUZZLES_LINK + lz_string().compress_to_base64(fpuzzles_json(data))


__all__ = [
    "COSMETIC_KEYS",
    "FPUZZLES_LINK",
    "RULE_KEYS",
    "default_regions",
    "fpuzzles_data",
    "fpuzzles_json",
    "fpuzzles_link",
    "is_fpuzzles",
    "read_fpuzzles",
    "published_solution",
    "stated_solution",
]
