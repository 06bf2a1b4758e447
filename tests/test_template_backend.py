"""The template backend (``sudoku_cp/backends/template.py``) keeps the whole backend contract.

It is not registered by default; here it is registered for this module's tests only, and every
contract test of ``test_backend_contract.py`` that takes a backend is collected again with the
template as that backend — so the file new backends are copied from cannot rot.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import pytest
import test_backend_contract as contract
from puzzles import FEW, FEW_COUNT, INKALA, solve_checked
from test_backend_contract import Spec

from sudoku_cp import BackendError, Puzzle, Status, backend_names, solve
from sudoku_cp.backends import register, unregister
from sudoku_cp.backends.template import MAX_SIZE, TemplateBackend

NOT_HERE = {
    "test_bundled_16x16_and_famous": "hard 16x16 puzzles take a search without propagation "
    "over a minute",
    "test_tdoku_known_answers": "seconds for a search without propagation (and a dataset)",
    "test_variant_puzzles": "45 s for a search without propagation",
}
"""Data-set tests left out for the template: they measure a search, not the contract."""

for _name, _test in vars(contract).items():
    if (
        _name.startswith("test_")
        and _name not in NOT_HERE
        and {"spec", "backend"} & set(inspect.signature(_test).parameters)
    ):
        globals()[_name] = _test  # collected here over the template


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    for fixture in ("spec", "backend"):
        if fixture in metafunc.fixturenames:
            metafunc.parametrize(fixture, [pytest.param(Spec("template"), id="template")])


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    register(TemplateBackend)
    yield
    unregister("template")


def test_not_registered_by_default() -> None:
    unregister("template")
    assert "template" not in backend_names()
    with pytest.raises(BackendError, match="unknown backend"):
        solve(Puzzle.parse(FEW), "template")


def test_refuses_grids_it_would_recurse_too_deep_on() -> None:
    big = Puzzle([0] * (25 * 25))
    reason = TemplateBackend().supports(big)
    assert reason and "'template'" in reason and f"{MAX_SIZE}x{MAX_SIZE}" in reason
    with pytest.raises(BackendError) as err:
        solve(big, "template")
    assert str(err.value) == reason
    assert TemplateBackend().supports(Puzzle([0] * (MAX_SIZE * MAX_SIZE))) is None


def test_reading_order_finds_the_same_solutions() -> None:
    few = Puzzle.parse(FEW)
    fewest = solve_checked("template", few, None)
    reading = solve_checked("template", few, None, order="reading")
    assert fewest.count == reading.count == FEW_COUNT
    assert set(fewest.solutions) == set(reading.solutions)
    assert reading.stats["nodes"] >= fewest.stats["nodes"] > 0


def test_reading_order_is_cut_by_the_time_limit() -> None:
    result = solve_checked("template", Puzzle.parse(INKALA), 2, order="reading", time_limit=0.2)
    assert result.status is Status.TIMEOUT and not result.exact
