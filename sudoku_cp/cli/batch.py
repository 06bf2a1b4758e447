"""``sudoku-cp check`` and ``count``: the cross-check harness over many puzzles."""

from __future__ import annotations

import contextlib
import itertools
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from ..errors import ClusterLost
from ..limits import MAX_LIMIT, MAX_SEED, MAX_TIME_LIMIT
from ..stopping import StopSignals
from .app import (
    EXIT_CLUSTER_LOST,
    EXIT_INTERRUPTED,
    EXIT_NEGATIVE,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_UNDECIDED,
    STOP_KEY,
    Seconds,
    box_option,
    fail,
    jobs_cap,
    main,
    model_option,
    one_line,
    one_state_puzzle,
    parse_option_pairs,
    path_value,
    puzzle_state,
    refuse_above,
    resolve_limit,
    scale_option,
    scheduler_option,
    starting_line,
    state_option,
)

# --- check and count: the cross-check harness over many puzzles ---------------------------------
DEFAULT_TIME_LIMIT = 60.0
CHECK_FORMATS = ("table", "jsonl", "csv")


def _batch_options(func: Any) -> Any:
    """The options `check` and `count` share (applied bottom-up, so listed in reverse)."""
    decorators: list[Callable[[Any], Any]] = [
        click.option(
            "-b",
            "--backends",
            "backend_list",
            default=None,
            metavar="A,B,C",
            help="Backends to cross-check: names, 'all' (every available one) or 'auto' "
            "[default: auto — per puzzle, the two fastest paradigms for its size that take "
            "its rules: backtrack and sat up to 16x16, sat and cpsat above and for lines, "
            "dots and sums (thermometers, arrows, kropki …); each record "
            "lists the backends that judged it].",
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
            help="Per backend per puzzle; a worker that overruns is stopped "
            f"(at most {MAX_TIME_LIMIT:,.0f}).",
        ),
        click.option(
            "-j",
            "--jobs",
            type=click.IntRange(min=0),
            default=None,
            callback=jobs_cap,
            help="Worker processes [default: every core; 0 = in this process, "
            "where only the backends' own time limits apply; at most 4 per core].",
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
            "--input-format",
            default="auto",
            show_default=True,
            help="How to read inputs: auto, line, grid, rows, json, jsonl, csv, iss, candidates "
            "(auto also reads f-puzzles JSON and links, ISS constraint strings, 729-symbol "
            "candidate grids, regions/variant columns and killer cages).",
        ),
        scheduler_option,
        click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary."),
        state_option,
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _metamorphic_cap(ctx: click.Context, param: click.Parameter, value: int) -> int:
    from ..batch.items import MAX_METAMORPHIC

    return refuse_above(value, MAX_METAMORPHIC)


def per_backend_options(pairs: Sequence[str]) -> dict[str, dict[str, str]]:
    """``["backtrack.strategy=mrv"]`` → ``{"backtrack": {"strategy": "mrv"}}``."""
    from ..backends import backend_class

    options: dict[str, dict[str, str]] = {}
    for key, value in parse_option_pairs(pairs).items():
        backend, dot, name = key.partition(".")
        if not dot or not backend or not name:
            raise click.BadParameter(
                f"expected BACKEND.KEY=VALUE, got {key}={value}", param_hint="--option"
            )
        options.setdefault(backend_class(backend).name, {})[name] = value
    return options


def _inputs_or_bundled(inputs: Sequence[str]) -> list[str]:
    """INPUT arguments, with the name of a bundled sample (e.g. ``forum-hardest``) as its file."""
    from ..datasets import bundled_file

    return [str(bundled_file(arg) or arg) for arg in inputs]


def _run_batch_command(command: str, inputs: Sequence[str], **settings: Any) -> Any:
    """Run a batch and print its summary; exit 130 (Ctrl-C) or 143 (SIGTERM) with how to resume.

    ``settings`` are :func:`_batch_and_summary`'s keywords. The signals are taken before
    anything else (the imports of the backends, hashing the inputs, reading the output for
    --resume, opening the pool): a signal at any moment ends the command with one line and its
    exit status.
    """
    summary = None
    began = click.get_current_context().meta.get(STOP_KEY)  # taken by the group, normally
    with contextlib.nullcontext(began) if began is not None else StopSignals() as stop:
        try:
            summary = _batch_and_summary(command, inputs, stop, **settings)
        except KeyboardInterrupt as err:
            _stopped(err, stop, settings.get("output"))
        except ClusterLost as err:
            output = settings.get("output")
            done = getattr(err.summary, "checked", 0)
            hint = (
                f" to {output} — to finish, run the same command again with --resume "
                "(on a cluster, or without --scheduler here)"
                if output
                else " — give --output FILE to be able to resume"
            )
            click.echo(
                f"sudoku-cp: error: {err}; after {done} puzzles, every finished record "
                f"written{hint}",
                err=True,
            )
            sys.exit(EXIT_CLUSTER_LOST)
    return summary


def _stopped(err: KeyboardInterrupt, stop: StopSignals, output: str | None) -> NoReturn:
    """The one line for a run stopped by Ctrl-C or SIGTERM, and its exit status. (Nothing is
    imported here: the signal may have come while the batch modules were being imported.)"""
    terminated = stop.signum == signal.SIGTERM
    what = "terminated (SIGTERM)" if terminated else "interrupted"
    resume = " — to finish, run the same command again with --resume"
    summary = getattr(err, "summary", None)  # a batch.Interrupted: the run had begun
    if summary is not None:
        where = f" to {output}" if output else ""
        hint = resume if output else " — give --output FILE to be able to resume"
        line = f"{what} after {summary.checked} puzzles, every finished record written{where}{hint}"
    elif stop.phase == "finished":
        line = f"{what} while showing the summary; the run had finished, every record written"
    elif stop.phase == "running":  # a second signal, while the run closed
        line = f"{what} while the run closed; every finished record kept{resume if output else ''}"
    else:
        line = starting_line(stop.signum).removeprefix("sudoku-cp: ")
    sidecar_error = getattr(summary, "sidecar_error", None)
    if sidecar_error:
        click.echo(f"sudoku-cp: warning: {sidecar_error}", err=True)
    click.echo(f"sudoku-cp: {line}", err=True)
    sys.exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)


