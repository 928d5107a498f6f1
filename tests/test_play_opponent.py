"""The computer player: the same answers as the searches it wraps, at the strength asked for."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import GameTree, minimax, search
from gametree.algorithms import DEFAULT_ALGORITHM
from gametree.play import SearchOpponent
from gametree.registry import make

SEED_TREE = GameTree.from_leaves("3 5 2 9 12 5 23 23")
RESULT_TREE = GameTree.from_leaves("win loss draw win loss loss draw draw")


def test_fixed_depth_is_one_search_at_that_depth() -> None:
    opponent = SearchOpponent(depth=2, algorithm="alphabeta")
    decision = opponent.choose(SEED_TREE, 0)
    expected = search(SEED_TREE, algorithm="alphabeta", depth=2)
    assert decision.move == expected.best_move
    assert decision.result.value == expected.value
    assert decision.depth == 2
    assert not decision.complete  # the tree is 3 plies deep
    assert decision.nodes == expected.stats.nodes


def test_a_depth_beyond_the_tree_is_reported_complete() -> None:
    decision = SearchOpponent(depth=5, algorithm="alphabeta").choose(SEED_TREE, 0)
    assert decision.complete
    assert decision.result.value == 12


def test_no_limit_searches_to_the_end() -> None:
    decision = SearchOpponent().choose(RESULT_TREE, 0)
    oracle = minimax(RESULT_TREE)
    assert decision.depth is None
    assert decision.complete
    assert decision.result.value == oracle.value
    assert decision.result.outcome == "win"
    assert decision.move == RESULT_TREE.node("B")


def test_analyse_values_every_move_exactly_as_minimax_does() -> None:
    for opponent in (SearchOpponent(), SearchOpponent(time_per_move=30.0),
                     SearchOpponent(algorithm="negamax"), SearchOpponent(algorithm="minimax")):
        decision = opponent.analyse(RESULT_TREE, 0)
        oracle = minimax(RESULT_TREE)
        assert [(entry.move, entry.value, entry.bound) for entry in decision.result.moves] == [
            (entry.move, entry.value, "exact") for entry in oracle.moves
        ]


def test_choose_may_bound_refuted_moves_but_analyse_does_not() -> None:
    opponent = SearchOpponent(algorithm="alphabeta")
    chosen = opponent.choose(RESULT_TREE, 0)
    assert any(not entry.exact for entry in chosen.result.moves)  # alpha-beta pruned C
    assert opponent.analyse(RESULT_TREE, 0).result.exact
    assert SearchOpponent().analyse(RESULT_TREE, 0).result.exact  # whatever the default is


def test_a_seed_breaks_ties_reproducibly_among_the_best_moves() -> None:
    tree = GameTree.from_leaves("draw draw draw draw draw draw draw draw draw", branching=3)
    chosen = {SearchOpponent(seed=seed).choose(tree, 0).move for seed in range(30)}
    assert chosen <= set(tree.moves(0))
    assert len(chosen) > 1  # the ties really are broken at random
    again = [SearchOpponent(seed=7).choose(tree, 0).move for _ in range(2)]
    assert again[0] == again[1]


def test_describe_says_how_the_computer_thinks() -> None:
    tree = SEED_TREE
    assert SearchOpponent(depth=4, algorithm="alphabeta").describe(tree) == (
        "alphabeta, 4 plies deep")
    assert SearchOpponent(time_per_move=2, algorithm="negamax").describe(tree) == (
        "negamax, up to 2 s per move")
    assert SearchOpponent(time_per_move=0.5, depth=6, algorithm="alphabeta").describe(tree) == (
        "alphabeta, up to 0.5 s per move, at most 6 plies deep")
    assert SearchOpponent(algorithm="minimax").describe(tree) == (
        "minimax, searching to the end of the game")
    assert SearchOpponent(depth=3).describe(tree) == "engine, 3 plies deep"  # no kernel


@pytest.mark.parametrize("options", [
    {"depth": 0}, {"depth": -1}, {"depth": 2.5}, {"depth": True},
    {"time_per_move": 0}, {"time_per_move": -1.0}, {"time_per_move": float("nan")},
    {"time_per_move": float("inf")}, {"algorithm": "magic"}, {"tier": "fast"},
    {"algorithm": "minimax", "tier": "compiled"},
])
def test_bad_settings_are_refused_with_a_reason(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"depth|time|algorithm|tier"):
        SearchOpponent(**options)


LEAF = st.one_of(st.sampled_from(["win", "loss", "draw"]), st.integers(-9, 9))
TREES = st.recursive(LEAF, lambda kids: st.lists(kids, min_size=1, max_size=3), max_leaves=12)


@settings(max_examples=100, deadline=None)
@given(TREES.filter(lambda tree: isinstance(tree, list)), st.sampled_from(
    sorted({"alphabeta", "negamax", "minimax", DEFAULT_ALGORITHM})))
def test_every_strength_without_a_depth_cut_agrees_with_minimax(nested: list[Any],
                                                                algorithm: str) -> None:
    tree = GameTree.from_nested(nested)
    oracle = minimax(tree)
    for opponent in (SearchOpponent(algorithm=algorithm),
                     SearchOpponent(algorithm=algorithm, time_per_move=60.0)):
        decision = opponent.choose(tree, 0)
        assert decision.complete
        assert decision.result.value == oracle.value
        best = {entry.move for entry in oracle.moves if entry.value == oracle.value}
        assert decision.move in best


@pytest.mark.parametrize("tier", ["python", "compiled"])
def test_one_session_serves_the_whole_game_and_agrees_with_a_fresh_search(tier: str) -> None:
    game = make("tictactoe")
    opponent = SearchOpponent(algorithm="engine", depth=9, tier=tier)  # type: ignore[arg-type]
    state = game.play(game.initial_state(), game.parse_move(game.initial_state(), "1,1"))
    first = opponent.choose(game, state)
    session = opponent.session(game)
    assert first.result.tier == tier
    reply = game.play(state, first.move)
    later = game.play(reply, game.moves(reply)[0])
    second = opponent.choose(game, later)
    assert opponent.session(game) is session  # the same session, tables and all
    fresh = search(game, later, depth=9, tier=tier)
    assert (second.result.value, second.move) == (fresh.value, fresh.best_move)
    assert second.result.stats.nodes <= fresh.stats.nodes  # it remembered something
    assert first.result.value == minimax(game, state).value
    other = make("nim")  # (a kernel the core suite compiles anyway)
    opponent.choose(other, other.initial_state())
    assert opponent.session(other) is not session  # a new game gets a new session
