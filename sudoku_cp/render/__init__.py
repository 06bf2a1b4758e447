"""Pictures: puzzles and human-style solving steps as SVG, and the explain page as HTML.

- :func:`puzzle_svg` (:mod:`.drawing`): a puzzle, its regions and rules, digits and candidates;
- :func:`step_svg` (:mod:`.steps`): one step of a :class:`~sudoku_cp.logic.steps.Trace`;
- :func:`explain_html` (:mod:`.html`): a whole trace as one self-contained page.

Nothing here is imported by the solving code: ``Puzzle._repr_svg_`` imports it on first use.
"""

from __future__ import annotations

from .drawing import puzzle_svg
from .html import explain_html
from .steps import step_svg

__all__ = ["explain_html", "puzzle_svg", "step_svg"]
