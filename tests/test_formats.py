"""Reading and writing one puzzle: every form both ways (line, grid, rows, JSON), the writers,
and bad single puzzles (one line naming what and where)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from puzzles import INKALA, puzzle_cells, solved

from sudoku_cp.errors import DuplicateGivenError, InputError, PuzzleError, SudokuError
from sudoku_cp.formats import (
    FORMATS,
    OUTPUT_FORMATS,
    SYMBOLS,
    format_grid,
    format_json,
    format_line,
    format_pretty,
    format_rows,
    parse_puzzle,
    puzzle_from_data,
    read_line,
)
from sudoku_cp.puzzle import Puzzle

INKALA_ROW1 = [8, 0, 0, 0, 0, 0, 0, 0, 0]


def error_of(text: str, **kwargs) -> str:
    with pytest.raises(PuzzleError) as info:
        parse_puzzle(text, **kwargs)
    return str(info.value)


SIZES = [4, 6, 9, 12, 16, 25]
# Which reading format each written format comes back through.
READ_BACK = {"line": "line", "pretty": "grid", "json": "json", "rows": "rows"}


def test_solved_helper_makes_real_solutions():
    for size in SIZES + [36, 64]:
        assert Puzzle([0] * size * size).is_solution(solved(size))
    assert Puzzle([0] * 49, "latin").is_solution(solved(7, "latin"))


# --- every format, both directions --------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("out", OUTPUT_FORMATS)
def test_round_trip_every_format_and_size(size, out):
    cells = puzzle_cells(size)
    text = format_grid(cells, size, out)
    assert parse_puzzle(text).cells == tuple(cells)  # auto-detected
    assert parse_puzzle(text, fmt=READ_BACK[out]).cells == tuple(cells)


@pytest.mark.parametrize("size", [36, 49, 64])
@pytest.mark.parametrize("out", OUTPUT_FORMATS)
def test_round_trip_above_35_through_integer_forms(size, out):
    model = "latin" if size == 49 else "classic"
    cells = puzzle_cells(size, model)
    text = format_grid(cells, size, out, model)
    assert parse_puzzle(text, model).cells == tuple(cells)
    if out == "line":
        assert "," in text  # no symbols left above 35


@pytest.mark.parametrize("size", SIZES)
def test_solved_grids_round_trip(size):
    cells = solved(size)
    for out in OUTPUT_FORMATS:
        assert parse_puzzle(format_grid(cells, size, out)).cells == tuple(cells)


def test_symbols_are_case_insensitive_and_blanks_are_all_blank():
    upper = "A" + "." * 255
    assert parse_puzzle(upper).cells[0] == 10
    assert parse_puzzle(upper.lower()).cells[0] == 10
    assert parse_puzzle("1-_*" + "0" * 12).cells == (1,) + (0,) * 15


def test_line_form_ignores_whitespace_inside():
    spaced = " ".join(INKALA[i : i + 9] for i in range(0, 81, 9))
    assert parse_puzzle(spaced).to_line() == INKALA
    assert parse_puzzle("\t" + INKALA + "  \n").to_line() == INKALA


def test_hand_drawn_grid_with_separators():
    drawn = """
    +-------+-------+-------+
    | 8 . . | . . . | . . . |
    | . . 3 | 6 . . | . . . |
    | . 7 . | . 9 . | 2 . . |
    +=======+=======+=======+
    | . 5 . | . . 7 | . . . |
    | . . . | . 4 5 | 7 . . |
    | . . . | 1 . . | . 3 . |
    +-------+-------+-------+
    | . . 1 | . . . | . 6 8 |
    | . . 8 | 5 . . | . 1 . |
    | . 9 . | . . . | 4 . . |
    +-------+-------+-------+
    """
    assert parse_puzzle(drawn).to_line() == INKALA
    assert parse_puzzle(drawn, fmt="grid").to_line() == INKALA


def test_plain_digit_grid_and_grid_with_gaps_between_boxes():
    rows = [INKALA[i : i + 9].replace(".", "0") for i in range(0, 81, 9)]
    assert parse_puzzle("\n".join(rows)).to_line() == INKALA
    gapped = "\n".join(f"{r[:3]} {r[3:6]} {r[6:]}" for r in rows)
    assert parse_puzzle(gapped).to_line() == INKALA


def test_rows_with_commas_and_spaces():
    rows = [[int(c) if c != "." else 0 for c in INKALA[i : i + 9]] for i in range(0, 81, 9)]
    commas = "\n".join(",".join(map(str, r)) for r in rows)
    spaced = "\n".join(", ".join(map(str, r)) + "," for r in rows)
    assert parse_puzzle(commas).to_line() == INKALA
    assert parse_puzzle(spaced, fmt="rows").to_line() == INKALA


def test_dashes_can_be_rows_of_blanks_in_a_grid():
    assert parse_puzzle("1---\n----\n----\n---1").cells == (1,) + (0,) * 14 + (1,)
    assert parse_puzzle("----\n----\n----\n----").cells == (0,) * 16


def test_json_forms():
    assert parse_puzzle("[[1, 0, 0, 0], [0, 0, null, 0], [0, 1, 0, 0], [0, 0, 0, 1]]").cells[0] == 1
    assert parse_puzzle('{"puzzle": "' + INKALA + '"}').to_line() == INKALA
    nested = json.dumps({"puzzle": json.loads(format_json(parse_puzzle(INKALA).cells, 9))})
    assert parse_puzzle(nested).to_line() == INKALA
    rows = json.loads(format_json(parse_puzzle(INKALA).cells, 9))
    assert puzzle_from_data(rows).to_line() == INKALA
    pretty_json = json.dumps(rows, indent=2)
    assert parse_puzzle(pretty_json).to_line() == INKALA


def test_comment_lines_are_skipped_in_one_puzzle():
    text = "# Inkala 2012\n" + "\n".join(INKALA[i : i + 9] for i in range(0, 81, 9))
    assert parse_puzzle(text).to_line() == INKALA


def test_pretty_draws_boxes_of_the_model_shape():
    six = format_pretty(solved(6), 6)
    assert six.splitlines()[0] == "1 2 3 | 4 5 6"
    assert six.splitlines()[2] == "------+------"
    twelve = format_pretty(solved(12), 12).splitlines()
    assert twelve[0] == "1 2 3 4 | 5 6 7 8 | 9 A B C"
    assert twelve[3].startswith("--------+")
    latin = format_pretty(solved(5, "latin"), 5, "latin")
    assert "|" not in latin and "-" not in latin
    assert format_pretty([0] * 16, 4).splitlines()[0] == ". . | . ."


def test_pretty_pads_numbers_above_35():
    lines = format_pretty(puzzle_cells(36), 36).splitlines()
    assert len({len(line) for line in lines if "|" in line}) == 1  # columns line up
    assert " ." in lines[0]


def test_format_line_and_rows_and_json_shapes():
    cells = [1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1]
    assert format_line(cells, 4) == "1.....1..1.....1"
    assert format_rows(cells, 4).splitlines() == ["1 0 0 0", "0 0 1 0", "0 1 0 0", "0 0 0 1"]
    assert json.loads(format_json(cells, 4)) == [
        [1, 0, 0, 0],
        [0, 0, 1, 0],
        [0, 1, 0, 0],
        [0, 0, 0, 1],
    ]
    assert format_rows(solved(12), 12).splitlines()[0] == " 1  2  3  4  5  6  7  8  9 10 11 12"


def _careful_line(cells, size):
    """The line form written symbol by symbol: what format_line's byte translation must match."""
    if size > len(SYMBOLS):
        return ",".join(str(d) for d in cells)
    return "".join(SYMBOLS[d - 1] if d else "." for d in cells)


