"""The pages of ``gametree serve`` in a real Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium), against a real uvicorn server.

Without a browser these tests skip, saying why; in CI (``CI=true``) they fail instead, so that
a CI log never shows them skipped. The screenshots they take are the ones docs/web.md shows:
they go to a temporary directory, or, to retake the docs' pictures, to the directory named by
``GAMETREE_SCREENSHOTS`` (``GAMETREE_SCREENSHOTS=docs/images python -m pytest
tests/test_web_browser.py``), so that a test run never changes the checkout.

They are outside the core suite (``slow``): a real browser and server for each module.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gametree.web.app import create_app
from gametree.web.limits import ServerLimits

# The fixtures browser and images come from web_support: their names are parameters here.
# ruff: noqa: F811
from tests.web_support import (  # noqa: F401
    api,
    browser,
    cells,
    console_errors,
    data,
    idle,
    images,
    labels,
    press,
    quiet_console,
    running_server,
    wait_for,
)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("quiet_console")]


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with running_server(create_app(ServerLimits(workers=2))) as url:
        yield url



def test_a_tictactoe_game_clicked_to_a_draw_against_the_perfect_engine(
        base: str, browser: Any, images: Path) -> None:
    browser.get(f"{base}/play/tictactoe")
    idle(browser)
    while data(browser, "over") != "1":
        moves = data(browser, "moves")
        analysis = api(base, "analyze", {"game": "tictactoe", "moves": moves})
        drawing = next(entry["move"] for entry in analysis["moves"] if entry["value"] == 0)
        row, col = drawing.split(",")
        before = cells(browser).count("X")
        browser.find_element("css selector", f"#board g[data-cell='{row},{col}']").click()
        wait_for(lambda: cells(browser).count("X") == before + 1)  # noqa: B023
        assert cells(browser)[int(row) * 3 + int(col)] == "X"
        idle(browser)
        wait_for(lambda: data(browser, "over") == "1" or
                 cells(browser).count("O") == cells(browser).count("X"))
    assert "draw" in browser.find_element("id", "status").text
    assert sorted(cells(browser)).count("") == 0
    browser.save_screenshot(str(images / "play-tictactoe.png"))


def test_a_connect4_game_with_hint_and_undo(base: str, browser: Any, images: Path) -> None:
    browser.get(f"{base}/play/connect4?strength=depth&level=4")
    idle(browser)

    def mark(cell: str) -> str:
        found: str = browser.find_element("css selector", f"#board [data-cell='{cell}']") \
            .get_attribute("data-mark")
        return found

    browser.find_element("css selector", "#moves button[data-move='4']").click()
    wait_for(lambda: len(data(browser, "moves")) == 2)  # our stone, then the engine's
    idle(browser)
    assert mark("5,3") == "X"
    reply = int(data(browser, "moves")[1]) - 1
    assert mark("4,3" if reply == 3 else f"5,{reply}") == "O"
    browser.find_element("id", "hint").click()
    wait_for(lambda: browser.find_elements("css selector", "#moves button.hint"))
    hinted = browser.find_element("css selector", "#moves button.hint").get_attribute("data-move")
    browser.find_element("css selector", f"#moves button[data-move='{hinted}']").click()
    wait_for(lambda: len(data(browser, "moves")) == 4)
    idle(browser)
    board = [mark(f"{row},{col}") for row in range(6) for col in range(7)]
    assert (board.count("X"), board.count("O")) == (2, 2)
    browser.find_element("id", "undo").click()
    wait_for(lambda: len(data(browser, "moves")) == 2)
    idle(browser)
    assert sum(mark(f"{row},{col}") != "" for row in range(6) for col in range(7)) == 2
    assert mark("5,3") == "X"
    browser.find_element("id", "show-values").click()
    wait_for(lambda: browser.find_elements("css selector", "#moves button small"))
    browser.save_screenshot(str(images / "play-connect4.png"))


PRUNED = {"J", "J1", "J2", "K2", "L2", "F", "M", "N", "M1", "M2", "N1", "N2"}


@pytest.mark.parametrize(("algorithm", "values"), [
    ("alphabeta", {"current": "10", "A": "10", "B": "5", "I": "14", "E": "5", "D": "14"}),
    ("alphabeta-hard", {"current": "10", "A": "10", "B": "10", "I": "10", "E": "10",
                        "D": "10"}),
])
def test_the_explain_page_steps_through_seed_004s_tree(base: str, browser: Any, algorithm: str,
                                                       values: dict[str, str],
                                                       images: Path) -> None:
    browser.get(f"{base}/explain?source=seed004&algorithm={algorithm}")
    wait_for(lambda: data(browser, "steps") != "")
    steps = int(data(browser, "steps"))
    forward = browser.find_element("id", "forward")
    for step in range(1, steps + 1):
        forward.click()
        if step == 40:  # back and forward again
            browser.find_element("id", "back").click()
            assert data(browser, "step") == "39"
            forward.click()
        assert data(browser, "step") == str(step)
    nodes = browser.execute_script(
        "return [...document.querySelectorAll('#tree .tree-node')].map(n => "
        "[n.dataset.label, n.dataset.state, n.dataset.value, n.dataset.reason || ''])")
    greyed = {label for label, state, _value, _reason in nodes if state == "pruned"}
    assert greyed == PRUNED
    shown = {label: value for label, _state, value, _reason in nodes}
    assert {label: shown[label] for label in values} == values
    reasons = {label: reason for label, _state, _value, reason in nodes}
    # (alpha, beta) at D and B when they cut: fail-hard clamps the values backed up into them.
    at_d, at_b = ((14, 10), (10, 5)) if algorithm == "alphabeta" else ((10, 10), (10, 10))
    assert reasons["J"] == "alpha >= beta at node D (\u03b1 = {}, \u03b2 = {})".format(*at_d)
    assert reasons["F"] == "alpha >= beta at node B (\u03b1 = {}, \u03b2 = {})".format(*at_b)
    log = browser.find_element("id", "log").text
    assert "MAX node D... Prune : J ( A = " in log
    name = "explain-seed004-fail-soft" if algorithm == "alphabeta" else "explain-seed004-fail-hard"
    browser.save_screenshot(str(images / f"{name}.png"))


def test_the_compare_view_and_the_analyse_page(base: str, browser: Any, images: Path) -> None:
    browser.get(f"{base}/explain?source=seed004&algorithm=alphabeta&compare=1")
    wait_for(lambda: "saved" in browser.find_element("id", "saved").text)
    assert "evaluated 8 leaves instead of 16: 8 saved" in browser.find_element("id", "saved").text
    browser.save_screenshot(str(images / "explain-compare.png"))
    browser.get(f"{base}/analyse?game=connect4&moves=4455")
    wait_for(lambda: "best move" in browser.find_element("id", "best").text)
    assert browser.find_element("id", "best").text == "best move: 3"
    assert "Pons' score: 18" in browser.find_element("id", "extra").text
    browser.save_screenshot(str(images / "analyse-connect4.png"))


# -- every page: no console errors, the icon, accessible names ------------------------------

PAGES = {
    "/": "document.querySelectorAll('#games li').length > 0",
    "/play/tictactoe": "document.body.dataset.busy === '0'",
    "/play/connect4?moves=4455&values=1": "document.querySelectorAll('#moves small').length",
    "/play/nim?rows=1,3,5&misere=true": "document.body.dataset.busy === '0'",
    "/play/sticks": "document.body.dataset.busy === '0'",
    "/play/bones?heap=12": "document.body.dataset.busy === '0'",
    "/play/subtraction?heap=15&takes=1,3,4": "document.body.dataset.busy === '0'",
    "/play/tree": "document.body.dataset.busy === '0'",
    "/explain": "document.body.dataset.steps",
    "/explain?source=seed000&algorithm=negamax&step=5": "document.body.dataset.step === '5'",
    "/explain?source=seed004&compare=1": "document.getElementById('saved').textContent",
    "/analyse": "document.getElementById('best').textContent",
    "/analyse?game=tictactoe&board=xo_/_x_/__o": "document.getElementById('best').textContent",
    "/docs": "document.querySelectorAll('.opblock').length >= 8",
}


@pytest.mark.parametrize("path", PAGES)
def test_every_page_draws_without_a_console_error(base: str, browser: Any, path: str) -> None:
    browser.get(f"{base}{path}")
    wait_for(lambda: browser.execute_script(f"return Boolean({PAGES[path]})"))
    if browser.find_elements("id", "error"):
        assert browser.find_element("id", "error").text == ""
    icon = browser.execute_script(
        "const link = document.querySelector('link[rel~=icon]'); return link && link.href")
    assert icon and urllib.request.urlopen(icon, timeout=30).status == 200
    assert console_errors(browser) == []


VALUE_WORDS = (r"((at (most|least) )?(win in \d+|loss in \d+|draw|-?\d+)"
               r"|estimate (at (most|least) )?[+-]?\d+)")
"""A value in the words of the JSON's ``value_text`` (a bound starts with "at most" or "at
least"; a depth-limited value is an estimate)."""


