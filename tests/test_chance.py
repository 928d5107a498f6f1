"""Chance nodes: the contract, expectiminimax (the reference), Star1/Star2 (the engine) and
trees with chance nodes.

The textbook's chance tree (AIMA, 3rd edition, Figure 5.12) is reproduced, and the engine's
Star1 and Star2 are checked against expectiminimax on random chance trees: the same value, and
never more leaves evaluated.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import CHANCE, ChanceError, GameTree, alphabeta, minimax, negamax, search
from gametree.engine.chance import ChancePruning, search_chance
from gametree.game import chance_line_result, is_chance
from gametree.games.pig import Pig, PigState
from gametree.games.tree import PRESETS, TreeFormatError
from gametree.reference import expectiminimax
from gametree.trace import Tracer, format_log

AIMA = GameTree.from_json(PRESETS["aima-chance"])

# AIMA Figure 5.12, right: the same tree with the leaves 1 2 3 4 turned into 1 20 30 400.
AIMA_TRANSFORMED = GameTree.from_json({
    **PRESETS["aima-chance"],
    "values": {"D1": 20, "D2": 20, "E1": 30, "E2": 30, "F1": 1, "F2": 1, "G1": 400,
               "G2": 400}})


# -- the textbook's tree -----------------------------------------------------------------------


def test_expectiminimax_reproduces_aima_figure_5_12() -> None:
    result = expectiminimax(AIMA)
    assert result.fraction == Fraction(21, 10)  # 0.9 * 2 + 0.1 * 3, exact
    assert [entry.fraction for entry in result.moves] == [Fraction(21, 10), Fraction(13, 10)]
    assert result.best_move == AIMA.node("B") and AIMA.format_move(0, AIMA.node("B")) == "a1"
    assert result.value_text() == "expected 2.1"
    assert result.outcome is None and result.plies is None


def test_the_order_preserving_transformation_changes_the_best_move() -> None:
    # The figure's point: expectiminimax values are not preserved by order-preserving
    # transformations of the leaves (a2 becomes better: 40.9 against 21).
    result = expectiminimax(AIMA_TRANSFORMED)
    assert [entry.fraction for entry in result.moves] == [Fraction(21), Fraction(409, 10)]
    assert result.best_move == AIMA_TRANSFORMED.node("C")  # the move a2


@pytest.mark.parametrize("pruning", ["none", "star1", "star2"])
def test_the_engine_values_the_textbook_tree_exactly(pruning: ChancePruning) -> None:
    result = search_chance(AIMA, 0, pruning=pruning)
    assert result.fraction == Fraction(21, 10)
    assert result.best_move == AIMA.node("B")
    leaves = result.stats.leaves
    assert leaves == (8 if pruning == "none" else 5)  # Star1/2 cut G off (and F2)


def test_the_trace_shows_chance_nodes_with_probabilities() -> None:
    tracer: Tracer[int, int] = Tracer(AIMA)
    expectiminimax(AIMA, tracer=tracer)
    log = format_log(tracer.events, by_distance=False)
    assert "  CHANCE node B... Try Outcome : D (p = 9/10)" in log
    assert "  CHANCE node B... Outcome scored : 3 (p = 1/10)" in log
    assert "  CHANCE node B... Expected score = 2.1" in log
    assert "    MIN node F... Final score = 1" in log
    assert log.splitlines()[-1] == "TOP MAX node A... DONE!!! Best Score = 2.1 (move a1)"
    event = next(event for event in tracer.events if event.probability is not None)
    assert event.as_dict()["probability"] == "9/10"


def test_star1_cut_offs_are_traced_as_prunes() -> None:
    tracer: Tracer[int, int] = Tracer(AIMA)
    search_chance(AIMA, 0, pruning="star1", tracer=tracer)
    prunes = [event for event in tracer.events if event.kind == "prune"]
    assert [(event.role, event.node, event.skipped) for event in prunes] == [
        ("MIN", "F", ("F2",)), ("CHANCE", "C", ("G",))]


# -- the contract ------------------------------------------------------------------------------


def test_the_tree_speaks_the_chance_contract() -> None:
    assert AIMA.has_chance and not GameTree.from_leaves("1 2").has_chance
    chance = AIMA.node("B")
    assert AIMA.to_move(chance) == CHANCE and is_chance(AIMA, chance)
    assert AIMA.turn(chance) == 0  # MAX moved into it
    assert AIMA.to_move(AIMA.node("D")) == 1  # the chance node takes no turn: MIN follows
    assert AIMA.chance_outcomes(chance) == [(AIMA.node("D"), Fraction(9, 10)),
                                            (AIMA.node("E"), Fraction(1, 10))]
    assert AIMA.parse_move(chance, "E") == AIMA.node("E")  # outcomes are moves
    assert AIMA.value_bounds() == (0, 4)


@pytest.mark.parametrize("run", [minimax, alphabeta, negamax])
def test_searches_without_chance_refuse_a_chance_game(run: Any) -> None:
    with pytest.raises(ChanceError, match="expectiminimax"):
        run(AIMA)


def test_the_compiled_tier_says_why_it_cannot_search_a_chance_game() -> None:
    with pytest.raises(ValueError, match="chance moves, which the compiled tier"):
        search(AIMA, tier="compiled")


def test_the_service_runs_the_engine_on_a_chance_game() -> None:
    result = search(AIMA)
    assert (result.algorithm, result.fraction) == ("engine", Fraction(21, 10))
    document = result.to_dict(AIMA, 0)
    assert document["value"] == 2.1 and document["value_fraction"] == "21/10"
    assert document["value_text"] == "expected 2.1" and document["value_kind"] == "expected"
    assert document["outcome"] is None and document["plies"] is None
    assert json.loads(json.dumps(document)) == document


def test_a_chance_root_averages_its_outcomes() -> None:
    tree = GameTree.from_nested({"chance": [["1/3", [1, 4]], ["2/3", [[2, 0], 7]]]})
    expected = Fraction(1, 3) * 4 + Fraction(2, 3) * 7
    for result in (expectiminimax(tree), search_chance(tree, 0)):
        assert result.fraction == expected and result.best_move is None
        assert [entry.expected for entry in result.moves] == [4, 7]


def test_a_win_on_a_chance_free_line_is_a_win_in_n() -> None:
    # A game of chance still has lines without dice: "win in N" is said for those only.
    pig = Pig(winscore=5, horizon=6)
    state = PigState((4, 0), 1, 0, False, 0)  # player 0 has 4, 1 in the turn: hold wins now
    assert chance_line_result(pig, state, [pig.parse_move(state, "hold")]) == ("win", 1)
    result = search_chance(pig, state)
    assert (result.outcome, result.plies, result.value_text()) == ("win", 1, "win in 1")


# -- trees with chance nodes: the formats ------------------------------------------------------


def test_nested_and_named_chance_trees_agree() -> None:
    nested = GameTree.from_nested([{"chance": [["9/10", [2, 2]], [0.1, [3, 3]]]},
                                   {"chance": [["0.9", [1, 1]], ["1/10", [4, 4]]]}])
    assert expectiminimax(nested).fraction == Fraction(21, 10)
    assert nested.render(0).splitlines()[:3] == ["A (MAX)", "  B (CHANCE)",
                                                 "    [p 9/10] D (MIN)"]


@pytest.mark.parametrize(("document", "message"), [
    ([{"chance": [["1/2", 1], ["1/3", 2]]}], "sum to 5/6, not 1"),
    ([{"chance": [["0", 1], ["1", 2]]}], "more than 0"),
    ([{"chance": [["x", 1]]}], "not a number"),
    ([{"chance": [["1/2", "win"], ["1/2", 2]]}], "numeric leaves only"),
    ([{"chance": [1, 2]}], "a chance node of a nested tree is"),
    ({"root": "A", "children": {"A": ["B", "C"]}, "values": {"B": 1, "C": 2},
      "probabilities": {"B": "1/2"}}, "no probability for C"),
])
def test_malformed_chance_trees_are_refused(document: Any, message: str) -> None:
    with pytest.raises(TreeFormatError, match=message):
        GameTree.from_json(document)


# -- Star1 and Star2 against expectiminimax on random chance trees -----------------------------


def _chance_node(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    def node(pairs: list[tuple[int, Any]]) -> dict[str, Any]:
        total = sum(weight for weight, _ in pairs)
        return {"chance": [[f"{weight}/{total}", kid] for weight, kid in pairs]}

    return st.lists(st.tuples(st.integers(1, 4), children), min_size=1, max_size=3).map(node)


def _extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.lists(children, min_size=1, max_size=3), _chance_node(children))


LEAF = st.integers(-9, 9)
TREES = st.one_of(st.lists(LEAF, min_size=1, max_size=3), _chance_node(LEAF),
                  st.recursive(LEAF, _extend, max_leaves=40)
                  .filter(lambda tree: not isinstance(tree, int)))
"""Random trees whose nodes are MAX, MIN or CHANCE nodes (weights 1-4 turned into exact
probabilities), leaves from -9 to 9."""


def _check_star(document: Any, depth: int | None, exact_root: bool) -> None:
    tree = GameTree.from_nested(document)
    reference = expectiminimax(tree, depth=depth)
    for pruning in ("star1", "star2", "none"):
        result = search_chance(tree, 0, depth=depth, pruning=pruning, exact_root=exact_root)
        assert result.expected == reference.expected, (pruning, document)
        assert result.stats.leaves <= reference.stats.leaves, (pruning, document)
        best = next(entry for entry in result.moves if entry.move == result.best_move) \
            if result.best_move is not None else None
        if best is not None:
            assert best.expected == reference.expected
        if exact_root or result.best_move is None:
            assert [entry.expected for entry in result.moves] == \
                [entry.expected for entry in reference.moves]


@settings(max_examples=60, deadline=None)
@given(TREES, st.one_of(st.none(), st.integers(0, 3)), st.booleans())
def test_star_pruning_equals_expectiminimax(document: Any, depth: int | None,
                                            exact_root: bool) -> None:
    _check_star(document, depth, exact_root)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(TREES, st.one_of(st.none(), st.integers(0, 3)), st.booleans())
def test_star_pruning_equals_expectiminimax_on_a_thousand_trees(
        document: Any, depth: int | None, exact_root: bool) -> None:
    _check_star(document, depth, exact_root)


def test_retrograde_analysis_refuses_a_chance_game() -> None:
    from gametree.solvers.retrograde import solve  # noqa: PLC0415

    with pytest.raises(ChanceError, match="retrograde analysis"):
        solve(Pig(winscore=5, horizon=4))


def test_iterate_reports_each_depth_of_a_chance_game() -> None:
    from gametree import iterate  # noqa: PLC0415

    pig = Pig(winscore=6, diceoutcomes=3, horizon=5)
    reports = list(iterate(pig))
    assert [report.depth for report in reports] == [1, 2, 3, 4, 5]
    assert reports[-1].complete and not reports[-2].complete
    assert reports[-1].value == float(expectiminimax(pig).expected)


def test_expected_values_in_words() -> None:
    from gametree.values import read_expected  # noqa: PLC0415

    assert read_expected(Fraction(19, 32)) == ("expected", "expected 0.594")
    assert read_expected(Fraction(-1, 3), bound="upper") == ("expected", "at most expected -0.333")
    assert read_expected(0.05, complete=False) == ("estimate", "estimate 0.05")
    assert read_expected(1, line_result=("win", 3), units=True) == ("win", "win in 3 plies")
    assert read_expected(Fraction(1, 2), line_result=("draw", None)) == ("draw", "draw")
