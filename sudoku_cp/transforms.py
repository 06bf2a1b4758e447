"""Transforms that keep a puzzle the same puzzle: cells moved by a permutation, digits renamed.

A *transform* maps a grid ``g`` to ``g'`` with ``g'[cells[i]] = digits[g[i]]``: every cell moves
to a new place and every digit gets a new name (0, a blank, stays blank). When the permutation
of cells maps every group of the model onto a group of the model, the transformed puzzle has
exactly as many solutions as the original, and :meth:`Transform.back` maps each of its solutions
onto a solution of the original. That is what metamorphic testing relies on: a backend must give
the same answer for a puzzle and for each of its transforms (``sudoku-cp check --metamorphic K``).

The moves offered are the usual Sudoku symmetries — swap two rows within a band, two bands, two
columns within a stack, two stacks, reverse the rows or the columns, transpose — plus the same
swap of rows and of columns (also at mirrored positions, which keeps both diagonals). None is
assumed to fit a model: each candidate is kept only when it maps every group of
``model.groups(size)`` onto a group, so each model gets exactly the moves that preserve it —
``latin`` any two rows or columns, ``x`` reversals, transpose and mirrored swaps of rows with
the same columns, ``hyper`` also the swaps that keep its windows (rows 2,3 or 7,8), and 6×6
classic no transpose (it would turn 2×3 boxes into 3×2 ones). Relabelling the digits preserves
every model. :func:`move_kinds` lists what a model gets.

>>> from sudoku_cp import Puzzle
>>> puzzle = Puzzle.parse("1.....1.........")
>>> swap = next(t for t in moves(puzzle.model, 4) if t.name == "swap rows 1,2")
>>> swap.puzzle(puzzle).to_line()
'..1.1...........'
>>> swap.back(swap.apply(puzzle.cells)) == puzzle.cells
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .model import Model, load_model
from .puzzle import Grid, Puzzle
from .rules import Rule

Line = tuple[int, ...]
"""A permutation of the rows (or columns) 0..N-1: line ``i`` moves to ``line[i]``."""


@dataclass(frozen=True)
class Transform:
    """A permutation of the cells plus a renaming of the digits, with the steps that made it.

    ``cells[i]`` is where cell ``i`` moves; ``digits[d]`` is the new name of digit ``d``
    (``digits[0] == 0``). ``steps`` names the moves in the order applied, for messages.
    """

    size: int
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    steps: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The steps in order, e.g. ``relabel 123456789→364197825 · swap rows 4,5 · transpose``."""
        return " · ".join(self.steps) or "identity"

    @functools.cached_property
    def _sources(self) -> tuple[int, ...]:
        # Where each new cell comes from: apply() reads the grid once, in output order.
        sources = [0] * len(self.cells)
        for cell, target in enumerate(self.cells):
            sources[target] = cell
        return tuple(sources)

    def apply(self, grid: Sequence[int]) -> Grid:
        """The transformed grid: each cell moved, each digit renamed."""
        digits = self.digits
        return tuple(digits[grid[source]] for source in self._sources)

    def puzzle(self, puzzle: Puzzle) -> Puzzle:
        """The transformed puzzle, under its transformed model (:func:`moved_model`: its own
        regions and cages moved with the cells); ValueError for a transform the model does
        not allow (one :func:`moves` never offers)."""
        model = moved_model(puzzle.model, puzzle.size, self)
        if model is None:
            raise ValueError(f"the transform [{self.name}] does not keep {puzzle.model.label}")
        return Puzzle(self.apply(puzzle.cells), model)

    @property
    def relabels(self) -> bool:
        """Whether this transform renames any digit."""
        return self.digits != tuple(range(self.size + 1))

    @property
    def moves_cells(self) -> bool:
        """Whether this transform moves any cell."""
        return self.cells != tuple(range(self.size * self.size))

    def inverse(self) -> Transform:
        """The transform that undoes this one."""
        digits = [0] * len(self.digits)
        for digit, new in enumerate(self.digits):
            digits[new] = digit
        return Transform(self.size, self._sources, tuple(digits), (f"undo ({self.name})",))

    def back(self, grid: Sequence[int]) -> Grid:
        """A grid of the transformed puzzle (a solution) mapped back onto the original."""
        digits = self.inverse().digits
        cells = self.cells
        return tuple(digits[grid[cells[cell]]] for cell in range(len(cells)))

    def then(self, other: Transform) -> Transform:
        """This transform followed by ``other``."""
        return Transform(
            self.size,
            tuple(other.cells[target] for target in self.cells),
            tuple(other.digits[new] for new in self.digits),
            self.steps + other.steps,
        )


