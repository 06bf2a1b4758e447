"""The backend contract, run on every registered backend (and every strategy, where it is cheap).

One suite for what every backend promises (``DESIGN.md``, "The backend contract"): it declares
itself, its options and its counters with their kinds; it answers unique / multiple / none with
exact counts on puzzles of every model and several sizes, and agrees with the reference; it
honours ``limit`` and the time limit; it is pure; it refuses up front, with one line naming
itself, exactly the puzzles ``supports`` says it cannot take. What is particular to one backend
is in its own file (``test_backtrack.py``, ``test_cpsat.py``, ``test_constraint.py``,
``test_sat.py``, ``test_dlx.py``).

Two parameter lists, built from the registry, so a backend added to it joins the suite without
a change here (a backend whose library is missing is skipped):

- ``spec``: every backend, and one entry per strategy of a backend that has a ``strategy``
  option (``backtrack:naive`` …) — for the contracts that are quick whatever the search;
- ``backend``: every backend with its default options — for the heavier data sets.

``test_template_backend.py`` collects this module again over the template backend. Puzzles a
slow search cannot finish in the suite's time are listed in ``SLOW`` tables, with the reason.

Generated puzzles are deterministic: a seeded scatter of digits is completed by the reference,
then cells are blanked in a seeded order. Per model and size there are three:

- *unique*: each blank kept only while the reference still finds one solution, up to a share
  of the grid (``BLANK_SHARE``, so that python-constraint stays quick);
- *multiple*: the first blank that gave a second solution, if the puzzle then has at most
  ``MAX_COUNT`` solutions (all of them are enumerated by every backend);
- *none*: the unique puzzle plus one wrong given — a digit no peer holds, other than the
  cell's digit in the one solution — so nothing repeats and nothing fits.
"""

from __future__ import annotations

import functools
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from puzzles import (
    FEW,
    FEW_COUNT,
    HARD_25X25,
    INKALA,
    brute_force_count,
    bundled,
    none_puzzle,
    read_csv,
    solve_checked,
    unique_from,
)

from sudoku_cp import (
    BackendError,
    Puzzle,
    Result,
    Status,
    backend_names,
    get_backend,
    model_names,
    solve,
)
from sudoku_cp.backends import COUNTER_KINDS, Counter, backend_class
from sudoku_cp.model import Model, load_model, model_from_dict

REFERENCE = "backtrack"
GENEROUS = 60.0
"""A time limit no backend should come near on these puzzles: a hang fails, it never blocks."""


# --- the parameters: every registered backend, and every strategy ------------------------------
@dataclass(frozen=True)
class Spec:
    """A backend and the options that pick one of its strategies."""

    backend: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def id(self) -> str:
        return ":".join([self.backend, *(str(v) for _, v in self.options)])

    def solve(self, puzzle: Puzzle, limit: int | None = 1, **kwargs: Any) -> Result:
        result = solve_checked(self.backend, puzzle, limit, **dict(self.options), **kwargs)
        return undecided_skips(result)


def undecided_skips(result: Result) -> Result:
    """An incomplete backend (``logic``: deduction, no guessing) may stop without an answer
    where the others decide: the rest of that test does not apply to it. Only such a backend
    may, and it then claims nothing (its own tests check it decides what it should)."""
    if result.status is Status.UNDECIDED:
        assert not backend_class(result.backend).complete, f"{result.backend} is complete"
        assert not result.solutions and not result.exact
        pytest.skip(f"{result.backend}: undecided (deduction stalled)")
    return result


def _usable(name: str) -> str | None:
    """Why backend ``name`` cannot run here (its module or library missing), or None."""
    try:
        cls = backend_class(name)
    except ImportError as err:  # a registered module not written yet
        return f"backend '{name}' is not importable: {err}"
    return cls.unavailable_reason()


def spec_params(names: list[str], strategies: bool) -> list:
    params = []
    for name in names:
        reason = _usable(name)
        marks = pytest.mark.skip(reason=reason) if reason else ()
        chooser = (
            None
            if reason
            else next((o for o in backend_class(name).options if o.name == "strategy"), None)
        )
        specs = [Spec(name)]
        if strategies and chooser is not None and chooser.choices:
            specs = [Spec(name, (("strategy", s),)) for s in chooser.choices]
        params += [pytest.param(s, id=s.id, marks=marks) for s in specs]
    return params


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "spec" in metafunc.fixturenames:
        metafunc.parametrize("spec", spec_params(backend_names(), strategies=True))
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", spec_params(backend_names(), strategies=False))


