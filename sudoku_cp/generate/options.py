"""What to generate: the options of one run, each checked against its cap.

One frozen, picklable object: worker processes get it once, and every puzzle of a run is made
from it and its index alone (so the output does not depend on ``--jobs``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SudokuError
from ..limits import MAX_SEED
from .counting import LARGE_FROM
from .difficulty import LEVELS, level_named, parse_er
from .symmetry import SYMMETRIES

MAX_COUNT = 1_000_000
"""Puzzles one run may ask for."""
MAX_SIZE = 25
"""The largest grid generated. Above 16x16 (:data:`.counting.LARGE_FROM`) grids come from a
moved pattern and every count has a small node budget (:mod:`.counting`): classic only, not
minimal, not rated. A 25x25 takes about 8 s in one process; 36x36 was not tried."""
MAX_ATTEMPTS = 100_000
"""Fresh grids one puzzle may try for its targets (clues, minimality, difficulty)."""
MAX_SECONDS = 86_400.0
"""The longest one puzzle may search for its targets (a day)."""
MAX_SCORE = 1_000_000
"""The highest ``--score`` taken (HoDoKu scores: a stalled rating adds 10,000 to a few
thousand at most)."""
MARK_VARIANTS = (
    "thermo",
    "kropki",
    "xv",
    "arrow",
    "little-killer",
    "sandwich",
    "skyscraper",
    "x-sum",
    "odd-even",
    "min-max",
    "renban",
    "whispers",
    "palindrome",
    "between",
    "clone",
    "quadruple",
    "slow-thermo",
    "entropic",
    "modular",
    "nabner",
    "zipper",
    "double-arrow",
    "lockout",
)
"""Rules drawn from the solution (:mod:`.marks`), with givens or (``--givens none``) without."""
GLOBAL_VARIANTS = ("antiknight", "antiking", "nonconsecutive")
"""Global rules: the solution is drawn under them, then givens carved."""
VARIANTS = ("none", "jigsaw", "killer", "killer-givens", *MARK_VARIANTS, *GLOBAL_VARIANTS)
"""``none``: the model's own groups; ``jigsaw``: random regions replace the boxes;
``killer``: random cages and no givens; ``killer-givens``: cages and a minimal set of givens;
the marks and global rules above. ``--variant`` takes one, or several joined by commas
(``thermo,arrow``, ``jigsaw,antiknight``): marks and global rules combine with each other and
with jigsaw regions; ``none``, ``killer`` and ``killer-givens`` stand alone."""
ALONE = ("none", "killer", "killer-givens")
ALONE_MARKS = ("arrow", "thermo", "quadruple", "kropki")
"""Marks that fix a 9x9 solution without givens often enough for ``--givens none`` (random
9x9 layouts fixed by the drawn marks and their reserve, seed 1: arrow 10 of 10, quadruple
6 of 6, thermo 5 of 10, kropki 2 of 6; sandwich, min-max, renban, whispers and between 0 of
5–6, little killer none in a minute; odd-even, palindrome, clone and the global rules never
can, as swapping digits of one parity, or any renaming, keeps them). Others combine with
one of these."""
NO_GRID = {("antiking", 4), ("nonconsecutive", 4)}
"""(rule, size): no grid of that size with 2x2 boxes satisfies the global rule (a test proves
each by two paradigms), so it is refused at once rather than after every attempt."""


class OptionError(SudokuError):
    """An option out of range or contradicting another."""


@dataclass(frozen=True)
class Options:
    model: str = "classic"
    size: int = 9
    box: str | None = None
    variant: str = "none"
    seed: int = 0
    symmetry: str = "none"
    clues: tuple[int, int] | None = None
    minimal: bool = False
    difficulty: str | None = None
    score: tuple[int, int | None] | None = None
    """A range of HoDoKu scores (:mod:`.difficulty`)."""
    rate: bool = True
    """Rate every puzzle for its record (a ``--difficulty``/``--score`` target rates anyway);
    off where nothing shows the rating (one-puzzle-a-line and grid outputs), as it can cost
    more than making the puzzle."""
    attempts: int = 1000
    seconds: float = 60.0
    time_limit: float = 60.0
    """Per backend per puzzle in the final cross-check."""
    backends: tuple[str, ...] | None = None
    certify: str | None = None
    givens: str | None = None
    """``some`` (carve givens over the rules), ``none`` (rules alone fix the solution);
    None: ``none`` for ``killer``, ``some`` for everything else."""
    scale: str = "hodoku"
    """The rating's scale (``--scale``): ``hodoku`` (``difficulty`` a level) or ``se``
    (Sudoku Explainer's, classic 9x9 only; ``difficulty`` an ER range, :attr:`er_range`)."""

    @property
    def er_range(self) -> tuple[float, float] | None:
        """``--scale se --difficulty``'s ER range (None without one)."""
        if self.scale != "se" or self.difficulty is None:
            return None
        return parse_er(self.difficulty)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The parts of ``--variant``: ``"thermo,arrow"`` → ``("thermo", "arrow")``."""
        return tuple(part.strip() for part in self.variant.split(","))

    @property
    def marks(self) -> tuple[str, ...]:
        return tuple(k for k in self.kinds if k in MARK_VARIANTS)

    @property
    def no_givens(self) -> bool:
        """Whether the puzzle has no givens (its rules alone fix the solution)."""
        return self.givens == "none" or self.kinds == ("killer",)

    @property
    def has_rules(self) -> bool:
        """Whether the puzzles carry rules beyond all-different groups."""
        return any(k not in ("none", "jigsaw") for k in self.kinds)

    def check(self) -> None:
        """Raise :class:`OptionError` naming the first option out of range."""
        if not 4 <= self.size <= MAX_SIZE:
            raise OptionError(f"--size {self.size}: generate takes sizes 4 to {MAX_SIZE}")
        if self.size >= LARGE_FROM:
            large = _large_refusal(self)
            if large:
                raise OptionError(f"--size {self.size}: above 16 generate takes {large}")
        self._check_variant()
        if self.symmetry not in SYMMETRIES:
            raise OptionError(f"--symmetry {self.symmetry}: choose from {', '.join(SYMMETRIES)}")
        if not 0 <= self.seed <= MAX_SEED:
            raise OptionError(f"--seed {self.seed}: must be from 0 to {MAX_SEED}")
        if not 1 <= self.attempts <= MAX_ATTEMPTS:
            raise OptionError(f"--attempts {self.attempts}: must be from 1 to {MAX_ATTEMPTS:,}")
        if not 0 < self.seconds <= MAX_SECONDS:
            raise OptionError(
                f"--max-seconds {self.seconds:g}: must be above 0, at most {MAX_SECONDS:,.0f}"
            )
        if not 0 < self.time_limit <= MAX_SECONDS:
            raise OptionError(
                f"--time-limit {self.time_limit:g}: must be above 0, at most {MAX_SECONDS:,.0f}"
            )
        cells = self.size * self.size
        if self.clues is not None:
            low, high = self.clues
            if not 0 <= low <= high <= cells:
                raise OptionError(f"--clues {low}-{high}: must be a range within 0..{cells}")
            if self.no_givens:
                raise OptionError(
                    f"--clues: --variant {self.variant} with no givens has no clues to count"
                )
        if self.scale == "se":
            self._check_se()
        elif self.scale != "hodoku":
            raise OptionError(f"--scale {self.scale}: choose hodoku or se")
        elif self.difficulty is not None and level_named(self.difficulty) is None:
            raise OptionError(
                f"--difficulty {self.difficulty}: choose from {', '.join(LEVELS)} (or give "
                "--scale se and an ER range, e.g. 7.1-8.0)"
            )
        if self.difficulty is not None and self.score is not None:
            raise OptionError("--difficulty and --score contradict each other; give one")
        if self.score is not None:
            low, top = self.score
            if low < 0 or (top is not None and top < low):
                raise OptionError(f"--score {low}-{top}: not a range of scores")
            if low > MAX_SCORE or (top is not None and top > MAX_SCORE):
                raise OptionError(f"--score {low}-{top}: scores go up to {MAX_SCORE:,}")
        if self.variant == "killer" and self.minimal:
            raise OptionError("--minimal: --variant killer has no givens to make minimal")
        if self.no_givens and self.symmetry != "none":
            raise OptionError(
                f"--symmetry: --variant {self.variant} with no givens has none to be symmetric"
            )

    def _check_se(self) -> None:
        """``--scale se``: an ER range for ``--difficulty``, no ``--score`` (HoDoKu's), and a
        classic 9x9 puzzle (the model itself is checked by :func:`.make.base_model`)."""
        if self.score is not None:
            raise OptionError(
                "--score is HoDoKu's score; with --scale se give --difficulty an ER range "
                "(e.g. 7.1-8.0)"
            )
        if self.difficulty is not None:
            try:
                parse_er(self.difficulty)
            except ValueError as err:
                raise OptionError(f"--scale se --difficulty {self.difficulty}: {err}") from None
        if self.size != 9 or self.variant != "none":
            what = f"--size {self.size}" if self.size != 9 else f"--variant {self.variant}"
            raise OptionError(
                f"--scale se: SE's scale rates classic 9x9 puzzles only, not {what} "
                "(the hodoku scale rates variants and other sizes)"
            )

    def _check_variant(self) -> None:
        kinds = self.kinds
        for kind in kinds:
            if kind not in VARIANTS:
                raise OptionError(
                    f"--variant {self.variant}: {kind!r} is not one of {', '.join(VARIANTS)}"
                )
        if len(set(kinds)) != len(kinds):
            raise OptionError(f"--variant {self.variant}: a kind is named twice")
        alone = [k for k in kinds if k in ALONE]
        if alone and len(kinds) > 1:
            raise OptionError(
                f"--variant {self.variant}: {alone[0]} does not combine with other kinds "
                "(marks, global rules and jigsaw do)"
            )
        if "jigsaw" in kinds and any(k in GLOBAL_VARIANTS for k in kinds):
            raise OptionError(
                f"--variant {self.variant}: jigsaw does not combine with global rules (random "
                "regions seldom admit a grid under them; none was found in minutes)"
            )
        if "kropki" in kinds and "nonconsecutive" in kinds:
            raise OptionError(
                f"--variant {self.variant}: f-puzzles reads 'nonconsecutive' beside kropki "
                "dots as the dots' negative constraint, so the two cannot be written together"
            )
        if self.givens not in (None, "some", "none"):
            raise OptionError(f"--givens {self.givens}: choose some or none")
        if self.givens is None:
            return
        if kinds == ("killer",) and self.givens == "some":
            raise OptionError("--givens some: use --variant killer-givens for cages with givens")
        if kinds == ("killer-givens",) and self.givens == "none":
            raise OptionError("--givens none: use --variant killer for cages without givens")
        if self.givens == "none" and kinds != ("killer",):
            alone = [k for k in self.marks if k in ALONE_MARKS]
            if not alone:
                raise OptionError(
                    f"--givens none: --variant {self.variant} cannot fix a solution without "
                    f"givens often enough; add one of {', '.join(ALONE_MARKS)}"
                )


def _large_refusal(options: Options) -> str:
    """What a grid above 16x16 cannot have, or "" (see :data:`MAX_SIZE`)."""
    if options.model != "classic" or options.variant != "none":
        return "--model classic with no --variant (grids drawn from a pattern of boxes)"
    if options.minimal:
        return "no --minimal (its counts have a node budget: a proof needs exact ones)"
    if options.difficulty is not None or options.score is not None:
        return "no --difficulty or --score (the rating is not tuned beyond 16x16)"
    return ""


def parse_range(text: str, what: str) -> tuple[int, int]:
    """``"25"`` → (25, 25), ``"22-26"`` → (22, 26); a one-line error otherwise.

    >>> parse_range("22-26", "--clues"), parse_range("30", "--clues")
    ((22, 26), (30, 30))
    """
    low, sep, high = text.strip().partition("-")
    try:
        first = int(low)
        last = int(high) if sep else first
    except ValueError:
        raise OptionError(f"{what} {text!r}: expected N or LOW-HIGH (whole numbers)") from None
    if last < first or first < 0:
        raise OptionError(f"{what} {text!r}: LOW must be at most HIGH, both at least 0")
    return first, last
