"""The engine's API: the report generator, limits, stopping, reuse, tracing, errors."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import GameTree, Tracer, format_log, minimax
from gametree.engine import Engine, Limits
from gametree.games.subtraction import SubtractionGame
from gametree.games.tictactoe import MNKGame
from gametree.registry import get, make, play_moves
from gametree.values import WIN

from .engine_checks import assert_legal_line, assert_same_result, assert_table_consistent
from .engine_games import ExtraTurns, RandomGame
from .test_engine_values import complete_trees, irregular_trees


def random_tree(seed: int, branching: int = 3, depth: int = 5) -> GameTree:
    rng = random.Random(seed)
    return GameTree.from_leaves([rng.randint(-50, 50) for _ in range(branching ** depth)],
                                branching)


def test_iterate_yields_one_report_per_depth() -> None:
    tree = random_tree(1)
    reports = list(Engine(tree).iterate())
    assert [report.depth for report in reports] == [1, 2, 3, 4, 5, 6]
    assert reports[-1].complete and not any(report.complete for report in reports[:-1])
    nodes = [report.nodes for report in reports]
    assert nodes == sorted(nodes) and nodes[0] > 0
    for report in reports:
        assert report.finished and report.bound == "exact"
        assert report.pv[0] == report.best_move
        assert_legal_line(tree, 0, report.pv)
        assert len(report.pv) <= report.depth
        assert report.seconds >= 0 and report.nodes_per_second >= 0
        assert report.table_entries > 0
        reference = minimax(tree, depth=report.depth)
        assert report.value == reference.value
    assert reports[-1].value == minimax(tree).value


def test_search_is_the_end_of_the_iterations() -> None:
    tree = random_tree(2)
    last = list(Engine(tree).iterate(depth=4))[-1]
    result = Engine(tree, iterative=True).search(depth=4)
    assert (result.value, result.best_move, result.pv) == (last.value, last.best_move, last.pv)
    assert result.stats.nodes == last.nodes
    assert result.depth == 4 and result.algorithm == "engine"


@settings(max_examples=40, deadline=None)
@given(complete_trees(), st.integers(1, 3))
def test_stopping_the_generator_early_leaves_the_engine_consistent(tree: GameTree,
                                                                  reports: int) -> None:
    engine = Engine(tree)
    iterations = engine.iterate()
    for _count, _report in zip(range(reports), iterations, strict=False):
        pass
    iterations.close()  # what a `break` out of a for loop does
    assert_table_consistent(engine, tree)
    again = engine.search()  # reusable at once, and still right
    assert_same_result(again, minimax(tree))
    assert_table_consistent(engine, tree)


@settings(max_examples=40, deadline=None)
@given(irregular_trees(), st.integers(1, 60))
def test_node_budget_stops_safely(tree: GameTree, budget: int) -> None:
    engine = Engine(tree)
    result = engine.search(nodes=budget)
    if result.best_move is not None:
        assert result.best_move in tree.moves(0)
        assert_legal_line(tree, 0, result.pv)
    first = list(Engine(tree).iterate(depth=1))[-1].nodes
    assert result.stats.nodes <= max(budget, first)  # depth 1 always completes
    assert_table_consistent(engine, tree)
    assert_same_result(engine.search(), minimax(tree))


def test_node_budget_can_prove_a_better_move_in_an_unfinished_iteration() -> None:
    """A budget running out half-way through an iteration keeps a move it proved better."""
    found = 0
    for seed in range(40):
        tree = random_tree(seed)
        for budget in range(20, 400, 7):
            reports = list(Engine(tree).iterate(nodes=budget))
            last = reports[-1]
            if last.finished:
                continue
            found += 1
            previous = reports[-2]
            assert last.best_move is not None and previous.best_move is not None
            assert last.best_move != previous.best_move and last.bound == "lower"
            exact = {entry.move: entry.value for entry in minimax(tree, depth=last.depth).moves}
            assert exact[last.best_move] >= last.value  # a true lower bound at that depth
            assert exact[last.best_move] > exact[previous.best_move]  # really better
    assert found > 0


def test_time_budget_stops_a_search_that_would_take_long() -> None:
    # Without a table, proving this heap's result takes about 100 plies and two seconds here
    # (a heap of 60 was proven in 0.05 s, the budget, on an idle machine: the test was flaky).
    game = ExtraTurns(200)
    engine = Engine(game, table=False)
    result = engine.search(time=0.05)
    assert result.best_move in game.moves(game.initial_state())
    assert engine.last_stop == "time"
    assert result.stats.stopped_by is not None
    assert result.depth == result.stats.depth_reached


def test_stops_when_the_result_is_proven() -> None:
    tree = GameTree.from_nested(["win", [[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]]])
    engine = Engine(tree, iterative=True)
    result = engine.search()
    assert engine.last_stop == "proven"
    assert result.stats.iterations == 1
    assert (result.value, result.outcome, result.plies) == (WIN - 1, "win", 1)
    assert result.depth is None  # the value holds to the end of the game
    other = result.moves[1]
    assert other.bound == "upper" and other.value == WIN - 1  # all that is known of it


def test_stop_reasons() -> None:
    engine = Engine(random_tree(3))

    def stop_after(**limits: Any) -> str | None:
        engine.search(**limits)
        return engine.last_stop

    assert stop_after(depth=2) == "depth"
    assert stop_after() == "end"
    engine.clear()  # a fresh table, or the complete entries answer in a few nodes
    assert stop_after(nodes=50) == "nodes"


def test_finished_and_depth_zero_roots_like_the_reference() -> None:
    tree = GameTree.from_nested([["win", 3], [4, "draw"]])
    for state in (0, tree.node("B"), tree.node("B1"), tree.node("C1")):
        for depth in (None, 0, 1):
            reference = minimax(tree, state, depth=depth)
            result = Engine(tree).search(state, depth=depth)
            assert_same_result(result, reference)
            assert result.best_move == reference.best_move


def test_best_move_and_analyze() -> None:
    tree = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    assert Engine(tree).best_move() == tree.node("C")
    analysis = Engine(tree).analyze()
    assert [entry.value for entry in analysis.moves] == [5, 12] and analysis.exact


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.booleans(), st.booleans())
def test_traced_search_is_the_same_search(seed: int, iterative: bool, mtdf: bool) -> None:
    """With a tracer the engine takes a slower path that must visit the very same nodes."""
    game = RandomGame(seed)
    options: dict[str, Any] = {"iterative": iterative, "window": "mtdf" if mtdf else "pvs"}
    plain = Engine(game, **options).search()
    tracer: Tracer[int, int] = Tracer(game)
    traced = Engine(game, **options).search(tracer=tracer)
    assert (traced.value, traced.best_move, traced.pv) == (plain.value, plain.best_move,
                                                           plain.pv)
    assert traced.stats.as_dict() | {"seconds": 0} == plain.stats.as_dict() | {"seconds": 0}
    assert tracer.events
    assert None not in format_log(tracer.events).splitlines()


@pytest.mark.parametrize("options", [{}, {"history": True}, {"killers": False},
                                     {"iterative": True, "history": True}])
@pytest.mark.parametrize("moves", [(), (4,), (0, 4, 8)])
def test_traced_search_orders_moves_the_same_way(options: dict[str, Any],
                                                 moves: tuple[int, ...]) -> None:
    """Tic-tac-toe has an ordering hint; with killers and history the fast loop's written-out
    ordering must match MoveOrder's, or the two paths would visit different nodes."""
    game = MNKGame()
    state = game.initial_state()
    for move in moves:
        state = game.play(state, move)
    plain = Engine(game, **options).search(state)
    traced = Engine(game, **options).search(state, tracer=Tracer(game, keep=False))
    assert traced.stats.as_dict() | {"seconds": 0} == plain.stats.as_dict() | {"seconds": 0}
    assert (traced.value, traced.pv) == (plain.value, plain.pv)


