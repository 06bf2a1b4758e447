"""The ``backtrack`` backend's compiled kernels (numba, optional: the ``jit`` extra).

- :mod:`.glue` — the only module here that imports no numba: whether a kernel runs, its tables
  in numpy arrays, the calls that drive it, and the kept :class:`~.glue.Solver`;
- :mod:`.generic` — the pure search's own algorithm compiled, for every model of groups;
- :mod:`.classic` — classic 9x9 on per-digit bitboards (its own search);
- :mod:`.learn` — the search of grids above 16x16 that learns nogoods from its dead ends, on
  :mod:`.nogoods` (its state and nogood store) and :mod:`.analysis` (its analysis of a dead
  end).

Importing this package imports no numba; its modules but the glue do.
"""
