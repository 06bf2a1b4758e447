"""What a batch is made of: its settings (:class:`CheckConfig`, and :class:`BatchOptions` for
the command line's) and its items, one a puzzle.

An item is one input on its way through the batch: its place in the input (``index``, ``id``,
``line``, ``source``), the puzzle — or the line still to parse, which a worker parses — and what
the pool has learnt about it on earlier tries (``known`` runs, ``crashes``, ``attempts``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import SudokuError
from ..experiment import usable_cores
from ..formats import PendingRecord, PuzzleRecord, parse_pending
from ..harness import DEFAULT_LIMIT, check_backend_options, check_metamorphic, resolve_backends
from ..harness import MAX_METAMORPHIC as MAX_METAMORPHIC  # (read there by the CLI)
from ..model import Model, load_model
from ..puzzle import Puzzle
from ..result import pickled_by_fields
from ..verdict import BackendRun


class ResumeError(SudokuError):
    """``--resume`` cannot continue this output file (other options or inputs, no file format)."""


def default_jobs() -> int:
    """Every core this process may use."""
    return usable_cores()


CERTIFY_TIME_LIMIT = 60.0
"""Seconds one certificate may take by default (a 25x25 takes 10-25 s, a 9x9 well under 1 s)."""


@dataclass(frozen=True)
class CheckConfig:
    """What every puzzle of a batch is checked with (sent once to each worker)."""

    backends: tuple[str, ...]
    limit: int | None = DEFAULT_LIMIT
    time_limit: float | None = None
    model: Model = field(default_factory=lambda: load_model("classic"))
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    metamorphic: int = 0
    """Random transforms of each puzzle to cross-check as well (``check --metamorphic K``)."""
    seed: int = 0
    """Chooses those transforms, reproducibly."""
    auto: bool = False
    """Each puzzle is judged by the two backends :mod:`sudoku_cp.choice` picks for it, among
    ``backends`` (every available one); False: by every one of ``backends``."""
    certify: str | None = None
    """The folder for each verdict's certificate (``check --certify DIR``), None: none."""
    shrink: bool = False
    """Shrink each disagreement to a small reproducer (``check --shrink``)."""
    rate: str | None = None
    """The scale each unique puzzle is rated on (``check --rate --scale``: "hodoku" or "se",
    :mod:`sudoku_cp.logic.scales`); None: not rated."""
    certify_time_limit: float | None = CERTIFY_TIME_LIMIT
    """Seconds one certificate may take, proof and check (``--certify-time-limit``); None:
    no limit."""

    @classmethod
    def make(
        cls,
        backends: Iterable[str] | str | None = None,
        *,
        limit: int | None = DEFAULT_LIMIT,
        time_limit: float | None = None,
        model: Model | str = "classic",
        options: Mapping[str, Mapping[str, Any]] | None = None,
        metamorphic: int = 0,
        seed: int = 0,
        certify: str | None = None,
        shrink: bool = False,
        certify_time_limit: float | None = CERTIFY_TIME_LIMIT,
        rate: bool | str = False,
    ) -> CheckConfig:
        """Check and complete every setting up front, so bad ones fail before any work.

        ``backends``: names (a list or ``"a,b"``); None or ``"auto"`` for the default choice
        per puzzle (:mod:`sudoku_cp.choice`); ``"all"`` for every available backend.
        ``rate``: a scale's name (:data:`~sudoku_cp.logic.scales.SCALES`), True for the
        default one, False for none.
        """
        from ..backends import check_limits
        from ..choice import ALL, AUTO

        check_limits(limit, time_limit)
        check_limits(None, certify_time_limit)
        scale = _rating_scale(rate)
        check_metamorphic(metamorphic)
        if certify is not None:
            from ..certify.batch import prepare_folder

            certify = prepare_folder(certify)
        word = backends.strip().lower() if isinstance(backends, str) else None
        auto = backends is None or word == AUTO
        names = resolve_backends(None if auto or word == ALL else backends)
        return cls(
            auto=auto,
            backends=tuple(names),
            limit=limit,
            time_limit=None if time_limit is None else float(time_limit),
            model=load_model(model),
            options=check_backend_options(names, options),
            metamorphic=metamorphic,
            seed=seed,
            certify=certify,
            shrink=bool(shrink),
            certify_time_limit=certify_time_limit,
            rate=scale,
        )