def test_format_line_fast_path_writes_what_the_careful_path_writes():
    import random

    rng = random.Random(4)
    for size in (1, 4, 9, 16, 25, 35, 36, 64):
        cells = [rng.randint(0, size) for _ in range(size * size)]
        line = format_line(cells, size)
        assert line == _careful_line(cells, size)
        assert format_line(tuple(cells), size) == line
        assert read_line(line, size) == tuple(cells)
        if size <= 35:
            assert format_line(bytes(cells), size) == line
    # Cells the byte translation does not take fall back and are written as before.
    assert format_line([True, False, 0, 2], 2) == "1..2"
    assert format_line(range(1, 5), 4) == "1234"
    assert format_line([1, -1, 0, 0], 2) == _careful_line([1, -1, 0, 0], 2)
    for too_big in (36, 300):  # no symbol: the careful path's IndexError, as before
        with pytest.raises(IndexError):
            format_line([too_big, 0, 0, 0], 2)
    with pytest.raises(TypeError):
        format_line([1.0, 0, 0, 0], 2)


def test_read_line_reads_a_line_of_known_size():
    assert read_line(INKALA, 9)[:9] == tuple(INKALA_ROW1)
    assert read_line(INKALA.lower().replace(".", "0"), 9) == read_line(INKALA, 9)
    with pytest.raises(PuzzleError, match="read a 9x9 grid in line form, not 4x4"):
        read_line(INKALA, 4)
    with pytest.raises(PuzzleError, match="unknown symbol '!'"):
        read_line("1!..", 2)
    with pytest.raises(PuzzleError, match="outside 1..2"):
        read_line("13..", 2)


