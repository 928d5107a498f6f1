"""``gametree db``: check, query, stats, export, ``--db`` on solve and play; bad input."""

from __future__ import annotations

import io
import json
import sqlite3
import sys
from pathlib import Path

import pytest

from gametree import SearchOptions, search
from gametree.builder import BuildPlan, BuildRequest, build
from gametree.builder.book import enumerate_book
from gametree.db.answer import SolutionDatabase
from gametree.db.check import export_rows
from gametree.db.store import Database
from gametree.registry import make

from .cli_support import run, without_compile_notice


@pytest.fixture(scope="module")
def ttt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "ttt.db"
    build(BuildRequest(str(path), "tictactoe", search=SearchOptions(tier="python")))
    return path


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "book.db"
    build(BuildRequest(str(path), "connect4", {"width": 4, "height": 4}, plies=4,
                       plan=BuildPlan(workers=1)))
    return path


def copy(source: Path, target: Path) -> Path:
    target.write_bytes(source.read_bytes())
    return target


def test_check_passes_a_good_database(capsys: pytest.CaptureFixture[str], ttt: Path,
                                      book: Path) -> None:
    for path in (ttt, book):
        status, out, err = run(capsys, "db", "check", str(path), "--sample", "30")
        assert (status, without_compile_notice(err)) == (0, "")
        assert f"{path}: ok: " in out


def test_check_finds_a_corrupted_interior_row(capsys: pytest.CaptureFixture[str], ttt: Path,
                                              tmp_path: Path) -> None:
    path = copy(ttt, tmp_path / "bad.db")
    with sqlite3.connect(path) as connection:
        (moves,) = connection.execute(
            "SELECT moves FROM positions WHERE kind = 'interior' AND value = 1 "
            "ORDER BY ply DESC, key LIMIT 1").fetchone()
        connection.execute("UPDATE positions SET value = -1 WHERE moves = ?", (moves,))
    status, out, _ = run(capsys, "db", "check", str(path), "--sample", "0")
    assert status == 1
    assert f"position {moves!r}: stored a loss" in out
    assert "problem(s)" in out


def test_check_finds_a_corrupted_frontier_row_by_solving_it_again(
        capsys: pytest.CaptureFixture[str], book: Path, tmp_path: Path) -> None:
    path = copy(book, tmp_path / "bad.db")
    with sqlite3.connect(path) as connection:
        key, moves, plies = connection.execute(
            "SELECT key, moves, plies FROM positions WHERE kind = 'frontier' AND value = -1 "
            "ORDER BY key LIMIT 1").fetchone()
        connection.execute("UPDATE positions SET plies = ? WHERE key = ?", (plies + 2, key))
    status, out, _ = run(capsys, "db", "check", str(path), "--sample", "100000", "--json")
    report = json.loads(out)
    assert status == 1
    assert report["problems"] >= 1
    assert any(moves in problem and "the engine finds a loss in" in problem
               for problem in report["first_problems"])


def test_query_stats_and_export(capsys: pytest.CaptureFixture[str], ttt: Path) -> None:
    status, out, _ = run(capsys, "db", "query", "tictactoe", "--db", str(ttt), "--moves",
                         "0,0 1,1", "--json")
    answer = json.loads(out)
    assert status == 0
    assert (answer["found"], answer["outcome"], answer["kind"]) == (True, "draw", "interior")
    status, out, _ = run(capsys, "db", "query", "tictactoe", "--db", str(ttt), "--moves",
                         "2,2 1,1")  # the twin of 0,0 1,1
    assert status == 0
    assert out.startswith("X to move: draw; best: ")
    assert "stored as its twin '0,0 1,1'" in out
    status, out, _ = run(capsys, "db", "stats", str(ttt), "--json")
    stats = json.loads(out)
    assert (stats["positions"], stats["by_kind"]["terminal"]) == (765, 138)
    assert stats["meta"]["game"] == "tictactoe" and stats["meta"]["complete"] == "1"
    status, jsonl, _ = run(capsys, "db", "export", str(ttt))
    lines = jsonl.splitlines()
    assert len(lines) == 765 and json.loads(lines[0])["moves"] == ""
    status, csv, _ = run(capsys, "db", "export", str(ttt), "--format", "csv")
    assert csv.splitlines()[0] == "key,ply,moves,value,plies,best,kind"
    assert len(csv.splitlines()) == 766


