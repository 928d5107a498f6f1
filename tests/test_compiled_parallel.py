"""One position on several threads (issue 11, item 5): the compiled engine's multi-threaded
(ABDADA) solve gives the value, outcome, distance and best move of one thread, on Pons'
benchmark positions and on small boards against the Python tier; ``--threads`` on the command
line; bad values refused in one line; Ctrl-C stops every thread. Values only: no test looks at
a clock (the speed-up is measured by ``benchmarks/bench_parallel.py``)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
from types import FrameType
from typing import Any

import pytest

import gametree
import gametree.compiled.engine as driver
from gametree import SearchOptions
from gametree.compiled import CompiledEngine, words
from gametree.games import connect4_kernel
from gametree.games.connect4 import ConnectFour, pons_score
from gametree.games.nim import Nim
from gametree.games.tictactoe import MNKGame
from gametree.options import OptionError
from gametree.registry import play_moves

from .cli_support import run
from .compiled_support import random_positions
from .pons import DATA, pons_set

_engines: dict[int, CompiledEngine] = {}


def engine(threads: int) -> CompiledEngine:
    """One Connect Four 7x6 engine per thread count for the module (each costs a load)."""
    if threads not in _engines:
        kernel = connect4_kernel.compiled_form(ConnectFour()).kernel
        _engines[threads] = CompiledEngine(kernel, threads=threads)
    return _engines[threads]


def sample_l1_r3() -> list[tuple[str, int]]:
    """Three quick positions of Pons' Test_L1_R3 (tests/data/connect4/README.md)."""
    lines = (DATA / "Sample_L1_R3").read_text(encoding="utf-8").split()
    return [(moves, int(score)) for moves, score in zip(lines[::2], lines[1::2], strict=True)]


@pytest.mark.parametrize("weak", [False, True], ids=["strong", "weak"])
@pytest.mark.parametrize("name", ["L1_R1", "L1_R2", "L1_R3"])
def test_two_threads_solve_pons_positions_as_one(name: str, weak: bool) -> None:
    game = ConnectFour()
    form = connect4_kernel.compiled_form(game)
    positions = sample_l1_r3() if name == "L1_R3" else pons_set(name, 10)
    if name == "L1_R3" and weak:
        positions = positions[:1]  # a weak solve of these costs as much as a strong one
    for moves, score in positions:
        state = play_moves(game, list(moves))
        root = form.encode(state)
        one = engine(1).search(root, weak=weak, fresh=True, form=form, root=state)
        two = engine(2).search(root, weak=weak, fresh=True, form=form, root=state)
        assert (two.value, two.outcome, two.plies) == (one.value, one.outcome, one.plies), moves
        assert two.best_move == one.best_move, moves  # the first best move in column order
        assert two.stats.threads == 2 and one.stats.threads == 1
        if weak:
            assert two.value == (score > 0) - (score < 0), moves
        else:
            assert pons_score(game, state, two) == score, moves
            assert two.pv == one.pv, moves  # each move of the line: the first keeping the value


def test_the_best_move_of_two_threads_is_a_best_move() -> None:
    # Against every root move's exact value from one thread: the chosen move keeps the value,
    # also with --exact (every move exact) and with a seed (ties broken at random).
    game = ConnectFour()
    form = connect4_kernel.compiled_form(game)
    for moves, _ in pons_set("L1_R2", 4):
        state = play_moves(game, list(moves))
        root = form.encode(state)
        exact = engine(1).search(root, exact_root=True, fresh=True, form=form, root=state)
        values = {entry.move: entry.value for entry in exact.moves}
        for options in ({}, {"exact_root": True}, {"seed": 7}):
            two = engine(2).search(root, fresh=True, form=form, root=state, **options)
            assert two.value == exact.value and values[two.best_move] == exact.value, moves
            if options:
                assert {entry.move: entry.value for entry in two.moves} == values, moves


