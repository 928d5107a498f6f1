"""OpenSpiel's games as gametree games: one adapter for every game of OpenSpiel's that gametree
can search.

`OpenSpiel <https://github.com/google-deepmind/open_spiel>`_ implements over 80 games in C++.
Those that are **two-player, zero-sum (or constant-sum), sequential and of perfect
information**, with or without chance (``tic_tac_toe``, ``connect_four``, ``breakthrough``,
``nim``, ``pig``, ``backgammon``, ``othello``, ...), become a :class:`gametree.Game` through
:class:`OpenSpielGame`, so that every search of gametree (the reference algorithms, the engine,
the trace, the terminal player) plays them by OpenSpiel's own rules::

    gametree solve openspiel --name "breakthrough(rows=4,columns=4)" --depth 4

``--name`` takes OpenSpiel's own game string (``pyspiel.load_game``'s). Other games are refused
with the reason (``kuhn_poker has imperfect information``). The bridge needs OpenSpiel, the
optional extra ``gametree[openspiel]`` (``pip install open_spiel``); pyspiel is imported only
when such a game is built.

How OpenSpiel's notions map onto gametree's contract:

* **States** are :class:`OpenSpielState`: an OpenSpiel state that is never changed once made
  (:meth:`OpenSpielGame.play` plays a move on a copy), with its key.
* **Moves** are OpenSpiel's actions (ints). Their text is OpenSpiel's ``action_to_string`` made
  one word (:func:`move_word`: ``x(1,1)``, ``a3b2``, ``pile:2,take:3``, ``Roll_3``), so that a
  line of moves can be given to ``--moves`` as the results print it; :meth:`parse_move` also
  takes OpenSpiel's text as it is and ``#N``, the action's number.
* **Keys** (:meth:`OpenSpielGame.key`) are OpenSpiel's text of the state with the player to move
  and how many moves and chance outcomes led there: the text alone leaves out move counters that
  some rules depend on (Pig's ``horizon`` counts the players' moves), so positions merge in the
  transposition table only when they are the same position at the same point of the game. Rules
  that look further back than a counter (repetitions in chess, superko in go) are not seen.
* **Outcomes** are OpenSpiel's returns: ``(r0 - r1) / 2``, which is player 0's return in a
  zero-sum game (+1 a win, -1 a loss) and centres a constant-sum game on 0.
* **Evaluation** is optional: ``evaluate`` gives a heuristic of OpenSpiel states (seen from
  player 0, like OpenSpiel's ``value_function``) for depth-limited searches; without one a cut
  line is worth 0.
* **Chance** follows gametree's chance contract: at a chance node :meth:`OpenSpielGame.to_move`
  is :data:`gametree.game.CHANCE` and :meth:`OpenSpielGame.chance_outcomes` gives OpenSpiel's
  outcomes with their probabilities; the player whose turn it is there (who rolls) is the last
  player who moved (player 0 before anyone has).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..game import CHANCE, Game, IllegalMoveError
from ..registry import GameOption, GameSpec
from ..values import Value

EXTRA = "gametree[openspiel]"
"""The optional extra that installs OpenSpiel."""

MISSING = (f"the openspiel game needs OpenSpiel, which is not installed: "
           f"pip install '{EXTRA}' (or pip install open_spiel)")
"""The message when pyspiel cannot be imported."""

SUPPORTED = ("gametree searches OpenSpiel games that are two-player, zero-sum (or constant-sum), "
             "sequential and of perfect information, with or without chance")
"""What the bridge takes, said in every refusal."""

TERMINAL_PLAYER = -4
"""OpenSpiel's ``kTerminalPlayerId``: ``current_player()`` of a finished game."""


_KINDS: dict[type, str] = {int: "a whole number", float: "a number", bool: "true or false",
                           str: "a text"}
"""How the types of OpenSpiel's parameters are named in messages."""

_SPACE_AFTER = re.compile(r"(?<=[,:;(\[])\s+|\s+(?=[)\],])")
_SPACES = re.compile(r"\s+")


