"""The compiled kernel for classic 9x9 (rows, columns, boxes): per-digit bitboards (numba).

The generic kernel (:mod:`.generic`) holds a candidate mask per cell and works through groups
cell by cell. This one holds the grid the other way round, as nine *digit boards*: the cells
where digit ``d`` may still go, as three 27-bit *band* words (band ``b`` is rows 3b..3b+2; bit
``9 r + c`` is row ``3 b + r``, column ``c``; cell index ``27 b + bit``). A state is 32 words:
``3 d + b`` for the boards, ``27 + b`` for the cells already placed.

Inference, to a fixed point:

- *Triads.* In a band each row and each box holds digit ``d`` once, so the (row, box)
  intersections that still hold ``d`` must contain a permutation: a table of all 512 patterns
  keeps only the intersections that lie on one (none left: a dead end). The same table serves
  the stacks (columns × bands). This subsumes locked candidates (pointing and claiming), and
  with it a digit with one place left in a row, column or box ends with its peers cleared.
- *Placements.* A cell that is its digit's only place in its row, or whose only candidate is
  that digit, is placed: the digit leaves its peers, the cell every other digit.

It branches on a cell with two candidates (of those, the one whose two branches promise the
most inference, :func:`_branch_cell`), else on the first with the fewest, smallest digit first.
It is a different search from the pure one (:func:`..search._fast`): the same solutions and
counts when it runs to the end, but found in another order, with other node counts; with a
limit below the count, it returns that many valid, distinct solutions.

``run`` and ``count_many`` take the generic kernel's arguments and statuses, so the glue
(:mod:`.glue`) drives both alike; here ``packed`` is the root's digit boards before the givens
are placed (27 ``int32`` words, as the state's first 27: every cell for a plain classic puzzle,
and for a candidate grid — pencil marks given in its cells, or odd and even cells — only the
cells each digit may take, :func:`.glue.classic_marks`). Propagating and branching need
nothing more: a cell whose marks leave one digit is placed, one left with none is a dead end,
and the triads start from the marks.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros as _tz

from ....jit import njit
from .generic import (
    BACKTRACKS,
    BUDGET,
    BUFFER_FULL,
    CTRL_SIZE,
    DEPTH,
    DONE,
    FOUND,
    IN_BUFFER,
    LIMIT,
    LIMIT_AT,
    NODES,
    PAUSED,
    PROPAGATIONS,
    STACK_FULL,
    STARTED,
    popcount,
)

WIDTH = 32
"""Words in a state: 27 digit-band words, 3 placed-cell words, 2 spare."""
USED = 30
"""The state's words in use (copied from frame to frame): all but the 2 spare."""
ALL = (1 << 27) - 1
"""Every cell of a band."""


