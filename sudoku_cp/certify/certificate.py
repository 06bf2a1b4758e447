"""Certificates: making one for a verdict, storing it, and re-checking it from scratch.

A certificate is one gzip-compressed JSON object (``*.cert.gz``):

- ``puzzle``: the givens (single-line form), ``model``: the model as data — its groups as a
  model file says them, a puzzle's own regions, every rule with its fields; ``record``: the
  puzzle as the run's records name it (for people, not used);
- ``claim``: ``unique``, ``none`` or ``multiple``; ``solutions``: the found solution
  (``unique``) or the two witnesses (``multiple``), single-line form;
- ``cnf``: the DIMACS formula refuted — the puzzle's CNF (:mod:`.cnf`), with, for ``unique``,
  the clause blocking the solution last; ``proof``: the DRAT refutation (not for
  ``multiple``, whose validated witnesses are the evidence);
- ``made_with``: the solver, checker and their versions (for people; not trusted).

:func:`verify` trusts none of it: it reads the puzzle back from its text and model, encodes it
again, requires the stored CNF to be exactly that encoding (plus the blocking clause of the
stored solution), requires the solution(s) to pass the validator and satisfy the CNF, and has
dratify check the proof against the formula it built itself.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..errors import SudokuError
from ..formats.line import format_line
from ..model import Model, model_from_dict
from ..puzzle import Puzzle
from .cnf import Formula, Unencodable, blocking_clause, encode
from .proof import CertifyTimeout, Unproved, check, checker, refute, unsatisfied
from .proof import time_limit as limited

FORMAT = "sudoku-cp certificate 1"
SUFFIX = ".cert.gz"
MAX_CERTIFICATE_BYTES = 64 << 20
"""The largest certificate read, compressed or not (a 25x25 one is a few MB)."""


class CertificateError(SudokuError):
    """A certificate cannot be read at all (not a certificate, not there)."""


@dataclass(frozen=True)
class Made:
    """What certifying one verdict gave: the certificate's data (None when not certified)
    and why not."""

    data: dict[str, Any] | None
    reason: str | None = None


def model_data(model: Model) -> dict[str, Any]:
    """The model as data: its groups as a model file says them, a puzzle's own regions, and
    every rule with its fields (:func:`read_puzzle` builds it back)."""
    data: dict[str, Any] = {"description": model.description, "groups": list(model.group_kinds)}
    if model.windows:
        keys = ("row", "col", "height", "width")
        data["windows"] = [dict(zip(keys, w, strict=True)) for w in model.windows]
    if model.cell_groups:
        data["cells"] = [{"cells": [list(c) for c in cells]} for cells in model.cell_groups]
    if model.sizes is not None:
        data["sizes"] = list(model.sizes)
    if model.box is not None:
        data["box"] = f"{model.box[0]}x{model.box[1]}"
    rules = [
        {"key": rule.key, **{f.name: getattr(rule, f.name) for f in fields(rule)}}
        for rule in model.rules
    ]
    regions = None if model.regions is None else list(model.regions)
    return {"name": model.name, "data": data, "regions": regions, "rules": rules}


def _tuples(value: Any) -> Any:
    """JSON's lists back as the tuples rules hold."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def read_puzzle(text: str, model: dict[str, Any]) -> Puzzle:
    """The puzzle a certificate names: its givens (single-line form) under its model."""
    from ..formats.line import line_cells
    from ..rules import RULE_KINDS

    if not isinstance(model, dict) or not isinstance(model.get("data"), dict):
        shown = json.dumps(model)[:40] if model is None or isinstance(model, dict) else None
        what = shown or f"a {type(model).__name__}"
        raise CertificateError(f"its model is {what}, not an object with its 'data'")
    base = model_from_dict(dict(model["data"]), name=str(model.get("name", "")))
    rules = []
    for entry in model.get("rules") or []:
        fields_ = dict(entry)
        kind = RULE_KINDS.get(str(fields_.pop("key", "")))
        if kind is None:
            raise CertificateError(f"unknown rule {entry.get('key')!r}")
        rules.append(kind(**{k: _tuples(v) for k, v in fields_.items()}))
    cells, size = line_cells(text)
    if rules or model.get("regions") is not None:
        base = base.with_rules(regions=model.get("regions"), rules=rules, size=size)
    return Puzzle(tuple(cells), base)


