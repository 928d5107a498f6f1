"""Iterative deepening under a time budget: when it stops, and that it keeps the right answer.

The deepening serves the reference searches (an engine keeps its own clock), so the real
searches here are alpha-beta.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import GameTree, minimax, search
from gametree.reference.deepening import TimedSearch, deepen, predicted_seconds
from gametree.result import SearchResult, SearchStats


class FakeClock:
    """A clock that only moves when a test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def synthetic_run(clock: FakeClock, nodes_at: dict[int, int], started: list[int]) -> Any:
    """A stand-in search: costs ``nodes_at[depth]`` milliseconds and is always cut by depth."""

    def run(depth: int) -> SearchResult[int]:
        started.append(depth)
        clock.now += nodes_at[depth] / 1000
        stats = SearchStats(nodes=nodes_at[depth], leaves=1, evaluations=1)
        return SearchResult(best_move=1, value=0, moves=(), pv=(1,), stats=stats,
                            algorithm="fake", depth=depth, complete=False)

    return run


BIG_TREE = GameTree.from_leaves(" ".join(str(v % 7 - 3) for v in range(3 ** 5)), branching=3)


def test_an_iteration_predicted_to_overrun_the_budget_is_never_started() -> None:
    clock, started = FakeClock(), list[int]()
    nodes = {depth: 10 ** depth for depth in range(1, 8)}  # each depth costs 10x the last
    run = synthetic_run(clock, nodes, started)
    deepened = deepen(run, budget=5.0, first_growth=10, clock=clock)
    # depth 1: 0.01 s, depth 2: 0.1 s (0.11 in all), depth 3: 1 s (1.11 in all); depth 4 would
    # take about 10 s more, past the 5 s budget, so it is not started.
    assert started == [1, 2, 3]
    assert deepened.stopped == "time"
    assert deepened.depth == 3
    assert deepened.seconds == pytest.approx(1.11)
    assert deepened.nodes == 1110


def test_depth_one_runs_even_when_the_budget_is_tiny() -> None:
    clock, started = FakeClock(), list[int]()
    run = synthetic_run(clock, {1: 50_000, 2: 10 ** 6}, started)
    deepened = deepen(run, budget=0.001, clock=clock)
    assert started == [1]
    assert deepened.stopped == "time"
    assert deepened.result.best_move == 1


def test_the_depth_cap_stops_deepening() -> None:
    clock, started = FakeClock(), list[int]()
    run = synthetic_run(clock, {depth: 1 for depth in range(1, 10)}, started)
    deepened = deepen(run, budget=1000.0, max_depth=4, clock=clock)
    assert started == [1, 2, 3, 4]
    assert deepened.stopped == "depth"
    assert not deepened.complete


def test_prediction_uses_the_larger_of_the_last_two_growth_factors() -> None:
    # Alpha-beta's cost grows unevenly: x2 then x10 then x2. After the x2 step the next step
    # is expected to be the expensive one again.
    done = [TimedSearch(1, 10, 0.01), TimedSearch(2, 20, 0.02), TimedSearch(3, 200, 0.2),
            TimedSearch(4, 400, 0.4)]
    assert predicted_seconds(done, first_growth=3) == pytest.approx(0.4 * 10)
    assert predicted_seconds(done[:1], first_growth=3) == pytest.approx(0.01 * 3)
    shrinking = [TimedSearch(1, 10, 0.5), TimedSearch(2, 5, 0.25)]
    assert predicted_seconds(shrinking, first_growth=3) == pytest.approx(0.25)


def real_run(game: GameTree, **options: Any) -> Any:
    def run(depth: int) -> SearchResult[int]:
        return search(game, algorithm="alphabeta", depth=depth, **options)

    return run


def test_a_proven_win_stops_deepening_at_its_depth() -> None:
    # Move B wins whatever MIN replies: a win 2 plies deep, proven by the depth-2 search even
    # though C's subtree is still cut off there.
    tree = GameTree.from_nested([["win", "win"], [3, ["loss", 4]]])
    clock = FakeClock()
    deepened = deepen(real_run(tree), budget=10.0, clock=clock)
    # (alpha-beta pruned C's cut-off subtree, so the search is complete too: the shared stop
    # rule names that first)
    assert deepened.stopped in ("proven", "end")
    assert deepened.depth == 2
    assert deepened.result.outcome == "win"
    assert deepened.result.plies == 2


def test_a_complete_search_stops_deepening() -> None:
    tree = GameTree.from_leaves("3 5 2 9 12 5 23 23")  # numeric leaves: never "proven"
    deepened = deepen(real_run(tree), budget=10.0, clock=FakeClock())
    assert deepened.stopped == "end"
    assert deepened.complete
    assert deepened.depth == 3
    assert deepened.result.value == 12  # seed 003


def test_a_result_tells_a_depth_cut_from_the_game_s_own_horizon() -> None:
    tree = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    for algorithm in ("minimax", "alphabeta", "negamax", "engine"):
        for depth, cut in ((1, True), (2, True), (3, False), (4, False)):
            if algorithm == "engine" and depth == 3:
                continue  # the engine does not look for moves at the depth limit: it says cut
            result = search(tree, algorithm=algorithm, depth=depth)
            assert result.complete is not cut, (algorithm, depth)


def test_the_service_deepens_a_reference_algorithm_under_a_time_budget() -> None:
    tree = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    result = search(tree, algorithm="minimax", time=60.0)  # complete at depth 3: stops there
    assert (result.value, result.stats.iterations, result.stats.depth_reached) == (12, 3, 3)
    assert result.stats.stopped_by is None and result.depth is None
    assert result.stats.nodes == sum(search(tree, algorithm="minimax", depth=depth).stats.nodes
                                     for depth in (1, 2, 3))


LEAF = st.one_of(st.sampled_from(["win", "loss", "draw"]), st.integers(-20, 20))
TREES = st.recursive(LEAF, lambda kids: st.lists(kids, min_size=1, max_size=3), max_leaves=14)


@settings(max_examples=150, deadline=None)
@given(TREES.filter(lambda tree: isinstance(tree, list)))
def test_deepening_without_time_pressure_finds_the_full_search_value(nested: list[Any]) -> None:
    # It stops early only on a proven result or a complete search, so it must agree with
    # minimax searching to the end (the reference oracle), on every tree.
    tree = GameTree.from_nested(nested)
    deepened = deepen(real_run(tree), budget=1.0, clock=FakeClock())
    oracle = minimax(tree)
    assert deepened.stopped in ("proven", "end")
    assert deepened.result.value == oracle.value
    assert deepened.result.plies == oracle.plies
    if oracle.outcome is not None:
        # Only this way round: alpha-beta may prove a draw that minimax does not, when its
        # pruning skipped every numeric leaf so that no estimate entered its value.
        assert deepened.result.outcome == oracle.outcome
