"""Games defined outside the package, played in a real Chromium through what they declare.

The server is given the games by import path (``create_app(games=...)``; its worker processes
import them too), so nothing in ``gametree`` knows them: the page learns the board, where each
move acts, the keys, the moves' separator and the result from the API alone. Stack three
(``tests/view_games.py``) declares a grid view; Countdown declares nothing and must still be
playable as its text with its spacing kept, its moves as a list and no key hints.

Slow, like the other browser tests: a real server and browser for the module.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gametree.web.app import create_app
from gametree.web.limits import ServerLimits
from tests.view_games import Countdown, StackThree

# The fixtures browser and images come from web_support: their names are parameters here.
# ruff: noqa: F811
from tests.web_support import (  # noqa: F401
    api,
    browser,
    console_errors,
    data,
    idle,
    images,
    press,
    quiet_console,
    running_server,
    wait_for,
)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("quiet_console")]

GAMES = ("tests.view_games:SPEC", "tests.view_games:TEXT_SPEC")
"""The games the server offers, by import path."""

@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with running_server(create_app(ServerLimits(workers=1), games=GAMES)) as url:
        yield url



def grid_cells(driver: Any) -> list[list[str]]:
    """The drawn grid's labels by row, from the board's cells (``data-cell="row,col"``)."""
    found: list[list[Any]] = driver.execute_script(
        "return [...document.querySelectorAll('#board [data-cell]')]"
        ".map(n => [n.dataset.cell, n.dataset.mark, n.dataset.highlight])")
    rows = 1 + max(int(cell.split(",")[0]) for cell, _mark, _high in found)
    columns = 1 + max(int(cell.split(",")[1]) for cell, _mark, _high in found)
    grid = [[""] * columns for _ in range(rows)]
    for cell, mark, _high in found:
        row, col = map(int, cell.split(","))
        grid[row][col] = mark
    return grid


def highlighted(driver: Any, kind: str) -> set[str]:
    found: list[str] = driver.execute_script(
        f"return [...document.querySelectorAll('#board [data-cell].{kind}')]"
        ".map(n => n.dataset.cell)")
    return set(found)


def test_a_users_grid_game_played_to_its_end_by_clicking_its_cells(
        base: str, browser: Any, images: Path) -> None:
    browser.get(f"{base}/play/stackthree?strength=depth&level=2")
    idle(browser)
    assert browser.find_element("id", "title").text == "Play stackthree"
    # Keys the game declared (a-d, its columns), in the hint line and on the move buttons.
    assert "a, b, c, d play" in browser.find_element("id", "keys").text
    assert [button.get_attribute("aria-keyshortcuts") for button in
            browser.find_elements("css selector", "#moves button")] == ["a", "b", "c", "d"]
    game = StackThree()
    clicks = 0
    while data(browser, "over") != "1":
        position = api(base, "position", {"game": "stackthree", "moves": data(browser, "moves")})
        assert position["to_move"] == 0  # our turn whenever the page is idle and not over
        # Click the drawn cell of the first legal move (the lowest empty cell of a column).
        cell = position["moves"][0]["cell"]
        played = data(browser, "moves")
        target = browser.find_element("css selector",
                                      f"#board [data-cell='{cell[0]},{cell[1]}'][role=button]")
        assert target.get_attribute("aria-label") == position["moves"][0]["label"]
        target.click()
        clicks += 1
        wait_for(lambda: data(browser, "moves") != played)  # noqa: B023
        idle(browser)
        wait_for(lambda: data(browser, "over") == "1" or
                 len(data(browser, "moves").split(",")) % 2 == 0)
        idle(browser)
        assert grid_cells(browser)[cell[0]][cell[1]] == "X"
    moves = data(browser, "moves")
    assert "," in moves and clicks >= 3  # the page joined the moves with the game's separator
    # The result shown is the game's own, for the moves the page played.
    state = game.initial_state()
    for text in moves.split(","):
        state = game.play(state, game.parse_move(state, text))
    outcome = game.outcome(state)
    expected = "draw" if outcome == 0 else f"{'X' if outcome == 1 else 'O'} won"
    assert browser.find_element("id", "status").text == f"Game over: {expected}."
    winner = game.winner(state)
    if winner is not None:  # the winning line is marked, on the winner's stones only
        marked = highlighted(browser, "win")
        drawn = grid_cells(browser)
        assert len(marked) >= 3
        assert {drawn[int(c.split(",")[0])][int(c.split(",")[1])] for c in marked} == {"XO"[winner]}
    assert browser.find_elements("css selector", "#moves button") == []
    browser.save_screenshot(str(images / "play-stackthree.png"))
    # The URL keeps the moves in the game's notation: reloading shows the same board.
    drawn = grid_cells(browser)
    browser.get(browser.current_url)
    idle(browser)
    assert data(browser, "moves") == moves and grid_cells(browser) == drawn


def test_a_users_grid_game_by_its_keys_and_undo(base: str, browser: Any) -> None:
    browser.get(f"{base}/play/stackthree?strength=depth&level=1")
    idle(browser)
    press(browser, "c")  # the key the game gave column c: its lowest cell, c1
    wait_for(lambda: data(browser, "moves").startswith("c1,"))
    idle(browser)
    assert grid_cells(browser)[2][2] == "X"
    press(browser, "u")  # undo: the engine's reply and our stone
    wait_for(lambda: data(browser, "moves") == "")
    idle(browser)
    assert all(mark == "" for row in grid_cells(browser) for mark in row)


def test_a_game_that_declares_no_view_is_played_as_its_text(
        base: str, browser: Any, images: Path) -> None:
    browser.get(f"{base}/play/countdown?start=7&strength=depth&level=3")
    idle(browser)
    game = Countdown(7)
    lines: list[list[Any]] = browser.execute_script(
        "return [...document.querySelectorAll('#board text')]"
        ".map(n => [n.textContent, n.getNumberOfChars()])")
    expected = game.render(game.initial_state()).split("\n")
    assert [text for text, _chars in lines] == expected
    # Every space is drawn: a collapsed space would not be a character of the drawing.
    assert [chars for _text, chars in lines] == [len(line) for line in expected]
    # A list of moves, and no key hints: the game declared no keys.
    assert [button.text for button in browser.find_elements("css selector", "#moves button")] \
        == ["2", "1"]
    assert browser.find_elements("css selector", "#moves kbd, [aria-keyshortcuts]") == []
    assert browser.find_element("id", "move-keys").text == ""
    assert browser.find_element("id", "flip").is_displayed() is False
    browser.save_screenshot(str(images / "play-countdown.png"))
    while data(browser, "over") != "1":
        played = data(browser, "moves")
        browser.find_element("css selector", "#moves button[data-move='1']").click()
        wait_for(lambda: data(browser, "moves") != played)  # noqa: B023
        idle(browser)
    state = game.initial_state()
    for text in data(browser, "moves").split():
        state = game.play(state, game.parse_move(state, text))
    winner = "first player" if game.outcome(state) == 1 else "second player"
    assert browser.find_element("id", "status").text == f"Game over: {winner} won."
    press(browser, "1")  # a digit is not a key of this game: nothing happens
    assert console_errors(browser) == []
