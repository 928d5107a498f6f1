"""The Python API probes a database inside the search path (``gametree.search(...,
database=db)``, ``SearchSession(..., database=db)``), and the book builder's task sizing and
progress."""

from __future__ import annotations

import io
import sqlite3
import sys
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from gametree import EngineTuning, SearchOptions, SearchSession, iterate, search
from gametree.builder import BuildPlan, BuildRequest, build, executors
from gametree.builder.executors import FIRST_TASK, Chunker
from gametree.builder.progress import LogProgress
from gametree.db import SolutionDatabase
from gametree.games.connect4 import ConnectFour
from gametree.registry import make, play_moves

OPTIONS = {"width": 4, "height": 4}


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "book.db"
    build(BuildRequest(str(path), "connect4", OPTIONS, plies=3, plan=BuildPlan(workers=1)))
    return path


def test_search_answers_from_the_database_where_it_knows_and_searches_elsewhere(
        book: Path) -> None:
    game = make("connect4", **OPTIONS)
    inside = play_moves(game, ["2", "3"])
    beyond = play_moves(game, ["2", "3", "1", "4", "1"])
    with SolutionDatabase(book, game) as database:
        found = search(game, inside, database=database)
        searched = search(game, inside)
        assert (found.algorithm, found.stats.nodes) == ("database", 0)
        assert searched.algorithm == "engine" and searched.stats.nodes > 0
        assert (found.value, found.plies, found.outcome) == (searched.value, searched.plies,
                                                           searched.outcome)
        assert search(game, beyond, database=database).algorithm == "engine"
        # exact_root needs every root move's value: the book's frontier (ply 3) has its
        # children unstored, so such a position is searched; its parent (ply 2) is answered
        frontier = play_moves(game, ["2", "3", "1"])
        assert search(game, frontier, database=database, exact_root=True).algorithm == "engine"
        analysed = search(game, inside, database=database, exact_root=True)
        exact = search(game, inside, exact_root=True)
        assert analysed.algorithm == "database"
        assert {m.move: m.value for m in analysed.moves} == {m.move: m.value for m in exact.moves}
        # plain values (not by distance) are not what the database stores: searched
        assert search(game, inside, database=database, by_distance=False).algorithm == "engine"


def test_a_session_probes_its_database_before_each_search(book: Path) -> None:
    game = make("connect4", **OPTIONS)
    with SolutionDatabase(book, game) as database, \
            SearchSession(game, database=database) as session:
        assert session.search().algorithm == "database"
        assert session.search(play_moves(game, ["1", "2", "3", "4"])).algorithm == "engine"
    with SearchSession(game) as plain:
        assert plain.search().algorithm == "engine"


def test_iterating_reports_the_database_answer_once_where_it_knows(book: Path) -> None:
    game = make("connect4", **OPTIONS)
    inside = play_moves(game, ["2", "3"])
    beyond = play_moves(game, ["2", "3", "1", "4", "1"])
    with SolutionDatabase(book, game) as database, \
            SearchSession(game, database=database) as session:
        stored = search(game, inside, database=database)
        for reports in (list(iterate(game, inside, database=database)),
                        list(session.iterate(inside))):
            assert len(reports) == 1
            (report,) = reports
            assert (report.value, report.best_move, report.outcome, report.plies, report.nodes,
                    report.complete) == (stored.value, stored.best_move, stored.outcome,
                                         stored.plies, 0, True)
        searched = list(iterate(game, beyond, database=database))
        assert searched[-1].nodes > 0
        assert [r.value for r in session.iterate(beyond)] == [r.value for r in searched]


def test_a_seeded_search_draws_the_same_best_move_with_or_without_the_database(
        book: Path) -> None:
    game = make("connect4", **OPTIONS)
    positions = [game.initial_state(), play_moves(game, ["2"]), play_moves(game, ["2", "3"])]
    with SolutionDatabase(book, game) as database:
        drawn = set()
        for state in positions:
            for seed in range(6):
                stored = search(game, state, database=database, seed=seed)
                searched = search(game, state, seed=seed)
                assert stored.algorithm == "database"
                assert stored.best_move == searched.best_move, (state, seed)
                assert stored.pv[0] == stored.best_move
                drawn.add((positions.index(state), stored.best_move))
        assert len(drawn) > len(positions)  # some seeds drew other tied moves


def test_a_position_whose_moves_are_all_stored_is_answered_near_the_root(
        book: Path, tmp_path: Path) -> None:
    path = tmp_path / "rootless.db"
    path.write_bytes(book.read_bytes())
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM positions WHERE ply = 0")
    game = make("connect4", **OPTIONS)
    with SolutionDatabase(path, game) as database:
        assert database.lookup(game.initial_state()) is None
        near = search(game, database=database, exact_root=True)
    with SolutionDatabase(book, game) as database:
        stored = search(game, database=database, exact_root=True)
    assert near.algorithm == stored.algorithm == "database"
    assert (near.value, near.plies, near.moves) == (stored.value, stored.plies, stored.moves)
    assert near.best_move in {m.move for m in stored.moves if m.value == stored.value}


