"""Candidate grids (pencil-mark sudoku, "sukaku"): every cell's candidates on one line.

A grid of N×N cells is N³ symbols: N per cell, cells in reading order. The forum form is the
9×9 one, 729 symbols: a cell's 9 symbols hold the digits it may take, blanks (``.`` or ``0``)
for the others. Its readers take a digit by its value wherever it stands among the cell's
symbols:

- SukakuExplainer (SudokuMonster/SukakuExplainer ``diuf/sudoku/io/SudokuIO.java``,
  ``TryParseSukaku``): 729 symbols of ``1-9`` and one blank kind (``0``, ``.``, ``*`` or
  ``_``); for the cell at ``9·cell + i`` every digit symbol is a candidate, the others are
  removed; a cell left with one candidate is then placed (``adjustPencilmarks``).
- sigh's Interactive Sudoku Solver (``js/sudoku_parser.js``, ``_parsePencilmarksToAst``): any
  length that is a cube N³ of a grid it draws, only digits and ``.``; each run of N symbols is
  one cell's list of values, ``.`` dropped.

Writers put digit d at place d of its cell (t-dillon/pencilmark_sudoku's data files, e.g.
``hard/gurobi_hard``: ``1......8.`` is a cell that may hold 1 or 8), as :func:`format_candidates`
does. Other sizes use the same scheme, digits above 9 written as the line form writes them
(``A`` = 10 …): ISS reads only digits, so its 16×16 form cannot say 10-16 in one symbol.

Read as a puzzle, a cell with one candidate is a given, and the cells with some of the digits
carry a :class:`~sudoku_cp.rules.candidates.Candidates` rule (f-puzzles' given pencil marks:
the cell holds one of them), one per set of digits; a cell with every digit carries nothing. A
cell with no candidate is an error (the grid states no puzzle) naming the cell.

With ``fmt="auto"`` (and in the line form, one puzzle a line) a line of exactly 729 symbols is
a candidate grid when each of its digits stands at its own place in its cell, as every writer
puts them: a 27×27 puzzle's line (also 729 symbols) meets that only by a fluke, and a 729-symbol
line of digits and blanks that does not is refused, naming the first misplaced digit (read it
with ``--input-format candidates``, by value, or write a 27×27 grid in rows). A line of 729
blanks stays an empty 27×27 grid. Smaller and larger candidate grids (64 symbols for 4×4,
4096 for 16×16) are also the line forms of 8×8 and 64×64 grids, so they are read only when
``--input-format candidates`` says so.

>>> sets, size = read_candidate_sets("1234" + "1..." + ".2.." * 14)
>>> size, sets[0], sets[1]
(4, (1, 2, 3, 4), (1,))
>>> format_candidates(sets, size)[:12]
'12341....2..'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import PuzzleError
from .line import BLANKS, SYMBOL_DIGITS, SYMBOLS

if TYPE_CHECKING:
    from ..model import Model
    from ..rules import Rule

AUTO_LENGTH = 9 * 9 * 9
"""The only candidate grid ``fmt="auto"`` recognises: the 9×9 one (see the module docstring)."""
MAX_SIDE = len(SYMBOLS)
"""The largest candidate grid: one symbol per digit (35×35)."""

Sets = tuple[tuple[int, ...], ...]
"""Each cell's candidates, sorted, cells in reading order."""


def _cell(index: int, size: int) -> str:
    return f"r{index // size + 1}c{index % size + 1}"


def _symbols(text: str) -> str:
    return "".join(text.split())


def misplaced(text: str) -> tuple[int, str] | None:
    """For a line of 729 digits and blanks: the first digit not at its own place (its index
    and symbol), or None when every digit stands at its place."""
    for index, ch in enumerate(text):
        if ch not in BLANKS and ch != str(index % 9 + 1):
            return index, ch
    return None


def is_candidate_line(text: str) -> bool:
    """Whether one line is a 9×9 candidate grid as ``fmt="auto"`` reads it: 729 symbols (no
    whitespace counted), only ``1-9`` and blanks, at least one digit, each at its place. A
    729-symbol line of digits and blanks with a misplaced digit raises a ``PuzzleError``
    saying so (it is neither form for sure); anything else is False.

    >>> is_candidate_line("123456789" * 81), is_candidate_line("." * 729)
    (True, False)
    """
    if len(text) < AUTO_LENGTH:
        return False
    symbols = _symbols(text)
    if len(symbols) != AUTO_LENGTH or not all(ch in BLANKS or "1" <= ch <= "9" for ch in symbols):
        return False
    if all(ch in BLANKS for ch in symbols):
        return False  # an empty 27x27 grid: a candidate grid needs a candidate per cell
    wrong = misplaced(symbols)
    if wrong is not None:
        index, ch = wrong
        raise PuzzleError(
            f"729 symbols of digits and blanks, but {ch!r} at {_cell(index // 9, 9)} stands at "
            f"place {index % 9 + 1} of the cell's 9, so this is no candidate grid as written "
            "(digit d at place d) — read it by value with --input-format candidates, or write "
            "a 27x27 puzzle as rows"
        )
    return True


