"""The searches the checks run: either tier's (:func:`tier_search`), and the Python tier's on a
game whose calls are counted against a node budget and whose exceptions name their method
(:class:`Budgeted`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from ..game import Game, Probability
from ..service import search
from ..values import Value

if TYPE_CHECKING:
    from ..compiled.form import CompiledForm
    from ..result import SearchResult

def _tier_search(game: Game[Any, Any], state: Any, *, form: CompiledForm[Any, Any] | None,
                 depth: int | None) -> SearchResult[Any]:
    """Search ``state`` with every root move valued exactly: with the compiled engine on
    ``form``'s kernel when ``form`` is given, else on the Python tier (the engine).

    The one place this module runs either tier's search.
    """
    if form is not None:
        return search(form.game, state, depth=depth, exact_root=True, tier="compiled")
    return search(game, state, depth=depth, exact_root=True, tier="python")


class _OverBudgetError(Exception):
    """A search expanded more states than its budget allows."""


class _GameRaisedError(Exception):
    """One of the game's methods raised during a search."""

    def __init__(self, method: str, error: Exception) -> None:
        super().__init__(method, error)
        self.method = method
        self.error = error


class _Budgeted(Game[Any, Any]):
    """The game under check as searches see it: expanding more than ``budget`` states stops
    the search (:class:`_OverBudgetError`), and an exception of the game's names its method
    (:class:`_GameRaisedError`)."""

    def __init__(self, game: Game[Any, Any], budget: int) -> None:
        self.game = game
        self.name = game.name
        self.player_names = game.player_names
        self.has_chance = game.has_chance
        self.budget = budget
        self.expanded = 0

    def _call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self.game, method)(*args)
        except RecursionError:
            raise  # the search went too deep: not the method's fault
        except Exception as error:
            raise _GameRaisedError(method, error) from error

    def initial_state(self) -> Any:
        """The game's."""
        return self._call("initial_state")

    def to_move(self, state: Any) -> int:
        """The game's."""
        player: int = self._call("to_move", state)
        return player

    def moves(self, state: Any) -> Sequence[Any]:
        """The game's, counted against the budget."""
        self.expanded += 1
        if self.expanded > self.budget:
            raise _OverBudgetError
        moves: Sequence[Any] = self._call("moves", state)
        return moves

    def play(self, state: Any, move: Any) -> Any:
        """The game's."""
        return self._call("play", state, move)

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, Probability]]:
        """The game's."""
        outcomes: Sequence[tuple[Any, Probability]] = self._call("chance_outcomes", state)
        return outcomes

    def turn(self, state: Any) -> int:
        """The game's."""
        player: int = self._call("turn", state)
        return player

    def value_bounds(self) -> tuple[Value, Value] | None:
        """The game's."""
        bounds: tuple[Value, Value] | None = self._call("value_bounds")
        return bounds

    def outcome(self, state: Any) -> Value | None:
        """The game's."""
        utility: Value | None = self._call("outcome", state)
        return utility

    def evaluate(self, state: Any) -> Value:
        """The game's."""
        estimate: Value = self._call("evaluate", state)
        return estimate

    def key(self, state: Any) -> Hashable:
        """The game's."""
        key: Hashable = self._call("key", state)
        return key

    def order_moves(self, state: Any, moves: Sequence[Any]) -> Sequence[Any]:
        """The game's."""
        ordered: Sequence[Any] = self._call("order_moves", state, moves)
        return ordered