def test_connect4_by_keyboard_with_accessible_labels(base: str, browser: Any) -> None:
    # From 4455 (X wins in 3): the values of every move are proven at once.
    browser.get(f"{base}/play/connect4?moves=4455&strength=depth&level=2")
    idle(browser)
    assert labels(browser, "#board [role=button]") == [f"drop in column {c}" for c in range(1, 8)]
    assert labels(browser, "#moves button") == [f"play {c}" for c in range(1, 8)]
    press(browser, "4")  # a digit drops a stone in its column
    wait_for(lambda: len(data(browser, "moves")) == 6)  # ours, then the engine's
    idle(browser)
    assert data(browser, "moves").startswith("44554")
    assert browser.find_element("css selector", "#board [data-cell='3,3']") \
        .get_attribute("data-mark") == "X"
    press(browser, "v")  # values: each move's label says it
    wait_for(lambda: browser.find_elements("css selector", "#moves button small"))
    # The words are the server's (each move's value_text): the page derives none.
    assert all(re.fullmatch(rf"play [1-7]: {VALUE_WORDS}", label)
               for label in labels(browser, "#moves button")), labels(browser, "#moves button")
    assert all(re.fullmatch(rf"drop in column [1-7] \({VALUE_WORDS}\)", label)
               for label in labels(browser, "#board [role=button]"))
    press(browser, "h")  # hint
    wait_for(lambda: browser.find_elements("css selector", "#moves button.hint"))
    press(browser, "u")  # undo: the engine's reply and our stone
    wait_for(lambda: data(browser, "moves") == "4455")
    idle(browser)
    press(browser, "s")  # swap: the engine plays X
    wait_for(lambda: len(data(browser, "moves")) == 5)
    idle(browser)
    assert "side=1" in browser.current_url
    press(browser, "n")  # new game: the engine (first) plays again
    wait_for(lambda: len(data(browser, "moves")) == 1 and data(browser, "busy") == "0")


