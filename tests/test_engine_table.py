"""The transposition table: bounds, replacement policy, distance adjustment, consistency."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import GameTree
from gametree.engine import Engine, TranspositionTable, Zobrist
from gametree.engine.table import (
    BYTES_PER_ENTRY,
    COMPLETE,
    EXACT,
    HEURISTIC,
    LOWER,
    SWEEP_TO,
    UPPER,
    from_table,
    keeps_old,
    to_table,
)
from gametree.values import WIN

from .engine_checks import assert_table_consistent
from .engine_games import RandomGame
from .test_engine_values import irregular_trees


def test_size_in_entries_or_megabytes() -> None:
    assert TranspositionTable(1000).capacity == 1000
    assert TranspositionTable(megabytes=1).capacity == 1_000_000 // BYTES_PER_ENTRY
    for bad in (0, -5, 2.5, True):
        with pytest.raises(ValueError, match="at least 1 entry"):
            TranspositionTable(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not both"):
        TranspositionTable(10, megabytes=1)
    with pytest.raises(ValueError, match="positive"):
        TranspositionTable(megabytes=0)


def test_distance_adjustment_round_trips_and_keeps_distances() -> None:
    # A win found at ply 9 by a search whose position sits at ply 4 is 5 plies below it.
    stored = to_table(WIN - 9, 4)
    assert stored == WIN - 5
    assert from_table(stored, 2) == WIN - 7  # read back at ply 2: still 5 plies below
    assert from_table(to_table(-(WIN - 9), 4), 0) == -(WIN - 5)
    for value in (0, 17, -3.5):
        assert to_table(value, 6) == value == from_table(value, 6)


def test_same_position_policy() -> None:
    generation = 3
    deep_exact = (8, EXACT, 1, None, generation)
    assert keeps_old(deep_exact, 5, EXACT, generation)  # deeper and current: stays
    assert not keeps_old(deep_exact, 9, LOWER, generation)  # a deeper result replaces it
    assert not keeps_old(deep_exact, 5, EXACT, generation + 1)  # older search: replaced
    assert keeps_old(deep_exact, 8, LOWER, generation)  # exact beats a bound of equal depth
    assert not keeps_old((8, UPPER, 1, None, generation), 8, LOWER, generation)
    assert not keeps_old((8, UPPER, 1, None, generation), 8, EXACT, generation)


def test_store_follows_the_policy() -> None:
    table = TranspositionTable(10)
    table.new_search()
    assert table.store("a", 5, EXACT, 1, "m")
    assert not table.store("a", 3, LOWER, 7, "n")  # shallower: kept the old one
    assert table.get("a") is not None and table.get("a").value == 1  # type: ignore[union-attr]
    assert table.store("a", 6, UPPER | HEURISTIC, 2, "n")
    entry = table.get("a")
    assert entry is not None
    assert (entry.bound, entry.depth, entry.heuristic, entry.move) == ("upper", 6, True, "n")
    assert table.stats().kept == 1 and table.stats().stores == 2


def test_sweep_keeps_the_most_valuable_entries() -> None:
    table = TranspositionTable(100)
    table.new_search()
    for index in range(20):  # an earlier search's entries, deep ones
        table.store(("old", index), 50, EXACT, 0, None)
    table.new_search()
    for index in range(80):  # this search: depths 0..79
        table.store(("new", index), index, EXACT, 0, None)
    assert len(table) == 100
    table.store(("new", "one more"), 0, EXACT, 0, None)  # full: a sweep first
    assert len(table) == int(100 * SWEEP_TO) + 1
    assert table.stats().sweeps == 1
    survivors: set[Any] = set(table.entries)
    assert not any(key[0] == "old" for key in survivors)  # older searches go first
    # Then the shallowest of this search: 25 had to go, so depths 0..4 went, 5..79 stayed.
    assert {key[1] for key in survivors if key[1] != "one more"} == set(range(5, 80))


def test_capacity_is_never_exceeded_by_a_search() -> None:
    game = RandomGame(7, size=300, width=4)
    engine = Engine(game, table=TranspositionTable(20))
    engine.search()
    assert engine.table is not None
    assert len(engine.table) <= 20
    assert engine.table.stats().sweeps > 0


@settings(max_examples=60, deadline=None)
@given(irregular_trees(), st.booleans(), st.sampled_from([None, 2, 3]))
def test_every_entry_agrees_with_minimax(tree: GameTree, by_distance: bool,
                                         depth: int | None) -> None:
    """Values, bounds and best moves stored are right, for depth-limited and complete entries,
    through iterative deepening."""
    engine = Engine(tree, by_distance=by_distance, iterative=True)
    engine.search(depth=depth)
    assert_table_consistent(engine, tree)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000))
def test_complete_entries_agree_with_minimax_on_graphs(seed: int) -> None:
    game = RandomGame(seed)
    engine = Engine(game, iterative=True)
    engine.search()
    assert engine.table is not None
    complete = [entry for entry in engine.table.entries.values() if entry[0] >= COMPLETE]
    assert assert_table_consistent(engine, game, depth_limited=False) == len(complete)


def test_zobrist_keys() -> None:
    zobrist = Zobrist(cells=9, pieces=2, seed=1)
    empty = zobrist.key([None] * 9)
    assert empty == 0
    board: list[int | None] = [None] * 9
    board[4] = 0
    key = zobrist.toggle(zobrist.toggle_side(empty), cell=4, piece=0)
    assert key == zobrist.key(board, side=1)
    assert zobrist.toggle(key, 4, 0) == zobrist.toggle_side(empty)  # XOR undoes the move
    assert Zobrist(9, 2, seed=1).numbers == zobrist.numbers  # same seed, same keys
    assert Zobrist(9, 2, seed=2).numbers != zobrist.numbers
    with pytest.raises(ValueError, match="9 cells"):
        zobrist.key([None] * 8)
    with pytest.raises(ValueError, match="out of range"):
        zobrist.toggle(0, 9, 0)
    with pytest.raises(ValueError, match="cells must be"):
        Zobrist(0, 2)
