"""What a bench measures: backend specs and datasets.

Vocabulary. A *spec* is one backend configuration under test (``backtrack:mrv``, ``cpsat``);
a *measurement* is one solve of one puzzle by one spec (one repeat); the *table* has one row per
measurement; the *record* (JSON, beside the table) says how the table was made, so that
``sudoku-cp bench --replay RECORD`` makes it again.

Spec syntax: ``NAME[:STRATEGY]``, comma-separated; ``NAME:all`` (or ``NAME:*``) means every
strategy of that backend (``backtrack:all``). A spec's label is ``NAME:STRATEGY`` for a backend
that has strategies (the default strategy filled in: ``backtrack`` is ``backtrack:fast``) and
``NAME`` otherwise. Other backend options: ``-O BACKEND.KEY=VALUE`` on the command line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..backends import Backend, backend_class, backend_names
from ..datasets import bundled_file, bundled_names
from ..errors import BackendError, InputError
from ..experiment import file_sha256
from ..model import Model
from ..puzzle import Puzzle

DEFAULT_SEED = 1
"""Seeds the order of specs within each puzzle and repeat (and the backends' own seeds)."""


# --- what is measured: specs and datasets --------------------------------------------------------
@dataclass(frozen=True)
class Spec:
    """One backend configuration under test: its label, backend name, strategy and options."""

    label: str
    backend: str
    strategy: str = ""
    options: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, dict[str, str]]:
    """``["cpsat.workers=1"]`` → ``{"cpsat": {"workers": "1"}}`` (backend names canonical).

    >>> parse_option_pairs(["cp-sat.workers=1"])
    {'cpsat': {'workers': '1'}}
    """
    options: dict[str, dict[str, str]] = {}
    for pair in pairs:
        target, sep, value = pair.partition("=")
        backend, dot, key = target.strip().partition(".")
        if not sep or not dot or not backend or not key.strip():
            raise BackendError(
                f"a bench option is BACKEND.KEY=VALUE (e.g. cpsat.workers=1), not {pair!r}"
            )
        name = backend_class(backend).name
        options.setdefault(name, {})[key.strip()] = value.strip()
    return options


def parse_specs(
    text: str | Sequence[str] | None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    seed: int | None = DEFAULT_SEED,
) -> list[Spec]:
    """The specs named by ``text`` (``"backtrack:naive,backtrack,cpsat"``), options checked.

    ``None`` or ``"all"`` means every available backend with its default options. A backend
    that declares a ``seed`` option gets ``seed`` unless the options set it, so a run can be
    made again.

    >>> [s.label for s in parse_specs("backtrack:naive,cpsat")]
    ['backtrack:naive', 'cpsat']
    """
    options = options or {}
    if text is None:
        words = [name for name in backend_names() if backend_class(name).available()]
    else:
        items = [text] if isinstance(text, str) else list(text)
        words = [w.strip() for item in items for w in item.split(",") if w.strip()]
    if [w.lower() for w in words] == ["all"]:
        words = [name for name in backend_names() if backend_class(name).available()]
    if not words:
        raise BackendError("no backend to measure (give --backends NAME[:STRATEGY],…)")
    specs: list[Spec] = []
    for word in words:
        name, _, strategy = word.partition(":")
        cls = backend_class(name.strip())
        reason = cls.unavailable_reason()
        if reason:
            raise BackendError(reason)
        choices = _strategy_choices(cls)
        strategy = strategy.strip()
        if strategy and choices is None:
            raise BackendError(f"backend '{cls.name}' has no strategies (in spec {word!r})")
        wanted = list(choices or ()) if strategy in ("*", "all") else [strategy or None]
        for one in wanted:
            specs.append(_make_spec(cls, one, options.get(cls.name, {}), seed))
    labels = [s.label for s in specs]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise BackendError(f"backend spec named twice: {', '.join(repeated)}")
    return specs


def _strategy_choices(cls: type[Backend]) -> tuple[Any, ...] | None:
    """The strategies a backend offers (its ``strategy`` option's choices), None if it has none."""
    for opt in cls.options:
        if opt.name == "strategy":
            return opt.choices or (opt.default,)
    return None


