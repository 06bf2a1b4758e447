"""The advanced human techniques (wings, single-digit patterns, chains, uniqueness).

Three kinds of evidence:
- HoDoKu's own technique examples (hodoku.sourceforge.net/en/show_example.php, files named
  below): the candidate grid HoDoKu prints and the eliminations it states, as facts;
- real puzzles where the technique is needed (found by running the techniques in a fixed order
  after singles), each step checked against the solution from the sat backend;
- a soundness fuzz: every step on many real puzzles removes no digit of the solution.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from logic_driver import check_step, puzzle_of, read_csv, run, singles, solutions

from sudoku_cp import Puzzle
from sudoku_cp.logic import chains, patterns, uniqueness, wings
from sudoku_cp.logic.board import Board, Technique, every_step
from sudoku_cp.logic.steps import Step
from sudoku_cp.model import load_model

ALL = patterns.TECHNIQUES + wings.TECHNIQUES + chains.TECHNIQUES + uniqueness.TECHNIQUES
BY_NAME = dict(ALL)
NOT_UNIQUENESS = patterns.TECHNIQUES + wings.TECHNIQUES + chains.TECHNIQUES
SHARED = Path("/work/shared/datasets")


def board_from(rows: list[str]) -> Board:
    """A board from a printed candidate grid: nine rows of nine tokens, a token of one digit
    is a placed cell (as HoDoKu prints them), longer tokens are candidates."""
    tokens = [re.findall(r"\d+", row) for row in rows]
    assert all(len(row) == 9 for row in tokens), tokens
    flat = [t for row in tokens for t in row]
    board = Board(Puzzle([int(t) if len(t) == 1 else 0 for t in flat]))
    for cell, token in enumerate(flat):
        if len(token) > 1:
            board.candidates[cell] = sum(1 << (int(d) - 1) for d in token)
    return board


def rc(*items: tuple[int, int, int]) -> set[tuple[int, int]]:
    """(row, column, digit) counted from 1 → (cell, digit)."""
    return {((r - 1) * 9 + c - 1, d) for r, c, d in items}


def steps_of(board: Board, technique: Technique, most: int = 12) -> list[Step]:
    """The technique applied again and again (nothing else) until it finds nothing."""
    out = []
    for _ in range(most):
        step = technique(board)
        if step is None:
            break
        out.append(step)
        board.apply(step)
    return out


# --- HoDoKu's examples ---------------------------------------------------------------------

SK01 = [  # show_example.php?file=sk01&tech=Skyscraper
    "6 9 7 | 1345 13458 158 | 1458 148 2",
    "45 58 1 | 9 7 2 | 458 6 3",
    "245 258 3 | 145 1458 6 | 7 9 18",
    "9 1 2 | 345 3458 58 | 6 38 7",
    "3 7 4 | 2 6 18 | 9 5 18",
    "8 6 5 | 7 13 9 | 13 2 4",
    "1 4 8 | 6 9 3 | 2 7 5",
    "7 35 9 | 15 2 4 | 138 138 6",
    "25 235 6 | 8 15 7 | 134 134 9",
]
D2SK01 = [  # show_example.php?file=d2sk01&tech=Dual+2-String+Kite
    "3 2 18 | 5 4 7 | 9 18 6",
    "789 89 6 | 2 1 3 | 48 5 47",
    "17 4 5 | 6 9 8 | 2 3 17",
    "5 3689 189 | 4 7 2 | 38 168 19",
    "48 368 7 | 9 36 1 | 348 2 5",
    "149 369 2 | 8 36 5 | 7 16 149",
    "2 1 4 | 3 5 9 | 6 7 8",
    "6 7 3 | 1 8 4 | 5 9 2",
    "89 5 89 | 7 2 6 | 1 4 3",
]
XY01 = [  # show_example.php?file=xy01&tech=XY-Wing
    "8 145 57 | 3 6 25 | 9 147 12",
    "27 45 9 | 47 1 25 | 8 6 3",
    "127 6 3 | 47 8 9 | 24 147 5",
    "9 2 4 | 6 7 3 | 1 5 8",
    "3 8 6 | 9 5 1 | 7 2 4",
    "5 7 1 | 8 2 4 | 3 9 6",
    "4 3 2 | 1 9 6 | 5 8 7",
    "6 9 8 | 5 3 7 | 24 14 12",
    "17 15 57 | 2 4 8 | 6 3 9",
]
XY02 = [  # show_example.php?file=xy02&tech=XY-Wing
    "7 1 4 | 29 6 29 | 5 3 8",
    "8 29 29 | 4 5 3 | 16 16 7",
    "3 5 6 | 7 1 8 | 4 2 9",
    "16 369 1379 | 19 2 4 | 67 8 5",
    "4 69 179 | 1589 89 59 | 3 67 2",
    "2 8 5 | 3 7 6 | 9 4 1",
    "9 7 8 | 6 3 1 | 2 5 4",
    "15 234 123 | 2589 489 7 | 18 19 6",
    "156 246 12 | 2589 489 259 | 178 179 3",
]
W02 = [  # show_example.php?file=w02&tech=W-Wing
    "6 134 123 | 9 5 48 | 12348 7 14",
    "347 1347 9 | 67 2 48 | 13458 136 145",
    "247 5 8 | 67 3 1 | 24 269 49",
    "1 6 4 | 3 8 9 | 7 5 2",
    "238 38 23 | 1 7 5 | 9 4 6",
    "5 9 7 | 2 4 6 | 13 13 8",
    "9 2 5 | 4 1 7 | 6 8 3",
    "3478 13478 13 | 5 6 2 | 14 19 1479",
    "47 147 6 | 8 9 3 | 1245 12 1457",
]
U101 = [  # show_example.php?file=u101&tech=Unique+Rectangle+Type+1
    "5 34 2 | 134 134 8 | 9 6 7",
    "1 389 89 | 7 36 69 | 4 5 2",
    "49 6 7 | 5 24 29 | 3 8 1",
    "2 1 3 | 6 5 7 | 8 4 9",
    "6 5 4 | 8 9 1 | 2 7 3",
    "7 89 89 | 23 23 4 | 6 1 5",
    "8 2 1 | 9 67 56 | 57 3 4",
    "3 47 6 | 124 1247 25 | 157 9 8",
    "49 479 5 | 14 8 3 | 17 2 6",
]
U402 = [  # show_example.php?file=u402&tech=Unique+Rectangle+Type+4
    "8 25 9 | 34 34 7 | 15 1256 26",
    "145 2457 157 | 6 9 8 | 45 257 3",
    "346 347 67 | 5 2 1 | 8 79 49",
    "2 1 4 | 8 36 5 | 39 369 7",
    "569 8 3 | 149 7 469 | 2 156 46",
    "569 579 567 | 12349 1346 2469 | 145 1356 8",
    "135 35 15 | 7 8 29 | 6 4 29",
    "49 6 28 | 249 5 3 | 7 289 1",
    "7 49 28 | 1249 146 2469 | 39 2389 5",
]
RP01 = [  # show_example.php?file=rp01&tech=Remote+Pair
    "7 9 8 | 4 5 2 | 3 1 6",
    "6 45 3 | 7 8 1 | 45 9 2",
    "45 1 2 | 69 3 69 | 8 7 45",
    "3 7 19 | 2 6 5 | 19 4 8",
    "8 2 59 | 1 4 3 | 7 6 59",
    "45 6 145 | 8 9 7 | 15 2 3",
    "9 8 56 | 56 1 4 | 2 3 7",
    "1 34 7 | 369 2 8 | 469 5 49",
    "2 345 456 | 3569 7 69 | 469 8 1",
]
RP02 = [  # show_example.php?file=rp02&tech=Remote+Pair
    "1 7 8 | 6 24 9 | 234 5 234",
    "9 3 4 | 1 5 28 | 6 28 7",
    "2 5 6 | 7 48 3 | 489 1 489",
    "7 9 3 | 5 6 28 | 28 4 1",
    "6 4 1 | 28 3 7 | 5 9 28",
    "8 2 5 | 9 1 4 | 7 3 6",
    "5 6 7 | 3 289 1 | 2489 28 2489",
    "4 1 29 | 28 7 5 | 2389 6 2389",
    "3 8 29 | 4 29 6 | 1 7 5",
]
HR01 = [  # show_example.php?file=hr01&tech=Hidden+Rectangle
    "3 9 4 | 6 8 2 | 1 5 7",
    "6 1 8 | 7 3 5 | 4 2 9",
    "5 2 7 | 4 19 19 | 3 6 8",
    "1 5 3 | 29 4 7 | 289 89 6",
    "4 7 29 | 5 6 8 | 29 3 1",
    "8 6 29 | 1239 129 139 | 7 4 5",
    "7 3 6 | 8 159 4 | 59 19 2",
    "9 4 5 | 12 127 16 | 68 178 3",
    "2 8 1 | 39 579 369 | 569 79 4",
]
HR02 = [  # show_example.php?file=hr02&tech=Hidden+Rectangle
    "68 9 168 | 4 5 136 | 2 378 37",
    "3 145 2 | 7 8 16 | 56 9 45",
    "7 45 468 | 2 9 36 | 568 1 345",
    "9 3 5 | 1 2 8 | 7 4 6",
    "28 7 148 | 6 34 9 | 158 238 235",
    "268 14 1468 | 5 34 7 | 18 238 9",
    "1 2 9 | 3 7 5 | 4 6 8",
    "5 6 3 | 8 1 4 | 9 27 27",
    "4 8 7 | 9 6 2 | 3 5 1",
]
U601 = [  # show_example.php?file=u601&tech=Unique+Rectangle+Type+6
    "5 4 1 | 26 3 28 | 7 68 9",
    "89 39 36 | 16 7 18 | 2 4 5",
    "78 27 26 | 9 4 5 | 1 68 3",
    "47 237 235 | 25 6 24 | 8 9 1",
    "49 29 25 | 125 8 124 | 3 7 6",
    "6 1 8 | 3 9 7 | 4 5 2",
    "2 6 7 | 4 1 9 | 5 3 8",
    "1 8 9 | 7 5 3 | 6 2 4",
    "3 5 4 | 8 2 6 | 9 1 7",
]
U602 = [  # show_example.php?file=u602&tech=Unique+Rectangle+Type+6
    "2 3 9 | 5 4 7 | 6 1 8",
    "5 7 4 | 8 6 1 | 3 9 2",
    "8 1 6 | 3 2 9 | 4 5 7",
    "7 4 1 | 9 3 5 | 28 28 6",
    "9 8 5 | 6 7 2 | 1 3 4",
    "36 26 23 | 4 1 8 | 5 7 9",
    "34 25 8 | 12 9 6 | 7 24 135",
    "46 256 27 | 127 58 3 | 9 248 15",
    "1 9 237 | 27 58 4 | 28 6 35",
]
# SpAce's Skyscraper on 6 (forum.enjoysudoku.com, "[help] Can you find some pattern?", t35817).
SPACE_SKYSCRAPER = [
    "1 2 5 | 4 3 9 | 8 7 6",
    "479 8 467 | 2 57 56 | 3 49 1",
    "479 46 3 | 68 78 1 | 5 2 49",
    "8 5 46 | 1 9 2 | 7 46 3",
    "27 146 27 | 68 58 3 | 14 4569 459",
    "3 16 9 | 7 4 56 | 12 8 25",
    "24 7 1 | 3 6 8 | 9 45 245",
    "6 9 24 | 5 1 7 | 24 3 8",
    "5 3 8 | 9 2 4 | 6 1 7",
]

HODOKU = [
    # "Skyscraper: 1 in r1c6,r3c9 (connected by r5c69) => r1c78,r3c45<>1"
    ("Skyscraper", SK01, rc((1, 7, 1), (1, 8, 1), (3, 4, 1), (3, 5, 1))),
    ("Skyscraper", SPACE_SKYSCRAPER, rc((3, 2, 6), (4, 3, 6))),
    # "Dual 2-String Kite: 1 in r1c8,r6c1/in r3c9,r4c3 (connected by r1c3,r3c1) =>
    # r4c9,r6c8<>1": two kites, one elimination each.
    ("2-String Kite", D2SK01, rc((6, 8, 1))),
    ("2-String Kite", D2SK01, rc((4, 9, 1))),
    # "XY-Wing: 5/7/2 in r1c36,r2c1 => r2c6<>2"
    ("XY-Wing", XY01, rc((2, 6, 2))),
    # "XY-Wing: 1/6/9 in r4c14,r5c2 => r4c23,r5c456<>9"
    ("XY-Wing", XY02, rc((4, 2, 9), (4, 3, 9), (5, 4, 9), (5, 5, 9), (5, 6, 9))),
    # "W-Wing: 4/1 in r1c9,r8c7 connected by 1 in r18c3 => r123c7,r89c9<>4"
    ("W-Wing", W02, rc((1, 7, 4), (2, 7, 4), (3, 7, 4), (8, 9, 4), (9, 9, 4))),
    # "Uniqueness Test 1: 8/9 in r2c23,r6c23 => r2c2<>8, r2c2<>9"
    ("Uniqueness Test 1", U101, rc((2, 2, 8), (2, 2, 9))),
    # HoDoKu's load line for u402 lists the eliminations "288 298": 2 from r8c8 and r9c8.
    ("Uniqueness Test 4", U402, rc((8, 8, 2), (9, 8, 2))),
    # "Uniqueness Test 6: 2/5 in r4c34,r5c34 => r4c3,r5c4<>5"
    ("Uniqueness Test 6", U601, rc((4, 3, 5), (5, 4, 5))),
    # "Uniqueness Test 6: 2/7 in r8c34,r9c34 => r8c4,r9c3<>7"
    ("Uniqueness Test 6", U602, rc((8, 4, 7), (9, 3, 7))),
    # "Remote Pair: 4/5 r2c7 -5- r2c2 -4- r3c1 -5- r6c1 => r6c7<>5"
    ("Remote Pair", RP01, rc((6, 7, 5))),
    # "Hidden Rectangle: 5/9 in r7c57,r9c57 => r9c5<>9"
    ("Hidden Rectangle", HR01, rc((9, 5, 9))),
    # "Hidden Rectangle: 4/5 in r2c29,r3c29 => r2c9<>5"
    ("Hidden Rectangle", HR02, rc((2, 9, 5))),
]


def test_remote_pair_reaches_hodokus_eliminations() -> None:
    """HoDoKu's rp02 step uses an 8-cell chain: "r18c7,r7c59,r8c9<>2, r38c7,r7c59,r8c9<>8".
    We take the shortest chain first, so the same eliminations come in more steps; together
    they are exactly HoDoKu's, and each keeps the solution."""
    board = board_from(RP02)
    (solution,) = solutions(board.puzzle)
    gone: set[tuple[int, int]] = set()
    for step in steps_of(board_from(RP02), chains.remote_pair):
        check_step(board, step, solution)
        board.apply(step)
        gone |= set(step.eliminations)
    assert gone == rc(
        *[(1, 7, 2), (8, 7, 2), (7, 5, 2), (7, 9, 2), (8, 9, 2)],
        *[(3, 7, 8), (8, 7, 8), (7, 5, 8), (7, 9, 8), (8, 9, 8)],
    )


