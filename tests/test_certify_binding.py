"""`certificate verify --puzzles FILE`: a certificate proves a claim about the puzzle it holds
itself (givens *and* model); without binding it to the input, a certificate copied from
another puzzle, or one whose model gained a rule, verified just the same as an honest one.
Real solver (CaDiCaL) and real checker (dratify) throughout."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from clitools import run

pytest.importorskip("dratify")

from sudoku_cp.certify import load, make  # noqa: E402
from sudoku_cp.certify.certificate import read_puzzle, store  # noqa: E402

UNIQUE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
OTHER = "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3"
MANY = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
"""The multi-solution puzzle of docs/examples/certify-a-collection.md (classic rules)."""


@pytest.fixture()
def certified(tmp_path: Path) -> tuple[Path, Path]:
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(f"{UNIQUE}\n{OTHER}\n{MANY}\n")
    certs = tmp_path / "certs"
    result = run("check", str(puzzles), "--certify", str(certs), "-o", str(tmp_path / "r.jsonl"),
                 "-q", "-j", "0")  # fmt: skip
    assert result.exit_code == 1, result.output  # (MANY is multiple)
    assert sorted(p.name for p in certs.iterdir()) == [
        "0000001.cert.gz", "0000002.cert.gz", "0000003.cert.gz"
    ]  # fmt: skip
    return puzzles, certs


def _verify_bound(certs: Path, puzzles: Path):
    """``certificate verify`` of the folder, bound to its input, in this process."""
    return run("certificate", "verify", str(certs), "--puzzles", str(puzzles), "-j", "0")


def test_honest_certificates_verify_against_their_input(certified):
    puzzles, certs = certified
    result = _verify_bound(certs, puzzles)
    assert result.exit_code == 0, result.output
    assert "verified (multiple)" in result.stdout and "rejected" not in result.stdout


def test_a_certificate_copied_from_another_puzzle_is_rejected(certified):
    puzzles, certs = certified
    shutil.copy(certs / "0000001.cert.gz", certs / "0000002.cert.gz")
    result = _verify_bound(certs, puzzles)
    assert result.exit_code == 1, result.output
    assert (
        f"{certs / '0000002.cert.gz'}: rejected: it certifies other givens than puzzle 2 "
        "of the input\n"
    ) in result.stdout


def test_a_unique_certificate_for_a_multiple_puzzle_under_an_added_rule_is_rejected(certified):
    puzzles, certs = certified
    multiple = load(certs / "0000003.cert.gz")
    assert multiple["claim"] == "multiple"
    # The forgery: the same givens, the model still named classic, one pencil-mark rule per
    # blank cell narrowing it to the first witness: a real proof, which dratify accepts.
    target = multiple["solutions"][0]
    model = json.loads(json.dumps(multiple["model"]))
    model["rules"] = [
        {"key": "givenPencilMarks", "cells": [i], "digits": [int(target[i])]}
        for i, ch in enumerate(MANY)
        if ch == "."
    ]
    made = make(read_puzzle(MANY, model), "unique", [[int(ch) for ch in target]])
    assert made.data is not None, made.reason
    made.data["model"]["name"] = multiple["model"]["name"]
    store(made.data, certs, 3)
    alone = run("certificate", "verify", str(certs / "0000003.cert.gz"), "-j", "0")
    assert alone.stdout.endswith("verified (unique)\n")  # (true of the puzzle it holds)
    result = _verify_bound(certs, puzzles)
    assert result.exit_code == 1, result.output
    assert (
        f"{certs / '0000003.cert.gz'}: rejected: it certifies puzzle 3's givens under other "
        "rules than the input's\n"
    ) in result.stdout
    # and the option does not stick to the next run in the same process
    again = run("certificate", "verify", str(certs / "0000003.cert.gz"), "-j", "0")
    assert again.exit_code == 0, again.output


def test_a_certificate_past_the_input_is_rejected(certified):
    puzzles, certs = certified
    shutil.copy(certs / "0000001.cert.gz", certs / "0000009.cert.gz")
    result = run("certificate", "verify", str(certs / "0000009.cert.gz"), "--puzzles",
                 str(puzzles), "-j", "0")  # fmt: skip
    assert result.exit_code == 1
    assert result.stdout.endswith("rejected: the input holds no puzzle 9\n")
    gzip.decompress((certs / "0000009.cert.gz").read_bytes())  # (a real certificate)
