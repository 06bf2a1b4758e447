"""``sudoku-cp bench`` and ``plot``: comparing paradigms, and redrawing the figures."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import click

from ..limits import MAX_LIMIT, MAX_SEED, MAX_TIME_LIMIT
from ..stopping import StopSignals
from .app import (
    EXIT_INTERRUPTED,
    EXIT_NEGATIVE,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_UNDECIDED,
    Seconds,
    box_option,
    jobs_cap,
    main,
    path_value,
    refuse_above,
    scheduler_option,
)


def _repeat_cap(ctx: click.Context, param: click.Parameter, value: int) -> int:
    from ..bench.record import MAX_REPEAT

    return refuse_above(value, MAX_REPEAT)


def _max_puzzles_cap(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    from ..bench.propagation_run import MAX_PUZZLES

    return None if value is None else refuse_above(value, MAX_PUZZLES)


# --- bench and plot: comparing paradigms ----------------------------------------------------------
@main.command()
@click.argument("datasets", nargs=-1)
@click.option(
    "--list",
    "list_sets",
    is_flag=True,
    help="List the bundled sets with their puzzle counts, and exit.",
)
@click.option(
    "-b",
    "--backends",
    "spec_text",
    default=None,
    metavar="SPEC,…",
    help="What to compare: NAME[:STRATEGY], comma-separated; NAME:all is every "
    "strategy (e.g. backtrack:naive,backtrack:mrv,backtrack,cpsat); "
    "'all' is every available backend [default: per dataset, the two fastest "
    "paradigms for its size and rules (as check chooses), default options].",
)
@click.option(
    "-O",
    "--option",
    "option_pairs",
    multiple=True,
    metavar="BACKEND.KEY=VALUE",
    help="A backend option for every spec of that backend, e.g. -O cpsat.workers=1.",
)
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=1, max=MAX_LIMIT),
    default=2,
    show_default=True,
    help="Solutions each backend looks for: 1 solves, 2 checks uniqueness.",
)
@click.option(
    "-r",
    "--repeat",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    callback=_repeat_cap,
    help="Measurements per puzzle and backend (after an unmeasured warm-up; at most 1,000).",
)
@click.option(
    "-t",
    "--time-limit",
    type=Seconds(min=0, min_open=True, max=MAX_TIME_LIMIT),
    default=5.0,
    show_default=True,
    metavar="SECONDS",
    help="The same for every backend, per puzzle; a worker that overruns is stopped "
    "(the default keeps a default bench of any bundled set near a minute).",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    callback=jobs_cap,
    help="Worker processes (more than the idle cores makes timings noisy; at most 4 per core).",
)
@scheduler_option
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False),
    default=None,
    callback=path_value,
    help="Folder for results.csv, results.parquet, record.json and the summary "
    "[default: bench-results/DATE-TIME].",
)
@click.option(
    "--baseline",
    default=None,
    metavar="SPEC",
    help="What speed ratios compare with [default: cpsat if measured, else the first].",
)
@click.option(
    "-m",
    "--model",
    default="classic",
    show_default=True,
    callback=path_value,
    help="Rule set for puzzle files (bundled sets are classic).",
)
@box_option
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=1,
    show_default=True,
    help="Seeds the run order (and backends with a seed option).",
)
@click.option("--no-warmup", is_flag=True, help="Measure cold workers too (not recommended).")
@click.option("--plot", "draw", is_flag=True, help="Also draw the figures (needs the plot extra).")
@click.option(
    "--table",
    "table_style",
    type=click.Choice(["text", "markdown"]),
    default="text",
    show_default=True,
    help="How to print the summary.",
)
@click.option(
    "--replay",
    default=None,
    metavar="RECORD",
    callback=path_value,
    help="Run the bench a saved record (or its folder) describes, and compare "
    "statuses and counters with its table.",
)
@click.option(
    "--propagation",
    is_flag=True,
    help="Instead of backends: what each propagation level (fc, singles, gac, sac) and each "
    "CNF encoding under unit propagation, failed literals and CDCL decides without search, "
    "per dataset (docs/benchmarks/propagation.md).",
)
@click.option(
    "--max-puzzles",
    type=click.IntRange(min=1),
    default=None,
    callback=_max_puzzles_cap,
    help="With --propagation: the first N puzzles of each dataset [default: 1,000; at most "
    "1,000,000].",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress line.")
def bench(
    datasets: tuple[str, ...],
    list_sets: bool,
    spec_text: str | None,
    option_pairs: tuple[str, ...],
    limit: int,
    repeat: int,
    time_limit: float,
    jobs: int,
    scheduler: str | None,
    output: str | None,
    baseline: str | None,
    model: str,
    box: str | None,
    seed: int,
    no_warmup: bool,
    draw: bool,
    table_style: str,
    replay: str | None,
    propagation: bool,
    max_puzzles: int | None,
    quiet: bool,
) -> None:
    """Compare backends on DATASETs (puzzle files or bundled sets; see --list).

    Every puzzle x backend x repeat is measured, every answer validated and cross-checked;
    the tidy table (CSV, Parquet with pyarrow) and the experiment record (JSON) go to --output,
    a summary per dataset to standard output. Exit 0, or 3 when some backend gave a wrong or
    contradicted answer, 1 when a --replay differs from its record, 2 for bad arguments,
    130 (143) when Ctrl-C (SIGTERM) stopped it: the puzzles measured in full are written.
    """
    import datetime

    _named("--output", output)
    _named("--replay", replay)

    from ..bench import plots, report
    from ..bench import record as benchrecord
    from ..bench import run as benchmod
    from ..bench.specs import parse_option_pairs

    if list_sets:
        _list_bundled()
        return
    if propagation:
        _refuse_with_propagation(click.get_current_context())
        _propagation(
            datasets, max_puzzles or 1000, time_limit, output, model, box, draw, table_style, quiet
        )
        return
    if max_puzzles is not None:
        raise click.UsageError("--max-puzzles goes with --propagation")
    old = None
    reads: list[str] = []  # what a replay compares with: never an output file of this run
    if replay:
        old_record = benchrecord.load_record(replay)
        config = benchrecord.config_from_record(old_record)
        old_table = Path(replay) if os.path.isdir(replay) else Path(replay).parent
        record_file = Path(replay) / "record.json" if os.path.isdir(replay) else Path(replay)
        reads = [str(p) for p in (record_file, *(old_table / n for n in benchrecord.BENCH_FILES))]
        if os.path.isfile(old_table / "results.csv"):
            old = report.load_results(old_table)
    else:
        config = benchrecord.BenchConfig(
            datasets=list(datasets),
            backends=None if spec_text is None else [spec_text],
            options=parse_option_pairs(option_pairs),
            limit=limit,
            repeat=repeat,
            time_limit=time_limit,
            jobs=jobs,
            warmup=not no_warmup,
            model=model,
            box=box,
            seed=seed,
            baseline=baseline,
        )
    config.scheduler = scheduler
    if draw:
        plots.check_plotting()  # fail before a long run, not after it
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    outdir = Path(output) if output else Path("bench-results") / stamp
    show = not quiet and sys.stderr.isatty()

    def progress(done: int, total: int, name: str) -> None:
        if show:
            click.echo(f"\r{name}: {done}/{total} measurements", nl=False, err=True)

    made = [folder for folder in (outdir.parent, outdir) if not folder.exists()]
    lock = benchrecord.claim_output(
        outdir, config, reads
    )  # held until the bench has written its files
    stop = StopSignals()  # Ctrl-C or SIGTERM: the puzzles measured in full are still written
    try:
        with stop:
            run = benchmod.run_bench(config, progress=progress)
            if run.interrupted and not run.rows:  # (no folder of an empty table)
                raise KeyboardInterrupt
            stop.busy = stop.closing = True  # a signal now waits for the files (a second one:
            if show:  # the files are cut short, the lock still released)
                click.echo("", err=True)
            summaries = report.summarize(run.rows, run.record["options"]["baseline"])
            text = report.render_summary(summaries, "text", run.record)
            markdown = report.render_summary(summaries, "markdown", run.record)
            from ..outputs import write_output

            with _writing(outdir):
                plots.remove_figures(outdir / "plots")  # an earlier table's, if any
                paths = benchrecord.write_bench(run, outdir)
                # (The run holds the folder's lock: the summaries need none of their own.)
                write_output(outdir / "summary.txt", text, lock=False)
                write_output(outdir / "summary.md", markdown, lock=False)
                if draw and run.rows:
                    plots.plot_results(report.load_results(outdir), outdir / "plots")
            stop.end_run()
    except KeyboardInterrupt:  # before the measurements began, or a second signal while writing
        _stopped_outside_the_run(stop, outdir, writing=stop.closing)
    finally:
        lock.release(remove_if_empty=True)
        _remove_if_empty(made)
    click.echo(text if table_style == "text" else markdown, nl=False)
    click.echo(
        f"\nwrote {', '.join(p.name for p in paths.values())}, summary.txt/.md"
        f"{', plots/' if draw and run.rows else ''} in {outdir}"
        f"  (redraw: sudoku-cp plot {outdir})"
    )
    if run.interrupted:
        import signal

        stopped = run.record["interrupted"]
        what = "terminated (SIGTERM)" if stop.signum == signal.SIGTERM else "interrupted"
        click.echo(
            f"sudoku-cp: {what} after {stopped['measurements']:,} of {stopped['of']:,} "
            f"measurements; the {stopped['puzzles_kept']:,} puzzles measured in full are in "
            f"{outdir} (the record says it was interrupted)",
            err=True,
        )
        sys.exit(EXIT_TERMINATED if stop.signum == signal.SIGTERM else EXIT_INTERRUPTED)
    status = EXIT_OK
    if any(s.disagreements or s.problems for s in summaries):
        click.echo(
            "sudoku-cp: some backend gave a wrong or contradicted answer (see DISAGREEMENTS above)",
            err=True,
        )
        status = EXIT_UNDECIDED
    if old is not None:
        differences = report.compare_runs(old.rows, run.rows, run.counters)
        if differences:
            click.echo(f"replay: {len(differences)} difference(s) in statuses or counters:")
            for line in differences[:20]:
                click.echo(f"  {line}")
            status = max(status, EXIT_NEGATIVE)
        else:
            click.echo(
                f"replay: all {len(run.rows)} measurements have the record's statuses and counters"
            )
    sys.exit(status)


def _stopped_outside_the_run(stop: StopSignals, outdir: Path, *, writing: bool) -> NoReturn:
    """The line and exit status of a bench stopped where no measurement can be kept: while it
    started (reading the datasets, the workers' warm-up), or by a second signal while its files
    were written."""
    import signal

    terminated = stop.signum == signal.SIGTERM
    what = "terminated (SIGTERM)" if terminated else "interrupted"
    where = (
        f"while its files were written; those in {outdir} may be cut short"
        if writing
        else "before any puzzle was measured in full; nothing written"
    )
    click.echo(f"sudoku-cp: {what} {where}", err=True)
    sys.exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)


def _remove_if_empty(made: list[Path]) -> None:
    """Remove the folders this run made (innermost first) when it wrote nothing into them: a
    bench refused after claiming its output (bad --box, an unknown backend) leaves no empty
    bench-results/DATE-TIME behind."""
    for folder in reversed(made):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


_NOT_WITH_PROPAGATION = {
    "spec_text": "--backends",
    "option_pairs": "--option",
    "limit": "--limit",
    "repeat": "--repeat",
    "jobs": "--jobs",
    "scheduler": "--scheduler",
    "baseline": "--baseline",
    "seed": "--seed",
    "no_warmup": "--no-warmup",
    "replay": "--replay",
}


def _refuse_with_propagation(ctx: click.Context) -> None:
    """Options of a backend bench have no meaning with --propagation: refused, not ignored."""
    from click.core import ParameterSource

    given = [
        flag
        for name, flag in _NOT_WITH_PROPAGATION.items()
        if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
    ]
    if given:
        raise click.UsageError(f"{', '.join(given)} cannot be used with --propagation")


def _propagation(
    datasets: tuple[str, ...],
    max_puzzles: int,
    time_limit: float,
    output: str | None,
    model: str,
    box: str | None,
    draw: bool,
    table_style: str,
    quiet: bool,
) -> None:
    """bench --propagation: measure, print the table, write the CSV (and figure)."""
    import datetime

    from ..bench import plots
    from ..bench import propagation_run as pr
    from ..outputs import write_output

    if draw:
        plots.check_plotting()
    config = pr.PropagationConfig(list(datasets), max_puzzles, time_limit, model, box)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    outdir = Path(output) if output else Path("bench-results") / f"propagation-{stamp}"
    show = not quiet and sys.stderr.isatty()

    def progress(name: str, done: int, total: int) -> None:
        if show:
            click.echo(f"\r{name}: method {done + 1}/{total}   ", nl=False, err=True)

    run = pr.run_propagation(config, progress)
    if show:
        click.echo("", err=True)
    summaries = pr.summarize(run.rows)
    text = pr.render(summaries, table_style)
    reads = [d["path"] for d in run.record["datasets"]]
    import json

    with _writing(outdir):
        outdir.mkdir(parents=True, exist_ok=True)
        write_output(outdir / "propagation.csv", pr.csv_text(run.rows), reads=reads)
        write_output(outdir / "summary.md", pr.render(summaries, "markdown"), reads=reads)
        write_output(outdir / "record.json", json.dumps(run.record, indent=1) + "\n", reads=reads)
        if draw:
            pr.plot(summaries, outdir / "propagation.png")
    click.echo(text, nl=False)
    for dataset in run.record["datasets"]:
        if dataset["rejected"]:
            click.echo(
                f"{dataset['name']}: {dataset['rejected']} line(s) are not puzzles and were not "
                f"measured (the first: {dataset['first_rejected']})"
            )
    click.echo(
        f"\nwrote propagation.csv, summary.md, record.json{', propagation.png' if draw else ''}"
        f" in {outdir}"
    )
    if any(s.wrong for s in summaries):
        click.echo("sudoku-cp: some answer failed its check (see the 'wrong' column)", err=True)
        sys.exit(EXIT_UNDECIDED)


@contextlib.contextmanager
def _writing(folder: Path) -> Iterator[None]:
    """A file the block fails to write (a full disk, a read-only folder) as one line naming
    the file and the cause (exit 2), not a traceback."""
    from ..errors import OutputError
    from ..outputs import write_failure

    try:
        yield
    except OSError as err:
        raise OutputError(write_failure(err.filename or folder, err)) from None


def _list_bundled() -> None:
    from ..datasets import bundled_count, bundled_sets

    sets = bundled_sets()
    width = max(len(s.name) for s in sets)
    for s in sets:
        click.echo(f"{s.name:<{width}}  {bundled_count(s.name):>5}  {s.description}")
    click.echo(
        "\n(e.g. sudoku-cp bench 17clue --backends backtrack,cpsat; "
        "sources: sudoku_cp/data/SOURCES.md)"
    )


@main.command()
@click.argument("results")
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False),
    default=None,
    callback=path_value,
    help="Folder for the figures [default: plots/ beside the results].",
)
@click.option(
    "--format",
    "formats",
    default="png,svg",
    show_default=True,
    help="Figure formats, comma-separated (png, svg, pdf).",
)
@click.option(
    "--scatter",
    "pairs",
    multiple=True,
    metavar="X,Y",
    help="Backends of a per-puzzle scatter (repeatable) [default: baseline vs the first other].",
)
@click.option(
    "--baseline",
    default=None,
    metavar="SPEC",
    help="What speed ratios compare with [default: the record's baseline].",
)
@click.option(
    "--table",
    "table_style",
    type=click.Choice(["text", "markdown", "none"]),
    default="text",
    show_default=True,
    help="How to print the summary.",
)
@click.option("--no-figures", is_flag=True, help="Only print the summary.")
def plot(
    results: str,
    output: str | None,
    formats: str,
    pairs: tuple[str, ...],
    baseline: str | None,
    table_style: str,
    no_figures: bool,
) -> None:
    """Summary table and figures of a saved bench (its folder, results.csv or .parquet).

    Figures per dataset: the cactus plot (puzzles solved within time t, log time), a per-puzzle
    scatter of two backends (log-log, diagonal) and the distribution of search effort. Needs
    the plot extra: pip install 'sudoku-cp[plot]'.
    """

    from ..bench import plots, report

    _named("--output", output)
    chosen = [f.strip().lower() for f in formats.split(",") if f.strip()]
    unknown = [f for f in chosen if f not in ("png", "svg", "pdf")]
    if unknown or not chosen:
        raise click.UsageError(f"--format takes png, svg, pdf, not {formats!r}")
    scatter = []
    for pair in pairs:
        x, sep, y = pair.partition(",")
        if not sep or not x.strip() or not y.strip():
            raise click.UsageError(f"--scatter takes two backends X,Y, not {pair!r}")
        scatter.append((x.strip(), y.strip()))
    if not no_figures:
        plots.check_plotting()
    loaded = report.load_results(results)
    if not no_figures:
        plots.refuse_too_many(loaded)  # before the summary: all or nothing
    if baseline is not None:
        specs = sorted({report.label_of(row) for row in loaded.rows})
        if report.pick_baseline(specs, baseline) is None:
            raise click.UsageError(
                f"--baseline {baseline} is none of the bench's backends ({', '.join(specs)})"
            )
    if table_style != "none":
        summaries = report.summarize(loaded.rows, baseline or loaded.baseline)
        click.echo(report.render_summary(summaries, table_style, loaded.record), nl=False)
    if not no_figures:
        beside = loaded.path.parent if loaded.path is not None else Path.cwd()
        where = Path(output) if output else beside / "plots"
        with _writing(where):
            written = plots.plot_results(loaded, where, chosen, scatter or None, baseline)
        click.echo(f"wrote {len(written)} figures in {where}")


def _named(option: str, value: str | None) -> None:
    """Refuse an empty folder or file name: it was taken for no option at all (bench -o ''
    wrote to bench-results/, --replay '' ran a new bench, plot -o '' drew beside the results)."""
    if value is not None and not value.strip():
        raise click.UsageError(f"{option} needs a name, not an empty one")
