"""The sequence rules of a model (skyscrapers, X-sums, digit-root cages …) and its sandwiches
on lines that are no group, laid out for the generic kernel as automata over a line's cells
(:func:`sequences`, :class:`SequenceArrays`), and the skyscrapers it also reads over their
digits' places (:func:`seen_clues`). :mod:`.model_tables` packs them with the other tables.

numpy is imported on the first table built, never by ``import sudoku_cp``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from ....model import Model

if TYPE_CHECKING:  # (a classic solve loads no rule module: tests/test_startup.py)
    from ....rules.base import Automaton

SEQUENCE_STATES_MAX = 50_000
"""The most automaton states the sequence rules of one model may number, all together, for
the generic kernel to take it (a table of N moves per state: 3 MB at 16x16); past it the model
stays in the pure search. A 9x9 skyscraper has under 50, an X-sum a few hundred."""


@dataclasses.dataclass(frozen=True)
class SequenceArrays:
    """The sequence rules of a layout (:func:`~.glue.takes_rules`: skyscrapers, X-sums,
    digit-root cages …) and its sandwiches as the generic kernel reads them: each rule's
    automaton, as the pure search compiles it
    (:class:`~sudoku_cp.backends.backtrack.shapes.SequencePropagator`'s ``dfa``: the rule's own
    ``automaton``, its meaning read there), or the sandwich's as the exports write it
    (:func:`sudoku_cp.export.shapes.sandwich_automaton`), laid out as a table. Each
    rule's cells in order (``seq_start`` per rule into ``seq_cell``); its states, numbered
    from ``seq_first[r]`` (its start) to ``seq_first[r + 1]``, over all the rules at once;
    ``seq_move[s, d]`` the state after digit ``d + 1`` from state ``s`` (-1: no word goes on),
    ``seq_accept[s]`` whether ``s`` accepts; ``seq_room``, one number: the most states the
    layers of one rule's line hold in all (the kernel's scratch); and ``seq_last[s]``, the
    last position (digits read) ``s`` may stand at (see :func:`layered`)."""

    seq_start: Any
    seq_cell: Any
    seq_first: Any
    seq_move: Any
    seq_accept: Any
    seq_room: Any
    seq_last: Any


Layered = tuple[list[list[int]], list[bool], list[int]]
"""An automaton laid out for a line: per state (the start first) its moves (the next state per
digit, -1 for none), whether it accepts, and the last position it may stand at."""


PLAIN, LARGEST, DIGITS = 0, 1, 2
"""How :func:`layered` lays a line out: the rule's states alone (a line that is no group), each
with the largest digit read, or each with the set of digits read."""
ABSORBED = -1
"""The digits read, no longer kept: the rule's state has every digit lead back to itself."""


