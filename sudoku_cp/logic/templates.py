"""Template Set and Template Delete (HoDoKu's ``SolutionType.TEMPLATE_SET`` and ``TEMPLATE_DEL``,
library codes 1201 and 1202).

A *template* of a digit is one way to place all its copies: a cell in every row, column and box,
each cell holding the digit already or as a candidate. Whatever the solution is, its digit d
fills one template of d, so a cell every template of d holds gets d (Template Set) and a
candidate of d no template holds goes (Template Delete).

Read in hobiwan's HoDoKu (yoki123 fork), where the templates come from
``solver/SudokuStepFinder.java``, ``initCandTemplates``:

- a template is valid for d when it holds every cell where d is placed and no cell where d is
  neither placed nor a candidate (its ``forbiddenPositions``); HoDoKu filters a stored list of
  all 46,656 (``Sudoku2.templates``, read from ``templates.dat``), we enumerate them (below);
- with ``initLists`` — which ``TemplateSolver.getTemplateSet`` and ``getTemplateDel`` always
  ask for — the lists are *refined* ("verfeinern"): a template of d is dropped when it holds a
  cell that every remaining template of another digit k holds (that cell is k's), repeated until
  a pass drops none. Dropping only enlarges the other digits' common cells, so the end is the
  same whichever order the digits are taken in: we iterate to that same fixed point. (The
  class comment of ``TemplateSolver`` also names a refinement by pairs of digits' templates;
  its code does not do it, and neither do we.)
- ``TemplateSolver.getTemplateSet`` then makes one step per digit, 1 to 9, placing d in every
  cell all its templates hold less where d is placed; ``getTemplateDel`` one step per digit,
  removing d's candidates no template holds. ``RegressionTester.test`` runs both
  (``getAllTemplates``); our two searches yield the same steps, each its own kind.

The solution's templates survive the refinement (a cell every template of k holds is k's in the
solution, so the solution's d is elsewhere): both steps are sound on any board with a
solution. On a board where some digit has no template left there is none; HoDoKu's AND over an
empty list is every cell (it would "set" the whole grid), we yield nothing there.

Enumeration (:func:`template_cells`): row by row, keeping the sets of other groups the partial
templates use (columns and boxes in classic sudoku), then backwards to the cells of the
templates that complete; a template's cells in a row are exactly one, so the cells all
templates hold are the rows' only held cells. Other models: a template is a cell in every row
and every full group (jigsaw regions, diagonals, windows), at most one in any other group — a
sound generalisation, as every digit of a solution is placed so. A model without rows gives
nothing, and so does a digit whose partial templates grow past :data:`MAX_TEMPLATE_STATES`
sets in a row (large grids with many candidates; the bound on the work): such a digit is taken
to allow all its candidates, which refines nothing. On classic 9x9 it is never reached (the
empty grid's rows have 81 sets at most), so there the steps are HoDoKu's.

HoDoKu's solver leaves both techniques off by default (``Options.DEFAULT_SOLVER_STEPS``:
``StepConfig`` 8700 and 8800, ``enabled`` false), so they are listed here, not in the solver's
registry (as Death Blossom and the Mutant fish).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from .board import Board, Technique, technique
from .layout import layout_of
from .patterns import cells_of, snapshot
from .steps import Step

TEMPLATE_SET = "Template Set"
TEMPLATE_DELETE = "Template Delete"
# HoDoKu's names: intl/SolutionType.properties, Template_Set and Template_Delete.

MAX_TEMPLATE_STATES = 50_000
"""Partial templates (sets of groups used) kept per row at most; past it a digit's templates are
not worked out (:func:`template_cells` gives None)."""


@functools.lru_cache(maxsize=64)
def _shape(
    groups: tuple[tuple[int, ...], ...], rows: tuple[int, ...], full: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """Per cell its row (index into ``rows``) and the other groups it is in (a bit per group);
    per row its cell mask; and the full groups other than rows (a bit each): once per layout."""
    row_of_group = {g: r for r, g in enumerate(rows)}
    cells = max((c for g in groups for c in g), default=-1) + 1
    row_of = [-1] * cells
    used = [0] * cells
    for index, group in enumerate(groups):
        for cell in group:
            if index in row_of_group:
                row_of[cell] = row_of_group[index]
            else:
                used[cell] |= 1 << index
    row_masks = tuple(sum(1 << c for c in groups[g]) for g in rows)
    other_full = sum(1 << g for g in full if g not in row_of_group)
    return tuple(row_of), tuple(used), row_masks, other_full


def template_cells(board: Board, digit: int, allowed: int) -> int | None:
    """The cells (a bit mask) some *template* of ``digit`` holds: a cell in every row and every
    full group, at most one in any group, each cell one where ``digit`` is placed or one of
    ``allowed`` (a cell mask, normally its candidates), and every placed ``digit`` in it.
    0 when there is no template (a broken grid); None when it cannot be told (no rows, or more
    than :data:`MAX_TEMPLATE_STATES` partial templates in a row)."""
    lay = layout_of(board.puzzle.model, board.size)
    if not lay.rows:
        return None
    row_of, used, _, full = _shape(board.groups, lay.rows, lay.full)
    options: list[list[tuple[int, int]]] = [[] for _ in lay.rows]
    values = board.values
    for cell, value in enumerate(values):
        if value == digit or (not value and allowed >> cell & 1):
            options[row_of[cell]].append((cell, used[cell]))
    # Forward: the sets of groups the partial templates of rows 0..r use.
    layers: list[set[int]] = [{0}]
    for choices in options:
        nxt = {s | u for s in layers[-1] for _, u in choices if not s & u}
        if not nxt:
            return 0
        if len(nxt) > MAX_TEMPLATE_STATES:
            return None
        layers.append(nxt)
    # Backward: keep the partial templates that complete, and the cells joining them.
    good = {s for s in layers[-1] if s & full == full}
    held = 0
    for r in range(len(options) - 1, -1, -1):
        earlier = set()
        for s in layers[r]:
            for cell, u in options[r]:
                if not s & u and s | u in good:
                    held |= 1 << cell
                    earlier.add(s)
        good = earlier
    return held


def _forced(board: Board, held: int) -> int:
    """The cells every template holds, given the cells some template holds: a template has
    exactly one cell in each row, so a row's only held cell is in all of them."""
    lay = layout_of(board.puzzle.model, board.size)
    out = 0
    for mask in _shape(board.groups, lay.rows, lay.full)[2]:
        one = held & mask
        if one and not one & (one - 1):
            out |= one
    return out


