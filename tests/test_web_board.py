"""The analysis board of ``gametree serve`` in a real Chromium, at 1280 and 390 px: the move
list stepping through a finished game (buttons, keys, the URL), the value history chart and
the evaluation bar, game records downloaded and uploaded, errors that clear what was shown,
the explain log beside the tree on a wide screen, and no page wider than a phone's screen.

Slow, like the other browser tests: a real server and browser for the module.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from gametree.builder import BuildPlan, BuildRequest, build
from gametree.db import books
from gametree.records import read_record
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
    press,
    quiet_console,
    running_server,
    wait_for,
    wait_prepared,
)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("quiet_console")]

X_WINS = ["0,0", "1,0", "0,1", "1,1", "0,2"]
"""A tic-tac-toe game X wins along the top row in five moves."""
RECORD_KEYS = {"format", "version", "game", "options", "players", "level", "moves", "values",
               "result", "date"}


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with running_server(create_app(ServerLimits(workers=2))) as url:
        yield url



def screen(browser: Any, width: int) -> None:
    """Make the page `width` CSS pixels wide (a desktop screen, or a phone's 390)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})


@pytest.fixture
def phone(browser: Any) -> Iterator[None]:
    screen(browser, 390)
    yield
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.fixture
def desktop(browser: Any) -> Iterator[None]:
    screen(browser, 1280)
    yield
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def game_url(base: str, moves: list[str], extra: str = "") -> str:
    return f"{base}/play/tictactoe?moves={'%20'.join(moves)}{extra}"


def width_now(browser: Any) -> tuple[int, int]:
    scroll, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]")
    return int(scroll), int(inner)


NARROW_PAGES = {
    "/play/connect4?moves=4455": "document.body.dataset.busy === '0'",
    "/play/tictactoe": "document.body.dataset.busy === '0'",
    "/play/nim": "document.body.dataset.busy === '0'",
    "/play/tree": "document.body.dataset.busy === '0'",
    "/explain": "document.body.dataset.steps",
    "/analyse": "document.getElementById('best').textContent",
    "/": "document.querySelectorAll('#games li').length > 0",
}


@pytest.mark.parametrize("path", NARROW_PAGES)
def test_no_page_scrolls_sideways_on_a_390_px_phone(base: str, browser: Any, phone: None,
                                                    path: str) -> None:
    browser.get(f"{base}{path}")
    wait_for(lambda: browser.execute_script(f"return Boolean({NARROW_PAGES[path]})"))
    time.sleep(0.3)  # the last drawing's layout
    scroll, inner = width_now(browser)
    assert inner == 390
    assert scroll <= inner, f"{path} is {scroll} px wide on a {inner} px screen"


def test_the_explain_log_is_beside_the_tree_at_1280_px_and_under_it_at_390(
        base: str, browser: Any, desktop: None) -> None:
    browser.get(f"{base}/explain?source=seed004&step=20")
    wait_for(lambda: data(browser, "step") == "20")
    where = ("const t = document.getElementById('tree-panel').getBoundingClientRect(), "
             "l = document.getElementById('log').getBoundingClientRect(); "
             "return [t.left, t.right, t.top, t.bottom, l.left, l.top]")
    _left, right, top, _bottom, log_left, log_top = browser.execute_script(where)
    assert log_left >= right and abs(log_top - top) < 5  # beside it, level with it
    assert width_now(browser)[0] <= 1280
    screen(browser, 390)
    browser.get(f"{base}/explain?source=seed004&step=20")
    wait_for(lambda: data(browser, "step") == "20")
    _left, _right, _top, bottom, _log_left, log_top = browser.execute_script(where)
    assert log_top >= bottom  # under it
    press(browser, "\ue010")  # End: the last node is far right in a tree wider than the phone
    wait_for(lambda: data(browser, "step") == data(browser, "steps"))
    inside = browser.execute_script(
        "const p = document.getElementById('tree-panel').getBoundingClientRect(), "
        "n = document.querySelector('#tree .tree-node.current').getBoundingClientRect(); "
        "return [p.left <= n.left && n.right <= p.right, "
        "document.getElementById('tree-panel').scrollLeft]")
    assert inside[0] and inside[1] > 0  # scrolled to keep the current node in sight


