"""The public ``solve()`` on one classic puzzle: its fast door for a plain line (issue 34), which
checks repeated givens only when no solution clears them, and the rule by which a process that
solves many puzzles loads the compiled kernel."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sudoku_cp import DuplicateGivenError, Puzzle, PuzzleError, solve
from sudoku_cp.datasets import load_puzzles

# Royle's 17-clue list (see sudoku_cp/data/SOURCES.md): a unique puzzle.
SEVENTEEN = load_puzzles("17clue", 1)[0]


def test_a_plain_line_gives_what_the_parsed_puzzle_gives() -> None:
    for puzzle in load_puzzles("17clue", 10) + load_puzzles("multiple", 3):
        line = puzzle.to_line()
        for limit in (1, 2, None):
            fast, parsed = solve(line, limit=limit), solve(Puzzle.parse(line), limit=limit)
            # (The same status and count; which two of many solutions come first depends on
            # whether the kernel or the pure search ran, which this process may switch between.)
            assert (fast.status, fast.count) == (parsed.status, parsed.count)
            if limit is None or fast.count == 1:
                assert set(fast.solutions) == set(parsed.solutions)
    # Every blank symbol the line form reads (sudoku_cp/formats/line.py BLANKS) takes the door.
    for blank in ".0_-*":
        assert solve(SEVENTEEN.to_line().replace(".", blank)).solution == seventeen_solution()


def seventeen_solution() -> tuple[int, ...]:
    solution = solve(SEVENTEEN, limit=2)
    assert solution.status.value == "unique"
    return solution.solutions[0]


def test_repeated_givens_are_still_refused() -> None:
    # Two 5s in row 1: no solution, so the givens are checked, as Puzzle.parse checks them.
    line = "55" + "." * 79
    with pytest.raises(DuplicateGivenError, match="digit 5 is given twice in row 1: r1c1 and r1c2"):
        solve(line, limit=2)
    with pytest.raises(DuplicateGivenError):
        Puzzle.parse(line)
    # In a box only (r1c1 and r2c2), with the search stopped by a short time limit or not.
    boxed = "7" + "." * 9 + "7" + "." * 70
    with pytest.raises(DuplicateGivenError, match="box 1"):
        solve(boxed, limit=1, time_limit=0.5)


def test_backend_options_take_the_long_way() -> None:
    # The naive strategy does not itself reject givens that repeat: such text is checked first.
    with pytest.raises(DuplicateGivenError, match="row 1"):
        solve("55" + "." * 79, limit=2, strategy="naive")
    assert solve(SEVENTEEN.to_line(), strategy="mrv").solution == seventeen_solution()


def test_text_the_door_does_not_take_goes_the_long_way() -> None:
    rows = "\n".join(SEVENTEEN.to_line()[r * 9 : r * 9 + 9] for r in range(9))
    assert solve(rows).solution == seventeen_solution()  # a grid, not one line
    with pytest.raises(PuzzleError):
        solve("1" * 80)  # not a square count
    with pytest.raises(PuzzleError):
        solve("x" + "." * 80)  # not a symbol


def test_a_process_that_solves_many_puzzles_loads_the_kernel() -> None:
    pytest.importorskip("numba")
    # Royle's 17-clue puzzles take ~0.1 ms each in pure Python: the first ones never wait for
    # numba, and once the process has spent LOAD_AFTER seconds in pure search over all of them
    # the kernel is loaded (backtrack_kernel.search's rule: cumulative, not per puzzle).
    code = (
        "import sys\n"
        "from sudoku_cp import solve\n"
        "from sudoku_cp.backends.backtrack.kernel import glue as bk\n"
        "from sudoku_cp.datasets import load_puzzles\n"
        "lines = [p.to_line() for p in load_puzzles('17clue')]\n"
        "for p in lines[:10]: solve(p, limit=2)\n"
        "early = 'numba' in sys.modules\n"
        "solved = 10\n"
        "while 'numba' not in sys.modules and solved < 200_000:\n"
        "    solve(lines[solved % len(lines)], limit=2); solved += 1\n"
        "print(early, 'numba' in sys.modules, bk._KERNEL.get('pure_seconds', 0) >= bk.LOAD_AFTER)\n"
    )
    env_free = {k: v for k, v in os.environ.items() if k != "SUDOKU_CP_KERNEL"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env_free
    )
    assert out.stdout.split() == ["False", "True", "True"]


def test_counting_one_classic_puzzle_imports_no_library_it_does_not_call() -> None:
    # The default choice runs backtrack and sat on a 9x9 puzzle: choosing them must not import
    # OR-Tools (which brings pandas: 1.2 s of a one-puzzle count) nor python-constraint.
    code = (
        "import sys\n"
        "from sudoku_cp.cli import main\n"
        f"sys.argv = ['sudoku-cp', 'count', '-j', '0', {SEVENTEEN.to_line()!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as done:\n"
        "    print('exit', done.code)\n"
        "print([m for m in ('ortools', 'pandas', 'constraint') if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "exactly 1 solution" in out.stdout
    assert out.stdout.strip().splitlines()[-2:] == ["exit 0", "[]"]
