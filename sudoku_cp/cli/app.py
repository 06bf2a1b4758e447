"""The ``sudoku-cp`` group: errors as one line and exit statuses, options every command shares.

Exit statuses (every command):
  0  success (solve: a solution was found for every puzzle; check: every puzzle unique)
  1  a definite negative answer (solve: some puzzle has no solution; check: some puzzle
     multiple, none or invalid)
  2  unusable input or invocation (bad puzzle text, missing file, unknown backend/model/option)
  3  undecided (a time limit cut a search short before an answer; check: a disagreement)
  130 interrupted (Ctrl-C)
  143 terminated (SIGTERM) during a check or count batch; finished records kept
Errors are one line on standard error, never a traceback. Heavy libraries (OR-tools,
python-constraint, PySAT, rich) are imported only by the commands that need them.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from ..context import READING_KEY
from ..errors import SudokuError, one_line

EXIT_OK, EXIT_NEGATIVE, EXIT_USAGE, EXIT_UNDECIDED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_TERMINATED = 143  # 128 + SIGTERM: a check or count batch stopped by SIGTERM
EXIT_CLUSTER_LOST = 4  # a check or count's Dask scheduler went away mid-run (--resume goes on)
OUTPUT_FORMATS = ("pretty", "line", "json", "fpuzzles", "sudokupad", "iss")


def fail(message: str, status: int = EXIT_USAGE) -> NoReturn:
    """Print one error line on standard error and exit with ``status``."""
    click.echo(f"sudoku-cp: error: {one_line(message)}", err=True)
    sys.exit(status)


BATCH_COMMANDS = ("check", "count")
STOP_KEY = "sudoku_cp.stop"
"""Where a batch command finds the signal handling the group began for it (``ctx.meta``)."""


def starting_line(signum: int) -> str:
    """The line for Ctrl-C or SIGTERM before a batch checked anything."""
    import signal  # (here: a plain command never needs it)

    what = "terminated (SIGTERM)" if signum == signal.SIGTERM else "interrupted"
    return (
        f"sudoku-cp: {what} while starting, before any puzzle was checked — run the same "
        "command again"
    )


COMMANDS: dict[str, tuple[str, str]] = {
    "backends": (
        "info",
        "List every backend: whether it is available, its library version, its options, the "
        "rules it compiles beyond groups (killercage, antiknight …) and its counters with their "
        "kinds (size, dead-end, other).",
    ),
    "bench": ("bench", "Compare backends on DATASETs (puzzle files or bundled sets; see --list)."),
    "candidates": (
        "candidates",
        "Every cell's true candidates in PUZZLE (text, a link, a file, a candidate grid or -): "
        "the digits it holds in at least one solution, found exactly by SAT, with the count of "
        "solutions (exact up to --count-cap, else estimated with a 95% interval), the cells the "
        "puzzle fixes beyond its givens and, with --suggest, givens that would remove most "
        "solutions.",
    ),
    "certificate": ("certificate", "Uniqueness certificates made by `check --certify DIR`."),
    "check": (
        "batch",
        "Cross-check every puzzle of the INPUTs across backends and say whether it is unique.",
    ),
    "count": (
        "batch",
        "How many solutions each puzzle of the INPUTs has: exactly N, or at least N.",
    ),
    "draw": (
        "draw",
        "Draw PUZZLE (text, an f-puzzles, SudokuPad or ISS link, a file, or - for standard "
        "input) as an SVG picture: regions, every variant rule, the givens — and with "
        "--solution the solved grid.",
    ),
    "explain": (
        "logic",
        "Solve PUZZLE (text, a file, a bundled sample's name or -) by human techniques and print "
        "every step: the technique, its level and score, what it proves and why.",
    ),
    "export": (
        "export",
        "Write PUZZLE (text, an f-puzzles, SudokuPad or ISS link, a file, or - for standard input) "
        "for a solver outside the tool: DIMACS CNF, OPB, MiniZinc or XCSP3, every rule kind "
        "and size.",
    ),
    "generate": (
        "generate",
        "Generate COUNT puzzles with exactly one solution, each cross-checked by two paradigms.",
    ),
    "minimize": (
        "shrink",
        "List the givens (and rules) of the unique PUZZLE that can each be removed with the "
        "solution staying unique, and print a minimal puzzle: one from which no given or rule "
        "can be removed.",
    ),
    "models": (
        "info",
        "List the shipped models (rule sets) with a one-line description each.",
    ),
    "plot": (
        "bench",
        "Summary table and figures of a saved bench (its folder, results.csv or .parquet).",
    ),
    "rate": (
        "logic",
        "Rate each puzzle of INPUTS (puzzle text, files, bundled samples' names or -) on "
        "HoDoKu's scale: level (Easy, Medium, Hard, Unfair, Extreme), score (the sum of the "
        "steps' scores) and the hardest technique used.",
    ),
    "shrink": (
        "shrink",
        "Reduce PUZZLE, on which the backends disagree (or a --metamorphic check fails), to a "
        "small reproducer: givens and rules are removed while the disagreement persists (delta "
        "debugging, then one at a time until no single removal keeps it).",
    ),
    "solve": (
        "solve",
        "Solve PUZZLE (text, an f-puzzles, SudokuPad or ISS link, a file, or - for standard input) "
        "and print the solution(s).",
    ),
}
"""Each command: the module of :mod:`sudoku_cp.cli` that defines it (imported when the command
is used) and its one-line summary for ``sudoku-cp --help`` (the first sentence of its help; a
test keeps the two equal), so that the group's help and one command import no other command's
module."""


class _Group(click.Group):
    """Turns every error a user can cause into one line and a documented exit status; loads
    each command's module when the command is first looked up (see :data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            import importlib

            importlib.import_module(f"{__package__}.{COMMANDS[cmd_name][0]}")  # registers it
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's own listing, with the summaries of commands not loaded from the table
        (shortened by click's own rule, through a stand-in command)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            command = self.commands.get(name) or click.Command(name, help=COMMANDS[name][1])
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if name in BATCH_COMMANDS and STOP_KEY not in ctx.meta:
            # check and count take Ctrl-C and SIGTERM from here on, before their options are
            # read (reading --jobs imports the batch modules): see sudoku_cp.stopping.
            from ..stopping import StopSignals

            ctx.meta[STOP_KEY] = StopSignals().__enter__()
        return name, command, rest

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # A stream the shell closed (`>&-`, `<&-`) is None in Python: written to, or read
        # (`-`), as the null device — output discarded, no input — rather than a crash.
        if sys.stdout is None:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the process's life
        if sys.stdin is None:
            sys.stdin = open(os.devnull)  # noqa: SIM115
        if not args and "args" not in kwargs:
            # Run as the program (the console script, python -m), reading sys.argv: the
            # objects of start-up (modules, classes, functions) live until the process ends,
            # so the cyclic collector need never walk them again — not in the run, not at
            # exit, where it would walk them all (~4 ms of a quick solve). CPython's own
            # advice for long-lived objects (gc.freeze); a call with arguments (a test, a
            # program embedding the command line) leaves its process's collector alone.
            import gc

            gc.freeze()
        return super().__call__(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return self._invoke(ctx)
        finally:
            stop = ctx.meta.pop(STOP_KEY, None)
            if stop is not None:
                stop.__exit__(None, None, None)

    def _invoke(self, ctx: click.Context) -> Any:
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
            stop = ctx.meta.get(STOP_KEY)
            if stop is not None:  # a check or count, stopped before it began its run
                import signal

                click.echo(starting_line(stop.signum), err=True)
                sys.exit(EXIT_TERMINATED if stop.signum == signal.SIGTERM else EXIT_INTERRUPTED)
            click.echo("sudoku-cp: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            # The reader (e.g. `| head`) went away: not an error of ours.
            sys.stderr.close()
            sys.exit(EXIT_OK)
        except OSError as err:
            # Standard output refused what was written (> /dev/full, a full disk; an -o file's
            # own errors are reported where it is written): one line, not a traceback.
            if err.errno not in _WRITE_ERRNOS:
                raise
            _stdout_to_null()
            fail(f"cannot write the output: {err.strerror or err}")


_WRITE_ERRNOS = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT}


def _stdout_to_null() -> None:
    """Point standard output at the null device, so that Python's own flush at exit does not
    fail a second time after the one-line error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # (no file descriptor: a test's stream)
        pass


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sudoku-cp", prog_name="sudoku-cp")
def main() -> None:
    """sudoku-cp: solve Sudoku puzzles with interchangeable backends, cross-check their
    answers and confirm that puzzles have exactly one solution.

    PUZZLE / INPUT arguments are puzzle text (81 symbols, `.` or 0 for blanks), an
    f-puzzles, SudokuPad or ISS link (https://f-puzzles.com/?load=…), a file (one puzzle per line,
    JSON Lines, CSV with optional regions/variant columns, f-puzzles JSON, or one grid / JSON
    puzzle; gzip, bzip2, xz or a one-file zip read as they are), or `-` for standard input.
    Exit statuses: 0 ok, 1 no solution / not unique, 2 bad input or options, 3 undecided
    (time limit) or disagreement, 130 interrupted (143: check/count stopped by SIGTERM).
    """


# --- shared option handling ------------------------------------------------------------------
class Seconds(click.FloatRange):
    """A number of seconds within a range. click's ``FloatRange`` lets NaN through (every
    comparison with it is false), which would run with no limit at all."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number != number:
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return number


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["workers=2", "seed=7"]`` → ``{"workers": "2", "seed": "7"}`` (values converted later)."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--option")
        options[key.strip()] = value.strip()
    return options


