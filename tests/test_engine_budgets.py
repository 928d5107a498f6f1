"""Budgets on both tiers: a budgeted search answers with the deepest iteration it completed, as
deep as a plain depth search would, and never calls a depth-limited value exact.

Deterministic: node budgets are counted, and the time budgets given are far beyond what the
searches need (what a time budget changes is measured by benchmarks/bench_budgets.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

import gametree
from gametree import SearchOptions
from gametree.games.connect4 import ConnectFour, split_moves
from gametree.games.tictactoe import MNKGame
from gametree.limits import proven_within
from gametree.registry import play_moves
from gametree.result import SearchResult

from .cli_support import gametree as run_gametree

TIERS = ("python", "compiled")


def connect4(moves: str) -> tuple[ConnectFour, Any]:
    game = ConnectFour()
    return game, play_moves(game, split_moves(moves)) if moves else game.initial_state()


@pytest.mark.parametrize("tier", TIERS)
def test_analyze_with_a_time_budget_equals_the_depth_search(tier: str) -> None:
    # The case: with --time the compiled tier answered "to depth 1" (once the root was
    # proven it switched to a capped full solve and fell back to depth 1).
    runs = [run_gametree("analyze", "connect4", "--moves", "4455", "--depth", "8", "--tier",
                         tier, "--json", *budget)
            for budget in ((), ("--time", "5"), ("--nodes", "10000000"))]
    for run in runs:
        assert run.returncode == 0, run.stderr
    plain, *budgeted = (json.loads(run.stdout) for run in runs)
    assert plain["depth"] == 8 and plain["stats"]["depth_reached"] == 8
    for answer in budgeted:
        assert answer["depth"] == plain["depth"]
        assert answer["stats"]["depth_reached"] == 8
        assert answer["stats"]["stopped_by"] is None
        assert answer["value"] == plain["value"] and answer["best_move"] == plain["best_move"]
        assert answer["moves"] == plain["moves"]
    # The two wins in 3 are proven; the other moves' depth-8 values are estimates.
    exact = {entry["move"] for entry in plain["moves"] if entry["exact"]}
    assert exact == {"3", "6"}


def assert_honest(result: SearchResult[Any]) -> None:
    """No value claims exactness it does not have, and every depth-limited value names the
    depth of the deepest completed iteration."""
    reached = result.stats.depth_reached
    final = result.exhaustive or result.complete
    for entry in result.moves:
        proven = final or (result.by_distance and proven_within(entry.value, reached))
        if entry.exact:
            assert proven, (entry, result)
        if not proven:
            assert entry.depth is not None and not entry.exact, (entry, result)
            if entry.bound != "lower":  # an unfinished iteration's better move is deeper
                assert entry.depth == reached, (entry, result)


@pytest.mark.parametrize("tier", TIERS)
# A time budget alone runs to its end on the open positions: short, so the suite stays fast
# (the answer is checked for honesty at whatever depth the time allowed).
@pytest.mark.parametrize("budget", [{"time": 0.4}, {"nodes": 3_000}, {"nodes": 40_000},
                                    {"depth": 6}, {"depth": 6, "time": 5.0}])
@pytest.mark.parametrize("moves", ["", "4455", "4453", "44455554221"])
@pytest.mark.parametrize("exact_root", [False, True])
def test_no_result_says_exact_for_a_depth_limited_value(
        tier: str, budget: dict[str, Any], moves: str, exact_root: bool) -> None:
    game, state = connect4(moves)
    options = SearchOptions(tier=tier, exact_root=exact_root, **budget)  # type: ignore[arg-type]
    result = gametree.search(game, state, options)
    assert_honest(result)
    answer = result.to_dict(game, state)
    assert [entry["exact"] for entry in answer["moves"]] == [entry.exact
                                                            for entry in result.moves]


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "negamax"])
def test_reference_algorithms_mark_depth_limited_values(algorithm: str) -> None:
    game = MNKGame()
    for budget in ({"depth": 2}, {"depth": 3, "time": 5.0}):
        result = gametree.search(game, None, algorithm=algorithm, exact_root=True, **budget)
        assert not result.complete
        assert_honest(result)
        assert all(entry.depth == result.stats.depth_reached for entry in result.moves)
    solved = gametree.search(game, None, algorithm="alphabeta", exact_root=True)
    assert solved.exact and all(entry.depth is None for entry in solved.moves)


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("moves", ["", "4453"])
def test_a_node_budget_mid_iteration_answers_with_the_last_completed_depth(
        tier: str, moves: str) -> None:
    game, state = connect4(moves)
    # Where each iteration ends, counted by a search without a budget (each search is fresh,
    # so the budgeted one follows the same nodes).
    ends = {report.depth: report.nodes
            for report in gametree.iterate(game, state, depth=9, tier=tier)}
    for depth in (3, 6, 8):
        budget = (ends[depth] + ends[depth + 1]) // 2  # half-way through the next iteration
        result = gametree.search(game, state, nodes=budget, tier=tier)
        assert result.stats.stopped_by == "nodes"
        assert result.stats.depth_reached == depth and result.depth == depth
        assert result.stats.iterations == depth
        assert result.moves and not result.exact
        assert_honest(result)
        for entry in result.moves:
            assert not entry.exact
            if entry.bound != "lower":  # (the Python tier's better move of the unfinished one)
                assert entry.depth == depth
        if tier == "compiled":  # the unfinished iteration is dropped whole
            assert result.value == gametree.search(game, state, depth=depth, tier=tier).value


@pytest.mark.parametrize("tier", TIERS)
def test_a_larger_node_budget_never_reaches_less_deep(tier: str) -> None:
    game, state = connect4("4453")
    reached = [gametree.search(game, state, nodes=budget, tier=tier).stats.depth_reached
               for budget in (500, 2_000, 8_000, 32_000, 128_000)]
    assert reached == sorted(reached) and reached[-1] > reached[0]


FIRST_SEARCH = """
import json, sys
if sys.argv[1] == "numba":  # the kernel's images are not used: numba loads the kernel
    import gametree.compiled.native
    gametree.compiled.native.load = lambda *arguments: None
