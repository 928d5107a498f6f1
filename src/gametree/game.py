"""The Game contract: the few methods a game implements so that every search can play it.

The search knows nothing about any particular game (seed 004: "minimax knows nothing
whatsoever about The Sticks Game"). It only calls the methods below. A game is a small class,
usually stateless, whose *states* are immutable, hashable values (tuples, ints, frozen
dataclasses): the search keeps them in tables and never copies or mutates them.

Required methods: :meth:`Game.initial_state`, :meth:`Game.to_move`, :meth:`Game.moves`,
:meth:`Game.play` and :meth:`Game.outcome`. Everything else has a sensible default:
:meth:`Game.evaluate` (heuristic, for depth-limited search), :meth:`Game.key` (identity for
transposition tables), :meth:`Game.order_moves` (a move-ordering hint),
:meth:`Game.format_move` / :meth:`Game.parse_move` (moves as text), :meth:`Game.render` and
:meth:`Game.view` (the position described for drawing, see :mod:`gametree.view`).

A state with no legal moves whose :meth:`Game.outcome` is ``None`` is a *horizon*: the search
values it with :meth:`Game.evaluate`. Explicit trees use this for their numeric leaves (the
look-ahead stops there, the game is not over); real games should give every state without
moves an outcome.

**Chance** is an optional extension that games without chance never see: a game with dice or
shuffles sets :attr:`Game.has_chance` and, at a state where chance moves, returns :data:`CHANCE`
from :meth:`Game.to_move`; :meth:`Game.chance_outcomes` then gives each outcome with its
probability, and :meth:`Game.moves` the same outcomes in the same order (so that
:meth:`Game.play`, :meth:`Game.format_move` and :meth:`Game.parse_move` treat an outcome like
any move). :meth:`Game.turn` says whose turn it is at a chance state (who rolls the die). See
``docs/contract.md``, section "Chance".

A complete example, the Game of Bones of seed 001 (a heap of bones, take 1, 2 or 3, who
cannot take loses)::

    class Bones(Game[tuple[int, int], int]):
        def initial_state(self) -> tuple[int, int]:
            return (6, 0)                      # (bones left, player to move)

        def to_move(self, state: tuple[int, int]) -> int:
            return state[1]

        def moves(self, state: tuple[int, int]) -> list[int]:
            return [take for take in (1, 2, 3) if take <= state[0]]

        def play(self, state: tuple[int, int], move: int) -> tuple[int, int]:
            return (state[0] - move, 1 - state[1])

        def outcome(self, state: tuple[int, int]) -> int | None:
            if state[0] > 0:
                return None
            return -1 if state[1] == 0 else 1  # the player to move cannot take: they lose
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Final, Generic, TypeVar

from .values import Outcome, Value, for_player, outcome_of
from .view import View, text_view

if TYPE_CHECKING:
    from .compiled.form import CompiledForm

S = TypeVar("S", bound=Hashable)
"""The type of a game's states: immutable and hashable."""

M = TypeVar("M", bound=Hashable)
"""The type of a game's moves: hashable, so that tables can remember them."""


CHANCE: Final = -1
"""What :meth:`Game.to_move` returns at a state where chance moves (a die is rolled), in a game
whose :attr:`Game.has_chance` is true. An ``int`` (OpenSpiel's chance player id), so that
``to_move`` keeps its type; players are 0 and 1, never -1."""

Probability = Fraction | float
"""The probability of a chance outcome: a :class:`fractions.Fraction` where it is exact (the
values computed from it then stay exact), a ``float`` otherwise."""


class GameError(Exception):
    """A game was used in a way its rules do not allow (base class of the errors below)."""


class IllegalMoveError(GameError):
    """A move that cannot be played in the given state, or text that names no legal move.

    The message says why, in words meant for the person who typed the move.
    """


class PositionError(GameError):
    """A position description (a move list, a board, a tree) that is malformed or unreachable."""


class ContractError(GameError):
    """A game broke the contract: for example a state with no moves that is not finished."""


class ChanceError(GameError):
    """A game with chance nodes was given to a search (or a part) that cannot handle chance;
    the message names what can."""


class TooDeepError(ValueError):
    """A search without a depth limit went deeper than Python's recursion allows."""


