"""easyAI 2.0.12 on the benchmark tasks (runs in the peer environment only).

easyAI's ``Negamax`` searches easyAI's own game classes, the ones it ships in ``easyAI.games``,
exactly as its documentation shows. Where a shipped class lacks an optional method that easyAI
documents as a speed-up or as required for its table, a subclass adds just that method:

* ``TicTacToe`` gets ``ttentry`` (the board as a tuple) so that the table can be used at all;
* ``ConnectFour`` gets ``ttentry`` (the board's bytes) and ``unmake_move`` (without it easyAI
  deep-copies the whole game for every child: leaving it out would make easyAI slower than a
  user who read its documentation would see it).

**Values.** easyAI scores a leaf ``scoring(game) * (1 + 0.001 * depth_left)`` from the side to
move, so a lost position at the end of the game (depth left 0 after ``n`` plies of an ``n``-ply
search) is worth ``-100``, and one found earlier is worth more: the distance it claims can be
read back from the value. Without a table this distance is exact; with a table it can be wrong
(the issue's example: 14 plies instead of 19 for misère Nim 5,5,5,5), which the tables report.

**Nodes.** A node is one call of easyAI's recursive ``negamax`` function (table hits
included), counted by swapping a counting wrapper into its module for the counting run only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from easyAI import Negamax
from easyAI.AI import TranspositionTable
from easyAI.games import ConnectFour, Nim, TicTacToe

from heuristics import CENTRE_WEIGHTS, LOSS_SCORE, centre_score
from measure import Answer

NEGAMAX_MODULE: Any = importlib.import_module("easyAI.AI.Negamax")
"""The module that holds the recursive ``negamax`` function (its name is shadowed by the class
of the same name in ``easyAI.AI``, hence the explicit import)."""

SHIPPED_SCORE = 100
"""The score easyAI's shipped tic-tac-toe and Nim give a decided game."""


@contextmanager
def counting_nodes() -> Iterator[list[int]]:
    """Count calls of easyAI's ``negamax`` while the block runs; yields a one-element counter."""
    original = NEGAMAX_MODULE.negamax
    counter = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return original(*args, **kwargs)

    NEGAMAX_MODULE.negamax = counted
    try:
        yield counter
    finally:
        NEGAMAX_MODULE.negamax = original


def distance_answer(value: float, depth: int, decided: float) -> Answer:
    """Read outcome and claimed distance back from an easyAI root value.

    ``decided`` is the score of a decided game (``scoring`` before easyAI's depth bonus); the
    bonus ``1 + 0.001 * depth_left`` tells how many plies before the horizon it was found.
    """
    if value == 0:
        return {"outcome": "draw"}
    depth_left = round((abs(value) / decided - 1) / 0.001)
    return {"outcome": "win" if value > 0 else "loss", "plies": depth - depth_left}


# -- tic-tac-toe ------------------------------------------------------------------------------


class TicTacToeWithTable(TicTacToe):  # type: ignore[misc]
    """easyAI's shipped tic-tac-toe plus the ``ttentry`` its table requires."""

    def ttentry(self) -> tuple[int, ...]:
        """The board identifies the position (the side to move follows from it)."""
        return tuple(self.board)


def tictactoe(table: bool) -> Callable[[], Answer]:
    """A prepared solve of tic-tac-toe from the empty board (9 plies: the whole game)."""
    game = TicTacToeWithTable(None)
    ai = Negamax(9, tt=TranspositionTable() if table else None)

    def search() -> Answer:
        move = ai(game)
        answer = distance_answer(ai.alpha, 9, SHIPPED_SCORE)
        answer["move"] = int(move) - 1  # easyAI numbers the cells 1-9, row by row
        return answer

    return search


# -- misère Nim -------------------------------------------------------------------------------


def nim(table: bool, piles: tuple[int, ...]) -> Callable[[], Answer]:
    """A prepared exact solve of misère Nim (easyAI's shipped ``Nim``: last to take loses)."""
    game = Nim(None, piles=piles)
    depth = sum(piles)  # no game lasts longer: every move takes at least one stick
    ai = Negamax(depth, tt=TranspositionTable() if table else None)

    def search() -> Answer:
        move = ai(game)
        answer = distance_answer(ai.alpha, depth, SHIPPED_SCORE)
        pile, take = (int(part) for part in str(move).split(","))
        answer["move"] = [pile - 1, take]
        return answer

    return search


# -- Connect Four -----------------------------------------------------------------------------

WEIGHT_ARRAY = np.array(CENTRE_WEIGHTS)


class FastConnectFour(ConnectFour):  # type: ignore[misc]
    """easyAI's shipped Connect Four plus the two optional methods its documentation offers."""

    def unmake_move(self, column: int) -> None:
        """Take back the top stone of ``column`` (row 0 is the bottom row in easyAI)."""
        filled = np.flatnonzero(self.board[:, column])
        self.board[filled[-1], column] = 0

    def ttentry(self) -> bytes:
        """The board identifies the position (the side to move follows from it)."""
        return bytes(self.board.tobytes())


def connect4_scoring(game: Any) -> float:
    """The shared centre-weighted estimate, for the side to move, or a loss if the game is lost.

    Written the way easyAI's examples write a scoring function (``-100 if game.lose() else
    ...``), with the estimate computed on easyAI's numpy board.
    """
    if game.lose():
        return -LOSS_SCORE
    board = game.board
    mine = WEIGHT_ARRAY[board == game.current_player].sum()
    theirs = WEIGHT_ARRAY[board == game.opponent_index].sum()
    return float(mine - theirs)


def check_connect4_scoring() -> None:
    """Make sure :func:`connect4_scoring` gives the shared heuristic's numbers."""
    game = FastConnectFour(None)
    for column in (3, 3, 2, 4, 4, 0, 6, 3, 5):
        game.make_move(column)
        game.switch_player()
        cells = [int(cell) for cell in game.board.flatten()]
        expected = centre_score(cells, game.current_player, game.opponent_index)
        if connect4_scoring(game) != expected:
            raise AssertionError("easyAI's Connect Four scoring differs from the shared one")


def connect4(depth: int) -> Callable[[], Answer]:
    """A prepared depth-limited decision from the empty 7x6 board, with easyAI's table."""
    game = FastConnectFour(None)
    ai = Negamax(depth, connect4_scoring, tt=TranspositionTable())

    def search() -> Answer:
        move = ai(game)
        value = ai.alpha
        if abs(value) >= LOSS_SCORE:
            answer = distance_answer(value, depth, LOSS_SCORE)
        else:
            answer = {"score": round(value)}
        answer["move"] = int(move)
        return answer

    return search