@pytest.mark.parametrize(("name", "grid", "expected"), HODOKU, ids=[h[0] for h in HODOKU])
def test_hodoku_examples(name: str, grid: list[str], expected: set[tuple[int, int]]) -> None:
    """The technique finds HoDoKu's step: its exact eliminations are those of one of the steps
    it makes on the example (the first, unless the grid holds several of its kind); every step
    keeps the solution (the placed cells as givens have exactly one)."""
    board = board_from(grid)
    (solution,) = solutions(board.puzzle)
    found = []
    for step in steps_of(board_from(grid), BY_NAME[name]):
        check_step(board, step, solution)
        board.apply(step)
        found.append(step)
    assert found, name
    assert all(step.technique == name for step in found)
    assert expected in [set(step.eliminations) for step in found], [s.text for s in found]


def test_hodoku_examples_first_step_is_theirs() -> None:
    """Where the example holds one step of its kind, the first step found is exactly it."""
    for name, grid, expected in HODOKU:
        if name == "2-String Kite" or grid is SPACE_SKYSCRAPER:
            continue  # the dual kite holds two kites; SpAce's grid a skyscraper on 4 as well
        step = BY_NAME[name](board_from(grid))
        assert step is not None and set(step.eliminations) == expected, (name, step)


def test_xy_wing_step_reads_and_links() -> None:
    step = wings.xy_wing(board_from(XY01))
    assert step is not None
    assert "r2c6" in step.text and step.text.endswith(".")
    # Links alternate strong and weak and join at shared candidates.
    for link, following in zip(step.links, step.links[1:], strict=False):
        assert link.end == following.start
        assert link.strong != following.strong
    assert set(step.proof) >= {(link.start) for link in step.links}