def test_the_chunker_hands_out_every_position_once_in_shrinking_tasks() -> None:
    positions = [(i, 3, str(i)) for i in range(1000)]
    chunker = Chunker(positions, workers=2)
    first = chunker.take()
    assert first is not None and len(first) == FIRST_TASK
    chunker.record(len(first), 0.001 * len(first))  # 1 ms a position: 500 to fill 0.5 s
    sizes = [len(first)]
    handed = list(first)
    while (task := chunker.take()) is not None:
        sizes.append(len(task))
        handed.extend(task)
    assert handed == positions
    assert sizes[1] == 125  # a quarter of what is left per worker, not 500
    assert all(a >= b for a, b in pairwise(sizes[1:]))  # shrinking towards the end
    assert sizes[-1] == 1
    fixed = Chunker(positions, workers=2, fixed=64)
    assert [len(task) for task in iter(fixed.take, None)] == [64] * 15 + [40]


def test_each_lane_follows_its_own_run_of_the_frontier_then_takes_the_end_of_another() -> None:
    positions = [(i, 8, str(i)) for i in range(100)]
    chunker = Chunker(positions, workers=2, fixed=10, lanes=2)
    taken: dict[int, list[int]] = {0: [], 1: []}
    for lane in (0, 1, 1, 1, 1, 1, 0, 1, 1, 0):  # lane 1 is quicker: it finishes its run first
        task = chunker.take(lane)
        assert task is not None
        assert task == positions[task[0][0]:task[0][0] + 10]
        taken[lane].append(task[0][0])
    assert taken[0] == [0, 10, 20]
    assert taken[1] == [50, 60, 70, 80, 90, 40, 30]  # its run, then lane 0's from the end
    assert chunker.remaining == 0
    assert chunker.take(0) is None and chunker.take(1) is None


def test_the_log_line_says_how_long_a_slow_position_takes_and_that_none_finished_yet(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr("gametree.builder.progress.time.perf_counter", lambda: clock[0])
    stream = io.StringIO()
    progress = LogProgress(stream, every=30)
    progress.start("solving 4 frontier positions at ply 1", 4)
    clock[0] += 40
    progress.advance(0)  # a heartbeat: nothing finished yet
    clock[0] += 200
    progress.advance(1)
    clock[0] += 0.5
    progress.advance(0)  # within 30 s of the last line: quiet
    progress.start("storing positions", 3000)
    clock[0] += 1.5
    progress.advance(3000)  # within 30 s: quiet until the phase ends
    progress.finish()
    assert stream.getvalue().splitlines() == [
        "gametree db build: solving 4 frontier positions at ply 1: 0/4 (0.0%), "
        "none finished after 40 s",
        "gametree db build: solving 4 frontier positions at ply 1: 1/4 (25.0%), "
        "4 min a position, ETA 12 min",
        "gametree db build: storing positions: 3,000/3,000 (100.0%), 2,000.0 positions/s",
    ]


def test_pool_workers_report_while_their_solves_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "HEARTBEAT", 0.001)  # the builder's side: tasks outlast it
    game = ConnectFour(**OPTIONS)
    positions = [(game.initial_state(), 0, "")]
    with executors.PoolWorkers("connect4", OPTIONS, SearchOptions(), 1) as workers:
        yielded = list(workers.run(Chunker(positions, workers=1)))
    assert [] in yielded  # heard before the solve ended
    assert [len(rows) for rows in yielded if rows] == [1]


def test_pool_workers_are_forked_only_on_linux_from_a_process_without_numba(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setitem(sys.modules, "numba", sys)  # any module: numba imported
    assert executors.start_method() == "spawn"
    monkeypatch.delitem(sys.modules, "numba")
    assert executors.start_method() == "fork"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert executors.start_method() == "spawn"


@pytest.mark.parametrize(("search_options", "kind", "threads"), [
    pytest.param(SearchOptions(), executors.SharedTableWorkers, 2, id="exact-compiled"),
    pytest.param(SearchOptions(threads=2), executors.PoolWorkers, 2, id="threads-given"),
    pytest.param(SearchOptions(tier="python"), executors.PoolWorkers, 1, id="python-tier"),
    pytest.param(SearchOptions(nodes=10**9), executors.PoolWorkers, 1, id="budgeted"),
])
def test_two_local_workers_are_threads_over_one_table_where_rows_cannot_differ(
        search_options: SearchOptions, kind: type[executors.Workers], threads: int) -> None:
    # Exact solves on the compiled engine: two threads, each solving its own positions with
    # a workspace of one engine over its one table (no second process, one warm table).
    # Elsewhere: processes.
    game = ConnectFour(**OPTIONS)
    plan = BuildPlan(workers=2)
    with executors.start(plan, game=game, name="connect4", options=OPTIONS,
                         search=search_options) as workers:
        assert type(workers) is kind
        assert isinstance(workers, executors.SharedTableWorkers | executors.PoolWorkers)
        assert workers.search_options.threads == threads
        assert not workers.search_options.line  # a row stores the best move, not its line
        assert workers.search_options.table_memory == (
            None if search_options.tier == "python" else executors.FRONTIER_TABLE_MEMORY)


def test_a_frontier_s_table_is_the_one_the_options_size_if_they_do() -> None:
    game = ConnectFour(**OPTIONS)
    given = SearchOptions(table_memory=2**26)
    assert executors.frontier_search(game, given).table_memory == 2**26
    tuned = SearchOptions(tuning=EngineTuning(table_bits=18))
    assert executors.frontier_search(game, tuned) == replace(tuned, line=False)
