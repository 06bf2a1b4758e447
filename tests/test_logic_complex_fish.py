"""Franken and Mutant fish (sudoku_cp.logic.complex_fish).

Evidence:
- HoDoKu's regression library (reglib-1.4.txt, shipped with hobiwan's HoDoKu, GPL-3; lines
  copied below as data, each citing its case and line): the candidate grid of each case and the
  eliminations HoDoKu states for it; some step of the technique must make exactly those
  (HoDoKu's ``RegressionTester.checkResults`` asks the same of the steps it finds). Siamese
  cases (a code with a trailing 1, ``SolutionType.getTypeFromLibraryType``) state the
  eliminations of two fish with the same base sets together (``FishSolver.findSiameseFish``):
  two steps with that base must make them between them.
- A soundness fuzz: on real hard puzzles (bundled top1465, forum-hardest, jigsaw regions),
  with candidates thinned at random but the solution's kept, every step of every search
  removes no digit of the solution.
"""

from __future__ import annotations

import random
from itertools import islice

import pytest
from logic_driver import check_step, puzzle_of, read_csv, solutions, thinned

from sudoku_cp import Puzzle
from sudoku_cp.logic import complex_fish
from sudoku_cp.logic.board import Board, every_step
from sudoku_cp.logic.complex_fish import BOX, COLUMN, FRANKEN, MUTANT, ROW, classify
from sudoku_cp.logic.rating import TECHNIQUE_RATING
from sudoku_cp.logic.solver import TECHNIQUES, solve_logically

BY_NAME = {name: find for _, name, find in complex_fish.TECHNIQUES}

# HoDoKu's library codes (SolutionType.java, the second argument of each constant).
CODES = {
    "0330": "Franken X-Wing",
    "0331": "Franken Swordfish",
    "0332": "Franken Jellyfish",
    "0340": "Finned Franken X-Wing",
    "0341": "Finned Franken Swordfish",
    "0342": "Finned Franken Jellyfish",
    "0350": "Mutant X-Wing",
    "0351": "Mutant Swordfish",
    "0352": "Mutant Jellyfish",
    "0360": "Finned Mutant X-Wing",
    "0361": "Finned Mutant Swordfish",
    "0362": "Finned Mutant Jellyfish",
    "0363": "Finned Mutant Squirmbag",
    "0364": "Finned Mutant Whale",
}

