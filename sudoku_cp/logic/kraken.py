"""Kraken Fish Type 1 and Type 2 (HoDoKu's ``SolutionType.KRAKEN_FISH_TYPE_1`` and
``KRAKEN_FISH_TYPE_2``, library codes 0371 and 0372).

A finned fish says: either a fin holds the digit, or the fish without its fins holds (each
cover unit then gets its digit from the base, and the cover cells outside the base, and the
base cells in two cover units, lose it). When no such cell sees every fin the finned fish
removes nothing; a *Kraken* fish links the fins to an elimination by chains instead. Read in
hobiwan's HoDoKu (yoki123 fork), ``src/solver/FishSolver.java`` (its class comment "Kraken
Fish", ``getKrakenFish``, the ``kraken`` branch of ``searchCoverUnits``, ``searchForKraken``)
and ``src/solver/TablingSolver.java`` (``initForKrakenSearch``, ``checkKrakenTypeOne``,
``checkKrakenTypeTwo``, ``getKrakenChain``):

- the fish: ``getKrakenFish`` searches digits 1 to 9, sizes 2 to
  ``Options.KRAKEN_MAX_FISH_SIZE`` (4), of type ``KRAKEN_MAX_FISH_TYPE`` (1: basic and
  Franken — rows and boxes against columns and boxes, then the other way round, as
  :mod:`.complex_fish`'s Franken search, basic fish among them), finned only, with at most
  ``MAX_KRAKEN_FINS`` (2) fins and ``MAX_KRAKEN_ENDO_FINS`` (0) endo fins, without the
  template bound; ``searchCoverUnits`` passes a fish to ``searchForKraken`` only when no
  cell the unfinned fish would remove (cover cells outside the base, cannibalistic base
  cells) sees every fin. The fish come from :func:`.complex_fish.fish_on` (``kraken``).
- Type 1 (``checkKrakenTypeOne``): such a cell loses the digit when every fin's being true
  implies, by a chain, that the cell does not hold it — either way it does not.
- Type 2 (``checkKrakenTypeTwo``): for a cover unit holding more than its base candidates that
  are not cannibalistic (one that holds only those "would be a normal Forcing Chain"), those
  base candidates and the fins have a true member; a candidate of any digit, in a cell none of
  them is in, that every one of them being true implies false goes.
- The chains are the tabling tables of grouped chains without ALS nodes
  (``initForKrakenSearch``: ``fillTables`` with direct links only, ``fillTablesWithGroupNodes``,
  ALS nodes only with ``ALLOW_ALS_IN_TABLING_CHAINS``, off by default): :mod:`.chain_tables`'s
  :class:`~.chain_tables.ChainGraph`.

A step removes one candidate (HoDoKu's ``addCandidateToDelete``, one per step) and is made once
per candidate and fish digit (``addKrakenStep`` keeps one step per deletion and digit), the
smallest fish first; its chains are written out as :mod:`.chain_tables` writes them (a candidate
whose shortest chains all run back into their own cells is written with such a chain).

HoDoKu's solver has the technique off (``Options.DEFAULT_SOLVER_STEPS``: ``StepConfig`` 8450
``KRAKEN_FISH``, Extreme, score 500, ``enabled`` false), so :mod:`.solver` does not list it;
:data:`TECHNIQUES` has both types for a caller's list and for the regression library.

Cost: the fish per digit depend on that digit's candidates only and are kept in ``board.memo``
(a hard solve asks again after every step, the chains are :func:`.chain_tables.chain_graph`'s, made
once per board state). At most :data:`MAX_FISH` fish per digit are looked at: past that the
rest of the digit is not searched, with a logged warning (never reached on the bundled
puzzles: a digit of a stalled top1465 state has up to about 11,000, of a 16x16 grid about
8,000; all of a 9x9 state's are
found in well under a second). The search stops at the board's deadline between fish. Boards
the chain graph does not take (too many nodes) and models with rules beyond groups give
nothing (as :mod:`.grouped`).

Order: digits 1 up, fish of 2 units before 3 and 4. HoDoKu's ``getKrakenFish`` stops at the
first digit with a step and sorts that digit's by fish type and chain length, so where several
apply the first step may differ from HoDoKu's; every one is found.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from .basic import and_list
from .board import Board, Technique, technique
from .chain_tables import ChainGraph, bit_positions, chain_graph, chain_links, chain_notation
from .complex_fish import (
    FRANKEN,
    SIZE_NAMES,
    Fish,
    Unit,
    classify,
    fish_name,
    fish_on,
)
from .layout import layout_of
from .patterns import cells_of, snapshot
from .steps import Candidate, Link, Step

KRAKEN_1 = "Kraken Fish Type 1"
KRAKEN_2 = "Kraken Fish Type 2"
# HoDoKu's names: intl/SolutionType.properties (reglib's 0371 and 0372).

MAX_SIZE = 4
"""HoDoKu's ``Options.KRAKEN_MAX_FISH_SIZE``: base units of the biggest fish."""

