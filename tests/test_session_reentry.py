"""A session never hangs its own thread: a call on a session held by this very thread (an
iterator paused here, or the session's own search calling back) raises SessionBusyError at
once; a call from another thread waits until the session is free; an iterator that is closed
or garbage-collected frees the session.

Every call that could hang runs in a thread joined with a timeout, so that a regression fails
the test instead of hanging the suite.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

import gametree
from gametree import SearchSession, SessionBusyError, Tracer
from gametree.games.nim import Nim
from gametree.games.tictactoe import MNKGame

T = TypeVar("T")

HANG = 120.0
"""Seconds after which a call that has not come back counts as hung (a generous bound: the
first compiled search of a process loads its kernel)."""

TIERS = ["python", "compiled"]


def within(call: Callable[[], T], seconds: float = HANG) -> T:
    """``call()``'s result or exception, from a thread of its own; fails if it does not come
    back within ``seconds`` (a hang)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(("value", call()))
        except BaseException as error:
            outcome.append(("error", error))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"the call did not come back within {seconds} s: it hangs")
    kind, value = outcome[0]
    if kind == "error":
        raise value
    result: T = value
    return result


def _paused_then(tier: str, call: Callable[[SearchSession[Any, Any]], object]) -> None:
    """In one thread: iterate, take one report, then ``call(session)``, which must raise."""
    game = MNKGame()
    session: SearchSession[Any, Any] = SearchSession(game, tier=tier)

    def sequence() -> None:
        it = session.iterate(game.initial_state())
        next(it)
        with pytest.raises(SessionBusyError, match=r"close it \(it\.close\(\)\) first"):
            call(session)
        it.close()

    within(sequence)


@pytest.mark.parametrize("tier", TIERS)
def test_search_on_a_session_paused_in_this_thread_raises(tier: str) -> None:
    game = MNKGame()
    session: SearchSession[Any, Any] = SearchSession(game, tier=tier)
    fresh = gametree.search(game, tier=tier)

    def sequence() -> object:
        it = session.iterate(game.initial_state())
        next(it)
        try:
            return session.search()
        finally:
            it.close()

    with pytest.raises(SessionBusyError) as raised:
        within(sequence)
    message = str(raised.value)
    assert "session.search()" in message and "paused in this thread" in message
    assert "close it (it.close()) first" in message
    # The failed call did not break the session: once the iterator is closed it searches
    # again (its table carries over, so the value is compared, not the node count).
    assert within(session.search).value == fresh.value


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("call", ["iterate", "clear", "prepare"])
def test_every_other_call_on_a_paused_session_raises_too(tier: str, call: str) -> None:
    def act(session: SearchSession[Any, Any]) -> object:
        if call == "iterate":
            return next(session.iterate())
        return getattr(session, call)()

    _paused_then(tier, act)


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("how", ["finished", "closed", "collected"])
def test_an_iterator_that_ends_frees_the_session(tier: str, how: str) -> None:
    game = Nim((1, 2, 3))
    session: SearchSession[Any, Any] = SearchSession(game, tier=tier)
    fresh = gametree.search(game, tier=tier)

    def sequence() -> object:
        it = session.iterate()
        next(it)
        if how == "finished":
            list(it)
        elif how == "closed":
            it.close()
        else:
            # No gc.collect(): the iterator must not sit in a reference cycle (with the
            # session or itself), or dropping it would not free the session until a
            # collection that may never come.
            del it
        return session.search()

    enabled = gc.isenabled()
    gc.disable()
    try:
        result = within(sequence)
    finally:
        if enabled:
            gc.enable()
    assert isinstance(result, gametree.SearchResult) and result.value == fresh.value


@pytest.mark.parametrize("tier", TIERS)
def test_close_in_the_paused_thread_closes_the_iterator(tier: str) -> None:
    game = MNKGame()

    def sequence() -> object:
        with SearchSession(game, tier=tier) as session:
            it = session.iterate()
            next(it)
        # The with block ended with the iterator open: close() closed it, no error, no hang.
        assert list(it) == []
        return session.search().value

    assert within(sequence) == gametree.search(game, tier=tier).value


@pytest.mark.parametrize("tier", TIERS)
def test_another_thread_waits_for_the_paused_iterator(tier: str) -> None:
    game = MNKGame()
    session: SearchSession[Any, Any] = SearchSession(game, tier=tier)
    fresh = gametree.search(game, tier=tier)
    it = session.iterate()
    next(it)  # this thread holds the session now
    results: list[Any] = []
    waiting = threading.Thread(target=lambda: results.append(session.search()), daemon=True)
    waiting.start()
    waiting.join(0.5)
    # Another thread's call waits (no error), and does not run while the iterator holds the
    # session: the iterator's engine is not searched from two threads at once.
    assert waiting.is_alive() and results == []
    it.close()
    waiting.join(HANG)
    assert not waiting.is_alive(), "the waiting call never got the session"
    assert results[0].value == fresh.value


def test_an_iterator_advanced_by_another_thread_holds_the_session_there() -> None:
    """The thread that last advanced an open iterator holds the session: a call from the thread
    that made the iterator then waits for it (it does not raise)."""
    game = MNKGame()
    session: SearchSession[Any, Any] = SearchSession(game, tier="python")
    it = session.iterate()
    next(it)
    stepped = threading.Event()
    finish = threading.Event()

    def other() -> None:
        next(it)  # now this thread holds the session
        stepped.set()
        finish.wait(HANG)
        list(it)  # and frees it at the end

    thread = threading.Thread(target=other, daemon=True)
    thread.start()
    assert stepped.wait(HANG)
    results: list[Any] = []

    def search_then_note() -> None:
        results.append(session.search().value)

    waiting = threading.Thread(target=search_then_note, daemon=True)
    waiting.start()
    finish.set()
    waiting.join(HANG)
    thread.join(HANG)
    assert not waiting.is_alive() and not thread.is_alive()
    assert results == [gametree.search(game, tier="python").value]


def test_a_session_called_from_inside_its_own_search_raises() -> None:
    """A tracer (or a game) that calls its session back from inside the session's search."""
    game = Nim((1, 2))
    session: SearchSession[Any, Any] = SearchSession(game, tier="python")
    seen: list[BaseException] = []

    def on_event(event: object) -> None:
        if not seen:
            try:
                session.search()
            except SessionBusyError as error:
                seen.append(error)

    tracer: Tracer[Any, Any] = Tracer(game, on_event=on_event)
    result = within(lambda: session.search(tracer=tracer))
    assert result.value == gametree.search(game, tier="python").value
    assert len(seen) == 1 and "from inside the session's own search" in str(seen[0])
    assert within(session.search).value == result.value  # and it is free again
