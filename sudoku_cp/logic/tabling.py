"""Forcing chains and forcing nets, as HoDoKu finds them (its *tabling*,
``solver/TablingSolver.java``).

Every candidate is assumed true, and false, in turn (a *premise*); a table holds what each
premise implies. For a **forcing chain** that is what follows link by link: the alternating
links of grouped chains (:mod:`.chain_tables`, group nodes included, as ``getStep`` asks for
``FORCING_CHAIN``), each implication resting on one before it. For a **forcing net** it is
what follows on a copy of the grid from the premise by naked and hidden singles and locked
candidates (:func:`.forcing.implications`): an implication may rest on several before it
(HoDoKu: ``fillTables`` with look-ahead, ``createAllNets``).

What a table proves (``checkForcingChains``):

- *Contradiction* (``checkOneChain``): a premise implying a candidate both true and false, two
  digits in one cell, one digit twice in a group, a cell or a group left without a place for
  a digit, is impossible: an assumed-true candidate goes, an assumed-false one is placed.
- *Verity* (``checkTwoChains``, ``checkAllChainsForHouse``): what a candidate's true and false
  premises both imply, what every candidate of a cell implies, what every place of a digit in
  a group implies, holds (one premise of each set is true).

For classic and group-only models: a model with rules beyond groups has its own last resort
(:func:`.forcing.forcing_net`, which follows the rules' deductions too), and these find
nothing there. Names as HoDoKu's ``SolutionType`` spells them: "Forcing Chain
Contradiction", "Forcing Chain Verity", "Forcing Net Contradiction", "Forcing Net Verity".
These are last resorts: each search is bounded (:data:`.chain_tables.MAX_NODES`,
:data:`MAX_NET_PREMISES`), yields its steps as it finds them, so the solver pays for the
first only, and stops at the board's deadline (:meth:`.Board.past_deadline`).
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, Technique, digits_of, technique
from .chain_tables import ChainGraph, bit_positions, chain_graph
from .forcing import Broken, implications
from .patterns import tables
from .steps import Candidate, Link, Step

FCC = "Forcing Chain Contradiction"
FCV = "Forcing Chain Verity"
FNC = "Forcing Net Contradiction"
FNV = "Forcing Net Verity"

MAX_NET_PREMISES = 1_600
"""Net searches on boards with more premises (twice the candidates) are skipped: each costs a
propagation on a copy of the grid."""


# ---------------------------------------------------------------------------------------
# forcing chains


class _Sets:
    """Per board: the candidate nodes of each cell and of each digit in each full group, and
    each node's cell and (group, digit) sets."""

    def __init__(self, graph: ChainGraph) -> None:
        board = graph.board
        size = board.size
        self.cell_nodes: dict[int, int] = {}
        self.house_nodes: list[tuple[int, int, int]] = []  # (group, digit, node mask)
        self.houses_of: list[list[int]] = [[] for _ in range(graph.candidates)]
        for (cell, _digit), node in graph.node_of.items():
            self.cell_nodes[cell] = self.cell_nodes.get(cell, 0) | 1 << node
        for g in tables(board).full:
            for d in range(1, size + 1):
                mask = 0
                for cell in board.groups[g]:
                    there = graph.node_of.get((cell, d))
                    if there is not None:
                        mask |= 1 << there
                        self.houses_of[there].append(len(self.house_nodes))
                if mask:
                    self.house_nodes.append((g, d, mask))


def _chain_links(graph: ChainGraph, chains: list[list[int]]) -> tuple[list[Link], set[Candidate]]:
    links: list[Link] = []
    proof: set[Candidate] = set()
    for chain in chains:
        nodes = [graph.node(lit) for lit in chain]
        for p, q in zip(nodes, nodes[1:], strict=False):
            link = graph.link(p[0], q[0], q[1])
            if link not in links:
                links.append(link)
        for n, _ in nodes:
            proof.update(graph.candidates_of(n))
    return links, proof


def _notation(graph: ChainGraph, chain: list[int]) -> str:
    nodes = [graph.node(lit) for lit in chain]
    out = ("" if nodes[0][1] else "-") + graph.name(nodes[0][0])
    for n, true in nodes[1:]:
        out += ("=" if true else "-") + graph.name(n)
    return out


