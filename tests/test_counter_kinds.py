"""Counters are declared by each backend with their kind, and the bench summary reads the kinds
from the registry (no list of counter names of its own)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from fault_backends import Probing

from sudoku_cp.backends import Backend, Counter, counter_kinds
from sudoku_cp.bench import report
from sudoku_cp.cli import main


class Legacy(Backend):
    name = "test-legacy"
    summary = "declares its counters the old way, descriptions only"
    counters = {"steps": "steps taken"}  # type: ignore[dict-item]


@pytest.fixture
def probing(registered) -> None:
    registered(Probing)


def test_built_in_backends_keep_the_summary_columns_they_had() -> None:
    """The lists report.py used to hard-code, as the built-in backends now declare them (no
    backend ever reported "fails", the third dead-end name listed)."""
    built_in = ["backtrack", "cpsat", "constraint", "sat", "dlx"]
    kinds = counter_kinds(built_in)
    assert {c for c, k in kinds.items() if k == "size"} == {
        "nodes",
        "branches",
        "decisions",
        "assignments",
    }
    assert {c for c, k in kinds.items() if k == "dead-end"} == {"backtracks", "conflicts"}
    assert set(report.shown_counters()) == {
        "failures",  # the minizinc backend's dead ends (Gecode's failures)
        "steps",  # the logic backend's size counter (deduction steps), a column of its own
        "nodes",
        "branches",
        "decisions",
        "assignments",
        "backtracks",
        "conflicts",
    }


def row(backend: str, **counters: float) -> dict[str, object]:
    return {
        "dataset": "d",
        "puzzle_id": "1",
        "backend": backend,
        "strategy": "",
        "limit": 2,
        "repeat": 1,
        "status": "unique",
        "count": 1,
        "seconds": 0.01,
        "exact": True,
        "valid": True,
        "verdict": "unique",
        "agrees": True,
        "note": "",
        **counters,
    }


def test_summary_shows_the_built_in_search_size_and_dead_ends() -> None:
    rows = [
        row("backtrack", nodes=270, backtracks=20, propagations=900),
        row("cpsat", branches=2875, conflicts=100, solves=1),
        row("constraint", assignments=13484, variables=60),
        row("dlx", nodes=7056, updates=50000),
    ]
    [summary] = report.summarize(rows)
    text = report.render_summary([summary])
    for shown in (
        "270 nodes",
        "20.0 backtracks",
        "2,875 branches",
        "100 conflicts",
        "13,484 assignments",
        "7,056 nodes",
    ):
        assert shown in text
    for hidden in ("propagations", "updates", "variables", "solves"):
        assert hidden not in text
    by = {b.label: b for b in summary.backends}
    assert by["dlx"].mean_of(report.counters_of_kind("dead-end")) is None


def test_a_registered_backend_s_kinds_reach_the_summary(probing: None) -> None:
    assert report.counters_of_kind("size")[-1] == "probes"
    [summary] = report.summarize([row("test-probing", probes=40, dead_probes=3, probe_seconds=0.5)])
    text = report.render_summary([summary])
    assert "40.0 probes" in text and "3.0 dead_probes" in text and "probe_seconds" not in text


def test_backends_command_shows_each_counter_s_kind() -> None:
    out = CliRunner().invoke(main, ["backends", "--json"])
    assert out.exit_code == 0
    rows = {r["name"]: r for r in json.loads(out.stdout)}
    assert rows["dlx"]["counters"]["nodes"] == "rows tried: nodes of the search tree"
    assert rows["dlx"]["counter_kinds"] == {
        "nodes": "size",
        "updates": "other",
        "columns": "other",
        "rows": "other",
    }
    assert rows["cpsat"]["counter_kinds"]["conflicts"] == "dead-end"
    text = CliRunner().invoke(main, ["backends"]).stdout
    assert "counters: nodes (size), backtracks (dead-end), propagations (other)" in text


def test_a_bench_record_lists_each_backends_counters_by_description(tmp_path) -> None:
    """The bench's record.json keeps its form: counter name -> description."""
    from sudoku_cp.bench.record import BenchConfig, write_bench
    from sudoku_cp.bench.run import run_bench

    config = BenchConfig(datasets=["easy"], backends=["dlx"], repeat=1, jobs=1, time_limit=5)
    written = write_bench(run_bench(config), tmp_path)
    record = json.loads(written["record"].read_text())
    assert record["backends"][0]["counters"]["nodes"] == "rows tried: nodes of the search tree"


def test_descriptions_alone_become_counters_of_kind_other() -> None:
    assert Legacy.counters == {"steps": Counter("steps taken", "other")}


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="size, dead-end, other"):
        Counter("cells probed", kind="effort")
