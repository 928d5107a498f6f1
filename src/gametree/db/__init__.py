"""Solution databases: solve once, keep forever (``gametree db``; docs/solving.md).

This package is the store and what reads it; the builder that fills it is
:mod:`gametree.builder`, and the player that plays from it :mod:`gametree.play.database`.

* :class:`SolutionDatabase` answers positions from one (``--db FILE`` on the command line; the
  search service probes it first);
* :class:`Database` is the SQLite file itself; :func:`check` verifies one
  (:class:`StoredValuesReport`).
"""

from .answer import Entry, SolutionDatabase
from .check import StoredValuesReport, check
from .store import Database, DatabaseError, Row

__all__ = ["Database", "DatabaseError", "Entry", "Row", "SolutionDatabase", "StoredValuesReport",
           "check"]
