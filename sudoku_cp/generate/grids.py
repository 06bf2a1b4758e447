"""Random solved grids and random jigsaw regions: the raw material of every generated puzzle.

A solved grid is found by a randomised search of its own (candidates as bit masks, the cell
with fewest candidates first, ties and digits in random order, restarted when a search runs
past a node budget): the backends' searches are deterministic, and a generator needs the
grid drawn at random. Which grid comes out depends only on the ``random.Random`` given, so a
seed fixes it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..errors import SudokuError

FILL_NODES = 20_000
"""Nodes one randomised fill may take before it starts again from an empty grid (a 9x9 fill
takes about 81, a 16x16 a few hundred; a bad early choice can trap a search for long)."""
FILL_RESTARTS = 50
"""Fresh starts before a model is declared unfillable (a jigsaw layout with no solution)."""


class NoGrid(SudokuError):
    """No solved grid was found within the restarts (the layout may have none)."""


def random_solution(
    peers: Sequence[Sequence[int]],
    size: int,
    rng: random.Random,
    *,
    restarts: int = FILL_RESTARTS,
    nodes: int = FILL_NODES,
) -> tuple[int, ...]:
    """A solved grid drawn at random under the groups whose peer lists are ``peers``."""
    for _ in range(restarts):
        grid = _fill(peers, size, rng, nodes)
        if grid is not None:
            return grid
    raise NoGrid(f"no solved grid found in {restarts} random starts")


def _fill(
    peers: Sequence[Sequence[int]], size: int, rng: random.Random, budget: int
) -> tuple[int, ...] | None:
    cells = size * size
    full = (1 << size) - 1
    cand = [full] * cells
    grid = [0] * cells
    # The stack holds (cell, digits still to try, candidate snapshot).
    stack: list[tuple[int, list[int], list[int]]] = []
    spent = 0
    while True:
        # Pick the open cell with fewest candidates (random among ties).
        best, best_count, ties = -1, size + 1, 0
        for cell in range(cells):
            if grid[cell]:
                continue
            count = cand[cell].bit_count()
            if count < best_count:
                best, best_count, ties = cell, count, 1
            elif count == best_count:
                ties += 1
                if rng.randrange(ties) == 0:
                    best = cell
        if best < 0:
            return tuple(grid)
        options = [d + 1 for d in range(size) if cand[best] >> d & 1]
        rng.shuffle(options)
        stack.append((best, options, cand[:]))
        while True:
            spent += 1
            if spent > budget:
                return None
            if not stack:
                return None
            cell, options, saved = stack[-1]
            if not options:
                stack.pop()
                grid[cell] = 0
                continue
            digit = options.pop()
            cand[:] = saved
            grid[cell] = digit
            if _place(cand, grid, peers, cell, digit):
                break
            grid[cell] = 0


def _place(
    cand: list[int], grid: list[int], peers: Sequence[Sequence[int]], cell: int, digit: int
) -> bool:
    """Set ``cell`` to ``digit`` and strike it from the peers; False at a peer left empty."""
    bit = 1 << (digit - 1)
    cand[cell] = bit
    for peer in peers[cell]:
        if not grid[peer] and cand[peer] & bit:
            cand[peer] &= ~bit
            if not cand[peer]:
                return False
    return True


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
        others = [regions[n] for n in _neighbours(cell, size) if regions[n] != a]
        if not others:
            continue
        b = rng.choice(others)
        back = [
            c
            for c in range(size * size)
            if regions[c] == b and c != cell and any(regions[n] == a for n in _neighbours(c, size))
        ]
        if not back:
            continue
        other = rng.choice(back)
        regions[cell], regions[other] = b, a
        if not (_connected(regions, a, size) and _connected(regions, b, size)):
            regions[cell], regions[other] = a, b
    return tuple(regions)


def _neighbours(cell: int, size: int) -> list[int]:
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
        for n in _neighbours(cell, size):
            if regions[n] == region and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(members)