def _make_spec(
    cls: type[Backend], strategy: str | None, given: Mapping[str, Any], seed: int | None
) -> Spec:
    wanted = dict(given)
    if strategy is not None:
        wanted["strategy"] = strategy
    if seed is not None and "seed" not in wanted and any(o.name == "seed" for o in cls.options):
        wanted["seed"] = seed
    settings = cls().check_options(wanted)  # every option, defaults filled in, or BackendError
    has_strategy = "strategy" in settings
    label = f"{cls.name}:{settings['strategy']}" if has_strategy else cls.name
    return Spec(
        label, cls.name, str(settings.get("strategy", "")) if has_strategy else "", settings
    )


def find_spec(specs: Sequence[Spec], text: str) -> Spec:
    """The spec among ``specs`` that ``text`` names (``backtrack`` = its default strategy)."""
    for spec in specs:
        if spec.label == text:
            return spec
    wanted = parse_specs(text, {s.backend: s.options for s in specs}, seed=None)[0].label
    for spec in specs:
        if spec.label == wanted:
            return spec
    raise BackendError(
        f"baseline {text!r} is not among the measured backends "
        f"({', '.join(s.label for s in specs)})"
    )


@dataclass(frozen=True)
class Dataset:
    """A puzzle file under test: its name in the table, where it is, how it was found, its hash."""

    name: str
    path: Path
    source: str
    sha256: str


def resolve_datasets(names: Sequence[str]) -> list[Dataset]:
    """Each name as a puzzle file (when such a file exists) or a bundled set.

    >>> resolve_datasets(["easy"])[0].source
    'bundled'
    """
    if not names:
        raise InputError("no dataset given (name a puzzle file or a bundled set; see --list)")
    datasets: list[Dataset] = []
    taken: set[str] = set()
    for name in names:
        path = Path(name)
        bundled = bundled_file(name)
        if os.path.isfile(path):
            label, source = path.stem, "file"
        elif bundled is not None:
            path, label, source = bundled, name, "bundled"
        elif os.path.exists(path):
            raise InputError(f"dataset {name!r} is not a file")
        else:
            raise InputError(
                f"no puzzle file or bundled set named {name!r} "
                f"(bundled sets: {', '.join(bundled_names())})"
            )
        base, number = label, 2
        while label in taken:  # two files with the same stem keep distinct names
            label, number = f"{base}-{number}", number + 1
        taken.add(label)
        datasets.append(Dataset(label, path.resolve(), source, file_sha256(path)))
    return datasets


@dataclass(frozen=True)
class Entry:
    """One puzzle of a dataset as the bench uses it; ``expected`` is the file's known answer
    (``solution`` and/or ``solution_count``, as :class:`~sudoku_cp.formats.PuzzleRecord` has it)."""

    id: str
    puzzle: Puzzle
    expected: dict[str, Any] = field(default_factory=dict)


def load_dataset(
    dataset: Dataset, model: Model, fmt: str = "auto"
) -> tuple[list[Entry], list[dict[str, Any]]]:
    """The puzzles of ``dataset``, and the lines that are not puzzles (id, line, reason).

    Each puzzle's id is unique in its dataset: the table's rows are told apart by it (the
    summary, the figures and a replay group measurements by dataset and id), so an id the
    file gives twice (a CSV ``id`` or ``name`` column, a blank one read as the position) is
    kept for the first puzzle and numbered for the next ones, as two datasets' names are:
    ``easy``, ``easy-2`` … (six puzzles named alike were one puzzle measured six times).
    """
    from ..formats import read_puzzles

    entries: list[Entry] = []
    rejected: list[dict[str, Any]] = []
    taken: set[str] = set()
    for record in read_puzzles(str(dataset.path), model, fmt):
        if record.puzzle is None:
            rejected.append({"id": str(record.id), "line": record.line, "error": record.error})
        else:
            label = base = str(record.id)
            number = 2
            while label in taken:
                label, number = f"{base}-{number}", number + 1
            taken.add(label)
            entries.append(Entry(label, record.puzzle, record.expected))
    return entries, rejected
