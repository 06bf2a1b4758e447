"""Batches on a Dask cluster (``--scheduler``): a LocalCluster of worker processes on this
machine, shared by the module, against the local pool — the same verdicts, every puzzle
recorded exactly once when a worker or the client is killed, time limits and dead children
handled as the local pool handles them.

Real puzzles, the real backends and the fault backends of fault_backends.py (the cluster's
workers are spawned with this process's ``sys.path``, so they import them by name).
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import threading
import time
import tracemalloc

import pytest

distributed = pytest.importorskip("distributed")

import psutil  # noqa: E402 — a dependency of distributed
from clitools import error_line, jsonl, run, start_cli  # noqa: E402
from conftest import DATA  # noqa: E402
from fault_backends import HANGS_ON, HELD, PUZZLES, DiesOnOne, HangsOnOne, HoldsOne  # noqa: E402

from sudoku_cp.batch.cluster import DaskPool, _plugin_class, run_chunk, worker_versions  # noqa: E402
from sudoku_cp.batch.pool import Work  # noqa: E402

pytestmark = pytest.mark.slow  # a cluster takes seconds to start


@pytest.fixture(scope="module")
def cluster():
    local = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(local, set_as_default=False)
    yield local.scheduler_address, client
    client.close()
    local.close()


def first_puzzles(folder, name: str, count: int):
    """The first ``count`` puzzles of a bundled CSV set, in a file of their own."""
    path = folder / name
    path.write_text("".join((DATA / name).read_text().splitlines(keepends=True)[: count + 1]))
    return path


def wait_for_records(path, count: int, process, seconds: float = 120) -> None:
    """Until ``path`` holds ``count`` lines (a local:N cluster takes seconds to start)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"the run ended or stalled before {count} records: {process.poll()}")


def verdicts(records: list[dict]) -> dict[int, tuple]:
    """Per input index: the verdict, each backend's status and the solution count."""
    return {
        r["index"]: (
            r["verdict"],
            r.get("solutions"),
            tuple(sorted((n, b["status"]) for n, b in r["backends"].items())),
        )
        for r in records
    }


def test_check_and_count_on_a_cluster_give_the_local_pools_verdicts(cluster, tmp_path):
    address, _ = cluster
    for command, data, backends in (
        ("check", "easy.csv", "backtrack,sat"),
        ("count", "multiple.csv", "backtrack,dlx"),
    ):
        path = first_puzzles(tmp_path, data, 10)
        common = [command, str(path), "-b", backends, "-f", "jsonl", "-q"]
        local = run(*common, "-j", "2")
        out = tmp_path / f"{command}.jsonl"
        remote = run(*common, "--scheduler", address, "-o", str(out))
        assert remote.exit_code == local.exit_code, remote.output
        ours, theirs = verdicts(jsonl(out.read_text())), verdicts(jsonl(local.stdout))
        assert len(ours) == len(jsonl(out.read_text()))  # each puzzle once
        assert ours == theirs and len(ours) == 10
        run_record = json.loads(out.with_name(out.name + ".meta.json").read_text())["runs"][-1]
        executor = run_record["executor"]
        assert executor["executor"] == "dask" and executor["scheduler"] == address
        assert sorted(w["nthreads"] for w in executor["workers"]) == [1, 1]


def test_bench_on_a_cluster_measures_what_the_local_pool_does(cluster, tmp_path, monkeypatch):
    address, _ = cluster
    # Not the executor's business, and seconds of fresh interpreters per run: left out.
    monkeypatch.setattr("sudoku_cp.bench.run.measure_overheads", lambda *args: {})
    data = str(first_puzzles(tmp_path, "famous.csv", 6))
    results = {}
    for where, extra in (("local", ["-j", "2"]), ("dask", ["--scheduler", address])):
        folder = tmp_path / where
        args = ["bench", data, "-b", "backtrack,sat", "-t", "10", "-o", str(folder), "-q"]
        result = run(*args, *extra)
        assert result.exit_code == 0, result.output
        with (folder / "results.csv").open() as handle:
            header, *rows = [line.rstrip("\n").split(",") for line in handle]
        keys = ("puzzle_id", "backend", "status", "count", "verdict")
        at = {name: header.index(name) for name in keys}
        results[where] = sorted(tuple(row[at[k]] for k in at) for row in rows)
        record = json.loads((folder / "record.json").read_text())
        assert record["executor"]["executor"] == where
    assert results["dask"] == results["local"] and results["local"]


def test_time_limits_and_dead_children_on_a_cluster_are_recorded_as_locally(
    cluster, tmp_path, registered
):
    address, _ = cluster
    registered(HangsOnOne, DiesOnOne)
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(f"{line}\n" for line in PUZZLES))
    result = run(
        "check",
        str(path),
        "-b",
        "backtrack,test-hangs-on-one,test-dies-on-one",
        "-t",
        "1",
        "-f",
        "jsonl",
        "-q",
        "--scheduler",
        address,
    )
    records = jsonl(result.stdout)
    assert sorted(r["index"] for r in records) == list(range(1, len(PUZZLES) + 1))
    hung = next(r for r in records if r["puzzle"] == HANGS_ON)
    assert hung["backends"]["test-hangs-on-one"]["status"] == "timeout"
    assert hung["verdict"] == "unique"  # the others still answer
    held = next(r for r in records if r["puzzle"] == HELD)
    dead = held["backends"]["test-dies-on-one"]
    assert dead["error"] == "worker process killed by SIGKILL while running it (2 times)"
    assert held["verdict"] == "unique"
    assert result.exit_code == 0


