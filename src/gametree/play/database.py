"""Playing from a solution database: a book's moves at once, a search's after the book.

The database is :mod:`gametree.db` (the store and :class:`~gametree.db.SolutionDatabase`, which
answers positions); this is the player that uses it (``gametree play ... --db FILE``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeVar

from ..db.answer import SolutionDatabase
from ..game import Game
from .opponent import Decision, Opponent

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class DatabaseOpponent:
    """An opponent that plays from a database where it can and asks another opponent (a
    search) elsewhere: a book's moves at once, the engine's after the book."""

    def __init__(self, database: SolutionDatabase[Any, Any], fallback: Opponent) -> None:
        self.database = database
        self.fallback = fallback

    def describe(self, game: Game[Any, Any]) -> str:
        """The fallback's strength, and the database."""
        return f"{self.fallback.describe(game)}; from the database {self.database.path.name} " \
               f"where it knows the position"

    def choose(self, game: Game[S, M], state: S) -> Decision[M]:
        """The database's first best move, else the fallback's choice."""
        found = self.database.result(state) if game is self.database.game else None
        return Decision(found) if found is not None else self.fallback.choose(game, state)

    def advise(self, game: Game[S, M], state: S) -> Decision[M]:
        """The database's first best move, else the fallback's advice."""
        found = self.database.result(state) if game is self.database.game else None
        return Decision(found) if found is not None else self.fallback.advise(game, state)

    def analyse(self, game: Game[S, M], state: S) -> Decision[M]:
        """Every move's exact value from the database when all are stored, else the
        fallback's analysis."""
        found = self.database.result(state, exact=True) if game is self.database.game else None
        return Decision(found) if found is not None else self.fallback.analyse(game, state)

    def prepare(self, game: Game[Any, Any]) -> None:
        """Prepare the fallback (the database needs nothing)."""
        prepare = getattr(self.fallback, "prepare", None)
        if prepare is not None:
            prepare(game)


__all__ = ["DatabaseOpponent"]
