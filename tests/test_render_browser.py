"""The pictures of variant steps as a browser shows them (issue 31): the explain page of a
variant puzzle and a page of one step drawing per rule kind, rendered by headless Chromium
(``--dump-dom``: the document after the browser parsed it and ran its script), and the
elements of each step drawing looked for in that DOM. Skips, saying why, without Chromium."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sudoku_cp.datasets import bundled_file
from sudoku_cp.formats import read_input
from sudoku_cp.logic.solver import solve_logically
from sudoku_cp.logic.steps import Step
from sudoku_cp.model import load_model
from sudoku_cp.puzzle import Puzzle
from sudoku_cp.render.html import explain_html
from sudoku_cp.render.steps import step_svg
from sudoku_cp.rules import RULE_KEYS

BROWSERS = ("chromium", "chromium-browser", "chromium-headless-shell", "google-chrome")
CHROMIUM = next((found for name in BROWSERS if (found := shutil.which(name))), None)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium on PATH (chromium, chromium-browser, chromium-headless-shell or "
    "google-chrome): the headless-browser check of the step pictures needs one "
    "(apt-get install chromium)",
)


class _Elements(HTMLParser):
    """Every element of a document as (tag, attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {k: v or "" for k, v in attrs}))

    handle_startendtag = handle_starttag


def rendered(page: str, tmp_path: Path) -> list[tuple[str, dict[str, str]]]:
    """The elements of ``page`` after headless Chromium loaded it."""
    assert CHROMIUM is not None
    path = tmp_path / "page.html"
    path.write_text(page, encoding="utf-8")
    profile = tmp_path / "profile"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={profile}", "--dump-dom", path.as_uri()],
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "<svg" in done.stdout, done.stderr[-2000:]
    parser = _Elements()
    parser.feed(done.stdout)
    return parser.found


def classes(attrs: dict[str, str]) -> set[str]:
    return set(attrs.get("class", "").split())


def test_the_explain_page_of_a_variant_puzzle_in_a_browser(tmp_path: Path) -> None:
    path = bundled_file("killer")
    assert path is not None
    (record, *_) = read_input(str(path), model=load_model("classic"))
    assert record.puzzle is not None
    trace = solve_logically(record.puzzle)
    ruled = [s for s in trace.steps if s.rule]
    assert ruled  # a killer solve reads its cages
    elements = rendered(explain_html(trace), tmp_path)
    slides = [a for tag, a in elements if tag == "section" and "slide" in classes(a)]
    assert len(slides) == len(trace.steps) + 2  # the puzzle, each step, the end
    outlines = [a for tag, a in elements if tag == "path" and "step-rule-outline" in classes(a)]
    assert len(outlines) == len(ruled)
    assert {a["data-rule"] for a in outlines} == {s.rule for s in ruled} == {"killercage"}
    assert all(a["d"].startswith("M") for a in outlines)
    shaded = [a for tag, a in elements if tag == "rect" and "step-rule" in classes(a)]
    assert len(shaded) == sum(len(s.cells) for s in trace.steps)
    struck = [a for tag, a in elements if tag == "line" and "strike" in classes(a)]
    assert len(struck) == sum(len(s.eliminations) for s in trace.steps)


KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
KING = ((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (1, 0), (0, -1), (-1, 0))


def _move_peers(step: Step, size: int, moves: tuple[tuple[int, int], ...]) -> int:
    """How many candidates a placement of ``step`` takes from cells a move away (read from
    the rules' meaning: a knight's or a king's move)."""
    count = 0
    for cell, digit in step.placements:
        row, col = divmod(cell, size)
        for dr, dc in moves:
            r, c = row + dr, col + dc
            if 0 <= r < size and 0 <= c < size:
                peer = r * size + c
                count += not step.values[peer] and bool(step.candidates[peer] >> (digit - 1) & 1)
    return count


def test_every_rule_kind_has_a_step_drawing_in_a_browser(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from variants import catalogue

    chosen: dict[str, tuple[Puzzle, Step, int]] = {}
    for entry in catalogue():
        keys = {rule.key for rule in entry.puzzle.model.rules}
        if not keys - set(chosen):
            continue
        trace = solve_logically(entry.puzzle)
        size = entry.puzzle.size
        for step in trace.steps:
            if step.rule and step.rule not in chosen:
                chosen[step.rule] = (entry.puzzle, step, 1)
            for key, moves in (("antiknight", KNIGHT), ("antiking", KING)):
                if key in keys and key not in chosen and (peers := _move_peers(step, size, moves)):
                    chosen[key] = (entry.puzzle, step, peers)
    assert set(chosen) == set(RULE_KEYS), sorted(set(RULE_KEYS) - set(chosen))
    figures = "".join(
        f'<figure id="{key}">{step_svg(puzzle, step)}</figure>'
        for key, (puzzle, step, _) in sorted(chosen.items())
    )
    page = f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body>{figures}'
    page += "</body></html>"
    elements = rendered(page, tmp_path)
    drawn: dict[str, int] = {}
    for tag, attrs in elements:
        if "data-rule" in attrs and (
            (tag == "path" and "step-rule-outline" in classes(attrs))
            or (tag == "circle" and "step-peer" in classes(attrs))
        ):
            drawn[attrs["data-rule"]] = drawn.get(attrs["data-rule"], 0) + 1
    assert set(drawn) == set(RULE_KEYS), sorted(set(RULE_KEYS) - set(drawn))
    for key in ("antiknight", "antiking"):
        assert drawn[key] >= chosen[key][2]  # every candidate a move away is ringed
    svgs = [a for tag, a in elements if tag == "svg"]
    assert len(svgs) == len(chosen)
