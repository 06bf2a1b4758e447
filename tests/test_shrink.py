"""Shrinking disagreements (sudoku_cp.shrink, `sudoku-cp shrink`, `check --shrink`).

The disagreements are real: a lying backend — the real backtracker, registered like any user
backend, that drops the first solution it finds and claims to have searched everything
whenever the puzzle shows a pattern (a 5 given just left of a 7, or a killer cage of total 3)
— judged against the honest backtracker. The shrunk puzzle must still expose it, with far
fewer givens; which givens and rules are left is known from the pattern alone.
"""

from __future__ import annotations

import json

import pytest
from clitools import error_line, jsonl, run
from fault_backends import LiesWhenFirstGivenIsOne
from puzzles import KNOWN, KNOWN_SOLUTION

from sudoku_cp import Puzzle
from sudoku_cp.backends.backtrack import BacktrackBackend
from sudoku_cp.batch import check_puzzles
from sudoku_cp.harness import cross_check
from sudoku_cp.model import load_model
from sudoku_cp.rules import Cage
from sudoku_cp.shrink import Disagrees, Harness, ddmin, parts_of, shrink
from sudoku_cp.transforms import transforms_for
from sudoku_cp.verdict import CheckRecord, Verdict

LIAR = "test-drops-on-pattern"


def _pattern(puzzle: Puzzle) -> bool:
    n, cells = puzzle.size, puzzle.cells
    pair = any(cells[c] == 5 and cells[c + 1] == 7 for c in range(n * n - 1) if (c + 1) % n)
    cage3 = any(isinstance(r, Cage) and r.total == 3 for r in puzzle.model.rules)
    return pair or cage3


class DropsOnPattern(BacktrackBackend):
    """Honest, except on the pattern: then it drops the first solution it finds and says it
    searched everything (a unique puzzle becomes `none`, two solutions `unique` …)."""

    name, summary = LIAR, "drops a solution when a 5 is given left of a 7, or a cage sums to 3"
    calls = 0

    def search(self, puzzle, limit, deadline, options):
        type(self).calls += 1
        if not _pattern(puzzle):
            return super().search(puzzle, limit, deadline, options)
        found = super().search(puzzle, None if limit is None else limit + 1, deadline, options)
        found.solutions = found.solutions[1:]
        found.exhausted = True
        return found


@pytest.fixture
def liar(registered):
    registered(DropsOnPattern)
    DropsOnPattern.calls = 0
    return DropsOnPattern


def _with_pair() -> Puzzle:
    """KNOWN (unique) with the 5 and the 7 its solution holds side by side added as givens."""
    solution = [int(ch) for ch in KNOWN_SOLUTION]
    cell = next(c for c in range(80) if (c + 1) % 9 and solution[c : c + 2] == [5, 7])
    cells = [int(ch) if ch != "." else 0 for ch in KNOWN]
    cells[cell], cells[cell + 1] = 5, 7
    return Puzzle(cells)


def test_ddmin_finds_the_one_failing_part_and_the_pair() -> None:
    parts = [("given", i) for i in range(20)]
    assert ddmin(parts, lambda kept: ("given", 13) in kept) == [("given", 13)]
    both = ddmin(parts, lambda kept: {("given", 2), ("given", 17)} <= set(kept))
    assert sorted(both) == [("given", 2), ("given", 17)]


def test_a_lie_on_a_given_pair_shrinks_to_the_pair(liar) -> None:
    puzzle = _with_pair()
    assert _pattern(puzzle) and cross_check(puzzle, ["backtrack", LIAR]).verdict == "disagreement"
    DropsOnPattern.calls = 0
    harness = Harness(["backtrack", LIAR])
    found = shrink(puzzle, Disagrees(harness), harness)
    assert found is not None and found.minimal
    # every solver call counted: each puzzle tried ran both backends once
    assert found.calls == 2 * DropsOnPattern.calls and found.checks == DropsOnPattern.calls
    shrunk = found.puzzle
    # exactly the 5 and the 7, side by side: nothing else is needed, and neither can go
    assert shrunk.givens_count == 2 < puzzle.givens_count // 10
    given = [c for c, d in enumerate(shrunk.cells) if d]
    assert [shrunk.cells[c] for c in given] == [5, 7] and given[1] == given[0] + 1
    # it still exposes the liar, judged afresh by the harness
    record = cross_check(shrunk, ["backtrack", LIAR])
    assert record.verdict is Verdict.DISAGREEMENT and LIAR in record.reason


def test_rules_are_shrunk_too(liar) -> None:
    """A 4x4 killer with four cages and two givens: the lie needs the cage of total 3 only."""
    cages = [Cage((0, 1), 3), Cage((2, 6), 4), Cage((8, 12, 13), 9), Cage((10, 11, 15), 8)]
    model = load_model("classic").with_rules(rules=cages, size=4)
    puzzle = Puzzle([1] + [0] * 14 + [1], model)
    harness = Harness(["backtrack", LIAR])
    found = shrink(puzzle, Disagrees(harness), harness)
    assert found is not None and found.minimal
    assert found.puzzle.givens_count == 0
    assert found.puzzle.model.rules == (Cage((0, 1), 3),)
    assert len(found.removed_rules) == 3
    assert cross_check(found.puzzle, ["backtrack", LIAR]).verdict is Verdict.DISAGREEMENT
    # the record form writes the cage (an f-puzzles link), which reads back as the same puzzle
    text = found.to_dict()["puzzle"]
    assert text.startswith("https://f-puzzles.com/") and Puzzle.parse(text).model.rules == (
        Cage((0, 1), 3),
    )


