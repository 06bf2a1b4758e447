"""Every number a user or a record can give has a documented cap, and a file read whole (a model,
a bench record) a size cap: above it, one line naming the option or field and the cap, exit 2,
before any work. Malformed ``bench --replay`` records likewise name the field."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from clitools import error_line, run
from puzzles import EULER

from sudoku_cp.backends import MAX_LIMIT, MAX_TIME_LIMIT, BackendError, check_limits
from sudoku_cp.batch import CheckConfig, check_puzzles
from sudoku_cp.batch.items import MAX_METAMORPHIC
from sudoku_cp.batch.pool import max_jobs
from sudoku_cp.bench.record import MAX_REPEAT, config_from_record, load_record
from sudoku_cp.errors import SudokuError
from sudoku_cp.model import MAX_MODEL_BYTES, load_model


# --- options on the command line ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["bench", "easy", "--repeat", str(10**18)], "'--repeat': 1000000000000000000 is above "),
        (["check", EULER, "--metamorphic", "1000000000"], "'--metamorphic': 1000000000 is above "),
        (["check", EULER, "--limit", str(MAX_LIMIT + 1)], f"'--limit': {MAX_LIMIT + 1} is not in"),
        (["count", EULER, "--limit", str(10**18)], "'--limit': 1000000000000000000 is not in"),
        (["solve", EULER, "--limit", str(MAX_LIMIT + 1)], "'--limit'"),
        (["bench", "easy", "--limit", str(MAX_LIMIT + 1)], "'--limit'"),
        (["solve", EULER, "--time-limit", "1e9"], "'--time-limit': 1000000000.0 is not in"),
        (["check", EULER, "--time-limit", "inf"], "'--time-limit': inf is not in"),
        (["count", EULER, "--time-limit", "86401"], "'--time-limit'"),
        (["bench", "easy", "--time-limit", "1e300"], "'--time-limit'"),
    ],
)
def test_numbers_above_their_cap_are_refused_naming_the_option_and_the_cap(
    args: list[str], expected: str
) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    line = error_line(result)
    assert expected in line
    caps = {"--repeat": MAX_REPEAT, "--metamorphic": MAX_METAMORPHIC, "--limit": MAX_LIMIT}
    caps["--time-limit"] = int(MAX_TIME_LIMIT)
    option = expected.split("'")[1]
    assert str(caps[option]) in line.replace(",", "")


@pytest.mark.parametrize(
    "args",
    [
        ["solve", EULER, "-t", "nan"],
        ["check", EULER, "-t", "nan"],
        ["count", EULER, "-t", "NaN"],
        ["bench", "easy", "-t", "nan"],
        ["candidates", EULER, "-t", "nan"],
        ["minimize", EULER, "-t", "nan"],
        ["shrink", EULER, "-t", "nan"],
        ["draw", EULER, "--solution", "-t", "nan"],
        ["rate", EULER, "--time-cap", "nan"],
        ["explain", EULER, "--time-cap", "nan"],
    ],
)
def test_nan_seconds_are_refused_everywhere(args: list[str]) -> None:
    """NaN passes every range test (each comparison with it is false): candidates, rate,
    explain, minimize and shrink ran with no limit, or failed in a backend."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert error_line(result).endswith("is not a number of seconds")


@pytest.mark.parametrize("command", [["check", EULER], ["count", EULER], ["bench", "easy"]])
def test_jobs_above_four_per_core_are_refused(command: list[str]) -> None:
    cap = max_jobs()
    result = run(*command, "--jobs", str(cap + 1), "-b", "backtrack")
    assert result.exit_code == 2, result.output
    assert error_line(result).endswith(
        f"'--jobs': {cap + 1} is above the cap of {cap:,} (4 per usable core)"
    )
    with pytest.raises(SudokuError, match=f"jobs {cap + 1} is above the cap of {cap}"):
        list(check_puzzles([EULER], ["backtrack"], jobs=cap + 1))


def test_cpsat_workers_have_a_cap() -> None:
    result = run("check", EULER, "-b", "cpsat", "-O", "cpsat.workers=1000000")
    assert result.exit_code == 2, result.output
    assert error_line(result) == (
        "sudoku-cp: error: option 'workers' of backend 'cpsat' must be at most 64, not 1000000"
    )


