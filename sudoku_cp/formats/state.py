"""A solver's current state: digits placed beside the givens and pencil marks (``--state``).

A state belongs to a puzzle read on its own: the puzzle's model and givens stay, the state adds
placed digits and narrows cells to their marks. It is read from (a file holding, or the text
itself):

- **a candidate grid** of N³ symbols (729 for 9×9; :mod:`.candidates` reads it, digit by value
  as SukakuExplainer and ISS do): a cell with one candidate is a placed digit (SukakuExplainer
  places it, ``SudokuIO.java`` ``adjustPencilmarks``), a cell with some digits is marked with
  them, a cell with every digit carries no marks;
- **a grid of placed digits**, N² symbols in the line form (no marks);
- **an f-puzzles puzzle** (its JSON, a ``?load=`` link or the bare payload), of which only the
  cells are read, as f-puzzles' solvers read them when they solve from the current state:
  ``value`` is a placed digit whether ``given`` or not, ``centerPencilMarks`` are the cell's
  marks (dclamage/SudokuSolver ``SudokuSolver/SolverFactory.cs`` ``CreateFromFPuzzles`` with
  ``onlyGivens`` false, the logical-step commands: ``SetValue`` for ``value``, ``KeepMask`` for
  centre marks, falling back to ``givenPencilMarks``; dclamage/SudokuVariantSolverJS
  ``src/index.ts`` ``createBoard`` with ``keepPencilMarks``, as its ``step`` and
  ``logicalSolve`` call it: the given and centre marks both narrow the cell). Corner marks
  (``cornerPencilMarks``: the digit is somewhere among those cells, Snyder notation) and the
  cell's ``candidates`` list (f-puzzles' page keeps it, dclamage's user script
  ``UserScripts/Fpuzzles-SudokuSolver.user.js`` fills it beside the centre marks) narrow no
  cell: neither solver reads them (``FPuzzlesGridEntry`` in ``PuzzleFormats/FPuzzlesBoard.cs``
  and ``src/solver/Constraint/FPuzzlesInterfaces.ts`` have no such field), nor does this one.
  The puzzle's rules in that JSON are not read: they are the puzzle's, read from PUZZLE.

Marks are the solver's candidate set: a digit not marked is eliminated; a cell without marks
keeps every digit. :func:`check_state` refuses, naming the cell, a state that contradicts the
givens, a placed digit that breaks a rule, and a cell left with no candidate.

>>> from sudoku_cp import Puzzle
>>> puzzle = Puzzle.parse("1...............")
>>> state = read_state("1.2." + "." * 12, puzzle)
>>> state.placed[:4], state.marks[:4]
((1, 0, 2, 0), (0, 0, 0, 0))
>>> read_state("1.1." + "." * 12, puzzle)
Traceback (most recent call last):
...
sudoku_cp.errors.PuzzleError: the state places 1 in r1c3, which breaks a rule: digit 1 is twice \
in row 1: r1c1 and r1c3
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InputError, PuzzleError
from .candidates import read_candidate_sets
from .line import BLANKS, SYMBOL_DIGITS

if TYPE_CHECKING:
    from ..puzzle import Puzzle

MAX_STATE_BYTES = 1 << 20
"""The largest state file read (a 35×35 candidate grid is 42,875 symbols; f-puzzles JSON of a
large puzzle with every mark stays well below)."""


@dataclass(frozen=True)
class State:
    """Placed digits and marks, one entry a cell in reading order."""

    placed: tuple[int, ...]
    """A digit per cell the state holds (0: none; a given may stand here too)."""
    marks: tuple[int, ...]
    """A candidate mask per cell (bit ``d - 1`` for digit ``d``; 0: no marks, every digit)."""
    source: str
    """What the state was read as, for messages ("a candidate grid", "f-puzzles" …)."""


def _name(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def _digits(mask: int) -> str:
    return ", ".join(str(d + 1) for d in range(mask.bit_length()) if mask >> d & 1)


def state_text(arg: str) -> str:
    """The text of ``--state``: an existing file's contents (at most
    :data:`MAX_STATE_BYTES`), else the argument itself."""
    if len(arg) <= 4096 and os.path.isfile(arg):
        try:
            with open(arg, "rb") as stream:
                raw = stream.read(MAX_STATE_BYTES + 1)
        except OSError as err:
            raise InputError(f"--state {arg}: cannot read it: {err.strerror or err}") from None
        if len(raw) > MAX_STATE_BYTES:
            raise InputError(f"--state {arg}: larger than the cap of {MAX_STATE_BYTES:,} bytes")
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError(f"--state {arg}: not UTF-8 text") from None
    from .files import looks_like_path  # (the rule puzzle arguments follow)

    if "{" not in arg and looks_like_path(arg) and not os.path.exists(arg):
        from .links import find_payload

        if find_payload(arg.strip()) is None:  # (a link or payload has '/' but is no path)
            raise InputError(f"--state {arg}: file not found")
    return arg


def read_state(arg: str, puzzle: Puzzle) -> State:
    """The state ``arg`` (a file or the text; see the module docstring) holds for ``puzzle``,
    checked against it (:func:`check_state`). ``PuzzleError``/``InputError`` name the fault."""
    text = state_text(arg)
    state = parse_state(text, puzzle.size)
    check_state(state, puzzle)
    return state


def parse_state(text: str, size: int) -> State:
    """A state of an N×N puzzle (``size`` = N) from its text, not yet checked against the
    puzzle: f-puzzles JSON, link or payload; N³ symbols (a candidate grid); N² symbols (placed
    digits)."""
    from .links import decode_payload, payload_in

    stripped = text.strip()
    if not stripped:
        raise PuzzleError("the state is empty")
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except (ValueError, RecursionError):
            raise PuzzleError("the state starts with '{' but is not JSON") from None
        return fpuzzles_state(data, size)
    payload = payload_in(stripped)
    if payload is not None:
        return fpuzzles_state(decode_payload(payload), size)
    symbols = "".join(stripped.split())
    if len(symbols) == size**3:
        sets, _ = read_candidate_sets(symbols)
        placed = [0] * (size * size)
        marks = [0] * (size * size)
        every = (1 << size) - 1
        for cell, digits in enumerate(sets):
            if len(digits) == 1:
                placed[cell] = digits[0]
            else:
                mask = sum(1 << (d - 1) for d in digits)
                marks[cell] = 0 if mask == every else mask
        return State(tuple(placed), tuple(marks), "a candidate grid")
    if len(symbols) == size * size:
        placed = []
        for cell, ch in enumerate(symbols):
            digit = 0 if ch in BLANKS else SYMBOL_DIGITS.get(ch)
            if digit is None or digit > size:
                raise PuzzleError(
                    f"the state's {_name(cell, size)} is {ch!r}, not a digit 1..{size} or a blank"
                )
            placed.append(digit)
        return State(tuple(placed), (0,) * (size * size), "a grid of placed digits")
    raise PuzzleError(
        f"the state has {len(symbols):,} symbols; for a {size}x{size} puzzle a state is a "
        f"candidate grid of {size**3:,} symbols, a grid of {size * size:,} placed digits, or an "
        "f-puzzles puzzle (JSON or link)"
    )


def _mark_list(raw: Any, size: int, where: str) -> int:
    """A list of digits (ints, or digit strings as f-puzzles' JSON may hold) as a mask."""
    if not isinstance(raw, list):
        raise PuzzleError(f"{where} must be a list of digits, not {json.dumps(raw)[:40]}")
    mask = 0
    for item in raw:
        digit = item if isinstance(item, int) and not isinstance(item, bool) else None
        text = item.strip() if isinstance(item, str) else ""
        if text.isascii() and text.isdigit() and len(text) <= 2:
            digit = int(text)
        if digit is None or not 1 <= digit <= size:
            raise PuzzleError(f"{where}: {json.dumps(item)[:40]} is not a digit 1..{size}")
        mask |= 1 << (digit - 1)
    return mask


def fpuzzles_state(data: Any, size: int) -> State:
    """The placed digits and marks of an f-puzzles object's cells (see the module docstring
    for the keys read and their sources)."""
    if not isinstance(data, dict) or not isinstance(data.get("grid"), list):
        raise PuzzleError("the state's JSON is no f-puzzles puzzle (it needs a 'grid' of rows)")
    grid = data["grid"]
    stated = data.get("size", len(grid))
    if stated != size or len(grid) != size:
        raise PuzzleError(
            f"the state is an f-puzzles grid of size {json.dumps(stated)[:20]} with "
            f"{len(grid)} rows; the puzzle is {size}x{size}"
        )
    placed = [0] * (size * size)
    marks = [0] * (size * size)
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != size:
            raise PuzzleError(f"the state's f-puzzles grid row {r + 1} is not a list of {size}")
        for c, entry in enumerate(row):
            where = f"the state's f-puzzles grid R{r + 1}C{c + 1}"
            if not isinstance(entry, dict):
                raise PuzzleError(f"{where} is not a cell object")
            cell = r * size + c
            value = entry.get("value")
            if value not in (None, 0, ""):
                # dclamage: 'val.given || !onlyGivens ? val.value : 0' — from the current
                # state every value is set, given or entered.
                digit = value if isinstance(value, int) and not isinstance(value, bool) else None
                if digit is None or not 1 <= digit <= size:
                    raise PuzzleError(f"{where}: value {json.dumps(value)[:40]} is not 1..{size}")
                placed[cell] = digit
                continue
            mask = 0
            for key in ("givenPencilMarks", "centerPencilMarks"):
                raw = entry.get(key)
                if raw is None or raw == []:
                    continue  # (an empty list narrows nothing in either solver)
                got = _mark_list(raw, size, f"{where}: {key}")
                # Both lists: the JS solver keeps the digits in both (createBoard).
                mask = got if not mask else mask & got
                if not mask:
                    raise PuzzleError(
                        f"{where}: its given and centre pencil marks share no digit, so the "
                        "cell has no candidate"
                    )
            marks[cell] = 0 if mask == (1 << size) - 1 else mask
    return State(tuple(placed), tuple(marks), "f-puzzles")


def check_state(state: State, puzzle: Puzzle) -> None:
    """Refuse a state that contradicts the givens, places a digit breaking a rule, or leaves
    a cell no candidate (a ``PuzzleError`` naming the cell)."""
    from ..rules import DigitRule

    n = puzzle.size
    if len(state.placed) != n * n or len(state.marks) != n * n:
        raise PuzzleError(f"the state has {len(state.placed)} cells; the puzzle has {n * n}")
    givens = puzzle.cells
    for cell, given in enumerate(givens):
        if not given:
            continue
        if state.placed[cell] and state.placed[cell] != given:
            raise PuzzleError(
                f"the state contradicts the givens: {_name(cell, n)} is given {given}, the "
                f"state places {state.placed[cell]} there"
            )
        if state.marks[cell] and not state.marks[cell] >> (given - 1) & 1:
            raise PuzzleError(
                f"the state contradicts the givens: {_name(cell, n)} is given {given}, the "
                f"state's marks there are {_digits(state.marks[cell])}"
            )
    grid = [given or state.placed[cell] for cell, given in enumerate(givens)]
    new = [cell for cell in range(n * n) if grid[cell] and not givens[cell]]
    for rule in puzzle.model.rules:
        if isinstance(rule, DigitRule):
            for cell in rule.cells:
                if cell in new and not rule.allows(grid[cell]):
                    raise PuzzleError(
                        f"the state places {grid[cell]} in {_name(cell, n)}, which breaks a "
                        f"rule: {rule.title} cells may not hold it"
                    )
    if new:
        try:
            puzzle.with_cells(grid)
        except PuzzleError as err:
            placed = _placed_at(err, grid, new, n)
            said = (
                f"the state places {placed}, which breaks a "
                if placed
                else "the state's placed digits break a "
            )
            raise PuzzleError(f"{said}rule: {_as_state(str(err))}") from None
    seen = [0] * (n * n)  # the digits placed or given in each cell's peers
    peers = puzzle.peers()
    for cell in range(n * n):
        if grid[cell]:
            for peer in peers[cell]:
                seen[peer] |= 1 << (grid[cell] - 1)
    for cell in range(n * n):
        if grid[cell] or not state.marks[cell]:
            continue
        if not state.marks[cell] & ~seen[cell]:
            raise PuzzleError(
                f"the state leaves {_name(cell, n)} no candidate: its marks "
                f"{_digits(state.marks[cell])} are each placed in a cell it sees"
            )
    for cell in range(n * n):
        if not grid[cell] and not state.marks[cell] and not ~seen[cell] & ((1 << n) - 1):
            raise PuzzleError(
                f"the state leaves {_name(cell, n)} no candidate: every digit is placed in a "
                "cell it sees"
            )


def _placed_at(err: PuzzleError, grid: list[int], new: list[int], n: int) -> str | None:
    """The placed digit an error about the grid names (the last placed cell it names), or
    None when it names none (a sandwich of "row 2", a cage named by a given cell): another
    placed cell would be blamed for a rule it is not in."""
    text = str(err)
    named = [cell for cell in new if _name(cell, n) in text.replace("R", "r").replace("C", "c")]
    if not named:
        return None
    cell = named[-1]
    return f"{grid[cell]} in {_name(cell, n)}"


def _as_state(message: str) -> str:
    """A construction error about givens, said of the state's digits."""
    said = message.replace("is given twice in", "is twice in")
    said = said.removeprefix("the givens break a rule: ")
    return said.replace("the givens break the ", "the ", 1)


def state_puzzle(puzzle: Puzzle, state: State) -> Puzzle:
    """``puzzle`` narrowed by ``state``, for the backends (solve, check, count, candidates):
    the placed digits become givens and each marked cell a given-candidates rule
    (:class:`~sudoku_cp.rules.candidates.Candidates`, f-puzzles' given pencil marks). The
    puzzle's published solution is left out: it is the puzzle's, which a wrong state need
    not keep (a backend finding none is then the answer, not a disagreement)."""
    from ..puzzle import Puzzle
    from ..rules.candidates import Candidates

    n = puzzle.size
    grid = [given or state.placed[cell] for cell, given in enumerate(puzzle.cells)]
    by_digits: dict[tuple[int, ...], list[int]] = {}
    for cell, mask in enumerate(state.marks):
        if mask and not grid[cell]:
            digits = tuple(d + 1 for d in range(n) if mask >> d & 1)
            by_digits.setdefault(digits, []).append(cell)
    model = puzzle.model
    if by_digits:
        model = model.with_rules(
            rules=[Candidates(tuple(cells), digits) for digits, cells in by_digits.items()],
            size=n,
        )
    return Puzzle.from_parsed(tuple(grid), n, model)


__all__ = ["MAX_STATE_BYTES", "State", "check_state", "parse_state", "read_state", "state_puzzle"]
