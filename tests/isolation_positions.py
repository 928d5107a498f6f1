"""Positions for the kernel-isolation test, the same in every process that asks for them.

Each game's positions come from seeded random playouts stopped where the Python tier still
solves them quickly, so that every compiled value can be checked against it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gametree import Game
from gametree.games.connect4 import ConnectFour
from gametree.games.tictactoe import MNKGame

GAMES: dict[str, Callable[[], Game[Any, Any]]] = {
    "connect4-7x6": lambda: ConnectFour(7, 6),
    "connect4-4x4": lambda: ConnectFour(4, 4),
    "connect4-5x4": lambda: ConnectFour(5, 4),
    "tictactoe-3x3": lambda: MNKGame(3, 3, 3),
    "tictactoe-3x4": lambda: MNKGame(3, 4, 3),
    "tictactoe-4x4-k3": lambda: MNKGame(4, 4, 3),
}
"""Three kernels of each of two rules factories (issue 9 asks for at least three)."""

PLIES: dict[str, int] = {
    "connect4-7x6": 32, "connect4-4x4": 4, "connect4-5x4": 9,
    "tictactoe-3x3": 1, "tictactoe-3x4": 3, "tictactoe-4x4-k3": 6,
}
"""Random moves played before a position is taken (fewer would make the Python tier slow)."""

COUNT = 12
"""Positions per game."""


def positions(name: str, game: Game[Any, Any]) -> list[Any]:
    """``COUNT`` unfinished positions of ``game``, from playouts seeded by ``name``."""
    rng = random.Random(name)
    found: list[Any] = []
    while len(found) < COUNT:
        state = game.initial_state()
        for _ in range(PLIES[name]):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(list(game.moves(state))))
        if game.outcome(state) is None:
            found.append(state)
    return found