# HoDoKu reglib-1.4.txt, the line number after each case.
REGLIB = [
    ":0331:9:.6.8.27352.76354.8385.7.26.5.6.8.3.7..876315.73.25.6848.2..657.65...78..173528946:"
    "415 136 442 144 952 474 184 484:913::",  # 672
    ":0331:8:52...617.174.536..6.9271..5..5.2...6.9.76..1...6.3...4..759236135261.9.79613.7.5.:"
    "814 819 928 842 844 944 856 861 964 866 867 868:872::",  # 673
    ":0332:8:..67..+391..9+3...623......+4.....3...4..72...1+34.+3..1....31..8.75..+49+5+3+1.+6.65...."
    "3.:941 547 847 951 557 665 567 475 791 495 496 897:832 835 837 841 842 862 865 867::",  # 677
    ":0332:8:+34..+6.27.+286......1.+7......+6...5....5+7.21+693..+21.9..567+6..3549.9...........6."
    "+9..3:114 124 127 429 834 443 843 344 346 148 283 883 186 288 889 895:836 839 849 884 886 "
    "893::",  # 678
    ":0332:2:...+4.29+3+6.3..+9...49.+413.+8.7..+3.84..5..83..+46.+4..71.38.5...+6+3.+4.....41+5.+33495."
    ".6..:512 121 721 821 123 526 626 741 242 642 742 944 148 248 251 952 259 872 773 274 177 179 "
    "279 281 282 884 288 798:223 228::",  # 679
    ":0332:5:+8+19.+264...638+1....+2....981+612.+9...4+8....+8..513.8+1..7...8+12..9.77...9+8+1....2"
    "..1.+8.:314 228 734 535 735 451 756 962 592 594 495 695 397:529 599::",  # 680
    ":0340:1:4.392..5659...6...6..85..4.1.5.9846.9.426.5...6.5.4...25...9683849632715..6.85294:"
    "328 829 759 367 867 269 769:129::",  # 689
    ":0340:6:3.465..8....1.32.41..4.7.39.4.9763..9.3241..8.1753894..8.7.4..34..3.582..3186.4.5:"
    "712 728 233 533 671:682::",  # 690
    ":0340:6:.72.3158.4..275.3.35..687.2.1.7543.8.3.619.757.5823.9.5..187..3..3596..7..734285.:"
    "973 281:672::",  # 691
    ":0340:1:5...8.4...9745.3.8...2.36.5....625.4...845.39.5..1.2867.5.3..423...24.5..425...63:"
    "112 612 113 121 138 142 842 744 151 152 652 683:183::",  # 692
    ":0341:5:.64.+2............2+293.8..4.......7.9..6...+23..1+9..2.86..7..89.5+9.82.1...+6...49..."
    ":518 718 724 725 128 728 541 342 542 544 154 371 372 678 482 385 685 789 394 799:525 545::",
    # (695)
    ":0341:9:.6.8.27352.76354.8385.7.26.5.6.8.3.7..876315.73.25.6848.2..657.65...78..173528946:"
    "913 415 136 442 144 952 474 184 484:984::",  # 696
    ":0341:8:.....1.83........6...27....9.71....5.6.7291..1...359..85...7...473.52...6.93.4...:"
    "511 212 213 417 517 321 521 222 223 277 178 278 678 179 198 199:899::",  # 697
    ":0341:8:52...617.174.536..6.9271..5..5.2...6.9.76..1...6.3...484759236135261.9.79613.7.5.:"
    "814 819 928 842 844 944 856 964 866 867 868:838::",  # 698
    ":0341:6:...39..72..3....9597...53............9.1..2..3.7.48.1..69....5..3...982.5.87...4.:"
    "821 822 234 834 835 639 349 649 949 359 659 274 197:634::",  # 699
    ":0341:8:.5...16..3.6..2.....93..2.4..453.182...8.4...8.512.4..6.1..53.....6..9.1..721..46:"
    "759 769:825::",  # 700
    ":0342:9:.+1.+67+8....68.+1.4..+7....26815+8..37+1+699.+7+5+6+13.+8+6+318.....1.+6.+8..5.+8....6.+1..7"
    ".1..8.6:432 433:935::",  # 708
    ":0342:7:+1.7...8+3.+62..+83+1..+3.81+9.+2+6...64.....5.....6.1....76+4.34.+3.52.1.9.+2+34...6....."
    ".3+42:514 142 974 582:779::",  # 709
    ":0342:1:..5.4..32.6...94+5.+4....+5..+6.1..2.+5+48..4.5.6.+9+5......733+5.1.7..+4.49+5.2.6..2....."
    ".5:714 724 734:198::",  # 710
    ":0342:3:..+5+648+1..+4...1.+6.86+1+8..75.+4+5+42..186.7+8+6...4.193+1...+7+521+6....34+5+85....+21+7..4"
    "+1..+9+86:218 918 222 923 924 344 955 386 986 295 296:319::",  # 711
    ":0342:7:.5...16..3.6..2.....93..2.4..453.182...8.4...8.512.4..6.1..53.....6..9.1..721..46:"
    "825 759 769:736::",  # 712
    ":0342:8:2..9..8613.126.75..6...132.542.1.69.63.4921.5.196..243...12..36.26..951.1.3..6..2:"
    "415 431 731 833 435 473 476 489 892:844::",  # 713
    ":0342:7:2..9..8613.126.75..6...132.542.1.69.63.4921.5.196..243...12..36.26..951.1.3..6..2:"
    "415 431 731 833 435 844 473 476 781 785 489 892 895:765::",  # 714
    ":0342:7:+5.3+9641+8..+1.+5...69.9+6...53+4..7...84515.4........3+5...+1..+5.+4..1...18.54.+66..21"
    "..+58::759::",  # 716
    ":0342:6:.5+7....8..+3....7+5.+84..57.314.3..2+5.89+8...+54....58+4....+32.+5.4+8+97+5.8739.+42+7+9+42."
    ".3.+5:619 123 924 625 655 658 161 267 667:687::",  # 717
    ":0342:1:4.392..5659...6...6..85..4.1.5.9846.9.426.5...6.5.4...25...9683849632715..6.85294:"
    "328 829 759 367 867 269 769:129::",  # 719
    ":0362:4:....27.3+9+3.164+9+2...9+2..+5..+6+13.9...28+9.8..+26+1..+25..13+9...+9+2.8.5+3.....39622.+3."
    "+9...1:447 772 781 782 792 892:417::",  # 750
    ":0363:9:.1.8.7.....81.6....4..528....7..3..82.1.7.5.33..5..2....5781.9.8..4.51..1....9.85:"
    "219 722 922 445 447 465 692:913::",  # 760
    ":0364:4:9.7..5...1..7..9..86..9.57..8...61.9316.59..72.91..65.....2..96.9...4..8...9..3.5:"
    "214 314 414 315 615 815 217 118 218 222 325 228 328 428 234 339 439 448 854 458 772 473 374 "
    "384 185 493 795:491::",  # 763
]

