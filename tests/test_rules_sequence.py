"""Skyscraper and X-sum clues (f-puzzles ``skyscraper`` and ``xsum``): the sequence rules.

The meanings below are written plainly from the reference reader, dclamage/SudokuSolver
(``Constraints/SkyscraperConstraint.cs``: a digit is seen when it is greater than every digit
before it, counted from the clue's side; ``Constraints/XSumConstraint.cs``: the first X digits
from the clue's side sum to the clue, X being the first digit; the clue's cell names the line,
and a clue right of a row or below a column reads it backwards). Every expected answer comes
from those few lines and brute force, never from the project's own rules or backends.
"""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ET

import pytest

from sudoku_cp import Puzzle
from sudoku_cp.backends import available_backends, backend_class, get_backend
from sudoku_cp.errors import PuzzleError
from sudoku_cp.formats.fpuzzles import fpuzzles_data, read_fpuzzles
from sudoku_cp.model import load_model
from sudoku_cp.render import puzzle_svg
from sudoku_cp.rules import Skyscraper, XSum

CLASSIC = load_model("classic")


# --- the meaning, plainly -----------------------------------------------------------------------
def seen(digits) -> int:
    """How many buildings are seen: digits greater than every one before them."""
    count, tallest = 0, 0
    for d in digits:
        if d > tallest:
            count, tallest = count + 1, d
    return count


def x_sum(digits) -> int | None:
    """The sum of the first X digits, X the first digit (None when X passes the end)."""
    x = digits[0]
    return sum(digits[:x]) if x <= len(digits) else None


def line(grid, n: int, name: str) -> list[int]:
    """The digits a clue at f-puzzles cell ``name`` (``R0C3``: outside the grid, rows and
    columns from 1) reads, from its side."""
    row, col = (int(x) for x in name[1:].split("C"))
    if col == 0:
        return [grid[(row - 1) * n + c] for c in range(n)]
    if col == n + 1:
        return [grid[(row - 1) * n + c] for c in reversed(range(n))]
    if row == 0:
        return [grid[r * n + col - 1] for r in range(n)]
    assert row == n + 1
    return [grid[r * n + col - 1] for r in reversed(range(n))]


def holds(grid, n: int, key: str, name: str, value: int) -> bool:
    digits = line(grid, n, name)
    return (seen(digits) if key == "skyscraper" else x_sum(digits)) == value


def every_clue_place(n: int) -> list[str]:
    return [
        *(f"R{r}C0" for r in range(1, n + 1)),
        *(f"R{r}C{n + 1}" for r in range(1, n + 1)),
        *(f"R0C{c}" for c in range(1, n + 1)),
        *(f"R{n + 1}C{c}" for c in range(1, n + 1)),
    ]