def test_tictactoe_nim_bones_and_a_tree_by_keyboard_and_clicks(base: str, browser: Any) -> None:
    browser.get(f"{base}/play/tictactoe")
    idle(browser)
    assert labels(browser, "#board [role=button]") == [
        f"play {row},{col}" for row in range(3) for col in range(3)]
    press(browser, "5")  # cells 1-9 row by row: 5 is the centre
    wait_for(lambda: cells(browser).count("O") == 1)
    assert cells(browser)[4] == "X"
    idle(browser)

    def corner(cell: str) -> tuple[float, float]:
        box: dict[str, float] = browser.execute_script(
            f"return document.querySelector(\"#board [data-cell='{cell}'] rect\").getBBox()")
        return box["x"], box["y"]

    assert corner("0,0") < corner("2,2")
    press(browser, "f")  # the grid's view may be flipped: 0,0 is drawn at the bottom right
    wait_for(lambda: "flip=1" in browser.current_url)
    assert corner("0,0") > corner("2,2")
    assert cells(browser)[4] == "X"
    browser.get(f"{base}/play/nim?rows=1,3,5")
    idle(browser)
    assert "take 2 from row 3" in labels(browser, "#board [role=button]")
    browser.find_element("css selector", "#board [data-heap='2'][data-counter='3']").click()
    wait_for(lambda: data(browser, "moves").startswith("3:2 "))  # then the engine's reply
    browser.get(f"{base}/play/bones?heap=12&side=0")
    idle(browser)
    assert labels(browser, "#board [role=button]") == ["take 3", "take 2", "take 1"]
    press(browser, "2")  # a digit takes that many
    wait_for(lambda: data(browser, "moves").startswith("2 "))
    idle(browser)
    heap = int(browser.execute_script(
        "return document.querySelectorAll('#board rect[data-counter]').length"))
    taken = int(data(browser, "moves").split()[1])
    assert heap == 12 - 2 - taken
    browser.find_element("css selector", f"#board rect[data-counter='{heap - 1}']").click()
    wait_for(lambda: data(browser, "moves").startswith(f"2 {taken} 1"))
    browser.get(f"{base}/play/tree")  # seed 003's tree unless the URL gives one
    idle(browser)
    assert browser.find_element("css selector", "#options input[name=leaves]") \
        .get_attribute("value") == "3 5 2 9 12 5 23 23"
    press(browser, "2")  # the second child
    wait_for(lambda: data(browser, "over") == "1" or len(data(browser, "moves").split()) >= 2)
    assert data(browser, "moves").split()[0] == "C"  # the root's children are B and C