def pyspiel_module() -> Any:
    """The ``pyspiel`` module; :class:`ValueError` naming the extra if OpenSpiel is missing."""
    try:
        import pyspiel  # noqa: PLC0415 - optional: only the openspiel game needs it
    except ImportError:
        raise ValueError(MISSING) from None
    return pyspiel


def move_word(text: str) -> str:
    """OpenSpiel's text of a move as one word: spaces after ``,:;(`` and before ``)`` dropped,
    other spaces written ``_``, a final ``;`` dropped (``"pile:2, take:3;"`` ->
    ``"pile:2,take:3"``, ``"Roll 3"`` -> ``"Roll_3"``)."""
    word = _SPACES.sub("_", _SPACE_AFTER.sub("", text.strip()))
    return word.rstrip(";")


class OpenSpielState:
    """A state of an OpenSpiel game, as gametree's searches need it: immutable (the OpenSpiel
    state inside is never changed), hashable by its key, with what the search asks for at
    every node worked out once."""

    __slots__ = ("_key", "chances", "mover", "moves", "player", "spiel", "utility")

    def __init__(self, spiel: Any, mover: int, moves: int, chances: int) -> None:
        """Wrap ``spiel`` (an OpenSpiel state no one changes any more); ``mover`` is the last
        player who moved before it (0 at the start), ``moves`` how many moves (chance outcomes
        included) and ``chances`` how many chance outcomes led to it."""
        self.spiel = spiel
        """The OpenSpiel state (``pyspiel.State``); never change it."""
        player = spiel.current_player()
        self.player: int = player
        """OpenSpiel's current player: 0, 1, -1 at a chance node (OpenSpiel's chance player id
        is gametree's :data:`~gametree.game.CHANCE`), -4 once the game is over."""
        self.mover: int = player if player >= 0 else mover if player == CHANCE else 1 - mover
        """Whose turn it is: the player to move; at a chance node the last player who moved
        (who rolls); once the game is over the other one (who would move next)."""
        self.moves: int = moves
        """How many moves led here, chance outcomes included."""
        self.chances: int = chances
        """How many chance outcomes led here."""
        self.utility: Value | None = None
        """Once the game is over: the result for player 0 (``(r0 - r1) / 2``)."""
        if player == TERMINAL_PLAYER:
            first, second = spiel.returns()
            self.utility = (first - second) / 2
        self._key: tuple[int, int, int, str] | None = None

    @property
    def key(self) -> tuple[int, int, int, str]:
        """The player to move (or chance), how many moves and chance outcomes led here, and
        OpenSpiel's text of the state (see the module's doc). Worked out when first asked: a
        search asks for the keys of the positions it goes on from, not of finished games."""
        key = self._key
        if key is None:
            key = self._key = (self.player, self.moves, self.chances, str(self.spiel))
        return key

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OpenSpielState) and self.key == other.key

    def __repr__(self) -> str:
        return f"OpenSpielState({self.spiel.history_str()!r})"


Evaluation = Callable[[Any], float]
"""A heuristic of OpenSpiel states (``pyspiel.State``), seen from player 0."""


