"""SudokuPad's payloads and links: recognised, decoded and capped as SudokuPad's own loader reads
them (marktekfan/sudokupad-penpa-import src/sudokupad/: puzzleloader.js, puzzlezipper.js,
puzzletools.js decodeSCF; SudokuPad's feature-puzzlepack.js as vendored in SakanaAI/Sudoku-Bench),
bad input refused in one line, and the link ``solve --format sudokupad`` writes read back.

The payloads are built here the way SudokuPad builds them: lz-string compressToBase64 of JSON,
zipped by hand following puzzlezipper.js zipPuzzle (each expected value is worked out from that
code, not from this reader). Typing the elements is sudokupad_rules' work: the tests that need
it are skipped until that module is there."""

from __future__ import annotations

import json
import pickle
import time
from pathlib import Path

import lzstring
import pytest
from clitools import error_line, run
from conftest import TESTS
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp.errors import PuzzleError
from sudoku_cp.formats import links, parse_puzzle, read_input
from sudoku_cp.formats import sudokupad as sp
from sudoku_cp.formats import sudokupad_decode as spd
from sudoku_cp.formats.links import MAX_PAYLOAD_CHARS

REAL = TESTS / "data" / "sudokupad_real.txt"


def scl(text: str, prefix: str = "scl") -> str:
    return prefix + lzstring.compress_to_base64(text)


def fpuz_payload(data: dict) -> str:
    return lzstring.compress_to_base64(json.dumps(data))


# A 4x4 f-puzzles puzzle with one solution (1234/3412/2143/4321, three cells open).
SOLVED = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
FPUZ = {
    "size": 4,
    "grid": [
        [{"value": v, "given": True} if (r, c) not in ((0, 0), (1, 1), (3, 3)) else {}
         for c, v in enumerate(row)]
        for r, row in enumerate(SOLVED)
    ],
}  # fmt: skip


# --- recognising ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ident", "expected"),
    [
        ("sclABC", ("scl", "ABC")),
        ("ctcABC", ("scl", "ABC")),  # puzzleloader.js: ctc is an alias of scl
        ("fpuzzlesABC", ("fpuz", "ABC")),  # the longer alias first (createReAlias)
        ("fpuzABC", ("fpuz", "ABC")),
        ("scfABC", ("scf", "ABC")),
        ("packABC", ("pack", "ABC")),
        ("SclABC", ("", "SclABC")),  # case-sensitive: a short id
        ("wsj7iunsg6", ("", "wsj7iunsg6")),
    ],
)
def test_prefixes_are_sudokupads(ident: str, expected: tuple[str, str]) -> None:
    assert sp.split_id(ident) == expected


@pytest.mark.parametrize(
    ("text", "payload", "fragment"),
    [
        ("https://sudokupad.app/sclAB/C", "sclAB/C", ""),
        ("sudokupad.app/ctcABC", "ctcABC", ""),
        ("https://beta.sudokupad.app/sclABC", "sclABC", ""),
        ("https://app.crackingthecryptic.com/sudoku/sclABC", "sclABC", ""),
        ("https://crackingthecryptic.com/sclABC", "sclABC", ""),
        ("https://sudokupad.app/sudoku.html?puzzleid=scfABC", "scfABC", ""),
        ("sudokupad://puzzle/packABC#puzzle2", "packABC", "puzzle2"),
        ("https://sudokupad.app/packABC#puzzle1", "packABC", "puzzle1"),
        ("https://sudokupad.app/wsj7iunsg6", "wsj7iunsg6", ""),
        ("sclN4Ig/+=", "sclN4Ig/+=", ""),
        ("ctcN4Ig%2B", "ctcN4Ig%2B", ""),
    ],
)
def test_links_and_bare_payloads_are_found(text: str, payload: str, fragment: str) -> None:
    assert links.find_payload(text) == links.Found("sudokupad", payload, fragment)


def test_fpuzzles_links_keep_their_one_path() -> None:
    # A SudokuPad link carrying an f-puzzles payload is still the f-puzzles reader's.
    found = links.find_payload("https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcBOAvkA")
    assert found == links.Found("fpuzzles", "N4IgzglgXgpiBcBOAvkA")
    assert links.payload_in("https://sudokupad.app/sclN4Ig") is None  # no longer an error


