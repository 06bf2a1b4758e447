"""Backends: one module per solving paradigm, all behind one interface, found by name.

Every backend is a subclass of :class:`Backend`. It compiles the puzzle's model (one variable
per cell, one all-different constraint per group) into its paradigm and reads solutions back;
the base class checks the arguments, asks ``supports`` whether the backend can take the puzzle
at all (before any search), times the call and turns what the search saw into a
:class:`~sudoku_cp.result.Result` by one shared rule, so every backend reports the same way.
Each backend declares its options (:class:`Option`) and its counters (:class:`Counter`, with a
kind: search size, dead ends or other). ``template.py`` is a short working backend to copy.

>>> from sudoku_cp import Puzzle
>>> result = get_backend("backtrack").solve(Puzzle([0] * 16), limit=None)
>>> result.status.value, result.count, result.exact
('multiple', 288, True)
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from ..errors import BackendError
from ..puzzle import Grid, Puzzle
from ..result import Result, status_for


@dataclass(frozen=True)
class Option:
    """One option a backend takes: its name, type, default, help and allowed values."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def convert(self, value: Any, backend: str) -> Any:
        """``value`` (from Python or command-line text) as this option's type, or BackendError."""
        where = f"option '{self.name}' of backend '{backend}'"
        if isinstance(value, str) and self.type is not str:
            text = value.strip().lower()
            try:
                if self.type is bool:
                    if text not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                        raise ValueError
                    value = text in ("1", "true", "yes", "on")
                else:
                    value = self.type(text)
            except ValueError:
                raise BackendError(f"{where} takes a {self.type.__name__}, not {value!r}") from None
        if self.type is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, self.type) or (self.type is int and isinstance(value, bool)):
            raise BackendError(f"{where} takes a {self.type.__name__}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise BackendError(
                f"{where}: unknown value {value!r} (choose from: "
                f"{', '.join(str(c) for c in self.choices)})"
            )
        number = cast(float, value)  # a minimum or maximum is given only for numbers
        if self.minimum is not None and number < self.minimum:
            raise BackendError(f"{where} must be at least {self.minimum}, not {value!r}")
        if self.maximum is not None and number > self.maximum:
            raise BackendError(f"{where} must be at most {self.maximum}, not {value!r}")
        return value


COUNTER_KINDS = {
    "size": "how big the search was, in the paradigm's own unit (nodes, branches, decisions …)",
    "dead-end": "how often the search hit a dead end (backtracks, conflicts …)",
    "other": "anything else: the size of the compiled problem, time spent in a phase …",
}
"""The kinds of counter, each with what it means. A bench summary shows the mean of each
backend's *size* counter ("mean search size") and of its *dead-end* counter ("mean dead
ends"); the result table keeps every counter whatever its kind."""


@dataclass(frozen=True)
class Counter:
    """One counter a backend reports in ``Result.stats``: what it counts, and its kind.

    >>> nodes = Counter("assignments tried", "size")
    >>> nodes.kind, nodes.description
    ('size', 'assignments tried')
    >>> Counter("rows tried", "sizes")
    Traceback (most recent call last):
    ...
    ValueError: counter kind 'sizes' is not one of: size, dead-end, other
    """

    description: str
    kind: str = "other"
    timing: bool = False
    """A time measured (``encode_seconds``): it varies run to run, so ``bench --replay`` does
    not compare it."""

    def __post_init__(self) -> None:
        if self.kind not in COUNTER_KINDS:
            raise ValueError(
                f"counter kind {self.kind!r} is not one of: {', '.join(COUNTER_KINDS)}"
            )


@dataclass
class Search:
    """What a backend's search saw: the solutions in order found, and how it ended."""

    solutions: list[Grid] = field(default_factory=list)
    exhausted: bool = False
    timed_out: bool = False
    stats: dict[str, float | int] = field(default_factory=dict)


