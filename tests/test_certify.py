"""Certificates (sudoku_cp.certify): the encoder counts right, proofs are made and checked by
dratify, stored certificates are re-verified from scratch, and every kind of tampering — and a
wrong verdict — is refused. Real solvers and the real checker throughout; the solution counts
come from the independent enumeration of tests/variants.py."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest
from clitools import error_line, jsonl, run
from puzzles import INKALA, none_puzzle, unique_from
from variants import MAX_COUNT, Entry, catalogue, solutions

from sudoku_cp import Puzzle, check_puzzles, get_backend
from sudoku_cp.formats import read_input
from sudoku_cp.model import load_model

pytest.importorskip("dratify")

from sudoku_cp.certify import encode, load, make, verify  # noqa: E402
from sudoku_cp.certify.cnf import MAX_CLAUSES, Unencodable, blocking_clause, var  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "sudoku_cp" / "data"
ENTRIES = [entry for entry in catalogue() if entry.count <= MAX_COUNT]


def cnf_solutions(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Every grid the encoder's CNF allows, by a SAT solver and blocking clauses (projected on
    the cell variables)."""
    from pysat.solvers import Solver

    n = puzzle.size
    found = []
    with Solver(name="cadical153", bootstrap_with=[list(c) for c in encode(puzzle).clauses]) as s:
        while s.solve():
            true = set(s.get_model())
            grid = tuple(
                next(d for d in range(1, n + 1) if var(cell, d, n) in true) for cell in range(n * n)
            )
            found.append(grid)
            s.add_clause(list(blocking_clause(grid, n)))
    return sorted(found)


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_the_cnf_has_exactly_the_puzzles_solutions(entry: Entry):
    # every rule of the catalogue, alone and mixed, on 4x4 and 5x5: counted by enumeration
    assert cnf_solutions(entry.puzzle) == solutions(entry.puzzle)


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.count <= 1], ids=str)
def test_every_unique_and_none_catalogue_verdict_is_certified_and_verifies(entry: Entry):
    puzzle = entry.puzzle
    claim = "unique" if entry.count == 1 else "none"
    made = make(puzzle, claim, solutions(puzzle))
    assert made.data is not None, made.reason
    assert verify(json.loads(json.dumps(made.data))) is None


def _certify_run(tmp_path: Path, inputs, **kwargs) -> list:
    folder = tmp_path / "certs"
    records = list(check_puzzles(inputs, ["backtrack", "sat"], certify=str(folder), **kwargs))
    for record in records:
        assert record.certificate is not None
        assert record.certificate["certified"], (record.id, record.verdict, record.certificate)
        data = load(Path(record.certificate["path"]))
        assert data["claim"] == record.verdict.value
        assert verify(data) is None
    return records


@pytest.mark.parametrize(
    ("model", "size", "box"),
    [
        ("classic", 4, None),
        ("classic", 6, None),
        ("classic", 6, "3x2"),
        ("x", 9, None),
        ("hyper", 9, None),
        ("latin", 5, None),
        ("antiknight", 9, None),
        ("nonconsecutive", 6, None),
    ],
)
def test_unique_and_none_verdicts_of_every_model_are_certified(tmp_path, model, size, box):
    chosen = load_model(model, box=box)
    grid = get_backend("backtrack").solve(Puzzle([0] * size * size, chosen)).solution
    none = none_puzzle(size)
    if model == "nonconsecutive":
        # none_puzzle's 2..n side by side break the rule on their own (invalid, issue 35's one
        # rule for givens): the same row of 2..n, no two consecutive digits side by side.
        none[1:size] = [2, 4, 6, 3, 5]
    puzzles = [Puzzle(unique_from(tuple(grid), size), chosen), Puzzle(none, chosen)]
    records = _certify_run(tmp_path, puzzles, jobs=0, model=chosen)
    assert [r.verdict.value for r in records] == ["unique", "none"]


