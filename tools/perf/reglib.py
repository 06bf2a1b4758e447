"""HoDoKu's regression library (reglib) run against the logic solver's techniques (issue 30).

    python -m tools.perf.reglib [--family CODE ...] [--json] [--file PATH] [--failures]

Each line of the library is one test case: a grid with some candidates deleted, a technique, and
the eliminations or placements that technique must make there. The meanings are those of
HoDoKu's own reader, ``RegressionTester.test`` and ``checkResults`` (HoDoKu,
``src/sudoku/RegressionTester.java``; read in yoki123/hodoku, a fork of hobiwan's HoDoKu), of
``Sudoku2.setSudoku`` (the library grid format, ``src/sudoku/Sudoku2.java``) and of
``SolutionType`` (code to technique, ``src/sudoku/SolutionType.java``, names from
``src/intl/SolutionType.properties``). The library's own header (``reglib-1.4.txt``) says the
same in prose.

A case passes, as in ``checkResults``, when some step of its technique on that grid makes
exactly the expected eliminations and placements; a *fail case* (variant ``x``) passes when
no step of its technique fires there. The technique is looked up by HoDoKu's name in the
solver's registry (:data:`sudoku_cp.logic.solver.TECHNIQUES`) and enumerated with
:func:`~sudoku_cp.logic.board.every_step`, so a technique registered later under HoDoKu's name
is tested with no change here. A family (a code) with no registered technique is reported as
*missing*, never skipped or passed. Where we differ from HoDoKu, on purpose:

- HoDoKu also fails a case when another step of the technique on the same digits makes other
  eliminations ("no other instance … leads to … different eliminations", the library's header);
  we ask only for one step with the expected outcome (issue 30's criterion).
- The ``extra`` field (a chain's length) is not compared: our chain searches find the shortest
  chain from each start, which may be shorter than HoDoKu's for the same outcome.
- A placement and the elimination of every other candidate of its cell say the same thing:
  HoDoKu writes BUG+1 as eliminations (``UniquenessSolver.getBugPlus1``), we as a placement,
  so outcomes are compared with placements written as those eliminations.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import pkgutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_cp.logic.board import Board, Technique, every_step, technique
from sudoku_cp.logic.steps import Candidate, Step

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "reglib-1.4.txt"
MAX_FILE_BYTES = 16 << 20
"""A larger file is refused: the library is 0.3 MB."""

# HoDoKu's library codes and names: ``SolutionType``'s second constructor argument and its name
# in ``intl/SolutionType.properties`` (the names our steps carry), for every code the library
# uses and the other fish sizes. ``xxxx`` types (no library code) are left out, as HoDoKu's
# ``getTypeFromLibraryType`` never returns them for a real code.
NAMES: dict[str, str] = {
    "0000": "Full House",
    "0002": "Hidden Single",
    "0003": "Naked Single",
    "0100": "Locked Candidates Type 1 (Pointing)",
    "0101": "Locked Candidates Type 2 (Claiming)",
    "0110": "Locked Pair",
    "0111": "Locked Triple",
    "0200": "Naked Pair",
    "0201": "Naked Triple",
    "0202": "Naked Quadruple",
    "0210": "Hidden Pair",
    "0211": "Hidden Triple",
    "0212": "Hidden Quadruple",
    "0300": "X-Wing",
    "0301": "Swordfish",
    "0302": "Jellyfish",
    "0303": "Squirmbag",
    "0304": "Whale",
    "0305": "Leviathan",
    "0310": "Finned X-Wing",
    "0311": "Finned Swordfish",
    "0312": "Finned Jellyfish",
    "0313": "Finned Squirmbag",
    "0314": "Finned Whale",
    "0315": "Finned Leviathan",
    "0320": "Sashimi X-Wing",
    "0321": "Sashimi Swordfish",
    "0322": "Sashimi Jellyfish",
    "0323": "Sashimi Squirmbag",
    "0324": "Sashimi Whale",
    "0325": "Sashimi Leviathan",
    "0330": "Franken X-Wing",
    "0331": "Franken Swordfish",
    "0332": "Franken Jellyfish",
    "0333": "Franken Squirmbag",
    "0334": "Franken Whale",
    "0335": "Franken Leviathan",
    "0340": "Finned Franken X-Wing",
    "0341": "Finned Franken Swordfish",
    "0342": "Finned Franken Jellyfish",
    "0343": "Finned Franken Squirmbag",
    "0344": "Finned Franken Whale",
    "0345": "Finned Franken Leviathan",
    "0350": "Mutant X-Wing",
    "0351": "Mutant Swordfish",
    "0352": "Mutant Jellyfish",
    "0353": "Mutant Squirmbag",
    "0354": "Mutant Whale",
    "0355": "Mutant Leviathan",
    "0360": "Finned Mutant X-Wing",
    "0361": "Finned Mutant Swordfish",
    "0362": "Finned Mutant Jellyfish",
    "0363": "Finned Mutant Squirmbag",
    "0364": "Finned Mutant Whale",
    "0365": "Finned Mutant Leviathan",
    "0371": "Kraken Fish Type 1",
    "0372": "Kraken Fish Type 2",
    "0400": "Skyscraper",
    "0401": "2-String Kite",
    "0402": "Empty Rectangle",
    "0403": "Turbot Fish",
    "0404": "Dual 2-String Kite",
    "0405": "Dual Empty Rectangle",
    "0500": "Simple Colors Trap",
    "0501": "Simple Colors Wrap",
    "0502": "Multi-Colors 1",
    "0503": "Multi-Colors 2",
    "0600": "Uniqueness Test 1",
    "0601": "Uniqueness Test 2",
    "0602": "Uniqueness Test 3",
    "0603": "Uniqueness Test 4",
    "0604": "Uniqueness Test 5",
    "0605": "Uniqueness Test 6",
    "0606": "Hidden Rectangle",
    "0607": "Avoidable Rectangle Type 1",
    "0608": "Avoidable Rectangle Type 2",
    "0610": "Bivalue Universal Grave + 1",
    "0701": "X-Chain",
    "0702": "XY-Chain",
    "0703": "Remote Pair",
    "0706": "Continuous Nice Loop",
    "0707": "Discontinuous Nice Loop",
    "0708": "AIC",
    "0709": "Grouped Continuous Nice Loop",
    "0710": "Grouped Discontinuous Nice Loop",
    "0711": "Grouped AIC",
    "0800": "XY-Wing",
    "0801": "XYZ-Wing",
    "0803": "W-Wing",
    "0901": "Almost Locked Set XZ-Rule",
    "0902": "Almost Locked Set XY-Wing",
    "0903": "Almost Locked Set Chain",
    "0904": "Death Blossom",
    "1101": "Sue de Coq",
    "1201": "Template Set",
    "1202": "Template Delete",
    "1301": "Forcing Chain Contradiction",
    "1302": "Forcing Chain Verity",
    "1303": "Forcing Net Contradiction",
    "1304": "Forcing Net Verity",
}

ALIASES: dict[str, tuple[str, ...]] = {
    # The project's shorter names for HoDoKu's ALS techniques (the session's convention).
    "Almost Locked Set XZ-Rule": ("ALS-XZ",),
    "Almost Locked Set XY-Wing": ("ALS-XY-Wing",),
    "Almost Locked Set Chain": ("ALS-XY-Chain", "ALS Chain"),
}
"""Other names a registered technique (or its steps) may give a HoDoKu technique."""

SEARCHED_WITH: dict[str, str] = {
    # RegressionTester.test runs one finder for a basic, finned and sashimi fish of one size
    # (``findAllFishes(sudoku, size, 0)``); our sashimi fish are steps of the finned search.
    "Sashimi X-Wing": "Finned X-Wing",
    "Sashimi Swordfish": "Finned Swordfish",
    "Sashimi Jellyfish": "Finned Jellyfish",
    "Sashimi Squirmbag": "Finned Squirmbag",
    "Sashimi Whale": "Finned Whale",
    "Sashimi Leviathan": "Finned Leviathan",
    # Dual kites and rectangles: two of one search's steps (SingleDigitPatternSolver's
    # findDualTwoStringKites / findDualEmptyRectangles over the list that search made).
    "Dual 2-String Kite": "2-String Kite",
    "Dual Empty Rectangle": "Empty Rectangle",
    # A siamese fish is two of that search's fish with the same base (FishSolver.
    # findSiameseFish, run over the list the same finder made).
    "Siamese Finned X-Wing": "Finned X-Wing",
    "Siamese Finned Swordfish": "Finned Swordfish",
    "Siamese Finned Jellyfish": "Finned Jellyfish",
    "Siamese Sashimi X-Wing": "Finned X-Wing",
    "Siamese Sashimi Swordfish": "Finned Swordfish",
    "Siamese Sashimi Jellyfish": "Finned Jellyfish",
    "Siamese Finned Franken X-Wing": "Finned Franken X-Wing",
    "Siamese Finned Franken Swordfish": "Finned Franken Swordfish",
    "Siamese Finned Franken Jellyfish": "Finned Franken Jellyfish",
    "Siamese Finned Mutant X-Wing": "Finned Mutant X-Wing",
    "Siamese Finned Mutant Swordfish": "Finned Mutant Swordfish",
    "Siamese Finned Mutant Jellyfish": "Finned Mutant Jellyfish",
}
"""A technique whose steps come from another's search (when none is registered by its name)."""

