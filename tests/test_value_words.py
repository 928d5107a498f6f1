"""One value vocabulary: every value in words and a kind that agree with what was proven.

``gametree.values`` reads a value (``value_words``, ``value_kind``); results, the CLI, the
terminal and the JSON use it. A heuristic value is never read as a proven one, however large
(issue 19: a tree of 500000s once read "win in 500000" on the web page).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametree import Game, GameTree, SearchResult, Tracer, alphabeta, minimax, search
from gametree.games.tictactoe import MNKGame
from gametree.result import MoveValue, SearchStats
from gametree.values import (
    HEURISTIC_LIMIT,
    PROVEN,
    WIN,
    break_tie,
    classify,
    format_value,
    outcome_of,
    proven_result,
    proven_value,
    scale_json,
    seen_from_parent,
    sign,
    sign_of,
    value_kind,
    value_words,
)
from tests.cli_support import run

FLAGS = st.booleans()
VALUES = st.one_of(
    st.integers(-HEURISTIC_LIMIT, HEURISTIC_LIMIT),
    st.integers(PROVEN, WIN).flatmap(lambda v: st.sampled_from([v, -v])),
    st.floats(-HEURISTIC_LIMIT, HEURISTIC_LIMIT, allow_nan=False),
    st.sampled_from([0, 1, -1, HEURISTIC_LIMIT, -HEURISTIC_LIMIT, PROVEN, -PROVEN]),
)


class Horizon(Game[tuple[int, int], int]):
    """Take 1 or 2 from a heap of 6; taking the last loses. Every unfinished position is
    estimated at ``estimate`` for the first player, as high as an estimate may go."""

    name = "horizon"

    def __init__(self, estimate: int) -> None:
        self.estimate = estimate

    def initial_state(self) -> tuple[int, int]:
        return (6, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def moves(self, state: tuple[int, int]) -> Sequence[int]:
        return [take for take in (1, 2) if take <= state[0]]

    def play(self, state: tuple[int, int], move: int) -> tuple[int, int]:
        return (state[0] - move, 1 - state[1])

    def outcome(self, state: tuple[int, int]) -> int | None:
        if state[0] > 0:
            return None
        return 1 if state[1] == 0 else -1  # the player who took the last one lost

    def evaluate(self, state: tuple[int, int]) -> int:
        return self.estimate


# -- the words and the kind agree with classify ----------------------------------------------


@given(VALUES, FLAGS, FLAGS, FLAGS, st.sampled_from(["exact", "upper", "lower"]))
def test_words_and_kind_agree_with_classify(value: float, by_distance: bool, exhaustive: bool,
                                            complete: bool, bound: Any) -> None:
    outcome, plies = classify(value, by_distance=by_distance, exhaustive=exhaustive)
    kind = value_kind(value, by_distance=by_distance, exhaustive=exhaustive, complete=complete)
    words = value_words(value, by_distance=by_distance, exhaustive=exhaustive,
                        complete=complete, bound=bound)
    relation = {"exact": "", "upper": "at most ", "lower": "at least "}[bound]
    if outcome is not None:
        assert kind == outcome
        assert words.startswith(relation + outcome)
        if plies is not None:
            assert words == f"{relation}{outcome} in {plies}"
    elif complete:
        assert kind == "score"
        assert words == relation + format_value(value, by_distance=False)
    else:
        assert kind == "estimate"
        assert words.startswith(f"estimate {relation}")
    # Only a proof may speak of a win, a loss or a draw.
    assert (outcome is None) == all(word not in words for word in ("win", "loss", "draw"))


@pytest.mark.parametrize(("value", "flags", "kind", "words"), [
    (WIN - 3, {}, "win", "win in 3"),
    (-(WIN - 4), {}, "loss", "loss in 4"),
    (WIN - 1, {"units": True}, "win", "win in 1 ply"),
    (-(WIN - 4), {"units": True}, "loss", "loss in 4 plies"),
    (0, {"exhaustive": True}, "draw", "draw"),
    (0, {"exhaustive": False, "complete": True}, "score", "0"),
    (0, {}, "estimate", "estimate 0"),
    (7, {}, "estimate", "estimate +7"),
    (-3.5, {}, "estimate", "estimate -3.5"),
    (12, {"complete": True}, "score", "12"),
    (12.0, {"complete": True}, "score", "12"),
    (10, {"by_distance": False, "exhaustive": True}, "win", "win (10)"),
    (-10, {"by_distance": False, "exhaustive": True}, "loss", "loss (-10)"),
    (1, {"by_distance": False, "exhaustive": True, "weak": True}, "win", "win"),
    (0, {"by_distance": False, "exhaustive": True, "weak": True}, "draw", "draw"),
    (10, {"by_distance": False, "complete": True}, "score", "10"),
    (5, {"complete": True, "bound": "upper"}, "score", "at most 5"),
    (WIN - 7, {"bound": "lower"}, "win", "at least win in 7"),
    (0, {"exhaustive": True, "bound": "upper"}, "draw", "at most draw"),
    (-4, {"bound": "upper"}, "estimate", "estimate at most -4"),
    (3, {"bound": "lower"}, "estimate", "estimate at least +3"),
])
def test_each_kind_in_words(value: float, flags: dict[str, Any], kind: str, words: str) -> None:
    kind_flags = {name: flags[name] for name in ("by_distance", "exhaustive", "complete")
                  if name in flags}
    assert value_kind(value, **kind_flags) == kind
    assert value_words(value, **flags) == words


def test_the_heuristic_limit_is_never_a_win() -> None:
    for complete in (False, True):
        for exhaustive in (False, True):
            words = value_words(HEURISTIC_LIMIT, exhaustive=exhaustive, complete=complete)
            assert "win" not in words and "500000" in words
    assert value_kind(HEURISTIC_LIMIT) == "estimate"
    assert value_kind(HEURISTIC_LIMIT, complete=True) == "score"


# -- the 500,000 case, end to end ------------------------------------------------------------


def test_a_tree_of_500000s_is_a_score_in_the_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "tree", "--leaves", "500000 500000 2 3", "--json")
    assert status == 0
    document = json.loads(out)
    assert document["value"] == HEURISTIC_LIMIT and document["outcome"] is None
    assert (document["value_text"], document["value_kind"]) == ("500000", "score")
    best = document["moves"][0]
    assert (best["move"], best["value"], best["value_text"], best["value_kind"]) == (
        "B", HEURISTIC_LIMIT, "500000", "score")
    for entry in document["moves"]:
        assert "win" not in entry["value_text"] and entry["value_kind"] == "score"


def test_a_tree_of_500000s_is_a_score_in_the_python_api() -> None:
    tree = GameTree.from_leaves("500000 500000 2 3")
    for result in (search(tree), minimax(tree), alphabeta(tree)):
        assert (result.value, result.value_text(), result.value_kind()) == (
            HEURISTIC_LIMIT, "500000", "score")
        assert result.to_dict(tree, tree.initial_state())["value_kind"] == "score"


def test_an_estimate_of_500000_reads_as_an_estimate() -> None:
    game = Horizon(HEURISTIC_LIMIT)
    for result in (search(game, depth=1), minimax(game, depth=1)):
        assert result.value == HEURISTIC_LIMIT and result.outcome is None
        assert (result.value_text(), result.value_kind()) == ("estimate +500000", "estimate")
        moves = result.to_dict(game, game.initial_state())["moves"]
        assert {entry["value_kind"] for entry in moves} == {"estimate"}
        assert all("win" not in entry["value_text"] for entry in moves)
    # Searched to the end, the same game is a proven result.
    solved = search(game)
    assert solved.outcome is not None and solved.value_kind() == solved.outcome


# -- results: the JSON gives every move its words and kind -----------------------------------


def _result(value: float, moves: list[tuple[str, float, Any]], **fields: Any) -> SearchResult[str]:
    return SearchResult(best_move=moves[0][0] if moves else None, value=value,
                        moves=tuple(MoveValue(*entry) for entry in moves), pv=(),
                        stats=SearchStats(), algorithm="engine", **fields)


def test_result_words_respect_exactness() -> None:
    proven = _result(0, [("a", 0, "exact"), ("b", -(WIN - 2), "upper")], depth=None,
                     outcome="draw", exhaustive=True, complete=True)
    assert (proven.value_text(), proven.value_kind()) == ("draw", "draw")
    assert [proven.move_text(entry) for entry in proven.moves] == ["draw", "at most loss in 2"]
    assert [proven.move_kind(entry) for entry in proven.moves] == ["draw", "loss"]
    # The same numbers from a depth-limited search are estimates (a proven loss stays one).
    limited = _result(0, [("a", 0, "exact"), ("b", -(WIN - 2), "upper")], depth=3)
    assert (limited.value_text(), limited.value_kind()) == ("estimate 0", "estimate")
    assert [limited.move_text(entry) for entry in limited.moves] == [
        "estimate 0", "at most loss in 2"]
    # A draw proven at the root while estimates entered: its moves' zeros are not proofs.
    root_only = _result(0, [("a", 0, "exact"), ("b", 0, "upper")], depth=4, outcome="draw",
                        exhaustive=False, complete=False)
    assert (root_only.value_text(), root_only.value_kind()) == ("draw", "draw")
    assert [root_only.move_kind(entry) for entry in root_only.moves] == ["estimate"] * 2
    weak = _result(1, [("a", 1, "exact"), ("b", 0, "upper")], depth=None, outcome="win",
                   exhaustive=True, complete=True, weak=True, by_distance=False)
    assert weak.value_text() == "win"
    assert [weak.move_text(entry) for entry in weak.moves] == ["win", "at most draw"]
    assert weak.move_text(weak.moves[0], units=True) == "win"


@pytest.mark.parametrize("tier", ["python", "compiled"])
def test_every_move_of_a_json_result_has_its_words_and_kind(tier: str) -> None:
    game = MNKGame()
    state = game.initial_state()
    for depth, kinds in ((2, {"estimate"}), (None, {"draw", "loss"})):
        result = search(game, state, tier=tier, depth=depth)
        document = result.to_dict(game, state)
        assert document["value_kind"] == result.value_kind()
        assert document["value_kind"] == ("draw" if depth is None else "estimate")
        for entry, move in zip(document["moves"], result.moves, strict=True):
            assert entry["value_text"] == result.move_text(move)
            assert entry["value_kind"] == result.move_kind(move)
        assert {entry["value_kind"] for entry in document["moves"]} <= kinds


# -- the rest of the vocabulary ---------------------------------------------------------------


def test_signs_outcomes_and_proven_values() -> None:
    assert [sign(v) for v in (5, 0, -0.5)] == [1, 0, -1]
    assert [outcome_of(v) for v in (WIN, 0, -2)] == ["win", "draw", "loss"]
    assert [sign_of(outcome_of(v)) for v in (3, 0, -3)] == [1, 0, -1]
    for result, plies in ((1, 3), (-1, 8), (0, None)):
        assert proven_result(proven_value(result, plies)) == (result, plies)
    assert proven_value(1, 3) == WIN - 3 and proven_value(-1, 8) == -(WIN - 8)
    with pytest.raises(ValueError, match="distance"):
        proven_value(1, None)


def test_the_scale_for_front_ends() -> None:
    scale = scale_json()
    assert scale == {"win": WIN, "max_ply": WIN - PROVEN, "proven": PROVEN,
                     "heuristic_limit": HEURISTIC_LIMIT}
    assert json.loads(json.dumps(scale)) == scale
    assert scale["heuristic_limit"] < scale["proven"] < scale["win"]


def test_a_value_seen_from_one_ply_above() -> None:
    assert seen_from_parent(WIN - 3) == -(WIN - 4)  # my win in 3 is the parent's loss in 4
    assert seen_from_parent(-(WIN - 2)) == WIN - 3
    assert seen_from_parent(WIN - 3, same_mover=True) == WIN - 4
    assert seen_from_parent(0) == 0
    assert seen_from_parent(7) == -7 and seen_from_parent(7.5, same_mover=True) == 7.5
    assert seen_from_parent(HEURISTIC_LIMIT) == -HEURISTIC_LIMIT  # estimates do not move


def test_ties_break_the_same_way_everywhere() -> None:
    tied = ["a", "b", "c", "d", "e"]
    assert break_tie(tied, None) == "a"
    drawn = {break_tie(tied, seed) for seed in range(40)}
    assert drawn == set(tied)  # every tied move can be drawn ...
    assert all(break_tie(tied, seed) == break_tie(list(tied), seed) for seed in range(40))
    tree = GameTree.from_leaves("1 1 1 1 1 1 1 1", branching=2)  # both root moves tie
    for seed in range(6):
        moves = {search(tree, seed=seed).best_move, minimax(tree, seed=seed).best_move}
        assert moves == {break_tie(tree.moves(tree.initial_state()), seed)}


def test_trace_events_carry_their_values_in_words() -> None:
    tree = GameTree.from_nested([[["win"], 3], [2, "loss"]])
    tracer: Tracer[Any, Any] = Tracer(tree)
    alphabeta(tree, tracer=tracer)
    events = [event.as_dict() for event in tracer.events]
    leaves = [event for event in events if event["kind"] == "leaf"]
    assert [event["value_text"] for event in leaves][:2] == ["win in 3", "3"]
    windows = [event for event in events if event["alpha"] is not None]
    assert any(event["beta"] == "+inf" for event in windows)
    for event in windows:
        for name in ("alpha", "beta"):
            number = event[name]
            assert event[f"{name}_text"] == (number if isinstance(number, str)
                                             else format_value(number))
    assert all(event["value_text"] is None for event in events if event["value"] is None)
    plain = [event.as_dict(by_distance=False) for event in tracer.events
             if event.kind == "leaf"]
    assert plain[0]["value_text"] == str(plain[0]["value"])
