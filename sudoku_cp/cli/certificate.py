"""``sudoku-cp certificate verify``: re-check stored certificates, trusting nothing in them."""

from __future__ import annotations

import itertools
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from .app import EXIT_NEGATIVE, EXIT_OK, EXIT_USAGE, box_option, jobs_cap, main, model_option

MAX_PATHS = 10_000_000
"""The most certificates one command verifies (a folder is listed lazily up to this)."""


@main.group()
def certificate() -> None:
    """Uniqueness certificates made by `check --certify DIR`."""


def _certificates(paths: tuple[str, ...]) -> Iterator[Path]:
    """Each file named, and the certificates in each folder named (a folder without any is
    yielded itself, so that it is reported)."""
    from ..certify.certificate import SUFFIX, file_kind

    count = 0
    for arg in paths:
        path = Path(arg)
        found = sorted(path.glob(f"*{SUFFIX}")) if os.path.isdir(path) else [path]
        for item in found or [path]:
            if item is not path and not _regular(item):
                # a named pipe would block the reading; a folder is no certificate
                kind = file_kind(os.stat(item)) if item.exists() else "gone"
                click.echo(f"sudoku-cp: skipped {item}: not a regular file ({kind})", err=True)
                continue
            count += 1
            if count > MAX_PATHS:
                raise click.UsageError(f"more than {MAX_PATHS:,} certificates in one command")
            yield item


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


_EXPECTED: dict[int, Any] | None = None
"""With ``--puzzles``: the input's puzzles by index (a Puzzle, or the reason it is none); set
before the workers start (they are forked), None without ``--puzzles``."""


def _verify_file(path: Path) -> tuple[str, str | None]:
    """``("verified", claim)``, ``("rejected", reason)`` or ``("unreadable", error)``."""
    from ..certify.certificate import CertificateError, load, other_puzzle
    from ..certify.certificate import verify as verify_data

    try:
        data = load(path)
    except CertificateError as err:
        return "unreadable", str(err)
    reason = verify_data(data)
    if reason is None and _EXPECTED is not None:
        reason = other_puzzle(data, path, _EXPECTED)
    return ("verified", str(data.get("claim"))) if reason is None else ("rejected", reason)


def _verified(paths: Iterator[Path], jobs: int) -> Iterator[tuple[Path, tuple[str, str | None]]]:
    """Each path with its outcome, in order; ``jobs`` worker processes (0: this one)."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    # (--puzzles reaches the workers only by forking)
    if jobs == 0 or (_EXPECTED is not None and "fork" not in methods):
        for path in paths:
            yield path, _verify_file(path)
        return
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        while batch := list(itertools.islice(paths, 64 * jobs)):
            yield from zip(batch, pool.map(_verify_file, batch, chunksize=8), strict=True)


@certificate.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=0),
    default=None,
    callback=jobs_cap,
    help="Worker processes [default: every core; 0 = in this process; at most 4 per core].",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only the rejected certificates.")
@click.option(
    "--puzzles",
    "puzzles",
    default=None,
    metavar="FILE",
    help="The input the certificates were made for: each certificate <N>.cert.gz must "
    "certify puzzle N of FILE (the same givens and rules, read with --model and --box), "
    "else it is rejected. Without it a certificate is checked only against the puzzle it "
    "holds itself.",
)
@model_option
@box_option
def verify(
    paths: tuple[str, ...],
    jobs: int | None,
    quiet: bool,
    puzzles: str | None,
    model: str,
    box: str | None,
) -> None:
    """Re-check certificates (files, or folders of *.cert.gz) from scratch.

    Each certificate's puzzle is read back from its givens and model and encoded again by the
    certificates' own CNF encoder; the stored CNF must be exactly that (with the solution's
    blocking clause for a unique claim), the solution must pass the validator and satisfy the
    CNF, and dratify must verify the DRAT proof against the rebuilt formula. One line per
    certificate: `PATH: verified (unique)` or `PATH: rejected: REASON`.

    Exit 0 every certificate verified; 1 some rejected; 2 a path that is no certificate (not
    there, not gzip, not JSON, not a sudoku-cp certificate), or the certify extra missing.
    """
    from ..batch import default_jobs
    from ..certify.proof import checker

    checker()  # before any file: a missing extra is one line, exit 2
    global _EXPECTED
    _EXPECTED = None
    if puzzles is not None:
        from ..formats import read_input
        from ..model import load_model

        _EXPECTED = {
            record.index: record.puzzle if record.puzzle is not None else str(record.error)
            for record in read_input(puzzles, model=load_model(model, box=box))
        }
    tally = {"verified": 0, "rejected": 0, "unreadable": 0}
    workers = default_jobs() if jobs is None else jobs
    for path, (outcome, said) in _verified(_certificates(paths), workers):
        tally[outcome] += 1
        if outcome == "unreadable":
            click.echo(f"sudoku-cp: error: {said}", err=True)
        elif outcome == "rejected":
            click.echo(f"{path}: rejected: {said}")
        elif not quiet:
            click.echo(f"{path}: verified ({said})")
    if not quiet:
        counts = ", ".join(f"{count} {outcome}" for outcome, count in tally.items())
        click.echo(counts, err=True)
    if tally["unreadable"] or not (tally["verified"] or tally["rejected"]):
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_NEGATIVE if tally["rejected"] else EXIT_OK)