def _literal_text(graph: ChainGraph, lit: int) -> str:
    node, true = graph.node(lit)
    cell, digit = graph.cell(node), graph.digit[node]
    return f"{graph.board.name(cell)}{'=' if true else '≠'}{digit}"


def _contradictions(
    graph: ChainGraph, sets: _Sets, premise: int
) -> Iterator[tuple[str, list[int]]]:
    """For one premise: (why, literals it implies that cannot all hold); only the cells and
    groups of what it implies are looked at."""
    count, cands = graph.count, graph.candidates
    every = (1 << cands) - 1
    reached = graph.reached(premise)
    on = reached & every
    off = (reached >> count) & every
    node, true = graph.node(premise)
    opposite = graph.lit(node, not true)
    if reached >> opposite & 1:
        yield "it would imply its own opposite", [opposite]
    both = on & off
    if both:
        n = (both & -both).bit_length() - 1
        yield "a candidate would be both true and false", [n, n + count]
    board = graph.board
    labels = board.puzzle.model.group_labels(board.size)
    cell_of: dict[int, int] = {}
    house_of: dict[int, int] = {}
    for n in bit_positions(on):
        cell = graph.cell(n)
        if cell in cell_of:
            yield f"{board.name(cell)} would hold two digits", [cell_of[cell], n]
        cell_of[cell] = n
        for k in sets.houses_of[n]:
            if k in house_of:
                g, d, _ = sets.house_nodes[k]
                yield f"{labels[g]} would hold {d} twice", [house_of[k], n]
            house_of[k] = n
    cells_seen: set[int] = set()
    houses_seen: set[int] = set()
    for n in bit_positions(off):
        cell = graph.cell(n)
        if cell not in cells_seen:
            cells_seen.add(cell)
            mask = sets.cell_nodes[cell]
            if mask & ~off == 0:
                name = board.name(cell)
                yield f"{name} would have no candidate", [m + count for m in bit_positions(mask)]
        for k in sets.houses_of[n]:
            if k not in houses_seen:
                houses_seen.add(k)
                g, d, mask = sets.house_nodes[k]
                if mask & ~off == 0:
                    why = f"{labels[g]} would have no place for {d}"
                    yield why, [m + count for m in bit_positions(mask)]


def _chain_sets(board: Board) -> tuple[ChainGraph, _Sets] | None:
    """The chain graph of a classic board and its cells' and houses' sets of nodes; None for a
    variant (they have their own last resort, forcing.forcing_net) or a board without one."""
    if board.puzzle.model.rules:
        return None
    graph = chain_graph(board)
    return None if graph is None else (graph, _Sets(graph))


@technique
def forcing_chain_contradiction(board: Board) -> Iterator[Step]:
    """A candidate assumed true (or false) implies, link by link, something impossible: so it
    is false (or true)."""
    setup = _chain_sets(board)
    if setup is None:
        return
    graph, sets = setup
    for node in range(graph.candidates):
        if board.past_deadline():
            return
        for true in (True, False):
            premise = graph.lit(node, true)
            for why, ends in _contradictions(graph, sets, premise):
                chains = [graph.path(premise, end) for end in ends]
                if any(c is None for c in chains):
                    continue
                found = [c for c in chains if c is not None]
                cell, digit = graph.cell(node), graph.digit[node]
                links, proof = _chain_links(graph, found)
                shown = "; ".join(_notation(graph, c) for c in found[:4])
                name = board.name(cell)
                if true:
                    what = f"{name} cannot be {digit}"
                    assumed = f"{name} were {digit}"
                else:
                    what = f"{name} is {digit}"
                    assumed = f"{name} were not {digit}"
                text = f"If {assumed}, then {shown}, and {why}; so {what}."
                yield board.step(
                    FCC,
                    text,
                    placements=[] if true else [(cell, digit)],
                    eliminations=[(cell, digit)] if true else [],
                    proof=sorted(proof),
                    links=links,
                )


