"""`sudoku-cp bench` end to end, on tiny datasets with real backends (no timing asserts)."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from fault_backends import Liar, Sleeper
from puzzles import EULER, EULER_SOLUTION, SERG

from sudoku_cp.bench.record import BenchConfig
from sudoku_cp.bench.report import COLUMNS, load_results
from sudoku_cp.bench.run import run_bench
from sudoku_cp.bench.specs import parse_specs
from sudoku_cp.cli import main

# Two unique easy puzzles (Project Euler 96) and one with 872 solutions (serg's benchmark).
EULER_2 = "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3"
TINY = f"id,puzzle\neasy1,{EULER}\neasy2,{EULER_2}\nmany,{SERG}\n"
SPECS = "backtrack:naive,backtrack,dlx"
HAVE_PYARROW = importlib.util.find_spec("pyarrow") is not None


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.csv"
    path.write_text(TINY, encoding="utf-8")
    return path


def bench(*args: str) -> object:
    return CliRunner().invoke(main, ["bench", *args])


def read_rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "results.csv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_bench_end_to_end_writes_table_record_and_summary(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = bench(
        str(tiny),
        "--backends",
        SPECS,
        "--repeat",
        "2",
        "--time-limit",
        "20",
        "--output",
        str(out),
        "--baseline",
        "dlx",
    )
    assert result.exit_code == 0, result.output
    rows = read_rows(out)
    assert len(rows) == 3 * 3 * 2  # puzzles × backend specs × repeats
    header = list(rows[0])
    assert header[: len(COLUMNS)] == list(COLUMNS)
    assert {"nodes"} <= set(header) - set(COLUMNS)  # one column per counter
    assert {r["strategy"] for r in rows if r["backend"] == "backtrack"} >= {"naive"}
    assert {r["strategy"] for r in rows if r["backend"] == "dlx"} == {""}
    assert {(r["puzzle_id"], r["verdict"]) for r in rows} == {
        ("easy1", "unique"),
        ("easy2", "unique"),
        ("many", "multiple"),
    }
    assert all(r["valid"] == "true" and r["agrees"] == "true" for r in rows)
    assert {r["status"] for r in rows if r["puzzle_id"] == "many"} == {"multiple"}

    record = json.loads((out / "record.json").read_text(encoding="utf-8"))
    for key in ("versions", "options", "machine", "datasets", "seed", "backends", "overheads"):
        assert record[key] is not None, key
    assert record["datasets"][0]["sha256"] and record["datasets"][0]["puzzles"] == 3
    assert record["options"]["repeat"] == 2 and record["options"]["limit"] == 2
    assert record["options"]["baseline"] == "dlx"
    assert record["table"]["rows"] == 18
    assert [b["label"] for b in record["backends"]] == [
        "backtrack:naive",
        "backtrack:" + rows[2]["strategy"],
        "dlx",
    ]
    assert "import_s" in record["overheads"]["backends"]["dlx"]
    assert (out / "summary.txt").read_text(encoding="utf-8") in result.output
    assert "median ms" in result.output and "p90 ms" in result.output
    assert "DISAGREEMENTS" not in result.output
    # with pyarrow (the test extra has it) the same table is written as Parquet too
    assert (out / "results.parquet").exists() == HAVE_PYARROW
    if HAVE_PYARROW:
        assert load_results(out / "results.parquet").rows == load_results(out).rows


@pytest.mark.slow
def test_replay_reproduces_statuses_and_counters(tiny: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    assert bench(str(tiny), "-b", "backtrack:mrv,dlx", "-o", str(first)).exit_code == 0
    result = bench("--replay", str(first / "record.json"), "-o", str(second))
    assert result.exit_code == 0, result.output
    assert "have the record's statuses and counters" in result.output
    # and a record that no longer matches is told apart (the check above passes without any
    # comparison): one measurement's node count changed in the saved table
    table = first / "results.csv"
    with table.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    rows[0]["nodes"] = str(int(rows[0]["nodes"]) + 1)
    with table.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    changed = bench("--replay", str(first / "record.json"), "-o", str(tmp_path / "third"))
    assert changed.exit_code == 1, changed.output
    assert "replay: 1 difference(s) in statuses or counters" in changed.output


def test_every_strategy_with_all_or_star() -> None:
    labels = [s.label for s in parse_specs("backtrack:all")]
    assert labels == [s.label for s in parse_specs("backtrack:*")]
    assert {"backtrack:naive", "backtrack:ordered", "backtrack:mrv"} <= set(labels)


def test_injected_wrong_backend_shows_up_as_disagreement(
    tiny: Path, tmp_path: Path, registered
) -> None:
    registered(Liar)
    result = bench(str(tiny), "-b", "dlx,test-liar", "-o", str(tmp_path / "out"))
    assert result.exit_code == 3, result.output
    assert "DISAGREEMENTS on tiny" in result.output
    assert "test-liar (repeat 1)" in result.output and "fails the validator" in result.output
    rows = read_rows(tmp_path / "out")
    liar = [r for r in rows if r["backend"] == "test-liar"]
    assert all(r["valid"] == "false" and r["agrees"] == "false" for r in liar)
    assert {r["verdict"] for r in rows} == {"disagreement"}


@pytest.mark.slow
def test_backend_ignoring_its_deadline_is_stopped_and_the_bench_goes_on(
    tiny: Path, tmp_path: Path, registered
) -> None:
    registered(Sleeper)
    config = BenchConfig(datasets=[str(tiny)], backends=["test-sleeper,dlx"], time_limit=0.2)
    run = run_bench(config)
    sleeper = [r for r in run.rows if r["backend"] == "test-sleeper"]
    assert [r["status"] for r in sleeper] == ["timeout"] * 3
    assert all("worker stopped" in r["note"] for r in sleeper)
    assert [r["status"] for r in run.rows if r["backend"] == "dlx"] == [
        "unique",
        "unique",
        "multiple",
    ]


def test_list_names_the_bundled_sets_with_counts() -> None:
    result = bench("--list")
    assert result.exit_code == 0
    for name in ("17clue", "top1465", "forum-hardest", "easy", "multiple", "16x16"):
        assert name in result.output
    assert "100" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "no dataset given"),
        (["nosuch-set"], "no puzzle file or bundled set named 'nosuch-set'"),
        (["easy", "--limit", "0"], "--limit"),
        (["easy", "--repeat", "0"], "--repeat"),
        (["easy", "--time-limit", "-1"], "--time-limit"),
        (["easy", "--jobs", "0"], "--jobs"),
        (["easy", "--frobnicate"], "--frobnicate"),
        (["easy", "-b", "nosuch"], "unknown backend 'nosuch'"),
        (["easy", "-b", "backtrack:nosuch"], "nosuch"),
        (["easy", "-b", "dlx:fast"], "has no strategies"),
        (["easy", "-b", "dlx,dlx"], "named twice"),
        (["easy", "-b", "dlx", "-O", "workers=2"], "BACKEND.KEY=VALUE"),
        (["easy", "-b", "dlx", "--baseline", "backtrack"], "not among the measured"),
        (["--replay", "/no/such/record.json"], "cannot read record"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without -o a bench makes bench-results/DATE-TIME in the working folder, some of these
    # before they are refused: the test's own folder, not the checkout other workers share.
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["bench", *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    # Before: a refusal after the output was claimed left an empty bench-results/DATE-TIME.
    assert list(tmp_path.iterdir()) == []


def test_known_answers_in_the_dataset_are_checked(tmp_path: Path) -> None:
    """A stated solution or solution count the backends agree against is still flagged (this
    was only checked on a dataset whose stated solution agrees, which passes unchecked too)."""
    rotated = EULER_SOLUTION[::-1]  # a valid grid, but not EULER's solution
    data = tmp_path / "known.csv"
    data.write_text(
        "id,puzzle,solution,solution_count\n"
        f"right,{EULER},{EULER_SOLUTION},\n"
        f"wrong,{EULER},{rotated},\n"
        f"count,{SERG},,1\n",
        encoding="utf-8",
    )
    run = run_bench(BenchConfig(datasets=[str(data)], backends=["dlx"]))
    by = {r["puzzle_id"]: r for r in run.rows}
    assert by["right"]["verdict"] == "unique" and by["right"]["agrees"] is True
    assert by["wrong"]["verdict"] == "disagreement" and by["wrong"]["agrees"] is False
    # (the stated solution is the puzzle's published one: the cross-check compares it)
    assert by["wrong"]["note"].startswith("the published solution breaks the puzzle as read")
    assert by["count"]["verdict"] == "disagreement"
    assert "the input states 1 solution, the backends found multiple" in by["count"]["note"]


def test_a_variant_set_is_measured_with_each_puzzles_own_rules(tmp_path: Path) -> None:
    """Killer cages travel with each puzzle to the workers (they were lost on the way, so every
    backend solved a blank grid and every answer failed the validator)."""
    lines = (REPO / "sudoku_cp" / "data" / "killer.jsonl").read_text().splitlines()
    data = tmp_path / "killer.jsonl"
    data.write_text("\n".join(lines[:2] + lines[-1:]) + "\n", encoding="utf-8")
    stated = [json.loads(line)["solution_count"] for line in lines[:2] + lines[-1:]]
    run = run_bench(BenchConfig(datasets=[str(data)], backends=["backtrack", "sat", "dlx"]))
    verdicts = [r["verdict"] for r in run.rows if r["backend"] == "sat"]
    assert verdicts == ["unique" if n == 1 else "multiple" for n in stated]
    assert all(r["agrees"] for r in run.rows if r["backend"] != "dlx")
    assert {r["status"] for r in run.rows if r["backend"] == "dlx"} == {"unsupported"}
    # the start-up probe solves the same puzzle, and says dlx does not take it (not an error)
    probe = run.record["overheads"]["backends"]
    assert "killercage" in probe["dlx"]["unsupported"] and "error" not in probe["dlx"]
    assert probe["sat"]["warm_solve_s"] > 0


def test_puzzles_sharing_an_id_are_measured_and_summarised_apart(tmp_path: Path) -> None:
    """A dataset whose id column repeats (here three puzzles named alike: unique, multiple,
    unique) was summarised as one puzzle measured three times ("1 puzzles", one verdict, a
    repeat spread), and its rows could not be told apart: ids are unique within a dataset."""
    from sudoku_cp.bench.report import summarize

    data = tmp_path / "same.csv"
    data.write_text(f"id,puzzle\nx,{EULER}\nx,{SERG}\nx,{EULER_2}\n", encoding="utf-8")
    run = run_bench(BenchConfig(datasets=[str(data)], backends=["backtrack"]))
    assert [r["puzzle_id"] for r in run.rows] == ["x", "x-2", "x-3"]
    [summary] = summarize(run.rows)
    assert summary.puzzles == 3
    assert summary.verdicts == {"unique": 2, "multiple": 1}
    assert summary.backends[0].spread is None  # one repeat each: no spread between puzzles


def test_a_bench_into_an_earlier_bench_folder_leaves_none_of_its_figures(
    tiny: Path, tmp_path: Path
) -> None:
    """The figures of an earlier bench in the same --output stayed beside a table that no
    longer held their dataset; a file of the user's in plots/ stays."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "run"
    assert bench(str(tiny), "-b", "backtrack,dlx", "-o", str(out), "--plot").exit_code == 0
    drawn = sorted(p.name for p in (out / "plots").iterdir())
    assert "cactus-tiny.png" in drawn
    other = tmp_path / "other.csv"
    other.write_text(f"id,puzzle\neasy1,{EULER}\n", encoding="utf-8")
    assert bench(str(other), "-b", "backtrack", "-o", str(out)).exit_code == 0
    assert not (out / "plots").exists()
    assert bench(str(tiny), "-b", "backtrack,dlx", "-o", str(out), "--plot").exit_code == 0
    (out / "plots" / "notes.txt").write_text("mine")
    assert bench(str(other), "-b", "backtrack", "-o", str(out), "--plot").exit_code == 0
    assert sorted(p.name for p in (out / "plots").iterdir()) == sorted(
        [
            "notes.txt",
            *(f"{kind}-other.{fmt}" for kind in ("cactus", "effort") for fmt in ("png", "svg")),
        ]
    )