def test_a_model_file_of_custom_groups_is_certified(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        'groups = ["rows", "columns"]\n[[windows]]\nrow = 0\ncol = 0\nheight = 2\nwidth = 2\n'
        "[[cells]]\ncells = [[0, 3], [1, 2], [2, 1], [3, 0]]\n"
    )
    model = load_model(str(path))
    grid = get_backend("backtrack").solve(Puzzle([0] * 16, model)).solution
    records = _certify_run(tmp_path, [Puzzle(unique_from(grid, 4), model)], jobs=0, model=model)
    assert records[0].verdict.value == "unique"
    data = load(Path(records[0].certificate["path"]))
    assert data["model"]["data"]["windows"] == [{"row": 0, "col": 0, "height": 2, "width": 2}]


@pytest.mark.slow
def test_bundled_classic_jigsaw_and_killer_puzzles_are_certified_in_workers(tmp_path):
    inputs = [
        *list(read_input(str(DATA / "17clue.csv")))[:6],
        *list(read_input(str(DATA / "jigsaw.csv")))[:3],
        *list(read_input(str(DATA / "killer.jsonl")))[:3],
    ]
    records = _certify_run(tmp_path, inputs, jobs=2)
    assert {r.verdict.value for r in records} == {"unique"}
    killer = [load(Path(r.certificate["path"])) for r in records if "killer" in r.id]
    assert killer and all(data["model"]["rules"][0]["key"] == "killercage" for data in killer)


@pytest.mark.slow
def test_a_16x16_puzzle_is_certified(tmp_path):
    inputs = list(read_input(str(DATA / "16x16.csv")))[:1]
    _certify_run(tmp_path, inputs, jobs=0)


def test_a_multiple_verdict_is_certified_by_its_two_witnesses(tmp_path):
    records = _certify_run(tmp_path, ["12.............."], jobs=0)
    data = load(Path(records[0].certificate["path"]))
    assert data["claim"] == "multiple" and len(data["solutions"]) == 2 and "proof" not in data


def test_a_verdict_with_nothing_to_prove_is_marked_not_certified(tmp_path):
    [record] = check_puzzles(["1..1"], ["backtrack"], jobs=0, certify=str(tmp_path))
    assert record.verdict.value == "invalid"
    assert record.certificate == {"certified": False, "reason": "invalid: nothing to certify"}


# --- a wrong verdict gets no certificate --------------------------------------------------------
def test_a_unique_claim_for_a_puzzle_with_two_solutions_is_not_certified():
    puzzle = Puzzle.parse("12..............")
    one = get_backend("backtrack").solve(puzzle, limit=1).solution
    made = make(puzzle, "unique", [one])
    assert made.data is None
    assert made.reason == "the CNF is satisfiable: the unique verdict is wrong"


def test_a_lying_backend_s_unique_verdict_gets_no_certificate(tmp_path, registered):
    from fault_backends import FalselyUnique

    registered(FalselyUnique)
    [record] = check_puzzles(
        ["12.............."], ["test-falsely-unique"], jobs=0, certify=str(tmp_path)
    )
    assert record.verdict.value == "unique"  # the lie gets through the cross-check alone …
    assert record.certificate is not None and not record.certificate["certified"]  # … not here
    assert "unique verdict is wrong" in record.certificate["reason"]
    assert not list(tmp_path.glob("*.cert.gz"))


def test_a_none_claim_for_a_solvable_puzzle_is_not_certified():
    puzzle = Puzzle.parse(INKALA)
    made = make(puzzle, "none", [])
    assert made.reason == "the CNF is satisfiable: the none verdict is wrong"


def test_a_wrong_solution_is_not_certified():
    puzzle = Puzzle.parse(INKALA)
    good = list(get_backend("backtrack").solve(puzzle).solution)
    free = [c for c, d in enumerate(puzzle.cells) if not d]
    good[free[0]], good[free[1]] = good[free[1]], good[free[0]]
    made = make(puzzle, "unique", [good])
    assert made.data is None and made.reason.startswith("the solution is wrong: ")


def test_a_rule_the_encoder_cannot_express_is_not_certified():
    from dataclasses import dataclass
    from typing import ClassVar

    from sudoku_cp.rules import Rule

    @dataclass(frozen=True)
    class Mystery(Rule):
        key: ClassVar[str] = "mystery"
        title: ClassVar[str] = "mystery"

    model = load_model("classic").with_rules(rules=[Mystery()], size=4)
    with pytest.raises(Unencodable, match="cannot express the mystery rule"):
        encode(Puzzle([0] * 16, model))