def test_format_grid_rejects_unknown_names():
    with pytest.raises(SudokuError, match="unknown output format 'fancy'.*pretty, line"):
        format_grid([0] * 16, 4, "fancy")


# --- bad single puzzles: one line naming what and where ------------------------------------------
def test_empty_and_whitespace():
    assert error_of("") == "empty input"
    assert error_of(" \n\t ") == "input is only whitespace"
    assert error_of("# just a note") == "input holds only comments"


def test_wrong_length_says_count_and_sizes():
    message = error_of(INKALA[:80])
    assert message.startswith("read 80 cells; a puzzle has N*N cells: 16 (4x4), 36 (6x6)")
    assert "81 (9x9)" in message and "nearest: 64 (8x8) and 81 (9x9)" in message
    assert "81 (9x9)" in error_of(INKALA + ".", model="hyper")
    assert "16 (4x4)" not in error_of(INKALA + ".", model="hyper")


def test_the_nearest_sizes_named_are_sizes_the_model_takes():
    # classic needs boxes, which size 7 has not (49 was named); hyper takes 9x9 only (64 was)
    assert error_of("." * 50).endswith("(nearest: 36 (6x6) and 64 (8x8))")
    assert error_of("." * 50, model="latin").endswith("(nearest: 49 (7x7) and 64 (8x8))")
    hyper = error_of("." * 80, model="hyper")
    assert hyper == "read 80 cells; a puzzle has N*N cells: 81 (9x9)"


def test_unknown_symbol_names_row_and_column():
    assert error_of(INKALA[:30] + "?" + INKALA[31:]) == "unknown symbol '?' at row 4, column 4"
    grid = "\n".join(INKALA[i : i + 9] for i in range(0, 81, 9)).replace("7", "#", 1)
    assert error_of(grid) == "unknown symbol '#' at row 3, column 2"


def test_digit_above_size():
    assert error_of("A" + INKALA[1:]) == "symbol 'A' (digit 10) at row 1, column 1 is outside 1..9"
    assert error_of("H" + "." * 255) == "symbol 'H' (digit 17) at row 1, column 1 is outside 1..16"
    rows = "1 0 0 0\n0 0 12 0\n0 1 0 0\n0 0 0 1"
    assert error_of(rows) == "digit 12 at row 2, column 3 is outside 1..4 (0 is a blank)"
    assert "digit 5 at row 1, column 2" in error_of("[[1,5,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]")


