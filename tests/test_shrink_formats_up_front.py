"""``minimize`` and ``shrink`` refuse a --format that cannot hold the puzzle before they search:
f-puzzles above 16x16 was refused only after the whole search (the puzzle found was lost, and
a 25x25 minimize ran 80 s first), and ``--format pretty`` printed a killer's or a jigsaw's grid
without its cages or regions (exit 0: an empty grid as "the minimal puzzle")."""

from __future__ import annotations

import json

import pytest
from clitools import error_line, run

from sudoku_cp.datasets import bundled_path

PUZZLE_25 = (
    "O.A6P....1.8.L..MN..KB.IC...K..3.E..AO..GF....1..D.....HI.K.2..N..1D.J..A.7"
    "5.....LF.G......7P..32EN.2....O6P.7........H.8G9L.IK..H...M.6.......F..JD.."
    ".L..8CH.B...ME3.J.15.P...D..5...8...BCH.....O2NME.N..2E....6J....I..C.GL..8"
    ".6....54.JLGF.8N3.M2BI.H.8..FG.CB.H.N3....1....67.E.3NM....O.J4.1.BCKI....."
    "45.D.8F.L..I.CBAO.6P..3.....P....J59L.F..2.3..HK..HB..C.NM3..6A.7.G..LJ.4.."
    "1...J.8.9..H..I.P.....2..7.OA.1..5.F......3.....K.MN.E...6O..514J.I.BH....L"
    "..B.KME..NP...6FL8G........9...KI.C..23..D..4.7O6P..I.B.M2..A..7..9.L..4J15"
    "....2.7.P...J15.HB..F...96AP7O..5D4....93...MC..BHL8F....H.....2.J45...6..A"
    "..D....9.8KC...6...7M...E"
)


def _line(name: str, number: int) -> str:
    return bundled_path(name).read_text(encoding="utf-8").splitlines()[number]


def test_fpuzzles_above_16x16_is_refused_before_any_solver_call(tmp_path) -> None:
    # a unique 25x25 puzzle (`sudoku-cp generate -s 25 --seed 1`)
    result = run("minimize", PUZZLE_25, "--format", "fpuzzles", "--max-calls", "3")
    assert result.exit_code == 2
    assert "f-puzzles" in error_line(result)  # one line: no "removable alone" before it


@pytest.mark.parametrize("command", ["minimize", "shrink"])
def test_pretty_is_refused_for_a_killer(tmp_path, command) -> None:
    killer = tmp_path / "k.jsonl"
    killer.write_text(_line("killer", 0) + "\n", encoding="utf-8")
    assert json.loads(killer.read_text())["cages"]
    result = run(command, str(killer), "--format", "pretty")
    assert result.exit_code == 2
    assert "rules of its own" in error_line(result)


def test_pretty_is_refused_for_a_jigsaw(tmp_path) -> None:
    header, first = _line("jigsaw", 0), _line("jigsaw", 1)
    jigsaw = tmp_path / "j.csv"
    jigsaw.write_text(f"{header}\n{first}\n", encoding="utf-8")
    result = run("minimize", str(jigsaw), "--format", "pretty")
    assert result.exit_code == 2
    assert "rules of its own" in error_line(result)


def test_pretty_and_fpuzzles_still_write_what_they_hold() -> None:
    from puzzles import KNOWN

    assert run("minimize", KNOWN, "--format", "pretty").exit_code == 0
    assert run("minimize", KNOWN, "--format", "fpuzzles").exit_code == 0