def make(
    puzzle: Puzzle,
    claim: str,
    solutions: Sequence[Sequence[int]],
    record: str | None = None,
    *,
    time_limit: float | None = None,
) -> Made:
    """The certificate of ``claim`` (``unique`` with its solution, ``none``, ``multiple`` with
    two witnesses) for ``puzzle`` — or why there is none. Every proof is checked by dratify
    here, before anything is called certified. ``record`` is how the run's records name the
    puzzle (kept for people; the certificate's own ``puzzle`` and ``model`` are what count).
    ``time_limit`` (seconds, proof and check together) gives, past it, no certificate and a
    reason that starts with ``timeout``."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        with limited(time_limit):
            return _make(puzzle, claim, solutions, record, deadline)
    except CertifyTimeout as err:
        return Made(None, str(err))


def _make(
    puzzle: Puzzle,
    claim: str,
    solutions: Sequence[Sequence[int]],
    record: str | None,
    deadline: float | None,
) -> Made:
    checker()
    n = puzzle.size
    text = format_line(puzzle.cells, n)
    try:
        model = model_data(puzzle.model)
        formula = encode(puzzle)
        if encode(read_puzzle(text, model)) != formula:
            return Made(None, "the puzzle's model does not read back as the same model")
    except (SudokuError, TypeError, ValueError) as err:
        return Made(None, str(err))
    data: dict[str, Any] = {
        "format": FORMAT,
        "claim": claim,
        "puzzle": text,
        "model": model,
        "record": record if record is not None else text,
        "size": n,
        "solutions": [format_line(tuple(s), n) for s in solutions],
    }
    extra = []
    if claim == "unique":
        if len(solutions) != 1:
            return Made(None, "a unique verdict needs its one solution")
        extra = [blocking_clause(solutions[0], n)]
    elif claim == "multiple":
        why = _witnesses(puzzle, formula, solutions)
        if why:
            return Made(None, why)
        data["made_with"] = _made_with()
        return Made(data)
    elif claim != "none":
        return Made(None, f"a {claim} verdict has nothing to certify")
    for solution in solutions:
        problems = puzzle.problems_with(solution)
        if problems:
            return Made(None, f"the solution is wrong: {problems[0]}")
    # A CNF that excludes the real solution would "prove" anything: the solution must be one
    # of its models (checked clause by clause) before its refutation means anything.
    try:
        why, proof = refute(formula, extra, solutions, deadline)
    except Unproved as err:  # (a timeout included)
        return Made(None, str(err))
    if why:
        return Made(None, f"the solution is not a model of the CNF: {why}")
    if proof is None:
        return Made(None, f"the CNF is satisfiable: the {claim} verdict is wrong")
    dimacs = formula.dimacs(extra)
    why = check(formula, proof, extra)
    if why:
        return Made(None, why)
    data.update(cnf=dimacs, proof=proof, made_with=_made_with())
    return Made(data)


def _solution_problem(puzzle: Puzzle, formula: Formula, solution: Sequence[int]) -> str | None:
    problems = puzzle.problems_with(solution)
    if problems:
        return f"the solution is wrong: {problems[0]}"
    why = unsatisfied(formula, solution, puzzle.size)
    return f"the solution is not a model of the CNF: {why}" if why else None


def _witnesses(puzzle: Puzzle, formula: Formula, solutions: Sequence[Sequence[int]]) -> str | None:
    if len(solutions) < 2 or tuple(solutions[0]) == tuple(solutions[1]):
        return "a multiple verdict needs two different solutions"
    for solution in solutions[:2]:
        why = _solution_problem(puzzle, formula, solution)
        if why:
            return why
    return None


def _made_with() -> dict[str, str]:
    from importlib.metadata import version

    from .proof import SOLVER

    return {
        "solver": f"{SOLVER} (python-sat {version('python-sat')})",
        "checker": f"dratify {version('dratify')}",
    }


# --- storing -------------------------------------------------------------------------------------
TEMP_PREFIX, TEMP_SUFFIX = ".cert-", ".tmp"
"""How :func:`store` names a certificate being written (renamed to ``<index>.cert.gz`` when
whole); a process killed outright (SIGKILL) leaves it behind."""


def remove_stale_temporaries(folder: Path) -> int:
    """Remove the temporary files :func:`store` left in ``folder`` when a run was killed before
    renaming them; how many. Called only while the run holds the folder's lock (no other run is
    writing one); only regular files named as :func:`store` names them, nothing else."""
    removed = 0
    try:
        found = list(folder.glob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}"))
    except OSError:
        return 0
    for path in found:
        try:
            if path.is_file() and not path.is_symlink():
                path.unlink()
                removed += 1
        except OSError:
            continue  # left as it was: it is no certificate, and the run does not read it
    return removed


def store(data: dict[str, Any], folder: Path, index: int) -> tuple[Path, str]:
    """Write the certificate as ``folder/<index>.cert.gz`` (atomically: a stopped run leaves
    the old file or the new one, never half of one); its path and the SHA-256 of its bytes."""
    blob = gzip.compress(json.dumps(data, separators=(",", ":")).encode(), 1, mtime=0)
    path = folder / f"{index:07d}{SUFFIX}"
    from ..atomic import write_atomically  # (here: verifying never writes)

    # (Named TEMP_PREFIX…TEMP_SUFFIX, so a later run can remove one a kill left behind.)
    write_atomically(path, blob, prefix=TEMP_PREFIX, mode=0o600)
    return path, hashlib.sha256(blob).hexdigest()


def file_kind(status: os.stat_result) -> str:
    """What a file that is not a regular one is, in words (``a named pipe`` …)."""
    for test, name in (
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(status.st_mode):
            return name
    return "not a regular file"


def load(path: Path) -> dict[str, Any]:
    """A stored certificate's data, or CertificateError naming the file and what is wrong."""
    try:
        # Opened without waiting (a named pipe would block the open until a writer came),
        # then read only if it is a regular file.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise CertificateError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CertificateError(f"{path}: a folder without any *{SUFFIX} certificate") from None
    except OSError as err:
        raise CertificateError(f"{path}: cannot be read ({err.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            if stat.S_ISDIR(os.fstat(fd).st_mode):
                raise CertificateError(f"{path}: a folder without any *{SUFFIX} certificate")
            raise CertificateError(f"{path}: not a regular file ({file_kind(os.fstat(fd))})")
        with gzip.open(os.fdopen(fd, "rb", closefd=False), "rb") as handle:
            raw = handle.read(MAX_CERTIFICATE_BYTES + 1)
    except (OSError, EOFError) as err:
        raise CertificateError(f"{path}: not a gzip-compressed certificate ({err})") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_CERTIFICATE_BYTES:
        raise CertificateError(f"{path}: larger than the cap of {MAX_CERTIFICATE_BYTES:,} bytes")
    try:
        data = json.loads(raw)
    except RecursionError:
        raise CertificateError(f"{path}: not a certificate (JSON nested too deeply)") from None
    except ValueError:
        raise CertificateError(f"{path}: not a certificate (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CertificateError(f"{path}: not a sudoku-cp certificate (format {FORMAT!r})")
    return data


# --- verifying -----------------------------------------------------------------------------------
def verify(data: dict[str, Any]) -> str | None:
    """Why a certificate's claim does not hold, or None when it is verified from scratch."""
    from ..result import witness_grid

    try:
        claim = data["claim"]
        puzzle = read_puzzle(str(data["puzzle"]), data["model"])
        solutions = [witness_grid(str(line)) for line in data.get("solutions") or []]
    except (KeyError, TypeError, ValueError, SudokuError) as err:
        return f"its puzzle cannot be read: {err}"
    if "size" in data and data["size"] != puzzle.size:  # (a field that says another puzzle)
        n = puzzle.size
        return f"its size field says {data['size']!r}, but its puzzle is {n}x{n}"
    try:
        formula = encode(puzzle)
    except Unencodable as err:
        return str(err)
    if claim == "multiple":
        return _witnesses(puzzle, formula, solutions)
    if claim not in ("unique", "none"):
        shown = json.dumps(claim)[:40] if isinstance(claim, str) else f"(a {type(claim).__name__})"
        return f"unknown claim {shown}"
    if claim == "unique" and len(solutions) != 1:
        return "a unique claim needs exactly one solution"
    for solution in solutions:
        why = _solution_problem(puzzle, formula, solution)
        if why:
            return why
    extra = [blocking_clause(solutions[0], puzzle.size)] if claim == "unique" else []
    expected = formula.dimacs(extra)
    stored = data.get("cnf")
    if stored != expected:
        what = "with its solution blocked " if claim == "unique" else ""
        where = _first_difference(stored, expected)
        return f"the stored CNF is not the puzzle's CNF {what}({where})"
    proof = data.get("proof")
    if not isinstance(proof, str):
        return "it holds no proof"
    return check(formula, proof, extra)


def _first_difference(stored: Any, expected: str) -> str:
    if not isinstance(stored, str):
        return "it holds none"
    have, want = stored.splitlines(), expected.splitlines()
    for number, (a, b) in enumerate(zip(have, want, strict=False)):
        if a != b:
            return f"line {number + 1} is {a[:40]!r}, expected {b[:40]!r}"
    return f"{len(have)} lines, expected {len(want)}"


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def other_puzzle(data: dict[str, Any], path: Path, expected: dict[int, Any]) -> str | None:
    """Why a (verified) certificate is not for the puzzle of ``expected`` its file name numbers
    (``<N>.cert.gz``: puzzle N): another givens line, or another CNF — another model, rules
    added or left out. None when it certifies exactly that puzzle."""
    name = path.name
    number = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else ""
    if not number.isdigit():
        return f"its file name does not number a puzzle of the input (<N>{SUFFIX})"
    index = int(number)
    puzzle = expected.get(index)
    if puzzle is None:
        return f"the input holds no puzzle {index}"
    if isinstance(puzzle, str):
        return f"puzzle {index} of the input cannot be read: {puzzle}"
    mine = read_puzzle(str(data["puzzle"]), data["model"])
    if format_line(mine.cells, mine.size) != format_line(puzzle.cells, puzzle.size):
        return f"it certifies other givens than puzzle {index} of the input"
    try:
        same = encode(mine) == encode(puzzle)
    except Unencodable as err:
        return f"puzzle {index} of the input cannot be encoded: {err}"
    if not same:
        return f"it certifies puzzle {index}'s givens under other rules than the input's"
    return None
