"""Writing generated puzzles in every form the tool writes, one puzzle at a time.

``line`` (one puzzle a line; a puzzle with regions or cages as its f-puzzles link, which every
command reads back), ``pretty``, ``rows`` and ``json`` (grids: for puzzles of the model's own
groups only — they cannot show regions or cages), ``fpuzzles`` (the f-puzzles JSON, one a
line), ``jsonl`` (a record per puzzle: the puzzle as ``check`` reads it, its solution, seed,
clues, minimality, difficulty (the logic rating: level, score, hardest technique; with
``--scale se`` SE's er, ep, ed, each with ``*_exact``, false for a lower bound; null where not
rated) and the cross-check's backends and times) and ``csv`` (the same, flattened: SE's
columns in place of level and score). Each reads back with ``sudoku-cp check``.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..formats.fpuzzles import fpuzzles_data, fpuzzles_json
from ..formats.line import format_line
from ..formats.record_form import record_text
from ..formats.writers import format_grid
from .difficulty import SEDifficulty
from .make import Generated
from .options import Options

FORMATS = ("line", "pretty", "rows", "json", "fpuzzles", "jsonl", "csv")
GRID_FORMATS = ("pretty", "rows", "json")
CSV_COLUMNS = (
    "index",
    "seed",
    "puzzle",
    "solution",
    "size",
    "clues",
    "minimal",
    "level",
    "score",
    "hardest",
    "measure",
    "verdict",
    "backends",
    "seconds",
    # (after the others: a reader of the earlier columns by place is not moved)
    "model",
    "box",
    "kind",
    "symmetry",
    "attempts",
    "counted_by",
)
RATINGS = ("level", "score")
"""The columns of HoDoKu's rating in :data:`CSV_COLUMNS`, replaced by :data:`SE_RATINGS` with
``--scale se``."""
SE_RATINGS = ("er", "ep", "ed", "er_exact", "ep_exact", "ed_exact")


def csv_columns(scale: str = "hodoku") -> tuple[str, ...]:
    """The CSV columns of a run on ``scale``: SE's values where HoDoKu's level and score are.

    >>> csv_columns("se")[7:14]
    ('er', 'ep', 'ed', 'er_exact', 'ep_exact', 'ed_exact', 'hardest')
    """
    if scale != "se":
        return CSV_COLUMNS
    at = CSV_COLUMNS.index(RATINGS[0])
    return CSV_COLUMNS[:at] + SE_RATINGS + CSV_COLUMNS[at + len(RATINGS) :]


def record(made: Generated, options: Options) -> dict[str, Any]:
    """The JSON Lines record of one puzzle."""
    puzzle = made.puzzle
    data: dict[str, Any] = {
        "index": made.index,
        "seed": made.seed,
        "puzzle": record_text(puzzle.cells, puzzle.size, puzzle.model),
        "solution": format_line(made.solution, puzzle.size),
        "size": puzzle.size,
        "model": options.model,
        "box": _box(made),
        "kind": options.variant,
        "clues": made.clues,
        "symmetry": options.symmetry,
        "minimal": made.minimal,
        "difficulty": _difficulty(made),
        "verdict": made.record.verdict.value,
        "backends": {
            name: {"status": run.status.value, "seconds": round(run.seconds, 6)}
            for name, run in made.record.backends.items()
        },
        "attempts": made.attempts,
        "seconds": round(made.seconds, 6),
        "counted_by": made.counted_by,
    }
    if made.record.certificate is not None:
        data["certified"] = made.record.certificate.get("certified", False)
        data["certificate"] = {k: v for k, v in made.record.certificate.items() if k != "certified"}
    return data


def _difficulty(made: Generated) -> dict[str, Any] | None:
    """The rating's level, score and hardest technique; None when not rated (the model has
    rules beyond groups, or the run's output did not need it)."""
    rated = made.difficulty
    if rated is None:
        return None
    if isinstance(rated, SEDifficulty):
        return {
            **{key: getattr(rated, key) for key in SE_RATINGS},
            "outcome": rated.outcome,
            "hardest": rated.hardest,
            "measure": rated.measure,
        }
    return {
        "level": rated.level,
        "score": rated.score,
        "hardest": rated.hardest,
        "measure": rated.measure,
    }


def _box(made: Generated) -> str | None:
    """The box shape, ``3x3``; None for a jigsaw's regions or a model without boxes."""
    model = made.puzzle.model
    shape = model.box_for(made.puzzle.size) if model.uses_boxes and model.regions is None else None
    return f"{shape[0]}x{shape[1]}" if shape else None


def csv_header(scale: str = "hodoku") -> str:
    return _csv_line(csv_columns(scale))


def text(made: Generated, fmt: str, options: Options) -> str:
    """The puzzle in format ``fmt``, ending in a newline (a blank line after a grid)."""
    puzzle = made.puzzle
    if fmt == "line":
        return record_text(puzzle.cells, puzzle.size, puzzle.model) + "\n"
    if fmt in GRID_FORMATS:
        shown = format_grid(puzzle.cells, puzzle.size, fmt, puzzle.model)
        return shown + ("\n" if fmt == "json" else "\n\n")
    if fmt == "fpuzzles":
        return fpuzzles_json(fpuzzles_data(puzzle.cells, puzzle.size, puzzle.model)) + "\n"
    data = record(made, options)
    if fmt == "jsonl":
        return json.dumps(data, separators=(",", ":")) + "\n"
    columns = csv_columns(options.scale)
    for key in (*RATINGS, *SE_RATINGS, "hardest", "measure"):
        data[key] = (data["difficulty"] or {}).get(key, "")
    data["backends"] = " ".join(
        f"{name}:{run['status']}:{run['seconds']}" for name, run in data["backends"].items()
    )
    return _csv_line([data[c] for c in columns])


def _csv_line(values: Any) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(values)
    return out.getvalue()
