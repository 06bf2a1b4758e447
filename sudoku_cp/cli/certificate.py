"""``sudoku-cp certificate verify``: re-check stored certificates, trusting nothing in them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

from .app import EXIT_NEGATIVE, EXIT_OK, EXIT_USAGE, main

MAX_PATHS = 10_000_000
"""The most certificates one command verifies (a folder is listed lazily up to this)."""


@main.group()
def certificate() -> None:
    """Uniqueness certificates made by `check --certify DIR`."""


def _certificates(paths: tuple[str, ...]) -> Iterator[Path]:
    from ..certify.certificate import SUFFIX

    count = 0
    for arg in paths:
        path = Path(arg)
        found = sorted(path.glob(f"*{SUFFIX}")) if path.is_dir() else [path]
        for item in found:
            count += 1
            if count > MAX_PATHS:
                raise click.UsageError(f"more than {MAX_PATHS:,} certificates in one command")
            yield item


@certificate.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("-q", "--quiet", is_flag=True, help="Print only the rejected certificates.")
def verify(paths: tuple[str, ...], quiet: bool) -> None:
    """Re-check certificates (files, or folders of *.cert.gz) from scratch.

    Each certificate's puzzle is read back from its text and model and encoded again by the
    certificates' own CNF encoder; the stored CNF must be exactly that (with the solution's
    blocking clause for a unique claim), the solution must pass the validator and satisfy the
    CNF, and dratify must verify the DRAT proof against the rebuilt formula. One line per
    certificate: `PATH: verified (unique)` or `PATH: rejected: REASON`.

    Exit 0 every certificate verified; 1 some rejected; 2 a path that is no certificate (not
    there, not gzip, not JSON, not a sudoku-cp certificate), or the certify extra missing.
    """
    from ..certify.certificate import CertificateError, load
    from ..certify.certificate import verify as verify_data
    from ..certify.proof import checker

    checker()  # before any file: a missing extra is one line, exit 2
    verified = rejected = unreadable = 0
    for path in _certificates(paths):
        try:
            data = load(path)
        except CertificateError as err:
            unreadable += 1
            click.echo(f"sudoku-cp: error: {err}", err=True)
            continue
        reason = verify_data(data)
        if reason is None:
            verified += 1
            if not quiet:
                click.echo(f"{path}: verified ({data.get('claim')})")
        else:
            rejected += 1
            click.echo(f"{path}: rejected: {reason}")
    if not quiet:
        click.echo(f"{verified} verified, {rejected} rejected, {unreadable} unreadable", err=True)
    if unreadable or not (verified or rejected):
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_NEGATIVE if rejected else EXIT_OK)
