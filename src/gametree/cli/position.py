"""From command-line arguments to a game and a position, shared by every command."""

from __future__ import annotations

import argparse
from typing import Any

from ..game import Game
from ..registry import get, play_moves
from .parser import game_options


def game_and_position(args: argparse.Namespace) -> tuple[Game[Any, Any], Any]:
    """Build the game named on the command line and play ``--moves`` (if any) from its start."""
    spec = get(args.game)
    game = spec.make(**game_options(args))
    moves = getattr(args, "moves", None)
    if not moves:
        return game, game.initial_state()
    return game, play_moves(game, spec.split_moves(moves))
