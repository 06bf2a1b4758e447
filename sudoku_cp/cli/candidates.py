"""``sudoku-cp candidates``: every cell's true candidates, the solution count, suggestions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any

import click

from ..limits import MAX_SEED, MAX_TIME_LIMIT
from ..true_candidates import MAX_COUNT_CAP, MAX_PROBES, MAX_SUGGEST, MarkSuggestion, Suggestion
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
    from ..true_candidates import Analysis, MarkSuggestion, Suggestion

    Idea = Suggestion | MarkSuggestion

FORMATS = ("pretty", "json", "candidates", "svg", "html")


@main.command()
@click.argument("puzzle")
@model_option
@box_option
@one_puzzle_options
@click.option(
    "-f",
    "--format",
    "out_format",
    type=click.Choice(FORMATS),
    default="pretty",
    show_default=True,
    help="pretty: a grid of candidates and a summary; json; candidates: the 729-symbol "
    "candidate grid (N*N*N); svg or html: a picture.",
)
@click.option(
    "-o",
    "--output",
    default=None,
    callback=path_value,
    help="Write to this file [default: standard output].",
)
@click.option(
    "--count-cap",
    type=click.IntRange(min=1, max=MAX_COUNT_CAP),
    default=1000,
    show_default=True,
    help=f"Count solutions exactly up to this many (at most {MAX_COUNT_CAP:,}); above it, "
    "estimate the count.",
)
@click.option(
    "--probes",
    type=click.IntRange(min=2, max=MAX_PROBES),
    default=30,
    show_default=True,
    help="Probes of the estimate above --count-cap (more: a narrower interval).",
)
@click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED), default=None,
              help="Seed of the estimate's random choices (repeatable figures).")  # fmt: skip
@click.option(
    "--suggest",
    type=click.IntRange(min=0, max=MAX_SUGGEST),
    default=0,
    show_default=True,
    help="Also list this many single givens, and as many rule marks between two adjacent cells "
    "(white or black dot, X, V, two-cell cage), that leave the fewest solutions, each re-counted.",
)
@click.option(
    "-t",
    "--time-limit",
    type=Seconds(min=0, min_open=True, max=MAX_TIME_LIMIT),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="Give up after this many seconds (exit 3).",
)
@state_option
def candidates(
    puzzle: str,
    model: str,
    box: str | None,
    input_format: str,
    index: int,
    out_format: str,
    output: str | None,
    count_cap: int,
    probes: int,
    seed: int | None,
    suggest: int,
    time_limit: float,
    state: str | None,
) -> None:
    """Every cell's true candidates in PUZZLE (text, a link, a file, a candidate grid or -):
    the digits it holds in at least one solution, found exactly by SAT, with the count of
    solutions (exact up to --count-cap, else estimated with a 95% interval), the cells the
    puzzle fixes beyond its givens and, with --suggest, givens that would remove most
    solutions.

    Exit 0 when done, 1 when the puzzle has no solution, 2 for unusable input or options (or
    an output that cannot be written), 3 when the time limit ran out.
    """
    import time

    from ..model import load_model
    from ..true_candidates import OutOfTime, analyse, mark_suggestions, suggestions

    chosen = nth_puzzle("candidates", puzzle, load_model(model, box=box), input_format, index)
    position = puzzle_state(chosen, state)
    if position is not None:  # the digits each cell holds in the solutions that agree with it
        from ..formats.state import state_puzzle

        chosen = state_puzzle(chosen, position)
    start = time.perf_counter()
    try:
        found = analyse(chosen, cap=count_cap, probes=probes, seed=seed, time_limit=time_limit)
        left = time_limit - (time.perf_counter() - start)
        ideas: list[Idea] = []
        if suggest:
            ideas += suggestions(chosen, found, suggest, count_cap, max(left, 1e-3))
            left = time_limit - (time.perf_counter() - start)
            ideas += mark_suggestions(chosen, found, suggest, count_cap, max(left, 1e-3))
    except OutOfTime as err:
        fail(f"candidates: {err} ({time_limit:g} s; raise --time-limit)", EXIT_UNDECIDED)
    if found.sets is None:
        what = "the puzzle has no solution"
        if state:
            what = "no solution of the puzzle agrees with --state"
        fail(f"candidates: {what}, so no cell has a candidate", EXIT_NEGATIVE)
    text = render(chosen, found, ideas, out_format)
    if output is None:
        click.echo(text, nl=False)
        return
    from ..outputs import model_file, write_output

    write_output(output, text, reads=(puzzle,), model_path=model_file(model))


# --- the forms -----------------------------------------------------------------------------------
def _name(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


def count_line(found: Analysis) -> str:
    """'12 solutions (exact)' or 'about 6.67e+21 solutions (estimated …)'."""
    if found.exact:
        return f"{found.count:,} solution{'s' if found.count != 1 else ''} (exact)"
    est = found.estimate
    assert est is not None
    return (
        f"more than {found.count - 1:,} solutions, about {est.mean:.3g} (95% interval "
        f"{est.low:.3g} to {est.high:.3g}, standard error {est.stderr:.2g}; {est.method}, "
        f"{est.probes} probes)"
    )


def summary(puzzle: Puzzle, found: Analysis, ideas: Sequence[Idea]) -> list[str]:
    n = puzzle.size
    fixed = found.fixed(puzzle.cells)
    lines = [
        count_line(found),
        f"fixed beyond the givens: {len(fixed)} cell{'s' if len(fixed) != 1 else ''}"
        + (f" ({', '.join(_name(c, n) for c in fixed)})" if fixed else ""),
    ]
    for idea in ideas:
        left = f"{idea.left:,}" if idea.exact else f"more than {idea.left - 1:,}"
        if isinstance(idea, MarkSuggestion):
            lines.append(f"suggest the mark {idea.text}: {left} solutions left")
        else:
            lines.append(f"suggest {idea.digit} at {_name(idea.cell, n)}: {left} solutions left")
    lines.append(
        f"{found.sat_calls} SAT calls for the candidates · {found.seconds * 1000:.1f} ms in all"
    )
    return lines


def pretty_grid(puzzle: Puzzle, sets: tuple[tuple[int, ...], ...]) -> str:
    """A grid whose cells show their candidates, padded to the widest, boxes separated."""
    from ..formats.line import SYMBOLS

    n = puzzle.size
    shown = ["".join(SYMBOLS[d - 1] for d in digits) for digits in sets]
    width = max(len(s) for s in shown)
    box = puzzle.model.box_for(n) if puzzle.model.regions is None else None
    height, across = box if box and box != (1, 1) else (n, n)
    lines = []
    for r in range(n):
        if r and r % height == 0:
            lines.append("-+-".join("-" * ((width + 1) * across - 1) for _ in range(n // across)))
        parts = []
        for c0 in range(0, n, across):
            parts.append(" ".join(shown[r * n + c].ljust(width) for c in range(c0, c0 + across)))
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def as_json(puzzle: Puzzle, found: Analysis, ideas: Sequence[Idea]) -> dict[str, Any]:
    n = puzzle.size
    assert found.sets is not None
    data: dict[str, Any] = {
        "size": n,
        "candidates": [[list(found.sets[r * n + c]) for c in range(n)] for r in range(n)],
        "fixed": [_name(c, n) for c in found.fixed(puzzle.cells)],
        "solutions": {"count": found.count, "exact": found.exact},
        "sat_calls": found.sat_calls,
        "seconds": round(found.seconds, 6),
    }
    if found.estimate is not None:
        est = found.estimate
        data["solutions"].update(
            estimate=est.mean,
            stderr=est.stderr,
            interval95=[est.low, est.high],
            probes=est.probes,
            method=est.method,
        )
    givens = [i for i in ideas if isinstance(i, Suggestion)]
    marks = [i for i in ideas if isinstance(i, MarkSuggestion)]
    if givens:
        data["suggestions"] = [
            {"cell": _name(i.cell, n), "digit": i.digit, "solutions_left": i.left, "exact": i.exact}
            for i in givens
        ]
    if marks:
        data["mark_suggestions"] = [
            {
                "mark": m.text,
                "rule": m.rule.key,
                "cells": [_name(c, n) for c in m.rule.cells],
                "value": getattr(m.rule, "value", getattr(m.rule, "total", None)),
                "solutions_left": m.left,
                "exact": m.exact,
            }
            for m in marks
        ]
    return data


def picture(puzzle: Puzzle, found: Analysis) -> str:
    """The SVG: fixed cells' digits (those not given in blue, shaded), candidates elsewhere."""
    from ..render.drawing import puzzle_svg

    assert found.sets is not None
    values = [s[0] if len(s) == 1 else 0 for s in found.sets]
    masks = [sum(1 << (d - 1) for d in s) if len(s) > 1 else 0 for s in found.sets]
    return puzzle_svg(
        puzzle,
        values=values,
        candidates=masks,
        highlight=found.fixed(puzzle.cells),
        title=f"True candidates: {count_line(found)}",
    )


def render(puzzle: Puzzle, found: Analysis, ideas: Sequence[Idea], out_format: str) -> str:
    """The output text in ``out_format`` (one of :data:`FORMATS`), ending in a line break."""
    assert found.sets is not None
    if out_format == "json":
        return json.dumps(as_json(puzzle, found, ideas)) + "\n"
    if out_format == "candidates":
        from ..formats.candidates import format_candidates

        return format_candidates(found.sets, puzzle.size) + "\n"
    if out_format == "svg":
        return picture(puzzle, found) + "\n"
    if out_format == "html":
        items = "".join(f"<li>{escape(line)}</li>" for line in summary(puzzle, found, ideas))
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            "<title>True candidates</title></head><body><h1>True candidates</h1>"
            f"<p><code>{escape(puzzle.to_line())}</code></p><ul>{items}</ul>"
            f"{picture(puzzle, found)}</body></html>\n"
        )
    return pretty_grid(puzzle, found.sets) + "\n" + "\n".join(summary(puzzle, found, ideas)) + "\n"
