"""Models: the rules of a puzzle as data — which groups of cells must hold different digits.

Vocabulary used throughout the package:

- *cell*: one square of the N×N grid, numbered 0 … N²-1 in reading order (``row * N + col``);
- *digit*: a value 1 … N (0 means a blank cell);
- *group*: a set of N cells that must all hold different digits (a row, a column, a box …);
- *peer*: another cell sharing a group with a cell;
- *given*: a digit fixed by the puzzle; *candidate*: a digit a blank cell may still take.

A model file (TOML) in ``models/`` says which kinds of groups apply::

    description = "Classic Sudoku: each row, column and box holds every digit once"
    groups = ["rows", "columns", "boxes"]     # also "diagonal", "anti-diagonal"
    sizes = [9]                                # optional: the only sizes it fits
    box = "3x2"                                # optional: boxes of 3 rows by 2 columns

    [[windows]]                                # optional extra rectangular groups
    row = 1                                    # top-left cell, counting from 0
    col = 1
    height = 3
    width = 3

    [[cells]]                                  # optional extra groups of listed cells
    cells = [[0, 0], [1, 1], [2, 2]]           # [row, col] pairs, counting from 0

The grid size N comes from the puzzle; boxes are r×c with r·c = N, r ≤ c and r as large as
possible (4 → 2×2, 6 → 2×3, 9 → 3×3, 12 → 3×4), unless the model chooses a shape (``box``,
or ``--box`` on the command line: 6×6 puzzles with 3×2 boxes). Every backend compiles these
groups the same way — one variable per cell, one all-different constraint per group — so adding
a rule set is adding a file, never touching a backend.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .errors import ModelError
from .rules import global_rule

if TYPE_CHECKING:
    from pathlib import Path

    from .rules import Rule

MAX_SIZE = 64
"""The largest grid side accepted anywhere (a 64×64 grid has 4,096 cells)."""

GROUP_KINDS = ("rows", "columns", "boxes", "diagonal", "anti-diagonal", "disjoint")
"""``diagonal`` runs from the top-left corner to the bottom-right, ``anti-diagonal`` from the
top-right to the bottom-left; ``disjoint`` groups the cells at the same place in every box."""
_KNOWN_KEYS = {"description", "groups", "sizes", "windows", "cells", "box", "rules"}


@dataclass(frozen=True)
class Model:
    """A rule set: the kinds of groups, plus any extra windows or listed cell groups.

    >>> classic = load_model("classic")
    >>> len(classic.groups(9)), classic.groups(4)[0]
    (27, (0, 1, 2, 3))
    """

    name: str
    description: str
    group_kinds: tuple[str, ...]
    windows: tuple[tuple[int, int, int, int], ...] = ()
    cell_groups: tuple[tuple[tuple[int, int], ...], ...] = ()
    sizes: tuple[int, ...] | None = None
    path: str | None = field(default=None, compare=False)
    box: tuple[int, int] | None = None
    """The box shape (rows, columns) when the model chooses one; None: :func:`box_shape`."""
    regions: tuple[int, ...] | None = None
    """A puzzle's own regions (jigsaw), a region number 0..N-1 per cell: they replace the
    boxes, and fix the size. None: regular boxes."""
    own: bool = False
    """Made for one puzzle by :meth:`with_rules` (its regions, cages … are the puzzle's own, so
    records write the puzzle with them: see :func:`sudoku_cp.formats.record_form.record_text`)."""
    rules: tuple[Rule, ...] = ()
    """Rules beyond the groups (:mod:`sudoku_cp.rules`): global ones from a model file, and a
    puzzle's own (killer cages …) in the model :meth:`with_rules` makes for it."""

    def __post_init__(self) -> None:
        # A Model made in code gets the group-name check a model file gets (model_from_dict):
        # an unknown kind ("Boxes") or a plain string ("rows") was silently no group at all.
        kinds = self.group_kinds
        if not isinstance(kinds, tuple) or any(k not in GROUP_KINDS for k in kinds):
            raise ModelError(
                f"model '{self.name}': group_kinds must be a tuple of {', '.join(GROUP_KINDS)}, "
                f"not {kinds!r}"
            )

    def __hash__(self) -> int:
        # Computed once: every puzzle's checks look up per-model tables by it. Kept out of
        # pickles (__getstate__), as string hashes differ from one process to the next.
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(
                (
                    self.name,
                    self.description,
                    self.group_kinds,
                    self.windows,
                    self.cell_groups,
                    self.sizes,
                    self.box,
                    self.regions,
                    self.rules,
                )
            )
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    @property
    def uses_boxes(self) -> bool:
        return "boxes" in self.group_kinds

    @property
    def rule_keys(self) -> frozenset[str]:
        """The keys of this model's rules (``killercage``, ``antiknight`` …)."""
        return frozenset(rule.key for rule in self.rules)

    @property
    def relabelling(self) -> bool:
        """Whether renaming the digits keeps every rule (groups always allow it)."""
        return all(rule.relabelling for rule in self.rules)

    def with_rules(
        self,
        *,
        regions: Sequence[int] | None = None,
        groups: Sequence[Sequence[int]] = (),
        rules: Sequence[Rule] = (),
        size: int | None = None,
    ) -> Model:
        """This model with a puzzle's own rules: ``regions`` (a region number per cell,
        replacing the boxes), extra all-different ``groups`` of cells (``row * N + col``) and
        other ``rules``; each checked against the grid's ``size`` (from ``regions`` if given).

        >>> m = load_model("classic").with_rules(regions=[0, 0, 1, 1] * 2 + [2, 2, 3, 3] * 2)
        >>> m.groups(4)[8:], m.label.endswith("classic.toml + regions")
        (((0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15)), True)
        """
        if regions is not None:
            regions = tuple(regions)
            size = _regions_size(regions)
        if size is None:
            raise ModelError("a puzzle's rules need the grid's size")
        extra = []
        for number, cells in enumerate(groups, start=1):
            for cell in cells:
                if not (isinstance(cell, int) and 0 <= cell < size * size):
                    raise ModelError(
                        f"extra group {number}: cell {cell!r} is outside the {size}x{size} grid"
                    )
            extra.append(tuple((cell // size, cell % size) for cell in cells))
        if self.sizes is not None and size not in self.sizes:
            raise ModelError(self.fits(size) or f"size {size} does not fit")
        for rule in rules:
            rule.check(size)
        model = replace(
            self,
            regions=regions if regions is not None else self.regions,
            cell_groups=self.cell_groups + tuple(extra),
            rules=self.rules + tuple(r for r in rules if r not in self.rules),
            sizes=(size,),
            own=True,
        )
        model.check_size(size)
        model.groups(size)  # the groups' own checks (sizes, repeated cells)
        return model

    @property
    def label(self) -> str:
        """The model as records name it: its file or name, and a chosen box shape.

        >>> load_model("classic", box="3x2").label.endswith("classic.toml (boxes 3x2)")
        True
        """
        where = self.path or self.name
        if self.box:
            where = f"{where} (boxes {self.box[0]}x{self.box[1]})"
        extras = ["regions"] if self.regions is not None else []
        extras += sorted(
            {rule.title + "s" if not rule.is_global else rule.title for rule in self.rules}
        )
        return " + ".join([where, *extras])

    def box_for(self, size: int) -> tuple[int, int] | None:
        """The box shape (rows, columns) at ``size``: the chosen one if it fits, else the
        default :func:`box_shape`; None when boxes cannot be drawn at ``size``.

        >>> load_model("classic").box_for(6), load_model("classic", box="3x2").box_for(6)
        ((2, 3), (3, 2))
        """
        if self.box is not None:
            return self.box if self.box[0] * self.box[1] == size else None
        return box_shape(size)

    def with_box(self, box: str | tuple[int, int] | None) -> Model:
        """This model with boxes of another shape (``"3x2"``: 3 rows by 2 columns).

        >>> load_model("classic").with_box("3x2").groups(6)[12]
        (0, 1, 6, 7, 12, 13)
        """
        if box is None:
            return self
        shape = parse_box(box)
        if not self.uses_boxes:
            raise ModelError(
                f"box {shape[0]}x{shape[1]}: model '{self.name}' has no boxes "
                f"(its groups: {', '.join(self.group_kinds) or 'listed cells only'})"
            )
        if self.sizes is not None and shape[0] * shape[1] not in self.sizes:
            raise ModelError(
                f"box {shape[0]}x{shape[1]} fits size {shape[0] * shape[1]}, but model "
                f"'{self.name}' only fits size {', '.join(map(str, self.sizes))}"
            )
        return replace(self, box=shape)

    def fits(self, size: int) -> str | None:
        """Why this model cannot be used at ``size``, or None when it can."""
        if not 1 <= size <= MAX_SIZE:
            return f"size {size} is outside the supported range 1..{MAX_SIZE}"
        if self.sizes is not None and size not in self.sizes:
            allowed = ", ".join(str(s) for s in self.sizes)
            return f"model '{self.name}' only fits size {allowed}, not {size}"
        if self.regions is not None:
            if len(self.regions) != size * size:
                return (
                    f"the regions cover {len(self.regions)} cells, "
                    f"not the {size * size} of a {size}x{size} grid"
                )
        elif self.uses_boxes and self.box is not None and self.box_for(size) is None:
            height, width = self.box
            shapes = box_shapes(size)
            takes = (
                f"a {size}x{size} grid takes boxes {_or_list(shapes)}"
                if shapes
                else f"size {size} has no box shape"
            )
            return (
                f"model '{self.name}' has {height}x{width} boxes, which fit only the "
                f"{height * width}x{height * width} grid ({takes})"
            )
        if self.uses_boxes and self.regions is None and box_shape(size) is None:
            return (
                f"model '{self.name}' needs boxes, and size {size} has no box shape "
                f"(sizes with boxes: {', '.join(str(s) for s in box_sizes(16))}, …)"
            )
        return None

    def check_size(self, size: int) -> None:
        """Raise ``ModelError`` when this model cannot be used at ``size``."""
        reason = self.fits(size)
        if reason:
            raise ModelError(reason)

    def groups(self, size: int) -> tuple[tuple[int, ...], ...]:
        """Every group of cells (cell = row*size + col) that must hold different digits."""
        return _layout(self, size)[0]

    def group_labels(self, size: int) -> tuple[str, ...]:
        """A human name for each group of ``groups(size)``, such as ``row 3`` or ``box 5``."""
        return _layout(self, size)[1]

    def peers(self, size: int) -> tuple[tuple[int, ...], ...]:
        """For each cell, the sorted cells sharing at least one group with it."""
        return _peers(self, size)


@functools.cache
def box_shape(size: int) -> tuple[int, int] | None:
    """Box height and width for a grid of side ``size``, or None if it has no boxes.

    >>> box_shape(9), box_shape(6), box_shape(12), box_shape(7)
    ((3, 3), (2, 3), (3, 4), None)
    """
    for height in range(int(size**0.5), 1, -1):
        if size % height == 0:
            return height, size // height
    return None


def box_shapes(size: int) -> list[tuple[int, int]]:
    """Every box shape (rows, columns) a grid of side ``size`` can be cut into, with at least
    two rows and two columns: the default first.

    >>> box_shapes(6), box_shapes(9), box_shapes(12)
    ([(2, 3), (3, 2)], [(3, 3)], [(3, 4), (4, 3), (2, 6), (6, 2)])
    """
    default = box_shape(size)
    if default is None:
        return []
    others = [
        (h, size // h)
        for h in range(2, size // 2 + 1)
        if size % h == 0 and (h, size // h) != default
    ]
    others.sort(key=lambda shape: (abs(shape[0] - shape[1]), shape[0] > shape[1]))
    return [default, *others]


def parse_box(box: str | tuple[int, int]) -> tuple[int, int]:
    """A box shape from ``"3x2"`` (3 rows by 2 columns; also ``3X2``, ``3×2``) or a pair.

    >>> parse_box("3x2"), parse_box((4, 2))
    ((3, 2), (4, 2))
    >>> parse_box("3")
    Traceback (most recent call last):
    ...
    sudoku_cp.errors.ModelError: box '3': give it as ROWSxCOLUMNS, such as 3x2
    """
    if isinstance(box, str):
        rows, sep, cols = box.strip().lower().replace("×", "x").partition("x")
        rows, cols = rows.strip(), cols.strip()
        # ASCII digits only: str.isdigit also takes '²' and other scripts' digits, which int()
        # refuses (a traceback), and int() refuses more than 4,300 digits.
        if not sep or not all(part.isascii() and part.isdigit() for part in (rows, cols)):
            raise ModelError(f"box {_shown(box)}: give it as ROWSxCOLUMNS, such as 3x2")
        if max(len(rows.lstrip("0")), len(cols.lstrip("0"))) > 6:
            raise ModelError(
                f"box {_shown(box)}: more cells than the largest grid, {MAX_SIZE}x{MAX_SIZE}"
            )
        shape = (int(rows), int(cols))
    elif (
        isinstance(box, tuple | list)
        and len(box) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in box)
    ):
        shape = (box[0], box[1])
    else:
        raise ModelError(f"box {_shown(box)}: give it as ROWSxCOLUMNS, such as 3x2")
    height, width = shape
    if height < 2 or width < 2:
        raise ModelError(f"box {height}x{width}: a box has at least 2 rows and 2 columns")
    if height * width > MAX_SIZE:
        raise ModelError(
            f"box {height}x{width}: {height * width} cells, but the largest grid is "
            f"{MAX_SIZE}x{MAX_SIZE}"
        )
    return shape


def _shown(box: object) -> str:
    """A box value as an error shows it: its repr, cut short when long."""
    text = repr(box)
    return text if len(text) <= 40 else f"{text[:36]}…{text[-3:]}"


def other_box_hint(model: Model, size: int) -> str:
    """For a repeated given in a box: which box shape was read and how to choose another, when
    ``size`` has more than one ('' otherwise)."""
    shape = model.box_for(size)
    others = [s for s in box_shapes(size) if s != shape]
    if shape is None or not others:
        return ""
    first = f"{others[0][0]}x{others[0][1]}"
    return (
        f" (boxes here are {shape[0]}x{shape[1]}, rows by columns; choose another shape with "
        f'--box {_or_list(others)}, or box = "{first}" in a model file)'
    )


def _or_list(shapes: list[tuple[int, int]]) -> str:
    names = [f"{h}x{w}" for h, w in shapes]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def box_sizes(limit: int) -> list[int]:
    """The sizes up to ``limit`` that have boxes."""
    return [n for n in range(2, limit + 1) if box_shape(n) is not None]


@functools.lru_cache(maxsize=256)
def _layout(model: Model, size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    model.check_size(size)
    n = size
    groups: list[tuple[int, ...]] = []
    labels: list[str] = []
    for kind in model.group_kinds:
        if kind == "rows":
            groups += [tuple(r * n + c for c in range(n)) for r in range(n)]
            labels += [f"row {r + 1}" for r in range(n)]
        elif kind == "columns":
            groups += [tuple(r * n + c for r in range(n)) for c in range(n)]
            labels += [f"column {c + 1}" for c in range(n)]
        elif kind == "boxes" and model.regions is not None:
            for number in sorted(set(model.regions)):
                groups.append(tuple(c for c, r in enumerate(model.regions) if r == number))
                labels.append(f"region {number + 1}")
        elif kind == "boxes":
            bh, bw = model.box_for(n)  # type: ignore[misc]  # fits() has checked
            for top in range(0, n, bh):
                for left in range(0, n, bw):
                    groups.append(
                        tuple((top + r) * n + left + c for r in range(bh) for c in range(bw))
                    )
                    labels.append(f"box {top // bh * (n // bw) + left // bw + 1}")
        elif kind == "diagonal":
            groups.append(tuple(i * n + i for i in range(n)))
            labels.append("the diagonal")
        elif kind == "anti-diagonal":
            groups.append(tuple(i * n + (n - 1 - i) for i in range(n)))
            labels.append("the anti-diagonal")
        elif kind == "disjoint":
            shape = model.box_for(n)
            if shape is None:
                raise ModelError(
                    f"model '{model.name}': disjoint groups need boxes, and size {n} has none"
                )
            bh, bw = shape
            for r in range(bh):
                for c in range(bw):
                    groups.append(
                        tuple(
                            (top + r) * n + left + c
                            for top in range(0, n, bh)
                            for left in range(0, n, bw)
                        )
                    )
                    labels.append(f"disjoint group {r * bw + c + 1}")
    for number, (row, col, height, width) in enumerate(model.windows, start=1):
        if row + height > n or col + width > n:
            raise ModelError(
                f"model '{model.name}': window at row {row}, column {col} "
                f"({height}x{width}) does not fit a {n}x{n} grid"
            )
        groups.append(tuple((row + r) * n + col + c for r in range(height) for c in range(width)))
        labels.append(f"window {number}")
    for number, cells in enumerate(model.cell_groups, start=1):
        for row, col in cells:
            if not (0 <= row < n and 0 <= col < n):
                raise ModelError(
                    f"model '{model.name}': cell [{row}, {col}] is outside the {n}x{n} grid"
                )
        groups.append(tuple(row * n + col for row, col in cells))
        labels.append(f"group {number}")
    for rule in model.rules:
        for group, label in rule.groups(n):
            groups.append(group)
            labels.append(label)
    for group, label in zip(groups, labels, strict=True):
        if len(set(group)) != len(group):
            raise ModelError(f"model '{model.name}': {label} lists the same cell twice")
        if len(group) > n:
            raise ModelError(
                f"model '{model.name}': {label}: {len(group)} cells cannot hold different "
                f"digits 1..{n}"
            )
    # The same group twice (a user file repeating a row) would only slow backends down.
    unique = dict(zip(groups, labels, strict=True))
    return tuple(unique), tuple(unique.values())


@functools.lru_cache(maxsize=256)
def _peers(model: Model, size: int) -> tuple[tuple[int, ...], ...]:
    return _peers_of(model.groups(size), size)


@functools.lru_cache(maxsize=256)
def _peers_of(groups: tuple[tuple[int, ...], ...], size: int) -> tuple[tuple[int, ...], ...]:
    # By the groups themselves: the puzzles of one grid with rules of no groups of their own
    # (thermometers, arrows, dots …) each make a model of their own, with the same peers.
    peer_sets: list[set[int]] = [set() for _ in range(size * size)]
    for group in groups:
        for cell in group:
            peer_sets[cell].update(group)
    return tuple(tuple(sorted(s - {cell})) for cell, s in enumerate(peer_sets))


def _packaged_models_dir() -> str:
    # A wheel installs models/ as sudoku_cp/_models; a checkout or editable install
    # has it beside the package. (The package is always a folder on disk — its models are
    # read as files — so its path is enough; importlib.resources would cost start-up ~10 ms
    # of imports: zipfile, lzma, bz2, tempfile. os.path, not pathlib: pathlib costs a plain
    # `solve` ~3 ms of imports, urllib.parse among them.)
    package = os.path.dirname(os.path.realpath(__file__))
    packaged = os.path.join(package, "_models")
    if os.path.isfile(os.path.join(packaged, "classic.toml")):
        return packaged
    return os.path.join(os.path.dirname(package), "models")


_MODELS_DIR = _packaged_models_dir()


def __getattr__(name: str) -> Any:
    # MODELS_DIR, the folder of the shipped models, is a Path: made when first asked for.
    if name == "MODELS_DIR":
        from pathlib import Path

        return Path(_MODELS_DIR)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def model_names() -> list[str]:
    """Names of the shipped models, sorted."""
    return sorted(
        name.removesuffix(".toml") for name in os.listdir(_MODELS_DIR) if name.endswith(".toml")
    )


def load_model(
    name_or_path: str | Path | Model = "classic", box: str | tuple[int, int] | None = None
) -> Model:
    """A shipped model by name (``classic``, ``x``, ``hyper``, ``latin``) or a TOML file's path;
    ``box`` (``"3x2"``: 3 rows by 2 columns) chooses the box shape.

    >>> load_model("latin").group_kinds
    ('rows', 'columns')
    """
    if isinstance(name_or_path, Model):
        return name_or_path.with_box(box)
    text = str(name_or_path)
    looks_like_path = text.endswith(".toml") or "/" in text or "\\" in text
    if not looks_like_path:
        return _load_shipped(text).with_box(box)
    from pathlib import Path  # (here: a shipped model's path is plain text)

    return _load_file(Path(text)).with_box(box)


@functools.lru_cache(maxsize=64)
def _load_shipped(name: str) -> Model:
    path = os.path.join(_MODELS_DIR, f"{name}.toml")
    if not os.path.isfile(path):
        raise ModelError(f"unknown model '{name}' (known models: {', '.join(model_names())})")
    return _load_file(path, name=name)


MAX_MODEL_BYTES = 1 << 20
"""The largest model file read (1 MiB): a 64x64 model listing every cell of every group is
under 100 kB; a bigger file (``--model /dev/zero``) is refused after reading this much."""


def _load_file(path: str | Path, name: str | None = None) -> Model:
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_MODEL_BYTES + 1)
    except FileNotFoundError:
        raise ModelError(f"model file not found: {path}") from None
    except IsADirectoryError:
        raise ModelError(f"model file is a directory: {path}") from None
    except OSError as err:
        raise ModelError(f"cannot read model file {path}: {err.strerror}") from None
    if len(raw) > MAX_MODEL_BYTES:
        raise ModelError(
            f"model file {path} is larger than the cap of {MAX_MODEL_BYTES:,} bytes "
            "(a model file is a few lines of TOML)"
        )
    try:
        text = raw.decode("utf-8-sig")  # a BOM (Windows editors) is not TOML
    except UnicodeDecodeError:
        raise ModelError(f"model file {path} is not UTF-8 text") from None
    import tomllib  # (here, not at the top: a command that reads no model file skips ~3 ms)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ModelError(f"model file {path} is not valid TOML: {err}") from None
    except RecursionError:  # tomllib reads nested arrays recursively: within the cap, 1000s deep
        raise ModelError(
            f"model file {path} is not a model: its arrays or tables are nested too deeply"
        ) from None
    return _from_file_data(data, path, name)


def _from_file_data(data: dict, path: str | Path, name: str | None) -> Model:
    if not name:  # (a user's file: it came as a Path)
        from pathlib import PurePath

        name = PurePath(path).stem
    return model_from_dict(data, name=name, path=str(path))


def model_from_dict(data: dict, *, name: str, path: str | None = None) -> Model:
    """Build a model from the parsed contents of a model file, checking every field."""
    where = path or name
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise ModelError(
            f"model {where}: unknown key(s) {', '.join(unknown)} "
            f"(known keys: {', '.join(sorted(_KNOWN_KEYS))})"
        )
    description = data.get("description", "")
    if not isinstance(description, str):
        raise ModelError(f"model {where}: 'description' must be a string")
    kinds = data.get("groups", [])
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        raise ModelError(f"model {where}: 'groups' must be a list of group names")
    bad = [k for k in kinds if k not in GROUP_KINDS]
    if bad:
        raise ModelError(
            f"model {where}: unknown group name(s) {', '.join(repr(b) for b in bad)} "
            f"(known: {', '.join(GROUP_KINDS)})"
        )
    sizes = data.get("sizes")
    if sizes is not None and (
        not isinstance(sizes, list)
        or not sizes
        or not all(
            isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= MAX_SIZE for s in sizes
        )
    ):
        raise ModelError(f"model {where}: 'sizes' must be a list of sizes 1..{MAX_SIZE}")
    for key, what in (("windows", "[[windows]] tables"), ("cells", "[[cells]] tables")):
        if not isinstance(data.get(key, []), list):
            raise ModelError(f"model {where}: '{key}' must be a list of {what}")
    windows = []
    for i, win in enumerate(data.get("windows", []), start=1):
        keys = ("row", "col", "height", "width")
        if (
            not isinstance(win, dict)
            or set(win) != set(keys)
            or not all(isinstance(win[k], int) and not isinstance(win[k], bool) for k in keys)
        ):
            raise ModelError(
                f"model {where}: window {i} must have integer row, col, height and width"
            )
        if win["row"] < 0 or win["col"] < 0 or win["height"] < 1 or win["width"] < 1:
            raise ModelError(f"model {where}: window {i} has a negative position or empty size")
        windows.append(tuple(win[k] for k in keys))
    cell_groups = []
    for i, entry in enumerate(data.get("cells", []), start=1):
        cells = entry.get("cells") if isinstance(entry, dict) else None
        if (
            not isinstance(cells, list)
            or not cells
            or not all(
                isinstance(c, list)
                and len(c) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in c)
                for c in cells
            )
        ):
            raise ModelError(f"model {where}: cell group {i} must be 'cells = [[row, col], …]'")
        cell_groups.append(tuple((r, c) for r, c in cells))
    box = data.get("box")
    if box is not None:
        if not isinstance(box, str):
            raise ModelError(f"model {where}: 'box' must be a string such as \"3x2\"")
        try:
            box = parse_box(box)
        except ModelError as err:
            raise ModelError(f"model {where}: {err}") from None
        if "boxes" not in kinds:
            raise ModelError(f"model {where}: 'box' needs \"boxes\" in its groups")
        if sizes and box[0] * box[1] not in sizes:
            raise ModelError(
                f"model {where}: {box[0]}x{box[1]} boxes fit size {box[0] * box[1]}, "
                "which 'sizes' leaves out"
            )
    names = data.get("rules", [])
    if not isinstance(names, list) or not all(isinstance(k, str) for k in names):
        raise ModelError(f"model {where}: 'rules' must be a list of rule names")
    rules = tuple(dict.fromkeys(global_rule(key, f"model {where}") for key in names))
    if not kinds and not windows and not cell_groups:
        raise ModelError(f"model {where}: no groups (a model needs at least one group)")
    model = Model(
        name=name,
        description=description,
        group_kinds=tuple(kinds),
        windows=tuple(windows),
        cell_groups=tuple(cell_groups),
        sizes=tuple(sizes) if sizes else None,
        path=path,
        box=box,
        rules=rules,
    )
    for row, col, *_ in windows:
        if sizes and all(row >= s or col >= s for s in sizes):
            raise ModelError(f"model {where}: a window starts outside the grid")
    return model


def _regions_size(regions: tuple[int, ...]) -> int:
    """The grid side of a region number per cell, checking the regions: N of N cells each."""
    size = math.isqrt(len(regions))
    if size * size != len(regions) or not 1 <= size <= MAX_SIZE:
        raise ModelError(
            f"regions: {len(regions)} cells is not a square grid up to {MAX_SIZE}x{MAX_SIZE}"
        )
    for cell, number in enumerate(regions):
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < size:
            raise ModelError(
                f"regions: r{cell // size + 1}c{cell % size + 1} is in region {number!r}, "
                f"not one of 0..{size - 1}"
            )
    for number in range(size):
        count = regions.count(number)
        if count != size:
            raise ModelError(
                f"regions: region {number + 1} has {count} cells, not {size} "
                f"(each of the {size} regions of a {size}x{size} grid has {size} cells)"
            )
    return size
