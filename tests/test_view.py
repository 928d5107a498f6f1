"""Game views (gametree.view): what each built-in game declares, the text default, the JSON
form the pages draw from, and the terminal's drawing of the same declaration."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from gametree.game import Game
from gametree.games.tictactoe import MNKGame
from gametree.play import PlaySession, SearchOpponent, Style
from gametree.play.drawing import draw
from gametree.registry import get
from gametree.view import Grid, View
from gametree.web.boards import position_json
from tests.view_games import SPEC, TEXT_SPEC, Countdown, StackThree

SEED_003 = {"leaves": "3 5 2 9 12 5 23 23"}
KINDS = {"tictactoe": "grid", "connect4": "grid", "nim": "heaps", "sticks": "heaps",
         "bones": "heaps", "subtraction": "heaps", "tree": "tree"}


def playouts(game: Game[Any, Any], seed: int = 7, count: int = 6) -> list[tuple[Any, Any]]:
    """``(state, last move)`` along a few random games, from the start to the end."""
    rng = random.Random(seed)
    seen: list[tuple[Any, Any]] = []
    for _ in range(count):
        state, last = game.initial_state(), None
        seen.append((state, last))
        while game.moves(state):
            last = rng.choice(list(game.moves(state)))
            state = game.play(state, last)
            seen.append((state, last))
    return seen


def built_in(name: str) -> Game[Any, Any]:
    return get(name).make(**(SEED_003 if name == "tree" else {}))


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_built_in_game_declares_where_each_move_acts(name: str) -> None:
    game = built_in(name)
    for state, last in playouts(game):
        view = game.view(state, last)
        assert view.kind == KINDS[name]
        legal = list(game.moves(state))
        assert [spot.text for spot in view.moves] == [game.format_move(state, m) for m in legal]
        document = json.loads(json.dumps(view.to_dict()))
        for spot, move in zip(document["moves"], legal, strict=True):
            if view.grid is not None:
                place = spot.get("cell") or [0, spot["column"]]
                assert 0 <= place[0] < view.grid.rows and 0 <= place[1] < view.grid.columns
                after = game.view(game.play(state, move)).to_dict()
                filled = [(r, c) for r in range(view.grid.rows) for c in range(view.grid.columns)
                          if after["grid"]["cells"][r][c] != document["grid"]["cells"][r][c]]
                assert len(filled) == 1  # the move fills one cell: its own, or in its column
                assert filled[0] == tuple(spot["cell"]) if "cell" in spot else \
                    filled[0][1] == spot["column"]
            elif view.heaps is not None:
                heaps = game.view(game.play(state, move)).heaps
                assert heaps is not None
                taken = [a - b for a, b in zip(view.heaps.sizes, heaps.sizes, strict=True)]
                assert taken[spot["heap"]] == spot["count"] == sum(taken)
            else:
                assert view.node is not None
                child = view.node.children[spot["child"]]
                assert game.view(game.play(state, move)).to_dict()["node"]["label"] == child.label
        if last is not None and view.grid is not None:
            assert [mark.kind for mark in view.marks].count("last") == 1


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_terminal_draws_the_view_as_the_game_renders_itself(name: str) -> None:
    # One declaration serves the terminal too: drawn from the view, the board reads as the
    # game's own text (tree views are that text).
    game = built_in(name)
    for state, last in playouts(game, seed=3):
        drawn, rendered = draw(game.view(state, last)), game.render(state)
        assert [line.rstrip() for line in drawn.splitlines()] == \
            [line.rstrip() for line in rendered.splitlines()]


def test_moves_are_joined_as_each_game_splits_them() -> None:
    for name, moves in (("connect4", "4455"), ("tictactoe", "1,1 0,0"), ("nim", "1:1 2:3")):
        spec = get(name)
        game = spec.make()
        state = game.initial_state()
        texts = spec.split_moves(moves)
        for text in texts:
            state = game.play(state, game.parse_move(state, text))
        separator = game.view(state).separator
        assert spec.split_moves(separator.join(texts)) == texts
    assert get("connect4").make().view(get("connect4").make().initial_state()).separator == ""


def test_connect4_and_tictactoe_mark_the_winning_line_and_the_last_move() -> None:
    connect4 = get("connect4").make()
    state, last = connect4.initial_state(), None
    for column in "4455667":
        last = connect4.parse_move(state, column)
        state = connect4.play(state, last)
    view = connect4.view(state, last)
    marks = {(mark.cell, mark.kind) for mark in view.marks}
    assert marks == {((5, 3), "win"), ((5, 4), "win"), ((5, 5), "win"), ((5, 6), "win"),
                     ((5, 6), "last")}
    assert [spot.key for spot in connect4.view(connect4.initial_state()).moves] == \
        [str(column + 1) for column in connect4.moves(connect4.initial_state())]
    tictactoe = MNKGame()
    board = tictactoe.parse_board("xxx/oo_/___")
    assert {mark.cell for mark in tictactoe.view(board).marks} == {(0, 0), (0, 1), (0, 2)}
    assert tictactoe.view(board).flippable and not view.flippable


def test_a_game_that_declares_nothing_gets_a_text_view() -> None:
    game = Countdown()
    state = game.initial_state()
    view = game.view(state)
    assert (view.kind, view.text, view.separator) == ("text", game.render(state), " ")
    assert [(spot.text, spot.key) for spot in view.moves] == [("2", None), ("1", None)]
    document = position_json(game, state)
    assert document["text"] == "counter:    5\n[  #####  ]"  # the spacing is kept
    assert [move["label"] for move in document["moves"]] == ["play 2", "play 1"]
    assert "grid" not in document and "heaps" not in document
    assert draw(view) == game.render(state)


def test_the_position_json_adds_the_players_and_the_result() -> None:
    game = StackThree()
    state, last = game.initial_state(), None
    for text in SPEC.split_moves("a1,b1,a2,b2,a3"):
        last = game.parse_move(state, text)
        state = game.play(state, last)
    document = position_json(game, state, last)
    assert (document["over"], document["winner"], document["result"]) == (True, "X", "X won")
    assert document["moves"] == [] and document["separator"] == ","
    assert sorted(tuple(mark["cell"]) for mark in document["marks"] if mark["kind"] == "win") \
        == [(0, 0), (1, 0), (2, 0)]
    assert {"cell": [0, 0], "kind": "last"} in document["marks"]
    assert TEXT_SPEC.make().view(TEXT_SPEC.make().initial_state()).kind == "text"


def test_a_view_must_hold_the_part_its_kind_names() -> None:
    with pytest.raises(ValueError, match="grid view must have its grid"):
        View(kind="grid", text="")
    with pytest.raises(ValueError, match="text view must not have its grid"):
        View(kind="text", text="", grid=Grid(((),)))


def test_the_terminal_plays_a_users_game_from_its_view() -> None:
    # The session draws the declared grid (row labels, columns lettered below, the last
    # stone painted when colour is on), not the game's render text.
    output = io.StringIO()
    session: PlaySession[Any, Any] = PlaySession(
        StackThree(), SearchOpponent(), human=0, output=output, stdin=io.StringIO("a\nquit\n"),
        style=Style(True))
    session.run()
    transcript = output.getvalue()
    assert "1 \x1b[33;1mX\x1b[0m . . ." in transcript  # our stone in a1, the last move
    assert "  a b c d" in transcript


def test_docs_name_every_field_of_the_json_form() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "json.md").read_text()
    view = StackThree().view(StackThree().initial_state())
    document = view.to_dict()
    names = {*document, *document["grid"], *document["moves"][0]}
    missing = sorted(name for name in names if f"`{name}`" not in docs)
    assert missing == []