def test_the_api_refuses_the_same_caps() -> None:
    with pytest.raises(BackendError, match="limit must be a whole number from 1 to 100,000"):
        check_limits(MAX_LIMIT + 1, None)
    with pytest.raises(BackendError, match="at most 86,400, not inf"):
        check_limits(2, float("inf"))
    with pytest.raises(SudokuError, match="from 0 to 1,000, not 1001"):
        CheckConfig.make(["backtrack"], metamorphic=MAX_METAMORPHIC + 1)
    check_limits(MAX_LIMIT, MAX_TIME_LIMIT)  # the caps themselves are allowed


# --- files read whole ---------------------------------------------------------------------------
def test_a_model_file_is_read_with_a_size_cap(tmp_path: Path) -> None:
    result = run("check", EULER, "--model", "/dev/zero", "-b", "backtrack")
    assert result.exit_code == 2, result.output
    assert error_line(result) == (
        "sudoku-cp: error: model file /dev/zero is larger than the cap of 1,048,576 bytes "
        "(a model file is a few lines of TOML)"
    )
    big = tmp_path / "big.toml"
    big.write_text('groups = ["rows", "columns", "boxes"]\n' + "#\n" * MAX_MODEL_BYTES)
    with pytest.raises(SudokuError, match="larger than the cap of 1,048,576 bytes"):
        load_model(big)
    assert run("solve", EULER, "--model", str(big)).exit_code == 2


def test_a_replay_record_is_read_with_a_size_cap() -> None:
    result = run("bench", "--replay", "/dev/zero")
    assert result.exit_code == 2, result.output
    assert "record '/dev/zero' is larger than the cap of 16,777,216 bytes" in error_line(result)


# --- bench --replay records ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("bench")
    data = folder / "one.csv"
    data.write_text(f"id,puzzle\neuler,{EULER}\n", encoding="utf-8")
    result = run("bench", str(data), "-b", "backtrack", "-o", str(folder / "out"), "-q")
    assert result.exit_code == 0, result.output
    saved = load_record(folder / "out")
    config_from_record(saved)  # the record as saved is fine
    return saved


def _replay(tmp_path: Path, data: object) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("bench", "--replay", str(path), "-o", str(tmp_path / "again"), "-q")
    assert result.exit_code == 2, result.output
    return error_line(result).removeprefix("sudoku-cp: error: ")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("options.repeat", "3", "field 'options.repeat' must be a whole number, not '3'"),
        ("options.repeat", 10**18, "field 'options.repeat' must be a whole number from 1 to 1,000"),
        ("options.warmup", "no", "field 'options.warmup' must be true or false, not 'no'"),
        ("options.jobs", 10**6, "field 'options.jobs' must be a whole number from 1 to"),
        ("options.limit", True, "field 'options.limit' must be a whole number, not True"),
        ("options.limit", 10**9, "field 'options.limit' must be a whole number from 1 to 100,000"),
        ("options.time_limit", "5", "field 'options.time_limit' must be a number of seconds"),
        ("options.time_limit", 1e300, "field 'options.time_limit' must be a positive number"),
        ("options.model", 7, "field 'options.model' must be a string, not 7"),
        ("seed", 1.5, "field 'seed' must be a whole number, not 1.5"),
        ("options", [], "field 'options' must be an object, not []"),
        ("datasets", {}, "field 'datasets' must be a list, not {}"),
        ("backends", [5], "field 'backends[0]' must be an object, not 5"),
    ],
)
def test_a_malformed_replay_record_names_the_field(
    record: dict, tmp_path: Path, field: str, value: object, message: str
) -> None:
    data = copy.deepcopy(record)
    *parents, last = field.split(".")
    target = data
    for part in parents:
        target = target[part]
    target[last] = value
    assert _replay(tmp_path, data).startswith(f"bench record: {message}")


@pytest.mark.parametrize("field", ["options", "seed", "datasets", "backends"])
def test_a_replay_record_missing_a_field_names_it(record: dict, tmp_path: Path, field: str) -> None:
    data = copy.deepcopy(record)
    del data[field]
    assert _replay(tmp_path, data) == f"bench record: field {field!r} is missing"
    data = copy.deepcopy(record)
    del data["options"]["repeat"]
    assert _replay(tmp_path, data) == "bench record: field 'options.repeat' is missing"


def test_a_replay_record_that_is_not_an_object_or_not_json(tmp_path: Path) -> None:
    assert _replay(tmp_path, [1, 2]) == "bench record: not a JSON object but list"
    path = tmp_path / "torn.json"
    path.write_text('{"format": ', encoding="utf-8")
    result = run("bench", "--replay", str(path))
    assert result.exit_code == 2
    assert "is not a JSON record: Expecting value" in error_line(result)
