"""``sudoku-cp explain`` and ``rate``: human-style solving, step by step, and its rating.

Exit statuses:
  explain: 0 solved by deduction; 1 no solution (deduction reached a contradiction), more
  than one solution, or some input is not a puzzle; 3 the techniques stalled
  (with --scale se: no rule of SE's moves on, or the path reached --time-cap); 2
  unusable input or options (a rule the logic solver does not reason about, a bad option;
  with --scale se: a puzzle that is not classic 9x9).
  rate: 0 every puzzle rated (a stalled puzzle is rated Extreme); 3 a solve reached
  --time-cap on HoDoKu's scale (not rated); 1 some input is not a puzzle, has no solution or
  more than one; 2 unusable input or options
  (with --scale se: a puzzle that is not classic 9x9).
"""

from __future__ import annotations

import csv
import itertools
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import click

from .app import (
    EXIT_NEGATIVE,
    EXIT_OK,
    EXIT_UNDECIDED,
    box_option,
    fail,
    main,
    model_option,
    one_line,
    one_state_puzzle,
    path_value,
    puzzle_state,
    scale_option,
    state_option,
    time_cap_option,
)

MAX_RATED = 1_000_000
"""Puzzles ``rate`` reads at most from its inputs (one record each in memory for the table)."""
MAX_STEP = 1_000_000
"""The highest step ``explain --step`` takes (a solve has fewer steps than cells × digits)."""


def _records(inputs: tuple[str, ...], model: str, box: str | None) -> Any:
    from ..datasets import bundled_file
    from ..formats import read_input
    from ..model import load_model

    rules = load_model(model, box=box)
    for arg in inputs:
        yield from read_input(str(bundled_file(arg) or arg), model=rules)


def _bad(record: Any, error: object = None) -> None:
    """Say on standard error why ``record`` was not read (its ``error``), or not solved or
    rated (``error``)."""
    from ..result import shown_id

    why = one_line(str(record.error if error is None else error))
    click.echo(f"sudoku-cp: error: puzzle {shown_id(str(record.id))}: {why}", err=True)


uniqueness_option = click.option(
    "--uniqueness/--no-uniqueness",
    default=True,
    show_default=True,
    help="Let techniques that assume the puzzle has one solution take part (unique "
    "rectangles, BUG+1), as HoDoKu does; explain and rate share this default, so they give "
    "a puzzle the same score.",
)
"""One option, one default, for ``explain`` and ``rate`` (they scored a puzzle 4,728 and
5,608 when only ``rate`` let uniqueness techniques in by default)."""

also_option = click.option(
    "--also",
    multiple=True,
    metavar="TECHNIQUE",
    help="Turn on a technique HoDoKu's solver leaves off, by name, any case (repeatable): "
    "Death Blossom, Franken Jellyfish, Finned Franken Jellyfish, Mutant and Finned Mutant "
    "X-Wing to Whale, Franken Squirmbag and Whale, Kraken Fish Type 1 and 2, Template Set, "
    "Template Delete. It takes its place in HoDoKu's order, at HoDoKu's score.",
)


def _also(command: str, also: tuple[str, ...], scale: str) -> None:
    """Refuse ``--also`` names that are no technique to add, or with --scale se (one line,
    exit 2)."""
    if not also:
        return
    if scale == "se":
        fail(f"{command}: --also adds HoDoKu techniques; SE's path has its own (--scale se)")
    from ..errors import SudokuError
    from ..logic.solver import optional_entries

    try:
        optional_entries(also)
    except SudokuError as err:
        fail(f"{command}: --also: {err}")


