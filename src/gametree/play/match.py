"""Games between two computer players, for measuring them (``benchmarks/bench_levels.py``)
and testing them: each move is the :class:`Opponent`'s choice, as in the terminal."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..game import Game
from ..values import sign
from .opponent import Opponent

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


def play_game(game: Game[S, M], players: Sequence[Opponent], start: S | None = None
              ) -> tuple[int, list[M]]:
    """One game from ``start`` (default: the beginning), ``players[0]`` moving for the first
    player: the result's sign for the first player (1 won, 0 a draw, -1 lost) and the moves."""
    state = game.initial_state() if start is None else start
    moves: list[M] = []
    while game.outcome(state) is None and game.moves(state):
        move = players[game.to_move(state)].choose(game, state).move
        if move is None:
            raise RuntimeError("a player chose no move in a position with legal moves")
        moves.append(move)
        state = game.play(state, move)
    outcome = game.outcome(state)
    return (0 if outcome is None else sign(outcome)), moves


@dataclass(frozen=True)
class Score:
    """A player's score over a series of games: 1 a win, 0.5 a draw, 0 a loss."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def mean(self) -> float:
        """The average score per game (0..1)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    def interval(self) -> tuple[float, float]:
        """A 95% confidence interval of the mean (the normal approximation over the games'
        scores, kept within 0..1)."""
        count = self.games
        if count < 2:
            return (0.0, 1.0)
        mean = self.mean
        scores = [1.0] * self.wins + [0.5] * self.draws + [0.0] * self.losses
        variance = sum((score - mean) ** 2 for score in scores) / (count - 1)
        half = Z95 * math.sqrt(variance / count)
        return max(0.0, mean - half), min(1.0, mean + half)


def series(game: Game[Any, Any], pair: Callable[[int], tuple[Opponent, Opponent]],
           games: int) -> Score:
    """A player's score in ``games`` games against another: ``pair(number)`` gives the two
    for game ``number`` (0, 1, ...; a seed of its own makes each game differ), the player
    first; the player takes the first move in every other game (the first game included)."""
    wins = draws = losses = 0
    for number in range(games):
        first = number % 2 == 0
        player, other = pair(number)
        result, _ = play_game(game, (player, other) if first else (other, player))
        mine = result if first else -result
        wins += mine > 0
        draws += mine == 0
        losses += mine < 0
    return Score(wins, draws, losses)
