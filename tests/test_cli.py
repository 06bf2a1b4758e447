"""Command-line behaviour of `solve`, `models` and `backends`: output, exit status, errors.

Every kind of bad input, across commands, is in test_bad_input.py; `check` and `count` in
test_batch_command.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from clitools import run
from puzzles import INKALA, KNOWN, KNOWN_SOLUTION, WINDOKU

from sudoku_cp.puzzle import Puzzle


def test_solve_line_prints_solution_on_stdout_and_status_on_stderr():
    result = run("solve", KNOWN, "--format", "line")
    assert result.exit_code == 0
    assert result.stdout.strip() == KNOWN_SOLUTION
    assert "solved" in result.stderr


def test_solve_proves_inkala_unique_with_limit_2():
    result = run("solve", INKALA, "--limit", "2", "--format", "line", "--stats")
    assert result.exit_code == 0
    lines = result.stdout.split()
    assert len(lines) == 1
    assert Puzzle.parse(INKALA).is_solution(Puzzle.parse(lines[0]).cells)
    assert "unique" in result.stderr and "nodes=" in result.stderr


def test_solve_all_counts_every_solution_of_empty_4x4():
    result = run("solve", "." * 16, "--all", "--format", "line")
    assert result.exit_code == 0
    solutions = result.stdout.split()
    assert len(solutions) == len(set(solutions)) == 288


def test_solve_all_cut_short_by_the_time_limit_says_so():
    # the empty 9x9 grid has 6.67e21 solutions: a second finds some, not all, and no --limit
    # stopped the search (in pure Python: the compiled kernel, once loaded in this process,
    # reaches the cap of 100,000 solutions within the second)
    result = run(
        "solve", "." * 81, "--all", "--time-limit", "1", "--format", "line", "-O", "kernel=false"
    )
    found = len(result.stdout.split())
    assert found >= 2
    status = result.stderr.strip().splitlines()[-1]
    assert f"multiple: {found} solutions before the time limit" in status, status


def test_solve_pretty_draws_boxes():
    result = run("solve", KNOWN)
    assert result.exit_code == 0
    assert "solved" in result.stdout
    assert "|" in result.stdout and "9 3 4" in result.stdout


def test_solve_json_is_parseable_nested_lists():
    result = run("solve", KNOWN, "--format", "json")
    record = json.loads(result.stdout)
    assert record["status"] == "solved"
    grid = record["solutions"][0]
    assert len(grid) == 9 and all(len(row) == 9 for row in grid)
    assert "".join(str(d) for row in grid for d in row) == KNOWN_SOLUTION


def test_solve_reads_standard_input_and_files(tmp_path):
    piped = run("solve", "-", "--format", "line", input=KNOWN + "\n")
    assert piped.stdout.strip() == KNOWN_SOLUTION
    path = tmp_path / "two.txt"
    path.write_text(f"# two puzzles\n{KNOWN}\n{INKALA}\n")
    result = run("solve", str(path), "--format", "line")
    assert result.exit_code == 0
    assert len(result.stdout.split()) == 2


def test_solve_other_models_and_strategies():
    result = run("solve", WINDOKU, "--model", "hyper", "--format", "line", "--limit", "2")
    assert result.exit_code == 0
    solution = result.stdout.strip()
    assert Puzzle.parse(WINDOKU, model="hyper").is_solution(Puzzle.parse(solution).cells)
    for strategy in ("naive", "ordered", "mrv", "fast"):
        result = run("solve", KNOWN, "--strategy", strategy, "--format", "line")
        assert result.stdout.strip() == KNOWN_SOLUTION, strategy


def test_no_solution_exits_1():
    # Row 1 needs a 9 only at r1c9, but column 9 already has one: no solution, no repeated given.
    no_solution = "12345678." + "........9" + "." * 63
    result = run("solve", no_solution, "--format", "line")
    assert result.exit_code == 1
    assert "none" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "123"], "cells"),
        (["solve", "5" + "5" + "." * 79], "given twice"),
        (["solve", KNOWN, "--backend", "nope"], "unknown backend"),
        (["solve", KNOWN, "--model", "nope"], "unknown model"),
        (["solve", KNOWN, "--strategy", "bogus"], "strategy"),
        (["solve", KNOWN, "-O", "nonsense=1"], "no option"),
        (["solve", "." * 256, "--model", "hyper"], "only fits size 9"),
        (["solve", "." * 49], "box"),
        (["solve", "missing-file.txt"], "not found"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_models_lists_every_shipped_model():
    result = run("models")
    assert result.exit_code == 0
    for name in ("classic", "x", "hyper", "latin"):
        assert name in result.stdout


def test_backends_lists_availability_versions_and_options():
    result = run("backends", "--json")
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert rows["backtrack"]["available"] is True
    assert any(opt["name"] == "strategy" for opt in rows["backtrack"]["options"])
    assert "cpsat" in rows
    from sudoku_cp.backends import backend_class

    for name, row in rows.items():
        assert row["rules"] == sorted(backend_class(name).rules)
    assert "killercage" in rows["sat"]["rules"]
    assert rows["dlx"]["rules"] == ["even", "givenPencilMarks", "odd"]
    plain = run("backends")
    assert plain.exit_code == 0 and "backtrack" in plain.stdout


def test_help_does_not_import_solver_libraries():
    code = (
        "import sys; from sudoku_cp.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('ortools', 'constraint', 'pysat', 'rich') if m in sys.modules]\n"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_help_and_solve_do_not_import_importlib_metadata():
    """Reading versions at import cost ~25 ms of every start-up (issue 16); only the reports
    that show versions import it now."""
    code = (
        "import sys; from sudoku_cp.cli import main\n"
        "for args in (['--help'], ['solve', '1...............']):\n"
        "    try:\n        main(args)\n    except SystemExit:\n        pass\n"
        "print('importlib.metadata' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_console_script_error_has_no_traceback():
    out = subprocess.run(
        [sys.executable, "-m", "sudoku_cp.cli", "solve", "xyz"], capture_output=True, text=True
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_solve_status_line_escapes_an_id_with_a_line_break(tmp_path):
    source = tmp_path / "ids.jsonl"
    source.write_text(
        json.dumps({"id": "a\nb", "puzzle": INKALA})
        + "\n"
        + json.dumps({"id": "c\x1bd", "puzzle": "12"})
        + "\n"
    )
    result = run("solve", str(source), "--format", "line")
    lines = result.stderr.splitlines()
    assert lines[0].startswith('puzzle "a\\nb": solved: 1 solution'), result.stderr
    assert lines[1].startswith('sudoku-cp: error: puzzle "c\\u001bd": line 2: read 2'), lines
    assert len(lines) == 2
