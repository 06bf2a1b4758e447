"""Steps and traces as text and as JSON-ready data (what ``sudoku-cp explain`` prints).

>>> from sudoku_cp import Puzzle
>>> from sudoku_cp.logic.solver import solve_logically
>>> trace = solve_logically(Puzzle.parse("12.............."))
>>> trace.outcome
'stalled'
>>> print(format_candidates(trace.values, trace.candidates, 4))
1    2    34   34
34   34   12   12
234  134  1234 1234
234  134  1234 1234
"""

from __future__ import annotations

from typing import Any

from ..model import box_shape
from .board import cell_name, digits_of
from .rating import rating_of, technique_rating
from .steps import Candidate, Step, Trace

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def symbol(digit: int) -> str:
    return SYMBOLS[digit - 1] if digit <= len(SYMBOLS) else f"({digit})"


def format_candidates(values: tuple[int, ...], candidates: tuple[int, ...], size: int) -> str:
    """The grid with each empty cell's candidates, columns aligned (a box per blank column
    and line when the size has boxes)."""
    cells = [
        symbol(values[c]) if values[c] else "".join(map(symbol, digits_of(candidates[c])))
        for c in range(size * size)
    ]
    width = max(len(text) for text in cells)
    shape = box_shape(size)
    lines = []
    for row in range(size):
        parts = []
        for col in range(size):
            parts.append(cells[row * size + col].ljust(width))
            if shape and size > 4 and col % shape[1] == shape[1] - 1 and col < size - 1:
                parts.append("|")
        lines.append(" ".join(parts).rstrip())
        if shape and size > 4 and row % shape[0] == shape[0] - 1 and row < size - 1:
            lines.append("-" * len(lines[-1]))
    return "\n".join(lines)


def _candidates(items: tuple[Candidate, ...], size: int) -> list[dict[str, Any]]:
    return [{"cell": cell_name(c, size), "index": c, "digit": d} for c, d in items]


def _end_name(candidate: Candidate, cells: tuple[int, ...], size: int) -> str:
    """``r1c1=4``; a group node's end (grouped chains) ``r1c1,r1c2=4``."""
    names = ",".join(cell_name(c, size) for c in cells) if cells else cell_name(candidate[0], size)
    return f"{names}={candidate[1]}"


def step_data(step: Step, size: int, labels: tuple[str, ...]) -> dict[str, Any]:
    level, score = technique_rating(step.technique)
    data = {
        "technique": step.technique,
        "level": level,
        "score": score,
        "text": step.text,
        "placements": _candidates(step.placements, size),
        "eliminations": _candidates(step.eliminations, size),
        "proof": _candidates(step.proof, size),
        "groups": [labels[g] for g in step.groups],
        "links": [
            {
                "start": _end_name(link.start, link.start_cells, size),
                "end": _end_name(link.end, link.end_cells, size),
                "strong": link.strong,
            }
            for link in step.links
        ],
    }
    if step.cells:  # a variant step: the cells of the rule it reads
        data["cells"] = [cell_name(c, size) for c in step.cells]
    if step.rule:  # and the kind of that rule (its key, as `sudoku-cp rules` lists them)
        data["rule"] = step.rule
    return data


def trace_data(trace: Trace) -> dict[str, Any]:
    """The whole solve as JSON-ready data: the steps, the outcome and the rating. A solve the
    time cap stopped is outcome "time cap" with no rating (its steps are only the first ones:
    rated, it would look stalled, Extreme)."""
    size = trace.puzzle.size
    labels = trace.puzzle.model.group_labels(size)
    capped = trace.outcome == "stalled" and trace.timed_out
    data: dict[str, Any] = {
        "puzzle": trace.puzzle.to_line(),
        "outcome": "time cap" if capped else trace.outcome,
        "rating": None if capped else rating_of(trace).to_dict(),
        "steps": [step_data(step, size, labels) for step in trace.steps],
    }
    if trace.outcome == "stalled":
        data["candidates"] = {
            cell_name(c, size): "".join(map(symbol, digits_of(mask)))
            for c, mask in enumerate(trace.candidates)
            if not trace.values[c]
        }
    return data


def format_trace(trace: Trace) -> str:
    """The steps in order, one numbered paragraph each, then the outcome and the rating."""
    rating = rating_of(trace)
    lines = [f"puzzle: {trace.puzzle.to_line()}"]
    for number, step in enumerate(trace.steps, 1):
        level, score = technique_rating(step.technique)
        lines.append(f"{number:>3}. {step.technique} ({level}, {score}): {step.text}")
    if trace.outcome == "solved":
        lines.append(f"solved in {len(trace.steps)} steps, without guessing")
    elif trace.outcome == "contradiction":
        lines.append(
            f"contradiction after {len(trace.steps)} steps: the puzzle has no solution "
            "(every step holds for any solution, and a cell or group ran out of digits)"
        )
    elif trace.timed_out:  # (not rated: the steps are only the first ones)
        lines.append(
            f"stopped after {len(trace.steps)} steps: the time cap was reached; candidates left:"
        )
        lines.append(format_candidates(trace.values, trace.candidates, trace.puzzle.size))
        return "\n".join(lines)
    else:
        lines.append(
            f"stalled after {len(trace.steps)} steps: no technique applies; candidates left:"
        )
        lines.append(format_candidates(trace.values, trace.candidates, trace.puzzle.size))
    if trace.outcome != "contradiction":
        lines.append(
            f"level {rating.level}, score {rating.score}, "
            # (a full grid takes no step: its hardest is empty)
            f"hardest technique {rating.hardest or 'none (no step taken)'}"
            + (
                f" (hardest applied: {rating.hardest_used or 'none, no step taken'})"
                if rating.hardest == "stalled"
                else ""
            )
        )
    return "\n".join(lines)