class Backend:
    """Base class of every backend. Subclasses set the class attributes and write ``search``.

    ``requires`` names the module to import and the PyPI distribution of an optional library.
    It is imported only when the backend is first asked whether it is available — by ``solve``,
    before its clock starts, so a slow first import (CP-SAT's pulls in numpy) is never charged
    to a puzzle's time — and a missing library disables this backend alone.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    requires: ClassVar[tuple[str, str] | None] = None
    options: ClassVar[tuple[Option, ...]] = ()
    counters: ClassVar[Mapping[str, Counter]] = {}
    """Every counter the search may report in ``Result.stats``, by name, in a fixed order."""
    complete: ClassVar[bool] = True
    """False for a backend that may stop without an answer (``undecided``: the ``logic``
    backend, which deduces and never guesses); every other backend decides every puzzle it
    has time for."""
    rules: ClassVar[frozenset[str]] = frozenset()
    """The keys of the rules (:mod:`sudoku_cp.rules`) this backend compiles. Groups need no
    key: every backend compiles them. A puzzle with any other rule is refused, naming it."""
    batch_options: ClassVar[Mapping[str, Any]] = {}
    """Options a ``check`` or ``count`` worker passes unless the user sets them: what pays
    only over many puzzles in one process (sat keeps one solver across puzzles). A single
    ``solve`` keeps the declared defaults, whose answers and counters do not depend on what
    the process solved before."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A backend written before counters had kinds declares descriptions alone: each
        # becomes a counter of kind "other", so it still runs and is listed.
        declared = cls.__dict__.get("counters")
        if declared and not all(isinstance(c, Counter) for c in declared.values()):
            cls.counters = {
                name: c if isinstance(c, Counter) else Counter(str(c))
                for name, c in declared.items()
            }

    # --- description -----------------------------------------------------------------------
    @classmethod
    def unavailable_reason(cls) -> str | None:
        """None when the backend can run; else one line saying how to make it available."""
        if cls.requires is None:
            return None
        module, distribution = cls.requires
        try:
            importlib.import_module(module)
        except ImportError as err:
            return (
                f"backend '{cls.name}' needs the '{distribution}' package "
                f"({err}); install it with: pip install {distribution}"
            )
        return None

    @classmethod
    def available(cls) -> bool:
        return cls.unavailable_reason() is None

    @classmethod
    def version(cls) -> str | None:
        """The version of the library the backend wraps (None for pure-Python backends)."""
        if cls.requires is None:
            return None
        # Imported here: it costs ~25 ms, a fifth of the package's import, and only reports
        # (sudoku-cp backends, experiment records) ask for versions.
        from importlib import metadata

        try:
            return metadata.version(cls.requires[1])
        except metadata.PackageNotFoundError:
            return None

    @classmethod
    def notes(cls) -> list[str]:
        """More lines for ``sudoku-cp backends`` (an optional compiled part in use or not …)."""
        return []

    @classmethod
    def prepare(cls) -> str | None:
        """Load, once per process, what the backend would otherwise load on its first solve
        (compiled code): a worker calls it when it starts, outside any time limit. A line to
        report, once, when it compiled something here (as :meth:`prepare_size`), else None."""
        return None

    @classmethod
    def prepare_size(cls, size: int, settings: Mapping[str, Any]) -> str | None:
        """Load what the backend compiles for grids of ``size`` under ``settings`` (its options,
        checked), asked before a batch's first such puzzle is timed, so compiling never counts
        against a time limit; a line to report, once, when it compiled something, else None."""
        return None

    @classmethod
    def counters_of_kind(cls, kind: str) -> list[str]:
        """The names of this backend's counters of ``kind``, in the order declared."""
        return [name for name, counter in cls.counters.items() if counter.kind == kind]

    def supports(self, puzzle: Puzzle) -> str | None:
        """None when this backend can search ``puzzle``; else one line, naming the backend,
        saying which of the puzzle's rules or what of its size it cannot take. Asked before any
        search: the harness records such a backend ``unsupported`` (it does not vote) and
        ``solve`` refuses the puzzle with BackendError. Only for a real inability — a puzzle
        that is merely slow for this backend is supported."""
        return None

    def refusal(self, puzzle: Puzzle) -> str | None:
        """Why this backend cannot search ``puzzle`` — a rule it does not compile, or what
        :meth:`supports` says — or None. The one question the harness and ``solve`` ask.

        >>> from sudoku_cp.model import load_model
        >>> from sudoku_cp.rules import AntiKnight
        >>> knights = Puzzle([0] * 16, load_model("latin").with_rules(rules=[AntiKnight()], size=4))
        >>> print(get_backend("dlx").refusal(knights))  # doctest: +ELLIPSIS
        backend 'dlx' does not compile the anti-knight rule (antiknight)...
        """
        if not puzzle.model.rules:  # groups only: every backend compiles them
            return self.supports(puzzle)
        missing = puzzle.model.rule_keys - self.rules
        if missing:
            rule = next(r for r in puzzle.model.rules if r.key in missing)
            able = [
                name
                for name in backend_names()
                if missing <= backend_class(name).rules and name != self.name
            ]
            others = f"; backends that do: {', '.join(able)}" if able else ""
            return (
                f"backend '{self.name}' does not compile the {rule.title} rule ({rule.key}){others}"
            )
        return self.supports(puzzle)

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Every option with its default filled in; an unknown or ill-typed one is an error."""
        if not options:  # (the usual call, made per puzzle: no set of names to compare)
            return {opt.name: opt.default for opt in self.options}
        known = {opt.name: opt for opt in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            takes = ", ".join(known) or "no options"
            raise BackendError(
                f"backend '{self.name}' has no option {', '.join(repr(u) for u in unknown)} "
                f"(it takes: {takes})"
            )
        return {
            name: opt.convert(options[name], self.name) if name in options else opt.default
            for name, opt in known.items()
        }

    # --- solving ---------------------------------------------------------------------------
    def solve(
        self,
        puzzle: Puzzle,
        *,
        limit: int | None = 1,
        time_limit: float | None = None,
        **options: Any,
    ) -> Result:
        """Up to ``limit`` solutions of ``puzzle`` (None = all), within ``time_limit`` seconds."""
        check_limits(limit, time_limit)
        settings = self.check_options(options)
        reason = self.unavailable_reason() or self.refusal(puzzle)
        if reason:
            raise BackendError(reason)
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        # Every solution found is kept (for the validator): at most solution_cap's worth of
        # cells, whatever was asked, so memory stays bounded at every size ("at least" above).
        cap = solution_cap(puzzle.size)
        kept = cap if limit is None or limit > cap else limit
        search = self.search(puzzle, kept, deadline, settings)
        seconds = time.perf_counter() - start
        solutions = search.solutions[:kept]
        if kept != limit and len(solutions) >= kept:
            search.exhausted = False  # stopped at the cap: the count is a lower bound
        status = status_for(len(solutions), limit, search.exhausted, search.timed_out)
        return Result.made(
            backend=self.name,
            status=status,
            solutions=tuple(map(tuple, solutions)),
            exact=search.exhausted and not search.timed_out,
            seconds=seconds,
            stats=dict(search.stats),
            options=settings,
            limit=limit,
        )

    def search(
        self, puzzle: Puzzle, limit: int | None, deadline: float | None, options: dict[str, Any]
    ) -> Search:
        """Find up to ``limit`` solutions before ``deadline`` (a ``time.perf_counter()`` value)."""
        raise NotImplementedError


from ..limits import MAX_LIMIT as MAX_LIMIT  # noqa: E402  (defined where the CLI reads it)
from ..limits import MAX_TIME_LIMIT as MAX_TIME_LIMIT  # noqa: E402
from ..limits import solution_cap  # noqa: E402


def check_limits(limit: int | None, time_limit: float | None) -> None:
    """Raise BackendError for a limit or time limit that makes no sense or is above its cap."""
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT
    ):
        raise BackendError(
            f"limit must be a whole number from 1 to {MAX_LIMIT:,} (or None for all), not {limit!r}"
        )
    number = isinstance(time_limit, int | float) and not isinstance(time_limit, bool)
    if time_limit is not None and (not number or not 0 < time_limit <= MAX_TIME_LIMIT):
        raise BackendError(
            f"time limit must be a positive number of seconds, at most {MAX_TIME_LIMIT:,.0f}, "
            f"not {time_limit!r}"
        )


# --- the registry ----------------------------------------------------------------------------
_BUILTIN = {
    "backtrack": "sudoku_cp.backends.backtrack:BacktrackBackend",
    "cpsat": "sudoku_cp.backends.cpsat:CPSATBackend",
    "constraint": "sudoku_cp.backends.python_constraint:ConstraintBackend",
    "sat": "sudoku_cp.backends.sat:SATBackend",
    "dlx": "sudoku_cp.backends.dlx:DLXBackend",
    "logic": "sudoku_cp.backends.logic:LogicBackend",
    "minizinc": "sudoku_cp.backends.minizinc:MiniZincBackend",
}
_ALIASES = {
    "bt": "backtrack",
    "backtracking": "backtrack",
    "cp-sat": "cpsat",
    "ortools": "cpsat",
    "python-constraint": "constraint",
    "csp": "constraint",
    "pysat": "sat",
    "dancing-links": "dlx",
    "exact-cover": "dlx",
    "human": "logic",
    "mzn": "minizinc",
}
_registered: dict[str, type[Backend]] = {}


def register(backend: type[Backend], *, replace: bool = False) -> type[Backend]:
    """Add a backend class under its ``name`` (usable as a decorator); names are unique."""
    name = getattr(backend, "name", None)
    if not isinstance(name, str) or not name:
        raise BackendError("a backend class needs a non-empty 'name'")
    if not replace and (name in _registered or name in _BUILTIN):
        raise BackendError(f"a backend named '{name}' is already registered")
    _registered[name] = backend
    return backend


def is_builtin(name: str) -> bool:
    """Whether ``name`` (a canonical name) is a backend this package brings, not one added
    with :func:`register` (a cluster's workers import those by their own module)."""
    return name in _BUILTIN


def unregister(name: str) -> None:
    """Remove a backend added with :func:`register` (built-in backends stay)."""
    _registered.pop(name, None)


def backend_names() -> list[str]:
    """Every backend name: the built-in ones first, in a fixed order, then registered ones."""
    return list(_BUILTIN) + [n for n in _registered if n not in _BUILTIN]


def backend_class(name: str) -> type[Backend]:
    """The class registered under ``name`` (or one of its aliases)."""
    key = _ALIASES.get(name.lower(), name.lower()) if isinstance(name, str) else name
    if key in _registered:
        return _registered[key]
    if key in _BUILTIN:
        module, _, attr = _BUILTIN[key].partition(":")
        cls = getattr(importlib.import_module(module), attr)
        _registered[key] = cls
        return cls
    head = re.split(r"[:.=]", str(name), maxsplit=1)[0]
    if head != name and _ALIASES.get(head.lower(), head.lower()) in {*_BUILTIN, *_registered}:
        # (backtrack:naive, backtrack.strategy=naive: an option written into the name)
        raise BackendError(
            f"unknown backend {name!r}: a backend's options are given apart from its name "
            f"(on the command line -O {head}.KEY=VALUE, e.g. -O backtrack.strategy=naive; "
            "'sudoku-cp backends' lists each backend's options)"
        )
    raise BackendError(f"unknown backend {name!r} (known backends: {', '.join(backend_names())})")


def get_backend(name: str) -> Backend:
    """A ready-to-use instance of the backend called ``name``."""
    return backend_class(name)()


def available_backends(names: Iterable[str] | None = None) -> list[str]:
    """The names (of ``names``, default every backend) whose libraries are installed."""
    return [n for n in (names or backend_names()) if _installed(backend_class(n))]


def _installed(cls: type[Backend]) -> bool:
    """Whether ``cls`` can run, asked without importing its library where finding it is all
    :meth:`Backend.unavailable_reason` would learn (``importlib.util.find_spec`` of its top
    package): choosing the backends of a batch then imports none it will not call — OR-Tools'
    import, which brings pandas, was 1.2 s of a one-puzzle ``count`` that never ran CP-SAT. A
    library found that fails to import still says so, when the backend is first called."""
    if cls.unavailable_reason.__func__ is not Backend.unavailable_reason.__func__:  # type: ignore[attr-defined]
        return cls.available()  # a check of its own (the minizinc executable …)
    if cls.requires is None:
        return True
    import importlib.util

    return importlib.util.find_spec(cls.requires[0].partition(".")[0]) is not None


def timing_counters(names: Iterable[str] | None = None) -> frozenset[str]:
    """The counters the backends (``names``, default all) declare as timings.

    >>> sorted(timing_counters(["sat"]))
    ['encode_seconds', 'solve_seconds']
    """
    return frozenset(
        counter
        for name in names or backend_names()
        for counter, declared in backend_class(name).counters.items()
        if declared.timing
    )


def counter_kinds(names: Iterable[str] | None = None) -> dict[str, str]:
    """Every counter name the backends (``names``, default all) declare, with its kind.

    In the backends' order, then each one's declared order. A name means one thing across
    backends (the contract tests check it); should two disagree, the first one declared wins.

    >>> kinds = counter_kinds()
    >>> kinds["nodes"], kinds["conflicts"], kinds["build_seconds"]
    ('size', 'dead-end', 'other')
    """
    kinds: dict[str, str] = {}
    for name in names or backend_names():
        for counter, declared in backend_class(name).counters.items():
            kinds.setdefault(counter, declared.kind)
    return kinds
