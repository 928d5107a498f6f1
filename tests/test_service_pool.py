"""The compiled engine pool keeps at most its limit in bytes of idle engines (the least recently
used go first), never drops an engine in use, and changes no search's answer; the service's
plans are bounded per game.

The kernels are the small ones the suite compiles anyway (tic-tac-toe, Connect Four 4x4 and
5x4, Nim 1-3-5-7), on one and two threads.
"""

from __future__ import annotations

import doctest
import json
import signal
import subprocess
import sys
import threading
import tracemalloc
import urllib.request
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

import pytest

import gametree
import gametree.pool
from gametree import EngineTuning, Game, SearchSession, service
from gametree.compiled import CompiledEngine
from gametree.games.connect4 import ConnectFour
from gametree.games.nim import Nim
from gametree.games.tictactoe import MNKGame
from gametree.pool import (
    MIB,
    EnginePool,
    engine_bytes,
    pool_bytes,
    pool_limit,
    set_pool_limit,
)
from gametree.web import worker
from gametree.web.limits import ServerLimits

from .cli_support import gametree as gametree_command
from .web_support import free_port, wait_for

GAMES: list[Game[Any, Any]] = [MNKGame(), ConnectFour(4, 4), ConnectFour(5, 4), Nim((1, 3, 5, 7))]
BITS = range(8, 15)
THREADS = (1, 2)


@pytest.fixture
def limit() -> Iterator[None]:
    """Restore the process's pool limit (and so empty what a test left idle) afterwards."""
    previous = pool_limit()
    yield
    set_pool_limit(0)
    set_pool_limit(previous)


def _search(game: Any, bits: int, threads: int) -> gametree.SearchResult[Any]:
    return gametree.search(game, tier="compiled", threads=threads,
                           tuning=EngineTuning(table_bits=bits))


def _answer(result: gametree.SearchResult[Any], threads: int) -> tuple[Any, ...]:
    """What must not change: with one thread everything, node counts included; with two the
    value and the moves' values (the threads' node counts vary from run to run)."""
    moves = tuple((entry.move, entry.value) for entry in result.moves)
    if threads == 1:
        return result.value, result.best_move, moves, result.stats.nodes, result.stats.leaves
    return result.value, result.outcome


@pytest.mark.slow  # compiles four kernels and a threaded solve when the run has not yet: ~30 s
def test_the_pool_stays_within_its_bound_across_kernels_sizes_and_threads(limit: None) -> None:
    # Every kernel at every table size on one thread; two threads on one kernel (each kernel's
    # threaded solve is compiled once per cache, a few seconds each: one is enough here).
    kinds = [(game, bits, 1) for game in GAMES for bits in BITS] + \
        [(GAMES[0], bits, threads) for bits in BITS for threads in THREADS if threads > 1]
    # Fresh answers: with a limit of 0 nothing is kept, every search has a brand-new engine.
    set_pool_limit(0)
    fresh = {}
    for game, bits, threads in kinds:
        fresh[id(game), bits, threads] = _answer(_search(game, bits, threads), threads)
        assert pool_bytes() == 0
    # A bound that holds a few of these engines, far fewer than the 35 kinds searched.
    bound = 1_000_000
    set_pool_limit(bound)
    sizes = []
    for _ in range(2):  # the second round meets engines kept from the first, and dropped ones
        for game, bits, threads in kinds:
            answer = _answer(_search(game, bits, threads), threads)
            assert answer == fresh[id(game), bits, threads], (game.name, bits, threads)
            assert pool_bytes() <= bound
            # No search runs now: every engine alive is an idle one.
            assert gametree.pool.POOL.live_bytes() == pool_bytes()
            sizes.append(pool_bytes())
    assert max(sizes) > bound // 2  # the pool was used, up to near its bound
    assert gametree.pool.POOL.idle_engines() < len(kinds)  # least recently used ones went
    # The engine given back last is the one the next search of its kind takes.
    game, bits, threads = GAMES[0], 10, 1
    form = game.compiled_form()
    assert form is not None
    engines = gametree.pool.POOL.of(form.kernel, bits, threads)
    engine = engines.take()
    engines.put(engine)
    _search(game, bits, threads)
    assert engines.take() is engine


