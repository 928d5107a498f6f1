"""Kayles' compiled form: the same rules as :mod:`.game`, as a kernel numba compiles.

The kernel state is the Python state itself, ``(standing, player)``; moves are the same
integers. The number of pins is a parameter of the rules factory, so it is a constant of the
compiled code (one compilation per row length). The kernel has its own ``key`` (the compiled
tier never calls the Python one): a row and its mirror image share a table entry.
"""

# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gametree.compiled import ONGOING, CompiledForm, Kernel, plain, same_move

from .game import Kayles, State


def rules(*, pins: int = 7, jit: Callable[..., Any] = plain) -> dict[str, Callable[..., Any]]:
    """The rules of Kayles on ``pins`` pins, compiled with ``jit``."""

    @jit
    def to_move(state: State) -> int:
        return state[1]

    @jit
    def moves(state: State, out: Any) -> int:
        count = 0
        for pin in range(pins):
            if state[0] >> pin & 1:
                out[count] = 2 * pin
                count += 1
        for pin in range(pins - 1):
            if state[0] >> pin & 3 == 3:
                out[count] = 2 * pin + 1
                count += 1
        return count

    @jit
    def play(state: State, move: int) -> State:
        width = move % 2 + 1
        return (state[0] & ~(((1 << width) - 1) << (move // 2)), 1 - state[1])

    @jit
    def outcome(state: State) -> int:
        if state[0] != 0:
            return ONGOING
        return -1 if state[1] == 0 else 1

    @jit
    def mirror(standing: int) -> int:
        result = 0
        for pin in range(pins):
            if standing >> pin & 1:
                result |= 1 << (pins - 1 - pin)
        return result

    @jit
    def key(state: State) -> int:
        return 2 * min(state[0], mirror(state[0])) + state[1]

    @jit
    def plies_left(state: State) -> int:
        left = 0
        for pin in range(pins):
            left += state[0] >> pin & 1
        return left

    return {"to_move": to_move, "moves": moves, "play": play, "outcome": outcome, "key": key,
            "plies_left": plies_left}


def compiled_form(game: Kayles) -> CompiledForm[State, int]:
    """The compiled form of ``game``."""
    kernel = Kernel.from_factory(
        f"kayles {game.pins}", rules, initial_state=game.initial_state(),
        max_moves=2 * game.pins - 1, max_plies=game.pins + 1, parameters={"pins": game.pins},
        winner_moves_last=True)
    return CompiledForm(game=game, kernel=kernel, encode=_encode, decode_move=same_move)


def _encode(state: State) -> State:
    return (int(state[0]), int(state[1]))
