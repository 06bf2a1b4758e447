"""Grid states of real SE solve paths, for tests comparing a speed door with the plain code."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from sudoku_cp.logic.se import rate_values
from sudoku_cp.logic.se.grid import SEGrid


def states_asking(
    monkeypatch: pytest.MonkeyPatch, producer: Any, lines: Iterable[str]
) -> list[SEGrid]:
    """The grids on which the SE solve paths of ``lines`` (81 characters, ``.`` blank) ask
    ``producer`` (one of ``rating.PRODUCERS``) for a step, copied as they were."""
    from sudoku_cp.logic.se import rating

    states: list[SEGrid] = []

    def spy(g: SEGrid) -> Any:
        states.append(g.copy())
        return producer(g)

    producers = tuple((n, spy if p is producer else p) for n, p in rating.PRODUCERS)
    assert producers != rating.PRODUCERS, "not one of SE's producers"
    with monkeypatch.context() as patched:
        patched.setattr(rating, "PRODUCERS", producers)
        for line in lines:
            rate_values([0 if c == "." else int(c) for c in line])
    return states


def shut_and_open(
    monkeypatch: pytest.MonkeyPatch, module: Any, door: str, producer: Any, g: SEGrid
) -> tuple[list[Any], list[Any]]:
    """The hints ``producer`` gives on ``g`` with the speed door ``module.door`` shut, then
    open (it is left open)."""
    monkeypatch.setattr(module, door, False)
    shut = list(producer(g))
    monkeypatch.setattr(module, door, True)
    return shut, list(producer(g))
