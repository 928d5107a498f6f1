"""Alpha-beta and negamax against full minimax, the oracle, on random trees (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import GameTree, alphabeta, minimax, negamax

LEAF = st.one_of(
    st.integers(min_value=-20, max_value=20),
    st.sampled_from(["win", "loss", "draw"]),
)


def nested_trees(max_leaves: int = 60) -> st.SearchStrategy[list[Any]]:
    """Random trees as nested lists: uneven depth, 1 to 4 children per node."""
    inner = st.recursive(LEAF, lambda kids: st.lists(kids, min_size=1, max_size=4),
                         max_leaves=max_leaves)
    return st.lists(inner, min_size=1, max_size=4)


def complete_trees() -> st.SearchStrategy[GameTree]:
    """Random complete trees as seed 003 writes them: a flat list of b**d leaves."""
    return st.tuples(st.integers(2, 4), st.integers(1, 4)).flatmap(
        lambda shape: st.lists(st.integers(-50, 50), min_size=shape[0] ** shape[1],
                               max_size=shape[0] ** shape[1]).map(
            lambda leaves: GameTree.from_leaves(leaves, shape[0])))


TREES = st.one_of(nested_trees().map(GameTree.from_nested), complete_trees())
DEPTHS = st.one_of(st.none(), st.integers(0, 5))


def minimax_move_values(tree: GameTree, depth: int | None, by_distance: bool) -> dict[int, float]:
    result = minimax(tree, depth=depth, by_distance=by_distance)
    return {entry.move: entry.value for entry in result.moves}


@settings(max_examples=1000, deadline=None)
@given(TREES, DEPTHS, st.booleans())
def test_pruning_algorithms_agree_with_minimax(tree: GameTree, depth: int | None,
                                               by_distance: bool) -> None:
    oracle = minimax(tree, depth=depth, by_distance=by_distance)
    truth = {entry.move: entry.value for entry in oracle.moves}
    for result in (
        alphabeta(tree, depth=depth, by_distance=by_distance),
        alphabeta(tree, depth=depth, by_distance=by_distance, fail_soft=False),
        negamax(tree, depth=depth, by_distance=by_distance),
    ):
        assert result.value == oracle.value
        if oracle.best_move is not None:
            assert truth[result.best_move] == oracle.value  # type: ignore[index]
        assert result.stats.leaves <= oracle.stats.leaves
        for entry in result.moves:
            if entry.bound == "exact":
                assert entry.value == truth[entry.move]
            else:
                assert entry.bound == "upper" and truth[entry.move] <= entry.value
        # Pruning only ever skips leaves, so whatever minimax proves, the others prove too;
        # they may prove more in plain mode when they skip every heuristic leaf.
        if oracle.outcome is not None:
            assert (result.outcome, result.plies) == (oracle.outcome, oracle.plies)
        elif result.outcome is not None:
            sign = (result.value > 0) - (result.value < 0)
            assert result.outcome == {1: "win", 0: "draw", -1: "loss"}[sign]


@settings(max_examples=300, deadline=None)
@given(TREES, DEPTHS, st.booleans())
def test_exact_root_values_equal_minimax(tree: GameTree, depth: int | None,
                                         by_distance: bool) -> None:
    truth = minimax_move_values(tree, depth, by_distance)
    for search in (alphabeta, negamax):
        result = search(tree, depth=depth, by_distance=by_distance, exact_root=True)
        assert {entry.move: entry.value for entry in result.moves} == truth
        assert result.exact


@settings(max_examples=300, deadline=None)
@given(TREES, st.booleans())
def test_principal_variation_leads_to_the_root_value(tree: GameTree, by_distance: bool) -> None:
    for search in (minimax, alphabeta, negamax):
        result = search(tree, by_distance=by_distance)
        state = tree.initial_state()
        for move in result.pv:
            assert move in tree.moves(state)
            state = tree.play(state, move)
        assert not tree.moves(state)  # the line ends at a leaf ...
        leaf = minimax(tree, state, by_distance=by_distance)
        mover_sign = 1 if tree.to_move(state) == tree.to_move(0) else -1
        if by_distance and tree.outcome(state):  # a win or loss, scored by its distance
            assert result.plies == len(result.pv)
        else:  # ... whose value, seen from the root player, is the root value
            assert mover_sign * leaf.value == result.value


@settings(max_examples=200, deadline=None)
@given(TREES, st.integers(0, 2**32))
def test_random_tie_breaking_picks_an_optimal_move_reproducibly(tree: GameTree, seed: int) -> None:
    truth = minimax_move_values(tree, None, True)
    best = max(truth.values())
    for search in (minimax, alphabeta, negamax):
        first = search(tree, seed=seed)
        assert truth[first.best_move] == best  # type: ignore[index]
        assert search(tree, seed=seed).best_move == first.best_move
