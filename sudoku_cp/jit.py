"""The package's numba decorator: :func:`njit`, numba's own, except that a compiled function
called from another compiled function is compiled once for the types of its arguments, not
again for the value of each constant passed to it.

numba types a constant in a call between compiled functions as a literal (``_offer(..., 3,
...)`` passes ``Literal[int](3)``) and compiles the callee anew for every such constant: the SE
rater held 142 compiled versions of its 67 functions. Made plain here (each literal's base type,
``int64``) before numba looks the call up, the first compile on a machine took (2-core AMD EPYC,
numba 0.68): SE rater 87 s → 44 s, its nested chains' rules 32 s → 14 s, the backtracker's
kernels 48 s → 34 s — at the same speed when run (classic kernel, variant search and SE ratings
measured side by side; LLVM still inlines a small callee and folds its constants). Only the
typing of calls between compiled functions changes, never what a function computes.

Only modules that compile with numba import this one (it imports numba). A change here does
not drop numba's cached code (``kernel/compile_once.py``'s ``drop_stale_cache`` reads the
compiled modules' own text), nor needs to: it changes how often a function is compiled, not
the code compiled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
from numba.core import types


def njit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(**options)``, whose dispatcher unliterals the argument types of calls from
    compiled code (see the module's text)."""

    def decorate(function: Callable[..., Any]) -> Any:
        dispatcher = numba.njit(**options)(function)
        call_template = dispatcher.get_call_template

        def plain_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
            plain = tuple(types.unliteral(arg) for arg in args)
            return call_template(plain, {k: types.unliteral(v) for k, v in kws.items()})

        # (an attribute of this dispatcher alone: numba's class, and others' code, unchanged)
        dispatcher.get_call_template = plain_call_template
        return dispatcher

    return decorate
