"""The tables of grouped chains (HoDoKu's *tabling*): the nodes and links of chains on a board
as it is, and per premise the literals it implies.

A group node is a digit's candidates in the cells two full groups share (a row and a box,
say), two or more of them: true when one of its cells holds the digit. HoDoKu builds them so
(``solver/GroupNode.java`` ``getGroupNodes``: a line's candidates of a digit confined to one
block, two or three cells) and links them (``solver/TablingSolver.java``
``fillTablesWithGroupNodes``):

- weak: a group node and a candidate of its digit that sees every cell of it, or two group
  nodes of one digit that do not overlap and see each other (share a line or a block);
- strong: a group node and the one other node (a candidate or a group node) holding the rest
  of its digit's places in a group it lies in.

Beside them are the plain links of :mod:`.chains` (a digit's two places in a group, a bivalue
cell's two digits; one digit in two cells that see each other, two digits of one cell).

HoDoKu can also chain through *ALS nodes*, almost locked sets (:mod:`.als`) of two or more
cells, but not by default (``Options.java`` ``ALLOW_ALS_IN_TABLING_CHAINS = false``, read by
``TablingSolver.getStep`` for ``GROUPED_NICE_LOOP``), so neither does the solver; the searches
take them as ``als_nodes=True`` (HoDoKu's regression library turns them on for some cases).
An ALS node is an ALS with an *entry digit* x (``TablingSolver.fillTablesWithAls``):

- it is reached from a candidate of x that sees every place of x in the ALS, or from a group
  node of x whose cells all do (HoDoKu asks only two of a group node's cells to see them, which
  is not sound for a group node of three cells; here all must);
- it means "x is not in the ALS", so the ALS is locked on its other digits: every candidate of
  another digit z seeing all places of z in the ALS is false (a group node too, when all its
  cells are such candidates), another ALS not overlapping it whose places of z all are among
  those is reached with entry digit z, and a cell left with one candidate by those
  eliminations holds it.

Searches over them: :mod:`.grouped` (grouped nice loops and AICs), :mod:`.tabling` (forcing
chains and nets), :mod:`.kraken` (Kraken fish).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from .als import Als, alses
from .board import Board, digits_of
from .patterns import cells_of, digit_mask, tables
from .steps import Candidate, Link

MAX_NODES = 1_500
"""Boards with more nodes (candidates and group nodes) are not searched: the tables grow with
the square of the nodes (a 9x9 grid has a few hundred)."""

MAX_ALS_NODES = 3_000
"""ALS nodes kept at most (with ``als_nodes``); those past it are left out of the graph."""


@functools.lru_cache(maxsize=32)
def _intersections(groups: tuple[tuple[int, ...], ...], size: int) -> tuple[int, ...]:
    """Masks of the cells two full groups share, where they share two or more."""
    full = [sum(1 << c for c in g) for g in groups if len(g) == size]
    out: set[int] = set()
    for i, a in enumerate(full):
        for b in full[i + 1 :]:
            common = a & b
            if common.bit_count() >= 2 and common != a and common != b:
                out.add(common)
    return tuple(sorted(out))


class ChainGraph:
    """The nodes and links of grouped chains on the board as it is, and per premise the
    literals it implies (HoDoKu's tables). Node ``i`` is a candidate for ``i < candidates``,
    else a group node; literal ``i`` says node ``i`` is true, literal ``i + count`` false."""

    def __init__(self, board: Board, als_nodes: bool = False) -> None:
        size = board.size
        self.board = board
        self.size = size
        t = tables(board)
        self.peer_mask = peer_mask = t.peer_mask
        values, cands = board.values, board.candidates
        self.digit: list[int] = []
        self.mask: list[int] = []
        self.node_of: dict[Candidate, int] = {}
        for cell in range(size * size):
            if values[cell]:
                continue
            mask = cands[cell]
            d = 1
            while mask:
                if mask & 1:
                    self.node_of[(cell, d)] = len(self.digit)
                    self.digit.append(d)
                    self.mask.append(1 << cell)
                mask >>= 1
                d += 1
        self.candidates = len(self.digit)
        dmask = {d: digit_mask(board, d) for d in range(1, size + 1)}
        group_of: dict[tuple[int, int], int] = {}
        for inter in _intersections(board.groups, size):
            for d in range(1, size + 1):
                m = inter & dmask[d]
                if m.bit_count() >= 2 and (d, m) not in group_of:
                    group_of[(d, m)] = len(self.digit)
                    self.digit.append(d)
                    self.mask.append(m)
        self.groups_end = len(self.digit)
        self.als: dict[int, Als] = {}
        """ALS nodes: node -> its ALS (the node's digit is its entry digit)."""
        if als_nodes:
            self._add_als_nodes(board, group_of)
        self.count = count = len(self.digit)
        weak = [0] * count
        strong = [0] * count
        node_of = self.node_of
        # plain links
        for (cell, d), i in node_of.items():
            for p in cells_of(peer_mask[cell] & dmask[d]):
                weak[i] |= 1 << node_of[(p, d)]
            mask = cands[cell] & ~(1 << (d - 1))
            others = [node_of[(cell, e)] for e in digits_of(mask)]
            for j in others:
                weak[i] |= 1 << j
            if len(others) == 1:
                strong[i] |= 1 << others[0]
        # group nodes: what sees all of them
        seen_by: list[int] = []
        for g in range(self.candidates, self.groups_end):
            common = -1
            for c in cells_of(self.mask[g]):
                common &= peer_mask[c]
            seen_by.append(common)
            d = self.digit[g]
            for c in cells_of(common & dmask[d] & ~self.mask[g]):
                j = node_of[(c, d)]
                weak[g] |= 1 << j
                weak[j] |= 1 << g
        groups_of_digit: dict[int, list[int]] = {}
        for g in range(self.candidates, self.groups_end):
            groups_of_digit.setdefault(self.digit[g], []).append(g)
        node_mask = self.mask
        for same in groups_of_digit.values():  # (group nodes of one digit only can link)
            for k, g in enumerate(same):
                seen_g = seen_by[g - self.candidates]
                for h in same[k + 1 :]:
                    if node_mask[g] & node_mask[h]:
                        continue
                    if node_mask[h] & ~seen_g == 0:
                        weak[g] |= 1 << h
                        weak[h] |= 1 << g
        # strong links: a digit's places in a full group split into two nodes
        for gi in t.full:
            house = t.group_mask[gi]
            for d in range(1, size + 1):
                places = house & dmask[d]
                if places.bit_count() < 2:
                    continue
                parts = [node_of[(c, d)] for c in cells_of(places)]
                parts += [g for g in groups_of_digit.get(d, ()) if self.mask[g] & ~house == 0]
                for a in parts:
                    rest = places & ~self.mask[a]
                    if rest.bit_count() == 1:
                        b = node_of[(rest.bit_length() - 1, d)]
                    else:
                        b = group_of.get((d, rest), -1)
                        if b < 0:
                            continue
                    strong[a] |= 1 << b
                    strong[b] |= 1 << a
        # literal successors: true implies its weak partners false, false its strong partners
        self.succ = [w << count for w in weak] + strong
        if self.als:
            self._link_als_nodes(board, groups_of_digit)
        self._pred: list[int] | None = None
        self._levels: dict[int, list[int]] = {}
        self._reached: dict[int, int] = {}
        self._closure: list[int] | None = None
        self.work = 0
        """Literals expanded so far (all premises): a measure of the time spent."""

    def _add_als_nodes(self, board: Board, group_of: dict[tuple[int, int], int]) -> None:
        """The ALS nodes (``fillTablesWithAls``): an ALS of two cells or more with an entry
        digit that some candidate outside can switch off and whose locking removes
        something."""
        self._als_key: dict[tuple[int, int], int] = {}
        for index, als in enumerate(alses(board)):
            if als.cells.bit_count() < 2:
                continue
            for x in digits_of(als.digits):
                if not als.buddies[x]:
                    continue  # nothing outside can take x away
                if not any(als.buddies[z] for z in digits_of(als.digits) if z != x):
                    continue  # locked, it removes nothing
                if len(self.als) >= MAX_ALS_NODES:
                    return
                node = len(self.digit)
                self.digit.append(x)
                self.mask.append(als.cells)
                self.als[node] = als
                self._als_key[(index, x)] = node

    def _link_als_nodes(self, board: Board, groups_of_digit: dict[int, list[int]]) -> None:
        count, succ, node_of = self.count, self.succ, self.node_of
        cands, values = board.candidates, board.values
        every = alses(board)
        for node, als in self.als.items():
            x = self.digit[node]
            # in: a true x outside that sees all of the ALS's x (a candidate or a group node)
            for c in cells_of(als.buddies[x]):
                succ[node_of[(c, x)]] |= 1 << node
            for g in groups_of_digit.get(x, ()):
                if self.mask[g] & ~als.buddies[x] == 0:
                    succ[g] |= 1 << node
            # out: the ALS locked on its other digits
            out = 0
            gone_at: dict[int, int] = {}
            for z in digits_of(als.digits):
                gone = als.buddies[z] if z != x else 0
                if not gone:
                    continue
                for c in cells_of(gone):
                    out |= 1 << (node_of[(c, z)] + count)
                    gone_at[c] = gone_at.get(c, 0) | 1 << (z - 1)
                for g in groups_of_digit.get(z, ()):
                    if self.mask[g] & ~gone == 0:
                        out |= 1 << (g + count)
                for (index, entry), other in self._als_key.items():
                    if entry != z or every[index].cells & als.cells:
                        continue
                    if every[index].places[z] & ~gone == 0:
                        out |= 1 << other
            # a cell of three or more candidates left with one (two are the plain links')
            for c, lost in gone_at.items():
                left = cands[c] & ~lost
                if not values[c] and cands[c].bit_count() > 2 and left.bit_count() == 1:
                    out |= 1 << node_of[(c, left.bit_length())]
            succ[node] = out

    def is_als(self, node: int) -> bool:
        return node in self.als

    def link_cells(self, node: int, digit: int) -> int:
        """The cells of a node a link on ``digit`` joins: an ALS node's places of it."""
        als = self.als.get(node)
        return self.mask[node] if als is None else als.places[digit]

    @property
    def pred(self) -> list[int]:
        """Per literal, a mask of the literals that imply it directly (made when a chain is
        first written out: most board states need none)."""
        if self._pred is None:
            pred = [0] * (2 * self.count)
            for lit, mask in enumerate(self.succ):
                bit = 1 << lit
                for other in bit_positions(mask):
                    pred[other] |= bit
            self._pred = pred
        return self._pred

    def lit(self, node: int, true: bool) -> int:
        return node if true else node + self.count

    def levels(self, premise: int) -> list[int]:
        """The literals ``premise`` implies, by distance: ``[premise, …]`` as masks."""
        found = self._levels.get(premise)
        if found is None:
            succ = self.succ
            seen = frontier = 1 << premise
            found = [frontier]
            work = 0
            while frontier:
                following = 0
                rest = frontier
                while rest:  # (the bits inline: a generator here cost a third of the search)
                    low = rest & -rest
                    following |= succ[low.bit_length() - 1]
                    rest ^= low
                    work += 1
                frontier = following & ~seen
                seen |= frontier
                if frontier:
                    found.append(frontier)
            self.work += work
            self._levels[premise] = found
        return found

    def reached(self, premise: int) -> int:
        """Every literal ``premise`` implies (itself included), as a mask."""
        if FAST_REACH:
            if self._closure is None:
                self._closure = reach_closure(self.succ)
            return self._closure[premise]
        found = self._reached.get(premise)
        if found is None:
            found = 0
            for level in self.levels(premise):
                found |= level
            self._reached[premise] = found
        return found

    def distance(self, premise: int, target: int) -> int:
        """The links of the shortest chain from ``premise`` to ``target`` (-1: none)."""
        bit = 1 << target
        return next((k for k, level in enumerate(self.levels(premise)) if level & bit), -1)

    def path(self, premise: int, target: int, exempt: int = 0) -> list[int] | None:
        """A shortest chain of literals from ``premise`` to ``target`` that is no lasso: no
        node's (first) cell lies in a node two or more before it, but in the cells of
        ``exempt`` (a nice loop's own cell) — HoDoKu's ``TablingSolver.addChain``.
        Candidates are tried before group nodes, as HoDoKu's expansion prefers them; None
        when there is none (within a bounded search)."""
        levels = self.levels(premise)
        bit = 1 << target
        k = next((k for k, level in enumerate(levels) if level & bit), -1)
        if k < 0:
            return None
        mask, pred = self.mask, self.pred
        count = self.count
        budget = [2_000]

        def cells(lit: int) -> int:
            return mask[lit if lit < count else lit - count] & ~exempt

        def first(lit: int) -> int:
            m = cells(lit)
            return m & -m

        def extend(chain: list[int], far: int, j: int) -> list[int] | None:
            # far: the first cells of the nodes two or more after the one to choose (HoDoKu
            # checks a node's first cell against every cell of the nodes two or more before)
            if j < 0:
                return chain
            choice = levels[j] & pred[chain[-1]]
            near = first(chain[-1])
            for lit in bit_positions(choice):
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                here = cells(lit)
                if here & far:
                    continue
                found = extend([*chain, lit], far | near, j - 1)
                if found is not None:
                    return found
            return None

        found = extend([target], 0, k - 1)
        if found is None:
            return None
        found.reverse()
        return found

    def node_of_candidate(self, node: int) -> tuple[int, int]:
        """A candidate node's (cell, digit)."""
        return (self.cell(node), self.digit[node])

    def is_group(self, node: int) -> bool:
        return node >= self.candidates

    def node(self, lit: int) -> tuple[int, bool]:
        """(node, true) of a literal."""
        return (lit, True) if lit < self.count else (lit - self.count, False)

    def cell(self, node: int) -> int:
        """A candidate's cell (a group node's first; an ALS node's first place of its entry
        digit, as HoDoKu's ``entryIndex``)."""
        m = self.link_cells(node, self.digit[node])
        return (m & -m).bit_length() - 1

    def seen(self, node: int, digit: int | None = None) -> int:
        """The cells that see every cell of ``node`` (of an ALS node, every place of
        ``digit`` in it)."""
        common = -1
        cells = self.mask[node] if digit is None else self.link_cells(node, digit)
        for c in cells_of(cells):
            common &= self.peer_mask[c]
        return common & ~self.mask[node]

    def name(self, node: int) -> str:
        """``4r1c1``, a group node ``4r1c23`` (or ``4{r1c1,r2c2}``) as HoDoKu writes them; an
        ALS node ``ALS:r1c23{1249}``."""
        cells = cells_name(self.board, cells_of(self.mask[node]))
        als = self.als.get(node)
        if als is not None:
            return f"ALS:{cells}{{{''.join(map(str, digits_of(als.digits)))}}}"
        return f"{self.digit[node]}{cells}"

    def link(self, a: int, b: int, strong: bool) -> Link:
        # a link into an ALS node is on its entry digit, one out of it on the next node's
        digit = self.digit[b] if self.is_als(a) else self.digit[a]
        cells_a = tuple(cells_of(self.link_cells(a, digit))) if self.is_group(a) else ()
        cells_b = tuple(cells_of(self.link_cells(b, digit))) if self.is_group(b) else ()
        start = cells_a[0] if cells_a else self.cell(a)
        end = cells_b[0] if cells_b else self.cell(b)
        return Link((start, digit), (end, digit), strong, start_cells=cells_a, end_cells=cells_b)

    def candidates_of(self, node: int) -> list[Candidate]:
        als = self.als.get(node)
        if als is not None:
            return [(c, d) for d in digits_of(als.digits) for c in cells_of(als.places[d])]
        return [(c, self.digit[node]) for c in cells_of(self.mask[node])]


FAST_REACH = True
"""The speed door of :meth:`ChainGraph.reached`: True, every literal's implications come from
one pass over the graph (:func:`reach_closure`), made the first time one is asked; False, each
premise's from its own breadth-first levels (:meth:`ChainGraph.levels`), the plain way. The
two give the same masks (``tests/test_logic_grouped.py`` checks both that and the solver's
traces); the levels, which chains' shortest paths need, are then made only for premises whose
chains are written out."""


def reach_closure(succ: list[int]) -> list[int]:
    """Per node of a graph (``succ``: a mask of each node's successors), the mask of the nodes
    it reaches, itself included: Tarjan's strongly connected components, iteratively, each
    component's reach the union of its members and of what the components it leads to reach
    (those are finished first). On a board's implication graph the nodes reach a good share of
    the rest, so this costs a pass over the links where a search per premise costs as many
    passes as premises."""
    n = len(succ)
    order = [-1] * n  # discovery index
    low = [0] * n
    on_stack = [False] * n
    reach = [0] * n
    stack: list[int] = []
    counter = 0
    for root in range(n):
        if order[root] >= 0:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work = [(root, succ[root])]
        while work:
            v, rest = work[-1]
            if rest:
                bit = rest & -rest
                work[-1] = (v, rest ^ bit)
                w = bit.bit_length() - 1
                if order[w] < 0:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, succ[w]))
                elif on_stack[w] and order[w] < low[v]:
                    low[v] = order[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] != order[v]:
                continue
            # v roots a component: its members are on the stack down to v
            members = 0
            component = []
            while True:
                w = stack.pop()
                on_stack[w] = False
                component.append(w)
                members |= 1 << w
                if w == v:
                    break
            found = members
            for w in component:
                out = succ[w] & ~members
                while out:
                    bit = out & -out
                    found |= reach[bit.bit_length() - 1]
                    out ^= bit
            for w in component:
                reach[w] = found
    return reach