class Game(ABC, Generic[S, M]):
    """A two-player, turn-based, perfect-information game.

    Players are numbered 0 (who moves first, MAX in the seeds' diagrams) and 1. Results are
    reported from player 0's side: positive means player 0 won.
    """

    name: str = "game"
    """A short name for messages and logs."""

    player_names: tuple[str, str] = ("first player", "second player")
    """How to call players 0 and 1 when talking to people (``("X", "O")`` for tic-tac-toe)."""

    has_chance: bool = False
    """True for a game with chance states (where :meth:`to_move` returns :data:`CHANCE`).
    Searches that know no chance refuse such a game with a :class:`ChanceError`."""

    search_time: float | None = None
    """Seconds a search (:func:`gametree.search`) gets when it is given no depth, time or node
    budget, for a game whose search to the end would never finish (chess: 10). ``None`` (the
    default): such a search solves the game to its end."""

    @abstractmethod
    def initial_state(self) -> S:
        """The state in which the game starts."""

    @abstractmethod
    def to_move(self, state: S) -> int:
        """The player (0 or 1) whose turn it is in ``state``.

        Defined for finished states too (the player who would move next). Usually players
        alternate, but a move may leave the same player to move (an extra turn): every search
        in gametree handles both. In a game whose :attr:`has_chance` is true, a state where
        chance moves returns :data:`CHANCE` instead.
        """

    @abstractmethod
    def moves(self, state: S) -> Sequence[M]:
        """The legal moves in ``state``, in the order the search should try them.

        Must be empty when the game is over. The order matters: it decides which of several
        equally good moves is chosen and how much alpha-beta can prune.
        """

    @abstractmethod
    def play(self, state: S, move: M) -> S:
        """The state after ``move`` is played in ``state`` (a new value; ``state`` is unchanged).

        May assume that ``move`` is legal: the search only plays moves from :meth:`moves`.
        Use :meth:`checked_play` for moves that come from outside.
        """

    @abstractmethod
    def outcome(self, state: S) -> Value | None:
        """``None`` while the game goes on; once it is over, its utility for player 0.

        Positive: player 0 won; negative: player 0 lost; zero: a draw. The magnitude is the
        "plain" value the seeds print (tic-tac-toe uses 10, Bones uses 1); under distance
        scoring only the sign counts.
        """

    def chance_outcomes(self, state: S) -> Sequence[tuple[M, Probability]]:
        """At a chance state (:meth:`to_move` is :data:`CHANCE`): each outcome with its
        probability, in the order of :meth:`moves`; the probabilities are positive and sum to 1.

        An outcome is a move like any other: :meth:`play` plays it, :meth:`format_move` writes
        it and :meth:`parse_move` reads it, so a line of moves can reach any position. Only
        games whose :attr:`has_chance` is true override this; the default raises
        :class:`ContractError`.
        """
        raise ContractError(f"{type(self).__name__} has no chance states (its has_chance is "
                            f"false), so it has no chance outcomes")

    def turn(self, state: S) -> int:
        """The player (0 or 1) whose turn it is in ``state``, also at a chance state: the player
        who rolls the die, from whose side a chance state's value is reported.

        The default is :meth:`to_move`, which is right for every state that is not a chance
        state; a game with chance overrides it.
        """
        return self.to_move(state)

    def value_bounds(self) -> tuple[Value, Value] | None:
        """Optional, for a game with chance: the least and the greatest value any state can
        have, seen from player 0 — bounds on every :meth:`outcome` and :meth:`evaluate`
        (Pig: ``(-1, 1)``). With them the engine prunes at chance states (Star1/Star2,
        Ballard 1983); ``None`` (the default) searches every chance outcome.
        """
        return None

    def evaluate(self, state: S) -> Value:
        """A heuristic estimate of a state that is not finished, seen from player 0.

        Used when a depth limit stops the search ("static board evaluator", seed 004).
        Must lie within ``±gametree.values.HEURISTIC_LIMIT``. The default knows nothing and
        says 0; override it to play well under a depth limit.
        """
        return 0

    def order_moves(self, state: S, moves: Sequence[M]) -> Sequence[M]:
        """Optional hint: ``moves`` (legal in ``state``) sorted with the most promising first.

        Good ordering lets alpha-beta prune far more (seed 004). The engine calls this only if a
        game overrides it; the reference algorithms always use :meth:`moves` order as given.
        """
        return moves

    def noisy_moves(self, state: S) -> Sequence[M]:
        """Optional: the moves of ``state`` worth playing beyond the depth limit (captures and
        promotions in chess), most promising first, so that a position is not judged in the
        middle of an exchange.

        A game that overrides this is searched with a *quiescence search* at the horizon: the
        engine takes :meth:`evaluate` as what the player to move can at least get ("stand
        pat") and tries these moves (with their own noisy replies) to see whether one does
        better. Only the engine calls it, only where the depth limit stops the search; a game
        without it is searched exactly as before. The default: no noisy moves.
        """
        return ()

    def key(self, state: S) -> Hashable:
        """A compact hashable identity of ``state`` for transposition tables.

        Two states with the same key must have the same value and the same player to move;
        a key may therefore merge states that are equivalent for search, such as a board and
        its mirror image. The default is the state itself.
        """
        return state

    def format_move(self, state: S, move: M) -> str:
        """``move`` (legal in ``state``) as text for people; :meth:`parse_move` reads it back."""
        return str(move)

    def parse_move(self, state: S, text: str) -> M:
        """The legal move in ``state`` that ``text`` names.

        Raises :class:`IllegalMoveError` with a reason a person can act on. The default accepts
        exactly the texts :meth:`format_move` produces (ignoring case and surrounding spaces).
        """
        wanted = text.strip().lower()
        legal = self.moves(state)
        for move in legal:
            if self.format_move(state, move).lower() == wanted:
                return move
        if not legal:
            raise IllegalMoveError("the game is over: there is no move to play")
        choices = ", ".join(self.format_move(state, move) for move in legal)
        raise IllegalMoveError(f"{text.strip()!r} is not a legal move; legal moves: {choices}")

    def render(self, state: S) -> str:
        """``state`` drawn as text for a terminal (may span several lines)."""
        return repr(state)

    def view(self, state: S, last: M | None = None) -> View:
        """Optional: ``state`` described for drawing, a :class:`gametree.view.View` — a grid of
        labelled cells, heaps, a tree node or text, with where each legal move acts, the key
        that plays it and how a line of moves is joined. The web page and the terminal draw
        from it, so a game that declares its view is drawn the same by both with no code of
        theirs. ``last`` is the move that led to ``state``, if known (a view may mark it).

        The default is a text view: :meth:`render` with its spacing kept, the legal moves as a
        list, no keys (:func:`gametree.view.text_view`).
        """
        return text_view(self, state)

    def compiled_form(self) -> CompiledForm[S, M] | None:
        """Optional: the game's compiled form — its kernel (the rules as numba functions, see
        ``docs/kernels.md``) and the translations between its states and moves and the
        kernel's. The search uses it to run the compiled tier.

        ``None`` (the default) if the game has none. A game that has a kernel, but not for its
        present options (a board too large for the kernel's bitboards), raises
        :class:`gametree.compiled.KernelError` saying why.
        """
        return None

    def checked_play(self, state: S, move: M) -> S:
        """Like :meth:`play`, but first raise :class:`IllegalMoveError` if ``move`` is illegal."""
        if self.outcome(state) is not None:
            raise IllegalMoveError("the game is over: no more moves can be played")
        if move not in self.moves(state):
            raise IllegalMoveError(f"{move!r} is not a legal move here")
        return self.play(state, move)

    def is_over(self, state: S) -> bool:
        """True if the game has ended in ``state``."""
        return self.outcome(state) is not None

    def format_line(self, state: S, moves: Iterable[M]) -> list[str]:
        """The texts of ``moves`` played one after another from ``state`` (each move written
        in the position it is played from)."""
        texts = []
        for move in moves:
            texts.append(self.format_move(state, move))
            state = self.play(state, move)
        return texts


