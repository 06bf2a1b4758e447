"""The explain page: a whole human-style solve as one self-contained HTML page.

No network: the style, the script and every picture are inline. The page shows one frame at a
time — the puzzle, each step (its picture from :func:`~sudoku_cp.render.steps.step_svg`, its
technique and sentence), then the final grid — with previous/next buttons, the arrow keys
(and Home/End), and the list of steps beside it, each a button that shows its step. The frame
number is kept in the address (``page.html#5`` opens the fifth step). Without a script every
frame is shown one after another, so the page still reads top to bottom.
"""

from __future__ import annotations

import math
import re
from html import escape
from typing import TYPE_CHECKING

from .drawing import puzzle_svg
from .steps import step_svg

if TYPE_CHECKING:
    from ..logic.steps import Trace
    from ..puzzle import Puzzle

OUTCOMES = {
    "solved": "Solved by deduction alone: every digit follows from the steps above.",
    "stalled": "No technique applies any more: the candidates where deduction stopped.",
    "contradiction": "The steps reached a contradiction: the puzzle has no solution.",
}

_STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:1rem;color:#222;
background:#fafafa}
h1{font-size:1.4rem;margin:.2rem 0}
header p{margin:.2rem 0 .8rem;color:#444}
code{font-size:.8rem;word-break:break-all}
main{display:flex;gap:1.2rem;align-items:flex-start;flex-wrap:wrap}
nav{flex:0 1 22rem;max-height:85vh;overflow:auto;border:1px solid #ddd;background:#fff}
nav ol{margin:0;padding:0 0 0 2.2rem}
nav li{margin:0}
nav button{display:block;width:100%;text-align:left;border:0;background:none;padding:.35rem;
font:inherit;font-size:.9rem;cursor:pointer;border-bottom:1px solid #eee}
nav button:hover{background:#f0f4ff}
nav button.current{background:#dcebff}
.technique{font-weight:600}
#view{flex:1 1 30rem}
.controls{display:flex;gap:.6rem;align-items:center;margin-bottom:.6rem}
.controls button{font:inherit;padding:.3rem .8rem;cursor:pointer}
.slide h2{font-size:1.1rem;margin:.3rem 0}
.slide p{max-width:42rem;margin:.2rem 0 .6rem}
.slide svg{max-width:100%;height:auto;background:#fff}
.legend{font-size:.85rem;color:#444}
.swatch{display:inline-block;width:.9em;height:.9em;vertical-align:middle;margin:0 .2em 0 .6em;
border-radius:50%}
"""

_SCRIPT = """
(function () {
  var frames = document.querySelectorAll('section.slide');
  var items = document.querySelectorAll('nav button');
  var prev = document.getElementById('prev'), next = document.getElementById('next');
  var where = document.getElementById('where');
  var at = 0;
  function show(i) {
    if (i < 0 || i >= frames.length) { return; }
    at = i;
    for (var j = 0; j < frames.length; j++) {
      frames[j].hidden = j !== i;
      items[j].classList.toggle('current', j === i);
      if (j === i) { items[j].setAttribute('aria-current', 'step'); }
      else { items[j].removeAttribute('aria-current'); }
    }
    where.textContent = (i + 1) + ' / ' + frames.length;
    prev.disabled = i === 0;
    next.disabled = i === frames.length - 1;
    if (location.hash !== '#' + i) { history.replaceState(null, '', '#' + i); }
    items[i].scrollIntoView({block: 'nearest'});
  }
  for (var k = 0; k < items.length; k++) {
    items[k].addEventListener('click', function (e) {
      show(Number(e.currentTarget.getAttribute('data-slide')));
    });
  }
  prev.addEventListener('click', function () { show(at - 1); });
  next.addEventListener('click', function () { show(at + 1); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { show(at + 1); }
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { show(at - 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(frames.length - 1); }
    else { return; }
    e.preventDefault();
  });
  document.getElementById('controls').hidden = false;
  var start = parseInt(location.hash.slice(1), 10);
  show(isNaN(start) ? 0 : Math.min(Math.max(start, 0), frames.length - 1));
})();
"""

_LEGEND = (
    '<p class="legend">'
    '<span class="swatch" style="background:#dcebff;border-radius:0"></span>groups used'
    '<span class="swatch" style="background:#ffd54f"></span>candidates the step rests on'
    '<span class="swatch" style="background:#81c784"></span>digit placed'
    '<span class="swatch" style="background:#d32f2f"></span>candidate removed'
    " · chains: solid arrow = strong link (one of the two is true), dashed = weak link (not "
    "both)</p>"
)


def _rules_named(puzzle: Puzzle) -> str:
    """``classic + killer cages``: the model's name and its rules (not its file's path)."""
    model = puzzle.model
    extras = ["regions"] if model.regions is not None else []
    extras += sorted({rule.title for rule in model.rules})
    return " + ".join([model.name, *extras])


PAGE_GRID_PX = 540
"""The least width of a grid on the page (it was 360 px for a 9x9, candidates ~8 px high)."""

_CENTRED = ' text-anchor="middle" dominant-baseline="central" font-family="sans-serif"'
_COMPACT_STYLE = (
    ".slide svg text.m{text-anchor:middle;dominant-baseline:central;font-family:sans-serif}"
)
_SHARED_LAYER = re.compile(r'<g class="layer-(?:grid|border)">.*?</g>', re.S)
_STYLED_TEXT = re.compile(
    r'<text class="([^"]*)" x="([^"]*)" y="([^"]*)"((?: (?:font-size|font-weight|fill)="[^"]*")+)>'
)


def _cell_px(puzzle: Puzzle) -> float:
    """A cell's size on the page: the pictures' own, or more, to make the grid at least
    :data:`PAGE_GRID_PX` wide (within the pictures' cap on a cell)."""
    from .svg import MAX_CELL

    n = puzzle.size
    own = max(40, 9 * math.isqrt(n - 1) + 9)
    return float(min(MAX_CELL, max(own, math.ceil(PAGE_GRID_PX / n))))


class _Shared:
    """The layers every picture of the page repeats (grid lines, box borders) are written in
    the first picture that has them, with an id, and drawn by ``<use>`` in the others; each
    text's centring, font and colour attributes become classes of the page. A long solve's
    page weighed about 2 MB, mostly these repeats."""

    def __init__(self) -> None:
        self.defs: dict[str, str] = {}
        self.styles: dict[str, str] = {}

    def compact(self, svg: str) -> str:
        def shared(match: re.Match[str]) -> str:
            layer = match.group(0)
            if layer in self.defs:
                return f'<use href="#{self.defs[layer]}"/>'
            ident = self.defs[layer] = f"shared-{len(self.defs)}"
            return layer.replace("<g ", f'<g id="{ident}" ', 1)  # drawn here, used after

        svg = _SHARED_LAYER.sub(shared, svg)
        centred = r'<text class="([^"]*)"([^>]*?)' + re.escape(_CENTRED)
        svg = re.sub(centred, r'<text class="\1 m"\2', svg)
        svg = svg.replace('<text class="candidate" ', "<text ")  # (their group says it)
        return _STYLED_TEXT.sub(self._styled, svg)

    def _styled(self, match: re.Match[str]) -> str:
        """A text's font and colour attributes as a class of the page (each digit and
        candidate repeated them)."""
        tail = match.group(4)
        name = self.styles.setdefault(tail, f"t{len(self.styles)}")
        return f'<text class="{match.group(1)} {name}" x="{match.group(2)}" y="{match.group(3)}">'

    def style(self) -> str:
        rules = []
        for tail, name in self.styles.items():
            props = []
            for key, value in re.findall(r'([a-z-]+)="([^"]*)"', tail):
                number = key == "font-size" and re.fullmatch(r"[0-9.]+", value)
                props.append(f"{key}:{value}px" if number else f"{key}:{value}")
            rules.append(f".slide svg text.{name}{{{';'.join(props)}}}")
        return "".join(rules)


def explain_html(trace: Trace, *, title: str | None = None) -> str:
    """The page stepping through ``trace``: a complete HTML document, every text escaped.
    ``title`` names the puzzle in the heading (e.g. its id); default "this puzzle"."""
    puzzle = trace.puzzle
    name = title if title else "this puzzle"
    px = _cell_px(puzzle)
    shared = _Shared()
    frames: list[tuple[str, str, str, str]] = [
        (
            "The puzzle",
            f"{puzzle.givens_count} givens. Step through the solution with the buttons, the "
            "arrow keys, or the list.",
            shared.compact(puzzle_svg(puzzle, title="The puzzle", cell_size=px)),
            "start",
        )
    ]
    for number, step in enumerate(trace.steps, start=1):
        picture = shared.compact(step_svg(trace, number - 1, cell_size=px))
        frames.append((step.technique, step.text, picture, f"step {number}"))
    final_candidates = trace.candidates if trace.outcome != "solved" else None
    frames.append(
        (
            "Final grid" if trace.outcome == "solved" else f"Final grid ({trace.outcome})",
            OUTCOMES.get(trace.outcome, trace.outcome),
            shared.compact(
                puzzle_svg(
                    puzzle,
                    values=trace.values,
                    candidates=final_candidates,
                    title="Final grid",
                    cell_size=px,
                )
            ),
            "end",
        )
    )
    items = []
    sections = []
    for index, (heading, text, svg, label) in enumerate(frames):
        items.append(
            f'<li><button type="button" data-slide="{index}">'
            f'<span class="technique">{escape(heading)}</span><br>{escape(text)}</button></li>'
        )
        where = f"Step {index} of {len(trace.steps)}" if label.startswith("step") else None
        heading_text = f"{where}: {heading}" if where else heading
        sections.append(
            f'<section class="slide" id="slide-{index}" aria-label="{escape(label)}">'
            f"<h2>{escape(heading_text)}</h2><p>{escape(text)}</p>{svg}</section>"
        )
    summary = (
        f"{len(trace.steps)} step{'s' * (len(trace.steps) != 1)}, {escape(trace.outcome)} · "
        f"{puzzle.size}×{puzzle.size}, {escape(_rules_named(puzzle))}"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(f'How to solve {name}')}</title>"
        f"<style>{_STYLE}{_COMPACT_STYLE}{shared.style()}</style>"
        "</head><body>"
        f"<header><h1>{escape(f'How to solve {name}')}</h1><p>{summary}</p>"
        f"<p><code>{escape(puzzle.to_line())}</code></p></header><main>"
        f'<nav aria-label="steps"><ol start="0">{"".join(items)}</ol></nav>'
        '<div id="view"><div class="controls" id="controls" hidden>'
        '<button type="button" id="prev">← Previous</button><span id="where"></span>'
        '<button type="button" id="next">Next →</button></div>'
        f"{_LEGEND}{''.join(sections)}</div></main><script>{_SCRIPT}</script></body></html>\n"
    )
