"""HoDoKu's regression library (``tests/data/reglib-1.4.txt``) against the logic techniques.

Every case of every family (technique code) we implement must give exactly the eliminations or
placements the library expects, and a fail case (variant ``x``) must not fire. The reader and
the verdict are those of ``tools/perf/reglib.py`` (HoDoKu's ``RegressionTester`` meanings); the
reader itself is tested here on lines whose meaning HoDoKu's own text states (the library's
header examples), not on our output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_cp.logic import fish, patterns
from sudoku_cp.logic.board import every_step
from sudoku_cp.logic.solver import TECHNIQUES
from tools.perf.reglib import (
    Case,
    ReglibError,
    _module_techniques,
    finder,
    main,
    parse_case,
    read_cases,
    run_case,
    summarise,
)

CASES = read_cases()
IMPLEMENTED = [c for c in CASES if c.name is not None and finder(c.name) is not None]

_CNL = (
    "our search meets one loop per start and end (the shortest path); HoDoKu's loop takes "
    "another path, with other eliminations"
)
_DNL = (
    "HoDoKu's loop removing one candidate (weak links on both sides of it) is an AIC for us; "
    "a DNL is derived from an AIC only after a DNL of our own kind (else the solver's first "
    "step would change)"
)
_ALS_LOOP = (
    "with ALS nodes our shortest loop (links counted alike) differs from HoDoKu's, whose "
    "tabling counts an ALS as longer (Als.getChainPenalty): other eliminations"
)
_LASSO = (
    "every shortest chain between the ends is a lasso; HoDoKu's, longer (its ALS penalty), is not"
)
KNOWN_FAILURES: dict[int, str] = {
    1152: _CNL,
    1157: _CNL,
    1159: _CNL,
    **dict.fromkeys(range(1197, 1203), _DNL),
    1254: _ALS_LOOP,
    1331: _LASSO,
    1349: _LASSO,
}
"""Library lines that fail, with the reason."""


def _reason(case: Case) -> str | None:
    return KNOWN_FAILURES.get(case.line)


# Searches the solver leaves off (found in a module's own TECHNIQUES list only, as Mutant
# fish) are the slow ones: their cases are marked slow.
SOLVER_SEARCHES = {id(entry.find) for entry in TECHNIQUES}


def _params() -> list[object]:
    out = []
    for case in IMPLEMENTED:
        reason = _reason(case)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        if id(finder(case.name)[0]) not in SOLVER_SEARCHES:  # type: ignore[arg-type, index]
            marks.append(pytest.mark.slow)
        variant = f"-{case.variant}" if case.variant else ""
        out.append(pytest.param(case, marks=marks, id=f"{case.code}{variant}-line{case.line}"))
    return out


@pytest.mark.parametrize("case", _params())
def test_case(case: Case) -> None:
    result = run_case(case)
    assert result.status == "pass", (case.text, result.found)


def test_the_fail_cases_we_implement_never_fire() -> None:
    fail_cases = [c for c in IMPLEMENTED if c.fail_case]
    # 0606-x (not a Hidden Rectangle) and 0610-x (not a BUG+1, three cases)
    assert {c.code for c in fail_cases} == {"0606", "0610"}
    assert all(run_case(c).status == "pass" for c in fail_cases)


# --- the reader, against the meanings HoDoKu states --------------------------------------------
HEADER_EXAMPLE_1 = (
    ":0003:8:6...+53+4.7....4+2+56.+254867+3+9+1.+4..+9+6.1.162+38+5749.3..+1+4.+5....42193..1."
    "+57...+44+2.6+3.+1+75:::829:"
)
HEADER_EXAMPLE_2 = (
    ":0603:3:14+8..+9+72+5.+3...89.697+6....38.+61......3+2.8.56...9......2.5+9+186....+8+3....61"
    "+6+1...35+89:224 524 225 525 135 455 755 458 758 165 168 771 284 484 784 285 485 785:"
    "364 365::"
)


def _grid(values: tuple[int, ...], cells: set[int] | frozenset[int]) -> str:
    return "".join(str(v) if v and i in cells else "." for i, v in enumerate(values))


def test_header_example_1_givens_placed_and_the_naked_single() -> None:
    # The library's header: the givens are the digits without '+', the '+' ones are placed,
    # and a Naked Single places 8 in r2c9.
    case = parse_case(HEADER_EXAMPLE_1, 1)
    assert (case.code, case.variant, case.digits) == ("0003", "", "8")
    givens = set(range(81)) - case.placed
    assert _grid(case.values, givens) == (
        "6....3..7....4..6..54867..........1.162.8.749.3..........42193..1..7....4..6....5"
    )
    assert _grid(case.values, case.placed) == (
        "....5.4.......25..2.....391.4..96......3.5.......14.5.............5....4.2..3.17."
    )
    assert case.placements == {(1 * 9 + 8, 8)}
    assert not case.eliminations and not case.deleted
    # the board keeps the difference (Sudoku2.setCell's given flag): givens are the puzzle's,
    # '+' digits only placed on the board
    board = case.board
    assert _grid(tuple(board.puzzle.cells), set(range(81))) == _grid(case.values, givens)
    assert tuple(board.values) == case.values
    assert run_case(case).status == "pass"


def test_header_example_2_deleted_candidates_and_eliminations() -> None:
    # "eliminate: r2c4<>25, r2c5<>25, r3c5<>1, r5c5<>47, r5c8<>47, r6c5<>1, r6c8<>1, r7c1<>7,
    # r4c8<>247, r5c8<>247" (r8c4<>247, r8c5<>247 are the rest of the list); a Uniqueness Test
    # 4 on 3 "eliminates 3 from r6c4 and r6c5".
    case = parse_case(HEADER_EXAMPLE_2, 2)
    assert (case.code, case.digits) == ("0603", "3")

    def cell(r: int, c: int) -> int:
        return (r - 1) * 9 + c - 1

    assert {(cell(2, 4), 2), (cell(2, 4), 5), (cell(3, 5), 1), (cell(7, 1), 7)} <= set(case.deleted)
    assert (cell(8, 4), 2) in case.deleted and len(case.deleted) == 18
    assert case.eliminations == {(cell(6, 4), 3), (cell(6, 5), 3)}
    board = case.board
    assert not board.has(cell(2, 4), 2) and board.has(cell(6, 4), 3)
    assert run_case(case).status == "pass"


def test_variants_fail_cases_and_siamese_codes() -> None:
    line = HEADER_EXAMPLE_2.replace(":0603:", ":0606-x:")
    case = parse_case(line)
    assert (case.code, case.variant, case.fail_case) == ("0606", "x", True)
    case = parse_case(HEADER_EXAMPLE_2.replace(":0603:", ":0603-2:"))
    assert (case.code, case.variant, case.fail_case) == ("0603", "2", False)
    # SolutionType.getTypeFromLibraryType: an unknown code ending in 1 is a siamese fish.
    siamese = parse_case(HEADER_EXAMPLE_2.replace(":0603:", ":03211:"))
    assert siamese.name == "Siamese Sashimi Swordfish"
    assert parse_case(HEADER_EXAMPLE_2.replace(":0603:", ":0321:")).name == "Sashimi Swordfish"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.replace(":0603:", ":0603-q:"), "invalid variant"),
        (lambda s: s.replace("14+8", "14+x"), "grid character"),
        (lambda s: s.replace("14+8", "148."), "cells, not 81"),
        (lambda s: s.replace("224 524", "2x4 524"), "deleted candidates"),
        (lambda s: s.replace("364 365", "364 305"), "eliminations"),
        (lambda s: s[1:], "starts with"),
        (lambda s: s + "x:", "8 ':'"),
        (lambda s: s[: s.index(":364")], "4 ':'"),
    ],
)
def test_bad_lines_are_refused_with_their_line(change: object, message: str) -> None:
    with pytest.raises(ReglibError, match=message) as caught:
        parse_case(change(HEADER_EXAMPLE_2), 77)  # type: ignore[operator]
    assert "line 77" in str(caught.value)


def test_a_changed_expectation_fails_and_an_unknown_technique_is_missing() -> None:
    case = parse_case(HEADER_EXAMPLE_2.replace("364 365", "364"))
    assert run_case(case).status == "fail"
    case = parse_case(HEADER_EXAMPLE_2.replace(":0603:", ":1201:"))  # Template Set
    if finder("Template Set") is None:
        assert run_case(case).status == "missing"
    unknown = parse_case(HEADER_EXAMPLE_2.replace(":0603:", ":0504:"))  # no SolutionType
    assert unknown.name is None and run_case(unknown).status == "missing"
    families, totals = summarise([run_case(unknown)])
    assert families[0].missing == 1 and totals["passed"] == 0


def test_techniques_are_found_by_hodoku_s_name() -> None:
    # registered in the solver; a sashimi fish from the finned search (RegressionTester runs
    # one finder for both); HoDoKu's long ALS name or the project's short one
    assert finder("Skyscraper") == (patterns.skyscraper, frozenset({"Skyscraper"}))
    found = finder("Sashimi Swordfish")
    assert found is not None and found[1] == {"Sashimi Swordfish"}
    assert found[0] is finder("Finned Swordfish")[0]  # type: ignore[index]
    als = finder("Almost Locked Set XZ-Rule")
    assert als is None or als[1] == {"Almost Locked Set XZ-Rule", "ALS-XZ"}
    assert finder("Squirmbag") is None  # no search for size-5 fish
    # the modules' own lists are read too (searches the solver may leave off)
    assert ("Skyscraper", patterns.skyscraper) in _module_techniques()
    for name in ("Kraken Fish Type 1", "Kraken Fish Type 2"):  # kraken.TECHNIQUES (off)
        kraken = finder(name)
        assert kraken is not None and kraken[1] == {name}


def test_the_library_file_as_read() -> None:
    # 1,112 case lines (the rest are comments and blanks), every code HoDoKu knows.
    assert len(CASES) == 1112
    assert all(c.name is not None for c in CASES)
    assert len(IMPLEMENTED) >= 790


# --- the harness's command --------------------------------------------------------------------
def test_command_json_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--family", "0000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["families"][0]["code"] == "0000" and out["totals"]["cases"] == 37
    assert out["totals"]["passed"] == 37
    assert main(["--family", "9999"]) == 2
    assert "no case has that code" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("# a comment\n:0000:1:123:::182:\n")
    assert main(["--file", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and err.count("\n") == 1
    assert main(["--file", str(tmp_path / "none.txt")]) == 2


# --- every step, and the memo that stays true --------------------------------------------------
def test_enumerating_every_step_keeps_the_first_step() -> None:
    # fresh_digits remembers "nothing on this digit" when asked for the next digit: after an
    # enumeration that yielded steps, the technique must still find its first step.
    case = next(c for c in CASES if c.code == "0400")
    board = case.board
    first = patterns.skyscraper(board)
    assert first is not None
    assert list(every_step(patterns.skyscraper, board))[0] == first
    assert patterns.skyscraper(board) == first


def test_multi_colors_1_gives_hodoku_s_step_for_two_clusters() -> None:
    # HoDoKu reglib-1.4.txt, case 0502 (line 867): the two clusters on 8 see each other through
    # two pairs of colours; HoDoKu's step removes what both pairs remove. Before, only each
    # pair's own step was made, and this case failed.
    case = next(c for c in CASES if c.line == 867)
    steps = list(every_step(patterns.multi_colors_1, case.board))
    assert {frozenset(s.eliminations) for s in steps} >= {case.eliminations}
    assert run_case(case).status == "pass"


def test_a_candidate_an_aic_removes_is_a_discontinuous_loop_through_it() -> None:
    # HoDoKu reglib-1.4.txt, case 0707-2 (line 1188): a Discontinuous Nice Loop removing 9
    # from r9c7, the loop's start (weak links on both sides of it). Our search finds that
    # loop as an AIC; every step of DNL now includes each candidate an AIC removes, alone.
    # Before, this case failed (only DNLs back to their own start cell were listed).
    case = next(c for c in CASES if c.line == 1188)
    assert case.eliminations == {(8 * 9 + 6, 9)}
    assert run_case(case).status == "pass"


def test_siamese_fish_join_two_finned_fish_on_one_base() -> None:
    # HoDoKu reglib-1.4.txt, case 03121 (line 609): a Siamese Finned Jellyfish on 7, a
    # sashimi and a finned jellyfish on the same base lines removing 725 and 754 764. The
    # finned search now also gives the pair as one step (after its own fish, never first);
    # before, the siamese families were missing.
    case = next(c for c in CASES if c.line == 609)
    steps = list(every_step(fish.finned_jellyfish, case.board))
    assert not steps[0].technique.startswith("Siamese")
    siamese = [s for s in steps if s.technique == "Siamese Finned Jellyfish"]
    assert case.eliminations in [frozenset(s.eliminations) for s in siamese]
    assert run_case(case).status == "pass"


def test_dual_kites_join_two_kites_through_the_same_box_cells() -> None:
    # HoDoKu reglib-1.4.txt, case 0404 (line 836): a Dual 2-String Kite removing 5 from r1c4
    # and 9 from r4c4: two kites, on 5 and on 9, joined through the same two cells of box 8
    # (HoDoKu's findDualTwoStringKites compares the cells, not the digits). Before, the dual
    # families were missing.
    case = next(c for c in CASES if c.line == 836)
    steps = list(every_step(patterns.two_string_kite, case.board))
    assert steps[0].technique == "2-String Kite"
    duals = [frozenset(s.eliminations) for s in steps if s.technique == "Dual 2-String Kite"]
    assert duals == [case.eliminations]
    assert run_case(case).status == "pass"
