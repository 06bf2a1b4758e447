"""``sudoku-cp solve``: one backend on one puzzle or a file of them."""

from __future__ import annotations

import itertools
import sys
from typing import Any

import click

from ..limits import MAX_LIMIT, MAX_TIME_LIMIT
from .app import (
    EXIT_NEGATIVE,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_USAGE,
    OUTPUT_FORMATS,
    Seconds,
    all_cut_short,
    backend_options,
    box_option,
    main,
    model_option,
    one_line,
    one_state_puzzle,
    puzzle_state,
    resolve_limit,
    state_option,
)


# --- solve -----------------------------------------------------------------------------------
@main.command()
@click.argument("puzzle")
@click.option(
    "-b",
    "--backend",
    default="backtrack",
    show_default=True,
    help="Which backend solves (see `sudoku-cp backends`).",
)
@click.option(
    "-s",
    "--strategy",
    default=None,
    help="Search strategy, for backends that have them (backtrack: fast, naive, ordered, mrv).",
)
@click.option(
    "-O",
    "--option",
    "option_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="A backend option, e.g. -O workers=2 for cpsat (repeatable).",
)
@model_option
@box_option
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=1, max=MAX_LIMIT),
    default=None,
    help=f"Stop after this many solutions [default: 1; at most {MAX_LIMIT:,}].",
)
@click.option(
    "-a",
    "--all",
    "count_all",
    is_flag=True,
    help=f"Find every solution, up to {MAX_LIMIT:,} (more: exit 3, the count is 'at least'); "
    "above 16x16 up to 8,100,000 cells of solutions (25x25: 12,960).",
)
@click.option(
    "-t",
    "--time-limit",
    type=Seconds(min=0, min_open=True, max=MAX_TIME_LIMIT),
    default=None,
    metavar="SECONDS",
    help="Give up after this many seconds per puzzle (status timeout).",
)
@click.option(
    "-f",
    "--format",
    "out_format",
    type=click.Choice(OUTPUT_FORMATS),
    default="pretty",
    show_default=True,
    help="How to print solutions: boxed grid, one line each, JSON, fpuzzles (the puzzle "
    "with its rules and the solution found as one line of f-puzzles JSON, then its "
    "https://f-puzzles.com/?load=… link, to open it in f-puzzles or SudokuPad), sudokupad "
    "(the same as a https://sudokupad.app/fpuzzles… link, SudokuPad's f-puzzles import), or "
    "iss (the puzzle as an Interactive Sudoku Solver constraint string, then each solution).",
)
@click.option(
    "--input-format",
    default="auto",
    show_default=True,
    help="How to read the input: auto, line, grid, rows, json, jsonl, csv, iss, candidates "
    "(auto also reads f-puzzles JSON and links, ISS constraint strings, 729-symbol candidate "
    "grids, regions/variant columns and killer cages).",
)
@click.option("--stats", is_flag=True, help="Also print the backend's counters.")
@state_option
def solve(
    puzzle: str,
    backend: str,
    strategy: str | None,
    option_pairs: tuple[str, ...],
    model: str,
    box: str | None,
    limit: int | None,
    count_all: bool,
    time_limit: float | None,
    out_format: str,
    input_format: str,
    stats: bool,
    state: str | None,
) -> None:
    """Solve PUZZLE (text, an f-puzzles, SudokuPad or ISS link, a file, or - for standard input)
    and print the solution(s).

    With --format line each solution is one line of N*N symbols on standard output and the
    status goes to standard error, so scripts can count and compare solutions (--format iss
    prints the puzzle as an ISS constraint string first). Exit 0 when
    every puzzle has a solution, 1 when some has none, 2 for unusable input or options,
    3 when a time limit ran out first or when a puzzle's published solution (an f-puzzles
    'solution') contradicts the answer: the status line then says DISAGREEMENT and why.
    """
    from ..backends import get_backend
    from ..formats import read_input
    from ..model import load_model
    from ..published import conflicts, published_status

    limit = resolve_limit(limit, count_all, default=1)
    rule_set = load_model(model, box=box)
    options = backend_options(backend, strategy, option_pairs)
    solver = get_backend(backend)
    worst = EXIT_OK
    records = read_input(puzzle, model=rule_set, fmt=input_format)
    if state is not None:  # a state is one puzzle's: refused before any output
        records = iter(_with_state(list(itertools.islice(records, 2)), state))
    for record in records:
        if record.puzzle is None:
            click.echo(
                f"sudoku-cp: error: puzzle {_shown(record)}: {one_line(str(record.error))}",
                err=True,
            )
            worst = max(worst, EXIT_USAGE)
            continue
        result = solver.solve(record.puzzle, limit=limit, time_limit=time_limit, **options)
        published = published_status(record.puzzle, result.solutions)
        _print_result(record, result, out_format, stats, published)
        if conflicts(published, result.status.value):
            worst = max(worst, EXIT_UNDECIDED)  # the puzzle as read is not the setter's
        elif result.status.value == "none":
            worst = max(worst, EXIT_NEGATIVE)
        elif result.count == 0 or all_cut_short(
            count_all, result.count, result.exact, record.puzzle.size
        ):
            worst = max(worst, EXIT_UNDECIDED)
    sys.exit(worst)