def identity(size: int) -> Transform:
    """The transform that changes nothing."""
    return Transform(size, tuple(range(size * size)), tuple(range(size + 1)))


def relabel(size: int, new_names: Sequence[int] | range) -> Transform:
    """Rename digit ``d`` (1..N) to ``new_names[d - 1]``; cells stay where they are.

    >>> relabel(4, [2, 1, 3, 4]).apply((1, 2, 0, 4) + (0,) * 12)[:4]
    (2, 1, 0, 4)
    """
    new_names = tuple(new_names)
    if sorted(new_names) != list(range(1, size + 1)):
        raise ValueError(f"a relabelling is a permutation of 1..{size}, not {list(new_names)}")
    shown = _digits_text(range(1, size + 1), size) + "→" + _digits_text(new_names, size)
    return Transform(size, tuple(range(size * size)), (0, *new_names), (f"relabel {shown}",))


def _digits_text(digits: Sequence[int] | range, size: int) -> str:
    from .formats import SYMBOLS

    if size <= len(SYMBOLS):
        return "".join(SYMBOLS[d - 1] for d in digits)
    return ",".join(map(str, digits))


def _geometric(size: int, rows: Line, cols: Line, transpose: bool, name: str) -> Transform:
    """Row ``r`` moves to ``rows[r]``, column ``c`` to ``cols[c]``, then an optional transpose."""
    cells = []
    for r in range(size):
        for c in range(size):
            row, col = rows[r], cols[c]
            if transpose:
                row, col = col, row
            cells.append(row * size + col)
    return Transform(size, tuple(cells), tuple(range(size + 1)), (name,))


# --- the candidate moves ---------------------------------------------------------------------
def _swap(size: int, pairs: Sequence[tuple[int, int]]) -> Line:
    line = list(range(size))
    for a, b in pairs:
        line[a], line[b] = line[b], line[a]
    return tuple(line)


def _block_swap(size: int, height: int, i: int, j: int) -> Line:
    line = list(range(size))
    for k in range(height):
        line[i * height + k], line[j * height + k] = j * height + k, i * height + k
    return tuple(line)


def _lines(size: int, height: int | None) -> list[tuple[str, str, Line, Line | None]]:
    """Line permutations worth trying: (kind, numbers, the permutation, its mirrored twin).

    ``kind`` is ``swap lines``, ``swap blocks`` or ``reverse``; ``numbers`` the 1-based lines or
    blocks swapped. The mirrored twin also swaps the lines at the mirrored positions (N-1-a for
    a): alone it is just two swaps, but applied to rows and columns alike it keeps both diagonals.
    """
    found: list[tuple[str, str, Line, Line | None]] = []
    for a in range(size):
        for b in range(a + 1, size):
            ma, mb = size - 1 - b, size - 1 - a  # the mirror of the pair, ordered
            twin = _swap(size, [(a, b), (ma, mb)]) if {ma, mb}.isdisjoint({a, b}) else None
            numbers = f"{a + 1},{b + 1}" + (f" and {ma + 1},{mb + 1}" if twin else "")
            found.append(("swap lines", numbers, _swap(size, [(a, b)]), twin))
    if height and 1 < height < size:
        blocks = size // height
        for i in range(blocks):
            for j in range(i + 1, blocks):
                mi, mj = blocks - 1 - j, blocks - 1 - i
                line = _block_swap(size, height, i, j)
                twin = None
                if {mi, mj}.isdisjoint({i, j}):
                    second = _block_swap(size, height, mi, mj)
                    twin = tuple(second[line[k]] for k in range(size))
                numbers = f"{i + 1},{j + 1}" + (f" and {mi + 1},{mj + 1}" if twin else "")
                found.append(("swap blocks", numbers, line, twin))
    found.append(("reverse", "", tuple(range(size - 1, -1, -1)), None))
    return found


