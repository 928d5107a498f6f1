"""``gametree serve`` as a service, against real servers in processes of their own and real
sockets: kernels compiled off the requests' path, nothing heavy in the event loop, bodies read
within a time, replaced workers reaped; and the Retry-After estimate.

The server tests are ``slow`` (a server process each, compiles in a fresh cache, a worker left
to be killed), and so is the cache check (it loads a kernel); the estimate's test is not.
Every check is on the order of answers or on states, never on how long something took.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gametree.cachedir import CACHE_ENV
from gametree.compiled.build import engine_cached
from gametree.compiled.engine import CompiledEngine
from gametree.compiled.form import compiled_form_of
from gametree.registry import games
from gametree.web.pool import retry_after
from tests.web_support import PREPARE_WAIT, serving_process, wait_for, wait_prepared

# -- helpers ------------------------------------------------------------------------------------


def status(base: str) -> dict[str, Any]:
    """``GET /api/status``."""
    with urllib.request.urlopen(f"{base}/api/status", timeout=60) as answer:
        document: dict[str, Any] = json.load(answer)
        return document


def post(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
    """``POST /api/PATH``: status, headers (names in lower case), JSON answer."""
    request = urllib.request.Request(f"{base}/api/{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            headers = {name.lower(): value for name, value in answer.headers.items()}
            return answer.status, headers, json.load(answer)
    except urllib.error.HTTPError as refused:
        headers = {name.lower(): value for name, value in refused.headers.items()}
        return refused.code, headers, json.load(refused)


def kernels(base: str) -> dict[str, str]:
    """Each kernel the server was asked for, and its state."""
    return {kernel["kernel"]: kernel["state"] for kernel in status(base)["kernels"]}


def raw(base: str, request: bytes) -> socket.socket:
    """A connection that has sent ``request`` as it is."""
    host, port = base.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=120)
    connection.sendall(request)
    return connection


def raw_post(base: str, path: str, body: bytes) -> socket.socket:
    """A connection that has sent ``POST path`` with ``body`` (and asked to be closed after
    the answer, so that the end of the answer is the end of the connection)."""
    return raw(base, b"POST " + path.encode() + b" HTTP/1.1\r\nHost: test\r\n"
               b"Content-Type: application/json\r\nConnection: close\r\nContent-Length: " +
               str(len(body)).encode() + b"\r\n\r\n" + body)


def answers_in_order(connections: dict[str, socket.socket]) -> tuple[list[str], dict[str, bytes]]:
    """Read every connection to its end; the names in the order their answers ended, and
    each answer."""
    chooser = selectors.DefaultSelector()
    received: dict[str, bytes] = {name: b"" for name in connections}
    for name, connection in connections.items():
        chooser.register(connection, selectors.EVENT_READ, name)
    order: list[str] = []
    while len(order) < len(connections):
        events = chooser.select(timeout=120)
        assert events, f"no answer within 120 s; answered so far: {order}"
        for key, _mask in events:
            name = key.data
            chunk = connections[name].recv(65536)
            if chunk:
                received[name] += chunk
            else:
                chooser.unregister(connections[name])
                connections[name].close()
                order.append(name)
    return order, received


def children(pid: int) -> dict[int, tuple[str, str]]:
    """The child processes of ``pid``: each one's state letter (``Z``: a zombie) and
    command line."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found[int(entry)] = (fields[0], command.decode(errors="replace"))
    return found


def workers(pid: int) -> set[int]:
    """The worker processes of the server ``pid`` that are alive (its children started by
    multiprocessing; the compile process has ended once the kernels are prepared)."""
    return {child for child, (state, command) in children(pid).items()
            if "spawn_main" in command and state != "Z"}


# -- kernels compiled off the requests' path ----------------------------------------------------


@pytest.mark.slow
def test_new_variants_compile_in_the_background_while_others_are_answered(
        tmp_path: Path) -> None:
    env = {**os.environ, "GAMETREE_CACHE_DIR": str(tmp_path / "fresh")}  # a fresh cache
    with serving_process("--game", "gametree.games.tictactoe", env=env) as (base, _process):
        # At start the server prepares tic-tac-toe's default kernel, in the background.
        assert kernels(base) in ({"tic-tac-toe": "checking"}, {"tic-tac-toe": "queued"},
                                 {"tic-tac-toe": "compiling"})
        wait_prepared(lambda: status(base))
        assert kernels(base) == {"tic-tac-toe": "ready"}

        variants = [{"rows": 3, "cols": 4}, {"rows": 4, "cols": 3}]
        preparing = []
        for options in variants:
            code, headers, answer = post(base, "solve", {"game": "tictactoe",
                                                         "options": options})
            assert code == 503, answer
            assert int(headers["retry-after"]) >= 1
            assert answer["preparing"]["game"] == "tictactoe"
            assert answer["preparing"]["options"] == options
            assert answer["preparing"]["state"] in ("queued", "compiling")
            assert answer["detail"].startswith(f"preparing {answer['preparing']['kernel']}")
            preparing.append(answer["preparing"]["kernel"])
        # Asked again, the same preparation (not a second compile); a client that goes away
        # stops nothing.
        code, _headers, again = post(base, "solve", {"game": "tictactoe",
                                                     "options": variants[0]})
        assert (code, again["preparing"]["kernel"]) == (503, preparing[0])
        raw_post(base, "/api/solve", json.dumps({"game": "tictactoe",
                                                 "options": variants[1]}).encode()).close()

        # Tic-tac-toe is answered meanwhile: before either compile has ended, and no worker
        # is held by them.
        code, _headers, solved = post(base, "solve", {"game": "tictactoe"})
        assert (code, solved["tier"], solved["value_text"]) == (200, "compiled", "draw")
        meanwhile = status(base)
        states = {kernel["kernel"]: kernel["state"] for kernel in meanwhile["kernels"]}
        assert {states[name] for name in preparing} <= {"queued", "compiling"}, states
        assert meanwhile["busy"] == 0 and not meanwhile["prepared"]

        wait_for(lambda: status(base)["prepared"], timeout=PREPARE_WAIT)
        assert kernels(base) == {"tic-tac-toe": "ready", preparing[0]: "ready",
                                 preparing[1]: "ready"}  # each compiled once, none failed
        for options in variants:
            code, _headers, answer = post(base, "solve", {"game": "tictactoe",
                                                          "options": options})
            assert (code, answer["tier"]) == (200, "compiled"), answer


