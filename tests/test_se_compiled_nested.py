"""The nested forcing chains behind the SE rater's speed door
(:mod:`sudoku_cp.logic.se.compiled.nested`): what a nested chaining reads when its links run
out (``forcing._advanced``: the level-1 rules, "Forcing Chains & Cycles", multiple and dynamic
forcing chains, every hint) is, compiled, what the plain rules give — the same offs in the
same order, each with the same parents and the same nested chain — on the grids real
chainings leave; and the nested producers take SE's steps with it.

The grids: SE's candidates at steps of two published hardest puzzles' paths where SE's
nested levels 2, 3 and 4 take their steps (``tests/test_se_nested.py``, SE's own output),
each less what a dynamic chaining from some of its potentials turned off (the grid the
chaining's rules read when its links ran out).
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from test_se_nested import (  # noqa: E402
    BEFORE_LEVEL_2,
    BEFORE_LEVEL_3,
    MSOLVE_1,
    se_state,
    solution_of,
    sound,
)
from test_se_rating import GOLDEN_NUGGET, GOLDEN_NUGGET_AFTER_3  # noqa: E402

from sudoku_cp.logic.se import forcing  # noqa: E402
from sudoku_cp.logic.se.compiled import nested  # noqa: E402
from sudoku_cp.logic.se.grid import BITS, SEGrid  # noqa: E402


def chaining_grids(grid: SEGrid, every: int) -> list[tuple[list[int], list[int], list[int]]]:
    """(values, candidates at the start, candidates when the links ran out) of a dynamic
    chaining from every ``every``-th potential of ``grid``, on and off: a dynamic chaining
    takes each off it reaches out of its grid, so at the end the grid is the start less its
    offs."""
    potentials = [
        (cell * 10 + value) * 2 + on
        for cell in range(81)
        for value in BITS[grid.cands[cell]]
        for on in (1, 0)
    ]
    states = []
    for start in potentials[::every]:
        run = forcing._chaining(grid.cands, start, True, True)
        if run.absurd is not None:
            continue  # (a contradiction stops the chaining before its rules are asked)
        cands = list(grid.cands)
        for key in run.off:
            cands[key // 20] &= ~(1 << (key // 2 % 10))
        states.append((grid.values, grid.cands, cands))
    return states


def as_sets(offs: list) -> list:
    """The offs with their parents as sets: a run reads its parents as a set (their order,
    which the plain code takes from a set's, is not SE's either)."""
    return [(key, frozenset(parents), chain) for key, parents, chain in offs]


STATES = {
    "level 2": se_state(BEFORE_LEVEL_2),
    "level 3": se_state(BEFORE_LEVEL_3),
    "level 4": se_state(GOLDEN_NUGGET_AFTER_3),
}


@pytest.mark.parametrize(
    ("level", "nesting", "every"),
    [(1, 0, 7), (2, 0, 7), (3, 0, 11), (4, 0, 17), (4, 1, 97)],
)
def test_compiled_rules_give_the_plain_offs_on_real_chaining_grids(
    level: int, nesting: int, every: int
) -> None:
    nested_kinds = set()
    given = 0
    for grid in STATES.values():
        for values, cands0, cands in chaining_grids(grid, every):
            plain = forcing._advanced(values, cands0, cands, level, nesting)
            fast = nested.advanced_offs(values, cands0, cands, level, nesting)
            assert as_sets(fast) == as_sets(plain), (level, nesting, values, cands0, cands)
            given += bool(plain)
            nested_kinds |= {type(chain[0][1]) for _key, _parents, chain in plain if chain}
    assert given >= 5  # (the rules gave offs on some grids: the comparison can fail)
    if level in (2, 3):
        assert bool in nested_kinds  # static chains nested: (sort key, cycle, potentials…)
    if level == 4:
        assert int in nested_kinds  # forcing chains nested: (sort key, target, chains…)


def _fast(grid: SEGrid) -> SEGrid:
    grid.fast = nested
    return grid


def test_level_2_and_3_take_se_s_steps_with_the_compiled_rules() -> None:
    solution = solution_of(MSOLVE_1)
    step = next(forcing.nested_forcing_chains_2(_fast(se_state(BEFORE_LEVEL_2))))
    assert step.name == "Dynamic Contradiction Forcing Chains (+ Forcing Chains)"
    assert (step.difficulty, step.removals) == (10.9, ((6 * 9 + 4, 1 << 1),))
    assert sound(step, solution)
    grid = _fast(se_state(BEFORE_LEVEL_3))
    assert next(forcing.nested_forcing_chains_2(grid), None) is None
    step = next(forcing.nested_forcing_chains_3(grid))
    assert step.name == "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)"
    assert (step.difficulty, step.removals) == (10.8, ((6 * 9 + 1, 1 << 9),))
    assert sound(step, solution)


def test_level_4_takes_se_s_step_with_the_compiled_rules() -> None:
    """SE's first level-4 step of Golden Nugget (``test_se_nested``: 15 s plain)."""
    step = next(forcing.nested_forcing_chains_4[0](_fast(se_state(GOLDEN_NUGGET_AFTER_3))))
    assert step.name == "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)"
    assert (step.difficulty, step.removals) == (11.8, ((0, 1 << 8),))
    assert step.where.startswith("6 in ")  # (SE: "6 in row")
    assert sound(step, solution_of(GOLDEN_NUGGET))


