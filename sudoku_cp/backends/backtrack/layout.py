"""The foot of the ``backtrack`` backend: a model's groups at one size in the forms its searches
read (:class:`Layout`, built once per (model, size) by :func:`layout`), and the sizes the pure
search and the compiled kernels agree on.

Every other module of the family reads these tables — the pure search (:mod:`.search`), the
teaching strategies' rule checks (:mod:`.checks`) and the kernels' glue (:mod:`.kernel.glue`,
:mod:`.kernel.learn`) — and none of them is imported from here, but the rule tables'
compiler (:mod:`.rules`, loaded only for models with rules beyond groups), which reads no
layout: the imports go one way, from the search down.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model import Model
from .bits import cell_mask

if TYPE_CHECKING:
    from .rules import RuleTables

WEIGHTED_FROM_SIZE = 17
"""From this size on, the fast strategy branches by failures weighed against candidates
(see :func:`.search._branch_weighted`); below it, by fewest candidates alone, which is quicker on
9x9."""

CONFINEMENT_MAX_BYTES = 8 << 20
"""Above this, a layout leaves confinement out. Each pair of meeting groups keeps three
grid-wide masks (about N³ bits each): for the classic model 1.4 MB in all at 25x25 and 7.2 MB
at 36x36, but 30 MB at 49x49 and 100 MB at 64x64."""


# --- tables, built once per (model, size) ------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """The model's groups at one size, in the forms the strategies read.

    The fast strategy packs all candidates of a grid into one integer: digit ``d`` (1..N) is
    a candidate of cell ``c`` when bit ``(d - 1) * stride + c`` is set. The ``stride`` bits of
    one digit form its *layer* (the cells where it may still go), and each layer ends in one
    spare *guard* bit, which lets one subtraction count the places of every digit in a group
    at once (see :func:`.search._hidden_singles`).
    """

    size: int
    cells: int
    peers: tuple[tuple[int, ...], ...]
    peer_masks: tuple[int, ...]
    """Bit ``q`` of ``peer_masks[c]`` is set when cell ``q`` is a peer of cell ``c``."""
    full_groups: tuple[tuple[int, ...], ...]
    """The groups of exactly N cells: each must hold every digit, so singles apply to them."""
    stride: int
    all_cells: int
    """One bit per cell: the layer of a digit that may go anywhere."""
    low_bits: int
    """The lowest bit of every layer: multiplying a layer by it copies it to every digit."""
    guards: int
    """The guard bit of every layer."""
    shifts: tuple[int, ...]
    """Where each digit's layer starts: ``(d - 1) * stride``."""
    group_masks: tuple[int, ...]
    """Each full group's cells, in every layer."""
    confinements: tuple[tuple[int, int, int], ...]
    """For two full groups A (earlier) and B meeting in two or more cells: the cells of A
    outside B, the cells of B outside A, and both together, in every layer."""
    rules: RuleTables | None = None
    """The model's rules beyond groups (see :mod:`.rules`), None when it has none."""

    @property
    def has_rules(self) -> bool:
        """Whether the search has more to propagate than the groups."""
        return self.rules is not None


@functools.lru_cache(maxsize=8)
def layout(model: Model, size: int) -> Layout:
    """The tables of ``model`` at ``size``, cached: each search only reads them."""
    cells = size * size
    peers = model.peers(size)
    full = tuple(g for g in model.groups(size) if len(g) == size)
    stride = cells + 1
    low_bits = sum(1 << (d * stride) for d in range(size))
    peer_masks, group_masks, confinements = _group_tables(peers, full, size)
    return Layout(
        size=size,
        cells=cells,
        peers=peers,
        peer_masks=peer_masks,
        full_groups=full,
        stride=stride,
        all_cells=(1 << cells) - 1,
        low_bits=low_bits,
        guards=low_bits << cells,
        shifts=tuple(d * stride for d in range(size)),
        group_masks=group_masks,
        confinements=confinements,
        rules=_rule_tables(model, size, stride, peers),
    )


def _rule_tables(
    model: Model, size: int, stride: int, peers: tuple[tuple[int, ...], ...]
) -> RuleTables | None:
    """The tables of the model's rules beyond groups; their modules load only when it has
    some (start-up of a classic solve)."""
    if not model.rules:
        return None
    from .rules import compile_rules

    return compile_rules(model.rules, size, stride, peers)


@functools.lru_cache(maxsize=64)
def _group_tables(
    peers: tuple[tuple[int, ...], ...], full: tuple[tuple[int, ...], ...], size: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """The masks of the peers and of the full groups, and the confinements, made once per
    set of groups: the models of one grid's puzzles (classic and its rules) share them, and
    they were a third of a first variant solve's layout."""
    stride = size * size + 1
    low_bits = sum(1 << (d * stride) for d in range(size))
    return (
        tuple(cell_mask(p) for p in peers),
        tuple(cell_mask(g) * low_bits for g in full),
        _confinements(full, low_bits, stride),
    )


def _confinements(
    full: tuple[tuple[int, ...], ...], low_bits: int, stride: int
) -> tuple[tuple[int, int, int], ...]:
    sets = [frozenset(g) for g in full]
    meeting = [(a, b) for i, a in enumerate(sets) for b in sets[i + 1 :] if len(a & b) >= 2]
    if len(meeting) * 3 * len(full[0] if full else ()) * stride > 8 * CONFINEMENT_MAX_BYTES:
        return ()
    return tuple(
        (cell_mask(a - b) * low_bits, cell_mask(b - a) * low_bits, cell_mask(a ^ b) * low_bits)
        for a, b in meeting
    )
