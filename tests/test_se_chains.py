"""SE's rules above 7.5 in ``rate --scale se``: aligned triplet exclusion, Nishio, multiple
(cell and region), dynamic and dynamic (+) forcing chains (:mod:`sudoku_cp.logic.se.forcing`).

Expected values are Sudoku Explainer's own output, never ours: SE (SudokuMonster/
SukakuExplainer, built here by ``tools/build-se.sh``) run with SE 1.2.1's technique set,

    java -cp /tmp/se/classes diuf.sudoku.test.serate \\
      --techs=1111111111010111011011011011000010100010111111 --format='%r/%p/%d|%R' --input=FILE

on puzzles of magictour's top 1465 (tdoku's ``puzzles3_magictour_top1465.txt``, the shared
datasets; line numbers below), ``%R`` being the name of SE's first step of the highest
difficulty. One or two puzzles a technique, chosen among the first 200 lines for a short run.
"""

from __future__ import annotations

import functools
import time

import pytest

from sudoku_cp import Puzzle
from sudoku_cp.backends import get_backend
from sudoku_cp.logic.se import SERating, rate_values
from sudoku_cp.logic.se.forcing import (
    TimeCapReached,
    dynamic_forcing_chains,
    dynamic_forcing_chains_plus,
    multiple_forcing_chains,
    nishio_forcing_chains,
)
from sudoku_cp.logic.se.grid import BITS, SEGrid
from sudoku_cp.logic.se.rating import next_step
from sudoku_cp.logic.se.rules import aligned_triplet_exclusion
from sudoku_cp.logic.se.step import Step

# (top1465 line, puzzle, SE's ER/EP/ED, SE's %R)
SE_HIGH = [
    (
        129,
        ".135.........7.4...........1......892.4.6....7.........8.1.....6.....2.....9.3...",
        "7.5/1.2/1.2",
        "Aligned Triplet Exclusion",
    ),
    (
        114,
        "4.9...5.....8....27..3.........4.7...8.....6..1..........6..12.5...9...........3.",
        "7.5/1.2/1.2",
        "Aligned Triplet Exclusion",
    ),
    (
        156,
        "12......9.5..9.2.3........4.3.........18.........246......67.5...2.41.7.9........",
        "7.8/7.8/2.6",
        "Nishio Forcing Chains",
    ),
    (
        39,
        "......41.9..3.....3...5.....48..7..........52.1.......6..2....5.7....8......9....",
        "8.3/1.2/1.2",
        "Cell Forcing Chains",
    ),
    (
        154,
        "......41.7..3.....3...5.....49..8..........52.1.......2..6....7.8....9......7....",
        "8.3/1.2/1.2",
        "Cell Forcing Chains",
    ),
    (
        25,
        "...9.31..6.7....8.2.........5....4......6..2..1.......8...7.......3..5.....4....9",
        "8.3/1.2/1.2",
        "Region Forcing Chains",
    ),
    (
        34,
        "...9.31..5.7....8.2.........4....6......5..2..1.......8...7.......6..4.....3....9",
        "8.3/1.2/1.2",
        "Region Forcing Chains",
    ),
    (
        35,
        "5.8.....7...9.1...4............5...4.6.....3..9....6...2.3...1.7...8..........2..",
        "8.8/1.2/1.2",
        "Dynamic Contradiction Forcing Chains",
    ),
    (
        24,
        "3.7..4.2....1..8..9............3..9..5.8......4.6...........5.12...7..........6..",
        "9.0/1.2/1.2",
        "Dynamic Region Forcing Chains",
    ),
    (
        65,
        "..3...67.5.....3...4.......6..3......8......4...7....12......5.....98.......41...",
        "8.8/1.2/1.2",
        "Dynamic Region Forcing Chains",
    ),
    (
        29,
        "..1.....7...89..........6..26..3.......5...749...........1.4.5.83.............2..",
        "9.1/2.0/2.0",
        "Dynamic Cell Forcing Chains",
    ),
    (
        38,
        "5..6.3....2....98.......1...1..9.......3....67.......4....8.25.4..7..............",
        "8.9/1.2/1.2",
        "Dynamic Cell Forcing Chains",
    ),
]

# Dynamic forcing chains (+) (9.0 and up): each rating takes tens of seconds here, so one
# puzzle, marked slow. SE 1.2.1 rates line 77 9.8/1.2/1.2, %R "Dynamic Contradiction Forcing
# Chains (+)"; lines 2 and 3 (9.5 and 9.6) reach it too.
SE_PLUS = (
    77,
    "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
    "9.8/1.2/1.2",
    "Dynamic Contradiction Forcing Chains (+)",
)


def _values(line: str) -> list[int]:
    return [0 if c == "." else int(c) for c in line]


@functools.cache
def _rated(line: str) -> SERating:
    return rate_values(_values(line))


