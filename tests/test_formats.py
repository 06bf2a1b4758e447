"""Reading and writing puzzles: every format both ways, files of every kind, bad input."""

from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
import random
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_cp.errors import DuplicateGivenError, InputError, PuzzleError, SudokuError
from sudoku_cp.formats import (
    FORMATS,
    MAX_LINE_CHARS,
    OUTPUT_FORMATS,
    SYMBOLS,
    PendingRecord,
    PuzzleRecord,
    format_grid,
    format_json,
    format_line,
    format_pretty,
    format_rows,
    parse_pending,
    parse_puzzle,
    puzzle_from_data,
    read_input,
    read_line,
    read_puzzles,
)
from sudoku_cp.model import box_shape, load_model
from sudoku_cp.puzzle import Puzzle

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_ROW1 = [8, 0, 0, 0, 0, 0, 0, 0, 0]


# --- helpers -----------------------------------------------------------------------------------
def solved(size: int, model: str = "classic") -> list[int]:
    """A complete grid for ``size`` by the usual shifting pattern (boxes when the model has them).

    Row r starts at an offset chosen so that rows, columns and r×c boxes all hold 1..N once.
    """
    shape = box_shape(size) if load_model(model).uses_boxes else None
    if shape:
        height, width = shape
        return [(width * (r % height) + r // height + c) % size + 1
                for r in range(size) for c in range(size)]
    return [(r + c) % size + 1 for r in range(size) for c in range(size)]


def puzzle_cells(size: int, model: str = "classic", seed: int = 0) -> list[int]:
    """A solved grid with about 60% of its cells blanked (deterministically)."""
    rng = random.Random(seed * 1000 + size)
    return [0 if rng.random() < 0.6 else d for d in solved(size, model)]


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


def records(source, **kwargs) -> list[PuzzleRecord]:
    return list(read_puzzles(source, **kwargs))


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
    spaced = " ".join(INKALA[i:i + 9] for i in range(0, 81, 9))
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
    rows = [INKALA[i:i + 9].replace(".", "0") for i in range(0, 81, 9)]
    assert parse_puzzle("\n".join(rows)).to_line() == INKALA
    gapped = "\n".join(f"{r[:3]} {r[3:6]} {r[6:]}" for r in rows)
    assert parse_puzzle(gapped).to_line() == INKALA


def test_rows_with_commas_and_spaces():
    rows = [[int(c) if c != "." else 0 for c in INKALA[i:i + 9]] for i in range(0, 81, 9)]
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
    text = "# Inkala 2012\n" + "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9))
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
    assert json.loads(format_json(cells, 4)) == [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0],
                                                 [0, 0, 0, 1]]
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


def test_unknown_symbol_names_row_and_column():
    assert error_of(INKALA[:30] + "?" + INKALA[31:]) == "unknown symbol '?' at row 4, column 4"
    grid = "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9)).replace("7", "#", 1)
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
    assert set(FORMATS) == {"auto", "line", "grid", "rows", "json", "jsonl", "csv"}


# --- files of many puzzles ---------------------------------------------------------------------
def test_line_file_skips_blank_and_comment_lines(tmp_path):
    path = write(tmp_path, "p.txt", f"# a collection\n\n{INKALA}\n  \n# more\n{INKALA}\r\n")
    got = records(path)
    assert [(r.index, r.id, r.line) for r in got] == [(1, "1", 3), (2, "2", 6)]
    assert all(r.puzzle.to_line() == INKALA and r.error is None for r in got)
    assert got[0].text == INKALA


def test_bad_line_is_a_record_and_reading_goes_on(tmp_path):
    bad = INKALA[:16] + "?" + INKALA[17:]
    path = write(tmp_path, "p.txt", "\n".join([INKALA, bad, INKALA[:80], INKALA]) + "\n")
    got = records(path)
    assert [r.ok for r in got] == [True, False, False, True]
    assert got[1].error == "line 2: unknown symbol '?' at row 2, column 8"
    assert got[1].text == bad
    assert got[2].error.startswith("line 3: read 80 cells")


