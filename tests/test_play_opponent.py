"""The computer player: the same answers as the searches it wraps, at the strength asked for."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import GameTree, alphabeta, minimax
from gametree.algorithms import ALGORITHMS, DEFAULT_ALGORITHM, Algorithm, search
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
    assert decision.stopped is None


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
    assert SearchOpponent(depth=4, algorithm="alphabeta").describe() == "alphabeta, 4 plies deep"
    assert SearchOpponent(time_per_move=2, algorithm="negamax").describe() == (
        "negamax, up to 2 s per move")
    assert SearchOpponent(time_per_move=0.5, depth=6, algorithm="alphabeta").describe() == (
        "alphabeta, up to 0.5 s per move, at most 6 plies deep")
    assert SearchOpponent(algorithm="minimax").describe() == (
        "minimax, searching to the end of the game")


@pytest.mark.parametrize("options", [
    {"depth": 0}, {"depth": -1}, {"depth": 2.5}, {"depth": True},
    {"time_per_move": 0}, {"time_per_move": -1.0}, {"time_per_move": float("nan")},
    {"time_per_move": float("inf")}, {"algorithm": "magic"},
])
def test_bad_settings_are_refused_with_a_reason(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"depth|time|algorithm"):
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
        if not opponent.timed_by_search:  # (a self-timed search reports no depth cuts)
            assert decision.complete or decision.result.outcome in ("win", "loss")
        assert decision.result.value == oracle.value
        best = {entry.move for entry in oracle.moves if entry.value == oracle.value}
        assert decision.move in best


def test_an_algorithm_with_its_own_time_control_gets_the_budget_directly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine (issue 4) registers a "time" option: it is handed the budget and the depth
    # cap in one call, with no tracer, instead of being deepened here.
    calls: list[dict[str, Any]] = []

    def timed(game: Any, state: Any, **options: Any) -> Any:
        calls.append(options)
        return alphabeta(game, state, depth=options["depth"], seed=options["seed"],
                         exact_root=options.get("exact_root", False))

    monkeypatch.setitem(ALGORITHMS, "timed", Algorithm(
        "timed", "a search that keeps its own clock", timed, frozenset({"time", "exact_root"})))
    opponent = SearchOpponent(algorithm="timed", time_per_move=0.5, depth=6)
    assert opponent.timed_by_search
    decision = opponent.choose(RESULT_TREE, 0)
    assert calls[-1]["time"] == 0.5 and calls[-1]["depth"] == 6
    assert calls[-1]["tracer"] is None
    assert len(calls) == 1
    assert decision.move == RESULT_TREE.node("B") and decision.complete
    opponent.analyse(RESULT_TREE, 0)
    assert calls[-1]["exact_root"] is True
    SearchOpponent(algorithm="timed", depth=3).choose(RESULT_TREE, 0)
    assert "time" not in calls[-1] and calls[-1]["depth"] == 3
    assert not SearchOpponent(algorithm="alphabeta").timed_by_search


def test_the_engine_is_kept_for_the_whole_game_and_agrees_with_a_fresh_one() -> None:
    game = make("tictactoe")
    opponent = SearchOpponent(algorithm="engine", depth=9)
    state = game.play(game.initial_state(), game.parse_move(game.initial_state(), "1,1"))
    first = opponent.choose(game, state)
    engine = opponent.engine
    assert engine is not None and engine.table is not None and len(engine.table) > 0
    reply = game.play(state, first.move)
    second = opponent.choose(game, game.play(reply, game.moves(reply)[0]))
    assert opponent.engine is engine  # the same engine, table and all
    assert first.result.value == search(game, state, algorithm="engine", depth=9).value
    assert first.result.value == minimax(game, state).value
    assert second.result.outcome is not None
    other = make("tictactoe", rows=4, cols=4, k=3)
    opponent.choose(other, other.initial_state())
    assert opponent.engine is not engine  # a new game gets a new engine
