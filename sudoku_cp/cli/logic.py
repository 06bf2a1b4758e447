"""``sudoku-cp explain`` and ``rate``: human-style solving, step by step, and its rating.

Exit statuses:
  explain: 0 solved by deduction; 1 no solution (deduction reached a contradiction) or some
  input is not a puzzle; 3 the techniques stalled; 2 unusable input or options (a rule the
  logic solver does not reason about, a bad option).
  rate: 0 every puzzle rated (a stalled puzzle is rated Extreme); 1 some input is not a
  puzzle or has no solution; 2 unusable input or options.
"""

from __future__ import annotations

import csv
import json
import sys
from typing import Any

import click

from .app import EXIT_NEGATIVE, EXIT_OK, EXIT_UNDECIDED, box_option, main, one_line

MAX_RATED = 1_000_000
"""Puzzles ``rate`` reads at most from its inputs (one record each in memory for the table)."""

_model_option = click.option(
    "-m",
    "--model",
    default="classic",
    show_default=True,
    help="Rule set: a model name (see `sudoku-cp models`) or a path to a TOML file.",
)


def _records(inputs: tuple[str, ...], model: str, box: str | None) -> Any:
    from ..datasets import bundled_file
    from ..formats import read_input
    from ..model import load_model

    rules = load_model(model, box=box)
    for arg in inputs:
        yield from read_input(str(bundled_file(arg) or arg), model=rules)


def _bad(record: Any) -> None:
    from ..result import shown_id

    click.echo(
        f"sudoku-cp: error: puzzle {shown_id(str(record.id))}: {one_line(str(record.error))}",
        err=True,
    )


@main.command()
@click.argument("puzzle")
@_model_option
@box_option
@click.option(
    "-f",
    "--format",
    "out_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Numbered steps as text, or the whole solve as JSON.",
)
@click.option(
    "--uniqueness",
    is_flag=True,
    help="Allow techniques that assume the puzzle has one solution (unique rectangles, BUG+1).",
)
def explain(puzzle: str, model: str, box: str | None, out_format: str, uniqueness: bool) -> None:
    """Solve PUZZLE (text, a file, a bundled sample's name or -) by human techniques and print
    every step: the technique, its level and score, what it proves and why.

    Exit 0 solved, 1 no solution, 3 the techniques stalled (the candidates left are shown),
    2 unusable input or a rule the logic solver does not reason about.
    """
    from ..logic.solver import solve_logically
    from ..logic.text import format_trace, trace_data

    worst = EXIT_OK
    for record in _records((puzzle,), model, box):
        if record.puzzle is None:
            _bad(record)
            worst = max(worst, EXIT_NEGATIVE)
            continue
        trace = solve_logically(record.puzzle, uniqueness=uniqueness)
        if out_format == "json":
            click.echo(json.dumps(trace_data(trace)))
        else:
            click.echo(format_trace(trace))
        if trace.outcome == "contradiction":
            worst = max(worst, EXIT_NEGATIVE)
        elif trace.outcome == "stalled":
            worst = max(worst, EXIT_UNDECIDED)
    sys.exit(worst)


FIELDS = ("id", "level", "score", "hardest", "steps", "outcome", "hardest_used")


@main.command()
@click.argument("inputs", nargs=-1, required=True)
@_model_option
@box_option
@click.option(
    "-f",
    "--format",
    "out_format",
    type=click.Choice(["table", "json", "csv"]),
    default="table",
    show_default=True,
    help="A table, JSON Lines (one object a puzzle), or CSV.",
)
@click.option(
    "--uniqueness/--no-uniqueness",
    default=True,
    show_default=True,
    help="Let techniques that assume one solution take part (HoDoKu rates with them).",
)
def rate(
    inputs: tuple[str, ...], model: str, box: str | None, out_format: str, uniqueness: bool
) -> None:
    """Rate each puzzle of INPUTS (puzzle text, files, bundled samples' names or -) on HoDoKu's
    scale: level (Easy, Medium, Hard, Unfair, Extreme), score (the sum of the steps' scores)
    and the hardest technique used. A puzzle the techniques cannot finish is rated Extreme
    with hardest "stalled".

    Exit 0 every puzzle rated, 1 some input is not a puzzle or has no solution, 2 unusable
    input or a rule the logic solver does not reason about.
    """
    from ..logic.rating import rate_puzzle

    worst = EXIT_OK
    writer = csv.writer(sys.stdout, lineterminator="\n") if out_format == "csv" else None
    for count, record in enumerate(_records(inputs, model, box), 1):
        if count == 1:  # the header once the inputs open (a missing file prints none)
            if writer:
                writer.writerow(FIELDS)
            elif out_format == "table":
                click.echo(f"{'level':<8} {'score':>6} {'steps':>5}  {'hardest':<36} id")
        if count > MAX_RATED:
            click.echo(f"sudoku-cp: error: rate reads at most {MAX_RATED:,} puzzles", err=True)
            worst = max(worst, EXIT_NEGATIVE)
            break
        if record.puzzle is None:
            _bad(record)
            worst = max(worst, EXIT_NEGATIVE)
            continue
        rating = rate_puzzle(record.puzzle, uniqueness=uniqueness)
        if rating.outcome == "contradiction":
            worst = max(worst, EXIT_NEGATIVE)
        row = {"id": record.id, **rating.to_dict()}
        if writer:
            writer.writerow([row[name] for name in FIELDS])
        elif out_format == "json":
            click.echo(json.dumps(row))
        else:
            click.echo(
                f"{rating.level:<8} {rating.score:>6} {rating.steps:>5}  {rating.hardest:<36} "
                f"{record.id}"
            )
    sys.exit(worst)
