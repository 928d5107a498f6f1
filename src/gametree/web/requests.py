"""API requests as command lines: each search request becomes the ``gametree`` arguments that
ask for the same search, and the command line's own parser checks them, so a bad value gets
the message ``gametree`` itself would print (``argument --depth: expected a whole number, got
'x'``), and a good one the same options (:func:`gametree.cli.searching.search_options`).

Every value is passed as ``--name=value``, so no text a client sends can be read as another
option or as ``--help``.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any, NoReturn

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from ..cli import build_parser
from ..cli.parser import CliParser
from ..registry import OptionError as GameOptionError
from ..registry import get

Scalar = StrictStr | StrictInt | StrictFloat | StrictBool
"""A JSON scalar a field accepts; it is turned into the text the command line would get."""

TREE_FILE_REFUSED = ("the tree option file names a file on the server, which the API does not "
                     "read: send the tree document itself as \"tree\"")


class UsageError(ValueError):
    """Arguments the command-line parser refused; the message is the parser's."""


class PositionRequest(BaseModel):
    """A game and a position: the game's name and options and the moves played from its start.

    ``options`` are the game's options as the command line names them (``rows``,
    ``misere``); values are texts as typed on the command line (``"1,3,5"``), numbers, lists
    of numbers, or ``true``/``false`` for switches. ``tree`` is an explicit tree as a JSON
    document (``docs/trees.md``), for the ``tree`` game instead of its ``file`` option.
    """

    model_config = ConfigDict(extra="forbid")

    game: StrictStr = Field(description="a game's name, as `gametree games` lists them",
                            examples=["connect4"])
    options: dict[StrictStr, Scalar | list[StrictInt | StrictStr] | None] = Field(
        default_factory=dict, description="the game's options, by name",
        examples=[{"width": 7, "height": 6}])
    tree: dict[str, Any] | list[Any] | None = Field(
        default=None, description="the tree game only: the tree as a JSON document")
    moves: StrictStr = Field(default="", description="the moves played from the start",
                             examples=["4455"])


class SearchRequest(PositionRequest):
    """A position and the search options of ``gametree solve`` (same names, same meanings)."""

    algorithm: Scalar | None = Field(default=None, examples=["engine"],
                                     description="engine, minimax, alphabeta or negamax")
    depth: Scalar | None = Field(default=None, description="plies to look ahead")
    time: Scalar | None = Field(default=None, description="seconds (capped by the server)")
    nodes: Scalar | None = Field(default=None, description="the engine's node budget")
    no_distance: StrictBool = Field(default=False, description="plain values (--no-distance)")
    fail_hard: StrictBool = Field(default=False, description="alphabeta: fail-hard bounds")
    exact: StrictBool = Field(default=False, description="every root move's exact value")
    seed: Scalar | None = Field(default=None, description="break ties at random from a seed")
    tier: Scalar | None = Field(default=None, description="auto, python or compiled")
    weak: StrictBool = Field(default=False, description="win, draw or loss only")


class MoveRequest(PositionRequest):
    """A position in a game, and how strong the engine's reply should be."""

    strength: StrictStr = Field(default="perfect", examples=["perfect"],
                                description="perfect (to the end of the game, within the "
                                            "server's time limit), depth or time")
    depth: Scalar | None = Field(default=None, description="strength depth: plies")
    time: Scalar | None = Field(default=None, description="strength time: seconds per move")
    seed: Scalar | None = Field(default=None, description="vary the engine's choice among "
                                                          "equally good moves")


class TreeRequest(PositionRequest):
    """A position to draw as a tree: every node of an explicit tree, or a game's moves to a
    small depth."""

    depth: Scalar | None = Field(default=None, description="plies to draw (games; default 2)")


class _ApiParser(CliParser):
    """The command line's parser, raising :class:`UsageError` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        """Raise the parser's message."""
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        """Never end the server: ``--help`` and the like are refused."""
        raise UsageError((message or "").strip() or "not a search request")


def api_parser() -> argparse.ArgumentParser:
    """The whole ``gametree`` parser, every sub-parser raising :class:`UsageError`."""
    parser = build_parser()
    pending: list[argparse.ArgumentParser] = [parser]
    while pending:
        current = pending.pop()
        current.__class__ = _ApiParser
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending.extend(action.choices.values())
    return parser


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return str(value)


def game_arguments(request: PositionRequest) -> list[str]:
    """The game's name, its options and ``--moves`` as command-line arguments (the game's
    name and option names checked against the registry first)."""
    spec = get(request.game)
    known = {option.name: option for option in spec.options}
    arguments = [spec.name]
    for name, value in request.options.items():
        option = known.get(name)
        if option is None:
            raise GameOptionError(f"{spec.name} has no option {name}; "
                                  f"options: {', '.join(known) or 'none'}")
        if spec.name == "tree" and name == "file":
            raise GameOptionError(TREE_FILE_REFUSED)
        flag = f"--{name.replace('_', '-')}"
        if option.flag:
            if not isinstance(value, bool) and value is not None:
                raise GameOptionError(f"{flag} is a switch: give true or false, got {value!r}")
            if value:
                arguments.append(flag)
        elif value is not None:
            arguments.append(f"{flag}={_text(value)}")
    if request.moves:
        arguments.append(f"--moves={request.moves}")
    return arguments


SEARCH_FIELDS: Mapping[str, str] = {
    "algorithm": "--algorithm", "depth": "--depth", "time": "--time", "nodes": "--nodes",
    "seed": "--seed", "tier": "--tier",
}
SWITCHES: Mapping[str, str] = {
    "no_distance": "--no-distance", "fail_hard": "--fail-hard", "exact": "--exact",
    "weak": "--weak",
}


def search_arguments(command: str, request: SearchRequest) -> list[str]:
    """``gametree COMMAND GAME ...`` for a search request (without the program name)."""
    arguments = [command, *game_arguments(request)]
    for name, flag in SEARCH_FIELDS.items():
        value = getattr(request, name)
        if value is not None:
            arguments.append(f"{flag}={_text(value)}")
    arguments.extend(flag for name, flag in SWITCHES.items() if getattr(request, name))
    return arguments


STRENGTHS = ("perfect", "depth", "time")


def move_arguments(request: MoveRequest) -> list[str]:
    """``gametree solve ...`` for the engine's reply at the strength asked for."""
    arguments = ["solve", *game_arguments(request)]
    if request.strength not in STRENGTHS:
        raise UsageError(f"strength must be one of {', '.join(STRENGTHS)}, "
                         f"got {request.strength!r}")
    if request.strength == "depth":
        if request.depth is None:
            raise UsageError("strength depth needs a depth (plies)")
        arguments.append(f"--depth={_text(request.depth)}")
    elif request.strength == "time":
        if request.time is None:
            raise UsageError("strength time needs a time (seconds per move)")
        arguments.append(f"--time={_text(request.time)}")
    if request.seed is not None:
        arguments.append(f"--seed={_text(request.seed)}")
    return arguments


def parse(parser: argparse.ArgumentParser, arguments: list[str]) -> argparse.Namespace:
    """Parse with :func:`api_parser`'s parser (raises :class:`UsageError`)."""
    return parser.parse_args(arguments)