MODEL_SIZES = (
    [("classic", n) for n in (4, 6, 9, 12, 16, 25)]
    + [("x", n) for n in (4, 6, 9, 12, 16, 25)]
    + [("hyper", 9)]
    + [("latin", n) for n in (4, 6, 9, 12, 16, 25)]
)
SLOW_EMPTY = {
    # Empty grids on which a textbook strategy wanders for minutes before its second solution.
    "backtrack:naive": {("classic", 25), ("x", 12), ("x", 16), ("x", 25), ("latin", 25)},
    "backtrack:ordered": {("classic", 25), ("x", 12), ("x", 16), ("x", 25), ("latin", 25)},
    "backtrack:mrv": {("classic", 25)},
    # Seconds each (presolve, then enumeration); the 16x16 ones show the same.
    "cpsat": {("classic", 25), ("x", 25), ("latin", 25)},
    # Over 10 s: "most constraints first" sends the search into the boxes' corners.
    "constraint": {("classic", 25), ("x", 25)},
    # 2 s (most of it the search; every other 25x25 empty grid takes it 50 ms).
    "sat": {("latin", 25)},
    # Over 60 s (1.9 million nodes): Gecode's fewest-candidates-first order, with its
    # value-consistent alldifferent, wanders into the boxes; the other 25x25 ones take 1-2 s.
    "minizinc": {("classic", 25)},
}
"""(model, size) pairs whose *empty* grid a spec is not asked for two solutions of."""


SLOW_9X9 = {"backtrack:naive", "backtrack:ordered"}
"""Specs that take minutes on hard 9x9 puzzles (reading order, no candidate ordering)."""


def hard_9x9(spec: Spec) -> Puzzle:
    """Inkala's puzzle, or for a spec in SLOW_9X9 a unique 9x9 puzzle it solves at once."""
    if spec.id in SLOW_9X9:
        return Puzzle(unique_from(a_solution("classic", 9), 9))
    return Puzzle.parse(INKALA)


def reference() -> Any:
    reason = _usable(REFERENCE)
    if reason:
        pytest.skip(f"the reference backend is missing: {reason}")
    return get_backend(REFERENCE)


@functools.cache
def a_solution(model: str | Model, n: int) -> tuple[int, ...]:
    """One solved grid of the model at size n, from the reference (checked by the validator)."""
    result = reference().solve(Puzzle([0] * (n * n), model), limit=1)
    assert result.solution and Puzzle([0] * (n * n), model).is_solution(result.solution)
    return result.solution


# --- it says what it is ------------------------------------------------------------------------
def test_declares_name_options_and_counters_with_kinds(spec: Spec) -> None:
    cls = backend_class(spec.backend)
    assert cls.name == spec.backend and cls.summary
    assert all(opt.help for opt in cls.options)
    assert cls.counters, "a backend reports at least one counter"
    assert all(
        isinstance(c, Counter) and c.description and c.kind in COUNTER_KINDS
        for c in cls.counters.values()
    )
    assert cls.counters_of_kind("size"), "the summary's 'mean search size' needs one"
    if cls.requires is not None:
        assert cls.version()


def test_a_counter_name_means_one_kind_across_backends() -> None:
    kinds: dict[str, set[str]] = {}
    for name in backend_names():
        if _usable(name) is None:
            for counter, declared in backend_class(name).counters.items():
                kinds.setdefault(counter, set()).add(declared.kind)
    assert {c: k for c, k in kinds.items() if len(k) > 1} == {}


def test_counters_returned_are_the_counters_declared(spec: Spec) -> None:
    cls = backend_class(spec.backend)
    for puzzle, limit in (
        (hard_9x9(spec), 2),
        (Puzzle.parse(FEW), None),
        (Puzzle(none_puzzle(4)), 2),
    ):
        result = spec.solve(puzzle, limit, time_limit=GENEROUS)
        assert set(result.stats) <= set(cls.counters), set(result.stats) - set(cls.counters)
        assert all(isinstance(v, int | float) and v >= 0 for v in result.stats.values())
    searched = spec.solve(Puzzle.parse(FEW), None)
    assert any(c in searched.stats for c in cls.counters_of_kind("size"))


def test_time_counters_fit_in_the_time_of_the_solve(spec: Spec) -> None:
    """Backends that time their model building and their search apart (cpsat, constraint).
    (hard_9x9: Inkala, but not for the reading-order strategies, 7 and 11 s of search here.)"""
    result = spec.solve(hard_9x9(spec), 2, time_limit=GENEROUS)
    parts = [result.stats[c] for c in ("build_seconds", "search_seconds") if c in result.stats]
    assert sum(parts) <= result.seconds


