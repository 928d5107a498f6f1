"""The database builder: a front-end that fills a solution database (``gametree db build``;
docs/solving.md).

:func:`build` takes a :class:`BuildRequest` — the game, the positions (a whole game, or an
opening book to N plies), the :class:`~gametree.SearchOptions` of the book's frontier search and
a :class:`BuildPlan` (workers, executor, transactions) — and returns a :class:`BuildReport`.
A whole game is valued by retrograde analysis (:mod:`gametree.solvers.retrograde`); a book's
frontier is solved through the search service on a local process pool or on Ray
(:mod:`gametree.builder.executors`). The store itself is :mod:`gametree.db`.
"""

from .build import build
from .request import DEFAULT_BATCH, FLUSH_SECONDS, BuildPlan, BuildReport, BuildRequest

__all__ = ["DEFAULT_BATCH", "FLUSH_SECONDS", "BuildPlan", "BuildReport", "BuildRequest", "build"]