def test_a_rating_through_the_door_loads_and_uses_the_compiled_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The forum's hardest (SE 10.3/1.2/1.2, ``test_se_nested``: 12 s plain): through the
    door its nested steps read the compiled rules, loaded when the path first reaches a nested
    level, and the rating is SE's, step for step."""
    from test_se_compiled import _opened, _values
    from test_se_nested import FORUM_HARDEST, FORUM_HARDEST_SE_CHAINS

    from sudoku_cp.logic.se import door, rate_values

    driver = _opened(monkeypatch)
    monkeypatch.setattr(door, "_LOADED", {"driver": driver})  # (the rules not loaded yet)
    asked = []
    advanced_offs = nested.advanced_offs

    def counted(*args: object) -> list:
        asked.append(args[3])
        return advanced_offs(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(nested, "advanced_offs", counted)
    rating = rate_values(_values(FORUM_HARDEST), time_cap=300)
    assert door._LOADED.get("nested") is nested
    assert rating.text() == "10.3/1.2/1.2" and rating.outcome == "solved"
    chains = " ".join(f"{s.difficulty:.1f}" for s in rating.steps if s.difficulty >= 7.0)
    assert chains == FORUM_HARDEST_SE_CHAINS
    assert 2 in asked  # (its 10.3 is a level-2 step, "+ Forcing Chains")


def test_nested_rules_that_fail_to_load_are_said_and_the_plain_rules_run(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from test_se_compiled import _opened

    from sudoku_cp.logic.se import door

    driver = _opened(monkeypatch)
    monkeypatch.setattr(door, "_LOADED", {"driver": driver})
    monkeypatch.setattr(door, "_DOOR", {"plain_seconds": 0.0, "driver": driver})

    def broken(*args: object) -> None:
        raise RuntimeError("no LLVM today")

    monkeypatch.setattr(nested, "advanced_records", broken)
    with caplog.at_level("WARNING"):
        assert door.nested_rules(driver, wait=True) is None
    assert "nested chains failed to load (RuntimeError: no LLVM today)" in caplog.text
    assert door.nested_rules(driver, wait=True) is None  # (not tried again, not said again)
    assert caplog.text.count("failed to load") == 1
    step = next(forcing.nested_forcing_chains_2(se_state(BEFORE_LEVEL_2)))  # (plain: fast None)
    assert (step.difficulty, step.removals) == (10.9, ((6 * 9 + 4, 1 << 1),))