def test_a_mirror_image_is_answered_from_its_stored_twin(capsys: pytest.CaptureFixture[str],
                                                        book: Path) -> None:
    """Connect Four's key merges a board with its mirror image: each pair is stored once, and
    the one not stored is answered from its twin with the best moves mirrored."""
    game = make("connect4", width=4, height=4)
    twins = 0
    with SolutionDatabase(book, game) as database:
        # 233 positions within 4 plies, 5 of them symmetric (the start and 4 at ply 4)
        assert database.store.count() == (233 + 5) // 2 == 119
        for row in database.store.rows():
            mirrored = game.initial_state()
            for text in row.moves.split():  # column c is column 5 - c in the mirror image
                mirrored = game.play(mirrored, game.parse_move(mirrored, str(5 - int(text))))
            entry = database.lookup(mirrored)
            assert entry is not None
            assert (entry.value, entry.plies, entry.row) == (row.value, row.plies, row)
            assert entry.twin == (mirrored != database.state_of(row))
            twins += entry.twin
            best = {game.format_move(mirrored, move) for move in entry.best}
            if entry.twin:
                assert best == {str(5 - int(text)) for text in row.best.split()}
            else:  # a symmetric position is its own twin: its row (a frontier's: one move)
                assert best == set(row.best.split())
    assert twins == 119 - 5  # every row but the symmetric positions' (their own mirror images)
    answers = []
    for moves in ("12", "43"):  # a position and its mirror image
        status, out, _ = run(capsys, "db", "query", "connect4", "--width", "4", "--height", "4",
                             "--db", str(book), "--moves", moves, "--json")
        assert status == 0
        answers.append(json.loads(out))
    stored, twin = answers
    assert (stored["twin"], stored["best"], stored["stored_moves"]) == (False, ["3", "1", "4"],
                                                                        "1 2")
    assert (twin["twin"], twin["best"], twin["stored_moves"]) == (True, ["2", "1", "4"], "1 2")
    assert twin["value"] == stored["value"]


def test_solve_and_analyze_answer_from_the_database(capsys: pytest.CaptureFixture[str],
                                                    book: Path) -> None:
    status, out, _ = run(capsys, "solve", "connect4", "--width", "4", "--height", "4",
                         "--moves", "12", "--db", str(book), "--json")
    from_db = json.loads(out)
    status, out, _ = run(capsys, "solve", "connect4", "--width", "4", "--height", "4",
                         "--moves", "12", "--json")
    searched = json.loads(out)
    assert from_db["algorithm"] == "database" and from_db["database"]["hit"] is True
    assert from_db["stats"]["nodes"] == 0 and searched["stats"]["nodes"] > 0
    for field in ("value", "outcome", "plies", "score"):
        assert from_db[field] == searched[field]
    # beyond the book's 4 plies: searched as usual
    status, out, _ = run(capsys, "analyze", "connect4", "--width", "4", "--height", "4",
                         "--moves", "123412", "--db", str(book), "--json")
    assert json.loads(out)["algorithm"] == "engine"
    assert json.loads(out)["database"]["hit"] is False
    status, out, _ = run(capsys, "solve", "connect4", "--width", "4", "--height", "4",
                         "--db", str(book))
    assert status == 0
    assert "from database" in out


def test_a_moves_file_is_answered_from_the_database_where_it_knows(
        capsys: pytest.CaptureFixture[str], book: Path, tmp_path: Path) -> None:
    lines = tmp_path / "lines.txt"
    lines.write_text("12\n# a comment\n123412\n\n2\n")
    common = ["solve", "connect4", "--width", "4", "--height", "4", "--moves-file", str(lines)]
    status, out, err = run(capsys, *common, "--db", str(book))
    assert (status, without_compile_notice(err)) == (0, "")
    from_db = [json.loads(line) for line in out.splitlines()]
    status, out, _ = run(capsys, *common)
    searched = [json.loads(line) for line in out.splitlines()]
    assert [d["line"] for d in from_db] == [d["line"] for d in searched] == [1, 3, 5]
    assert [d["database"]["hit"] for d in from_db] == [True, False, True]
    assert [d["algorithm"] for d in from_db] == ["database", "engine", "database"]
    assert all("database" not in d for d in searched)
    for mine, theirs in zip(from_db, searched, strict=True):
        for field in ("position", "value", "outcome", "plies", "score"):
            assert mine[field] == theirs[field]


