"""Search values and thinking effort in words for the person at the board.

Every value the terminal shows (the engine's view after its move, ``hint``, ``scores``,
``replay``) is on one scale, the one of :mod:`gametree.values`, and says what it is: exact (a
proven ``win in N plies``, ``loss in N plies`` or ``draw``, or an explicit tree's number), or
an estimate, then with ``heuristic, depth N`` and why the search stopped there (docs/play.md,
"Reading the values").
"""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..result import MoveValue
from ..values import plies_text, win_probability
from .opponent import Decision

VALUES_HELP = (
    "Values are for the side named, on one scale: 'win in N plies' and 'loss in N plies' "
    "(a ply is one player's move) and 'draw' are exact, proven; 'estimate +N' is the game's "
    "heuristic (its evaluate(), in the game's own units: more is better for that side) where "
    "the search stopped, 'heuristic, depth N' plies ahead, with why it stopped."
)
"""What ``help`` says about the values (docs/play.md has the long form)."""


def decision_value(decision: Decision[Any], game: Game[Any, Any] | None = None) -> str:
    """The value of a decision's root, seen from the player to move there (``win in 3
    plies``, ``draw``, ``estimate +2``: :meth:`gametree.SearchResult.value_text`); in a game
    with chance on the scale -1 .. 1 (Pig), with the win probability it stands for
    (``expected 0.428, win probability 71%``)."""
    text = decision.result.value_text(units=True)
    if game is None or not decision.result.chance:
        return text
    chance = win_probability(decision.result.value, game.value_bounds())
    return text if chance is None else f"{text}, win probability {chance:.0%}"


def move_value(decision: Decision[Any], entry: MoveValue[Any]) -> str:
    """One root move's value from a decision, ``at most ...``/``at least ...`` when it is only
    a bound."""
    return decision.result.move_text(entry, units=True)


def reading(decision: Decision[Any]) -> str:
    """What a decision's root value is, and why: ``exact``, ``exact, from the opening book``,
    or ``heuristic, depth 22: its time ran out`` (:meth:`gametree.SearchResult.reading`; at a
    level, the level's own depth is the cause)."""
    level = decision.choice.level if decision.choice is not None else None
    cause = None
    if level is not None and level.depth is not None and decision.result.stats.stopped_by is None:
        cause = f"level {level.number} looks {plies_text(level.depth)} ahead"
    return str(decision.result.reading(root_only=True, depth=decision.depth, cause=cause))


def effort(decision: Decision[Any]) -> str:
    """How hard the search looked: ``5,478 nodes, 0.12 s`` (``no search`` for a database's
    answer)."""
    if decision.result.algorithm == "database":
        return "no search"
    return f"{decision.nodes:,} nodes, {decision.seconds:.2f} s"


def level_note(decision: Decision[Any], best_text: str) -> str:
    """What a level's choice was when it was not the best move (``best_text``): ``level 3
    chose this by its softmax; the best was 4``; empty otherwise."""
    choice = decision.choice
    if choice is None or choice.how == "best":
        return ""
    how = "at random (a blunder)" if choice.how == "blunder" else "by its softmax"
    return f"level {choice.level.number} chose this {how}; the best was {best_text}"
