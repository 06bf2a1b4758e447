"""The Interactive Sudoku Solver's constraint strings (ISS, sigh/Interactive-Sudoku-Solver):
reading one into givens, a size and a model with the puzzle's rules (writing a puzzle back as
one is :mod:`.iss_writer`'s).

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
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    Cage,
    Candidates,
    Clone,
    ColumnIndexer,
    Difference,
    DoubleArrow,
    EntropicLine,
    LittleKiller,
    Lockout,
    ModularLine,
    Nabner,
    Negative,
    NonConsecutive,
    Palindrome,
    Quadruple,
    Ratio,
    Renban,
    RowIndexer,
    Rule,
    Sandwich,
    Skyscraper,
    Thermometer,
    Whispers,
    XSum,
    indexer_rules,
)
from ..rules.base import touching
from ..rules.dots import NEGATIVE_KINDS
from ..rules.lines_more import region_sum_lines, zipper_lines
from .line import Grid
from .links import short_text

ISS_REPOSITORY = "sigh/Interactive-Sudoku-Solver"
MAX_ISS_SIZE = 16
"""ISS draws grids of 1 to 16 rows (``CellGeometry.MAX_SIZE``)."""
MAX_ISS_ITEMS = 20_000
"""The most items one string may hold (a 16x16 puzzle's every cell given is 256)."""
_MAX_NUMBER_DIGITS = 9
"""A number longer than this is refused before it is converted; the rules cap what is left
(sums at :data:`~sudoku_cp.rules.base.MAX_TOTAL`)."""

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
"""The types this module reads (the others of :data:`ISS_TYPES` are refused by name)."""

# A cell id: R, one base-17 character, C, one base-17 character (cell_geometry.js parseCellId,
# CELL_ID_CHAR: '1'-'9' and 'a'-'g' in either case for 1-16).
_CELL = re.compile(r"[Rr]([1-9a-gA-G])[Cc]([1-9a-gA-G])")
_BASE17 = "123456789abcdefg"
_INTEGER = re.compile(r"-?[0-9]+")
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
class _Reader:
    """One string's items, read in order into the puzzle's parts."""

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
        self.size = self._size()
        self.givens: dict[int, set[int]] = {}
        self.layout: str | None = None
        self.no_boxes = False
        self.kinds: list[str] = []
        self.windoku = False
        self.groups: list[tuple[int, ...]] = []
        self.rules: list[Rule] = []
        # Outside clues and quads keyed as ISS's _mergeByUniqueness keys them (arrowId,
        # topLeftCell): a later one replaces an earlier one (mergeConstraints: "last one wins").
        self.keyed: dict[tuple[str, str], Rule | None] = {}
        self.strict: set[str] = set()
        self.kropki: list[tuple[int, int]] = []
        self.xv: list[tuple[int, int]] = []
        self.region_lines: list[tuple[int, ...]] = []
        self.flags: set[str] = set()
        self.indexers: dict[str, list[int]] = {"R": [], "C": []}
        self.negatives: dict[tuple[str, tuple[int, ...]], list[tuple[int, int]]] = {}

    # -- the parts of an item
    def _size(self) -> int:
        # _resolveAst: the first Shape item gives the geometry; without one, 9x9.
        for kind, args in self.items:
            if kind == "Shape":
                return _shape(args)
        return 9

    def cell(self, text: str, where: str) -> int:
        match = _CELL.fullmatch(text)
        if match is None:
            raise PuzzleError(f"{where}: {short_text(text)!r} is not an ISS cell such as R1C1")
        row, col = (_BASE17.index(g.lower()) for g in match.groups())
        if row >= self.size or col >= self.size:
            raise PuzzleError(f"{where}: cell {text} is outside the {self.size}x{self.size} grid")
        return row * self.size + col

    def cells(self, args: Sequence[str], where: str, least: int = 1) -> tuple[int, ...]:
        cells = tuple(self.cell(arg, where) for arg in args)
        if len(cells) < least:
            raise PuzzleError(f"{where} needs at least {least} cell{'s' * (least > 1)}")
        if len(set(cells)) != len(cells):
            raise PuzzleError(f"{where} lists a cell twice")
        return cells

    @staticmethod
    def number(text: str, where: str, what: str) -> int:
        # ISS converts with JavaScript's + or parseInt, which take '0x1f', '1e1', '12abc':
        # only plain decimal integers are read here, anything else refused, never guessed.
        if not _INTEGER.fullmatch(text) or len(text.lstrip("-")) > _MAX_NUMBER_DIGITS:
            raise PuzzleError(
                f"{where}: its {what} {short_text(text)!r} is not a whole number of at most "
                f"{_MAX_NUMBER_DIGITS} digits"
            )
        return int(text)

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

    def _read_Cage(self, args: list[str], where: str) -> None:
        # builder 'Cage': AllDifferent, and a Sum when the sum is not 0 ("A sum of 0 means any
        # sum is ok"); the constructor takes an empty sum as 0 (+'').
        if not args:
            raise PuzzleError(f"{where}: a Cage holds its sum and its cells")
        total = 0 if args[0] == "" else self.number(args[0], where, "sum")
        self.rules.append(Cage(self.cells(args[1:], where), total or None))

    def _read_Arrow(self, args: list[str], where: str) -> None:
        # builder 'Arrow': Sum.makeEqual([cells[0]], cells.slice(1)): the first cell is the
        # circle; an arrow of one cell would make its circle 0, which no digit is.
        cells = self.cells(args, where, least=2)
        self.rules.append(Arrow(cells[:1], cells[1:]))

    def _read_PillArrow(self, args: list[str], where: str) -> None:
        # builder 'PillArrow': the first pillSize (2 or 3) cells, sorted, read as a decimal
        # number in reading order, each next one right of, below or below-right of the one
        # before; the others sum to it. Our Arrow reads its circle in the order listed.
        size = self.number(args[0], where, "pill size") if args else 0
        if size not in (2, 3):
            raise PuzzleError(f"{where}: the pill size must be 2 or 3")
        cells = self.cells(args[1:], where, least=size + 1)
        pill = tuple(sorted(cells[:size]))
        n = self.size
        steps = {1, n, n + 1}
        if any(
            b - a not in steps or (b - a != n and a % n == n - 1)
            for a, b in zip(pill, pill[1:], strict=False)
        ):
            raise PuzzleError(f"{where}: the pill's cells are not adjacent in reading order")
        self.rules.append(Arrow(pill, cells[size:]))

    def _read_DoubleArrow(self, args: list[str], where: str) -> None:
        # builder 'DoubleArrow': the two ends sum to the cells between them (cells.splice);
        # with no cell between, the ends would sum to 0: refused, as no grid meets it.
        self.rules.append(DoubleArrow(self.cells(args, where, least=3)))

    def _read_Thermo(self, args: list[str], where: str) -> None:
        # handlers.js Thermo: strictly increasing from the first cell (the bulb).
        self.rules.append(Thermometer(self.cells(args, where)))

    def _read_Whisper(self, args: list[str], where: str) -> None:
        # Whisper's constructor: a first argument that is not a number is a cell, and the
        # difference 5 (German whispers); builder: neighbours differ by at least it
        # (Whisper.fnKey: a >= b + d or a <= b - d).
        gap = 5
        if args and not _CELL.fullmatch(args[0]):
            gap = self.number(args[0], where, "difference")
            args = args[1:]
        # Only neighbours along the line are compared, so a line through a cell again (a
        # closed loop) is the same as lines split where a cell comes back.
        cells = [self.cell(arg, where) for arg in args]
        if not cells:
            raise PuzzleError(f"{where} needs at least 1 cell")
        run: list[int] = []
        for cell in cells:
            if cell in run:
                self.rules.append(Whispers(tuple(run), gap))
                run = run[-1:]
            run.append(cell)
        self.rules.append(Whispers(tuple(run), gap))

    def _read_Renban(self, args: list[str], where: str) -> None:
        # builder 'Renban': every two cells differ, by less than the line's length
        # (Renban.fnKey): a set of consecutive digits.
        self.rules.append(Renban(self.cells(args, where)))

    def _read_Palindrome(self, args: list[str], where: str) -> None:
        # builder 'Palindrome': cell i equals cell n-1-i (Palindrome.fnKey a === b), whether or
        # not the cells touch; a line that jumps is that meaning as this tool's clone.
        cells = self.cells(args, where)
        n = self.size
        if all(touching(a, b, n, diagonal=True) for a, b in zip(cells, cells[1:], strict=False)):
            self.rules.append(Palindrome(cells))
        elif len(cells) > 1:
            half = len(cells) // 2
            self.rules.append(Clone(cells[:half], cells[::-1][:half]))

    def _read_Between(self, args: list[str], where: str) -> None:
        # handlers.js Between: the middle cells lie strictly between the two ends.
        self.rules.append(BetweenLine(self.cells(args, where)))

    def _read_Lockout(self, args: list[str], where: str) -> None:
        # handlers.js Lockout: the ends differ by at least minDiff, and no middle cell lies
        # between them (values below the low end or above the high end only). A line of two
        # cells has no middle: the ends' difference alone, a whispers pair.
        if not args:
            raise PuzzleError(f"{where}: a Lockout holds its difference and its cells")
        gap = self.number(args[0], where, "difference")
        cells = self.cells(args[1:], where, least=2)
        self.rules.append(Lockout(cells, gap) if len(cells) > 2 else Whispers(cells, gap))

    def _read_Modular(self, args: list[str], where: str) -> None:
        # builder 'Modular': the first `mod` cells differ mod m and cells `mod` apart are
        # equal mod m; for m = 3 that is every three cells in a row holding the three
        # remainders, this tool's ModularLine (any other m is not read).
        if not args:
            raise PuzzleError(f"{where}: a Modular line holds its modulus and its cells")
        if self.number(args[0], where, "modulus") != 3:
            raise PuzzleError(f"{where}: only modulus 3 is read (ModularLine), not {args[0]}")
        self.rules.append(ModularLine(self.cells(args[1:], where)))

    def _read_Entropic(self, args: list[str], where: str) -> None:
        # builder 'Entropic' (9 values only): every three cells in a row (and a shorter line's
        # cells) in different groups of 123 / 456 / 789.
        if self.size != 9:
            raise PuzzleError(f"{where}: ISS's Entropic line needs a 9x9 grid")
        self.rules.append(EntropicLine(self.cells(args, where), (3, 6)))

    def _read_Zipper(self, args: list[str], where: str) -> None:
        # builder 'Zipper': cells the same distance from the middle sum to the same, which is
        # the middle cell on an odd line; a line of 1 or 2 cells constrains nothing.
        self.rules.extend(zipper_lines(self.cells(args, where)))

    def _read_RegionSumLine(self, args: list[str], where: str) -> None:
        # builder 'RegionSumLine': the line's runs through the boxes (or, with no boxes, the
        # jigsaw regions) sum to the same; cut once every region is known (_region_lines).
        self.region_lines.append(self.cells(args, where))

    def _dots(self, args: list[str], where: str) -> list[tuple[int, int]]:
        # builder (WhiteDot, BlackDot, X, V): _adjacentPairsOrThrow binds every orthogonally
        # adjacent pair among the listed cells (_adjacentCellPairs: each cell, in the order
        # listed, with its neighbours listed after it), and throws when there is none. Each
        # pair is one of this tool's marks.
        cells = self.cells(args, where, least=2)
        n = self.size
        left = set(cells)
        pairs = []
        for a in cells:
            left.discard(a)
            row, col = divmod(a, n)
            near = [(row - 1, col), (row, col + 1), (row + 1, col), (row, col - 1)]
            pairs += [
                (a, r * n + c) for r, c in near if 0 <= r < n and 0 <= c < n and r * n + c in left
            ]
        if not pairs:
            raise PuzzleError(f"{where}: no two of its cells are orthogonal neighbours")
        return pairs

    def _read_WhiteDot(self, args: list[str], where: str) -> None:
        for pair in self._dots(args, where):  # WhiteDot.fnKey: a = b ± 1
            self.rules.append(Difference(pair, 1))
            self.kropki.append(pair)

    def _read_BlackDot(self, args: list[str], where: str) -> None:
        for pair in self._dots(args, where):  # BlackDot.fnKey: a = 2b or b = 2a
            self.rules.append(Ratio(pair, 2))
            self.kropki.append(pair)

    def _read_X(self, args: list[str], where: str) -> None:
        for pair in self._dots(args, where):  # builder 'X': Sum(pair, 10)
            self.rules.append(XV(pair, 10))
            self.xv.append(pair)

    def _read_V(self, args: list[str], where: str) -> None:
        for pair in self._dots(args, where):  # builder 'V': Sum(pair, 5)
            self.rules.append(XV(pair, 5))
            self.xv.append(pair)

    def _read_GreaterThan(self, args: list[str], where: str) -> None:
        # constraint GreaterThan ("A cell must be greater than any later adjacent cells"):
        # the builder binds each adjacent pair as the dots are, a > b with a listed first;
        # so each pair is a two-cell thermometer rising from b to a.
        for a, b in self._dots(args, where):
            self.rules.append(Thermometer((b, a)))

    def _read_StrictKropki(self, args: list[str], where: str) -> None:
        # _strictHandlersForType: every orthogonal pair without a white or black dot is
        # neither consecutive nor double (StrictKropki.fnKey).
        self.strict.add("kropki")

    def _read_StrictXV(self, args: list[str], where: str) -> None:
        # ... every pair without an X or V sums to neither 5 nor 10 (StrictXV.fnKey).
        self.strict.add("xv")

    def _clue(self, text: str, where: str, zero_ok: bool) -> int:
        # OutsideConstraintBase: parseInt(value), an integer; 0 only where ZERO_VALUE_OK.
        value = self.number(text, where, "clue")
        if value == 0 and not zero_ok:
            raise PuzzleError(f"{where}: its clue can't be 0")
        return value

    def _read_LittleKiller(self, args: list[str], where: str) -> None:
        # CLUE_TYPE_DIAGONAL: LittleKiller~value~cell; the cell names the diagonal of
        # LittleKiller.cellMap that starts there; builder: Sum(cells, value), repeats allowed.
        if len(args) != 2:
            raise PuzzleError(f"{where}: a LittleKiller holds its sum and its first cell")
        total = self._clue(args[0], where, zero_ok=True)
        start = self.cell(args[1], where)
        line = little_killer_lines(self.size).get(start)
        if line is None:
            raise PuzzleError(f"{where}: {args[1]} starts no little killer diagonal")
        self.keyed[("LittleKiller", args[1].upper())] = LittleKiller(line, total)

    def _read_Sandwich(self, args: list[str], where: str) -> None:
        # CLUE_TYPE_SINGLE_LINE: Sandwich~value~R<r>|C<c>; builder: Lunchbox over the whole
        # row or column, the sum between its 1 and its N.
        if len(args) != 2:
            raise PuzzleError(f"{where}: a Sandwich holds its sum and its row or column")
        total = self._clue(args[0], where, zero_ok=True)
        line = self._line(args[1], 1, where)
        self.keyed[("Sandwich", args[1])] = Sandwich(line, total)

    def _line(self, name: str, direction: int, where: str) -> tuple[int, ...]:
        # fullLineCellMap: 'R<r>,1' a row left to right, 'C<c>,1' a column top to bottom,
        # ',-1' reversed; r and c are decimal (row + 1).
        n = self.size
        match = re.fullmatch(r"([RC])([1-9][0-9]?)", name)
        index = int(match.group(2)) - 1 if match else -1
        if match is None or not 0 <= index < n:
            raise PuzzleError(
                f"{where}: {short_text(name)!r} is not a row R1..R{n} or column C1..C{n}"
            )
        if match.group(1) == "R":
            cells = tuple(index * n + c for c in range(n))
        else:
            cells = tuple(r * n + index for r in range(n))
        return cells if direction > 0 else cells[::-1]

    def _double_line(self, kind: str, args: list[str], where: str) -> None:
        # CLUE_TYPE_DOUBLE_LINE: Type~R<r>~<from the left>~<from the right> (columns: from
        # the top, from the bottom); an empty argument is no clue.
        if not 1 <= len(args) <= 3:
            raise PuzzleError(f"{where}: a {kind} holds a row or column and up to two clues")
        for direction, text in (
            (1, args[1] if len(args) > 1 else ""),
            (-1, args[2] if len(args) > 2 else ""),
        ):
            if not text:
                continue
            value = self._clue(text, where, zero_ok=False)
            line = self._line(args[0], direction, where)
            rule: Rule = Skyscraper(line, value) if kind == "Skyscraper" else XSum(line, value)
            self.keyed[(kind, f"{args[0]},{direction}")] = rule

    def _read_Skyscraper(self, args: list[str], where: str) -> None:
        # handlers.js Skyscraper: the digits seen from the clue's side, each taller than all
        # before it.
        self._double_line("Skyscraper", args, where)

    def _read_XSum(self, args: list[str], where: str) -> None:
        # builder 'XSum': the first cell's digit X, the first X cells sum to the clue.
        self._double_line("XSum", args, where)

    def _read_Quad(self, args: list[str], where: str) -> None:
        # Quad.cells: the 2x2 square whose top-left cell is given; builder: RequiredValues
        # (not strict): every value listed appears, one listed twice twice.
        if len(args) < 2:
            raise PuzzleError(f"{where}: a Quad holds its top-left cell and its values")
        top = self.cell(args[0], where)
        n = self.size
        if top // n == n - 1 or top % n == n - 1:
            raise PuzzleError(f"{where}: no 2x2 square has its top-left cell at {args[0]}")
        digits = []
        for text in args[1:]:
            digit = self.number(text, where, "value")
            if not 1 <= digit <= n:
                raise PuzzleError(f"{where}: value {digit} is outside 1..{n}")
            digits.append(digit)
        if len(digits) > 4:
            raise PuzzleError(f"{where}: {len(digits)} values cannot all appear in 4 cells")
        cells = (top, top + 1, top + n, top + n + 1)
        self.keyed[("Quad", args[0].upper())] = Quadruple(cells, tuple(digits))

    def _read_Indexing(self, args: list[str], where: str) -> None:
        # builder 'Indexing': each cell (R, C) holding V puts its own column C at (R, V) of
        # its row ('C', column indexing), or its row R at (V, C) of its column ('R'):
        # handlers.js Indexing(control, the line's cells, C or R) — this tool's column and
        # row indexers. A cell listed twice is the same constraint twice.
        if not args or args[0] not in ("R", "C"):
            raise PuzzleError(f"{where}: the first argument must be R or C")
        if len(args) < 2:
            raise PuzzleError(f"{where} needs at least 1 cell")
        self.indexers[args[0]] += [self.cell(arg, where) for arg in args[1:]]

    def _pair_groups(self, args: list[str], where: str) -> tuple[frozenset, list[tuple[int, ...]]]:
        # Pair.makeFromArgs: the key, then parseNamedCellGroups: an item 'iss_cell_name' starts a
        # group with that display name (no meaning), an empty item ends one, cells fill it.
        if not args:
            raise PuzzleError(f"{where} needs a key")
        table = _key_table(args[0], self.size, where)
        groups: list[list[str]] = [[]]
        for item in args[1:]:
            if not item or item.startswith("_"):
                groups.append([])
            else:
                groups[-1].append(item)
        return table, [self.cells(group, where) for group in groups if group]

    def _read_Pair(self, args: list[str], where: str) -> None:
        # builder 'Pair': BinaryConstraint(cells[i-1], cells[i], key) for each group.
        table, groups = self._pair_groups(args, where)
        if len(table) == self.size**2:
            return  # (every two digits allowed: it says nothing)
        for group in groups:
            for pair in zip(group, group[1:], strict=False):
                rule = _pair_rule(pair, table, self.size)
                if rule is None:
                    raise PuzzleError(
                        f"{where}: ISS constraint type 'Pair' is not read with its relation on "
                        f"{iss_cell_name(pair[0], self.size)}-"
                        f"{iss_cell_name(pair[1], self.size)} (this tool reads a dot's or a "
                        "negative constraint's, between neighbours)"
                    )
                if isinstance(rule, Negative):
                    self.negatives.setdefault((rule.kind, rule.values), []).append(pair)
                else:
                    self.rules.append(rule)

    def _read_PairX(self, args: list[str], where: str) -> None:
        # builder 'PairX': BinaryPairwise(key, ...cells), the relation on every two cells.
        # Neither equal nor consecutive, on a line of at most N cells, is a nabner line.
        table, groups = self._pair_groups(args, where)
        if len(table) == self.size**2:
            return  # (every two digits allowed: it says nothing)
        for group in groups:
            nabner = Nabner(group)
            try:
                nabner.check(self.size)
                line = True
            except ModelError:
                line = False
            if not line or table != pair_table(nabner.allows, self.size):
                raise PuzzleError(
                    f"{where}: ISS constraint type 'PairX' is not read with its relation on "
                    f"{'-'.join(iss_cell_name(c, self.size) for c in group)} "
                    "(this tool reads a nabner line's: no two cells equal or consecutive, on a "
                    "line of at most N cells)"
                )
            self.rules.append(nabner)

    def _read_Binary(self, args: list[str], where: str) -> None:
        # Binary.makeFromArgs: the legacy key with '-' and '_' swapped, then Pair.
        self._read_Pair([_legacy_key(args[0]), *args[1:]] if args else args, where)

    def _read_BinaryX(self, args: list[str], where: str) -> None:
        # BinaryX.makeFromArgs: likewise, then PairX.
        self._read_PairX([_legacy_key(args[0]), *args[1:]] if args else args, where)

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


def box_regions(size: int) -> tuple[int, ...] | None:
    shape = box_shape(size)
    if shape is None:
        return None
    height, width = shape
    return tuple(
        (r // height) * (size // width) + c // width for r in range(size) for c in range(size)
    )


def _groups_of(regions: Sequence[int] | None) -> list[tuple[int, ...]]:
    if regions is None:
        return []
    found: dict[int, list[int]] = {}
    for cell, region in enumerate(regions):
        found.setdefault(region, []).append(cell)
    return [tuple(cells) for cells in found.values()]


def window_boxes(size: int) -> tuple[tuple[int, int, int, int], ...]:
    """ISS's windoku windows (``Windoku.regions``): boxes' shape, from (1, 1), one row and
    column apart — the four 3x3 windows of 9x9 — as (row, column, height, width)."""
    shape = box_shape(size)
    if shape is None:
        return ()
    height, width = shape
    return tuple(
        (row, col, height, width)
        for col in range(1, size - width, width + 1)
        for row in range(1, size - height, height + 1)
    )


def little_killer_lines(size: int) -> dict[int, tuple[int, ...]]:
    """The diagonals a little killer clue can name, by their first cell, in ISS's order
    (``LittleKiller.cellMap``: from the left side down-right, the right side up-left, the top
    down-left, the bottom up-right; a diagonal of one cell, or one already named, left out)."""
    lines: dict[int, tuple[int, ...]] = {}
    seen: set[frozenset[int]] = set()

    def add(row: int, col: int, dr: int, dc: int) -> None:
        cells = []
        while 0 <= row < size and 0 <= col < size:
            cells.append(row * size + col)
            row, col = row + dr, col + dc
        key = frozenset(cells)
        if len(cells) <= 1 or key in seen:
            return
        seen.add(key)
        lines[cells[0]] = tuple(cells)

    for row in range(size - 1):
        add(row, 0, 1, 1)
    for row in range(1, size - 1):
        add(row, size - 1, -1, -1)
    for col in range(1, size):
        add(0, col, 1, -1)
    for col in range(1, size - 1):
        add(size - 1, col, -1, 1)
    return lines


def _orthogonal_pairs(size: int) -> list[tuple[int, int]]:
    pairs = []
    for cell in range(size * size):
        if cell % size + 1 < size:
            pairs.append((cell, cell + 1))
        if cell // size + 1 < size:
            pairs.append((cell, cell + size))
    return pairs


def unmarked_pairs(size: int, marked: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    taken = {frozenset(pair) for pair in marked}
    return tuple(pair for pair in _orthogonal_pairs(size) if frozenset(pair) not in taken)


_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
"""util.js ``Base64Codec.BASE64_CHARS`` (URL-safe base64), one 6-bit number a character."""


def pair_table(allows: Any, size: int) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a in range(1, size + 1) for b in range(1, size + 1) if allows(a, b))


def binary_key(allows: Any, size: int) -> str:
    """ISS's key of a relation between two cells (sudoku_constraint.js ``fnToBinaryKey``):
    bit ``(a-1)·N + (b-1)`` says whether a first cell of ``a`` and a second of ``b`` are
    allowed, six bits a character, low bit first, trailing zero characters left out.

    >>> binary_key(lambda a, b: abs(a - b) == 1, 4)
    'SpE'
    """
    bits = [bool(allows(a, b)) for a in range(1, size + 1) for b in range(1, size + 1)]
    numbers = [
        sum(1 << i for i, bit in enumerate(bits[k : k + 6]) if bit) for k in range(0, len(bits), 6)
    ]
    while numbers and not numbers[-1]:
        numbers.pop()
    return "".join(_BASE64[v] for v in numbers)


def _key_table(key: str, size: int, where: str) -> frozenset[tuple[int, int]]:
    # lookup_tables.js forBinaryKey: decodeTo6BitArray into an array of ceil(N²/6) numbers
    # ('Array is too short' for a longer key), bit (a-1)·N + (b-1) allows a then b. A
    # character outside the alphabet decodes to 0 there; here it is refused, not guessed.
    if len(key) > -(-size * size // 6):
        raise PuzzleError(f"{where}: its key {short_text(key)!r} is longer than {size}x{size} bits")
    bad = next((ch for ch in key if ch not in _BASE64), None)
    if bad is not None:
        raise PuzzleError(f"{where}: its key has {bad!r}, not a base64url character")
    numbers = [_BASE64.index(ch) for ch in key]

    def allowed(a: int, b: int) -> bool:
        k = (a - 1) * size + b - 1
        return k // 6 < len(numbers) and bool(numbers[k // 6] >> (k % 6) & 1)

    return pair_table(allowed, size)


def _legacy_key(key: str) -> str:
    return key.translate(str.maketrans("-_", "_-"))


def _pair_rule(pair: tuple[int, int], table: frozenset, size: int) -> Rule | None:
    """The dot or negative constraint on two neighbours whose relation is ``table``, or None.
    The tables are compared over every two digits, so the rule found means the same."""
    if not touching(*pair, size, diagonal=False):
        return None
    # (a difference of N allows no two digits: an empty key)
    found: list[Difference | Ratio | XV] = [Difference(pair, d) for d in range(1, size + 1)]
    found += [Ratio(pair, r) for r in range(2, size + 1)]
    found += [XV(pair, s) for s in range(3, 2 * size)]
    for rule in found:
        if pair_table(rule.allows, size) == table:
            return rule
    for kind in NEGATIVE_KINDS:
        values = tuple(
            rule.value
            for rule in found
            if rule.key == kind and not table & pair_table(rule.allows, size)
        )
        negative = Negative(kind, (pair,), values)
        if values and pair_table(negative.allows, size) == table:
            return negative
    return None


def read_iss(text: str, model: Model | str = "classic") -> tuple[Grid, int, Model]:
    """An ISS constraint string → its givens, its size and its model (``model`` with the
    string's regions, groups and rules). A ``PuzzleError`` names what is wrong and where."""
    reader = _Reader(text)
    reader.read()
    return reader.model(load_model(model))


# --- names -------------------------------------------------------------------------------------
def iss_cell_name(cell: int, size: int) -> str:
    """A cell as ISS names it (R1C1; rows and columns past 9 as a-g)."""
    return f"R{_BASE17[cell // size]}C{_BASE17[cell % size]}"


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
    "binary_key",
    "is_iss",
    "little_killer_lines",
    "published_digits",
    "read_iss",
]
