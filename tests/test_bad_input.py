"""Every kind of bad input, through the real command line.

Each case gets one clear line naming what is wrong and where: ``sudoku-cp: error: …`` on standard
error and exit 2 when the single input (or the invocation) is unusable, a per-puzzle ``invalid``
record when it is one puzzle of a batch (``check``), and never a traceback. Most cases run in
process through click's CliRunner; a few run ``python -m sudoku_cp.cli`` for real, to prove the
exit status and the absence of a traceback where nothing catches for us. The library-level
messages have their own tests (test_formats.py, test_formats_files.py, test_model.py); these are
about what a user sees.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from clitools import as_unprivileged, error_line, jsonl, run
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from puzzles import INKALA, KNOWN, KNOWN_SOLUTION

from sudoku_cp.errors import ModelError
from sudoku_cp.model import model_from_dict

ROWS = "1 0 0 0\n0 0 {} 0\n0 1 0 0\n0 0 0 1"  # a 4x4 puzzle in rows form, one cell to fill in
REAL = "backtrack"


def records_of(result) -> list[dict]:
    return jsonl(result.stdout)


# --- one puzzle: exit 2 and one line naming what and where --------------------------------------
@pytest.mark.parametrize(
    ("text", "model", "expected"),
    [
        ("", "classic", ["empty input"]),
        ("  \n\t \n", "classic", ["input is only whitespace"]),
        # the length read, and the sizes that would fit (all common ones, and the nearest)
        (
            INKALA[:80],
            "classic",
            ["read 80 cells", "16 (4x4), 36 (6x6)", "81 (9x9)", "nearest: 64 (8x8) and 81 (9x9)"],
        ),
        # the sizes listed are those the model fits
        (INKALA + ".", "hyper", ["read 82 cells", "81 (9x9)"]),
        ("." * 49, "classic", ["7x7", "model 'classic' needs boxes", "size 7 has no box shape"]),
        ("." * 16, "hyper", ["model 'hyper' only fits size 9, not 4"]),
        (INKALA[:30] + "?" + INKALA[31:], "classic", ["unknown symbol '?' at row 4, column 4"]),
        (
            "\n".join(INKALA[i : i + 9] for i in range(0, 81, 9)).replace("7", "#", 1),
            "classic",
            ["unknown symbol '#' at row 3, column 2"],
        ),
        ("A" + INKALA[1:], "classic", ["symbol 'A' (digit 10) at row 1, column 1 is outside 1..9"]),
        (ROWS.format(12), "classic", ["digit 12 at row 2, column 3 is outside 1..4"]),
        (
            "[[1,5,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]",
            "classic",
            ["digit 5 at row 1, column 2 is outside 1..4"],
        ),
        (ROWS.format(-1), "classic", ["negative number -1 at row 2, column 3"]),
        (ROWS.format(1.5), "classic", ["non-integer 1.5 at row 2, column 3"]),
        (
            "[[1,0,0,0],[0,0,0,0],[0,0,0,-2],[0,0,0,0]]",
            "classic",
            ["negative number -2 at row 3, column 4"],
        ),
        (
            "[[1,0,0,0],[0,2.5,0,0],[0,0,0,0],[0,0,0,0]]",
            "classic",
            ["non-integer 2.5 at row 2, column 2"],
        ),
        (
            "1 0 0 0\n0 0 1\n0 1 0 0\n0 0 0 1",
            "classic",
            ["row 2 has 3 numbers but row 1 has 4 (rows are ragged)"],
        ),
        (
            "1...\n..1\n.1..\n...1",
            "classic",
            ["row 2 has 3 cells but row 1 has 4 (rows are ragged)"],
        ),
        ("[[1,0],[0]]", "classic", ["row 2 has 1 number but row 1 has 2 (rows are ragged)"]),
        ("[1, 2, 3, 4]", "classic", ["a JSON puzzle is a list of rows", "item 1 is 1"]),
        ('{"grid": []}', "classic", ["a JSON object needs a 'puzzle' key"]),
        (
            '[[1, 0, "x", 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]',
            "classic",
            ['not an integer: "x" at row 1, column 3'],
        ),
        ("[[1, 0,", "classic", ["not valid JSON: Expecting value at line 1, column 8"]),
        ("." * 65 * 65, "classic", ["read 4,225 cells; the largest puzzle is 64x64 (4,096 cells)"]),
        (json.dumps([[0] * 65] * 65), "classic", ["read 65 rows; the largest puzzle is 64x64"]),
        ("11" + "." * 79, "classic", ["digit 1 is given twice in row 1: r1c1 and r1c2"]),
    ],
)
def test_a_bad_puzzle_is_one_line_and_exit_2(text, model, expected):
    result = run("solve", text, "--model", model)
    assert result.exit_code == 2
    line = error_line(result)
    for words in expected:
        assert words in line


def test_a_mistyped_file_name_says_no_such_file_exists():
    line = error_line(run("solve", "puzzels"))
    assert "read 7 cells" in line and "no file named 'puzzels'" in line
    assert "file not found: puzzles/hard.txt" in error_line(run("solve", "puzzles/hard.txt"))
    assert "file not found: hard.csv" in error_line(run("check", "hard.csv"))


def test_files_that_are_not_puzzle_files(tmp_path):
    cases = {
        "empty.txt": (b"", "is empty"),
        "blank.txt": (b"\n \n\t\n", "holds only whitespace"),
        "notes.txt": (b"# only a comment\n", "holds no puzzles (only comments and blank lines)"),
        "image.png": (
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "is not UTF-8 text (byte 0x89 at column 1 of line 1)",
        ),
        "zeros.bin": (b"\x00" * 1000, "holds binary data (a NUL byte on line 1), not puzzle text"),
        "latin1.txt": (b"\xe9t\xe9\n", "is not UTF-8 text (byte 0xe9 at column 1 of line 1)"),
        "no-column.csv": (
            b"id,solution\n1,2\n",
            "the CSV header has no puzzle column "
            "(columns: id, solution; name one 'puzzle', 'puzzles'",
        ),
        "header.csv": (b"id,puzzle\n", "has a CSV header but no puzzles"),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        for command in ("solve", "check", "count"):
            result = run(command, str(path), "-b" if command != "solve" else "--backend", REAL)
            assert result.exit_code == 2, (name, command)
            line = error_line(result)
            assert line.startswith(f"sudoku-cp: error: {path}") and message in line, line


def test_a_directory_and_a_missing_file(tmp_path):
    assert error_line(run("solve", str(tmp_path))).endswith(
        f"{tmp_path} is a directory, not a puzzle file"
    )
    missing = tmp_path / "missing.txt"
    for command in ("solve", "check", "count"):
        result = run(command, str(missing))
        assert result.exit_code == 2
        assert error_line(result) == f"sudoku-cp: error: file not found: {missing}"


def test_a_file_name_with_a_line_break_is_read_as_that_file(tmp_path):
    path = tmp_path / "two\nlines.txt"
    path.write_text(f"{KNOWN}\n")
    result = run("solve", str(path), "--format", "line")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == KNOWN_SOLUTION
    result = run("check", str(path), "-b", REAL, "-j", "0", "-q", "-f", "jsonl")
    assert result.exit_code == 0 and json.loads(result.stdout)["verdict"] == "unique"
    missing = tmp_path / "no\nsuch.txt"
    for command in ("solve", "check"):
        result = run(command, str(missing))
        assert result.exit_code == 2
        assert error_line(result) == (f"sudoku-cp: error: file not found: {tmp_path}/no\\nsuch.txt")


def test_binary_on_standard_input_is_one_line_and_exit_2():
    result = run("check", "-", "-b", REAL, "-j", "0", input=b"\xff\xd8\xff\xe0JFIF")
    assert result.exit_code == 2
    assert "standard input is not UTF-8 text (byte 0xff at column 1 of line 1)" in (
        error_line(result)
    )


# --- a file without read permission, a read-only folder (root drops privileges) -----------------
def test_a_file_without_read_permission(public_dir):
    readable = public_dir / "readable.txt"
    readable.write_text(KNOWN + "\n")
    readable.chmod(0o644)
    secret = public_dir / "secret.txt"
    secret.write_text(KNOWN + "\n")
    secret.chmod(0)
    assert as_unprivileged("solve", str(readable), "--format", "line")[0] == 0  # the control
    code, stderr, calls = as_unprivileged("check", str(secret), "-b", "test-counting", "-j", "0")
    assert (code, stderr, calls) == (
        2,
        f"sudoku-cp: error: cannot read {secret}: permission denied\n",
        0,
    )
    model = public_dir / "secret.toml"
    model.write_text('groups = ["rows", "columns"]\n')
    model.chmod(0)
    code, stderr, _ = as_unprivileged("solve", KNOWN, "--model", str(model))
    assert code == 2 and stderr.startswith(f"sudoku-cp: error: cannot read model file {model}")


# --- model files ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            'groups = ["rows", "colums"]',
            "unknown group name(s) 'colums' (known: rows, columns, boxes, diagonal, "
            "anti-diagonal, disjoint)",
        ),
        ('groups = ["rows", ', "is not valid TOML: "),
        ('groups = ["rows"]\ncells = 5', "'cells' must be a list of [[cells]] tables"),
        ('groups = ["rows"]\n[[cells]]\ncells = [[true, 0]]', "cell group 1 must be"),
        ("groups = []", "no groups (a model needs at least one group)"),
    ],
)
def test_bad_model_files_are_refused_before_any_puzzle(tmp_path, content, expected):
    path = tmp_path / "mine.toml"
    path.write_text(content)
    for command in ("solve", "check"):
        result = run(command, KNOWN, "--model", str(path))
        assert result.exit_code == 2
        line = error_line(result)
        assert str(path) in line and expected in line


def test_model_groups_outside_the_grid(tmp_path):
    far = tmp_path / "far.toml"
    far.write_text('groups = ["rows", "columns"]\n[[cells]]\ncells = [[0, 0], [9, 9]]\n')
    result = run("solve", KNOWN, "--model", str(far))
    assert result.exit_code == 2
    assert "model 'far': cell [9, 9] is outside the 9x9 grid" in error_line(result)
    # In a batch the model may fit other puzzles' sizes: each puzzle it misses is invalid.
    result = run("check", KNOWN, "--model", str(far), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    assert result.exit_code == 1
    [record] = records_of(result)
    assert record["verdict"] == "invalid"
    assert "cell [9, 9] is outside the 9x9 grid" in record["reason"]
    window = tmp_path / "window.toml"
    window.write_text('groups = ["rows"]\n[[windows]]\nrow = 7\ncol = 7\nheight = 3\nwidth = 3\n')
    assert "window at row 7, column 7 (3x3) does not fit a 9x9 grid" in error_line(
        run("solve", KNOWN, "--model", str(window))
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        st.sampled_from(["groups", "sizes", "windows", "cells", "description", "other"]),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers(-3, 12)
            | st.text(max_size=8)
            | st.sampled_from(["rows", "columns", "boxes", "diagonal"]),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(
                    st.sampled_from(["row", "col", "height", "width", "cells"]), inner, max_size=4
                )
            ),
            max_leaves=12,
        ),
        max_size=5,
    )
)
# near misses the random dictionaries rarely reach: a cell twice, a cell outside a 4x4 grid
@example({"groups": ["rows"], "cells": [{"cells": [[0, 0], [0, 0]]}]})
@example({"groups": ["rows", "columns"], "cells": [{"cells": [[0, 0], [5, 5]]}]})
@example({"groups": ["rows"], "windows": [{"row": 3, "col": 3, "height": 2, "width": 2}]})
def test_any_model_file_content_is_a_model_or_a_model_error(data):
    try:
        model = model_from_dict(data, name="fuzz")
        for size in (4, 9):
            if model.fits(size) is None:
                groups = model.groups(size)
                # a model it accepts gives groups of distinct cells inside the grid, each named
                assert groups and len(model.group_labels(size)) == len(groups)
                for group in groups:
                    assert len(set(group)) == len(group) > 0
                    assert all(type(c) is int and 0 <= c < size * size for c in group)
    except ModelError as err:
        assert str(err) and "\n" not in str(err)


# --- names and option values ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["solve", KNOWN, "-b", "nope"],
            "unknown backend 'nope' "
            "(known backends: backtrack, cpsat, constraint, sat, dlx, logic, minizinc)",
        ),
        (
            ["check", KNOWN, "-b", "backtrack,nope"],
            "unknown backend 'nope' (known backends: backtrack",
        ),
        (["count", KNOWN, "-b", "nope"], "unknown backend 'nope' (known backends: backtrack"),
        (  # an option written into the backend's name: where options go instead
            ["check", KNOWN, "-b", "backtrack:naive"],
            "unknown backend 'backtrack:naive': a backend's options are given apart from its "
            "name (on the command line -O backtrack.KEY=VALUE",
        ),
        (
            ["solve", KNOWN, "-b", "sat.solver=minisat22"],
            "unknown backend 'sat.solver=minisat22': a backend's options are given apart",
        ),
        (
            ["solve", KNOWN, "--strategy", "quick"],
            "unknown value 'quick' (choose from: fast, naive, ordered, mrv)",
        ),
        (
            ["check", KNOWN, "-b", REAL, "-O", "backtrack.strategy=quick"],
            "unknown value 'quick' (choose from: fast, naive, ordered, mrv)",
        ),
        (["solve", KNOWN, "-O", "depth=3"], "backend 'backtrack' has no option 'depth' (it takes:"),
        (
            ["solve", KNOWN, "--model", "sudokux"],
            "unknown model 'sudokux' (known models: antiking, antiknight, classic, disjoint, "
            "hyper, latin, nonconsecutive, x)",
        ),
        (["check", KNOWN, "--model", "sudokux"], "unknown model 'sudokux' (known models: antiking"),
        (
            ["solve", KNOWN, "--input-format", "xml"],
            "unknown input format 'xml' (choose from: auto, line, grid, rows, json, jsonl, csv, "
            "iss, candidates)",
        ),
        (["solve", KNOWN, "--format", "xml"], "'xml' is not one of 'pretty', 'line', 'json'"),
        (["nope"], "No such command 'nope'"),
    ],
)
def test_unknown_names_list_the_valid_ones(args, expected):
    result = run(*args)
    assert result.exit_code == 2
    assert expected in error_line(result)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["solve", KNOWN, "--limit", "-1"], "-1 is not in the range 1<=x<=100000"),
        (["solve", KNOWN, "--limit", "0"], "0 is not in the range 1<=x<=100000"),
        (["solve", KNOWN, "--time-limit", "-1"], "-1.0 is not in the range 0<x<=86400.0"),
        (["solve", KNOWN, "--time-limit", "0"], "0.0 is not in the range 0<x<=86400.0"),
        (
            ["solve", KNOWN, "-s", "mrv", "-O", "strategy=naive"],
            "--strategy mrv and --option strategy=naive disagree",
        ),
        (
            ["solve", KNOWN, "--time-limit", "nan"],
            "'nan' is not a number of seconds",
        ),
        (["check", KNOWN, "--limit", "1"], "1 is not in the range 2<=x<=100000"),
        (["check", KNOWN, "--time-limit", "-5"], "-5.0 is not in the range 0<x<=86400.0"),
        (["check", KNOWN, "--jobs", "-1"], "-1 is not in the range x>=0"),
        (["check", KNOWN, "--metamorphic", "-1"], "-1 is not in the range x>=0"),
        (["check", KNOWN, "--seed", "x"], "'x' is not a valid integer"),
        (["check", KNOWN, "--seed", "-1"], "-1 is not in the range 0<=x<=9223372036854775807"),
        (["bench", "easy", "--seed", str(2**63)], "is not in the range 0<=x<=9223372036854775807"),
        (["shrink", KNOWN, "--seed", str(2**64)], "is not in the range 0<=x<=9223372036854775807"),
        (["count", KNOWN, "--limit", "-3"], "-3 is not in the range 1<=x<=100000"),
        (["bench", "easy", "--time-limit", "-1"], "-1.0 is not in the range 0<x<=86400.0"),
        (
            ["check", KNOWN, "-b", "cpsat", "-O", "cpsat.workers=0"],
            "option 'workers' of backend 'cpsat' must be at least 1, not 0",
        ),
        (["check", KNOWN, "-O", "strategy=mrv"], "expected BACKEND.KEY=VALUE, got strategy=mrv"),
    ],
)
def test_nonsensical_option_values_are_refused(args, expected):
    result = run(*args)
    assert result.exit_code == 2
    assert expected in error_line(result)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["solve", KNOWN, "--limit", "2", "--all"], "--limit and --all contradict each other"),
        (["count", KNOWN, "--limit", "2", "--all"], "--limit and --all contradict each other"),
        (["check", KNOWN, "--resume"], "--resume needs --output FILE"),
        (
            ["check", KNOWN, "--resume", "-o", "out.txt", "-f", "table"],
            "--resume continues a jsonl or csv output file",
        ),
        (["check", KNOWN, "-o", ""], "--output needs a file name"),
        (
            ["check", KNOWN, "-b", REAL, "-O", "cpsat.workers=2"],
            "options given for backend(s) not being run: cpsat (running: backtrack)",
        ),
        (["check", KNOWN, "-b", "backtrack,bt"], "backend 'backtrack' is named twice"),
        (["check", "-", "-"], "standard input ('-') is named twice; it can be read only once"),
        (["count", "-", KNOWN, "-"], "standard input ('-') is named twice"),
    ],
)
def test_conflicting_options_are_refused(args, expected, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2
    assert expected in error_line(result)
    assert not (tmp_path / "out.txt").exists()  # refused before anything was written


# --- in a batch: one invalid record per bad puzzle, the rest checked -----------------------------
def test_every_bad_line_of_a_batch_is_an_invalid_record_naming_its_line(tmp_path):
    lines = [
        KNOWN,  # line 1
        "# a comment, and a blank line next",
        "",
        INKALA[:80],  # line 4
        "." * 49,
        INKALA[:30] + "?" + INKALA[31:],
        "A" + INKALA[1:],
        "11" + "." * 79,
        "." * 65 * 65,  # line 9
        INKALA,  # line 10
    ]
    data = "\n".join(lines).encode() + b"\n\xe9" + INKALA[1:].encode() + b"\n\x00\x00\n"
    path = tmp_path / "mixed.txt"
    path.write_bytes(data)
    result = run("check", str(path), "-b", REAL, "-j", "2", "-f", "jsonl", "-q")
    assert result.exit_code == 1  # some invalid, none worse
    assert "Traceback" not in result.output and result.stderr == ""
    by_line = {r["line"]: r for r in records_of(result)}
    assert sorted(by_line) == [1, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert by_line[1]["verdict"] == by_line[10]["verdict"] == "unique"
    expected = {
        4: "line 4: read 80 cells; a puzzle has N*N cells",
        5: "line 5: read a 7x7 puzzle, but model 'classic' needs boxes",
        6: "line 6: unknown symbol '?' at row 4, column 4",
        7: "line 7: symbol 'A' (digit 10) at row 1, column 1 is outside 1..9",
        8: "line 8: digit 1 is given twice in row 1: r1c1 and r1c2",
        9: "line 9: read 4,225 cells; the largest puzzle is 64x64",
        11: "line 11 is not UTF-8 text (byte 0xe9 at column 1 of line 11)",
        12: "line 12 holds binary data (a NUL byte), not text",
    }
    for line, reason in expected.items():
        record = by_line[line]
        assert record["verdict"] == "invalid" and record["backends"] == {}
        assert record["reason"].startswith(reason), record["reason"]
        assert "\n" not in record["reason"] and len(record["puzzle"]) <= 200


def test_bad_json_lines_and_csv_rows_are_invalid_records(tmp_path):
    jsonl = tmp_path / "puzzles.jsonl"
    good = [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]]
    jsonl.write_text(
        "\n".join(
            json.dumps(x)
            for x in [
                {"id": "good", "puzzle": good},
                {"id": "negative", "puzzle": [[1, 0, 0, 0], [0, -1, 0, 0], [0] * 4, [0] * 4]},
                {"id": "float", "puzzle": [[1, 0, 0, 0], [0, 2.5, 0, 0], [0] * 4, [0] * 4]},
                {"id": "ragged", "puzzle": [[1, 0, 0, 0], [0, 0, 1], [0] * 4, [0] * 4]},
                {"id": "flat", "puzzle": [1, 0, 0, 0]},
                {"id": "nothing"},
            ]
        )
        + "\n[[1, 0,\n"
    )
    result = run("check", str(jsonl), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    assert result.exit_code == 1
    by_id = {r["id"]: r for r in records_of(result)}
    assert by_id["good"]["verdict"] == "multiple"
    assert by_id["negative"]["reason"] == "line 2: negative number -1 at row 2, column 2"
    assert by_id["float"]["reason"] == "line 3: non-integer 2.5 at row 2, column 2"
    assert by_id["ragged"]["reason"].startswith("line 4: row 2 has 3 numbers but row 1 has 4")
    assert by_id["flat"]["reason"].startswith("line 5: a JSON puzzle is a list of rows")
    assert by_id["nothing"]["reason"].startswith("line 6: a JSON object needs a 'puzzle' key")
    assert by_id["7"]["reason"].startswith("line 7: not valid JSON")
    csv_file = tmp_path / "puzzles.csv"
    csv_file.write_text(f"id,puzzle\nshort,{INKALA[:80]}\nnone\nok,{INKALA}\n")
    result = run("check", str(csv_file), "-b", REAL, "-j", "0", "-f", "jsonl", "-q")
    by_id = {r["id"]: r for r in records_of(result)}
    assert by_id["short"]["reason"].startswith("line 2: read 80 cells")
    assert by_id["none"]["reason"] == (
        "line 3: no puzzle: the row has 1 field(s), the puzzle is in column 2 ('puzzle')"
    )
    assert by_id["ok"]["verdict"] == "unique"


def test_solve_goes_on_after_a_bad_puzzle_and_exits_2(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"{INKALA[:80]}\n{KNOWN}\n")
    result = run("solve", str(path), "--format", "line")
    assert result.exit_code == 2
    assert result.stdout.count("\n") == 1  # the good puzzle's solution
    assert "sudoku-cp: error: puzzle 1: line 1: read 80 cells" in result.stderr


# --- very large inputs -------------------------------------------------------------------------
# The peak resident memory of this process image: VmHWM, not getrusage's ru_maxrss, which keeps
# the size of the (forked) test process that started it from before its exec.
PEAK_RSS = """
import sys
from sudoku_cp.cli import main
try:
    main(sys.argv[1:])