def test_every_step_lists_each_wing_and_starts_with_the_first() -> None:
    """A technique written as a search yields all its steps; the first is the solver's."""
    # XY02's wing eliminates from both pincers' common peers; every listed step is an XY-Wing
    # and one of them is HoDoKu's.
    board = board_from(XY02)
    found = list(every_step(wings.xy_wing, board))
    assert found and found[0] == wings.xy_wing(board)
    assert all(step.technique == "XY-Wing" for step in found)
    assert rc((4, 2, 9), (4, 3, 9), (5, 4, 9), (5, 5, 9), (5, 6, 9)) in [
        set(step.eliminations) for step in found
    ]


def test_every_step_refuses_a_first_only_technique() -> None:
    def first_only(board: Board) -> Step | None:
        return None

    with pytest.raises(TypeError, match="first_only finds only its first step"):
        list(every_step(first_only, board_from(XY01)))


# --- real puzzles that need each technique -------------------------------------------------

# (bundled file, puzzle id, technique): found by putting the technique first in the order
# after singles; each run is checked against the solution step by step.
NEEDED = [
    ("top1465.csv", "top1465#1", "Skyscraper"),
    ("top1465.csv", "top1465#1", "2-String Kite"),
    ("top1465.csv", "top1465#1", "Empty Rectangle"),
    ("top1465.csv", "top1465#1", "Simple Colors Trap"),
    ("top1465.csv", "top1465#71", "Simple Colors Wrap"),
    ("top1465.csv", "top1465#29", "XY-Wing"),
    ("top1465.csv", "top1465#1", "XYZ-Wing"),
    ("top1465.csv", "top1465#71", "W-Wing"),
    ("top1465.csv", "top1465#1", "X-Chain"),
    ("top1465.csv", "top1465#29", "XY-Chain"),
    ("top1465.csv", "top1465#1", "Continuous Nice Loop"),
    ("top1465.csv", "top1465#1", "Discontinuous Nice Loop"),
    ("top1465.csv", "top1465#1", "AIC"),
    ("top1465.csv", "top1465#1", "Uniqueness Test 1"),
    ("top1465.csv", "top1465#43", "Uniqueness Test 2"),
    ("top1465.csv", "top1465#1", "Uniqueness Test 4"),
    ("jigsaw.csv", "janko_jigsaw_329_9x9", "2-String Kite"),
    ("jigsaw.csv", "janko_jigsaw_329_9x9", "Empty Rectangle"),
    ("jigsaw.csv", "janko_jigsaw_329_9x9", "Simple Colors Wrap"),
    ("jigsaw.csv", "janko_jigsaw_329_9x9", "W-Wing"),
    ("jigsaw.csv", "janko_jigsaw_650_9x9", "XY-Chain"),
    ("jigsaw.csv", "janko_jigsaw_329_9x9", "Discontinuous Nice Loop"),
    ("jigsaw.csv", "janko_jigsaw_638_9x9", "Uniqueness Test 1"),
    ("jigsaw.csv", "janko_jigsaw_670_9x9", "Uniqueness Test 4"),
    ("top1465.csv", "top1465#1", "Turbot Fish"),
    ("jigsaw.csv", "janko_jigsaw_329_9x9", "Turbot Fish"),
    ("top1465.csv", "top1465#155", "Remote Pair"),
    ("top1465.csv", "top1465#1", "Hidden Rectangle"),
    ("jigsaw.csv", "janko_jigsaw_626_9x9", "Hidden Rectangle"),
    ("top1465.csv", "top1465#827", "Uniqueness Test 5"),
    ("top1465.csv", "top1465#71", "Uniqueness Test 6"),
    ("jigsaw.csv", "janko_jigsaw_626_9x9", "Uniqueness Test 6"),
    ("top1465.csv", "top1465#1", "Multi-Colors 1"),
    ("jigsaw.csv", "janko_jigsaw_329_9x9", "Multi-Colors 1"),
    ("top1465.csv", "top1465#71", "Multi-Colors 2"),
    ("jigsaw.csv", "janko_jigsaw_329_9x9", "Multi-Colors 2"),
]


