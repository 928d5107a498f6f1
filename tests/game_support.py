"""Helpers for the games' tests: values by induction, with a search as the one-ply step.

Some acceptance checks (Bones up to 40, Nim up to 4 rows of 5) have game trees too large for
the reference searches, which keep no transposition table, to search in full in a test. For
those, the tests also build every position's value bottom-up: each position is searched one
ply deep by a reference search (plain minimax unless told otherwise), and the game's heuristic
is replaced by a table holding the values that earlier searches produced for the children.
Every value then still comes out of the reference algorithm (and the game's own moves, play and
outcome), never from the rule under test, and never only from the engine that is tested
against the reference.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from gametree import search
from gametree.game import Game
from gametree.values import Value, for_player


class TabledGame(Game[Any, Any]):
    """``inner`` with its heuristic replaced by values looked up by key (seen from player 0)."""

    def __init__(self, inner: Game[Any, Any]) -> None:
        self.inner = inner
        self.table: dict[Hashable, Value] = {}

    def initial_state(self) -> Any:
        return self.inner.initial_state()

    def to_move(self, state: Any) -> int:
        return self.inner.to_move(state)

    def moves(self, state: Any) -> Sequence[Any]:
        return self.inner.moves(state)

    def play(self, state: Any, move: Any) -> Any:
        return self.inner.play(state, move)

    def outcome(self, state: Any) -> Value | None:
        return self.inner.outcome(state)

    def key(self, state: Any) -> Hashable:
        return self.inner.key(state)

    def evaluate(self, state: Any) -> Value:
        return self.table[self.inner.key(state)]  # KeyError: a child was not valued first


def mover_values_by_induction(game: Game[Any, Any], states: Iterable[Any], *,
                              algorithm: str = "minimax") -> dict[Any, Value]:
    """The plain value, for the player to move, of each state, by one-ply searches of
    ``algorithm`` (a name :func:`gametree.algorithms.search` knows).

    ``states`` must list every state after all the states its moves lead to.
    """
    tabled = TabledGame(game)
    values: dict[Any, Value] = {}
    for state in states:
        result = search(tabled, state, algorithm=algorithm, depth=1, by_distance=False)
        values[state] = result.value
        tabled.table[game.key(state)] = for_player(result.value, game.to_move(state))
    return values