@pytest.mark.parametrize("game", [MNKGame(),
                                  # a kernel compiled for no other core test: whole suite only
                                  pytest.param(MNKGame(3, 4, 3), marks=pytest.mark.slow),
                                  # threaded solves compiled for these two kernels
                                  # only (a fifth of a compile each): whole suite only
                                  pytest.param(Nim((1, 3, 5, 7)), marks=pytest.mark.slow),
                                  pytest.param(Nim((2, 3, 4), misere=True),
                                               marks=pytest.mark.slow),
                                  ConnectFour(4, 4),
                                  # ~25 s of two-thread solves: in the whole suite only
                                  pytest.param(ConnectFour(5, 4), marks=pytest.mark.slow)],
                         ids=["ttt", "mnk343", "nim1357", "misere234", "c4-4x4", "c4-5x4"])
def test_small_games_on_two_threads_agree_with_the_python_tier(game: Any) -> None:
    rng = random.Random(11)
    states = [game.initial_state()]
    for _ in range(12):  # random positions along random games
        state = game.initial_state()
        for _ in range(rng.randrange(1, 8)):
            moves = list(game.moves(state))
            if not moves or game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(moves))
        states.append(state)
    for state in states:
        python = gametree.search(game, state, tier="python")
        for weak in (False, True):
            one = gametree.search(game, state, weak=weak)
            two = gametree.search(game, state, SearchOptions(weak=weak, threads=2))
            assert two.tier == "compiled" and two.stats.threads == 2
            assert (two.value, two.outcome, two.plies, two.best_move) == \
                   (one.value, one.outcome, one.plies, one.best_move), state
        assert two.outcome == python.outcome
        strong = gametree.search(game, state, threads=2)
        assert (strong.value, strong.plies) == (python.value, python.plies), state


# Whole boards of other sizes (each its own kernel: a compile each, so the whole suite only):
# the solving hooks (forced lines, the static bound, claimeven on even heights, enhanced
# transposition cutoffs) under the threads' split of the work, from the empty board and from
# random positions, strong and weak, against one thread.
@pytest.mark.slow
@pytest.mark.parametrize("width, height", [(6, 4), (5, 5), (4, 6), (6, 5)])
def test_two_threads_solve_whole_boards_as_one(width: int, height: int) -> None:
    game = ConnectFour(width, height)
    form = connect4_kernel.compiled_form(game)
    one = CompiledEngine(form.kernel, table_bits=20)
    two = CompiledEngine(form.kernel, table_bits=20, threads=2)
    for state in random_positions(game, random.Random(width * 10 + height), 5, 8):
        root = form.encode(state)
        for weak in (False, True):
            alone = one.search(root, weak=weak, fresh=True, form=form, root=state)
            both = two.search(root, weak=weak, fresh=True, form=form, root=state)
            assert both.stats.threads == 2
            assert (both.value, both.outcome, both.plies, both.best_move) == \
                   (alone.value, alone.outcome, alone.plies, alone.best_move), (state, weak)
            if not weak:
                assert both.pv == alone.pv, state


@pytest.mark.parametrize("shift", range(8))
def test_the_table_placement_starts_a_cache_line(shift: int) -> None:
    """Each key's pair of slots (32 bytes) must lie in one 64-byte line, one trip to memory;
    the engine places its table itself, wherever its memory starts. Here on buffers that start
    at each of the 8 word offsets within a line."""
    buffer = words.zeros(1024 + 16)[shift:shift + 1024 + 8]
    for word in (0, 5, 36, 512):
        placed = driver._line_aligned(buffer, 1024, word)
        assert len(placed) == 1024 and placed.memory is buffer.memory
        assert buffer.address <= placed.address <= buffer.address + 8 * 8
        assert (placed.address + 8 * word) % 64 == 0, (shift, word)


def address_of(array: Any) -> int:
    """The address of an engine array's first item (numpy's array, or the images' Words)."""
    return array.address if isinstance(array, words.Words) else array.ctypes.data


@pytest.mark.parametrize("threads", [1, 2])
def test_every_threads_workspace_sees_the_table_on_a_cache_line(threads: int) -> None:
    searched = engine(threads)
    addresses = {address_of(view) + 8 * int(view[driver._C_TABLE])
                 for view in [searched._ws, *searched._helpers]}
    assert len(addresses) == 1
    assert addresses.pop() % 64 == 0


