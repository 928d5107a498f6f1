"""How the computer chooses a move: one small interface between a front-end and the search.

A front-end asks an :class:`Opponent` for a :class:`Decision` (the move it would play, with the
search result behind it) or for an analysis (every legal move valued exactly). It never calls a
search itself. :class:`SearchOpponent` searches through the search service
(:mod:`gametree.service`), which picks the tier: the game's compiled form when it has one.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .. import levels
from ..algorithms import DEFAULT_ALGORITHM, ENGINE
from ..game import Game
from ..levels import LevelChoice
from ..options import SearchOptions, TierChoice
from ..result import SearchResult
from ..service import SearchSession

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True)
class Decision(Generic[M]):
    """What the computer found in one position: its move and the search behind it."""

    result: SearchResult[M]
    """The result of the (deepest completed) search; values are seen from the player to move.
    With a level, its ``best_move`` is the move the level plays (see :attr:`choice`)."""

    choice: LevelChoice | None = None
    """How a level chose the move (``None``: the search's best move, no level)."""

    @property
    def move(self) -> M | None:
        """The move chosen (``None`` in a position without moves)."""
        return self.result.best_move

    @property
    def depth(self) -> int | None:
        """The depth of the search in plies (``None``: searched to the end without a limit)."""
        return self.result.depth

    @property
    def complete(self) -> bool:
        """True if nothing deeper can change the values: no line was cut off by a depth
        limit, or the result is proven."""
        result = self.result
        return result.complete or result.outcome is not None or result.depth is None

    @property
    def nodes(self) -> int:
        """Positions visited, over every iteration."""
        return self.result.stats.nodes

    @property
    def seconds(self) -> float:
        """Thinking time, over every iteration."""
        return self.result.stats.seconds


class Opponent(Protocol):
    """The computer player, as a front-end sees it."""

    def describe(self, game: Game[Any, Any]) -> str:
        """Its strength in ``game`` in a few words, for the session header
        (``alpha-beta, depth 4``)."""
        ...

    def choose(self, game: Game[S, M], state: S) -> Decision[M]:
        """The move it plays in ``state`` (which must have legal moves), and why."""
        ...

    def analyse(self, game: Game[S, M], state: S) -> Decision[M]:
        """Like :meth:`advise`, but every legal move is valued exactly (not just bounded)."""
        ...

    def advise(self, game: Game[S, M], state: S) -> Decision[M]:
        """The move it would recommend in ``state`` at its full strength (a level's noise
        left out): what ``hint`` shows."""
        ...


class SearchOpponent:
    """An opponent that plays the best move a search finds.

    * ``depth`` only: one search of that many plies.
    * ``time_per_move`` (seconds), with or without a ``depth`` cap: the engine keeps the
      budget itself; a reference algorithm, which cannot stop half-way, deepens one ply at a
      time and never starts an iteration it does not expect to finish in time (the budget is
      then approximate).
    * neither: a search to the end of the game (perfect play; slow on big games).

    ``level`` (1..10, :mod:`gametree.levels`) makes it weaker: it looks at most the level's
    depth ahead and sometimes plays a good rather than the best move, or a random one; level
    10 plays as without a level. ``seed`` breaks ties between equally good moves at random, so
    that games vary, and makes a level's choices reproducible. ``tier``
    chooses where the engine searches (``auto``: the game's compiled form when it has one).
    The searches of one game share a :class:`~gametree.service.SearchSession`, so the engine's
    tables carry over from move to move.
    """

    def __init__(
        self,
        *,
        depth: int | None = None,
        time_per_move: float | None = None,
        algorithm: str = DEFAULT_ALGORITHM,
        seed: int | None = None,
        tier: TierChoice = "auto",
        level: int | None = None,
    ) -> None:
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                                  or depth < 1):
            raise ValueError(f"the depth must be a whole number of plies >= 1, got {depth!r}")
        self.options = SearchOptions(algorithm=algorithm, depth=depth, time=time_per_move,
                                     seed=seed, tier=tier)
        """The options every search of this opponent uses."""
        self.level = None if level is None else levels.level(level).number
        """The level it plays at (1..10), or ``None``: the search's own best move."""
        self._session: SearchSession[Any, Any] | None = None

    def describe(self, game: Game[Any, Any]) -> str:
        """The search and its limits, e.g. ``alphabeta, up to 2 s per move``."""
        options = self.options
        if options.time is not None:
            limit = f"up to {options.time:g} s per move"
            if options.depth is not None:
                limit += f", at most {options.depth} plies deep"
        elif options.depth is not None:
            limit = f"{options.depth} plies deep"
        else:
            limit = "searching to the end of the game"
        name = options.algorithm
        if name == ENGINE and self.session(game).tier == "compiled":
            name = "compiled engine"
        strength = "" if self.level is None else f"{levels.level(self.level).describe()}; "
        return f"{strength}{name}, {limit}"

    def choose(self, game: Game[S, M], state: S) -> Decision[M]:
        """The move it plays in ``state``: the search's best, or its level's choice."""
        if self.level is None:
            return self.advise(game, state)
        session = self.session(game)
        result, choice = levels.choose(
            state, self.level, lambda **changes: session.search(state, **changes),
            depth=self.options.depth, seed=self.options.seed)
        return Decision(result, choice)

    def advise(self, game: Game[S, M], state: S) -> Decision[M]:
        """The move the search prefers in ``state`` (at full strength, whatever the level)."""
        return Decision(self.session(game).search(state))

    def analyse(self, game: Game[S, M], state: S) -> Decision[M]:
        """Every legal move of ``state`` valued exactly, at full strength."""
        return Decision(self.session(game).search(state, exact_root=True))

    def session(self, game: Game[S, M]) -> SearchSession[S, M]:
        """The search session of ``game`` (a new one when the game changes)."""
        if self._session is None or self._session.game is not game:
            if self._session is not None:
                self._session.close()
            self._session = SearchSession(game, self.options)
        session: SearchSession[S, M] = self._session
        return session

    def close(self) -> None:
        """Close its search session, if it has one (its engine goes back to the pool)."""
        if self._session is not None:
            self._session.close()
            self._session = None

    def prepare(self, game: Game[Any, Any]) -> None:
        """Load (or, the first time, compile) what the searches of ``game`` need now, so that
        the wait comes before the game rather than inside the first move's thinking time."""
        self.session(game).prepare()