def _row(file: str, ident: str) -> dict[str, str]:
    return next(row for row in read_csv(file, 200) if row["id"] == ident)


@pytest.mark.parametrize(("file", "ident", "name"), NEEDED, ids=[f"{n}-{i}" for _, i, n in NEEDED])
def test_technique_on_a_real_puzzle(file: str, ident: str, name: str) -> None:
    puzzle = puzzle_of(_row(file, ident))
    found = solutions(puzzle)
    assert len(found) == 1
    order = [(name, BY_NAME[name])] + [t for t in ALL if t[0] != name]
    steps = run(puzzle, order, found[0], max_steps=40)  # each step checked against it
    assert name in {step.technique for step in steps}


# From tdoku's unbiased sample (puzzles1_unbiased, lines 98 and 218): singles leave a BUG+1.
BUG_PUZZLES = [
    (".23..67.94...........1...5.91..456.2.......4....32.9..84..6.....927....4..5......", 79, 1),
    ("1..8....7.5...93..7..4.3...538.4..1.....6.8...6.9..5........2........13.3.4..5..9", 22, 2),
]


@pytest.mark.parametrize(("line", "cell", "digit"), BUG_PUZZLES)
def test_bug_plus_1(line: str, cell: int, digit: int) -> None:
    puzzle = Puzzle.parse(line)
    (solution,) = solutions(puzzle)
    board = Board(puzzle)
    assert singles(board)
    step = uniqueness.bug_plus_1(board)
    assert step is not None and step.placements == ((cell, digit),)
    check_step(board, step, solution)