_NAMES = {  # kind of line move -> (kind for people, name pattern) for rows, columns, both
    ("swap lines", "rows"): ("swap two rows", "swap rows {}"),
    ("swap blocks", "rows"): ("swap two bands", "swap bands {}"),
    ("reverse", "rows"): ("reverse the rows", "reverse the rows"),
    ("swap lines", "columns"): ("swap two columns", "swap columns {}"),
    ("swap blocks", "columns"): ("swap two stacks", "swap stacks {}"),
    ("reverse", "columns"): ("reverse the columns", "reverse the columns"),
    ("swap lines", "both"): ("swap two rows and the same columns", "swap rows and columns {}"),
    ("swap blocks", "both"): ("swap two bands and the same stacks", "swap bands and stacks {}"),
    ("swap lines", "twin"): (
        "swap mirrored pairs of rows and the same columns",
        "swap rows and columns {}",
    ),
    ("swap blocks", "twin"): (
        "swap mirrored pairs of bands and the same stacks",
        "swap bands and stacks {}",
    ),
}


def _candidates(size: int, shape: tuple[int, int] | None) -> list[tuple[str, Transform]]:
    """Every move worth trying, as (kind, transform); duplicates dropped."""
    same = tuple(range(size))
    height, width = shape if shape else (None, None)
    found: list[tuple[str, Transform]] = []

    def add(kind: str, axis: str, numbers: str, rows: Line, cols: Line) -> None:
        people, pattern = _NAMES[(kind, axis)]
        found.append((people, _geometric(size, rows, cols, False, pattern.format(numbers))))

    for kind, numbers, line, _ in _lines(size, height):
        add(kind, "rows", numbers.split(" and ")[0], line, same)
    for kind, numbers, line, _ in _lines(size, width):
        add(kind, "columns", numbers.split(" and ")[0], same, line)
    if height == width:  # the same move on rows and columns: only square boxes can keep it
        for kind, numbers, line, twin in _lines(size, height):
            if kind != "reverse":  # reversing both is a half turn: reverse rows, then columns
                add(kind, "both", numbers.split(" and ")[0], line, line)
            if twin is not None:
                add(kind, "twin", numbers, twin, twin)
    found.append(("transpose", _geometric(size, same, same, True, "transpose")))
    unique: dict[tuple[int, ...], tuple[str, Transform]] = {}
    for kind, move in found:
        unique.setdefault(move.cells, (kind, move))
    return list(unique.values())


def _fixed_part(model: Model) -> Model:
    """The part of ``model`` that stays where it is: the groups its kinds and windows draw on
    the base grid (rows, columns, boxes — unless a puzzle's own regions replace them —
    diagonals, disjoint groups) and its global rules. The rest — regions, listed cell groups,
    cages — belongs to cells and moves with them."""
    kinds = model.group_kinds
    if model.regions is not None:
        kinds = tuple(kind for kind in kinds if kind != "boxes")
    return replace(
        model,
        group_kinds=kinds,
        regions=None,
        cell_groups=(),
        rules=tuple(rule for rule in model.rules if rule.is_global),
        sizes=None,
    )