def _verity_sets(graph: ChainGraph, sets: _Sets) -> Iterator[tuple[str, list[int]]]:
    """(what the premises are, the premises): sets of literals of which one holds."""
    board = graph.board
    count = graph.count
    for node in range(graph.candidates):
        cell, digit = graph.cell(node), graph.digit[node]
        yield f"{board.name(cell)} is {digit} or not", [node, node + count]
    for cell, mask in sets.cell_nodes.items():
        if mask & (mask - 1):
            digits = ", ".join(str(graph.digit[n]) for n in bit_positions(mask))
            yield f"{board.name(cell)} holds one of {digits}", list(bit_positions(mask))
    labels = board.puzzle.model.group_labels(board.size)
    for g, d, mask in sets.house_nodes:
        if mask & (mask - 1):
            yield f"{labels[g]} has its {d} somewhere", list(bit_positions(mask))


@technique
def forcing_chain_verity(board: Board) -> Iterator[Step]:
    """A candidate's true and false cases, a cell's digits, or a digit's places in a group all
    imply, link by link, one conclusion: it holds."""
    setup = _chain_sets(board)
    if setup is None:
        return
    graph, sets = setup
    count, every = graph.count, (1 << graph.candidates) - 1
    for why, premises in _verity_sets(graph, sets):
        if board.past_deadline():
            return
        common = -1
        for premise in premises:
            common &= graph.reached(premise)
        on = common & every
        off = (common >> count) & every
        premise_nodes = {graph.node(p)[0] for p in premises}
        for lit in [*bit_positions(on), *(n + count for n in bit_positions(off))]:
            node, true = graph.node(lit)
            if node in premise_nodes:
                continue
            cell, digit = graph.cell(node), graph.digit[node]
            if len(premises) == 2 and cell == graph.cell(premises[0]):
                continue  # HoDoKu leaves the premise's own cell out (checkTwoChains)
            chains = [graph.path(p, lit) for p in premises]
            found = [c for c in chains if c is not None]
            if len(found) != len(chains):
                continue
            links, proof = _chain_links(graph, found)
            shown = "; ".join(_notation(graph, c) for c in found[:4])
            conclusion = _literal_text(graph, lit)
            text = f"{why}, and each case leads to {conclusion} ({shown}), so {conclusion}."
            yield board.step(
                FCV,
                text,
                placements=[(cell, digit)] if true else [],
                eliminations=[] if true else [(cell, digit)],
                proof=sorted(proof),
                links=links,
            )


# ---------------------------------------------------------------------------------------
# forcing nets


Net = tuple[list[int], list[str]]
"""What a premise leads to: the candidates left and the placements made, in order."""