def test_trace_shows_iterations_and_table_use() -> None:
    game = RandomGame(11, size=60)
    tracer: Tracer[int, int] = Tracer(game)
    Engine(game, iterative=True).search(tracer=tracer)
    kinds = {event.kind for event in tracer.events}
    assert {"iteration", "enter", "try", "scored", "leaf", "done", "table"} <= kinds
    log = format_log(tracer.events)
    assert "Iteration: depth 1" in log and "TABLE ..." in log


def test_bad_arguments_are_refused() -> None:
    tree = GameTree.from_leaves("1 2")
    engine = Engine(tree)
    with pytest.raises(ValueError, match="depth must be"):
        engine.search(depth=-1)
    with pytest.raises(ValueError, match="time must be"):
        engine.search(time=0)
    with pytest.raises(ValueError, match="nodes must be"):
        engine.search(nodes=0)
    with pytest.raises(ValueError, match="seed must be"):
        engine.search(seed="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="window must be"):
        Engine(tree, window="aspiration")
    with pytest.raises(ValueError, match="table must be"):
        Engine(tree, table="big")  # type: ignore[arg-type]
    assert Limits(depth=3, nodes=10, time=0.5).time == 0.5


class BadHeuristic(ExtraTurns):
    def __init__(self, estimate: object) -> None:
        super().__init__(8)
        self.estimate = estimate

    def evaluate(self, state: tuple[int, int]) -> Any:
        return self.estimate


@pytest.mark.parametrize("estimate", [WIN, float("nan"), "3", None, True])
def test_bad_heuristic_values_are_refused_like_the_reference(estimate: object) -> None:
    game = BadHeuristic(estimate)
    with pytest.raises(ValueError, match="evaluate"):
        minimax(game, depth=2)
    with pytest.raises(ValueError, match="evaluate"):
        Engine(game).search(depth=2)
    with pytest.raises(ValueError, match="evaluate"):
        Engine(game).search(depth=2, tracer=Tracer(game))


def test_a_game_too_long_for_recursion_is_a_clear_error() -> None:
    game = SubtractionGame(5000, (1,))
    engine = Engine(game)
    with pytest.raises(ValueError, match="recursion limit"):
        engine.search()
    assert engine.search(depth=20).best_move == 1  # the engine is still usable


def test_exhaustive_describes_the_final_values_not_earlier_iterations() -> None:
    # Deepening under a node budget counts estimates in its early iterations, yet its last
    # iteration reaches the end of tic-tac-toe everywhere: its values are game results.
    result = Engine(make("tictactoe"), iterative=True).search()
    assert result.stats.evaluations > 0
    assert result.exhaustive and result.outcome == "draw"
    assert all(entry.value == 0 or entry.bound != "exact" for entry in result.moves)
    limited = Engine(make("tictactoe")).search(depth=2)
    assert not limited.exhaustive and limited.outcome is None


def test_exact_solves_find_short_forced_results_at_once() -> None:
    game = make("connect4")
    lost = play_moves(game, get("connect4").split_moves("44455554221"))
    result = Engine(game).search(lost)
    assert (result.outcome, result.plies) == ("loss", 2)
    assert result.stats.nodes < 100  # the depth-3 probe proves it: no full-depth dive
    won = play_moves(game, get("connect4").split_moves("4455"))
    result = Engine(game).search(won)
    assert (result.outcome, result.plies) == ("win", 3)
    assert result.stats.nodes < 1000
