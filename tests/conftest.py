"""Shared test helpers: paths to bundled samples and the public datasets (when present)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "sudoku_cp" / "data"
# CI clones main with shared/ beside it; a developer checkout has it one level up too.
DATASETS = REPO.parent / "shared" / "datasets"


@pytest.fixture
def datasets() -> Path:
    if not DATASETS.is_dir():
        pytest.skip("shared/datasets is not beside this checkout")
    return DATASETS
