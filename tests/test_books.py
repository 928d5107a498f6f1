"""Installed opening books (:mod:`gametree.db.books`): every search answers the positions a book
covers from it — exact values, 0 nodes, ``source`` ``book`` — and each answer is the engine's
own; ``book=False`` (``--no-book``) searches; the command line builds one with ``--install``."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gametree import SearchOptions, SearchSession, iterate, search
from gametree.builder import BuildPlan, BuildRequest, build
from gametree.db import books
from gametree.db.store import Database
from gametree.registry import make

from .cli_support import run

OPTIONS = {"width": 4, "height": 4}
PLIES = 3


@pytest.fixture(scope="module")
def book_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A book directory holding the 4x4 book to 4 plies."""
    directory = tmp_path_factory.mktemp("books")
    path = directory / books.book_file_name("connect4", {"height": 4, "width": 4})
    build(BuildRequest(str(path), "connect4", OPTIONS, plies=PLIES, plan=BuildPlan(workers=1)))
    return directory


@pytest.fixture
def installed(book_directory: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The 4x4 book installed (the only book directory) for one test."""
    monkeypatch.setenv(books.BOOKS_ENV, str(book_directory))
    books.forget()
    yield book_directory
    books.forget()


def book_positions(directory: Path, count: int) -> list[str]:
    """``count`` positions the book stores (not finished games), drawn with a fixed seed."""
    (path,) = directory.glob("*.db")
    with Database.open(path) as database:
        lines = [row.moves for row in database.rows() if row.kind != "terminal"]
    return random.Random(7).sample(lines, count)


@pytest.mark.slow  # builds a book (a kernel compiled, frontier solves)
def test_twenty_book_positions_are_answered_with_the_engines_own_values_and_no_search(
        installed: Path) -> None:
    game = make("connect4", **OPTIONS)
    for moves in book_positions(installed, 20):
        state = game.initial_state()
        for text in moves.split():
            state = game.play(state, game.parse_move(state, text))
        found = search(game, state)
        searched = search(game, state, book=False)
        assert (found.source, found.algorithm, found.stats.nodes) == ("book", "database", 0)
        assert searched.source == "search" and searched.stats.nodes > 0
        assert (found.value, found.outcome, found.plies) == \
            (searched.value, searched.outcome, searched.plies), moves
        assert found.best_move in {move.move for move in search(
            game, state, book=False, exact_root=True).moves if move.value == searched.value}
        if len(moves.split()) < PLIES:  # every move's position is stored: every move's value
            analysed = search(game, state, exact_root=True)
            exact = search(game, state, exact_root=True, book=False)
            assert analysed.source == "book"
            assert [(m.move, m.value) for m in analysed.moves] == \
                [(m.move, m.value) for m in exact.moves]


@pytest.mark.slow  # builds a book (a kernel compiled, frontier solves)
def test_the_book_answers_sessions_iterations_and_budgets_but_not_what_it_cannot_stand_for(
        installed: Path) -> None:
    game = make("connect4", **OPTIONS)
    start = game.initial_state()
    with SearchSession(game) as session:
        assert session.search(start).source == "book"
        assert session.search(start, book=False).source == "search"
    (report,) = list(iterate(game, start, time=0.5))
    assert report.nodes == 0 and report.complete
    assert search(game, start, depth=3).source == "book"  # exact beats an estimate
    for refused in (SearchOptions(weak=True), SearchOptions(by_distance=False),
                    SearchOptions(algorithm="alphabeta", depth=2)):
        assert search(game, start, refused).source == "search", refused
    beyond = start
    for column in (0, 0, 1, 1, 2):
        beyond = game.play(beyond, column)
    assert search(game, beyond).source == "search"  # ply 5: beyond the book
    other = make("connect4", width=5, height=4)
    assert search(other, tier="python", depth=2).source == "search"  # no book of that variant


@pytest.mark.slow  # builds a book (a kernel compiled, frontier solves)
def test_the_json_of_a_book_answer_says_so(installed: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "connect4", "--width", "4", "--height", "4",
                         "--moves", "2 3", "--json")
    document = json.loads(out)
    assert status == 0
    assert (document["source"], document["stats"]["nodes"]) == ("book", 0)
    assert len(document["pv"]) > 1
    status, out, _ = run(capsys, "solve", "connect4", "--width", "4", "--height", "4",
                         "--moves", "2 3", "--json", "--no-line")
    bare = json.loads(out)
    assert (bare["source"], bare["pv"], bare["value"]) == \
        ("book", [document["best_move"]], document["value"])
    status, out, _ = run(capsys, "solve", "connect4", "--width", "4", "--height", "4",
                         "--moves", "2 3", "--json", "--no-book")
    assert json.loads(out)["source"] == "search"
    status, out, _ = run(capsys, "solve", "connect4", "--width", "4", "--height", "4",
                         "--moves", "2 3")
    assert "from the opening book: no search" in out


@pytest.mark.slow  # builds a book (a kernel compiled, frontier solves)
def test_db_build_install_writes_the_book_every_search_then_finds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(books.BOOKS_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    books.forget()
    try:
        status, out, _ = run(capsys, "db", "build", "connect4", "--width", "4", "--height", "4",
                             "--plies", "1", "--install", "--workers", "1", "--quiet")
        expected = tmp_path / "gametree" / "books" / "connect4-height-4-width-4.db"
        assert status == 0 and str(expected) in out
        assert books.default_book_path("connect4", {"height": 4, "width": 4}) == expected
        game = make("connect4", **OPTIONS)
        assert search(game).source == "book"
        status, _, err = run(capsys, "db", "build", "connect4", "--plies", "1", "--install",
                             "--moves", "4")
        assert status == 2 and "from the start" in err
    finally:
        books.forget()


def test_an_unfinished_or_foreign_file_is_no_book(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "junk.db").write_text("not a database")
    root = tmp_path / "rooted.db"
    build(BuildRequest(str(root), "connect4", OPTIONS, plies=1, moves="2",
                       search=SearchOptions(tier="python"), plan=BuildPlan(workers=1)))
    monkeypatch.setenv(books.BOOKS_ENV, str(tmp_path))
    books.forget()
    try:
        assert books.installed() == {}
        assert search(make("connect4", **OPTIONS), tier="python", depth=1).source == "search"
    finally:
        books.forget()


def test_book_directories_follow_the_environment(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(books.BOOKS_ENV, "")
    assert books.book_directories() == []
    monkeypatch.setenv(books.BOOKS_ENV, f"{tmp_path / 'a'}:{tmp_path / 'b'}")
    assert books.book_directories() == [tmp_path / "a", tmp_path / "b"]
    monkeypatch.delenv(books.BOOKS_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert books.book_directories() == [tmp_path / "gametree" / "books", books.PACKAGE_BOOKS]


def test_the_books_found_are_remembered_for_the_next_process(tmp_path: Path) -> None:
    # A process that read which variants the files of the book directories hold keeps that in
    # the cache directory: the next one, with the same files, opens none of them (a search
    # of a variant without a book imports no SQLite); a book added changes the files.
    directory = tmp_path / "books"
    directory.mkdir()
    (directory / "junk.db").write_text("not a database")  # opened (and refused) once
    cache = tmp_path / "cache"
    cache.mkdir()
    env = dict(os.environ, GAMETREE_CACHE_DIR=str(cache), **{books.BOOKS_ENV: str(directory)})
    script = ("import json, sys; from gametree import search; from gametree.registry import "
              "make; found = search(make('tictactoe'), tier='python'); "
              "print(json.dumps([found.source, 'sqlite3' in sys.modules]))")

    def searched() -> list[Any]:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, check=True, timeout=120)
        answer: list[Any] = json.loads(done.stdout)
        return answer

    assert searched() == ["search", True]
    assert searched() == ["search", False]
    build(BuildRequest(str(directory / "tictactoe.db"), "tictactoe", {}, plies=1,
                       search=SearchOptions(tier="python"), plan=BuildPlan(workers=1)))
    assert searched() == ["book", True]
    assert searched() == ["book", True]  # the book itself is SQLite