@main.command()
@click.argument("puzzle")
@model_option
@box_option
@click.option(
    "-f",
    "--format",
    "out_format",
    type=click.Choice(["text", "json", "html", "svg"]),
    default="text",
    show_default=True,
    help="Numbered steps as text, the whole solve as JSON, a self-contained HTML page that "
    "steps through it, or SVG pictures of the steps (one puzzle).",
)
@uniqueness_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=True),
    default=None,
    callback=path_value,
    help="html: write the page to this file; svg: write puzzle.svg and step-001.svg … into "
    "this folder [default: standard output].",
)
@click.option(
    "--step",
    "step_number",
    type=click.IntRange(1, MAX_STEP),
    default=None,
    help="svg: print only this step's picture (counted from 1) on standard output.",
)
@state_option
@click.option(
    "--hint",
    is_flag=True,
    help="Give only the next step (technique, where, why) from the givens or --state; or "
    "say that the state is solved, wrong (naming the cell, when the puzzle has one solution) "
    "or beyond the techniques. Exit 0 a step or solved, 1 wrong or no solution, 3 no "
    "technique applies.",
)
@scale_option
@time_cap_option
@also_option
def explain(
    puzzle: str,
    model: str,
    box: str | None,
    out_format: str,
    uniqueness: bool,
    output: str | None,
    step_number: int | None,
    state: str | None,
    hint: bool,
    scale: str = "hodoku",
    time_cap: float | None = None,
    also: tuple[str, ...] = (),
) -> None:
    """Solve PUZZLE (text, a file, a bundled sample's name or -) by human techniques and print
    every step: the technique, its level and score, what it proves and why.

    \b
    sudoku-cp explain PUZZLE --format html -o steps.html   # a page to step through
    sudoku-cp explain PUZZLE --format svg --step 3         # one step's picture
    sudoku-cp explain PUZZLE --format svg -o pictures/     # every step's picture

    sudoku-cp explain PUZZLE --hint --state marks.txt      # the next step from a position

    Exit 0 solved, 1 not a puzzle (text or a record that does not read as one, as in rate and
    check), no solution or more than one (a puzzle with two is not explained: the techniques
    that assume one would take wrong steps, and a stall would be no verdict), 3 the techniques
    stalled (the candidates left are shown), 2 unusable options, a missing file or a rule the
    logic solver does not reason about. With --hint: 0 a step
    (or already solved), 1 the state is wrong or the puzzle has no solution, 3 no technique
    applies.

    With --scale se: Sudoku Explainer's solve path instead, each step with its SE difficulty,
    then ER/EP/ED (text or json; classic 9x9 puzzles with one solution). Exit 0 solved, 1 not
    a puzzle, no solution or more than one, 2 not classic 9x9, 3 no rule of SE's moves on or
    the path reached --time-cap (the values shown are lower bounds).
    """
    from ..errors import NotUniqueError
    from ..logic.rating import refuse_multiple
    from ..logic.solver import solve_logically
    from ..logic.text import format_trace, trace_data

    _se_options("explain", scale, time_cap, uniqueness, state)
    _also("explain", also, scale)
    if scale == "se" and (hint or out_format not in ("text", "json")):
        fail(
            "explain: --scale se explains the whole path as text or json; --hint and "
            "--format html/svg step through HoDoKu's techniques (the default scale)"
        )
    if hint and out_format not in ("text", "json"):
        fail("explain: --hint goes with --format text or json")
    if hint and time_cap is not None:  # (it was ignored: a hint is one step, not a rating)
        fail("explain: --time-cap caps a whole solve and its rating; --hint finds one step")
    if out_format in ("text", "json") and (output is not None or step_number is not None):
        fail("explain: -o/--output and --step go with --format html or svg")
    if out_format == "html" and step_number is not None:
        fail("explain: --step goes with --format svg")
    if out_format == "svg" and (output is None) == (step_number is None):
        fail(
            "explain: --format svg needs either --step N (one picture on standard output) "
            "or -o FOLDER (every step's picture), not both"
        )
    pictures = out_format in ("html", "svg")
    if out_format == "html" and output is not None:
        from ..outputs import model_file, refuse_output

        refuse_output(output, reads=(puzzle,), model_path=model_file(model))  # before solving
    worst = EXIT_OK
    explained = 0
    records = _records((puzzle,), model, box)
    records = _state_records(records, state, "explain")
    for record in records:
        if record.puzzle is None:
            _bad(record)
            worst = max(worst, EXIT_NEGATIVE)
            continue
        if pictures and explained:
            fail(f"explain: --format {out_format} draws one puzzle; {puzzle} holds more")
        explained += 1
        position = puzzle_state(record.puzzle, state)
        if scale == "se":
            worst = max(worst, _explain_se(record, position, out_format, time_cap))
            continue
        if hint:
            worst = max(worst, _hint(record, position, uniqueness, out_format, also))
            continue
        if position is not None and (wrong := _state_error(record.puzzle, position)):
            _bad(record, wrong)  # (else its contradiction would blame the puzzle)
            worst = max(worst, EXIT_NEGATIVE)
            continue
        try:
            trace = solve_logically(
                record.puzzle,
                uniqueness=uniqueness,
                placed=None if position is None else position.placed,
                marks=None if position is None else position.marks,
                extra=also,
                deadline=None if time_cap is None else time.perf_counter() + time_cap,
            )
            refuse_multiple(trace)  # (a stall there is no verdict on the techniques)
        except NotUniqueError as err:  # (else a step that assumes one solution would be wrong)
            _bad(record, err)
            worst = max(worst, EXIT_NEGATIVE)
            continue
        if out_format == "json":
            click.echo(json.dumps(trace_data(trace)))
        elif pictures:
            _draw(trace, str(record.id), out_format, output, step_number, (puzzle, model))
        else:
            click.echo(format_trace(trace))
        if trace.outcome == "contradiction":
            worst = max(worst, EXIT_NEGATIVE)
        elif trace.outcome == "stalled":
            if trace.timed_out:  # (the steps shown are the first ones: no verdict)
                _bad(
                    record,
                    f"the time cap of {time_cap:g} s was reached: the steps shown are "
                    "the first ones, the solve did not stall",
                )
            worst = max(worst, EXIT_UNDECIDED)
    sys.exit(worst)