# The variants the library defines (its section headers, and the options RegressionTester.test
# sets for them); a variant changes which steps HoDoKu may find, never how a case is read.
VARIANTS: dict[tuple[str, str], str] = {
    ("0110", "1"): "with a naked pair (HoDoKu runs only these)",
    ("0111", "1"): "with a naked triple (HoDoKu runs only these)",
    ("0402", "1"): "only two candidates in the box (allowErsWithOnlyTwoCandidates)",
    ("0600", "1"): "without missing candidates",
    ("0600", "2"): "with missing candidates (allowUniquenessMissingCandidates)",
    ("0707", "1"): "sets a value",
    ("0707", "2"): "deletes candidates",
    ("0709", "1"): "no ALS",
    ("0709", "2"): "with ALS (allowAlsInTablingChains)",
    ("0710", "1"): "sets a value, no ALS",
    ("0710", "2"): "deletes candidates, no ALS",
    ("0710", "3"): "sets a value, with ALS",
    ("0710", "4"): "deletes candidates, with ALS",
    ("0711", "1"): "one digit eliminated, no ALS",
    ("0711", "2"): "two digits eliminated, no ALS",
    ("0711", "3"): "one digit eliminated, with ALS",
    ("0711", "4"): "two digits eliminated, with ALS",
    ("0708", "1"): "one digit eliminated",
    ("0708", "2"): "two digits eliminated",
    ("0901", "1"): "singly linked",
    ("0901", "2"): "doubly linked",
    ("0902", "1"): "no ALS overlap",
    ("0902", "2"): "with ALS overlap (allowAlsOverlap)",
    ("0903", "1"): "no ALS overlap",
    ("0903", "2"): "with ALS overlap (allowAlsOverlap)",
    ("0904", "1"): "no ALS overlap",
    ("0904", "2"): "with ALS overlap (allowAlsOverlap)",
}
# Every uniqueness test's -1/-2 are read as 0600's (RegressionTester.test: variant 1 turns
# allowUniquenessMissingCandidates off, variant 2 on, for all of UNIQUENESS_1 … AR 2).
for _code in ("0601", "0602", "0603", "0604", "0605", "0606", "0607", "0608"):
    for _v in ("1", "2"):
        VARIANTS[(_code, _v)] = VARIANTS[("0600", _v)]


