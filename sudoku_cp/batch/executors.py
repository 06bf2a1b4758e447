"""The executor of a batch, by where it runs: above both pools, so that neither imports the
other (:mod:`.pool`, this machine's worker processes; :mod:`.cluster`, a Dask cluster, imported
only when a scheduler is named: dask is an optional dependency)."""

from __future__ import annotations

from typing import Any, TypeVar

from .pool import Work, WorkerPool

U = TypeVar("U")
R = TypeVar("R")


def open_pool(
    work: Work[U, R],
    jobs: int,
    time_limit: float | None,
    scheduler: str | None = None,
    info: dict[str, Any] | None = None,
) -> Any:
    """The executor of a batch: this machine's pool of ``jobs`` worker processes, or with
    ``scheduler`` (``tcp://HOST:PORT`` or ``local:N``) a Dask cluster
    (:mod:`sudoku_cp.batch.cluster`). Either has ``run(units, hold)``. ``info``, when given,
    is filled with what the experiment record says of the executor (for Dask, once connected:
    the scheduler and its workers)."""
    if scheduler is None:
        if info is not None:
            info.update(executor="local", jobs=jobs)
        return WorkerPool(work, jobs, time_limit)
    from .cluster import DaskPool  # dask is imported only for a cluster

    return DaskPool(work, scheduler, time_limit, info)
