"""Exports solved by solvers outside the tool, against the catalogue's independent counts.

Each catalogue puzzle (tests/variants.py: every rule kind, counts from full enumeration) is
exported and the export is solved by an independent solver, enumerating every solution; the
set of grids must be exactly the catalogue's. The solvers and what each format means to them:

- DIMACS: PySAT's reader (``pysat.formula.CNF``) and a CDCL solver, a solution blocked on the
  cell variables (``cell*N + d`` is "cell holds d", as the header says);
- OPB: a reader here following the PB competition format (``*`` comments, signed integer
  coefficients, ``>=`` or ``=``, ``;`` at the end), each constraint encoded by PySAT's
  ``pysat.pb`` (needs ``pindakaas``, the ``python-sat[pb]`` extra);
- MiniZinc: the ``minizinc`` binary with Gecode, ``--all-solutions``, JSON output;
- XCSP3: pycsp3's bundled ACE solver (Java) on a sample, one puzzle per catalogue model.

A tool that is missing skips its tests, saying which.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from variants import MAX_COUNT, Entry, catalogue, solutions

from sudoku_cp import Puzzle
from sudoku_cp.export import FORMATS, Unexportable, export
from sudoku_cp.rules import Rule

ENTRIES = [entry for entry in catalogue() if entry.count <= MAX_COUNT]


def _grid(true: set[int], n: int) -> tuple[int, ...]:
    """The grid a model's true cell variables name (``cell*n + d``)."""
    grid = []
    for cell in range(n * n):
        held = [d for d in range(1, n + 1) if cell * n + d in true]
        assert len(held) == 1, (cell, held)
        grid.append(held[0])
    return tuple(grid)


def _enumerate(clauses: list[list[int]], n: int, cap: int = MAX_COUNT + 1) -> list[tuple[int, ...]]:
    """Every grid of a CNF (up to ``cap``), by blocking each found grid on its cell
    variables."""
    from pysat.solvers import Solver

    found = []
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            true = {lit for lit in model if 0 < lit <= n * n * n}
            found.append(_grid(true, n))
            if len(found) >= cap:
                break
            solver.add_clause([-lit for lit in true])
    return sorted(found)


# --- DIMACS ------------------------------------------------------------------------------------
@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_dimacs_has_exactly_the_catalogue_solutions(entry: Entry) -> None:
    from pysat.formula import CNF

    text = export(entry.puzzle, "dimacs")[".cnf"]
    cnf = CNF(from_string=text)
    header = next(line for line in text.splitlines() if line.startswith("p cnf "))
    assert int(header.split()[2]) >= cnf.nv and int(header.split()[3]) == len(cnf.clauses)
    assert _enumerate(cnf.clauses, entry.puzzle.size) == solutions(entry.puzzle)


def test_dimacs_names_the_variables() -> None:
    text = export(Puzzle([0] * 16), "dimacs")[".cnf"]
    assert "c var 1..4 = r1c1 is 1..4" in text and "c var 61..64 = r4c4 is 1..4" in text


# --- OPB ---------------------------------------------------------------------------------------
def read_opb(text: str) -> tuple[int, list[tuple[list[tuple[int, int]], str, int]]]:
    """(declared variables, constraints as (terms (coefficient, variable), op, rhs)), read by
    the PB competition format: ``*`` lines are comments, a constraint is signed coefficients
    each followed by a variable ``xN``, then ``>=`` or ``=``, the right-hand side and ``;``."""
    declared = 0
    out = []
    for line in text.splitlines():
        if line.startswith("*"):
            if "#variable=" in line:
                declared = int(line.split()[2])
            continue
        words = line.split()
        assert words[-1] == ";", line
        op, rhs = words[-3], int(words[-2])
        assert op in (">=", "="), line
        body = words[:-3]
        assert len(body) % 2 == 0 and body, line
        terms = []
        for coefficient, name in zip(body[::2], body[1::2], strict=True):
            assert coefficient[0] in "+-" and name.startswith("x"), line
            terms.append((int(coefficient), int(name[1:])))
        out.append((terms, op, rhs))
    return declared, out


