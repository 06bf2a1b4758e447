"""`sudoku-cp generate` as a user meets it: every puzzle re-read from the written output and
re-checked unique by `check`'s API with two other paradigms, minimality re-proven by removing
each given (with a backend the generator does not count with), symmetry and clue counts
re-checked with code of this file, the same seed giving the same bytes, bad options refused
in one line."""

from __future__ import annotations

import json

import pytest
from clitools import error_line, run

from sudoku_cp import solve
from sudoku_cp.batch import check_puzzles
from sudoku_cp.formats import read_input
from sudoku_cp.model import load_model


def generated(*args: str) -> str:
    result = run("generate", "-q", *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def read_back(text: str, model: str = "classic", box: str | None = None) -> list:
    """The puzzles as `check` reads the written file."""
    records = list(read_input(text, model=load_model(model, box=box)))
    assert all(r.puzzle is not None for r in records), [r.error for r in records]
    return [r.puzzle for r in records]


def assert_unique(puzzles: list, backends: str) -> None:
    records = list(check_puzzles(puzzles, backends, jobs=0, time_limit=60))
    assert [r.verdict.value for r in records] == ["unique"] * len(puzzles)


def assert_minimal(puzzle, backend: str = "sat") -> None:
    """No given can go: without any one of them the puzzle has a second solution."""
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            cells = list(puzzle.cells)
            cells[cell] = 0
            reduced = puzzle.with_cells(cells) if not puzzle.model.own else None
            if reduced is None:
                from sudoku_cp.puzzle import Puzzle

                reduced = Puzzle.from_parsed(tuple(cells), puzzle.size, puzzle.model)
            result = solve(reduced, backend=backend, limit=2)
            assert result.status.value == "multiple", (puzzle, cell)


@pytest.mark.parametrize(
    ("args", "model", "box"),
    [
        (["-s", "4"], "classic", None),
        (["-s", "6"], "classic", None),
        (["-s", "6", "--box", "3x2"], "classic", "3x2"),
        (["-s", "8"], "classic", None),
        ([], "classic", None),
        (["-m", "x"], "x", None),
        (["-m", "hyper"], "hyper", None),
    ],
)
def test_classic_family_puzzles_are_unique_and_minimal(args, model, box) -> None:
    text = generated("-n", "6", "--seed", "11", "--minimal", *args)
    puzzles = read_back(text, model, box)
    assert len(puzzles) == 6
    assert_unique(puzzles, "dlx,sat")
    for puzzle in puzzles[:3]:
        assert_minimal(puzzle)


def test_16x16_puzzle_is_unique() -> None:
    text = generated("-s", "16", "-n", "1", "--seed", "2")
    (puzzle,) = read_back(text)
    assert puzzle.size == 16
    assert_unique([puzzle], "sat,dlx")


@pytest.mark.slow
def test_a_16x16_count_that_ran_for_minutes_is_cut_by_its_node_budget() -> None:
    """Puzzle 28 of seed 3 once sat for minutes in one uniqueness count of the carve."""
    pytest.importorskip("numba")
    from sudoku_cp.generate import Options, make

    made = make(Options(size=16, seed=3, rate=False), 28)
    assert_unique([made.puzzle], "sat,dlx")


def test_a_batch_of_classic_puzzles_all_unique_with_no_repeats() -> None:
    puzzles = read_back(generated("-n", "60", "--seed", "4"))
    assert len({p.cells for p in puzzles}) == 60
    assert_unique(puzzles, "dlx,sat")


def _mirror_images(cell: int, n: int) -> dict[str, int]:
    r, c = divmod(cell, n)
    return {
        "rotational": (n - 1 - r) * n + (n - 1 - c),
        "diagonal": c * n + r,
        "mirror": r * n + (n - 1 - c),
        "quarter": c * n + (n - 1 - r),
    }


@pytest.mark.parametrize("symmetry", ["rotational", "diagonal", "mirror", "quarter"])
def test_symmetry_of_the_givens(symmetry: str) -> None:
    puzzles = read_back(generated("-n", "4", "--seed", "5", "--symmetry", symmetry))
    assert_unique(puzzles, "dlx,sat")
    for puzzle in puzzles:
        for cell in range(81):
            image = _mirror_images(cell, 9)[symmetry]
            assert bool(puzzle.cells[cell]) == bool(puzzle.cells[image]), (symmetry, cell)


def test_clue_targets() -> None:
    exact = read_back(generated("-n", "4", "--seed", "6", "--clues", "32"))
    assert [p.givens_count for p in exact] == [32] * 4
    ranged = read_back(generated("-n", "4", "--seed", "6", "--clues", "22-24", "--minimal"))
    assert all(22 <= p.givens_count <= 24 for p in ranged)
    assert_unique(exact + ranged, "dlx,sat")
    for puzzle in ranged:
        assert_minimal(puzzle)


def test_a_clue_range_spreads_over_the_range() -> None:
    # Without --minimal the carving stopped at the range's top: 24-32 made only 32s.
    spread = read_back(generated("-n", "8", "--seed", "3", "--clues", "24-32"))
    counts = [p.givens_count for p in spread]
    assert all(24 <= n <= 32 for n in counts) and len(set(counts)) >= 3, counts
    assert_unique(spread, "dlx,sat")


LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_is_reached_and_the_record_is_the_rating(level: str) -> None:
    """The record's level, score and hardest technique are what ``rate_puzzle`` says of the
    puzzle read back from the output, and the level is the one asked for."""
    from sudoku_cp.logic.rating import rate_puzzle

    text = generated("-n", "2", "--seed", "3", "--difficulty", level.lower(), "-f", "jsonl")
    records = [json.loads(line) for line in text.splitlines()]
    assert len(records) == 2
    for record in records:
        (puzzle,) = read_back(record["puzzle"])
        rating = rate_puzzle(puzzle)
        assert record["difficulty"] == {
            "level": level,
            "score": rating.score,
            "hardest": rating.hardest,
            "measure": "hodoku",
        }
        assert rating.level == level
    assert_unique([read_back(r["puzzle"])[0] for r in records], "dlx,sat")


def test_the_quick_test_only_rejects_puzzles_above_the_level() -> None:
    """``beyond(puzzle, L)`` (the restricted solve that rejects attempts early) is never true
    for a puzzle whose full rating is L or below, and does reject some."""
    from sudoku_cp.generate import Options, generate
    from sudoku_cp.generate.difficulty import beyond
    from sudoku_cp.logic.rating import rate_puzzle

    rejected = 0
    for made in generate(Options(seed=12, rate=False), 16):
        rank = LEVELS.index(rate_puzzle(made.puzzle).level)
        for below, level in enumerate(LEVELS[:-1]):
            if beyond(made.puzzle, level):
                rejected += 1
                assert rank > below, (made.puzzle.to_line(), level)
    assert rejected > 0


def test_a_score_range_is_met_and_csv_carries_the_rating() -> None:
    from sudoku_cp.logic.rating import rate_puzzle

    text = generated("-n", "2", "--seed", "5", "--score", "600-900", "-f", "csv")
    header, *rows = text.splitlines()
    columns = header.split(",")
    assert len(rows) == 2
    for row in rows:
        fields = dict(zip(columns, row.split(","), strict=True))
        (puzzle,) = read_back(fields["puzzle"])
        rating = rate_puzzle(puzzle)
        assert 600 <= rating.score <= 900
        assert (fields["level"], int(fields["score"]), fields["hardest"]) == (
            rating.level,
            rating.score,
            rating.hardest,
        )


def test_models_with_rules_are_rated_with_the_variant_steps() -> None:
    # issue 31: every rule kind has logic steps, so such a record is rated too, and says on
    # which scale (HoDoKu's with the variant steps on our own, docs/logic-variants.md)
    from sudoku_cp.logic.rating import rate_puzzle

    (line,) = generated("-m", "antiknight", "-n", "1", "--seed", "2", "-f", "jsonl").splitlines()
    record = json.loads(line)
    rated = record["difficulty"]
    assert rated["measure"] == "hodoku+rules"
    (puzzle,) = read_back(record["puzzle"], model="antiknight")
    rating = rate_puzzle(puzzle)
    assert (rated["level"], rated["score"], rated["hardest"]) == (
        rating.level,
        rating.score,
        rating.hardest,
    )


def test_same_seed_same_bytes_also_with_two_jobs() -> None:
    args = ("-n", "10", "--seed", "99", "-f", "line")
    first, second = generated(*args), generated(*args)
    assert first == second
    assert generated(*args, "--jobs", "2") == first
    assert generated("-n", "10", "--seed", "98") != first


def test_records_say_seed_judges_and_times() -> None:
    (line,) = generated("-n", "1", "--seed", "3", "-f", "jsonl").splitlines()
    record = json.loads(line)
    assert record["seed"] == "3:1" and record["verdict"] == "unique"
    assert set(record["backends"]) == {"backtrack", "sat"}
    assert all(r["status"] == "unique" and r["seconds"] >= 0 for r in record["backends"].values())
    (puzzle,) = read_back(record["puzzle"])
    assert puzzle.is_solution(tuple(int(d) for d in record["solution"]))


@pytest.mark.parametrize("fmt", ["line", "pretty", "rows", "json", "fpuzzles", "jsonl", "csv"])
def test_every_output_form_reads_back_as_the_same_puzzle(fmt: str) -> None:
    lines = generated("-n", "2", "--seed", "8", "-f", "line").splitlines()
    text = generated("-n", "2", "--seed", "8", "-f", fmt)
    if fmt in ("pretty", "rows"):
        chunks = [c for c in text.split("\n\n") if c.strip()]
        puzzles = [read_back(c)[0] for c in chunks]
    elif fmt == "fpuzzles":
        puzzles = [read_back(c)[0] for c in text.splitlines()]
    else:
        puzzles = read_back(text)
    assert [p.to_line() for p in puzzles] == lines


def _connected(cells: list[int], n: int) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    while todo:
        r, c = divmod(todo.pop(), n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            other = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and other in cells and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)


@pytest.mark.parametrize("size", [6, 9])
def test_jigsaw_regions_are_connected_with_n_cells_each(size: int) -> None:
    puzzles = read_back(generated("--variant", "jigsaw", "-s", str(size), "-n", "4", "--seed", "1"))
    assert_unique(puzzles, "dlx,sat")
    layouts = set()
    for puzzle in puzzles:
        regions = puzzle.model.regions
        assert regions is not None and len(regions) == size * size
        layouts.add(regions)
        for region in range(size):
            cells = [c for c, r in enumerate(regions) if r == region]
            assert len(cells) == size and _connected(cells, size)
    assert len(layouts) == 4


@pytest.mark.parametrize("variant", ["killer", "killer-givens"])
def test_killer_cages_are_valid_and_the_puzzle_unique(variant: str) -> None:
    text = generated("--variant", variant, "-n", "3", "--seed", "2", "-f", "jsonl")
    for line in text.splitlines():
        record = json.loads(line)
        (puzzle,) = read_back(record["puzzle"])
        solution = [int(d) for d in record["solution"]]
        cages = [r for r in puzzle.model.rules if r.key == "killercage"]
        covered = sorted(c for cage in cages for c in cage.cells)
        assert covered == list(range(81))
        for cage in cages:
            digits = [solution[c] for c in cage.cells]
            assert len(set(digits)) == len(digits) and sum(digits) == cage.total
            assert _connected(list(cage.cells), 9)
        if variant == "killer":
            assert puzzle.givens_count == 0
        assert_unique([puzzle], "cpsat,sat")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["-n", "0"], "--count"),
        (["-n", "2000000"], "--count"),
        (["-s", "36"], "--size 36"),
        (["-s", "5"], "needs boxes"),
        (["--symmetry", "spiral"], "--symmetry spiral"),
        (["--clues", "9-x"], "--clues"),
        (["--clues", "90"], "--clues 90-90"),
        (["--difficulty", "impossible"], "--difficulty impossible"),
        (["--score", "5-2000000"], "scores go up to 1,000,000"),
        (["--score", "1-x"], "--score"),
        (["--attempts", "0"], "--attempts"),
        (["--max-seconds", "1e9"], "--max-seconds"),
        (["--jobs", "100000"], "--jobs"),
        (["--variant", "killer", "--minimal"], "--minimal"),
        (["--variant", "jigsaw", "-f", "pretty"], "--format pretty"),
        (["--box", "3x2"], "3x2 boxes"),
        (["--backends", "sat"], "two backends"),
    ],
)
def test_bad_options_give_one_line(args: list[str], says: str) -> None:
    result = run("generate", *args)
    assert result.exit_code == 2
    assert says in error_line(result)


