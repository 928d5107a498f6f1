"""The registry of games: front-ends find games here by name, with their options.

Each game module describes itself with a :class:`GameSpec` named ``SPEC``; the registry only
knows which modules hold games, so a game stays in one place and the search never sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .game import Game, GameError, IllegalMoveError, PositionError
from .result import SearchResult

BUILTIN_GAMES: dict[str, str] = {
    "tictactoe": "gametree.games.tictactoe",
    "bones": "gametree.games.bones",
    "subtraction": "gametree.games.subtraction",
    "nim": "gametree.games.nim",
    "sticks": "gametree.games.sticks",
    "connect4": "gametree.games.connect4",
    "tree": "gametree.games.tree",
    "pig": "gametree.games.pig",
    "openspiel": "gametree.games.openspiel",
    "chess": "gametree.games.chess",
}
"""The built-in games' names and the modules that define their ``SPEC``, in the order
``gametree games`` lists them. :func:`get` imports the module of the one game it is asked for
(a command names one game: the others' modules are 4 ms of its start)."""


class UnknownGameError(GameError, KeyError):
    """No game is registered under the name asked for; the message lists the known ones."""

    def __str__(self) -> str:
        return str(self.args[0])


class GameOptionError(GameError, ValueError):
    """A game option has a value the game cannot use; the message says what it expects."""


@dataclass(frozen=True)
class GameOption:
    """One option of a game, as the command line spells it (``--rows 1,3,5``)."""

    name: str
    """The option name without dashes (``rows``); the keyword passed to the game's builder."""

    help: str
    """One line for ``--help`` and ``gametree games``."""

    parse: Callable[[str], Any] = str
    """Turns the command-line text into the value (raise ``ValueError`` with a reason)."""

    default: Any = None
    """The value when the option is not given."""

    metavar: str | None = None
    """The placeholder shown in help (``N``, ``1,3,5,7``)."""

    flag: bool = False
    """A switch that takes no value (``--misere``)."""

    reads_file: bool = False
    """The value names a file to read (the tree game's ``--file``): a front-end that serves
    others (the web API) refuses it rather than read its own machine's files."""


def split_on_spaces(text: str) -> list[str]:
    """The default way to split a ``--moves`` text: on whitespace and semicolons."""
    return text.replace(";", " ").split()


def read_moves_line(line: str) -> tuple[str, dict[str, Any]]:
    """The default way to read a line of a ``--moves-file``: all of it is a moves text.

    Returns the moves text and the expected values the line states (none here). Games whose
    files carry expected results (Connect Four's ``moves score``) give their own reader.
    """
    return line.strip(), {}


ExtraJson = Callable[[Game[Any, Any], Any, SearchResult[Any]], dict[str, Any]]
"""Extra JSON fields for a search result: ``(game, state searched, result) -> {name: value}``."""


@dataclass(frozen=True)
class Transcript:
    """A text format of its own that a game's records are also read and written in (chess's
    PGN), beside gametree's JSON record (docs/records.md). ``gametree.records`` reads and
    writes it for every front-end: a file whose name ends in :attr:`suffix`, and the web
    API's ``/api/transcript`` routes."""

    name: str
    """What people call the format (``PGN``)."""

    suffix: str
    """How a file in the format is named (``.pgn``), lower case."""

    write: Callable[[Mapping[str, Any]], str]
    """The text of a game record, given as its JSON object (docs/records.md)."""

    read: Callable[[str], dict[str, Any]]
    """The first game of a text as the record keys ``options``, ``players``, ``moves`` and
    ``date`` (their JSON values); :class:`ValueError`, in one line, for a text that is not a
    game in the format or names a move that cannot be played (saying which)."""


@dataclass(frozen=True)
class GameSpec:
    """A registered game: how to build it, its options and how its moves are written."""

    name: str
    """The name front-ends use (``tictactoe``)."""

    summary: str
    """One line saying what the game is."""

    notation: str
    """How a move is written, for people (``row,col (0-based) or cell 1-9``)."""

    build: Callable[..., Game[Any, Any]]
    """Builds the game from keyword options named as in :attr:`options`."""

    options: tuple[GameOption, ...] = ()
    """The options, in the order help lists them."""

    split_moves: Callable[[str], list[str]] = field(default=split_on_spaces)
    """Splits a ``--moves`` text into the texts of single moves."""

    extra_json: ExtraJson | None = None
    """Game-specific fields added to a search result's JSON (Connect Four adds Pons' ``score``);
    :meth:`result_json` merges them in."""

    from_document: Callable[[Any], Game[Any, Any]] | None = None
    """Builds the game from a JSON document given instead of its options (an explicit tree,
    docs/trees.md; the web API's ``tree`` field); ``None``: the game takes no document.
    Raises ``ValueError`` or :class:`GameError` for a document it cannot read."""

    read_line: Callable[[str], tuple[str, dict[str, Any]]] = field(default=read_moves_line)
    """Reads one line of a ``--moves-file`` into a moves text and the expected values it
    states, keyed like the JSON fields they predict (``{"score": 18}``). Raises ``ValueError``
    for a line it cannot read."""

    transcript: Transcript | None = None
    """A text format the game's records are also kept in (chess's PGN); ``None``: JSON only."""

    def result_json(self, game: Game[Any, Any], state: Any,
                    result: SearchResult[Any]) -> dict[str, Any]:
        """``result.to_dict`` plus the game's :attr:`extra_json` fields."""
        document = result.to_dict(game, state)
        if self.extra_json is not None:
            document.update(self.extra_json(game, state, result))
        return document

    def make(self, **options: Any) -> Game[Any, Any]:
        """Build the game; options left out take their defaults.

        Raises :class:`GameOptionError` for an unknown option or a value the game rejects.
        """
        known = {option.name: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise GameOptionError(f"{self.name} has no option {', '.join(unknown)}; "
                              f"options: {', '.join(known) or 'none'}")
        values = {name: option.default for name, option in known.items()}
        values.update(options)
        try:
            return self.build(**values)
        except GameOptionError:
            raise
        except (ValueError, GameError) as error:
            raise GameOptionError(f"{self.name}: {error}") from None


def spec_at(path: str) -> GameSpec:
    """The game an import path or a file path names (:func:`gametree.plugins.spec_at`):
    ``"package.module:NAME"``, ``"path/to/file.py:NAME"``, or a module or file alone for its
    ``SPEC``. Raises :class:`UnknownGameError` saying what is wrong."""
    from .plugins import spec_at as found_at  # noqa: PLC0415 - plugins builds on this module

    return found_at(path)


_REGISTRY: dict[str, GameSpec] = {}
"""Every game, once :func:`games` has been asked for them all."""
_BUILTIN: dict[str, GameSpec] = {}
"""The built-in games whose modules are imported, by name."""
_PLUGINS: list[dict[str, GameSpec]] = []
"""The games of the plugins and of ``$GAMETREE_GAMES``, once loaded (one dict)."""
_BROKEN: list[Any] = []
_ADDED: dict[str, GameSpec] = {}


def games() -> Mapping[str, GameSpec]:
    """Every game by name: the built-in ones, those of the installed plugins (entry points of
    the group ``gametree.games``: :mod:`gametree.plugins`) and any added by :func:`register`.
    A plugin that cannot be loaded is left out: :func:`broken_games` says why."""
    if not _REGISTRY:
        plugins = _plugin_games()
        _REGISTRY.update({name: _builtin(name) for name in BUILTIN_GAMES})
        _REGISTRY.update(plugins)
    return _REGISTRY


def _builtin(name: str) -> GameSpec:
    """The built-in game ``name``, its module imported on first use."""
    spec = _BUILTIN.get(name)
    if spec is None:
        spec = _BUILTIN[name] = spec_at(BUILTIN_GAMES[name])
    return spec


def _plugin_games() -> dict[str, GameSpec]:
    """The games of the installed plugins and of ``$GAMETREE_GAMES`` (a game there may take a
    built-in one's name), loaded once; those that fail go to :data:`_BROKEN`."""
    if not _PLUGINS:
        from .plugins import installed_games  # noqa: PLC0415 - plugins builds on this module

        plugins, broken = installed_games(frozenset(BUILTIN_GAMES))
        _BROKEN[:] = broken
        _PLUGINS.append(plugins)
    return _PLUGINS[0]


def broken_games() -> list[str]:
    """One line for each plugin (or path in ``$GAMETREE_GAMES``) that could not be loaded,
    naming it, where it comes from and its error; front-ends show them as warnings."""
    _plugin_games()
    return [str(broken) for broken in _BROKEN]


def register(spec: GameSpec) -> None:
    """Add a game (a user's own, for example) so that front-ends can find it by name."""
    games()
    _REGISTRY[spec.name] = spec
    _ADDED[spec.name] = spec


def added_games() -> Mapping[str, GameSpec]:
    """The games :func:`register` added in this process (and still registered under their
    names). A process started afresh (``serve``'s workers) runs none of the code that added
    them: :func:`gametree.plugins.share_added_games` names them for it."""
    return {name: spec for name, spec in _ADDED.items() if games().get(name) is spec}


def get(name: str) -> GameSpec:
    """The game registered as ``name``; :class:`UnknownGameError` lists the known ones."""
    if not _REGISTRY and name in BUILTIN_GAMES and name not in _plugin_games():
        return _builtin(name)
    known = games()
    if name not in known:
        for broken in _BROKEN:
            if broken.name == name:
                raise UnknownGameError(str(broken))
        raise UnknownGameError(f"unknown game {name!r}; games: {', '.join(known)}")
    return known[name]


def make(name: str, /, **options: Any) -> Game[Any, Any]:
    """Build the game registered as ``name`` with the given options (a game may have an option
    called ``name``: the openspiel game's)."""
    return get(name).make(**options)


def play_moves(game: Game[Any, Any], texts: list[str], start: Any = None) -> Any:
    """Play the moves named by ``texts`` from ``start`` (default: the initial state).

    Raises :class:`PositionError` naming the first move that cannot be played, and why.
    """
    return play_line(game, texts, start)[0]


def play_line(game: Game[Any, Any], texts: list[str], start: Any = None) -> tuple[Any, Any]:
    """:func:`play_moves`, also returning the last move played (``None`` for no moves), which
    a view may mark."""
    state = game.initial_state() if start is None else start
    move = None
    for number, text in enumerate(texts, start=1):
        try:
            move = game.parse_move(state, text)
            state = game.play(state, move)
        except IllegalMoveError as error:
            raise PositionError(f"move {number} ({text!r}) cannot be played: {error}") from None
    return state, move