@functools.cache
def _solution(line: str) -> tuple[int, ...]:
    result = get_backend("dlx").solve(Puzzle.parse(line), limit=2)
    assert len(result.solutions) == 1
    return tuple(result.solutions[0])


def _hardest(rating: SERating) -> str:
    return str(rating.to_dict()["hardest"])


@pytest.mark.parametrize(
    ("line", "puzzle", "se", "technique"), SE_HIGH, ids=[f"top1465:{r[0]}" for r in SE_HIGH]
)
def test_rating_above_7_5_is_se_1_2_1s(line: int, puzzle: str, se: str, technique: str) -> None:
    rating = _rated(puzzle)
    assert rating.outcome == "solved" and rating.exact
    assert rating.text() == se
    assert _hardest(rating) == technique


def _assert_sound(puzzle: str, step: Step) -> None:
    solution = _solution(puzzle)
    for cell, mask in step.removals:
        assert not mask >> solution[cell] & 1, (puzzle, step)
    if step.placement is not None:
        cell, value = step.placement
        assert solution[cell] == value, (puzzle, step)


def test_every_step_of_these_paths_is_sound() -> None:
    for _line, puzzle, _se, _technique in SE_HIGH:
        for step in _rated(puzzle).steps:
            _assert_sound(puzzle, step)


NEW_PRODUCERS = (
    aligned_triplet_exclusion,
    nishio_forcing_chains,
    multiple_forcing_chains,
    dynamic_forcing_chains,
    dynamic_forcing_chains_plus,
)


def test_each_new_rule_is_sound_on_states_of_a_path() -> None:
    """Each new rule asked directly on the first states along SE's path that need chains, also
    where an easier rule goes first (so every kind of chain is tried on more grids); each
    search has two seconds."""
    found = 0
    for _line, puzzle, _se, _technique in SE_HIGH[::3]:
        grid = SEGrid(_values(puzzle))
        states = 0
        while not grid.solved() and states < 4:
            step = next_step(grid)
            assert step is not None
            if step.difficulty >= 6.5:  # a state that needs chains
                states += 1
                for producer in NEW_PRODUCERS:
                    grid.deadline = time.perf_counter() + 2.0
                    try:
                        for other in producer(grid):
                            _assert_sound(puzzle, other)
                            found += 1
                            break
                    except TimeCapReached:
                        pass
                    grid.deadline = None
            step.apply(grid)
    assert found >= 10


def test_time_cap_stops_a_chain_search_and_says_so() -> None:
    """The plain chain searches read the cap (the compiled ones, through the speed door, are
    each short: tests/test_se_compiled.py caps a path in the nested searches)."""
    puzzle = SE_PLUS[1]
    start = time.perf_counter()
    rating = rate_values(_values(puzzle), time_cap=1.0, plain=True)
    assert time.perf_counter() - start < 10.0  # the cap is read inside the chain search
    assert rating.outcome == "time cap" and not rating.er_exact
    assert rating.er <= float(SE_PLUS[2].split("/")[0])
    assert rating.text().startswith("≥")


@pytest.mark.slow
def test_dynamic_forcing_chains_plus_rating_is_se_1_2_1s() -> None:
    _line, puzzle, se, technique = SE_PLUS
    rating = rate_values(_values(puzzle), time_cap=600.0)
    assert rating.outcome == "solved"
    assert rating.text() == se
    assert _hardest(rating) == technique
    for step in rating.steps:
        _assert_sound(puzzle, step)


def _chain_puzzles() -> list[str]:
    """The stored puzzles SE rated 6.5 to 7.5 (tests/data/se_ratings.csv): their solve paths
    ask for forcing chains and cycles."""
    import csv

    from conftest import TESTS

    rows = list(csv.DictReader((TESTS / "data" / "se_ratings.csv").open()))
    return [r["puzzle"] for r in rows if 6.5 <= float(r["er"]) <= 7.5]


