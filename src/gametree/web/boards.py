"""Positions as data for the pages: who is to move, whether the game is over, and the game's
own description of the position (:meth:`gametree.game.Game.view`), which the pages draw.

Nothing here knows a particular game: a game that declares no view is drawn as its text with
its moves as a list, so every game the server offers can be played in the browser.
"""

from __future__ import annotations

from typing import Any

from ..game import Game, is_chance


def position_json(game: Game[Any, Any], state: Any, last: Any = None) -> dict[str, Any]:
    """Everything a page needs to draw ``state`` and offer its moves: the view's JSON form
    (``docs/json.md``, "Positions") plus ``players``, ``to_move``, ``to_move_name``, ``over``,
    ``winner`` and ``result``; where chance moves (``to_move`` is -1), ``chance: true`` and
    ``chance_outcomes`` (each outcome's ``text``, exact ``probability`` and float ``weight``),
    ``to_move_name`` naming the player who rolls. ``last``: the move that led to ``state``, if
    known (the view may mark it)."""
    outcome = game.outcome(state)
    names = list(game.player_names)
    mover = game.to_move(state)
    rolling = is_chance(game, state)
    winner = None
    if outcome is not None and outcome != 0:
        winner = names[0 if outcome > 0 else 1]
    view = game.view(state, last)
    document = view.to_dict()
    if outcome is not None:
        document["moves"] = []  # a finished game offers no move, whatever its view says
    if rolling:  # chance moves: the page rolls the dice with these probabilities
        document["chance"] = True
        document["chance_outcomes"] = [
            {"text": game.format_move(state, move), "probability": str(probability),
             "weight": float(probability)} for move, probability in game.chance_outcomes(state)]
    document.update({
        "players": names,
        "to_move": mover,
        "to_move_name": names[game.turn(state) if rolling else mover],
        "over": outcome is not None,
        "winner": winner,
        "result": None if outcome is None else ("draw" if outcome == 0 else f"{winner} won"),
    })
    return document