def test_the_move_list_steps_through_a_finished_game(base: str, browser: Any,
                                                     desktop: None) -> None:
    browser.get(game_url(base, X_WINS))
    idle(browser)
    assert (data(browser, "over"), data(browser, "ply"), data(browser, "plies")) == ("1", "5", "5")
    assert browser.find_elements("css selector", "#board line.win-line")  # the top row, struck
    history = browser.execute_script(
        "return [...document.querySelectorAll('#history button')].map(b => b.textContent)")
    assert history == ["start", *X_WINS]
    press(browser, "\ue011")  # Home: the empty board
    wait_for(lambda: data(browser, "ply") == "0" and data(browser, "busy") == "0")
    assert cells(browser) == [""] * 9
    assert "ply=0" in browser.current_url
    press(browser, "\ue014")  # arrow right: X's first move
    wait_for(lambda: cells(browser).count("X") == 1)
    assert data(browser, "ply") == "1" and cells(browser)[0] == "X"
    browser.find_element("css selector", "#history button[data-ply='4']").click()
    wait_for(lambda: data(browser, "ply") == "4" and cells(browser).count("") == 5)
    assert browser.find_element("css selector", "#history button[data-ply='4']") \
        .get_attribute("aria-current") == "step"
    browser.find_element("id", "go-back").click()
    wait_for(lambda: data(browser, "ply") == "3" and cells(browser).count("") == 6)
    assert data(browser, "plies") == "5"  # looking back changes nothing of the game
    browser.get(browser.current_url)  # the URL holds the position shown: reload restores it
    wait_for(lambda: data(browser, "ply") == "3" and data(browser, "busy") == "0")
    assert cells(browser).count("") == 6 and data(browser, "plies") == "5"
    press(browser, "\ue010")  # End: the game's end again
    wait_for(lambda: data(browser, "ply") == "5" and data(browser, "over") == "1")
    assert "ply=" not in browser.current_url


def test_a_move_played_in_the_past_starts_a_new_line_there(base: str, browser: Any,
                                                          desktop: None) -> None:
    browser.get(game_url(base, X_WINS, "&ply=2"))
    wait_for(lambda: data(browser, "ply") == "2" and data(browser, "busy") == "0")
    assert "a move here replaces the later ones" in browser.find_element("id", "status").text
    press(browser, "9")  # X's cell 9 (2,2) instead of 0,1; then the engine replies
    wait_for(lambda: data(browser, "plies") == "4" and data(browser, "busy") == "0")
    assert data(browser, "moves").split()[:3] == ["0,0", "1,0", "2,2"]


def test_the_value_chart_and_the_evaluation_bar(base: str, browser: Any, desktop: None,
                                                images: Path) -> None:
    browser.get(game_url(base, X_WINS))
    idle(browser)
    assert browser.find_element("id", "bar").get_attribute("data-share") == "1.000"  # X won
    assert len(browser.find_elements("css selector", "#chart .chart-point")) == 1  # the result
    browser.find_element("id", "evaluate").click()
    wait_for(lambda: browser.find_element("id", "evaluating").text == "every position valued")
    points = browser.execute_script(
        "return [...document.querySelectorAll('#chart .chart-point')]"
        ".map(p => [Number(p.dataset.ply), p.dataset.kind, Number(p.getAttribute('cy'))])")
    assert [ply for ply, _kind, _y in points] == [0, 1, 2, 3, 4, 5]
    # The server's values: the start is a draw; after 0,0 1,0 (O erred) X wins.
    expected = [api(base, "solve", {"game": "tictactoe", "moves": " ".join(X_WINS[:ply])})
                ["value_kind"] for ply in range(5)]
    assert [kind for _ply, kind, _y in points[:5]] == expected
    assert expected[0] == "draw" and expected[2] == "win"
    ys = {ply: y for ply, _kind, y in points}
    assert ys[2] < ys[0]  # up is X winning: above the draw line
    assert ys[2] == ys[5]  # a proven win for X and the won game: both at the top edge
    press(browser, "\ue011")  # Home: the bar of the start, a draw
    wait_for(lambda: browser.find_element("id", "bar").get_attribute("data-share") == "0.500")
    assert browser.find_element("id", "bar").get_attribute("aria-label") == \
        "evaluation: X to move: draw"
    browser.find_element("css selector", "#chart .chart-point[data-ply='3']").click()
    wait_for(lambda: data(browser, "ply") == "3")
    legend = browser.execute_script(
        "return [...document.querySelectorAll('#legend [data-kind]')].map(s => s.dataset.kind)")
    assert legend == ["win", "draw", "loss", "estimate"]
    browser.save_screenshot(str(images / "play-board-chart.png"))