def _batch_and_summary(
    command: str,
    inputs: Sequence[str],
    stop: StopSignals,
    *,
    backend_list: str | None,
    model: Any,
    box: str | None,
    limit: int | None,
    time_limit: float,
    jobs: int | None,
    option_pairs: Sequence[str],
    input_format: str,
    quiet: bool,
    scheduler: str | None,
    out_format: str,
    output: str | None,
    resume: bool,
    metamorphic: int = 0,
    seed: int = 0,
    certify: str | None = None,
    shrink: bool = False,
    certify_time_limit: float | None = None,
    rate: bool | str = False,
    state: str | None = None,
) -> Any:
    if state is not None:
        if resume or scheduler is not None:
            raise click.UsageError(
                "--state goes with one puzzle checked here, not with --resume or --scheduler"
            )
        line, rules = _state_input(inputs, model, box, input_format, state, command)
        return _batch_and_summary(
            command, [line], stop, backend_list=backend_list, model=rules, box=None,
            limit=limit, time_limit=time_limit, jobs=jobs, option_pairs=option_pairs,
            input_format="line", quiet=quiet, scheduler=None, out_format=out_format,
            output=output, resume=False, metamorphic=metamorphic, seed=seed, certify=certify,
            shrink=shrink, certify_time_limit=certify_time_limit, rate=rate,
        )  # fmt: skip
    from rich.console import Console

    from ..batch import BatchOptions, CheckConfig, default_jobs, run_batch, tune_gc
    from ..model import Model, load_model

    if resume and output is None:
        raise click.UsageError("--resume needs --output FILE (the file to continue)")
    if output is not None and not output.strip():
        raise click.UsageError("--output needs a file name, not an empty one")
    if scheduler is not None and jobs == 0:
        raise click.UsageError("--jobs 0 (in this process) and --scheduler contradict each other")
    if list(inputs).count("-") > 1:
        raise click.UsageError("standard input ('-') is named twice; it can be read only once")
    config = CheckConfig.make(
        backend_list,
        limit=limit,
        time_limit=time_limit,
        model=model if isinstance(model, Model) else load_model(model, box=box),
        options=per_backend_options(option_pairs),
        metamorphic=metamorphic,
        seed=seed,
        certify=certify,
        shrink=shrink,
        **({} if certify_time_limit is None else {"certify_time_limit": certify_time_limit}),
        rate=rate,
    )
    records_on_stdout = output is None
    options = BatchOptions(
        inputs=_inputs_or_bundled(inputs),
        config=config,
        jobs=default_jobs() if jobs is None else jobs,
        fmt=out_format,
        output=Path(output) if output else None,
        resume=resume,
        progress=not quiet and sys.stderr.isatty(),
        input_format=input_format,
        command=command,
        argv=sys.argv[1:],
        in_order=command == "count" and output is None,
        scheduler=scheduler,
    )
    restore_gc = tune_gc()  # for the batch's reading, writing (and checking with --jobs 0)
    try:
        summary = run_batch(options, stop=stop)
    finally:
        restore_gc()
    stop.end_run()
    if summary.sidecar_error is not None:
        click.echo(
            f"sudoku-cp: warning: {summary.sidecar_error}: every record is written to {output}, "
            "but its sidecar still describes the run as unfinished, without its summary",
            err=True,
        )
    machine_output = records_on_stdout and out_format in ("jsonl", "csv", "count")
    if not quiet and (command == "check" or summary.total > 1):
        summary.render(Console(stderr=machine_output or command == "count", highlight=False))
    return summary