@pytest.mark.parametrize("line", ["1.3.", "12.4" * 4, "puzzles/a.txt", "scl", "Scl/abc"])
def test_puzzle_lines_and_paths_are_no_payloads(line: str) -> None:
    assert links.find_payload(line) is None
    assert not links.is_payload(line)


def test_a_bare_payload_with_a_slash_is_the_puzzle_not_a_missing_file() -> None:
    payload = scl('{"cells":5}')
    records = list(read_input(payload[:10] + "/" + payload[10:]))
    assert records[0].error is not None
    assert "file not found" not in records[0].error and "SudokuPad" in records[0].error


# --- the zipper -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("zipped", "expected"),
    [
        # unquoted keys and short names (propMap: ce cells, v value, c color, r rounded)
        ("{ce:[[{v:1}]]}", {"cells": [[{"value": 1}]]}),
        # t/f after a colon; #0 and #F; six hex digits without '#' or quotes
        (
            "{r:t,h:f,c:#0,c1:#F,c2:a0B0c0}",
            {
                "rounded": True,
                "height": False,
                "color": "#000000",
                "borderColor": "#FFFFFF",
                "backgroundColor": "#a0B0c0",
            },
        ),  # fmt: skip
        # empty objects dropped from arrays, and '{}' kept
        ("{ce:[[,,]]}", {"cells": [[{}, {}, {}]]}),
        ("{ce:[[{},{}]]}", {"cells": [[{}, {}]]}),
        # single quotes delimit strings; \' is a quote inside one
        ("{te:'it\\'s',t:'a:t,'}", {"text": "it's", "title": "a:t,"}),
        # d is duration and d2 is d (propMap: duration -> d, d -> d2)
        ("{d:5,d2:'M0'}", {"duration": 5, "d": "M0"}),
        # mapValues: any six-hex-digit string gains a '#', as SudokuPad does
        ("{te:'abcdef'}", {"text": "#abcdef"}),
        # numbers after a colon that look like colours become colours (the same pattern)
        ("{v:123456}", {"value": "#123456"}),
    ],
)
def test_unzip_follows_puzzlezipper(zipped: str, expected: dict) -> None:
    assert json.loads(spd.unzip(zipped)) == expected
    assert spd.json_unzip(zipped) == expected


def test_plain_json_is_read_first() -> None:
    # saveJsonUnzip: JSON.parse before unzip ('d' stays 'd': no names are mapped).
    assert spd.json_unzip('{"d": 1, "cells": []}') == {"d": 1, "cells": []}


def test_a_name_and_its_short_name_together_are_refused() -> None:
    # mapProps throws on a collision ('ce' would become 'cells', which is there).
    with pytest.raises(PuzzleError, match="zipped name 'ce' and 'cells'"):
        spd.json_unzip("{cells:[],ce:[]}")


# --- decompressing --------------------------------------------------------------------------------
def test_scl_and_ctc_payloads_decompress_to_the_same_object() -> None:
    zipped = "{ce:[[{v:1},{}],[{},{}]],re:[[[0,0],[0,1]],[[1,0],[1,1]]]}"
    expected = {
        "cells": [[{"value": 1}, {}], [{}, {}]],
        "regions": [[[0, 0], [0, 1]], [[1, 0], [1, 1]]],
    }
    assert sp.decode_id(scl(zipped)) == expected
    assert sp.decode_id(scl(zipped, "ctc")) == expected
    assert sp.decode_id(scl(json.dumps(expected))) == expected  # unzipped JSON, compressed


def test_a_payload_decompressing_to_under_half_its_length_is_read_as_text() -> None:
    # saveDecompress: res.length < 0.5 * data.length → the data itself ("[1, 2]" compresses
    # to 16 characters: SudokuPad reads those, which are no JSON).
    with pytest.raises(PuzzleError, match="neither lz-string base64 nor"):
        sp.decode_id(scl("[1, 2]"))


def test_text_that_does_not_decompress_is_read_as_it_is() -> None:
    # saveDecompress: not lz-string → the text itself, JSON or zipped.
    assert sp.decode_id("scl{ce:[[{v:2}]]}") == {"cells": [[{"value": 2}]]}