def test_the_explain_page_by_keyboard_and_an_uploaded_tree(base: str, browser: Any,
                                                          tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select  # noqa: PLC0415

    # aima-python's Fig 5.2 as a JSON file, with names of our own.
    document = {"root": "R", "children": {"R": ["P", "Q"], "P": ["P1", "P2"], "Q": ["Q1", "Q2"]},
                "values": {"P1": 3, "P2": 12, "Q1": 2, "Q2": 4}}
    upload = tmp_path / "tree.json"
    upload.write_text(json.dumps(document))
    browser.get(f"{base}/explain?source=json")
    Select(browser.find_element("id", "algorithm")).select_by_value("minimax")
    browser.find_element("id", "file").send_keys(str(upload))
    browser.find_element("id", "show").click()
    wait_for(lambda: data(browser, "steps") != "")
    assert data(browser, "step") == "0"
    nodes = browser.execute_script(
        "return [...document.querySelectorAll('#tree .tree-node')].map(n => n.dataset.label)")
    assert nodes == ["R", "P", "Q", "P1", "P2", "Q1", "Q2"]
    assert labels(browser, "#tree .tree-node")[0] == "MAX node R"
    steps = int(data(browser, "steps"))
    press(browser, "\ue014")  # arrow right
    assert data(browser, "step") == "1"
    press(browser, "\ue014\ue014\ue012")  # right, right, left
    assert data(browser, "step") == "2"
    press(browser, "\ue010")  # End
    assert data(browser, "step") == str(steps)
    assert labels(browser, "#tree .tree-node")[:3] == ["MAX node R = 3", "MIN node P = 3",
                                                       "MIN node Q = 2"]
    assert "value 3, best move P" in browser.find_element("id", "counts").text
    press(browser, "\ue011")  # Home
    assert data(browser, "step") == "0"
    speed = browser.find_element("id", "speed")
    browser.execute_script("arguments[0].value = 30", speed)
    press(browser, " ")  # play: to the end, where it stops by itself
    assert browser.find_element("id", "play").text == "\u2016 Pause"
    wait_for(lambda: data(browser, "step") == str(steps))
    wait_for(lambda: browser.find_element("id", "play").text == "\u25b6 Play")
    browser.execute_script("arguments[0].value = 1", speed)  # one step a second
    press(browser, " ")  # play again, from the start
    wait_for(lambda: data(browser, "step") == "1")
    press(browser, " ")  # pause
    assert browser.find_element("id", "play").text == "\u25b6 Play"
    assert int(data(browser, "step")) < steps