class ReglibError(ValueError):
    """A line of the library that cannot be read (the message names the line)."""


@dataclass(frozen=True)
class Case:
    """One test case: ``:code[-variant]:candidates:grid:deleted:eliminations:placements:extra``."""

    line: int
    """1-based line of the file."""
    code: str
    """The technique's library code as written, without the variant (``03111``: siamese)."""
    variant: str
    """``""``, a number, or ``x`` (a fail case: the technique must not fire)."""
    digits: str
    """The case's <candidate(s)> field: the digits the step uses (or eliminates)."""
    values: tuple[int, ...]
    """The 81 cells: givens and placed digits ('+' in the file), 0 for empty."""
    placed: frozenset[int]
    """Cells whose digit was placed, not given ('+')."""
    deleted: tuple[Candidate, ...]
    eliminations: frozenset[Candidate]
    placements: frozenset[Candidate]
    extra: str
    text: str

    @property
    def fail_case(self) -> bool:
        return self.variant == "x"

    @property
    def siamese(self) -> bool:
        """A code one longer than its type's, ending in 1: a siamese fish (SolutionType.
        getTypeFromLibraryType drops the 1; Sudoku2.getSudoku adds it for a siamese step)."""
        return self.code not in NAMES and self.code[:-1] in NAMES and self.code.endswith("1")

    @property
    def name(self) -> str | None:
        """HoDoKu's name of the case's technique (None: a code HoDoKu does not know)."""
        if self.code in NAMES:
            return NAMES[self.code]
        if self.siamese:
            return "Siamese " + NAMES[self.code[:-1]]
        return None

    @property
    def board(self) -> Board:
        """The grid of the case, candidates deleted, as ``Sudoku2.setSudoku`` makes it: the
        givens are the puzzle's, the '+' digits placed on the board (``setCell(…, given)``
        with ``given`` false), so a technique that tells them apart (an avoidable rectangle
        needs placed, not given, digits) can."""
        from sudoku_cp import Puzzle

        givens = "".join(
            str(v) if v and i not in self.placed else "." for i, v in enumerate(self.values)
        )
        board = Board(Puzzle.parse(givens))
        for cell in sorted(self.placed):
            board.place(cell, self.values[cell])
        for cell, digit in self.deleted:
            if not board.values[cell]:
                board.eliminate(cell, digit)
        return board


