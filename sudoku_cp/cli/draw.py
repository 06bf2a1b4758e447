"""``sudoku-cp draw``: a puzzle as an SVG picture (its regions, rules and givens)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..limits import MAX_TIME_LIMIT
from .app import (
    EXIT_NEGATIVE,
    EXIT_UNDECIDED,
    box_option,
    fail,
    main,
    model_option,
    one_line,
    path_value,
    puzzle_state,
    state_option,
)

if TYPE_CHECKING:
    from ..puzzle import Puzzle

MAX_INDEX = 10_000_000
"""The furthest puzzle of a file ``--index`` reaches (the file is read up to it)."""
DRAW_TIME_LIMIT = 10.0
"""How long ``--solution`` searches by default: drawing should stay quick."""


@main.command()
@click.argument("puzzle")
@click.option(
    "-o",
    "--output",
    default=None,
    callback=path_value,
    help="Write the SVG to this file [default: standard output].",
)
@model_option
@box_option
@click.option(
    "--input-format",
    default="auto",
    show_default=True,
    help="How to read the input, as for solve (auto also reads f-puzzles JSON and links).",
)
@click.option(
    "-i",
    "--index",
    type=click.IntRange(min=1, max=MAX_INDEX),
    default=1,
    show_default=True,
    help="Which puzzle of a file of several to draw (1 is the first).",
)
@click.option(
    "--solution",
    is_flag=True,
    help="Draw the solved grid (the solution in blue), found by the default backend.",
)
@click.option(
    "-t",
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True, max=MAX_TIME_LIMIT),
    default=DRAW_TIME_LIMIT,
    show_default=True,
    metavar="SECONDS",
    help="With --solution: give up after this many seconds (exit 3).",
)
@click.option(
    "--cell-size",
    type=click.IntRange(min=8, max=200),
    default=None,
    help="Pixels per cell, 8 to 200 [default: 40, more above 16x16].",
)
@state_option
def draw(
    puzzle: str,
    output: str | None,
    model: str,
    box: str | None,
    input_format: str,
    index: int,
    solution: bool,
    time_limit: float,
    cell_size: int | None,
    state: str | None,
) -> None:
    """Draw PUZZLE (text, an f-puzzles or SudokuPad link, a file, or - for standard input)
    as an SVG picture: regions, every variant rule, the givens — and with --solution the
    solved grid. With --state, the position drawn: its placed digits (blue) and its pencil
    marks as candidates; --solution then solves from that position.

    Exit 0 when drawn, 1 when --solution finds the puzzle has no solution, 2 for unusable
    input or options (or an output that cannot be written), 3 when --solution ran out of time.
    """
    from ..formats import read_input
    from ..model import load_model
    from ..render.drawing import puzzle_svg

    rule_set = load_model(model, box=box)
    record = None
    for number, found in enumerate(read_input(puzzle, model=rule_set, fmt=input_format), 1):
        if number == index:
            record = found
            break
    if record is None:
        fail(f"draw: --index {index}, but the input holds fewer puzzles")
    if record.puzzle is None:
        from ..result import shown_id

        fail(f"puzzle {shown_id(str(record.id))}: {one_line(str(record.error))}")
    position = puzzle_state(record.puzzle, state)
    values: tuple[int, ...] | None = None
    candidates: tuple[int, ...] | None = None
    if position is not None:
        from ..formats.state import state_puzzle

        grid = record.puzzle.cells
        values = tuple(given or placed for given, placed in zip(grid, position.placed, strict=True))
        candidates = tuple(0 if values[cell] else mask for cell, mask in enumerate(position.marks))
    if solution:
        narrowed = record.puzzle if position is None else state_puzzle(record.puzzle, position)
        values, candidates = _solved(narrowed, time_limit), None
    svg = puzzle_svg(record.puzzle, values=values, candidates=candidates, cell_size=cell_size)
    if output is None:
        click.echo(svg)
        return
    from ..outputs import model_file, write_output

    write_output(output, svg + "\n", reads=(puzzle,), model_path=model_file(model))


def _solved(puzzle: Puzzle, time_limit: float) -> tuple[int, ...]:
    """The solution the default path finds (the first backend ``check`` would choose)."""
    from ..backends import available_backends, get_backend
    from ..choice import choose

    chosen = choose(puzzle, available_backends())
    if not chosen:
        fail("--solution: no installed backend takes this puzzle's rules")
    result = get_backend(chosen[0]).solve(puzzle, limit=1, time_limit=time_limit)
    if result.solutions:
        return tuple(result.solutions[0])
    if result.status.value == "none":
        fail("--solution: the puzzle has no solution", EXIT_NEGATIVE)
    fail(
        f"--solution: {chosen[0]} found no solution within {time_limit:g} s (raise --time-limit)",
        EXIT_UNDECIDED,
    )
