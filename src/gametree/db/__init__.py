"""Solution databases: solve once, keep forever (``gametree db``; docs/solving.md).

This package is the store and what reads it; the builder that fills it is
:mod:`gametree.builder`, and the player that plays from it :mod:`gametree.play.database`.

* :class:`SolutionDatabase` answers positions from one (``--db FILE`` on the command line; the
  search service probes it first);
* :class:`Database` is the SQLite file itself; :func:`check` verifies one
  (:class:`StoredValuesReport`).

The names are imported on first use: a search asks :mod:`gametree.db.books` whether a book
covers its game, which needs SQLite only when one may.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .answer import Entry, SolutionDatabase
    from .check import StoredValuesReport, check
    from .store import Database, DatabaseError, Row

_LAZY = {"Entry": "answer", "SolutionDatabase": "answer", "StoredValuesReport": "check",
         "check": "check", "Database": "store", "DatabaseError": "store", "Row": "store"}
"""Each name's module."""


__getattr__ = lazy_names(__name__, _LAZY, globals())
"""The names of :data:`_LAZY`, imported on first use."""


__all__ = ["Database", "DatabaseError", "Entry", "Row", "SolutionDatabase", "StoredValuesReport",
           "check"]