def test_jsonl_file(tmp_path):
    lines = [
        format_json(parse_puzzle(INKALA).cells, 9),
        json.dumps({"id": "inkala", "puzzle": INKALA, "solution_count": 1}),
        json.dumps({"id": 7, "puzzle": json.loads(format_json(parse_puzzle(INKALA).cells, 9)),
                    "solution": "x" * 81}),
        '{"puzzle": "' + INKALA[:80] + '"}',
        "[[1, 0,",
        '{"givens": "..."}',
    ]
    got = records(write(tmp_path, "p.jsonl", "\n".join(lines)))
    assert [r.id for r in got] == ["1", "inkala", "7", "4", "5", "6"]
    assert [r.ok for r in got] == [True, True, True, False, False, False]
    assert got[1].expected == {"solution_count": 1}
    assert got[2].expected == {"solution": "x" * 81}
    assert got[4].error.startswith("line 5: not valid JSON")
    assert got[5].error == (
        "line 6: a JSON object needs a 'puzzle' key (a line string or a list of rows)"
    )
    assert records(write(tmp_path, "q.txt", "\n".join(lines)), fmt="jsonl")[1].id == "inkala"


def test_csv_file_with_id_solution_and_count(tmp_path):
    solution = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    text = (
        "id,puzzle,solution,solution_count\n"
        f"inkala,{INKALA},{solution},1\n"
        f'"named, with comma",{INKALA},,>=2\n'
        f",{INKALA[:80]},,\n"
    )
    got = records(write(tmp_path, "p.csv", text))
    assert [(r.id, r.line, r.ok) for r in got] == [
        ("inkala", 2, True), ("named, with comma", 3, True), ("3", 4, False)]
    assert got[0].expected == {"solution": solution, "solution_count": 1}
    assert got[1].expected == {"solution_count": ">=2"}
    assert got[2].error.startswith("line 4: read 80 cells")


def test_csv_puzzle_column_by_name_or_first_column(tmp_path):
    zeros = INKALA.replace(".", "0")
    quizzes = records(write(tmp_path, "k.csv", f"quizzes,solutions\n{zeros},x\n"))
    assert quizzes[0].puzzle.to_line() == INKALA and quizzes[0].expected == {"solution": "x"}
    named = records(write(tmp_path, "n.csv", f'name,clues,puzzle\n"Inkala, 2012",21,{INKALA}\n'))
    assert named[0].id == "Inkala, 2012" and named[0].ok
    first = records(write(tmp_path, "f.csv", f"grid,solution_count\n{INKALA},1\n"), fmt="csv")
    assert first[0].ok and first[0].expected == {"solution_count": 1}


def test_csv_quoted_field_across_lines_and_short_rows(tmp_path):
    text = f'id,puzzle\n"two\nlines",{INKALA}\nlonely\n'
    got = records(write(tmp_path, "p.csv", text))
    assert got[0].id == "two\nlines" and got[0].ok and got[0].line == 2
    assert got[1].error == (
        "line 4: no puzzle: the row has 1 field(s), the puzzle is in column 2 ('puzzle')"
    )


@pytest.mark.parametrize(("name", "content"), [
    ("p.txt", f"# lines\n{INKALA}\n{INKALA[:16]}?{INKALA[17:]}\n\n{INKALA[:80]}\n"),
    ("p.jsonl", "\n".join([json.dumps({"id": "a", "puzzle": INKALA, "solution_count": 1}),
                           "[[1, 0,", '{"givens": "..."}', json.dumps({"puzzle": INKALA})])),
    ("p.csv", f'id,puzzle,solution\n"two\nlines",{INKALA},x\nlonely\n,{INKALA[:80]},\n'),
    ("p.bin", b"1.......\n" + INKALA.encode() + b"\n\xff\xfe" + INKALA[2:].encode() + b"\n"),
    # repeated givens among good lines: the chunk's givens check finds each one
    ("r.csv", "id,puzzle\n" + "".join(f"{i},{line}\n" for i, line in enumerate(
        [INKALA, "11" + INKALA[2:], INKALA, INKALA, "1" + INKALA[1:9] + "1" + INKALA[10:],
         INKALA, INKALA[:80] + "8"]))),
    ("r.txt", "\n".join(["1...\t", "1..1" + "." * 12, "1.......", "1..." * 4, INKALA])),
])
def test_deferred_lines_parse_to_the_same_records(tmp_path, name, content):
    path = write(tmp_path, name, content)
    pending = list(read_puzzles(path, defer=True))
    assert pending and all(isinstance(p, PendingRecord) for p in pending)
    # the parsing travels to another process: what it gives must not depend on where
    parsed = [pickle.loads(pickle.dumps(p)).parse() for p in pending]
    assert parsed == records(path)
    # nor on parsing a whole chunk at once (the givens of all checked together)
    assert parse_pending(pending) == parsed
    for start in range(len(pending)):
        assert parse_pending(pending[start:start + 3]) == parsed[start:start + 3]


