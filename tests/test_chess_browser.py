"""Chess in a real Chromium, through its declared view: the glyphs on the board, the FEN given
in the page's URL and shown under the board, the moves in SAN as buttons, a mate played.

Slow, like the other browser tests: a real server and browser for the module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

from gametree.games.chess import ChessGame
from gametree.web.app import create_app
from gametree.web.limits import ServerLimits

# The fixtures browser and images come from web_support: their names are parameters here.
# ruff: noqa: F811
from tests.web_support import (  # noqa: F401
    browser,
    console_errors,
    data,
    idle,
    running_server,
    wait_for,
)

pytestmark = pytest.mark.slow

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with running_server(create_app(ServerLimits(workers=1))) as url:
        yield url


def test_a_chess_position_from_its_fen_is_drawn_in_glyphs_and_mated(
        base: str, browser: Any) -> None:
    console_errors(browser)
    browser.get(f"{base}/play/chess?fen={quote(MATE_IN_ONE)}&strength=depth&level=1")
    idle(browser)
    marks: list[str] = browser.execute_script(
        "return [...document.querySelectorAll('#board [data-cell]')].map(n => n.dataset.mark)")
    assert sorted(mark for mark in marks if mark) == sorted("♚♟♟♟♖♙♙♙♔")
    assert MATE_IN_ONE in browser.find_element("id", "board").text
    buttons = [button.text for button in browser.find_elements("css selector", "#moves button")]
    game = ChessGame(MATE_IN_ONE)
    root = game.initial_state()
    assert buttons == [game.format_move(root, move) for move in game.moves(root)]
    browser.find_element("css selector", "#moves button[data-move='Ra8#']").click()
    wait_for(lambda: data(browser, "over") == "1")
    assert data(browser, "moves") == "Ra8#"
    assert "White won" in browser.find_element("id", "status").text
    assert console_errors(browser) == []