def _state_error(puzzle: Any, position: Any) -> str | None:
    from ..hint import state_error

    return state_error(puzzle, position)


def _state_records(records: Any, state: str | None, command: str) -> Any:
    """``records``, refused (one line, exit 2) when ``--state`` is given and they hold more than
    one puzzle: a state is one puzzle's, so this is said before any output."""
    if state is None:
        return records
    first = list(itertools.islice(records, 2))
    one_state_puzzle(len(first), state, command)
    return iter(first)


def _se_options(
    command: str, scale: str, time_cap: float | None, uniqueness: bool, state: str | None
) -> None:
    """Refuse the options that mean nothing on the scale chosen (one line, exit 2)."""
    if scale != "se":
        return
    if not uniqueness:
        fail(
            f"{command}: --no-uniqueness does not apply to --scale se (SE 1.2.1's rules include "
            "unique loops and BUG, and SE rates only puzzles with one solution)"
        )


def _cap(time_cap: float | None) -> float:
    from ..logic.se.rating import DEFAULT_TIME_CAP

    return DEFAULT_TIME_CAP if time_cap is None else time_cap


def _explain_se(record: Any, position: Any, out_format: str, time_cap: float | None) -> int:
    """``explain --scale se``: SE's path for one puzzle (from ``position``, a solver's state,
    when not None), its steps with their difficulty and ER/EP/ED; returns the exit status it
    calls for."""
    from ..logic.scales import se_step_data, se_step_text, se_summary
    from ..logic.se import NotRatable, rate_puzzle_se
    from ..logic.se.grid import SEGrid
    from ..logic.se.rating import state_grid
    from ..logic.text import format_candidates
    from ..result import shown_id

    cap = _cap(time_cap)
    try:  # (plain: the steps shown say where each one is)
        rating = rate_puzzle_se(record.puzzle, cap, position, plain=True)
    except NotRatable as err:
        click.echo(f"sudoku-cp: error: puzzle {shown_id(str(record.id))}: {err}", err=True)
        return err.status
    if rating.outcome == "time cap":
        click.echo(
            f"sudoku-cp: puzzle {shown_id(str(record.id))}: the time cap of {cap:g} s was "
            "reached; its values are lower bounds",
            err=True,
        )
    cells = list(record.puzzle.cells)
    grid = SEGrid(*state_grid(cells, position)) if position is not None else SEGrid(cells)
    for step in rating.steps:  # the grid where the path stopped, for its candidates
        step.apply(grid)
    left = {  # (SE's masks: bit d is digit d)
        cell: "".join(str(d) for d in range(1, 10) if grid.cands[cell] >> d & 1)
        for cell in range(81)
        if not grid.values[cell]
    }
    status = EXIT_OK if rating.outcome == "solved" else EXIT_UNDECIDED
    if out_format == "json":
        from ..logic.board import cell_name

        data: dict[str, Any] = {
            "puzzle": record.puzzle.to_line(),
            "scale": "se",
            "outcome": rating.outcome,
            "rating": rating.to_dict(),
            "steps": [se_step_data(step) for step in rating.steps],
        }
        if left:
            data["candidates"] = {cell_name(c, 9): text for c, text in left.items()}
        click.echo(json.dumps(data, ensure_ascii=False))
        return status
    lines = [f"puzzle: {record.puzzle.to_line()}"]
    lines += [se_step_text(number, step) for number, step in enumerate(rating.steps, 1)]
    lines.append(se_summary(rating, cap))
    if left:
        lines.append("candidates left:")
        lines.append(format_candidates(tuple(grid.values), tuple(c >> 1 for c in grid.cands), 9))
    click.echo("\n".join(lines))
    return status


