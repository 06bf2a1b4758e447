"""The ``backtrack`` backend's compiled kernels (numba, optional: the ``jit`` extra).

- :mod:`.glue` — whether a kernel runs and the calls that drive it (the classic door
  included); :mod:`.solver` the kept :class:`~.solver.Solver` on top of it;
- :mod:`.model_tables` — a model's groups and rules in the generic kernel's numpy arrays
  (its sequence rules' automata: :mod:`.sequence_tables`);
- :mod:`.generic` — the pure search's own algorithm compiled, for every model of groups, with
  its rules' propagators in :mod:`.propagators` and :mod:`.sequence_propagators`;
- :mod:`.classic` — classic 9x9 on per-digit bitboards (its own search);
- :mod:`.learn` — the search of grids above 16x16 that learns nogoods from its dead ends, on
  :mod:`.nogoods` (its state and nogood store) and :mod:`.analysis` (its analysis of a dead
  end).

Importing this package imports no numba; its modules but the glue and the tables do.
"""
