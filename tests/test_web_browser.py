"""The pages of ``gametree serve`` in a real Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium), against a real uvicorn server.

Without a browser these tests skip, saying why; in CI (``CI=true``) they fail instead, so that
a CI log never shows them skipped. The screenshots they take are the ones docs/web.md shows.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gametree.web.app import create_app
from gametree.web.limits import ServerLimits
from tests.web_support import running_server, wait_for

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
BROWSER = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,900")


def _missing() -> str | None:
    for path in (BROWSER, DRIVER):
        if not (os.path.exists(path) or shutil.which(os.path.basename(path))):
            return f"{path} not found (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401, PLC0415
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with running_server(create_app(ServerLimits(workers=2))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"no browser in CI: {missing}")
        pytest.skip(missing)
    from selenium import webdriver  # noqa: PLC0415
    from selenium.webdriver.chrome.service import Service  # noqa: PLC0415

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER if os.path.exists(BROWSER) else str(shutil.which("chromium"))
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="gametree-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(DRIVER if os.path.exists(DRIVER)
                                              else str(shutil.which("chromedriver"))),
                              options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def api(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(f"{base}/api/{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.load(answer)


def data(driver: Any, name: str) -> str:
    value: str = driver.execute_script(f"return document.body.dataset.{name} || ''")
    return value


def idle(driver: Any) -> None:
    """Wait until the page has drawn a position and the engine is not thinking."""
    wait_for(lambda: data(driver, "busy") == "0" and driver.find_elements(
        "css selector", "#board [data-cell]"))


def cells(driver: Any) -> list[str]:
    marks: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#board [data-cell]')].map(n => n.dataset.mark)")
    return marks


def test_a_tictactoe_game_clicked_to_a_draw_against_the_perfect_engine(base: str,
                                                                        browser: Any) -> None:
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
    browser.save_screenshot(str(IMAGES / "play-tictactoe.png"))


def test_a_connect4_game_with_hint_and_undo(base: str, browser: Any) -> None:
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
    browser.save_screenshot(str(IMAGES / "play-connect4.png"))


PRUNED = {"J", "J1", "J2", "K2", "L2", "F", "M", "N", "M1", "M2", "N1", "N2"}


@pytest.mark.parametrize(("algorithm", "values"), [
    ("alphabeta", {"current": "10", "A": "10", "B": "5", "I": "14", "E": "5", "D": "14"}),
    ("alphabeta-hard", {"current": "10", "A": "10", "B": "10", "I": "10", "E": "10",
                        "D": "10"}),
])
def test_the_explain_page_steps_through_seed_004s_tree(base: str, browser: Any, algorithm: str,
                                                       values: dict[str, str]) -> None:
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
    browser.save_screenshot(str(IMAGES / f"{name}.png"))


def test_the_compare_view_and_the_analyse_page(base: str, browser: Any) -> None:
    browser.get(f"{base}/explain?source=seed004&algorithm=alphabeta&compare=1")
    wait_for(lambda: "saved" in browser.find_element("id", "saved").text)
    assert "evaluated 8 leaves instead of 16: 8 saved" in browser.find_element("id", "saved").text
    browser.save_screenshot(str(IMAGES / "explain-compare.png"))
    browser.get(f"{base}/analyse?game=connect4&moves=4455")
    wait_for(lambda: "best move" in browser.find_element("id", "best").text)
    assert browser.find_element("id", "best").text == "best move: 3"
    assert "Pons' score: 18" in browser.find_element("id", "extra").text
    browser.save_screenshot(str(IMAGES / "analyse-connect4.png"))
