"""Files of many puzzles (line, JSON Lines, CSV; detection), the records they give (parsed
here or deferred to a worker), read_input (text, files, standard input), whole-input problems,
and streaming in flat memory."""

from __future__ import annotations

import io
import json
import os
import pickle
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from puzzles import INKALA, puzzle_cells, solved

from sudoku_cp.errors import InputError, PuzzleError
from sudoku_cp.formats import (
    FORMATS,
    MAX_LINE_CHARS,
    PendingRecord,
    PuzzleRecord,
    format_grid,
    format_json,
    format_line,
    format_rows,
    parse_pending,
    parse_puzzle,
    read_input,
    read_puzzles,
)


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


def records(source, **kwargs) -> list[PuzzleRecord]:
    return list(read_puzzles(source, **kwargs))


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
        json.dumps(
            {
                "id": 7,
                "puzzle": json.loads(format_json(parse_puzzle(INKALA).cells, 9)),
                "solution": "x" * 81,
            }
        ),
        '{"puzzle": "' + INKALA[:80] + '"}',
        "[[1, 0,",
        '{"givens": "..."}',
    ]
    got = records(write(tmp_path, "p.jsonl", "\n".join(lines)))
    assert [r.id for r in got] == ["1", "inkala", "7", "4", "5", "6"]
    assert [r.ok for r in got] == [True, True, False, False, False, False]
    assert got[1].expected == {"solution_count": 1}
    assert got[2].expected == {"solution": "x" * 81}
    # (a stated solution is the puzzle's published one: one that does not read is the error)
    assert got[2].error.startswith("line 3: solution: ")
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
        ("inkala", 2, True),
        ("named, with comma", 3, True),
        ("3", 4, False),
    ]
    assert got[0].expected == {"solution": solution, "solution_count": 1}
    assert got[1].expected == {"solution_count": ">=2"}
    assert got[2].error.startswith("line 4: read 80 cells")


def test_csv_puzzle_column_by_name_or_first_column(tmp_path):
    zeros = INKALA.replace(".", "0")
    solution = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    quizzes = records(write(tmp_path, "k.csv", f"quizzes,solutions\n{zeros},{solution}\n"))
    assert quizzes[0].puzzle.to_line() == INKALA and quizzes[0].expected == {"solution": solution}
    assert quizzes[0].puzzle.published == tuple(map(int, solution))
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


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("p.txt", f"# lines\n{INKALA}\n{INKALA[:16]}?{INKALA[17:]}\n\n{INKALA[:80]}\n"),
        (
            "p.jsonl",
            "\n".join(
                [
                    json.dumps({"id": "a", "puzzle": INKALA, "solution_count": 1}),
                    "[[1, 0,",
                    '{"givens": "..."}',
                    json.dumps({"puzzle": INKALA}),
                ]
            ),
        ),
        ("p.csv", f'id,puzzle,solution\n"two\nlines",{INKALA},x\nlonely\n,{INKALA[:80]},\n'),
        ("p.bin", b"1.......\n" + INKALA.encode() + b"\n\xff\xfe" + INKALA[2:].encode() + b"\n"),
        # repeated givens among good lines: the chunk's givens check finds each one
        (
            "r.csv",
            "id,puzzle\n"
            + "".join(
                f"{i},{line}\n"
                for i, line in enumerate(
                    [
                        INKALA,
                        "11" + INKALA[2:],
                        INKALA,
                        INKALA,
                        "1" + INKALA[1:9] + "1" + INKALA[10:],
                        INKALA,
                        INKALA[:80] + "8",
                    ]
                )
            ),
        ),
        ("r.txt", "\n".join(["1...\t", "1..1" + "." * 12, "1.......", "1..." * 4, INKALA])),
    ],
)
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
        assert parse_pending(pending[start : start + 3]) == parsed[start : start + 3]


def test_csv_without_a_puzzle_column(tmp_path):
    path = write(tmp_path, "p.csv", "id,solution\na,b\n")
    expected = (
        "the CSV header has no puzzle column (columns: id, solution; "
        "name one 'puzzle', 'puzzles', 'quizzes', 'quiz')"
    )
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
    grid = "\n".join(INKALA[i : i + 9] for i in range(0, 81, 9))
    broken = grid.replace("..36.....", "..36....", 1)
    got = records(write(tmp_path, "g.txt", broken))
    assert len(got) == 1
    assert got[0].error == "row 2 has 8 cells but row 1 has 9 (rows are ragged)"