def test_values_beyond_the_proven_say_they_are_heuristic_with_their_depth(
        base: str, browser: Any, desktop: None) -> None:
    # Connect Four at a depth of 2 plies: the engine's values are estimates, and said to be.
    browser.get(f"{base}/play/connect4?side=1&strength=depth&level=2")
    wait_for(lambda: data(browser, "plies") == "1" and data(browser, "busy") == "0")
    words = browser.find_element("id", "values-words").text
    assert words.startswith("Values: heuristic, depth 2 — the depth was limited to 2 plies")
    assert "not proven" in words
    browser.get(f"{base}/analyse?game=tictactoe&moves=1,1")
    wait_for(lambda: browser.find_element("id", "values-words").text)
    assert browser.find_element("id", "values-words").text.startswith("Values: exact — ")
    kinds = browser.execute_script(
        "return [...document.querySelectorAll('#table tr[data-move] td:last-child')]"
        ".map(td => td.textContent)")
    assert kinds and set(kinds) == {"exact"}


def test_the_notation_is_on_the_page_and_no_command_line_words(base: str, browser: Any) -> None:
    games = {spec["name"]: spec for spec in json.load(
        urllib.request.urlopen(f"{base}/api/games", timeout=30))}
    browser.get(f"{base}/")
    wait_for(lambda: browser.find_elements("css selector", "#games li"))
    assert "--" not in browser.find_element("tag name", "main").text
    assert "misere: it loses" in browser.find_element("id", "games").text
    browser.get(f"{base}/play/nim")
    idle(browser)
    assert games["nim"]["notation"] in browser.find_element("id", "notation").text
    titles = browser.execute_script(
        "return [...document.querySelectorAll('label[title]')].map(l => l.title).join(' ')")
    assert "--" not in titles
    browser.get(f"{base}/play/tree")
    idle(browser)
    outline = browser.execute_script("return document.getElementById('position-text').textContent")
    assert outline.splitlines()[:3] == ["A (MAX)", "  B (MIN)", "    D (MAX)"]  # indented


def test_an_error_clears_the_previous_result(base: str, browser: Any, tmp_path: Path,
                                             desktop: None) -> None:
    from selenium.webdriver.support.ui import Select  # noqa: PLC0415

    browser.get(f"{base}/analyse?game=connect4&moves=4455")
    wait_for(lambda: browser.find_element("id", "best").text == "best move: 3")
    field = browser.find_element("id", "moves")
    field.clear()
    field.send_keys("44x")
    browser.find_element("id", "analyse").click()
    wait_for(lambda: "is not a column" in browser.find_element("id", "error").text)
    for part in ("value", "best", "pv", "extra", "table", "cost", "board", "moves-list"):
        assert browser.execute_script(
            f"return document.getElementById('{part}').childNodes.length") == 0, part
    assert all("400 (Bad Request)" in error for error in console_errors(browser))
    # The explain page: an invalid JSON tree file, then Show: the error, and no tree.
    browser.get(f"{base}/explain?source=seed004")
    wait_for(lambda: data(browser, "steps") != "")
    broken = tmp_path / "broken.json"
    broken.write_text('{"root": "A", "children": ')
    Select(browser.find_element("id", "source")).select_by_value("json")
    browser.find_element("id", "file").send_keys(str(broken))
    browser.find_element("id", "show").click()
    wait_for(lambda: "broken.json is not valid JSON" in browser.find_element("id", "error").text)
    assert browser.find_elements("css selector", "#tree *") == []
    assert browser.find_element("id", "log").text == ""
    assert data(browser, "steps") == ""


def download_dir(browser: Any, where: Path) -> None:
    browser.execute_cdp_cmd("Browser.setDownloadBehavior",
                            {"behavior": "allow", "downloadPath": str(where)})