def preserves(model: Model, size: int, cells: Sequence[int]) -> bool:
    """True when the cell permutation keeps ``model`` at ``size``: it maps every group of the
    base grid (rows, columns, boxes, diagonals, windows …) onto such a group and keeps every
    global rule (anti-knight …) in place. A puzzle's own regions and cages need not map onto
    themselves: they move with the cells (:func:`moved_model`).

    >>> classic, same = load_model("classic"), (0, 1, 2, 3)
    >>> preserves(classic, 4, _geometric(4, (1, 0, 2, 3), same, False, "rows 1,2").cells)
    True
    >>> preserves(classic, 4, _geometric(4, (2, 1, 0, 3), same, False, "rows 1,3").cells)
    False
    >>> from sudoku_cp.rules import AntiKnight
    >>> knights = classic.with_rules(rules=[AntiKnight()], size=9)
    >>> kept = {t.name: preserves(knights, 9, t.cells) for _, t in _candidates(9, (3, 3))}
    >>> [kept[name] for name in ("swap rows 1,2", "swap bands 1,2", "reverse the rows")]
    [False, False, True]
    """
    fixed = _fixed_part(model)
    groups = fixed.groups(size)
    known = {frozenset(group) for group in groups}
    if not all(frozenset(cells[c] for c in group) in known for group in groups):
        return False
    return all(rule.moved(cells, size) is not None for rule in fixed.rules)


def reverses_digits(model: Model, size: int) -> bool:
    """Whether ``model`` allows only the reversal d → N+1-d among renamings of the digits:
    when some rule forbids renaming but every rule survives the reversal (non-consecutive
    keeps |a-b| = 1, a killer cage's sum S over k cells becomes k·(N+1) - S, a thermometer
    runs the other way — each rule's :meth:`~sudoku_cp.rules.Rule.reversed` says)."""
    return not model.relabelling and all(rule.reversed(size) is not None for rule in model.rules)


def moved_model(model: Model, size: int, transform: Transform) -> Model | None:
    """``model`` after ``transform``: its regions, listed groups and cages moved with the
    cells (cage sums complemented when the digits are reversed); None when a global rule or a
    group of the base grid is not kept by the move, or the digits are renamed in a way a rule
    does not allow."""
    where = transform.cells
    if not preserves(model, size, where):
        return None
    digits = transform.digits
    if digits != tuple(range(size + 1)):
        reversed_ = digits == (0, *range(size, 0, -1))
        if not (model.relabelling or (reversed_ and reverses_digits(model, size))):
            return None
    else:
        reversed_ = False
    regions = model.regions
    if regions is not None:
        moved_regions = [0] * len(regions)
        for cell, number in enumerate(regions):
            moved_regions[where[cell]] = number
        regions = tuple(moved_regions)
    cell_groups = tuple(
        tuple(divmod(where[row * size + col], size) for row, col in group)
        for group in model.cell_groups
    )
    rules: list[Rule] = []
    for rule in model.rules:
        moved = rule.moved(where, size)
        if moved is None:
            return None
        if reversed_:
            moved = moved.reversed(size)
            if moved is None:
                return None
        rules.append(moved)
    return replace(model, regions=regions, cell_groups=cell_groups, rules=tuple(rules))


def _shape(model: Model, size: int) -> tuple[int, int] | None:
    """The box shape whose bands and stacks are worth swapping (None: no boxes drawn)."""
    drawn = (model.uses_boxes and model.regions is None) or "disjoint" in model.group_kinds
    return model.box_for(size) if drawn else None


def _offered(model: Model | str, size: int) -> tuple[tuple[str, Transform], ...]:
    rules = load_model(model)
    rules.check_size(size)
    # Puzzles of one jigsaw or killer file each have their own model, but the same fixed
    # part: the moves are worked out once for it.
    return _offered_fixed(_fixed_part(rules), _shape(rules, size), size)


@functools.lru_cache(maxsize=64)
def _offered_fixed(
    fixed: Model, shape: tuple[int, int] | None, size: int
) -> tuple[tuple[str, Transform], ...]:
    return tuple(
        (kind, move)
        for kind, move in _candidates(size, shape)
        if preserves(fixed, size, move.cells)
    )


