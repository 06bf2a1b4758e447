"""``sudoku-cp shrink`` and ``sudoku-cp minimize``: fewer givens and rules, a property kept.

``shrink`` keeps a failure (the backends disagree, a metamorphic check fails) and prints the
smallest reproducer it finds; ``minimize`` keeps a unique solution and writes a minimal puzzle.
Both are :mod:`sudoku_cp.shrink` on one puzzle.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from ..limits import MAX_SEED, MAX_TIME_LIMIT
from .app import (
    EXIT_NEGATIVE,
    EXIT_OK,
    EXIT_UNDECIDED,
    Seconds,
    box_option,
    main,
    model_option,
    path_value,
    refuse_above,
)

WRITE_FORMATS = ("line", "pretty", "fpuzzles")
DEFAULT_TIME_LIMIT = 60.0


def _calls_cap(ctx: click.Context, param: click.Parameter, value: int) -> int:
    from ..shrink import MAX_CALLS

    return refuse_above(value, MAX_CALLS)


def _common(func: Any) -> Any:
    """The options both commands take (applied bottom-up, so listed in reverse)."""
    decorators: list[Callable[[Any], Any]] = [
        click.argument("puzzle"),
        click.option(
            "-b",
            "--backends",
            "backend_list",
            default="auto",
            show_default=True,
            metavar="A,B,C",
            help="Backends that judge each smaller puzzle: names, 'all', or 'auto' (the two "
            "paradigms `check` chooses per puzzle).",
        ),
        model_option,
        box_option,
        click.option(
            "-t",
            "--time-limit",
            type=Seconds(min=0, min_open=True, max=MAX_TIME_LIMIT),
            default=DEFAULT_TIME_LIMIT,
            show_default=True,
            metavar="SECONDS",
            help="Per backend per smaller puzzle.",
        ),
        click.option(
            "-O",
            "--option",
            "option_pairs",
            multiple=True,
            metavar="BACKEND.KEY=VALUE",
            help="A backend option, e.g. -O backtrack.strategy=mrv (repeatable).",
        ),
        click.option(
            "--max-calls",
            type=click.IntRange(min=1),
            default=None,
            callback=_calls_cap,
            help="Stop after this many solver calls [default: 20,000; at most 1,000,000].",
        ),
        click.option(
            "-o",
            "--output",
            default=None,
            metavar="FILE",
            callback=path_value,
            help="Also write the puzzle found to FILE (in --format).",
        ),
        click.option(
            "-f",
            "--format",
            "out_format",
            type=click.Choice(WRITE_FORMATS),
            default="line",
            show_default=True,
            help="line: the single-line form, or the f-puzzles link when the puzzle has rules "
            "of its own; pretty: a grid; fpuzzles: f-puzzles JSON.",
        ),
        click.option("--input-format", default="auto", show_default=True, help="As for solve."),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _one_puzzle(text: str, model: str, box: str | None, input_format: str) -> Any:
    """The one puzzle ``text`` names (a file of several is refused: one clear line)."""
    from ..errors import InputError
    from ..formats import read_input
    from ..model import load_model

    records = read_input(text, model=load_model(model, box=box), fmt=input_format)
    first = next(iter(records), None)
    if first is None:
        raise InputError("PUZZLE holds no puzzle")
    if next(iter(records), None) is not None:
        raise InputError(
            "PUZZLE holds more than one puzzle; this command takes one "
            "(`sudoku-cp check FILE --shrink` shrinks each disagreement of a file)"
        )
    if first.puzzle is None:
        raise InputError(f"PUZZLE: {first.error}")
    return first.puzzle


def _harness(
    backend_list: str, time_limit: float, option_pairs: tuple[str, ...], calls: Any
) -> Any:
    from ..shrink import DEFAULT_CALLS, Harness
    from .batch import per_backend_options

    return Harness(
        backend_list,
        options=per_backend_options(option_pairs),
        time_limit=time_limit,
        max_calls=DEFAULT_CALLS if calls is None else calls,
    )


def _written(puzzle: Any, out_format: str) -> str:
    from ..formats.fpuzzles import fpuzzles_data, fpuzzles_json
    from ..formats.record_form import record_text
    from ..formats.writers import format_pretty

    if out_format == "pretty":
        return format_pretty(puzzle.cells, puzzle.size, puzzle.model)
    if out_format == "fpuzzles":
        return fpuzzles_json(fpuzzles_data(puzzle.cells, puzzle.size, puzzle.model))
    return record_text(puzzle.cells, puzzle.size, puzzle.model)


def _refuse_format(puzzle: Any, out_format: str) -> None:
    """Refuse a --format that cannot hold PUZZLE before the search, not after it (the search
    ran to the end, then the puzzle found was lost to an error): f-puzzles above 16x16, and a
    pretty grid for a puzzle with rules of its own (its cages, regions … were dropped, the
    grid printed was not the puzzle found). A smaller puzzle keeps a subset of its rules, so
    what holds PUZZLE holds it."""
    from ..errors import InputError

    if out_format == "pretty" and puzzle.model.own:
        raise InputError(
            "--format pretty writes the grid alone, and this puzzle has rules of its own "
            "(regions, cages …) that it would drop; use --format line, which keeps them, "
            "or --format fpuzzles"
        )
    if out_format == "fpuzzles":
        _written(puzzle, out_format)  # an error naming what f-puzzles cannot hold


def _refuse(output: str | None, puzzle: str, model: str) -> None:
    """Refuse an unusable -o before the search, not after it."""
    if output is not None:
        from ..outputs import model_file, refuse_output

        refuse_output(output, reads=(puzzle,), model_path=model_file(model))


def _emit(puzzle: Any, out_format: str, output: str | None, reads: tuple[str, str]) -> None:
    """Print the puzzle, and write it to ``output`` too — never over the puzzle's file or
    the model file (``reads``: the PUZZLE argument and the model)."""
    text = _written(puzzle, out_format)
    click.echo(text)
    if output is not None:
        from ..outputs import model_file, write_output

        write_output(output, text + "\n", reads=(reads[0],), model_path=model_file(reads[1]))


@main.command()
@_common
@click.option(
    "--metamorphic",
    type=click.IntRange(min=0, max=1000),
    default=0,
    metavar="K",
    help="Also cross-check K transforms of the puzzle (drawn once, by --seed, from the "
    "original), as `check --metamorphic` does: a failing one is kept failing.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=0,
    show_default=True,
    help="Chooses the transforms.",
)
def shrink(
    puzzle: str,
    backend_list: str,
    model: str,
    box: str | None,
    time_limit: float,
    option_pairs: tuple[str, ...],
    max_calls: int | None,
    output: str | None,
    out_format: str,
    input_format: str,
    metamorphic: int,
    seed: int,
) -> None:
    """Reduce PUZZLE, on which the backends disagree (or a --metamorphic check fails), to a
    small reproducer: givens and rules are removed while the disagreement persists (delta
    debugging, then one at a time until no single removal keeps it).

    Prints the reproducer on standard output (-o FILE writes it too), and on standard error
    what it took: givens and rules before and after, solver calls, the reason it still fails.
    Exit 0 a reproducer found, 1 the check does not fail on PUZZLE (nothing to shrink), 2 bad
    input or options.
    """
    from ..shrink import Disagrees
    from ..shrink import shrink as shrink_puzzle
    from ..transforms import transforms_for

    _refuse(output, puzzle, model)
    found_puzzle = _one_puzzle(puzzle, model, box, input_format)
    _refuse_format(found_puzzle, out_format)
    harness = _harness(backend_list, time_limit, option_pairs, max_calls)
    transforms = transforms_for(found_puzzle, metamorphic, seed) if metamorphic else ()
    found = shrink_puzzle(found_puzzle, Disagrees(harness, transforms), harness)
    if found is None:
        click.echo(
            f"sudoku-cp: the check does not fail on this puzzle (nothing to shrink; "
            f"{harness.calls} solver calls)",
            err=True,
        )
        sys.exit(EXIT_NEGATIVE)
    shrunk = found.puzzle
    _emit(shrunk, out_format, output, (puzzle, model))
    rules = len(shrunk.model.rules) + len(shrunk.model.cell_groups)
    before = len(found_puzzle.model.rules) + len(found_puzzle.model.cell_groups)
    click.echo(
        f"shrunk: {found_puzzle.givens_count} -> {shrunk.givens_count} givens"
        + (f", {before} -> {rules} rules" if before else "")
        + f" in {found.calls} solver calls ({found.checks} puzzles checked)"
        + ("" if found.minimal else "; the call budget ran out: not 1-minimal"),
        err=True,
    )
    click.echo(f"still fails: {found.record.reason}", err=True)
    sys.exit(EXIT_OK)


@main.command()
@_common
def minimize(
    puzzle: str,
    backend_list: str,
    model: str,
    box: str | None,
    time_limit: float,
    option_pairs: tuple[str, ...],
    max_calls: int | None,
    output: str | None,
    out_format: str,
    input_format: str,
) -> None:
    """List the givens (and rules) of the unique PUZZLE that can each be removed with the
    solution staying unique, and print a minimal puzzle: one from which no given or rule can
    be removed. Each removal is judged by the harness (by default two paradigms, each
    counting to 2).

    Standard error lists the removable parts and the solver calls; standard output (and -o
    FILE) has the minimal puzzle. Exit 0 a minimal puzzle, 1 PUZZLE is not unique, 2 bad input
    or options, 3 the backends disagreed, or some removal was undecided (the puzzle printed
    is unique but not proven minimal).
    """
    from ..shrink import MinimizeError, describe
    from ..shrink import minimize as minimize_puzzle

    _refuse(output, puzzle, model)
    found_puzzle = _one_puzzle(puzzle, model, box, input_format)
    _refuse_format(found_puzzle, out_format)
    harness = _harness(backend_list, time_limit, option_pairs, max_calls)
    try:
        found = minimize_puzzle(found_puzzle, harness=harness)
    except MinimizeError as err:
        click.echo(f"sudoku-cp: {err}", err=True)
        sys.exit(EXIT_UNDECIDED if err.verdict in ("disagreement", "undecided") else EXIT_NEGATIVE)
    removable = ", ".join(describe(p, found_puzzle) for p in found.removable) or "none"
    click.echo(f"removable alone ({len(found.removable)}): {removable}", err=True)
    if found.undecided:
        undecided = ", ".join(describe(p, found_puzzle) for p in found.undecided)
        why = "not judged: the budget ran out" if found.spent else "undecided within the time limit"
        click.echo(f"{why} (kept): {undecided}", err=True)
    _emit(found.puzzle, out_format, output, (puzzle, model))
    rules = len(found.puzzle.model.rules) + len(found.puzzle.model.cell_groups)
    click.echo(
        ("best reached" if found.spent else "minimal")
        + f": {found_puzzle.givens_count} -> {found.puzzle.givens_count} givens"
        + (f", {rules} rules" if rules else "")
        + f", unique; {found.calls} solver calls"
        + (
            f" — the budget of {harness.max_calls:,} solver calls ran out: unique, not proven "
            "minimal (raise --max-calls to go on)"
            if found.spent
            else ""
        ),
        err=True,
    )
    sys.exit(EXIT_OK if found.minimal else EXIT_UNDECIDED)
