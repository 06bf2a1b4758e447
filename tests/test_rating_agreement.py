"""The rating-agreement benchmark's --datasets: a folder without the public sets' files is
refused in one line (exit status 2), before HoDoKu is needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.perf import rating_agreement


def test_datasets_without_the_files_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "norvig").mkdir()
    (tmp_path / "norvig" / "top95.txt").write_text("")
    with pytest.raises(SystemExit) as exit_:
        rating_agreement.main(["--datasets", str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--datasets: no file" in err and "radcliffe_3m_stratified_sample7034.csv" in err


def test_datasets_names_the_public_sets(tmp_path: Path) -> None:
    puzzle = "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"
    for name in rating_agreement.SHARED_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        line = f"{puzzle},x\n" if name.endswith(".csv") else f"{puzzle}\n"
        (tmp_path / name).write_text(line * 120)  # tdoku's top1465 set skips its first 100
    sets = rating_agreement.puzzle_sets(2, tmp_path)
    for name in ("kaggle-radcliffe", "royle17", "tdoku-top1465", "norvig-top95"):
        assert sets[name] == [puzzle, puzzle]
