"""Chains: X-Chain, XY-Chain and alternating inference chains (AIC) with their nice loops.

A node is a candidate (cell, digit). A *strong* link says at least one of two nodes is true:
a digit with exactly two places in a full group (a group with as many cells as digits, which
must hold it), or the two digits of a bivalue cell. A *weak* link says not both: one digit in
two cells that are peers (share any group), or two digits of one cell. A chain that starts and
ends with strong links and alternates proves "its first or its last node is true" (if the first
is false, each strong link makes the next true and each weak link the next false). Because the
links come only from groups and peers, every chain here holds for any model whose rules are
all-different groups; rules beyond groups are ignored, which can only miss deductions.

What a chain from node s to node e removes:
- s is e: s is true ("Discontinuous Nice Loop": it starts and ends with strong links on s);
- s and e are two digits of one cell: the cell's other digits ("Discontinuous Nice Loop");
- s and e are one digit in two cells: that digit from every cell seeing both ("X-Chain" when
  the chain uses one digit, "XY-Chain" when every strong link is a bivalue cell, else "AIC");
- s and e are two digits x, y in peer cells: y from s's cell and x from e's ("AIC");
- e is weakly linked back to s, closing a loop ("Continuous Nice Loop"): each weak link of the
  loop then has one true end, so whatever sees both ends of one goes.

On a model with rules beyond groups the X-Chain search (with Turbot Fish, on one digit) and the
AIC search (and its nice loops) also use the links
the rules give (:mod:`.rule_links`: a kropki dot, an XV, a cage's fillings …), each sound for
the rule's meaning; the step's text names the rule of each such link. A candidate weakly
linked to both ends of a chain (or of a loop's weak link) then goes, whatever gives the links.

Search: breadth first from every start node, so each chain found is the shortest from its start,
and the shortest of all starts is the first step; the other steps (:func:`.board.every_step`)
are the shortest chain from each start to each end the search meets, one per distinct outcome.
Chains have at most ``MAX_LINKS`` links and one call examines at most ``MAX_WORK`` links, so a
stalled 25x25 grid costs a bounded time (the search may then miss a longer chain; it never
reports a wrong one).

Names as HoDoKu spells them (hobiwan's HoDoKu ``SolutionType`` and
``intl/SolutionType.properties``: "X-Chain", "XY-Chain", "Continuous Nice Loop",
"Discontinuous Nice Loop", "AIC").
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import pairwise

from .board import Board, Technique, digits_of, technique
from .patterns import cells_of, conjugates, digit_mask, tables
from .rule_links import RuleLinks, rule_links
from .steps import Candidate, Link, Step

MAX_LINKS = 20
"""The longest chain searched (links); HoDoKu's chains are rarely longer on 9x9 puzzles."""
MAX_WORK = 150_000
"""Links examined per call at most: a bound on time for any grid. Far above what real grids
need (at most 787 in one call on the bundled top1465 and forum-hardest grids and the shared
25x25 grids after singles), so it only stops pathological ones."""
MIN_LINKS = 3
"""Shorter chains are locked candidates or subsets, which simpler techniques find."""

X_CHAIN, XY_CHAIN = "X-Chain", "XY-Chain"
TURBOT, REMOTE_PAIR = "Turbot Fish", "Remote Pair"
CNL, DNL, AIC = "Continuous Nice Loop", "Discontinuous Nice Loop", "AIC"


@dataclass
class _Found:
    links: int
    chain: list[int]
    placements: list[Candidate]
    eliminations: list[Candidate]
    loop: bool
    notes: tuple[str, ...] = ()
    """The links rules gave, each with its rule (for the text)."""