def test_a_deadline_already_past_is_a_timeout_or_a_whole_answer(spec: Spec) -> None:
    """A search looks at the clock now and then: a past deadline stops it at its first look
    (cpsat, constraint, sat look before searching), unless it finished before (backtrack on
    Inkala) — and then its answer is the whole one, never a cut-short search called exact."""
    backend = get_backend(spec.backend)
    options = backend.check_options(dict(spec.options))
    search = backend.search(Puzzle.parse(INKALA), 2, time.perf_counter() - 1, options)
    if search.timed_out:
        assert not search.exhausted and len(search.solutions) <= 1
    else:
        assert search.exhausted and len(search.solutions) == 1
    if spec.backend in ("cpsat", "constraint"):
        assert search.timed_out and not search.solutions


# --- statuses and counts: every model and size ---------------------------------------------------
@pytest.mark.parametrize(("model", "n"), MODEL_SIZES, ids=[f"{m}-{n}" for m, n in MODEL_SIZES])
def test_every_model_and_size(spec: Spec, model: str, n: int) -> None:
    refused = get_backend(spec.backend).supports(Puzzle([0] * (n * n), model))
    if refused:
        pytest.skip(refused)  # checked by the supports tests below
    solution = a_solution(model, n)
    one = spec.solve(Puzzle(unique_from(solution, n), model), 2, time_limit=GENEROUS)
    assert one.status is Status.UNIQUE and one.exact and one.solutions == (solution,)

    nothing = spec.solve(Puzzle(none_puzzle(n), model), 2, time_limit=GENEROUS)
    assert nothing.status is Status.NONE and nothing.count == 0 and nothing.exact

    if (model, n) not in SLOW_EMPTY.get(spec.id, ()):
        many = spec.solve(Puzzle([0] * (n * n), model), 2, time_limit=GENEROUS)
        assert many.status is Status.MULTIPLE and many.count == 2


@pytest.mark.parametrize(("model", "count"), [("classic", 288), ("latin", 576)])
def test_empty_4x4_counts(spec: Spec, model: str, count: int) -> None:
    result = spec.solve(Puzzle([0] * 16, model), None, time_limit=GENEROUS)
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, count, True)


@pytest.mark.parametrize("model", ["classic", "x", "latin"])
def test_4x4_counts_match_brute_force(spec: Spec, model: str) -> None:
    for cells in ([0] * 16, [1] + [0] * 15, [0, 0, 0, 0, 0, 0, 1, 0, 0, 3] + [0] * 6):
        puzzle = Puzzle(cells, model)
        result = spec.solve(puzzle, None, time_limit=GENEROUS)
        assert result.exact and result.count == brute_force_count(puzzle)


CHOSEN_BOXES = ["3x2", "4x2", "4x3", "5x3"]


@pytest.mark.parametrize("box", CHOSEN_BOXES)
def test_a_chosen_box_shape(spec: Spec, box: str) -> None:
    # Boxes other than the default shape (3 rows by 2 columns for 6x6 …): every backend reads
    # them from the model's groups.
    rules = load_model("classic", box=box)
    n = rules.box[0] * rules.box[1]  # type: ignore[index]
    solution = a_solution(rules, n)
    assert not Puzzle([0] * (n * n)).is_solution(solution)  # not a default-box grid
    one = spec.solve(Puzzle(unique_from(solution, n), rules), 2, time_limit=GENEROUS)
    assert one.status is Status.UNIQUE and one.exact and one.solutions == (solution,)
    nothing = spec.solve(Puzzle(none_puzzle(n), rules), 2, time_limit=GENEROUS)
    assert nothing.status is Status.NONE and nothing.exact
    if n == 6:  # two rows left blank: counted to the end, against plain enumeration
        few = Puzzle([0 if cell < 12 else d for cell, d in enumerate(solution)], rules)
        counted = spec.solve(few, None, time_limit=GENEROUS)
        assert counted.exact and counted.count == brute_force_count(few) > 1


def test_a_full_grid_is_its_own_only_solution(spec: Spec) -> None:
    grid = a_solution("classic", 9)
    result = spec.solve(Puzzle(grid), None)
    assert (result.status, result.solutions, result.exact) == (Status.UNIQUE, (grid,), True)


