"""Search values and thinking effort in words for the person at the board."""

from __future__ import annotations

from typing import Any

from ..result import MoveValue
from ..values import Value, format_value, plies_to_result
from .opponent import Decision


def plies_text(count: int) -> str:
    """``1 ply``, ``3 plies`` (a ply is one player's move)."""
    return f"{count} ply" if count == 1 else f"{count} plies"


def value_words(value: Value, *, exhaustive: bool, complete: bool) -> str:
    """A value seen from one player, as a person would say it.

    ``exhaustive``: no heuristic estimate entered the search, so 0 means a draw.
    ``complete``: no line was cut by a depth limit, so a number is the exact value of the
    game's own (numeric) leaves rather than an estimate.
    """
    plies = plies_to_result(value)
    if plies is not None:
        return f"{'win' if value > 0 else 'loss'} in {plies_text(plies)}"
    if exhaustive and value == 0:
        return "draw"
    number = format_value(value, by_distance=False)
    if complete:
        return number
    return f"estimate {'+' if value > 0 else ''}{number}"


def decision_value(decision: Decision[Any]) -> str:
    """The value of a decision's root, seen from the player to move there."""
    if decision.result.outcome == "draw":  # proven by the search, whatever its counters say
        return "draw"
    return value_words(decision.result.value, exhaustive=decision.result.exhaustive,
                       complete=decision.complete)


def move_value(decision: Decision[Any], entry: MoveValue[Any]) -> str:
    """One root move's value from a decision, with ``<=``/``>=`` when it is only a bound."""
    words = value_words(entry.value, exhaustive=decision.result.exhaustive,
                        complete=decision.complete)
    if entry.bound == "upper":
        return f"at most {words}"
    if entry.bound == "lower":
        return f"at least {words}"
    return words


def effort(decision: Decision[Any]) -> str:
    """How hard the search looked: ``to the end, 5,478 nodes, 0.12 s``."""
    if decision.result.algorithm == "database":
        return "from the database, no search"
    reach = "to the end" if decision.complete or decision.depth is None else (
        f"depth {decision.depth}")
    return f"{reach}, {decision.nodes:,} nodes, {decision.seconds:.2f} s"
