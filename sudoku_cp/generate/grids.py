"""Random solved grids and random jigsaw regions: the raw material of every generated puzzle.

The backends' searches are deterministic, so randomness comes from the digits a search
starts from and a renaming of the digits after (:func:`random_solution`). Which grid comes
out depends only on the ``random.Random`` given, so a seed fixes it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..errors import SudokuError
from ..model import Model

SEED_NODES = 2_000
"""Search nodes allowed to complete one draw of seed digits (a 9x9 draw that can be completed
takes a few; one that contradicts itself is usually refuted in a few dozen)."""
FILL_NODES = 20_000
"""Search nodes allowed to fill the grid from no seed digits at all."""


class NoGrid(SudokuError):
    """No solved grid was found (the layout may have none)."""


def random_solution(model: Model, size: int, rng: random.Random) -> tuple[int, ...]:
    """A solved grid of ``model`` (groups only) drawn at random.

    Random cells get random digits their placed peers allow (N of them, then N/2, N/4 … when
    a draw cannot be completed, finally none), the ``backtrack`` search completes the grid
    (the compiled kernel when installed: microseconds), and the digits are renamed by a random
    permutation (which keeps every all-different group). Budgets are in search nodes, so the
    grid depends on the seed alone. :class:`NoGrid` when even the empty grid is not filled
    within :data:`FILL_NODES` (a jigsaw layout with no solved grid). Above 16x16 the grid is
    :func:`pattern_solution`'s."""
    from .counting import LARGE_FROM, Counter

    if size >= LARGE_FROM:
        # A search fills a 25x25 grid too slowly to draw thousands: a moved pattern instead.
        drawn = pattern_solution(model, size, rng)
        if drawn is None:
            raise NoGrid("above 16x16 only grids of rows, columns and boxes are drawn")
        return drawn
    counter = Counter(model, size)
    peers = model.peers(size)
    cells = size * size
    seeds = size
    while True:
        grid = [0] * cells
        for cell in rng.sample(range(cells), seeds):
            taken = {grid[p] for p in peers[cell]}
            free = [d for d in range(1, size + 1) if d not in taken]
            if free:
                grid[cell] = rng.choice(free)
        found = counter.first(grid, SEED_NODES if seeds else FILL_NODES)
        if found is not None:
            names = list(range(1, size + 1))
            rng.shuffle(names)
            return tuple(names[d - 1] for d in found)
        if not seeds:
            raise NoGrid("no solved grid fits the layout")
        seeds //= 2


def random_regions(
    size: int, box: tuple[int, int], rng: random.Random, moves: int = 0
) -> tuple[int, ...]:
    """N connected regions of N cells each, drawn by random trades of border cells between
    neighbouring regions, starting from the boxes of shape ``box`` (rows, columns).

    Each trade moves a cell from region A to a neighbouring region B and another from B back
    to A, both at the A–B border, and is kept only when both regions stay connected: the sizes
    never change, and connectivity is checked after every trade.
    """
    height, width = box
    regions = [
        (r // height) * (size // width) + c // width for r in range(size) for c in range(size)
    ]
    moves = moves or 6 * size * size
    for _ in range(moves):
        cell = rng.randrange(size * size)
        a = regions[cell]
        others = [regions[n] for n in orthogonal_neighbours(cell, size) if regions[n] != a]
        if not others:
            continue
        b = rng.choice(others)
        back = [
            c
            for c in range(size * size)
            if regions[c] == b
            and c != cell
            and any(regions[n] == a for n in orthogonal_neighbours(c, size))
        ]
        if not back:
            continue
        other = rng.choice(back)
        regions[cell], regions[other] = b, a
        if not (_connected(regions, a, size) and _connected(regions, b, size)):
            regions[cell], regions[other] = a, b
    return tuple(regions)


def orthogonal_neighbours(cell: int, size: int) -> list[int]:
    row, col = divmod(cell, size)
    found = []
    if row:
        found.append(cell - size)
    if row + 1 < size:
        found.append(cell + size)
    if col:
        found.append(cell - 1)
    if col + 1 < size:
        found.append(cell + 1)
    return found


def _connected(regions: Sequence[int], region: int, size: int) -> bool:
    """Whether the cells of ``region`` form one piece (orthogonal steps)."""
    members = [c for c, r in enumerate(regions) if r == region]
    seen = {members[0]}
    todo = [members[0]]
    while todo:
        cell = todo.pop()
        for n in orthogonal_neighbours(cell, size):
            if regions[n] == region and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(members)


def pattern_solution(model: Model, size: int, rng: random.Random) -> tuple[int, ...] | None:
    """A solved grid of a model of rows, columns and boxes, drawn from one pattern by random
    moves that keep every such grid solved: None when ``model`` has other groups too (its
    grids need a search).

    The pattern puts digit ``(r mod h)·w + ⌊r/h⌋ + c`` (mod N, plus one) at row r, column c
    of a grid of h×w boxes; then the rows are shuffled within each band of boxes and the bands
    among themselves, the columns likewise within and among stacks, the grid transposed (half
    the time, when the boxes are square) and the digits renamed. Quick at any size, but far
    from uniform: every grid it gives is one pattern moved by (h!)^w·w!·(w!)^h·h!·2·N! moves,
    a tiny share of all grids (docs/guide/generate.md says so)."""
    box = model.box_for(size)
    if box is None:
        return None
    h, w = box
    rows = [[((r % h) * w + r // h + c) % size for c in range(size)] for r in range(size)]
    order = _shuffled_blocks(size, h, w, rng)  # h rows a band, w bands
    rows = [rows[r] for r in order]
    cols = _shuffled_blocks(size, w, h, rng)  # w columns a stack, h stacks
    rows = [[row[c] for c in cols] for row in rows]
    if h == w and rng.random() < 0.5:
        rows = [list(col) for col in zip(*rows, strict=True)]
    names = list(range(1, size + 1))
    rng.shuffle(names)
    grid = tuple(names[d] for row in rows for d in row)
    if any(len({grid[c] for c in group}) != size for group in model.groups(size)):
        return None
    return grid


def _shuffled_blocks(size: int, block: int, blocks: int, rng: random.Random) -> list[int]:
    """Indices 0..size-1 in runs of ``block``: each run shuffled, the runs shuffled."""
    runs = [list(range(b * block, (b + 1) * block)) for b in range(blocks)]
    for run in runs:
        rng.shuffle(run)
    rng.shuffle(runs)
    return [i for run in runs for i in run]
