"""Developer measurement scripts (``python -m tools.perf.NAME``): they time the package's
own parts against each other and against the bare libraries, and print ratios. They are tools
for the people working on sudoku-cp, not part of the product; tests never assert their times.
The user-facing comparison of paradigms is ``sudoku-cp bench`` (:mod:`sudoku_cp.bench`)."""
