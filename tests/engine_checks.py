"""Shared checks for the engine's tests: agreement with the reference, table consistency."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from gametree import Game, SearchResult, minimax
from gametree.engine import Engine
from gametree.engine.table import BOUND_MASK, COMPLETE, EXACT, LOWER

CONFIGURATIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "iterative": {"iterative": True},
    "no-table": {"table": False},
    "iterative-no-table": {"iterative": True, "table": False},
    "mtdf": {"window": "mtdf"},
    "iterative-mtdf": {"iterative": True, "window": "mtdf"},
    "plain-alphabeta": {"pvs": False, "killers": False},
    "history": {"history": True},
    "tiny-table": {"table": 3},
}
"""Engine settings every value test runs under: the value must never depend on them."""


def assert_same_result(result: SearchResult[Any], reference: SearchResult[Any]) -> None:
    """The engine agrees with the reference: same value, same proven distance and outcome.

    The engine may prove an outcome the reference does not, never the opposite: minimax
    calls a result proven only if no heuristic leaf exists anywhere in the tree, while a value
    found by alpha-beta from finished games alone is a proof whatever the pruned leaves hold.
    """
    assert result.value == reference.value
    assert result.plies == reference.plies
    if reference.outcome is not None:
        assert result.outcome == reference.outcome
    expected = {1: "win", 0: "draw", -1: "loss"}[(result.value > 0) - (result.value < 0)]
    assert result.outcome in (None, expected)


def assert_legal_line(game: Game[Any, Any], state: Any, line: tuple[Any, ...]) -> None:
    """Every move of ``line`` is legal where it is played."""
    for move in line:
        assert move in game.moves(state), f"{move!r} is not legal in {state!r}"
        state = game.play(state, move)


def check_engine(game: Game[Any, Any], state: Any = None, *, depth: int | None = None,
                 by_distance: bool = True, configurations: dict[str, dict[str, Any]] | None = None
                 ) -> None:
    """The engine's result equals reference minimax under every configuration."""
    reference = minimax(game, state, depth=depth, by_distance=by_distance)
    for name, options in (configurations or CONFIGURATIONS).items():
        engine = Engine(game, by_distance=by_distance, **options)
        result = engine.search(state, depth=depth)
        try:
            assert_same_result(result, reference)
            root = game.initial_state() if state is None else state
            assert_legal_line(game, root, result.pv)
            if result.best_move is not None:
                assert result.pv[0] == result.best_move
        except AssertionError as error:
            raise AssertionError(f"configuration {name}: {error}") from error


def assert_table_consistent(engine: Engine[Any, Any], game: Game[Any, Any], *,
                            depth_limited: bool = True) -> int:
    """Every entry's value agrees with reference minimax from that position; returns how many
    entries were checked.

    Only for games whose states are their own keys. Entries searched to a depth are checked
    against minimax to that depth (``depth_limited``; sound for trees, where a position is
    only ever reached one way), complete entries against minimax to the end.
    """
    assert engine.table is not None
    checked = 0
    for key, (depth, flags, value, move, _generation) in list(engine.table.entries.items()):
        state: Hashable = key
        if depth < COMPLETE and not depth_limited:
            continue
        limit = None if depth >= COMPLETE else depth
        truth = minimax(game, state, depth=limit, by_distance=engine.by_distance).value
        bound = flags & BOUND_MASK
        if bound == EXACT:
            assert truth == value, (state, depth, flags, value, truth)
        elif bound == LOWER:
            assert truth >= value, (state, depth, flags, value, truth)
        else:
            assert truth <= value, (state, depth, flags, value, truth)
        if move is not None:
            assert move in game.moves(state)
        checked += 1
    return checked