def test_percent_encoding_is_undone() -> None:
    payload = scl('{"cells":[[{}]]}')
    encoded = "scl" + payload[3:].replace("+", "%2B").replace("/", "%2F")
    assert sp.decode_id(encoded) == {"cells": [[{}]]}


def test_a_collapsed_double_slash_is_repaired() -> None:
    # fixFPuzzleSlashes: chat programs make '//' one '/'; SudokuPad tries doubling slashes.
    # (Twelve one-bits in a row make '//': a title ending in two U+FFFF characters has them.
    # With 137 x before them, the collapsed payload no longer decompresses, so SudokuPad —
    # which keeps any payload that decompresses — doubles its one slash back.)
    title = "x" * 137 + "\uffff\uffff"
    body = lzstring.compress_to_base64(
        json.dumps({"cells": [[{}]], "title": title}, ensure_ascii=False)
    )
    assert "//" in body
    collapsed = body.replace("//", "/", 1)
    assert sp.decode_id("scl" + collapsed) == {"cells": [[{}]], "title": title}


# --- scf ------------------------------------------------------------------------------------------
# codoku: a digit and up to five zeros make one character; '1'..'9' alone are themselves and
# six zeros are 'o' (0 + 10*6 = 60, +51 = 111). So the first row 1..9 then 72 zeros:
SCF_ROW = "123456789" + "o" * 12


def test_scf_reads_givens_and_flags() -> None:
    puzzle = spd.decode_scf(SCF_ROW + "x")
    assert [cell.get("value") for cell in puzzle["cells"][0]] == list(range(1, 10))
    assert all(cell == {} for row in puzzle["cells"][1:] for cell in row)
    assert puzzle["diagonal+"] is puzzle["diagonal-"] is True
    # addGivens: regions[r][c] = [~~(r/3)*3 + ~~(c/3), (r*3)%9 + c%3], which SudokuPad reads
    # as a cell [row, column]: region 4 is the centre box (this read row 4 before)
    assert sorted(map(tuple, puzzle["regions"][4])) == [
        (r, c) for r in (3, 4, 5) for c in (3, 4, 5)
    ]


# AI Escargot as an scf id; with the boxes its one solution is the published one
ESCARGOT_SCF = "scffHTNWS9Qj5NdLc2kYr0Ls0RbN"
ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
ESCARGOT_SOLUTION = (
    "162857493534129678789643521475312986913586742628794135356478219241935867897261354"
)


def test_an_scf_puzzle_is_the_classic_puzzle_of_its_givens() -> None:
    puzzle, plain = parse_puzzle(ESCARGOT_SCF), parse_puzzle(ESCARGOT)
    assert puzzle.cells == plain.cells and not puzzle.model.rules
    assert sorted(map(sorted, puzzle.model.groups(9))) == sorted(map(sorted, plain.model.groups(9)))
    result = run("solve", ESCARGOT_SCF, "--all", "--format", "line")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == [ESCARGOT_SOLUTION]


@pytest.mark.parametrize(
    ("flags", "group"), [("x", "the diagonal"), ("w", "group 1")], ids=["diagonals", "windoku"]
)
def test_an_scf_flag_adds_its_rule(flags: str, group: str) -> None:
    # decodeSCF: 'x' both diagonals, 'w' windoku's four boxes (r2-4 c2-4 …); Escargot's 3s at
    # r2c2 and r4c4 share both, so the flag makes its givens repeat (they were refused unread)
    with pytest.raises(PuzzleError, match=f"digit 3 is given twice in {group}: r2c2 and r4c4"):
        parse_puzzle(ESCARGOT_SCF + flags)


def test_scf_after_a_star_has_title_author_and_windoku() -> None:
    puzzle = spd.decode_scf(SCF_ROW + "*wtMy title*aMe")
    assert puzzle["windoku"] is True and len(puzzle["underlays"]) == 4
    assert puzzle["metadata"]["title"] == "My title" and puzzle["metadata"]["author"] == "Me"


def test_scf_text_steps_on_as_decodescf_does() -> None:
    # '**' is a '*' in a title; decodeSCF then steps on by the unescaped length (7 + 1), so it
    # lands on the '*', then ' ', then reads 'tle' as a second title: a list, as addMetaData.
    puzzle = spd.decode_scf(SCF_ROW + "*tA **star* title*aMe")
    assert puzzle["metadata"]["title"] == ["A *star", "itle"]
    assert puzzle["metadata"]["author"] == "Me"