HINT_EXIT = {
    "step": EXIT_OK,
    "solved": EXIT_OK,
    "wrong": EXIT_NEGATIVE,
    "no solution": EXIT_NEGATIVE,
    "stalled": EXIT_UNDECIDED,
}
"""``explain --hint``'s exit status for each outcome (:class:`~sudoku_cp.hint.Hint`)."""


def _hint(
    record: Any, position: Any, uniqueness: bool, out_format: str, also: tuple[str, ...] = ()
) -> int:
    """Print the next step of ``record``'s puzzle from ``position`` (a state or None); return
    the exit status it calls for."""
    from ..hint import next_hint
    from ..logic.board import cell_name
    from ..logic.rating import technique_rating
    from ..logic.text import step_data

    puzzle = record.puzzle
    size = puzzle.size
    found = next_hint(puzzle, position, uniqueness=uniqueness, extra=also)
    step = found.step
    if out_format == "json":
        data: dict[str, Any] = {"id": record.id, "outcome": found.outcome, "text": found.text}
        if step is not None:
            data["step"] = step_data(step, size, puzzle.model.group_labels(size))
        if found.cell is not None:
            data["cell"] = cell_name(found.cell, size)
        data["unique"] = found.unique
        click.echo(json.dumps(data))
    elif step is not None:
        level, score = technique_rating(step.technique)
        lines = [f"hint: {step.technique} ({level}, {score})"]
        where = list(dict.fromkeys(cell_name(c, size) for c, _ in step.proof))
        where += [cell_name(c, size) for c in step.cells if cell_name(c, size) not in where]
        if not where:  # (a single rests on its own cell)
            where = list(dict.fromkeys(cell_name(c, size) for c, _ in step.placements))
        labels = puzzle.model.group_labels(size)
        if where or step.groups:
            groups = ", ".join(labels[g] for g in step.groups)
            lines.append(f"  where:  {', '.join(where)}" + (f" ({groups})" if groups else ""))
        if step.placements:
            places = ", ".join(f"{cell_name(c, size)} = {d}" for c, d in step.placements)
            lines.append(f"  place:  {places}")
        if step.eliminations:
            removed = ", ".join(f"{cell_name(c, size)} -{d}" for c, d in step.eliminations)
            lines.append(f"  remove: {removed}")
        lines.append(f"  why:    {step.text}")
        if found.unique is False:  # (JSON says it as "unique": false)
            lines.append(
                "  note:   the puzzle has more than one solution: this step holds in all of "
                "them, but the techniques cannot finish it"
            )
        click.echo("\n".join(lines))
    else:
        click.echo(f"hint: {found.outcome}: {found.text}")
    return HINT_EXIT[found.outcome]