def test_one_thread_is_the_default_and_unchanged() -> None:
    game = ConnectFour()
    state = play_moves(game, list(pons_set("L1_R1", 1)[0][0]))
    default = gametree.search(game, state)
    one = gametree.search(game, state, threads=1)
    assert default.stats.as_dict() | {"seconds": 0} == one.stats.as_dict() | {"seconds": 0}
    assert (default.stats.nodes, default.stats.as_dict()["threads"]) == (one.stats.nodes, 1)
    two = gametree.search(game, state, threads=2)
    assert two.stats.as_dict()["threads"] == 2 and two.value == one.value


def test_budgeted_and_depth_limited_searches_run_on_one_thread() -> None:
    game = ConnectFour()
    state = play_moves(game, list(pons_set("L1_R2", 1)[0][0]))
    budgets: list[dict[str, Any]] = [{"depth": 6}, {"nodes": 20_000}]
    for options in budgets:
        one = gametree.search(game, state, **options)
        two = gametree.search(game, state, threads=2, **options)
        assert two.stats.threads == 1
        assert (two.value, two.best_move, two.stats.nodes) == (one.value, one.best_move,
                                                               one.stats.nodes)


def test_zero_threads_is_every_core() -> None:
    assert CompiledEngine(connect4_kernel.compiled_form(ConnectFour(4, 4)).kernel,
                          table_bits=10, threads=0).threads == (os.cpu_count() or 1)
    result = gametree.search(MNKGame(), threads=0)  # 1 on a one-core machine
    assert result.value == 0 and result.stats.threads == (os.cpu_count() or 1)
    tree = gametree.GameTree.from_leaves("3 5 2 9")
    assert gametree.search(tree, threads=0).tier == "python"  # 0: as many as can help


@pytest.mark.parametrize("threads", [-1, 10**9, "x", 2.0, True])
def test_bad_thread_counts_are_refused(threads: Any) -> None:
    with pytest.raises(ValueError, match=r"^threads must be a whole number within 0\.\.64 "
                                         r"\(0: every core\), got .+$"):
        SearchOptions(threads=threads)
    with pytest.raises(ValueError, match=r"^threads must be a whole number"):
        CompiledEngine(connect4_kernel.compiled_form(ConnectFour(4, 4)).kernel,
                       table_bits=10, threads=threads)


def test_more_threads_than_the_python_tier_has_are_refused() -> None:
    tree = gametree.GameTree.from_leaves("3 5 2 9")
    with pytest.raises(OptionError, match=r"^threads=2 needs the compiled tier: tree has no "
                                          r"compiled form$"):
        gametree.search(tree, threads=2)
    with pytest.raises(OptionError, match=r"^threads=2 needs the compiled tier: the Python "
                                          r"tier searches on one thread$"):
        SearchOptions(threads=2, tier="python")
    with pytest.raises(OptionError,
                       match=r"^threads=3 needs the compiled engine, not minimax$"):
        SearchOptions(threads=3, algorithm="minimax")


def test_cli_threads(capsys: pytest.CaptureFixture[str]) -> None:
    moves = pons_set("L1_R2", 1)[0][0]
    outputs = []
    for threads in ("1", "2", "auto"):
        status, out, _ = run(capsys, "solve", "connect4", "--moves", moves, "--threads",
                             threads, "--json")
        assert status == 0
        outputs.append(json.loads(out))
    scores = {(document["score"], document["best_move"], tuple(document["pv"]))
              for document in outputs}
    assert len(scores) == 1
    assert [document["stats"]["threads"] for document in outputs] == [1, 2, os.cpu_count()]
    status, out, _ = run(capsys, "solve", "connect4", "--moves", moves, "--threads", "2")
    assert status == 0 and "engine (compiled tier on 2 threads), to the end:" in out


