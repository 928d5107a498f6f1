"""Solution databases: solve once, keep forever (``gametree db``; docs/solving.md).

* :func:`build` makes (or continues) a database: a whole game by retrograde analysis, or an
  opening book whose frontier is solved by the compiled engine on a local process pool or Ray;
* :class:`SolutionDatabase` answers positions from one (``--db FILE`` on the command line);
* :class:`Database` is the SQLite file itself; :func:`check` verifies one.
"""

from .answer import DatabaseOpponent, Entry, SolutionDatabase
from .build import BuildReport, build
from .check import CheckReport, check
from .store import Database, DatabaseError, Row

__all__ = ["BuildReport", "CheckReport", "Database", "DatabaseError", "DatabaseOpponent",
           "Entry", "Row", "SolutionDatabase", "build", "check"]