# --- where the techniques must stay silent -------------------------------------------------


def test_uniqueness_is_off_with_rules_beyond_groups() -> None:
    """The swap argument needs every rule to be a group: with a killer cage (any rule) the
    uniqueness techniques report nothing, even on HoDoKu's example grid."""
    from sudoku_cp.rules import RULE_KINDS

    board = board_from(U101)
    assert uniqueness.uniqueness_test_1(board) is not None
    cage = next(kind for key, kind in RULE_KINDS.items() if key == "killercage")
    ruled = cage(cells=(0, 1), total=9)  # r1c1 + r1c2 = 5 + 4
    model = load_model("classic").with_rules(rules=[ruled], size=9)
    caged = Board(Puzzle(board.values, model))
    caged.candidates[:] = board.candidates
    for _, technique in uniqueness.TECHNIQUES:
        assert technique(caged) is None


def test_strong_links_need_full_groups() -> None:
    """A group smaller than the grid need not hold a digit, so two places there are no strong
    link: a 4x4 latin square with an extra 2-cell group gives no conjugate from it."""
    from sudoku_cp.logic.patterns import conjugates

    model = load_model("latin").with_rules(groups=[(0, 5)], size=4)
    board = Board(Puzzle([0] * 16, model))
    for cell in range(16):
        if cell not in (0, 5):
            board.candidates[cell] &= ~1
    board.candidates[2] |= 1
    small = len(board.groups) - 1
    assert all(group != small for digit in range(1, 5) for *_, group in conjugates(board, digit))