def test_a_record_downloaded_then_uploaded_restores_the_game(base: str, browser: Any,
                                                             tmp_path: Path,
                                                             desktop: None) -> None:
    download_dir(browser, tmp_path)
    browser.get(game_url(base, X_WINS))
    idle(browser)
    browser.find_element("id", "evaluate").click()
    wait_for(lambda: browser.find_element("id", "evaluating").text == "every position valued")
    chart = browser.execute_script(
        "return [...document.querySelectorAll('#chart .chart-point')]"
        ".map(p => [p.dataset.ply, p.getAttribute('cy')])")
    browser.find_element("id", "download").click()
    wait_for(lambda: [path for path in tmp_path.glob("tictactoe-*.json")])
    saved = next(tmp_path.glob("tictactoe-*.json"))
    wait_for(lambda: saved.read_text().endswith("}"))
    record = json.loads(saved.read_text())
    assert set(record) == RECORD_KEYS
    assert (record["format"], record["version"], record["game"]) == ("gametree-record", 1,
                                                                      "tictactoe")
    assert record["moves"] == X_WINS and record["level"] is None
    assert record["options"] == {"rows": 3, "cols": 3, "k": 3}  # typed, defaults written
    assert record["players"] == ["you", "gametree"]
    assert record["result"] == {"winner": 0, "text": "X won"}
    assert record["date"].endswith("Z")  # ISO 8601 in UTC, as docs/records.md writes it
    stamped = datetime.fromisoformat(record["date"].replace("Z", "+00:00"))
    assert stamped.utcoffset() == timedelta(0)
    assert abs((datetime.now(timezone.utc) - stamped).total_seconds()) < 600
    assert len(record["values"]) == 5
    assert record["values"][0] == {"value": 0, "value_text": "draw", "value_kind": "draw",
                                   "depth": None}
    browser.get(f"{base}/play/tictactoe")  # a new game, then the record
    idle(browser)
    browser.find_element("id", "upload").send_keys(str(saved))
    wait_for(lambda: data(browser, "plies") == "5" and data(browser, "busy") == "0")
    assert data(browser, "over") == "1" and data(browser, "moves") == " ".join(X_WINS)
    assert browser.execute_script(
        "return [...document.querySelectorAll('#chart .chart-point')]"
        ".map(p => [p.dataset.ply, p.getAttribute('cy')])") == chart
    # A bad file: its error, and nothing of the game left on the page.
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "version": 7}))
    browser.find_element("id", "upload").send_keys(str(bad))
    wait_for(lambda: browser.find_element("id", "error").text)
    assert browser.find_element("id", "error").text == \
        "bad.json is not a game record: version 7 (this page reads version 1)"
    assert browser.find_elements("css selector", "#board *, #history *, #chart *") == []
    # A record of another game takes its own page.
    other = tmp_path / "connect4.json"
    other.write_text(json.dumps({**record, "game": "connect4", "moves": ["4", "4", "5"],
                                 "players": ["gametree", "you"], "values": [None, None, None],
                                 "result": None}))
    browser.find_element("id", "upload").send_keys(str(other))
    wait_for(lambda: "/play/connect4" in browser.current_url and data(browser, "plies") == "3"
             and data(browser, "busy") == "0")
    # You are the record's "you": the second player, to move, so the engine waits.
    assert data(browser, "moves") == "445" and "side=1" in browser.current_url


