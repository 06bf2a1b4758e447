"""Checkable uniqueness certificates: a DRAT proof, checked by an independent checker, that a
puzzle has no solution but the one found (or none at all).

- :mod:`.cnf`: the certificates' own small CNF encoder of a puzzle (not the ``sat`` backend's);
- :mod:`.proof`: CaDiCaL (PySAT) writes the proof, dratify checks it;
- :mod:`.certificate`: making, storing and verifying a certificate from scratch;
- :mod:`.batch`: ``check --certify DIR``, in the worker processes.

Needs the ``certify`` extra (``pip install 'sudoku-cp[certify]'``: dratify, pure Python).
"""

from .certificate import CertificateError, Made, load, make, store, verify
from .cnf import Formula, Unencodable, encode
from .proof import CertifyUnavailable

__all__ = [
    "CertificateError",
    "CertifyUnavailable",
    "Formula",
    "Made",
    "Unencodable",
    "encode",
    "load",
    "make",
    "store",
    "verify",
]