@pytest.mark.parametrize("argv, message", [
    (["--threads", "-1"], "argument --threads: expected a number of threads within 0..64 or "
                          "'auto', got '-1'"),
    (["--threads", str(10**9)], "argument --threads: expected a number of threads within "
                                "0..64 or 'auto', got '1000000000'"),
    (["--threads", "x"], "argument --threads: expected a number of threads or 'auto', got 'x'"),
    (["--threads", "2", "--tier", "python"], "--threads=2 needs the compiled tier: the Python "
                                             "tier searches on one thread"),
])
def test_cli_bad_threads_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                     message: str) -> None:
    status, out, err = run(capsys, "solve", "connect4", "--moves", "4455", *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_cli_threads_on_a_game_without_a_kernel(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "solve", "tree", "--leaves", "3 5 2 9", "--threads", "2")
    assert status == 2
    assert err.strip() == "gametree solve: error: --threads=2 needs the compiled tier: tree " \
                          "has no compiled form"


needs_signals = pytest.mark.skipif(
    sys.platform == "win32" or threading.current_thread() is not threading.main_thread(),
    reason="kill -INT is POSIX; Python handles signals in the main thread only")


def signal_soon(seconds: float) -> subprocess.Popen[bytes]:
    """A process that sends this one SIGINT in ``seconds``."""
    return subprocess.Popen(["sh", "-c", f"sleep {seconds}; kill -INT {os.getpid()}"])


def search_threads() -> list[threading.Thread]:
    """The engine's search threads still alive (not the other threads of gametree a test run
    in this process may have left idle: a web server's pools, the SIGINT watcher)."""
    return [thread for thread in threading.enumerate()
            if thread.name == "gametree-search" or thread.name.startswith("gametree-helper-")]


@needs_signals
def test_ctrl_c_stops_every_thread() -> None:
    game = ConnectFour()
    form = connect4_kernel.compiled_form(game)
    two = engine(2)
    quick = play_moves(game, list(pons_set("L1_R1", 1)[0][0]))
    two.search(form.encode(quick))  # loaded: the signal lands in the search, not in numba
    killer = signal_soon(0.3)
    with pytest.raises(KeyboardInterrupt):
        two.search(form.encode(game.initial_state()), fresh=True)  # the whole game: minutes
    killer.wait()
    counters = [int(two._ws[0]), *(int(helper[0]) for helper in two._helpers)]
    assert counters[0] >= 4096 and all(counters)  # every thread had begun
    for thread in search_threads():  # each has left its compiled call: only Python's end
        thread.join(10)
    assert search_threads() == []
    assert counters == [int(two._ws[0]), *(int(helper[0]) for helper in two._helpers)]
    again = two.search(form.encode(quick), fresh=True, form=form, root=quick)
    assert again.value == engine(1).search(form.encode(quick), fresh=True).value


@needs_signals
def test_a_sigint_handler_that_returns_lets_the_threads_go_on() -> None:
    game = ConnectFour()
    form = connect4_kernel.compiled_form(game)
    moves, score = sample_l1_r3()[0]
    state = play_moves(game, list(moves))
    calls: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        calls.append(signum)

    engine(2).search(form.encode(play_moves(game, list(pons_set("L1_R1", 1)[0][0]))))
    previous = signal.signal(signal.SIGINT, note)
    try:
        killer = signal_soon(0.1)
        result = engine(2).search(form.encode(state), fresh=True, form=form, root=state)
        killer.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert calls == [signal.SIGINT]
    assert pons_score(game, state, result) == score


def test_a_search_after_a_threaded_solve_finds_none_of_its_helpers_entries() -> None:
    # The helper threads of a solve store entries the main thread did not list: a fresh search
    # that follows on the same engine must not meet them (the same position: it would).
    game = ConnectFour()
    state = play_moves(game, list(pons_set("L1_R2", 1)[0][0]))
    alone = gametree.search(game, state, depth=6)
    gametree.search(game, state, threads=2)
    after = gametree.search(game, state, threads=2, depth=6)
    assert (after.value, after.best_move, after.stats.nodes) == (alone.value, alone.best_move,
                                                                 alone.stats.nodes)


def test_a_search_in_the_other_scoring_mode_after_a_threaded_solve_starts_empty() -> None:
    # A threaded solve fills the table. A search in the other scoring mode that follows on the
    # same engine (not fresh) must find it empty, as a fresh search would: the stored values
    # would be misread.
    form = connect4_kernel.compiled_form(ConnectFour())
    state = form.encode(play_moves(ConnectFour(), list(pons_set("L1_R2", 1)[0][0])))
    alone = engine(1).search(state, depth=8, by_distance=False, fresh=True)
    engine(2).search(state, fresh=True)
    after = engine(2).search(state, depth=8, by_distance=False)
    assert (after.value, after.best_move, after.stats.nodes) == (alone.value, alone.best_move,
                                                                 alone.stats.nodes)
