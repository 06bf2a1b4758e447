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
    click.echo(f"sudoku-cp: error: {message}", err=True)
    sys.exit(status)


class _Group(click.Group):
    """Turns every error a user can cause into one line and a documented exit status."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SudokuError as err:
            fail(str(err))
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
@click.option("-b", "--backend", default="backtrack", show_default=True,
              help="Which backend solves (see `sudoku-cp backends`).")
@click.option("-s", "--strategy", default=None,
              help="Search strategy, for backends that have them "
              "(backtrack: fast, naive, ordered, mrv).")
@click.option("-O", "--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
              help="A backend option, e.g. -O workers=2 for cpsat (repeatable).")
@click.option("-m", "--model", default="classic", show_default=True,
              help="Rule set: a model name (see `sudoku-cp models`) or a path to a TOML file.")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=None,
              help="Stop after this many solutions [default: 1].")
@click.option("-a", "--all", "count_all", is_flag=True, help="Find every solution.")
@click.option("-t", "--time-limit", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="SECONDS",
              help="Give up after this many seconds per puzzle (status timeout).")
@click.option("-f", "--format", "out_format", type=click.Choice(OUTPUT_FORMATS), default="pretty",
              show_default=True, help="How to print solutions: boxed grid, one line each, or JSON.")
@click.option("--input-format", default="auto", show_default=True,
              help="How to read the input: auto, line, grid, rows, json, jsonl, csv.")
@click.option("--stats", is_flag=True, help="Also print the backend's counters.")
def solve(puzzle: str, backend: str, strategy: str | None, option_pairs: tuple[str, ...],
          model: str, limit: int | None, count_all: bool, time_limit: float | None,
          out_format: str, input_format: str, stats: bool) -> None:
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
            click.echo(f"sudoku-cp: error: puzzle {record.id}: {record.error}", err=True)
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

    puzzle = record.puzzle
    size = puzzle.size
    if out_format == "line":
        for solution in result.solutions:
            click.echo(format_line(solution, size))
        click.echo(f"puzzle {record.id}: {_status_line(result)}", err=True)
        if stats:
            click.echo(_stats_line(result), err=True)
    elif out_format == "json":
        click.echo(json.dumps({
            "id": record.id,
            "puzzle": puzzle.to_line(),
            "status": result.status.value,
            "count": result.count,
            "exact": result.exact,
            "solutions": [[list(solution[r * size:(r + 1) * size]) for r in range(size)]
                          for solution in result.solutions],
            "backend": result.backend,
            "options": result.options,
            "seconds": round(result.seconds, 6),
            "stats": result.stats,
        }))
    else:
        click.echo(f"puzzle {record.id}: {_status_line(result)}")
        for number, solution in enumerate(result.solutions, start=1):
            if len(result.solutions) > 1:
                click.echo(f"solution {number}:")
            click.echo(format_pretty(solution, size, puzzle.model))
        if stats:
            click.echo(_stats_line(result))


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
    """List every backend: whether it is available, its library version and its options."""
    from .backends import backend_class, backend_names

    rows = []
    for name in backend_names():
        cls = backend_class(name)
        reason = cls.unavailable_reason()
        rows.append({
            "name": name,
            "available": reason is None,
            "why_not": reason,
            "library": cls.requires[1] if cls.requires else "(pure Python)",
            "version": cls.version(),
            "summary": cls.summary,
            "options": [
                {"name": o.name, "type": o.type.__name__, "default": o.default, "help": o.help,
                 "choices": list(o.choices) if o.choices else None}
                for o in cls.options
            ],
            "counters": dict(cls.counters),
        })
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
            click.echo(f"  counters: {', '.join(row['counters'])}")


if __name__ == "__main__":
    main()