def _candidates(text: str, where: str) -> tuple[Candidate, ...]:
    """``436 257`` → ((r3c6, 4), (r5c7, 2)): <digit><row><column>, blank-separated
    (``Sudoku2.setSudoku``: ``candPos % 10`` the column, then the row, then the digit)."""
    out = []
    for item in text.split(" "):
        if not item:
            continue  # (setSudoku skips empty items: two blanks in a row)
        if len(item) != 3 or not item.isdigit() or "0" in item:
            raise ReglibError(f"{where}: {item!r} is not a candidate <digit><row><column> 1-9")
        digit, row, col = int(item[0]), int(item[1]), int(item[2])
        out.append(((row - 1) * 9 + col - 1, digit))
    return tuple(out)


def parse_case(text: str, line: int = 0) -> Case:
    """One case line, read as ``RegressionTester.test`` and ``Sudoku2.setSudoku`` read it."""
    where = f"reglib line {line}"
    text = text.strip()
    if not text.startswith(":"):
        raise ReglibError(f"{where}: a case starts with ':'")
    # Sudoku2.setSudoku reads a line as the library format only with 6 or 7 ':' (the last,
    # after <extra>, may be left out); the fields are positional from the first ':'.
    if text.count(":") not in (6, 7):
        raise ReglibError(f"{where}: {text.count(':')} ':', a case has 6 or 7")
    parts = text.split(":")
    parts += [""] * (8 - len(parts))
    code, variant = parts[1], ""
    if "-" in code:
        # RegressionTester.test: 'x' after the dash is a fail case, else a number; anything
        # else is an invalid variant, which HoDoKu ignores (we refuse it).
        code, variant = code[: code.index("-")], code[code.index("-") + 1 :]
        if not (variant == "x" or variant.isdigit()):
            raise ReglibError(f"{where}: invalid variant {variant!r}")
    if not code.isdigit():
        raise ReglibError(f"{where}: technique code {code!r} is not a number")
    digits = parts[2]
    if not all(ch in "123456789" for ch in digits):
        raise ReglibError(f"{where}: candidates field {digits!r} holds a non-digit")
    # Sudoku2.setSudoku, library format: a '+' before a digit marks it placed, not given.
    grid = parts[3]
    values: list[int] = []
    placed: set[int] = set()
    plus = False
    for ch in grid:
        if ch == "+":
            plus = True
            continue
        if ch.isdigit() or ch == ".":
            if plus and ch in ".0":
                raise ReglibError(f"{where}: '+' before {ch!r}, not a digit")
            if plus:
                placed.add(len(values))
            values.append(0 if ch in ".0" else int(ch))
            plus = False
        else:
            raise ReglibError(f"{where}: grid character {ch!r} (digits, '.', '+' only)")
    if len(values) != 81:
        raise ReglibError(f"{where}: the grid has {len(values)} cells, not 81")
    return Case(
        line=line,
        code=code,
        variant=variant,
        digits=digits,
        values=tuple(values),
        placed=frozenset(placed),
        deleted=_candidates(parts[4], f"{where}, deleted candidates"),
        eliminations=frozenset(_candidates(parts[5], f"{where}, eliminations")),
        placements=frozenset(_candidates(parts[6], f"{where}, placements")),
        extra=parts[7],
        text=text,
    )