@pytest.mark.parametrize(
    ("data", "message"),
    [("12!3", "not in its alphabet"), ("123", "gives 3 of the 81 cells")],
)
def test_bad_scf_is_refused(data: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        spd.decode_scf(data)


# --- packs ----------------------------------------------------------------------------------------
def pack(*idents: str) -> str:
    return "pack" + lzstring.compress_to_base64(
        json.dumps({"title": "t", "puzzles": [{"puzzle": i} for i in idents]})
    )


def test_a_pack_opens_the_puzzle_its_hash_names() -> None:
    first = dict(FPUZ, title="first")
    second = dict(FPUZ, title="second")
    ident = pack("fpuzzles" + fpuz_payload(first), "fpuzzles" + fpuz_payload(second))
    assert sp.sudokupad_data(ident)["title"] == "first"  # getHashIdx: 0 without a hash
    assert sp.sudokupad_data(ident, "puzzle1")["title"] == "second"
    link = f"https://sudokupad.app/{ident}#puzzle1"
    assert parse_puzzle(link).cells == parse_puzzle("fpuzzles" + fpuz_payload(second)).cells


@pytest.mark.parametrize(
    ("ident", "fragment", "message"),
    [
        (pack("fpuzzlesN4Ig"), "puzzle3", "#puzzle3 names no puzzle"),
        (pack(pack("fpuzzlesN4Ig")), "", "a pack inside a pack"),
        ("pack" + lzstring.compress_to_base64("{p:1}"), "", "not JSON"),
        ("pack" + lzstring.compress_to_base64('{"puzzles": 3}'), "", "no list of 'puzzles'"),
    ],
)
def test_bad_packs_are_refused(ident: str, fragment: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        sp.sudokupad_data(ident, fragment)


# --- bad input: one line, exit 2 ------------------------------------------------------------------
BOMB = scl("a" * (4 * MAX_PAYLOAD_CHARS))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (scl('{"cells":[[{}]]}')[:12], "neither lz-string base64 nor SudokuPad's puzzle JSON"),
        ("scl", "it is empty"),
        ("sclN4Ig%zz", "starts no %XX escape"),
        (scl("hello, world"), "neither lz-string base64 nor SudokuPad's puzzle JSON"),
        (scl('{"cells": 5}'), "'cells' is a number, not a list of rows"),
        (scl('{"title": "x"}'), "'cells' is missing"),
        # (long enough: saveDecompress keeps the text when it decompresses to under half)
        (scl(json.dumps(list(range(50)))), "its JSON is a list, not a puzzle object"),
        (scl('{"cells": [1, 2]}'), "row 1 of 'cells' is a number"),
        (scl('{"cells": [[1]]}'), "cell r1c1 is a number, not a cell object"),
        (scl(json.dumps({"cells": [[{}]] * 65})), "65 rows; the largest puzzle is 64x64"),
        (scl(json.dumps({"cells": [[{}] * 100]})), "row 1 has 100 cells"),
        ("scf12!", "not in its alphabet"),
        (BOMB, "decompresses to more than the cap"),
    ],
)
def test_bad_payloads_are_one_line_and_exit_2(text: str, message: str) -> None:
    given = "https://sudokupad.app/" + text if len(text) < 5000 else text
    with pytest.raises(PuzzleError, match=message):
        parse_puzzle(given)
    result = run("solve", given)
    assert result.exit_code == 2
    assert message.split("'")[0] in error_line(result)


def test_a_payload_over_the_cap_is_refused_before_decoding() -> None:
    with pytest.raises(PuzzleError, match="more than the cap"):
        spd.decompress_id("A" * (MAX_PAYLOAD_CHARS + 1))


def test_a_wrong_prefix_is_a_puzzle_line_error() -> None:
    # 'Scl' is not SudokuPad's prefix (case-sensitive): the text is read as a puzzle line.
    result = run("solve", "Scl" + scl('{"cells":[[{}]]}')[3:])
    assert result.exit_code == 2
    assert "SudokuPad" not in error_line(result)