SIAMESE = [
    ":03411:4:92..8.5.73..9.7..6......8....4......6..7..3.525+3.......+3+2+519.6+85..2.+8...8.96..."
    "+52:122 435 138 146 747 748 968 782 385 787:425 436::",  # 703
    ":03411:9:+7...52..496+514.+72.3........+6.34.58.......1..68...6.........753.1+3.+5.+4..7+59+7..."
    "4..:814 117 118 818 132 832 133 833 139 939 252 452 957 364 273 275:958 967 968::",  # 704
    ":03421:3:.6....+728...+2671..+2+178.....1.65.+2.4.+98.+7+145...4.3.+6.......2.9..3...754....1..."
    "...:413 513 915 335 935 349 868 269 573 283 895 995 897:328 329::",  # 723
]


def _candidates(field: str) -> set[tuple[int, int]]:
    """A reglib candidate list: digit, row, column (``Sudoku2.setSudoku``: "415" is 4 in
    r1c5) → (cell, digit)."""
    out = set()
    for token in field.split():
        digit, row, column = (int(ch) for ch in token)
        out.add(((row - 1) * 9 + column - 1, digit))
    return out


def _case(line: str) -> tuple[str, int, Board, set[tuple[int, int]]]:
    """Technique, digit, board and expected eliminations of a reglib line
    (``:code:digit:grid:deleted:eliminations:placements:``; '+' marks a placed digit, which
    is set like a given; the deleted candidates are gone before the step)."""
    _, code, digit, grid, deleted, eliminations, *_ = line.split(":")
    board = Board(Puzzle.parse(grid.replace("+", "")))
    for cell, gone in _candidates(deleted):
        board.eliminate(cell, gone)
    return CODES[code[:4]], int(digit), board, _candidates(eliminations)


def _label(line: str) -> str:
    return line.split(":")[1] + "-" + line.split(":")[5].split()[0]


@pytest.mark.parametrize("line", REGLIB, ids=[_label(x) for x in REGLIB])
def test_reglib_case(line: str) -> None:
    name, digit, board, want = _case(line)
    steps = list(every_step(BY_NAME[name], board))
    assert any(s.technique == name and set(s.eliminations) == want for s in steps), [
        (s.technique, s.eliminations) for s in steps
    ]
    for step in steps:
        assert {d for _, d in step.eliminations} <= set(range(1, 10))
        for cell, gone in step.eliminations:
            assert board.has(cell, gone)


@pytest.mark.parametrize("line", SIAMESE, ids=[_label(x) for x in SIAMESE])
def test_reglib_siamese_case(line: str) -> None:
    name, _, board, want = _case(line)
    size = {"X-Wing": 2, "Swordfish": 3, "Jellyfish": 4}[name.rsplit(" ", 1)[1]]
    steps = [s for s in every_step(BY_NAME[name], board) if s.technique == name]
    pairs = [
        (a, b)
        for i, a in enumerate(steps)
        for b in steps[i + 1 :]
        if a.groups[:size] == b.groups[:size] and a.groups != b.groups
    ]
    assert any(set(a.eliminations) | set(b.eliminations) == want for a, b in pairs)


