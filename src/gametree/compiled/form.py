"""A Python game's compiled form, and searching a Python state with the compiled engine.

A built-in game keeps its rules in one place, as a Python :class:`gametree.Game`; when it also
has a kernel, that kernel stands next to it (``games/tictactoe_kernel.py`` beside
``games/tictactoe.py``) and the game's :meth:`~gametree.Game.compiled_form` returns a
:class:`CompiledForm`: the kernel plus the two small translations between the forms (a Python
state to a kernel state, a kernel move back to a Python move). The Python state is then
searched with the compiled engine, and the :class:`gametree.SearchResult` has the Python game's
own moves, so reports, JSON and ``format_move`` work unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..game import Game
from .kernel import Kernel

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True)
class CompiledForm(Generic[S, M]):
    """A game's kernel and the bridge between its Python and kernel forms."""

    game: Game[S, M]
    """The Python form (the game built with the same options)."""

    kernel: Kernel
    """The compiled form of the rules."""

    encode: Callable[[S], Any]
    """A Python state -> the same position as a kernel state."""

    decode_move: Callable[[S, int], M]
    """``(Python state, kernel move)`` -> the same move as the Python game writes it."""
