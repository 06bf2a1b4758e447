"""The ``--scheduler`` option before any cluster is used: its value read
(:func:`parse_scheduler`), ``dask.distributed`` required with how to install it
(:func:`require_dask`), and an address where nothing listens refused at once
(:func:`refuse_if_nothing_listens`). Plain Python: :mod:`.cluster` (which imports Dask) and
the command line use it."""

from __future__ import annotations

import os
import re
from typing import Any

from ..errors import SudokuError
from .pool import max_jobs

PROBE_SECONDS = 3.0
"""How long :func:`refuse_if_nothing_listens` waits for a TCP answer before leaving the
address to Dask (a slow network is Dask's to wait for, within ``cluster.CONNECT_SECONDS``)."""


def refuse_if_nothing_listens(address: str) -> None:
    """Raise :class:`SudokuError` at once when the host of a ``tcp://`` or ``tls://`` scheduler
    address refuses a TCP connection on its port (nothing listens there: a wrong port, or the
    scheduler not started), where Dask would retry for ``cluster.CONNECT_SECONDS`` first. Any
    other outcome (connected, slow, a name that does not resolve) is left to Dask's own
    connect and its message."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is no number: Dask's message says so
        return
    if parts.scheme not in ("tcp", "tls") or not host or port is None:
        return
    try:
        socket.create_connection((host, port), timeout=PROBE_SECONDS).close()
    except ConnectionRefusedError:
        raise SudokuError(
            f"--scheduler {address}: cannot use the cluster: nothing listens on port {port} of "
            f"{host} (connection refused: is the scheduler started, and on that port?)"
        ) from None
    except OSError:
        return


INSTALL_HINT = "pip install 'sudoku-cp[dask]'"
_ADDRESS = re.compile(r"^(tcp|tls|ucx|inproc)://[^\s/]+$")
ANY_SCHEME_ENV = "SUDOKU_CP_ANY_SCHEDULER_SCHEME"
"""Set to 1 (as ``--any-scheduler-scheme`` does) to take a ``tls://``, ``ucx://`` or
``inproc://`` scheduler: each needs Dask settings of its own (certificates, UCX, the same
process), and without them the connection failed only after 40 s. ``tcp://`` and ``local:N``
are taken without it."""


def parse_scheduler(text: str) -> tuple[str, int | str]:
    """``local:N`` → ``("local", N)``; ``tcp://HOST:PORT`` (or ``tls://``) → ``("address",
    text)``; SudokuError naming the value otherwise, or N outside 1 to the jobs cap.

    >>> parse_scheduler("local:2"), parse_scheduler("tcp://10.0.0.5:8786")
    (('local', 2), ('address', 'tcp://10.0.0.5:8786'))
    """
    value = text.strip()
    if value.lower().startswith("local:"):
        count = value.partition(":")[2]
        cap = max_jobs()
        if not count.isdigit() or not 1 <= int(count) <= cap:
            raise SudokuError(
                f"--scheduler {text}: local:N needs N, the worker processes to start, "
                f"from 1 to {cap}"
            )
        return "local", int(count)
    if _ADDRESS.match(value):
        scheme = value.partition("://")[0]
        if scheme != "tcp" and os.environ.get(ANY_SCHEME_ENV, "") not in ("1", "yes", "true"):
            raise SudokuError(
                f"--scheduler {text}: only tcp:// addresses (and local:N) are taken; a "
                f"{scheme}:// scheduler needs Dask settings of its own ("
                + {
                    "tls": "certificates in distributed.comm.tls",
                    "ucx": "the ucx-py transport installed",
                    "inproc": "a scheduler in this very process",
                }[scheme]
                + "): give --any-scheduler-scheme to try it"
            )
        return "address", value
    raise SudokuError(
        f"--scheduler {text}: expected a scheduler address such as tcp://HOST:8786, "
        "or local:N to start N worker processes here"
    )


def require_dask() -> Any:
    """The ``distributed`` module; SudokuError saying how to install it when it is missing."""
    try:
        import distributed
    except ImportError:
        raise SudokuError(
            f"--scheduler needs dask.distributed, which is not installed: {INSTALL_HINT}"
        ) from None
    return distributed
