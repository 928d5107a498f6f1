"""Chance in the browser: the explain page steps through expectiminimax and Star1 on AIMA's
chance tree (chance nodes drawn as circles, each branch with its probability, Star cut-offs
greyed), and a game of Pig is played in the play page with the engine's win probability.

A real Chromium against a real server, as in ``test_web_browser``: outside the core suite.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gametree.web.app import create_app
from gametree.web.limits import ServerLimits

# ruff: noqa: F811
from tests.web_support import (  # noqa: F401
    browser,
    console_errors,
    data,
    idle,
    images,
    running_server,
    wait_for,
)

pytestmark = pytest.mark.slow

NODES = ("return [...document.querySelectorAll('#tree .tree-node')].map(n => [n.dataset.label, "
         "n.dataset.role, n.dataset.state, n.dataset.value, n.dataset.reason || '', "
         "n.querySelector('circle') !== null])")


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with running_server(create_app(ServerLimits(workers=1))) as url:
        yield url


def _to_the_end(browser: Any) -> list[list[Any]]:
    wait_for(lambda: data(browser, "steps") != "")
    browser.find_element("id", "last").click()
    wait_for(lambda: data(browser, "step") == data(browser, "steps"))
    nodes: list[list[Any]] = browser.execute_script(NODES)
    return nodes


def test_the_explain_page_steps_through_expectiminimax_on_aimas_chance_tree(
        base: str, browser: Any, images: Path) -> None:
    console_errors(browser)
    browser.get(f"{base}/explain?source=aimachance&algorithm=expectiminimax")
    wait_for(lambda: data(browser, "steps") != "")
    for _ in range(5):
        browser.find_element("id", "forward").click()
    assert data(browser, "step") == "5"
    nodes = {label: rest for label, *rest in _to_the_end(browser)}
    assert {label for label, (role, *_rest) in nodes.items() if role == "CHANCE"} == {"B", "C"}
    assert all(nodes[label][4] for label in ("B", "C"))  # drawn as circles
    assert (nodes["A"][2], nodes["B"][2], nodes["C"][2]) == ("2.1", "2.1", "1.3")
    assert not any(state == "pruned" for _role, state, *_rest in nodes.values())
    edges = browser.execute_script(
        "return [...document.querySelectorAll('#tree text.probability')].map(t => t.textContent)")
    assert edges == ["p 9/10", "p 1/10", "p 9/10", "p 1/10"]
    log = browser.find_element("id", "log").text
    assert "CHANCE node B... Try Outcome : D (p = 9/10)" in log
    assert console_errors(browser) == []
    browser.save_screenshot(str(images / "explain-chance.png"))


def test_star1_cut_offs_are_greyed_like_alpha_betas(base: str, browser: Any) -> None:
    console_errors(browser)
    browser.get(f"{base}/explain?source=aimachance&algorithm=engine-star1")
    nodes = {label: rest for label, *rest in _to_the_end(browser)}
    greyed = {label for label, (_role, state, *_rest) in nodes.items() if state == "pruned"}
    assert greyed == {"F2", "G", "G1", "G2"}
    assert nodes["G"][3].startswith("Star cut-off at chance node C: its expected value is "
                                    "bounded outside (\u03b1 = 2.1, \u03b2 = 4)")
    assert nodes["A"][2] == "2.1"
    assert console_errors(browser) == []


def test_a_game_of_pig_in_the_browser(base: str, browser: Any, images: Path) -> None:
    console_errors(browser)
    browser.get(f"{base}/play/pig?winscore=6&diceoutcomes=3&horizon=5")
    idle(browser)
    for _ in range(30):
        if data(browser, "over") == "1":
            break
        buttons = browser.find_elements("css selector", "#moves button")
        texts = [button.text.split()[0] for button in buttons]
        assert texts == ["roll", "hold"] or not texts  # (each with its key: "roll r")
        if buttons:
            buttons[0 if len(data(browser, "moves").split()) % 3 else 1].click()
        idle(browser)
    assert data(browser, "over") == "1"
    info = browser.find_element("id", "engine-info").text
    assert info == "" or "win probability" in info
    assert "rolled" in browser.find_element("id", "rolled").text
    assert console_errors(browser) == []
    browser.save_screenshot(str(images / "play-pig.png"))
