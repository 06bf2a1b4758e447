"""The SE rater's speed door (:mod:`sudoku_cp.logic.se.door`, :mod:`sudoku_cp.logic.se.compiled`):
each compiled producer gives the plain producer's first step on every grid of real SE paths,
and a rating through the door is the plain rating, step for step.

Puzzles: the first file of Denis Berthier's controlled-bias collection
(https://github.com/denis-berthier/Controlled-bias_Sudoku_generator_and_collection, GPL-3.0
data), chosen so that every compiled producer has a step on at least three grids of their
paths, and Royle's 17-clue list (tests/data/SOURCES.md).
"""

from __future__ import annotations

import time

import pytest

pytest.importorskip("numba")

import numpy as np  # noqa: E402

from sudoku_cp.logic.se import door, rating  # noqa: E402
from sudoku_cp.logic.se.compiled import OUT_SIZE  # noqa: E402
from sudoku_cp.logic.se.compiled import rules as compiled  # noqa: E402
from sudoku_cp.logic.se.grid import SEGrid  # noqa: E402
from sudoku_cp.logic.se.rating import rate_values  # noqa: E402

CONTROLLED_BIAS = (
    "....5.7.9..6.8..2.7.91....62.........37..2..4..8..7....6..91......6..5..9.1.7..38",
    "..3....8..5.78.1....91....52.......6..7....3.6...1.......2..9....16..3..9725...1.",
    "1.3.5..8...6....2.......4.5.1.5.......82..34...789.5.23....2..18......3..41......",
    "12.....8......9.....9.2.4....4..7..6.....1.4..7....35..4..6.5....2374.1....2..9..",
    "1...56......7...2...9.2.......5.8.76..8..4..19...6...........9.6.......7.713...54",
    ".23.5.7.9.....91..7..........46.....3......1..9.241.3.5....2.76...8..9.........51",
    "1....6.89..67......8......5..4.9....3..24.....6...5..2..2.3.694..8....31..1...2..",
    "1..45.789..6...1...8..2.4...17.....6.38......6.4...83....9..5......7....97.83...1",
    ".2........5.7.91........4.5.31.6..97..........7..15..23.79....1...6.8.7.89......6",
    "........9456....2.7.....46....674........2.5.97..35...3.....87.5.8.9.......3..5..",
    "1...5.....56.8.1.3.89.2.4.......894.....4...8...3126..3......7......13...6...78..",
    "...4...89...7891.3....2...5....9.6.85....7..28.4........821.9..61.........5678...",
    "1....6....5.78.....89..........63..7.378.5......2..6..37...1..4..2.9.3.89...4....",
)
ROYLE = (  # Royle's 17-clue list, lines 1, 2 and 1000
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000",
    "000000010400000000020000000000050604008000300001090000300400200050100000000807000",
    "000000012000035000000600070700000300000400800100000000000120000080000040050000600",
)

FORCING_PUZZLES = (  # controlled-bias collection (above): SE paths through each kind of chain
    "..34...8....7.9.23..9.2.4...15.7.9.........4..6....5...9.......6..8....28.25..6.1",
    "1....6....567..1...89.....52.8..7....9...1.......4.93..6.87.39...2.3.6.....6.48..",
    ".2....7.9..67....37..12.4....8.4.39..67..8.4.............8..95.6..3....2.912....4",
    ".23..6...4.......3...1..46...58....1..7.3..428.........4....2......1..7.9..2.8.3.",
    "..34.6..9.......23...1.254.2..8.1.7.6.42...3..............174...4.......97.5.4..2",
    ".2..5...94..7.9.2......25....86......7...48.2..58..4..3................7.9231...5",
    ".....6..94.6.8.....8.1.........1....5..9.48.28...234...1.....7...53...4194....6..",
)

