"""gametree: game-tree search for Python.

Describe a game by implementing :class:`Game`, then search it::

    >>> from gametree import GameTree, minimax
    >>> tree = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    >>> minimax(tree).value
    12
"""

from .check import CheckReport, check_game
from .game import ContractError, Game, GameError, IllegalMoveError, PositionError
from .games.tree import GameTree, load_tree
from .reference import alphabeta, minimax, negamax
from .result import MoveValue, SearchResult, SearchStats
from .trace import TraceEvent, Tracer, format_log
from .values import WIN, Outcome, Value

__version__ = "0.1.0"

__all__ = [
    "WIN",
    "CheckReport",
    "ContractError",
    "Game",
    "GameError",
    "GameTree",
    "IllegalMoveError",
    "MoveValue",
    "Outcome",
    "PositionError",
    "SearchResult",
    "SearchStats",
    "TraceEvent",
    "Tracer",
    "Value",
    "__version__",
    "alphabeta",
    "check_game",
    "format_log",
    "load_tree",
    "minimax",
    "negamax",
]
