"""The UCI engine's chess: gametree's chess game (:mod:`gametree.games.chess`) behind a
:class:`~gametree.uci.engine.ChessBridge`."""

from __future__ import annotations

import chess

from ..games.chess import ChessGame, ChessState, chess_state
from .engine import ChessBridge


def chess_bridge() -> ChessBridge[ChessState, chess.Move]:
    """The chess game from the standard start, its states made from python-chess boards with
    their moves replayed through the game (so that it sees repetitions, as the GUI's board
    does), its moves in UCI notation."""
    game = ChessGame()

    def state_of(board: chess.Board) -> ChessState:
        state = chess_state(board.root())
        for move in board.move_stack:
            state = game.play(state, move)
        return state

    return ChessBridge(game, state_of, lambda _state, move: move.uci())


__all__ = ["chess_bridge"]