def test_records_pass_between_the_terminal_and_the_browser(base: str, browser: Any,
                                                           tmp_path: Path,
                                                           desktop: None) -> None:
    # A game the terminal played and saved (`gametree play --save`) loads in the browser, and
    # the browser's download of it reads back in Python as the same game: one record format.
    saved = tmp_path / "terminal.json"
    done = subprocess.run([sys.executable, "-m", "gametree", "play", "tictactoe", "--watch",
                           "--depth", "2", "--seed", "3", "--save", str(saved)],
                          capture_output=True, text=True, timeout=300, check=False,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    terminal = read_record(saved)
    assert terminal.result is not None and terminal.moves
    download_dir(browser, tmp_path)
    browser.get(f"{base}/play/tictactoe")
    idle(browser)
    browser.find_element("id", "upload").send_keys(str(saved))
    wait_for(lambda: data(browser, "plies") == str(len(terminal.moves))
             and data(browser, "busy") == "0")
    assert data(browser, "over") == "1" and data(browser, "moves") == " ".join(terminal.moves)
    browser.find_element("id", "download").click()
    wait_for(lambda: [path for path in tmp_path.glob("tictactoe-*.json")])
    downloaded = next(tmp_path.glob("tictactoe-*.json"))
    wait_for(lambda: downloaded.read_text().endswith("}"))
    again = read_record(downloaded)
    assert (again.game, again.options, again.moves, again.result) == \
        (terminal.game, terminal.options, terminal.moves, terminal.result)


def test_the_level_control_sends_a_level_only_when_picked(base: str, browser: Any,
                                                          desktop: None) -> None:
    from selenium.webdriver.support.ui import Select  # noqa: PLC0415

    schema = json.load(urllib.request.urlopen(
        f"{base}/openapi.json", timeout=30))
    accepts_level = '"level"' in json.dumps(schema["components"])
    browser.get(f"{base}/play/tictactoe?moves=1,1")
    idle(browser)  # the engine replied at full strength: no level sent
    assert data(browser, "plies") == "2" and browser.find_element("id", "error").text == ""
    Select(browser.find_element("id", "strength")).select_by_value("level")
    assert browser.find_element("id", "level").get_attribute("max") == "10"
    level = browser.find_element("id", "level")
    level.clear()
    level.send_keys("3")
    browser.find_element("id", "undo").click()  # your move again, then play: the engine replies
    wait_for(lambda: data(browser, "plies") == "0" and data(browser, "busy") == "0")
    press(browser, "5")
    wait_for(lambda: data(browser, "busy") == "0" and (
        data(browser, "plies") == "2" or browser.find_element("id", "error").text))
    assert "strength=level&level=3" in browser.current_url
    if accepts_level:
        assert data(browser, "plies") == "2"
    else:  # the server has no level yet: its refusal is said, naming the field
        assert "level" in browser.find_element("id", "error").text
        console_errors(browser)


def module_call(browser: Any, base: str, module: str, expression: str) -> Any:
    """Evaluate `expression` with the page module `module`'s exports as `m` (in the browser)."""
    browser.get(f"{base}/")
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"import('/static/js/{module}').then((m) => done(JSON.parse(JSON.stringify({expression}))))"
        ".catch((error) => done({thrown: String(error.message)}));")