class _Graph:
    """The nodes and links one kind of chain may use on the board as it is now."""

    def __init__(
        self,
        board: Board,
        digits: list[int],
        conjugate: bool,
        bivalue: bool,
        in_cell: bool,
        rules: RuleLinks | None = None,
    ) -> None:
        self.board = board
        self.rules = rules
        self.size = size = board.size
        self.peer_mask = tables(board).peer_mask
        self.in_cell = in_cell
        self.dmask = {d: digit_mask(board, d) for d in digits}
        strong: dict[int, set[int]] = {}
        if conjugate:
            for d in digits:
                for a, b, _ in conjugates(board, d):
                    na, nb = a * size + d - 1, b * size + d - 1
                    strong.setdefault(na, set()).add(nb)
                    strong.setdefault(nb, set()).add(na)
        if bivalue:
            for cell, mask in enumerate(board.candidates):
                if board.values[cell] or bin(mask).count("1") != 2:
                    continue
                x, y = digits_of(mask)
                if x in self.dmask and y in self.dmask:
                    na, nb = cell * size + x - 1, cell * size + y - 1
                    strong.setdefault(na, set()).add(nb)
                    strong.setdefault(nb, set()).add(na)
        self.rule_weak: dict[int, set[int]] = {}
        if rules is not None:
            for table, into in ((rules.strong, strong), (rules.weak, self.rule_weak)):
                for u, vs in table.items():
                    if (u % size) + 1 in self.dmask:
                        wanted = {v for v in vs if (v % size) + 1 in self.dmask}
                        if wanted:
                            into.setdefault(u, set()).update(wanted)
        self.strong = {n: sorted(s) for n, s in strong.items()}
        self._succ: dict[int, list[tuple[int, int]]] = {}

    def weak(self, node: int) -> list[int]:
        size = self.size
        cell, low = divmod(node, size)
        out = [p * size + low for p in cells_of(self.dmask[low + 1] & self.peer_mask[cell])]
        if self.in_cell:
            mask = self.board.candidates[cell] & ~(1 << low)
            out += [cell * size + d - 1 for d in digits_of(mask) if d in self.dmask]
        extra = self.rule_weak.get(node)
        if extra:
            out += sorted(extra.difference(out))
        return out

    def weak_to_both(self, u: int, v: int, skip: tuple[int, ...] = ()) -> list[Candidate]:
        """The candidates weakly linked to both ``u`` and ``v`` (one of which is true), as
        (cell, digit): whatever gives the links, they cannot be true."""
        size = self.size
        both = set(self.weak(u)).intersection(self.weak(v)).difference((u, v, *skip))
        return sorted((n // size, n % size + 1) for n in both)

    def note(self, u: int, v: int, strong: bool) -> str | None:
        """The rule that alone gives the link u-v (None when a group or cell gives it)."""
        if self.rules is None:
            return None
        if strong:
            given = v in self.strong.get(u, ()) and v not in self._group_strong(u)
        else:
            given = v in self.rule_weak.get(u, ()) and not self._group_weak(u, v)
        return self.rules.rule_of(u, v) if given else None

    def _group_strong(self, u: int) -> set[int]:
        size = self.size
        cell, low = divmod(u, size)
        out: set[int] = set()
        mask = self.board.candidates[cell]
        if not self.board.values[cell] and mask.bit_count() == 2:
            out.update(cell * size + d - 1 for d in digits_of(mask) if d != low + 1)
        for a, b, _ in conjugates(self.board, low + 1):
            if a == cell:
                out.add(b * size + low)
            elif b == cell:
                out.add(a * size + low)
        return out

    def _group_weak(self, u: int, v: int) -> bool:
        cu, du = divmod(u, self.size)
        cv, dv = divmod(v, self.size)
        return (cu == cv and du != dv) or (du == dv and cu != cv and self.sees(cu, cv))

    def succ(self, node: int) -> list[tuple[int, int]]:
        """(off node, on node) pairs: a weak link from ``node``, then a strong one."""
        found = self._succ.get(node)
        if found is None:
            strong = self.strong
            found = [(c, f) for c in self.weak(node) if c in strong for f in strong[c]]
            self._succ[node] = found
        return found

    def sees(self, a: int, b: int) -> bool:
        return bool((self.peer_mask[a] >> b) & 1)


def _classify(
    graph: _Graph, s: int, e: int, mode: str
) -> tuple[str, list[Candidate], list[Candidate]] | None:
    """What a chain from s (assumed false) to e (then true) proves, by the rules above."""
    size = graph.size
    a, xi = divmod(s, size)
    z, yi = divmod(e, size)
    x, y = xi + 1, yi + 1
    cands = graph.board.candidates
    if graph.rule_weak and mode == AIC and s != e:
        # with rule links: what is weakly linked to both ends (a superset of the cases below)
        gone = graph.weak_to_both(s, e)
        if not gone:
            return None
        return (DNL if a == z else AIC, [], gone)
    if graph.rule_weak and mode == X_CHAIN and s != e and x == y:
        # an X-Chain with rule links (one digit): the digit goes where it is weakly linked to
        # both ends, by a group or a rule
        gone = graph.weak_to_both(s, e)
        return (mode, [], gone) if gone else None
    if s == e:
        return (DNL, [(a, x)], []) if mode == AIC else None
    if a == z:
        if mode != AIC:
            return None
        gone = [(a, d) for d in digits_of(cands[a]) if d != x and d != y]
        return (DNL, [], gone) if gone else None
    if x == y:
        mask = graph.dmask[x] & graph.peer_mask[a] & graph.peer_mask[z]
        gone = [(c, x) for c in cells_of(mask)]
        return (mode, [], gone) if gone else None
    if mode == AIC and graph.sees(a, z):
        gone = []
        if cands[a] >> yi & 1:
            gone.append((a, y))
        if cands[z] >> xi & 1:
            gone.append((z, x))
        return (AIC, [], gone) if gone else None
    return None


def _loop_eliminations(graph: _Graph, chain: list[int]) -> list[Candidate]:
    """A continuous loop's eliminations: for each weak link (chain[1]-chain[2], …, and the
    closing chain[-1]-chain[0]) what sees both of its ends."""
    size = graph.size
    cands = graph.board.candidates
    weak = list(zip(chain[1::2], chain[2::2], strict=False)) + [(chain[-1], chain[0])]
    gone: set[Candidate] = set()
    if graph.rule_weak:
        # with rule links: each weak link has one true end; what sees both of them goes
        for u, v in weak:
            gone.update(graph.weak_to_both(u, v, tuple(chain)))
        return sorted(gone)
    for u, v in weak:
        cu, du = divmod(u, size)
        cv, dv = divmod(v, size)
        if cu == cv:
            gone.update((cu, d) for d in digits_of(cands[cu]) if d not in (du + 1, dv + 1))
        else:
            mask = graph.dmask[du + 1] & graph.peer_mask[cu] & graph.peer_mask[cv]
            gone.update((c, du + 1) for c in cells_of(mask))
    return sorted(gone)


def _chain_of(parent: dict[int, tuple[int, int]], end: int) -> list[int]:
    out = [end]
    node = end
    while True:
        off, prev = parent[node]
        out.append(off)
        if prev < 0:
            break
        out.append(prev)
        node = prev
    out.reverse()
    return out


def _search(
    graph: _Graph,
    mode: str,
    min_links: int,
    kinds: tuple[str, ...],
    max_links: int = MAX_LINKS,
    most: bool = False,
) -> dict[str, _Found]:
    """The shortest chain of each kind in ``kinds`` (within the caps); with ``most``, the one
    that removes the most candidates (then the shortest), as HoDoKu ranks its X- and
    XY-Chains (``ChainSolver``: most eliminations first)."""
    best: dict[str, _Found] = {}

    def limit() -> int:
        if len(best) < len(kinds) or most:
            return max_links
        return max((best[k].links for k in kinds if k in best), default=0)

    for s, links, frontier, parent in _levels(graph, min_links, limit):
        for e in frontier:
            _consider(graph, mode, kinds, best, parent, s, e, links, most)
    return best


def _levels(
    graph: _Graph, min_links: int, limit: Callable[[], int]
) -> Iterator[tuple[int, int, list[int], dict[int, tuple[int, int]]]]:
    """Breadth first from each start node in turn: ``(start, links, frontier, parent)`` for
    each level of at least ``min_links`` links, the frontier's nodes reached by chains of that
    many links (``parent`` leads back to the start). ``limit()``, asked at each start, is the
    deepest level for it; at most ``MAX_WORK`` links are examined in all."""
    work = 0
    strong = graph.strong
    for s in sorted(strong):
        deepest = limit()
        parent: dict[int, tuple[int, int]] = {}
        frontier = []
        for f in strong[s]:
            if f not in parent:
                parent[f] = (s, -1)
                frontier.append(f)
        links = 1
        while frontier and links <= deepest and work < MAX_WORK:
            if links >= min_links:
                yield s, links, frontier, parent
            if links + 2 > deepest:
                break
            following = []
            for e in frontier:
                for c, f in graph.succ(e):
                    work += 1
                    if f not in parent:
                        parent[f] = (c, e)
                        following.append(f)
            frontier = following
            links += 2
        if work >= MAX_WORK:
            break


def _consider(
    graph: _Graph,
    mode: str,
    kinds: tuple[str, ...],
    best: dict[str, _Found],
    parent: dict[int, tuple[int, int]],
    s: int,
    e: int,
    links: int,
    most: bool = False,
) -> None:
    found = _classify(graph, s, e, mode)
    if found is not None:
        kind, placements, gone = found
        old = best.get(kind)
        if most and old is not None:
            better = (-len(gone), links) < (-len(old.eliminations), old.links)
        else:
            better = old is None or old.links > links
        if kind in kinds and better:
            best[kind] = _chain_found(graph, parent, s, e, links, placements, gone)
    better = CNL not in best or best[CNL].links > links + 1
    if CNL in kinds and e != s and better and _weakly_linked(graph, e, s):
        loop = _loop_found(graph, parent, e, links)
        if loop is not None:
            best[CNL] = loop


def _chain_found(
    graph: _Graph,
    parent: dict[int, tuple[int, int]],
    s: int,
    e: int,
    links: int,
    placements: list[Candidate],
    gone: list[Candidate],
) -> _Found:
    """The chain the search reached from ``s`` to ``e``, with what it proves."""
    chain = _chain_of(parent, e)
    notes = _notes(graph, chain) + _gone_notes(graph, [(s, e)], gone)
    return _Found(links, chain, placements, gone, False, notes)


def _loop_found(
    graph: _Graph, parent: dict[int, tuple[int, int]], e: int, links: int
) -> _Found | None:
    """The continuous loop closed by a weak link from ``e`` back to the chain's start, if it
    removes anything."""
    chain = _chain_of(parent, e)
    gone = _loop_eliminations(graph, chain)
    if not gone:
        return None
    weak = list(zip(chain[1::2], chain[2::2], strict=False)) + [(chain[-1], chain[0])]
    notes = _notes(graph, chain, True) + _gone_notes(graph, weak, gone)
    return _Found(links + 1, chain, [], gone, True, notes)


def _every(
    graph: _Graph, mode: str, min_links: int, kinds: tuple[str, ...], max_links: int = MAX_LINKS
) -> Iterator[tuple[str, _Found]]:
    """Every chain (and loop) of the kinds in ``kinds`` that the search of :func:`_search`
    meets: from each start, the shortest chain to each end, within the same caps."""
    for s, links, frontier, parent in _levels(graph, min_links, lambda: max_links):
        for e in frontier:
            found = _classify(graph, s, e, mode)
            if found is not None and found[0] in kinds:
                kind, placements, gone = found
                yield kind, _chain_found(graph, parent, s, e, links, placements, gone)
            if CNL in kinds and e != s and _weakly_linked(graph, e, s):
                loop = _loop_found(graph, parent, e, links)
                if loop is not None:
                    yield CNL, loop


def _outcome(found: _Found) -> tuple[tuple[Candidate, ...], tuple[Candidate, ...]]:
    """What a chain does: chains with the same outcome are one step."""
    return tuple(found.placements), tuple(sorted(found.eliminations))


def _notes(graph: _Graph, chain: list[int], loop: bool = False) -> tuple[str, ...]:
    """``9r1c1=1r1c2 by the X at r1c1-r1c2`` for each link of ``chain`` only a rule gives."""
    if graph.rules is None:
        return ()
    pairs = [(u, v, i % 2 == 0) for i, (u, v) in enumerate(pairwise(chain))]
    if loop:
        pairs.append((chain[-1], chain[0], False))
    out = []
    for u, v, strong in pairs:
        rule = graph.note(u, v, strong)
        if rule is not None:
            name = graph.board.name
            (cu, du), (cv, dv) = divmod(u, graph.size), divmod(v, graph.size)
            sign = "=" if strong else "-"
            out.append(f"{du + 1}{name(cu)}{sign}{dv + 1}{name(cv)} by {rule}")
    return tuple(out)


def _gone_notes(
    graph: _Graph, ends: list[tuple[int, int]], gone: list[Candidate]
) -> tuple[str, ...]:
    """For each candidate removed, the links to the ends it sees that only a rule gives."""
    if graph.rules is None:
        return ()
    size, name = graph.size, graph.board.name
    out: list[str] = []
    for cell, digit in gone:
        g = cell * size + digit - 1
        for pair in ends:
            if not all(g in graph.weak(end) for end in pair):
                continue
            for end in pair:
                rule = graph.note(g, end, False)
                if rule is not None:
                    ce, de = divmod(end, size)
                    text = f"{digit}{name(cell)}-{de + 1}{name(ce)} by {rule}"
                    if text not in out:
                        out.append(text)
            break
    return tuple(out)


def _weakly_linked(graph: _Graph, u: int, v: int) -> bool:
    if v in graph.rule_weak.get(u, ()):
        return True
    cu, du = divmod(u, graph.size)
    cv, dv = divmod(v, graph.size)
    if cu == cv:
        return du != dv and graph.in_cell
    return du == dv and graph.sees(cu, cv)


def _step(board: Board, name: str, found: _Found) -> Step:
    size = board.size
    chain = [divmod(n, size) for n in found.chain]
    nodes = [(cell, low + 1) for cell, low in chain]
    links = [Link(a, b, i % 2 == 0) for i, (a, b) in enumerate(pairwise(nodes))]
    if found.loop:
        links.append(Link(nodes[-1], nodes[0], False))
    notation = _notation(board, nodes, found.loop)
    first, last = nodes[0], nodes[-1]
    n = board.name
    if found.placements:
        cell, digit = found.placements[0]
        text = (
            f"If {n(cell)} were not {digit}, the chain {notation} would make it "
            f"{digit}, so {n(cell)} is {digit}."
        )
    elif found.loop:
        text = (
            f"The loop {notation} alternates strong and weak links, so each weak link "
            f"has one true end and {_list(board, found.eliminations)} can go."
        )
    else:
        text = (
            f"In {notation}, if {first[1]} in {n(first[0])} is false each strong link "
            f"makes the next true, so {first[1]} in {n(first[0])} or {last[1]} in "
            f"{n(last[0])} is true, and {_list(board, found.eliminations)} can go."
        )
    if found.notes:
        shown = "; ".join(found.notes[:8]) + ("; …" if len(found.notes) > 8 else "")
        text += f" Links from rules: {shown}."
    return board.step(
        name,
        text,
        placements=found.placements,
        eliminations=found.eliminations,
        proof=sorted(set(nodes)),
        links=links,
    )


def _notation(board: Board, nodes: list[Candidate], loop: bool) -> str:
    """Eureka-style: ``4r1c1=4r1c5-…`` (= strong, - weak)."""
    parts = [f"{nodes[0][1]}{board.name(nodes[0][0])}"]
    for i, (cell, digit) in enumerate(nodes[1:]):
        parts.append(("=" if i % 2 == 0 else "-") + f"{digit}{board.name(cell)}")
    if loop:
        parts.append(f"-{nodes[0][1]}{board.name(nodes[0][0])}")
    return "".join(parts)


def _list(board: Board, candidates: list[Candidate]) -> str:
    return ", ".join(f"{d} from {board.name(c)}" for c, d in candidates)


@technique
def x_chain(board: Board) -> Iterator[Step]:
    """An alternating chain on one digit (strong links in full groups, weak links between
    peers): its two ends hold the digit between them, so a cell seeing both cannot."""
    best: _Found | None = None
    for digit in range(1, board.size + 1):
        found = _single_digit(board, digit, MAX_LINKS)
        if found is not None and (best is None or _rank(found) < _rank(best)):
            best = found
    if best is None:
        return
    yield _step(board, X_CHAIN, best)
    yield from _single_digit_others(board, X_CHAIN, MAX_LINKS, best)


@technique
def turbot_fish(board: Board) -> Iterator[Step]:
    """An X-Chain of three links, a=b-c=d on one digit (HoDoKu's Turbot Fish, rated below the
    longer X-Chains): a or d holds the digit, so a cell seeing both cannot. Skyscraper, 2-String
    Kite and Empty Rectangle, tried first, are its named shapes; this takes the rest."""
    best: _Found | None = None
    for digit in range(1, board.size + 1):
        found = _single_digit(board, digit, 3)
        if found is not None and (best is None or len(found.eliminations) > len(best.eliminations)):
            best = found
    if best is None:
        return
    yield _step(board, TURBOT, best)
    yield from _single_digit_others(board, TURBOT, 3, best)


def _single_digit_others(board: Board, name: str, max_links: int, first: _Found) -> Iterator[Step]:
    """The single-digit chains other than ``first`` (one per outcome), digit by digit."""
    seen = {_outcome(first)}
    for digit in range(1, board.size + 1):
        for _, found in _every(
            _digit_graph(board, digit), X_CHAIN, MIN_LINKS, (X_CHAIN,), max_links
        ):
            if _outcome(found) not in seen:
                seen.add(_outcome(found))
                yield _step(board, name, found)


def _digit_graph(board: Board, digit: int) -> _Graph:
    rules = rule_links(board) if board.puzzle.model.rules else None
    return _Graph(board, [digit], conjugate=True, bivalue=False, in_cell=False, rules=rules)


def _single_digit(board: Board, digit: int, max_links: int) -> _Found | None:
    """The best X-Chain on ``digit`` (most eliminations, then shortest), remembered for the
    digit's candidates: it depends on them alone, and most steps leave most digits alone."""
    key: tuple[object, ...] = ("x-chain", digit, max_links, digit_mask(board, digit))
    if board.puzzle.model.rules:
        # the rules' links of this digit depend on every candidate of their cells
        key += (tuple(board.candidates),)
    memo = board.memo
    if key in memo:
        return memo[key]  # type: ignore[return-value]
    graph = _digit_graph(board, digit)
    found = _search(graph, X_CHAIN, MIN_LINKS, (X_CHAIN,), max_links, most=True).get(X_CHAIN)
    memo[key] = found
    return found


@technique
def remote_pair(board: Board) -> Iterator[Step]:
    """Four or more cells holding only x and y, each seeing the next: along the chain they
    alternate x, y, x, y, so two of them an odd number of steps apart (the ends of a chain of
    an even number of cells) hold x and y between them, and a cell seeing both can be neither.
    """
    where = _pair_cells(board)
    memo = board.memo
    best: tuple[_Found, list[int]] | None = None
    for pair in sorted(where):
        if where[pair].bit_count() < 4:
            # Seven links need four cells: with three, a chain that long can only come back
            # to its start, which proves nothing in this search.
            continue
        digits = digits_of(pair)
        # The search sees the pair's cells and the two digits' candidates, nothing else.
        key = ("remote", pair, where[pair], *(digit_mask(board, d) for d in digits))
        found: _Found | None
        if key in memo:
            found = memo[key]  # type: ignore[assignment]
        else:
            graph = _Graph(board, digits, conjugate=False, bivalue=True, in_cell=False)
            found = _search(graph, XY_CHAIN, 7, (XY_CHAIN,)).get(XY_CHAIN)
            memo[key] = found
        if found is None or (best is not None and found.links >= best[0].links):
            continue
        best = (_remote(board, found, digits), digits)
    if best is None:
        return
    yield _remote_step(board, *best)
    seen = {_outcome(best[0])}
    for pair in sorted(where):
        if where[pair].bit_count() < 4:
            continue
        digits = digits_of(pair)
        graph = _Graph(board, digits, conjugate=False, bivalue=True, in_cell=False)
        for _, found in _every(graph, XY_CHAIN, 7, (XY_CHAIN,)):
            found = _remote(board, found, digits)
            if _outcome(found) not in seen:
                seen.add(_outcome(found))
                yield _remote_step(board, found, digits)


def _pair_cells(board: Board) -> dict[int, int]:
    """Each pair of digits (a mask): the cells (a mask) holding just those two."""
    where: dict[int, int] = {}
    values = board.values
    for c, m in enumerate(board.candidates):
        if not values[c] and m.bit_count() == 2:
            where[m] = where.get(m, 0) | 1 << c
    return where


def _remote(board: Board, found: _Found, digits: list[int]) -> _Found:
    """A copy of ``found`` with a remote pair's eliminations."""
    found = replace(found)  # the remembered one stays as the search left it
    # As HoDoKu: any two chain cells an odd number of steps apart (3 or more) hold x and
    # y between them, so what sees both loses both.
    peer_mask = tables(board).peer_mask
    cells = [n // board.size for n in found.chain[::2]]
    seen = 0
    for i, a in enumerate(cells):
        for b in cells[i + 3 :: 2]:
            seen |= peer_mask[a] & peer_mask[b]
    for cell in cells:
        seen &= ~(1 << cell)
    found.eliminations = [(c, d) for c in cells_of(seen) for d in digits if board.has(c, d)]
    return found


def _remote_step(board: Board, found: _Found, digits: list[int]) -> Step:
    x, y = digits
    step = _step(board, REMOTE_PAIR, found)
    size = board.size
    names = [board.name(n // size) for n in found.chain[::2]]
    text = (
        f"{', '.join(names)} hold only {x} and {y} and each sees the "
        f"next, so they alternate and two an odd number of steps apart hold one each; "
        f"{_list(board, found.eliminations)} can go."
    )
    return replace(step, text=text)


@technique
def xy_chain(board: Board) -> Iterator[Step]:
    """A chain of bivalue cells, each seeing the next and sharing a digit with it, starting and
    ending on digit x: one end is x, so a cell seeing both ends cannot be."""
    digits = list(range(1, board.size + 1))
    graph = _Graph(board, digits, conjugate=False, bivalue=True, in_cell=False)
    found = _search(graph, XY_CHAIN, 5, (XY_CHAIN,), most=True).get(XY_CHAIN)
    if found is None:
        return
    yield _step(board, XY_CHAIN, found)
    seen = {_outcome(found)}
    for _, other in _every(graph, XY_CHAIN, 5, (XY_CHAIN,)):
        if _outcome(other) not in seen:
            seen.add(_outcome(other))
            yield _step(board, XY_CHAIN, other)


def _rank(found: _Found) -> tuple[int, int]:
    """HoDoKu's preference among chains: most eliminations, then fewest links."""
    return (-len(found.eliminations), found.links)


_AIC_CACHE: weakref.WeakKeyDictionary[Board, tuple[tuple[int, ...], dict[str, _Found]]] = (
    weakref.WeakKeyDictionary()
)


def _aic_kind(board: Board, kind: str) -> Iterator[Step]:
    # The three kinds come from one search; the solver asks for them in turn on one board.
    state = tuple(board.values) + tuple(board.candidates)
    cached = _AIC_CACHE.get(board)
    digits = list(range(1, board.size + 1))
    rules = rule_links(board) if board.puzzle.model.rules else None
    if cached is None or cached[0] != state:
        graph = _Graph(board, digits, conjugate=True, bivalue=True, in_cell=True, rules=rules)
        cached = (state, _search(graph, AIC, MIN_LINKS, (CNL, DNL, AIC)))
        _AIC_CACHE[board] = cached
    found = cached[1].get(kind)
    if found is None:
        return
    yield _step(board, kind, found)
    seen = {_outcome(found)}
    graph = _Graph(board, digits, conjugate=True, bivalue=True, in_cell=True, rules=rules)
    # A candidate an AIC removes, with the AIC, closes a discontinuous loop through itself
    # (weakly linked to both ends): HoDoKu finds that loop from the candidate's cell and names
    # it a Discontinuous Nice Loop removing that one candidate (TablingSolver.checkNiceLoop).
    kinds = (DNL, AIC) if kind == DNL else (kind,)
    for found_kind, other in _every(graph, AIC, MIN_LINKS, kinds):
        singles = (
            [replace(other, eliminations=[gone]) for gone in other.eliminations]
            if found_kind != kind
            else [other]
        )
        for one in singles:
            if _outcome(one) not in seen:
                seen.add(_outcome(one))
                yield _step(board, kind, one)


@technique
def continuous_nice_loop(board: Board) -> Iterator[Step]:
    """A closed alternating loop: every weak link in it has a true end, so candidates seeing
    both ends of any weak link go (a cell entered and left on two digits loses its others)."""
    return _aic_kind(board, CNL)


@technique
def discontinuous_nice_loop(board: Board) -> Iterator[Step]:
    """A chain from a candidate back to its own cell: back to the candidate itself by a strong
    link (it is true), or to another digit of the cell (the cell holds one of the two)."""
    return _aic_kind(board, DNL)


@technique
def aic(board: Board) -> Iterator[Step]:
    """Any alternating inference chain (strong links in groups and bivalue cells, weak links
    between peers and within cells): one of its ends is true."""
    return _aic_kind(board, AIC)


# Cheapest first, as HoDoKu orders them.
TECHNIQUES: tuple[tuple[str, Technique], ...] = (
    (REMOTE_PAIR, remote_pair),
    (TURBOT, turbot_fish),
    (X_CHAIN, x_chain),
    (XY_CHAIN, xy_chain),
    (CNL, continuous_nice_loop),
    (DNL, discontinuous_nice_loop),
    (AIC, aic),
)
