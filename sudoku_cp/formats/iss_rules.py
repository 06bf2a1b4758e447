"""The Interactive Sudoku Solver's constraint items of rules beyond groups — lines, sums, dots,
clues outside the grid, quads, indexing and two-cell relations — read into this tool's rules,
each type's meaning cited from ISS's code (sigh/Interactive-Sudoku-Solver
``js/solver/sudoku_builder.js`` ``SudokuBuilder._constraintHandlers``, ``js/solver/handlers.js``).
:mod:`.iss` reads the string, the grid's own items (givens, shape, regions, global rules) and
builds the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import ModelError, PuzzleError
from ..rules import (
    XV,
    Arrow,
    BetweenLine,
    Cage,
    Clone,
    Difference,
    DoubleArrow,
    EntropicLine,
    LittleKiller,
    Lockout,
    ModularLine,
    Nabner,
    Negative,
    Palindrome,
    Quadruple,
    Ratio,
    Renban,
    Rule,
    Sandwich,
    Skyscraper,
    Thermometer,
    Whispers,
    XSum,
)
from ..rules.base import touching
from ..rules.dots import NEGATIVE_KINDS
from ..rules.lines_more import zipper_lines
from .iss_grid import BASE17, CELL_ID, iss_cell_name, key_table, little_killer_lines, pair_table
from .links import short_text

_MAX_NUMBER_DIGITS = 9
"""A number longer than this is refused before it is converted; the rules cap what is left
(sums at :data:`~sudoku_cp.rules.base.MAX_TOTAL`)."""
_INTEGER = re.compile(r"-?[0-9]+")


class RuleItems:
    """The items of one string that state rules beyond groups, read by ``_read_<Type>`` into
    :attr:`rules` (and the parts the model is built from at the end: clues and quads keyed,
    marked pairs, region sum lines, indexers, negative pairs). The reader of :mod:`.iss`
    extends it with the grid's items and dispatches every item."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.rules: list[Rule] = []
        # Outside clues and quads keyed as ISS's _mergeByUniqueness keys them (arrowId,
        # topLeftCell): a later one replaces an earlier one (mergeConstraints: "last one wins").
        self.keyed: dict[tuple[str, str], Rule | None] = {}
        self.strict: set[str] = set()
        self.kropki: list[tuple[int, int]] = []
        self.xv: list[tuple[int, int]] = []
        self.region_lines: list[tuple[int, ...]] = []
        self.indexers: dict[str, list[int]] = {"R": [], "C": []}
        self.negatives: dict[tuple[str, tuple[int, ...]], list[tuple[int, int]]] = {}

    # -- the parts of an item
    def cell(self, text: str, where: str) -> int:
        match = CELL_ID.fullmatch(text)
        if match is None:
            raise PuzzleError(f"{where}: {short_text(text)!r} is not an ISS cell such as R1C1")
        row, col = (BASE17.index(g.lower()) for g in match.groups())
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

    # -- the items
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
        if args and not CELL_ID.fullmatch(args[0]):
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
        # jigsaw regions) sum to the same; cut once every region is known (``model``).
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
        # cellMap is keyed by makeCellId's spelling (R1C2, RaCb): another spelling of the
        # cell ('r1c2', 'RAC1') is no diagonal there ("Invalid Little Killer line").
        if line is None or args[1] != iss_cell_name(start, self.size):
            raise PuzzleError(f"{where}: {args[1]} starts no little killer diagonal")
        self.keyed[("LittleKiller", args[1])] = LittleKiller(line, total)

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
        # _mergeByUniqueness keys on topLeftCell as written: 'R1C1' and 'r1c1' are two quads.
        self.keyed[("Quad", args[0])] = Quadruple(cells, tuple(digits))

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
        table = key_table(args[0], self.size, where)
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


__all__ = ["RuleItems"]
