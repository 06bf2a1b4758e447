"""Every backend on every catalogue puzzle (tests/variants.py): a backend that takes the puzzle
lists exactly the solutions the independent enumeration finds; one that refuses names a rule
it does not declare. A backend that declares every rule of a puzzle must take it — so a backend
that claims a rule and counts it wrong fails here, whichever backends compile which rules."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest
from variants import MAX_COUNT, Entry, catalogue, solutions

from sudoku_cp import Puzzle, backend_names, get_backend
from sudoku_cp.backends import backend_class
from sudoku_cp.harness import cross_check
from sudoku_cp.model import load_model
from sudoku_cp.rules import Rule

ENTRIES = [entry for entry in catalogue() if entry.count <= MAX_COUNT]


def _backends() -> list:
    params = []
    for name in backend_names():
        reason = backend_class(name).unavailable_reason()
        if not backend_class(name).complete:
            reason = (
                f"{name} deduces and never counts (its soundness: tests/test_logic_soundness.py)"
            )
        params.append(pytest.param(name, marks=pytest.mark.skip(reason=reason) if reason else ()))
    return params


def test_the_catalogue_is_not_thinned_out_by_the_cap():
    assert len(ENTRIES) >= len(catalogue()) - 2
    assert {0, 1} <= {entry.count for entry in ENTRIES}
    assert any(entry.count > 2 for entry in ENTRIES)


@pytest.mark.parametrize("backend", _backends())
@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_a_backend_counts_every_variant_right_or_refuses_naming_the_rule(backend, entry: Entry):
    solver = get_backend(backend)
    puzzle = entry.puzzle
    missing = [rule for rule in puzzle.model.rules if rule.key not in solver.rules]
    refusal = solver.refusal(puzzle)
    if missing:
        assert refusal is not None, f"{backend} takes a rule it does not declare"
        assert f"'{backend}'" in refusal and "\n" not in refusal
        assert any(f"the {r.title} rule ({r.key})" in refusal for r in missing), refusal
        return
    # it declares every rule of the puzzle: it must take it and count it right
    assert refusal is None, f"{backend} declares {sorted(puzzle.model.rule_keys)}: {refusal}"
    result = solver.solve(puzzle, limit=None, time_limit=120)
    assert result.exact, (backend, entry.name, result.status)
    assert result.count == entry.count, (backend, entry.name)
    assert all(puzzle.is_solution(grid) for grid in result.solutions)
    assert sorted(result.solutions) == solutions(puzzle)


@pytest.mark.parametrize("backend", _backends())
@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.count > 2], ids=str)
def test_a_limit_stops_the_count_at_the_limit(backend, entry: Entry):
    solver = get_backend(backend)
    if solver.refusal(entry.puzzle):
        return  # the test above checks the refusal
    result = solver.solve(entry.puzzle, limit=2, time_limit=120)
    assert result.count == 2 and not result.exact
    assert all(entry.puzzle.is_solution(grid) for grid in result.solutions)


@dataclasses.dataclass(frozen=True)
class OddOfUnknownShape(Rule):
    """A rule under a key every backend takes ("odd") but of no shape any compiles: its only
    content is its checker."""

    cells: tuple[int, ...] = (0,)
    key: ClassVar[str] = "odd"
    title: ClassVar[str] = "odd of no known shape"

    def problems(self, grid, size):
        return [f"r1c1 holds {grid[0]}"] if grid[0] % 2 == 0 else []


@pytest.mark.parametrize("backend", ["backtrack", "cpsat", "sat", "constraint", "dlx"])
def test_a_rule_of_a_shape_a_backend_does_not_know_is_never_left_out(backend):
    model = load_model("classic").with_rules(rules=[OddOfUnknownShape()], size=4)
    record = cross_check(Puzzle([0] * 16, model), [backend], limit=None)
    run = record.backends[backend]
    assert run.status.value == "error", (run.status, run.count)
    assert "cannot compile the odd of no known shape rule" in (run.error or "")


@pytest.mark.parametrize("fmt", ["dimacs", "opb", "minizinc"])
def test_an_export_refuses_a_rule_of_a_shape_it_does_not_know(fmt):
    from sudoku_cp.export import Unexportable, export

    model = load_model("classic").with_rules(rules=[OddOfUnknownShape()], size=4)
    with pytest.raises(Unexportable, match="odd of no known shape"):
        export(Puzzle([0] * 16, model), fmt)


def test_the_certificates_encoder_refuses_a_rule_of_a_shape_it_does_not_know():
    from sudoku_cp.certify.cnf import Unencodable, encode

    model = load_model("classic").with_rules(rules=[OddOfUnknownShape()], size=4)
    with pytest.raises(Unencodable, match="odd of no known shape"):
        encode(Puzzle([0] * 16, model))