# -- one server for the rest --------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    """A server of the tree and Connect Four with one worker, a body timeout of 2 s, its
    kernels prepared; its URL and process id."""
    with serving_process("--game", "gametree.games.tree", "--game", "gametree.games.connect4",
                         "--workers", "1", "--body-timeout", "2") as (base, process):
        wait_prepared(lambda: status(base))
        yield base, process.pid


OVERSIZED = json.dumps({"game": "tree", "options": {"leaves": "1 " * 16384}}).encode()
"""A tree of 32,767 nodes (32 KiB of request): built, then refused (over 5,000 nodes)."""


@pytest.mark.slow
def test_a_cheap_request_is_answered_before_a_flood_of_oversized_trees(
        server: tuple[str, int]) -> None:
    base, _pid = server
    flood = {f"tree {index}": raw_post(base, "/api/tree", OVERSIZED) for index in range(16)}
    cheap = raw(base, b"GET /api/status HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
    order, received = answers_in_order({**flood, "status": cheap})
    assert order[0] == "status", order  # before every one of the flood's answers
    assert received["status"].startswith(b"HTTP/1.1 200")
    for name in flood:
        assert received[name].startswith(b"HTTP/1.1 400"), received[name][:200]
        assert b"this server takes trees of at most 5,000" in received[name]


@pytest.mark.slow
def test_a_body_shorter_than_its_length_is_answered_408_and_closed(
        server: tuple[str, int]) -> None:
    base, _pid = server
    short = raw(base, b"POST /api/solve HTTP/1.1\r\nHost: test\r\nContent-Type: "
                      b"application/json\r\nContent-Length: 100\r\n\r\n{\"game\"")
    order, received = answers_in_order({"short": short})  # ends: the server closes it
    assert order == ["short"]
    head, body = received["short"].split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 408")
    assert b"connection: close" in head.lower()
    assert json.loads(body)["detail"] == (
        "the request body did not arrive within 2 s (gametree serve --body-timeout): 7 bytes "
        "of 100 declared came")
    code, _headers, answer = post(base, "solve", {"game": "tree", "options": {"leaves": "3 5"}})
    assert (code, answer["value"]) == (200, 5)


@pytest.mark.slow
def test_a_replaced_worker_is_reaped(server: tuple[str, int]) -> None:
    base, pid = server
    before = workers(pid)
    assert len(before) == 1
    (worker,) = before
    # A search that never ends, then its worker frozen: it cannot obey the signals to stop,
    # so when the client goes away the server kills it (after 10 s) and starts another.
    client = raw_post(base, "/api/solve", json.dumps({"game": "connect4",
                                                      "algorithm": "minimax"}).encode())
    wait_for(lambda: status(base)["busy"] == 1)
    os.kill(worker, signal.SIGSTOP)
    client.close()
    wait_for(lambda: workers(pid) - before)  # the new worker
    wait_for(lambda: status(base)["busy"] == 0)
    wait_for(lambda: worker not in children(pid))  # reaped: not even a zombie
    assert [child for child, (state, _) in children(pid).items() if state == "Z"] == []
    code, _headers, answer = post(base, "solve", {"game": "tree", "options": {"leaves": "3 5"}})
    assert (code, answer["value"]) == (200, 5)


# -- what a worker asks before a search ---------------------------------------------------------


@pytest.mark.slow
def test_engine_cached_tells_a_kernel_to_load_from_one_to_compile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tictactoe = games()["tictactoe"]
    form = compiled_form_of(tictactoe.make())
    assert not isinstance(form, str)
    CompiledEngine(form.kernel, table_bits=8)  # loaded (or compiled once) in this process
    assert engine_cached(form.kernel) is True
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))  # an empty cache: nothing else is in it
    assert engine_cached(form.kernel) is True  # loaded in this process already
    # A variant no other test loads (a worker of the suite runs many tests in one process).
    variant = compiled_form_of(tictactoe.make(rows=5, cols=3, k=3))
    assert not isinstance(variant, str)
    assert engine_cached(variant.kernel) is False
    assert list(tmp_path.iterdir()) == []  # it compiled nothing, wrote nothing


# -- Retry-After ----------------------------------------------------------------------------------


def test_retry_after_reflects_the_queue_and_recent_durations() -> None:
    # Two workers each 0.1 s into a job; 40 jobs queued; jobs took 0.5 s lately: the queue
    # is 20 s of work for two workers, plus what the running ones have left.
    assert retry_after([0.1, 0.1], 40, [0.5] * 10, workers=2, bound=5.0) == 11
    # Millisecond searches: a second (the least said).
    assert retry_after([0.0, 0.0], 32, [0.002] * 50, workers=2, bound=5.0) == 1
    # Longer searches, longer waits; more workers, shorter ones.
    assert retry_after([0.0], 10, [3.0], workers=1, bound=5.0) == 33
    assert retry_after([0.0] * 4, 10, [3.0], workers=4, bound=5.0) == 11
    # Before any job has ended, each is taken to last the time limit.
    assert retry_after([1.0], 1, [], workers=1, bound=5.0) == 9
