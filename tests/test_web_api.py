"""The JSON API of ``gametree serve`` through FastAPI's test client, with real worker processes.

Searches ask for the Python tier where the tier does not matter, so that these tests compile
no kernel; the compiled tier is exercised by tic-tac-toe and Connect Four, which the rest of
the suite compiles anyway.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree.cli import main
from gametree.registry import games
from gametree.web.app import create_app
from gametree.web.limits import ServerLimits
from tests.web_support import running_server, wait_for, wait_prepared

SEED_004 = {"leaves": "10 11 12 9 14 15 13 14 5 2 4 1 3 22 20 21",
            "labels": "current A B C D E F G H I J K L M N"}
LIMITS = ServerLimits(max_time=3.0, grace=0.5, workers=2, queue_size=1, max_events=300,
                      max_tree_nodes=200, max_request_bytes=4_000, max_depth=12)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # The two games these tests search on the compiled tier are prepared (compiled if the
    # cache lacks them) before the tests start; the others search on the Python tier.
    app = create_app(LIMITS, prepare=("tictactoe", "connect4"))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        wait_prepared(lambda: test_client.get("/api/status").json())
        yield test_client


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(list(argv)) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def cli_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    try:
        status = main(list(argv))
    except SystemExit as ended:  # the argument parser's errors
        status = int(str(ended.code))
    assert status == 2
    line = capsys.readouterr().err.strip()
    message = line.split(": error: ", 1)[1]
    return message.split(" (see '")[0]


def without_time(document: dict[str, Any]) -> dict[str, Any]:
    document = dict(document)
    document["stats"] = {k: v for k, v in document["stats"].items() if k != "seconds"}
    return document


# -- every endpoint, every game ---------------------------------------------------------------


def test_games_lists_what_the_command_line_lists(client: TestClient,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--json"]) == 0
    assert client.get("/api/games").json() == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", sorted(games()))
def test_every_game_solves_analyses_and_traces_as_the_command_line(
        client: TestClient, capsys: pytest.CaptureFixture[str], name: str) -> None:
    options = {"tree": SEED_004, "nim": {"rows": "1,2,3"}, "subtraction": {"heap": "9"},
               "connect4": {"width": "4", "height": "4"},
               "chess": {"fen": "7k/8/8/8/8/8/6P1/7K w - - 0 1"}}.get(name, {})
    flags = [f"--{key}={value}" for key, value in options.items()]
    for command in ("solve", "analyze", "trace"):
        body = {"game": name, "options": options, "depth": 2, "tier": "python"}
        answer = client.post(f"/api/{command}", json=body)
        assert answer.status_code == 200, answer.text
        # The server gives the engine its time limit as a budget: the command line with the
        # same --time searches alike (node counts included).
        budget = [] if command == "trace" else [f"--time={LIMITS.max_time:g}"]
        expected = cli_json(capsys, command, name, *flags, "--depth=2", "--tier=python",
                            *budget, "--json")
        got = answer.json()
        if command == "trace":
            assert len(got.pop("log")) == len(got["events"])
        assert without_time(got) == without_time(expected)


def _stones(position: dict[str, Any]) -> int:
    """How much is on (a grid) or left on (heaps) a drawn position."""
    if position["kind"] == "grid":
        return sum(cell != "" for row in position["grid"]["cells"] for cell in row)
    return int(sum(position["heaps"]["sizes"]))


@pytest.mark.parametrize("name", sorted(games()))
def test_positions_and_moves_for_every_game(client: TestClient, name: str) -> None:
    # Every built-in game alternates its players (the tree's MAX and MIN levels too), and the
    # drawn view shows the move played: a mark or a stone more, sticks or counters fewer, the
    # tree one node further down.
    options = {"tree": SEED_004}.get(name, {})
    before = client.post("/api/position", json={"game": name, "options": options})
    assert before.status_code == 200, before.text
    start = before.json()
    assert (start["to_move"], start["over"], start["result"]) == (0, False, None)
    first = start["moves"][0]
    answer = client.post("/api/position", json={"game": name, "options": options,
                                                "moves": first["text"]})
    assert answer.status_code == 200, answer.text
    after = answer.json()
    if after.get("chance"):  # Pig: a roll puts the die in the air; the roller is named
        assert (after["to_move"], after["to_move_name"]) == (-1, after["players"][0])
        assert sum(outcome["weight"] for outcome in after["chance_outcomes"]) == \
            pytest.approx(1)
        assert [move["text"] for move in after["moves"]] == \
            [outcome["text"] for outcome in after["chance_outcomes"]]
        return
    assert after["to_move"] == 1 and after["to_move_name"] == after["players"][1]
    assert after["text"] != start["text"]
    kind = start["kind"]
    assert kind == {"tictactoe": "grid", "connect4": "grid", "nim": "heaps", "sticks": "heaps",
                    "bones": "heaps", "subtraction": "heaps", "tree": "tree",
                    "openspiel": "text", "chess": "grid"}[name]
    if kind == "tree":
        chosen = start["node"]["children"][first["child"]]["label"]
        assert (start["node"]["label"], after["node"]["label"]) == ("current", chosen)
    elif kind == "text":  # OpenSpiel's own text of tic-tac-toe: an x more
        assert after["text"].count("x") == start["text"].count("x") + 1
    else:
        change = _stones(after) - _stones(start)
        moved = 0 if name == "chess" else 1  # a chess move moves a piece: none more
        assert change == (moved if kind == "grid" else -first["count"])


def test_connect4_in_pons_notation_on_the_compiled_tier(client: TestClient) -> None:
    got = client.post("/api/solve", json={"game": "connect4", "moves": "4455"}).json()
    assert (got["tier"], got["value_text"], got["score"]) == ("compiled", "win in 3", 18)
    board = client.post("/api/position", json={"game": "connect4", "moves": "4455"}).json()
    assert board["grid"]["cells"][-1][3:5] == ["X", "X"]
    assert board["grid"]["cells"][-2][3:5] == ["O", "O"]
    assert (board["separator"], board["moves"][0]["key"]) == ("", "4")


def test_no_line_answers_with_the_best_move_alone(client: TestClient) -> None:
    body = {"game": "tictactoe", "moves": "1,1"}
    whole = client.post("/api/solve", json=body).json()
    bare = client.post("/api/solve", json={**body, "no_line": True}).json()
    assert len(whole["pv"]) > 1 and bare["pv"] == [whole["best_move"]]
    assert (bare["value"], bare["moves"]) == (whole["value"], whole["moves"])


def test_engine_reply_plays_the_best_move_and_shows_the_position(client: TestClient) -> None:
    got = client.post("/api/move", json={"game": "tictactoe", "moves": "0,0 1,1 0,1"}).json()
    assert got["best_move"] == "0,2"  # O must block the top row
    assert got["position"]["grid"]["cells"][0] == ["X", "X", "O"]
    by_depth = client.post("/api/move", json={"game": "tictactoe", "strength": "depth",
                                              "depth": 1}).json()
    assert by_depth["depth"] == 1


@pytest.mark.slow  # the workshop's test (test_levels.py) covers the job in the core suite
def test_engine_reply_at_a_level_says_how_it_chose(client: TestClient) -> None:
    leaves = "win loss draw win loss loss draw draw 3 -2 5 1 0 4 -1 2"
    body = {"game": "tree", "options": {"leaves": leaves}, "level": 1, "seed": 7}
    got = client.post("/api/move", json=body).json()
    again = client.post("/api/move", json=body).json()
    assert got["best_move"] == again["best_move"]  # the seed makes the level's draw repeat
    assert got["level"]["level"] == 1 and got["level"]["depth"] == 1
    assert got["level"]["how"] in ("best", "sampled", "blunder")
    assert got["depth"] == 1  # level 1 looks one ply ahead
    refused = client.post("/api/move", json={"game": "tree", "level": 0})
    assert refused.status_code == 422 and "level" in refused.json()["detail"]


def test_trace_of_seed_004_has_the_texts_log_and_prunes(client: TestClient) -> None:
    soft = client.post("/api/trace", json={"game": "tree", "options": SEED_004}).json()
    hard = client.post("/api/trace", json={"game": "tree", "options": SEED_004,
                                           "fail_hard": True}).json()
    assert "    MAX node D... Prune : J ( A = 14 : B = 10 )" in soft["log"]
    finals = {flavour: {event["node"]: event["value"] for event in got["events"]
                        if event["kind"] == "done"} for flavour, got in
              (("soft", soft), ("hard", hard))}
    assert (finals["soft"]["I"], finals["soft"]["E"]) == (14, 5)
    assert (finals["hard"]["I"], finals["hard"]["E"]) == (10, 10)


def test_tree_drawing_of_a_tree_a_json_document_and_a_game(client: TestClient) -> None:
    nodes = client.post("/api/tree", json={"game": "tree", "options": SEED_004}).json()["nodes"]
    assert len(nodes) == 31 and nodes[0]["label"] == "current"
    assert [node["value"] for node in nodes if node["leaf"]][:4] == [10, 11, 12, 9]
    aima = {"root": "A", "children": {"A": ["B", "C"]}, "values": {"B": 3, "C": "win"}}
    drawn = client.post("/api/tree", json={"game": "tree", "tree": aima}).json()["nodes"]
    assert [(node["label"], node["value"], node["result"]) for node in drawn] == [
        ("A", None, None), ("B", 3, None), ("C", None, "win")]
    game = client.post("/api/tree", json={"game": "tictactoe", "depth": 1}).json()["nodes"]
    assert len(game) == 10 and game[1]["role"] == "MIN"


# -- bad input: one line in the API's words, never a 500 -------------------------------------

BAD = [
    # Input only the game or the search can judge: 400, the message the command line gives
    # for the same input where no option is named.
    ("solve", {"game": "tictactoe", "moves": "1,1 1,1"}, ["solve", "tictactoe", "--moves=1,1 1,1"]),
    ("solve", {"game": "connect4", "moves": "--json"}, ["solve", "connect4", "--moves=--json"]),
    ("trace", {"game": "tree", "options": {"leaves": "3 5 2"}},
     ["trace", "tree", "--leaves=3 5 2"]),
]


@pytest.mark.parametrize(("path", "body", "argv"), BAD, ids=[" ".join(row[2]) for row in BAD])
def test_bad_positions_get_400_and_the_command_lines_message(
        client: TestClient, capsys: pytest.CaptureFixture[str], path: str, body: dict[str, Any],
        argv: list[str]) -> None:
    answer = client.post(f"/api/{path}", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"] == cli_error(capsys, *argv)


@pytest.mark.parametrize(("body", "status", "detail"), [
    ({"game": "shogi"}, 400, "unknown game 'shogi'; games: tictactoe, "),
    ({"game": "tictactoe", "depth": "x"}, 422, "depth: Input should be a valid integer"),
    ({"game": "tictactoe", "depth": -1}, 422, "depth: Input should be greater than or equal to 0"),
    ({"game": "tictactoe", "time": "0"}, 422, "time: Input should be greater than 0"),
    ({"game": "tictactoe", "algorithm": "best"}, 422,
     "algorithm: Input should be 'minimax', 'alphabeta', 'negamax', 'expectiminimax' or 'engine'"),
    ({"game": "tictactoe", "weak": True, "depth": 2}, 400,
     "weak proves the result of the game: it takes no depth, time or nodes"),
    ({"game": "tictactoe", "algorithm": "minimax", "fail_hard": True}, 400,
     "fail_hard is an option of alphabeta, not minimax"),
    ({"game": "tictactoe", "algorithm": "minimax", "tier": "compiled"}, 400,
     "tier \"compiled\": the compiled tier runs the engine, not algorithm minimax"),
    ({"game": "nim", "options": {"rows": "1,x"}}, 400,
     "nim option rows: expected stick counts separated by commas"),
    ({"game": "tree", "options": {"nested": "[[1,"}}, 400, "tree: not valid JSON"),
    ({"game": "connect4", "options": {"width": "12"}}, 400,
     "connect4 option width: expected a whole number from 4 to 9, got '12'"),
    ({"game": "tictactoe", "colour": "red"}, 422, "colour: Extra inputs are not permitted"),
    ({"game": 7}, 422, "game: Input should be a valid string"),
    ({"game": "nim", "options": {"heap": "3"}}, 400, "nim has no option heap"),
    ({"game": "nim", "options": {"misere": "yes"}}, 400,
     "nim option misere: a switch: give true or false, got 'yes'"),
    ({"game": "tree", "options": {"file": "/etc/passwd"}}, 400, "the API does not read"),
    ({"game": "tictactoe", "tree": [1, 2]}, 400, "not tictactoe's"),
    ({"game": "tree", "tree": {"nested": [[1, 2]]}, "options": {"leaves": "1 2"}}, 400,
     "not both"),
    ({"game": "tree", "tree": {"rooted": 1}}, 400, "needs one of the keys"),
])
def test_bad_bodies_get_a_one_line_4xx_in_the_apis_words(
        client: TestClient, body: dict[str, Any], status: int, detail: str) -> None:
    answer = client.post("/api/solve", json=body)
    assert answer.status_code == status, answer.text
    assert detail in answer.json()["detail"]
    assert "\n" not in answer.json()["detail"]
    assert "argument" not in answer.json()["detail"]


def test_malformed_json_and_wrong_methods_are_4xx(client: TestClient) -> None:
    assert client.post("/api/solve", content=b"{not json",
                       headers={"Content-Type": "application/json"}).status_code == 422
    assert client.post("/api/solve", content=b"[" * 1900 + b"]" * 1900,
                       headers={"Content-Type": "application/json"}).status_code in (400, 422)
    assert client.get("/api/solve").status_code == 405
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/play/shogi").status_code == 404


# -- every limit --------------------------------------------------------------------------------


def test_json_sent_without_its_content_type_is_told_the_header(client: TestClient) -> None:
    body = json.dumps({"game": "bones", "tier": "python"})
    form = client.post("/api/solve", content=body,  # what curl -d sends without -H
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    assert "Content-Type: application/json" in form.json()["detail"]
    assert "'application/x-www-form-urlencoded'" in form.json()["detail"]
    bare = client.post("/api/solve", content=body)  # no Content-Type at all
    assert bare.status_code == 415
    assert "this request has none" in bare.json()["detail"]
    for kind in ("application/json; charset=utf-8", "application/problem+json"):
        answer = client.post("/api/solve", content=body, headers={"Content-Type": kind})
        assert answer.status_code == 200, (kind, answer.text)


def test_request_size_limit(client: TestClient) -> None:
    answer = client.post("/api/solve", json={"game": "tree", "options": {"leaves": "1 " * 3000}})
    assert answer.status_code == 413
    assert "4,000 bytes" in answer.json()["detail"]


def test_depth_limit(client: TestClient) -> None:
    answer = client.post("/api/solve", json={"game": "tictactoe", "depth": 13})
    assert answer.status_code == 400
    assert "at most 12; gametree serve --max-depth" in answer.json()["detail"]


def test_trace_length_limit(client: TestClient) -> None:
    answer = client.post("/api/trace", json={"game": "tictactoe", "depth": 3})
    assert answer.status_code == 400
    assert "goes past 300 events" in answer.json()["detail"]


def test_tree_size_limits(client: TestClient) -> None:
    big = client.post("/api/solve", json={"game": "tree", "options": {"leaves": "1 " * 256}})
    assert big.status_code == 400 and "at most 200" in big.json()["detail"]
    drawn = client.post("/api/tree", json={"game": "tictactoe", "depth": 3})
    assert drawn.status_code == 400 and "more than 200 nodes" in drawn.json()["detail"]


def test_time_limit_caps_the_engine_and_stops_what_cannot_stop(client: TestClient) -> None:
    capped = client.post("/api/solve", json={"game": "connect4", "time": 60}).json()
    assert capped["stats"]["stopped_by"] == "time"  # answered with its deepest search
    stopped = client.post("/api/solve", json={"game": "connect4", "algorithm": "minimax"})
    assert stopped.status_code == 504
    assert "limit of 3 s" in stopped.json()["detail"]
    assert "no answer reached" in stopped.json()["detail"]
    assert client.get("/api/status").json()["busy"] == 0


# -- the queue and cancellation --------------------------------------------------------------


NEVER_ENDS = {"game": "connect4", "algorithm": "minimax"}
"""A search that runs until stopped: minimax on the empty Connect Four board (no time budget)."""
SMALL = ServerLimits(max_time=120.0, workers=1, queue_size=1)
"""One worker, one place in the queue; a limit far beyond the tests' waits, so that only a
client going away can end a search that never ends."""


@pytest.fixture(scope="module")
def small_server() -> Iterator[str]:
    """A real uvicorn server (in a thread) over a pool of one worker and a queue of one."""
    with running_server(create_app(SMALL, prepare=())) as url:
        yield url


def status(base: str) -> dict[str, Any]:
    """``GET /api/status`` of a real server."""
    with urllib.request.urlopen(f"{base}/api/status", timeout=60) as answer:
        document: dict[str, Any] = json.load(answer)
        return document


def pool_status(base: str) -> dict[str, int]:
    """The worker pool's part of ``GET /api/status``."""
    return {key: value for key, value in status(base).items()
            if key in ("workers", "busy", "waiting", "stopped")}


