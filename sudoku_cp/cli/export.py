"""``sudoku-cp export``: a puzzle written for a solver outside the tool (DIMACS, OPB,
MiniZinc, XCSP3; see :mod:`sudoku_cp.export` and docs/export.md)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from .app import (
    box_option,
    fail,
    main,
    model_option,
    one_line,
    path_value,
    puzzle_state,
    state_option,
)

MAX_PUZZLES = 100_000
"""The most puzzles one export writes (one file each, two for MiniZinc, in a folder)."""
FORMAT_CHOICES = ("dimacs", "opb", "minizinc", "xcsp3")


@main.command("export")
@click.argument("puzzle")
@click.option(
    "--to",
    "fmt",
    type=click.Choice(FORMAT_CHOICES),
    required=True,
    help="The format: dimacs (CNF), opb (pseudo-Boolean), minizinc (.mzn + .dzn), xcsp3.",
)
@click.option(
    "-o",
    "--output",
    default=None,
    metavar="FILE|FOLDER",
    callback=path_value,
    help="Write here: a file for one puzzle (for minizinc the .mzn, its data beside it as "
    ".dzn), a folder (made if missing) for an input of several [default: standard output, "
    "one puzzle, not minizinc].",
)
@model_option
@box_option
@click.option(
    "--input-format",
    default="auto",
    show_default=True,
    help="How to read the input, as for solve (auto also reads f-puzzles JSON and links).",
)
@state_option
def export_command(
    puzzle: str,
    fmt: str,
    output: str | None,
    model: str,
    box: str | None,
    input_format: str,
    state: str | None,
) -> None:
    """Write PUZZLE (text, an f-puzzles, SudokuPad or ISS link, a file, or - for standard input)
    for a solver outside the tool: DIMACS CNF, OPB, MiniZinc or XCSP3, every rule kind and
    size. A bundled sample's name (famous, variants9 …) reads its file.

    One puzzle goes to standard output, or to -o FILE. An input of several puzzles needs
    -o FOLDER: one file per puzzle, named by its place in the input (puzzle-000001.cnf …).
    MiniZinc writes a model (.mzn) and its data (.dzn), so it always needs -o. With --state
    (one puzzle), the position is exported: placed digits as givens, pencil marks as the
    cells' only candidates.

    Exit 0 when written; 2 for unusable input (a puzzle that cannot be read stops the export
    there, naming it; files written before it stay, and an earlier export's files of this
    format past them go), a rule the format cannot express, the xcsp3 extra missing, or an
    output that cannot be written.
    """
    from ..datasets import bundled_file
    from ..export import export, suffixes
    from ..formats import read_input
    from ..model import load_model
    from ..outputs import model_file, write_output
    from ..result import shown_id

    rule_set = load_model(model, box=box)
    source = str(bundled_file(puzzle) or puzzle)  # a bundled sample's name reads its file
    records = iter(read_input(source, model=rule_set, fmt=input_format))
    first = next(records, None)
    if first is None:
        fail("export: the input holds no puzzle")
    second = next(records, None)
    if state is not None:
        if second is not None:
            fail("export: --state is one puzzle's state, but the input holds more than one puzzle")
        if first.puzzle is not None:
            import dataclasses

            from ..formats.state import state_puzzle

            narrowed = state_puzzle(first.puzzle, puzzle_state(first.puzzle, state))
            first = dataclasses.replace(first, puzzle=narrowed)
    if output is not None and not output.strip():
        fail("export: -o needs a file or folder name, not an empty one")
    folder = output is not None and (second is not None or os.path.isdir(output))
    if second is not None and output is None:
        fail("export: the input holds several puzzles: give -o FOLDER (one file each)")
    if fmt == "minizinc" and output is None:
        fail("export: minizinc writes a model and a data file: give -o FILE.mzn (or a folder)")
    reads = (puzzle,)
    if folder:
        assert output is not None
        where = Path(output)
        if where.exists() and not where.is_dir():
            fail(f"export: -o {output} is a file, but the input holds several puzzles")
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            fail(f"export: cannot make the folder {output}: {err.strerror or err}")
    pending = [first] + ([second] if second is not None else [])
    number = written = 0  # (written: the puzzles whose every file is written)
    try:
        while pending:
            record = pending.pop(0)
            number += 1
            if number > MAX_PUZZLES:
                fail(f"export: the input holds more than {MAX_PUZZLES:,} puzzles")
            if record.puzzle is None:
                fail(f"puzzle {shown_id(str(record.id))}: {one_line(str(record.error))}")
            files = export(record.puzzle, fmt)
            if folder:
                assert output is not None
                for suffix, text in files.items():
                    target = Path(output) / f"puzzle-{number:06d}{suffix}"
                    write_output(target, text, reads=reads, model_path=model_file(model))
            elif output is None:
                click.echo(next(iter(files.values())), nl=False)
            else:
                _write_single(output, files, reads, model_file(model))
            written = number
            if folder and not pending:
                following = next(records, None)
                if following is not None:
                    pending.append(following)
    except BaseException:
        # A failed export into a folder leaves no file of an earlier export past what it
        # wrote (they would read as this input's puzzles), nor its own cut-short puzzle.
        if folder:
            assert output is not None
            _remove_earlier_extras(Path(output), written, suffixes(fmt), quiet=True)
        raise
    if folder:
        assert output is not None
        _remove_earlier_extras(Path(output), written, suffixes(fmt))


def _remove_earlier_extras(
    folder: Path, written: int, suffixes: tuple[str, ...], quiet: bool = False
) -> None:
    """Remove the files an earlier export of this format left in ``folder`` past the ``written``
    puzzles of this one (``puzzle-000004.cnf`` … after an export of 11 puzzles, then one of 3):
    they read as this export's puzzles. Only files named as this format's export names them go;
    any other file stays."""
    import re

    pattern = re.compile(r"puzzle-(\d{6})(\.[a-z]+)")
    for path in folder.iterdir():
        found = pattern.fullmatch(path.name)
        if found and found[2] in suffixes and int(found[1]) > written and path.is_file():
            try:
                path.unlink()
            except OSError as err:
                if quiet:  # (the export already failed: its own error is the one to show)
                    continue
                fail(f"export: cannot remove {path}, left by an earlier export: {err.strerror}")


def _write_single(
    output: str, files: dict[str, str], reads: tuple[str, ...], model: str | None
) -> None:
    """One puzzle's files: the first to ``output``, under the name given (``-o p.txt`` is
    p.txt, ``-o /dev/stdout`` standard output); a second (MiniZinc's data) beside it, the
    suffix swapped (``p.mzn`` → ``p.dzn``)."""
    from ..outputs import write_output

    suffixes = list(files)
    main_path = Path(output)
    if len(suffixes) > 1 and main_path.suffix != suffixes[0]:
        fail(f"export: -o {output}: name the model file ending in {suffixes[0]}")
    for number, suffix in enumerate(suffixes):
        target = main_path if number == 0 else main_path.with_suffix(suffix)
        write_output(target, files[suffix], reads=reads, model_path=model)
