"""The public ``solve()`` on one classic puzzle: its fast door for a plain line (issue 34), which
checks repeated givens only when no solution clears them, and the rule by which a process that
solves many puzzles loads the compiled kernel."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import subprocess
import sys

import pytest

from sudoku_cp import BackendError, DuplicateGivenError, Puzzle, PuzzleError, Result, solve
from sudoku_cp.backends import get_backend
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
        # From then on solve() takes the classic door: the kernel, called straight away.
        "p = load_puzzles('17clue', 1)[0]\n"
        "print(solve(p, limit=2).status.value, bk.last_engine().replace(' ', '_'))\n"
        "print(bk.classic_door(p.model, p.digits, 2) is not None)\n"
    )
    env_free = {k: v for k, v in os.environ.items() if k != "SUDOKU_CP_KERNEL"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env_free
    )
    assert out.stdout.split() == ["False", "True", "True", "unique", "classic_kernel", "True"]


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


# --- the classic door (sudoku_cp.backends.backtrack.kernel.glue.classic_door) ---------------------
def _door() -> object:
    """The door, with the kernel loaded and warm in this process (as after 0.25 s of search)."""
    pytest.importorskip("numba")
    from sudoku_cp.backends.backtrack.kernel import glue

    glue.warm_up()
    return glue.classic_door


def _plain(puzzle: Puzzle, limit: int | None) -> tuple[object, ...]:
    """The plain path's answer: the backend's own ``solve`` (options, refusal, search, Result)."""
    return _fields(get_backend("backtrack").solve(puzzle, limit=limit))


def _fields(result: Result) -> tuple[object, ...]:
    # Every field but the seconds (a field added later is compared too): the same search, so
    # the same solutions in the same order and the same counters.
    return tuple(
        (field.name, getattr(result, field.name))
        for field in dataclasses.fields(result)
        if field.name != "seconds"
    ) + (type(result),)


def _door_puzzles() -> list[Puzzle]:
    # Royle's 17-clue list, top1465, the forum's hardest, famous ones, and Serg's puzzles with
    # 20 to 872 solutions (sudoku_cp/data/SOURCES.md); two with no solution: Easter Monster
    # with a given changed (each given stays alone in its groups) and an empty grid but for
    # two givens that leave r1c1 no digit.
    puzzles = (
        load_puzzles("17clue", 8)
        + load_puzzles("top1465", 4)
        + load_puzzles("forum-hardest", 2)
        + load_puzzles("famous", 4)
        + load_puzzles("multiple", 4)
    )
    monster = list(load_puzzles("famous")[3].cells)
    monster[1] = 4  # r1c2 = 4: the givens clash with none, but no grid completes them
    puzzles.append(Puzzle(monster))
    stuck = [0] * 81
    stuck[1:9] = [2, 3, 4, 5, 6, 7, 8, 9]
    stuck[9 * 4] = 1  # r5c1 = 1 takes the last digit of r1c1
    puzzles.append(Puzzle(stuck))
    return puzzles


def test_the_classic_door_gives_what_the_plain_path_gives() -> None:
    door = _door()
    statuses = set()
    for puzzle in _door_puzzles():
        for limit in (1, 2, 3, 64):
            through = door(puzzle.model, puzzle.digits, limit)  # type: ignore[operator]
            assert through is not None  # the door, not the plain path, answered
            assert _fields(through) == _plain(puzzle, limit)
            assert _fields(solve(puzzle, limit=limit)) == _fields(through)
            statuses.add(through.status.value)
            for solution in through.solutions:  # the plain validator accepts each one
                assert puzzle.is_solution(solution)
        # Text: the same answer, read by the line's fast door; the door, told the cells are a
        # classic line's (model None), answers as for the Puzzle.
        assert _fields(solve(puzzle.to_line(), limit=2)) == _plain(puzzle, 2)
        vouched = door(None, puzzle.digits, 2)  # type: ignore[operator]
        assert vouched is not None and _fields(vouched) == _plain(puzzle, 2)
    assert statuses == {"unique", "solved", "multiple", "none"}


def test_the_classic_line_reading_is_the_line_readers(monkeypatch: pytest.MonkeyPatch) -> None:
    import sudoku_cp
    from sudoku_cp.formats.line import plain_codes

    seventeen = SEVENTEEN.to_line()
    texts = [
        seventeen,
        seventeen.replace(".", "0"),
        seventeen.lower(),
        "A" + seventeen[1:],  # 10: not a 9x9 digit
        "é" + seventeen[1:],  # not ASCII
        seventeen[:-1],  # 80 cells
        seventeen + ".",  # 82
        seventeen + " ",  # whitespace: the long way, which reads it
        "x" + seventeen[1:],
        "." * 256,  # a 16x16 line
        "1" * 81,  # every cell read; the givens repeat
        "",
    ]
    solve(seventeen)  # (the first call binds what solve reads with)
    handed: list[bytes | None] = []
    rest = sudoku_cp._solve_line

    def recording(text: str, raw: bytes | None, *args: object) -> Result:
        handed.append(raw)
        return rest(text, raw, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(sudoku_cp, "_solve_line", recording)
    for text in texts:
        plain = plain_codes(text)
        expected = plain[0] if plain is not None and plain[1] == 9 else None
        # (a time limit keeps the door shut, so every text reaches _solve_line with its cells)
        with contextlib.suppress(PuzzleError):
            solve(text, time_limit=30)
        assert handed.pop() == expected, text
    solve(seventeen, time_limit=30)
    assert handed == [SEVENTEEN.digits]


def test_the_classic_door_leaves_the_rest_to_the_plain_path() -> None:
    from sudoku_cp.model import load_model

    door = _door()
    seventeen = SEVENTEEN
    # Limits it does not take: all solutions, more than its buffer, and invalid ones (whose
    # error the plain path gives, the same through solve()).
    for limit in (None, 65, 0, -1, True, 2.0, "2"):
        assert door(seventeen.model, seventeen.digits, limit) is None  # type: ignore[operator]
    assert solve(load_puzzles("multiple", 1)[0], limit=None).count == 872
    for bad in (0, True, "2"):
        with pytest.raises(BackendError, match="limit must be a whole number") as plain:
            get_backend("backtrack").solve(seventeen, limit=bad)
        with pytest.raises(BackendError) as public:
            solve(seventeen, limit=bad)
        assert str(public.value) == str(plain.value)
    # Other models and sizes: a 4x4 classic grid, the X model (diagonals), a jigsaw.
    small = Puzzle([0] * 16)
    assert door(small.model, small.digits, 2) is None  # type: ignore[operator]
    x = Puzzle(list(seventeen.cells), model=load_model("x"))
    assert door(x.model, x.digits, 2) is None  # type: ignore[operator]
    assert _fields(solve(x, limit=2)) == _plain(x, 2)
    jigsaw = load_puzzles("jigsaw", 1)[0]
    assert door(jigsaw.model, jigsaw.digits, 2) is None  # type: ignore[operator]
    # Models that do not fit 9x9 at all: 3x2 boxes (6x6 only), a model for 16x16 only (as an
    # ISS '.Shape~16x16' line reads one). The door is no place to ask them for 9x9 groups.
    six = Puzzle.parse(
        ".6...44.6........5...5..2.......43..", model=load_model("classic", box="3x2")
    )
    sixteen = Puzzle([0] * 256, model=dataclasses.replace(load_model("classic"), sizes=(16,)))
    for other in (six, sixteen):
        assert door(other.model, other.digits, 2) is None  # type: ignore[operator]
        assert _fields(solve(other, limit=2)) == _plain(other, 2)
    # A time limit or a backend option: the plain path (the door has no clock).
    assert solve(seventeen, limit=2, time_limit=5).status.value == "unique"
    assert solve(seventeen, limit=2, strategy="mrv").stats.keys() >= {"nodes"}


def test_the_classic_door_shuts_when_the_kernel_is_turned_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sudoku_cp.backends.backtrack import last_engine

    door = _door()
    solve(SEVENTEEN, limit=2)
    assert last_engine() == "classic kernel"
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "0")
    assert door(SEVENTEEN.model, SEVENTEEN.digits, 2) is None  # type: ignore[operator]
    assert solve(SEVENTEEN, limit=2).solution == seventeen_solution()
    assert last_engine() == "pure"
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "1")
    assert door(SEVENTEEN.model, SEVENTEEN.digits, 2) is not None  # type: ignore[operator]


def test_repeated_givens_in_text_are_refused_with_the_kernel_loaded() -> None:
    _door()
    with pytest.raises(DuplicateGivenError, match="digit 5 is given twice in row 1"):
        solve("55" + "." * 79, limit=2)
    with pytest.raises(DuplicateGivenError, match="box 1"):
        solve("7" + "." * 9 + "7" + "." * 70, limit=1)


def test_the_classic_door_keeps_a_buffer_a_thread() -> None:
    from concurrent.futures import ThreadPoolExecutor

    _door()
    puzzles = load_puzzles("17clue", 20) + load_puzzles("multiple", 2)
    expected = [_plain(p, 2) for p in puzzles]

    def run(offset: int) -> bool:
        # Each thread its own order, many rounds, all at once: the answers never mix.
        order = puzzles[offset:] + puzzles[:offset]
        wanted = expected[offset:] + expected[:offset]
        return [_fields(solve(p, limit=2)) for p in order * 20] == wanted * 20

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(run, [0, 5, 11, 17]))


def test_the_first_call_and_str_subclasses_take_the_plain_way_to_the_same_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sudoku_cp

    _door()
    line = SEVENTEEN.to_line()
    expected = _plain(SEVENTEEN, 2)
    for first in (SEVENTEEN, line, "55" + "." * 79):
        # As in a fresh process: nothing bound yet, so neither fast test matches.
        monkeypatch.setattr(sudoku_cp, "_Puzzle", None)
        monkeypatch.setattr(sudoku_cp, "_classic_door", None)
        monkeypatch.setattr(sudoku_cp, "_CLASSIC_CODES", b"")
        monkeypatch.setattr(sudoku_cp, "_SOLVE", [])
        if first == "55" + "." * 79:
            with pytest.raises(DuplicateGivenError, match="digit 5 is given twice in row 1"):
                solve(first, limit=2)
        else:
            assert _fields(solve(first, limit=2)) == expected
        assert sudoku_cp._Puzzle is Puzzle  # the first call bound the fast path's names

    class Line(str):
        pass

    assert _fields(solve(Line(line), limit=2)) == expected
    with pytest.raises(DuplicateGivenError, match="box 1"):
        solve(Line("7" + "." * 9 + "7" + "." * 70), limit=1)
    assert _fields(solve(Line(line.replace(".", "0")), limit=2, model="classic")) == expected


# --- a library user's surprises (a hostile pass) ------------------------------------------------
ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


class _OwnStr(str):
    def __str__(self) -> str:  # (a subclass's own rendering: not the puzzle's content)
        return "." * 81


@pytest.mark.parametrize("backend", ["backtrack", "dlx"])
def test_a_str_subclass_is_solved_by_its_content(backend: str) -> None:
    # solve(str(puzzle)) took the subclass's __str__: the empty grid, "multiple"
    assert solve(_OwnStr(ESCARGOT), backend, limit=2).status.value == "unique"


def test_a_model_beside_a_puzzle_that_has_another_is_refused() -> None:
    # solve(Puzzle, model="latin") solved the Puzzle's own classic model: 288, not latin's 576
    from sudoku_cp import ModelError

    with pytest.raises(ModelError, match="the Puzzle has its own model"):
        solve(Puzzle([0] * 16), model="latin", limit=None)
    assert solve([0] * 16, model="latin", limit=None).count == 576
    assert solve(Puzzle([0] * 16, "latin"), model="latin", limit=None).count == 576