def test_a_grid_too_large_for_the_encoder_is_refused_with_the_cap():
    with pytest.raises(Unencodable, match=f"a 36x36 grid .* cap of {MAX_CLAUSES:,}"):
        encode(Puzzle([0] * 36**2))
    made = make(Puzzle([0] * 36**2), "none", [])
    assert made.data is None and "above the certificates' cap" in made.reason


def test_a_refutation_beyond_the_solver_budget_is_not_certified(monkeypatch):
    from sudoku_cp.certify import proof

    puzzle = Puzzle.parse(INKALA)  # CaDiCaL needs a few conflicts for it
    solution = get_backend("backtrack").solve(puzzle).solution
    monkeypatch.setattr(proof, "MAX_CONFLICTS", 1)
    made = make(puzzle, "unique", [solution])
    assert made.reason == "no refutation within the solver's budget of 1 conflicts"


# --- tampering ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("certs")
    [record] = check_puzzles([INKALA], ["backtrack"], jobs=0, certify=str(folder))
    return Path(record.certificate["path"])


def _tampered(stored: Path, tmp_path: Path, change) -> Path:
    data = load(stored)
    change(data)
    path = tmp_path / "tampered.cert.gz"
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    return path


def _flip_a_lemma(data: dict) -> None:
    lines = data["proof"].splitlines()
    at = next(i for i, line in enumerate(lines) if not line.startswith("d") and len(line) > 8)
    lines[at] = " ".join(str(-int(x)) for x in lines[at].split()[:-1]) + " 0"
    data["proof"] = "\n".join(lines) + "\n"


def _drop_the_blocking_clause(data: dict) -> None:
    lines = data["cnf"].splitlines()
    count = int(lines[0].split()[3])
    data["cnf"] = "\n".join([f"p cnf {lines[0].split()[2]} {count - 1}", *lines[1:-1]]) + "\n"


def _change_a_given(data: dict) -> None:
    text = data["puzzle"]
    data["puzzle"] = "9" + text[1:]  # INKALA's first given is 8


def _blank_a_given(data: dict) -> None:
    data["puzzle"] = "." + data["puzzle"][1:]


def _wrong_solution(data: dict) -> None:
    line = data["solutions"][0]
    free = [i for i, ch in enumerate(INKALA) if ch == "."]
    a, b = next((a, b) for a in free for b in free if line[a] != line[b])
    swapped = list(line)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    data["solutions"] = ["".join(swapped)]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (_flip_a_lemma, "the proof is rejected: "),
        (_drop_the_blocking_clause, "the stored CNF is not the puzzle's CNF with its solution"),
        (_change_a_given, "the solution is wrong: r1c1 is 8 but the given is 9"),
        (_blank_a_given, "the stored CNF is not the puzzle's CNF"),
        (_wrong_solution, "the solution is wrong: "),
        (lambda d: d.update(proof=""), "the proof is rejected: "),
        (lambda d: d.update(claim="none", solutions=[]), "the stored CNF is not the puzzle's"),
        (lambda d: d.update(size=4), "its size field says 4, but its puzzle is 9x9"),
    ],
    ids=["flipped-lemma", "no-blocking-clause", "changed-given", "blanked-given",
         "wrong-solution", "empty-proof", "claim-changed", "size-changed"],
)  # fmt: skip
def test_a_tampered_certificate_is_rejected_with_its_reason(stored, tmp_path, change, reason):
    assert verify(load(stored)) is None
    path = _tampered(stored, tmp_path, change)
    why = verify(load(path))
    assert why is not None and why.startswith(reason), why
    result = run("certificate", "verify", str(path), "-j", "0")
    assert result.exit_code == 1
    assert result.stdout == f"{path}: rejected: {why}\n"


def test_verify_says_verified_and_exits_0(stored):
    result = run("certificate", "verify", str(stored.parent))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{stored}: verified (unique)\n"


def test_a_folder_without_certificates_is_one_line_and_exit_2(tmp_path):
    result = run("certificate", "verify", str(tmp_path), "-q", "-j", "0")
    assert result.exit_code == 2
    assert error_line(result).endswith(f"{tmp_path}: a folder without any *.cert.gz certificate")