def test_families_by_unit_kinds() -> None:
    """``FishSolver.createFishStep``: rows against columns is basic; lines (and boxes)
    against the other lines (and boxes) Franken; anything else Mutant."""
    assert classify(ROW, COLUMN) is None and classify(COLUMN, ROW) is None
    assert classify(ROW | BOX, COLUMN) == FRANKEN
    assert classify(ROW, COLUMN | BOX) == FRANKEN
    assert classify(COLUMN | BOX, ROW | BOX) == FRANKEN
    assert classify(BOX, COLUMN) == MUTANT  # boxes alone as base
    assert classify(ROW, BOX) == MUTANT
    assert classify(ROW | COLUMN, COLUMN) == MUTANT
    assert classify(ROW | COLUMN | BOX, ROW | COLUMN | BOX) == MUTANT


def test_registered_at_hodoku_order_with_its_rating() -> None:
    """HoDoKu's default solver has Franken and Finned Franken X-Wing and Swordfish on
    (Options.DEFAULT_SOLVER_STEPS: order key, level, base score)."""
    by_order = {e.order: e for e in TECHNIQUES}
    expected = {
        6100: ("Franken X-Wing", "Unfair", 300),
        6200: ("Franken Swordfish", "Unfair", 350),
        6700: ("Finned Franken X-Wing", "Unfair", 390),
        6800: ("Finned Franken Swordfish", "Unfair", 410),
    }
    for order, (name, level, score) in expected.items():
        assert by_order[order].name == name
        assert by_order[order].find is BY_NAME[name]
        assert TECHNIQUE_RATING[name] == (level, score)
    assert TECHNIQUE_RATING["Franken Jellyfish"] == ("Unfair", 370)
    assert TECHNIQUE_RATING["Finned Franken Jellyfish"] == ("Unfair", 430)
    assert TECHNIQUE_RATING["Mutant X-Wing"] == ("Extreme", 450)
    assert TECHNIQUE_RATING["Finned Mutant Jellyfish"] == ("Extreme", 470)
    # A step may carry any family's name (a Franken search names what it finds): all rated.
    for family in ("Franken", "Mutant"):
        for finned in (False, True):
            for size in (2, 3, 4, 5, 6):
                assert complex_fish.fish_name(family, size, finned) in TECHNIQUE_RATING


def test_step_shape_and_text() -> None:
    """The Finned Franken X-Wing of case 0340 (reglib line 689): base and cover groups, the
    fins among the proof, one sentence naming the eliminated cell."""
    name, digit, board, want = _case(REGLIB[6])
    step = next(
        s
        for s in every_step(BY_NAME[name], board)
        if s.technique == name and set(s.eliminations) == want
    )
    assert len(step.groups) == 4
    labels = [board.puzzle.model.group_labels(9)[g] for g in step.groups]
    assert any(label.startswith("box") for label in labels)
    assert all(d == digit for _, d in step.proof)
    assert step.text.count(".") == 1 and step.text.endswith(".")
    assert "r2c9" in step.text and "fin" in step.text
    assert step.text.startswith(f"On {digit}: ")


@pytest.mark.parametrize(
    ("file", "count"), [("top1465.csv", 5), ("forum-hardest.csv", 3), ("jigsaw.csv", 3)]
)
def test_every_step_removes_no_solution_digit(file: str, count: int) -> None:
    rng = random.Random(30)
    found: set[str] = set()
    for row in read_csv(file, count):
        puzzle = puzzle_of(row)
        (solution,) = solutions(puzzle)
        board = thinned(puzzle, solution, rng)
        for _, _, find in complex_fish.TECHNIQUES:
            for step in islice(every_step(find, board), 150):
                check_step(board, step, solution)
                assert step.technique in TECHNIQUE_RATING
                found.add(step.technique)
    assert {"Finned Franken X-Wing", "Finned Franken Swordfish"} <= found, found