def test_grid_or_lines_of_small_puzzles(tmp_path):
    four = ["1.....1.........", ".1.....1........", "..1.....1.......", "...1.....1......"]
    got = records(write(tmp_path, "four.txt", "\n".join(four * 4)))  # 16 lines of 16 symbols
    assert len(got) == 16 and all(r.ok and r.puzzle.size == 4 for r in got)
    grid16 = format_line(solved(16), 16)
    rows16 = "\n".join(grid16[i : i + 16] for i in range(0, 256, 16))
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
    obj = json.dumps(
        {
            "id": "big",
            "puzzle": json.loads(format_json(cells, 64)),
            "solution": json.loads(format_json(solved(64), 64)),
        }
    )
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
    latin1 = write(
        tmp_path, "latin1.txt", INKALA.encode() + b"\n\xe9" + INKALA[1:].encode() + b"\n"
    )
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
    grid = "\n".join(INKALA[i : i + 9] for i in range(0, 81, 9))
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
    done = subprocess.run(
        [sys.executable, "-c", code], input=data, capture_output=True, check=True, timeout=60
    )
    return done.stdout.decode().splitlines()


@pytest.mark.slow
def test_read_input_standard_input():
    grid = "\n".join(INKALA[i : i + 9] for i in range(0, 81, 9))
    assert _stdin_run(grid.encode()) == [f"1 {INKALA}"]
    assert _stdin_run((INKALA + "\n" + INKALA + "\n").encode()) == [f"1 {INKALA}", f"2 {INKALA}"]
    assert _stdin_run(b"") == ["InputError: standard input is empty"]
    assert _stdin_run(b"\xff\xfe1") == [
        "InputError: standard input is not UTF-8 text (byte 0xff at column 1 of line 1)"
    ]


# --- size: streaming and absurd lines ----------------------------------------------------------
@pytest.mark.slow
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


@pytest.mark.parametrize("length", [100_000, 2 * MAX_LINE_CHARS, 2 * MAX_LINE_CHARS - 1])
@pytest.mark.parametrize("binary", [True, False])
def test_too_long_crlf_line_counts_its_characters_only(tmp_path, length, binary):
    # 2 * MAX_LINE_CHARS: the \r is the last character of a chunk read, the \n the next one
    text = f"{INKALA}\r\n{'1' * length}\r\n{INKALA}\r\n"
    path = write(tmp_path, "crlf.txt", text)
    source = path if binary else io.StringIO(text, newline="")
    got = records(source)
    assert [r.ok for r in got] == [True, False, True]
    assert got[1].error == (
        f"line 2 is too long for a puzzle: {length:,} characters (at most {MAX_LINE_CHARS:,})"
    )


def test_absurd_text_argument_is_rejected():
    got = list(read_input("." * 10_000_000))
    assert got[0].error.startswith("line 1 is too long for a puzzle")


# --- properties --------------------------------------------------------------------------------
PUZZLE_ALPHABET = st.sampled_from(list('123456789ABCGHZ.0_-*abz |+=-,[]{}":#\n\t -1.5null'))
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(
    st.one_of(st.binary(), st.text(PUZZLE_ALPHABET, max_size=400).map(str.encode)),
    st.sampled_from(FORMATS),
)
def test_read_puzzles_raises_only_its_own_errors(data, fmt):
    try:
        for record in read_puzzles(io.BytesIO(data), fmt=fmt):
            assert (record.puzzle is None) != (record.error is None)
            assert record.error is None or (record.error and "\n" not in record.error)
    except (PuzzleError, InputError) as err:
        assert str(err) and "\n" not in str(err)  # one line naming what is wrong


@FUZZ
@given(st.text(PUZZLE_ALPHABET, max_size=300))
def test_read_input_text_raises_only_its_own_errors(text):
    try:
        for record in read_input(text):
            assert (record.puzzle is None) != (record.error is None)
            assert record.error is None or (record.error and "\n" not in record.error)
    except (PuzzleError, InputError) as err:
        assert str(err) and "\n" not in str(err)


@pytest.mark.parametrize("model", ["classic", "antiknight"])
def test_lines_of_small_puzzles_that_break_rules_stay_one_puzzle_a_line(tmp_path, model):
    # Lines whose givens repeat were taken as not reading alone, so the file was tried as one
    # grid of 3 rows of 16 cells: the valid puzzle on line 2 was dropped with the rest.
    path = write(tmp_path, "three.txt", "11..............\n1...............\n22..............\n")
    records = list(read_puzzles(path, model=model))
    assert [r.index for r in records] == [1, 2, 3]
    assert [r.puzzle is not None for r in records] == [False, True, False]
    assert "given twice" in records[0].error


def test_a_csv_field_past_the_header_is_refused_not_dropped(tmp_path):
    # A regions column left out of the header was never read: the jigsaw became classic.
    path = write(tmp_path, "jigsaw.csv", "puzzle\n................,0001021122312333\n")
    (record,) = list(read_puzzles(path))
    assert record.puzzle is None
    assert "the header names 1 column(s): '0001021122312333' has no column" in record.error
    ok = write(tmp_path, "trailing.csv", "puzzle,regions\n................,0001021122312333,\n")
    assert [r.puzzle is not None for r in read_puzzles(ok)] == [True]  # (an empty extra field)
