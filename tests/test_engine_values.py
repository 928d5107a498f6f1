"""The engine gives the reference minimax values, whatever its settings (property tests)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import GameTree, minimax
from gametree.engine import Engine

from .engine_checks import assert_same_result, check_engine
from .engine_games import ExtraTurns, RandomGame

LEAF = st.one_of(st.integers(-20, 20), st.sampled_from(["win", "loss", "draw"]))


@st.composite
def complete_trees(draw: st.DrawFn) -> GameTree:
    """Complete trees of branching 2-3 and depth 1-4, leaves numbers or results."""
    branching = draw(st.integers(2, 3))
    depth = draw(st.integers(1, 4 if branching == 2 else 3))
    leaves = draw(st.lists(LEAF, min_size=branching ** depth, max_size=branching ** depth))
    return GameTree.from_leaves(leaves, branching)


NESTED = st.recursive(LEAF, lambda children: st.lists(children, min_size=1, max_size=4),
                      max_leaves=40)


@st.composite
def irregular_trees(draw: st.DrawFn) -> GameTree:
    """Trees of any shape: inner nodes with 1-4 children, leaves at any depth."""
    nested = draw(st.lists(NESTED, min_size=1, max_size=4))
    return GameTree.from_nested(nested)


@settings(max_examples=150, deadline=None)
@given(complete_trees(), st.booleans())
def test_complete_trees_solved_like_minimax(tree: GameTree, by_distance: bool) -> None:
    check_engine(tree, by_distance=by_distance)


@settings(max_examples=150, deadline=None)
@given(irregular_trees(), st.booleans())
def test_irregular_trees_solved_like_minimax(tree: GameTree, by_distance: bool) -> None:
    check_engine(tree, by_distance=by_distance)


@settings(max_examples=100, deadline=None)
@given(irregular_trees(), st.integers(0, 5), st.booleans())
def test_depth_limited_trees_like_minimax(tree: GameTree, depth: int, by_distance: bool) -> None:
    check_engine(tree, depth=depth, by_distance=by_distance)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.booleans())
def test_game_graphs_with_transpositions_like_minimax(seed: int, by_distance: bool) -> None:
    """Random game graphs: positions reached by several move orders, some extra turns."""
    check_engine(RandomGame(seed), by_distance=by_distance)


@pytest.mark.parametrize("heap", range(0, 15))
def test_extra_turns_like_minimax(heap: int) -> None:
    check_engine(ExtraTurns(heap))
    check_engine(ExtraTurns(heap), by_distance=False)
    check_engine(ExtraTurns(heap), depth=3)


@settings(max_examples=60, deadline=None)
@given(irregular_trees())
def test_analyze_gives_every_root_value_exactly(tree: GameTree) -> None:
    reference = minimax(tree)
    for options in ({}, {"iterative": True}, {"window": "mtdf"}):
        result = Engine(tree, **options).analyze()
        assert_same_result(result, reference)
        assert [(entry.move, entry.value) for entry in result.moves] == [
            (entry.move, entry.value) for entry in reference.moves]
        assert result.exact


@settings(max_examples=60, deadline=None)
@given(irregular_trees(), st.integers(0, 1000))
def test_seed_breaks_ties_like_the_reference(tree: GameTree, seed: int) -> None:
    reference = minimax(tree, seed=seed)
    result = Engine(tree).search(seed=seed)
    assert result.best_move == reference.best_move
    assert result.pv[:1] == reference.pv[:1]


@settings(max_examples=60, deadline=None)
@given(irregular_trees())
def test_bounds_of_root_moves_hold(tree: GameTree) -> None:
    """A root move reported as a bound really is one (checked against its exact value)."""
    exact = {entry.move: entry.value for entry in minimax(tree).moves}
    for options in ({}, {"window": "mtdf"}, {"pvs": False}):
        for entry in Engine(tree, **options).search().moves:
            truth: Any = exact[entry.move]
            if entry.bound == "exact":
                assert entry.value == truth
            elif entry.bound == "upper":
                assert truth <= entry.value
            else:
                assert truth >= entry.value
