"""The opening book shipped with the package: Connect Four 7x6 to 4 plies
(``gametree/db/data``, built by ``gametree db build connect4 --plies 4``). It is complete, found
by default, and every answer it gives is the engine's own exact solve of the position."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gametree import search
from gametree.db import books
from gametree.db.store import Database
from gametree.registry import make

OPTIONS = {"height": 6, "width": 7}
PLIES = 4
SHIPPED = books.PACKAGE_BOOKS / books.book_file_name("connect4", OPTIONS)


@pytest.fixture
def default_books(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The book directories a user has by default, with an empty user directory: the shipped
    books alone answer."""
    assert SHIPPED.is_file(), f"the 7x6 book is not shipped: no {SHIPPED}"
    monkeypatch.delenv(books.BOOKS_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    books.forget()
    yield
    books.forget()


def stored_lines(kind: str) -> list[str]:
    with Database.open(SHIPPED) as database:
        return [row.moves for row in database.rows() if row.kind == kind]


def position(moves: str) -> tuple[Any, Any]:
    game = make("connect4", **OPTIONS)
    state = game.initial_state()
    for text in moves.split():
        state = game.play(state, game.parse_move(state, text))
    return game, state


def test_the_7x6_book_is_complete_and_holds_every_position_of_the_first_four_plies() -> None:
    with Database.open(SHIPPED) as database:
        meta = database.meta
    assert (meta["game"], meta["complete"], meta["plies"], meta["root"]) == \
        ("connect4", "1", str(PLIES), "")
    # Every position after 1-4 moves, counting a position and its mirror image once.
    by_ply: dict[int, set[tuple[tuple[int, ...], ...]]] = {ply: set() for ply in range(PLIES + 1)}
    frontier: set[tuple[tuple[int, ...], ...]] = set()

    def walk(columns: list[list[int]], ply: int) -> None:
        board = tuple(tuple(column) for column in columns)
        seen = min(board, board[::-1])
        by_ply[ply].add(seen)
        if ply == PLIES:
            frontier.add(seen)
            return
        for column in columns:
            column.append(ply % 2)
            walk(columns, ply + 1)
            column.pop()

    walk([[] for _ in range(OPTIONS["width"])], 0)
    assert len(stored_lines("frontier")) == len(frontier) == 568
    assert len(stored_lines("interior")) == sum(len(by_ply[ply]) for ply in range(PLIES))


def test_the_empty_board_is_analysed_from_the_book_with_no_search(default_books: None) -> None:
    game = make("connect4", **OPTIONS)
    result = search(game, exact_root=True)
    assert (result.source, result.stats.nodes, result.reading().words) == \
        ("book", 0, "exact, from the opening book")
    # Allis (1988): the first player wins only in the middle column; the columns beside it draw.
    outcomes = {game.format_move(game.initial_state(), entry.move):
                (entry.value > 0) - (entry.value < 0) for entry in result.moves}
    assert outcomes == {"1": -1, "2": -1, "3": 0, "4": 1, "5": 0, "6": -1, "7": -1}
    assert (result.outcome, result.best_move, result.plies) == ("win", 3, 41)


@pytest.mark.slow  # twenty exact solves of 7x6 positions after four moves (seconds each)
def test_twenty_book_positions_are_the_engines_own_exact_solves(default_books: None) -> None:
    for moves in random.Random(20).sample(stored_lines("frontier"), 20):
        game, state = position(moves)
        found = search(game, state)
        solved = search(game, state, book=False)
        assert (found.source, found.stats.nodes) == ("book", 0), moves
        assert solved.source == "search" and solved.stats.nodes > 0
        assert (found.value, found.outcome, found.plies) == \
            (solved.value, solved.outcome, solved.plies), moves