def test_negative_and_non_integer_numbers():
    rows = "1 0 0 0\n0 0 {} 0\n0 1 0 0\n0 0 0 1"
    assert error_of(rows.format("-1")) == "negative number -1 at row 2, column 3"
    assert error_of(rows.format("1.5")) == "non-integer 1.5 at row 2, column 3"
    assert error_of("[[1,0,0,0],[0,0,0,0],[0,0,0,-2],[0,0,0,0]]") == (
        "negative number -2 at row 3, column 4"
    )
    assert error_of("[[1,0,0,0],[0,2.5,0,0],[0,0,0,0],[0,0,0,0]]") == (
        "non-integer 2.5 at row 2, column 2"
    )
    assert error_of('[[1,0,0,0],[0,"2",0,0],[0,0,0,0],[0,0,0,0]]') == (
        'not an integer: "2" at row 2, column 2'
    )
    assert "not an integer: true" in error_of("[[true,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]")
    assert error_of("1,0,x," + "0," * 12 + "0") == "unknown symbol ',' at position 2"
    not_number = error_of("1 x 0 0\n0 0 0 0\n" * 2, fmt="rows")
    assert not_number == "'x' at row 1, column 2 is not a number"


def test_ragged_rows_and_wrong_row_count():
    assert error_of("1 0 0 0\n0 0 1\n0 1 0 0\n0 0 0 1") == (
        "row 2 has 3 numbers but row 1 has 4 (rows are ragged)"
    )
    assert error_of("1...\n..1\n.1..\n...1") == (
        "row 2 has 3 cells but row 1 has 4 (rows are ragged)"
    )
    assert error_of("[[1,0],[0]]") == "row 2 has 1 number but row 1 has 2 (rows are ragged)"
    assert error_of("1...\n..1.\n.1..").startswith("read 3 rows of 4 cells; a puzzle has N rows")


def test_json_that_is_not_a_list_of_lists():
    assert error_of("[1, 2, 3, 4]") == (
        "a JSON puzzle is a list of rows (lists of integers); item 1 is 1"
    )
    assert error_of('"1.3"', fmt="json").startswith("read 3 cells")
    assert error_of("[]") == "a JSON puzzle is a list of rows, and this list is empty"
    assert error_of('{"grid": []}') == (
        "a JSON object needs a 'puzzle' key (a line string or a list of rows)"
    )
    assert error_of("[[1, 0,").startswith("not valid JSON: Expecting value at line 1, column 8")
    assert error_of("3", fmt="json") == (
        "a JSON puzzle is a list of rows (lists of integers), not a number"
    )
    assert "nesting too deep" in error_of("[" * 100_000 + "]" * 100_000)


def test_sizes_above_the_maximum_are_refused_up_front():
    assert error_of("." * 4097) == "read 4,097 cells; the largest puzzle is 64x64 (4,096 cells)"
    assert error_of("." * 65 * 65).startswith("read 4,225 cells; the largest puzzle is 64x64")
    assert error_of(",".join(["0"] * 65 * 65)).startswith("read 4,225 cells; the largest")
    assert error_of(json.dumps([[0] * 65] * 65)) == "read 65 rows; the largest puzzle is 64x64"
    assert error_of("\n".join(["0 " * 65] * 65), fmt="rows") == (
        "read 65 rows; the largest puzzle is 64x64"
    )
    assert error_of("." * 2_000_000).startswith("input of 2,000,000 characters is too long")


def test_size_the_model_cannot_take():
    assert error_of("." * 49) == (
        "read a 7x7 puzzle, but model 'classic' needs boxes, and size 7 has no box shape "
        "(sizes with boxes: 4, 6, 8, 9, 10, 12, 14, 15, 16, …)"
    )
    assert parse_puzzle("." * 49, model="latin").size == 7
    assert "only fits size 9, not 4" in error_of("." * 16, model="hyper")


