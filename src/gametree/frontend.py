"""What every front-end (the command line, the web server) shares: the search options type they
build, the options' names in their messages, game options read from text or JSON, the games
they offer, and the game list as JSON.

Neither front-end imports the other; both import this module, which imports neither.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .game import Game
from .options import Front, OptionError, SearchOptions, declared_options, option_names
from .registry import GameOption, GameOptionError, GameSpec, games, spec_at

TRACE_ALGORITHM = "alphabeta"
"""What a trace runs unless told otherwise: seed 004's alpha-beta, whose log the trace
reproduces, rather than the engine (whose preliminary probes and table would make the log hard
to follow for a learner)."""

CHANCE_TRACE_ALGORITHM = "expectiminimax"
"""What a trace of a game with chance runs where :data:`TRACE_ALGORITHM` was asked for:
alpha-beta has no chance nodes; the textbook's next chapter, expectiminimax, has."""


def trace_options(game: Game[Any, Any], options: SearchOptions) -> SearchOptions:
    """``options`` for a trace of ``game``: :data:`CHANCE_TRACE_ALGORITHM` instead of
    :data:`TRACE_ALGORITHM` for a game with chance, else ``options`` as they are."""
    if game.has_chance and options.algorithm == TRACE_ALGORITHM:
        return dataclasses.replace(options, algorithm=CHANCE_TRACE_ALGORITHM)
    return options


_options_type: type[SearchOptions] = SearchOptions


def options_type() -> type[SearchOptions]:
    """The search options class the front-ends build and offer: :class:`SearchOptions`, or
    the subclass installed by :func:`using_options` (one that declares more options)."""
    return _options_type


@contextlib.contextmanager
def using_options(kind: type[SearchOptions]) -> Iterator[type[SearchOptions]]:
    """Within the block, front-ends built (parsers, applications) offer the options declared
    by ``kind``, a subclass of :class:`SearchOptions`, and search with it."""
    global _options_type  # noqa: PLW0603 - the one options type of the process
    if not (isinstance(kind, type) and issubclass(kind, SearchOptions)):
        raise TypeError(f"expected a subclass of SearchOptions, got {kind!r}")
    declared_options(kind)  # every field declared, or a TypeError now
    previous, _options_type = _options_type, kind
    try:
        yield kind
    finally:
        _options_type = previous


def option_error_text(error: OptionError, front: Front) -> str:
    """``error``'s message with the options named as ``front`` names them (``--fail-hard``
    on the command line, ``fail_hard`` in the web API)."""
    return error.text(option_names(front, options_type()))


# -- game options --------------------------------------------------------------------------


def option_default_text(option: GameOption) -> str | None:
    """An option's default as it would be typed (``1,3,5,7``), or ``None`` if it has none."""
    value = option.default
    if option.flag or value is None:
        return None
    if isinstance(value, (tuple, list)):
        return ",".join(str(item) for item in value)
    return str(value)


def game_option_value(option: GameOption, value: object) -> Any:
    """A game option's value from what a person or a program gave: a text as typed on the
    command line (``"1,3,5"``), a number, a list of numbers or texts (joined with commas), or
    for a switch ``True``/``False``. Raises :class:`GameOptionError` saying what is wrong,
    without the option's name (each front-end names it its own way)."""
    if option.flag:
        if not isinstance(value, bool):
            raise GameOptionError(f"a switch: give true or false, got {value!r}")
        return value
    if isinstance(value, bool):
        raise GameOptionError(f"expected a value, not {value!r}")
    if isinstance(value, (list, tuple)):
        if any(isinstance(item, (bool, list, tuple, dict)) for item in value):
            raise GameOptionError(f"expected a list of numbers or texts, got {value!r}")
        text = ",".join(str(item) for item in value)
    elif isinstance(value, (str, int, float)):
        text = str(value)
    else:
        raise GameOptionError(f"expected a text, a number or a list, got {value!r}")
    try:
        return option.parse(text)
    except ValueError as error:
        raise GameOptionError(str(error)) from None


def game_options(spec: GameSpec, given: Mapping[str, object]) -> dict[str, Any]:
    """The values of the game options ``given`` by name (``None``: the default), each read by
    :func:`game_option_value`. Raises :class:`GameOptionError` naming the option at fault."""
    known = {option.name: option for option in spec.options}
    values: dict[str, Any] = {}
    for name, value in given.items():
        option = known.get(name)
        if option is None:
            raise GameOptionError(f"{spec.name} has no option {name}; "
                                  f"options: {', '.join(known) or 'none'}")
        if value is None:
            continue
        try:
            values[name] = game_option_value(option, value)
        except GameOptionError as error:
            raise GameOptionError(f"{spec.name} option {name}: {error}") from None
    return values


# -- the games offered -----------------------------------------------------------------------


def offered_games(paths: Sequence[str] | None = None) -> dict[str, GameSpec]:
    """The games a front-end offers, by name: those the paths name
    (:func:`gametree.registry.spec_at`: ``"package.module:NAME"``, ``"file.py:NAME"``, or a
    module or file alone), or (``None``) every registered game, plugins included."""
    if paths is None:
        return dict(games())
    offered: dict[str, GameSpec] = {}
    for path in paths:
        spec = spec_at(path)
        if spec.name in offered:
            raise GameOptionError(f"two games are called {spec.name!r} ({path!r} and another)")
        offered[spec.name] = spec
    if not offered:
        raise GameOptionError("no game to offer: give at least one")
    return offered


def spec_json(spec: GameSpec) -> dict[str, Any]:
    """One game as a JSON-ready dict: name, summary, move notation, whether it can be sent as
    a JSON document (``document``: the API's ``tree`` field), the text format of its own
    that its records are also kept in (``transcript``: ``{"name": "PGN", "suffix": ".pgn"}``
    or ``null``; the API's ``/api/transcript`` routes), and its options with their
    defaults (``reads_file``: the option names a file, which the API does not read)."""
    return {
        "name": spec.name,
        "summary": spec.summary,
        "notation": spec.notation,
        "document": spec.from_document is not None,
        "transcript": None if spec.transcript is None else {
            "name": spec.transcript.name, "suffix": spec.transcript.suffix},
        "options": [{"name": option.name, "flag": option.flag, "help": option.help,
                     "default": option_default_text(option), "reads_file": option.reads_file}
                    for option in spec.options],
    }


def games_json(specs: Mapping[str, GameSpec]) -> list[dict[str, Any]]:
    """The game list as ``gametree games --json`` prints it and ``GET /api/games`` gives it."""
    return [spec_json(spec) for spec in specs.values()]