def test_a_blank_with_no_candidate_means_no_solution(spec: Spec) -> None:
    # Row 1 gives 2, 3, 4 and column 1 gives 1 below the blank corner: no digit fits it.
    puzzle = Puzzle([0, 2, 3, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "latin")
    result = spec.solve(puzzle, 2)
    assert (result.status, result.exact) == (Status.NONE, True)


def test_inkala_is_unique(spec: Spec) -> None:
    if spec.id in SLOW_9X9:
        pytest.skip("minutes for a reading-order search (its time limit test uses that)")
    puzzle = Puzzle.parse(INKALA)
    result = spec.solve(puzzle, 2, time_limit=GENEROUS)
    assert result.status is Status.UNIQUE and result.exact
    famous = {row["puzzle"]: row["solution"] for row in bundled("famous")}
    assert "".join(map(str, result.solution)) == famous[INKALA]


# --- limits ------------------------------------------------------------------------------------
def test_limit_is_honoured_exactly(spec: Spec) -> None:
    few = Puzzle.parse(FEW)
    for limit in (1, 2, 3, 23, 24, 25, None):
        result = spec.solve(few, limit)
        expected = FEW_COUNT if limit is None else min(limit, FEW_COUNT)
        assert result.count == len(set(result.solutions)) == expected, limit
        if limit is None or limit > FEW_COUNT:
            assert result.exact, limit
        elif limit < FEW_COUNT:
            assert not result.exact, limit
        # At limit == count the search may or may not have gone on to see there is no more.
    assert spec.solve(few, 1).status is Status.SOLVED
    assert spec.solve(few, 2).status is Status.MULTIPLE
    inkala = hard_9x9(spec)
    assert spec.solve(inkala, 1, time_limit=GENEROUS).status is Status.SOLVED
    assert spec.solve(inkala, None, time_limit=GENEROUS).count == 1


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_nonsense_limits_are_refused(spec: Spec, bad: Any) -> None:
    with pytest.raises(BackendError, match="limit"):
        get_backend(spec.backend).solve(Puzzle.parse(FEW), limit=bad, **dict(spec.options))
    with pytest.raises(BackendError, match="time limit"):
        get_backend(spec.backend).solve(Puzzle.parse(FEW), time_limit=0, **dict(spec.options))


# --- time limits -------------------------------------------------------------------------------
@pytest.mark.slow
def test_time_limit_cuts_counting_short(spec: Spec) -> None:
    """Counting the ~10^21 solutions of the empty 9x9 grid stops at the time limit."""
    result = spec.solve(Puzzle([0] * 81), None, time_limit=0.3)
    assert not result.exact
    # Two solutions found already make it a fact that there are several; fewer is a timeout.
    assert result.status is (Status.MULTIPLE if result.count >= 2 else Status.TIMEOUT)
    assert result.seconds < 30  # a hang guard, not a timing: the limit is 0.3 s


@pytest.mark.slow
def test_time_limit_gives_timeout(spec: Spec) -> None:
    puzzle = Puzzle.parse(HARD_25X25)
    if get_backend(spec.backend).supports(puzzle):
        puzzle = Puzzle.parse(INKALA)  # the hardest this spec takes (the template: 16x16)
    elif spec.id in SLOW_9X9:
        puzzle = Puzzle.parse(INKALA)  # minutes for them, and no 25x25 blank order to hide in
    result = spec.solve(puzzle, 2, time_limit=0.3)
    if spec.id == "template" and result.status is not Status.TIMEOUT:
        pytest.skip("the template solved Inkala within the limit on this machine")
    assert result.status is Status.TIMEOUT
    assert not result.exact and result.count <= 1
    assert result.seconds < 30  # a hang guard, not a timing


# --- options -----------------------------------------------------------------------------------
def test_options_are_checked(spec: Spec) -> None:
    backend = get_backend(spec.backend)
    few = Puzzle.parse(FEW)
    with pytest.raises(BackendError, match="no option"):
        backend.solve(few, no_such_option=1)
    for opt in backend.options:
        if opt.choices is not None:
            with pytest.raises(BackendError, match="choose from"):
                backend.solve(few, **{opt.name: "no-such-choice"})
        if opt.minimum is not None:
            with pytest.raises(BackendError, match="at least"):
                backend.solve(few, **{opt.name: opt.type(opt.minimum - 1)})
        if opt.maximum is not None:
            with pytest.raises(BackendError, match="at most"):
                backend.solve(few, **{opt.name: opt.type(opt.maximum + 1)})
        if opt.type is not str:
            with pytest.raises(BackendError, match=f"takes a {opt.type.__name__}"):
                backend.solve(few, **{opt.name: object()})
    # Every default, written as command-line text, is taken and changes no answer.
    text = {opt.name: str(opt.default) for opt in backend.options}
    result = undecided_skips(backend.solve(few, limit=None, **text))
    assert result.count == FEW_COUNT and result.options == backend.check_options({})


# --- purity ------------------------------------------------------------------------------------
def test_same_puzzle_same_answer(spec: Spec, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = hard_9x9(spec)
    before = (puzzle.cells, puzzle.model)
    runs = [spec.solve(puzzle, 2, time_limit=GENEROUS) for _ in range(2)]
    runs += [spec.solve(Puzzle.parse(FEW), 5) for _ in range(2)]
    assert (puzzle.cells, puzzle.model) == before  # the puzzle is not changed
    for first, again in (runs[:2], runs[2:]):
        assert first.status is again.status and first.solutions == again.solutions
        counts = {k: v for k, v in first.stats.items() if isinstance(v, int)}
        assert counts == {k: again.stats[k] for k in counts}  # timings aside
    assert capsys.readouterr() == ("", "")  # no printing


# --- what it supports --------------------------------------------------------------------------
def _odd_models() -> list[Any]:
    """Models no shipped file has, each a real input a user may write: a short [[cells]] group,
    a short window, a one-cell group, a group repeating a row; and the smallest sizes."""

    def make(name: str, data: dict[str, Any]) -> Any:
        return model_from_dict(data, name=name)

    latin = {"groups": ["rows", "columns"]}
    return [
        (make("short-cells", {**latin, "cells": [{"cells": [[0, 0], [1, 1], [2, 3]]}]}), 4),
        (
            make(
                "short-window",
                {**latin, "windows": [{"row": 0, "col": 0, "height": 1, "width": 2}]},
            ),
            4,
        ),
        (make("one-cell", {**latin, "cells": [{"cells": [[0, 0]]}]}), 4),
        (make("row-again", {**latin, "cells": [{"cells": [[0, 3], [0, 2], [0, 1], [0, 0]]}]}), 4),
        (load_model("latin"), 1),
        (load_model("latin"), 2),
        (load_model("latin"), 3),
    ]


ODD = _odd_models()


@pytest.mark.parametrize(("model", "n"), ODD, ids=[f"{m.name}-{n}" for m, n in ODD])
def test_supports_is_asked_first_and_what_it_accepts_is_solved(
    spec: Spec, model: Any, n: int
) -> None:
    """A refused puzzle is refused by ``solve`` with the same one line, naming the backend;
    an accepted one is answered right (never a failure in the middle of the search)."""
    backend = get_backend(spec.backend)
    for cells in ([0] * (n * n), [1] + [0] * (n * n - 1)):
        puzzle = Puzzle(cells, model)
        reason = backend.supports(puzzle)
        if reason:
            assert f"'{spec.backend}'" in reason and "\n" not in reason
            with pytest.raises(BackendError) as err:
                solve(puzzle, spec.backend, limit=None, **dict(spec.options))
            assert str(err.value) == reason
            continue
        result = spec.solve(puzzle, None, time_limit=GENEROUS)
        assert result.exact and result.count == brute_force_count(puzzle)


def test_supports_every_shipped_model(spec: Spec) -> None:
    """Every shipped model is taken, unless it has a rule the backend does not declare — and
    then the refusal names that rule."""
    backend = get_backend(spec.backend)
    for model in model_names():
        for n in (4, 9, 16):
            if load_model(model).fits(n) is None:
                reason = backend.refusal(Puzzle([0] * (n * n), model))
                missing = load_model(model).rule_keys - backend.rules
                if missing:
                    assert reason is not None and f"({min(missing)})" in reason, (model, n)
                else:
                    assert reason is None, (model, n)


# --- it imports its library only when it runs ---------------------------------------------------
def _fresh_python(code: str) -> str:
    """What ``code`` prints when run in a new Python process (which must succeed)."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout


LIBRARIES = {"cpsat": "ortools", "constraint": "constraint", "sat": "pysat", "minizinc": "minizinc"}


def test_importing_the_package_and_backends_imports_no_library() -> None:
    code = (
        "import sys, importlib, sudoku_cp\n"
        "from sudoku_cp.backends import _BUILTIN, backend_class\n"
        "for name, where in _BUILTIN.items():\n"
        "    backend_class(name); importlib.import_module(where.partition(':')[0])\n"
        f"print(sorted(m for m in {sorted(LIBRARIES.values())!r} if m in sys.modules))\n"
    )
    assert _fresh_python(code).strip() == "[]"


FIRST_SOLVE_LIMIT = {
    # Every solve runs the MiniZinc program (flattening, then the solver), and the first of a
    # model once more to read its interface: 0.3-0.45 s for this 4x4 puzzle, measured on a
    # 2-core machine at load 7, however the import is paid.
    "minizinc": 1.5,
}
"""Time limits above the usual 0.25 s, for backends whose every solve starts a program."""


@pytest.mark.slow
def test_the_first_solve_does_not_pay_for_the_import(backend: Spec) -> None:
    """In a fresh process the library import (about a second for CP-SAT) is outside the clock."""
    if backend_class(backend.backend).requires is None:
        pytest.skip("no library to import")
    limit = FIRST_SOLVE_LIMIT.get(backend.backend, 0.25)
    code = (
        "from sudoku_cp import Puzzle, solve\n"
        f"r = solve(Puzzle.parse({FEW!r}), {backend.backend!r}, limit=None, time_limit={limit})\n"
        "print(r.status.value, r.count, r.exact)\n"
    )
    assert _fresh_python(code).strip() == f"multiple {FEW_COUNT} True"


def test_missing_library_disables_only_that_backend(
    backend: Spec, monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = backend_class(backend.backend)
    if cls.requires is None:
        pytest.skip("pure Python: no library to miss")
    monkeypatch.setitem(sys.modules, cls.requires[0], None)  # makes "import module" fail
    reason = cls.unavailable_reason()
    assert reason and "pip install" in reason and f"'{backend.backend}'" in reason
    with pytest.raises(BackendError, match="pip install"):
        get_backend(backend.backend).solve(Puzzle.parse(FEW))
    assert get_backend(REFERENCE).solve(Puzzle.parse(FEW)).status is Status.SOLVED


# --- agreement with the reference on generated puzzles -------------------------------------------
SIZES = (4, 6, 9, 12, 16)
FULL_SIZE_BACKENDS = ("backtrack", "cpsat", "sat", "constraint", "dlx")
"""Backends also compared at 25x25 (measured quick there on the generated puzzles)."""
MAX_COUNT = 12
"""The most solutions a generated *multiple* puzzle may have (all are enumerated)."""
BLANK_SHARE = {4: 1.0, 6: 0.75, 9: 0.62, 12: 0.55, 16: 0.5, 25: 0.3}
"""The largest share of cells a generated puzzle leaves blank, by size."""


def _model_sizes(sizes: tuple[int, ...]) -> list[tuple[str, int]]:
    # Models with rules beyond groups (anti-knight …) are left to tests/test_rules_every_backend.py,
    # whose counts come from full enumeration: this generator scatters digits by groups alone,
    # and some rules have no grid at some sizes (no 4x4 anti-king grid).
    return [
        (m, n)
        for m in model_names()
        for n in sizes
        if load_model(m).fits(n) is None and not load_model(m).rules
    ]


# At 25x25 only the models measured quick to generate there (disjoint groups make the first
# full grid a long search for the reference).
AGREEMENT = _model_sizes(SIZES) + [(m, 25) for m, n in _model_sizes((25,)) if m != "disjoint"]


def _filled(model: str, n: int, rng: random.Random) -> tuple[int, ...]:
    """A full grid: a seeded scatter of non-clashing digits, completed by the reference."""
    solver = reference()
    empty = Puzzle([0] * (n * n), model)
    peers = empty.peers()
    for _ in range(50):
        cells = [0] * (n * n)
        for cell in rng.sample(range(n * n), n):
            digits = [d for d in range(1, n + 1) if all(cells[p] != d for p in peers[cell])]
            if digits:
                cells[cell] = rng.choice(digits)
        found = solver.solve(Puzzle(cells, model), limit=1, time_limit=GENEROUS)
        if found.solution:
            return found.solution
    raise AssertionError(f"no {model} {n}x{n} grid found")  # pragma: no cover


def _count(puzzle: Puzzle, limit: int) -> int:
    return reference().solve(puzzle, limit=limit, time_limit=GENEROUS).count


def _try_multiple(puzzles: dict[str, Puzzle], cells: list[int], model: str) -> None:
    """Keep ``cells`` as the multiple puzzle if it has few enough solutions to enumerate.

    Checked only once a quick check (limit 2) has seen two solutions: counting is the costly
    part for the reference.
    """
    if "multiple" not in puzzles:
        puzzle = Puzzle(cells, model)
        if _count(puzzle, MAX_COUNT + 1) <= MAX_COUNT:
            puzzles["multiple"] = puzzle


@functools.cache
def generated(model: str, n: int) -> dict[str, Puzzle]:
    """The unique, multiple and none puzzles for ``model`` at size ``n`` (see the module doc)."""
    rng = random.Random(f"{model}-{n}")
    cells = list(_filled(model, n, rng))
    solution = tuple(cells)
    order = rng.sample(range(n * n), n * n)
    blanks = int(BLANK_SHARE[n] * n * n)
    puzzles: dict[str, Puzzle] = {}
    for cell in order[:blanks]:
        digit, cells[cell] = cells[cell], 0
        if _count(Puzzle(cells, model), 2) > 1:
            _try_multiple(puzzles, cells, model)
            cells[cell] = digit
    for cell in order[blanks:] + order[:blanks]:
        # No blank within the share gave a multiple puzzle: blank one more given at a time.
        if "multiple" in puzzles:
            break
        if cells[cell]:
            digit, cells[cell] = cells[cell], 0
            if _count(Puzzle(cells, model), 2) > 1:
                _try_multiple(puzzles, cells, model)
            cells[cell] = digit
    unique = puzzles["unique"] = Puzzle(cells, model)
    # A wrong given: a candidate of a blank cell (no peer holds it) other than its digit in
    # the one solution, so nothing repeats and nothing fits.
    peers = unique.peers()
    for cell in rng.sample(range(n * n), n * n):
        if unique.cells[cell]:
            continue
        wrong = [
            d
            for d in range(1, n + 1)
            if d != solution[cell] and all(unique.cells[p] != d for p in peers[cell])
        ]
        if wrong:
            none = list(unique.cells)
            none[cell] = rng.choice(wrong)
            puzzles["none"] = Puzzle(none, model)
            break
    return puzzles


@functools.cache
def expected(model: str, n: int, kind: str) -> Result:
    """The reference's complete answer for a generated puzzle."""
    result = reference().solve(generated(model, n)[kind], limit=None, time_limit=GENEROUS)
    assert result.exact
    return result


@pytest.mark.parametrize(("model", "n"), AGREEMENT, ids=[f"{m}-{n}" for m, n in AGREEMENT])
def test_agrees_with_the_reference(backend: Spec, model: str, n: int) -> None:
    if n == 25 and backend.backend not in FULL_SIZE_BACKENDS:
        pytest.skip("25x25 generated puzzles only for the backends measured quick there")
    kinds = generated(model, n)
    assert {"unique", "none"} <= set(kinds)
    for kind, puzzle in kinds.items():
        truth = expected(model, n, kind)
        assert (
            truth.status
            is {"unique": Status.UNIQUE, "multiple": Status.MULTIPLE, "none": Status.NONE}[kind]
        )
        everything = backend.solve(puzzle, None, time_limit=GENEROUS)
        assert everything.status is truth.status, kind
        assert everything.exact, kind
        assert set(everything.solutions) == set(truth.solutions), kind

        check = backend.solve(puzzle, 2, time_limit=GENEROUS)
        assert check.status is truth.status, kind
        assert set(check.solutions) <= set(truth.solutions)
        assert check.count == min(2, truth.count)

        first = backend.solve(puzzle, 1, time_limit=GENEROUS)
        assert first.status is (Status.NONE if kind == "none" else Status.SOLVED), kind
        assert set(first.solutions) <= set(truth.solutions)


def test_generated_puzzles_cover_every_kind() -> None:
    """Multiple-solution puzzles come out of the generator for most models and sizes."""
    reference()
    with_multiple = [(m, n) for m, n in _model_sizes(SIZES) if "multiple" in generated(m, n)]
    assert len(with_multiple) >= len(_model_sizes(SIZES)) - 2, with_multiple


# --- known answers from the bundled samples and the datasets ------------------------------------
# A few of each bundled hard set, chosen so that python-constraint also answers in well under a
# second; the full sets are the benchmark's business.
HARD_9X9 = {
    "17clue": ("17clue#1", "17clue#492"),
    "top1465": ("top1465#1", "top1465#15"),
    "forum-hardest": ("hardest1106#1",),
}


@pytest.mark.slow
@pytest.mark.parametrize("dataset", sorted(HARD_9X9))
def test_bundled_hard_puzzles_are_unique(backend: Spec, dataset: str) -> None:
    for row in bundled(dataset, HARD_9X9[dataset]):
        puzzle = Puzzle.parse(row["puzzle"])
        result = backend.solve(puzzle, 2, time_limit=GENEROUS)
        assert result.status is Status.UNIQUE, row["id"]
        ref = reference().solve(puzzle, limit=1, time_limit=GENEROUS)
        assert result.solution == ref.solution, row["id"]


MULTIPLE_ROWS = {
    "sat": slice(None, None, 2),
    "dlx": slice(None, None, 2),
    "backtrack": slice(None, None, 3),
}
"""Backends that also count a share of the whole multiple-solution sample (every other row:
25 puzzles, about 9,500 solutions, each one checked by the validator)."""


@pytest.mark.slow
def test_bundled_multiple_counts(backend: Spec) -> None:
    rows = bundled("multiple", ("serg#601", "serg#2401", "serg#1801"))  # 20, 66, 88 solutions
    assert len(rows) == 3
    if backend.backend in MULTIPLE_ROWS:
        rows += bundled("multiple")[MULTIPLE_ROWS[backend.backend]]
    for row in rows:
        result = backend.solve(Puzzle.parse(row["puzzle"]), None, time_limit=GENEROUS)
        assert result.status is Status.MULTIPLE and result.exact, row["id"]
        assert result.count == int(row["solution_count"]), row["id"]


@pytest.mark.slow
def test_bundled_16x16_and_famous(backend: Spec) -> None:
    rows = bundled("16x16", ("gecode#34", "gecode#45"))
    if backend.backend in ("sat", "dlx", "backtrack"):
        rows += bundled("16x16")[:8] + bundled("famous")
    elif backend.backend == "cpsat":
        rows += bundled("famous")[:8]
    for row in rows:
        result = backend.solve(Puzzle.parse(row["puzzle"]), 2, time_limit=GENEROUS)
        assert result.status is Status.UNIQUE, row["id"]
        assert Puzzle.parse(row["solution"]).cells == result.solution, row["id"]


# tdoku's test file: unique puzzles with their solutions, puzzles with no solution (none repeats
# a given) and multi-solution puzzles with their exact counts. Data rows counted from 0; the
# quickest of each kind for python-constraint; every row for the quick backends.
TDOKU_ROWS = (0, 1, 18, 21, 23, 28, 34, 36)
TDOKU_EVERY_ROW = ("backtrack", "sat", "dlx")


@pytest.mark.slow
def test_tdoku_known_answers(backend: Spec, datasets: Path) -> None:
    rows = read_csv(datasets / "tdoku" / "tdoku_test_puzzles.csv")
    counts = {int(row["solution_count"]) for row in rows}
    assert {0, 1, 3, 847} <= counts
    picked = rows if backend.backend in TDOKU_EVERY_ROW else [rows[i] for i in TDOKU_ROWS]
    assert {min(int(r["solution_count"]), 2) for r in picked} == {0, 1, 2}
    for row in picked:
        count = int(row["solution_count"])
        result = backend.solve(Puzzle.parse(row["puzzle"]), None, time_limit=GENEROUS)
        assert (result.count, result.exact) == (count, True), row["puzzle"]
        if count == 1:
            assert result.solution == Puzzle.parse(row["solution"]).cells


PUBLISHED_25X25_BACKENDS = ("cpsat", "sat")
"""Backends that solve the published 25x25 puzzles below in seconds (the others need minutes)."""


@pytest.mark.slow
def test_25x25_from_the_datasets(backend: Spec, datasets: Path) -> None:
    """Two published 25x25 puzzles, checked against their published solutions."""
    if backend.backend not in PUBLISHED_25X25_BACKENDS:
        pytest.skip("minutes for this backend")
    rows = read_csv(datasets / "large" / "25x25_19.csv")
    for row in [r for r in rows if r["id"] in ("gecode#89", "vances25/25x25s01")]:
        result = backend.solve(Puzzle.parse(row["puzzle"]), 2, time_limit=GENEROUS)
        assert result.status is Status.UNIQUE, row["id"]
        assert result.solution == Puzzle.parse(row["solution"]).cells


# --- variants from the datasets: X, Windoku, X-Windoku, and jigsaw through listed cell groups ----
def variant_model(row: dict[str, str]) -> Model:
    variant = row["variant"]
    if variant in ("x", "hyper"):
        return load_model(variant)
    if variant == "x+hyper":
        x, hyper = load_model("x"), load_model("hyper")
        return Model(
            name="x-hyper",
            description="X and Windoku",
            group_kinds=x.group_kinds,
            windows=hyper.windows,
            sizes=(9,),
        )
    regions: dict[str, list[list[int]]] = {}
    for cell, region in enumerate(row["regions"]):
        regions.setdefault(region, []).append([cell // 9, cell % 9])
    kinds = ["rows", "columns"] + (["boxes"] if variant == "jigsaw+box" else [])
    return model_from_dict(
        {"groups": kinds, "cells": [{"cells": cells} for cells in regions.values()]},
        name=variant,
    )


VARIANT_BACKENDS = ("backtrack", "cpsat", "sat", "dlx")
"""Backends measured quick on the variants set (python-constraint takes 30 s on it)."""


def test_variant_puzzles(backend: Spec, datasets: Path) -> None:
    if backend.backend not in VARIANT_BACKENDS:
        pytest.skip("tens of seconds for this backend")
    rows = read_csv(datasets / "variants" / "x_windoku_jigsaw_iss_5.csv")
    assert {"x", "hyper", "x+hyper"} <= {row["variant"] for row in rows}
    for row in rows:
        puzzle = Puzzle.parse(row["puzzle"], model=variant_model(row))
        result = backend.solve(puzzle, 2, time_limit=GENEROUS)
        assert result.status is Status.UNIQUE, row["name"]
        assert "".join(map(str, result.solution)) == row["solution"], row["name"]