class OpenSpielGame(Game[OpenSpielState, int]):
    """An OpenSpiel game (two-player, zero-sum or constant-sum, sequential, perfect
    information, with or without chance) as a gametree game. Moves are OpenSpiel's actions."""

    player_names = ("player 0", "player 1")

    def __init__(self, game: Any, *, evaluate: Evaluation | None = None) -> None:
        """``game``: OpenSpiel's game string (``"breakthrough(rows=4,columns=4)"``) or a loaded
        ``pyspiel.Game``. ``evaluate``: an optional heuristic of OpenSpiel states seen from
        player 0, within ``±HEURISTIC_LIMIT``, for depth-limited searches.

        Raises :class:`ValueError` saying why for a game string OpenSpiel does not know, a game
        outside the class gametree searches, or a missing OpenSpiel.
        """
        self.spiel_game = load(game) if isinstance(game, str) else game
        """The OpenSpiel game (``pyspiel.Game``)."""
        refuse_unsupported(self.spiel_game)
        self.name = str(self.spiel_game)
        self.has_chance = self.spiel_game.get_type().chance_mode.name != "DETERMINISTIC"
        self._evaluate = evaluate
        low, high = self.spiel_game.min_utility(), self.spiel_game.max_utility()
        self._bounds = (low, high) if self.spiel_game.get_type().utility.name == "ZERO_SUM" \
            else ((low - high) / 2, (high - low) / 2)

    def initial_state(self) -> OpenSpielState:
        """OpenSpiel's initial state."""
        return OpenSpielState(self.spiel_game.new_initial_state(), 0, 0, 0)

    def to_move(self, state: OpenSpielState) -> int:
        """The player to move (at the end, who would move next: the player other than the last
        to move); at a chance node :data:`gametree.game.CHANCE`."""
        return CHANCE if state.player == CHANCE else state.mover

    def turn(self, state: OpenSpielState) -> int:
        """Whose turn it is, also at a chance node: the player who moved last (who rolls)."""
        return state.mover

    def moves(self, state: OpenSpielState) -> Sequence[int]:
        """OpenSpiel's legal actions (at a chance node its outcomes, in the same order as
        :meth:`chance_outcomes`); none once the game is over."""
        if state.utility is not None:
            return ()
        if state.player == CHANCE:
            return [action for action, _probability in state.spiel.chance_outcomes()]
        return state.spiel.legal_actions()  # type: ignore[no-any-return]

    def chance_outcomes(self, state: OpenSpielState) -> Sequence[tuple[int, float]]:
        """At a chance node, OpenSpiel's outcomes with their probabilities (floats)."""
        return [(action, probability)
                for action, probability in state.spiel.chance_outcomes()]

    def play(self, state: OpenSpielState, move: int) -> OpenSpielState:
        """OpenSpiel's state after ``move``, on a copy (``state`` is unchanged)."""
        child = state.spiel.child(move)
        if state.player == CHANCE:
            return OpenSpielState(child, state.mover, state.moves + 1, state.chances + 1)
        return OpenSpielState(child, state.player, state.moves + 1, state.chances)

    def outcome(self, state: OpenSpielState) -> Value | None:
        """``None`` while the game goes on, then OpenSpiel's returns as player 0's result."""
        return state.utility

    def value_bounds(self) -> tuple[Value, Value]:
        """The least and the greatest result for player 0, from OpenSpiel's utilities (with
        them the engine prunes at chance nodes); a heuristic given as ``evaluate`` must keep
        within them too."""
        return self._bounds

    def evaluate(self, state: OpenSpielState) -> Value:
        """The heuristic given to the game (seen from player 0), else 0."""
        if self._evaluate is None:
            return 0
        return self._evaluate(state.spiel)

    def key(self, state: OpenSpielState) -> Hashable:
        """OpenSpiel's text of the state with the player to move and the counts of moves and
        chance outcomes that led there (see the module's doc)."""
        return state.key

    def format_move(self, state: OpenSpielState, move: int) -> str:
        """OpenSpiel's text of ``move`` as one word (:func:`move_word`), or ``#N`` (the action's
        number) where that word would not name it alone."""
        word = move_word(state.spiel.action_to_string(state.player, move))
        if not word or ";" in word or word.startswith("#"):
            return f"#{move}"
        clashes = sum(move_word(state.spiel.action_to_string(state.player, other)) == word
                      for other in self.moves(state))
        return word if clashes == 1 else f"#{move}"

    def parse_move(self, state: OpenSpielState, text: str) -> int:
        """The legal move ``text`` names: its word (:meth:`format_move`, in any case),
        OpenSpiel's own text of it, or ``#N``, the action's number."""
        legal = self.moves(state)
        if not legal:
            raise IllegalMoveError("the game is over: there is no move to play")
        wanted = text.strip()
        if wanted.startswith("#") and wanted[1:].isdigit():
            action = int(wanted[1:])
            if action in legal:
                return action
            raise IllegalMoveError(f"action {action} is not legal here; legal moves: "
                                   f"{self._choices(state, legal)}")
        word = move_word(wanted).lower()
        for action in legal:
            spelled = state.spiel.action_to_string(state.player, action)
            if move_word(spelled).lower() == word or spelled.strip().lower() == wanted.lower():
                return action
        raise IllegalMoveError(f"{wanted!r} is not a legal move; legal moves: "
                               f"{self._choices(state, legal)}")

    def _choices(self, state: OpenSpielState, legal: Sequence[int]) -> str:
        return ", ".join(self.format_move(state, action) for action in legal)

    def render(self, state: OpenSpielState) -> str:
        """OpenSpiel's text of the state."""
        return str(state.spiel).rstrip("\n")