_NONE = "none"


def refined(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Per digit (index 1 to size; 0 unused), the cells some refined template holds and the
    cells all of them hold (HoDoKu's ``delCandTemplates`` before its final ``not``, and
    ``setValueTemplates``), placed cells included; None when some digit has no template. A
    digit whose templates cannot be worked out (:func:`template_cells` gives None) counts as
    holding all its candidates and only its placed cells in every template. Remembered in
    ``board.memo`` per board state."""
    masks = snapshot(board).masks
    size = board.size
    placed = [0] * (size + 1)
    for cell, value in enumerate(board.values):
        if value:
            placed[value] |= 1 << cell
    key = ("templates", tuple(masks), tuple(placed))
    found = board.memo.get(key)
    if found is not None:
        return None if found == _NONE else found  # type: ignore[return-value]
    held = [0] * (size + 1)
    forced = [0] * (size + 1)
    allowed = [-1] * (size + 1)
    changed = True
    while changed:
        changed = False
        for digit in range(1, size + 1):
            others = 0
            for k in range(1, size + 1):
                if k != digit:
                    others |= forced[k]
            # HoDoKu's refinement: no template of this digit on a cell all of another's hold.
            now = masks[digit] & ~others
            if now == allowed[digit]:
                continue
            allowed[digit] = now
            changed = True
            cells = template_cells(board, digit, now)
            if cells == 0:  # no template: no solution agrees with this board
                board.memo[key] = _NONE
                return None
            if cells is None:
                # Cannot tell: every candidate may be in a template, and only the placed
                # cells are in all (nothing to set or delete for this digit, nothing refined).
                held[digit], forced[digit] = masks[digit] | placed[digit], placed[digit]
            else:
                held[digit], forced[digit] = cells, _forced(board, cells)
    result = (tuple(held), tuple(forced))
    board.memo[key] = result
    return result


_TEMPLATE = (
    "{d} once in every house, on its candidates, off the cells all templates of another digit hold"
)
"""What a template is, in a step's sentence (a house: a row, column, box or other group)."""


def _per_digit(board: Board, name: str) -> Iterator[Step]:
    """One step per digit, 1 first (as ``TemplateSolver`` makes them): ``name`` says which —
    placing the digit in the cells all its refined templates hold (Template Set), or removing
    its candidates none holds (Template Delete)."""
    found = refined(board)
    if found is None:
        return
    held, forced = found
    masks = snapshot(board).masks
    for digit in range(1, board.size + 1):
        kept = held[digit] & masks[digit]
        if name == TEMPLATE_SET:
            cells, verdict = forced[digit] & masks[digit], f"{digit} goes there"
        else:
            cells, verdict = masks[digit] & ~held[digit], f"{digit} goes from there"
        if not cells:
            continue
        hits = [(c, digit) for c in cells_of(cells)]
        yield board.step(
            name,
            f"{'Every' if name == TEMPLATE_SET else 'No'} template of {digit} "
            f"({_TEMPLATE.format(d=digit)}) holds "
            f"{', '.join(board.name(c) for c, _ in hits)}: {verdict}.",
            placements=hits if name == TEMPLATE_SET else (),
            eliminations=hits if name == TEMPLATE_DELETE else (),
            proof=[(c, digit) for c in cells_of(kept)],
        )


@technique
def template_set(board: Board) -> Iterator[Step]:
    """Per digit, the cells every refined template holds and the digit is not placed in yet
    (HoDoKu ``TemplateSolver.getTemplateSet``): one step placing the digit in all of them."""
    return _per_digit(board, TEMPLATE_SET)


@technique
def template_delete(board: Board) -> Iterator[Step]:
    """Per digit, its candidates no refined template holds (HoDoKu
    ``TemplateSolver.getTemplateDel``): one step removing them all."""
    return _per_digit(board, TEMPLATE_DELETE)


TECHNIQUES: tuple[tuple[str, Technique], ...] = (
    (TEMPLATE_SET, template_set),
    (TEMPLATE_DELETE, template_delete),
)
"""Both searches; HoDoKu's solver has them off by default, so :mod:`.solver` does not list
them (its ``Options.DEFAULT_SOLVER_STEPS``: 8700 and 8800, level Extreme, score 10,000)."""