def refuse_above(value: Any, cap: int, why: str = "") -> Any:
    """``value``, or a usage error naming the option and ``cap`` (for a click callback)."""
    if value is not None and value > cap:
        raise click.BadParameter(f"{value} is above the cap of {cap:,}{why}")
    return value


def jobs_cap(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--jobs``: at most :func:`~sudoku_cp.batch.pool.max_jobs` worker processes."""
    from ..batch.pool import JOBS_PER_CORE, max_jobs

    return refuse_above(value, max_jobs(), f" ({JOBS_PER_CORE} per usable core)")


def path_value(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Every option that takes a file or folder: a value that looks like an option is refused
    (``check --certify --jobs 2`` would write certificates into a folder named ``--jobs``)."""
    if isinstance(value, str) and value.startswith("--"):
        shown = value if len(value) <= 40 else value[:39] + "…"
        raise click.BadParameter(
            f"{shown!r} looks like an option, not a path (for a file whose name starts with "
            f"'--', write ./{shown})"
        )
    if value == "-" and param.name == "output":
        # '-' names standard input in every command; as an output it made a file named '-'
        where = (
            "give a folder name"
            if ctx.command.name in ("bench", "plot")
            else "leave -o out to print to standard output"
        )
        raise click.BadParameter(f"'-' is no file name here: {where} (./- for one named '-')")
    return value


def _state_value(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--state``: a file, or the state's own text, which may start with ``--`` (``-`` is a
    blank in a grid of digits or candidates); only a short word like an option is refused."""
    if isinstance(value, str) and len(value) >= 16 and not set(value) - set("-.0123456789 \n"):
        return value
    return path_value(ctx, param, value)


def scheduler_check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--scheduler``: a Dask address or ``local:N`` (N capped), with dask installed."""
    if value is None:
        return None
    from ..batch.scheduler import parse_scheduler, require_dask

    try:
        parse_scheduler(value)
        require_dask()
    except SudokuError as err:
        raise click.UsageError(str(err)) from None
    return value


def _any_scheme(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--any-scheduler-scheme``: read before ``--scheduler`` (eager), through the one
    setting :func:`~sudoku_cp.batch.scheduler.parse_scheduler` reads."""
    if value:
        os.environ["SUDOKU_CP_ANY_SCHEDULER_SCHEME"] = "1"


def scheduler_option(func: Any) -> Any:
    """``--scheduler ADDRESS`` and its opt-in ``--any-scheduler-scheme``."""
    func = click.option(
        "--any-scheduler-scheme",
        is_flag=True,
        is_eager=True,
        expose_value=False,
        callback=_any_scheme,
        help="Take a --scheduler address other than tcp:// (tls://, ucx://, inproc://), which "
        "needs Dask settings of its own.",
    )(func)
    return click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        callback=scheduler_check,
        help="Run on a Dask cluster: a scheduler's address (tcp://HOST:8786), or local:N to "
        "start N worker processes here; its worker threads replace --jobs "
        "(needs pip install 'sudoku-cp[dask]'). The client unpickles what workers send back: "
        "use only a cluster you trust as you trust this machine.",
    )(func)


def resolve_limit(limit: int | None, count_all: bool, default: int | None) -> int | None:
    """The limit the backends run with. ``--all`` counts every solution up to the cap on
    ``--limit`` (:data:`~sudoku_cp.backends.MAX_LIMIT`): every backend keeps the solutions it
    finds, for the validator, so an uncapped count would grow memory with the time limit; a
    puzzle with more is reported as "at least" the cap, and the command exits 3."""
    from ..backends import MAX_LIMIT

    if count_all and limit is not None:
        raise click.UsageError("--limit and --all contradict each other; give one")
    if count_all:
        return MAX_LIMIT
    return default if limit is None else limit


def all_cut_short(count_all: bool, count: int, exact: bool, size: int = 9) -> bool:
    """True when ``--all`` stopped at the cap with more solutions possibly left (the cap of a
    ``size`` grid: :func:`~sudoku_cp.limits.solution_cap`, below 100,000 above 16x16)."""
    from ..backends import MAX_LIMIT
    from ..limits import solution_cap

    return count_all and not exact and count >= min(MAX_LIMIT, solution_cap(size))


def backend_options(
    backend_name: str, strategy: str | None, pairs: Sequence[str]
) -> dict[str, Any]:
    """The backend's options from ``--strategy`` and ``--option``, checked by the backend."""
    from ..backends import get_backend

    options: dict[str, Any] = parse_option_pairs(pairs)
    if strategy is not None:
        given = options.get("strategy")
        if given is not None and given != strategy:  # (the one given last was kept, silently)
            raise click.UsageError(
                f"--strategy {strategy} and --option strategy={given} disagree; give one"
            )
        options["strategy"] = strategy
    backend = get_backend(backend_name)
    backend.check_options(options)  # raises BackendError naming the valid options
    return options


BOX_HELP = (
    "Box shape, ROWSxCOLUMNS (e.g. 3x2 for 6x6 puzzles with boxes 3 rows tall) "
    "[default: rows <= columns, as many rows as possible: 2x3, 2x4, 3x3, 3x4, 3x5 …]."
)


def model_option(func: Any) -> Any:
    """``-m/--model NAME|FILE``, the rule set, on every command that reads puzzles — with the
    options of reading SudokuPad puzzles (:func:`reading_options`)."""
    return click.option(
        "-m",
        "--model",
        default="classic",
        show_default=True,
        callback=path_value,
        help="Rule set: a model name (see `sudoku-cp models`) or a path to a TOML file.",
    )(reading_options(func))


def reading_options(func: Any) -> Any:
    """``--element``, ``--elements`` and ``--fetch``: how SudokuPad puzzles are read. The
    command never sees them: their callback sets :mod:`sudoku_cp.formats.sudokupad`'s
    settings for the run (and a batch's line parsers carry them to its workers)."""
    options = (
        click.option(
            "--element",
            "element",
            multiple=True,
            metavar="KIND:STYLE=KEY",
            expose_value=False,
            callback=_reading_option,
            help="What a SudokuPad element means, e.g. --element 'line:#67f067=whispers' "
            "(repeatable): a puzzle with an element whose meaning is not certain is refused, "
            "naming it and the KIND:STYLE to map.",
        ),
        click.option(
            "--elements",
            "elements",
            metavar="FILE.toml",
            expose_value=False,
            callback=_reading_option,
            help='The same mappings from a TOML file: a table [elements] of "KIND:STYLE" = '
            '"KEY" pairs.',
        ),
        click.option(
            "--fetch",
            "fetch",
            is_flag=True,
            expose_value=False,
            callback=_reading_option,
            help="Download a SudokuPad short id (sudokupad.app/ID) from SudokuPad's server: "
            "only the ID is sent, to https://sudokupad.app/api/puzzle/ID (or the URL in "
            "$SUDOKU_CP_SUDOKUPAD_API); 10 s timeout, 1 MiB cap. Off: nothing is sent.",
        ),
    )
    for option in reversed(options):
        func = option(func)
    return func


def _reading_option(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    given = ctx.meta.setdefault(READING_KEY, {})
    given[param.name] = value
    if not any(given.values()):
        return value  # (nothing given: nothing imported, nothing set)
    from ..formats import sudokupad

    try:
        specs = (
            list(sudokupad.element_specs_from_toml(given["elements"]))
            if given.get("elements")
            else []
        )
        specs += [sudokupad.check_element_spec(spec) for spec in given.get("element") or ()]
    except SudokuError as err:
        raise click.BadParameter(str(err), ctx=ctx, param=param) from None
    if len(specs) > sudokupad.MAX_ELEMENT_SPECS:
        raise click.BadParameter(
            f"{len(specs):,} element mappings, more than {sudokupad.MAX_ELEMENT_SPECS:,}",
            ctx=ctx,
            param=param,
        )
    settings = sudokupad.ReadingSettings(element_specs=tuple(specs), fetch=bool(given.get("fetch")))
    token = sudokupad.set_settings(settings)
    if "token" not in given:  # (the first setting is undone when the command ends)
        given["token"] = token
        ctx.call_on_close(lambda: sudokupad.reset_settings(token))
    return value


def box_option(func: Any) -> Any:
    """``--box ROWSxCOLUMNS``, on every command that takes ``--model``."""
    return click.option("--box", default=None, metavar="ROWSxCOLS", help=BOX_HELP)(func)


STATE_HELP = (
    "Start from a current state of PUZZLE: placed digits and pencil marks, as a candidate "
    "grid (729 symbols for 9x9), a grid of placed digits (81), or an f-puzzles puzzle (JSON, "
    "link or payload: its cells' values and centre marks) — a file or the text. Marks are the "
    "candidates left (a digit not marked is eliminated); a cell without marks keeps every "
    "digit. A state that contradicts the givens, places a digit breaking a rule or leaves a "
    "cell no candidate: exit 2. See docs/hints.md."
)


MAX_INDEX = 10_000_000
"""The furthest puzzle of a file ``--index`` reaches (the file is read up to it)."""


def one_puzzle_options(func: Any) -> Any:
    """``--input-format`` and ``-i/--index``: how a command that works on one puzzle (draw,
    candidates) reads its input, and which puzzle of a file of several it takes
    (:func:`nth_puzzle`)."""
    func = click.option(
        "-i",
        "--index",
        type=click.IntRange(min=1, max=MAX_INDEX),
        default=1,
        show_default=True,
        help="Which puzzle of a file of several (1 is the first).",
    )(func)
    return click.option(
        "--input-format",
        default="auto",
        show_default=True,
        help="How to read the input, as for solve (auto also reads f-puzzles JSON and links, "
        "and 729-symbol candidate grids).",
    )(func)


def nth_puzzle(command: str, puzzle: str, model: Any, input_format: str, index: int) -> Any:
    """The ``index``-th puzzle of the input (a :class:`~sudoku_cp.puzzle.Puzzle`), read up to
    it; one line and exit 2 when the input holds fewer or that one cannot be read."""
    from ..formats import read_input

    for number, record in enumerate(read_input(puzzle, model=model, fmt=input_format), 1):
        if number == index:
            if record.puzzle is None:
                from ..result import shown_id

                fail(f"puzzle {shown_id(str(record.id))}: {one_line(str(record.error))}")
            return record.puzzle
    fail(f"{command}: --index {index}, but the input holds fewer puzzles")


def state_option(func: Any) -> Any:
    """``--state FILE_OR_TEXT``: a current state the command starts from
    (:mod:`sudoku_cp.formats.state`), on every command where a starting position means
    something; the command applies it with :func:`puzzle_state`."""
    return click.option(
        "--state",
        "state",
        default=None,
        metavar="FILE_OR_TEXT",
        callback=_state_value,
        help=STATE_HELP,
    )(func)


def puzzle_state(puzzle: Any, state: str | None) -> Any:
    """The :class:`~sudoku_cp.formats.state.State` ``--state`` gives for ``puzzle`` (checked
    against it; a bad state is a ``PuzzleError``, one line and exit 2), or None without one."""
    if state is None:
        return None
    from ..formats.state import read_state

    return read_state(state, puzzle)


def one_state_puzzle(count: int, state: str | None, command: str) -> None:
    """Refuse ``--state`` with more than one puzzle: a state is one grid's."""
    if state is not None and count > 1:
        fail(f"{command}: --state is one puzzle's state, but the input holds more than one puzzle")


SCALE_HELP = (
    "The rating scale. hodoku (the default): HoDoKu's levels and scores; it rates every "
    "puzzle the logic solver reads, variants and other sizes included, and a puzzle beyond "
    "its techniques still gets a level (Extreme). se: Sudoku Explainer's ER/EP/ED, the "
    "classic forums' scale, for classic 9x9 puzzles with one solution only (SE 1.2.1's rules "
    "and values, its nested forcing chains of levels 2 to 4 included; a path stopped by the "
    "time cap gives a lower bound, written >=x.y)."
)


def scale_option(func: Any) -> Any:
    """``--scale hodoku|se``: one option, one meaning, on every command that rates (``rate``,
    ``check --rate``, ``explain``, ``generate --difficulty``); see
    :mod:`sudoku_cp.logic.scales`."""
    from ..logic.scales import DEFAULT_SCALE, SCALES

    return click.option(
        "--scale",
        type=click.Choice(SCALES),
        default=DEFAULT_SCALE,
        show_default=True,
        help=SCALE_HELP,
    )(func)


def time_cap_option(func: Any) -> Any:
    """``--time-cap SECONDS``: how long one puzzle's rating may take (both scales)."""
    return click.option(
        "--time-cap",
        type=Seconds(0.1, 3600.0),
        default=None,
        metavar="SECONDS",
        help="Seconds one puzzle's rating may take (at most 3600). --scale se: default 60, and "
        "a rating that reaches it says so and gives lower bounds; HoDoKu's scale: no cap "
        "unless given, and a puzzle whose solve reaches it is not rated (one line, exit 3).",
    )(func)