def _state_input(
    inputs: Sequence[str], model: str, box: str | None, input_format: str, state: str, command: str
) -> tuple[str, Any]:
    """The one puzzle of ``inputs`` narrowed by ``--state``, as a line and the model that
    reads it back (the puzzle's rules with the state's marks as given candidates): the batch
    checks that line as puzzle text given on the command line."""
    from ..formats import read_input
    from ..formats.state import state_puzzle
    from ..model import load_model

    found = []
    rules = load_model(model, box=box)
    for arg in _inputs_or_bundled(inputs):
        found += list(itertools.islice(read_input(arg, rules, input_format), 2))
        one_state_puzzle(len(found), state, command)
    if not found:
        fail(f"{command}: --state needs a puzzle, and the input holds none")
    record = found[0]
    if record.puzzle is None:
        fail(f"puzzle {record.id}: {one_line(str(record.error))}")
    narrowed = state_puzzle(record.puzzle, puzzle_state(record.puzzle, state))
    return narrowed.to_line(), narrowed.model


def _output_options(default: str) -> Callable[[Any], Any]:
    """``--output``, ``--format`` and ``--resume``, as `check` and `count` share them."""

    def apply(func: Any) -> Any:
        decorators: list[Callable[[Any], Any]] = [
            click.option(
                "-o",
                "--output",
                default=None,
                metavar="FILE",
                callback=path_value,
                help="Write records here (with FILE.meta.json beside it) instead of stdout.",
            ),
            click.option(
                "-f",
                "--format",
                "out_format",
                type=click.Choice(CHECK_FORMATS),
                default=None,
                help="Records as a table, JSON Lines or CSV [default: from the --output "
                f"suffix (.jsonl, .csv), else {default}].",
            ),
            click.option(
                "--resume",
                is_flag=True,
                help="Continue --output: skip puzzles already recorded, drop a torn last line.",
            ),
        ]
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


def _record_format(out_format: str | None, output: str | None, default: str) -> str:
    """The records' format: as given, else from the output's suffix, else ``default``."""
    if out_format is not None:
        return out_format
    suffix = (output or "").lower()
    if suffix.endswith(".csv"):
        return "csv"
    if suffix.endswith((".jsonl", ".json", ".ndjson")):
        return "jsonl"
    return "table" if output else default


