"""The reference algorithms: minimax, alpha-beta and negamax as the textbooks write them.

They are the oracle every faster search in gametree is tested against, so they favour being
obviously right over being fast.
"""

from .alphabeta import alphabeta
from .minimax import minimax
from .negamax import negamax

__all__ = ["alphabeta", "minimax", "negamax"]