# --- soundness fuzz ------------------------------------------------------------------------


def _fuzz(puzzles: list[Puzzle], max_steps: int = 120) -> int:
    made = 0
    for puzzle in puzzles:
        found = solutions(puzzle)
        if not found:
            continue
        techniques = ALL if len(found) == 1 else NOT_UNIQUENESS
        made += len(run(puzzle, techniques, found[0], max_steps=max_steps))
    return made


def test_soundness_fuzz_bundled() -> None:
    """No step on 40 hard 9x9 puzzles and 15 jigsaws removes a digit of the solution."""
    puzzles = [puzzle_of(row) for row in read_csv("top1465.csv", 40)]
    puzzles += [puzzle_of(row) for row in read_csv("jigsaw.csv", 15)]
    assert _fuzz(puzzles) > 200


@pytest.mark.slow
def test_soundness_fuzz_wide() -> None:
    """The same over more puzzles: forum-hardest, 17-clue, 16x16 and the shared sets."""
    puzzles = [puzzle_of(row) for row in read_csv("forum-hardest.csv", 50)]
    puzzles += [puzzle_of(row) for row in read_csv("17clue.csv", 60)]
    puzzles += [puzzle_of(row) for row in read_csv("top1465.csv", 100)[40:]]
    puzzles += [puzzle_of(row) for row in read_csv("jigsaw.csv", 60)[15:]]
    puzzles += [puzzle_of(row) for row in read_csv("16x16.csv", 4)]
    norvig = SHARED / "norvig" / "top95.txt"
    if norvig.exists():
        lines = [line[:81] for line in norvig.read_text().split() if len(line) >= 81]
        puzzles += [Puzzle.parse(line) for line in lines[:40]]
    assert _fuzz(puzzles) > 800


