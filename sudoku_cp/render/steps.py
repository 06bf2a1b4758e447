"""One human-style solving step as an SVG picture (what ``explain --format svg`` draws).

The grid before the step with its candidates; the groups the step uses shaded blue (a variant
step's rule: its cells shaded violet and outlined, ``data-rule`` naming its kind); the
candidates it rests on (its proof) on yellow; placements on green; eliminations in red and
struck through; a chain's links as arrows between candidates, strong links solid and weak ones
dashed; the technique and its sentence under the grid.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .drawing import draw_puzzle
from .svg import Picture, num

if TYPE_CHECKING:
    from ..logic.steps import Candidate, Link, Step, Trace
    from ..puzzle import Puzzle

GROUP_SHADE = "#dcebff"
RULE_SHADE = "#e8dcff"
"""The cells of the rule a variant step reads."""
RULE_OUTLINE = "#7e57c2"
"""Their outline."""
PROOF = "#ffd54f"
PLACEMENT = "#81c784"
PLACEMENT_INK = "#1b5e20"
ELIMINATION = "#d32f2f"
LINK = "#6a1b9a"


def step_svg(source: Trace | Puzzle, step: Step | int, *, cell_size: float | None = None) -> str:
    """The picture of ``step``: a :class:`~sudoku_cp.logic.steps.Step`, or the index of one
    in ``source`` when it is a :class:`~sudoku_cp.logic.steps.Trace` (``source`` is the trace
    or its puzzle). ``cell_size`` as in :func:`~sudoku_cp.render.drawing.puzzle_svg`.
    Raises ValueError when the step does not fit the puzzle (cells, digits, groups)."""
    from ..logic.steps import Trace

    puzzle = source.puzzle if isinstance(source, Trace) else source
    if isinstance(step, int):
        if not isinstance(source, Trace):
            raise ValueError("a step given by its number needs the trace, not the puzzle")
        if not 0 <= step < len(source.steps):
            raise ValueError(f"step {step} is outside the trace's {len(source.steps)} steps")
        step = source.steps[step]
    _check(puzzle, step)
    picture = Picture(puzzle, cell_size=cell_size)
    picture.title = f"{step.technique}: {step.text}"
    draw_step(picture, step)
    return picture.svg()


def _check(puzzle: Puzzle, step: Step) -> None:
    n = puzzle.size
    for name, grid in (("values", step.values), ("candidates", step.candidates)):
        if len(grid) != n * n:
            raise ValueError(f"the step's {name} has {len(grid)} cells, not {n * n}")
    named = (
        list(step.placements)
        + list(step.eliminations)
        + list(step.proof)
        + [end for link in step.links for end in (link.start, link.end)]
        + [
            (cell, end[1])
            for link in step.links
            for end, cells in ((link.start, link.start_cells), (link.end, link.end_cells))
            for cell in cells
        ]
    )
    for cell, digit in named:
        if not (0 <= cell < n * n and 1 <= digit <= n):
            raise ValueError(f"the step names cell {cell}, digit {digit}: outside the grid")
    for cell in step.cells:
        if not 0 <= cell < n * n:
            raise ValueError(f"the step names cell {cell}: outside the grid")
    count = len(puzzle.groups())
    for group in step.groups:
        if not 0 <= group < count:
            raise ValueError(f"the step names group {group}; the puzzle has {count}")


def draw_step(picture: Picture, step: Step) -> None:
    """Everything of one step on ``picture`` (of the step's puzzle)."""
    groups = picture.puzzle.groups()
    for index in step.groups:
        # Over windows and extra groups, and see-through so they still show.
        picture.shade(groups[index], GROUP_SHADE, "step-group", "highlight", fill_opacity=0.75)
    if step.cells:
        picture.shade(step.cells, RULE_SHADE, "step-rule", "highlight", fill_opacity=0.75)
    if step.rule and step.cells:
        draw_rule_outline(picture, step)
    draw_puzzle(picture, step.values, None)
    coloured = set(step.placements) | set(step.eliminations) | set(step.proof)
    picture.pencil_marks(step.candidates, step.values, skip=coloured)
    radius = picture.pencil_size * 0.62
    for cell, digit in step.proof:
        if (cell, digit) in step.eliminations or (cell, digit) in step.placements:
            continue  # drawn as what the step does to it
        _disc(picture, cell, digit, radius, PROOF, "proof")
        picture.candidate(cell, digit, "#000", "candidate proof-digit")
    for cell, digit in step.placements:
        _disc(picture, cell, digit, radius, PLACEMENT, "placement")
        picture.candidate(cell, digit, PLACEMENT_INK, "candidate placed-digit", font_weight="bold")
    for cell, digit in step.eliminations:
        picture.candidate(cell, digit, ELIMINATION, "candidate eliminated")
        x, y = picture.pencil(cell, digit)
        picture.add("over-digit", "line", class_="strike", x1=x - radius, y1=y + radius,
                    x2=x + radius, y2=y - radius, stroke=ELIMINATION,
                    stroke_width=max(0.8, picture.s / 40))  # fmt: skip
    for link in step.links:
        draw_link(picture, link, radius)
    draw_move_peers(picture, step, radius)
    picture.caption(f"{step.technique}: {step.text}")


def draw_rule_outline(picture: Picture, step: Step) -> None:
    """A variant step's rule: the outline of the cells it reads, in the step's rule colour,
    over the rule's own drawing (every rule kind's step is drawn so, whatever the kind's own
    mark: a cage, a line, a dot, a clue outside the grid)."""
    from .rules import cage_outline

    s = picture.s
    picture.add("mark", "path", class_="step-rule-outline", data_rule=step.rule,
                d=cage_outline(picture, step.cells, s * 0.04), fill="none", stroke=RULE_OUTLINE,
                stroke_width=max(1.5, s / 16), stroke_linecap="round")  # fmt: skip


def draw_move_peers(picture: Picture, step: Step, radius: float) -> None:
    """The step drawing of the rules that are only groups of two (anti-knight, anti-king):
    they give no step of their own, but a placement takes its digit from the cells they make
    its peers — ringed, ``data-rule`` naming the rule."""
    from ..rules.neighbours import ApartRule

    size = picture.n
    for rule in picture.puzzle.model.rules:
        if not isinstance(rule, ApartRule) or not step.placements:
            continue
        partners: dict[int, set[int]] = {}
        for (a, b), _ in rule.groups(size):
            partners.setdefault(a, set()).add(b)
            partners.setdefault(b, set()).add(a)
        for cell, digit in step.placements:
            for peer in sorted(partners.get(cell, ())):
                if not step.values[peer] and step.candidates[peer] >> (digit - 1) & 1:
                    x, y = picture.pencil(peer, digit)
                    picture.add("over-digit", "circle", class_="step-peer", data_rule=rule.key,
                                cx=x, cy=y, r=radius, fill="none", stroke=RULE_OUTLINE,
                                stroke_width=max(1.0, picture.s / 30))  # fmt: skip


def _disc(picture: Picture, cell: int, digit: int, radius: float, colour: str, cls: str) -> None:
    x, y = picture.pencil(cell, digit)
    picture.add("behind-digit", "circle", class_=cls, cx=x, cy=y, r=radius, fill=colour)


def draw_link(picture: Picture, link: Link, radius: float) -> None:
    """A link as a slightly bent arrow between two candidates (bent so that links between
    candidates of one cell, or along one row, stay apart): solid when strong, dashed when
    weak."""
    a = _at(picture, link.start, link.start_cells)
    b = _at(picture, link.end, link.end_cells)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    bend = min(length * 0.2, picture.s * 0.6)
    control = ((a[0] + b[0]) / 2 - dy / length * bend, (a[1] + b[1]) / 2 + dx / length * bend)
    start = _step_toward(a, control, radius)
    end = _step_toward(b, control, radius)
    size = picture.pencil_size * 0.45
    ux, uy = end[0] - control[0], end[1] - control[1]
    span = math.hypot(ux, uy) or 1.0
    ux, uy = ux / span, uy / span
    left = (end[0] - size * (ux - uy * 0.6), end[1] - size * (uy + ux * 0.6))
    right = (end[0] - size * (ux + uy * 0.6), end[1] - size * (uy - ux * 0.6))
    data = (
        f"M{num(start[0])} {num(start[1])} Q{num(control[0])} {num(control[1])} "
        f"{num(end[0])} {num(end[1])} M{num(left[0])} {num(left[1])} L{num(end[0])} "
        f"{num(end[1])} L{num(right[0])} {num(right[1])}"
    )
    picture.add("link", "path", class_="link strong" if link.strong else "link weak", d=data,
                fill="none", stroke=LINK, stroke_width=max(1.0, picture.s / 30),
                stroke_dasharray=None if link.strong else f"{num(picture.s / 10)} "
                f"{num(picture.s / 14)}", stroke_linecap="round")  # fmt: skip


def _at(picture: Picture, candidate: Candidate, cells: tuple[int, ...] = ()) -> tuple[float, float]:
    """Where a link's end is drawn: the candidate, or the middle of a group node's."""
    if not cells:
        return picture.pencil(*candidate)
    spots = [picture.pencil(cell, candidate[1]) for cell in cells]
    return (sum(x for x, _ in spots) / len(spots), sum(y for _, y in spots) / len(spots))


def _step_toward(
    a: tuple[float, float], b: tuple[float, float], distance: float
) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return a[0] + dx / length * distance, a[1] + dy / length * distance