def test_a_metamorphic_failure_is_kept_under_the_same_transforms(registered) -> None:
    """The label liar is caught only by a relabelled copy: with the original's transforms the
    shrunk puzzle still fails, without them it does not."""
    registered(LiesWhenFirstGivenIsOne)
    names = ["backtrack", LiesWhenFirstGivenIsOne.name]
    puzzle = Puzzle.parse(KNOWN.replace("1", "."))  # no 1: the liar is honest on it, 2+ solutions
    transforms = transforms_for(puzzle, 8, 0)
    assert cross_check(puzzle, names).verdict is Verdict.MULTIPLE
    assert cross_check(puzzle, names, metamorphic=8).verdict is Verdict.DISAGREEMENT
    harness = Harness(names)
    found = shrink(puzzle, Disagrees(harness, transforms), harness)
    assert found is not None and found.minimal
    assert found.puzzle.givens_count <= 2 < puzzle.givens_count
    assert "metamorphic" in found.record.reason
    assert not Disagrees(Harness(names))(found.puzzle)


def test_nothing_to_shrink_when_the_backends_agree(liar) -> None:
    harness = Harness(["backtrack", LIAR])
    assert shrink(Puzzle.parse(KNOWN), Disagrees(harness), harness) is None
    assert harness.calls == 2


def test_the_call_budget_stops_the_search_with_the_smallest_found(liar) -> None:
    puzzle = _with_pair()
    harness = Harness(["backtrack", LIAR], max_calls=12)
    found = shrink(puzzle, Disagrees(harness), harness)
    assert found is not None and not found.minimal and harness.calls <= 12
    assert found.puzzle.givens_count < puzzle.givens_count
    assert cross_check(found.puzzle, ["backtrack", LIAR]).verdict is Verdict.DISAGREEMENT


def test_check_shrink_records_the_reproducer_beside_the_original(liar, tmp_path) -> None:
    puzzles = [KNOWN, _with_pair().to_line()]
    records = sorted(
        check_puzzles(puzzles, ["backtrack", LIAR], shrink=True, jobs=1), key=lambda r: r.index
    )
    assert [r.verdict for r in records] == [Verdict.UNIQUE, Verdict.DISAGREEMENT]
    assert records[0].shrunk is None and "shrunk" not in records[0].to_dict()
    shrunk = records[1].shrunk
    assert shrunk["givens"] == 2 and shrunk["original_givens"] == _with_pair().givens_count
    assert shrunk["minimal"] and shrunk["calls"] > 0 and LIAR in shrunk["reason"]
    assert records[1].puzzle == puzzles[1]  # the original stays the record's puzzle
    again = CheckRecord.from_dict(json.loads(json.dumps(records[1].to_dict())))
    assert again.shrunk == shrunk
    assert Puzzle.parse(shrunk["puzzle"]).givens_count == 2


def test_the_shrink_command(liar, tmp_path) -> None:
    out = tmp_path / "small.txt"
    result = run("shrink", _with_pair().to_line(), "-b", f"backtrack,{LIAR}", "-o", str(out))
    assert result.exit_code == 0, result.output
    line = result.stdout.strip()
    assert Puzzle.parse(line).givens_count == 2 and out.read_text().strip() == line
    assert "-> 2 givens" in result.stderr and "solver calls" in result.stderr
    nothing = run("shrink", KNOWN, "-b", f"backtrack,{LIAR}")
    assert nothing.exit_code == 1 and "nothing to shrink" in nothing.stderr


def test_check_shrink_on_the_command_line(liar) -> None:
    result = run(
        "check", _with_pair().to_line(), "-b", f"backtrack,{LIAR}", "--shrink", "-f", "jsonl"
    )
    assert result.exit_code == 3
    (record,) = jsonl(result.stdout)
    assert record["verdict"] == "disagreement" and record["shrunk"]["givens"] == 2


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["shrink", "12.3"], "PUZZLE"),
        (["shrink", KNOWN, "--max-calls", "2000000"], "cap"),
        (["shrink", KNOWN, "-b", "nosuch"], "nosuch"),
        (["minimize", KNOWN + "\n" + KNOWN], "more than one puzzle"),
    ],
)
def test_bad_input_is_one_line(args, says) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert says in error_line(result)


def test_parts_of_lists_givens_then_rules() -> None:
    model = load_model("classic").with_rules(rules=[Cage((0, 1), 3)], groups=[(0, 5)], size=4)
    givens, rules = parts_of(Puzzle([1] + [0] * 15, model))
    assert givens == [("given", 0)] and rules == [("rule", 0), ("group", 0)]


def test_all_means_every_backend_and_auto_the_default_two() -> None:
    from sudoku_cp.backends import available_backends

    every = Harness("all")
    assert not every.auto and [r[0] for r in every.runners] == available_backends()
    chosen = Harness("auto").runners_for(Puzzle.parse(KNOWN))
    assert [r[0] for r in chosen] == ["backtrack", "sat"]