def _draw(
    trace: Any,
    name: str,
    out_format: str,
    output: str | None,
    step_number: int | None,
    reads: tuple[str, str],
) -> None:
    """The pictures of a solve: the HTML page, one step's SVG, or every step's SVG files.
    ``reads``: the puzzle argument and the model, never to be written over."""
    from ..outputs import model_file, write_output
    from ..render import explain_html, puzzle_svg, step_svg

    puzzle, model = reads
    if out_format == "html":
        if output is None:
            click.echo(explain_html(trace, title=name))
        else:
            write_output(
                output,
                explain_html(trace, title=name) + "\n",
                reads=(puzzle,),
                model_path=model_file(model),
            )
        return
    if step_number is not None:
        if step_number > len(trace.steps):
            fail(f"explain: --step {step_number}: the solve has {len(trace.steps)} steps")
        click.echo(step_svg(trace, step_number - 1))
        return
    assert output is not None
    folder = Path(output)
    if not output.strip():
        fail("explain: -o needs a folder name, not an empty one")
    if os.path.exists(folder) and not os.path.isdir(folder):
        fail(f"explain: -o {output}: is not a folder (--format svg writes one file a step)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        fail(f"explain: -o {output[:200]}: cannot make the folder: {err.strerror or err}")
    width = max(3, len(str(len(trace.steps))))
    pictures = {"puzzle.svg": puzzle_svg(trace.puzzle) + "\n"}
    for index in range(len(trace.steps)):
        pictures[f"step-{index + 1:0{width}d}.svg"] = step_svg(trace, index) + "\n"
    for file_name, picture in pictures.items():
        write_output(
            folder / file_name, picture, reads=(puzzle,), model_path=model_file(model), option="-o"
        )
    _remove_old_steps(folder, set(pictures))


STEP_FILE = re.compile(r"step-[0-9]{3,}\.svg")
"""The names ``explain --format svg`` gives its step pictures (and removes when stale)."""


def _remove_old_steps(folder: Path, written: set[str]) -> None:
    """Remove the step pictures an earlier explain left in ``folder`` beyond this solve's
    steps (an earlier, longer solve's), so the folder shows one solve. Only files named as
    this command names them; any other file is left alone."""
    try:
        names = [p for p in folder.iterdir() if STEP_FILE.fullmatch(p.name)]
        stale = [p for p in names if p.name not in written]
    except OSError as err:
        fail(f"explain: -o {folder}: cannot list the folder: {err.strerror or err}")
    for path in stale:
        try:
            if path.is_file() and not path.is_symlink():
                path.unlink()
        except OSError as err:
            fail(f"explain: -o {folder}: cannot remove the old {path.name}: {err.strerror}")


FIELDS = ("id", "level", "score", "hardest", "steps", "outcome", "hardest_used")


@main.command()
@click.argument("inputs", nargs=-1, required=True)
@model_option
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
@uniqueness_option
@state_option
@scale_option
@time_cap_option
@also_option
def rate(
    inputs: tuple[str, ...],
    model: str,
    box: str | None,
    out_format: str,
    uniqueness: bool,
    state: str | None,
    scale: str = "hodoku",
    time_cap: float | None = None,
    also: tuple[str, ...] = (),
) -> None:
    """Rate each puzzle of INPUTS (puzzle text, files, bundled samples' names or -) on HoDoKu's
    scale: level (Easy, Medium, Hard, Unfair, Extreme), score (the sum of the steps' scores)
    and the hardest technique used. A puzzle the techniques cannot finish is rated Extreme
    with hardest "stalled".

    With --scale se, Sudoku Explainer's scale instead: ER (the hardest step of SE's solve
    path), EP (the hardest up to the first placement), ED (the first step), from SE 1.2.1's
    rules, order and values; a value written >=x.y is a lower bound (the path needs a rule not
    implemented yet, or the time cap was reached: the outcome column says which).

    A puzzle with more than one solution is not rated (it says so), on either scale: as HoDoKu
    and SE refuse one.

    Exit 0 every puzzle rated, 1 some input is not a puzzle, has no solution or more than one,
    2 unusable input or a rule the logic solver does not reason about (with --scale se: a
    puzzle that is not classic 9x9), 3 on HoDoKu's scale a puzzle's solve reached --time-cap
    (it is not rated).
    """
    _se_options("rate", scale, time_cap, uniqueness, state)
    _also("rate", also, scale)
    if scale == "se":
        _rate_se(inputs, model, box, out_format, _cap(time_cap), state)
        return
    from ..errors import NotUniqueError
    from ..logic.rating import TimeCapReached, rate_puzzle, rating_of, refuse_multiple
    from ..logic.solver import solve_logically
    from ..result import shown_id

    records = _records(inputs, model, box)
    records = _state_records(records, state, "rate")

    def rate_one(record: Any) -> tuple[dict[str, Any] | None, str, int]:
        position = puzzle_state(record.puzzle, state)
        if position is not None and (wrong := _state_error(record.puzzle, position)):
            _bad(record, wrong)  # (a contradiction from it would be rated "Invalid")
            return None, "", EXIT_NEGATIVE
        deadline = None if time_cap is None else time.perf_counter() + time_cap
        try:
            if position is None:
                rating = rate_puzzle(
                    record.puzzle, uniqueness=uniqueness, extra=also, deadline=deadline
                )
            else:  # the steps left from the state
                trace = solve_logically(
                    record.puzzle,
                    uniqueness=uniqueness,
                    placed=position.placed,
                    marks=position.marks,
                    extra=also,
                    deadline=deadline,
                )
                if trace.timed_out:
                    raise TimeCapReached("not rated: its solve reached the time cap")
                refuse_multiple(trace)
                rating = rating_of(trace)
        except NotUniqueError as err:  # no rating: that of a puzzle it is not
            _bad(record, err)
            return None, "", EXIT_NEGATIVE
        except TimeCapReached as err:
            _bad(record, f"{err} of {time_cap:g} s")
            return None, "", EXIT_UNDECIDED
        if rating.outcome == "contradiction":  # no rating: as SE's scale, one line
            _bad(record, "has no solution")
            return None, "", EXIT_NEGATIVE
        status = EXIT_OK
        line = (
            f"{rating.level:<8} {rating.score:>6} {rating.steps:>5}  {rating.hardest:<36} "
            f"{shown_id(str(record.id))}"  # (one line, no terminal escapes, as check shows ids)
        )
        return {"id": record.id, **rating.to_dict()}, line, status

    header = f"{'level':<8} {'score':>6} {'steps':>5}  {'hardest':<36} id"
    sys.exit(_write_ratings(records, out_format, FIELDS, header, rate_one, ensure_ascii=True))


def _write_ratings(
    records: Any,
    out_format: str,
    fields: tuple[str, ...],
    header: str,
    rate_one: Any,
    ensure_ascii: bool,
) -> int:
    """The loop both of ``rate``'s scales share: the CSV header once the inputs open (a
    missing file prints none), the table's above its first row (none when every puzzle was
    an error), the cap on puzzles, unreadable inputs, and one row a puzzle as a table line,
    JSON or CSV. ``rate_one(record)`` gives the row, its table line and an exit status, or a
    row of None once it has said why it rated none. Returns the worst exit status."""
    worst = EXIT_OK
    writer = csv.writer(sys.stdout, lineterminator="\n") if out_format == "csv" else None
    headed = False
    for count, record in enumerate(records, 1):
        if count == 1 and writer:
            writer.writerow(fields)
        if count > MAX_RATED:
            click.echo(f"sudoku-cp: error: rate reads at most {MAX_RATED:,} puzzles", err=True)
            worst = max(worst, EXIT_NEGATIVE)
            break
        if record.puzzle is None:
            _bad(record)
            worst = max(worst, EXIT_NEGATIVE)
            continue
        row, line, status = rate_one(record)
        worst = max(worst, status)
        if row is None:
            continue
        if writer:
            writer.writerow([row[name] for name in fields])
        elif out_format == "json":
            click.echo(json.dumps(row, ensure_ascii=ensure_ascii))
        else:
            if not headed:
                click.echo(header)
                headed = True
            click.echo(line)
    return worst


SE_FIELDS = (
    "id",
    "er",
    "ep",
    "ed",
    "er_exact",
    "ep_exact",
    "ed_exact",
    "outcome",
    "hardest",
    "steps",
)
"""``rate --scale se``'s JSON keys and CSV columns: a value whose ``*_exact`` is false is a
lower bound (the table writes it ``≥x.y``)."""


def _rate_se(
    inputs: tuple[str, ...],
    model: str,
    box: str | None,
    out_format: str,
    time_cap: float,
    state: str | None,
) -> None:
    """``rate --scale se``: SE's ER/EP/ED (:mod:`sudoku_cp.logic.se`), one line a puzzle (the
    path from ``--state`` when given, as SE rates a pencil-mark grid)."""
    from ..logic.se import NotRatable, rate_puzzle_se
    from ..result import shown_id

    def rate_one(record: Any) -> tuple[dict[str, Any] | None, str, int]:
        try:
            position = puzzle_state(record.puzzle, state)
            rating = rate_puzzle_se(record.puzzle, time_cap, position)
        except NotRatable as err:
            click.echo(f"sudoku-cp: error: puzzle {shown_id(str(record.id))}: {err}", err=True)
            return None, "", err.status
        row = {"id": record.id, **rating.to_dict()}
        if rating.outcome == "time cap":
            click.echo(
                f"sudoku-cp: puzzle {shown_id(str(record.id))}: the time cap of {time_cap:g} s "
                "was reached; its values are lower bounds",
                err=True,
            )
        er, ep, ed = rating.text().split("/")
        line = (
            f"{er:>5} {ep:>5} {ed:>5}  {rating.outcome:<8} {str(row['hardest']):<28} "
            f"{shown_id(str(record.id))}"
        )
        return row, line, EXIT_OK

    header = f"{'ER':>5} {'EP':>5} {'ED':>5}  {'outcome':<8} {'hardest':<28} id"
    records = _records(inputs, model, box)
    records = _state_records(records, state, "rate")
    sys.exit(_write_ratings(records, out_format, SE_FIELDS, header, rate_one, ensure_ascii=False))