def test_csv_without_a_puzzle_column(tmp_path):
    path = write(tmp_path, "p.csv", "id,solution\na,b\n")
    expected = ("the CSV header has no puzzle column (columns: id, solution; "
                "name one 'puzzle', 'puzzles', 'quizzes', 'quiz')")
    with pytest.raises(InputError, match=re.escape(expected)):
        records(path)


def test_csv_with_bom_and_crlf(tmp_path):
    path = write(tmp_path, "p.csv", b"\xef\xbb\xbfid,puzzle\r\nA," + INKALA.encode() + b"\r\n")
    got = records(path)
    assert got[0].id == "A" and got[0].ok


def test_bundled_samples_read_cleanly():
    data = Path(__file__).resolve().parent.parent / "sudoku_cp" / "data"
    for path in sorted(data.glob("*.csv")):
        got = records(path)
        assert got and all(r.ok for r in got), (path, [r.error for r in got if r.error][:1])


@pytest.mark.parametrize("out", ["pretty", "rows", "json"])
def test_file_holding_one_multi_line_puzzle(tmp_path, out):
    text = "# one puzzle\n" + format_grid(parse_puzzle(INKALA).cells, 9, out) + "\n"
    got = records(write(tmp_path, "one.txt", text))
    assert len(got) == 1 and got[0].puzzle.to_line() == INKALA and got[0].line == 2
    explicit = {"pretty": "grid", "rows": "rows", "json": "json"}[out]
    assert records(write(tmp_path, "two.txt", text), fmt=explicit)[0].puzzle.to_line() == INKALA


def test_pretty_printed_json_file(tmp_path):
    rows = json.loads(format_json(parse_puzzle(INKALA).cells, 9))
    got = records(write(tmp_path, "p.json", json.dumps(rows, indent=4)))
    assert len(got) == 1 and got[0].puzzle.to_line() == INKALA


def test_one_bad_grid_in_a_file_is_one_record(tmp_path):
    grid = "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9))
    broken = grid.replace("..36.....", "..36....", 1)
    got = records(write(tmp_path, "g.txt", broken))
    assert len(got) == 1
    assert got[0].error == "row 2 has 8 cells but row 1 has 9 (rows are ragged)"


def test_grid_or_lines_of_small_puzzles(tmp_path):
    four = ["1.....1.........", ".1.....1........", "..1.....1.......", "...1.....1......"]
    got = records(write(tmp_path, "four.txt", "\n".join(four * 4)))  # 16 lines of 16 symbols
    assert len(got) == 16 and all(r.ok and r.puzzle.size == 4 for r in got)
    grid16 = format_line(solved(16), 16)
    rows16 = "\n".join(grid16[i:i + 16] for i in range(0, 256, 16))
    got = records(write(tmp_path, "grid16.txt", rows16))
    assert len(got) == 1 and got[0].puzzle.size == 16
    got = records(write(tmp_path, "typo.txt", "\n".join(four[:3] + ["...1.....1....."])))
    assert [r.ok for r in got] == [True, True, True, False]
    got = records(write(tmp_path, "lines.txt", "\n".join(four * 4)), fmt="line")
    assert len(got) == 16


def test_big_sizes_in_files(tmp_path):
    cells = puzzle_cells(64)
    line = format_line(cells, 64)
    got = records(write(tmp_path, "big.txt", line + "\n" + line + "\n"))
    assert [r.puzzle.cells for r in got] == [tuple(cells)] * 2
    obj = json.dumps({"id": "big", "puzzle": json.loads(format_json(cells, 64)),
                      "solution": json.loads(format_json(solved(64), 64))})
    assert len(obj) < MAX_LINE_CHARS
    got = records(write(tmp_path, "big.jsonl", obj + "\n"))
    assert got[0].puzzle.cells == tuple(cells) and got[0].id == "big"
    got = records(write(tmp_path, "rows.txt", format_rows(cells, 64)))
    assert len(got) == 1 and got[0].puzzle.cells == tuple(cells)
    sixteen = [format_line(puzzle_cells(16, seed=s), 16) for s in range(3)]
    got = records(write(tmp_path, "16.csv", "puzzle\n" + "\n".join(sixteen)))
    assert [format_line(r.puzzle.cells, 16) for r in got] == sixteen


