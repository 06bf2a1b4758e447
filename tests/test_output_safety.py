"""Every command that writes a file keeps check's promises (issue 35, items 3, 4 and 6): an
output that is one of the files read is refused and left as it was, a second run writing the
same file fails at once, a file that cannot be written is one line naming it and the cause
(exit 2, never a traceback, never a silent success), and a run leaves neither processes nor
stale files of its own behind.

(The rows of the table in docs/troubleshooting.md for generate, explain, draw, minimize, shrink,
bench and certificates.)
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clitools import as_unprivileged, error_line, jsonl, run
from conftest import DATA
from puzzles import EULER, EULER_SOLUTION, INKALA

REAL = "backtrack"


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "sudoku_cp.cli", *args]


def _limited(size: int):
    """A disk that fills up: writes past ``size`` bytes fail (EFBIG; Python ignores the
    SIGXFSZ that comes with it)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


def _one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("sudoku-cp: error: "), stderr
    return lines[0]


# --- item 3: an output that is also an input ---------------------------------------------------
@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    (tmp_path / "p.txt").write_text(f"{EULER}\n{INKALA}\n")
    (tmp_path / "one.txt").write_text(f"{EULER}\n")
    shutil.copy(Path(__file__).parent.parent / "models" / "classic.toml", tmp_path / "m.toml")
    os.symlink(tmp_path / "one.txt", tmp_path / "link.txt")
    return tmp_path


CLASHES = {
    "explain's page over its input": (["explain", "p.txt", "--format", "html", "-o", "p.txt"]),
    "minimize over its input": (["minimize", "one.txt", "-b", REAL + ",sat", "-o", "one.txt"]),
    "minimize over a symlink to its input": (
        ["minimize", "one.txt", "-b", REAL + ",sat", "-o", "link.txt"]
    ),
    "shrink over its input": (["shrink", "one.txt", "-o", "./one.txt"]),
    "draw over a link to its input": (["draw", "one.txt", "-o", "link.txt"]),
    "generate over its model file": (["generate", "-m", "./m.toml", "-o", "m.toml", "-q"]),
}


@pytest.mark.parametrize("args", list(CLASHES.values()), ids=list(CLASHES))
def test_an_output_that_is_a_file_read_is_refused_and_left_as_it_was(inputs, monkeypatch, args):
    # explain overwrote a 201-puzzle input with its page, minimize replaced its input, generate
    # truncated the model file it had just read: each exited 0 or 2 with the file gone.
    monkeypatch.chdir(inputs)
    before = {p.name: p.read_bytes() for p in inputs.iterdir() if p.is_file()}
    result = run(*args)
    assert result.exit_code == 2, result.output
    line = error_line(result)
    assert "writing it would destroy what this run reads" in line, line
    assert {p.name: p.read_bytes() for p in inputs.iterdir() if p.is_file()} == before