def test_a_cluster_worker_killed_mid_run_loses_nothing_and_counts_nothing_twice(
    cluster, tmp_path, registered
):
    address, client = cluster
    registered(HoldsOne)
    # The workers' own HoldsOne (each sandbox child is forked from its worker) marks here.
    client.run(setattr, HoldsOne, "folder", tmp_path)
    mark = tmp_path / "held-by"
    killed: list[int] = []

    def kill_the_worker() -> None:
        deadline = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        worker = psutil.Process(int(mark.read_text())).ppid()  # the child's Dask worker
        killed.append(worker)
        os.kill(worker, signal.SIGKILL)

    killer = threading.Thread(target=kill_the_worker, daemon=True)
    killer.start()
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(f"{line}\n" for line in PUZZLES))
    result = run(
        "check", str(path), "-b", "backtrack,test-holds-one", "-t", "30", "-f", "jsonl", "-q",
        "--scheduler", address,
    )  # fmt: skip
    killer.join(timeout=5)
    assert killed and not psutil.pid_exists(killed[0])
    records = jsonl(result.stdout)
    assert sorted(r["index"] for r in records) == list(range(1, len(PUZZLES) + 1))
    assert {r["verdict"] for r in records} == {"unique"}
    held = next(r for r in records if r["puzzle"] == HELD)
    assert held["backends"]["test-holds-one"]["status"] == "unique"  # run again, answered
    assert result.exit_code == 0
    client.wait_for_workers(2, timeout=30)  # the nanny has replaced it, for the next test


def test_a_killed_client_on_local_n_resumes_on_the_local_pool_exactly_once(tmp_path):
    out = tmp_path / "out.jsonl"
    args = ["check", str(DATA / "easy.csv"), "-b", "test-slow", "-o", str(out), "-q"]
    process = start_cli(tmp_path, *args, "--scheduler", "local:2")
    wait_for_records(out, 8, process)
    children = psutil.Process(process.pid).children(recursive=True)
    process.send_signal(signal.SIGKILL)  # no chance to clean up
    process.wait()
    before = out.read_bytes().count(b"\n")
    assert 8 <= before < 50
    resumed = start_cli(tmp_path, *args, "-j", "2", "--resume")  # another executor
    stdout, stderr = resumed.communicate(timeout=60)
    assert resumed.returncode == 0, stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in records) == list(range(1, 51))
    assert {r["verdict"] for r in records} == {"unique"}
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert [r["executor"]["executor"] for r in meta["runs"]] == ["dask", "local"]
    assert meta["runs"][0]["executor"]["local_cluster"] == 2
    # The cluster's processes (workers, their children) leave with the client.
    _, alive = psutil.wait_procs(children, timeout=20)
    assert not alive, alive


def test_workers_running_another_sudoku_cp_are_refused_in_one_line(cluster, tmp_path):
    address, client = cluster
    import sudoku_cp.version

    worker = sorted(client.scheduler_info()["workers"])[0]
    here = sudoku_cp.version.__version__
    # a real worker told it is another version (as one with another install would be)
    client.run(setattr, sudoku_cp.version, "__version__", "9.9.9", workers=[worker])
    try:
        result = run("check", PUZZLES[0], "-b", "backtrack,sat", "--scheduler", address)
    finally:
        client.run(setattr, sudoku_cp.version, "__version__", here, workers=[worker])
    assert result.exit_code == 2
    line = error_line(result)
    assert f"--scheduler {address}: 1 worker(s) run other software than this client" in line
    assert f"{worker} sudoku-cp 9.9.9 (source " in line and f"(here {here} (source " in line
    # the same workers, agreeing again, are used
    assert run("check", PUZZLES[0], "-b", "backtrack", "--scheduler", address).exit_code == 0


def sizes(units: list[bytes], watch) -> list[int]:
    """A task for a bare DaskPool: each unit's size (the units are the payload)."""
    return [len(unit) for unit in units]


class Sizes(Work):
    def __init__(self) -> None:
        super().__init__(sizes, max_chunk=1)


def test_the_clients_memory_does_not_grow_with_the_chunks_it_sends():
    # Dask kept every connection's last 1,000 messages: each task's chunk, in the client (and
    # in a local:N cluster's scheduler, which runs in the client: this test's).
    units = (bytes(64 * 1024) for _ in range(240))
    pool = DaskPool(Sizes(), "local:1", time_limit=None)
    tracemalloc.start()
    try:
        for done, _ in enumerate(pool.run(units), start=1):
            if done == 40:
                start = tracemalloc.get_traced_memory()[0]
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert done == 240
    assert grown < 4 * 1024 * 1024, f"the client kept {grown / 2**20:.1f} MiB more"


def test_a_worker_that_joins_with_other_software_refuses_its_tasks(cluster):
    address, client = cluster
    # The run's plugin as a client with another Python would register it: each worker sets
    # it up as it joins (these two, here) and compares.
    here = worker_versions(["backtrack"])
    plugin = _plugin_class()(
        sizes, None, (), None, False, ("backtrack",), {**here, "python": "2.7"}
    )
    client.register_plugin(plugin, name="sudoku-cp-test-late")
    try:
        outcome = client.submit(
            run_chunk, "sudoku-cp-test-late", pickle.dumps([b"x"]), None, pure=False
        ).result()
    finally:
        client.unregister_worker_plugin("sudoku-cp-test-late")
    assert outcome[0] == "refused"
    assert outcome[1].startswith("tcp://") and outcome[1].endswith(
        f" python {here['python']} (here 2.7)"
    )
