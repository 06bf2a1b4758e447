"""`sudoku-cp`: the command line, a thin layer over the library.

Exit statuses (every command):
  0  success (solve: a solution was found for every puzzle; check: every puzzle unique)
  1  a definite negative answer (solve: some puzzle has no solution; check: some puzzle
     multiple, none or invalid)
  2  unusable input or invocation (bad puzzle text, missing file, unknown backend/model/option)
  3  undecided (a time limit cut a search short before an answer; check: a disagreement)
  130 interrupted (Ctrl-C)
Errors are one line on standard error, never a traceback. Heavy libraries (OR-tools,
python-constraint, PySAT, rich) are imported only by the commands that need them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from .errors import SudokuError

EXIT_OK, EXIT_NEGATIVE, EXIT_USAGE, EXIT_UNDECIDED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
OUTPUT_FORMATS = ("pretty", "line", "json")


def fail(message: str, status: int = EXIT_USAGE) -> NoReturn:
    """Print one error line on standard error and exit with ``status``."""
    click.echo(f"sudoku-cp: error: {one_line(message)}", err=True)
    sys.exit(status)


def one_line(message: str) -> str:
    r"""``message`` with control characters shown escaped, so that it stays one line even when
    it quotes a file name holding a line break.

    >>> one_line("file not found: a\rb")
    'file not found: a\\rb'
    """
    if message.isprintable():
        return message
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)


class _Group(click.Group):
    """Turns every error a user can cause into one line and a documented exit status."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SudokuError as err:
            fail(str(err))
        except click.UsageError as err:
            # A bad option value, a missing argument or a contradiction: one line like every
            # other error, not click's usage block (`--help` says how to call it).
            command = err.ctx.command.name if err.ctx is not None and err.ctx.parent else None
            fail(f"{command}: {err.format_message()}" if command else err.format_message())
        except KeyboardInterrupt:
            click.echo("sudoku-cp: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            # The reader (e.g. `| head`) went away: not an error of ours.
            sys.stderr.close()
            sys.exit(EXIT_OK)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sudoku-cp", prog_name="sudoku-cp")
def main() -> None:
    """sudoku-cp: solve Sudoku puzzles with interchangeable backends, cross-check their
    answers and confirm that puzzles have exactly one solution.

    PUZZLE / INPUT arguments are puzzle text (81 symbols, `.` or 0 for blanks), a file
    (one puzzle per line, JSON Lines, CSV, or one grid / JSON puzzle), or `-` for standard
    input. Exit statuses: 0 ok, 1 no solution / not unique, 2 bad input or options,
    3 undecided (time limit) or disagreement, 130 interrupted.
    """


# --- shared option handling ------------------------------------------------------------------
def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["workers=2", "seed=7"]`` → ``{"workers": "2", "seed": "7"}`` (values converted later)."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--option")
        options[key.strip()] = value.strip()
    return options


def resolve_limit(limit: int | None, count_all: bool, default: int | None) -> int | None:
    if count_all and limit is not None:
        raise click.UsageError("--limit and --all contradict each other; give one")
    if count_all:
        return None
    return default if limit is None else limit