from gametree.compiled.engine import CompiledEngine
from gametree.games.connect4 import ConnectFour
game = ConnectFour()
form = game.compiled_form()
engine = CompiledEngine(form.kernel)
loaded_before = bool(engine._module.search_root.signatures)
first = engine.search(form.encode(game.initial_state()), time=60.0, depth=6)
ready, started = engine.ready_at, engine.started
second = engine.search(form.encode(game.initial_state()), time=60.0, depth=6)
print(json.dumps({"loaded_before": loaded_before, "ready": ready, "started": started,
                  "ready_after_second": engine.ready_at, "second_started": engine.started,
                  "depths": [first.stats.depth_reached, second.stats.depth_reached]}))
"""


def first_searches(loader: str) -> dict[str, Any]:
    """Two budgeted searches in a new process whose kernel cache holds the Connect Four kernel
    (this run's: the searches above compiled it), its engine loaded by ``loader``."""
    gametree.search(ConnectFour(), None, depth=2, tier="compiled")  # the kernel is cached
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run([sys.executable, "-c", FIRST_SEARCH, loader], capture_output=True,
                         text=True, env=env, check=False)
    assert run.returncode == 0, run.stderr
    seen: dict[str, Any] = json.loads(run.stdout)
    return seen


def test_the_first_budgeted_search_starts_its_clock_once_the_kernel_is_loaded() -> None:
    # Through numba, the first budgeted search loads the machine code, and only then starts
    # its clock; the second has nothing to load.
    seen = first_searches("numba")
    assert not seen["loaded_before"]  # numba loads a cached kernel on first use
    assert seen["ready"] is not None and seen["started"] >= seen["ready"]
    assert seen["ready_after_second"] == seen["ready"]  # loaded once
    assert seen["second_started"] > seen["started"]
    assert seen["depths"] == [6, 6]


def test_from_the_images_the_kernel_is_loaded_with_the_engine() -> None:
    # The root search's image (gametree.compiled.native) is linked when the engine is made,
    # another on its first use: no budgeted search has anything to load once its clock
    # has started.
    seen = first_searches("images")
    assert seen["loaded_before"]
    assert seen["ready"] is None and seen["ready_after_second"] is None
    assert seen["second_started"] > seen["started"]
    assert seen["depths"] == [6, 6]