def test_chains_stay_within_their_caps_on_a_stalled_25x25() -> None:
    """On a 25x25 grid after singles every chain found is at most MAX_LINKS long."""
    path = SHARED / "large" / "25x25_19.csv"
    if not path.exists():
        pytest.skip("shared datasets not here")
    import csv

    with path.open(newline="") as handle:
        row = next(csv.DictReader(handle))
    puzzle = Puzzle.parse(row["puzzle"])
    solution = Puzzle.parse(row["solution"]).cells
    board = Board(puzzle)
    assert singles(board)
    for _, technique in chains.TECHNIQUES:
        step = technique(board)
        if step is not None:
            assert len(step.links) <= chains.MAX_LINKS + 1
            check_step(board, step, solution)


def test_unique_rectangle_respects_extra_groups() -> None:
    """On the X model the main diagonal meets HoDoKu's rectangle r2c23,r6c23 in r2c2 alone, so
    swapping its 8/9 would break the diagonal: no deadly pattern, no Uniqueness Test 1."""
    classic = board_from(U101)
    x_board = Board(Puzzle([0] * 81, "x"))
    x_board.values[:] = classic.values
    x_board.candidates[:] = classic.candidates
    assert uniqueness.uniqueness_test_1(classic) is not None
    assert uniqueness.uniqueness_test_1(x_board) is None


SC01 = [  # show_example.php?file=sc01&tech=Simple+Colors: "=> r1c9,r3c9,r8c1<>3" (load line)
    "2 1 4 | 35 358 6 | 3579 5789 3578",
    "3568 356 7 | 9 1358 2 | 1356 158 4",
    "35689 3569 35 | 4 1358 7 | 12356 1258 358",
    "569 569 1 | 8 7 45 | 459 3 2",
    "357 357 2 | 6 9 345 | 1457 14578 578",
    "3579 4 8 | 35 2 1 | 579 579 6",
    "4 2 35 | 7 35 9 | 8 6 1",
    "357 357 9 | 1 6 8 | 24 24 35",
    "1 8 6 | 2 4 35 | 357 57 9",
]
# EnderGT's grid from PaulsPages SudokuXP, discussed with hobiwan on forum.enjoysudoku.com
# ("Type 3 Discontinuous Nice Loop"): the loop through r1c1 shows r1c1<>3.
DNL_FORUM = [
    "13 8 134 | 5 6 2 | 9 7 34",
    "2 359 3459 | 37 79 1 | 348 6 348",
    "36 369 7 | 4 8 39 | 2 5 1",
    "4 36 368 | 2 1 5 | 7 9 68",
    "9 2 18 | 6 3 7 | 148 48 5",
    "156 7 156 | 9 4 8 | 16 3 2",
    "8 1 39 | 37 279 6 | 5 24 349",
    "356 4 3569 | 1 259 39 | 368 28 7",
    "7 3569 2 | 8 59 4 | 36 1 369",
]


@pytest.mark.parametrize(
    ("grid", "family", "expected"),
    [
        (SC01, patterns.TECHNIQUES[3:], rc((1, 9, 3), (3, 9, 3), (8, 1, 3))),
        (DNL_FORUM, chains.TECHNIQUES, rc((1, 1, 3))),
    ],
    ids=["Simple Colors", "Discontinuous Nice Loop"],
)
def test_public_family_examples(
    grid: list[str], family: tuple[tuple[str, Technique], ...], expected: set[tuple[int, int]]
) -> None:
    """The family of techniques, applied until none applies, makes the published eliminations
    (or places the digit left), every step keeping the solution."""
    board = board_from(grid)
    (solution,) = solutions(board.puzzle)
    for _ in range(30):
        step = next((s for _, t in family if (s := t(board)) is not None), None)
        if step is None:
            break
        check_step(board, step, solution)
        board.apply(step)
    for cell, digit in expected:
        assert not board.has(cell, digit)