def test_two_generates_writing_one_file_the_second_fails_at_once(tmp_path):
    # Both exited 0 and the first run's puzzles were gone.
    out = tmp_path / "g.jsonl"
    first = subprocess.Popen(
        _cli("generate", "-n", "100000", "-f", "jsonl", "-q", "-o", str(out)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_bytes().count(b"\n") >= 3):
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        second = run("generate", "-n", "2", "-f", "jsonl", "-q", "-o", str(out))
        assert second.exit_code == 2
        assert error_line(second) == (
            f"sudoku-cp: error: output {out} is being written by another sudoku-cp run; wait "
            "for it to finish (or stop it), or choose another --output"
        )
        assert first.poll() is None
    finally:
        first.kill()
        first.communicate()
    records = jsonl(out.read_text().rpartition("\n")[0])  # (the kill may tear the last line)
    assert len(records) >= 3
    assert [r["index"] for r in records] == list(range(1, len(records) + 1))


def test_a_failed_whole_output_leaves_the_old_file(tmp_path, monkeypatch):
    # A page is written whole, through a file renamed over the output: a run that cannot
    # finish it leaves the old page, and no temporary file beside it.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "one.txt").write_text(f"{EULER}\n")
    assert run("explain", "one.txt", "--format", "html", "-o", "page.html").exit_code == 0
    page = (tmp_path / "page.html").read_bytes()
    result = subprocess.run(
        _cli("explain", "one.txt", "--format", "html", "-o", "page.html"),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limited(len(page) // 2),
    )
    assert (tmp_path / "page.html").read_bytes() == page
    assert result.returncode == 2
    assert "page.html: cannot write: File too large" in _one_error_line(result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.txt", "page.html"]


# --- item 4: an output that cannot be written ---------------------------------------------------
def _unwritable(tmp_path: Path) -> dict[str, tuple[str, str]]:
    (tmp_path / "folder").mkdir()
    long_name = "x" * 300
    return {
        "a missing folder": (
            str(tmp_path / "missing" / "g.txt"),
            f"--output {tmp_path / 'missing' / 'g.txt'}: cannot write: the folder "
            f"{tmp_path / 'missing'} does not exist",
        ),
        "a folder": (
            str(tmp_path / "folder"),
            f"--output {tmp_path / 'folder'}: is a folder; name a file",
        ),
        "/dev/full": ("/dev/full", "--output /dev/full: cannot write: No space left on device"),
        "an over-long name": (
            str(tmp_path / long_name),
            "cannot write: the file name is longer than the 255 bytes a name may have here",
        ),
        "an empty name": ("", "sudoku-cp: error: --output needs a file name, not an empty one"),
    }


@pytest.mark.parametrize(
    "case", ["a missing folder", "a folder", "/dev/full", "an over-long name", "an empty name"]
)
def test_generate_into_an_unwritable_output_is_one_line_and_exit_2(tmp_path, case):
    # Each was a traceback (FileNotFoundError, IsADirectoryError, OSError) with exit 1; an
    # empty name wrote to standard output and exited 0.
    out, expected = _unwritable(tmp_path)[case]
    result = run("generate", "-n", "2", "-q", "-o", out)
    assert result.exit_code == 2, result.output
    assert expected in error_line(result)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["generate", "-n", "1", "-q", "--certify", ""], "--certify needs a folder name"),
        (["bench", "easy", "-b", "sat", "-q", "-o", ""], "--output needs a name"),
        (["bench", "easy", "-b", "sat", "-q", "--replay", ""], "--replay needs a name"),
        (["plot", str(DATA / "no-such-results"), "-o", ""], "--output needs a name"),
        (["bench", "easy", "-b", "", "-q", "-o", "out"], "no backend to measure"),
    ],
)
def test_an_empty_name_is_refused_not_taken_for_no_option(tmp_path, monkeypatch, args, said):
    # Each ran as if the option were not given, exit 0: generate made no certificate, bench
    # wrote to bench-results/ (or, for --replay, ran a new bench; for -b '', its default
    # backends, where check refuses it), plot drew beside the results.
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert said in error_line(result)
    assert list(tmp_path.iterdir()) == []


def test_explain_svg_into_an_over_long_folder_name_is_one_line(tmp_path):
    # A traceback (OSError: File name too long) from the check whether the folder exists.
    result = run("explain", EULER, "--format", "svg", "-o", str(tmp_path / ("y" * 300)))
    assert result.exit_code == 2
    assert "cannot make the folder: File name too long" in error_line(result)


def test_generate_into_a_read_only_file_is_refused(public_dir):
    out = public_dir / "read-only.txt"
    out.write_text("kept\n")
    out.chmod(0o444)
    import sudoku_cp.cli.generate  # noqa: F401 — loaded while the files are readable
    import sudoku_cp.generate.make  # noqa: F401

    code, stderr, _ = as_unprivileged("generate", "-n", "1", "-q", "-o", str(out))
    assert code == 2, stderr
    assert stderr == f"sudoku-cp: error: --output {out}: cannot write: the file is read-only\n"
    assert out.read_text() == "kept\n"


def test_generate_onto_a_disk_that_fills_up_is_one_line_and_exit_2(tmp_path):
    # An OSError traceback, exit 1, after the puzzles that fitted.
    out = tmp_path / "g.txt"
    result = subprocess.run(
        _cli("generate", "-n", "50", "-q", "-o", str(out)),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limited(1000),
    )
    assert result.returncode == 2
    assert _one_error_line(result.stderr) == (
        f"sudoku-cp: error: --output {out}: cannot write: File too large (the disk is full, "
        "or a file size limit was reached)"
    )


def test_bench_onto_a_disk_that_fills_up_is_one_line_and_exit_2(tmp_path):
    # An OSError traceback from the table writer, exit 1. (4,096 bytes: the pool's shared
    # array still fits; the table of 50 puzzles does not.)
    out = tmp_path / "bench"
    result = subprocess.run(
        _cli("bench", str(DATA / "easy.csv"), "-b", REAL, "-o", str(out), "-q", "--no-warmup"),
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limited(4096),
    )
    assert result.returncode == 2, result.stderr
    assert _one_error_line(result.stderr) == (
        f"sudoku-cp: error: --output {out / 'results.csv'}: cannot write: File too large (the "
        "disk is full, or a file size limit was reached)"
    )