def test_a_bomb_is_refused_in_milliseconds() -> None:
    start = time.perf_counter()
    with pytest.raises(PuzzleError, match="cap"):
        parse_puzzle(BOMB)
    assert time.perf_counter() - start < 2.0  # (about 10 ms; loose for a busy machine)


def test_a_short_id_offline_says_fetch() -> None:
    line = error_line(run("solve", "https://sudokupad.app/wsj7iunsg6"))
    assert "stored on SudokuPad's server" in line and "--fetch" in line
    assert "https://sudokupad.app/api/puzzle/wsj7iunsg6" in line


def test_bad_lines_of_a_file_are_invalid_records(tmp_path: Path) -> None:
    path = tmp_path / "links.txt"
    path.write_text(
        "# bad SudokuPad lines\n"
        + scl('{"cells": 5}') + "\n"
        + "https://sudokupad.app/" + scl("nope") + "\n"
        + "fpuzzles" + fpuz_payload(FPUZ) + "\n"
    )  # fmt: skip
    records = list(read_input(str(path)))
    assert [r.ok for r in records] == [False, False, True]
    assert "'cells' is a number" in str(records[0].error)
    result = run("check", str(path), "-b", "backtrack", "-j", "0", "-f", "jsonl", "-q")
    assert result.exit_code == 1 and "Traceback" not in result.output
    statuses = [json.loads(line)["verdict"] for line in result.stdout.splitlines()]
    assert statuses == ["invalid", "invalid", "unique"]