MAX_FISH = 100_000
"""Fish looked at per digit at most (the bound on the work; see the module's docstring)."""


def _fishes(board: Board, digit: int) -> tuple[Fish, ...]:
    """The fish a Kraken search starts from on ``digit``, smallest first (kept per candidate
    pattern of the digit)."""
    dmask = snapshot(board).masks[digit]
    key = ("kraken fish", digit)  # (the latest pattern only: the lists are long)
    found = board.memo.get(key)
    if isinstance(found, tuple) and found[0] == dmask:
        return found[1]
    out: list[Fish] = []
    for n in range(2, MAX_SIZE + 1):
        for fish in fish_on(board, digit, n, True, FRANKEN, kraken=True):
            out.append(fish)
            if len(out) >= MAX_FISH:
                break
        if len(out) >= MAX_FISH:
            logging.getLogger(__name__).warning(
                "Kraken fish: digit %d has more than %d fish; the rest are not searched",
                digit,
                MAX_FISH,
            )
            break
    result = tuple(out)
    board.memo[key] = (dmask, result)
    return result


def _fish_name(board: Board, fish: Fish) -> str:
    """The finned fish's own name (HoDoKu's ``subType``): basic ones Finned or Sashimi (some
    base unit has at most one candidate inside the cover, as :mod:`.fish` names them)."""
    n = len(fish.base)
    base_kinds = cover_kinds = cover = 0
    for u in fish.base:
        base_kinds |= u.kind
    for u in fish.cover:
        cover_kinds |= u.kind
        cover |= u.mask
    family = classify(base_kinds, cover_kinds)
    if family is not None:
        return fish_name(family, n, True)
    sashimi = any((u.mask & cover).bit_count() < 2 for u in fish.base)
    return f"{'Sashimi' if sashimi else 'Finned'} {SIZE_NAMES[n]}"


def _fish_text(board: Board, digit: int, fish: Fish) -> str:
    labels = layout_of(board.puzzle.model, board.size).labels
    fins = cells_of(fish.fins)
    plural = "s" if len(fins) > 1 else ""
    return (
        f"the {_fish_name(board, fish)} on {digit} with base "
        f"{and_list([labels[u.group] for u in fish.base])}, cover "
        f"{and_list([labels[u.group] for u in fish.cover])} and fin{plural} "
        f"{and_list([board.name(f) for f in fins])}"
    )


def _chains(
    graph: ChainGraph, premises: list[Candidate], target: Candidate
) -> list[list[int]] | None:
    """A chain from each premise (true) to ``target`` (false); None if one cannot be
    written (the search that writes it is bounded)."""
    end = graph.lit(graph.node_of[target], False)
    out = []
    for premise in premises:
        start = graph.lit(graph.node_of[premise], True)
        # a shortest chain that does not run back into its cells, else any shortest one
        chain = graph.path(start, end) or graph.path(start, end, -1)
        if chain is None:
            return None
        out.append(chain)
    return out


