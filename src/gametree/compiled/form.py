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

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..game import Game
from ..result import MoveValue, SearchResult
from .engine import DEFAULT_TABLE_BITS, CompiledEngine
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


_engines: dict[tuple[str, int], CompiledEngine] = {}
_engines_lock = threading.Lock()


def engine_for(kernel: Kernel, *, table_bits: int = DEFAULT_TABLE_BITS) -> CompiledEngine:
    """The engine of ``kernel``, built once per process and kept (with its table) for reuse."""
    key = (kernel.identity() or f"uncached-{id(kernel)}", table_bits)
    with _engines_lock:
        engine = _engines.get(key)
        if engine is None:
            engine = CompiledEngine(kernel, table_bits=table_bits)
            _engines[key] = engine
        return engine


def compiled_search(form: CompiledForm[S, M], state: S, *, depth: int | None = None,
                    weak: bool = False, by_distance: bool = True, exact_root: bool = False,
                    seed: int | None = None, time: float | None = None,
                    nodes: int | None = None,
                    table_bits: int = DEFAULT_TABLE_BITS) -> SearchResult[M]:
    """Search the Python ``state`` with the compiled engine; moves come back as Python moves.

    The options are those of :meth:`CompiledEngine.search`; the engine (and its table) is
    the one :func:`engine_for` keeps for the kernel.
    """
    engine = engine_for(form.kernel, table_bits=table_bits)
    kernel_state = form.encode(state)
    result = engine.search(kernel_state, depth=depth, weak=weak, by_distance=by_distance,
                           exact_root=exact_root, seed=seed, time=time, nodes=nodes)
    return translate(result, form, state)


def translate(result: SearchResult[int], form: CompiledForm[S, M], state: S) -> SearchResult[M]:
    """``result`` (kernel moves) with every move replaced by the Python game's move."""
    moves = tuple(MoveValue(form.decode_move(state, entry.move), entry.value, entry.bound)
                  for entry in result.moves)
    pv: list[M] = []
    position = state
    for move in result.pv:
        pv.append(form.decode_move(position, move))
        position = form.game.play(position, pv[-1])
    best = None if result.best_move is None else form.decode_move(state, result.best_move)
    translated: SearchResult[M] = SearchResult(
        best_move=best, value=result.value, moves=moves, pv=tuple(pv), stats=result.stats,
        algorithm=result.algorithm, depth=result.depth, by_distance=result.by_distance,
        outcome=result.outcome, plies=result.plies, exhaustive=result.exhaustive)
    return translated