def test_streams_text_and_binary():
    assert records(io.StringIO(INKALA + "\n" + INKALA))[1].puzzle.to_line() == INKALA
    assert records(io.BytesIO(INKALA.encode()))[0].puzzle.to_line() == INKALA


# --- whole-input problems ----------------------------------------------------------------------
def test_empty_files(tmp_path):
    for name, content, message in [
        ("empty.txt", "", "is empty"),
        ("blank.txt", "\n  \n\t\n", "holds only whitespace"),
        ("notes.txt", "# nothing\n\n# here\n", "holds no puzzles (only comments and blank lines)"),
        ("header.csv", "id,puzzle\n", "has a CSV header but no puzzles"),
    ]:
        path = write(tmp_path, name, content)
        with pytest.raises(InputError, match=re.escape(f"{path} {message}")):
            records(path)


def test_binary_and_non_utf8(tmp_path):
    png = write(tmp_path, "image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(InputError, match=r"is not UTF-8 text \(byte 0x89 at column 1 of line 1\)"):
        records(png)
    zeros = write(tmp_path, "zeros.bin", b"\x00" * 100)
    with pytest.raises(InputError, match=r"holds binary data \(a NUL byte on line 1\)"):
        records(zeros)
    latin1 = write(tmp_path, "latin1.txt",
                   INKALA.encode() + b"\n\xe9" + INKALA[1:].encode() + b"\n")
    got = records(latin1)
    assert got[0].ok
    assert got[1].error == "line 2 is not UTF-8 text (byte 0xe9 at column 1 of line 2)"
    blob = write(tmp_path, "blob.bin", b"\x01\x02\x00" + b"\xff" * 100_000)  # no newline
    with pytest.raises(InputError, match=r"holds binary data \(a NUL byte\)"):
        records(blob)
    nul_later = write(tmp_path, "nul.txt", INKALA.encode() + b"\n\x00\x00\n" + INKALA.encode())
    assert [r.ok for r in records(nul_later)] == [True, False, True]


def test_missing_paths_directories_and_permissions(tmp_path):
    with pytest.raises(InputError, match="^file not found: nope/puzzles$"):
        read_input("nope/puzzles")
    with pytest.raises(InputError, match="^file not found: puzzles.csv$"):
        read_input("puzzles.csv")
    with pytest.raises(InputError, match="^file not found: "):
        read_puzzles(tmp_path / "missing.txt")
    with pytest.raises(InputError, match="is a directory, not a puzzle file"):
        read_input(str(tmp_path))
    tmp_path.chmod(0o755)  # only the file itself is unreadable
    secret = write(tmp_path, "secret.txt", INKALA)
    secret.chmod(0)
    assert _read_error_as_unprivileged(str(secret)) == (
        f"InputError: cannot read {secret}: permission denied"
    )


def _read_error_as_unprivileged(path: str) -> str:
    """read_input(path)'s error, read by a user without permission (a forked child drops root)."""
    if os.geteuid() != 0:
        try:
            list(read_input(path))
        except InputError as err:
            return f"InputError: {err}"
        return "no error"
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: give up root, try to read, report through the pipe
        try:
            os.setgid(65534)
            os.setuid(65534)
            try:
                list(read_input(path))
                message = "no error"
            except InputError as err:
                message = f"InputError: {err}"
        except BaseException as err:  # noqa: BLE001 — report anything to the parent
            message = repr(err)
        os.write(writer, message.encode())
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        message = pipe.read().decode()
    os.waitpid(pid, 0)
    return message


# --- read_input: text, files, standard input ---------------------------------------------------
def test_read_input_text_is_a_puzzle():
    got = list(read_input(INKALA))
    assert len(got) == 1 and got[0].puzzle.to_line() == INKALA and got[0].id == "1"
    bad = list(read_input(INKALA[:80]))
    assert bad[0].error.startswith("read 80 cells")  # one puzzle: no "line 1:" prefix
    assert list(read_input(""))[0].error == "empty input"
    assert list(read_input("   "))[0].error == "input is only whitespace"
    grid = "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9))
    assert [r.puzzle.to_line() for r in read_input(grid)] == [INKALA]
    two = list(read_input(INKALA + "\n" + INKALA[:80]))
    assert two[1].error.startswith("line 2: read 80 cells")


def test_read_input_file(tmp_path):
    path = write(tmp_path, "p.txt", INKALA + "\n")
    assert [r.puzzle.to_line() for r in read_input(str(path))] == [INKALA]


def _stdin_run(data: bytes) -> list[str]:
    code = (
        "from sudoku_cp.formats import read_input\n"
        "from sudoku_cp.errors import InputError\n"
        "try:\n"
        "    for r in read_input('-'):\n"
        "        print(r.index, r.puzzle.to_line() if r.puzzle else r.error)\n"
        "except InputError as err:\n"
        "    print('InputError:', err)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                          check=True, timeout=60)
    return done.stdout.decode().splitlines()


def test_read_input_standard_input():
    grid = "\n".join(INKALA[i:i + 9] for i in range(0, 81, 9))
    assert _stdin_run(grid.encode()) == [f"1 {INKALA}"]
    assert _stdin_run((INKALA + "\n" + INKALA + "\n").encode()) == [f"1 {INKALA}", f"2 {INKALA}"]
    assert _stdin_run(b"") == ["InputError: standard input is empty"]
    assert _stdin_run(b"\xff\xfe1") == [
        "InputError: standard input is not UTF-8 text (byte 0xff at column 1 of line 1)"
    ]


# --- size: streaming and absurd lines ----------------------------------------------------------
def test_hundred_thousand_lines_stream_in_flat_memory(tmp_path):
    line = "1.....1.........\n"
    path = tmp_path / "many.txt"
    path.write_text(line * 100_000)
    size = path.stat().st_size
    with open(path, "rb") as stream:
        iterator = read_puzzles(stream)
        first = next(iterator)
        assert first.ok
        # Lazy: after one record only a small part of the file has been read.
        assert stream.tell() < size // 10
        tracemalloc.start()
        try:
            for _ in range(2_000):
                next(iterator)
            early = tracemalloc.get_traced_memory()[1]
            tracemalloc.reset_peak()
            for _ in range(20_000):
                next(iterator)
            later = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        # Ten times as many records take no more memory: nothing accumulates.
        assert later < 200_000 and later < 2 * early + 50_000
        rest = sum(1 for _ in iterator)
    assert 1 + 2_000 + 20_000 + rest == 100_000


def test_absurd_line_is_rejected_without_being_held(tmp_path):
    path = tmp_path / "absurd.txt"
    with open(path, "w") as out:
        out.write(INKALA + "\n")
        chunk = "." * 1_000_000
        for _ in range(10):
            out.write(chunk)
        out.write("\n" + INKALA + "\n")
    tracemalloc.start()
    try:
        got = records(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [r.ok for r in got] == [True, False, True]
    assert got[1].error == (
        "line 2 is too long for a puzzle: 10,000,000 characters (at most 65,536)"
    )
    assert got[1].text.endswith("…") and len(got[1].text) < 100
    assert peak < 1_000_000  # the 10 MB line was never held whole


def test_absurd_text_argument_is_rejected():
    got = list(read_input("." * 10_000_000))
    assert got[0].error.startswith("line 1 is too long for a puzzle")


# --- properties --------------------------------------------------------------------------------
PUZZLE_ALPHABET = st.sampled_from(list("123456789ABCGHZ.0_-*abz |+=-,[]{}\":#\n\t -1.5null"))
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.one_of(st.text(), st.text(PUZZLE_ALPHABET, max_size=300)))
def test_parse_puzzle_raises_only_its_own_errors(text):
    with contextlib.suppress(PuzzleError, InputError):
        parse_puzzle(text)


@FUZZ
@given(st.one_of(st.binary(), st.text(PUZZLE_ALPHABET, max_size=400).map(str.encode)),
       st.sampled_from(FORMATS))
def test_read_puzzles_raises_only_its_own_errors(data, fmt):
    try:
        for record in read_puzzles(io.BytesIO(data), fmt=fmt):
            assert (record.puzzle is None) != (record.error is None)
    except (PuzzleError, InputError):
        pass


@FUZZ
@given(st.text(PUZZLE_ALPHABET, max_size=300))
def test_read_input_text_raises_only_its_own_errors(text):
    try:
        for record in read_input(text):
            assert record.error is None or "\n" not in record.error
    except (PuzzleError, InputError):
        pass


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