def is_chance(game: Game[S, M], state: S) -> bool:
    """True if chance moves in ``state`` (always false for a game without chance)."""
    return game.has_chance and game.to_move(state) == CHANCE


def refuse_chance(game: Game[S, M], what: str) -> None:
    """Raise :class:`ChanceError` if ``game`` has chance states: ``what`` (for example
    ``"minimax"``) cannot search them; the message names the searches that can."""
    if game.has_chance:
        raise ChanceError(
            f"{game.name} has chance moves, which {what} cannot search; search it with "
            f"expectiminimax (the reference family) or the Python-tier engine (Star1/Star2)")


def chance_line_result(game: Game[S, M], state: S,
                       line: Sequence[M]) -> tuple[Outcome | None, int | None]:
    """The result of ``line`` played from ``state``, for the player whose turn it is in
    ``state``, and its length in plies — when the line reaches the end of the game with no
    chance state on the way (``state`` included); else ``(None, None)``.

    A search of a game with chance says "win in N" only for such a line: its value is then the
    utility at its end, not an average over dice."""
    if is_chance(game, state):
        return None, None
    player = game.turn(state)
    for move in line:
        state = game.play(state, move)
        if is_chance(game, state):
            return None, None
    utility = game.outcome(state)
    if utility is None:
        return None, None
    result = outcome_of(for_player(utility, player))
    return result, None if result == "draw" else len(line)


