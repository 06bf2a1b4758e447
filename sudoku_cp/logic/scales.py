"""The two rating scales and the one place that picks between them, for every command that
rates: ``rate``, ``check --rate``, ``explain`` and ``generate --difficulty`` (``--scale``).

``hodoku`` (the default): HoDoKu's levels and scores (:mod:`sudoku_cp.logic.rating`). It rates
every puzzle the logic solver reads — any size, variants with their rules — and a puzzle the
techniques cannot finish is still rated (Extreme, "stalled").

``se``: Sudoku Explainer's ER/EP/ED (:mod:`sudoku_cp.logic.se`), the scale of the classic
forums' lists. It is defined on classic 9×9 puzzles with one solution only, and where the time
cap is reached, or no rule of SE's moves on (SE prints 20.0 there), its values are lower bounds
(``*_exact`` false, written ``≥x.y``).

>>> from sudoku_cp import Puzzle
>>> p = ".......193..6..............6...8.5...4....3......1....48.....7....2..4...1.9....."
>>> data = se_rating_data(Puzzle.parse(p), 60.0)
>>> data["scale"], data["er"], data["ep"], data["ed"], data["outcome"]
('se', 2.8, 1.5, 1.5, 'solved')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..puzzle import Puzzle

SCALES = ("hodoku", "se")
"""The scales ``--scale`` names, the default first."""
DEFAULT_SCALE = "hodoku"

SE_KEYS = ("er", "ep", "ed", "er_exact", "ep_exact", "ed_exact", "outcome", "hardest", "steps")
"""What an SE rating holds, as ``rate --scale se`` writes it (:meth:`.se.SERating.to_dict`)."""


def se_rating_data(puzzle: Puzzle, time_cap: float) -> dict[str, Any]:
    """``puzzle``'s SE rating as a record's ``rating``: ``scale`` "se" and :data:`SE_KEYS` —
    or ``er`` None and the ``reason`` SE's scale does not rate it (not classic 9×9, not one
    solution). A rating that reached ``time_cap`` has ``outcome`` "time cap" and lower bounds."""
    from .se import NotRatable, rate_puzzle_se

    try:
        rating = rate_puzzle_se(puzzle, time_cap)
    except NotRatable as err:
        return {"scale": "se", "er": None, "reason": str(err)}
    data: dict[str, Any] = {"scale": "se", **rating.to_dict()}
    if rating.outcome == "time cap":
        data["time_cap"] = time_cap
    return data


def se_text(data: dict[str, Any]) -> str:
    """``ER/EP/ED`` of :func:`se_rating_data`'s record, ``≥`` on lower bounds (``-`` unrated).

    >>> se_text({"er": 7.5, "ep": 1.2, "ed": 1.2, "er_exact": False, "ep_exact": True,
    ...          "ed_exact": True})
    '≥7.5/1.2/1.2'
    """
    if data.get("er") is None:
        return "-"
    return "/".join(
        f"{'' if data.get(f'{key}_exact') else '≥'}{float(data[key]):.1f}"
        for key in ("er", "ep", "ed")
    )


def rate_into(record: Any, puzzle: Puzzle | None, time_limit: float | None, scale: str) -> None:
    """``check --rate``: rate a unique record's puzzle on ``scale`` into ``record.rating``,
    within ``time_limit`` seconds (SE: its default cap when None), with ``scale`` beside it."""
    if puzzle is None:
        return
    if scale == "se":
        from .se.rating import DEFAULT_TIME_CAP, MAX_TIME_CAP

        cap = DEFAULT_TIME_CAP if time_limit is None else min(time_limit, MAX_TIME_CAP)
        record.rating = se_rating_data(puzzle, cap)
        return
    from .rating import rate_record

    rate_record(record, puzzle, time_limit)
    if record.rating is not None:
        record.rating = {"scale": "hodoku", **record.rating}


def rating_note(rating: dict[str, Any] | None) -> str:
    """What a table says beside a rating that is not a plain value: why it was not rated, or
    that its values are lower bounds and why (the time cap reached, a rule beyond SE's
    implemented ones).

    >>> rating_note({"scale": "se", "er": 3.4, "outcome": "time cap", "time_cap": 0.5})
    'rating: the time cap of 0.5 s was reached (lower bounds)'
    """
    if rating is None:
        return ""
    if rating.get("reason"):
        return f"not rated: {rating['reason']}"
    if rating.get("outcome") == "time cap":
        cap = rating.get("time_cap")
        of = f" of {cap:g} s" if isinstance(cap, (int, float)) else ""
        return f"rating: the time cap{of} was reached (lower bounds)"
    if rating.get("scale") == "se" and rating.get("outcome") == "beyond":
        return "rating: no rule of SE's moves on (SE prints 20.0; lower bound)"
    return ""


def rated_key(rating: dict[str, Any]) -> str:
    """What ``check``'s summary counts a rating under: HoDoKu's level, or SE's ER band
    (``7.x``, ``≥7.x`` for a lower bound); "not rated" when the rating gave a reason.

    >>> rated_key({"scale": "se", "er": 7.1, "er_exact": True}), rated_key({"level": "Hard"})
    ('7.x', 'Hard')
    """
    if rating.get("scale") == "se":
        if rating.get("er") is None:
            return "not rated"
        band = f"{int(float(rating['er']))}.x"
        return band if rating.get("er_exact") else f"≥{band}"
    return rating.get("level") or "not rated"


# --- explain --scale se: SE's solve path, step by step ----------------------------------------
def _se_candidates(step: Any) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """A step's placements and eliminations as (cell, digit) pairs (SE's masks: bit d is d)."""
    placed = [step.placement] if step.placement is not None else []
    removed = [(cell, d) for cell, mask in step.removals for d in range(1, 10) if mask >> d & 1]
    return placed, removed


def se_step_data(step: Any) -> dict[str, Any]:
    """One SE step as JSON-ready data: SE's technique name, its difficulty, where, and what it
    places and removes."""
    from .board import cell_name

    placed, removed = _se_candidates(step)
    return {
        "technique": step.name,
        "difficulty": round(step.difficulty, 1),
        "where": step.where,
        "placements": [{"cell": cell_name(c, 9), "index": c, "digit": d} for c, d in placed],
        "eliminations": [{"cell": cell_name(c, 9), "index": c, "digit": d} for c, d in removed],
    }


def se_step_text(number: int, step: Any) -> str:
    """``  3. Naked Pair (3.0): remove r1c2 -3, r1c3 -5  [block 1: 3,5]``."""
    from .board import cell_name

    placed, removed = _se_candidates(step)
    action = [f"place {cell_name(c, 9)} = {d}" for c, d in placed]
    if removed:
        action.append("remove " + ", ".join(f"{cell_name(c, 9)} -{d}" for c, d in removed))
    where = f"  [{step.where}]" if step.where else ""
    return f"{number:>3}. {step.name} ({step.difficulty:.1f}): {'; '.join(action)}{where}"


SE_OUTCOME_TEXT = {
    "solved": "solved in {steps} steps",
    "beyond": "stopped after {steps} steps: no rule of SE's moves on (SE prints 20.0, 'Beyond "
    "solver'; rated at least {floor} here); values marked ≥ are lower bounds",
    "time cap": "stopped after {steps} steps: the time cap of {cap:g} s was reached; values "
    "marked ≥ are lower bounds",
}


def se_summary(rating: Any, time_cap: float) -> str:
    """The last lines of ``explain --scale se``: how the path ended and ER/EP/ED."""
    from .se.rating import BEYOND_FLOOR

    ended = SE_OUTCOME_TEXT[rating.outcome].format(
        steps=len(rating.steps), floor=BEYOND_FLOOR, cap=time_cap
    )
    er, ep, ed = (
        rating.shown(value, exact)
        for value, exact in (
            (rating.er, rating.er_exact),
            (rating.ep, rating.ep_exact),
            (rating.ed, rating.ed_exact),
        )
    )
    return f"{ended}\nSE rating: ER {er}, EP {ep}, ED {ed}"