def cells_name(board: Board, cells: list[int]) -> str:
    """``r1c1``; cells of one row ``r1c23``, of one column ``r12c1``; else braces."""
    if len(cells) == 1:
        return board.name(cells[0])
    size = board.size
    rows = sorted({c // size + 1 for c in cells})
    cols = sorted({c % size + 1 for c in cells})
    if size <= 9 and len(rows) == 1:
        return f"r{rows[0]}c{''.join(map(str, cols))}"
    if size <= 9 and len(cols) == 1:
        return f"r{''.join(map(str, rows))}c{cols[0]}"
    return "{" + ",".join(board.name(c) for c in cells) + "}"


def bit_positions(mask: int) -> Iterator[int]:
    """The positions of a mask's set bits, lowest first (the chain graph's node sets)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def chain_graph(board: Board, als_nodes: bool = False) -> ChainGraph | None:
    """The board's graph as it is now, shared by the techniques that ask on one board state
    (None: too big to search)."""
    state = (tuple(board.values), tuple(board.candidates))
    key = "grouped chain graph, ALS nodes" if als_nodes else "grouped chain graph"
    cached = board.memo.get(key)
    if isinstance(cached, tuple) and cached[0] == state:
        return cached[1]
    graph: ChainGraph | None = ChainGraph(board, als_nodes)
    assert graph is not None
    if graph.groups_end > MAX_NODES:
        graph = None
    board.memo[key] = (state, graph)
    return graph


def chain_notation(graph: ChainGraph, chain: list[int]) -> str:
    """A chain of literals written out: ``2r1c1-2r1c5=2r3c4``, each node after the first
    with ``=`` when it is true (reached by a strong link), ``-`` when false."""
    nodes = [graph.node(lit) for lit in chain]
    parts = [graph.name(nodes[0][0])]
    for n, true in nodes[1:]:
        # (an ALS node is entered by a weak link: it is "the entry digit is not in the set")
        parts.append(("=" if true and not graph.is_als(n) else "-") + graph.name(n))
    return "".join(parts)


def chain_links(graph: ChainGraph, chain: list[int]) -> list[Link]:
    """A chain's links, each strong when it reaches a true node."""
    nodes = [graph.node(lit) for lit in chain]
    return [graph.link(p[0], q[0], q[1]) for p, q in zip(nodes, nodes[1:], strict=False)]