def test_an_engine_in_use_is_not_dropped_and_does_not_count(limit: None) -> None:
    game = ConnectFour(4, 4)
    set_pool_limit(0)
    with SearchSession(game, tier="compiled") as session:
        first = session.search()
        assert pool_bytes() == 0  # the session's engine is in use: not the pool's
        again = session.search()
        # The session kept its engine (and table) under a limit of 0: the second search is
        # answered from the table the first one filled.
        assert again.value == first.value and again.stats.nodes < first.stats.nodes
        reports = session.iterate(game.initial_state(), depth=3)
        next(reports)
        set_pool_limit(1 << 30)
        assert pool_bytes() == 0
        reports.close()
    # Closed: the engine went back to the pool, which keeps it now.
    assert gametree.pool.POOL.idle_engines() == 1 and pool_bytes() > 16 << 22


def test_the_least_recently_used_idle_engine_goes_first() -> None:
    kernel = MNKGame().compiled_form().kernel
    one = engine_bytes(CompiledEngine(kernel, table_bits=8))
    pool = EnginePool(3 * one)
    small = pool.of(kernel, 8)
    other = pool.of(kernel, 9)
    a, b, c = small.take(), small.take(), small.take()
    assert pool.live_bytes() == 3 * one and pool.idle_bytes() == 0  # all three in use
    for engine in (a, b, c):
        small.put(engine)
    assert pool.idle_bytes() == 3 * one and pool.idle_engines() == 3
    assert small.take() is c and small.take() is b  # the most recently given back first
    small.put(b)
    small.put(c)  # given back, oldest first: a, b, c
    size = engine_bytes(CompiledEngine(kernel, table_bits=9))
    assert size > one
    pool.set_limit(2 * one + size)  # the three fit, and two of them with a larger one
    big = other.take()
    assert pool.live_bytes() == 3 * one + size  # more than the limit, while big is in use
    assert pool.idle_engines() == 3  # nothing is dropped until an engine comes back
    kept = id(a)
    del a, b, c  # only the pool holds them now
    other.put(big)  # one engine too many: a, the least recently given back, goes
    assert pool.idle_engines() == 3 and pool.idle_bytes() == 2 * one + size
    assert pool.live_bytes() == 2 * one + size  # a was freed
    assert kept not in {id(small.take()), id(small.take())}
    assert other.take() is big


@pytest.mark.slow  # 160 exact solves on four threads, Connect Four 5x4 among them: ~30 s
def test_threads_searching_at_once_keep_the_count_true(limit: None) -> None:
    """Taking and giving back take no lock: many threads at once, with a bound that keeps a
    few engines and drops others, leave the pool's count equal to what it holds."""
    set_pool_limit(400_000)
    failures: list[BaseException] = []

    def searches(offset: int) -> None:
        try:
            for index in range(40):
                game = GAMES[(index + offset) % len(GAMES)]
                bits = 8 + (index * 3 + offset) % 7
                assert _search(game, bits, 1).value == _search(game, 8, 1).value
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=searches, args=(offset,)) for offset in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not failures and not any(thread.is_alive() for thread in threads)
    set_pool_limit(400_000)  # counts the engines freed meanwhile
    assert gametree.pool.POOL.live_bytes() == pool_bytes() <= 400_000


def test_an_engine_larger_than_the_bound_serves_its_search_then_goes(limit: None) -> None:
    game = MNKGame()
    small = _search(game, 8, 1)
    kept = pool_bytes()
    assert kept > 0
    set_pool_limit(kept + 1000)  # room for the small engine, not for a 2**14 table
    large = _search(game, 14, 1)
    assert large.value == small.value
    assert pool_bytes() == kept  # the large engine was dropped, and nothing else with it


