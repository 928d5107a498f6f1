"""A kernel as an ordinary :class:`gametree.Game`, so that a kernel game goes wherever games go.

:class:`KernelGame` implements the Game contract by calling the kernel's rules from Python —
the plain Python functions of a rules factory (no compiler involved), or the numba-compiled
functions a user wrote. Play it in the terminal, count its positions, trace a search, search it
with the Python tier's algorithms; and search it with the compiled engine through
:func:`compiled_form`, which pairs it with its own kernel.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ..game import Game
from ..values import Value
from .form import CompiledForm
from .kernel import ONGOING, Kernel, _is_dispatcher


class KernelGame(Game[Any, int]):
    """The Game contract on top of a :class:`Kernel`: states are kernel states, moves are the
    kernel's integers."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.name = kernel.name
        self.player_names = kernel.player_names
        rules = kernel.python_rules()
        self._to_move = rules["to_move"]
        self._moves = rules["moves"]
        self._play = rules["play"]
        self._outcome = rules["outcome"]
        self._evaluate = rules.get("evaluate")
        self._key = rules.get("key")
        self._move_score = rules.get("move_score")
        # Where ``moves`` writes (its moves are copied out at once, so one buffer serves):
        # plain functions write into a list, compiled ones need a numpy array.
        self._out: Any = [0] * kernel.max_moves
        if any(_is_dispatcher(function) for function in rules.values()):
            import numpy as np  # noqa: PLC0415 - only for kernels written with numba

            self._out = np.zeros(kernel.max_moves, dtype=np.int64)

    def initial_state(self) -> Any:
        """The kernel's initial state."""
        return self.kernel.initial_state

    def to_move(self, state: Any) -> int:
        """The kernel's ``to_move``."""
        return int(self._to_move(state))

    def moves(self, state: Any) -> list[int]:
        """The kernel's ``moves`` (none once the game is over)."""
        if self.outcome(state) is not None:
            return []
        out = self._out
        count = int(self._moves(state, out))
        return [int(move) for move in out[:count]]

    def play(self, state: Any, move: int) -> Any:
        """The kernel's ``play``."""
        child = self._play(state, move)
        return child if isinstance(child, int) else tuple(int(part) for part in child)

    def outcome(self, state: Any) -> Value | None:
        """The kernel's ``outcome``, with ``ONGOING`` read as ``None``."""
        utility = int(self._outcome(state))
        return None if utility == ONGOING else utility

    def evaluate(self, state: Any) -> Value:
        """The kernel's ``evaluate`` (0 if it has none)."""
        return 0 if self._evaluate is None else int(self._evaluate(state))

    def key(self, state: Any) -> Hashable:
        """The kernel's ``key`` (the state itself if it has none)."""
        return state if self._key is None else int(self._key(state))

    def order_moves(self, state: Any, moves: Sequence[int]) -> Sequence[int]:
        """Highest ``move_score`` first (stable); the kernel's order if it has no hint."""
        if self._move_score is None:
            return moves
        score = self._move_score
        return sorted(moves, key=lambda move: -int(score(state, move)))

    def format_move(self, state: Any, move: int) -> str:
        """The kernel's ``format_move``, else the move's number."""
        if self.kernel.format_move is not None:
            return self.kernel.format_move(state, move)
        return str(move)

    def render(self, state: Any) -> str:
        """The kernel's ``render``, else the state's ``repr``."""
        if self.kernel.render is not None:
            return self.kernel.render(state)
        return repr(state)

    def compiled_form(self) -> CompiledForm[Any, int]:
        """Its own kernel: states and moves are the kernel's already."""
        return CompiledForm(game=self, kernel=self.kernel, encode=_same,
                            decode_move=_same_move)


def _same(state: Any) -> Any:
    return state


def _same_move(state: Any, move: int) -> int:
    return move
