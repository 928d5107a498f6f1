"""Search values and thinking effort in words for the person at the board."""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..result import MoveValue
from ..values import win_probability
from .opponent import Decision


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


def effort(decision: Decision[Any]) -> str:
    """How hard the search looked: ``to the end, 5,478 nodes, 0.12 s``."""
    if decision.result.algorithm == "database":
        return "from the database, no search"
    reach = "to the end" if decision.complete or decision.depth is None else (
        f"depth {decision.depth}")
    return f"{reach}, {decision.nodes:,} nodes, {decision.seconds:.2f} s"