def test_lowering_the_limit_drops_idle_engines_at_once(limit: None) -> None:
    for bits in (8, 9, 10):
        _search(MNKGame(), bits, 1)
    held = pool_bytes()
    assert held > 0
    assert set_pool_limit(held - 1) >= held  # returns the previous limit
    assert 0 < pool_bytes() < held
    set_pool_limit(0)
    assert pool_bytes() == 0 and gametree.pool.POOL.idle_engines() == 0


@pytest.mark.parametrize("bad", [-1, 1.5, True, "1G", None])
def test_a_limit_must_be_a_whole_number_of_bytes(bad: Any) -> None:
    with pytest.raises(ValueError, match="whole number of bytes"):
        set_pool_limit(bad)
    with pytest.raises(ValueError, match="whole number of bytes"):
        EnginePool(bad)


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("bits", [8, 12, 14])
def test_an_engine_counts_the_bytes_it_allocates(bits: int, threads: int) -> None:
    kernel = ConnectFour(4, 4).compiled_form().kernel
    CompiledEngine(kernel, table_bits=8, threads=threads)  # the kernel loaded before measuring
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        engine = CompiledEngine(kernel, table_bits=bits, threads=threads)
        allocated = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    counted = engine_bytes(engine)
    assert counted >= 16 << bits  # the table at least: 2**bits entries of 16 bytes
    # Everything numpy allocated for it, give or take the engine's few Python objects.
    assert counted <= allocated <= counted + 4096


def test_the_default_limit_holds_four_default_tables() -> None:
    assert gametree.pool.DEFAULT_POOL_LIMIT == 4 * (16 << gametree.options.DEFAULT_TABLE_BITS)


def test_the_pool_module_examples_run(limit: None) -> None:
    failures, tried = doctest.testmod(gametree.pool)
    assert tried > 0 and failures == 0


def test_plans_are_bounded_per_game() -> None:
    game = Nim((1, 2))
    for seed in range(service.PLANS_PER_GAME + 20):
        assert gametree.search(game, tier="python", seed=seed).value == \
            gametree.search(game, tier="python").value
    assert len(service._plans[game]) == service.PLANS_PER_GAME


# -- the server exposes the limit -----------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_the_server_limit_must_be_a_whole_number_of_bytes(bad: Any) -> None:
    with pytest.raises(ValueError, match="engine_pool_bytes must be a whole number >= 0"):
        ServerLimits(engine_pool_bytes=bad)


def test_a_worker_bounds_its_pool_as_the_server_limits_say(limit: None) -> None:
    """What a worker process does first (``worker.main`` calls it before its first job)."""
    assert ServerLimits().engine_pool_bytes == gametree.pool.DEFAULT_POOL_LIMIT
    for wanted in (0, 5 * MIB, 3 * MIB + 1):
        limits = ServerLimits(engine_pool_bytes=wanted)
        # The worker receives the limits as a dict (they cross a process boundary).
        workshop = worker.set_up(ServerLimits(**asdict(limits)))
        assert pool_limit() == wanted and workshop.limits == limits


def test_serve_takes_the_limit_and_the_server_reports_it() -> None:
    """A real ``gametree serve`` process with ``--engine-pool-mib``: ``GET /api/limits``."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gametree", "serve", "--port", str(port), "--workers", "1",
         "--engine-pool-mib", "48"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}/api/limits"
        wait_for(lambda: urllib.request.urlopen(url, timeout=5).status == 200)
        with urllib.request.urlopen(url, timeout=5) as answer:
            assert json.load(answer)["engine_pool_bytes"] == 48 * MIB
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=60)


def test_serve_refuses_a_negative_limit() -> None:
    done = gametree_command("serve", "--engine-pool-mib", "-1", timeout=120)
    assert done.returncode == 2
    assert "--engine-pool-mib" in done.stderr and "-1" in done.stderr