def _tables() -> tuple[np.ndarray, ...]:
    """The kernel's constant tables (made once, at import)."""
    import itertools

    # PERM[o]: of the 3x3 pattern o (bit 3 r + k: row r meets box k), the bits on some
    # permutation contained in o; 0 when o contains none.
    perms = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in itertools.permutations(range(3))]
    perm = np.zeros(512, dtype=np.uint64)
    for o in range(512):
        perm[o] = _union(perms, o)
    # triads[a]: the cells of the (row, box) intersections in pattern a, as a band word.
    triads = np.zeros(512, dtype=np.uint64)
    for a in range(512):
        triads[a] = sum(7 << (9 * (i // 3) + 3 * (i % 3)) for i in range(9) if a >> i & 1)
    # KEEP[o]: the cells of the band on the (row, box) intersections of pattern o that lie on
    # a permutation (one lookup for the two above).
    keep = triads[perm]
    # MINIROWS[x]: which of the three minirows of the 9-bit row x hold a candidate: 3 bits.
    minirows = np.array(
        [sum(1 << k for k in range(3) if x >> (3 * k) & 7) for x in range(512)], np.uint64
    )
    # ALONE[x]: the 9-bit row x when it holds one candidate (or none), else 0.
    alone = np.array([x if x & (x - 1) == 0 else 0 for x in range(512)], dtype=np.uint64)
    # MATES[p]: the cells of the band in the row or the box of bit p, itself left out.
    mates = np.zeros(27, dtype=np.uint64)
    for p in range(27):
        r, c = divmod(p, 9)
        row = 0x1FF << (9 * r)
        box = sum(7 << (9 * i + 3 * (c // 3)) for i in range(3))
        mates[p] = (row | box) & ~(1 << p)
    # MINIROW[p]: the three cells of the band where the row and the box of bit p meet.
    minirow = np.array([7 << (9 * (p // 9) + 3 * (p % 9 // 3)) for p in range(27)], np.uint64)
    # COLUMN[c]: column c in a band.
    column = np.array([sum(1 << (9 * r + c) for r in range(3)) for c in range(9)], np.uint64)
    # ROW[p], BOX[p]: the row and the box of bit p in its band, bit p included.
    row = np.array([0x1FF << (9 * (p // 9)) for p in range(27)], np.uint64)
    box = np.array([0x1C0E07 << (3 * (p % 9 // 3)) for p in range(27)], np.uint64)
    return perm, keep, minirows, alone, mates, column, minirow, row, box


def _union(perms: list[int], o: int) -> int:
    union = 0
    for p in perms:
        if p & o == p:
            union |= p
    return union


PERM, KEEP, MINIROWS, ALONE, MATES, COLUMN, MINIROW, ROW, BOX = _tables()


@njit(cache=True, inline="always")
def trailing_zeros(x):
    """The index of the lowest set bit, as a signed integer (mixing in unsigned ones makes
    numba use floats)."""
    return np.int64(_tz(x))


SPREAD = 1 + (1 << 9) + (1 << 18)
"""Multiplying 9 column bits by this copies them to the three rows of a band."""


@njit(cache=True, inline="always")
def _triads(w):
    """Which (row, box) intersections of band word ``w`` hold a candidate: 9 bits. A table a
    row (512 entries): against shifting and masking the bits row by row, a tenth off every
    puzzle's time."""
    row = np.uint64(0x1FF)
    occ = MINIROWS[w & row] | (MINIROWS[(w >> np.uint64(9)) & row] << np.uint64(3))
    return occ | (MINIROWS[w >> np.uint64(18)] << np.uint64(6))


@njit(cache=True, inline="always")
def _fold(w):
    """The columns of band word ``w`` that hold a candidate: 9 bits."""
    return (w | (w >> np.uint64(9)) | (w >> np.uint64(18))) & np.uint64(0x1FF)


@njit(cache=True, inline="always")
def _band(w):
    """Band word ``w`` less the (row, box) intersections on no permutation; 0 when none is
    left (the digit cannot fill the band)."""
    return w & KEEP[_triads(w)]


# Inlined, as _place and _propagate are, into run: calls cost 6% of a hard puzzle's time
# (_propagate also took a reference on its arrays at every call), and _place, inlined once run
# counts no references (_UNCOUNTED), 8% more.
@njit(cache=True, inline="always")
def _digit(s, d):
    """Triads of digit ``d``'s board, bands and stacks in turn until one of them changes
    nothing (each is idempotent). Returns whether its board may still be completed."""
    at = 3 * d
    w0, w1, w2 = s[at], s[at + 1], s[at + 2]
    seven = np.uint64(7)
    spread = np.uint64(SPREAD)
    first = True
    while True:
        n0, n1, n2 = _band(w0), _band(w1), _band(w2)
        if n0 == 0 or n1 == 0 or n2 == 0:
            return False
        moved = n0 != w0 or n1 != w1 or n2 != w2
        w0, w1, w2 = n0, n1, n2
        if not (moved or first):
            break
        first = False
        c0, c1, c2 = _fold(w0), _fold(w1), _fold(w2)
        k0 = np.uint64(0)
        k1 = np.uint64(0)
        k2 = np.uint64(0)
        for st in range(3):
            sh = np.uint64(3 * st)
            occ = ((c0 >> sh) & seven) | (((c1 >> sh) & seven) << np.uint64(3))
            occ |= ((c2 >> sh) & seven) << np.uint64(6)
            keep = PERM[occ]
            if keep == 0:
                return False
            k0 |= (keep & seven) << sh
            k1 |= ((keep >> np.uint64(3)) & seven) << sh
            k2 |= ((keep >> np.uint64(6)) & seven) << sh
        n0, n1, n2 = w0 & (k0 * spread), w1 & (k1 * spread), w2 & (k2 * spread)
        moved = n0 != w0 or n1 != w1 or n2 != w2
        w0, w1, w2 = n0, n1, n2
        if not moved:
            break
    s[at], s[at + 1], s[at + 2] = w0, w1, w2
    return True


@njit(cache=True, inline="always")
def _place(s, d, b, bit):
    """Place digit ``d`` on the cell ``bit`` of band ``b``: the digit leaves its peers, the
    cell every other digit. Returns the digits whose triads may have changed (bit ``d`` for
    ``d``), or -1 when the cell can no longer hold ``d``."""
    at = 3 * d
    w = s[at + b]
    if not w & bit:
        return -1
    p = trailing_zeros(bit)
    changed = np.int64(1) << np.int64(d)
    s[at + b] = w & ~MATES[p]
    column = COLUMN[p % 9]
    for b2 in range(3):
        if b2 != b:
            s[at + b2] &= ~column
    s[27 + b] |= bit
    minirow = MINIROW[p]
    for e in range(9):
        we = s[3 * e + b]
        if e != d and we & bit:
            we &= ~bit
            s[3 * e + b] = we
            # Its triads see where a digit may go by minirow and by column of the band: while
            # both of the cell's still hold the digit, they have nothing new to say.
            if not (we & minirow and we & column):
                changed |= np.int64(1) << np.int64(e)
    return changed


@njit(cache=True, inline="always")
def _propagate(s, dirty, ctrl):
    """Triads and placements to a fixed point, from the digits in ``dirty`` (bits). Returns
    whether the state may still hold a solution; counts placements in ``ctrl``."""
    one = np.uint64(1)
    full = np.uint64(ALL)
    row = np.uint64(0x1FF)
    while True:
        while dirty:
            d = trailing_zeros(np.uint64(dirty))
            dirty &= dirty - 1
            if not _digit(s, d):
                return False
        for b in range(3):
            once = np.uint64(0)
            twice = np.uint64(0)
            for d in range(9):
                w = s[3 * d + b]
                twice |= once & w
                once |= w
            if once != full:
                return False  # a cell with no candidate left
            single = once & ~twice
            for d in range(9):
                w = s[3 * d + b]
                placed = w & single
                # Its rows with one place left, by table: a test a row cost 7% of a hard
                # puzzle's time (its branches are hard to predict).
                placed |= ALONE[w & row] | (ALONE[(w >> np.uint64(9)) & row] << np.uint64(9))
                placed |= ALONE[w >> np.uint64(18)] << np.uint64(18)
                new = placed & ~s[27 + b]
                while new:
                    bit = new & (~new + one)
                    new ^= bit
                    changed = _place(s, d, b, bit)
                    if changed < 0:
                        return False
                    dirty |= changed
                    ctrl[PROPAGATIONS] += 1
        if not dirty:
            return True


@njit(cache=True, inline="always")
def _pairs(s, b):
    """The cells of band ``b`` with exactly two candidates."""
    once = np.uint64(0)
    twice = np.uint64(0)
    more = np.uint64(0)
    for d in range(9):
        w = s[3 * d + b]
        more |= twice & w
        twice |= once & w
        once |= w
    return twice & ~more


@njit(cache=True)
def _branch_cell(s):
    """The cell to branch on (27 b + bit), or -1 when every cell is placed.

    A cell with two candidates if there is one: of those, the first with the highest score,
    where a cell scores its open peers and, for each of its two digits, the digit's candidates
    in its peers (what placing it clears), twice those in peers with two candidates (each then
    a single) and 2 when the digit has two places left in the cell's row, column or box (the
    other branch then places it too). Against the older order (open peers, then peers with two
    candidates) it tries a fifth fewer nodes on the forum's hardest puzzles, a sixth fewer on
    top1465; a call costs three to four times as much (a tenth of a hard puzzle's time, against
    a thirtieth). Else the first cell with the fewest candidates."""
    if s[27] == ALL and s[28] == ALL and s[29] == ALL:
        return -1
    pairs = (_pairs(s, 0), _pairs(s, 1), _pairs(s, 2))
    if pairs[0] | pairs[1] | pairs[2]:
        best = -1
        score = np.int64(-1)
        one = np.uint64(1)
        for b in range(3):
            left = pairs[b]
            b1 = (b + 1) % 3
            b2 = (b + 2) % 3
            pb = pairs[b]
            p1 = pairs[b1]
            p2 = pairs[b2]
            while left:
                bit = left & (~left + one)
                left ^= bit
                p = trailing_zeros(bit)
                up = np.uint64(p)
                mates = MATES[p]
                col = COLUMN[p % 9]
                rowm = ROW[p]
                boxm = BOX[p]
                # A column's bits in two bands, one shifted a place over, never meet: one
                # popcount counts both. No branch on the digits: their bits, then two lowest.
                n = np.int64(popcount(~s[27 + b] & mates))
                n += np.int64(popcount((~s[27 + b1] & col) | ((~s[27 + b2] & col) << one)))
                digits = np.uint64(0)
                for d in range(9):
                    digits |= ((s[3 * d + b] >> up) & one) << np.uint64(d)
                for _ in range(2):
                    d = trailing_zeros(digits)
                    digits &= digits - one
                    w = s[3 * d + b]
                    c1 = s[3 * d + b1] & col
                    c2 = s[3 * d + b2] & col
                    other = np.int64(popcount(c1 | (c2 << one)))
                    m = w & mates
                    n += np.int64(popcount(m)) + other
                    n += 2 * np.int64(popcount(m & pb))
                    n += 2 * np.int64(popcount((c1 & p1) | ((c2 & p2) << one)))
                    z = (
                        (popcount(w & rowm) == 2)
                        | (popcount(w & boxm) == 2)
                        | (other + np.int64(popcount(w & col)) == 2)
                    )
                    n += 2 * np.int64(z)
                if n > score:
                    score = n
                    best = 27 * b + p
        return best
    best = -1
    fewest = 10
    for b in range(3):  # else the first with the fewest
        open_ = np.uint64(ALL) & ~s[27 + b]
        while open_:
            bit = open_ & (~open_ + np.uint64(1))
            open_ ^= bit
            n = 0
            for d in range(9):
                if s[3 * d + b] & bit:
                    n += 1
            if n < fewest:
                fewest = n
                best = 27 * b + trailing_zeros(bit)
    return best


@njit(cache=True, inline="always")
def _digits_of(s, cell):
    b = cell // 27
    bit = np.uint64(1) << np.uint64(cell % 27)
    left = np.uint64(0)
    for d in range(9):
        if s[3 * d + b] & bit:
            left |= np.uint64(1) << np.uint64(d)
    return left


def _uncounted() -> dict[str, bool]:
    """:func:`run`'s extra compile options: no reference counting of its arrays, where this
    numba has the switch (``_nrt``, an option of numba's own, undocumented: checked, not
    assumed). Counted, every node took and dropped a reference on the state and the control
    words (atomic operations, 5% of a hard puzzle's time); run makes no array, so there is
    nothing to count. Without the option it is compiled as before, only slower."""
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:
        return {}
    return {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


_UNCOUNTED = _uncounted()


@njit(cache=True)
def _record(s, sols, ctrl):
    row = ctrl[IN_BUFFER]
    for d in range(9):
        for b in range(3):
            w = s[3 * d + b]
            while w:
                sols[row, 27 * b + trailing_zeros(w)] = d + 1
                w &= w - np.uint64(1)
    ctrl[IN_BUFFER] = row + 1
    ctrl[FOUND] += 1


@njit(cache=True, **_UNCOUNTED)
def run(digits, packed, frames, frame_cell, frame_left, work, sols, ctrl):
    """Search, or go on searching, until one of the generic kernel's statuses; returns it.

    As :func:`.kernel.run` (``packed``: the cells each digit may take, 27 words, see the module
    docstring); a state here is :data:`WIDTH` words."""
    s = work
    limit = ctrl[LIMIT_AT]
    if ctrl[STARTED] == 0:
        # Loops, not slices: uncounted (_UNCOUNTED), numba assigns no slices.
        for i in range(STARTED):
            ctrl[i] = 0
        ctrl[STARTED] = 1
        for i in range(27):
            s[i] = np.uint64(packed[i]) & np.uint64(ALL)
        for i in range(27, WIDTH):
            s[i] = 0
        for c in range(81):
            g = np.int64(digits[c])
            if g > 9 or (g and _place(s, g - 1, c // 27, np.uint64(1) << np.uint64(c % 27)) < 0):
                ctrl[BACKTRACKS] += 1
                return DONE  # no such digit, or two givens of one digit in a group
        if not _propagate(s, 0x1FF, ctrl):
            ctrl[BACKTRACKS] += 1
            return DONE
        cell = _branch_cell(s)
        if cell < 0:
            _record(s, sols, ctrl)
            return LIMIT if limit and ctrl[FOUND] >= limit else DONE
        for i in range(USED):
            frames[0, i] = s[i]
        frame_cell[0] = cell
        left = _digits_of(s, cell)
        frame_left[0] = left
        ctrl[NODES] += popcount(left)
        ctrl[DEPTH] = 1
    stop = ctrl[NODES] + ctrl[BUDGET]
    depth = ctrl[DEPTH]
    while depth > 0:
        top = depth - 1
        left = frame_left[top]
        if left == 0:
            depth -= 1
            continue
        if depth == frames.shape[0]:
            ctrl[DEPTH] = depth
            return STACK_FULL
        if ctrl[NODES] >= stop:
            ctrl[DEPTH] = depth
            return PAUSED
        bit = left & (~left + np.uint64(1))
        frame_left[top] = left ^ bit
        for i in range(USED):  # a plain loop: the slice copy costs a node 6% more
            s[i] = frames[top, i]
        cell = frame_cell[top]
        changed = _place(s, trailing_zeros(bit), cell // 27, np.uint64(1) << np.uint64(cell % 27))
        if changed < 0 or not _propagate(s, changed, ctrl):
            ctrl[BACKTRACKS] += 1
            continue
        cell = _branch_cell(s)
        if cell < 0:
            _record(s, sols, ctrl)
            if limit and ctrl[FOUND] >= limit:
                ctrl[DEPTH] = depth
                return LIMIT
            if ctrl[IN_BUFFER] == sols.shape[0]:
                ctrl[DEPTH] = depth
                return BUFFER_FULL
            continue
        for i in range(USED):
            frames[depth, i] = s[i]
        frame_cell[depth] = cell
        left = _digits_of(s, cell)
        frame_left[depth] = left
        ctrl[NODES] += popcount(left)
        depth += 1
    ctrl[DEPTH] = 0
    return DONE


FRAMES = 82
"""Stack frames a search of one puzzle needs at most: a branch level places a digit."""

# One search's arrays as slices of one buffer of words (:func:`buffer`), for the entry a caller
# calls once a puzzle (:func:`run_buffer`): numba's dispatch types every argument at every call,
# and four arguments instead of eight save a sixth of a 17-clue puzzle's time.
_AT_PACKED = 0
_AT_FRAMES = _AT_PACKED + 27
_AT_CELL = _AT_FRAMES + FRAMES * WIDTH
_AT_LEFT = _AT_CELL + FRAMES
_AT_STATE = _AT_LEFT + FRAMES
_AT_CTRL = _AT_STATE + WIDTH
BUFFER_WORDS = _AT_CTRL + CTRL_SIZE


def buffer(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A buffer for :func:`run_buffer` with the root's digit boards ``packed`` (27 words), and
    its control words (``ctrl`` of :func:`run`, a view into it) with no node budget."""
    words = np.zeros(BUFFER_WORDS, dtype=np.uint64)
    words[_AT_PACKED:_AT_FRAMES] = np.asarray(packed, dtype=np.int64).astype(np.uint64)
    ctrl = words[_AT_CTRL:].view(np.int64)
    ctrl[BUDGET] = 1 << 62
    return words, ctrl


@njit(cache=True)
def run_buffer(digits, sols, words, limit):
    """:func:`run` of one puzzle from its start, up to ``limit`` solutions, its arrays carved
    from ``words`` (:func:`buffer`); returns the status. The stack is big enough for any
    puzzle, so the status is never STACK_FULL."""
    ctrl = words[_AT_CTRL:].view(np.int64)
    ctrl[STARTED] = 0  # run then clears its counters
    ctrl[LIMIT_AT] = limit
    frames = words[_AT_FRAMES:_AT_CELL].reshape((FRAMES, WIDTH))
    return run(
        digits,
        words[_AT_PACKED:_AT_FRAMES],
        frames,
        words[_AT_CELL:_AT_LEFT].view(np.int64),
        words[_AT_LEFT:_AT_STATE],
        words[_AT_STATE:_AT_CTRL],
        sols,
        ctrl,
    )


@njit(cache=True)
def count_many(puzzles, limit, node_limit, packed, counts_out, first_out, nodes_out):
    """As :func:`.kernel.count_many`, for classic 9x9 puzzles (``packed`` as for :func:`run`)."""
    depth = 64
    frames = np.empty((depth, WIDTH), dtype=np.uint64)
    frame_cell = np.empty(depth, dtype=np.int64)
    frame_left = np.empty(depth, dtype=np.uint64)
    work = np.empty(WIDTH, dtype=np.uint64)
    sols = np.zeros((1, 81), dtype=np.uint8)
    ctrl = np.zeros(CTRL_SIZE, dtype=np.int64)
    ctrl[LIMIT_AT] = limit
    for p in range(puzzles.shape[0]):
        ctrl[STARTED] = 0
        status = BUFFER_FULL
        while status == BUFFER_FULL or status == STACK_FULL:  # noqa: SIM109 (kept simple for numba)
            if status == STACK_FULL:  # 81 placements at most: never in practice
                depth = frames.shape[0]
                grown = np.empty((2 * depth, WIDTH), dtype=np.uint64)
                grown[:depth] = frames
                frames = grown
                grown_cell = np.empty(2 * depth, dtype=np.int64)
                grown_cell[:depth] = frame_cell
                frame_cell = grown_cell
                grown_left = np.empty(2 * depth, dtype=np.uint64)
                grown_left[:depth] = frame_left
                frame_left = grown_left
            if ctrl[NODES] >= node_limit:
                status = PAUSED
                break
            ctrl[BUDGET] = node_limit - ctrl[NODES]
            status = run(puzzles[p], packed, frames, frame_cell, frame_left, work, sols, ctrl)
            if ctrl[FOUND] == 1 and ctrl[IN_BUFFER] == 1:
                first_out[p, :] = sols[0]
            ctrl[IN_BUFFER] = 0
        counts_out[p] = -1 if status == PAUSED else ctrl[FOUND]
        nodes_out[p] = ctrl[NODES]
