"""Answering from a database: the Python API's database object.

:class:`SolutionDatabase` opens a database for a game (refusing one built for another variant)
and answers a position at once when it, or its symmetric twin (the same key), is stored:
:meth:`SolutionDatabase.lookup` gives the stored entry with the best moves translated to the
position asked about; :meth:`SolutionDatabase.result` a :class:`~gametree.SearchResult` whose
``algorithm`` is ``"database"`` (no search ran: its statistics are zeros). Root moves whose
positions are stored get their exact values too, and a position that is not stored but all of
whose moves' positions are is answered from them ("near the root").

The search service probes a database first when given one: ``gametree.search(game, state,
database=db)`` or ``SearchSession(game, database=db)`` (:class:`gametree.service.Probe`); the
terminal player plays from one with :class:`gametree.play.database.DatabaseOpponent`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from ..game import Game
from ..result import MoveValue, SearchResult, SearchStats
from ..values import break_tie, outcome_of, seen_from_parent
from .store import Database, Row, engine_value, key_text, stored_value

S = TypeVar("S")
M = TypeVar("M")

ALGORITHM = "database"
"""The ``algorithm`` of a result answered from a database."""


@dataclass(frozen=True)
class Entry(Generic[M]):
    """A stored answer for one position, its best moves in that position's own moves."""

    value: int
    """1 win, 0 draw, -1 loss, for the player to move."""
    plies: int | None
    """Plies to the end with best play (``None`` for a draw)."""
    best: tuple[M, ...]
    """Every stored best move (a frontier position: the one the solver chose)."""
    row: Row
    twin: bool
    """True if the stored row is another position with the same key (a symmetric twin)."""

    @property
    def score(self) -> int:
        """The value on the engine's scale (``gametree.values``: ``WIN - plies`` for a win)."""
        return engine_value(self.value, self.plies)


class SolutionDatabase(Generic[S, M]):
    """A solution database opened for one game (the variant it was built for).

    ``SolutionDatabase(path, game)`` raises :class:`~gametree.db.DatabaseError` for a missing
    or damaged file, or one built for another variant of the game.
    """

    def __init__(self, path: str | Path, game: Game[S, M]) -> None:
        self.store = Database.open(path)
        try:
            self.store.check_game(game)
        except Exception:
            self.store.close()
            raise
        self.game = game
        self.path = Path(path)
        self._lock = threading.RLock()  # one query at a time: usable from any thread
        root_moves = self.store.meta.get("root", "")
        self._root = game.initial_state()
        for text in root_moves.split():
            self._root = game.play(self._root, game.parse_move(self._root, text))

    def close(self) -> None:
        """Close the file."""
        self.store.close()

    def __enter__(self) -> SolutionDatabase[S, M]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def state_of(self, row: Row) -> S:
        """The position a row's moves lead to from the database's root."""
        state = self._root
        for text in row.moves.split():
            state = self.game.play(state, self.game.parse_move(state, text))
        return state

    def lookup(self, state: S) -> Entry[M] | None:
        """The stored entry of ``state`` (or of its twin), or ``None``."""
        with self._lock:
            return self._lookup(state)

    def _lookup(self, state: S) -> Entry[M] | None:
        game = self.game
        row = self.store.get(game.key(state))
        if row is None:
            return None
        stored = self.state_of(row)
        names = row.best.split()
        if stored == state:
            best = tuple(game.parse_move(state, name) for name in names)
            return Entry(row.value, row.plies, best, row, twin=False)
        # A twin: each stored best move leads to a child whose key the same move of this
        # position, seen through the symmetry, leads to as well.
        wanted = {game.key(game.play(stored, game.parse_move(stored, name))) for name in names}
        best = tuple(move for move in game.moves(state)
                     if game.key(game.play(state, move)) in wanted)
        return Entry(row.value, row.plies, best, row, twin=True)

    def result(self, state: S, *, exact: bool = False,
               seed: int | None = None) -> SearchResult[M] | None:
        """A search result from the database, or ``None`` if it cannot answer.

        It answers when ``state`` (or its twin) is stored, with the exact value of every root
        move whose position is stored (``exact``: only if all are: the value of the others is
        unknown); and *near the root*: when ``state`` is not stored but every move's position
        is (a position before a book's root, say), by one ply of minimax over them. ``seed``
        (with ``exact``): the best move is drawn among the tied ones as a seeded search draws
        it, so that both give the same move."""
        with self._lock:
            return self._result(state, exact, seed)

    def _result(self, state: S, exact: bool, seed: int | None) -> SearchResult[M] | None:
        entry = self.lookup(state)
        game = self.game
        moves: list[MoveValue[M]] = []
        missing = False
        if game.outcome(state) is None:
            mover = game.to_move(state)
            for move in game.moves(state):
                child = game.play(state, move)
                found = self.store.get(game.key(child))
                if found is None:
                    missing = True
                    if entry is not None and move in entry.best:
                        moves.append(MoveValue(move, entry.score, "exact"))
                    continue
                value = engine_value(found.value, found.plies)
                same = game.to_move(child) == mover
                moves.append(MoveValue(move, seen_from_parent(value, same_mover=same), "exact"))
        if missing and (exact or entry is None):
            return None
        if entry is not None:
            score, plies, best = entry.score, entry.plies, entry.best
        elif moves:  # near the root: every move's position is stored
            score = int(max(move.value for move in moves))
            plies = stored_value(score)[1]
            best = tuple(move.move for move in moves if move.value == score)
        else:
            return None
        best_move = best[0] if best else None
        if seed is not None and not missing:  # as the engines draw it: among the tied moves
            tied = [move.move for move in moves if move.value == score]
            best_move = break_tie(tied, seed) if tied else best_move
        return SearchResult(
            best_move=best_move, value=score, moves=tuple(moves),
            pv=self._line(state, best_move), stats=SearchStats(iterations=0), algorithm=ALGORITHM,
            tier="python", depth=None, by_distance=True, outcome=outcome_of(score), plies=plies,
            exhaustive=True, complete=True, weak=False, source="database")

    def _line(self, state: S, move: M | None) -> tuple[M, ...]:
        """The best line as far as the database knows it."""
        line: list[M] = []
        seen = set()
        while move is not None and len(line) < 200:
            line.append(move)
            state = self.game.play(state, move)
            key = self.game.key(state)
            if key in seen:
                break
            seen.add(key)
            entry = self.lookup(state)
            move = entry.best[0] if entry is not None and entry.best else None
        return tuple(line)


def key_of(game: Game[Any, Any], state: Any) -> str:
    """The stored key text of ``state``."""
    return key_text(game.key(state))


__all__ = ["ALGORITHM", "Entry", "SolutionDatabase", "key_of"]
