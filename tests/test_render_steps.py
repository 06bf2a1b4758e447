"""Step pictures and the explain page (sudoku_cp.render.steps, .html), on traces made by hand
here — a hidden single, a pointing elimination and an X-chain found by small scans of the
candidate grid, each checked against the puzzle's known solution — since the logic solver
that makes traces lives elsewhere."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from puzzles import KNOWN, KNOWN_SOLUTION
from test_render import of_class, parsed, texts

from sudoku_cp import Puzzle
from sudoku_cp.logic.steps import Link, Step, Trace
from sudoku_cp.render import explain_html, step_svg

SOLUTION = tuple(int(ch) for ch in KNOWN_SOLUTION)


def candidates_of(puzzle: Puzzle, values: tuple[int, ...]) -> list[int]:
    """Each empty cell's digits not held by a peer (filled cells: their digit's bit)."""
    n = puzzle.size
    masks = []
    for cell, peers in enumerate(puzzle.peers()):
        if values[cell]:
            masks.append(1 << (values[cell] - 1))
            continue
        taken = {values[p] for p in peers}
        masks.append(sum(1 << (d - 1) for d in range(1, n + 1) if d not in taken))
    return masks


def places(
    group: tuple[int, ...], digit: int, masks: list[int], values: tuple[int, ...]
) -> list[int]:
    return [c for c in group if not values[c] and masks[c] >> (digit - 1) & 1]


def hidden_single(puzzle: Puzzle, values: tuple[int, ...]) -> Step:
    masks = candidates_of(puzzle, values)
    for index, group in enumerate(puzzle.groups()):
        for digit in range(1, 10):
            spots = places(group, digit, masks, values)
            if len(spots) == 1 and digit not in (values[c] for c in group):
                cell = spots[0]
                return Step(
                    "Hidden Single", ((cell, digit),), (), ((cell, digit),), (index,), (),
                    f"{digit} fits only one cell of its group", values, tuple(masks),
                )  # fmt: skip
    raise AssertionError("no hidden single")


def pointing(puzzle: Puzzle, values: tuple[int, ...]) -> Step:
    masks = candidates_of(puzzle, values)
    groups = puzzle.groups()
    boxes = range(18, 27)  # classic 9x9: rows, columns, then boxes
    for box in boxes:
        for digit in range(1, 10):
            spots = places(groups[box], digit, masks, values)
            for line in range(18):
                if len(spots) >= 2 and set(spots) <= set(groups[line]):
                    gone = [c for c in places(groups[line], digit, masks, values) if c not in spots]
                    if gone:
                        return Step(
                            "Locked Candidates Type 1 (Pointing)", (),
                            tuple((c, digit) for c in gone), tuple((c, digit) for c in spots),
                            (box, line), (), f"{digit} in the box lies on one line", values,
                            tuple(masks),
                        )  # fmt: skip
    raise AssertionError("no pointing")


def x_chain(puzzle: Puzzle, values: tuple[int, ...]) -> Step:
    """A strong link a-b, a weak link b-c, a strong link c-e, all on one digit: a or e holds
    it, so it leaves every cell seeing both."""
    masks = candidates_of(puzzle, values)
    peers = [set(p) for p in puzzle.peers()]
    for digit in range(1, 10):
        strong = set()
        for group in puzzle.groups():
            spots = places(group, digit, masks, values)
            if len(spots) == 2:
                strong.add((spots[0], spots[1]))
                strong.add((spots[1], spots[0]))
        for a, b in strong:
            for c, e in strong:
                if len({a, b, c, e}) < 4 or c not in peers[b] or e in peers[a]:
                    continue
                gone = [
                    x for x in range(81)
                    if x not in (a, b, c, e) and not values[x] and masks[x] >> (digit - 1) & 1
                    and x in peers[a] and x in peers[e]
                ]  # fmt: skip
                if gone:
                    links = (
                        Link((a, digit), (b, digit), True),
                        Link((b, digit), (c, digit), False),
                        Link((c, digit), (e, digit), True),
                    )
                    return Step(
                        "X-Chain", (), tuple((x, digit) for x in gone),
                        tuple((x, digit) for x in (a, b, c, e)), (), links,
                        f"{digit} is in r{a // 9 + 1}c{a % 9 + 1} or r{e // 9 + 1}c{e % 9 + 1}",
                        values, tuple(masks),
                    )  # fmt: skip
    raise AssertionError("no x-chain")


def hand_made_trace() -> Trace:
    puzzle = Puzzle.parse(KNOWN)
    values = puzzle.cells
    steps = []
    for make in (hidden_single, pointing, x_chain):
        step = make(puzzle, values)
        # The hand-made steps must be true: no eliminated digit is the solution's.
        assert all(SOLUTION[c] == d for c, d in step.placements), step
        assert all(SOLUTION[c] != d for c, d in step.eliminations), step
        steps.append(step)
        placed = list(values)
        for cell, digit in step.placements:
            placed[cell] = digit
        values = tuple(placed)
    return Trace(puzzle, tuple(steps), "stalled", values, tuple(candidates_of(puzzle, values)))


TRACE = hand_made_trace()


def test_the_hand_made_steps_are_the_kinds_wanted() -> None:
    single, pointing_step, chain = TRACE.steps
    assert single.placements and not single.eliminations
    assert pointing_step.eliminations and len(pointing_step.groups) == 2
    assert [link.strong for link in chain.links] == [True, False, True]


@pytest.mark.parametrize("number", range(3))
def test_step_picture_shows_what_the_step_says(number: int) -> None:
    step = TRACE.steps[number]
    root = parsed(step_svg(TRACE, number))
    groups = TRACE.puzzle.groups()
    assert len(of_class(root, "step-group")) == sum(len(groups[g]) for g in step.groups)
    assert len(of_class(root, "placement")) == len(step.placements)
    assert len(of_class(root, "eliminated")) == len(of_class(root, "strike"))
    assert len(of_class(root, "strike")) == len(step.eliminations)
    proof_only = set(step.proof) - set(step.eliminations) - set(step.placements)
    assert len(of_class(root, "proof")) == len(proof_only)
    assert len(of_class(root, "link")) == len(step.links)
    assert len(of_class(root, "strong")) == sum(link.strong for link in step.links)
    assert len(of_class(root, "weak")) == sum(not link.strong for link in step.links)
    # Every candidate of every empty cell is written once, whatever its colour.
    written = len(of_class(root, "candidate"))
    expected = sum(bin(m).count("1") for c, m in enumerate(step.candidates) if not step.values[c])
    assert written == expected
    assert texts(root, "given") and step.technique in " ".join(texts(root, "caption"))


def test_a_step_given_itself_draws_the_same_as_by_number() -> None:
    assert step_svg(TRACE.puzzle, TRACE.steps[2]) == step_svg(TRACE, 2)


def test_steps_that_do_not_fit_are_refused() -> None:
    step = TRACE.steps[0]
    bad = [
        Step("X", ((81, 1),), (), (), (), (), "", step.values, step.candidates),
        Step("X", (), ((0, 10),), (), (), (), "", step.values, step.candidates),
        Step("X", (), (), (), (27,), (), "", step.values, step.candidates),
        Step("X", (), (), (), (), (), "", step.values[:80], step.candidates),
    ]
    for wrong in bad:
        with pytest.raises(ValueError):
            step_svg(TRACE, wrong)
    with pytest.raises(ValueError):
        step_svg(TRACE, 3)
    with pytest.raises(ValueError):
        step_svg(TRACE.puzzle, 0)


class Page(HTMLParser):
    """What a page holds: tags by name, frames, step buttons, script and link sources."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def page_of(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    return page


