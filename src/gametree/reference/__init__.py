"""The reference algorithms: minimax, alpha-beta, negamax and expectiminimax as the textbooks
write them.

They are the oracle every faster search in gametree is tested against, so they favour being
obviously right over being fast.
"""

from .alphabeta import alphabeta
from .expectiminimax import expectiminimax
from .minimax import minimax
from .negamax import negamax

__all__ = ["alphabeta", "expectiminimax", "minimax", "negamax"]