def backend_options(
    backend_name: str, strategy: str | None, pairs: Sequence[str]
) -> dict[str, Any]:
    """The backend's options from ``--strategy`` and ``--option``, checked by the backend."""
    from .backends import get_backend

    options: dict[str, Any] = parse_option_pairs(pairs)
    if strategy is not None:
        options["strategy"] = strategy
    backend = get_backend(backend_name)
    backend.check_options(options)  # raises BackendError naming the valid options
    return options


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
@click.option(
    "-m",
    "--model",
    default="classic",
    show_default=True,
    help="Rule set: a model name (see `sudoku-cp models`) or a path to a TOML file.",
)
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="Stop after this many solutions [default: 1].",
)
@click.option("-a", "--all", "count_all", is_flag=True, help="Find every solution.")
@click.option(
    "-t",
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
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
    help="How to print solutions: boxed grid, one line each, or JSON.",
)
@click.option(
    "--input-format",
    default="auto",
    show_default=True,
    help="How to read the input: auto, line, grid, rows, json, jsonl, csv.",
)
@click.option("--stats", is_flag=True, help="Also print the backend's counters.")
def solve(
    puzzle: str,
    backend: str,
    strategy: str | None,
    option_pairs: tuple[str, ...],
    model: str,
    limit: int | None,
    count_all: bool,
    time_limit: float | None,
    out_format: str,
    input_format: str,
    stats: bool,
) -> None:
    """Solve PUZZLE (text, a file, or - for standard input) and print the solution(s).

    With --format line each solution is one line of N*N symbols on standard output and the
    status goes to standard error, so scripts can count and compare solutions. Exit 0 when
    every puzzle has a solution, 1 when some has none, 2 for unusable input or options,
    3 when a time limit ran out first.
    """
    from .backends import get_backend
    from .formats import read_input
    from .model import load_model

    limit = resolve_limit(limit, count_all, default=1)
    rule_set = load_model(model)
    options = backend_options(backend, strategy, option_pairs)
    solver = get_backend(backend)
    worst = EXIT_OK
    for record in read_input(puzzle, model=rule_set, fmt=input_format):
        if record.puzzle is None:
            click.echo(
                f"sudoku-cp: error: {one_line(f'puzzle {record.id}: {record.error}')}", err=True
            )
            worst = max(worst, EXIT_USAGE)
            continue
        result = solver.solve(record.puzzle, limit=limit, time_limit=time_limit, **options)
        _print_result(record, result, out_format, stats)
        if result.status.value == "none":
            worst = max(worst, EXIT_NEGATIVE)
        elif result.count == 0:
            worst = max(worst, EXIT_UNDECIDED)
    sys.exit(worst)


def _status_line(result: Any) -> str:
    status = result.status.value
    found = f"{result.count} solution{'s' if result.count != 1 else ''}"
    if result.exact:
        detail = f"{found}, search complete"
    elif status == "timeout":
        detail = f"{found} before the time limit"
    else:
        detail = f"{found}, stopped at the limit"
    strategy = result.options.get("strategy")
    who = f"{result.backend} ({strategy})" if strategy else result.backend
    return f"{status}: {detail} · {who} {result.seconds * 1000:.1f} ms"


def _stats_line(result: Any) -> str:
    return "stats: " + ", ".join(f"{k}={_num(v)}" for k, v in result.stats.items())


def _num(value: float | int) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _print_result(record: Any, result: Any, out_format: str, stats: bool) -> None:
    from .formats import format_line, format_pretty
    from .formats.writers import json_rows

    puzzle = record.puzzle
    size = puzzle.size
    if out_format == "line":
        for solution in result.solutions:
            click.echo(format_line(solution, size))
        click.echo(f"puzzle {record.id}: {_status_line(result)}", err=True)
        if stats:
            click.echo(_stats_line(result), err=True)
    elif out_format == "json":
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
                }
            )
        )
    else:
        click.echo(f"puzzle {record.id}: {_status_line(result)}")
        for number, solution in enumerate(result.solutions, start=1):
            if len(result.solutions) > 1:
                click.echo(f"solution {number}:")
            click.echo(format_pretty(solution, size, puzzle.model))
        if stats:
            click.echo(_stats_line(result))


# --- check and count: the cross-check harness over many puzzles ---------------------------------
DEFAULT_TIME_LIMIT = 60.0
CHECK_FORMATS = ("table", "jsonl", "csv")