@pytest.mark.parametrize(
    ("file", "ident", "name"),
    [
        ("top1465.csv", "top1465#1345", "Finned Franken Swordfish"),
        ("top1465.csv", "top1465#1051", "Finned Franken Swordfish"),
        ("jigsaw.csv", "janko_jigsaw_559_9x9", "Franken Swordfish"),
    ],
)
def test_default_solve_needs_it(file: str, ident: str, name: str) -> None:
    """Real puzzles whose solve (uniqueness on, as ``rate`` solves) uses the fish once the
    default techniques up to the plain chains (HoDoKu's order up to AIC, 5602) are exhausted —
    the grouped loops, ALS steps and forcing chains that come next in the order would
    otherwise take most of them first — each step holding in the solution; on the jigsaw grid
    the regions are the boxes."""
    row = next(r for r in read_csv(file, 200) if r["id"] == ident)
    puzzle = puzzle_of(row)
    (solution,) = solutions(puzzle)
    chosen = [
        e.find for e in TECHNIQUES if not e.rules and (e.order <= 5602 or "Franken" in e.name)
    ]
    trace = solve_logically(puzzle, uniqueness=True, techniques=chosen)
    assert name in {step.technique for step in trace.steps}
    for step in trace.steps:
        for cell, digit in step.eliminations:
            assert solution[cell] != digit, step.text
        for cell, digit in step.placements:
            assert solution[cell] == digit, step.text
    if trace.outcome == "solved":
        assert trace.values == tuple(solution)


def test_solves_stay_sound_with_every_search() -> None:
    """Whole solves with every search here after the default techniques: each step holds in
    the solution."""
    chosen = [e.find for e in TECHNIQUES if not e.rules] + [
        find for _, _, find in complex_fish.TECHNIQUES
    ]
    for row in read_csv("top1465.csv", 6):
        puzzle = puzzle_of(row)
        (solution,) = solutions(puzzle)
        trace = solve_logically(puzzle, uniqueness=False, techniques=chosen)
        for step in trace.steps:
            for cell, digit in step.eliminations:
                assert solution[cell] != digit, step.text
            for cell, digit in step.placements:
                assert solution[cell] == digit, step.text


def _found(board: Board, n: int, finned: bool, family: str, bound: bool) -> set[tuple]:
    return {
        (f.base, f.cover, f.fins, f.eliminations)
        for digit in range(1, board.size + 1)
        for f in complex_fish.fish_on(board, digit, n, finned, family, bound=bound)
    }


@pytest.mark.parametrize(
    ("file", "ident"),
    [("top1465.csv", "top1465#1"), ("forum-hardest.csv", None), ("jigsaw.csv", None)],
)
def test_template_bound_loses_no_fish(file: str, ident: str | None) -> None:
    """A fish removes only candidates in no template of its digit (its argument holds for
    every template): searching with that bound finds exactly the fish found without it."""
    rows = read_csv(file, 40)
    row = next(r for r in rows if ident is None or r["id"] == ident)
    puzzle = puzzle_of(row)
    (solution,) = solutions(puzzle)
    board = thinned(puzzle, solution, random.Random(7))
    total = 0
    for family, n, finned in [
        (FRANKEN, 2, False),
        (FRANKEN, 3, False),
        (FRANKEN, 2, True),
        (FRANKEN, 3, True),
        (MUTANT, 2, True),
    ]:
        fast = _found(board, n, finned, family, True)
        assert fast == _found(board, n, finned, family, False)
        total += len(fast)
    assert total


@pytest.mark.parametrize(("model", "size"), [("x", 9), ("hyper", 9), ("classic", 6)])
def test_other_models_remove_no_solution_digit(model: str, size: int) -> None:
    """Diagonals and windows count as boxes (full groups that are not lines); 6x6 boxes are
    2x3. A solution of the empty grid, a third of it given, candidates thinned."""
    from sudoku_cp.model import load_model

    empty = Puzzle([0] * (size * size), load_model(model))
    solution = solutions(empty)[0]
    rng = random.Random(size)
    cells = [d if rng.random() < 0.3 else 0 for d in solution]
    puzzle = Puzzle(cells, load_model(model))
    board = thinned(puzzle, solution, rng)
    for _, _, find in complex_fish.TECHNIQUES:
        for step in islice(every_step(find, board), 150):
            check_step(board, step, solution)
