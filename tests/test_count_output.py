"""`sudoku-cp count`: its lines in input order (a bounded reorder buffer over the worker pool)."""

from __future__ import annotations

import io
import queue
import subprocess
import sys
import threading

from clitools import run
from puzzles import EASY_LINES, INKALA

from sudoku_cp.batch import command
from sudoku_cp.batch.items import BatchOptions, CheckConfig
from sudoku_cp.batch.pool import MAX_CHUNK

REAL = "backtrack"


# --- input order ----------------------------------------------------------------------------------
def test_count_prints_in_input_order_when_the_first_puzzle_finishes_last(
    fault_backends, tmp_path, monkeypatch
):
    # real worker processes: the first puzzle's record comes back after every other one's
    monkeypatch.setattr(fault_backends.FirstFinishesLast, "folder", tmp_path)
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join(fault_backends.PUZZLES) + "\n")
    result = run("count", str(puzzles), "-b", "test-first-finishes-last", "-j", "2", "-q")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines == [f"{n}: exactly 1 solution" for n in range(1, 13)]


def test_a_slow_first_puzzle_holds_at_most_the_bound(fault_backends, tmp_path, monkeypatch):
    # INKALA hangs until the time limit stops it; 2,000 easy puzzles behind it. The pool takes
    # no more than the bound while it waits, then every record comes out in input order.
    bound = 24
    seen: list[command.InputOrder] = []

    class Watched(command.InputOrder):
        def __init__(self, limit: int) -> None:
            super().__init__(limit)
            self.most_taken = 0
            seen.append(self)

        def track(self, items):
            for item in super().track(items):
                self.most_taken = max(self.most_taken, len(self.taken))
                yield item

    monkeypatch.setattr(command, "InputOrder", Watched)
    monkeypatch.setattr(command, "reorder_bound", lambda jobs: bound)
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join([INKALA] + EASY_LINES * 40) + "\n")
    config = CheckConfig.make(["test-stuck-on-one"], limit=1000, time_limit=0.5)
    options = BatchOptions([str(puzzles)], config, jobs=2, fmt="count", in_order=True)
    out = io.StringIO()
    summary = command.run_batch(options, stream=out)
    lines = out.getvalue().splitlines()
    assert summary.checked == len(lines) == 2001
    assert lines[0].startswith("1: undecided")
    assert [line.split(":")[0] for line in lines] == [str(n) for n in range(1, 2002)]
    assert 0 < seen[0].most_taken <= bound
    assert seen[0].most_held <= bound


def test_the_reorder_bound_is_twice_the_pools_window_of_full_chunks():
    assert command.reorder_bound(2) == 2 * (2 * 2 + 1) * MAX_CHUNK
    assert command.reorder_bound(0) == command.reorder_bound(1)


def test_a_huge_input_still_streams_in_order():
    # standard input left open: the first lines must come out before the input ends
    process = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp.cli", "count", "-", "-b", REAL, "-j", "2", "-q"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in process.stdout], daemon=True).start()
    try:
        process.stdin.write("\n".join(EASY_LINES * 60) + "\n")  # 3,000 puzzles, more to come
        process.stdin.flush()
        first = [lines.get(timeout=120) for _ in range(100)]
        assert first == [f"{n}: exactly 1 solution\n" for n in range(1, 101)]
        process.stdin.write("\n".join(EASY_LINES * 60) + "\n")
        process.stdin.close()
        assert process.wait(timeout=300) == 0, process.stderr.read() if process.stderr else ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    rest = []
    while not lines.empty():
        rest.append(lines.get())
    assert len(first) + len(rest) == 6000
    assert [line.split(":")[0] for line in first + rest] == [str(n) for n in range(1, 6001)]