@pytest.mark.parametrize("threads", [
    pytest.param(1, id="two-threads-one-table"),
    pytest.param(2, id="two-processes"),
])
def test_a_build_on_two_workers_equals_the_one_in_process(
        book: Path, tmp_path: Path, threads: int) -> None:
    # Two workers: two threads over one table, or (each solve given two threads) processes.
    path = tmp_path / "pool.db"
    report = build(BuildRequest(str(path), "connect4", {"width": 4, "height": 4}, plies=4,
                                search=SearchOptions(threads=threads),
                                plan=BuildPlan(workers=2)))
    assert report.solved == 82  # 160 positions at ply 4, 4 of them symmetric
    with Database.open(path) as pool, Database.open(book) as serial:
        assert list(export_rows(pool, "jsonl")) == list(export_rows(serial, "jsonl"))


@pytest.mark.parametrize(("workers", "threads"), [
    pytest.param(1, 1, id="one-worker"),
    pytest.param(2, 1, id="two-threads-one-table"),
    pytest.param(2, 2, id="two-processes"),
])
def test_frontier_solves_that_share_a_warm_table_store_what_fresh_solves_find(
        tmp_path: Path, workers: int, threads: int) -> None:
    # Each worker keeps its table from one frontier position to the next (the smallest table
    # here, so that later solves meet many entries of earlier ones, and replace them): every
    # row must still be what a one-shot search of its position finds, best move included.
    game = make("connect4", width=4, height=4)
    path = tmp_path / "warm.db"
    report = build(BuildRequest(str(path), "connect4", {"width": 4, "height": 4}, plies=4,
                                search=SearchOptions(table_memory=4096, threads=threads),
                                plan=BuildPlan(workers=workers)))
    frontier = [node for node in enumerate_book(game, game.initial_state(), 4)
                if node.kind == "frontier"]
    assert report.solved == len(frontier) == 82
    with Database.open(path) as database:
        for node in frontier:
            row = database.get_text(node.key)
            result = search(game, node.state)
            sign = {"win": 1, "draw": 0, "loss": -1}[str(result.outcome)]
            assert row is not None
            assert (row.value, row.plies, row.best) == (
                sign, result.plies if sign else None,
                game.format_move(node.state, result.best_move))


def values_of(path: Path) -> list[tuple[str, int, int | None, str]]:
    """Every row's key, value, distance and kind (not its best move: two searches may choose
    different ones among equally good moves)."""
    with Database.open(path) as database:
        return sorted((row.key, row.value, row.plies, row.kind) for row in database.rows())


@pytest.mark.parametrize("flags", [("--tier", "python"), ("--threads", "2")])
def test_a_book_searches_its_frontier_with_the_options_of_solve(
        capsys: pytest.CaptureFixture[str], book: Path, tmp_path: Path,
        flags: tuple[str, str]) -> None:
    path = tmp_path / "searched.db"
    status, out, err = run(capsys, "db", "build", "connect4", "--width", "4", "--height", "4",
                           "--plies", "4", "--workers", "1", "--quiet", "--json",
                           "--db", str(path), *flags)
    assert status == 0, err
    report = json.loads(out)
    assert report["tier"] == ("python" if flags[0] == "--tier" else "compiled")
    assert report["solved"] == 82
    assert values_of(path) == values_of(book)


@pytest.mark.parametrize(("flags", "message"), [
    (("--all", "--depth", "3"), "--depth applies to an opening book's frontier search only"),
    (("--all", "--threads", "2"), "--threads applies to an opening book's frontier search"),
    (("--plies", "2", "--weak"), "--weak proves only win, draw or loss"),
    (("--plies", "2", "--no-distance"), "a book stores distances to the end"),
    (("--plies", "2", "--depth", "1", "--workers", "1"),
     "the frontier position after '0,0 0,1' was not solved to the end of the game (searched "
     "to depth 1)"),
    (("--rows", "8", "--cols", "8", "--k", "5", "--plies", "1", "--tier", "compiled"),
     "--tier compiled: "),
])
def test_search_options_a_build_cannot_use_are_refused_in_its_words(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, flags: tuple[str, ...],
        message: str) -> None:
    status, out, err = run(capsys, "db", "build", "tictactoe", "--quiet",
                           "--db", str(tmp_path / "refused.db"), *flags)
    assert (status, out) == (2, "") and err.endswith("\n")
    err = without_compile_notice(err)  # first when no earlier test compiled the kernel
    assert err.startswith("gametree db: error: ") and "\n" not in err
    assert message in err