def checked_player(game: Game[S, M], state: S) -> int:
    """``game.to_move(state)``, or :class:`ContractError` if it is not the player 0 or 1
    (or :data:`CHANCE`, in a game with chance)."""
    player = game.to_move(state)
    if player == CHANCE and player.__class__ is int and game.has_chance:
        return player
    if player.__class__ is not int or not 0 <= player <= 1:
        raise ContractError(
            f"{type(game).__name__}.to_move returned {player!r} for {_shown(state)}: players "
            f"are numbered 0 (who moves first) and 1")
    return player


def check_root(game: Game[S, M], state: S) -> tuple[int, Hashable]:
    """The player to move in ``state`` and ``state``'s key; :class:`ContractError` if
    ``state``, where a search starts, breaks the contract in a way the search would otherwise
    misread: a player that is not 0 or 1, or a state (or key) that cannot be hashed, as a
    transposition table needs."""
    player = checked_player(game, state)
    try:
        key = game.key(state)
        hash(key)
        return player, key
    except TypeError:
        raise ContractError(
            f"{type(game).__name__}: the state {_shown(state)} (or its key) is not hashable: "
            f"states must be immutable and hashable values (tuples, ints, frozen dataclasses), "
            f"not lists or dicts") from None


def check_line(game: Game[S, M], state: S, moves: Iterable[M]) -> None:
    """Raise :class:`ContractError` if playing ``moves`` from ``state`` comes back to a state
    already on the line (by :meth:`Game.key`): such a game can go on for ever, and a search
    would value a position by itself."""
    seen = {game.key(state)}
    texts: list[str] = []
    for move in moves:
        texts.append(str(move))
        state = game.play(state, move)
        key = game.key(state)
        if key in seen:
            raise _never_ends(game, state, texts)
        seen.add(key)


def search_too_deep(game: Game[S, M], state: S, depth: int) -> Exception:
    """What to raise when a search from ``state`` ran out of Python's recursion: that the game
    never ends, if a state repeats along the line of first moves; else that it is deeper than
    a search without a depth limit can go (about ``depth`` plies)."""
    seen = {game.key(state)}
    texts: list[str] = []
    for _ in range(depth):
        moves = game.moves(state)
        if not moves or game.outcome(state) is not None:
            break
        texts.append(str(moves[0]))
        state = game.play(state, moves[0])
        key = game.key(state)
        if key in seen:
            return _never_ends(game, state, texts)
        seen.add(key)
    return TooDeepError(f"the game goes deeper than Python's recursion limit allows (about "
                        f"{depth} plies); search it with a depth limit")


def _never_ends(game: Game[S, M], state: S, texts: list[str]) -> ContractError:
    line = " ".join(texts if len(texts) <= 12 else [*texts[:11], "..."])
    return ContractError(
        f"{type(game).__name__}: the game never ends: after the moves {line} the state "
        f"{_shown(state)} repeats; every game must end, so no state may come back along a "
        f"line (give such states an outcome, or make the state record what differs)")


def _shown(state: object) -> str:
    text = repr(state)
    return text if len(text) <= 60 else text[:57] + "..."
