"""OpenSpiel 2.0.2's Python ``alpha_beta_search`` on the benchmark tasks (peer environment only).

The search is OpenSpiel's pure-Python alpha-beta (``open_spiel.python.algorithms.minimax``);
the games are OpenSpiel's own C++ implementations (``tic_tac_toe``, ``connect_four``, ``nim``),
reached through ``pyspiel``. That is how OpenSpiel's documentation uses it, and it is the peer's
best case: every move, clone and legality test runs in C++, only the search is Python.

**Values.** OpenSpiel values a finished game by its return, ±1 (0 for a draw), with no notion of
distance; ``alpha_beta_search`` returns the root value for the player to move and a best action.
For Connect Four the shared estimate is divided by ``OPENSPIEL_SCALE`` so that it stays between
a loss and a win (see ``heuristics.py``).

**Nodes.** A node is one call of the recursive ``_alpha_beta`` function, counted by swapping a
counting wrapper into its module for the counting run only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pyspiel
from open_spiel.python.algorithms import minimax

from heuristics import COLUMNS, OPENSPIEL_SCALE, WEIGHTS, centre_score
from measure import Answer


@contextmanager
def counting_nodes() -> Iterator[list[int]]:
    """Count calls of OpenSpiel's ``_alpha_beta`` while the block runs."""
    original = minimax._alpha_beta
    counter = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return original(*args, **kwargs)

    minimax._alpha_beta = counted
    try:
        yield counter
    finally:
        minimax._alpha_beta = original


def outcome_answer(value: float) -> Answer:
    """An exact root value (±1 or 0) as an answer; OpenSpiel claims no distance."""
    outcome = "win" if value > 0 else "loss" if value < 0 else "draw"
    return {"outcome": outcome}


def solve(game: Any, state: Any) -> Callable[[], Any]:
    """A prepared exact ``alpha_beta_search`` of ``game`` from ``state``: (value, action)."""

    def search() -> Any:
        return minimax.alpha_beta_search(game, state=state, maximum_depth=game.max_game_length())

    return search


def tictactoe() -> Callable[[], Answer]:
    """A prepared solve of tic-tac-toe (actions are cells 0-8, row by row)."""
    game = pyspiel.load_game("tic_tac_toe")
    run = solve(game, game.new_initial_state())

    def search() -> Answer:
        value, action = run()
        answer = outcome_answer(value)
        answer["move"] = int(action)
        return answer

    return search


def nim(piles: tuple[int, ...]) -> Callable[[], Answer]:
    """A prepared exact solve of misère Nim (OpenSpiel's ``nim`` with ``is_misere``)."""
    parameters = {"pile_sizes": ";".join(str(pile) for pile in piles), "is_misere": True}
    game = pyspiel.load_game("nim", parameters)
    state = game.new_initial_state()
    run = solve(game, state)

    def search() -> Answer:
        value, action = run()
        answer = outcome_answer(value)
        text = state.action_to_string(action)  # "pile:2, take:3;" with piles counted from 1
        pile_text, take_text = text.rstrip(";").split(",")
        answer["move"] = [int(pile_text.split(":")[1]) - 1, int(take_text.split(":")[1])]
        return answer

    return search


# -- Connect Four -----------------------------------------------------------------------------

CELL_WEIGHT = {"x": 1, "o": -1}
"""How a character of OpenSpiel's board text counts: ``x`` is player 0, ``o`` player 1."""

TEXT_WEIGHTS: tuple[int, ...] = tuple(
    weight for row in range(len(WEIGHTS) // COLUMNS)
    for weight in (*WEIGHTS[row * COLUMNS:(row + 1) * COLUMNS], 0))
"""The shared weights laid out like ``str(state)``: 7 cells and a newline per row."""


def player0_estimate(state: Any) -> int:
    """The shared centre-weighted estimate for player 0, read from the board text.

    The text (``str(state)``) is the cheapest complete view of the board pyspiel offers; the
    weights are symmetric, so its top-row-first order does not matter.
    """
    score = 0
    for weight, cell in zip(TEXT_WEIGHTS, str(state), strict=True):
        if cell in CELL_WEIGHT:
            score += weight * CELL_WEIGHT[cell]
    return score


def check_connect4_estimate() -> None:
    """Make sure :func:`player0_estimate` gives the shared heuristic's numbers."""
    state = pyspiel.load_game("connect_four").new_initial_state()
    for column in (3, 3, 2, 4, 4, 0, 6, 3, 5):
        state.apply_action(column)
        cells = [cell for cell in str(state) if cell != "\n"]
        if player0_estimate(state) != centre_score(cells, "x", "o"):
            raise AssertionError("OpenSpiel's Connect Four estimate differs from the shared one")


def connect4(depth: int) -> Callable[[], Answer]:
    """A prepared depth-limited decision from the empty 7x6 board."""
    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()

    def value_function(leaf: Any) -> float:
        # Seen from player 0, who moves first and is OpenSpiel's maximising player here.
        return player0_estimate(leaf) / OPENSPIEL_SCALE

    def search() -> Answer:
        value, action = minimax.alpha_beta_search(
            game, state=state, value_function=value_function, maximum_depth=depth)
        if abs(value) >= 1:
            answer = outcome_answer(value)
        else:
            answer = {"score": round(value * OPENSPIEL_SCALE)}
        answer["move"] = int(action)
        return answer

    return search