def test_repeated_givens_are_still_caught_by_puzzle():
    with pytest.raises(DuplicateGivenError, match="digit 8 is given twice in row 1: r1c1 and r1c2"):
        parse_puzzle("88" + INKALA[2:])


def test_unknown_input_format():
    with pytest.raises(InputError, match="unknown input format 'xml'.*auto, line, grid"):
        parse_puzzle(INKALA, fmt="xml")
    with pytest.raises(InputError, match="files of many puzzles"):
        parse_puzzle(INKALA, fmt="csv")
    assert set(FORMATS) == {
        "auto",
        "line",
        "grid",
        "rows",
        "json",
        "jsonl",
        "csv",
        "iss",
        "candidates",
    }


# --- properties --------------------------------------------------------------------------------
PUZZLE_ALPHABET = st.sampled_from(list('123456789ABCGHZ.0_-*abz |+=-,[]{}":#\n\t -1.5null'))
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def written_then_damaged(draw):
    """A real puzzle written in one of the output forms, then (usually) one character changed,
    dropped or added: text near a puzzle, half of it still readable."""
    size = draw(st.sampled_from([4, 6, 9]))
    cells = puzzle_cells(size, seed=draw(st.integers(0, 50)))
    text = format_grid(cells, size, draw(st.sampled_from(OUTPUT_FORMATS)))
    at = draw(st.integers(0, len(text)))
    change = draw(st.sampled_from(["none", "replace", "drop", "add"]))
    char = draw(PUZZLE_ALPHABET)
    if change == "replace":
        return text[:at] + char + text[at + 1 :]
    if change == "drop":
        return text[:at] + text[at + 1 :]
    return text[:at] + char + text[at:] if change == "add" else text


@FUZZ
@given(st.one_of(st.text(), st.text(PUZZLE_ALPHABET, max_size=300), written_then_damaged()))
def test_parse_puzzle_gives_a_puzzle_that_reads_back_or_one_line_of_its_own_error(text):
    try:
        puzzle = parse_puzzle(text)
    except (PuzzleError, InputError) as err:
        message = str(err)
        assert message and "\n" not in message  # one line naming what is wrong
        return
    # What it read is a real puzzle: a square grid of digits in range, and its line form reads
    # back as the very same puzzle.
    assert isinstance(puzzle, Puzzle)
    assert len(puzzle.cells) == puzzle.size**2
    assert all(type(d) is int and 0 <= d <= puzzle.size for d in puzzle.cells)
    assert parse_puzzle(puzzle.to_line(), fmt="line") == puzzle


@FUZZ
@given(st.sampled_from(SIZES), st.integers(0, 2**32), st.sampled_from(OUTPUT_FORMATS))
def test_random_puzzles_round_trip(size, seed, out):
    rng = random.Random(seed)
    cells = [d if rng.random() < 0.4 else 0 for d in solved(size)]
    assert parse_puzzle(format_grid(cells, size, out)).cells == tuple(cells)


def test_control_characters_are_unknown_symbols_not_digits():
    # chr(1)..chr(35) are the codes the fast line parser translates digits to: a control
    # character typed in a puzzle must still be reported, never read as a digit.
    line = "..48...1767.9.....5.8.3...43..74.1...69...78...1.69..51...8.3.6.....6.9124...15.."
    for bad in ("\x01", "\x05", "\x0e", "!", '"'):
        with pytest.raises(PuzzleError, match="unknown symbol"):
            parse_puzzle(bad + line[1:])


def test_pretty_draws_no_box_lines_where_regions_replace_the_boxes():
    from sudoku_cp.model import load_model

    regions = [0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3]
    jigsaw = load_model("classic").with_rules(regions=regions)
    drawn = format_pretty([1, 2, 3, 4] * 4, 4, jigsaw)
    assert "|" not in drawn and "-" not in drawn