def test_generate_certify_onto_a_full_disk_fails_instead_of_leaving_puzzles_uncertified(tmp_path):
    # Exit 0 with 19 of 20 puzzles uncertified, and nothing said.
    pytest.importorskip("dratify")
    pytest.importorskip("pysat")
    folder = tmp_path / "certs"
    result = subprocess.run(
        _cli("generate", "-n", "3", "-q", "--certify", str(folder)),
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limited(200),  # (a 9x9 certificate is kilobytes)
    )
    assert result.returncode == 2, result.stderr
    assert _one_error_line(result.stderr) == (
        f"sudoku-cp: error: --certify {folder}: cannot write the certificate of puzzle 1: "
        "File too large"
    )
    assert list(folder.iterdir()) == []  # no half certificate, no temporary file


# --- item 6: processes and files left behind ----------------------------------------------------
def _state(pid: int) -> str | None:
    """The process's state letter (Z: ended, waiting to be reaped), None when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_killing_only_the_parent_of_generate_jobs_ends_its_workers(tmp_path):
    # Both workers stayed alive (waiting on the pool's queue) for at least 60 s.
    out = tmp_path / "g.txt"
    parent = subprocess.Popen(
        _cli("generate", "-n", "100000", "-j", "2", "-q", "-o", str(out)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_bytes().count(b"\n") >= 5):
            assert parent.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        children = Path(f"/proc/{parent.pid}/task/{parent.pid}/children").read_text().split()
        workers = [int(pid) for pid in children]
        assert len(workers) == 2
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_state(w) not in (None, "Z") for w in workers):
        time.sleep(0.1)
    left = {w: _state(w) for w in workers if _state(w) not in (None, "Z")}
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == {}


def test_resume_removes_the_temporary_certificates_a_killed_run_left(tmp_path):
    # SIGKILL between making a certificate and renaming it leaves DIR/.cert-XXXX.tmp, and
    # --resume left it there for good.
    pytest.importorskip("dratify")
    pytest.importorskip("pysat")
    folder = tmp_path / "certs"
    out = tmp_path / "out.jsonl"
    args = ["check", EULER, INKALA, "-b", REAL, "-j", "0", "-o", str(out), "-q"]
    assert run(*args, "--certify", str(folder)).exit_code == 0
    out.write_text(out.read_text().splitlines(keepends=True)[0])  # as a killed run leaves it
    (folder / ".cert-k1ll3d.tmp").write_bytes(b"")  # what the SIGKILL left
    (folder / "notes.txt").write_text("mine\n")  # not the run's: kept
    (folder / ".other.tmp").write_text("mine\n")
    result = run(*args, "--certify", str(folder), "--resume")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == [
        ".other.tmp",
        "0000001.cert.gz",
        "0000002.cert.gz",
        "notes.txt",
    ]


def test_explain_svg_into_a_used_folder_leaves_only_this_solve_s_steps(tmp_path):
    # A shorter solve's pictures were written beside a longer one's last steps, which then
    # read as steps of this solve.
    blanks = [0, 10, 20]  # three cells of the solution left open: a three-step solve
    short = "".join("." if i in blanks else ch for i, ch in enumerate(EULER_SOLUTION))
    folder, fresh = tmp_path / "pictures", tmp_path / "fresh"
    assert run("explain", EULER, "--format", "svg", "-o", str(folder)).exit_code == 0
    longer = {p.name for p in folder.iterdir()}
    (folder / "notes.txt").write_text("mine\n")
    (folder / "step-x.svg").write_text("mine\n")  # not a name explain gives
    assert run("explain", short, "--format", "svg", "-o", str(folder)).exit_code == 0
    assert run("explain", short, "--format", "svg", "-o", str(fresh)).exit_code == 0
    expected = {p.name for p in fresh.iterdir()}
    assert len(expected) == 4 and len(longer) > 4
    assert {p.name for p in folder.iterdir()} == expected | {"notes.txt", "step-x.svg"}
    for name in expected:
        assert (folder / name).read_bytes() == (fresh / name).read_bytes()


def test_a_whole_output_is_written_through_a_symlink_and_keeps_its_mode(tmp_path, monkeypatch):
    # Written through a renamed temporary file, a page must still land where opening the
    # output would have written it: a symlink's target (the link stays), with the old mode.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "real.svg").write_text("old\n")
    (tmp_path / "real.svg").chmod(0o640)
    (tmp_path / "out.svg").symlink_to("real.svg")
    assert run("draw", EULER, "-o", "out.svg").exit_code == 0
    assert (tmp_path / "out.svg").is_symlink()
    assert (tmp_path / "real.svg").read_text().startswith("<svg")
    assert (tmp_path / "real.svg").stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.svg", "real.svg"]