def _opb_clauses(text: str) -> list[list[int]]:
    """The OPB constraints as CNF through pysat.pb, negative coefficients normalised away
    (c·x = -c·(1 - x) + c: a negated literal with a positive weight)."""
    from pysat.pb import PBEnc

    declared, constraints = read_opb(text)
    top = declared
    clauses: list[list[int]] = []
    for terms, op, rhs in constraints:
        lits, weights = [], []
        for c, v in terms:
            assert 1 <= v <= declared
            if c < 0:
                lits.append(-v)
                weights.append(-c)
                rhs -= c
            else:
                lits.append(v)
                weights.append(c)
        encode = PBEnc.equals if op == "=" else PBEnc.atleast
        if op == ">=" and rhs <= 0:
            continue  # always true
        if rhs > sum(weights) or (op == "=" and rhs < 0):
            clauses += [[1], [-1]]  # never true
            continue
        made = encode(lits=lits, weights=weights, bound=rhs, top_id=top)
        top = max(top, made.nv)
        clauses += made.clauses
    return clauses


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_opb_has_exactly_the_catalogue_solutions(entry: Entry) -> None:
    pytest.importorskip("pindakaas", reason="pysat.pb needs pindakaas (python-sat[pb])")
    text = export(entry.puzzle, "opb")[".opb"]
    assert _enumerate(_opb_clauses(text), entry.puzzle.size) == solutions(entry.puzzle)


# --- MiniZinc ----------------------------------------------------------------------------------
def _minizinc() -> str:
    found = shutil.which("minizinc")
    if found is None:
        pytest.skip("the minizinc binary is missing (Debian: apt-get install minizinc)")
    listed = subprocess.run([found, "--solvers"], capture_output=True, text=True, check=True)
    if "org.gecode.gecode" not in listed.stdout:
        pytest.skip("MiniZinc has no Gecode solver (Debian: apt-get install flatzinc)")
    return found


