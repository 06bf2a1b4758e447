"""``--fetch``: a SudokuPad short id downloaded from the puzzle API (puzzleloader.js fetchPuzzle,
apiPuzzleUrlLocal), here from a local server on 127.0.0.1 serving recorded answers — never the
internet. Offline (no ``--fetch``), failures, timeouts and oversized answers are one line, exit
2; a batch's worker processes fetch with the settings the command line set."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import lzstring
import pytest
from clitools import error_line, run
from conftest import TESTS

from sudoku_cp.errors import PuzzleError
from sudoku_cp.formats import parse_puzzle
from sudoku_cp.formats import sudokupad as sp
from sudoku_cp.formats.links import MAX_PAYLOAD_CHARS

# The SudokuPad API's answer for short id TmMBJj8jbr, as maddinpsy/coopsudokupad (MIT) recorded
# it (tests/data/sudokupad_real.txt: its second payload).
RECORDED = [
    line
    for line in (TESTS / "data" / "sudokupad_real.txt").read_text().splitlines()
    if line.startswith("scl")
][0]

SOLVED = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
FPUZ = {
    "size": 4,
    "grid": [
        [{"value": v, "given": True} if (r, c) not in ((0, 0), (1, 1), (3, 3)) else {}
         for c, v in enumerate(row)]
        for r, row in enumerate(SOLVED)
    ],
}  # fmt: skip
FPUZ_ID = "fpuzzles" + lzstring.compress_to_base64(json.dumps(FPUZ))

ANSWERS: dict[str, bytes] = {
    "/api/puzzle/recorded": RECORDED.encode() + b"\n",
    "/api/puzzle/quartet": FPUZ_ID.encode(),
    "/api/puzzle/my/puzzle": FPUZ_ID.encode(),  # (an id with a slash: each part encoded)
    "/api/puzzle/raw": b"{ce:5}",  # no prefix: puzzle JSON, read as scl (fetchPuzzle)
    "/api/puzzle/big": b"A" * (MAX_PAYLOAD_CHARS + 1),
    "/api/puzzle/empty": b"",
}
SEEN: list[str] = []


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 — http.server's name
        SEEN.append(self.path)
        if self.path == "/api/puzzle/slow":
            time.sleep(3)
        body = ANSWERS.get(self.path)
        try:
            if body is None:
                self.send_error(404, "Not Found")
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # (the client gave up first: a timeout or a size cap under test)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/api/puzzle/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def api(server: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(sp.API_ENV, server)
    return server


def fetching(timeout: float = 5.0) -> sp.ReadingSettings:
    return sp.ReadingSettings(fetch=True, timeout=timeout)


def test_offline_a_short_id_says_where_it_is_and_sends_nothing(api: str) -> None:
    SEEN.clear()
    line = error_line(run("solve", "https://sudokupad.app/quartet"))
    assert "stored on SudokuPad's server" in line and "--fetch" in line
    assert f"{api}quartet" in line
    assert SEEN == []


def test_fetch_reads_the_payload_the_api_answers(api: str) -> None:
    SEEN.clear()
    result = run("solve", "--fetch", "https://sudokupad.app/quartet", "-f", "line")
    assert result.exit_code == 0, result.output
    assert result.stdout.split()[0] == "".join(str(v) for row in SOLVED for v in row)
    assert SEEN == ["/api/puzzle/quartet"]


def test_fetch_encodes_each_part_of_the_id(api: str) -> None:
    SEEN.clear()
    with sp.reading(fetching()):
        assert parse_puzzle("https://sudokupad.app/my/puzzle").size == 4
    assert SEEN == ["/api/puzzle/my/puzzle"]
    assert sp.api_url("a b/c") == f"{api}a%20b/c"


def test_a_recorded_scl_answer_decodes(api: str) -> None:
    with sp.reading(fetching()):
        ident = sp.fetch_id("recorded")
    assert ident == RECORDED  # (a payload with its prefix: kept as it is)
    assert sp.check_shape(sp.decode_id(ident)) == (9, 9)


def test_an_answer_without_a_prefix_is_read_as_scl(api: str) -> None:
    with sp.reading(fetching()), pytest.raises(PuzzleError, match="'cells' is a number"):
        parse_puzzle("https://sudokupad.app/raw")


@pytest.mark.parametrize(
    ("ident", "message"),
    [
        ("missing", "HTTP 404"),
        ("big", f"larger than the cap of {MAX_PAYLOAD_CHARS:,} bytes"),
        ("empty", "the answer is empty"),
    ],
)
def test_failures_name_the_url_and_the_cause(api: str, ident: str, message: str) -> None:
    result = run("solve", "--fetch", f"https://sudokupad.app/{ident}")
    assert result.exit_code == 2
    line = error_line(result)
    assert f"cannot fetch {api}{ident}: " in line and message in line


def test_a_slow_server_times_out(api: str) -> None:
    start = time.perf_counter()
    with sp.reading(fetching(timeout=0.5)), pytest.raises(PuzzleError) as caught:
        parse_puzzle("https://sudokupad.app/slow")
    assert time.perf_counter() - start < 2.5
    assert f"cannot fetch {api}slow: no answer within 0.5 s" in str(caught.value)


def test_no_server_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv(sp.API_ENV, f"http://127.0.0.1:{port}/api/puzzle/")
    line = error_line(run("solve", "--fetch", "https://sudokupad.app/abc"))
    assert f"cannot fetch http://127.0.0.1:{port}/api/puzzle/abc: " in line


def test_a_base_url_that_is_no_http_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sp.API_ENV, "file:///etc/passwd")
    line = error_line(run("solve", "--fetch", "https://sudokupad.app/abc"))
    assert "is not an http:// or https:// URL" in line


def len_index(record: dict) -> int:
    return int(record["index"])


def test_batch_workers_fetch_with_the_command_lines_settings(api: str, tmp_path: Path) -> None:
    SEEN.clear()
    path = tmp_path / "ids.txt"
    path.write_text("https://sudokupad.app/quartet\nhttps://sudokupad.app/missing\n")
    result = run("check", str(path), "--fetch", "-b", "backtrack", "-j", "2", "-f", "jsonl", "-q")
    records = sorted((json.loads(line) for line in result.stdout.splitlines()), key=len_index)
    assert [r["verdict"] for r in records] == ["unique", "invalid"], result.output
    assert "HTTP 404" in records[1]["reason"]
    assert sorted(SEEN) == ["/api/puzzle/missing", "/api/puzzle/quartet"]  # (once each)


def test_a_file_of_short_links_is_one_puzzle_a_line(tmp_path: Path) -> None:
    # Two short links are no 2-line grid (each is under 64 characters, the length of a row):
    # offline, each line says it needs --fetch.
    from sudoku_cp.formats import read_input

    path = tmp_path / "ids.txt"
    path.write_text("https://sudokupad.app/quartet\nhttps://sudokupad.app/other\n")
    records = list(read_input(str(path)))
    assert len(records) == 2
    assert all("--fetch" in str(record.error) for record in records)
