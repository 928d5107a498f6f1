"""Exact game values of every position, by memoised minimax over a game's Python form.

The reference algorithms search one root at a time; checking the compiled tier on *every*
position of tic-tac-toe needs every position's value, which this computes once: the same
definition as :func:`gametree.minimax` with distance scoring (a win ``d`` plies away is worth
``WIN - d``, quicker wins and slower losses preferred), memoised on the game's key. The tests
check it against :func:`gametree.minimax` itself on sample positions.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

from gametree import WIN, Game


def node_value(game: Game[Any, Any], state: Any, memo: dict[Hashable, int]) -> int:
    """The exact value of ``state`` for the player to move, distances counted from ``state``."""
    key = game.key(state)
    known = memo.get(key)
    if known is not None:
        return known
    utility = game.outcome(state)
    mover = game.to_move(state)
    if utility is not None:
        mine = utility if mover == 0 else -utility
        value = 0 if mine == 0 else (WIN if mine > 0 else -WIN)
    else:
        best = -2 * WIN
        for move in game.moves(state):
            child = game.play(state, move)
            child_value = node_value(game, child, memo)
            if game.to_move(child) != mover:
                child_value = -child_value
            # one ply further from the result
            if child_value > 0 and child_value >= WIN - 100_000:
                child_value -= 1
            elif child_value < 0 and child_value <= -(WIN - 100_000):
                child_value += 1
            best = max(best, child_value)
        value = best
    memo[key] = value
    return value


def reachable(game: Game[Any, Any], start: Any = None) -> Iterator[Any]:
    """Every state reachable from ``start`` (default: the initial state), once each.

    States, not keys, tell positions apart: a game's key may merge symmetric positions
    (tic-tac-toe's does), and every one of them is to be checked.
    """
    first = game.initial_state() if start is None else start
    seen = {first}
    stack = [first]
    while stack:
        state = stack.pop()
        yield state
        for move in game.moves(state):
            child = game.play(state, move)
            if child not in seen:
                seen.add(child)
                stack.append(child)


def sign(value: float) -> int:
    """1, 0 or -1: the weak (win/draw/loss) form of a value."""
    return (value > 0) - (value < 0)
