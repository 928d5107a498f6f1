"""Explicit game trees: the four ways to write one, labels, and clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gametree import GameTree, IllegalMoveError, load_tree, minimax, search
from gametree.games.tree import TreeFormatError, build_tree, letters


def test_leaf_list_builds_a_complete_tree() -> None:
    tree = GameTree.from_leaves("3 5 2 9 12 5 23 23")
    assert (tree.size, tree.leaf_count) == (15, 8)
    assert [tree.node_label(node) for node in range(7)] == list("ABCDEFG")
    assert [tree.node_label(node) for node in tree.moves(tree.node("D"))] == ["D1", "D2"]
    assert tree.to_move(0) == 0 and tree.to_move(1) == 1 and tree.to_move(3) == 0


def test_commas_and_branching_three() -> None:
    tree = GameTree.from_leaves("3,12,8, 2,4,6, 14,5,2", branching=3)
    assert minimax(tree).value == 3


def test_labels_name_inner_nodes_or_every_node() -> None:
    inner = GameTree.from_leaves("1 2 3 4", labels=["root", "L", "R"])
    assert [inner.node_label(node) for node in range(7)] == ["root", "L", "R", "L1", "L2",
                                                             "R1", "R2"]
    every = GameTree.from_leaves("1 2", labels=["top", "x", "y"])
    assert [every.node_label(node) for node in range(3)] == ["top", "x", "y"]
    with pytest.raises(TreeFormatError, match=r"expected 3 .* or 7"):
        GameTree.from_leaves("1 2 3 4", labels=["a", "b"])
    with pytest.raises(TreeFormatError, match="unique"):
        GameTree.from_leaves("1 2 3 4", labels=["a", "b", "b"])


def test_nested_lists_allow_uneven_trees() -> None:
    tree = GameTree.from_nested([[3, [1, 7]], 4])
    assert tree.size == 7
    assert minimax(tree).value == 4


def test_mapping_with_plain_child_lists() -> None:
    tree = GameTree.from_mapping("R", {"R": ["X", "Y"]}, {"X": 1, "Y": "win"})
    assert tree.format_move(0, 1) == "X"
    assert minimax(tree).outcome == "win"


def test_json_documents_and_files(tmp_path: Path) -> None:
    documents = [
        {"leaves": [3, 5, 2, 9, 12, 5, 23, 23]},
        {"leaves": "3 5 2 9 12 5 23 23", "branching": 2, "labels": list("ABCDEFG")},
        {"nested": [[[3, 5], [2, 9]], [[12, 5], [23, 23]]]},
        [[[3, 5], [2, 9]], [[12, 5], [23, 23]]],
        {"root": "A", "children": {"A": ["B", "C"], "B": ["B1", "B2"], "C": ["C1", "C2"]},
         "values": {"B1": 3, "B2": 9, "C1": 12, "C2": 23}},
    ]
    for document in documents:
        path = tmp_path / "tree.json"
        path.write_text(json.dumps(document))
        assert minimax(load_tree(path)).value in (12, 9)
        assert minimax(GameTree.from_json(json.dumps(document))).value in (12, 9)


@pytest.mark.parametrize(("build", "message"), [
    (lambda: GameTree.from_leaves("3 5 2"), "power of 2"),
    (lambda: GameTree.from_leaves("3 5 2 9", branching=3), "power of 3"),
    (lambda: GameTree.from_leaves("7"), "power of 2"),
    (lambda: GameTree.from_leaves("3 five"), "'five' is not a number"),
    (lambda: GameTree.from_leaves(""), "no leaf values"),
    (lambda: GameTree.from_leaves("1 2", branching=1), "at least 2"),
    (lambda: GameTree.from_leaves("1 nan"), "finite"),
    (lambda: GameTree.from_leaves("1 1e9"), "within"),
    (lambda: GameTree.from_nested([]), "non-empty list"),
    (lambda: GameTree.from_nested([[1], []]), "no children"),
    (lambda: GameTree.from_nested([True]), "not a number"),
    (lambda: GameTree.from_mapping("A", {"A": ["B", "B"]}, {"B": 1}), "reached twice"),
    (lambda: GameTree.from_mapping("A", {"A": ["B"]}, {}), "neither children nor"),
    (lambda: GameTree.from_mapping("A", {"A": ["B"]}, {"A": 1, "B": 2}), "both children"),
    (lambda: GameTree.from_mapping("A", {"A": ["B"]}, {"B": 1, "Z": 2}), "not reachable"),
    (lambda: GameTree.from_mapping("A", {"A": ["B"], "D": ["E"]}, {"B": 1}),
     "not reachable from the root 'A': D"),
    (lambda: GameTree.from_json('{"root": "A", "children": {"A": 5}, "values": {}}'),
     "children of 'A' must be a list"),
    (lambda: GameTree.from_json('{"root": "A", "children": {"A": [["B"]]}, "values": {}}'),
     "children of 'A' must be a list"),
    (lambda: GameTree.from_json('{"root": "A", "children": {"A": "BC"}, "values": {}}'),
     "children of 'A' must be a list"),
    (lambda: GameTree.from_json('{"leaves": 5}'), "\"leaves\" must be a list"),
    (lambda: GameTree.from_json('{"x": ' * 2000 + "1" + "}" * 2000), "nests 2000 levels"),
    (lambda: build_tree(nested="[" * 3000 + "]" * 3000), "nests 3000 levels"),
    (lambda: GameTree.from_mapping("A", {"A": []}, {}), "empty list"),
    (lambda: GameTree.from_json("{"), "not valid JSON"),
    (lambda: GameTree.from_json("{}"), "needs one of"),
    (lambda: GameTree.from_json('{"root": "A"}'), "needs \"children\""),
    (lambda: GameTree.from_json('{"leaves": [1, 2], "labels": "A"}'), "labels"),
    (lambda: GameTree.from_json("3"), "JSON object or a nested list"),
    (lambda: load_tree("/no/such/tree.json"), "cannot read tree file"),
    (build_tree, "exactly one of"),
    (lambda: build_tree(leaves="1 2", nested="[1, 2]"), "exactly one of"),
    (lambda: build_tree(nested="[1, 2"), "not valid JSON"),
    (lambda: build_tree(file="x.json", labels="A"), "carries its own"),
])
def test_malformed_trees_are_refused_with_a_reason(build: object, message: str) -> None:
    with pytest.raises(TreeFormatError, match=message):
        build()  # type: ignore[operator]


def test_a_chain_too_deep_for_the_recursion_is_refused_with_its_depth() -> None:
    chain = {f"N{index}": [f"N{index + 1}"] for index in range(500)}
    tree = GameTree.from_mapping("N0", chain, {"N500": 3})
    assert search(tree).value == 3  # the engine: one Python frame a ply
    with pytest.raises(ValueError, match="about 450 plies"):
        search(tree, algorithm="minimax")  # two frames a ply


def test_a_budgeted_search_too_deep_for_the_recursion_answers_its_deepest_iteration() -> None:
    chain = {f"N{index}": [f"N{index + 1}"] for index in range(5000)}
    tree = GameTree.from_mapping("N0", chain, {"N5000": 3})
    # Budgets far beyond what the chain needs: the recursion limit ends the deepening first.
    for result in (search(tree, nodes=10**8), search(tree, algorithm="minimax", time=600)):
        assert result.depth is not None and 100 < result.depth < 1000
        assert result.stats.depth_reached == result.depth
        assert result.stats.stopped_by is None and result.value == 0 and not result.complete


def test_moves_are_parsed_by_name_label_or_number() -> None:
    tree = GameTree.from_mapping("A", {"A": {"a1": "B", "a2": "C"}}, {"B": 1, "C": 2})
    assert tree.parse_move(0, "a2") == tree.node("C")
    assert tree.parse_move(0, " c ") == tree.node("C")
    assert tree.parse_move(0, "1") == tree.node("B")
    with pytest.raises(IllegalMoveError, match="moves: a1, a2"):
        tree.parse_move(0, "a3")
    with pytest.raises(IllegalMoveError, match="leaf"):
        tree.parse_move(tree.node("B"), "a1")


def test_render_shows_the_subtree() -> None:
    tree = GameTree.from_leaves("1 2 win draw")
    assert tree.render(0).splitlines() == [
        "A (MAX)", "  B (MIN)", "    B1 = 1", "    B2 = 2", "  C (MIN)", "    C1 = win",
        "    C2 = draw",
    ]


def test_letters() -> None:
    assert [letters(index) for index in (0, 25, 26, 27, 701, 702)] == [
        "A", "Z", "AA", "AB", "ZZ", "AAA"]
