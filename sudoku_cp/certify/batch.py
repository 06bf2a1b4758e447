"""``check --certify DIR``: certifying a chunk's verdicts, in the worker that judged them.

Each puzzle's certificate is its own file, ``DIR/<index>.cert.gz`` (its 1-based position in the
input, as its record's ``index``), written atomically as soon as it is made, so a run stopped
at any moment leaves only whole certificates, and ``--resume`` writes those of the puzzles it
still checks beside the ones already there. The record gets ``certified`` and the file's path
and SHA-256 — or ``certified: false`` and the reason (a verdict with nothing to certify, a rule
the encoder cannot express, a proof dratify rejects, a verdict the solver contradicts).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import OutputError, SudokuError
from ..puzzle import Puzzle
from ..verdict import CheckRecord
from .certificate import make, store
from .proof import checker

CERTIFIED = ("unique", "none", "multiple")
"""The verdicts a certificate can back (the others claim nothing to prove)."""


def prepare_folder(folder: str | os.PathLike[str]) -> str:
    """Check the certify extra is installed and ``folder`` can take certificates (made if
    missing); the folder as given. One clear error line otherwise."""
    checker()
    path = Path(folder)
    if not str(folder).strip():
        raise SudokuError("--certify needs a folder name, not an empty one")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise SudokuError(f"--certify {folder}: exists and is not a folder") from None
    except OSError as err:
        raise SudokuError(f"--certify {folder}: cannot make the folder: {err.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise SudokuError(f"--certify {folder}: the folder is not writable")
    return str(folder)


def refuse_used_folder(folder: str | os.PathLike[str], *, resumable: bool = True) -> None:
    """Refuse a folder that already holds certificates: a new run names its certificates by
    input position, so it would silently replace another run's (``--resume`` continues the
    run that wrote them instead, for a command that has it: ``resumable``)."""
    try:
        used = sum(1 for _ in Path(folder).glob("*.cert.gz"))
    except OSError:
        return
    if used:
        raise SudokuError(
            f"--certify {folder}: the folder already holds {used:,} certificate"
            f"{'' if used == 1 else 's'} of another run "
            "(they would be replaced): choose an empty folder"
            + (", or --resume the run that wrote them" if resumable else "")
        )


def certify_record(
    record: CheckRecord,
    puzzle: Puzzle | None,
    folder: str,
    time_limit: float | None = None,
    *,
    must_store: bool = False,
) -> None:
    """Certify one record's verdict (setting ``record.certificate``), storing the certificate
    in ``folder``; past ``time_limit`` seconds (proof and check), ``certified: false`` with
    ``timeout: true`` and a reason that starts with ``timeout``. With ``must_store``, a
    certificate made but not stored (a full disk) raises OutputError naming the folder and the
    cause — for ``generate``, whose puzzles carry no record to say it — instead of
    ``certified: false``."""
    start = time.perf_counter()
    verdict = record.verdict.value
    if puzzle is None or verdict not in CERTIFIED:
        record.certificate = {"certified": False, "reason": f"{verdict}: nothing to certify"}
        return
    solutions = record.solutions[: 1 if verdict == "unique" else 2]
    try:
        made = make(puzzle, verdict, solutions, record.puzzle, time_limit=time_limit)
        if made.data is None:
            record.certificate = {"certified": False, "reason": made.reason}
            if made.reason and made.reason.startswith("timeout"):
                record.certificate["timeout"] = True
            return
        path, sha256 = store(made.data, Path(folder), record.index)
    except OSError as err:
        if must_store:
            raise OutputError(
                f"--certify {folder}: cannot write the certificate of puzzle {record.index}: "
                f"{err.strerror or err}"
            ) from None
        reason = err.strerror or str(err)
        record.certificate = {"certified": False, "reason": f"certifying failed: {reason}"}
        return
    except SudokuError as err:
        record.certificate = {"certified": False, "reason": f"certifying failed: {err}"}
        return
    record.certificate = {
        "certified": True,
        "path": str(path),
        "sha256": sha256,
        "seconds": round(time.perf_counter() - start, 6),
    }


def certify_chunk(items: Sequence[Any], records: Sequence[CheckRecord], config: Any) -> None:
    """Certify every record of a chunk (``items`` in the same order as ``records``)."""
    for item, record in zip(items, records, strict=True):
        certify_record(record, item.puzzle, config.certify, config.certify_time_limit)
