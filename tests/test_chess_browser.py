"""Chess in a real Chromium, through its declared view: the glyphs on the board, the FEN given
in the page's URL and shown under the board, the moves in SAN as buttons, a mate played; the
game downloaded as PGN, and a PGN uploaded and pasted (the server reads and writes it).

Slow, like the other browser tests: a real server and browser for the module."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import chess.pgn
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


def test_a_game_downloaded_as_pgn_and_a_pgn_uploaded_and_pasted(
        base: str, browser: Any, tmp_path: Path) -> None:
    console_errors(browser)
    browser.execute_cdp_cmd("Browser.setDownloadBehavior",
                            {"behavior": "allow", "downloadPath": str(tmp_path)})
    browser.get(f"{base}/play/chess?fen={quote(MATE_IN_ONE)}&moves=Ra8%23&strength=depth"
                "&level=1")
    idle(browser)
    wait_for(lambda: data(browser, "over") == "1")
    button = browser.find_element("id", "download-transcript")
    assert button.text == "PGN" and button.is_displayed()
    button.click()
    wait_for(lambda: [path for path in tmp_path.glob("chess-*.pgn")])
    saved = next(tmp_path.glob("chess-*.pgn"))
    wait_for(lambda: saved.read_text().rstrip().endswith("1-0"))
    game = chess.pgn.read_game(io.StringIO(saved.read_text()))
    assert game is not None and not game.errors
    assert (game.headers["FEN"], game.headers["Result"], game.headers["White"]) == \
        (MATE_IN_ONE, "1-0", "you")
    assert [move.uci() for move in game.mainline_moves()] == ["a1a8"]
    # Upload a PGN of another program: the game it holds, from the standard start; the
    # person takes the side it calls "you" (Black, to move: the engine waits).
    opening = tmp_path / "opening.pgn"
    opening.write_text('[White "Anderssen"]\n[Black "you"]\n\n1. e4 e5 2. f4 exf4 '
                       '3. Bc4 *\n')
    browser.get(f"{base}/play/chess?strength=depth&level=1")
    idle(browser)
    browser.find_element("id", "upload").send_keys(str(opening))
    wait_for(lambda: (data(browser, "plies") == "5" and data(browser, "busy") == "0")
             or browser.find_element("id", "error").text)
    assert browser.find_element("id", "error").text == ""
    assert data(browser, "moves") == "e4 e5 f4 exf4 Bc4"
    # Pasted, with an illegal move: the server's one line, nothing of the game left.
    browser.find_element("id", "transcript-text").send_keys("1. e4 e5 2. Ke3 *")
    browser.find_element("id", "load-transcript").click()
    wait_for(lambda: browser.find_element("id", "error").text)
    assert browser.find_element("id", "error").text == (
        "move 2. Ke3 cannot be played (illegal SAN) in "
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    assert browser.find_elements("css selector", "#board *") == []
    # An uploaded file that is no PGN game: named with the server's line.
    bad = tmp_path / "bad.pgn"
    bad.write_text("hello\n")
    browser.find_element("id", "upload").send_keys(str(bad))
    wait_for(lambda: browser.find_element("id", "error").text.startswith("bad.pgn"))
    assert browser.find_element("id", "error").text == \
        "bad.pgn: not a PGN game: no tag pairs and no moves in it"
    assert [error for error in console_errors(browser) if "400" not in error] == []
