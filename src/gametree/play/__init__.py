"""Playing against the computer in the terminal (``gametree play``).

* :class:`PlaySession` runs one game as a conversation over text streams.
* :class:`Opponent` is how the computer chooses its moves; :class:`SearchOpponent` does it with
  the search service (:mod:`gametree.service`: fixed depth, a time budget, or to the end).
"""

from .lines import LineSource, StreamLines, TerminalLines
from .opponent import Decision, Opponent, SearchOpponent
from .session import COMMANDS, EXIT_INTERRUPTED, EXIT_OK, PlaySession
from .style import Style, wants_color

__all__ = [
    "COMMANDS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "Decision",
    "LineSource",
    "Opponent",
    "PlaySession",
    "SearchOpponent",
    "StreamLines",
    "Style",
    "TerminalLines",
    "wants_color",
]