def load(name: str) -> Any:
    """``pyspiel.load_game(name)``, with one-line errors (:class:`ValueError`) for a name or
    parameters OpenSpiel does not know, checked before OpenSpiel is asked (it would print its
    whole list of games on standard error first)."""
    pyspiel = pyspiel_module()
    text = name.strip()
    short, bracket, rest = text.partition("(")
    short = short.strip()
    types = {game_type.short_name: game_type for game_type in pyspiel.registered_games()}
    if short not in types:
        import difflib  # noqa: PLC0415 - only for a name not found

        near = difflib.get_close_matches(short, list(types), n=3)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise ValueError(f"OpenSpiel has no game {short!r}{hint} (pyspiel.registered_names() "
                         f"lists them)")
    if bracket and (not rest.endswith(")") or rest.count("(") + 1 != rest.count(")")):
        raise ValueError(f"cannot read the game string {text!r}: write name(key=value,...), "
                         f"such as breakthrough(rows=4,columns=4)")
    parameters = pyspiel.game_parameters_from_string(text) if bracket else {}
    parameters.pop("name", None)
    specification = types[short].parameter_specification
    for key, value in parameters.items():
        if key not in specification:
            raise ValueError(f"{short} has no parameter {key!r}; its parameters: "
                             f"{', '.join(sorted(specification)) or 'none'}")
        expected = type(specification[key])
        if not isinstance(value, expected) and not (expected is float and
                                                    isinstance(value, int)):
            raise ValueError(f"{short}'s parameter {key} takes "
                             f"{_KINDS.get(expected, expected.__name__)}, got {value!r}")
    try:
        return pyspiel.load_game(text)
    except pyspiel.SpielError as error:
        raise ValueError(f"OpenSpiel cannot load {text!r}: {error}") from None


def refuse_unsupported(spiel_game: Any) -> None:
    """Raise :class:`ValueError` saying why, if ``spiel_game`` is not a game gametree can
    search (two-player, zero-sum or constant-sum, sequential, perfect information, chance only
    with its outcomes listed)."""
    game_type = spiel_game.get_type()
    name = game_type.short_name
    reasons = []
    if spiel_game.num_players() != 2:
        count = spiel_game.num_players()
        reasons.append(f"has {count} player{'' if count == 1 else 's'}")
    if game_type.dynamics.name != "SEQUENTIAL":
        reasons.append("has simultaneous moves")
    if game_type.information.name != "PERFECT_INFORMATION":
        reasons.append("has imperfect information")
    if game_type.utility.name not in ("ZERO_SUM", "CONSTANT_SUM"):
        reasons.append(f"is not zero-sum (its utility is {game_type.utility.name.lower()})")
    if game_type.chance_mode.name == "SAMPLED_STOCHASTIC":
        reasons.append("samples its chance outcomes without listing them")
    if reasons:
        raise ValueError(f"{name} {' and '.join(reasons)}: {SUPPORTED}")


def build(name: str = "tic_tac_toe") -> OpenSpielGame:
    """The ``openspiel`` game from its command-line option."""
    return OpenSpielGame(name)


SPEC = GameSpec(
    name="openspiel",
    summary="any two-player, zero-sum, perfect-information game of OpenSpiel's, by its game "
            "string (needs gametree[openspiel])",
    notation="OpenSpiel's text of the move as one word (x(1,1), a3b2, pile:2,take:3, Roll_3), "
             "or #N for action N",
    build=build,
    options=(
        GameOption("name", "OpenSpiel's game string, as pyspiel.load_game takes it",
                   str, "tic_tac_toe", metavar="GAME"),
    ),
)
