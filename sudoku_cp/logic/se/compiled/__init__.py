"""SE's producers compiled (numba, the ``jit`` extra): the rater's speed door.

The plain producers (:mod:`..rules`, :mod:`..uniqueness`, :mod:`..chains`) are the reference;
each compiled producer here finds the same first step on the same grid, and
``tests/test_se_compiled.py`` checks that on every grid of many rating paths. Nothing here is
imported by ``import sudoku_cp`` or by the plain rater: :mod:`.door` loads it when numba is
installed and the door is on.

The contract every compiled producer keeps, as ``driver.call(p, values, cands, out)`` asks
producer ``p`` (its index in ``rating.PRODUCERS``; each producer is one of a few generic
searches with its parameters, so that each search is compiled once):

- ``values`` int64[81] (0 an empty cell), ``cands`` int64[81] (SE's masks: bit ``d`` set for
  digit ``d``, 0 for a filled cell), ``out`` int64[:data:`OUT_SIZE`], written only when a
  step is found;
- it returns the first step's difficulty (float64), or 0.0 when the producer has none;
- ``out[0]`` the step's name as an index into ``driver.NAMES[p]`` (the plain step's name,
  character for character), ``out[1]`` the placed cell or -1, ``out[2]`` the placed digit,
  ``out[3]`` how many removals, then each removal as ``(cell, mask)`` from ``out[4]`` on, in the
  plain step's order.
"""

OUT_SIZE = 4 + 2 * 729
"""A step's record: name, placement (cell, digit), removal count, then (cell, mask) pairs."""