def layered(dfa: Automaton, size: int, length: int, mode: int, most: int) -> Layered | None:
    """``dfa`` over digits 1..``size`` numbered, the states met within ``length`` digits (the
    line's cells) from its start: each of the rule's states stepped once per digit, those of no
    state a word can still end accepting from left out. None past ``most`` states met.

    On a line of peers (its digits all differ) a state holds more than the rule's, for the same
    solutions with less search. With ``LARGEST``, the largest digit read: a state stands only
    where ``i`` digits read hold one of ``i`` or more, as ``i`` different digits do (its last
    position: that digit) — a full row's skyscrapers must see its N (ISS keeps only such final
    heights: sigh/Interactive-Sudoku-Solver, js/solver/handlers.js,
    ``Skyscraper._terminalMask``). With ``DIGITS``, the set of digits read, none read twice,
    until the rule's state has every digit lead back to itself (an X-sum made: ``ABSORBED``):
    the rule and its line's all-different at once (ISS builds an X-sum as sums whose handler
    groups the cells that must differ: js/solver/sudoku_builder.js, case ``'XSum'``;
    js/solver/sum_handler.js, its exclusion groups). ``DIGITS`` also gives up (None) once the
    states met are more than three times the rule's own and 16 (a skyscraper's sets of
    digits seen: thousands of states)."""
    # The rule's own states, each stepped once per digit (``dfa.step`` is the cost) ...
    inner: list[Hashable] = [dfa.start]
    inner_number: dict[Hashable, int] = {dfa.start: 0}
    inner_rows: dict[int, list[int]] = {}
    # ... and the states laid out: (the rule's state, the largest digit read, the digits read
    # as a mask or on a line that is no group the line's length), numbered as met.
    states: list[tuple[int, int]] = [(0, length if mode == PLAIN else 0)]
    number: dict[tuple[int, int], int] = {states[0]: 0}
    rows: dict[int, list[int]] = {}

    def inner_steps(k: int) -> list[int]:
        steps = inner_rows.get(k)
        if steps is None:
            steps = inner_rows[k] = []
            here = inner[k]
            for digit in range(1, size + 1):
                nxt = dfa.step(here, digit)
                if nxt is None:
                    steps.append(-1)
                    continue
                j = inner_number.get(nxt)
                if j is None:
                    j = inner_number[nxt] = len(inner)
                    inner.append(nxt)
                steps.append(j)
        return steps

    def absorbing(k: int) -> bool:
        return all(j == k for j in inner_steps(k))

    layer = {0}
    for i in range(length):
        after: set[int] = set()
        for s in layer:
            row = rows.get(s)
            if row is None:
                k, top = states[s]
                steps = inner_steps(k)
                row = rows[s] = []
                for digit, j in enumerate(steps, 1):
                    if j < 0:
                        row.append(-1)
                        continue
                    if mode == DIGITS:
                        bit = 1 << (digit - 1)
                        if top != ABSORBED and top & bit:
                            row.append(-1)  # a digit read twice
                            continue
                        key = (j, ABSORBED if top == ABSORBED or absorbing(j) else top | bit)
                    else:
                        key = (j, max(top, digit) if mode == LARGEST else top)
                    t = number.get(key)
                    if t is None:
                        t = number[key] = len(states)
                        states.append(key)
                        if len(states) > most:
                            return None
                    row.append(t)
            for t in row:
                if t >= 0 and (mode == DIGITS or states[t][1] > i):
                    after.add(t)
        layer = after
        if mode == DIGITS and len(states) > 3 * len(inner) + 16:
            return None
    inner_accepts = [dfa.accepts(state) for state in inner]
    accepts = [inner_accepts[k] for k, _ in states]
    # Alive: an accepting state, or one with a move to an alive one (backwards, once).
    behind: list[list[int]] = [[] for _ in states]
    for s, row in rows.items():
        for t in row:
            if t >= 0:
                behind[t].append(s)
    alive = list(accepts)
    todo = [s for s, a in enumerate(alive) if a]
    while todo:
        t = todo.pop()
        for s in behind[t]:
            if not alive[s]:
                alive[s] = True
                todo.append(s)
    if not alive[0]:
        return [[-1] * size], [False], [length]  # no word is accepted
    kept = [s for s in range(len(states)) if alive[s]]  # the start first
    new = {s: k for k, s in enumerate(kept)}
    none = [-1] * size
    moves = [[new.get(t, -1) for t in rows.get(s, none)] for s in kept]
    last = [states[s][1] if mode == LARGEST else length for s in kept]
    return moves, [accepts[s] for s in kept], last


def on_a_line(propagator: object) -> bool:
    """Whether the pure search's ``propagator`` is one the kernel lays out as an automaton
    (:func:`sequences`): a sequence rule's, or a sandwich's on a line that is no group."""
    from ..shapes import LooseSandwich, SequencePropagator

    return isinstance(propagator, SequencePropagator | LooseSandwich)


@functools.lru_cache(maxsize=1024)
def _layered_alike(rule: Any, size: int, peers: bool) -> Layered | None:
    """:func:`layered` for a sequence rule whose automaton reads only how many cells it has
    (``automaton_by_count``), given with cells 0..k-1: one table per clue and length, shared
    by the rules and models alike (the layout took 21 ms of an X-sum puzzle's 25)."""
    return _line_layout(rule.automaton(size), size, len(rule.cells), peers)


def _line_layout(dfa: Automaton, size: int, length: int, peers: bool) -> Layered | None:
    """A line's automaton laid out: on a line of peers with the digits read, else (too many
    states) the largest; on a line that is no group, the rule's states alone."""
    if peers:
        found = layered(dfa, size, length, DIGITS, SEQUENCE_STATES_MAX)
        if found is not None:
            return found
    return layered(dfa, size, length, LARGEST if peers else PLAIN, SEQUENCE_STATES_MAX)


def _sequence_propagators(lay: Any) -> list[Any]:
    """The pure search's propagators the kernel lays out as sequences, in the kernel's order:
    sequence rules and the sandwiches on lines that are no group (what ``on_a_line`` says)."""
    from ..shapes import LooseSandwich, SequencePropagator

    rules = lay.rules
    kinds = SequencePropagator | LooseSandwich
    return [p for p in rules.propagators if isinstance(p, kinds)] if rules else []