UNIQUENESS_AND_CHAINS = CONTROLLED_BIAS[:5] + (  # (the same collection)
    "...4....9...78.1....9.2...52....53.836...2.948......1..7....2.6638.........5.7...",
    "1...5.78..5...91.3...1..4...1..7.3.63....4.5....2.1...5.2....4.69......8......9..",
    "1.3...7...5...9.2.....2.4...........6...78..19.8....3....54...6..18..3....263...7",
    ".2.4....945.7......89..3.65....9....39.....72.....7.41.78........2......94....837",
    "...4...89...789.2.7.........1....358.4...89...3....61...156....5..........29....6",
    "12...6..9..6.......8....4.5...5.7.....4.1..72.....284..6....2..8.7..1....4.8..3..",
    "..3.....945.7....378...3..5..1....4.......2..9.786....31...4.......3.9.4...21..7.",
    "...4......56..9...7...23..42............1.8..968.3..5.....9261....5....887...1...",
    "..3.5....4...........123..4.3.897.5...7.....26.8.3.....6.9......1.....95.7.26..1.",
    ".2.4.........8.1.3.8.1.35...3.....9684.9....7..1.3...5..4.1.......3....86..2.....",
    "....5..8....7.9..37...325...3..9...16.....29.8......7..1.6...5...7..3.1...85....7",
    "....56..9...7.........3.564.9..7....3.156....5....13..64..1...7.3...72..91.6.....",
    "....5.7.........237..2...6..3.....765.83.........4.2.......4.18.1.9783...4...3...",
    ".2...6..9..678....7.......4..9..1.4.57..2.......6.529..8.2.46.....8...32....6....",
)
"""Paths on whose grids unique rectangles and loops of 4 to 10 cells (types 1 to 4), BUG
(types 1 to 4), aligned pair and triplet exclusion and every kind of forcing chain and cycle
have a step."""

COMPILED = (
    "HiddenSingle",
    "DirectPointing",
    "DirectHiddenPair",
    "NakedSingle",
    "DirectHiddenTriplet",
    "PointingClaiming",
    "NakedPair",
    "XWing",
    "HiddenPair",
    "NakedTriplet",
    "Swordfish",
    "HiddenTriplet",
    "XYWing",
    "XYZWing",
    "NakedQuad",
    "Jellyfish",
    "HiddenQuad",
)
"""The rules' producers compiled in ``compiled/rules.py`` (names as in ``rating.PRODUCERS``)."""
INDEX = {name: index for index, (name, _producer) in enumerate(rating.PRODUCERS)}


def _values(line: str) -> list[int]:
    return [0 if c in ".0" else int(c) for c in line]


def _path_grids(line: str) -> list[SEGrid]:
    """Every grid of ``line``'s plain SE path, the last one included."""
    path = rate_values(_values(line), plain=True)
    grid = SEGrid(_values(line))
    grids = [grid.copy()]
    for step in path.steps:
        step.apply(grid)
        grids.append(grid.copy())
    return grids


def _compiled_step(name: str, g: SEGrid) -> tuple | None:
    """The step the compiled producer of ``name`` (``driver.call``) finds on ``g``: name,
    difficulty, removals, placement; None when it finds none."""
    from sudoku_cp.logic.se.compiled import driver

    index = INDEX[name]
    out = np.zeros(OUT_SIZE, dtype=np.int64)
    values = np.array(g.values, dtype=np.int64)
    cands = np.array(g.cands, dtype=np.int64)
    diff = driver.call(index, values, cands, out)
    assert diff >= 0.0, f"{name} is not compiled"
    if diff == 0.0:
        return None
    removals = tuple((int(out[4 + 2 * i]), int(out[5 + 2 * i])) for i in range(out[3]))
    placement = (int(out[1]), int(out[2])) if out[1] >= 0 else None
    return driver.NAMES[index][out[0]], round(diff, 1), removals, placement


def test_every_compiled_rule_takes_the_plain_first_step() -> None:
    """On every grid of the paths (about 1,000), each compiled producer's step is the plain
    producer's first (name, difficulty, removals in order, placement), or none when it has
    none; each has a step on three grids or more."""
    plain = dict(rating.PRODUCERS)
    fired = dict.fromkeys(COMPILED, 0)
    grids = [g for line in CONTROLLED_BIAS for g in _path_grids(line)]
    assert len(grids) > 800
    for g in grids:
        for name in COMPILED:
            first = next(iter(plain[name](g)), None)
            want = None
            if first is not None:
                want = (first.name, first.difficulty, first.removals, first.placement)
                fired[name] += 1
            assert _compiled_step(name, g) == want, (name, g.values, g.cands)
    assert min(fired.values()) >= 3, fired