except SystemExit as stop:
    status = stop.code
with open("/proc/self/status") as status_file:
    peak = next(line.split()[1] for line in status_file if line.startswith("VmHWM:"))
print(status, peak)
"""


def peak_kib(*args: str) -> tuple[int, int]:
    """Exit status and peak resident memory (KiB) of the command line run in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, *args], capture_output=True, text=True, timeout=300
    )
    status, peak = done.stdout.split()[-2:]
    return int(status), int(peak)


FULL_4X4 = "1234341221434321"  # a solved 4x4 grid: every backend answers at once


@pytest.fixture(scope="module")
def baseline_kib(tmp_path_factory) -> int:
    """Peak memory of `check` over 10,000 lines, the yardstick for the larger runs."""
    folder = tmp_path_factory.mktemp("baseline")
    path = folder / "ten-thousand.txt"
    path.write_text(f"{FULL_4X4}\n" * 10_000)
    status, peak = peak_kib(
        "check", str(path), "-b", REAL, "-j", "1", "-q", "-o", str(folder / "out.jsonl")
    )
    assert status == 0
    return peak


@pytest.mark.slow
def test_a_hundred_thousand_lines_stream_through_check_in_flat_memory(tmp_path, baseline_kib):
    path = tmp_path / "hundred-thousand.txt"
    path.write_text(f"{FULL_4X4}\n" * 100_000)
    out = tmp_path / "out.jsonl"
    status, peak = peak_kib("check", str(path), "-b", REAL, "-j", "1", "-q", "-o", str(out))
    assert status == 0
    with out.open() as handle:
        indices = {json.loads(line)["index"] for line in handle}
    assert indices == set(range(1, 100_001))
    # Ten times the puzzles, about the same memory: keeping even 100 bytes per extra puzzle
    # would add 9 MB.
    assert peak - baseline_kib < 6_000, (peak, baseline_kib)


