"""``rate --scale se`` on Denis Berthier's controlled-bias collection (issue 30).

``tests/data/controlled_bias_ser.csv`` holds two puzzles of each SER value that file 001 of the
collection has (the first two in file order; one where a value occurs once), with two
witnesses, neither made by this project: ``ser``, the SER Berthier published beside the puzzle
(``001-SER.txt``), and ``er,ep,ed``, Sudoku Explainer 1.2.1's own output here (see
tests/data/SOURCES.md). The two ERs agree on every row; ours must equal both, exactly.
"""

from __future__ import annotations

import csv

import pytest
from conftest import TESTS

from sudoku_cp.logic.se import rate_values

ROWS = list(csv.DictReader((TESTS / "data" / "controlled_bias_ser.csv").open()))


def test_the_two_witnesses_agree_and_cover_the_scale() -> None:
    assert all(float(row["ser"]) == float(row["er"]) for row in ROWS)
    values = {float(row["ser"]) for row in ROWS}
    assert len(ROWS) == 100 and min(values) == 1.2 and max(values) >= 9.0


@pytest.mark.parametrize("row", ROWS, ids=[f"cb001:{r['line']}:{r['ser']}" for r in ROWS])
def test_rating_equals_the_published_ser_and_se_s_own(row: dict[str, str]) -> None:
    rating = rate_values([0 if c == "." else int(c) for c in row["puzzle"]], 300.0)
    assert rating.exact and rating.outcome == "solved", rating.text()
    assert rating.er == pytest.approx(float(row["ser"]))
    assert (rating.er, rating.ep, rating.ed) == pytest.approx(
        (float(row["er"]), float(row["ep"]), float(row["ed"]))
    )