def test_an_unreachable_target_ends_with_a_message_and_exit_3() -> None:
    result = run("generate", "-q", "-n", "1", "--clues", "17", "--minimal", "--attempts", "3")
    assert result.exit_code == 3
    assert "targets not met after 3 attempt(s)" in result.stderr


@pytest.mark.parametrize("variant", ["thermo", "kropki", "xv"])
def test_marks_hold_in_the_solution_and_the_puzzle_is_unique(variant: str) -> None:
    (line,) = generated("--variant", variant, "-n", "1", "--seed", "4", "-f", "jsonl").splitlines()
    record = json.loads(line)
    (puzzle,) = read_back(record["puzzle"])
    solution = tuple(int(d) for d in record["solution"])
    rules = puzzle.model.rules
    assert rules and {r.key for r in rules} <= {"thermometer", "difference", "ratio", "xv"}
    assert puzzle.is_solution(solution)  # every drawn rule holds in the solution
    assert_unique([puzzle], "backtrack,cpsat")


def test_certify_attaches_a_verified_certificate(tmp_path) -> None:
    folder = tmp_path / "certs"
    text = generated("-s", "4", "-n", "2", "--seed", "1", "--certify", str(folder), "-f", "jsonl")
    records = [json.loads(line) for line in text.splitlines()]
    assert [r["certified"] for r in records] == [True, True]
    result = run("certificate", "verify", str(folder))
    assert result.exit_code == 0 and result.stdout.count("verified (unique)") == 2
    # A second run into the same folder would replace certificates 1 and 2 (named by position).
    kept = {p.name: p.read_bytes() for p in folder.iterdir()}
    again = run("generate", "-s", "4", "-n", "2", "--seed", "2", "--certify", str(folder), "-q")
    assert again.exit_code == 2 and "already holds 2 certificates" in again.stderr
    assert again.stderr.rstrip().endswith("choose an empty folder")  # (generate: no --resume)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == kept


