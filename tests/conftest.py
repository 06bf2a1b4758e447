"""Shared test fixtures: paths to bundled samples and the public datasets (when present), test
backends registered for one test, a folder every user can enter."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"
DATA = REPO / "sudoku_cp" / "data"
# The developer scripts (tools/perf) live in the checkout, outside the installed package: the
# checkout's root goes at the end of the path, so `tools` is found there while `sudoku_cp` is
# still the installed one (CI tests a normal install; pytest itself puts only tests/ first).
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))
# CI clones main with shared/ beside it; a developer checkout has it one level up too.
DATASETS = REPO.parent / "shared" / "datasets"


@pytest.fixture
def datasets() -> Path:
    if not DATASETS.is_dir():
        pytest.skip("shared/datasets is not beside this checkout")
    return DATASETS


@pytest.fixture
def registered() -> Iterator[Callable[..., None]]:
    """``registered(Cls, ...)`` adds test backends through the public ``register``; they are
    removed after the test."""
    from sudoku_cp.backends import register, unregister

    added: list[str] = []

    def add(*classes: type) -> None:
        for cls in classes:
            register(cls, replace=True)
            added.append(cls.name)

    yield add
    for name in reversed(added):
        unregister(name)


@pytest.fixture
def fault_backends(registered: Callable[..., None]) -> ModuleType:
    """Every backend of fault_backends.py registered for this test (the module is returned)."""
    import fault_backends as module

    registered(*module.ALL)
    return module


@pytest.fixture
def public_dir() -> Iterator[Path]:
    """A folder everybody can enter (pytest's tmp_path is private to root), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="sudoku-cp-test-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    with contextlib.suppress(OSError):
        for path in folder.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (the README's test command): one worker per CPU this process may run on.
    pytest-xdist asks psutil (installed with dask) first, which counts the host's physical
    cores: one on a runner of two hyperthreads, dozens in a container allowed two.
    PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set (None: pytest-xdist reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or not hasattr(os, "sched_getaffinity"):
        return None
    return len(os.sched_getaffinity(0)) or None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A case parametrized with a 25x25 grid (``n == 25``, as the backend contract's model and
    size cases are) is slow: only those cases, not their 4x4 to 16x16 siblings.

    The slow tests then run first (in their collected order): pytest-xdist's workers steal
    from the end of each other's queues, so a minute-long test left there kept one worker
    busy while the other sat idle at the end of the run."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("n") == 25:
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