def hold(base: str, body: dict[str, Any]) -> socket.socket:
    """A client that sends ``POST /api/solve`` and waits for the answer until its socket is
    closed (a browser tab that goes away)."""
    host, port = base.removeprefix("http://").split(":")
    payload = json.dumps(body).encode()
    connection = socket.create_connection((host, int(port)), timeout=60)
    connection.sendall(b"POST /api/solve HTTP/1.1\r\nHost: " + host.encode() +
                       b"\r\nContent-Type: application/json\r\nContent-Length: " +
                       str(len(payload)).encode() + b"\r\n\r\n" + payload)
    return connection


def _lower(headers: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def post(base: str, body: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
    """``POST /api/solve`` on a real server: status, headers (names in lower case), JSON
    answer."""
    request = urllib.request.Request(f"{base}/api/solve", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, _lower(answer.headers), json.load(answer)
    except urllib.error.HTTPError as refused:
        return refused.code, _lower(refused.headers), json.load(refused)


def test_a_full_queue_answers_503_with_retry_after(small_server: str) -> None:
    base = small_server
    wait_for(lambda: status(base)["busy"] == 0)
    stopped = status(base)["stopped"]
    running = hold(base, NEVER_ENDS)
    try:
        wait_for(lambda: status(base)["busy"] == 1)  # the one worker searches
        queued = hold(base, NEVER_ENDS)
        try:
            wait_for(lambda: status(base)["waiting"] == 1)  # the one place in the queue
            code, headers, answer = post(base, {"game": "bones", "tier": "python"})
            assert code == 503, answer
            assert "the server is busy" in answer["detail"]
            # The running search and the waiting one, each as long as the searches before
            # them took on average (the bones solves of the tests before: short ones).
            assert 1 <= int(headers["retry-after"]) <= 2 * SMALL.max_time
        finally:
            queued.close()
        wait_for(lambda: status(base)["waiting"] == 0)  # a waiting client that goes away
    finally:
        running.close()
    wait_for(lambda: pool_status(base) == {"workers": 1, "busy": 0, "waiting": 0,
                                           "stopped": stopped + 1})
    code, _headers, answer = post(base, {"game": "bones", "tier": "python"})
    assert (code, answer["outcome"]) == (200, "win")


def test_a_client_that_goes_away_stops_its_search(small_server: str) -> None:
    base = small_server
    wait_for(lambda: status(base)["busy"] == 0)
    stopped = status(base)["stopped"]
    client = hold(base, NEVER_ENDS)
    wait_for(lambda: status(base)["busy"] == 1)
    client.close()
    # The limit is 120 s: only the cancellation can have freed the worker.
    wait_for(lambda: pool_status(base) == {"workers": 1, "busy": 0, "waiting": 0,
                                           "stopped": stopped + 1})
    code, _headers, answer = post(base, {"game": "bones", "tier": "python"})
    assert (code, answer["outcome"]) == (200, "win")


# -- no request family gets a 500 ------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)  # JSON has neither
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)
FIELDS = st.sampled_from(["game", "options", "tree", "moves", "algorithm", "depth", "time",
                          "nodes", "no_distance", "fail_hard", "exact", "seed", "tier", "weak",
                          "strength"])


@settings(max_examples=60, derandomize=True)
@given(path=st.sampled_from(["solve", "analyze", "trace", "move", "tree", "position"]),
       game=st.sampled_from([*sorted(games()), "x"]),
       extra=st.dictionaries(FIELDS, JSON_VALUES, max_size=4))
def test_no_body_gets_a_500(client: TestClient, path: str, game: str,
                            extra: dict[str, Any]) -> None:
    body: dict[str, Any] = {"game": game, "tier": "python", "depth": 1, **extra}
    if path in ("tree", "position"):
        body = {key: value for key, value in body.items()
                if key in ("game", "options", "tree", "moves", "depth")}
        if path == "position":
            body.pop("depth", None)
    answer = client.post(f"/api/{path}", json=body)
    assert answer.status_code < 500 or answer.status_code == 503, answer.text
    assert "Traceback" not in answer.text




# -- the schema: every malformed field gets 422, every error is documented --------------------

POST_ENDPOINTS: dict[str, dict[str, Any]] = {
    "position": {"game": "tictactoe"},
    "tree": {"game": "tictactoe", "depth": 1},
    "solve": {"game": "bones", "tier": "python"},
    "analyze": {"game": "bones", "tier": "python"},
    "trace": {"game": "bones", "tier": "python", "depth": 1},
    "move": {"game": "tictactoe"},  # a game whose kernel the fixture prepares
}
"""A good body for each POST endpoint (each answers it with 200)."""

MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    # (endpoints it applies to: "all" or "search"/"move"/"tree", changes to the body, field)
    ("all", {"game": 7}, "game"),
    ("all", {"moves": ["4", "4"]}, "moves"),
    ("all", {"options": {"heap": [[1]]}}, "options.heap"),
    ("all", {"options": ["heap"]}, "options"),
    ("all", {"tree": "A B"}, "tree"),
    ("all", {"colour": "red"}, "colour"),
    ("all", {"Depth": 1}, "Depth"),
    ("tree", {"depth": -5}, "depth"),
    ("tree", {"depth": "two"}, "depth"),
    ("tree", {"depth": 1.5}, "depth"),
    ("tree", {"depth": True}, "depth"),
    ("search", {"depth": -5}, "depth"),
    ("search", {"depth": "x"}, "depth"),
    ("search", {"depth": 2.5}, "depth"),
    ("search", {"time": 0}, "time"),
    ("search", {"time": -1.5}, "time"),
    ("search", {"time": "soon"}, "time"),
    ("search", {"nodes": 0}, "nodes"),
    ("search", {"nodes": 10**19}, "nodes"),
    ("search", {"seed": "x"}, "seed"),
    ("search", {"seed": 1.5}, "seed"),
    ("search", {"algorithm": "best"}, "algorithm"),
    ("search", {"tier": "gpu"}, "tier"),
    ("search", {"weak": "yes"}, "weak"),
    ("search", {"exact": 1}, "exact"),
    ("search", {"no_distance": None}, "no_distance"),
    ("search", {"threads": 2}, "threads"),  # not a field of the API: the server keeps its own
    ("search", {"strength": "depth"}, "strength"),
    ("move", {"strength": "strong"}, "strength"),
    ("move", {"depth": -5}, "depth"),
    ("move", {"time": 0}, "time"),
    ("move", {"algorithm": "minimax"}, "algorithm"),
]


def _malformed_cases() -> list[tuple[str, dict[str, Any], str]]:
    cases = []
    for scope, change, field in MALFORMED:
        for path in POST_ENDPOINTS:
            kind = {"solve": "search", "analyze": "search", "trace": "search"}.get(path, path)
            if scope in ("all", kind):
                cases.append((path, change, field))
    return cases


@pytest.mark.parametrize(("path", "change", "field"), _malformed_cases(),
                         ids=[f"{path}-{json.dumps(change)}" for path, change, _ in
                              _malformed_cases()])
def test_every_malformed_field_gets_422_naming_the_field(
        client: TestClient, path: str, change: dict[str, Any], field: str) -> None:
    answer = client.post(f"/api/{path}", json={**POST_ENDPOINTS[path], **change})
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"]
    assert set(answer.json()) == {"detail"} and isinstance(detail, str)
    assert detail.startswith(f"{field}") and "\n" not in detail, detail
    assert "argument" not in detail and "--" not in detail


@pytest.mark.parametrize("path", POST_ENDPOINTS)
def test_the_good_bodies_of_the_malformed_table_are_answered(client: TestClient,
                                                             path: str) -> None:
    answer = client.post(f"/api/{path}", json=POST_ENDPOINTS[path])
    assert answer.status_code == 200, answer.text


SURROGATE_BODIES = [
    b'{"game": "\\ud800"}',
    b'{"game": "tictactoe", "moves": "1,1 \\ud800"}',
    b'{"game": "nim", "options": {"\\udfff": "1"}}',
    b'{"game": "nim", "options": {"rows": "1,\\ud800"}}',
    b'{"game": "nim", "options": {"rows": ["\\ud800"]}}',
    b'{"game": "tree", "tree": {"root": "A", "children": {"A": ["\\ud800"]}}}',
    b'{"game": "tictactoe", "\\ud800": 1}',
    b'{"game": "tictactoe", "moves": "\\ud83d"}',
]
"""Bodies with a lone surrogate (JSON's ``\\ud800``: no UTF-8 text holds one) in every kind of
text: a field, a game option's name and value, a list, a tree, an unknown field's name. Sent
as bytes: a client library may refuse to encode them."""


@pytest.mark.parametrize("path", POST_ENDPOINTS)
@pytest.mark.parametrize("body", SURROGATE_BODIES, ids=lambda body: body.decode())
def test_lone_surrogates_get_422_never_500(client: TestClient, path: str, body: bytes) -> None:
    answer = client.post(f"/api/{path}", content=body,
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert "not valid Unicode" in answer.json()["detail"]


def test_a_pair_of_surrogates_is_a_character_and_is_read(client: TestClient) -> None:
    # "\ud83d\ude00" is one character (an emoji) written as UTF-16 in JSON: valid Unicode.
    body = b'{"game": "tictactoe", "moves": "\\ud83d\\ude00"}'
    answer = client.post("/api/position", content=body,
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert "\U0001f600" in answer.json()["detail"]


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        target: Any = document
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        schema = target
    return schema


def test_the_openapi_document_validates_and_states_types_ranges_and_enums(
        client: TestClient) -> None:
    from openapi_spec_validator import validate  # noqa: PLC0415

    document = client.get("/openapi.json").json()
    validate(document)
    schemas = document["components"]["schemas"]
    search = schemas["SearchRequest"]["properties"]

    def kinds(field: dict[str, Any]) -> list[dict[str, Any]]:
        return [item for item in field.get("anyOf", [field]) if item.get("type") != "null"]

    assert kinds(search["depth"]) == [{"type": "integer", "minimum": 0}]
    assert kinds(search["time"]) == [{"type": "number", "exclusiveMinimum": 0}]
    assert kinds(search["nodes"]) == [{"type": "integer", "minimum": 1, "maximum": 10**18}]
    assert kinds(search["seed"]) == [{"type": "integer"}]
    assert kinds(search["algorithm"])[0]["enum"] == ["minimax", "alphabeta", "negamax",
                                                     "expectiminimax", "engine"]
    assert kinds(search["tier"])[0]["enum"] == ["auto", "python", "compiled"]
    for switch in ("no_distance", "fail_hard", "exact", "weak", "no_book", "no_line"):
        assert search[switch]["type"] == "boolean"
    assert "threads" not in search and "tuning" not in search
    move = schemas["MoveRequest"]["properties"]
    assert move["strength"]["enum"] == ["perfect", "depth", "time"]
    assert set(move) == {"game", "options", "tree", "moves", "strength", "depth", "time",
                         "seed", "level"}
    assert kinds(move["level"]) == [{"type": "integer", "minimum": 1, "maximum": 10}]
    for name in ("PositionRequest", "TreeRequest", "SearchRequest", "MoveRequest"):
        assert schemas[name]["additionalProperties"] is False
    assert "HTTPValidationError" not in schemas  # FastAPI's 422 body, which is never sent


def test_every_post_endpoint_documents_the_errors_it_sends(client: TestClient) -> None:
    import jsonschema  # noqa: PLC0415

    document = client.get("/openapi.json").json()
    sent: dict[str, dict[int, Any]] = {path: {} for path in POST_ENDPOINTS}
    for path, good in POST_ENDPOINTS.items():
        sent[path][422] = client.post(f"/api/{path}", json={**good, "colour": 1})
        sent[path][400] = client.post(f"/api/{path}", json={**good, "game": "shogi"})
        sent[path][413] = client.post(f"/api/{path}", json={**good, "moves": "1 " * 3000})
        sent[path][415] = client.post(f"/api/{path}", content=json.dumps(good),
                                      headers={"Content-Type": "text/plain"})
    for path, answers in sent.items():
        operation = document["paths"][f"/api/{path}"]["post"]
        documented = operation["responses"]
        expected = {"200", "400", "413", "415", "422"} | (
            {"503", "504"} if path not in ("position", "tree") else set())
        assert set(documented) == expected, path
        for status, answer in answers.items():
            assert answer.status_code == status, (path, answer.text)
            schema = _resolve(document, documented[str(status)]["content"]["application/json"]
                              ["schema"])
            jsonschema.validate(answer.json(), schema)
            assert schema["required"] == ["detail"]


# -- the games a server offers: given by import path ------------------------------------------

SERVED = ["tests.served_game", "tests.served_game:SMALL", "gametree.games.nim"]
"""A game of a test module (its ``SPEC``), a second spec of that module, a built-in game."""


@pytest.fixture(scope="module")
def served() -> Iterator[TestClient]:
    limits = ServerLimits(max_time=3.0, workers=1, queue_size=2)
    with TestClient(create_app(limits, games=SERVED), raise_server_exceptions=False) as test:
        wait_prepared(lambda: test.get("/api/status").json())
        yield test


def test_a_server_offers_the_games_it_is_given(served: TestClient) -> None:
    assert [game["name"] for game in served.get("/api/games").json()] == ["kayles", "kayles3",
                                                                          "nim"]
    assert served.get("/play/kayles").status_code == 200
    refused = served.post("/api/solve", json={"game": "tictactoe"})
    assert refused.status_code == 400
    assert refused.json()["detail"] == "unknown game 'tictactoe'; games: kayles, kayles3, nim"
    assert served.get("/play/tictactoe").status_code == 404


def test_a_game_of_a_test_module_is_searched_by_the_workers(served: TestClient) -> None:
    # Kayles on 5 pins: the first player wins by taking the middle pin (then mirroring).
    solved = served.post("/api/solve", json={"game": "kayles"})
    assert solved.status_code == 200, solved.text
    assert (solved.json()["outcome"], solved.json()["best_move"]) == ("win", "3")
    analysed = served.post("/api/analyze", json={"game": "kayles", "options": {"pins": 4},
                                                 "moves": "2-3"}).json()
    assert analysed["outcome"] == "loss"  # 1 and 4 are left, apart: the mover loses
    reply = served.post("/api/move", json={"game": "kayles3", "moves": "1"}).json()
    assert reply["best_move"] == "2-3" and reply["position"]["over"]
    position = served.post("/api/position", json={"game": "kayles", "moves": "1-2 5"}).json()
    assert [move["text"] for move in position["moves"]] == ["3", "4", "3-4"]
    bad = served.post("/api/solve", json={"game": "kayles", "options": {"pins": 13}})
    assert bad.status_code == 400
    assert bad.json()["detail"] == "kayles option pins: expected 1 to 12 pins, got '13'"


def test_games_given_by_a_wrong_path_are_refused_at_once() -> None:
    from gametree.registry import UnknownGameError  # noqa: PLC0415

    with pytest.raises(UnknownGameError, match=r"cannot import the game module 'tests\.nowhere'"):
        create_app(games=["tests.nowhere:SPEC"])
    with pytest.raises(UnknownGameError, match="names no game: it is a int"):
        create_app(games=["tests.served_game:DEFAULT_PINS"])


def test_serve_refuses_a_wrong_game_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--game", "tests.served_game:NOTHING", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gametree serve: error: 'tests.served_game:NOTHING' names no game")
    assert len(err.splitlines()) == 1
