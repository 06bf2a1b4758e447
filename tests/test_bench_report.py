"""Result files, summaries and plots: from a saved bench, never by running it again."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudoku_cp.bench.record import BenchConfig, write_bench
from sudoku_cp.bench.report import (
    COLUMNS,
    compare_runs,
    load_results,
    quantile,
    render_summary,
    summarize,
    write_table,
)
from sudoku_cp.bench.run import run_bench
from sudoku_cp.cli import main

HAVE_PYARROW = importlib.util.find_spec("pyarrow") is not None

TINY = """id,puzzle,solution
e1,..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..,483921657967345821251876493548132976729564138136798245372689514814253769695417382
e2,2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3,
"""


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real bench, saved: two puzzles × two backend specs × two repeats."""
    folder = tmp_path_factory.mktemp("bench")
    data = folder / "tiny.csv"
    data.write_text(TINY, encoding="utf-8")
    run = run_bench(
        BenchConfig(
            datasets=[str(data)], backends=["backtrack:naive,dlx"], repeat=2, baseline="dlx"
        )
    )
    write_bench(run, folder / "run")
    return folder / "run"


def test_plot_draws_every_figure_from_a_saved_result_file(saved: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(main, ["plot", str(saved), "-o", str(tmp_path / "figs")])
    assert result.exit_code == 0, result.output
    assert "backtrack:naive" in result.output and "median ms" in result.output
    stems = ["cactus-tiny", "scatter-tiny-dlx-vs-backtrack-naive", "effort-tiny"]
    for stem in stems:
        png = (tmp_path / "figs" / f"{stem}.png").read_bytes()
        svg = (tmp_path / "figs" / f"{stem}.svg").read_text(encoding="utf-8")
        assert png.startswith(b"\x89PNG") and len(png) > 1000
        assert "<svg" in svg and len(svg) > 1000


def test_plot_options_scatter_format_and_markdown_table(saved: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "figs"
    result = CliRunner().invoke(
        main,
        [
            "plot",
            str(saved / "results.csv"),
            "-o",
            str(out),
            "--format",
            "png",
            "--scatter",
            "backtrack:naive,dlx",
            "--table",
            "markdown",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "| backend |" in result.output
    assert (out / "scatter-tiny-backtrack-naive-vs-dlx.png").stat().st_size > 0
    assert not list(out.glob("*.svg"))


def test_table_round_trip_csv_and_parquet(saved: Path) -> None:
    from_csv = load_results(saved)
    assert len(from_csv.rows) == 2 * 2 * 2
    assert from_csv.record is not None and from_csv.baseline == "dlx"
    row = from_csv.rows[0]
    assert list(row)[: len(COLUMNS)] == list(COLUMNS)
    assert isinstance(row["seconds"], float) and isinstance(row["repeat"], int)
    assert isinstance(row["valid"], bool) and isinstance(row["nodes"], int)
    assert (saved / "results.parquet").exists() == HAVE_PYARROW  # the test extra has it
    if HAVE_PYARROW:
        from_parquet = load_results(saved / "results.parquet")
        assert from_parquet.rows == from_csv.rows
        (saved / "results.csv").unlink()  # a folder with the Parquet table alone reads it
        assert load_results(saved).rows == from_csv.rows


def measurement(
    puzzle: str, backend: str, seconds: float, status: str = "unique", **extra: object
) -> dict[str, object]:
    row = {
        "dataset": "d",
        "puzzle_id": puzzle,
        "backend": backend,
        "strategy": "",
        "limit": 2,
        "repeat": 1,
        "status": status,
        "count": 1,
        "seconds": seconds,
        "exact": True,
        "valid": True,
        "verdict": "unique",
        "agrees": True,
        "note": "",
    }
    row.update(extra)
    return row


def test_summary_counts_timeouts_as_unsolved_and_flags_wrong_answers() -> None:
    rows = [measurement(str(i), "base", 0.010, nodes=100) for i in range(4)]
    rows += [measurement(str(i), "quick", 0.002, nodes=10) for i in range(3)]
    rows.append(measurement("3", "quick", 1.0, status="timeout", agrees=None))
    rows += [
        measurement(
            str(i), "liar", 0.001, valid=False, agrees=False, note="solution 1 fails the validator"
        )
        for i in range(2)
    ]
    [ds] = summarize(rows, baseline="base")
    by = {b.label: b for b in ds.backends}
    assert (by["quick"].solved, by["quick"].timeouts) == (3, 1)
    assert math.isclose(by["quick"].median, 0.002) and math.isinf(by["quick"].max)
    assert math.isclose(by["quick"].ratio, 5.0) and by["base"].ratio == 1.0
    assert by["base"].counters["nodes"] == 100
    assert by["liar"].wrong == 2 and by["liar"].solved == 0
    text = render_summary([ds])
    assert "DISAGREEMENTS on d" in text and "liar (repeat 1)" in text


def test_quantile_interpolates_and_keeps_infinity() -> None:
    assert quantile([1.0, 2.0, 3.0], 0.5) == 2.0
    assert math.isinf(quantile([1.0, 2.0, math.inf], 0.9))


def test_compare_runs_reports_changed_statuses_and_counters() -> None:
    old = [measurement("1", "b", 0.1, nodes=5)]
    same = [measurement("1", "b", 0.3, nodes=5)]  # timing aside
    changed = [measurement("1", "b", 0.1, status="timeout", nodes=6)]
    assert compare_runs(old, same, ["nodes"]) == []
    assert len(compare_runs(old, changed, ["nodes"])) == 2


def test_compare_runs_compares_only_the_status_of_a_measurement_that_timed_out_twice() -> None:
    # A replay of any bench with a timeout differed from its record (exit 1): the counters of
    # a measurement the clock stopped say only how far it got, which varies run to run.
    old = [measurement("1", "b", 0.3, status="timeout", nodes=1024)]
    again = [measurement("1", "b", 0.3, status="timeout", nodes=7680)]
    finished = [measurement("1", "b", 0.2, nodes=7680)]
    assert compare_runs(old, again, ["nodes"]) == []
    assert "status was timeout, now unique" in " ".join(compare_runs(old, finished, ["nodes"]))


def test_without_matplotlib_plot_says_how_to_install(saved: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the extra were not installed
    result = CliRunner().invoke(main, ["plot", str(saved)])
    assert result.exit_code == 2
    assert "pip install 'sudoku-cp[plot]'" in result.stderr
    table = CliRunner().invoke(main, ["plot", str(saved), "--no-figures"])
    assert table.exit_code == 0 and "median ms" in table.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/no/such/results"], "no result file"),
        (["{saved}", "--format", "gif"], "--format"),
        (["{saved}", "--scatter", "dlx"], "--scatter"),
        (["{saved}", "--scatter", "dlx,cpsat"], "no backend 'cpsat'"),
        (["{saved}", "--table", "html"], "--table"),
        # (accepted before, the ratio column left empty)
        (["{saved}", "--baseline", "zzz"], "--baseline zzz is none of the bench's backends"),
    ],
)
def test_plot_bad_arguments_give_one_line_and_exit_2(
    saved: Path, args: list[str], message: str
) -> None:
    pytest.importorskip("matplotlib")
    args = [a.format(saved=saved) for a in args]
    result = CliRunner().invoke(main, ["plot", *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_a_file_that_is_not_a_bench_table_is_refused(tmp_path: Path) -> None:
    (tmp_path / "results.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["plot", str(tmp_path), "--no-figures"])
    assert result.exit_code == 2 and "not a bench table" in result.stderr


def test_write_table_has_one_column_per_counter(tmp_path: Path) -> None:
    rows = [measurement("1", "b", 0.1, nodes=5, conflicts=None)]
    write_table(rows, ["nodes", "conflicts"], tmp_path)
    header = (tmp_path / "results.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.split(",") == [*COLUMNS, "nodes", "conflicts"]


def test_a_problem_line_shows_the_puzzle_id_on_one_line() -> None:
    rows = [measurement("a\nb", "base", 0.01)]
    rows.append(measurement("a\nb", "liar", 0.001, valid=False, agrees=False, note="wrong"))
    [ds] = summarize(rows, baseline="base")
    assert ds.problems == ['"a\\nb" · liar (repeat 1): wrong']
