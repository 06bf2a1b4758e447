"""The bundled puzzle samples (package data), found by name.

>>> sorted(bundled_names())[:3]
['16x16', '17clue', 'easy']
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .errors import InputError
from .puzzle import Puzzle


@dataclass(frozen=True)
class BundledSet:
    name: str
    filename: str
    description: str


_SETS = (
    BundledSet(
        "17clue", "17clue.csv", "17-clue puzzles (Royle's list, tdoku's form), 1 solution each"
    ),
    BundledSet("top1465", "top1465.csv", "magictour top1465 hard puzzles, 1 solution each"),
    BundledSet(
        "forum-hardest", "forum-hardest.csv", "Enjoy Sudoku forum hardest (2011), 1 solution each"
    ),
    BundledSet(
        "famous", "famous.csv", "named hardest puzzles (AI Escargot, Inkala …), with solutions"
    ),
    BundledSet("easy", "easy.csv", "Project Euler 96 easy grids, 1 solution each"),
    BundledSet(
        "multiple", "multiple.csv", "serg's benchmark: puzzles with 2–1,555 solutions, counts given"
    ),
    BundledSet("16x16", "16x16.csv", "16x16 puzzles (janko.at, course sets), with solutions"),
    BundledSet(
        "killer",
        "killer.jsonl",
        "killer sudoku (janko.at): cages with sums, no givens; 38 unique, 3 with 2 solutions",
    ),
    BundledSet(
        "jigsaw", "jigsaw.csv", "jigsaw sudoku (janko.at): irregular regions, 1 solution each"
    ),
    BundledSet(
        "variants9",
        "variants9.jsonl",
        "published 9x9 variants (f-puzzles JSON): lines, dots, sums, mixed; 1 solution each",
    ),
    BundledSet(
        "published",
        "published.jsonl",
        "published variants (f-puzzles JSON, CC BY 4.0), setters' solutions; some rules not "
        "read yet",
    ),
    BundledSet(
        "iss",
        "iss.jsonl",
        "Interactive Sudoku Solver examples (ISS constraint strings, MIT), published solutions; "
        "some types not read",
    ),
)


def bundled_names() -> list[str]:
    """Names of the bundled samples."""
    return [s.name for s in _SETS]


def bundled_sets() -> tuple[BundledSet, ...]:
    return _SETS


def bundled_path(name: str) -> Path:
    """The file of the bundled sample ``name``; InputError listing the names if unknown."""
    for s in _SETS:
        if s.name == name:
            return Path(str(resources.files("sudoku_cp") / "data" / s.filename))
    raise InputError(f"unknown bundled set '{name}' (bundled sets: {', '.join(bundled_names())})")


def bundled_file(arg: str) -> Path | None:
    """The file of the bundled sample ``arg`` names — unless something on disk has that name,
    which always wins — else None.

    >>> bundled_file("famous").name, bundled_file("no-such-set")
    ('famous.csv', None)
    """
    if arg in bundled_names() and not os.path.lexists(arg):
        return bundled_path(arg)
    return None


def load_puzzles(name: str, count: int | None = None) -> list[Puzzle]:
    """The first ``count`` puzzles (all when None) of a bundled sample, by name, or of any
    puzzle file the formats module reads, by path; lines that are not puzzles are left out.

    >>> len(load_puzzles("famous", 3))
    3
    """
    from .formats import read_puzzles

    path = bundled_file(name) or Path(name)
    puzzles = (record.puzzle for record in read_puzzles(path) if record.puzzle is not None)
    return list(itertools.islice(puzzles, count))


def bundled_count(name: str) -> int:
    """How many puzzles the bundled sample holds (data rows of its CSV, lines of its JSONL)."""
    path = bundled_path(name)
    header = 1 if path.suffix == ".csv" else 0
    with path.open(encoding="utf-8") as f:
        return sum(1 for line in f if line.strip()) - header