def fpuzzles(n: int, givens=None, **clues) -> dict:
    grid = [[{} for _ in range(n)] for _ in range(n)]
    for cell, digit in enumerate(givens or ()):
        if digit:
            grid[cell // n][cell % n] = {"value": digit, "given": True}
    return {"size": n, "grid": grid, **clues}


def read(data: dict) -> Puzzle:
    cells, size, model = read_fpuzzles(data, CLASSIC)
    return Puzzle(cells, model)


def pattern_grid(n: int) -> tuple[int, ...]:
    """A solved classic grid of side ``n`` (boxes of h rows and w columns): the usual
    shifted pattern."""
    h, w = CLASSIC.box_for(n)
    return tuple((w * (r % h) + r // h + c) % n + 1 for r in range(n) for c in range(n))


def counting_backends(puzzle: Puzzle) -> list[str]:
    names = [
        name
        for name in available_backends()
        if backend_class(name).complete and get_backend(name).refusal(puzzle) is None
    ]
    assert {"backtrack", "sat"} <= set(names)  # always installed; cpsat and constraint if so
    return names


def solutions(puzzle: Puzzle, backend: str, **options) -> set[tuple[int, ...]]:
    result = get_backend(backend).solve(puzzle, limit=None, time_limit=120, **options)
    assert result.exact, (backend, result.status)
    return {tuple(grid) for grid in result.solutions}


# --- the rules' checkers and automata against the meaning ---------------------------------------
def words(n: int):
    """Every line of n digits 1..n for n up to 4 (digits repeating: a model whose line is
    no group), and every permutation above."""
    if n <= 4:
        return itertools.product(range(1, n + 1), repeat=n)
    return itertools.permutations(range(1, n + 1))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_each_checker_says_what_the_meaning_says_on_every_line(n: int) -> None:
    cells = tuple(range(n))  # row 1 from the left
    for word in words(n):
        grid = word + (1,) * (n * n - n)
        for clue in range(n + 2):
            ok = not Skyscraper(cells, clue).problems(grid, n)
            assert ok == (seen(word) == clue), (word, clue)
        for total in range(n * (n + 1) // 2 + 2):
            ok = not XSum(cells, total).problems(grid, n)
            assert ok == (x_sum(word) == total), (word, total)


def accepted(rule, word, n: int) -> bool:
    dfa = rule.automaton(n)
    state = dfa.start
    for digit in word:
        state = dfa.step(state, digit)
        if state is None:
            return False
    return dfa.accepts(state)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_each_automaton_accepts_exactly_the_lines_the_meaning_allows(n: int) -> None:
    # The automaton is what every backend compiles: it must be the meaning, digits repeating
    # or not.
    cells = tuple(range(n))
    for word in words(n):
        for clue in range(n + 2):
            assert accepted(Skyscraper(cells, clue), word, n) == (seen(word) == clue)
        for total in range(n * (n + 1) // 2 + 2):
            assert accepted(XSum(cells, total), word, n) == (x_sum(word) == total)


def test_a_reversed_grid_breaks_both_and_a_move_keeps_the_reading_order() -> None:
    row_from_right = (3, 2, 1, 0)
    assert Skyscraper(row_from_right, 2).reversed(4) is None
    assert XSum(row_from_right, 5).reversed(4) is None
    transpose = [(c % 4) * 4 + c // 4 for c in range(16)]
    # Row 1 read from the right becomes column 1 read from the bottom.
    assert Skyscraper(row_from_right, 2).moved(transpose, 4) == Skyscraper((12, 8, 4, 0), 2)
    assert XSum(row_from_right, 5).moved(transpose, 4) == XSum((12, 8, 4, 0), 5)


# --- f-puzzles: where a clue reads from -------------------------------------------------------
@pytest.mark.parametrize("n", [4, 6, 8, 9, 12, 16])
@pytest.mark.parametrize("key", ["skyscraper", "xsum"])
def test_every_clue_place_reads_its_line_from_its_side(n: int, key: str) -> None:
    grid = tuple(range(1, n * n + 1))  # cell numbers + 1: the line's cells, in reading order
    places = every_clue_place(n)
    puzzle = read(fpuzzles(n, **{key: [{"cell": p, "value": "3"} for p in places]}))
    kind = Skyscraper if key == "skyscraper" else XSum
    assert [type(rule) for rule in puzzle.model.rules] == [kind] * len(places)
    for place, rule in zip(places, puzzle.model.rules, strict=True):
        assert [cell + 1 for cell in rule.cells] == line(grid, n, place), place


def test_a_value_as_a_number_or_text_is_the_same_and_an_empty_one_is_no_clue() -> None:
    clues = [
        {"cell": "R0C2", "value": 3},
        {"cell": "R0C3", "value": " 3 "},
        {"cell": "R5C1", "value": ""},  # FPuzzlesCell.AddConstraint skips it
        {"cell": "R5C2"},
        {"cell": "", "value": "2"},  # … and an entry without a cell
        {"value": "2"},
    ]
    for key, kind in (("skyscraper", Skyscraper), ("xsum", XSum)):
        rules = read(fpuzzles(4, **{key: clues})).model.rules
        assert rules == (kind((1, 5, 9, 13), 3), kind((2, 6, 10, 14), 3))


@pytest.mark.parametrize(
    ("clue", "message"),
    [
        ({"cell": "R0C0", "value": "2"}, "not beside a row or column"),
        ({"cell": "R5C5", "value": "2"}, "not beside a row or column"),
        ({"cell": "R2C2", "value": "2"}, "not beside a row or column"),
        ({"cell": "R0C6", "value": "2"}, "outside the 4x4 grid or the ring around it"),
        ({"cell": "R7C2", "value": "2"}, "outside the 4x4 grid or the ring around it"),
        ({"cell": "R0C2", "value": "-2"}, "must be a whole number from 0"),
        ({"cell": "R0C2", "value": "two"}, "is not a whole number"),
        ({"cell": "nowhere", "value": "2"}, "is not a cell"),
    ],
)
@pytest.mark.parametrize("key", ["skyscraper", "xsum"])
def test_a_malformed_clue_is_refused_naming_the_key_and_entry(key, clue, message) -> None:
    with pytest.raises(PuzzleError, match=message) as err:
        read(fpuzzles(4, **{key: [{"cell": "R0C1", "value": "1"}, clue]}))
    assert f"f-puzzles {key} 2" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("key", ["skyscraper", "xsum"])
def test_every_clue_reads_back_the_same_after_writing(key: str) -> None:
    clues = [{"cell": p, "value": str(i % 5 + 1)} for i, p in enumerate(every_clue_place(6))]
    cells, size, model = read_fpuzzles(fpuzzles(6, **{key: clues}), CLASSIC)
    written = json.loads(json.dumps(fpuzzles_data(cells, size, model)))
    # As dclamage's SolverFactory writes them: the clue's cell and its value as text.
    assert written[key] == clues
    assert read_fpuzzles(written, CLASSIC)[2].rules == model.rules


def test_a_clue_on_a_shuffled_line_cannot_be_written() -> None:
    for rule in (Skyscraper((1, 0, 2, 3), 2), XSum((1, 0, 2, 3), 3)):
        model = CLASSIC.with_rules(rules=[rule], size=4)
        with pytest.raises(PuzzleError, match="not a row or column read from one end"):
            fpuzzles_data([0] * 16, 4, model)


# --- real puzzles on every backend --------------------------------------------------------------
def sudoku_grids_4() -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku grid (288), by brute force."""
    rows = list(itertools.permutations(range(1, 5)))
    found = []
    for grid in itertools.product(rows, repeat=4):
        flat = tuple(d for row in grid for d in row)
        cols = all(len({flat[r * 4 + c] for r in range(4)}) == 4 for c in range(4))
        boxes = all(
            len({flat[(br + r) * 4 + bc + c] for r in (0, 1) for c in (0, 1)}) == 4
            for br in (0, 2)
            for bc in (0, 2)
        )
        if cols and boxes:
            found.append(flat)
    assert len(found) == 288
    return found


GRIDS_4 = sudoku_grids_4()


@pytest.mark.parametrize("seed", range(8))
def test_4x4_puzzles_have_exactly_the_solutions_the_meaning_gives(seed: int) -> None:
    rng = random.Random(seed)
    target = rng.choice(GRIDS_4)
    clues: dict[str, list[dict]] = {"skyscraper": [], "xsum": []}
    for place in rng.sample(every_clue_place(4), 3):
        key = rng.choice(("skyscraper", "xsum"))
        digits = line(target, 4, place)
        value = seen(digits) if key == "skyscraper" else x_sum(digits)
        clues[key].append({"cell": place, "value": str(value)})
    puzzle = read(fpuzzles(4, **clues))
    expected = {
        grid
        for grid in GRIDS_4
        if all(holds(grid, 4, key, c["cell"], int(c["value"])) for key in clues for c in clues[key])
    }
    assert target in expected
    for backend in counting_backends(puzzle):
        assert solutions(puzzle, backend) == expected, (backend, clues)
    for strategy in ("naive", "ordered", "mrv"):
        assert solutions(puzzle, "backtrack", strategy=strategy) == expected, strategy


def band_completions(grid, n: int, columns) -> list[tuple[int, ...]]:
    """Every classic grid that differs from ``grid`` only in rows 1 and 2 of ``columns``: each
    such column swaps its two digits or not (rows 1 and 2 share a band of boxes)."""
    plain = Puzzle([0] * (n * n), CLASSIC.with_rules(size=n))
    found = []
    for swaps in itertools.product((False, True), repeat=len(columns)):
        cells = list(grid)
        for col, swap in zip(columns, swaps, strict=True):
            if swap:
                cells[col], cells[n + col] = cells[n + col], cells[col]
        if plain.is_solution(cells):
            found.append(tuple(cells))
    return found


@pytest.mark.parametrize("n", [6, 8, 9, 12, 16])
def test_bigger_grids_read_each_clue_from_its_side(n: int) -> None:
    # Rows 1 and 2 blank in some columns, the rest given: a few completions, which the clues
    # on rows 1 and 2 (from either side) and on the blank columns (from above or below) pick
    # from, as the meaning says.
    target = pattern_grid(n)
    # Every column (2^N choices) up to 12x12; on 16x16 the columns of two cycles of swaps
    # that keep row 1 a permutation (1 5 9 13 and 2 6 10 14: 4 completions).
    columns = list(range(n)) if n <= 12 else [0, 1, 4, 5, 8, 9, 12, 13]
    completions = band_completions(target, n, columns)
    assert len(completions) > 1
    givens = [0 if cell < 2 * n and cell % n in columns else d for cell, d in enumerate(target)]
    rng = random.Random(n)
    last = columns[-1] + 1
    places = ["R1C0", f"R1C{n + 1}", "R2C0", f"R2C{n + 1}", "R0C1", f"R{n + 1}C2", f"R0C{last}"]
    sided = False  # whether some clue read from the other side would pick other grids
    for trial in range(4):
        chosen = rng.choice(completions)
        clues: dict[str, list[dict]] = {"skyscraper": [], "xsum": []}
        for place in rng.sample(places, 2):
            key = rng.choice(("skyscraper", "xsum"))
            digits = line(chosen, n, place)
            value = seen(digits) if key == "skyscraper" else x_sum(digits)
            clues[key].append({"cell": place, "value": value})
        puzzle = read(fpuzzles(n, givens, **clues))

        expected = picked(completions, n, clues, lambda name: name)
        sided |= expected != picked(completions, n, clues, lambda name: opposite(name, n))
        for backend in counting_backends(puzzle):
            assert solutions(puzzle, backend) == expected, (n, trial, backend, clues)
    assert sided


def picked(completions, n: int, clues: dict, side) -> set[tuple[int, ...]]:
    """The completions keeping every clue, each read at the place ``side`` gives."""
    return {
        grid
        for grid in completions
        if all(holds(grid, n, k, side(c["cell"]), c["value"]) for k in clues for c in clues[k])
    }


def opposite(name: str, n: int) -> str:
    """The clue place at the other end of the same line."""
    row, col = (int(x) for x in name[1:].split("C"))
    if col in (0, n + 1):
        return f"R{row}C{n + 1 - col}"
    return f"R{n + 1 - row}C{col}"


@pytest.mark.parametrize(
    ("key", "value"), [("skyscraper", 0), ("skyscraper", 5), ("xsum", 0), ("xsum", 11)]
)
def test_a_clue_no_line_can_show_leaves_no_solution(key: str, value: int) -> None:
    # 4x4: at least 1 building is seen and at most 4; an X-sum is 1 to 1+2+3+4.
    puzzle = read(fpuzzles(4, **{key: [{"cell": "R0C1", "value": value}]}))
    for backend in counting_backends(puzzle):
        assert solutions(puzzle, backend) == set(), backend


def test_backends_that_cannot_reason_about_the_clues_refuse_them() -> None:
    for key, title in (("skyscraper", "skyscraper"), ("xsum", "X-sum")):
        puzzle = read(fpuzzles(4, **{key: [{"cell": "R0C1", "value": "2"}]}))
        refusal = get_backend("dlx").refusal(puzzle)
        assert refusal is not None and f"the {title} rule ({key})" in refusal
        # the logic backend reasons about every rule kind by its shape (issue 31)
        assert get_backend("logic").refusal(puzzle) is None


def test_a_clue_is_drawn_beside_the_end_it_reads_from() -> None:
    puzzle = read(
        fpuzzles(
            4,
            skyscraper=[{"cell": "R2C5", "value": "3"}],
            xsum=[{"cell": "R5C3", "value": "6"}],
        )
    )
    root = ET.fromstring(puzzle_svg(puzzle))
    texts = {e.get("class"): e for e in root.iter() if e.get("class") in ("skyscraper", "xsum")}
    rects = [float(e.get("x", 0)) for e in root.iter() if e.tag.endswith("rect")]
    assert texts["skyscraper"].text == "3" and texts["xsum"].text == "⟨6⟩"
    # Right of row 2, below column 3: past the middle of the picture on that side.
    width = float(root.get("width") or max(rects))
    assert float(texts["skyscraper"].get("x")) > 0.8 * width
    assert float(texts["xsum"].get("y")) > 0.8 * width