class _Nets:
    """The net of each premise on one board: the candidates left and the cells filled, or the
    contradiction it leads to."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.found: dict[tuple[int, int, bool], Net | str] = {}

    def of(self, cell: int, digit: int, true: bool) -> Net | str:
        key = (cell, digit, true)
        got = self.found.get(key)
        if got is None:
            try:
                got = implications(self.board, cell, digit, true)
            except Broken as broken:
                got = str(broken.args[0])
            self.found[key] = got
        return got


def _nets(board: Board) -> _Nets | None:
    """The nets of a classic board's premises, built as asked; None for a variant (they have
    their own last resort, forcing.forcing_net) or a board with too many premises."""
    if board.puzzle.model.rules:
        return None
    state = (tuple(board.values), tuple(board.candidates))
    cached = board.memo.get("forcing nets")
    if isinstance(cached, tuple) and cached[0] == state:
        return cached[1]
    premises = sum(m.bit_count() for c, m in enumerate(board.candidates) if not board.values[c])
    nets = _Nets(board) if 2 * premises <= MAX_NET_PREMISES else None
    board.memo["forcing nets"] = (state, nets)
    return nets


def _premise_text(board: Board, cell: int, digit: int, true: bool) -> str:
    return f"{board.name(cell)} {'were' if true else 'were not'} {digit}"


def _trail(trail: list[str]) -> str:
    return ", ".join(trail[:8]) + (" …" if len(trail) > 8 else "")


@technique
def forcing_net_contradiction(board: Board) -> Iterator[Step]:
    """A candidate assumed true (or false) leads, by singles and locked candidates on a copy of
    the grid, to a contradiction: so it is false (or true)."""
    nets = _nets(board)
    if nets is None:
        return
    for cell in range(board.size * board.size):
        if board.values[cell]:
            continue
        if board.past_deadline():
            return
        for digit in digits_of(board.candidates[cell]):
            for true in (True, False):
                got = nets.of(cell, digit, true)
                if not isinstance(got, str):
                    continue
                name = board.name(cell)
                what = f"{name} cannot be {digit}" if true else f"{name} is {digit}"
                text = (
                    f"If {_premise_text(board, cell, digit, true)}, singles and locked "
                    f"candidates would lead to a contradiction ({got}), so {what}."
                )
                yield board.step(
                    FNC,
                    text,
                    placements=[] if true else [(cell, digit)],
                    eliminations=[(cell, digit)] if true else [],
                    proof=[(cell, digit)],
                )


@technique
def forcing_net_verity(board: Board) -> Iterator[Step]:
    """A candidate's two cases, a cell's digits, or a digit's places in a group all lead, by
    singles and locked candidates, to one conclusion: it holds."""
    nets = _nets(board)
    if nets is None:
        return
    size = board.size
    values, cands = board.values, board.candidates
    premise_sets: list[tuple[str, list[tuple[int, int, bool]]]] = []
    for cell in range(size * size):
        if values[cell]:
            continue
        for digit in digits_of(cands[cell]):
            either = [(cell, digit, True), (cell, digit, False)]
            premise_sets.append((f"{board.name(cell)} is {digit} or not", either))
    for cell in range(size * size):
        if not values[cell] and cands[cell].bit_count() >= 2:
            digits = digits_of(cands[cell])
            premise_sets.append(
                (
                    f"{board.name(cell)} holds one of {', '.join(map(str, digits))}",
                    [(cell, d, True) for d in digits],
                )
            )
    labels = board.puzzle.model.group_labels(size)
    t = tables(board)
    for g in t.full:
        for d in range(1, size + 1):
            spots = [c for c in board.groups[g] if not values[c] and cands[c] >> (d - 1) & 1]
            if len(spots) >= 2:
                somewhere = [(c, d, True) for c in spots]
                premise_sets.append((f"{labels[g]} has its {d} somewhere", somewhere))
    for why, premises in premise_sets:
        if board.past_deadline():
            return
        # a branch that breaks cannot be the true one: the others decide
        live: list[tuple[tuple[int, int, bool], Net]] = []
        for p in premises:
            got = nets.of(*p)
            if not isinstance(got, str):
                live.append((p, got))
        if not live:
            continue
        for cell in range(size * size):
            if values[cell]:
                continue
            if len(premises) == 2 and premises[0][0] == cell:
                continue  # HoDoKu leaves the premise's own cell out (checkTwoChains)
            mask = cands[cell]
            removed_by_all = mask
            for _, (after_all, _trail) in live:
                removed_by_all &= ~after_all[cell]
            for digit in digits_of(removed_by_all):
                if any(p[0] == cell and p[1] == digit for p in premises):
                    continue
                yield _net_verity(board, why, premises, live, (cell, digit), False)
            placed = mask
            for _, (after_all, _trail) in live:
                after = after_all[cell]
                placed &= after if after & (after - 1) == 0 else 0
            if placed and placed & (placed - 1) == 0 and mask != placed:
                digit = placed.bit_length()
                yield _net_verity(board, why, premises, live, (cell, digit), True)


def _net_verity(
    board: Board,
    why: str,
    premises: list[tuple[int, int, bool]],
    live: list[tuple[tuple[int, int, bool], Net]],
    target: Candidate,
    true: bool,
) -> Step:
    cell, digit = target
    conclusion = f"{board.name(cell)}{'=' if true else '≠'}{digit}"
    cases = []
    for (c, d, t), (_, trail) in live[:3]:
        cases.append(f"if {_premise_text(board, c, d, t)}: {_trail(trail) or 'eliminations only'}")
    broken = len(premises) - len(live)
    text = (
        f"{why}, and in every case singles and locked candidates lead to {conclusion} "
        f"({'; '.join(cases)}{'; …' if len(live) > 3 else ''})"
        + (f", the {broken} other{'s' if broken > 1 else ''} breaking" if broken else "")
        + f", so {conclusion}."
    )
    return board.step(
        FNV,
        text,
        placements=[target] if true else [],
        eliminations=[] if true else [target],
        proof=sorted({(c, d) for c, d, _ in premises}),
    )


TECHNIQUES: tuple[tuple[str, Technique], ...] = (
    (FCC, forcing_chain_contradiction),
    (FCV, forcing_chain_verity),
    (FNC, forcing_net_contradiction),
    (FNV, forcing_net_verity),
)