# mtime=0: the same bytes, so the same test ids, in every pytest-xdist worker (gzip's header
# holds the time of compression, and workers that collect different ids refuse to run).
@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "no such file"),
        (b"not gzip", "not a gzip-compressed certificate"),
        (gzip.compress(b"[1]", mtime=0), "not a sudoku-cp certificate"),
        (gzip.compress(b"{", mtime=0), "not a certificate (not JSON)"),
    ],
)
def test_a_file_that_is_no_certificate_is_one_line_and_exit_2(tmp_path, content, reason):
    path = tmp_path / "x.cert.gz"
    if content is not None:
        path.write_bytes(content)
    result = run("certificate", "verify", str(path), "-q", "-j", "0")
    assert result.exit_code == 2
    assert reason in error_line(result)


# --- the command line ---------------------------------------------------------------------------
def test_check_certify_writes_certificates_and_records_that_verify(tmp_path):
    out, certs = tmp_path / "r.jsonl", tmp_path / "certs"
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{INKALA}\n{''.join(map(str, none_puzzle(4)))}\n12..............\n")
    result = run("check", str(puzzles), "-b", "backtrack,sat", "-j", "0", "-o", str(out),
                 "--certify", str(certs))  # fmt: skip
    assert result.exit_code == 1, result.output
    records = sorted(jsonl(out.read_text()), key=lambda r: r["index"])
    assert [r["verdict"] for r in records] == ["unique", "none", "multiple"]
    assert all(r["certified"] for r in records)
    import hashlib

    for record in records:
        path = Path(record["certificate"]["path"])
        assert hashlib.sha256(path.read_bytes()).hexdigest() == record["certificate"]["sha256"]
    assert "certified 3, not certified 0" in result.output
    verified = run("certificate", "verify", str(certs), "-j", "2")  # in worker processes
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.splitlines() == [
        f"{certs / f'{i:07d}.cert.gz'}: verified ({claim})"
        for i, claim in enumerate(["unique", "none", "multiple"], start=1)
    ]
    assert verified.stderr == "3 verified, 0 rejected, 0 unreadable\n"
    # --resume with another folder is refused: the records would point at two places
    again = run("check", str(puzzles), "-b", "backtrack,sat", "-j", "0", "-o", str(out),
                "--resume", "--certify", str(tmp_path / "other"))  # fmt: skip
    assert again.exit_code == 2 and "certify" in error_line(again)


def test_check_certify_resumes_certifying_what_is_left(tmp_path):
    out, certs = tmp_path / "r.jsonl", tmp_path / "certs"
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{INKALA}\n12..............\n")
    args = ["check", str(puzzles), "-b", "backtrack", "-j", "0", "-o", str(out)]
    assert run(*args, "--certify", str(certs)).exit_code == 1
    lines = out.read_text().splitlines()
    out.write_text(next(line for line in lines if '"index":1' in line) + "\n")
    for path in certs.iterdir():
        path.unlink()
    assert run(*args, "--certify", str(certs), "--resume").exit_code == 1
    assert [p.name for p in certs.iterdir()] == ["0000002.cert.gz"]  # only the one re-checked
    assert len(out.read_text().splitlines()) == 2


def test_without_dratify_certify_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "dratify", None)  # what a missing package looks like
    result = run("check", INKALA, "-b", "backtrack", "--certify", str(tmp_path))
    assert result.exit_code == 2
    assert error_line(result) == (
        "sudoku-cp: error: certificates need the proof checker dratify: "
        "pip install 'sudoku-cp[certify]'"
    )
    result = run("certificate", "verify", str(tmp_path))
    assert result.exit_code == 2 and "pip install 'sudoku-cp[certify]'" in error_line(result)


def test_a_certify_folder_that_is_a_file_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run("check", INKALA, "-b", "backtrack", "--certify", str(blocker))
    assert result.exit_code == 2
    assert error_line(result).endswith("exists and is not a folder")


def test_records_keep_their_certificate_through_json():
    from sudoku_cp.verdict import CheckRecord

    [record] = check_puzzles(["12.............."], ["backtrack"], jobs=0)
    record.certificate = {"certified": True, "path": "x", "sha256": "00"}
    data = record.to_dict()
    assert data["certified"] is True and data["certificate"] == {"path": "x", "sha256": "00"}
    assert CheckRecord.from_dict(data).certificate == record.certificate
    record.certificate = None
    assert "certified" not in record.to_dict()
