"""sudoku_cp.jit.njit: a compiled function called with constants from compiled code is compiled
once for their types, where numba's own njit compiles it again for each constant's value (the
SE rater's first compile took twice as long for it), and it computes the same."""

from __future__ import annotations

import pytest

numba = pytest.importorskip("numba")

from sudoku_cp.jit import njit  # noqa: E402  (numba first: the module imports it)


def _pair(decorator):  # type: ignore[no-untyped-def]
    """An ``outer`` calling ``inner`` with three different constants, both made by
    ``decorator``."""

    @decorator
    def inner(values, step, flag):  # type: ignore[no-untyped-def]
        total = 0
        for value in values:
            total += value * step if flag else value - step
        return total

    @decorator
    def outer(values):  # type: ignore[no-untyped-def]
        return inner(values, 1, True) + inner(values, 2, True) + inner(values, 3, False)

    return inner, outer


def test_a_callee_is_compiled_once_for_its_types_not_for_each_constant() -> None:
    import numpy as np

    values = np.arange(10, dtype=np.int64)
    inner, outer = _pair(njit(cache=False))
    plain_inner, plain_outer = _pair(numba.njit(cache=False))
    assert outer(values) == plain_outer(values) == 45 + 90 + (45 - 30)
    types = numba.types
    assert list(inner.overloads) == [(numba.typeof(values), types.int64, types.boolean)]
    # numba's own: one version a literal (what this module exists to avoid)
    assert len(plain_inner.overloads) == 3
    # called from Python the dispatcher is numba's as before: same answer, no new version
    assert inner(values, 2, True) == 90 and len(inner.overloads) == 1


def test_the_options_reach_numba() -> None:
    @njit(cache=False, inline="always")
    def twice(x):  # type: ignore[no-untyped-def]
        return 2 * x

    @njit(cache=False)
    def caller(x):  # type: ignore[no-untyped-def]
        return twice(x) + 1

    assert caller(20) == 41
    assert twice.targetoptions.get("inline") == "always"