SEEN_MAX_SIZE = 63
"""The largest grid whose skyscrapers :func:`seen_clues` gives the kernel's digit view: its
states hold the nearest place taken so far as a bit of a ``uint64`` (N + 1 of them)."""


def seen_clues(model: Model, size: int) -> Any:
    """For each of the kernel's sequences (:func:`sequences`' order), the number of buildings
    seen when it is a skyscraper along a full group — a line that holds each digit once — and
    0 otherwise: the kernel keeps those consistent over the digits' places too
    (:func:`~.propagators.seen_by_digit`), which the automaton over the cells, blind to the
    digits' being different, does not see."""
    import numpy as np

    from ....rules.outside import Skyscraper
    from ..layout import layout
    from ..shapes import SequencePropagator

    lay = layout(model, size)
    groups = {frozenset(group) for group in lay.full_groups}
    clues = [
        p.rule.clue
        if isinstance(p, SequencePropagator)
        and isinstance(p.rule, Skyscraper)
        and size <= SEEN_MAX_SIZE
        and 0 < p.rule.clue <= size  # (the scratch holds counts to N; more: the automaton's)
        and frozenset(p.cells) in groups
        else 0
        for p in _sequence_propagators(lay)
    ]
    return np.array(clues, dtype=np.int32)


@functools.lru_cache(maxsize=16)
def sequences(model: Model, size: int) -> SequenceArrays | None:
    """The sequence rules of ``model`` at ``size`` laid out (:class:`SequenceArrays`: each
    automaton :func:`layered`), or None when their automata keep more than
    :data:`SEQUENCE_STATES_MAX` states in all (or one of them meets more within its line)."""
    import numpy as np

    from ..layout import layout
    from ..shapes import SequencePropagator

    lay = layout(model, size)
    props = _sequence_propagators(lay)
    lines: list[tuple[int, ...]] = []
    tables: list[Layered] = []
    states = 0
    for p in props:
        line = p.cells
        if isinstance(p, SequencePropagator):
            dfa = p.dfa
        else:
            # The automaton the exports write a sandwich as, read as its checker reads the line
            # (the first 1 and the first N; tested word by word against the checker).
            from ....export.shapes import sandwich_automaton
            from ....rules import Sandwich

            dfa = sandwich_automaton(Sandwich(p.cells, p.goal), size)
        peers = all(b in lay.peers[a] for i, a in enumerate(line) for b in line[i + 1 :])
        alike = p.rule if isinstance(p, SequencePropagator) else None
        if alike is not None and type(alike).automaton_by_count:
            # laid out once per clue and length (ten skyscrapers of clue 3: one table)
            blank = dataclasses.replace(alike, cells=tuple(range(len(line))))
            table = _layered_alike(blank, size, peers)
        else:
            table = _line_layout(dfa, size, len(line), peers)
        if table is None:
            return None
        states += len(table[0])
        if states > SEQUENCE_STATES_MAX:
            return None
        lines.append(line)
        tables.append(table)
    first = [0]
    for table in tables:
        first.append(first[-1] + len(table[0]))
    move = np.full((states, size), -1, dtype=np.int32)
    accept = np.zeros(states, dtype=np.int32)
    last = np.zeros(states, dtype=np.int32)
    room = 0
    for (moves, accepting, ends), at, line in zip(tables, first[:-1], lines, strict=True):
        rows = np.array(moves, dtype=np.int32).reshape(len(moves), size)
        move[at : at + len(moves)] = np.where(rows >= 0, rows + at, -1)
        accept[at : at + len(moves)] = accepting
        last[at : at + len(moves)] = ends
        layer = {0}
        held = 1
        for i in range(len(line)):  # every digit open: the most a search can meet
            layer = {t for s in layer for t in moves[s] if t >= 0 and ends[t] > i}
            held += len(layer)
        room = max(room, held)
    return SequenceArrays(
        seq_start=np.concatenate(([0], np.cumsum([len(x) for x in lines]))).astype(np.int32),
        seq_cell=np.array([c for line in lines for c in line], dtype=np.int32),
        seq_first=np.array(first, dtype=np.int32),
        seq_move=move,
        seq_accept=accept,
        seq_room=np.array([room], dtype=np.int32),
        seq_last=last,
    )