def _batch_options(func: Any) -> Any:
    """The options `check` and `count` share (applied bottom-up, so listed in reverse)."""
    decorators = [
        click.option(
            "-b",
            "--backends",
            "backend_list",
            default=None,
            metavar="A,B,C",
            help="Backends to cross-check [default: every available one].",
        ),
        click.option(
            "-m",
            "--model",
            default="classic",
            show_default=True,
            help="Rule set: a model name or a path to a TOML file.",
        ),
        click.option(
            "-t",
            "--time-limit",
            type=click.FloatRange(min=0, min_open=True),
            default=DEFAULT_TIME_LIMIT,
            show_default=True,
            metavar="SECONDS",
            help="Per backend per puzzle; a worker that overruns is stopped.",
        ),
        click.option(
            "-j",
            "--jobs",
            type=click.IntRange(min=0),
            default=None,
            help="Worker processes [default: every core; 0 = in this process, "
            "where only the backends' own time limits apply].",
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
            help="How to read inputs: auto, line, grid, rows, json, jsonl, csv.",
        ),
        click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary."),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _per_backend_options(pairs: Sequence[str]) -> dict[str, dict[str, str]]:
    """``["backtrack.strategy=mrv"]`` → ``{"backtrack": {"strategy": "mrv"}}``."""
    from .backends import backend_class

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
    from .datasets import bundled_file

    return [str(bundled_file(arg) or arg) for arg in inputs]


def _run_batch_command(
    command: str,
    inputs: Sequence[str],
    *,
    backend_list: str | None,
    model: str,
    limit: int | None,
    time_limit: float,
    jobs: int | None,
    option_pairs: Sequence[str],
    input_format: str,
    quiet: bool,
    out_format: str,
    output: str | None,
    resume: bool,
    metamorphic: int = 0,
    seed: int = 0,
) -> Any:
    """Run a batch and print its summary; exit 130 with how to resume on Ctrl-C."""
    from pathlib import Path

    from rich.console import Console

    from .batch import BatchOptions, CheckConfig, Interrupted, default_jobs, run_batch, tune_gc

    if resume and output is None:
        raise click.UsageError("--resume needs --output FILE (the file to continue)")
    if output is not None and not output.strip():
        raise click.UsageError("--output needs a file name, not an empty one")
    config = CheckConfig.make(
        backend_list,
        limit=limit,
        time_limit=time_limit,
        model=model,
        options=_per_backend_options(option_pairs),
        metamorphic=metamorphic,
        seed=seed,
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
    )
    restore_gc = tune_gc()  # for the batch's reading, writing (and checking with --jobs 0)
    try:
        summary = run_batch(options)
    except Interrupted as stop:
        where = f" to {output}" if output else ""
        hint = (
            " — to finish, run the same command again with --resume"
            if output
            else " — give --output FILE to be able to resume"
        )
        click.echo(
            f"sudoku-cp: interrupted after {stop.summary.checked} puzzles, "
            f"every finished record written{where}{hint}",
            err=True,
        )
        sys.exit(EXIT_INTERRUPTED)
    finally:
        restore_gc()
    machine_output = records_on_stdout and out_format in ("jsonl", "csv", "count")
    if not quiet and (command == "check" or summary.total > 1):
        summary.render(Console(stderr=machine_output or command == "count", highlight=False))
    return summary


@main.command()
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@_batch_options
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=2),
    default=2,
    show_default=True,
    help="Solutions each backend looks for (2 decides uniqueness; more finds more witnesses).",
)
@click.option(
    "-o",
    "--output",
    default=None,
    metavar="FILE",
    help="Write records here (with FILE.meta.json beside it) instead of stdout.",
)
@click.option(
    "-f",
    "--format",
    "out_format",
    type=click.Choice(CHECK_FORMATS),
    default=None,
    help="Records as a table, JSON Lines or CSV [default: from the --output "
    "suffix (.jsonl, .csv), else table].",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue --output: skip puzzles already recorded, drop a torn last line.",
)
@click.option(
    "--metamorphic",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    metavar="K",
    help="Also cross-check K random transforms of each puzzle (relabelled digits, "
    "swapped rows, bands, columns, stacks, transposed — only moves that keep the "
    "model's groups); they must agree with the original, else the verdict is "
    "disagreement, naming the transform.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Chooses the --metamorphic transforms: the same seed and puzzle give the same transforms.",
)
def check(
    inputs: tuple[str, ...],
    backend_list: str | None,
    model: str,
    time_limit: float,
    jobs: int | None,
    option_pairs: tuple[str, ...],
    input_format: str,
    quiet: bool,
    limit: int,
    output: str | None,
    out_format: str | None,
    resume: bool,
    metamorphic: int,
    seed: int,
) -> None:
    """Cross-check every puzzle of INPUT... across backends and say whether it is unique.

    INPUT is puzzle text, a file (any format), a bundled sample's name (e.g. forum-hardest)
    or - for standard input. Every solution a backend returns is checked against the puzzle;
    the verdict per puzzle is unique, multiple (two witnesses), none, invalid (the reason),
    disagreement (naming the backend and what each said) or undecided (no backend finished).

    Records are written as each puzzle finishes (completion order; each has its id and its
    input position `index`). Exit 0 every puzzle unique; 1 some multiple, none or invalid;
    3 some disagreement or undecided; 2 unusable invocation; 130 interrupted.

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
    """
    if out_format is None:
        suffix = (output or "").lower()
        out_format = (
            "csv"
            if suffix.endswith(".csv")
            else "jsonl"
            if suffix.endswith((".jsonl", ".json", ".ndjson"))
            else "table"
        )
    summary = _run_batch_command(
        "check",
        inputs,
        backend_list=backend_list,
        model=model,
        limit=limit,
        time_limit=time_limit,
        jobs=jobs,
        option_pairs=option_pairs,
        input_format=input_format,
        quiet=quiet,
        out_format=out_format,
        output=output,
        resume=resume,
        metamorphic=metamorphic,
        seed=seed,
    )
    sys.exit(summary.exit_status)


