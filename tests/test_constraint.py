"""The ``constraint`` backend (python-constraint): what is particular to it (the contract is in
test_backend_contract.py).

Its counters, every solver and way of compiling the givens, and its clock constraint.
"""

from __future__ import annotations

import pytest
from puzzles import FEW, INKALA, all_solutions

from sudoku_cp import BackendError, Puzzle, Status, get_backend
from sudoku_cp.backends.python_constraint import SOLVERS, compile_problem

pytest.importorskip("constraint")


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("givens", ["pruned", "fixed"])
@pytest.mark.parametrize("order", ["candidates", "reading"])
@pytest.mark.parametrize("balance", [True, False])
def test_every_choice_gives_the_same_solutions(
    solver: str, givens: str, order: str, balance: bool
) -> None:
    few = Puzzle.parse(FEW)
    truth = all_solutions("backtrack", few)
    assert (
        all_solutions("constraint", few, solver=solver, givens=givens, order=order, balance=balance)
        == truth
    )
    x = Puzzle.parse("1...............", "x")
    assert all_solutions(
        "constraint", x, solver=solver, givens=givens, order=order, balance=balance
    ) == all_solutions("backtrack", x)


def test_options_are_checked() -> None:
    backend = get_backend("constraint")
    few = Puzzle.parse(FEW)
    with pytest.raises(BackendError, match="choose from"):
        backend.solve(few, solver="MinConflictsSolver")
    with pytest.raises(BackendError, match="choose from"):
        backend.solve(few, givens="ignored")
    with pytest.raises(BackendError, match="no option"):
        backend.solve(few, workers=2)


def test_compiles_givens_both_ways() -> None:
    puzzle = Puzzle.parse("1.....2.........")
    domains, groups = compile_problem(puzzle, "pruned", "reading")
    assert 0 not in domains and 6 not in domains and len(domains) == 14
    assert domains[1] == [2, 3, 4]  # row 1 and box 1 hold the 1
    assert domains[4] == [3, 4]  # 1 in its column and box, 2 in its row
    assert all(0 not in g and 6 not in g for g in groups)
    domains, groups = compile_problem(puzzle, "fixed", "reading")
    assert len(domains) == 16 and domains[0] == [1] and domains[1] == [1, 2, 3, 4]
    assert groups == [list(g) for g in puzzle.groups()]


def test_candidates_order_puts_fewest_first() -> None:
    domains, _ = compile_problem(Puzzle.parse(INKALA), "pruned", "candidates")
    sizes = [len(d) for d in domains.values()]
    assert sizes == sorted(sizes)


def test_time_limit_interrupts_the_compiled_search() -> None:
    """A timer signal cannot stop the library's loop; the clock constraint's exception does."""
    result = get_backend("constraint").solve(Puzzle([0] * 81), limit=None, time_limit=0.3)
    assert not result.exact and result.count >= 2 and result.status is Status.MULTIPLE
    assert result.stats["assignments"] > 0
    assert result.seconds < 30  # a hang guard, not a timing
