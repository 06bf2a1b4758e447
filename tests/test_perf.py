"""The benchmark commands run end to end on small samples (they report; nothing is timed here)."""

from __future__ import annotations

import pytest

from tools.perf import harness_overhead as harness


@pytest.mark.slow
def test_harness_benchmark_runs_every_stage_through_the_runner():
    result = harness.main(["--repeat", "1", "--rounds", "1", "--backends", "backtrack"])
    stages = result["stages"]
    assert stages["puzzles"] == 100  # the bundled sample, once
    # the worker function's own clock saw every stage, and the backend's time is apart
    assert all(stages[name] > 0 for name in ("reading", "parsing", "checking", "writing"))
    assert stages["solving"] > 0 and stages["end_to_end_solving"] > 0
    assert set(result["rates"]) == {
        "backtrack alone j1",
        "backtrack alone j2",
        "all 1 j1",
        "all 1 j2",
    }
    assert all(rate > 0 for rate in result["rates"].values())


def test_issue_16_benchmark_runs_its_check_and_start_up_parts(capsys) -> None:
    from tools.perf import large

    large.main(
        ["--skip", "large", "--check-puzzles", "150", "--startup-runs", "1", "--cost-rounds", "1"]
    )
    out = capsys.readouterr().out
    assert "sat (kept solver, as in a check)" in out and "ms of CPU a puzzle" in out
    assert "judged by {('backtrack', 'sat'): 150}" in out
    assert "verdicts {'unique': 150}" in out
    assert "sudoku-cp solve PUZZLE" in out


@pytest.mark.slow
def test_kernel_benchmark_runs_and_skips_tdoku_without_its_library(capsys):
    pytest.importorskip("numba")
    from tools.perf import kernel_speed

    results = kernel_speed.main(["--count", "3", "--repeat", "1", "--check-puzzles", "6"])
    assert set(results) == {"17-clue", "top1465", "forum-hardest"}
    assert all(
        row["pure_over_kernel"] > 0 and row["check_rate_kernel"] > 0 for row in results.values()
    )
    out = capsys.readouterr().out
    assert "tdoku: skipped" in out and "COUNTS DIFFER" not in out


def test_scaling_model_simulates_what_the_arithmetic_says() -> None:
    # The pool's simulation (issue 34's "by simulation") against what holds by arithmetic:
    # no parent cost, C cores give C times one core; one core shares itself between worker and
    # parent, so a puzzle costs both; the parent alone, serial, caps the rate at 1 / parent.
    from tools.perf.scaling_model import contention_at, simulate

    worker = 300e-6
    one = simulate(1, 0.0, worker, 20_000)
    assert one == pytest.approx(1 / worker, rel=1e-6)
    for cores in (2, 4, 16):
        assert simulate(cores, 0.0, worker, 200_000) == pytest.approx(cores / worker, rel=0.02)
    assert simulate(1, 20e-6, worker, 20_000) == pytest.approx(1 / (worker + 20e-6), rel=1e-3)
    capped = simulate(64, 20e-6, worker, 400_000)
    assert 0.9 / 20e-6 < capped <= 1 / 20e-6
    assert (contention_at(2, 1.37), contention_at(16, 1.37), contention_at(64, 1.37)) == (
        1.0,
        1.37,
        1.37,
    )


def test_first_run_reads_the_compile_lines_a_check_prints(tmp_path) -> None:
    from tools.perf import first_run

    # The two lines as the backtracker prints them (kernel/glue.py, search.py), among others.
    stderr = (
        "backtrack: compiled its kernels in 38.0 s (once a machine: numba's disk cache keeps "
        "them; not counted in any time limit)\n"
        "some other line\n"
        "backtrack: compiled its big-grid kernel in 11.9 s (once a machine: numba's disk cache "
        "keeps it; not counted in any time limit)\n"
    )
    assert first_run.stated_compiles(stderr) == {"kernels": 38.0, "big-grid kernel": 11.9}
    assert first_run.stated_compiles("nothing compiled\n") == {}
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("." * 81 + "\n")
    for bad in (["--jobs", "0"], ["--jobs", "65"], ["--rounds", "10"], ["--time-limit", "0"]):
        with pytest.raises(SystemExit) as refused:
            first_run.main([str(puzzles), *bad])
        assert refused.value.code == 2, bad
    with pytest.raises(SystemExit) as refused:
        first_run.main([str(tmp_path / "none.txt")])
    assert refused.value.code == 2


@pytest.mark.parametrize("tool", ["scaling", "scaling_model"])
def test_scaling_tools_refuse_a_missing_puzzle_file(tmp_path, capsys, tool) -> None:
    # (a bare name such as "royle17", as the docs' tables abbreviate it, was a traceback)
    import importlib

    module = importlib.import_module(f"tools.perf.{tool}")
    with pytest.raises(SystemExit) as refused:
        module.main([str(tmp_path / "royle17")])
    assert refused.value.code == 2
    assert "royle17: no such file" in capsys.readouterr().err


def test_scaling_refuses_a_missing_big_file(tmp_path, capsys) -> None:
    from tools.perf import scaling

    puzzles = tmp_path / "p.txt"
    puzzles.write_text("." * 81 + "\n")
    with pytest.raises(SystemExit) as refused:
        scaling.main([str(puzzles), "--big", str(tmp_path / "big.txt")])
    assert refused.value.code == 2
    assert "big.txt: no such file" in capsys.readouterr().err