def read_cases(path: Path = DEFAULT_FILE) -> list[Case]:
    """Every case of a library file; comment ('#') and blank lines skipped, as
    ``RegressionTester.runTest`` does."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ReglibError(f"{path}: {size} bytes, more than {MAX_FILE_BYTES} (not a reglib)")
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ReglibError(f"{path}: cannot be read ({error})") from None
    cases = []
    for number, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            cases.append(parse_case(stripped, number))
    return cases


# --- running ----------------------------------------------------------------------------------
def finder(name: str) -> tuple[Technique, frozenset[str]] | None:
    """The technique searching for HoDoKu's technique ``name`` and the step names that count
    as it; None when there is none. Looked up in the solver's registry first, then in the
    ``TECHNIQUES`` lists of the logic modules (searches the solver leaves off, as HoDoKu's
    solver leaves its Mutant fish off while its RegressionTester tests them)."""
    from sudoku_cp.logic.solver import TECHNIQUES

    names = frozenset((name, *ALIASES.get(name, ())))
    registered = [(entry.name, entry.find) for entry in TECHNIQUES]
    for wanted in (names, {SEARCHED_WITH.get(name)}):
        for found in (registered, _module_techniques()):
            for known, find in found:
                if known in wanted:
                    return find, names
    return None


@functools.cache
def _module_techniques() -> tuple[tuple[str, Technique], ...]:
    """``(name, search)`` from every ``sudoku_cp.logic`` module's ``TECHNIQUES`` (pairs, or
    triples with an order key first), modules in name order."""
    import sudoku_cp.logic as logic

    out: list[tuple[str, Technique]] = []
    for module in sorted(m.name for m in pkgutil.iter_modules(logic.__path__) if not m.ispkg):
        listed = getattr(importlib.import_module(f"sudoku_cp.logic.{module}"), "TECHNIQUES", ())
        for item in listed if isinstance(listed, tuple) else ():
            name = next((x for x in item if isinstance(x, str)), None)
            find = next((x for x in item if callable(x)), None)
            if name is not None and find is not None:
                out.append((name, find))
    return tuple(out)


def outcome(
    board: Board, placements: Iterable[Candidate], eliminations: Iterable[Candidate]
) -> frozenset[Candidate]:
    """The candidates a step removes from the cells it touches: its eliminations, and for each
    placement the cell's other candidates (a placement and those eliminations say the same)."""
    out = set(eliminations)
    for cell, digit in placements:
        mask = board.candidates[cell] & ~(1 << (digit - 1))
        out.update((cell, d) for d in range(1, 10) if mask >> (d - 1) & 1)
    return frozenset(out)