@main.command()
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@_batch_options
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=2, max=MAX_LIMIT),
    default=2,
    show_default=True,
    help="Solutions each backend looks for (2 decides uniqueness; more finds more witnesses).",
)
@_output_options("table")
@click.option(
    "--metamorphic",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    metavar="K",
    callback=_metamorphic_cap,
    help="Also cross-check K random transforms of each puzzle (relabelled digits, "
    "swapped rows, bands, columns, stacks, transposed — only moves that keep the "
    "model's groups); they must agree with the original, else the verdict is "
    "disagreement, naming the transform (at most 1,000).",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=0,
    show_default=True,
    help="Chooses the --metamorphic transforms: the same seed and puzzle give the same transforms.",
)
@click.option(
    "--certify",
    default=None,
    metavar="DIR",
    callback=path_value,
    help="Prove every unique and none verdict with a DRAT proof checked by dratify, one "
    "certificate file per puzzle in DIR (made if missing); records gain 'certified' "
    "(needs pip install 'sudoku-cp[certify]'; see `sudoku-cp certificate verify`).",
)
@click.option(
    "--certify-time-limit",
    type=Seconds(min=0, min_open=True, max=MAX_TIME_LIMIT),
    default=None,
    metavar="SECONDS",
    help="Seconds one certificate may take, proof and check [default: 60]; past it the "
    "record says certified: false, timeout: true.",
)
@click.option(
    "--shrink",
    "shrink_found",
    is_flag=True,
    help="Shrink every disagreement (and failed --metamorphic check) to a small reproducer: "
    "JSON Lines records gain 'shrunk' (the puzzle, its givens, the solver calls; see "
    "`sudoku-cp shrink`).",
)
@click.option(
    "--rate",
    "rate_unique",
    is_flag=True,
    help="Rate every unique puzzle (as `sudoku-cp rate`), on HoDoKu's scale or --scale se, "
    "within --time-limit: JSON Lines records gain 'rating' (level, score, hardest technique; "
    "or SE's er, ep, ed), CSV rating.* columns, the table a rating column; the summary counts "
    "the levels (SE: the ER bands).",
)
@scale_option
def check(
    inputs: tuple[str, ...],
    backend_list: str | None,
    model: str,
    box: str | None,
    time_limit: float,
    jobs: int | None,
    option_pairs: tuple[str, ...],
    input_format: str,
    scheduler: str | None,
    quiet: bool,
    limit: int,
    output: str | None,
    out_format: str | None,
    resume: bool,
    metamorphic: int,
    seed: int,
    certify: str | None,
    shrink_found: bool,
    certify_time_limit: float | None,
    rate_unique: bool,
    state: str | None,
    scale: str = "hodoku",
) -> None:
    """Cross-check every puzzle of the INPUTs across backends and say whether it is unique.

    INPUT is puzzle text, an f-puzzles, SudokuPad or ISS link, a file (any format, f-puzzles JSON
    included), a bundled sample's name (e.g. forum-hardest) or - for standard input. Every
    solution a backend returns is checked against the puzzle; the verdict per puzzle is
    unique, multiple (two witnesses), none, invalid (the reason), disagreement (naming the
    backend and what each said) or undecided (no backend finished).

    Records are written as each puzzle finishes (completion order; each has its id and its
    input position `index`). Exit 0 every puzzle unique; 1 some multiple, none or invalid;
    3 some disagreement or undecided; 2 unusable invocation; 4 the Dask scheduler was lost
    mid-run; 130 interrupted (Ctrl-C), 143 stopped by SIGTERM (these three keep every finished
    record; --resume continues).

    \b
    Metamorphic check (--metamorphic K, --seed N): each decided puzzle is also transformed K
    times at random — digits relabelled, rows swapped within a band, bands swapped, columns
    within a stack, stacks, rows or columns reversed, transposed; only the moves that map every
    group of the model onto a group are used, so x, hyper and latin get their own — and each
    transformed puzzle is cross-checked too. Its verdict and exact count must equal the
    original's and its solutions must map back onto the original's; a mismatch makes the
    verdict disagreement (exit 3) and the note names the transform. A transform no backend
    decided in time is counted as inconclusive. JSON Lines records gain a "metamorphic"
    field: {"transforms": K, "agreed": …, "inconclusive": …}.

    \b
    Rating (--rate, --scale hodoku|se): each unique puzzle is rated as `sudoku-cp rate` rates
    it. On SE's scale a puzzle that is not classic 9x9 is not rated (its record says why) and
    a rating that reaches --time-limit gives lower bounds (written >=x.y).
    """
    if scale != "hodoku" and not rate_unique:
        fail(f"check: --scale {scale} is the scale of --rate; give --rate too")
    if certify_time_limit is not None and certify is None:
        fail("check: --certify-time-limit is the time of --certify's proofs; give --certify too")
    summary = _run_batch_command(
        "check",
        inputs,
        backend_list=backend_list,
        model=model,
        box=box,
        limit=limit,
        time_limit=time_limit,
        jobs=jobs,
        option_pairs=option_pairs,
        input_format=input_format,
        scheduler=scheduler,
        quiet=quiet,
        out_format=_record_format(out_format, output, "table"),
        output=output,
        resume=resume,
        metamorphic=metamorphic,
        seed=seed,
        certify=certify,
        shrink=shrink_found,
        certify_time_limit=certify_time_limit,
        rate=scale if rate_unique else False,
        state=state,
    )
    sys.exit(summary.exit_status)