def moves(model: Model | str, size: int) -> tuple[Transform, ...]:
    """Every candidate move (no relabelling) that keeps ``model`` at ``size``: its base groups
    onto base groups, its global rules in place (its own regions and cages move along).

    >>> [t.name for t in moves("hyper", 9)][:4]
    ['swap rows 2,3', 'swap rows 7,8', 'reverse the rows', 'swap columns 2,3']
    >>> from sudoku_cp.rules import AntiKing
    >>> kings = load_model("classic").with_rules(rules=[AntiKing()], size=9)
    >>> [t.name for t in moves(kings, 9)]
    ['reverse the rows', 'reverse the columns', 'transpose']
    """
    return tuple(move for _, move in _offered(model, size))


RELABEL = "relabel digits"
REVERSE = "reverse the digits"
DIGITS_KEPT = "digits kept (a rule forbids renaming them)"


def digit_kind(model: Model | str, size: int) -> str:
    """How the transforms of ``model`` rename digits, for people: :data:`RELABEL` (any
    renaming), :data:`REVERSE` (only d → N+1-d) or :data:`DIGITS_KEPT` (none).

    >>> from sudoku_cp.rules import AntiKing, Cage, NonConsecutive
    >>> classic = load_model("classic")
    >>> # (a cage forbids renaming even without a sum: the rule's kind decides, not the cage)
    >>> [digit_kind(classic.with_rules(rules=[rule], size=4), 4) for rule in (AntiKing(),
    ...  NonConsecutive(), Cage((0, 1), 3), Cage((0, 1)))]
    ['relabel digits', 'reverse the digits', 'reverse the digits', 'reverse the digits']
    """
    rules = load_model(model)
    if rules.relabelling:
        return RELABEL
    return REVERSE if reverses_digits(rules, size) else DIGITS_KEPT


def move_kinds(model: Model | str, size: int) -> list[str]:
    """The kinds of moves offered for ``model`` at ``size``, for people (digits first).

    >>> move_kinds("classic", 6)
    ['relabel digits', 'swap two rows', 'swap two bands', 'reverse the rows', \
'swap two columns', 'swap two stacks', 'reverse the columns']
    >>> from sudoku_cp.rules import NonConsecutive
    >>> move_kinds(load_model("classic").with_rules(rules=[NonConsecutive()], size=9), 9)
    ['reverse the digits', 'reverse the rows', 'reverse the columns', 'transpose']
    """
    kinds = [digit_kind(model, size)]
    for kind, _ in _offered(model, size):
        if kind not in kinds:
            kinds.append(kind)
    return kinds


def random_transform(
    model: Model | str, size: int, rng: random.Random, max_moves: int = 4
) -> Transform:
    """A random renaming of the digits (as far as ``model`` allows it) followed by 1 to
    ``max_moves`` random moves that keep ``model``.

    >>> t = random_transform("x", 9, random.Random(1))
    >>> t.steps[0].startswith("relabel") and preserves(load_model("x"), 9, t.cells)
    True
    """
    kind = digit_kind(model, size)
    if kind == RELABEL:
        names = list(range(1, size + 1))
        rng.shuffle(names)
        transform = relabel(size, names)
    elif kind == REVERSE and rng.random() < 0.5:
        transform = relabel(size, range(size, 0, -1))
    else:
        transform = identity(size)
    offered = moves(model, size)
    if offered:
        for _ in range(rng.randint(1, max_moves)):
            transform = transform.then(rng.choice(offered))
    return transform


def transforms_for(puzzle: Puzzle, count: int, seed: int | str = 0) -> list[Transform]:
    """``count`` random transforms of ``puzzle``, the same for the same puzzle and seed.

    The choice depends on the seed and the puzzle's givens only (not on its position in a
    file), so a resumed or reordered run checks every puzzle with the same transforms.
    """
    rng = random.Random(f"{seed}/{puzzle.model.name}/{puzzle.to_line()}")
    return [random_transform(puzzle.model, puzzle.size, rng) for _ in range(count)]


__all__ = [
    "DIGITS_KEPT",
    "RELABEL",
    "REVERSE",
    "Transform",
    "digit_kind",
    "identity",
    "move_kinds",
    "moved_model",
    "moves",
    "preserves",
    "random_transform",
    "relabel",
    "reverses_digits",
    "transforms_for",
]