def _step(
    graph: ChainGraph,
    name: str,
    digit: int,
    fish: Fish,
    premises: list[Candidate],
    target: Candidate,
    chains: list[list[int]],
    unit: Unit | None = None,
) -> Step:
    board = graph.board
    cell, gone = target
    written = "; ".join(chain_notation(graph, chain) for chain in chains)
    what = f"{gone} leaves {board.name(cell)}"
    if name == KRAKEN_1:
        why = (
            "cannibalistic: it would fill two cover units at once"
            if fish.cannibal >> cell & 1
            else "in the cover, outside the base"
        )
        text = (
            f"In {_fish_text(board, digit, fish)}, either a fin holds {digit} or the fish "
            f"does and {digit} leaves {board.name(cell)} ({why}); it sees no fin, but each "
            f"fin holding {digit} rules it out too ({written}), so {what}."
        )
    else:
        assert unit is not None
        labels = layout_of(board.puzzle.model, board.size).labels
        fins = fish.fins
        held = [board.name(c) for c, _ in premises if not fins >> c & 1]
        either = and_list([f"{d}{board.name(c)}" for c, d in premises])
        # (no base cell of its own: the fish cannot hold, a fin is true — HoDoKu's S is the fins)
        source = (
            f"gets its {digit} from the base ({and_list(held)})"
            if held
            else f"would get its {digit} from no base cell (those in it fill two cover units)"
        )
        text = (
            f"In {_fish_text(board, digit, fish)}, either a fin holds {digit} or the fish "
            f"does and {labels[unit.group]} {source}; so one of {either} is true, and each "
            f"rules out {gone} in {board.name(cell)} ({written}), so {what}."
        )
    base_cells = 0
    for u in fish.base:
        base_cells |= u.mask
    proof: set[Candidate] = {(c, digit) for c in cells_of(base_cells | fish.fins)}
    links: list[Link] = []
    for chain in chains:
        for lit in chain:
            proof.update(graph.candidates_of(graph.node(lit)[0]))
        links.extend(chain_links(graph, chain))
    return board.step(
        name,
        text,
        eliminations=[target],
        proof=sorted(proof),
        groups=[u.group for u in fish.base] + [u.group for u in fish.cover],
        links=links,
    )


def _search(board: Board, name: str) -> Iterator[Step]:
    if board.puzzle.model.rules:
        return  # (see the module's docstring)
    graph = chain_graph(board)
    if graph is None:
        return
    count = graph.count
    node_of = graph.node_of
    candidates = (1 << graph.candidates) - 1
    done: set[tuple[Candidate, int]] = set()

    def false_from(cells: int, digit: int) -> int:
        """The candidate nodes every one of ``digit`` in ``cells`` being true makes false."""
        common = candidates
        for c in cells_of(cells):
            common &= graph.reached(graph.lit(node_of[(c, digit)], True)) >> count
        return common

    for digit in range(1, board.size + 1):
        for fish in _fishes(board, digit):
            if board.past_deadline():
                return
            if name == KRAKEN_1:
                gone = false_from(fish.fins, digit)
                for cell in cells_of(fish.eliminations):
                    target = (cell, digit)
                    if not gone >> node_of[target] & 1 or (target, digit) in done:
                        continue
                    premises = [(f, digit) for f in cells_of(fish.fins)]
                    chains = _chains(graph, premises, target)
                    if chains is None:
                        continue
                    done.add((target, digit))
                    yield _step(graph, name, digit, fish, premises, target, chains)
                continue
            base = 0
            for u in fish.base:
                base |= u.mask
            for unit in fish.cover:
                members = unit.mask & base & ~fish.cannibal
                if members == unit.mask:
                    continue  # (HoDoKu: "would be a normal Forcing Chain")
                chosen = members | fish.fins
                for node in bit_positions(false_from(chosen, digit)):
                    target = graph.node_of_candidate(node)
                    if chosen >> target[0] & 1 or (target, digit) in done:
                        continue
                    premises = [(c, digit) for c in cells_of(chosen)]
                    chains = _chains(graph, premises, target)
                    if chains is None:
                        continue
                    done.add((target, digit))
                    yield _step(graph, name, digit, fish, premises, target, chains, unit)


@technique
def kraken_fish_type_1(board: Board) -> Iterator[Step]:
    """A finned fish whose fins remove nothing, each fin linked by a chain to a candidate the
    unfinned fish would remove: it goes either way."""
    return _search(board, KRAKEN_1)


@technique
def kraken_fish_type_2(board: Board) -> Iterator[Step]:
    """A finned fish whose fins remove nothing: one of a cover unit's base candidates or a fin
    is true, and chains from each of them rule out one candidate."""
    return _search(board, KRAKEN_2)


TECHNIQUES: tuple[tuple[int, str, Technique], ...] = (
    # HoDoKu's order key (StepConfig 8450, KRAKEN_FISH: one entry for both types; 8451 ours)
    (8450, KRAKEN_1, kraken_fish_type_1),
    (8451, KRAKEN_2, kraken_fish_type_2),
)
"""Both types; HoDoKu's solver has them off by default, so :mod:`.solver` does not list them."""
