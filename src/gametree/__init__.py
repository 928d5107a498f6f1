"""gametree: game-tree search for Python.

Describe a game by implementing :class:`Game`, then search it::

    >>> import gametree
    >>> tree = gametree.GameTree.from_leaves("3 5 2 9 12 5 23 23")
    >>> gametree.search(tree).value
    12
    >>> gametree.minimax(tree).value      # the textbook algorithm, step by step
    12

:func:`search` is the one way front-ends search: it takes :class:`SearchOptions` and picks the
tier (the compiled engine when the game has a kernel); see :mod:`gametree.service`.
"""

from typing import TYPE_CHECKING

from .game import (
    CHANCE,
    ChanceError,
    ContractError,
    Game,
    GameError,
    IllegalMoveError,
    PositionError,
    Probability,
    TooDeepError,
)
from .games.tree import GameTree, load_tree
from .lazy import lazy_names
from .options import EngineTuning, SearchOptions
from .result import MoveValue, SearchResult, SearchStats
from .service import SearchSession, SessionBusyError, iterate, search, solve_batch, tier_for
from .trace import TraceEvent, Tracer, format_log
from .values import WIN, Outcome, Value

if TYPE_CHECKING:
    from .check import CheckReport, check_game
    from .reference import alphabeta, minimax, negamax

__version__ = "0.1.0"

_LAZY = {"CheckReport": "check", "check_game": "check", "alphabeta": "reference",
         "minimax": "reference", "negamax": "reference"}
"""Names whose module is imported on first use: checking a game needs much code that a
search does not (a third of a ``gametree solve``'s own imports), and a compiled search none of
the reference algorithms."""


__getattr__ = lazy_names(__name__, _LAZY, globals())
"""The names of :data:`_LAZY`, imported on first use."""

__all__ = [
    "CHANCE",
    "WIN",
    "ChanceError",
    "CheckReport",
    "ContractError",
    "EngineTuning",
    "Game",
    "GameError",
    "GameTree",
    "IllegalMoveError",
    "MoveValue",
    "Outcome",
    "PositionError",
    "Probability",
    "SearchOptions",
    "SearchResult",
    "SearchSession",
    "SearchStats",
    "SessionBusyError",
    "TooDeepError",
    "TraceEvent",
    "Tracer",
    "Value",
    "__version__",
    "alphabeta",
    "check_game",
    "format_log",
    "iterate",
    "load_tree",
    "minimax",
    "negamax",
    "search",
    "solve_batch",
    "tier_for",
]
