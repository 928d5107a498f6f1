"""Subtraction games (and Bones), compiled form (kernel), beside :mod:`.subtraction`.

The kernel state is the Python form's ``(heap, player to move)``; a move is the number of
counters taken, as in the Python form, tried largest first (the Python form's order). The
player who cannot move loses, so every game is won by the player who moved last
(``winner_moves_last``): exact solving steps two plies at a time. The allowed takes are
compiled in as constants; the heap is not, so one compilation serves every heap up to
:data:`MAX_PLIES` moves long.
"""

# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..compiled.form import CompiledForm, same_move
from ..compiled.kernel import ONGOING, Kernel, KernelError, Rules, plain
from .subtraction import SubtractionGame

MAX_PLIES = 5_000
"""The longest game the kernel accepts (the compiled search recurses once per ply)."""

MAX_TAKE = 2**62
"""The largest take the kernel holds: its takes are 64-bit integers in the compiled code."""


def rules(*, takes: tuple[int, ...] = (3, 4, 5),
          jit: Callable[..., Any] = plain) -> Rules:
    """The rules of the subtraction game with the allowed ``takes``, compiled with ``jit``."""
    amounts = tuple(sorted(set(takes), reverse=True))  # largest first, as the Python form
    smallest = amounts[-1]

    @jit
    def to_move(state: tuple[int, int]) -> int:
        return state[1]

    @jit
    def moves(state: tuple[int, int], out: Any) -> int:
        count = 0
        for take in amounts:
            if take <= state[0]:
                out[count] = take
                count += 1
        return count

    @jit
    def play(state: tuple[int, int], move: int) -> tuple[int, int]:
        return state[0] - move, 1 - state[1]

    @jit
    def outcome(state: tuple[int, int]) -> int:
        if state[0] >= smallest:
            return ONGOING
        return -1 if state[1] == 0 else 1

    @jit
    def key(state: tuple[int, int]) -> int:
        return 2 * state[0] + state[1]

    @jit
    def plies_left(state: tuple[int, int]) -> int:
        return state[0] // smallest

    return {"to_move": to_move, "moves": moves, "play": play, "outcome": outcome,
            "key": key, "plies_left": plies_left}


def kernel(heap: int, takes: tuple[int, ...], name: str = "subtraction") -> Kernel:
    """The compiled form of the subtraction game from a heap of ``heap`` with ``takes``."""
    amounts = tuple(sorted(set(takes)))
    if amounts[-1] > MAX_TAKE:
        raise KernelError(f"the compiled form holds takes up to 2**62; {amounts[-1]} is larger")
    plies = heap // amounts[0] + 1
    if plies > MAX_PLIES:
        raise KernelError(f"the compiled form searches games of at most {MAX_PLIES} plies; a "
                          f"heap of {heap} taken {amounts[0]} at a time lasts up to {plies}")
    label = f"{name} {','.join(map(str, amounts))}"
    return Kernel.from_factory(
        label, rules, initial_state=(heap, 0), max_moves=len(amounts), max_plies=MAX_PLIES,
        parameters={"takes": amounts}, winner_moves_last=True,
    )


def compiled_form(game: Any) -> CompiledForm[tuple[int, int], int]:
    """The compiled form of ``game`` (a :class:`SubtractionGame`)."""
    assert isinstance(game, SubtractionGame)
    return CompiledForm(game=game, kernel=kernel(game.heap, game.takes, game.name),
                        encode=_encode, decode_move=same_move)


def _encode(state: tuple[int, int]) -> tuple[int, int]:
    return (int(state[0]), int(state[1]))