def _rating_scale(rate: bool | str | None) -> str | None:
    """``CheckConfig.make``'s ``rate`` as a scale's name, or None (a bad name: one line)."""
    from ..logic.scales import DEFAULT_SCALE, SCALES

    if rate is None or rate is False:
        return None
    if rate is True:
        return DEFAULT_SCALE
    if rate not in SCALES:
        raise SudokuError(f"rate: no scale {rate!r} (choose from: {', '.join(SCALES)})")
    return str(rate)


@dataclass
class BatchOptions:
    """Everything ``sudoku-cp check`` / ``count`` decide before the batch starts."""

    inputs: Sequence[str]
    config: CheckConfig
    jobs: int
    fmt: str = "table"
    output: Path | None = None
    resume: bool = False
    progress: bool = False
    input_format: str = "auto"
    command: str = "check"
    argv: Sequence[str] = ()
    in_order: bool = False
    """Write records in input order (``count`` to standard output), not as they finish."""
    scheduler: str | None = None
    """A Dask scheduler (``tcp://HOST:PORT`` or ``local:N``) to run on instead of ``jobs``."""


@pickled_by_fields
@dataclass(slots=True)
class Item:
    """One puzzle on its way through the batch (``puzzle`` is None for an invalid input)."""

    index: int
    id: str
    line: int | None
    source: str | None
    text: str
    puzzle: Puzzle | None  # travels to the worker as is: unpickling skips the checks
    error: str | None = None
    known: dict[str, BackendRun] | None = None
    crashes: Counter | None = None
    attempts: int = 0
    pending: PendingRecord | None = None  # a line still to parse (in the worker)
    stated_count: object = None  # the solution count the input states (solution_count)


def resolve(items: Sequence[Item]) -> None:
    """Parse the items' pending lines, wherever the items now are (a worker, as a rule), all
    together (:func:`formats.parse_pending` checks their givens at once)."""
    waiting = [item for item in items if item.pending is not None]
    if not waiting:
        return
    records = parse_pending([item.pending for item in waiting])  # type: ignore[misc]
    for item, record in zip(waiting, records, strict=True):
        item.pending = None
        _take_record(item, record)


def _take_record(item: Item, record: PuzzleRecord) -> None:
    """Fill ``item`` from a formats record: the one rule for its id, line, text and error."""
    item.id = str(record.id if record.id is not None else item.index)
    item.line = getattr(record, "line", None)
    item.puzzle = record.puzzle
    item.stated_count = (getattr(record, "expected", None) or {}).get("solution_count")
    if record.puzzle is None:
        item.text = getattr(record, "text", "") or ""
        item.error = record.error or "not a puzzle"
    else:
        item.text, item.error = "", None


def items_from(
    puzzles: Iterable[Any], model: Model, skip: Callable[[int], bool] | None
) -> Iterator[Item]:
    for index, entry in enumerate(puzzles, start=1):
        if skip is not None and skip(index):
            continue
        yield make_item(entry, index, model)


def make_item(entry: Any, index: int, model: Model, source: str | None = None) -> Item:
    """Whatever the caller gave, as an item: a Puzzle, text, a grid or a formats record."""
    if isinstance(entry, PendingRecord):  # a line of a file, the usual case: fields in order
        return Item(index, str(index), entry.line, source, "", None, None, None, None, 0, entry)
    if hasattr(entry, "puzzle") and hasattr(entry, "error"):  # a formats.PuzzleRecord
        item = Item(index, "", None, source, "", None)
        _take_record(item, entry)
        return item
    if isinstance(entry, Puzzle):
        return Item(index, str(index), None, source, "", entry)
    try:
        puzzle = (
            Puzzle.parse(entry, model=model) if isinstance(entry, str) else Puzzle(entry, model)
        )
    except SudokuError as err:
        return Item(index, str(index), None, source, str(entry), None, str(err))
    return Item(index, str(index), None, source, "", puzzle)
