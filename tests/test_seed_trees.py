"""The game trees of the seed texts, with every value and every pruned branch the texts state.

The seeds' diagrams are lost; these reconstructions agree with all the numbers in their prose.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gametree import GameTree, SearchResult, Tracer, alphabeta, minimax, negamax
from gametree.trace import TraceEvent, TraceTooLongError, format_log

SEED_000_LEAVES = "10 11 9 11 14 15 13 14 5 2 4 1 3 22 20 21"
SEED_000_LABELS = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O"]
SEED_004_LEAVES = "10 11 12 9 14 15 13 14 5 2 4 1 3 22 20 21"
SEED_004_LABELS = ["current", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N"]

Search = Callable[..., SearchResult[Any]]
ALL_ALGORITHMS: list[Search] = [minimax, alphabeta, negamax]


def traced(search: Search, tree: GameTree, **options: Any) -> tuple[SearchResult[Any],
                                                                     list[TraceEvent]]:
    tracer: Tracer[int, int] = Tracer(tree)
    result = search(tree, tracer=tracer, **options)
    return result, tracer.events


def final_values(events: list[TraceEvent]) -> dict[str, float]:
    """Each inner node's final value, and each leaf's value, by label (MAX's view)."""
    values: dict[str, float] = {}
    for event in events:
        if event.kind in ("done", "leaf") and event.node is not None and event.value is not None:
            values[event.node] = float(event.value)
    return values


def leaves_seen(events: list[TraceEvent]) -> set[str]:
    return {event.node for event in events if event.kind == "leaf" and event.node is not None}


# -- seed 000 -------------------------------------------------------------------------------

def seed_000() -> GameTree:
    return GameTree.from_leaves(SEED_000_LEAVES, labels=SEED_000_LABELS)


def test_seed_000_minimax_backs_up_the_texts_values() -> None:
    result, events = traced(minimax, seed_000())
    values = final_values(events)
    expected = {"H": 10, "I": 9, "D": 10, "E": 14, "F": 2, "G": 20, "B": 10, "C": 2, "A": 10}
    assert {label: values[label] for label in expected} == expected
    assert result.value == 10
    tree = seed_000()
    assert tree.format_move(0, result.best_move) == "B"  # type: ignore[arg-type]
    assert [tree.node_label(node) for node in result.pv] == ["B", "D", "H", "H1"]


def test_seed_000_root_move_scores_as_the_program_prints_them() -> None:
    result = minimax(seed_000())
    assert [(seed_000().format_move(0, entry.move), entry.value) for entry in result.moves] == [
        ("B", 10), ("C", 2)]
    assert result.exact


@pytest.mark.parametrize("search", ALL_ALGORITHMS)
def test_seed_000_every_algorithm_gives_10_via_b(search: Search) -> None:
    result = search(seed_000())
    assert result.best_move is not None
    assert (result.value, seed_000().node_label(result.best_move)) == (10, "B")


# -- seed 004 -------------------------------------------------------------------------------

def seed_004() -> GameTree:
    return GameTree.from_leaves(SEED_004_LEAVES, labels=SEED_004_LABELS)


def test_seed_004_full_minimax_gives_10_via_a_c_g() -> None:
    result, events = traced(minimax, seed_004())
    values = final_values(events)
    assert result.value == 10
    assert [seed_004().node_label(node) for node in result.pv] == ["A", "C", "G", "G1"]
    assert (values["A"], values["C"], values["G"]) == (10, 10, 10)
    # Without pruning E is worth 2 ("5, not 2, as it would be without alpha-beta pruning").
    assert (values["D"], values["E"], values["F"], values["B"]) == (14, 2, 20, 2)


PRUNED_BY_SEED_004 = {"J", "K2", "L2", "F"}
LEAVES_NEVER_SEEN = {"J1", "J2", "K2", "L2", "M1", "M2", "N1", "N2"}


@pytest.mark.parametrize("fail_soft", [True, False])
def test_seed_004_alphabeta_prunes_exactly_what_the_text_says(fail_soft: bool) -> None:
    result, events = traced(alphabeta, seed_004(), fail_soft=fail_soft)
    pruned = [name for event in events if event.kind == "prune" for name in event.skipped]
    assert sorted(pruned) == sorted(PRUNED_BY_SEED_004)
    all_leaves = {f"{node}{index}" for node in "GHIJKLMN" for index in (1, 2)}
    assert leaves_seen(events) == all_leaves - LEAVES_NEVER_SEEN
    assert result.value == 10
    assert seed_004().node_label(result.best_move) == "A"  # type: ignore[arg-type]


def test_seed_004_fail_soft_values_are_the_texts() -> None:
    _, events = traced(alphabeta, seed_004(), fail_soft=True)
    values = final_values(events)
    # "node I ... produces a value of 14"; "the value that propagates up to E is 5, not 2"
    assert values["I"] == 14
    assert values["E"] == 5
    assert values["K"] == 5 and values["L"] == 4


def test_seed_004_fail_hard_returns_window_bounds() -> None:
    _, events = traced(alphabeta, seed_004(), fail_soft=False)
    values = final_values(events)
    # Seed 004's pseudo-code returns alpha/beta: I and E are clamped to the window bound 10.
    assert values["I"] == 10
    assert values["E"] == 10
    assert values["A"] == 10


def test_seed_004_negamax_prunes_the_same_branches() -> None:
    _, events = traced(negamax, seed_004())
    pruned = [name for event in events if event.kind == "prune" for name in event.skipped]
    assert sorted(pruned) == sorted(PRUNED_BY_SEED_004)


def test_seed_004_log_reads_like_the_seed() -> None:
    _, events = traced(alphabeta, seed_004())
    log = format_log(events).splitlines()
    assert log[0] == "TOP MAX node current... Try Move : A"
    assert log[1] == "  MIN node A... Try Move : C"
    assert "    MAX node D... Prune : J ( A = 14 : B = 10 )" in log
    assert "      MIN node K... Prune : K2 ( A = 10 : B = 5 )" in log
    assert "  MIN node B... Prune : F ( A = 10 : B = 5 )" in log
    assert "        MAX node G1... EVAL ... 10" in log
    assert "      MIN node G... Move scored : 10 ( A = -inf : B = 10 )" in log
    assert "      MIN node G... Final score = 10" in log
    assert log[-1] == "TOP MAX node current... DONE!!! Best Score = 10 (move A)"


def test_seed_004_alphabeta_reports_the_refuted_move_as_a_bound() -> None:
    result = alphabeta(seed_004())
    first, second = result.moves
    assert (first.value, first.bound) == (10, "exact")
    assert second.bound == "upper" and second.value == 5  # B <= 5; its true value is 2
    exact = alphabeta(seed_004(), exact_root=True)
    assert [(entry.value, entry.bound) for entry in exact.moves] == [(10, "exact"), (2, "exact")]


def test_seed_004_alphabeta_visits_fewer_leaves_than_minimax() -> None:
    assert minimax(seed_004()).stats.leaves == 16
    assert alphabeta(seed_004()).stats.leaves == 8
    assert alphabeta(seed_004()).stats.cutoffs == 4


# -- seed 003 and aima-python's Fig 5.2 ----------------------------------------------------

@pytest.mark.parametrize("search", ALL_ALGORITHMS)
def test_seed_003_leaves_give_12(search: Search) -> None:
    assert search(GameTree.from_leaves("3 5 2 9 12 5 23 23")).value == 12


def fig52() -> GameTree:
    return GameTree.from_mapping(
        "A",
        {
            "A": {"a1": "B", "a2": "C", "a3": "D"},
            "B": {"b1": "B1", "b2": "B2", "b3": "B3"},
            "C": {"c1": "C1", "c2": "C2", "c3": "C3"},
            "D": {"d1": "D1", "d2": "D2", "d3": "D3"},
        },
        {"B1": 3, "B2": 12, "B3": 8, "C1": 2, "C2": 4, "C3": 6, "D1": 14, "D2": 5, "D3": 2},
    )


@pytest.mark.parametrize("search", ALL_ALGORITHMS)
def test_aima_fig52_gives_3_via_a1(search: Search) -> None:
    tree = fig52()
    result = search(tree)
    assert result.value == 3
    assert tree.format_move(0, result.best_move) == "a1"  # type: ignore[arg-type]


@pytest.mark.parametrize(("node", "reply", "value"), [("B", "b1", 3), ("C", "c1", 2),
                                                       ("D", "d3", 2)])
def test_aima_fig52_min_replies(node: str, reply: str, value: int) -> None:
    tree = fig52()
    state = tree.node(node)
    result = alphabeta(tree, state)
    assert tree.format_move(state, result.best_move) == reply  # type: ignore[arg-type]
    assert result.value == -value  # seen from MIN, the player to move at that node


def test_aima_fig52_exact_root_values() -> None:
    tree = fig52()
    result = alphabeta(tree, exact_root=True)
    assert [(tree.format_move(0, entry.move), entry.value) for entry in result.moves] == [
        ("a1", 3), ("a2", 2), ("a3", 2)]


def test_a_trace_longer_than_its_tracer_keeps_stops_the_search() -> None:
    tree = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    assert len(_events_of(tree, None)) == len(_events_of(tree, 200))
    with pytest.raises(TraceTooLongError, match="past 10 events"):
        _events_of(tree, 10)


def _events_of(tree: GameTree, max_events: int | None) -> list[TraceEvent]:
    tracer: Tracer[Any, Any] = Tracer(tree, max_events=max_events)
    alphabeta(tree, tracer=tracer)
    return tracer.events
