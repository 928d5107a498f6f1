"""Scores by distance (seed 003), plain values, tie-breaking and the heuristic/proof boundary."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gametree import WIN, GameTree, SearchResult, alphabeta, minimax, negamax
from gametree.values import HEURISTIC_LIMIT, PROVEN, checked_heuristic, classify, format_value

Search = Callable[..., SearchResult[Any]]
ALL_ALGORITHMS: list[Search] = [minimax, alphabeta, negamax]

# Root move 1 wins at ply 3 (MAX -> MIN -> MAX -> win); root move 2 wins at once (ply 1).
SLOW_AND_QUICK_WIN = [[["win"]], "win"]
# Every root move loses: at ply 1, at ply 2, at ply 4.
QUICK_AND_SLOW_LOSSES = ["loss", ["loss"], [[["loss"]]]]


@pytest.mark.parametrize("search", ALL_ALGORITHMS)
def test_quickest_win_is_chosen(search: Search) -> None:
    tree = GameTree.from_nested(SLOW_AND_QUICK_WIN)
    result = search(tree)
    assert result.best_move == tree.moves(0)[1]
    assert (result.value, result.outcome, result.plies) == (WIN - 1, "win", 1)
    assert result.value_text() == "win in 1"


@pytest.mark.parametrize("search", ALL_ALGORITHMS)
def test_longest_defence_is_chosen_when_lost(search: Search) -> None:
    tree = GameTree.from_nested(QUICK_AND_SLOW_LOSSES)
    result = search(tree, exact_root=True) if search is not minimax else search(tree)
    assert result.best_move == tree.moves(0)[2]
    assert (result.outcome, result.plies) == ("loss", 4)
    assert [entry.value for entry in result.moves] == [-(WIN - 1), -(WIN - 2), -(WIN - 4)]


@pytest.mark.parametrize("search", ALL_ALGORITHMS)
def test_plain_values_take_the_first_of_equal_moves(search: Search) -> None:
    win_tree = GameTree.from_nested(SLOW_AND_QUICK_WIN)
    result = search(win_tree, by_distance=False)
    assert result.best_move == win_tree.moves(0)[0]
    assert (result.value, result.outcome, result.plies) == (WIN, "win", None)
    loss_tree = GameTree.from_nested(QUICK_AND_SLOW_LOSSES)
    assert search(loss_tree, by_distance=False).best_move == loss_tree.moves(0)[0]


def test_plain_tree_values_are_unchanged_by_distance_scoring() -> None:
    tree = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    assert minimax(tree).value == minimax(tree, by_distance=False).value == 12


def test_heuristic_values_never_look_proven() -> None:
    tree = GameTree.from_leaves([HEURISTIC_LIMIT, -HEURISTIC_LIMIT])
    result = minimax(tree)
    assert result.value == HEURISTIC_LIMIT  # the largest estimate there is ...
    assert result.outcome is None and result.plies is None  # ... is still not a proof
    assert HEURISTIC_LIMIT < PROVEN
    with pytest.raises(ValueError, match="heuristic"):
        checked_heuristic(HEURISTIC_LIMIT + 1)
    with pytest.raises(ValueError, match="heuristic"):
        checked_heuristic(float("nan"))
    with pytest.raises(ValueError, match="number"):
        checked_heuristic(True)


def test_depth_limited_draw_is_not_called_proven() -> None:
    tree = GameTree.from_nested([["draw", 0], ["draw"]])
    assert minimax(tree, depth=1).outcome is None  # stopped at the heuristic horizon
    assert minimax(tree).outcome is None  # a heuristic leaf (0) took part
    assert minimax(GameTree.from_nested([["draw"], ["draw"]])).outcome == "draw"


def test_classify_and_format() -> None:
    assert classify(WIN - 3, by_distance=True, exhaustive=False) == ("win", 3)
    assert classify(-(WIN - 4), by_distance=True, exhaustive=False) == ("loss", 4)
    assert classify(0, by_distance=True, exhaustive=False) == (None, None)
    assert classify(0, by_distance=True, exhaustive=True) == ("draw", None)
    assert classify(10, by_distance=False, exhaustive=True) == ("win", None)
    assert classify(10, by_distance=False, exhaustive=False) == (None, None)
    assert format_value(WIN - 3) == "win in 3"
    assert format_value(-(WIN - 2)) == "loss in 2"
    assert format_value(12.0) == "12"
    assert format_value(2.5) == "2.5"


@pytest.mark.parametrize("search", ALL_ALGORITHMS)
def test_ties_go_to_the_first_move_without_a_seed(search: Search) -> None:
    tree = GameTree.from_leaves("7 7 7 7")
    assert search(tree).best_move == tree.moves(0)[0]


@pytest.mark.parametrize("search", ALL_ALGORITHMS)
def test_ties_are_broken_at_random_from_a_seed(search: Search) -> None:
    tree = GameTree.from_leaves("7 7 7 7", branching=4)
    chosen = {search(tree, seed=seed).best_move for seed in range(40)}
    assert chosen == set(tree.moves(0))
    assert search(tree, seed=5).best_move == search(tree, seed=5).best_move


def test_depth_limit_is_exact() -> None:
    tree = GameTree.from_leaves("1 2 3 4 5 6 7 8")
    result = minimax(tree, depth=1)
    assert result.stats.evaluations == 2  # the two children of the root, nothing deeper
    assert result.depth == 1
    assert minimax(tree, depth=0).stats.nodes == 1
    with pytest.raises(ValueError, match="depth"):
        minimax(tree, depth=-1)
