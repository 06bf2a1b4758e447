"""``sudoku-cp generate``: puzzles with exactly one solution, streamed as they are made."""

from __future__ import annotations

import contextlib
import sys
import time
from typing import IO, Any

import click

from .app import (
    EXIT_OK,
    EXIT_UNDECIDED,
    box_option,
    fail,
    jobs_cap,
    main,
    path_value,
    scale_option,
)

FORMATS = ("line", "pretty", "rows", "json", "fpuzzles", "jsonl", "csv")


def _count_cap(ctx: click.Context, param: click.Parameter, value: int) -> int:
    from ..generate.options import MAX_COUNT

    if not 1 <= value <= MAX_COUNT:
        raise click.BadParameter(f"{value} is outside 1..{MAX_COUNT:,}")
    return value


@main.command()
@click.option(
    "--model",
    "-m",
    default="classic",
    show_default=True,
    callback=path_value,
    help="Model name or file.",
)
@box_option
@click.option(
    "--size",
    "-s",
    type=int,
    default=9,
    show_default=True,
    help="Grid side, 4 to 25 (above 16: classic grids only, not minimal, not rated).",
)
@click.option(
    "--variant",
    default="none",
    show_default=True,
    help="none | jigsaw (random connected regions) | killer (cages, no givens) | "
    "killer-givens (cages and minimal givens) | rules drawn from the solution: thermo | kropki "
    "| xv | arrow | little-killer | sandwich | skyscraper | x-sum | odd-even | min-max | "
    "renban | whispers | palindrome | between | clone | quadruple | slow-thermo | entropic | "
    "modular | nabner | zipper | double-arrow | lockout | global rules: antiknight | antiking | "
    "nonconsecutive. Join marks, global rules and jigsaw with commas: thermo,arrow.",
)
@click.option(
    "--givens",
    type=click.Choice(["some", "none"]),
    default=None,
    help="For drawn rules: some (carve givens over them; the default) or none (rules are "
    "added until they alone fix the solution).",
)
@click.option(
    "--count",
    "-n",
    type=int,
    default=1,
    show_default=True,
    callback=_count_cap,
    help="How many puzzles to make (at most 1,000,000).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same puzzles.")
