"""aima-python's ``alpha_beta_search`` on tic-tac-toe (peer environment only).

aima-python itself is not published on PyPI. Its games module is, as part of ``aima3`` 1.0.11
(Calysto's packaging of aima-python, April 2018), where the function still has its earlier name
``alphabeta_search``. Its body is the same as the current aima-python ``alpha_beta_search``
(Figure 5.7 of the book: nested ``max_value``/``min_value`` over ``game.actions``,
``game.result`` and ``game.terminal_test``; only ``float('inf')`` reads ``np.inf`` upstream),
and so is its ``TicTacToe`` class. Both are used as shipped.

aima's search returns only the move, not the value, so the benchmark checks the move: the
harness verifies with gametree that it keeps the game's value.

**Nodes.** aima's search is made of closures that cannot be wrapped from outside. Every state it
visits below the root is made by one ``game.result`` call right before the visit, so the
counting run uses a subclass whose ``result`` counts its calls; nodes = calls + 1 (the root).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aima3.games import TicTacToe, alphabeta_search

from measure import Answer


class CountingTicTacToe(TicTacToe):  # type: ignore[misc]
    """aima's tic-tac-toe counting the states its ``result`` makes."""

    def __init__(self) -> None:
        super().__init__()
        self.results = 0

    def result(self, state: Any, move: Any) -> Any:
        """Count the call, then play the move as aima does."""
        self.results += 1
        return super().result(state, move)


def cell(move: tuple[int, int]) -> int:
    """aima's ``(x, y)`` move (x: column 1-3 from the left, y: row 1-3 from the bottom, as its
    ``display`` draws the board) as the cell 0-8 counted row by row from the top."""
    x, y = move
    return (3 - y) * 3 + (x - 1)


def tictactoe() -> Callable[[], Answer]:
    """A prepared solve of tic-tac-toe from the empty board."""
    game = TicTacToe()

    def search() -> Answer:
        return {"move": cell(alphabeta_search(game.initial, game))}

    return search


def tictactoe_counted() -> tuple[Answer, int]:
    """Solve once with the counting game: the answer and the number of states visited."""
    game = CountingTicTacToe()
    answer = {"move": cell(alphabeta_search(game.initial, game))}
    return answer, game.results + 1