@pytest.mark.slow
def test_a_ten_megabyte_line_is_refused_without_being_read_whole(tmp_path, baseline_kib):
    path = tmp_path / "absurd.txt"
    with path.open("w") as handle:
        handle.write(f"{FULL_4X4}\n" * 5_000)
        for _ in range(10):
            handle.write("." * 1_000_000)
        handle.write("\n" + f"{FULL_4X4}\n" * 5_000)
    out = tmp_path / "out.jsonl"
    status, peak = peak_kib("check", str(path), "-b", REAL, "-j", "1", "-q", "-o", str(out))
    assert status == 1  # one invalid record
    with out.open() as handle:
        invalid = [r for r in map(json.loads, handle) if r["verdict"] == "invalid"]
    assert [r["line"] for r in invalid] == [5_001]
    assert invalid[0]["reason"] == (
        "line 5001 is too long for a puzzle: 10,000,000 characters (at most 65,536)"
    )
    # Holding the line (10 MB of bytes, then its text) would show here.
    assert peak - baseline_kib < 5_000, (peak, baseline_kib)
    result = run("solve", "." * 10_000_000)  # the same given as an argument
    assert result.exit_code == 2
    assert "is too long for a puzzle: 10,000,000 characters" in error_line(result)


# --- no traceback, for real ---------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "stdin", "expected"),
    [
        (["solve", "-"], b"\x00\x01\x02binary", "standard input holds binary data"),
        (["check", "missing/puzzles.txt"], b"", "file not found: missing/puzzles.txt"),
        (["solve", INKALA, "--model", "bad.toml"], b"", "is not valid TOML"),
        (["check", INKALA, "--limit", "-1"], b"", "check: Invalid value for '-n' / '--limit'"),
        (["count", INKALA, "--backends", "nope"], b"", "unknown backend 'nope'"),
        (["check", INKALA, "-b", REAL, "-o", "."], b"", "output . is a directory"),
    ],
)
def test_the_real_command_prints_one_line_and_exits_2(tmp_path, args, stdin, expected):
    (tmp_path / "bad.toml").write_text("groups = [rows\n")
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", *args],
        input=stdin,
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
    )
    stderr = done.stderr.decode()
    assert done.returncode == 2
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert stderr.startswith("sudoku-cp: error: ") and expected in stderr
    assert done.stdout == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args", [["solve", INKALA], ["check", INKALA, "-b", REAL], ["models"], ["rate", "easy"]]
)
def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(args):
    """Standard output on a full device (> /dev/full): a traceback before."""
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "sudoku_cp.cli", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert stderr == "sudoku-cp: error: cannot write the output: No space left on device\n"


