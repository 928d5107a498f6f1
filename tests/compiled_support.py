"""The compiled tier in tests: its engine directly (kernel states), or the search service's
compiled tier (the game's own states and moves)."""

from __future__ import annotations

import random
from typing import Any

import gametree
from gametree.compiled import CompiledEngine, Kernel
from gametree.compiled.form import CompiledForm
from gametree.options import DEFAULT_TABLE_BITS
from gametree.result import SearchResult

_engines: dict[tuple[Any, int], CompiledEngine] = {}


def random_positions(game: Any, rng: random.Random, count: int, most: int,
                     least: int = 1) -> list[Any]:
    """The start and ``count`` positions along random games (``least`` to ``most`` moves,
    none of them over)."""
    states = [game.initial_state()]
    while len(states) <= count:
        state = game.initial_state()
        for _ in range(rng.randrange(least, most + 1)):
            state = game.play(state, rng.choice(list(game.moves(state))))
            if game.outcome(state) is not None:
                break
        if game.outcome(state) is None:
            states.append(state)
    return states


def engine_for(kernel: Kernel, *, table_bits: int = DEFAULT_TABLE_BITS) -> CompiledEngine:
    """One engine per kernel and table size for the whole test run (each costs a load)."""
    key = (kernel.identity() or id(kernel), table_bits)
    if key not in _engines:
        _engines[key] = CompiledEngine(kernel, table_bits=table_bits)
    return _engines[key]


def compiled_search(form: CompiledForm[Any, Any], state: Any,
                    **options: Any) -> SearchResult[Any]:
    """``gametree.search`` of the form's game, forced onto the compiled tier."""
    return gametree.search(form.game, state, tier="compiled", **options)


def heap_after(heap: int, move: int) -> int:
    """A plain helper in a module of its own, which a kernel's rule calls as
    ``compiled_support.heap_after`` (tests/test_compiled_authoring.py): fine in Python,
    unknown to numba."""
    return heap - move
