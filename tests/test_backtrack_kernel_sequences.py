"""The generic compiled kernel on models with sequence rules (issue 34): skyscrapers, X-sums and
digit-root cages, each the automaton of its rule (``SequenceRule.automaton``) laid out as a
table, mixed with sums, pair and digit rules.

Skipped when numba is not installed. The kernel keeps each sequence generalised arc consistent
on its automaton, as the pure search's ``SequencePropagator`` does, and on a line whose cells
are peers also knows that ``i`` different digits hold one of ``i`` or more (``layered``): its
fixed point may be stronger than the pure search's, so only the sets of solutions are compared,
whichever the branching. Sets and counts on 4x4 and 6x6 grids come from plain enumeration (every
filling of the groups, kept by the validator ``Puzzle.is_solution``, which shares no code with
either search); the bundled puzzles carry their published solutions, and their status is the
``sat`` backend's. Every test says which search ran (``last_engine``).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator

import pytest

pytest.importorskip("numba")

import kernel_searches  # noqa: E402
from kernel_searches import (  # noqa: E402
    Grid,
    assert_agrees_with_the_oracle,
    kernel,
    kernel_first,
    pure,
)

from sudoku_cp import Puzzle, Status, get_backend  # noqa: E402
from sudoku_cp.backends.backtrack import last_engine  # noqa: E402
from sudoku_cp.backends.backtrack.kernel import glue, sequence_tables  # noqa: E402
from sudoku_cp.backends.backtrack.layout import layout  # noqa: E402
from sudoku_cp.datasets import load_puzzles  # noqa: E402
from sudoku_cp.model import load_model  # noqa: E402
from sudoku_cp.rules import Rule  # noqa: E402
from sudoku_cp.rules.cells import Odd  # noqa: E402
from sudoku_cp.rules.lines import Thermometer  # noqa: E402
from sudoku_cp.rules.outside import Skyscraper, XSum  # noqa: E402
from sudoku_cp.rules.sums import DigitRootCage, LittleKiller  # noqa: E402

_ = kernel_first  # the autouse fixture, in force here

SEQUENCE_PUZZLES = (
    ("published", 24),  # X-sums
    ("published", 30),  # X-sums
    ("published", 41),  # skyscrapers
    ("published", 43),  # skyscrapers
    ("published", 81),  # Crawfish: skyscrapers, renban, ratio dots, even cells
    ("published", 86),  # Trollscraper: skyscrapers and candidates (pure: past 20 s)
    ("iss", 26),  # Skyscraper
    ("iss", 27),  # X-Sum
    ("iss", 50),  # X-Sum little killer
    ("iss", 51),  # Renban skyscrapers
    ("iss", 75),  # Skyscraper - all 5
)
"""Bundled puzzles whose rules beyond groups are sequences, with sums, pair and digit rules at
most (indices into ``load_puzzles``)."""


def line(n: int, rng: random.Random) -> tuple[int, ...]:
    """A whole row or column, read from either end, drawn."""
    k = rng.randrange(n)
    cells = [k * n + i for i in range(n)] if rng.random() < 0.5 else [i * n + k for i in range(n)]
    return tuple(cells if rng.random() < 0.5 else cells[::-1])


def seen_count(word: Grid) -> int:
    seen = tallest = 0
    for d in word:
        if d > tallest:
            seen, tallest = seen + 1, d
    return seen


def drawn_rules(n: int, grid: Grid, rng: random.Random, count: int) -> list[Rule]:
    """Sequences on drawn lines, their clues mostly read off ``grid`` (so most hold there) and
    now and then one off: skyscrapers, X-sums, digit-root cages of neighbouring cells; and now
    and then a little killer, a thermometer or an odd cell."""
    rules: list[Rule] = []
    for _ in range(count):
        kind = rng.randrange(6)
        off = 1 if rng.random() < 0.15 else 0
        cells = line(n, rng)
        digits = [grid[c] for c in cells]
        if kind in (0, 1):
            seen = seen_count(digits)
            rules.append(Skyscraper(cells, max(seen + off * rng.choice((-1, 1)), 0)))
        elif kind == 2:
            total = sum(digits[: digits[0]])
            rules.append(XSum(cells, total + off * rng.choice((-1, 1))))
        elif kind == 3:
            start = rng.randrange(n * n)
            cage = [start]
            while len(cage) < rng.randrange(2, 4):
                x = rng.choice(cage)
                nxt = rng.choice((x - 1, x + 1, x - n, x + n))
                if 0 <= nxt < n * n and abs(nxt % n - x % n) <= 1 and nxt not in cage:
                    cage.append(nxt)
            if len({grid[x] for x in cage}) == len(cage):
                root = sum(grid[x] for x in cage) % 9 or 9
                rules.append(DigitRootCage(tuple(cage), root))
        elif kind == 4:
            rules.append(LittleKiller(cells[:2], grid[cells[0]] + grid[cells[1]] + off))
        else:
            a = rng.randrange(n) * n + rng.randrange(n - 1)  # and the cell to its right
            rules.append(rng.choice((Thermometer((a, a + 1)), Odd((a,)))))
    return rules


def drawn_puzzles(n: int, givens: int, seeds: range) -> Iterator[Puzzle]:
    return kernel_searches.drawn_puzzles(n, givens, seeds, drawn_rules, n + 2)


@pytest.mark.parametrize(("n", "givens", "seeds"), [(4, 0, range(60)), (6, 10, range(30))])
def test_every_solution_of_small_grids_with_sequences(n: int, givens: int, seeds: range) -> None:
    counts = []
    kinds: set[str] = set()
    for puzzle in drawn_puzzles(n, givens, seeds):
        assert glue.takes_rules(puzzle.model, puzzle.size)
        kinds |= {type(rule).__name__ for rule in puzzle.model.rules}
        counts.append(len(assert_agrees_with_the_oracle(puzzle)))
    assert 0 in counts and 1 in counts and any(c > 1 for c in counts)  # the draws vary
    assert {"Skyscraper", "XSum", "DigitRootCage"} <= kinds


@pytest.mark.parametrize(("name", "index"), SEQUENCE_PUZZLES)
def test_bundled_sequence_puzzles_on_the_kernel(name: str, index: int) -> None:
    puzzle = load_puzzles(name)[index]
    assert puzzle.published is not None
    assert glue.takes_rules(puzzle.model, puzzle.size)
    result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=60)
    assert last_engine() == "kernel"
    assert result.status is get_backend("sat").solve(puzzle, limit=2).status
    assert result.status is Status.UNIQUE and result.solutions == (puzzle.published,)


def test_clues_no_line_can_meet() -> None:
    model = load_model("classic")
    n = 4
    # Five skyscrapers seen along four cells; an X-sum of 11 along a column (its first digit
    # x, then x - 1 more, all different: at most 4 + 3 + 2 + 1 = 10).
    for rule in (Skyscraper((0, 1, 2, 3), 5), XSum((0, 4, 8, 12), 11)):
        puzzle = Puzzle([0] * n * n, model.with_rules(rules=[rule], size=n))
        found = kernel(puzzle, 2)
        assert found.solutions == [] and found.exhausted
        assert pure(puzzle, 2).solutions == []
        assert get_backend("backtrack").solve(puzzle, limit=2).status is Status.NONE
        assert last_engine() == "kernel"


def test_past_the_cap_of_states_the_model_stays_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load_puzzles("iss")[75]  # Skyscraper - all 5: 36 skyscrapers
    assert glue.takes_rules(puzzle.model, puzzle.size)
    tables = sequence_tables.sequences(puzzle.model, puzzle.size)
    assert tables is not None
    states = tables.seq_move.shape[0]
    monkeypatch.setattr(sequence_tables, "SEQUENCE_STATES_MAX", states - 1)
    layout.cache_clear()
    glue.forget_models()
    try:
        assert not glue.takes_rules(puzzle.model, puzzle.size)
        result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=60)
        assert last_engine() == "pure"
        assert result.status is Status.UNIQUE and result.solutions == (puzzle.published,)
        monkeypatch.setattr(sequence_tables, "SEQUENCE_STATES_MAX", states)
        glue.forget_models()
        assert glue.takes_rules(puzzle.model, puzzle.size)
    finally:
        layout.cache_clear()
        glue.forget_models()


def accepted(tables: sequence_tables.SequenceArrays, rule: int, word: Grid) -> bool:
    """Whether rule ``rule``'s table, walked from its start, accepts ``word`` (each state met
    standing no later than its last position, as the kernel reads it)."""
    state = int(tables.seq_first[rule])
    for read, digit in enumerate(word, 1):
        state = int(tables.seq_move[state, digit - 1])
        if state < 0 or tables.seq_last[state] < read:
            return False
    return bool(tables.seq_accept[state])


def test_the_tables_accept_what_the_checker_accepts() -> None:
    """Every arrangement of a row of a 6x6 grid, walked through each rule's table, is accepted
    exactly when the plain checker (``problems``) finds nothing wrong: every skyscraper clue
    and X-sum total there is, and past them."""
    n = 6
    row = tuple(range(n))
    rules: list[Rule] = [Skyscraper(row, clue) for clue in range(n + 2)]
    rules += [XSum(row, total) for total in range(n * (n + 1) // 2 + 2)]
    model = load_model("classic").with_rules(rules=rules, size=n)
    tables = sequence_tables.sequences(model, n)
    assert tables is not None and len(tables.seq_first) == len(rules) + 1
    for word in itertools.permutations(range(1, n + 1)):
        grid = word + (0,) * (n * n - n)
        for k, rule in enumerate(rules):
            assert accepted(tables, k, word) == (not rule.problems(grid, n)), (rule, word)


def test_each_layout_accepts_what_the_checker_accepts() -> None:
    """Each way ``layered`` lays an automaton out — the rule's states alone, with the largest
    digit read, with the digits read — accepts every arrangement of a 6x6 row exactly when the
    checker does; the digits read give up on skyscrapers (too many sets), not on X-sums."""
    n = 6
    row = tuple(range(n))
    rules: list[Rule] = [Skyscraper(row, clue) for clue in range(n + 2)]
    rules += [XSum(row, total) for total in range(n * (n + 1) // 2 + 2)]
    words = list(itertools.permutations(range(1, n + 1)))
    gave_up = set()
    for rule in rules:
        assert isinstance(rule, Skyscraper | XSum)
        for mode in (sequence_tables.PLAIN, sequence_tables.LARGEST, sequence_tables.DIGITS):
            table = sequence_tables.layered(rule.automaton(n), n, n, mode, 50_000)
            if table is None:
                assert mode == sequence_tables.DIGITS
                gave_up.add(type(rule).__name__)
                continue
            moves, accepts, last = table
            for word in words:
                state = 0
                for read, digit in enumerate(word, 1):
                    state = moves[state][digit - 1] if state >= 0 else -1
                    state = -1 if state >= 0 and last[state] < read else state
                grid = word + (0,) * (n * n - n)
                assert (state >= 0 and accepts[state]) == (not rule.problems(grid, n)), (rule, mode)
    assert gave_up == {"Skyscraper"}


def test_rules_that_share_a_layout_read_only_how_many_cells_they_have() -> None:
    """A rule class that says its automaton reads of its cells only how many there are
    (``automaton_by_count``, so the kernel lays one table out for all its rules alike) accepts
    the same arrangements on any cells: every clue and total on a 4x4 grid's first row, its
    last column read upwards, and a cage of four cells; the checker judges each."""
    n = 4
    lines = [(0, 1, 2, 3), (15, 11, 7, 3), (5, 6, 9, 10)]
    kinds: list[list[Rule]] = [
        [Skyscraper(line, clue) for clue in range(n + 2)] for line in lines[:2]
    ]
    kinds += [[XSum(line, total) for total in range(12)] for line in lines[:2]]
    kinds += [[DigitRootCage(line, root) for root in range(1, 10)] for line in lines]
    assert all(type(rules[0]).automaton_by_count for rules in kinds)
    for rules in kinds:
        for rule in rules:
            verdicts = set()
            for word in itertools.permutations(range(1, n + 1)):
                grid = [0] * (n * n)
                for cell, digit in zip(rule.cells, word, strict=True):
                    grid[cell] = digit
                verdicts.add((word, not rule.problems(grid, n)))
            blank = dataclasses.replace(rule, cells=tuple(range(n)))
            table = sequence_tables.layered(blank.automaton(n), n, n, sequence_tables.PLAIN, 50_000)
            assert table is not None
            moves, accepts, _ = table
            for word, ok in verdicts:
                state = 0
                for digit in word:
                    state = moves[state][digit - 1] if state >= 0 else -1
                assert (state >= 0 and accepts[state]) == ok, (rule, word)


def digit_view(masks: list[int], clue: int) -> list[int] | None:
    """``sequence_propagators.seen_by_digit`` on one line of ``masks`` (bit d - 1 for digit d), read
    from its clue: the masks it leaves, or None at a dead end."""
    import numpy as np

    from sudoku_cp.backends.backtrack.kernel import sequence_propagators

    n = len(masks)
    cand = np.array(masks, dtype=np.uint64)
    cells = np.arange(n, dtype=np.int32)
    cg_start = np.zeros(n + 1, dtype=np.int32)  # (no groups to mark)
    work = np.zeros((2, n + 1, n + 1), dtype=np.uint64)
    queue = np.zeros(n, dtype=np.int32)
    dirty = np.zeros(1, dtype=np.uint8)
    tail, _ = sequence_propagators.seen_by_digit(
        cand, queue, 0, cells, 0, n, clue, work, cg_start, cg_start, dirty
    )
    return None if tail < 0 else [int(m) for m in cand]


def test_the_digit_view_of_a_skyscraper_keeps_every_arrangement_and_finds_the_order() -> None:
    """The kernel's digit view of a skyscraper along a full group (``seen_by_digit``) against
    enumeration: on drawn candidates of 4-7 cells, it keeps every digit of every arrangement
    (each digit once, the clue seen) and finds a dead end only where there is none; and on
    Trollscraper's column 1 as the automaton leaves it (clue 2 from the top; its 8 can only
    stand after its 9 or be seen too), it leaves the 9 one place, row 5, which the automaton
    over the cells, blind to the digits' being different, does not."""
    rng = random.Random(7)
    pruned = 0
    for _ in range(400):
        n = rng.randrange(4, 8)
        full = (1 << n) - 1
        masks = [rng.randrange(1, full + 1) | rng.choice((0, full)) for _ in range(n)]
        clue = rng.randrange(1, n + 1)
        support = [0] * n
        for word in itertools.permutations(range(1, n + 1)):
            if all(masks[i] >> (d - 1) & 1 for i, d in enumerate(word)) and (
                seen_count(word) == clue
            ):
                for i, d in enumerate(word):
                    support[i] |= 1 << (d - 1)
        left = digit_view(masks, clue)
        if left is None:
            assert support == [0] * n, (masks, clue)
            continue
        for i in range(n):
            assert support[i] & ~left[i] == 0, (masks, clue)  # nothing true removed
            assert left[i] & ~masks[i] == 0
        pruned += left != masks
    assert pruned > 50  # (it does remove candidates)
    column = [[4, 5, 6, 7]] + [list(range(1, 8))] * 3 + [[1, 2, 3, 4, 5, 6, 7, 9]]
    column += [list(range(1, 9))] * 2 + [list(range(1, 10)), list(range(1, 8))]
    left = digit_view([sum(1 << (d - 1) for d in ds) for ds in column], 2)
    assert left is not None
    assert [i for i in range(9) if left[i] >> 8 & 1] == [4]  # (the column's hidden single)


