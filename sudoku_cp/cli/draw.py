"""``sudoku-cp draw``: a puzzle as an SVG picture (its regions, rules and givens)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..limits import MAX_TIME_LIMIT
from .app import (
    EXIT_NEGATIVE,
    EXIT_UNDECIDED,
    Seconds,
    box_option,
    fail,
    main,
    model_option,
    nth_puzzle,
    one_puzzle_options,
    path_value,
    puzzle_state,
    state_option,
)

if TYPE_CHECKING:
    from ..puzzle import Puzzle

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
@one_puzzle_options
@click.option(
    "--solution",
    is_flag=True,
    help="Draw the solved grid (the solution in blue), found by the default backend.",
)
@click.option(
    "-t",
    "--time-limit",
    type=Seconds(min=0, min_open=True, max=MAX_TIME_LIMIT),
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
    """Draw PUZZLE (text, an f-puzzles, SudokuPad or ISS link, a file, or - for standard input)
    as an SVG picture: regions, every variant rule, the givens — and with --solution the
    solved grid. With --state, the position drawn: its placed digits (blue) and its pencil
    marks as candidates; --solution then solves from that position.

    With --solution, a puzzle with more than one solution is drawn with the first one found,
    and a warning says so.

    Exit 0 when drawn, 1 when --solution finds the puzzle has no solution, 2 for unusable
    input or options (or an output that cannot be written), 3 when --solution ran out of time.
    """
    from ..model import load_model
    from ..render.drawing import puzzle_svg

    chosen = nth_puzzle("draw", puzzle, load_model(model, box=box), input_format, index)
    position = puzzle_state(chosen, state)
    values: tuple[int, ...] | None = None
    candidates: tuple[int, ...] | None = None
    if position is not None:
        from ..formats.state import state_puzzle

        grid = chosen.cells
        values = tuple(given or placed for given, placed in zip(grid, position.placed, strict=True))
        candidates = tuple(0 if values[cell] else mask for cell, mask in enumerate(position.marks))
    if solution:
        narrowed = chosen if position is None else state_puzzle(chosen, position)
        values, candidates = _solved(narrowed, time_limit), None
    svg = puzzle_svg(chosen, values=values, candidates=candidates, cell_size=cell_size)
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
    # (limit 2: "the solved grid" of a puzzle with two would be a silent choice between them)
    result = get_backend(chosen[0]).solve(puzzle, limit=2, time_limit=time_limit)
    if len(result.solutions) > 1:
        click.echo(
            "sudoku-cp: warning: --solution: the puzzle has more than one solution; the grid "
            f"drawn is the first {chosen[0]} found",
            err=True,
        )
    if result.solutions:
        return tuple(result.solutions[0])
    if result.status.value == "none":
        fail("--solution: the puzzle has no solution", EXIT_NEGATIVE)
    fail(
        f"--solution: {chosen[0]} found no solution within {time_limit:g} s (raise --time-limit)",
        EXIT_UNDECIDED,
    )