@click.option(
    "--symmetry",
    default="none",
    show_default=True,
    help="none | rotational | quarter | diagonal | antidiagonal | mirror | horizontal | "
    "bidiagonal | dihedral (the pattern of givens).",
)
@click.option(
    "--clues",
    default=None,
    metavar="N|LOW-HIGH",
    help="Target clue count, or a range (each puzzle's count drawn in it; with --minimal, "
    "minimal puzzles whose count falls in it).",
)
@click.option(
    "--minimal",
    is_flag=True,
    help="No given, and no drawn rule, can be removed (proven per puzzle; killer-givens' "
    "cages are its frame and are kept).",
)
@click.option(
    "--difficulty",
    default=None,
    help="Easy | Medium | Hard | Unfair | Extreme (the logic rating, HoDoKu's levels; with "
    "rules beyond groups their steps score on our own scale: docs/logic-variants.md); with "
    "--scale se an ER range, LOW-HIGH or one value (e.g. 7.1-8.0), met only by an exact ER "
    "(classic 9x9).",
)
@click.option(
    "--score", default=None, metavar="N|LOW-HIGH", help="Target HoDoKu score (logic rating)."
)
@click.option(
    "--attempts",
    type=int,
    default=1000,
    show_default=True,
    help="Fresh grids one puzzle may try for its targets (at most 100,000).",
)
@click.option(
    "--max-seconds",
    type=float,
    default=60.0,
    show_default=True,
    help="Seconds one puzzle may search for its targets, its rating included (at most "
    "86,400); a rating asked only for the record that does not finish in time is left "
    "out of that puzzle's record.",
)
@click.option(
    "--time-limit", type=float, default=60.0, show_default=True, help="Per backend, cross-check."
)
@click.option(
    "--backends", "-b", default="auto", show_default=True, help="The two judges (auto: choice)."
)
@click.option(
    "--jobs",
    "-j",
    type=int,
    default=1,
    show_default=True,
    callback=jobs_cap,
    help="Worker processes (at most 4 per usable core); the same seed makes the same puzzles.",
)
@click.option(
    "--format",
    "-f",
    "out_format",
    type=click.Choice(FORMATS),
    default="line",
    show_default=True,
    help="line (or the f-puzzles link for rules beyond groups), pretty, rows or json (grids "
    "of groups only), fpuzzles (JSON a line), jsonl or csv (records with the rating).",
)
@click.option(
    "--output",
    "-o",
    default=None,
    callback=path_value,
    help="Write here instead of standard output.",
)
@click.option(
    "--certify",
    default=None,
    metavar="DIR",
    callback=path_value,
    help="A checked DRAT proof per puzzle.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@scale_option
def generate(
    model: str,
    box: str | None,
    size: int,
    variant: str,
    givens: str | None,
    count: int,
    seed: int,
    symmetry: str,
    clues: str | None,
    minimal: bool,
    difficulty: str | None,
    score: str | None,
    attempts: int,
    max_seconds: float,
    time_limit: float,
    backends: str,
    jobs: int,
    out_format: str,
    output: str | None,
    certify: str | None,
    quiet: bool,
    scale: str = "hodoku",
) -> None:
    """Generate COUNT puzzles with exactly one solution, each cross-checked by two paradigms.

    Puzzles stream out in order as they are made. Exit 0 when all were made, 2 for unusable
    options, 3 when a target (clues, difficulty, minimal) was not reached within --attempts
    or --max-seconds (the puzzles made before it are kept).
    """
    from ..generate import OptionError, Options, Unreachable
    from ..generate import generate as run
    from ..generate.options import parse_range
    from ..generate.output import GRID_FORMATS, csv_header, text
    from ..harness import resolve_backends

    if jobs is not None and jobs < 0:
        fail("generate: --jobs must be 0 or more")
    judges = None if backends == "auto" else tuple(resolve_backends(backends))
    if judges is not None and len(judges) < 2:
        fail("generate: --backends needs two backends (two paradigms judge every puzzle)")
    try:
        options = Options(
            model=model,
            size=size,
            box=box,
            variant=variant,
            givens=givens,
            seed=seed,
            symmetry=symmetry,
            clues=parse_range(clues, "--clues") if clues is not None else None,
            minimal=minimal,
            difficulty=difficulty,
            score=parse_range(score, "--score") if score is not None else None,
            attempts=attempts,
            seconds=max_seconds,
            time_limit=time_limit,
            backends=judges,
            certify=certify,
            # Only the records show the rating; other forms skip its cost unless targeted.
            rate=out_format in ("jsonl", "csv"),
            scale=scale,
        )
        options.check()
        from ..generate.make import base_model

        base_model(options)
    except OptionError as err:
        fail(f"generate: {err}")
    if out_format in GRID_FORMATS and variant != "none":
        fail(
            f"generate: --format {out_format} cannot show {variant} rules; "
            "use line, fpuzzles, jsonl or csv"
        )
    if certify is not None:  # (an empty name too: prepare_folder refuses it)
        from ..certify.batch import prepare_folder, refuse_used_folder

        prepare_folder(certify)
    progress = _Progress(count, enabled=not quiet and sys.stderr.isatty())
    status = EXIT_OK
    with contextlib.ExitStack() as closing:
        if certify:
            from pathlib import Path

            from ..batch.output import FolderLock
            from ..certify.certificate import remove_stale_temporaries

            # One run at a time in the folder (certificates are named by position), then
            # never replace another run's; a killed run's half-written files are this run's.
            folder = FolderLock(Path(certify))
            closing.callback(folder.release)
            refuse_used_folder(certify, resumable=False)  # (generate has no --resume)
            if folder.fd is not None:
                remove_stale_temporaries(Path(certify))
        stream: IO[str] | Any = sys.stdout
        if output is not None:
            from ..outputs import model_file, output_file

            # Streamed in place (puzzles made before a stop stay), after the checks that
            # refuse the model file as output and a second run writing the same file.
            stream = closing.enter_context(
                output_file(output, model_path=model_file(model), streamed=True)
            )
        try:
            if out_format == "csv":
                stream.write(csv_header(scale))
            try:
                for made in run(options, count, jobs=jobs or 1):
                    stream.write(text(made, out_format, options))
                    stream.flush()
                    progress.step()
            except Unreachable as err:
                progress.done()
                click.echo(f"sudoku-cp: {err}", err=True)
                status = EXIT_UNDECIDED
        finally:
            progress.done()
    sys.exit(status)


class _Progress:
    """A one-line progress bar on standard error: made / asked, rate, ETA."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.made = 0
        self.start = time.perf_counter()
        self.shown = 0.0

    def step(self) -> None:
        self.made += 1
        now = time.perf_counter()
        if not self.enabled or (now - self.shown < 0.2 and self.made < self.total):
            return
        self.shown = now
        rate = self.made / max(now - self.start, 1e-9)
        eta = (self.total - self.made) / rate if rate else 0.0
        width = 30
        filled = int(width * self.made / self.total)
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(f"\r[{bar}] {self.made}/{self.total} {rate:.1f}/s ETA {eta:.0f}s ")
        sys.stderr.flush()

    def done(self) -> None:
        if self.enabled and self.made:
            sys.stderr.write("\n")
            self.enabled = False