def read_candidate_sets(text: str) -> tuple[Sets, int]:
    """Each cell's candidates and the grid's size, read by value as SukakuExplainer and ISS
    read them (see the module docstring): N³ symbols, N per cell."""
    symbols = _symbols(text)
    count = len(symbols)
    size = round(count ** (1 / 3)) if count else 0
    while size**3 > count:
        size -= 1
    while (size + 1) ** 3 <= count:
        size += 1
    if count == 0 or size**3 != count or size < 1:
        raise PuzzleError(
            f"read {count:,} symbols; a candidate grid has N*N*N (N per cell): 64 (4x4), "
            "729 (9x9), 4,096 (16x16) …"
        )
    if size > MAX_SIDE:
        raise PuzzleError(
            f"a {size}x{size} candidate grid has digits above {MAX_SIDE}, which have no symbol"
        )
    sets = []
    for cell in range(size * size):
        digits = set()
        for place in range(size):
            ch = symbols[cell * size + place]
            digit = SYMBOL_DIGITS.get(ch)
            if digit is None:
                raise PuzzleError(
                    f"unknown symbol {ch!r} in the candidates of {_cell(cell, size)} "
                    f"(symbol {place + 1} of its {size})"
                )
            if digit > size:
                raise PuzzleError(
                    f"{_cell(cell, size)}: candidate {ch!r} (digit {digit}) is outside 1..{size}"
                )
            if digit:
                digits.add(digit)
        if not digits:
            raise PuzzleError(f"{_cell(cell, size)} has no candidate: the grid states no puzzle")
        sets.append(tuple(sorted(digits)))
    return tuple(sets), size


def givens_and_rules(sets: Sets, size: int) -> tuple[list[int], list[Rule]]:
    """The givens (cells with one candidate) and the given-candidate rules of the others
    with some digits ruled out: one rule per set of digits, cells in reading order."""
    from ..rules.candidates import Candidates  # (the rule kinds load only for this input)

    cells = [0] * (size * size)
    by_digits: dict[tuple[int, ...], list[int]] = {}
    for cell, digits in enumerate(sets):
        if len(digits) == 1:
            cells[cell] = digits[0]
        elif len(digits) < size:
            by_digits.setdefault(digits, []).append(cell)
    return cells, [Candidates(tuple(c), d) for d, c in by_digits.items()]


def read_candidates(text: str, model: Model) -> tuple[list[int], int, Model]:
    """The givens, size and model (``model`` with the cells' candidates as rules) of a
    candidate grid; the model is ``model`` itself when no cell is limited beyond givens."""
    sets, size = read_candidate_sets(text)
    reason = model.fits(size)
    if reason:
        raise PuzzleError(f"read a {size}x{size} candidate grid, but {reason}")
    cells, rules = givens_and_rules(sets, size)
    if rules:
        model = model.with_rules(rules=rules, size=size)
    return cells, size, model


def format_candidates(sets: Sequence[Sequence[int]], size: int) -> str:
    """The candidate grid of ``sets`` (each cell's digits): digit d at place d of its cell's
    N symbols, ``.`` for the others.

    >>> format_candidates([(1, 8)] + [(1,)] * 80, 9)[:18]
    '1......8.1........'
    """
    if size > MAX_SIDE:
        raise PuzzleError(f"a {size}x{size} grid has digits above {MAX_SIDE}: no candidate grid")
    out = []
    for digits in sets:
        present = set(digits)
        out.append("".join(SYMBOLS[d - 1] if d in present else "." for d in range(1, size + 1)))
    return "".join(out)


def puzzle_sets(puzzle: Any) -> Sets:
    """The candidates a puzzle states: a given's digit, the digits its given-candidate rules
    all allow, else every digit. A ``PuzzleError`` for a rule a candidate grid cannot state
    (anything but given candidates), so writing never drops a rule."""
    from ..rules.candidates import Candidates

    n = puzzle.size
    allowed: list[set[int]] = [set(range(1, n + 1)) for _ in range(n * n)]
    for rule in puzzle.model.rules:
        if not isinstance(rule, Candidates):
            raise PuzzleError(f"the {rule.title} rule ({rule.key}) cannot be written as candidates")
        for cell in rule.cells:
            allowed[cell] &= set(rule.digits)
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            allowed[cell] &= {digit}
    for cell, digits in enumerate(allowed):
        if not digits:
            raise PuzzleError(f"{_cell(cell, n)} is left no candidate: no candidate grid")
    return tuple(tuple(sorted(d)) for d in allowed)


def write_candidates(puzzle: Any) -> str:
    """The puzzle as a candidate grid (see :func:`puzzle_sets` for what it refuses)."""
    return format_candidates(puzzle_sets(puzzle), puzzle.size)


__all__ = [
    "AUTO_LENGTH",
    "format_candidates",
    "givens_and_rules",
    "is_candidate_line",
    "puzzle_sets",
    "read_candidate_sets",
    "read_candidates",
    "write_candidates",
]
