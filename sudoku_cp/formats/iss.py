"""The Interactive Sudoku Solver's constraint strings (ISS, sigh/Interactive-Sudoku-Solver):
reading one into givens, a size and a model with the puzzle's rules (the items of rules
beyond groups are read in :mod:`.iss_rules`, cell ids and the grid's shapes are
:mod:`.iss_grid`'s; writing a puzzle back as one is :mod:`.iss_writer`'s).

A constraint string is ``.Type~arg~arg…`` items one after another: ``.~R1C1_5~R1C2_3`` gives
digits (a cell with several digits, ``R1C1_1_2``, may hold only those), ``.Thermo~R9C4~R8C3``
a thermometer, ``.Cage~15~R1C1~R1C2`` a killer cage. It is read as ISS's own parser reads it
(``js/sudoku_parser.js`` ``SudokuParser._parseStringToAst``: whitespace removed, split at
``.``, each item split at ``~``, an empty type is ``Given``), with each type's meaning taken
from the solver code that builds its handlers (``js/solver/sudoku_builder.js``
``SudokuBuilder._constraintHandlers`` and ``js/solver/handlers.js``), cited at each reading
below and tabled in ``docs/formats/iss.md``. Cells are ``R<r>C<c>`` with one base-17 character
each (``1``-``9``, then ``a``-``g`` for 10-16, either case; ``js/cell_geometry.js``
``CellGeometry.parseCellId``), so ``R10C1`` is no cell.

Items whose meaning this tool's rules do not have (``Sum``, ``Or``, ``ChaosConstruction`` …)
make the string unreadable, naming the type: a verdict never ignores a rule. Where ISS itself
refuses a string (an unknown type, a cell outside the grid, a bad value), so does this
reader.

>>> cells, size, model = read_iss(".~R1C1_1~R2C3_2.Shape~4x4.Thermo~R4C1~R4C2", "classic")
>>> size, cells[:8], [rule.title for rule in model.rules]
(4, (1, 0, 0, 0, 0, 0, 2, 0), ['thermometer'])
>>> from sudoku_cp.formats.iss_writer import format_iss
>>> format_iss(cells, size, model)
'.Shape~4x4.~R1C1_1~R2C3_2.Thermo~R4C1~R4C2'
>>> read_iss(".Sum~10~R1C1~R1C2", "classic")
Traceback (most recent call last):
...
sudoku_cp.errors.PuzzleError: ISS constraint type 'Sum' is not read (this tool has no rule \
with its meaning)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..errors import ModelError, PuzzleError
from ..model import Model, box_shape, load_model
from ..rules import (
    AntiKing,
    AntiKnight,
    Candidates,
    ColumnIndexer,
    Negative,
    NonConsecutive,
    RowIndexer,
    Rule,
    indexer_rules,
)
from ..rules.lines_more import region_sum_lines
from .iss_grid import MAX_ISS_SIZE, box_regions, unmarked_pairs, window_boxes
from .iss_rules import RuleItems
from .line import Grid
from .links import short_text

ISS_REPOSITORY = "sigh/Interactive-Sudoku-Solver"
MAX_ISS_ITEMS = 20_000
"""The most items one string may hold (a 16x16 puzzle's every cell given is 256)."""

ISS_TYPES = frozenset(
    """Container Or And Replicate End Jigsaw Thermo Whisper Renban Modular Entropic RegionSumLine
    Between Lockout Palindrome Zipper SumLine Regex NFA NoBoxes ChaosConstruction ChaosArrow
    ChaosCount RegionSize RegionSameValues StrictKropki StrictXV Shape Windoku DisjointSets
    AntiKnight Doppelganger AntiKing AntiTaxicab AntiConsecutive GlobalEntropy GlobalMod
    FullRankTies DutchFlatmates Diagonal WhiteDot BlackDot GreaterThan X ValueIndexing V Arrow
    DoubleArrow PillArrow Cage RellikCage EqualityCage Sum LittleKiller XSum Sandwich Lunchbox
    Skyscraper HiddenSkyscraper NumberedRoom FullRank AllDifferent ContainAtLeast ContainExact
    LookAndSay ConnectedValues SameValues EqualSum Quad Binary BinaryX Pair PairX Indexing
    CountingCircles CountDistinct Given SearchPriority Var""".split()  # noqa: SIM905
)
"""Every type ISS's parser knows (the ``SudokuConstraint.<Type> = class`` entries of
``js/sudoku_constraint.js``): another name is an unknown type there, as here."""

READ_TYPES = tuple(
    """Given Shape Jigsaw NoBoxes Diagonal Windoku DisjointSets AntiKnight AntiKing
    AntiConsecutive AllDifferent Cage Arrow PillArrow DoubleArrow Thermo Whisper Renban Palindrome
    Between Lockout Modular Entropic Zipper RegionSumLine WhiteDot BlackDot X V StrictKropki
    StrictXV GreaterThan LittleKiller Sandwich Skyscraper XSum Quad Indexing Pair PairX Binary
    BinaryX""".split()  # noqa: SIM905
)
"""The types this module reads (the others of :data:`ISS_TYPES` are refused by name): each by
the reader's ``_read_<Type>``, here for the grid's own items (givens, shape, regions, global
rules), in :class:`.iss_rules.RuleItems` for the rules."""

_DETECT_TILDE = re.compile(r"\.[A-Za-z]*~")
_DETECT_BARE = re.compile(r"\.([A-Za-z]+)(?:\.|$)")


def is_iss(text: str) -> bool:
    """Whether ``text`` looks like an ISS constraint string: after whitespace, a ``.`` then a
    type name (or nothing) and ``~``, or a bare ISS type (``.AntiKnight``). No line form of
    a grid holds ``~``, and a 16x16 line such as ``.A.B…`` names no ISS type, so a plain line
    is never taken for one.

    >>> is_iss(".~R1C1_5"), is_iss(".Cage~10~R1C1~R1C2"), is_iss(".AntiKnight.~R1C1_2")
    (True, True, True)
    >>> is_iss("..3.." * 16 + "."), is_iss(".A.B" + "." * 252)
    (False, False)
    """
    if not isinstance(text, str):
        return False
    head = "".join(text[:4096].split())
    if not head.startswith("."):
        return False
    if _DETECT_TILDE.match(head):
        return True
    bare = _DETECT_BARE.match(head)
    return bare is not None and bare.group(1) in ISS_TYPES and len(bare.group(1)) > 1


# --- reading -------------------------------------------------------------------------------------
class _Reader(RuleItems):
    """One string's items, read in order into the puzzle's parts: the grid's own items here,
    the rules' in :class:`.iss_rules.RuleItems`."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise PuzzleError(f"an ISS constraint string is text, not {type(text).__name__}")
        # _parseStringToAst: all whitespace removed, then split at '.'; the first piece must be
        # empty ("Constraint must start with a '.'").
        squeezed = "".join(text.split())
        if not squeezed.startswith("."):
            raise PuzzleError("an ISS constraint string starts with '.'")
        pieces = squeezed.split(".")[1:]
        if len(pieces) > MAX_ISS_ITEMS:
            raise PuzzleError(
                f"the ISS string holds {len(pieces):,} items, more than {MAX_ISS_ITEMS:,}"
            )
        self.items: list[tuple[str, list[str]]] = []
        for number, piece in enumerate(pieces, start=1):
            kind, *args = piece.split("~")
            kind = kind or "Given"
            if kind == "End":  # only composites open a level, and none is read
                raise PuzzleError(f"ISS item {number}: '.End' closes no composite constraint")
            if kind not in ISS_TYPES:
                raise PuzzleError(f"unknown ISS constraint type {short_text(kind)!r}")
            if kind not in READ_TYPES:
                raise PuzzleError(
                    f"ISS constraint type {kind!r} is not read (this tool has no rule with its "
                    "meaning)"
                )
            self.items.append((kind, args))
        super().__init__(self._size())
        self.givens: dict[int, set[int]] = {}
        self.layout: str | None = None
        self.no_boxes = False
        self.kinds: list[str] = []
        self.windoku = False
        self.groups: list[tuple[int, ...]] = []
        self.flags: set[str] = set()

    def _size(self) -> int:
        # _resolveAst: the first Shape item gives the geometry; without one, 9x9.
        for kind, args in self.items:
            if kind == "Shape":
                return _shape(args)
        return 9

    # -- reading every item
    def read(self) -> None:
        for number, (kind, args) in enumerate(self.items, start=1):
            where = f"ISS item {number} ({kind})"
            getattr(self, f"_read_{kind}")(args, where)

    def _read_Shape(self, args: list[str], where: str) -> None:
        # Shape: makeFromArgs throws 'Inconsistent Shape constraints' for a second, other one.
        if _shape(args) != self.size:
            raise PuzzleError(f"{where}: a second Shape of another size")

    def _read_Given(self, args: list[str], where: str) -> None:
        # Given.makeFromArgs: each arg is a value id 'R1C1_5' or 'R1C1_1_2'
        # (CellGeometry.parseValueId: every value an integer in range, written plainly); the
        # builder's 'Given' case makes GivenCandidates (the cell holds one of the values), and
        # _mergeByUniqueness intersects two Givens of one cell (Given.mergeConstraints).
        for arg in args:
            cell_id, *values = arg.split("_")
            cell = self.cell(cell_id, where)
            digits = set()
            for value in values:
                if not value.isascii() or not value.isdigit() or str(int(value)) != value:
                    raise PuzzleError(
                        f"{where}: {short_text(arg)!r} has a value that is not a digit"
                    )
                digit = int(value)
                if not 1 <= digit <= self.size:
                    raise PuzzleError(
                        f"{where}: {short_text(arg)!r}: {digit} is outside 1..{self.size}"
                    )
                digits.add(digit)
            if not digits:
                raise PuzzleError(f"{where}: {short_text(arg)!r} gives the cell no value")
            known = self.givens.get(cell)
            self.givens[cell] = digits if known is None else known & digits
            if not self.givens[cell]:
                raise PuzzleError(f"{where}: the values given for {cell_id} have none in common")

    def _read_Jigsaw(self, args: list[str], where: str) -> None:
        # Jigsaw.makeFromArgs: the layout is the last argument (a legacy form puts the shape
        # first), one region character per cell; the builder makes each region all different
        # and needs every piece to have N cells. A layout of one region is no constraint.
        if not 1 <= len(args) <= 2:
            raise PuzzleError(f"{where}: a Jigsaw item holds its layout (one character a cell)")
        layout = args[-1]
        if len(layout) != self.size**2:
            raise PuzzleError(
                f"{where}: the layout has {len(layout)} characters, not {self.size**2}"
            )
        if self.layout is not None and self.layout != layout:
            raise PuzzleError(f"{where}: a second, different Jigsaw layout is not read")
        if len(set(layout)) == 1:
            return
        for symbol in sorted(set(layout)):
            if layout.count(symbol) != self.size:
                raise PuzzleError(
                    f"{where}: region {symbol!r} has {layout.count(symbol)} cells, not {self.size}"
                )
        self.layout = layout

    def _read_NoBoxes(self, args: list[str], where: str) -> None:
        # Builder: NoBoxes removes the default box regions (SudokuBuilder._regionHandlers).
        self.no_boxes = True

    def _read_Diagonal(self, args: list[str], where: str) -> None:
        # Builder 'Diagonal': direction > 0 runs from the top-right corner (column N-1-r),
        # -1 from the top-left; Diagonal's constructor refuses any other direction.
        if args not in (["1"], ["-1"]):
            raise PuzzleError(f"{where}: the direction must be 1 or -1, not {'~'.join(args)!r}")
        kind = "anti-diagonal" if args == ["1"] else "diagonal"
        if kind not in self.kinds:
            self.kinds.append(kind)

    def _read_Windoku(self, args: list[str], where: str) -> None:
        self.windoku = True  # Windoku.regions, made once the size is checked (window_boxes)

    def _read_DisjointSets(self, args: list[str], where: str) -> None:
        # SudokuConstraintBase.disjointSetRegions: the cells at one place in every *box* (the
        # boxes' shape, even under a jigsaw), as this tool's 'disjoint' groups.
        if box_shape(self.size) is None:
            raise PuzzleError(f"{where}: a {self.size}x{self.size} grid has no boxes to compare")
        if "disjoint" not in self.kinds:
            self.kinds.append("disjoint")

    def _read_AntiKnight(self, args: list[str], where: str) -> None:
        self.flags.add("AntiKnight")  # builder _antiHandlers: a knight's move apart differ

    def _read_AntiKing(self, args: list[str], where: str) -> None:
        self.flags.add("AntiKing")  # builder _antiHandlers: a king's move apart differ

    def _read_AntiConsecutive(self, args: list[str], where: str) -> None:
        # builder _antiConsecutiveHandlers: every orthogonal pair is not consecutive, dots or
        # not (AntiConsecutive.fnKey), as NonConsecutive.
        self.flags.add("AntiConsecutive")

    def _read_AllDifferent(self, args: list[str], where: str) -> None:
        # builder 'AllDifferent': HandlerModule.AllDifferent over the cells.
        cells = self.cells(args, where)
        if len(cells) > self.size:
            raise PuzzleError(
                f"{where}: {len(cells)} cells cannot hold different digits 1..{self.size}"
            )
        self.groups.append(cells)

    # -- the model
    def model(self, base: Model) -> tuple[Grid, int, Model]:
        n = self.size
        cells = [0] * (n * n)
        by_digits: dict[tuple[int, ...], list[int]] = {}
        for cell in sorted(self.givens):
            digits = self.givens[cell]
            if len(digits) == 1:
                cells[cell] = next(iter(digits))
            else:
                by_digits.setdefault(tuple(sorted(digits)), []).append(cell)
        rules: list[Rule] = [Candidates(tuple(c), d) for d, c in by_digits.items()]
        for flag, rule in (
            ("AntiKnight", AntiKnight()),
            ("AntiKing", AntiKing()),
            ("AntiConsecutive", NonConsecutive()),
        ):
            if flag in self.flags:
                rules.append(rule)
        rules += self.rules
        rules += [rule for rule in self.keyed.values() if rule is not None]
        shape = box_shape(n)
        # ISS draws boxes whenever the size has a box shape (boxDimsForSize, the same shapes
        # as this tool's) and NoBoxes is absent, jigsaw or not.
        boxes = shape is not None and not self.no_boxes
        regions = None if self.layout is None else _layout_regions(self.layout)
        cut = box_regions(n) if boxes else regions
        for line in self.region_lines:
            if cut is None:
                raise PuzzleError(
                    "an ISS RegionSumLine on a grid with neither boxes nor jigsaw regions "
                    "is not read"
                )
            rules += region_sum_lines(line, cut)
        rules += self._strict_rules(n)
        rules += [Negative(k, tuple(pairs), v) for (k, v), pairs in self.negatives.items()]
        for name, kind in (("R", RowIndexer), ("C", ColumnIndexer)):
            if self.indexers[name]:
                rules += indexer_rules(kind, self.indexers[name], n)
        # The model given (--model) keeps its own groups and rules, as for f-puzzles input;
        # the string decides the boxes (ISS draws them unless NoBoxes, jigsaw or not).
        kinds = ["rows", "columns"]
        kinds += [k for k in base.group_kinds if k not in ("rows", "columns", "boxes")]
        groups = list(self.groups)
        if regions is not None:
            kinds.append("boxes")  # the regions replace the boxes ...
            if boxes:  # ... which stay, as groups, when NoBoxes is absent
                groups += _groups_of(box_regions(n))
        elif boxes:
            kinds.append("boxes")
        else:
            kinds = [k for k in kinds if k != "disjoint"]  # (no boxes to be disjoint in)
        kinds += [k for k in self.kinds if k not in kinds]
        if "disjoint" in kinds and regions is not None:
            raise PuzzleError("ISS DisjointSets beside a Jigsaw is not read")
        windows = tuple(dict.fromkeys(base.windows + (window_boxes(n) if self.windoku else ())))
        own = replace(base, group_kinds=tuple(kinds), regions=None, windows=windows, box=shape)
        try:
            model = own.with_rules(regions=regions, groups=groups, rules=rules, size=n)
        except ModelError as err:
            raise PuzzleError(f"ISS string: {err}") from None
        return tuple(cells), n, model

    def _strict_rules(self, n: int) -> list[Rule]:
        rules: list[Rule] = []
        if "kropki" in self.strict:
            pairs = unmarked_pairs(n, self.kropki)
            rules += [Negative("difference", pairs, (1,)), Negative("ratio", pairs, (2,))]
        if "xv" in self.strict:
            rules.append(Negative("xv", unmarked_pairs(n, self.xv), (5, 10)))
        return rules


def _shape(args: list[str]) -> int:
    # CellGeometry.fromShapeSpec: '<rows>x<cols>[~<range>][~<grid type>]'. Only a square grid
    # of digits 1..N (range N or 1-N, type Sudoku) is this tool's puzzle.
    spec = "~".join(args)
    match = re.fullmatch(
        r"([0-9]{1,2})x([0-9]{1,2})(?:~([0-9]{0,2}(?:-[0-9]{1,2})?)(?:~(Sudoku))?)?", spec
    )
    rows = int(match.group(1)) if match else 0
    if match is None or rows != int(match.group(2)) or not 1 <= rows <= MAX_ISS_SIZE:
        raise PuzzleError(
            f"ISS Shape {short_text(spec)!r} is not read (only square grids 1x1..16x16 of "
            "digits 1..N)"
        )
    values = match.group(3)
    if values not in (None, "", str(rows), f"1-{rows}"):
        raise PuzzleError(f"ISS Shape {spec!r} is not read (values other than 1..{rows})")
    return rows


def _layout_regions(layout: str) -> tuple[int, ...]:
    numbers: dict[str, int] = {}
    return tuple(numbers.setdefault(ch, len(numbers)) for ch in layout)


def _groups_of(regions: Sequence[int] | None) -> list[tuple[int, ...]]:
    if regions is None:
        return []
    found: dict[int, list[int]] = {}
    for cell, region in enumerate(regions):
        found.setdefault(region, []).append(cell)
    return [tuple(cells) for cells in found.values()]


def read_iss(text: str, model: Model | str = "classic") -> tuple[Grid, int, Model]:
    """An ISS constraint string → its givens, its size and its model (``model`` with the
    string's regions, groups and rules). A ``PuzzleError`` names what is wrong and where."""
    reader = _Reader(text)
    reader.read()
    return reader.model(load_model(model))


def published_digits(solution: Any, size: int) -> Grid | None:
    """A stated solution in ISS's short form (``toShortSolution`` in ``js/sudoku_parser.js``:
    digits up to 9x9, letters ``A`` = 1 … on larger grids) as a grid, or None when it is not
    N² such symbols.

    >>> published_digits("1221", 2), published_digits("AB" * 50, 10)[:3], published_digits("12", 2)
    ((1, 2, 2, 1), (1, 2, 1), None)
    """
    if not isinstance(solution, str) or len(solution) != size * size:
        return None
    if size <= 9:
        digits = tuple(int(ch) if ch.isascii() and ch.isdigit() else 0 for ch in solution)
    else:
        digits = tuple(ord(ch) - 64 if "A" <= ch <= "Z" else 0 for ch in solution)
    return digits if all(1 <= d <= size for d in digits) else None


__all__ = [
    "ISS_TYPES",
    "READ_TYPES",
    "is_iss",
    "published_digits",
    "read_iss",
]
