"""What techniques need to know of a model's groups, computed once per model and size.

Groups are the puzzle's all-different groups. A group of ``size`` cells holds every digit
exactly once (a *full* group); a shorter one only holds each digit at most once. Techniques
that reason "digit d must go somewhere in this group" (hidden singles and subsets, the base
side of locked candidates and fish) use full groups only; those that reason "at most once"
(naked subsets, eliminations) use every group.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model import Model


@dataclass(frozen=True)
class Layout:
    size: int
    groups: tuple[tuple[int, ...], ...]
    labels: tuple[str, ...]
    full: tuple[int, ...]
    """Indices of the groups of ``size`` cells (they hold every digit)."""
    lines: frozenset[int]
    """Indices of the rows and columns."""
    rows: tuple[int, ...]
    """Group index of each row (empty when the model has no rows)."""
    columns: tuple[int, ...]
    intersections: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    """(a, b, common, a's other cells, b's other cells): full group a and another group b
    sharing at least two cells (b not inside a)."""
    group_sets: tuple[frozenset[int], ...]
    scan_order: tuple[int, ...] = ()
    """Every group, in the order HoDoKu scans units for subsets (``SimpleSolver``): boxes (any
    group not a row or column) first, then rows, then columns."""


def _find(groups: tuple[tuple[int, ...], ...], wanted: list[tuple[int, ...]]) -> tuple[int, ...]:
    index = {tuple(sorted(g)): i for i, g in enumerate(groups)}
    found = [index.get(w) for w in wanted]
    return tuple(i for i in found if i is not None) if None not in found else ()


@functools.cache
def layout_of(model: Model, size: int) -> Layout:
    groups = model.groups(size)
    labels = model.group_labels(size)
    full = tuple(i for i, g in enumerate(groups) if len(g) == size)
    rows = _find(groups, [tuple(range(r * size, r * size + size)) for r in range(size)])
    columns = _find(groups, [tuple(range(c, size * size, size)) for c in range(size)])
    sets = tuple(frozenset(g) for g in groups)
    intersections = []
    for a in full:
        for b in range(len(groups)):
            if a != b:
                common = tuple(sorted(sets[a] & sets[b]))
                # A common part as big as b is b inside a: no cell of b outside to clear.
                if len(common) >= 2 and len(common) < len(groups[b]):
                    a_rest = tuple(c for c in groups[a] if c not in sets[b])
                    b_rest = tuple(c for c in groups[b] if c not in sets[a])
                    intersections.append((a, b, common, a_rest, b_rest))
    return Layout(
        size=size,
        groups=groups,
        labels=labels,
        full=full,
        lines=frozenset(rows) | frozenset(columns),
        rows=rows,
        columns=columns,
        intersections=tuple(intersections),
        group_sets=sets,
        scan_order=tuple(
            [g for g in range(len(groups)) if g not in rows and g not in columns]
            + list(rows)
            + list(columns)
        ),
    )