def _steps(board: Board, find: Technique, names: frozenset[str]) -> Iterator[Step]:
    """Every step of the technique ``find`` that carries one of ``names``."""
    for step in every_step(find, board):
        if step.technique in names:
            yield step


def _fires_on(case: Case, step: Step) -> bool:
    """Whether a step is one a fail case forbids: HoDoKu's ``checkResults`` counts a step whose
    library line starts with the case's ``:code:candidates:``. Its <candidate(s)> are the
    digits the step uses (for chains and ALS, the digits it eliminates); ours: the digits of
    its proof and outcome. An empty field (BUG+1, whose HoDoKu step has no digits) matches any
    step."""
    if not case.digits:
        return True
    used = {d for _, d in (*step.proof, *step.eliminations, *step.placements)}
    return used == {int(d) for d in case.digits}


@dataclass
class Result:
    case: Case
    status: str
    """``pass``, ``fail`` or ``missing`` (no technique of that name is registered)."""
    found: list[str] = field(default_factory=list)
    """For a failed case, what the technique's steps did (at most a few)."""
    seconds: float = 0.0


@functools.cache
def option_searches() -> dict[tuple[str, str], Technique]:
    """The searches with the option ``RegressionTester.test`` turns on for a variant, where
    HoDoKu's own solver leaves it off and ours has it: variant 2 of ALS-XY-Wing, ALS-XY-Chain
    and Death Blossom sets ``Options.allowAlsOverlap`` (its ``-2`` cases need overlapping
    sets), which the ALS searches take as ``overlap=True``."""
    from sudoku_cp.logic import als, grouped

    def with_overlap(search: Callable[..., Iterator[Step]]) -> Technique:
        def overlapping(board: Board) -> Iterator[Step]:
            return search(board, overlap=True)

        overlapping.__name__ = f"{search.__name__}_with_overlap"
        return technique(overlapping)

    def with_als_nodes(name: str) -> Technique:
        def chained(board: Board) -> Iterator[Step]:
            return grouped.search_grouped_chains(board, name, als_nodes=True)

        chained.__name__ = f"{name.lower().replace(' ', '_')}_with_als_nodes"
        return technique(chained)

    loops, nets, aics = (with_als_nodes(n) for n in (grouped.GCNL, grouped.GDNL, grouped.GAIC))
    return {
        ("0709", "2"): loops,
        ("0710", "3"): nets,
        ("0710", "4"): nets,
        ("0711", "3"): aics,
        ("0711", "4"): aics,
        ("0902", "2"): with_overlap(als.search_als_xy_wing),
        ("0903", "2"): with_overlap(als.search_als_xy_chain),
        ("0904", "2"): with_overlap(als.search_death_blossom),
    }


def run_case(case: Case) -> Result:
    """Decide one case as ``RegressionTester.checkResults`` does (see the module's notes),
    with the option the tester turns on for the case's variant (:func:`option_searches`)."""
    name = case.name
    looked = finder(name) if name is not None else None
    if looked is None:
        return Result(case, "missing")
    find, names = looked
    find = option_searches().get((case.code, case.variant), find)
    start = time.perf_counter()
    board = case.board
    expected = outcome(board, case.placements, case.eliminations)
    found: list[str] = []
    status = "fail"
    if case.fail_case:
        status = "pass"
        for step in _steps(board, find, names):
            if _fires_on(case, step):
                status = "fail"
                found.append(_describe(step))
                break
    else:
        for step in _steps(board, find, names):
            if outcome(board, step.placements, step.eliminations) == expected:
                status = "pass"
                break
            if len(found) < 5:
                found.append(_describe(step))
    return Result(case, status, found if status == "fail" else [], time.perf_counter() - start)


def _notation(cands: Iterable[Candidate]) -> str:
    """Candidates in the library's notation, <digit><row><column>."""
    return " ".join(f"{d}{c // 9 + 1}{c % 9 + 1}" for c, d in sorted(cands))