def test_a_build_request_checks_its_plan_and_options() -> None:
    with pytest.raises(ValueError, match="unknown executor 'dask'"):
        BuildPlan(executor="dask")
    with pytest.raises(ValueError, match="workers must be a positive integer"):
        BuildPlan(workers=0)
    with pytest.raises(ValueError, match="commit_every must be >= 0"):
        BuildPlan(commit_every=float("nan"))
    with pytest.raises(ValueError, match="plies must be an integer >= 0"):
        BuildRequest("x.db", "nim", plies=-1)
    with pytest.raises(ValueError, match="depth applies to an opening book"):
        BuildRequest("x.db", "nim", search=SearchOptions(depth=2))
    assert BuildRequest("x.db", "nim", search=SearchOptions(tier="python")).coverage == "all"
    assert BuildRequest("x.db", "nim", plies=2, search=SearchOptions(depth=2)).coverage == "book"


def test_play_takes_its_moves_from_the_database(capsys: pytest.CaptureFixture[str],
                                                book: Path, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status, out, _ = run(capsys, "play", "connect4", "--width", "4", "--height", "4",
                         "--first", "engine", "--db", str(book))
    assert status == 0
    assert "[its view: " in out and "exact, from the database; no search]" in out


@pytest.mark.parametrize("case", ["missing", "not a database", "corrupt", "another sqlite",
                                  "wrong variant", "build into another variant",
                                  "negative commit interval", "log interval not a number"])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], ttt: Path,
                                            tmp_path: Path, case: str) -> None:
    path = tmp_path / "x.db"
    argv = ["db", "stats", str(path)]
    if case == "not a database":
        path.write_text("hello\n")
    elif case == "corrupt":
        path.write_bytes(ttt.read_bytes()[:5000])
        argv = ["db", "check", str(path)]
    elif case == "another sqlite":
        with sqlite3.connect(path) as connection:
            connection.execute("CREATE TABLE t (x)")
    elif case == "wrong variant":
        argv = ["db", "query", "connect4", "--db", str(ttt)]
    elif case == "build into another variant":
        argv = ["db", "build", "tictactoe", "--rows", "4", "--all", "--db", str(ttt)]
    elif case == "negative commit interval":
        argv = ["db", "build", "tictactoe", "--plies", "2", "--db", str(path),
                "--commit-every", "-1"]
    elif case == "log interval not a number":
        argv = ["db", "build", "tictactoe", "--plies", "2", "--db", str(path),
                "--log-every", "nan"]
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("gametree db") and ": error: " in err
    assert "Traceback" not in err
    if case in ("wrong variant", "build into another variant"):
        assert "tictactoe --cols 3 --k 3 --rows 3" in err


def test_a_database_built_before_the_game_changed_is_refused(
        capsys: pytest.CaptureFixture[str], book: Path, tmp_path: Path) -> None:
    """A file of the same variant built by a gametree whose game differed (its fingerprint: an
    older Connect Four, say, whose key told mirror images apart) is refused, saying to build it
    again, rather than read or extended with other keys."""
    path = copy(book, tmp_path / "old.db")
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE meta SET value = 'an older one' WHERE name = 'fingerprint'")
    for argv, says in ((["db", "query", "connect4", "--width", "4", "--height", "4", "--db",
                         str(path), "--moves", "43"], "build it again"),
                       (["db", "build", "connect4", "--width", "4", "--height", "4", "--plies",
                         "4", "--db", str(path)], "build it again in another file")):
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, "")
        assert err.count("\n") == 1 and says in err and "connect4 --height 4 --width 4" in err


def test_solve_with_a_database_of_another_variant_is_refused(
        capsys: pytest.CaptureFixture[str], ttt: Path) -> None:
    status, _, err = run(capsys, "solve", "tictactoe", "--rows", "4", "--cols", "4",
                         "--db", str(ttt))
    assert status == 2
    assert err.count("\n") == 1 and "another variant" in err