def test_closed_standard_streams_are_the_null_device():
    """A stream the shell closed (`>&-`, `<&-`) is None in Python: an AttributeError before."""
    closed = {"stdin": subprocess.DEVNULL}
    code = (
        "import sys; sys.stdout = sys.stdin = None; from sudoku_cp.cli import main; "
        "main(sys.argv[1:], prog_name='sudoku-cp')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "solve", INKALA], capture_output=True, timeout=120, **closed
    )
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b"", done.stderr
    done = subprocess.run(
        [sys.executable, "-c", code, "solve", "-"], capture_output=True, timeout=120, **closed
    )
    assert done.returncode == 2
    assert done.stderr.decode() == "sudoku-cp: error: standard input is empty\n"


PRINTABLE = st.sampled_from(list('123456789ABCGZ.0_-* |+,[]{}":#\n\t-1.5nulé\x00'))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=100), st.text(PRINTABLE, max_size=200)))
@example("{\n0")  # two lines, two puzzles, two error lines
@example("1234" + "." * 12)  # a puzzle: its status line and exit 0
def test_any_text_argument_gives_an_answer_or_one_error_line(text):
    result = run("solve", text, "--time-limit", "2")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    for line in result.stderr.splitlines():
        assert line.startswith(("sudoku-cp: error: ", "puzzle ")), line
    if result.exit_code == 2:  # not a puzzle: an error line for each line that is not one
        assert result.stderr.count("sudoku-cp: error: ") >= 1
    else:  # a puzzle: its status line says what was found, and the exit status matches it
        assert result.exit_code in (0, 1, 3), result.exit_code
        statuses = [line for line in result.stdout.splitlines() if line.startswith("puzzle ")]
        assert statuses, result.stdout
        if len(statuses) == 1:
            said = statuses[0].split(": ")[1]
            expected = {"unique": 0, "multiple": 0, "solved": 0, "none": 1, "timeout": 3}
            assert expected[said] == result.exit_code, statuses[0]
