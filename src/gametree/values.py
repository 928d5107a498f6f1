"""The scale of search values: proven wins and losses, draws, and heuristic estimates.

Every search in gametree returns numbers on one scale, so that a value can be read without
knowing which algorithm produced it:

* With **distance scoring** (the default), a proven win reached ``p`` plies from the root is worth
  ``WIN - p`` and a proven loss ``-(WIN - p)``: a quick win beats a slow one and a late loss beats
  an early one (seed 003's "+10 - depth", with a base large enough that no heuristic reaches it).
  A draw is worth 0. Heuristic estimates must stay within ``±HEURISTIC_LIMIT``, far below the
  smallest proven value, so an estimate can never be mistaken for a proven result.
* With distance scoring **off** ("plain" values), a finished game is worth exactly the utility
  the game reports (tic-tac-toe's 10, Bones' 1), as the seed programs print it.

Values are always seen from one side: MAX (the player to move at the root) in the MAX/MIN
reference algorithms, the side to move in negamax. The sign flip lives in :func:`for_player`.
"""

from __future__ import annotations

import math
from typing import Literal

Value = float
"""A search value (an ``int`` is accepted wherever a ``Value`` is expected)."""

Outcome = Literal["win", "draw", "loss"]
"""A proven game result, seen from the player to move."""

WIN: int = 1_000_000
"""The value of a win at ply 0 under distance scoring; a win at ply ``p`` is ``WIN - p``."""

MAX_PLY: int = 100_000
"""The longest distance to a result that distance scoring can express."""

PROVEN: int = WIN - MAX_PLY
"""Values at or beyond ``±PROVEN`` are proven wins or losses under distance scoring."""

HEURISTIC_LIMIT: int = 500_000
"""Heuristic evaluations must lie within ``[-HEURISTIC_LIMIT, HEURISTIC_LIMIT]``."""


def for_player(utility: Value, player: int) -> Value:
    """Convert a value seen from the first player (player 0) into one seen from ``player``."""
    return utility if player == 0 else -utility


def terminal_value(utility: Value, ply: int, *, by_distance: bool) -> Value:
    """The search value of a finished game.

    ``utility`` is the game's result seen from the side the search maximises (positive: that
    side won, negative: it lost, zero: a draw); ``ply`` is the distance from the root.
    """
    if not by_distance:
        return utility
    if utility > 0:
        return WIN - ply
    if utility < 0:
        return -(WIN - ply)
    return 0


def checked_heuristic(estimate: Value) -> Value:
    """Return ``estimate`` if it is a usable heuristic value, else raise :class:`ValueError`.

    An estimate outside ``±HEURISTIC_LIMIT`` could be confused with a proven result, and a NaN
    would make every comparison false; both are rejected rather than silently clamped.
    """
    if isinstance(estimate, bool) or not isinstance(estimate, (int, float)):
        raise ValueError(f"evaluate() must return a number, got {estimate!r}")
    if math.isnan(estimate) or abs(estimate) > HEURISTIC_LIMIT:
        raise ValueError(
            f"evaluate() returned {estimate!r}; heuristic values must be finite numbers within "
            f"±{HEURISTIC_LIMIT} so that they cannot be mistaken for a proven win or loss"
        )
    return estimate


def is_proven_win(value: Value) -> bool:
    """True if ``value`` (under distance scoring) is a proven win for the side it is seen from."""
    return value >= PROVEN


def is_proven_loss(value: Value) -> bool:
    """True if ``value`` (under distance scoring) is a proven loss for the side it is seen from."""
    return value <= -PROVEN


def plies_to_result(value: Value) -> int | None:
    """The distance in plies encoded in a proven win or loss value, else ``None``."""
    if is_proven_win(value):
        return int(WIN - value)
    if is_proven_loss(value):
        return int(WIN + value)
    return None


def classify(
    value: Value, *, by_distance: bool, exhaustive: bool
) -> tuple[Outcome | None, int | None]:
    """The proven outcome of a root value and its distance in plies, when they are known.

    ``exhaustive`` says that no heuristic estimate entered the search, so every value in it is
    a game result: only then can a value of 0 be called a proven draw, and only then do plain
    (not distance-scored) values prove anything at all.
    """
    if by_distance:
        plies = plies_to_result(value)
        if plies is not None:
            return ("win" if value > 0 else "loss"), plies
        if exhaustive and value == 0:
            return "draw", None
        return None, None
    if not exhaustive:
        return None, None
    if value > 0:
        return "win", None
    if value < 0:
        return "loss", None
    return "draw", None


def format_value(value: Value, *, by_distance: bool = True) -> str:
    """A short human reading of a value: ``win in 3``, ``loss in 4``, or the number itself."""
    if by_distance:
        plies = plies_to_result(value)
        if plies is not None:
            word = "win" if value > 0 else "loss"
            return f"{word} in {plies}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def format_bound(value: Value, *, by_distance: bool = False) -> str:
    """A window bound for logs: ``-inf``/``+inf`` for the open ends, else the value (read as a
    distance when ``by_distance``, as :func:`format_value` does)."""
    if value == math.inf:
        return "+inf"
    if value == -math.inf:
        return "-inf"
    return format_value(value, by_distance=by_distance)