def _describe(step: Step) -> str:
    return (
        f"{step.technique}: eliminates [{_notation(step.eliminations)}] "
        f"places [{_notation(step.placements)}]"
    )


def case_text(case: Case) -> str:
    """What a case expects, in the library's notation."""
    return f"eliminates [{_notation(case.eliminations)}] places [{_notation(case.placements)}]"


@dataclass
class Family:
    code: str
    name: str
    cases: int = 0
    passed: int = 0
    failed: int = 0
    missing: int = 0
    seconds: float = 0.0


def summarise(results: list[Result]) -> tuple[list[Family], dict[str, float | int]]:
    """Per family (code, in the library's order), and the totals."""
    families: dict[str, Family] = {}
    for r in results:
        fam = families.setdefault(r.case.code, Family(r.case.code, r.case.name or "(unknown)"))
        fam.cases += 1
        fam.seconds += r.seconds
        if r.status == "pass":
            fam.passed += 1
        elif r.status == "fail":
            fam.failed += 1
        else:
            fam.missing += 1
    total = len(results)
    passed = sum(f.passed for f in families.values())
    implemented = sum(f.passed + f.failed for f in families.values())
    totals: dict[str, float | int] = {
        "cases": total,
        "passed": passed,
        "failed": sum(f.failed for f in families.values()),
        "missing": sum(f.missing for f in families.values()),
        "implemented_cases": implemented,
        "pass_rate_all": passed / total if total else 0.0,
        "pass_rate_implemented": passed / implemented if implemented else 0.0,
    }
    return list(families.values()), totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.perf.reglib", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--family", action="append", metavar="CODE", help="only this code")
    parser.add_argument("--json", action="store_true", help="JSON instead of a table")
    parser.add_argument("--failures", action="store_true", help="list each failed case")
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, help="the library file")
    args = parser.parse_args(argv)
    try:
        cases = read_cases(args.file)
    except ReglibError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.family:
        known = {c.code for c in cases}
        unknown = [f for f in args.family if f not in known]
        if unknown:
            print(f"error: --family {unknown[0]}: no case has that code", file=sys.stderr)
            return 2
        cases = [c for c in cases if c.code in args.family]
    results = [run_case(case) for case in cases]
    families, totals = summarise(results)
    failures = [r for r in results if r.status == "fail"]
    if args.json:
        print(
            json.dumps(
                {
                    "families": [{**vars(f), "seconds": round(f.seconds, 3)} for f in families],
                    "totals": totals,
                    "failures": [
                        {
                            "line": r.case.line,
                            "code": r.case.code,
                            "variant": r.case.variant,
                            "expected": case_text(r.case),
                            "found": r.found,
                        }
                        for r in failures
                    ],
                },
                indent=1,
            )
        )
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"HoDoKu reglib ({args.file.name})")
    for column in ("code", "HoDoKu name", "cases", "pass", "fail", "missing", "s"):
        table.add_column(column, justify="left" if column in ("code", "HoDoKu name") else "right")
    for f in families:
        table.add_row(
            f.code,
            f.name,
            str(f.cases),
            str(f.passed),
            str(f.failed),
            str(f.missing),
            f"{f.seconds:.2f}",
        )
    console = Console(width=110)
    console.print(table)
    console.print(
        f"{totals['passed']}/{totals['cases']} cases pass ({totals['pass_rate_all']:.1%} of all); "
        f"{totals['passed']}/{totals['implemented_cases']} of the implemented families' cases "
        f"({totals['pass_rate_implemented']:.1%}); {totals['missing']} missing."
    )
    if args.failures:
        for r in failures:
            variant = f"-{r.case.variant}" if r.case.variant else ""
            console.print(
                f"line {r.case.line} :{r.case.code}{variant}: expected {case_text(r.case)}",
                highlight=False,
            )
            for found in r.found:
                console.print(f"    found {found}", highlight=False)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # (the output piped into a reader that stopped early, as head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