@main.command()
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@_batch_options
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=1, max=MAX_LIMIT),
    default=None,
    help=f"Count up to this many solutions [default: 1000; at most {MAX_LIMIT:,}].",
)
@click.option(
    "-a",
    "--all",
    "count_all",
    is_flag=True,
    help=f"Count every solution, up to {MAX_LIMIT:,} (more: 'at least {MAX_LIMIT:,}', exit 3); "
    "above 16x16 up to 8,100,000 cells of solutions (25x25: 12,960), so memory stays bounded.",
)
@_output_options("a line per puzzle")
def count(
    inputs: tuple[str, ...],
    backend_list: str | None,
    model: str,
    box: str | None,
    time_limit: float,
    jobs: int | None,
    option_pairs: tuple[str, ...],
    input_format: str,
    scheduler: str | None,
    quiet: bool,
    limit: int | None,
    count_all: bool,
    output: str | None,
    out_format: str | None,
    resume: bool,
    state: str | None,
) -> None:
    """How many solutions each puzzle of the INPUTs has: exactly N, or at least N.

    The count is cross-checked like `check`: every solution is validated and the backends'
    counts compared. Exit 0 when every count is settled (exact, or at least the limit), 1 when
    some input is not a puzzle, 3 on a disagreement, when no backend finished or when a time
    limit cut a count short (--all, or fewer than --limit found) or --all reached its cap of
    100,000 solutions, 2 for unusable options.

    Without --output the lines (or --format records) come in input order, each as soon as
    every puzzle before it is counted; with --output FILE, records as in `check` (table, JSON
    Lines or CSV, FILE.meta.json beside it, --resume), in completion order with their index.
    """
    from ..verdict import Verdict

    summary = _run_batch_command(
        "count",
        inputs,
        backend_list=backend_list,
        model=model,
        box=box,
        limit=resolve_limit(limit, count_all, default=1000),
        time_limit=time_limit,
        jobs=jobs,
        option_pairs=option_pairs,
        input_format=input_format,
        scheduler=scheduler,
        quiet=quiet,
        out_format=_record_format(out_format, output, "count"),
        output=output,
        resume=resume,
        state=state,
    )
    verdicts = summary.verdicts
    # a count cut short by the time limit ("at least N", below the limit) is undecided too
    # … and so is a count --all stopped at its cap (MAX_LIMIT) with more solutions left
    capped = count_all and summary.capped
    if (
        verdicts.get(Verdict.DISAGREEMENT)
        or verdicts.get(Verdict.UNDECIDED)
        or summary.cut_short
        or capped
    ):
        sys.exit(EXIT_UNDECIDED)
    sys.exit(EXIT_NEGATIVE if verdicts.get(Verdict.INVALID) else EXIT_OK)
