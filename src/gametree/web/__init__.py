"""``gametree serve``: the browser front-end (play, explain, analyse) and its JSON API.

A front-end like the command line: it builds games and positions through the registry, searches
through :func:`gametree.search`, and answers with the same JSON objects as ``--json``
(``docs/json.md``). Searches run in worker processes (:mod:`gametree.web.pool`), so that a long
compiled search, which holds its process's interpreter lock, never stalls the server.

* :mod:`~gametree.web.limits` — the server's limits (time, depth, trace length, sizes, pool).
* :mod:`~gametree.web.requests` — the API's request models, made from the search options'
  declarations, and the jobs they ask for (through :mod:`gametree.frontend`, which the
  command line shares; the web imports nothing of the command line).
* :mod:`~gametree.web.jobs` — one search, as the worker process runs it.
* :mod:`~gametree.web.boards` — positions as data for the pages' SVG boards.
* :mod:`~gametree.web.worker`, :mod:`~gametree.web.pool` — the worker processes and the
  bounded queue in front of them.
* :mod:`~gametree.web.api`, :mod:`~gametree.web.app` — the routes and the application.
"""

from __future__ import annotations

from .limits import ServerLimits

__all__ = ["ServerLimits"]
