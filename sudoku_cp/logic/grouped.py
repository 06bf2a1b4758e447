"""Grouped nice loops and grouped AICs: chains whose nodes may be *group nodes*.

Their nodes and links, group nodes and ALS nodes included, are :mod:`.chain_tables`'s.

The search is HoDoKu's *tabling*: from each premise "candidate s is true" (or "false") every
literal it implies by alternating links, shortest chains first (``expandTables``). A premise
whose implications come back to its own cell is a nice loop, one "false" whose implications
reach a true candidate elsewhere an AIC, classified as ``TablingSolver.checkNiceLoop`` and
``checkAic`` do; only chains through a group node are kept (``getAllGroupedNiceLoops``: plain
ones are :mod:`.chains`'s). A chain that runs back into a cell it left (a lasso) is dropped,
as HoDoKu's ``addChain`` drops it. Names as HoDoKu's ``SolutionType`` spells them.

The tables (:class:`~.chain_tables.ChainGraph`) also serve the forcing chains of
:mod:`.tabling` and the Kraken fish of :mod:`.kraken`.

On a model with rules beyond groups these find nothing: its chains are :mod:`.chains`'s AIC
search with the links rules give, and its last resort the variant forcing net (grouped loops
there, blind to the rules, only slowed the bundled variant solves by a third).
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, Technique, digits_of, technique
from .chain_tables import ChainGraph, bit_positions, chain_graph, chain_links, chain_notation
from .patterns import cells_of, digit_mask
from .steps import Candidate, Step

GCNL = "Grouped Continuous Nice Loop"
GDNL = "Grouped Discontinuous Nice Loop"
GAIC = "Grouped AIC"


def _loop_type(graph: ChainGraph, premise: int, target: int) -> tuple[str, list[Candidate]] | None:
    """HoDoKu's ``checkNiceLoop`` on the ends of a chain from a candidate back to its cell:
    a discontinuous loop with its eliminations, a continuous one (eliminations from the whole
    loop, :func:`_continuous_gone`), or nothing."""
    cands = graph.board.candidates
    start, first_true = graph.node(premise)
    end, last_true = graph.node(target)
    first_strong = not first_true  # a false premise is left by a strong link
    last_strong = last_true
    a = graph.cell(start)
    x, y = graph.digit[start], graph.digit[end]
    if not first_strong and not last_strong and x == y:
        return GDNL, [(a, x)]
    if first_strong and last_strong and x == y:
        return GDNL, [(a, d) for d in digits_of(cands[a]) if d != x]
    if first_strong != last_strong and x != y:
        return GDNL, [(a, y) if first_strong else (a, x)]
    both_weak_bivalue = not (first_strong or last_strong) and cands[a].bit_count() == 2
    if x == y or not (first_strong and last_strong or both_weak_bivalue):
        return None
    return GCNL, []


def _continuous_gone(graph: ChainGraph, chain: list[int]) -> list[Candidate]:
    """A continuous loop's eliminations (HoDoKu's ``checkNiceLoop``): what sees both ends of
    a weak link between cells, a cell's other digits where the loop enters and leaves it by
    strong links."""
    board = graph.board
    cands = board.candidates
    start, first_true = graph.node(chain[0])
    end, last_true = graph.node(chain[-1])
    a = graph.cell(start)
    x, y = graph.digit[start], graph.digit[end]
    gone: set[Candidate] = set()
    nodes = [graph.node(lit) for lit in chain]
    chain_cells = 0
    for n, _ in nodes:
        chain_cells |= graph.mask[n]
    if not first_true and last_true:
        gone.update((a, d) for d in digits_of(cands[a]) if d not in (x, y))
    for i in range(1, len(nodes)):
        n, true = nodes[i]
        prev = nodes[i - 1][0]
        if graph.is_als(n):
            # entered by a weak link on its entry digit; locked on the digits it is not
            # left by (TablingSolver.checkNiceLoop, "ALS_NODE")
            gone.update(_weak_link_gone(graph, prev, n, graph.digit[n], chain_cells, a))
            gone.update(_als_node_gone(graph, n, nodes[i + 1] if i + 1 < len(nodes) else None))
        elif true:
            # a cell entered by a strong link, left in the cell by a weak one, then by a strong
            # one: it holds one of the two digits
            if i + 2 < len(nodes) and graph.cell(prev) != graph.cell(n):
                n1, t1 = nodes[i + 1]
                n2, t2 = nodes[i + 2]
                if (
                    not t1
                    and not graph.is_group(n1)
                    and graph.cell(n1) == graph.cell(n)
                    and t2
                    and graph.cell(n2) != graph.cell(n1)
                    and not graph.is_group(n)
                ):
                    c = graph.cell(n)
                    keep = (graph.digit[n], graph.digit[n1])
                    gone.update((c, d) for d in digits_of(cands[c]) if d not in keep)
        elif graph.is_als(prev) or (
            graph.mask[prev] != graph.mask[n] and graph.digit[prev] == graph.digit[n]
        ):
            # a weak link between cells: one of its ends is true
            gone.update(_weak_link_gone(graph, prev, n, graph.digit[n], chain_cells, a))
    return sorted(gone)


def _weak_link_gone(
    graph: ChainGraph, a: int, b: int, digit: int, chain_cells: int, start: int
) -> list[Candidate]:
    """A continuous loop's weak link between two nodes on ``digit``: one end holds it, so a
    candidate of it seeing both (off the loop) goes."""
    both = graph.seen(a, digit) & graph.seen(b, digit) & ~chain_cells & ~(1 << start)
    return [(c, digit) for c in cells_of(both & digit_mask(graph.board, digit))]


def _als_node_gone(
    graph: ChainGraph, node: int, following: tuple[int, bool] | None
) -> list[Candidate]:
    """In a continuous loop an ALS node lacks its entry digit or its exit digit, so its other
    digits are locked in it and go from every cell seeing all their places. When the node
    forces a cell (the loop goes on from a placed candidate), the cell's other digits are the
    exits, and each goes from what sees its places in the ALS and the cell
    (``TablingSolver.checkNiceLoop``, "isForceExit")."""
    board = graph.board
    als = graph.als[node]
    exits: set[int] = set()
    forced = -1
    if following is not None:
        nxt, placed = following
        if placed and not graph.is_als(nxt):
            forced = graph.cell(nxt)
            exits = set(digits_of(board.candidates[forced])) - {graph.digit[nxt]}
        else:
            exits = {graph.digit[nxt]}
    gone: list[Candidate] = []
    for d in digits_of(als.digits):
        if d == graph.digit[node]:
            continue
        where = als.buddies[d]
        if d in exits:
            if forced < 0:
                continue
            where &= graph.peer_mask[forced]
        gone.extend((c, d) for c in cells_of(where))
    return gone


def _aic_kind(graph: ChainGraph, premise: int, target: int) -> list[Candidate] | None:
    """HoDoKu's ``checkAics``/``checkAic`` on the ends of a chain from a false candidate to
    a true one in another cell."""
    board = graph.board
    start, _ = graph.node(premise)
    end, _ = graph.node(target)
    a, z = graph.cell(start), graph.cell(end)
    x, y = graph.digit[start], graph.digit[end]
    if x == y:
        both = graph.peer_mask[a] & graph.peer_mask[z] & digit_mask(board, x)
        if both.bit_count() < 2:  # one elimination is a nice loop's (HoDoKu: ``size() >= 2``)
            return None
        return [(c, x) for c in cells_of(both)]
    if not graph.peer_mask[a] >> z & 1:
        return None
    if board.has(a, y) and board.has(z, x):  # HoDoKu wants both eliminations
        return [(a, y), (z, x)]
    return None


def _grouped_steps(board: Board, wanted: str, als_nodes: bool = False) -> Iterator[Step]:
    if board.puzzle.model.rules:
        return  # (see the module's docstring)
    graph = chain_graph(board, als_nodes)
    if graph is None:
        return
    count = graph.count
    for start in range(graph.candidates):
        if board.past_deadline():
            return
        a = graph.cell(start)
        home = [graph.node_of[(a, d)] for d in digits_of(board.candidates[a])]
        for true in (True, False) if wanted != GAIC else (False,):
            premise = graph.lit(start, true)
            reached = graph.reached(premise)
            if wanted == GAIC:
                targets = [
                    t
                    for t in bit_positions(reached & ((1 << graph.candidates) - 1))
                    if graph.cell(t) != a
                ]
            else:
                targets = [
                    lit
                    for n in home
                    for lit in (n, n + count)
                    if lit != premise and reached >> lit & 1
                ]
            for target in targets:
                if wanted == GAIC:
                    gone = _aic_kind(graph, premise, target)
                    if gone is None or graph.distance(premise, target) < 3:
                        continue  # (three links at least)
                    chain = graph.path(premise, target)
                    if chain is None or not _has_group(graph, chain):
                        continue
                    yield _step(graph, GAIC, chain, gone)
                    continue
                kind = _loop_type(graph, premise, target)
                if kind is None or kind[0] != wanted or graph.distance(premise, target) < 3:
                    continue
                chain = graph.path(premise, target, 1 << a)
                if chain is None or not _has_group(graph, chain):
                    continue
                if graph.mask[graph.node(chain[1])[0]] >> a & 1:
                    continue  # the first link must leave the cell (HoDoKu's checkNiceLoop)
                gone = kind[1] if wanted == GDNL else _continuous_gone(graph, chain)
                if gone:
                    yield _step(graph, wanted, chain, gone)


def _has_group(graph: ChainGraph, chain: list[int]) -> bool:
    return any(graph.is_group(graph.node(lit)[0]) for lit in chain)


def _step(graph: ChainGraph, name: str, chain: list[int], gone: list[Candidate]) -> Step:
    board = graph.board
    nodes = [graph.node(lit) for lit in chain]
    links = chain_links(graph, chain)
    proof: set[Candidate] = set()
    for n, _ in nodes:
        proof.update(graph.candidates_of(n))
    start, end = nodes[0][0], nodes[-1][0]
    listed = ", ".join(f"{d} from {board.name(c)}" for c, d in gone)
    notation = chain_notation(graph, chain)
    if name == GAIC:
        text = (
            f"In {notation}, if {graph.name(start)} is false each strong link makes the next "
            f"node true, so {graph.name(start)} or {graph.name(end)} is true and {listed} "
            f"can go."
        )
    elif name == GDNL:
        text = (
            f"Assuming {graph.name(start)} {'true' if nodes[0][1] else 'false'}, the chain "
            f"{notation} comes back to its own cell and contradicts itself, so {listed} "
            f"can go."
        )
    else:
        text = (
            f"The loop {notation} alternates strong and weak links (a group node is true when "
            f"one of its cells holds the digit), so each weak link has one true end and "
            f"{listed} can go."
        )
    if any(graph.is_als(n) for n, _ in nodes):
        text += (
            " (An ALS node is N cells holding N+1 digits: once the digit the chain brings "
            "into it is out, the others are all in it.)"
        )
    return board.step(name, text, eliminations=gone, proof=sorted(proof), links=links)


def search_grouped_chains(board: Board, name: str, *, als_nodes: bool = False) -> Iterator[Step]:
    """The steps of one grouped technique (``name``: :data:`GCNL`, :data:`GDNL` or
    :data:`GAIC`), with ALS nodes when ``als_nodes`` (HoDoKu's
    ``allowAlsInTablingChains``; the solver's techniques leave them out, as HoDoKu does)."""
    if name not in (GCNL, GDNL, GAIC):
        raise ValueError(f"not a grouped chain technique: {name!r}")
    return _grouped_steps(board, name, als_nodes)


@technique
def grouped_continuous_nice_loop(board: Board) -> Iterator[Step]:
    """A closed alternating loop through a group node: each weak link has a true end, so
    what sees both ends of one goes (a cell entered and left by strong links keeps only
    their two digits)."""
    return _grouped_steps(board, GCNL)


@technique
def grouped_discontinuous_nice_loop(board: Board) -> Iterator[Step]:
    """A chain through a group node from a candidate back to its own cell that contradicts
    the assumption it started from."""
    return _grouped_steps(board, GDNL)


@technique
def grouped_aic(board: Board) -> Iterator[Step]:
    """An alternating chain through a group node from one candidate to another: one end is
    true, so what both ends rule out goes."""
    return _grouped_steps(board, GAIC)


TECHNIQUES: tuple[tuple[str, Technique], ...] = (
    (GCNL, grouped_continuous_nice_loop),
    (GDNL, grouped_discontinuous_nice_loop),
    (GAIC, grouped_aic),
)