@pytest.mark.slow
def test_the_benchmark_runs_its_parts(capsys) -> None:
    from tools.perf import generate_speed

    results = generate_speed.main(["--only", "minimal", "--count", "3", "--jobs", "1"])
    assert results["minimal 9x9"] > 0
    assert "per CPU-second" in capsys.readouterr().out


def test_the_pure_search_makes_the_same_puzzles_as_the_kernel(monkeypatch) -> None:
    pytest.importorskip("numba")
    args = ("-n", "4", "--seed", "21")
    jigsaw = ("--variant", "jigsaw", "-s", "6", "-n", "2", "--seed", "21")
    with_kernel = generated(*args), generated(*jigsaw)
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "0")
    assert (generated(*args), generated(*jigsaw)) == with_kernel


def test_a_judge_that_cannot_take_the_rules_is_refused() -> None:
    # dlx takes no thermometers: the puzzle was written on sat's word alone, its record
    # saying dlx "unsupported" beside a verdict "unique" (not two paradigms).
    result = run("generate", "-q", "-s", "4", "--variant", "thermo", "-b", "dlx,sat")
    assert result.exit_code == 2, result.output
    assert "dlx cannot judge" in error_line(result)
    assert result.stdout == ""


def test_a_judge_out_of_time_leaves_the_puzzle_undecided() -> None:
    # One judge out of time: the puzzle was written with sat "timeout" in its record; both
    # out of time: "a generator bug, please report it", exit 2.
    result = run("generate", "-q", "--seed", "5", "--time-limit", "1e-9", "-f", "jsonl")
    assert result.exit_code == 3, result.output
    assert result.stdout == ""
    assert "not judged unique by both backends" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("model", ["antiking", "nonconsecutive"])
def test_a_model_with_no_4x4_grid_is_refused_at_once(model: str) -> None:
    # As --variant antiking -s 4 is: the model's own rule went through every attempt and
    # ended with exit 3, "no solved grid fits the drawn layout; loosen --clues…".
    result = run("generate", "-q", "-s", "4", "-m", model)
    assert result.exit_code == 2, result.output
    assert f"--model {model}: no 4x4 grid with 2x2 boxes" in error_line(result)


def test_csv_carries_the_jsonl_records_fields() -> None:
    """The docs say CSV is the JSON Lines record flattened, but it had no model, box, kind,
    symmetry, attempts or counted_by: a symmetry claim could not be checked from it."""
    import csv
    import io

    args = ("-s", "4", "--seed", "3", "--symmetry", "rotational")
    (record,) = [json.loads(line) for line in generated(*args, "-f", "jsonl").splitlines()]
    (row,) = list(csv.DictReader(io.StringIO(generated(*args, "-f", "csv"))))
    for key in ("model", "box", "kind", "symmetry", "attempts", "counted_by", "puzzle"):
        assert row[key] == ("" if record[key] is None else str(record[key])), key
    assert row["symmetry"] == "rotational"