def test_the_skipped_third_pass_never_changes_the_step_se_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``chains.SKIP_OUTRANKED_PASS`` (the speed door): on every state where the SE paths of
    the stored puzzles rated 6.5 to 7.5 ask for forcing chains and cycles, the first step is
    the same with the door open and shut, and at least one state has the third pass skipped
    (a hint below 7.0 from the first two)."""
    from se_paths import shut_and_open, states_asking

    from sudoku_cp.logic.se import chains

    puzzles = _chain_puzzles()
    assert len(puzzles) >= 10
    plain = chains.forcing_chains_cycles
    states = states_asking(monkeypatch, plain, puzzles)
    assert len(states) >= 10
    # this door alone: the pruned searches (the other door) would leave the third pass's
    # hints out as well, outranked as they are
    monkeypatch.setattr(chains, "PRUNE_OUTRANKED_CHAINS", False)
    skipped = 0
    for g in states:
        every, fast = shut_and_open(monkeypatch, chains, "SKIP_OUTRANKED_PASS", plain, g)
        assert fast[:1] == every[:1]
        skipped += len(fast) < len(every)
    assert skipped


def test_pruned_chain_searches_never_change_the_step_se_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``chains.PRUNE_OUTRANKED_CHAINS`` (the speed door): on every state where the SE paths of
    the stored puzzles rated 6.5 to 7.5, and of two top1465 puzzles above, ask for forcing
    chains and cycles, the first step is the same with the door open and shut, and on some
    states the pruned searches leave hints out (they did stop early)."""
    from se_paths import shut_and_open, states_asking

    from sudoku_cp.logic.se import chains

    puzzles = _chain_puzzles() + [row[1] for row in SE_HIGH if row[0] in (129, 156)]
    plain = chains.forcing_chains_cycles
    states = states_asking(monkeypatch, plain, puzzles)
    assert len(states) >= 20
    pruned = 0
    for g in states:
        every, fast = shut_and_open(monkeypatch, chains, "PRUNE_OUTRANKED_CHAINS", plain, g)
        assert fast[:1] == every[:1]
        pruned += len(fast) < len(every)
    assert pruned


def test_remembered_x_pass_gives_the_same_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """``chains.MEMO_X_PASS`` (the speed door): on every state where the SE paths of the
    stored puzzles rated 6.5 to 7.5, and of two top1465 puzzles above, ask for forcing chains
    and cycles, in path order (so later states read what earlier ones kept), every hint, in
    order, is the same with the door open and shut, the searches pruned or not; and the memo
    is read back (it holds fewer outcomes than were asked for)."""
    from se_paths import shut_and_open, states_asking

    from sudoku_cp.logic.se import chains

    puzzles = _chain_puzzles() + [row[1] for row in SE_HIGH if row[0] in (129, 156)]
    plain = chains.forcing_chains_cycles
    states = states_asking(monkeypatch, plain, puzzles)
    assert len(states) >= 20
    for prune in (True, False):
        monkeypatch.setattr(chains, "PRUNE_OUTRANKED_CHAINS", prune)
        chains._X_MEMO.clear()
        asked = 0
        for g in states:
            every, fast = shut_and_open(monkeypatch, chains, "MEMO_X_PASS", plain, g)
            assert fast == every
            asked += sum(len(BITS[m]) for v, m in zip(g.values, g.cands, strict=True) if not v)
        assert 0 < len(chains._X_MEMO) < asked / 2


def test_remembered_triplets_give_the_same_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rules.MEMO_ALIGNED_TRIPLETS`` (the speed door): on every state where the SE paths of
    top1465 puzzles 129 and 114 (aligned triplet exclusion, SE's %R) and 156 ask for aligned
    triplet exclusion, every step is the same with the door shut, open with an empty memo, and
    open again reading what the first pass remembered; some states have a step."""
    from se_paths import states_asking

    from sudoku_cp.logic.se import rules

    plain = rules.aligned_triplet_exclusion
    puzzles = [row[1] for row in SE_HIGH if row[0] in (129, 114, 156)]
    states = states_asking(monkeypatch, plain, puzzles)
    assert len(states) >= 3
    with_steps = 0
    for g in states:
        monkeypatch.setattr(rules, "MEMO_ALIGNED_TRIPLETS", False)
        every = list(plain(g))
        monkeypatch.setattr(rules, "MEMO_ALIGNED_TRIPLETS", True)
        rules._TRIPLET_MEMO.clear()
        assert list(plain(g)) == every
        assert list(plain(g)) == every  # now read back from the memo
        with_steps += bool(every)
    assert with_steps >= 2


def test_every_speed_door_shut_rates_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole ratings with every speed door of the SE rater shut (the plain searches) and open:
    the same ER/EP/ED and the same steps, on top1465 puzzles whose paths go through aligned
    triplet exclusion, Nishio, cell and region forcing chains (SE's ratings above)."""
    from sudoku_cp.logic.se import chains, rules, uniqueness

    doors = (
        (chains, "SKIP_OUTRANKED_PASS"),
        (chains, "PRUNE_OUTRANKED_CHAINS"),
        (rules, "MEMO_ALIGNED_TRIPLETS"),
        (uniqueness, "PRUNE_LOOPS"),
        (uniqueness, "SKIP_FOUND_LOOPS"),
        (chains, "MEMO_X_PASS"),
    )
    for line, puzzle, se, _technique in SE_HIGH:
        if line not in (129, 156, 39, 25):
            continue
        fast = rate_values(_values(puzzle))
        with monkeypatch.context() as shut:
            for module, name in doors:
                shut.setattr(module, name, False)
            plain = rate_values(_values(puzzle))
        assert fast.text() == plain.text() == se
        assert fast.steps == plain.steps