def solve_minizinc(
    files: dict[str, str], tmp_path: Path, n: int, cap: int | None = None
) -> list[tuple[int, ...]]:
    """Every solution Gecode finds through the minizinc driver, from its JSON output: one
    object per solution, each followed by ``----------``; ``==========`` when the search
    was complete, ``=====UNSATISFIABLE=====`` when there is none."""
    model, data = tmp_path / "p.mzn", tmp_path / "p.dzn"
    model.write_text(files[".mzn"])
    data.write_text(files[".dzn"])
    run = subprocess.run(
        [_minizinc(), "--solver", "gecode", "--output-mode", "json"]
        + (["--all-solutions"] if cap is None else ["--num-solutions", str(cap)])
        + [str(model), str(data)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    chunks = run.stdout.split("----------\n")
    tail = chunks.pop().strip()
    if tail == "=====UNSATISFIABLE=====":
        assert not chunks
        return []
    assert tail == "==========" or (cap is not None and tail == ""), run.stdout[-300:]
    grids = []
    for chunk in chunks:
        rows = json.loads(chunk)["grid"]
        assert len(rows) == n
        grids.append(tuple(d for row in rows for d in row))
    return sorted(grids)


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_minizinc_has_exactly_the_catalogue_solutions(entry: Entry, tmp_path: Path) -> None:
    files = export(entry.puzzle, "minizinc")
    assert solve_minizinc(files, tmp_path, entry.puzzle.size) == solutions(entry.puzzle)


def test_minizinc_data_is_only_the_givens(tmp_path: Path) -> None:
    """Two puzzles of one model share the model text; only the data differs."""
    first, second = ENTRIES[0].puzzle, ENTRIES[1].puzzle
    assert first.model == second.model and first.cells != second.cells
    assert export(first, "minizinc")[".mzn"] == export(second, "minizinc")[".mzn"]
    assert export(first, "minizinc")[".dzn"] != export(second, "minizinc")[".dzn"]


# --- XCSP3 ------------------------------------------------------------------------------------
def _ace() -> list[str]:
    """The command running the ACE solver bundled with pycsp3 (pycsp3/solvers/ace/*.jar)."""
    pycsp3 = pytest.importorskip("pycsp3", reason="the xcsp3 extra (pycsp3) is not installed")
    jars = sorted((Path(pycsp3.__file__).parent / "solvers" / "ace").glob("ACE-*.jar"))
    java = shutil.which("java")
    if not jars or java is None:
        pytest.skip("ACE needs Java (17 or later) and pycsp3's bundled ACE jar")
    return [java, "-jar", str(jars[-1])]


def solve_ace(text: str, tmp_path: Path, n: int) -> list[tuple[int, ...]]:
    """Every solution ACE finds, read as pycsp3 reads ACE (pycsp3/solvers/solver.py: each
    ``<instantiation>``'s ``<values>`` in the order of its ``<list>``, here ``grid[][]``, row
    by row; ``s UNSATISFIABLE`` when there is none); ``-s=all`` asks for every solution,
    ``-xe -xc=false`` for each one in full, as pycsp3 runs it (pycsp3/solvers/ace/ace.py)."""
    path = tmp_path / "p.xml"
    path.write_text(text)
    run = subprocess.run(
        [*_ace(), str(path), "-s=all", "-xe", "-xc=false"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = re.sub(r"\x1b\[[0-9;]*m", "", run.stdout)
    assert "COMPLETE EXPLORATION" in out, out[-500:]
    if "s UNSATISFIABLE" in out:
        return []
    grids = []
    for listed, values in re.findall(
        r"<instantiation[^>]*>\s*<list>\s*(.*?)\s*</list>\s*<values>\s*(.*?)\s*</values>", out
    ):
        assert listed == "grid[][]"
        grid = tuple(int(v) for v in values.split())
        assert len(grid) == n * n
        grids.append(grid)
    return sorted(grids)


def _one_per_rule() -> list[Entry]:
    """A sample (ACE starts a Java machine per run, about a second; CI's whole run must stay
    under 15 minutes): for each rule shape the export compiles by, its first entry with several
    solutions (else its first), every plain model's too, and a puzzle with a unique solution
    and one with none."""
    from sudoku_cp.export.shapes import shape_of

    chosen: dict[tuple[str, ...], Entry] = {}
    for entry in ENTRIES:
        shapes = {shape_of(rule) for rule in entry.puzzle.model.rules}
        keys = tuple(sorted(shapes)) or (entry.puzzle.model.name,)
        for key in keys:
            have = chosen.get((key,))
            if have is None or (have.count < 2 <= entry.count):
                chosen[(key,)] = entry
    givens = [
        next(e for e in ENTRIES if e.count == 1 and e.puzzle.model.rules),  # givens kept
        next(e for e in ENTRIES if e.count == 0 and e.puzzle.model.rules),  # none at all
    ]
    return list(dict.fromkeys([*chosen.values(), *givens]))


@pytest.mark.parametrize("entry", _one_per_rule(), ids=str)
def test_xcsp3_has_exactly_the_catalogue_solutions(entry: Entry, tmp_path: Path) -> None:
    text = export(entry.puzzle, "xcsp3")[".xml"]
    assert solve_ace(text, tmp_path, entry.puzzle.size) == solutions(entry.puzzle)


# --- every format ------------------------------------------------------------------------------
class Shapeless(Rule):
    key = "odd"
    title = "rule of no known shape"

    def problems(self, grid, size):  # type: ignore[no-untyped-def]
        return ["never holds"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_rule_of_unknown_shape_is_named_never_skipped(fmt: str) -> None:
    from sudoku_cp.model import load_model

    model = load_model("latin").with_rules(rules=[Shapeless()], size=4)
    with pytest.raises(Unexportable, match="rule of no known shape") as err:
        export(Puzzle([0] * 16, model), fmt)
    assert "\n" not in str(err.value)


# --- the command -------------------------------------------------------------------------------
HYPER = "..............5.1.....2...6......4....5...6...8...73.....214....7......2..6....4."


def test_one_puzzle_goes_to_standard_output_as_export_writes_it() -> None:
    from clitools import run

    from sudoku_cp.model import load_model

    result = run("export", HYPER, "--model", "hyper", "--to", "dimacs")
    assert result.exit_code == 0, result.output
    puzzle = Puzzle.parse(HYPER, load_model("hyper"))
    assert result.stdout == export(puzzle, "dimacs")[".cnf"]


def test_several_puzzles_go_to_a_folder_one_file_each(tmp_path: Path) -> None:
    from clitools import error_line, run

    source = tmp_path / "two.txt"
    source.write_text(f"{HYPER}\n{'.' * 81}\n")
    assert "give -o FOLDER" in error_line(run("export", str(source), "--to", "opb"))
    out = tmp_path / "out"
    result = run("export", str(source), "--to", "minizinc", "-o", str(out))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "puzzle-000001.dzn",
        "puzzle-000001.mzn",
        "puzzle-000002.dzn",
        "puzzle-000002.mzn",
    ]
    assert (out / "puzzle-000002.dzn").read_text().count("0") == 81


def test_minizinc_needs_a_model_file_name(tmp_path: Path) -> None:
    from clitools import error_line, run

    assert "give -o FILE.mzn" in error_line(run("export", HYPER, "--to", "minizinc"))
    assert "ending in .mzn" in error_line(
        run("export", HYPER, "--to", "minizinc", "-o", str(tmp_path / "p.txt"))
    )
    result = run("export", HYPER, "--to", "minizinc", "-o", str(tmp_path / "p.mzn"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "p.dzn").read_text().startswith("givens = [|")


def test_one_puzzle_goes_to_the_file_named_as_named(tmp_path: Path) -> None:
    # -o p.txt wrote p.cnf (and -o /dev/full wrote /dev/full.cnf), exit 0, saying nothing.
    from clitools import run

    for fmt, suffix in (("dimacs", ".cnf"), ("opb", ".opb")):
        out = tmp_path / f"{fmt}.txt"
        result = run("export", HYPER, "--to", fmt, "-o", str(out))
        assert result.exit_code == 0, result.output
        assert out.read_text() == export(Puzzle.parse(HYPER), fmt)[suffix]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dimacs.txt", "opb.txt"]


@pytest.mark.parametrize("several", [False, True])
def test_an_empty_output_name_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, several: bool
) -> None:
    # -o '' was a ValueError traceback for one puzzle, and files in the current folder for
    # several.
    from clitools import error_line, run

    source = tmp_path / "two.txt"
    source.write_text(f"{HYPER}\n{'.' * 81}\n" if several else HYPER)
    monkeypatch.chdir(tmp_path)
    result = run("export", str(source), "--to", "opb", "-o", "")
    assert result.exit_code == 2
    assert "not an empty one" in error_line(result)
    assert [p.name for p in tmp_path.iterdir()] == ["two.txt"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["12.3", "--to", "dimacs"], "puzzle 1"),
        (["." * 81, "--to", "cnf"], "'cnf' is not one of"),
        (["." * 81], "Missing option '--to'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], said: str) -> None:
    from clitools import error_line, run

    result = run("export", *args)
    assert result.exit_code == 2
    assert said in error_line(result)


def test_pycsp3_never_enters_the_exporting_process() -> None:
    # pycsp3 patches built-in types when imported (forbiddenfruit: set.__contains__ …); imported
    # here, it made every later set test of the suite's process many times slower.
    pytest.importorskip("pycsp3")
    code = (
        "import sys\n"
        "from sudoku_cp.formats import parse_puzzle\n"
        "from sudoku_cp.export import xcsp3\n"
        "if __name__ == '__main__':\n"
        "    p = parse_puzzle('1' + '.' * 15)\n"
        "    assert '<instance' in xcsp3.export(p)['.xml']\n"
        "    print('pycsp3' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.stdout.strip() == "False", done.stderr


def test_a_folder_an_earlier_export_filled_holds_only_this_exports_puzzles(
    tmp_path: Path,
) -> None:
    """An export of 3 puzzles into the folder of an earlier export of 4 left puzzle-000004 of
    the earlier input beside them: a solver run over the folder's files took 4 puzzles."""
    from clitools import run

    out = tmp_path / "out"
    four = tmp_path / "four.txt"
    four.write_text(f"{HYPER}\n{'.' * 81}\n{HYPER}\n{'.' * 81}\n")
    two = tmp_path / "two.txt"
    two.write_text(f"{'.' * 81}\n{HYPER}\n")
    assert run("export", str(four), "--to", "dimacs", "-o", str(out)).exit_code == 0
    assert run("export", str(four), "--to", "opb", "-o", str(out)).exit_code == 0
    (out / "notes.txt").write_text("mine")
    result = run("export", str(two), "--to", "dimacs", "-o", str(out))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    opb = [f"puzzle-00000{n}.opb" for n in range(1, 5)]  # another format's files stay
    assert names == sorted(["notes.txt", "puzzle-000001.cnf", "puzzle-000002.cnf", *opb])


def test_a_failed_export_into_a_used_folder_leaves_no_earlier_puzzles_past_its_own(
    tmp_path: Path,
) -> None:
    """A folder export stopped by a bad puzzle kept the earlier export's files past the ones
    it wrote (puzzles 3-10 of another input beside 1-2 of this one, all named alike)."""
    from clitools import error_line, run

    out = tmp_path / "out"
    ten = tmp_path / "ten.txt"
    ten.write_text(f"{HYPER}\n" * 10)
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{'.' * 81}\n{HYPER}\n1.3\n{HYPER}\n")
    assert run("export", str(ten), "--to", "minizinc", "-o", str(out)).exit_code == 0
    assert run("export", str(ten), "--to", "dimacs", "-o", str(out)).exit_code == 0
    result = run("export", str(bad), "--to", "minizinc", "-o", str(out))
    assert result.exit_code == 2
    assert error_line(result).startswith("sudoku-cp: error: puzzle 3: ")
    names = sorted(p.name for p in out.iterdir())
    mine = [f"puzzle-00000{n}{s}" for n in (1, 2) for s in (".mzn", ".dzn")]
    cnf = [f"puzzle-{n:06d}.cnf" for n in range(1, 11)]  # another format's files stay
    assert names == sorted([*mine, *cnf])
    alone = tmp_path / "alone"  # puzzle 1 is this input's first, not the earlier one's
    alone.mkdir()
    assert run("export", "." * 81, "--to", "minizinc", "-o", str(alone / "p.mzn")).exit_code == 0
    assert (out / "puzzle-000001.dzn").read_text() == (alone / "p.dzn").read_text()
    # the first puzzle unreadable: no file of this format is left at all
    first_bad = tmp_path / "first.txt"
    first_bad.write_text("1.3\n")
    result = run("export", str(first_bad), "--to", "dimacs", "-o", str(out))
    assert result.exit_code == 2
    assert not list(out.glob("*.cnf"))