@main.command()
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@_batch_options
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="Count up to this many solutions [default: 1000].",
)
@click.option("-a", "--all", "count_all", is_flag=True, help="Count every solution.")
def count(
    inputs: tuple[str, ...],
    backend_list: str | None,
    model: str,
    time_limit: float,
    jobs: int | None,
    option_pairs: tuple[str, ...],
    input_format: str,
    quiet: bool,
    limit: int | None,
    count_all: bool,
) -> None:
    """How many solutions each puzzle of INPUT... has: exactly N, or at least N.

    The count is cross-checked like `check`: every solution is validated and the backends'
    counts compared. Exit 0 when every count is settled, 1 when some input is not a puzzle,
    3 on a disagreement or when no backend finished, 2 for unusable options.
    """
    from .result import Verdict

    summary = _run_batch_command(
        "count",
        inputs,
        backend_list=backend_list,
        model=model,
        limit=resolve_limit(limit, count_all, default=1000),
        time_limit=time_limit,
        jobs=jobs,
        option_pairs=option_pairs,
        input_format=input_format,
        quiet=quiet,
        out_format="count",
        output=None,
        resume=False,
    )
    verdicts = summary.verdicts
    if verdicts.get(Verdict.DISAGREEMENT) or verdicts.get(Verdict.UNDECIDED):
        sys.exit(EXIT_UNDECIDED)
    sys.exit(EXIT_NEGATIVE if verdicts.get(Verdict.INVALID) else EXIT_OK)