def _with_state(records: list[Any], state: str) -> list[Any]:
    """The one record, its puzzle narrowed by ``--state`` (placed digits as givens, marks
    as given candidates: :func:`~sudoku_cp.formats.state.state_puzzle`)."""
    import dataclasses

    from ..formats.state import state_puzzle

    one_state_puzzle(len(records), state, "solve")
    out = []
    for record in records:
        position = puzzle_state(record.puzzle, state) if record.puzzle is not None else None
        if position is not None:
            record = dataclasses.replace(record, puzzle=state_puzzle(record.puzzle, position))
        out.append(record)
    return out


def _shown(record: Any) -> str:
    from ..result import shown_id

    return shown_id(str(record.id))


def _status_line(result: Any, published: str | None = None) -> str:
    status = result.status.value
    found = f"{result.count} solution{'s' if result.count != 1 else ''}"
    if status == "undecided":
        detail = "deduction stalled, no guessing (the candidates left follow)"
    elif result.exact:
        detail = f"{found}, search complete"
    elif status == "timeout" or result.limit is None or result.count < result.limit:
        detail = f"{found} before the time limit"  # (not exact, and no limit was reached)
    else:
        detail = f"{found}, stopped at the limit"
    strategy = result.options.get("strategy")
    who = f"{result.backend} ({strategy})" if strategy else result.backend
    line = f"{status}: {detail} · {who} {result.seconds * 1000:.1f} ms"
    if published is None:
        return line
    from ..published import conflicts, explain

    if conflicts(published, status):
        return f"{line} · DISAGREEMENT: {explain(published)}"
    return f"{line} · published solution: {published}"


def _stats_line(result: Any) -> str:
    return "stats: " + ", ".join(f"{k}={_num(v)}" for k, v in result.stats.items())


def _num(value: float | int) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _print_result(
    record: Any, result: Any, out_format: str, stats: bool, published: str | None = None
) -> None:
    from ..formats import format_line, format_pretty
    from ..formats.writers import json_rows

    puzzle = record.puzzle
    size = puzzle.size
    if out_format in ("fpuzzles", "sudokupad"):
        from ..formats.fpuzzles import fpuzzles_data, fpuzzles_json, fpuzzles_link

        # The first solution found goes in as 'solution' (what SudokuPad checks entries
        # against); the status line on standard error says whether it is the only one.
        found = result.solutions[0] if result.solutions else None
        data = fpuzzles_data(puzzle.cells, size, puzzle.model, found)
        if out_format == "sudokupad":
            from ..formats.sudokupad import sudokupad_link

            click.echo(sudokupad_link(data))
        else:
            click.echo(fpuzzles_json(data))
            click.echo(fpuzzles_link(data))
        click.echo(f"puzzle {_shown(record)}: {_status_line(result, published)}", err=True)
        if stats:
            click.echo(_stats_line(result), err=True)
    elif out_format == "iss":
        from ..formats.iss_writer import format_iss

        # The puzzle as an ISS constraint string, then each solution found in line form.
        click.echo(format_iss(puzzle.cells, size, puzzle.model))
        for solution in result.solutions:
            click.echo(format_line(solution, size))
        click.echo(f"puzzle {_shown(record)}: {_status_line(result, published)}", err=True)
        if stats:
            click.echo(_stats_line(result), err=True)
    elif out_format == "line":
        for solution in result.solutions:
            click.echo(format_line(solution, size))
        click.echo(f"puzzle {_shown(record)}: {_status_line(result, published)}", err=True)
        if stats:
            click.echo(_stats_line(result), err=True)
    elif out_format == "json":
        import json  # (here: only this format needs it)

        click.echo(
            json.dumps(
                {
                    "id": record.id,
                    "puzzle": puzzle.to_line(),
                    "status": result.status.value,
                    "count": result.count,
                    "exact": result.exact,
                    "solutions": [json_rows(solution, size) for solution in result.solutions],
                    "backend": result.backend,
                    "options": result.options,
                    "seconds": round(result.seconds, 6),
                    "stats": result.stats,
                    **({"published": published} if published is not None else {}),
                }
            )
        )
    else:
        click.echo(f"puzzle {_shown(record)}: {_status_line(result, published)}")
        for number, solution in enumerate(result.solutions, start=1):
            if len(result.solutions) > 1:
                click.echo(f"solution {number}:")
            click.echo(format_pretty(solution, size, puzzle.model))
        if result.candidates is not None:  # the logic backend stalled: where it stopped
            from ..logic.text import format_candidates

            values = tuple(0 if m & (m - 1) else m.bit_length() for m in result.candidates)
            click.echo(format_candidates(values, result.candidates, size))
        if stats:
            click.echo(_stats_line(result))
