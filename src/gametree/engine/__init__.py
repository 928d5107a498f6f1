"""The engine: the fast search people play against and solve games with.

Negamax with fail-soft alpha-beta, a bounded transposition table, move ordering (table move,
the game's hint, killer moves, history), principal variation search, iterative deepening,
exact solving with exact distances, and depth / node / time limits — for any game that follows
the :class:`~gametree.Game` contract. See ``docs/engine.md``.

Quick use::

    >>> from gametree import GameTree
    >>> from gametree.engine import Engine
    >>> tree = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    >>> Engine(tree).search().value
    12
"""

from ..limits import Limits
from ..result import StopReason
from .engine import Engine
from .report import Iteration
from .search import SearchStopped
from .table import TableEntry, TableStats, TranspositionTable
from .zobrist import Zobrist

__all__ = [
    "Engine",
    "Iteration",
    "Limits",
    "SearchStopped",
    "StopReason",
    "TableEntry",
    "TableStats",
    "TranspositionTable",
    "Zobrist",
]