def test_book_positions_are_shown_exact_from_the_book_and_other_values_with_their_depth(
        browser: Any, desktop: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A real tic-tac-toe book to 3 plies, installed for a server of this test's own (its worker
    # processes read GAMETREE_BOOKS as the search service does): the analyse page shows the
    # server's reading of its values, with 0 nodes searched for a book position.
    path = tmp_path / books.book_file_name("tictactoe", {})
    build(BuildRequest(str(path), "tictactoe", {}, plies=3, plan=BuildPlan(workers=1)))
    monkeypatch.setenv(books.BOOKS_ENV, str(tmp_path))
    books.forget()
    try:
        with running_server(create_app(ServerLimits(workers=1), prepare=("tictactoe",))) as url:
            answer = api(url, "analyze", {"game": "tictactoe", "moves": "1,1"})
            assert (answer["source"], answer["stats"]["nodes"]) == ("book", 0)
            assert answer["reading"]["words"] == "exact, from the opening book"
            assert {entry["reading"] for entry in answer["moves"]} == \
                {"exact, from the opening book"}
            browser.get(f"{url}/analyse?game=tictactoe&moves=1,1")
            wait_for(lambda: browser.find_element("id", "values-words").text)
            assert browser.find_element("id", "values-words").text == \
                "Values: exact, from the opening book — proven values looked up in the " \
                "opening book: no position was searched."
            cut = api(url, "analyze",
                      {"game": "connect4", "moves": "", "depth": 3, "tier": "python"})
            assert cut["source"] == "search"
            assert cut["reading"]["words"] == "heuristic, depth 3"
            assert cut["reading"]["why"].startswith(
                "the depth was limited to 3 plies before the end of the game")
            assert {entry["reading"] for entry in cut["moves"]} == {"heuristic, depth 3"}
    finally:
        books.forget()


def test_the_7x6_opening_is_shown_exact_from_the_shipped_book_with_no_search(
        browser: Any, desktop: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # The book shipped in the package (Connect Four 7x6 to 4 plies), as a user's server finds
    # it: the analyse and play pages show its exact values, and no position is searched.
    monkeypatch.setenv(books.BOOKS_ENV, str(books.PACKAGE_BOOKS))
    books.forget()
    try:
        with running_server(create_app(ServerLimits(workers=1), prepare=("connect4",))) as url:
            wait_prepared(lambda: json.load(urllib.request.urlopen(f"{url}/api/status")))
            for moves in ("", "4", "4 4 3"):
                answer = api(url, "analyze", {"game": "connect4", "moves": moves})
                assert (answer["source"], answer["stats"]["nodes"]) == ("book", 0), moves
                assert {entry["reading"] for entry in answer["moves"]} == \
                    {"exact, from the opening book"}, moves
            browser.get(f"{url}/analyse?game=connect4&moves=")
            wait_for(lambda: browser.find_element("id", "values-words").text)
            assert browser.find_element("id", "values-words").text.startswith(
                "Values: exact, from the opening book")
            browser.get(f"{url}/play/connect4?values=1")
            wait_for(lambda: browser.find_element("id", "values-words").text)
            assert browser.find_element("id", "values-words").text.startswith(
                "Values: exact, from the opening book")
    finally:
        books.forget()


@pytest.mark.parametrize(("text", "fault"), [
    ("[1, 2]", "it is not a JSON object"),
    ('{"format": "pgn"}', '"format" is "pgn", not "gametree-record"'),
    ('{"format": "gametree-record", "version": 1}', 'it has no "game", "options"'),
    ("{nope", "r.json is not JSON"),
])
def test_a_bad_record_is_named_with_what_is_wrong(base: str, browser: Any, text: str,
                                                  fault: str) -> None:
    found = module_call(browser, base, "record.js", f"m.readRecord({json.dumps(text)}, 'r.json')")
    assert fault in found["thrown"]


@pytest.fixture(scope="module")
def crowded() -> Iterator[str]:
    """A server with one worker and no queue: a second search at once gets 503."""
    with running_server(create_app(ServerLimits(workers=1, queue_size=0))) as url:
        yield url


def test_a_busy_server_is_waited_for_with_a_notice(crowded: str, browser: Any) -> None:
    api(crowded, "solve", {"game": "connect4", "moves": "4455"})  # its kernel, compiled now
    holder = threading.Thread(target=api, args=(crowded, "solve", {
        "game": "connect4", "moves": "", "time": 4}), daemon=True)
    holder.start()
    wait_for(lambda: api_status(crowded)["busy"] == 1)
    browser.get(f"{crowded}/analyse?game=tictactoe&moves=1,1")
    wait_for(lambda: "trying again in" in browser.find_element("id", "notice").text)
    assert browser.find_element("id", "error").text == ""
    holder.join(timeout=60)
    wait_for(lambda: browser.find_element("id", "best").text.startswith("best move:"))
    assert browser.find_element("id", "notice").text == ""
    errors = console_errors(browser)
    assert errors and all("503" in error for error in errors)


def api_status(base: str) -> Any:
    with urllib.request.urlopen(f"{base}/api/status", timeout=30) as answer:
        return json.load(answer)


def test_the_analyse_page_steps_through_the_moves_typed(base: str, browser: Any,
                                                        desktop: None) -> None:
    browser.get(f"{base}/analyse?game=tictactoe&moves=1,1%200,0%202,2")
    wait_for(lambda: browser.find_element("id", "best").text.startswith("best move:"))
    assert (data(browser, "ply"), data(browser, "plies")) == ("3", "3")
    press(browser, "\ue011")  # Home: the empty board, analysed
    wait_for(lambda: data(browser, "ply") == "0" and
             browser.find_element("id", "best").text.startswith("best move:"))
    assert cells(browser) == [""] * 9 and "ply=0" in browser.current_url
    assert browser.find_element("id", "bar").get_attribute("aria-label") == \
        "evaluation: X to move: draw"
    press(browser, "\ue014")  # arrow right: after 1,1
    wait_for(lambda: data(browser, "ply") == "1" and cells(browser)[4] == "X" and
             browser.find_element("id", "best").text.startswith("best move:"))
    browser.find_element("css selector", "#board g[data-cell='0,2']").click()  # a new line
    wait_for(lambda: data(browser, "plies") == "2" and data(browser, "ply") == "2")
    assert browser.find_element("id", "moves").get_attribute("value") == "1,1 0,2"