def test_the_page_steps_through_the_trace_with_no_network() -> None:
    html = explain_html(TRACE, title="Known")
    page = page_of(html)
    frames = [a for tag, a in page.tags if "slide" in (a.get("class") or "").split()]
    buttons = [a for tag, a in page.tags if tag == "button" and "data-slide" in a]
    assert len(frames) == len(buttons) == len(TRACE.steps) + 2  # the puzzle … the final grid
    assert [b["data-slide"] for b in buttons] == [str(i) for i in range(len(frames))]
    assert {"prev", "next"} <= {a.get("id") for tag, a in page.tags}
    # Self-contained: no external script, style, image or font.
    for tag, attrs in page.tags:
        assert not attrs.get("src") and tag != "link", (tag, attrs)
    assert "http" not in re.sub(r'xmlns="http://www.w3.org/2000/svg"', "", html)
    # Each picture in it is well-formed SVG: the puzzle, a picture per step, the final grid.
    pictures = re.findall(r"<svg .*?</svg>", html, re.S)
    assert len(pictures) == len(TRACE.steps) + 2
    for picture in pictures:
        ET.fromstring(picture)
    assert "ArrowRight" in html and "ArrowLeft" in html


def test_the_page_escapes_every_text() -> None:
    hostile = '<img src=x onerror="alert(1)"> & </script>'
    step = TRACE.steps[0]
    odd = Step(
        hostile, step.placements, step.eliminations, step.proof, step.groups, step.links,
        hostile, step.values, step.candidates,
    )  # fmt: skip
    trace = Trace(TRACE.puzzle, (odd,), "stalled", TRACE.values, TRACE.candidates)
    html = explain_html(trace, title=hostile)
    assert "<img" not in html and "</script> &" not in html
    assert html.count("</script>") == 1
    page = page_of(html)
    assert not any(tag == "img" or "onerror" in attrs for tag, attrs in page.tags)
    for picture in re.findall(r"<svg .*?</svg>", html, re.S):
        ET.fromstring(picture)


def test_groups_a_step_uses_show_over_hyper_windows() -> None:
    puzzle = Puzzle((0,) * 81, "hyper")
    window = len(puzzle.groups()) - 4  # the first window: r2-4, c2-4
    step = Step("Test", (), (), (), (window,), (), "", (0,) * 81, (511,) * 81)
    svg = step_svg(puzzle, step)
    root = parsed(svg)
    shaded = of_class(root, "step-group")
    assert len(shaded) == 9 and len(of_class(root, "window")) == 4
    assert svg.index('class="step-group"') > svg.rindex('class="window"')  # painted later