# --- reading options ------------------------------------------------------------------------------
def test_elements_toml_becomes_spec_strings(tmp_path: Path) -> None:
    path = tmp_path / "elements.toml"
    path.write_text('[elements]\n"line:#67f067" = "whispers"\n"cage:#000000" = "killercage"\n')
    assert sp.element_specs_from_toml(str(path)) == (
        "line:#67f067=whispers",
        "cage:#000000=killercage",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[elements\n", "is not TOML"),
        ('x = "y"\n', "unknown key"),
        ("[other]\n", "unknown key"),
        ('[elements]\n"line:red" = 3\n', "not a rule key"),
        ('[elements]\n"line" = "whispers"\n', "is not KIND:STYLE=KEY"),
    ],
)
def test_bad_elements_files_exit_2(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "elements.toml"
    path.write_text(text)
    result = run("solve", "--elements", str(path), "1" + "." * 15)
    assert result.exit_code == 2
    assert message in error_line(result)


def test_a_bad_element_option_exits_2() -> None:
    result = run("count", "--element", "whispers", "1" + "." * 15)
    assert result.exit_code == 2
    assert "is not KIND:STYLE=KEY" in error_line(result)


def test_settings_last_for_the_command_only() -> None:
    result = run("solve", "--fetch", "--element", "line:red=whispers", "1234341221434321")
    assert result.exit_code == 0, result.output
    assert sp.current_settings() is None


def test_line_parsers_carry_the_settings_to_workers() -> None:
    from sudoku_cp.formats.records import LineParser
    from sudoku_cp.model import load_model

    given = sp.ReadingSettings(element_specs=("line:red=whispers",), fetch=True)
    with sp.reading(given):
        parser = LineParser("line", load_model("classic"))
    assert LineParser("line", load_model("classic")).reading is None
    copy = pickle.loads(pickle.dumps(parser))  # (what a worker process receives)
    assert copy.reading == given
    assert sp.current_settings() is None


# --- writing back ---------------------------------------------------------------------------------
def test_solve_format_sudokupad_reads_back_to_the_same_puzzle() -> None:
    killer = {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "killercage": [
            {"cells": ["R1C1", "R1C2"], "value": "3"},
            {"cells": ["R2C1", "R2C2"], "value": "7"},
            {"cells": ["R3C3", "R4C3"], "value": "6"},
            {"cells": ["R1C3", "R2C3"], "value": "4"},
            {"cells": ["R3C1", "R4C1"], "value": "6"},
        ],
    }
    link = "https://f-puzzles.com/?load=" + fpuz_payload(killer)
    original = parse_puzzle(link)
    result = run("solve", link, "-f", "sudokupad")
    written = result.stdout.strip()
    assert written.startswith("https://sudokupad.app/fpuzzles"), result.output
    back = parse_puzzle(written)  # through find_payload, as SudokuPad's fpuzzles import
    assert back.cells == original.cells and back.size == original.size
    assert sorted(map(repr, back.model.rules)) == sorted(map(repr, original.model.rules))
    found = run("solve", link, "-f", "line").stdout.split()[0]
    assert back.published is not None
    assert "".join(map(str, back.published)) == found  # the solution found went in


# --- real payloads --------------------------------------------------------------------------------
def real_payloads() -> list[str]:
    return [
        line.strip()
        for line in REAL.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]


def test_real_payloads_decode() -> None:
    payloads = real_payloads()
    assert len(payloads) >= 3
    for payload in payloads:
        found = links.find_payload(payload)
        assert found is not None and found.kind == "sudokupad"
        puzzle = sp.decode_id(found.payload)
        rows, columns = sp.check_shape(puzzle)
        assert (rows, columns) == (9, 9)
        solution = sp.stated_solution(puzzle, 81)
        if solution is not None:  # a setter's solution is a sudoku: every house 1..9
            grid = [solution[r * 9 : r * 9 + 9] for r in range(9)]
            houses = grid + [list(col) for col in zip(*grid, strict=True)]
            houses += [
                [grid[r][c] for r in range(br, br + 3) for c in range(bc, bc + 3)]
                for br in (0, 3, 6)
                for bc in (0, 3, 6)
            ]
            assert all(sorted(house) == list(range(1, 10)) for house in houses)


def test_real_payloads_are_typed_or_refused_naming_the_element() -> None:
    # None of the three real puzzles is drawn only in the converter's styles (Sudoku Maker
    # draws dots and lines its own way): each is refused, naming an element and the spec that
    # would say what it means. A typed one must be unique with its published solution.
    refused = 0
    for payload in real_payloads():
        try:
            puzzle = parse_puzzle(payload)
        except PuzzleError as err:
            assert "\n" not in str(err) and "--element '" in str(err), err
            refused += 1
            continue
        result = run("check", payload, "-j", "0", "-f", "jsonl", "-q")
        record = json.loads(result.stdout.splitlines()[0])
        assert record["verdict"] == "unique" or puzzle.published is None, record
    assert refused == 3


def test_a_rule_drawn_in_a_picture_and_said_cosmetic_is_caught_by_the_published_solution() -> None:
    # Parity Fish: its dots said to be kropki dots (as its rules text says) and its background
    # picture said to draw nothing — but the picture draws the red parity lines. The puzzle
    # as read has many solutions; its published solution holds but is not among the two found,
    # so the verdict is a disagreement, not "multiple".
    fish = next(p for p in real_payloads() if "sclN4SwJgXA5AzgHjAtgfQLIEMBOAXAngZQFMsZkBWAD" in p)
    result = run(
        "check", fish, "-j", "0", "-f", "jsonl", "-q", "-b", "sat",
        "--element", "overlay:#ffffff=difference",
        "--element", "overlay:#000000=ratio",
        "--element", "image:bgimage=cosmetic",
    )  # fmt: skip
    record = json.loads(result.stdout.splitlines()[0])
    assert record["verdict"] == "disagreement", record
    assert record["published"] == "differs", record


# --- never a traceback ---------------------------------------------------------------------------
_ZIPPED = st.text(alphabet="{}[],:'\"\\tf#0F123abcdefvce_-SX ", max_size=60)


@given(
    prefix=st.sampled_from(["scl", "ctc", "scf", "pack"]),
    body=st.one_of(
        st.text(max_size=80),
        _ZIPPED,
        _ZIPPED.map(lzstring.compress_to_base64),
        st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=%",
                max_size=120),
    ),
)  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_any_payload_is_read_or_refused_in_one_line(prefix: str, body: str) -> None:
    try:
        sp.decode_id(prefix + body) if prefix in ("scl", "ctc", "scf") else sp.sudokupad_data(
            prefix + body
        )
    except PuzzleError as err:
        assert "\n" not in str(err)


def test_a_bare_scf_id_with_its_title_and_author_is_read() -> None:
    # decodeSCF reads 't'/'a' text after a '*': the bare id was read as 39 cells of a grid
    assert parse_puzzle(ESCARGOT_SCF + "*tTitle*aMe").cells == parse_puzzle(ESCARGOT_SCF).cells