def _ruled(step: object) -> bool:
    """Whether ``step`` is one a compiled rule takes."""
    return getattr(step, "name", "") in compiled.NAMES


def _opened(monkeypatch: pytest.MonkeyPatch) -> object:
    """The door open, the nested chains' rules loaded too (a compile is no test's time)."""
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "1")
    driver = door.open_door()
    assert driver is not None
    assert door.nested_rules(driver, wait=True) is not None
    return driver


@pytest.mark.parametrize("line", CONTROLLED_BIAS[:6] + ROYLE + FORCING_PUZZLES)
def test_a_rating_through_the_door_is_the_plain_rating(
    monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    _opened(monkeypatch)
    plain = rate_values(_values(line), plain=True)
    through = rate_values(_values(line))
    assert through.text() == plain.text() and through.outcome == plain.outcome == "solved"
    assert through.steps == plain.steps
    # which path ran: the compiled rules' steps have no "where", the plain ones have one
    ruled = [(p, t) for p, t in zip(plain.steps, through.steps, strict=True) if _ruled(p)]
    assert ruled and all(p.where and not t.where for p, t in ruled)


def test_the_door_starts_from_given_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pencil-mark start (SE's masks): the same path through the door as plain."""
    _opened(monkeypatch)
    values = _values(CONTROLLED_BIAS[1])
    grid = SEGrid(values)  # a sound start: the plain path's first five steps taken
    plain_path = rate_values(values, plain=True)
    for step in plain_path.steps[:5]:
        step.apply(grid)
    plain = rate_values(grid.values, cands=grid.cands, plain=True)
    through = rate_values(grid.values, cands=grid.cands)
    assert through.steps == plain.steps and through.text() == plain.text()


def test_the_time_cap_stops_the_door_path(monkeypatch: pytest.MonkeyPatch) -> None:
    _opened(monkeypatch)
    capped = rate_values(_values(CONTROLLED_BIAS[0]), time_cap=0.0)
    assert capped.outcome == "time cap" and not capped.steps and not capped.er_exact


def test_the_door_opens_on_the_way_and_the_path_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Auto mode: once the process has spent LOAD_AFTER seconds rating plain, the door opens
    after the next plain step and the rest of the path goes through it, the steps the same."""
    _opened(monkeypatch)  # (loaded once; the state below says it was not)
    monkeypatch.delenv("SUDOKU_CP_KERNEL")
    driver = door._DOOR["driver"]
    monkeypatch.setattr(door, "_DOOR", {"plain_seconds": door.LOAD_AFTER - 1e-9})
    line = CONTROLLED_BIAS[2]
    through = rate_values(_values(line))
    assert door._DOOR.get("driver") is driver
    steps = through.steps
    assert _ruled(steps[0]) and _ruled(steps[-1])
    assert steps[0].where and not steps[-1].where  # plain first, the door after
    assert steps == rate_values(_values(line), plain=True).steps


def test_off_switch_and_a_changed_producer_list_keep_the_plain_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _opened(monkeypatch)
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "0")
    monkeypatch.setattr(door, "_DOOR", {"plain_seconds": 100.0})
    assert door.compiled_driver() is None
    assert all(s.where for s in rate_values(_values(ROYLE[0])).steps if _ruled(s))
    monkeypatch.setenv("SUDOKU_CP_KERNEL", "1")
    monkeypatch.setattr(rating, "PRODUCERS", rating.PRODUCERS[:-1])
    assert all(s.where for s in rate_values(_values(ROYLE[0])).steps if _ruled(s))


def _states_asking_each(
    monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...], lines: tuple[str, ...]
) -> dict[str, list[SEGrid]]:
    """The grids on which the plain SE paths of ``lines`` ask each producer of ``names``."""
    states: dict[str, list[SEGrid]] = {name: [] for name in names}

    def spy(name: str, producer: object) -> object:
        def asked(g: SEGrid) -> object:
            states[name].append(g.copy())
            return producer(g)  # type: ignore[operator]

        return asked

    spied = tuple((n, spy(n, p) if n in names else p) for n, p in rating.PRODUCERS)
    with monkeypatch.context() as patched:
        patched.setattr(rating, "PRODUCERS", spied)
        for line in lines:
            rate_values(_values(line))
    return states


def test_every_compiled_forcing_chain_takes_the_plain_first_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nishio, multiple and dynamic forcing chains, compiled: on every grid where the paths
    ask them, the plain producer's first step, each kind of hint taken somewhere."""
    from sudoku_cp.logic.se.compiled import forcing as compiled_forcing

    pairs = ("NishioForcingChain", "MultipleForcingChain", "DynamicForcingChain")
    plain = dict(rating.PRODUCERS)
    states = _states_asking_each(monkeypatch, pairs, FORCING_PUZZLES)
    names: set[str] = set()
    for name in pairs:
        assert len(states[name]) >= 5, name
        for g in states[name]:
            first = next(iter(plain[name](g)), None)
            want = None
            if first is not None:
                want = (first.name, first.difficulty, first.removals, first.placement)
            got = _compiled_step(name, g)
            assert got == want, (name, g.values, g.cands)
            if first is not None:
                names.add(first.name)
    assert names == {n for n in compiled_forcing.NAMES if "(+)" not in n}


TOP1465_2 = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."
"""Line 2 of magictour's top 1465 (tests/data/SOURCES.md): SE 9.5, its path through dynamic
forcing chains (+), region and double."""


def test_compiled_dynamic_forcing_chains_plus_take_the_plain_first_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Dynamic forcing chains (+), compiled (level 1: pointing/claiming, hidden and naked
    pairs and X-Wings read on each chaining's grid): the plain first step on every grid where
    the path asks them, and the same whole rating through the door."""

    name = "DynamicForcingChainPlus"
    plain = dict(rating.PRODUCERS)[name]
    states = _states_asking_each(monkeypatch, (name,), (TOP1465_2,))[name]
    assert len(states) >= 2
    for g in states:
        first = next(iter(plain(g)))  # (each has a step here)
        want = (first.name, first.difficulty, first.removals, first.placement)
        assert "(+)" in first.name
        assert _compiled_step(name, g) == want
    _opened(monkeypatch)
    through = rate_values(_values(TOP1465_2))
    assert through.text() == "9.5/1.2/1.2" and through.exact
    assert through.steps == rate_values(_values(TOP1465_2), plain=True).steps


def test_compiled_uniqueness_aligned_and_static_chains_take_the_plain_first_step() -> None:
    """Unique loops, BUG, aligned pair and triplet exclusion and forcing chains & cycles,
    compiled: on every grid of the paths (not only where the path asks them), the plain
    producer's first step or none; every kind of step among them."""
    producers = (
        "UniqueLoop",
        "BivalueUniversalGrave",
        "AlignedPairExclusion",
        "ForcingChainCycle",
        "AlignedTripletExclusion",
    )
    plain = dict(rating.PRODUCERS)
    names: set[str] = set()
    grids = [g for line in UNIQUENESS_AND_CHAINS for g in _path_grids(line)]
    for g in grids:
        for name in producers:
            first = next(iter(plain[name](g)), None)
            want = None
            if first is not None:
                want = (first.name, first.difficulty, first.removals, first.placement)
                names.add(first.name)
            assert _compiled_step(name, g) == want, (name, g.values, g.cands)
    loops = {f"Unique Loop {n} type {t}" for n in (6, 8) for t in (1, 2, 3, 4)}
    assert names >= loops | {f"Unique Rectangle type {t}" for t in (1, 2, 3, 4)}
    assert names >= {f"BUG type {t}" for t in (1, 2, 3, 4)}
    assert names >= {"Aligned Pair Exclusion", "Aligned Triplet Exclusion", "Turbot Fish"}
    assert names >= {"Forcing Chain", "Forcing X-Chain", "Generalized X-Wing"}
    assert names >= {f"Bidirectional {k}Cycle" for k in ("", "X-", "Y-")}


def test_the_time_cap_stops_a_nested_search_behind_the_door(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Golden Nugget (SE 11.9/11.9/11.9; tests/test_se_rating.py): through the door its path
    reaches the nested forcing chains, plain, which read the cap; a lower bound comes back
    soon after it."""
    from test_se_rating import GOLDEN_NUGGET

    _opened(monkeypatch)
    start = time.perf_counter()
    capped = rate_values(_values(GOLDEN_NUGGET), time_cap=2.0)
    assert time.perf_counter() - start < 10.0
    assert capped.outcome == "time cap" and not capped.er_exact
    assert 9.5 <= capped.er <= 11.9  # the nested level's floor at least, SE's value at most


def test_a_compiled_rater_that_fails_to_load_is_said_and_the_plain_path_rates(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """numba installed but the compiled producers failing to load (here: their module
    unimportable): a warning naming them, the reason kept, and the rating made on the plain
    path (its steps say where they are)."""
    import sys

    monkeypatch.setenv("SUDOKU_CP_KERNEL", "1")
    monkeypatch.setattr(door, "_DOOR", {"plain_seconds": 0.0})
    monkeypatch.setattr(door, "_LOADED", {})
    monkeypatch.setitem(sys.modules, "sudoku_cp.logic.se.compiled.driver", None)
    import sudoku_cp.logic.se.compiled as package

    monkeypatch.delattr(package, "driver", raising=False)
    with caplog.at_level("WARNING"):
        assert door.compiled_driver() is None
    assert "the compiled SE rater failed to load" in caplog.text
    assert "ModuleNotFoundError" in (door.load_failure() or "")
    rated = rate_values(_values(ROYLE[0]))
    assert rated.outcome == "solved" and all(s.where for s in rated.steps if _ruled(s))
    assert door.compiled_driver() is None  # (not tried again in this process)


@pytest.mark.parametrize("when", ["at the start", "on the way"])
def test_the_door_s_opening_counts_against_no_time_cap(
    monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """Opening the door may wait a minute for numba (compiling, or another process's lock):
    that wait is not the rating's. Here the opening takes 1.5 s and the cap is 1 s; a puzzle
    that rates in milliseconds is still rated (it hit the cap in a CI run whose other worker
    was compiling)."""
    driver = _opened(monkeypatch)
    opened = door.open_door

    def slow_open(wait: bool = True) -> object:
        time.sleep(1.5)
        return opened(wait)

    monkeypatch.setattr(door, "open_door", slow_open)
    if when == "at the start":
        monkeypatch.setattr(door, "_DOOR", {"plain_seconds": 0.0})
    else:
        monkeypatch.delenv("SUDOKU_CP_KERNEL")
        monkeypatch.setattr(door, "_DOOR", {"plain_seconds": door.LOAD_AFTER - 1e-9})
    rated = rate_values(_values(CONTROLLED_BIAS[2]), time_cap=1.0)
    assert door._DOOR.get("driver") is driver
    assert rated.outcome == "solved" and rated.exact
    assert rated.steps == rate_values(_values(CONTROLLED_BIAS[2]), plain=True).steps


def test_a_process_does_not_wait_for_another_s_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """While another process holds the compile lock, the door stays shut for now (None at
    once, the rating goes on plain) unless asked to wait; once the lock is free it opens."""
    from sudoku_cp.backends.backtrack.kernel.compile_once import compiling

    driver = _opened(monkeypatch)
    monkeypatch.delenv("SUDOKU_CP_KERNEL")
    monkeypatch.setattr(door, "_DOOR", {"plain_seconds": 100.0})
    monkeypatch.setattr(door, "_LOADED", {})
    with compiling("se-rater") as held:  # (another lock holder: a second open of the file)
        assert held
        start = time.perf_counter()
        assert door.compiled_driver() is None
        assert time.perf_counter() - start < 1.0
        rated = rate_values(_values(ROYLE[0]))
        assert rated.outcome == "solved" and all(s.where for s in rated.steps if _ruled(s))
    assert door.compiled_driver() is driver