def test_trollscraper_takes_hundreds_of_nodes_not_a_hundred_thousand() -> None:
    """With the digit view, the kernel decides Trollscraper (``published`` 86) in hundreds of
    nodes; the automaton alone took 134 thousand (ISS takes about 4,500 guesses)."""
    puzzle = load_puzzles("published")[86]
    tables = glue.tables(puzzle.model, puzzle.size)
    assert tables.seen.tolist().count(0) == 0  # every clue is along a full row or column
    result = get_backend("backtrack").solve(puzzle, limit=2, time_limit=60)
    assert last_engine() == "kernel"
    assert result.status is Status.UNIQUE and result.solutions == (puzzle.published,)
    assert result.stats["nodes"] < 2_000


def test_the_digit_view_takes_skyscrapers_along_full_groups_with_clues_up_to_n() -> None:
    """``seen_clues`` gives the digit view only skyscrapers it can hold: along a full row or
    column (each digit once) with a clue from 1 to N; a clue past N (no solution: the
    automaton's dead end) or a line that is no group gets 0."""
    n = 4
    row = (0, 1, 2, 3)
    rules: list[Rule] = [Skyscraper(row, 2), Skyscraper(row[::-1], 5), Skyscraper(row, 4)]
    rules.append(XSum((0, 4, 8, 12), 3))
    model = load_model("classic").with_rules(rules=rules, size=n)
    assert sequence_tables.seen_clues(model, n).tolist() == [2, 0, 4, 0]
    no_rows = dataclasses.replace(model, group_kinds=("columns", "boxes"))
    assert sequence_tables.seen_clues(no_rows, n).tolist()[:3] == [0, 0, 0]