# --- models and backends -----------------------------------------------------------------------
@main.command()
def models() -> None:
    """List the shipped models (rule sets) with a one-line description each."""
    from .model import MODELS_DIR, load_model, model_names

    width = max(len(n) for n in model_names())
    for name in model_names():
        model = load_model(name)
        sizes = f" [sizes: {', '.join(map(str, model.sizes))}]" if model.sizes else ""
        click.echo(f"{name:<{width}}  {model.description}{sizes}")
    click.echo(f"\n(from {MODELS_DIR}; --model also takes a path to your own TOML file)")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def backends(as_json: bool) -> None:
    """List every backend: whether it is available, its library version, its options and its
    counters with their kinds (size, dead-end, other)."""
    from .backends import backend_class, backend_names

    rows: list[dict[str, Any]] = []
    for name in backend_names():
        cls = backend_class(name)
        reason = cls.unavailable_reason()
        rows.append(
            {
                "name": name,
                "available": reason is None,
                "why_not": reason,
                "library": cls.requires[1] if cls.requires else "(pure Python)",
                "version": cls.version(),
                "summary": cls.summary,
                "options": [
                    {
                        "name": o.name,
                        "type": o.type.__name__,
                        "default": o.default,
                        "help": o.help,
                        "choices": list(o.choices) if o.choices else None,
                    }
                    for o in cls.options
                ],
                "counters": {name: c.description for name, c in cls.counters.items()},
                "counter_kinds": {name: c.kind for name, c in cls.counters.items()},
            }
        )
    if as_json:
        click.echo(json.dumps(rows, indent=2, default=str))
        return
    for row in rows:
        state = "available" if row["available"] else "NOT AVAILABLE"
        version = f" {row['version']}" if row["version"] else ""
        click.echo(f"{row['name']}: {row['summary']}")
        click.echo(f"  {state} · {row['library']}{version}")
        if row["why_not"]:
            click.echo(f"  {row['why_not']}")
        for opt in row["options"]:
            choices = f" (one of: {', '.join(map(str, opt['choices']))})" if opt["choices"] else ""
            click.echo(f"  -O {opt['name']}={opt['default']}  {opt['help']}{choices}")
        if row["counters"]:
            kinds = row["counter_kinds"]
            click.echo(
                "  counters: " + ", ".join(f"{name} ({kinds[name]})" for name in row["counters"])
            )


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
    "strategy (e.g. backtrack:naive,backtrack:mrv,backtrack,cpsat) "
    "[default: every available backend, default options].",
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
    type=click.IntRange(min=1),
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
    help="Measurements per puzzle and backend (after an unmeasured warm-up).",
)
@click.option(
    "-t",
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
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
    help="Worker processes (more than the idle cores makes timings noisy).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False),
    default=None,
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
    help="Rule set for puzzle files (bundled sets are classic).",
)
@click.option(
    "--seed",
    type=int,
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
    help="Run the bench a saved record (or its folder) describes, and compare "
    "statuses and counters with its table.",
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
    output: str | None,
    baseline: str | None,
    model: str,
    seed: int,
    no_warmup: bool,
    draw: bool,
    table_style: str,
    replay: str | None,
    quiet: bool,
) -> None:
    """Compare backends on DATASETs (puzzle files or bundled sets; see --list).

    Every puzzle x backend x repeat is measured, every answer validated and cross-checked;
    the tidy table (CSV, Parquet with pyarrow) and the experiment record (JSON) go to --output,
    a summary per dataset to standard output. Exit 0, or 3 when some backend gave a wrong or
    contradicted answer, 1 when a --replay differs from its record, 2 for bad arguments.
    """
    import datetime
    from pathlib import Path

    from .bench import report
    from .bench import run as benchmod

    if list_sets:
        _list_bundled()
        return
    old = None
    if replay:
        old_record = benchmod.load_record(replay)
        config = benchmod.config_from_record(old_record)
        old_table = Path(replay) if Path(replay).is_dir() else Path(replay).parent
        if (old_table / "results.csv").is_file():
            old = report.load_results(old_table)
    else:
        config = benchmod.BenchConfig(
            datasets=list(datasets),
            backends=[spec_text] if spec_text else None,
            options=benchmod.parse_option_pairs(option_pairs),
            limit=limit,
            repeat=repeat,
            time_limit=time_limit,
            jobs=jobs,
            warmup=not no_warmup,
            model=model,
            seed=seed,
            baseline=baseline,
        )
    if draw:
        report.check_plotting()  # fail before a long run, not after it
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    outdir = Path(output) if output else Path("bench-results") / stamp
    show = not quiet and sys.stderr.isatty()

    def progress(done: int, total: int, name: str) -> None:
        if show:
            click.echo(f"\r{name}: {done}/{total} measurements", nl=False, err=True)

    run = benchmod.run_bench(config, progress=progress)
    if show:
        click.echo("", err=True)
    paths = benchmod.write_bench(run, outdir)
    summaries = report.summarize(run.rows, run.record["options"]["baseline"])
    text = report.render_summary(summaries, "text", run.record)
    (outdir / "summary.txt").write_text(text, encoding="utf-8")
    (outdir / "summary.md").write_text(
        report.render_summary(summaries, "markdown", run.record), encoding="utf-8"
    )
    click.echo(
        text if table_style == "text" else report.render_summary(summaries, "markdown", run.record),
        nl=False,
    )
    if draw:
        report.plot_results(report.load_results(outdir), outdir / "plots")
    click.echo(
        f"\nwrote {', '.join(p.name for p in paths.values())}, summary.txt/.md"
        f"{', plots/' if draw else ''} in {outdir}"
        f"  (redraw: sudoku-cp plot {outdir})"
    )
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


def _list_bundled() -> None:
    from .datasets import bundled_count, bundled_sets

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
    from pathlib import Path

    from .bench import report

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
        report.check_plotting()
    loaded = report.load_results(results)
    if table_style != "none":
        summaries = report.summarize(loaded.rows, baseline or loaded.baseline)
        click.echo(report.render_summary(summaries, table_style, loaded.record), nl=False)
    if not no_figures:
        beside = loaded.path.parent if loaded.path is not None else Path.cwd()
        where = Path(output) if output else beside / "plots"
        written = report.plot_results(loaded, where, chosen, scatter or None, baseline)
        click.echo(f"wrote {len(written)} figures in {where}")


if __name__ == "__main__":
    main()
