"""Positions as data for the pages: who is to move, the legal moves, and the board in a form
the pages draw as SVG (a grid, columns of stones, rows of sticks, a heap, a tree node).

Each built-in game has a view here; any other game gets its text rendering and its moves, so
that every registered game can be played in the browser.
"""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..games.connect4 import ConnectFour
from ..games.nim import Nim
from ..games.subtraction import SubtractionGame
from ..games.tictactoe import MNKGame
from ..games.tree import GameTree


def _grid(game: MNKGame, state: Any) -> dict[str, Any]:
    cells = [["X" if state.x >> (row * game.cols + col) & 1 else
              "O" if state.o >> (row * game.cols + col) & 1 else ""
              for col in range(game.cols)] for row in range(game.rows)]
    return {"kind": "grid", "rows": game.rows, "cols": game.cols, "k": game.k, "cells": cells}


def _columns(game: ConnectFour, state: Any) -> dict[str, Any]:
    mover_stones, every_stone = state[0], state[1]
    mover = game.to_move(state)
    marks = ("X", "O") if mover == 0 else ("O", "X")
    cells = []
    for row in range(game.height - 1, -1, -1):  # the top row first, as the board is drawn
        line = []
        for col in range(game.width):
            bit = 1 << (col * game.stride + row)
            line.append("" if not every_stone & bit else
                        marks[0] if mover_stones & bit else marks[1])
        cells.append(line)
    return {"kind": "columns", "width": game.width, "height": game.height, "cells": cells}


def _rows(game: Nim, state: Any) -> dict[str, Any]:
    return {"kind": "rows", "rows": list(state[0]), "start": list(game.rows),
            "misere": game.misere}


def _heap(game: SubtractionGame, state: Any) -> dict[str, Any]:
    return {"kind": "heap", "heap": state[0], "start": game.heap, "takes": list(game.takes)}


def _move_detail(game: Game[Any, Any], state: Any, move: Any) -> dict[str, Any]:
    """Where a move lands on the drawn board (the cell, the column, the row and count)."""
    if isinstance(game, MNKGame):
        return {"cell": [move // game.cols, move % game.cols]}
    if isinstance(game, ConnectFour):
        return {"column": move}
    if isinstance(game, Nim):
        return {"row": move[0], "count": move[1]}
    if isinstance(game, SubtractionGame):
        return {"take": move}
    if isinstance(game, GameTree):
        return {"node": game.node_label(move)}
    return {}


def board_view(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """The board's own data, by kind: ``grid``, ``columns``, ``rows``, ``heap``, ``tree`` or
    ``text`` (any other game)."""
    if isinstance(game, MNKGame):
        return _grid(game, state)
    if isinstance(game, ConnectFour):
        return _columns(game, state)
    if isinstance(game, Nim):
        return _rows(game, state)
    if isinstance(game, SubtractionGame):
        return _heap(game, state)
    if isinstance(game, GameTree):
        return {"kind": "tree", "node": game.node_label(state)}
    return {"kind": "text"}


def position_json(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """Everything a page needs to draw ``state`` and offer its moves."""
    outcome = game.outcome(state)
    names = list(game.player_names)
    mover = game.to_move(state)
    moves = [] if outcome is not None else [
        {"text": game.format_move(state, move), **_move_detail(game, state, move)}
        for move in game.moves(state)]
    winner = None
    if outcome is not None and outcome != 0:
        winner = names[0 if outcome > 0 else 1]
    return {
        "players": names,
        "to_move": mover,
        "to_move_name": names[mover],
        "over": outcome is not None,
        "winner": winner,
        "result": None if outcome is None else ("draw" if outcome == 0 else f"{winner} won"),
        "text": game.render(state),
        "moves": moves,
        "board": board_view(game, state),
    }
