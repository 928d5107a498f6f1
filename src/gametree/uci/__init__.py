"""``gametree uci``: gametree's chess as a UCI engine, for chess GUIs and python-chess.

The Universal Chess Interface is a line protocol on standard input and output: the GUI sends
``uci``, ``isready``, ``position ...``, ``go ...``, ``stop``; the engine answers ``uciok``,
``readyok``, ``info ...`` lines while it searches and one ``bestmove`` per ``go``. This package
speaks it over the chess game (:mod:`gametree.games.chess`) and the search service:

* :mod:`~gametree.uci.commands` reads a command's words into values;
* :mod:`~gametree.uci.clock` decides how long a move may take from the clock;
* :mod:`~gametree.uci.options` declares the engine's options (Hash, Depth, Level, ...);
* :mod:`~gametree.uci.engine` is the engine: the input loop, the search thread, the output.

See ``docs/uci.md`` (how to add the engine to a GUI).
"""

from .engine import ChessBridge, UciEngine, run_uci

__all__ = ["ChessBridge", "UciEngine", "run_uci"]
